//! What a side can do now, as data for the orders page (issue 32): the
//! units it may order, how far each may go, the formations and targets
//! the ruleset offers, and the other choices of the step as form fields.
//! A ruleset builds it ([`crate::ruleset::Ruleset::orders_plan`]) from what
//! the side already sees, never from what it may not; the page draws it
//! over the side's own map and writes the orders file with the ruleset's
//! writer script, so the page itself holds no rules engine.

use crate::geometry::{Point, Shape, TerrainFeature};
use serde::{Deserialize, Serialize};

/// A side's orders for one step, as the page offers them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    /// The units the side may order this step, in the order the orders
    /// file lists them.
    pub units: Vec<UnitPlan>,
    /// The choices of the step that belong to no one unit (cards, a
    /// command, standing reactions, "consult"), in the form beside the map.
    #[serde(default)]
    pub fields: Vec<Field>,
    /// Lines of "what you can do now" that no unit owns, in the ruleset's
    /// words (what shortens moves, what only the server checks).
    #[serde(default)]
    pub notes: Vec<String>,
    /// Anything else the ruleset's writer needs, as it likes it (the
    /// cards in hand, a force's rules): read only by its writer script.
    #[serde(default, skip_serializing_if = "serde_json::Value::is_null")]
    pub extra: serde_json::Value,
    /// The outlines of the ground that shortens or forbids some unit's
    /// move, once each: a unit's [`Reach::ground`] points into this list,
    /// so thirty units near one wood carry its outline once.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ground: Vec<Outline>,
}

/// A piece of ground as the page draws and checks it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outline {
    pub name: String,
    /// A closed outline; an open line when `line` is set.
    pub points: Vec<Point>,
    /// For a linear feature (a stream, a wall): how wide it is; a move
    /// that comes within half of it of the line crosses it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<f64>,
}

impl Outline {
    /// The outline of a piece of terrain as the shared geometry holds it.
    pub fn of(t: &TerrainFeature) -> Outline {
        let (points, line) = match &t.shape {
            Shape::Polygon { points } => (points.clone(), None),
            Shape::Polyline { points, width } => (points.clone(), Some(width.0.max(0.0))),
        };
        Outline {
            name: t.name.clone(),
            points,
            line,
        }
    }
}

/// The outlines a plan's units point at, each piece of terrain once (by
/// its id), in the order first asked for.
#[derive(Clone, Debug, Default)]
pub struct Outlines {
    ids: Vec<String>,
    pub list: Vec<Outline>,
}

impl Outlines {
    /// Where `t` stands in the list, adding it the first time.
    pub fn index(&mut self, t: &TerrainFeature) -> usize {
        if let Some(i) = self.ids.iter().position(|id| id == &t.id) {
            return i;
        }
        self.ids.push(t.id.clone());
        self.list.push(Outline::of(t));
        self.list.len() - 1
    }
}

/// What one piece of ground does to one unit's move, by the ruleset's
/// own rule.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ground {
    /// Its place in [`Plan::ground`].
    pub outline: usize,
    /// The farthest a move that enters it may go in all, counting each
    /// step inside it as `cost` steps; none when it may not enter at all.
    pub most: Option<f64>,
    /// What each step inside it counts as (2 where ground costs double).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub cost: f64,
    /// The rule, in the ruleset's words.
    pub why: String,
    /// The rule has an exception the page cannot judge (a road through a
    /// town, a bridge over a river, a breach in a wall): the page warns,
    /// and the server decides on receipt.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub soft: bool,
}

fn one() -> f64 {
    1.0
}

fn is_one(v: &f64) -> bool {
    (*v - 1.0).abs() < f64::EPSILON
}

impl Ground {
    /// Ground the unit may not enter.
    pub fn forbidden(outline: usize, why: impl Into<String>) -> Ground {
        Ground {
            outline,
            most: None,
            cost: 1.0,
            why: why.into(),
            soft: false,
        }
    }
    /// Ground a move that enters may go at most `most` in all.
    pub fn at_most(outline: usize, most: f64, why: impl Into<String>) -> Ground {
        Ground {
            most: Some(most),
            ..Ground::forbidden(outline, why)
        }
    }
    pub fn costing(mut self, cost: f64) -> Ground {
        self.cost = cost;
        self
    }
    pub fn soft(mut self, soft: bool) -> Ground {
        self.soft = soft;
        self
    }
}

/// One unit the side may order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UnitPlan {
    pub id: String,
    pub label: String,
    /// The point an order's `to:` names for this unit, where it stands now.
    pub at: Point,
    /// Facing in degrees, clockwise from table +y.
    pub facing: f64,
    pub formation: String,
    /// How far it may move this step; none when it may not move.
    pub reach: Option<Reach>,
    /// The formations it may take (its own first), empty when it has none
    /// to choose.
    #[serde(default)]
    pub formations: Vec<String>,
    /// What it may aim at, one list per kind of order (fire, charge).
    #[serde(default)]
    pub targets: Vec<TargetChoice>,
    /// Its other choices (a sequence, dice to roll, turning about).
    #[serde(default)]
    pub fields: Vec<Field>,
    /// What it can do now, in the ruleset's words.
    #[serde(default)]
    pub notes: Vec<String>,
}

