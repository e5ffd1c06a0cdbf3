//! The worst hostile message: crafted messages up to the club's size limit,
//! each through the daemon's intake (parse, route, checks, the recorded
//! outcome and its reply) into a real store, timed in CPU time of the
//! thread. The goal: any message a stranger can send is handled in under
//! 100 ms of CPU, so that one sender cannot hold up every game.

use super::mailgen;
use super::play::{self, CLUB};
use super::scratch::Scratch;
use super::stats::thread_cpu;
use crate::daemon::intake;
use crate::envelope;
use crate::ruleset::DemoPlayer;
use anyhow::{Context, anyhow, bail};
use std::time::{Duration, Instant};

/// CPU time a message may cost the intake.
pub const GOAL: Duration = Duration::from_millis(100);

/// The costliest message of the set.
pub struct Worst {
    pub name: String,
    pub cpu: Duration,
    pub bytes: usize,
    /// Messages in the set, and the largest one's size.
    pub messages: usize,
    pub largest: usize,
}

const SIG: &str = "-----BEGIN SSH SIGNATURE-----\nU1NIU0lHAAAAAQAAADMAAAALc3NoLWVkMjU1MTkAAAAgAAAA\n-----END SSH SIGNATURE-----\n";

/// `unit` repeated to `bytes`, after `head`.
fn fill(head: &str, unit: &str, bytes: usize) -> Vec<u8> {
    let mut out = head.as_bytes().to_vec();
    while out.len() + unit.len() <= bytes {
        out.extend_from_slice(unit.as_bytes());
    }
    out
}

/// Bytes of an attachment that fit, base64 encoded, in a message of `limit`
/// with `parts` such attachments; never above what an orders file may be.
fn room(limit: usize, parts: usize) -> usize {
    // Base64 is 4/3, plus a line break every 76 characters, plus headers.
    let each = (limit.saturating_sub(4096) / parts.max(1)) * 3 / 4 * 76 / 78;
    each.min(envelope::MAX_BYTES)
}

fn mail_with(case: &str, parts: &[(String, Vec<u8>)], body: &str) -> Vec<u8> {
    let mut m = format!(
        "From: Stranger <stranger@hostile.test>\r\nTo: {CLUB}\r\nSubject: orders\r\nMessage-ID: <{case}@hostile.test>\r\n\
Date: Sun, 22 Nov 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\n\
Content-Type: multipart/mixed; boundary=\"hostile\"\r\n\r\n--hostile\r\nContent-Type: text/plain\r\n\r\n{body}\r\n"
    );
    for (name, bytes) in parts {
        m.push_str(&format!(
            "--hostile\r\nContent-Type: application/octet-stream; name=\"{name}\"\r\n\
Content-Disposition: attachment; filename=\"{name}\"\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n",
            mailgen::base64(bytes)
        ));
    }
    m.push_str("--hostile--\r\n");
    m.into_bytes()
}

fn orders_head(game: &str) -> String {
    format!(
        "galloper: 1\ngame: {game}\nstep: 1\nside: french\nentropy: {}\norders:\n",
        crate::archive::sha256_hex(b"cd")
    )
}

