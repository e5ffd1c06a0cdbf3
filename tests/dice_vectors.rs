//! The published dice vectors (tests/data/dice-vectors.json, also in
//! docs/DICE.md): the Rust code must reproduce every value.
//! tests/dice_vectors.py checks the same file with an independent
//! implementation.

use galloper::dice::protocol::{self, Digest, Secret};
use galloper::dice::stream::Stream;
use galloper::dice::{Dice, DieRecord, StreamKind, check_stream};
use serde::Deserialize;

#[derive(Deserialize)]
struct File {
    chacha20_reference: Reference,
    vectors: Vec<Vector>,
}

#[derive(Deserialize)]
struct Reference {
    seed: String,
    words: Vec<String>,
}

#[derive(Deserialize)]
struct Orders {
    side: String,
    bytes: String,
}

#[derive(Deserialize)]
struct Roll {
    index: u64,
    value: u32,
}

#[derive(Deserialize)]
struct BigDie {
    sides: u32,
    rolls: Vec<Roll>,
}

#[derive(Deserialize)]
struct Vector {
    name: String,
    game: String,
    step: u32,
    public_secret: String,
    hidden_secret: String,
    orders: Vec<Orders>,
    commit_public: String,
    commit_hidden: String,
    order_hashes: Vec<String>,
    mix: String,
    public_seed: String,
    hidden_seed: String,
    public_words: Vec<String>,
    hidden_words: Vec<String>,
    public_d6: Vec<u32>,
    public_d10: Vec<u32>,
    hidden_shuffle: Vec<u32>,
    public_big_die: BigDie,
}

