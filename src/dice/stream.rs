//! A seed's word stream and the rules that turn words into dice.
//!
//! The stream is the ChaCha20 keystream (key = seed, counter 0, nonce 0) read
//! as little-endian `u32` words. Dice are drawn from raw words with our own
//! sampling rules, never with `rand`'s helpers, whose algorithms have changed
//! between versions: a game must replay identically forever.

use super::Digest;
use rand_chacha::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};

/// The ChaCha20 word stream of one seed, counting the words it has given.
pub struct Stream {
    rng: ChaCha20Rng,
    position: u64,
}

impl Stream {
    /// The stream of `seed`, at word 0.
    pub fn new(seed: Digest) -> Stream {
        Stream {
            rng: ChaCha20Rng::from_seed(seed),
            position: 0,
        }
    }

    /// The next word.
    pub fn next_word(&mut self) -> u32 {
        self.position += 1;
        self.rng.next_u32()
    }

    /// How many words have been consumed so far, which is also the position
    /// of the next word.
    pub fn position(&self) -> u64 {
        self.position
    }

    /// A die with `sides` faces, `1..=sides`, by rejection sampling.
    ///
    /// # Panics
    /// If `sides` is 0: a die needs a face.
    pub fn roll(&mut self, sides: u32) -> u32 {
        roll_from(sides, || self.next_word())
    }

    /// Fisher-Yates shuffle, from the top index down.
    ///
    /// # Panics
    /// If `items` has more than `u32::MAX` elements.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        fisher_yates(items, |n| self.roll(n));
    }
}

/// The largest multiple of `sides` that fits below 2^32: words at or above it
/// are rejected so that every face is exactly equally likely.
pub(crate) fn acceptance_limit(sides: u32) -> u64 {
    let range = 1u64 << 32;
    range / u64::from(sides) * u64::from(sides)
}

/// A die with `sides` faces from words supplied by `next_word`: take words
/// until one is below [`acceptance_limit`], return `word mod sides + 1`.
///
/// # Panics
/// If `sides` is 0.
pub(crate) fn roll_from(sides: u32, mut next_word: impl FnMut() -> u32) -> u32 {
    assert!(sides > 0, "a die needs at least one side");
    let limit = acceptance_limit(sides);
    loop {
        let word = next_word();
        if u64::from(word) < limit {
            return word % sides + 1;
        }
    }
}

