//! Mistakes forgiven (issue 13, part 3): what a new player or a club
//! secretary gets wrong, and what Galloper answers. Each test names the
//! point of the issue it holds to.

#[path = "support/base64.rs"]
mod base64;

use base64::b64;
use galloper::archive::sha256_hex;
use galloper::daemon::config::Config;
use galloper::daemon::serve;
use galloper::mail::maildir::Maildir;
use galloper::server::store::OutboxRow;
use galloper::server::{PlayerSpec, Server};
use galloper::side::SideId;
use galloper::sig::{self, KeyPair};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::AtomicBool;

const SIDES: [&str; 2] = ["french", "austrians"];

fn galloper(data: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_galloper"))
        .arg("--data")
        .arg(data)
        .args(args)
        .env_remove("RUST_LOG")
        .output()
        .expect("galloper runs")
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn ok(o: &Output) -> String {
    assert!(o.status.success(), "failed: {}\n{}", out(o), err(o));
    out(o)
}

/// A data folder with game g1 of the demo scenario, players registered as
/// `emails`, and their keys.
struct Game {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
    data: PathBuf,
    keys: BTreeMap<String, KeyPair>,
}

fn game_with(emails: [&str; 2]) -> Game {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let data = dir.join("data");
    let mut server = Server::open(&data).unwrap();
    let keys: BTreeMap<String, KeyPair> = SIDES
        .iter()
        .map(|s| (s.to_string(), sig::keygen(s).unwrap()))
        .collect();
    let players: Vec<PlayerSpec> = SIDES
        .iter()
        .zip(emails)
        .map(|(s, e)| PlayerSpec {
            side: SideId::new(*s),
            email: e.into(),
            public_key: keys[*s].public_line.clone(),
        })
        .collect();
    server
        .new_game("g1", galloper::demo::SCENARIO, &players)
        .unwrap();
    Game {
        _tmp: tmp,
        dir,
        data,
        keys,
    }
}

fn game() -> Game {
    game_with(["french@players.test", "austrians@players.test"])
}

impl Game {
    fn server(&self) -> Server {
        Server::open_existing(&self.data).unwrap()
    }
    fn template(&self, side: &str) -> String {
        galloper::cli::template(&self.server(), "g1", &SideId::new(side)).unwrap()
    }
    fn signed(&self, side: &str, text: &str) -> String {
        sig::sign(
            &self.keys[side].private_openssh,
            sig::ORDERS_NAMESPACE,
            text.as_bytes(),
        )
        .unwrap()
    }
    /// A side's template with entropy, written to DIR/NAME (and NAME.sig when signed).
    fn file(&self, name: &str, text: &str, signed_as: Option<&str>) -> PathBuf {
        let f = self.dir.join(name);
        std::fs::write(&f, text).unwrap();
        if let Some(side) = signed_as {
            std::fs::write(
                self.dir.join(format!("{name}.sig")),
                self.signed(side, text),
            )
            .unwrap();
        }
        f
    }
}

fn with_entropy(t: &str) -> String {
    galloper::envelope::with_entropy(t, &sha256_hex(b"ab"))
}

/// Part 3, `galloper orders check FILE`: the server's checks, nothing stored.
#[test]
fn orders_check_says_what_the_server_would_and_stores_nothing() {
    let g = game();
    let t = with_entropy(&g.template("french"));
    // Unsigned: in order, but it says to sign.
    let f = g.file("fr.yaml", &t, None);
    let o = galloper(&g.data, &["orders", "check", &f.to_string_lossy()]);
    assert!(out(&o).contains("not signed"), "{}", out(&o));
    assert!(o.status.success());
    // Signed: would be accepted; nothing stored.
    g.file("fr.yaml", &t, Some("french"));
    let text = ok(&galloper(
        &g.data,
        &["orders", "check", &f.to_string_lossy()],
    ));
    assert!(text.contains("would be accepted"), "{text}");
    assert!(
        g.server()
            .store()
            .latest_orders("g1", 1)
            .unwrap()
            .is_empty(),
        "nothing stored"
    );
    // Signed with the other side's key: the signature error a mail gets.
    std::fs::write(g.dir.join("fr.yaml.sig"), g.signed("austrians", &t)).unwrap();
    let o = galloper(&g.data, &["orders", "check", &f.to_string_lossy()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err(&o).contains("would be refused: signature refused"),
        "{}",
        err(&o)
    );
    // A rule broken: the file, line, unit and rule, as in a reply.
    let typo = t.replacen("unit: fr-i1", "unit: fr-il", 1);
    assert_ne!(typo, t, "the template names fr-i1");
    let f = g.file("typo.yaml", &typo, Some("french"));
    let o = galloper(&g.data, &["orders", "check", &f.to_string_lossy()]);
    let e = err(&o);
    let line = typo
        .lines()
        .position(|l| l.contains("unit: fr-il"))
        .unwrap()
        + 1;
    assert!(
        e.contains(&format!(
            "typo.yaml:{line}: unit fr-il: fr-il is not a unit of this side; did you mean fr-i1?"
        )),
        "{e}"
    );
}

/// Part 3: errors inside `orders:` name the line of the field.
#[test]
fn an_orders_block_that_does_not_parse_names_the_line_of_the_field() {
    let g = game();
    let t = with_entropy(&g.template("french"));
    let orders_line = t.lines().position(|l| l == "orders:").unwrap() + 1;
    // The first unit's formation given a value no formation has.
    let bad = t.replacen("formation: line", "formation: wedge", 1);
    assert_ne!(bad, t, "{t}");
    let field_line = bad
        .lines()
        .position(|l| l.contains("formation: wedge"))
        .unwrap()
        + 1;
    let e = g
        .server()
        .check_orders("fr.yaml", bad.as_bytes(), None)
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with(&format!("fr.yaml:{field_line}:")) && field_line != orders_line,
        "{e}"
    );
    assert!(e.contains("wedge"), "{e}");
}

/// Part 3: a tab, a BOM and CRLF line endings each get a sentence.
#[test]
fn tabs_boms_and_crlf_are_explained() {
    let g = game();
    let t = with_entropy(&g.template("french"));
    let server = g.server();
    // A tab in the indentation.
    let tabbed = t.replacen("\n  deploy:", "\n\tdeploy:", 1);
    assert_ne!(tabbed, t);
    let e = server
        .check_orders("fr.yaml", tabbed.as_bytes(), None)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("indented with a tab") && e.contains("spaces only"),
        "{e}"
    );
    // A byte-order mark with a mistake after it.
    let bom = format!("\u{FEFF}{}", t.replacen("step: 1", "step: [1", 1));
    let e = server
        .check_orders("fr.yaml", bom.as_bytes(), None)
        .unwrap_err()
        .to_string();
    assert!(e.contains("byte-order mark"), "{e}");
    // Signed, then its line endings changed in a mail program.
    let sig = g.signed("french", &t);
    let crlf = t.replace('\n', "\r\n");
    let e = server
        .check_orders("fr.yaml", crlf.as_bytes(), Some(&sig))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("line endings changed in transit") && e.contains("Attach the file"),
        "{e}"
    );
    // The same file unchanged passes: the sentence is for the CRLF alone.
    server
        .check_orders("fr.yaml", t.as_bytes(), Some(&sig))
        .unwrap();
}

