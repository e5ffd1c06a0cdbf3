//! Hand to hand: figures in base-to-base contact, plus a supporting second
//! rank of close-order regulars; casualties from the melee factor times the
//! multiplier; attacks on routers unopposed; losers pushed back 2 cm and
//! then tested; winners pursue routers unless defending an obstacle.

use super::fire::hit;
use super::morale::{Cause, test};
use super::movement::{away, travel};
use super::state::{State, Status, Unit};
use super::step::Step;
use super::tables::{PUSH_BACK, multiplier};
use super::words::Said;
use crate::event::{Loss, Modifier};
use crate::geometry::{Angle, Base, Distance, Point, TerrainFeature, TerrainTag};

/// Figures that fight: those in contact (the front, as far as the enemy's
/// front reaches), and for close-order regulars a second rank behind them.
pub fn fighting(u: &Unit, enemy: &Unit) -> u32 {
    let (front, ranks) = u.formation.shape(u.figures());
    let (efront, _) = enemy.formation.shape(enemy.figures());
    let contact = front.min(efront + 2);
    let support = if u.troop.close_order_regular() && ranks >= 2 {
        contact.min(u.figures().saturating_sub(front))
    } else {
        0
    };
    contact + support
}

/// House rule: an obstacle runs along a unit's front when it lies within
/// this many cm of the front edge...
const ALONG: f64 = 1.0;
/// ...over at least this share of the front's length (a wall crossing the
/// front end-on is not defended).
const ALONG_SHARE: f64 = 0.5;
/// Points of the front edge tried.
const FRONT_SAMPLES: usize = 10;

/// Whether `t` is an obstacle a unit may defend: a wall, fence, palisade,
/// abattis or ditch.
fn obstacle(t: &TerrainFeature) -> bool {
    t.has(TerrainTag::Wall) || t.has(TerrainTag::Obstruction)
}

/// Whether `u` defends an obstacle or fortification (the defender's
/// bonus, and no pursuit from it): it stands in buildings or a fort, or in
/// an obstacle, or an obstacle runs along its front. Troops lining a wall
/// stand behind it, their centre clear of it.
pub fn defending(s: &State, u: &Unit) -> bool {
    s.ground(u.at)
        .any(|t| t.has(TerrainTag::Town) || obstacle(t))
        || s.scenario
            .terrain
            .iter()
            .filter(|t| obstacle(t))
            .any(|t| along_front(t, u))
}

/// Whether obstacle `t` lies along `u`'s front edge: within [`ALONG`] of
/// it over [`ALONG_SHARE`] of its length.
fn along_front(t: &TerrainFeature, u: &Unit) -> bool {
    let base = u.base();
    let facing = Angle(u.facing);
    let near = |at: Point, width: f64| {
        let probe = Base::new(at, facing, Distance(width), Distance(2.0 * ALONG));
        t.touches_bases(&[probe])
    };
    // One probe over the whole front first: most features are nowhere near.
    if !near(base.front_center(), base.width.get() + 2.0 * ALONG) {
        return false;
    }
    let (left, right) = base.front_edge();
    let touched = (0..FRONT_SAMPLES)
        .map(|i| left.lerp(right, (i as f64 + 0.5) / FRONT_SAMPLES as f64))
        .filter(|p| near(*p, 2.0 * ALONG))
        .count();
    touched as f64 >= ALONG_SHARE * FRONT_SAMPLES as f64
}

/// House rule: the modifiers the source's cut-off list would give.
pub fn modifiers(st: &Step, u: &Unit, enemy: &Unit, charging: bool) -> Vec<Modifier> {
    let mut m = Vec::new();
    let mut add = |why: &str, value: i32| {
        m.push(Modifier {
            why: why.into(),
            value,
        })
    };
    if charging {
        add("charging", 1);
    } else if defending(&st.s, u) {
        add("defending an obstacle", 1);
    }
    if u.under_half() {
        add("under half strength", -1);
    }
    if u.troop.open_order() && !enemy.troop.open_order() && st.s.in_open(u) {
        add("open order against close order in the open", -1);
    }
    m
}

