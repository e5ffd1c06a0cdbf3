//! The map as a standalone SVG document, drawn in pixels so that the same
//! markup serves the HTML page and the PNG.

use super::RenderError;
use super::arrows::{self, ArrowShape};
use super::frame::{Frame, MARGIN_LEFT, num};
use super::grid::Grid;
use super::legend::Legend;
use super::markers::{self, MarkerShape};
use super::shapes::{Label, Rect};
use super::terrain::{self, TerrainShape};
use super::units::{self, UnitLayers};
use super::zones::{self, ZoneShape};
use crate::view::MapView;
use askama::Template;

/// Table cloth colour: a pale grass that every terrain colour stands out on.
const TABLE: &str = "#d3e2ab";

#[derive(Template)]
#[template(path = "map.svg")]
struct MapSvg {
    width: String,
    height: String,
    left: String,
    title: String,
    edge: Option<Label>,
    table: Rect,
    grid: Grid,
    terrain: Vec<TerrainShape>,
    terrain_labels: Vec<Label>,
    units: UnitLayers,
    arrows: Vec<ArrowShape>,
    zones: Vec<ZoneShape>,
    markers: Vec<MarkerShape>,
    legend: Legend,
}

/// Renders the map as an SVG document (no XML declaration, so that it can
/// also be placed inline in HTML).
pub fn map_svg(map: &MapView) -> Result<String, RenderError> {
    let frame = Frame::new(map)?;
    let grid = Grid::new(&frame, &map.unit);
    let legend = Legend::new(&frame, map, grid.bar_end);
    let frame = frame.with_rows(legend.rows);
    let (table_w, table_h) = frame.table_px();
    let (terrain, terrain_labels) = terrain::shapes(&frame, &map.terrain)?;
    // Orientation is the first thing a player needs: say whose edge is down.
    let edge = map.sides.first().map(|s| {
        Label::new(
            (frame.width - 24.0, 30.0),
            format!("{} table edge at the bottom", super::clean::line(&s.name)),
            "end",
        )
    });
    let title = super::clean::line(&map.title);
    let page = MapSvg {
        width: num(frame.width),
        height: num(frame.height),
        left: num(MARGIN_LEFT),
        title: if title.trim().is_empty() {
            "Map".into()
        } else {
            title
        },
        edge,
        table: Rect::new(
            MARGIN_LEFT,
            super::frame::TITLE_BAND,
            table_w,
            table_h,
            TABLE,
        ),
        grid,
        terrain,
        terrain_labels,
        units: units::layers(&frame, map)?,
        arrows: arrows::shapes(&frame, map)?,
        zones: zones::shapes(&frame, map)?,
        markers: markers::shapes(&frame, map)?,
        legend,
    };
    Ok(page.render()?)
}