/// Part 3: the entropy placeholder says how to fill it in without
/// `galloper sign`, and the refusal says it again.
#[test]
fn the_entropy_placeholder_says_how_to_fill_it_with_ssh_keygen_alone() {
    let g = game();
    let t = g.template("french");
    let line = t.lines().find(|l| l.starts_with("entropy:")).unwrap();
    assert!(line.contains("openssl rand -hex 32"), "{line}");
    let e = g
        .server()
        .check_orders("fr.yaml", t.as_bytes(), Some(&g.signed("french", &t)))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("placeholder") && e.contains("openssl rand -hex 32"),
        "{e}"
    );
}

/// Part 3: a JSON Schema of the whole file, named by each template's
/// modeline; the templates of both rulesets' demos validate against it.
#[test]
fn templates_carry_a_modeline_and_validate_against_the_file_schema() {
    let g = game();
    let schema_text = ok(&galloper(
        &g.data,
        &["schema", "orders", "--ruleset", "maurice-lite"],
    ));
    let schema: serde_json::Value = serde_json::from_str(&schema_text).unwrap();
    let t = g.template("french");
    assert!(
        t.starts_with("# yaml-language-server: $schema=galloper-maurice-lite.schema.json\n"),
        "{t}"
    );
    let validator = jsonschema::validator_for(&schema).expect("a valid schema");
    for text in [t.clone(), with_entropy(&t)] {
        let value: serde_json::Value = galloper::yaml::from_str(&text).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&value)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{errors:?}\n{text}");
    }
    // The schema refuses what the server refuses: a key the envelope lacks.
    let mut wrong: serde_json::Value = galloper::yaml::from_str(&t).unwrap();
    wrong["colour"] = "blue".into();
    assert!(!validator.is_valid(&wrong));
    // Every step of the demos of both rulesets: each template validates.
    for ruleset in galloper::rulesets::names() {
        let rules = galloper::rulesets::by_name(ruleset).unwrap();
        let schema = galloper::envelope::file_schema(ruleset, rules.orders_schema());
        let validator = jsonschema::validator_for(&schema).expect("a valid schema");
        let tmp = tempfile::tempdir().unwrap();
        let demo = tmp.path().join("demo");
        galloper::demo::run(&galloper::demo::DemoArgs {
            out: demo.clone(),
            max_steps: 400,
            battle: false,
            ruleset: ruleset.into(),
        })
        .unwrap();
        let mut seen = 0;
        for t in files_named(&demo.join("reports"), "orders-template.yaml") {
            let text = std::fs::read_to_string(&t).unwrap();
            let value: serde_json::Value = galloper::yaml::from_str(&text).unwrap();
            let errors: Vec<String> = validator
                .iter_errors(&value)
                .map(|e| e.to_string())
                .collect();
            assert!(errors.is_empty(), "{}: {errors:?}", t.display());
            seen += 1;
        }
        assert!(seen > 2, "{ruleset}: {seen} templates");
    }
}

