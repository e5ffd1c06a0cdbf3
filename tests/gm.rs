//! The game master's signed commands and the players' own, through the
//! library and through the mail intake: applied once, refused when they
//! should be, and the archive and its audit kept whole (rollback, new keys).

#[path = "support/base64.rs"]
mod base64;

use base64::b64;
use galloper::archive::sha256_hex;
use galloper::audit;
use galloper::daemon::config::Config;
use galloper::daemon::{intake, serve};
use galloper::mail::compose::Party;
use galloper::server::admin::{Applied, CommandRefusal, GameMaster};
use galloper::server::store::{GameStatus, OutboxRow};
use galloper::server::{MailSettings, PlayerSpec, Refusal, Server};
use galloper::side::SideId;
use galloper::sig::{self, KeyPair, SigError};
use galloper::view::Viewer;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const NOW: i64 = 1_795_000_000;
const SIDES: [&str; 2] = ["french", "austrians"];

struct Table {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
    server: Server,
    keys: BTreeMap<String, KeyPair>,
    gm_key: KeyPair,
    gm: GameMaster,
    n: u32,
}

fn table() -> Table {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let mut server = Server::open(&dir.join("data")).unwrap();
    server.set_mail(Some(MailSettings {
        from: Party {
            name: Some("Galloper".into()),
            email: "club@pbem.test".into(),
        },
        domain: "pbem.test".into(),
        game_master: Some("gm@pbem.test".into()),
    }));
    let keys: BTreeMap<String, KeyPair> = SIDES
        .iter()
        .map(|s| (s.to_string(), sig::keygen(s).unwrap()))
        .collect();
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
    let gm_key = sig::keygen("gm").unwrap();
    let gm = GameMaster {
        key: Some(gm_key.public_line.clone()),
        email: Some("gm@pbem.test".into()),
    };
    Table {
        _tmp: tmp,
        dir,
        server,
        keys,
        gm_key,
        gm,
        n: 0,
    }
}

impl Table {
    /// A new command file (a fresh `issued:` each time).
    fn file(&mut self, game: &str, by: &str, command: &str) -> Vec<u8> {
        self.n += 1;
        // A signed command names its game's creation (an unknown game's
        // file names none).
        let created = self
            .server
            .game_created(game)
            .map(|c| format!("created: {c}\n"))
            .unwrap_or_default();
        format!(
            "galloper: 1\ngame: {game}\nissued: 2026-11-22T10:{:02}:{:02}Z\nby: {by}\n{created}command:\n  {command}\n",
            self.n / 60,
            self.n % 60
        )
        .into_bytes()
    }
    fn sign(key: &KeyPair, bytes: &[u8]) -> String {
        sig::sign(&key.private_openssh, sig::COMMAND_NAMESPACE, bytes).unwrap()
    }
    fn run_signed(&mut self, bytes: &[u8], key: &KeyPair) -> Result<Applied, CommandRefusal> {
        let s = Self::sign(key, bytes);
        let gm = self.gm.clone();
        self.server.run_command("c.yaml", bytes, &s, &gm, NOW)
    }
    /// A game master command for g1, signed with his key.
    fn gm(&mut self, command: &str) -> Result<Applied, CommandRefusal> {
        let f = self.file("g1", "gm", command);
        let k = self.gm_key.clone();
        self.run_signed(&f, &k)
    }
    fn orders_text(&self, side: &str, entropy: &str) -> String {
        let t = galloper::cli::template(&self.server, "g1", &SideId::new(side)).unwrap();
        galloper::envelope::with_entropy(&t, &sha256_hex(entropy.as_bytes()))
    }
    fn submit_with(&mut self, side: &str, entropy: &str, key: &KeyPair) -> Result<(), Refusal> {
        let t = self.orders_text(side, entropy);
        let s = sig::sign(&key.private_openssh, sig::ORDERS_NAMESPACE, t.as_bytes()).unwrap();
        self.server
            .submit(&format!("{side}.yaml"), t.as_bytes(), &s)
            .map(|_| ())
    }
    fn submit(&mut self, side: &str, entropy: &str) {
        let k = self.keys[side].clone();
        self.submit_with(side, entropy, &k).unwrap();
    }
    /// Orders from every side that owes them at the open step.
    fn submit_owed(&mut self, entropy: &str) {
        let (_, due) = self.server.due("g1").unwrap().unwrap();
        for o in due.owed {
            self.submit(o.side.as_str(), entropy);
        }
    }
    fn process(&mut self) -> usize {
        self.server
            .process(&self.dir.join("reports"))
            .unwrap()
            .len()
    }
    fn status(&self) -> GameStatus {
        self.server.store().game("g1").unwrap().unwrap().status
    }
    fn mails(&self) -> Vec<OutboxRow> {
        self.server.store().mails().unwrap()
    }
    fn archive(&self) -> PathBuf {
        self.server.archive_dir("g1")
    }
}

fn body(m: &OutboxRow) -> String {
    mail_parser::MessageParser::default()
        .parse(&m.bytes)
        .and_then(|p| p.body_text(0).map(|t| t.into_owned()))
        .unwrap_or_default()
}

/// Every file under a folder, by relative path.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                out.insert(
                    p.strip_prefix(root).unwrap().to_path_buf(),
                    std::fs::read(&p).unwrap(),
                );
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

