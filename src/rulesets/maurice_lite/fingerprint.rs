//! Pins of the bench's fighting battle (`bench::scaling::maurice_fight_setup`):
//! the work that makes fighting fast at scale must leave every rule's
//! result, every die and every word as they were. Each pin is the SHA-256
//! of the new state's YAML, every event (YAML: visibility, kind, facts,
//! words, dice indexes) and the dice log, taken from the code before that
//! work began.

use super::MauriceLite;
use crate::bench::scaling::{fingerprint, maurice_fight_setup};

fn check(n: usize, input: &str, output: &str) {
    let fight = maurice_fight_setup(n).expect("the bench battle is set up");
    let (i, o) = fingerprint(&MauriceLite, &fight).expect("resolves");
    assert_eq!(
        i, input,
        "the bench battle at {n} a side is no longer the one pinned: \
         pin it again from code whose resolution is known to be unchanged"
    );
    assert_eq!(
        o, output,
        "chapters 4, 7 and 8 (volleys, charges, combat, falling back): \
         the resolution of the bench battle at {n} a side changed"
    );
}

#[test]
fn the_fighting_bench_battle_at_30_a_side_resolves_as_pinned() {
    check(
        30,
        "cc778b958ac3b234b4b2b89ed0a3ce7cd7913e45cf292fb68afc786b1ecbe7b5",
        "2da0f9754165d4e96f3f3acc2f4ace1d244137b90388b522a461866cbdcbde4a",
    );
}

#[test]
fn the_fighting_bench_battle_at_100_a_side_resolves_as_pinned() {
    check(
        100,
        "ce747510cf6a3d662c8bd29bcd97d2506c5913fd09bdc013ef3e635ef782e3c0",
        "d3c0c86a1db8603217756dedb5506f8311338574eb386f50ed57ec5b4f42419e",
    );
}

/// The view asks one set of paths round the enemy for its options panel
/// and its units: the panel and each unit's distance from the CinC are
/// those that searches of their own give, on the bench battle after its
/// fighting step.
#[test]
fn the_views_shared_paths_answer_as_searches_of_their_own() {
    use super::forces::activation_distance;
    use super::state::State;
    use crate::ruleset::Ruleset;
    use crate::view::Viewer;
    let f = maurice_fight_setup(30).expect("the bench battle is set up");
    let mut d = crate::dice::Dice::from_seeds([f.seed; 32], [f.seed.wrapping_add(1); 32]);
    let after = crate::ruleset::AnyRuleset::resolve(&MauriceLite, &f.state, &f.orders, &mut d)
        .expect("resolves")
        .state;
    let s: State = crate::yaml::from_str(&after).expect("state");
    let mut asked = 0;
    for me in s.armies.keys() {
        let sight = Ruleset::view(&MauriceLite, &s, &Viewer::Side(me.clone()));
        let panel = |title: &str| {
            sight
                .panels
                .iter()
                .find(|p| p.title == title)
                .unwrap_or_else(|| panic!("a panel {title}"))
        };
        let options = super::options::panel(&s, me).expect("an options panel");
        assert_eq!(panel("What you can do now").lines, options.lines);
        let units = &panel("Your units").lines;
        for (u, line) in s.live_units(me).zip(units) {
            let own = activation_distance(&s, me, &[u])
                .map(|d| format!("{d:.1} BW"))
                .unwrap_or_else(|| "cut off".into());
            assert!(
                line.ends_with(&format!(", {own} from the CinC")),
                "{line} (alone: {own})"
            );
            asked += 1;
        }
    }
    assert!(asked >= 60, "every live unit of both sides is asked");
}

/// The map an orders template's enemy comments are read from is drawn
/// without the panels, and is the very map of the whole view, for every
/// reader, on the bench battle after its fighting step.
#[test]
fn the_map_alone_is_the_views_map_for_every_reader() {
    use super::state::State;
    use crate::ruleset::Ruleset;
    use crate::view::Viewer;
    let f = maurice_fight_setup(10).expect("the bench battle is set up");
    let mut d = crate::dice::Dice::from_seeds([f.seed; 32], [f.seed.wrapping_add(1); 32]);
    let after = crate::ruleset::AnyRuleset::resolve(&MauriceLite, &f.state, &f.orders, &mut d)
        .expect("resolves")
        .state;
    let s: State = crate::yaml::from_str(&after).expect("state");
    let mut readers = vec![Viewer::Umpire, Viewer::Public];
    readers.extend(s.armies.keys().map(|k| Viewer::Side(k.clone())));
    for v in &readers {
        assert_eq!(
            Ruleset::map_view(&MauriceLite, &s, v),
            Ruleset::view(&MauriceLite, &s, v).map,
            "{v:?}"
        );
    }
}
