//! Drawing primitives as the SVG template takes them: every number already
//! formatted, every string still raw (the template escapes it).

/// A straight line.
#[derive(Clone, Debug)]
pub(crate) struct Line {
    pub x1: String,
    pub y1: String,
    pub x2: String,
    pub y2: String,
}

impl Line {
    pub fn new(a: (f64, f64), b: (f64, f64)) -> Line {
        use super::frame::num;
        Line {
            x1: num(a.0),
            y1: num(a.1),
            x2: num(b.0),
            y2: num(b.1),
        }
    }
}

/// A piece of text at a point.
#[derive(Clone, Debug)]
pub(crate) struct Label {
    pub x: String,
    pub y: String,
    pub text: String,
    /// `start`, `middle` or `end`.
    pub anchor: &'static str,
}

impl Label {
    pub fn new(at: (f64, f64), text: impl Into<String>, anchor: &'static str) -> Label {
        use super::frame::num;
        Label {
            x: num(at.0),
            y: num(at.1),
            text: text.into(),
            anchor,
        }
    }
}

/// An axis-aligned rectangle.
#[derive(Clone, Debug)]
pub(crate) struct Rect {
    pub x: String,
    pub y: String,
    pub w: String,
    pub h: String,
    pub fill: String,
}

impl Rect {
    pub fn new(x: f64, y: f64, w: f64, h: f64, fill: impl Into<String>) -> Rect {
        use super::frame::num;
        Rect {
            x: num(x),
            y: num(y),
            w: num(w),
            h: num(h),
            fill: fill.into(),
        }
    }
}

/// A circle.
#[derive(Clone, Debug)]
pub(crate) struct Circle {
    pub cx: String,
    pub cy: String,
    pub r: String,
}

impl Circle {
    pub fn new(c: (f64, f64), r: f64) -> Circle {
        use super::frame::num;
        Circle {
            cx: num(c.0),
            cy: num(c.1),
            r: num(r),
        }
    }
}

/// A number for a tick or scale label: whole numbers without decimals.
pub(crate) fn short(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        format!("{v:.1}")
    }
}
