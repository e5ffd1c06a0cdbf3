//! Issue 31 item 10: how heavy a report mail is. A report mail carries the
//! report (text and HTML), its map (PNG), the orders template and (issue
//! 32) the orders page, and nothing else: the step's archive files are on
//! the club site or come by the `archive` request. Measured on the mails a
//! played game queued; the 150 KB goal is the report's, the orders page
//! (a whole program with its own map) is measured apart.

use super::play::Played;
use super::report::Report;
use crate::server::store::Store;
use mail_parser::{MessageParser, MimeHeaders};

/// The goal for one report mail, in bytes (150 KB).
pub const GOAL_BYTES: usize = 150_000;

/// The largest report mail of a game, and what it carries.
#[derive(Clone, Debug)]
pub struct Largest {
    pub bytes: usize,
    /// Of which the orders page, as encoded in the mail.
    pub page_bytes: usize,
    pub step: u32,
    pub reader: String,
    /// How many report mails were looked at.
    pub mails: usize,
    /// Its parts besides the multipart containers, by MIME type and file
    /// name: `text/plain`, `text/html`, `image/png map.png`, `application/yaml
    /// GAME-step-N-SIDE.yaml`.
    pub parts: Vec<String>,
}

/// The parts of a mail, each as its MIME type and file name (when it has
/// one), multipart containers left out.
pub fn parts(bytes: &[u8]) -> Vec<String> {
    let Some(m) = MessageParser::default().parse(bytes) else {
        return Vec::new();
    };
    m.parts
        .iter()
        .filter_map(|p| {
            let ct = p.content_type()?;
            if ct.c_type.eq_ignore_ascii_case("multipart") {
                return None;
            }
            let mime = format!(
                "{}/{}",
                ct.c_type,
                ct.c_subtype.as_deref().unwrap_or_default()
            );
            Some(match p.attachment_name() {
                Some(name) => format!("{mime} {name}"),
                None => mime,
            })
        })
        .collect()
}

/// How many bytes the orders page takes in a mail: its base64, in lines
/// of 76 characters and a line break each.
pub fn page_bytes(bytes: &[u8]) -> usize {
    let Some(m) = MessageParser::default().parse(bytes) else {
        return 0;
    };
    m.parts
        .iter()
        .filter(|p| {
            p.attachment_name()
                .is_some_and(|n| n.ends_with("-orders.html"))
        })
        .map(|p| {
            let b64 = p.contents().len().div_ceil(3) * 4;
            b64 + b64.div_ceil(76) * 2
        })
        .sum()
}

/// The largest report mail `game` queued, if any, leaving its orders page
/// out of the measure.
pub fn largest_report(store: &Store, game: &str) -> anyhow::Result<Option<Largest>> {
    let reports: Vec<_> = store
        .mails()?
        .into_iter()
        .filter(|m| m.kind == "report" && m.game.as_deref() == Some(game))
        .collect();
    let count = reports.len();
    Ok(reports
        .into_iter()
        .max_by_key(|m| m.bytes.len() - page_bytes(&m.bytes).min(m.bytes.len()))
        .map(|m| Largest {
            page_bytes: page_bytes(&m.bytes),
            bytes: m.bytes.len() - page_bytes(&m.bytes).min(m.bytes.len()),
            step: m.step.unwrap_or(0),
            reader: m.reader.clone().unwrap_or_default(),
            mails: count,
            parts: parts(&m.bytes),
        }))
}

/// The benchmark's row for a played game of `units` a side.
pub fn row(p: &Played, ruleset: &str, units: usize, r: &mut Report) -> anyhow::Result<()> {
    let Some(l) = largest_report(p.server.store(), &p.game)? else {
        anyhow::bail!("the {ruleset} game of {units} a side queued no report mail");
    };
    r.add(
        "targets",
        format!("report mail, {units} units a side ({ruleset})"),
        format!("{:.1} KB", l.bytes as f64 / 1000.0),
        format!(
            "largest of {} report mails (step {}, {}), without its orders page ({:.0} KB more): {} parts (report text and HTML, map, orders template, orders page); goal < 150 KB: {}",
            l.mails,
            l.step,
            l.reader,
            l.page_bytes as f64 / 1000.0,
            l.parts.len(),
            super::yes(l.bytes < GOAL_BYTES)
        ),
    );
    Ok(())
}
