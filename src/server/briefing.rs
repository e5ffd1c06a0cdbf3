//! Before the first move: every player of a new game gets one mail with the
//! briefing (the scenario's title and description and how the battle is
//! won, which the ruleset's view gives while the armies deploy), the map
//! with the deployment zones, his first orders template and the deadline.
//!
//! A game owes its briefings from the moment it is created (the store keeps
//! it among `briefings_due` in the creation's transaction); the daemon
//! composes them at its next batch, once the deadline watch has given the
//! first step its deadline, and queues them in the outbox in the
//! transaction that strikes the game off: sent once, with the outbox's
//! retries.

use super::Server;
use super::report::Rendered;
use super::store::{OutboxRow, PlayerRow};
use crate::mail::compose::{self, Party, ReportMail, Thread};
use crate::ruleset::AnyRuleset;
use crate::rulesets;
use crate::view::{Panel, ReportView, Viewer};
use anyhow::anyhow;

/// A scenario's title and description, as every ruleset's scenario has
/// them at its top.
#[derive(Default, serde::Deserialize)]
struct Head {
    #[serde(default)]
    title: String,
    #[serde(default)]
    description: String,
}

fn head(scenario: &str) -> Head {
    crate::yaml::from_str::<Head>(scenario).unwrap_or_default()
}

/// The scenario's title, for the subject line.
fn title(scenario: &str) -> String {
    head(scenario).title.trim().to_string()
}

/// The panel that opens a briefing: the scenario's title and description,
/// unless the ruleset's view gives its own.
fn scenario_panel(scenario: &str, panels: &[Panel]) -> Option<Panel> {
    if panels.iter().any(|p| p.title == BRIEFING) {
        return None;
    }
    let h = head(scenario);
    let lines: Vec<String> = [h.title.trim(), h.description.trim()]
        .into_iter()
        .filter(|l| !l.is_empty())
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    (!lines.is_empty()).then(|| Panel {
        title: BRIEFING.into(),
        lines,
    })
}

const BRIEFING: &str = "Briefing";

impl Server {
    /// Queue the briefing mails of every game that owes them; how many
    /// games. Without mail settings (the command line) nothing is queued
    /// and the games keep waiting for the daemon.
    pub fn queue_briefings(&mut self, now: i64, date: &str) -> anyhow::Result<usize> {
        let Some(mail) = self.mail.clone() else {
            return Ok(0);
        };
        let mut done = 0;
        for game in self.store.briefings_due()? {
            // One game's failure stays its own: it is tried again at the
            // next batch, and the other games' briefings go out.
            let queued = match self.briefing_mails(&game, &mail, now, date) {
                Ok(mails) => self
                    .store
                    .queue_briefings(&game, &mails)
                    .map_err(anyhow::Error::from),
                Err(e) => Err(e),
            };
            match queued {
                Ok(()) => done += 1,
                Err(e) => {
                    tracing::error!(game = %game, error = %format!("{e:#}"), todo = "fix what the error names; the briefing is tried again at the next batch", "briefing mails not queued")
                }
            }
        }
        Ok(done)
    }

