//! Ready-to-edit orders with each unit's choices as comments. Names are
//! quoted and ids written as YAML scalars, so nothing a scenario says can
//! add a line to a signed file.

use super::options;
use super::scenario::Arm;
use super::setup::{count, default_deployment, placer};
use super::state::{Phase, State};
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
            for u in s.live(side).filter(|u| !u.activated) {
                let first = match u.arm() {
                    Arm::Artillery => "unlimber",
                    _ => "move: {ahead: 100}",
                };
                let _ = writeln!(
                    t,
                    "  #   - {{unit: {}, dice: 2, actions: [{first}]}}",
                    scalar(&u.id)
                );
            }
            Some(t)
        }
        _ => None,
    }
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
