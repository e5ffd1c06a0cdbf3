//! Orders templates a player cannot break by uncommenting (issue 27, item 6),
//! for every ruleset, at every step of its demo game played in memory:
//!
//! - no live key is left at `[]` or `{}` (a player who uncomments an entry
//!   under it would get a YAML error, or two values for one key);
//! - the template as sent is taken by the rules;
//! - every commented example entry (a `# - ...` line, with the commented
//!   key right above it if there is one, and the lines that continue it)
//!   uncommented alone is taken by the rules too: an example suggests only
//!   an order that would be accepted now.

use galloper::dice::Dice;
use galloper::ruleset::{AnyRuleset, DemoPlayer};
use galloper::side::{BySide, SideId};

/// The `orders:` block of a whole orders file.
fn orders_block(text: &str) -> Result<serde_yaml::Value, String> {
    let file: serde_yaml::Value = galloper::yaml::from_str(text).map_err(|e| e.to_string())?;
    file.get("orders")
        .cloned()
        .ok_or_else(|| "no orders: block".to_string())
}

/// A commented line's text uncommented in place: `  # - x` -> `  - x`.
fn uncomment(line: &str) -> Option<String> {
    let indent = line.len() - line.trim_start().len();
    let rest = line.trim_start().strip_prefix('#')?;
    let rest = rest.strip_prefix(' ').unwrap_or(rest);
    Some(format!("{}{}", &line[..indent], rest))
}

/// The lines of each commented example: an entry `# - ...` (with the
/// commented `# key:` right above it, when the key is commented too) and
/// the commented lines under it indented deeper than its dash.
fn examples(lines: &[&str]) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let Some(u) = uncomment(l) else { continue };
        if !u.trim_start().starts_with("- ") {
            continue;
        }
        let dash = u.len() - u.trim_start().len();
        let mut group = Vec::new();
        // The key it belongs to, when that is commented as well.
        let mut k = i;
        while k > 0 {
            k -= 1;
            let above = lines[k];
            let Some(ua) = uncomment(above) else { break };
            if ua.trim_start().starts_with("- ") || !above.trim_start().starts_with("# ") {
                continue;
            }
            if ua.trim_end().ends_with(':') && ua.len() - ua.trim_start().len() < dash {
                group.push(k);
            }
            break;
        }
        group.push(i);
        for (j, below) in lines.iter().enumerate().skip(i + 1) {
            match uncomment(below) {
                Some(ub)
                    if below.trim_start().starts_with("# ")
                        && ub.len() - ub.trim_start().len() > dash
                        && !ub.trim().is_empty() =>
                {
                    group.push(j)
                }
                _ => break,
            }
        }
        out.push(group);
    }
    out
}

fn check_template(
    rules: &dyn AnyRuleset,
    schema: &jsonschema::Validator,
    state: &str,
    side: &SideId,
    t: &str,
    at: &str,
) -> usize {
    for (n, l) in t.lines().enumerate() {
        let live = l.split(" #").next().unwrap_or(l).trim_end();
        if l.trim_start().starts_with('#') {
            continue;
        }
        assert!(
            !live.ends_with(": []") && !live.ends_with(": {}") && live.trim() != "[]",
            "{at}, line {}: a live key left empty: {l}\n{t}",
            n + 1
        );
    }
    let block = orders_block(t).unwrap_or_else(|e| panic!("{at}: {e}\n{t}"));
    let v = rules.check(state, side, &block).expect("the state parses");
    assert!(v.is_empty(), "{at}: the template as sent: {v:?}\n{t}");
    let lines: Vec<&str> = t.lines().collect();
    let groups = examples(&lines);
    for group in &groups {
        let edited: Vec<String> = lines
            .iter()
            .enumerate()
            .map(|(i, l)| {
                if group.contains(&i) {
                    uncomment(l).unwrap_or_default()
                } else {
                    l.to_string()
                }
            })
            .collect();
        let edited = edited.join("\n");
        let shown: Vec<&str> = group.iter().map(|&i| lines[i]).collect();
        let block = orders_block(&edited)
            .unwrap_or_else(|e| panic!("{at}: uncommenting {shown:?}: {e}\n{edited}"));
        let file: serde_json::Value = galloper::yaml::from_str(&edited).expect("parsed above");
        let errors: Vec<String> = schema.iter_errors(&file).map(|e| e.to_string()).collect();
        assert!(
            errors.is_empty(),
            "{at}: uncommenting {shown:?}: the schema says {errors:?}"
        );
        let v = rules.check(state, side, &block).expect("the state parses");
        assert!(
            v.is_empty(),
            "{at}: uncommenting {shown:?} gives orders the rules refuse: {v:?}\n{edited}"
        );
    }
    groups.len()
}

