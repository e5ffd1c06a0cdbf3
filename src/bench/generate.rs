//! Generated battles of N units a side for the scaling benchmark: each army
//! in rows facing the other across open ground, on a table big enough, and
//! valid for the ruleset's scenario check.

use std::fmt::Write;

/// Maurice Lite units per row (5 BW apart: a 4-base line and 1 BW of gap).
const MAURICE_ROW: usize = 190;
/// Maurice Lite: row spacing, front edge to front edge (BW).
pub const MAURICE_ROW_GAP: f64 = 1.5;
/// Maurice Lite table height: each side's deployment zone is a third, 10 BW.
pub const MAURICE_HEIGHT: f64 = 30.0;

/// A Maurice Lite scenario with `n` infantry units a side and no terrain.
pub fn maurice(n: usize) -> String {
    let per_row = n.clamp(1, MAURICE_ROW);
    let width = per_row as f64 * 5.0 + 10.0;
    let mut s = format!(
        "ruleset: maurice-lite\ntitle: \"Generated, {n} units a side\"\n\
table: {{width: {width}, height: {MAURICE_HEIGHT}}}\n\
measure: {{unit: base_width, base_width: 1, base_depth: 0.75}}\nsides:\n"
    );
    for (side, colour) in [("blue", "#1d4f9e"), ("red", "#b8322a")] {
        let _ = write!(
            s,
            "  - id: {side}\n    name: {side}\n    colour: \"{colour}\"\n    units:\n"
        );
        for i in 0..n {
            let _ = writeln!(
                s,
                "      - {{id: {side}-{i}, name: \"{side} {i}\", arm: infantry}}"
            );
        }
    }
    s
}

/// Rows of a generated Maurice Lite army in the scaling runs: the same
/// depth at every size, so that the mix of front-rank units (a target
/// straight ahead) and rear-rank ones (which sweep the 45-degree arc for
/// one) is the same and the growth is the rules' own.
const MAURICE_ROWS: usize = 6;

/// Where Maurice Lite unit `i` of side `index` deploys (front-edge centre),
/// in [`MAURICE_ROWS`] rows from the front of its zone backwards, in its own
/// third of the table.
pub fn maurice_place(n: usize, index: usize, i: usize) -> (f64, f64) {
    let per_row = n.div_ceil(MAURICE_ROWS).clamp(1, MAURICE_ROW);
    let (row, col) = (i / per_row, i % per_row);
    let x = 7.0 + col as f64 * 5.0;
    let depth = 0.5 + row as f64 * MAURICE_ROW_GAP;
    let y = if index == 0 {
        MAURICE_HEIGHT / 3.0 - depth
    } else {
        2.0 * MAURICE_HEIGHT / 3.0 + depth
    };
    (x, y)
}

/// How many units of a generated Maurice Lite army stand in its front rank
/// (the first of [`maurice_place`]'s rows, units `0..` this).
pub fn maurice_front_rank(n: usize) -> usize {
    n.div_ceil(MAURICE_ROWS).clamp(1, MAURICE_ROW).min(n)
}

/// Morschauser companies per row (3.5" apart: a 3" base and a half-inch gap).
const MORSCHAUSER_ROW: usize = 280;

/// A Morschauser scenario with `n` light infantry companies a side, 10"
/// apart, in rows 4" deep, on open ground; the scenario's positions stand.
pub fn morschauser(n: usize) -> String {
    morschauser_for(n, 10)
}

/// [`morschauser`] lasting `turns` turns.
pub fn morschauser_for(n: usize, turns: u32) -> String {
    morschauser_in_rows(n, turns, n.clamp(1, MORSCHAUSER_ROW))
}

/// Rows of a generated Morschauser army in the scaling runs: the same depth
/// at every size (as [`MAURICE_ROWS`]), so the growth is the rules' own.
const MORSCHAUSER_ROWS: usize = 4;

