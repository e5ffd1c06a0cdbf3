//! The campaign hook: a unit's strength is its bases. Units here lose no
//! bases in battle, only the whole unit, so what a campaign takes off (a
//! forced march) comes in as `bases_lost`. A battle begins with each
//! force's units abreast along its edge, in the side's first corps (a
//! house rule: the battlefield's corps, commanders and generals command
//! the campaign's units), the deployment zone the band they stand in.

use super::NapoleonicCorps;
use super::formation::lay_out;
use super::scenario::{Rect, Scenario, UnitSpec};
use super::state::State;
use super::tables::Arm;
use crate::geometry::entry::{self, Footprint};
use crate::geometry::{Angle, Distance, Point};
use crate::muster::{self, Carried, Condition, Force, Muster, Mustered, Strength};
use crate::side::SideId;

/// The reasons a unit leaves the table that it lives through.
const LIVES: [&str; 3] = [
    "retreated off the table",
    "routed",
    "lost control: removed from the field",
];

fn mustered(u: &UnitSpec) -> Mustered {
    let spec = UnitSpec {
        at: Point::new(0.0, 0.0),
        facing: Angle(0.0),
        bases_lost: 0,
        ..u.clone()
    };
    let value = muster::unplaced(crate::yaml::to_value(&spec).unwrap_or_default());
    Mustered {
        id: u.id.clone(),
        spec: value,
        strength: Strength {
            now: u.bases.saturating_sub(u.bases_lost),
            full: u.bases,
        },
        condition: Condition::Steady,
        scout: u.troop.arm() == Arm::Cavalry,
    }
}

fn read(spec: &serde_yaml::Value) -> Result<UnitSpec, String> {
    crate::yaml::from_value(muster::placed_nowhere(spec))
        .map_err(|e| format!("a unit of napoleonic-corps: {e}"))
}

