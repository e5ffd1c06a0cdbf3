//! IMAP intake against the lab's real Postfix and Dovecot: players mail signed
//! orders by SMTP, the daemon reads the club's mailbox over IMAP, resolves
//! the step and mails replies and reports back through SMTP.

#[path = "support/base64.rs"]
mod base64;
#[path = "support/maillab.rs"]
mod maillab;

use base64::b64;
use galloper::archive::sha256_hex;
use galloper::daemon::config::Config;
use galloper::daemon::{intake, serve};
use galloper::mail::imap::{Imap, ImapConfig, Wake};
use galloper::mail::smtp::Security;
use galloper::server::PlayerSpec;
use galloper::side::SideId;
use galloper::sig;
use mail_parser::{Message, MessageParser, MimeHeaders, PartType};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

const GAME: &str = "hb1";

/// A player's mail with the orders file and its signature attached.
fn orders_mail(from: &str, to: &str, id: &str, orders: &[u8], signature: &str) -> Vec<u8> {
    let name = "deploy.yaml";
    format!(
        "From: Player <{from}>\r\nTo: {to}\r\nSubject: my orders\r\nMessage-ID: <{id}>\r\nDate: Sun, 22 Nov 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"XX\"\r\n\r\n--XX\r\nContent-Type: text/plain\r\n\r\nHere they are.\r\n--XX\r\nContent-Type: application/yaml; name=\"{name}\"\r\nContent-Disposition: attachment; filename=\"{name}\"\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n--XX\r\nContent-Type: application/octet-stream; name=\"{name}.sig\"\r\nContent-Disposition: attachment; filename=\"{name}.sig\"\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n--XX--\r\n",
        b64(orders),
        b64(signature.as_bytes())
    )
    .into_bytes()
}

fn plain_mail(from: &str, to: &str, id: &str) -> Vec<u8> {
    format!("From: <{from}>\r\nTo: {to}\r\nSubject: hello\r\nMessage-ID: <{id}>\r\n\r\nhello\r\n")
        .into_bytes()
}

/// The club's mailbox over plain IMAP on loopback.
fn club(lab: &maillab::Lab, password: &str, processed: Option<&str>) -> ImapConfig {
    ImapConfig {
        host: "127.0.0.1".into(),
        port: lab.imap_port,
        security: Security::Plain,
        user: lab.address("club"),
        password: password.into(),
        mailbox: "INBOX".into(),
        processed_mailbox: processed.map(str::to_string),
        idle: true,
        timeout_secs: 10,
    }
}

