//! A spatial index of upright boxes (an R-tree from `rstar`, which `geo`
//! already brings): which pieces stand near a box or along a segment, in
//! O(log n) plus the answers instead of a scan of every piece.
//!
//! Every query is conservative: it returns each box that could meet the
//! question (and maybe a few more), never fewer, so a rule that tests the
//! exact geometry of what is returned gets the same answer as a full scan.
//! Answers come sorted by id, so that callers keep their own order.
//!
//! A box with a NaN or infinite coordinate has no place in the tree, and a
//! scan's exact test may still keep it (a NaN distance is never "too
//! far"), so such boxes are kept aside and every query returns them; a
//! query whose box or distance is not finite returns every box.

use super::{Bounds, Point};
use rstar::{AABB, RTree, RTreeObject, SelectionFunction};

/// Slack added to every box: far above float rounding on a table, far
/// below any distance the rules measure.
const SLACK: f64 = 1e-6;

/// One indexed box and the caller's id for it.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Entry {
    bounds: Bounds,
    id: usize,
}

impl RTreeObject for Entry {
    type Envelope = AABB<[f64; 2]>;

    fn envelope(&self) -> Self::Envelope {
        AABB::from_corners(
            [self.bounds.min.x, self.bounds.min.y],
            [self.bounds.max.x, self.bounds.max.y],
        )
    }
}

/// Boxes with ids, for near and along queries.
#[derive(Clone, Debug, Default)]
pub struct BoxIndex {
    tree: RTree<Entry>,
    /// The boxes that are not finite: candidates for every query.
    anywhere: Vec<Entry>,
}

impl BoxIndex {
    /// Index the boxes (bulk loaded: O(n log n)). Ids need not be unique:
    /// a piece with several boxes may give each the same id.
    pub fn new(boxes: impl IntoIterator<Item = (Bounds, usize)>) -> BoxIndex {
        let (entries, anywhere) = boxes
            .into_iter()
            .map(|(bounds, id)| Entry { bounds, id })
            .partition(|e| finite(&e.bounds));
        BoxIndex {
            tree: RTree::bulk_load(entries),
            anywhere,
        }
    }

    /// Add a box.
    pub fn insert(&mut self, bounds: Bounds, id: usize) {
        let e = Entry { bounds, id };
        if finite(&bounds) {
            self.tree.insert(e);
        } else {
            self.anywhere.push(e);
        }
    }

    /// Take out a box added with exactly these bounds and id (to move a
    /// box: take it out with its old bounds, add it with the new).
    pub fn remove(&mut self, bounds: Bounds, id: usize) {
        if finite(&bounds) {
            self.tree.remove(&Entry { bounds, id });
        } else if let Some(at) = self
            .anywhere
            .iter()
            .position(|e| e.id == id && same_bits(&e.bounds, &bounds))
        {
            // NaN is never equal to itself: the bits say it is the same box.
            self.anywhere.remove(at);
        }
    }

    /// Ids of the boxes at most `d` from `b` (by [`Bounds::within`]) and
    /// of those that are not finite, sorted and without repeats.
    pub fn near(&self, b: &Bounds, d: f64) -> Vec<usize> {
        // A box or distance that is not finite reaches every box.
        if !finite(b) || d.is_nan() || d == f64::INFINITY {
            return self.all();
        }
        let r = d.max(0.0) + SLACK;
        let search = AABB::from_corners([b.min.x - r, b.min.y - r], [b.max.x + r, b.max.y + r]);
        let ids = self
            .tree
            .locate_in_envelope_intersecting(&search)
            .filter(|e| e.bounds.within(b, d + SLACK))
            .chain(&self.anywhere)
            .map(|e| e.id);
        sorted(ids)
    }

    /// Ids of the boxes the segment from `a` to `b` may touch and of those
    /// that are not finite, sorted and without repeats.
    pub fn along(&self, a: Point, b: Point) -> Vec<usize> {
        if !(a.is_finite() && b.is_finite()) {
            return self.all();
        }
        let ids = self
            .tree
            .locate_with_selection_function(Segment { a, b })
            .chain(&self.anywhere)
            .map(|e| e.id);
        sorted(ids)
    }

    /// Whether `hit` holds for the id of some box the segment from `a` to
    /// `b` may touch or that is not finite; stops at the first (in no set
    /// order).
    pub fn any_along(&self, a: Point, b: Point, mut hit: impl FnMut(usize) -> bool) -> bool {
        if !(a.is_finite() && b.is_finite()) {
            return self.tree.iter().chain(&self.anywhere).any(|e| hit(e.id));
        }
        self.tree
            .locate_with_selection_function(Segment { a, b })
            .chain(&self.anywhere)
            .any(|e| hit(e.id))
    }

    /// Ids of every box, sorted and without repeats.
    fn all(&self) -> Vec<usize> {
        sorted(self.tree.iter().chain(&self.anywhere).map(|e| e.id))
    }
}

fn finite(b: &Bounds) -> bool {
    b.min.is_finite() && b.max.is_finite()
}

fn same_bits(a: &Bounds, b: &Bounds) -> bool {
    [a.min.x, a.min.y, a.max.x, a.max.y]
        .iter()
        .zip([b.min.x, b.min.y, b.max.x, b.max.y])
        .all(|(x, y)| x.to_bits() == y.to_bits())
}

