//! What the orders page offers (issue 32): in the phasing side's turn each
//! unit's move from the centre of its front edge (its allowance as it
//! stands and when it turns or changes formation, its road rate), the
//! formations its arm may take, the enemies its cavalry may charge and
//! those it may fire at from where it stands; the rally passes as a form.
//! At setup, each unit's formation. Standing reactions and the defensive
//! fire decision are left to the orders file (the page shows its template).

use super::fire_bar::bar;
use super::formation::Formation;
use super::movement::{allowance, road_rate};
use super::options::{ahead_of, charge_targets, turn_facts};
use super::state::{Phase, State, Unit};
use super::tables::Arm;
use crate::side::SideId;
use crate::view::plan::{Choice, Field, FieldKind, MoveShape, Plan, Reach, TargetChoice, UnitPlan};

const FORMATIONS: [Formation; 7] = [
    Formation::Line,
    Formation::Column,
    Formation::Square,
    Formation::Skirmish,
    Formation::Deployed,
    Formation::Limbered,
    Formation::Unlimbered,
];

pub fn plan(s: &State, side: &SideId) -> Option<Plan> {
    match &s.phase {
        Phase::Setup => Some(Plan {
            units: s.live(side).map(setup_unit).collect(),
            notes: vec![
                "Setup: choose each unit's starting formation; moves, fire and charges begin with the first turn".into(),
            ],
            extra: serde_json::json!({"phase": "setup"}),
            ..Plan::default()
        }),
        Phase::Turn { phasing, .. } if phasing == side => Some(Plan {
            units: s.live(side).map(|u| turn_unit(s, u)).collect(),
            fields: passes(s, side),
            notes: vec![
                "Moves: rough ground (water, woods, up hill, a linear obstacle) shortens no move but costs a rally-table test; friends do not block; an enemy met ends the move there".into(),
                "Fire is reckoned from where the units stand now (advancing fire comes after the moves and charges)".into(),
            ],
            extra: serde_json::json!({"phase": "turn"}),
            ground: Vec::new(),
        }),
        Phase::Turn { .. } | Phase::Decision { .. } | Phase::Over(_) => None,
    }
}

fn base(u: &Unit) -> UnitPlan {
    UnitPlan {
        id: u.id.clone(),
        label: u.name.clone(),
        at: u.at,
        facing: u.facing.degrees(),
        formation: u.formation.name().into(),
        reach: None,
        formations: Vec::new(),
        targets: Vec::new(),
        fields: Vec::new(),
        notes: Vec::new(),
    }
}

fn formations(u: &Unit) -> Vec<String> {
    FORMATIONS
        .iter()
        .filter(|f| f.fits(u.arm()))
        .map(|f| f.name().to_string())
        .collect()
}

fn setup_unit(u: &Unit) -> UnitPlan {
    UnitPlan {
        formations: formations(u),
        ..base(u)
    }
}

fn turn_unit(s: &State, u: &Unit) -> UnitPlan {
    let free = !u.shaken() && s.contacts(u).is_empty();
    let reach = free.then(|| Reach {
        full: allowance(u, u.formation, false, false),
        turned: Some(allowance(u, u.formation, true, false)),
        road: road_rate(u, u.formation),
        shape: MoveShape::Free,
        shortened_by: vec![
            "an enemy met ends the move there".into(),
            "rough ground costs a rally-table test".into(),
        ],
        ground: Vec::new(),
    });
    let mut targets = Vec::new();
    if free && u.arm() == Arm::Cavalry {
        let options: Vec<Choice> = charge_targets(s, u)
            .into_iter()
            .map(|(d, e)| Choice::new(&e.id, format!("{} ({d:.1} cm)", e.name)))
            .collect();
        if !options.is_empty() {
            targets.push(TargetChoice {
                kind: "charge".into(),
                label: "Charge".into(),
                options,
            });
        }
    }
    if u.mods().fire.is_some() && u.formation != Formation::Limbered && s.contacts(u).is_empty() {
        let (near, _) = ahead_of(s, u);
        let options: Vec<Choice> = near
            .into_iter()
            .filter(|(_, e)| bar(s, u, e, &[]).is_none())
            .map(|(d, e)| Choice::new(&e.id, format!("{} ({d:.1} cm)", e.name)))
            .collect();
        if !options.is_empty() {
            targets.push(TargetChoice {
                kind: "fire".into(),
                label: "Advancing fire at".into(),
                options,
            });
        }
    }
    UnitPlan {
        reach,
        formations: if free { formations(u) } else { Vec::new() },
        targets,
        notes: turn_facts(s, u),
        ..base(u)
    }
}

