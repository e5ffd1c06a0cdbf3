//! The activation distance (chapter 4): the shortest string from the CinC to
//! a force that never passes within 1 BW of an enemy unit, as a shortest
//! path over the corners of the enemy's frames grown by the clearance.
//!
//! The enemy, the corners and an index of the grown frames are built once
//! per side ([`Paths`]), and the search from the CinC is shared by every
//! force that ignores the same frames; a force asks only as much of the
//! search as it needs. Every answer is the one a search of its own would
//! give, to the last bit: the search settles the corners in the same order
//! with the same sums, and the shortcuts only skip work that cannot change
//! the answer (boxes before polygons, and a lower bound for the early exit).

use super::reach::ground;
use super::scenario::is_impassable;
use super::state::State;
use super::units::{PATH_CLEARANCE, Unit};
use crate::geometry::{Bounds, BoxIndex, Frame, Point};
use crate::side::SideId;
use geo::{Buffer, Contains, Intersects, Line, Polygon, coord};
use std::cmp::{Ordering, Reverse};
use std::collections::{BTreeMap, BinaryHeap};

/// Far above the rounding of a sum of path legs, far below anything the
/// rules measure: a straight line is never longer than a path by more.
const ROUNDING: f64 = 1e-6;

/// The enemy of one side as the string from its CinC must go round it.
pub struct Paths {
    /// Each enemy unit's frame grown by the clearance (less a hair, so that
    /// the string may run along the edge), with the index of their boxes.
    blockers: Vec<Polygon<f64>>,
    index: BoxIndex,
    /// Whether each blocker holds the CinC (the string starts there, so it is ignored).
    holds_cinc: Vec<bool>,
    /// The CinC, then the grown corners of every enemy frame.
    nodes: Vec<Point>,
    /// Nodes by their straight distance from the CinC, nearest first.
    by_reach: Vec<(f64, usize)>,
    /// The search from the CinC for each set of ignored blockers.
    searches: BTreeMap<Vec<bool>, Search>,
}

impl Paths {
    /// The enemy of `side` as it stands; none when the side has no CinC.
    pub fn new(state: &State, side: &SideId) -> Option<Paths> {
        let m = state.scenario.measure;
        let cinc = state.army(side)?.cinc?;
        let c = PATH_CLEARANCE.get();
        let frames: Vec<Frame> = state
            .enemies(side)
            .map(|e| Frame::of(&e.bases(&m)))
            .collect();
        // House rule: the margin is square at the corners.
        let mut blockers: Vec<Polygon<f64>> = frames.iter().map(|f| grown(f, c - 1e-6)).collect();
        let mut boxes: Vec<(Bounds, usize)> = frames
            .iter()
            .enumerate()
            .filter_map(|(i, f)| Bounds::of_points(grown_corners(f, c - 1e-6)).map(|b| (b, i)))
            .collect();
        let mut nodes = vec![cinc];
        for f in &frames {
            nodes.extend(grown_corners(f, c + 1e-4));
        }
        // Distances go round impassable ground (chapter 1): so does the
        // string, bending at its corners; it may run along its edges.
        // Touching features are one obstacle: shrunk apart they would leave a seam.
        let pieces: Vec<Polygon<f64>> = state
            .scenario
            .terrain
            .iter()
            .filter(|t| is_impassable(t))
            .flat_map(|t| ground(t).0)
            .collect();
        if !pieces.is_empty() {
            let area = crate::geometry::union_of(pieces);
            nodes.extend(
                area.0
                    .iter()
                    .flat_map(|p| p.exterior().0.iter())
                    .map(|q| Point::new(q.x, q.y)),
            );
            for p in area.buffer(-1e-6).0 {
                if let Some(b) = polygon_bounds(&p) {
                    boxes.push((b, blockers.len()));
                }
                blockers.push(p);
            }
        }
        let index = BoxIndex::new(boxes);
        let at = geo::Point::new(cinc.x, cinc.y);
        let holds_cinc = blockers.iter().map(|b| b.contains(&at)).collect();
        let mut by_reach: Vec<(f64, usize)> = nodes
            .iter()
            .enumerate()
            .map(|(i, p)| (cinc.distance_to(*p).get(), i))
            .collect();
        by_reach.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        Some(Paths {
            blockers,
            index,
            holds_cinc,
            nodes,
            by_reach,
            searches: BTreeMap::new(),
        })
    }

    /// The shortest distance in BW from the CinC to the nearest unit of the
    /// force along a path that never passes within 1 BW of an enemy unit;
    /// `None` when no such path exists.
    pub fn distance(&mut self, state: &State, force: &[&Unit]) -> Option<f64> {
        let m = state.scenario.measure;
        let targets: Vec<Polygon<f64>> = force
            .iter()
            .flat_map(|u| u.bases(&m))
            .map(|b| b.polygon())
            .collect();
        let ignore = self.ignored(&targets);
        let n = self.nodes.len();
        let search = self
            .searches
            .entry(ignore.clone())
            .or_insert_with(|| Search::new(n, ignore));
        let graph = Graph {
            blockers: &self.blockers,
            index: &self.index,
            nodes: &self.nodes,
        };
        let mut answer = f64::INFINITY;
        let mut nearest = 0;
        for k in 0.. {
            if k > 0 && k == search.order.len() {
                // Every node not yet settled is at least its straight distance
                // away, so once the answer is no longer than that the next
                // node would stop the search anyway: no need to settle it.
                // (Only settled nodes are done here: the first k.)
                while nearest < n && search.done[self.by_reach[nearest].1] {
                    nearest += 1;
                }
                let bound = self.by_reach.get(nearest).map_or(f64::INFINITY, |r| r.0);
                if answer <= bound - ROUNDING {
                    break;
                }
            }
            let Some(i) = search.settled(k, &graph) else {
                break;
            };
            let here_best = search.best[i];
            if here_best >= answer {
                break;
            }
            let here = self.nodes[i];
            for t in &targets {
                let (d, q) = nearest_on(t, here);
                if here_best + d < answer && graph.clear(here, q, &search.ignore) {
                    answer = here_best + d;
                }
            }
        }
        answer.is_finite().then_some(answer)
    }

