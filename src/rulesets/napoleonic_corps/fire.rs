//! Fire combat: range and arc, the firer's and target's modifiers, the 2D6
//! firing table, a divisional general's downgrade, and the two fire phases.

use super::formation::Formation;
use super::generals;
use super::rally::RETREAT_CM;
use super::retreat::{remove, retreat};
use super::roll::{d6, two_d6};
use super::state::{State, Trace, TraceKind, Unit};
use super::tables::Arm;
use super::words::{Said, event};
use crate::dice::Dice;
use crate::dice::table::read;
use crate::event::{Event, Facts, Modifier};
use crate::geometry::limit::{beyond, within};
use crate::geometry::{Frame, TerrainTag, bases_distance, in_common_arc, is_to_flank};

/// Musket range (cm).
pub const MUSKET: f64 = 5.0;
/// A unit firing over another must have the target this far behind it
/// (cm), unless the unit in between is a battery.
pub const OVER: f64 = 10.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum FireResult {
    NoEffect,
    Disordered,
    Retreat,
    Eliminated,
}

impl FireResult {
    pub fn word(self) -> &'static str {
        match self {
            FireResult::NoEffect => "no effect",
            FireResult::Disordered => "target disordered",
            FireResult::Retreat => "target retreats 30 cm and is disordered",
            FireResult::Eliminated => "target eliminated",
        }
    }
    /// One level less.
    pub fn downgraded(self) -> FireResult {
        match self {
            FireResult::Eliminated => FireResult::Retreat,
            FireResult::Retreat => FireResult::Disordered,
            _ => FireResult::NoEffect,
        }
    }
}

/// The firing table: 2-6 no effect, 7-9 disordered, 10-11 retreat, 12+ eliminated.
pub fn table(total: i32) -> FireResult {
    read(
        &[
            (2, FireResult::NoEffect),
            (7, FireResult::Disordered),
            (10, FireResult::Retreat),
            (12, FireResult::Eliminated),
        ],
        total,
    )
}

fn m(why: &str, value: i32) -> Modifier {
    Modifier {
        why: why.into(),
        value,
    }
}

/// The range modifier for `f` at `d` cm, or None when out of range:
/// musket 5 cm; a battery's range, double at -2, triple at -4.
pub fn range_modifier(f: &Unit, d: f64) -> Option<Option<Modifier>> {
    match f.troop.battery_range() {
        Some(r) if within(d, r) => Some(None),
        Some(r) if within(d, 2.0 * r) => Some(Some(m("artillery range x2", -2))),
        Some(r) if within(d, 3.0 * r) => Some(Some(m("artillery range x3", -4))),
        Some(_) => None,
        None if within(d, MUSKET) => Some(None),
        None => None,
    }
}

/// The distance `d` (cm) as the fire's words give it: to a tenth of a cm,
/// or to a hundredth where the tenth would put it on the edge of a range
/// band that it lies beyond (30.04 cm is past a medium battery's double
/// range, and "30.0" would read as within it).
pub fn shown(f: &Unit, d: f64) -> f64 {
    let tenth = (d * 10.0).round() / 10.0;
    let edges = match f.troop.battery_range() {
        Some(r) => vec![r, 2.0 * r, 3.0 * r],
        None => vec![MUSKET],
    };
    if edges
        .iter()
        .any(|&e| (tenth - e).abs() < 1e-9 && beyond(d, e))
    {
        (d * 100.0).round() / 100.0
    } else {
        tenth
    }
}

/// The farthest `f` may fire, cm (artillery: three times its range); a
/// target is in range when [`within`] it.
pub fn max_range(f: &Unit) -> f64 {
    f.troop.battery_range().map_or(MUSKET, |r| 3.0 * r)
}

/// Why `f` may not fire at `t`, if it may not, in words naming the rule,
/// the target and the numbers or what is in the way ([`super::fire_bar`]).
pub fn barrier(s: &State, f: &Unit, t: &Unit, engaged: &[String]) -> Option<String> {
    super::fire_bar::bar(s, f, t, engaged).map(|b| b.say(&t.name))
}

/// The rule two batteries combine by, for refusals.
pub const COMBINE: &str =
    "Fire Combat: two artillery units in contact combine their fire mods at one target";