fn files_named(root: &Path, name: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut todo = vec![root.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else if p.file_name().is_some_and(|n| n == name) {
                found.push(p);
            }
        }
    }
    found
}

/// Part 3: keygen never overwrites a key.
#[test]
fn keygen_never_overwrites_a_key() {
    let tmp = tempfile::tempdir().unwrap();
    let key = tmp.path().join("alice.key");
    let k = key.to_string_lossy().into_owned();
    ok(&galloper(tmp.path(), &["keygen", &k]));
    let before = std::fs::read(&key).unwrap();
    let o = galloper(tmp.path(), &["keygen", &k]);
    assert!(!o.status.success());
    assert!(
        err(&o).contains("never overwrites") && err(&o).contains("alice.key"),
        "{}",
        err(&o)
    );
    assert_eq!(std::fs::read(&key).unwrap(), before, "the key is unchanged");
    // A lone .pub counts too.
    std::fs::remove_file(&key).unwrap();
    assert!(!galloper(tmp.path(), &["keygen", &k]).status.success());
}

/// Part 3: the demo does not silently delete an earlier demo's folder.
#[test]
fn the_demo_moves_an_earlier_demo_aside_and_refuses_other_folders() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("demo");
    // An earlier demo (its server folder, and a file of the player's).
    std::fs::create_dir_all(out.join("server")).unwrap();
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    let o = ok(&galloper(
        tmp.path(),
        &["demo", "--out", &out.to_string_lossy()],
    ));
    let aside = tmp.path().join("demo.1");
    assert!(o.contains("moved to"), "{o}");
    assert_eq!(
        std::fs::read_to_string(aside.join("notes.txt")).unwrap(),
        "mine"
    );
    assert!(out.join("audit.txt").exists());
    // A folder that is no demo is refused, untouched.
    let other = tmp.path().join("thesis");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("chapter1.txt"), "words").unwrap();
    let o = galloper(tmp.path(), &["demo", "--out", &other.to_string_lossy()]);
    assert!(!o.status.success());
    assert!(
        err(&o).contains("does not hold an earlier demo"),
        "{}",
        err(&o)
    );
    assert!(other.join("chapter1.txt").exists());
}

