//! The kill test against real servers: players' signed orders arrive by SMTP
//! through the lab's Postfix into the club's Maildir (some before the daemon
//! starts, the rest while it runs), and `galloper serve` is killed with
//! SIGKILL at random moments and started again, again and again. At the end
//! every valid order is accepted exactly once, every acknowledgement and
//! report is in the players' Maildirs, nothing is lost, nothing is doubled
//! under a new Message-ID, and every game's archive audits.

#[path = "support/base64.rs"]
mod base64;
#[path = "support/maillab.rs"]
mod maillab;

use base64::b64;
use galloper::mail::maildir::Maildir;
use galloper::server::PlayerSpec;
use galloper::side::SideId;
use galloper::sig;
use mail_parser::{HeaderValue, MessageParser};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Games; each gets four messages: both players' signed deployment orders,
/// a forged copy (the French orders signed with the Austrian key, sent by
/// the game master's address) and a status request.
const GAMES: usize = 50;
/// Messages per game, and how many of them carry valid orders.
const PER_GAME: usize = 4;
/// Games whose mail is in the club's Maildir before the first start; the
/// others' mail comes by SMTP while the daemon is being killed.
const EARLY_GAMES: usize = 12;
/// SIGKILLs at least, and at most before the daemon is let finish.
const KILLS: usize = 24;
const MAX_KILLS: usize = 80;
/// The kill moments come from this seed.
const SEED: u64 = 0x6a11_0937;
const PLAYERS: [(&str, &str); 2] = [("alice", "french"), ("bob", "austrians")];

/// splitmix64: a small seeded generator, so that a failing run can be replayed.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn between(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next() % (hi - lo + 1)
    }
}

/// One mail to be sent: envelope sender, recipient, its Message-ID, bytes.
struct Outgoing {
    from: String,
    to: String,
    id: String,
    raw: Vec<u8>,
}

fn orders_mail(from: &str, to: &str, id: &str, orders: &str, signature: &str) -> Vec<u8> {
    format!(
        "From: <{from}>\r\nTo: {to}\r\nSubject: orders\r\nMessage-ID: <{id}>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"B\"\r\n\r\n--B\r\nContent-Type: text/plain\r\n\r\norders\r\n--B\r\nContent-Type: application/yaml\r\nContent-Disposition: attachment; filename=\"o.yaml\"\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n--B\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename=\"o.yaml.sig\"\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n--B--\r\n",
        b64(orders.as_bytes()),
        b64(signature.as_bytes())
    )
    .into_bytes()
}

fn serve(exe: &str, config: &Path, log: &Path) -> Child {
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
        .unwrap();
    Command::new(exe)
        .arg("serve")
        .arg("--config")
        .arg(config)
        // The serve module's info lines tell when the daemon is up.
        .env("RUST_LOG", "warn,galloper::daemon::serve=info")
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .expect("serve starts")
}

/// How many times the daemon has said it is serving.
fn times_up(log: &Path) -> usize {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    text.lines().filter(|l| l.contains("serving")).count()
}

/// The last lines the daemon wrote, for a failure message.
fn log_tail(log: &Path) -> String {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let _ = std::fs::write(std::env::temp_dir().join("mail_crash-serve.log"), &text);
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(30)..].join("\n")
}

