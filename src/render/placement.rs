//! Label placement: each label is tried at its own candidate positions in
//! turn (for a unit: behind it, in front, to its sides) and takes the first
//! that lies wholly on the table and overlaps no label placed before it nor
//! any unit; when all are taken it moves out on widening rings round its
//! first choice, then to the nearest free spot anywhere on the table, and a
//! label moved off its candidates gets a leader line to what it names. A
//! label with no free spot on the whole table may cover a unit, never
//! another label; with no room even so it is not drawn. Placed boxes are
//! filed in a coarse grid, so a crowded map costs little more than a sparse
//! one. Everything is in a fixed order, so one view gives one placement.

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

    /// The box grown by `by` on every side.
    pub fn grown(&self, by: f64) -> BoxPx {
        BoxPx {
            x: self.x - by,
            y: self.y - by,
            w: self.w + 2.0 * by,
            h: self.h + 2.0 * by,
        }
    }

    /// Whether `inner` lies wholly within this box.
    pub fn holds(&self, inner: &BoxPx) -> bool {
        inner.x >= self.x
            && inner.y >= self.y
            && inner.x + inner.w <= self.x + self.w
            && inner.y + inner.h <= self.y + self.h
    }
}

/// A label to place: its box at offset zero and the offsets to try, best
/// first (offset zero is tried only if listed).
pub(crate) struct Wanted {
    pub at: BoxPx,
    pub candidates: Vec<(f64, f64)>,
}

/// Where a label went: its offset, whether it left its candidates (so
/// that it needs a leader line), and whether it is drawn at all.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Placed {
    pub offset: (f64, f64),
    pub moved: bool,
    pub shown: bool,
}

const CELL: f64 = 64.0;
/// Pixels kept clear round each label.
const CLEAR: f64 = 0.5;

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
}

/// What a label must keep off: the table's edge, the labels placed, and
/// (while it can) the units' bases.
struct Room {
    bounds: BoxPx,
    labels: Filed,
    bases: Filed,
}

impl Room {
    /// Whether `b` lies on the table clear of every label, and of every
    /// base too when `clear_of_bases`.
    fn fits(&self, b: &BoxPx, clear_of_bases: bool) -> bool {
        // A hair of room all round, so that boxes drawn to a tenth of a
        // pixel ([`super::frame::num`]) neither touch nor leave the table.
        let b = b.grown(CLEAR);
        self.bounds.holds(&b) && self.labels.free(&b) && (!clear_of_bases || self.bases.free(&b))
    }
}

/// Place every label in order within `bounds` (the table): no two placed
/// boxes overlap, none leaves `bounds`, and each keeps off `obstacles`
/// (the units' bases) as long as the table has room elsewhere.
pub(crate) fn place(bounds: BoxPx, obstacles: &[BoxPx], wanted: &[Wanted]) -> Vec<Placed> {
    let mut room = Room {
        bounds,
        labels: Filed::default(),
        bases: Filed::default(),
    };
    for o in obstacles {
        room.bases.add(*o);
    }
    let mut out = Vec::with_capacity(wanted.len());
    for w in wanted {
        let first = w.candidates.first().copied().unwrap_or((0.0, 0.0));
        let chosen = w
            .candidates
            .iter()
            .copied()
            .find(|c| room.fits(&w.at.shifted(*c), true))
            .map(|c| Placed {
                offset: c,
                moved: false,
                shown: true,
            })
            .or_else(|| ring(&room, w, first))
            .or_else(|| anywhere(&room, w, first, true))
            .or_else(|| anywhere(&room, w, first, false))
            .unwrap_or(Placed {
                offset: first,
                moved: false,
                shown: false,
            });
        if chosen.shown {
            room.labels.add(w.at.shifted(chosen.offset));
        }
        out.push(chosen);
    }
    out
}

/// The nearest free spot on rings round `first`, a label's height apart.
fn ring(room: &Room, w: &Wanted, first: (f64, f64)) -> Option<Placed> {
    let step = w.at.h.max(8.0);
    for k in 1..=24 {
        let r = step * f64::from(k);
        let n = 8 * k;
        for i in 0..n {
            let a = std::f64::consts::TAU * f64::from(i) / f64::from(n);
            // Up and down first: labels are wide and short.
            let c = (first.0 + r * 1.6 * a.sin(), first.1 + r * a.cos());
            if room.fits(&w.at.shifted(c), true) {
                return Some(moved(c));
            }
        }
    }
    None
}