/// Empties the lab's Maildirs, the club's Processed folder included.
fn clear(lab: &maillab::Lab) {
    lab.clear();
    for sub in ["new", "cur", "tmp"] {
        let dir = lab.maildir("club").join(".Processed").join(sub);
        for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

fn files_in(dir: &Path) -> usize {
    ["new", "cur"]
        .iter()
        .map(|s| {
            std::fs::read_dir(dir.join(s))
                .map(|d| d.count())
                .unwrap_or(0)
        })
        .sum()
}

fn header(m: &Message, name: &str) -> String {
    m.header_raw(name).unwrap_or_default().trim().to_string()
}

#[test]
fn orders_by_smtp_are_read_over_imap_resolved_and_reported() {
    let lab = maillab::lab();
    let _turn = maillab::exclusive();
    clear(lab);
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    std::fs::write(d.join("imap-password"), "secret\n").unwrap();
    let cfg_text = format!(
        "data: {data}\nclub_address: {club}\npoll_seconds: 1\n\
         imap:\n  host: 127.0.0.1\n  port: {imap}\n  security: plain\n  user: {club}\n  password_file: {pw}\n  processed_mailbox: Processed\n\
         smtp: {{host: 127.0.0.1, port: {smtp}, security: plain, timeout_seconds: 10}}\n",
        data = d.join("data").display(),
        club = lab.address("club"),
        imap = lab.imap_port,
        pw = d.join("imap-password").display(),
        smtp = lab.smtp_port,
    );
    std::fs::write(d.join("galloper.yaml"), cfg_text).unwrap();
    let cfg = Config::load(&d.join("galloper.yaml")).unwrap();

    // The game: alice plays the French, bob the Austrians.
    let players = [("french", "alice"), ("austrians", "bob")];
    let keys: Vec<sig::KeyPair> = players
        .iter()
        .map(|(side, _)| sig::keygen(side).unwrap())
        .collect();
    let mut server = serve::open(&cfg).unwrap();
    let specs: Vec<PlayerSpec> = players
        .iter()
        .zip(&keys)
        .map(|((side, user), k)| PlayerSpec {
            side: SideId::new(*side),
            email: lab.address(user),
            public_key: k.public_line.clone(),
        })
        .collect();
    server
        .new_game(GAME, galloper::demo::SCENARIO, &specs)
        .unwrap();
    // The briefing is taken as sent: this test counts replies and reports.
    server.store_mut().queue_briefings(GAME, &[]).unwrap();

    // Each player mails signed deployment orders to club+GAME by SMTP.
    let to = format!("club+{GAME}@{}", lab.domain);
    for ((side, user), key) in players.iter().zip(&keys) {
        let t = galloper::cli::template(&server, GAME, &SideId::new(*side)).unwrap();
        let t = galloper::envelope::with_entropy(&t, &sha256_hex(b"cd"));
        let signature =
            sig::sign(&key.private_openssh, sig::ORDERS_NAMESPACE, t.as_bytes()).unwrap();
        let id = format!("{user}-1@{}", lab.domain);
        lab.send(
            &lab.address(user),
            &to,
            &orders_mail(&lab.address(user), &to, &id, t.as_bytes(), &signature),
        );
    }
    lab.wait_for("club", 2, Duration::from_secs(30), |_| true);

    // A crash between handling and marking done: alice's message is handled
    // but left unseen on the server.
    {
        let mut imap = Imap::connect(&cfg.imap_settings().unwrap().unwrap()).unwrap();
        let pending = imap.pending().unwrap();
        assert_eq!(pending.len(), 2, "both orders are waiting");
        let alices = pending
            .iter()
            .find(|p| String::from_utf8_lossy(&p.raw).contains("alice-1@"))
            .expect("alice's mail");
        let now = 1_795_000_000;
        let h = intake::handle(
            &mut server,
            &cfg,
            &alices.raw,
            now,
            &galloper::mail::date::rfc2822(now),
        )
        .unwrap();
        assert_eq!(h.outcome, "accepted");
    }

    let stop = AtomicBool::new(false);
    let (mut messages, mut steps, mut sent) = (0, 0, 0);
    let t0 = Instant::now();
    while steps == 0 || sent < 4 {
        assert!(t0.elapsed() < Duration::from_secs(60), "no resolution");
        let b = serve::batch(&mut server, &cfg, &stop).unwrap();
        assert_eq!(b.sent.failed, 0);
        messages += b.messages;
        steps += b.steps;
        sent += b.sent.sent;
    }
    assert_eq!(messages, 2, "both messages read over IMAP");
    assert_eq!(steps, 1, "the deployment is resolved");
    assert_eq!(sent, 4, "two replies and two reports");
    let replies_to_alice = server
        .store()
        .mails()
        .unwrap()
        .iter()
        .filter(|m| m.kind == "reply" && m.recipients == vec![lab.address("alice")])
        .count();
    assert_eq!(
        replies_to_alice, 1,
        "alice's message, handled twice, is answered once"
    );

    // The club's mailbox is done with: moved to Processed, each \Seen.
    let inbox_left = files_in(&lab.maildir("club"));
    assert_eq!(inbox_left, 0, "nothing left in the club's INBOX");
    let processed: Vec<String> = ["cur", "new"]
        .iter()
        .flat_map(|s| {
            std::fs::read_dir(lab.maildir("club").join(".Processed").join(s))
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
        })
        .collect();
    assert_eq!(processed.len(), 2, "{processed:?}");
    assert!(
        processed
            .iter()
            .all(|n| n.rsplit_once(":2,").is_some_and(|(_, f)| f.contains('S'))),
        "both seen: {processed:?}"
    );
    let b = serve::batch(&mut server, &cfg, &stop).unwrap();
    assert_eq!(
        (b.messages, b.steps, b.sent.sent),
        (0, 0, 0),
        "a second batch has nothing to do"
    );

    // Each player got the acknowledgement and the report.
    let root = format!("<galloper.{GAME}@{}>", lab.domain);
    for (side, user) in players {
        let got = lab.wait_for(user, 2, Duration::from_secs(30), |_| true);
        assert_eq!(got.len(), 2, "{user}: one reply and one report");
        let parsed: Vec<Message> = got
            .iter()
            .map(|b| MessageParser::default().parse(b).expect("parses"))
            .collect();
        let reply = parsed
            .iter()
            .find(|m| header(m, "Auto-Submitted") == "auto-replied")
            .expect("the reply");
        let report = parsed
            .iter()
            .find(|m| header(m, "Auto-Submitted") == "auto-generated")
            .expect("the report");

        // The reply acknowledges the player's own message.
        let own = format!("<{user}-1@{}>", lab.domain);
        assert_eq!(header(reply, "In-Reply-To"), own);
        let refs = header(reply, "References");
        assert!(refs.contains(&own) && refs.contains(&root), "{refs}");
        assert!(
            reply.body_text(0).unwrap_or_default().contains("accepted"),
            "{:?}",
            reply.body_text(0)
        );

        // The report: threaded under the game's root.
        assert_eq!(
            header(report, "Message-ID"),
            format!("<galloper.{GAME}.1.{side}.report@{}>", lab.domain)
        );
        assert_eq!(header(report, "In-Reply-To"), root);
        assert!(header(report, "References").contains(&root));
        assert!(
            report
                .content_type()
                .is_some_and(|c| c.c_type == "multipart"
                    && c.c_subtype.as_deref() == Some("mixed"))
        );
        // text/plain and text/html alternatives...
        let alternative = report.parts.iter().any(|p| {
            p.content_type().is_some_and(|c| {
                c.c_type == "multipart" && c.c_subtype.as_deref() == Some("alternative")
            })
        });
        assert!(alternative, "a multipart/alternative part");
        let text = report.body_text(0).expect("a text part");
        let html = report.body_html(0).expect("an HTML part");
        assert!(!text.trim().is_empty());
        // ...the map inline, referenced by the HTML...
        let png = report
            .parts
            .iter()
            .find(|p| p.is_content_type("image", "png"))
            .expect("the map");
        let cid = png
            .content_id()
            .expect("the map has a Content-ID")
            .to_string();
        assert!(
            html.contains(&format!("cid:{cid}")),
            "HTML refers to cid:{cid}"
        );
        assert!(
            png.content_disposition()
                .is_some_and(|d| d.c_type == "inline")
        );
        match &png.body {
            PartType::Binary(b) | PartType::InlineBinary(b) => {
                assert!(b.starts_with(b"\x89PNG\r\n\x1a\n"))
            }
            other => panic!("the map is not binary: {other:?}"),
        }
        // ...and the orders template and page for step 2 attached.
        let names: Vec<String> = report
            .attachments()
            .filter_map(|a| a.attachment_name().map(str::to_string))
            .collect();
        let template = format!("{GAME}-step-2-{side}.yaml");
        assert!(names.contains(&template), "{names:?}");
        // Light: the inline map, the template and the orders page (issue
        // 32), no archive file.
        assert_eq!(
            names,
            vec![
                "map.png".to_string(),
                template.clone(),
                format!("{GAME}-step-2-{side}-orders.html")
            ]
        );
        let t = report
            .attachments()
            .find(|a| a.attachment_name() == Some(template.as_str()))
            .unwrap();
        assert!(String::from_utf8_lossy(t.contents()).contains(&format!("game: {GAME}")));
    }
}

#[test]
fn wait_wakes_on_new_mail_and_otherwise_returns_at_max() {
    let lab = maillab::lab();
    let _turn = maillab::exclusive();
    clear(lab);
    let mut imap = Imap::connect(&club(lab, &lab.password, None)).unwrap();
    assert!(imap.can_idle(), "Dovecot offers IDLE");
    let stop = AtomicBool::new(false);

    // Nothing arrives: back at max.
    let t0 = Instant::now();
    assert_eq!(
        imap.wait(Duration::from_secs(2), &stop).unwrap(),
        Wake::TimedOut
    );
    let took = t0.elapsed();
    assert!(
        took >= Duration::from_millis(1900) && took < Duration::from_secs(5),
        "{took:?}"
    );

    // A message arrives after about a second: woken long before max.
    let sender = std::thread::spawn(|| {
        std::thread::sleep(Duration::from_secs(1));
        let lab = maillab::lab();
        lab.send(
            &lab.address("alice"),
            &lab.address("club"),
            &plain_mail(
                &lab.address("alice"),
                &lab.address("club"),
                "idle-1@pbem.test",
            ),
        );
    });
    let t0 = Instant::now();
    let wake = imap.wait(Duration::from_secs(30), &stop).unwrap();
    let took = t0.elapsed();
    sender.join().unwrap();
    assert_eq!(wake, Wake::NewMail);
    assert!(
        took >= Duration::from_millis(900) && took < Duration::from_secs(10),
        "{took:?}"
    );

    // Mail already waiting: no wait at all. Done: marked \Seen, not pending.
    let t0 = Instant::now();
    assert_eq!(
        imap.wait(Duration::from_secs(30), &stop).unwrap(),
        Wake::NewMail
    );
    assert!(t0.elapsed() < Duration::from_secs(2));
    let pending = imap.pending().unwrap();
    assert_eq!(pending.len(), 1);
    assert!(String::from_utf8_lossy(&pending[0].raw).contains("idle-1@pbem.test"));
    imap.done(pending[0].uid).unwrap();
    assert!(imap.pending().unwrap().is_empty());
    let seen = lab.messages("club");
    assert_eq!(seen.len(), 1);
    assert!(
        seen[0].0.to_string_lossy().ends_with(":2,S"),
        "{:?}",
        seen[0].0
    );

    // The stop flag ends a long IDLE at once.
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let setter = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(500));
        flag.store(true, std::sync::atomic::Ordering::SeqCst);
    });
    let t0 = Instant::now();
    assert_eq!(
        imap.wait(Duration::from_secs(60), &stop).unwrap(),
        Wake::Stopped
    );
    assert!(t0.elapsed() < Duration::from_secs(3), "{:?}", t0.elapsed());
    setter.join().unwrap();
}

