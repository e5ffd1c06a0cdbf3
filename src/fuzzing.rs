//! Entry points for the fuzz targets in `fuzz/` and for the stable test
//! that replays their saved corpus (`tests/fuzz_corpus.rs`): one function per
//! target, so that both run exactly the same code.
//!
//! Each function takes arbitrary bytes and must return without panicking,
//! looping or blowing up memory, whatever the bytes; a panic here is a bug in
//! the code it calls. Nothing here is used by the daemon.

use crate::daemon::config::Config;
use crate::daemon::intake::{self, Handled};
use crate::dice::Dice;
use crate::ruleset::AnyRuleset;
use crate::server::{PlayerSpec, Server};
use crate::side::BySide;
use crate::view::Viewer;
use crate::{envelope, rulesets, sig};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The shipped scenario each orders target starts from.
pub const SCENARIOS: [(&str, &str); 2] = [
    ("maurice-lite", crate::demo::SCENARIO),
    (
        "morschauser-macduff",
        crate::rulesets::morschauser_macduff::demo::SCENARIO,
    ),
];

/// The game ids the mail desk holds, one per entry of [`SCENARIOS`].
pub const GAMES: [&str; 2] = ["g1", "g2"];

/// The address of the club the mail desk plays.
pub const CLUB: &str = "club@pbem.test";

/// The clock the mail desk runs at (unix seconds and its RFC 2822 form).
const NOW: i64 = 1_800_000_000;
const DATE: &str = "Fri, 15 Jan 2027 08:00:00 +0000";

/// The key of `side` in the fuzzing games. Its secret is a hash of the side's
/// name: public by design, so that seed mails can carry valid signatures.
pub fn fuzz_key(side: &str) -> Result<sig::KeyPair, sig::SigError> {
    let seed: [u8; 32] = Sha256::digest(format!("galloper fuzzing key {side}")).into();
    sig::keygen_from_seed(&seed, side)
}

/// The address of `side`'s player in the fuzzing games.
pub fn player_email(side: &str) -> String {
    format!("{side}@players.test")
}

/// A daemon's data folder with one open game per shipped scenario, each side
/// played with [`fuzz_key`], to hand raw messages to.
pub struct MailDesk {
    root: PathBuf,
    server: Server,
    cfg: Config,
}

impl MailDesk {
    /// Set up the desk in `root` (created; removed again on drop).
    pub fn new(root: &Path) -> anyhow::Result<MailDesk> {
        std::fs::create_dir_all(root)?;
        let cfg_path = root.join("galloper.yaml");
        std::fs::write(
            &cfg_path,
            format!(
                "data: {}\nclub_address: {CLUB}\n",
                root.join("data").display()
            ),
        )?;
        let cfg = Config::load(&cfg_path)?;
        let mut server = crate::daemon::serve::open(&cfg)?;
        for ((ruleset, scenario), game) in SCENARIOS.iter().zip(GAMES) {
            let rules = rulesets::by_name(ruleset)
                .ok_or_else(|| anyhow::anyhow!("no ruleset {ruleset}"))?;
            let players = rules
                .sides(scenario)?
                .into_iter()
                .map(|side| {
                    Ok(PlayerSpec {
                        email: player_email(side.as_str()),
                        public_key: fuzz_key(side.as_str())?.public_line,
                        side,
                    })
                })
                .collect::<anyhow::Result<Vec<_>>>()?;
            server.new_game(game, scenario, &players)?;
        }
        Ok(MailDesk {
            root: root.to_path_buf(),
            server,
            cfg,
        })
    }

    /// The server, to make orders templates for seed mails.
    pub fn server(&self) -> &Server {
        &self.server
    }

    /// What the daemon does with `raw`, up to and including recording it.
    pub fn handle(&mut self, raw: &[u8]) -> anyhow::Result<Handled> {
        intake::handle(&mut self.server, &self.cfg, raw, NOW, DATE)
    }
}

