//! The campaign hook: a company's strength is its strength points, less
//! the hits it has taken. A battle begins with each force's companies
//! abreast along its edge, the side's deployment zone the band they stand
//! in, and the battlefield's generals, the first commanding them all.
//! House rule: in a campaign's battle every company fights as an
//! independent company (the battlefield's regiments name its own
//! companies, which are set aside).

use super::MorschauserMacduff;
use super::scenario::{CompanySpec, Rect, Scenario};
use super::state::{Company, State};
use crate::geometry::entry::{self, Footprint};
use crate::geometry::{Angle, Distance, Point};
use crate::muster::{self, Carried, Condition, Force, Muster, Mustered, Strength};
use crate::side::SideId;

fn mustered(field: &Scenario, c: &CompanySpec) -> Result<Mustered, String> {
    let full = field.profile(c)?.strength;
    let spec = CompanySpec {
        at: Point::new(0.0, 0.0),
        facing: Angle(0.0),
        hits: 0,
        ..c.clone()
    };
    let value = muster::unplaced(crate::yaml::to_value(&spec).map_err(|e| e.to_string())?);
    Ok(Mustered {
        id: c.id.clone(),
        spec: value,
        strength: Strength {
            now: full.saturating_sub(c.hits),
            full,
        },
        condition: if c.hits > 0 {
            Condition::Shaken
        } else {
            Condition::Steady
        },
        scout: c.troop.is_cavalry(),
    })
}

/// A campaign's company entry, placed nowhere yet.
fn read(spec: &serde_yaml::Value) -> Result<CompanySpec, String> {
    crate::yaml::from_value(muster::placed_nowhere(spec))
        .map_err(|e| format!("a company of morschauser-macduff: {e}"))
}

impl Muster for MorschauserMacduff {
    fn strength_word(&self) -> &'static str {
        "strength points"
    }

    fn roster(&self, scenario: &Scenario) -> Result<Vec<(SideId, Mustered)>, String> {
        let mut out = Vec::new();
        for side in &scenario.sides {
            for c in &side.companies {
                out.push((side.id.clone(), mustered(scenario, c)?));
            }
        }
        Ok(out)
    }

    fn enlist(&self, field: &Scenario, spec: &serde_yaml::Value) -> Result<Mustered, String> {
        let c = read(spec)?;
        let m = mustered(field, &c).map_err(|e| format!("company {}: {e}", c.id))?;
        if c.hits >= m.strength.full {
            return Err(format!("company {}: its hits leave nothing", c.id));
        }
        Ok(m)
    }

    fn muster(&self, field: &Scenario, forces: &[Force]) -> Result<Scenario, String> {
        let mut battle = field.clone();
        let base = field.base;
        for side in &mut battle.sides {
            let force = muster::force_of(forces, &side.id)?;
            let fighting: Vec<&Mustered> = force
                .units
                .iter()
                .filter(|u| u.condition != Condition::Lost)
                .collect();
            let foot = Footprint {
                frontage: base.width,
                depth: base.depth,
            };
            let places = entry::enter(
                field.table,
                force.edge,
                &vec![foot; fighting.len()],
                base.width,
            )
            .map_err(|e| format!("side {}: {e}", side.id))?;
            let mut deepest: f64 = 0.0;
            side.companies = fighting
                .iter()
                .zip(&places)
                .map(|(u, p)| {
                    let c = read(&u.spec).map_err(|e| format!("company {}: {e}", u.id))?;
                    let full = field.profile(&c)?.strength;
                    let inset = entry::inset(field.table, force.edge, p.front);
                    deepest = deepest.max(inset);
                    Ok(CompanySpec {
                        id: u.id.clone(),
                        at: p.front,
                        facing: p.facing,
                        hits: full - u.strength.now.min(full),
                        ..c
                    })
                })
                .collect::<Result<_, String>>()?;
            side.regiments.clear();
            let (min, max) = entry::band(field.table, force.edge, deepest + base.depth.get());
            side.zone = Some(Rect { min, max });
            let all: Vec<String> = side.companies.iter().map(|c| c.id.clone()).collect();
            // The generals stand behind the middle of the line.
            let rear = entry::enter(
                field.table,
                force.edge,
                &[Footprint {
                    frontage: base.width,
                    depth: Distance(base.depth.get() / 2.0),
                }],
                Distance(base.depth.get() / 4.0),
            )
            .map_err(|e| format!("side {}: {e}", side.id))?;
            for (i, g) in side.generals.iter_mut().enumerate() {
                g.at = rear[0].front;
                g.commands = if i == 0 { all.clone() } else { Vec::new() };
            }
        }
        Ok(battle)
    }

    fn carry(&self, state: &State) -> Vec<Carried> {
        state
            .companies
            .iter()
            .map(|c: &Company| {
                let (now, condition) = if c.destroyed {
                    (0, Condition::Lost)
                } else if c.hits > 0 {
                    (c.strength(), Condition::Shaken)
                } else {
                    (c.strength(), Condition::Steady)
                };
                Carried {
                    id: c.id.clone(),
                    side: c.side.clone(),
                    strength: Strength {
                        now,
                        full: c.profile.strength,
                    },
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

    const FIELD: &str = include_str!("../../../games/morschauser-macduff/crossroads.yaml");

    #[test]
    fn hits_taken_in_one_battle_are_carried_into_the_next() {
        let field: Scenario = crate::yaml::from_str(FIELD).unwrap();
        let roster = MorschauserMacduff.roster(&field).unwrap();
        let side = |s: &str| -> Vec<Mustered> {
            roster
                .iter()
                .filter(|(x, _)| x.as_str() == s)
                .map(|(_, m)| m.clone())
                .collect()
        };
        let mut british = side("british");
        let full = british[0].strength.full;
        british[0].strength = british[0].strength.less(1);
        let forces = vec![
            Force {
                side: SideId::from("british"),
                edge: TableEdge::North,
                units: british,
            },
            Force {
                side: SideId::from("french"),
                edge: TableEdge::South,
                units: side("french"),
            },
        ];
        let battle = MorschauserMacduff.muster(&field, &forces).unwrap();
        let state = crate::ruleset::Ruleset::start(&MorschauserMacduff, &battle).unwrap();
        let first = state.companies.iter().find(|c| c.id == "br-1a").unwrap();
        assert_eq!((first.hits, first.strength()), (1, full - 1));
        assert!(first.at.y > 40.0, "the British enter by the north edge");
        let again = MorschauserMacduff.roster(&battle).unwrap();
        assert_eq!(again[0].1.strength.now, full - 1);
    }
}