fn sorted(ids: impl Iterator<Item = usize>) -> Vec<usize> {
    let mut v: Vec<usize> = ids.collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Selects the boxes a segment may cross.
struct Segment {
    a: Point,
    b: Point,
}

impl SelectionFunction<Entry> for Segment {
    fn should_unpack_parent(&self, envelope: &AABB<[f64; 2]>) -> bool {
        let (lo, hi) = (envelope.lower(), envelope.upper());
        segment_meets_box(self.a, self.b, [lo[0], lo[1]], [hi[0], hi[1]])
    }

    fn should_unpack_leaf(&self, leaf: &Entry) -> bool {
        let (lo, hi) = (leaf.bounds.min, leaf.bounds.max);
        segment_meets_box(self.a, self.b, [lo.x, lo.y], [hi.x, hi.y])
    }
}

/// Whether the segment may meet the box grown by [`SLACK`] (slab clipping:
/// the part of the segment inside each slab of the box must overlap).
fn segment_meets_box(a: Point, b: Point, lo: [f64; 2], hi: [f64; 2]) -> bool {
    let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
    for (p, q, l, h) in [(a.x, b.x, lo[0], hi[0]), (a.y, b.y, lo[1], hi[1])] {
        let (l, h) = (l - SLACK, h + SLACK);
        let d = q - p;
        if d == 0.0 {
            if p < l || p > h {
                return false;
            }
            continue;
        }
        let (u, v) = ((l - p) / d, (h - p) / d);
        let (u, v) = if u < v { (u, v) } else { (v, u) };
        t0 = t0.max(u);
        t1 = t1.min(v);
        if t0 > t1 {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bx(x0: f64, y0: f64, x1: f64, y1: f64) -> Bounds {
        Bounds {
            min: Point { x: x0, y: y0 },
            max: Point { x: x1, y: y1 },
        }
    }

    #[test]
    fn near_finds_what_a_scan_finds() {
        let boxes: Vec<Bounds> = (0..50)
            .map(|i| {
                let (x, y) = ((i * 7 % 23) as f64, (i * 11 % 17) as f64);
                bx(x, y, x + 1.0, y + 0.5)
            })
            .collect();
        let index = BoxIndex::new(boxes.iter().copied().zip(0..));
        let q = bx(5.0, 5.0, 8.0, 6.0);
        for d in [0.0, 0.5, 2.0, 10.0] {
            let scan: Vec<usize> = (0..boxes.len())
                .filter(|i| boxes[*i].within(&q, d))
                .collect();
            let found = index.near(&q, d);
            assert!(scan.iter().all(|i| found.contains(i)), "d = {d}");
            assert!(found.iter().all(|i| boxes[*i].within(&q, d + 1e-5)));
        }
    }

    #[test]
    fn along_finds_the_boxes_a_segment_crosses() {
        let boxes = [
            bx(0.0, 0.0, 1.0, 1.0),
            bx(5.0, 5.0, 6.0, 6.0),
            bx(2.0, -1.0, 3.0, 0.0),
            bx(0.0, 5.0, 1.0, 6.0),
        ];
        let mut index = BoxIndex::new(boxes.iter().copied().zip(0..));
        let (a, b) = (Point { x: -1.0, y: -1.0 }, Point { x: 7.0, y: 7.0 });
        assert_eq!(index.along(a, b), vec![0, 1]);
        // Touching a corner counts.
        assert_eq!(
            index.along(Point { x: 2.0, y: 1.0 }, Point { x: 4.0, y: -1.0 }),
            vec![2]
        );
        // A vertical segment.
        assert_eq!(
            index.along(Point { x: 0.5, y: -3.0 }, Point { x: 0.5, y: 10.0 }),
            vec![0, 3]
        );
        assert!(index.any_along(a, b, |id| id == 1));
        assert!(!index.any_along(a, b, |id| id == 3));
        index.remove(boxes[1], 1);
        assert_eq!(index.along(a, b), vec![0]);
        index.insert(boxes[1], 7);
        assert_eq!(index.along(a, b), vec![0, 7]);
    }

    fn sq(x: f64, y: f64, w: f64) -> Bounds {
        bx(x, y, x + w, y + w)
    }

    #[test]
    fn near_keeps_boxes_that_are_not_finite_and_follows_moves() {
        let at = |i: usize| sq(i as f64 * 3.0, (i % 7) as f64 * 5.0, 2.0);
        let mut index = BoxIndex::new((0..50).map(|i| (at(i), i)));
        let nan = sq(f64::NAN, 0.0, 1.0);
        index.insert(nan, 50);
        let q = sq(30.0, 10.0, 1.0);
        for d in [0.0, 0.5, 3.0, 12.0, 1e6] {
            let expected: Vec<usize> = (0..50)
                .filter(|i| at(*i).gap(&q) <= d)
                .chain([50])
                .collect();
            assert_eq!(index.near(&q, d), expected, "within {d}");
        }
        index.remove(at(3), 3);
        index.insert(sq(30.5, 10.5, 0.5), 3);
        assert!(index.near(&q, 0.0).contains(&3));
        index.remove(sq(30.5, 10.5, 0.5), 3);
        index.insert(sq(-500.0, 0.0, 1.0), 3);
        assert!(!index.near(&q, 100.0).contains(&3));
        assert!(
            index
                .along(Point { x: 0.0, y: 0.0 }, Point { x: 0.0, y: 1.0 })
                .contains(&50)
        );
        index.remove(nan, 50);
        assert!(!index.near(&q, 0.0).contains(&50));
        // A query that is not finite reaches every box.
        assert_eq!(index.near(&sq(f64::INFINITY, 0.0, 1.0), 0.0).len(), 50);
        assert_eq!(index.near(&q, f64::NAN).len(), 50);
        assert_eq!(index.near(&q, f64::INFINITY).len(), 50);
    }
}
