//! Issue 32: the orders page, as a player uses it, for each ruleset. A demo
//! game is played a few steps; `galloper orders page` writes the page of
//! the side that owes orders; Debian's Chromium opens it from `file://`
//! (tests/browser/orders.mjs), drags a unit to a new place, turns it, gives
//! a unit a target, drops the side's key (plain and passphrase) and signs.
//! Then `ssh-keygen -Y verify -n galloper-orders` accepts the signature,
//! `ssh-keygen -Y sign` makes the same bytes for the same file and key,
//! `galloper submit` accepts the file, `galloper process` resolves the step
//! and the moved unit stands where it was dropped, facing as turned. A key
//! not the side's is refused in the page, no request leaves it, and the
//! page of the hidden-troops game holds nothing of the hidden enemy.
//!
//! Needs node, npm, chromium and ssh-keygen (`.ci/run` installs them).

#[path = "support/browser.rs"]
mod browser;
#[path = "orders_page/cases.rs"]
mod cases;

use browser::{node_ready, ok};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;

const GALLOPER: &str = env!("CARGO_BIN_EXE_galloper");

/// What the player does on the page, and which unit ends where.
pub type Walk = (Vec<Value>, Moved);
/// A unit's x, y and facing.
pub type Place = (f64, f64, f64);

/// One ruleset's walk through the page.
pub struct Case {
    pub ruleset: &'static str,
    /// Demo lengths to try, in order, until the page offers what
    /// `build` needs (a unit to move and one with a target).
    pub steps: &'static [u32],
    /// What the player does on the page (tests/browser/orders.mjs), from
    /// the page's data, and which unit ends where.
    pub build: fn(&Value) -> Option<Walk>,
    /// The unit's place and facing in a state (YAML) of the ruleset.
    pub position: fn(&serde_yaml::Value, &str) -> Option<Place>,
    /// How close counts as "where it was dropped" (the ruleset's rounding).
    pub tolerance: f64,
    /// A refusal on receipt that only ground the page cannot see explains
    /// (Maurice Lite's force in one terrain): the walk then goes again.
    pub refused_by_ground: Option<&'static str>,
    /// Whether the move may be stopped by what the page leaves to the
    /// server (the dice of an activation, ground the demo's random course
    /// put in the way): then the walk is played again from a fresh demo,
    /// at most ten times, and must end where dropped once for each key.
    pub stoppable: bool,
}

#[derive(Clone, Debug)]
pub struct Moved {
    pub unit: String,
    pub x: f64,
    pub y: f64,
    pub facing: f64,
}

/// The page's data, as its script holds it.
pub fn page_data(html: &str) -> Value {
    let start = html
        .find("window.GalloperPage = ")
        .expect("the page's data")
        + 22;
    let end = start + html[start..].find(";</script>").expect("its end");
    serde_json::from_str(&html[start..end].replace("<\\/", "</")).unwrap()
}

pub struct Game {
    pub dir: tempfile::TempDir,
    pub game: String,
    pub side: String,
}

fn galloper(data: &Path, args: &[&str]) -> std::process::Output {
    Command::new(GALLOPER)
        .arg("--data")
        .arg(data)
        .args(args)
        .output()
        .expect("galloper runs")
}

impl Game {
    pub fn demo(ruleset: &str, steps: u32) -> Game {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("demo");
        ok(
            "galloper demo",
            &Command::new(GALLOPER)
                .arg("--data")
                .arg(dir.path().join("unused"))
                .args([
                    "demo",
                    "--ruleset",
                    ruleset,
                    "--max-steps",
                    &steps.to_string(),
                ])
                .arg("--out")
                .arg(&out)
                .output()
                .unwrap(),
        );
        let status = ok(
            "galloper status",
            &galloper(&out.join("server"), &["status"]),
        );
        let game = status
            .lines()
            .next()
            .and_then(|l| l.split_whitespace().next())
            .expect("a game")
            .to_string();
        let side = status
            .lines()
            .find(|l| l.ends_with("[waiting]"))
            .and_then(|l| l.trim().split(':').next())
            .unwrap_or_else(|| panic!("no side owes orders:\n{status}"))
            .to_string();
        Game { dir, game, side }
    }
    pub fn data(&self) -> PathBuf {
        self.dir.path().join("demo/server")
    }
    pub fn key(&self, side: &str) -> PathBuf {
        self.dir.path().join("demo/players").join(side)
    }
    pub fn page(&self) -> PathBuf {
        let p = self.dir.path().join("orders.html");
        ok(
            "galloper orders page",
            &galloper(
                &self.data(),
                &[
                    "orders",
                    "page",
                    &self.game,
                    &self.side,
                    "--out",
                    p.to_str().unwrap(),
                ],
            ),
        );
        p
    }
    /// The state the open step starts from, as YAML.
    pub fn state(&self) -> serde_yaml::Value {
        let server = galloper::server::Server::open_existing(&self.data()).unwrap();
        let (step, _) = server.due(&self.game).unwrap().expect("an open step");
        serde_yaml::from_str(&step.state_before).unwrap()
    }
}

