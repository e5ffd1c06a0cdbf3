//! The game master's preview: the open step resolved in memory with the
//! orders held so far and throw-away dice, its public view mailed to him
//! alone. The step still takes orders, so none of its secrets may show.

use super::{CommandRefusal, GameMaster, Issued, server_err};
use crate::dice::{Dice, protocol};
use crate::mail::compose::{self, Party, ReportMail, Thread};
use crate::rulesets;
use crate::server::report::{self, Rendered};
use crate::server::store::{AdminChange, OutboxRow, StepResult, StepRow};
use crate::server::{Server, resolve_step};
use crate::side::SideId;
use crate::view::Viewer;

impl Server {
    /// Resolve the open step in memory with the orders held so far, with
    /// throw-away dice (never the step's own), and mail the public view of
    /// the result to the game master alone. Nothing of the game changes.
    pub fn preview(&mut self, c: &Issued, gm: &GameMaster) -> Result<String, CommandRefusal> {
        let game = &c.file.game;
        let p = self
            .preview_report(game)
            .map_err(|e| CommandRefusal::NotNow(e.to_string()))?;
        let missing = if p.missing.is_empty() {
            "none".to_string()
        } else {
            p.missing
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut text = format!(
            "Preview of game {game} step {}: orders held from {}; missing: {missing}.",
            p.step,
            if p.held.is_empty() {
                "no side".to_string()
            } else {
                p.held
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        );
        let mut mails = Vec::new();
        match &p.rendered {
            Ok(r) => {
                let to = gm.email.clone().ok_or_else(|| {
                    CommandRefusal::NotNow(
                        "no game_master address is configured to send the preview to".into(),
                    )
                })?;
                text.push_str(&format!(
                    "\nThe preview (the public view, with dice that are not the step's dice) is mailed to {to} only; nothing was stored or sent to the players."
                ));
                if let Some(m) = &self.mail {
                    let message_id = compose::message_id(&m.domain, game, p.step, "gm", &c.tag());
                    let body = format!("{text}\n\n{}", r.text);
                    let bytes = compose::report(&ReportMail {
                        from: &m.from,
                        to: &Party {
                            name: None,
                            email: to.clone(),
                        },
                        subject: format!(
                            "[{game}] PREVIEW of step {} (not sent to the players)",
                            p.step
                        ),
                        message_id: message_id.clone(),
                        thread: Thread {
                            root: compose::thread_root(&m.domain, game),
                            parent: None,
                        },
                        text: &body,
                        html: &r.html,
                        png: &r.png,
                        attachments: Vec::new(),
                        date: Some(crate::mail::date::rfc2822(c.now)),
                    })
                    .map_err(server_err)?;
                    mails.push(OutboxRow {
                        game: Some(game.clone()),
                        step: Some(p.step),
                        reader: Some("gm".into()),
                        ..OutboxRow::queued(message_id, "preview", &m.from.email, &to, bytes, c.now)
                    });
                }
            }
            Err(e) => text.push_str(&format!(
                "\nThe step cannot be resolved with these orders: {e}"
            )),
        }
        self.record(c, &text, &AdminChange::Nothing, mails)
    }

    /// The open step resolved in memory with throw-away dice: the public
    /// view, rendered, or why it cannot be resolved yet. Reads the store,
    /// changes nothing.
    pub fn preview_report(&self, game: &str) -> anyhow::Result<Preview> {
        let g = self.store.game(game)?.ok_or_else(|| self.no_game(game))?;
        let rules = rulesets::by_name(&g.ruleset)
            .ok_or_else(|| anyhow::anyhow!("unknown ruleset {}", g.ruleset))?;
        let open = self
            .store
            .open_step(game)?
            .ok_or_else(|| anyhow::anyhow!("game {game} has no open step to preview"))?;
        let orders = self.store.latest_orders(game, open.step)?;
        let due = rules.due(&open.state_before)?;
        let missing = due
            .owed
            .iter()
            .map(|o| o.side.clone())
            .filter(|s| !orders.contains_key(s))
            .collect();
        let sides = rules.sides(&g.scenario)?;
        let keys = self.keys_on_record(game)?;
        let rendered = preview_view(rules, game, &open, &sides, &orders).and_then(|mut view| {
            view.keys = keys;
            Rendered::new(view)
        });
        Ok(Preview {
            step: open.step,
            held: orders.keys().cloned().collect(),
            missing,
            rendered: rendered.map_err(|e| e.to_string()),
        })
    }
}

/// The words a preview carries in place of the dice audit.
pub const NOT_THE_STEP_DICE: &str = "PREVIEW: these dice are not the step's dice. They come from a throw-away secret drawn for this preview alone and then forgotten, and whatever the state hides (a deck's order) was drawn again for it: nothing here tells the step's secrets, seeds, hands or cards to come.";

/// The open step resolved in memory for the game master, as the public
/// sees it. The step still takes orders, so nothing of its secrets may show:
/// the preview resolves from the state with its hidden order drawn again
/// ([`crate::ruleset::Ruleset::conceal`]) and with dice from a throw-away
/// secret, and shows the public view alone (no hands), without the dice
/// audit (no secret, seed or state hash, which could be tested by guessing).
fn preview_view(
    rules: &dyn crate::ruleset::AnyRuleset,
    game: &str,
    open: &StepRow,
    sides: &[SideId],
    orders: &std::collections::BTreeMap<SideId, crate::server::store::OrdersRow>,
) -> anyhow::Result<crate::view::ReportView> {
    let mut throwaway = open.clone();
    throwaway.public_secret = protocol::fresh_secret()?;
    throwaway.hidden_secret = protocol::fresh_secret()?;
    let mut shuffle = Dice::from_seeds(protocol::fresh_secret()?, protocol::fresh_secret()?);
    throwaway.state_before = rules.load(&open.state_before)?.concealed(&mut shuffle)?;
    let (res, inputs) = resolve_step(rules, sides, &throwaway, orders)?;
    let stored = StepResult {
        state_after: res.state.clone(),
        events: crate::yaml::to_string(&res.events)?,
        dice: crate::yaml::to_string(&res.dice)?,
    };
    let mut view = report::build(
        rules,
        game,
        &throwaway,
        &stored,
        &inputs,
        None,
        &Viewer::Public,
        Vec::new(),
    )?;
    view.viewer = "the game master (a preview, as the public would see it)".into();
    view.next.insert(
        0,
        "PREVIEW for the game master: not sent to the players, nothing stored".into(),
    );
    view.audit = vec![NOT_THE_STEP_DICE.to_string()];
    Ok(view)
}

/// The open step resolved in memory, for the game master.
pub struct Preview {
    pub step: u32,
    /// Sides whose orders are held for the step.
    pub held: Vec<SideId>,
    /// Sides that owe orders and have sent none.
    pub missing: Vec<SideId>,
    /// The public view of the preview, or why the step cannot be resolved.
    pub rendered: Result<Rendered, String>,
}
