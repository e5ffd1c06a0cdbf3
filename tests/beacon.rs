//! Protocol version 2 (docs/DICE.md): a game that takes a drand quicknet
//! round into each step's dice, played with REAL published rounds
//! (tests/data/drand-quicknet-rounds.json): the notice names the first round
//! after the deadline, the step waits for it, a round that does not verify
//! stops the step and tells the game master, the archive keeps the round and
//! the audit verifies it, and an altered beacon file fails the audit.

#[path = "support/resign.rs"]
mod resign;

use galloper::archive::sha256_hex;
use galloper::archive::{self, Notice, Reveal};
use galloper::audit;
use galloper::dice::StreamKind;
use galloper::dice::beacon::{self, QUICKNET, Round};
use galloper::envelope;
use galloper::mail::compose::Party;
use galloper::server::admin::GameMaster;
use galloper::server::beacon::{BeaconFile, BeaconStart};
use galloper::server::{MailSettings, PlayerSpec, Server};
use galloper::side::SideId;
use galloper::sig::{self, KeyPair};
use resign::resign;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const GAME: &str = "b1";

/// Deadlines at 16:40 UTC, an hour at least after a step opens. Quicknet
/// rounds fall on every third second from 15:09:27 UTC on 23 August 2023,
/// so the first round after a 16:40:00 close is the one at 16:40:03.
const SCHEDULE: &str =
    "zone: UTC\ntime: \"16:40\"\nmin_hours: 1\ngrace_minutes: 0\nwarnings: [24]\nmissed: default\n";

fn at(s: &str) -> i64 {
    s.parse::<jiff::Timestamp>().unwrap().as_second()
}

#[derive(Deserialize)]
struct Recorded {
    chain: RecordedChain,
    rounds: Vec<RecordedRound>,
}

#[derive(Deserialize)]
struct RecordedChain {
    name: String,
    hash: String,
    public_key: String,
    genesis_time: i64,
    period: i64,
}

#[derive(Deserialize)]
struct RecordedRound {
    round: u64,
    signature: String,
    randomness: String,
    time: String,
}

