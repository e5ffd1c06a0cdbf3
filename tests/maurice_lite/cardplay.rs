//! Chapter 3 in play: modifying cards, interrupts, and standing reactions.

use crate::common::*;
use galloper::ruleset::{OrdersKind, Ruleset};
use galloper::rulesets::maurice_lite::MauriceLite;
use galloper::rulesets::maurice_lite::units::Formation;

fn march_forward(unit: &str, d: f64, extra: &str) -> String {
    format!(
        "round:\n  command:\n    march:\n      force: [{unit}]\n      cards: fewest\n      moves:\n        - {{unit: {unit}, steps: [{{forward: {d}}}]}}\n{extra}"
    )
}

#[test]
fn a_march_modifier_adds_a_base_width_and_only_one_of_each_symbol() {
    let mut s = table();
    place(&mut s, "b-i1", 10.0, 3.0, 0.0, Formation::Line);
    hand(&mut s, &blue(), &["c01", "c02", "c39"]);
    // 5 BW is one more than infantry's 4: legal only with the card.
    let r = resolve(
        &s,
        &blue(),
        &march_forward("b-i1", 5.0, "  modify: [c01]\n"),
        vec![],
    );
    assert_eq!(
        r.state.unit("b-i1").unwrap().anchor.unwrap().y,
        8.0,
        "{}",
        texts(&r)
    );
    assert!(texts(&r).contains("to modify"));
    let r = resolve(&s, &blue(), &march_forward("b-i1", 5.0, ""), vec![]);
    assert_eq!(
        r.state.unit("b-i1").unwrap().anchor.unwrap().y,
        3.0,
        "without the card it stays: {}",
        texts(&r)
    );
    let v = check(
        &s,
        &blue(),
        &march_forward("b-i1", 4.0, "  modify: [c01, c02]\n"),
    );
    assert!(
        rules_of(&v).contains("two modifying cards"),
        "{}",
        rules_of(&v)
    );
    let v = check(
        &s,
        &blue(),
        &march_forward("b-i1", 4.0, "  modify: [c21]\n"),
    );
    assert!(!v.is_empty(), "a rally card in a march, and not in hand");
}

#[test]
fn a_rally_modifier_adds_to_every_die() {
    let mut s = table();
    place(&mut s, "b-i1", 10.0, 3.0, 0.0, Formation::Line);
    place(&mut s, "r-i1", 10.0, 6.0, 180.0, Formation::Line);
    s.unit_mut("b-i1").unwrap().disruption = 2;
    hand(&mut s, &blue(), &["c21", "c39"]);
    let o = "round: {command: {rally: {force: [b-i1], cards: [c39]}}, modify: [c21]}";
    // Near the enemy, a 3 needs the card's +1 to make 4.
    let r = resolve(&s, &blue(), o, vec![3, 3]);
    assert_eq!(r.state.unit("b-i1").unwrap().disruption, 0, "{}", texts(&r));
}

#[test]
fn standing_reactions_are_checked_kept_and_offered_to_the_passive_side() {
    let mut s = table();
    place(&mut s, "r-i1", 10.0, 20.0, 180.0, Formation::Line);
    let due = MauriceLite.due(&s);
    assert_eq!(due.optional.len(), 1);
    assert_eq!(due.optional[0].side, red());
    assert_eq!(due.optional[0].kind, OrdersKind::Reactions);
    let good = "reactions: {return_fire: none, interrupts: [{card: c06, on: march, near: r-i1, within: 6}], modifiers: [{card: c19, on: charged, unit: r-i1}]}";
    assert!(
        check(&s, &red(), good).is_empty(),
        "{}",
        rules_of(&check(&s, &red(), good))
    );
    let bad =
        "reactions: {interrupts: [{card: c01, on: march}], modifiers: [{card: c19, on: charged}]}";
    let v = check(&s, &red(), bad);
    assert!(
        rules_of(&v).contains("not an interrupt card") && rules_of(&v).contains("needs `unit:`"),
        "{}",
        rules_of(&v)
    );
    // Blue is active: it may not send reactions now.
    assert!(!check(&s, &blue(), good).is_empty());
    let r = resolve(&s, &red(), good, vec![]);
    assert!(r.state.standing.contains_key(&red()));
    assert!(texts(&r).contains("renews its standing reactions"));
}

#[test]
fn an_interrupt_adding_distance_foils_an_activation_the_hand_cannot_cover() {
    let mut s = table();
    // The force is 4.25 BW from the CinC: span 5 needed, 13 after the interrupt.
    place(&mut s, "b-i1", 20.0, 6.0, 0.0, Formation::Line);
    place(&mut s, "r-i1", 20.0, 14.0, 180.0, Formation::Line);
    hand(&mut s, &blue(), &["c36"]);
    hand(&mut s, &red(), &["c06"]);
    s.standing.insert(
        red(),
        galloper::yaml::from_str("interrupts: [{card: c06, on: march, near: r-i1, within: 10}]")
            .unwrap(),
    );
    s.piles.draw = vec!["c37".into()]; // 10 played, + 4 drawn = 14: enough
    let r = resolve(&s, &blue(), &march_forward("b-i1", 1.0, ""), vec![]);
    assert!(
        texts(&r).contains("interrupts with Lost Courier"),
        "{}",
        texts(&r)
    );
    assert_eq!(
        r.state.unit("b-i1").unwrap().anchor.unwrap().y,
        7.0,
        "topped up with the drawn card: {}",
        texts(&r)
    );
    // Without a card to top up with, the activation is foiled and the card played is lost.
    hand(&mut s, &blue(), &["c28"]); // 4 + 4 drawn = 8: short of 13
    s.piles.draw = vec!["c37".into()];
    let r = resolve(&s, &blue(), &march_forward("b-i1", 1.0, ""), vec![]);
    assert!(texts(&r).contains("foiled"), "{}", texts(&r));
    assert_eq!(r.state.unit("b-i1").unwrap().anchor.unwrap().y, 6.0);
    assert!(
        !r.state.armies[&red()].hand.contains(&"c06".to_string()),
        "the interrupt card is spent"
    );
}

#[test]
fn an_interrupt_makes_difficult_ground_impassable_and_only_one_interrupt_a_round() {
    let mut s = table();
    place(&mut s, "b-i1", 33.0, 8.0, 0.0, Formation::Line);
    hand(&mut s, &blue(), &["c39"]);
    hand(&mut s, &red(), &["c04", "c06"]);
    s.standing.insert(
        red(),
        galloper::yaml::from_str("interrupts: [{card: c04, on: march}, {card: c06, on: march}]")
            .unwrap(),
    );
    let r = resolve(&s, &blue(), &march_forward("b-i1", 3.0, ""), vec![]);
    let t = texts(&r);
    assert!(
        t.contains("Sodden Ground") && !t.contains("Lost Courier"),
        "{t}"
    );
    assert_eq!(
        r.state.unit("b-i1").unwrap().anchor.unwrap().y,
        8.0,
        "the wood is impassable this round: {t}"
    );
    assert!(r.state.armies[&red()].hand.contains(&"c06".to_string()));
    assert_eq!(
        r.state.cards,
        Default::default(),
        "card effects end with the round"
    );
}
