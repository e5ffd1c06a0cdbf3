//! The daemon against real servers (the loopback mail lab: Postfix and
//! Dovecot): players' orders go in by SMTP, Postfix delivers them into the
//! club's Maildir, the `galloper` binary answers and resolves, and the
//! acknowledgements and reports come back through Postfix into the players'
//! Maildirs. Then the faults: Postfix stopped while reports wait, and a
//! refused SMTP login.

#[path = "support/base64.rs"]
mod base64;
#[path = "support/maillab.rs"]
mod maillab;

use base64::b64;
use galloper::archive::sha256_hex;
use galloper::daemon::config::Config;
use galloper::daemon::{sender, serve};
use galloper::mail::smtp::{Security, SendError, Smtp, SmtpConfig};
use galloper::server::PlayerSpec;
use galloper::side::SideId;
use galloper::sig;
use mail_parser::{HeaderValue, Message, MessageParser, MimeHeaders, PartType};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The two players: lab user, side.
const PLAYERS: [(&str, &str); 2] = [("alice", "french"), ("bob", "austrians")];

/// A club's data folder and configuration, with one game whose two players
/// have their signed deployment orders ready.
struct Club {
    _tmp: tempfile::TempDir,
    config: PathBuf,
    cfg: Config,
    game: String,
    /// Per lab user: (orders file, its signature).
    orders: BTreeMap<String, (String, String)>,
}

fn club(lab: &maillab::Lab, game: &str, smtp_extra: &str) -> Club {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let config = d.join("galloper.yaml");
    std::fs::write(
        &config,
        format!(
            "data: {}\nclub_address: {}\nmaildir: {}\ngame_master: {}\npoll_seconds: 1\nreplies_per_hour: 1000\nsmtp: {{host: 127.0.0.1, port: {}, security: plain, timeout_seconds: 10{smtp_extra}}}\n",
            d.join("data").display(),
            lab.address("club"),
            lab.maildir("club").display(),
            lab.address("gm"),
            lab.smtp_port,
        ),
    )
    .unwrap();
    let cfg = Config::load(&config).unwrap();
    let keys: Vec<(&str, &str, sig::KeyPair)> = PLAYERS
        .iter()
        .map(|(user, side)| (*user, *side, sig::keygen(side).unwrap()))
        .collect();
    let mut server = serve::open(&cfg).unwrap();
    let players: Vec<PlayerSpec> = keys
        .iter()
        .map(|(user, side, k)| PlayerSpec {
            side: SideId::new(*side),
            email: lab.address(user),
            public_key: k.public_line.clone(),
        })
        .collect();
    server
        .new_game(game, galloper::demo::SCENARIO, &players)
        .unwrap();
    let mut orders = BTreeMap::new();
    for (user, side, key) in &keys {
        let t = galloper::cli::template(&server, game, &SideId::new(*side)).unwrap();
        let t = galloper::envelope::with_entropy(&t, &sha256_hex(user.as_bytes()));
        let s = sig::sign(&key.private_openssh, sig::ORDERS_NAMESPACE, t.as_bytes()).unwrap();
        orders.insert(user.to_string(), (t, s));
    }
    Club {
        _tmp: tmp,
        config,
        cfg,
        game: game.into(),
        orders,
    }
}

/// A player's mail with the orders and the .sig attached, as a mail client sends it.
fn orders_mail(from: &str, to: &str, message_id: &str, orders: &str, signature: &str) -> Vec<u8> {
    format!(
        "From: Player <{from}>\r\nTo: {to}\r\nSubject: my orders\r\nMessage-ID: <{message_id}>\r\nDate: Sun, 22 Nov 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"XX\"\r\n\r\n--XX\r\nContent-Type: text/plain\r\n\r\nHere they are.\r\n--XX\r\nContent-Type: application/yaml; name=\"deploy.yaml\"\r\nContent-Disposition: attachment; filename=\"deploy.yaml\"\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n--XX\r\nContent-Type: application/octet-stream; name=\"deploy.yaml.sig\"\r\nContent-Disposition: attachment; filename=\"deploy.yaml.sig\"\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n--XX--\r\n",
        b64(orders.as_bytes()),
        b64(signature.as_bytes())
    )
    .into_bytes()
}

/// Each player mails his orders to `club+GAME@` by SMTP; returns the
/// Message-ID of each player's mail, once Postfix has delivered both.
fn send_orders(lab: &maillab::Lab, c: &Club) -> BTreeMap<String, String> {
    let mut ids = BTreeMap::new();
    for (user, (orders, signature)) in &c.orders {
        let id = format!("{}-{user}-orders@{}", c.game, lab.domain);
        let to = format!("club+{}@{}", c.game, lab.domain);
        lab.send(
            &lab.address(user),
            &to,
            &orders_mail(&lab.address(user), &to, &id, orders, signature),
        );
        ids.insert(user.clone(), id);
    }
    lab.wait_for("club", ids.len(), Duration::from_secs(30), |_| true);
    ids
}

