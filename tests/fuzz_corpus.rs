//! The fuzz corpus as a normal test: every file saved under `fuzz/corpus/`
//! goes through the same entry function as its fuzz target
//! (`galloper::fuzzing`), must not panic, and must finish in bounded time.
//! This stands in for the fuzz campaigns where no nightly toolchain is
//! installed. The seeds the campaigns started from are made here too, with
//! real keys and signatures, and checked for the outcome they should get;
//! with `GALLOPER_WRITE_FUZZ_SEEDS=DIR` they are also written to
//! `DIR/TARGET/` to seed a new campaign.

#[path = "support/base64.rs"]
mod base64;

use galloper::archive::sha256_hex;
use galloper::fuzzing::{self, MailDesk};
use galloper::{envelope, rulesets, sig};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The fuzz targets, by the name of their folder under `fuzz/corpus/`.
const TARGETS: [&str; 5] = ["mail", "envelope", "orders", "sshsig", "scenario"];

/// Slowest a single input may be in this (unoptimised) build. The fuzz
/// campaigns run with a 10 s timeout on an optimised build; the worst saved
/// input takes a fraction of that.
const MAX_PER_INPUT: Duration = Duration::from_secs(10);

fn run(target: &str, desk: &mut MailDesk, bytes: &[u8]) {
    match target {
        "mail" => fuzzing::mail(desk, bytes),
        "envelope" => fuzzing::envelope(bytes),
        "orders" => {
            for (ruleset, _) in fuzzing::SCENARIOS {
                fuzzing::orders(ruleset, bytes);
            }
        }
        "sshsig" => fuzzing::sshsig(bytes),
        "scenario" => fuzzing::scenario(bytes),
        other => panic!("no fuzz target {other}"),
    }
}

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus")
}

#[test]
fn every_saved_corpus_file_replays_without_panic_in_bounded_time() {
    // mail-parser panics on some messages, and the intake catches it (one
    // corpus file does this on purpose). The default hook would symbolise a
    // backtrace for each, which takes seconds and is not the code's time.
    std::panic::set_hook(Box::new(|info| eprintln!("{info}")));
    let tmp = tempfile::tempdir().unwrap();
    let mut desk = MailDesk::new(&tmp.path().join("desk")).unwrap();
    let mut counts = BTreeMap::new();
    let mut slowest = (Duration::ZERO, String::new());
    for target in TARGETS {
        let dir = corpus_dir().join(target);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        assert!(!files.is_empty(), "{} holds no corpus", dir.display());
        for file in &files {
            let bytes = std::fs::read(file).unwrap();
            assert!(
                bytes.len() <= 64 * 1024,
                "{} is over 64 KiB",
                file.display()
            );
            let t = Instant::now();
            run(target, &mut desk, &bytes);
            let took = t.elapsed();
            assert!(took < MAX_PER_INPUT, "{} took {took:?}", file.display());
            if took > slowest.0 {
                slowest = (took, file.display().to_string());
            }
        }
        counts.insert(target, files.len());
    }
    println!(
        "replayed {counts:?}; slowest {:?} ({})",
        slowest.0, slowest.1
    );
}