#[test]
fn a_wrong_password_names_the_login() {
    let lab = maillab::lab();
    let _turn = maillab::exclusive();
    clear(lab);
    let e = Imap::connect(&club(lab, "not-the-password", None)).unwrap_err();
    let msg = e.to_string();
    assert!(
        msg.contains("login as club@pbem.test") && msg.contains("imap.password_file"),
        "{msg}"
    );
    // A closed port names host and port.
    let mut cfg = club(lab, &lab.password, None);
    cfg.port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let e = Imap::connect(&cfg).unwrap_err().to_string();
    assert!(e.contains("imap.host and imap.port"), "{e}");
    // TLS against a plain server fails as a handshake, and says so.
    cfg.port = lab.imap_port;
    cfg.security = Security::Tls;
    cfg.host = "localhost".into();
    let e = Imap::connect(&cfg).unwrap_err().to_string();
    assert!(e.contains("TLS handshake"), "{e}");
    // STARTTLS against a server without it is refused, and says so.
    cfg.security = Security::StartTls;
    let e = Imap::connect(&cfg).unwrap_err().to_string();
    assert!(e.contains("STARTTLS"), "{e}");
}

/// `galloper serve` with its configuration in `d`, logging at info to `d/serve.log`.
fn spawn_serve(d: &Path) -> std::process::Child {
    std::process::Command::new(env!("CARGO_BIN_EXE_galloper"))
        .arg("serve")
        .arg("--config")
        .arg(d.join("galloper.yaml"))
        .env("RUST_LOG", "info")
        .stderr(std::fs::File::create(d.join("serve.log")).unwrap())
        .spawn()
        .expect("serve starts")
}

