//! What each sealed orders file must say, beyond its hash and signature:
//! that it answers the notice of the run it was mixed into (so it was
//! written after that run's commitments, and a run's secrets replaced
//! after the orders show), a revision as the rules for revisions allow,
//! and, for orders the server applied, every byte as docs/DICE.md
//! ("Applied orders") builds them from public values.

use super::{Failure, GameFile, Run, fail};
use crate::archive::MissedPolicy;
use crate::archive::{self, OrdersEntry};
use crate::envelope;
use crate::ruleset::AnyRuleset;
use crate::side::SideId;
use std::collections::BTreeMap;

/// The first line of an applied file, before its policy.
const APPLIED_HEAD: &str = "# galloper applied orders: ";

/// What the files of earlier steps leave for later ones: each side's own
/// latest orders, its standing orders should it miss a deadline.
#[derive(Default)]
pub(super) struct Standing(BTreeMap<String, serde_yaml::Value>);

/// One sealed file of `run`, whose step starts from `before`.
pub(super) struct File<'a> {
    pub place: String,
    pub name: &'a str,
    pub text: &'a [u8],
    pub entry: &'a OrdersEntry,
}

/// Check one sealed orders file, then remember a player's own orders as
/// his standing orders for the steps after. Gives the file's `orders:`
/// block, which the replay resolves without parsing the file again.
pub(super) fn check(
    f: &File,
    game: &GameFile,
    run: &Run,
    rules: &dyn AnyRuleset,
    before: &str,
    standing: &mut Standing,
) -> Result<serde_yaml::Value, Failure> {
    let env = envelope::parse_stored(f.name, f.text)
        .map_err(|p| fail(&f.place, format!("does not parse: {p}")))?;
    if env.game != game.game || env.step != run.step || env.side.as_str() != f.entry.side {
        return Err(fail(
            &f.place,
            format!(
                "names game {} step {} side {}, where it was mixed into game {} step {} for {}",
                env.game, env.step, env.side, game.game, run.step, f.entry.side
            ),
        ));
    }
    match env.notice.as_deref().map(str::trim) {
        Some(n) if n.eq_ignore_ascii_case(&run.notice_sha256) => {}
        named => {
            return Err(fail(
                &f.place,
                format!(
                    "answers notice {}, but it was mixed into run {} of step {}, whose notice is {}: orders must be written after the commitments they meet",
                    named.unwrap_or("(none)"),
                    run.run,
                    run.step,
                    run.notice_sha256
                ),
            ));
        }
    }
    match (&f.entry.applied, env.revision) {
        (Some(_), Some(0)) => {
            applied(f, game, run, rules, before, &env.orders, standing)?;
            Ok(env.orders)
        }
        (Some(_), r) => Err(fail(
            &f.place,
            format!(
                "orders the server applied carry revision 0, not {}",
                r.map_or("none".into(), |r| r.to_string())
            ),
        )),
        (None, Some(r)) if r >= 1 => {
            standing.0.insert(f.entry.side.clone(), env.orders.clone());
            Ok(env.orders)
        }
        (None, r) => Err(fail(
            &f.place,
            format!(
                "a player's orders carry a revision of 1 or more, not {}: revision 0 is the server's",
                r.map_or("none".into(), |r| r.to_string())
            ),
        )),
    }
}

/// An applied file: its bytes rebuilt from the policy the notice named,
/// the notice and its orders; its orders the side's standing orders or the
/// rules' default, as the policy gives them.
fn applied(
    f: &File,
    game: &GameFile,
    run: &Run,
    rules: &dyn AnyRuleset,
    before: &str,
    body: &serde_yaml::Value,
    standing: &Standing,
) -> Result<(), Failure> {
    let text = String::from_utf8_lossy(f.text);
    let policy = match text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix(APPLIED_HEAD))
    {
        Some("default") => MissedPolicy::Default,
        Some("standing") => MissedPolicy::Standing,
        _ => {
            return Err(fail(
                &f.place,
                format!(
                    "an applied file starts `{APPLIED_HEAD}default` or `{APPLIED_HEAD}standing`"
                ),
            ));
        }
    };
    let named = run.notice.missed;
    match (named, policy) {
        (None | Some(MissedPolicy::Wait), _) => {
            return Err(fail(
                &f.place,
                format!(
                    "the server applied orders in a step whose notice names {}: it may apply none",
                    named.map_or("no rule for missed orders".into(), |p| format!(
                        "the rule `{}`",
                        p.as_str()
                    ))
                ),
            ));
        }
        (Some(MissedPolicy::Default), MissedPolicy::Standing) => {
            return Err(fail(
                &f.place,
                "standing orders applied in a step whose notice names the rule `default`",
            ));
        }
        _ => {}
    }
    let rebuilt = archive::applied_orders_text(
        &game.game,
        run.step,
        &f.entry.side,
        &run.notice_sha256,
        policy,
        body,
    )
    .map_err(|e| {
        fail(
            &f.place,
            format!("its orders cannot be written as JSON: {e}"),
        )
    })?;
    if rebuilt.as_bytes() != f.text {
        return Err(fail(
            &f.place,
            "is not the applied file docs/DICE.md builds from its policy, notice and orders: the server wrote bytes of its own choosing",
        ));
    }
    let side = SideId::new(f.entry.side.as_str());
    let fits = |orders: &serde_yaml::Value| matches!(rules.check(before, &side, orders), Ok(v) if v.is_empty());
    let own = standing.0.get(&f.entry.side).filter(|o| fits(o));
    let expected = match (policy, own) {
        (MissedPolicy::Standing, Some(o)) => o.clone(),
        (MissedPolicy::Standing, None) => {
            return Err(fail(
                &f.place,
                "standing orders applied, but the side has no earlier orders of its own that the rules still take",
            ));
        }
        (_, Some(_)) if named == Some(MissedPolicy::Standing) => {
            return Err(fail(
                &f.place,
                "default orders applied where the notice's rule `standing` gives the side's own earlier orders, which the rules still take",
            ));
        }
        _ => match rules.default_orders(before, &side) {
            Ok(Some(d)) if fits(&d) => d,
            _ => {
                return Err(fail(
                    &f.place,
                    "default orders applied, but the rules give the side no default orders at this step",
                ));
            }
        },
    };
    if same(&expected, body) {
        Ok(())
    } else {
        Err(fail(
            &f.place,
            format!(
                "the applied orders are not the {} orders the rules give: {}",
                policy.as_str(),
                archive::applied_orders_text("", 0, "", "", policy, &expected)
                    .ok()
                    .and_then(|t| t.lines().last().map(str::to_string))
                    .unwrap_or_default()
            ),
        ))
    }
}

/// Two orders values alike as JSON (the applied file's orders went through
/// JSON, whose numbers and strings YAML reads back as the same values).
fn same(a: &serde_yaml::Value, b: &serde_yaml::Value) -> bool {
    match (serde_json::to_value(a), serde_json::to_value(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}
