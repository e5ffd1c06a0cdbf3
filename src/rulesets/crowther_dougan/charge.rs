//! Charges, over two moves: declared with their targets at the start of
//! the chargers' move within 150% of a normal move, the chargers' test, a
//! normal move toward the target in phase 4; in the enemy's next move the
//! target's test (stand, and fire if loaded, or rout), fire at the
//! chargers, the charge-home test, and the final move into contact.

use super::morale::{Cause, Res, test, tested};
use super::movement::{charge_reach, closed_on_way, travel};
use super::state::{Charge, Motion, Status, Trace, TraceKind, Unit};
use super::step::Step;
use super::tables::KEEP_OFF;
use super::unseen;
use super::words::Said;

fn told(st: &mut Step, what: Said, unit: &str, target: &str, result: &str) {
    let mut f = st.facts(unit, Some(target));
    f.result = Some(result.into());
    st.say(what, f, Vec::new());
}

/// Step 1: a declared charge, its reach and the chargers' test.
pub fn declare(st: &mut Step, unit: &str, target: &str) {
    let (Some(u), Some(t)) = (st.s.unit(unit).cloned(), st.s.unit(target).cloned()) else {
        return;
    };
    if u.status != Status::Good {
        st.refuse(
            unit,
            "Charge procedure: routing or pursuing units do not charge",
        );
        return;
    }
    // The target is named, and where it stands told, only to a side that
    // knows where it is.
    let known = st.s.sees(&u.side, &t);
    if let Some(why) = unseen::why(&st.s, &u, &t) {
        let mut f = st.facts(unit, known.then_some(target));
        f.reason = Some(if known {
            format!(
                "Charge procedure: the target is not in sight of the charging unit: {}",
                why.words(str::to_string)
            )
        } else {
            "Charge procedure: the target is not in sight of the charging unit".into()
        });
        st.say(Said::Refused, f, Vec::new());
        return;
    }
    let gap = st.s.gap(&u, &t);
    match charge_reach(&st.s, &u, &t) {
        Some(reach) if crate::geometry::within(gap, reach) => {}
        reach => {
            let mut f = st.facts(unit, Some(target));
            f.reason = Some(match reach {
                Some(r) => format!(
                    "Charge procedure: the target is beyond 150% of a normal move: {gap:.1} cm, reach {r:.1} cm (move {:.0} cm, deductions assumed at 3 cm a die)",
                    u.mv()
                ),
                None => format!(
                    "Charge procedure: the target cannot be reached: {}",
                    closed_on_way(&st.s, &u, u.at, t.at).map_or_else(
                        || "closed ground is in the way".to_string(),
                        |c| format!("{c} is closed to it")
                    )
                ),
            });
            st.say(Said::Refused, f, Vec::new());
            return;
        }
    }
    if test(st, unit, Cause::Charging, Some(target)) {
        st.s.charges.push(Charge {
            unit: unit.into(),
            target: target.into(),
            declared: st.n,
        });
        told(
            st,
            Said::Charge,
            unit,
            target,
            "declared, closing this move",
        );
    } else {
        told(st, Said::Charge, unit, target, "does not go in");
    }
}

/// Step 1, phase 4: chargers that passed move a normal move (deductions
/// rolled) toward their targets, short of contact.
pub fn initial_moves(st: &mut Step) {
    let n = st.n;
    let mine: Vec<Charge> =
        st.s.charges
            .iter()
            .filter(|c| c.declared == n)
            .cloned()
            .collect();
    for c in mine {
        let (Some(u), Some(t)) = (st.s.unit(&c.unit).cloned(), st.s.unit(&c.target).cloned())
        else {
            continue;
        };
        let budget = u.mv().min((st.s.gap(&u, &t) - 1.0).max(0.0));
        let went = travel(st, &c.unit, t.at, budget, Some(&c.target));
        if let Some(x) = st.s.unit_mut(&c.unit) {
            x.last = Motion::Advanced;
        }
        st.s.traces.push(Trace {
            unit: c.unit.clone(),
            side: u.side.clone(),
            kind: TraceKind::Charge,
            points: vec![u.at, went.to],
        });
        let words = format!("closes {:.1} cm", went.moved);
        told(st, Said::Charge, &c.unit, &c.target, &words);
    }
}

