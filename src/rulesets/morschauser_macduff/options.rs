//! What a side can do now, for its report: which of its companies could
//! shoot at which enemy (B.2, judged as the shooting itself judges a named
//! target: range, sight, cover and the score needed), which enemy could
//! shoot at it, and which companies are close enough to charge (B.3: a move
//! that ends within 3" of the enemy) or already must melee (B.4).

use super::movement::MELEE_RANGE;
use super::shooting::{Shot, judge};
use super::state::{Company, Phase, State};
use crate::geometry::{Bounds, base_distance};
use crate::side::SideId;
use crate::view::Panel;

/// The panel "What you can do now" for `me`; none while the armies deploy
/// or once the game is over.
pub fn panel(s: &State, me: &SideId) -> Option<Panel> {
    if matches!(s.phase, Phase::Deployment | Phase::Over(_)) {
        return None;
    }
    let enemy = s.other(me);
    let mut lines = shots(s, me, "You can shoot");
    lines.extend(shots(s, &enemy, "The enemy can shoot"));
    lines.extend(charges(s, me));
    if lines.is_empty() {
        lines.push("No company in range to shoot or to charge".into());
    }
    Some(Panel {
        title: "What you can do now".into(),
        lines,
    })
}

fn gap(s: &State, a: &Company, b: &Company) -> f64 {
    base_distance(&a.base(&s.scenario), &b.base(&s.scenario)).get()
}

/// The enemy companies `c` could shoot at now, each with the shot as the
/// shooting itself judges it (range, sight, cover, the score needed).
/// The report's lines and the orders page's targets both come from here.
pub fn shot_targets<'a>(s: &'a State, c: &'a Company) -> Vec<(&'a Company, Shot)> {
    let reach = c
        .profile
        .fires
        .iter()
        .map(|f| f.range.get())
        .fold(0.0, f64::max);
    if reach <= 0.0 {
        return Vec::new();
    }
    let area = Bounds::of_base(&c.base(&s.scenario));
    s.enemies_near(&c.side, &area, reach + 1e-9)
        .filter(|e| gap(s, c, e) <= reach + 1e-9)
        .filter_map(|e| judge(s, c, &e.id).ok().map(|shot| (e, shot)))
        .collect()
}

/// For each company of `side` that has a weapon: the enemy companies it
/// could shoot at now, with the score each die needs.
fn shots(s: &State, side: &SideId, lead: &str) -> Vec<String> {
    let mut out = Vec::new();
    for c in s.live(side) {
        let targets: Vec<String> = shot_targets(s, c)
            .into_iter()
            .map(|(e, shot)| {
                format!(
                    "{} [{}] ({:.1}\", {}+)",
                    e.name, e.id, shot.distance, shot.hits_on
                )
            })
            .collect();
        if !targets.is_empty() {
            out.push(format!(
                "{lead}: {} [{}] at {}",
                c.name,
                c.id,
                targets.join(", ")
            ));
        }
    }
    out
}

/// The enemies `c` must melee (already within 3") and, when there are
/// none, those its move could bring it within 3" of (a charge; whether the
/// path is clear is checked when it is ordered), each with the gap now.
pub struct Reachable<'a> {
    pub must: Vec<&'a Company>,
    pub could: Vec<(&'a Company, f64)>,
}

pub fn charge_targets<'a>(s: &'a State, c: &'a Company) -> Reachable<'a> {
    let mut must = Vec::new();
    let mut could = Vec::new();
    let area = Bounds::of_base(&c.base(&s.scenario));
    let reach = c.profile.movement.get() + MELEE_RANGE + 1e-9;
    for e in s.enemies_near(&c.side, &area, reach) {
        let g = gap(s, c, e);
        if g <= MELEE_RANGE + 1e-9 {
            must.push(e);
        } else if g <= c.profile.movement.get() + MELEE_RANGE + 1e-9
            // C.2, C.5: no charge into ground it may not enter.
            && super::melee::barred(s, c, e).is_none()
        {
            could.push((e, g));
        }
    }
    Reachable { must, could }
}

/// Companies of `me` already within 3" of an enemy (they must melee), and
/// those whose move could bring them within 3" of one.
fn charges(s: &State, me: &SideId) -> Vec<String> {
    let mut out = Vec::new();
    for c in s.live(me) {
        let r = charge_targets(s, c);
        if !r.must.is_empty() {
            let must: Vec<String> = r
                .must
                .iter()
                .map(|e| format!("{} [{}]", e.name, e.id))
                .collect();
            out.push(format!(
                "Must melee: {} [{}] is within 3\" of {}",
                c.name,
                c.id,
                must.join(", ")
            ));
        } else if !r.could.is_empty() {
            let could: Vec<String> = r
                .could
                .iter()
                .map(|(e, g)| format!("{} [{}] ({g:.1}\")", e.name, e.id))
                .collect();
            out.push(format!(
                "You can charge: {} [{}] (move {:.0}\") could reach {}",
                c.name,
                c.id,
                c.profile.movement.get(),
                could.join(", ")
            ));
        }
    }
    out
}
