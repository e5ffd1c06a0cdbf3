//! A plain-minded general for the battle demo: it writes each side's orders
//! from what it sees, as a player would, and lets the ruleset's own check
//! weed out anything illegal (falling back to a simpler order).
//!
//! It advances straight at the enemy, charges what stands directly ahead,
//! rallies what is worn, shoots whenever it can, and keeps its CinC close.

use crate::geometry::{Frame, Point, any_part_directly_in_front, bases_distance};
use crate::ruleset::Ruleset;
use crate::rulesets::maurice_lite::MauriceLite;
use crate::rulesets::maurice_lite::orders::{
    Activation, CardChoice, CardPolicy, ChargeOrder, CincMove, Command, Orders, RoundOrders, Step,
    Sweep, UnitMove,
};
use crate::rulesets::maurice_lite::reactions::{On, Play, Reactions};
use crate::rulesets::maurice_lite::state::State;
use crate::rulesets::maurice_lite::units::{Arm, Formation, Unit};
use crate::side::{SideId, Sides};

fn fewest() -> Option<CardChoice> {
    Some(CardChoice::Policy(CardPolicy::Fewest))
}

fn round(command: Command, cinc: Option<CincMove>) -> Orders {
    Orders::Round(RoundOrders {
        volleys: true.into(),
        fire_order: Sweep::LeftToRight,
        aims: Vec::new(),
        command: Some(command),
        modify: Vec::new(),
        cinc,
        discard: Vec::new(),
        if_displaced_discard: None,
    })
}

fn legal(s: &State, side: &SideId, o: &Orders) -> bool {
    MauriceLite.check(s, side, o).is_empty()
}

/// The orders of the active side for this round.
pub fn round_orders(s: &State, side: &SideId) -> Orders {
    let m = s.scenario.measure;
    let mine: Vec<&Unit> = s.live_units(side).collect();
    let enemies: Vec<&Unit> = s.enemies(side).collect();
    let cinc = keep_cinc_close(s, side, &mine);
    let mut candidates: Vec<Command> = Vec::new();
    // Charge whatever stands directly ahead and close.
    for u in mine
        .iter()
        .filter(|u| u.arm != Arm::Artillery && u.formation != Formation::Column && u.disruption < 3)
    {
        let frame = Frame::of(&u.bases(&m));
        let target = enemies
            .iter()
            .filter(|e| !(u.arm == Arm::Infantry && e.arm == Arm::Cavalry))
            .find(|e| {
                let eb = e.bases(&m);
                any_part_directly_in_front(&frame, &eb)
                    && bases_distance(&u.bases(&m), &eb).get() <= 3.5
            });
        if let Some(t) = target {
            candidates.push(Command::Charge(Activation {
                force: vec![u.id.clone()],
                cards: fewest(),
                charges: vec![ChargeOrder {
                    unit: u.id.clone(),
                    wheel: None,
                    target: Some(t.id.clone()),
                }],
                ..Activation::default()
            }));
        }
    }
    // Rally the most worn unit.
    if let Some(u) = mine
        .iter()
        .filter(|u| u.disruption >= 2)
        .max_by_key(|u| u.disruption)
    {
        candidates.push(Command::Rally(Activation {
            force: vec![u.id.clone()],
            cards: fewest(),
            ..Activation::default()
        }));
    }
    // Bombard with guns that have nothing close.
    for u in mine.iter().filter(|u| u.arm == Arm::Artillery && !u.smoke) {
        candidates.push(Command::Bombard(Activation {
            force: vec![u.id.clone()],
            cards: fewest(),
            ..Activation::default()
        }));
    }
    // Advance the unit farthest from the enemy, as far as the rules allow.
    let mut by_distance: Vec<(&Unit, f64)> = mine
        .iter()
        .filter(|u| u.arm != Arm::Artillery)
        .map(|u| {
            let d = enemies
                .iter()
                .map(|e| bases_distance(&u.bases(&m), &e.bases(&m)).get())
                .fold(f64::INFINITY, f64::min);
            (*u, d)
        })
        .filter(|(_, d)| d.is_finite() && *d > 1.2)
        .collect();
    by_distance.sort_by(|a, b| b.1.total_cmp(&a.1));
    for (u, d) in by_distance {
        let mut step = (d - 1.0).min(8.0).floor();
        while step >= 1.0 {
            let mv = UnitMove {
                unit: u.id.clone(),
                steps: vec![Step::Forward(crate::geometry::Distance(step))],
            };
            let c = Command::March(Activation {
                force: vec![u.id.clone()],
                cards: fewest(),
                moves: vec![mv],
                ..Activation::default()
            });
            if legal(s, side, &round(c.clone(), None)) {
                candidates.push(c);
                break;
            }
            step -= 1.0;
        }
    }
    candidates.push(Command::Pass);
    for c in candidates {
        let with_cinc = round(c.clone(), cinc.clone());
        if legal(s, side, &with_cinc) {
            return with_cinc;
        }
        let plain = round(c, None);
        if legal(s, side, &plain) {
            return plain;
        }
    }
    round(Command::Pass, None)
}

/// Move the CinC behind the army's centre when he falls far behind it.
fn keep_cinc_close(s: &State, side: &SideId, mine: &[&Unit]) -> Option<CincMove> {
    let at = s.army(side)?.cinc?;
    let anchors: Vec<Point> = mine.iter().filter_map(|u| u.anchor).collect();
    if anchors.is_empty() || s.army(side)?.hand.len() < 3 {
        return None;
    }
    let n = anchors.len() as f64;
    let centre = anchors
        .iter()
        .fold(Point::default(), |a, p| a + *p)
        .scale(1.0 / n);
    if at.distance_to(centre).get() < 6.0 {
        return None;
    }
    let home = if s.scenario.side_index(side) == Some(0) {
        -3.0
    } else {
        3.0
    };
    Some(CincMove {
        to: Point::new(centre.x, centre.y + home),
        discard: None,
    })
}

/// Standing reactions from what is in hand: shoot back with everything,
/// spoil the enemy's shooting, and delay a charge.
pub fn reactions(s: &State, side: &SideId) -> Orders {
    let hand = s.army(side).map(|a| a.hand.clone()).unwrap_or_default();
    let mut r = Reactions::default();
    for c in &hand {
        let Some(card) = s.deck.card(c) else { continue };
        use crate::rulesets::maurice_lite::deck::Effect;
        let play = |on| Play {
            card: c.clone(),
            on,
            near: None,
            within: None,
            unit: None,
        };
        match card.effect {
            Some(Effect::AddActivationDistance(_)) => r.interrupts.push(play(On::Charge)),
            Some(Effect::FireFirst) => r.interrupts.push(play(On::Volleys)),
            Some(Effect::EnemyToHit(_)) | Some(Effect::OwnToHit(_)) if card.symbol.is_some() => {
                let on = match card.symbol {
                    Some(crate::rulesets::maurice_lite::deck::Symbol::Bombard) => On::Bombard,
                    _ => On::Volleys,
                };
                r.modifiers.push(play(on));
            }
            _ => {}
        }
    }
    let o = Orders::Reactions(r);
    if legal(s, side, &o) {
        o
    } else {
        Orders::Reactions(Reactions::default())
    }
}
