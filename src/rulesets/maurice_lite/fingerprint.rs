//! Pins of the bench's fighting battle (`bench::scaling::maurice_fight_setup`):
//! the work that makes fighting fast at scale must leave every rule's
//! result, every die and every word as they were. Each pin is the SHA-256
//! of the new state's YAML, every event (YAML: visibility, kind, facts,
//! words, dice indexes) and the dice log, taken from the code before that
//! work began.

use super::MauriceLite;
use crate::bench::scaling::maurice_fight_setup;
use crate::dice::Dice;
use crate::ruleset::AnyRuleset;
use sha2::{Digest, Sha256};

fn sha(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// The battle at `n` a side: the fingerprint of its input (state and
/// orders), and of its resolution.
fn fingerprint(n: usize) -> (String, String) {
    let fight = maurice_fight_setup(n).expect("the bench battle is set up");
    let (state, orders) = (fight.state, fight.orders);
    let input = sha(format!(
        "{state}\n{}",
        crate::yaml::to_string(&orders).expect("yaml")
    )
    .as_bytes());
    let mut dice = Dice::from_seeds([7; 32], [8; 32]);
    let res = AnyRuleset::resolve(&MauriceLite, &state, &orders, &mut dice).expect("resolves");
    let mut h = Sha256::new();
    h.update(res.state.as_bytes());
    for e in &res.events {
        h.update(crate::yaml::to_string(e).expect("yaml").as_bytes());
    }
    h.update(
        crate::yaml::to_string(&dice.log().to_vec())
            .expect("yaml")
            .as_bytes(),
    );
    (input, hex::encode(h.finalize()))
}

fn check(n: usize, input: &str, output: &str) {
    let (i, o) = fingerprint(n);
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
        "448b6c1e13efd456c1d313f5ddf50597df82619b0f2ee4434ab553253a46a4f8",
    );
}

#[test]
fn the_fighting_bench_battle_at_100_a_side_resolves_as_pinned() {
    check(
        100,
        "ce747510cf6a3d662c8bd29bcd97d2506c5913fd09bdc013ef3e635ef782e3c0",
        "e2bd81058d12fd91c60ada99fbc92e9b70f12d2433201d7e10811cbbc8ef05f1",
    );
}
