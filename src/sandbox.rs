//! `galloper resolve`: one step of a scenario with given orders and dice,
//! printed as YAML or JSON, touching no store. For rules questions and tests.

use crate::dice::Dice;
use crate::rulesets;
use crate::side::{BySide, SideId};
use anyhow::{Context, anyhow, bail};
use clap::Args;
use serde::Serialize;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct ResolveArgs {
    /// Scenario YAML file.
    pub scenario: PathBuf,
    /// Start from this state (YAML, as `resolve` prints it) instead of the scenario's start.
    #[arg(long)]
    pub state: Option<PathBuf>,
    /// SIDE=FILE: an orders file (a signed envelope or just the `orders:` body).
    #[arg(long = "orders")]
    pub orders: Vec<String>,
    /// Scripted dice, in the order they are rolled: 6,5,4,...
    #[arg(long, value_delimiter = ',', conflicts_with = "seed")]
    pub dice: Vec<u32>,
    /// A 32-byte public seed in hex (the hidden seed is derived from it).
    #[arg(long)]
    pub seed: Option<String>,
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
    let scenario = crate::cli::read_scenario(&args.scenario)?;
    #[derive(serde::Deserialize)]
    struct Head {
        ruleset: String,
    }
    let head: Head =
        crate::yaml::from_str(&scenario).context("the scenario needs a `ruleset:` line")?;
    let rules = rulesets::by_name(&head.ruleset)
        .ok_or_else(|| anyhow!("unknown ruleset {}", head.ruleset))?;
    let state = match &args.state {
        Some(p) => {
            std::fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display()))?
        }
        None => rules.start(&scenario)?,
    };
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
    let mut dice = match (&args.seed, args.dice.is_empty()) {
        (Some(hexseed), _) => {
            let seed: [u8; 32] = hex::decode(hexseed)
                .ok()
                .and_then(|v| v.try_into().ok())
                .ok_or_else(|| anyhow!("--seed takes 64 hex digits"))?;
            Dice::from_seeds(seed, crate::dice::protocol::order_hash(&seed))
        }
        (None, false) => Dice::scripted(args.dice.clone()),
        (None, true) => bail!("give --dice 6,5,4,... or --seed HEX"),
    };
    let heading = rules.due(&state)?.heading;
    let out = if violations.is_empty() {
        let res = rules.resolve(&state, &orders, &mut dice)?;
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
