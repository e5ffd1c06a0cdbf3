//! Formations, and how each stands on the table (source: "Formations").

use super::tables::Arm;
use crate::geometry::{Angle, Base, Distance, Point};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Formation {
    Line,
    Column,
    Square,
    Skirmish,
    /// Infantry deployed in an area (a town, a wood).
    Deployed,
    Limbered,
    Unlimbered,
}

impl Formation {
    pub fn fits(self, arm: Arm) -> bool {
        use Formation::*;
        match arm {
            Arm::Infantry => matches!(self, Line | Column | Square | Skirmish | Deployed),
            Arm::Cavalry => matches!(self, Line | Column),
            Arm::Artillery => matches!(self, Limbered | Unlimbered),
        }
    }

    pub fn name(self) -> &'static str {
        use Formation::*;
        match self {
            Line => "line",
            Column => "column",
            Square => "square",
            Skirmish => "skirmish",
            Deployed => "deployed",
            Limbered => "limbered",
            Unlimbered => "unlimbered",
        }
    }
}

/// The bases of a unit of `n` bases in `formation`, its front edge centred
/// on `at`. The first base faces the unit's front (the frame follows it).
pub fn lay_out(
    formation: Formation,
    n: u32,
    at: Point,
    facing: Angle,
    width: Distance,
    depth: Distance,
) -> Vec<Base> {
    let n = n.max(1) as usize;
    let back = facing.unit_vector().scale(-depth.0);
    let rank = |count: usize, front: Point| -> Vec<Base> {
        let right = facing.right_vector();
        let middle = (count as f64 - 1.0) / 2.0;
        (0..count)
            .map(|i| {
                let f = front + right.scale((i as f64 - middle) * width.0);
                Base::from_front_center(f, facing, width, depth)
            })
            .collect()
    };
    match formation {
        Formation::Line | Formation::Deployed | Formation::Unlimbered => rank(n, at),
        // Two bases in front, the rest behind in ranks of two.
        Formation::Column | Formation::Square => {
            let ranks = n.div_ceil(2);
            let mut out = Vec::new();
            for r in 0..ranks {
                let count = (n - 2 * r).min(2);
                let mut bases = rank(count, at + back.scale(r as f64));
                // A square's rear rank faces the other way.
                if formation == Formation::Square && r + 1 == ranks && ranks > 1 {
                    bases = bases
                        .into_iter()
                        .map(|b| b.rotated_about(b.center, 180.0))
                        .collect();
                }
                out.extend(bases);
            }
            out
        }
        // As a line with the outside bases a base depth back.
        Formation::Skirmish => {
            let mut out = rank(n, at);
            if n >= 3 {
                let last = n - 1;
                for i in [0, last] {
                    out[i] = out[i].translated(back);
                }
            }
            out
        }
        // The limber in front, the guns behind it facing the rear.
        Formation::Limbered => {
            let mut out = rank(1, at);
            out.extend(
                rank(n, at + back)
                    .into_iter()
                    .map(|b| b.rotated_about(b.center, 180.0)),
            );
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lay(f: Formation, n: u32) -> Vec<Base> {
        lay_out(
            f,
            n,
            Point::new(0.0, 0.0),
            Angle(0.0),
            Distance(4.0),
            Distance(2.0),
        )
    }

    #[test]
    fn line_is_side_by_side() {
        // Formations: line, all bases side by side.
        let b = lay(Formation::Line, 4);
        assert!(b.iter().all(|b| (b.center.y + 1.0).abs() < 1e-9));
        assert_eq!(b.len(), 4);
    }

    #[test]
    fn column_is_two_in_front_the_rest_behind() {
        let b = lay(Formation::Column, 4);
        let front = b.iter().filter(|b| (b.center.y + 1.0).abs() < 1e-9).count();
        let second = b.iter().filter(|b| (b.center.y + 3.0).abs() < 1e-9).count();
        assert_eq!((front, second), (2, 2));
        assert!(b.iter().all(|b| b.facing.degrees() == 0.0));
    }

    #[test]
    fn square_rear_rank_faces_the_other_way() {
        let b = lay(Formation::Square, 4);
        let rear: Vec<_> = b
            .iter()
            .filter(|b| (b.center.y + 3.0).abs() < 1e-9)
            .collect();
        assert_eq!(rear.len(), 2);
        assert!(
            rear.iter()
                .all(|b| (b.facing.normalized().degrees() - 180.0).abs() < 1e-9)
        );
    }

    #[test]
    fn skirmish_puts_the_outside_bases_back() {
        let b = lay(Formation::Skirmish, 4);
        assert!((b[0].center.y + 3.0).abs() < 1e-9 && (b[3].center.y + 3.0).abs() < 1e-9);
        assert!((b[1].center.y + 1.0).abs() < 1e-9);
    }

    #[test]
    fn limbered_gun_faces_the_rear_behind_its_limber() {
        let b = lay(Formation::Limbered, 1);
        assert_eq!(b.len(), 2);
        assert_eq!(b[0].facing.degrees(), 0.0);
        assert!((b[1].facing.normalized().degrees() - 180.0).abs() < 1e-9);
        assert!(b[1].center.y < b[0].center.y);
        // Unlimbered: the limber is removed.
        assert_eq!(lay(Formation::Unlimbered, 1).len(), 1);
    }

    #[test]
    fn formations_fit_their_arms() {
        assert!(Formation::Square.fits(Arm::Infantry));
        assert!(!Formation::Square.fits(Arm::Cavalry));
        assert!(Formation::Column.fits(Arm::Cavalry));
        assert!(!Formation::Line.fits(Arm::Artillery));
    }
}