fn recorded() -> Recorded {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/drand-quicknet-rounds.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The recorded signature of `round`, hex.
fn signature(round: u64) -> String {
    recorded()
        .rounds
        .into_iter()
        .find(|r| r.round == round)
        .unwrap_or_else(|| panic!("round {round} is not recorded"))
        .signature
}

#[test]
fn every_recorded_round_verifies_against_quicknet_and_no_other_round() {
    let rec = recorded();
    assert_eq!(rec.chain.name, QUICKNET.name);
    assert_eq!(rec.chain.hash, QUICKNET.hash);
    assert_eq!(rec.chain.public_key, QUICKNET.public_key);
    assert_eq!(rec.chain.genesis_time, QUICKNET.genesis);
    assert_eq!(rec.chain.period, QUICKNET.period);
    assert!(rec.rounds.len() >= 5);
    for r in &rec.rounds {
        let round = Round {
            round: r.round,
            signature: hex::decode(&r.signature).unwrap(),
        };
        let randomness = QUICKNET.verify(&round).unwrap_or_else(|e| {
            panic!("recorded round {} does not verify: {e}", r.round);
        });
        assert_eq!(hex::encode(randomness), r.randomness, "round {}", r.round);
        assert_eq!(
            QUICKNET.round_time(r.round),
            at(&r.time),
            "round {}",
            r.round
        );
        // The same signature claimed for the next round is refused.
        let moved = Round {
            round: r.round + 1,
            ..round
        };
        assert!(QUICKNET.verify(&moved).is_err(), "round {}", r.round);
    }
}

struct Club {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
    server: Server,
    keys: BTreeMap<String, KeyPair>,
}

impl Club {
    fn data(&self) -> PathBuf {
        self.dir.join("data")
    }
    fn outbox(&self) -> PathBuf {
        self.dir.join("reports")
    }
    fn archive(&self) -> PathBuf {
        self.server.archive_dir(GAME)
    }
    fn process(&mut self) -> usize {
        let out = self.outbox();
        self.server.process(&out).unwrap().len()
    }
    fn tick(&mut self, now: i64) {
        let out = self.outbox();
        self.server.tick(now, &out).unwrap();
    }
    fn open_step(&self) -> u32 {
        self.server.due(GAME).unwrap().expect("an open step").0.step
    }
    fn submit(&mut self, side: &str, text: &str) {
        let k = &self.keys[side];
        let signature =
            sig::sign(&k.private_openssh, sig::ORDERS_NAMESPACE, text.as_bytes()).unwrap();
        self.server
            .submit(&format!("{side}.yaml"), text.as_bytes(), &signature)
            .expect("orders accepted");
    }
    fn deploy(&mut self, side: &str) {
        let t = galloper::cli::template(&self.server, GAME, &SideId::new(side)).unwrap();
        let t = envelope::with_entropy(&t, &sha256_hex(b"cd"));
        self.submit(side, &t);
    }
    /// The side that owes the open round passes.
    fn pass(&mut self) {
        let (step, due) = self.server.due(GAME).unwrap().unwrap();
        let side = due.owed[0].side.clone();
        let head = envelope::Head {
            game: GAME,
            step: step.step,
            side: &side,
            notice: &envelope::notice_sha256(&step.notice),
            revision: self.server.next_revision(GAME, &side).unwrap(),
        };
        let t = envelope::compose(&head, &sha256_hex(b"ef"), "round:\n  command: pass\n");
        self.submit(side.as_str(), &t);
    }
    fn notice(&self, step: u32) -> Notice {
        let text =
            std::fs::read_to_string(archive::step_dir(&self.archive(), step).join("notice.yaml"))
                .unwrap();
        galloper::yaml::from_str(&text).unwrap()
    }
    fn gm_mails(&self) -> Vec<String> {
        self.server
            .store()
            .mails()
            .unwrap()
            .into_iter()
            .filter(|m| m.kind == "gm")
            // Quoted-printable: join the soft line breaks.
            .map(|m| {
                String::from_utf8_lossy(&m.bytes)
                    .replace("=\r\n", "")
                    .replace("=\n", "")
            })
            .collect()
    }
    fn server_key(&self) -> String {
        std::fs::read_to_string(self.data().join("server_key")).unwrap()
    }
}

fn players() -> (BTreeMap<String, KeyPair>, Vec<PlayerSpec>) {
    let mut keys = BTreeMap::new();
    let mut players = Vec::new();
    for side in ["french", "austrians"] {
        let k = sig::keygen(side).unwrap();
        players.push(PlayerSpec {
            side: SideId::new(side),
            email: format!("{side}@players.example"),
            public_key: k.public_line.clone(),
        });
        keys.insert(side.to_string(), k);
    }
    (keys, players)
}

/// A beacon game created on 20 August 2023, three days before quicknet's
/// first round: its first step's deadline (16:40 that day) names round 1.
fn club() -> Club {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let mut server = Server::open(&dir.join("data")).unwrap();
    server.set_mail(Some(MailSettings {
        from: Party {
            name: Some("Club".into()),
            email: "club@club.example".into(),
        },
        domain: "club.example".into(),
        game_master: Some("gm@club.example".into()),
    }));
    let (keys, players) = players();
    server
        .new_game_with(
            GAME,
            galloper::demo::SCENARIO,
            &players,
            Some(SCHEDULE),
            Some(BeaconStart {
                chain: &QUICKNET,
                now: at("2023-08-20T10:00:00Z"),
            }),
        )
        .unwrap();
    Club {
        _tmp: tmp,
        dir,
        server,
        keys,
    }
}

/// Everything under `dir`, file by file, to show that nothing changed.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else {
                out.insert(p.clone(), std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

fn copy_dir(from: &Path, to: &Path) {
    for (p, bytes) in snapshot(from) {
        let dest = to.join(p.strip_prefix(from).unwrap());
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        std::fs::write(dest, bytes).unwrap();
    }
}

/// The game played with real rounds 1 and 14517013, ended by the game
/// master at step 3 (whose round is not recorded), sealed.
fn played() -> Club {
    let mut c = club();
    let n1 = c.notice(1);
    let b1 = n1.beacon.clone().expect("the first notice names a round");
    assert_eq!(
        (b1.chain.as_str(), b1.round, b1.deadline.as_str()),
        ("quicknet", 1, "2023-08-20T16:40:00Z")
    );
    c.deploy("french");
    c.deploy("austrians");
    // The server learns the time (as the daemon's tick does before each
    // batch); step 1's deadline passed long ago, and nobody owes anything.
    c.tick(at("2025-01-08T10:00:00Z"));
    // Every order is in, but round 1 is not in the folder yet: the step waits.
    assert_eq!(c.process(), 0);
    assert_eq!(c.open_step(), 1);
    let wait = c.server.beacon_wait(GAME).unwrap().unwrap();
    assert!(
        wait.contains("quicknet round 1") && wait.contains("not in the round folder"),
        "{wait}"
    );

    c.server
        .add_beacon_round("quicknet", 1, &signature(1))
        .unwrap();
    assert_eq!(c.process(), 1);
    // Step 2 opened at the server's time (10:00 on 8 January 2025): its
    // deadline is 16:40 that day, and its round the first after it.
    let b2 = c.notice(2).beacon.expect("every notice names a round");
    assert_eq!(b2.deadline, "2025-01-08T16:40:00Z");
    assert_eq!(b2.round, 14517013);
    assert_eq!(b2.round_time, "2025-01-08T16:40:03Z");
    c.tick(at("2025-01-08T10:05:00Z"));
    assert_eq!(
        c.server
            .store()
            .deadline(GAME, 2)
            .unwrap()
            .unwrap()
            .deadline,
        at("2025-01-08T16:40:00Z"),
        "the clock keeps the deadline the notice fixed"
    );
    c.pass();
    assert_eq!(c.process(), 0, "the round is not there yet");
    c.server
        .add_beacon_round("quicknet", 14517013, &signature(14517013))
        .unwrap();
    assert_eq!(c.process(), 1);
    assert_eq!(c.open_step(), 3);
    let b3 = c.notice(3).beacon.unwrap();
    assert_eq!(b3.deadline, "2025-01-09T16:40:00Z");
    assert_eq!(b3.round, 14517013 + 86400 / 3);

    // The game master ends the game: the archive is sealed.
    end(&mut c);
    c
}

/// The game master ends the game: the archive is sealed.
fn end(c: &mut Club) {
    let gm_key = sig::keygen("gm").unwrap();
    let gm = GameMaster {
        key: Some(gm_key.public_line.clone()),
        email: Some("gm@club.example".into()),
    };
    let file = format!(
        "galloper: 1\ngame: {GAME}\nissued: 2025-01-08T18:00:00Z\nby: gm\ncreated: {}\ncommand:\n  end: {{reason: the beacon test is over}}\n",
        c.server.game_created(GAME).unwrap()
    );
    let s = sig::sign(
        &gm_key.private_openssh,
        sig::COMMAND_NAMESPACE,
        file.as_bytes(),
    )
    .unwrap();
    c.server
        .run_command(
            "end.yaml",
            file.as_bytes(),
            &s,
            &gm,
            at("2025-01-08T18:00:00Z"),
        )
        .unwrap();
}

#[test]
fn a_beacon_game_plays_archives_and_audits_with_real_rounds() {
    let c = played();
    let root = c.archive();
    let game_yaml = std::fs::read_to_string(root.join("game.yaml")).unwrap();
    assert!(game_yaml.contains("chain: quicknet"), "{game_yaml}");
    assert!(game_yaml.contains(QUICKNET.hash), "{game_yaml}");

    for (step, round) in [(1u32, 1u64), (2, 14517013)] {
        let dir = archive::step_dir(&root, step);
        let file: BeaconFile =
            galloper::yaml::from_str(&std::fs::read_to_string(dir.join("beacon.yaml")).unwrap())
                .unwrap();
        assert_eq!((file.protocol, file.round), (2, round));
        assert_eq!(file.signature, signature(round));
        let manifest = std::fs::read_to_string(dir.join("manifest.yaml")).unwrap();
        assert!(manifest.contains("beacon.yaml"), "{manifest}");
        // The public seed is the version-2 seed with the round's randomness,
        // not the version-1 seed of the same secret and orders.
        let reveal: Reveal =
            galloper::yaml::from_str(&std::fs::read_to_string(dir.join("reveal.yaml")).unwrap())
                .unwrap();
        let p: [u8; 32] = hex::decode(&reveal.public_secret)
            .unwrap()
            .try_into()
            .unwrap();
        let mix = hex::decode(&reveal.mix).unwrap();
        let randomness = Round {
            round,
            signature: hex::decode(signature(round)).unwrap(),
        }
        .randomness();
        assert_eq!(
            reveal.public_seed,
            hex::encode(beacon::seed(StreamKind::Public, &p, &mix, &randomness))
        );
        assert_ne!(
            reveal.public_seed,
            hex::encode(galloper::dice::protocol::seed(StreamKind::Public, &p, &mix))
        );
    }

    // Each report names the round, for a player who recomputes the seed.
    let report =
        std::fs::read_to_string(c.outbox().join(GAME).join("step-0002/french/report.txt")).unwrap();
    assert!(
        report.contains("beacon: quicknet round 14517013, randomness 97d920a0817f74b4dbff89a721faeda4ea307bc5d8890ebb833700ea68b2d106"),
        "{report}"
    );

    let v = audit::audit(&root).unwrap_or_else(|f| panic!("{f}"));
    assert!(v.replayed, "{:?}", v.lines);
    assert_eq!(v.steps, 2);
    let text = v.lines.join("\n");
    assert!(
        text.contains("step 1: ") && text.contains("beacon round 1 verified"),
        "{text}"
    );
    assert!(text.contains("beacon round 14517013 verified"), "{text}");
}

#[test]
fn a_round_that_fails_verification_stops_the_step_tells_the_game_master_and_changes_nothing() {
    let mut c = club();
    c.deploy("french");
    c.deploy("austrians");
    c.tick(at("2025-01-08T10:00:00Z"));
    // A relay (or whoever fills the folder) serves round 2's real signature
    // as round 1.
    let folder = c.data().join("beacon").join("quicknet");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(
        folder.join("1.json"),
        format!("{{\"round\":1,\"signature\":\"{}\"}}", signature(2)),
    )
    .unwrap();
    let before = snapshot(&c.archive());
    let steps_before = c.server.store().steps(GAME).unwrap();
    assert_eq!(c.process(), 0);
    assert_eq!(c.process(), 0);
    assert_eq!(c.open_step(), 1);
    assert_eq!(snapshot(&c.archive()), before, "the archive is untouched");
    assert_eq!(c.server.store().steps(GAME).unwrap(), steps_before);
    let told = c.gm_mails();
    assert_eq!(told.len(), 1, "told once, not at every batch: {told:?}");
    assert!(
        told[0].contains("beacon round 1") && told[0].contains("was refused"),
        "{}",
        told[0]
    );
    assert!(
        told[0].contains("does not verify for round 1"),
        "{}",
        told[0]
    );

    // `galloper beacon add` refuses the same bad round outright.
    let e = c
        .server
        .add_beacon_round("quicknet", 1, &signature(2))
        .unwrap_err();
    assert!(
        format!("{e:#}").contains("does not verify for round 1"),
        "{e:#}"
    );
    // A file that is not a round at all stops it the same way.
    std::fs::write(folder.join("1.json"), "not json").unwrap();
    assert_eq!(c.process(), 0);
    assert_eq!(c.gm_mails().len(), 2);

    // With the real round the step resolves.
    c.server
        .add_beacon_round("quicknet", 1, &signature(1))
        .unwrap();
    assert_eq!(c.process(), 1);
    assert_eq!(c.open_step(), 2);
}

#[test]
fn the_deadline_of_a_beacon_step_cannot_move_past_its_round() {
    let mut c = club();
    c.deploy("french");
    c.deploy("austrians");
    c.tick(at("2025-01-08T10:00:00Z"));
    c.server
        .add_beacon_round("quicknet", 1, &signature(1))
        .unwrap();
    assert_eq!(c.process(), 1);
    let now = at("2025-01-08T11:00:00Z");
    c.tick(now);
    // Round 14517013 is published at 16:40:03: a deadline at 16:41 would
    // take orders once the dice are known.
    let e = c
        .server
        .extend_deadline(GAME, at("2025-01-08T16:41:00Z"), now)
        .unwrap_err();
    assert!(e.to_string().contains("round 14517013"), "{e}");
    c.server
        .extend_deadline(GAME, at("2025-01-08T16:40:02Z"), now)
        .unwrap();
}

#[test]
fn a_beacon_needs_a_schedule_and_a_plain_game_keeps_version_1() {
    let tmp = tempfile::tempdir().unwrap();
    let mut server = Server::open(&tmp.path().join("data")).unwrap();
    let (_, players) = players();
    let start = BeaconStart {
        chain: &QUICKNET,
        now: at("2025-01-08T10:00:00Z"),
    };
    let e = server
        .new_game_with(GAME, galloper::demo::SCENARIO, &players, None, Some(start))
        .unwrap_err();
    assert!(e.to_string().contains("needs a schedule"), "{e}");
    assert!(server.store().game(GAME).unwrap().is_none());
    assert_eq!(server.store().beacon_chain(GAME).unwrap(), None);

    // A game without a beacon: no beacon anywhere, notice bytes as before.
    server
        .new_game("plain", galloper::demo::SCENARIO, &players)
        .unwrap();
    let root = server.archive_dir("plain");
    let notice = std::fs::read_to_string(archive::step_dir(&root, 1).join("notice.yaml")).unwrap();
    let game = std::fs::read_to_string(root.join("game.yaml")).unwrap();
    assert!(!notice.contains("beacon") && !game.contains("beacon"));
}

#[test]
fn an_altered_beacon_file_fails_the_audit() {
    let c = played();
    let root = c.archive();
    let key = c.server_key();
    let work = tempfile::tempdir().unwrap();
    let case = |name: &str| {
        let dir = work.path().join(name);
        copy_dir(&root, &dir);
        dir
    };
    let step2 = |dir: &Path| archive::step_dir(dir, 2);
    let edit_beacon = |dir: &Path, f: &dyn Fn(&str) -> String| {
        let p = step2(dir).join("beacon.yaml");
        let t = std::fs::read_to_string(&p).unwrap();
        std::fs::write(&p, f(&t)).unwrap();
    };
    let other = |t: &str| t.replace(&signature(14517013), &signature(123));

    // Changed after signing: the manifest catches it.
    let dir = case("changed");
    edit_beacon(&dir, &other);
    let f = audit::audit(&dir).unwrap_err();
    assert!(f.to_string().contains("file changed after signing"), "{f}");

    // Changed and the folder signed again by the server itself: the round's
    // own signature does not verify.
    let dir = case("resigned");
    edit_beacon(&dir, &other);
    resign(&step2(&dir), &key);
    let f = audit::audit(&dir).unwrap_err();
    assert!(
        f.to_string().contains("does not verify for round 14517013"),
        "{f}"
    );

    // Another real round put in its place (its own number and signature):
    // not the round the notice named.
    let dir = case("other-round");
    edit_beacon(&dir, &|t: &str| {
        other(t).replace("round: 14517013", "round: 123")
    });
    resign(&step2(&dir), &key);
    let f = audit::audit(&dir).unwrap_err();
    assert!(
        f.to_string()
            .contains("the notice named quicknet round 14517013"),
        "{f}"
    );

    // The round removed, the manifest signed again without it.
    let dir = case("removed");
    std::fs::remove_file(step2(&dir).join("beacon.yaml")).unwrap();
    let m = step2(&dir).join("manifest.yaml");
    let t = std::fs::read_to_string(&m).unwrap();
    let kept: String = t
        .lines()
        .filter(|l| !l.contains("beacon.yaml"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&m, kept).unwrap();
    resign(&step2(&dir), &key);
    let f = audit::audit(&dir).unwrap_err();
    // Its manifest signed again no longer matches the chain's link to it.
    assert!(
        f.to_string().contains("lists no beacon.yaml")
            || f.to_string().contains("which is not in the archive"),
        "{f}"
    );

    // The beacon dropped from game.yaml (signed again): every notice still
    // names a round, so the audit says so.
    let dir = case("no-beacon-in-game");
    let g = dir.join("game.yaml");
    let t = std::fs::read_to_string(&g).unwrap();
    let cut = t.find("beacon:").unwrap();
    std::fs::write(&g, &t[..cut]).unwrap();
    // The whole chain signed again after it, as a forging server would.
    resign::reforge(&dir, &key, None);
    let f = audit::audit(&dir).unwrap_err();
    // Either the chain's first link or the beacon check catches it.
    assert!(
        f.to_string().contains("game.yaml names no beacon")
            || f.to_string().contains("which is not in the archive"),
        "{f}"
    );

    // The untouched archive still passes.
    audit::audit(&root).unwrap_or_else(|f| panic!("{f}"));
}

fn galloper(data: &Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_galloper"))
        .arg("--data")
        .arg(data)
        .args(args)
        .output()
        .expect("galloper runs")
}

#[test]
fn the_command_line_creates_a_beacon_game_and_takes_only_rounds_that_verify() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let data = d.join("data");
    let mut args: Vec<String> = Vec::new();
    for side in ["french", "austrians"] {
        let k = sig::keygen(side).unwrap();
        let path = d.join(format!("{side}.pub"));
        std::fs::write(&path, &k.public_line).unwrap();
        args.push("--player".into());
        args.push(format!("{side}:{side}@x.example:{}", path.display()));
    }
    let scenario = d.join("scenario.yaml");
    std::fs::write(&scenario, galloper::demo::SCENARIO).unwrap();
    let schedule = d.join("schedule.yaml");
    std::fs::write(&schedule, SCHEDULE).unwrap();
    let new = |extra: &[&str]| {
        let mut a: Vec<&str> = vec!["new", scenario.to_str().unwrap(), "--game", GAME];
        a.extend(args.iter().map(String::as_str));
        a.extend(extra);
        galloper(&data, &a)
    };

    let o = new(&["--beacon", "quicknet"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--schedule"));
    let o = new(&[
        "--schedule",
        schedule.to_str().unwrap(),
        "--beacon",
        "quicknet",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("beacon: step 1 takes quicknet round"), "{out}");

    let o = galloper(&data, &["beacon", "add", "1", &signature(2)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("does not verify for round 1"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!data.join("beacon/quicknet/1.json").exists());
    let o = galloper(&data, &["beacon", "add", "1", &signature(1)]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let file = std::fs::read_to_string(data.join("beacon/quicknet/1.json")).unwrap();
    assert!(file.contains(&signature(1)), "{file}");
}

/// A drand relay on loopback serving `rounds` (round -> signature hex) at
/// `/CHAINHASH/public/ROUND`, 404 otherwise; it answers at most `max`
/// requests and counts them.
fn relay(
    rounds: BTreeMap<u64, String>,
    max: usize,
) -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use std::io::{BufRead, BufReader, Write};
    use std::sync::atomic::{AtomicUsize, Ordering};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let count = std::sync::Arc::new(AtomicUsize::new(0));
    let seen = count.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().take(max) {
            let Ok(mut stream) = stream else { continue };
            seen.fetch_add(1, Ordering::SeqCst);
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut first = String::new();
            reader.read_line(&mut first).unwrap();
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap() == 0 || line == "\r\n" {
                    break;
                }
            }
            let path = first.split_whitespace().nth(1).unwrap_or("").to_string();
            let prefix = format!("/{}/public/", QUICKNET.hash);
            let found = path
                .strip_prefix(&prefix)
                .and_then(|r| r.parse::<u64>().ok())
                .and_then(|r| rounds.get(&r).map(|s| (r, s)));
            let (status, body) = match found {
                Some((r, s)) => (
                    "200 OK",
                    format!("{{\"round\":{r},\"randomness\":\"00\",\"signature\":\"{s}\"}}"),
                ),
                None => ("404 Not Found", "not found".to_string()),
            };
            let _ = write!(
                stream,
                "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    (url, count)
}

fn fetch(c: &mut Club, relay: &str, now: i64) {
    galloper::daemon::beacon::fetch_due(
        &mut c.server,
        relay,
        now,
        std::time::Duration::from_secs(5),
    )
    .unwrap();
}

#[test]
fn the_daemon_fetches_due_rounds_from_a_relay_and_verifies_them() {
    use std::sync::atomic::Ordering;
    let served: BTreeMap<u64, String> = [1, 14517013].map(|r| (r, signature(r))).into();
    let (url, requests) = relay(served, 10);
    let mut c = club();
    c.deploy("french");
    c.deploy("austrians");
    let t = at("2025-01-08T10:00:00Z");
    c.tick(t);
    fetch(&mut c, &url, t);
    assert_eq!(requests.load(Ordering::SeqCst), 1);
    assert!(c.data().join("beacon/quicknet/1.json").exists());
    assert_eq!(c.process(), 1);
    // Round 14517013 is published at 16:40:03: not asked for before.
    c.pass();
    fetch(&mut c, &url, at("2025-01-08T16:40:02Z"));
    assert_eq!(requests.load(Ordering::SeqCst), 1);
    assert_eq!(c.process(), 0);
    fetch(&mut c, &url, at("2025-01-08T16:40:05Z"));
    assert_eq!(requests.load(Ordering::SeqCst), 2);
    assert_eq!(c.process(), 1);
    // Step 3's round is not served (404): the step waits, nothing breaks.
    fetch(&mut c, &url, at("2025-01-10T00:00:00Z"));
    assert_eq!(requests.load(Ordering::SeqCst), 3);
    assert_eq!(c.open_step(), 3);
    audit::audit(&c.archive()).unwrap_or_else(|f| panic!("{f}"));
}

#[test]
fn a_relay_serving_a_round_that_does_not_verify_stops_the_step_and_tells_the_game_master() {
    // Round 2's real signature served as round 1.
    let served: BTreeMap<u64, String> = [(1, signature(2))].into();
    let (url, _) = relay(served, 10);
    let mut c = club();
    c.deploy("french");
    c.deploy("austrians");
    let t = at("2025-01-08T10:00:00Z");
    c.tick(t);
    fetch(&mut c, &url, t);
    fetch(&mut c, &url, t + 60);
    assert!(!c.data().join("beacon/quicknet/1.json").exists());
    assert_eq!(c.process(), 0);
    assert_eq!(c.open_step(), 1);
    let told = c.gm_mails();
    assert_eq!(told.len(), 1, "{told:?}");
    assert!(
        told[0].contains("does not verify for round 1"),
        "{}",
        told[0]
    );
}

/// Issue 29, item 3: a beacon step's orders close at its notice's
/// `orders_close`. A file received after it is refused with the reason and
/// stores nothing; the archive shows, under the server's signature, when
/// each file mixed into a step came, and the audit holds that time against
/// the close.
#[test]
fn a_file_after_the_close_of_orders_is_refused_and_the_archive_times_every_file() {
    let mut c = club();
    c.deploy("french");
    // The server's clock passes the close of step 1's orders (16:40:00 on
    // 20 August 2023; round 1 is due at 16:40:03 on the 23rd, the chain's
    // start): the Austrians' file comes a second late.
    c.server.see_time(at("2023-08-20T16:40:01Z"));
    let t = galloper::cli::template(&c.server, GAME, &SideId::new("austrians")).unwrap();
    let t = envelope::with_entropy(&t, &sha256_hex(b"late"));
    let k = &c.keys["austrians"];
    let s = sig::sign(&k.private_openssh, sig::ORDERS_NAMESPACE, t.as_bytes()).unwrap();
    let before = c.server.store().latest_orders(GAME, 1).unwrap();
    let e = c
        .server
        .submit("austrians.yaml", t.as_bytes(), &s)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("reached the server at 2023-08-20T16:40:01Z")
            && e.contains("closed its orders at 2023-08-20T16:40:00Z")
            && e.contains("round 1"),
        "{e}"
    );
    assert_eq!(
        c.server.store().latest_orders(GAME, 1).unwrap(),
        before,
        "nothing stored"
    );

    // The played game's archive gives each player's file its receipt time,
    // at or before the close; the audit fails a time after it.
    let c = played();
    let root = c.archive();
    for step in [1u32, 2] {
        let index: archive::OrdersIndex = galloper::yaml::from_str(
            &std::fs::read_to_string(archive::step_dir(&root, step).join("orders.yaml")).unwrap(),
        )
        .unwrap();
        let close = c.notice(step).beacon.unwrap().orders_close;
        for e in &index.sides {
            let at_ = e.received.as_deref().expect("a receipt time");
            assert!(
                at(at_) <= at(&close),
                "step {step} {}: {at_} > {close}",
                e.side
            );
        }
    }
    let late = c.dir.join("late");
    copy_dir(&root, &late);
    let orders = late.join("step-0002/orders.yaml");
    let text = std::fs::read_to_string(&orders).unwrap();
    let mut index: archive::OrdersIndex = galloper::yaml::from_str(&text).unwrap();
    index.sides[0].received = Some("2025-01-08T16:40:01Z".into());
    std::fs::write(&orders, galloper::yaml::to_string(&index).unwrap()).unwrap();
    resign(&late, &c.server_key());
    let f = audit::audit(&late).unwrap_err().to_string();
    assert!(
        f.contains("AUDIT FAILED at step 2")
            && f.contains("received at 2025-01-08T16:40:01Z, after the close of orders"),
        "{f}"
    );
}

/// Issue 29, item 3: a beacon step whose orders closed with a side still
/// owing them, and no orders the rule could apply (a deployment has no
/// default), can take no more files: it opens again as a new run, with
/// fresh secrets, a new deadline and a later round, and the chain keeps the
/// withdrawn run's notice under a signed note. The game goes on and audits.
#[test]
fn a_beacon_step_closed_unanswered_opens_again_and_the_chain_keeps_it() {
    let mut c = club();
    c.deploy("french");
    c.tick(at("2023-08-20T10:05:00Z"));
    let first = c.notice(1);
    assert_eq!(first.run, 1);
    // The Austrians never deploy; the close passes.
    c.tick(at("2023-08-20T16:41:00Z"));
    let again = c.notice(1);
    assert_eq!(again.run, 2, "step 1 opened again");
    assert_ne!(again.public_commitment, first.public_commitment);
    let b = again.beacon.clone().unwrap();
    assert_eq!(b.deadline, "2023-08-21T16:40:00Z", "the next deadline");
    let root = c.archive();
    let kept = root.join("step-0001/rollback-1");
    assert_eq!(
        std::fs::read_to_string(kept.join("notice.yaml")).unwrap(),
        galloper::yaml::to_string(&first).unwrap(),
        "the withdrawn notice stays on the chain"
    );
    assert!(kept.join("rollback.yaml.sig").exists());
    assert!(
        c.server.store().latest_orders(GAME, 1).unwrap().is_empty(),
        "the French file answered the withdrawn notice"
    );
    let told: Vec<String> = c
        .server
        .store()
        .mails()
        .unwrap()
        .into_iter()
        .filter(|m| m.kind == "notice")
        .map(|m| {
            String::from_utf8_lossy(&m.bytes)
                .replace("=\r\n", "")
                .replace("=\n", "")
        })
        .collect();
    assert_eq!(told.len(), 2, "both players are told");
    let hash = envelope::notice_sha256(
        &std::fs::read_to_string(root.join("step-0001/notice.yaml")).unwrap(),
    );
    assert!(told.iter().all(|t| t.contains(&hash)), "{told:?}");

    // Both deploy under the new notice; the step resolves with its round.
    c.deploy("french");
    c.deploy("austrians");
    c.server
        .add_beacon_round("quicknet", b.round, &signature(b.round))
        .unwrap();
    assert_eq!(c.process(), 1);
    let v = audit::audit(&root).unwrap_or_else(|f| panic!("{f}"));
    assert!(
        v.lines
            .iter()
            .any(|l| l.contains("run 1 was opened again unresolved")),
        "{:?}",
        v.lines
    );
    // Sealed, the whole game replays; the withdrawn run rolled no dice.
    end(&mut c);
    let v = audit::audit(&root).unwrap_or_else(|f| panic!("{f}"));
    assert!(v.replayed && v.over.is_some(), "{:?}", v.lines);
    // Removing the withdrawn run is caught.
    let cut = c.dir.join("cut");
    copy_dir(&root, &cut);
    std::fs::remove_dir_all(cut.join("step-0001/rollback-1")).unwrap();
    let e = audit::audit(&cut).unwrap_err().to_string();
    assert!(e.contains("not in the archive"), "{e}");
}

/// Issue 31, item 8: a refused game master command leaves the archive
/// exactly as it was, and a mailed rollback of a beacon step works on a
/// server that has not ticked (the daemon run from cron): the command's
/// time names the new run's round.
#[test]
fn a_refused_rollback_writes_nothing_and_a_rollback_needs_no_tick() {
    let mut c = club();
    c.deploy("french");
    c.deploy("austrians");
    c.tick(at("2025-01-08T10:00:00Z"));
    c.server
        .add_beacon_round("quicknet", 1, &signature(1))
        .unwrap();
    assert_eq!(c.process(), 1);
    let root = c.archive();
    let before = snapshot(&root);
    let gm_key = sig::keygen("gm").unwrap();
    let gm = GameMaster {
        key: Some(gm_key.public_line.clone()),
        email: Some("gm@club.example".into()),
    };
    let created = c.server.game_created(GAME).unwrap();
    let command = |body: &str, n: u32| {
        let file = format!(
            "galloper: 1\ngame: {GAME}\nissued: 2025-01-08T11:00:{n:02}Z\nby: gm\ncreated: {created}\ncommand:\n  {body}\n"
        );
        let s = sig::sign(
            &gm_key.private_openssh,
            sig::COMMAND_NAMESPACE,
            file.as_bytes(),
        )
        .unwrap();
        (file, s)
    };
    // Refused: not the last resolved step. Nothing in the archive moved.
    let (f, s) = command("rollback: {step: 2, reason: wrong step}", 1);
    assert!(
        c.server
            .run_command("r.yaml", f.as_bytes(), &s, &gm, at("2025-01-08T11:00:00Z"))
            .is_err()
    );
    assert_eq!(snapshot(&root), before, "a refused command writes nothing");
    // A server just opened, as cron's `process` opens it, has no clock: the
    // command's own time names the reopened step's round.
    c.server = Server::open(&c.data()).unwrap();
    let (f, s) = command("rollback: {step: 1, reason: a misread deployment}", 2);
    c.server
        .run_command("r.yaml", f.as_bytes(), &s, &gm, at("2025-01-08T11:00:00Z"))
        .unwrap_or_else(|e| panic!("{e}"));
    let n = c.notice(1);
    assert_eq!(n.run, 2);
    let b = n.beacon.unwrap();
    assert_eq!(
        b.deadline, "2025-01-08T16:40:00Z",
        "named from the command's time"
    );
    assert!(root.join("step-0001/rollback-1/rollback.yaml.sig").exists());
}
