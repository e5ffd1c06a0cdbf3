//! Rendering of per-side reports: SVG, PNG, HTML and text from one sample view.

use galloper::geometry::Point;
use galloper::render::{RenderError, map_png, map_svg, report_html, report_png, report_text};
use galloper::side::SideId;
use galloper::view::{
    ArrowKind, ArrowView, BaseView, DieLine, EventLine, MapView, MarkerKind, MarkerView, Panel,
    ReportView, SideStyle, TerrainStyle, TerrainView, UnitView,
};
use resvg::{tiny_skia, usvg};

const BLUE: (u8, u8, u8) = (0x1f, 0x4e, 0x9c);
const RED: (u8, u8, u8) = (0xb2, 0x22, 0x22);

fn p(x: f64, y: f64) -> Point {
    Point::new(x, y)
}

/// A base `w` wide and `d` deep centred on (cx, cy), facing `facing` degrees clockwise from +y.
fn base(side: usize, cx: f64, cy: f64, facing: f64, w: f64, d: f64) -> BaseView {
    let r = facing.to_radians();
    let (f, right) = (p(r.sin(), r.cos()), p(r.cos(), -r.sin()));
    let fc = p(cx + f.x * d / 2.0, cy + f.y * d / 2.0);
    let fl = p(fc.x - right.x * w / 2.0, fc.y - right.y * w / 2.0);
    let fr = p(fc.x + right.x * w / 2.0, fc.y + right.y * w / 2.0);
    BaseView {
        corners: [
            fl,
            fr,
            p(fr.x - f.x * d, fr.y - f.y * d),
            p(fl.x - f.x * d, fl.y - f.y * d),
        ],
        side,
    }
}

#[allow(clippy::too_many_arguments)]
fn unit(
    id: &str,
    label: &str,
    side: usize,
    formation: &str,
    facing: f64,
    centres: &[(f64, f64)],
    disruption: u32,
    smoke: bool,
    note: Option<&str>,
) -> UnitView {
    let bases: Vec<BaseView> = centres
        .iter()
        .map(|(x, y)| base(side, *x, *y, facing, 1.0, 0.5))
        .collect();
    let n = centres.len() as f64;
    let anchor = p(
        centres.iter().map(|c| c.0).sum::<f64>() / n,
        centres.iter().map(|c| c.1).sum::<f64>() / n,
    );
    UnitView {
        id: id.into(),
        label: label.into(),
        side,
        bases,
        anchor,
        facing,
        formation: formation.into(),
        disruption,
        smoke,
        note: note.map(str::to_string),
        status: Vec::new(),
    }
}

fn area(name: &str, style: TerrainStyle, pts: &[(f64, f64)], closed: bool) -> TerrainView {
    TerrainView {
        name: name.into(),
        style,
        points: pts.iter().map(|(x, y)| p(*x, *y)).collect(),
        closed,
    }
}

fn die(position: &str, sides: u32, value: u32, purpose: &str) -> DieLine {
    DieLine {
        position: position.into(),
        sides,
        value,
        purpose: purpose.into(),
    }
}

