//! Issue 31 item 10, "Report mails are light": a report mail of a game of
//! 30 units a side carries the report (text and HTML), its map and the
//! orders template (and, issue 32, the orders page), nothing else, and
//! stays under 150 KB without the page. The step's
//! archive files are named (club site, `archive` request), not attached.

use galloper::bench::mail_size::{self, GOAL_BYTES};
use galloper::bench::{generate, play, scratch::Scratch};

/// Play `steps` steps of a generated game of 30 units a side through the
/// daemon's intake, and look at every report mail it queued.
fn largest(ruleset: &str, scenario: &str, steps: u32) -> mail_size::Largest {
    let mut author = galloper::demo::players::player(ruleset, true)
        .unwrap()
        .unwrap();
    let (mut p, _) = play::open_game(Scratch::new("light-mail").unwrap(), scenario, "thirty")
        .expect("the game opens");
    p.play(author.as_mut(), steps, true)
        .expect("the game plays");
    let l = mail_size::largest_report(p.server.store(), &p.game)
        .unwrap()
        .expect("report mails were queued");
    // Every report mail, not only the largest, carries exactly these parts.
    let mut templates = 0;
    for m in p.server.store().mails().unwrap() {
        if m.kind != "report" {
            continue;
        }
        let parts = mail_size::parts(&m.bytes);
        let reader = m.reader.clone().unwrap();
        assert!(
            parts.len() == 3 || parts.len() == 5,
            "text, HTML, map, and the template and orders page when orders are owed: {parts:?}"
        );
        assert_eq!(parts[0], "text/plain");
        assert_eq!(parts[1], "text/html");
        assert_eq!(parts[2], "image/png map.png");
        let png = mail_parser::MessageParser::default()
            .parse(&m.bytes)
            .unwrap()
            .parts
            .iter()
            .find(|p| p.contents().starts_with(b"\x89PNG"))
            .map(|p| p.contents().to_vec())
            .expect("the map's bytes");
        // IHDR's colour type, byte 25: 3 is a palette of at most 256 colours.
        assert_eq!(png[25], 3, "the map is a palette image");
        if let Some(t) = parts.get(3) {
            templates += 1;
            assert!(
                t.starts_with("application/yaml thirty-step-")
                    && t.ends_with(&format!("-{reader}.yaml")),
                "the orders template: {parts:?}"
            );
            assert!(
                parts[4].starts_with("text/html thirty-step-")
                    && parts[4].ends_with(&format!("-{reader}-orders.html")),
                "the orders page: {parts:?}"
            );
        }
        assert!(
            !parts.iter().any(|p| p.contains("archive")),
            "no archive file: {parts:?}"
        );
        // The mail says where the archive files are instead.
        let text = String::from_utf8_lossy(&m.bytes);
        assert!(
            text.contains("Archive files"),
            "the report names its archive files"
        );
    }
    assert!(templates > 0, "{ruleset}: some report carries a template");
    l
}

#[test]
fn a_report_mail_of_30_units_a_side_is_under_150_kb_with_report_map_and_template_only() {
    let l = largest("maurice-lite", &generate::maurice(30), 3);
    assert!(l.mails >= 6, "{} report mails", l.mails);
    assert!(
        l.bytes < GOAL_BYTES,
        "the largest report mail (step {}, {}) is {} bytes",
        l.step,
        l.reader,
        l.bytes
    );
}

/// The generated Morschauser game marches both lines into one melee of 30
/// pairs: its busiest report (180 dice, 60 labels on the map) stays past
/// the goal (206 KB), and `galloper bench` reports it beside the goal. Its mails carry the same parts, and the map
/// as a palette image.
#[test]
fn a_morschauser_report_mail_carries_the_same_parts_and_a_palette_map() {
    let l = largest("morschauser-macduff", &generate::morschauser(30), 3);
    assert!(l.mails >= 6, "{} report mails", l.mails);
    eprintln!(
        "morschauser-macduff: largest report mail {} bytes (step {}, {})",
        l.bytes, l.step, l.reader
    );
}
