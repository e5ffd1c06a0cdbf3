//! Reports for each side (and the public) after a step: HTML with the map,
//! the map as PNG, plain text, and the orders template for the next step.

use super::store::{GameRow, PlayerRow, StepResult, StepRow};
use super::{DiceInputs, Server};
use crate::archive::{self, sha256_hex};
use crate::dice::DieRecord;
use crate::envelope;
use crate::event::Event;
use crate::render;
use crate::ruleset::{AnyRuleset, Due, LoadedState};
use crate::view::{EventLine, ReportView, Viewer};
use std::path::{Path, PathBuf};

/// Where a reader's report for a step goes.
pub fn report_dir(outbox: &Path, game: &str, step: u32, reader: &str) -> PathBuf {
    outbox
        .join(game)
        .join(format!("step-{step:04}"))
        .join(reader)
}

/// The event lines a reader may see, with their dice, as the ruleset tells
/// them ([`crate::ruleset::Ruleset::tell`]).
pub fn event_lines(
    rules: &dyn AnyRuleset,
    events: &[Event],
    dice: &[DieRecord],
    viewer: &Viewer,
) -> Vec<EventLine> {
    rules.tell(events, dice, viewer).lines
}

/// What the server applied for sides that sent no orders, first in every
/// reader's events: everyone may know that a side missed its deadline.
pub fn applied_lines(inputs: &DiceInputs) -> Vec<EventLine> {
    inputs
        .index
        .iter()
        .filter_map(|e| e.applied.clone())
        .map(|text| EventLine {
            text,
            dice: Vec::new(),
        })
        .collect()
}

/// What a side's report says where its enemy list would be when no enemy
/// unit is on its map.
pub const NO_ENEMY_IN_SIGHT: &str =
    "No enemy unit is on your map: none stands where your troops can see him.";

/// Build one reader's report, showing `keys` ([`keys_on_record`]).
#[allow(clippy::too_many_arguments)]
pub fn build(
    rules: &dyn AnyRuleset,
    game: &str,
    step: &StepRow,
    res: &StepResult,
    inputs: &DiceInputs,
    next: Option<&StepRow>,
    viewer: &Viewer,
    keys: Vec<String>,
) -> anyhow::Result<ReportView> {
    StepReading::new(rules, game, step, res, inputs, next)?
        .with_keys(keys)
        .report(viewer)
}

/// The step that follows: its number, what it owes, its state when it
/// differs from the state after this one, and the SHA-256 of its notice
/// (which its orders name).
type Next<'a> = (u32, Due, Option<Box<dyn LoadedState + 'a>>, String);

/// A resolved step read once for all its readers: its states parsed, its
/// events and dice loaded, what comes next worked out.
pub struct StepReading<'a> {
    rules: &'a dyn AnyRuleset,
    game: &'a str,
    step: &'a StepRow,
    res: &'a StepResult,
    inputs: &'a DiceInputs,
    heading: String,
    after: std::sync::Arc<dyn LoadedState + 'a>,
    next: Option<Next<'a>>,
    events: Vec<Event>,
    dice: Vec<DieRecord>,
    keys: Vec<String>,
    /// The next deadline's lines by reader label, each in his own zone.
    deadlines: std::collections::BTreeMap<String, Vec<String>>,
    /// Said first in every report, such as that the step was resolved again.
    notices: Vec<String>,
    /// Each side's map drawn from its own table edge.
    own_edge: bool,
    /// Where the step's archive files are ([`archive_lines`]).
    archive: Vec<String>,
}

/// The keys on record, one line each, as every report shows them: the
/// server's, then each side's, with their `ssh-keygen -l` fingerprints.
pub fn keys_on_record(server_public: &str, players: &[PlayerRow]) -> Vec<String> {
    let fp = |line: &str| {
        crate::sig::fingerprint(line).unwrap_or_else(|_| "(a key that does not parse)".into())
    };
    let mut out = vec![format!("server: {}", fp(server_public))];
    for p in players {
        out.push(format!("{}: {}", p.side, fp(&p.public_key)));
    }
    out
}

impl Server {
    /// [`keys_on_record`] for `game`, as the store has them now.
    pub fn keys_on_record(&self, game: &str) -> anyhow::Result<Vec<String>> {
        Ok(keys_on_record(
            &self.key.public_line,
            &self.store.players(game)?,
        ))
    }
}