/// Runs the page in Chromium with `plan` (tests/browser/orders.mjs).
pub fn drive(plan: Value) -> Value {
    let dir = node_ready();
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), plan.to_string()).unwrap();
    let out = Command::new("node")
        .arg(dir.join("orders.mjs"))
        .arg(file.path())
        .current_dir(&dir)
        .output()
        .expect("node runs");
    serde_json::from_str(&ok("node orders.mjs", &out)).unwrap()
}

fn ssh_keygen(args: &[&str], stdin: Option<&Path>) -> std::process::Output {
    let mut c = Command::new("ssh-keygen");
    c.args(args);
    if let Some(p) = stdin {
        c.stdin(std::fs::File::open(p).unwrap());
    }
    c.output().expect("ssh-keygen runs")
}

/// Gives the side's key a passphrase (in a copy), as a player may.
fn with_passphrase(key: &Path, dir: &Path, pass: &str) -> PathBuf {
    let copy = dir.join("pass-key");
    std::fs::copy(key, &copy).unwrap();
    let mut perm = std::fs::metadata(&copy).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perm, 0o600);
    std::fs::set_permissions(&copy, perm).unwrap();
    ok(
        "ssh-keygen -p",
        &ssh_keygen(
            &[
                "-p",
                "-q",
                "-a",
                "16",
                "-N",
                pass,
                "-P",
                "",
                "-f",
                copy.to_str().unwrap(),
            ],
            None,
        ),
    );
    copy
}

