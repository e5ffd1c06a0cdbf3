//! Outgoing mail: composed reports and replies read back with mail-parser, and
//! SMTP delivery against a tiny SMTP server on the loopback interface.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use galloper::mail::compose::{
    self, ComposeError, MAP_CID, Party, ReplyMail, ReportMail, Thread, message_id, thread_root,
};
use galloper::mail::smtp::{Security, SendError, Smtp, SmtpConfig, backoff, should_give_up};
use mail_parser::{HeaderValue, MessageParser, MessagePart, MimeHeaders, PartType};

const DOMAIN: &str = "club.example";

fn club() -> Party {
    Party {
        name: Some("Galloper club".into()),
        email: "club+waterloo@club.example".into(),
    }
}

fn player() -> Party {
    Party {
        name: Some("Maréchal Ney".into()),
        email: "ney@example.org".into(),
    }
}

/// A real PNG header followed by arbitrary bytes, including every byte value.
fn png() -> Vec<u8> {
    let mut v = b"\x89PNG\r\n\x1a\n".to_vec();
    v.extend(0u8..=255);
    v.extend(b"\r\n\n\r.\r\n");
    v
}

/// Orders template with bare LF line ends, a line starting with a dot and a
/// "From " line: exactly what relays like to rewrite.
const TEMPLATE: &[u8] =
    b"galloper: 1\ngame: waterloo\nstep: 4\n.dot line\nFrom the left\n  orders: []\n";

fn attachments() -> Vec<(String, Vec<u8>)> {
    vec![
        ("orders-template.yaml".into(), TEMPLATE.to_vec()),
        ("manifest.json".into(), b"{\"a\": 1}\r\n".to_vec()),
        ("secret.bin".into(), (0u8..=255).rev().collect()),
    ]
}

const TEXT: &str =
    "Step 4: the Imperial Guard advances.\nLine two — with a dash.\n.a line starting with a dot\n";
const HTML: &str = "<html><body><h1>Waterloo</h1><figure>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><g><svg x=\"1\"></svg></g><text>map</text></svg>\n<figcaption>Map</figcaption></figure><p>Turn report</p></body></html>";

fn report_mail<'a>(from: &'a Party, to: &'a Party, png: &'a [u8]) -> ReportMail<'a> {
    ReportMail {
        from,
        to,
        subject: "[waterloo] Step 4 — report for France".into(),
        message_id: message_id(DOMAIN, "waterloo", 4, "france", "report"),
        thread: Thread {
            root: thread_root(DOMAIN, "waterloo"),
            parent: Some(message_id(DOMAIN, "waterloo", 3, "france", "report")),
        },
        text: TEXT,
        html: HTML,
        png,
        attachments: attachments(),
        date: Some("Tue, 1 Jul 2025 10:00:00 +0200".into()),
    }
}

fn text_list(v: &HeaderValue) -> Vec<String> {
    match v {
        HeaderValue::Text(t) => vec![t.to_string()],
        HeaderValue::TextList(l) => l.iter().map(|t| t.to_string()).collect(),
        other => panic!("not a text header: {other:?}"),
    }
}

fn ctype(p: &MessagePart) -> String {
    let ct = p.content_type().expect("content type");
    format!("{}/{}", ct.ctype(), ct.subtype().unwrap_or(""))
}

fn children<'a>(msg: &'a mail_parser::Message<'a>, p: &MessagePart) -> Vec<&'a MessagePart<'a>> {
    match &p.body {
        PartType::Multipart(ids) => ids.iter().map(|&i| msg.part(i).expect("part")).collect(),
        _ => panic!("not multipart: {}", ctype(p)),
    }
}

fn raw_header(msg: &mail_parser::Message, name: &str) -> Option<String> {
    msg.header_raw(name).map(|v| v.trim().to_owned())
}

