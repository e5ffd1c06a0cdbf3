//! What one reader may see of a game: plain data that the renderer turns into
//! HTML, SVG, PNG and text. Rulesets build it; they never write markup.

pub mod enemy;
mod parts;
pub mod plan;

pub use parts::{
    Trace, TraceKind, base_views, briefing, first_tag_style, rect_zone, side_styles, tag_style,
    terrain_view, terrain_views,
};

use crate::geometry::Point;
use crate::side::SideId;
use serde::{Deserialize, Serialize};

/// Who is looking.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Viewer {
    Side(SideId),
    Public,
    Umpire,
}

impl Viewer {
    pub fn label(&self) -> String {
        match self {
            Viewer::Side(s) => s.to_string(),
            Viewer::Public => "public".into(),
            Viewer::Umpire => "umpire".into(),
        }
    }
}

/// A side's look on the map.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SideStyle {
    pub side: SideId,
    pub name: String,
    /// CSS colour, such as `#1f4e9c`.
    pub colour: String,
}

/// What kind of ground a terrain feature is, for its fill.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TerrainStyle {
    Woods,
    Hill,
    Water,
    Rough,
    Marsh,
    Road,
    Wall,
    Town,
    Field,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TerrainView {
    pub name: String,
    pub style: TerrainStyle,
    /// Closed outline for areas; open polyline for roads, walls and streams.
    pub points: Vec<Point>,
    pub closed: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BaseView {
    /// Corners in order: front-left, front-right, rear-right, rear-left.
    pub corners: [Point; 4],
    /// Index into [`MapView::sides`].
    pub side: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UnitView {
    pub id: String,
    pub label: String,
    pub side: usize,
    pub bases: Vec<BaseView>,
    /// Where the label goes (usually the unit's centre).
    pub anchor: Point,
    /// Facing in degrees, clockwise from +y.
    pub facing: f64,
    /// Short formation name (`line`, `column`, `massed`, `artillery`).
    pub formation: String,
    pub disruption: u32,
    pub smoke: bool,
    /// Extra marker text, such as strength points.
    pub note: Option<String>,
    /// The unit's state in its ruleset's words where the map shows it
    /// otherwise (a counter), for lists such as the enemy as a side sees him.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub status: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MarkerKind {
    /// The commander-in-chief: a star labelled "CinC" and his name.
    Commander,
    Objective,
    /// Any general: a star with its label as given (name, character, the
    /// unit he is with).
    General,
    /// Gun smoke seen where no unit is seen: a grey ring with its label (a
    /// marker's id that orders may name).
    Smoke,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MarkerView {
    pub kind: MarkerKind,
    pub side: Option<usize>,
    pub at: Point,
    pub label: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArrowKind {
    Move,
    Fire,
    Charge,
    FallBack,
    /// Two units engaged in combat (no head).
    Engaged,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArrowView {
    pub kind: ArrowKind,
    pub side: usize,
    pub path: Vec<Point>,
}

/// An area shown for this step only, such as a fire zone that was used.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ZoneView {
    /// Index into [`MapView::sides`]: whose zone it is.
    pub side: usize,
    pub points: Vec<Point>,
}

/// The map: table, terrain, units, markers and this step's arrows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MapView {
    /// Title line drawn above the map (game, step, heading), so that the PNG
    /// reads on its own. Empty until the report is assembled; the renderer
    /// fills it from the [`ReportView`] when it draws a report's map.
    #[serde(default)]
    pub title: String,
    pub width: f64,
    pub height: f64,
    /// Name of the measure (`BW`, `in`, `cm`), for the scale bar.
    pub unit: String,
    pub sides: Vec<SideStyle>,
    pub terrain: Vec<TerrainView>,
    pub units: Vec<UnitView>,
    pub markers: Vec<MarkerView>,
    pub arrows: Vec<ArrowView>,
    /// Fire zones used this step.
    #[serde(default)]
    pub zones: Vec<ZoneView>,
    /// Each side's deployment zone, drawn while the armies deploy.
    #[serde(default)]
    pub deployment: Vec<ZoneView>,
    /// Drawn turned half round, the second side's table edge at the bottom
    /// (a reader's own edge; the renderer keeps the text upright).
    #[serde(default)]
    pub turned: bool,
    /// What the number on a unit's counter ([`UnitView::disruption`])
    /// counts, in its ruleset's words, for the legend; none when the
    /// ruleset draws no counter.
    #[serde(default)]
    pub counter: Option<String>,
    /// The letter drawn on a unit for each formation of the ruleset, all
    /// of them, in the order its legend explains them: the same key on
    /// every map of a game, whatever formations stand on the table.
    #[serde(default)]
    pub letters: Vec<Letter>,
}

/// One formation's letter on the map (`Sq` for `square`); formations that
/// share a letter are explained together by the legend.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Letter {
    pub formation: String,
    pub letter: String,
}

impl Letter {
    /// The key of a ruleset's formations from `(formation, letter)` pairs.
    pub fn key(pairs: &[(&str, &str)]) -> Vec<Letter> {
        pairs
            .iter()
            .map(|(formation, letter)| Letter {
                formation: (*formation).into(),
                letter: (*letter).into(),
            })
            .collect()
    }
}

/// A titled block of lines, such as "Your hand" or "Army morale".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Panel {
    pub title: String,
    pub lines: Vec<String>,
}

/// One die as a report shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DieLine {
    /// Position in its stream, for the audit (`public #17`).
    pub position: String,
    pub sides: u32,
    pub value: u32,
    pub purpose: String,
}

/// One event line with the dice it reports.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EventLine {
    pub text: String,
    pub dice: Vec<DieLine>,
}

/// Everything one reader gets for one step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReportView {
    pub game: String,
    pub ruleset: String,
    /// The step that was resolved.
    pub step: u32,
    /// A ruleset's own name for it, such as "Round 4, French active".
    pub heading: String,
    pub viewer: String,
    pub map: MapView,
    pub panels: Vec<Panel>,
    /// What changed in the step, in a few lines, as its ruleset tells it
    /// ([`crate::ruleset::Ruleset::tell`]); the events follow in detail.
    #[serde(default)]
    pub changed: Vec<String>,
    pub events: Vec<EventLine>,
    /// What comes next, such as "You owe orders for step 5 (round 5)".
    pub next: Vec<String>,
    /// The dice audit trail: revealed secret, order hashes, seed.
    pub audit: Vec<String>,
    /// The keys the server has on record, as `ssh-keygen -l` fingerprints:
    /// its own first, then every side's, so that each player sees from the
    /// first report on which key the server takes as his.
    #[serde(default)]
    pub keys: Vec<String>,
    /// YAML orders template for the next step, if this reader owes orders.
    pub orders_template: Option<String>,
    /// The enemy units this reader sees ([`crate::view::enemy::seen_by`]): a
    /// side's report only.
    #[serde(default)]
    pub enemy: Vec<crate::view::enemy::EnemyUnit>,
    /// Why a side's enemy list is empty, said where the list would be.
    #[serde(default)]
    pub enemy_note: Option<String>,
    /// The next deadline as this reader reads it: his zone, named, and UTC.
    #[serde(default)]
    pub deadline: Vec<String>,
    /// Said before anything else, such as that this step was resolved
    /// again after a rollback.
    #[serde(default)]
    pub notices: Vec<String>,
    /// Where the step's archive files are, which a report mail does not
    /// carry: the club site, and the `archive` request by mail.
    #[serde(default)]
    pub archive: Vec<String>,
}
