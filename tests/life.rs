//! A game's life between steps through the library, with explicit `now`
//! values: deadlines, warnings, missed orders and their policies, absences,
//! time zones, a game master's extension, a pause, and the audit of a game
//! whose orders the server applied.

#[path = "support/resign.rs"]
mod resign;

use galloper::archive::sha256_hex;
use galloper::audit;
use galloper::envelope;
use galloper::mail::compose::Party;
use galloper::server::life::Life;
use galloper::server::schedule::MissedPolicy;
use galloper::server::store::OutboxRow;
use galloper::server::{MailSettings, PlayerSpec, Server};
use galloper::side::SideId;
use galloper::sig::{self, KeyPair};
use galloper::view::Viewer;
use resign::resign;
use std::collections::BTreeMap;
use std::path::PathBuf;

const GAME: &str = "g1";

fn at(s: &str) -> i64 {
    s.parse::<jiff::Timestamp>().unwrap().as_second()
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
    fn tick(&mut self, now: i64) -> Vec<Life> {
        let out = self.dir.join("reports");
        self.server.tick(now, &out).expect("tick")
    }
    /// The open step and the one side that owes orders in it.
    fn active(&self) -> (u32, SideId) {
        let (step, due) = self.server.due(GAME).unwrap().expect("open step");
        assert_eq!(due.owed.len(), 1, "{due:?}");
        (step.step, due.owed[0].side.clone())
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
    /// Both deployments in, step 1 resolved: step 2 is the first round.
    fn deployed(&mut self) {
        self.deploy("french");
        self.deploy("austrians");
        let done = self.server.process(&self.outbox()).unwrap();
        assert_eq!(done.len(), 1);
    }
    fn pass(&mut self, side: &SideId) {
        let (step, _) = self.active();
        let open = self.server.store().open_step(GAME).unwrap().unwrap();
        let head = envelope::Head {
            game: GAME,
            step,
            side,
            notice: &envelope::notice_sha256(&open.notice),
            revision: self.server.next_revision(GAME, side).unwrap(),
        };
        let t = envelope::compose(&head, &sha256_hex(b"ef"), "round:\n  command: pass\n");
        self.submit(side.as_str(), &t);
    }
    fn mails(&self, kind: &str) -> Vec<OutboxRow> {
        self.server
            .store()
            .mails()
            .unwrap()
            .into_iter()
            .filter(|m| m.kind == kind)
            .collect()
    }
    fn deadline(&self) -> i64 {
        let (step, _) = self.server.due(GAME).unwrap().unwrap();
        self.server
            .store()
            .deadline(GAME, step.step)
            .unwrap()
            .expect("a deadline")
            .deadline
    }
}

fn email(side: &str) -> String {
    format!("{side}@players.example")
}

fn club(schedule: &str) -> Club {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let mut server = Server::open(&dir.join("data")).unwrap();
    let mut keys = BTreeMap::new();
    let mut players = Vec::new();
    for side in ["french", "austrians"] {
        let k = sig::keygen(side).unwrap();
        players.push(PlayerSpec {
            side: SideId::new(side),
            email: email(side),
            public_key: k.public_line.clone(),
        });
        keys.insert(side.to_string(), k);
    }
    server
        .new_game(GAME, galloper::demo::SCENARIO, &players)
        .unwrap();
    server.set_schedule(GAME, schedule).unwrap();
    server.set_mail(Some(MailSettings {
        from: Party {
            name: Some("Club".into()),
            email: "club@club.example".into(),
        },
        domain: "club.example".into(),
        game_master: Some("gm@club.example".into()),
    }));
    Club {
        _tmp: tmp,
        dir,
        server,
        keys,
    }
}

const BASIC: &str = "zone: UTC\ntime: \"20:00\"\nmin_hours: 48\ngrace_minutes: 30\nwarnings: [24]\ntell_gm_after: 2\n";

#[test]
fn the_first_tick_sets_the_deadline_and_warns_only_the_side_still_owing_once() {
    let mut c = club(BASIC);
    assert_eq!(c.server.deadline_text(GAME, None).unwrap(), None);
    let t0 = at("2026-03-02T10:00:00Z");
    let ev = c.tick(t0);
    assert_eq!(
        ev,
        vec![Life::DeadlineSet {
            game: GAME.into(),
            step: 1,
            deadline: at("2026-03-04T20:00:00Z"),
        }]
    );
    assert_eq!(
        c.server.deadline_text(GAME, None).unwrap().unwrap(),
        "Deadline for step 1: Wed 04 Mar 2026 20:00 UTC (orders still taken until Wed 04 Mar 2026 20:30 UTC)"
    );
    // The French send their deployment; the Austrians do not.
    c.deploy("french");
    assert!(c.tick(at("2026-03-03T19:59:00Z")).is_empty());
    let ev = c.tick(at("2026-03-03T20:00:00Z"));
    assert_eq!(
        ev,
        vec![Life::Warned {
            game: GAME.into(),
            step: 1,
            side: SideId::new("austrians"),
            hours: 24,
        }]
    );
    let warnings = c.mails("warning");
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].recipients, vec![email("austrians")]);
    let text = String::from_utf8_lossy(&warnings[0].bytes);
    assert!(text.contains("Wed 04 Mar 2026 20:00 UTC"), "{text}");
    // Later ticks send it no more.
    assert!(c.tick(at("2026-03-04T08:00:00Z")).is_empty());
    assert_eq!(c.mails("warning").len(), 1);
}

