//! Which game a message is for, and what a message without orders asks for.

use super::inbound::{Inbound, Submission};

/// Longest game id, in characters.
pub const MAX_GAME_ID: usize = 40;

/// How a message was routed to its game; each carries the game id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// `club+GAME@domain` among the recipients.
    PlusAddress(String),
    /// `[GAME]` in the subject.
    SubjectTag(String),
    /// The `game:` field of the first submission's orders.
    OrdersField(String),
}

impl Route {
    /// The game id.
    pub fn game(&self) -> &str {
        match self {
            Route::PlusAddress(g) | Route::SubjectTag(g) | Route::OrdersField(g) => g,
        }
    }

    /// How the game was found, for the reply: "by the plus-address +g1 of
    /// the recipient" and so on.
    pub fn describe(&self) -> String {
        match self {
            Route::PlusAddress(g) => format!("by the plus-address +{g} of the recipient"),
            Route::SubjectTag(g) => format!("by the tag [{g}] in the subject"),
            Route::OrdersField(g) => format!("by the field \"game: {g}\" of the orders"),
        }
    }
}

/// Whether `s` is a game id: 1 to 40 of `a-z`, `0-9`, `-`.
pub fn is_game_id(s: &str) -> bool {
    (1..=MAX_GAME_ID).contains(&s.len())
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// The game a message is for. `club_local` is the local part of the club's
/// address (`club` for `club@example.org`). Tried in this order: a
/// plus-address `club+GAME@…` among the recipients (any domain, any case),
/// the first `[GAME]` tag in the subject (any case), then the `game:` field
/// of the first submission's orders. Ids are lowercased; something that is
/// not a valid id is passed over.
pub fn route(inb: &Inbound, club_local: &str, subs: &[Submission]) -> Option<Route> {
    plus_address(&inb.to, club_local)
        .map(Route::PlusAddress)
        .or_else(|| subject_tag(&inb.subject).map(Route::SubjectTag))
        .or_else(|| {
            subs.first()
                .and_then(|s| orders_game(&s.orders))
                .map(Route::OrdersField)
        })
}

fn plus_address(to: &[String], club_local: &str) -> Option<String> {
    let club = club_local.trim().to_lowercase();
    to.iter().find_map(|addr| {
        let (local, _domain) = addr.rsplit_once('@')?;
        let game = local
            .trim()
            .to_lowercase()
            .strip_prefix(&club)?
            .strip_prefix('+')?
            .to_string();
        is_game_id(&game).then_some(game)
    })
}

fn subject_tag(subject: &str) -> Option<String> {
    let mut rest = subject;
    while let Some(open) = rest.find('[') {
        let after = &rest[open + 1..];
        let close = after.find(']')?;
        let tag = after[..close].trim().to_lowercase();
        if is_game_id(&tag) {
            return Some(tag);
        }
        rest = &after[close + 1..];
    }
    None
}

/// The top-level `game:` field, read line by line so that orders YAML that
/// does not parse still routes (and then gets its errors in the reply).
fn orders_game(orders: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(orders);
    let line = text
        .lines()
        .map(|l| l.trim_start_matches('\u{FEFF}'))
        .find(|l| l.starts_with("game:"))?;
    let value = line["game:".len()..]
        .split(" #")
        .next()
        .unwrap_or_default()
        .trim()
        .trim_matches(|c| c == '"' || c == '\'')
        .to_lowercase();
    is_game_id(&value).then_some(value)
}

/// What a player asks for in the subject of a message without orders.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// Send me my latest report again.
    Report,
    /// Tell me the state of the game (whose orders are awaited).
    Status,
    /// Check the attached orders as `galloper orders check` would, and
    /// store nothing.
    Check,
    /// Send me the archive files of the latest resolved step (report mails
    /// do not carry them).
    Archive,
}

/// Whether the sender asks only to have his orders checked: `check` as the
/// request of the subject, or a line `check: true` in the message's text
/// (for mail programs that make the subject hard to set). Orders pasted in
/// the text come after that line: what follows their `galloper:` line is
/// orders, not a request.
pub fn wants_check(inb: &Inbound) -> bool {
    request(inb) == Some(Request::Check)
        || inb.body_text.as_deref().is_some_and(|t| {
            t.lines()
                .take_while(|l| !l.trim_start().starts_with("galloper:"))
                .any(|l| {
                    let l = l.trim().to_ascii_lowercase();
                    l.strip_prefix("check:")
                        .is_some_and(|v| matches!(v.trim(), "true" | "yes"))
                })
        })
}

/// A request is the first word of the subject once `[…]` tags are taken out,
/// in any case: "report", "Status please", "[g1] REPORT". A reply ("Re:
/// [g1] Report of step 3") starts with another word and is no request.
pub fn request(inb: &Inbound) -> Option<Request> {
    let mut untagged = String::new();
    let mut depth = 0usize;
    for c in inb.subject.chars() {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            c if depth == 0 => untagged.push(c),
            _ => {}
        }
    }
    let word = untagged
        .split(|c: char| !c.is_alphanumeric())
        .find(|w| !w.is_empty())?
        .to_lowercase();
    match word.as_str() {
        "report" => Some(Request::Report),
        "status" => Some(Request::Status),
        "check" => Some(Request::Check),
        "archive" => Some(Request::Archive),
        _ => None,
    }
}
