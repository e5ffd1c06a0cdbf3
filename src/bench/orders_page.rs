//! Issue 32: the orders page's weight and opening time at 30 units a side,
//! for each ruleset, on the scaling battles' fighting step (the demo
//! generals' battle of [`super::scaling`]): the page of the side that owes
//! orders, with its plan, map, template and scripts.

use super::report::Report;
use super::scratch::Scratch;
use super::stats::{Samples, human};
use crate::ruleset::AnyRuleset;
use crate::server::orders_page::{PageFor, page};
use std::process::{Command, Stdio};
use std::time::Duration;

/// The goal: a page under 1.5 MB.
pub const GOAL_BYTES: usize = 1_500_000;
/// The goal for opening it in the test's Chromium, ready to draw on.
pub const GOAL_READY_MS: f64 = 1000.0;

const READY_SCRIPT: &str = include_str!("orders_ready.mjs");

/// The page of the side that owes the fight's step, from its state.
pub fn of_state(rules: &dyn AnyRuleset, state: &str, game: &str) -> anyhow::Result<String> {
    let loaded = rules.load(state)?;
    let due = loaded.due();
    let owed = due
        .owed
        .first()
        .ok_or_else(|| anyhow::anyhow!("the step owes nothing"))?;
    let body = loaded
        .orders_template(&owed.side)
        .ok_or_else(|| anyhow::anyhow!("{} has no template", owed.side))?;
    let notice = "0".repeat(64);
    let head = crate::envelope::Head {
        game,
        step: 2,
        side: &owed.side,
        notice: &notice,
        revision: 1,
    };
    let template = crate::envelope::template(&head, rules.name(), &body);
    page(
        &*loaded,
        &PageFor {
            game,
            ruleset: rules.name(),
            step: 2,
            notice: &notice,
            revision: 1,
            side: &owed.side,
            fingerprint: "SHA256:bench0000000000000000000000000000000000000",
            due: &due,
            own_edge: false,
            template: &template,
        },
    )
}

/// The milliseconds to open `html` in Chromium until it is ready, `reps`
/// times; none when node, playwright-core or Chromium is missing.
pub fn ready(html: &str, reps: usize) -> anyhow::Result<Option<Samples>> {
    let (Some(bin), Some((node, modules))) =
        (super::chromium::find(), super::chromium::find_playwright())
    else {
        return Ok(None);
    };
    let dir = Scratch::new("orders-ready")?;
    let file = dir.path().join("orders.html");
    std::fs::write(&file, html)?;
    let script = dir.path().join("orders_ready.mjs");
    std::fs::write(&script, READY_SCRIPT)?;
    let plan =
        serde_json::json!({"modules": modules, "chromium": bin, "page": file, "reps": reps.max(1)});
    let plan_file = dir.path().join("plan.json");
    std::fs::write(&plan_file, plan.to_string())?;
    let out = Command::new(node)
        .arg(&script)
        .arg(&plan_file)
        .stdin(Stdio::null())
        .output()?;
    if !out.status.success() {
        anyhow::bail!(
            "the orders page's timing script failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    let ms: Vec<f64> = serde_json::from_slice(&out.stdout)?;
    let mut s = Samples::default();
    for m in ms {
        s.push(Duration::from_secs_f64(m.max(0.0) / 1000.0));
    }
    Ok(Some(s))
}

/// How a scaling battle of `n` units a side is set up.
pub type Setup = fn(usize) -> anyhow::Result<super::scaling::Fight>;

/// The rows: each ruleset's page weight, and its opening time unless quick.
pub fn rows(units: usize, quick: bool, r: &mut Report) -> anyhow::Result<()> {
    use super::scaling::*;
    let fights: [(&str, Setup); 5] = [
        ("maurice-lite", maurice_fight_setup),
        ("morschauser-macduff", morschauser_setup),
        ("napoleonic-corps", napoleonic_setup),
        ("activation-dice", activation_setup),
        ("crowther-dougan", crowther_setup),
    ];
    for (name, setup) in fights {
        let rules =
            crate::rulesets::by_name(name).ok_or_else(|| anyhow::anyhow!("no ruleset {name}"))?;
        let fight = setup(units)?;
        let html = of_state(rules, &fight.state, "bench")?;
        r.add(
            "targets",
            format!("orders page, {units} units a side ({name})"),
            format!("{:.0} KB", html.len() as f64 / 1000.0),
            format!(
                "the owing side's page on a fighting step; goal < 1.5 MB: {}",
                super::yes(html.len() < GOAL_BYTES)
            ),
        );
        if quick {
            continue;
        }
        match ready(&html, 5)? {
            Some(s) => r.add(
                "targets",
                format!("orders page opened and ready, {units} units a side ({name})"),
                format!("{} / {}", human(s.median()), human(s.p90())),
                format!(
                    "median / p90 of {} openings in headless Chromium from file://; goal < 1 s: {}",
                    s.len(),
                    super::yes(s.median() * 1000.0 < GOAL_READY_MS)
                ),
            ),
            None => r.add(
                "targets",
                format!("orders page opened and ready ({name})"),
                "skipped",
                "needs chromium, node and tests/browser's playwright-core",
            ),
        }
    }
    Ok(())
}