/// The whole walk for one case, with a passphrase key or not: returns
/// the moved unit's place after the step, or none when the dice kept it.
fn walk(case: &Case, passphrase: bool, tries: usize) -> (Moved, (f64, f64, f64)) {
    // A walk played again starts from a longer demo, where the armies
    // stand elsewhere.
    let (g, page, actions, moved) = case
        .steps
        .iter()
        .cycle()
        .skip(tries.saturating_sub(1))
        .take(case.steps.len())
        .find_map(|n| {
            let g = Game::demo(case.ruleset, *n);
            let page = g.page();
            let data = page_data(&std::fs::read_to_string(&page).unwrap());
            (case.build)(&data).map(|(a, m)| (g, page, a, m))
        })
        .unwrap_or_else(|| {
            panic!(
                "{}: no demo length offers a move and a target",
                case.ruleset
            )
        });
    let work = g.dir.path();
    let key = g.key(&g.side);
    let other = std::fs::read_dir(work.join("demo/players"))
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .find(|p| p.extension().is_none() && p.file_name().unwrap() != g.side.as_str())
        .expect("another side's key");
    let (key_file, pass) = if passphrase {
        (
            with_passphrase(&key, work, "by the left, march"),
            "by the left, march",
        )
    } else {
        (key.clone(), "")
    };
    let r = drive(json!({
        "page": page,
        "key_file": key_file,
        "passphrase": pass,
        "wrong_key_file": other,
        "actions": actions,
        "reload": work.join("sent.yaml"),
    }));
    assert_eq!(r["errors"], json!([]), "errors in the page: {r}");
    assert_eq!(r["outside"], json!([]), "requests left the page: {r}");
    let hard: Vec<&Value> = r["problems"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["warning"] != json!(true))
        .collect();
    assert!(hard.is_empty(), "the page found problems: {hard:?}\n{r}");
    let wrong = r["wrong_key"].as_str().unwrap_or("");
    assert!(
        wrong.contains("this is not the key registered for"),
        "a wrong key was not refused in the page: {wrong}"
    );
    let orders = r["orders"]
        .as_str()
        .unwrap_or_else(|| panic!("the page did not sign: {}", r["status"]));
    let signature = r["signature"].as_str().unwrap();
    eprintln!("{}: drawn {}\n{orders}", case.ruleset, r["drawn"]);
    // Loaded back, the file sent is offered again at the next revision,
    // on the map where the ruleset's writer reads orders back, as text to
    // edit otherwise.
    let back = &r["reload"];
    assert_eq!(
        back["revision"],
        json!(2),
        "loading back raises the revision: {back}"
    );
    if back["status"]
        .as_str()
        .unwrap_or("")
        .starts_with("Loaded your orders onto the map")
    {
        assert_eq!(
            back["written"], r["written"],
            "the orders read back onto the map write the same file"
        );
    } else {
        assert_eq!(
            back["text"].as_str(),
            Some(orders),
            "the file loaded as text"
        );
    }
    let file = work.join("orders.yaml");
    std::fs::write(&file, orders).unwrap();
    std::fs::write(work.join("orders.yaml.sig"), signature).unwrap();

    // ssh-keygen verifies it, and signs the same file to the same bytes.
    let public = std::fs::read_to_string(key.with_extension("pub")).unwrap();
    let allowed = work.join("allowed_signers");
    std::fs::write(&allowed, format!("{} {}", g.side, public)).unwrap();
    ok(
        "ssh-keygen -Y verify",
        &ssh_keygen(
            &[
                "-Y",
                "verify",
                "-f",
                allowed.to_str().unwrap(),
                "-I",
                &g.side,
                "-n",
                "galloper-orders",
                "-s",
                work.join("orders.yaml.sig").to_str().unwrap(),
            ],
            Some(&file),
        ),
    );
    let again = work.join("again.yaml");
    std::fs::write(&again, orders).unwrap();
    ok(
        "ssh-keygen -Y sign",
        &ssh_keygen(
            &[
                "-Y",
                "sign",
                "-n",
                "galloper-orders",
                "-f",
                key.to_str().unwrap(),
                again.to_str().unwrap(),
            ],
            None,
        ),
    );
    assert_eq!(
        std::fs::read_to_string(work.join("again.yaml.sig")).unwrap(),
        signature,
        "the page's signature differs from ssh-keygen's"
    );

    let submitted = galloper(&g.data(), &["submit", file.to_str().unwrap()]);
    let said = String::from_utf8_lossy(&submitted.stderr).into_owned();
    if let Some(why) = case.refused_by_ground
        && !submitted.status.success()
        && said.contains(why)
    {
        // Ground the page does not know stopped the file (the server
        // says so in the refusal's words): the walk goes again.
        eprintln!(
            "{}: refused on receipt, as the page said it might: {said}",
            case.ruleset
        );
        return (moved, (f64::NAN, f64::NAN, f64::NAN));
    }
    ok("galloper submit", &submitted);
    let outbox = work.join("outbox");
    ok(
        "galloper process",
        &galloper(
            &g.data(),
            &["process", "--outbox", outbox.to_str().unwrap()],
        ),
    );
    let state = g.state();
    let at = (case.position)(&state, &moved.unit).expect("the moved unit in the state");
    if (at.0 - moved.x).hypot(at.1 - moved.y) > case.tolerance {
        // What the step said of it, for the failure to explain itself.
        for e in walkdir(&outbox) {
            if e.ends_with("report.txt") {
                let text = std::fs::read_to_string(&e).unwrap_or_default();
                for l in text.lines().filter(|l| l.contains(moved.unit.as_str())) {
                    eprintln!("{}: {l}", e.display());
                }
            }
        }
    }
    (moved, at)
}

fn walkdir(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walkdir(&p));
        } else {
            out.push(p);
        }
    }
    out
}