/// [`morschauser`] in [`MORSCHAUSER_ROWS`] rows, for the scaling runs.
pub fn morschauser_deep(n: usize) -> String {
    morschauser_in_rows(
        n,
        10,
        n.div_ceil(MORSCHAUSER_ROWS).clamp(1, MORSCHAUSER_ROW),
    )
}

fn morschauser_in_rows(n: usize, turns: u32, per_row: usize) -> String {
    let rows = n.div_ceil(per_row);
    let width = per_row as f64 * 3.5 + 10.0;
    let back = 4.0 * rows as f64;
    let front0 = back + 2.0;
    let front1 = front0 + 10.0;
    let height = front1 + back + 2.0;
    let mut s = format!(
        "ruleset: morschauser-macduff\ntitle: \"Generated, {n} companies a side\"\n\
table: {{width: {width}, height: {height}}}\nbase: {{width: 3, depth: 3}}\nturns: {turns}\nsides:\n"
    );
    for (index, (side, colour)) in [("blue", "#1d4f9e"), ("red", "#b8322a")]
        .into_iter()
        .enumerate()
    {
        let _ = write!(
            s,
            "  - id: {side}\n    name: {side}\n    colour: \"{colour}\"\n    companies:\n"
        );
        for i in 0..n {
            let (row, col) = (i / per_row, i % per_row);
            let x = 6.5 + col as f64 * 3.5;
            let (y, facing) = if index == 0 {
                (front0 - 4.0 * row as f64, 0)
            } else {
                (front1 + 4.0 * row as f64, 180)
            };
            let _ = writeln!(
                s,
                "      - {{id: {side}-{i}, name: \"{side} {i}\", troop: light_infantry, at: {{x: {x}, y: {y}}}, facing: {facing}}}"
            );
        }
    }
    s
}

/// Rows of a generated army of the rulesets added after the first two:
/// the same depth at every size (as [`MAURICE_ROWS`]).
const ROWS: usize = 4;

/// Units per row of a generated army of `n` units in `rows` rows.
fn per_row(n: usize, rows: usize) -> usize {
    n.div_ceil(rows).max(1)
}

/// Napoleonic corps: centimetres from one front rank to the other, within a
/// medium battery's range (15 cm) and a cavalry charge's reach (12 cm).
pub const NAPOLEONIC_GAP: f64 = 10.0;
/// Napoleonic corps: units of a generated corps.
const NAPOLEONIC_CORPS: usize = 50;

/// The troop of unit `i` of a generated napoleonic-corps army: the front
/// rank alternates foot, heavy horse and medium guns, the ranks behind are
/// line foot.
pub fn napoleonic_troop(n: usize, i: usize) -> (&'static str, &'static str) {
    let per_row = per_row(n, ROWS);
    match (i / per_row, i % per_row % 3) {
        (0, 1) => ("heavy_cavalry", "line"),
        (0, 2) => ("medium_battery", "unlimbered"),
        _ => ("line", "line"),
    }
}

