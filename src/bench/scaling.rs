//! Scaling: the resolution of one fighting step of each ruleset with N
//! units a side, on generated battles (`generate.rs`): Maurice Lite's with
//! hand-built volleys and charges, the others played by their demo
//! generals up to the first step that shoots and comes to blows.

use super::generate;
use super::stats::{Samples, repeat};
use crate::dice::Dice;
use crate::event::Kind;
use crate::geometry::{Distance, Point};
use crate::ruleset::{AnyRuleset, Ruleset};
use crate::rulesets::activation_dice::ActivationDice;
use crate::rulesets::crowther_dougan::CrowtherDougan;
use crate::rulesets::maurice_lite::MauriceLite;
use crate::rulesets::maurice_lite::orders::{
    Activation, CardChoice, CardPolicy, ChargeOrder, Command, Deployment, Orders, Placement,
    RoundOrders, Step, Sweep, UnitMove,
};
use crate::rulesets::maurice_lite::state::State as MauriceState;
use crate::rulesets::morschauser_macduff::MorschauserMacduff;
use crate::rulesets::napoleonic_corps::NapoleonicCorps;
use crate::side::{BySide, SideId};
use crate::view::Viewer;
use anyhow::{Context, anyhow, bail};

/// One measured size.
#[derive(Clone, Debug)]
pub struct Point3 {
    pub ruleset: &'static str,
    pub units: usize,
    pub time: Samples,
    /// The whole step at that size: orders text parsed, state parsed,
    /// resolved and written, one side's view and its map drawn and encoded.
    pub step: Samples,
    /// Events and dice of the measured resolution: proof that units acted.
    pub events: usize,
    pub dice: usize,
    /// What the orders asked, in words.
    pub orders: String,
    /// The fingerprint of the measured resolution ([`fingerprint`]).
    pub result: String,
}

/// A step of a generated battle to measure: the state before it, the
/// orders, what they ask in words, and the seeds' byte its dice come from.
pub struct Fight {
    pub state: String,
    pub orders: BySide<serde_yaml::Value>,
    pub words: String,
    pub seed: u8,
}

/// The fingerprint of a fight's input (state and orders) and of its
/// resolution with the fight's seeds: SHA-256 of the new state's YAML,
/// every event (visibility, kind, facts, words, dice indexes) and the dice
/// log. Work that makes a ruleset faster must leave the second unchanged.
pub fn fingerprint(rules: &dyn AnyRuleset, f: &Fight) -> anyhow::Result<(String, String)> {
    use sha2::{Digest, Sha256};
    let input = Sha256::digest(format!(
        "{}\n{}",
        f.state,
        crate::yaml::to_string(&f.orders)?
    ));
    let (p, h) = seeds(f.seed);
    let mut dice = Dice::from_seeds(p, h);
    let res = rules.resolve(&f.state, &f.orders, &mut dice)?;
    let mut out = Sha256::new();
    out.update(res.state.as_bytes());
    for e in &res.events {
        out.update(crate::yaml::to_string(e)?.as_bytes());
    }
    out.update(crate::yaml::to_string(&dice.log().to_vec())?.as_bytes());
    Ok((hex::encode(input), hex::encode(out.finalize())))
}

/// Seeds' byte of the measured steps (a battle that does not fight with it
/// tries the next ones: [`demo_until_fight`]).
const SEED: u8 = 7;

fn seeds(n: u8) -> ([u8; 32], [u8; 32]) {
    ([n; 32], [n.wrapping_add(1); 32])
}

/// Time `reps` typed resolutions of `state` with `orders`.
fn time_resolve<R: Ruleset>(
    r: &R,
    state: &str,
    orders: &BySide<serde_yaml::Value>,
    seed: u8,
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
        let (p, h) = seeds(seed);
        let mut d = Dice::from_seeds(p, h);
        let res = r.resolve(&state, &typed, &mut d);
        Ok((res.events.len(), d.log().len()))
    })?;
    Ok((s, events, dice))
}

