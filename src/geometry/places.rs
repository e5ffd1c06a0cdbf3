//! Where many pieces stand, each as a point and a reach (no part of the
//! piece is farther from its point, whatever its formation), filed in a
//! [`BoxIndex`] and kept up to date as pieces move. It answers "which
//! pieces could be within `d` of this one" and "which could touch this
//! segment" in O(log n) plus the answers, where the rules used to ask
//! every piece on the table: the rules then test the exact geometry of
//! what it returns, in the order they always did (answers come sorted by
//! the caller's index), so that no result changes.

use super::{Bounds, BoxIndex, Point};

/// Points with reaches, by the caller's index (0..n).
#[derive(Clone, Debug, Default)]
pub struct Places {
    index: BoxIndex,
    /// Each piece's point and reach as filed.
    at: Vec<(Point, f64)>,
}

fn same(a: Point, b: Point) -> bool {
    a.x.to_bits() == b.x.to_bits() && a.y.to_bits() == b.y.to_bits()
}

/// The box holding every part of a piece at `at` reaching `reach`.
fn square(at: Point, reach: f64) -> Bounds {
    let r = reach.max(0.0);
    Bounds {
        min: Point::new(at.x - r, at.y - r),
        max: Point::new(at.x + r, at.y + r),
    }
}

impl Places {
    /// File the pieces, each with its point and reach, by their order.
    pub fn new(pieces: impl IntoIterator<Item = (Point, f64)>) -> Places {
        let at: Vec<(Point, f64)> = pieces.into_iter().collect();
        let index = BoxIndex::new(at.iter().enumerate().map(|(i, &(p, r))| (square(p, r), i)));
        Places { index, at }
    }

    /// Piece `i` now stands at `to` and reaches `reach`.
    pub fn moved(&mut self, i: usize, to: Point, reach: f64) {
        let Some(&(from, was)) = self.at.get(i) else {
            return;
        };
        if same(from, to) && was.to_bits() == reach.to_bits() {
            return;
        }
        self.index.remove(square(from, was), i);
        self.index.insert(square(to, reach), i);
        self.at[i] = (to, reach);
    }

    /// Whether the pieces filed stand and reach as `now` says (one a
    /// piece, in order), but for those `skip` names: for checks that every
    /// move was told.
    pub fn agrees(&self, now: impl IntoIterator<Item = (Point, f64)>, skip: Option<usize>) -> bool {
        let mut n = 0;
        for (k, (p, r)) in now.into_iter().enumerate() {
            n += 1;
            if skip == Some(k) {
                continue;
            }
            match self.at.get(k) {
                Some(&(q, was)) if same(p, q) && was.to_bits() == r.to_bits() => {}
                _ => return false,
            }
        }
        n == self.at.len()
    }

    /// The pieces that could be at most `d` from a piece at `at` reaching
    /// `reach`: every piece whose `at.distance_to(its point) - reach - its
    /// reach` is at most `d` (and maybe a few more), sorted by index.
    pub fn near(&self, at: Point, reach: f64, d: f64) -> Vec<usize> {
        self.index.near(&square(at, reach), d)
    }

    /// The pieces whose point is at most their reach and `extra` from the
    /// segment from `a` to `b` (and maybe a few more), sorted by index.
    pub fn along(&self, a: Point, b: Point, extra: f64) -> Vec<usize> {
        if extra <= 0.0 {
            return self.index.along(a, b);
        }
        // The segment's box holds the segment: what is near the box
        // holds what is near the segment.
        let bx = Bounds {
            min: Point::new(a.x.min(b.x), a.y.min(b.y)),
            max: Point::new(a.x.max(b.x), a.y.max(b.y)),
        };
        self.index.near(&bx, extra)
    }