/// Part 3: a command that cannot find a game names the data folder; render
/// refuses a reader that is no side; status shows pause and winner.
#[test]
fn unknown_games_name_the_folder_and_render_knows_its_readers() {
    let g = game();
    let data = g.data.to_string_lossy().into_owned();
    for args in [
        vec!["status", "g2"],
        vec!["orders", "template", "g2", "french"],
        vec!["render", "g2", "--out", "x"],
    ] {
        let o = galloper(&g.data, &args);
        assert!(!o.status.success(), "{args:?}");
        assert!(
            err(&o).contains("no game called \"g2\"") && err(&o).contains(&data),
            "{args:?}: {}",
            err(&o)
        );
    }
    // Resolve step 1, then ask for a reader that is not one.
    let mut server = g.server();
    for side in SIDES {
        let t = with_entropy(&g.template(side));
        server
            .submit(&format!("{side}.yaml"), t.as_bytes(), &g.signed(side, &t))
            .unwrap();
    }
    server.process(&g.dir.join("out")).unwrap();
    let o = galloper(
        &g.data,
        &["render", "g1", "--reader", "prussians", "--out", "x"],
    );
    assert!(!o.status.success());
    assert!(
        err(&o).contains("austrians, french, public, umpire"),
        "{}",
        err(&o)
    );
    ok(&galloper(
        &g.data,
        &[
            "render",
            "g1",
            "--reader",
            "french",
            "--out",
            &g.dir.join("fr").to_string_lossy(),
        ],
    ));
}

/// Part 3: `galloper gm FILE` applies a command file locally, once; status
/// shows the pause and, once over, the ending; `preview: {}` is read as
/// `preview`.
#[test]
fn game_master_commands_from_the_command_line() {
    let g = game();
    let cmd = |name: &str, command: &str, n: u32| {
        let f = g.dir.join(name);
        std::fs::write(
            &f,
            format!(
                "galloper: 1\ngame: g1\nissued: 2026-11-22T10:00:{n:02}Z\nby: gm\ncommand:\n  {command}\n"
            ),
        )
        .unwrap();
        f.to_string_lossy().into_owned()
    };
    let pause = cmd("pause.yaml", "pause: {reason: holidays}", 1);
    let o = ok(&galloper(&g.data, &["gm", &pause]));
    assert!(o.contains("command pause applied to game g1"), "{o}");
    let status = ok(&galloper(&g.data, &["status", "g1"]));
    assert!(status.contains("paused by the game master"), "{status}");
    // The same file again is a replay.
    let o = galloper(&g.data, &["gm", &pause]);
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("refused"), "{}", err(&o));
    // A preview with `{}`, written to a folder.
    let preview = cmd("preview.yaml", "preview: {}", 2);
    let dir = g.dir.join("preview");
    let o = ok(&galloper(
        &g.data,
        &["gm", &preview, "--out", &dir.to_string_lossy()],
    ));
    assert!(o.contains("Preview of game g1 step 1"), "{o}");
    let resume = cmd("resume.yaml", "resume", 3);
    ok(&galloper(&g.data, &["gm", &resume]));
    let end = cmd("end.yaml", "end: {reason: rain}", 4);
    ok(&galloper(&g.data, &["gm", &end]));
    let status = ok(&galloper(&g.data, &["status", "g1"]));
    assert!(
        status.contains("g1 (maurice-lite): over, ended by the game master"),
        "{status}"
    );
}

/// Part 3: status shows the deadline of a game with a schedule.
#[test]
fn status_shows_the_deadline() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let data = d.join("data");
    let key = |n: &str| d.join(n).to_string_lossy().into_owned();
    ok(&galloper(&data, &["keygen", &key("f")]));
    ok(&galloper(&data, &["keygen", &key("a")]));
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let o = ok(&galloper(
        &data,
        &[
            "new",
            &root
                .join("games/maurice-lite/hollowbrook.yaml")
                .to_string_lossy(),
            "--game",
            "g1",
            "--player",
            &format!("french:f@x.example:{}.pub", key("f")),
            "--player",
            &format!("austrians:a@x.example:{}.pub", key("a")),
            "--schedule",
            &root.join("deploy/schedule.yaml").to_string_lossy(),
        ],
    ));
    assert!(o.contains("g1 (maurice-lite): step 1"), "{o}");
    // The deadline is set when the daemon first sees the step, or by the
    // game master.
    let extend = d.join("extend.yaml");
    std::fs::write(
        &extend,
        "galloper: 1\ngame: g1\nissued: 2026-11-22T10:00:00Z\nby: gm\ncommand:\n  extend: {until: +48h}\n",
    )
    .unwrap();
    ok(&galloper(&data, &["gm", &extend.to_string_lossy()]));
    let status = ok(&galloper(&data, &["status", "g1"]));
    assert!(status.contains("Deadline for step 1"), "{status}");
}

