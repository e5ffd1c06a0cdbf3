//! One incoming message read into what the daemon needs: who sent it and to
//! which address, whether it may be answered at all, its files and its text;
//! and, from those, the orders it carries with their signatures.
//!
//! Pure: bytes in, values out. No network, no store, no clock, so that the
//! same message always gives the same answer (the daemon relies on this to
//! process each message exactly once, keyed by Message-ID and content hash).

use mail_parser::decoders::base64::base64_decode;
use mail_parser::decoders::quoted_printable::quoted_printable_decode;
use mail_parser::{Encoding, HeaderName, HeaderValue, Message, MessageParser, MessagePart};
use mail_parser::{MimeHeaders, PartType};
use sha2::{Digest, Sha256};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Default largest message accepted, in bytes (the size of the raw message).
pub const DEFAULT_MAX_BYTES: usize = 1024 * 1024;
/// Default largest number of attached files.
pub const DEFAULT_MAX_ATTACHMENTS: usize = 6;
/// The `file_name` of orders pasted into the message body rather than attached.
pub const BODY_NAME: &str = "(message body)";
/// Longest attachment name kept, in characters.
pub const MAX_NAME_CHARS: usize = 100;

/// First line of an armored OpenSSH signature.
const SSH_BEGIN: &str = "-----BEGIN SSH SIGNATURE-----";
/// Last line of an armored OpenSSH signature.
const SSH_END: &str = "-----END SSH SIGNATURE-----";
/// How deep attached messages are followed (a forward of a forward of ...).
const MAX_NESTING: usize = 8;
/// Message-IDs longer than this are not trusted as keys.
const MAX_MESSAGE_ID: usize = 250;
/// How much of a file is looked at to decide whether it looks like orders.
const SNIFF_BYTES: usize = 4096;

/// What a message may weigh before it is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Largest raw message, in bytes.
    pub max_bytes: usize,
    /// Most attached files, counting those inside forwarded messages.
    pub max_attachments: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_bytes: DEFAULT_MAX_BYTES,
            max_attachments: DEFAULT_MAX_ATTACHMENTS,
        }
    }
}

/// A mailbox: display name and address, as written in the header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Address {
    pub name: Option<String>,
    pub email: String,
}

/// An attached file, decoded byte for byte. A file not sent in base64 had
/// its line ends rewritten in transit; it comes back with LF line ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InFile {
    /// Safe to show and to use as a file name: no directories, no control
    /// characters, at most [`MAX_NAME_CHARS`]; `attachment-N` (1-based) if the
    /// sender gave none.
    pub name: String,
    pub bytes: Vec<u8>,
}

/// Why a message must not be answered (RFC 3834 and common practice).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AutoKind {
    /// `Auto-Submitted` with any value but `no` (lowercased, without parameters).
    AutoSubmitted(String),
    /// `Precedence: bulk`, `junk` or `list`.
    Precedence(String),
    /// `Return-Path: <>`: a bounce or another notification.
    EmptyReturnPath,
    /// `List-Id` or `List-Unsubscribe` (the header's value).
    MailingList(String),
    /// From `MAILER-DAEMON` or `postmaster`, or a delivery report.
    MailerDaemon,
    /// `X-Autoreply` or `X-Autorespond` (the header's name): vacation
    /// programs that predate RFC 3834 send these instead of `Auto-Submitted`.
    AutoReplyHeader(String),
}

/// Headers that older autoresponders set instead of `Auto-Submitted`.
const AUTOREPLY_HEADERS: [&str; 2] = ["X-Autoreply", "X-Autorespond"];

/// One incoming message, read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Inbound {
    /// Without angle brackets; `sha256-<hex>@galloper.invalid` (the content
    /// hash) when the message has none or an unusable one.
    pub message_id: String,
    /// SHA-256 of the body (the bytes after the header block), hex. With
    /// `message_id`, the key that makes processing exactly-once. The headers
    /// are left out because every relay adds its own trace lines: the same
    /// message delivered twice differs there and nowhere else.
    pub content_sha256: String,
    pub from: Option<Address>,
    /// `Reply-To`, if present.
    pub reply_to: Option<Address>,
    /// Every `To`, `Cc`, `Delivered-To`, `X-Original-To` and `Envelope-To`
    /// address, lowercased, each once, in header order. Postfix puts the
    /// address as sent (with its plus part) in `X-Original-To` even when an
    /// alias rewrote `Delivered-To`.
    pub to: Vec<String>,
    pub subject: String,
    pub references: Vec<String>,
    /// Set when no reply may be sent.
    pub auto: Option<AutoKind>,
    /// Every attached file, those inside attached messages (forwards) too,
    /// in the order they appear.
    pub files: Vec<InFile>,
    /// The text/plain body (format=flowed undone, line ends as `\n`), or the
    /// text of the HTML body when there is no plain one.
    pub body_text: Option<String>,
}

