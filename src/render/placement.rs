//! Label placement: each label is tried at its own candidate positions in
//! turn (for a unit: behind it, in front, to its sides) and takes the first
//! at which it overlaps no label placed before it; when all are taken it
//! moves out on widening rings round its first choice, and a label moved off
//! its candidates gets a leader line to what it names. Placed boxes are
//! filed in a coarse grid, so a crowded map costs little more than a sparse
//! one.

use std::collections::HashMap;

/// An upright box in picture pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct BoxPx {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

impl BoxPx {
    pub fn overlaps(&self, o: &BoxPx) -> bool {
        self.x < o.x + o.w && o.x < self.x + self.w && self.y < o.y + o.h && o.y < self.y + self.h
    }

    pub fn shifted(&self, (dx, dy): (f64, f64)) -> BoxPx {
        BoxPx {
            x: self.x + dx,
            y: self.y + dy,
            ..*self
        }
    }
}

/// A label to place: its box at offset zero and the offsets to try, best
/// first (offset zero is tried only if listed).
pub(crate) struct Wanted {
    pub at: BoxPx,
    pub candidates: Vec<(f64, f64)>,
}

/// Where a label went: its offset, and whether it left its candidates (so
/// that it needs a leader line).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Placed {
    pub offset: (f64, f64),
    pub moved: bool,
}

const CELL: f64 = 64.0;

#[derive(Default)]
struct Filed {
    boxes: Vec<BoxPx>,
    cells: HashMap<(i64, i64), Vec<usize>>,
}

impl Filed {
    fn cells_of(b: &BoxPx) -> impl Iterator<Item = (i64, i64)> {
        let (x0, x1) = (
            (b.x / CELL).floor() as i64,
            ((b.x + b.w) / CELL).floor() as i64,
        );
        let (y0, y1) = (
            (b.y / CELL).floor() as i64,
            ((b.y + b.h) / CELL).floor() as i64,
        );
        (x0..=x1).flat_map(move |x| (y0..=y1).map(move |y| (x, y)))
    }

    fn free(&self, b: &BoxPx) -> bool {
        Filed::cells_of(b).all(|c| {
            self.cells
                .get(&c)
                .is_none_or(|ids| ids.iter().all(|i| !self.boxes[*i].overlaps(b)))
        })
    }

    fn add(&mut self, b: BoxPx) {
        let i = self.boxes.len();
        for c in Filed::cells_of(&b) {
            self.cells.entry(c).or_default().push(i);
        }
        self.boxes.push(b);
    }

    fn bottom(&self) -> f64 {
        self.boxes
            .iter()
            .map(|b| b.y + b.h)
            .fold(f64::NEG_INFINITY, f64::max)
    }
}

/// Place every label in order: no two placed boxes overlap, and each keeps
/// off `obstacles` (the units' bases) as long as a candidate or a ring
/// allows.
pub(crate) fn place(obstacles: &[BoxPx], wanted: &[Wanted]) -> Vec<Placed> {
    let mut filed = Filed::default();
    for o in obstacles {
        filed.add(*o);
    }
    let mut out = Vec::with_capacity(wanted.len());
    for w in wanted {
        let first = w.candidates.first().copied().unwrap_or((0.0, 0.0));
        let chosen = w
            .candidates
            .iter()
            .copied()
            .find(|c| filed.free(&w.at.shifted(*c)))
            .map(|c| Placed {
                offset: c,
                moved: false,
            })
            .or_else(|| ring(&filed, w, first))
            .unwrap_or_else(|| {
                // Below everything placed so far: always free.
                let dy = filed.bottom() + 2.0 - w.at.y;
                Placed {
                    offset: (first.0, dy),
                    moved: true,
                }
            });
        filed.add(w.at.shifted(chosen.offset));
        out.push(chosen);
    }
    out
}

/// The nearest free spot on rings round `first`, a label's height apart.
fn ring(filed: &Filed, w: &Wanted, first: (f64, f64)) -> Option<Placed> {
    let step = w.at.h.max(8.0);
    for k in 1..=24 {
        let r = step * f64::from(k);
        let n = 8 * k;
        for i in 0..n {
            let a = std::f64::consts::TAU * f64::from(i) / f64::from(n);
            // Up and down first: labels are wide and short.
            let c = (first.0 + r * 1.6 * a.sin(), first.1 + r * a.cos());
            if filed.free(&w.at.shifted(c)) {
                return Some(Placed {
                    offset: c,
                    moved: true,
                });
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(x: f64, y: f64) -> BoxPx {
        BoxPx {
            x,
            y,
            w: 80.0,
            h: 16.0,
        }
    }

    #[test]
    fn a_label_takes_its_first_free_candidate_and_a_crowded_one_moves_with_a_leader() {
        let wanted = vec![
            Wanted {
                at: b(0.0, 0.0),
                candidates: vec![(0.0, 0.0)],
            },
            // Its first choice is taken; the second is free.
            Wanted {
                at: b(10.0, 0.0),
                candidates: vec![(0.0, 0.0), (0.0, 20.0)],
            },
            // Both candidates are taken: it goes elsewhere, with a leader.
            Wanted {
                at: b(5.0, 0.0),
                candidates: vec![(0.0, 0.0), (0.0, 20.0)],
            },
        ];
        let placed = place(&[], &wanted);
        assert_eq!(
            placed[1],
            Placed {
                offset: (0.0, 20.0),
                moved: false
            }
        );
        assert!(placed[2].moved);
        let boxes: Vec<BoxPx> = wanted
            .iter()
            .zip(&placed)
            .map(|(w, p)| w.at.shifted(p.offset))
            .collect();
        for i in 0..boxes.len() {
            for j in (i + 1)..boxes.len() {
                assert!(!boxes[i].overlaps(&boxes[j]), "{i} and {j} overlap");
            }
        }
    }

    #[test]
    fn a_hundred_labels_on_one_spot_never_overlap() {
        let wanted: Vec<Wanted> = (0..100)
            .map(|_| Wanted {
                at: b(500.0, 500.0),
                candidates: vec![(0.0, 0.0), (0.0, -20.0)],
            })
            .collect();
        let placed = place(&[], &wanted);
        let boxes: Vec<BoxPx> = wanted
            .iter()
            .zip(&placed)
            .map(|(w, p)| w.at.shifted(p.offset))
            .collect();
        for i in 0..boxes.len() {
            for j in (i + 1)..boxes.len() {
                assert!(!boxes[i].overlaps(&boxes[j]), "{i} and {j} overlap");
            }
        }
    }
}