/// A napoleonic-corps scenario with `n` units of two bases a side (the
/// French against the Austrians), in [`ROWS`] rows 8 cm apart, the front
/// ranks [`NAPOLEONIC_GAP`] apart on open ground; a corps of up to 50 units
/// each, the first one the CinC's.
pub fn napoleonic(n: usize) -> String {
    let per_row = per_row(n, ROWS);
    let rows = n.div_ceil(per_row);
    let width = per_row as f64 * 10.0 + 10.0;
    let depth = 8.0 * rows as f64;
    let front0 = depth + 4.0;
    let front1 = front0 + NAPOLEONIC_GAP;
    let height = front1 + depth + 4.0;
    let mut s = format!(
        "ruleset: napoleonic-corps\ntitle: \"Generated, {n} units a side\"\n\
table: {{width: {width}, height: {height}}}\nturns: 10\nfirst: blue\nsides:\n"
    );
    for (index, (side, nation, colour)) in [
        ("blue", "french", "#1d4f9e"),
        ("red", "austrian", "#b8322a"),
    ]
    .into_iter()
    .enumerate()
    {
        let _ = write!(
            s,
            "  - id: {side}\n    name: {side}\n    colour: \"{colour}\"\n    nation: {nation}\n    corps:\n"
        );
        let place = |i: usize| {
            let (row, col) = (i / per_row, i % per_row);
            let x = 10.0 + col as f64 * 10.0;
            if index == 0 {
                (x, front0 - 8.0 * row as f64, 0)
            } else {
                (x, front1 + 8.0 * row as f64, 180)
            }
        };
        for (k, start) in (0..n).step_by(NAPOLEONIC_CORPS).enumerate() {
            let end = (start + NAPOLEONIC_CORPS).min(n);
            let (x0, _, _) = place(start);
            let (x1, _, _) = place(end - 1);
            let behind = if index == 0 { 2.0 } else { height - 2.0 };
            let cx = (x0 + x1) / 2.0;
            let _ = write!(
                s,
                "      - id: {side}-c{k}\n        name: \"{side} corps {k}\"\n        commander: \"{side} {k}\"\n        at: {{x: {cx}, y: {behind}}}\n        passes: 2\n        cinc: {}\n        units:\n",
                k == 0
            );
            for i in start..end {
                let (x, y, facing) = place(i);
                let (troop, formation) = napoleonic_troop(n, i);
                let _ = writeln!(
                    s,
                    "          - {{id: {side}-{i}, name: \"{side} {i}\", troop: {troop}, bases: 2, at: {{x: {x}, y: {y}}}, facing: {facing}, formation: {formation}}}"
                );
            }
        }
    }
    s
}

/// Activation dice: one short (S) in cm; a deployment zone is 1 L (3 S)
/// deep, the foot's range 3 S, the horse's move 3 S.
const ACTIVATION_SHORT: f64 = 5.0;
/// Activation dice: cm between the front ranks, within the foot's range.
pub const ACTIVATION_GAP: f64 = 10.0;
/// Activation dice: rows of a generated army (more than [`ROWS`]: the table
/// is at most 10 m wide).
const ACTIVATION_ROWS: usize = 5;

/// The troop of unit `i` of a generated activation-dice army: one unit in
/// four is horse, one in eight guns, the rest line foot.
pub fn activation_troop(i: usize) -> &'static str {
    match i % 8 {
        1 | 5 => "horse",
        3 => "guns",
        _ => "line",
    }
}

/// An activation-dice scenario with `n` units a side of two 2 cm bases
/// (blue attacks from the south), in [`ACTIVATION_ROWS`] rows 2.5 cm apart,
/// each within 1 L of its own edge, the front ranks [`ACTIVATION_GAP`]
/// apart (the foot deploys in line: 4 cm across). The battle is lost only
/// when a side has lost every unit, so the big armies do not end it at
/// once.
pub fn activation(n: usize) -> String {
    let per_row = per_row(n, ACTIVATION_ROWS);
    let width = per_row as f64 * 4.5 + 10.0;
    let zone = 3.0 * ACTIVATION_SHORT;
    let front0 = zone - 1.0;
    let front1 = front0 + ACTIVATION_GAP;
    let height = front1 + zone - 1.0;
    let mut s = format!(
        "ruleset: activation-dice\ntitle: \"Generated, {n} units a side\"\n\
table: {{width: {width}, height: {height}}}\nshort: {ACTIVATION_SHORT}\n\
base: {{width: 2, depth: 1}}\nattacker: blue\nvictory: {{break_at: {n}, turns: 10}}\n\
troops:\n\
  - {{id: line, name: \"Line infantry\", arm: infantry, quality: 4, speed: 2, melee: 1, shooting: 2, range: 3}}\n\
  - {{id: horse, name: \"Cavalry\", arm: cavalry, quality: 3, speed: 3, melee: 2}}\n\
  - {{id: guns, name: \"Artillery\", arm: artillery, quality: 4, speed: 1, melee: 0, shooting: 3, range: 6}}\n\
sides:\n"
    );
    for (index, (side, edge, colour)) in [("blue", "south", "#1d4f9e"), ("red", "north", "#b8322a")]
        .into_iter()
        .enumerate()
    {
        let _ = write!(
            s,
            "  - id: {side}\n    name: {side}\n    colour: \"{colour}\"\n    edge: {edge}\n    units:\n"
        );
        for i in 0..n {
            let (row, col) = (i / per_row, i % per_row);
            let x = 7.0 + col as f64 * 4.5;
            let (y, facing) = if index == 0 {
                (front0 - 2.5 * row as f64, 0)
            } else {
                (front1 + 2.5 * row as f64, 180)
            };
            let troop = activation_troop(i);
            let _ = writeln!(
                s,
                "      - {{id: {side}-{i}, name: \"{side} {i}\", troop: {troop}, at: {{x: {x}, y: {y}}}, facing: {facing}}}"
            );
        }
    }
    s
}