/// The crafted set, each message at most `limit` bytes.
pub fn messages(game: &str, limit: usize) -> Vec<(String, Vec<u8>)> {
    let head = orders_head(game);
    let one = room(limit, 2);
    let attached = |case: &str, orders: Vec<u8>| {
        mail_with(
            case,
            &[
                ("orders.yaml".into(), orders),
                ("orders.yaml.sig".into(), SIG.as_bytes().to_vec()),
            ],
            "My orders.",
        )
    };
    let mut out = vec![
        (
            format!("an attachment of `[` x {one}"),
            attached("flow", fill("", "[", one)),
        ),
        (
            format!("an orders file of {one} bytes nesting `[` after its envelope"),
            attached("flow-orders", fill(&head, "[", one)),
        ),
        (
            "closing brackets hidden in strings: `[ \"]\", ` repeated".into(),
            attached("strings", fill(&head, "[ \"]\", ", one)),
        ),
        (
            "block nesting: each line one space deeper".into(),
            attached("block", {
                let mut t = head.clone().into_bytes();
                let mut d = 2;
                while t.len() + d + 3 < one {
                    t.extend_from_slice(" ".repeat(d).as_bytes());
                    t.extend_from_slice(b"k:\n");
                    d += 1;
                }
                t
            }),
        ),
        (
            "a YAML alias bomb (9^9 strings once expanded)".into(),
            attached("aliases", {
                let mut t = head.clone();
                t.push_str("  - &a0 [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
                for i in 1..10 {
                    let refs = vec![format!("*a{}", i - 1); 9].join(",");
                    t.push_str(&format!("  - &a{i} [{refs}]\n"));
                }
                t.into_bytes()
            }),
        ),
        (
            format!("a flat orders file of {one} bytes with a forged signature"),
            attached(
                "flat",
                fill(
                    &format!("{head}  units:\n"),
                    "    - {unit: a1, at: {x: 1.5, y: 2.5}, facing: 90}\n",
                    one,
                ),
            ),
        ),
        (
            "a command file nesting `[`".into(),
            mail_with(
                "command",
                &[
                    (
                        "command.yaml".into(),
                        fill(
                            &format!("galloper: 1\ngame: {game}\ncommand:\n"),
                            "[",
                            crate::server::command::MAX_BYTES,
                        ),
                    ),
                    ("command.yaml.sig".into(), SIG.as_bytes().to_vec()),
                ],
                "A command.",
            ),
        ),
    ];
    // Orders pasted in the body: a text part, no base64.
    let pasted = {
        let room = limit.saturating_sub(4096).min(envelope::MAX_BYTES);
        let mut body = String::from_utf8_lossy(&fill(&head, "[", room)).into_owned();
        body.push('\n');
        body.push_str(SIG);
        mail_with("pasted", &[], &body)
    };
    out.push(("orders pasted in the body, nesting `[`".into(), pasted));
    // Three orders files with signatures, as large as the limit allows.
    let third = room(limit, 3);
    let mut parts = Vec::new();
    for i in 0..3 {
        parts.push((format!("o{i}.yaml"), fill(&head, "[", third)));
        parts.push((format!("o{i}.yaml.sig"), SIG.as_bytes().to_vec()));
    }
    out.push((
        "three nesting orders files with signatures".into(),
        mail_with("three", &parts, "Orders."),
    ));
    // MIME parts nested inside each other.
    let mut nested = String::new();
    let depth = 2000;
    for i in 0..depth {
        nested.push_str(&format!(
            "--b{i}\r\nContent-Type: multipart/mixed; boundary=\"b{}\"\r\n\r\n",
            i + 1
        ));
    }
    nested.push_str(&format!(
        "--b{depth}\r\nContent-Type: text/plain\r\n\r\nhi\r\n"
    ));
    out.push((
        format!("multipart nested {depth} deep"),
        format!(
            "From: Stranger <stranger@hostile.test>\r\nTo: {CLUB}\r\nSubject: x\r\nMessage-ID: <mime@hostile.test>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b0\"\r\n\r\n{nested}"
        )
        .into_bytes(),
    ));
    out.retain(|(_, m)| m.len() <= limit);
    out
}

/// Run every crafted message through the intake of a fresh club and
/// return the costliest. Fails if any is accepted or stops the intake.
pub fn measure(author: &mut dyn DemoPlayer) -> anyhow::Result<Worst> {
    let (mut p, _) = play::open_game(Scratch::new("hostile")?, author.scenario(), author.game())?;
    let limit = p.cfg.max_message_bytes;
    let set = messages(&p.game, limit);
    if set.is_empty() {
        bail!("no hostile message fits in {limit} bytes");
    }
    let mut worst: Option<Worst> = None;
    let largest = set.iter().map(|(_, m)| m.len()).max().unwrap_or(0);
    let messages = set.len();
    for (name, raw) in set {
        let wall = Instant::now();
        let before = thread_cpu();
        let handled = intake::handle(
            &mut p.server,
            &p.cfg,
            &raw,
            1_795_000_000,
            "Sun, 22 Nov 2026 10:00:00 +0000",
        )
        .with_context(|| format!("the intake failed on {name}"))?;
        // Where the system gives no CPU time, the wall clock bounds it.
        let cpu = match (before, thread_cpu()) {
            (Some(a), Some(b)) => b.saturating_sub(a),
            _ => wall.elapsed(),
        };
        if handled.outcome == "accepted" {
            return Err(anyhow!("the hostile message {name} was accepted"));
        }
        if worst.as_ref().is_none_or(|w| cpu > w.cpu) {
            worst = Some(Worst {
                name,
                cpu,
                bytes: raw.len(),
                messages,
                largest,
            });
        }
    }
    worst.context("no hostile message was measured")
}
