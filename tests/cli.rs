//! The command line as a player and a game master use it: every command has
//! help, and a game goes from keys to an audited archive.

use std::path::Path;
use std::process::{Command, Output};

fn galloper(data: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_galloper"))
        .arg("--data")
        .arg(data)
        .args(args)
        .output()
        .expect("galloper runs")
}

fn ok(o: &Output) -> String {
    assert!(
        o.status.success(),
        "failed: {}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn every_command_has_help() {
    let tmp = tempfile::tempdir().unwrap();
    for cmd in [
        "keygen", "new", "status", "orders", "sign", "submit", "process", "serve", "render",
        "audit", "schema", "resolve", "demo", "beacon",
    ] {
        let out = ok(&galloper(tmp.path(), &[cmd, "--help"]));
        assert!(out.contains("Usage"), "{cmd}: {out}");
    }
}

#[test]
fn a_game_from_keys_to_audit() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let data = d.join("data");
    let key = |n: &str| d.join(n).to_string_lossy().into_owned();
    ok(&galloper(&data, &["keygen", &key("f")]));
    ok(&galloper(&data, &["keygen", &key("a")]));
    let scenario =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("games/maurice-lite/hollowbrook.yaml");
    let fp = format!("french:f@x.example:{}.pub", key("f"));
    let ap = format!("austrians:a@x.example:{}.pub", key("a"));
    let out = ok(&galloper(
        &data,
        &[
            "new",
            &scenario.to_string_lossy(),
            "--game",
            "g1",
            "--player",
            &fp,
            "--player",
            &ap,
        ],
    ));
    assert!(out.contains("waiting"), "{out}");
    for (side, k) in [("french", "f"), ("austrians", "a")] {
        let t = ok(&galloper(&data, &["orders", "template", "g1", side]));
        let file = d.join(format!("{side}.yaml"));
        std::fs::write(&file, t).unwrap();
        ok(&galloper(
            &data,
            &["sign", &file.to_string_lossy(), "--key", &key(k)],
        ));
        let out = ok(&galloper(&data, &["submit", &file.to_string_lossy()]));
        assert!(out.contains("accepted"), "{out}");
    }
    // A file the server could not read is not signed: the player hears of
    // the line, what belongs there and an example, not the parser's grammar.
    let broken = d.join("broken.yaml");
    let t = ok(&galloper(&data, &["orders", "template", "g1", "french"]));
    let opened = t.lines().count() + 1;
    std::fs::write(&broken, format!("{t}  volleys: [fr-i1\n")).unwrap();
    let o = galloper(
        &data,
        &["sign", &broken.to_string_lossy(), "--key", &key("f")],
    );
    let said = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{said}");
    assert!(
        said.contains(&format!(
            "broken.yaml:{opened}: a list opened with `[` is not closed"
        )) && said.contains("e.g. `")
            && said.contains("Nothing was signed")
            && !said.contains("while parsing"),
        "{said}"
    );
    assert!(!d.join("broken.yaml.sig").exists());
    // Sending the French file again changes nothing; a file with a higher
    // revision replaces the earlier one and says so.
    let french = d.join("french.yaml");
    let o = galloper(&data, &["submit", &french.to_string_lossy()]);
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("already the accepted orders"),
        "{o:?}"
    );
    let t = std::fs::read_to_string(&french).unwrap();
    std::fs::write(&french, galloper::envelope::with_field(&t, "revision", "2")).unwrap();
    ok(&galloper(
        &data,
        &["sign", &french.to_string_lossy(), "--key", &key("f")],
    ));
    let again = ok(&galloper(&data, &["submit", &french.to_string_lossy()]));
    assert!(again.contains("replaces"), "{again}");
    let out = ok(&galloper(
        &data,
        &["process", "--outbox", &d.join("out").to_string_lossy()],
    ));
    assert!(out.contains("resolved g1 step 1"), "{out}");
    assert!(d.join("out/g1/step-0001/french/report.html").exists());
    assert!(d.join("out/g1/step-0001/french/map.png").exists());
    // Each side sees its own hand and not the other's; the public sees none.
    let fr = std::fs::read_to_string(d.join("out/g1/step-0001/french/report.html")).unwrap();
    assert!(
        fr.contains("French hand") && !fr.contains("Austrians hand"),
        "hands leak"
    );
    let public = std::fs::read_to_string(d.join("out/g1/step-0001/public/report.txt")).unwrap();
    assert!(!public.contains("hand (secret)"), "{public}");
    // The umpire's view shows the hidden secret too.
    let um = d.join("umpire");
    ok(&galloper(
        &data,
        &["render", "g1", "--out", &um.to_string_lossy()],
    ));
    let text = std::fs::read_to_string(um.join("report.txt")).unwrap();
    assert!(
        text.contains("hidden secret H_1") && text.contains("Austrians hand"),
        "{text}"
    );
    // The old file is now a replay: refused, exit code 1, and it says why.
    let o = galloper(&data, &["submit", &d.join("french.yaml").to_string_lossy()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("already resolved"));
    // A game in progress passes only so far: exit status 3, not 0.
    let o = galloper(
        &data,
        &["audit", &data.join("archive/g1").to_string_lossy()],
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(3), "{out}");
    assert!(
        out.contains("AUDIT PASSED SO FAR") && out.contains("not yet"),
        "{out}"
    );
}

