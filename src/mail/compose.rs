//! The messages Galloper sends, built as complete RFC 5322 bytes.
//!
//! A message is composed once and stored in the outbox; a resend after a crash
//! sends the stored bytes again, so composing must be a pure function of its
//! input: no clock (the caller supplies the date), no random MIME boundaries
//! (they are derived from a hash of the content), a stable Message-ID.
//! Everything that leaves here is ASCII with CRLF line ends, and every file a
//! player may hash or verify travels base64 so no relay can rewrite its bytes.

use std::time::UNIX_EPOCH;

use lettre::Address;
use lettre::message::header::{ContentTransferEncoding, ContentType, HeaderName, HeaderValue};
use lettre::message::{Attachment, Body, Mailbox, Message, MessageBuilder, MultiPart, SinglePart};
use sha2::{Digest, Sha256};

/// Content-ID of the map image inside a report; the HTML shows it as
/// `<img src="cid:map@galloper">`.
pub const MAP_CID: &str = "map@galloper";

/// A sender or recipient.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Party {
    /// Display name, if any (any Unicode; encoded as RFC 2047 when needed).
    pub name: Option<String>,
    /// The address, `local@domain`.
    pub email: String,
}

/// Where a message sits in its game's thread.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Thread {
    /// Message-ID of the game's first mail (see [`thread_root`]), without
    /// angle brackets.
    pub root: String,
    /// Message-ID of the message this one follows, without angle brackets.
    pub parent: Option<String>,
}

/// A step's report to one reader.
#[derive(Debug, Clone)]
pub struct ReportMail<'a> {
    /// Sender (the club address).
    pub from: &'a Party,
    /// The reader.
    pub to: &'a Party,
    /// Subject line.
    pub subject: String,
    /// Message-ID without angle brackets, normally from [`message_id`].
    pub message_id: String,
    /// The game's thread.
    pub thread: Thread,
    /// The plain-text report.
    pub text: &'a str,
    /// The HTML report. It should show the map as `<img src="cid:map@galloper">`;
    /// `cid:map` is completed, and an inline `<svg>` map (which most mail
    /// clients strip) is replaced by that image. Without any of these the image
    /// is added at the end of the body.
    pub html: &'a str,
    /// The map as PNG, attached inline with Content-ID [`MAP_CID`].
    pub png: &'a [u8],
    /// Files attached after the report (the orders template), as (file
    /// name, bytes); always sent base64, byte for byte.
    pub attachments: Vec<(String, Vec<u8>)>,
    /// The `Date` header as an RFC 2822 date, supplied by the caller. `None`
    /// leaves the header out (the submission server then adds one).
    pub date: Option<String>,
}

/// A short answer to a player's message.
#[derive(Debug, Clone)]
pub struct ReplyMail<'a> {
    /// Sender (the club address).
    pub from: &'a Party,
    /// The player.
    pub to: &'a Party,
    /// Subject line.
    pub subject: String,
    /// Message-ID without angle brackets, normally from [`message_id`].
    pub message_id: String,
    /// Message-ID of the player's message, if it had one.
    pub in_reply_to: Option<String>,
    /// The game's thread, when the message could be routed to a game.
    pub thread: Option<Thread>,
    /// The answer, plain text.
    pub text: String,
    /// The `Date` header as an RFC 2822 date; `None` leaves it out.
    pub date: Option<String>,
}

