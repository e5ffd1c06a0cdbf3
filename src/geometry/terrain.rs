//! Terrain features: areas (woods, towns, hills) and linear features (walls,
//! streams, roads) on the table.

use super::base::Base;
use super::convert::{self, AREA_EPS, EPS};
use super::error::GeometryError;
use super::measure::{Distance, Point};
use geo::algorithm::buffer::{BufferStyle, LineCap};
use geo::orient::{Direction, Orient};
use geo::{
    BooleanOps, Buffer, Contains, Euclidean, Intersects, Length, LineString, MultiLineString,
    MultiPolygon, Validation,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Coordinates or widths beyond this are refused as absurd: no table is a
/// kilometre across, whatever the measure.
pub const MAX_EXTENT: f64 = 1e6;

/// What a feature is, for the rules. A feature may carry several tags.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum TerrainTag {
    Difficult,
    Cover,
    Obstruction,
    Water,
    Hill,
    Road,
    Wall,
    Woods,
    Impassable,
    Town,
    Marsh,
    Bridge,
    Crest,
}

/// The outline of a feature.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", tag = "shape")]
pub enum Shape {
    /// An area bounded by `points` (closed automatically).
    Polygon { points: Vec<Point> },
    /// A linear feature following `points`, `width` across.
    Polyline { points: Vec<Point>, width: Distance },
}

/// One piece of terrain as a scenario describes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TerrainFeature {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub tags: Vec<TerrainTag>,
    #[serde(default)]
    pub elevation: Option<f64>,
    #[serde(flatten)]
    pub shape: Shape,
}

impl TerrainFeature {
    /// Whether the feature carries tag `t`.
    pub fn has(&self, t: TerrainTag) -> bool {
        self.tags.contains(&t)
    }

    /// The ground the feature covers. A polyline becomes a band `width`
    /// across, centred on its points: `geo`'s buffer by half the width with
    /// square-cut ends (the band stops where the points stop) and rounded
    /// bends. A polyline of zero width covers no area; the queries below
    /// then use its centre line instead.
    pub fn area(&self) -> MultiPolygon<f64> {
        match &self.shape {
            Shape::Polygon { points } => {
                MultiPolygon::new(vec![convert::polygon(points).orient(Direction::Default)])
            }
            Shape::Polyline { points, width } => {
                if width.0 <= 0.0 || points.len() < 2 {
                    return MultiPolygon::new(vec![]);
                }
                let style = BufferStyle::new(width.0 / 2.0).line_cap(LineCap::Butt);
                convert::line_string(points).buffer_with_style(style)
            }
        }
    }

    /// The centre line of a zero-width linear feature, which has no area.
    fn thin_line(&self) -> Option<LineString<f64>> {
        match &self.shape {
            Shape::Polyline { points, width } if width.0 <= 0.0 => {
                Some(convert::line_string(points))
            }
            _ => None,
        }
    }

    /// Whether any part of any base lies in the feature (reaching in by
    /// more than the tolerance: a base flush against the edge is outside).
    pub fn touches_bases(&self, bases: &[Base]) -> bool {
        let shrunk = bases.iter().map(|b| b.shrunk(EPS).polygon());
        match self.thin_line() {
            Some(line) => shrunk.into_iter().any(|p| p.intersects(&line)),
            None => {
                let area = self.area();
                shrunk.into_iter().any(|p| p.intersects(&area))
            }
        }
    }

    /// How far along the straight path from `from` to `to` it first
    /// enters the feature (0 when it starts in it), or None when it never
    /// does: an area is entered as [`super::sight::segment_entry`] says, a
    /// zero-width line where the path meets it. What a move pays for is
    /// the ground nearer than where it stops.
    pub fn entered_along(&self, from: Point, to: Point) -> Option<Distance> {
        let d = match &self.shape {
            Shape::Polyline { points, width } if width.0 <= 0.0 => {
                super::sight::segment_meets_line(from, to, points)
            }
            _ => super::sight::segment_entry(from, to, &self.area()),
        };
        d.map(Distance)
    }

    /// Whether every base lies wholly in the feature (to within the
    /// tolerance). False for no bases, and always for a zero-width line.
    pub fn contains_bases(&self, bases: &[Base]) -> bool {
        if bases.is_empty() || self.thin_line().is_some() {
            return false;
        }
        let area = self.area();
        bases
            .iter()
            .all(|b| area.contains(&b.shrunk(EPS).polygon()))
    }