fn sample_map() -> MapView {
    // A rotated British battery checks that bases are drawn as oriented rectangles.
    let rot = 200.0_f64;
    let mut battery = unit(
        "br-3",
        "RHA Battery",
        1,
        "artillery",
        rot,
        &[],
        3,
        true,
        None,
    );
    let r = rot.to_radians();
    for k in [-0.5, 0.5] {
        battery.bases.push(base(
            1,
            21.0 + k * r.cos(),
            12.6 - k * r.sin(),
            rot,
            1.0,
            0.5,
        ));
    }
    battery.anchor = p(21.0, 12.6);
    MapView {
        title: String::new(),
        width: 30.0,
        height: 20.0,
        unit: "BW".into(),
        sides: vec![
            SideStyle {
                side: SideId::new("french"),
                name: "French".into(),
                colour: "#1f4e9c".into(),
            },
            SideStyle {
                side: SideId::new("british"),
                name: "British".into(),
                colour: "#b22222".into(),
            },
        ],
        terrain: vec![
            area(
                "Field",
                TerrainStyle::Field,
                &[(22.0, 1.0), (28.0, 1.0), (28.0, 5.0), (22.0, 5.0)],
                true,
            ),
            area(
                "Bois de Paris",
                TerrainStyle::Woods,
                &[
                    (3.0, 12.5),
                    (7.5, 12.0),
                    (8.5, 15.5),
                    (6.0, 17.5),
                    (2.5, 16.0),
                ],
                true,
            ),
            area(
                "Mont Saint-Jean",
                TerrainStyle::Hill,
                &[
                    (18.0, 15.0),
                    (24.0, 14.0),
                    (28.0, 16.5),
                    (25.0, 19.0),
                    (19.0, 18.5),
                ],
                true,
            ),
            area(
                "Marsh",
                TerrainStyle::Marsh,
                &[(1.0, 3.0), (5.0, 2.5), (6.0, 5.0), (2.0, 6.0)],
                true,
            ),
            area(
                "Hougoumont",
                TerrainStyle::Town,
                &[(9.0, 16.0), (11.5, 16.0), (11.5, 18.0), (9.0, 18.0)],
                true,
            ),
            area(
                "Smohain brook",
                TerrainStyle::Water,
                &[
                    (0.0, 9.0),
                    (8.0, 9.6),
                    (15.0, 9.2),
                    (22.0, 10.2),
                    (30.0, 9.8),
                ],
                false,
            ),
            area(
                "Brussels road",
                TerrainStyle::Road,
                &[(14.0, 0.0), (14.5, 9.3), (15.0, 20.0)],
                false,
            ),
            area("", TerrainStyle::Wall, &[(9.0, 15.5), (12.0, 15.5)], false),
        ],
        units: vec![
            unit(
                "fr-1",
                "1st Ligne",
                0,
                "line",
                0.0,
                &[(8.5, 6.0), (9.5, 6.0), (10.5, 6.0), (11.5, 6.0)],
                0,
                false,
                None,
            ),
            unit(
                "fr-2",
                "2nd Legere",
                0,
                "column",
                0.0,
                &[(15.5, 4.5), (16.5, 4.5), (15.5, 4.0), (16.5, 4.0)],
                1,
                false,
                None,
            ),
            unit(
                "fr-3",
                "Grande Batterie",
                0,
                "artillery",
                0.0,
                &[(19.5, 6.0), (20.5, 6.0)],
                0,
                true,
                Some("2 SP"),
            ),
            unit(
                "br-1",
                "Guards",
                1,
                "line",
                180.0,
                &[(9.5, 12.5), (10.5, 12.5), (11.5, 12.5), (12.5, 12.5)],
                2,
                false,
                None,
            ),
            unit(
                "br-2",
                "Highlanders",
                1,
                "massed",
                180.0,
                &[(16.5, 12.0), (17.5, 12.0), (16.5, 12.5), (17.5, 12.5)],
                1,
                false,
                Some("3 SP"),
            ),
            battery,
        ],
        markers: vec![
            MarkerView {
                kind: MarkerKind::Commander,
                side: Some(0),
                at: p(13.0, 3.0),
                label: "CinC".into(),
            },
            MarkerView {
                kind: MarkerKind::Commander,
                side: Some(1),
                at: p(13.5, 15.0),
                label: "Wellington".into(),
            },
            MarkerView {
                kind: MarkerKind::Objective,
                side: None,
                at: p(14.5, 9.3),
                label: "Bridge".into(),
            },
        ],
        arrows: vec![
            ArrowView {
                kind: ArrowKind::Move,
                side: 0,
                path: vec![p(16.0, 2.0), p(16.0, 3.6)],
            },
            ArrowView {
                kind: ArrowKind::Fire,
                side: 1,
                path: vec![p(21.0, 12.2), p(20.2, 6.4)],
            },
            ArrowView {
                kind: ArrowKind::Charge,
                side: 1,
                path: vec![p(17.0, 11.6), p(16.6, 8.5), p(16.2, 5.0)],
            },
            ArrowView {
                kind: ArrowKind::FallBack,
                side: 0,
                path: vec![p(6.0, 6.5), p(5.0, 7.5), p(4.0, 7.5)],
            },
        ],
        zones: vec![galloper::view::ZoneView {
            side: 1,
            points: vec![p(10.0, 12.0), p(11.0, 12.0), p(11.0, 16.0), p(10.0, 16.0)],
        }],
        deployment: vec![],
        turned: false,
        counter: None,
        letters: Vec::new(),
    }
}

