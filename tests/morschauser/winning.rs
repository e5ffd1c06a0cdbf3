//! D winning and losing, and E.7j special troops defined by the scenario.

use crate::advanced::*;
use crate::common::*;
use galloper::dice::Dice;
use galloper::geometry::{Distance, Point};
use galloper::ruleset::{Resolution, Ruleset};
use galloper::rulesets::morschauser_macduff::MorschauserMacduff;
use galloper::rulesets::morschauser_macduff::orders::{Action, Orders, Sequence, TurnOrders};
use galloper::rulesets::morschauser_macduff::scenario::{Objective, SpecialTroop};
use galloper::rulesets::morschauser_macduff::shooting::judge;
use galloper::rulesets::morschauser_macduff::state::{Phase, State};
use galloper::rulesets::morschauser_macduff::units::{TroopType, Weapon};
use galloper::side::BySide;

/// Red's half of turn 3 (Blue moved first), with no orders.
fn last_half_turn(s: &State) -> Resolution<State> {
    let mut s = s.clone();
    s.phase = Phase::HalfTurn {
        turn: 3,
        active: red(),
    };
    let mut orders = BySide::new();
    orders.insert(red(), Orders::Turn(TurnOrders::default()));
    MorschauserMacduff.resolve(&s, &orders, &mut Dice::scripted(vec![]))
}

fn with_objective() -> State {
    let mut s = table();
    s.scenario.objectives.push(Objective {
        id: "hill".into(),
        name: "The Hill".into(),
        side: blue(),
        at: Point::new(36.0, 24.0),
        radius: Distance(4.0),
    });
    place(&mut s, "b-li", 36.0, 25.0, 0.0);
    s
}

#[test]
fn d_at_the_time_limit_the_side_holding_its_objectives_wins() {
    let r = last_half_turn(&with_objective());
    let o = r.outcome.expect("the game ends at the time limit");
    assert_eq!(o.winner, Some(blue()), "{}", o.reason);
    assert!(o.reason.contains("holds its objectives"));
    // An enemy within the radius denies it: a draw.
    let mut s = with_objective();
    place(&mut s, "r-li", 38.0, 22.0, 180.0);
    let o = last_half_turn(&s).outcome.expect("over");
    assert_eq!(o.winner, None, "{}", o.reason);
    // With turns to come the game goes on.
    let mut s = with_objective();
    s.scenario.turns = 5;
    assert!(last_half_turn(&s).outcome.is_none());
}

#[test]
fn d_optionally_the_first_side_to_lose_half_its_companies_loses() {
    let mut s = table();
    s.scenario.options.half_losses_lose = true;
    place(&mut s, "r-li", 10.0, 10.0, 180.0);
    s.company_mut("r-li").unwrap().hits = 3;
    let shoot = Action {
        sequence: Sequence::ShootOnly,
        target: Some("r-li".into()),
        ..action("b-li")
    };
    let r = run(&s, turn(vec![shoot.clone()]), vec![6, 1, 1, 1]);
    let o = r.r.outcome.clone().expect("Red has lost its only company");
    assert_eq!(o.winner, Some(blue()));
    assert!(o.reason.contains("lost half"), "{}", o.reason);
    assert!(
        o.reason.contains(" has lost half its companies")
            || o.reason.contains(" have lost half their companies"),
        "a side's name and its verb agree: {}",
        o.reason
    );
    // Without the option the game goes on.
    s.scenario.options.half_losses_lose = false;
    let r = run(&s, turn(vec![shoot]), vec![6, 1, 1, 1]);
    assert!(r.r.outcome.is_none());
}

#[test]
fn e7j_special_troops_take_the_scenario_s_values() {
    let mut sc = scenario();
    sc.options.additional_troops = true;
    sc.special_troops = vec![
        SpecialTroop {
            id: "highlanders".into(),
            name: "Highlanders".into(),
            like: TroopType::LightInfantry,
            weapon: None,
            movement: None,
            front: None,
            rear: None,
            strength: None,
            hits_on: Some(6),
            no_shooting: false,
            charging_front: Some(4),
        },
        SpecialTroop {
            id: "fellahin".into(),
            name: "Fellahin".into(),
            like: TroopType::LightInfantry,
            weapon: None,
            movement: None,
            front: None,
            rear: None,
            strength: None,
            hits_on: None,
            no_shooting: true,
            charging_front: None,
        },
    ];
    sc.sides[0].companies[2].special = Some("highlanders".into());
    sc.sides[0].companies[0].special = Some("fellahin".into());
    sc.check().expect("valid");
    let mut s = State::new(&sc).unwrap();
    s.phase = Phase::HalfTurn {
        turn: 1,
        active: blue(),
    };
    let h = s.company("b-lt").unwrap().profile.clone();
    assert_eq!(h.troop, TroopType::LightInfantry);
    assert_eq!(h.weapon, Weapon::Musket);
    assert_eq!(h.movement.get(), 15.0);
    assert_eq!(h.charging_front, Some(4));
    assert_eq!(h.front, 2);
    place(&mut s, "b-lt", 20.0, 5.0, 0.0);
    place(&mut s, "r-li", 20.0, 12.0, 180.0);
    let shot = judge(&s, s.company("b-lt").unwrap(), "r-li").unwrap();
    assert_eq!(shot.hits_on, 6);
    // The fellahin (here the line company b-li, now light infantry) never shoot.
    let f = s.company("b-li").unwrap();
    assert_eq!(f.profile.troop, TroopType::LightInfantry);
    assert!(f.profile.fires.is_empty());
    place(&mut s, "b-li", 14.0, 5.0, 0.0);
    place(&mut s, "r-li", 14.0, 10.0, 180.0);
    let a = Action {
        sequence: Sequence::ShootOnly,
        target: Some("r-li".into()),
        ..action("b-li")
    };
    let r = run(&s, turn(vec![a]), vec![]);
    assert!(r.dice.is_empty(), "{:?}", r.dice);
    assert_eq!(r.state().company("r-li").unwrap().hits, 0);
    // An unknown special type is refused with the scenario.
    sc.sides[0].companies[1].special = Some("gurkhas".into());
    assert!(sc.check().unwrap_err().contains("gurkhas"));
}