/// Time `reps` whole steps: the orders as the text a player sends, the
/// state as stored, resolution, the new state written, the ordering side's view
/// and its map as PNG.
fn time_step(
    rules: &dyn AnyRuleset,
    state: &str,
    orders: &BySide<serde_yaml::Value>,
    seed: u8,
    reps: usize,
) -> anyhow::Result<Samples> {
    let texts: Vec<(SideId, String)> = orders
        .iter()
        .map(|(side, v)| Ok((side.clone(), crate::yaml::to_string(v)?)))
        .collect::<anyhow::Result<_>>()?;
    let first = orders.keys().next().context("nobody gives orders")?.clone();
    let (s, _) = repeat(reps, || {
        let mut parsed = BySide::new();
        for (side, text) in &texts {
            parsed.insert(side.clone(), crate::yaml::from_str(text)?);
        }
        let (p, h) = seeds(seed);
        let mut d = Dice::from_seeds(p, h);
        let res = rules.resolve(state, &parsed, &mut d)?;
        let sight = rules.view(&res.state, &Viewer::Side(first.clone()))?;
        Ok(crate::render::map_png(&sight.map)?.len())
    })?;
    Ok(s)
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
    let (state, side) = maurice_closed_up(n)?;
    maurice_march(n, state, side)
}

/// A Maurice Lite battle of `n` units a side, deployed in rows and closed up
/// to 3 BW between the front ranks, and the side that is active.
fn maurice_closed_up(n: usize) -> anyhow::Result<(String, SideId)> {
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
    Ok((state, owed.side.clone()))
}

fn maurice_march(
    n: usize,
    state: String,
    side: SideId,
) -> anyhow::Result<(String, BySide<serde_yaml::Value>, String)> {
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
        command: Some(Command::March(Activation {
            force: ids,
            cards: Some(CardChoice::Policy(CardPolicy::Fewest)),
            moves,
            ..Activation::default()
        })),
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
            command: Some(Command::Pass),
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

/// The same closed-up Maurice Lite battle, fighting: volleys, then every
/// unit of the active side's front rank charges the enemy unit opposite
/// (the front rank is one force), with combat and falling back.
pub fn maurice_fight_setup(n: usize) -> anyhow::Result<Fight> {
    let (state, side) = maurice_closed_up(n)?;
    let other = if side.as_str() == "blue" {
        "red"
    } else {
        "blue"
    };
    let front = generate::maurice_front_rank(n);
    let force: Vec<String> = (0..front).map(|i| format!("{side}-{i}")).collect();
    let charges = (0..front)
        .map(|i| ChargeOrder {
            unit: format!("{side}-{i}"),
            wheel: None,
            target: Some(format!("{other}-{i}")),
        })
        .collect();
    let fight = Orders::Round(RoundOrders {
        volleys: true.into(),
        fire_order: Sweep::LeftToRight,
        aims: Vec::new(),
        command: Some(Command::Charge(Activation {
            force,
            cards: Some(CardChoice::Policy(CardPolicy::Fewest)),
            charges,
            ..Activation::default()
        })),
        modify: Vec::new(),
        cinc: None,
        discard: Vec::new(),
        if_displaced_discard: None,
    });
    let typed: MauriceState = crate::yaml::from_str(&state)?;
    if let Some(v) = Ruleset::check(&MauriceLite, &typed, &side, &fight).first() {
        bail!(
            "the generated charges were refused: {} ({})",
            v.message,
            v.rule
        );
    }
    let mut orders = BySide::new();
    orders.insert(side, value(&fight)?);
    Ok(Fight {
        state,
        orders,
        words: format!("volleys, then the front rank's {front} units charge the units opposite"),
        seed: SEED,
    })
}

/// What a step must show to count as a fight: for each group, at least
/// one event of one of its kinds.
type Wanted = &'static [&'static [Kind]];

