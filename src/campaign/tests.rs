//! The campaign's day on the Wiese map (`games/campaigns/wiese.yaml`),
//! with scripted dice.

use super::battle;
use super::day::resolve;
use super::file::CampaignFile;
use super::fog::sight;
use super::map::Map;
use super::orders::{DayOrders, Join, March, Split, check};
use super::state::Ledger;
use crate::dice::Dice;
use crate::muster::{Carried, Condition, Strength};
use crate::side::{BySide, SideId};

const WIESE: &str = include_str!("../../games/campaigns/wiese.yaml");
const FIELD: &str = include_str!("../../games/activation-dice/quatre-chemins.yaml");

fn ledger() -> Ledger {
    let file: CampaignFile = crate::yaml::from_str(WIESE).unwrap();
    Ledger::start(
        &file,
        &|_| Ok(FIELD.to_string()),
        &crate::rulesets::muster_by_name,
    )
    .unwrap()
}

fn side(s: &str) -> SideId {
    SideId::from(s)
}

fn march(army: &str, to: &[&str]) -> March {
    March {
        army: army.into(),
        to: to.iter().map(|s| s.to_string()).collect(),
    }
}

fn day(l: &Ledger, french: DayOrders, allies: DayOrders, dice: Vec<u32>) -> (Ledger, Vec<String>) {
    let mut o = BySide::new();
    o.insert(side("french"), french);
    o.insert(side("allies"), allies);
    let map = Map::new(&l.campaign);
    for (s, orders) in &o {
        assert_eq!(
            check(l, &map, s, orders),
            Vec::<String>::new(),
            "{s}'s orders"
        );
    }
    let r = resolve(l, &o, &mut Dice::scripted(dice)).unwrap();
    (r.ledger, r.dispatches.into_iter().map(|d| d.text).collect())
}

fn orders(march: Vec<March>) -> DayOrders {
    DayOrders {
        march,
        ..DayOrders::default()
    }
}

#[test]
fn an_army_marches_one_road_a_day_and_a_forced_march_costs_each_unit() {
    let l = ledger();
    let (l, news) = day(
        &l,
        orders(vec![
            march("fr-1", &["schopfheim"]),
            march("fr-2", &["zell", "atzenbach"]),
        ]),
        DayOrders::default(),
        vec![],
    );
    assert_eq!(l.army("fr-1").unwrap().at, "schopfheim");
    let cav = l.army("fr-2").unwrap();
    assert_eq!(cav.at, "atzenbach");
    // 1 lost on the forced march, then half of it back out of contact:
    // rounded down, nothing.
    assert!(
        cav.units
            .iter()
            .all(|u| u.strength == Strength { now: 2, full: 3 })
    );
    assert!(news.iter().any(|n| n.contains("forced march")), "{news:?}");
    assert_eq!(l.day, 2);
}

#[test]
fn orders_that_cannot_be_are_refused_naming_the_army_and_the_rule() {
    let l = ledger();
    let map = Map::new(&l.campaign);
    let o = orders(vec![
        march("fr-1", &["steinach"]),
        march("fr-2", &["zell", "schopfheim", "steinen"]),
        march("al-1", &["lorrach"]),
    ]);
    let e = check(&l, &map, &side("french"), &o);
    assert!(
        e.iter()
            .any(|e| e.contains("fr-1: no road from fahrnau to steinach")),
        "{e:?}"
    );
    assert!(
        e.iter()
            .any(|e| e.contains("fr-2 marches one road a day, or two by a forced march, not 3")),
        "{e:?}"
    );
    assert!(
        e.iter().any(|e| e.contains("al-1 is not an army of yours")),
        "{e:?}"
    );
    let river = orders(vec![march("fr-1", &["schopfheim", "steinach"])]);
    let e = check(&l, &map, &side("french"), &river);
    assert!(e.iter().any(|e| e.contains("crosses a river")), "{e:?}");
}

