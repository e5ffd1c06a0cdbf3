//! Commanders, generals and objectives.

use super::RenderError;
use super::colour::Rgb;
use super::frame::{Frame, finite, points};
use super::shapes::{Circle, Label};
use super::units::side_rgb;
use crate::view::{MapView, MarkerKind};

/// A commander's star or an objective's ring, with its label.
#[derive(Debug)]
pub(crate) struct MarkerShape {
    pub star: bool,
    /// Star outline (commanders).
    pub points: String,
    /// Outer ring and centre dot (objectives).
    pub ring: Circle,
    pub dot: Circle,
    pub fill: String,
    pub stroke: String,
    pub label: Label,
}

/// Five-pointed star around `c`, first point straight up.
pub(crate) fn star(c: (f64, f64), outer: f64, inner: f64) -> String {
    let pts: Vec<(f64, f64)> = (0..10)
        .map(|i| {
            let r = if i % 2 == 0 { outer } else { inner };
            let a = std::f64::consts::PI * f64::from(i) / 5.0;
            (c.0 + r * a.sin(), c.1 - r * a.cos())
        })
        .collect();
    points(&pts)
}

/// Every marker of the map, in the view's order.
pub(crate) fn shapes(frame: &Frame, map: &MapView) -> Result<Vec<MarkerShape>, RenderError> {
    let mut out = Vec::new();
    for m in &map.markers {
        let at = frame.px(finite(m.at, &format!("marker {:?}", m.label))?);
        let rgb = m.side.map(|s| side_rgb(map, s));
        let name = super::clean::line(&m.label);
        let name = name.trim();
        out.push(match m.kind {
            MarkerKind::Commander | MarkerKind::General => {
                let rgb = rgb.unwrap_or(super::colour::NEUTRAL);
                // Players know the commander-in-chief as "CinC"; a name is added, not substituted.
                let text = if m.kind == MarkerKind::General {
                    if name.is_empty() {
                        "General".to_string()
                    } else {
                        name.to_string()
                    }
                } else if name.is_empty() || name.eq_ignore_ascii_case("cinc") {
                    "CinC".to_string()
                } else {
                    format!("CinC {name}")
                };
                MarkerShape {
                    star: true,
                    points: star(at, 12.0, 5.0),
                    ring: Circle::new(at, 0.0),
                    dot: Circle::new(at, 0.0),
                    fill: rgb.hex(),
                    stroke: rgb.darken(0.35).hex(),
                    label: Label::new((at.0 + 15.0, at.1 + 5.0), text, "start"),
                }
            }
            MarkerKind::Objective => {
                let dot = rgb.unwrap_or(Rgb {
                    r: 0x22,
                    g: 0x22,
                    b: 0x22,
                });
                let text = if name.is_empty() {
                    "Objective".to_string()
                } else {
                    name.to_string()
                };
                MarkerShape {
                    star: false,
                    points: String::new(),
                    ring: Circle::new(at, 10.0),
                    dot: Circle::new(at, 4.5),
                    fill: dot.hex(),
                    stroke: "#222222".into(),
                    label: Label::new((at.0, at.1 + 24.0), text, "middle"),
                }
            }
        });
    }
    Ok(out)
}
