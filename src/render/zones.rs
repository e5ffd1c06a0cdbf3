//! Fire zones used this step: translucent bands under the units.

use super::RenderError;
use super::frame::{Frame, finite, points};
use super::units::side_rgb;
use crate::view::MapView;

#[derive(Debug)]
pub(crate) struct ZoneShape {
    pub points: String,
    pub stroke: String,
}

pub(crate) fn shapes(frame: &Frame, map: &MapView) -> Result<Vec<ZoneShape>, RenderError> {
    let mut out = Vec::new();
    for z in &map.zones {
        if z.points.len() < 3 {
            continue;
        }
        let mut px = Vec::with_capacity(z.points.len());
        for p in &z.points {
            px.push(frame.px(finite(*p, "fire zone")?));
        }
        out.push(ZoneShape {
            points: points(&px),
            stroke: side_rgb(map, z.side).hex(),
        });
    }
    Ok(out)
}

/// A side's deployment zone: a dashed outline in its colour, named.
#[derive(Debug)]
pub(crate) struct DeploymentShape {
    pub points: String,
    pub stroke: String,
    pub label: super::shapes::Label,
}

pub(crate) fn deployment(
    frame: &Frame,
    map: &MapView,
) -> Result<Vec<DeploymentShape>, RenderError> {
    let mut out = Vec::new();
    for z in &map.deployment {
        if z.points.len() < 3 {
            continue;
        }
        let mut px = Vec::with_capacity(z.points.len());
        for p in &z.points {
            px.push(frame.px(finite(*p, "deployment zone")?));
        }
        let (min_x, min_y) = px
            .iter()
            .fold((f64::INFINITY, f64::INFINITY), |(a, b), (x, y)| {
                (a.min(*x), b.min(*y))
            });
        let name = map
            .sides
            .get(z.side)
            .map(|s| super::clean::line(&s.name))
            .unwrap_or_default();
        out.push(DeploymentShape {
            points: points(&px),
            stroke: side_rgb(map, z.side).darken(0.3).hex(),
            label: super::shapes::Label::new(
                (min_x + 8.0, min_y + 18.0),
                format!("{name} deployment zone"),
                "start",
            ),
        });
    }
    Ok(out)
}
