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
