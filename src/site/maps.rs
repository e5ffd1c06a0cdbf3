//! Each step's public map, drawn here from the step's `view.yaml` by the
//! same renderer as the reports, with the box of every unit so that the
//! page can point at one. Drawn from parsed data through escaping
//! templates, never copied as markup from the archive: a page must not run
//! what an archive's author slipped into it.

use crate::archive::PublicView;
use serde::Serialize;

/// One step's map, or why it cannot be drawn.
#[derive(Debug, Serialize)]
pub struct StepMap {
    pub heading: String,
    pub svg: String,
    /// Each unit's box in the SVG's pixels.
    pub units: Vec<crate::render::UnitBox>,
    pub error: Option<String>,
    /// The view's own heading: the step after this one, which the state
    /// it shows is ready for (the next step's title when its notice has
    /// none).
    #[serde(skip)]
    pub after: Option<String>,
}

/// The heading a step is titled with: its own notice's (the step that was
/// played, as its mail titles it), or else the heading the step before's
/// view gave the state this step was played from; never this step's own
/// view's, which names the step after.
pub fn heading(notice: Option<&str>, before: Option<&str>) -> String {
    notice
        .and_then(|t| crate::yaml::from_str::<Notice>(t).ok())
        .map(|n| n.heading)
        .filter(|h| !h.is_empty())
        .or_else(|| before.map(str::to_string))
        .unwrap_or_default()
}

/// `step-NNNN/view.yaml`: the view of the run in force.
pub fn view_path(step: u32) -> String {
    format!("step-{step:04}/view.yaml")
}

/// The heading a step's notice gave it: the step that was played, as its
/// mail and the archive's map title it.
#[derive(serde::Deserialize)]
struct Notice {
    #[serde(default)]
    heading: String,
}

/// Step `step`'s map from its view's text, titled `heading`.
pub fn one(game: &str, step: u32, text: &str, heading: String) -> StepMap {
    let broken = |heading: String, e: String| StepMap {
        heading,
        svg: String::new(),
        units: Vec::new(),
        error: Some(e),
        after: None,
    };
    let view: PublicView = match crate::yaml::from_str(text) {
        Ok(v) => v,
        Err(e) => return broken(heading, format!("view.yaml does not parse: {e}")),
    };
    let mut map = view.map;
    map.title = crate::render::step_title(game, step, &heading);
    let after = Some(view.heading).filter(|h| !h.is_empty());
    match (
        crate::render::map_svg(&map),
        crate::render::unit_boxes(&map),
    ) {
        (Ok(svg), Ok(units)) => StepMap {
            heading,
            svg,
            units,
            error: None,
            after,
        },
        (Err(e), _) | (_, Err(e)) => StepMap {
            after,
            ..broken(heading, e.to_string())
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_is_titled_by_its_own_notice_not_by_its_view_which_names_the_next() {
        let notice = "game: g\nstep: 2\nheading: Round 1, French active\n";
        assert_eq!(
            heading(Some(notice), Some("Round 0")),
            "Round 1, French active"
        );
        // A notice without a heading: the step before's view named this one.
        assert_eq!(
            heading(Some("game: g\n"), Some("Round 1, French active")),
            "Round 1, French active"
        );
        assert_eq!(heading(None, None), "");
        let m = one("g", 2, &view_with_unit_at(2.0), heading(Some(notice), None));
        assert_eq!(m.heading, "Round 1, French active");
        assert_eq!(
            m.after.as_deref(),
            Some("Round 1"),
            "the view's own, kept apart"
        );
        assert!(m.svg.contains("step 2 \u{2014} Round 1, French active"));
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
        let a = one("g", 3, &view_with_unit_at(2.0), "Round 1".into());
        let b = one("g", 3, &view_with_unit_at(12.0), "Round 1".into());
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
        let m = one("g", 1, "heading: [", String::new());
        assert!(m.svg.is_empty());
        assert!(m.error.unwrap().contains("does not parse"));
    }
}
