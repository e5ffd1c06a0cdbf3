//! Issue 12, items 12 to 14, played as attacks against the daemon and the
//! command line: a bad address refused where it enters, one game's failure
//! kept out of the other games' way, no temporary files left; forged mail
//! that cannot silence or flood a player or the game master; files that
//! no other local user can read, whatever the umask, and read-only commands
//! that create nothing. None of these needs the mail lab.

#[path = "support/base64.rs"]
mod base64;
#[path = "support/smtp_sink.rs"]
mod smtp_sink;

use base64::b64;
use galloper::archive::sha256_hex;
use galloper::daemon::config::Config;
use galloper::daemon::serve;
use galloper::mail::maildir::Maildir;
use galloper::server::admin::GameMaster;
use galloper::server::store::OutboxRow;
use galloper::server::{PlayerSpec, Server};
use galloper::side::SideId;
use galloper::sig::{self, KeyPair};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

const SIDES: [&str; 2] = ["french", "austrians"];
const NOW: i64 = 1_795_000_000;

struct Club {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    cfg: Config,
    server: Server,
    keys: BTreeMap<String, KeyPair>,
    gm_key: KeyPair,
    md: Maildir,
    n: u32,
}

/// A club with a Maildir, a game master and `extra` configuration lines.
fn club(extra: &str) -> Club {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().to_path_buf();
    let gm_key = sig::keygen("gm").unwrap();
    std::fs::write(root.join("gm.pub"), &gm_key.public_line).unwrap();
    std::fs::write(
        root.join("galloper.yaml"),
        format!(
            "data: {}\nreports: {}\nclub_address: club@pbem.test\nmaildir: {}\ngame_master: gm@pbem.test\ngame_master_key: {}\n{extra}",
            root.join("data").display(),
            root.join("reports").display(),
            root.join("Maildir").display(),
            root.join("gm.pub").display(),
        ),
    )
    .unwrap();
    let cfg = Config::load(&root.join("galloper.yaml")).unwrap();
    let server = serve::open(&cfg).unwrap();
    let keys = SIDES
        .iter()
        .map(|s| (s.to_string(), sig::keygen(s).unwrap()))
        .collect();
    let md = Maildir::open(&root.join("Maildir")).unwrap();
    Club {
        _tmp: tmp,
        root,
        cfg,
        server,
        keys,
        gm_key,
        md,
        n: 0,
    }
}

impl Club {
    /// A game whose players are `SIDE-GAME@players.test`.
    fn game(&mut self, id: &str) {
        let players: Vec<PlayerSpec> = self
            .keys
            .iter()
            .map(|(s, k)| PlayerSpec {
                side: SideId::new(s.as_str()),
                email: format!("{s}-{id}@players.test"),
                public_key: k.public_line.clone(),
            })
            .collect();
        self.server
            .new_game(id, galloper::demo::SCENARIO, &players)
            .unwrap();
        // The briefing is taken as sent: these tests count the mail that
        // orders and hostile mail cause (tests/mail_reports.rs sends it).
        self.server.store_mut().queue_briefings(id, &[]).unwrap();
    }
    /// A side's orders for the open step of `game`, and their signature by `key`.
    fn orders(&self, game: &str, side: &str, entropy: &str, key: &KeyPair) -> (String, String) {
        let t = galloper::cli::template(&self.server, game, &SideId::new(side)).unwrap();
        let t = galloper::envelope::with_entropy(&t, &sha256_hex(entropy.as_bytes()));
        let s = sig::sign(&key.private_openssh, sig::ORDERS_NAMESPACE, t.as_bytes()).unwrap();
        (t, s)
    }
    /// Every side's orders for the open step, straight into the store.
    fn submit_all(&mut self, game: &str) {
        for side in SIDES {
            let (t, s) = self.orders(game, side, "cd", &self.keys[side].clone());
            self.server
                .submit(&format!("{side}.yaml"), t.as_bytes(), &s)
                .unwrap();
        }
    }
    fn batch(&mut self) -> serve::Batch {
        serve::batch(&mut self.server, &self.cfg, &AtomicBool::new(false)).unwrap()
    }
    /// A command signed by the game master's key, run through the library.
    fn gm(&mut self, game: &str, command: &str) -> Result<String, String> {
        self.n += 1;
        let created = self
            .server
            .game_created(game)
            .map(|c| format!("created: {c}\n"))
            .unwrap_or_default();
        let file = format!(
            "galloper: 1\ngame: {game}\nissued: 2026-11-22T10:00:{:02}Z\nby: gm\n{created}command:\n  {command}\n",
            self.n
        );
        let s = sig::sign(
            &self.gm_key.private_openssh,
            sig::COMMAND_NAMESPACE,
            file.as_bytes(),
        )
        .unwrap();
        let gm = GameMaster {
            key: Some(self.gm_key.public_line.clone()),
            email: Some("gm@pbem.test".into()),
        };
        self.server
            .run_command("c.yaml", file.as_bytes(), &s, &gm, NOW)
            .map(|a| a.reply)
            .map_err(|e| e.to_string())
    }
    /// Change the store behind the server's back, as damage or an older
    /// galloper would have left it.
    fn sql(&self, statement: &str) {
        let c = rusqlite::Connection::open(self.root.join("data/galloper.db")).unwrap();
        assert_eq!(c.execute(statement, []).unwrap(), 1, "{statement}");
    }
    fn mails_to(&self, to: &str) -> Vec<OutboxRow> {
        self.server
            .store()
            .mails()
            .unwrap()
            .into_iter()
            .filter(|m| m.recipients == [to])
            .collect()
    }
}