fn play(case: Case) {
    for passphrase in [false, true] {
        let mut tries = 0;
        let (m, at) = loop {
            tries += 1;
            let (m, at) = walk(&case, passphrase, tries);
            let there = (at.0 - m.x).hypot(at.1 - m.y) <= case.tolerance;
            if there || !case.stoppable || tries >= 10 {
                break (m, at);
            }
            eprintln!(
                "{}: try {tries}: {} ends at ({:.2}, {:.2}), dropped at ({}, {}); again",
                case.ruleset, m.unit, at.0, at.1, m.x, m.y
            );
        };
        assert!(
            (at.0 - m.x).hypot(at.1 - m.y) <= case.tolerance,
            "{}: {} ends at ({:.2}, {:.2}), dropped at ({}, {})",
            case.ruleset,
            m.unit,
            at.0,
            at.1,
            m.x,
            m.y
        );
        let turn = ((at.2 - m.facing) % 360.0 + 540.0) % 360.0 - 180.0;
        assert!(
            turn.abs() <= 1.0,
            "{}: {} faces {:.1}, turned to {}",
            case.ruleset,
            m.unit,
            at.2,
            m.facing
        );
    }
}

#[test]
fn napoleonic_corps_orders_drawn_on_the_page_are_signed_accepted_and_obeyed() {
    play(cases::napoleonic_corps());
}

#[test]
fn morschauser_macduff_orders_drawn_on_the_page_are_signed_accepted_and_obeyed() {
    play(cases::morschauser_macduff());
}

#[test]
fn crowther_dougan_orders_drawn_on_the_page_are_signed_accepted_and_obeyed() {
    play(cases::crowther_dougan());
}

/// The British page of the ambush at Beaver Creek, before anyone has
/// observed: nothing of the hidden French (ids, names, their leaders) is
/// in it, neither in the map, the plan, the template nor the scripts.
#[test]
fn the_page_of_the_hidden_troops_game_holds_nothing_of_the_hidden_enemy() {
    let g = Game::demo("crowther-dougan", 1);
    assert_eq!(
        g.side, "british",
        "the British move first after the deployment"
    );
    let html = std::fs::read_to_string(g.page()).unwrap();
    for secret in [
        "fr-marine",
        "fr-canad",
        "fr-ottawa",
        "Compagnies franches",
        "Canadian militia",
        "Ottawa warriors",
        "fr-beaujeu",
        "Beaujeu",
        "fr-langlade",
        "Langlade",
    ] {
        assert!(!html.contains(secret), "the British page names {secret}");
    }
    // What the British may see is there: La Sarre stands in the open.
    let data = page_data(&html);
    assert!(
        data["plan"]["units"]
            .as_array()
            .unwrap()
            .iter()
            .all(|u| u["id"].as_str().unwrap().starts_with("br-"))
    );
    assert!(
        html.contains("SHA256:"),
        "the side's fingerprint is in the page"
    );
}

#[test]
fn maurice_lite_orders_drawn_on_the_page_are_signed_accepted_and_obeyed() {
    play(cases::maurice_lite());
}

#[test]
fn activation_dice_orders_drawn_on_the_page_are_signed_accepted_and_obeyed() {
    play(cases::activation_dice());
}

/// The page of 30 units a side, on each ruleset's fighting step, weighs
/// under 1.5 MB and opens in Chromium (the time is printed and kept by
/// `galloper bench`, not asserted here).
#[test]
fn the_page_of_30_units_a_side_weighs_under_1_5_mb_and_opens_in_chromium() {
    use galloper::bench::orders_page::{GOAL_BYTES, Setup, of_state, ready};
    use galloper::bench::scaling::*;
    let fights: [(&str, Setup); 5] = [
        ("maurice-lite", maurice_fight_setup),
        ("morschauser-macduff", morschauser_setup),
        ("napoleonic-corps", napoleonic_setup),
        ("activation-dice", activation_setup),
        ("crowther-dougan", crowther_setup),
    ];
    node_ready();
    for (name, setup) in fights {
        let rules = galloper::rulesets::by_name(name).unwrap();
        let html = of_state(rules, &setup(30).unwrap().state, "thirty").unwrap();
        let units = page_data(&html)["plan"]["units"]
            .as_array()
            .map_or(0, Vec::len);
        assert!(units >= 20, "{name}: the page offers {units} units");
        assert!(
            html.len() < GOAL_BYTES,
            "{name}: the page is {} bytes",
            html.len()
        );
        let s = ready(&html, 2)
            .unwrap()
            .expect("chromium and playwright-core");
        eprintln!(
            "{name}: {} KB, {units} units, ready in {:.0} ms",
            html.len() / 1000,
            s.median() * 1000.0
        );
    }
}
