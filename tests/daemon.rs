//! The daemon without real servers: orders mailed into a Maildir, answered,
//! resolved, and every reply and report queued exactly once.

#[path = "support/smtp_sink.rs"]
mod smtp_sink;
use galloper::archive::sha256_hex;
use smtp_sink::smtp_sink;
#[path = "support/base64.rs"]
mod base64;

use base64::b64;
use galloper::daemon::config::Config;
use galloper::daemon::serve;
use galloper::mail::maildir::Maildir;
use galloper::server::PlayerSpec;
use galloper::side::SideId;
use galloper::sig;
use mail_parser::MimeHeaders;
use std::sync::atomic::AtomicBool;

/// A player's mail with the orders file and its signature attached.
fn mail(
    from: &str,
    to: &str,
    id: &str,
    name: &str,
    orders: &[u8],
    signature: &str,
    extra: &str,
) -> Vec<u8> {
    format!(
        "From: Player <{from}>\r\nTo: {to}\r\nSubject: my orders\r\nMessage-ID: <{id}>\r\nDate: Sun, 22 Nov 2026 10:00:00 +0000\r\n{extra}MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"XX\"\r\n\r\n--XX\r\nContent-Type: text/plain\r\n\r\nHere they are.\r\n--XX\r\nContent-Type: application/yaml; name=\"{name}\"\r\nContent-Disposition: attachment; filename=\"{name}\"\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n--XX\r\nContent-Type: application/octet-stream; name=\"{name}.sig\"\r\nContent-Disposition: attachment; filename=\"{name}.sig\"\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n--XX--\r\n",
        b64(orders),
        b64(signature.as_bytes())
    )
    .into_bytes()
}