/// Shooting, and melee (Morschauser, activation dice: close combat).
const FIRE_AND_MELEE: Wanted = &[&[Kind::Fire], &[Kind::Combat]];
/// Shooting, and charges or melee (napoleonic corps, Crowther-Dougan: a
/// charge declared in one move closes in the enemy's next).
const FIRE_AND_CHARGE: Wanted = &[&[Kind::Fire], &[Kind::Charge, Kind::Combat]];

/// A change made to the demo player's orders (for the state given) before
/// they are sent.
type Tweak = fn(&str, serde_yaml::Value) -> anyhow::Result<serde_yaml::Value>;

fn as_written(_: &str, o: serde_yaml::Value) -> anyhow::Result<serde_yaml::Value> {
    Ok(o)
}

/// Activation dice: the foot deploys in line and the guns unlimbered, ready
/// to fire (the demo deploys in column and limbered), and the turn's
/// activations that charge (seize the initiative) and those that fire come
/// first, one of each in turn, then the rest. Two failed dice in one activation are a
/// turnover that ends the turn, so a turn sees a few activations whatever
/// the size of the armies; the demo's order (guns, foot, then horse) would
/// seldom reach a charge.
fn charges_first(state: &str, o: serde_yaml::Value) -> anyhow::Result<serde_yaml::Value> {
    use crate::rulesets::activation_dice::orders::Orders;
    use crate::rulesets::activation_dice::scenario::Arm;
    use crate::rulesets::activation_dice::state::{Formation, State};
    let mut typed: Orders = crate::yaml::from_value(o)?;
    match &mut typed {
        Orders::Turn(t) => {
            use crate::rulesets::activation_dice::orders::Action;
            let (seize, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut t.activations)
                .into_iter()
                .partition(|a| a.actions.iter().any(|x| matches!(x, Action::Seize(_))));
            let (fire, rest): (Vec<_>, Vec<_>) = rest
                .into_iter()
                .partition(|a| a.actions.iter().any(|x| matches!(x, Action::Fire(_))));
            // A charge, a volley, a charge...: a turnover early in the turn
            // still leaves both.
            let mut seize = seize.into_iter();
            let mut fire = fire.into_iter();
            loop {
                let (a, b) = (seize.next(), fire.next());
                if a.is_none() && b.is_none() {
                    break;
                }
                t.activations.extend(a);
                t.activations.extend(b);
            }
            t.activations.extend(rest);
        }
        Orders::Deploy(d) => {
            let s: State = crate::yaml::from_str(state)?;
            for p in &mut d.units {
                p.formation = match s.unit(&p.unit).map(|u| u.arm()) {
                    Some(Arm::Infantry) => Some(Formation::Line),
                    Some(Arm::Artillery) => Some(Formation::Unlimbered),
                    _ => p.formation,
                };
            }
        }
    }
    value(&typed)
}

/// Steps a generated battle may take to come to blows.
const STEPS_TO_FIGHT: usize = 12;

