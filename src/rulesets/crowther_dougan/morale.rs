//! Morale tests: a D10 under the tester's modified morale factor, the
//! causes the source lists, each failure's result, command points pledged
//! before the roll, and the rule for units under half strength.

use super::movement::{away, rout};
use super::state::{Motion, Status, Unit};
use super::step::Step;
use super::tables::KEEP_OFF;
use super::words::Said;
use crate::event::Modifier;

/// Why a unit tests (the source numbers them 1 to 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    /// 1. Being charged.
    Charged,
    /// 2. In order to charge.
    Charging,
    /// 3. To rally from rout or pursuit.
    Rally,
    /// 4. Shooting casualties.
    Fire,
    /// 5. To charge home.
    ChargeHome,
    /// 6. Losing hand to hand.
    LostMelee,
}

impl Cause {
    pub fn words(self) -> &'static str {
        match self {
            Cause::Charged => "being charged",
            Cause::Charging => "to charge",
            Cause::Rally => "to rally",
            Cause::Fire => "shooting casualties",
            Cause::ChargeHome => "to charge home",
            Cause::LostMelee => "lost hand to hand",
        }
    }
}

/// House rule: the modifiers the source's cut-off list would give.
pub fn modifiers(st: &Step, unit: &str, cause: Cause) -> Vec<Modifier> {
    let Some(u) = st.s.unit(unit) else {
        return Vec::new();
    };
    let mut m = Vec::new();
    let mut add = |why: &str, value: i32| {
        m.push(Modifier {
            why: why.into(),
            value,
        })
    };
    if u.under_half() {
        add("under half strength", -1);
    }
    if matches!(cause, Cause::Fire | Cause::LostMelee) && u.lost_this_move > 0 {
        let before = u.men() + u.lost_this_move;
        let tenths = (10 * u.lost_this_move / before.max(1)).min(3) as i32;
        if tenths > 0 {
            add("casualties this move, per tenth", -tenths);
        }
    }
    match cause {
        Cause::Rally => add("rallying", -1),
        Cause::LostMelee => add("lost hand to hand", -1),
        Cause::Charged => {
            if super::melee::defending(&st.s, u) {
                add("defending buildings or an obstacle", 1);
            }
        }
        Cause::Charging | Cause::ChargeHome => {
            if u.troop.close_order_regular() {
                add("close-order regulars", 1);
            }
        }
        Cause::Fire => {}
    }
    m
}

/// Command points pledged to `unit` by personalities with it, spent now.
fn pledged(st: &mut Step, unit: &str) -> Vec<Modifier> {
    let mut out = Vec::new();
    let mut keep = Vec::new();
    for p in std::mem::take(&mut st.pledges) {
        if p.unit != unit {
            keep.push(p);
            continue;
        }
        let n = st.n;
        let Some(person) =
            st.s.persons
                .iter_mut()
                .find(|x| x.id == p.personality && !x.hit && x.with.as_deref() == Some(unit))
        else {
            continue;
        };
        let points = p.points.min(person.left);
        if points == 0 {
            continue;
        }
        person.left -= points;
        let name = person.name.clone();
        let mut f = st.facts(unit, None);
        f.group = Some(name.clone());
        f.count = Some(points);
        f.round = Some(n);
        st.say(Said::Pledge, f, Vec::new());
        out.push(Modifier {
            why: format!("{points} command points from {name}"),
            value: points as i32,
        });
    }
    st.pledges = keep;
    out
}

/// Take a morale test and apply a failure's result. True if passed.
pub fn test(st: &mut Step, unit: &str, cause: Cause, enemy: Option<&str>) -> bool {
    tested(st, unit, cause, enemy).is_none()
}

/// Take a morale test and apply a failure's result: what the failure did,
/// if it failed, for the callers whose next step hangs on it (a charger
/// under half strength that retires does not then go on to halt 5 cm
/// from its target).
pub fn tested(st: &mut Step, unit: &str, cause: Cause, enemy: Option<&str>) -> Option<Res> {
    let u = st.s.unit(unit).filter(|u| u.live()).cloned()?;
    let mut mods = modifiers(st, unit, cause);
    mods.extend(pledged(st, unit));
    let needed = (u.troop.rating().mf + mods.iter().map(|m| m.value).sum::<i32>()).max(0) as u32;
    let r = st.roll(
        &[unit],
        10,
        &format!(
            "{} morale test ({}): D10, passes under {needed}",
            u.name,
            cause.words()
        ),
    );
    let failure = (r.value >= needed).then(|| failure(&u, cause));
    // Told before what it causes: a rout follows the test that failed.
    let mut f = st.facts(unit, None);
    f.needed = Some(needed);
    f.modifiers = mods;
    f.rolls = vec![r.value];
    f.reason = Some(cause.words().into());
    f.result = Some(match &failure {
        None => "passes".to_string(),
        Some(res) => res.words(&u),
    });
    st.say(Said::Morale, f, vec![r.index]);
    if let Some(res) = failure {
        apply(st, unit, res, enemy);
    }
    failure
}

/// What a failed test does, as the source gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Res {
    Rout,
    Retire,
    Halt,
    NoAdvance,
    HaltShort,
    GoOn,
}

impl Res {
    fn words(self, u: &Unit) -> String {
        match self {
            Res::Rout => "fails: routs".into(),
            Res::Retire => "fails: retires 5 cm".into(),
            Res::Halt => "fails: must halt".into(),
            Res::NoAdvance => "fails: no advance towards the enemy this move".into(),
            Res::HaltShort => "fails: halts 5 cm from the target".into(),
            Res::GoOn if u.status == Status::Pursuing => "fails: goes on pursuing".into(),
            Res::GoOn => "fails: goes on routing".into(),
        }
    }
}

/// The result of failing a test for `cause`.
fn failure(u: &Unit, cause: Cause) -> Res {
    let res = match cause {
        Cause::Charged => Res::Rout,
        Cause::Charging => Res::NoAdvance,
        Cause::Rally => Res::GoOn,
        Cause::ChargeHome => Res::HaltShort,
        Cause::LostMelee => Res::Rout,
        Cause::Fire => match u.last {
            Motion::Advanced => Res::Halt,
            Motion::Halted => Res::Retire,
            Motion::Retired => Res::Rout,
        },
    };
    // Below half strength: at least retire 5 cm on failing any test.
    if u.under_half() && matches!(res, Res::Halt | Res::NoAdvance | Res::HaltShort) {
        Res::Retire
    } else {
        res
    }
}

/// Carry out a failed test's result.
fn apply(st: &mut Step, unit: &str, res: Res, enemy: Option<&str>) {
    match res {
        Res::Rout => rout(st, unit, enemy),
        Res::Retire => {
            away(st, unit, enemy, KEEP_OFF);
            if let Some(x) = st.s.unit_mut(unit) {
                x.last = Motion::Retired;
                x.no_advance = true;
            }
        }
        Res::Halt | Res::NoAdvance => {
            if let Some(x) = st.s.unit_mut(unit) {
                x.no_advance = true;
            }
        }
        Res::HaltShort | Res::GoOn => {}
    }
}
