//! Where units that march onto a table by one edge stand when a battle
//! begins: abreast along the edge, centred on it, in as many lines as the
//! table's width needs. A campaign's battles place their forces with it, so
//! that every ruleset enters a table the same way.

use super::table::Table;
use super::{Angle, Distance, Point};
use serde::{Deserialize, Serialize};

/// An edge of the table. `y` grows away from the south edge, and a facing
/// of 0° looks north (towards growing `y`), 90° east.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TableEdge {
    South,
    North,
    West,
    East,
}

impl TableEdge {
    /// The facing of a unit that has just come on by this edge.
    pub fn inward(self) -> Angle {
        Angle(match self {
            TableEdge::South => 0.0,
            TableEdge::East => 270.0,
            TableEdge::North => 180.0,
            TableEdge::West => 90.0,
        })
    }
    pub fn opposite(self) -> TableEdge {
        match self {
            TableEdge::South => TableEdge::North,
            TableEdge::North => TableEdge::South,
            TableEdge::West => TableEdge::East,
            TableEdge::East => TableEdge::West,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            TableEdge::South => "south",
            TableEdge::North => "north",
            TableEdge::West => "west",
            TableEdge::East => "east",
        }
    }
}

/// A unit's frontage and depth in the formation it enters in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Footprint {
    pub frontage: Distance,
    pub depth: Distance,
}

/// Where one unit stands: the centre of its front edge, and its facing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placed {
    pub front: Point,
    pub facing: Angle,
}

/// Place `units` (in the order given, first on the left as they face) in
/// lines parallel to `edge`, each line centred on it, `gap` between units
/// abreast and between lines, the rearmost line `gap` in from the edge. A
/// line takes units while they fit in the table's width less a `gap` at
/// each end. Refused when the lines would reach the table's middle: a
/// battlefield too small for the force, which its organiser must hear of.
pub fn enter(
    table: Table,
    edge: TableEdge,
    units: &[Footprint],
    gap: Distance,
) -> Result<Vec<Placed>, String> {
    let (across, deep) = match edge {
        TableEdge::South | TableEdge::North => (table.width.0, table.height.0),
        TableEdge::West | TableEdge::East => (table.height.0, table.width.0),
    };
    let room = across - 2.0 * gap.0;
    let mut lines: Vec<Vec<usize>> = Vec::new();
    let mut used = f64::INFINITY;
    for (i, u) in units.iter().enumerate() {
        if u.frontage.0 > room {
            return Err(format!(
                "a unit {:.1} wide does not fit across the {} edge ({:.1} less the gaps)",
                u.frontage.0,
                edge.name(),
                across
            ));
        }
        let need = if used.is_finite() {
            gap.0 + u.frontage.0
        } else {
            u.frontage.0
        };
        match lines.last_mut() {
            Some(line) if used + need <= room => {
                line.push(i);
                used += need;
            }
            _ => {
                lines.push(vec![i]);
                used = u.frontage.0;
            }
        }
    }
    // The first line is the one farthest in; each line behind it stands
    // its deepest unit and a gap back.
    let depths: Vec<f64> = lines
        .iter()
        .map(|l| l.iter().map(|&i| units[i].depth.0).fold(0.0, f64::max))
        .collect();
    let total: f64 = depths.iter().sum::<f64>() + gap.0 * (lines.len() as f64 + 1.0);
    if total > deep / 2.0 {
        return Err(format!(
            "{} units need {total:.1} in from the {} edge, more than half the table's {deep:.1}",
            units.len(),
            edge.name()
        ));
    }
    let mut out = vec![
        Placed {
            front: Point::new(0.0, 0.0),
            facing: edge.inward(),
        };
        units.len()
    ];
    let mut inset = total - gap.0;
    for (line, depth) in lines.iter().zip(&depths) {
        let width: f64 = line.iter().map(|&i| units[i].frontage.0).sum::<f64>()
            + gap.0 * (line.len() as f64 - 1.0);
        // Along the line from the left of the units as they face.
        let mut along = (across - width) / 2.0;
        for &i in line {
            let centre = along + units[i].frontage.0 / 2.0;
            out[i].front = on_table(table, edge, centre, inset);
            along += units[i].frontage.0 + gap.0;
        }
        inset -= depth + gap.0;
    }
    Ok(out)
}

/// How far `p` stands in from `edge`.
pub fn inset(table: Table, edge: TableEdge, p: Point) -> f64 {
    match edge {
        TableEdge::South => p.y,
        TableEdge::North => table.height.0 - p.y,
        TableEdge::West => p.x,
        TableEdge::East => table.width.0 - p.x,
    }
}

