//! Terrain as filled areas and stroked lines, styled by kind of ground.

use super::RenderError;
use super::frame::{Frame, finite, num};
use super::shapes::Label;
use crate::view::{TerrainStyle, TerrainView};

/// One painted path of a terrain feature (a road is two: casing and surface).
#[derive(Debug)]
pub(crate) struct TerrainShape {
    pub d: String,
    pub fill: &'static str,
    pub stroke: &'static str,
    pub width: String,
    pub dash: &'static str,
    /// Drawn at a lower opacity (an inner hill contour).
    pub faint: bool,
}

/// Painting order: open ground first, lines over areas, walls on top.
fn layer(style: TerrainStyle, closed: bool) -> u8 {
    match (style, closed) {
        (TerrainStyle::Field, true) => 0,
        (TerrainStyle::Rough | TerrainStyle::Marsh, true) => 1,
        (TerrainStyle::Hill, true) => 2,
        (TerrainStyle::Town, true) => 3,
        (TerrainStyle::Woods, true) => 4,
        (TerrainStyle::Water, true) => 5,
        (TerrainStyle::Water, false) => 6,
        (TerrainStyle::Road, _) => 7,
        (TerrainStyle::Wall, _) => 9,
        (_, false) => 8,
    }
}

fn path(pts: &[(f64, f64)], closed: bool) -> String {
    let mut d = String::new();
    for (i, (x, y)) in pts.iter().enumerate() {
        d.push_str(if i == 0 { "M" } else { " L" });
        d.push_str(&format!("{},{}", num(*x), num(*y)));
    }
    if closed {
        d.push_str(" Z");
    }
    d
}

/// The point `frac` of the way along a polyline. Line names sit a third of
/// the way along rather than in the middle, where a road and the stream it
/// crosses would put their names on top of each other.
fn along(pts: &[(f64, f64)], frac: f64) -> (f64, f64) {
    let seg = |i: usize| (pts[i + 1].0 - pts[i].0).hypot(pts[i + 1].1 - pts[i].1);
    let total: f64 = (0..pts.len().saturating_sub(1)).map(seg).sum();
    let mut left = total * frac;
    for i in 0..pts.len().saturating_sub(1) {
        let len = seg(i);
        if left <= len && len > 0.0 {
            let k = left / len;
            return (
                pts[i].0 + (pts[i + 1].0 - pts[i].0) * k,
                pts[i].1 + (pts[i + 1].1 - pts[i].1) * k,
            );
        }
        left -= len;
    }
    pts.last().copied().unwrap_or((0.0, 0.0))
}

fn centroid(pts: &[(f64, f64)]) -> (f64, f64) {
    let n = pts.len().max(1) as f64;
    let (sx, sy) = pts
        .iter()
        .fold((0.0, 0.0), |(ax, ay), (x, y)| (ax + x, ay + y));
    (sx / n, sy / n)
}

/// Fill and outline for an area of this ground.
fn area_paint(style: TerrainStyle) -> (&'static str, &'static str, f64, &'static str) {
    match style {
        TerrainStyle::Woods => ("url(#pat-woods)", "#1f4a17", 2.5, ""),
        TerrainStyle::Hill => ("#dcc08a", "#8a6532", 2.0, ""),
        TerrainStyle::Water => ("#8fc3ea", "#2f6fa8", 2.0, ""),
        TerrainStyle::Rough => ("url(#pat-rough)", "#8a7c45", 1.5, "6 4"),
        TerrainStyle::Marsh => ("url(#pat-marsh)", "#4d7f88", 1.5, "6 4"),
        TerrainStyle::Town => ("url(#pat-town)", "#4a3b2e", 2.0, ""),
        TerrainStyle::Field => ("url(#pat-field)", "#a89249", 1.2, ""),
        TerrainStyle::Road => ("#c9a46b", "#6b4423", 1.5, ""),
        TerrainStyle::Wall => ("#9a9a9a", "#505050", 2.0, ""),
    }
}