/// `galloper process --config FILE`, as a club's cron runs it.
fn process(config: &Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_galloper"))
        .arg("process")
        .arg("--config")
        .arg(config)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "process failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn parse(raw: &[u8]) -> Message<'_> {
    MessageParser::default().parse(raw).expect("a mail parses")
}

/// The ids of an In-Reply-To or References header, one or many.
fn ids(h: &HeaderValue) -> Vec<String> {
    match h {
        HeaderValue::Text(t) => vec![t.to_string()],
        HeaderValue::TextList(l) => l.iter().map(|t| t.to_string()).collect(),
        _ => Vec::new(),
    }
}

/// The Message-IDs found in a user's Maildir, with how often each came.
fn message_ids(lab: &maillab::Lab, user: &str) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for (_, raw) in lab.messages(user) {
        let id = parse(&raw).message_id().unwrap_or_default().to_string();
        *out.entry(id).or_insert(0) += 1;
    }
    out
}

/// The children of a multipart part, as (type/subtype, part).
fn children<'a>(
    m: &'a Message<'a>,
    part: &'a mail_parser::MessagePart<'a>,
) -> Vec<(String, &'a mail_parser::MessagePart<'a>)> {
    match &part.body {
        PartType::Multipart(ids) => ids
            .iter()
            .filter_map(|i| m.part(*i))
            .map(|p| (content_type(p), p))
            .collect(),
        _ => Vec::new(),
    }
}

fn content_type(p: &mail_parser::MessagePart<'_>) -> String {
    p.content_type()
        .map(|c| format!("{}/{}", c.ctype(), c.subtype().unwrap_or_default()))
        .unwrap_or_default()
        .to_ascii_lowercase()
}

#[test]
fn orders_by_smtp_are_answered_resolved_and_reported_through_postfix() {
    let lab = maillab::lab();
    let _turn = maillab::exclusive();
    lab.clear();
    let c = club(lab, "e2e-one", "");
    let sent_ids = send_orders(lab, &c);
    let out = process(&c.config);
    assert!(
        out.starts_with("2 message(s), 1 step(s) resolved, 6 mail(s) sent"),
        "{out}"
    );
    // Postfix delivers the acknowledgement and the report to each player.
    let thread_root = format!("galloper.{}@{}", c.game, lab.domain);
    for (user, side) in PLAYERS {
        // The briefing of the new game (issue 13) comes in the same batch.
        let got = lab.wait_for(user, 3, Duration::from_secs(30), |_| true);
        assert_eq!(
            got.len(),
            3,
            "{user}: one briefing, one acknowledgement, one report"
        );
        let (orders, _) = &c.orders[user];
        let ack = got
            .iter()
            .map(|r| parse(r))
            .find(|m| ids(m.in_reply_to()) == vec![sent_ids[user].clone()])
            .unwrap_or_else(|| panic!("{user} got no acknowledgement of his mail"));
        assert!(
            ack.content_type()
                .is_none_or(|ct| ct.ctype() == "text" && ct.subtype() == Some("plain")),
            "the acknowledgement is plain text"
        );
        let text = ack.body_text(0).unwrap_or_default().into_owned();
        assert!(
            text.contains(&format!(
                "accepted for game {} step 1 ({side}), sha256 {}",
                c.game,
                sha256_hex(orders.as_bytes())
            )),
            "{text}"
        );
        assert_eq!(
            ack.header_raw("Auto-Submitted").map(str::trim),
            Some("auto-replied")
        );

        let report_id = format!("galloper.{}.1.{side}.report@{}", c.game, lab.domain);
        let raw = got
            .iter()
            .find(|r| parse(r).message_id() == Some(report_id.as_str()))
            .unwrap_or_else(|| panic!("{user} got no report with Message-ID {report_id}"));
        let report = parse(raw);
        assert_eq!(ids(report.in_reply_to()), vec![thread_root.clone()]);
        assert_eq!(ids(report.references()), vec![thread_root.clone()]);
        // multipart/mixed: related(alternative(text, html), png), then files.
        let root = report.root_part();
        assert_eq!(content_type(root), "multipart/mixed");
        let top = children(&report, root);
        let (_, related) = top
            .iter()
            .find(|(t, _)| t == "multipart/related")
            .expect("a multipart/related part");
        let inner = children(&report, related);
        let (_, alt) = inner
            .iter()
            .find(|(t, _)| t == "multipart/alternative")
            .expect("text and HTML as alternatives");
        let kinds: Vec<String> = children(&report, alt).into_iter().map(|(t, _)| t).collect();
        assert_eq!(kinds, vec!["text/plain", "text/html"]);
        let (_, png) = inner
            .iter()
            .find(|(t, _)| t == "image/png")
            .expect("the map inline");
        assert_eq!(png.content_id(), Some("map@galloper"));
        assert!(png.contents().starts_with(b"\x89PNG\r\n\x1a\n"));
        let html = report.body_html(0).expect("an HTML body");
        assert!(
            html.contains("cid:map@galloper"),
            "the HTML shows the inline map"
        );
        let names: Vec<String> = report
            .attachments()
            .filter_map(|a| a.attachment_name().map(str::to_string))
            .collect();
        // Light: the report, its map, the orders template and the
        // orders page (issue 32), nothing else; the archive files are
        // named, not attached.
        assert_eq!(
            names,
            vec![
                "map.png".to_string(),
                format!("{}-step-2-{side}.yaml", c.game),
                format!("{}-step-2-{side}-orders.html", c.game),
            ],
            "the map inline, then the next step's orders template and page"
        );
        let text = report.body_text(0).expect("a text body");
        assert!(
            text.contains("Archive files") && text.contains("subject \"archive\""),
            "the report says where the archive files are: {text}"
        );
    }
    // The club's messages are done: in cur/ with the S flag, none left in new/.
    let club = lab.messages("club");
    assert_eq!(club.len(), 2);
    for (path, _) in &club {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            path.parent().unwrap().ends_with("cur") && name.ends_with(":2,S"),
            "{}",
            path.display()
        );
    }
    // Nothing more to do, and nothing goes out twice.
    let out = process(&c.config);
    assert!(
        out.starts_with("0 message(s), 0 step(s) resolved, 0 mail(s) sent"),
        "{out}"
    );
    std::thread::sleep(Duration::from_millis(500));
    for (user, _) in PLAYERS {
        assert!(message_ids(lab, user).values().all(|n| *n == 1), "{user}");
    }
}

