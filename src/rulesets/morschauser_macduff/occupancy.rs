//! Where the companies stand, filed in a [`BoxIndex`] so that the rules that look
//! at companies near a base (the 3" of B.3 and B.6, collisions, sight lines,
//! shooting ranges) look only at those, not at every company on the table.
//!
//! It is a cache beside the state, never part of it: not saved, equal to any
//! other, built by [`State::file_companies`] at the start of a resolution,
//! and kept true by [`State::company_mut`], through which every move goes.
//! The company last handed out by `company_mut` may have moved since it was
//! filed, so it is always among the candidates, and it is filed again at
//! the next `company_mut`. Without an index (a state just read, or one whose
//! company list has grown since), every company is a candidate.

use super::state::{Company, State};
use crate::geometry::{Angle, Bounds, BoxIndex, Point};
use crate::side::SideId;

/// The index of company bases and what it was filed from.
#[derive(Clone, Default)]
pub struct Occupancy {
    /// Company bases' boxes under their places in `State::companies`.
    index: Option<BoxIndex>,
    /// Each company's box as filed: the index takes a box out by its bounds.
    boxes: Vec<Bounds>,
    /// Each company's position and facing as filed, for the debug check.
    filed: Vec<(Point, Angle)>,
    /// The company handed out by `company_mut` and not yet filed again.
    touched: Option<usize>,
}

impl PartialEq for Occupancy {
    /// A cache: two states with the same companies are equal whatever it holds.
    fn eq(&self, _: &Occupancy) -> bool {
        true
    }
}

impl std::fmt::Debug for Occupancy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Occupancy({} filed)", self.filed.len())
    }
}

impl State {
    /// File every company in the index.
    pub fn file_companies(&mut self) {
        let boxes: Vec<Bounds> = self
            .companies
            .iter()
            .map(|c| Bounds::of_base(&c.base(&self.scenario)))
            .collect();
        self.occupancy = Occupancy {
            index: Some(BoxIndex::new(boxes.iter().copied().zip(0..))),
            boxes,
            filed: self.companies.iter().map(|c| (c.at, c.facing)).collect(),
            touched: None,
        };
    }

    /// Company `i` is about to be handed out for changing: file the one
    /// handed out before where it now stands.
    pub(super) fn touch(&mut self, i: usize) {
        let o = &mut self.occupancy;
        if let (Some(t), Some(index)) = (o.touched.take(), o.index.as_mut())
            && let Some(c) = self.companies.get(t)
            && let Some(old) = o.boxes.get_mut(t)
        {
            let new = Bounds::of_base(&c.base(&self.scenario));
            index.remove(*old, t);
            index.insert(new, t);
            *old = new;
            if let Some(f) = o.filed.get_mut(t) {
                *f = (c.at, c.facing);
            }
        }
        o.touched = Some(i);
    }

    /// The companies, destroyed ones included, whose bases may be within
    /// `d` of `area`, in the state's order: a superset of those that are,
    /// for the caller's exact test.
    pub fn near(&self, area: &Bounds, d: f64) -> Vec<&Company> {
        let o = &self.occupancy;
        let Some(index) = o
            .index
            .as_ref()
            .filter(|_| o.boxes.len() == self.companies.len())
        else {
            return self.companies.iter().collect();
        };
        debug_assert!(self.filed_truly(), "a company moved outside company_mut");
        // Box gaps are rounded like any other: a hair more than `d` keeps
        // every company whose exact distance is `d`.
        let mut slots = index.near(area, d + 1e-6);
        if let Some(t) = o.touched
            && let Err(at) = slots.binary_search(&t)
        {
            slots.insert(at, t);
        }
        slots
            .iter()
            .filter_map(|i| self.companies.get(*i))
            .collect()
    }

    /// The live enemies of `side` that may be within `d` of `area`, in the
    /// state's order (see [`State::near`]).
    pub fn enemies_near<'a>(
        &'a self,
        side: &'a SideId,
        area: &Bounds,
        d: f64,
    ) -> impl Iterator<Item = &'a Company> + 'a {
        self.near(area, d)
            .into_iter()
            .filter(move |c| &c.side != side && c.on_table())
    }

    /// Whether every company but the touched one stands where it was filed.
    fn filed_truly(&self) -> bool {
        let same = |(p, f): (Point, Angle), c: &Company| {
            p.x.to_bits() == c.at.x.to_bits()
                && p.y.to_bits() == c.at.y.to_bits()
                && f.0.to_bits() == c.facing.0.to_bits()
        };
        self.companies
            .iter()
            .enumerate()
            .filter(|(i, _)| Some(*i) != self.occupancy.touched)
            .all(|(i, c)| self.occupancy.filed.get(i).is_some_and(|f| same(*f, c)))
    }
}
