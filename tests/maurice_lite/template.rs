//! The orders templates a player cannot break by uncommenting (issue 27):
//! each command the round's template offers (a `# command:` block, with
//! its `# modify:` line) uncommented alone is taken by the rules, and so is
//! the decision sent as it is. `tests/templates.rs` plays the demo through
//! the list entries (`# - ...`); these tables show every kind of command.

use super::common::*;
use galloper::ruleset::Ruleset;
use galloper::rulesets::maurice_lite::MauriceLite;
use galloper::rulesets::maurice_lite::orders::ActionKind;
use galloper::rulesets::maurice_lite::state::{Pending, Phase, State};
use galloper::rulesets::maurice_lite::units::Formation;

/// `line` uncommented in place: `  # x` -> `  x`.
fn uncomment(line: &str) -> String {
    let indent = line.len() - line.trim_start().len();
    let rest = line.trim_start().trim_start_matches('#');
    format!(
        "{}{}",
        &line[..indent],
        rest.strip_prefix(' ').unwrap_or(rest)
    )
}

/// The lines of each `# command:` block: the key, the lines indented
/// deeper under it, and the `# modify:` line that goes with it.
fn command_blocks(lines: &[&str]) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if l.trim() != "# command:" {
            continue;
        }
        let depth = uncomment(l).len() - uncomment(l).trim_start().len();
        let mut block = vec![i];
        for (j, below) in lines.iter().enumerate().skip(i + 1) {
            let u = uncomment(below);
            let deeper = u.len() - u.trim_start().len() > depth;
            if below.trim_start().starts_with("# ") && deeper {
                block.push(j);
            } else {
                if below.trim_start().starts_with("# modify:") {
                    block.push(j);
                }
                break;
            }
        }
        out.push(block);
    }
    out
}

