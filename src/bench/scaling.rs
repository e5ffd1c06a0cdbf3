//! Scaling: the resolution of one Maurice Lite round and one Morschauser
//! half-turn with N units a side, on generated battles (`generate.rs`), with
//! orders that make every unit act.

use super::generate;
use super::stats::{Samples, repeat};
use crate::dice::Dice;
use crate::geometry::{Distance, Point};
use crate::ruleset::{AnyRuleset, DemoPlayer, OrdersKind, Ruleset};
use crate::rulesets::maurice_lite::MauriceLite;
use crate::rulesets::maurice_lite::orders::{
    Activation, CardChoice, CardPolicy, Command, Deployment, Orders, Placement, RoundOrders, Step,
    Sweep, UnitMove,
};
use crate::rulesets::maurice_lite::state::State as MauriceState;
use crate::rulesets::morschauser_macduff::MorschauserMacduff;
use crate::side::{BySide, SideId};
use anyhow::{Context, anyhow, bail};

/// One measured size.
#[derive(Clone, Debug)]
pub struct Point3 {
    pub ruleset: &'static str,
    pub units: usize,
    pub time: Samples,
    /// Events and dice of the measured resolution: proof that units acted.
    pub events: usize,
    pub dice: usize,
    /// What the orders asked, in words.
    pub orders: String,
}

fn seeds(n: u8) -> ([u8; 32], [u8; 32]) {
    ([n; 32], [n.wrapping_add(1); 32])
}

/// Time `reps` typed resolutions of `state` with `orders`.
fn time_resolve<R: Ruleset>(
    r: &R,
    state: &str,
    orders: &BySide<serde_yaml::Value>,
    reps: usize,
) -> anyhow::Result<(Samples, usize, usize)> {
    let state: R::State = crate::yaml::from_str(state)?;
    let mut typed = BySide::new();
    for (side, v) in orders {
        let o: R::Orders = crate::yaml::from_value(v.clone())?;
        let bad = r.check(&state, side, &o);
        if let Some(v) = bad.first() {
            bail!(
                "generated orders refused for {side}: {} ({})",
                v.message,
                v.rule
            );
        }
        typed.insert(side.clone(), o);
    }
    let (s, (events, dice)) = repeat(reps, || {
        let (p, h) = seeds(7);
        let mut d = Dice::from_seeds(p, h);
        let res = r.resolve(&state, &typed, &mut d);
        Ok((res.events.len(), d.log().len()))
    })?;
    Ok((s, events, dice))
}

fn value<T: serde::Serialize>(t: &T) -> anyhow::Result<serde_yaml::Value> {
    Ok(crate::yaml::from_str(&crate::yaml::to_string(t)?)?)
}

/// Resolve the open step of `state` with `orders` (set-up, not timed).
fn advance(
    rules: &dyn AnyRuleset,
    state: &str,
    orders: &BySide<serde_yaml::Value>,
) -> anyhow::Result<String> {
    let (p, h) = seeds(3);
    let mut d = Dice::from_seeds(p, h);
    Ok(rules.resolve(state, orders, &mut d)?.state)
}

