//! Laying out a unit's bases from the centre of its front edge.

use super::base::Base;
use super::measure::{Angle, Distance, Point};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How a unit's bases stand relative to one another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Layout {
    /// All bases side by side, edges flush.
    Line,
    /// One base behind another.
    Column,
    /// Two ranks: the front holds the larger half, the rear the rest.
    Massed,
    /// A lone base.
    Single,
}

/// Place `bases` bases of `width` x `depth` in `layout`, with `anchor` the
/// centre of the unit's front edge. Bases come back front rank first, each
/// rank from left to right (a column from head to tail). `Single` yields one
/// base whatever the count (none for a count of zero).
pub fn lay_out(
    layout: Layout,
    bases: usize,
    anchor: Point,
    facing: Angle,
    width: Distance,
    depth: Distance,
) -> Vec<Base> {
    match layout {
        Layout::Line => rank(bases, anchor, facing, width, depth),
        Layout::Column => (0..bases)
            .map(|i| {
                let front = anchor - facing.unit_vector().scale(depth.0 * i as f64);
                Base::from_front_center(front, facing, width, depth)
            })
            .collect(),
        Layout::Massed => {
            let front_rank = bases.div_ceil(2);
            let mut out = rank(front_rank, anchor, facing, width, depth);
            let rear_anchor = anchor - facing.unit_vector().scale(depth.0);
            out.extend(rank(bases - front_rank, rear_anchor, facing, width, depth));
            out
        }
        Layout::Single => rank(bases.min(1), anchor, facing, width, depth),
    }
}

/// One rank of `n` bases abreast, centred on `anchor`.
fn rank(n: usize, anchor: Point, facing: Angle, width: Distance, depth: Distance) -> Vec<Base> {
    let right = facing.right_vector();
    let middle = (n as f64 - 1.0) / 2.0;
    (0..n)
        .map(|i| {
            let front = anchor + right.scale((i as f64 - middle) * width.0);
            Base::from_front_center(front, facing, width, depth)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn extent(bases: &[Base]) -> (f64, f64, f64, f64) {
        let pts: Vec<Point> = bases.iter().flat_map(|b| b.corners()).collect();
        let min_x = pts.iter().map(|p| p.x).fold(f64::INFINITY, f64::min);
        let max_x = pts.iter().map(|p| p.x).fold(f64::NEG_INFINITY, f64::max);
        let min_y = pts.iter().map(|p| p.y).fold(f64::INFINITY, f64::min);
        let max_y = pts.iter().map(|p| p.y).fold(f64::NEG_INFINITY, f64::max);
        (min_x, max_x, min_y, max_y)
    }

    fn near(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn line_of_four() {
        let b = lay_out(
            Layout::Line,
            4,
            Point::new(10.0, 10.0),
            Angle(0.0),
            Distance(1.0),
            Distance(0.75),
        );
        assert_eq!(b.len(), 4);
        let (x0, x1, y0, y1) = extent(&b);
        assert!(near(x0, 8.0) && near(x1, 12.0) && near(y0, 9.25) && near(y1, 10.0));
        // Left to right, flush.
        assert!(near(b[0].center.x, 8.5) && near(b[3].center.x, 11.5));
        assert!(near(b[1].center.x - b[0].center.x, 1.0));
    }

    #[test]
    fn column_of_three_facing_east() {
        let b = lay_out(
            Layout::Column,
            3,
            Point::new(0.0, 0.0),
            Angle(90.0),
            Distance(1.0),
            Distance(0.5),
        );
        let (x0, x1, y0, y1) = extent(&b);
        assert!(near(x0, -1.5) && near(x1, 0.0) && near(y0, -0.5) && near(y1, 0.5));
        assert!(near(b[0].center.x, -0.25) && near(b[2].center.x, -1.25));
    }

    #[test]
    fn massed_five_has_three_in_front_two_behind() {
        let b = lay_out(
            Layout::Massed,
            5,
            Point::new(0.0, 0.0),
            Angle(0.0),
            Distance(1.0),
            Distance(1.0),
        );
        assert_eq!(b.len(), 5);
        let front: Vec<&Base> = b.iter().filter(|x| near(x.center.y, -0.5)).collect();
        let rear: Vec<&Base> = b.iter().filter(|x| near(x.center.y, -1.5)).collect();
        assert_eq!((front.len(), rear.len()), (3, 2));
        assert!(near(rear[0].center.x, -0.5) && near(rear[1].center.x, 0.5));
        let (x0, x1, y0, y1) = extent(&b);
        assert!(near(x0, -1.5) && near(x1, 1.5) && near(y0, -2.0) && near(y1, 0.0));
    }

    #[test]
    fn single_is_one_base() {
        let b = lay_out(
            Layout::Single,
            4,
            Point::new(2.0, 2.0),
            Angle(0.0),
            Distance(1.0),
            Distance(0.5),
        );
        assert_eq!(b.len(), 1);
        assert!(near(b[0].center.y, 1.75));
        assert!(
            lay_out(
                Layout::Single,
                0,
                Point::new(2.0, 2.0),
                Angle(0.0),
                Distance(1.0),
                Distance(0.5)
            )
            .is_empty()
        );
    }

    #[test]
    fn layout_names_in_yaml() {
        let l: Layout = serde_json::from_str("\"massed\"").unwrap();
        assert_eq!(l, Layout::Massed);
    }
}
