//! Issue 12's attacks on the dice and the audit, played again: each must
//! now be refused, caught or harmless.
//!
//! - grinding a rolled-back step with its revealed public secret (item 1);
//! - guessing hands against the published state hash (item 3);
//! - counting hidden dice from the gaps in the public ones (item 4);
//! - cutting, reordering or padding the archive (item 8);
//! - a wholly re-signed forgery under the real server's pinned key (item 9);
//! - a link to /dev/zero, a FIFO, a huge file in the archive (item 10);
//! - a notice drawn twice when the store's commit fails (item 12, part).

#[path = "support/resign.rs"]
mod resign;

use galloper::archive::{self, HiddenReveal, Notice, Reveal, sha256_hex};
use galloper::audit::{self, Options};
use galloper::dice::{Dice, StreamKind, protocol};
use galloper::server::admin::{CommandRefusal, GameMaster};
use galloper::server::{PlayerSpec, Server};
use galloper::side::SideId;
use galloper::sig::{self, KeyPair};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

const NOW: i64 = 1_795_000_000;

struct Table {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
    server: Server,
    keys: BTreeMap<String, KeyPair>,
    gm_key: KeyPair,
    n: u32,
}

fn table() -> Table {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let mut server = Server::open(&dir.join("data")).unwrap();
    let keys: BTreeMap<String, KeyPair> = ["french", "austrians"]
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
    Table {
        _tmp: tmp,
        dir,
        server,
        keys,
        gm_key: sig::keygen("gm").unwrap(),
        n: 0,
    }
}

impl Table {
    fn gm(&mut self, command: &str) -> Result<String, CommandRefusal> {
        self.n += 1;
        let file = format!(
            "galloper: 1\ngame: g1\nissued: 2026-11-22T10:00:{:02}Z\nby: gm\ncreated: {}\ncommand:\n  {command}\n",
            self.n,
            self.server.game_created("g1").unwrap()
        );
        let s = sig::sign(
            &self.gm_key.private_openssh,
            sig::COMMAND_NAMESPACE,
            file.as_bytes(),
        )
        .unwrap();
        let gm = GameMaster {
            key: Some(self.gm_key.public_line.clone()),
            email: None,
        };
        self.server
            .run_command("c.yaml", file.as_bytes(), &s, &gm, NOW)
            .map(|a| a.reply)
    }
    fn orders(&self, side: &str, entropy: &str) -> String {
        let t = galloper::cli::template(&self.server, "g1", &SideId::new(side)).unwrap();
        galloper::envelope::with_entropy(&t, entropy)
    }
    fn send(&mut self, side: &str, text: &str) {
        let k = &self.keys[side];
        let s = sig::sign(&k.private_openssh, sig::ORDERS_NAMESPACE, text.as_bytes()).unwrap();
        self.server
            .submit(&format!("{side}.yaml"), text.as_bytes(), &s)
            .unwrap();
    }
    fn process(&mut self) -> anyhow::Result<usize> {
        Ok(self.server.process(&self.dir.join("reports"))?.len())
    }
    fn archive(&self) -> PathBuf {
        self.server.archive_dir("g1")
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap();
        if p.is_dir() {
            copy_dir(&p, &to.join(name));
        } else {
            std::fs::copy(&p, to.join(name)).unwrap();
        }
    }
}

fn yaml<T: serde::de::DeserializeOwned>(p: &Path) -> T {
    galloper::yaml::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

/// The audit of `dir` in a thread of its own: it must answer within
/// `limit`, whatever the archive holds.
fn audit_within(dir: &Path, limit: Duration) -> Result<audit::Verdict, String> {
    let (tx, rx) = std::sync::mpsc::channel();
    let d = dir.to_path_buf();
    std::thread::spawn(move || {
        let _ = tx.send(audit::audit(&d).map_err(|e| e.to_string()));
    });
    rx.recv_timeout(limit)
        .unwrap_or_else(|_| panic!("the audit of {} hangs", dir.display()))
}

/// Play the demo once; its data folder and the archive.
fn demo() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("demo");
    galloper::demo::run(&galloper::demo::DemoArgs {
        out: out.clone(),
        max_steps: 400,
        battle: false,
        ruleset: "maurice-lite".into(),
    })
    .unwrap();
    let archive = out.join("server/archive/hollowbrook-demo");
    (tmp, out.join("server"), archive)
}