/// A player's mail with an orders file and its signature attached.
fn orders_mail(from: &str, id: &str, orders: &str, signature: &str) -> Vec<u8> {
    orders_mail_to("g1", from, id, orders, signature)
}

fn orders_mail_to(game: &str, from: &str, id: &str, orders: &str, signature: &str) -> Vec<u8> {
    format!(
        "From: <{from}>\r\nTo: club+{game}@pbem.test\r\nSubject: orders\r\nMessage-ID: <{id}>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"XX\"\r\n\r\n--XX\r\nContent-Type: text/plain\r\n\r\nHere.\r\n--XX\r\nContent-Type: application/yaml; name=\"o.yaml\"\r\nContent-Disposition: attachment; filename=\"o.yaml\"\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n--XX\r\nContent-Type: application/octet-stream; name=\"o.yaml.sig\"\r\nContent-Disposition: attachment; filename=\"o.yaml.sig\"\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n--XX--\r\n",
        b64(orders.as_bytes()),
        b64(signature.as_bytes())
    )
    .into_bytes()
}

fn body(m: &OutboxRow) -> String {
    mail_parser::MessageParser::default()
        .parse(&m.bytes)
        .and_then(|p| p.body_text(0).map(|t| t.into_owned()))
        .unwrap_or_default()
}

/// Every temporary file of a staged write under `root`.
fn temporaries(root: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            if e.file_type().unwrap().is_dir() {
                dirs.push(e.path());
            } else if name.starts_with('.') && name.ends_with(".tmp") {
                found.push(e.path());
            }
        }
    }
    found
}

// ---- Item 12: one bad address stops every game ----

#[test]
fn a_bad_address_is_refused_at_new_at_replace_address_and_in_the_configuration() {
    let mut c = club("");
    // The library refuses it, and nothing of the game exists.
    let players: Vec<PlayerSpec> = SIDES
        .iter()
        .map(|s| PlayerSpec {
            side: SideId::new(*s),
            email: if *s == "french" {
                "alice at example".into()
            } else {
                "bob@example.org".into()
            },
            public_key: c.keys[*s].public_line.clone(),
        })
        .collect();
    let e = c
        .server
        .new_game("g1", galloper::demo::SCENARIO, &players)
        .unwrap_err();
    let e = format!("{e:#}");
    assert!(
        e.contains("the address for french")
            && e.contains("\"alice at example\" is not an email address"),
        "{e}"
    );
    assert!(c.server.store().game("g1").unwrap().is_none());
    assert!(!c.root.join("data/archive/g1").exists());

    // The game master cannot bring one in either.
    c.game("g1");
    let e = c
        .gm(
            "g1",
            "replace_address: {side: french, email: alice at example}",
        )
        .unwrap_err();
    assert!(e.contains("is not an email address"), "{e}");
    let e = c
        .gm(
            "g1",
            "replace_address: {side: french, email: \"Alice <alice@example.org>\"}",
        )
        .unwrap_err();
    assert!(e.contains("without a name or angle brackets"), "{e}");
    let french = c.server.players("g1").unwrap();
    assert_eq!(french[1].email, "french-g1@players.test");

    // Nor the configuration.
    let text = std::fs::read_to_string(c.root.join("galloper.yaml"))
        .unwrap()
        .replace("game_master: gm@pbem.test", "game_master: gm at pbem");
    std::fs::write(c.root.join("bad.yaml"), text).unwrap();
    let e = Config::load(&c.root.join("bad.yaml"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("game_master") && e.contains("not an email address"),
        "{e}"
    );
}

#[test]
fn galloper_new_refuses_a_bad_address_and_creates_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let key = sig::keygen("k").unwrap();
    std::fs::write(d.join("k.pub"), &key.public_line).unwrap();
    std::fs::write(d.join("s.yaml"), galloper::demo::SCENARIO).unwrap();
    let data = d.join("data");
    let o = run(
        &[
            "--data",
            &data.to_string_lossy(),
            "new",
            &d.join("s.yaml").to_string_lossy(),
            "--game",
            "g1",
            "--player",
            &format!("french:alice at example:{}", d.join("k.pub").display()),
            "--player",
            &format!("austrians:bob@example.org:{}", d.join("k.pub").display()),
        ],
        false,
    );
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("--player french") && err.contains("is not an email address"),
        "{err}"
    );
    assert!(!data.exists(), "nothing is created for a refused game");
}