impl Muster for NapoleonicCorps {
    fn strength_word(&self) -> &'static str {
        "bases"
    }

    fn roster(&self, scenario: &Scenario) -> Result<Vec<(SideId, Mustered)>, String> {
        Ok(scenario
            .sides
            .iter()
            .flat_map(|s| {
                s.corps
                    .iter()
                    .flat_map(move |c| c.units.iter().map(move |u| (s.id.clone(), mustered(u))))
            })
            .collect())
    }

    fn enlist(&self, _field: &Scenario, spec: &serde_yaml::Value) -> Result<Mustered, String> {
        let u = read(spec)?;
        if !(1..=12).contains(&u.bases) || u.bases_lost >= u.bases {
            return Err(format!(
                "unit {}: 1 to 12 bases, and not all of them lost",
                u.id
            ));
        }
        Ok(mustered(&u))
    }

    fn muster(&self, field: &Scenario, forces: &[Force]) -> Result<Scenario, String> {
        let mut battle = field.clone();
        let (bw, bd) = (field.base.width, field.base.depth);
        for side in &mut battle.sides {
            let force = muster::force_of(forces, &side.id)?;
            let mut units: Vec<UnitSpec> = force
                .units
                .iter()
                .filter(|u| u.condition != Condition::Lost)
                .map(|u| {
                    let spec = read(&u.spec).map_err(|e| format!("unit {}: {e}", u.id))?;
                    Ok(UnitSpec {
                        id: u.id.clone(),
                        bases_lost: spec.bases - u.strength.now.clamp(1, spec.bases),
                        ..spec
                    })
                })
                .collect::<Result<_, String>>()?;
            // Each unit's frontage and depth in its formation, laid out
            // facing north at the origin, its front edge on y = 0.
            let feet: Vec<Footprint> = units
                .iter()
                .map(|u| {
                    let bases = lay_out(
                        u.formation,
                        u.bases - u.bases_lost,
                        Point::new(0.0, 0.0),
                        Angle(0.0),
                        bw,
                        bd,
                    );
                    let xs = bases.iter().flat_map(|b| b.corners()).map(|p| p.x);
                    let ys: Vec<f64> = bases
                        .iter()
                        .flat_map(|b| b.corners())
                        .map(|p| p.y)
                        .collect();
                    let (lo, hi) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
                        (a.min(x), b.max(x))
                    });
                    let deep = ys.iter().cloned().fold(0.0, f64::max)
                        - ys.iter().cloned().fold(0.0, f64::min);
                    Footprint {
                        frontage: Distance(hi - lo),
                        depth: Distance(deep),
                    }
                })
                .collect();
            let places = entry::enter(field.table, force.edge, &feet, bw)
                .map_err(|e| format!("side {}: {e}", side.id))?;
            let mut deepest: f64 = 0.0;
            for ((u, p), f) in units.iter_mut().zip(&places).zip(&feet) {
                u.at = p.front;
                u.facing = p.facing;
                let inset = entry::inset(field.table, force.edge, p.front);
                deepest = deepest.max(inset + f.depth.get());
            }
            let ids: Vec<String> = units.iter().map(|u| u.id.clone()).collect();
            let rear = entry::enter(
                field.table,
                force.edge,
                &[Footprint {
                    frontage: bw,
                    depth: Distance(bd.get() / 2.0),
                }],
                Distance(bd.get() / 4.0),
            )
            .map_err(|e| format!("side {}: {e}", side.id))?;
            for (i, corps) in side.corps.iter_mut().enumerate() {
                corps.at = rear[0].front;
                corps.units = if i == 0 {
                    std::mem::take(&mut units)
                } else {
                    Vec::new()
                };
                for g in &mut corps.generals {
                    if g.attached.as_ref().is_some_and(|a| !ids.contains(a)) {
                        g.attached = None;
                    }
                }
            }
            side.corps.retain(|c| !c.units.is_empty());
            let (min, max) = entry::band(field.table, force.edge, deepest + bd.get());
            side.zone = Some(Rect { min, max });
        }
        Ok(battle)
    }

    fn carry(&self, state: &State) -> Vec<Carried> {
        state
            .units
            .iter()
            .map(|u| {
                let full = state
                    .scenario
                    .sides
                    .iter()
                    .flat_map(|s| s.corps.iter().flat_map(|c| c.units.iter()))
                    .find(|x| x.id == u.id)
                    .map_or(u.bases, |x| x.bases);
                let (now, condition) = match u.gone.as_deref() {
                    Some(why) if LIVES.contains(&why) => (u.bases, Condition::Routed),
                    Some(_) => (0, Condition::Lost),
                    None if u.disordered || u.unformed => (u.bases, Condition::Shaken),
                    None => (u.bases, Condition::Steady),
                };
                Carried {
                    id: u.id.clone(),
                    side: u.side.clone(),
                    strength: Strength { now, full },
                    condition,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::muster::TableEdge;

    const FIELD: &str = include_str!("../../../games/napoleonic-corps/test-skirmish.yaml");

    #[test]
    fn bases_lost_on_the_march_are_carried_into_the_battle_and_read_back() {
        let field: Scenario = crate::yaml::from_str(FIELD).unwrap();
        let roster = NapoleonicCorps.roster(&field).unwrap();
        let side = |s: &str| -> Vec<Mustered> {
            roster
                .iter()
                .filter(|(x, _)| x.as_str() == s)
                .map(|(_, m)| m.clone())
                .collect()
        };
        let mut french = side("french");
        assert_eq!(
            french[0].strength,
            Strength::fresh(4),
            "1er Ligne's four bases"
        );
        french[0].strength = french[0].strength.less(1);
        let forces = vec![
            Force {
                side: SideId::from("french"),
                edge: TableEdge::East,
                units: french,
            },
            Force {
                side: SideId::from("austrian"),
                edge: TableEdge::West,
                units: side("austrian"),
            },
        ];
        let battle = NapoleonicCorps.muster(&field, &forces).unwrap();
        let state = State::new(&battle).unwrap();
        let line = state.units.iter().find(|u| u.id == "fr-line").unwrap();
        assert_eq!(line.bases, 3);
        assert!(
            line.at.x > 60.0 && line.facing == Angle(270.0),
            "the French enter by the east edge"
        );
        let c = NapoleonicCorps.carry(&state);
        let back = c.iter().find(|c| c.id == "fr-line").unwrap();
        assert_eq!((back.strength.now, back.strength.full), (3, 4));
    }
}
