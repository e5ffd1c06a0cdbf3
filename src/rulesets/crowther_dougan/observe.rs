//! Observation: troops in the open are seen wherever there is line of
//! sight; hidden troops must be found. Each unit may observe one area (a
//! circle 20 cm across) a move; the test is always made, on the hidden dice
//! stream, whether or not anything is there, and only its result reaches
//! the observer. A unit acts only on its own finds.

use super::state::{Spot, State, Unit};
use super::step::Step;
use super::tables::{OBSERVE_ACROSS, OBSERVE_MODIFIER};
use super::words::{self, Said};
use crate::dice::StreamKind;
use crate::event::{Modifier, Visibility};
use crate::geometry::{Point, TerrainTag, point_to_bases};

/// House rule: the range (cm) at which `obs` sees `target` for an average
/// die of `die`: the die plus the difference of field crafts, with the
/// modifiers the source's cut-off list would give (house rule, each
/// [`OBSERVE_MODIFIER`] cm), read in cm as written.
pub fn range(s: &State, obs: &Unit, target: &Unit, die: u32) -> (f64, Vec<Modifier>) {
    let mut m = vec![Modifier {
        why: "field craft, observer less target".into(),
        value: obs.troop.rating().fc - target.troop.rating().fc,
    }];
    m.extend(observer_modifiers(s, obs));
    if s.ground(target.at).any(|t| t.has(TerrainTag::Town)) {
        m.push(Modifier {
            why: "target in buildings".into(),
            value: -OBSERVE_MODIFIER,
        });
    }
    if target.formation.shape(target.figures()).1 > 1 && !target.troop.open_order() {
        m.push(Modifier {
            why: "target in close order".into(),
            value: OBSERVE_MODIFIER,
        });
    }
    (reach(die, &m), m)
}

/// The modifiers that hang on the observer alone, so that they may be told
/// when nothing is found without saying anything of what was not.
fn observer_modifiers(s: &State, obs: &Unit) -> Vec<Modifier> {
    let mut m = Vec::new();
    if s.ground(obs.at).any(|t| t.has(TerrainTag::Hill)) {
        m.push(Modifier {
            why: "observer on a hill".into(),
            value: OBSERVE_MODIFIER,
        });
    }
    m
}

/// The range of a die with its modifiers: "the resulting total gives the
/// range in cm", never below 0.
fn reach(die: u32, m: &[Modifier]) -> f64 {
    let total = die as i32 + m.iter().map(|x| x.value).sum::<i32>();
    f64::from(total.max(0))
}

/// What the range told when nothing is found is measured against.
pub const NOTHING_FOUND_RANGE: &str =
    "against an enemy of its own field craft, in the open, not in close order";

/// Whether `target` lies (in part) within the area round `at`.
pub fn in_area(target: &Unit, at: Point) -> bool {
    crate::geometry::within(
        point_to_bases(at, &[target.base()]).get(),
        OBSERVE_ACROSS / 2.0,
    )
}

/// Phase 1: one test per observing unit, always rolled.
pub fn observe(st: &mut Step, unit: &str, at: Point) {
    let Some(obs) = st.s.unit(unit).cloned() else {
        return;
    };
    if !obs.live() {
        return;
    }
    // Always rolled, and always on the hidden stream: nothing public counts it.
    let r = st.average_on(
        StreamKind::Hidden,
        &format!(
            "{} observation test: average die, the higher the farther it sees",
            obs.name
        ),
    );
    let candidates: Vec<Unit> =
        st.s.units
            .iter()
            .filter(|e| e.live() && e.side != obs.side && in_area(e, at))
            .filter(|e| !st.s.unit_sees(&obs, e))
            .cloned()
            .collect();
    let mut found = Vec::new();
    // The range told is the one the test used: against the first unit
    // found, with its modifiers; when nothing is found, only the
    // observer's own modifiers, since any other would tell of what was not
    // found (house rule, see the doc).
    let mut used: Option<(f64, Vec<Modifier>)> = None;
    for e in &candidates {
        let (reach_cm, m) = range(&st.s, &obs, e, r.value);
        let gap = st.s.gap(&obs, e);
        if crate::geometry::within(gap, reach_cm) && st.s.sight(&obs, e) {
            found.push(e.id.clone());
            let spot =
                st.s.spotted
                    .entry(obs.side.clone())
                    .or_default()
                    .entry(e.id.clone())
                    .or_insert(Spot {
                        at: e.at,
                        by: Vec::new(),
                    });
            if !spot.by.contains(&obs.id) {
                spot.by.push(obs.id.clone());
            }
            used.get_or_insert((reach_cm, m));
        }
    }
    if let Some(first) = found.first() {
        st.found.insert(unit.to_string(), first.clone());
    }
    let mut f = st.facts(unit, None);
    f.to = Some(at);
    f.rolls = vec![r.value];
    f.units = found.iter().filter_map(|id| st.uref(id)).collect();
    let (seen_cm, shown) = used.unwrap_or_else(|| {
        f.notes.push(NOTHING_FOUND_RANGE.into());
        let m = observer_modifiers(&st.s, &obs);
        (reach(r.value, &m), m)
    });
    f.distance = Some(seen_cm);
    f.modifiers = shown;
    f.result = Some(if found.is_empty() { "nothing" } else { "found" }.into());
    // The observer learns only the result, never the die or the range it
    // saw (which would tell how far off a unit not found may stand); the
    // umpire's copy keeps both, for the audit once the game is over.
    let told = crate::event::Facts {
        rolls: Vec::new(),
        distance: None,
        modifiers: Vec::new(),
        notes: Vec::new(),
        ..f.clone()
    };
    let umpire = words::to(Visibility::Umpire, Said::Observe, f, vec![r.index]);
    let observer = words::to(
        Visibility::Side(obs.side.clone()),
        Said::Observe,
        told,
        Vec::new(),
    );
    st.events.push(observer);
    st.events.push(umpire);
}

