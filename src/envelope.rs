//! The orders envelope: the YAML file a player signs and sends.
//!
//! ```yaml
//! galloper: 1
//! game: hollowbrook-1
//! step: 3
//! side: french
//! notice: 9f86d0...    # SHA-256 of the step's signed notice (step-0003/notice.yaml)
//! revision: 1          # grows with each new file a side sends for the step
//! entropy: 5be0c7...   # at least 16 random bytes, hex (no visible pattern)
//! orders:
//!   round: {...}       # the ruleset's own orders
//! ```
//!
//! `notice` and `revision` are optional here, so that archives written
//! before them still parse for the audit; the server requires both of what
//! a player sends (`game::fresh`).

use crate::ruleset::Violation;
use crate::side::SideId;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The envelope format this build reads and writes.
pub const FORMAT: u32 = 1;
/// Orders files larger than this are refused unread.
pub const MAX_BYTES: usize = 1024 * 1024;
/// Player entropy: at least this many bytes.
pub const MIN_ENTROPY_BYTES: usize = 16;

/// A parsed orders file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Envelope {
    pub galloper: u32,
    pub game: String,
    pub step: u32,
    pub side: SideId,
    /// The SHA-256 (hex) of the signed notice that opened the step: the
    /// orders answer that notice and no other (a new game that reuses the
    /// id, or a step opened again, has another).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notice: Option<String>,
    /// The side's count of files sent for this step: each accepted file
    /// must carry a higher one than the last, so an older file cannot
    /// replace a newer one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision: Option<u32>,
    pub entropy: String,
    pub orders: serde_yaml::Value,
}

/// The SHA-256 (hex) of a step's notice text, exactly as stored and
/// published (`step-NNNN/notice.yaml`): the value of an orders file's
/// `notice:` line.
pub fn notice_sha256(notice: &str) -> String {
    use sha2::{Digest, Sha256};
    hex::encode(Sha256::digest(notice.as_bytes()))
}

/// Something wrong with a file a player sent, said so that he can fix it.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub file: String,
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub unit: Option<String>,
    pub rule: Option<String>,
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(l) = self.line {
            write!(f, ":{l}")?;
            if let Some(c) = self.column {
                write!(f, ":{c}")?;
            }
        }
        write!(f, ": ")?;
        if let Some(u) = &self.unit {
            write!(f, "unit {u}: ")?;
        }
        write!(f, "{}", self.message)?;
        if let Some(r) = &self.rule {
            write!(f, " (rule: {r})")?;
        }
        Ok(())
    }
}

impl Problem {
    fn plain(file: &str, message: impl Into<String>) -> Problem {
        Problem {
            file: file.into(),
            line: None,
            column: None,
            unit: None,
            rule: None,
            message: message.into(),
        }
    }
}

/// The text of an orders file, once its size, encoding and nesting allow
/// a parser to read it.
fn text_of<'b>(file: &str, bytes: &'b [u8]) -> Result<&'b str, Box<Problem>> {
    if bytes.len() > MAX_BYTES {
        return Err(Box::new(Problem::plain(
            file,
            format!(
                "the file is {} bytes; orders files may be at most {MAX_BYTES}",
                bytes.len()
            ),
        )));
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        Box::new(Problem::plain(
            file,
            format!("the file is not UTF-8 text ({e})"),
        ))
    })?;
    // Measured before the parser runs: deep nesting costs it quadratic time.
    crate::yaml_bounds::check(text, crate::yaml_bounds::MAX_DEPTH).map_err(|e| {
        Box::new(Problem {
            file: file.into(),
            line: Some(e.line),
            column: Some(e.column),
            unit: None,
            rule: None,
            message: e.to_string(),
        })
    })?;
    Ok(text)
}

/// The game and side an orders file names on its top-level `game:` and
/// `side:` lines, read without the YAML parser: the server checks the
/// signature with that side's key before it parses the whole file, so
/// that a stranger's file costs no full parse. [`parse`] must agree.
pub fn head(file: &str, bytes: &[u8]) -> Result<(String, SideId), Box<Problem>> {
    let text = text_of(file, bytes)?;
    let value = |key: &str| {
        field(text.trim_start_matches('\u{FEFF}'), key)
            .map(|v| v.trim_matches(|c| c == '"' || c == '\''))
            .filter(|v| !v.is_empty())
    };
    match (value("game"), value("side")) {
        (Some(game), Some(side)) => Ok((game.to_string(), SideId::new(side))),
        _ => Err(Box::new(Problem::plain(
            file,
            "an orders file needs a `game:` line and a `side:` line at the start of a line, as the orders template writes them",
        ))),
    }
}