#[test]
fn one_games_failure_does_not_stop_the_other_games_reports() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let got = Arc::new(Mutex::new(Vec::new()));
    smtp_sink::smtp_sink(listener, got.clone());
    let mut c = club(&format!(
        "smtp: {{host: 127.0.0.1, port: {port}, security: plain, timeout_seconds: 5}}\n"
    ));
    for g in ["g1", "g2", "g3"] {
        c.game(g);
        c.submit_all(g);
    }
    // g1: an address stored before addresses were checked (its report
    // mail cannot be composed); g3: stored orders damaged (its step cannot
    // be resolved). g2 is sound.
    c.sql("UPDATE players SET email = 'alice at example' WHERE game = 'g1' AND side = 'french'");
    c.sql("UPDATE orders SET text = CAST('galloper: [' AS BLOB) WHERE game = 'g3' AND side = 'french'");
    let b = c.batch();
    assert_eq!(b.stuck, ["g1", "g3"], "both failures are reported");
    assert_eq!(b.steps, 1, "g2 resolved");
    assert_eq!(b.sent.sent, 4, "g2's two reports and two alerts went out");
    {
        let got = got.lock().unwrap();
        let texts: Vec<String> = got
            .iter()
            .map(|m| String::from_utf8_lossy(m).into_owned())
            .collect();
        let reports = texts.iter().filter(|t| t.contains("[g2] Step 1")).count();
        assert_eq!(reports, 2, "{texts:?}");
        // The game master hears of each failed game, with what to do.
        for (g, todo) in [("g1", "replace_address"), ("g3", "tried again")] {
            assert!(
                texts
                    .iter()
                    .any(|t| t.contains(&format!("game {g} cannot go on"))
                        && t.replace("=\r\n", "").contains(todo)),
                "{g}: {texts:?}"
            );
        }
    }
    // Once a day, not at every batch.
    c.batch();
    assert_eq!(c.mails_to("gm@pbem.test").len(), 2);
    for g in ["g1", "g3"] {
        assert_eq!(
            c.server.store().open_step(g).unwrap().unwrap().step,
            1,
            "{g} stays open"
        );
    }
    // No temporary file is left by the failures, in the archive, the data
    // folder or the reports folder.
    assert_eq!(temporaries(&c.root), Vec::<PathBuf>::new());

    // The game master repairs g1 with a new address; the old one, which
    // mail cannot reach, is not written to, and g1 goes on.
    let reply = c
        .gm(
            "g1",
            "replace_address: {side: french, email: alice@example.org}",
        )
        .unwrap();
    assert!(reply.contains("only the new one is told"), "{reply}");
    let b = c.batch();
    assert_eq!(b.stuck, ["g3"]);
    assert_eq!(b.steps, 1, "g1 resolved after the repair");
    let got = got.lock().unwrap();
    let texts: Vec<String> = got
        .iter()
        .map(|m| String::from_utf8_lossy(m).into_owned())
        .collect();
    assert!(
        texts
            .iter()
            .any(|t| t.contains("[g1] Step 1") && t.contains("alice@example.org")),
        "g1's report goes to the new address"
    );
    assert_eq!(temporaries(&c.root), Vec::<PathBuf>::new());
}

#[test]
fn a_message_that_fails_stays_pending_and_the_others_go_through() {
    let mut c = club("");
    c.game("g1");
    c.game("g2");
    // g1's stored schedule is damaged: a status request for g1 cannot be
    // answered (an error, not a refusal), nor can g1's clock run.
    c.sql("INSERT INTO schedules (game, yaml) VALUES ('g1', 'deadline: [')");
    c.md.deliver(
        b"From: <french-g1@players.test>\r\nTo: club+g1@pbem.test\r\nSubject: status\r\nMessage-ID: <poison@players.test>\r\n\r\nstatus\r\n",
    )
    .unwrap();
    for side in SIDES {
        let (t, s) = c.orders("g2", side, "cd", &c.keys[side].clone());
        c.md.deliver(&orders_mail_to(
            "g2",
            &format!("{side}-g2@players.test"),
            &format!("{side}@players.test"),
            &t,
            &s,
        ))
        .unwrap();
    }
    let b = c.batch();
    assert_eq!((b.messages, b.failed_messages), (2, 1));
    assert_eq!(b.steps, 1, "g2 resolved");
    for side in SIDES {
        let to = format!("{side}-g2@players.test");
        let kinds: Vec<String> = c.mails_to(&to).into_iter().map(|m| m.kind).collect();
        assert_eq!(kinds, ["reply", "report"], "{to}");
    }
    let pending = c.md.pending().unwrap();
    assert_eq!(pending.len(), 1, "the failing message stays pending");
    assert!(
        std::fs::read_to_string(&pending[0].path)
            .unwrap()
            .contains("poison@players.test")
    );
}

#[test]
fn temporary_files_are_removed_after_a_failure_and_at_start_up() {
    use galloper::archive::folder::{Durability, Staging};
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("data/archive/g1/step-0001");
    // A staging that fails before it finishes leaves nothing behind.
    let mut s = Staging::new(&dir, Durability::Synced).unwrap();
    s.stage("notice.yaml", b"notice").unwrap();
    s.stage("notice.yaml.sig", b"sig").unwrap();
    assert_eq!(temporaries(tmp.path()).len(), 2);
    drop(s);
    assert_eq!(temporaries(tmp.path()), Vec::<PathBuf>::new());
    assert!(!dir.join("notice.yaml").exists());
    // A crash's leftovers are removed when the server opens; a fresh one
    // (another galloper process at work) is left alone.
    let old = dir.join(".notice.yaml.tmp");
    std::fs::write(&old, b"half").unwrap();
    let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(&old)
        .unwrap()
        .set_modified(hour_ago)
        .unwrap();
    let fresh = dir.join(".view.yaml.tmp");
    std::fs::write(&fresh, b"being written").unwrap();
    Server::open(&tmp.path().join("data")).unwrap();
    assert!(!old.exists(), "a crash's leftover is removed at start-up");
    assert!(fresh.exists(), "another process's file in progress is kept");
}

// ---- Item 13: forged mail that silences or floods a player ----