/// Why a message could not be composed. Each names the field at fault, so an
/// operator can tell a bad configuration from a bad input.
#[derive(Debug, thiserror::Error)]
pub enum ComposeError {
    /// An address does not parse.
    #[error("invalid {field} address {value:?}: {reason}")]
    Address {
        /// Which header it was for.
        field: &'static str,
        /// The address as given.
        value: String,
        /// What the parser said.
        reason: String,
    },
    /// A Message-ID is not `left@right` in printable ASCII.
    #[error(
        "invalid {field} {value:?}: a message id is left@right in printable ASCII, without spaces or angle brackets inside"
    )]
    MessageId {
        /// Which header it was for.
        field: &'static str,
        /// The id as given.
        value: String,
    },
    /// A header value holds a line break or another control character, which
    /// could smuggle in headers of its own.
    #[error("the {field} contains a line break or control character: {value:?}")]
    ControlCharacter {
        /// Which header it was for.
        field: &'static str,
        /// The value as given.
        value: String,
    },
    /// The date is not an RFC 2822 date.
    #[error(
        "invalid Date {value:?}: expected an RFC 2822 date like \"Tue, 1 Jul 2025 10:00:00 +0000\""
    )]
    Date {
        /// The date as given.
        value: String,
    },
    /// The map bytes are not a PNG image.
    #[error("the map image is not a PNG ({len} bytes without the PNG signature)")]
    NotPng {
        /// How many bytes were given.
        len: usize,
    },
    /// An attachment name is empty, holds a path or a control character.
    #[error(
        "invalid attachment name {name:?}: expected a plain file name without '/', '\\' or control characters"
    )]
    AttachmentName {
        /// The name as given.
        name: String,
    },
    /// lettre refused to build the message.
    #[error("could not build the message: {0}")]
    Build(String),
}

/// The Message-ID of one mail, without angle brackets:
/// `galloper.{game}.{step}.{reader}.{kind}@{domain}` (kind: `report`,
/// `reply-<sha8>`, `notice`, `alert`).
///
/// The same arguments always give the same id, so a mail composed again after
/// a crash is recognised as the same mail by every receiver. Characters of
/// `game`, `reader` and `kind` that a message id cannot carry (and `.` and
/// `=`, to keep the fields apart) are written `=XX`, one per UTF-8 byte.
pub fn message_id(domain: &str, game: &str, step: u32, reader: &str, kind: &str) -> String {
    format!(
        "galloper.{}.{step}.{}.{}@{domain}",
        id_part(game),
        id_part(reader),
        id_part(kind)
    )
}

/// The Message-ID every mail of a game refers to, without angle brackets:
/// `galloper.{game}@{domain}`. Mail clients that thread by References gather
/// a whole game under it.
pub fn thread_root(domain: &str, game: &str) -> String {
    format!("galloper.{}@{domain}", id_part(game))
}

/// Writes one field of a message id with only unambiguous atext characters.
fn id_part(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'+' {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("={b:02X}"));
        }
    }
    out
}

/// Composes a report: `multipart/mixed` of a `multipart/related` (a
/// `multipart/alternative` of text and HTML, then the map PNG inline) and the
/// attachments, each base64. The same input always gives the same bytes.
pub fn report(m: &ReportMail) -> Result<Vec<u8>, ComposeError> {
    if !m.png.starts_with(b"\x89PNG\r\n\x1a\n") {
        return Err(ComposeError::NotPng { len: m.png.len() });
    }
    for (name, _) in &m.attachments {
        check_file_name(name)?;
    }
    let own = bracketed("Message-ID", &m.message_id)?;
    let root = bracketed("thread root", &m.thread.root)?;
    let parent = match &m.thread.parent {
        Some(p) => Some(bracketed("thread parent", p)?),
        None => None,
    };
    // Without a parent the report answers the game's root, which keeps it in
    // the thread even in clients that look only at In-Reply-To.
    let in_reply_to = parent.clone().unwrap_or_else(|| root.clone());
    let references = chain(&own, [Some(root), parent]);
    let head = Head {
        from: mailbox("From", m.from)?,
        to: mailbox("To", m.to)?,
        subject: line("Subject", &m.subject)?,
        in_reply_to: Some(in_reply_to).filter(|id| *id != own),
        references,
        message_id: own,
        date: checked_date(m.date.as_deref())?,
        // Reports are generated, not answers: RFC 3834 asks responders to
        // stay quiet for both, and the value tells a human which it was.
        auto_submitted: "auto-generated",
        reply_to: None,
    };

    let html = html_with_map(m.html);
    let [mixed, related, alternative] = boundaries(m, &html);
    let text_parts = MultiPart::alternative()
        .boundary(alternative)
        .singlepart(SinglePart::plain(m.text.to_owned()))
        .singlepart(SinglePart::html(html));
    let map = Attachment::new_inline_with_name(MAP_CID.to_owned(), "map.png".to_owned())
        .body(base64(m.png.to_vec()), content_type("image/png")?);
    let related = MultiPart::related()
        .boundary(related)
        .multipart(text_parts)
        .singlepart(map);
    let mut body = MultiPart::mixed().boundary(mixed).multipart(related);
    for (name, bytes) in &m.attachments {
        let part = Attachment::new(name.clone()).body(base64(bytes.clone()), file_type(name)?);
        body = body.singlepart(part);
    }
    let message = head
        .builder()
        .multipart(body)
        .map_err(|e| ComposeError::Build(e.to_string()))?;
    Ok(head.finish(message))
}

