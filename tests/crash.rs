//! Crash safety of the intake: the daemon killed with SIGKILL at random
//! moments while it works through 200 messages, then restarted, again and
//! again. Every message must be handled exactly once: none lost, none applied
//! twice, every reply queued once, and the archive still audits.

#[path = "support/base64.rs"]
mod base64;

use base64::b64;
use galloper::archive::sha256_hex;
use galloper::mail::maildir::Maildir;
use galloper::server::{PlayerSpec, Server};
use galloper::side::SideId;
use galloper::sig;
use std::process::Command;

#[test]
fn kill_nine_during_a_batch_of_two_hundred_messages_loses_and_doubles_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let config = d.join("galloper.yaml");
    std::fs::write(
        &config,
        format!(
            "data: {}\nclub_address: club@pbem.test\nmaildir: {}\nreplies_per_hour: 100000\n",
            d.join("data").display(),
            d.join("Maildir").display()
        ),
    )
    .unwrap();
    let keys: Vec<(String, sig::KeyPair)> = ["french", "austrians"]
        .iter()
        .map(|s| (s.to_string(), sig::keygen(s).unwrap()))
        .collect();
    {
        let mut server = Server::open(&d.join("data")).unwrap();
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
        for n in 0..200 {
            let (side, key) = &keys[n % 2];
            let t = galloper::cli::template(&server, "g1", &SideId::new(side.as_str())).unwrap();
            let t = galloper::envelope::with_entropy(&t, &sha256_hex(n.to_string().as_bytes()));
            let s = sig::sign(&key.private_openssh, sig::ORDERS_NAMESPACE, t.as_bytes()).unwrap();
            let raw = format!(
                "From: <{side}@players.test>\r\nTo: club+g1@pbem.test\r\nSubject: orders {n}\r\nMessage-ID: <m{n}@players.test>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"B\"\r\n\r\n--B\r\nContent-Type: text/plain\r\n\r\norders\r\n--B\r\nContent-Type: application/yaml\r\nContent-Disposition: attachment; filename=\"o.yaml\"\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n--B\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename=\"o.yaml.sig\"\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n--B--\r\n",
                b64(t.as_bytes()),
                b64(s.as_bytes())
            );
            md.deliver(raw.as_bytes()).unwrap();
        }
    }
    let exe = env!("CARGO_BIN_EXE_galloper");
    let mut kills = 0;
    let mut progress = Vec::new();
    // A cheap deterministic spread of kill moments from a few ms to a few hundred.
    for i in 0..24u64 {
        let mut child = Command::new(exe)
            .arg("process")
            .arg("--config")
            .arg(&config)
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // Later kills come later, so that even a slow machine gets through some messages.
        std::thread::sleep(std::time::Duration::from_millis(15 + (i * 7) % 40 + i * 4));
        if child.try_wait().unwrap().is_none() {
            let _ = child.kill();
            kills += 1;
        }
        let _ = child.wait();
        let now_left = Maildir::open(&d.join("Maildir"))
            .unwrap()
            .pending()
            .unwrap()
            .len();
        progress.push(now_left);
    }
    let left = Maildir::open(&d.join("Maildir"))
        .unwrap()
        .pending()
        .unwrap()
        .len();
    assert!(left < 200, "the killed batches got through some messages");
    println!("messages left after each kill: {progress:?}");
    let out = Command::new(exe)
        .arg("process")
        .arg("--config")
        .arg(&config)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let server = Server::open(&d.join("data")).unwrap();
    let mails = server.store().mails().unwrap();
    let replies = mails.iter().filter(|m| m.kind == "reply").count();
    let mut ids: Vec<&str> = mails.iter().map(|m| m.message_id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), mails.len(), "no mail queued twice");
    assert_eq!(
        replies, 200,
        "one reply per message, none lost, none doubled"
    );
    let md = Maildir::open(&d.join("Maildir")).unwrap();
    assert!(md.pending().unwrap().is_empty(), "every message done");
    let steps = server.store().steps("g1").unwrap();
    assert!(steps[0].result.is_some(), "the deployment resolved");
    let accepted_step1 = server.store().latest_orders("g1", 1).unwrap().len();
    assert_eq!(accepted_step1, 2);
    let v = galloper::audit::audit(&server.archive_dir("g1")).expect("the archive audits");
    println!(
        "crash test: {kills} kills, 200 messages ({} handled before the last restart), {replies} replies queued, 0 lost, 0 doubled; audit: {} step(s)",
        200 - left,
        v.steps
    );
    assert!(kills >= 5, "the kills landed while the batch ran: {kills}");
}
