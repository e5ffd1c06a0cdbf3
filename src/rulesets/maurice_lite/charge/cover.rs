//! Cover in combat (chapters 5 and 8): terrain gives a defender cover against
//! an attacker when no straight line from the attacker's front edge reaches
//! the defender without passing through it.

use super::super::state::State;
use super::super::units::Unit;
use super::ground::gives_cover;
use crate::geometry::contact::{clip_convex, outline_area};
use crate::geometry::{Frame, Point, Shape, TerrainFeature, segment_hits_area};
use geo::{Distance as _, Euclidean};

/// Sight lines are drawn between points this far apart along each outline.
const SPACING: f64 = 0.1;

/// Whether `defender` has cover against `attacker`.
///
/// House rules: the lines run to the part of the defender directly in front
/// of the attacker (as the source's woods example reads), or to the whole
/// defender when none of it is; a line ending in or on the cover counts as
/// passing through it; and terrain that any base of the attacker reaches into
/// gives no cover against it (the attacker is in the wood too, or at its own
/// wall).
pub fn has_cover(state: &State, attacker: &Unit, defender: &Unit) -> bool {
    // Without terrain that gives cover the answer is no, whatever the lines.
    if !state.scenario.terrain.iter().any(gives_cover) {
        return false;
    }
    let m = state.scenario.measure;
    let ab = attacker.bases(&m);
    let db = defender.bases(&m);
    if ab.is_empty() || db.is_empty() {
        return false;
    }
    let frame = Frame::of(&ab);
    let (fl, fr) = frame.front_edge();
    let far = db
        .iter()
        .flat_map(|b| b.corners())
        .map(|c| (c - frame.anchor).length())
        .fold(0.0, f64::max);
    let ahead = frame.facing.unit_vector().scale(2.0 * far + 1.0);
    let strip = [fl, fr, fr + ahead, fl + ahead];
    let mut parts: Vec<Vec<Point>> = db
        .iter()
        .map(|b| clip_convex(&b.corners(), &strip))
        .filter(|p| p.len() >= 3 && outline_area(p) > 1e-9)
        .collect();
    if parts.is_empty() {
        parts = db.iter().map(|b| b.corners().to_vec()).collect();
    }
    let targets: Vec<Point> = parts.iter().flat_map(|p| outline_marks(p)).collect();
    let sources = along(fl, fr);
    state
        .scenario
        .terrain
        .iter()
        .filter(|t| gives_cover(t) && !t.touches_bases(&ab))
        .any(|t| blocks_every_line(t, &sources, &targets))
}

/// Whether every line from a point of `sources` (the attacker's front) to a
/// point of `targets` (the defender) passes through the feature, or ends in
/// or on it.
fn blocks_every_line(t: &TerrainFeature, sources: &[Point], targets: &[Point]) -> bool {
    match &t.shape {
        Shape::Polyline { points, width } if width.0 <= 0.0 => sources.iter().all(|s| {
            targets.iter().all(|p| {
                points
                    .windows(2)
                    .any(|w| crosses_beyond_start(*s, *p, w[0], w[1]))
            })
        }),
        _ => {
            let area = t.area();
            let inside: Vec<bool> = targets
                .iter()
                .map(|p| Euclidean.distance(&geo::Point::new(p.x, p.y), &area) < 1e-6)
                .collect();
            sources.iter().all(|s| {
                targets
                    .iter()
                    .zip(&inside)
                    .all(|(p, held)| *held || segment_hits_area(*s, *p, &area))
            })
        }
    }
}

/// Whether segment `s`-`p` meets segment `a`-`b` somewhere other than at
/// `s` itself: a bare line at the attacker's own front is its own wall.
fn crosses_beyond_start(s: Point, p: Point, a: Point, b: Point) -> bool {
    let cross = |u: Point, v: Point| u.x * v.y - u.y * v.x;
    let (r, q) = (p - s, b - a);
    let den = cross(r, q);
    let len = r.length();
    if len < 1e-9 {
        return false;
    }
    if den.abs() < 1e-12 {
        // Parallel: they meet only if collinear and overlapping beyond `s`.
        if cross(a - s, r).abs() > 1e-9 {
            return false;
        }
        let ta = (a - s).dot(r) / (len * len);
        let tb = (b - s).dot(r) / (len * len);
        let (lo, hi) = (ta.min(tb), ta.max(tb));
        return hi * len > 1e-6 && lo <= 1.0;
    }
    let t = cross(a - s, q) / den;
    let u = cross(a - s, r) / den;
    (-1e-9..=1.0 + 1e-9).contains(&u) && t * len > 1e-6 && t <= 1.0 + 1e-9
}

/// Points every [`SPACING`] from `a` to `b`, both ends included.
fn along(a: Point, b: Point) -> Vec<Point> {
    let n = (((b - a).length() / SPACING).ceil() as usize).max(1);
    (0..=n).map(|i| a.lerp(b, i as f64 / n as f64)).collect()
}

/// Points round an outline and its middle.
fn outline_marks(p: &[Point]) -> Vec<Point> {
    let mut out: Vec<Point> = (0..p.len())
        .flat_map(|i| along(p[i], p[(i + 1) % p.len()]))
        .collect();
    let n = p.len() as f64;
    out.push(Point::new(
        p.iter().map(|q| q.x).sum::<f64>() / n,
        p.iter().map(|q| q.y).sum::<f64>() / n,
    ));
    out
}
