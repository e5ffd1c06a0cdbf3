//! C.6, E.7k: engineers blowing in a gate or wall. They must be in contact
//! with it, survive a round of melee with any defender within 3", then
//! roll 4, 5 or 6.

use super::charge::enemy_in_range;
use super::melee::{Attack, fight};
use super::shooting::nearest_on;
use super::state::{Breach, State};
use crate::dice::Dice;
use crate::event::Event;
use crate::geometry::{Base, Distance};

/// The score an engineers' breach needs.
pub const BREACH_ON: u32 = 4;
/// House rule: within this of a wall counts as in contact with it.
pub const CONTACT: f64 = 0.5;

/// Company `id` tries to breach `wall`.
pub fn blow(s: &mut State, id: &str, wall: &str, dice: &mut Dice, events: &mut Vec<Event>) {
    let (Some(c), Some(w)) = (s.company(id).cloned(), s.scenario.terrain(wall).cloned()) else {
        return;
    };
    let b = c.base(&s.scenario);
    let reach = Base::new(
        b.center,
        b.facing,
        Distance(b.width.get() + 2.0 * CONTACT),
        Distance(b.depth.get() + 2.0 * CONTACT),
    );
    if !w.feature().touches_bases(std::slice::from_ref(&reach)) {
        events.push(Event::public(format!(
            "{} is not in contact with {} and cannot blow a breach (C.6)",
            c.short(),
            w.name
        )));
        return;
    }
    if let Some(enemy) = enemy_in_range(s, &c, None) {
        events.push(Event::public(format!(
            "{} must survive a round of melee with {enemy} before blowing {} (C.6)",
            c.short(),
            w.name
        )));
        s.initiated.insert(id.to_string());
        fight(
            s,
            id,
            &enemy,
            Attack {
                charging: false,
                flank: false,
                sapping: true,
            },
            dice,
            events,
        );
        if !s.company(id).is_some_and(|c| c.on_table()) {
            return;
        }
    }
    let Some(now) = s.company(id).cloned() else {
        return;
    };
    let Some((_, at)) = nearest_on(&w.outline, &now.base(&s.scenario)) else {
        return;
    };
    let d = dice.d6(format!(
        "{}: engineers blow {}: breach on {BREACH_ON}-6 (C.6)",
        now.short(),
        w.name
    ));
    if d >= BREACH_ON {
        s.breaches.push(Breach {
            wall: w.id.clone(),
            at,
            cause: format!("engineers {}", now.id),
        });
        events.push(Event::public(format!(
            "{} blows a breach in {} (C.6)",
            now.short(),
            w.name
        )));
    } else {
        events.push(Event::public(format!(
            "{}'s charge fails to breach {}",
            now.short(),
            w.name
        )));
    }
}
