//! Hostile scenarios (issue 12, item 15): names that would inject a line into
//! an orders template or reach a terminal, ids that would name a path, and a
//! scenario too big to load are refused, each with a message that names the
//! entry and the limit; what templates print of names reads back as data.

use galloper::ruleset::AnyRuleset;
use galloper::rulesets;
use galloper::scenario_check::{MAX_BYTES, MAX_UNITS_A_SIDE};
use galloper::side::SideId;
use std::process::Command;

const MAURICE: &str = include_str!("../games/maurice-lite/hollowbrook.yaml");
const MORSCHAUSER: &str = include_str!("../games/morschauser-macduff/crossroads.yaml");

fn maurice() -> &'static dyn AnyRuleset {
    rulesets::by_name("maurice-lite").unwrap()
}

fn morschauser() -> &'static dyn AnyRuleset {
    rulesets::by_name("morschauser-macduff").unwrap()
}

/// `scenario` with `from` replaced once by `to`.
fn edited(scenario: &str, from: &str, to: &str) -> String {
    assert!(scenario.contains(from), "{from} is in the scenario");
    scenario.replacen(from, to, 1)
}

/// Why `rules` refuses `scenario` to start a game.
fn refusal(rules: &dyn AnyRuleset, scenario: &str) -> String {
    match rules.start(scenario) {
        Ok(_) => panic!("the scenario was accepted"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_name_with_a_line_feed_is_refused_in_both_rulesets() {
    // Raw in a template, this name would add a `round:` line of orders.
    let s = edited(
        MAURICE,
        "\"Navarre\"",
        "\"Navarre\\nround:\\n  command: pass\"",
    );
    let e = refusal(maurice(), &s);
    assert!(
        e.contains("sides[0] (id french).units[1] (id fr-i2).name"),
        "{e}"
    );
    assert!(e.contains("U+000A") && e.contains("one line"), "{e}");

    let s = edited(
        MORSCHAUSER,
        "\"1/52nd B Coy\"",
        "\"B Coy\\n  - {company: br-1a}\"",
    );
    let e = refusal(morschauser(), &s);
    assert!(e.contains("(id br-1b).name") && e.contains("U+000A"), "{e}");
}

#[test]
fn esc_and_nul_are_refused() {
    for (c, code) in [
        ("\\e[2J", "U+001B"),
        ("\\0", "U+0000"),
        ("\\u202E", "U+202E"),
    ] {
        let s = edited(MAURICE, "\"Picardie\"", &format!("\"Pic{c}ardie\""));
        let e = refusal(maurice(), &s);
        assert!(e.contains("(id fr-i1).name") && e.contains(code), "{e}");
        let s = edited(
            MAURICE,
            "name: Holl Wood",
            &format!("name: \"Holl{c} Wood\""),
        );
        let e = refusal(maurice(), &s);
        assert!(
            e.contains("terrain[0] (id holl-wood).name") && e.contains(code),
            "{e}"
        );
    }
    // A deck the scenario brings is checked as well.
    let deck = "deck:\n  name: Own\n  cards:\n    - {id: r1, name: R, reshuffle: true}\n    - {id: r2, name: R, reshuffle: true}\n    - {id: a1, name: \"Bell\\a\", span: 4}\n";
    let e = refusal(maurice(), &format!("{MAURICE}{deck}"));
    assert!(
        e.contains("deck.cards[2] (id a1).name") && e.contains("U+0007"),
        "{e}"
    );
}

#[test]
fn an_id_outside_the_safe_alphabet_is_refused() {
    for bad in ["fr/i1", "../fr", "fr i1", "fr:i1", "fr\u{e9}"] {
        let s = edited(MAURICE, "id: fr-i1,", &format!("id: \"{bad}\","));
        let e = refusal(maurice(), &s);
        assert!(e.contains("sides[0] (id french).units[0].id"), "{bad}: {e}");
        assert!(
            e.contains("letters, digits, '-', '_' and '.'"),
            "{bad}: {e}"
        );
    }
    let s = edited(MORSCHAUSER, "id: br-1a,", "id: \"br/1a\",");
    let e = refusal(morschauser(), &s);
    assert!(e.contains(".companies[0].id") && e.contains("br/1a"), "{e}");
}

/// A Maurice Lite scenario with `n` units a side.
fn big_maurice(n: usize) -> String {
    let mut s = String::from(
        "ruleset: maurice-lite\ntitle: Big\ntable: {width: 36, height: 24}\n\
         measure: {unit: base_width, base_width: 1, base_depth: 0.75}\nsides:\n",
    );
    for side in ["blue", "red"] {
        s.push_str(&format!(
            "  - id: {side}\n    name: {side}\n    colour: \"#123456\"\n    units:\n"
        ));
        for i in 0..n {
            s.push_str(&format!(
                "      - {{id: {side}-{i}, name: u, arm: infantry}}\n"
            ));
        }
    }
    s
}

#[test]
fn too_many_units_a_side_are_refused_with_the_limit() {
    let e = refusal(maurice(), &big_maurice(MAX_UNITS_A_SIDE + 1));
    assert!(
        e.contains("side blue has 2001 units, more than the limit of 2000 a side"),
        "{e}"
    );
    // The limit itself is allowed (the scaling benchmark plays 1000).
    assert!(maurice().sides(&big_maurice(MAX_UNITS_A_SIDE)).is_ok());
}

#[test]
fn a_million_units_a_side_fail_fast_and_leave_no_data_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let scenario = tmp.path().join("huge.yaml");
    let text = big_maurice(1_000_000);
    assert!(text.len() > MAX_BYTES);
    std::fs::write(&scenario, &text).unwrap();
    let key = tmp.path().join("k.pub");
    std::fs::write(&key, galloper::sig::keygen("k").unwrap().public_line).unwrap();
    let data = tmp.path().join("data");
    let started = std::time::Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_galloper"))
        .arg("--data")
        .arg(&data)
        .args(["new", "--game", "big"])
        .arg(&scenario)
        .arg("--player")
        .arg(format!("blue:blue@example.org:{}", key.display()))
        .arg("--player")
        .arg(format!("red:red@example.org:{}", key.display()))
        .output()
        .unwrap();
    let took = started.elapsed();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("more than the limit of 1048576 bytes"),
        "{err}"
    );
    assert!(took.as_secs() < 10, "took {took:?}");
    assert!(!data.exists(), "a data folder was left behind");

    // Within the byte limit but over the units limit: refused as well, and
    // still before any data folder exists.
    std::fs::write(&scenario, big_maurice(MAX_UNITS_A_SIDE + 1)).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_galloper"))
        .arg("--data")
        .arg(&data)
        .args(["new", "--game", "big"])
        .arg(&scenario)
        .arg("--player")
        .arg(format!("blue:blue@example.org:{}", key.display()))
        .arg("--player")
        .arg(format!("red:red@example.org:{}", key.display()))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("more than the limit of 2000 a side"), "{err}");
    assert!(!data.exists(), "a data folder was left behind");
}