#[test]
fn orders_by_mail_are_answered_resolved_and_reported_once() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let cfg_text = format!(
        "data: {}\nclub_address: club@pbem.test\nmaildir: {}\n",
        d.join("data").display(),
        d.join("Maildir").display()
    );
    std::fs::write(d.join("galloper.yaml"), cfg_text).unwrap();
    let cfg = Config::load(&d.join("galloper.yaml")).unwrap();
    let keys: Vec<(String, sig::KeyPair)> = ["french", "austrians"]
        .iter()
        .map(|s| (s.to_string(), sig::keygen(s).unwrap()))
        .collect();
    let mut server = serve::open(&cfg).unwrap();
    let players: Vec<PlayerSpec> = keys
        .iter()
        .map(|(s, k)| PlayerSpec {
            side: SideId::new(s.as_str()),
            email: format!("{s}@players.test"),
            public_key: k.public_line.clone(),
        })
        .collect();
    server
        .new_game("g1", galloper::demo::SCENARIO, &players)
        .unwrap();
    let md = Maildir::open(&d.join("Maildir")).unwrap();
    let mut raws = Vec::new();
    for (side, key) in &keys {
        let t = galloper::cli::template(&server, "g1", &SideId::new(side.as_str())).unwrap();
        let t = galloper::envelope::with_entropy(&t, &sha256_hex(b"cd"));
        let signature =
            sig::sign(&key.private_openssh, sig::ORDERS_NAMESPACE, t.as_bytes()).unwrap();
        let raw = mail(
            &format!("{side}@players.test"),
            "club+g1@pbem.test",
            &format!("{side}-1@players.test"),
            "deploy.yaml",
            t.as_bytes(),
            &signature,
            "",
        );
        md.deliver(&raw).unwrap();
        raws.push(raw);
    }
    // A forged copy (the French orders signed by the Austrian key), a bounce and an auto-reply.
    let t = galloper::envelope::with_entropy(
        &galloper::cli::template(&server, "g1", &SideId::new("french")).unwrap(),
        &sha256_hex(b"ef"),
    );
    let forged = sig::sign(
        &keys[1].1.private_openssh,
        sig::ORDERS_NAMESPACE,
        t.as_bytes(),
    )
    .unwrap();
    md.deliver(&mail(
        "mallory@evil.test",
        "club+g1@pbem.test",
        "forged@evil.test",
        "deploy.yaml",
        t.as_bytes(),
        &forged,
        "",
    ))
    .unwrap();
    md.deliver(&mail(
        "bot@players.test",
        "club@pbem.test",
        "ooo@players.test",
        "x.yaml",
        b"hello",
        "x",
        "Auto-Submitted: auto-replied\r\n",
    ))
    .unwrap();
    let stop = AtomicBool::new(false);
    let b = serve::batch(&mut server, &cfg, &stop).unwrap();
    assert_eq!(b.messages, 4);
    assert_eq!(b.steps, 1, "deployment resolved");
    let mails = server.store().mails().unwrap();
    let replies: Vec<_> = mails.iter().filter(|m| m.kind == "reply").collect();
    let reports: Vec<_> = mails.iter().filter(|m| m.kind == "report").collect();
    assert_eq!(
        replies.len(),
        3,
        "two acceptances and one refusal; no answer to the auto-reply"
    );
    assert_eq!(reports.len(), 2, "one report per side");
    let text =
        |m: &galloper::server::store::OutboxRow| String::from_utf8_lossy(&m.bytes).into_owned();
    assert!(
        replies
            .iter()
            .any(|m| m.recipients == vec!["french@players.test".to_string()]
                && text(m).contains("accepted"))
    );
    let body = |m: &galloper::server::store::OutboxRow| {
        mail_parser::MessageParser::default()
            .parse(&m.bytes)
            .and_then(|p| p.body_text(0).map(|t| t.into_owned()))
            .unwrap_or_default()
    };
    let forged_reply = replies
        .iter()
        .find(|m| m.recipients == vec!["mallory@evil.test".to_string()])
        .expect("the forger is answered");
    assert!(
        body(forged_reply).contains("another key"),
        "{}",
        body(forged_reply)
    );
    let parsed = mail_parser::MessageParser::default()
        .parse(&reports[0].bytes)
        .expect("a report parses");
    assert!(parsed.body_html(0).is_some() && parsed.body_text(0).is_some());
    assert!(
        parsed
            .attachments()
            .any(|a| a.is_content_type("image", "png"))
    );
    // The same messages delivered again change nothing.
    for raw in &raws {
        md.deliver(raw).unwrap();
    }
    let b = serve::batch(&mut server, &cfg, &stop).unwrap();
    assert_eq!(b.messages, 2);
    assert_eq!(
        server.store().mails().unwrap().len(),
        mails.len(),
        "duplicates are not answered twice"
    );
    assert!(md.pending().unwrap().is_empty());
    // A player asks for the game's status, and for his latest report again.
    let ask = |id: &str, subject: &str| {
        format!("From: <french@players.test>\r\nTo: club+g1@pbem.test\r\nSubject: {subject}\r\nMessage-ID: <{id}>\r\n\r\nplease\r\n").into_bytes()
    };
    md.deliver(&ask("ask-1@players.test", "status")).unwrap();
    md.deliver(&ask("ask-2@players.test", "report please"))
        .unwrap();
    let before = server.store().mails().unwrap().len();
    let b = serve::batch(&mut server, &cfg, &stop).unwrap();
    assert_eq!(b.messages, 2);
    let mails = server.store().mails().unwrap();
    let new: Vec<_> = mails[before..].iter().collect();
    let status = new
        .iter()
        .find(|m| m.kind == "reply" && body(m).contains("step 2"))
        .expect("a status reply");
    assert!(body(status).contains("still owed"), "{}", body(status));
    let again = new
        .iter()
        .find(|m| m.kind == "report-again")
        .expect("the report again");
    assert_eq!(again.recipients, vec!["french@players.test".to_string()]);
    assert!(String::from_utf8_lossy(&again.bytes).contains(&format!("<{}>", again.message_id)));
}

