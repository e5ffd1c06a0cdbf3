//! Firing: casualties per figure (per gun model) times the multiplier from
//! the modified average die; fractions of a man diced as a percentage; one
//! fire per move, loaded weapons only; hard and soft cover as the source
//! defines them. Gun smoke gives the firer away.

use super::state::{State, Status, Trace, TraceKind, Unit};
use super::step::Step;
use super::tables::{Formation, Troop, multiplier};
use super::unseen::{self, Unseen};
use super::words::Said;
use crate::event::{Loss, Modifier};
use crate::geometry::TerrainTag;
use crate::geometry::sight::line_of_sight;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cover {
    None,
    Soft,
    Hard,
}

/// Cover as the source defines it. Tags: town with cover is stone
/// buildings (or earthworks, forts); town alone is wooden buildings; a wall
/// crossed by the line of fire is a substantial wall or fence; an
/// obstruction crossed is abattis; skirmishers in woods or rough ground
/// are in soft cover, close order there is not.
pub fn cover(s: &State, firer: &Unit, target: &Unit) -> Cover {
    let guns = firer.troop == Troop::Artillery;
    let ground: Vec<_> = s.ground(target.at).collect();
    if ground
        .iter()
        .any(|t| t.has(TerrainTag::Town) && t.has(TerrainTag::Cover))
    {
        return Cover::Hard;
    }
    if ground.iter().any(|t| t.has(TerrainTag::Town)) {
        return if guns { Cover::Soft } else { Cover::Hard };
    }
    let crosses =
        |tag: TerrainTag| !line_of_sight(firer.at, target.at, &s.scenario.terrain, &[tag]);
    if crosses(TerrainTag::Wall) {
        return Cover::Soft;
    }
    if !guns && crosses(TerrainTag::Obstruction) {
        return Cover::Soft;
    }
    if target.troop.open_order()
        && ground
            .iter()
            .any(|t| t.has(TerrainTag::Woods) || t.has(TerrainTag::Difficult))
    {
        return Cover::Soft;
    }
    Cover::None
}

/// House rule: the modifiers to the average die the source's cut-off list
/// would give (the fire factor counts above or below 2).
pub fn modifiers(s: &State, firer: &Unit, target: &Unit) -> Vec<Modifier> {
    let mut m = Vec::new();
    let mut add = |why: &str, value: i32| {
        if value != 0 {
            m.push(Modifier {
                why: why.into(),
                value,
            })
        }
    };
    add("fire factor", firer.troop.rating().ff - 2);
    if firer.first_fire {
        add("first fire of the game", 1);
    }
    if s.gap(firer, target) > long_range(firer) {
        add("long range", -1);
    }
    if target.troop.open_order() {
        add("target in open order", -1);
    }
    if matches!(target.formation, Formation::Column | Formation::Limbered) {
        add("target in column or limbered", 1);
    }
    match cover(s, firer, target) {
        Cover::Soft => add("soft cover", -1),
        Cover::Hard => add("hard cover", -2),
        Cover::None => {}
    }
    if firer.under_half() {
        add("firer under half strength", -1);
    }
    m
}

/// Why a unit may not fire at a target now.
#[derive(Clone, Debug, PartialEq)]
pub enum Bar {
    NotGood,
    Fired,
    Unloaded,
    Limbered,
    /// The firer does not see the target (the reason is told only to a
    /// side that knows where the target is).
    Unseen(Unseen),
    OutOfRange {
        gap: f64,
        range: f64,
    },
}

impl Bar {
    /// The rule and the numbers; names of features as `name` writes them.
    /// `known`: whether the reader's side knows where the target is; if
    /// not, nothing of where it stands is said.
    pub fn words(&self, known: bool, name: impl Fn(&str) -> String) -> String {
        match self {
            Bar::NotGood => "Firing: routing or pursuing units do not fire".into(),
            Bar::Fired => "Firing: a unit may only fire once per move".into(),
            Bar::Unloaded => {
                "Reloading: it has not reloaded (it moved more than its share of a move after firing)"
                    .into()
            }
            Bar::Limbered => "Firing: limbered guns do not fire".into(),
            Bar::Unseen(why) if known => format!(
                "Firing: the target is not in sight of the firing unit: {}",
                why.words(name)
            ),
            Bar::Unseen(_) => "Firing: the target is not in sight of the firing unit".into(),
            Bar::OutOfRange { gap, range } => format!(
                "Firing: the target is out of range: {gap:.1} cm, range is {range:.0} cm ({:.1} cm too far)",
                gap - range
            ),
        }
    }
}

