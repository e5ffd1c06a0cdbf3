//! Sides of a game and tables indexed by side.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// The name of one side, as the scenario spells it (`french`, `british`).
#[derive(
    Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(transparent)]
pub struct SideId(pub String);

impl SideId {
    pub fn new(name: impl Into<String>) -> Self {
        SideId(name.into())
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for SideId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for SideId {
    fn from(s: &str) -> Self {
        SideId(s.to_string())
    }
}

/// A value for each side, iterated in name order so that output is stable.
pub type BySide<T> = BTreeMap<SideId, T>;

/// What of each side's orders is of one kind (the deployments of a setup
/// step, say), by side: every ruleset's orders are an enum of kinds, and a
/// step resolves the kind it is for.
pub fn each<O, T: Clone>(orders: &BySide<O>, kind: impl Fn(&O) -> Option<&T>) -> BySide<T> {
    orders
        .iter()
        .filter_map(|(side, o)| kind(o).map(|t| (side.clone(), t.clone())))
        .collect()
}

/// A side as every ruleset's scenario gives it: an id, a name for the
/// reports and a colour for the map. Implemented with [`scenario_sides!`].
pub trait Side {
    fn id(&self) -> &SideId;
    fn name(&self) -> &str;
    fn colour(&self) -> &str;
}

/// A scenario's sides in the scenario's order (the order of the dice mix,
/// and the index a map gives each side), with what every ruleset asks of
/// them. Implemented with [`scenario_sides!`].
pub trait Sides {
    type Spec: Side;
    /// The scenario's sides, in its order.
    fn specs(&self) -> &[Self::Spec];
    /// The side ids, in the scenario's order.
    fn side_ids(&self) -> Vec<SideId> {
        self.specs().iter().map(|s| s.id().clone()).collect()
    }
    fn side(&self, id: &SideId) -> Option<&Self::Spec> {
        self.specs().iter().find(|s| s.id() == id)
    }
    fn side_index(&self, id: &SideId) -> Option<usize> {
        self.specs().iter().position(|s| s.id() == id)
    }
    /// The other side of a two-sided battle (`side` itself if there is none).
    fn other(&self, side: &SideId) -> SideId {
        self.specs()
            .iter()
            .find(|s| s.id() != side)
            .map_or_else(|| side.clone(), |s| s.id().clone())
    }
    /// The side's name, or its id for a side the scenario does not have.
    fn side_name(&self, id: &SideId) -> String {
        self.side(id)
            .map_or_else(|| id.to_string(), |s| s.name().to_string())
    }
}

/// [`Side`] for a ruleset's side spec with `id`, `name` and `colour`
/// fields, and [`Sides`] for its scenario with a `sides` list of them:
/// `crate::side::scenario_sides!(Scenario, SideSpec);`.
macro_rules! scenario_sides {
    ($scenario:ty, $spec:ty) => {
        impl $crate::side::Side for $spec {
            fn id(&self) -> &$crate::side::SideId {
                &self.id
            }
            fn name(&self) -> &str {
                &self.name
            }
            fn colour(&self) -> &str {
                &self.colour
            }
        }
        impl $crate::side::Sides for $scenario {
            type Spec = $spec;
            fn specs(&self) -> &[$spec] {
                &self.sides
            }
        }
    };
}
pub(crate) use scenario_sides;

#[cfg(test)]
mod tests {
    use super::*;

    struct Spec {
        id: SideId,
        name: String,
        colour: String,
    }
    struct Scenario {
        sides: Vec<Spec>,
    }
    scenario_sides!(Scenario, Spec);

    fn two() -> Scenario {
        let spec = |id: &str, name: &str| Spec {
            id: id.into(),
            name: name.into(),
            colour: "#000".into(),
        };
        Scenario {
            sides: vec![spec("red", "Reds"), spec("blue", "Blues")],
        }
    }

    #[test]
    fn a_scenarios_sides_are_found_by_id_in_its_order() {
        let s = two();
        let (red, blue, green) = (
            SideId::from("red"),
            SideId::from("blue"),
            SideId::from("green"),
        );
        assert_eq!(s.side_ids(), vec![red.clone(), blue.clone()]);
        assert_eq!(s.side_index(&blue), Some(1));
        assert_eq!(s.side_index(&green), None);
        assert_eq!(s.side(&red).map(|x| x.colour()), Some("#000"));
        assert_eq!(s.other(&red), blue);
        assert_eq!(s.other(&blue), red);
        assert_eq!(s.side_name(&blue), "Blues");
        assert_eq!(
            s.side_name(&green),
            "green",
            "an unknown side is named by its id"
        );
    }

    #[test]
    fn each_takes_one_kind_of_orders_by_side() {
        let mut orders: BySide<Result<u32, &str>> = BySide::new();
        orders.insert("red".into(), Ok(3));
        orders.insert("blue".into(), Err("other kind"));
        let picked = each(&orders, |o| o.as_ref().ok());
        assert_eq!(picked.len(), 1);
        assert_eq!(picked.get(&SideId::from("red")), Some(&3));
    }
}