/// Crowther-Dougan: rows of a generated army (more than [`ROWS`]: the
/// table is at most 10 m wide).
const CROWTHER_ROWS: usize = 6;
/// Crowther-Dougan: cm between the front ranks' edges, within musket range
/// (40 cm) and a line's charge reach (22.5 cm).
pub const CROWTHER_GAP: f64 = 15.0;

/// A crowther-dougan scenario with `n` units of line infantry a side in
/// line, two ranks deep, in [`CROWTHER_ROWS`] rows 6 cm apart on open
/// ground, the front ranks [`CROWTHER_GAP`] apart; red moves first, with
/// six figures a unit against blue's five.
pub fn crowther(n: usize) -> String {
    let per_row = per_row(n, CROWTHER_ROWS);
    let rows = n.div_ceil(per_row);
    let width = per_row as f64 * 5.5 + 10.0;
    let depth = 6.0 * rows as f64;
    // Unit centres: a line of two ranks is 3 cm deep.
    let front0 = depth + 2.0;
    let front1 = front0 + CROWTHER_GAP + 3.0;
    let height = front1 + depth + 2.0;
    let mut s = format!(
        "ruleset: crowther-dougan\ntitle: \"Generated, {n} units a side\"\n\
table: {{width: {width}, height: {height}}}\nmoves: 8\nfirst: red\nsides:\n"
    );
    for (index, (side, colour, figures)) in [("red", "#b8322a", 6), ("blue", "#1d4f9e", 5)]
        .into_iter()
        .enumerate()
    {
        let _ = write!(
            s,
            "  - id: {side}\n    name: {side}\n    colour: \"{colour}\"\n    units:\n"
        );
        for i in 0..n {
            let (row, col) = (i / per_row, i % per_row);
            let x = 7.0 + col as f64 * 5.5;
            let (y, facing) = if index == 0 {
                (front0 - 6.0 * row as f64, 0)
            } else {
                (front1 + 6.0 * row as f64, 180)
            };
            let _ = writeln!(
                s,
                "      - {{id: {side}-{i}, name: \"{side} {i}\", troop: line_infantry, figures: {figures}, at: {{x: {x}, y: {y}}}, facing: {facing}}}"
            );
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use crate::rulesets::by_name;

    #[test]
    fn generated_scenarios_pass_the_rulesets_checks() {
        for n in [1, 10, 300, 1000] {
            let m = by_name("maurice-lite").expect("registered");
            assert_eq!(m.sides(&super::maurice(n)).map(|s| s.len()).ok(), Some(2));
            m.start(&super::maurice(n))
                .expect("maurice scenario starts");
            let k = by_name("morschauser-macduff").expect("registered");
            k.start(&super::morschauser(n))
                .expect("morschauser scenario starts");
            for (name, text) in [
                ("napoleonic-corps", super::napoleonic(n)),
                ("activation-dice", super::activation(n)),
                ("crowther-dougan", super::crowther(n)),
            ] {
                let r = by_name(name).expect("registered");
                if let Err(e) = r.start(&text) {
                    panic!("{name} at {n} a side: {e}");
                }
            }
        }
    }
}