/// Play the generated battle `scenario` with `rules`' demo player, step by
/// step (each resolved with the timed runs' seeds), until a step whose
/// resolution shows what `wanted` asks: that step's state and orders, not
/// yet resolved, and the step's fighting in words.
fn demo_until_fight(
    rules: &dyn AnyRuleset,
    scenario: &str,
    wanted: Wanted,
    tweak: Tweak,
) -> anyhow::Result<Fight> {
    let name = rules.name();
    let mut player = crate::demo::players::player(name, false)
        .map_err(|e| anyhow!(e))?
        .with_context(|| format!("{name} has no demo player"))?;
    let mut state = rules.start(scenario)?;
    for step in 0..STEPS_TO_FIGHT {
        let due = rules.due(&state)?;
        if due.owed.is_empty() {
            bail!("the generated {name} battle ended before it fought");
        }
        let mut orders = BySide::new();
        for owed in &due.owed {
            let o = player.orders(&state, owed).map_err(|e| anyhow!(e))?;
            let o = tweak(&state, o)?;
            let o = if rules.check(&state, &owed.side, &o)?.is_empty() {
                o
            } else {
                player.pass(owed)
            };
            orders.insert(owed.side.clone(), o);
        }
        for owed in &due.optional {
            if let Some(o) = player
                .optional(&state, owed, step as u32)
                .map_err(|e| anyhow!(e))?
            {
                orders.insert(owed.side.clone(), o);
            }
        }
        // Seeds other than the usual one, when the usual one's dice end the
        // turn before it fights (the same first dice every step).
        for seed in SEED..SEED + 4 {
            let (p, h) = seeds(seed);
            let res = rules.resolve(&state, &orders, &mut Dice::from_seeds(p, h))?;
            let count = |k: Kind| res.events.iter().filter(|e| e.kind == k).count();
            if wanted
                .iter()
                .all(|group| group.iter().any(|&k| count(k) > 0))
            {
                let words = format!(
                    "the demo generals' step {}: {} fire, {} charge and {} combat events",
                    step + 1,
                    count(Kind::Fire),
                    count(Kind::Charge),
                    count(Kind::Combat)
                );
                return Ok(Fight {
                    state,
                    orders,
                    words,
                    seed,
                });
            }
        }
        // The same dice every step would repeat the same luck; the step
        // measured is resolved with the timed runs' seeds (above).
        let (p, h) = seeds(20 + step as u8);
        state = rules
            .resolve(&state, &orders, &mut Dice::from_seeds(p, h))?
            .state;
    }
    bail!("the generated {name} battle did not fight in {STEPS_TO_FIGHT} steps")
}

/// A Morschauser battle of `n` companies a side, played by its demo
/// generals up to the first half-turn with shooting and melee.
pub fn morschauser_setup(n: usize) -> anyhow::Result<Fight> {
    demo_until_fight(
        &MorschauserMacduff,
        &generate::morschauser_deep(n),
        FIRE_AND_MELEE,
        as_written,
    )
}

/// A napoleonic-corps battle of `n` units a side, played by its demo
/// generals up to the first turn with fire and charges.
pub fn napoleonic_setup(n: usize) -> anyhow::Result<Fight> {
    demo_until_fight(
        &NapoleonicCorps,
        &generate::napoleonic(n),
        FIRE_AND_CHARGE,
        as_written,
    )
}

/// An activation-dice battle of `n` units a side, played by its demo
/// generals (charges first: [`charges_first`]) up to the first turn
/// with fire and melee.
pub fn activation_setup(n: usize) -> anyhow::Result<Fight> {
    demo_until_fight(
        &ActivationDice,
        &generate::activation(n),
        FIRE_AND_MELEE,
        charges_first,
    )
}