/// Fisher-Yates from the top index down: for `i` from `len-1` down to 1,
/// `j = draw(i+1) - 1`, swap `i` and `j`. `draw(n)` must return `1..=n`.
///
/// # Panics
/// If `items` has more than `u32::MAX` elements.
pub(crate) fn fisher_yates<T>(items: &mut [T], mut draw: impl FnMut(u32) -> u32) {
    assert!(
        u32::try_from(items.len()).is_ok(),
        "cannot shuffle more than u32::MAX items"
    );
    for i in (1..items.len()).rev() {
        // Fits: i + 1 <= len <= u32::MAX, checked above.
        let n = (i + 1) as u32;
        let j = (draw(n) - 1) as usize;
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;
    use std::rc::Rc;

    /// A word source that hands out `words` and counts how many it gave.
    fn words(words: &[u32]) -> (impl FnMut() -> u32 + use<>, Rc<Cell<usize>>) {
        let words = words.to_vec();
        let used = Rc::new(Cell::new(0));
        let counter = used.clone();
        let source = move || {
            let i = counter.get();
            counter.set(i + 1);
            words[i]
        };
        (source, used)
    }

    #[test]
    fn chacha20_reference_words() {
        // The reference vector in DEPENDENCIES.md, shared with PyCA cryptography.
        let seed: Digest = std::array::from_fn(|i| i as u8);
        let mut s = Stream::new(seed);
        let got: Vec<u32> = (0..4).map(|_| s.next_word()).collect();
        assert_eq!(got, vec![0x7d2bfd39, 0x6a19c5d9, 0x7703bd8d, 0x494adcb8]);
        assert_eq!(s.position(), 4);
    }

    #[test]
    fn limits() {
        // 2^32 = 4294967296; 4294967296 mod 6 = 4.
        assert_eq!(acceptance_limit(6), 4_294_967_292);
        assert_eq!(acceptance_limit(10), 4_294_967_290);
        assert_eq!(acceptance_limit(1), 1 << 32);
        assert_eq!(acceptance_limit(1 << 31), 1 << 32);
        assert_eq!(acceptance_limit(3 << 30), 3 << 30);
    }

    #[test]
    fn d6_rejects_words_at_and_above_the_limit() {
        // 4294967292 is the limit for d6: it and the three above it are rejected.
        let (src, used) = words(&[4_294_967_295, 4_294_967_292, 4_294_967_291]);
        // 4294967291 mod 6 = 5, so the face is 6.
        assert_eq!(roll_from(6, src), 6);
        assert_eq!(used.get(), 3);

        let (src, used) = words(&[4_294_967_293, 0]);
        assert_eq!(roll_from(6, src), 1);
        assert_eq!(used.get(), 2);
    }

    #[test]
    fn first_acceptable_word_is_used_at_once() {
        let (src, used) = words(&[13, 999]);
        assert_eq!(roll_from(6, src), 13 % 6 + 1);
        assert_eq!(used.get(), 1);
    }

    #[test]
    fn large_die_rejects_a_quarter_of_words() {
        // sides = 3 * 2^30: limit = sides, so words from 3 * 2^30 up are rejected.
        let sides = 3u32 << 30;
        let (src, used) = words(&[sides, u32::MAX, sides - 1]);
        assert_eq!(roll_from(sides, src), sides);
        assert_eq!(used.get(), 3);
    }

    #[test]
    fn one_sided_die_takes_one_word() {
        let (src, used) = words(&[u32::MAX]);
        assert_eq!(roll_from(1, src), 1);
        assert_eq!(used.get(), 1);
    }

    #[test]
    #[should_panic(expected = "at least one side")]
    fn zero_sided_die_panics() {
        let (src, _) = words(&[1]);
        roll_from(0, src);
    }

    #[test]
    fn shuffle_draws_from_the_top_down() {
        // Draws asked for, in order: n = 4, 3, 2. Faces 1, 3, 2 mean
        // swap(3, 0), swap(2, 2), swap(1, 1).
        let mut asked = Vec::new();
        let mut faces = [1u32, 3, 2].into_iter();
        let mut items = ['a', 'b', 'c', 'd'];
        fisher_yates(&mut items, |n| {
            asked.push(n);
            faces.next().unwrap()
        });
        assert_eq!(asked, vec![4, 3, 2]);
        assert_eq!(items, ['d', 'b', 'c', 'a']);
    }

    #[test]
    fn shuffle_of_short_slices_draws_nothing() {
        let mut draws = 0;
        let mut one = [5];
        fisher_yates(&mut one, |_| {
            draws += 1;
            1
        });
        let mut none: [u8; 0] = [];
        fisher_yates(&mut none, |_| {
            draws += 1;
            1
        });
        assert_eq!(draws, 0);
        assert_eq!(one, [5]);
    }

    #[test]
    fn stream_shuffle_matches_rolls_by_hand() {
        let seed = [42u8; 32];
        let mut items: Vec<u32> = (0..10).collect();
        Stream::new(seed).shuffle(&mut items);

        let mut by_hand: Vec<u32> = (0..10).collect();
        let mut s = Stream::new(seed);
        for i in (1..10usize).rev() {
            let j = s.roll(i as u32 + 1) - 1;
            by_hand.swap(i, j as usize);
        }
        assert_eq!(items, by_hand);
        let mut sorted = items.clone();
        sorted.sort();
        assert_eq!(sorted, (0..10).collect::<Vec<_>>());
    }

    #[test]
    fn roll_uses_stream_words() {
        let seed: Digest = std::array::from_fn(|i| i as u8);
        // 0x7d2bfd39 = 2100034873; mod 6 = 1, so the face is 2.
        let mut s = Stream::new(seed);
        assert_eq!(s.roll(6), 0x7d2bfd39 % 6 + 1);
        assert_eq!(s.position(), 1);
    }
}
