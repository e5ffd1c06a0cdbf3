//! Where the units stand, filed for a resolution ([`Places`]): the rules
//! that ask "which enemies are near this unit" or "who stands in this line"
//! ask the file instead of every unit on the table, and test exactly what
//! it returns, in unit order, so that no die or word changes. The file is
//! made at the start of a turn's resolution and told of every move
//! ([`State::placed`]); a state without one (the checks of orders, the
//! views) asks every unit, as before.

use super::state::{State, Unit};
use crate::geometry::{Places, Point};
use std::collections::HashMap;

/// The filed places and ids, or none. Not part of the state: never saved,
/// and two states are equal whatever their files.
#[derive(Clone, Debug, Default)]
pub struct Filed(Option<(Places, HashMap<String, Vec<usize>>)>);

impl PartialEq for Filed {
    fn eq(&self, _: &Filed) -> bool {
        true
    }
}

impl State {
    /// File where every unit stands, for the resolution that follows.
    pub fn file_places(&mut self) {
        let places = Places::new(self.units.iter().map(|u| (u.at, self.reach(u))));
        let mut ids: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, u) in self.units.iter().enumerate() {
            ids.entry(u.id.clone()).or_default().push(i);
        }
        self.filed = Filed(Some((places, ids)));
    }

    /// The state without its file: a turn's result, which callers may
    /// change as they like.
    pub fn unfiled(mut self) -> State {
        self.filed = Filed(None);
        self
    }

    /// Unit `i` was moved: the file follows it.
    pub fn placed(&mut self, i: usize) {
        let Some((to, reach)) = self.units.get(i).map(|u| (u.at, self.reach(u))) else {
            return;
        };
        if let Some((p, _)) = &mut self.filed.0 {
            p.moved(i, to, reach);
        }
    }

    /// The file, checked (in debug builds) against where the units stand:
    /// a move it was not told of would lose answers.
    fn places(&self) -> Option<&Places> {
        let (p, _) = self.filed.0.as_ref()?;
        debug_assert!(
            p.agrees(self.units.iter().map(|u| (u.at, self.reach(u))), None),
            "a unit moved without State::placed"
        );
        Some(p)
    }

    /// Indexes of the units that may be at most `d` from `u`, edge to
    /// edge (every unit whose [`State::gap_at_least`] from `u` is at most
    /// `d`, maybe more), in unit order.
    pub fn near_ids(&self, u: &Unit, d: f64) -> Vec<usize> {
        match self.places() {
            Some(p) => p.near(u.at, self.reach(u), d),
            None => (0..self.units.len()).collect(),
        }
    }

    /// Indexes of the units whose place is at most their reach and `extra`
    /// from the segment from `a` to `b` (maybe more), in unit order.
    pub fn along_ids(&self, a: Point, b: Point, extra: f64) -> Vec<usize> {
        match self.places() {
            Some(p) => p.along(a, b, extra),
            None => (0..self.units.len()).collect(),
        }
    }
}

impl State {
    /// The indexes of the units with id `id`, in unit order, when the ids
    /// are filed (ids never change in a resolution).
    pub fn filed_ids(&self, id: &str) -> Option<&[usize]> {
        let (_, ids) = self.filed.0.as_ref()?;
        Some(ids.get(id).map_or(&[], |v| v.as_slice()))
    }

    /// The answer of `among` (a nearest unit to `u`, by exact gap, among
    /// the unit indexes given) over every unit: asked of the units ever
    /// farther out until the one it gives is nearer than any unit left out
    /// could be.
    pub fn nearest_ids<'a>(
        &'a self,
        u: &Unit,
        among: impl Fn(&[usize]) -> Option<&'a Unit>,
    ) -> Option<&'a Unit> {
        let Some(p) = self.places() else {
            let all: Vec<usize> = (0..self.units.len()).collect();
            return among(&all);
        };
        // Units left out of a search `r` out are more than `r` away (their
        // bound, and so their gap, is over `r`): an answer within `r` is
        // final.
        p.growing(u.at, self.reach(u), 10.0, |ids, r| {
            let best = among(ids);
            match best {
                Some(e) if self.gap(u, e) <= r => Some(best),
                _ if r.is_infinite() => Some(best),
                _ => None,
            }
        })
        .flatten()
    }
}