/// The store, read-only, as the test sees it between runs.
fn store(data: &Path) -> rusqlite::Connection {
    rusqlite::Connection::open_with_flags(
        data.join("galloper.db"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .unwrap()
}

fn count(db: &rusqlite::Connection, sql: &str) -> i64 {
    db.query_row(sql, [], |r| r.get(0)).unwrap()
}

/// Where the work stands between two runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Progress {
    /// Messages waiting in the club's Maildir.
    pending: usize,
    /// Messages recorded, steps resolved, mails sent (each only grows).
    handled: i64,
    resolved: i64,
    sent: i64,
    /// Mails waiting in the outbox.
    queued: i64,
}

impl Progress {
    fn read(maildir: &Path, data: &Path) -> Progress {
        let pending = Maildir::open(maildir).unwrap().pending().unwrap().len();
        let db = store(data);
        Progress {
            pending,
            handled: count(&db, "SELECT COUNT(*) FROM inbox"),
            resolved: count(
                &db,
                "SELECT COUNT(*) FROM steps WHERE step = 1 AND state_after IS NOT NULL",
            ),
            sent: count(&db, "SELECT COUNT(*) FROM outbox WHERE status = 'sent'"),
            queued: count(&db, "SELECT COUNT(*) FROM outbox WHERE status = 'queued'"),
        }
    }

    fn finished(&self) -> bool {
        self.pending == 0 && self.resolved == GAMES as i64 && self.queued == 0
    }

    fn short(&self) -> String {
        format!("{}/{}/{}", self.handled, self.resolved, self.sent)
    }
}

/// A delivered mail without the trace headers Postfix puts in front.
fn without_trace(raw: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(raw);
    let mut lines = text.split_inclusive('\n').peekable();
    let mut in_trace = false;
    while let Some(l) = lines.peek() {
        let trace = [
            "Return-Path:",
            "X-Original-To:",
            "Delivered-To:",
            "Received:",
        ]
        .iter()
        .any(|h| l.starts_with(h));
        let continued = in_trace && (l.starts_with(' ') || l.starts_with('\t'));
        if trace || continued {
            in_trace = true;
            lines.next();
        } else {
            break;
        }
    }
    lines.collect::<String>().into_bytes()
}

fn ids(h: &HeaderValue) -> Vec<String> {
    match h {
        HeaderValue::Text(t) => vec![t.to_string()],
        HeaderValue::TextList(l) => l.iter().map(|t| t.to_string()).collect(),
        _ => Vec::new(),
    }
}

#[test]
fn serve_killed_at_random_moments_loses_and_doubles_nothing_through_postfix() {
    let t_start = Instant::now();
    let lab = maillab::lab();
    let _turn = maillab::exclusive();
    lab.clear();
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let data = d.join("data");
    let config = d.join("galloper.yaml");
    let log = d.join("serve.log");
    let club_md = lab.maildir("club");
    std::fs::write(
        &config,
        format!(
            "data: {}\nclub_address: {}\nmaildir: {}\npoll_seconds: 1\nreplies_per_hour: 100000\nsmtp: {{host: 127.0.0.1, port: {}, security: plain, timeout_seconds: 10}}\n",
            data.display(),
            lab.address("club"),
            club_md.display(),
            lab.smtp_port
        ),
    )
    .unwrap();
    let keys: Vec<sig::KeyPair> = PLAYERS
        .iter()
        .map(|(_, side)| sig::keygen(side).unwrap())
        .collect();
    let games: Vec<String> = (0..GAMES).map(|n| format!("kill-{n:03}")).collect();
    let mut mails = Vec::new();
    {
        let mut server = galloper::server::Server::open(&data).unwrap();
        let players: Vec<PlayerSpec> = PLAYERS
            .iter()
            .zip(&keys)
            .map(|((user, side), k)| PlayerSpec {
                side: SideId::new(*side),
                email: lab.address(user),
                public_key: k.public_line.clone(),
            })
            .collect();
        for g in &games {
            server
                .new_game(g, galloper::demo::SCENARIO, &players)
                .unwrap();
            // The briefing is taken as sent: this test counts the mail
            // that orders cause (tests/mail_reports.rs sends briefings).
            server.store_mut().queue_briefings(g, &[]).unwrap();
            let to = format!("club+{g}@{}", lab.domain);
            let mut game_mails = Vec::new();
            for ((user, side), key) in PLAYERS.iter().zip(&keys) {
                let t = galloper::cli::template(&server, g, &SideId::new(*side)).unwrap();
                let t = galloper::envelope::with_entropy(
                    &t,
                    &galloper::archive::sha256_hex(format!("{g} {user}").as_bytes()),
                );
                let s =
                    sig::sign(&key.private_openssh, sig::ORDERS_NAMESPACE, t.as_bytes()).unwrap();
                let from = lab.address(user);
                let id = format!("{g}-{user}@{}", lab.domain);
                let raw = orders_mail(&from, &to, &id, &t, &s);
                game_mails.push(Outgoing {
                    from,
                    to: to.clone(),
                    id,
                    raw,
                });
            }
            // The French orders signed with the Austrian key: refused.
            let t = galloper::envelope::with_entropy(
                &galloper::cli::template(&server, g, &SideId::new("french")).unwrap(),
                &galloper::archive::sha256_hex(format!("{g} forged").as_bytes()),
            );
            let s = sig::sign(
                &keys[1].private_openssh,
                sig::ORDERS_NAMESPACE,
                t.as_bytes(),
            )
            .unwrap();
            let from = lab.address("gm");
            let id = format!("{g}-forged@{}", lab.domain);
            let raw = orders_mail(&from, &to, &id, &t, &s);
            game_mails.insert(
                1,
                Outgoing {
                    from,
                    to: to.clone(),
                    id,
                    raw,
                },
            );
            // A status request: answered, no orders.
            let from = lab.address("alice");
            let id = format!("{g}-status@{}", lab.domain);
            let raw = format!("From: <{from}>\r\nTo: {to}\r\nSubject: status\r\nMessage-ID: <{id}>\r\n\r\nplease\r\n").into_bytes();
            game_mails.insert(
                2,
                Outgoing {
                    from,
                    to: to.clone(),
                    id,
                    raw,
                },
            );
            assert_eq!(game_mails.len(), PER_GAME);
            mails.push(game_mails);
        }
    }
    let messages = mails.len() * PER_GAME;
    let sent_ids: Vec<String> = mails.iter().flatten().map(|m| m.id.clone()).collect();
    let t_setup = t_start.elapsed();
    let later = mails.split_off(EARLY_GAMES);
    for m in mails.iter().flatten() {
        lab.send(&m.from, &m.to, &m.raw);
    }
    lab.wait_for(
        "club",
        EARLY_GAMES * PER_GAME,
        Duration::from_secs(60),
        |_| true,
    );
    // The rest, a game at a time, while the daemon is killed and restarted.
    let sender = {
        let lab_ref: &'static maillab::Lab = lab;
        std::thread::spawn(move || {
            for game in &later {
                for m in game {
                    lab_ref.send(&m.from, &m.to, &m.raw);
                }
                std::thread::sleep(Duration::from_millis(900));
            }
        })
    };
    let t_sent = t_start.elapsed();

    let exe = env!("CARGO_BIN_EXE_galloper");
    let mut rng = Rng(SEED);
    let mut kills = 0;
    let mut mid_work = 0;
    let mut in_sending = 0;
    let mut trail = Vec::new();
    loop {
        let now = Progress::read(&club_md, &data);
        let done = sender.is_finished() && now.finished();
        if kills >= KILLS && (done || kills >= MAX_KILLS) {
            break;
        }
        let before = Progress::read(&club_md, &data);
        let mut child = serve(exe, &config, &log);
        // From before the first batch starts to well into one.
        let delay = rng.between(40, 2000);
        std::thread::sleep(Duration::from_millis(delay));
        assert!(
            child.try_wait().unwrap().is_none(),
            "serve stopped on its own; the log ends:\n{}",
            log_tail(&log)
        );
        child.kill().unwrap();
        child.wait().unwrap();
        kills += 1;
        let after = Progress::read(&club_md, &data);
        // Inside the work: it had moved on, and was not finished.
        let moved = (after.handled, after.resolved, after.sent)
            != (before.handled, before.resolved, before.sent);
        if moved && !after.finished() {
            mid_work += 1;
        }
        if after.sent > before.sent && after.queued > 0 {
            in_sending += 1;
        }
        trail.push(format!("{delay}ms:{}", after.short()));
    }
    sender.join().unwrap();
    let t_kills = t_start.elapsed();

    // Let it finish: every message done, every step resolved, every mail sent.
    let up_before = times_up(&log);
    let mut child = serve(exe, &config, &log);
    let t0 = Instant::now();
    loop {
        let arrived = lab.messages("club").len();
        let p = Progress::read(&club_md, &data);
        if arrived == messages && p.finished() {
            break;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(180),
            "not finished: {p:?}; the log ends:\n{}",
            log_tail(&log)
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    // A SIGTERM before the daemon has set its handler would kill it
    // outright: wait until it says it is serving.
    while times_up(&log) == up_before {
        assert!(
            t0.elapsed() < Duration::from_secs(180),
            "serve never came up; the log ends:\n{}",
            log_tail(&log)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let st = Command::new("kill")
        .arg("-TERM")
        .arg(child.id().to_string())
        .status()
        .unwrap();
    assert!(st.success());
    let status = child.wait().unwrap();
    assert!(
        status.success(),
        "a clean stop at the end, not {status}; the log ends:\n{}",
        log_tail(&log)
    );
    let t_done = t_start.elapsed();

    // Orders: exactly one row per (game, step 1, side), for the 200 mails sent.
    let db = store(&data);
    let mut per: BTreeMap<(String, i64, String), i64> = BTreeMap::new();
    {
        let mut q = db
            .prepare("SELECT game, step, side, COUNT(*) FROM orders GROUP BY game, step, side")
            .unwrap();
        let rows = q
            .query_map([], |r| {
                Ok(((r.get(0)?, r.get(1)?, r.get(2)?), r.get::<_, i64>(3)?))
            })
            .unwrap();
        for row in rows {
            let (k, n) = row.unwrap();
            per.insert(k, n);
        }
    }
    let accepted: i64 = per.values().sum();
    for g in &games {
        for (_, side) in PLAYERS {
            assert_eq!(
                per.get(&(g.clone(), 1, side.to_string())),
                Some(&1),
                "{g} {side}: accepted exactly once"
            );
        }
    }
    assert_eq!(
        per.len(),
        GAMES * PLAYERS.len(),
        "no orders for anything else"
    );
    let inbox = count(&db, "SELECT COUNT(*) FROM inbox");
    assert_eq!(inbox, messages as i64, "each message recorded once");
    drop(db);

    // Mail: settle, then read the players' Maildirs.
    std::thread::sleep(Duration::from_secs(1));
    let parser = MessageParser::default();
    // Message-ID -> copies (trace headers removed); In-Reply-To -> Message-IDs;
    // (game, side) report -> Message-IDs.
    let mut copies: BTreeMap<String, Vec<Vec<u8>>> = BTreeMap::new();
    let mut acks: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut reports: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for user in ["alice", "bob", "gm"] {
        for (_, raw) in lab.messages(user) {
            let m = parser.parse(&raw).expect("a mail parses");
            let id = m.message_id().unwrap_or_default().to_string();
            let subject = m.subject().unwrap_or_default().to_string();
            if subject.contains("report for") {
                reports
                    .entry(format!(
                        "{user} {}",
                        subject.split(']').next().unwrap_or("")
                    ))
                    .or_default()
                    .insert(id.clone());
            } else {
                for parent in ids(m.in_reply_to()) {
                    acks.entry(parent).or_default().insert(id.clone());
                }
            }
            copies.entry(id).or_default().push(without_trace(&raw));
        }
    }
    let mut lost = 0;
    let mut delivered = 0;
    for g in &games {
        for (_, side) in PLAYERS {
            let id = format!("galloper.{g}.1.{side}.report@{}", lab.domain);
            if copies.contains_key(&id) {
                delivered += 1;
            } else {
                lost += 1;
            }
        }
    }
    let acked = sent_ids.iter().filter(|i| acks.contains_key(*i)).count();
    lost += messages - acked;
    let new_id_duplicates: usize = acks
        .values()
        .chain(reports.values())
        .map(|s| s.len() - 1)
        .sum();
    let resends: usize = copies.values().map(|c| c.len() - 1).sum();
    for (id, c) in &copies {
        assert!(
            c.iter().all(|b| b == &c[0]),
            "{id}: a resend is the same bytes"
        );
    }

    // Every game's archive audits, by the binary, with its one resolved step.
    let mut audited = 0;
    let mut audit_failures = Vec::new();
    for g in &games {
        let out = Command::new(exe)
            .arg("audit")
            .arg(data.join("archive").join(g))
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        // A game in progress passes so far: exit status 3.
        if out.status.code() == Some(3)
            && text
                .contains("AUDIT PASSED SO FAR: a game in progress, not over: 1 step(s) resolved")
        {
            audited += 1;
        } else {
            audit_failures.push(format!(
                "{g}: {}{}",
                text.trim(),
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
    }
    let t_end = t_start.elapsed();

    // The figures go to the test's output and to a file that scripts/test
    // prints, since the test harness keeps a passing test's output to itself.
    let mut figures = String::new();
    macro_rules! say {
        ($($arg:tt)*) => {{
            let line = format!($($arg)*);
            println!("{line}");
            figures.push_str(&line);
            figures.push('\n');
        }};
    }
    say!(
        "kill moments (delay:handled/resolved/sent after): {}",
        trail.join(" ")
    );
    say!(
        "kills: {kills} (seed {SEED:#x}; {mid_work} inside the work: progress made, work left; {in_sending} after which some mail was marked sent and some still queued)"
    );
    say!(
        "messages: {messages} ({} before the first start, {} during the kills; per game 2 orders, 1 forgery, 1 status request)",
        EARLY_GAMES * PER_GAME,
        messages - EARLY_GAMES * PER_GAME
    );
    say!(
        "orders accepted: {accepted} of {} valid (one per game, step and side)",
        GAMES * PLAYERS.len()
    );
    say!(
        "reports delivered: {delivered} of {}",
        GAMES * PLAYERS.len()
    );
    say!("replies delivered: {acked} of {messages} (one per message, In-Reply-To it)");
    say!("lost: {lost}");
    say!("duplicates with a new Message-ID: {new_id_duplicates}");
    say!("resends with the same Message-ID: {resends}");
    say!("audit passed: {audited} of {GAMES} games");
    say!(
        "timings: setup {:.1}s, first half sent {:.1}s, kills until {:.1}s, finished {:.1}s, checked {:.1}s",
        t_setup.as_secs_f64(),
        t_sent.as_secs_f64(),
        t_kills.as_secs_f64(),
        t_done.as_secs_f64(),
        t_end.as_secs_f64()
    );
    let _ = std::fs::write(
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("mail-crash-figures.txt"),
        &figures,
    );
    if !audit_failures.is_empty() {
        let kept = tmp.keep();
        panic!(
            "{} archive(s) do not audit (data kept in {}):\n{}",
            audit_failures.len(),
            kept.display(),
            audit_failures.join("\n")
        );
    }
    assert_eq!(accepted, (GAMES * PLAYERS.len()) as i64);
    assert_eq!(delivered, GAMES * PLAYERS.len());
    assert_eq!(lost, 0);
    assert_eq!(new_id_duplicates, 0);
    assert!(resends <= kills, "a resend needs a kill in the SMTP window");
    assert!(kills >= 20 && messages >= 200);
    assert!(
        mid_work >= 10,
        "the kills landed while there was work: {mid_work}"
    );
}