/// A Crowther-Dougan battle of `n` units a side, played by its demo
/// generals up to the first move with fire and charges.
pub fn crowther_setup(n: usize) -> anyhow::Result<Fight> {
    demo_until_fight(
        &CrowtherDougan,
        &generate::crowther(n),
        FIRE_AND_CHARGE,
        as_written,
    )
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

/// One ruleset's row at one size: the resolution alone, and the whole step.
fn measure<R: Ruleset + AnyRuleset>(
    rules: &R,
    n: usize,
    quick: bool,
    setup: fn(usize) -> anyhow::Result<Fight>,
) -> anyhow::Result<Point3> {
    let f = setup(n)?;
    let (_, result) = fingerprint(rules, &f)?;
    let (time, events, dice) = time_resolve(rules, &f.state, &f.orders, f.seed, reps(n, quick))?;
    let step = time_step(rules, &f.state, &f.orders, f.seed, reps(n, quick))?;
    Ok(Point3 {
        ruleset: AnyRuleset::name(rules),
        units: n,
        time,
        step,
        events,
        dice,
        orders: f.words,
        result,
    })
}

/// A size that was not measured, and why.
#[derive(Clone, Debug)]
pub struct Missing {
    pub ruleset: &'static str,
    pub units: usize,
    pub why: String,
}

/// The time one ruleset may spend setting up and measuring a size before
/// its bigger sizes are left out: the bench must end in minutes.
const BUDGET: std::time::Duration = std::time::Duration::from_secs(90);

/// Measure one ruleset at each size, smallest first. A size that cannot be
/// set up is reported, not fatal; once a size takes more than [`BUDGET`],
/// the bigger ones are reported as left out.
fn sizes_of<R: Ruleset + AnyRuleset>(
    rules: &R,
    sizes: &[usize],
    quick: bool,
    setup: fn(usize) -> anyhow::Result<Fight>,
    out: &mut Vec<Point3>,
    missing: &mut Vec<Missing>,
) {
    let mut sorted = sizes.to_vec();
    sorted.sort_unstable();
    let mut over: Option<(usize, f64)> = None;
    for n in sorted {
        let ruleset = AnyRuleset::name(rules);
        if let Some((m, secs)) = over {
            missing.push(Missing {
                ruleset,
                units: n,
                why: format!(
                    "left out: {m} a side took {secs:.0} s to set up and measure (budget {} s a size)",
                    BUDGET.as_secs()
                ),
            });
            continue;
        }
        let t = std::time::Instant::now();
        match measure(rules, n, quick, setup) {
            Ok(p) => out.push(p),
            Err(e) => missing.push(Missing {
                ruleset,
                units: n,
                why: format!("not measured: {e:#}"),
            }),
        }
        let took = t.elapsed();
        if took > BUDGET {
            over = Some((n, took.as_secs_f64()));
        }
    }
}

/// Measure each ruleset named in `only` (every ruleset when empty) at each
/// size, fighting: the resolution alone, and the whole step; and the sizes
/// that could not be measured.
pub fn run(sizes: &[usize], quick: bool, only: &[String]) -> (Vec<Point3>, Vec<Missing>) {
    let (mut out, mut missing) = (Vec::new(), Vec::new());
    let wanted = |name: &str| only.is_empty() || only.iter().any(|o| o == name);
    if wanted(AnyRuleset::name(&MauriceLite)) {
        sizes_of(
            &MauriceLite,
            sizes,
            quick,
            maurice_fight_setup,
            &mut out,
            &mut missing,
        );
    }
    if wanted(AnyRuleset::name(&MorschauserMacduff)) {
        sizes_of(
            &MorschauserMacduff,
            sizes,
            quick,
            morschauser_setup,
            &mut out,
            &mut missing,
        );
    }
    if wanted(AnyRuleset::name(&NapoleonicCorps)) {
        sizes_of(
            &NapoleonicCorps,
            sizes,
            quick,
            napoleonic_setup,
            &mut out,
            &mut missing,
        );
    }
    if wanted(AnyRuleset::name(&ActivationDice)) {
        sizes_of(
            &ActivationDice,
            sizes,
            quick,
            activation_setup,
            &mut out,
            &mut missing,
        );
    }
    if wanted(AnyRuleset::name(&CrowtherDougan)) {
        sizes_of(
            &CrowtherDougan,
            sizes,
            quick,
            crowther_setup,
            &mut out,
            &mut missing,
        );
    }
    (out, missing)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Kind;

    #[test]
    fn the_maurice_scaling_battle_fights() {
        let n = 12;
        let f = maurice_fight_setup(n).expect("set up");
        let (p, h) = seeds(f.seed);
        let mut d = Dice::from_seeds(p, h);
        let res = AnyRuleset::resolve(&MauriceLite, &f.state, &f.orders, &mut d).expect("resolves");
        let count = |k: Kind| res.events.iter().filter(|e| e.kind == k).count();
        assert!(count(Kind::Fire) > 0, "volleys");
        assert!(
            count(Kind::Charge) >= generate::maurice_front_rank(n),
            "charges"
        );
        assert!(count(Kind::Combat) > 0, "combat");
    }

    /// The events of the measured step of a generated battle, by kind.
    fn fought(
        rules: &dyn AnyRuleset,
        setup: fn(usize) -> anyhow::Result<Fight>,
        n: usize,
    ) -> impl Fn(Kind) -> usize {
        let f = setup(n).expect("set up");
        assert!(
            f.words.starts_with("the demo generals' step"),
            "{}",
            f.words
        );
        let (p, h) = seeds(f.seed);
        let mut d = Dice::from_seeds(p, h);
        let res = rules
            .resolve(&f.state, &f.orders, &mut d)
            .expect("resolves");
        assert!(!res.dice.is_empty(), "dice rolled");
        move |k: Kind| res.events.iter().filter(|e| e.kind == k).count()
    }

    #[test]
    fn the_morschauser_scaling_battle_fights() {
        for n in [10, 40] {
            let count = fought(&MorschauserMacduff, morschauser_setup, n);
            assert!(count(Kind::Fire) > 0, "shooting at {n} a side");
            assert!(count(Kind::Combat) > 0, "melee at {n} a side");
        }
    }

    #[test]
    fn the_napoleonic_scaling_battle_fights() {
        for n in [10, 40] {
            let count = fought(&NapoleonicCorps, napoleonic_setup, n);
            assert!(count(Kind::Fire) > 0, "fire at {n} a side");
            assert!(
                count(Kind::Charge) + count(Kind::Combat) > 0,
                "charges at {n} a side"
            );
        }
    }

    #[test]
    fn the_activation_scaling_battle_fights() {
        for n in [10, 40, 100] {
            let count = fought(&ActivationDice, activation_setup, n);
            assert!(count(Kind::Fire) > 0, "fire at {n} a side");
            assert!(count(Kind::Combat) > 0, "melee at {n} a side");
        }
    }

    /// The first 12 hex digits of a fight's result fingerprint at `n` a
    /// side. The pins below were taken from the code before it was made
    /// faster at scale: the rules' results, dice and words must not change
    /// with speed.
    fn pinned(
        rules: &dyn AnyRuleset,
        setup: fn(usize) -> anyhow::Result<Fight>,
        n: usize,
    ) -> String {
        let f = setup(n).expect("set up");
        fingerprint(rules, &f).expect("resolves").1[..12].to_string()
    }

    /// Pinned from the code after it was made faster, whose resolutions of
    /// this battle with the earlier order of activations (charges, then
    /// fire) at 10 and 30 a side were the same as the code before.
    #[test]
    fn the_activation_scaling_battle_resolves_as_pinned() {
        assert_eq!(
            pinned(&ActivationDice, activation_setup, 30),
            "c7f2fc5499fd"
        );
        assert_eq!(
            pinned(&ActivationDice, activation_setup, 100),
            "a1f70e715868"
        );
    }

    #[test]
    fn the_crowther_scaling_battle_resolves_as_pinned() {
        assert_eq!(pinned(&CrowtherDougan, crowther_setup, 30), "23e54e7c3d1c");
        assert_eq!(pinned(&CrowtherDougan, crowther_setup, 100), "4839117b0aaa");
    }

    #[test]
    fn the_morschauser_scaling_battle_resolves_as_pinned() {
        assert_eq!(
            pinned(&MorschauserMacduff, morschauser_setup, 30),
            "659ccd6bf6df"
        );
        assert_eq!(
            pinned(&MorschauserMacduff, morschauser_setup, 100),
            "61c9b5a439a8"
        );
    }

    #[test]
    fn the_napoleonic_scaling_battle_resolves_as_pinned() {
        assert_eq!(
            pinned(&NapoleonicCorps, napoleonic_setup, 30),
            "8b0baec4785e"
        );
        assert_eq!(
            pinned(&NapoleonicCorps, napoleonic_setup, 100),
            "adbf9688a916"
        );
    }

    #[test]
    fn the_crowther_scaling_battle_fights() {
        for n in [10, 40] {
            let count = fought(&CrowtherDougan, crowther_setup, n);
            assert!(count(Kind::Fire) > 0, "fire at {n} a side");
            assert!(
                count(Kind::Charge) + count(Kind::Combat) > 0,
                "charges at {n} a side"
            );
        }
    }
}