#[test]
fn pause_stops_resolution_and_resume_resolves() {
    let mut t = table();
    let a = t
        .gm("pause: {reason: the French player moves house}")
        .unwrap();
    assert_eq!(a.command, "pause");
    assert!(a.reply.contains("paused"), "{}", a.reply);
    assert_eq!(t.status(), GameStatus::Paused);
    let notices: Vec<_> = t
        .mails()
        .into_iter()
        .filter(|m| m.kind == "notice")
        .collect();
    let mut to: Vec<_> = notices.iter().map(|m| m.recipients[0].clone()).collect();
    to.sort();
    assert_eq!(to, ["austrians@players.test", "french@players.test"]);
    assert!(body(&notices[0]).contains("moves house"));

    // Orders are taken, but nothing resolves while paused.
    t.submit("french", "ab");
    t.submit("austrians", "cd");
    assert_eq!(t.process(), 0);
    assert!(t.server.store().steps("g1").unwrap()[0].result.is_none());
    assert!(matches!(
        t.gm("pause: {reason: again}"),
        Err(CommandRefusal::NotNow(_))
    ));

    let a = t.gm("resume").unwrap();
    assert!(a.reply.contains("resumed"), "{}", a.reply);
    assert_eq!(t.status(), GameStatus::Active);
    assert_eq!(t.process(), 1, "the complete step resolves on resume");
    assert!(matches!(t.gm("resume"), Err(CommandRefusal::NotNow(_))));
}

#[test]
fn refusals_change_nothing() {
    let mut t = table();
    let before = snapshot(&t.archive());
    let mails = t.mails().len();
    let pause = t.file("g1", "gm", "pause: {reason: x}");

    // Signed by a player's key, as the game master.
    let k = t.keys["french"].clone();
    let e = t.run_signed(&pause, &k).unwrap_err();
    assert!(
        matches!(e, CommandRefusal::Signature(SigError::WrongKey { .. })),
        "{e}"
    );
    // A player trying a game master command under his own name.
    let f = t.file("g1", "french", "pause: {reason: x}");
    let e = t.run_signed(&f, &k).unwrap_err();
    assert!(matches!(e, CommandRefusal::NotGameMaster { .. }), "{e}");
    assert!(e.to_string().contains("only the game master"), "{e}");
    // An orders signature on a command file.
    let s = sig::sign(&t.gm_key.private_openssh, sig::ORDERS_NAMESPACE, &pause).unwrap();
    let gm = t.gm.clone();
    let e = t
        .server
        .run_command("c.yaml", &pause, &s, &gm, NOW)
        .unwrap_err();
    assert!(
        matches!(
            e,
            CommandRefusal::Signature(SigError::WrongNamespace { .. })
        ),
        "{e}"
    );
    // Another game.
    let f = t.file("g2", "gm", "resume");
    let gk = t.gm_key.clone();
    assert!(matches!(
        t.run_signed(&f, &gk),
        Err(CommandRefusal::UnknownGame(_))
    ));
    // Malformed.
    let e = t.run_signed(b"galloper: 1\ngame: g1\nby: gm\ncommand: explode\n", &gk);
    assert!(matches!(e, Err(CommandRefusal::Invalid(_))));
    // No game master key configured.
    let s = Table::sign(&gk, &pause);
    let e = t
        .server
        .run_command("c.yaml", &pause, &s, &GameMaster::default(), NOW)
        .unwrap_err();
    assert!(matches!(e, CommandRefusal::NoGameMasterKey), "{e}");
    assert!(e.to_string().contains("game_master_key"));

    assert_eq!(t.status(), GameStatus::Active);
    assert_eq!(t.mails().len(), mails);
    assert_eq!(snapshot(&t.archive()), before);

    // The real thing once; the same file again is a replay.
    t.run_signed(&pause, &gk).unwrap();
    let e = t.run_signed(&pause, &gk).unwrap_err();
    assert!(matches!(e, CommandRefusal::Replayed { .. }), "{e}");
    assert!(e.to_string().contains("already applied"), "{e}");
}

#[test]
fn commands_signed_by_ssh_keygen_are_taken_in_their_own_namespace() {
    let mut t = table();
    let key = t.dir.join("gm_ed25519");
    let st = Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-C", "gm", "-f"])
        .arg(&key)
        .status()
        .expect("ssh-keygen runs");
    assert!(st.success());
    t.gm.key = Some(std::fs::read_to_string(key.with_extension("pub")).unwrap());
    let sign = |file: &Path, namespace: &str| {
        let sig = PathBuf::from(format!("{}.sig", file.display()));
        let _ = std::fs::remove_file(&sig);
        let out = Command::new("ssh-keygen")
            .args(["-Y", "sign", "-n", namespace, "-f"])
            .arg(&key)
            .arg(file)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        std::fs::read_to_string(sig).unwrap()
    };
    let bytes = t.file("g1", "gm", "pause: {reason: signed by OpenSSH}");
    let file = t.dir.join("pause.yaml");
    std::fs::write(&file, &bytes).unwrap();
    let gm = t.gm.clone();
    let orders_sig = sign(&file, "galloper-orders");
    let e = t
        .server
        .run_command("pause.yaml", &bytes, &orders_sig, &gm, NOW)
        .unwrap_err();
    assert!(e.to_string().contains("galloper-command"), "{e}");
    let s = sign(&file, "galloper-command");
    t.server
        .run_command("pause.yaml", &bytes, &s, &gm, NOW)
        .unwrap();
    assert_eq!(t.status(), GameStatus::Paused);
}

