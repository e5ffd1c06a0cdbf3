//! The scenarios under games/morschauser-macduff load and start.

use crate::common::*;
use galloper::rulesets::by_name;
use galloper::rulesets::morschauser_macduff::scenario::Scenario;
use galloper::rulesets::morschauser_macduff::state::State;

fn load(name: &str) -> (String, State) {
    let path = format!(
        "{}/games/morschauser-macduff/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("scenario file");
    let r = by_name("morschauser-macduff").expect("registered");
    let state = r.start(&text).expect("start accepts the scenario");
    (
        text,
        galloper::yaml::from_str(&state).expect("state parses"),
    )
}

#[test]
fn crossroads_starts() {
    let (_, s) = load("crossroads.yaml");
    assert_eq!(s.scenario.sides.len(), 2);
    for side in &s.scenario.sides {
        assert!((8..=12).contains(&side.companies.len()), "{}", side.id);
    }
    assert!(s.company("br-a1").is_some());
}

#[test]
fn fort_assault_starts_with_walls_mine_and_engineers() {
    let (_, s) = load("fort-assault.yaml");
    assert_eq!(s.scenario.mines.len(), 1);
    assert!(s.company("al-e1").is_some());
    let gun = s.company("al-sg").unwrap();
    assert_eq!((gun.profile.movement.get(), gun.profile.strength), (6.0, 3));
    assert!(s.company("al-f1").unwrap().ladders);
}

fn refused(edit: impl Fn(&mut String)) -> String {
    let mut text = SCENARIO.to_string();
    edit(&mut text);
    let s: Scenario = galloper::yaml::from_str(&text).expect("still parses");
    s.check().expect_err("refused")
}

#[test]
fn unknown_fields_are_refused() {
    let text = SCENARIO.replace("turns: 3", "turns: 3\nturnz: 4");
    assert!(galloper::yaml::from_str::<Scenario>(&text).is_err());
}

#[test]
fn a_regiment_of_six_is_refused() {
    let e = refused(|t| {
        *t = t.replace(
            "companies: [b-li, b-li2]",
            "companies: [b-li, b-li2, b-lt, b-hc, b-art, b-eng]",
        )
    });
    assert!(e.contains("give 1 to 5"), "{e}");
}

#[test]
fn advanced_troops_need_the_option() {
    let e = refused(|t| *t = t.replace("troop: artillery,", "troop: artillery, gun: heavy,"));
    assert!(e.contains("additional_troops"), "{e}");
}

#[test]
fn a_weapon_off_the_chart_is_refused() {
    let e = refused(|t| {
        *t = t.replace(
            "troop: heavy_cavalry,",
            "troop: heavy_cavalry, weapon: rifle,",
        )
    });
    assert!(e.contains("b-hc") && e.contains("no weapon"), "{e}");
}

#[test]
fn a_company_off_the_table_is_refused() {
    let e = refused(|t| *t = t.replace("{x: 10, y: 45}", "{x: 10, y: 450}"));
    assert!(e.contains("r-li") && e.contains("off the"), "{e}");
}
