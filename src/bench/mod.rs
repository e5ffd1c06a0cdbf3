//! `galloper bench`: how fast Galloper is, measured on this machine and
//! printed as a table (and, when asked, as docs/PERFORMANCE.md). Pure
//! measurement: it plays games in scratch folders and changes nothing else.

pub mod chromium;
pub mod generate;
pub mod hostile;
pub mod mail_size;
pub mod mailgen;
pub mod orders_page;
pub mod phases;
pub mod play;
pub mod primitives;
pub mod report;
pub mod scaling;
pub mod scratch;
pub mod site_size;
pub mod stats;
pub mod throughput;

use crate::ruleset::DemoPlayer;
use anyhow::anyhow;
use clap::Args;
use report::{Machine, Report};
use scratch::Scratch;
use stats::{human, repeat};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// A smoke run: few repetitions, short games, 10 units, no Chromium.
    #[arg(long)]
    pub quick: bool,
    /// Unit counts a side for the scaling table.
    #[arg(long, value_delimiter = ',', default_value = "10,100,1000")]
    pub sizes: Vec<usize>,
    /// Orders mails for the intake throughput.
    #[arg(long, default_value_t = 1000)]
    pub mails: usize,
    /// Only the scaling table (for working on the rules' speed).
    #[arg(long)]
    pub scaling_only: bool,
    /// Only these rulesets in the scaling table (all when not given).
    #[arg(long, value_delimiter = ',')]
    pub rulesets: Vec<String>,
    /// Only the demo games: their phases, whole steps and primitives (no
    /// bigger games, intake or scaling), for working on a step's speed.
    #[arg(long, conflicts_with = "scaling_only")]
    pub steps_only: bool,
    /// Only the targets: the 30-a-side steps, the long audit and the intake.
    #[arg(long, conflicts_with_all = ["scaling_only", "steps_only"])]
    pub targets_only: bool,
    /// Only the intake's throughput, this many runs (best and median), for
    /// working on the intake's speed.
    #[arg(long, conflicts_with_all = ["scaling_only", "steps_only", "targets_only"])]
    pub intake_only: Option<usize>,
    /// Also write the report as markdown to this file (docs/PERFORMANCE.md).
    #[arg(long)]
    pub write: Option<PathBuf>,
}

/// The settings a run uses, from the arguments.
struct Plan {
    reps: usize,
    demo_steps: u32,
    step_game_steps: u32,
    /// Units a side of the whole-step target game (30; fewer with --quick).
    step_units: usize,
    audit_steps: u32,
    sizes: Vec<usize>,
    rulesets: Vec<String>,
    mails: usize,
    quick: bool,
}

impl Plan {
    fn of(a: &BenchArgs) -> Plan {
        if a.quick {
            Plan {
                reps: 1,
                demo_steps: 2,
                step_game_steps: 2,
                step_units: 4,
                audit_steps: 2,
                sizes: vec![10],
                rulesets: a.rulesets.clone(),
                mails: a.mails.min(10),
                quick: true,
            }
        } else {
            Plan {
                reps: 30,
                demo_steps: 400,
                step_game_steps: 21,
                step_units: 30,
                audit_steps: 200,
                sizes: a.sizes.clone(),
                rulesets: a.rulesets.clone(),
                mails: a.mails,
                quick: false,
            }
        }
    }
}

fn player(ruleset: &str, battle: bool) -> anyhow::Result<Box<dyn DemoPlayer>> {
    crate::demo::players::player(ruleset, battle)
        .map_err(|e| anyhow!("{e}"))?
        .ok_or_else(|| anyhow!("no demo player for {ruleset}"))
}

/// The goal of the whole step against the sum of its primitives.
const GOAL_RATIO: f64 = 1.3;

/// The `q` quantile of `xs`, nearest rank; 0 when empty.
fn quantile(xs: &[f64], q: f64) -> f64 {
    let mut s = xs.to_vec();
    s.sort_by(f64::total_cmp);
    if s.is_empty() {
        return 0.0;
    }
    s[((q * s.len() as f64).ceil() as usize).clamp(1, s.len()) - 1]
}

fn median(xs: &[f64]) -> f64 {
    quantile(xs, 0.5)
}

/// A ratio with its spread: `3.1x (2.8-3.6x)`.
fn ratio_figure(xs: &[f64]) -> String {
    format!(
        "{:.2}x ({:.2}-{:.2}x)",
        median(xs),
        quantile(xs, 0.1),
        quantile(xs, 0.9)
    )
}

fn yes(ok: bool) -> &'static str {
    if ok { "met" } else { "MISSED" }
}

