//! Checking orders on receipt: what could never be legal is refused with
//! the rule it breaks; what the dice may still change is left to the turn.

use super::fire::{barrier, cannot_combine, range_modifier};
use super::fire_bar::{Bar, longest};
use super::movement::{ROAD, allowance, explain, turns};
use super::orders::{Controlled, Decision, Deployment, Orders, Reactions, TurnOrders, length};
use super::sight::on_road;
use super::state::{Phase, State, Unit};
use super::tables::Arm;
use crate::geometry::bases_distance;
use crate::ruleset::Violation;
use crate::side::{SideId, Sides};
use std::collections::BTreeSet;

pub const SEQUENCE: &str = "Sequence of Play: whole turns, one side phasing";
pub const OWN: &str = "Sequence of Play: order only your own live units";
pub const ONCE: &str = "Sequence of Play: a unit moves once in the movement phase";
pub const FORMATION: &str = "Formations: infantry square/skirmish/column/line/deployed, cavalry line/column, artillery limbered/unlimbered";
pub const DISTANCE: &str =
    "Movement Factors: the table's distance, halved for a change of facing or formation";
pub const CHARGE: &str = "Charge Phase: only cavalry make charge moves, at an enemy";
pub const CONTROLLED: &str =
    "Cavalry Control Table, controlled: stay, or another move or charge move";
pub const FIRE: &str = "Fire Combat: units with a fire mod fire at an enemy; two batteries combine";
pub const FIRE_ONCE: &str =
    "Fire Combat: each unit fires once a phase, a battery combining its fire mod included";
pub const GENERALS: &str = "Divisional generals: they work for units of their own corps";
pub const WITHDRAW: &str = "Movement special cases: cavalry withdrawal is for cavalry";
pub const WITHDRAWAL: &str = "Movement special cases: cavalry withdrawal, when enemy infantry or artillery move within 10 cm";
pub const SQUARE: &str =
    "Defensive Fire Phase: infantry not contacted by cavalry form square, or fire, not both";
pub const SPENT: &str = "Corps Fatigue: a corps with no chips left may not move towards known enemies without a leader attached";
pub const ZONE: &str = "House rule: each side sets up within its deployment zone";

/// The refusals of one orders file, each with its path, unit and rule.
struct Refusals<'a> {
    s: &'a State,
    side: &'a SideId,
    out: Vec<Violation>,
}

impl<'a> Refusals<'a> {
    fn new(s: &'a State, side: &'a SideId) -> Self {
        Refusals {
            s,
            side,
            out: Vec::new(),
        }
    }

    /// Refuse entry `path` for `unit`, naming `rule`.
    fn refuse(&mut self, path: &[&str], unit: &str, rule: &str, msg: impl Into<String>) {
        self.out.push(Violation::new(path, Some(unit), rule, msg));
    }

    /// The side's own live unit `id`, or a refusal of entry `path`.
    fn own(&mut self, path: &[&str], id: &str) -> Option<&'a Unit> {
        let u = self.s.unit(id).filter(|u| u.live() && &u.side == self.side);
        if u.is_none() {
            self.refuse(path, id, OWN, format!("{id} is not one of your units"));
        }
        u
    }

    /// Refuse entry `path` unless `target` is a live enemy unit.
    fn enemy(&mut self, path: &[&str], unit: &str, target: &str, rule: &str) {
        if self
            .s
            .unit(target)
            .is_none_or(|e| !e.live() || &e.side == self.side)
        {
            self.refuse(
                path,
                unit,
                rule,
                format!("{target} is not a live enemy unit"),
            );
        }
    }
}

fn sequence(msg: impl Into<String>) -> Vec<Violation> {
    vec![Violation::new(&[], None, SEQUENCE, msg)]
}