#[test]
fn schema_and_sandbox_resolve() {
    let tmp = tempfile::tempdir().unwrap();
    let schema = ok(&galloper(
        tmp.path(),
        &["schema", "orders", "--ruleset", "maurice-lite"],
    ));
    let v: serde_json::Value = serde_json::from_str(&schema).expect("JSON");
    assert!(schema.contains("deploy") && schema.contains("round") && v.is_object());
    let scenario =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("games/maurice-lite/hollowbrook.yaml");
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/maurice-lite/demo");
    let fr = tmp.path().join("fr.yaml");
    let au = tmp.path().join("au.yaml");
    // The first entry of each demo script is its deployment.
    for (src, dst) in [("french.yaml", &fr), ("austrians.yaml", &au)] {
        let list: Vec<serde_yaml::Value> =
            galloper::yaml::from_str(&std::fs::read_to_string(demo.join(src)).unwrap()).unwrap();
        std::fs::write(dst, galloper::yaml::to_string(&list[0]).unwrap()).unwrap();
    }
    let dice: Vec<String> = std::iter::repeat_n("1".to_string(), 68)
        .chain(["6".into(), "2".into()])
        .collect();
    let out = ok(&galloper(
        tmp.path(),
        &[
            "resolve",
            &scenario.to_string_lossy(),
            "--orders",
            &format!("french={}", fr.display()),
            "--orders",
            &format!("austrians={}", au.display()),
            "--dice",
            &dice.join(","),
            "--format",
            "json",
        ],
    ));
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(
        v["violations"].as_array().map(|a| a.len()),
        Some(0),
        "{out}"
    );
    let text = v["events"].to_string();
    assert!(text.contains("French plays the first round"), "{text}");
    assert!(
        v["dice"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["purpose"].as_str().unwrap_or("").contains("first round"))
    );
}

