//! The map parts every ruleset's view builds alike, from what every
//! scenario and state gives alike: the table and the sides, a feature's
//! outline and fill, a unit's bases, the step's traces as arrows, an
//! upright zone. What differs (which tags make which fill, what a unit
//! shows) stays with each ruleset's `view.rs`.

use super::{
    ArrowKind, ArrowView, BaseView, MapView, Panel, SideStyle, TerrainStyle, TerrainView, ZoneView,
};
use crate::geometry::table::Table;
use crate::geometry::{Base, Point, Shape, TerrainFeature, TerrainTag};
use crate::side::{Side, SideId, Sides};
use serde::{Deserialize, Serialize};

impl MapView {
    /// A map of `table` in `unit` (`cm`, `in`, `BW`) with the scenario's
    /// sides and nothing on it yet: the ruleset's view adds the terrain,
    /// units, markers, arrows and zones, its counter and its letters
    /// (`MapView { units, ..MapView::blank(..) }`).
    pub fn blank(table: &Table, unit: &str, sides: &impl Sides) -> MapView {
        MapView {
            title: String::new(),
            width: table.width.get(),
            height: table.height.get(),
            unit: unit.into(),
            sides: side_styles(sides),
            terrain: Vec::new(),
            units: Vec::new(),
            markers: Vec::new(),
            arrows: Vec::new(),
            zones: Vec::new(),
            deployment: Vec::new(),
            turned: false,
            counter: None,
            letters: Vec::new(),
        }
    }
}

/// The map's look of each side, in the scenario's order.
pub fn side_styles(sides: &impl Sides) -> Vec<SideStyle> {
    sides
        .specs()
        .iter()
        .map(|s| SideStyle {
            side: s.id().clone(),
            name: s.name().to_string(),
            colour: s.colour().to_string(),
        })
        .collect()
}

/// A terrain feature's outline on the map: an area closed, a line open.
pub fn terrain_view(name: String, shape: &Shape, style: TerrainStyle) -> TerrainView {
    let (points, closed) = match shape {
        Shape::Polygon { points } => (points.clone(), true),
        Shape::Polyline { points, .. } => (points.clone(), false),
    };
    TerrainView {
        name,
        style,
        points,
        closed,
    }
}

/// Every feature of a scenario's terrain on the map, under its own name,
/// filled as the ruleset's `style` reads it.
pub fn terrain_views(
    features: &[TerrainFeature],
    style: impl Fn(&TerrainFeature) -> TerrainStyle,
) -> Vec<TerrainView> {
    features
        .iter()
        .map(|t| terrain_view(t.name.clone(), &t.shape, style(t)))
        .collect()
}

/// The fill of the first tag in `order` that the feature carries, or
/// `otherwise`: each ruleset reads tags in its own order of precedence.
pub fn first_tag_style(
    t: &TerrainFeature,
    order: &[(TerrainTag, TerrainStyle)],
    otherwise: TerrainStyle,
) -> TerrainStyle {
    order
        .iter()
        .find(|(tag, _)| t.has(*tag))
        .map_or(otherwise, |(_, s)| *s)
}

/// The fill for a feature described by tags: the first of water, woods,
/// marsh, town, road (or bridge), wall, hill (or crest) and difficult
/// ground it carries; open field otherwise.
pub fn tag_style(t: &TerrainFeature) -> TerrainStyle {
    use TerrainTag as T;
    first_tag_style(
        t,
        &[
            (T::Water, TerrainStyle::Water),
            (T::Woods, TerrainStyle::Woods),
            (T::Marsh, TerrainStyle::Marsh),
            (T::Town, TerrainStyle::Town),
            (T::Road, TerrainStyle::Road),
            (T::Bridge, TerrainStyle::Road),
            (T::Wall, TerrainStyle::Wall),
            (T::Hill, TerrainStyle::Hill),
            (T::Crest, TerrainStyle::Hill),
            (T::Difficult, TerrainStyle::Rough),
        ],
        TerrainStyle::Field,
    )
}

