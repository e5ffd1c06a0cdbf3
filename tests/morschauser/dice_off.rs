//! A.5: the dice-off for who moves first, in the deployment step.

use crate::common::*;
use galloper::dice::Dice;
use galloper::ruleset::Ruleset;
use galloper::rulesets::morschauser_macduff::MorschauserMacduff;
use galloper::rulesets::morschauser_macduff::orders::{Deployment, FirstChoice, Orders};
use galloper::rulesets::morschauser_macduff::state::{Phase, State};
use galloper::side::BySide;

fn deploy(
    blue_choice: FirstChoice,
    red_choice: FirstChoice,
    dice: Vec<u32>,
) -> (State, Vec<String>, usize) {
    let s = State::new(&scenario()).unwrap();
    let mut orders = BySide::new();
    for (side, c) in [(blue(), blue_choice), (red(), red_choice)] {
        orders.insert(
            side,
            Orders::Deploy(Deployment {
                if_winner: c,
                ..Deployment::default()
            }),
        );
    }
    let mut d = Dice::scripted(dice);
    let r = MorschauserMacduff.resolve(&s, &orders, &mut d);
    let n = d.log().len();
    assert!(
        d.log()
            .iter()
            .all(|x| x.purpose.starts_with("dice-off for first move"))
    );
    (
        r.state,
        r.events.iter().map(|e| e.text.clone()).collect(),
        n,
    )
}

#[test]
fn the_higher_die_chooses_to_move_first() {
    let (s, ev, n) = deploy(FirstChoice::First, FirstChoice::First, vec![2, 5]);
    assert_eq!(n, 2);
    assert_eq!(s.first, Some(red()));
    assert_eq!(
        s.phase,
        Phase::HalfTurn {
            turn: 1,
            active: red()
        }
    );
    assert!(ev[0].contains("Red wins"), "{ev:?}");
}

#[test]
fn the_winner_may_choose_to_move_second() {
    let (s, _, _) = deploy(FirstChoice::First, FirstChoice::Second, vec![2, 5]);
    assert_eq!(s.first, Some(blue()));
}

#[test]
fn ties_are_rolled_again() {
    let (s, ev, n) = deploy(FirstChoice::First, FirstChoice::First, vec![4, 4, 6, 1]);
    assert_eq!(n, 4);
    assert_eq!(s.first, Some(blue()));
    assert!(ev[0].contains("tie"), "{ev:?}");
}

#[test]
fn the_order_is_fixed_for_the_game() {
    // Blue first: after Blue's half comes Red's, then turn 2 with Blue again,
    // and no dice are rolled.
    let s = table();
    let r = resolve(&s, turn(vec![]), vec![]);
    assert_eq!(
        r.state.phase,
        Phase::HalfTurn {
            turn: 1,
            active: red()
        }
    );
    let mut orders = BySide::new();
    orders.insert(red(), turn(vec![]));
    let mut d = Dice::scripted(vec![]);
    let r2 = MorschauserMacduff.resolve(&r.state, &orders, &mut d);
    assert_eq!(
        r2.state.phase,
        Phase::HalfTurn {
            turn: 2,
            active: blue()
        }
    );
    assert!(d.log().is_empty());
}