    /// The pieces within a radius of a piece at `at` reaching `reach`
    /// that is grown until `found` says the answer among them is final:
    /// `found` is given the candidates (sorted by index) and the radius,
    /// and answers Some when nothing beyond the radius could change its
    /// answer. When the radius covers every piece, `found` gets them all
    /// and its answer stands, Some or not.
    pub fn growing<T>(
        &self,
        at: Point,
        reach: f64,
        first: f64,
        mut found: impl FnMut(&[usize], f64) -> Option<T>,
    ) -> Option<T> {
        let mut r = first.max(1.0);
        loop {
            let ids = self.near(at, reach, r);
            if ids.len() >= self.at.len() || !r.is_finite() {
                return found(&ids, f64::INFINITY);
            }
            if let Some(t) = found(&ids, r) {
                return Some(t);
            }
            r *= 2.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Scattered pieces: point and reach.
    fn pieces() -> Vec<(Point, f64)> {
        (0..80)
            .map(|i| {
                let x = (i * 37 % 101) as f64;
                let y = (i * 53 % 61) as f64;
                (Point::new(x, y), 0.5 + (i % 5) as f64)
            })
            .collect()
    }

    fn bound(a: (Point, f64), b: (Point, f64)) -> f64 {
        a.0.distance_to(b.0).get() - a.1 - b.1
    }

    #[test]
    fn near_holds_every_piece_a_scan_would_keep() {
        let ps = pieces();
        let places = Places::new(ps.iter().copied());
        for q in [(Point::new(50.0, 30.0), 2.0), (Point::new(0.0, 0.0), 0.0)] {
            for d in [0.0, 3.0, 10.0, 40.0] {
                let found = places.near(q.0, q.1, d);
                let scan: Vec<usize> = (0..ps.len()).filter(|&i| bound(q, ps[i]) <= d).collect();
                assert!(scan.iter().all(|i| found.contains(i)), "d = {d}");
                assert!(found.windows(2).all(|w| w[0] < w[1]), "sorted");
                // Not the whole table for a small distance.
                if d < 5.0 {
                    assert!(found.len() < ps.len() / 2, "{} found", found.len());
                }
            }
        }
    }

    #[test]
    fn along_holds_every_piece_near_the_segment() {
        let ps = pieces();
        let places = Places::new(ps.iter().copied());
        let (a, b) = (Point::new(3.0, 4.0), Point::new(90.0, 50.0));
        for extra in [0.0, 4.0] {
            let found = places.along(a, b, extra);
            let scan: Vec<usize> = (0..ps.len())
                .filter(|&i| ps[i].0.distance_to_segment(a, b).get() <= ps[i].1 + extra)
                .collect();
            assert!(!scan.is_empty());
            assert!(scan.iter().all(|i| found.contains(i)), "extra {extra}");
            assert!(found.len() < ps.len());
        }
    }

    #[test]
    fn moves_are_followed() {
        let mut ps = pieces();
        let mut places = Places::new(ps.iter().copied());
        let far = Point::new(1000.0, 1000.0);
        places.moved(7, far, ps[7].1);
        ps[7].0 = far;
        assert!(places.agrees(ps.iter().copied(), None));
        assert_eq!(places.near(far, 0.0, 1.0), vec![7]);
        assert!(!places.near(Point::new(0.0, 0.0), 200.0, 0.0).contains(&7));
        // A piece that moved but was not told is caught by `agrees`.
        ps[3].0 = far;
        assert!(!places.agrees(ps.iter().copied(), None));
        assert!(places.agrees(ps.iter().copied(), Some(3)));
        // So is a reach that changed.
        places.moved(3, far, ps[3].1);
        ps[5].1 += 1.0;
        assert!(!places.agrees(ps.iter().copied(), None));
        places.moved(5, ps[5].0, ps[5].1);
        assert!(places.agrees(ps.iter().copied(), None));
        assert!(places.near(ps[5].0, 0.0, 0.0).contains(&5));
        // Too few points disagree too.
        assert!(!places.agrees(ps.iter().take(5).copied(), None));
    }

    #[test]
    fn growing_stops_once_the_answer_is_final() {
        let ps = pieces();
        let places = Places::new(ps.iter().copied());
        let q = (Point::new(50.0, 30.0), 1.0);
        // The nearest by bound: final once its bound is within the radius.
        let nearest = |ids: &[usize], r: f64| {
            ids.iter()
                .map(|&i| (bound(q, ps[i]), i))
                .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
                .filter(|(b, _)| *b <= r)
                .map(|(_, i)| i)
        };
        let scan = (0..ps.len())
            .map(|i| (bound(q, ps[i]), i))
            .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
            .map(|(_, i)| i);
        assert_eq!(places.growing(q.0, q.1, 1.0, nearest), scan);
        // An answer never final gets every piece in the end.
        let mut seen = 0;
        let none: Option<()> = places.growing(q.0, q.1, 1.0, |ids, _| {
            seen = ids.len();
            None
        });
        assert!(none.is_none());
        assert_eq!(seen, ps.len());
    }
}