#[test]
fn sandbox_output_shows_fire_base_by_base_and_combat_scores() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let scenario = dir.join("games/maurice-lite/hollowbrook.yaml");
    let list = |f: &str| -> Vec<serde_yaml::Value> {
        galloper::yaml::from_str(
            &std::fs::read_to_string(dir.join("games/maurice-lite/demo").join(f)).unwrap(),
        )
        .unwrap()
    };
    let fr = tmp.path().join("fr.yaml");
    let au = tmp.path().join("au.yaml");
    std::fs::write(
        &fr,
        galloper::yaml::to_string(&list("french.yaml")[0]).unwrap(),
    )
    .unwrap();
    std::fs::write(
        &au,
        galloper::yaml::to_string(&list("austrians.yaml")[0]).unwrap(),
    )
    .unwrap();
    // Deploy, with the French winning the first-round roll.
    let dice: Vec<String> = std::iter::repeat_n("1".to_string(), 68)
        .chain(["6".into(), "2".into()])
        .collect();
    let out = ok(&galloper(
        tmp.path(),
        &[
            "resolve",
            &scenario.to_string_lossy(),
            "--orders",
            &format!("french={}", fr.display()),
            "--orders",
            &format!("austrians={}", au.display()),
            "--dice",
            &dice.join(","),
        ],
    ));
    let v: serde_yaml::Value = galloper::yaml::from_str(&out).unwrap();
    let mut state = v["state"].clone();
    // Bring IR 3 Lothringen 2 BW in front of Navarre.
    for u in state["units"].as_sequence_mut().unwrap() {
        if u["id"].as_str() == Some("au-i2") {
            u["anchor"]["y"] = serde_yaml::Value::from(9.0);
        }
    }
    let state_file = tmp.path().join("state.yaml");
    std::fs::write(&state_file, galloper::yaml::to_string(&state).unwrap()).unwrap();
    let round = tmp.path().join("round.yaml");
    std::fs::write(&round, "round:\n  volleys: true\n  command:\n    charge:\n      force: [fr-i2]\n      cards: fewest\n      charges: [{unit: fr-i2, target: au-i2}]\n").unwrap();
    let out = ok(&galloper(
        tmp.path(),
        &[
            "resolve",
            &scenario.to_string_lossy(),
            "--state",
            &state_file.to_string_lossy(),
            "--orders",
            &format!("french={}", round.display()),
            "--dice",
            // Every die the step rolls: a script that runs out is an error.
            "5,5,5,5,2,2,2,2,3,3,3,3,4,4,6,1,1,1,1,1,1,1,1,1,1,1,1,1",
            "--format",
            "json",
        ],
    ));
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(
        v["violations"].as_array().map(|a| a.len()),
        Some(0),
        "{out}"
    );
    let fire = &v["state"]["detail"]["fire"];
    let shot = &fire[0]["shots"][0];
    assert!(
        shot["shooter"].is_string() && shot["base"].is_number() && shot["target"].is_string(),
        "{fire}"
    );
    assert!(
        shot["dice"].as_array().is_some_and(|d| !d.is_empty()),
        "each die: {shot}"
    );
    let combat = &v["state"]["detail"]["combat"];
    assert_eq!(combat["engagements"][0]["attacker"], "fr-i2", "{combat}");
    assert!(
        combat["engagements"][0]["flanked"].is_boolean()
            && combat["engagements"][0]["cover"].is_boolean()
    );
    let score = &combat["scores"][0];
    assert!(
        score["modifiers"].is_array() && score["score"].is_number(),
        "{combat}"
    );
}

#[test]
fn a_demo_of_an_unknown_ruleset_names_the_ones_there_are() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("demo");
    let o = galloper(
        tmp.path(),
        &[
            "demo",
            "--ruleset",
            "kriegsspiel",
            "--out",
            &out.to_string_lossy(),
        ],
    );
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    // Refused as the command line is read, with every ruleset named.
    assert!(
        err.contains("invalid value 'kriegsspiel'")
            && galloper::rulesets::names().iter().all(|n| err.contains(n)),
        "{err}"
    );
    assert!(
        !out.exists(),
        "nothing is written for a demo that cannot be played"
    );
}

