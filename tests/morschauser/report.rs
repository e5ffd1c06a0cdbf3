//! What a side reads: the map's strength points, hits and generals, and the
//! orders template with every live company and its choices.

use galloper::render::map_svg;
use galloper::ruleset::{Ruleset, Sight};
use galloper::rulesets::morschauser_macduff::MorschauserMacduff;
use galloper::rulesets::morschauser_macduff::orders::{Orders, Sequence};
use galloper::rulesets::morschauser_macduff::scenario::{Personality, Scenario};
use galloper::rulesets::morschauser_macduff::state::{Breach, Phase, State};
use galloper::side::SideId;
use galloper::view::{MarkerKind, Viewer};

const CROSSROADS: &str = include_str!("../../games/morschauser-macduff/crossroads.yaml");

fn british() -> SideId {
    SideId::new("british")
}

/// The crossroads after deployment, British to act in turn 2.
fn crossroads() -> State {
    let scenario: Scenario = galloper::yaml::from_str(CROSSROADS).expect("scenario parses");
    let mut s = MorschauserMacduff.start(&scenario).expect("state");
    s.phase = Phase::HalfTurn {
        turn: 2,
        active: british(),
    };
    s.first = Some(british());
    s
}

fn sight(s: &State, side: &SideId) -> Sight {
    MorschauserMacduff.view(s, &Viewer::Side(side.clone()))
}

#[test]
fn side_a_sees_strength_hits_generals_fires_and_breaches() {
    let mut s = crossroads();
    s.company_mut("br-1a").expect("br-1a").hits = 1;
    s.company_mut("fr-2a").expect("fr-2a").hits = 3;
    s.destroy("fr-h1");
    s.generals[0].attached = Some("br-1c".into());
    s.generals[1].personality = None;
    s.burning.insert("vieux-pont".into());
    s.breaches.push(Breach {
        wall: "mill-stream".into(),
        at: galloper::geometry::Point::new(22.0, 16.0),
        cause: "test".into(),
    });
    let view = sight(&s, &british());
    let note = |id: &str| {
        view.map
            .units
            .iter()
            .find(|u| u.id == id)
            .and_then(|u| u.note.clone())
            .unwrap_or_else(|| panic!("{id} is on the map with a note"))
    };
    assert_eq!(note("br-1a"), "3/4 SP, 1 hit");
    assert_eq!(note("br-1b"), "4/4 SP");
    assert_eq!(note("fr-2a"), "1/4 SP, 3 hits");
    assert_eq!(note("br-a1"), "2/2 SP");
    assert!(
        view.map.units.iter().all(|u| u.id != "fr-h1"),
        "a destroyed company is off the map"
    );
    // Hits are in the note, not on the counter the legend calls disruption.
    assert!(view.map.units.iter().all(|u| u.disruption == 0));
    let cavalry = view
        .map
        .units
        .iter()
        .find(|u| u.id == "br-h1")
        .expect("br-h1");
    assert_eq!(cavalry.formation, "light cavalry");

    let generals: Vec<_> = view
        .map
        .markers
        .iter()
        .filter(|m| m.kind == MarkerKind::General)
        .collect();
    assert_eq!(generals.len(), 2);
    assert_eq!(generals[0].label, "Col. Barnard (bold, with 1/52nd C Coy)");
    assert_eq!(generals[0].at, s.company("br-1c").expect("br-1c").at);
    assert_eq!(
        generals[1].label, "Gén. Darricau",
        "character not yet known"
    );

    let terrain = |id: &str| {
        let name = &s.scenario.terrain(id).expect("terrain").name;
        view.map
            .terrain
            .iter()
            .find(|t| t.name.starts_with(name.as_str()))
            .map(|t| t.name.clone())
            .expect("terrain on the map")
    };
    assert_eq!(terrain("vieux-pont"), "Vieux-Pont village (burning)");
    assert_eq!(terrain("mill-stream"), "Mill stream (1 breach)");

    let panel = |title: &str| {
        view.panels
            .iter()
            .find(|p| p.title == title)
            .map(|p| p.lines.join("\n"))
            .unwrap_or_else(|| panic!("panel {title}"))
    };
    let mine = panel("Your companies");
    assert!(mine.contains("1/52nd A Coy [br-1a]: line infantry, SP 3/4 (1 hits)"));
    assert!(!mine.contains("fr-"), "only the reader's own companies");
    let battle = panel("The battle");
    assert!(battle.contains("French: 1 of 10 companies lost"));
    assert!(battle.contains("vieux-pont is burning"));
    let generals = panel("Generals");
    assert!(generals.contains("Col. Barnard [br-gen] of British: bold, with br-1c"));
    assert!(generals.contains("personality not yet known"));

    // The drawn map carries the same words, and a key to every troop letter.
    let svg = map_svg(&view.map).expect("map renders");
    for text in [
        "3/4 SP, 1 hit",
        "Col. Barnard (bold, with 1/52nd C Coy)",
        "LC light cavalry",
        "I infantry",
    ] {
        assert!(svg.contains(text), "the SVG shows {text:?}");
    }
    assert!(!svg.contains("CinC"), "these generals are not called CinC");
}

