//! Commanders, generals, objectives and gun smoke.

use super::RenderError;
use super::colour::Rgb;
use super::frame::{Frame, finite, points};
use super::placement::BoxPx;
use super::shapes::{Circle, Label, Line};
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
    /// Puffs of gun smoke (smoke markers), drawn as a unit's smoke is.
    pub puffs: Vec<Circle>,
    pub fill: String,
    pub stroke: String,
    pub label: Label,
    /// From the label moved away from its marker to the marker.
    pub leader: Option<Line>,
    /// False when the table had no room left for it ([`super::placement`]).
    pub label_shown: bool,
    /// The label's box, text position and anchor before placement, the
    /// places it may go, and the marker's centre.
    pub(crate) label_box: BoxPx,
    pub(crate) label_at: (f64, f64),
    pub(crate) candidates: Vec<(f64, f64)>,
    pub(crate) at: (f64, f64),
}

impl MarkerShape {
    /// Move the label by `offset`; with `leader`, draw a line to the marker.
    pub fn moved(&mut self, offset: (f64, f64), leader: bool) {
        let b = self.label_box.shifted(offset);
        self.label = Label::new(
            (self.label_at.0 + offset.0, self.label_at.1 + offset.1),
            self.label.text.clone(),
            self.label.anchor,
        );
        self.leader = leader.then(|| Line::new(super::units::nearest_on(&b, self.at), self.at));
    }
}

impl MarkerShape {
    /// The box of the label's short form, a number of `digits` digits.
    pub fn short_box(&self, digits: usize) -> BoxPx {
        label_box(self.label_at, &"0".repeat(digits), self.label.anchor)
    }

    /// The places the short form may go, as the whole label's.
    pub fn short_candidates(&self, digits: usize) -> Vec<(f64, f64)> {
        let b = self.short_box(digits);
        if self.star {
            round_star(&b)
        } else {
            round_ring(&b)
        }
    }

    /// Make the label its short form, `number`, which the legend explains,
    /// and return the whole label; then [`MarkerShape::moved`] draws it.
    pub fn shorten(&mut self, number: usize, digits: usize) -> String {
        self.label_box = self.short_box(digits);
        std::mem::replace(&mut self.label.text, number.to_string())
    }
}

/// The places a label's box `b` may take round a star, its text starting
/// right of it: right of the star, left of it, above, below.
fn round_star(b: &BoxPx) -> Vec<(f64, f64)> {
    vec![
        (0.0, 0.0),
        (-(b.w + 30.0), 0.0),
        (-(b.w / 2.0) - 15.0, -20.0),
        (-(b.w / 2.0) - 15.0, 22.0),
    ]
}

/// The places a label's box `b` may take round a ring or smoke, its text
/// centred below: below, above, to its sides.
fn round_ring(b: &BoxPx) -> Vec<(f64, f64)> {
    vec![
        (0.0, 0.0),
        (0.0, -36.0),
        (b.w / 2.0 + 14.0, -19.0),
        (-(b.w / 2.0) - 14.0, -19.0),
    ]
}

/// The box of a bold 13 px label with its baseline at `at`.
fn label_box(at: (f64, f64), text: &str, anchor: &str) -> BoxPx {
    let w = super::legend::text_width(text, 13.0) * 1.12 + 4.0;
    let x = match anchor {
        "middle" => at.0 - w / 2.0,
        "end" => at.0 - w,
        _ => at.0 - 2.0,
    };
    BoxPx {
        x,
        y: at.1 - 13.0 * 0.78 - 1.0,
        w,
        h: 13.0 + 2.0,
    }
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
                let label_at = (at.0 + 15.0, at.1 + 5.0);
                let b = label_box(label_at, &text, "start");
                MarkerShape {
                    star: true,
                    points: star(at, 12.0, 5.0),
                    ring: Circle::new(at, 0.0),
                    dot: Circle::new(at, 0.0),
                    puffs: Vec::new(),
                    fill: rgb.hex(),
                    stroke: rgb.darken(0.35).hex(),
                    label: Label::new(label_at, text, "start"),
                    leader: None,
                    label_shown: true,
                    label_box: b,
                    label_at,
                    candidates: round_star(&b),
                    at,
                }
            }
            MarkerKind::Objective | MarkerKind::Smoke => {
                let smoke = m.kind == MarkerKind::Smoke;
                let dot = if smoke {
                    Rgb {
                        r: 0x9a,
                        g: 0x9a,
                        b: 0x9a,
                    }
                } else {
                    rgb.unwrap_or(Rgb {
                        r: 0x22,
                        g: 0x22,
                        b: 0x22,
                    })
                };
                let text = match (name.is_empty(), smoke) {
                    (true, true) => "smoke".to_string(),
                    (true, false) => "Objective".to_string(),
                    (false, _) => name.to_string(),
                };
                let label_at = (at.0, at.1 + 24.0);
                let b = label_box(label_at, &text, "middle");
                MarkerShape {
                    star: false,
                    points: String::new(),
                    ring: Circle::new(at, if smoke { 0.0 } else { 10.0 }),
                    dot: Circle::new(at, if smoke { 0.0 } else { 4.5 }),
                    puffs: if smoke {
                        [(-6.0, 2.0, 7.0), (6.0, 2.0, 7.0), (0.0, -5.0, 8.0)]
                            .iter()
                            .map(|(dx, dy, r)| Circle::new((at.0 + dx, at.1 + dy), *r))
                            .collect()
                    } else {
                        Vec::new()
                    },
                    fill: dot.hex(),
                    stroke: if smoke { "#6f6f6f" } else { "#222222" }.into(),
                    label: Label::new(label_at, text, "middle"),
                    leader: None,
                    label_shown: true,
                    label_box: b,
                    label_at,
                    candidates: round_ring(&b),
                    at,
                }
            }
        });
    }
    Ok(out)
}