/// Composes a reply: one short `text/plain` part, marked `Auto-Submitted:
/// auto-replied` (RFC 3834) so that other robots do not answer it.
pub fn reply(m: &ReplyMail) -> Result<Vec<u8>, ComposeError> {
    let own = bracketed("Message-ID", &m.message_id)?;
    let in_reply_to = match &m.in_reply_to {
        Some(id) => Some(bracketed("In-Reply-To", id)?),
        None => None,
    };
    let (root, parent) = match &m.thread {
        Some(t) => (
            Some(bracketed("thread root", &t.root)?),
            match &t.parent {
                Some(p) => Some(bracketed("thread parent", p)?),
                None => None,
            },
        ),
        None => (None, None),
    };
    let head = Head {
        from: mailbox("From", m.from)?,
        to: mailbox("To", m.to)?,
        subject: line("Subject", &m.subject)?,
        references: chain(&own, [root, parent, in_reply_to.clone()]),
        in_reply_to: in_reply_to.filter(|id| *id != own),
        message_id: own,
        date: checked_date(m.date.as_deref())?,
        auto_submitted: "auto-replied",
        reply_to: None,
    };
    // lettre ends a single-part body with a line break of its own; dropping
    // one from the text keeps the body exactly the text the caller wrote.
    let text = m.text.strip_suffix('\n').unwrap_or(&m.text);
    let text = text.strip_suffix('\r').unwrap_or(text);
    let message = head
        .builder()
        .singlepart(SinglePart::plain(text.to_owned()))
        .map_err(|e| ComposeError::Build(e.to_string()))?;
    Ok(head.finish(message))
}

/// A message passed on to the game master: a reply's form, sent to him,
/// with `Reply-To:` the player, so that his answer goes to the player and
/// not back to the club. Marked `auto-generated`: it answers nobody.
pub fn passed_on(m: &ReplyMail, player: &Party) -> Result<Vec<u8>, ComposeError> {
    let own = bracketed("Message-ID", &m.message_id)?;
    let head = Head {
        from: mailbox("From", m.from)?,
        to: mailbox("To", m.to)?,
        subject: line("Subject", &m.subject)?,
        references: Vec::new(),
        in_reply_to: None,
        message_id: own,
        date: checked_date(m.date.as_deref())?,
        auto_submitted: "auto-generated",
        reply_to: Some(mailbox("Reply-To", player)?),
    };
    let text = m.text.strip_suffix('\n').unwrap_or(&m.text);
    let message = head
        .builder()
        .singlepart(SinglePart::plain(text.to_owned()))
        .map_err(|e| ComposeError::Build(e.to_string()))?;
    Ok(head.finish(message))
}