/// Parse an orders file a player sends, checks or signs. `file` names it
/// in messages. Its entropy must not only be long enough but look random
/// ([`weak_entropy`]).
pub fn parse(file: &str, bytes: &[u8]) -> Result<Envelope, Box<Problem>> {
    let text = text_of(file, bytes)?;
    let env = parse_text(file, text)?;
    refuse_weak_entropy(file, text, &env.entropy)?;
    Ok(env)
}

/// Parse an orders file the server accepted before (to resolve, replay or
/// audit a step, or to reuse its orders): as [`parse`], but weak entropy
/// is let through, since a file accepted before the check existed must
/// still replay exactly as it did.
pub fn parse_stored(file: &str, bytes: &[u8]) -> Result<Envelope, Box<Problem>> {
    parse_text(file, text_of(file, bytes)?)
}

fn parse_text(file: &str, text: &str) -> Result<Envelope, Box<Problem>> {
    let env: Envelope = crate::yaml::from_str(text).map_err(|e| {
        let loc = e.location();
        let said = e.to_string();
        // In plain words where the complaint is a known one, at the line
        // where what was left open began.
        let (line, column, message) = match crate::yaml_plain::explain(&said, text) {
            Some(p) => (p.line, None, p.words),
            None => (
                loc.as_ref().map(|l| l.line()),
                loc.as_ref().map(|l| l.column()),
                yaml_advice(&said, text),
            ),
        };
        Box::new(Problem {
            file: file.into(),
            line,
            column,
            unit: None,
            rule: None,
            message: with_hint(text, line, message),
        })
    })?;
    if env.galloper != FORMAT {
        return Err(Box::new(at_key(
            file,
            text,
            "galloper",
            format!(
                "format {} is not known; this server reads format {FORMAT}",
                env.galloper
            ),
        )));
    }
    let entropy = hex::decode(env.entropy.trim()).map_err(|_| {
        let what = if env.entropy.trim() == ENTROPY_PLACEHOLDER {
            "the entropy is still the template's placeholder"
        } else {
            "entropy must be hex digits"
        };
        Box::new(at_key(
            file,
            text,
            "entropy",
            format!("{what}: {ENTROPY_HOW}"),
        ))
    })?;
    if entropy.len() < MIN_ENTROPY_BYTES {
        return Err(Box::new(at_key(
            file,
            text,
            "entropy",
            format!(
                "entropy must be at least {MIN_ENTROPY_BYTES} random bytes ({} hex digits): {ENTROPY_HOW}",
                MIN_ENTROPY_BYTES * 2
            ),
        )));
    }
    Ok(env)
}

/// Refuse entropy that [`weak_entropy`] finds guessable, at its line.
fn refuse_weak_entropy(file: &str, text: &str, entropy_hex: &str) -> Result<(), Box<Problem>> {
    // `parse_text` has decoded it already; an undecodable value never gets here.
    let bytes = hex::decode(entropy_hex.trim()).unwrap_or_default();
    match weak_entropy(&bytes) {
        None => Ok(()),
        Some(why) => Err(Box::new(at_key(
            file,
            text,
            "entropy",
            format!(
                "the `entropy:` line is not random ({why}): orders hashes are public while the game runs, and guessable entropy would let anyone test guesses at your orders against the hash. Fresh random bytes are needed: {ENTROPY_HOW}"
            ),
        ))),
    }
}

