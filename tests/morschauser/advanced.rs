//! Helpers for the section E tests: generals, qualities, and a half-turn
//! resolved with its dice log.
#![allow(dead_code)]

use crate::common::*;
use galloper::dice::Dice;
use galloper::geometry::{Distance, Point};
use galloper::ruleset::{Resolution, Ruleset};
use galloper::rulesets::morschauser_macduff::MorschauserMacduff;
use galloper::rulesets::morschauser_macduff::orders::{Action, Orders, PathStep};
use galloper::rulesets::morschauser_macduff::scenario::{GeneralSpec, Personality};
use galloper::rulesets::morschauser_macduff::state::{General, Phase, State};
use galloper::rulesets::morschauser_macduff::units::Quality;
use galloper::side::BySide;

/// Every Blue company except those named parked far off on the left, out of
/// everyone's way (off the table, so they never block or get tested).
pub fn only(s: &mut State, keep: &[&str]) {
    for (i, id) in ["b-li", "b-li2", "b-lt", "b-hc", "b-art", "b-eng", "b-wag"]
        .iter()
        .enumerate()
    {
        if !keep.contains(id) {
            place(s, id, 1.5 + 4.0 * i as f64, -100.0, 0.0);
        }
    }
}

/// A Blue general at `at` commanding `commands` (companies or regiments).
pub fn general(
    s: &mut State,
    id: &str,
    at: (f64, f64),
    commands: &[&str],
    personality: Option<Personality>,
) {
    let spec = GeneralSpec {
        id: id.into(),
        name: format!("Gen {id}"),
        at: Point::new(at.0, at.1),
        player: false,
        personality,
        charismatic: false,
        commands: commands.iter().map(|c| c.to_string()).collect(),
        under: None,
    };
    s.scenario.sides[0].generals.push(spec);
    s.generals.push(General {
        id: id.into(),
        name: format!("Gen {id}"),
        side: blue(),
        at: Point::new(at.0, at.1),
        personality,
        attached: None,
        killed: false,
    });
}

pub fn spec_mut<'a>(s: &'a mut State, id: &str) -> &'a mut GeneralSpec {
    s.scenario
        .sides
        .iter_mut()
        .flat_map(|x| x.generals.iter_mut())
        .find(|g| g.id == id)
        .expect("general")
}

/// Give a company qualities (the scenario's record, which E.2-E.4 read).
pub fn qualities(s: &mut State, id: &str, q: &[Quality]) {
    s.scenario.options.additional_troops = true;
    for side in &mut s.scenario.sides {
        for c in side.companies.iter_mut().filter(|c| c.id == id) {
            c.qualities = q.to_vec();
        }
    }
}

pub struct Run {
    pub r: Resolution<State>,
    pub texts: Vec<String>,
    pub dice: Vec<(u32, String)>,
}

impl Run {
    pub fn has(&self, needle: &str) -> bool {
        self.texts.iter().any(|t| t.contains(needle))
    }
    pub fn state(&self) -> &State {
        &self.r.state
    }
}

/// Resolve Blue's half-turn and keep the dice log; fails if the script ran
/// out, so that every die a rule rolls is one the test expects.
pub fn run(s: &State, o: Orders, dice: Vec<u32>) -> Run {
    let mut s = s.clone();
    s.phase = Phase::HalfTurn {
        turn: 1,
        active: blue(),
    };
    let mut orders = BySide::new();
    orders.insert(blue(), o);
    let scripted = dice.len();
    let mut d = Dice::scripted(dice);
    let r = MorschauserMacduff.resolve(&s, &orders, &mut d);
    assert!(
        d.log().len() <= scripted,
        "more dice than scripted: {:?}",
        d.log()
    );
    let texts = r.events.iter().map(|e| e.text.clone()).collect();
    let dice = d
        .log()
        .iter()
        .map(|x| (x.value, x.purpose.clone()))
        .collect();
    Run { r, texts, dice }
}

pub fn forward(id: &str, d: f64) -> Action {
    Action {
        path: vec![PathStep::Forward(Distance(d))],
        ..action(id)
    }
}

pub fn y(s: &State, id: &str) -> f64 {
    s.company(id).expect("company").at.y
}

pub fn near(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}