/// Part 3: `serve` refuses a configuration with no mailbox, and logs a
/// line per message without RUST_LOG.
#[test]
fn serve_needs_a_mailbox_and_logs_each_message_by_default() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let cfg = d.join("galloper.yaml");
    std::fs::write(
        &cfg,
        format!(
            "data: {}\nclub_address: club@pbem.test\n",
            d.join("data").display()
        ),
    )
    .unwrap();
    let o = galloper(d, &["serve", "--config", &cfg.to_string_lossy()]);
    assert!(!o.status.success());
    assert!(
        err(&o).contains("names no mailbox") && err(&o).contains("maildir:"),
        "{}",
        err(&o)
    );
    // With a Maildir: a message in it is logged at the default level.
    std::fs::write(
        &cfg,
        format!(
            "data: {}\nclub_address: club@pbem.test\nmaildir: {}\npoll_seconds: 1\n",
            d.join("data").display(),
            d.join("Maildir").display()
        ),
    )
    .unwrap();
    Maildir::open(&d.join("Maildir"))
        .unwrap()
        .deliver(b"From: <x@players.test>\r\nTo: club@pbem.test\r\nSubject: hello\r\nMessage-ID: <m1@players.test>\r\n\r\nhi\r\n")
        .unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_galloper"))
        .args(["serve", "--config", &cfg.to_string_lossy()])
        .env_remove("RUST_LOG")
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id();
    let processed = d.join("Maildir/cur");
    let start = std::time::Instant::now();
    while std::fs::read_dir(&processed).map_or(0, |r| r.count()) == 0
        && start.elapsed() < std::time::Duration::from_secs(30)
    {
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .unwrap();
    let o = child.wait_with_output().unwrap();
    let log = err(&o);
    assert!(
        log.contains("INFO") && log.contains("message") && log.contains("outcome"),
        "{log}"
    );
    // Issue 31, item 12: a log that is not a terminal (a journal, a cron
    // mail) carries no colour codes.
    assert!(
        !log.contains('\u{1b}'),
        "colour codes in a piped log: {log:?}"
    );
}

/// A club with a Maildir for the mail tests below.
fn club(g: &Game) -> (Config, Server, Maildir) {
    std::fs::write(
        g.dir.join("galloper.yaml"),
        format!(
            "data: {}\nreports: {}\nclub_address: club@pbem.test\nmaildir: {}\n",
            g.data.display(),
            g.dir.join("reports").display(),
            g.dir.join("Maildir").display(),
        ),
    )
    .unwrap();
    let cfg = Config::load(&g.dir.join("galloper.yaml")).unwrap();
    let server = serve::open(&cfg).unwrap();
    let md = Maildir::open(&g.dir.join("Maildir")).unwrap();
    (cfg, server, md)
}

fn body(m: &OutboxRow) -> String {
    mail_parser::MessageParser::default()
        .parse(&m.bytes)
        .and_then(|p| p.body_text(0).map(|t| t.into_owned()))
        .unwrap_or_default()
}

fn mails_to(server: &Server, to: &str) -> Vec<OutboxRow> {
    server
        .store()
        .mails()
        .unwrap()
        .into_iter()
        .filter(|m| m.recipients.iter().any(|r| r.eq_ignore_ascii_case(to)))
        .collect()
}

