//! Every unit's bases laid out once, with the box round them, and laid out
//! again only for a unit that has moved, turned, changed formation or left
//! the table since. A charge action or a round of falling back asks for
//! every unit's bases once per mover; laying them out afresh each time made
//! a big battle cost the square of its size in trigonometry.
//!
//! The bases kept are exactly what [`Unit::bases`] gives for the unit as it
//! stands now (same function, same inputs), so no rule's answer changes.

use super::prune::group_box;
use super::state::State;
use super::units::{Arm, Formation, Unit};
use crate::geometry::{Angle, Base, Bounds, Point};

/// What a unit's layout depends on, besides the scenario's measure.
#[derive(Clone, Copy, PartialEq)]
struct Placing {
    anchor: Option<Point>,
    facing: Angle,
    formation: Formation,
    arm: Arm,
    broken: bool,
}

impl Placing {
    fn of(u: &Unit) -> Placing {
        Placing {
            anchor: u.anchor,
            facing: u.facing,
            formation: u.formation,
            arm: u.arm,
            broken: u.broken,
        }
    }
}

/// One unit's bases where it stands (empty off the table) and their box.
struct Laid {
    placing: Placing,
    bases: Vec<Base>,
    bounds: Option<Bounds>,
}

impl Laid {
    fn of(state: &State, u: &Unit) -> Laid {
        let bases = u.bases(&state.scenario.measure);
        Laid {
            placing: Placing::of(u),
            bounds: group_box(&bases),
            bases,
        }
    }
}

/// The layouts of a state's units, by their place in `state.units`.
pub struct Layouts {
    laid: Vec<Laid>,
}

impl Layouts {
    /// Lay out every unit of `state`.
    pub fn of(state: &State) -> Layouts {
        Layouts {
            laid: state.units.iter().map(|u| Laid::of(state, u)).collect(),
        }
    }

    /// Bring the layouts up to date with `state` (the same game, perhaps
    /// changed since): only the units whose placing changed are laid out
    /// again. A NaN anywhere never compares equal, so such a unit is simply
    /// laid out every time.
    pub fn refresh(&mut self, state: &State) {
        self.laid.truncate(state.units.len());
        for (i, u) in state.units.iter().enumerate() {
            match self.laid.get_mut(i) {
                Some(l) if l.placing == Placing::of(u) => {}
                Some(l) => *l = Laid::of(state, u),
                None => self.laid.push(Laid::of(state, u)),
            }
        }
    }

    /// The bases of the unit at place `i` (empty when there is none).
    pub fn bases(&self, i: usize) -> &[Base] {
        self.laid.get(i).map_or(&[], |l| &l.bases)
    }

    /// The box round the bases of the unit at place `i`.
    pub fn bounds(&self, i: usize) -> Option<Bounds> {
        self.laid.get(i).and_then(|l| l.bounds)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::generate;

    /// Chapter 2 (units and bases): the kept layouts are always the ones
    /// the units give as they stand, after moves, turns, formation changes
    /// and breaks.
    #[test]
    fn kept_layouts_follow_every_change() {
        let scenario = crate::yaml::from_str(&generate::maurice(6)).expect("scenario");
        let mut s = State::new(&scenario).expect("starts");
        for (i, u) in s.units.iter_mut().enumerate() {
            u.anchor = Some(Point::new(2.0 + i as f64 * 1.5, 5.0));
        }
        let m = s.scenario.measure;
        let mut lay = Layouts::of(&s);
        let agree = |s: &State, lay: &Layouts| {
            for (i, u) in s.units.iter().enumerate() {
                assert_eq!(lay.bases(i), u.bases(&m).as_slice(), "{}", u.id);
                assert_eq!(lay.bounds(i), group_box(&u.bases(&m)), "{}", u.id);
            }
        };
        agree(&s, &lay);
        s.units[0].anchor = Some(Point::new(9.0, 9.0));
        s.units[1].facing = Angle(90.0);
        s.units[2].formation = Formation::Column;
        s.units[3].broken = true;
        s.units[4].anchor = None;
        assert!(lay.bases(0) != s.units[0].bases(&m).as_slice());
        lay.refresh(&s);
        agree(&s, &lay);
        assert!(lay.bases(3).is_empty() && lay.bases(4).is_empty());
        assert!(lay.bases(s.units.len()).is_empty());
    }
}