#[test]
fn queued_mail_survives_a_stopped_smtp_server_and_arrives_once() {
    use galloper::daemon::sender;
    use galloper::mail::smtp::{Security, Smtp, SmtpConfig};
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    // Take a free port, then close it: the server is "stopped".
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    std::fs::write(
        d.join("galloper.yaml"),
        format!(
            "data: {}\nclub_address: club@pbem.test\nsmtp: {{host: 127.0.0.1, port: {port}, security: plain, timeout_seconds: 5}}\n",
            d.join("data").display()
        ),
    )
    .unwrap();
    let cfg = Config::load(&d.join("galloper.yaml")).unwrap();
    let mut server = serve::open(&cfg).unwrap();
    let row = |n: u32| {
        galloper::server::store::OutboxRow {
        id: 0,
        message_id: format!("galloper.g1.{n}.french.report@pbem.test"),
        game: Some("g1".into()),
        step: Some(n),
        reader: Some("french".into()),
        kind: "report".into(),
        sender: "club@pbem.test".into(),
        recipients: vec!["french@players.test".into()],
        bytes: format!("Message-ID: <galloper.g1.{n}.french.report@pbem.test>\r\nSubject: report {n}\r\n\r\nstep {n}\r\n").into_bytes(),
        status: "queued".into(),
        attempts: 0,
        next_attempt: 1000,
        queued_at: 1000,
    }
    };
    server
        .store_mut()
        .queue_mails(&[row(1), row(2), row(2)])
        .unwrap();
    assert_eq!(
        server.store().mails().unwrap().len(),
        2,
        "the same Message-ID is queued once"
    );
    let smtp = Smtp::new(&SmtpConfig {
        host: "127.0.0.1".into(),
        port,
        security: Security::Plain,
        user: None,
        password: None,
        timeout_secs: 5,
    })
    .unwrap();
    let r = sender::drain(&mut server, &smtp, &cfg, 1000).unwrap();
    assert_eq!(
        (r.sent, r.retrying, r.failed),
        (0, 2, 0),
        "server down: both wait"
    );
    assert!(
        server.store().due_mails(1001).unwrap().is_empty(),
        "not before the backoff"
    );
    // The server comes back.
    let listener = std::net::TcpListener::bind(("127.0.0.1", port)).unwrap();
    let got = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    smtp_sink(listener, got.clone());
    let r = sender::drain(&mut server, &smtp, &cfg, 1000 + 3600).unwrap();
    assert_eq!(r.sent, 2);
    let r = sender::drain(&mut server, &smtp, &cfg, 1000 + 7200).unwrap();
    assert_eq!(r.sent, 0, "nothing is sent twice");
    let got = got.lock().unwrap();
    assert_eq!(got.len(), 2, "each arrived once");
    assert!(
        String::from_utf8_lossy(&got[0]).contains("report 1")
            && String::from_utf8_lossy(&got[1]).contains("report 2")
    );
}

#[test]
fn serve_stops_cleanly_on_sigterm() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    std::fs::write(
        d.join("galloper.yaml"),
        format!(
            "data: {}\nclub_address: club@pbem.test\nmaildir: {}\npoll_seconds: 1\n",
            d.join("data").display(),
            d.join("Maildir").display()
        ),
    )
    .unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_galloper"))
        .arg("serve")
        .arg("--config")
        .arg(d.join("galloper.yaml"))
        .spawn()
        .expect("serve starts");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    assert!(child.try_wait().unwrap().is_none(), "still serving");
    let st = std::process::Command::new("kill")
        .arg("-TERM")
        .arg(child.id().to_string())
        .status()
        .unwrap();
    assert!(st.success());
    let start = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "a clean stop: {status}");
            break;
        }
        assert!(start.elapsed().as_secs() < 10, "serve did not stop");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

