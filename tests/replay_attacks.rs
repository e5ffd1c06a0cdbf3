//! Issue 12, items 6 and 7, played: signed orders replayed into a new game
//! that reuses the id with the same players' keys, an older signed file
//! mailed to replace a newer one, from any address, and the registered
//! address told whenever orders come from another.

#[path = "support/base64.rs"]
mod base64;

use base64::b64;
use galloper::archive::sha256_hex;
use galloper::daemon::config::Config;
use galloper::daemon::{intake, serve};
use galloper::envelope;
use galloper::server::{PlayerSpec, Refusal, Server};
use galloper::side::SideId;
use galloper::sig::{self, KeyPair};

const SCENARIO: &str = galloper::demo::SCENARIO;
const NOW: i64 = 1_795_000_000;
const DATE: &str = "Sun, 22 Nov 2026 10:00:00 +0000";

fn keys() -> Vec<(String, KeyPair)> {
    ["french", "austrians"]
        .iter()
        .map(|s| (s.to_string(), sig::keygen(s).unwrap()))
        .collect()
}

fn players(keys: &[(String, KeyPair)]) -> Vec<PlayerSpec> {
    keys.iter()
        .map(|(s, k)| PlayerSpec {
            side: SideId::new(s.as_str()),
            email: format!("{s}@players.test"),
            public_key: k.public_line.clone(),
        })
        .collect()
}

/// The side's template, with `entropy` and `revision`, and its signature.
fn signed(
    server: &Server,
    key: &KeyPair,
    side: &str,
    entropy: &str,
    revision: u32,
) -> (String, String) {
    let t = galloper::cli::template(server, "g1", &SideId::new(side)).unwrap();
    let t = envelope::with_entropy(&t, &sha256_hex(entropy.as_bytes()));
    let t = envelope::with_field(&t, "revision", &revision.to_string());
    let s = sig::sign(&key.private_openssh, sig::ORDERS_NAMESPACE, t.as_bytes()).unwrap();
    (t, s)
}

#[test]
fn orders_from_an_old_game_under_the_same_id_and_keys_are_refused() {
    let keys = keys();
    // The first game: both deployments accepted and resolved; their signed
    // files are what its archive publishes once sealed.
    let old_dir = tempfile::tempdir().unwrap();
    let mut old = Server::open(old_dir.path()).unwrap();
    old.new_game("g1", SCENARIO, &players(&keys)).unwrap();
    let mut published = Vec::new();
    for (side, key) in &keys {
        let (t, s) = signed(&old, key, side, "ab", 1);
        old.submit("deploy.yaml", t.as_bytes(), &s).unwrap();
        published.push((side.clone(), t, s));
    }
    assert_eq!(old.process(&old_dir.path().join("out")).unwrap().len(), 1);

    // A new game that reuses the id, the scenario and the players' keys.
    let new_dir = tempfile::tempdir().unwrap();
    let mut new = Server::open(new_dir.path()).unwrap();
    new.new_game("g1", SCENARIO, &players(&keys)).unwrap();
    let (open, _) = new.due("g1").unwrap().unwrap();
    let expected = envelope::notice_sha256(&open.notice);
    let published_notice =
        std::fs::read_to_string(new.archive_dir("g1").join("step-0001").join("notice.yaml"))
            .unwrap();
    assert_eq!(envelope::notice_sha256(&published_notice), expected);
    for (side, t, s) in &published {
        match new.submit("deploy.yaml", t.as_bytes(), s) {
            Err(Refusal::Notice(p)) => {
                let msg = p.to_string();
                assert!(msg.contains(&format!("notice: {expected}")), "{msg}");
                let line = t
                    .lines()
                    .position(|l| l.starts_with("notice:"))
                    .map(|i| i + 1);
                assert_eq!(p.line, line, "the line of `notice:`: {msg}");
            }
            other => panic!("{side}'s replayed orders: {other:?}"),
        }
    }
    assert!(new.store().latest_orders("g1", 1).unwrap().is_empty());
    assert!(new.process(&new_dir.path().join("out")).unwrap().is_empty());

    // Without a notice line at all, the refusal says what to add.
    let (t, _) = signed(&new, &keys[0].1, "french", "cd", 1);
    let bare: String = t
        .lines()
        .filter(|l| !l.starts_with("notice:"))
        .map(|l| format!("{l}\n"))
        .collect();
    let s = sig::sign(
        &keys[0].1.private_openssh,
        sig::ORDERS_NAMESPACE,
        bare.as_bytes(),
    )
    .unwrap();
    let e = new.submit("deploy.yaml", bare.as_bytes(), &s).unwrap_err();
    assert!(
        e.to_string()
            .contains(&format!("add the line `notice: {expected}`")),
        "{e}"
    );
    // And the template's own file is taken.
    let (t, s) = signed(&new, &keys[0].1, "french", "cd", 1);
    new.submit("deploy.yaml", t.as_bytes(), &s).unwrap();
}

