//! Where the units stand, filed for a move's resolution ([`Places`]), with
//! each unit's index by id and each side's units: the rules that ask which
//! enemy is nearest, which friends a move passes through, which enemies a
//! path comes near, and whether an enemy sees a unit ask the file instead
//! of every unit on the table, and test exactly what it returns, in unit
//! order, so that no die or word changes.
//!
//! Every change to a unit in a resolution goes through
//! [`State::unit_mut`]: the unit it hands out is counted as anywhere (a
//! candidate of every question) until the next call, which files it again
//! where it then stands with its then reach (a change of formation or of
//! figures changes its footprint). A state without a file (the checks of
//! orders, the views) asks every unit, as before.

use super::state::{State, Unit};
use crate::geometry::{Places, Point};
use crate::side::SideId;
use std::collections::HashMap;

/// The filed places, or none. Not part of the state: never saved, and two
/// states are equal whatever their files.
#[derive(Clone, Debug, Default)]
pub struct Filed(Option<File>);

#[derive(Clone, Debug)]
struct File {
    places: Places,
    /// Unit indexes by id, in unit order (ids never change).
    ids: HashMap<String, Vec<usize>>,
    /// Each side's unit indexes, in unit order (sides never change).
    sides: Vec<(SideId, Vec<usize>)>,
    /// The unit last handed out by `unit_mut`, maybe changed since.
    loose: Option<usize>,
}

impl PartialEq for Filed {
    fn eq(&self, _: &Filed) -> bool {
        true
    }
}

impl State {
    /// File where every unit stands, for the resolution that follows.
    pub fn file_places(&mut self) {
        let places = Places::new(self.units.iter().map(|u| (u.at, u.reach())));
        let mut ids: HashMap<String, Vec<usize>> = HashMap::new();
        let mut sides: Vec<(SideId, Vec<usize>)> = Vec::new();
        for (i, u) in self.units.iter().enumerate() {
            ids.entry(u.id.clone()).or_default().push(i);
            match sides.iter_mut().find(|(s, _)| *s == u.side) {
                Some((_, v)) => v.push(i),
                None => sides.push((u.side.clone(), vec![i])),
            }
        }
        self.filed = Filed(Some(File {
            places,
            ids,
            sides,
            loose: None,
        }));
    }

    /// The state without its file: a move's result, which callers may
    /// change as they like.
    pub fn unfiled(mut self) -> State {
        self.filed = Filed(None);
        self
    }

    /// The unit with id `id`, to change: the one change a resolution makes
    /// to units (see the module's note).
    pub fn unit_mut(&mut self, id: &str) -> Option<&mut Unit> {
        let Some(file) = &mut self.filed.0 else {
            return self.units.iter_mut().find(|u| u.id == id);
        };
        if let Some(i) = file.loose.take()
            && let Some(u) = self.units.get(i)
        {
            file.places.moved(i, u.at, u.reach());
        }
        let i = *file.ids.get(id)?.first()?;
        file.loose = Some(i);
        self.units.get_mut(i)
    }

    pub fn unit(&self, id: &str) -> Option<&Unit> {
        match &self.filed.0 {
            Some(file) => file
                .ids
                .get(id)
                .and_then(|v| v.first())
                .map(|&i| &self.units[i]),
            None => self.units.iter().find(|u| u.id == id),
        }
    }

    /// The file, checked (in debug builds) against where the units stand.
    fn file(&self) -> Option<&File> {
        let file = self.filed.0.as_ref()?;
        debug_assert!(
            file.places
                .agrees(self.units.iter().map(|u| (u.at, u.reach())), file.loose),
            "a unit changed without State::unit_mut"
        );
        Some(file)
    }

    /// With the unit handed out last, which may stand anywhere now.
    fn with_loose(file: &File, mut ids: Vec<usize>) -> Vec<usize> {
        if let Some(i) = file.loose
            && let Err(at) = ids.binary_search(&i)
        {
            ids.insert(at, i);
        }
        ids
    }

    /// Indexes of the units that may be at most `d` from a unit at `at`
    /// reaching `reach`, edge to edge (every unit whose `at.distance_to(e.at)
    /// - reach - e.reach()` is at most `d`, maybe more), in unit order.
    pub fn near_ids(&self, at: Point, reach: f64, d: f64) -> Vec<usize> {
        match self.file() {
            Some(f) => State::with_loose(f, f.places.near(at, reach, d)),
            None => (0..self.units.len()).collect(),
        }
    }

    /// Indexes of the units whose centre is at most their reach and
    /// `extra` from the segment from `a` to `b` (maybe more), in unit order.
    pub fn along_ids(&self, a: Point, b: Point, extra: f64) -> Vec<usize> {
        match self.file() {
            Some(f) => State::with_loose(f, f.places.along(a, b, extra)),
            None => (0..self.units.len()).collect(),
        }
    }

