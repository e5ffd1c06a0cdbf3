//! This step's arrows: moves, fire, charges and fall-backs.

use super::RenderError;
use super::frame::{Frame, finite, num, points};
use super::units::side_rgb;
use crate::view::{ArrowKind, MapView};

/// Fire is red whoever fires: players look for it first.
pub(crate) const FIRE_RED: &str = "#d41f1f";

/// One arrow: shaft path and head triangle.
#[derive(Debug)]
pub(crate) struct ArrowShape {
    pub d: String,
    pub colour: String,
    pub width: String,
    pub halo_width: String,
    pub dash: &'static str,
    pub head: Option<String>,
}

/// How each kind is drawn: (shaft width, dash, head length, head half-width).
pub(crate) fn style(kind: ArrowKind) -> (f64, &'static str, f64, f64) {
    match kind {
        ArrowKind::Move => (2.5, "9 6", 15.0, 6.5),
        ArrowKind::Fire => (1.6, "", 11.0, 4.5),
        ArrowKind::Charge => (5.5, "", 22.0, 11.0),
        ArrowKind::FallBack => (3.0, "0.5 6", 14.0, 6.5),
        ArrowKind::Engaged => (3.5, "2 4", 0.0, 0.0),
    }
}

/// Shaft path and head for a polyline in pixels; the shaft stops inside the
/// head so that dashes do not poke through the tip.
pub(crate) fn geometry(pts: &[(f64, f64)], head_len: f64, half: f64) -> (String, Option<String>) {
    let mut shaft = pts.to_vec();
    let mut head = None;
    if let [.., a, b] = pts
        && head_len > 0.0
    {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = dx.hypot(dy);
        if len > 1e-6 {
            let (ux, uy) = (dx / len, dy / len);
            let base = (b.0 - ux * head_len, b.1 - uy * head_len);
            head = Some(points(&[
                *b,
                (base.0 - uy * half, base.1 + ux * half),
                (base.0 + uy * half, base.1 - ux * half),
            ]));
            let cut = (head_len * 0.7).min(len);
            if let Some(last) = shaft.last_mut() {
                *last = (b.0 - ux * cut, b.1 - uy * cut);
            }
        }
    }
    let mut d = String::new();
    for (i, (x, y)) in shaft.iter().enumerate() {
        d.push_str(if i == 0 { "M" } else { " L" });
        d.push_str(&format!("{},{}", num(*x), num(*y)));
    }
    (d, head)
}

/// Every arrow of the map with at least two points, in the view's order.
pub(crate) fn shapes(frame: &Frame, map: &MapView) -> Result<Vec<ArrowShape>, RenderError> {
    let mut out = Vec::new();
    for a in &map.arrows {
        if a.path.len() < 2 {
            continue;
        }
        let mut pts = Vec::with_capacity(a.path.len());
        for p in &a.path {
            pts.push(frame.px(finite(*p, "an arrow")?));
        }
        let (width, dash, head_len, half) = style(a.kind);
        let (d, head) = geometry(&pts, head_len, half);
        let colour = match a.kind {
            ArrowKind::Fire => FIRE_RED.to_string(),
            ArrowKind::Engaged => "#111111".to_string(),
            _ => side_rgb(map, a.side).darken(0.85).hex(),
        };
        out.push(ArrowShape {
            d,
            colour,
            width: num(width),
            halo_width: num(width + 3.0),
            dash,
            head,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_tip_is_the_last_point() {
        let (d, head) = geometry(&[(0.0, 0.0), (100.0, 0.0)], 10.0, 5.0);
        assert_eq!(d, "M0.0,0.0 L93.0,0.0");
        assert_eq!(head.as_deref(), Some("100.0,0.0 90.0,5.0 90.0,-5.0"));
    }

    #[test]
    fn degenerate_arrow_has_no_head() {
        let (_, head) = geometry(&[(5.0, 5.0), (5.0, 5.0)], 10.0, 5.0);
        assert!(head.is_none());
    }
}
