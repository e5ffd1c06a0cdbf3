//! A side's orders page for the step it owes (issue 32): what it sees of
//! the state the orders are for, the ruleset's plan of what it can do now,
//! the envelope's fields and the key on record, laid out by
//! [`crate::render::orders_page`]. Attached to every report and briefing
//! that carries an orders template, and written by `galloper orders page`.

use super::Server;
use crate::envelope;
use crate::render::orders_page::{OrdersHead, orders_page};
use crate::ruleset::{Due, LoadedState};
use crate::side::SideId;
use crate::view::Viewer;
use anyhow::anyhow;

/// What a page needs beside the state.
pub struct PageFor<'a> {
    pub game: &'a str,
    pub ruleset: &'a str,
    pub step: u32,
    /// The step's notice text (the page carries its sha256).
    pub notice: &'a str,
    pub revision: u32,
    pub side: &'a SideId,
    /// The side's public key line on record.
    pub public_key: &'a str,
    pub due: &'a Due,
    /// Each side's map drawn from its own table edge.
    pub own_edge: bool,
    /// The orders template the page falls back on (with its envelope).
    pub template: &'a str,
}

/// The page, or none when the side owes nothing for the step.
pub fn page(state: &dyn LoadedState, p: &PageFor) -> anyhow::Result<String> {
    let viewer = Viewer::Side(p.side.clone());
    let mut map = state.map_view(&viewer);
    if p.own_edge {
        crate::view::enemy::turn_to_own_edge(&mut map, p.side);
    }
    map.title = format!("{}, step {}: {}", p.game, p.step, p.due.heading);
    let side_name = map
        .sides
        .iter()
        .find(|s| &s.side == p.side)
        .map_or_else(|| p.side.to_string(), |s| s.name.clone());
    let note = p
        .due
        .owed
        .iter()
        .chain(&p.due.optional)
        .find(|o| &o.side == p.side)
        .map_or_else(String::new, |o| o.note.clone());
    let head = OrdersHead {
        game: p.game.into(),
        step: p.step,
        side: p.side.to_string(),
        side_name,
        notice: envelope::notice_sha256(p.notice),
        revision: p.revision,
        ruleset: p.ruleset.into(),
        fingerprint: crate::sig::fingerprint(p.public_key)
            .map_err(|e| anyhow!("the key on record for {} does not parse: {e}", p.side))?,
        measure: map.unit.clone(),
        heading: p.due.heading.clone(),
        note,
    };
    let plan = state.orders_plan(p.side);
    Ok(orders_page(&head, &map, plan.as_ref(), p.template)?)
}

impl Server {
    /// `side`'s orders page for the open step of `game`, with `template`
    /// (the file `galloper orders template` prints) to fall back on.
    pub fn orders_page(&self, game: &str, side: &SideId, template: &str) -> anyhow::Result<String> {
        let (step, due) = self
            .due(game)?
            .ok_or_else(|| anyhow!("game {game} has no open step: it is over"))?;
        let g = self.store().game(game)?.ok_or_else(|| self.no_game(game))?;
        let rules = crate::rulesets::by_name(&g.ruleset)
            .ok_or_else(|| anyhow!("unknown ruleset {}", g.ruleset))?;
        let player = self
            .players(game)?
            .into_iter()
            .find(|p| &p.side == side)
            .ok_or_else(|| anyhow!("game {game} has no side {side}"))?;
        let state = rules.load(&step.state_before)?;
        page(
            &*state,
            &PageFor {
                game,
                ruleset: &g.ruleset,
                step: step.step,
                notice: &step.notice,
                revision: self.next_revision(game, side)?,
                side,
                public_key: &player.public_key,
                due: &due,
                own_edge: self.store().own_edge(game)?,
                template,
            },
        )
    }
}
