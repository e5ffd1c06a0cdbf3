//! Chapter 8 in the round: a charge from orders to fall back, with the cards
//! that bend the combat.

use crate::common::*;
use galloper::rulesets::maurice_lite::units::Formation;

fn facing_lines() -> galloper::rulesets::maurice_lite::state::State {
    let mut s = table();
    place(&mut s, "b-i1", 10.0, 8.0, 0.0, Formation::Line);
    place(&mut s, "r-i1", 10.0, 11.0, 180.0, Formation::Line);
    hand(&mut s, &blue(), &["c39", "c16"]);
    s
}

const CHARGE: &str = "round: {command: {charge: {force: [b-i1], cards: [c39], charges: [{unit: b-i1, target: r-i1}]}}";

#[test]
fn a_charge_from_orders_scores_resolves_and_falls_back() {
    let s = facing_lines();
    let o = format!("{CHARGE}}}");
    assert!(
        check(&s, &blue(), &o).is_empty(),
        "{}",
        rules_of(&check(&s, &blue(), &o))
    );
    // Attacker rolls 6 (12), defender 1 (7): outscored, the defender takes 2 DISR,
    // the attacker 1, and falls back 1 BW.
    let r = resolve(&s, &blue(), &o, vec![6, 1]);
    let c = r.state.detail.combat.as_ref().expect("a combat");
    assert_eq!(c.engagements.len(), 1, "{}", texts(&r));
    assert_eq!(c.scores.len(), 2);
    assert_eq!(r.state.unit("r-i1").unwrap().disruption, 2, "{}", texts(&r));
    assert_eq!(r.state.unit("b-i1").unwrap().disruption, 1);
    let y = r.state.unit("b-i1").unwrap().anchor.unwrap().y;
    assert!(
        (y - 10.0).abs() < 1e-6,
        "fell back from contact at 11 to {y}"
    );
}

#[test]
fn attack_and_defence_cards_change_the_scores() {
    let mut s = facing_lines();
    hand(&mut s, &red(), &["c19"]);
    s.standing.insert(
        red(),
        galloper::yaml::from_str("modifiers: [{card: c19, on: charged, unit: r-i1}]").unwrap(),
    );
    let o = format!("{CHARGE}, modify: [c16]}}");
    assert!(
        check(&s, &blue(), &o).is_empty(),
        "{}",
        rules_of(&check(&s, &blue(), &o))
    );
    let r = resolve(&s, &blue(), &o, vec![3, 3]);
    let c = r.state.detail.combat.as_ref().expect("a combat");
    let score = |u: &str| c.scores.iter().find(|x| x.unit == u).unwrap().score;
    assert_eq!(score("b-i1"), 6 + 1 + 3, "{}", texts(&r));
    assert_eq!(score("r-i1"), 6 + 2 + 3);
    assert!(texts(&r).contains("Sabres Drawn") && texts(&r).contains("Hold the Colours"));
}

#[test]
fn the_report_lists_each_combat_with_scores_and_modifiers() {
    use galloper::ruleset::Ruleset;
    use galloper::rulesets::maurice_lite::MauriceLite;
    let s = facing_lines();
    let r = resolve(&s, &blue(), &format!("{CHARGE}}}"), vec![6, 1]);
    let sight = MauriceLite.view(&r.state, &galloper::view::Viewer::Public);
    let panel = sight
        .panels
        .iter()
        .find(|p| p.title == "Combat this step")
        .expect("a combat panel");
    let text = panel.lines.join("\n");
    assert!(
        text.contains("engages") && text.contains("score 12") && text.contains("score 7"),
        "{text}"
    );
    assert!(
        sight
            .map
            .arrows
            .iter()
            .any(|a| a.kind == galloper::view::ArrowKind::Engaged)
    );
    assert!(
        sight
            .map
            .arrows
            .iter()
            .any(|a| a.kind == galloper::view::ArrowKind::Charge)
    );
}
