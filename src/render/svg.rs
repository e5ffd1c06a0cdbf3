//! The map as a standalone SVG document, drawn in pixels so that the same
//! markup serves the HTML page and the PNG.

use super::RenderError;
use super::arrows::{self, ArrowShape};
use super::frame::{Frame, MARGIN_LEFT, num};
use super::grid::Grid;
use super::legend::Legend;
use super::markers::{self, MarkerShape};
use super::placement::{self, Wanted};
use super::shapes::{Label, Rect};
use super::terrain::{self, TerrainShape};
use super::units::{self, UnitLayers};
use super::zones::{self, DeploymentShape, ZoneShape};
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
    deployment: Vec<DeploymentShape>,
    markers: Vec<MarkerShape>,
    legend: Legend,
}

/// Renders the map as an SVG document (no XML declaration, so that it can
/// also be placed inline in HTML).
pub fn map_svg(map: &MapView) -> Result<String, RenderError> {
    let frame = Frame::new(map)?;
    let grid = Grid::new(&frame, &map.unit);
    // Labels first: those too crowded to stand whole are numbered, and the
    // legend explains the numbers. The table's place in the picture does
    // not depend on the legend's rows.
    let (units, markers, numbered) = labelled(&frame, map)?;
    let legend = Legend::new(&frame, map, grid.bar_end, &numbered);
    let frame = frame.with_rows(legend.rows);
    let (table_w, table_h) = frame.table_px();
    let (terrain, terrain_labels) = terrain::shapes(&frame, &map.terrain)?;
    // Orientation is the first thing a player needs: say whose edge is down.
    let bottom = if map.turned {
        map.sides.get(1)
    } else {
        map.sides.first()
    };
    let edge = bottom.map(|s| {
        Label::new(
            (frame.width - 24.0, 30.0),
            format!("Bottom edge: {}", super::clean::line(&s.name)),
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
        units,
        arrows: arrows::shapes(&frame, map)?,
        zones: zones::shapes(&frame, map)?,
        deployment: zones::deployment(&frame, map)?,
        markers,
        legend,
    };
    Ok(page.render()?)
}

/// The units and markers with every label placed so that none overlaps
/// another nor leaves the table ([`super::placement`]): units' labels
/// first, in the view's order, then the markers'. A label placed in its
/// short form is numbered, in that order; the numbered labels' whole
/// texts come third, for the legend.
pub(crate) fn labelled(
    frame: &super::frame::Frame,
    map: &MapView,
) -> Result<(UnitLayers, Vec<MarkerShape>, Vec<String>), RenderError> {
    let mut units = units::layers(frame, map)?;
    let mut markers = markers::shapes(frame, map)?;
    // Numbers as wide as the largest there could be.
    let digits = (units.labels.len() + markers.len()).to_string().len();
    let mut wanted: Vec<Wanted> = units
        .labels
        .iter()
        .map(|l| Wanted {
            at: l.geom.bbox,
            candidates: l.geom.candidates.clone(),
            short: Some((l.short_box(digits), l.short_candidates(digits))),
        })
        .collect();
    wanted.extend(markers.iter().map(|m| Wanted {
        at: m.label_box,
        candidates: m.candidates.clone(),
        short: Some((m.short_box(digits), m.short_candidates(digits))),
    }));
    // Bases first: a label may not cover a unit, nor another label.
    let bases: Vec<placement::BoxPx> = units.labels.iter().map(|l| l.geom.unit_box).collect();
    // The table, where every label stays.
    let (table_w, table_h) = frame.table_px();
    let table = placement::BoxPx {
        x: MARGIN_LEFT,
        y: super::frame::TITLE_BAND,
        w: table_w,
        h: table_h,
    };
    let placed = placement::place(table, &bases, &wanted);
    let (for_units, for_markers) = placed.split_at(units.labels.len());
    let mut numbered = Vec::new();
    for (l, p) in units.labels.iter_mut().zip(for_units) {
        if p.short {
            let whole = l.whole();
            l.shorten(numbered.len() + 1, digits);
            numbered.push(format!("{} {whole}", numbered.len() + 1));
        }
        l.moved(p.offset, p.moved);
        l.shown = p.shown;
    }
    for (m, p) in markers.iter_mut().zip(for_markers) {
        if p.short {
            let whole = m.shorten(numbered.len() + 1, digits);
            numbered.push(format!("{} {whole}", numbered.len() + 1));
        }
        m.moved(p.offset, p.moved);
        m.label_shown = p.shown;
    }
    Ok((units, markers, numbered))
}

/// Every label's box as placed: for tests that no two overlap.
pub(crate) fn label_boxes(map: &MapView) -> Result<Vec<placement::BoxPx>, RenderError> {
    let frame = super::frame::Frame::new(map)?;
    let (units, markers, _) = labelled(&frame, map)?;
    let mut out = Vec::new();
    for l in units.labels.iter().filter(|l| l.shown) {
        let r = &l.backdrop;
        out.push(placement::BoxPx {
            x: r.x.parse().unwrap_or(0.0),
            y: r.y.parse().unwrap_or(0.0),
            w: r.w.parse().unwrap_or(0.0),
            h: r.h.parse().unwrap_or(0.0),
        });
    }
    for m in markers.iter().filter(|m| m.label_shown) {
        let dx = m.label.x.parse::<f64>().unwrap_or(0.0) - m.label_at.0;
        let dy = m.label.y.parse::<f64>().unwrap_or(0.0) - m.label_at.1;
        out.push(m.label_box.shifted((dx, dy)));
    }
    Ok(out)
}