/// Plays `ruleset`'s demo in memory, checking every template on the way.
fn play(ruleset: &str, steps: usize) {
    let rules = galloper::rulesets::by_name(ruleset).expect("a ruleset");
    let mut player: Box<dyn DemoPlayer> = galloper::demo::players::player(ruleset, false)
        .expect("a demo player")
        .expect("a demo player");
    let mut state = rules.start(player.scenario()).expect("the demo scenario");
    let schema = galloper::envelope::file_schema(ruleset, rules.orders_schema());
    let schema = jsonschema::validator_for(&schema).expect("a valid schema");
    let mut seen = 0;
    let mut tried = 0;
    for step in 0..steps {
        if rules.outcome(&state).expect("state").is_some() {
            break;
        }
        let due = rules.due(&state).expect("state");
        let mut orders: BySide<serde_yaml::Value> = BySide::new();
        for owed in due.owed.iter().chain(due.optional.iter()) {
            let at = format!(
                "{ruleset} step {} ({}), {}",
                step + 1,
                due.heading,
                owed.side
            );
            if let Some(body) = rules.orders_template(&state, &owed.side).expect("state") {
                let head = galloper::envelope::Head {
                    game: "templates",
                    step: step as u32 + 1,
                    side: &owed.side,
                    notice: &"0".repeat(64),
                    revision: 1,
                };
                let t = galloper::envelope::template(&head, ruleset, &body);
                tried += check_template(rules, &schema, &state, &owed.side, &t, &at);
                seen += 1;
            }
            let optional = !due.owed.iter().any(|o| o.side == owed.side);
            let wrote = if optional {
                player
                    .optional(&state, owed, step as u32 + 1)
                    .ok()
                    .flatten()
            } else {
                Some(
                    player
                        .orders(&state, owed)
                        .unwrap_or_else(|_| player.pass(owed)),
                )
            };
            let Some(mut o) = wrote else { continue };
            if !rules
                .check(&state, &owed.side, &o)
                .expect("state")
                .is_empty()
            {
                o = player.pass(owed);
            }
            orders.insert(owed.side.clone(), o);
        }
        let mut seed = [0u8; 32];
        seed[0] = step as u8;
        seed[1] = 27;
        let r = rules
            .resolve(&state, &orders, &mut Dice::from_seeds(seed, seed))
            .unwrap_or_else(|e| panic!("{ruleset} step {}: {e}", step + 1));
        state = r.state;
    }
    assert!(seen > 2, "{ruleset}: only {seen} templates");
    assert!(
        tried > seen,
        "{ruleset}: {tried} examples in {seen} templates"
    );
}

#[test]
fn maurice_lite_templates_take_their_examples() {
    play("maurice-lite", 60);
}

#[test]
fn morschauser_macduff_templates_take_their_examples() {
    play("morschauser-macduff", 40);
}

#[test]
fn napoleonic_corps_templates_take_their_examples() {
    play("napoleonic-corps", 40);
}

#[test]
fn activation_dice_templates_take_their_examples() {
    play("activation-dice", 40);
}

#[test]
fn crowther_dougan_templates_take_their_examples() {
    play("crowther-dougan", 40);
}