/// Why a message was refused unread.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InboundError {
    #[error("the message is {bytes} bytes long; the limit is {limit} bytes")]
    TooLarge { bytes: usize, limit: usize },
    #[error("the message has {count} attachments; the limit is {limit}")]
    TooManyAttachments { count: usize, limit: usize },
    #[error("the message could not be read as an email")]
    Unparseable,
}

/// Orders with their signature, found in a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Submission {
    /// The attachment's name, or [`BODY_NAME`].
    pub file_name: String,
    /// The signed bytes.
    pub orders: Vec<u8>,
    /// The armored SSHSIG text.
    pub signature: String,
    /// Pasted into the body: line ends and wrapping may have been changed on
    /// the way, so a failed check should ask for the file instead.
    pub from_body: bool,
}

/// Reads a raw message (as delivered: LF or CRLF line ends).
///
/// Never panics. The size limit is checked before any parsing.
pub fn parse(raw: &[u8], limits: &Limits) -> Result<Inbound, InboundError> {
    if raw.len() > limits.max_bytes {
        return Err(InboundError::TooLarge {
            bytes: raw.len(),
            limit: limits.max_bytes,
        });
    }
    // The parser is third-party code fed with hostile input: a panic in it
    // must cost one message, not the daemon.
    catch_unwind(AssertUnwindSafe(|| read(raw, limits))).unwrap_or(Err(InboundError::Unparseable))
}

fn read(raw: &[u8], limits: &Limits) -> Result<Inbound, InboundError> {
    let msg = MessageParser::default()
        .parse(raw)
        .ok_or(InboundError::Unparseable)?;
    let mut files = Vec::new();
    collect_files(&msg, &mut files, 0);
    if files.len() > limits.max_attachments {
        return Err(InboundError::TooManyAttachments {
            count: files.len(),
            limit: limits.max_attachments,
        });
    }
    let content_sha256 = hex::encode(Sha256::digest(body_of(raw)));
    Ok(Inbound {
        message_id: message_id(&msg, &hex::encode(Sha256::digest(raw))),
        content_sha256,
        from: first_address(msg.from()),
        reply_to: first_address(msg.reply_to()),
        to: recipients(&msg),
        subject: clean_subject(msg.subject().unwrap_or_default()),
        references: id_list(msg.references()),
        auto: auto_kind(&msg),
        files,
        body_text: body_text(&msg),
    })
}

/// Longest subject kept, in characters: replies quote it.
pub const MAX_SUBJECT: usize = 200;

/// The subject as a reply may quote it: control characters (which could
/// smuggle headers into the reply) become spaces, and it is cut short.
fn clean_subject(subject: &str) -> String {
    let flat: String = subject
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(MAX_SUBJECT)
        .collect();
    flat.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The bytes after the first empty line (all of them if there is none).
fn body_of(raw: &[u8]) -> &[u8] {
    let crlf = raw.windows(4).position(|w| w == b"\r\n\r\n").map(|i| i + 4);
    let lf = raw.windows(2).position(|w| w == b"\n\n").map(|i| i + 2);
    match (crlf, lf) {
        (Some(a), Some(b)) => &raw[a.min(b)..],
        (Some(a), None) | (None, Some(a)) => &raw[a..],
        (None, None) => raw,
    }
}

fn message_id(msg: &Message, raw_sha256: &str) -> String {
    msg.message_id()
        .map(str::trim)
        // Only an id a reply can quote in In-Reply-To (compose.rs).
        .filter(|id| id.len() <= MAX_MESSAGE_ID && crate::mail::compose::is_message_id(id))
        .map(str::to_string)
        .unwrap_or_else(|| format!("sha256-{raw_sha256}@galloper.invalid"))
}

fn first_address(a: Option<&mail_parser::Address>) -> Option<Address> {
    let addr = a?.first()?;
    let email = addr.address()?.trim();
    if email.is_empty() {
        return None;
    }
    Some(Address {
        name: addr
            .name()
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map(str::to_string),
        email: email.to_string(),
    })
}

/// Headers naming the envelope recipient, added by the delivering MTA.
const DELIVERY_HEADERS: [&str; 3] = ["Delivered-To", "X-Original-To", "Envelope-To"];

fn recipients(msg: &Message) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |a: &str| {
        let a = a.trim().to_lowercase();
        if a.contains('@') && !out.contains(&a) {
            out.push(a);
        }
    };
    for h in msg.headers() {
        match (&h.name, &h.value) {
            (HeaderName::To | HeaderName::Cc, HeaderValue::Address(list)) => {
                list.iter().filter_map(|a| a.address()).for_each(&mut push);
            }
            (name, value)
                if DELIVERY_HEADERS
                    .iter()
                    .any(|d| d.eq_ignore_ascii_case(name.as_str())) =>
            {
                if let Some(text) = value.as_text() {
                    push(angle_content(text));
                }
            }
            _ => {}
        }
    }
    out
}

