//! Why a unit may not fire at an enemy, as data: the fire phases, the
//! checks of orders and the report's options all ask here, so that each
//! says the same numbers (distance and range) and names the same feature
//! or unit in the way.

use super::fire::{MUSKET, over, range_modifier, reciprocal};
use super::formation::Formation;
use super::sight;
use super::state::{CONTACT, State, Unit};
use crate::geometry::contact::segment_crosses;
use crate::geometry::{Frame, Relation, bases_distance, in_common_arc, in_front_arc};

/// What stops `f` firing at `t`, the first that does in the order the fire
/// rules ask: the firer, the target's melee, range, arc, then the line of
/// fire (terrain first, then units).
#[derive(Clone, Debug, PartialEq)]
pub enum Bar {
    /// Cavalry, or any troop without a fire mod.
    DoesNotFire,
    Limbered,
    /// The target remains in melee.
    Locked,
    /// Edge to edge `distance` cm, beyond `range` cm (`band` names it).
    Range {
        distance: f64,
        range: f64,
        band: &'static str,
    },
    /// Not within 45 degrees of the front face; `lies` says where it is.
    Arc {
        lies: &'static str,
    },
    /// A terrain feature blocks the line of fire.
    Sight {
        feature: String,
    },
    /// A unit stands in the line of fire and may not be fired over.
    InTheWay {
        unit: String,
    },
}

impl Bar {
    /// The reason in words, the target named by the caller.
    pub fn reason(&self) -> String {
        self.reason_as(&|x: &str| x.to_string())
    }

    /// The reason with the feature or unit in the way written by `name`
    /// (an orders template quotes what a scenario named).
    pub fn reason_as(&self, name: &dyn Fn(&str) -> String) -> String {
        match self {
            Bar::DoesNotFire => "this unit does not fire".into(),
            Bar::Limbered => "limbered artillery cannot fire".into(),
            Bar::Locked => "units that remain in contact may not be fired upon".into(),
            Bar::Range {
                distance,
                range,
                band,
            } => format!(
                "out of range: {distance:.1} cm, {band} is {range:.0} cm ({:.1} cm too far)",
                distance - range
            ),
            Bar::Arc { lies } => {
                format!("out of arc: not within 45 degrees of its front face ({lies})")
            }
            Bar::Sight { feature } => {
                format!("sight blocked: {} blocks the line of fire", name(feature))
            }
            Bar::InTheWay { unit } => format!(
                "line of fire blocked: {} is in the line of fire (only artillery higher than it fires over it, and the target may reply)",
                name(unit)
            ),
        }
    }

    /// The rule the reason comes from, for refusals.
    pub fn rule(&self) -> &'static str {
        match self {
            Bar::Locked => "Melee",
            _ => "Fire combat",
        }
    }

    /// The refusal's words: the rule, the target and the reason.
    pub fn say(&self, target: &str) -> String {
        match self {
            Bar::DoesNotFire | Bar::Limbered => format!("{}: {}", self.rule(), self.reason()),
            _ => format!("{}: at {target}: {}", self.rule(), self.reason()),
        }
    }
}

/// The farthest `f` fires (cm) and what that range is called.
pub fn longest(f: &Unit) -> (f64, &'static str) {
    match f.troop.battery_range() {
        Some(r) => (3.0 * r, "triple range (the longest)"),
        None => (MUSKET, "musket range"),
    }
}

/// The range band `d` cm falls in for `f`, with its reach (cm); none when
/// out of range. The band follows [`range_modifier`], which the fire uses.
pub fn band(f: &Unit, d: f64) -> Option<(&'static str, f64)> {
    let m = range_modifier(f, d)?;
    Some(match (f.troop.battery_range(), m) {
        (None, _) => ("musket range", MUSKET),
        (Some(r), None) => ("normal range", r),
        (Some(r), Some(m)) if m.value == -2 => ("double range", 2.0 * r),
        (Some(r), Some(_)) => ("triple range", 3.0 * r),
    })
}

/// Where `t` lies from `f`'s front, for an arc refusal.
fn lies(frame: &Frame, t: &[crate::geometry::Base]) -> &'static str {
    if !in_front_arc(frame, t, 90.0) {
        let c = t
            .iter()
            .map(|b| b.center)
            .fold(crate::geometry::Point::new(0.0, 0.0), |a, p| a + p);
        let n = t.len().max(1) as f64;
        return match crate::geometry::relation_of_point(frame, c.scale(1.0 / n)) {
            Relation::DirectlyBehind => "it is behind the unit",
            _ => "it is to the unit's flank",
        };
    }
    "it is ahead, but wide of the arc"
}

/// Why `f` may not fire at `t`, if it may not.
pub fn bar(s: &State, f: &Unit, t: &Unit, engaged: &[String]) -> Option<Bar> {
    if f.mods().fire.is_none() {
        return Some(Bar::DoesNotFire);
    }
    if f.formation == Formation::Limbered {
        return Some(Bar::Limbered);
    }
    if engaged.contains(&t.id) {
        return Some(Bar::Locked);
    }
    let fb = s.bases(f);
    let tb = s.bases(t);
    let d = bases_distance(&fb, &tb).get();
    if range_modifier(f, d).is_none() {
        let (range, band) = longest(f);
        return Some(Bar::Range {
            distance: d,
            range,
            band,
        });
    }
    let frame = Frame::of(&fb);
    let front_contact = d <= CONTACT && in_front_arc(&frame, &tb, 0.0);
    if !(in_common_arc(&frame, &tb) || front_contact) {
        return Some(Bar::Arc {
            lies: lies(&frame, &tb),
        });
    }
    // Line of fire: from the firer's front to the target's nearest base.
    let from = frame.anchor;
    let to = tb
        .iter()
        .map(|b| b.center)
        .min_by(|a, b| {
            a.distance_to(from)
                .get()
                .total_cmp(&b.distance_to(from).get())
        })
        .unwrap_or(t.at);
    if let Some(x) = sight::blocker(s, from, to) {
        return Some(Bar::Sight {
            feature: x.name.clone(),
        });
    }
    for o in s
        .along_ids(from, to, 0.0)
        .into_iter()
        .map(|i| &s.units[i])
        .filter(|o| o.live() && o.id != f.id && o.id != t.id)
        .filter(|o| o.at.distance_to_segment(from, to).get() <= s.reach(o))
    {
        let ob = s.bases(o);
        if ob.iter().any(|b| segment_crosses(from, to, b))
            && !over(s, f, t, o)
            && !reciprocal(s, f, t, o)
        {
            return Some(Bar::InTheWay {
                unit: o.name.clone(),
            });
        }
    }
    None
}