    /// Each player's briefing for the open step of `game`, as the report
    /// view the mail renders; none once the game is over.
    pub fn briefings(&self, game: &str) -> anyhow::Result<Vec<(PlayerRow, ReportView)>> {
        let g = self
            .store
            .game(game)?
            .ok_or_else(|| anyhow!("no game called {game:?}"))?;
        let rules: &dyn AnyRuleset = rulesets::by_name(&g.ruleset)
            .ok_or_else(|| anyhow!("unknown ruleset {}", g.ruleset))?;
        let Some((open, due)) = self.due(game)? else {
            return Ok(Vec::new());
        };
        let state = rules.load(&open.state_before)?;
        let notice = crate::envelope::notice_sha256(&open.notice);
        let keys = self.keys_on_record(game)?;
        let title = title(&g.scenario);
        let own_edge = self.store.own_edge(game)?;
        let mut out = Vec::new();
        for player in self.store.players(game)? {
            let viewer = Viewer::Side(player.side.clone());
            let mut sight = state.view(&viewer);
            if own_edge {
                crate::view::enemy::turn_to_own_edge(&mut sight.map, &player.side);
            }
            if let Some(p) = scenario_panel(&g.scenario, &sight.panels) {
                sight.panels.insert(0, p);
            }
            sight.map.title = format!(
                "{game} \u{2014} before step {} \u{2014} {}",
                open.step, due.heading
            );
            let template = state.orders_template(&player.side).map(|body| {
                let body = crate::view::enemy::with_enemy(&body, &sight.map, &player.side);
                let head = crate::envelope::Head {
                    game,
                    step: open.step,
                    side: &player.side,
                    notice: &notice,
                    revision: 1,
                };
                // As every later template: the schema modeline and how to
                // fill in the entropy without `galloper sign`.
                crate::envelope::template(&head, rules.name(), &body)
            });
            let enemy = crate::view::enemy::seen_by(&sight.map, &player.side);
            let enemy_note = enemy.is_empty().then(|| {
                "None of the enemy's units is on your map yet: he deploys in secret, or stands where your troops cannot see him. His units appear in your reports once they are seen.".to_string()
            });
            let mut next = vec![format!("Step {} ({})", open.step, due.heading)];
            for o in &due.owed {
                next.push(format!("{} owes orders: {}", o.side, o.note));
            }
            let mut notices = vec![format!(
                "Welcome to {}. This is your briefing, before the first move: read it, then fill in the orders template below and send it back, signed, as an attachment.",
                if title.is_empty() { game } else { &title }
            )];
            if template.is_none() {
                notices.push("You owe no orders for the first step.".into());
            }
            let view = ReportView {
                game: game.into(),
                ruleset: rules.name().into(),
                step: open.step.saturating_sub(1),
                heading: format!("Briefing: {}", sight.heading),
                viewer: viewer.label(),
                enemy,
                enemy_note,
                map: sight.map,
                panels: sight.panels,
                changed: Vec::new(),
                events: Vec::new(),
                next,
                audit: vec![
                    format!(
                        "step {} is committed: its notice has sha256 {notice}",
                        open.step
                    ),
                    "see its notice.yaml in the archive; your orders name it".into(),
                ],
                keys: keys.clone(),
                orders_template: template,
                deadline: self.open_deadline_lines(game, Some(&player.side))?,
                notices,
                archive: Vec::new(),
            };
            out.push((player, view));
        }
        Ok(out)
    }

    fn briefing_mails(
        &self,
        game: &str,
        mail: &super::MailSettings,
        now: i64,
        date: &str,
    ) -> anyhow::Result<Vec<OutboxRow>> {
        let title = self
            .store
            .game(game)?
            .map(|g| title(&g.scenario))
            .unwrap_or_default();
        let mut out = Vec::new();
        for (player, view) in self.briefings(game)? {
            let step = view.step + 1;
            let r = Rendered::new(view)?;
            let mut attachments = Vec::new();
            if let Some(t) = &r.view.orders_template {
                attachments.push((
                    format!("{game}-step-{step}-{}.yaml", player.side),
                    t.clone().into_bytes(),
                ));
                if self.orders_page_in_mail {
                    let page = self.orders_page(game, &player.side, t)?;
                    attachments.push((
                        format!("{game}-step-{step}-{}-orders.html", player.side),
                        page.into_bytes(),
                    ));
                }
            }
            let reader = player.side.to_string();
            let message_id = compose::message_id(&mail.domain, game, 0, &reader, "briefing");
            let to = Party {
                name: None,
                email: player.email.clone(),
            };
            let bytes = compose::report(&ReportMail {
                from: &mail.from,
                to: &to,
                subject: format!(
                    "[{game}] Before the first move: {} - briefing for {reader}",
                    if title.is_empty() { game } else { &title }
                ),
                message_id: message_id.clone(),
                thread: Thread {
                    root: compose::thread_root(&mail.domain, game),
                    parent: None,
                },
                text: &r.text,
                html: &r.html,
                png: &r.png,
                attachments,
                date: Some(date.to_string()),
            })
            .map_err(|e| {
                anyhow::Error::new(e).context(format!(
                    "the briefing mail of game {game} for {} at {:?}",
                    player.side, player.email
                ))
            })?;
            out.push(OutboxRow {
                game: Some(game.into()),
                step: Some(step),
                reader: Some(reader),
                ..OutboxRow::queued(
                    message_id,
                    "briefing",
                    &mail.from.email,
                    &player.email,
                    bytes,
                    now,
                )
            });
        }
        Ok(out)
    }
}
