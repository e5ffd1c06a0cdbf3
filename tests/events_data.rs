//! Events as data (issue 13, part 1): every event of a demo game of each
//! ruleset has its kind, its ruleset's name and facts from which the ruleset
//! makes its words again; the archive keeps them and the audit replays them.
//! And the reports built from them (part 2): "What changed" first, fire as
//! one line per firing unit with each die printed once.

use galloper::audit;
use galloper::dice::DieRecord;
use galloper::event::{Event, Kind};
use galloper::rulesets::{
    activation_dice, crowther_dougan, maurice_lite, morschauser_macduff, napoleonic_corps,
};
use galloper::view::Viewer;
use std::path::{Path, PathBuf};

/// Play a demo of `ruleset` and give its archive.
fn demo(ruleset: &str, battle: bool) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().expect("tmp");
    let out = tmp.path().join("demo");
    let args = galloper::demo::DemoArgs {
        out: out.clone(),
        max_steps: 400,
        battle,
        ruleset: ruleset.into(),
    };
    galloper::demo::run(&args).expect("demo runs");
    let games = out.join("server/archive");
    let archive = std::fs::read_dir(&games)
        .expect("archive folder")
        .map(|e| e.expect("entry").path())
        .find(|p| p.is_dir())
        .expect("one game");
    (tmp, archive)
}

/// Every sealed step's full events and dice, in step order.
fn sealed(archive: &Path) -> Vec<(Vec<Event>, Vec<DieRecord>)> {
    let mut steps: Vec<PathBuf> = std::fs::read_dir(archive.join("sealed"))
        .expect("sealed folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| {
            p.is_dir()
                && p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("step-"))
        })
        .collect();
    steps.sort();
    steps
        .iter()
        .map(|d| {
            let events = std::fs::read_to_string(d.join("events.yaml")).expect("events");
            let dice = std::fs::read_to_string(d.join("dice.yaml")).expect("dice");
            (
                galloper::yaml::from_str(&events).expect("events parse"),
                galloper::yaml::from_str(&dice).expect("dice parse"),
            )
        })
        .collect()
}

/// The words again from the facts, the kind the name gives, the dice the
/// facts quote being the log's; and no note but those named.
fn check(
    steps: &[(Vec<Event>, Vec<DieRecord>)],
    say: impl Fn(&str, &galloper::event::Facts) -> Option<(String, Kind)>,
    notes: &[&str],
    every_roll: bool,
    face: fn(&DieRecord) -> u32,
) -> usize {
    let mut n = 0;
    for (events, dice) in steps {
        for e in events {
            let (text, kind) = say(&e.what, &e.facts)
                .unwrap_or_else(|| panic!("unknown what {:?}: {}", e.what, e.text));
            assert_eq!(text, e.text, "{} from its facts {:?}", e.what, e.facts);
            assert_eq!(kind, e.kind, "{}", e.what);
            assert!(
                e.kind != Kind::Note || notes.contains(&e.what.as_str()),
                "{} is a bare note: {}",
                e.what,
                e.text
            );
            // The two first rulesets quote every die in the facts; the
            // later ones only where their words need it.
            if !e.dice.is_empty() && (every_roll || !e.facts.rolls.is_empty()) {
                let logged: Vec<u32> = e.dice.iter().map(|i| face(&dice[*i])).collect();
                assert_eq!(e.facts.rolls, logged, "{}: {}", e.what, e.text);
            }
            n += 1;
        }
    }
    n
}

fn ml_say(what: &str, f: &galloper::event::Facts) -> Option<(String, Kind)> {
    let w = maurice_lite::words::What::from_name(what)?;
    Some((maurice_lite::words::say(w, f), w.kind()))
}

fn mm_say(what: &str, f: &galloper::event::Facts) -> Option<(String, Kind)> {
    let w = morschauser_macduff::words::What::from_name(what)?;
    Some((morschauser_macduff::words::say(w, f), w.kind()))
}

fn nc_say(what: &str, f: &galloper::event::Facts) -> Option<(String, Kind)> {
    let w = napoleonic_corps::words::Said::from_name(what)?;
    Some((napoleonic_corps::words::say(w, f), w.kind()))
}

fn ad_say(what: &str, f: &galloper::event::Facts) -> Option<(String, Kind)> {
    let w = activation_dice::words::Said::from_name(what)?;
    Some((activation_dice::words::say(w, f), w.kind()))
}

fn cd_say(what: &str, f: &galloper::event::Facts) -> Option<(String, Kind)> {
    let w = crowther_dougan::words::Said::by_name(what)?;
    Some((crowther_dougan::words::say(w, f), w.kind()))
}

/// A die as the log gives it.
fn plain(d: &DieRecord) -> u32 {
    d.value
}

/// Crowther and Dougan's average die (2, 3, 3, 4, 4, 5) is rolled as a d6
/// for fire, hand to hand and observation, as its purpose says; the facts
/// quote its face.
fn average(d: &DieRecord) -> u32 {
    let averaged = d.purpose.contains("average die");
    if averaged && d.sides == 6 {
        crowther_dougan::tables::AVERAGE_FACES[(d.value.clamp(1, 6) - 1) as usize]
    } else {
        d.value
    }
}