/// SIGTERM, then the time it took to exit cleanly.
fn terminate(mut child: std::process::Child) -> Duration {
    let st = std::process::Command::new("kill")
        .arg("-TERM")
        .arg(child.id().to_string())
        .status()
        .unwrap();
    assert!(st.success());
    let t0 = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "a clean stop: {status}");
            return t0.elapsed();
        }
        assert!(t0.elapsed() < Duration::from_secs(10), "serve did not stop");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn serve_config(d: &Path, imap_port: u16, smtp_port: u16) {
    let lab = maillab::lab();
    std::fs::write(d.join("imap-password"), "secret\n").unwrap();
    std::fs::write(
        d.join("galloper.yaml"),
        format!(
            "data: {data}\nclub_address: {club}\npoll_seconds: 60\n\
             imap: {{host: 127.0.0.1, port: {imap_port}, security: plain, user: {club}, password_file: {pw}, timeout_seconds: 5}}\n\
             smtp: {{host: 127.0.0.1, port: {smtp_port}, security: plain, timeout_seconds: 10}}\n",
            data = d.join("data").display(),
            club = lab.address("club"),
            pw = d.join("imap-password").display(),
        ),
    )
    .unwrap();
}

#[test]
fn serve_answers_mail_as_it_arrives_and_stops_at_once() {
    let lab = maillab::lab();
    let _turn = maillab::exclusive();
    clear(lab);
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    serve_config(d, lab.imap_port, lab.smtp_port);
    let child = spawn_serve(d);
    // Let the first batch pass: only IDLE can notice what comes next within
    // poll_seconds (60).
    std::thread::sleep(Duration::from_secs(2));
    let t0 = Instant::now();
    lab.send(
        &lab.address("alice"),
        &lab.address("club"),
        &plain_mail(
            &lab.address("alice"),
            &lab.address("club"),
            "serve-1@pbem.test",
        ),
    );
    let got = lab.wait_for("alice", 1, Duration::from_secs(20), |_| true);
    let took = t0.elapsed();
    let reply = MessageParser::default().parse(&got[0]).unwrap();
    assert_eq!(header(&reply, "In-Reply-To"), "<serve-1@pbem.test>");
    assert!(took < Duration::from_secs(20), "{took:?}");
    let stopped = terminate(child);
    assert!(stopped < Duration::from_secs(3), "stopped in {stopped:?}");
    let log = std::fs::read_to_string(d.join("serve.log")).unwrap();
    assert!(log.contains("imap message"), "{log}");
}