/// `Name <a@b>` or `<a@b>` gives `a@b`; anything else is returned trimmed.
fn angle_content(text: &str) -> &str {
    match (text.find('<'), text.rfind('>')) {
        (Some(open), Some(close)) if open < close => &text[open + 1..close],
        _ => text.trim(),
    }
}

fn id_list(v: &HeaderValue) -> Vec<String> {
    match v {
        HeaderValue::Text(id) => vec![id.to_string()],
        HeaderValue::TextList(ids) => ids.iter().map(|id| id.to_string()).collect(),
        _ => Vec::new(),
    }
    .into_iter()
    .filter(|id| crate::mail::compose::is_message_id(id))
    .collect()
}

/// The first header of that name, unfolded and trimmed.
fn header_text(msg: &Message, name: &str) -> Option<String> {
    msg.headers_raw()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.split_whitespace().collect::<Vec<_>>().join(" "))
}

fn auto_kind(msg: &Message) -> Option<AutoKind> {
    if let Some(v) = header_text(msg, "Auto-Submitted") {
        // The keyword alone: parameters follow `;`, comments sit in `(...)`.
        let v = v
            .split(|c: char| c == ';' || c == '(' || c.is_whitespace())
            .next()
            .unwrap_or_default()
            .to_lowercase();
        if !v.is_empty() && v != "no" {
            return Some(AutoKind::AutoSubmitted(v));
        }
    }
    for name in AUTOREPLY_HEADERS {
        if header_text(msg, name).is_some_and(|v| !v.eq_ignore_ascii_case("no")) {
            return Some(AutoKind::AutoReplyHeader(name.to_string()));
        }
    }
    if let Some(v) = header_text(msg, "Precedence") {
        let v = v.to_lowercase();
        if matches!(v.as_str(), "bulk" | "junk" | "list") {
            return Some(AutoKind::Precedence(v));
        }
    }
    let empty_return_path = msg
        .headers_raw()
        .filter(|(n, _)| n.eq_ignore_ascii_case("Return-Path"))
        .any(|(_, v)| {
            let v: String = v.chars().filter(|c| !c.is_whitespace()).collect();
            v == "<>" || v.is_empty()
        });
    if empty_return_path {
        return Some(AutoKind::EmptyReturnPath);
    }
    for list in ["List-Id", "List-Unsubscribe"] {
        if let Some(v) = header_text(msg, list) {
            return Some(AutoKind::MailingList(v));
        }
    }
    let daemon_sender = first_address(msg.from()).is_some_and(|a| {
        let local = a
            .email
            .rsplit_once('@')
            .map_or(a.email.as_str(), |(l, _)| l);
        local.eq_ignore_ascii_case("mailer-daemon") || local.eq_ignore_ascii_case("postmaster")
    });
    let delivery_report = msg.root_part().content_type().is_some_and(|ct| {
        ct.ctype().eq_ignore_ascii_case("multipart")
            && ct
                .subtype()
                .is_some_and(|s| s.eq_ignore_ascii_case("report"))
    });
    (daemon_sender || delivery_report).then_some(AutoKind::MailerDaemon)
}

fn collect_files(msg: &Message, files: &mut Vec<InFile>, depth: usize) {
    for part in msg.attachments() {
        match &part.body {
            PartType::Message(inner) if depth < MAX_NESTING => {
                collect_files(inner, files, depth + 1)
            }
            PartType::Multipart(_) => {}
            _ => {
                let name = sanitise_name(part.attachment_name(), files.len() + 1);
                files.push(InFile {
                    name,
                    bytes: part_bytes(msg, part),
                });
            }
        }
    }
}

