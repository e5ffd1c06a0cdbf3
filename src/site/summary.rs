//! What the index says of a game: title, ruleset, sides, result, dates,
//! steps, and the verdict of `galloper audit` when the site was made.

use super::bundle::Bundle;
use crate::game::archive::{EndFile, GameFile, PublicView};
use crate::game::audit;
use anyhow::{Context, bail};
use std::path::Path;

#[derive(Clone, Debug)]
pub struct Summary {
    pub game: String,
    /// The page's file name in the site.
    pub file: String,
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
    /// `galloper audit`'s last line on this archive when the site was made.
    pub audit: String,
    pub audit_passed: bool,
}

pub fn of(dir: &Path, bundle: &Bundle) -> anyhow::Result<Summary> {
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
    let title = bundle
        .get("scenario.yaml")
        .and_then(|t| crate::yaml::from_str::<serde_yaml::Value>(t).ok())
        .and_then(|v| v.get("title").and_then(|t| t.as_str()).map(str::to_string))
        .unwrap_or_else(|| game.game.clone());
    let steps: Vec<u32> = bundle
        .text
        .keys()
        .filter_map(|p| {
            let n = p.strip_prefix("step-")?.strip_suffix("/manifest.yaml")?;
            (n.len() == 4).then(|| n.parse().ok()).flatten()
        })
        .collect();
    let sides = bundle
        .get("step-0001/view.yaml")
        .and_then(|t| crate::yaml::from_str::<PublicView>(t).ok())
        .map(|v| v.map.sides.into_iter().map(|s| s.name).collect())
        .unwrap_or_else(|| game.sides.clone());
    let end = bundle
        .get("end.yaml")
        .and_then(|t| crate::yaml::from_str::<EndFile>(t).ok());
    let result = match &end {
        Some(e) => e.outcome.clone(),
        None => "in progress".to_string(),
    };
    let (audit, audit_passed) = match audit::audit(dir) {
        Ok(v) => (v.summary(), true),
        Err(f) => (f.to_string(), false),
    };
    Ok(Summary {
        file: format!("{}.html", game.game),
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
    })
}

/// The days the first and the last step were written.
fn dates(dir: &Path, first: Option<u32>, last: Option<u32>) -> String {
    let day = |step: Option<u32>| {
        let path = crate::game::archive::step_dir(dir, step?).join("manifest.yaml");
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
