//! The fortress scenario as shipped (games/morschauser-macduff/fort-assault.yaml):
//! its walls, gate, mine, ladders and engineers working together (C.6).

use crate::common::{charge, place};
use galloper::dice::Dice;
use galloper::geometry::{Distance, Point};
use galloper::ruleset::Ruleset;
use galloper::rulesets::morschauser_macduff::MorschauserMacduff;
use galloper::rulesets::morschauser_macduff::orders::{
    Action, Orders, PathStep, Sequence, TurnOrders,
};
use galloper::rulesets::morschauser_macduff::scenario::Scenario;
use galloper::rulesets::morschauser_macduff::state::{Phase, State};
use galloper::side::{BySide, SideId};

fn allies() -> SideId {
    SideId::new("allies")
}

/// Turn 1, the Allies to move, everything where the scenario puts it.
fn fort() -> State {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/games/morschauser-macduff/fort-assault.yaml"
    ))
    .expect("the scenario ships");
    let sc: Scenario = galloper::yaml::from_str(&text).expect("it parses");
    sc.check().expect("it is valid");
    let mut s = State::new(&sc).expect("state");
    s.phase = Phase::HalfTurn {
        turn: 1,
        active: allies(),
    };
    s.first = Some(allies());
    s
}

/// The Allies' half-turn: the state, the texts and the dice purposes.
fn storm(s: &State, orders: TurnOrders, dice: Vec<u32>) -> (State, Vec<String>, Vec<String>) {
    let n = dice.len();
    let o = Orders::Turn(orders);
    assert!(
        MorschauserMacduff.check(s, &allies(), &o).is_empty(),
        "{:?}",
        MorschauserMacduff.check(s, &allies(), &o)
    );
    let mut by = BySide::new();
    by.insert(allies(), o);
    let mut d = Dice::scripted(dice);
    let r = MorschauserMacduff.resolve(s, &by, &mut d);
    let purposes: Vec<String> = d.log().iter().map(|x| x.purpose.clone()).collect();
    let texts: Vec<String> = r.events.into_iter().map(|e| e.text).collect();
    assert_eq!(purposes.len(), n, "{purposes:#?}\n{texts:#?}");
    (r.state, texts, purposes)
}

fn act(company: &str) -> Action {
    Action {
        company: Some(company.into()),
        ..Action::default()
    }
}

#[test]
fn the_sappers_blow_in_the_porte_saint_roch() {
    let mut s = fort();
    // The sappers have come up the road to just short of the gate.
    place(&mut s, "al-e1", 30.0, 35.0, 0.0);
    let a = Action {
        sequence: Sequence::MoveOnly,
        path: vec![PathStep::Forward(Distance(3.0))],
        breach: Some("main-gate".into()),
        ..act("al-e1")
    };
    let (after, texts, dice) = storm(
        &s,
        TurnOrders {
            actions: vec![a],
            fire_mines: vec![],
            ..TurnOrders::default()
        },
        vec![5],
    );
    assert_eq!(
        dice,
        ["Royal Sappers and Miners (al-e1): engineers blow Porte Saint-Roch: breach on 4-6 (C.6)"]
    );
    assert_eq!(after.breaches.len(), 1, "{texts:#?}");
    assert_eq!(after.breaches[0].wall, "main-gate");
    // Through the breach the gate no longer stops a company (C.6).
    let mut s = after;
    s.phase = fort().phase;
    place(&mut s, "al-e1", 45.0, 20.0, 0.0);
    place(&mut s, "al-1b", 30.0, 34.0, 0.0);
    place(&mut s, "gr-1b", 30.0, 52.0, 180.0);
    // The gate's flanking guns have been withdrawn.
    place(&mut s, "gr-a1", 20.0, 55.0, 180.0);
    place(&mut s, "gr-a3", 40.0, 55.0, 180.0);
    let through = Action {
        sequence: Sequence::MoveOnly,
        path: vec![PathStep::Forward(Distance(8.0))],
        ..act("al-1b")
    };
    let (after, texts, _) = storm(
        &s,
        TurnOrders {
            actions: vec![through],
            fire_mines: vec![],
            ..TurnOrders::default()
        },
        vec![],
    );
    assert!(
        after.company("al-1b").expect("company").at.y > 39.0,
        "{texts:#?}"
    );
}

#[test]
fn the_forlorn_hope_storms_the_curtain_on_ladders() {
    let mut s = fort();
    place(&mut s, "al-f1", 20.0, 35.5, 0.0);
    // The rampart gun stands back, so nobody else guards this stretch.
    place(&mut s, "gr-a1", 36.0, 50.0, 180.0);
    let a = charge("al-f1", "gr-1a");
    // Elite rear value 2 on its ladders, -1 into the fort yard (a town): 1.
    let (after, texts, dice) = storm(
        &s,
        TurnOrders {
            actions: vec![a],
            fire_mines: vec![],
            ..TurnOrders::default()
        },
        vec![1, 2, 2, 2, 6, 6, 6, 6],
    );
    assert!(
        dice[0].contains("hits on 1-1 (rear 2: on ladders against South curtain wall (C.6), -1 attacking into a town (C.5))"),
        "{dice:#?}"
    );
    assert_eq!(after.company("gr-1a").expect("company").hits, 1);
    // The garrison won nothing back: the hope took no hits and gr-1a, which
    // took more, fell back a full move into the fort.
    assert_eq!(after.company("al-f1").expect("company").hits, 0);
    assert!(
        texts
            .iter()
            .any(|t| t.contains("Garrison, 1re (gr-1a) retreats"))
    );
    // Having won, the hope goes over the wall into the fort.
    assert!(
        texts
            .iter()
            .any(|t| t.contains("Forlorn hope (al-f1) climbs over South curtain wall")),
        "{texts:#?}"
    );
    assert!(after.company("al-f1").expect("company").at.y > 39.0);
    // Without ladders the 2nd Company cannot attack over the wall at all.
    let mut s = fort();
    place(&mut s, "al-1b", 20.0, 35.5, 0.0);
    let a = charge("al-1b", "gr-1a");
    let (after, _, _) = storm(
        &s,
        TurnOrders {
            actions: vec![a],
            fire_mines: vec![],
            ..TurnOrders::default()
        },
        vec![],
    );
    assert!(after.company("al-1b").expect("company").at.y < 38.0);
    assert_eq!(after.company("gr-1a").expect("company").hits, 0);
}

#[test]
fn the_mine_under_the_east_curtain_opens_it() {
    let (after, texts, _) = storm(
        &fort(),
        TurnOrders {
            actions: vec![],
            fire_mines: vec!["mine-east".into()],
            ..TurnOrders::default()
        },
        vec![],
    );
    assert_eq!(after.breaches.len(), 1);
    assert_eq!(after.breaches[0].at, Point::new(45.0, 46.0));
    assert!(
        texts
            .iter()
            .any(|t| t.contains("breaches East curtain wall"))
    );
}