fn smtp_for(lab: &maillab::Lab, user: Option<&str>, password: &str) -> Smtp {
    Smtp::new(&SmtpConfig {
        host: "127.0.0.1".into(),
        port: lab.smtp_port,
        security: Security::Plain,
        user: user.map(str::to_string),
        password: user.map(|_| password.to_string()),
        timeout_secs: 10,
    })
    .unwrap()
}

#[test]
fn reports_wait_while_postfix_is_stopped_and_arrive_once_when_it_is_back() {
    let lab = maillab::lab();
    let _turn = maillab::exclusive();
    lab.clear();
    let c = club(lab, "e2e-down", "");
    send_orders(lab, &c);
    lab.stop_postfix();
    // Postfix comes back even if an assertion fails while it is down.
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let out = process(&c.config);
        assert!(
            out.starts_with(
                "2 message(s), 1 step(s) resolved, 0 mail(s) sent, 6 to retry, 0 given up"
            ),
            "{out}"
        );
        // At once again: nothing is due before the backoff.
        let out = process(&c.config);
        assert!(
            out.starts_with("0 message(s), 0 step(s) resolved, 0 mail(s) sent, 0 to retry"),
            "{out}"
        );
        let server = serve::open(&c.cfg).unwrap();
        let mails = server.store().mails().unwrap();
        assert_eq!(
            mails.len(),
            6,
            "two briefings, two acknowledgements, two reports"
        );
        for m in &mails {
            assert_eq!(
                (m.status.as_str(), m.attempts),
                ("queued", 1),
                "{}",
                m.message_id
            );
            let wait = m.next_attempt - m.queued_at;
            assert!(
                (30..=35).contains(&wait),
                "first retry 30 s after the attempt: {wait}"
            );
        }
        // The test moves the clock: the first retry is due 30 s later, and fails again.
        let mut server = server;
        let smtp = smtp_for(lab, None, "");
        let t0 = mails.iter().map(|m| m.next_attempt).max().unwrap();
        let r = sender::drain(&mut server, &smtp, &c.cfg, t0).unwrap();
        assert_eq!((r.sent, r.retrying, r.failed), (0, 6, 0));
        for m in server.store().mails().unwrap() {
            assert_eq!((m.status.as_str(), m.attempts), ("queued", 2));
            assert_eq!(m.next_attempt, t0 + 60, "the delay doubles");
        }
        (server, smtp, t0)
    }));
    lab.restart();
    let (mut server, smtp, t0) = result.unwrap_or_else(|e| std::panic::resume_unwind(e));
    assert!(server.store().due_mails(t0 + 59).unwrap().is_empty());
    let r = sender::drain(&mut server, &smtp, &c.cfg, t0 + 60).unwrap();
    assert_eq!((r.sent, r.retrying, r.failed), (6, 0, 0));
    let r = sender::drain(&mut server, &smtp, &c.cfg, t0 + 7200).unwrap();
    assert_eq!(r.sent, 0, "nothing is sent twice");
    assert!(
        server
            .store()
            .mails()
            .unwrap()
            .iter()
            .all(|m| m.status == "sent")
    );
    let out = process(&c.config);
    assert!(out.contains(" 0 mail(s) sent"), "{out}");
    for (user, side) in PLAYERS {
        lab.wait_for(user, 3, Duration::from_secs(30), |_| true);
        std::thread::sleep(Duration::from_millis(300));
        let got = message_ids(lab, user);
        assert_eq!(got.len(), 3, "{user}: {got:?}");
        assert_eq!(
            got.get(&format!(
                "galloper.{}.1.{side}.report@{}",
                c.game, lab.domain
            )),
            Some(&1),
            "{user}: the report exactly once: {got:?}"
        );
        assert!(got.values().all(|n| *n == 1), "{user}: {got:?}");
    }
}

