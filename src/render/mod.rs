//! Turning views into HTML, SVG, PNG and plain text.
//!
//! Everything a player wrote (unit labels, side and game names) reaches
//! markup only through askama's escaping, after [`clean`] has removed
//! characters that no XML document may hold. Numbers are formatted with fixed
//! precision, so one view always gives byte-identical output.

mod arrows;
mod clean;
mod colour;
mod frame;
mod grid;
mod html;
mod legend;
mod markers;
pub mod orders_page;
mod palette;
mod placement;
mod png;
mod shapes;
mod svg;
mod terrain;
mod text;
mod units;
mod wrap;
mod zones;

use crate::view::{MapView, ReportView};

pub use html::{report_html, report_html_with_map};
pub use svg::map_svg;
pub use text::report_text;

/// Why a report could not be rendered.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// The view holds geometry that cannot be drawn (a non-finite point, an empty table).
    #[error("the map cannot be drawn: {0}")]
    InvalidMap(String),
    /// A template failed to render.
    #[error("a report template failed: {0}")]
    Template(#[from] askama::Error),
    /// Our own SVG did not parse: a renderer bug, never the players' doing.
    #[error("the SVG map does not parse: {0}")]
    Svg(#[from] resvg::usvg::Error),
    /// The raster could not be allocated or encoded.
    #[error("the PNG map cannot be made: {0}")]
    Png(String),
}

/// The boxes of every unit and marker label of `map` as drawn, in
/// pixels, as (x, y, width, height): no two overlap.
pub fn label_boxes(map: &MapView) -> Result<Vec<(f64, f64, f64, f64)>, RenderError> {
    Ok(svg::label_boxes(map)?
        .into_iter()
        .map(|b| (b.x, b.y, b.w, b.h))
        .collect())
}

/// A unit's id and the upright box round its bases as drawn, in pixels:
/// (id, x, y, width, height).
pub type UnitBox = (String, f64, f64, f64, f64);

/// Each unit's box on the map, for a page that points at a unit on it
/// ([`map_svg`]'s coordinates).
pub fn unit_boxes(map: &MapView) -> Result<Vec<UnitBox>, RenderError> {
    let frame = frame::Frame::new(map)?;
    Ok(map
        .units
        .iter()
        .filter_map(|u| {
            let pts: Vec<(f64, f64)> = u
                .bases
                .iter()
                .flat_map(|b| b.corners.iter().map(|c| frame.px(*c)))
                .filter(|(x, y)| x.is_finite() && y.is_finite())
                .collect();
            let (x0, y0) = pts.iter().fold((f64::MAX, f64::MAX), |(a, b), (x, y)| {
                (a.min(*x), b.min(*y))
            });
            let (x1, y1) = pts.iter().fold((f64::MIN, f64::MIN), |(a, b), (x, y)| {
                (a.max(*x), b.max(*y))
            });
            (!pts.is_empty()).then(|| (u.id.clone(), x0, y0, x1 - x0, y1 - y0))
        })
        .collect())
}

/// Renders the map as a PNG about 1400 pixels wide, with fonts built in.
pub fn map_png(map: &MapView) -> Result<Vec<u8>, RenderError> {
    png::rasterise(&map_svg(map)?)
}

/// Rasterises an SVG document made by [`map_svg`] (or [`report_svg`]), for
/// callers that render several maps and share the PNG of identical ones.
pub fn svg_png(svg: &str) -> Result<Vec<u8>, RenderError> {
    png::rasterise(svg)
}

/// The SVG of a report's map, titled as [`report_png`] titles it:
/// `svg_png(&report_svg(r)?)` is `report_png(r)`.
pub fn report_svg(report: &ReportView) -> Result<String, RenderError> {
    map_svg(&report_map(report))
}

/// Parses an SVG document with the map's built-in fonts, for measuring the
/// rasterisation alone (`galloper bench`).
pub fn parse_svg(svg: &str) -> Result<resvg::usvg::Tree, RenderError> {
    png::parse(svg)
}

/// Draws a parsed map and encodes it as PNG, the two primitives of a map's
/// PNG, each timed alone (`galloper bench`): the bytes are [`svg_png`]'s.
pub fn draw_and_encode(
    tree: &resvg::usvg::Tree,
) -> Result<(std::time::Duration, std::time::Duration, Vec<u8>), RenderError> {
    let t = std::time::Instant::now();
    let pixmap = png::draw(tree)?;
    let drawn = t.elapsed();
    let t = std::time::Instant::now();
    let bytes = png::encode(pixmap)?;
    Ok((drawn, t.elapsed(), bytes))
}

/// Renders a report's map as PNG, titled from the report when the map has no
/// title of its own: the attachment that goes with [`report_html`].
pub fn report_png(report: &ReportView) -> Result<Vec<u8>, RenderError> {
    map_png(&report_map(report))
}

/// The title a report's map carries: game, step and heading.
pub fn map_title(report: &ReportView) -> String {
    step_title(&report.game, report.step, &report.heading)
}

/// The title over a step's map, the same in every report and the archive,
/// so that readers who see the same table share one rasterised map.
pub fn step_title(game: &str, step: u32, heading: &str) -> String {
    format!("{game} \u{2014} step {step} \u{2014} {heading}")
}

/// The report's map with its title filled in.
/// A report's map, titled as [`report_png`] titles it: `map_svg` of it is
/// [`report_svg`].
pub fn report_map(report: &ReportView) -> MapView {
    let mut map = report.map.clone();
    if map.title.trim().is_empty() {
        map.title = map_title(report);
    }
    map
}