    /// The units of `side`, in unit order; of other sides too when not filed
    /// (callers test the side).
    pub fn side_units<'a>(&'a self, side: &SideId) -> Box<dyn Iterator<Item = &'a Unit> + 'a> {
        match &self.filed.0 {
            Some(f) => {
                let ids: &[usize] = f
                    .sides
                    .iter()
                    .find(|(s, _)| s == side)
                    .map_or(&[], |(_, v)| v.as_slice());
                Box::new(ids.iter().map(|&i| &self.units[i]))
            }
            None => Box::new(self.units.iter()),
        }
    }

    /// The units of every side but `side`, side by side; every unit when not
    /// filed (callers test the side).
    pub fn other_units<'a>(&'a self, side: &SideId) -> Box<dyn Iterator<Item = &'a Unit> + 'a> {
        match &self.filed.0 {
            Some(f) => {
                let side = side.clone();
                Box::new(
                    f.sides
                        .iter()
                        .filter(move |(s, _)| *s != side)
                        .flat_map(|(_, v)| v.iter().map(|&i| &self.units[i])),
                )
            }
            None => Box::new(self.units.iter()),
        }
    }

    /// The answer of `among` (a nearest unit to `u` among the unit indexes
    /// given, with the gap it is at: infinite for one that does not count)
    /// over every unit: asked of the units ever farther out until the one
    /// it gives is nearer than any unit left out could be.
    pub fn nearest_ids<'a>(
        &'a self,
        u: &Unit,
        among: impl Fn(&[usize]) -> Option<(&'a Unit, f64)>,
    ) -> Option<&'a Unit> {
        let Some(f) = self.file() else {
            let all: Vec<usize> = (0..self.units.len()).collect();
            return among(&all).map(|(e, _)| e);
        };
        // Units left out of a search `r` out are more than `r` away: an
        // answer within `r` is final.
        f.places
            .growing(u.at, u.reach(), 10.0, |ids, r| {
                let ids = State::with_loose(f, ids.to_vec());
                let best = among(&ids);
                match best {
                    Some((_, d)) if d <= r => Some(best),
                    _ if r.is_infinite() => Some(best),
                    _ => None,
                }
            })
            .flatten()
            .map(|(e, _)| e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::AnyRuleset;
    use crate::rulesets::crowther_dougan::movement::nearest_known;
    use crate::rulesets::crowther_dougan::tables::Formation;

    /// What the questions the file answers give for every unit.
    fn answers(s: &State) -> Vec<String> {
        let sides: Vec<SideId> = s.scenario.sides.iter().map(|x| x.id.clone()).collect();
        s.units
            .iter()
            .map(|u| {
                let seen: Vec<bool> = sides.iter().map(|side| s.sees(side, u)).collect();
                format!(
                    "{} {:?} {} {:?} {}",
                    u.id,
                    nearest_known(s, u),
                    s.public(u),
                    seen,
                    s.unit(&u.id).map_or(usize::MAX, |x| x.figures() as usize)
                )
            })
            .collect()
    }

    #[test]
    fn the_file_answers_as_every_unit_does_through_changes() {
        let rules = super::super::CrowtherDougan;
        let text =
            AnyRuleset::start(&rules, &crate::bench::generate::crowther(30)).expect("starts");
        let mut plain: State = crate::yaml::from_str(&text).expect("a state");
        let mut filed = plain.clone();
        filed.file_places();
        assert_eq!(answers(&filed), answers(&plain));
        let (first, other) = (plain.units[2].id.clone(), plain.units[40].id.clone());
        let to = plain.units[40].at;
        for s in [&mut plain, &mut filed] {
            // Moved in among the enemy, in another formation: while it is
            // the unit handed out, then once another one is.
            let u = s.unit_mut(&first).expect("a unit");
            u.at = Point::new(to.x + 1.0, to.y - 4.0);
            u.formation = Formation::Column;
        }
        assert_eq!(answers(&filed), answers(&plain));
        for s in [&mut plain, &mut filed] {
            let u = s.unit_mut(&other).expect("a unit");
            u.men_lost += 40;
        }
        assert_eq!(answers(&filed), answers(&plain));
        assert!(filed.unit_mut("nobody").is_none());
        assert_eq!(answers(&filed.unfiled()), answers(&plain));
    }

    #[test]
    #[should_panic(expected = "without State::unit_mut")]
    fn a_change_not_made_through_unit_mut_is_caught() {
        let rules = super::super::CrowtherDougan;
        let text =
            AnyRuleset::start(&rules, &crate::bench::generate::crowther(10)).expect("starts");
        let mut s: State = crate::yaml::from_str(&text).expect("a state");
        s.file_places();
        s.units[3].at = Point::new(1.0, 1.0);
        let _ = s.near_ids(Point::new(0.0, 0.0), 1.0, 1.0);
    }
}