#[test]
fn rollback_reopens_the_step_with_fresh_secrets_and_the_audit_keeps_the_undone_run() {
    let mut t = table();
    t.submit("french", "ab");
    t.submit("austrians", "cd");
    assert_eq!(t.process(), 1);
    let first = t.server.store().steps("g1").unwrap()[0].clone();
    let first_view = snapshot(&galloper::archive::step_dir(&t.archive(), 1));
    assert!(matches!(
        t.gm("rollback: {step: 2, reason: x}"),
        Err(CommandRefusal::NotNow(_))
    ));

    let a = t
        .gm("rollback: {step: 1, reason: the Austrian deployment was misread}")
        .unwrap();
    assert!(a.reply.contains("rolled back step 1"), "{}", a.reply);
    assert!(a.reply.contains("fresh secrets"), "{}", a.reply);
    assert_eq!(t.status(), GameStatus::Paused);
    let steps = t.server.store().steps("g1").unwrap();
    assert_eq!(steps.len(), 1, "step 2 is gone");
    assert!(steps[0].result.is_none());
    assert_ne!(steps[0].public_secret, first.public_secret, "fresh secrets");
    assert_ne!(steps[0].hidden_secret, first.hidden_secret);
    let root = t.archive();
    assert_eq!(
        std::fs::read_to_string(root.join("step-0001/notice.yaml")).unwrap(),
        steps[0].notice,
        "the new run's notice is published, as stored"
    );
    assert!(steps[0].notice.contains("run: 2"), "{}", steps[0].notice);
    let run1 = root.join("step-0001/rollback-1");
    assert!(run1.join("rollback.yaml").exists() && run1.join("dice.yaml").exists());
    assert!(run1.join("next-notice.yaml").exists());
    assert_eq!(
        std::fs::read(run1.join("notice.yaml")).unwrap(),
        first.notice.as_bytes(),
        "the undone run keeps its own notice"
    );
    assert!(!root.join("step-0001/manifest.yaml").exists());
    assert!(!root.join("step-0002").exists());
    let told = t
        .mails()
        .into_iter()
        .filter(|m| m.kind == "notice" && body(m).contains("misread"))
        .count();
    assert_eq!(told, 2, "every side is told");
    // Step 1 is open again, run 2; the undone run checks.
    let v = audit::audit(&root).unwrap();
    assert_eq!(v.open_step, Some(1));
    assert!(v.over.is_none());
    assert!(
        v.lines.iter().any(|l| l.contains("run 1 was rolled back")),
        "{:?}",
        v.lines
    );

    // Nothing resolves while paused. Run 1's orders went with it: on
    // resume the step waits until the sides send again under the new
    // notice, then resolves with the new secrets.
    assert_eq!(t.process(), 0);
    t.gm("resume").unwrap();
    assert_eq!(t.process(), 0, "no file of run 1 is kept");
    t.submit_owed("run two");
    assert_eq!(t.process(), 1);
    let again = t.server.store().steps("g1").unwrap()[0].clone();
    assert_ne!(again.result, first.result, "new secrets, new deal");
    let now_view = snapshot(&galloper::archive::step_dir(&root, 1));
    assert_ne!(
        now_view[Path::new("reveal.yaml")],
        first_view[Path::new("reveal.yaml")]
    );
    for name in [
        "dice.yaml",
        "reveal.yaml",
        "events.yaml",
        "state.commitment",
    ] {
        assert_eq!(
            now_view[&Path::new("rollback-1").join(name)],
            first_view[Path::new(name)],
            "{name}"
        );
    }
    let reports: Vec<_> = t
        .mails()
        .into_iter()
        .filter(|m| m.kind == "report")
        .collect();
    assert_eq!(reports.len(), 4, "both runs were reported");
    assert!(
        reports[2].message_id.contains("-run2@"),
        "{}",
        reports[2].message_id
    );

    let v = audit::audit(&root).unwrap();
    assert!(
        v.lines.iter().any(|l| l.contains("run 1 was rolled back")),
        "{:?}",
        v.lines
    );
    // End the game: sealed, replayed, and the undone run's hidden secret,
    // hidden dice and state commitment check too.
    t.gm("end: {reason: test over}").unwrap();
    let v = audit::audit(&root).unwrap();
    assert!(v.replayed);
    assert!(v.over.as_deref().is_some_and(|o| o.contains("test over")));
    assert!(v.lines.iter().any(|l| l.contains("run 1 was rolled back")));
    assert!(
        v.lines
            .iter()
            .any(|l| l.contains("rolled-back run 1: its hidden secret")),
        "{:?}",
        v.lines
    );
}

