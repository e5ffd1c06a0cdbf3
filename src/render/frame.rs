//! Layout of the map picture and the change from table units to pixels.
//!
//! Table `y` grows away from the first side's edge, SVG `y` grows downward:
//! the flip happens here and nowhere else, so the first side's edge is at the
//! bottom of every picture.

use super::RenderError;
use crate::geometry::Point;
use crate::view::MapView;

/// Width of the whole picture, in pixels (and so of the PNG).
pub(crate) const CANVAS_WIDTH: f64 = 1400.0;
/// Room left of the table for the `y` tick labels.
pub(crate) const MARGIN_LEFT: f64 = 46.0;
const MARGIN_RIGHT: f64 = 24.0;
/// Band above the table for the title line.
pub(crate) const TITLE_BAND: f64 = 46.0;
/// Room under the table for the `x` tick labels.
pub(crate) const TICK_BAND: f64 = 24.0;
/// Height of one legend row.
pub(crate) const LEGEND_ROW: f64 = 26.0;
/// Tallest table drawing, so that a long thin table still fits a mail reader.
const MAX_TABLE_HEIGHT: f64 = 2000.0;

/// Where the table sits in the picture and how big a table unit is.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame {
    /// Pixels per table unit.
    pub scale: f64,
    /// Table size in table units.
    pub table_w: f64,
    pub table_h: f64,
    pub width: f64,
    pub height: f64,
    /// Turned half round ([`MapView::turned`]): the second side's edge at
    /// the bottom. Only points move, so text stays upright.
    pub turned: bool,
}

impl Frame {
    /// Lays out a table of the map's size, with no legend rows yet.
    pub fn new(map: &MapView) -> Result<Frame, RenderError> {
        let (w, h) = (map.width, map.height);
        if !(w.is_finite() && h.is_finite() && w > 0.0 && h > 0.0) {
            return Err(RenderError::InvalidMap(format!(
                "table size {w} x {h} is not a positive size"
            )));
        }
        let scale = ((CANVAS_WIDTH - MARGIN_LEFT - MARGIN_RIGHT) / w).min(MAX_TABLE_HEIGHT / h);
        Ok(Frame {
            scale,
            table_w: w,
            table_h: h,
            width: CANVAS_WIDTH,
            height: 0.0,
            turned: map.turned,
        }
        .with_rows(0))
    }

    /// The same frame with room for `rows` legend rows under the table.
    pub fn with_rows(self, rows: usize) -> Frame {
        let height = self.legend_top() + LEGEND_ROW * rows as f64 + 8.0;
        Frame {
            height: height.ceil(),
            ..self
        }
    }

    /// Pixel position of a table point.
    pub fn px(&self, p: Point) -> (f64, f64) {
        if self.turned {
            (
                MARGIN_LEFT + (self.table_w - p.x) * self.scale,
                TITLE_BAND + p.y * self.scale,
            )
        } else {
            (
                MARGIN_LEFT + p.x * self.scale,
                TITLE_BAND + (self.table_h - p.y) * self.scale,
            )
        }
    }

    /// A facing (degrees clockwise from table +y) as the picture shows it.
    pub fn facing(&self, degrees: f64) -> f64 {
        if self.turned {
            degrees + 180.0
        } else {
            degrees
        }
    }

    /// Pixel extent of the table drawing.
    pub fn table_px(&self) -> (f64, f64) {
        (self.table_w * self.scale, self.table_h * self.scale)
    }

    /// Top of the legend band.
    pub fn legend_top(&self) -> f64 {
        TITLE_BAND + self.table_h * self.scale + TICK_BAND
    }
}

/// A coordinate as markup text: one decimal is far below a pixel's worth of
/// error, and fixed formatting keeps output byte-identical between runs.
pub(crate) fn num(v: f64) -> String {
    let s = format!("{v:.1}");
    if s == "-0.0" { "0.0".to_string() } else { s }
}

/// Space-separated `x,y` pairs for `points=` and path data.
pub(crate) fn points(pts: &[(f64, f64)]) -> String {
    pts.iter()
        .map(|(x, y)| format!("{},{}", num(*x), num(*y)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Rejects a point that would poison the drawing.
pub(crate) fn finite(p: Point, what: &str) -> Result<Point, RenderError> {
    if p.is_finite() {
        Ok(p)
    } else {
        Err(RenderError::InvalidMap(format!(
            "{what} has a non-finite coordinate"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(w: f64, h: f64) -> MapView {
        MapView {
            title: String::new(),
            width: w,
            height: h,
            unit: "BW".into(),
            sides: vec![],
            terrain: vec![],
            units: vec![],
            markers: vec![],
            arrows: vec![],
            zones: vec![],
            deployment: vec![],
            turned: false,
            counter: None,
            letters: Vec::new(),
        }
    }

    #[test]
    fn first_side_edge_is_at_the_bottom() {
        let f = Frame::new(&map(10.0, 5.0)).unwrap();
        let (_, y0) = f.px(Point::new(0.0, 0.0));
        let (_, y5) = f.px(Point::new(0.0, 5.0));
        assert!(y0 > y5);
        assert_eq!(y5, TITLE_BAND);
    }

    #[test]
    fn rejects_empty_table() {
        assert!(Frame::new(&map(0.0, 5.0)).is_err());
        assert!(Frame::new(&map(f64::NAN, 5.0)).is_err());
    }

    #[test]
    fn numbers_are_fixed() {
        assert_eq!(num(-0.01), "0.0");
        assert_eq!(num(12.345), "12.3");
    }
}