#[test]
fn serve_keeps_going_while_the_imap_server_is_unreachable() {
    let lab = maillab::lab();
    let _turn = maillab::exclusive();
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    serve_config(d, closed, lab.smtp_port);
    let mut child = spawn_serve(d);
    std::thread::sleep(Duration::from_secs(2));
    assert!(child.try_wait().unwrap().is_none(), "still serving");
    let stopped = terminate(child);
    assert!(stopped < Duration::from_secs(3), "stopped in {stopped:?}");
    let log = std::fs::read_to_string(d.join("serve.log")).unwrap();
    assert!(
        log.contains("IMAP unavailable") && log.contains("imap.host and imap.port"),
        "{log}"
    );
}

/// Issue 13, part 3: a processed mailbox written `Galloper/Done` works on
/// Dovecot, whose Maildir++ hierarchy delimiter is `.`: the name is asked
/// of the server and translated, the messages land in `.Galloper.Done`,
/// and one connection handles them all (no reconnect per message).
#[test]
fn a_processed_mailbox_with_levels_takes_the_servers_delimiter() {
    let lab = maillab::lab();
    let _turn = maillab::exclusive();
    clear(lab);
    let done = lab.maildir("club").join(".Galloper.Done");
    for sub in ["new", "cur", "tmp"] {
        for e in std::fs::read_dir(done.join(sub))
            .into_iter()
            .flatten()
            .flatten()
        {
            let _ = std::fs::remove_file(e.path());
        }
    }
    for n in 0..3 {
        lab.send(
            &lab.address("alice"),
            &lab.address("club"),
            &plain_mail(
                &lab.address("alice"),
                &lab.address("club"),
                &format!("levels-{n}@pbem.test"),
            ),
        );
    }
    lab.wait_for("club", 3, Duration::from_secs(20), |_| true);
    let mut imap = Imap::connect(&club(lab, &lab.password, Some("Galloper/Done"))).unwrap();
    let pending = imap.pending().unwrap();
    assert_eq!(pending.len(), 3);
    for p in &pending {
        imap.done(p.uid).unwrap();
    }
    assert_eq!(files_in(&lab.maildir("club")), 0, "the INBOX is empty");
    assert_eq!(files_in(&done), 3, "all three in {}", done.display());
    assert!(
        !lab.maildir("club").join(".Galloper/Done").exists(),
        "no mailbox named with a slash"
    );
}
