//! The orders template's example entries: each built from the state as an
//! order a unit could be given now, and kept only if the receipt check
//! takes it alone, so a player who uncomments one never gets orders refused.
//! Each entry is written as the line it is under its list key (without the
//! `- `), with a comment saying why it is offered.

use super::charge::{ahead, reach};
use super::check::check;
use super::fatigue;
use super::fire::barrier;
use super::fire_bar::bar;
use super::fire_phases::cannot_square;
use super::formation::Formation;
use super::movement::allowance;
use super::options::ahead_of;
use super::orders::{
    Attach, ChargeOrder, Combine, Controlled, Decision, Deployment, FireOrder, FormationChoice,
    Move, Orders, Reactions, Ride, Shot, TurnOrders,
};
use super::rally::PASS_RADIUS;
use super::state::{Phase, State, Unit};
use super::tables::Arm;
use super::turn::COMMANDER_RIDE;
use crate::geometry::{Distance, Point, within_radius};
use crate::side::SideId;
use crate::yaml::{quoted, scalar};

/// Entries shown under one key: enough to show the form, few enough that a
/// big battle's template stays short.
const MOST: usize = 8;
/// Units (or generals, corps) looked at for one key: each costs a check and
/// some measuring, so a big battle's template stops here.
const TRIES: usize = 24;

/// One candidate entry: the orders holding it alone, and its line.
type Candidate = (Orders, String);

/// The lines of the candidates the check takes, at most [`MOST`], from the
/// first [`TRIES`] items; each item offers its candidates best first, and
/// the first one taken stands for it.
fn keep<I, F>(s: &State, side: &SideId, items: I, offer: F) -> Vec<String>
where
    I: Iterator,
    F: Fn(I::Item) -> Vec<Candidate>,
{
    let mut out = Vec::new();
    for item in items.take(TRIES) {
        if out.len() >= MOST {
            break;
        }
        let taken = offer(item)
            .into_iter()
            .find(|(o, _)| check(s, side, o).is_empty());
        if let Some((_, line)) = taken {
            out.push(line);
        }
    }
    out
}

