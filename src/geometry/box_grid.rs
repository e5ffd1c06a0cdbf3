//! A uniform grid of upright boxes, each under a slot number: which pieces
//! may lie within some distance of an area, without looking at every piece.
//!
//! The answer is a superset: every slot whose box is within the distance,
//! found through the cells the area covers, never one left out. Callers keep
//! their exact test on what it returns, so pruning with it changes no answer.
//! Slots come back in ascending order, so that "the first piece in the
//! list" stays the same piece as in a scan of the whole list.

use super::Bounds;
use std::collections::BTreeMap;

/// Slots filed by the grid cells their boxes cover.
#[derive(Clone, Debug, Default)]
pub struct BoxGrid {
    cell: f64,
    cells: BTreeMap<(i64, i64), Vec<usize>>,
    /// Each slot's box as filed (none for an empty slot).
    boxes: Vec<Option<Bounds>>,
    /// Slots whose box is not finite: they are candidates for every query.
    anywhere: Vec<usize>,
}

impl BoxGrid {
    /// An empty grid of square cells `cell` wide (at least a thousandth).
    pub fn new(cell: f64) -> BoxGrid {
        let cell = if cell.is_finite() {
            cell.max(1e-3)
        } else {
            1.0
        };
        BoxGrid {
            cell,
            ..BoxGrid::default()
        }
    }

    /// The number of slots, filed or empty.
    pub fn len(&self) -> usize {
        self.boxes.len()
    }

    /// Whether it has no slot.
    pub fn is_empty(&self) -> bool {
        self.boxes.is_empty()
    }

    /// File `slot` under box `b`, replacing where it was filed before.
    pub fn file(&mut self, slot: usize, b: Bounds) {
        self.remove(slot);
        if self.boxes.len() <= slot {
            self.boxes.resize(slot + 1, None);
        }
        self.boxes[slot] = Some(b);
        match self.span(&b, 0.0) {
            Some((x0, y0, x1, y1)) => {
                for x in x0..=x1 {
                    for y in y0..=y1 {
                        self.cells.entry((x, y)).or_default().push(slot);
                    }
                }
            }
            None => self.anywhere.push(slot),
        }
    }

    /// Take `slot` out of the grid.
    pub fn remove(&mut self, slot: usize) {
        let Some(b) = self.boxes.get_mut(slot).and_then(Option::take) else {
            return;
        };
        match self.span(&b, 0.0) {
            Some((x0, y0, x1, y1)) => {
                for x in x0..=x1 {
                    for y in y0..=y1 {
                        if let Some(v) = self.cells.get_mut(&(x, y)) {
                            v.retain(|s| *s != slot);
                            if v.is_empty() {
                                self.cells.remove(&(x, y));
                            }
                        }
                    }
                }
            }
            None => self.anywhere.retain(|s| *s != slot),
        }
    }

    /// The slots whose boxes may be within `d` of `area`, ascending: all
    /// whose box is within `d`, and those with a box that is not finite.
    pub fn near(&self, area: &Bounds, d: f64) -> Vec<usize> {
        let mut out: Vec<usize> = match self.span(area, d) {
            Some((x0, y0, x1, y1)) if self.cells_in(x0, y0, x1, y1) <= self.cells.len() as u128 => {
                let mut v = Vec::new();
                for x in x0..=x1 {
                    for (_, slots) in self.cells.range((x, y0)..=(x, y1)) {
                        v.extend(slots.iter().copied().filter(|s| self.close(*s, area, d)));
                    }
                }
                v
            }
            // A query wider than the filed cells: look at each slot instead.
            Some(_) => (0..self.boxes.len())
                .filter(|s| self.close(*s, area, d))
                .collect(),
            None => (0..self.boxes.len())
                .filter(|s| self.boxes[*s].is_some())
                .collect(),
        };
        out.extend(self.anywhere.iter().copied());
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Whether filed slot `s` has a finite box within `d` of `area`.
    fn close(&self, s: usize, area: &Bounds, d: f64) -> bool {
        self.boxes.get(s).copied().flatten().is_some_and(|b| {
            // Written so that a NaN gap keeps the slot, as a scan would.
            let far = b.gap(area) > d;
            finite(&b) && !far
        })
    }

    fn cells_in(&self, x0: i64, y0: i64, x1: i64, y1: i64) -> u128 {
        let w = (i128::from(x1) - i128::from(x0) + 1).max(0) as u128;
        let h = (i128::from(y1) - i128::from(y0) + 1).max(0) as u128;
        w * h
    }

    /// The cells `b` grown by `d` covers; none when it is not finite.
    fn span(&self, b: &Bounds, d: f64) -> Option<(i64, i64, i64, i64)> {
        // A distance that is NaN or infinite reaches every cell.
        if !finite(b) || d.is_nan() || d == f64::INFINITY {
            return None;
        }
        let d = d.max(0.0);
        // A hair more than `d`, so that rounding in growing the box never
        // leaves out a cell a box within `d` lies in.
        let d = d + 1e-9 * (1.0 + d + b.min.x.abs().max(b.min.y.abs()));
        let d = d + 1e-9 * (b.max.x.abs().max(b.max.y.abs()));
        let at = |v: f64| (v / self.cell).floor() as i64;
        Some((
            at(b.min.x - d),
            at(b.min.y - d),
            at(b.max.x + d),
            at(b.max.y + d),
        ))
    }
}

fn finite(b: &Bounds) -> bool {
    b.min.is_finite() && b.max.is_finite()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Point;

    fn sq(x: f64, y: f64, w: f64) -> Bounds {
        Bounds {
            min: Point { x, y },
            max: Point { x: x + w, y: y + w },
        }
    }

    #[test]
    fn finds_every_box_within_the_distance_and_follows_moves() {
        let mut g = BoxGrid::new(4.0);
        for i in 0..50 {
            g.file(i, sq(i as f64 * 3.0, (i % 7) as f64 * 5.0, 2.0));
        }
        g.file(50, sq(f64::NAN, 0.0, 1.0));
        let q = sq(30.0, 10.0, 1.0);
        for d in [0.0, 0.5, 3.0, 12.0, 1e6] {
            let expected: Vec<usize> = (0..50)
                .filter(|i| sq(*i as f64 * 3.0, (*i % 7) as f64 * 5.0, 2.0).gap(&q) <= d)
                .chain([50])
                .collect();
            assert_eq!(g.near(&q, d), expected, "within {d}");
        }
        g.file(3, sq(30.5, 10.5, 0.5));
        assert!(g.near(&q, 0.0).contains(&3));
        g.file(3, sq(-500.0, 0.0, 1.0));
        assert!(!g.near(&q, 100.0).contains(&3));
        g.remove(50);
        assert!(!g.near(&q, 0.0).contains(&50));
        assert_eq!(g.near(&sq(f64::INFINITY, 0.0, 1.0), 0.0).len(), 50);
    }
}
