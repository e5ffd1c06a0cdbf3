//! Label placement: each label is tried at its own candidate positions in
//! turn (for a unit: behind it, in front, to its sides) and takes the first
//! that lies wholly on the table and overlaps no label placed before it nor
//! any unit; when all are taken it moves out on widening rings round its
//! first choice. A place too busy for the whole label takes its short form
//! (a number the legend explains) there instead; failing that, the label
//! goes to the nearest free spot anywhere on the table. A label moved off
//! its candidates gets a leader line to what it names. A label with no
//! free spot on the whole table may cover a unit, never another label; with
//! no room even so it is not drawn. Placed boxes are filed in a coarse
//! grid, so a crowded map costs little more than a sparse one. Everything
//! is in a fixed order, so one view gives one placement.

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
/// first (offset zero is tried only if listed), and the same of its short
/// form (a number the legend explains), where it has one, for a place too
/// busy for the whole label.
pub(crate) struct Wanted {
    pub at: BoxPx,
    pub candidates: Vec<(f64, f64)>,
    pub short: Option<(BoxPx, Vec<(f64, f64)>)>,
}

/// Where a label went: its offset, whether it left its candidates (so
/// that it needs a leader line), whether it is drawn at all, and whether
/// in its short form.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Placed {
    pub offset: (f64, f64),
    pub moved: bool,
    pub shown: bool,
    pub short: bool,
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
/// (the units' bases) as long as the table has room elsewhere. A label
/// tries, in turn: its candidates and the rings near them; its short form
/// there; the nearest free spot on the table, whole then short; the same
/// over the units' bases; and is left out when nothing is free.
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
        let (sb, sc) = match &w.short {
            Some((b, c)) => (Some(*b), c.as_slice()),
            None => (None, &[][..]),
        };
        let short_first = sc.first().copied().unwrap_or((0.0, 0.0));
        let whole = |found: Option<(f64, f64, bool)>| found.map(|f| (f, false));
        let short = |found: Option<(f64, f64, bool)>| found.map(|f| (f, true));
        let chosen = whole(near(&room, &w.at, &w.candidates, NEAR_RINGS))
            .or_else(|| short(near(&room, &sb?, sc, 2 * NEAR_RINGS)))
            .or_else(|| whole(anywhere(&room, &w.at, first, true)))
            .or_else(|| short(anywhere(&room, &sb?, short_first, true)))
            .or_else(|| whole(anywhere(&room, &w.at, first, false)))
            .or_else(|| short(anywhere(&room, &sb?, short_first, false)));
        let placed = match chosen {
            Some(((dx, dy, moved), short)) => {
                let b = match (short, sb) {
                    (true, Some(b)) => b,
                    _ => w.at,
                };
                room.labels.add(b.shifted((dx, dy)));
                Placed {
                    offset: (dx, dy),
                    moved,
                    shown: true,
                    short,
                }
            }
            None => Placed {
                offset: first,
                moved: false,
                shown: false,
                short: false,
            },
        };
        out.push(placed);
    }
    out
}

/// Rings tried round a label's first choice before its short form: about
/// a third of a 1400-pixel map's height for a two-line label.
const NEAR_RINGS: u32 = 12;

/// The first of `candidates` where `b` fits clear of the bases (not
/// moved), else the nearest free spot on `rings` rings round the first
/// candidate, a box's height apart (moved).
fn near(room: &Room, b: &BoxPx, candidates: &[(f64, f64)], rings: u32) -> Option<(f64, f64, bool)> {
    if let Some(c) = candidates.iter().find(|c| room.fits(&b.shifted(**c), true)) {
        return Some((c.0, c.1, false));
    }
    let first = candidates.first().copied().unwrap_or((0.0, 0.0));
    let step = b.h.max(8.0);
    for k in 1..=rings {
        let r = step * f64::from(k);
        let n = 8 * k;
        for i in 0..n {
            let a = std::f64::consts::TAU * f64::from(i) / f64::from(n);
            // Up and down first: labels are wide and short.
            let c = (first.0 + r * 1.6 * a.sin(), first.1 + r * a.cos());
            if room.fits(&b.shifted(c), true) {
                return Some((c.0, c.1, true));
            }
        }
    }
    None
}

