//! Firing: casualties per figure (per gun model) times the multiplier from
//! the modified average die; fractions of a man diced as a percentage; one
//! fire per move, loaded weapons only; hard and soft cover as the source
//! defines them. Gun smoke gives the firer away.

use super::state::{State, Status, Trace, TraceKind, Unit};
use super::step::Step;
use super::tables::{Formation, Troop, multiplier};
use super::unseen::{self, Unseen};
use super::words::Said;
use crate::event::{Loss, Modifier, Visibility};
use crate::geometry::sight::line_of_sight;
use crate::geometry::{Point, TerrainTag};

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
    /// No line of sight to the smoke it was told to fire into.
    SmokeHidden,
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
            Bar::SmokeHidden => "Firing: the smoke is not in sight of the firing unit".into(),
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

/// Why `u` may not fire into the smoke at `at` where `t` stands: its own
/// state, no line of sight to the smoke, or out of range.
pub fn barred_at_smoke(s: &State, u: &Unit, t: &Unit, at: Point) -> Option<Bar> {
    if let Some(bar) = unit_bar(u) {
        return Some(bar);
    }
    if !line_of_sight(u.at, at, &s.scenario.terrain, &super::state::BLOCKS_SIGHT) {
        return Some(Bar::SmokeHidden);
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

/// One unit's fire at an enemy unit, or into an enemy smoke marker it
/// names by its id. Returns the men hit.
pub fn fire(st: &mut Step, unit: &str, target: &str) -> u32 {
    let Some(u) = st.s.unit(unit).cloned() else {
        return 0;
    };
    if let Some(marker) = st.s.smoke_marker(&u.side, target).cloned() {
        let Some(t) = st.s.in_smoke(&marker.id).cloned() else {
            let mut f = st.facts(unit, None);
            f.place = Some(smoke_place(marker.at));
            f.reason = Some(format!(
                "Firing: {} hides no one now: it holds its fire",
                smoke_place(marker.at)
            ));
            st.say(Said::Refused, f, Vec::new());
            return 0;
        };
        if let Some(bar) = barred_at_smoke(&st.s, &u, &t, marker.at) {
            let mut f = st.facts(unit, None);
            f.reason = Some(format!(
                "{} ({})",
                bar.words(false, str::to_string),
                smoke_place(marker.at)
            ));
            st.say(Said::Refused, f, Vec::new());
            return 0;
        }
        return shoot(st, &u, &t, Some(marker.at));
    }
    let Some(t) = st.s.unit(target).cloned() else {
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
    shoot(st, &u, &t, None)
}

/// `the smoke at (x, y)`: how a smoke marker is named in words.
pub fn smoke_place(at: Point) -> String {
    format!("the smoke at ({:.0}, {:.0})", at.x, at.y)
}

/// The fire itself, allowed; `smoke`: where the smoke it fired into
/// stands, when its side does not see the target.
fn shoot(st: &mut Step, u: &Unit, t: &Unit, smoke: Option<Point>) -> u32 {
    let (unit, target) = (u.id.as_str(), t.id.as_str());
    // The smoke shows where the firer stood, seen or not; not who it is.
    st.s.smoke_made += 1;
    st.s.smoke.push(super::state::Smoke {
        id: format!("smoke-{}", st.s.smoke_made),
        unit: u.id.clone(),
        side: u.side.clone(),
        at: u.at,
    });
    let mods = modifiers(&st.s, u, t);
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
    let dist = st.s.gap(u, t);
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
    tell_fire(st, f, dice, u, t, smoke);
    hit(st, target, men);
    men
}

/// The fire told: in full to each side that knows both units; to a side
/// that knows only its firer, as fire into the smoke it aimed at (no
/// hits: it cannot count them); to a side that knows only its target, as
/// fire from the smoke at where the firer stands, with no name, troops,
/// strength or modifiers.
fn tell_fire(
    st: &mut Step,
    f: crate::event::Facts,
    dice: Vec<usize>,
    u: &Unit,
    t: &Unit,
    smoke: Option<Point>,
) {
    st.say(Said::Fire, f.clone(), dice);
    let mut told = Vec::new();
    if !st.s.sees(&u.side, t) {
        let place = smoke.map_or_else(|| "its charger".to_string(), smoke_place);
        told.push((
            u.side.clone(),
            crate::event::Facts {
                target: None,
                place: Some(place),
                hits: None,
                losses: Vec::new(),
                notes: Vec::new(),
                ..f.clone()
            },
        ));
    }
    if !st.s.sees(&t.side, u) {
        told.push((
            t.side.clone(),
            crate::event::Facts {
                side: Some(u.side.clone()),
                unit: None,
                place: Some(smoke_place(u.at)),
                count: None,
                modifiers: Vec::new(),
                rolls: Vec::new(),
                result: None,
                notes: Vec::new(),
                ..f
            },
        ));
    }
    for (side, facts) in told {
        let e = super::words::to(Visibility::Side(side), Said::Fire, facts, Vec::new());
        st.events.push(e);
    }
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