/// The rally: disordered or unformed units a corps commander may spend a
/// morale pass on (the server checks his passes and distance).
fn passes(s: &State, side: &SideId) -> Vec<Field> {
    let options: Vec<Choice> = s
        .live(side)
        .filter(|u| u.shaken())
        .map(|u| Choice::new(&u.id, &u.name))
        .collect();
    if options.is_empty() {
        return Vec::new();
    }
    vec![
        Field::new(
            "passes",
            "Rally with a morale pass",
            FieldKind::Many { options },
        )
        .help("each costs its corps commander a pass; he must be within 30 cm"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::Ruleset;
    use crate::rulesets::napoleonic_corps::NapoleonicCorps;

    fn state() -> State {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/games/napoleonic-corps/danube-crossroads.yaml"
        ))
        .unwrap();
        let scenario = serde_yaml::from_str(&text).unwrap();
        NapoleonicCorps.start(&scenario).unwrap()
    }

    #[test]
    fn at_setup_each_unit_may_take_the_formations_of_its_arm() {
        let s = state();
        let side = SideId::new("french");
        let p = plan(&s, &side).unwrap();
        assert_eq!(p.units.len(), s.live(&side).count());
        for (u, up) in s.live(&side).zip(&p.units) {
            assert_eq!(up.at, u.at);
            assert_eq!(up.facing, u.facing.degrees());
            assert!(up.formations.contains(&u.formation.name().to_string()));
            assert!(up.reach.is_none(), "no move at setup");
        }
    }

    /// Rough ground (woods, towns, water, hills) costs a rally-table test
    /// in these rules but shortens no move, and nothing is impassable:
    /// the page is given no ground to shade or check, only the words.
    #[test]
    fn rough_ground_shortens_no_move_so_the_plan_lists_none() {
        let mut s = state();
        let side = SideId::new("french");
        s.phase = Phase::Turn {
            turn: 1,
            phasing: side.clone(),
        };
        assert!(s.scenario.terrain.len() >= 4, "the table has rough ground");
        let p = plan(&s, &side).unwrap();
        let moving: Vec<_> = p.units.iter().filter_map(|u| u.reach.as_ref()).collect();
        assert!(!moving.is_empty());
        for r in moving {
            assert!(r.ground.is_empty(), "{:?}", r.ground);
            assert!(
                r.shortened_by
                    .iter()
                    .any(|w| w.contains("rally-table test"))
            );
        }
        assert!(p.ground.is_empty());
    }

    /// The writer in Node: what it writes it reads back as drawn; a file
    /// with a waypoint (which the page never writes) is not read, so the
    /// page offers it as text instead of dropping the waypoint.
    #[test]
    fn a_file_the_page_wrote_is_read_back_and_one_with_a_waypoint_is_not() {
        let root = env!("CARGO_MANIFEST_DIR");
        let script = format!(
            r#"
const vm = require('vm'); const fs = require('fs');
vm.runInThisContext(fs.readFileSync('{root}/site/orders/write.js', 'utf8'));
vm.runInThisContext(fs.readFileSync('{root}/src/rulesets/napoleonic_corps/page.js', 'utf8'));
const page = {{ head: {{ ruleset: 'napoleonic-corps', measure: 'cm' }}, plan: {{ units: [
  {{ id: 'a', label: 'A', at: {{ x: 1, y: 1 }}, facing: 0, formation: 'column', reach: {{ full: 10, shape: 'free' }},
     formations: ['line', 'column'], targets: [], fields: [], notes: [] }},
  {{ id: 'h', label: 'H', at: {{ x: 9, y: 1 }}, facing: 0, formation: 'line', reach: null, formations: [],
     targets: [{{ kind: 'charge', label: 'Charge', options: [{{ value: 'e', label: 'E' }}] }}], fields: [], notes: [] }}],
  fields: [], notes: [], extra: {{ phase: 'turn' }} }} }};
const w = GalloperOrders.writerFor(page);
const drawn = {{ units: {{
  a: {{ move: {{ x: 1, y: 5, facing: 30 }}, formation: 'line', targets: {{}}, fields: {{}} }},
  h: {{ move: null, formation: '', targets: {{ charge: 'e' }}, fields: {{}} }} }}, fields: {{}} }};
const tree = w.write(page, drawn);
const hand = JSON.parse(JSON.stringify(tree));
hand.turn.moves[0].via = [{{ x: 1, y: 3 }}];
console.log(JSON.stringify({{ back: w.read(page, tree), drawn, hand: w.read(page, hand) }}));
"#
        );
        let out = std::process::Command::new("node")
            .args(["-e", &script])
            .output()
            .expect("node runs (apt-get install nodejs)");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["back"], v["drawn"], "read back as drawn");
        assert!(v["hand"].is_null(), "a waypoint is not dropped: {v}");
    }
}
