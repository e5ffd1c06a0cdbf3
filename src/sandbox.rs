//! `galloper resolve`: one step of a scenario with given orders and dice,
//! printed as YAML or JSON, touching no store. For rules questions and tests.

use crate::dice::Dice;
use crate::rulesets;
use crate::side::{BySide, SideId};
use anyhow::{Context, anyhow, bail};
use clap::Args;
use serde::Serialize;
use std::path::PathBuf;

/// What `galloper resolve --help` says after the options: the order in
/// which each ruleset rolls its dice, so that a script of `--dice` can be
/// written by hand. Each ruleset's doc (docs/rulesets/NAME.md, "Order of
/// dice") says the same in more words; both follow its resolution code.
pub const DICE_ORDER: &str = "\
Dice are needed only when the step rolls some: give --dice (used in order)
or --seed; a step that rolls nothing needs neither, and a script that runs
out before the step is done is an error that says which die was missing.
One script serves every stream (public and hidden dice alike), in the order
the dice are rolled; the output's `dice` lists each with its purpose.

The order in which maurice-lite rolls its dice:
  deployment: the deal's shuffles (hidden dice), then the first-round roll,
    two dice a try (first side, then second), again on a tie.
  a round: the volley phase, then the draw (a Reshuffle card drawn shuffles
    with hidden dice), then the action.
  volley phase: the active side's to-hit dice, unit by unit across the
    table in its fire order (left to right as it sees the table, unless
    right_to_left), each unit's bases in the same direction, two canister
    dice per gun; then its dice to disrupt, target by target in the order
    they were first hit, one per hit; then the passive side's return fire
    the same way (the passive side first after a fire-first interrupt).
  bombard: as a volley, for the activated guns only.
  rally: unit by unit in the order of the force, one die per DISR.
  charge (combat): one die per engaged unit: the attackers in the order of
    `charges`, then the defenders in the scenario's order of units.