/// Run the benchmark, print its table, and write the markdown if asked.
pub fn run(args: &BenchArgs) -> anyhow::Result<ExitCode> {
    let plan = Plan::of(args);
    let mut r = Report::default();

    if let Some(runs) = args.intake_only {
        intake_runs(&plan, runs, &mut r)?;
    } else if args.steps_only {
        demo_games(args, &plan, &mut r)?;
    } else if args.targets_only {
        bigger_games(&plan, &mut r)?;
    } else {
        if !args.scaling_only {
            games(args, &plan, &mut r)?;
        }
        scaling_rows(&plan, args.quick, &mut r)?;
    }
    if let Some(kib) = stats::peak_rss_kib() {
        r.add(
            "memory",
            "peak memory (VmHWM) of the whole run",
            format!("{:.1} MiB", kib as f64 / 1024.0),
            if args.steps_only {
                "demo games only (--steps-only)"
            } else if args.intake_only.is_some() {
                "the intake only (--intake-only)"
            } else {
                "scaling included"
            },
        );
    }
    if let Some(path) = &args.write {
        let mut command = String::from("cargo run --release -- bench");
        if args.quick {
            command.push_str(" --quick");
        }
        if args.steps_only {
            command.push_str(" --steps-only");
        }
        if args.targets_only {
            command.push_str(" --targets-only");
        }
        if let Some(runs) = args.intake_only {
            command.push_str(&format!(" --intake-only {runs}"));
        }
        if args.scaling_only {
            command.push_str(" --scaling-only");
        }
        if args.sizes != [10, 100, 1000] {
            let sizes: Vec<String> = args.sizes.iter().map(usize::to_string).collect();
            command.push_str(&format!(" --sizes {}", sizes.join(",")));
        }
        if !args.rulesets.is_empty() {
            command.push_str(&format!(" --rulesets {}", args.rulesets.join(",")));
        }
        command.push_str(&format!(" --write {}", path.display()));
        let md = r.markdown(&Machine::here(), &command);
        let old = std::fs::read_to_string(path).unwrap_or_default();
        std::fs::write(path, report::splice(&old, &md))
            .map_err(|e| anyhow!("cannot write {}: {e}", path.display()))?;
        println!("wrote {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// The demo games, the bigger games of the targets, and the intake.
fn games(args: &BenchArgs, plan: &Plan, r: &mut Report) -> anyhow::Result<()> {
    demo_games(args, plan, r)?;
    bigger_games(plan, r)
}

/// 1 and 3: the demo game of each ruleset, its phases and primitives.
fn demo_games(args: &BenchArgs, plan: &Plan, r: &mut Report) -> anyhow::Result<()> {
    let chrome = if args.quick { None } else { chromium::find() };
    // 1. The demo game of each ruleset, through the mail.
    for ruleset in ["maurice-lite", "morschauser-macduff"] {
        let mut author = player(ruleset, false)?;
        let (mut p, sides) =
            play::open_game(Scratch::new(ruleset)?, author.scenario(), author.game())?;
        p.pair = true;
        p.play(author.as_mut(), plan.demo_steps, true)?;
        let ph = phases::measure(&p, plan.reps)?;
        let section = if ruleset == "maurice-lite" {
            "maurice-lite"
        } else {
            "morschauser"
        };
        let game = format!("{} ({} steps)", p.game, p.steps);
        for (what, s) in &ph.rows {
            r.add(
                section,
                what.to_string(),
                format!("{} / {}", human(s.median()), human(s.p90())),
                format!("median / p90 of {}, step {} of {game}", s.len(), ph.step),
            );
        }
        let full = &p.step_times;
        r.add(
            section,
            "whole step, mail in to mail queued",
            format!("{} / {}", human(full.median()), human(full.p90())),
            format!("median / p90 over the {} steps of {game}", full.len()),
        );
        let archive = p.archive();
        let (a, v) = repeat(plan.reps.min(5), || {
            crate::audit::audit(&archive).map_err(|f| anyhow!("the audit failed: {f}"))
        })?;
        r.add(
            section,
            "audit of the whole game",
            human(a.median()),
            format!(
                "{} steps, {} public dice{}",
                v.steps,
                v.public_dice,
                if v.replayed { ", full replay" } else { "" }
            ),
        );
        site_size::rows(section, &archive, r)?;
        // 3. The step against its primitives, measured now on its inputs.
        let rasters = ph.maps;
        let prim = primitives::measure(
            &ph.inputs,
            ph.signatures,
            ph.dice,
            &ph.svg,
            rasters,
            plan.reps,
        )?;
        for (what, s) in &prim.rows {
            r.add(
                section,
                format!("primitive: {what}"),
                human(s.median()),
                "median",
            );
        }
        r.add(
            section,
            "whole step / sum of its primitives",
            ratio_figure(&p.ratios),
            format!(
                "each of {} steps over its own primitives measured right after it (SHA-256, ed25519, ChaCha20, drawing and PNG encoding of each distinct map once: {} for {} readers and the archive in step {}); median (p10-p90); goal <= {GOAL_RATIO}x: {}",
                p.ratios.len(),
                ph.maps,
                sides.len() + 1,
                ph.step,
                yes(median(&p.ratios) <= GOAL_RATIO)
            ),
        );
        let png = ph
            .rows
            .iter()
            .find(|(w, _)| *w == "render PNG")
            .map_or(0.0, |(_, s)| s.median());
        match (&chrome, args.quick) {
            (_, true) => r.add(
                section,
                "our PNG / headless Chromium screenshot",
                "skipped",
                "--quick",
            ),
            (None, _) => r.add(
                section,
                "our PNG / headless Chromium screenshot",
                "skipped",
                "Chromium not found on PATH (apt-get install chromium)",
            ),
            (Some(bin), _) => match chromium::screenshots(bin, &ph.svg, 3) {
                Ok(c) => r.add(
                    section,
                    "our PNG / headless Chromium screenshot",
                    format!("{:.3}", png / c.median().max(1e-9)),
                    format!(
                        "{} / {} (Chromium: a fresh headless process per shot)",
                        human(png),
                        human(c.median())
                    ),
                ),
                Err(e) => r.add(
                    section,
                    "our PNG / headless Chromium screenshot",
                    "skipped",
                    format!("Chromium failed: {e}"),
                ),
            },
        }
        // Issue 19: a warm browser and rsvg-convert, each against its goal.
        chromium::yardsticks(section, png, &ph.svg, args.quick, r);
    }
    if let Some(kib) = stats::peak_rss_kib() {
        r.add(
            "memory",
            "peak memory (VmHWM) after both demo games",
            format!("{:.1} MiB", kib as f64 / 1024.0),
            "the whole process so far",
        );
    }

    Ok(())
}

/// 4. The targets on bigger games, and the intake.
fn bigger_games(plan: &Plan, r: &mut Report) -> anyhow::Result<()> {
    for ruleset in ["maurice-lite", "morschauser-macduff"] {
        let scenario = if ruleset == "maurice-lite" {
            generate::maurice(plan.step_units)
        } else {
            generate::morschauser(plan.step_units)
        };
        let mut author = player(ruleset, true)?;
        let (mut p, _) = play::open_game(Scratch::new("step30")?, &scenario, "thirty")?;
        p.play(author.as_mut(), plan.step_game_steps, true)?;
        mail_size::row(&p, ruleset, plan.step_units, r)?;
        if ruleset == "maurice-lite" {
            // Its goal is at 30 units a side, quick or not.
            orders_page::rows(30, plan.quick, r)?;
        }
        let section = format!("{ruleset}, {} units a side", plan.step_units);
        for (what, s) in &phases::measure(&p, plan.reps.min(10))?.rows {
            r.add(
                section.as_str(),
                what.to_string(),
                format!("{} / {}", human(s.median()), human(s.p90())),
                format!("median / p90 of {}, one turn of this game", s.len()),
            );
        }
        let s = &p.step_times;
        r.add(
            "targets",
            format!("{ruleset}: whole step, {} units a side", plan.step_units),
            format!("{} / {}", human(s.median()), human(s.p90())),
            format!(
                "median / p90 over {} steps; target < 50 ms median: {}",
                s.len(),
                yes(s.median() < 0.05)
            ),
        );
    }
    {
        let mut author = player("morschauser-macduff", false)?;
        let scenario = generate::morschauser_for(plan.step_units, 30);
        let (mut p, _) = play::open_game(Scratch::new("audit60")?, &scenario, "long-game")?;
        p.play(author.as_mut(), plan.audit_steps, false)?;
        let archive = p.archive();
        let (a, v) = repeat(plan.reps.min(3), || {
            crate::audit::audit(&archive).map_err(|f| anyhow!("the audit failed: {f}"))
        })?;
        r.add(
            "targets",
            format!(
                "audit of a {}-step game (morschauser, {} a side)",
                v.steps, plan.step_units
            ),
            human(a.median()),
            format!(
                "{}{}; goal < 100 ms for 60 steps: {}",
                if v.replayed {
                    "full replay"
                } else {
                    "public checks only"
                },
                if p.over { ", game over" } else { "" },
                yes(a.median() < 0.1 && v.steps >= 60)
            ),
        );
    }
    let mut author = player("maurice-lite", false)?;
    let t = throughput::measure(author.as_mut(), plan.mails)?;
    r.add(
        "targets",
        "intake throughput (Maildir to handled, real store)",
        format!("{:.0} mails/s", t.per_second()),
        format!(
            "{} signed orders mails, {} accepted, in {}; goal >= 5000/s: {}",
            t.mails,
            t.accepted,
            human(t.secs),
            yes(t.per_second() >= 5000.0)
        ),
    );
    let w = hostile::measure(author.as_mut())?;
    r.add(
        "targets",
        "worst hostile message, CPU time of the intake",
        human(w.cpu.as_secs_f64()),
        format!(
            "{} ({} bytes), the costliest of {} crafted messages up to {} bytes; goal < {} ms of CPU: {}",
            w.name,
            w.bytes,
            w.messages,
            w.largest,
            hostile::GOAL.as_millis(),
            yes(w.cpu < hostile::GOAL)
        ),
    );

    Ok(())
}

/// The intake's throughput alone, `runs` times: the machine is often
/// shared, so the best and the median of the runs.
fn intake_runs(plan: &Plan, runs: usize, r: &mut Report) -> anyhow::Result<()> {
    let (mut rates, mut cpus) = (Vec::new(), Vec::new());
    for _ in 0..runs.max(1) {
        // A demo player of its own each run: one remembers what it sent.
        let mut author = player("maurice-lite", false)?;
        let t = throughput::measure(author.as_mut(), plan.mails)?;
        if t.accepted as usize != t.mails {
            return Err(anyhow!(
                "the intake accepted {} of {} orders mails",
                t.accepted,
                t.mails
            ));
        }
        rates.push(t.per_second());
        if let Some(cpu) = t.cpu_secs {
            cpus.push(cpu / t.mails.max(1) as f64);
        }
    }
    let best = rates.iter().copied().fold(0.0, f64::max);
    let cpu = if cpus.is_empty() {
        String::new()
    } else {
        format!(
            "; CPU a mail {} best, {} median",
            human(cpus.iter().copied().fold(f64::MAX, f64::min)),
            human(median(&cpus))
        )
    };
    r.add(
        "targets",
        "intake throughput (Maildir to handled, real store)",
        format!("{best:.0} mails/s"),
        format!(
            "best of {} runs of {} signed orders mails; median {:.0}/s{cpu}; goal >= 5000/s: {}",
            rates.len(),
            plan.mails,
            median(&rates),
            yes(best >= 5000.0)
        ),
    );
    Ok(())
}

/// 2. Scaling, with growth ratios.
fn scaling_rows(plan: &Plan, quick: bool, r: &mut Report) -> anyhow::Result<()> {
    let (points, missing) = scaling::run(&plan.sizes, quick, &plan.rulesets);
    for p in &points {
        let prev = points
            .iter()
            .rfind(|q| q.ruleset == p.ruleset && q.units < p.units);
        let growth = |now: &stats::Samples, then: Option<&stats::Samples>| match (prev, then) {
            (Some(q), Some(then)) => {
                let k = p.units as f64 / q.units as f64;
                let nlogn = k * (p.units as f64).ln() / (q.units as f64).ln();
                let x = now.median() / then.median().max(1e-12);
                format!(
                    "x{x:.1} for x{k:.0} units (n log n: x{nlogn:.1}, n^2: x{:.0}): {}",
                    k * k,
                    if x <= nlogn * 1.1 {
                        "no worse than n log n"
                    } else {
                        "worse than n log n"
                    }
                )
            }
            _ => "first size".into(),
        };
        let target = if p.units >= 1000 {
            format!("; target < 250 ms: {}", yes(p.time.median() < 0.25))
        } else {
            String::new()
        };
        r.add(
            "scaling",
            format!("{} resolve, {} units a side", p.ruleset, p.units),
            format!("{} / {}", human(p.time.median()), human(p.time.p90())),
            format!(
                "{}; {} events, {} dice; {}{target}; result SHA-256 {}",
                growth(&p.time, prev.map(|q| &q.time)),
                p.events,
                p.dice,
                p.orders,
                &p.result[..12]
            ),
        );
        r.add(
            "scaling",
            format!("{} whole step, {} units a side", p.ruleset, p.units),
            format!("{} / {}", human(p.step.median()), human(p.step.p90())),
            format!(
                "{}; orders parsed, state parsed, resolved and written, one view, its map as PNG",
                growth(&p.step, prev.map(|q| &q.step))
            ),
        );
    }
    for m in &missing {
        r.add(
            "scaling",
            format!("{} fighting turn, {} units a side", m.ruleset, m.units),
            "-",
            m.why.clone(),
        );
    }
    Ok(())
}