#[test]
fn forged_mail_cannot_use_up_the_acknowledgement_of_real_orders() {
    let mut c = club("");
    c.game("g1");
    let alice = "french-g1@players.test";
    let mallory = sig::keygen("mallory").unwrap();
    // 25 forged mails "from" alice, orders signed by another key.
    for n in 0..25 {
        let (t, s) = c.orders("g1", "french", &format!("{:02}", n), &mallory);
        c.md.deliver(&orders_mail(
            alice,
            &format!("forged-{n}@evil.test"),
            &t,
            &s,
        ))
        .unwrap();
    }
    assert_eq!(c.batch().messages, 25);
    let refusals = c.mails_to(alice);
    assert_eq!(refusals.len(), 20, "refusals stop at replies_per_hour");
    assert!(refusals.iter().all(|m| body(m).contains("another key")));
    // Her real orders are acknowledged all the same.
    let (t, s) = c.orders("g1", "french", "ab", &c.keys["french"].clone());
    c.md.deliver(&orders_mail(alice, "real@players.test", &t, &s))
        .unwrap();
    c.batch();
    let mails = c.mails_to(alice);
    assert_eq!(mails.len(), 21);
    let ack = body(&mails[20]);
    assert!(
        ack.contains("accepted for game g1 step 1 (french)"),
        "{ack}"
    );
    // The same signed file sent again changes nothing: that answer is
    // limited like any other, so a replay cannot flood her either.
    c.md.deliver(&orders_mail(alice, "replay@evil.test", &t, &s))
        .unwrap();
    c.batch();
    assert_eq!(c.mails_to(alice).len(), 21, "the replay is not answered");
}

/// Issue 31, item 9: addresses that reach one mailbox (`bob+1@`,
/// `bob+12@`, `Bob@`) share one reply allowance, so a stranger cannot
/// multiply it by tagging the address he forges.
#[test]
fn tagged_addresses_share_one_reply_allowance() {
    let mut c = club("");
    c.game("g1");
    let mallory = sig::keygen("mallory").unwrap();
    for n in 0..25 {
        let (t, s) = c.orders("g1", "french", &format!("{:02}", n), &mallory);
        let from = format!("Bob+{n}@players.test");
        c.md.deliver(&orders_mail(
            &from,
            &format!("tagged-{n}@evil.test"),
            &t,
            &s,
        ))
        .unwrap();
    }
    assert_eq!(c.batch().messages, 25);
    let answered = c
        .server
        .store()
        .mails()
        .unwrap()
        .into_iter()
        .filter(|m| {
            m.recipients
                .iter()
                .any(|r| r.to_lowercase().starts_with("bob+"))
        })
        .count();
    assert_eq!(answered, 20, "one allowance for one mailbox");
}

#[test]
fn report_copies_are_limited_and_replies_say_what_happened() {
    let mut c = club("");
    c.game("g1");
    c.submit_all("g1");
    c.batch();
    let alice = "french-g1@players.test";
    assert_eq!(c.mails_to(alice).len(), 1, "her report");
    let report_size = c.mails_to(alice)[0].bytes.len();
    // 25 one-line requests (identical bodies, new Message-IDs).
    for n in 0..25 {
        c.md.deliver(
            format!("From: <{alice}>\r\nTo: club+g1@pbem.test\r\nSubject: report\r\nMessage-ID: <ask-{n}@evil.test>\r\n\r\nplease\r\n")
                .as_bytes(),
        )
        .unwrap();
    }
    c.batch();
    let mails = c.mails_to(alice);
    let copies: Vec<_> = mails.iter().filter(|m| m.kind == "report-again").collect();
    let replies: Vec<_> = mails.iter().filter(|m| m.kind == "reply").collect();
    assert_eq!(copies.len(), 1, "one copy an hour");
    assert_eq!(
        replies.len() + copies.len(),
        20,
        "the copy counts within replies_per_hour"
    );
    let total: usize = mails.iter().map(|m| m.bytes.len()).sum();
    assert!(
        total < 3 * report_size,
        "{total} bytes for a report of {report_size}"
    );
    assert!(body(replies[0]).contains("is sent again in a separate mail"));
    for r in &replies[1..] {
        let b = body(r);
        assert!(
            b.contains("already sent at") && !b.contains("is sent again"),
            "a reply says what happened: {b}"
        );
    }
}

#[test]
fn alerts_to_the_game_master_are_limited_but_not_about_reports() {
    use galloper::daemon::sender;
    use galloper::mail::smtp::{Security, Smtp, SmtpConfig};
    // A port nobody listens on: every mail fails, and is given up.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut c = club("give_up_hours: 1\n");
    let queued = |n: usize, kind: &str| OutboxRow {
        game: Some("g1".into()),
        ..OutboxRow::queued(
            format!("{kind}-{n}@pbem.test"),
            kind,
            "club@pbem.test",
            &format!("nobody-{n}@nowhere.test"),
            format!("Subject: {n}\r\n\r\nx\r\n").into_bytes(),
            0,
        )
    };
    // 30 replies to forged senders that do not exist, then one report.
    let mut rows: Vec<OutboxRow> = (0..30).map(|n| queued(n, "reply")).collect();
    rows.push(queued(30, "report"));
    c.server.store_mut().queue_mails(&rows).unwrap();
    let smtp = Smtp::new(&SmtpConfig {
        host: "127.0.0.1".into(),
        port,
        security: Security::Plain,
        user: None,
        password: None,
        timeout_secs: 5,
    })
    .unwrap();
    let r = sender::drain(&mut c.server, &smtp, &c.cfg, 3600).unwrap();
    assert_eq!(r.failed, 31);
    let alerts = c.mails_to("gm@pbem.test");
    assert!(alerts.iter().all(|m| m.kind == "alert"));
    assert_eq!(
        alerts.len(),
        21,
        "20 about replies, and the one about the report"
    );
    assert!(
        String::from_utf8_lossy(&alerts[20].bytes).contains("report-30@pbem.test"),
        "an alert about a report is never held back"
    );
}