fn load() -> File {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/dice-vectors.json");
    let text = std::fs::read_to_string(path).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn bytes32(hex_text: &str) -> [u8; 32] {
    hex::decode(hex_text).unwrap().try_into().unwrap()
}

fn words(seed: Digest, n: usize) -> Vec<String> {
    let mut s = Stream::new(seed);
    (0..n).map(|_| format!("{:08x}", s.next_word())).collect()
}

#[test]
fn chacha20_reference_words() {
    let file = load();
    let r = &file.chacha20_reference;
    assert_eq!(words(bytes32(&r.seed), r.words.len()), r.words);
    assert_eq!(
        r.words[..4],
        ["7d2bfd39", "6a19c5d9", "7703bd8d", "494adcb8"]
    );
}

#[test]
fn vectors_reproduce() {
    let file = load();
    assert_eq!(file.vectors.len(), 3);
    for v in &file.vectors {
        let name = &v.name;
        let p: Secret = bytes32(&v.public_secret);
        let h: Secret = bytes32(&v.hidden_secret);

        let commit_p = protocol::commit(StreamKind::Public, &v.game, v.step, &p);
        let commit_h = protocol::commit(StreamKind::Hidden, &v.game, v.step, &h);
        assert_eq!(
            hex::encode(commit_p),
            v.commit_public,
            "{name}: public commitment"
        );
        assert_eq!(
            hex::encode(commit_h),
            v.commit_hidden,
            "{name}: hidden commitment"
        );

        assert!(
            v.orders.iter().all(|o| !o.side.is_empty()),
            "{name}: side names"
        );
        let hashes: Vec<Digest> = v
            .orders
            .iter()
            .map(|o| protocol::order_hash(&hex::decode(&o.bytes).unwrap()))
            .collect();
        let hash_hex: Vec<String> = hashes.iter().map(hex::encode).collect();
        assert_eq!(hash_hex, v.order_hashes, "{name}: order hashes");
        let mix = protocol::mix(&hashes);
        assert_eq!(hex::encode(&mix), v.mix, "{name}: mix");

        let ps = protocol::seed(StreamKind::Public, &p, &mix);
        let hs = protocol::seed(StreamKind::Hidden, &h, &mix);
        assert_eq!(hex::encode(ps), v.public_seed, "{name}: public seed");
        assert_eq!(hex::encode(hs), v.hidden_seed, "{name}: hidden seed");
        assert_eq!(words(ps, 8), v.public_words, "{name}: public words");
        assert_eq!(words(hs, 8), v.hidden_words, "{name}: hidden words");

        // Through Dice, as a ruleset rolls them; each list from a fresh stream.
        let mut d = Dice::from_seeds(ps, hs);
        let d6: Vec<u32> = (0..v.public_d6.len()).map(|_| d.d6("vector")).collect();
        assert_eq!(d6, v.public_d6, "{name}: d6");
        assert_eq!(
            check_stream(ps, StreamKind::Public, d.log()),
            Ok(()),
            "{name}: d6 audit"
        );

        let mut d = Dice::from_seeds(ps, hs);
        let d10: Vec<u32> = (0..v.public_d10.len()).map(|_| d.d10("vector")).collect();
        assert_eq!(d10, v.public_d10, "{name}: d10");

        let mut d = Dice::from_seeds(ps, hs);
        let mut deck: Vec<u32> = (0..v.hidden_shuffle.len() as u32).collect();
        d.shuffle(StreamKind::Hidden, &mut deck, "vector");
        assert_eq!(deck, v.hidden_shuffle, "{name}: hidden shuffle");
        assert_eq!(
            check_stream(hs, StreamKind::Hidden, d.log()),
            Ok(()),
            "{name}: shuffle audit"
        );

        let big = &v.public_big_die;
        let mut d = Dice::from_seeds(ps, hs);
        for _ in &big.rolls {
            d.roll(StreamKind::Public, big.sides, "vector");
        }
        let got: Vec<(u64, u32)> = d.log().iter().map(|r| (r.index, r.value)).collect();
        let want: Vec<(u64, u32)> = big.rolls.iter().map(|r| (r.index, r.value)).collect();
        assert_eq!(got, want, "{name}: big die");
    }
}

#[test]
fn vectors_exercise_rejection_and_an_empty_mix() {
    let file = load();
    // At least one big-die roll skipped a rejected word, so the vectors pin
    // down the rejection rule and not only `word mod sides`.
    let skipped = file.vectors.iter().any(|v| {
        v.public_big_die
            .rolls
            .windows(2)
            .any(|w| w[1].index > w[0].index + 1)
            || v.public_big_die.rolls.first().is_some_and(|r| r.index > 0)
    });
    assert!(skipped);
    assert!(
        file.vectors
            .iter()
            .any(|v| v.orders.is_empty() && v.mix.is_empty())
    );
}

#[test]
fn a_tampered_vector_log_fails_the_audit() {
    let file = load();
    let v = &file.vectors[0];
    let ps = bytes32(&v.public_seed);
    let mut log: Vec<DieRecord> = v
        .public_d6
        .iter()
        .enumerate()
        .map(|(i, &value)| DieRecord {
            stream: StreamKind::Public,
            index: i as u64,
            sides: 6,
            value,
            purpose: "vector".into(),
        })
        .collect();
    assert_eq!(check_stream(ps, StreamKind::Public, &log), Ok(()));
    log[7].value = log[7].value % 6 + 1;
    assert!(check_stream(ps, StreamKind::Public, &log).is_err());
}

#[test]
fn docs_carry_the_same_vectors() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/DICE.md");
    let doc = std::fs::read_to_string(path).unwrap();
    let file = load();
    let join = |xs: &[u32]| xs.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
    for v in &file.vectors {
        let mut expected = vec![
            v.public_secret.clone(),
            v.hidden_secret.clone(),
            v.commit_public.clone(),
            v.commit_hidden.clone(),
            v.public_seed.clone(),
            v.hidden_seed.clone(),
            v.public_words.join(" "),
            v.hidden_words.join(" "),
            format!("| {} |", join(&v.public_d6)),
            format!("| {} |", join(&v.public_d10)),
            format!("| {} |", join(&v.hidden_shuffle)),
        ];
        expected.extend(v.order_hashes.iter().cloned());
        if !v.mix.is_empty() {
            expected.push(v.mix.clone());
        }
        let rolls: Vec<String> = v
            .public_big_die
            .rolls
            .iter()
            .map(|r| format!("{}:{}", r.index, r.value))
            .collect();
        expected.push(rolls.join(", "));
        for text in expected {
            assert!(doc.contains(&text), "{}: docs/DICE.md lacks {text}", v.name);
        }
    }
}