fn sample() -> ReportView {
    ReportView {
        enemy_note: None,
        changed: vec!["Broken or lost: Picardie (p1)".into()],
        game: "Waterloo by post".into(),
        ruleset: "maurice-lite".into(),
        step: 4,
        heading: "Round 4, French active".into(),
        viewer: "french".into(),
        map: sample_map(),
        panels: vec![
            Panel { title: "Army morale".into(), lines: vec!["French 12".into(), "British 10".into()] },
            Panel { title: "Your hand".into(), lines: vec!["Forced march".into(), "Volley fire".into()] },
        ],
        events: vec![
            EventLine {
                text: "The Grande Batterie fires at the Guards.".into(),
                dice: vec![
                    die("public #17", 6, 5, "to hit the Guards: needs 4+, +1 dense target"),
                    die("public #18", 6, 2, "to hit the Guards: needs 4+, +1 dense target"),
                ],
            },
            EventLine {
                text: "The Highlanders charge the 2nd Legere, who stand and take the shock with a very long \
                       description that must be wrapped over several lines of the text report."
                    .into(),
                dice: vec![die("public #19", 6, 6, "melee, Highlanders"), die("public #20", 6, 1, "melee, 2nd Legere")],
            },
            EventLine { text: "The 1st Ligne falls back.".into(), dice: vec![] },
        ],
        next: vec!["You owe orders for step 5 (round 5).".into()],
        audit: vec![
            "secret revealed: 3f1c9a0d8e7b6a5f4e3d2c1b0a99887766554433221100ffeeddccbbaa998877".into(),
            "orders hash french: 0a1b2c3d4e5f".into(),
        ],
        keys: vec![
            "server: SHA256:q5e0ktuFNLdClfzmM9hcAKvAx5Ay3iCIjUIQWHxoYWY".into(),
            "french: SHA256:Lq9FzkHTMSNIkBGPlOdmXm0tzjLm5WNvAx+YhXxFkEg".into(),
            "british: SHA256:wNbmHu3sa4Jr1RrxeMSpcpBOlPrB76yn2dUHRDW0ZrY".into(),
        ],
        orders_template: Some("moves:\n  fr-1: hold   # line, 4 bases\n  fr-2: advance\n".into()),
        enemy: vec![],
        deadline: vec![],
        notices: vec![],
        archive: vec![],
    }
}

fn pixels_of(png: &[u8], (r, g, b): (u8, u8, u8)) -> usize {
    let pixmap = tiny_skia::Pixmap::decode_png(png).unwrap();
    pixmap
        .pixels()
        .iter()
        .filter(|px| px.red() == r && px.green() == g && px.blue() == b && px.alpha() == 255)
        .count()
}

#[test]
fn svg_is_well_formed_and_names_every_unit() {
    let map = sample_map();
    let svg = map_svg(&map).unwrap();
    let tree = usvg::Tree::from_str(&svg, &usvg::Options::default()).unwrap();
    assert_eq!(tree.size().width(), 1400.0);
    for u in &map.units {
        assert!(svg.contains(&u.label), "missing label {}", u.label);
    }
    for s in &map.sides {
        assert!(svg.contains(&s.name));
    }
    for letter in [">L</tspan>", ">C</tspan>", ">M</tspan>", ">A</tspan>"] {
        assert!(svg.contains(letter), "formation letter {letter}");
    }
    assert!(svg.contains(">CinC</text>") && svg.contains(">CinC Wellington</text>"));
    assert!(svg.contains("Bottom edge: French"));
}