/// Part 3: addresses compare without regard to case: a player registered
/// as `Alice+up1@` who writes from `alice+up1@` gets his report again.
#[test]
fn a_player_gets_his_report_whatever_the_case_of_his_address() {
    let g = game_with(["Alice+up1@Players.test", "bob@players.test"]);
    let (cfg, mut server, md) = club(&g);
    for side in SIDES {
        let t = with_entropy(&g.template(side));
        server
            .submit(&format!("{side}.yaml"), t.as_bytes(), &g.signed(side, &t))
            .unwrap();
    }
    serve::batch(&mut server, &cfg, &AtomicBool::new(false)).unwrap();
    md.deliver(b"From: <alice+up1@players.test>\r\nTo: club+g1@pbem.test\r\nSubject: report\r\nMessage-ID: <ask-1@players.test>\r\n\r\nplease\r\n")
        .unwrap();
    serve::batch(&mut server, &cfg, &AtomicBool::new(false)).unwrap();
    let mails = mails_to(&server, "alice+up1@players.test");
    let reply = mails.iter().find(|m| m.kind == "reply").expect("a reply");
    assert!(
        body(reply).contains("is sent again in a separate mail"),
        "{}",
        body(reply)
    );
    assert!(mails.iter().any(|m| m.kind == "report-again"));
}

/// Part 3: orders for a game the server does not hold are answered "no
/// such game".
#[test]
fn orders_for_an_unknown_game_are_answered_no_such_game() {
    let g = game();
    let (cfg, mut server, md) = club(&g);
    let t = with_entropy(&g.template("french")).replacen("game: g1", "game: g9", 1);
    let s = g.signed("french", &t);
    md.deliver(
        format!(
            "From: <french@players.test>\r\nTo: club@pbem.test\r\nSubject: orders\r\nMessage-ID: <o1@players.test>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"XX\"\r\n\r\n--XX\r\nContent-Type: text/plain\r\n\r\nHere.\r\n--XX\r\nContent-Type: application/yaml; name=\"o.yaml\"\r\nContent-Disposition: attachment; filename=\"o.yaml\"\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n--XX\r\nContent-Type: application/octet-stream; name=\"o.yaml.sig\"\r\nContent-Disposition: attachment; filename=\"o.yaml.sig\"\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n--XX--\r\n",
            b64(t.as_bytes()),
            b64(s.as_bytes())
        )
        .as_bytes(),
    )
    .unwrap();
    serve::batch(&mut server, &cfg, &AtomicBool::new(false)).unwrap();
    let reply = mails_to(&server, "french@players.test")
        .into_iter()
        .find(|m| m.kind == "reply")
        .expect("a reply");
    let text = body(&reply);
    assert!(
        text.contains("No such game") && text.contains("no such game"),
        "{text}"
    );
}

/// The orders mail of `side` carrying `text`, signed, as an attachment.
fn orders_mail(g: &Game, side: &str, n: u32, text: &str) -> Vec<u8> {
    format!(
        "From: <{side}@players.test>\r\nTo: club+g1@pbem.test\r\nSubject: orders\r\nMessage-ID: <o{n}@players.test>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"XX\"\r\n\r\n--XX\r\nContent-Type: text/plain\r\n\r\nHere.\r\n--XX\r\nContent-Type: application/yaml; name=\"o.yaml\"\r\nContent-Disposition: attachment; filename=\"o.yaml\"\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n--XX\r\nContent-Type: application/octet-stream; name=\"o.yaml.sig\"\r\nContent-Disposition: attachment; filename=\"o.yaml.sig\"\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n--XX--\r\n",
        b64(text.as_bytes()),
        b64(g.signed(side, text).as_bytes())
    )
    .into_bytes()
}

/// Whether `said` refuses the entropy at its line of `text` (in `file`)
/// and says how to fill it in.
fn refuses_the_entropy_line(said: &str, file: &str, text: &str) -> bool {
    let line = text
        .lines()
        .position(|l| l.starts_with("entropy:"))
        .unwrap()
        + 1;
    said.contains(&format!("{file}:{line}: the `entropy:` line is not random"))
        && said.contains("galloper sign")
        && said.contains("openssl rand -hex 32")
}

