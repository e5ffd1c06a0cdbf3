//! Activation dice: the side's panel "What you can do now" (and the same
//! lines in its orders template), and refusals that give their numbers and
//! reasons. Blue's foot stands in line at (30, 10) facing north (S = 5 cm,
//! its muskets reach 3 S = 15 cm); five Red regiments stand ahead of it.

#[path = "activation_dice/common.rs"]
mod common;

use common::*;
use galloper::geometry::{Point, Shape, TerrainFeature, TerrainTag};
use galloper::ruleset::Ruleset;
use galloper::rulesets::activation_dice::ActivationDice;
use galloper::rulesets::activation_dice::options::TITLE;
use galloper::rulesets::activation_dice::orders::{Action, Goal};
use galloper::rulesets::activation_dice::state::{Formation, State};
use galloper::view::Viewer;

const COPSE: &str = "Hougoumont Copse";

/// A Red foot regiment more, cloned from `r-inf`.
fn another(s: &mut State, id: &str) {
    let mut u = unit(s, "r-inf").clone();
    u.id = id.into();
    u.name = format!("Red {id}");
    s.units.push(u);
}

/// The hand-built situation; see the file's head. The copse hides `r-4`.
fn field() -> State {
    let mut s = table();
    for id in ["r-2", "r-3", "r-4", "r-5"] {
        another(&mut s, id);
    }
    put(&mut s, "b-inf", 30.0, 10.0, 0.0, Formation::Line);
    put(&mut s, "b-cav", 5.0, 5.0, 0.0, Formation::Mounted);
    // In range: 12 cm ahead, long range.
    put(&mut s, "r-inf", 30.0, 22.0, 180.0, Formation::Column);
    // In arc and sight, but 30 cm off.
    put(&mut s, "r-gun", 30.0, 40.0, 180.0, Formation::Limbered);
    // Ahead of the unit, but 16 cm out from its right front corner and
    // only 3 cm forward: outside the 45-degree arc.
    put(&mut s, "r-3", 55.0, 13.0, 180.0, Formation::Column);
    // In the arc from the left corner, behind the copse.
    put(&mut s, "r-4", 16.0, 26.0, 180.0, Formation::Column);
    // The farthest: left out of the handful told.
    put(&mut s, "r-5", 30.0, 55.0, 180.0, Formation::Column);
    // r-2 stays off the table.
    unit_mut(&mut s, "r-2").at = None;
    s.scenario.terrain.push(TerrainFeature {
        id: "copse".into(),
        name: COPSE.into(),
        tags: vec![TerrainTag::Woods],
        elevation: None,
        shape: Shape::Polygon {
            points: vec![
                Point::new(8.0, 14.0),
                Point::new(23.0, 14.0),
                Point::new(23.0, 23.0),
                Point::new(8.0, 23.0),
            ],
        },
    });
    s
}

fn panel_lines(s: &State, viewer: &Viewer) -> Option<Vec<String>> {
    ActivationDice
        .view(s, viewer)
        .panels
        .into_iter()
        .find(|p| p.title == TITLE)
        .map(|p| p.lines)
}

fn blue_lines(s: &State) -> Vec<String> {
    panel_lines(s, &Viewer::Side(blue())).expect("Blue's view has the panel")
}

fn line_with<'a>(lines: &'a [String], needles: &[&str]) -> &'a str {
    lines
        .iter()
        .find(|l| needles.iter().all(|n| l.contains(n)))
        .unwrap_or_else(|| panic!("no line with {needles:?} in {lines:#?}"))
}

#[test]
fn the_panel_tells_the_shot_in_range_with_distance_band_and_odds() {
    let lines = blue_lines(&field());
    // Shooting value +2, long range -1 against the target's +2 and its
    // column's -2: d6+1 must beat d6+0. Counting the 36 pairs by the bands
    // (even die on a narrow win, any die on double or triple), 15 disorder.
    let l = line_with(&lines, &["fire at Red Foot [r-inf]"]);
    assert!(l.contains("12.0 cm (2.4 S)"), "{l}");
    assert!(l.contains("long range"), "{l}");
    assert!(
        l.contains("your d6 +1 (shooting value +2, long range -1)"),
        "{l}"
    );
    assert!(
        l.contains("its d6 +0 (shooting value +2, column -2)"),
        "{l}"
    );
    assert!(l.contains("a disorder on 15 of 36"), "{l}");
    // Aimed, the target is one less: d6+1 against d6-1.
    assert!(l.contains("aimed 20 of 36"), "{l}");
}

