//! Issue 29: the page's own checks of orders files (site/audit.js, the
//! page's half of `galloper audit`'s src/audit/orders.rs and
//! `game::beacon::audited_receipts`) on real archives, against the command
//! line's. A game whose server applied orders by both policies (`standing`
//! and `default`) passes both audits, the applied files rebuilt byte for
//! byte in the page as on the command line; a notice re-signed by the
//! server's own key after the orders answered it fails both at the same
//! sealed file, in the same words. A beacon game's receipt times pass both;
//! a time after the close of orders, and a time left out, fail both at
//! the same step in the same words. A beacon step closed unanswered and
//! opened again (its withdrawn notice kept under a signed note) passes
//! both, in progress and sealed, and fails both once the withdrawn run is
//! cut out. A game rolled back twice, whose sides sent again under the new
//! notices, passes both. The page rebuilds applied files of every JSON
//! shape exactly as the server writes them. The page's audit runs in Node here
//! (`tests/browser/audit.mjs`, the page's own script on the archive the
//! page carries); `tests/site_browser.rs` drives the page in Chromium.
//!
//! Needs node (`.ci/run` installs it).

#[path = "support/reseal.rs"]
mod reseal;

use galloper::archive::{self, OrdersIndex, sha256_hex};
use galloper::dice::beacon::QUICKNET;
use galloper::envelope;
use galloper::mail::compose::Party;
use galloper::server::admin::GameMaster;
use galloper::server::beacon::BeaconStart;
use galloper::server::{MailSettings, PlayerSpec, Server};
use galloper::side::SideId;
use galloper::sig::{self, KeyPair};
use reseal::reseal;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const GAME: &str = "g1";

fn at(s: &str) -> i64 {
    s.parse::<jiff::Timestamp>().unwrap().as_second()
}

fn galloper(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_galloper"))
        .args(args)
        .output()
        .expect("galloper runs")
}

/// What `galloper audit` says of `archive`: whether it passed (so far,
/// for a game in progress: exit status 3), and its failure (or its last
/// line).
fn cli_audit(archive: &Path) -> (bool, String) {
    let out = galloper(&["audit", archive.to_str().unwrap()]);
    let passed = matches!(out.status.code(), Some(0 | 3));
    let said = if passed {
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .last()
            .unwrap_or_default()
            .to_string()
    } else {
        String::from_utf8_lossy(&out.stderr).trim().to_string()
    };
    (passed, said)
}