#[test]
fn report_has_text_html_inline_map_and_exact_attachments() {
    let (from, to, png) = (club(), player(), png());
    let m = report_mail(&from, &to, &png);
    let bytes = compose::report(&m).unwrap();
    let msg = MessageParser::default().parse(&bytes).expect("parses");

    // Headers.
    assert_eq!(
        msg.message_id(),
        Some("galloper.waterloo.4.france.report@club.example")
    );
    assert_eq!(
        text_list(msg.in_reply_to()),
        ["galloper.waterloo.3.france.report@club.example"]
    );
    assert_eq!(
        text_list(msg.references()),
        [
            "galloper.waterloo@club.example",
            "galloper.waterloo.3.france.report@club.example"
        ]
    );
    assert_eq!(msg.subject(), Some("[waterloo] Step 4 — report for France"));
    assert_eq!(
        raw_header(&msg, "Date").as_deref(),
        Some("Tue, 1 Jul 2025 10:00:00 +0200")
    );
    assert_eq!(
        raw_header(&msg, "Auto-Submitted").as_deref(),
        Some("auto-generated")
    );
    let to_addr = msg.to().and_then(|a| a.first()).expect("to");
    assert_eq!(to_addr.address(), Some("ney@example.org"));
    assert_eq!(to_addr.name(), Some("Maréchal Ney"));

    // Structure: mixed [ related [ alternative [text, html], png ], files... ].
    let root = msg.root_part();
    assert_eq!(ctype(root), "multipart/mixed");
    let top = children(&msg, root);
    assert_eq!(top.len(), 1 + 3);
    assert_eq!(ctype(top[0]), "multipart/related");
    let related = children(&msg, top[0]);
    assert_eq!(related.len(), 2);
    assert_eq!(ctype(related[0]), "multipart/alternative");
    let alt = children(&msg, related[0]);
    assert_eq!(
        alt.iter().map(|p| ctype(p)).collect::<Vec<_>>(),
        ["text/plain", "text/html"]
    );

    // Bodies.
    assert_eq!(msg.text_body_count(), 1);
    assert_eq!(msg.html_body_count(), 1);
    let text = msg.body_text(0).unwrap();
    assert_eq!(text.replace("\r\n", "\n"), TEXT);
    let html = msg.body_html(0).unwrap();
    assert!(html.contains("<img src=\"cid:map@galloper\""), "{html}");
    assert!(!html.contains("<svg"), "inline SVG replaced: {html}");
    assert!(html.contains("<figcaption>Map</figcaption>"));
    assert!(html.contains("<p>Turn report</p>"));

    // The map: inline, by Content-ID, byte-exact.
    let map = related[1];
    assert_eq!(ctype(map), "image/png");
    assert_eq!(map.content_id(), Some(MAP_CID));
    assert_eq!(map.content_disposition().map(|d| d.ctype()), Some("inline"));
    assert_eq!(map.content_transfer_encoding(), Some("base64"));
    assert_eq!(map.contents(), png.as_slice());

    // The files: attachments, base64, byte-exact.
    for ((name, content), part) in attachments().iter().zip(&top[1..]) {
        assert_eq!(part.attachment_name(), Some(name.as_str()));
        assert_eq!(
            part.content_disposition().map(|d| d.ctype()),
            Some("attachment")
        );
        assert_eq!(part.content_transfer_encoding(), Some("base64"), "{name}");
        assert_eq!(part.contents(), content.as_slice(), "{name}");
    }
    assert_eq!(ctype(top[1]), "application/yaml");
    assert_eq!(ctype(top[3]), "application/octet-stream");
}

#[test]
fn report_is_ascii_with_crlf_lines_only() {
    let (from, to, png) = (club(), player(), png());
    let bytes = compose::report(&report_mail(&from, &to, &png)).unwrap();
    assert!(bytes.is_ascii());
    assert!(bytes.ends_with(b"\r\n"));
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\n' {
            assert!(i > 0 && bytes[i - 1] == b'\r', "bare LF at byte {i}");
        }
        if b == b'\r' {
            assert_eq!(bytes.get(i + 1), Some(&b'\n'), "bare CR at byte {i}");
        }
    }
    for line in bytes.split(|&b| b == b'\n') {
        assert!(line.len() <= 998, "line too long for SMTP");
    }
}

#[test]
fn report_is_byte_identical_when_composed_again() {
    let (from, to, png) = (club(), player(), png());
    let first = compose::report(&report_mail(&from, &to, &png)).unwrap();
    let second = compose::report(&report_mail(&from, &to, &png)).unwrap();
    assert_eq!(first, second);

    // Another step gives other boundaries and ids, still deterministic.
    let mut other = report_mail(&from, &to, &png);
    other.message_id = message_id(DOMAIN, "waterloo", 5, "france", "report");
    let third = compose::report(&other).unwrap();
    assert_ne!(first, third);
    assert_eq!(third, compose::report(&other).unwrap());
}

