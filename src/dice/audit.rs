//! The audit: replay a stream from its seed and compare it with a dice log.

use super::stream::Stream;
use super::{DieRecord, Digest, StreamKind};
use thiserror::Error;

/// Why a logged die does not match its replayed stream. `record` counts from
/// 0 within the records checked.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DiceMismatch {
    #[error("record {record} is from the {found} stream, but the {expected} stream was checked")]
    WrongStream {
        record: usize,
        expected: StreamKind,
        found: StreamKind,
    },
    #[error("record {record} claims a die of {sides} sides, which cannot be rolled")]
    NoSides { record: usize, sides: u32 },
    #[error("record {record} claims {stream} word {found}, but the replay is at word {expected}")]
    Index {
        record: usize,
        stream: StreamKind,
        expected: u64,
        found: u64,
    },
    #[error(
        "record {record} ({stream} word {index}, d{sides}) shows {found}, but the stream gives {expected}"
    )]
    Value {
        record: usize,
        stream: StreamKind,
        index: u64,
        sides: u32,
        expected: u32,
        found: u32,
    },
}

/// Replays the stream of `seed` and checks that `records` (all of stream
/// `kind`, in log order) are exactly the dice it gives: each record's index is
/// where the replay stands and its value is the die the replay rolls.
///
/// The log comes from outside (a saved game, a report), so a malformed record
/// is an error, never a panic.
pub fn check_stream(
    seed: Digest,
    kind: StreamKind,
    records: &[DieRecord],
) -> Result<(), DiceMismatch> {
    let mut stream = Stream::new(seed);
    for (record, r) in records.iter().enumerate() {
        if r.stream != kind {
            return Err(DiceMismatch::WrongStream {
                record,
                expected: kind,
                found: r.stream,
            });
        }
        if r.sides == 0 {
            return Err(DiceMismatch::NoSides {
                record,
                sides: r.sides,
            });
        }
        let expected = stream.position();
        if r.index != expected {
            return Err(DiceMismatch::Index {
                record,
                stream: kind,
                expected,
                found: r.index,
            });
        }
        let value = stream.roll(r.sides);
        if r.value != value {
            return Err(DiceMismatch::Value {
                record,
                stream: kind,
                index: r.index,
                sides: r.sides,
                expected: value,
                found: r.value,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Dice;

    fn rolled() -> (Digest, Vec<DieRecord>) {
        let p = [11u8; 32];
        let mut d = Dice::from_seeds(p, [12u8; 32]);
        d.d6("a");
        d.two_d6("b");
        d.d10("c");
        d.shuffle(StreamKind::Public, &mut [1, 2, 3, 4], "d");
        d.average_die("e");
        (p, d.take_log())
    }

    #[test]
    fn a_true_log_passes() {
        let (p, log) = rolled();
        assert_eq!(check_stream(p, StreamKind::Public, &log), Ok(()));
        assert_eq!(check_stream(p, StreamKind::Public, &[]), Ok(()));
    }

    #[test]
    fn a_changed_value_is_caught() {
        let (p, mut log) = rolled();
        let old = log[2].value;
        log[2].value = old % 6 + 1;
        let err = check_stream(p, StreamKind::Public, &log).unwrap_err();
        assert_eq!(
            err,
            DiceMismatch::Value {
                record: 2,
                stream: StreamKind::Public,
                index: 2,
                sides: 6,
                expected: old,
                found: old % 6 + 1
            }
        );
        assert!(err.to_string().contains("record 2"), "{err}");
    }

    #[test]
    fn a_changed_index_is_caught() {
        let (p, mut log) = rolled();
        log[3].index += 1;
        let err = check_stream(p, StreamKind::Public, &log).unwrap_err();
        assert_eq!(
            err,
            DiceMismatch::Index {
                record: 3,
                stream: StreamKind::Public,
                expected: 3,
                found: 4
            }
        );
        assert_eq!(
            err.to_string(),
            "record 3 claims public word 4, but the replay is at word 3"
        );
    }

    #[test]
    fn a_dropped_die_is_caught() {
        let (p, mut log) = rolled();
        log.remove(1);
        let err = check_stream(p, StreamKind::Public, &log).unwrap_err();
        assert!(matches!(
            err,
            DiceMismatch::Index {
                record: 1,
                expected: 1,
                found: 2,
                ..
            }
        ));
    }

    #[test]
    fn the_wrong_seed_is_caught() {
        let (_, log) = rolled();
        let err = check_stream([12u8; 32], StreamKind::Public, &log).unwrap_err();
        assert!(matches!(err, DiceMismatch::Value { .. }), "{err}");
    }

    #[test]
    fn a_record_of_the_other_stream_is_caught() {
        let (p, mut log) = rolled();
        log[4].stream = StreamKind::Hidden;
        let err = check_stream(p, StreamKind::Public, &log).unwrap_err();
        assert_eq!(
            err,
            DiceMismatch::WrongStream {
                record: 4,
                expected: StreamKind::Public,
                found: StreamKind::Hidden
            }
        );
    }

    #[test]
    fn a_zero_sided_record_is_an_error_not_a_panic() {
        let (p, mut log) = rolled();
        log[0].sides = 0;
        let err = check_stream(p, StreamKind::Public, &log).unwrap_err();
        assert_eq!(
            err,
            DiceMismatch::NoSides {
                record: 0,
                sides: 0
            }
        );
    }
}
