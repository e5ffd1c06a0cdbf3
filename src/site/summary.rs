//! What the index says of a game: title, ruleset, sides, result, dates,
//! steps, and the verdict of `galloper audit` when the site was made.

use super::bundle::{Bundle, Listing};
use crate::archive::{EndFile, GameFile, PublicView};
use crate::audit;
use anyhow::{Context, bail};
use std::path::Path;

#[derive(Clone, Debug)]
pub struct Summary {
    pub game: String,
    /// The page's file name in the site.
    pub file: String,
    /// The folder of its steps' scripts in the site (`games/GAME`: under
    /// `games/`, no game's name can clash with `assets/`).
    pub dir: String,
    pub title: String,
    pub ruleset: String,
    /// The sides' names, in scenario order.
    pub sides: Vec<String>,
    /// How it ended, or that it goes on.
    pub result: String,
    pub over: bool,
    /// Resolved steps (the runs in force).
    pub steps: u32,
    /// The first and last day the archive's step files were written (UTC),
    /// as the files' times say: the archive holds no calendar of its own.
    pub dates: String,
    /// `galloper audit`'s last line on this archive when the site was made
    /// (with the site's pinned server key, if any).
    pub audit: String,
    pub audit_passed: bool,
    /// Where that audit failed (its first failure's place), or empty.
    pub audit_place: String,
    /// The fingerprint of the key `game.yaml` names as the server's (empty
    /// if it names no readable key).
    pub server_key: String,
    /// The fingerprint the site's maker pinned (`galloper site
    /// --server-key`), if any.
    pub pinned: Option<String>,
}

impl Summary {
    /// The page's headline when `galloper audit` failed the archive as
    /// the site was made: a failure the page's own audit may not be able
    /// to see (the replay through the rules), said as loud as its own.
    pub fn cli_headline(&self) -> String {
        cli_headline(&self.audit, self.over)
    }

    /// Whether the key that signed is the pinned one: `yes`, `no` (no
    /// pin) or `other` (another key than the pinned one).
    pub fn pin_state(&self) -> &'static str {
        match &self.pinned {
            Some(p) if *p == self.server_key => "yes",
            Some(_) => "other",
            None => "no",
        }
    }

    /// What the page says beside its verdict of the key that signed.
    pub fn key_note(&self) -> String {
        match &self.pinned {
            Some(p) if *p == self.server_key => {
                format!("server key {p} (pinned by the site's maker)")
            }
            Some(p) => format!(
                "server key {} (not the key the site's maker pinned, {p})",
                self.server_key
            ),
            None => format!(
                "server key {} (not pinned: compare it with the one your club publishes)",
                self.server_key
            ),
        }
    }
}

/// The summary of the archive in `dir`, audited by `galloper audit` with
/// the site's pin (`pinned`: the fingerprint `opts.server_key` names).
pub fn of(
    listing: &Listing,
    bundle: &Bundle,
    opts: &super::Options,
    pinned: Option<&str>,
) -> anyhow::Result<Summary> {
    let dir = listing.root.as_path();
    let game: GameFile = crate::yaml::from_str(bundle.get("game.yaml").unwrap_or_default())
        .with_context(|| format!("{}: game.yaml does not parse", dir.display()))?;
    if game.game.is_empty()
        || !game
            .game
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        bail!(
            "{}: game id {:?} is not lowercase letters, digits and dashes, so it cannot name a page",
            dir.display(),
            game.game
        );
    }
    if game.game == "index" {
        bail!(
            "{}: game id \"index\" would name its page index.html, the site's index: rename the game to put it in a site",
            dir.display()
        );
    }
    let title = bundle
        .get("scenario.yaml")
        .and_then(|t| crate::yaml::from_str::<serde_yaml::Value>(t).ok())
        .and_then(|v| v.get("title").and_then(|t| t.as_str()).map(str::to_string))
        .unwrap_or_else(|| game.game.clone());
    let steps = listing.resolved();
    let sides = listing
        .text("step-0001/view.yaml")?
        .and_then(|t| crate::yaml::from_str::<PublicView>(&t).ok())
        .map(|v| v.map.sides.into_iter().map(|s| s.name).collect())
        .unwrap_or_else(|| game.sides.clone());
    let end = bundle
        .get("end.yaml")
        .and_then(|t| crate::yaml::from_str::<EndFile>(t).ok());
    let result = match &end {
        Some(e) => e.outcome.clone(),
        None => "in progress".to_string(),
    };
    let (audit, audit_passed, audit_place) = match audit::audit_with(
        dir,
        &audit::Options {
            server_key: opts.server_key.clone(),
        },
    ) {
        Ok(v) => (v.summary(), true, String::new()),
        Err(f) => (f.to_string(), false, f.place),
    };
    Ok(Summary {
        file: format!("{}.html", game.game),
        dir: format!("games/{}", game.game),
        game: game.game,
        title,
        ruleset: game.ruleset,
        sides,
        result,
        over: end.is_some(),
        steps: steps.iter().copied().max().unwrap_or(0),
        dates: dates(
            dir,
            steps.iter().copied().min(),
            steps.iter().copied().max(),
        ),
        audit,
        audit_passed,
        audit_place,
        server_key: crate::sig::fingerprint(&game.server_key).unwrap_or_default(),
        pinned: pinned.map(str::to_string),
    })
}

/// `AUDIT FAILED (the command line's audit, which replays the rules) at
/// PLACE: WHAT`, from `galloper audit`'s `AUDIT FAILED at PLACE: WHAT`
/// (a game in progress is not replayed, but its start is the rules').
pub fn cli_headline(failure: &str, over: bool) -> String {
    let rest = failure.strip_prefix("AUDIT FAILED").unwrap_or(failure);
    let rest = rest.trim_start_matches(':').trim_start();
    let which = if over {
        "which replays the rules"
    } else {
        "which runs the rules engine"
    };
    format!("AUDIT FAILED (the command line's audit, {which}) {rest}")
}

/// The days the first and the last step were written.
fn dates(dir: &Path, first: Option<u32>, last: Option<u32>) -> String {
    let day = |step: Option<u32>| {
        let path = crate::archive::step_dir(dir, step?).join("manifest.yaml");
        let t = std::fs::metadata(path).ok()?.modified().ok()?;
        let t = jiff::Timestamp::try_from(t).ok()?;
        Some(t.strftime("%Y-%m-%d").to_string())
    };
    match (day(first), day(last)) {
        (Some(a), Some(b)) if a == b => a,
        (Some(a), Some(b)) => format!("{a} to {b}"),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_lines_failure_is_a_headline_that_says_whose_it_is() {
        assert_eq!(
            cli_headline(
                "AUDIT FAILED at step 3: public events: not the replay's",
                true
            ),
            "AUDIT FAILED (the command line's audit, which replays the rules) at step 3: public events: not the replay's"
        );
    }
}