    /// Whether the feature and `area` share ground (more than a sliver). For
    /// a zero-width line: whether more than a speck of it runs through `area`.
    pub fn intersects_area(&self, area: &MultiPolygon<f64>) -> bool {
        match self.thin_line() {
            Some(line) => {
                let inside = area.clip(&MultiLineString::new(vec![line]), false);
                Euclidean.length(&inside) > EPS
            }
            None => convert::shared_area(&self.area(), area) > AREA_EPS,
        }
    }

    /// Refuse features no table could hold: non-finite numbers, too few
    /// points, negative widths, sizes beyond [`MAX_EXTENT`], and polygons
    /// whose outline crosses itself or encloses nothing.
    pub fn validate(&self) -> Result<(), GeometryError> {
        let id = || self.id.clone();
        if self.elevation.is_some_and(|e| !e.is_finite()) {
            return Err(GeometryError::NotFinite {
                id: id(),
                what: "elevation",
            });
        }
        let (points, needed, shape) = match &self.shape {
            Shape::Polygon { points } => (points, 3, "polygon"),
            Shape::Polyline { points, width } => {
                if !width.0.is_finite() {
                    return Err(GeometryError::NotFinite {
                        id: id(),
                        what: "width",
                    });
                }
                if width.0 < 0.0 {
                    return Err(GeometryError::NegativeWidth {
                        id: id(),
                        width: width.0,
                    });
                }
                if width.0 > MAX_EXTENT {
                    return Err(GeometryError::TooLarge {
                        id: id(),
                        what: "width",
                        value: width.0,
                        limit: MAX_EXTENT,
                    });
                }
                (points, 2, "polyline")
            }
        };
        if points.iter().any(|p| !p.is_finite()) {
            return Err(GeometryError::NotFinite {
                id: id(),
                what: "a coordinate",
            });
        }
        if let Some(v) = points
            .iter()
            .flat_map(|p| [p.x, p.y])
            .find(|v| v.abs() > MAX_EXTENT)
        {
            return Err(GeometryError::TooLarge {
                id: id(),
                what: "coordinate",
                value: v,
                limit: MAX_EXTENT,
            });
        }
        // A closing point repeating the first adds nothing.
        let found = if points.len() > 1 && points.first() == points.last() {
            points.len() - 1
        } else {
            points.len()
        };
        if found < needed {
            return Err(GeometryError::TooFewPoints {
                id: id(),
                shape,
                needed,
                found,
            });
        }
        if let Shape::Polygon { points } = &self.shape {
            convert::polygon(points).check_validation().map_err(|e| {
                GeometryError::InvalidPolygon {
                    id: id(),
                    reason: e.to_string(),
                }
            })?;
        }
        Ok(())
    }
}