/// The three later rulesets: each event's words made again from its facts,
/// its kind one of the shared kinds, and the audit replaying the game.
#[test]
fn the_later_rulesets_events_are_data_and_the_audit_replays_them() {
    type Say = fn(&str, &galloper::event::Facts) -> Option<(String, Kind)>;
    type Face = fn(&DieRecord) -> u32;
    let rulesets: [(&str, Say, Face, &[Kind]); 3] = [
        (
            "napoleonic-corps",
            nc_say,
            plain,
            &[Kind::Fire, Kind::Move, Kind::Rally],
        ),
        (
            "activation-dice",
            ad_say,
            plain,
            &[Kind::Activation, Kind::Move, Kind::Fire],
        ),
        (
            "crowther-dougan",
            cd_say,
            average,
            &[Kind::Observation, Kind::Move, Kind::Fire],
        ),
    ];
    for (ruleset, say, face, wanted) in rulesets {
        let (_tmp, archive) = demo(ruleset, false);
        let v = audit::audit(&archive).expect("the audit passes");
        assert!(v.replayed, "{ruleset}: {:?}", v.lines);
        let steps = sealed(&archive);
        let n = check(&steps, say, &[], false, face);
        assert!(n > 20, "{ruleset}: {n} events");
        let kinds: std::collections::BTreeSet<Kind> = steps
            .iter()
            .flat_map(|(e, _)| e.iter().map(|e| e.kind))
            .collect();
        for k in wanted {
            assert!(kinds.contains(k), "{ruleset}: no {k:?} in {kinds:?}");
        }
    }
}

/// Maurice Lite's notes: the standing reactions renewed.
const ML_NOTES: &[&str] = &["reactions_renewed", "reactions_in_force"];
/// Morschauser's notes: terrain changed (corn trampled, towns burning,
/// walls breached, bridges down), which no shared kind names.
const MM_NOTES: &[&str] = &[
    "tramples",
    "mine_explodes",
    "catches_fire",
    "no_fire",
    "blows_breach",
    "breach_fails",
    "brings_down",
    "still_stands",
];

#[test]
fn maurice_lite_battle_events_are_data_and_the_audit_replays_them() {
    let (_tmp, archive) = demo("maurice-lite", true);
    let v = audit::audit(&archive).expect("the audit passes");
    assert!(v.replayed, "{:?}", v.lines);
    let steps = sealed(&archive);
    let n = check(&steps, ml_say, ML_NOTES, true, plain);
    let kinds: std::collections::BTreeSet<Kind> = steps
        .iter()
        .flat_map(|(e, _)| e.iter().map(|e| e.kind))
        .collect();
    assert!(n > 50, "{n} events");
    for k in [Kind::Setup, Kind::Fire, Kind::Disorder, Kind::Activation] {
        assert!(kinds.contains(&k), "no {k:?} in {kinds:?}");
    }
    // The public archive keeps the facts too.
    let public = std::fs::read_to_string(archive.join("step-0001/events.yaml")).expect("public");
    assert!(public.contains("kind: setup") && public.contains("what: deploys"));
}

#[test]
fn morschauser_demo_events_are_data_and_the_audit_replays_them() {
    let (_tmp, archive) = demo("morschauser-macduff", true);
    let v = audit::audit(&archive).expect("the audit passes");
    assert!(v.replayed, "{:?}", v.lines);
    let steps = sealed(&archive);
    let n = check(&steps, mm_say, MM_NOTES, true, plain);
    assert!(n > 20, "{n} events");
    assert!(
        steps
            .iter()
            .flat_map(|(e, _)| e)
            .any(|e| e.what == "shoots" && !e.dice.is_empty()),
        "the demo shoots"
    );
}

/// Each die a report line prints: the values of a fire line and the dice
/// listed under any other line.
fn printed(lines: &[galloper::view::EventLine]) -> usize {
    lines
        .iter()
        .map(|l| {
            let fire = l.text.contains("d at ") && l.text.contains("(dice ");
            let values = if fire {
                let head = l.text.split(": ").nth(1).unwrap_or("");
                head.split(',')
                    .next()
                    .unwrap_or("")
                    .split_whitespace()
                    .count()
            } else {
                0
            };
            values + l.dice.len()
        })
        .sum()
}

#[test]
fn a_battle_report_fires_in_one_line_per_unit_and_prints_each_die_once() {
    let (_tmp, archive) = demo("maurice-lite", true);
    let steps = sealed(&archive);
    let side = Viewer::Side(galloper::side::SideId("french".into()));
    let mut fire_lines = 0;
    for (events, dice) in &steps {
        for viewer in [&side, &Viewer::Umpire] {
            let rules = galloper::rulesets::by_name("maurice-lite").unwrap();
            let lines = galloper::server::report::event_lines(rules, events, dice, viewer);
            // Every die an event visible to the reader refers to, once.
            let mut referred: Vec<usize> = events
                .iter()
                .filter(|e| e.visible_to(viewer))
                .filter(|e| !e.facts.idle || *viewer == Viewer::Umpire)
                .flat_map(|e| e.dice.iter().copied())
                .filter(|i| {
                    dice[*i].stream == galloper::dice::StreamKind::Public
                        || *viewer == Viewer::Umpire
                })
                .collect();
            referred.sort();
            referred.dedup();
            assert_eq!(printed(&lines), referred.len(), "{lines:#?}");
            fire_lines += lines
                .iter()
                .filter(|l| l.text.contains("d at ") && l.dice.is_empty())
                .count();
            // The shots of one unit at one target are one line.
            let shots = events
                .iter()
                .filter(|e| e.what == "shot" && e.visible_to(viewer))
                .count();
            let one_line = lines.iter().filter(|l| l.text.contains("d at ")).count();
            assert!(one_line <= shots, "{one_line} fire lines for {shots} shots");
            // Players do not read of units that did nothing.
            if *viewer != Viewer::Umpire {
                assert!(!lines.iter().any(|l| l.text.starts_with("Not firing")));
            }
        }
    }
    assert!(fire_lines > 0, "the battle fires");
}
