//! Melee, Musketry and Bombardment Attacks: both units roll a die, add
//! their combat value and modifiers, and the totals' ratio decides:
//! repulsed, held, a disorder on an even die, a disorder and a critical
//! roll, two disorders and a critical roll. Damage dice, the critical
//! event table and recoils are here too.

use super::ground::{self, Cover};
use super::movement::travel;
use super::scenario::Arm;
use super::sight;
use super::state::{Formation, State, Trace, TraceKind, pair};
use super::words::{Said, event};
use crate::dice::Dice;
use crate::event::{Event, Facts, Modifier};
use crate::geometry::limit::{beyond, from, within};
use crate::geometry::{Relation, relation_of_point};

/// The result bands, from the attacker's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Band {
    /// Defender more than double the attacker (melee: attacker disordered
    /// and recoils 1 S; shooting: missed).
    Repulsed,
    /// Defender at least the attacker (melee: attacker disordered if the
    /// defender's die is even; shooting: missed).
    Held,
    /// Attacker higher, not more than double: defender disordered if the
    /// attacker's die is even.
    Edge,
    /// More than double, not more than triple: 1 disorder and a critical roll.
    Double,
    /// More than triple: 2 disorders and a critical roll.
    Triple,
}

impl Band {
    pub fn word(self) -> &'static str {
        match self {
            Band::Repulsed => "more than double for the defender",
            Band::Held => "the defender holds",
            Band::Edge => "the attacker is higher",
            Band::Double => "more than double",
            Band::Triple => "more than triple",
        }
    }
}

/// The band of two totals. House rule: a total below 0 counts as 0.
pub fn band(attacker: i32, defender: i32) -> Band {
    let (a, d) = (attacker.max(0), defender.max(0));
    if d > 2 * a {
        Band::Repulsed
    } else if d >= a {
        Band::Held
    } else if a > 3 * d {
        Band::Triple
    } else if a > 2 * d {
        Band::Double
    } else {
        Band::Edge
    }
}

fn m(why: &str, value: i32) -> Modifier {
    Modifier {
        why: why.into(),
        value,
    }
}

fn sum(mods: &[Modifier]) -> i32 {
    mods.iter().map(|x| x.value).sum()
}

/// Disorder `n` on unit `i`: each exchanges a white die for a coloured
/// one; a crippled unit that takes more is removed.
pub fn damage(s: &mut State, i: usize, n: u32, why: &str) -> Vec<Event> {
    let mut out = Vec::new();
    if n == 0 || !s.units[i].placed() {
        return out;
    }
    let before = s.units[i].disorder;
    let mut removed = false;
    for _ in 0..n {
        if s.units[i].crippled() {
            removed = true;
            break;
        }
        s.units[i].disorder += 1;
    }
    let u = &s.units[i];
    if u.disorder > before {
        out.push(event(
            Said::Disorder,
            Facts {
                unit: Some(u.refer()),
                before: Some(i64::from(before)),
                after: Some(i64::from(u.disorder)),
                reason: Some(why.into()),
                ..Facts::default()
            },
            Vec::new(),
        ));
    }
    if removed {
        out.extend(remove(s, i, "crippled and damaged again"));
    }
    out
}

/// Why a unit that routed off its edge left: it lives on, for a
/// campaign's next battle.
pub const ROUTED_OFF: &str = "routed off the table";

pub fn remove(s: &mut State, i: usize, why: &str) -> Vec<Event> {
    s.units[i].gone = Some(why.into());
    vec![event(
        Said::Removed,
        Facts {
            unit: Some(s.units[i].refer()),
            reason: Some(why.into()),
            ..Facts::default()
        },
        Vec::new(),
    )]
}

/// The Critical Event Table's result for a 2D6 total.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Critical {
    OfficerKilled,
    BrokenLine,
    Petrified,
    DevastatingVolley,
    Panic,
    Wavering,
    Rout,
}