/// The part's bytes after its transfer encoding only. mail-parser converts
/// text parts to UTF-8 by their charset, which would change signed bytes,
/// so text parts are decoded again from the raw message.
fn part_bytes(msg: &Message, part: &MessagePart) -> Vec<u8> {
    let bytes = if matches!(part.body, PartType::Text(_) | PartType::Html(_)) {
        let raw = msg
            .raw_message
            .get(part.offset_body as usize..part.offset_end as usize);
        let decoded = raw.and_then(|raw| match part.encoding {
            Encoding::None => Some(raw.to_vec()),
            Encoding::QuotedPrintable => quoted_printable_decode(raw),
            Encoding::Base64 => base64_decode(raw),
        });
        decoded.unwrap_or_else(|| part.contents().to_vec())
    } else {
        part.contents().to_vec()
    };
    // A part not in base64 travels as lines: CRLF on the wire, LF once
    // Postfix stores it in a Maildir. Its original line ends are lost either
    // way, so they are made LF, the convention of orders files, and the same
    // message gives the same bytes however it was stored.
    let sent_as_lines = part.encoding != Encoding::Base64
        && !part
            .content_transfer_encoding()
            .is_some_and(|cte| cte.trim().eq_ignore_ascii_case("binary"));
    if sent_as_lines {
        crlf_to_lf(&bytes)
    } else {
        bytes
    }
}

fn crlf_to_lf(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut iter = bytes.iter().peekable();
    while let Some(&b) = iter.next() {
        if b == b'\r' && iter.peek() == Some(&&b'\n') {
            continue;
        }
        out.push(b);
    }
    out
}

/// Characters that hide or reorder text on screen (bidirectional overrides,
/// zero-width marks): a name must read as what it is.
fn is_invisible(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}')
}

/// A name safe to show and to write to disk: the last path component,
/// without control or invisible characters, leading dots or characters
/// Windows refuses, at most [`MAX_NAME_CHARS`] with its extension kept.
fn sanitise_name(raw: Option<&str>, index: usize) -> String {
    let fallback = || format!("attachment-{index}");
    let Some(raw) = raw else {
        return fallback();
    };
    let cleaned: String = raw
        .chars()
        .filter(|c| !c.is_control() && !is_invisible(*c))
        .collect();
    let last = cleaned.rsplit(['/', '\\']).next().unwrap_or_default();
    let safe: String = last
        .chars()
        .map(|c| match c {
            ':' | '*' | '?' | '"' | '<' | '>' | '|' => '_',
            c => c,
        })
        .collect();
    let safe = safe.trim().trim_start_matches('.').trim();
    if safe.is_empty() {
        return fallback();
    }
    truncate_name(safe)
}

fn truncate_name(name: &str) -> String {
    if name.chars().count() <= MAX_NAME_CHARS {
        return name.to_string();
    }
    // Keep a short extension, so that `.sig` pairs and types survive.
    let ext = name
        .rfind('.')
        .map(|i| &name[i..])
        .filter(|e| e.chars().count() <= 10)
        .unwrap_or_default();
    let keep = MAX_NAME_CHARS - ext.chars().count();
    name.chars().take(keep).collect::<String>() + ext
}

fn body_text(msg: &Message) -> Option<String> {
    let text = msg.body_text(0)?.replace("\r\n", "\n");
    let flowed = msg
        .text_body
        .first()
        .and_then(|&id| msg.parts.get(id as usize))
        .filter(|p| matches!(p.body, PartType::Text(_)))
        .and_then(|p| p.content_type())
        .filter(|ct| {
            ct.attribute("format")
                .is_some_and(|f| f.eq_ignore_ascii_case("flowed"))
        })
        .map(|ct| {
            ct.attribute("delsp")
                .is_some_and(|d| d.eq_ignore_ascii_case("yes"))
        });
    Some(match flowed {
        Some(delsp) => unflow(&text, delsp),
        None => text,
    })
}