#[test]
fn report_without_date_has_no_date_header() {
    let (from, to, png) = (club(), player(), png());
    let mut m = report_mail(&from, &to, &png);
    m.date = None;
    let bytes = compose::report(&m).unwrap();
    let msg = MessageParser::default().parse(&bytes).unwrap();
    assert_eq!(msg.header_raw("Date"), None);
    // No clock inside: composing later gives the same bytes.
    thread::sleep(Duration::from_millis(1100));
    assert_eq!(bytes, compose::report(&m).unwrap());
}

#[test]
fn report_without_parent_answers_the_thread_root() {
    let (from, to, png) = (club(), player(), png());
    let mut m = report_mail(&from, &to, &png);
    m.thread.parent = None;
    let bytes = compose::report(&m).unwrap();
    let msg = MessageParser::default().parse(&bytes).unwrap();
    assert_eq!(
        text_list(msg.in_reply_to()),
        ["galloper.waterloo@club.example"]
    );
    assert_eq!(
        text_list(msg.references()),
        ["galloper.waterloo@club.example"]
    );
}

#[test]
fn html_cid_reference_is_completed_or_added() {
    let (from, to, png) = (club(), player(), png());
    let html_of = |html: &str| {
        let mut m = report_mail(&from, &to, &png);
        m.html = html;
        let bytes = compose::report(&m).unwrap();
        let msg = MessageParser::default().parse(&bytes).unwrap();
        msg.body_html(0).unwrap().into_owned()
    };
    let short = html_of("<html><body><img src=\"cid:map\" alt=\"m\"></body></html>");
    assert_eq!(
        short,
        "<html><body><img src=\"cid:map@galloper\" alt=\"m\"></body></html>"
    );
    let full = "<html><body><img src=\"cid:map@galloper\"></body></html>";
    assert_eq!(html_of(full), full);
    let none = html_of("<html><body><p>x</p></body></html>");
    assert!(none.contains("<p>x</p>"));
    let img = none.find("cid:map@galloper").expect("image added");
    assert!(img < none.find("</body>").unwrap());
}

#[test]
fn report_refuses_bad_input() {
    let (from, to, png) = (club(), player(), png());

    let mut m = report_mail(&from, &to, &png);
    m.png = b"GIF89a";
    assert!(matches!(
        compose::report(&m),
        Err(ComposeError::NotPng { .. })
    ));

    let mut m = report_mail(&from, &to, &png);
    m.subject = "Report\r\nBcc: everyone@example.org".into();
    let err = compose::report(&m).unwrap_err();
    assert!(
        matches!(
            err,
            ComposeError::ControlCharacter {
                field: "Subject",
                ..
            }
        ),
        "{err}"
    );

    let mut m = report_mail(&from, &to, &png);
    m.message_id = "no-at-sign".into();
    assert!(matches!(
        compose::report(&m),
        Err(ComposeError::MessageId { .. })
    ));

    let mut m = report_mail(&from, &to, &png);
    m.thread.root = "a b@c".into();
    assert!(matches!(
        compose::report(&m),
        Err(ComposeError::MessageId { .. })
    ));

    let mut m = report_mail(&from, &to, &png);
    m.date = Some("yesterday".into());
    let err = compose::report(&m).unwrap_err();
    assert!(matches!(err, ComposeError::Date { .. }));
    assert!(err.to_string().contains("yesterday"));

    let mut m = report_mail(&from, &to, &png);
    m.attachments.push(("../etc/passwd".into(), vec![1]));
    assert!(matches!(
        compose::report(&m),
        Err(ComposeError::AttachmentName { .. })
    ));

    let bad = Party {
        name: None,
        email: "not an address".into(),
    };
    let m = report_mail(&from, &bad, &png);
    let err = compose::report(&m).unwrap_err();
    assert!(
        matches!(err, ComposeError::Address { field: "To", .. }),
        "{err}"
    );
}

#[test]
fn message_ids_are_stable_and_well_formed() {
    assert_eq!(
        message_id("club.example", "waterloo", 12, "france", "reply-0a1b2c3d"),
        "galloper.waterloo.12.france.reply-0a1b2c3d@club.example"
    );
    assert_eq!(
        thread_root("club.example", "waterloo"),
        "galloper.waterloo@club.example"
    );
    // Dots, spaces and '@' in names cannot break the id or make two ids meet.
    let odd = message_id("club.example", "a.b", 1, "x y@z", "report");
    assert_eq!(odd, "galloper.a=2Eb.1.x=20y=40z.report@club.example");
    assert_ne!(
        message_id("d", "a.b", 1, "c", "report"),
        message_id("d", "a", 1, "b.c", "report")
    );
    assert_eq!(odd.matches('@').count(), 1);
}