#[test]
fn a_replaced_key_signs_from_the_open_step_and_the_audit_follows_it() {
    let mut t = table();
    // Play with the first keys until a step where the French owe orders
    // (step 1 has French orders signed with the old key).
    t.submit_owed("ab");
    assert_eq!(t.process(), 1);
    let owing = |t: &Table| -> Vec<String> {
        let (_, due) = t.server.due("g1").unwrap().unwrap();
        due.owed.iter().map(|o| o.side.to_string()).collect()
    };
    while !owing(&t).contains(&"french".to_string()) {
        t.submit_owed("ab");
        assert_eq!(t.process(), 1);
    }
    let step = t.server.due("g1").unwrap().unwrap().0.step;
    assert!(step > 1);
    t.submit("french", "ef");
    let new = sig::keygen("french-new").unwrap();
    let a = t
        .gm(&format!(
            "replace_key: {{side: french, key: \"{}\"}}",
            new.public_line
        ))
        .unwrap();
    assert!(
        a.reply.contains(&format!("from step {step}")),
        "{}",
        a.reply
    );
    assert!(a.reply.contains("set aside"), "{}", a.reply);
    assert!(
        !t.server
            .store()
            .latest_orders("g1", step)
            .unwrap()
            .contains_key(&SideId::new("french")),
        "orders signed with the old key no longer count"
    );
    let change = t.archive().join("keys/change-001.yaml");
    assert!(change.exists() && t.archive().join("keys/change-001.yaml.sig").exists());

    let old = t.keys["french"].clone();
    let e = t.submit_with("french", "ef", &old).unwrap_err();
    assert!(
        matches!(e, Refusal::Signature(SigError::WrongKey { .. })),
        "{e}"
    );
    t.submit_with("french", "ef", &new).unwrap();
    for s in owing(&t).iter().filter(|s| *s != "french") {
        t.submit(s, "ef");
    }
    assert_eq!(
        t.process(),
        1,
        "the step resolves with the new key's orders"
    );
    t.gm("end: {reason: enough}").unwrap();
    let v = audit::audit(&t.archive()).unwrap();
    assert!(v.replayed && v.steps == step, "{:?}", v.lines);

    // Tampered with, the change's server signature fails; dated step 1 and
    // signed again by the server, the old key's orders of step 1 fail: the
    // audit checks each step with the key in force at that step.
    let text = std::fs::read_to_string(&change)
        .unwrap()
        .replace(&format!("from_step: {step}"), "from_step: 1");
    std::fs::write(&change, &text).unwrap();
    let e = audit::audit(&t.archive()).unwrap_err();
    assert!(e.to_string().contains("server signature refused"), "{e}");
    let server_key = std::fs::read_to_string(t.dir.join("data/server_key")).unwrap();
    galloper::archive::write_signed(
        &t.archive().join("keys"),
        "change-001.yaml",
        text.as_bytes(),
        &server_key,
    )
    .unwrap();
    let e = audit::audit(&t.archive()).unwrap_err();
    assert!(e.to_string().contains("sealed step 1"), "{e}");
    assert!(e.to_string().contains("player signature refused"), "{e}");
}

#[test]
fn preview_mails_only_the_game_master_and_changes_nothing() {
    let mut t = table();
    t.submit("french", "ab");
    let store_state = |t: &Table| {
        (
            t.server.store().games().unwrap(),
            t.server.store().players("g1").unwrap(),
            t.server.store().steps("g1").unwrap(),
            t.server.store().latest_orders("g1", 1).unwrap(),
        )
    };
    let archive = snapshot(&t.archive());
    let stored = store_state(&t);
    let a = t.gm("preview").unwrap();
    assert!(a.reply.contains("missing: austrians"), "{}", a.reply);

    t.submit("austrians", "cd");
    let stored = (stored.0, stored.1, stored.2, store_state(&t).3);
    let before = t.mails().len();
    let a = t.gm("preview").unwrap();
    assert!(a.reply.contains("missing: none"), "{}", a.reply);
    assert!(a.reply.contains("gm@pbem.test only"), "{}", a.reply);
    let new: Vec<_> = t.mails().into_iter().skip(before).collect();
    assert_eq!(new.len(), 1, "one mail");
    assert_eq!(new[0].kind, "preview");
    assert_eq!(new[0].recipients, ["gm@pbem.test"]);
    assert!(String::from_utf8_lossy(&new[0].bytes).contains("PREVIEW"));
    assert_eq!(snapshot(&t.archive()), archive, "the archive is untouched");
    assert!(
        store_state(&t) == stored,
        "the game in the store is untouched"
    );
}

/// The public dice of a report's events, as `(purpose, value)`.
fn public_dice(events: &[galloper::view::EventLine]) -> Vec<(String, u32)> {
    events
        .iter()
        .flat_map(|e| e.dice.iter())
        .map(|d| (d.purpose.clone(), d.value))
        .collect()
}

/// The decoded text and HTML of the last preview mailed, with its raw bytes.
fn last_preview_mail(t: &Table) -> String {
    let m = t
        .mails()
        .into_iter()
        .rev()
        .find(|m| m.kind == "preview")
        .expect("a preview was mailed");
    let parsed = mail_parser::MessageParser::default()
        .parse(&m.bytes)
        .expect("the preview parses");
    format!(
        "{}\n{}\n{}",
        parsed.body_text(0).unwrap_or_default(),
        parsed.body_html(0).unwrap_or_default(),
        String::from_utf8_lossy(&m.bytes)
    )
}