/// Issue 14, the sandbox: a step that rolls nothing needs no dice, a state
/// needs no scenario beside it, `--contact` places a unit touching another
/// by ids and edge, a script that runs out says so, and `--help` gives the
/// order of the dice.
#[test]
fn sandbox_resolve_needs_dice_only_to_roll_a_state_alone_and_places_units_in_contact() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let scenario = dir.join("games/maurice-lite/hollowbrook.yaml");
    let first = |f: &str| -> serde_yaml::Value {
        let list: Vec<serde_yaml::Value> = galloper::yaml::from_str(
            &std::fs::read_to_string(dir.join("games/maurice-lite/demo").join(f)).unwrap(),
        )
        .unwrap();
        list[0].clone()
    };
    let fr = tmp.path().join("fr.yaml");
    let au = tmp.path().join("au.yaml");
    std::fs::write(
        &fr,
        galloper::yaml::to_string(&first("french.yaml")).unwrap(),
    )
    .unwrap();
    std::fs::write(
        &au,
        galloper::yaml::to_string(&first("austrians.yaml")).unwrap(),
    )
    .unwrap();
    let seed = "00".repeat(32);
    let out = ok(&galloper(
        tmp.path(),
        &[
            "resolve",
            &scenario.to_string_lossy(),
            "--orders",
            &format!("french={}", fr.display()),
            "--orders",
            &format!("austrians={}", au.display()),
            "--seed",
            &seed,
        ],
    ));
    let v: serde_yaml::Value = galloper::yaml::from_str(&out).unwrap();
    let state = tmp.path().join("state.yaml");
    std::fs::write(&state, galloper::yaml::to_string(&v["state"]).unwrap()).unwrap();
    let active = v["state"]["phase"]["round"]["active"]
        .as_str()
        .expect("a round is open")
        .to_string();
    let (mine, theirs) = if active == "french" {
        ("fr-i1", "au-i1")
    } else {
        ("au-i1", "fr-i1")
    };
    let pass = tmp.path().join("pass.yaml");
    std::fs::write(&pass, "round: {command: pass}\n").unwrap();
    // No scenario, no dice: a pass rolls nothing.
    let out = ok(&galloper(
        tmp.path(),
        &[
            "resolve",
            "--state",
            &state.to_string_lossy(),
            "--orders",
            &format!("{active}={}", pass.display()),
            "--contact",
            &format!("{theirs}:{mine}:front"),
            "--format",
            "json",
        ],
    ));
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert!(v["events"].to_string().contains("passes"), "{out}");
    let unit = |id: &str| {
        v["state"]["units"]
            .as_array()
            .unwrap()
            .iter()
            .find(|u| u["id"] == id)
            .unwrap()
            .clone()
    };
    let (a, b) = (unit(mine), unit(theirs));
    let close = |x: &serde_json::Value, y: &serde_json::Value| {
        (x.as_f64().unwrap() - y.as_f64().unwrap()).abs() < 1e-9
    };
    assert!(
        close(&a["anchor"]["x"], &b["anchor"]["x"]) && close(&a["anchor"]["y"], &b["anchor"]["y"]),
        "front edge to front edge, centred: {a} {b}"
    );
    let turn = (a["facing"].as_f64().unwrap() - b["facing"].as_f64().unwrap()).rem_euclid(360.0);
    assert!((turn - 180.0).abs() < 1e-9, "face to face: {a} {b}");
    // Volleys at contact roll dice: without them the run says what is missing.
    let volley = tmp.path().join("volley.yaml");
    std::fs::write(
        &volley,
        format!("round: {{volleys: [{mine}], command: pass}}\n"),
    )
    .unwrap();
    let o = galloper(
        tmp.path(),
        &[
            "resolve",
            "--state",
            &state.to_string_lossy(),
            "--orders",
            &format!("{active}={}", volley.display()),
            "--contact",
            &format!("{theirs}:{mine}:front"),
            "--dice",
            "6",
        ],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success(),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert!(
        err.contains("the dice ran out") && err.contains("--dice gave 1") && err.contains("to hit"),
        "{err}"
    );
    let help = ok(&galloper(tmp.path(), &["resolve", "--help"]));
    assert!(
        help.contains("The order in which maurice-lite rolls its dice")
            && help.contains("charge (combat): one die per engaged unit")
            && help.contains("--contact"),
        "{help}"
    );
}

/// Issue 30: `galloper resolve --help` gives every ruleset's order of dice,
/// so that a referee can script a situation by hand.
#[test]
fn resolve_help_gives_each_rulesets_order_of_dice() {
    let tmp = tempfile::tempdir().unwrap();
    let help = ok(&galloper(tmp.path(), &["resolve", "--help"]));
    for name in galloper::rulesets::names() {
        assert!(
            help.contains(&format!("The order in which {name} rolls its dice")),
            "{name}: {help}"
        );
    }
    assert!(help.contains("the attacker's dice, one per SP"), "{help}");
    assert!(help.contains("a d100 when a fraction of a man"), "{help}");
    assert!(help.contains("2D6 for a rough-ground"), "{help}");
    assert!(help.contains("critical-event table"), "{help}");
}