fn reply_mail<'a>(from: &'a Party, to: &'a Party) -> ReplyMail<'a> {
    ReplyMail {
        from,
        to,
        subject: "Re: [waterloo] orders for step 4".into(),
        message_id: message_id(DOMAIN, "waterloo", 4, "france", "reply-0a1b2c3d"),
        in_reply_to: Some("CAF123.abc@mail.example.org".into()),
        thread: Some(Thread {
            root: thread_root(DOMAIN, "waterloo"),
            parent: None,
        }),
        text: "Orders accepted.\nSHA-256: 0a1b2c3d\n".into(),
        date: Some("Tue, 1 Jul 2025 10:00:00 +0000".into()),
    }
}

#[test]
fn reply_is_plain_text_and_marked_auto_replied() {
    let (from, to) = (club(), player());
    let bytes = compose::reply(&reply_mail(&from, &to)).unwrap();
    let msg = MessageParser::default().parse(&bytes).unwrap();
    assert_eq!(ctype(msg.root_part()), "text/plain");
    assert_eq!(msg.text_body_count(), 1);
    assert_eq!(msg.attachment_count(), 0);
    assert_eq!(
        msg.body_text(0).unwrap().replace("\r\n", "\n"),
        "Orders accepted.\nSHA-256: 0a1b2c3d\n"
    );
    assert_eq!(
        text_list(msg.in_reply_to()),
        ["CAF123.abc@mail.example.org"]
    );
    assert_eq!(
        text_list(msg.references()),
        [
            "galloper.waterloo@club.example",
            "CAF123.abc@mail.example.org"
        ]
    );
    assert_eq!(
        raw_header(&msg, "Auto-Submitted").as_deref(),
        Some("auto-replied")
    );
    assert_eq!(
        msg.message_id(),
        Some("galloper.waterloo.4.france.reply-0a1b2c3d@club.example")
    );
    assert_eq!(msg.subject(), Some("Re: [waterloo] orders for step 4"));
    assert_eq!(bytes, compose::reply(&reply_mail(&from, &to)).unwrap());
}

#[test]
fn reply_to_unrouted_mail_without_message_id() {
    let (from, to) = (club(), player());
    let mut m = reply_mail(&from, &to);
    m.in_reply_to = None;
    m.thread = None;
    m.date = None;
    let bytes = compose::reply(&m).unwrap();
    let msg = MessageParser::default().parse(&bytes).unwrap();
    assert!(msg.in_reply_to().is_empty());
    assert!(msg.references().is_empty());
    assert_eq!(
        raw_header(&msg, "Auto-Submitted").as_deref(),
        Some("auto-replied")
    );
}

// ---------------------------------------------------------------- SMTP

/// What the test server received in one transaction.
#[derive(Debug)]
struct Received {
    mail_from: String,
    rcpt_to: Vec<String>,
    data: Vec<u8>,
}

/// Starts an SMTP server on 127.0.0.1 that answers `mail_reply` to MAIL and
/// reports each complete transaction on the channel.
fn server(mail_reply: &'static str) -> (u16, mpsc::Receiver<Received>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { return };
            if serve(stream, mail_reply, &tx).is_err() {
                return;
            }
        }
    });
    (port, rx)
}