/// `x` to one decimal, as the template prints it and reads back.
fn tenth(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

fn point(p: Point) -> String {
    format!("{{x: {:.1}, y: {:.1}}}", p.x, p.y)
}

/// Another formation it could take in place: the usual alternative of its
/// arm, or line for a square.
fn other_formation(u: &Unit) -> Formation {
    match (u.arm(), u.formation) {
        (Arm::Artillery, Formation::Limbered) => Formation::Unlimbered,
        (Arm::Artillery, _) => Formation::Limbered,
        (_, Formation::Column) => Formation::Line,
        _ => Formation::Column,
    }
}

/// Setup: a unit changing formation where the scenario puts it.
pub fn formations(s: &State, side: &SideId) -> Vec<String> {
    keep(s, side, s.live(side), |u| {
        let f = other_formation(u);
        let choice = FormationChoice {
            unit: u.id.clone(),
            formation: f,
            at: None,
            facing: None,
        };
        let o = Orders::Deploy(Deployment {
            formations: vec![choice],
        });
        vec![(
            o,
            format!("{{unit: {}, formation: {}}}", scalar(&u.id), f.name()),
        )]
    })
}

fn turn(t: TurnOrders) -> Orders {
    Orders::Turn(t)
}

/// Rally: a disordered unit not in melee, its corps commander within reach
/// with passes left.
pub fn passes(s: &State, side: &SideId) -> Vec<String> {
    let shaken = s
        .live(side)
        .filter(|u| u.shaken() && s.contacts(u).is_empty());
    keep(s, side, shaken, |u| {
        let bases = s.bases(u);
        let Some(c) = s.corps.iter().find(|c| {
            c.id == u.corps && c.passes > 0 && within_radius(c.at, &bases, Distance(PASS_RADIUS))
        }) else {
            return Vec::new();
        };
        let o = turn(TurnOrders {
            passes: vec![u.id.clone()],
            ..TurnOrders::default()
        });
        let line = format!(
            "{}   # {} ({}) has {} passes, within {PASS_RADIUS:.0} cm",
            scalar(&u.id),
            quoted(&c.commander),
            scalar(&c.id),
            c.passes
        );
        vec![(o, line)]
    })
}

/// Movement: straight ahead within its allowance, or (for a square, which
/// may not advance on an enemy it sees, or a unit of a spent corps without
/// a leader, which may not go towards the enemy) a change of formation
/// where it stands.
pub fn moves(s: &State, side: &SideId) -> Vec<String> {
    let free = s
        .live(side)
        .filter(|u| !u.shaken() && s.contacts(u).is_empty());
    keep(s, side, free, |u| {
        let mut out = Vec::new();
        let held = u.formation == Formation::Square
            || (fatigue::spent(s, &u.corps) && !s.leader_attached(u));
        let a = allowance(u, u.formation, false, false);
        // Its whole move to a tenth, or a tenth less when the point written
        // to a tenth lands beyond it.
        let whole = (a * 10.0).floor() / 10.0;
        for d in [whole, whole - 0.1] {
            if held || d <= 0.0 {
                break;
            }
            let to = u.at + u.facing.unit_vector().scale(d);
            let to = Point::new(tenth(to.x), tenth(to.y));
            out.push((
                one_move(u, Some(to), None),
                format!(
                    "{{unit: {}, to: {}}}   # {d:.1} cm straight ahead",
                    scalar(&u.id),
                    point(to)
                ),
            ));
        }
        let f = other_formation(u);
        if f.fits(u.arm()) {
            out.push((
                one_move(u, None, Some(f)),
                format!(
                    "{{unit: {}, formation: {}}}   # where it stands",
                    scalar(&u.id),
                    f.name()
                ),
            ));
        }
        out
    })
}

fn one_move(u: &Unit, to: Option<Point>, formation: Option<Formation>) -> Orders {
    turn(TurnOrders {
        moves: vec![Move {
            unit: u.id.clone(),
            to,
            via: Vec::new(),
            facing: None,
            formation,
            road: false,
        }],
        ..TurnOrders::default()
    })
}

/// Divisional generals: joining another unit he serves.
pub fn generals(s: &State, side: &SideId) -> Vec<String> {
    let mine = s.generals.iter().filter(|g| &g.side == side && !g.dead);
    keep(s, side, mine, |g| {
        let Some(u) = s
            .live(side)
            .find(|u| g.serves(u) && g.attached.as_deref() != Some(u.id.as_str()))
        else {
            return Vec::new();
        };
        let o = turn(TurnOrders {
            generals: vec![Attach {
                general: g.id.clone(),
                unit: u.id.clone(),
            }],
            ..TurnOrders::default()
        });
        let line = format!(
            "{{general: {}, unit: {}}}   # {}",
            scalar(&g.id),
            scalar(&u.id),
            quoted(&g.name)
        );
        vec![(o, line)]
    })
}

/// Corps commanders: riding to a disordered unit of his corps (where a
/// pass may reach it next turn), else to his corps' first unit.
pub fn commanders(s: &State, side: &SideId) -> Vec<String> {
    let mine = s.corps.iter().filter(|c| &c.side == side);
    keep(s, side, mine, |c| {
        let corps = || s.live(side).filter(|u| u.corps == c.id);
        let Some(u) = corps().find(|u| u.shaken()).or_else(|| corps().next()) else {
            return Vec::new();
        };
        let to = Point::new(tenth(u.at.x), tenth(u.at.y));
        if c.at.distance_to(to).get() > COMMANDER_RIDE {
            return Vec::new();
        }
        let o = turn(TurnOrders {
            commanders: vec![Ride {
                corps: c.id.clone(),
                to,
            }],
            ..TurnOrders::default()
        });
        let line = format!(
            "{{corps: {}, to: {}}}   # {} to {}",
            scalar(&c.id),
            point(to),
            quoted(&c.commander),
            scalar(&u.id)
        );
        vec![(o, line)]
    })
}

/// Charges: cavalry free to charge, at the nearest enemy its charge move
/// reaches straight ahead.
pub fn charges(s: &State, side: &SideId) -> Vec<String> {
    let horse = s
        .live(side)
        .filter(|u| u.arm() == Arm::Cavalry && !u.shaken() && s.contacts(u).is_empty());
    keep(s, side, horse, |u| {
        let far = reach(u.troop.light());
        let Some((d, e)) = s
            .enemies(side)
            .filter(|e| s.gap_at_least(u, e) <= far)
            .filter_map(|e| ahead(s, u, e).map(|d| (d, e)))
            .filter(|(d, _)| crate::geometry::limit::within(*d, far))
            .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.id.cmp(&b.1.id)))
        else {
            return Vec::new();
        };
        let o = turn(TurnOrders {
            charges: vec![ChargeOrder {
                unit: u.id.clone(),
                target: e.id.clone(),
                if_controlled: Controlled::Stay,
            }],
            ..TurnOrders::default()
        });
        let line = format!(
            "{{unit: {}, target: {}}}   # {d:.1} cm straight ahead",
            scalar(&u.id),
            scalar(&e.id)
        );
        vec![(o, line)]
    })
}

/// Advancing fire: at the nearest enemy ahead it may fire at, as it stands.
pub fn fire(s: &State, side: &SideId) -> Vec<String> {
    let firers = s.live(side).filter(|u| {
        u.mods().fire.is_some() && u.formation != Formation::Limbered && s.contacts(u).is_empty()
    });
    keep(s, side, firers, |u| {
        let (near, _) = ahead_of(s, u);
        let Some((d, e)) = near.into_iter().find(|(_, e)| bar(s, u, e, &[]).is_none()) else {
            return Vec::new();
        };
        let o = turn(TurnOrders {
            fire: vec![FireOrder {
                unit: u.id.clone(),
                target: e.id.clone(),
                with: None,
            }],
            ..TurnOrders::default()
        });
        let line = format!(
            "{{unit: {}, target: {}}}   # {d:.1} cm, from where it stands now",
            scalar(&u.id),
            scalar(&e.id)
        );
        vec![(o, line)]
    })
}