/// Issue 28, item 6: all-zero entropy (or any other guessable value) is
/// refused by `galloper orders check` and by the mail intake, at its line,
/// with what to do, and nothing changes: the side may send the same
/// revision again with fresh entropy.
#[test]
fn weak_entropy_is_refused_at_its_line_and_changes_nothing() {
    let g = game();
    let zeros = galloper::envelope::with_entropy(&g.template("french"), &"0".repeat(64));
    // `galloper orders check`, signed.
    let f = g.file("fr.yaml", &zeros, Some("french"));
    let o = galloper(&g.data, &["orders", "check", &f.to_string_lossy()]);
    assert_eq!(o.status.code(), Some(1), "{}", out(&o));
    assert!(
        refuses_the_entropy_line(&err(&o), "fr.yaml", &zeros),
        "{}",
        err(&o)
    );
    // `galloper sign --keep-entropy` will not sign it; without the flag it
    // draws fresh entropy, which passes.
    let key = g.dir.join("french.key");
    galloper::files::write_key(&key, &g.keys["french"]).unwrap();
    let (file, key) = (f.to_string_lossy(), key.to_string_lossy());
    let o = galloper(&g.data, &["sign", &file, "--key", &key, "--keep-entropy"]);
    assert!(!o.status.success());
    assert!(
        refuses_the_entropy_line(&err(&o), "fr.yaml", &zeros),
        "{}",
        err(&o)
    );
    ok(&galloper(&g.data, &["sign", &file, "--key", &key]));
    let signed = std::fs::read_to_string(&f).unwrap();
    assert_ne!(signed, zeros);
    assert!(ok(&galloper(&g.data, &["orders", "check", &file])).contains("would be accepted"));
    // Mailed: the reply names the line and what to do; nothing is stored.
    let (cfg, mut server, md) = club(&g);
    serve::batch(&mut server, &cfg, &AtomicBool::new(false)).unwrap();
    let before = mails_to(&server, "austrians@players.test").len();
    md.deliver(&orders_mail(&g, "french", 1, &zeros)).unwrap();
    serve::batch(&mut server, &cfg, &AtomicBool::new(false)).unwrap();
    let reply = mails_to(&server, "french@players.test")
        .into_iter()
        .find(|m| m.kind == "reply")
        .expect("a reply");
    assert!(
        refuses_the_entropy_line(&body(&reply), "o.yaml", &zeros),
        "{}",
        body(&reply)
    );
    assert!(server.store().latest_orders("g1", 1).unwrap().is_empty());
    assert_eq!(mails_to(&server, "austrians@players.test").len(), before);
    assert_eq!(server.store().open_step("g1").unwrap().unwrap().step, 1);
    // The same file with strong entropy, revision unchanged, is accepted.
    let strong = with_entropy(&zeros);
    assert_eq!(
        galloper::envelope::field(&strong, "revision"),
        galloper::envelope::field(&zeros, "revision")
    );
    md.deliver(&orders_mail(&g, "french", 2, &strong)).unwrap();
    serve::batch(&mut server, &cfg, &AtomicBool::new(false)).unwrap();
    let stored = server.store().latest_orders("g1", 1).unwrap();
    assert_eq!(
        stored[&SideId::new("french")].sha256,
        sha256_hex(strong.as_bytes())
    );
}

/// Issue 31, item 2: `orders check` on a template not signed yet checks the
/// rules all the same, and says both what the rules say and that the
/// entropy placeholder is still to be filled in; nothing is stored.
#[test]
fn orders_check_checks_the_rules_before_the_entropy_placeholder() {
    let g = game();
    let t = g.template("french");
    let file = g.dir.join("fr.yaml");
    std::fs::write(&file, &t).unwrap();
    let o = galloper(&g.data, &["orders", "check", &file.to_string_lossy()]);
    let said = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "not sendable as it is");
    assert!(
        said.contains("the rules take these orders") && said.contains("placeholder"),
        "{said}"
    );
    // A rules problem is told with the placeholder still there.
    let bad = t.replacen("unit: fr-i1,", "unit: fr-zz,", 1);
    std::fs::write(&file, &bad).unwrap();
    let o = galloper(&g.data, &["orders", "check", &file.to_string_lossy()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("fr-zz is not a unit of this side") && err.contains("placeholder"),
        "{err}"
    );
    assert!(
        g.server()
            .store()
            .latest_orders("g1", 1)
            .unwrap()
            .is_empty(),
        "nothing stored"
    );
}
