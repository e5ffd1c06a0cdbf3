//! Range and Line of Sight: arcs of 45 degrees from the front corners;
//! sight mutual; ground that blocks sight without cover; the officer of a
//! regiment in line.

use super::common::*;
use galloper::geometry::{Point, Shape, TerrainFeature, TerrainTag};
use galloper::rulesets::activation_dice::ground::{Cover, cover};
use galloper::rulesets::activation_dice::sight::{in_arc, sees};
use galloper::rulesets::activation_dice::state::{Formation, State};

fn block(id: &str, tag: TerrainTag, x0: f64, y0: f64, x1: f64, y1: f64) -> TerrainFeature {
    TerrainFeature {
        id: id.into(),
        name: id.into(),
        tags: vec![tag],
        elevation: None,
        shape: Shape::Polygon {
            points: vec![
                Point::new(x0, y0),
                Point::new(x1, y0),
                Point::new(x1, y1),
                Point::new(x0, y1),
            ],
        },
    }
}

#[test]
fn range_extends_at_45_degrees_from_the_front_corners() {
    let mut s = table();
    // Blue's foot in line: front corners at (14, 30) and (26, 30).
    put(&mut s, "b-inf", 20.0, 30.0, 0.0, Formation::Line);
    // 10 ahead and 8 out from the right corner: within 45 degrees.
    put(&mut s, "r-gun", 37.0, 40.0, 180.0, Formation::Limbered);
    assert!(in_arc(&s, unit(&s, "b-inf"), unit(&s, "r-gun")));
    // 5 ahead and 15 out: outside.
    put(&mut s, "r-gun", 47.0, 38.0, 180.0, Formation::Limbered);
    assert!(!in_arc(&s, unit(&s, "b-inf"), unit(&s, "r-gun")));
}

#[test]
fn line_of_sight_is_mutual_and_blocked_by_woods() {
    let mut s = table();
    put(&mut s, "b-inf", 20.0, 20.0, 0.0, Formation::Column);
    put(&mut s, "r-inf", 20.0, 40.0, 180.0, Formation::Column);
    let (b, r) = (unit(&s, "b-inf").clone(), unit(&s, "r-inf").clone());
    assert!(sees(&s, &b, &r) && sees(&s, &r, &b));
    s.scenario
        .terrain
        .push(block("w", TerrainTag::Woods, 10.0, 28.0, 30.0, 32.0));
    assert!(!sees(&s, &b, &r));
    assert!(!sees(&s, &r, &b), "sight is mutual");
}

#[test]
fn line_of_sight_some_terrain_blocks_sight_without_giving_cover() {
    let mut s = table();
    put(&mut s, "b-inf", 20.0, 20.0, 0.0, Formation::Column);
    put(&mut s, "r-inf", 20.0, 40.0, 180.0, Formation::Column);
    s.scenario.terrain.push(block(
        "crops",
        TerrainTag::Obstruction,
        10.0,
        28.0,
        30.0,
        45.0,
    ));
    let (b, r) = (unit(&s, "b-inf").clone(), unit(&s, "r-inf").clone());
    // Standing in the crops Red sees out and is seen, but has no cover.
    assert!(sees(&s, &b, &r));
    assert_eq!(cover(&s.scenario.terrain, &s.bases(&r)), Cover::None);
    // Behind the crops it is hidden.
    let mut s2: State = s.clone();
    s2.scenario.terrain = vec![block(
        "crops",
        TerrainTag::Obstruction,
        10.0,
        28.0,
        30.0,
        32.0,
    )];
    assert!(!sees(&s2, &b, &r));
    // A wood gives light cover, a town heavy.
    assert_eq!(
        cover(
            &[block("w", TerrainTag::Woods, 10.0, 38.0, 30.0, 48.0)],
            &s.bases(&r)
        ),
        Cover::Light
    );
    assert_eq!(
        cover(
            &[block("t", TerrainTag::Town, 10.0, 38.0, 30.0, 48.0)],
            &s.bases(&r)
        ),
        Cover::Heavy
    );
}

#[test]
fn infantry_officer_in_line_is_seen_the_whole_regiment_is_seen() {
    let mut s = table();
    // Blue in column looks north along x = 20; Red's line faces it with
    // its battalions' centres at (17, 41.5) and (23, 41.5) and its officer
    // at (20, 40). Two blocks leave a gap only the officer is seen through.
    put(&mut s, "b-inf", 20.0, 30.0, 0.0, Formation::Column);
    put(&mut s, "r-inf", 20.0, 40.0, 180.0, Formation::Line);
    s.scenario.terrain = vec![
        block("left", TerrainTag::Obstruction, 5.0, 34.0, 19.6, 36.0),
        block("right", TerrainTag::Obstruction, 20.4, 34.0, 35.0, 36.0),
    ];
    let b = unit(&s, "b-inf").clone();
    assert!(sees(&s, &b, unit(&s, "r-inf")));
    // With the officer dead the rule is gone and the regiment is hidden.
    unit_mut(&mut s, "r-inf").status.officer_killed = true;
    assert!(!sees(&s, &b, unit(&s, "r-inf")));
}

#[test]
fn range_extends_at_45_degrees_a_target_is_in_range_only_where_its_part_in_the_arc_is() {
    use galloper::rulesets::activation_dice::combat::{can_shoot, range_band};
    let mut s = table();
    // Blue's foot in line: front corners at (14, 10) and (26, 10); its
    // musket reaches 3 S = 15 cm, the arc's right side runs y = x - 16.
    put(&mut s, "b-inf", 20.0, 10.0, 0.0, Formation::Line);
    // Red's line faces west, x 38 to 41, y 13 to 25: its corner (38, 13)
    // is 12.4 cm from Blue's, but outside the arc; the nearest part in
    // the arc, (38, 22), is 17.0 cm away, beyond the musket's range.
    put(&mut s, "r-inf", 38.0, 19.0, 270.0, Formation::Line);
    let (b, r) = (s.index("b-inf").unwrap(), s.index("r-inf").unwrap());
    let why = can_shoot(&s, b, r).unwrap_err();
    assert!(why.contains("out of range: 17.0 cm"), "{why}");
    // The same for the short-range band: at x 30 its corner (30, 12) is
    // within 1 S, but the part in the arc begins at (30, 14), 5.7 cm off.
    put(&mut s, "r-inf", 30.0, 18.0, 270.0, Formation::Line);
    let cm = can_shoot(&s, b, r).unwrap();
    assert!((cm - 32f64.sqrt()).abs() < 1e-6, "{cm}");
    assert_eq!(range_band(&s, false, cm).0, "medium range");
}