#[test]
fn the_template_lists_each_live_company_with_its_choices() {
    let mut s = crossroads();
    s.destroy("br-r1");
    let t = MorschauserMacduff
        .orders_template(&s, &british())
        .expect("the active side gets a template");
    for choice in [
        "sequence: move_then_shoot | shoot_then_move | move_only | shoot_only | melee_then_move | hold",
        "path: [{pivot: 45}, {forward: 6}, {to: {x: 10, y: 20}}]",
        "target: ENEMY",
        "charge: {target: ENEMY, flank: false, pursue: false}",
        "breach: WALL",
        "demolish: BRIDGE",
        "fallback: nearest | hold",
    ] {
        assert!(t.contains(choice), "the template explains {choice:?}");
    }
    let live: Vec<String> = s.live(&british()).map(|c| c.id.clone()).collect();
    assert_eq!(live.len(), 9);
    for id in &live {
        assert!(
            t.contains(&format!(
                "- {{company: {id}, sequence: hold, path: [], fallback: hold}}"
            )),
            "{id} has an entry"
        );
    }
    assert!(
        !t.contains("company: br-r1,"),
        "a destroyed company has none"
    );
    assert!(
        t.contains("{company: br-a1, sequence: hold, path: [], fallback: hold}   # may not charge")
    );
    assert!(
        t.contains("{company: br-w1, sequence: hold, path: [], fallback: hold}   # may not charge")
    );
    assert!(!t.contains("{company: br-h1, sequence: hold, path: [], fallback: hold}   #"));

    // The template is orders the ruleset accepts as they are.
    let orders: Orders = galloper::yaml::from_str(&t).expect("the template parses");
    assert!(MorschauserMacduff.check(&s, &british(), &orders).is_empty());
    let Orders::Turn(turn) = orders else {
        panic!("turn orders");
    };
    assert_eq!(turn.actions.len(), live.len());
    assert!(turn.actions.iter().all(|a| a.sequence == Sequence::Hold));
    // The side that is not active owes nothing and gets no template.
    assert!(
        MorschauserMacduff
            .orders_template(&s, &SideId::new("french"))
            .is_none()
    );
}

#[test]
fn a_general_once_known_shows_his_character() {
    let mut s = crossroads();
    s.generals[1].personality = Some(Personality::Cautious);
    let view = sight(&s, &SideId::new("french"));
    assert!(
        view.map
            .markers
            .iter()
            .any(|m| m.kind == MarkerKind::General && m.label == "Gén. Darricau (cautious)")
    );
}

#[test]
fn the_fortress_template_offers_regiments_breaches_and_the_mine() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/games/morschauser-macduff/fort-assault.yaml"
    ))
    .expect("scenario");
    let sc: galloper::rulesets::morschauser_macduff::scenario::Scenario =
        galloper::yaml::from_str(&text).expect("parses");
    let mut s = galloper::rulesets::morschauser_macduff::state::State::new(&sc).expect("state");
    let side = sc.mines[0].side.clone();
    s.phase = galloper::rulesets::morschauser_macduff::state::Phase::HalfTurn {
        turn: 1,
        active: side.clone(),
    };
    let t = MorschauserMacduff
        .orders_template(&s, &side)
        .expect("a template");
    assert!(
        t.contains(&format!("  # fire_mines:\n  #   - {}\n", sc.mines[0].id)),
        "{t}"
    );
    assert!(t.contains("# may not charge; may breach"), "{t}");
    let orders: Orders = galloper::yaml::from_str(&t).expect("the template parses");
    assert!(MorschauserMacduff.check(&s, &side, &orders).is_empty());
}