// ---- Item 14: local readers ----

/// Run galloper, with umask 000 when `open_umask`.
fn run(args: &[&str], open_umask: bool) -> Output {
    let umask = if open_umask { "000" } else { "022" };
    Command::new("sh")
        .arg("-c")
        .arg(format!("umask {umask} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_galloper"))
        .args(args)
        .output()
        .expect("galloper runs")
}

fn ok(o: Output) -> String {
    assert!(
        o.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Every folder and file under `root` with its mode.
fn modes(root: &Path) -> Vec<(PathBuf, bool, u32)> {
    let mut out = vec![(
        root.to_path_buf(),
        true,
        galloper::files::mode(root).unwrap(),
    )];
    let mut dirs = vec![root.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            let dir = e.file_type().unwrap().is_dir();
            out.push((e.path(), dir, galloper::files::mode(&e.path()).unwrap()));
            if dir {
                dirs.push(e.path());
            }
        }
    }
    out
}

#[test]
fn store_reports_and_keys_are_private_whatever_the_umask() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let data = d.join("data");
    let out = d.join("out");
    let s = |p: &Path| p.to_string_lossy().into_owned();
    let dflag = ["--data".to_string(), s(&data)];
    let with = |args: &[&str]| {
        let mut v: Vec<&str> = dflag.iter().map(String::as_str).collect();
        v.extend_from_slice(args);
        ok(run(&v, true))
    };
    with(&["keygen", &s(&d.join("keys/french"))]);
    with(&["keygen", &s(&d.join("keys/austrians"))]);
    std::fs::write(d.join("s.yaml"), galloper::demo::SCENARIO).unwrap();
    with(&[
        "new",
        &s(&d.join("s.yaml")),
        "--game",
        "g1",
        "--player",
        &format!("french:f@x.example:{}.pub", s(&d.join("keys/french"))),
        "--player",
        &format!("austrians:a@x.example:{}.pub", s(&d.join("keys/austrians"))),
    ]);
    for side in SIDES {
        let t = with(&["orders", "template", "g1", side]);
        let file = d.join(format!("{side}.yaml"));
        std::fs::write(&file, t).unwrap();
        with(&["sign", &s(&file), "--key", &s(&d.join("keys").join(side))]);
        with(&["submit", &s(&file)]);
    }
    assert!(with(&["process", "--outbox", &s(&out)]).contains("resolved g1 step 1"));
    assert!(out.join("g1/step-0001/french/report.html").exists());
    assert!(data.join("archive/g1/step-0001/reveal.yaml").exists());
    let mut checked = 0;
    for root in [&data, &out, &d.join("keys")] {
        for (path, dir, mode) in modes(root) {
            let want = if dir { 0o700 } else { 0o600 };
            assert_eq!(mode, want, "{} is {mode:o}", path.display());
            checked += 1;
        }
    }
    assert!(checked > 40, "{checked}");
    for name in ["galloper.db", "server_key", "server_key.pub"] {
        assert!(data.join(name).exists(), "{name}");
    }
}

#[test]
fn a_data_folder_left_open_by_an_older_galloper_is_narrowed() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    std::fs::create_dir(&data).unwrap();
    std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o755)).unwrap();
    Server::open(&data).unwrap();
    assert_eq!(galloper::files::mode(&data).unwrap(), 0o700);
}

#[test]
fn a_key_is_never_written_into_a_file_another_user_could_open() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    std::fs::create_dir(&data).unwrap();
    std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o700)).unwrap();
    // A world-writable leftover under the key's temporary name, opened by
    // another user before the key is written, would hand him the key: it is
    // removed, and the key goes into a file made 0600 by the open itself.
    let trap = data.join(".server_key.tmp");
    std::fs::write(&trap, b"").unwrap();
    std::fs::set_permissions(&trap, std::fs::Permissions::from_mode(0o666)).unwrap();
    let held = std::fs::File::open(&trap).unwrap();
    Server::open(&data).unwrap();
    assert_eq!(
        galloper::files::mode(&data.join("server_key")).unwrap(),
        0o600
    );
    assert_eq!(
        held.metadata().unwrap().len(),
        0,
        "nothing was written into the trap"
    );
    assert!(!trap.exists());
}

#[test]
fn read_only_commands_create_no_data_folder_and_no_key() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let missing = d.join("missing");
    let s = |p: &Path| p.to_string_lossy().into_owned();
    for args in [
        vec!["status"],
        vec!["status", "g1"],
        vec!["render", "g1", "--out", &s(&d.join("r"))],
        vec!["orders", "template", "g1", "french"],
    ] {
        let m = s(&missing);
        let mut v = vec!["--data", m.as_str()];
        v.extend(args.iter().copied());
        let o = run(&v, true);
        assert!(!o.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("there is no data folder"), "{args:?}: {err}");
        assert!(!missing.exists(), "{args:?} created the data folder");
        assert!(!d.join("r").exists(), "{args:?} created its output");
    }
    let o = run(
        &["--data", &s(&missing), "audit", &s(&d.join("archive"))],
        true,
    );
    assert!(!o.status.success());
    assert!(!missing.exists() && !d.join("archive").exists());
    // A folder that exists but is not a data folder gets no store nor key.
    let empty = d.join("empty");
    std::fs::create_dir(&empty).unwrap();
    let o = run(&["--data", &s(&empty), "status"], true);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a galloper data folder"));
    assert_eq!(
        std::fs::read_dir(&empty).unwrap().count(),
        0,
        "nothing created in it"
    );
}