/// Why entropy bytes are too regular to be secret, or `None` when they are
/// not. Someone who can guess the entropy can hash each of a few likely
/// orders files (a hidden side's pledges, "stand still") and compare with
/// the published hash, so values a person types instead of drawing are
/// refused:
///
/// - fewer than [`MIN_DISTINCT_BYTES`] different byte values (all zeros,
///   one hex digit or byte repeated, two bytes taking turns);
/// - a pattern repeated, of any length up to half the bytes (`deadbeef…`,
///   `0123456789abcdef0123456789abcdef`);
/// - a run that counts up or down by a fixed step, wrapping at 256
///   (`00 01 02 03 …`, `00 11 22 33 …`, `ff fe fd …`).
///
/// False refusals of random bytes: for 16 bytes (the least accepted),
/// fewer than 8 different values comes about 6.4 in 10^13, a repeated
/// pattern at most 2 in 2^64 and a counting run 2^-112; for the 32 bytes
/// `galloper sign` writes, all three together stay below 10^-36. So a
/// drawn value is in practice never refused.
pub fn weak_entropy(bytes: &[u8]) -> Option<&'static str> {
    if distinct_bytes(bytes) < MIN_DISTINCT_BYTES {
        Some("it has fewer than 8 different byte values, as when one digit or byte is repeated")
    } else if repeats_a_pattern(bytes) {
        Some("it repeats one short pattern")
    } else if counts_by_a_fixed_step(bytes) {
        Some("it counts up or down by a fixed step")
    } else {
        None
    }
}

/// Random entropy of [`MIN_ENTROPY_BYTES`] or more has at least this many
/// different byte values all but never (see [`weak_entropy`]).
pub const MIN_DISTINCT_BYTES: usize = 8;

fn distinct_bytes(bytes: &[u8]) -> usize {
    let mut seen = [false; 256];
    bytes.iter().for_each(|&b| seen[b as usize] = true);
    seen.iter().filter(|&&s| s).count()
}

/// Whether the bytes are some pattern of at most half their length said
/// over and over (the last time perhaps cut short).
fn repeats_a_pattern(bytes: &[u8]) -> bool {
    (1..=bytes.len() / 2).any(|p| bytes[p..].iter().zip(bytes).all(|(a, b)| a == b))
}

/// Whether each byte is the one before plus the same step (mod 256).
fn counts_by_a_fixed_step(bytes: &[u8]) -> bool {
    let mut steps = bytes.windows(2).map(|w| w[1].wrapping_sub(w[0]));
    match steps.next() {
        Some(first) => steps.all(|s| s == first),
        None => false,
    }
}

fn at_key(file: &str, text: &str, key: &str, message: impl Into<String>) -> Problem {
    let line = text
        .lines()
        .position(|l| l.trim_start().starts_with(&format!("{key}:")))
        .map(|i| i + 1);
    Problem {
        file: file.into(),
        line,
        column: None,
        unit: None,
        rule: None,
        message: message.into(),
    }
}

/// Turn a ruleset's violation into a problem with the line it is about:
/// the path's keys followed down from `orders:` one after the other (a
/// number is the entry of a list), then, within what they found, the line
/// that names the unit; the `orders:` line only when nothing is found.
pub fn locate(file: &str, text: &str, v: &Violation) -> Problem {
    Locator::new(text).locate(file, v)
}

/// A text split into lines once, to locate several violations in it.
pub struct Locator<'a> {
    lines: Vec<&'a str>,
}