/// Item 1. The French player has the undone run's public secret (its
/// reveal, his report) and the Austrians' held orders: he grinds his
/// entropy until, with that secret, his first-round roll is a 6, and sends
/// that file. The step reopened with fresh secrets: his prediction is
/// worth nothing, and the audit still checks the undone run.
#[test]
fn a_rolled_back_step_cannot_be_ground_with_its_revealed_secret() {
    let mut t = table();
    let austrians = t.orders("austrians", &sha256_hex(b"cd"));
    t.send("austrians", &austrians);
    let french = t.orders("french", &sha256_hex(b"ab"));
    t.send("french", &french);
    assert_eq!(t.process().unwrap(), 1);
    let root = t.archive();
    let old_notice: Notice = yaml(&root.join("step-0001/notice.yaml"));
    let old: Reveal = yaml(&root.join("step-0001/reveal.yaml"));
    let p_old: [u8; 32] = hex::decode(&old.public_secret).unwrap().try_into().unwrap();
    t.gm("rollback: {step: 1, reason: a misread deployment}")
        .unwrap();

    // The grind, with the old secret: the first public die of step 1 is
    // the French first-round roll.
    let a_hash = protocol::order_hash(austrians.as_bytes());
    let (file, predicted) = (0u32..500)
        .find_map(|n| {
            let f = t.orders("french", &sha256_hex(n.to_string().as_bytes()));
            let mix = protocol::mix(&[protocol::order_hash(f.as_bytes()), a_hash]);
            let seed = protocol::seed(StreamKind::Public, &p_old, &mix);
            (Dice::from_seeds(seed, [0; 32]).d6("first round") == 6).then_some((f, seed))
        })
        .expect("a 6 within 500 tries");
    t.send("french", &file);
    t.gm("resume").unwrap();
    // The Austrians' file answered run 1's notice: it is not kept, and
    // sent again it is refused, so the step waits for their new orders.
    assert_eq!(
        t.process().unwrap(),
        0,
        "run 1's orders are not mixed into run 2"
    );
    let k = &t.keys["austrians"];
    let s = sig::sign(
        &k.private_openssh,
        sig::ORDERS_NAMESPACE,
        austrians.as_bytes(),
    )
    .unwrap();
    let refused = t
        .server
        .submit("austrians.yaml", austrians.as_bytes(), &s)
        .unwrap_err()
        .to_string();
    assert!(refused.contains("answer notice"), "{refused}");
    let again = t.orders("austrians", &sha256_hex(b"cd again"));
    t.send("austrians", &again);
    assert_eq!(t.process().unwrap(), 1);

    let new_notice: Notice = yaml(&root.join("step-0001/notice.yaml"));
    let new: Reveal = yaml(&root.join("step-0001/reveal.yaml"));
    assert_eq!(new_notice.run, 2);
    assert_ne!(new_notice.public_commitment, old_notice.public_commitment);
    assert_ne!(new.public_secret, old.public_secret);
    assert_ne!(
        new.public_seed,
        hex::encode(predicted),
        "the ground seed is not the one the step used"
    );
    let p_new: [u8; 32] = hex::decode(&new.public_secret).unwrap().try_into().unwrap();
    assert_eq!(
        hex::encode(protocol::commit(StreamKind::Public, "g1", 1, &p_new)),
        new_notice.public_commitment,
        "the secret used was committed in the new notice, before the orders"
    );
    let v = audit::audit(&root).unwrap();
    assert!(v.lines.iter().any(|l| l.contains("run 1 was rolled back")));
    let mixed: galloper::archive::OrdersIndex = yaml(&root.join("step-0001/orders.yaml"));
    let hashes: Vec<&str> = mixed.sides.iter().map(|e| e.sha256.as_str()).collect();
    assert!(
        !hashes.contains(&sha256_hex(austrians.as_bytes()).as_str()),
        "run 2 mixed no file of run 1"
    );

    // The undone run is part of the chain: removing it is caught.
    let copy = t.dir.join("cut");
    copy_dir(&root, &copy);
    std::fs::remove_dir_all(copy.join("step-0001/rollback-1")).unwrap();
    let e = audit::audit(&copy).unwrap_err().to_string();
    assert!(e.contains("not in the archive"), "{e}");
    println!("rollback removed: {e}");
}