pub fn check(s: &State, side: &SideId, o: &Orders) -> Vec<Violation> {
    match (&s.phase, o) {
        (Phase::Over(x), _) => sequence(format!("the game is over ({})", x.reason)),
        (Phase::Setup, Orders::Deploy(d)) => deployment(s, side, d),
        (Phase::Setup, _) => sequence("this step is the setup: send `deploy:` orders"),
        (Phase::Turn { phasing, .. }, Orders::Turn(t)) if phasing == side => turn(s, side, t),
        (Phase::Turn { phasing, .. } | Phase::Decision { phasing, .. }, Orders::Reactions(r))
            if phasing != side =>
        {
            reactions(s, side, r)
        }
        (Phase::Decision { phasing, .. }, Orders::Decide(d)) if phasing != side => {
            decision(s, side, d)
        }
        (Phase::Decision { phasing, .. }, _) if phasing != side => {
            sequence("your decision is owed: send `decide:` orders")
        }
        (Phase::Decision { .. }, _) => {
            sequence("your turn waits for the other side's decision: nothing to send")
        }
        (Phase::Turn { phasing, .. }, _) if phasing == side => {
            sequence("this is your turn: send `turn:` orders")
        }
        (Phase::Turn { .. }, _) => {
            sequence("the other side is phasing: you may send only `reactions:`")
        }
    }
}

fn deployment(s: &State, side: &SideId, d: &Deployment) -> Vec<Violation> {
    let mut r = Refusals::new(s, side);
    let zone = s.scenario.side(side).and_then(|x| x.zone);
    for (i, f) in d.formations.iter().enumerate() {
        let i = i.to_string();
        let path = ["deploy", "formations", i.as_str()];
        let Some(u) = r.own(&path, &f.unit) else {
            continue;
        };
        if !f.formation.fits(u.arm()) {
            r.refuse(
                &path,
                &f.unit,
                FORMATION,
                format!("{} cannot stand in {}", u.troop.label(), f.formation.name()),
            );
            continue;
        }
        let at = f.at.unwrap_or(u.at);
        let bases = s.bases_as(u, at, f.facing.unwrap_or(u.facing), f.formation);
        if let Some(z) = zone
            && !z.holds_bases(&bases)
        {
            r.refuse(
                &path,
                &f.unit,
                ZONE,
                "its bases would not all stand within the side's deployment zone",
            );
        }
    }
    r.out
}

/// Whether unit `id` will have a leader attached once these orders' own
/// attachments are made: one attached now and not sent elsewhere, or one
/// these orders attach to it.
fn leader_after(s: &State, t: &TurnOrders, id: &str) -> bool {
    let sent = |g: &str| t.generals.iter().rev().find(|a| a.general == g);
    s.generals
        .iter()
        .filter(|g| !g.dead)
        .any(|g| match sent(&g.id) {
            Some(a) => a.unit == id,
            None => g.attached.as_deref() == Some(id),
        })
}

