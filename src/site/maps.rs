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
    /// (unit id, x, y, width, height) in the SVG's pixels.
    pub units: Vec<(String, f64, f64, f64, f64)>,
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
        out.insert(step, one(&game, step, text));
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

fn one(game: &str, step: u32, text: &str) -> StepMap {
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
    map.title = crate::render::step_title(game, step, &view.heading);
    match (
        crate::render::map_svg(&map),
        crate::render::unit_boxes(&map),
    ) {
        (Ok(svg), Ok(units)) => StepMap {
            heading: view.heading,
            svg,
            units,
            error: None,
        },
        (Err(e), _) | (_, Err(e)) => broken(view.heading, e.to_string()),
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

    #[test]
    fn a_view_that_does_not_parse_is_said_not_drawn() {
        let m = one("g", 1, "heading: [");
        assert!(m.svg.is_empty());
        assert!(m.error.unwrap().contains("does not parse"));
    }
}