/// A game made with `--zone` and `--map-edge own`: the zoned player reads
/// the deadline in his zone, the other in the schedule's; each side's map
/// has its own edge at the bottom.
#[test]
fn new_takes_a_players_zone_and_turns_each_map_to_its_own_edge() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let data = d.join("data");
    let key = |n: &str| d.join(n).to_string_lossy().into_owned();
    ok(&galloper(&data, &["keygen", &key("f")]));
    ok(&galloper(&data, &["keygen", &key("a")]));
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let scenario = root.join("games/maurice-lite/hollowbrook.yaml");
    let schedule = root.join("deploy/schedule.yaml");
    let fp = format!("french:f@x.example:{}.pub", key("f"));
    let ap = format!("austrians:a@x.example:{}.pub", key("a"));
    ok(&galloper(
        &data,
        &[
            "new",
            &scenario.to_string_lossy(),
            "--game",
            "g1",
            "--player",
            &fp,
            "--player",
            &ap,
            "--zone",
            "austrians:Asia/Tokyo",
            "--map-edge",
            "own",
            "--schedule",
            &schedule.to_string_lossy(),
        ],
    ));
    for (side, k) in [("french", "f"), ("austrians", "a")] {
        let file = d.join(format!("{side}.yaml"));
        std::fs::write(
            &file,
            ok(&galloper(&data, &["orders", "template", "g1", side])),
        )
        .unwrap();
        ok(&galloper(
            &data,
            &["sign", &file.to_string_lossy(), "--key", &key(k)],
        ));
        ok(&galloper(&data, &["submit", &file.to_string_lossy()]));
    }
    ok(&galloper(
        &data,
        &["process", "--outbox", &d.join("out").to_string_lossy()],
    ));
    let read = |side: &str, f: &str| {
        std::fs::read_to_string(d.join(format!("out/g1/step-0001/{side}/{f}"))).unwrap()
    };
    let (au, fr) = (
        read("austrians", "report.txt"),
        read("french", "report.txt"),
    );
    assert!(au.contains("(Asia/Tokyo)"), "{au}");
    assert!(
        fr.contains("(Europe/London)") && !fr.contains("Asia/Tokyo"),
        "{fr}"
    );
    let (au_map, fr_map) = (
        read("austrians", "report.html"),
        read("french", "report.html"),
    );
    assert!(au_map.contains("Bottom edge: Austrians"), "austrians' map");
    assert!(fr_map.contains("Bottom edge: French"), "french map");
    // A wrong value is refused before anything is made.
    let o = galloper(
        &data,
        &[
            "new",
            &scenario.to_string_lossy(),
            "--game",
            "g2",
            "--player",
            &fp,
            "--player",
            &ap,
            "--map-edge",
            "theirs",
        ],
    );
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("`first` or `own`"));
    assert!(!data.join("archive/g2").exists());
}

/// The README's rulesets table names every ruleset the binary has, and its
/// `render` usage names only options that `render --help` knows.
#[test]
fn the_readme_matches_the_binary() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let rows: Vec<&str> = readme
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .collect();
    for name in galloper::rulesets::names() {
        assert!(rows.contains(&name), "README's rulesets table lacks {name}");
    }
    for row in &rows {
        assert!(
            galloper::rulesets::names().contains(row),
            "README lists {row}, which the binary does not have"
        );
    }
    let start = readme.find("`galloper render ").expect("render usage");
    let usage = &readme[start + 1..];
    let usage = &usage[..usage.find('`').unwrap()];
    let tmp = tempfile::tempdir().unwrap();
    let help = ok(&galloper(tmp.path(), &["render", "--help"]));
    let flags: Vec<&str> = usage
        .split(|c: char| c.is_whitespace() || c == '[' || c == ']')
        .filter(|w| w.starts_with("--"))
        .collect();
    assert!(!flags.is_empty(), "{usage}");
    for flag in flags {
        assert!(
            help.contains(flag),
            "README's render usage has {flag}: {help}"
        );
    }
    for word in help.split_whitespace().filter(|w| w.starts_with("--")) {
        let flag = word.trim_end_matches(|c: char| !c.is_alphanumeric());
        if !["--help", "--data"].contains(&flag) && !flag.contains('=') {
            assert!(usage.contains(flag), "README's render usage lacks {flag}");
        }
    }
}