impl Critical {
    pub fn of(total: u32) -> Critical {
        match total {
            0..=3 => Critical::OfficerKilled,
            4 => Critical::BrokenLine,
            5 => Critical::Petrified,
            6..=8 => Critical::DevastatingVolley,
            9 => Critical::Panic,
            10 => Critical::Wavering,
            _ => Critical::Rout,
        }
    }
    pub fn word(self) -> &'static str {
        match self {
            Critical::OfficerKilled => "officer killed: activated singly from now on",
            Critical::BrokenLine => "broken line: must reform at its next activation",
            Critical::Petrified => "petrified: may not be activated next turn",
            Critical::DevastatingVolley => "devastating volley: recoils one short",
            Critical::Panic => "panic: one more disorder",
            Critical::Wavering => "wavering",
            Critical::Rout => "rout: turns for its own edge",
        }
    }
}

/// Roll 2D6 on the critical event table for unit `i` and carry it out.
pub fn critical(s: &mut State, i: usize, from: Option<usize>, dice: &mut Dice) -> Vec<Event> {
    if !s.units[i].placed() {
        return Vec::new();
    }
    let purpose = format!("critical event: {}", s.units[i].id);
    let a = dice.d6(purpose.clone());
    let ia = dice.last_index().unwrap_or(0);
    let b = dice.d6(purpose);
    let c = Critical::of(a + b);
    let mut out = vec![event(
        Said::Critical,
        Facts {
            unit: Some(s.units[i].refer()),
            rolls: vec![a, b],
            hits: Some(a + b),
            result: Some(c.word().into()),
            ..Facts::default()
        },
        vec![ia, ia + 1],
    )];
    let st = &mut s.units[i].status;
    match c {
        Critical::OfficerKilled => st.officer_killed = true,
        Critical::BrokenLine => st.broken_line = true,
        Critical::Petrified => st.petrified = true,
        Critical::Wavering => st.wavering = true,
        Critical::Rout => st.rout = true,
        Critical::Panic => out.extend(damage(s, i, 1, "panic")),
        Critical::DevastatingVolley => {
            let short = s.short();
            out.extend(recoil(s, i, from, short, "devastating volley"))
        }
    }
    out
}

/// Unit `i` goes back `cm` keeping its facing (away from `from` when
/// given, straight back otherwise). Artillery in melee cannot recoil and
/// takes a disorder instead (house rule).
pub fn recoil(s: &mut State, i: usize, from: Option<usize>, cm: f64, why: &str) -> Vec<Event> {
    let u = s.units[i].clone();
    if u.arm() == Arm::Artillery && !s.contacts(&u).is_empty() {
        return damage(s, i, 1, "artillery in melee cannot recoil");
    }
    let back = match from.and_then(|f| s.units[f].at).zip(u.at) {
        Some((e, me)) if (me - e).length() > 1e-9 => me - e,
        _ => u.facing.unit_vector().scale(-1.0),
    };
    let t = travel(s, i, back, cm);
    s.traces.push(Trace {
        side: u.side.clone(),
        kind: TraceKind::Retreat,
        points: vec![t.from, t.to],
    });
    vec![event(
        Said::Recoil,
        Facts {
            unit: Some(u.refer()),
            from: Some(t.from),
            to: Some(t.to),
            distance: Some(t.cm / s.short()),
            reason: Some(why.into()),
            ..Facts::default()
        },
        Vec::new(),
    )]
}

/// Modifiers of a unit's formation for melee (Infantry Formations: line
/// -2 melee; square +3 against cavalry), unless its line is broken.
fn melee_formation(s: &State, me: usize, foe: usize, out: &mut Vec<Modifier>) {
    match s.units[me].modifying_formation() {
        Some(Formation::Line) => out.push(m("line", -2)),
        Some(Formation::Square) if s.units[foe].arm() == Arm::Cavalry => {
            out.push(m("square against cavalry", 3))
        }
        _ => {}
    }
}

