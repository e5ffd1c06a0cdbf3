//! The phases of one step of a played game, each timed alone on the same
//! inputs: parse and verify one orders mail, validate, resolve, view,
//! render HTML, render PNG, compose the outgoing mail.

use super::play::{Played, Signed};
use super::stats::{Samples, repeat};
use crate::mail::compose::{self, Party, ReportMail, Thread};
use crate::mail::inbound::{self, Limits};
use crate::ruleset::OrdersKind;
use crate::server::report::StepReading;
use crate::server::store::{OrdersRow, StepRow};
use crate::side::SideId;
use crate::view::Viewer;
use crate::{envelope, render, sig};
use anyhow::{Context, anyhow};
use std::collections::BTreeMap;

/// What was measured, in the order of a step.
pub struct Phases {
    pub step: u32,
    pub heading: String,
    pub rows: Vec<(&'static str, Samples)>,
    /// The step's inputs, for the primitives: raw orders mails and state.
    pub inputs: Vec<u8>,
    pub signatures: usize,
    pub dice: usize,
    /// The map of the measured view, as SVG.
    pub svg: String,
    /// The distinct maps of the step (every reader's and the archive's):
    /// how many rasterisations the step needs.
    pub maps: usize,
}

/// The middle one of the game's resolved steps that owed turn orders.
fn chosen(p: &Played) -> anyhow::Result<(StepRow, Option<StepRow>, String)> {
    let steps = p.server.store().steps(&p.game)?;
    let mut turns = Vec::new();
    for (i, s) in steps.iter().enumerate() {
        if s.result.is_none() {
            continue;
        }
        let due = p.rules.due(&s.state_before)?;
        if due.owed.iter().any(|o| o.kind == OrdersKind::Turn) {
            turns.push((i, due.heading));
        }
    }
    let (i, heading) = turns
        .get(turns.len() / 2)
        .cloned()
        .context("the game has no resolved turn")?;
    Ok((steps[i].clone(), steps.get(i + 1).cloned(), heading))
}

/// Time each phase `reps` times on the middle turn of `p`.
pub fn measure(p: &Played, reps: usize) -> anyhow::Result<Phases> {
    let (row, next, heading) = chosen(p)?;
    let res = row.result.clone().context("the step is resolved")?;
    let orders: BTreeMap<SideId, OrdersRow> = p.server.store().latest_orders(&p.game, row.step)?;
    let g = p.server.store().game(&p.game)?.context("the game exists")?;
    let sides = p.rules.sides(&g.scenario)?;
    let mails: Vec<Vec<u8>> = orders
        .values()
        .map(|o| {
            p.mail(
                &Signed {
                    side: o.side.clone(),
                    name: o.file_name.clone(),
                    text: String::from_utf8_lossy(&o.text).into_owned(),
                    signature: o.signature.clone(),
                },
                0,
            )
        })
        .collect();
    let (side, _) = orders.iter().next().context("the step has orders")?;
    let key = p
        .server
        .players(&p.game)?
        .into_iter()
        .find(|pl| pl.side == *side)
        .context("the side has a player")?
        .public_key;
    let limits = Limits {
        max_bytes: p.cfg.max_message_bytes,
        max_attachments: p.cfg.max_attachments,
    };
    let raw = &mails[0];
    let mut rows = Vec::new();
    let (t, env) = repeat(reps, || {
        let inb = inbound::parse(raw, &limits).map_err(|e| anyhow!("{e}"))?;
        let sub = inbound::submissions(&inb)
            .into_iter()
            .next()
            .context("the mail carries the orders")?;
        let env = envelope::parse(&sub.file_name, &sub.orders).map_err(|e| anyhow!("{e}"))?;
        sig::verify(&key, sig::ORDERS_NAMESPACE, &sub.orders, &sub.signature)?;
        Ok(env)
    })?;
    rows.push(("parse and verify one orders mail", t));
    let (t, _) = repeat(reps, || {
        let v = p.rules.check(&row.state_before, side, &env.orders)?;
        anyhow::ensure!(v.is_empty(), "the stored orders no longer pass the check");
        Ok(v)
    })?;
    rows.push(("validate (ruleset check)", t));
    let (t, (resolved, inputs)) = repeat(reps, || {
        crate::server::resolve_step(p.rules, &sides, &row, &orders)
    })?;
    anyhow::ensure!(
        resolved.state == res.state_after,
        "resolving again gave another state"
    );
    rows.push(("resolve", t));
    let viewer = Viewer::Side(side.clone());
    let (t, view) = repeat(reps, || {
        StepReading::new(p.rules, &p.game, &row, &res, &inputs, next.as_ref())?.report(&viewer)
    })?;
    rows.push(("view (ruleset view and report model)", t));
    let (t, html) = repeat(reps, || {
        Ok((render::report_html(&view)?, render::report_text(&view)?))
    })?;
    rows.push(("render HTML and text", t));
    let (t, png) = repeat(reps, || Ok(render::report_png(&view)?))?;
    rows.push(("render PNG", t));
    let from = Party {
        name: Some(p.cfg.name.clone()),
        email: p.cfg.club_address.clone(),
    };
    let to = Party {
        name: None,
        email: format!("{side}@players.test"),
    };
    let (t, _) = repeat(reps, || {
        Ok(compose::report(&ReportMail {
            from: &from,
            to: &to,
            subject: format!("[{}] Step {}: {heading}", p.game, row.step),
            message_id: compose::message_id(
                "bench.test",
                &p.game,
                row.step,
                side.as_str(),
                "report",
            ),
            thread: Thread {
                root: compose::thread_root("bench.test", &p.game),
                parent: None,
            },
            text: &html.1,
            html: &html.0,
            png: &png,
            attachments: view
                .orders_template
                .iter()
                .map(|t| ("orders-template.yaml".to_string(), t.clone().into_bytes()))
                .collect(),
            date: Some("Wed, 18 Nov 2026 11:06:40 +0000".into()),
        })?)
    })?;
    rows.push(("build the outgoing mail", t));
    let mut map = view.map.clone();
    if map.title.trim().is_empty() {
        map.title = render::map_title(&view);
    }
    let svg = render::map_svg(&map)?;
    let dice = resolved.dice.len();
    let mut maps = std::collections::BTreeSet::new();
    let reading = StepReading::new(p.rules, &p.game, &row, &res, &inputs, next.as_ref())?;
    maps.extend(reader_maps(&reading, &sides)?);
    // The archive's map, as `Server::try_resolve` draws it.
    let public = crate::server::report::archive_sight(
        &*p.rules.load(&res.state_after)?,
        &p.game,
        row.step,
        &heading,
    );
    maps.insert(render::map_svg(&public.map)?);
    let mut all = mails.concat();
    all.extend_from_slice(row.state_before.as_bytes());
    Ok(Phases {
        step: row.step,
        heading,
        rows,
        inputs: all,
        signatures: orders.len(),
        dice,
        svg,
        maps: maps.len(),
    })
}

/// The map of every reader's report of a step (each side's and the
/// public's), as SVG; readers who see the same map give one entry.
pub fn reader_maps(
    reading: &StepReading,
    sides: &[SideId],
) -> anyhow::Result<std::collections::BTreeSet<String>> {
    let mut maps = std::collections::BTreeSet::new();
    for reader in sides
        .iter()
        .cloned()
        .map(Viewer::Side)
        .chain([Viewer::Public])
    {
        maps.insert(render::report_svg(&reading.report(&reader)?)?);
    }
    Ok(maps)
}