#[test]
fn first_side_is_drawn_below_the_second() {
    let svg = map_svg(&sample_map()).unwrap();
    let y_of = |label: &str| -> f64 {
        let at = svg.find(&format!(">{label} <tspan")).unwrap();
        let start = svg[..at].rfind("<text").unwrap();
        let attr = &svg[start..at];
        let y = attr.split("y=\"").nth(1).unwrap();
        y[..y.find('"').unwrap()].parse().unwrap()
    };
    assert!(y_of("1st Ligne") > y_of("Guards"));
}

#[test]
fn hostile_names_are_escaped() {
    let mut report = sample();
    report.game = "<b>Bold</b> & co".into();
    report.map.units[0].label = "<script>alert(1)</script>".into();
    report.map.sides[1].name = "\"><img src=x onerror=alert(2)>".into();
    report.panels[0].lines.push("<i>italic</i>".into());
    report.events[0].text = "<script>bad()</script> fires".into();
    report.orders_template = Some("</pre><script>x()</script>".into());
    let html = report_html(&report).unwrap();
    assert!(!html.contains("<script>"), "raw script tag in HTML");
    assert!(!html.contains("<img"));
    assert!(!html.contains("<b>Bold"));
    assert!(!html.contains("<i>italic"));
    // askama writes numeric references: &#60; for <, &#62; for >, &#38; for &.
    assert!(html.contains("&#60;script&#62;alert(1)&#60;/script&#62;"));
    assert!(html.contains("&#60;b&#62;Bold&#60;/b&#62; &#38; co"));

    let svg = map_svg(&report.map).unwrap();
    assert!(!svg.contains("<script>"));
    assert!(svg.contains("&#60;script&#62;alert(1)&#60;/script&#62;"));
    usvg::Tree::from_str(&svg, &usvg::Options::default()).unwrap();
}

#[test]
fn characters_xml_cannot_hold_do_not_break_the_map() {
    let mut map = sample_map();
    map.units[0].label = "bell\u{7}\u{1b}[31m".into();
    map.sides[0].name = "nul\u{0}side".into();
    map.sides[0].colour = "red\" onload=\"x()".into();
    let svg = map_svg(&map).unwrap();
    assert!(!svg.contains('\u{1b}') && !svg.contains('\u{0}'));
    assert!(!svg.contains("onload"));
    assert!(!map_png(&map).unwrap().is_empty());
}

fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn text_has_every_event_and_die() {
    let report = sample();
    let text = report_text(&report).unwrap();
    let flat = squash(&text);
    for e in &report.events {
        assert!(flat.contains(&squash(&e.text)), "missing event {}", e.text);
        // A run of dice for one purpose is one line with every value
        // (`[2d6: 5 2]`); a die alone is `[d6=5]`.
        for d in &e.dice {
            let alone = format!("[d{}={}] {} ({})", d.sides, d.value, d.purpose, d.position);
            let run = e
                .dice
                .iter()
                .filter(|o| o.purpose == d.purpose && o.sides == d.sides)
                .map(|o| o.value.to_string())
                .collect::<Vec<_>>();
            let joined = format!(
                "[{}d{}: {}] {}",
                run.len(),
                d.sides,
                run.join(" "),
                d.purpose
            );
            assert!(
                flat.contains(&alone) || flat.contains(&joined),
                "missing die {alone}"
            );
        }
    }
    for l in report
        .panels
        .iter()
        .flat_map(|p| p.lines.iter())
        .chain(&report.next)
        .chain(&report.audit)
    {
        assert!(text.contains(l.as_str()), "missing line {l}");
    }
    // The template is the mail's attachment, not repeated in its text.
    assert!(!text.contains("fr-2: advance"));
    assert!(text.contains("Your orders template is the .yaml file attached"));
    assert!(text.contains("attached as a PNG"));
    assert!(!text.contains("<svg"));
    let audit_and_orders = text.find("Dice audit").unwrap();
    for line in text[..audit_and_orders].lines() {
        assert!(line.chars().count() <= 78, "line too long: {line:?}");
    }
}