/// A melee between attacker `a` and defender `d`: charge bonuses when it
/// is the first meeting, the defender at -1 when the attacker seized the
/// initiative.
pub fn melee(
    s: &mut State,
    a: usize,
    d: usize,
    charge: bool,
    seize: bool,
    dice: &mut Dice,
) -> Vec<Event> {
    let (au, du) = (s.units[a].clone(), s.units[d].clone());
    if !au.placed() || !du.placed() {
        return Vec::new();
    }
    let key = pair(&au.id, &du.id);
    if !s.fought.contains(&key) {
        s.fought.push(key);
    }
    let terrain = &s.scenario.terrain;
    let (ha, hd) = (
        ground::elevation(terrain, s.centre(&au)),
        ground::elevation(terrain, s.centre(&du)),
    );
    let mut am = vec![m("melee value", au.troop.melee)];
    let mut dm = vec![m("melee value", du.troop.melee)];
    if ha > hd {
        am.push(m("uphill", 1));
    } else if hd > ha {
        dm.push(m("uphill", 1));
    }
    if charge {
        match au.arm() {
            Arm::Infantry => am.push(m("infantry charging", 1)),
            Arm::Cavalry => am.push(m("cavalry charging", 2)),
            Arm::Artillery => {}
        }
    }
    match relation_of_point(&s.frame(&du), s.centre(&au)) {
        Relation::DirectlyBehind => dm.push(m("attacked from the rear", -2)),
        Relation::ToFlank => dm.push(m("flanked", -1)),
        _ => {}
    }
    if seize {
        dm.push(m("the enemy seized the initiative", -1));
    }
    melee_formation(s, a, d, &mut am);
    melee_formation(s, d, a, &mut dm);
    if au.crippled() {
        am.push(m("crippled", -1));
    }
    if du.crippled() {
        dm.push(m("crippled", -1));
    }
    let (ra, rd, ia) = opposed(dice, &au.id, &du.id, "melee");
    let (ta, td) = (ra as i32 + sum(&am), rd as i32 + sum(&dm));
    let b = band(ta, td);
    let mut mods: Vec<Modifier> = am
        .iter()
        .map(|x| m(&format!("{}: {}", au.name, x.why), x.value))
        .collect();
    mods.extend(
        dm.iter()
            .map(|x| m(&format!("{}: {}", du.name, x.why), x.value)),
    );
    let mut out = vec![event(
        Said::Melee,
        Facts {
            unit: Some(au.refer()),
            target: Some(du.refer()),
            rolls: vec![ra, rd],
            attacker_total: Some(i64::from(ta.max(0))),
            defender_total: Some(i64::from(td.max(0))),
            modifiers: mods,
            result: Some(b.word().into()),
            mode: Some(
                if seize {
                    "seizing the initiative"
                } else if charge {
                    "a charge"
                } else {
                    "the melee goes on"
                }
                .into(),
            ),
            ..Facts::default()
        },
        vec![ia, ia + 1],
    )];
    match b {
        Band::Repulsed => {
            out.extend(damage(s, a, 1, "repulsed in melee"));
            if s.units[a].placed() {
                let short = s.short();
                out.extend(recoil(s, a, Some(d), short, "repulsed in melee"));
            }
        }
        Band::Held if rd % 2 == 0 => out.extend(damage(s, a, 1, "the defender rolled even")),
        Band::Held => {}
        Band::Edge if ra % 2 == 0 => out.extend(damage(s, d, 1, "the attacker rolled even")),
        Band::Edge => {}
        Band::Double | Band::Triple => {
            let n = if b == Band::Triple { 2 } else { 1 };
            out.extend(damage(s, d, n, b.word()));
            out.extend(critical(s, d, Some(a), dice));
        }
    }
    out
}

fn opposed(dice: &mut Dice, a: &str, d: &str, what: &str) -> (u32, u32, usize) {
    let ra = dice.d6(format!("{what}: {a}"));
    let ia = dice.last_index().unwrap_or(0);
    let rd = dice.d6(format!("{what}: {d}"));
    (ra, rd, ia)
}

/// Shooting modifiers of a unit's formation (column and square -2
/// shooting), unless its line is broken.
fn shooting_formation(s: &State, me: usize, out: &mut Vec<Modifier>) {
    match s.units[me].modifying_formation() {
        Some(Formation::Column) => out.push(m("column", -2)),
        Some(Formation::Square) => out.push(m("square", -2)),
        _ => {}
    }
}