/// Whether the straight path from `from` to `to` keeps wholly to the
/// ground `features` cover together (to within the tolerance): a move that
/// must stay on a road, say. Zero-width lines cover no ground.
pub fn segment_within<'a>(
    from: Point,
    to: Point,
    features: impl IntoIterator<Item = &'a TerrainFeature>,
) -> bool {
    let mut outside = MultiLineString::new(vec![LineString::new(vec![
        convert::coord(from),
        convert::coord(to),
    ])]);
    let mut any = false;
    for f in features {
        let area = f.area();
        if area.0.is_empty() {
            continue;
        }
        any = true;
        outside = area.clip(&outside, true);
    }
    any && Euclidean.length(&outside) <= EPS
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::measure::Angle;
    use geo::Area;

    fn wood() -> TerrainFeature {
        TerrainFeature {
            id: "w1".into(),
            name: "Hougoumont wood".into(),
            tags: vec![TerrainTag::Woods, TerrainTag::Difficult],
            elevation: None,
            shape: Shape::Polygon {
                points: vec![
                    Point::new(0.0, 0.0),
                    Point::new(4.0, 0.0),
                    Point::new(4.0, 4.0),
                    Point::new(0.0, 4.0),
                ],
            },
        }
    }

    fn wall(width: f64) -> TerrainFeature {
        TerrainFeature {
            id: "wall".into(),
            name: "Garden wall".into(),
            tags: vec![TerrainTag::Wall, TerrainTag::Obstruction],
            elevation: None,
            shape: Shape::Polyline {
                points: vec![
                    Point::new(0.0, 0.0),
                    Point::new(10.0, 0.0),
                    Point::new(10.0, 10.0),
                ],
                width: Distance(width),
            },
        }
    }

    fn base(x: f64, y: f64) -> Base {
        Base::new(Point::new(x, y), Angle(0.0), Distance(1.0), Distance(1.0))
    }

    #[test]
    fn entered_along_a_path_for_areas_bands_and_thin_lines() {
        let at = |f: &TerrainFeature, a: (f64, f64), b: (f64, f64)| {
            f.entered_along(Point::new(a.0, a.1), Point::new(b.0, b.1))
                .map(|d| (d.get() * 1e6).round() / 1e6)
        };
        assert_eq!(at(&wood(), (-6.0, 2.0), (10.0, 2.0)), Some(6.0));
        assert_eq!(at(&wood(), (-6.0, 2.0), (-1.0, 2.0)), None);
        assert_eq!(at(&wood(), (1.0, 2.0), (10.0, 2.0)), Some(0.0));
        // A band 1 across on y = 0: entered half a unit short of its line.
        assert_eq!(at(&wall(1.0), (5.0, -4.0), (5.0, 4.0)), Some(3.5));
        // A wall with no width: where the path crosses its line.
        assert_eq!(at(&wall(0.0), (5.0, -4.0), (5.0, 4.0)), Some(4.0));
        assert_eq!(at(&wall(0.0), (5.0, -4.0), (5.0, -1.0)), None);
    }

    #[test]
    fn tags() {
        assert!(wood().has(TerrainTag::Woods));
        assert!(!wood().has(TerrainTag::Water));
    }

    #[test]
    fn polyline_area_is_a_band() {
        let area = wall(0.5).area();
        // Two legs of 10 by 0.5, less the square where they overlap inside the
        // bend, plus a quarter disc of radius 0.25 rounding its outside.
        let expected = 2.0 * 10.0 * 0.5 - 0.0625 + std::f64::consts::PI * 0.0625 / 4.0;
        assert!(
            (area.unsigned_area() - expected).abs() < 0.01,
            "{}",
            area.unsigned_area()
        );
        assert!(area.contains(&geo::Point::new(5.0, 0.2)));
        assert!(!area.contains(&geo::Point::new(5.0, 0.3)));
        assert!(!area.contains(&geo::Point::new(-0.1, 0.0)));
        assert!(wall(0.0).area().0.is_empty());
    }

    #[test]
    fn bases_in_and_out_of_a_wood() {
        let w = wood();
        assert!(w.touches_bases(&[base(4.3, 2.0)]));
        assert!(
            !w.touches_bases(&[base(4.5, 2.0)]),
            "flush against the edge is outside"
        );
        assert!(!w.touches_bases(&[base(6.0, 2.0)]));
        assert!(w.contains_bases(&[base(3.5, 3.5), base(1.0, 1.0)]));
        assert!(!w.contains_bases(&[base(3.5, 3.5), base(4.0, 1.0)]));
        assert!(!w.contains_bases(&[]));
    }

    #[test]
    fn thin_wall_touches_bases_that_straddle_it() {
        let w = wall(0.0);
        assert!(w.touches_bases(&[base(5.0, 0.2)]));
        assert!(!w.touches_bases(&[base(5.0, 0.5)]));
        assert!(!w.contains_bases(&[base(5.0, 0.2)]));
    }

    #[test]
    fn area_intersection() {
        let w = wood();
        let near = MultiPolygon::new(vec![base(4.0, 2.0).polygon()]);
        let flush = MultiPolygon::new(vec![base(4.5, 2.0).polygon()]);
        assert!(w.intersects_area(&near));
        assert!(!w.intersects_area(&flush));
        let across_thin_wall = MultiPolygon::new(vec![base(5.0, 0.0).polygon()]);
        assert!(wall(0.0).intersects_area(&across_thin_wall));
        assert!(!wall(0.0).intersects_area(&flush));
    }

    #[test]
    fn a_segment_within_a_band_and_one_leaving_it() {
        let road = TerrainFeature {
            shape: Shape::Polyline {
                points: vec![Point::new(0.0, 0.0), Point::new(10.0, 0.0)],
                width: Distance(2.0),
            },
            ..wall(2.0)
        };
        let bend = TerrainFeature {
            shape: Shape::Polyline {
                points: vec![Point::new(10.0, 0.0), Point::new(10.0, 10.0)],
                width: Distance(2.0),
            },
            ..wall(2.0)
        };
        let p = Point::new;
        assert!(segment_within(p(1.0, 0.5), p(9.0, -0.5), [&road]));
        assert!(!segment_within(p(1.0, 0.0), p(9.0, 3.0), [&road]));
        // Off the end of the band.
        assert!(!segment_within(p(5.0, 0.0), p(12.0, 0.0), [&road]));
        // Two features together cover the corner.
        assert!(segment_within(p(9.5, 0.0), p(10.0, 5.0), [&road, &bend]));
        // No ground at all: nothing is within.
        assert!(!segment_within(p(0.0, 0.0), p(1.0, 0.0), [&wall(0.0)]));
    }

    #[test]
    fn validation() {
        assert!(wood().validate().is_ok());
        assert!(wall(0.5).validate().is_ok());
        let mut f = wood();
        f.shape = Shape::Polygon {
            points: vec![
                Point::new(0.0, 0.0),
                Point::new(1.0, 0.0),
                Point::new(0.0, 0.0),
            ],
        };
        assert!(matches!(
            f.validate(),
            Err(GeometryError::TooFewPoints { found: 2, .. })
        ));
        f.shape = Shape::Polygon {
            points: vec![
                Point::new(0.0, 0.0),
                Point::new(1.0, 1.0),
                Point::new(1.0, 0.0),
                Point::new(0.0, 1.0),
            ],
        };
        assert!(matches!(
            f.validate(),
            Err(GeometryError::InvalidPolygon { .. })
        ));
        f.shape = Shape::Polygon {
            points: vec![
                Point::new(0.0, 0.0),
                Point::new(f64::NAN, 0.0),
                Point::new(0.0, 1.0),
            ],
        };
        assert!(matches!(f.validate(), Err(GeometryError::NotFinite { .. })));
        f.shape = Shape::Polygon {
            points: vec![
                Point::new(0.0, 0.0),
                Point::new(2e6, 0.0),
                Point::new(0.0, 1.0),
            ],
        };
        assert!(matches!(f.validate(), Err(GeometryError::TooLarge { .. })));
        f.shape = Shape::Polyline {
            points: vec![Point::new(0.0, 0.0), Point::new(1.0, 0.0)],
            width: Distance(-1.0),
        };
        assert!(matches!(
            f.validate(),
            Err(GeometryError::NegativeWidth { .. })
        ));
        f.shape = Shape::Polyline {
            points: vec![Point::new(0.0, 0.0)],
            width: Distance(1.0),
        };
        assert!(matches!(
            f.validate(),
            Err(GeometryError::TooFewPoints { needed: 2, .. })
        ));
        f.shape = Shape::Polyline {
            points: vec![Point::new(0.0, 0.0), Point::new(1.0, 0.0)],
            width: Distance(1e7),
        };
        assert!(matches!(f.validate(), Err(GeometryError::TooLarge { .. })));
    }

    #[test]
    fn reads_from_yaml() {
        let text = "id: s1\nname: Brook\ntags: [water, difficult]\nshape: polyline\nwidth: 0.5\npoints:\n  - {x: 0, y: 0}\n  - {x: 3, y: 1}\n";
        let f: TerrainFeature = serde_yaml::from_str(text).unwrap();
        assert_eq!(f.tags, vec![TerrainTag::Water, TerrainTag::Difficult]);
        assert!(
            matches!(f.shape, Shape::Polyline { ref points, width } if points.len() == 2 && width == Distance(0.5))
        );
        let poly = "id: h\nname: Hill\nelevation: 1.0\nshape: polygon\npoints: [{x: 0, y: 0}, {x: 1, y: 0}, {x: 0, y: 1}]\n";
        let h: TerrainFeature = serde_yaml::from_str(poly).unwrap();
        assert!(h.tags.is_empty());
        assert_eq!(h.elevation, Some(1.0));
    }
}
