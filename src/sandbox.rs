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
/// which dice are rolled, so that a script of `--dice` can be written.
pub const DICE_ORDER: &str = "\
Dice are needed only when the step rolls some: give --dice (used in order)
or --seed; a step that rolls nothing needs neither, and a script that runs
out before the step is done is an error that says which die was missing.

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
    `charges`, then the defenders in the scenario's order of units.";

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
        Some(p) => Some(crate::cli::read_scenario(p)?),
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
