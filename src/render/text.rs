//! The plain-text report: the HTML report's content without the map, wrapped
//! for mail readers that show no HTML.

use super::RenderError;
use super::clean;
use super::wrap::wrap;
use crate::view::ReportView;
use askama::Template;

/// Line width of the text report.
pub(crate) const WIDTH: usize = 78;

/// What the keys on record are for, above their fingerprints (the HTML
/// report says the same in `templates/report.html`).
const KEYS_NOTE: &str = "The keys on record: the server's own, which signs every notice, report and the archive, and the key the server takes as each side's. Compare yours with `ssh-keygen -l -f YOUR-KEY.pub` and the server's with the one you were given; if one differs, tell the game master at once.";

/// A titled section, already wrapped.
struct Section {
    title: String,
    rule: String,
    lines: Vec<String>,
}

impl Section {
    fn new(title: &str, lines: Vec<String>) -> Section {
        let title = clean::line(title);
        let rule = "-".repeat(title.chars().count().min(WIDTH));
        Section { title, rule, lines }
    }
}

#[derive(Template)]
#[template(path = "report.txt")]
struct ReportText {
    header: Vec<String>,
    sections: Vec<Section>,
    orders: Option<String>,
}

/// Lines as a bulleted list, each wrapped with a hanging indent.
fn bullets(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .flat_map(|l| wrap(&clean::line(l), WIDTH, "  - ", "    "))
        .collect()
}

/// Renders the report as plain text (the map travels as a PNG attachment).
pub fn report_text(report: &ReportView) -> Result<String, RenderError> {
    let game = clean::line(&report.game);
    let mut header = vec![
        game.clone(),
        "=".repeat(game.chars().count().clamp(1, WIDTH)),
    ];
    header.extend(wrap(
        &format!("Step {}: {}", report.step, clean::line(&report.heading)),
        WIDTH,
        "",
        "  ",
    ));
    header.extend(wrap(
        &format!(
            "Report for {} (rules: {})",
            clean::line(&report.viewer),
            clean::line(&report.ruleset)
        ),
        WIDTH,
        "",
        "  ",
    ));
    for n in &report.notices {
        header.push(String::new());
        header.extend(wrap(&format!("** {} **", clean::line(n)), WIDTH, "", "   "));
    }
    if !report.deadline.is_empty() {
        header.push(String::new());
        for l in &report.deadline {
            header.extend(wrap(&clean::line(l), WIDTH, "", "  "));
        }
    }
    header.push(String::new());
    header.push("The map is attached as a PNG image.".into());

    let mut sections: Vec<Section> = Vec::new();
    if !report.changed.is_empty() {
        sections.push(Section::new("What changed", bullets(&report.changed)));
    }
    sections.extend(
        report
            .panels
            .iter()
            .map(|p| Section::new(&p.title, bullets(&p.lines))),
    );
    if !report.enemy.is_empty() {
        let lines: Vec<String> = report.enemy.iter().map(|e| e.line()).collect();
        sections.push(Section::new("The enemy as you see him", bullets(&lines)));
    } else if let Some(note) = &report.enemy_note {
        sections.push(Section::new(
            "The enemy as you see him",
            bullets(std::slice::from_ref(note)),
        ));
    }

    let digits = report.events.len().to_string().len();
    let mut events = Vec::new();
    for (i, e) in super::html::events(&report.events).iter().enumerate() {
        let num = format!("{:>digits$}. ", i + 1);
        let indent = " ".repeat(num.len());
        events.extend(wrap(&e.text, WIDTH, &num, &indent));
        for d in &e.dice {
            let die_indent = format!("{indent}  ");
            let text = format!("{} {} ({})", d.roll, d.purpose, d.position);
            events.extend(wrap(&text, WIDTH, &die_indent, &format!("{die_indent}  ")));
        }
    }
    if events.is_empty() {
        events.push("Nothing to report.".into());
    }
    sections.push(Section::new("What happened", events));
    let mut next = bullets(&report.next);
    if next.is_empty() {
        next.push("Nothing further.".into());
    }
    sections.push(Section::new("What comes next", next));
    // Audit lines carry hashes and seeds: kept whole so they can be pasted.
    sections.push(Section::new(
        "Dice audit",
        report
            .audit
            .iter()
            .map(|l| format!("  {}", clean::line(l)))
            .collect(),
    ));
    if !report.archive.is_empty() {
        let mut lines = Vec::new();
        for l in &report.archive {
            if !lines.is_empty() {
                lines.push(String::new());
            }
            lines.extend(wrap(&clean::line(l), WIDTH, "", ""));
        }
        sections.push(Section::new("Archive files", lines));
    }
    if !report.keys.is_empty() {
        // Fingerprints are kept whole, as `ssh-keygen -l` prints them.
        let mut keys = wrap(KEYS_NOTE, WIDTH, "", "");
        keys.extend(report.keys.iter().map(|l| format!("  {}", clean::line(l))));
        sections.push(Section::new("Keys on record", keys));
    }

    let orders = report
        .orders_template
        .as_deref()
        .map(|o| clean::block(o).trim_end().to_string());
    let page = ReportText {
        header,
        sections,
        orders,
    };
    let mut out = page.render()?;
    if !out.ends_with('\n') {
        out.push('\n');
    }
    Ok(out)
}