/// A unit's bases on the map, in the colour of side `side`.
pub fn base_views(bases: &[Base], side: usize) -> Vec<BaseView> {
    bases
        .iter()
        .map(|b| BaseView {
            corners: b.corners(),
            side,
        })
        .collect()
}

/// What a unit did along a path this step, as a state keeps it for the
/// map's arrows (the rulesets whose traces are these four).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TraceKind {
    Move,
    Fire,
    Charge,
    Retreat,
}

impl From<TraceKind> for ArrowKind {
    fn from(k: TraceKind) -> ArrowKind {
        match k {
            TraceKind::Move => ArrowKind::Move,
            TraceKind::Fire => ArrowKind::Fire,
            TraceKind::Charge => ArrowKind::Charge,
            TraceKind::Retreat => ArrowKind::FallBack,
        }
    }
}

/// A side's path this step and what it did along it, as a state keeps it
/// for the map's arrows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    pub side: SideId,
    pub kind: TraceKind,
    pub points: Vec<Point>,
}

impl Trace {
    /// The trace as an arrow in the colour of side `side` (its index).
    pub fn arrow(&self, side: usize) -> ArrowView {
        ArrowView {
            kind: self.kind.into(),
            side,
            path: self.points.clone(),
        }
    }
}

/// Before the first move: the scenario's title and its description, a
/// line a paragraph, and how the battle is won, in the ruleset's words.
pub fn briefing(title: &str, description: &str, victory: Vec<String>) -> Vec<Panel> {
    let mut about = vec![title.to_string()];
    about.extend(
        description
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(String::from),
    );
    vec![
        Panel {
            title: "Briefing".into(),
            lines: about,
        },
        Panel {
            title: "Victory conditions".into(),
            lines: victory,
        },
    ]
}

