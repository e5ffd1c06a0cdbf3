//! The legend under the map: sides with their colours, then a key to every
//! symbol, so that the PNG explains itself.

use super::arrows::{self, ArrowShape, FIRE_RED};
use super::frame::{CANVAS_WIDTH, Frame, LEGEND_ROW, MARGIN_LEFT, num};
use super::shapes::{Circle, Label, Line, Rect};
use super::units::{Counter, side_rgb};
use crate::view::{ArrowKind, MapView};

/// A side's sample base.
#[derive(Debug)]
pub(crate) struct Swatch {
    pub rect: Rect,
    pub outline: String,
    pub front: Line,
    pub front_colour: String,
}

/// Everything in the legend band.
#[derive(Debug)]
pub(crate) struct Legend {
    pub swatches: Vec<Swatch>,
    pub texts: Vec<Label>,
    pub counter: Option<Counter>,
    pub smoke: Vec<Circle>,
    pub star: String,
    pub ring: Circle,
    pub dot: Circle,
    pub arrows: Vec<ArrowShape>,
    /// Rows used, for the picture's height.
    pub rows: usize,
}

/// Rough width of a text in DejaVu Sans, for laying out the legend.
pub(crate) fn text_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * size * 0.62
}

/// Left-to-right placement that wraps onto new rows.
struct Flow {
    x: f64,
    row: usize,
    top: f64,
}

impl Flow {
    /// Reserves `width` pixels; returns the left edge and the row's middle.
    fn take(&mut self, width: f64) -> (f64, f64) {
        if self.x + width > CANVAS_WIDTH - 20.0 && self.x > MARGIN_LEFT {
            self.new_row();
        }
        let at = (self.x, self.top + 12.0 + LEGEND_ROW * self.row as f64);
        self.x += width + 22.0;
        at
    }
    fn new_row(&mut self) {
        self.row += 1;
        self.x = MARGIN_LEFT;
    }
}

impl Legend {
    /// Lays out the legend below the table, starting after the scale bar;
    /// `numbered` (each "number, whole label") explains the labels drawn as
    /// numbers at a busy place, on rows of their own at the end.
    pub fn new(frame: &Frame, map: &MapView, start_x: f64, numbered: &[String]) -> Legend {
        let mut flow = Flow {
            x: start_x,
            row: 0,
            top: frame.legend_top(),
        };
        let mut texts = Vec::new();
        let mut swatches = Vec::new();
        for (i, side) in map.sides.iter().enumerate() {
            let name = super::clean::line(&side.name);
            let (x, y) = flow.take(30.0 + text_width(&name, 13.0));
            let rgb = side_rgb(map, i);
            swatches.push(Swatch {
                rect: Rect::new(x, y - 7.0, 24.0, 12.0, rgb.hex()),
                outline: rgb.darken(0.55).hex(),
                front: Line::new((x, y - 7.0), (x + 24.0, y - 7.0)),
                front_colour: rgb.darken(0.3).hex(),
            });
            texts.push(Label::new((x + 30.0, y + 5.0), name, "start"));
        }

        flow.new_row();
        let key = super::units::letter_key(map);
        let (x, y) = flow.take(text_width(&key, 12.0));
        texts.push(Label::new((x, y + 4.0), key, "start"));

        // The counter in the ruleset's words, where it draws one.
        let counter = map.counter.as_deref().map(|what| {
            let what = super::clean::line(what);
            let (x, y) = flow.take(22.0 + text_width(&what, 12.0));
            texts.push(Label::new((x + 22.0, y + 4.0), what, "start"));
            Counter {
                disc: Circle::new((x + 8.0, y), 8.5),
                text: Label::new((x + 8.0, y + 4.0), "2", "middle"),
            }
        });

        let (x, y) = flow.take(34.0 + text_width("smoke", 12.0));
        let smoke = [
            (6.0, 0.0, 6.0),
            (15.0, -3.0, 5.0),
            (16.0, 4.0, 5.0),
            (24.0, 0.0, 4.5),
        ]
        .iter()
        .map(|(dx, dy, r)| Circle::new((x + dx, y + dy), *r))
        .collect();
        texts.push(Label::new((x + 34.0, y + 4.0), "smoke", "start"));

        let (x, y) = flow.take(20.0 + text_width("commander", 12.0));
        let star = super::markers::star((x + 8.0, y), 9.0, 3.8);
        texts.push(Label::new((x + 20.0, y + 4.0), "commander", "start"));

        let (x, y) = flow.take(22.0 + text_width("objective", 12.0));
        let ring = Circle::new((x + 8.0, y), 7.5);
        let dot = Circle::new((x + 8.0, y), 3.0);
        texts.push(Label::new((x + 22.0, y + 4.0), "objective", "start"));

        let mut samples = Vec::new();
        let grey = "#333333".to_string();
        for (kind, name) in [
            (ArrowKind::Move, "move"),
            (ArrowKind::Fire, "fire"),
            (ArrowKind::Charge, "charge"),
            (ArrowKind::FallBack, "fall back"),
            (ArrowKind::Engaged, "engaged"),
        ] {
            let (x, y) = flow.take(50.0 + text_width(name, 12.0));
            let (width, dash, head_len, half) = arrows::style(kind);
            let (d, head) =
                arrows::geometry(&[(x, y), (x + 42.0, y)], head_len.min(16.0), half.min(8.0));
            let colour = if kind == ArrowKind::Fire {
                FIRE_RED.to_string()
            } else {
                grey.clone()
            };
            samples.push(ArrowShape {
                d,
                colour,
                width: num(width),
                halo_width: num(width + 3.0),
                dash,
                head,
            });
            texts.push(Label::new((x + 50.0, y + 4.0), name, "start"));
        }

        if !numbered.is_empty() {
            flow.new_row();
            let head = "Labels by number:";
            let (x, y) = flow.take(text_width(head, 12.0));
            texts.push(Label::new((x, y + 4.0), head, "start"));
            for n in numbered {
                let n = super::clean::line(n);
                let (x, y) = flow.take(text_width(&n, 12.0));
                texts.push(Label::new((x, y + 4.0), n, "start"));
            }
        }

        Legend {
            swatches,
            texts,
            counter,
            smoke,
            star,
            ring,
            dot,
            arrows: samples,
            rows: flow.row + 1,
        }
    }
}