#[test]
fn a_refused_smtp_login_stops_serve_and_keeps_the_mail_queued() {
    let lab = maillab::lab();
    let _turn = maillab::exclusive();
    lab.clear();
    let wrong = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(wrong.path(), "not-the-password\n").unwrap();
    let club_user = lab.address("club");
    let c = club(
        lab,
        "e2e-auth",
        &format!(
            ", user: {club_user}, password_file: {}",
            wrong.path().display()
        ),
    );
    // serve tries the login at start and stops with what to check.
    let out = Command::new(env!("CARGO_BIN_EXE_galloper"))
        .arg("serve")
        .arg("--config")
        .arg(&c.config)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success(),
        "serve must not run with a refused login"
    );
    for part in [
        format!("127.0.0.1:{}", lab.smtp_port),
        club_user.clone(),
        "smtp.user".into(),
        "smtp.password_file".into(),
        "535".into(),
    ] {
        assert!(err.contains(&part), "{part:?} missing from: {err}");
    }
    assert!(
        !err.contains("not-the-password"),
        "the password is never shown"
    );
    // A login refused while sending: the mail stays queued, even past
    // give_up_hours, and the game master's alert waits with it.
    send_orders(lab, &c);
    let mut server = serve::open(&c.cfg).unwrap();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let b = serve::batch(&mut server, &c.cfg, &stop).unwrap();
    assert_eq!((b.messages, b.steps), (2, 1));
    let advice = b.sent.login_refused.expect("the login is refused");
    assert!(advice.contains("smtp.password_file"), "{advice}");
    assert_eq!(b.sent.failed, 0);
    let later = server.store().mails().unwrap()[0].queued_at + 100 * 3600;
    let bad = smtp_for(lab, Some(&club_user), "not-the-password");
    assert!(matches!(bad.check(), Err(SendError::Auth(_))));
    let r = sender::drain(&mut server, &bad, &c.cfg, later).unwrap();
    assert!(r.login_refused.is_some() && r.failed == 0);
    let mails = server.store().mails().unwrap();
    assert!(
        mails.iter().all(|m| m.status == "queued"),
        "nothing given up"
    );
    assert!(mails.iter().any(|m| m.attempts >= 2));
    let r = sender::drain(&mut server, &bad, &c.cfg, later + 60).unwrap();
    assert!(r.login_refused.is_some());
    let alerts = server
        .store()
        .mails()
        .unwrap()
        .into_iter()
        .filter(|m| m.kind == "alert")
        .count();
    assert_eq!(
        alerts, 2,
        "one alert a day: the day of the batch and the day 100 h later"
    );
    // The right password: everything goes out, the alert too.
    let good = smtp_for(lab, Some(&club_user), &lab.password);
    good.check().unwrap();
    let r = sender::drain(&mut server, &good, &c.cfg, later + 7200).unwrap();
    assert_eq!((r.sent, r.failed, r.login_refused), (8, 0, None));
    let alert = lab.wait_for("gm", 2, Duration::from_secs(30), |_| true);
    let text = parse(&alert[0])
        .body_text(0)
        .unwrap_or_default()
        .into_owned();
    assert!(
        text.contains("smtp.user") && text.contains(&club_user),
        "{text}"
    );
    for (user, _) in PLAYERS {
        lab.wait_for(user, 2, Duration::from_secs(30), |_| true);
    }
}