impl Drop for MailDesk {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// Target `mail`: a raw message through the daemon's intake. Every message,
/// however malformed, must get an outcome: an error here would stop the
/// daemon's batch and leave the message to fail again on every poll.
pub fn mail(desk: &mut MailDesk, raw: &[u8]) {
    if let Err(e) = desk.handle(raw) {
        panic!("the intake failed on a message instead of refusing it: {e:#}");
    }
}

/// Target `envelope`: an orders file through the envelope parser, and a
/// violation located in it as the reply would.
pub fn envelope(bytes: &[u8]) {
    if let Ok(env) = envelope::parse("orders.yaml", bytes) {
        let text = String::from_utf8_lossy(bytes);
        let v = crate::ruleset::Violation::new(&["round", "units"], None, "fuzz", "fuzzed");
        let _ = envelope::locate("orders.yaml", &text, &v);
        let _ = env.side.as_str();
    }
    let _ = crate::server::command::parse("command.yaml", bytes);
}

/// States an orders target checks against: the scenario's start and, when
/// the ruleset has default orders, the state after one step resolved with
/// them (so that orders of the first real round are checked too).
pub fn states(ruleset: &str) -> &'static [String] {
    static CACHE: OnceLock<Vec<(String, Vec<String>)>> = OnceLock::new();
    let all = CACHE.get_or_init(|| {
        SCENARIOS
            .iter()
            .map(|(name, scenario)| (name.to_string(), start_states(name, scenario)))
            .collect()
    });
    all.iter()
        .find(|(n, _)| n == ruleset)
        .map(|(_, s)| s.as_slice())
        .unwrap_or_default()
}

fn start_states(ruleset: &str, scenario: &str) -> Vec<String> {
    let Some(rules) = rulesets::by_name(ruleset) else {
        return Vec::new();
    };
    let Ok(start) = rules.start(scenario) else {
        return Vec::new();
    };
    let mut out = vec![start.clone()];
    let mut state = start;
    for step in 0..3u8 {
        let Ok(due) = rules.due(&state) else { break };
        let mut orders = BySide::new();
        for o in due.owed.iter() {
            if let Ok(Some(v)) = rules.default_orders(&state, &o.side) {
                orders.insert(o.side.clone(), v);
            }
        }
        let mut dice = Dice::from_seeds([step; 32], [step ^ 0xff; 32]);
        match rules.resolve(&state, &orders, &mut dice) {
            Ok(r) if r.outcome.is_none() => {
                state = r.state;
                out.push(state.clone());
            }
            _ => break,
        }
    }
    out
}

/// Target `orders_RULESET`: YAML text as the `orders:` block of every side
/// owing orders, checked against each state of [`states`].
pub fn orders(ruleset: &str, bytes: &[u8]) {
    let Some(rules) = rulesets::by_name(ruleset) else {
        return;
    };
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    let Ok(value) = crate::yaml::from_str::<serde_yaml::Value>(text) else {
        return;
    };
    for state in states(ruleset) {
        let Ok(due) = rules.due(state) else { continue };
        for o in due.owed.iter().chain(&due.optional) {
            let _ = rules.check(state, &o.side, &value);
        }
    }
}

/// Target `sshsig`: `PUBLIC-KEY-LINE 0x00 MESSAGE 0x00 SIGNATURE`; without a
/// zero byte the whole input is a signature over a fixed message, checked
/// against the key of side `french`.
pub fn sshsig(bytes: &[u8]) {
    let mut parts = bytes.splitn(3, |&b| b == 0);
    let (public, message, signature) = match (parts.next(), parts.next(), parts.next()) {
        (Some(p), Some(m), Some(s)) => (String::from_utf8_lossy(p).into_owned(), m, s),
        _ => {
            let Ok(key) = fuzz_key("french") else { return };
            (key.public_line, b"galloper: 1\n".as_slice(), bytes)
        }
    };
    let _ = sig::verify_bytes(&public, sig::ORDERS_NAMESPACE, message, signature);
    if let Ok(text) = std::str::from_utf8(signature) {
        let _ = sig::verify(&public, sig::COMMAND_NAMESPACE, message, text);
    }
    let _ = sig::fingerprint(&public);
}

/// Target `scenario`: a scenario file loaded by every ruleset, and when one
/// starts it, what the server asks of the state next (what is due, each
/// side's view and orders template, whether it is over).
pub fn scenario(bytes: &[u8]) {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    for rules in rulesets::registry() {
        scenario_with(rules, text);
    }
}

fn scenario_with(rules: &dyn AnyRuleset, text: &str) {
    let Ok(sides) = rules.sides(text) else { return };
    let Ok(state) = rules.start(text) else { return };
    let _ = rules.due(&state);
    let _ = rules.outcome(&state);
    let _ = rules.view(&state, &Viewer::Umpire);
    for side in sides.iter().take(8) {
        let _ = rules.orders_template(&state, side);
        let _ = rules.view(&state, &Viewer::Side(side.clone()));
    }
}