fn turn(s: &State, side: &SideId, t: &TurnOrders) -> Vec<Violation> {
    let mut r = Refusals::new(s, side);
    for (i, id) in t.passes.iter().enumerate() {
        let i = i.to_string();
        r.own(&["turn", "passes", i.as_str()], id);
    }
    let mut seen = BTreeSet::new();
    for (i, m) in t.moves.iter().enumerate() {
        let i = i.to_string();
        let path = ["turn", "moves", i.as_str()];
        let Some(u) = r.own(&path, &m.unit) else {
            continue;
        };
        if !seen.insert(m.unit.clone()) {
            r.refuse(&path, &m.unit, ONCE, "this unit is already ordered to move");
        }
        let f = m.formation.unwrap_or(u.formation);
        if !f.fits(u.arm()) {
            r.refuse(
                &path,
                &m.unit,
                FORMATION,
                format!("{} cannot form {}", u.troop.label(), f.name()),
            );
            continue;
        }
        let to = m.to.unwrap_or(u.at);
        let legs = m.path(u.at);
        let off_road = legs.windows(2).position(|w| !on_road(s, w[0], w[1]));
        let road = m.road && off_road.is_none();
        if m.road && !road {
            let why = match off_road {
                Some(n) if !m.via.is_empty() => {
                    format!(
                        "leg {} of the path (via the waypoints to `to`) leaves the road",
                        n + 1
                    )
                }
                _ => "the straight line from where it stands to `to` leaves the road".into(),
            };
            r.refuse(&path, &m.unit, ROAD, why);
        }
        let d = length(&legs);
        let a = allowance(u, f, turns(u, m.facing), road);
        if crate::geometry::limit::beyond(d, a) {
            let what = if m.via.is_empty() {
                ""
            } else {
                " along the path"
            };
            r.refuse(
                &path,
                &m.unit,
                DISTANCE,
                format!(
                    "{d:.1} cm{what} is more than the {a:.1} cm it may move ({}; {:.1} cm too far)",
                    explain(u, f, turns(u, m.facing), road),
                    d - a
                ),
            );
        }
        for (j, w) in m.via.iter().enumerate() {
            if off_table(s, *w) {
                let j = j.to_string();
                r.refuse(
                    &[path[0], path[1], path[2], "via", j.as_str()],
                    &m.unit,
                    DISTANCE,
                    "this waypoint is off the table",
                );
            }
        }
        if off_table(s, to) {
            r.refuse(&path, &m.unit, DISTANCE, "the move ends off the table");
        }
    }
    for (i, a) in t.generals.iter().enumerate() {
        let i = i.to_string();
        let path = ["turn", "generals", i.as_str()];
        match s
            .generals
            .iter()
            .find(|g| g.id == a.general && &g.side == side && !g.dead)
        {
            None => r.refuse(&path, &a.general, GENERALS, "no such live general of yours"),
            Some(g) => {
                if s.unit(&a.unit)
                    .is_none_or(|u| !u.live() || &u.side != side || u.corps != g.corps)
                {
                    r.refuse(
                        &path,
                        &a.general,
                        GENERALS,
                        format!("{} is not a live unit of his corps", a.unit),
                    );
                }
            }
        }
    }
    for (i, c) in t.commanders.iter().enumerate() {
        let i = i.to_string();
        let path = ["turn", "commanders", i.as_str()];
        match s.corps.iter().find(|x| x.id == c.corps && &x.side == side) {
            None => r.refuse(&path, &c.corps, OWN, "no such corps of yours"),
            Some(x)
                if crate::geometry::limit::beyond(
                    x.at.distance_to(c.to).get(),
                    super::turn::COMMANDER_RIDE,
                ) =>
            {
                r.refuse(
                    &path,
                    &c.corps,
                    "House rule: a corps commander rides at most 60 cm a turn",
                    "too far",
                )
            }
            _ => {}
        }
    }
    for (i, c) in t.charges.iter().enumerate() {
        let i = i.to_string();
        let path = ["turn", "charges", i.as_str()];
        if let Some(u) = r.own(&path, &c.unit) {
            if u.arm() != Arm::Cavalry {
                r.refuse(&path, &c.unit, CHARGE, "only cavalry charge");
            } else if super::fatigue::spent(s, &u.corps) && !leader_after(s, t, &u.id) {
                // Chips are never won back and a charge always goes towards
                // its target, so this is known on receipt.
                r.refuse(
                    &path,
                    &c.unit,
                    SPENT,
                    "its corps has no chips left and no leader is attached to it (a charge moves towards its target); attach a general in `generals:` first",
                );
            }
        }
        r.enemy(&path, &c.unit, &c.target, CHARGE);
        let then = [path[0], path[1], path[2], "if_controlled"];
        match &c.if_controlled {
            Controlled::Charge(t) => r.enemy(&then, &c.unit, t, CONTROLLED),
            Controlled::Move(o) if o.formation.is_some_and(|f| !f.fits(Arm::Cavalry)) => r.refuse(
                &then,
                &c.unit,
                CONTROLLED,
                "cavalry stand in line or column",
            ),
            _ => {}
        }
    }
    let mut fired = BTreeSet::new();
    for (i, f) in t.fire.iter().enumerate() {
        let i = i.to_string();
        let path = ["turn", "fire", i.as_str()];
        once(&mut r, &path, &f.unit, f.with.as_ref(), &mut fired);
        match r.own(&path, &f.unit) {
            Some(u) if u.mods().fire.is_none() => {
                r.refuse(&path, &f.unit, FIRE, "this unit does not fire")
            }
            Some(u) => {
                if let Some(w) = &f.with
                    && (u.arm() != Arm::Artillery
                        || s.unit(w).is_none_or(|x| {
                            !x.live() || &x.side != side || x.arm() != Arm::Artillery
                        }))
                {
                    r.refuse(
                        &path,
                        &f.unit,
                        FIRE,
                        "only two of your batteries combine their fire",
                    );
                }
            }
            None => {}
        }
        r.enemy(&path, &f.unit, &f.target, FIRE);
        // Known now: a firer (or second battery) ordered no move fires from
        // where it stands, so a target beyond its range stays beyond it.
        if let Some(e) = s.unit(&f.target).filter(|e| e.live() && &e.side != side) {
            for id in std::iter::once(&f.unit).chain(&f.with) {
                if let Some(u) = s.unit(id).filter(|u| u.live() && &u.side == side)
                    && u.mods().fire.is_some()
                    && !t.moves.iter().any(|m| &m.unit == id)
                    && let Some(why) = out_of_range(s, u, e)
                {
                    r.refuse(&path, id, FIRE, why);
                }
            }
        }
    }
    r.out
}