/// Why `u` may fire at nobody now, if it may not.
pub fn unit_bar(u: &Unit) -> Option<Bar> {
    if u.status != Status::Good {
        return Some(Bar::NotGood);
    }
    if u.fired {
        return Some(Bar::Fired);
    }
    if !u.loaded {
        return Some(Bar::Unloaded);
    }
    if u.formation == Formation::Limbered {
        return Some(Bar::Limbered);
    }
    None
}

/// Why `u` may not fire at `t` now, if it may not.
pub fn barred(s: &State, u: &Unit, t: &Unit) -> Option<Bar> {
    if let Some(bar) = unit_bar(u) {
        return Some(bar);
    }
    // A unit may fire at the charger it stands to receive, seen or not.
    let charging_it = s.charges.iter().any(|c| c.unit == t.id && c.target == u.id);
    if !charging_it && let Some(why) = unseen::why(s, u, t) {
        return Some(Bar::Unseen(why));
    }
    let gap = s.gap(u, t);
    if gap > u.troop.range() {
        return Some(Bar::OutOfRange {
            gap,
            range: u.troop.range(),
        });
    }
    None
}

/// Where long range begins: beyond half the weapon's range.
pub fn long_range(u: &Unit) -> f64 {
    u.troop.range() / 2.0
}

/// One unit's fire. Returns the men hit.
pub fn fire(st: &mut Step, unit: &str, target: &str) -> u32 {
    let (Some(u), Some(t)) = (st.s.unit(unit).cloned(), st.s.unit(target).cloned()) else {
        return 0;
    };
    if let Some(bar) = barred(&st.s, &u, &t) {
        // The target is named (and the reason told) only to a side that
        // knows where it stands: the event's readers follow its units.
        let known = st.s.sees(&u.side, &t);
        let mut f = st.facts(unit, known.then_some(target));
        f.reason = Some(bar.words(known, str::to_string));
        st.say(Said::Refused, f, Vec::new());
        return 0;
    }
    // The smoke shows where the firer stands, seen or not.
    st.s.smoke.push(super::state::Smoke {
        unit: u.id.clone(),
        side: u.side.clone(),
        at: u.at,
    });
    let mods = modifiers(&st.s, &u, &t);
    let r = st.average(
        &[unit, target],
        &format!(
            "{} fire at {}: average die, modified by {:+}, times the multiplier",
            u.name,
            t.name,
            mods.iter().map(|m| m.value).sum::<i32>()
        ),
    );
    let modified = r.value as i32 + mods.iter().map(|m| m.value).sum::<i32>();
    let mult = multiplier(modified);
    let dist = st.s.gap(&u, &t);
    let raw = u.figures() as f64 * u.troop.casualties_per_figure(dist) * mult;
    let (men, fr) = st.whole_men(raw, &[unit, target]);
    let mut f = st.facts(unit, Some(target));
    f.count = Some(u.figures());
    f.distance = Some(dist);
    f.modifiers = mods;
    f.result = Some(format!("{mult}"));
    f.rolls = std::iter::once(r.value)
        .chain(fr.iter().map(|x| x.value))
        .collect();
    f.hits = Some(men);
    f.losses = vec![Loss {
        unit: target.into(),
        amount: men,
        of: "man".into(),
    }];
    if let Some(x) = fr.first() {
        f.notes
            .push(format!("{:.2} men: d100 {} for the fraction", raw, x.value));
    }
    let dice = std::iter::once(r.index)
        .chain(fr.iter().map(|x| x.index))
        .collect();
    if let Some(x) = st.s.unit_mut(unit) {
        x.fired = true;
        x.loaded = false;
        x.first_fire = false;
    }
    st.s.traces.push(Trace {
        unit: unit.into(),
        side: u.side.clone(),
        kind: TraceKind::Fire,
        points: vec![u.at, t.at],
    });
    // Told before the losses, so a target destroyed is still named to those
    // who saw it.
    st.say(Said::Fire, f, dice);
    hit(st, target, men);
    men
}

/// Casualties in men; a unit with no figure left is gone.
pub fn hit(st: &mut Step, unit: &str, men: u32) {
    let Some(x) = st.s.unit_mut(unit) else {
        return;
    };
    x.men_lost += men;
    x.lost_this_move += men;
    if x.figures() == 0 && x.status != Status::Gone {
        // Told while it still stands, so those who saw it read it.
        let mut f = st.facts(unit, None);
        f.reason = Some("is destroyed".into());
        st.say(Said::Gone, f, Vec::new());
        if let Some(x) = st.s.unit_mut(unit) {
            x.status = Status::Gone;
        }
    }
}