impl<'a> StepReading<'a> {
    pub fn new(
        rules: &'a dyn AnyRuleset,
        game: &'a str,
        step: &'a StepRow,
        res: &'a StepResult,
        inputs: &'a DiceInputs,
        next: Option<&'a StepRow>,
    ) -> anyhow::Result<StepReading<'a>> {
        StepReading::loaded(
            rules,
            game,
            rules.due(&step.state_before)?.heading,
            rules.load(&res.state_after)?.into(),
            (step, res, inputs),
            next,
        )
    }

    /// As [`StepReading::new`], with the step's heading and the state after
    /// it already at hand (the resolution has them).
    pub fn loaded(
        rules: &'a dyn AnyRuleset,
        game: &'a str,
        heading: String,
        after: std::sync::Arc<dyn LoadedState + 'a>,
        (step, res, inputs): (&'a StepRow, &'a StepResult, &'a DiceInputs),
        next: Option<&'a StepRow>,
    ) -> anyhow::Result<StepReading<'a>> {
        let next = match next {
            Some(n) if n.state_before == res.state_after => {
                Some((n.step, after.due(), None, next_notice_hash(n)))
            }
            Some(n) => {
                let state = rules.load(&n.state_before)?;
                Some((n.step, state.due(), Some(state), next_notice_hash(n)))
            }
            None => None,
        };
        Ok(StepReading {
            rules,
            game,
            step,
            res,
            inputs,
            heading,
            after,
            next,
            events: crate::yaml::from_str(&res.events)?,
            dice: crate::yaml::from_str(&res.dice)?,
            keys: Vec::new(),
            deadlines: std::collections::BTreeMap::new(),
            notices: Vec::new(),
            own_edge: false,
            archive: Vec::new(),
        })
    }

    /// Draw each side's map from its own table edge.
    pub fn with_own_edge(mut self, own_edge: bool) -> StepReading<'a> {
        self.own_edge = own_edge;
        self
    }

    /// Lines every reader sees first ([`ReportView::notices`]).
    pub fn with_notices(mut self, notices: Vec<String>) -> StepReading<'a> {
        self.notices = notices;
        self
    }

    /// Where the step's archive files are, said in every report
    /// ([`ReportView::archive`]).
    pub fn with_archive(mut self, lines: Vec<String>) -> StepReading<'a> {
        self.archive = lines;
        self
    }

    /// The next deadline as each reader reads it, by reader label.
    pub fn with_deadlines(
        mut self,
        deadlines: std::collections::BTreeMap<String, Vec<String>>,
    ) -> StepReading<'a> {
        self.deadlines = deadlines;
        self
    }

    /// The keys on record ([`keys_on_record`]) that every report shows.
    pub fn with_keys(mut self, keys: Vec<String>) -> StepReading<'a> {
        self.keys = keys;
        self
    }

    pub fn events(&self) -> &[Event] {
        &self.events
    }

    pub fn dice(&self) -> &[DieRecord] {
        &self.dice
    }

    /// A side's orders page for the step it owes next, with `template`
    /// (its report's) to fall back on; none for another reader, or a side
    /// with no key on record.
    pub fn orders_page(&self, viewer: &Viewer, template: &str) -> anyhow::Result<Option<String>> {
        let (Some((n, due, state, notice)), Viewer::Side(me)) = (&self.next, viewer) else {
            return Ok(None);
        };
        let Some(fingerprint) = super::orders_page::fingerprint_in(&self.keys, me) else {
            return Ok(None);
        };
        let state = state.as_deref().unwrap_or(&*self.after);
        let page = super::orders_page::page(
            state,
            &super::orders_page::PageFor {
                game: self.game,
                ruleset: self.rules.name(),
                step: *n,
                notice,
                revision: 1,
                side: me,
                fingerprint,
                due,
                own_edge: self.own_edge,
                template,
            },
        )?;
        Ok(Some(page))
    }

    /// One reader's report.
    pub fn report(&self, viewer: &Viewer) -> anyhow::Result<ReportView> {
        let mut sight = self.after.view(viewer);
        if let (true, Viewer::Side(me)) = (self.own_edge, viewer) {
            crate::view::enemy::turn_to_own_edge(&mut sight.map, me);
        }
        let mut next_lines = Vec::new();
        let mut template = None;
        match &self.next {
            Some((n, due, state, notice)) => {
                next_lines.push(format!("Next: step {n} ({})", due.heading));
                for o in &due.owed {
                    next_lines.push(format!("{} owes orders: {}", o.side, o.note));
                }
                let separate = state.as_deref();
                let state = separate.unwrap_or(&*self.after);
                if let Viewer::Side(me) = viewer
                    && let Some(body) = state.orders_template(me)
                {
                    // The enemy as comments, from the state the orders are for.
                    let body = match separate {
                        Some(s) => crate::view::enemy::with_enemy(&body, &s.map_view(viewer), me),
                        None => crate::view::enemy::with_enemy(&body, &sight.map, me),
                    };
                    let head = envelope::Head {
                        game: self.game,
                        step: *n,
                        side: me,
                        notice,
                        revision: 1,
                    };
                    template = Some(envelope::template(&head, self.rules.name(), &body));
                }
            }
            None => {
                if let Some(o) = self.after.outcome() {
                    next_lines.push(match &o.winner {
                        Some(w) => format!("The game is over: {w} wins ({})", o.reason),
                        None => format!("The game is over: a draw ({})", o.reason),
                    });
                }
            }
        }
        let enemy = match viewer {
            Viewer::Side(me) => crate::view::enemy::seen_by(&sight.map, me),
            _ => Vec::new(),
        };
        let enemy_note = match viewer {
            Viewer::Side(_) if enemy.is_empty() => Some(NO_ENEMY_IN_SIGHT.to_string()),
            _ => None,
        };
        let told = self.rules.tell(&self.events, &self.dice, viewer);
        Ok(ReportView {
            game: self.game.into(),
            ruleset: self.rules.name().into(),
            step: self.step.step,
            heading: self.heading.clone(),
            viewer: viewer.label(),
            map: sight.map,
            panels: sight.panels,
            changed: told.changed,
            events: applied_lines(self.inputs)
                .into_iter()
                .chain(told.lines)
                .collect(),
            next: next_lines,
            audit: self.audit_lines(viewer),
            keys: self.keys.clone(),
            orders_template: template,
            enemy,
            enemy_note,
            deadline: self
                .deadlines
                .get(&viewer.label())
                .cloned()
                .unwrap_or_default(),
            notices: self.notices.clone(),
            // Only a side's report is mailed.
            archive: match viewer {
                Viewer::Side(_) => self.archive.clone(),
                _ => Vec::new(),
            },
        })
    }

    /// The dice audit lines a reader may see.
    fn audit_lines(&self, viewer: &Viewer) -> Vec<String> {
        let step = self.step;
        let inputs = self.inputs;
        let mut audit = vec![
            format!(
                "public secret P_{}: {}",
                step.step,
                hex::encode(step.public_secret)
            ),
            format!("orders mix: {}", hex::encode(&inputs.mix)),
            format!("public seed: {}", hex::encode(inputs.public_seed)),
            // Salted: a plain hash of the state let hands be guessed.
            format!(
                "state after: commitment {} (salted; opened when the game ends)",
                super::state_after_commitment(step, &self.res.state_after)
            ),
        ];
        for o in &inputs.index {
            audit.push(format!("orders of {}: sha256 {}", o.side, o.sha256));
        }
        audit.extend(super::beacon::report_line(step));
        if *viewer == Viewer::Umpire {
            // The umpire may see what stays sealed from the players until the end.
            audit.push(format!(
                "hidden secret H_{}: {}",
                step.step,
                hex::encode(step.hidden_secret)
            ));
            audit.push(format!("hidden seed: {}", hex::encode(inputs.hidden_seed)));
        }
        if let Some((n, _, _, _)) = &self.next {
            audit.push(format!(
                "step {n} is committed: see its notice.yaml in the archive"
            ));
        }
        audit
    }
}