/// The secrets of the open step as hex: P_r, H_r and both seeds of the
/// orders held so far.
fn open_step_secrets(t: &Table) -> Vec<String> {
    let open = t.server.store().open_step("g1").unwrap().unwrap();
    let orders = t.server.store().latest_orders("g1", open.step).unwrap();
    let rules = galloper::rulesets::by_name("maurice-lite").unwrap();
    let sides = rules.sides(galloper::demo::SCENARIO).unwrap();
    let inputs = galloper::server::dice_inputs_for(&open, &orders, &sides);
    vec![
        hex::encode(open.public_secret),
        hex::encode(open.hidden_secret),
        hex::encode(inputs.public_seed),
        hex::encode(inputs.hidden_seed),
    ]
}

/// Names and `[id]`s of the cards a Maurice Lite state hides from the
/// public (in a hand or in the deck), less any name the public can see in
/// the discards or among the Reshuffle cards, which every deck holds.
fn hidden_cards(state: &str) -> Vec<String> {
    let v: serde_yaml::Value = serde_yaml::from_str(state).unwrap();
    let name = |id: &serde_yaml::Value| -> (String, bool) {
        let card = v["deck"]["cards"]
            .as_sequence()
            .unwrap()
            .iter()
            .find(|c| &c["id"] == id)
            .unwrap();
        (
            card["name"].as_str().unwrap().to_string(),
            card["reshuffle"].as_bool().unwrap_or(false),
        )
    };
    let seq = |x: &serde_yaml::Value| x.as_sequence().cloned().unwrap_or_default();
    let mut hidden: Vec<serde_yaml::Value> = seq(&v["piles"]["draw"]);
    for (_, army) in v["armies"].as_mapping().unwrap() {
        hidden.extend(seq(&army["hand"]));
    }
    let public: Vec<String> = seq(&v["piles"]["discard"])
        .iter()
        .chain(seq(&v["piles"]["removed"]).iter())
        .map(|id| name(id).0)
        .collect();
    let mut out = Vec::new();
    for id in &hidden {
        let (n, reshuffle) = name(id);
        if !reshuffle && !public.contains(&n) {
            out.push(n);
            out.push(format!("[{}]", id.as_str().unwrap()));
        }
    }
    assert!(!out.is_empty(), "the state hides some cards");
    out
}

#[test]
fn preview_tells_no_secret_of_the_open_step_and_rolls_other_dice() {
    // The attack: a game master (or whoever reads his mail) asks for a
    // preview while the step still takes orders, to learn its secrets, the
    // hands, the cards to come, or the dice the step will roll.
    let mut t = table();
    t.submit_owed("ab");
    let secrets = open_step_secrets(&t);
    let mut previews = Vec::new();
    for _ in 0..6 {
        let a = t.gm("preview").unwrap();
        assert!(a.reply.contains("missing: none"), "{}", a.reply);
        let mail = last_preview_mail(&t);
        for s in &secrets {
            assert!(
                !mail.contains(s.as_str()),
                "step 1's secret {s} is in the preview"
            );
        }
        assert!(
            mail.contains("these dice are not the step's dice"),
            "{mail}"
        );
        let p = t.server.preview_report("g1").unwrap();
        previews.push(public_dice(&p.rendered.unwrap().view.events));
    }
    assert_eq!(t.process(), 1);
    let real = public_dice(
        &t.server
            .report("g1", Some(1), &Viewer::Public)
            .unwrap()
            .events,
    );
    assert!(
        !real.is_empty(),
        "step 1 rolls public dice (the first-round roll)"
    );
    // Each preview throws fresh dice, so they cannot all be the step's: with
    // the step's own dice every preview would match the real roll.
    assert!(
        previews.iter().any(|p| p != &real),
        "every preview rolled the step's own dice: {real:?}"
    );

    // Step 2: the hands are dealt and the deck is in its hidden order; the
    // active side passes, so the step will draw its next three cards.
    t.submit_owed("cd");
    let open = t.server.store().open_step("g1").unwrap().unwrap();
    let hidden = hidden_cards(&open.state_before);
    let secrets = open_step_secrets(&t);
    t.gm("preview").unwrap();
    let mail = last_preview_mail(&t);
    for s in &secrets {
        assert!(
            !mail.contains(s.as_str()),
            "step 2's secret {s} is in the preview"
        );
    }
    for card in &hidden {
        assert!(
            !mail.contains(card.as_str()),
            "hidden card {card} is in the preview"
        );
    }
    // The preview did resolve: the pass and its draw are there, publicly.
    assert!(mail.contains("passes and draws"), "{mail}");
}

#[test]
fn end_seals_the_archive_and_tells_every_side() {
    let mut t = table();
    t.submit_owed("ab");
    assert_eq!(t.process(), 1);
    assert!(!t.archive().join("sealed").exists());
    let a = t.gm("end: {reason: the club closes}").unwrap();
    assert!(a.reply.contains("ended"), "{}", a.reply);
    assert_eq!(t.status(), GameStatus::Over);
    assert!(t.archive().join("sealed/step-0001/hidden.yaml").exists());
    let v = audit::audit(&t.archive()).unwrap();
    assert!(v.replayed);
    let told = t
        .mails()
        .into_iter()
        .filter(|m| m.kind == "notice" && body(m).contains("club closes"))
        .count();
    assert_eq!(told, 2);
    assert!(matches!(t.gm("resume"), Err(CommandRefusal::NotNow(_))));
    let k = t.keys["french"].clone();
    assert!(t.submit_with("french", "cd", &k).is_err());
}