    /// Blockers that hold the CinC or a target are ignored: the string
    /// starts and ends there.
    fn ignored(&self, targets: &[Polygon<f64>]) -> Vec<bool> {
        let mut ignore = self.holds_cinc.clone();
        for t in targets {
            let Some(b) = polygon_bounds(t) else {
                continue;
            };
            for i in self.index.near(&b, 0.0) {
                if !ignore[i] && self.blockers[i].intersects(t) {
                    ignore[i] = true;
                }
            }
        }
        ignore
    }
}

/// The fixed parts of the search: what the string must go round.
struct Graph<'a> {
    blockers: &'a [Polygon<f64>],
    index: &'a BoxIndex,
    nodes: &'a [Point],
}

impl Graph<'_> {
    /// Whether the straight string from `a` to `b` keeps clear of every
    /// blocker not ignored.
    fn clear(&self, a: Point, b: Point, ignore: &[bool]) -> bool {
        let line = Line::new(coord! {x: a.x, y: a.y}, coord! {x: b.x, y: b.y});
        !self
            .index
            .any_along(a, b, |i| !ignore[i] && self.blockers[i].intersects(&line))
    }
}

/// A shortest-path search from the CinC (node 0), settled on demand.
struct Search {
    /// Which blockers this search ignores.
    ignore: Vec<bool>,
    best: Vec<f64>,
    done: Vec<bool>,
    /// Nodes reached and not settled, nearest first, then by number (the
    /// order a scan for the first nearest gives); stale entries are skipped.
    queue: BinaryHeap<Reverse<Entry>>,
    /// Settled nodes in the order settled.
    order: Vec<usize>,
    /// How many of `order` have had their neighbours relaxed.
    relaxed: usize,
}

impl Search {
    fn new(n: usize, ignore: Vec<bool>) -> Search {
        let mut best = vec![f64::INFINITY; n];
        best[0] = 0.0;
        let mut queue = BinaryHeap::new();
        queue.push(Reverse(Entry(0.0, 0)));
        Search {
            ignore,
            best,
            done: vec![false; n],
            queue,
            order: Vec::new(),
            relaxed: 0,
        }
    }

    /// The `k`-th node settled (0 is the CinC), settling as needed; none
    /// when no more node can be reached.
    fn settled(&mut self, k: usize, g: &Graph) -> Option<usize> {
        while self.order.len() <= k {
            while self.relaxed < self.order.len() {
                self.relax(self.order[self.relaxed], g);
                self.relaxed += 1;
            }
            let i = loop {
                let Reverse(Entry(d, i)) = self.queue.pop()?;
                if !self.done[i] && d == self.best[i] {
                    break i;
                }
            };
            self.done[i] = true;
            self.order.push(i);
        }
        Some(self.order[k])
    }

    fn relax(&mut self, i: usize, g: &Graph) {
        let here = g.nodes[i];
        for (j, there) in g.nodes.iter().enumerate() {
            if self.done[j] {
                continue;
            }
            let d = self.best[i] + here.distance_to(*there).get();
            if d < self.best[j] && g.clear(here, *there, &self.ignore) {
                self.best[j] = d;
                self.queue.push(Reverse(Entry(d, j)));
            }
        }
    }
}

/// A queued node: its distance so far and its number.
#[derive(Clone, Copy, PartialEq)]
struct Entry(f64, usize);

impl Eq for Entry {}

impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0).then(self.1.cmp(&other.1))
    }
}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

fn grown_corners(f: &Frame, by: f64) -> [Point; 4] {
    let fwd = f.facing.unit_vector();
    let right = f.facing.right_vector();
    let half = f.width.get() / 2.0 + by;
    let front = f.anchor + fwd.scale(by);
    let rear = f.anchor - fwd.scale(f.depth.get() + by);
    [
        front - right.scale(half),
        front + right.scale(half),
        rear + right.scale(half),
        rear - right.scale(half),
    ]
}

fn grown(f: &Frame, by: f64) -> Polygon<f64> {
    let c = grown_corners(f, by);
    Polygon::new(
        c.iter()
            .chain(c.first())
            .map(|p| coord! {x: p.x, y: p.y})
            .collect::<Vec<_>>()
            .into(),
        vec![],
    )
}

fn polygon_bounds(p: &Polygon<f64>) -> Option<Bounds> {
    Bounds::of_points(p.exterior().coords().map(|c| Point { x: c.x, y: c.y }))
}

fn nearest_on(poly: &Polygon<f64>, p: Point) -> (f64, Point) {
    use geo::{Closest, ClosestPoint};
    let gp = geo::Point::new(p.x, p.y);
    match poly.closest_point(&gp) {
        Closest::Intersection(q) | Closest::SinglePoint(q) => (
            p.distance_to(Point::new(q.x(), q.y())).get(),
            Point::new(q.x(), q.y()),
        ),
        Closest::Indeterminate => (f64::INFINITY, p),
    }
}