/// A way to spoil a copy of an archive.
type Spoil<'a> = Box<dyn Fn(&Path) + 'a>;

/// Items 3, 4, 8, 9 and 10 on the demo's archive.
#[test]
fn the_demo_archive_resists_guessing_counting_cutting_forging_and_traps() {
    let (tmp, server, archive) = demo();
    let v = audit::audit(&archive).unwrap();
    assert!(v.over.is_some() && v.replayed);
    assert!(v.summary().contains("the game is over"), "{}", v.summary());

    // Item 3: the attacker's test of a guessed state against the published
    // value fails even for the right guess (here the sealed state itself);
    // only with the salt opened at the end does the commitment check.
    let state = std::fs::read(archive.join("sealed/step-0001/state.yaml")).unwrap();
    let published = std::fs::read_to_string(archive.join("step-0001/state.commitment")).unwrap();
    assert_ne!(published.trim(), sha256_hex(&state));
    let notice: Notice = yaml(&archive.join("step-0002/notice.yaml"));
    assert_ne!(notice.state_before_commitment, sha256_hex(&state));
    assert_eq!(notice.state_before_commitment, published.trim());
    let hidden: HiddenReveal = yaml(&archive.join("sealed/step-0001/hidden.yaml"));
    let salt: [u8; 32] = hex::decode(&hidden.state_salt).unwrap().try_into().unwrap();
    assert_eq!(
        archive::state_commitment("hollowbrook-demo", 1, &salt, &state),
        published.trim()
    );

    // Item 4: step 1 shuffles and deals from the hidden stream before the
    // first-round rolls; in the full log the first public die comes after
    // the hidden ones, but the public file numbers public dice alone.
    let full: Vec<galloper::dice::DieRecord> = yaml(&archive.join("sealed/step-0001/dice.yaml"));
    let first_public = full
        .iter()
        .position(|d| d.stream == StreamKind::Public)
        .unwrap();
    assert!(first_public > 10, "hidden dice come first in step 1");
    let public: Vec<archive::ArchivedDie> = yaml(&archive.join("step-0001/dice.yaml"));
    assert!(public.iter().enumerate().all(|(i, d)| d.n == i));
    let events: Vec<galloper::event::Event> = yaml(&archive.join("step-0001/events.yaml"));
    assert!(
        events
            .iter()
            .flat_map(|e| &e.dice)
            .all(|i| *i < public.len())
    );
    assert!(events.iter().any(|e| !e.dice.is_empty()));

    // Item 8: cut, reordered or padded, the archive fails.
    let last = archive::step_dir(&archive, v.steps);
    let cases: Vec<(&str, Spoil, &str)> = vec![
        (
            "last step removed",
            Box::new(|a: &Path| {
                std::fs::remove_dir_all(a.join(last.file_name().unwrap())).unwrap()
            }),
            "not in the archive",
        ),
        (
            "last step, end and sealed removed",
            Box::new(|a: &Path| {
                std::fs::remove_dir_all(a.join(last.file_name().unwrap())).unwrap();
                std::fs::remove_dir_all(a.join("sealed")).unwrap();
                std::fs::remove_file(a.join("end.yaml")).unwrap();
                std::fs::remove_file(a.join("end.yaml.sig")).unwrap();
            }),
            "the archive is cut",
        ),
        (
            "end removed",
            Box::new(|a: &Path| std::fs::remove_file(a.join("end.yaml")).unwrap()),
            "end.yaml",
        ),
        (
            "middle step removed",
            Box::new(|a: &Path| std::fs::remove_dir_all(a.join("step-0005")).unwrap()),
            "not in the archive",
        ),
        (
            "two steps swapped",
            Box::new(|a: &Path| {
                std::fs::rename(a.join("step-0003"), a.join("x")).unwrap();
                std::fs::rename(a.join("step-0004"), a.join("step-0003")).unwrap();
                std::fs::rename(a.join("x"), a.join("step-0004")).unwrap();
            }),
            "not in its step's folder",
        ),
        (
            "a file added",
            Box::new(|a: &Path| std::fs::write(a.join("step-0002/extra.yaml"), "x: 1\n").unwrap()),
            "step-0002/extra.yaml",
        ),
    ];
    for (i, (what, cut, expect)) in cases.iter().enumerate() {
        let copy = tmp.path().join(format!("cut-{i}"));
        copy_dir(&archive, &copy);
        cut(&copy);
        let e = audit::audit(&copy).expect_err(what).to_string();
        assert!(e.contains(expect), "{what}: {e}");
        println!("{what}: caught: {e}");
    }
    // The one cut that passes is a copy made while the game was in
    // progress: it says so, and claims nothing about the end.
    let copy = tmp.path().join("in-progress");
    copy_dir(&archive, &copy);
    std::fs::remove_dir_all(copy.join("sealed")).unwrap();
    std::fs::remove_file(copy.join("end.yaml")).unwrap();
    std::fs::remove_file(copy.join("end.yaml.sig")).unwrap();
    for f in std::fs::read_dir(&last).unwrap() {
        let name = f.unwrap().file_name();
        if !name.to_string_lossy().starts_with("notice.yaml") {
            std::fs::remove_file(copy.join(last.file_name().unwrap()).join(name)).unwrap();
        }
    }
    let v = audit::audit(&copy).unwrap();
    assert!(v.over.is_none());
    assert!(v.summary().contains("not over"), "{}", v.summary());
    assert!(!v.summary().contains("the game is over"));

    // Item 9: a forger re-signs every file with a key of his own.
    let real_pub = std::fs::read_to_string(server.join("server_key.pub")).unwrap();
    let real_fp = sig::fingerprint(&real_pub).unwrap();
    let forged = tmp.path().join("forged");
    copy_dir(&archive, &forged);
    let fake = sig::keygen("not-the-server").unwrap();
    resign::reforge(&forged, &fake.private_openssh, Some(&fake.public_line));
    // Sealed, the players' signed files name the notices the forger's
    // re-signing replaced: caught even without the pin.
    let e = audit::audit(&forged)
        .expect_err("a re-signed sealed game")
        .to_string();
    assert!(
        e.contains("sealed step 1") && e.contains("answers notice"),
        "{e}"
    );
    println!("forgery of a sealed game, unpinned: {e}");
    // While the game runs, the orders are sealed away: a re-signed copy is
    // consistent, and only the pin tells it apart.
    let running = tmp.path().join("forged-running");
    copy_dir(&copy, &running);
    resign::reforge(&running, &fake.private_openssh, Some(&fake.public_line));
    let v = audit::audit(&running).expect("consistent, so it passes unpinned");
    assert!(!v.pinned);
    assert!(v.summary().contains("not pinned"));
    let pin = |k: &str| Options {
        server_key: Some(k.to_string()),
    };
    for key in [real_fp.as_str(), real_pub.as_str()] {
        let e = audit::audit_with(&forged, &pin(key))
            .unwrap_err()
            .to_string();
        assert!(e.contains("not by the pinned key"), "{e}");
        let v = audit::audit_with(&archive, &pin(key)).unwrap();
        assert!(v.pinned && v.summary().contains("pinned server key"));
    }
    // The same through the command line, with the key file.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_galloper"))
        .arg("audit")
        .arg(&forged)
        .arg("--server-key")
        .arg(server.join("server_key.pub"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not by the pinned key"), "{err}");
    println!("forgery under --server-key: {err}");

    // Item 10: a link to /dev/zero, a FIFO, a huge sparse file: refused at
    // once, each with its path.
    let traps: Vec<(&str, Spoil, &str)> = vec![
        (
            "a link to /dev/zero",
            Box::new(|a: &Path| {
                let p = a.join("step-0001/map.png");
                std::fs::remove_file(&p).unwrap();
                std::os::unix::fs::symlink("/dev/zero", &p).unwrap();
            }),
            "step-0001/map.png: is a symbolic link",
        ),
        (
            "a FIFO",
            Box::new(|a: &Path| {
                let p = a.join("step-0002/view.yaml");
                std::fs::remove_file(&p).unwrap();
                let st = std::process::Command::new("mkfifo")
                    .arg(&p)
                    .status()
                    .unwrap();
                assert!(st.success());
            }),
            "step-0002/view.yaml: is a FIFO",
        ),
        (
            "a linked folder",
            Box::new(|a: &Path| std::os::unix::fs::symlink("/dev", a.join("step-0099")).unwrap()),
            "step-0099: is a symbolic link",
        ),
        (
            "a huge file",
            Box::new(|a: &Path| {
                let f = std::fs::File::create(a.join("step-0003/dice.yaml")).unwrap();
                f.set_len(audit::MAX_FILE + 1).unwrap();
            }),
            "more than",
        ),
    ];
    for (i, (what, trap, expect)) in traps.iter().enumerate() {
        let copy = tmp.path().join(format!("trap-{i}"));
        copy_dir(&archive, &copy);
        trap(&copy);
        let started = std::time::Instant::now();
        let e = audit_within(&copy, Duration::from_secs(60)).expect_err(what);
        assert!(e.contains(expect), "{what}: {e}");
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{what}: refused only after {:?}",
            started.elapsed()
        );
        println!("{what}: refused: {e}");
    }
}

/// Item 12, in part: the store's commit fails after the next step's
/// notice was written to the archive (a trigger stands in for a full
/// disk or a crash). The retry, and a restart, write the very same notice:
/// its secrets were stored before it was published.
#[test]
fn a_notice_once_written_is_never_drawn_again() {
    let mut t = table();
    for side in ["french", "austrians"] {
        let o = t.orders(side, &sha256_hex(b"ef"));
        t.send(side, &o);
    }
    let db = rusqlite::Connection::open(t.dir.join("data/galloper.db")).unwrap();
    db.execute_batch(
        "CREATE TRIGGER no_commit BEFORE UPDATE OF state_after ON steps BEGIN SELECT RAISE(ABORT, 'the disk is full'); END;",
    )
    .unwrap();
    let e = t.process().unwrap_err().to_string();
    assert!(e.contains("the disk is full"), "{e}");
    let notice = t.archive().join("step-0002/notice.yaml");
    let written = std::fs::read(&notice).expect("the notice went out before the commit");
    assert!(
        t.server.store().steps("g1").unwrap().len() == 1,
        "nothing committed"
    );

    // Again, failing: the same notice.
    assert!(t.process().is_err());
    assert_eq!(std::fs::read(&notice).unwrap(), written);

    // A restart, and the commit lands: still the same notice, stored as such.
    db.execute_batch("DROP TRIGGER no_commit;").unwrap();
    t.server = Server::open(&t.dir.join("data")).unwrap();
    assert_eq!(t.process().unwrap(), 1);
    assert_eq!(std::fs::read(&notice).unwrap(), written);
    let steps = t.server.store().steps("g1").unwrap();
    assert_eq!(steps[1].notice.as_bytes(), written.as_slice());
    let v = audit::audit(&t.archive()).unwrap();
    assert_eq!(v.open_step, Some(2));
}

/// Step 2 rolled back, then step 1 as well before step 2 resolved again:
/// both undone runs stay on the chain, the steps reopen as run 2, the
/// audit passes during the game and after the end, and each undone run's
/// folder is missed if removed.
#[test]
fn two_rollbacks_in_a_row_keep_both_undone_runs_on_the_chain() {
    let mut t = table();
    let owed = |t: &Table| -> Vec<String> {
        let (_, due) = t.server.due("g1").unwrap().unwrap();
        due.owed.iter().map(|o| o.side.to_string()).collect()
    };
    for round in 0..2 {
        for side in owed(&t) {
            let o = t.orders(&side, &sha256_hex(round.to_string().as_bytes()));
            t.send(&side, &o);
        }
        assert_eq!(t.process().unwrap(), 1);
    }
    t.gm("rollback: {step: 2, reason: first}").unwrap();
    t.gm("rollback: {step: 1, reason: second}").unwrap();
    let root = t.archive();
    assert!(root.join("step-0002/rollback-1/rollback.yaml").exists());
    assert!(root.join("step-0001/rollback-1/rollback.yaml").exists());
    assert!(!root.join("step-0002/notice.yaml").exists());
    let v = audit::audit(&root).unwrap();
    assert_eq!(v.open_step, Some(1));
    t.gm("resume").unwrap();
    // Every side sends again under the new notice.
    for side in owed(&t) {
        let o = t.orders(&side, &sha256_hex(b"after the rollbacks"));
        t.send(&side, &o);
    }
    assert_eq!(t.process().unwrap(), 1);
    let n2: Notice = yaml(&root.join("step-0002/notice.yaml"));
    assert_eq!((n2.step, n2.run), (2, 2));
    let v = audit::audit(&root).unwrap();
    assert_eq!(v.open_step, Some(2));
    assert_eq!(
        v.lines
            .iter()
            .filter(|l| l.contains("was rolled back"))
            .count(),
        2,
        "{:?}",
        v.lines
    );
    t.gm("end: {reason: enough}").unwrap();
    let v = audit::audit(&root).unwrap();
    assert!(v.replayed && v.over.is_some(), "{:?}", v.lines);
    for undone in ["step-0001/rollback-1", "step-0002/rollback-1"] {
        let copy = t.dir.join(undone.replace('/', "-"));
        copy_dir(&root, &copy);
        std::fs::remove_dir_all(copy.join(undone)).unwrap();
        let e = audit::audit(&copy).unwrap_err().to_string();
        assert!(e.contains("not in the archive"), "{undone}: {e}");
    }
}

/// Issue 29, item 2: the server replaces a step's secrets, and so its
/// notice's commitments, after the orders came (free to pick the dice it
/// likes), and signs the new notice with its own real key. The chain it
/// writes is whole and every die follows from the new secrets, so while the
/// game runs the audit passes so far; once sealed, the players' signed
/// files name the notice that is gone, and the audit fails at that step,
/// with the key pinned or not.
#[test]
fn a_commitment_replaced_after_the_orders_fails_at_its_step_once_sealed() {
    let mut t = table();
    let owed = |t: &Table| -> Vec<String> {
        let (_, due) = t.server.due("g1").unwrap().unwrap();
        due.owed.iter().map(|o| o.side.to_string()).collect()
    };
    for side in owed(&t) {
        let o = t.orders(&side, &sha256_hex(format!("one {side}").as_bytes()));
        t.send(&side, &o);
    }
    assert_eq!(t.process().unwrap(), 1);
    for side in owed(&t) {
        let o = t.orders(&side, &sha256_hex(format!("two {side}").as_bytes()));
        t.send(&side, &o);
    }
    // The orders of step 2 are in. The server draws secrets of its choice
    // and rewrites the step's notice to commit to them.
    let data = t.dir.join("data");
    let key = std::fs::read_to_string(data.join("server_key")).unwrap();
    let open = t.server.store().open_step("g1").unwrap().unwrap();
    let (p, h) = ([7u8; 32], [9u8; 32]);
    let mut n: Notice = galloper::yaml::from_str(&open.notice).unwrap();
    n.public_commitment = hex::encode(protocol::commit(StreamKind::Public, "g1", 2, &p));
    n.hidden_commitment = hex::encode(protocol::commit(StreamKind::Hidden, "g1", 2, &h));
    let text = galloper::yaml::to_string(&n).unwrap();
    let signature = sig::sign(&key, sig::REPORT_NAMESPACE, text.as_bytes()).unwrap();
    let db = rusqlite::Connection::open(data.join("galloper.db")).unwrap();
    db.execute(
        "UPDATE steps SET public_secret = ?1, hidden_secret = ?2, notice = ?3, notice_sig = ?4 WHERE game = 'g1' AND step = 2",
        rusqlite::params![p.to_vec(), h.to_vec(), text, signature],
    )
    .unwrap();
    let root = t.archive();
    std::fs::write(root.join("step-0002/notice.yaml"), &text).unwrap();
    std::fs::write(root.join("step-0002/notice.yaml.sig"), &signature).unwrap();
    assert_eq!(t.process().unwrap(), 1, "resolved with the new secrets");
    let reveal: Reveal = yaml(&root.join("step-0002/reveal.yaml"));
    assert_eq!(reveal.public_secret, hex::encode(p));

    // While the game runs, nothing public shows it.
    let real =
        sig::fingerprint(&std::fs::read_to_string(data.join("server_key.pub")).unwrap()).unwrap();
    let pinned = Options {
        server_key: Some(real.clone()),
    };
    let v = audit::audit_with(&root, &pinned).expect("passes so far");
    assert!(v.over.is_none() && v.pinned);

    // Sealed, it fails at step 2, pinned to the real key or not.
    t.gm("end: {reason: the test is over}").unwrap();
    for opts in [pinned, Options::default()] {
        let e = audit::audit_with(&root, &opts).unwrap_err().to_string();
        assert!(
            e.contains("AUDIT FAILED at sealed step 2: orders-")
                && e.contains("answers notice")
                && e.contains(&galloper::envelope::notice_sha256(&text)),
            "{e}"
        );
    }
}