/// A Maurice Lite battle of `n` units a side after deployment, the armies
/// closed up to 3 BW so that the front ranks are in volley range; and the
/// active side's orders: volleys, and every unit of the side marching
/// half a BW as one force.
pub fn maurice_setup(n: usize) -> anyhow::Result<(String, BySide<serde_yaml::Value>, String)> {
    let rules: &dyn AnyRuleset = &MauriceLite;
    let scenario = generate::maurice(n);
    let state = rules.start(&scenario)?;
    let sides = rules.sides(&scenario)?;
    let mut deploy = BySide::new();
    for (index, side) in sides.iter().enumerate() {
        let units = (0..n)
            .map(|i| {
                let (x, y) = generate::maurice_place(n, index, i);
                Placement {
                    unit: format!("{side}-{i}"),
                    at: Point { x, y },
                    facing: None,
                    formation: None,
                }
            })
            .collect();
        let (cx, cy) = generate::maurice_place(n, index, n / 2);
        let back = if index == 0 { -0.2 } else { 0.2 };
        let o = Orders::Deploy(Deployment {
            cinc: Point {
                x: cx,
                y: cy + back,
            },
            units,
        });
        deploy.insert(side.clone(), value(&o)?);
    }
    let deployed = advance(rules, &state, &deploy)?;
    // Close the armies up: 4 BW each, leaving 3 BW between the front ranks.
    let mut s: MauriceState = crate::yaml::from_str(&deployed)?;
    let first = sides.first().cloned().context("no sides")?;
    for u in &mut s.units {
        let dy = if u.side == first { 4.0 } else { -4.0 };
        if let Some(a) = &mut u.anchor {
            a.y += dy;
        }
    }
    for (side, army) in s.armies.iter_mut() {
        let dy = if *side == first { 4.0 } else { -4.0 };
        if let Some(c) = &mut army.cinc {
            c.y += dy;
        }
    }
    let state = crate::yaml::to_string(&s)?;
    let due = rules.due(&state)?;
    let owed = due
        .owed
        .first()
        .context("nobody owes orders after deployment")?;
    let side = owed.side.clone();
    // Front rank first, so no unit marches into the one ahead.
    let ids: Vec<String> = (0..n).map(|i| format!("{side}-{i}")).collect();
    let moves = ids
        .iter()
        .map(|id| UnitMove {
            unit: id.clone(),
            steps: vec![Step::Forward(Distance(0.5))],
        })
        .collect();
    let march = Orders::Round(RoundOrders {
        volleys: true.into(),
        fire_order: Sweep::LeftToRight,
        aims: Vec::new(),
        command: Command::March(Activation {
            force: ids,
            cards: Some(CardChoice::Policy(CardPolicy::Fewest)),
            moves,
            ..Activation::default()
        }),
        modify: Vec::new(),
        cinc: None,
        discard: Vec::new(),
        if_displaced_discard: None,
    });
    let typed: MauriceState = crate::yaml::from_str(&state)?;
    let v = Ruleset::check(&MauriceLite, &typed, &side, &march);
    let mut orders = BySide::new();
    let words = if v.is_empty() {
        orders.insert(side, value(&march)?);
        format!("volleys, then all {n} units march 0.5 BW as one force")
    } else {
        let first = &v[0];
        let volleys = Orders::Round(RoundOrders {
            volleys: true.into(),
            fire_order: Sweep::LeftToRight,
            aims: Vec::new(),
            command: Command::Pass,
            modify: Vec::new(),
            cinc: None,
            discard: Vec::new(),
            if_displaced_discard: None,
        });
        orders.insert(side, value(&volleys)?);
        format!(
            "volleys and pass (the march was refused: {})",
            first.message
        )
    };
    Ok((state, orders, words))
}

/// A Morschauser battle of `n` companies a side after deployment, and the
/// active side's orders as its demo general writes them: every company
/// charges, or advances and shoots.
pub fn morschauser_setup(n: usize) -> anyhow::Result<(String, BySide<serde_yaml::Value>, String)> {
    let rules: &dyn AnyRuleset = &MorschauserMacduff;
    let mut player = crate::rulesets::morschauser_macduff::demo::Player;
    let mut state = rules.start(&generate::morschauser_deep(n))?;
    for _ in 0..4 {
        let due = rules.due(&state)?;
        let mut orders = BySide::new();
        for owed in &due.owed {
            let o = player.orders(&state, owed).map_err(|e| anyhow!(e))?;
            orders.insert(owed.side.clone(), o);
        }
        if due.owed.iter().any(|o| o.kind == OrdersKind::Turn) {
            let side: &SideId = &due.owed[0].side;
            let count = orders
                .get(side)
                .and_then(|o| o.get("turn"))
                .and_then(|t| t.get("actions"))
                .and_then(|a| a.as_sequence())
                .map_or(0, |a| a.len());
            return Ok((
                state,
                orders,
                format!("the demo general's half-turn: {count} companies ordered"),
            ));
        }
        state = advance(rules, &state, &orders)?;
    }
    bail!("the generated Morschauser battle never reached a turn")
}

/// Repetitions for a size: fewer for the big ones.
fn reps(n: usize, quick: bool) -> usize {
    match (quick, n) {
        (true, _) => 1,
        (false, 0..=10) => 30,
        (false, 11..=100) => 10,
        _ => 5,
    }
}

/// Measure both rulesets at each size.
pub fn run(sizes: &[usize], quick: bool) -> anyhow::Result<Vec<Point3>> {
    let mut out = Vec::new();
    for &n in sizes {
        let (state, orders, words) = maurice_setup(n)?;
        let (time, events, dice) = time_resolve(&MauriceLite, &state, &orders, reps(n, quick))?;
        out.push(Point3 {
            ruleset: "maurice-lite",
            units: n,
            time,
            events,
            dice,
            orders: words,
        });
    }
    for &n in sizes {
        let (state, orders, words) = morschauser_setup(n)?;
        let (time, events, dice) =
            time_resolve(&MorschauserMacduff, &state, &orders, reps(n, quick))?;
        out.push(Point3 {
            ruleset: "morschauser-macduff",
            units: n,
            time,
            events,
            dice,
            orders: words,
        });
    }
    Ok(out)
}
