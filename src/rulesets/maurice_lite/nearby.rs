//! The units near a moving unit, found through spatial indexes instead of a
//! scan of the whole table, for the moves of one side's March (chapter 6).
//!
//! The enemy stands still while a side marches, so its bases are laid out
//! and indexed once; friends are indexed by their boxes and re-indexed as
//! each one moves. Every query is conservative and answers in table order,
//! so the rules that test the exact geometry of what is returned decide as
//! they would after a scan.

use super::reach::Barriers;
use super::state::State;
use crate::geometry::{Base, Bounds, BoxIndex};
use crate::side::SideId;

/// The table as one side's March sees it.
pub struct Nearby {
    side: SideId,
    /// Enemy bases on the table, in table order, with their boxes.
    enemy: Vec<(Base, Bounds)>,
    enemy_index: BoxIndex,
    /// Each unit's box by its place in `State::units`, as indexed.
    boxes: Vec<Option<Bounds>>,
    friends: BoxIndex,
    /// Impassable ground, round which "near the enemy" is measured.
    pub barriers: Barriers,
}

impl Nearby {
    /// Index the table for a March of `side`.
    pub fn new(state: &State, side: &SideId) -> Nearby {
        let m = state.scenario.measure;
        let enemy: Vec<(Base, Bounds)> = state
            .enemies(side)
            .flat_map(|e| e.bases(&m))
            .map(|b| (b, Bounds::of_base(&b)))
            .collect();
        let enemy_index = BoxIndex::new(enemy.iter().enumerate().map(|(i, (_, b))| (*b, i)));
        let boxes: Vec<Option<Bounds>> = state
            .units
            .iter()
            .map(|u| (&u.side == side).then(|| unit_box(state, u)).flatten())
            .collect();
        let friends = BoxIndex::new(
            boxes
                .iter()
                .enumerate()
                .filter_map(|(i, b)| b.map(|b| (b, i)))
                .collect::<Vec<_>>(),
        );
        Nearby {
            side: side.clone(),
            enemy,
            enemy_index,
            boxes,
            friends,
            barriers: Barriers::of(state),
        }
    }

    /// Enemy bases whose boxes are at most `d` from `reach` (all of them
    /// without a reach), in table order.
    pub fn enemy_bases(&self, reach: Option<&Bounds>, d: f64) -> Vec<Base> {
        match reach {
            Some(r) => self
                .enemy_index
                .near(r, d)
                .into_iter()
                .map(|i| self.enemy[i].0)
                .filter(|b| Bounds::of_base(b).gap(r) <= d)
                .collect(),
            None => self.enemy.iter().map(|(b, _)| *b).collect(),
        }
    }

    /// Places in `State::units` of the units of the side whose boxes may
    /// be within `d` of one of `near`, in table order.
    pub fn friends_near(&self, near: &[Bounds], d: f64) -> Vec<usize> {
        let mut v: Vec<usize> = near.iter().flat_map(|b| self.friends.near(b, d)).collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// Re-index unit `id` after it moved.
    pub fn moved(&mut self, state: &State, id: &str) {
        let Some(i) = state.units.iter().position(|u| u.id == id) else {
            return;
        };
        if let Some(old) = self.boxes[i].take() {
            self.friends.remove(old, i);
        }
        let u = &state.units[i];
        if u.side == self.side
            && let Some(b) = unit_box(state, u)
        {
            self.friends.insert(b, i);
            self.boxes[i] = Some(b);
        }
    }
}

/// The box of a unit's bases; none off the table.
fn unit_box(state: &State, u: &super::units::Unit) -> Option<Bounds> {
    Bounds::of_points(
        u.bases(&state.scenario.measure)
            .iter()
            .flat_map(|b| b.corners()),
    )
}
