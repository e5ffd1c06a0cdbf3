//! What is learnt about generals as the game goes on (B.6, E.2, E.5).

use super::scenario::Personality;
use super::state::State;
use super::words::{self, What};
use crate::dice::Dice;
use crate::event::{Event, Facts};

/// E.2: a general's personality, rolled (and announced) the first time it
/// matters. Player generals start bold, so they never roll.
pub fn personality(
    s: &mut State,
    general: &str,
    dice: &mut Dice,
    events: &mut Vec<Event>,
) -> Option<Personality> {
    let g = s.generals.iter_mut().find(|g| g.id == general)?;
    if let Some(p) = g.personality {
        return Some(p);
    }
    let d = dice.d6(format!(
        "General {}'s personality: 6 rash, 5 indecisive, 3-4 bold, 1-2 cautious (E.2)",
        g.name
    ));
    let di = dice.last_index();
    let p = Personality::from_die(d);
    g.personality = Some(p);
    let facts = Facts {
        target: Some(words::general(g)),
        rolls: vec![d],
        result: Some(p.label().to_string()),
        side: Some(g.side.clone()),
        ..Facts::default()
    };
    events.push(words::event(What::Personality, facts).with_dice(di));
    Some(p)
}

/// B.6: +1 to a company's melee value when a bold or rash general has
/// attached himself to it. Returns the bonus and its note.
pub fn melee_bonus(
    s: &mut State,
    company: &str,
    dice: &mut Dice,
    events: &mut Vec<Event>,
) -> Option<String> {
    let g = s.attached_general(company)?;
    let (id, name) = (g.id.clone(), g.name.clone());
    match personality(s, &id, dice, events)? {
        p @ (Personality::Bold | Personality::Rash) => {
            Some(format!("+1 {} General {name} with it", p.label()))
        }
        Personality::Indecisive | Personality::Cautious => None,
    }
}