/// Why `f` may not fire at `t` for range alone, with the distance, the
/// longest range and how much too far, as the turn would say it.
fn out_of_range(s: &State, f: &Unit, t: &Unit) -> Option<String> {
    let distance = bases_distance(&s.bases(f), &s.bases(t)).get();
    range_modifier(f, distance)
        .is_none()
        .then(|| {
            let (range, band) = longest(f);
            Bar::Range {
                distance,
                range,
                band,
            }
            .say(&t.name)
        })
        .map(|why| format!("{why}; it has no move this turn, so it fires from where it stands"))
}

/// Each unit fires once in a phase: as the firer or as the battery that
/// combines with it (not with itself). `fired` gathers those named so far.
fn once(
    r: &mut Refusals,
    path: &[&str],
    unit: &str,
    with: Option<&String>,
    fired: &mut BTreeSet<String>,
) {
    if !fired.insert(unit.to_string()) {
        r.refuse(path, unit, FIRE_ONCE, "this unit already fires");
    }
    match with {
        Some(w) if w == unit => r.refuse(
            path,
            unit,
            FIRE_ONCE,
            "a battery combines with another battery, not with itself",
        ),
        Some(w) if !fired.insert(w.clone()) => r.refuse(
            path,
            w,
            FIRE_ONCE,
            format!("{w} already fires: a battery combines or fires, once"),
        ),
        _ => {}
    }
}

fn off_table(s: &State, p: crate::geometry::Point) -> bool {
    p.x < 0.0
        || p.y < 0.0
        || p.x > s.scenario.table.width.get()
        || p.y > s.scenario.table.height.get()
}

fn reactions(s: &State, side: &SideId, x: &Reactions) -> Vec<Violation> {
    let mut r = Refusals::new(s, side);
    for (i, id) in x.withdraw.iter().enumerate() {
        let i = i.to_string();
        let path = ["reactions", "withdraw", i.as_str()];
        if let Some(u) = r.own(&path, id)
            && u.arm() != Arm::Cavalry
        {
            r.refuse(&path, id, WITHDRAW, "not cavalry");
        }
    }
    for (i, id) in x.hold_fire.iter().enumerate() {
        let i = i.to_string();
        r.own(&["reactions", "hold_fire", i.as_str()], id);
    }
    // Each battery in one pair at most; where they stand is judged when
    // the other side's turn comes.
    let mut paired = BTreeSet::new();
    for (i, c) in x.combine.iter().enumerate() {
        let i = i.to_string();
        let path = ["reactions", "combine", i.as_str()];
        for id in [&c.unit, &c.with] {
            if let Some(u) = r.own(&path, id)
                && u.arm() != Arm::Artillery
            {
                r.refuse(&path, id, FIRE, "only two batteries combine their fire");
            }
        }
        once(&mut r, &path, &c.unit, Some(&c.with), &mut paired);
        if x.hold_fire.contains(&c.with) {
            r.refuse(
                &path,
                &c.with,
                FIRE,
                "this battery holds its fire (`hold_fire`): it does not combine either",
            );
        }
    }
    r.out
}

