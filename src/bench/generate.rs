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

#[cfg(test)]
mod tests {
    use crate::rulesets::by_name;

    #[test]
    fn generated_scenarios_pass_the_rulesets_checks() {
        for n in [1, 10, 300] {
            let m = by_name("maurice-lite").expect("registered");
            assert_eq!(m.sides(&super::maurice(n)).map(|s| s.len()).ok(), Some(2));
            m.start(&super::maurice(n))
                .expect("maurice scenario starts");
            let k = by_name("morschauser-macduff").expect("registered");
            k.start(&super::morschauser(n))
                .expect("morschauser scenario starts");
        }
    }
}