/// How far a unit may move, in the table's measure.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reach {
    /// The move as it stands (keeping its facing and formation).
    pub full: f64,
    /// The move when it also turns (changes facing) or changes formation,
    /// where that costs: none when turning costs nothing.
    #[serde(default)]
    pub turned: Option<f64>,
    /// The move along a road the whole way, where a road lengthens it.
    #[serde(default)]
    pub road: Option<f64>,
    /// How the move may go.
    pub shape: MoveShape,
    /// What shortens the move (ground, friends, enemy near), in words,
    /// checked by the server on receipt.
    #[serde(default)]
    pub shortened_by: Vec<String>,
    /// The ground that shortens or forbids its move, drawn on the map and
    /// checked as drawn; the rest of `shortened_by` only the server checks.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ground: Vec<Ground>,
}

/// The geometry a drawn move must keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveShape {
    /// To any point within reach, facing any way.
    Free,
    /// Within 45 degrees of its facing.
    Forward45,
    /// Straight ahead or back, turning only in place.
    Straight,
}

/// One kind of order that names an enemy, with the enemies it may name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TargetChoice {
    /// The writer's name for it (`fire`, `charge`, `seize`).
    pub kind: String,
    /// How the page labels it ("Fire at", "Charge").
    pub label: String,
    pub options: Vec<Choice>,
}

/// A value a form may take, with its words.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Choice {
    pub value: String,
    pub label: String,
}

impl Choice {
    pub fn new(value: impl Into<String>, label: impl Into<String>) -> Choice {
        Choice {
            value: value.into(),
            label: label.into(),
        }
    }
}

/// A form field the page shows, for the writer to place in the file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Field {
    /// The writer's name for it.
    pub name: String,
    pub label: String,
    pub kind: FieldKind,
    /// Its value before the player touches it, as the form holds it
    /// (`"true"`, a choice's value, a number as text, values joined by
    /// commas for a `Many`).
    #[serde(default)]
    pub default: String,
    /// A line under it: what it does, what it costs.
    #[serde(default)]
    pub help: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum FieldKind {
    /// One of the choices.
    One {
        options: Vec<Choice>,
    },
    /// Any of the choices, in the order ticked.
    Many {
        options: Vec<Choice>,
    },
    Yes,
    /// A whole number between the bounds.
    Number {
        min: i64,
        max: i64,
    },
    /// A point on the table, picked on the map.
    Point,
}

impl Field {
    pub fn new(name: &str, label: &str, kind: FieldKind) -> Field {
        Field {
            name: name.into(),
            label: label.into(),
            kind,
            default: String::new(),
            help: String::new(),
        }
    }
    pub fn default_value(mut self, v: impl Into<String>) -> Field {
        self.default = v.into();
        self
    }
    pub fn help(mut self, h: impl Into<String>) -> Field {
        self.help = h.into();
        self
    }
}

/// A ruleset's plan and the script that turns what the player drew into
/// the `orders:` block of its orders file.
#[derive(Clone, Debug, PartialEq)]
pub struct PagePlan {
    pub plan: Plan,
    /// The writer: a classic script that calls
    /// `GalloperOrders.register(RULESET, {write, check})` (see
    /// `site/orders/write.js`), kept in the ruleset's own folder.
    pub writer: &'static str,
}

impl Plan {
    /// The orders page of this plan with the ruleset's writer
    /// (`include_str!("page.js")` in its folder).
    pub fn with_writer(self, writer: &'static str) -> PagePlan {
        PagePlan { plan: self, writer }
    }
}

/// The formations a unit's list offers ([`UnitPlan::formations`]): its
/// own first, then each other of `all` that `fits` it, in `all`'s order;
/// none when it may take no other, so that the page offers no choice.
pub fn own_first<F: PartialEq>(
    own: F,
    all: impl IntoIterator<Item = F>,
    fits: impl Fn(&F) -> bool,
) -> Vec<F> {
    let others: Vec<F> = all.into_iter().filter(|f| *f != own && fits(f)).collect();
    if others.is_empty() {
        return Vec::new();
    }
    std::iter::once(own).chain(others).collect()
}

#[cfg(test)]
mod tests {
    use super::own_first;

    #[test]
    fn a_units_own_formation_comes_first_and_a_lone_one_is_no_choice() {
        let all = ["line", "column", "square"];
        assert_eq!(
            own_first("column", all, |_| true),
            vec!["column", "line", "square"]
        );
        assert_eq!(
            own_first("line", all, |f| *f != "square"),
            vec!["line", "column"]
        );
        assert!(own_first("line", all, |f| *f == "line").is_empty());
    }
}
