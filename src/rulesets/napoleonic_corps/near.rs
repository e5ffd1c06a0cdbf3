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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::AnyRuleset;

    /// A generated battle's state, some of its units moved in among the
    /// enemy: as every unit would answer, and filed (moved after filing).
    fn states() -> (State, State) {
        let rules = super::super::NapoleonicCorps;
        let text =
            AnyRuleset::start(&rules, &crate::bench::generate::napoleonic(40)).expect("starts");
        let start: State = crate::yaml::from_str(&text).expect("a state");
        let mut filed = start.clone();
        filed.file_places();
        let mut plain = start;
        for (k, i) in [3usize, 17, 30].into_iter().enumerate() {
            // Front to front with an enemy of the front rank.
            let e = plain.units[44 + 2 * k].at;
            let to = Point::new(e.x + 0.5, e.y);
            plain.units[i].at = to;
            filed.units[i].at = to;
            filed.placed(i);
        }
        (plain, filed)
    }

    #[test]
    fn the_file_answers_as_every_unit_does() {
        let (plain, filed) = states();
        assert!(plain.filed_ids("blue-1").is_none());
        let mut contacts = 0;
        for u in &plain.units {
            let name = |x: Option<&Unit>| x.map(|x| x.id.clone());
            assert_eq!(
                name(filed.nearest_enemy(u)),
                name(plain.nearest_enemy(u)),
                "{}",
                u.id
            );
            let ids = |s: &State| {
                s.contacts(u)
                    .iter()
                    .map(|e| e.id.clone())
                    .collect::<Vec<_>>()
            };
            assert_eq!(ids(&filed), ids(&plain), "{}", u.id);
            contacts += ids(&plain).len();
            assert_eq!(filed.unit_index(&u.id), plain.unit_index(&u.id));
            // Everything a scan keeps within 15 cm.
            let near = filed.near_ids(u, 15.0);
            for (j, e) in plain.units.iter().enumerate() {
                if plain.gap_at_least(u, e) <= 15.0 {
                    assert!(near.contains(&j), "{} near {}", e.id, u.id);
                }
            }
            if let Some(e) = plain.nearest_enemy(u) {
                assert_eq!(
                    super::super::fire_bar::bar(&filed, u, e, &[]),
                    super::super::fire_bar::bar(&plain, u, e, &[])
                );
            }
        }
        assert!(contacts > 0, "the moved units touch enemies");
        assert_eq!(filed.unit("nobody"), None);
        assert!(filed.unfiled().filed_ids("blue-1").is_none());
    }

    #[test]
    #[should_panic(expected = "without State::placed")]
    fn a_move_the_file_was_not_told_of_is_caught() {
        let (_, mut filed) = states();
        filed.units[5].at = Point::new(1.0, 1.0);
        let u = filed.units[0].clone();
        let _ = filed.near_ids(&u, 1.0);
    }
}
