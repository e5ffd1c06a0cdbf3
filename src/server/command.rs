//! Command files: what the game master (and, for their own affairs, the
//! players) send by signed email to steer a game.
//!
//! ```yaml
//! galloper: 1
//! game: hollowbrook-1
//! issued: 2026-11-22T10:00:00Z   # written by the sender: makes each file unique
//! by: gm                          # `gm`, or the side sending it
//! created: 5f1c…                  # SHA-256 of the game's game.yaml: this game only
//! command:
//!   pause: {reason: "the French player is in hospital"}
//! ```
//!
//! Signed like orders but in the namespace `galloper-command`
//! (`ssh-keygen -Y sign -n galloper-command -f KEY FILE`), so that a
//! signature made for orders never passes as a command, nor the reverse.

use crate::envelope::Problem;
use crate::side::SideId;
use serde::{Deserialize, Serialize};

/// The command format this build reads.
pub const FORMAT: u32 = 1;
/// Command files larger than this are refused unread.
pub const MAX_BYTES: usize = 64 * 1024;

/// Who sends a command: the game master or a side.
pub const GM: &str = "gm";

/// A parsed command file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommandFile {
    pub galloper: u32,
    pub game: String,
    /// RFC 3339 timestamp written by the sender.
    pub issued: String,
    /// `gm`, or a side of the game.
    pub by: String,
    /// The SHA-256 of the game's `game.yaml` (its creation, as `galloper
    /// status` prints it): a signed command is good for one game only, not
    /// for a later game that reuses the id. Required in a mailed command.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created: Option<String>,
    pub command: Command,
}

/// What a command file asks for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Game master: stop resolving (orders are still taken).
    Pause { reason: String },
    /// Game master: resolve again (and the open step at once if it is complete).
    Resume,
    /// Game master: move the open step's deadline (RFC 3339, or `+48h`,
    /// `+3d` from the current deadline). Never earlier, unless `earlier:
    /// true` says so.
    Extend {
        until: String,
        #[serde(default)]
        earlier: bool,
    },
    /// Game master: a player's new email address.
    ReplaceAddress { side: SideId, email: String },
    /// Game master: a player's new public key (the `ssh-ed25519` line).
    ReplaceKey { side: SideId, key: String },
    /// Game master: resolve the open step in memory; the report to him only.
    Preview,
    /// Game master: undo the last resolved step, to resolve it again.
    Rollback { step: u32, reason: String },
    /// Game master: end the game now.
    End { reason: String },
    /// Player: the time zone his mail shows times in (IANA name).
    Zone { zone: String },
    /// Player: away from `from` to `until` (`YYYY-MM-DD`, his zone).
    Absent { from: String, until: String },
}

impl Command {
    /// Whether only the game master may send it.
    pub fn is_gm(&self) -> bool {
        !matches!(self, Command::Zone { .. } | Command::Absent { .. })
    }

    /// The command's name as written in the file.
    pub fn name(&self) -> &'static str {
        match self {
            Command::Pause { .. } => "pause",
            Command::Resume => "resume",
            Command::Extend { .. } => "extend",
            Command::ReplaceAddress { .. } => "replace_address",
            Command::ReplaceKey { .. } => "replace_key",
            Command::Preview => "preview",
            Command::Rollback { .. } => "rollback",
            Command::End { .. } => "end",
            Command::Zone { .. } => "zone",
            Command::Absent { .. } => "absent",
        }
    }
}

/// Whether a file is a command file rather than orders: a top-level
/// `command:` key. Orders have `orders:` instead, and the envelope refuses
/// any other key, so the two cannot be confused.
pub fn looks_like_command(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(MAX_BYTES)];
    String::from_utf8_lossy(head)
        .lines()
        .any(|l| l.trim_start_matches('\u{FEFF}').starts_with("command:"))
}

/// Parse a command file; `file` names it in messages.
pub fn parse(file: &str, bytes: &[u8]) -> Result<CommandFile, Box<Problem>> {
    let problem = |line: Option<usize>, column: Option<usize>, message: String| {
        Box::new(Problem {
            file: file.into(),
            line,
            column,
            unit: None,
            rule: None,
            message,
        })
    };
    if bytes.len() > MAX_BYTES {
        return Err(problem(
            None,
            None,
            format!(
                "the file is {} bytes; command files may be at most {MAX_BYTES}",
                bytes.len()
            ),
        ));
    }
    let text = std::str::from_utf8(bytes)
        .map_err(|_| problem(None, None, "the file is not UTF-8 text".into()))?;
    // Measured before the parser runs: deep nesting costs it quadratic time.
    crate::yaml_bounds::check(text, crate::yaml_bounds::MAX_DEPTH)
        .map_err(|e| problem(Some(e.line), Some(e.column), e.to_string()))?;
    let c: CommandFile = crate::yaml::from_str(text)
        .or_else(|e| bare_unit_command(text).ok_or(e))
        .map_err(|e| {
        let loc = e.location();
        problem(
            loc.as_ref().map(|l| l.line()),
            loc.as_ref().map(|l| l.column()),
            format!(
                "{e} (a command file has galloper, game, issued, by and command; see docs/MAIL.md)"
            ),
        )
    })?;
    if c.galloper != FORMAT {
        return Err(problem(
            Some(1),
            None,
            format!(
                "this server reads command format {FORMAT}, not {}",
                c.galloper
            ),
        ));
    }
    if c.issued.parse::<jiff::Timestamp>().is_err() {
        return Err(problem(
            None,
            None,
            format!(
                "issued: {:?} is not an RFC 3339 time such as 2026-11-22T10:00:00Z",
                c.issued
            ),
        ));
    }
    Ok(c)
}