/// Why battery `w` may not add its fire mod to `f`'s shot at `t`, if it may
/// not: both are batteries of one side, in contact with each other, and `w`
/// could fire at `t` itself ("shooting at the same target"). `engaged`:
/// units that may not fire in this phase (in melee).
pub fn cannot_combine(
    s: &State,
    f: &Unit,
    w: &Unit,
    t: &Unit,
    engaged: &[String],
) -> Option<String> {
    if w.id == f.id {
        return Some("a battery combines with another battery, not with itself".into());
    }
    if !w.live() || w.side != f.side {
        return Some(format!("{} is not one of the side's live units", w.name));
    }
    if f.arm() != Arm::Artillery || w.arm() != Arm::Artillery {
        return Some("only two batteries combine their fire".into());
    }
    let gap = s.gap(f, w);
    if gap > super::state::CONTACT {
        return Some(format!(
            "{} is {gap:.1} cm from {}: only batteries in contact with each other combine",
            w.name, f.name
        ));
    }
    if engaged.contains(&w.id) {
        return Some(format!(
            "{} is in contact with an enemy: it does not fire",
            w.name
        ));
    }
    barrier(s, w, t, engaged)
        .map(|why| format!("{} may not fire at {} itself: {why}", w.name, t.name))
}

/// Whether battery `f` may fire over unit `o` at `t`: it stands higher than
/// `o`, and `o` is a battery or `t` is at least 10 cm behind `o`.
pub fn over(s: &State, f: &Unit, t: &Unit, o: &Unit) -> bool {
    f.arm() == Arm::Artillery
        && super::sight::level(s, &s.bases(f)) > super::sight::level(s, &s.bases(o))
        && (o.arm() == Arm::Artillery || s.gap(o, t) >= OVER - 1e-6)
}

/// Reciprocity: `f` may fire back over `o` at a battery `t` that could fire
/// over `o` at `f`, when `f` is within `t`'s 45-degree arc.
pub fn reciprocal(s: &State, f: &Unit, t: &Unit, o: &Unit) -> bool {
    t.mods().fire.is_some()
        && over(s, t, f, o)
        && in_common_arc(&Frame::of(&s.bases(t)), &s.bases(f))
}

/// Every modifier of `f` firing at `t` at distance `d`.
pub fn modifiers(s: &State, f: &Unit, t: &Unit, d: f64, with: Option<&Unit>) -> Vec<Modifier> {
    let own = f.mods().fire.unwrap_or(0);
    // Two batteries combining: "a 0 adds 1" holds for either of the pair,
    // the one named to fire as well as the one combining with it.
    let mut out = vec![match with {
        Some(_) if own == 0 => m(
            &format!("{} fire mod (a 0 adds 1 combining)", f.troop.label()),
            1,
        ),
        _ => m(&format!("{} fire mod", f.troop.label()), own),
    }];
    if let Some(w) = with {
        out.push(match w.mods().fire.unwrap_or(0) {
            0 => m(&format!("{} combining (a 0 adds 1)", w.name), 1),
            v => m(&format!("{} combining", w.name), v),
        });
    }
    if let Some(Some(r)) = range_modifier(f, d) {
        out.push(r);
    }
    match f.formation {
        Formation::Square => out.push(m("firer in square", -2)),
        Formation::Deployed => out.push(m("firer deployed in area", -1)),
        Formation::Line => out.push(m("firer in line", 1)),
        Formation::Skirmish => out.push(m("firer in skirmish", 2)),
        _ => {}
    }
    if f.shaken() {
        out.push(m("firer disordered", -1));
    }
    if f.arm() == Arm::Infantry
        && !matches!(f.formation, Formation::Square | Formation::Deployed)
        && s.contacts(f).iter().any(|e| e.arm() == Arm::Cavalry)
    {
        out.push(m("not in square or area, cavalry in contact", -2));
    }
    let tb = s.bases(t);
    let fb = s.bases(f);
    if is_to_flank(&Frame::of(&tb), &fb)
        || crate::geometry::wholly_behind_front_line(&Frame::of(&tb), &fb[0])
    {
        out.push(m("hit in flank or rear", 2));
    }
    if t.shaken() {
        out.push(m("target disordered", 1));
    }
    match t.arm() {
        Arm::Cavalry => out.push(m("target mounted", 1)),
        Arm::Artillery => out.push(m("target artillery", -1)),
        Arm::Infantry => {}
    }
    match t.formation {
        Formation::Column => out.push(m("target in column", 1)),
        Formation::Square => out.push(m("target in square", 2)),
        Formation::Skirmish => out.push(m("target in skirmish", -1)),
        Formation::Unlimbered => out.push(m("target unlimbered", -1)),
        _ => {}
    }
    let cover = |tag: TerrainTag| {
        s.scenario
            .terrain
            .iter()
            .any(|x| x.has(tag) && x.touches_bases(&tb))
    };
    if cover(TerrainTag::Town) || cover(TerrainTag::Wall) {
        out.push(m("target in hard cover", -2));
    } else if cover(TerrainTag::Woods) || cover(TerrainTag::Cover) {
        out.push(m("target in soft cover", -1));
    }
    out
}

