//! Each step's public map, drawn here from the step's `view.yaml` by the
//! same renderer as the reports, with the box of every unit so that the
//! page can point at one. Drawn from parsed data through escaping
//! templates, never copied as markup from the archive: a page must not run
//! what an archive's author slipped into it.

use super::bundle::Bundle;
use crate::game::archive::PublicView;
use serde::Serialize;
use std::collections::BTreeMap;

/// One step's map, or why it cannot be drawn.
#[derive(Debug, Serialize)]
pub struct StepMap {
    pub heading: String,
    pub svg: String,
    /// Each unit's box in the SVG's pixels.
    pub units: Vec<crate::render::UnitBox>,
    pub error: Option<String>,
}

/// The map of every resolved step (the runs in force, `step-N/view.yaml`).
pub fn draw(bundle: &Bundle) -> anyhow::Result<BTreeMap<u32, StepMap>> {
    let game = bundle
        .get("game.yaml")
        .and_then(|t| crate::yaml::from_str::<crate::game::archive::GameFile>(t).ok())
        .map(|g| g.game)
        .unwrap_or_default();
    let mut out = BTreeMap::new();
    for (path, text) in &bundle.text {
        let Some(step) = step_view(path) else {
            continue;
        };
        let played = bundle
            .get(&format!("step-{step:04}/notice.yaml"))
            .and_then(|t| crate::yaml::from_str::<Notice>(t).ok())
            .map(|n| n.heading)
            .filter(|h| !h.is_empty());
        out.insert(step, one(&game, step, text, played));
    }
    Ok(out)
}

/// `step-NNNN/view.yaml` gives NNNN; rolled-back runs and sealed files none.
fn step_view(path: &str) -> Option<u32> {
    let rest = path.strip_prefix("step-")?.strip_suffix("/view.yaml")?;
    (rest.len() == 4 && rest.bytes().all(|b| b.is_ascii_digit()))
        .then(|| rest.parse().ok())
        .flatten()
}

/// The heading a step's notice gave it: the step that was played, as its
/// mail and the archive's map title it.
#[derive(serde::Deserialize)]
struct Notice {
    #[serde(default)]
    heading: String,
}

fn one(game: &str, step: u32, text: &str, played: Option<String>) -> StepMap {
    let broken = |heading: String, e: String| StepMap {
        heading,
        svg: String::new(),
        units: Vec::new(),
        error: Some(e),
    };
    let view: PublicView = match crate::yaml::from_str(text) {
        Ok(v) => v,
        Err(e) => return broken(String::new(), format!("view.yaml does not parse: {e}")),
    };
    let mut map = view.map;
    let heading = played.unwrap_or(view.heading);
    map.title = crate::render::step_title(game, step, &heading);
    match (
        crate::render::map_svg(&map),
        crate::render::unit_boxes(&map),
    ) {
        (Ok(svg), Ok(units)) => StepMap {
            heading,
            svg,
            units,
            error: None,
        },
        (Err(e), _) | (_, Err(e)) => broken(heading, e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_runs_in_force_have_maps() {
        assert_eq!(step_view("step-0012/view.yaml"), Some(12));
        assert_eq!(step_view("step-0012/rollback-1/view.yaml"), None);
        assert_eq!(step_view("sealed/step-0012/view.yaml"), None);
        assert_eq!(step_view("step-12/view.yaml"), None);
    }

    fn view_with_unit_at(x: f64) -> String {
        use crate::geometry::Point;
        use crate::view::{BaseView, MapView, SideStyle, UnitView};
        let p = |x: f64, y: f64| Point { x, y };
        let map = MapView {
            title: String::new(),
            width: 36.0,
            height: 24.0,
            unit: "BW".into(),
            sides: vec![SideStyle {
                side: crate::side::SideId::new("french"),
                name: "French".into(),
                colour: "#1f4e9c".into(),
            }],
            terrain: vec![],
            units: vec![UnitView {
                id: "fr-i1".into(),
                label: "Picardie".into(),
                side: 0,
                bases: vec![BaseView {
                    corners: [p(x, 6.0), p(x + 4.0, 6.0), p(x + 4.0, 5.25), p(x, 5.25)],
                    side: 0,
                }],
                anchor: p(x + 2.0, 5.6),
                facing: 0.0,
                formation: "line".into(),
                disruption: 0,
                smoke: false,
                note: None,
                status: Vec::new(),
            }],
            markers: vec![],
            arrows: vec![],
            zones: vec![],
            deployment: vec![],
            turned: false,
            counter: None,
            letters: Vec::new(),
        };
        crate::yaml::to_string(&PublicView {
            heading: "Round 1".into(),
            map,
            panels: vec![],
        })
        .unwrap()
    }

    #[test]
    fn each_unit_has_its_box_where_the_svg_draws_it() {
        let a = one("g", 3, &view_with_unit_at(2.0), None);
        let b = one("g", 3, &view_with_unit_at(12.0), None);
        assert_eq!(a.error, None);
        assert!(
            a.svg.contains("g \u{2014} step 3 \u{2014} Round 1"),
            "the map is titled by its step"
        );
        let (id, x, y, w, h) = a.units[0].clone();
        assert_eq!(id, "fr-i1");
        assert!(w > h && h > 0.0, "a line is wider than deep: {w} x {h}");
        let (_, x2, y2, w2, _) = b.units[0].clone();
        assert!(
            x2 > x + 5.0 * w / 4.0 && (y2 - y).abs() < 1e-9 && (w2 - w).abs() < 1e-9,
            "moved 10 BW right, the box moves right only: {x} -> {x2}"
        );
        let width: f64 = a
            .svg
            .split("width=\"")
            .nth(1)
            .and_then(|s| s.split('"').next())
            .unwrap()
            .parse()
            .unwrap();
        assert!(x > 0.0 && x + w < width, "the box lies on the drawing");
    }

    #[test]
    fn a_view_that_does_not_parse_is_said_not_drawn() {
        let m = one("g", 1, "heading: [", None);
        assert!(m.svg.is_empty());
        assert!(m.error.unwrap().contains("does not parse"));
    }
}