/// Undoes RFC 3676 format=flowed: a line ending in a space continues on the
/// next one (at the same quote depth), and one leading space added by the
/// sender ("space-stuffing") is removed. Thunderbird sends plain text this
/// way, and orders pasted into the body only verify once it is undone.
fn unflow(text: &str, delsp: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut open: Option<usize> = None; // quote depth of a line still flowing
    for line in text.split('\n') {
        let depth = line.chars().take_while(|&c| c == '>').count();
        let rest = &line[depth..];
        let rest = rest.strip_prefix(' ').unwrap_or(rest);
        let soft = rest.ends_with(' ') && rest != "-- ";
        let content = if soft && delsp {
            &rest[..rest.len() - 1]
        } else {
            rest
        };
        match open {
            Some(d) if d == depth => {}
            Some(_) => {
                out.push('\n');
                push_quoted(&mut out, depth);
            }
            None => push_quoted(&mut out, depth),
        }
        out.push_str(content);
        if soft {
            open = Some(depth);
        } else {
            out.push('\n');
            open = None;
        }
    }
    // Every hard line added a '\n'; the last piece of the split (empty when
    // the text ends with one) has no line end of its own.
    if open.is_none() {
        out.pop();
    }
    out
}

fn push_quoted(out: &mut String, depth: usize) {
    if depth > 0 {
        out.extend(std::iter::repeat_n('>', depth));
        out.push(' ');
    }
}

/// Orders with their signatures, by the first rule that finds any:
/// 1. every attachment `X` with an attachment `X.sig` or `X.asc` beside it;
/// 2. a `.yaml`, `.yml` or `.txt` attachment with exactly one attachment
///    holding an armored SSH signature (if several such files, the one that
///    looks like orders);
/// 3. orders pasted into the body: from the `galloper: N` line up to the
///    armored signature that follows, which is taken too.
pub fn submissions(inb: &Inbound) -> Vec<Submission> {
    let paired = paired_files(&inb.files);
    if !paired.is_empty() {
        return paired;
    }
    if let Some(s) = lone_signature(&inb.files) {
        return vec![s];
    }
    inb.body_text
        .as_deref()
        .and_then(body_submission)
        .into_iter()
        .collect()
}

/// Orders files nobody signed: attachments that look like orders (a
/// `galloper: N` line first) and are in no submission, and [`BODY_NAME`] when
/// orders were pasted into the body without a signature and nothing else was
/// submitted. The daemon answers these with the "unsigned" reply.
pub fn unsigned_orders(inb: &Inbound) -> Vec<String> {
    let subs = submissions(inb);
    let mut out: Vec<String> = inb
        .files
        .iter()
        .filter(|f| looks_like_orders(&f.bytes) && !is_armored(&f.bytes))
        .filter(|f| !subs.iter().any(|s| !s.from_body && s.file_name == f.name))
        .map(|f| f.name.clone())
        .collect();
    let body_orders = inb
        .body_text
        .as_deref()
        .is_some_and(|t| t.lines().any(is_galloper_line));
    if subs.is_empty() && body_orders {
        out.push(BODY_NAME.to_string());
    }
    out
}

/// `X.sig` or `X.asc` gives `X`.
fn signature_stem(name: &str) -> Option<&str> {
    let cut = name.len().checked_sub(4)?;
    let ext = name.get(cut..)?;
    (ext.eq_ignore_ascii_case(".sig") || ext.eq_ignore_ascii_case(".asc")).then(|| &name[..cut])
}

fn paired_files(files: &[InFile]) -> Vec<Submission> {
    files
        .iter()
        .filter(|f| signature_stem(&f.name).is_none())
        .filter_map(|f| {
            let stem_is = |s: &InFile, exact: bool| {
                signature_stem(&s.name).is_some_and(|stem| {
                    if exact {
                        stem == f.name
                    } else {
                        stem.eq_ignore_ascii_case(&f.name)
                    }
                })
            };
            let sig = files
                .iter()
                .find(|s| stem_is(s, true))
                .or_else(|| files.iter().find(|s| stem_is(s, false)))?;
            Some(Submission {
                file_name: f.name.clone(),
                orders: f.bytes.clone(),
                signature: String::from_utf8_lossy(&sig.bytes).into_owned(),
                from_body: false,
            })
        })
        .collect()
}

fn lone_signature(files: &[InFile]) -> Option<Submission> {
    let sigs: Vec<&InFile> = files.iter().filter(|f| is_armored(&f.bytes)).collect();
    let [sig] = sigs.as_slice() else {
        return None;
    };
    let candidates: Vec<&InFile> = files
        .iter()
        .filter(|f| !is_armored(&f.bytes) && has_orders_extension(&f.name))
        .collect();
    let looking: Vec<&&InFile> = candidates
        .iter()
        .filter(|f| looks_like_orders(&f.bytes))
        .collect();
    let orders = match (looking.as_slice(), candidates.as_slice()) {
        ([one], _) => **one,
        (_, [one]) => *one,
        _ => return None,
    };
    Some(Submission {
        file_name: orders.name.clone(),
        orders: orders.bytes.clone(),
        signature: String::from_utf8_lossy(&sig.bytes).into_owned(),
        from_body: false,
    })
}