/// Composes a reply that carries files (the `archive` request's answer):
/// `multipart/mixed` of the text and each file, base64 byte for byte, marked
/// `Auto-Submitted: auto-replied` like [`reply`]. The same input always
/// gives the same bytes.
pub fn reply_with_files(
    m: &ReplyMail,
    files: &[(String, Vec<u8>)],
) -> Result<Vec<u8>, ComposeError> {
    for (name, _) in files {
        check_file_name(name)?;
    }
    let own = bracketed("Message-ID", &m.message_id)?;
    let in_reply_to = match &m.in_reply_to {
        Some(id) => Some(bracketed("In-Reply-To", id)?),
        None => None,
    };
    let root = match &m.thread {
        Some(t) => Some(bracketed("thread root", &t.root)?),
        None => None,
    };
    let head = Head {
        from: mailbox("From", m.from)?,
        to: mailbox("To", m.to)?,
        subject: line("Subject", &m.subject)?,
        references: chain(&own, [root, in_reply_to.clone()]),
        in_reply_to: in_reply_to.filter(|id| *id != own),
        message_id: own,
        date: checked_date(m.date.as_deref())?,
        auto_submitted: "auto-replied",
        reply_to: None,
    };
    let mut h = Sha256::new();
    for part in [m.message_id.as_bytes(), m.text.as_bytes()]
        .into_iter()
        .chain(files.iter().flat_map(|(n, b)| [n.as_bytes(), b.as_slice()]))
    {
        h.update((part.len() as u64).to_be_bytes());
        h.update(part);
    }
    let boundary = format!("galloper-mixed-{}", &hex::encode(h.finalize())[..32]);
    let mut body = MultiPart::mixed()
        .boundary(boundary)
        .singlepart(SinglePart::plain(m.text.clone()));
    for (name, bytes) in files {
        let part = Attachment::new(name.clone()).body(base64(bytes.clone()), file_type(name)?);
        body = body.singlepart(part);
    }
    let message = head
        .builder()
        .multipart(body)
        .map_err(|e| ComposeError::Build(e.to_string()))?;
    Ok(head.finish(message))
}

/// The checked headers common to every message Galloper sends.
struct Head {
    from: Mailbox,
    to: Mailbox,
    subject: String,
    /// With angle brackets, like the two below.
    message_id: String,
    in_reply_to: Option<String>,
    references: Vec<String>,
    date: Option<String>,
    auto_submitted: &'static str,
    /// Where answers go when not to the sender (a message passed on to
    /// the game master: his answer goes to the player).
    reply_to: Option<Mailbox>,
}

impl Head {
    fn builder(&self) -> MessageBuilder {
        let mut b = Message::builder()
            .from(self.from.clone())
            .to(self.to.clone())
            .subject(self.subject.clone())
            // lettre reads the clock when no Date is set; a fixed placeholder
            // keeps it out and is replaced (or removed) in `finish`.
            .date(UNIX_EPOCH)
            .message_id(Some(self.message_id.clone()));
        if let Some(id) = &self.in_reply_to {
            b = b.in_reply_to(id.clone());
        }
        if let Some(r) = &self.reply_to {
            b = b.reply_to(r.clone());
        }
        if !self.references.is_empty() {
            b = b.references(self.references.join(" "));
        }
        b.raw_header(HeaderValue::new(
            HeaderName::new_from_ascii_str("Auto-Submitted"),
            self.auto_submitted.to_owned(),
        ))
        // Exchange's out-of-office ignores Auto-Submitted but honours this.
        .raw_header(HeaderValue::new(
            HeaderName::new_from_ascii_str("X-Auto-Response-Suppress"),
            "All".to_owned(),
        ))
    }

    fn finish(&self, mut message: Message) -> Vec<u8> {
        let headers = message.headers_mut();
        match &self.date {
            // Verbatim, so the caller's time zone is kept.
            Some(date) => headers.insert_raw(HeaderValue::new(
                HeaderName::new_from_ascii_str("Date"),
                date.clone(),
            )),
            None => {
                headers.remove_raw("Date");
            }
        }
        message.formatted()
    }
}