/// A reader's report, rendered once for the reports folder and the mail.
/// What a report says for the next step's notice hash while that notice is
/// not yet written: it names this step's manifest, which holds the map, so
/// the reports are made first and [`fill_next_notice`] puts the hash in.
pub const NEXT_NOTICE_PENDING: &str = "next-notice-sha256-not-yet-written";

/// The hash an orders template for the next step names.
fn next_notice_hash(next: &StepRow) -> String {
    if next.notice.is_empty() {
        NEXT_NOTICE_PENDING.to_string()
    } else {
        envelope::notice_sha256(&next.notice)
    }
}

/// Put the next step's notice hash, now written, in every report's orders
/// template (as a file, in the HTML and in the text).
pub fn fill_next_notice(rendered: &mut ByReader, hash: &str) {
    for r in rendered.values_mut() {
        if let Some(t) = &mut r.view.orders_template {
            *t = t.replace(NEXT_NOTICE_PENDING, hash);
        }
        r.html = r.html.replace(NEXT_NOTICE_PENDING, hash);
        r.text = r.text.replace(NEXT_NOTICE_PENDING, hash);
    }
}

pub struct Rendered {
    pub view: ReportView,
    pub html: String,
    pub text: String,
    pub png: Vec<u8>,
    /// The reader's orders page for the step he owes, if he owes one.
    pub orders_page: Option<String>,
}