#[test]
fn address_and_deadline_and_player_commands() {
    let mut t = table();
    let a = t
        .gm("replace_address: {side: french, email: new-french@players.test}")
        .unwrap();
    assert!(a.reply.contains("new-french@players.test"));
    let players = t.server.players("g1").unwrap();
    assert_eq!(players[1].side.as_str(), "french");
    assert_eq!(players[1].email, "new-french@players.test");
    let to: Vec<_> = t
        .mails()
        .into_iter()
        .map(|m| m.recipients[0].clone())
        .collect();
    assert!(to.contains(&"new-french@players.test".to_string()));
    assert!(to.contains(&"french@players.test".to_string()));
    assert!(matches!(
        t.gm("replace_address: {side: french, email: nobody}"),
        Err(CommandRefusal::NotNow(_))
    ));

    // Deadlines, zones and absences belong to the game's life: the reply
    // carries its answer, whatever it is.
    let life = |r: Result<Applied, CommandRefusal>| match r {
        Ok(a) => a.reply,
        Err(CommandRefusal::NotNow(m)) => m,
        Err(e) => panic!("refused before reaching the life API: {e}"),
    };
    let answer = life(t.gm("extend: {until: +48h}"));
    assert!(!answer.is_empty());
    assert!(matches!(
        t.gm("extend: {until: someday}"),
        Err(CommandRefusal::NotNow(_))
    ));
    let k = t.keys["french"].clone();
    let f = t.file("g1", "french", "zone: {zone: Europe/Paris}");
    let answer = life(t.run_signed(&f, &k));
    assert!(answer.contains("Europe/Paris"), "{answer}");
    let f = t.file(
        "g1",
        "french",
        "absent: {from: 2026-12-01, until: 2026-12-05}",
    );
    let answer = life(t.run_signed(&f, &k));
    // This game has no schedule: the life API says the absence is not needed.
    assert!(answer.contains("no deadlines"), "{answer}");
    // A player's command in another side's name, and by the game master.
    let f = t.file("g1", "austrians", "zone: {zone: Europe/Vienna}");
    let e = t.run_signed(&f, &k).unwrap_err();
    assert!(matches!(
        e,
        CommandRefusal::Signature(SigError::WrongKey { .. })
    ));
    let f = t.file("g1", "gm", "zone: {zone: Europe/Vienna}");
    let gk = t.gm_key.clone();
    assert!(matches!(
        t.run_signed(&f, &gk),
        Err(CommandRefusal::NotPlayer { .. })
    ));
}

/// A mail with one file and (unless `signature` is none) its `.sig`.
fn mail(
    from: &str,
    to: &str,
    id: &str,
    name: &str,
    file: &[u8],
    signature: Option<&str>,
) -> Vec<u8> {
    let sig_part = signature.map(|s| format!(
        "--XX\r\nContent-Type: application/octet-stream; name=\"{name}.sig\"\r\nContent-Disposition: attachment; filename=\"{name}.sig\"\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n",
        b64(s.as_bytes())
    )).unwrap_or_default();
    format!(
        "From: <{from}>\r\nTo: {to}\r\nSubject: command\r\nMessage-ID: <{id}>\r\nDate: Sun, 22 Nov 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"XX\"\r\n\r\n--XX\r\nContent-Type: text/plain\r\n\r\nSee attached.\r\n--XX\r\nContent-Type: application/yaml; name=\"{name}\"\r\nContent-Disposition: attachment; filename=\"{name}\"\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n{sig_part}--XX--\r\n",
        b64(file)
    )
    .into_bytes()
}

