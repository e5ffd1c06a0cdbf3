//! E.4 rallying, with E.7n stubborn troops.

use crate::advanced::*;
use crate::common::*;
use galloper::rulesets::morschauser_macduff::state::State;
use galloper::rulesets::morschauser_macduff::units::Quality;

/// b-hc (4 SP) with 3 hits at (40, 20), its brigadier b-gen beside it.
fn shaken() -> State {
    let mut s = table();
    only(&mut s, &["b-hc"]);
    s.scenario.options.rallying = true;
    place(&mut s, "b-hc", 40.0, 20.0, 0.0);
    s.company_mut("b-hc").unwrap().hits = 3;
    general(&mut s, "b-gen", (40.0, 16.5), &["b-hc"], None);
    s
}

fn hits(s: &State) -> u32 {
    s.company("b-hc").unwrap().hits
}

#[test]
fn e4_5_or_6_removes_half_the_hits_rounded_down() {
    let s = shaken();
    let r = run(&s, turn(vec![]), vec![5]);
    assert_eq!(hits(r.state()), 2, "{:?}", r.texts);
    assert!(r.dice[0].1.contains("rally with General Gen b-gen (E.4)"));
    let r = run(&s, turn(vec![]), vec![4]);
    assert_eq!(hits(r.state()), 3);
    // Off: no die.
    let mut off = s.clone();
    off.scenario.options.rallying = false;
    assert!(run(&off, turn(vec![]), vec![]).dice.is_empty());
}

#[test]
fn e4_e7n_modifiers_charismatic_elite_stubborn_militia() {
    let mut s = shaken();
    spec_mut(&mut s, "b-gen").charismatic = true;
    assert_eq!(hits(run(&s, turn(vec![]), vec![4]).state()), 2);
    for q in [Quality::Elite, Quality::Stubborn] {
        let mut s = shaken();
        qualities(&mut s, "b-hc", &[q]);
        assert_eq!(hits(run(&s, turn(vec![]), vec![4]).state()), 2, "{q:?}");
    }
    let mut s = shaken();
    qualities(&mut s, "b-hc", &[Quality::Militia]);
    assert_eq!(hits(run(&s, turn(vec![]), vec![5]).state()), 3);
    assert_eq!(hits(run(&s, turn(vec![]), vec![6]).state()), 2);
}

#[test]
fn e4_no_rally_within_3_inches_of_an_enemy_or_without_a_general() {
    let mut s = shaken();
    place(&mut s, "r-li", 40.0, 22.5, 180.0);
    // It must attack Red (B.6), but rolls no rally die: only melee dice.
    let r = run(&s, turn(vec![]), vec![6; 5]);
    assert!(
        r.dice.iter().all(|(_, p)| !p.contains("rally")),
        "{:?}",
        r.dice
    );
    assert!(r.has("must attack"));
    // General too far off (more than 1" from the base).
    let mut s = shaken();
    s.generals[0].at.y = 10.0;
    assert!(run(&s, turn(vec![]), vec![]).dice.is_empty());
    // Attached to it, he has joined it wherever his marker stands.
    s.generals[0].attached = Some("b-hc".into());
    assert_eq!(hits(run(&s, turn(vec![]), vec![6]).state()), 2);
    // A general who is not its brigadier nor above him does not count.
    let mut s = shaken();
    spec_mut(&mut s, "b-gen").commands.clear();
    assert!(run(&s, turn(vec![]), vec![]).dice.is_empty());
    // The brigadier's superior does: b-chief commands it from afar and
    // answers to b-gen, who stands beside it.
    general(&mut s, "b-chief", (60.0, 40.0), &["b-hc"], None);
    spec_mut(&mut s, "b-chief").under = Some("b-gen".into());
    assert_eq!(hits(run(&s, turn(vec![]), vec![5]).state()), 2);
}

#[test]
fn e4_e1_a_formed_regiment_rallies_on_one_die() {
    let mut s = table();
    only(&mut s, &["b-li", "b-li2"]);
    s.scenario.options.rallying = true;
    s.company_mut("b-li").unwrap().hits = 2;
    s.company_mut("b-li2").unwrap().hits = 3;
    general(&mut s, "b-gen", (10.0, 1.5), &["b-reg"], None);
    let r = run(&s, turn(vec![]), vec![6]);
    assert_eq!(r.dice.len(), 1, "{:?}", r.dice);
    assert_eq!(r.state().company("b-li").unwrap().hits, 1);
    assert_eq!(r.state().company("b-li2").unwrap().hits, 2);
}
