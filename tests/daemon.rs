//! The daemon without real servers: orders mailed into a Maildir, answered,
//! resolved, and every reply and report queued exactly once.

use galloper::daemon::config::Config;
use galloper::daemon::serve;
use galloper::game::PlayerSpec;
use galloper::mail::maildir::Maildir;
use galloper::side::SideId;
use galloper::sig;
use mail_parser::MimeHeaders;
use std::sync::atomic::AtomicBool;

fn b64(bytes: &[u8]) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(T[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out.as_bytes()
        .chunks(76)
        .map(|l| String::from_utf8_lossy(l).into_owned())
        .collect::<Vec<_>>()
        .join("\r\n")
}

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
        let t = galloper::envelope::with_entropy(&t, &"cd".repeat(32));
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
        &"ef".repeat(32),
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
        |m: &galloper::game::store::OutboxRow| String::from_utf8_lossy(&m.bytes).into_owned();
    assert!(
        replies
            .iter()
            .any(|m| m.recipients == vec!["french@players.test".to_string()]
                && text(m).contains("accepted"))
    );
    let body = |m: &galloper::game::store::OutboxRow| {
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
}