impl Rendered {
    pub fn new(view: ReportView) -> anyhow::Result<Rendered> {
        Ok(Rendered {
            html: render::report_html(&view)?,
            text: render::report_text(&view)?,
            png: render::report_png(&view)?,
            view,
            orders_page: None,
        })
    }
}

/// Every reader's report, rendered, by reader label; and every map of
/// `easel` (the archive's among them, started before the reading was made),
/// by key; and what `meanwhile` gave. Each report's map joins the easel as
/// soon as its SVG exists, and the reports' views, HTML and text are made
/// meanwhile, then `meanwhile` runs: rasterising is the longest part of a
/// step.
pub fn render_all<T>(
    reading: &StepReading,
    readers: Vec<Viewer>,
    mut easel: Easel,
    meanwhile: impl FnOnce() -> anyhow::Result<T>,
) -> anyhow::Result<(ByReader, Maps, T)> {
    let mut views = Vec::new();
    for viewer in readers {
        let view = reading.report(&viewer)?;
        let page = match &view.orders_template {
            Some(t) => reading.orders_page(&viewer, t)?,
            None => None,
        };
        let (key, svg) = easel.draw_map(&render::report_map(&view))?;
        let html = render::report_html_with_map(&view, &svg)?;
        let text = render::report_text(&view)?;
        views.push((viewer.label(), view, key, html, text, page));
    }
    let other = meanwhile()?;
    let pngs = easel.finish()?;
    let mut out = std::collections::BTreeMap::new();
    for (label, view, key, html, text, orders_page) in views {
        let png = pngs
            .get(&key)
            .cloned()
            .ok_or_else(|| anyhow::anyhow!("the map of {label} was not rasterised"))?;
        out.insert(
            label,
            Rendered {
                html,
                text,
                png,
                view,
                orders_page,
            },
        );
    }
    Ok((out, pngs, other))
}

/// Rendered reports by reader label.
pub type ByReader = std::collections::BTreeMap<String, Rendered>;
/// PNG maps by the SHA-256 of their SVG (an [`Easel`]'s keys).
pub type Maps = std::collections::BTreeMap<String, Vec<u8>>;

/// Maps being rasterised, each distinct SVG (by SHA-256) once and on its
/// own thread: readers who see the same table share one PNG, and each map
/// is independent and pure. A thread owns its SVG, so a map can start
/// before the rest of its step is made.
#[derive(Default)]
pub struct Easel {
    jobs: std::collections::BTreeMap<String, std::thread::JoinHandle<PngResult>>,
    /// Each map given to [`Easel::draw_map`] (as its `Debug` text, which
    /// tells `-0.0` from `0.0` where `==` does not) with its key and SVG.
    maps: Vec<(String, String, String)>,
}

type PngResult = Result<Vec<u8>, render::RenderError>;

impl Easel {
    /// Start drawing `svg` unless the same map is being drawn; its key.
    pub fn draw(&mut self, svg: String) -> String {
        let key = sha256_hex(svg.as_bytes());
        if !self.jobs.contains_key(&key) {
            let job = std::thread::spawn(move || render::svg_png(&svg));
            self.jobs.insert(key.clone(), job);
        }
        key
    }

    /// Start drawing `map` unless the same map was given before; its key
    /// and its SVG. The SVG of a map seen by several readers (every
    /// reader's and the archive's, in most steps) is built once: its label
    /// placement was a few milliseconds a reader.
    pub fn draw_map(&mut self, map: &crate::view::MapView) -> anyhow::Result<(String, String)> {
        let seen = format!("{map:?}");
        if let Some((_, key, svg)) = self.maps.iter().find(|(m, _, _)| *m == seen) {
            return Ok((key.clone(), svg.clone()));
        }
        let svg = render::map_svg(map)?;
        let key = self.draw(svg.clone());
        self.maps.push((seen, key.clone(), svg.clone()));
        Ok((key, svg))
    }