/// The range band a shot at `cm` falls in, and what it gives the shooter
/// (musketry: short within 1 S, long beyond 2 S; bombardment: +1 from 0
/// to 1 M, -1 from 2 M to 3 M, both ends counting).
pub fn range_band(s: &State, guns: bool, cm: f64) -> (&'static str, Option<Modifier>) {
    let short = s.short();
    if guns {
        if within(cm, 2.0 * short) {
            ("within 1 M", Some(m("target within 1 M", 1)))
        } else if from(cm, 4.0 * short) {
            ("2 M to 3 M", Some(m("target at 2 M to 3 M", -1)))
        } else {
            ("1 M to 2 M", None)
        }
    } else if within(cm, short) {
        ("short range", Some(m("short range", 1)))
    } else if beyond(cm, 2.0 * short) {
        ("long range", Some(m("long range", -1)))
    } else {
        ("medium range", None)
    }
}

/// What a shot from `a` at `t`, `cm` apart, adds to each side's die.
#[derive(Clone, Debug, PartialEq)]
pub struct ShotTerms {
    pub guns: bool,
    pub band: &'static str,
    pub canister: bool,
    pub shooter: Vec<Modifier>,
    pub target: Vec<Modifier>,
}

impl ShotTerms {
    pub fn shooter_total(&self) -> i32 {
        sum(&self.shooter)
    }
    pub fn target_total(&self) -> i32 {
        sum(&self.target)
    }
    /// In how many of the 36 pairs of dice the shot disorders the target.
    pub fn disorder_chances(&self) -> u32 {
        let (a, t) = (self.shooter_total(), self.target_total());
        (1..=6u32)
            .flat_map(|ra| (1..=6u32).map(move |rt| (ra, rt)))
            .filter(|&(ra, rt)| effect(band(ra as i32 + a, rt as i32 + t), ra).0 > 0)
            .count() as u32
    }
}

/// The modifiers of a shot (Musketry and Bombardment Attacks) from `a` at
/// `t`, `cm` edge to edge; `aimed`: the target at -1.
pub fn shot_terms(s: &State, a: usize, t: usize, cm: f64, aimed: bool) -> ShotTerms {
    let (au, tu) = (&s.units[a], &s.units[t]);
    let short = s.short();
    let guns = au.arm() == Arm::Artillery;
    let mut am = vec![m("shooting value", au.troop.shooting)];
    let mut tm = vec![m("shooting value", tu.troop.shooting)];
    let canister = guns && au.canister && within(cm, 2.0 * short);
    let (band, by_range) = range_band(s, guns, cm);
    am.extend(by_range);
    match ground::cover(&s.scenario.terrain, &s.bases(tu)) {
        Cover::Heavy if guns => tm.push(m("heavy cover", 1)),
        Cover::Heavy => tm.push(m("heavy cover", 2)),
        Cover::Light if !guns => tm.push(m("light cover", 1)),
        _ => {}
    }
    if aimed {
        tm.push(m("aimed shot", -1));
    }
    shooting_formation(s, a, &mut am);
    shooting_formation(s, t, &mut tm);
    if au.crippled() {
        am.push(m("crippled", -1));
    }
    if tu.crippled() {
        tm.push(m("crippled", -1));
    }
    ShotTerms {
        guns,
        band,
        canister,
        shooter: am,
        target: tm,
    }
}

/// A shot's disorders and whether it rolls a critical event, from its band
/// and the shooter's die.
fn effect(b: Band, ra: u32) -> (u32, bool) {
    match b {
        Band::Repulsed | Band::Held => (0, false),
        Band::Edge => (u32::from(ra.is_multiple_of(2)), false),
        Band::Double => (1, true),
        Band::Triple => (2, true),
    }
}

