//! [`Dice`]: what a ruleset rolls with during one step.
//!
//! Every die is logged with its stream, position, sides, value and purpose,
//! so that the report can show it and anyone holding the seed can replay it.

use super::stream::{Stream, fisher_yates};
use super::{DieRecord, Digest, StreamKind};

/// Test and sandbox dice: the script and how far it has been used.
struct Script {
    values: Vec<u32>,
    next: usize,
}

/// The dice of one step, with the log of every die rolled.
pub struct Dice {
    public: Stream,
    hidden: Stream,
    /// When set, dice come from the script; once it is used up they come
    /// from `public`, which then holds the all-zero-seed stream, for both kinds.
    script: Option<Script>,
    log: Vec<DieRecord>,
}

/// The average die's faces, indexed by a d6 minus one.
const AVERAGE_FACES: [u32; 6] = [2, 3, 3, 4, 4, 5];

impl Dice {
    /// Dice drawn from the step's public and hidden seeds.
    pub fn from_seeds(public: Digest, hidden: Digest) -> Dice {
        Dice {
            public: Stream::new(public),
            hidden: Stream::new(hidden),
            script: None,
            log: Vec::new(),
        }
    }

    /// Test and sandbox dice: `values` are handed out in call order, one
    /// script shared by both streams. A value above `sides` wraps as
    /// `((v - 1) mod sides) + 1` (so 0 counts as `sides`). When the script runs
    /// out, dice continue from the stream of the all-zero seed and
    /// [`script_ran_out`](Self::script_ran_out) becomes true.
    ///
    /// Records carry the script position as their index; dice from the
    /// fallback stream continue the count (script length + stream position).
    pub fn scripted(values: Vec<u32>) -> Dice {
        Dice {
            public: Stream::new([0u8; 32]),
            hidden: Stream::new([0u8; 32]),
            script: Some(Script { values, next: 0 }),
            log: Vec::new(),
        }
    }

    /// One die of `sides` faces from stream `kind`, logged; `1..=sides`.
    ///
    /// # Panics
    /// If `sides` is 0.
    pub fn roll(&mut self, kind: StreamKind, sides: u32, purpose: impl Into<String>) -> u32 {
        let (index, value) = self.draw(kind, sides);
        self.log.push(DieRecord {
            stream: kind,
            index,
            sides,
            value,
            purpose: purpose.into(),
        });
        value
    }

    /// A public d6.
    pub fn d6(&mut self, purpose: impl Into<String>) -> u32 {
        self.roll(StreamKind::Public, 6, purpose)
    }

    /// A public d10.
    pub fn d10(&mut self, purpose: impl Into<String>) -> u32 {
        self.roll(StreamKind::Public, 10, purpose)
    }

    /// A public average die: a d6 read as 2, 3, 3, 4, 4, 5. The log keeps
    /// the d6 as rolled, so the audit replays it like any other d6.
    pub fn average_die(&mut self, purpose: impl Into<String>) -> u32 {
        let face = self.d6(purpose);
        AVERAGE_FACES[(face - 1) as usize]
    }

    /// Two public d6, logged as two dice, summed.
    pub fn two_d6(&mut self, purpose: impl Into<String>) -> u32 {
        let purpose = purpose.into();
        let first = self.d6(purpose.clone());
        let second = self.d6(purpose);
        first + second
    }

    /// Fisher-Yates shuffle from stream `kind` (see [`Stream::shuffle`]);
    /// every draw is logged, with `purpose`.
    ///
    /// # Panics
    /// If `items` has more than `u32::MAX` elements.
    pub fn shuffle<T>(&mut self, kind: StreamKind, items: &mut [T], purpose: &str) {
        fisher_yates(items, |n| self.roll(kind, n, purpose));
    }

    /// Every die rolled so far, in order.
    pub fn log(&self) -> &[DieRecord] {
        &self.log
    }

    /// Hands over the log, leaving it empty; the streams carry on.
    pub fn take_log(&mut self) -> Vec<DieRecord> {
        std::mem::take(&mut self.log)
    }

    /// Index in [`log`](Self::log) of the latest die, for an event to cite.
    pub fn last_index(&self) -> Option<usize> {
        self.log.len().checked_sub(1)
    }

    /// Whether scripted dice have used up their script (always false for
    /// seeded dice). A test that expects its script to suffice checks this.
    pub fn script_ran_out(&self) -> bool {
        self.script
            .as_ref()
            .is_some_and(|s| s.next >= s.values.len())
    }

    /// The index to record and the value of one die.
    fn draw(&mut self, kind: StreamKind, sides: u32) -> (u64, u32) {
        match &mut self.script {
            None => {
                let stream = match kind {
                    StreamKind::Public => &mut self.public,
                    StreamKind::Hidden => &mut self.hidden,
                };
                (stream.position(), stream.roll(sides))
            }
            Some(script) => match script.values.get(script.next) {
                Some(&v) => {
                    assert!(sides > 0, "a die needs at least one side");
                    let index = script.next as u64;
                    script.next += 1;
                    (index, wrap(v, sides))
                }
                None => {
                    let index = script.values.len() as u64 + self.public.position();
                    (index, self.public.roll(sides))
                }
            },
        }
    }
}