/// The References list: each id once, in order, never the message itself.
fn chain<const N: usize>(own: &str, ids: [Option<String>; N]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for id in ids.into_iter().flatten() {
        if id != own && !out.contains(&id) {
            out.push(id);
        }
    }
    out
}

fn mailbox(field: &'static str, party: &Party) -> Result<Mailbox, ComposeError> {
    let email: Address = party
        .email
        .parse()
        .map_err(|e: lettre::address::AddressError| ComposeError::Address {
            field,
            value: party.email.clone(),
            reason: e.to_string(),
        })?;
    if let Some(name) = &party.name {
        line(field, name)?;
    }
    Ok(Mailbox::new(party.name.clone(), email))
}

/// A header value must stay on one line.
fn line(field: &'static str, value: &str) -> Result<String, ComposeError> {
    if value.chars().any(char::is_control) {
        return Err(ComposeError::ControlCharacter {
            field,
            value: value.to_owned(),
        });
    }
    Ok(value.to_owned())
}

/// Whether `bare` (without angle brackets) can stand in a Message-ID,
/// In-Reply-To or References header: `left@right` in printable ASCII.
pub fn is_message_id(bare: &str) -> bool {
    let printable = bare
        .bytes()
        .all(|b| b.is_ascii_graphic() && b != b'<' && b != b'>');
    let well_formed = match bare.split_once('@') {
        Some((left, right)) => !left.is_empty() && !right.is_empty() && !right.contains('@'),
        None => false,
    };
    printable && well_formed && bare.len() <= 900
}

/// Checks a message id (angle brackets optional) and returns it bracketed.
fn bracketed(field: &'static str, id: &str) -> Result<String, ComposeError> {
    let bare = id
        .strip_prefix('<')
        .and_then(|s| s.strip_suffix('>'))
        .unwrap_or(id);
    if !is_message_id(bare) {
        return Err(ComposeError::MessageId {
            field,
            value: id.to_owned(),
        });
    }
    Ok(format!("<{bare}>"))
}

fn checked_date(date: Option<&str>) -> Result<Option<String>, ComposeError> {
    let Some(date) = date else {
        return Ok(None);
    };
    let date = date.trim();
    let valid = date.bytes().all(|b| (b' '..=b'~').contains(&b))
        && mail_parser::DateTime::parse_rfc822(date).is_some_and(|d| d.is_valid());
    if !valid {
        return Err(ComposeError::Date {
            value: date.to_owned(),
        });
    }
    Ok(Some(date.to_owned()))
}

fn check_file_name(name: &str) -> Result<(), ComposeError> {
    let bad =
        name.trim().is_empty() || name.contains(['/', '\\']) || name.chars().any(char::is_control);
    if bad {
        return Err(ComposeError::AttachmentName {
            name: name.to_owned(),
        });
    }
    Ok(())
}

/// Base64 for bytes that must arrive exactly: lettre would otherwise send
/// ASCII files as 7bit, leaving their line ends to every relay on the way.
fn base64(bytes: Vec<u8>) -> Body {
    Body::new_with_encoding(bytes, ContentTransferEncoding::Base64).unwrap_or_else(|bytes| {
        // Base64 accepts any bytes; keep going with lettre's own choice
        // rather than panic should that ever change.
        Body::new(bytes)
    })
}

fn content_type(mime: &str) -> Result<ContentType, ComposeError> {
    ContentType::parse(mime).map_err(|e| ComposeError::Build(format!("content type {mime}: {e}")))
}

/// The media type of an attached file, from its extension.
fn file_type(name: &str) -> Result<ContentType, ComposeError> {
    let ext = name
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    let mime = match ext.as_str() {
        "yaml" | "yml" => "application/yaml",
        "json" => "application/json",
        "txt" | "sha256" => "text/plain; charset=utf-8",
        "png" => "image/png",
        "svg" => "image/svg+xml",
        "html" | "htm" => "text/html; charset=utf-8",
        _ => "application/octet-stream",
    };
    content_type(mime)
}