#[test]
fn at_deadline_and_grace_the_active_side_passes_by_default_and_the_report_says_so() {
    let mut c = club(BASIC);
    c.deployed();
    let t1 = at("2026-03-02T10:00:00Z");
    c.tick(t1);
    let (step, active) = c.active();
    assert_eq!(step, 2);
    let d = c.deadline();
    assert_eq!(d, at("2026-03-04T20:00:00Z"));
    // During the grace period nothing happens yet.
    let ev = c.tick(d + 29 * 60);
    assert!(
        !ev.iter().any(|e| matches!(e, Life::Applied { .. })),
        "{ev:?}"
    );
    let ev = c.tick(d + 30 * 60);
    let note = format!(
        "{active} sent no orders by the deadline: default orders applied: round: {{command: pass}}"
    );
    assert!(
        ev.contains(&Life::Applied {
            game: GAME.into(),
            step: 2,
            side: active.clone(),
            policy: MissedPolicy::Default,
            note: note.clone(),
        }),
        "{ev:?}"
    );
    assert!(
        ev.iter()
            .any(|e| matches!(e, Life::Resolved(r) if r.step == 2)),
        "{ev:?}"
    );
    // The new step got its deadline in the same tick, from the same `now`.
    assert!(
        ev.contains(&Life::DeadlineSet {
            game: GAME.into(),
            step: 3,
            deadline: at("2026-03-07T20:00:00Z"),
        }),
        "{ev:?}"
    );
    let report = c.server.report(GAME, Some(2), &Viewer::Public).unwrap();
    assert_eq!(report.events[0].text, note);
    let txt = std::fs::read_to_string(c.outbox().join("g1/step-0002/public/report.txt")).unwrap();
    assert!(unwrapped(&txt).contains(&note), "{txt}");
    let index =
        std::fs::read_to_string(c.dir.join("data/archive/g1/step-0002/orders.yaml")).unwrap();
    assert!(index.contains("applied:"), "{index}");
    // Each side's report says it too.
    for side in ["french", "austrians"] {
        let txt =
            std::fs::read_to_string(c.outbox().join(format!("g1/step-0002/{side}/report.txt")))
                .unwrap();
        assert!(unwrapped(&txt).contains(&note), "{txt}");
    }
}

