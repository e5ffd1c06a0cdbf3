//! `galloper demo`: a whole game of Maurice Lite played from shipped orders,
//! signed by two freshly made players, resolved, archived and audited.

mod bot;

use crate::envelope;
use crate::game::{PlayerSpec, Server, audit};
use crate::ruleset::OrdersKind;
use crate::side::{BySide, SideId};
use crate::sig;
use anyhow::{Context, anyhow, bail};
use clap::Args;
use std::collections::VecDeque;
use std::path::PathBuf;
use std::process::ExitCode;

/// The demonstration scenario and each side's scripted orders.
pub const SCENARIO: &str = include_str!("../../games/maurice-lite/hollowbrook.yaml");
pub const SCRIPTS: [(&str, &str); 2] = [
    (
        "french",
        include_str!("../../games/maurice-lite/demo/french.yaml"),
    ),
    (
        "austrians",
        include_str!("../../games/maurice-lite/demo/austrians.yaml"),
    ),
];

#[derive(Args, Debug)]
pub struct DemoArgs {
    /// Where to leave the archive, reports, keys and audit verdict.
    #[arg(long, default_value = "galloper-demo")]
    pub out: PathBuf,
    /// Stop after this many steps even if the game is not over.
    #[arg(long, default_value_t = 400)]
    pub max_steps: u32,
    /// Fight a whole battle instead: both sides' orders are written each step
    /// by a simple general (volleys, bombardment, charges, rallies, standing
    /// reactions) until one army's morale breaks.
    #[arg(long)]
    pub battle: bool,
}

/// Who writes the orders.
enum Author {
    /// The shipped orders, taken in turn.
    Scripts(BySide<VecDeque<serde_yaml::Value>>),
    /// A general per side who reads the table.
    Bots,
}

impl Author {
    /// The orders body a side owes now.
    fn owed(
        &mut self,
        state: &str,
        owed: &crate::ruleset::Owed,
    ) -> anyhow::Result<serde_yaml::Value> {
        let key = match owed.kind {
            OrdersKind::Deployment => "deploy",
            OrdersKind::Turn => "round",
            OrdersKind::Decision => "decide",
            OrdersKind::Reactions => "reactions",
        };
        match self {
            Author::Scripts(scripts) => {
                let queue = scripts
                    .get_mut(&owed.side)
                    .ok_or_else(|| anyhow!("no script for {}", owed.side))?;
                Ok(next_orders(queue, key).unwrap_or_else(pass_orders))
            }
            Author::Bots => {
                let typed: crate::rulesets::maurice_lite::state::State =
                    crate::yaml::from_str(state)?;
                let orders = match owed.kind {
                    OrdersKind::Deployment => {
                        let body = crate::ruleset::Ruleset::orders_template(
                            &crate::rulesets::maurice_lite::MauriceLite,
                            &typed,
                            &owed.side,
                        )
                        .ok_or_else(|| anyhow!("no deployment template"))?;
                        return Ok(crate::yaml::from_str(&body)?);
                    }
                    _ => bot::round_orders(&typed, &owed.side),
                };
                Ok(crate::yaml::from_str(&crate::yaml::to_string(&orders)?)?)
            }
        }
    }

    /// Standing reactions a bot sends every few steps while passive (two
    /// steps in four, so that each side gets its turn whatever the parity).
    fn optional(
        &mut self,
        state: &str,
        owed: &crate::ruleset::Owed,
        step: u32,
    ) -> anyhow::Result<Option<serde_yaml::Value>> {
        if !matches!(self, Author::Bots) || owed.kind != OrdersKind::Reactions || step % 4 >= 2 {
            return Ok(None);
        }
        let typed: crate::rulesets::maurice_lite::state::State = crate::yaml::from_str(state)?;
        let orders = bot::reactions(&typed, &owed.side);
        Ok(Some(crate::yaml::from_str(&crate::yaml::to_string(
            &orders,
        )?)?))
    }
}

