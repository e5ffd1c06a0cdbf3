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
    /// The sha256 of the step's notice, as orders name it.
    pub notice: &'a str,
    pub revision: u32,
    pub side: &'a SideId,
    /// The side's key on record, as `ssh-keygen -l` prints it.
    pub fingerprint: &'a str,
    pub due: &'a Due,
    /// Each side's map drawn from its own table edge.
    pub own_edge: bool,
    /// The orders template the page falls back on (with its envelope).
    pub template: &'a str,
}

/// The page of `p.side` over `state`, the state its orders are for.
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
        notice: p.notice.into(),
        revision: p.revision,
        ruleset: p.ruleset.into(),
        fingerprint: p.fingerprint.into(),
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
        let fingerprint = crate::sig::fingerprint(&player.public_key)
            .map_err(|e| anyhow!("the key on record for {side} does not parse: {e}"))?;
        page(
            &*state,
            &PageFor {
                game,
                ruleset: &g.ruleset,
                step: step.step,
                notice: &envelope::notice_sha256(&step.notice),
                revision: self.next_revision(game, side)?,
                side,
                fingerprint: &fingerprint,
                due: &due,
                own_edge: self.store().own_edge(game)?,
                template,
            },
        )
    }
}

/// A side's key in [`super::report::keys_on_record`]'s lines.
pub fn fingerprint_in<'a>(keys: &'a [String], side: &SideId) -> Option<&'a str> {
    let prefix = format!("{side}: ");
    keys.iter().find_map(|k| k.strip_prefix(&prefix))
}