#[test]
fn a_side_that_misses_twice_in_a_row_is_reported_to_the_game_master() {
    let mut c = club(BASIC);
    c.deployed();
    let mut now = at("2026-03-02T10:00:00Z");
    c.tick(now);
    let (_, first) = c.active();
    // Round 2: the first active side misses. Round 3: the other sends his
    // orders. Round 4: the first misses again.
    now = c.deadline() + 3600;
    c.tick(now);
    let (_, second) = c.active();
    assert_ne!(first, second);
    c.pass(&second);
    now += 60;
    c.tick(now);
    c.server.process(&c.outbox()).unwrap();
    now += 60;
    c.tick(now);
    assert_eq!(c.active().1, first);
    assert!(c.mails("gm").is_empty());
    now = c.deadline() + 3600;
    let ev = c.tick(now);
    assert!(
        ev.iter().any(|e| matches!(e, Life::GameMasterTold { text, .. } if text.contains(&format!("{first} has missed 2 deadlines in a row")))),
        "{ev:?}"
    );
    let gm = c.mails("gm");
    assert_eq!(gm.len(), 1);
    assert_eq!(gm[0].recipients, vec!["gm@club.example".to_string()]);
    assert_eq!(
        c.server.store().missed_count(GAME, &second).unwrap(),
        0,
        "the side that sent orders has no run of missed steps"
    );
}

#[test]
fn standing_orders_repeat_a_sides_latest_orders_that_still_fit() {
    let mut c = club(&format!("{BASIC}missed: standing\n"));
    c.deployed();
    let mut now = at("2026-03-02T10:00:00Z");
    c.tick(now);
    let (_, first) = c.active();
    c.pass(&first);
    c.server.process(&c.outbox()).unwrap();
    now += 60;
    c.tick(now);
    // Round 3: the other side has only its deployment to stand on, which no
    // longer fits a round: the default applies.
    let (_, second) = c.active();
    now = c.deadline() + 3600;
    let ev = c.tick(now);
    assert!(
        ev.iter().any(|e| matches!(e, Life::Applied { side, policy: MissedPolicy::Default, .. } if *side == second)),
        "{ev:?}"
    );
    // Round 4: the first side's orders of round 2 stand.
    assert_eq!(c.active(), (4, first.clone()));
    now = c.deadline() + 3600;
    let ev = c.tick(now);
    let applied = ev
        .iter()
        .find_map(|e| match e {
            Life::Applied {
                side, policy, note, ..
            } if *side == first => Some((*policy, note.clone())),
            _ => None,
        })
        .expect("orders applied");
    assert_eq!(applied.0, MissedPolicy::Standing);
    assert!(
        applied
            .1
            .contains("standing orders applied (its orders of step 2"),
        "{}",
        applied.1
    );
    let report = c
        .server
        .report(GAME, Some(4), &Viewer::Side(second))
        .unwrap();
    assert!(report.events[0].text.contains("standing orders applied"));
}

#[test]
fn the_wait_policy_tells_the_game_master_once_and_resolves_nothing() {
    let mut c = club(&format!("{BASIC}missed: wait\n"));
    c.deployed();
    let now = at("2026-03-02T10:00:00Z");
    c.tick(now);
    let (_, active) = c.active();
    let late = c.deadline() + 3600;
    let ev = c.tick(late);
    assert!(
        ev.contains(&Life::Waiting {
            game: GAME.into(),
            step: 2,
            side: active.clone(),
        }),
        "{ev:?}"
    );
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Life::Applied { .. } | Life::Resolved(_)))
    );
    assert_eq!(c.active().0, 2, "the step still waits");
    let gm = c.mails("gm");
    assert_eq!(gm.len(), 1);
    // Quoted-printable: join the soft line breaks.
    let said = String::from_utf8_lossy(&gm[0].bytes)
        .replace("=\r\n", "")
        .replace("=\n", "");
    assert!(said.contains("The step waits"), "{said}");
    assert!(c.tick(late + 3600).is_empty());
    assert_eq!(c.mails("gm").len(), 1);
    assert!(c.server.store().latest_orders(GAME, 2).unwrap().is_empty());
    // The player's late orders still resolve the step.
    c.pass(&active);
    assert_eq!(c.server.process(&c.outbox()).unwrap().len(), 1);
}