fn uncommented(lines: &[&str], these: &[usize]) -> String {
    lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            if these.contains(&i) {
                uncomment(l)
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Blue with a line of foot (one disrupted), guns in range of Red, horse
/// within a charge of Red foot, and a hand with an event and a modifying
/// card for each action.
fn busy_table() -> State {
    let mut s = table();
    place(&mut s, "b-i1", 10.0, 5.0, 0.0, Formation::Line);
    place(&mut s, "b-i2", 15.0, 5.0, 0.0, Formation::Line);
    place(&mut s, "b-i3", 20.0, 5.0, 0.0, Formation::Line);
    place(&mut s, "b-a1", 25.0, 8.0, 0.0, Formation::Battery);
    place(&mut s, "b-c1", 15.0, 14.0, 0.0, Formation::Massed);
    place(&mut s, "r-i1", 26.0, 16.0, 180.0, Formation::Line);
    place(&mut s, "r-i2", 15.0, 17.0, 180.0, Formation::Line);
    place(&mut s, "r-c1", 5.0, 26.0, 180.0, Formation::Massed);
    s.unit_mut("b-i2").expect("unit").disruption = 1;
    hand(
        &mut s,
        &blue(),
        &["c01", "c13", "c17", "c21", "c24", "c33", "c39", "c32"],
    );
    s
}

#[test]
fn each_command_the_round_template_offers_is_taken_alone() {
    let s = busy_table();
    let t = MauriceLite
        .orders_template(&s, &blue())
        .expect("a template");
    assert!(
        MauriceLite.check(&s, &blue(), &orders(&t)).is_empty(),
        "{t}"
    );
    assert!(
        !t.lines().any(|l| l.trim_start().starts_with("command:")),
        "pass is the default:\n{t}"
    );
    let lines: Vec<&str> = t.lines().collect();
    let blocks = command_blocks(&lines);
    for block in &blocks {
        let edited = uncommented(&lines, block);
        let v = MauriceLite.check(&s, &blue(), &orders(&edited));
        assert!(v.is_empty(), "{}\n{edited}", rules_of(&v));
    }
    let offered: Vec<String> = blocks
        .iter()
        .map(|b| uncomment(lines[b[0] + 1]).trim().to_string())
        .collect();
    for kind in ["march:", "rally:", "bombard:", "charge:", "event: c24"] {
        assert!(offered.iter().any(|o| o == kind), "no {kind}:\n{t}");
    }
    // A modifying card held goes with its action.
    for card in ["c01", "c13", "c17", "c21"] {
        assert!(
            t.contains(&format!("  # modify: [{card}]")),
            "{card} is offered with its action:\n{t}"
        );
    }
    let cinc = lines
        .iter()
        .position(|l| l.trim_start().starts_with("# cinc:"))
        .expect("a CinC move");
    let edited = uncommented(&lines, &[cinc]);
    assert!(
        MauriceLite.check(&s, &blue(), &orders(&edited)).is_empty(),
        "{edited}"
    );
}

#[test]
fn a_side_without_cards_is_offered_no_command() {
    let mut s = busy_table();
    hand(&mut s, &blue(), &[]);
    let t = MauriceLite
        .orders_template(&s, &blue())
        .expect("a template");
    assert!(!t.contains("# command:\n"), "{t}");
    assert!(
        MauriceLite.check(&s, &blue(), &orders(&t)).is_empty(),
        "{t}"
    );
}

/// A decision owed by Blue after declaring `action` with `consult: true`.
fn deciding(action: ActionKind) -> State {
    let mut s = busy_table();
    s.phase = Phase::Decision {
        active: blue(),
        pending: Box::new(Pending {
            action,
            drawn: vec!["c32".into()],
            orders: galloper::rulesets::maurice_lite::default_round(),
            activation: None,
        }),
    };
    s
}

#[test]
fn the_decision_sent_as_it_is_names_a_force_the_rules_take() {
    for (action, wanted) in [
        (ActionKind::March, "force: [b-i1, b-i2, b-i3]"),
        (ActionKind::Rally, "force: [b-i1, b-i2, b-i3]"),
        (ActionKind::Bombard, "force: [b-a1]"),
        (ActionKind::Charge, "charges: [{unit: b-c1, target: r-i2}]"),
    ] {
        let s = deciding(action);
        let t = MauriceLite
            .orders_template(&s, &blue())
            .expect("a template");
        assert!(t.contains(wanted), "{action:?}: {wanted}\n{t}");
        let v = MauriceLite.check(&s, &blue(), &orders(&t));
        assert!(v.is_empty(), "{action:?}: {}\n{t}", rules_of(&v));
        // Each move offered, uncommented alone.
        let lines: Vec<&str> = t.lines().collect();
        let moves: Vec<usize> = (0..lines.len())
            .filter(|&i| lines[i].trim_start().starts_with("# - "))
            .collect();
        assert_eq!(moves.is_empty(), action != ActionKind::March, "{t}");
        for m in moves {
            let edited = uncommented(&lines, &[m]);
            let v = MauriceLite.check(&s, &blue(), &orders(&edited));
            assert!(v.is_empty(), "{}\n{edited}", rules_of(&v));
        }
    }
}

#[test]
fn the_passive_side_is_offered_the_cards_in_hand_that_would_do_something() {
    let mut s = busy_table();
    hand(&mut s, &red(), &["c06", "c08", "c09", "c13", "c17", "c19"]);
    let t = MauriceLite.orders_template(&s, &red()).expect("a template");
    assert!(MauriceLite.check(&s, &red(), &orders(&t)).is_empty(), "{t}");
    for offered in [
        "    # - {card: c06, on: march}\n",
        "    # - {card: c06, on: march, near: r-i1, within: 6}\n",
        "    # - {card: c08, on: volleys}\n",
        "    # - {card: c09, on: volleys}\n",
        "    # - {card: c19, on: charged, unit: r-i1}\n",
    ] {
        assert!(t.contains(offered), "{offered}\n{t}");
    }
    // Its own bombard and attack cards change nothing while the enemy acts.
    assert!(!t.contains("card: c13") && !t.contains("card: c17"), "{t}");
    let lines: Vec<&str> = t.lines().collect();
    for (i, l) in lines.iter().enumerate() {
        if l.trim_start().starts_with("# - ") {
            let edited = uncommented(&lines, &[i]);
            let v = MauriceLite.check(&s, &red(), &orders(&edited));
            assert!(v.is_empty(), "{}\n{edited}", rules_of(&v));
        }
    }
}