impl<'a> Locator<'a> {
    pub fn new(text: &'a str) -> Locator<'a> {
        Locator {
            lines: text.lines().collect(),
        }
    }

    /// [`locate`] in the text split before.
    pub fn locate(&self, file: &str, v: &Violation) -> Problem {
        locate_in(file, &self.lines, v)
    }
}

fn locate_in(file: &str, lines: &[&str], v: &Violation) -> Problem {
    let start = lines
        .iter()
        .position(|l| l.starts_with("orders:"))
        .unwrap_or(0);
    let code = |i: usize| lines[i].split(" #").next().unwrap_or("");
    // Follow the path: each key after the line of the one before.
    let mut at = start;
    for key in &v.path {
        let found = match key.parse::<usize>() {
            Ok(n) => list_entry(lines, at, n),
            Err(_) => (at + 1..lines.len()).find(|&i| {
                let c = code(i).trim_start().trim_start_matches("- ");
                c.starts_with(&format!("{key}:"))
                    || code(i).contains(&format!("{{{key}:"))
                    || code(i).contains(&format!(", {key}:"))
            }),
        };
        match found {
            Some(i) => at = i,
            None => break,
        }
    }
    let unit_line = v.unit.as_ref().and_then(|u| {
        let named = |i: &usize| {
            let c = code(*i);
            c.contains(&format!("unit: {u}")) || c.contains(&format!("company: {u}"))
        };
        let mentioned = |i: &usize| {
            code(*i)
                .split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_'))
                .any(|w| w == u)
        };
        let from = if at > start { at } else { start };
        (from..lines.len())
            .find(named)
            .or_else(|| (from..lines.len()).find(mentioned))
            .or_else(|| (start..lines.len()).find(mentioned))
    });
    let line = unit_line.or((at > start || v.path.is_empty()).then_some(at));
    Problem {
        file: file.into(),
        line: line.map(|i| i + 1),
        column: None,
        unit: v.unit.clone(),
        rule: Some(v.rule.clone()),
        message: v.message.clone(),
    }
}

/// The line of the `n`-th entry (from 0) of the first list after line `at`.
fn list_entry(lines: &[&str], at: usize, n: usize) -> Option<usize> {
    let first = (at + 1..lines.len()).find(|&i| lines[i].trim_start().starts_with("- "))?;
    let indent = lines[first].len() - lines[first].trim_start().len();
    let mut count = 0;
    for (i, l) in lines.iter().enumerate().skip(first) {
        let this = l.len() - l.trim_start().len();
        if !l.trim().is_empty() && this < indent {
            break;
        }
        if this == indent && l.trim_start().starts_with("- ") {
            if count == n {
                return Some(i);
            }
            count += 1;
        }
    }
    None
}

/// What an orders file says before its entropy and orders.
#[derive(Clone, Copy, Debug)]
pub struct Head<'a> {
    pub game: &'a str,
    pub step: u32,
    pub side: &'a SideId,
    /// [`notice_sha256`] of the open step's notice.
    pub notice: &'a str,
    /// 1 in a template; the server writes 0 in orders it applies itself.
    pub revision: u32,
}