/// `galloper new` warns the organiser when hidden units stand where a stock
/// crowther-dougan scenario puts them (issue 28, item 7): the other side's
/// players may know that file. The game is made all the same; a copy with
/// the hidden units' places edited gets no warning.
#[test]
fn new_warns_of_hidden_units_at_a_stock_scenarios_places() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let data = d.join("data");
    let key = |n: &str| d.join(n).to_string_lossy().into_owned();
    ok(&galloper(&data, &["keygen", &key("b")]));
    ok(&galloper(&data, &["keygen", &key("f")]));
    let stock =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("games/crowther-dougan/beaver-creek.yaml");
    let bp = format!("british:b@x.example:{}.pub", key("b"));
    let fp = format!("french:f@x.example:{}.pub", key("f"));
    let new = |scenario: &Path, game: &str| {
        let o = galloper(
            &data,
            &[
                "new",
                &scenario.to_string_lossy(),
                "--game",
                game,
                "--player",
                &bp,
                "--player",
                &fp,
            ],
        );
        ok(&o);
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let warned = new(&stock, "g1");
    assert!(warned.contains("warning: side french"), "{warned}");
    assert!(
        warned.contains("games/crowther-dougan/beaver-creek.yaml")
            && warned.contains("the other side's players may know")
            && warned.contains("fr-canad")
            && warned.contains("secret orders in the setup step anyway"),
        "{warned}"
    );
    assert!(!warned.contains("side british"), "{warned}");
    // The hidden units' suggested places moved within their zones.
    let text = std::fs::read_to_string(&stock).unwrap();
    let edited = text
        .replace("at: {x: 90, y: 81}", "at: {x: 86, y: 78}")
        .replace("at: {x: 48, y: 70}", "at: {x: 40, y: 60}")
        .replace("at: {x: 135, y: 66}", "at: {x: 125, y: 60}");
    let copy = d.join("edited.yaml");
    std::fs::write(&copy, edited).unwrap();
    let quiet = new(&copy, "g2");
    assert!(!quiet.contains("warning"), "{quiet}");
}

/// Issue 31, items 13 and 14: `demo --help` lists every ruleset, and a demo
/// stopped by `--max-steps` ends with status 0, its game in progress and
/// audited so far.
#[test]
fn demo_help_lists_every_ruleset_and_a_stopped_demo_ends_well() {
    let tmp = tempfile::tempdir().unwrap();
    let help = ok(&galloper(tmp.path(), &["demo", "--help"]));
    for name in galloper::rulesets::names() {
        assert!(help.contains(name), "{name} missing from: {help}");
    }
    let out = tmp.path().join("demo");
    let o = galloper(
        tmp.path(),
        &["demo", "--max-steps", "2", "--out", &out.to_string_lossy()],
    );
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        said.contains("Stopped after 2 steps") && said.contains("AUDIT PASSED SO FAR"),
        "{said}"
    );
}

/// Issue 31, item 13: the README tells a club where its server key is and
/// how to publish the fingerprint, and a player how to join with
/// `ssh-keygen` and `openssl` alone; the signing line it gives works with
/// the namespace the server checks.
#[test]
fn the_readme_tells_the_server_key_and_how_to_join() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    for needed in [
        "## Joining a game",
        "ssh-keygen -t ed25519",
        "openssl rand -hex 32",
        &format!("ssh-keygen -Y sign -n {}", galloper::sig::ORDERS_NAMESPACE),
        "/var/lib/galloper/server_key",
        "ssh-keygen -l -f /var/lib/galloper/server_key.pub",
        "sudo -u galloper galloper --data /var/lib/galloper new",
        "/usr/local/share/galloper/games/maurice-lite/hollowbrook.yaml",
    ] {
        assert!(readme.contains(needed), "README lacks {needed:?}");
    }
    assert!(root.join("games/maurice-lite/hollowbrook.yaml").is_file());
}