/// Issue 31, item 6: refusing a file costs time in proportion to its size,
/// and the answer is bounded. A signed deployment of 8,000 bad entries
/// (the scale that took minutes when each problem searched the whole file
/// for its line) is answered with the first problems, each with its line,
/// and a count of the rest.
#[test]
fn a_file_of_thousands_of_bad_entries_gets_a_short_answer_in_linear_time() {
    let mut c = club("");
    c.game("g1");
    let (t, _) = c.orders("g1", "french", "many", &c.keys["french"].clone());
    let head = t.split("orders:").next().unwrap().to_string();
    let answer = |n: usize| {
        let mut body =
            String::from("orders:\n  deploy:\n    cinc: {x: 18.0, y: 0.5}\n    units:\n");
        for i in 0..n {
            body.push_str(&format!(
                "      - {{unit: fr-x{i}, at: {{x: 3.0, y: 7.5}}, facing: 0, formation: line}}\n"
            ));
        }
        let file = format!("{head}{body}");
        let s = sig::sign(
            &c.keys["french"].private_openssh,
            sig::ORDERS_NAMESPACE,
            file.as_bytes(),
        )
        .unwrap();
        let started = std::time::Instant::now();
        let e = c
            .server
            .check_orders("french.yaml", file.as_bytes(), Some(&s))
            .unwrap_err();
        (e, started.elapsed(), file.len())
    };
    let (e, took, size) = answer(8000);
    let text = e.to_string();
    match &e {
        galloper::server::Refusal::Rules { problems, more } => {
            assert_eq!(problems.len(), galloper::server::PROBLEMS_LISTED);
            // Every bad entry counts (and the side's own units left out).
            assert!(*more >= 8000 - galloper::server::PROBLEMS_LISTED, "{more}");
            assert!(
                problems.iter().all(|p| p.line.is_some()),
                "each listed with its line"
            );
        }
        other => panic!("{other}"),
    }
    assert!(text.contains("more problems like these"), "{text}");
    assert!(
        text.len() < 8 * 1024,
        "{} bytes answer a {size}-byte file",
        text.len()
    );
    assert!(took < std::time::Duration::from_secs(20), "{took:?}");
}

/// Issue 31, item 2: a mail with `check` in its subject is answered as
/// `galloper orders check` answers, stores nothing, and counts against the
/// sender's reply allowance.
#[test]
fn a_check_by_mail_answers_as_orders_check_and_stores_nothing() {
    let mut c = club("");
    c.game("g1");
    let alice = "french-g1@players.test";
    let (t, s) = c.orders("g1", "french", "checked", &c.keys["french"].clone());
    let mail = String::from_utf8(orders_mail(alice, "check-1@players.test", &t, &s))
        .unwrap()
        .replace("Subject: orders", "Subject: check");
    c.md.deliver(mail.as_bytes()).unwrap();
    c.batch();
    let replies = c.mails_to(alice);
    assert_eq!(replies.len(), 1);
    let said = body(&replies[0]);
    assert!(
        said.contains("would be accepted for game g1 step 1 (french)")
            && said.contains("nothing was stored"),
        "{said}"
    );
    assert_eq!(replies[0].kind, "reply", "counted against the allowance");
    assert!(
        c.server.store().latest_orders("g1", 1).unwrap().is_empty(),
        "nothing stored"
    );
    // The same file sent as orders is then accepted.
    c.md.deliver(&orders_mail(alice, "send-1@players.test", &t, &s))
        .unwrap();
    c.batch();
    assert_eq!(c.server.store().latest_orders("g1", 1).unwrap().len(), 1);
}

/// Issue 31, item 2: a `check: true` line in the text of the mail asks for
/// the same check as `check` in the subject; a file sent without it is
/// submitted.
#[test]
fn a_check_true_line_in_the_text_checks_and_stores_nothing() {
    let mut c = club("");
    c.game("g1");
    let alice = "french-g1@players.test";
    let (t, s) = c.orders("g1", "french", "checked", &c.keys["french"].clone());
    let mail = String::from_utf8(orders_mail(alice, "line-1@players.test", &t, &s))
        .unwrap()
        .replace("\r\n\r\nHere.\r\n", "\r\n\r\nHere.\r\nCheck: true\r\n");
    c.md.deliver(mail.as_bytes()).unwrap();
    c.batch();
    let said = body(&c.mails_to(alice)[0]);
    assert!(
        said.contains("would be accepted for game g1 step 1 (french)")
            && said.contains("nothing was stored"),
        "{said}"
    );
    assert!(c.server.store().latest_orders("g1", 1).unwrap().is_empty());
    // `check: false` is no request: the file is submitted.
    let mail = String::from_utf8(orders_mail(alice, "line-2@players.test", &t, &s))
        .unwrap()
        .replace("\r\n\r\nHere.\r\n", "\r\n\r\nHere.\r\ncheck: false\r\n");
    c.md.deliver(mail.as_bytes()).unwrap();
    c.batch();
    assert_eq!(c.server.store().latest_orders("g1", 1).unwrap().len(), 1);
}