#[test]
fn armies_bound_for_each_others_area_meet_on_the_road_and_the_lower_die_is_caught_at_home() {
    let l = ledger();
    // Day 1: the French to Schopfheim, the Austrians to Steinach bridge.
    let (l, _) = day(
        &l,
        orders(vec![march("fr-1", &["schopfheim"])]),
        orders(vec![march("al-2", &["steinach"])]),
        vec![],
    );
    // Day 2: each marches on the other: French 5, Austrians 2.
    let (l, news) = day(
        &l,
        orders(vec![march("fr-1", &["steinach"])]),
        orders(vec![march("al-2", &["schopfheim"])]),
        vec![5, 2],
    );
    assert!(
        news.iter().any(|n| n.contains("met on the road")),
        "{news:?}"
    );
    let (fr, al) = (l.army("fr-1").unwrap(), l.army("al-2").unwrap());
    assert_eq!(
        (fr.at.as_str(), al.at.as_str()),
        ("steinach", "steinach"),
        "the Austrians were caught at home"
    );
    let b = &l.battles[0];
    assert_eq!(
        (b.area.as_str(), b.attacker.as_str(), b.day),
        ("steinach", "french", 2)
    );
    assert_eq!(fr.in_battle.as_deref(), Some(b.id.as_str()));
}

/// Two armies in Steinach, at battle, as the ledger has them.
fn at_battle() -> Ledger {
    let l = ledger();
    let (l, _) = day(
        &l,
        orders(vec![march("fr-1", &["schopfheim"])]),
        orders(vec![march("al-2", &["steinach"])]),
        vec![],
    );
    let (l, _) = day(
        &l,
        orders(vec![march("fr-1", &["steinach"])]),
        DayOrders::default(),
        vec![],
    );
    assert_eq!(l.battles.len(), 1);
    l
}

#[test]
fn a_battle_begins_with_exactly_the_forces_the_ledger_holds() {
    let l = at_battle();
    let b = &l.battles[0];
    let hook = crate::rulesets::muster_by_name(&b.ruleset).unwrap();
    let began = hook.roster(&b.scenario).unwrap();
    let mut want: Vec<(SideId, String, Strength)> = l
        .armies
        .iter()
        .filter(|a| b.armies.contains(&a.id))
        .flat_map(|a| {
            a.units
                .iter()
                .map(move |u| (a.side.clone(), u.id.clone(), u.strength))
        })
        .collect();
    let mut got: Vec<(SideId, String, Strength)> = began
        .into_iter()
        .map(|(s, m)| (s, m.id, m.strength))
        .collect();
    want.sort_by(|a, b| a.1.cmp(&b.1));
    got.sort_by(|a, b| a.1.cmp(&b.1));
    assert_eq!(got, want);
    // The French came from Schopfheim by the river road, entering by its
    // south edge at Steinach; the Austrians hold the north.
    assert!(b.scenario.contains("edge: south"));
    let rules = crate::rulesets::by_name(&b.ruleset).unwrap();
    assert!(
        rules.start(&b.scenario).is_ok(),
        "the battle starts as a game"
    );
}

#[test]
fn a_battles_end_comes_back_to_the_ledger_and_the_loser_falls_back_by_its_road() {
    let mut l = at_battle();
    let id = l.battles[0].id.clone();
    let carried = vec![
        Carried {
            id: "fr-4l".into(),
            side: side("french"),
            strength: Strength { now: 1, full: 3 },
            condition: Condition::Routed,
        },
        Carried {
            id: "al-gds".into(),
            side: side("allies"),
            strength: Strength { now: 0, full: 3 },
            condition: Condition::Lost,
        },
    ];
    let news = battle::finish(
        &mut l,
        &id,
        &carried,
        Some(side("allies")),
        "the French broke",
        "ab12",
    )
    .unwrap();
    let fr = l.army("fr-1").unwrap();
    assert_eq!(fr.at, "schopfheim", "the loser falls back the way it came");
    assert!(fr.in_battle.is_none());
    let u = fr.units.iter().find(|u| u.id == "fr-4l").unwrap();
    assert_eq!((u.strength.now, u.condition), (1, Condition::Routed));
    assert_eq!(l.army("al-2").unwrap().at, "steinach", "the winner holds");
    assert!(
        news.iter()
            .any(|n| n.text.contains("fell back from steinach to schopfheim"))
    );
    assert!(
        battle::finish(&mut l, &id, &carried, None, "again", "ab12").is_err(),
        "a battle ends once"
    );
    // Out of contact the next day, the routed unit rallies and recovers
    // half its losses.
    let (l, _) = day(&l, DayOrders::default(), DayOrders::default(), vec![]);
    let u = l
        .army("fr-1")
        .unwrap()
        .units
        .iter()
        .find(|u| u.id == "fr-4l")
        .unwrap()
        .clone();
    assert_eq!((u.strength.now, u.condition), (2, Condition::Shaken));
}