fn club() -> (tempfile::TempDir, Config, Server, Vec<(String, KeyPair)>) {
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
    let keys = keys();
    let mut server = serve::open(&cfg).unwrap();
    server.new_game("g1", SCENARIO, &players(&keys)).unwrap();
    (tmp, cfg, server, keys)
}

fn mail(from: &str, id: &str, files: &[(&str, &str)]) -> Vec<u8> {
    let mut m = format!(
        "From: <{from}>\r\nTo: club+g1@pbem.test\r\nSubject: orders\r\nMessage-ID: <{id}>\r\nDate: {DATE}\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"XX\"\r\n\r\n--XX\r\nContent-Type: text/plain\r\n\r\nOrders.\r\n"
    );
    for (name, bytes) in files {
        m.push_str(&format!(
            "--XX\r\nContent-Type: application/octet-stream; name=\"{name}\"\r\nContent-Disposition: attachment; filename=\"{name}\"\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n",
            b64(bytes.as_bytes())
        ));
    }
    m.push_str("--XX--\r\n");
    m.into_bytes()
}

fn latest(server: &Server, side: &str) -> String {
    server
        .store()
        .latest_sha256("g1", 1, &SideId::new(side))
        .unwrap()
        .unwrap_or_default()
}

fn sha(text: &str) -> String {
    galloper::archive::sha256_hex(text.as_bytes())
}

#[test]
fn an_older_signed_file_never_replaces_a_newer_one() {
    let (_tmp, cfg, mut server, keys) = club();
    let fr = &keys[0].1;
    let handle =
        |server: &mut Server, raw: Vec<u8>| intake::handle(server, &cfg, &raw, NOW, DATE).unwrap();
    let (v1, s1) = signed(&server, fr, "french", "01", 1);
    let (v2, s2) = signed(&server, fr, "french", "02", 2);
    let f = "french@players.test";
    let h = handle(
        &mut server,
        mail(f, "v1@p", &[("o.yaml", &v1), ("o.yaml.sig", &s1)]),
    );
    assert_eq!(h.outcome, "accepted", "{}", h.detail);
    let h = handle(
        &mut server,
        mail(f, "v2@p", &[("o.yaml", &v2), ("o.yaml.sig", &s2)]),
    );
    assert_eq!(h.outcome, "accepted", "{}", h.detail);
    assert_eq!(latest(&server, "french"), sha(&v2));

    // Mallory kept the first file and mails it again, from his own address.
    let h = handle(
        &mut server,
        mail(
            "mallory@evil.test",
            "old@e",
            &[("o.yaml", &v1), ("o.yaml.sig", &s1)],
        ),
    );
    assert_eq!(h.outcome, "refused", "{}", h.detail);
    assert!(h.detail.contains("has been replaced since"), "{}", h.detail);
    assert_eq!(latest(&server, "french"), sha(&v2));
    // A file never accepted, signed before the newest with a lower revision.
    let (v1b, s1b) = signed(&server, fr, "french", "0b", 1);
    let h = handle(
        &mut server,
        mail(
            "mallory@evil.test",
            "low@e",
            &[("o.yaml", &v1b), ("o.yaml.sig", &s1b)],
        ),
    );
    assert_eq!(h.outcome, "refused", "{}", h.detail);
    assert!(
        h.detail.contains("revision 1 is not above revision 2")
            && h.detail.contains("put `revision: 3`"),
        "{}",
        h.detail
    );
    // The newest file again, and both files in one message, newest first.
    let h = handle(
        &mut server,
        mail(
            "mallory@evil.test",
            "same@e",
            &[("o.yaml", &v2), ("o.yaml.sig", &s2)],
        ),
    );
    assert!(
        h.detail.contains("already the accepted orders"),
        "{}",
        h.detail
    );
    let (v3, s3) = signed(&server, fr, "french", "03", 3);
    let (v4, s4) = signed(&server, fr, "french", "04", 4);
    let h = handle(
        &mut server,
        mail(
            f,
            "both@p",
            &[
                ("a.yaml", &v4),
                ("a.yaml.sig", &s4),
                ("b.yaml", &v3),
                ("b.yaml.sig", &s3),
            ],
        ),
    );
    assert!(h.detail.contains("a.yaml: accepted"), "{}", h.detail);
    assert!(
        h.detail.contains("b.yaml: refused: ")
            && h.detail.contains("revision 3 is not above revision 4"),
        "{}",
        h.detail
    );
    assert_eq!(latest(&server, "french"), sha(&v4));
    // Nothing of Mallory's reached the registered address: no copies.
    let copies: Vec<_> = server
        .store()
        .mails()
        .unwrap()
        .into_iter()
        .filter(|m| m.kind == "orders-copy")
        .collect();
    assert!(copies.is_empty());
}