#[test]
fn text_matches_golden_file() {
    let text = report_text(&sample()).unwrap();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/report.txt");
    if std::env::var_os("GALLOPER_BLESS").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let golden = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        text, golden,
        "set GALLOPER_BLESS=1 to accept a deliberate change"
    );
}

#[test]
fn html_has_every_part() {
    let report = sample();
    let html = report_html(&report).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(html.contains("Waterloo by post \u{2014} step 4 \u{2014} Round 4, French active"));
    assert!(html.contains(
        "<span class=\"die\">[2d6: 5 2]</span> to hit the Guards: needs 4+, +1 dense target"
    ));
    assert!(html.contains("<span class=\"pos\">public #17-#18</span>"));
    assert!(html.contains("You owe orders for step 5 (round 5)."));
    assert!(html.contains("<h2>Your orders</h2>") && !html.contains("fr-2: advance"));
    for l in &report.audit {
        assert!(html.contains(l.as_str()));
    }
    assert!(html.contains("<h2>Keys on record</h2>"));
    for l in &report.keys {
        assert!(html.contains(l.as_str()), "{l}");
    }
    // Self-contained: nothing fetched from elsewhere.
    assert!(!html.contains("src=") && !html.contains("href=") && !html.contains("@import"));
}

#[test]
fn png_decodes_with_both_side_colours() {
    let report = sample();
    let png = report_png(&report).unwrap();
    let pixmap = tiny_skia::Pixmap::decode_png(&png).unwrap();
    assert_eq!(pixmap.width(), 1400);
    let tree =
        usvg::Tree::from_str(&map_svg(&report.map).unwrap(), &usvg::Options::default()).unwrap();
    assert_eq!(pixmap.height(), tree.size().height().ceil() as u32);
    assert!(pixels_of(&png, BLUE) > 500, "too few French pixels");
    assert!(pixels_of(&png, RED) > 500, "too few British pixels");
    let out = std::env::temp_dir().join("galloper-render-sample.png");
    std::fs::write(out, &png).unwrap();
    std::fs::write(
        std::env::temp_dir().join("galloper-render-sample.html"),
        report_html(&report).unwrap(),
    )
    .unwrap();
}

#[test]
fn png_really_draws_text() {
    let mut map = sample_map();
    map.units.truncate(1);
    map.units[0].label = "WWWWWWWWWW".into();
    let with = tiny_skia::Pixmap::decode_png(&map_png(&map).unwrap()).unwrap();
    map.units[0].label = String::new();
    let without = tiny_skia::Pixmap::decode_png(&map_png(&map).unwrap()).unwrap();
    let differ = with
        .pixels()
        .iter()
        .zip(without.pixels())
        .filter(|(a, b)| a != b)
        .count();
    assert!(
        differ > 300,
        "only {differ} pixels differ: is the font loaded?"
    );
}

#[test]
fn output_is_deterministic() {
    let report = sample();
    assert_eq!(map_svg(&report.map).unwrap(), map_svg(&report.map).unwrap());
    assert_eq!(report_html(&report).unwrap(), report_html(&report).unwrap());
    assert_eq!(report_text(&report).unwrap(), report_text(&report).unwrap());
    assert_eq!(report_png(&report).unwrap(), report_png(&report).unwrap());
}

#[test]
fn undrawable_maps_are_errors() {
    let mut map = sample_map();
    map.width = 0.0;
    assert!(matches!(map_svg(&map), Err(RenderError::InvalidMap(_))));
    let mut map = sample_map();
    map.units[1].bases[0].corners[2] = p(f64::NAN, 1.0);
    assert!(matches!(map_png(&map), Err(RenderError::InvalidMap(_))));
}

