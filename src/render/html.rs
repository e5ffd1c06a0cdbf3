//! The HTML report: one self-contained page with the map inline.

use super::RenderError;
use super::clean;
use crate::view::{EventLine, ReportView};
use askama::Template;

/// A titled list as the page shows it.
struct PanelOut {
    title: String,
    lines: Vec<String>,
    /// A long panel ("What you can do now" in a big battle) takes the
    /// whole row, its lines in columns, instead of a column a quarter wide
    /// and metres long.
    wide: bool,
}

/// Characters past which a panel is laid out wide.
const WIDE_PANEL: usize = 600;

/// One enemy unit as a row of the page's table.
struct EnemyOut {
    name: String,
    id: String,
    at: String,
    facing: String,
    formation: String,
    state: String,
    range: String,
}

/// One die: the roll in brackets, what it was for, where it sits in its stream.
pub(crate) struct DieOut {
    pub roll: String,
    pub purpose: String,
    pub position: String,
}

/// One event with its dice.
pub(crate) struct EventOut {
    pub text: String,
    pub dice: Vec<DieOut>,
}

/// Events with every string cleaned, shared by the HTML and text reports.
pub(crate) fn events(lines: &[EventLine]) -> Vec<EventOut> {
    lines
        .iter()
        .map(|e| EventOut {
            text: clean::line(&e.text),
            dice: joined(&e.dice),
        })
        .collect()
}

/// An event's dice, each run of dice of one kind thrown for one purpose at
/// consecutive places of one stream written as one line ("[d6: 5 3 3] ...
/// (public #0-#2)"): the same facts as a line a die, in a third of the
/// room, so that a step of many dice still makes a light mail.
fn joined(dice: &[crate::view::DieLine]) -> Vec<DieOut> {
    /// A run's values, its first die, and its stream with first and last place.
    type Run<'a> = (
        Vec<u32>,
        &'a crate::view::DieLine,
        Option<(String, u64, u64)>,
    );
    let mut out: Vec<Run> = Vec::new();
    for d in dice {
        let place = d
            .position
            .rsplit_once(" #")
            .and_then(|(s, i)| Some((s.to_string(), i.parse::<u64>().ok()?)));
        if let Some((values, first, Some((stream, _, hi)))) = out.last_mut()
            && first.sides == d.sides
            && first.purpose == d.purpose
            && place
                .as_ref()
                .is_some_and(|(s, i)| s == stream && *i == *hi + 1)
        {
            values.push(d.value);
            *hi += 1;
            continue;
        }
        out.push((vec![d.value], d, place.map(|(s, i)| (s, i, i))));
    }
    out.into_iter()
        .map(|(values, d, place)| DieOut {
            roll: match values.as_slice() {
                [one] => format!("[d{}={one}]", d.sides),
                many => format!(
                    "[{}d{}: {}]",
                    many.len(),
                    d.sides,
                    many.iter()
                        .map(u32::to_string)
                        .collect::<Vec<_>>()
                        .join(" ")
                ),
            },
            purpose: clean::line(&d.purpose),
            position: clean::line(&match place {
                Some((s, lo, hi)) if lo < hi => format!("{s} #{lo}-#{hi}"),
                _ => d.position.clone(),
            }),
        })
        .collect()
}

#[derive(Template)]
#[template(path = "report.html")]
struct ReportHtml {
    game: String,
    ruleset: String,
    step: u32,
    heading: String,
    viewer: String,
    svg: String,
    panels: Vec<PanelOut>,
    changed: Vec<String>,
    events: Vec<EventOut>,
    next: Vec<String>,
    audit: Vec<String>,
    keys: Vec<String>,
    orders: Option<String>,
    enemy: Vec<EnemyOut>,
    enemy_note: Option<String>,
    deadline: Vec<String>,
    notices: Vec<String>,
    archive: Vec<String>,
}

/// Renders the report as one HTML page with inline CSS and the map as inline SVG.
pub fn report_html(report: &ReportView) -> Result<String, RenderError> {
    report_html_with_map(report, &super::report_svg(report)?)
}

/// [`report_html`] around the report's map already drawn as SVG
/// ([`super::report_svg`]), which the step also rasterises.
pub fn report_html_with_map(report: &ReportView, svg: &str) -> Result<String, RenderError> {
    let svg = svg.to_string();
    let page = ReportHtml {
        game: clean::line(&report.game),
        ruleset: clean::line(&report.ruleset),
        step: report.step,
        heading: clean::line(&report.heading),
        viewer: clean::line(&report.viewer),
        svg,
        panels: report
            .panels
            .iter()
            .map(|p| PanelOut {
                title: clean::line(&p.title),
                lines: p.lines.iter().map(|l| clean::line(l)).collect(),
                wide: p.lines.iter().map(String::len).sum::<usize>() > WIDE_PANEL,
            })
            .collect(),
        changed: report.changed.iter().map(|l| clean::line(l)).collect(),
        events: events(&report.events),
        next: report.next.iter().map(|l| clean::line(l)).collect(),
        audit: report.audit.iter().map(|l| clean::line(l)).collect(),
        keys: report.keys.iter().map(|l| clean::line(l)).collect(),
        orders: report.orders_template.as_deref().map(clean::block),
        enemy: report
            .enemy
            .iter()
            .map(|e| EnemyOut {
                name: clean::line(&e.name),
                id: clean::line(&e.id),
                at: format!("({:.1}, {:.1})", e.at.x, e.at.y),
                facing: format!("{:.0}", e.facing),
                formation: clean::line(&e.formation),
                state: clean::line(&e.state),
                range: clean::line(&e.range()),
            })
            .collect(),
        enemy_note: report.enemy_note.as_deref().map(clean::line),
        deadline: report.deadline.iter().map(|l| clean::line(l)).collect(),
        notices: report.notices.iter().map(|l| clean::line(l)).collect(),
        archive: report.archive.iter().map(|l| clean::line(l)).collect(),
    };
    Ok(page.render()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::DieLine;

    fn die(stream_index: u64, sides: u32, value: u32, purpose: &str) -> DieLine {
        DieLine {
            position: format!("public #{stream_index}"),
            sides,
            value,
            purpose: purpose.into(),
        }
    }

    /// Issue 31 item 10: a run of dice of one kind for one purpose at
    /// consecutive places is one line with every value; a die of another
    /// purpose, kind or place starts a line of its own.
    #[test]
    fn a_run_of_dice_for_one_purpose_is_one_line_with_every_value() {
        let lines = joined(&[
            die(0, 6, 5, "A attacks B: hits on 1-2"),
            die(1, 6, 6, "A attacks B: hits on 1-2"),
            die(2, 6, 3, "A attacks B: hits on 1-2"),
            die(3, 6, 2, "B fights back"),
            die(5, 6, 1, "B fights back"),
            die(6, 10, 7, "B fights back"),
        ]);
        let said: Vec<String> = lines
            .iter()
            .map(|d| format!("{} {} ({})", d.roll, d.purpose, d.position))
            .collect();
        assert_eq!(
            said,
            [
                "[3d6: 5 6 3] A attacks B: hits on 1-2 (public #0-#2)",
                "[d6=2] B fights back (public #3)",
                "[d6=1] B fights back (public #5)",
                "[d10=7] B fights back (public #6)",
            ]
        );
    }
}