#[test]
fn a_mail_that_cannot_go_out_in_time_is_given_up_and_the_game_master_told() {
    use galloper::daemon::sender;
    use galloper::mail::smtp::{Security, Smtp, SmtpConfig};
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    std::fs::write(
        d.join("galloper.yaml"),
        format!(
            "data: {}\nclub_address: club@pbem.test\ngame_master: gm@pbem.test\ngive_up_hours: 1\nsmtp: {{host: 127.0.0.1, port: {port}, security: plain}}\n",
            d.join("data").display()
        ),
    )
    .unwrap();
    let cfg = Config::load(&d.join("galloper.yaml")).unwrap();
    let mut server = serve::open(&cfg).unwrap();
    server
        .store_mut()
        .queue_mails(&[galloper::server::store::OutboxRow {
            id: 0,
            message_id: "m1@pbem.test".into(),
            game: Some("g1".into()),
            step: Some(3),
            reader: Some("french".into()),
            kind: "report".into(),
            sender: "club@pbem.test".into(),
            recipients: vec!["french@players.test".into()],
            bytes: b"Subject: x\r\n\r\nx\r\n".to_vec(),
            status: "queued".into(),
            attempts: 0,
            next_attempt: 0,
            queued_at: 0,
        }])
        .unwrap();
    let smtp = Smtp::new(&SmtpConfig {
        host: "127.0.0.1".into(),
        port,
        security: Security::Plain,
        user: None,
        password: None,
        timeout_secs: 5,
    })
    .unwrap();
    let r = sender::drain(&mut server, &smtp, &cfg, 3600).unwrap();
    assert_eq!(
        r.failed, 1,
        "an hour after queueing, with the server still down, it is given up"
    );
    let mails = server.store().mails().unwrap();
    assert_eq!(mails[0].status, "failed");
    let alert = mails
        .iter()
        .find(|m| m.kind == "alert")
        .expect("the game master is told");
    assert_eq!(alert.recipients, vec!["gm@pbem.test".to_string()]);
    assert!(String::from_utf8_lossy(&alert.bytes).contains("m1@pbem.test"));
}

#[test]
fn new_orders_replace_the_earlier_ones_and_the_reply_says_which() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    std::fs::write(
        d.join("galloper.yaml"),
        format!(
            "data: {}\nclub_address: club@pbem.test\nmaildir: {}\n",
            d.join("data").display(),
            d.join("Maildir").display()
        ),
    )
    .unwrap();
    let cfg = Config::load(&d.join("galloper.yaml")).unwrap();
    let keys: Vec<(String, sig::KeyPair)> = ["french", "austrians"]
        .iter()
        .map(|s| (s.to_string(), sig::keygen(s).unwrap()))
        .collect();
    let mut server = serve::open(&cfg).unwrap();
    let players: Vec<PlayerSpec> = keys
        .iter()
        .map(|(s, k)| PlayerSpec {
            side: SideId::new(s.as_str()),
            email: format!("{s}@players.test"),
            public_key: k.public_line.clone(),
        })
        .collect();
    server
        .new_game("g1", galloper::demo::SCENARIO, &players)
        .unwrap();
    let md = Maildir::open(&d.join("Maildir")).unwrap();
    let stop = AtomicBool::new(false);
    let mut hashes = Vec::new();
    // Two files from the French, in two messages with the same Date header:
    // the server's receipt order decides which one stands.
    for (n, entropy) in ["cd", "ab"].iter().enumerate() {
        let t = galloper::envelope::with_entropy(
            &galloper::cli::template(&server, "g1", &SideId::new("french")).unwrap(),
            &sha256_hex(entropy.as_bytes()),
        );
        // The second file replaces the first: it carries a higher revision.
        let t = galloper::envelope::with_field(&t, "revision", &(n + 1).to_string());
        hashes.push(galloper::archive::sha256_hex(t.as_bytes()));
        let signature = sig::sign(
            &keys[0].1.private_openssh,
            sig::ORDERS_NAMESPACE,
            t.as_bytes(),
        )
        .unwrap();
        md.deliver(&mail(
            "french@players.test",
            "club+g1@pbem.test",
            &format!("french-{n}@players.test"),
            "deploy.yaml",
            t.as_bytes(),
            &signature,
            "",
        ))
        .unwrap();
        serve::batch(&mut server, &cfg, &stop).unwrap();
    }
    let replies: Vec<String> = server
        .store()
        .mails()
        .unwrap()
        .iter()
        .filter(|m| m.kind == "reply")
        .map(|m| String::from_utf8_lossy(&m.bytes).replace("=\r\n", ""))
        .collect();
    assert_eq!(replies.len(), 2);
    assert!(!replies[0].contains("replaces"), "{}", replies[0]);
    assert!(
        replies[1].contains(&format!(
            "replaces the orders accepted before for this step (sha256 {})",
            hashes[0]
        )),
        "{}",
        replies[1]
    );
    let latest = server.store().latest_orders("g1", 1).unwrap();
    assert_eq!(latest[&SideId::new("french")].sha256, hashes[1]);
}