#[test]
fn an_absence_moves_the_deadline_within_the_games_limits() {
    let mut c = club(&format!(
        "{BASIC}absence: {{max_days: 7, max_per_player: 1}}\n"
    ));
    c.deployed();
    let now = at("2026-03-02T10:00:00Z");
    c.tick(now);
    let (_, active) = c.active();
    let other = SideId::new(if active.as_str() == "french" {
        "austrians"
    } else {
        "french"
    });
    assert_eq!(c.deadline(), at("2026-03-04T20:00:00Z"));
    let e = c
        .server
        .declare_absence(GAME, &active, "2026-03-03", "2026-03-12", now)
        .unwrap_err();
    assert!(e.to_string().contains("at most 7"), "{e}");
    // The side not owing orders: recorded, the deadline stays.
    let t = c
        .server
        .declare_absence(GAME, &other, "2026-03-03", "2026-03-05", now)
        .unwrap();
    assert!(t.contains("stays Wed 04 Mar 2026 20:00 UTC"), "{t}");
    assert_eq!(c.deadline(), at("2026-03-04T20:00:00Z"));
    // The active side, back on the 6th: 48 hours later.
    let t = c
        .server
        .declare_absence(GAME, &active, "2026-03-03", "2026-03-05", now)
        .unwrap();
    assert!(t.contains("moves to Sun 08 Mar 2026 20:00 UTC"), "{t}");
    assert_eq!(c.deadline(), at("2026-03-08T20:00:00Z"));
    let e = c
        .server
        .declare_absence(GAME, &active, "2026-03-20", "2026-03-21", now)
        .unwrap_err();
    assert!(e.to_string().contains("ask the game master"), "{e}");
    // Nothing happens at the old deadline.
    let ev = c.tick(at("2026-03-05T12:00:00Z"));
    assert!(
        !ev.iter().any(|e| matches!(e, Life::Applied { .. })),
        "{ev:?}"
    );
}

#[test]
fn each_player_sees_times_in_his_own_zone() {
    let mut c = club("zone: Europe/London\ntime: \"20:00\"\nmin_hours: 48\n");
    c.tick(at("2026-07-01T10:00:00Z"));
    let f = SideId::new("french");
    let a = SideId::new("austrians");
    // 20:00 in London in summer is 19:00 UTC.
    assert_eq!(
        c.server.deadline_text(GAME, Some(&a)).unwrap().unwrap(),
        "Deadline for step 1: Fri 03 Jul 2026 20:00 BST"
    );
    let t = c.server.set_zone(GAME, &f, "Asia/Tokyo").unwrap();
    assert!(t.contains("Asia/Tokyo"), "{t}");
    assert!(t.contains("Sat 04 Jul 2026 04:00 JST"), "{t}");
    assert_eq!(
        c.server.deadline_text(GAME, Some(&f)).unwrap().unwrap(),
        "Deadline for step 1: Sat 04 Jul 2026 04:00 JST"
    );
    let e = c.server.set_zone(GAME, &f, "Moon/Tranquility").unwrap_err();
    assert!(e.to_string().contains("IANA name"), "{e}");
    assert!(
        c.server
            .set_zone(GAME, &SideId::new("prussians"), "UTC")
            .is_err()
    );
}

#[test]
fn the_game_master_extends_the_deadline() {
    let mut c = club(BASIC);
    let now = at("2026-03-02T10:00:00Z");
    c.tick(now);
    let old = c.deadline();
    let until = at("2026-03-10T18:00:00Z");
    let t = c.server.extend_deadline(GAME, until, now).unwrap();
    assert!(
        t.contains("moved the deadline from") && t.contains(" to Tue 10 Mar 2026 18:00 UTC"),
        "{t}"
    );
    assert_eq!(c.deadline(), until);
    assert!(c.server.extend_deadline(GAME, now - 1, now).is_err());
    let ev = c.tick(old + 3600);
    assert!(ev.is_empty(), "{ev:?}");
    let ev = c.tick(until + 3600);
    // Deployments have no default in Maurice Lite: the game waits.
    assert!(
        ev.iter().any(|e| matches!(e, Life::Waiting { .. })),
        "{ev:?}"
    );
}

#[test]
fn a_paused_game_stops_its_clock() {
    let mut c = club(BASIC);
    let t0 = at("2026-03-02T10:00:00Z");
    c.tick(t0);
    let d = c.deadline();
    let db = rusqlite::Connection::open(c.dir.join("data/galloper.db")).unwrap();
    db.execute("UPDATE games SET status = 'paused' WHERE id = 'g1'", [])
        .unwrap();
    let paused = t0 + 3600;
    assert!(c.tick(paused).is_empty());
    // No warning and no missed deadline while paused.
    assert!(c.tick(d + 86_400).is_empty());
    assert_eq!(c.server.deadline_text(GAME, None).unwrap(), None);
    db.execute("UPDATE games SET status = 'active' WHERE id = 'g1'", [])
        .unwrap();
    let resumed = paused + 5 * 86_400;
    let ev = c.tick(resumed);
    assert_eq!(
        ev,
        vec![Life::ClockResumed {
            game: GAME.into(),
            step: 1,
            deadline: d + 5 * 86_400,
        }]
    );
}

