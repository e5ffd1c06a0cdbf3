//! What is learnt about generals as the game goes on (B.6, E.2, E.5).

use super::scenario::Personality;
use super::state::State;
use crate::dice::Dice;
use crate::event::Event;

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
    let from = dice.log().len();
    let d = dice.d6(format!(
        "General {}'s personality: 6 rash, 5 indecisive, 3-4 bold, 1-2 cautious (E.2)",
        g.name
    ));
    let p = Personality::from_die(d);
    g.personality = Some(p);
    events.push(Event::public(format!(
        "General {} proves to be {} (E.2)",
        g.name,
        p.label()
    )));
    super::cite(events, dice, from);
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
