//! Choosing the cards that pay for an activation (chapter 4).

use super::state::State;

/// The fewest cards of `hand` whose spans reach `need` BW (at least one card);
/// among those, the smallest total span, so the big cards are kept. Ties go to
/// the earlier cards in the hand.
pub fn fewest(state: &State, hand: &[String], need: u32) -> Option<Vec<String>> {
    let spans: Vec<u32> = hand.iter().map(|c| state.span_of(c)).collect();
    let n = hand.len();
    if n == 0 {
        return None;
    }
    if n > 16 {
        // Too many to try every subset: take the largest spans.
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|i| std::cmp::Reverse(spans[*i]));
        let mut total = 0;
        let mut pick = Vec::new();
        for i in order {
            pick.push(hand[i].clone());
            total += spans[i];
            if total >= need {
                return Some(pick);
            }
        }
        return None;
    }
    let mut best: Option<(u32, u32, u32)> = None; // (count, total, mask)
    for mask in 1u32..(1 << n) {
        let count = mask.count_ones();
        let total: u32 = (0..n)
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| spans[i])
            .sum();
        if total < need {
            continue;
        }
        let key = (count, total, mask.reverse_bits());
        if best.is_none_or(|b| key < b) {
            best = Some(key);
        }
    }
    best.map(|(_, _, rev)| {
        let mask = rev.reverse_bits();
        (0..n)
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| hand[i].clone())
            .collect()
    })
}

/// Total span of some cards.
pub fn total_span(state: &State, cards: &[String]) -> u32 {
    cards.iter().map(|c| state.span_of(c)).sum()
}

/// The card a player gives up when he must discard one and named none:
/// the lowest span, the earliest in hand on a tie (house rule).
pub fn lowest(state: &State, hand: &[String]) -> Option<String> {
    hand.iter().min_by_key(|c| state.span_of(c)).cloned()
}

/// How an activation was paid for, once the passive side had its say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Payment {
    /// These cards pay for it.
    Paid(Vec<String>),
    /// An interrupt pushed the force out of reach: the cards played are lost
    /// and the round ends (chapter 4, Activation Foiled by the Enemy).
    Foiled { lost: Vec<String> },
}

/// After the passive side adds `extra` BW with an interrupt, the active side
/// tops up the `played` cards with the fewest more from `rest` of its hand.
pub fn pay_after_interrupt(
    state: &State,
    played: &[String],
    rest: &[String],
    need: u32,
    extra: u32,
) -> Payment {
    let have = total_span(state, played);
    let target = need + extra;
    if have >= target {
        return Payment::Paid(played.to_vec());
    }
    match fewest(state, rest, target - have) {
        Some(more) => Payment::Paid(played.iter().cloned().chain(more).collect()),
        None => Payment::Foiled {
            lost: played.to_vec(),
        },
    }
}