/// Step 2: in the target's move, each target of a charge tests; one that
/// fails routs, and its chargers follow in a first pursuit.
pub fn targets_test(st: &mut Step) {
    let n = st.n;
    let active = st.active.clone();
    let due: Vec<Charge> =
        st.s.charges
            .iter()
            .filter(|c| c.declared < n && st.s.unit(&c.target).is_some_and(|t| t.side == active))
            .cloned()
            .collect();
    let mut tested: Vec<String> = Vec::new();
    for c in &due {
        if tested.contains(&c.target) {
            continue;
        }
        tested.push(c.target.clone());
        if st
            .s
            .unit(&c.target)
            .is_none_or(|t| t.status != Status::Good)
        {
            continue;
        }
        // Being charged, it knows by whom: each charger is found by it.
        for ch in due.iter().filter(|x| x.target == c.target) {
            super::observe::touch(st, &c.target, &ch.unit);
        }
        if !test(st, &c.target, Cause::Charged, Some(&c.unit)) {
            for ch in due.iter().filter(|x| x.target == c.target) {
                st.s.charges.retain(|x| x.unit != ch.unit);
                super::melee::follow(st, &ch.unit, &c.target);
            }
        } else {
            // It stands to receive the charge, and fires if loaded.
            st.stood.push((c.target.clone(), c.unit.clone()));
        }
    }
}

/// A charger that failed to charge home halts 5 cm from its target.
fn halt_short(st: &mut Step, unit: &str, t: &Unit) {
    if let Some(u) = st.s.unit(unit).cloned() {
        let gap = st.s.gap(&u, t);
        if gap > KEEP_OFF {
            travel(st, unit, t.at, gap - KEEP_OFF, None);
        }
    }
    told(st, Said::ChargeHome, unit, &t.id, "halts 5 cm short");
}

/// Step 3: after the fire at them, chargers test to charge home; those
/// that pass make their final move into contact (or their full move and
/// halt if it falls short). Returns (charger, target) pairs in contact.
pub fn charge_home(st: &mut Step) -> Vec<(String, String)> {
    let n = st.n;
    let active = st.active.clone();
    let due: Vec<Charge> =
        st.s.charges
            .iter()
            .filter(|c| c.declared < n && st.s.unit(&c.unit).is_some_and(|u| u.side != active))
            .cloned()
            .collect();
    st.s.charges.retain(|c| !due.contains(c));
    let mut pairs = Vec::new();
    for c in due {
        let (Some(u), Some(t)) = (st.s.unit(&c.unit).cloned(), st.s.unit(&c.target).cloned())
        else {
            continue;
        };
        if u.status != Status::Good || u.no_advance || !t.live() {
            continue;
        }
        match tested(st, &c.unit, Cause::ChargeHome, Some(&c.target)) {
            None => {}
            Some(Res::HaltShort) => {
                halt_short(st, &c.unit, &t);
                continue;
            }
            // Below half strength the failure retired it 5 cm: it stays
            // there, the charge over.
            Some(_) => {
                told(
                    st,
                    Said::ChargeHome,
                    &c.unit,
                    &c.target,
                    "retires 5 cm and stays there",
                );
                continue;
            }
        }
        let went = travel(st, &c.unit, t.at, u.mv(), Some(&c.target));
        st.s.traces.push(Trace {
            unit: c.unit.clone(),
            side: u.side.clone(),
            kind: TraceKind::Charge,
            points: vec![u.at, went.to],
        });
        let now = st.s.unit(&c.unit).cloned();
        if now.is_some_and(|x| st.s.gap(&x, &t) <= 0.1) {
            told(st, Said::ChargeHome, &c.unit, &c.target, "contact");
            pairs.push((c.unit.clone(), c.target.clone()));
        } else {
            told(
                st,
                Said::ChargeHome,
                &c.unit,
                &c.target,
                "falls short after its full move and halts",
            );
        }
    }
    pairs
}