/// The free spot nearest to `first` on a lattice over the whole table, a
/// quarter of the label's width by half its height: for a place so busy
/// that the rings found nothing.
fn anywhere(room: &Room, w: &Wanted, first: (f64, f64), clear_of_bases: bool) -> Option<Placed> {
    let b = room.bounds;
    let (sx, sy) = ((w.at.w / 4.0).max(4.0), (w.at.h / 2.0).max(4.0));
    let (nx, ny) = (((b.w - w.at.w) / sx).floor(), ((b.h - w.at.h) / sy).floor());
    if nx < 0.0 || ny < 0.0 {
        return None;
    }
    let home = w.at.shifted(first);
    let mut spots: Vec<(f64, f64)> = (0..=nx as i64)
        .flat_map(|i| (0..=ny as i64).map(move |j| (i, j)))
        .map(|(i, j)| (b.x + i as f64 * sx - w.at.x, b.y + j as f64 * sy - w.at.y))
        .collect();
    let far = |c: &(f64, f64)| {
        let s = w.at.shifted(*c);
        (s.x - home.x).hypot(s.y - home.y)
    };
    // Nearest first; the lattice's order breaks ties, so the pick is fixed.
    spots.sort_by(|p, q| far(p).total_cmp(&far(q)));
    spots
        .into_iter()
        .find(|c| room.fits(&w.at.shifted(*c), clear_of_bases))
        .map(moved)
}

fn moved(offset: (f64, f64)) -> Placed {
    Placed {
        offset,
        moved: true,
        shown: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table far larger than any test's labels.
    const TABLE: BoxPx = BoxPx {
        x: -5000.0,
        y: -5000.0,
        w: 10000.0,
        h: 10000.0,
    };

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
        let placed = place(TABLE, &[], &wanted);
        assert_eq!(
            placed[1],
            Placed {
                offset: (0.0, 20.0),
                moved: false,
                shown: true
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
        let placed = place(TABLE, &[], &wanted);
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

    /// Every shown box inside `table`, none overlapping another.
    fn check(table: BoxPx, wanted: &[Wanted], placed: &[Placed]) -> usize {
        let boxes: Vec<BoxPx> = wanted
            .iter()
            .zip(placed)
            .filter(|(_, p)| p.shown)
            .map(|(w, p)| w.at.shifted(p.offset))
            .collect();
        for (i, a) in boxes.iter().enumerate() {
            assert!(table.holds(a), "label {i} leaves the table: {a:?}");
            for (j, b) in boxes.iter().enumerate().skip(i + 1) {
                assert!(!a.overlaps(b), "{i} and {j} overlap");
            }
        }
        boxes.len()
    }

    #[test]
    fn labels_at_the_tables_corner_stay_on_it() {
        // Units in the top left corner: their first choices (above and
        // left of them) are off the table.
        let table = BoxPx {
            x: 0.0,
            y: 0.0,
            w: 600.0,
            h: 400.0,
        };
        let wanted: Vec<Wanted> = (0..30)
            .map(|i| Wanted {
                at: b(-40.0 + f64::from(i % 5), -8.0 + f64::from(i / 5)),
                candidates: vec![(0.0, 0.0), (-10.0, -10.0)],
            })
            .collect();
        let placed = place(table, &[], &wanted);
        assert_eq!(check(table, &wanted, &placed), 30, "room for all");
        assert!(placed.iter().all(|p| p.moved));
    }

    #[test]
    fn a_table_too_small_for_every_label_drops_some_rather_than_overlap() {
        // Room for twelve 80 x 16 boxes at most.
        let table = BoxPx {
            x: 0.0,
            y: 0.0,
            w: 240.0,
            h: 64.0,
        };
        let wanted: Vec<Wanted> = (0..20)
            .map(|_| Wanted {
                at: b(100.0, 20.0),
                candidates: vec![(0.0, 0.0)],
            })
            .collect();
        let placed = place(table, &[], &wanted);
        let shown = check(table, &wanted, &placed);
        assert!((1..20).contains(&shown), "{shown} shown");
        assert_eq!(placed, place(table, &[], &wanted), "the same every time");
    }

    #[test]
    fn a_label_keeps_off_the_units_while_the_table_has_room() {
        let table = BoxPx {
            x: 0.0,
            y: 0.0,
            w: 400.0,
            h: 400.0,
        };
        let unit = BoxPx {
            x: 100.0,
            y: 100.0,
            w: 200.0,
            h: 100.0,
        };
        let wanted = vec![Wanted {
            at: b(150.0, 140.0),
            candidates: vec![(0.0, 0.0)],
        }];
        let placed = place(table, &[unit], &wanted);
        assert!(!wanted[0].at.shifted(placed[0].offset).overlaps(&unit));
        // A unit over the whole table: the label covers it, on the table.
        let placed = place(table, &[table], &wanted);
        assert!(placed[0].shown);
        assert_eq!(check(table, &wanted, &placed), 1);
    }
}