/// Write an orders file around a ruleset's `orders:` body.
pub fn compose(head: &Head, entropy_hex: &str, body: &str) -> String {
    let Head {
        game,
        step,
        side,
        notice,
        revision,
    } = *head;
    let mut out = format!(
        "galloper: {FORMAT}\ngame: {game}\nstep: {step}\nside: {side}\nnotice: {notice}\nrevision: {revision}\nentropy: {entropy_hex}\norders:\n"
    );
    for line in body.lines() {
        if line.is_empty() {
            out.push('\n');
        } else {
            out.push_str("  ");
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// What a template holds in place of the entropy until it is signed.
pub const ENTROPY_PLACEHOLDER: &str = "FILLED-IN-BY-GALLOPER-SIGN";

/// How to fill in the entropy without `galloper sign`, said in each
/// template and again when a file comes without it.
pub const ENTROPY_HOW: &str = "`galloper sign` fills it in; if you sign with ssh-keygen alone, first replace it with 32 random bytes in hex, from `openssl rand -hex 32` (or `head -c 32 /dev/urandom | xxd -p -c 64`)";

/// An orders template for a player: the ruleset's `orders:` body in its
/// envelope, with a modeline that lets an editor with a YAML language
/// server check the file against `galloper schema orders` as it is typed,
/// and the entropy left for the player to fill in.
pub fn template(head: &Head, ruleset: &str, body: &str) -> String {
    let composed = compose(head, ENTROPY_PLACEHOLDER, body);
    let schema = schema_file(ruleset);
    let mut out = format!(
        "# yaml-language-server: $schema={schema}\n# (the schema of this file: `galloper schema orders --ruleset {ruleset} > {schema}`, beside it)\n"
    );
    for line in composed.lines() {
        out.push_str(line);
        if line.starts_with("entropy:") {
            out.push_str(&format!("  # {ENTROPY_HOW}"));
        }
        out.push('\n');
    }
    out
}

/// The name a template's modeline gives the schema of a ruleset's orders files.
pub fn schema_file(ruleset: &str) -> String {
    format!("galloper-{ruleset}.schema.json")
}

/// The JSON Schema of a whole orders file (the envelope, and `orders:` as
/// `orders` describes a ruleset's block: the `schemars` schema of its
/// orders type).
pub fn file_schema(ruleset: &str, orders: serde_json::Value) -> serde_json::Value {
    use serde_json::{Value, json};
    let mut orders = orders;
    let defs = match &mut orders {
        Value::Object(o) => {
            o.remove("$schema");
            o.remove("title");
            o.remove("$defs").or_else(|| o.remove("definitions"))
        }
        _ => None,
    };
    let mut schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": format!("Galloper orders file ({ruleset})"),
        "description": "An orders file: the envelope (game, step, side, notice, revision, entropy) and the ruleset's orders. Sign it, then mail it as an attachment with its .sig.",
        "type": "object",
        "additionalProperties": false,
        "required": ["galloper", "game", "step", "side", "notice", "revision", "entropy", "orders"],
        "properties": {
            "galloper": {"description": "The orders format.", "const": FORMAT},
            "game": {"description": "The game id, as in the orders template.", "type": "string", "pattern": "^[a-z0-9-]{1,40}$"},
            "step": {"description": "The open step the orders answer.", "type": "integer", "minimum": 1},
            "side": {"description": "Your side, as in the orders template.", "type": "string", "minLength": 1},
            "notice": {"description": "The SHA-256 of the step's signed notice, as in the orders template.", "type": "string", "pattern": "^[0-9a-fA-F]{64}$"},
            "revision": {"description": "1 for the first file of a step; each file that replaces one sent before needs a higher number.", "type": "integer", "minimum": 0},
            "entropy": {
                "description": format!("At least {MIN_ENTROPY_BYTES} random bytes in hex, drawn fresh: a value with a visible pattern (one digit repeated, a short pattern repeated, a count) is refused. {ENTROPY_HOW}."),
                "type": "string",
                "pattern": format!("^([0-9a-fA-F]{{{},}}|{ENTROPY_PLACEHOLDER})$", MIN_ENTROPY_BYTES * 2)
            },
            "orders": orders,
        }
    });
    if let (Some(defs), Value::Object(root)) = (defs, &mut schema) {
        root.insert("$defs".into(), defs);
    }
    schema
}

/// Replace (or add) the entropy line with fresh hex.
pub fn with_entropy(text: &str, entropy_hex: &str) -> String {
    with_field(text, "entropy", entropy_hex)
}

/// Replace the first top-level `key:` line with `key: value`, or add one
/// before the `orders:` line (at the top when there is none).
pub fn with_field(text: &str, key: &str, value: &str) -> String {
    let prefix = format!("{key}:");
    let mut found = false;
    let mut out = String::with_capacity(text.len() + 80);
    for line in text.lines() {
        if !found && line.starts_with(&prefix) {
            out.push_str(&format!("{key}: {value}"));
            found = true;
        } else {
            if !found && line.starts_with("orders:") {
                out.push_str(&format!("{key}: {value}\n"));
                found = true;
            }
            out.push_str(line);
        }
        out.push('\n');
    }
    if !found {
        out = format!("{key}: {value}\n{out}");
    }
    out
}

/// The value of the first top-level `key:` line, without a comment.
pub fn field<'t>(text: &'t str, key: &str) -> Option<&'t str> {
    let prefix = format!("{key}:");
    text.lines()
        .find_map(|l| l.strip_prefix(prefix.as_str()))
        .map(|v| v.split(" #").next().unwrap_or_default().trim())
}

/// The YAML library's message, with what to do when it names a limit that
/// only a crafted file reaches: anchors are named only in a file that has
/// some.
fn yaml_advice(message: &str, text: &str) -> String {
    if message.contains("repetition limit") || message.contains("recursion limit") {
        if has_anchors(text) {
            format!(
                "{message}: the file repeats or nests anchors (`&`, `*`) far more than orders ever need; write the orders out without aliases"
            )
        } else {
            format!(
                "{message}: the file nests lists and maps far deeper than orders ever need; write them as the orders template does"
            )
        }
    } else {
        message.to_string()
    }
}

/// Whether YAML text has an anchor or an alias (`&name`, `*name` where a
/// value starts), outside comments.
fn has_anchors(text: &str) -> bool {
    text.lines().any(|l| {
        let code = l.split(" #").next().unwrap_or("");
        let b = code.as_bytes();
        b.iter().enumerate().any(|(i, &c)| {
            (c == b'&' || c == b'*')
                && (i == 0 || matches!(b[i - 1], b' ' | b'[' | b'{' | b',' | b'-' | b':'))
                && b.get(i + 1)
                    .is_some_and(|n| n.is_ascii_alphanumeric() || *n == b'_')
        })
    })
}