/// MIME boundaries derived from a hash of everything inside the message:
/// stable for the same input, and no part can contain a hash of itself.
fn boundaries(m: &ReportMail, html: &str) -> [String; 3] {
    let mut h = Sha256::new();
    let mut field = |bytes: &[u8]| {
        h.update((bytes.len() as u64).to_be_bytes());
        h.update(bytes);
    };
    field(m.message_id.as_bytes());
    field(m.text.as_bytes());
    field(html.as_bytes());
    field(m.png);
    for (name, bytes) in &m.attachments {
        field(name.as_bytes());
        field(bytes);
    }
    let hex = hex::encode(h.finalize());
    let tag = &hex[..32];
    ["mixed", "related", "alt"].map(|kind| format!("galloper-{kind}-{tag}"))
}

/// Points the HTML at the inline map image (see [`ReportMail::html`]).
fn html_with_map(html: &str) -> String {
    if html.contains(&format!("cid:{MAP_CID}")) {
        return html.to_owned();
    }
    for quote in ['"', '\''] {
        let short = format!("cid:map{quote}");
        if html.contains(&short) {
            return html.replace(&short, &format!("cid:{MAP_CID}{quote}"));
        }
    }
    let img = format!(
        r#"<img src="cid:{MAP_CID}" alt="Map" style="display:block;max-width:100%;height:auto">"#
    );
    if let Some((start, end)) = svg_span(html) {
        return format!("{}{img}{}", &html[..start], &html[end..]);
    }
    let lower = html.to_ascii_lowercase();
    match lower.rfind("</body>") {
        Some(at) => format!("{}<p>{img}</p>\n{}", &html[..at], &html[at..]),
        None => format!("{html}\n<p>{img}</p>\n"),
    }
}

/// Byte range of the first `<svg>` element, nested ones included.
fn svg_span(html: &str) -> Option<(usize, usize)> {
    // ASCII lower-casing keeps every byte offset, so positions found in the
    // copy are valid in the original.
    let lower = html.to_ascii_lowercase();
    let is_open = |at: usize| {
        lower[at..].starts_with("<svg")
            && lower[at + 4..]
                .bytes()
                .next()
                .is_some_and(|b| b == b'>' || b == b'/' || b.is_ascii_whitespace())
    };
    let start = lower
        .match_indices("<svg")
        .map(|(i, _)| i)
        .find(|&i| is_open(i))?;
    let mut depth = 0usize;
    let mut at = start;
    while at < lower.len() {
        if is_open(at) {
            depth += 1;
            at += 4;
        } else if lower[at..].starts_with("</svg>") {
            depth -= 1;
            at += "</svg>".len();
            if depth == 0 {
                return Some((start, at));
            }
        } else {
            at += lower[at..].chars().next().map_or(1, char::len_utf8);
        }
    }
    None
}

/// The subject of a reply: `Re: ` once, however many the subject had
/// (`Re: Re: orders` is answered `Re: orders`), as mail programs write it.
pub fn reply_subject(subject: &str) -> String {
    let mut rest = subject.trim();
    while let Some(r) = rest
        .get(..3)
        .filter(|p| p.eq_ignore_ascii_case("re:"))
        .map(|_| rest[3..].trim_start())
    {
        rest = r;
    }
    format!("Re: {rest}")
}

#[cfg(test)]
mod reply_subject_tests {
    #[test]
    fn a_reply_says_re_once() {
        assert_eq!(super::reply_subject("orders"), "Re: orders");
        assert_eq!(super::reply_subject("Re: orders"), "Re: orders");
        assert_eq!(super::reply_subject(" RE: re:Re: status "), "Re: status");
        assert_eq!(super::reply_subject(""), "Re: ");
        assert_eq!(super::reply_subject("Ré"), "Re: Ré");
    }
}