/// Issue 31, item 3: a mail to the bare club address, with no game and no
/// orders, is answered with the sender's games, each with its open step
/// and the address that reaches it.
#[test]
fn the_bare_club_address_answers_with_the_senders_games() {
    let mut c = club("");
    c.game("g1");
    let alice = "french-g1@players.test";
    let hello = |from: &str, id: &str| {
        format!(
            "From: <{from}>\r\nTo: club@pbem.test\r\nSubject: hello\r\nMessage-ID: <{id}>\r\n\r\nWhat are my games?\r\n"
        )
        .into_bytes()
    };
    c.md.deliver(&hello(alice, "hello-1@players.test")).unwrap();
    c.md.deliver(&hello("nobody@players.test", "hello-2@players.test"))
        .unwrap();
    c.batch();
    let said = body(&c.mails_to(alice)[0]);
    assert!(
        said.contains("passed on to the game master")
            && said.contains("Your games on this server")
            && said.contains("g1 (maurice-lite), you play french: step 1 open")
            && said.contains("club+g1@pbem.test"),
        "{said}"
    );
    let said = body(&c.mails_to("nobody@players.test")[0]);
    assert!(said.contains("plays no game on this server"), "{said}");
}

/// Issue 31, item 3: a mail that is neither orders nor a request goes on to
/// the game master, with the player as its Reply-To, and the player is told
/// so; strangers cannot flood him through the club: what goes on to him is
/// within his allowance.
#[test]
fn a_mail_that_is_neither_orders_nor_a_request_goes_to_the_game_master() {
    let mut c = club("replies_per_hour: 3\n");
    c.game("g1");
    let alice = "french-g1@players.test";
    let note = |from: &str, id: &str| {
        format!(
            "From: <{from}>\r\nTo: club+g1@pbem.test\r\nSubject: Away next week\r\nMessage-ID: <{id}>\r\n\r\nI shall be away from Monday; please extend.\r\n"
        )
        .into_bytes()
    };
    c.md.deliver(&note(alice, "away-1@players.test")).unwrap();
    c.batch();
    let said = body(&c.mails_to(alice)[0]);
    assert!(
        said.contains("passed on to the game master (gm@pbem.test)"),
        "{said}"
    );
    let to_gm = c.mails_to("gm@pbem.test");
    assert_eq!(to_gm.len(), 1);
    assert_eq!(to_gm[0].kind, "pass-on");
    let raw = String::from_utf8_lossy(&to_gm[0].bytes).into_owned();
    assert!(raw.contains("Reply-To: french-g1@players.test"), "{raw}");
    assert!(
        raw.contains("Subject: From french-g1@players.test: Away next week"),
        "{raw}"
    );
    assert!(body(&to_gm[0]).contains("please extend"));
    // A request is no message for him, nor are orders.
    let status = String::from_utf8(note(alice, "status-1@players.test"))
        .unwrap()
        .replace("Subject: Away next week", "Subject: status");
    c.md.deliver(status.as_bytes()).unwrap();
    c.batch();
    assert_eq!(c.mails_to("gm@pbem.test").len(), 1);
    // Ten strangers: the game master gets what his allowance holds.
    for i in 0..10 {
        c.md.deliver(&note(
            &format!("s{i}@else.test"),
            &format!("s{i}@else.test"),
        ))
        .unwrap();
    }
    c.batch();
    assert_eq!(c.mails_to("gm@pbem.test").len(), 3, "replies_per_hour: 3");
    let said = body(&c.mails_to("s9@else.test")[0]);
    assert!(
        said.contains("not passed on to the game master now"),
        "{said}"
    );
}

// ---- Issue 31 item 10: report mails are light; archive files on request ----

/// A one-line request from `from` to `club+g1@`.
fn request(c: &Club, from: &str, subject: &str, id: &str) {
    c.md.deliver(
        format!("From: <{from}>\r\nTo: club+g1@pbem.test\r\nSubject: {subject}\r\nMessage-ID: <{id}>\r\n\r\nplease\r\n")
            .as_bytes(),
    )
    .unwrap();
}

/// Every attachment of a mail by file name, with its bytes.
fn attachments(m: &OutboxRow) -> BTreeMap<String, Vec<u8>> {
    use mail_parser::MimeHeaders;
    let parsed = mail_parser::MessageParser::default()
        .parse(&m.bytes)
        .unwrap();
    parsed
        .attachments()
        .filter_map(|a| Some((a.attachment_name()?.to_string(), a.contents().to_vec())))
        .collect()
}

