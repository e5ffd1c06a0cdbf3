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
            dice: e
                .dice
                .iter()
                .map(|d| DieOut {
                    roll: format!("[d{}={}]", d.sides, d.value),
                    purpose: clean::line(&d.purpose),
                    position: clean::line(&d.position),
                })
                .collect(),
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