/// Musketry (infantry) or bombardment (artillery) from `a` at `t`, at
/// `cm` edge to edge; `aimed`: the target at -1.
pub fn shoot(
    s: &mut State,
    a: usize,
    t: usize,
    cm: f64,
    aimed: bool,
    dice: &mut Dice,
) -> Vec<Event> {
    let (au, tu) = (s.units[a].clone(), s.units[t].clone());
    let short = s.short();
    let terms = shot_terms(s, a, t, cm, aimed);
    let (guns, canister) = (terms.guns, terms.canister);
    let (am, tm) = (terms.shooter, terms.target);
    let what = if guns { "bombardment" } else { "musketry" };
    let (ra, rt, ia) = opposed(dice, &au.id, &tu.id, what);
    let (ta, tt) = (ra as i32 + sum(&am), rt as i32 + sum(&tm));
    let b = band(ta, tt);
    let mut mods: Vec<Modifier> = am
        .iter()
        .map(|x| m(&format!("{}: {}", au.name, x.why), x.value))
        .collect();
    mods.extend(
        tm.iter()
            .map(|x| m(&format!("{}: {}", tu.name, x.why), x.value)),
    );
    if canister {
        s.units[a].canister = false;
    }
    s.traces.push(Trace {
        side: au.side.clone(),
        kind: TraceKind::Fire,
        points: vec![s.centre(&au), s.centre(&tu)],
    });
    let result = match b {
        Band::Repulsed | Band::Held => "volley missed",
        Band::Edge if ra % 2 == 0 => "1 disorder (even roll)",
        Band::Edge => "no effect (odd roll)",
        Band::Double => "1 disorder and a critical roll",
        Band::Triple => "2 disorders and a critical roll",
    };
    let mut out = vec![event(
        Said::Fire,
        Facts {
            unit: Some(au.refer()),
            target: Some(tu.refer()),
            rolls: vec![ra, rt],
            attacker_total: Some(i64::from(ta.max(0))),
            defender_total: Some(i64::from(tt.max(0))),
            modifiers: mods,
            result: Some(result.into()),
            distance: Some(cm / short),
            mode: Some(
                match (guns, canister, aimed) {
                    (true, true, _) => "canister",
                    (true, false, true) => "aimed bombardment",
                    (true, false, false) => "bombardment",
                    (false, _, true) => "aimed musketry",
                    (false, _, false) => "musketry",
                }
                .into(),
            ),
            ..Facts::default()
        },
        vec![ia, ia + 1],
    )];
    let (n, crit) = effect(b, ra);
    out.extend(damage(s, t, n, what));
    // Canister: every increase in disorder also rolls a critical event.
    if (crit || (canister && n > 0)) && s.units[t].placed() {
        out.extend(critical(s, t, Some(a), dice));
    }
    out
}

/// Whether unit `a` can shoot now (a ranged value and range; guns
/// unlimbered; not in melee) and at `t` (in arc, sight and range): the
/// distance, or why not.
pub fn can_shoot(s: &State, a: usize, t: usize) -> Result<f64, String> {
    let (au, tu) = (&s.units[a], &s.units[t]);
    if !tu.placed() {
        return Err(format!("{} is not on the table", tu.name));
    }
    ready_to_shoot(s, a)?;
    sight::shot_at(s, au, tu).map_err(|why| why.words(&tu.name, s.short()))
}

/// The units other than `a` that `a` could shoot at now, nearest first
/// (ties by id), with their distance: none when `a` cannot shoot at all.
/// Units plainly beyond its range are not measured.
pub fn shootable(s: &State, a: usize) -> Vec<(f64, usize)> {
    if ready_to_shoot(s, a).is_err() {
        return Vec::new();
    }
    let au = &s.units[a];
    let max = f64::from(au.troop.range) * s.short();
    let mut out: Vec<(f64, usize)> = (0..s.units.len())
        .filter(|&k| k != a && s.units[k].placed())
        .filter(|&k| within(s.gap_at_least(au, &s.units[k]), max))
        // `can_shoot` less what was asked of `a` once above.
        .filter_map(|k| sight::in_range(s, au, &s.units[k]).map(|d| (d, k)))
        .collect();
    out.sort_by(|x, y| {
        x.0.total_cmp(&y.0)
            .then(s.units[x.1].id.cmp(&s.units[y.1].id))
    });
    out
}

/// Why `a` cannot shoot at anything now, if it cannot.
pub fn ready_to_shoot(s: &State, a: usize) -> Result<(), String> {
    let au = &s.units[a];
    if au.troop.range == 0 {
        return Err("it has no ranged attack".into());
    }
    if au.arm() == Arm::Artillery && au.formation != Formation::Unlimbered {
        return Err("limbered guns cannot fire".into());
    }
    if !s.contacts(au).is_empty() {
        return Err("it is in melee".into());
    }
    Ok(())
}