#[test]
fn commands_by_mail_are_applied_once_and_refusals_answered() {
    let mut t = table();
    let d = t.dir.clone();
    std::fs::write(d.join("gm.pub"), format!("{}\n", t.gm_key.public_line)).unwrap();
    std::fs::write(
        d.join("galloper.yaml"),
        format!(
            "data: {}\nclub_address: club@pbem.test\ngame_master: gm@pbem.test\ngame_master_key: {}\n",
            d.join("data").display(),
            d.join("gm.pub").display()
        ),
    )
    .unwrap();
    let cfg = Config::load(&d.join("galloper.yaml")).unwrap();
    let mut server = serve::open(&cfg).unwrap();
    let date = "Sun, 22 Nov 2026 10:00:00 +0000";
    let reply_to = |server: &Server, who: &str| {
        let m = server
            .store()
            .mails()
            .unwrap()
            .into_iter()
            .rfind(|m| m.kind == "reply" && m.recipients == [who])
            .expect("a reply");
        body(&m)
    };

    let pause = t.file("g1", "gm", "pause: {reason: holidays}");
    let s = Table::sign(&t.gm_key, &pause);
    let raw = mail(
        "gm@pbem.test",
        "club+g1@pbem.test",
        "p1@gm",
        "pause.yaml",
        &pause,
        Some(&s),
    );
    let h = intake::handle(&mut server, &cfg, &raw, NOW, date).unwrap();
    assert_eq!(h.outcome, "command");
    let r = reply_to(&server, "gm@pbem.test");
    assert!(r.contains("command pause applied to game g1"), "{r}");
    assert_eq!(
        server.store().game("g1").unwrap().unwrap().status,
        GameStatus::Paused
    );
    let notices = server
        .store()
        .mails()
        .unwrap()
        .into_iter()
        .filter(|m| m.kind == "notice")
        .count();
    assert_eq!(notices, 2);
    // A player asking for the status is told the game is paused.
    let raw = b"From: french@players.test\r\nTo: club+g1@pbem.test\r\nSubject: status\r\nMessage-ID: <s1@players.test>\r\n\r\nstatus\r\n";
    intake::handle(&mut server, &cfg, raw, NOW, date).unwrap();
    let r = reply_to(&server, "french@players.test");
    assert!(r.contains("paused the game"), "{r}");

    // The same file in a new message: a replay.
    let raw = mail(
        "gm@pbem.test",
        "club+g1@pbem.test",
        "p2@gm",
        "pause.yaml",
        &pause,
        Some(&s),
    );
    let h = intake::handle(&mut server, &cfg, &raw, NOW, date).unwrap();
    assert_eq!(h.outcome, "refused");
    assert!(reply_to(&server, "gm@pbem.test").contains("already applied"));

    // Unsigned.
    let resume = t.file("g1", "gm", "resume");
    let raw = mail(
        "gm@pbem.test",
        "club+g1@pbem.test",
        "p3@gm",
        "resume.yaml",
        &resume,
        None,
    );
    intake::handle(&mut server, &cfg, &raw, NOW, date).unwrap();
    let r = reply_to(&server, "gm@pbem.test");
    assert!(
        r.contains("unsigned") && r.contains("galloper-command"),
        "{r}"
    );

    // A player trying the game master's command.
    let f = t.file("g1", "french", "resume");
    let s = Table::sign(&t.keys["french"], &f);
    let raw = mail(
        "french@players.test",
        "club+g1@pbem.test",
        "p4@fr",
        "resume.yaml",
        &f,
        Some(&s),
    );
    intake::handle(&mut server, &cfg, &raw, NOW, date).unwrap();
    let r = reply_to(&server, "french@players.test");
    assert!(
        r.contains("only the game master") && r.contains("nothing was changed"),
        "{r}"
    );

    // A command for another game than the message's.
    server
        .new_game(
            "g2",
            galloper::demo::SCENARIO,
            &server
                .players("g1")
                .unwrap()
                .into_iter()
                .map(|p| PlayerSpec {
                    side: p.side,
                    email: p.email,
                    public_key: p.public_key,
                })
                .collect::<Vec<_>>(),
        )
        .unwrap();
    let f = t.file("g2", "gm", "pause: {reason: x}");
    let s = Table::sign(&t.gm_key, &f);
    let raw = mail(
        "gm@pbem.test",
        "club+g1@pbem.test",
        "p5@gm",
        "pause.yaml",
        &f,
        Some(&s),
    );
    intake::handle(&mut server, &cfg, &raw, NOW, date).unwrap();
    assert!(reply_to(&server, "gm@pbem.test").contains("the command is for game g2"));
    assert_eq!(
        server.store().game("g2").unwrap().unwrap().status,
        GameStatus::Active
    );

    // Resume by mail; the paused step then resolves in the batch.
    let s = Table::sign(&t.gm_key, &resume);
    let raw = mail(
        "gm@pbem.test",
        "club+g1@pbem.test",
        "p6@gm",
        "resume.yaml",
        &resume,
        Some(&s),
    );
    let h = intake::handle(&mut server, &cfg, &raw, NOW, date).unwrap();
    assert_eq!(h.outcome, "command");
    assert_eq!(
        server.store().game("g1").unwrap().unwrap().status,
        GameStatus::Active
    );

    // A player's zone, answered with what the life API says.
    let f = t.file("g1", "french", "zone: {zone: Europe/Paris}");
    let s = Table::sign(&t.keys["french"], &f);
    let raw = mail(
        "french@players.test",
        "club+g1@pbem.test",
        "p7@fr",
        "zone.yaml",
        &f,
        Some(&s),
    );
    intake::handle(&mut server, &cfg, &raw, NOW, date).unwrap();
    let r = reply_to(&server, "french@players.test");
    assert!(
        r.contains("zone.yaml") && r.to_lowercase().contains("zone"),
        "{r}"
    );
}

/// A rollback by mail is applied inside the intake's group of writes: its
/// new notice waits for the group's commit, and the same batch publishes
/// it before anything resolves.
#[test]
fn a_rollback_by_mail_publishes_its_new_notice_after_the_group_commits() {
    let mut t = table();
    t.submit_owed("ab");
    assert_eq!(t.process(), 1);
    let d = t.dir.clone();
    std::fs::write(d.join("gm.pub"), format!("{}\n", t.gm_key.public_line)).unwrap();
    std::fs::write(
        d.join("galloper.yaml"),
        format!(
            "data: {}\nclub_address: club@pbem.test\nmaildir: {}\ngame_master: gm@pbem.test\ngame_master_key: {}\n",
            d.join("data").display(),
            d.join("Maildir").display(),
            d.join("gm.pub").display()
        ),
    )
    .unwrap();
    let cfg = Config::load(&d.join("galloper.yaml")).unwrap();
    let mut server = serve::open(&cfg).unwrap();
    let file = t.file("g1", "gm", "rollback: {step: 1, reason: by mail}");
    let s = Table::sign(&t.gm_key, &file);
    let raw = mail(
        "gm@pbem.test",
        "club+g1@pbem.test",
        "rb@gm",
        "rollback.yaml",
        &file,
        Some(&s),
    );
    galloper::mail::maildir::Maildir::open(&d.join("Maildir"))
        .unwrap()
        .deliver(&raw)
        .unwrap();
    let stop = std::sync::atomic::AtomicBool::new(false);
    serve::batch(&mut server, &cfg, &stop).unwrap();
    let steps = server.store().steps("g1").unwrap();
    assert_eq!(steps.len(), 1);
    assert!(steps[0].notice.contains("run: 2"), "{}", steps[0].notice);
    let root = t.archive();
    assert_eq!(
        std::fs::read_to_string(root.join("step-0001/notice.yaml")).unwrap(),
        steps[0].notice
    );
    let v = audit::audit(&root).unwrap();
    assert_eq!(v.open_step, Some(1));
}