#[test]
fn orders_accepted_from_another_address_are_told_to_the_registered_one() {
    let (_tmp, cfg, mut server, keys) = club();
    let (v1, s1) = signed(&server, &keys[0].1, "french", "01", 1);
    let raw = mail(
        "mallory@evil.test",
        "fwd@e",
        &[("o.yaml", &v1), ("o.yaml.sig", &s1)],
    );
    let h = intake::handle(&mut server, &cfg, &raw, NOW, DATE).unwrap();
    assert_eq!(h.outcome, "accepted", "{}", h.detail);
    let mails = server.store().mails().unwrap();
    let reply: Vec<_> = mails.iter().filter(|m| m.kind == "reply").collect();
    assert_eq!(reply.len(), 1);
    assert_eq!(reply[0].recipients, vec!["mallory@evil.test".to_string()]);
    let copies: Vec<_> = mails.iter().filter(|m| m.kind == "orders-copy").collect();
    assert_eq!(copies.len(), 1, "one copy to the registered address");
    assert_eq!(
        copies[0].recipients,
        vec!["french@players.test".to_string()]
    );
    let text = mail_parser::MessageParser::default()
        .parse(&copies[0].bytes)
        .and_then(|p| p.body_text(0).map(|t| t.into_owned()))
        .unwrap_or_default();
    assert!(text.contains("mallory@evil.test"), "{text}");
    assert!(text.contains(&sha(&v1)), "{text}");
    // From the registered address itself, no copy.
    let (v2, s2) = signed(&server, &keys[0].1, "french", "02", 2);
    let raw = mail(
        "french@players.test",
        "own@p",
        &[("o.yaml", &v2), ("o.yaml.sig", &s2)],
    );
    let h = intake::handle(&mut server, &cfg, &raw, NOW, DATE).unwrap();
    assert_eq!(h.outcome, "accepted", "{}", h.detail);
    let copies = server
        .store()
        .mails()
        .unwrap()
        .into_iter()
        .filter(|m| m.kind == "orders-copy")
        .count();
    assert_eq!(copies, 1);
}

fn galloper(data: &std::path::Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_galloper"))
        .arg("--data")
        .arg(data)
        .args(args)
        .output()
        .expect("galloper runs")
}

