//! A copy of the acknowledgement for a side's registered address when its
//! orders were accepted from another address. Whoever holds a player's
//! signed file can mail it from anywhere; the player must hear of it, not
//! only the sender. A copy needs orders accepted, which needs the player's
//! signature on a file newer than any accepted before, so a stranger cannot
//! make more copies than the player signed files.

use super::config::Config;
use crate::archive::sha256_hex;
use crate::mail::compose::{self, Party, ReplyMail, Thread};
use crate::server::Server;
use crate::server::store::{OrdersRow, OutboxRow};
use std::collections::BTreeSet;

/// The copies for the orders of one message (`accepted`) that came from
/// `sender` (none when the message named no address that can be answered).
/// `detail` is the reply's text; `ids` the message's Message-ID and intake
/// key; `clock` the time as unix seconds and as an RFC 2822 date.
pub fn to_registered(
    server: &Server,
    cfg: &Config,
    accepted: &[OrdersRow],
    sender: Option<&str>,
    detail: &str,
    ids: (&str, &str),
    clock: (i64, &str),
) -> anyhow::Result<Vec<OutboxRow>> {
    let (message_id, key) = ids;
    let (now, date) = clock;
    let (_, domain) = cfg.club_parts();
    let mut told = BTreeSet::new();
    let mut out = Vec::new();
    for row in accepted {
        let players = server.players(&row.game)?;
        let Some(player) = players.iter().find(|p| p.side == row.side) else {
            continue;
        };
        let registered = player.email.to_ascii_lowercase();
        if sender.is_some_and(|s| s.eq_ignore_ascii_case(&registered))
            || !told.insert(registered.clone())
            || registered.parse::<lettre::Address>().is_err()
        {
            continue;
        }
        let from = sender.unwrap_or("a message with no address to answer");
        let text = format!(
            "Orders for {side} in game {game}, step {step}, were accepted from {from}, which is not the address registered for {side} ({registered}). They were signed with {whose} key. If you did not send them, send your own orders again with a higher `revision:` and tell the game master.\n\nThe reply that went to the sender (message {message_id}):\n\n{detail}\n\n-- \nGalloper, for {club}\n",
            side = row.side,
            whose = crate::words::possessive(row.side.as_str()),
            game = row.game,
            step = row.step,
            club = cfg.club_address,
        );
        let id = compose::message_id(
            &domain,
            &row.game,
            row.step,
            &registered,
            &format!("copy-{}", &sha256_hex(key.as_bytes())[..12]),
        );
        let bytes = compose::reply(&ReplyMail {
            from: &cfg.club_party(),
            to: &Party {
                name: None,
                email: registered.clone(),
            },
            subject: format!(
                "[{}] Orders for {} accepted from another address",
                row.game, row.side
            ),
            message_id: id.clone(),
            in_reply_to: None,
            thread: Some(Thread {
                root: compose::thread_root(&domain, &row.game),
                parent: None,
            }),
            text,
            date: Some(date.to_string()),
        })?;
        out.push(OutboxRow {
            game: Some(row.game.clone()),
            step: Some(row.step),
            ..OutboxRow::queued(
                id,
                "orders-copy",
                &cfg.club_address,
                &registered,
                bytes,
                now,
            )
        });
    }
    Ok(out)
}