fn serve(stream: TcpStream, mail_reply: &str, tx: &mpsc::Sender<Received>) -> std::io::Result<()> {
    let mut out = stream.try_clone()?;
    let mut input = BufReader::new(stream);
    out.write_all(b"220 test.local ESMTP\r\n")?;
    let mut from = String::new();
    let mut rcpt = Vec::new();
    loop {
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let upper = line.to_ascii_uppercase();
        let reply: &str = if upper.starts_with("EHLO") || upper.starts_with("HELO") {
            "250-test.local\r\n250 8BITMIME\r\n"
        } else if upper.starts_with("MAIL FROM:") {
            from = angle(&line);
            mail_reply
        } else if upper.starts_with("RCPT TO:") {
            rcpt.push(angle(&line));
            "250 2.1.5 ok\r\n"
        } else if upper.starts_with("DATA") {
            out.write_all(b"354 go ahead\r\n")?;
            let mut data = Vec::new();
            loop {
                let mut l = Vec::new();
                if input.read_until(b'\n', &mut l)? == 0 {
                    return Ok(());
                }
                if l == b".\r\n" {
                    break;
                }
                // Undo dot-stuffing.
                let l = if l.starts_with(b".") { &l[1..] } else { &l[..] };
                data.extend_from_slice(l);
            }
            let _ = tx.send(Received {
                mail_from: std::mem::take(&mut from),
                rcpt_to: std::mem::take(&mut rcpt),
                data,
            });
            "250 2.0.0 queued\r\n"
        } else if upper.starts_with("QUIT") {
            out.write_all(b"221 bye\r\n")?;
            return Ok(());
        } else if upper.starts_with("RSET") || upper.starts_with("NOOP") {
            "250 ok\r\n"
        } else {
            "502 not implemented\r\n"
        };
        out.write_all(reply.as_bytes())?;
    }
}

fn angle(line: &str) -> String {
    let start = line.find('<').map_or(0, |i| i + 1);
    let end = line[start..].find('>').map_or(line.len(), |i| start + i);
    line[start..end].to_owned()
}

fn config(port: u16) -> SmtpConfig {
    SmtpConfig {
        host: "127.0.0.1".into(),
        port,
        security: Security::Plain,
        user: None,
        password: None,
        timeout_secs: 5,
    }
}

#[test]
fn send_raw_delivers_the_stored_bytes_with_the_envelope() {
    let (port, rx) = server("250 2.1.0 ok\r\n");
    let smtp = Smtp::new(&config(port)).unwrap();
    let (from, to, png) = (club(), player(), png());
    let stored = compose::report(&report_mail(&from, &to, &png)).unwrap();
    let rcpt = vec![
        "ney@example.org".to_owned(),
        "umpire@example.org".to_owned(),
    ];
    smtp.send_raw("bounces@club.example", &rcpt, &stored)
        .unwrap();
    let got = rx.recv_timeout(Duration::from_secs(10)).unwrap();
    assert_eq!(got.mail_from, "bounces@club.example");
    assert_eq!(got.rcpt_to, rcpt);
    assert_eq!(got.data, stored);

    // Lines starting with a dot survive dot-stuffing.
    let raw = b"Subject: dots\r\n\r\n.\r\n..two\r\n.three\r\nend\r\n".to_vec();
    smtp.send_raw("", &["a@example.org".to_owned()], &raw)
        .unwrap();
    let got = rx.recv_timeout(Duration::from_secs(10)).unwrap();
    assert_eq!(got.mail_from, "", "null return path");
    assert_eq!(got.data, raw);
}

#[test]
fn temporary_refusal_is_transient() {
    let (port, _rx) = server("451 4.3.0 try again later\r\n");
    let smtp = Smtp::new(&config(port)).unwrap();
    let err = smtp
        .send_raw(
            "club@club.example",
            &["a@example.org".into()],
            b"Subject: x\r\n\r\nx\r\n",
        )
        .unwrap_err();
    assert!(matches!(err, SendError::Transient(_)), "{err:?}");
    assert!(err.to_string().contains("451"), "{err}");
}

#[test]
fn permanent_refusal_is_permanent() {
    let (port, _rx) = server("550 5.7.1 not allowed\r\n");
    let smtp = Smtp::new(&config(port)).unwrap();
    let err = smtp
        .send_raw(
            "club@club.example",
            &["a@example.org".into()],
            b"Subject: x\r\n\r\nx\r\n",
        )
        .unwrap_err();
    assert!(matches!(err, SendError::Permanent(_)), "{err:?}");
    assert!(err.to_string().contains("550"), "{err}");
}