/// A name that needs quoting in YAML but is plain text on one line.
const AWKWARD: &str = "Old Guard: round: {command: pass} # \\\"the\\\" [best] \\\\ - &a *b";

#[test]
fn templates_quote_names_and_read_back_as_data() {
    // Maurice Lite: the deployment template, names in comments.
    let s = edited(MAURICE, "\"Picardie\"", &format!("\"{AWKWARD}\""));
    let rules = maurice();
    let state = rules.start(&s).unwrap();
    let name: String = serde_yaml::from_str(&format!("\"{AWKWARD}\"")).unwrap();
    let t = rules
        .orders_template(&state, &SideId::new("french"))
        .unwrap()
        .unwrap();
    assert!(t.contains(&galloper::yaml::quoted(&name)), "{t}");
    let v: serde_yaml::Value = serde_yaml::from_str(&t).unwrap();
    assert_eq!(v.as_mapping().unwrap().len(), 1, "only deploy: {t}");
    let units = v["deploy"]["units"].as_sequence().unwrap();
    let ids: Vec<&str> = units.iter().map(|u| u["unit"].as_str().unwrap()).collect();
    assert_eq!(ids, ["fr-i1", "fr-i2", "fr-i3", "fr-c1", "fr-c2", "fr-a1"]);
    assert!(
        rules
            .check(&state, &SideId::new("french"), &v)
            .unwrap()
            .is_empty()
    );

    // Morschauser: the company lines of the deployment template.
    let s = edited(MORSCHAUSER, "\"1/52nd A Coy\"", &format!("\"{AWKWARD}\""));
    let rules = morschauser();
    let state = rules.start(&s).unwrap();
    let t = rules
        .orders_template(&state, &SideId::new("british"))
        .unwrap()
        .unwrap();
    assert!(t.contains(&galloper::yaml::quoted(&name)), "{t}");
    let v: serde_yaml::Value = serde_yaml::from_str(&t).unwrap();
    assert_eq!(v.as_mapping().unwrap().len(), 1, "only deploy: {t}");
    assert!(v["deploy"]["if_winner"].as_str().is_some(), "{t}");
}