#[test]
fn large_tables_keep_the_grid_sparse() {
    let mut map = sample_map();
    map.unit = "cm".into();
    map.width = 180.0;
    map.height = 120.0;
    map.sides.push(SideStyle {
        side: SideId::new("prussian"),
        name: "Prussians".into(),
        colour: "#222".into(),
    });
    let svg = map_svg(&map).unwrap();
    let lines = svg.matches("<line ").count();
    // 35 + 23 grid lines at 5 cm, plus the front edges of the bases.
    assert!(lines < 100, "{lines} lines");
    assert!(svg.contains("10 cm  (grid 5 cm)"));
    assert!(svg.contains(">Prussians</text>"));
    let png = map_png(&map).unwrap();
    assert_eq!(tiny_skia::Pixmap::decode_png(&png).unwrap().width(), 1400);
    std::fs::write(std::env::temp_dir().join("galloper-render-large.png"), &png).unwrap();
}

#[test]
fn empty_report_still_reads() {
    let mut report = sample();
    report.panels.clear();
    report.events.clear();
    report.next.clear();
    report.audit.clear();
    report.keys.clear();
    report.orders_template = None;
    let text = report_text(&report).unwrap();
    assert!(text.contains("Nothing to report.") && text.contains("Nothing further."));
    assert!(!text.contains("\n\n\n"), "{text}");
    assert!(text.ends_with("Dice audit\n----------\n"), "{text}");
    assert!(!text.contains("Orders template") && !text.contains("Keys on record"));
    let html = report_html(&report).unwrap();
    assert!(
        html.contains("<p>Nothing to report.</p>") && !html.contains("<h2>Orders template</h2>")
    );
    assert!(!html.contains("Keys on record"));
    let full = report_text(&sample()).unwrap();
    assert!(!full.contains("\n\n\n"));
}

/// Issue 13: a dense line of cavalry and generals, as on the Morschauser
/// map where labels ran into each other: twelve units a hair apart, each
/// with a note, and a general's star on top of every other one.
fn crowded_map(turned: bool) -> MapView {
    let mut map = sample_map();
    map.units.clear();
    map.markers.clear();
    map.arrows.clear();
    map.zones.clear();
    for i in 0..12 {
        let x = 3.0 + f64::from(i) * 1.1;
        let side = (i % 2) as usize;
        map.units.push(unit(
            &format!("cav-{i}"),
            &format!("Cuirassier Regiment {i}"),
            side,
            "heavy cavalry",
            if side == 0 { 0.0 } else { 180.0 },
            &[(x, 8.0)],
            i % 3,
            false,
            Some("3/4 SP, 1 hit"),
        ));
        if i % 2 == 0 {
            map.markers.push(MarkerView {
                kind: MarkerKind::General,
                side: Some(side),
                at: p(x, 8.2),
                label: format!("General Number {i} (bold, with Cuirassier Regiment {i})"),
            });
        }
    }
    map.turned = turned;
    map
}

#[test]
fn no_two_labels_overlap_on_a_crowded_map_either_way_round() {
    for turned in [false, true] {
        let boxes = galloper::render::label_boxes(&crowded_map(turned)).unwrap();
        assert_eq!(boxes.len(), 12 + 6, "a box for each unit and general");
        let overlaps = |a: &(f64, f64, f64, f64), b: &(f64, f64, f64, f64)| {
            a.0 < b.0 + b.2 && b.0 < a.0 + a.2 && a.1 < b.1 + b.3 && b.1 < a.1 + a.3
        };
        for i in 0..boxes.len() {
            for j in (i + 1)..boxes.len() {
                assert!(
                    !overlaps(&boxes[i], &boxes[j]),
                    "labels {i} and {j} overlap (turned: {turned}): {:?} {:?}",
                    boxes[i],
                    boxes[j]
                );
            }
        }
        // Labels pushed away from their unit point back to it.
        let svg = map_svg(&crowded_map(turned)).unwrap();
        assert!(
            svg.contains("stroke=\"#333333\""),
            "the leader lines' group"
        );
    }
    if let Ok(dir) = std::env::var("GALLOPER_KEEP_MAPS") {
        let png = map_png(&crowded_map(false)).unwrap();
        std::fs::write(std::path::Path::new(&dir).join("crowded.png"), png).unwrap();
    }
}