/// `message` with a sentence for what an editor or a mail program does to
/// a file that YAML or a signature minds: a tab, a byte-order mark, CRLF
/// line endings. `line` is the line the message is about.
pub fn with_hint(text: &str, line: Option<usize>, message: String) -> String {
    let mut out = message;
    let tab_line = line
        .and_then(|n| text.lines().nth(n.saturating_sub(1)))
        .is_some_and(|l| l.contains('\t'));
    if let Some(n) = text.lines().position(|l| {
        let indent = l.len() - l.trim_start_matches([' ', '\t']).len();
        l[..indent].contains('\t')
    }) {
        out.push_str(&format!(
            ". Line {} is indented with a tab: YAML indents with spaces only, so replace each tab with spaces (an editor's \"convert indentation to spaces\" does it)",
            n + 1
        ));
    } else if tab_line {
        out.push_str(
            ". That line holds a tab: YAML indents with spaces only, so replace it with spaces",
        );
    }
    if text.starts_with('\u{FEFF}') {
        out.push_str(". The file starts with a byte-order mark (BOM), which some editors add: save it as UTF-8 without BOM");
    }
    out
}

/// What to say when a signature fails over a file with CRLF line endings.
pub const CRLF_HINT: &str = "the file has CRLF (Windows) line endings: it was probably mailed as text and its line endings changed in transit, so the signature no longer matches the bytes that were signed. Attach the file and its .sig instead of pasting them (or sign the file again as it is now)";

