//! The scenarios shipped in `games/crowther-dougan/`: anyone may read them,
//! so a game made from one tells every player where its hidden units stand
//! unless their side deploys them by secret orders. `galloper new` warns
//! the organiser of each hidden unit left at a stock place.

use super::scenario::{Scenario, SideSpec, UnitSpec};
use crate::geometry::{Angle, Base, Distance, TerrainTag};
use crate::side::Sides;

/// Each stock scenario: its path in the repository and its text.
const STOCK: [(&str, &str); 2] = [
    (
        "games/crowther-dougan/beaver-creek.yaml",
        include_str!("../../../games/crowther-dougan/beaver-creek.yaml"),
    ),
    (
        "games/crowther-dougan/test-clearing.yaml",
        include_str!("../../../games/crowther-dougan/test-clearing.yaml"),
    ),
];

/// One warning per stock scenario and kind of hidden unit at its places.
pub fn warnings(sc: &Scenario) -> Vec<String> {
    let mut out = Vec::new();
    for (path, text) in STOCK {
        let Ok(stock) = crate::yaml::from_str::<Scenario>(text) else {
            continue;
        };
        for side in &sc.sides {
            let at_stock: Vec<&UnitSpec> = side
                .units
                .iter()
                .filter(|u| in_stock_place(&stock, side, u) && stands_hidden(sc, u))
                .collect();
            out.extend(warning(path, side, &at_stock));
        }
    }
    out
}

/// Whether the stock scenario puts a unit of this id, of the same side,
/// at the same place.
fn in_stock_place(stock: &Scenario, side: &SideSpec, u: &UnitSpec) -> bool {
    stock
        .side(&side.id)
        .is_some_and(|s| s.units.iter().any(|x| x.id == u.id && x.at == u.at))
}

/// Hidden at the start: deployed in secret, or standing in woods or
/// buildings, where the enemy must find it.
fn stands_hidden(sc: &Scenario, u: &UnitSpec) -> bool {
    let speck = Base::new(u.at, Angle(0.0), Distance(0.2), Distance(0.2));
    u.hidden
        || sc.terrain.iter().any(|t| {
            (t.has(TerrainTag::Woods) || t.has(TerrainTag::Town)) && t.touches_bases(&[speck])
        })
}

/// The warning for a side's units at a stock scenario's places, if any:
/// what the other side may know, and what the organiser may do.
fn warning(path: &str, side: &SideSpec, units: &[&UnitSpec]) -> Option<String> {
    if units.is_empty() {
        return None;
    }
    let ids = |secret: bool| {
        units
            .iter()
            .filter(|u| u.hidden == secret)
            .map(|u| u.id.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let (deployed, placed) = (ids(true), ids(false));
    let mut w = format!(
        "side {}: hidden units stand where the stock scenario {path} puts them, and the other side's players may know that file",
        side.id
    );
    if !deployed.is_empty() {
        w.push_str(&format!(
            "; {deployed} will be deployed by side {}'s secret orders in the setup step anyway, the file's places being only its default orders if it sends none",
            side.id
        ));
    }
    if !placed.is_empty() {
        w.push_str(&format!(
            "; {placed} stand at the file's places: edit them, or mark them `hidden: true` with zones so that side {} deploys them by secret orders",
            side.id
        ));
    }
    Some(w)
}