/// Run the demo; prints where everything is.
pub fn run(args: &DemoArgs) -> anyhow::Result<ExitCode> {
    let out = &args.out;
    if out.exists() {
        std::fs::remove_dir_all(out).with_context(|| format!("cannot clear {}", out.display()))?;
    }
    let data = out.join("server");
    let outbox = out.join("reports");
    let sent = out.join("orders-sent");
    std::fs::create_dir_all(&sent)?;
    let mut server = Server::open(&data)?;
    let game = if args.battle {
        "hollowbrook-battle"
    } else {
        "hollowbrook-demo"
    };
    let mut keys = BySide::new();
    let mut players = Vec::new();
    for (side, _) in SCRIPTS {
        let k = sig::keygen(&format!("{side}@demo"))?;
        crate::cli::write_key(&out.join("players").join(side), &k)?;
        players.push(PlayerSpec {
            side: SideId::new(side),
            email: format!("{side}@players.example"),
            public_key: k.public_line.clone(),
        });
        keys.insert(SideId::new(side), k);
    }
    server.new_game(game, SCENARIO, &players)?;
    println!("Game {game} created: French and Austrian players have fresh ed25519 keys");
    let mut author = if args.battle {
        Author::Bots
    } else {
        let mut scripts: BySide<VecDeque<serde_yaml::Value>> = BySide::new();
        for (side, text) in SCRIPTS {
            let list: Vec<serde_yaml::Value> =
                crate::yaml::from_str(text).with_context(|| format!("demo orders for {side}"))?;
            scripts.insert(SideId::new(side), list.into());
        }
        Author::Scripts(scripts)
    };
    let mut steps = 0;
    let mut refused = 0;
    while let Some((step, due)) = server.due(game)? {
        if steps >= args.max_steps {
            bail!("the demo game did not end within {} steps", args.max_steps);
        }
        for owed in &due.optional {
            if let Some(body) = author.optional(&step.state_before, owed, step.step)? {
                let signer = &keys[&owed.side];
                if let Err(why) = submit(
                    &mut server,
                    &sent,
                    game,
                    step.step,
                    &owed.side,
                    &body,
                    signer,
                )? {
                    println!(
                        "  step {}: {}'s reactions were refused ({why})",
                        step.step, owed.side
                    );
                }
            }
        }
        for owed in &due.owed {
            let body = author.owed(&step.state_before, owed)?;
            let signer = &keys[&owed.side];
            let mut submitted = submit(
                &mut server,
                &sent,
                game,
                step.step,
                &owed.side,
                &body,
                signer,
            )?;
            if let Err(why) = &submitted {
                refused += 1;
                println!(
                    "  step {}: {}'s scripted orders were refused ({why}); it passes instead",
                    step.step, owed.side
                );
                submitted = submit(
                    &mut server,
                    &sent,
                    game,
                    step.step,
                    &owed.side,
                    &pass_orders(),
                    signer,
                )?;
            }
            if let Err(why) = submitted {
                bail!("even a pass was refused at step {}: {why}", step.step);
            }
        }
        for r in server.process(&outbox)? {
            println!(
                "step {:>3}: {}{}",
                r.step,
                r.heading,
                if r.over { "  -- game over" } else { "" }
            );
            steps += 1;
        }
    }
    let archive = server.archive_dir(game);
    let last = server
        .store()
        .steps(game)?
        .into_iter()
        .rev()
        .find_map(|s| s.result.map(|r| r.state_after));
    let outcome = match last {
        Some(state) => crate::rulesets::by_name("maurice-lite")
            .map(|r| r.outcome(&state))
            .transpose()?
            .flatten(),
        None => None,
    };
    match &outcome {
        Some(o) => println!(
            "Outcome: {} ({})",
            o.winner
                .as_ref()
                .map(|w| format!("{w} wins"))
                .unwrap_or_else(|| "a draw".into()),
            o.reason
        ),
        None => println!("Outcome: not decided"),
    }
    let verdict = match audit::audit(&archive) {
        Ok(v) => {
            let mut text = v.lines.join("\n");
            text.push_str(&format!(
                "\nAUDIT PASSED: {} step(s), {} public dice re-derived, full replay identical\n",
                v.steps, v.public_dice
            ));
            text
        }
        Err(f) => format!("{f}\n"),
    };
    std::fs::write(out.join("audit.txt"), &verdict)?;
    let last = outbox.join(game);
    println!();
    print!("{verdict}");
    println!("Orders refused and replaced by a pass: {refused}");
    println!("Everything is in {}:", out.display());
    println!(
        "  {}   the public archive (audit it: galloper audit {})",
        archive.display(),
        archive.display()
    );
    println!(
        "  {}   HTML, PNG and text reports per step and side",
        last.display()
    );
    println!("  {}   the signed orders files", sent.display());
    println!("  {}   the audit verdict", out.join("audit.txt").display());
    Ok(if verdict.contains("AUDIT PASSED") {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn next_orders(queue: &mut VecDeque<serde_yaml::Value>, key: &str) -> Option<serde_yaml::Value> {
    let pos = queue.iter().position(|v| v.get(key).is_some())?;
    queue.remove(pos)
}

fn pass_orders() -> serde_yaml::Value {
    crate::yaml::from_str("round: {volleys: false, command: pass}")
        .unwrap_or(serde_yaml::Value::Null)
}

/// Write, sign (as a player would) and submit one orders file.
fn submit(
    server: &mut Server,
    dir: &std::path::Path,
    game: &str,
    step: u32,
    side: &SideId,
    body: &serde_yaml::Value,
    key: &sig::KeyPair,
) -> anyhow::Result<Result<(), String>> {
    let text = envelope::compose(
        game,
        step,
        side,
        &crate::cli::fresh_entropy()?,
        &crate::yaml::to_string(body)?,
    );
    let signature = sig::sign(&key.private_openssh, sig::ORDERS_NAMESPACE, text.as_bytes())?;
    let name = format!("step-{step:04}-{side}.yaml");
    std::fs::write(dir.join(&name), &text)?;
    std::fs::write(dir.join(format!("{name}.sig")), &signature)?;
    Ok(server
        .submit(&name, text.as_bytes(), &signature)
        .map(|_| ())
        .map_err(|e| e.to_string()))
}