/// A side's upright rectangular zone on the map, from two corners.
pub fn rect_zone(side: usize, min: Point, max: Point) -> ZoneView {
    ZoneView {
        side,
        points: vec![min, Point::new(max.x, min.y), max, Point::new(min.x, max.y)],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Angle, Distance};

    fn feature(tags: Vec<TerrainTag>, shape: Shape) -> TerrainFeature {
        TerrainFeature {
            id: "f".into(),
            name: "f".into(),
            tags,
            elevation: None,
            shape,
        }
    }

    struct Spec {
        id: SideId,
        name: String,
        colour: String,
    }
    struct Scenario {
        sides: Vec<Spec>,
    }
    crate::side::scenario_sides!(Scenario, Spec);

    #[test]
    fn a_blank_map_has_the_table_and_the_sides_in_order() {
        let spec = |id: &str, name: &str, colour: &str| Spec {
            id: id.into(),
            name: name.into(),
            colour: colour.into(),
        };
        let scenario = Scenario {
            sides: vec![spec("a", "Blue", "#00f"), spec("b", "Red", "#f00")],
        };
        let table = Table {
            width: Distance(120.0),
            height: Distance(80.0),
        };
        let m = MapView::blank(&table, "cm", &scenario);
        assert_eq!((m.width, m.height, m.unit.as_str()), (120.0, 80.0, "cm"));
        assert_eq!(m.sides.len(), 2);
        assert_eq!(m.sides[1].side, SideId::from("b"));
        assert_eq!(
            (m.sides[0].name.as_str(), m.sides[0].colour.as_str()),
            ("Blue", "#00f")
        );
        assert!(m.units.is_empty() && m.terrain.is_empty() && !m.turned);
    }

    #[test]
    fn shared_map_parts_from_scenario_data() {
        let line = Shape::Polyline {
            points: vec![Point::new(0.0, 0.0), Point::new(1.0, 0.0)],
            width: Distance(1.0),
        };
        let area = Shape::Polygon {
            points: vec![
                Point::new(0.0, 0.0),
                Point::new(1.0, 0.0),
                Point::new(0.0, 1.0),
            ],
        };
        assert!(!terrain_view("r".into(), &line, TerrainStyle::Road).closed);
        assert!(terrain_view("w".into(), &area, TerrainStyle::Woods).closed);
        // Water before woods; a bridge is a road; a crest a hill; else field.
        let f = |tags| tag_style(&feature(tags, area.clone()));
        assert_eq!(
            f(vec![TerrainTag::Woods, TerrainTag::Water]),
            TerrainStyle::Water
        );
        assert_eq!(f(vec![TerrainTag::Bridge]), TerrainStyle::Road);
        assert_eq!(f(vec![TerrainTag::Crest]), TerrainStyle::Hill);
        assert_eq!(f(vec![TerrainTag::Cover]), TerrainStyle::Field);
        let z = rect_zone(1, Point::new(0.0, 0.0), Point::new(2.0, 3.0));
        assert_eq!(z.side, 1);
        assert_eq!(z.points[2], Point::new(2.0, 3.0));
        assert_eq!(z.points[3], Point::new(0.0, 3.0));
    }

    #[test]
    fn a_rulesets_own_order_of_tags_picks_the_fill() {
        let area = Shape::Polygon {
            points: vec![
                Point::new(0.0, 0.0),
                Point::new(1.0, 0.0),
                Point::new(0.0, 1.0),
            ],
        };
        let roads_first = [
            (TerrainTag::Road, TerrainStyle::Road),
            (TerrainTag::Water, TerrainStyle::Water),
        ];
        let ford = feature(vec![TerrainTag::Water, TerrainTag::Road], area.clone());
        assert_eq!(
            first_tag_style(&ford, &roads_first, TerrainStyle::Rough),
            TerrainStyle::Road
        );
        assert_eq!(tag_style(&ford), TerrainStyle::Water);
        let bare = feature(Vec::new(), area);
        assert_eq!(
            first_tag_style(&bare, &roads_first, TerrainStyle::Rough),
            TerrainStyle::Rough
        );
        let views = terrain_views(&[bare], |_| TerrainStyle::Hill);
        assert_eq!(
            (views[0].name.as_str(), views[0].style),
            ("f", TerrainStyle::Hill)
        );
    }

    #[test]
    fn bases_keep_their_corners_and_side_and_traces_become_arrows() {
        let b = Base::new(
            Point::new(5.0, 5.0),
            Angle(0.0),
            Distance(4.0),
            Distance(2.0),
        );
        let v = base_views(std::slice::from_ref(&b), 1);
        assert_eq!((v[0].corners, v[0].side), (b.corners(), 1));
        assert_eq!(ArrowKind::from(TraceKind::Retreat), ArrowKind::FallBack);
        assert_eq!(ArrowKind::from(TraceKind::Charge), ArrowKind::Charge);
        let yaml = crate::yaml::to_string(&TraceKind::Retreat).unwrap_or_default();
        assert_eq!(
            yaml.trim(),
            "retreat",
            "states keep the name they always had"
        );
        let t = Trace {
            side: "a".into(),
            kind: TraceKind::Fire,
            points: vec![Point::new(0.0, 0.0), Point::new(3.0, 4.0)],
        };
        let a = t.arrow(1);
        assert_eq!((a.kind, a.side, a.path.len()), (ArrowKind::Fire, 1, 2));
    }

    #[test]
    fn a_briefing_has_the_title_then_each_line_of_the_description() {
        let p = briefing(
            "Ligny",
            "  First line.\n\n  Second. \n",
            vec!["Hold it".into()],
        );
        assert_eq!(p[0].title, "Briefing");
        assert_eq!(p[0].lines, vec!["Ligny", "First line.", "Second."]);
        assert_eq!(p[1].title, "Victory conditions");
        assert_eq!(p[1].lines, vec!["Hold it"]);
    }
}