    /// Every map drawn, by key.
    fn finish(self) -> anyhow::Result<Maps> {
        let mut out = std::collections::BTreeMap::new();
        for (key, job) in self.jobs {
            let png = job.join().unwrap_or_else(|_| {
                Err(render::RenderError::Png(
                    "the rasterising thread panicked".into(),
                ))
            })?;
            out.insert(key, png);
        }
        Ok(out)
    }
}

/// Write each reader's report folder of a step, with its signed manifest,
/// on a thread of their own. They are
/// [`archive::Durability::Rebuildable`]: `galloper render` makes them
/// again from the store.
pub fn write_reports_aside(
    server_private: &str,
    g: &GameRow,
    step: &StepRow,
    rendered: &ByReader,
    outbox: &Path,
) -> std::thread::JoinHandle<anyhow::Result<()>> {
    let folders: Vec<(PathBuf, std::collections::BTreeMap<String, Vec<u8>>)> = rendered
        .iter()
        .map(|(reader, r)| {
            (
                report_dir(outbox, &g.id, step.step, reader),
                rendered_files(r),
            )
        })
        .collect();
    let key = server_private.to_string();
    std::thread::spawn(move || {
        for (dir, files) in &folders {
            archive::write_folder(dir, files, &key, archive::Durability::Rebuildable)?;
        }
        Ok(())
    })
}

/// The public view of the state after a step, titled as the step's reports
/// are: the archive's `view.yaml` and map.
pub fn archive_sight(
    after: &dyn LoadedState,
    game: &str,
    step: u32,
    heading: &str,
) -> crate::ruleset::Sight {
    let mut sight = after.view(&Viewer::Public);
    sight.map.title = render::step_title(game, step, heading);
    sight
}

/// Render a report into a folder.
pub fn write_view(dir: &Path, view: &ReportView) -> anyhow::Result<()> {
    archive::write_files(dir, &rendered_files(&Rendered::new(view.clone())?))?;
    Ok(())
}

/// The files of a report folder.
fn rendered_files(r: &Rendered) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut files = std::collections::BTreeMap::new();
    files.insert("report.html".to_string(), r.html.as_bytes().to_vec());
    files.insert("report.txt".to_string(), r.text.as_bytes().to_vec());
    files.insert("map.png".to_string(), r.png.clone());
    if let Some(t) = &r.view.orders_template {
        files.insert("orders-template.yaml".to_string(), t.as_bytes().to_vec());
    }
    if let Some(page) = &r.orders_page {
        files.insert("orders.html".to_string(), page.as_bytes().to_vec());
    }
    files
}

/// Where a report's reader finds the step's archive files, which the report
/// mail does not carry: the game's page on the club site (`site_url`),
/// when the club has one, and the `archive` request by mail.
pub fn archive_lines(
    mail: &super::MailSettings,
    site_url: Option<&str>,
    game: &str,
    step: u32,
) -> Vec<String> {
    let mut lines = vec![format!(
        "The archive files of step {step} (its notice, orders index, revealed secret, dice, events, public view, map and signed manifest, which galloper audit checks) are not attached to this mail."
    )];
    if let Some(site) = site_url {
        lines.push(format!(
            "They are on the club site, on the game's page: {}",
            site_page(site, game)
        ));
    }
    let local = mail
        .from
        .email
        .rsplit_once('@')
        .map_or(mail.from.email.as_str(), |(l, _)| l);
    lines.push(format!(
        "Send a mail with the subject \"archive\" to {local}+{game}@{} (or with [{game}] in the subject) and the archive files of the game's latest resolved step come back to you, once an hour at most.",
        mail.domain
    ));
    lines
}

/// A game's page on the club site at `site` (`galloper site` names each
/// game's page `GAME.html`).
pub fn site_page(site: &str, game: &str) -> String {
    format!("{}/{game}.html", site.trim_end_matches('/'))
}

