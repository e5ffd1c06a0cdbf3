//! What a side's report offers it (issue 13): its standing reactions kept
//! in the next template (chapter 3: reactions stand until replaced) and
//! listed, and what it can do now (chapter 7 volleys, chapter 8 charges,
//! chapter 4 forces, chapter 3 cards).

use super::common::*;
use galloper::ruleset::Ruleset;
use galloper::rulesets::maurice_lite::MauriceLite;
use galloper::rulesets::maurice_lite::state::Phase;
use galloper::rulesets::maurice_lite::units::Formation;
use galloper::view::Viewer;

const STANDING: &str = "reactions: {return_fire: none, interrupts: [{card: c06, on: march, near: r-i1, within: 6}], modifiers: [{card: c19, on: charged, unit: r-i1}]}";

#[test]
fn the_passive_sides_template_keeps_its_standing_reactions_and_sent_back_as_is_changes_nothing() {
    let mut s = table();
    place(&mut s, "r-i1", 10.0, 20.0, 180.0, Formation::Line);
    // Before any are sent: the defaults.
    let t = MauriceLite.orders_template(&s, &red()).unwrap();
    assert!(
        t.contains("return_fire: all\n  interrupts:\n") && !t.contains("interrupts: []"),
        "{t}"
    );
    let r = resolve(&s, &red(), STANDING, vec![]);
    let mut s = r.state;
    // Red passive again, as two rounds on.
    s.phase = Phase::Round { active: blue() };
    let kept = s.standing[&red()].clone();
    let t = MauriceLite.orders_template(&s, &red()).unwrap();
    assert!(t.contains("These reactions are in force"), "{t}");
    assert!(
        t.contains("  interrupts:\n    - {card: c06, on: march, near: r-i1, within: 6}\n"),
        "the interrupt is not dropped:\n{t}"
    );
    // The template read back is the reactions in force, and they pass the check.
    let back = orders(&t);
    assert!(MauriceLite.check(&s, &red(), &back).is_empty());
    let mut again = resolve(&s, &red(), &t, vec![]);
    again.state.phase = Phase::Round { active: blue() };
    assert_eq!(again.state.standing[&red()], kept, "{t}");
    // The report lists them, to Red only.
    let red_view = MauriceLite.view(&s, &Viewer::Side(red()));
    let panel = red_view
        .panels
        .iter()
        .find(|p| p.title.starts_with("Your standing reactions"))
        .expect("a panel of standing reactions");
    let lines = panel.lines.join("\n");
    assert!(lines.contains("Return fire: none"), "{lines}");
    assert!(
        lines.contains("Interrupt:") && lines.contains("on march"),
        "{lines}"
    );
    assert!(
        lines.contains("when the enemy force comes near Red Foot 1"),
        "{lines}"
    );
    assert!(
        lines.contains("Modifier:") && lines.contains("on charged"),
        "{lines}"
    );
    let blue_view = MauriceLite.view(&s, &Viewer::Side(blue()));
    let blue_lines: String = blue_view
        .panels
        .iter()
        .flat_map(|p| p.lines.clone())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        !blue_lines.contains("on march"),
        "Red's reactions stay Red's"
    );
}

#[test]
fn what_you_can_do_now_names_volleys_charges_forces_and_cards() {
    let mut s = table();
    // Two Blue foot in line side by side, 3 BW from Red foot: in volley
    // range (chapter 7, 4 BW) and charge reach (chapter 8, 4 BW in line).
    place(&mut s, "b-i1", 10.0, 5.0, 0.0, Formation::Line);
    place(&mut s, "b-i2", 15.0, 5.0, 0.0, Formation::Line);
    place(&mut s, "r-i1", 10.0, 8.0, 180.0, Formation::Line);
    // Far away: in no range, a force of its own.
    place(&mut s, "b-c1", 35.0, 3.0, 0.0, Formation::Massed);
    hand(&mut s, &blue(), &["c36"]);
    let v = MauriceLite.view(&s, &Viewer::Side(blue()));
    let panel = v
        .panels
        .iter()
        .find(|p| p.title == "What you can do now")
        .expect("the panel");
    let lines = panel.lines.join("\n");
    assert!(
        lines.contains("You can volley: Blue Foot 1 [b-i1] at Red Foot 1 [r-i1]"),
        "{lines}"
    );
    assert!(
        lines.contains("The enemy can volley: Red Foot 1 [r-i1] at Blue Foot 1 [b-i1]"),
        "{lines}"
    );
    assert!(
        lines.contains("You can charge: Blue Foot 1 [b-i1]")
            && lines.contains("could reach Red Foot 1 [r-i1]"),
        "{lines}"
    );
    assert!(
        lines.contains("Force (infantry in line): Blue Foot 1 [b-i1], Blue Foot 2 [b-i2]"),
        "the two foot 1 BW apart make one force:\n{lines}"
    );
    assert!(
        lines.contains("Force (cavalry in massed): Blue Horse 1 [b-c1]"),
        "{lines}"
    );
    assert!(lines.contains("Card "), "each card in hand:\n{lines}");
    // Red sees its own options, not Blue's.
    let red = MauriceLite.view(&s, &Viewer::Side(red()));
    let red_lines = red
        .panels
        .iter()
        .find(|p| p.title == "What you can do now")
        .unwrap()
        .lines
        .join("\n");
    assert!(
        red_lines.contains("You can volley: Red Foot 1 [r-i1]"),
        "{red_lines}"
    );
}