The order in which morschauser-macduff rolls its dice (all d6):
  deployment: the dice-off, two dice a try (the scenario's first side, then
    the second), again on a tie; with dice_each_turn, again at the end of
    every turn.
  a half-turn: brigade morale (E.3), one die per company or formed regiment
    of each brigade that has lost half; rallying (E.4), one die per company
    or formed regiment its general has joined; then each entry of `turn:`
    in order, company by company (a formed regiment as one): a general's
    personality die the first time it matters, the command die (E.2), then
    its sequence:
  shooting: one die per SP; artillery that hit a company in a town, one die
    per such town (6: fire); a heavy gun's breach, one die.
  melee (charged, or forced within 3\"): the attacker's dice, one per SP,
    then the defender's; with risk to generals, one die per general with
    the attacker, then with the defender; a pursuit fights once more.
  engineers: the melee across the wall first, if a defender is within 3\",
    then the breach die; demolishing a bridge, one die.
  last: the companies not listed that must melee (B.6), in scenario order.

The order in which crowther-dougan rolls its dice (the average die is a
d6 read 2,3,3,4,4,5; a fraction of a man is a d100):
  deployment: no dice.
  phase 1: each `observe` entry, one average die; targets of earlier
    charges test morale (a d10 each, in the order charges were declared);
    routing and pursuing units test to rally (d10, scenario order); each
    `charges` entry tests to charge (d10).
  phase 2: each `fire` entry, then units firing at their chargers: an
    average die, then a d100 when a fraction of a man is left; a d10 morale
    test for each unit hit, in the order first hit; the chargers' d10 to
    charge home, in the order declared.
  phase 3: each contact: the attacker's average die (and d100), then the
    defender's (none against routers); the loser's d10 morale test.
  phase 4: per move, a d6 off it for each die of terrain crossed; in a
    forest a d6 to get lost, then a d6 for the way.
  end of the move: a d100 for each personality with a unit that lost men.

The order in which napoleonic-corps rolls its dice (all d6):
  deployment: corps fatigue, corps by corps in the scenario's order, one
    die per general of the corps, again after each 6.
  rally phase: each shaken unit of the phasing side not in contact and
    given no pass, in scenario order: 2D6, then a die for a general used
    (dies on a 1).
  movement phase: each `moves` entry in order: 2D6 for a rough-ground
    test, 2D6 for each contact check, 2D6 cm for each cavalry withdrawal
    (after a consulted pause, the decision's withdrawals first).
  defensive fire: the other side's units in scenario order: 2D6 a fire; a
    general with the target: a die to lessen it (5+), a die for his risk.
  charge phase: each `charges` entry: the target's 2D6 contact check.
  advancing fire: each `fire` entry, as defensive fire.
  melee phase: each melee: a die for the phasing side, then one for the
    other, a die for each general used, then 2D6 cavalry control tests.

The order in which activation-dice rolls its dice (all d6):
  deployment: the first move, two dice a try (the attacker, then the
    defender), again on a tie.
  a turn: each entry of `activations` in order: its 1 to 3 activation dice
    (the coloured ones first, as many as its disorder); on a 1 on a
    coloured die the blunder die, and for garbled orders one die again for
    a success; then what the successes buy, in order: a shot (the
    shooter's die, then the target's), a charge or melee (the attacker's
    die, then the defender's); a double or triple result, 2D6 on the
    critical-event table for the unit hit. At the turn's end the melees
    that stood are fought the same way, in the order they began.";

#[derive(Args, Debug)]
pub struct ResolveArgs {
    /// Scenario YAML file; not needed with --state (a state names its ruleset).
    pub scenario: Option<PathBuf>,
    /// Start from this state (YAML, as `resolve` prints it) instead of the scenario's start.
    #[arg(long)]
    pub state: Option<PathBuf>,
    /// SIDE=FILE: an orders file (a signed envelope or just the `orders:` body).
    #[arg(long = "orders")]
    pub orders: Vec<String>,
    /// Scripted dice, in the order they are rolled: 6,5,4,... (see --help for
    /// the order); needed only when the step rolls dice.
    #[arg(long, value_delimiter = ',', conflicts_with = "seed")]
    pub dice: Vec<u32>,
    /// A 32-byte public seed in hex (the hidden seed is derived from it).
    #[arg(long)]
    pub seed: Option<String>,
    /// UNIT:TARGET:EDGE[:OFFSET]: before the step, move UNIT so that its
    /// front edge touches the front, left, right or rear edge of TARGET,
    /// facing it, centred (or slid OFFSET base widths to its right). Repeatable.
    #[arg(long = "contact")]
    pub contact: Vec<String>,
    /// yaml or json.
    #[arg(long, default_value = "yaml")]
    pub format: String,
}

#[derive(Serialize)]
struct Output {
    heading: String,
    violations: Vec<crate::ruleset::Violation>,
    events: Vec<crate::event::Event>,
    dice: Vec<crate::dice::DieRecord>,
    script_ran_out: bool,
    outcome: Option<crate::ruleset::Outcome>,
    state: serde_yaml::Value,
}

pub fn run(args: &ResolveArgs) -> anyhow::Result<()> {
    #[derive(serde::Deserialize)]
    struct Head {
        ruleset: String,
    }
    #[derive(serde::Deserialize)]
    struct StateHead {
        scenario: Head,
    }
    let scenario = match &args.scenario {
        Some(p) => Some(crate::scenario_check::read(p)?),
        None => None,
    };
    let state_text = match &args.state {
        Some(p) => Some(
            std::fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display()))?,
        ),
        None => None,
    };
    let ruleset = match (&scenario, &state_text) {
        (Some(text), _) => {
            let head: Head =
                crate::yaml::from_str(text).context("the scenario needs a `ruleset:` line")?;
            head.ruleset
        }
        (None, Some(text)) => {
            let head: StateHead = crate::yaml::from_str(text)
                .context("the state names no ruleset (`scenario: {ruleset: ...}`): give the scenario file too")?;
            head.scenario.ruleset
        }
        (None, None) => bail!("give a scenario file, or a state with --state"),
    };
    let rules = rulesets::by_name(&ruleset).ok_or_else(|| anyhow!("unknown ruleset {ruleset}"))?;
    let mut state = match (state_text, &scenario) {
        (Some(text), _) => text,
        (None, Some(text)) => rules.start(text)?,
        (None, None) => bail!("give a scenario file, or a state with --state"),
    };
    for spec in &args.contact {
        let parts: Vec<&str> = spec.split(':').collect();
        let (unit, target, edge, offset) = match parts.as_slice() {
            [u, t, e] => (*u, *t, *e, 0.0),
            [u, t, e, o] => (
                *u,
                *t,
                *e,
                o.parse::<f64>()
                    .map_err(|_| anyhow!("--contact {spec}: the offset {o:?} is not a number"))?,
            ),
            _ => bail!("--contact takes UNIT:TARGET:EDGE or UNIT:TARGET:EDGE:OFFSET, not {spec:?}"),
        };
        let edge: crate::ruleset::ContactEdge =
            edge.parse().map_err(|e| anyhow!("--contact {spec}: {e}"))?;
        state = rules
            .place_in_contact(&state, unit, target, edge, offset)
            .map_err(|e| anyhow!("--contact {spec}: {e}"))?;
    }
    let mut orders: BySide<serde_yaml::Value> = BySide::new();
    for spec in &args.orders {
        let (side, file) = spec
            .split_once('=')
            .ok_or_else(|| anyhow!("--orders takes SIDE=FILE, not {spec:?}"))?;
        let text = std::fs::read_to_string(file).with_context(|| format!("cannot read {file}"))?;
        let doc: serde_yaml::Value =
            crate::yaml::from_str(&text).with_context(|| format!("{file} does not parse"))?;
        let body = match doc.get("orders") {
            Some(b) if doc.get("galloper").is_some() => b.clone(),
            _ => doc,
        };
        orders.insert(SideId::new(side), body);
    }
    let mut violations = Vec::new();
    for (side, body) in &orders {
        violations.extend(rules.check(&state, side, body)?);
    }
    let mut dice = match &args.seed {
        Some(hexseed) => {
            let seed: [u8; 32] = hex::decode(hexseed)
                .ok()
                .and_then(|v| v.try_into().ok())
                .ok_or_else(|| anyhow!("--seed takes 64 hex digits"))?;
            Dice::from_seeds(seed, crate::dice::protocol::order_hash(&seed))
        }
        // No dice at all is a script of none: enough for a step that rolls nothing.
        None => Dice::scripted(args.dice.clone()),
    };
    let heading = rules.due(&state)?.heading;
    let out = if violations.is_empty() {
        let res = rules.resolve(&state, &orders, &mut dice)?;
        if args.seed.is_none() && res.dice.len() > args.dice.len() {
            let missing = &res.dice[args.dice.len()];
            bail!(
                "the dice ran out: this step rolls {} dice and --dice gave {}; die {} is for \"{}\" (a d{}). \
                 Give more with --dice, or --seed HEX (`galloper resolve --help` gives the order of the dice)",
                res.dice.len(),
                args.dice.len(),
                args.dice.len() + 1,
                missing.purpose,
                missing.sides
            );
        }
        Output {
            heading,
            violations,
            events: res.events,
            dice: res.dice,
            script_ran_out: dice.script_ran_out(),
            outcome: res.outcome,
            state: crate::yaml::from_str(&res.state)?,
        }
    } else {
        Output {
            heading,
            violations,
            events: vec![],
            dice: vec![],
            script_ran_out: false,
            outcome: None,
            state: crate::yaml::from_str(&state)?,
        }
    };
    match args.format.as_str() {
        "json" => println!("{}", serde_json::to_string_pretty(&out)?),
        "yaml" => print!("{}", crate::yaml::to_string(&out)?),
        other => bail!("--format is yaml or json, not {other}"),
    }
    Ok(())
}