/// Every player's report mail for a resolved step, ready for the outbox:
/// the report (text and HTML), its map and the orders template, nothing
/// more. The step's archive files stay on the club site or come by the
/// `archive` request ([`archive_lines`]), so that a report mail stays small.
pub fn mails(
    server: &Server,
    mail: &super::MailSettings,
    g: &GameRow,
    step: &StepRow,
    next: Option<&StepRow>,
    rendered: &std::collections::BTreeMap<String, Rendered>,
) -> anyhow::Result<Vec<super::store::OutboxRow>> {
    use crate::mail::compose::{self, Party, ReportMail, Thread};
    let now = server.mail_time();
    let date = crate::mail::date::rfc2822(now);
    let mut out = Vec::new();
    for player in server.store().players(&g.id)? {
        let Some(Rendered {
            view,
            html,
            text,
            png,
            orders_page,
        }) = rendered.get(player.side.as_str())
        else {
            continue;
        };
        let mut attachments: Vec<(String, Vec<u8>)> = Vec::new();
        if let Some(t) = &view.orders_template {
            let n = next.map(|n| n.step).unwrap_or(step.step + 1);
            attachments.push((
                format!("{}-step-{n}-{}.yaml", g.id, player.side),
                t.clone().into_bytes(),
            ));
            if let (true, Some(page)) = (server.orders_page_in_mail(), orders_page) {
                attachments.push((
                    format!("{}-step-{n}-{}-orders.html", g.id, player.side),
                    page.clone().into_bytes(),
                ));
            }
        }
        let reader = player.side.to_string();
        let message_id = compose::message_id(&mail.domain, &g.id, step.step, &reader, "report");
        let parent = (step.step > 1)
            .then(|| compose::message_id(&mail.domain, &g.id, step.step - 1, &reader, "report"));
        let to = Party {
            name: None,
            email: player.email.clone(),
        };
        let bytes = compose::report(&ReportMail {
            from: &mail.from,
            to: &to,
            subject: format!(
                "[{}] Step {}: {} - report for {}",
                g.id, step.step, view.heading, reader
            ),
            message_id: message_id.clone(),
            thread: Thread {
                root: compose::thread_root(&mail.domain, &g.id),
                parent,
            },
            text,
            html,
            png,
            attachments,
            date: Some(date.clone()),
        })
        .map_err(|e| {
            anyhow::Error::new(e).context(format!(
                "the report mail of step {} for {} at {:?}",
                step.step, player.side, player.email
            ))
        })?;
        out.push(super::store::OutboxRow {
            id: 0,
            message_id,
            game: Some(g.id.clone()),
            step: Some(step.step),
            reader: Some(reader),
            kind: "report".into(),
            sender: mail.from.email.clone(),
            recipients: vec![player.email.clone()],
            bytes,
            status: "queued".into(),
            attempts: 0,
            next_attempt: now,
            queued_at: now,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn svg(fill: &str) -> String {
        format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10"><rect width="20" height="10" fill="{fill}"/></svg>"#
        )
    }

    #[test]
    fn identical_maps_are_rasterised_once_and_match_a_lone_render() {
        let (red, blue) = (svg("#c00"), svg("#00c"));
        let mut easel = Easel::default();
        let keys: Vec<String> = [&red, &blue, &red]
            .into_iter()
            .map(|s| easel.draw(s.clone()))
            .collect();
        assert_eq!(easel.jobs.len(), 2, "one drawing per distinct SVG");
        let pngs = easel.finish().unwrap();
        assert_eq!(pngs.len(), 2, "one PNG per distinct SVG");
        assert_eq!(keys[0], keys[2], "the same map, the same key");
        assert_eq!(pngs[&keys[0]], render::svg_png(&red).unwrap());
        assert_eq!(pngs[&keys[1]], render::svg_png(&blue).unwrap());
        assert_ne!(pngs[&keys[0]], pngs[&keys[1]]);
    }

    #[test]
    fn a_map_given_again_is_built_once_and_reads_as_built_alone() {
        let view: crate::view::MapView = crate::rulesets::by_name("maurice-lite")
            .unwrap()
            .view(
                &crate::rulesets::by_name("maurice-lite")
                    .unwrap()
                    .start(crate::demo::maurice::SCENARIO)
                    .unwrap(),
                &Viewer::Public,
            )
            .unwrap()
            .map;
        let mut turned = view.clone();
        turned.turned = !turned.turned;
        let mut easel = Easel::default();
        let (a, svg) = easel.draw_map(&view).unwrap();
        let (b, again) = easel.draw_map(&view).unwrap();
        let (c, other) = easel.draw_map(&turned).unwrap();
        assert_eq!((a.clone(), &svg), (b, &again));
        assert_eq!(svg, render::map_svg(&view).unwrap());
        assert_eq!(other, render::map_svg(&turned).unwrap());
        assert_ne!(a, c);
        assert_eq!(easel.maps.len(), 2, "one entry per distinct map");
        let pngs = easel.finish().unwrap();
        assert_eq!(pngs[&a], render::svg_png(&svg).unwrap());
    }
}