/// Issue 31, item 14: `render --step N` writes the orders template that
/// step's report carried (the orders for step N + 1 under its notice), not
/// the open step's.
#[test]
fn render_of_an_old_step_writes_that_steps_template() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("demo");
    let o = galloper(
        tmp.path(),
        &["demo", "--max-steps", "4", "--out", &out.to_string_lossy()],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let data = out.join("server");
    let r = tmp.path().join("r1");
    let said = ok(&galloper(
        &data,
        &[
            "render",
            "hollowbrook-demo",
            "--step",
            "1",
            "--reader",
            "french",
            "--out",
            &r.to_string_lossy(),
        ],
    ));
    assert!(said.contains("orders-template.yaml"), "{said}");
    let t = std::fs::read_to_string(r.join("orders-template.yaml")).unwrap();
    let notice =
        std::fs::read(data.join("archive/hollowbrook-demo/step-0002/notice.yaml")).unwrap();
    assert!(t.contains("\nstep: 2\n"), "{t}");
    assert!(
        t.contains(&format!(
            "notice: {}",
            galloper::archive::sha256_hex(&notice)
        )),
        "{t}"
    );
}

/// Issue 31, item 13: the README's install of the scenarios (a folder of
/// mode 755 and `cp -r games`) leaves them readable by another user, and
/// that user creates a game from them, as `sudo -u galloper galloper new`
/// does on a club server. As root (CI) the game is created as `nobody`;
/// otherwise the modes alone are checked.
#[cfg(unix)]
#[test]
fn another_user_creates_a_game_from_the_installed_scenarios() {
    use std::os::unix::fs::PermissionsExt;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path();
    std::fs::set_permissions(base, std::fs::Permissions::from_mode(0o755)).unwrap();
    let share = base.join("share");
    let install = |args: &[&str]| {
        let st = Command::new(args[0]).args(&args[1..]).status().unwrap();
        assert!(st.success(), "{args:?}");
    };
    let s = share.to_string_lossy().into_owned();
    install(&["install", "-d", "-m", "755", &s]);
    install(&[
        "cp",
        "-r",
        &root.join("games").to_string_lossy(),
        &root.join("deploy/schedule.yaml").to_string_lossy(),
        &s,
    ]);
    let scenario = share.join("games/maurice-lite/hollowbrook.yaml");
    for p in [&share, &share.join("games"), &scenario] {
        let mode = std::fs::metadata(p).unwrap().permissions().mode();
        assert_eq!(
            mode & 0o004,
            0o004,
            "{} is not readable by all",
            p.display()
        );
    }
    let root_user = String::from_utf8(Command::new("id").arg("-u").output().unwrap().stdout)
        .unwrap()
        .trim()
        == "0";
    if !root_user {
        return;
    }
    for side in ["alice", "bob"] {
        let key = galloper::sig::keygen(side).unwrap();
        std::fs::write(share.join(format!("{side}.pub")), key.public_line).unwrap();
    }
    let bin = base.join("galloper");
    std::fs::copy(env!("CARGO_BIN_EXE_galloper"), &bin).unwrap();
    let data = base.join("data");
    std::fs::create_dir(&data).unwrap();
    install(&["chown", "nobody", &data.to_string_lossy()]);
    let o = Command::new("runuser")
        .args(["-u", "nobody", "--"])
        .arg(&bin)
        .arg("--data")
        .arg(&data)
        .arg("new")
        .arg(&scenario)
        .args(["--game", "hb-1", "--player"])
        .arg(format!(
            "french:alice@example.org:{}",
            share.join("alice.pub").display()
        ))
        .arg("--player")
        .arg(format!(
            "austrians:bob@example.org:{}",
            share.join("bob.pub").display()
        ))
        .arg("--schedule")
        .arg(share.join("schedule.yaml"))
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    let said = ok(&o);
    assert!(said.contains("hb-1 (maurice-lite): step 1"), "{said}");
}
