//! What a base's fire zone shows: the first base under it, after friends,
//! obstructions, crests and hills have had their say.

use super::super::state::State;
use super::super::units::Unit;
use crate::geometry::zone::{Zone, segment_to_feature};
use crate::geometry::{
    Base, Distance, Point, Shape, TerrainFeature, TerrainTag, line_of_sight, within,
};
use crate::side::SideId;

/// Terrain that shortens a fire zone (the source names woods, walls and
/// entrenchments). House rule: towns obstruct too, and a feature tagged
/// `obstruction` stands for entrenchments and anything else the scenario
/// wants to block fire.
pub const OBSTRUCTING: [TerrainTag; 4] = [
    TerrainTag::Obstruction,
    TerrainTag::Woods,
    TerrainTag::Wall,
    TerrainTag::Town,
];

/// Terrain that gives cover to a target in or behind it. House rule: towns
/// give cover as woods do.
pub const COVERING: [TerrainTag; 4] = [
    TerrainTag::Cover,
    TerrainTag::Wall,
    TerrainTag::Woods,
    TerrainTag::Town,
];

/// House rule: a linear feature within this distance of a base's front
/// edge is that base's own wall, which neither obstructs its fire nor gives
/// its target cover ("flush behind the wall").
pub const OWN_WALL_TOLERANCE: f64 = 0.1;

/// The fire zone ends this far past the point where an obstruction first
/// appears in it.
pub const PAST_OBSTRUCTION: f64 = 1.0;

/// A base on the table that may turn up in a zone.
pub struct Other {
    pub unit: String,
    pub side: SideId,
    /// 0-based in the unit's layout.
    pub index: usize,
    pub base: Base,
    /// The base's box, computed once for pruning.
    pub bounds: crate::geometry::Bounds,
    /// The base's corners, computed once for the many zones that test it.
    pub corners: [Point; 4],
}

/// One shooting base and the terrain it ignores.
pub struct Eye<'a> {
    pub unit: &'a Unit,
    /// 0-based in the unit's layout.
    pub index: usize,
    pub base: Base,
    /// Indexes into the scenario's terrain of features that neither
    /// obstruct this base's fire nor cover its targets: its own wall, and
    /// any obstructing or covering feature it stands in.
    pub ignored: Vec<usize>,
    pub elevation: f64,
}

/// What the first base reached in a zone is.
#[derive(Clone, Debug, PartialEq)]
pub enum Seen {
    Target {
        unit: String,
        index: usize,
        depth: f64,
    },
    Friend {
        unit: String,
    },
    Nothing,
}

/// A zone as laid and what it showed.
#[derive(Clone, Debug)]
pub struct Look {
    pub turn: f64,
    /// Ends where an obstruction cut it short.
    pub zone: Zone,
    pub seen: Seen,
    /// The obstruction that cut the zone short, if one did.
    pub obstruction: Option<String>,
}

/// Everything on the table fire needs, gathered once.
pub struct Scene<'a> {
    pub state: &'a State,
    pub others: Vec<Other>,
    /// Indices into `others` by grid cell, so that a zone looks only at
    /// the bases near it (spatial pruning; the answer is the same).
    grid: std::collections::BTreeMap<(i64, i64), Vec<usize>>,
}

/// Side of a grid cell (BW): about a zone's short range.
const CELL: f64 = 4.0;

fn cells(b: &crate::geometry::Bounds) -> impl Iterator<Item = (i64, i64)> {
    let c = |v: f64| (v / CELL).floor() as i64;
    let (x0, x1, y0, y1) = (c(b.min.x), c(b.max.x), c(b.min.y), c(b.max.y));
    (x0..=x1).flat_map(move |x| (y0..=y1).map(move |y| (x, y)))
}

