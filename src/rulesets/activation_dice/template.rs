//! Ready-to-edit orders with each unit's choices as comments. Names are
//! quoted and ids written as YAML scalars, so nothing a scenario says can
//! add a line to a signed file.

use super::check::check;
use super::combat::ready_to_shoot;
use super::movement::allowance_why;
use super::options;
use super::orders::{Action, Activation, Goal, Orders, TurnOrders};
use super::scenario::Arm;
use super::setup::{count, default_deployment, placer};
use super::sight::shot_at;
use super::state::{Formation, Phase, State, Unit};
use super::view::unit_line;
use crate::side::SideId;
use crate::yaml::{quoted, scalar};
use std::fmt::Write;

const ACTIONS: &str = "\
# Actions (cost in successes):
#   move: {to: {x: X, y: Y}} | move: {toward: ENEMY} | move: {ahead: CM}   1, forward within 45 degrees
#   double_time: (as move)   2, one short further
#   pivot: DEGREES           1 per 45 (clockwise +); a column turns 45 free once an activation
#   formation: line | column | square   1 (infantry)
#   seize: ENEMY             2: close and fight, the enemy at -1 (or fight on in melee)
#   recoil                   2: leave the melee (infantry 1 S, cavalry 1 M) and face the enemy
#   fire: ENEMY              1      aimed: ENEMY   2, the target at -1
#   limber | unlimber        2 (artillery)       canister   2: canister for a shot within 1 M
#   hold                     1
";

pub fn template(s: &State, side: &SideId) -> Option<String> {
    let mut t = String::new();
    match &s.phase {
        Phase::Deploy { placement } if &placer(s, *placement) == side => {
            let (least, most) = count(s, *placement);
            let _ = writeln!(
                t,
                "# Placement {placement}: put down {} units within 1 L ({:.1} cm) of your edge.",
                if least == most {
                    least.to_string()
                } else {
                    format!("{least} or {most}")
                },
                3.0 * s.short()
            );
            let _ = writeln!(t, "# Your units still to place:");
            for u in s
                .units
                .iter()
                .filter(|u| &u.side == side && u.at.is_none() && u.live())
            {
                let _ = writeln!(
                    t,
                    "#   {}",
                    unit_line(s, u, &quoted(&u.name), &scalar(&u.id))
                );
            }
            t.push_str(
                "# Each: {unit: ID, at: {x: X, y: Y}, facing: DEGREES, formation: line | column | square | mounted | limbered | unlimbered}\n\
                 # (at is the centre of the front edge; facing defaults to the enemy's edge)\n\
                 deploy:\n  units:\n",
            );
            for p in default_deployment(s, *placement).units {
                let _ = writeln!(
                    t,
                    "    - {{unit: {}, at: {{x: {:.1}, y: {:.1}}}, facing: {:.0}, formation: {}}}",
                    scalar(&p.unit),
                    p.at.x,
                    p.at.y,
                    p.facing.map_or(0.0, |f| f.degrees()),
                    p.formation.map_or("column", |f| f.name())
                );
            }
            Some(t)
        }
        Phase::Turn { side: me, .. } | Phase::Consult { side: me, .. } if me == side => {
            let _ = writeln!(t, "# Your units (S = {:.1} cm):", s.short());
            for u in s.live(side) {
                let _ = writeln!(
                    t,
                    "#   {}",
                    unit_line(s, u, &quoted(&u.name), &scalar(&u.id))
                );
            }
            let _ = writeln!(t, "# {}:", options::TITLE);
            for line in options::lines(s, side) {
                let _ = writeln!(t, "#   {}", comment(&line));
            }
            t.push_str(
                "# Each activation: {unit: ID, dice: 1 | 2 | 3, actions: [...], one: [...], two: [...], three: [...]}\n\
                 #   a die at or above the unit's quality is a success; two failures are a turnover;\n\
                 #   `one`/`two`/`three` replace `actions` for exactly that many successes.\n",
            );
            t.push_str(ACTIONS);
            t.push_str(
                "# consult: true   play only the first activation, then wait for the next orders\n\
                 # turnover: act | hold            the unit that turns over still acts (act) or not\n\
                 # after_blunder: carry_on | stop  go on with the script after a blunder moved or fired it\n\
                 turn:\n  consult: false\n  turnover: act\n  after_blunder: carry_on\n\
                 \x20 # Uncomment `activations:` and each activation you want, in order (none ends your turn):\n\
                 \x20 # activations:\n",
            );
            for line in examples(s, side) {
                let _ = writeln!(t, "  #   - {line}");
            }
            Some(t)
        }
        _ => None,
    }
}