#[derive(Deserialize)]
struct BeaconVector {
    name: String,
    based_on: String,
    public_secret: String,
    hidden_secret: String,
    mix: String,
    chain: String,
    chain_hash: String,
    round: u64,
    signature: String,
    randomness: String,
    public_seed: String,
    hidden_seed: String,
    public_words: Vec<String>,
    hidden_words: Vec<String>,
    public_d6: Vec<u32>,
    hidden_shuffle: Vec<u32>,
}

#[derive(Deserialize)]
struct BeaconFile {
    beacon_vectors: Vec<BeaconVector>,
}

fn load_beacon() -> Vec<BeaconVector> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/dice-vectors.json");
    let text = std::fs::read_to_string(path).unwrap();
    serde_json::from_str::<BeaconFile>(&text)
        .unwrap()
        .beacon_vectors
}

/// Protocol version 2: the round verifies against the chain's key (with
/// drand-verify, which tests/dice_vectors.py cannot do), and the seeds,
/// words and dice follow from it.
#[test]
fn beacon_vectors_reproduce() {
    use galloper::dice::beacon::{self, Round};
    let vectors = load_beacon();
    assert!(!vectors.is_empty());
    let file = load();
    for v in &vectors {
        let name = &v.name;
        let base = file.vectors.iter().find(|b| b.name == v.based_on).unwrap();
        assert_eq!(
            (&v.public_secret, &v.hidden_secret, &v.mix),
            (&base.public_secret, &base.hidden_secret, &base.mix),
            "{name}: the inputs of the vector it is based on"
        );
        let chain = beacon::chain(&v.chain).unwrap();
        assert_eq!(chain.hash, v.chain_hash, "{name}: chain hash");
        let round = Round {
            round: v.round,
            signature: hex::decode(&v.signature).unwrap(),
        };
        let b = chain.verify(&round).expect("a real round");
        assert_eq!(hex::encode(b), v.randomness, "{name}: randomness");
        let (p, h) = (bytes32(&v.public_secret), bytes32(&v.hidden_secret));
        let mix = hex::decode(&v.mix).unwrap();
        let ps = beacon::seed(StreamKind::Public, &p, &mix, &b);
        let hs = beacon::seed(StreamKind::Hidden, &h, &mix, &b);
        assert_eq!(hex::encode(ps), v.public_seed, "{name}: public seed");
        assert_eq!(hex::encode(hs), v.hidden_seed, "{name}: hidden seed");
        assert_ne!(hex::encode(ps), base.public_seed, "{name}: not the v1 seed");
        assert_eq!(words(ps, 8), v.public_words, "{name}: public words");
        assert_eq!(words(hs, 8), v.hidden_words, "{name}: hidden words");
        let mut d = Dice::from_seeds(ps, hs);
        let d6: Vec<u32> = (0..v.public_d6.len()).map(|_| d.d6("vector")).collect();
        assert_eq!(d6, v.public_d6, "{name}: d6");
        let mut d = Dice::from_seeds(ps, hs);
        let mut deck: Vec<u32> = (0..v.hidden_shuffle.len() as u32).collect();
        d.shuffle(StreamKind::Hidden, &mut deck, "vector");
        assert_eq!(deck, v.hidden_shuffle, "{name}: hidden shuffle");
    }
}

#[test]
fn docs_carry_the_beacon_vectors() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/DICE.md");
    let doc = std::fs::read_to_string(path).unwrap();
    let join = |xs: &[u32]| xs.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
    for v in load_beacon() {
        for text in [
            v.signature.clone(),
            v.randomness.clone(),
            v.public_seed.clone(),
            v.hidden_seed.clone(),
            v.public_words.join(" "),
            v.hidden_words.join(" "),
            format!("| {} |", join(&v.public_d6)),
            format!("| {} |", join(&v.hidden_shuffle)),
        ] {
            assert!(doc.contains(&text), "{}: docs/DICE.md lacks {text}", v.name);
        }
    }
}
