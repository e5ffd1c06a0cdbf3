//! Winning and losing (section D).

use super::state::State;
use crate::ruleset::Outcome;
use crate::side::SideId;

/// Whether `side` holds objective `o`: one of its companies within the
/// radius and no enemy company within it.
fn holds(s: &State, side: &SideId, o: &super::scenario::Objective) -> bool {
    let near = |c: &super::state::Company| c.base(&s.scenario).center.distance_to(o.at) <= o.radius;
    s.live(side).any(near) && !s.enemies(side).any(near)
}

/// D: at the time limit, a side that holds all of its objectives while the
/// other does not wins; otherwise the game is drawn. House rule: the source
/// leaves objectives to the scenario, and says nothing of a tie.
pub fn at_time_limit(s: &State) -> Outcome {
    let done = |side: &SideId| {
        let mine: Vec<_> = s
            .scenario
            .objectives
            .iter()
            .filter(|o| &o.side == side)
            .collect();
        !mine.is_empty() && mine.iter().all(|o| holds(s, side, o))
    };
    let sides: Vec<SideId> = s.scenario.sides.iter().map(|x| x.id.clone()).collect();
    let winners: Vec<&SideId> = sides.iter().filter(|x| done(x)).collect();
    match winners.as_slice() {
        [w] => Outcome {
            winner: Some((*w).clone()),
            reason: format!("{} holds its objectives", s.side_name(w)),
        },
        _ => Outcome {
            winner: None,
            reason: "neither side alone holds its objectives".into(),
        },
    }
}

/// D (optional rule): the first side to lose half its companies loses.
pub fn by_losses(s: &State) -> Option<Outcome> {
    if !s.scenario.options.half_losses_lose {
        return None;
    }
    s.scenario.sides.iter().find_map(|x| {
        let lost = s.losses.get(&x.id).copied().unwrap_or(0) as usize;
        (lost * 2 >= x.companies.len()).then(|| Outcome {
            winner: Some(s.other(&x.id)),
            reason: format!(
                "{} lost half {} companies and must retreat",
                crate::words::subject_verb(&x.name, "has", "have"),
                if crate::words::is_plural(&x.name) {
                    "their"
                } else {
                    "its"
                }
            ),
        })
    })
}