/// A command without arguments written as a map with nothing in it
/// (`preview: {}`, `resume:`), as one writes the commands that have some:
/// read as the bare word.
fn bare_unit_command(text: &str) -> Option<CommandFile> {
    let mut v: serde_yaml::Value = crate::yaml::from_str(text).ok()?;
    let cmd = v.get_mut("command")?;
    let serde_yaml::Value::Mapping(m) = &*cmd else {
        return None;
    };
    let (serde_yaml::Value::String(name), value) = m.iter().next()? else {
        return None;
    };
    let empty = match value {
        serde_yaml::Value::Null => true,
        serde_yaml::Value::Mapping(inner) => inner.is_empty(),
        _ => false,
    };
    if m.len() != 1 || !empty || !matches!(name.as_str(), "preview" | "resume") {
        return None;
    }
    *cmd = serde_yaml::Value::String(name.clone());
    crate::yaml::from_value(v).ok()
}

/// A deadline as the game master writes it: an RFC 3339 time, or `+N` hours
/// (`+48h`) or days (`+3d`) from `base` (the current deadline, when the
/// step has one: an extension adds to it). Unix seconds.
pub fn parse_until(text: &str, base: i64) -> Result<i64, String> {
    let now = base;
    let t = text.trim();
    if let Some(rel) = t.strip_prefix('+') {
        let (n, unit) = rel.split_at(rel.len().saturating_sub(1));
        let n: i64 = n
            .parse()
            .map_err(|_| format!("{t:?}: write +48h or +3d, or an RFC 3339 time"))?;
        let secs = match unit {
            "h" => 3600,
            "d" => 86_400,
            _ => return Err(format!("{t:?}: the unit is h (hours) or d (days)")),
        };
        return n
            .checked_mul(secs)
            .and_then(|d| now.checked_add(d))
            .filter(|_| n > 0)
            .ok_or_else(|| format!("{t:?}: give a positive number of hours or days"));
    }
    t.parse::<jiff::Timestamp>()
        .map(|ts| ts.as_second())
        .map_err(|_| {
            format!("{t:?} is not an RFC 3339 time such as 2026-11-24T18:00:00Z, nor +48h")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAUSE: &str = "galloper: 1\ngame: g1\nissued: 2026-11-22T10:00:00Z\nby: gm\ncommand:\n  pause: {reason: away}\n";

    #[test]
    fn commands_parse_as_one_key_maps() {
        let c = parse("c.yaml", PAUSE.as_bytes()).unwrap();
        assert_eq!(
            c.command,
            Command::Pause {
                reason: "away".into()
            }
        );
        let r = parse(
            "c.yaml",
            b"galloper: 1\ngame: g1\nissued: 2026-11-22T10:00:00Z\nby: gm\ncommand: resume\n",
        )
        .unwrap();
        assert_eq!(r.command, Command::Resume);
        // Without arguments, as a map like the others (issue 13).
        for written in ["preview: {}", "preview:", "preview: ~"] {
            let p = parse(
                "c.yaml",
                format!("galloper: 1\ngame: g1\nissued: 2026-11-22T10:00:00Z\nby: gm\ncommand:\n  {written}\n").as_bytes(),
            )
            .unwrap_or_else(|e| panic!("{written}: {e}"));
            assert_eq!(p.command, Command::Preview, "{written}");
        }
        let r = parse(
            "c.yaml",
            b"galloper: 1\ngame: g1\nissued: 2026-11-22T10:00:00Z\nby: gm\ncommand: {resume: {}}\n",
        )
        .unwrap();
        assert_eq!(r.command, Command::Resume);
        assert!(
            parse(
                "c.yaml",
                b"galloper: 1\ngame: g1\nissued: 2026-11-22T10:00:00Z\nby: gm\ncommand: {pause: {}}\n",
            )
            .is_err(),
            "a command that needs arguments still needs them"
        );
        assert!(looks_like_command(PAUSE.as_bytes()));
        assert!(!looks_like_command(b"galloper: 1\norders:\n  x: 1\n"));
    }

    #[test]
    fn bad_files_say_where() {
        let e = parse(
            "c.yaml",
            b"galloper: 1\ngame: g1\nissued: yesterday\nby: gm\ncommand: resume\n",
        )
        .unwrap_err();
        assert!(e.message.contains("RFC 3339"), "{e}");
        let e = parse(
            "c.yaml",
            b"galloper: 1\ngame: g1\nissued: 2026-11-22T10:00:00Z\nby: gm\ncommand: explode\n",
        )
        .unwrap_err();
        assert!(e.line.is_some(), "{e}");
    }

    #[test]
    fn deadlines_absolute_and_relative() {
        assert_eq!(parse_until("+48h", 1000), Ok(1000 + 48 * 3600));
        assert_eq!(parse_until("+2d", 0), Ok(172_800));
        assert_eq!(parse_until("1970-01-02T00:00:00Z", 0), Ok(86_400));
        assert!(parse_until("+0h", 0).is_err());
        assert!(parse_until("+4w", 0).is_err());
        assert!(parse_until("soon", 0).is_err());
    }
}
