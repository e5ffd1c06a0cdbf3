//! Signed command files arriving by mail: the game master's (pause, resume,
//! extend, replace, preview, rollback, end) and a player's own (zone,
//! absent). Each is checked and applied by `game::admin`; this module turns
//! the outcome into lines of the sender's reply.

use super::config::Config;
use crate::mail::inbound::{Inbound, Submission};
use crate::mail::route::Route;
use crate::server::Server;
use crate::server::admin::{CommandRefusal, GameMaster};
use crate::server::command;

/// Check and apply each command file of a message; one reply line each.
/// Returns how many were applied.
pub fn apply_all(
    server: &mut Server,
    cfg: &Config,
    commands: &[Submission],
    routed: Option<&Route>,
    sender: Option<&str>,
    now: i64,
    lines: &mut Vec<String>,
) -> anyhow::Result<usize> {
    if commands.is_empty() {
        return Ok(0);
    }
    let key = cfg.game_master_key_line().unwrap_or_else(|e| {
        // Checked at start-up; a file gone since is the operator's to fix.
        tracing::warn!(error = %e, "game master key unreadable: game master commands refused");
        None
    });
    let gm = GameMaster {
        key,
        email: cfg
            .game_master
            .clone()
            .or_else(|| sender.map(str::to_string)),
    };
    let mut applied = 0;
    for sub in commands {
        let name = &sub.file_name;
        let checked = server.check_command(name, &sub.orders, &sub.signature, &gm, now);
        let outcome = match checked {
            Ok(c) => match routed {
                Some(r) if r.game() != c.file.game => Err(CommandRefusal::NotNow(format!(
                    "the message is for game {} but the command is for game {}",
                    r.game(),
                    c.file.game
                ))),
                _ => server.apply_command(&c, &gm),
            },
            Err(e) => Err(e),
        };
        match outcome {
            Ok(a) => {
                applied += 1;
                lines.push(format!(
                    "{name}: command {} applied to game {}.\n{}",
                    a.command,
                    a.game,
                    indent(&a.reply)
                ));
            }
            Err(e) => lines.push(format!("{name}: refused: {e}; nothing was changed")),
        }
    }
    Ok(applied)
}

/// The reply line for command files that came without a signature, and
/// the names that are not command files (answered as unsigned orders).
pub fn unsigned(inb: &Inbound, names: Vec<String>) -> (Option<String>, Vec<String>) {
    let (cmds, orders): (Vec<String>, Vec<String>) = names.into_iter().partition(|n| {
        inb.files
            .iter()
            .any(|f| &f.name == n && command::looks_like_command(&f.bytes))
    });
    let line = (!cmds.is_empty()).then(|| {
        format!(
            "{}: refused: unsigned. Sign the command with `ssh-keygen -Y sign -n galloper-command -f KEY FILE` and attach FILE.sig beside it; nothing was changed",
            cmds.join(", ")
        )
    });
    (line, orders)
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|l| format!("  {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}
