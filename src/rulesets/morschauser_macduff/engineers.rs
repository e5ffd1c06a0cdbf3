//! C.6, E.7k: engineers blowing in a gate or wall (they must be in contact
//! with it, survive a round of melee with any defender within 3", then roll
//! 4, 5 or 6), and the one engineering task defined here, demolishing a
//! bridge.

use super::charge::enemy_in_range;
use super::melee::{Attack, fight};
use super::scenario::{Terrain, TerrainKind};
use super::shooting::nearest_on;
use super::state::{Breach, State};
use super::units::TroopType;
use crate::dice::Dice;
use crate::event::Event;
use crate::geometry::{Base, Distance, base_distance};

/// The score an engineers' breach needs.
pub const BREACH_ON: u32 = 4;
/// House rule: within this of a wall counts as in contact with it.
pub const CONTACT: f64 = 0.5;

/// Whether a base is within `CONTACT` of a piece of terrain.
fn in_contact(b: &Base, t: &Terrain) -> bool {
    let reach = Base::new(
        b.center,
        b.facing,
        Distance(b.width.get() + 2.0 * CONTACT),
        Distance(b.depth.get() + 2.0 * CONTACT),
    );
    t.feature().touches_bases(std::slice::from_ref(&reach))
}

/// Company `id` tries to breach `wall`.
pub fn blow(s: &mut State, id: &str, wall: &str, dice: &mut Dice, events: &mut Vec<Event>) {
    let (Some(c), Some(w)) = (s.company(id).cloned(), s.scenario.terrain(wall).cloned()) else {
        return;
    };
    if !in_contact(&c.base(&s.scenario), &w) {
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
    let from = dice.log().len();
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
            "{} charge fails to breach {}",
            crate::words::possessive(&now.short()),
            w.name
        )));
    }
    super::cite(events, dice, from);
}

/// House rule (E.7k): the task needs a friendly wagon within this of the
/// engineers.
pub const SUPPLIES: f64 = 3.0;
/// House rule (E.7k): a demolition succeeds on this or more.
pub const DEMOLISH_ON: u32 = 4;

/// E.7k: company `id` demolishes `bridge`: in contact with it, a friendly
/// wagon within 3", no enemy within 3"; then 4-6 brings it down.
pub fn demolish(s: &mut State, id: &str, bridge: &str, dice: &mut Dice, events: &mut Vec<Event>) {
    let (Some(c), Some(t)) = (s.company(id).cloned(), s.scenario.terrain(bridge).cloned()) else {
        events.push(Event::public(format!(
            "{id} finds no bridge {bridge} standing to demolish"
        )));
        return;
    };
    if !matches!(t.kind, TerrainKind::Bridge) {
        return;
    }
    let b = c.base(&s.scenario);
    let refuse = |why: String, events: &mut Vec<Event>| {
        events.push(Event::public(format!(
            "{} cannot demolish {}: {why} (E.7k)",
            c.short(),
            t.name
        )));
    };
    if !in_contact(&b, &t) {
        return refuse("it is not in contact with the bridge".into(), events);
    }
    let supplied = s.live(&c.side).any(|w| {
        w.profile.troop == TroopType::Wagons
            && base_distance(&b, &w.base(&s.scenario)).get() <= SUPPLIES + 1e-9
    });
    if !supplied {
        return refuse("no wagon of supplies within 3 in".into(), events);
    }
    if let Some(e) = enemy_in_range(s, &c, None) {
        return refuse(format!("{e} is within 3 in"), events);
    }
    let from = dice.log().len();
    let d = dice.d6(format!(
        "{}: engineers demolish {}: down on {DEMOLISH_ON}-6 (E.7k)",
        c.short(),
        t.name
    ));
    if d >= DEMOLISH_ON {
        s.scenario.terrain.retain(|x| x.id != t.id);
        s.demolished.insert(t.id.clone());
        events.push(Event::public(format!(
            "{} brings down {} (E.7k)",
            c.short(),
            t.name
        )));
    } else {
        events.push(Event::public(format!(
            "{} works at {} but it still stands",
            c.short(),
            t.name
        )));
    }
    super::cite(events, dice, from);
}
