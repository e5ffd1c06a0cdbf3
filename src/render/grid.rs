//! The measuring aids: a light grid, edge ticks with coordinates (players
//! write positions into their orders) and a scale bar.

use super::frame::{Frame, MARGIN_LEFT, TITLE_BAND};
use super::shapes::{Label, Line, Rect, short};
use crate::geometry::Point;

/// Minor lines closer than this would turn the table grey.
const MIN_MINOR_PX: f64 = 16.0;
/// Labelled lines closer than this would make the ticks collide.
const MIN_MAJOR_PX: f64 = 70.0;

/// Grid lines, ticks and the scale bar.
#[derive(Debug)]
pub(crate) struct Grid {
    pub minor: Vec<Line>,
    pub major: Vec<Line>,
    pub ticks: Vec<Label>,
    pub bar: Vec<Rect>,
    pub bar_label: Label,
    /// Right end of the scale bar and its label, where the legend may start.
    pub bar_end: f64,
}

/// Round steps in this measure, up to at least `up_to`: base widths go by
/// doubling, inches by 3, 6 and then feet, anything else by 1-2-5.
fn steps(unit: &str, up_to: f64) -> Vec<f64> {
    let mut out = Vec::new();
    match unit.trim().to_ascii_lowercase().as_str() {
        "bw" => {
            let mut s = 1.0;
            while out.last().is_none_or(|l| *l < up_to) && out.len() < 64 {
                out.push(s);
                s *= 2.0;
            }
        }
        "in" | "inch" | "inches" => {
            out.extend([1.0, 3.0]);
            let mut s = 6.0;
            while out.last().is_none_or(|l| *l < up_to) && out.len() < 64 {
                out.push(s);
                s *= 2.0;
            }
        }
        _ => {
            let mut f = 1.0;
            while out.last().is_none_or(|l| *l < up_to) && out.len() < 64 {
                out.extend([f, 2.0 * f, 5.0 * f]);
                f *= 10.0;
            }
        }
    }
    out
}

/// Grid spacing for this frame: (minor, major), major a multiple of minor.
pub(crate) fn spacing(frame: &Frame, unit: &str) -> (f64, f64) {
    let all = steps(unit, frame.table_w.max(frame.table_h) * 4.0);
    let last = all.last().copied().unwrap_or(1.0);
    let minor = all
        .iter()
        .copied()
        .find(|s| s * frame.scale >= MIN_MINOR_PX)
        .unwrap_or(last);
    let major = all
        .iter()
        .copied()
        .filter(|s| *s >= minor && ((s / minor) - (s / minor).round()).abs() < 1e-9)
        .find(|s| s * frame.scale >= MIN_MAJOR_PX)
        .unwrap_or(minor);
    (minor, major)
}

/// Multiples of `step` strictly inside (0, end), and whether each is a major line.
fn marks(step: f64, major: f64, end: f64) -> Vec<(f64, bool)> {
    let mut out = Vec::new();
    let mut k = 1u32;
    loop {
        let v = f64::from(k) * step;
        if v >= end - 1e-9 || k > 10_000 {
            break;
        }
        let q = v / major;
        out.push((v, (q - q.round()).abs() < 1e-9));
        k += 1;
    }
    out
}

impl Grid {
    pub fn new(frame: &Frame, unit: &str) -> Grid {
        let (minor, major) = spacing(frame, unit);
        let (w, h) = (frame.table_w, frame.table_h);
        let mut grid = Grid {
            minor: Vec::new(),
            major: Vec::new(),
            ticks: Vec::new(),
            bar: Vec::new(),
            bar_label: Label::new((0.0, 0.0), "", "start"),
            bar_end: 0.0,
        };
        for (x, is_major) in marks(minor, major, w) {
            let line = Line::new(frame.px(Point::new(x, 0.0)), frame.px(Point::new(x, h)));
            if is_major {
                &mut grid.major
            } else {
                &mut grid.minor
            }
            .push(line);
        }
        for (y, is_major) in marks(minor, major, h) {
            let line = Line::new(frame.px(Point::new(0.0, y)), frame.px(Point::new(w, y)));
            if is_major {
                &mut grid.major
            } else {
                &mut grid.minor
            }
            .push(line);
        }
        let below = TITLE_BAND + h * frame.scale + 16.0;
        let mut x_ticks = vec![0.0];
        x_ticks.extend(marks(major, major, w).into_iter().map(|(v, _)| v));
        x_ticks.push(w);
        for x in x_ticks {
            let (px, _) = frame.px(Point::new(x, 0.0));
            grid.ticks.push(Label::new((px, below), short(x), "middle"));
        }
        let mut y_ticks = vec![0.0];
        y_ticks.extend(marks(major, major, h).into_iter().map(|(v, _)| v));
        y_ticks.push(h);
        for y in y_ticks {
            let (_, py) = frame.px(Point::new(0.0, y));
            grid.ticks
                .push(Label::new((MARGIN_LEFT - 6.0, py + 4.0), short(y), "end"));
        }

        // Scale bar: one major step, striped per minor step when that stays readable.
        let top = frame.legend_top() + 8.0;
        let segments = ((major / minor).round() as usize).clamp(1, 8);
        let seg_len = major * frame.scale / segments as f64;
        for i in 0..segments {
            let fill = if i % 2 == 0 { "#222222" } else { "#ffffff" };
            grid.bar.push(Rect::new(
                MARGIN_LEFT + seg_len * i as f64,
                top,
                seg_len,
                8.0,
                fill,
            ));
        }
        let end = MARGIN_LEFT + major * frame.scale;
        let unit = super::clean::line(unit);
        let text = format!("{} {unit}  (grid {} {unit})", short(major), short(minor));
        grid.bar_label = Label::new((end + 8.0, top + 8.0), text.clone(), "start");
        grid.bar_end = end + 8.0 + super::legend::text_width(&text, 12.0) + 24.0;
        grid
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::MapView;

    fn frame(w: f64, h: f64) -> Frame {
        let map = MapView {
            title: String::new(),
            width: w,
            height: h,
            unit: String::new(),
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
        };
        Frame::new(&map).unwrap()
    }

    #[test]
    fn base_widths_grid_every_one_with_major_four() {
        assert_eq!(spacing(&frame(48.0, 32.0), "BW"), (1.0, 4.0));
    }

    #[test]
    fn large_tables_thin_the_grid() {
        let (minor, major) = spacing(&frame(180.0, 120.0), "cm");
        assert_eq!((minor, major), (5.0, 10.0));
        let (minor, major) = spacing(&frame(200.0, 100.0), "BW");
        assert!(minor >= 2.0 && major >= 8.0, "{minor} {major}");
        assert_eq!(spacing(&frame(72.0, 48.0), "in"), (1.0, 6.0));
    }

    #[test]
    fn grid_lines_stay_inside_table() {
        let g = Grid::new(&frame(12.0, 8.0), "BW");
        // 11 inner verticals and 7 inner horizontals.
        assert_eq!(g.minor.len() + g.major.len(), 18);
    }
}