/// A decision at the pause: only cavalry the movement set off withdraw, each
/// once; each unit forms square or fires, not both; the state is the paused
/// turn's, so the fire is checked whole.
fn decision(s: &State, side: &SideId, d: &Decision) -> Vec<Violation> {
    let mut r = Refusals::new(s, side);
    if d.standing && !(d.square.is_empty() && d.fire.is_empty()) {
        r.out.push(Violation::new(
            &["decide", "standing"],
            None,
            SQUARE,
            "with `standing: true` the standing reactions decide: name no units",
        ));
    }
    if d.standing && !d.withdraw.is_empty() {
        r.out.push(Violation::new(
            &["decide", "standing"],
            None,
            WITHDRAWAL,
            "with `standing: true` the standing reactions choose the withdrawals: name no units",
        ));
    }
    let (engaged, set_off) = match &s.phase {
        Phase::Decision { pending, .. } => (pending.locked.clone(), pending.withdrawals.clone()),
        _ => (Vec::new(), Vec::new()),
    };
    let mut named = BTreeSet::new();
    for (i, id) in d.withdraw.iter().enumerate() {
        let i = i.to_string();
        let path = ["decide", "withdraw", i.as_str()];
        if r.own(&path, id).is_none() {
            continue;
        }
        if !named.insert(id.clone()) {
            r.refuse(
                &path,
                id,
                WITHDRAWAL,
                "this unit is already named to withdraw",
            );
        } else if !set_off.iter().any(|w| &w.unit == id) {
            r.refuse(
                &path,
                id,
                WITHDRAWAL,
                "no enemy infantry or artillery came within 10 cm of this cavalry this movement phase (or it is now shaken or in contact)",
            );
        }
    }
    for (i, id) in d.square.iter().enumerate() {
        let i = i.to_string();
        let path = ["decide", "square", i.as_str()];
        let Some(u) = r.own(&path, id) else {
            continue;
        };
        if let Some(why) = super::fire_phases::cannot_square(s, u) {
            r.refuse(&path, id, SQUARE, why);
        }
        if d.fire.iter().any(|f| &f.unit == id) {
            r.refuse(&path, id, SQUARE, "a unit forms square or fires, not both");
        }
    }
    let mut seen = BTreeSet::new();
    for (i, f) in d.fire.iter().enumerate() {
        let i = i.to_string();
        let path = ["decide", "fire", i.as_str()];
        once(&mut r, &path, &f.unit, f.with.as_ref(), &mut seen);
        let Some(u) = r.own(&path, &f.unit) else {
            continue;
        };
        if engaged.contains(&u.id) {
            r.refuse(
                &path,
                &f.unit,
                FIRE,
                "units that remain in melee from the last turn neither fire nor are fired upon",
            );
            continue;
        }
        match s.unit(&f.target).filter(|e| e.live() && &e.side != side) {
            None => r.enemy(&path, &f.unit, &f.target, FIRE),
            Some(e) => {
                if let Some(why) = barrier(s, u, e, &engaged) {
                    r.refuse(&path, &f.unit, FIRE, why);
                }
                if let Some(w) = &f.with
                    && let Some(wu) = r.own(&path, w)
                {
                    if let Some(why) = cannot_combine(s, u, wu, e, &engaged) {
                        r.refuse(&path, w, FIRE, why);
                    }
                    if d.square.contains(w) {
                        r.refuse(&path, w, SQUARE, "a unit forms square or fires, not both");
                    }
                }
            }
        }
    }
    r.out
}