#[test]
fn closed_port_is_transient() {
    let port = {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let smtp = Smtp::new(&config(port)).unwrap();
    let err = smtp
        .send_raw(
            "club@club.example",
            &["a@example.org".into()],
            b"Subject: x\r\n\r\nx\r\n",
        )
        .unwrap_err();
    assert!(matches!(err, SendError::Transient(_)), "{err:?}");
}

#[test]
fn bad_envelope_and_config_are_permanent() {
    let smtp = Smtp::new(&config(1)).unwrap();
    let bytes = b"Subject: x\r\n\r\nx\r\n";
    let err = smtp
        .send_raw("not an address", &["a@example.org".into()], bytes)
        .unwrap_err();
    assert!(matches!(err, SendError::Permanent(_)), "{err:?}");
    let err = smtp.send_raw("club@club.example", &[], bytes).unwrap_err();
    assert!(matches!(err, SendError::Permanent(_)), "{err:?}");

    let mut cfg = config(25);
    cfg.user = Some("club".into());
    assert!(matches!(Smtp::new(&cfg), Err(SendError::Permanent(_))));
    let mut cfg = config(25);
    cfg.timeout_secs = 0;
    assert!(matches!(Smtp::new(&cfg), Err(SendError::Permanent(_))));
}

#[test]
fn tls_transports_build_without_connecting() {
    for security in [Security::StartTls, Security::Tls] {
        let cfg = SmtpConfig {
            host: "smtp.example.org".into(),
            port: 587,
            security,
            user: Some("club".into()),
            password: Some("secret".into()),
            timeout_secs: 30,
        };
        Smtp::new(&cfg).unwrap();
        assert!(
            !format!("{cfg:?}").contains("secret"),
            "password kept out of logs"
        );
    }
}

#[test]
fn backoff_doubles_from_thirty_seconds_up_to_an_hour() {
    assert_eq!(backoff(0), Duration::ZERO);
    assert_eq!(backoff(1), Duration::from_secs(30));
    assert_eq!(backoff(2), Duration::from_secs(60));
    assert_eq!(backoff(3), Duration::from_secs(120));
    assert_eq!(backoff(7), Duration::from_secs(1920));
    assert_eq!(backoff(8), Duration::from_secs(3600));
    let mut last = Duration::ZERO;
    for n in (0..200).chain([u32::MAX - 1, u32::MAX]) {
        let d = backoff(n);
        assert!(d >= last, "monotone at {n}");
        assert!(d <= Duration::from_secs(3600), "capped at {n}");
        assert_eq!(d, backoff(n), "deterministic");
        last = d;
    }
    assert_eq!(backoff(u32::MAX), Duration::from_secs(3600));
}

#[test]
fn give_up_once_the_age_limit_is_reached() {
    let day = 86_400;
    assert!(!should_give_up(0, day));
    assert!(!should_give_up(day - 1, day));
    assert!(should_give_up(day, day));
    assert!(should_give_up(day + 1, day));
    assert!(should_give_up(u64::MAX, day));
}

#[test]
fn security_reads_from_config_names() {
    let cfg: SmtpConfig = galloper::yaml::from_str(
        "host: mail.example.org\nport: 587\nsecurity: starttls\ntimeout_secs: 30\n",
    )
    .unwrap();
    assert_eq!(cfg.security, Security::StartTls);
    assert_eq!(cfg.user, None);
}

#[test]
fn a_reply_with_files_carries_each_byte_for_byte_and_is_stable() {
    let (from, to) = (club(), player());
    let m = reply_mail(&from, &to);
    let files = attachments();
    let bytes = compose::reply_with_files(&m, &files).unwrap();
    let msg = MessageParser::default().parse(&bytes).unwrap();
    assert_eq!(ctype(msg.root_part()), "multipart/mixed");
    assert_eq!(
        msg.body_text(0).unwrap().replace("\r\n", "\n"),
        "Orders accepted.\nSHA-256: 0a1b2c3d\n"
    );
    let got: Vec<(String, Vec<u8>)> = msg
        .attachments()
        .map(|a| {
            (
                a.attachment_name().unwrap().to_string(),
                a.contents().to_vec(),
            )
        })
        .collect();
    assert_eq!(got, files, "every file, in order, byte for byte");
    assert!(bytes.is_ascii(), "base64 keeps the message ASCII");
    assert_eq!(
        raw_header(&msg, "Auto-Submitted").as_deref(),
        Some("auto-replied")
    );
    assert_eq!(
        text_list(msg.references()),
        [
            "galloper.waterloo@club.example",
            "CAF123.abc@mail.example.org"
        ]
    );
    assert_eq!(bytes, compose::reply_with_files(&m, &files).unwrap());
    let bad = vec![("../notice.yaml".to_string(), b"x".to_vec())];
    assert!(matches!(
        compose::reply_with_files(&m, &bad),
        Err(ComposeError::AttachmentName { .. })
    ));
}
