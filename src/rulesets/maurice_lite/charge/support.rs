//! The non-charging units of a charging force (chapter 8): they move by the
//! normal rules of chapter 6, but never backward and never into contact.
//! Chapter 6 adds that a charging force changes no formation and makes no
//! about-face.

use super::super::march::{self, Planned};
use super::super::orders::{Step, UnitMove};
use super::super::state::State;
use super::rule;
use crate::ruleset::Violation;
use crate::side::SideId;

/// Plan a supporting unit's move on the table as it stands (after the
/// charges).
pub fn plan(state: &State, side: &SideId, mv: &UnitMove) -> Result<Planned, Violation> {
    let id = mv.unit.as_str();
    let v = |msg: &str| Violation::new(&["moves", id], Some(id), rule::SUPPORT, msg);
    for step in &mv.steps {
        match step {
            Step::Back(_) => return Err(v("a supporting unit may not move backward")),
            Step::Wheel(w) if w.backward => {
                return Err(v("a supporting unit may not wheel backward"));
            }
            Step::Formation(_) => {
                return Err(v(
                    "no unit of a force activated to charge changes formation",
                ));
            }
            Step::AboutFace => {
                return Err(v("no unit of a force activated to charge may about-face"));
            }
            _ => {}
        }
    }
    march::plan(state, side, mv).map_err(|e| {
        if e.rule == march::rule::CONTACT {
            v("a supporting unit may not come into contact with the enemy")
        } else {
            e
        }
    })
}