/// Units in base contact find each other: each side now knows where the
/// other's unit is, as after a bump, so a fight is told to both sides.
pub fn touch(st: &mut Step, unit: &str, enemy: &str) {
    let (Some(u), Some(e)) = (st.s.unit(unit).cloned(), st.s.unit(enemy).cloned()) else {
        return;
    };
    if st.s.sees(&u.side, &e) {
        return;
    }
    st.s.spotted.entry(u.side.clone()).or_default().insert(
        e.id.clone(),
        Spot {
            at: e.at,
            by: vec![u.id.clone()],
        },
    );
}

/// A found unit that sets off is lost at once to each side that knew it
/// only by its find: its move, its dice and its deductions (whose count
/// would tell of another hidden unit on its way) are its own side's; the
/// finder learns only that it has gone, from where it was found.
pub fn slip(st: &mut Step, unit: &str) {
    let Some(u) = st.s.unit(unit).cloned() else {
        return;
    };
    let finders: Vec<_> =
        st.s.spotted
            .iter()
            .filter(|(_, m)| m.contains_key(unit))
            .map(|(side, _)| side.clone())
            .collect();
    for side in finders {
        let Some(spot) = st.s.spotted.get_mut(&side).and_then(|m| m.remove(unit)) else {
            continue;
        };
        if st.s.sees(&side, &u) {
            continue;
        }
        lost_to(st, &side, spot.at);
    }
}

/// Tell `side` alone that the enemy it found at `at` is lost to view.
fn lost_to(st: &mut Step, side: &crate::side::SideId, at: Point) {
    let f = crate::event::Facts {
        side: Some(side.clone()),
        to: Some(at),
        round: Some(st.n),
        ..Default::default()
    };
    let e = words::to(
        Visibility::Side(side.clone()),
        Said::LostToView,
        f,
        Vec::new(),
    );
    st.events.push(e);
}

/// A found unit that has moved from where it was found is lost to the
/// side that found it, unless that side still sees it; that side is told
/// where it lost it, without a name (it no longer knows which unit it is).
pub fn lose_track(st: &mut Step, unit: &str) {
    let Some(u) = st.s.unit(unit).cloned() else {
        return;
    };
    let sides: Vec<_> = st.s.spotted.keys().cloned().collect();
    for side in sides {
        let Some(spot) = st.s.spotted.get(&side).and_then(|m| m.get(unit)).cloned() else {
            continue;
        };
        if u.live() && u.at.distance_to(spot.at).get() < 0.5 {
            continue;
        }
        if let Some(m) = st.s.spotted.get_mut(&side) {
            m.remove(unit);
        }
        if u.live() && st.s.sees(&side, &u) {
            continue;
        }
        lost_to(st, &side, spot.at);
    }
}

/// At the end of a move: every found unit that has moved is lost.
pub fn forget_moved(st: &mut Step) {
    let ids: Vec<String> = st.s.units.iter().map(|u| u.id.clone()).collect();
    for id in ids {
        lose_track(st, &id);
    }
}
