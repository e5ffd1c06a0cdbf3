//! The mails a game's life sends: warnings to the sides still owing orders
//! as the deadline nears, and the plain mail that also carries the notices
//! to the game master.

use super::Life;
use crate::mail::compose::{self, Party, ReplyMail, Thread};
use crate::ruleset::{Due, Owed};
use crate::server::schedule::{self, MissedPolicy, Schedule};
use crate::server::store::{DeadlineRow, GameRow, Mark, OutboxRow, StepRow};
use crate::server::{MailSettings, Server};

impl Server {
    /// Queue the warnings due at `now` to the sides still owing, each once.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn warn(
        &mut self,
        g: &GameRow,
        sched: &Schedule,
        open: &StepRow,
        due: &Due,
        owing: &[&Owed],
        dl: &DeadlineRow,
        now: i64,
        out: &mut Vec<Life>,
    ) -> anyhow::Result<()> {
        let Some(mail) = self.mail.clone() else {
            return Ok(());
        };
        let hours = sched.warnings_due(dl.opened, dl.deadline, now);
        if hours.is_empty() {
            return Ok(());
        }
        let players = self.store.players(&g.id)?;
        let mut marks = Vec::new();
        let mut mails = Vec::new();
        for o in owing {
            let mut fresh = Vec::new();
            for h in &hours {
                let what = format!("warning-{h}");
                if !self.store.marked(&g.id, open.step, &o.side, &what)? {
                    fresh.push(*h);
                    marks.push(Mark {
                        step: open.step,
                        side: o.side.clone(),
                        what,
                    });
                }
            }
            // Several warnings come due at once after a stop: one mail says it.
            let Some(nearest) = fresh.iter().min().copied() else {
                continue;
            };
            if let Some(p) = players.iter().find(|p| p.side == o.side) {
                let zone = self.zone_for(&g.id, Some(&o.side), sched);
                let left = (dl.deadline - now).max(0);
                let mut text = format!(
                    "Game {}, step {} ({}): {} still owes orders: {}.\n\nDeadline: {}",
                    g.id,
                    open.step,
                    due.heading,
                    o.side,
                    o.note,
                    schedule::format_instant(dl.deadline, &zone)
                );
                if sched.grace_minutes > 0 {
                    text.push_str(&format!(
                        " (orders still taken until {})",
                        schedule::format_instant(sched.closes_at(dl.deadline), &zone)
                    ));
                }
                text.push_str(&format!(
                    ", in about {} hours.\nIf nothing arrives by then, {}\n\nSend `status` for the game's state, or declare an absence if you will be away.\n",
                    (left + 1800) / 3600,
                    policy_words(sched.missed)
                ));
                let kind = format!("warning-{nearest}-{}", dl.deadline);
                mails.push(life_mail(
                    &mail,
                    &g.id,
                    open.step,
                    o.side.as_str(),
                    &kind,
                    "warning",
                    &p.email,
                    format!(
                        "[{}] Step {}: orders due by {}",
                        g.id,
                        open.step,
                        schedule::format_instant(dl.deadline, &zone)
                    ),
                    text,
                    now,
                )?);
            }
            out.push(Life::Warned {
                game: g.id.clone(),
                step: open.step,
                side: o.side.clone(),
                hours: nearest,
            });
        }
        if !marks.is_empty() {
            self.store.record_marks(&g.id, &marks, &mails, now)?;
        }
        Ok(())
    }
}

/// What the policy will do, for a warning.
fn policy_words(p: MissedPolicy) -> &'static str {
    match p {
        MissedPolicy::Default => {
            "the rules' default orders are applied for you (where the rules have none, the game waits for the game master)."
        }
        MissedPolicy::Standing => {
            "your latest earlier orders are applied again if they still fit, else the rules' default orders."
        }
        MissedPolicy::Wait => "the game waits and the game master is told.",
    }
}

/// A short plain mail from the club (a warning, a notice to the game master).
#[allow(clippy::too_many_arguments)]
pub(crate) fn life_mail(
    mail: &MailSettings,
    game: &str,
    step: u32,
    reader: &str,
    id_kind: &str,
    kind: &str,
    to: &str,
    subject: String,
    text: String,
    now: i64,
) -> anyhow::Result<OutboxRow> {
    let message_id = compose::message_id(&mail.domain, game, step, reader, id_kind);
    let bytes = compose::reply(&ReplyMail {
        from: &mail.from,
        to: &Party {
            name: None,
            email: to.into(),
        },
        subject,
        message_id: message_id.clone(),
        in_reply_to: None,
        thread: Some(Thread {
            root: compose::thread_root(&mail.domain, game),
            parent: None,
        }),
        text,
        date: Some(crate::mail::date::rfc2822(now)),
    })?;
    Ok(OutboxRow {
        game: Some(game.into()),
        step: Some(step),
        reader: Some(reader.into()),
        ..OutboxRow::queued(message_id, kind, &mail.from.email, to, bytes, now)
    })
}