impl<'a> Scene<'a> {
    /// Gather every base on the table.
    pub fn new(state: &'a State) -> Scene<'a> {
        let m = state.scenario.measure;
        let others = state
            .units
            .iter()
            .filter(|u| u.on_table())
            .flat_map(|u| {
                u.bases(&m)
                    .into_iter()
                    .enumerate()
                    .map(|(index, base)| Other {
                        unit: u.id.clone(),
                        side: u.side.clone(),
                        index,
                        bounds: crate::geometry::Bounds::of_base(&base),
                        corners: base.corners(),
                        base,
                    })
            })
            .collect::<Vec<Other>>();
        let mut grid: std::collections::BTreeMap<(i64, i64), Vec<usize>> = Default::default();
        for (i, o) in others.iter().enumerate() {
            for cell in cells(&o.bounds) {
                grid.entry(cell).or_default().push(i);
            }
        }
        Scene {
            state,
            others,
            grid,
        }
    }

    /// The scenario's terrain.
    pub fn terrain(&self) -> &'a [TerrainFeature] {
        &self.state.scenario.terrain
    }

    /// The shooting base `index` of `unit`, if the unit has it on the table.
    pub fn eye(&self, unit: &'a Unit, index: usize) -> Option<Eye<'a>> {
        let base = *unit.bases(&self.state.scenario.measure).get(index)?;
        let (fl, fr) = base.front_edge();
        let ignored = self
            .terrain()
            .iter()
            .enumerate()
            .filter(|(_, t)| blocks_or_covers(t))
            .filter(|(_, t)| {
                t.touches_bases(&[base])
                    || (matches!(t.shape, Shape::Polyline { .. })
                        && segment_to_feature(fl, fr, t).0 <= OWN_WALL_TOLERANCE)
            })
            .map(|(i, _)| i)
            .collect();
        Some(Eye {
            unit,
            index,
            base,
            ignored,
            elevation: elevation(self.terrain(), &base),
        })
    }

    /// Lay the zone of `eye` turned `turn` degrees, reaching `range` from
    /// the base, and see what it reaches first.
    pub fn look(&self, eye: &Eye, turn: f64, range: f64) -> Look {
        let full = Zone::ahead_of(&eye.base, turn, Distance(range));
        let near = self.near(&[full]);
        self.look_among(eye, turn, range, &near)
    }

    /// Indices into `others` of the bases whose boxes may meet the box of
    /// the zones (all of them without one): a superset of what each zone's
    /// own look keeps, so that one query serves many looks.
    pub fn near(&self, zones: &[Zone]) -> Vec<usize> {
        let Some(r) = crate::geometry::Bounds::of_points(zones.iter().flat_map(|z| z.corners()))
        else {
            return (0..self.others.len()).collect();
        };
        let grown = crate::geometry::Bounds {
            min: Point {
                x: r.min.x - 1e-3,
                y: r.min.y - 1e-3,
            },
            max: Point {
                x: r.max.x + 1e-3,
                y: r.max.y + 1e-3,
            },
        };
        self.near_box(&grown)
    }

    /// Indices into `others` of the bases in the grid cells under `b`.
    fn near_box(&self, b: &crate::geometry::Bounds) -> Vec<usize> {
        let mut v: Vec<usize> = cells(b)
            .filter_map(|c| self.grid.get(&c))
            .flatten()
            .copied()
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// [`Scene::look`] among the bases `near` (from [`Scene::near`] with
    /// this zone among its zones).
    ///
    /// What a zone shows is the first base, nearest first, that fire can
    /// reach; bases are measured exactly in the order of a lower bound on
    /// their distance (their nearest corner), and the measuring stops once
    /// the first reachable base found is nearer than that bound for every
    /// base not yet measured: the answer is the one measuring all would give.
    pub fn look_among(&self, eye: &Eye, turn: f64, range: f64, near: &[usize]) -> Look {
        let full = Zone::ahead_of(&eye.base, turn, Distance(range));
        let length = full.length.0;
        let pending = self.pending(eye, &full, near);
        let mut found: Vec<(f64, &Other)> = Vec::new();
        let (mut checked, mut next) = (0, 0);
        let mut cut_by: Option<(Option<(f64, &TerrainFeature)>, f64)> = None;
        let mut chosen: Option<(f64, &Other, bool)> = None;
        'search: loop {
            let bound = pending.get(next).map_or(f64::INFINITY, |p| p.0);
            if found.len() > checked {
                // Every base measured later sorts after these.
                found[checked..].sort_by(|a, b| first_seen(eye, a, b));
                let (_, cut) = *cut_by.get_or_insert_with(|| self.cut(eye, &full));
                while checked < found.len() && found[checked].0 < bound {
                    let (depth, o) = found[checked];
                    checked += 1;
                    // The zone's end, where an obstruction put it, counts as
                    // the range's end does.
                    let in_reach = within(depth, cut);
                    // House rule: a base standing higher than the shooter (on a hill)
                    // is seen over obstructions; crests still hide it.
                    let reachable = in_reach || elevation(self.terrain(), &o.base) > eye.elevation;
                    if reachable && self.visible(&eye.base, &o.base) {
                        chosen = Some((depth, o, in_reach));
                        break 'search;
                    }
                }
            }
            let Some((_, o)) = pending.get(next) else {
                break;
            };
            next += 1;
            if let Some(d) = full.entry_of_corners(&o.corners) {
                found.push((d.0, o));
            }
        }
        if found.is_empty() {
            return Look {
                turn,
                zone: full,
                seen: Seen::Nothing,
                obstruction: None,
            };
        }
        let (obstruction, cut) = cut_by.unwrap_or_else(|| self.cut(eye, &full));
        let (seen, beyond_cut) = match chosen {
            None => (Seen::Nothing, false),
            Some((_, o, in_reach)) if o.side == eye.unit.side => (
                Seen::Friend {
                    unit: o.unit.clone(),
                },
                !in_reach,
            ),
            Some((depth, o, in_reach)) => (
                Seen::Target {
                    unit: o.unit.clone(),
                    index: o.index,
                    depth,
                },
                !in_reach,
            ),
        };
        let zone = if beyond_cut {
            full
        } else {
            full.with_length(Distance(cut))
        };
        Look {
            turn,
            zone,
            seen,
            obstruction: obstruction
                .filter(|(d, _)| d + PAST_OBSTRUCTION < length)
                .map(|(_, t)| t.name.clone()),
        }
    }

    /// Whether an enemy base may stand in any zone of `eye` reaching
    /// `range`, turned or not. Every zone lies within `range` of the
    /// base's front edge ([`Zone::ahead_of`] shortens swung ones so), so
    /// within `range` and half a width of its front centre: an enemy base
    /// whose box is farther (with a margin far above rounding) cannot
    /// enter one.
    pub fn enemy_around(&self, eye: &Eye, range: f64) -> bool {
        let c = eye.base.front_center();
        let r = range + eye.base.width.0 / 2.0 + 1e-2;
        let around = crate::geometry::Bounds {
            min: Point {
                x: c.x - r,
                y: c.y - r,
            },
            max: Point {
                x: c.x + r,
                y: c.y + r,
            },
        };
        cells(&around)
            .filter_map(|cell| self.grid.get(&cell))
            .flatten()
            .map(|i| &self.others[*i])
            .any(|o| {
                let dx = (o.bounds.min.x - c.x).max(c.x - o.bounds.max.x).max(0.0);
                let dy = (o.bounds.min.y - c.y).max(c.y - o.bounds.max.y).max(0.0);
                o.side != eye.unit.side && dx * dx + dy * dy <= r * r
            })
    }

    /// The enemy bases of `near` (from [`Scene::near`] with `zones`) whose
    /// boxes may meet the box of the zones: a superset of the enemy bases
    /// [`Scene::look_among`] measures for any of them.
    pub fn enemies_near<'s>(&'s self, eye: &Eye, zones: &[Zone], near: &[usize]) -> Vec<&'s Other> {
        let all = crate::geometry::Bounds::of_points(zones.iter().flat_map(|z| z.corners()));
        near.iter()
            .map(|i| &self.others[*i])
            .filter(|o| o.side != eye.unit.side)
            .filter(|o| all.is_none_or(|r| o.bounds.within(&r, 1e-3)))
            .collect()
    }

    /// Whether any of `bases` enters `zone`, by the same tests
    /// [`Scene::look_among`] makes: when none does, the zone cannot show
    /// one of them.
    pub fn any_enters(&self, zone: &Zone, bases: &[&Other]) -> bool {
        let reach = crate::geometry::Bounds::of_points(zone.corners());
        bases.iter().any(|o| {
            reach.is_none_or(|r| o.bounds.within(&r, 1e-3))
                && zone.entry_of_corners(&o.corners).is_some()
        })
    }

    /// The bases of `near` that may be in the zone, with a lower bound on
    /// where each would first appear in it, least first.
    fn pending<'s>(&'s self, eye: &Eye, full: &Zone, near: &[usize]) -> Vec<(f64, &'s Other)> {
        // Bases whose boxes stand clear of the zone's box cannot enter it:
        // pruned before the exact geometry, which changes no answer.
        let reach = crate::geometry::Bounds::of_points(full.corners());
        let ruler = full.ruler();
        let mut v: Vec<(f64, &Other)> = near
            .iter()
            .map(|i| &self.others[*i])
            .filter(|o| reach.is_none_or(|r| o.bounds.within(&r, 1e-3)))
            .filter(|o| o.unit != eye.unit.id)
            .map(|o| (ruler.nearest(&o.corners), o))
            .collect();
        v.sort_by(|a, b| a.0.total_cmp(&b.0));
        v
    }

    /// The first obstruction in the zone, and where the zone ends for it.
    fn cut(&self, eye: &Eye, full: &Zone) -> (Option<(f64, &'a TerrainFeature)>, f64) {
        let obstruction = self
            .terrain()
            .iter()
            .enumerate()
            .filter(|(i, t)| !eye.ignored.contains(i) && OBSTRUCTING.iter().any(|g| t.has(*g)))
            .filter_map(|(_, t)| full.entry_of_feature(t).map(|d| (d.0, t)))
            .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.id.cmp(&b.1.id)));
        let cut = obstruction
            .map(|(d, _)| (d + PAST_OBSTRUCTION).min(full.length.0))
            .unwrap_or(full.length.0);
        (obstruction, cut)
    }

    /// Whether some straight line from the shooter's front edge reaches
    /// `target` without crossing a crest. House rule: the scenario marks
    /// crest lines as features tagged `crest`; a base standing on one sees
    /// and is seen across it.
    pub fn visible(&self, shooter: &Base, target: &Base) -> bool {
        let terrain = self.terrain();
        if !terrain.iter().any(|t| t.has(TerrainTag::Crest)) {
            return true;
        }
        let (fl, fr) = shooter.front_edge();
        let from = [fl, shooter.front_center(), fr];
        let mut to: Vec<Point> = target.corners().to_vec();
        to.push(target.center);
        from.iter().any(|a| {
            to.iter()
                .any(|b| line_of_sight(*a, *b, terrain, &[TerrainTag::Crest]))
        })
    }
}

/// The order in which bases appear in a zone: nearest first; at equal
/// distance a friend comes first, so that a tie never lets fire through a
/// friendly base.
fn first_seen(eye: &Eye, (da, a): &(f64, &Other), (db, b): &(f64, &Other)) -> std::cmp::Ordering {
    da.total_cmp(db)
        .then((a.side != eye.unit.side).cmp(&(b.side != eye.unit.side)))
        .then(a.unit.cmp(&b.unit))
        .then(a.index.cmp(&b.index))
}

/// Whether a feature obstructs fire or gives cover.
pub fn blocks_or_covers(t: &TerrainFeature) -> bool {
    OBSTRUCTING.iter().chain(COVERING.iter()).any(|g| t.has(*g))
}

/// How high a base stands: the highest hill it is on (a hill without an
/// elevation counts as 1), else 0.
pub fn elevation(terrain: &[TerrainFeature], base: &Base) -> f64 {
    terrain
        .iter()
        .filter(|t| t.has(TerrainTag::Hill) && t.touches_bases(&[*base]))
        .map(|t| t.elevation.unwrap_or(1.0))
        .fold(0.0, f64::max)
}