fn has_orders_extension(name: &str) -> bool {
    let lower = name.to_lowercase();
    [".yaml", ".yml", ".txt"]
        .iter()
        .any(|ext| lower.ends_with(ext))
}

/// Whether the file is (or holds) an armored OpenSSH signature.
fn is_armored(bytes: &[u8]) -> bool {
    bytes
        .windows(SSH_BEGIN.len())
        .any(|w| w == SSH_BEGIN.as_bytes())
}

/// A `galloper: N` line, the first line of every orders file.
fn is_galloper_line(line: &str) -> bool {
    let line = line.trim_start_matches('\u{FEFF}').trim_end();
    let Some(rest) = line.strip_prefix("galloper:") else {
        return false;
    };
    let value = rest.split('#').next().unwrap_or_default().trim();
    !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit())
}

/// Whether a file starts like an orders file: its first line that is not
/// blank, a comment or a YAML document marker is `galloper: N`.
pub fn looks_like_orders(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(SNIFF_BYTES)];
    let text = match std::str::from_utf8(head) {
        Ok(t) => t,
        // A multi-byte character cut by the sniff window is fine; other bad bytes are not.
        Err(e) if e.error_len().is_none() => {
            std::str::from_utf8(&head[..e.valid_up_to()]).unwrap_or_default()
        }
        Err(_) => return false,
    };
    text.lines()
        .map(|l| l.trim_start_matches('\u{FEFF}').trim())
        .find(|l| !l.is_empty() && !l.starts_with('#') && *l != "---")
        .is_some_and(is_galloper_line)
}

fn body_submission(text: &str) -> Option<Submission> {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.iter().position(|l| is_galloper_line(l))?;
    let begin = start + lines[start..].iter().position(|l| l.trim() == SSH_BEGIN)?;
    let end = begin + lines[begin..].iter().position(|l| l.trim() == SSH_END)?;
    let mut orders_lines = &lines[start..begin];
    while let [rest @ .., last] = orders_lines
        && last.trim().is_empty()
    {
        orders_lines = rest;
    }
    let mut orders = orders_lines.join("\n");
    orders.push('\n');
    let mut signature = lines[begin..=end]
        .iter()
        .map(|l| l.trim())
        .collect::<Vec<_>>()
        .join("\n");
    signature.push('\n');
    Some(Submission {
        file_name: BODY_NAME.to_string(),
        orders: orders.into_bytes(),
        signature,
        from_body: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unflow_joins_soft_breaks_and_unstuffs() {
        let flowed = "a long \nline\n  indented\n> quoted \n> more\n-- \nsig\n";
        assert_eq!(
            unflow(flowed, false),
            "a long line\n indented\n> quoted more\n-- \nsig\n"
        );
        assert_eq!(unflow("ab \ncd", true), "abcd");
        assert_eq!(unflow("soft at end ", false), "soft at end ");
    }

    #[test]
    fn names_lose_paths_controls_and_leading_dots() {
        assert_eq!(sanitise_name(Some("../../etc/passwd"), 1), "passwd");
        assert_eq!(sanitise_name(Some("C:\\x\\orders.yaml"), 1), "orders.yaml");
        assert_eq!(sanitise_name(Some("..\u{7}.bashrc"), 1), "bashrc");
        assert_eq!(sanitise_name(Some("a\u{202E}b?.txt"), 1), "ab_.txt");
        assert_eq!(sanitise_name(Some(" .. "), 3), "attachment-3");
        assert_eq!(sanitise_name(None, 2), "attachment-2");
    }

    #[test]
    fn orders_are_recognised_by_their_first_line() {
        assert!(looks_like_orders(
            b"\xef\xbb\xbf# mine\n---\ngalloper: 1\ngame: g\n"
        ));
        assert!(!looks_like_orders(b"game: g\ngalloper: 1\n"));
        assert!(!looks_like_orders(b"galloper: soon\n"));
        assert!(!looks_like_orders(b"PK\x03\x04galloper: 1\n"));
    }
}
