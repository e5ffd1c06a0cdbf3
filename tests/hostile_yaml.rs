//! Issue 12, item 11, played: YAML nested to cost the parser minutes,
//! mailed by a stranger as an orders attachment, pasted in a body and as a
//! command file, is refused by the scan before any parser runs, in well
//! under 100 ms of CPU each, and changes nothing.

#[path = "support/base64.rs"]
mod base64;

use base64::b64;
use galloper::archive::sha256_hex;
use galloper::bench::stats::thread_cpu;
use galloper::daemon::config::Config;
use galloper::daemon::{intake, serve};
use galloper::server::{PlayerSpec, Server};
use galloper::side::SideId;
use galloper::sig;
use std::time::{Duration, Instant};

const SIG: &str = "-----BEGIN SSH SIGNATURE-----\nU1NIU0lHAAAAAQAAADMAAAALc3NoLWVkMjU1MTkAAAAgAAAA\n-----END SSH SIGNATURE-----\n";

fn club() -> (tempfile::TempDir, Config, Server) {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    std::fs::write(
        d.join("galloper.yaml"),
        format!(
            "data: {}\nclub_address: club@pbem.test\nmaildir: {}\nmax_message_bytes: 2000000\n",
            d.join("data").display(),
            d.join("Maildir").display()
        ),
    )
    .unwrap();
    let cfg = Config::load(&d.join("galloper.yaml")).unwrap();
    let mut server = serve::open(&cfg).unwrap();
    let players: Vec<PlayerSpec> = ["french", "austrians"]
        .iter()
        .map(|s| PlayerSpec {
            side: SideId::new(*s),
            email: format!("{s}@players.test"),
            public_key: sig::keygen(s).unwrap().public_line,
        })
        .collect();
    server
        .new_game("g1", galloper::demo::SCENARIO, &players)
        .unwrap();
    (tmp, cfg, server)
}

fn message(id: &str, body: &str, files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut m = format!(
        "From: <stranger@hostile.test>\r\nTo: club+g1@pbem.test\r\nSubject: orders\r\nMessage-ID: <{id}>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"XX\"\r\n\r\n--XX\r\nContent-Type: text/plain\r\n\r\n{body}\r\n"
    );
    for (name, bytes) in files {
        m.push_str(&format!(
            "--XX\r\nContent-Type: application/octet-stream; name=\"{name}\"\r\nContent-Disposition: attachment; filename=\"{name}\"\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n",
            b64(bytes)
        ));
    }
    m.push_str("--XX--\r\n");
    m.into_bytes()
}

/// Handle `raw`; its outcome, reply text and the CPU time it took.
fn timed(server: &mut Server, cfg: &Config, raw: &[u8]) -> (String, String, Duration) {
    let wall = Instant::now();
    let before = thread_cpu();
    let h = intake::handle(
        server,
        cfg,
        raw,
        1_795_000_000,
        "Sun, 22 Nov 2026 10:00:00 +0000",
    )
    .unwrap();
    let cpu = match (before, thread_cpu()) {
        (Some(a), Some(b)) => b - a,
        _ => wall.elapsed(),
    };
    (h.outcome, h.detail, cpu)
}

#[test]
fn nesting_bombs_are_refused_in_well_under_100_ms_of_cpu() {
    let (_tmp, cfg, mut server) = club();
    let head = format!(
        "galloper: 1\ngame: g1\nstep: 1\nside: french\nentropy: {}\norders:\n",
        sha256_hex(b"cd")
    );
    let bomb = "[".repeat(100_000);
    let big = format!("{head}{}", "[".repeat(500 * 1024 - head.len()));
    let strings = format!("{head}{}", "[ \"]\", ".repeat(500 * 1024 / 7));
    let command = format!("galloper: 1\ngame: g1\ncommand:\n{}", "{".repeat(60_000));
    // Flat and well formed, 500 KB: no nesting to refuse, but the
    // signature is checked before the file is parsed.
    let mut flat = format!("{head}  units:\n");
    while flat.len() < 500 * 1024 {
        flat.push_str("    - {unit: a1, at: {x: 1.5, y: 2.5}, facing: 90}\n");
    }
    let cases: Vec<(&str, Vec<u8>)> = vec![
        (
            "[ x 100,000 attached",
            message(
                "a@h",
                "Orders.",
                &[("o.yaml", bomb.as_bytes()), ("o.yaml.sig", SIG.as_bytes())],
            ),
        ),
        (
            "500 KB of [ attached",
            message(
                "b@h",
                "Orders.",
                &[("o.yaml", big.as_bytes()), ("o.yaml.sig", SIG.as_bytes())],
            ),
        ),
        (
            "500 KB of closers hidden in strings",
            message(
                "c@h",
                "Orders.",
                &[
                    ("o.yaml", strings.as_bytes()),
                    ("o.yaml.sig", SIG.as_bytes()),
                ],
            ),
        ),
        (
            "pasted in the body",
            message("d@h", &format!("{}\n{SIG}", &big[..200_000]), &[]),
        ),
        (
            "a command file",
            message(
                "e@h",
                "A command.",
                &[
                    ("c.yaml", command.as_bytes()),
                    ("c.yaml.sig", SIG.as_bytes()),
                ],
            ),
        ),
        (
            "a flat 500 KB with a forged signature",
            message(
                "f@h",
                "Orders.",
                &[("o.yaml", flat.as_bytes()), ("o.yaml.sig", SIG.as_bytes())],
            ),
        ),
    ];
    for (name, raw) in cases {
        let (outcome, detail, cpu) = timed(&mut server, &cfg, &raw);
        assert_eq!(outcome, "refused", "{name}: {detail}");
        let why = if name.starts_with("a flat") {
            "signature refused"
        } else {
            "nests lists and maps more than 64 deep"
        };
        assert!(detail.contains(why), "{name}: {detail}");
        assert!(cpu < Duration::from_millis(100), "{name}: {cpu:?} of CPU");
        eprintln!("{name}: {cpu:?} of CPU");
    }
    assert!(server.store().latest_orders("g1", 1).unwrap().is_empty());
}

#[test]
fn orders_a_player_writes_pass_the_scan() {
    // Every template of both demo rulesets, and a round with nested moves.
    for (ruleset, scenario) in galloper::fuzzing::SCENARIOS {
        let rules = galloper::rulesets::by_name(ruleset).unwrap();
        let state = rules.start(scenario).unwrap();
        for side in rules.sides(scenario).unwrap() {
            if let Some(t) = rules.orders_template(&state, &side).unwrap() {
                galloper::yaml_bounds::check(&t, galloper::yaml_bounds::MAX_DEPTH).unwrap();
            }
        }
    }
}