/// Issue 31, item 15: a busy place on a 180 x 120 cm table, twenty units
/// within 5 cm of the far right corner and twenty within 5 cm of the
/// table's middle, a general with every fourth: the labels crowd each
/// other and the table's edge.
fn busy_map(turned: bool) -> MapView {
    let mut map = crowded_map(turned);
    map.units.clear();
    map.markers.clear();
    map.unit = "cm".into();
    map.width = 180.0;
    map.height = 120.0;
    for (place, (x0, y0)) in [(175.0, 115.0), (88.0, 58.0)].into_iter().enumerate() {
        for i in 0..20 {
            let side = i % 2;
            let (x, y) = (x0 + f64::from(i % 5), y0 + f64::from(i / 5));
            let mut u = unit(
                &format!("u-{place}-{i}"),
                &format!("Provincial Battalion {place}-{i}"),
                side as usize,
                "line",
                if side == 0 { 0.0 } else { 180.0 },
                &[],
                0,
                false,
                Some("480 men, unloaded"),
            );
            u.bases.push(base(side as usize, x, y, u.facing, 2.0, 1.0));
            u.anchor = p(x, y);
            map.units.push(u);
            if i % 4 == 0 {
                map.markers.push(MarkerView {
                    kind: MarkerKind::General,
                    side: Some(side as usize),
                    at: p(x, y),
                    label: format!("Colonel {place}-{i} (with Provincial Battalion {place}-{i})"),
                });
            }
        }
    }
    map
}

/// The table's box in the SVG, as (x, y, width, height).
fn table_box(svg: &str) -> (f64, f64, f64, f64) {
    let rect = svg
        .split("<rect")
        .map(|r| r.split('>').next().unwrap_or(""))
        .find(|r| r.contains("fill=\"#d3e2ab\""))
        .expect("the table's cloth");
    let attr = |name: &str| -> f64 {
        let at = rect.find(&format!(" {name}=\"")).expect(name) + name.len() + 3;
        rect[at..].split('"').next().unwrap().parse().unwrap()
    };
    (attr("x"), attr("y"), attr("width"), attr("height"))
}

#[test]
fn labels_at_a_busy_place_never_overlap_nor_leave_the_table() {
    for turned in [false, true] {
        let map = busy_map(turned);
        let (tx, ty, tw, th) = table_box(&map_svg(&map).unwrap());
        let boxes = galloper::render::label_boxes(&map).unwrap();
        assert_eq!(
            boxes.len(),
            40 + 10,
            "every unit's and general's label shown"
        );
        for (i, b) in boxes.iter().enumerate() {
            assert!(
                b.0 >= tx && b.1 >= ty && b.0 + b.2 <= tx + tw && b.1 + b.3 <= ty + th,
                "label {i} leaves the table {:?} (turned: {turned}): {b:?}",
                (tx, ty, tw, th)
            );
            for (j, c) in boxes.iter().enumerate().skip(i + 1) {
                assert!(
                    !(b.0 < c.0 + c.2 && c.0 < b.0 + b.2 && b.1 < c.1 + c.3 && c.1 < b.1 + b.3),
                    "labels {i} and {j} overlap (turned: {turned}): {b:?} {c:?}"
                );
            }
        }
        // Every label is read somewhere: whole on the table, or as a
        // number near its unit that the legend explains.
        let svg = map_svg(&map).unwrap();
        assert!(
            svg.contains(">Labels by number:</text>"),
            "too busy for all whole"
        );
        for name in map
            .units
            .iter()
            .map(|u| u.label.clone())
            .chain(map.markers.iter().map(|m| m.label.clone()))
        {
            // The legend's line: ">12 Provincial Battalion 0-15 L".
            let numbered = svg.match_indices(&format!(" {name}")).any(|(i, _)| {
                let head = svg[..i].trim_end_matches(|c: char| c.is_ascii_digit());
                head.ends_with('>') && head.len() < i
            });
            assert!(
                svg.contains(&format!(">{name} <tspan"))
                    || svg.contains(&format!(">{name}</text>"))
                    || numbered,
                "{name} is nowhere (turned: {turned})"
            );
        }
        assert_eq!(
            svg,
            map_svg(&busy_map(turned)).unwrap(),
            "one view, one map"
        );
    }
    if let Ok(dir) = std::env::var("GALLOPER_KEEP_MAPS") {
        let png = map_png(&busy_map(false)).unwrap();
        std::fs::write(std::path::Path::new(&dir).join("busy.png"), png).unwrap();
    }
}

