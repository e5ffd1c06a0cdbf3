//! Chapters 2 and 3: the deck, the deal, the draw, reshuffles, the hand limit.

use crate::common::*;
use galloper::dice::Dice;
use galloper::rulesets::maurice_lite::deck::{DEFAULT_DECK, DeckFile, DrawNote, Piles};

fn deck() -> DeckFile {
    DeckFile::parse(DEFAULT_DECK).expect("shipped deck")
}

#[test]
fn the_shipped_deck_has_two_reshuffles_and_every_kind_of_card() {
    let d = deck();
    assert_eq!(d.cards.iter().filter(|c| c.reshuffle).count(), 2);
    assert!(d.cards.iter().any(|c| c.interrupt));
    assert!(d.cards.iter().filter(|c| c.event.is_some()).count() >= 2);
    assert!(d.cards.iter().any(|c| c.symbol.is_some()));
}

#[test]
fn the_deal_is_six_each_and_never_a_reshuffle() {
    let d = deck();
    for seed in 0..20u8 {
        let mut dice = Dice::from_seeds([seed; 32], [seed.wrapping_add(1); 32]);
        let (piles, hands) = Piles::deal(&d, 2, &mut dice);
        assert_eq!(hands.len(), 2);
        for h in &hands {
            assert_eq!(h.len(), 6);
            assert!(h.iter().all(|c| !d.card(c).unwrap().reshuffle));
        }
        assert_eq!(piles.draw.len(), d.cards.len() - 12);
        assert_eq!(
            piles
                .draw
                .iter()
                .filter(|c| d.card(c).unwrap().reshuffle)
                .count(),
            2
        );
    }
}

#[test]
fn a_reshuffle_with_fifteen_discards_recycles_them_and_leaves_the_game() {
    let d = deck();
    let mut p = Piles {
        draw: vec!["c01".into(), "r1".into()],
        discard: (2..=16).map(|i| format!("c{i:02}")).collect(),
        removed: vec![],
    };
    let mut dice = Dice::scripted(vec![1; 64]);
    let mut notes = Vec::new();
    let got = p.draw(&d, &mut dice, &mut notes).expect("a card");
    assert_eq!(
        notes,
        vec![DrawNote::ReshuffledDiscards {
            card: "r1".into(),
            recycled: 15
        }]
    );
    assert_eq!(p.removed, vec!["r1".to_string()]);
    assert!(p.discard.is_empty());
    assert_eq!(
        p.draw.len() + 1,
        16,
        "the deck holds the old card and the discards, less the one drawn: {got}"
    );
}

#[test]
fn a_reshuffle_with_few_discards_goes_back_alone() {
    let d = deck();
    let mut p = Piles {
        draw: vec!["c01".into(), "c02".into(), "r1".into()],
        discard: vec!["c03".into()],
        removed: vec![],
    };
    let mut dice = Dice::scripted(vec![1; 64]);
    let mut notes = Vec::new();
    let got = p.draw(&d, &mut dice, &mut notes);
    assert_eq!(
        notes,
        vec![DrawNote::ReshuffledItself { card: "r1".into() }]
    );
    assert!(got.is_some());
    assert_eq!(p.discard, vec!["c03".to_string()]);
    assert!(p.draw.contains(&"r1".to_string()) || got.as_deref() == Some("r1"));
    assert_ne!(
        got.as_deref(),
        Some("r1"),
        "a Reshuffle card is never drawn into a hand"
    );
}

#[test]
fn a_hand_over_ten_is_cut_to_ten_at_the_end_of_the_round() {
    let mut s = table();
    let cards: Vec<String> = (30..=39).map(|i| format!("c{i:02}")).collect();
    let refs: Vec<&str> = cards.iter().map(|c| c.as_str()).collect();
    hand(&mut s, &blue(), &refs);
    let r = resolve(&s, &blue(), "round: {command: pass}", vec![]);
    let a = &r.state.armies[&blue()];
    assert_eq!(a.hand.len(), 10, "{}", texts(&r));
    assert_eq!(r.state.piles.discard.len(), 3);
}

#[test]
fn the_draw_follows_the_command_choice() {
    for (command, drawn) in [
        ("pass", 3usize),
        ("{march: {force: [b-i1], cards: fewest}}", 1),
        ("{rally: {force: [b-i1], cards: fewest}}", 2),
    ] {
        let mut s = table();
        place(
            &mut s,
            "b-i1",
            20.0,
            3.0,
            0.0,
            galloper::rulesets::maurice_lite::units::Formation::Line,
        );
        hand(&mut s, &blue(), &["c39", "c38"]);
        let deck_before = s.piles.draw.len();
        let r = resolve(
            &s,
            &blue(),
            &format!("round: {{command: {command}}}"),
            vec![6; 8],
        );
        assert_eq!(
            deck_before - r.state.piles.draw.len(),
            drawn,
            "{command}: {}",
            texts(&r)
        );
    }
}

#[test]
fn conceal_shuffles_the_deck_and_keeps_everything_else() {
    // The game master's preview resolves from a concealed state: the deck's
    // order drawn again from throw-away dice, so the cards it draws tell
    // nothing of the cards to come. Hands and the rest stay as they are.
    use galloper::ruleset::Ruleset;
    use galloper::rulesets::maurice_lite::MauriceLite;
    let mut s = table();
    let mut dice = Dice::from_seeds([1; 32], [2; 32]);
    let (piles, hands) = Piles::deal(&deck(), 2, &mut dice);
    s.piles = piles;
    s.armies.get_mut(&blue()).unwrap().hand = hands[0].clone();
    let mut orders = Vec::new();
    for seed in 0..8u8 {
        let mut throwaway = Dice::from_seeds([seed; 32], [seed ^ 0x55; 32]);
        let c = MauriceLite.conceal(&s, &mut throwaway);
        let (mut a, mut b) = (c.piles.draw.clone(), s.piles.draw.clone());
        a.sort();
        b.sort();
        assert_eq!(a, b, "the same cards");
        let mut same = c.clone();
        same.piles.draw = s.piles.draw.clone();
        assert_eq!(same, s, "nothing but the deck's order changes");
        orders.push(c.piles.draw);
    }
    assert!(
        orders.iter().all(|o| o != &s.piles.draw),
        "the order is drawn again"
    );
}