#[test]
fn armies_split_and_join_and_reinforcements_arrive_on_their_day() {
    let l = ledger();
    let split = DayOrders {
        split: vec![Split {
            army: "fr-1".into(),
            new: "fr-1b".into(),
            name: "Brigade Girard".into(),
            commander: "Gén. Girard".into(),
            units: vec!["fr-6le".into()],
        }],
        march: vec![march("fr-1b", &["maulburg"])],
        ..DayOrders::default()
    };
    let (l, _) = day(&l, split, DayOrders::default(), vec![]);
    assert_eq!(l.army("fr-1b").unwrap().at, "maulburg");
    assert_eq!(l.army("fr-1").unwrap().units.len(), 3);
    let back = DayOrders {
        march: vec![march("fr-1b", &["fahrnau"])],
        ..DayOrders::default()
    };
    let (l, _) = day(&l, back, DayOrders::default(), vec![]);
    assert!(
        l.army("al-3").is_some(),
        "the grenadiers reach Mambach on day 3"
    );
    let join = DayOrders {
        join: vec![Join {
            army: "fr-1b".into(),
            into: "fr-1".into(),
        }],
        ..DayOrders::default()
    };
    let (l, _) = day(&l, join, DayOrders::default(), vec![]);
    assert!(l.army("fr-1b").is_none());
    assert_eq!(l.army("fr-1").unwrap().units.len(), 4);
}

#[test]
fn an_enemy_out_of_sight_changes_nothing_a_side_reads() {
    // Two ledgers that differ only in where an Austrian army stands, out
    // of the French's sight (Brombach or Lörrach, both beyond reach).
    let a = ledger();
    let mut b = ledger();
    b.armies.iter_mut().find(|x| x.id == "al-1").unwrap().at = "lorrach".into();
    let (fa, fb) = (sight(&a, &side("french")), sight(&b, &side("french")));
    let bytes = |s: &super::fog::CampaignSight| crate::yaml::to_string(s).unwrap();
    assert_eq!(bytes(&fa), bytes(&fb));
    assert!(fa.enemy.is_empty());
    // Within sight, it is seen: the cavalry at Hausen see two roads out.
    let mut c = ledger();
    c.armies.iter_mut().find(|x| x.id == "al-1").unwrap().at = "atzenbach".into();
    let fc = sight(&c, &side("french"));
    assert_eq!(fc.enemy.len(), 1);
    assert_eq!(
        (fc.enemy[0].name.as_str(), fc.enemy[0].units),
        ("Brigade Hiller", 4)
    );
}

#[test]
fn every_battle_the_map_could_give_is_mustered_once_before_the_campaign_begins() {
    let l = ledger();
    assert_eq!(super::trial::trial_battles(&l), Vec::<String>::new());
    // A road that enters Steinach by its east edge: activation dice sets
    // up from the south and north only, and the organiser hears of it now.
    let mut file: CampaignFile = crate::yaml::from_str(WIESE).unwrap();
    let r = file
        .roads
        .iter_mut()
        .find(|r| r.between == ["steinach".to_string(), "todtnau".to_string()])
        .unwrap();
    r.edges[0] = crate::muster::TableEdge::East;
    let l = Ledger::start(
        &file,
        &|_| Ok(FIELD.to_string()),
        &crate::rulesets::muster_by_name,
    )
    .unwrap();
    let problems = super::trial::trial_battles(&l);
    assert!(!problems.is_empty());
    assert!(
        problems
            .iter()
            .all(|p| p.starts_with("area steinach") && p.contains("from todtnau by the east edge")),
        "{problems:?}"
    );
    assert!(
        problems[0].contains("south and north edges"),
        "{problems:?}"
    );
}
