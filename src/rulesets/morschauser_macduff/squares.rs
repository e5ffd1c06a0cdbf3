//! E.6: infantry squares.

use super::state::{Company, State};
use crate::geometry::{Base, Distance, base_distance};

/// How close two bases must be to count as in contact, in inches.
const CONTACT: f64 = 0.1;

/// Whether `c` is part of a square: the option is on, it is infantry that
/// did not move in its side's last half-turn, and another such company is in
/// contact back to back or back to side with it.
pub fn in_square(s: &State, c: &Company) -> bool {
    if !s.scenario.options.squares || !still_infantry(c) {
        return false;
    }
    s.live(&c.side)
        .filter(|o| o.id != c.id && still_infantry(o))
        .any(|o| back_contact(s, c, o) || back_contact(s, o, c))
}

fn still_infantry(c: &Company) -> bool {
    c.profile.troop.is_infantry() && !c.moved
}

/// `a`'s rear edge touches `b`, and they face at least a right angle apart
/// (back to back, or `a`'s back against `b`'s side).
fn back_contact(s: &State, a: &Company, b: &Company) -> bool {
    let sc = &s.scenario;
    let apart = a.facing.difference_to(b.facing).abs();
    if apart < 80.0 {
        return false;
    }
    let ab = a.base(sc);
    let rear = Base::new(
        ab.rear_center(),
        ab.facing,
        Distance(ab.width.get() * 0.8),
        Distance(0.02),
    );
    base_distance(&rear, &b.base(sc)).get() <= CONTACT
}