/// Issue 13: after a rollback of a round, only the side that owes orders
/// for it is asked for new ones, and the step's report resolved again
/// says it is a re-run.
#[test]
fn a_rollback_invites_only_the_owing_side_and_the_rerun_report_says_so() {
    let mut t = table();
    t.submit_owed("ab");
    assert_eq!(t.process(), 1);
    let (_, due) = t.server.due("g1").unwrap().unwrap();
    assert_eq!(due.owed.len(), 1, "a round: the active side owes");
    let active = due.owed[0].side.to_string();
    let passive = SIDES.iter().find(|s| **s != active).unwrap().to_string();
    t.submit_owed("cd");
    assert_eq!(t.process(), 1);
    t.gm("rollback: {step: 2, reason: a card was misread}")
        .unwrap();
    let notices: Vec<OutboxRow> = t
        .mails()
        .into_iter()
        .filter(|m| m.kind == "notice" && body(m).contains("card was misread"))
        .collect();
    assert_eq!(notices.len(), 2, "every side hears of it");
    let to = |side: &str| {
        notices
            .iter()
            .find(|m| m.reader.as_deref() == Some(side))
            .map(|m| flat(&body(m)))
            .unwrap()
    };
    let a = to(&active);
    assert!(a.contains("You owe orders for step 2"), "{a}");
    assert!(a.contains("send them again"), "{a}");
    let notice =
        galloper::envelope::notice_sha256(&t.server.store().steps("g1").unwrap()[1].notice);
    assert!(
        a.contains(&format!("notice: {notice}")),
        "the new notice's hash: {a}"
    );
    assert!(a.contains("Your orders template for the new run"), "{a}");
    let p = to(&passive);
    assert!(p.contains("You owe no orders for step 2"), "{p}");
    assert!(
        !p.contains("send them again") && !p.contains("orders template"),
        "{p}"
    );
    // Resolved again: its reports say so first; the first run's did not.
    t.gm("resume").unwrap();
    t.submit_owed("ef");
    assert_eq!(t.process(), 1);
    let reports: Vec<OutboxRow> = t
        .mails()
        .into_iter()
        .filter(|m| m.kind == "report" && m.step == Some(2))
        .collect();
    assert_eq!(reports.len(), 4, "both runs, both sides");
    for m in &reports {
        let rerun = m.message_id.contains("-run2@");
        assert_eq!(
            flat(&body(m)).contains("resolved again after a rollback (run 2)"),
            rerun,
            "{}",
            m.message_id
        );
    }
}

/// Words wrapped onto several lines read as one line again.
fn flat(t: &str) -> String {
    t.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Issue 31, item 5: a game master's signed command is good for one game
/// only. It names the game's creation (the SHA-256 of its game.yaml, as
/// orders name their notice), so an old signed `end` kept by anyone cannot
/// end a new game that reuses the id, the players and the game master's
/// key; a mailed command that names no creation is refused with the line
/// to write.
#[test]
fn an_old_signed_end_cannot_end_a_new_game_under_the_same_id() {
    let mut old = table();
    let end = old.file("g1", "gm", "end: {reason: the old game is over}");
    let s = Table::sign(&old.gm_key, &end);
    let mut new = table();
    new.gm_key = old.gm_key.clone();
    new.gm = old.gm.clone();
    let gm = new.gm.clone();
    let created = new.server.game_created("g1").unwrap();
    assert_ne!(created, old.server.game_created("g1").unwrap());
    let e = new
        .server
        .run_command("end.yaml", &end, &s, &gm, NOW)
        .unwrap_err();
    assert!(matches!(e, CommandRefusal::OtherCreation { .. }), "{e}");
    assert!(
        e.to_string().contains(&format!("created: {created}")),
        "{e}"
    );
    assert_eq!(
        new.status(),
        GameStatus::Active,
        "the new game goes on, nothing changed"
    );
    // The same command naming no creation is refused too, with the line to
    // write; naming this game's, it is applied.
    let bare = b"galloper: 1\ngame: g1\nissued: 2026-11-22T11:00:00Z\nby: gm\ncommand:\n  pause: {reason: away}\n";
    let e = new.run_signed(bare, &new.gm_key.clone()).unwrap_err();
    assert!(e.to_string().contains("names no creation"), "{e}");
    let pause = new.file("g1", "gm", "pause: {reason: away}");
    new.run_signed(&pause, &new.gm_key.clone()).unwrap();
    assert_eq!(new.status(), GameStatus::Paused);
    // The old game takes its own.
    old.server
        .run_command("end.yaml", &end, &s, &old.gm.clone(), NOW)
        .unwrap();
    assert_eq!(old.status(), GameStatus::Over);
}