#[test]
fn the_audit_replays_a_game_whose_orders_the_server_applied() {
    // Every round is missed, so the server passes for both sides until
    // nightfall ends the game.
    let mut c = club("zone: UTC\ntime: \"20:00\"\nmin_hours: 1\ntell_gm_after: 0\n");
    c.deployed();
    let mut now = at("2026-03-02T10:00:00Z");
    let mut applied = 0;
    for _ in 0..300 {
        if c.server.due(GAME).unwrap().is_none() {
            break;
        }
        for e in c.tick(now) {
            if matches!(e, Life::Applied { .. }) {
                applied += 1;
            }
        }
        now += 86_400;
    }
    assert!(c.server.due(GAME).unwrap().is_none(), "the game ended");
    assert!(applied >= 2, "{applied}");
    let archive = c.server.archive_dir(GAME);
    let v = audit::audit(&archive).expect("the audit passes");
    assert!(v.replayed, "{:?}", v.lines);
    assert!(
        v.lines.iter().any(|l| l.contains("applied by the server")),
        "{:?}",
        v.lines
    );
    // Issue 29, item 4: an auditor written from DICE.md alone rebuilds
    // every applied file byte for byte.
    let py = std::process::Command::new("python3")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/applied_orders.py"
        ))
        .arg(&archive)
        .output()
        .expect("python3");
    let said = String::from_utf8_lossy(&py.stdout);
    assert!(
        py.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&py.stderr)
    );
    assert!(
        said.contains(&format!("{applied} applied orders file(s) rebuilt")),
        "{said}"
    );
    // An applied orders file re-signed with a player's key is refused.
    let sealed = archive.join("sealed/step-0002");
    let name = std::fs::read_dir(&sealed)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .find(|n| n.starts_with("orders-"))
        .unwrap();
    let text = std::fs::read_to_string(sealed.join(&name)).unwrap();
    assert!(text.starts_with("# "), "{text}");
    let index_path = archive.join("step-0002/orders.yaml");
    let index = std::fs::read_to_string(&index_path).unwrap();
    let side = name.trim_start_matches("orders-").trim_end_matches(".yaml");
    let forged = sig::sign(
        &c.keys[side].private_openssh,
        galloper::server::life::APPLIED_NAMESPACE,
        text.as_bytes(),
    )
    .unwrap();
    let old_sig: galloper::archive::OrdersIndex = galloper::yaml::from_str(&index).unwrap();
    let mut tampered = old_sig.clone();
    tampered.sides[0].signature = forged;
    std::fs::write(&index_path, galloper::yaml::to_string(&tampered).unwrap()).unwrap();
    let key = std::fs::read_to_string(c.dir.join("data/server_key")).unwrap();
    resign(&archive.join("step-0002"), &key);
    let e = audit::audit(&archive).unwrap_err();
    assert!(e.to_string().contains("server signature refused"), "{e}");
}