/// Example activations shown: enough to show the form, few enough that a
/// big battle's template stays short.
const EXAMPLES: usize = 8;
/// Units tried for an example: each try asks the check, and the nearest
/// enemy costs a search of the enemy; a big battle stops here.
const TRIES: usize = 24;

/// Example activations, each one the check takes alone now (the dice and
/// actions written for that unit as it stands), as flow-style YAML.
fn examples(s: &State, side: &SideId) -> Vec<String> {
    let mut out = Vec::new();
    let ready = s
        .units
        .iter()
        .enumerate()
        .filter(|(_, u)| u.placed() && &u.side == side && u.live() && !u.activated)
        .take(TRIES);
    for (i, u) in ready {
        if out.len() >= EXAMPLES {
            break;
        }
        let (action, text) = suggestion(s, i, u);
        let a = Activation {
            unit: u.id.clone(),
            dice: dice(u),
            actions: vec![action],
            one: None,
            two: None,
            three: None,
        };
        let line = format!(
            "{{unit: {}, dice: {}, actions: [{text}]}}",
            scalar(&a.unit),
            a.dice
        );
        let o = Orders::Turn(TurnOrders {
            activations: vec![a],
            ..TurnOrders::default()
        });
        if check(s, side, &o).is_empty() {
            out.push(line);
        }
    }
    out
}

/// The dice an example risks: two, or the one die a unit whose officer is
/// dead may roll; three for a routing unit, as only three successes of
/// three dice stop a rout.
fn dice(u: &Unit) -> u32 {
    match (u.status.officer_killed, u.status.rout) {
        (true, _) => 1,
        (false, true) => 3,
        (false, false) => 2,
    }
}

/// What unit `i` might do now, as an action and as the template writes
/// it: fight on in melee, unlimber guns to fire, fire at the nearest enemy
/// it can shoot, else move straight ahead its whole move, else hold.
fn suggestion(s: &State, i: usize, u: &Unit) -> (Action, String) {
    let hold = (Action::Hold, "hold".to_string());
    if u.status.rout {
        return hold;
    }
    if let Some(foe) = s.contacts(u).first() {
        return if u.arm() == Arm::Artillery {
            hold
        } else {
            let id = foe.id.clone();
            let text = format!("seize: {}", scalar(&id));
            (Action::Seize(id), text)
        };
    }
    if u.arm() == Arm::Artillery && u.formation == Formation::Limbered {
        return (Action::Unlimber, "unlimber".into());
    }
    if ready_to_shoot(s, i).is_ok()
        && let Some(e) = s.nearest_enemy(u)
        && shot_at(s, u, e).is_ok()
    {
        let text = format!("fire: {}", scalar(&e.id));
        return (Action::Fire(e.id.clone()), text);
    }
    let (allow, _) = allowance_why(s, u);
    if allow > 0.0 {
        // Written to 0.1 cm, rounded down: never more than it may go.
        let cm = (allow * 10.0).floor() / 10.0;
        return (
            Action::Move(Goal::Ahead(cm)),
            format!("move: {{ahead: {cm:.1}}}"),
        );
    }
    hold
}

/// `line` safe inside a YAML comment: a name holding a line break (or any
/// character the scenario check forbids) must not end the comment.
fn comment(line: &str) -> String {
    line.chars()
        .map(|c| {
            if crate::scenario_check::forbidden(c) || matches!(c, '\u{85}') {
                '?'
            } else {
                c
            }
        })
        .collect()
}
