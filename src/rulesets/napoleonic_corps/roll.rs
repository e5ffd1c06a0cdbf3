//! Rolling through `Dice` with a purpose, keeping the dice log's indexes
//! for the event that reports them.

use crate::dice::Dice;

/// 2D6 with their indexes in the step's dice log.
pub fn two_d6(dice: &mut Dice, purpose: &str) -> (u32, Vec<usize>) {
    let a = dice.d6(purpose);
    let i = dice.last_index().unwrap_or(0);
    let b = dice.d6(purpose);
    (a + b, vec![i, i + 1])
}

/// One D6 with its index.
pub fn d6(dice: &mut Dice, purpose: &str) -> (u32, usize) {
    let v = dice.d6(purpose);
    (v, dice.last_index().unwrap_or(0))
}