/// Standing reactions naming one unit: cavalry that withdraw, or a unit
/// that holds its fire.
pub fn reactions(s: &State, side: &SideId, withdraw: bool) -> Vec<String> {
    let units = s.live(side).filter(|u| {
        if withdraw {
            u.arm() == Arm::Cavalry
        } else {
            u.mods().fire.is_some()
        }
    });
    keep(s, side, units, |u| {
        let one = vec![u.id.clone()];
        let r = if withdraw {
            Reactions {
                withdraw: one,
                ..Reactions::default()
            }
        } else {
            Reactions {
                hold_fire: one,
                ..Reactions::default()
            }
        };
        vec![(
            Orders::Reactions(r),
            format!("{}   # {}", scalar(&u.id), quoted(&u.name)),
        )]
    })
}

/// Another live battery of the side in contact with battery `u`, which
/// could combine its fire with `u`'s.
fn partner<'a>(s: &'a State, u: &Unit) -> Option<&'a Unit> {
    if u.arm() != Arm::Artillery {
        return None;
    }
    s.live(&u.side)
        .find(|w| w.id != u.id && w.arm() == Arm::Artillery && s.gap(u, w) <= super::state::CONTACT)
}

/// Standing reactions: a battery and another in contact with it that
/// combine their defensive fire.
pub fn combines(s: &State, side: &SideId) -> Vec<String> {
    let batteries = s.live(side).filter(|u| u.arm() == Arm::Artillery);
    keep(s, side, batteries, |u| {
        let Some(w) = partner(s, u) else {
            return Vec::new();
        };
        let r = Reactions {
            combine: vec![Combine {
                unit: u.id.clone(),
                with: w.id.clone(),
            }],
            ..Reactions::default()
        };
        vec![(
            Orders::Reactions(r),
            format!(
                "{{unit: {}, with: {}}}   # in contact now",
                scalar(&u.id),
                scalar(&w.id)
            ),
        )]
    })
}

fn decide(d: Decision) -> Orders {
    Orders::Decide(d)
}

/// The decision: cavalry the movement set off that withdraw.
pub fn withdrawals(s: &State, side: &SideId) -> Vec<String> {
    let Phase::Decision { pending, .. } = &s.phase else {
        return Vec::new();
    };
    keep(s, side, pending.withdrawals.iter(), |w| {
        let o = decide(Decision {
            withdraw: vec![w.unit.clone()],
            ..Decision::default()
        });
        let line = format!("{}   # from {}", scalar(&w.unit), scalar(&w.by));
        vec![(o, line)]
    })
}

/// The decision: infantry that may form square.
pub fn squares(s: &State, side: &SideId) -> Vec<String> {
    let foot = s.live(side).filter(|u| {
        u.arm() == Arm::Infantry
            && u.formation != Formation::Square
            && cannot_square(s, u).is_none()
    });
    keep(s, side, foot, |u| {
        let o = decide(Decision {
            square: vec![u.id.clone()],
            ..Decision::default()
        });
        vec![(o, format!("{}   # {}", scalar(&u.id), quoted(&u.name)))]
    })
}

/// The decision: defensive fire at the nearest enemy ahead it may fire at.
pub fn shots(s: &State, side: &SideId) -> Vec<String> {
    let Phase::Decision { pending, .. } = &s.phase else {
        return Vec::new();
    };
    let locked = &pending.locked;
    let firers = s
        .live(side)
        .filter(|u| u.mods().fire.is_some() && !locked.contains(&u.id));
    keep(s, side, firers, |u| {
        let (near, _) = ahead_of(s, u);
        let Some((d, e)) = near
            .into_iter()
            .find(|(_, e)| barrier(s, u, e, locked).is_none())
        else {
            return Vec::new();
        };
        let shot = |with: Option<&Unit>| {
            let o = decide(Decision {
                fire: vec![Shot {
                    unit: u.id.clone(),
                    target: e.id.clone(),
                    with: with.map(|w| w.id.clone()),
                }],
                ..Decision::default()
            });
            let line = match with {
                Some(w) => format!(
                    "{{unit: {}, target: {}, with: {}}}   # {d:.1} cm, two batteries combining",
                    scalar(&u.id),
                    scalar(&e.id),
                    scalar(&w.id)
                ),
                None => format!(
                    "{{unit: {}, target: {}}}   # {d:.1} cm",
                    scalar(&u.id),
                    scalar(&e.id)
                ),
            };
            (o, line)
        };
        // Combined first, where a battery in contact may join the shot.
        partner(s, u)
            .map(|w| shot(Some(w)))
            .into_iter()
            .chain([shot(None)])
            .collect()
    })
}