#[test]
fn a_report_mail_names_the_archive_files_and_attaches_none() {
    let mut c = club("site_url: https://club.pbem.test/games/\n");
    c.game("g1");
    c.submit_all("g1");
    c.batch();
    for side in SIDES {
        let mails = c.mails_to(&format!("{side}-g1@players.test"));
        let report = mails.iter().find(|m| m.kind == "report").expect("a report");
        let names: Vec<String> = attachments(report).into_keys().collect();
        assert!(
            names.iter().all(|n| !n.starts_with("archive-step-")),
            "no archive file: {names:?}"
        );
        let text = body(report);
        assert!(text.contains("Archive files"), "{text}");
        assert!(
            text.contains("https://club.pbem.test/games/g1.html"),
            "the game's page on the club site: {text}"
        );
        assert!(
            text.contains("subject \"archive\" to club+g1@pbem.test"),
            "the request: {text}"
        );
    }
    // The files asked for by mail name the site too.
    let alice = "french-g1@players.test";
    request(&c, alice, "archive", "ask-site@players.test");
    c.batch();
    let files = c
        .mails_to(alice)
        .into_iter()
        .find(|m| m.kind == "archive-again")
        .expect("the files");
    assert!(
        body(&files).contains("on the game's page: https://club.pbem.test/games/g1.html"),
        "{}",
        body(&files)
    );
}

#[test]
fn the_archive_request_mails_the_latest_steps_files_once_an_hour_to_a_player_only() {
    let mut c = club("");
    c.game("g1");
    c.submit_all("g1");
    c.batch();
    let alice = "french-g1@players.test";
    // Without a site the report names only the request.
    let report = c.mails_to(alice).remove(0);
    assert!(!body(&report).contains("club site"), "{}", body(&report));
    let now = || {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs() as i64
    };
    let left = |c: &Club| {
        galloper::daemon::limit::left(c.server.store(), c.cfg.replies_per_hour, alice, now())
            .unwrap()
    };
    assert_eq!(left(&c), 20, "reports do not count");
    request(&c, alice, "Archive", "ask-1@players.test");
    c.batch();
    let sent: Vec<OutboxRow> = c
        .mails_to(alice)
        .into_iter()
        .filter(|m| m.kind == "archive-again")
        .collect();
    assert_eq!(sent.len(), 1, "one mail with the files");
    let files = attachments(&sent[0]);
    let dir = c.server.archive_dir("g1").join("step-0001");
    let mut on_disk = BTreeMap::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_file() {
            let name = e.file_name().to_string_lossy().into_owned();
            on_disk.insert(name, std::fs::read(e.path()).unwrap());
        }
    }
    assert_eq!(files, on_disk, "every file of step 1, byte for byte");
    assert!(
        body(&sent[0]).contains("Save them in a folder step-0001/"),
        "{}",
        body(&sent[0])
    );
    for f in [
        "manifest.yaml.sig",
        "notice.yaml",
        "orders.yaml",
        "dice.yaml",
    ] {
        assert!(files.contains_key(f), "{f}");
    }
    let reply = c
        .mails_to(alice)
        .into_iter()
        .find(|m| m.kind == "reply")
        .expect("the answer");
    assert!(
        body(&reply).contains("The archive files of step 1 are sent in a separate mail"),
        "{}",
        body(&reply)
    );
    assert_eq!(left(&c), 18, "the answer and the files both count");
    // Again within the hour: an answer, no files.
    request(&c, alice, "archive", "ask-2@players.test");
    c.batch();
    let mails = c.mails_to(alice);
    assert_eq!(
        mails.iter().filter(|m| m.kind == "archive-again").count(),
        1,
        "not sent twice within the hour"
    );
    let last = mails.iter().rfind(|m| m.kind == "reply").unwrap();
    assert!(
        body(last).contains("were already sent to you at"),
        "{}",
        body(last)
    );
    assert_eq!(left(&c), 17);
    // A stranger, and a player of no game of this id, get nothing.
    let mallory = "mallory@evil.test";
    request(&c, mallory, "[g1] archive", "ask-3@evil.test");
    c.batch();
    let to_mallory = c.mails_to(mallory);
    assert_eq!(to_mallory.len(), 1, "an answer only");
    assert!(
        body(&to_mallory[0]).contains("There are no archive files of game g1 for this address"),
        "{}",
        body(&to_mallory[0])
    );
}

#[test]
fn the_archive_request_before_any_step_is_resolved_sends_nothing() {
    let mut c = club("");
    c.game("g1");
    let alice = "french-g1@players.test";
    request(&c, alice, "archive", "early@players.test");
    c.batch();
    let mails = c.mails_to(alice);
    assert!(mails.iter().all(|m| m.kind == "reply"), "no files");
    assert!(
        body(&mails[0]).contains("There are no archive files of game g1 for this address yet"),
        "{}",
        body(&mails[0])
    );
}

/// The orders page goes with every report and briefing that asks for
/// orders, unless the club turns it off (`orders_page: false`), for
/// players whose mailboxes are small: the template still goes.
#[test]
fn a_club_may_leave_the_orders_page_out_of_its_mails() {
    for (extra, page) in [("", true), ("orders_page: false\n", false)] {
        let mut c = club(extra);
        c.game("g1");
        c.batch();
        c.submit_all("g1");
        c.batch();
        let mut asked = 0;
        for side in SIDES {
            for m in c.mails_to(&format!("{side}-g1@players.test")) {
                if m.kind != "report" && m.kind != "briefing" {
                    continue;
                }
                let names: Vec<String> = attachments(&m).into_keys().collect();
                if !names.iter().any(|n| n.ends_with(&format!("-{side}.yaml"))) {
                    continue;
                }
                asked += 1;
                assert_eq!(
                    names
                        .iter()
                        .any(|n| n.ends_with(&format!("-{side}-orders.html"))),
                    page,
                    "{extra:?}: a {} with a template: {names:?}",
                    m.kind
                );
            }
        }
        assert!(asked > 0, "{extra:?}: some mail asks for orders");
    }
}