/// Unit `f` fires at `t` (with a second battery `with`), and the result
/// is carried out.
pub fn fire(s: &mut State, f: usize, t: usize, with: Option<usize>, dice: &mut Dice) -> Vec<Event> {
    let (fu, tu) = (s.units[f].clone(), s.units[t].clone());
    let wu = with.map(|w| s.units[w].clone());
    let d = bases_distance(&s.bases(&fu), &s.bases(&tu)).get();
    let mods = modifiers(s, &fu, &tu, d, wu.as_ref());
    let total_mod: i32 = mods.iter().map(|x| x.value).sum();
    let shown = shown(&fu, d);
    let purpose = format!(
        "{}, 2D6 fire at {} at {} cm: needs {}+ to disorder, {}",
        fu.name,
        tu.name,
        super::words::cm(shown),
        7 - total_mod,
        super::words::mods(&mods)
    );
    let (roll, idx) = two_d6(dice, &purpose);
    let total = roll as i32 + total_mod;
    let mut result = table(total);
    s.traces.push(Trace {
        side: fu.side.clone(),
        kind: TraceKind::Fire,
        points: vec![fu.at, tu.at],
    });
    let mut out = vec![event(
        Said::Fire,
        Facts {
            unit: Some(fu.refer()),
            target: Some(tu.refer()),
            distance: Some(shown),
            needed: Some(7),
            modifiers: mods,
            hits: Some(total.max(0) as u32),
            result: Some(result.word().into()),
            units: wu.iter().map(|w| w.refer()).collect(),
            ..Facts::default()
        },
        idx,
    )];
    // A divisional general with the target must try to lessen a 7+.
    if result != FireResult::NoEffect
        && let Some(g) = generals::serving(s, t)
    {
        let name = s.generals[g].name.clone();
        let (v, i) = d6(
            dice,
            &format!("{name} tries to lessen the fire on {}: needs 5+", tu.name),
        );
        if v >= 5 {
            result = result.downgraded();
        }
        out.push(event(
            Said::Downgrade,
            Facts {
                unit: Some(tu.refer()),
                reason: Some(name),
                needed: Some(5),
                hits: Some(v),
                result: Some(result.word().into()),
                ..Facts::default()
            },
            vec![i],
        ));
        out.push(generals::risk(s, g, t, dice));
    }
    out.extend(apply(s, t, result));
    out
}

/// Carry out a firing result on unit `t`.
pub fn apply(s: &mut State, t: usize, r: FireResult) -> Vec<Event> {
    match r {
        FireResult::NoEffect => Vec::new(),
        FireResult::Disordered => {
            s.units[t].disordered = true;
            Vec::new()
        }
        FireResult::Retreat => {
            s.units[t].disordered = true;
            retreat(s, t, RETREAT_CM, "fire")
        }
        FireResult::Eliminated => {
            let mut out = vec![event(
                Said::Eliminated,
                Facts {
                    unit: Some(s.units[t].refer()),
                    reason: Some("fire".into()),
                    ..Facts::default()
                },
                Vec::new(),
            )];
            out.extend(remove(s, t, "eliminated by fire"));
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn firing_table_bands() {
        // Firing table: 2-6 no effect, 7-9 disordered, 10-11 retreat, 12+ eliminated.
        assert_eq!(table(6), FireResult::NoEffect);
        assert_eq!(table(7), FireResult::Disordered);
        assert_eq!(table(9), FireResult::Disordered);
        assert_eq!(table(10), FireResult::Retreat);
        assert_eq!(table(11), FireResult::Retreat);
        assert_eq!(table(12), FireResult::Eliminated);
        assert_eq!(table(15), FireResult::Eliminated);
    }

    #[test]
    fn a_general_downgrades_one_level() {
        // Divisional generals: a 5+ downgrades the result by one level.
        assert_eq!(FireResult::Eliminated.downgraded(), FireResult::Retreat);
        assert_eq!(FireResult::Retreat.downgraded(), FireResult::Disordered);
        assert_eq!(FireResult::Disordered.downgraded(), FireResult::NoEffect);
    }
}