/// `((v - 1) mod sides) + 1` with a true modulus, so 0 maps to `sides`.
fn wrap(v: u32, sides: u32) -> u32 {
    let v = i64::from(v) - 1;
    (v.rem_euclid(i64::from(sides)) + 1) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::protocol;

    #[test]
    fn scripted_values_in_call_order_across_streams() {
        let mut d = Dice::scripted(vec![3, 5, 1, 2]);
        assert_eq!(d.d6("charge"), 3);
        assert_eq!(d.roll(StreamKind::Hidden, 6, "secret"), 5);
        assert_eq!(d.d10("fire"), 1);
        assert_eq!(d.last_index(), Some(2));
        assert!(!d.script_ran_out());
        assert_eq!(d.d6("rally"), 2);
        assert!(d.script_ran_out());

        let log = d.log();
        assert_eq!(log.len(), 4);
        assert_eq!(
            log[1],
            DieRecord {
                stream: StreamKind::Hidden,
                index: 1,
                sides: 6,
                value: 5,
                purpose: "secret".into()
            }
        );
        assert_eq!(
            log.iter().map(|r| r.index).collect::<Vec<_>>(),
            vec![0, 1, 2, 3]
        );
    }

    #[test]
    fn scripted_values_wrap() {
        let mut d = Dice::scripted(vec![7, 12, 13, 0, 10]);
        assert_eq!(d.d6("a"), 1);
        assert_eq!(d.d6("b"), 6);
        assert_eq!(d.d6("c"), 1);
        assert_eq!(d.d6("d"), 6);
        assert_eq!(d.d10("e"), 10);
        assert!(d.script_ran_out());
    }

    #[test]
    fn scripted_dice_fall_back_to_the_zero_seed_stream() {
        let mut d = Dice::scripted(vec![4]);
        assert_eq!(d.d6("scripted"), 4);
        assert!(d.script_ran_out());
        let after: Vec<u32> = (0..5).map(|_| d.d6("fallback")).collect();

        let mut zero = Stream::new([0u8; 32]);
        let expected: Vec<u32> = (0..5).map(|_| zero.roll(6)).collect();
        assert_eq!(after, expected);
        assert_eq!(
            d.log().iter().map(|r| r.index).collect::<Vec<_>>(),
            vec![0, 1, 2, 3, 4, 5]
        );
        assert!(d.script_ran_out());
    }

    #[test]
    fn empty_script_runs_out_at_once() {
        let d = Dice::scripted(Vec::new());
        assert!(d.script_ran_out());
        assert!(!Dice::from_seeds([0; 32], [0; 32]).script_ran_out());
    }

    #[test]
    fn average_die_maps_faces() {
        let mut d = Dice::scripted(vec![1, 2, 3, 4, 5, 6]);
        let got: Vec<u32> = (0..6).map(|_| d.average_die("morale")).collect();
        assert_eq!(got, vec![2, 3, 3, 4, 4, 5]);
        // The log keeps the d6 as rolled.
        assert_eq!(d.log()[5].value, 6);
        assert_eq!(d.log()[5].sides, 6);
    }

    #[test]
    fn two_d6_logs_two_dice() {
        let mut d = Dice::scripted(vec![2, 6]);
        assert_eq!(d.two_d6("initiative"), 8);
        assert_eq!(d.log().len(), 2);
        assert_eq!(d.log()[0].value, 2);
        assert_eq!(d.log()[1].value, 6);
        assert!(
            d.log()
                .iter()
                .all(|r| r.purpose == "initiative" && r.stream == StreamKind::Public)
        );
    }

    #[test]
    fn seeded_dice_use_their_own_stream_and_record_positions() {
        let (p, h) = ([1u8; 32], [2u8; 32]);
        let mut d = Dice::from_seeds(p, h);
        let a = d.d6("a");
        let b = d.roll(StreamKind::Hidden, 10, "b");
        let c = d.d6("c");

        let mut ps = Stream::new(p);
        let mut hs = Stream::new(h);
        assert_eq!((a, c), (ps.roll(6), ps.roll(6)));
        assert_eq!(b, hs.roll(10));
        let idx: Vec<(StreamKind, u64)> = d.log().iter().map(|r| (r.stream, r.index)).collect();
        assert_eq!(
            idx,
            vec![
                (StreamKind::Public, 0),
                (StreamKind::Hidden, 0),
                (StreamKind::Public, 1)
            ]
        );
    }

    #[test]
    fn shuffle_logs_each_draw_and_matches_stream_shuffle() {
        let h = protocol::seed(StreamKind::Hidden, &[3u8; 32], &[]);
        let mut d = Dice::from_seeds([0; 32], h);
        let mut deck: Vec<u32> = (0..8).collect();
        d.shuffle(StreamKind::Hidden, &mut deck, "chance deck");

        let mut expected: Vec<u32> = (0..8).collect();
        Stream::new(h).shuffle(&mut expected);
        assert_eq!(deck, expected);

        let log = d.take_log();
        assert_eq!(log.len(), 7);
        assert_eq!(
            log.iter().map(|r| r.sides).collect::<Vec<_>>(),
            vec![8, 7, 6, 5, 4, 3, 2]
        );
        assert!(
            log.iter()
                .all(|r| r.stream == StreamKind::Hidden && r.purpose == "chance deck")
        );
        assert!(d.log().is_empty());
        assert_eq!(d.last_index(), None);
    }

    #[test]
    fn scripted_shuffle() {
        // Draws n = 3 then n = 2: face 1 swaps 2 with 0; face 2 keeps 1 in place.
        let mut d = Dice::scripted(vec![1, 2]);
        let mut items = ['x', 'y', 'z'];
        d.shuffle(StreamKind::Hidden, &mut items, "order");
        assert_eq!(items, ['z', 'y', 'x']);
        assert!(d.script_ran_out());
    }

    #[test]
    fn take_log_keeps_the_streams_going() {
        let p = [5u8; 32];
        let mut d = Dice::from_seeds(p, [0; 32]);
        d.d6("first");
        d.take_log();
        d.d6("second");
        assert_eq!(d.log()[0].index, 1);
    }
}