/// One seed: the target it feeds, a file name, the bytes.
type Seed = (&'static str, String, Vec<u8>);

fn mail_with_files(from: &str, to: &str, id: &str, files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut m = format!(
        "From: Player <{from}>\r\nTo: {to}\r\nSubject: my orders\r\nMessage-ID: <{id}>\r\nDate: Fri, 15 Jan 2027 07:00:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"XX\"\r\n\r\n--XX\r\nContent-Type: text/plain\r\n\r\nHere they are.\r\n"
    );
    for (name, bytes) in files {
        m.push_str(&format!(
            "--XX\r\nContent-Type: application/octet-stream; name=\"{name}\"\r\nContent-Disposition: attachment; filename=\"{name}\"\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n",
            base64::b64(bytes)
        ));
    }
    m.push_str("--XX--\r\n");
    m.into_bytes()
}

fn mail_with_body(from: &str, to: &str, id: &str, body: &str) -> Vec<u8> {
    format!(
        "From: <{from}>\r\nTo: {to}\r\nSubject: [g1] orders\r\nMessage-ID: <{id}>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}",
        body.replace('\n', "\r\n")
    )
    .into_bytes()
}

/// Seeds for every target, from the shipped scenarios, signed with the
/// fuzzing keys; the mail seeds with the outcome the intake must give.
fn seeds(desk: &MailDesk) -> (Vec<Seed>, Vec<(Vec<u8>, &'static str)>) {
    let mut out: Vec<Seed> = Vec::new();
    let mut mails = Vec::new();
    for ((ruleset, scenario), game) in fuzzing::SCENARIOS.iter().zip(fuzzing::GAMES) {
        let rules = rulesets::by_name(ruleset).unwrap();
        out.push((
            "scenario",
            format!("{ruleset}.yaml"),
            scenario.as_bytes().to_vec(),
        ));
        let sides = rules.sides(scenario).unwrap();
        for (i, side) in sides.iter().enumerate() {
            let other = &sides[(i + 1) % sides.len()];
            let Ok(t) = galloper::cli::template(desk.server(), game, side) else {
                continue;
            };
            let t = envelope::with_entropy(&t, &sha256_hex((i + 1).to_string().as_bytes()));
            let key = fuzzing::fuzz_key(side.as_str()).unwrap();
            let wrong = fuzzing::fuzz_key(other.as_str()).unwrap();
            let good =
                sig::sign(&key.private_openssh, sig::ORDERS_NAMESPACE, t.as_bytes()).unwrap();
            let forged =
                sig::sign(&wrong.private_openssh, sig::ORDERS_NAMESPACE, t.as_bytes()).unwrap();
            let stem = format!("{game}-{side}");
            out.push(("envelope", format!("{stem}.yaml"), t.clone().into_bytes()));
            let env = envelope::parse("o.yaml", t.as_bytes()).unwrap();
            let orders = galloper::yaml::to_string(&env.orders).unwrap();
            out.push(("orders", format!("{stem}.yaml"), orders.into_bytes()));
            let mut s = key.public_line.clone().into_bytes();
            s.push(0);
            s.extend_from_slice(t.as_bytes());
            s.push(0);
            s.extend_from_slice(good.as_bytes());
            out.push(("sshsig", format!("{stem}-good"), s));
            out.push(("sshsig", format!("{stem}-sig"), good.clone().into_bytes()));
            let from = fuzzing::player_email(side.as_str());
            let to = format!("club+{game}@pbem.test");
            let attached = mail_with_files(
                &from,
                &to,
                &format!("{stem}@players.test"),
                &[
                    ("orders.yaml", t.as_bytes()),
                    ("orders.yaml.sig", good.as_bytes()),
                ],
            );
            mails.push((attached.clone(), "accepted"));
            out.push(("mail", format!("{stem}-attached.eml"), attached));
            let forged_mail = mail_with_files(
                "mallory@evil.test",
                &to,
                &format!("{stem}-forged@evil.test"),
                &[
                    ("orders.yaml", t.as_bytes()),
                    ("orders.yaml.sig", forged.as_bytes()),
                ],
            );
            mails.push((forged_mail.clone(), "refused"));
            out.push(("mail", format!("{stem}-forged.eml"), forged_mail));
            let unsigned = mail_with_files(
                &from,
                &to,
                &format!("{stem}-unsigned@players.test"),
                &[("orders.yaml", t.as_bytes())],
            );
            mails.push((unsigned.clone(), "refused"));
            out.push(("mail", format!("{stem}-unsigned.eml"), unsigned));
            let pasted = mail_with_body(
                &from,
                "club@pbem.test",
                &format!("{stem}-pasted@players.test"),
                &format!("Mine:\n\n{t}\n{good}\nBye\n"),
            );
            out.push(("mail", format!("{stem}-pasted.eml"), pasted));
        }
    }
    for (ruleset, _) in fuzzing::SCENARIOS {
        let rules = rulesets::by_name(ruleset).unwrap();
        for (n, state) in fuzzing::states(ruleset).iter().enumerate() {
            for o in rules.due(state).unwrap().owed {
                if let Ok(Some(v)) = rules.default_orders(state, &o.side) {
                    let text = galloper::yaml::to_string(&v).unwrap();
                    out.push((
                        "orders",
                        format!("{ruleset}-{n}-{}.yaml", o.side),
                        text.into_bytes(),
                    ));
                }
            }
        }
    }
    (out, mails)
}

#[test]
fn seeds_get_the_outcome_they_should_and_replay_cleanly() {
    let tmp = tempfile::tempdir().unwrap();
    let mut desk = MailDesk::new(&tmp.path().join("desk")).unwrap();
    let (all, mails) = seeds(&desk);
    for (raw, want) in &mails {
        let h = desk.handle(raw).unwrap();
        assert_eq!(&h.outcome, want, "{}", h.detail);
    }
    for (target, _, bytes) in &all {
        run(target, &mut desk, bytes);
    }
    assert!(mails.iter().filter(|m| m.1 == "accepted").count() >= 3);
    if let Some(dir) = std::env::var_os("GALLOPER_WRITE_FUZZ_SEEDS") {
        for (target, name, bytes) in &all {
            let d = Path::new(&dir).join(target);
            std::fs::create_dir_all(&d).unwrap();
            std::fs::write(d.join(name), bytes).unwrap();
        }
    }
}

/// Found by the `mail` fuzz target: a `From` address mail-parser reads but
/// lettre refuses (`grougalloper.hollowbrook-1.0.davout=40example=2efr...`)
/// made the intake fail instead of recording the message, so the daemon
/// would have stopped on it at every poll. Now it is recorded, unanswered.
#[test]
fn a_sender_no_reply_can_be_addressed_to_is_recorded_not_fatal() {
    let tmp = tempfile::tempdir().unwrap();
    let mut desk = MailDesk::new(&tmp.path().join("desk")).unwrap();
    let raw = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz/unanswerable-sender.eml"),
    )
    .unwrap();
    let h = desk.handle(&raw).unwrap();
    assert_eq!(h.sender, None);
    assert_eq!(h.outcome, "refused");
    assert_eq!(desk.handle(&raw).unwrap().outcome, "duplicate");
}

/// Found by the `mail` campaign: a Subject with control characters made the
/// reply unbuildable, so the intake failed on the message at every poll.
#[test]
fn a_subject_with_control_characters_is_cleaned_for_the_reply() {
    let tmp = tempfile::tempdir().unwrap();
    let mut desk = MailDesk::new(&tmp.path().join("desk")).unwrap();
    for name in [
        "control-in-subject.eml",
        "id-without-at.eml",
        "id-with-two-ats.eml",
    ] {
        let raw = std::fs::read(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/data/fuzz")
                .join(name),
        )
        .unwrap();
        let h = desk.handle(&raw).unwrap();
        assert_ne!(h.outcome, "duplicate", "{name}");
        assert_eq!(desk.handle(&raw).unwrap().outcome, "duplicate", "{name}");
    }
}