#[test]
fn sign_fills_in_the_notice_from_the_notice_file_or_the_data_folder_and_checks_it() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let keys = keys();
    let data = d.join("data");
    let mut server = Server::open(&data).unwrap();
    server.new_game("g1", SCENARIO, &players(&keys)).unwrap();
    let template = galloper::cli::template(&server, "g1", &SideId::new("french")).unwrap();
    drop(server);
    let expected = envelope::field(&template, "notice").unwrap().to_string();
    let bare: String = template
        .lines()
        .filter(|l| !l.starts_with("notice:") && !l.starts_with("revision:"))
        .map(|l| format!("{l}\n"))
        .collect();
    let key = d.join("french_key");
    std::fs::write(&key, &keys[0].1.private_openssh).unwrap();
    let file = d.join("orders.yaml");
    let k = key.to_string_lossy().to_string();
    let f = file.to_string_lossy().to_string();
    // Far from the server's data, with no notice: refused, saying what to do.
    std::fs::write(&file, &bare).unwrap();
    let nowhere = d.join("nowhere");
    let o = galloper(&nowhere, &["sign", &f, "--key", &k]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("names no notice") && err.contains("--notice"),
        "{err}"
    );
    assert!(!nowhere.exists(), "signing never creates a data folder");
    // With the step's notice from the archive.
    let notice = data.join("archive/g1/step-0001/notice.yaml");
    let o = galloper(
        &nowhere,
        &[
            "sign",
            &f,
            "--key",
            &k,
            "--notice",
            &notice.to_string_lossy(),
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let signed = std::fs::read_to_string(&file).unwrap();
    assert_eq!(envelope::field(&signed, "notice"), Some(expected.as_str()));
    assert_eq!(envelope::field(&signed, "revision"), Some("1"));
    // From the data folder that holds the game.
    std::fs::write(&file, &bare).unwrap();
    let o = galloper(&data, &["sign", &f, "--key", &k]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let signed = std::fs::read_to_string(&file).unwrap();
    assert_eq!(envelope::field(&signed, "notice"), Some(expected.as_str()));
    let sig_text = std::fs::read_to_string(d.join("orders.yaml.sig")).unwrap();
    let mut server = Server::open(&data).unwrap();
    server
        .submit("orders.yaml", signed.as_bytes(), &sig_text)
        .unwrap();
    drop(server);
    // A notice line that disagrees with the notice given is not signed.
    std::fs::write(
        &file,
        envelope::with_field(&bare, "notice", &"0".repeat(64)),
    )
    .unwrap();
    let o = galloper(
        &nowhere,
        &[
            "sign",
            &f,
            "--key",
            &k,
            "--notice",
            &notice.to_string_lossy(),
        ],
    );
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(&format!("put `notice: {expected}`")), "{err}");
}

/// The stamps (`notice:` and `revision:`) the store keeps beside each file,
/// in a separate connection, as an operator or an older galloper would.
fn stamps(data: &std::path::Path, sql: &str) -> Vec<(i64, Option<String>, Option<u32>)> {
    let db = rusqlite::Connection::open(data.join("galloper.db")).unwrap();
    db.execute_batch(sql).unwrap();
    let mut st = match db.prepare("SELECT seq, notice, revision FROM envelopes ORDER BY seq") {
        Ok(st) => st,
        Err(_) => return Vec::new(),
    };
    st.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

#[test]
fn a_store_from_before_the_stamps_still_refuses_an_older_revision() {
    let keys = keys();
    let dir = tempfile::tempdir().unwrap();
    let fr = &keys[0].1;
    let (older, expected) = {
        let mut server = Server::open(dir.path()).unwrap();
        server.new_game("g1", SCENARIO, &players(&keys)).unwrap();
        let (v1, s1) = signed(&server, fr, "french", "01", 1);
        let (v3, s3) = signed(&server, fr, "french", "03", 3);
        server.submit("o.yaml", v1.as_bytes(), &s1).unwrap();
        server.submit("o.yaml", v3.as_bytes(), &s3).unwrap();
        let (open, _) = server.due("g1").unwrap().unwrap();
        (
            signed(&server, fr, "french", "02", 2),
            envelope::notice_sha256(&open.notice),
        )
    };
    // The store as a galloper before the stamps left it.
    assert!(stamps(dir.path(), "DROP TABLE envelopes").is_empty());
    let mut server = Server::open(dir.path()).unwrap();
    // Opening it read both files once for their stamps.
    assert_eq!(
        stamps(dir.path(), ""),
        vec![
            (1, Some(expected.clone()), Some(1)),
            (2, Some(expected.clone()), Some(3))
        ]
    );
    let refused = |server: &mut Server| match server.submit("o.yaml", older.0.as_bytes(), &older.1)
    {
        Err(Refusal::Superseded(p)) => {
            assert!(
                p.to_string().contains("revision 2 is not above revision 3"),
                "{p}"
            )
        }
        other => panic!("an older revision: {other:?}"),
    };
    refused(&mut server);
    assert_eq!(
        server.next_revision("g1", &SideId::new("french")).unwrap(),
        4
    );
    // Stamps missing while the store is open (files stored by an older
    // galloper meanwhile) are read from the files themselves.
    stamps(dir.path(), "DELETE FROM envelopes");
    refused(&mut server);
    assert_eq!(
        server.next_revision("g1", &SideId::new("french")).unwrap(),
        4
    );
    // A file accepted now has its stamp recorded with it.
    let (v4, s4) = signed(&server, fr, "french", "04", 4);
    server.submit("o.yaml", v4.as_bytes(), &s4).unwrap();
    assert_eq!(stamps(dir.path(), ""), vec![(3, Some(expected), Some(4))]);
}