/// Strokes for a line of this ground, widest first, as (colour, width in table units, minimum px, dash).
fn line_paint(style: TerrainStyle) -> Vec<(&'static str, f64, f64, &'static str)> {
    match style {
        TerrainStyle::Road => vec![("#6b4423", 0.4, 6.0, ""), ("#c9a46b", 0.28, 4.0, "")],
        TerrainStyle::Water => vec![("#2f6fa8", 0.4, 6.0, ""), ("#8fc3ea", 0.26, 3.5, "")],
        TerrainStyle::Wall => vec![("#4a4a4a", 0.2, 5.0, ""), ("#9a9a9a", 0.1, 2.5, "")],
        TerrainStyle::Woods => vec![("#1f4a17", 0.2, 4.0, "")],
        TerrainStyle::Hill => vec![("#8a6532", 0.1, 2.0, "")],
        TerrainStyle::Rough | TerrainStyle::Marsh => vec![("#8a7c45", 0.1, 2.0, "4 3")],
        TerrainStyle::Town => vec![("#4a3b2e", 0.15, 3.0, "")],
        TerrainStyle::Field => vec![("#a89249", 0.1, 2.0, "")],
    }
}

/// Every terrain feature's shapes in painting order, and the names to write on them.
pub(crate) fn shapes(
    frame: &Frame,
    terrain: &[TerrainView],
) -> Result<(Vec<TerrainShape>, Vec<Label>), RenderError> {
    let mut order: Vec<&TerrainView> = terrain.iter().collect();
    // Stable sort: features of one layer keep the scenario's order.
    order.sort_by_key(|t| layer(t.style, t.closed));
    let mut out = Vec::new();
    let mut labels = Vec::new();
    for t in order {
        let mut pts = Vec::with_capacity(t.points.len());
        for p in &t.points {
            pts.push(frame.px(finite(*p, &format!("terrain {:?}", t.name))?));
        }
        let is_area = t.closed && pts.len() >= 3;
        if pts.len() < 2 {
            continue;
        }
        if is_area {
            let (fill, stroke, width, dash) = area_paint(t.style);
            out.push(TerrainShape {
                d: path(&pts, true),
                fill,
                stroke,
                width: num(width),
                dash,
                faint: false,
            });
            if t.style == TerrainStyle::Hill {
                // An inner contour line tells a hill from any other brown patch.
                let c = centroid(&pts);
                let inner: Vec<(f64, f64)> = pts
                    .iter()
                    .map(|(x, y)| (c.0 + (x - c.0) * 0.55, c.1 + (y - c.1) * 0.55))
                    .collect();
                out.push(TerrainShape {
                    d: path(&inner, true),
                    fill: "none",
                    stroke: "#8a6532",
                    width: num(1.5),
                    dash: "",
                    faint: true,
                });
            }
        } else {
            for (colour, w, min_px, dash) in line_paint(t.style) {
                out.push(TerrainShape {
                    d: path(&pts, t.closed),
                    fill: "none",
                    stroke: colour,
                    width: num((w * frame.scale).max(min_px)),
                    dash,
                    faint: false,
                });
            }
        }
        let name = super::clean::line(&t.name);
        if !name.trim().is_empty() {
            let (at, lift) = if is_area {
                (centroid(&pts), 4.0)
            } else {
                (along(&pts, 0.3), -8.0)
            };
            labels.push(Label::new((at.0, at.1 + lift), name, "middle"));
        }
    }
    Ok((out, labels))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn along_walks_the_polyline() {
        let pts = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0)];
        assert_eq!(along(&pts, 0.25), (5.0, 0.0));
        assert_eq!(along(&pts, 0.75), (10.0, 5.0));
        assert_eq!(along(&pts, 1.0), (10.0, 10.0));
    }

    #[test]
    fn woods_paint_over_fields_and_walls_over_everything() {
        assert!(layer(TerrainStyle::Field, true) < layer(TerrainStyle::Woods, true));
        assert!(layer(TerrainStyle::Water, false) < layer(TerrainStyle::Road, false));
        assert!(layer(TerrainStyle::Road, false) < layer(TerrainStyle::Wall, false));
    }
}