fn inflict(st: &mut Step, u: &Unit, enemy: &Unit, charging: bool) -> (u32, Vec<u32>, Vec<usize>) {
    let mods = modifiers(st, u, enemy, charging);
    let r = st.average(
        &[&u.id, &enemy.id],
        &format!(
            "{} hand to hand against {}: average die, modified by {:+}",
            u.name,
            enemy.name,
            mods.iter().map(|m| m.value).sum::<i32>()
        ),
    );
    let modified = r.value as i32 + mods.iter().map(|m| m.value).sum::<i32>();
    let raw = fighting(u, enemy) as f64 * u.troop.rating().melee * multiplier(modified);
    let (men, fr) = st.whole_men(raw, &[&u.id, &enemy.id]);
    let rolls = std::iter::once(r.value)
        .chain(fr.iter().map(|x| x.value))
        .collect();
    let idx = std::iter::once(r.index)
        .chain(fr.iter().map(|x| x.index))
        .collect();
    (men, rolls, idx)
}

/// One hand-to-hand combat of `attacker` (charging) and `defender`.
pub fn fight(st: &mut Step, attacker: &str, defender: &str) {
    let (Some(a), Some(d)) = (st.s.unit(attacker).cloned(), st.s.unit(defender).cloned()) else {
        return;
    };
    if !a.live() || !d.live() {
        return;
    }
    // In contact, each finds the other, seen before or not.
    super::observe::touch(st, attacker, defender);
    super::observe::touch(st, defender, attacker);
    let (to_d, mut rolls, mut idx) = inflict(st, &a, &d, true);
    // All attacks on routers are unopposed.
    let to_a = if d.status == Status::Routing {
        0
    } else {
        let (m, r, i) = inflict(st, &d, &a, false);
        rolls.extend(r);
        idx.extend(i);
        m
    };
    // House rule: a tie goes to the defender, who stood.
    let (winner, loser) = if to_d > to_a {
        (attacker, defender)
    } else {
        (defender, attacker)
    };
    let mut f = st.facts(attacker, Some(defender));
    f.losses = vec![
        Loss {
            unit: attacker.into(),
            amount: to_a,
            of: "man".into(),
        },
        Loss {
            unit: defender.into(),
            amount: to_d,
            of: "man".into(),
        },
    ];
    // The totals the rules compare: the men each side struck down.
    f.attacker_total = Some(i64::from(to_d));
    f.defender_total = Some(i64::from(to_a));
    f.rolls = rolls;
    let wname =
        st.s.unit(winner)
            .map(|u| u.name.clone())
            .unwrap_or_default();
    f.result = Some(format!("{wname} wins"));
    st.say(Said::Melee, f, idx);
    hit(st, defender, to_d);
    hit(st, attacker, to_a);
    if st.s.unit(loser).is_none_or(|u| !u.live()) {
        return;
    }
    // Losers are pushed back 2 cm whatever the test, then test; told
    // before the step back, while both sides still know where it stands.
    let mut f = st.facts(loser, None);
    f.distance = Some(PUSH_BACK);
    st.say(Said::PushBack, f, Vec::new());
    away(st, loser, Some(winner), PUSH_BACK);
    let routed = if st
        .s
        .unit(loser)
        .is_some_and(|u| u.status == Status::Routing)
    {
        true
    } else {
        !test(st, loser, Cause::LostMelee, Some(winner))
    };
    let w = st.s.unit(winner).cloned();
    if routed
        && let Some(w) = w
        && w.live()
        && !(winner == defender && defending(&st.s, &w))
        && let Some(x) = st.s.unit_mut(winner)
    {
        x.status = Status::Pursuing;
        x.from = Some(loser.into());
    }
}

/// A first pursuit: `unit` follows the routing `router` a normal move.
pub fn follow(st: &mut Step, unit: &str, router: &str) {
    let (Some(u), Some(r)) = (st.s.unit(unit).cloned(), st.s.unit(router).cloned()) else {
        return;
    };
    if !u.live() || u.status == Status::Routing {
        return;
    }
    if let Some(x) = st.s.unit_mut(unit) {
        x.status = Status::Pursuing;
        x.from = Some(router.into());
    }
    if !r.live() {
        return;
    }
    let went = travel(st, unit, r.at, u.mv(), Some(router));
    let mut f = st.facts(unit, Some(router));
    f.distance = Some(went.moved);
    f.to = Some(went.to);
    st.say(Said::Pursue, f, Vec::new());
    let caught =
        st.s.unit(unit)
            .zip(st.s.unit(router))
            .is_some_and(|(a, b)| b.live() && st.s.gap(a, b) <= 0.1);
    if caught {
        fight(st, unit, router);
    }
}