/// 32 bytes of fresh entropy, hex.
pub fn fresh_entropy() -> anyhow::Result<String> {
    let mut b = [0u8; 32];
    getrandom::fill(&mut b).map_err(|e| anyhow::anyhow!("the OS gave no randomness: {e}"))?;
    Ok(hex::encode(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "galloper: 1\ngame: g1\nstep: 2\nside: french\nentropy: 8692cf5de86670840452533403d04a1c\norders:\n  round:\n    command: pass\n";

    /// The first 16 bytes of SHA-256("envelope test"): random-looking.
    const GOOD_ENTROPY: &str = "8692cf5de86670840452533403d04a1c";

    #[test]
    fn a_good_envelope_parses() {
        let e = parse("o.yaml", GOOD.as_bytes()).unwrap();
        assert_eq!(
            (e.game.as_str(), e.step, e.side.as_str()),
            ("g1", 2, "french")
        );
    }

    #[test]
    fn yaml_errors_name_line_and_column() {
        let bad = GOOD.replace("step: 2", "step: [2");
        let p = parse("o.yaml", bad.as_bytes()).unwrap_err();
        assert_eq!(p.line, Some(3), "{p}");
        assert!(p.to_string().starts_with("o.yaml:3:"), "{p}");
        let unknown = GOOD.replace("side: french", "side: french\ncolour: blue");
        let p = parse("o.yaml", unknown.as_bytes()).unwrap_err();
        assert!(p.to_string().contains("colour"), "{p}");
    }

    #[test]
    fn the_head_names_game_and_side_without_the_parser() {
        let (game, side) = head("o.yaml", GOOD.as_bytes()).unwrap();
        assert_eq!((game.as_str(), side.as_str()), ("g1", "french"));
        let quoted = GOOD.replace("side: french", "side: 'french' # me");
        assert_eq!(
            head("o.yaml", quoted.as_bytes()).unwrap().1.as_str(),
            "french"
        );
        let flow = "{galloper: 1, game: g1, step: 2, side: french}\n";
        assert!(
            head("o.yaml", flow.as_bytes())
                .unwrap_err()
                .message
                .contains("`side:` line")
        );
        let deep = format!("game: g1\nside: french\norders: {}", "[".repeat(1000));
        assert!(
            head("o.yaml", deep.as_bytes())
                .unwrap_err()
                .message
                .contains("deep")
        );
    }

    #[test]
    fn entropy_must_be_sixteen_bytes_of_hex() {
        let short = GOOD.replace(GOOD_ENTROPY, "0011");
        let p = parse("o.yaml", short.as_bytes()).unwrap_err();
        assert_eq!(p.line, Some(5));
        assert!(p.message.contains("at least 16"), "{p}");
        let nothex = GOOD.replace(GOOD_ENTROPY, &format!("zz{}", &GOOD_ENTROPY[2..]));
        assert!(parse("o.yaml", nothex.as_bytes()).is_err());
    }

    /// The refusal of `entropy_hex` in an otherwise good file.
    fn weak_refusal(entropy_hex: &str) -> Box<Problem> {
        let text = GOOD.replace(GOOD_ENTROPY, entropy_hex);
        match parse("o.yaml", text.as_bytes()) {
            Ok(_) => panic!("{entropy_hex} was accepted"),
            Err(p) => p,
        }
    }

    #[test]
    fn all_zeros_and_one_digit_or_byte_repeated_are_refused() {
        // Issue 28, item 6: guessable entropy lets anyone test guesses at
        // the orders against their public hash.
        for weak in [
            "0".repeat(64),
            "f".repeat(32),
            "ab".repeat(32),
            "01fe".repeat(8),
            // Seven values, in no pattern.
            "00010203040506060504030201000001".into(),
        ] {
            let p = weak_refusal(&weak);
            assert_eq!(p.line, Some(5), "{weak}: {p}");
            assert!(p.message.contains("`entropy:` line"), "{weak}: {p}");
            assert!(p.message.contains("fewer than 8 different"), "{weak}: {p}");
            assert!(p.message.contains("openssl rand -hex 32"), "{weak}: {p}");
            assert!(p.message.contains("galloper sign"), "{weak}: {p}");
        }
    }

    #[test]
    fn a_short_pattern_said_over_and_over_is_refused() {
        for weak in [
            "0123456789abcdef".repeat(4),
            "deadbeefcafef00d".repeat(2),
            // Cut short the last time.
            format!("{}{}", "0011223344556677".repeat(3), "0011"),
            format!("{GOOD_ENTROPY}{GOOD_ENTROPY}"),
        ] {
            let p = weak_refusal(&weak);
            assert!(
                p.message.contains("repeats one short pattern"),
                "{weak}: {p}"
            );
        }
    }

    #[test]
    fn a_count_up_or_down_is_refused() {
        let run = |from: u8, step: u8, n: u8| -> String {
            (0..n)
                .map(|i| format!("{:02x}", from.wrapping_add(i.wrapping_mul(step))))
                .collect()
        };
        for weak in [
            run(0, 1, 32),
            run(0x00, 0x11, 16),
            run(0xff, 0xff, 32), // ff fe fd ...
            run(0xf0, 1, 32),    // wraps past ff
        ] {
            let p = weak_refusal(&weak);
            assert!(p.message.contains("counts up or down"), "{weak}: {p}");
        }
    }

    #[test]
    fn random_and_hashed_entropy_is_accepted() {
        let hashed = |label: &str| {
            use sha2::{Digest, Sha256};
            hex::encode(Sha256::digest(label.as_bytes()))
        };
        for label in ["french", "austrians", "step 1", ""] {
            let strong = hashed(label);
            let text = GOOD.replace(GOOD_ENTROPY, &strong);
            assert!(parse("o.yaml", text.as_bytes()).is_ok(), "{strong}");
            assert!(
                parse(
                    "o.yaml",
                    GOOD.replace(GOOD_ENTROPY, &strong[..32]).as_bytes()
                )
                .is_ok()
            );
        }
        // Fresh draws of the least length allowed: a refusal here would be
        // a one in 10^12 event (see `weak_entropy`), so it means a bug.
        for _ in 0..2000 {
            let mut b = [0u8; MIN_ENTROPY_BYTES];
            getrandom::fill(&mut b).unwrap();
            assert_eq!(weak_entropy(&b), None, "{}", hex::encode(b));
        }
        // What `galloper sign` writes passes its own check.
        for _ in 0..100 {
            let signed = crate::envelope::fresh_entropy().unwrap();
            assert!(parse("o.yaml", GOOD.replace(GOOD_ENTROPY, &signed).as_bytes()).is_ok());
        }
        // Exactly 8 different values, in no pattern: enough.
        assert_eq!(
            weak_entropy(&hex::decode("0a1b2c3d4e5f6a7b0a2c1b4e3d6a5f7b").unwrap()),
            None
        );
    }

    #[test]
    fn stored_files_with_weak_entropy_still_parse_for_replay() {
        // A file accepted before the check came in must still resolve and
        // audit exactly as it did.
        let old = GOOD.replace(GOOD_ENTROPY, &"ab".repeat(32));
        assert!(parse("o.yaml", old.as_bytes()).is_err());
        assert!(parse_stored("o.yaml", old.as_bytes()).is_ok());
        assert!(parse_stored("o.yaml", GOOD.replace(GOOD_ENTROPY, "ab").as_bytes()).is_err());
    }

    #[test]
    fn large_and_binary_files_are_refused_unread() {
        let big = vec![b'#'; MAX_BYTES + 1];
        assert!(
            parse("o.yaml", &big)
                .unwrap_err()
                .message
                .contains("at most")
        );
        assert!(
            parse("o.yaml", &[0xff, 0xfe, 0x00])
                .unwrap_err()
                .message
                .contains("UTF-8")
        );
    }

    #[test]
    fn a_nesting_refusal_speaks_of_anchors_only_when_there_are_some() {
        // Issue 13, part 3.
        let plain = "orders:\n  round: [[[1]]]\n";
        let said = yaml_advice("recursion limit exceeded", plain);
        assert!(
            !said.contains("anchor") && said.contains("deeper"),
            "{said}"
        );
        let aliased = "a: &x [1]\nb: [*x, *x]\n";
        assert!(yaml_advice("repetition limit exceeded", aliased).contains("anchors"));
        assert!(!has_anchors("x: 'a & b' # *not* an alias\n"));
    }

    #[test]
    fn a_path_is_followed_key_by_key_and_list_entries_by_number() {
        // Issue 13, part 3: the line of the field, not of `orders:`.
        let text = "galloper: 1\norders:\n  deploy:\n    companies:\n      - company: a\n        at: [1, 2]\n      - company: b\n        at: [3, 4]\n    event: x\n";
        let p = locate(
            "o.yaml",
            text,
            &Violation::new(&["deploy", "companies", "1"], None, "A.5", "bad"),
        );
        assert_eq!(p.line, Some(7), "{p}");
        let p = locate(
            "o.yaml",
            text,
            &Violation::new(&["deploy", "event"], None, "A.5", "bad"),
        );
        assert_eq!(p.line, Some(9), "{p}");
    }

    #[test]
    fn violations_point_at_the_line_of_their_unit() {
        let text = "galloper: 1\norders:\n  round:\n    command:\n      march:\n        force: [a, b]\n        moves:\n          - unit: b\n            steps: [{forward: 9}]\n";
        let v = Violation::new(
            &["moves", "b"],
            Some("b"),
            "6. Movement allowances",
            "too far",
        );
        let p = locate("o.yaml", text, &v);
        assert_eq!(p.line, Some(8));
        assert_eq!(
            p.to_string(),
            "o.yaml:8: unit b: too far (rule: 6. Movement allowances)"
        );
    }

    #[test]
    fn compose_and_fresh_entropy_round_trip() {
        let side = SideId::new("austrians");
        let head = Head {
            game: "g1",
            step: 3,
            side: &side,
            notice: &notice_sha256("notice"),
            revision: 1,
        };
        let text = compose(&head, "FILL", "round:\n  command: pass\n");
        let text = with_entropy(&text, GOOD_ENTROPY);
        let e = parse("o.yaml", text.as_bytes()).unwrap();
        assert_eq!(e.step, 3);
        assert_eq!(e.entropy, GOOD_ENTROPY);
        assert_eq!(e.notice, Some(notice_sha256("notice")));
        assert_eq!(e.revision, Some(1));
        let text = with_field(&text, "revision", "2");
        assert_eq!(field(&text, "revision"), Some("2"));
        let bare = with_field(GOOD, "revision", "7");
        assert!(bare.contains("revision: 7\norders:\n"), "{bare}");
        assert_eq!(parse("o.yaml", bare.as_bytes()).unwrap().revision, Some(7));
    }
}

#[cfg(test)]
mod file_schema_tests {
    /// Issue 31, item 14: a file without `notice:` or `revision:` is
    /// refused, so the schema an editor checks against requires them too.
    #[test]
    fn the_file_schema_requires_the_notice_and_the_revision() {
        let s = super::file_schema("maurice-lite", serde_json::json!({}));
        let required: Vec<&str> = s["required"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|v| v.as_str())
            .collect();
        for key in ["notice", "revision", "entropy", "orders"] {
            assert!(required.contains(&key), "{key}: {required:?}");
        }
    }
}