/// A free spot near `first` on a lattice over the whole table, a quarter
/// of the box's width by half its height, searched in square rings of
/// lattice points outward from the one nearest `first` (within a ring,
/// nearest first): for a place so busy that the rings of [`near`] found
/// nothing. Only the rings out to the first free spot are visited.
fn anywhere(
    room: &Room,
    b: &BoxPx,
    first: (f64, f64),
    clear_of_bases: bool,
) -> Option<(f64, f64, bool)> {
    let t = room.bounds;
    let (sx, sy) = ((b.w / 4.0).max(12.0), (b.h / 2.0).max(8.0));
    let (nx, ny) = (((t.w - b.w) / sx).floor(), ((t.h - b.h) / sy).floor());
    if !(nx >= 0.0 && ny >= 0.0) {
        return None;
    }
    let (nx, ny) = (nx as i64, ny as i64);
    let home = b.shifted(first);
    let (hi, hj) = (
        (((home.x - t.x) / sx).round() as i64).clamp(0, nx),
        (((home.y - t.y) / sy).round() as i64).clamp(0, ny),
    );
    let spot = |i: i64, j: i64| (t.x + i as f64 * sx, t.y + j as f64 * sy);
    for k in 0..=nx.max(ny) {
        let mut ring: Vec<(f64, (f64, f64))> = Vec::new();
        for i in (hi - k).max(0)..=(hi + k).min(nx) {
            for j in (hj - k).max(0)..=(hj + k).min(ny) {
                if (i - hi).abs() != k && (j - hj).abs() != k {
                    continue;
                }
                let (x, y) = spot(i, j);
                ring.push(((x - home.x).hypot(y - home.y), (x - b.x, y - b.y)));
            }
        }
        // Nearest first; the lattice's order breaks ties, so the pick is fixed.
        ring.sort_by(|p, q| p.0.total_cmp(&q.0));
        if let Some((_, c)) = ring
            .into_iter()
            .find(|(_, c)| room.fits(&b.shifted(*c), clear_of_bases))
        {
            return Some((c.0, c.1, true));
        }
    }
    None
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
                short: None,
            },
            // Its first choice is taken; the second is free.
            Wanted {
                at: b(10.0, 0.0),
                candidates: vec![(0.0, 0.0), (0.0, 20.0)],
                short: None,
            },
            // Both candidates are taken: it goes elsewhere, with a leader.
            Wanted {
                at: b(5.0, 0.0),
                candidates: vec![(0.0, 0.0), (0.0, 20.0)],
                short: None,
            },
        ];
        let placed = place(TABLE, &[], &wanted);
        assert_eq!(
            placed[1],
            Placed {
                offset: (0.0, 20.0),
                moved: false,
                shown: true,
                short: false
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
                short: None,
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
                short: None,
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
                short: None,
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
            short: None,
        }];
        let placed = place(table, &[unit], &wanted);
        assert!(!wanted[0].at.shifted(placed[0].offset).overlaps(&unit));
        // A unit over the whole table: the label covers it, on the table.
        let placed = place(table, &[table], &wanted);
        assert!(placed[0].shown);
        assert_eq!(check(table, &wanted, &placed), 1);
    }

    #[test]
    fn a_place_too_busy_for_whole_labels_takes_their_numbers() {
        // Three hundred labels on one spot: the rings near it hold about
        // a hundred whole, and numbers 20 x 16 in the gaps between them.
        let table = BoxPx {
            x: 0.0,
            y: 0.0,
            w: 1000.0,
            h: 1000.0,
        };
        let wanted: Vec<Wanted> = (0..300)
            .map(|_| Wanted {
                at: b(460.0, 500.0),
                candidates: vec![(0.0, 0.0)],
                short: Some((
                    BoxPx {
                        x: 490.0,
                        y: 500.0,
                        w: 20.0,
                        h: 16.0,
                    },
                    vec![(0.0, 0.0)],
                )),
            })
            .collect();
        let placed = place(table, &[], &wanted);
        let boxes: Vec<BoxPx> = wanted
            .iter()
            .zip(&placed)
            .filter(|(_, p)| p.shown)
            .map(|(w, p)| {
                if p.short {
                    w.short.as_ref().unwrap().0.shifted(p.offset)
                } else {
                    w.at.shifted(p.offset)
                }
            })
            .collect();
        assert_eq!(boxes.len(), 300, "every label, whole or as its number");
        assert!(
            placed[0].shown && !placed[0].short,
            "the first stands whole"
        );
        assert!(placed.iter().any(|p| p.short));
        for (i, a) in boxes.iter().enumerate() {
            assert!(table.holds(a), "label {i} leaves the table: {a:?}");
            for (j, c) in boxes.iter().enumerate().skip(i + 1) {
                assert!(!a.overlaps(c), "{i} and {j} overlap");
            }
        }
    }
}