/// The page's own audit of `archive`: the site made, its page audited in
/// Node by site/audit.js. (passed, summary, its lines.)
fn page_audit(archive: &Path, out: &Path) -> (bool, String, Vec<String>) {
    let made = galloper(&[
        "site",
        archive.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        made.status.success(),
        "galloper site: {}",
        String::from_utf8_lossy(&made.stderr)
    );
    let game = archive.file_name().unwrap().to_str().unwrap();
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/browser/audit.mjs");
    let run = Command::new("node")
        .arg(script)
        .arg(out.join(format!("{game}.html")))
        .output()
        .expect("node runs (apt-get install nodejs: .ci/run does)");
    assert!(
        run.status.success(),
        "tests/browser/audit.mjs: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let v: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&run.stdout).trim()).unwrap();
    (
        v["passed"].as_bool().unwrap(),
        v["summary"].as_str().unwrap().to_string(),
        v["lines"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l.as_str().unwrap().to_string())
            .collect(),
    )
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

struct Club {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
    server: Server,
    keys: BTreeMap<String, KeyPair>,
}

impl Club {
    fn outbox(&self) -> PathBuf {
        self.dir.join("reports")
    }
    fn archive(&self) -> PathBuf {
        self.server.archive_dir(GAME)
    }
    /// Re-seal `archive` with the server's own key.
    fn reseal(&self, archive: &Path) {
        let read = |n: &str| std::fs::read_to_string(self.dir.join("data").join(n)).unwrap();
        reseal(archive, &read("server_key"), read("server_key.pub").trim());
    }
    fn tick(&mut self, now: i64) {
        let out = self.outbox();
        self.server.tick(now, &out).expect("tick");
    }
    fn process(&mut self) -> usize {
        let out = self.outbox();
        self.server.process(&out).unwrap().len()
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
}

/// A club of Maurice Lite's demo scenario, with `schedule`, and a beacon
/// from `beacon_now` if given.
fn club(schedule: Option<&str>, beacon_now: Option<i64>) -> Club {
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
    server
        .new_game_with(
            GAME,
            galloper::demo::SCENARIO,
            &players,
            schedule,
            beacon_now.map(|now| BeaconStart {
                chain: &QUICKNET,
                now,
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

/// The policy line of every applied file in the sealed archive.
fn applied_policies(archive: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for step in 1.. {
        let dir = archive::sealed_dir(archive, step);
        if !dir.is_dir() {
            break;
        }
        for e in std::fs::read_dir(&dir).unwrap() {
            let text = std::fs::read_to_string(e.unwrap().path()).unwrap_or_default();
            if let Some(p) = text
                .lines()
                .next()
                .and_then(|l| l.strip_prefix("# galloper applied orders: "))
            {
                out.push(p.to_string());
            }
        }
    }
    out
}

#[test]
fn applied_orders_of_both_policies_pass_the_page_and_a_notice_resigned_after_the_orders_fails_it() {
    // Standing orders: the first side passes in round 2, then nobody sends
    // anything; its pass stands, the other side is given the default.
    let mut c = club(
        Some("zone: UTC\ntime: \"20:00\"\nmin_hours: 1\ntell_gm_after: 0\nmissed: standing\n"),
        None,
    );
    c.deploy("french");
    c.deploy("austrians");
    assert_eq!(c.process(), 1);
    let mut now = at("2026-03-02T10:00:00Z");
    c.tick(now);
    c.pass();
    assert_eq!(c.process(), 1);
    for _ in 0..300 {
        if c.server.due(GAME).unwrap().is_none() {
            break;
        }
        now += 86_400;
        c.tick(now);
    }
    assert!(c.server.due(GAME).unwrap().is_none(), "the game ended");
    let root = c.archive();
    let policies = applied_policies(&root);
    assert!(
        policies.iter().any(|p| p == "standing") && policies.iter().any(|p| p == "default"),
        "orders applied by both policies: {policies:?}"
    );
    let (passed, said) = cli_audit(&root);
    assert!(passed, "galloper audit: {said}");
    let (page_passed, summary, lines) = page_audit(&root, &c.dir.join("site"));
    assert!(page_passed, "the page: {summary}");
    assert!(
        summary.starts_with("AUDIT PASSED: the game is over"),
        "{summary}"
    );
    let applied = lines
        .iter()
        .filter(|l| l.contains("applied by the server"))
        .count();
    assert!(
        applied >= policies.len().min(2),
        "the page names the steps whose orders the server applied: {lines:?}"
    );

    // The server re-signs step 3's notice (its heading changed) after the
    // orders answered it, the chain re-linked by its own key: every
    // signature, hash and link agrees, but the files mixed into step 3
    // name the notice that is gone. Both audits fail there, in the same
    // words.
    let bad = c.dir.join("renoticed").join(GAME);
    copy_dir(&root, &bad);
    let notice = bad.join("step-0003/notice.yaml");
    let text = std::fs::read_to_string(&notice).unwrap();
    let line = text
        .lines()
        .find(|l| l.starts_with("heading: "))
        .unwrap()
        .to_string();
    std::fs::write(&notice, text.replace(&line, &format!("{line} (again)"))).unwrap();
    c.reseal(&bad);
    let (passed, said) = cli_audit(&bad);
    assert!(!passed, "galloper audit refuses it");
    assert!(
        said.starts_with("AUDIT FAILED at sealed step 3: orders-")
            && said.contains("answers notice"),
        "{said}"
    );
    let (page_passed, summary, _) = page_audit(&bad, &c.dir.join("site-renoticed"));
    assert!(!page_passed);
    assert_eq!(summary, said, "the page fails as the command line does");
}

/// The recorded signature of quicknet `round`, hex.
fn signature(round: u64) -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/drand-quicknet-rounds.json"
    );
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    v["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["round"].as_u64() == Some(round))
        .and_then(|r| r["signature"].as_str())
        .unwrap_or_else(|| panic!("round {round} is not recorded"))
        .to_string()
}

/// The game master's signed `command`, the `n`th of the game.
fn gm(c: &mut Club, command: &str, n: u32) {
    let gm_key = sig::keygen("gm").unwrap();
    let gm = GameMaster {
        key: Some(gm_key.public_line.clone()),
        email: Some("gm@club.example".into()),
    };
    let file = format!(
        "galloper: 1\ngame: {GAME}\nissued: 2025-01-08T18:00:{n:02}Z\nby: gm\ncreated: {}\ncommand:\n  {command}\n",
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
            "command.yaml",
            file.as_bytes(),
            &s,
            &gm,
            at("2025-01-08T18:00:00Z") + i64::from(n),
        )
        .unwrap();
}

/// The game master ends the game: the archive is sealed.
fn end(c: &mut Club) {
    gm(c, "end: {reason: the test is over}", 59);
}

const BEACON_SCHEDULE: &str =
    "zone: UTC\ntime: \"16:40\"\nmin_hours: 1\ngrace_minutes: 0\nwarnings: [24]\nmissed: default\n";

#[test]
fn a_beacon_step_closed_unanswered_and_opened_again_passes_the_page_as_the_command_line() {
    // As tests/beacon.rs plays it: the Austrians never deploy, the close
    // of step 1 passes, and the step opens again as run 2 under a new
    // notice, the withdrawn one kept on the chain under a signed note.
    let mut c = club(Some(BEACON_SCHEDULE), Some(at("2023-08-20T10:00:00Z")));
    c.deploy("french");
    c.tick(at("2023-08-20T10:05:00Z"));
    c.tick(at("2023-08-20T16:41:00Z"));
    let root = c.archive();
    assert!(root.join("step-0001/rollback-1/rollback.yaml").exists());
    c.deploy("french");
    c.deploy("austrians");
    let notice: galloper::archive::Notice = galloper::yaml::from_str(
        &std::fs::read_to_string(root.join("step-0001/notice.yaml")).unwrap(),
    )
    .unwrap();
    let round = notice.beacon.unwrap().round;
    c.server
        .add_beacon_round("quicknet", round, &signature(round))
        .unwrap();
    assert_eq!(c.process(), 1);
    // In progress, then sealed: both audits pass, and the page says what
    // the command line says of the withdrawn run.
    for sealed in [false, true] {
        if sealed {
            end(&mut c);
        }
        let (passed, said) = cli_audit(&root);
        assert!(passed, "galloper audit: {said}");
        let out = c.dir.join(format!("site-{sealed}"));
        let (page_passed, summary, lines) = page_audit(&root, &out);
        assert!(page_passed, "the page: {summary}");
        assert!(
            lines.iter().any(
                |l| l.starts_with("step 1: run 1 was opened again unresolved (")
                    && l.ends_with("); it rolled no dice")
            ),
            "{lines:?}"
        );
        if !sealed {
            assert_eq!(
                summary, said,
                "the page passes so far as the command line does"
            );
        }
    }
    // The withdrawn run removed: both fail, in the same words.
    let cut = c.dir.join("cut").join(GAME);
    copy_dir(&root, &cut);
    std::fs::remove_dir_all(cut.join("step-0001/rollback-1")).unwrap();
    let (passed, said) = cli_audit(&cut);
    assert!(!passed && said.contains("not in the archive"), "{said}");
    let (page_passed, summary, _) = page_audit(&cut, &c.dir.join("site-cut"));
    assert!(!page_passed);
    assert_eq!(summary, said, "the page fails as the command line does");
}

#[test]
fn a_beacon_games_receipt_times_pass_the_page_and_a_late_or_missing_one_fails_it() {
    // As tests/beacon.rs plays it: created three days before quicknet's
    // first round, step 1 on round 1, step 2 on round 14517013, then ended
    // by the game master.
    let mut c = club(Some(BEACON_SCHEDULE), Some(at("2023-08-20T10:00:00Z")));
    c.deploy("french");
    c.deploy("austrians");
    c.tick(at("2025-01-08T10:00:00Z"));
    c.server
        .add_beacon_round("quicknet", 1, &signature(1))
        .unwrap();
    assert_eq!(c.process(), 1);
    c.tick(at("2025-01-08T10:05:00Z"));
    c.pass();
    c.server
        .add_beacon_round("quicknet", 14517013, &signature(14517013))
        .unwrap();
    assert_eq!(c.process(), 1);
    end(&mut c);
    let root = c.archive();
    let index = |root: &Path| -> OrdersIndex {
        galloper::yaml::from_str(
            &std::fs::read_to_string(root.join("step-0002/orders.yaml")).unwrap(),
        )
        .unwrap()
    };
    assert!(
        index(&root).sides.iter().all(|e| e.received.is_some()),
        "every file of a beacon step is timed"
    );
    let (passed, said) = cli_audit(&root);
    assert!(passed, "galloper audit: {said}");
    let (page_passed, summary, _) = page_audit(&root, &c.dir.join("site"));
    assert!(page_passed, "the page: {summary}");

    // A file timed after the close, and a file not timed, each re-signed
    // by the server's own key.
    type Change = fn(&mut archive::OrdersEntry);
    let changes: [(&str, Change, &str); 2] = [
        (
            "late",
            |e| e.received = Some("2025-01-08T16:40:01Z".into()),
            "received at 2025-01-08T16:40:01Z, after the close of orders at 2025-01-08T16:40:00Z",
        ),
        (
            "untimed",
            |e| e.received = None,
            "orders.yaml gives no receipt time for",
        ),
    ];
    for (name, change, words) in changes {
        let bad = c.dir.join(name).join(GAME);
        copy_dir(&root, &bad);
        let mut ix = index(&bad);
        change(&mut ix.sides[0]);
        std::fs::write(
            bad.join("step-0002/orders.yaml"),
            galloper::yaml::to_string(&ix).unwrap(),
        )
        .unwrap();
        c.reseal(&bad);
        let (passed, said) = cli_audit(&bad);
        assert!(!passed, "{name}: galloper audit refuses it");
        assert!(
            said.starts_with("AUDIT FAILED at step 2: ") && said.contains(words),
            "{name}: {said}"
        );
        let (page_passed, summary, _) = page_audit(&bad, &c.dir.join(format!("site-{name}")));
        assert!(!page_passed, "{name}");
        assert_eq!(
            summary, said,
            "{name}: the page fails as the command line does"
        );
    }
}

/// The applied file the page rebuilds, from its values and J as the
/// server wrote it (`tests/browser/audit.mjs --applied`).
fn page_applied(args: [&str; 6]) -> String {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/browser/audit.mjs");
    let out = Command::new("node")
        .arg(script)
        .arg("--applied")
        .args(args)
        .output()
        .expect("node runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_page_rebuilds_applied_files_as_the_server_writes_them() {
    use galloper::server::schedule::MissedPolicy;
    // Orders of every shape JSON has: whole and fractional floats, large
    // and small ones, the largest u64, escapes, non-ASCII keys and values,
    // keys out of order, nesting.
    let bodies = [
        "round: {command: pass}\n",
        "moves:\n- {unit: r-1, to: [12.0, 3.5], note: \"vers l\u{2019}est, \\\"vite\\\"\\t\\u0001\"}\nn: 3\nz: 1.0e16\nw: 1.0e15\nsmall: 0.0000015\ntiny: 0.00001\nbig: 18446744073709551615\nneg: -7\nnegf: -2.0\nflag: false\nnothing: null\n\"\u{e9}t\u{e9}\": [1, [], {}]\nb: 2\n",
        "e1: 1.0e21\ne2: 1.0e-7\ne3: 123456.789\ne4: 0.1\ne5: 1.0e100\ne6: 0.000001\ne7: 2.5e-300\ne8: 9007199254740993.0\ne9: 99999999999999.99\ne10: -0.0\ne11: 100.0\n",
    ];
    let notice = "ab".repeat(32);
    for body in bodies {
        let value: serde_yaml::Value = galloper::yaml::from_str(body).unwrap();
        for policy in [MissedPolicy::Default, MissedPolicy::Standing] {
            let server =
                galloper::archive::applied_orders_text("g-1", 7, "red", &notice, policy, &value)
                    .unwrap();
            let j = server
                .lines()
                .last()
                .unwrap()
                .strip_prefix("orders: ")
                .unwrap();
            let page = page_applied(["g-1", "7", "red", &notice, policy.as_str(), j]);
            assert_eq!(page, server, "the page rebuilds what the server wrote");
        }
    }
}

#[test]
fn a_game_rolled_back_twice_passes_the_page_as_the_command_line() {
    // As tests/audit_attacks.rs plays it: two steps, both rolled back, the
    // sides send again under the new notices, then the game ends.
    let mut c = club(None, None);
    let send_owed = |c: &mut Club, tag: &str| {
        let (_, due) = c.server.due(GAME).unwrap().unwrap();
        for side in due.owed.iter().map(|o| o.side.clone()) {
            let t = galloper::cli::template(&c.server, GAME, &side).unwrap();
            let t = envelope::with_entropy(&t, &sha256_hex(tag.as_bytes()));
            c.submit(side.as_str(), &t);
        }
    };
    for round in ["one", "two"] {
        send_owed(&mut c, round);
        assert_eq!(c.process(), 1);
    }
    gm(&mut c, "rollback: {step: 2, reason: first}", 1);
    gm(&mut c, "rollback: {step: 1, reason: second}", 2);
    gm(&mut c, "resume", 3);
    send_owed(&mut c, "after the rollbacks");
    assert_eq!(c.process(), 1);
    let root = c.archive();
    for sealed in [false, true] {
        if sealed {
            end(&mut c);
        }
        let (passed, said) = cli_audit(&root);
        assert!(passed, "galloper audit: {said}");
        let (page_passed, summary, lines) =
            page_audit(&root, &c.dir.join(format!("site-{sealed}")));
        assert!(page_passed, "the page: {summary}");
        assert_eq!(
            lines
                .iter()
                .filter(|l| l.contains("was rolled back"))
                .count(),
            2,
            "{lines:?}"
        );
        if !sealed {
            assert_eq!(
                summary, said,
                "the page passes so far as the command line does"
            );
        }
    }
}