#[test]
fn a_map_turned_to_the_second_sides_edge_puts_it_at_the_bottom_with_text_upright() {
    let mut map = sample_map();
    let plain = map_svg(&map).unwrap();
    assert!(plain.contains("Bottom edge: French"));
    map.turned = true;
    let turned = map_svg(&map).unwrap();
    assert!(turned.contains("Bottom edge: British"), "{turned}");
    // Points move; nothing is rotated, so text stays upright.
    assert!(!turned.contains("rotate("));
    // The table corner (0, 0) is bottom left normally, top right turned:
    // the first x tick "0" sits under the right end of the table.
    let tick_x = |svg: &str| -> f64 {
        let at = svg.find(">0</text>").expect("a 0 tick");
        let head = &svg[..at];
        let x = head.rfind("x=\"").unwrap();
        head[x + 3..].split('"').next().unwrap().parse().unwrap()
    };
    assert!(tick_x(&plain) < 100.0);
    assert!(tick_x(&turned) > 1000.0, "{}", tick_x(&turned));
}

#[test]
fn a_report_shows_the_enemy_the_deadline_and_its_notices_in_html_and_text() {
    let mut r = sample();
    r.enemy = galloper::view::enemy::seen_by(&r.map, &SideId::new("french"));
    assert!(!r.enemy.is_empty(), "the sample has British units");
    r.deadline =
        vec!["Deadline for step 5: Wed 04 Mar 2026 21:00 CET (Europe/Paris), 20:00 UTC".into()];
    r.notices = vec!["This is step 4 resolved again after a rollback (run 2)".into()];
    let html = report_html(&r).unwrap();
    assert!(html.contains("<h2>The enemy as you see him</h2>"), "{html}");
    assert!(html.contains("RHA Battery <code>br-3</code>"), "{html}");
    assert!(html.contains("BW from your nearest unit"));
    assert!(html.contains("21:00 CET (Europe/Paris), 20:00 UTC"));
    assert!(html.contains("<p class=\"notice\">This is step 4 resolved again"));
    let text = report_text(&r).unwrap();
    assert!(
        text.contains("The enemy as you see him\n------------------------"),
        "{text}"
    );
    assert!(text.contains("RHA Battery [br-3] (British)"), "{text}");
    assert!(text.contains("(Europe/Paris)"));
    assert!(text.contains("** This is step 4 resolved again"));
    // The French report lists no French unit as an enemy.
    assert!(r.enemy.iter().all(|e| e.side == "British"));
}

#[test]
fn the_legend_names_the_counter_in_the_rulesets_words_or_draws_none() {
    let mut map = sample_map();
    map.counter = None;
    let svg = map_svg(&map).unwrap();
    assert!(!svg.contains(">disruption<"), "no counter, no legend entry");
    map.counter = Some("disorder (coloured dice)".into());
    let svg = map_svg(&map).unwrap();
    assert!(
        svg.contains("disorder (coloured dice)"),
        "the ruleset's words"
    );
    assert!(!svg.contains("disruption"));
}