/// The band of the table `deep` in from `edge`, as its lowest and highest
/// corners: a deployment zone for units that entered by it.
pub fn band(table: Table, edge: TableEdge, deep: f64) -> (Point, Point) {
    let (w, h) = (table.width.0, table.height.0);
    match edge {
        TableEdge::South => (Point::new(0.0, 0.0), Point::new(w, deep.min(h))),
        TableEdge::North => (Point::new(0.0, (h - deep).max(0.0)), Point::new(w, h)),
        TableEdge::West => (Point::new(0.0, 0.0), Point::new(deep.min(w), h)),
        TableEdge::East => (Point::new((w - deep).max(0.0), 0.0), Point::new(w, h)),
    }
}

/// The point `along` the edge from the left end as seen by a unit facing
/// in, and `inset` in from it.
fn on_table(table: Table, edge: TableEdge, along: f64, inset: f64) -> Point {
    let (w, h) = (table.width.0, table.height.0);
    match edge {
        TableEdge::South => Point::new(along, inset),
        TableEdge::North => Point::new(w - along, h - inset),
        TableEdge::West => Point::new(inset, h - along),
        TableEdge::East => Point::new(w - inset, along),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Table {
        Table {
            width: Distance(60.0),
            height: Distance(40.0),
        }
    }
    fn foot(w: f64, d: f64) -> Footprint {
        Footprint {
            frontage: Distance(w),
            depth: Distance(d),
        }
    }

    #[test]
    fn units_enter_abreast_centred_on_their_edge_facing_in() {
        let p = enter(
            table(),
            TableEdge::South,
            &[foot(10.0, 2.0), foot(10.0, 2.0)],
            Distance(1.0),
        )
        .unwrap();
        // 10 + 1 + 10 = 21 wide, centred on 30: from 19.5 to 40.5.
        assert_eq!(p[0].front, Point::new(24.5, 3.0));
        assert_eq!(p[1].front, Point::new(35.5, 3.0));
        assert_eq!(p[0].facing, Angle(0.0));
        let n = enter(table(), TableEdge::North, &[foot(10.0, 2.0)], Distance(1.0)).unwrap();
        assert_eq!(n[0].front, Point::new(30.0, 37.0));
        assert_eq!(n[0].facing, Angle(180.0));
        // The first unit is on the left as the units face: west of the
        // north edge's force is its right.
        let n2 = enter(
            table(),
            TableEdge::North,
            &[foot(10.0, 2.0), foot(10.0, 2.0)],
            Distance(1.0),
        )
        .unwrap();
        assert!(n2[0].front.x > n2[1].front.x);
        let w = enter(table(), TableEdge::West, &[foot(4.0, 2.0)], Distance(1.0)).unwrap();
        assert_eq!(w[0].front, Point::new(3.0, 20.0));
        assert_eq!(w[0].facing, Angle(90.0));
    }

    #[test]
    fn a_force_wider_than_the_table_forms_a_second_line_behind_the_first() {
        let units = vec![foot(20.0, 2.0); 4];
        let p = enter(table(), TableEdge::South, &units, Distance(1.0)).unwrap();
        // Two fit in 58 (20 + 1 + 20), a third does not.
        assert_eq!(p[0].front.y, p[1].front.y);
        assert!(p[2].front.y < p[0].front.y, "the second line stands behind");
        assert!((p[0].front.y - p[2].front.y - 3.0).abs() < 1e-9);
        assert!(
            p[2].front.y - 2.0 >= 1.0 - 1e-9,
            "the rear line stays on the table"
        );
    }

    #[test]
    fn a_band_runs_along_its_edge_and_a_point_is_measured_in_from_it() {
        let t = table();
        assert_eq!(
            band(t, TableEdge::North, 5.0),
            (Point::new(0.0, 35.0), Point::new(60.0, 40.0))
        );
        assert_eq!(
            band(t, TableEdge::East, 5.0),
            (Point::new(55.0, 0.0), Point::new(60.0, 40.0))
        );
        assert_eq!(inset(t, TableEdge::North, Point::new(10.0, 37.0)), 3.0);
        assert_eq!(inset(t, TableEdge::West, Point::new(4.0, 37.0)), 4.0);
    }

    #[test]
    fn a_force_too_big_for_the_table_is_refused_with_its_numbers() {
        let units = vec![foot(20.0, 5.0); 12];
        let e = enter(table(), TableEdge::South, &units, Distance(1.0)).unwrap_err();
        assert!(e.contains("more than half the table's 40.0"), "{e}");
        let e = enter(table(), TableEdge::West, &[foot(45.0, 2.0)], Distance(1.0)).unwrap_err();
        assert!(e.contains("does not fit across the west edge"), "{e}");
    }
}
