//! The briefing of every ruleset (issue 27): the scenario and how it is won
//! from the ruleset's view, what the side starts with, the enemy list or why
//! it is empty, and a template that opens as every later template does.

use galloper::server::{PlayerSpec, Server};
use std::path::Path;

fn briefings_of(ruleset: &str, scenario: &str) -> Vec<(String, String, String)> {
    let tmp = tempfile::tempdir().expect("tmp");
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(scenario))
        .expect("scenario");
    let rules = galloper::rulesets::by_name(ruleset).expect("registered");
    let players: Vec<PlayerSpec> = rules
        .sides(&text)
        .expect("sides")
        .into_iter()
        .map(|side| PlayerSpec {
            email: format!("{side}@players.test"),
            public_key: galloper::sig::keygen(side.as_str())
                .expect("key")
                .public_line,
            side,
        })
        .collect();
    let mut server = Server::open(tmp.path()).expect("server");
    server.new_game("g", &text, &players).expect("new game");
    server
        .briefings("g")
        .expect("briefings")
        .into_iter()
        .map(|(p, view)| {
            (
                p.side.to_string(),
                galloper::render::report_text(&view).expect("text"),
                view.orders_template.clone().unwrap_or_default(),
            )
        })
        .collect()
}

fn check(ruleset: &str, scenario: &str) {
    let all = briefings_of(ruleset, scenario);
    assert_eq!(all.len(), 2, "{ruleset}: a briefing for each side");
    for (side, text, template) in &all {
        let at = format!("{ruleset}, {side}");
        assert!(text.contains("Briefing"), "{at}: {text}");
        // The scenario and how it is won.
        assert!(text.contains("Victory"), "{at}: {text}");
        assert!(text.lines().count() > 40, "{at}: {text}");
        // The enemy: listed, or why not.
        assert!(text.contains("The enemy as you see him"), "{at}: {text}");
        // Nothing states a result not rolled yet.
        assert!(!text.contains("0 chips lost"), "{at}: {text}");
        if !template.is_empty() {
            assert!(
                template.starts_with("# yaml-language-server: $schema="),
                "{at}: {template}"
            );
            let entropy = template
                .lines()
                .find(|l| l.starts_with("entropy:"))
                .unwrap_or_default();
            assert!(entropy.contains("openssl rand -hex 32"), "{at}: {entropy}");
        }
    }
    assert!(
        all.iter().any(|(_, _, t)| !t.is_empty()),
        "{ruleset}: someone owes the first orders"
    );
}

#[test]
fn every_rulesets_briefing_opens_its_template_as_later_ones_and_says_where_the_enemy_is() {
    check("maurice-lite", "games/maurice-lite/hollowbrook.yaml");
    check(
        "morschauser-macduff",
        "games/morschauser-macduff/crossroads.yaml",
    );
    check(
        "napoleonic-corps",
        "games/napoleonic-corps/danube-crossroads.yaml",
    );
    check(
        "activation-dice",
        "games/activation-dice/quatre-chemins.yaml",
    );
    check("crowther-dougan", "games/crowther-dougan/beaver-creek.yaml");
}
