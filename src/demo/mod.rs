//! `galloper demo`: a whole game played from orders that each ruleset's
//! demo player writes (`demo::players::player`), signed by two freshly made
//! players, resolved, archived and audited.

mod bot;
pub mod maurice;
pub mod players;

use crate::audit;
use crate::ruleset::DemoPlayer;
use crate::server::{PlayerSpec, Server};
use crate::side::{BySide, SideId};
use crate::{envelope, sig};
use anyhow::{Context, anyhow, bail};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

pub use maurice::{SCENARIO, SCRIPTS};

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
    /// reactions) until one army's morale breaks. Rulesets whose demo is
    /// always played by its generals ignore it.
    #[arg(long)]
    pub battle: bool,
    /// The ruleset to play: every ruleset of the registry has a demo.
    #[arg(long, default_value = "maurice-lite", value_parser = ruleset_names())]
    pub ruleset: String,
}

/// Make room for a demo at `out` without deleting anything: an earlier
/// demo's folder (one with `server/` in it) is renamed to the first free
/// `OUT.N`, and said so; an empty folder is used; any other folder is
/// refused, since it may be someone's work.
fn set_aside(out: &std::path::Path) -> anyhow::Result<()> {
    if !out.exists() {
        return Ok(());
    }
    let empty = std::fs::read_dir(out)
        .map(|mut d| d.next().is_none())
        .unwrap_or(false);
    if empty {
        return Ok(());
    }
    if !out.join("server").is_dir() {
        bail!(
            "{} exists and does not hold an earlier demo: give another folder with --out, or move it away",
            out.display()
        );
    }
    let aside = (1..10_000)
        .map(|n| {
            let mut s = out.as_os_str().to_owned();
            s.push(format!(".{n}"));
            PathBuf::from(s)
        })
        .find(|p| !p.exists())
        .ok_or_else(|| anyhow!("too many earlier demos beside {}", out.display()))?;
    std::fs::rename(out, &aside).with_context(|| {
        format!(
            "cannot move the earlier demo {} aside to {}",
            out.display(),
            aside.display()
        )
    })?;
    println!(
        "The earlier demo in {} was moved to {} (delete it when you no longer need it).",
        out.display(),
        aside.display()
    );
    Ok(())
}

/// Run the demo; prints where everything is.
pub fn run(args: &DemoArgs) -> anyhow::Result<ExitCode> {
    let mut author: Box<dyn DemoPlayer> = crate::demo::players::player(&args.ruleset, args.battle)
        .map_err(|e| anyhow!("cannot set up the demo of {}: {e}", args.ruleset))?
        .ok_or_else(|| {
            anyhow!(
                "no demo player for ruleset {:?}; choose one of: {}",
                args.ruleset,
                crate::demo::players::names().join(", ")
            )
        })?;
    let ruleset = crate::rulesets::by_name(author.ruleset()).ok_or_else(|| {
        anyhow!(
            "the demo player's ruleset {} is not registered",
            author.ruleset()
        )
    })?;
    let sides = ruleset
        .sides(author.scenario())
        .context("the demo scenario")?;
    let out = &args.out;
    set_aside(out)?;
    let data = out.join("server");
    let outbox = out.join("reports");
    let sent = out.join("orders-sent");
    std::fs::create_dir_all(&sent)?;
    let mut server = Server::open(&data)?;
    let game = author.game();
    let mut keys = BySide::new();
    let mut players = Vec::new();
    for side in &sides {
        let k = sig::keygen(&format!("{side}@demo"))?;
        crate::files::write_key(&out.join("players").join(side.to_string()), &k)?;
        players.push(PlayerSpec {
            side: side.clone(),
            email: format!("{side}@players.example"),
            public_key: k.public_line.clone(),
        });
        keys.insert(side.clone(), k);
    }
    server.new_game(game, author.scenario(), &players)?;
    println!(
        "Game {game} ({}) created: the {} players have fresh ed25519 keys",
        author.ruleset(),
        sides
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(" and ")
    );
    let mut steps = 0;
    let mut refused = 0;
    while let Some((step, due)) = server.due(game)? {
        if steps >= args.max_steps {
            // Stopped where asked: a game in progress, audited so far.
            println!(
                "Stopped after {steps} steps, as --max-steps asked: the game is in progress (step {} open)",
                step.step
            );
            break;
        }
        for owed in &due.optional {
            if let Some(body) = author
                .optional(&step.state_before, owed, step.step)
                .map_err(|e| anyhow!("the demo player failed: {e}"))?
            {
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
                        "  step {}: {} reactions were refused ({why})",
                        step.step,
                        crate::words::possessive(owed.side.as_str())
                    );
                }
            }
        }
        for owed in &due.owed {
            let body = author
                .orders(&step.state_before, owed)
                .map_err(|e| anyhow!("the demo player failed: {e}"))?;
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
                    "  step {}: {} scripted orders were refused ({why}); it passes instead",
                    step.step,
                    crate::words::possessive(owed.side.as_str())
                );
                submitted = submit(
                    &mut server,
                    &sent,
                    game,
                    step.step,
                    &owed.side,
                    &author.pass(owed),
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
    // The winner named as the scenario names its side ("the Austrians
    // win"), not by its id.
    let outcome = match last {
        Some(state) => crate::server::ended_words(ruleset, &state)?,
        None => None,
    };
    match &outcome {
        Some(words) => println!("Outcome: {words}"),
        None => println!("Outcome: not decided"),
    }
    let verdict = match audit::audit(&archive) {
        Ok(v) => {
            let mut text = v.lines.join("\n");
            text.push_str(&format!("\n{}\n", v.summary()));
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
    let notice = match server.store().open_step(game)? {
        Some(open) if open.step == step => envelope::notice_sha256(&open.notice),
        _ => anyhow::bail!("step {step} of {game} is not open"),
    };
    let head = envelope::Head {
        game,
        step,
        side,
        notice: &notice,
        revision: server.next_revision(game, side)?,
    };
    let text = envelope::compose(
        &head,
        &crate::envelope::fresh_entropy()?,
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

/// Every ruleset's name, for `--ruleset`: its help lists them, and a wrong
/// name is refused with the list.
fn ruleset_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(crate::rulesets::names())
}