/// A wrapped plain-text report as one line per paragraph's words.
fn unwrapped(txt: &str) -> String {
    txt.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Issue 13: a step's reports show the next step's deadline, which the
/// resolution sets from the watch's time, in each player's own zone with
/// UTC beside it; the watch then leaves it be.
#[test]
fn each_report_shows_the_next_deadline_in_its_players_zone_with_utc() {
    let mut c = club(BASIC);
    c.server
        .set_zone(GAME, &SideId::new("french"), "Europe/Paris")
        .unwrap();
    c.tick(at("2026-03-02T10:00:00Z"));
    c.deployed();
    assert_eq!(c.deadline(), at("2026-03-04T20:00:00Z"));
    let report = |side: &str| {
        let t = std::fs::read_to_string(c.outbox().join(format!("g1/step-0001/{side}/report.txt")))
            .unwrap();
        unwrapped(&t)
    };
    let fr = report("french");
    assert!(
        fr.contains("Deadline for step 2: Wed 04 Mar 2026 21:00 CET (Europe/Paris), 20:00 UTC"),
        "{fr}"
    );
    assert!(
        fr.contains("Orders are still taken until Wed 04 Mar 2026 21:30 CET"),
        "{fr}"
    );
    let au = report("austrians");
    assert!(
        au.contains("Deadline for step 2: Wed 04 Mar 2026 20:00 UTC") && !au.contains("(UTC)"),
        "{au}"
    );
    let ev = c.tick(at("2026-03-02T11:00:00Z"));
    assert!(
        !ev.iter().any(|e| matches!(e, Life::DeadlineSet { .. })),
        "{ev:?}"
    );
    assert_eq!(c.deadline(), at("2026-03-04T20:00:00Z"));
}

/// Issue 31, item 1: `extend: {until: +48h}` adds to the deadline the step
/// has, never to the time the command was signed; an absolute time before
/// the deadline is refused unless the command says `earlier: true`; the
/// reply gives the old and the new deadline, and each player reads them in
/// his own zone with UTC beside.
#[test]
fn an_extension_counts_from_the_deadline_and_never_shortens_unasked() {
    use galloper::server::admin::GameMaster;
    let mut c = club(BASIC);
    c.server
        .set_zone(GAME, &SideId::new("french"), "Europe/Paris")
        .unwrap();
    let now = at("2026-03-02T10:00:00Z");
    c.tick(now);
    let old = c.deadline();
    assert_eq!(
        old,
        at("2026-03-04T20:00:00Z"),
        "min_hours 48: Wednesday 20:00"
    );
    let gm_key = sig::keygen("gm").unwrap();
    let gm = GameMaster {
        key: Some(gm_key.public_line.clone()),
        email: Some("gm@club.example".into()),
    };
    let mut n = 0;
    let mut command = |c: &mut Club, body: &str| {
        n += 1;
        let file = format!(
            "galloper: 1\ngame: {GAME}\nissued: 2026-03-02T10:0{n}:00Z\nby: gm\ncreated: {}\ncommand:\n  {body}\n",
            c.server.game_created(GAME).unwrap()
        );
        let s = sig::sign(
            &gm_key.private_openssh,
            sig::COMMAND_NAMESPACE,
            file.as_bytes(),
        )
        .unwrap();
        c.server
            .run_command("extend.yaml", file.as_bytes(), &s, &gm, now)
            .map(|a| a.reply)
            .map_err(|e| e.to_string())
    };
    // Signed at 10:00 on Monday, `+48h` is two days after Wednesday 20:00.
    let reply = command(&mut c, "extend: {until: +48h}").unwrap();
    assert_eq!(c.deadline(), old + 48 * 3600);
    assert!(
        reply.contains("from Wed 04 Mar 2026 20:00 UTC to Fri 06 Mar 2026 20:00 UTC"),
        "{reply}"
    );
    let french = c
        .mails("notice")
        .into_iter()
        .find(|m| m.reader.as_deref() == Some("french"))
        .map(|m| {
            // Quoted-printable: join the soft line breaks.
            String::from_utf8_lossy(&m.bytes)
                .replace("=\r\n", "")
                .replace("=\n", "")
        })
        .expect("the French player is told");
    assert!(
        french.contains("to Fri 06 Mar 2026 21:00 CET (Europe/Paris), 20:00 UTC"),
        "{french}"
    );
    // An absolute time before the deadline: refused unless asked for.
    let e = command(&mut c, "extend: {until: 2026-03-05T12:00:00Z}").unwrap_err();
    assert!(
        e.contains("before the current deadline") && e.contains("earlier: true"),
        "{e}"
    );
    assert_eq!(c.deadline(), old + 48 * 3600, "nothing moved");
    let reply = command(
        &mut c,
        "extend: {until: 2026-03-05T12:00:00Z, earlier: true}",
    )
    .unwrap();
    assert_eq!(c.deadline(), at("2026-03-05T12:00:00Z"));
    assert!(reply.contains("earlier than it was"), "{reply}");
}