#[test]
fn the_panel_says_why_each_other_enemy_ahead_cannot_be_shot() {
    let lines = blue_lines(&field());
    let far = line_with(&lines, &["cannot fire", "Red Guns [r-gun]"]);
    assert!(
        far.contains("out of range: 30.0 cm (6.0 S), its range is 15.0 cm (3 S)"),
        "{far}"
    );
    let wide = line_with(&lines, &["cannot fire", "Red r-3 [r-3]"]);
    assert!(wide.contains("out of its arc"), "{wide}");
    let hidden = line_with(&lines, &["cannot fire", "Red r-4 [r-4]"]);
    assert!(hidden.contains("out of its sight"), "{hidden}");
    assert!(hidden.contains(COPSE), "{hidden}");
    // Four told, nearest first; the fifth counted.
    assert!(lines.iter().all(|l| !l.contains("[r-5]")), "{lines:#?}");
    line_with(&lines, &["1 more enemies ahead left out"]);
    let at = |id: &str| lines.iter().position(|l| l.contains(id)).unwrap();
    assert!(at("[r-inf]") < at("[r-3]") && at("[r-3]") < at("[r-gun]"));
}

#[test]
fn the_panel_gives_the_move_and_what_shortens_it() {
    let lines = blue_lines(&field());
    // Speed 2 S, a line one short less: 5 cm, at the double 10 cm.
    let l = line_with(&lines, &["Blue Foot [b-inf]: move"]);
    assert!(l.contains("move 5.0 cm (1.0 S)"), "{l}");
    assert!(l.contains("at the double 10.0 cm (2.0 S)"), "{l}");
    assert!(l.contains("line: 1 S less"), "{l}");
    // Cavalry has no ranged attack.
    line_with(&lines, &["cannot fire: it has no ranged attack"]);
}

#[test]
fn the_panel_gives_the_charges_within_reach() {
    let mut s = field();
    // Blue's horse (3 S, 15 cm) 12 cm short of Red's foot.
    put(&mut s, "b-cav", 45.0, 10.0, 0.0, Formation::Mounted);
    put(&mut s, "r-3", 45.0, 22.0, 180.0, Formation::Column);
    let lines = blue_lines(&s);
    let l = line_with(&lines, &["charge Red r-3 [r-3]"]);
    assert!(l.contains("met after 12.0 cm"), "{l}");
    assert!(l.contains("within its move"), "{l}");
    // 17 cm off Red's foot: only at the double (20 cm).
    let l = line_with(&lines, &["charge Red Foot [r-inf]"]);
    assert!(l.contains("met after 17.0 cm"), "{l}");
    assert!(l.contains("at the double only"), "{l}");
    // Blue's foot, 5 cm a move, 10 at the double, meets nobody 12 cm off.
    let horse = lines
        .iter()
        .position(|l| l.starts_with("Blue Horse"))
        .unwrap();
    assert!(
        !lines[..horse].iter().any(|l| l.contains("charge")),
        "{lines:#?}"
    );
}

#[test]
fn only_the_side_that_owes_orders_gets_the_options() {
    let s = field();
    assert!(panel_lines(&s, &Viewer::Public).is_none());
    assert!(panel_lines(&s, &Viewer::Umpire).is_none());
    let red = panel_lines(&s, &Viewer::Side(red())).expect("Red's view has the panel");
    assert_eq!(
        red,
        vec!["It is Blue's turn: you owe nothing now".to_string()]
    );
}

#[test]
fn the_orders_template_carries_the_same_lines_as_comments() {
    let s = field();
    let t = ActivationDice
        .orders_template(&s, &blue())
        .expect("Blue owes orders");
    assert!(t.contains(&format!("# {TITLE}:")), "{t}");
    let l = t
        .lines()
        .find(|l| l.contains("Red Guns [r-gun]") && l.contains("out of range"))
        .unwrap_or_else(|| panic!("{t}"));
    assert!(l.starts_with("#   "), "{l}");
    assert!(l.contains("30.0 cm"), "{l}");
    // Still an orders file.
    let body: String = t
        .lines()
        .filter(|l| !l.starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        galloper::yaml::from_str::<serde_yaml::Value>(&body).is_ok(),
        "{t}"
    );
}

fn refusal(s: &State, target: &str) -> String {
    let o = turn(vec![activation(
        "b-inf",
        1,
        vec![Action::Fire(target.into())],
    )]);
    let r = run(s, &blue(), o, vec![6]);
    find(&r.events, "refused").text.clone()
}

#[test]
fn a_shot_out_of_range_is_refused_with_the_distance_and_the_range() {
    let text = refusal(&field(), "r-gun");
    assert!(text.contains("Red Guns is out of range"), "{text}");
    assert!(text.contains("30.0 cm"), "{text}");
    assert!(text.contains("its range is 15.0 cm (3 S)"), "{text}");
}

#[test]
fn a_shot_behind_a_wood_is_refused_naming_the_wood() {
    let text = refusal(&field(), "r-4");
    assert!(text.contains("out of its sight"), "{text}");
    assert!(text.contains(COPSE), "{text}");
    let text = refusal(&field(), "r-3");
    assert!(text.contains("out of its arc"), "{text}");
}

#[test]
fn a_move_cut_short_by_a_friend_says_so_and_by_how_much() {
    let mut s = field();
    // Blue's horse 4 cm behind Blue's foot's rear (y 7): it stops short.
    put(&mut s, "b-cav", 30.0, 3.0, 0.0, Formation::Mounted);
    let o = turn(vec![activation(
        "b-cav",
        1,
        vec![Action::Move(Goal::Ahead(10.0))],
    )]);
    let r = run(&s, &blue(), o, vec![6]);
    let text = &find(&r.events, "move").text;
    assert!(text.contains("cut short by Blue Foot in the way"), "{text}");
    assert!(text.contains("of 10.0 cm"), "{text}");
}

#[test]
fn a_move_to_a_point_beyond_reach_says_its_destination_was_dropped() {
    let mut s = field();
    put(&mut s, "b-cav", 45.0, 3.0, 0.0, Formation::Mounted);
    let o = turn(vec![activation(
        "b-cav",
        1,
        vec![Action::Move(Goal::To(Point::new(45.0, 33.0)))],
    )]);
    let r = run(&s, &blue(), o, vec![6]);
    let text = &find(&r.events, "move").text;
    assert!(
        text.contains("was 30.0 cm away, beyond its move of 15.0 cm"),
        "{text}"
    );
    assert!(text.contains("destination was dropped"), "{text}");
}

#[test]
fn a_pivot_refused_names_what_it_would_overlap() {
    let mut s = field();
    // Blue's horse 3 cm ahead of Blue's foot: the line wheeling 90 degrees
    // about its centre (30, 10.5) would reach 6 cm ahead of it, over the horse.
    put(&mut s, "b-inf", 30.0, 12.0, 0.0, Formation::Line);
    put(&mut s, "b-cav", 30.0, 18.0, 0.0, Formation::Mounted);
    let o = turn(vec![activation("b-inf", 2, vec![Action::Pivot(90.0)])]);
    let r = run(&s, &blue(), o, vec![6, 6]);
    let text = &find(&r.events, "refused").text;
    assert!(text.contains("cannot pivot"), "{text}");
    assert!(text.contains("it would overlap Blue Horse"), "{text}");
}

#[test]
fn a_placement_too_far_out_says_how_far_its_bases_reach() {
    let s = fresh();
    let o = galloper::rulesets::activation_dice::orders::Orders::Deploy(
        galloper::rulesets::activation_dice::orders::Deployment {
            units: vec![galloper::rulesets::activation_dice::orders::Placement {
                unit: "b-cav".into(),
                at: Point::new(40.0, 20.0),
                facing: None,
                formation: None,
            }],
        },
    );
    let v = check(&s, &blue(), &o);
    let why = v
        .iter()
        .map(|x| x.message.clone())
        .find(|m| m.contains("within 1 L"))
        .unwrap_or_else(|| panic!("{v:?}"));
    // Facing north from y = 20, its front edge is 20 cm from its edge; 1 L is 15 cm.
    assert!(why.contains("1 L (15.0 cm)"), "{why}");
    assert!(why.contains("reach 20.0 cm"), "{why}");
}

/// A template a player cannot break by uncommenting (issue 27): left as it
/// is it ends the turn; with `activations:` and an example uncommented it is
/// that activation, and the rules take it.
#[test]
fn uncommenting_the_templates_examples_gives_orders_the_rules_take() {
    use galloper::rulesets::activation_dice::orders::Orders;
    let s = field();
    let t = ActivationDice
        .orders_template(&s, &blue())
        .expect("Blue owes orders");
    let parse = |text: &str| -> Orders {
        galloper::yaml::from_str(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
    };
    match parse(&t) {
        Orders::Turn(turn) => assert!(turn.activations.is_empty(), "{t}"),
        other => panic!("{other:?}"),
    }
    assert!(
        !t.lines().any(|l| l.trim() == "[]"),
        "no bare [] after the examples: {t}"
    );
    let mut first = true;
    let edited: String = t
        .lines()
        .map(|l| {
            if l.trim() == "# activations:" {
                return l.replacen("# ", "", 1);
            }
            if first && l.trim_start().starts_with("#   - {unit:") {
                first = false;
                return l.replacen("# ", "", 1);
            }
            l.to_string()
        })
        .collect::<Vec<_>>()
        .join("\n");
    let Orders::Turn(turn) = parse(&edited) else {
        panic!("{edited}")
    };
    assert_eq!(turn.activations.len(), 1, "{edited}");
    let problems = ActivationDice.check(&s, &blue(), &Orders::Turn(turn));
    assert!(problems.is_empty(), "{problems:?}\n{edited}");
}
