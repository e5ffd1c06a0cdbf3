//! The ruleset interface: what every rule set plugs into.
//!
//! A ruleset is a deterministic function of (state, orders, dice). It owns its
//! scenario, state and orders types; the rest of Galloper sees them only as
//! YAML text through [`AnyRuleset`], so adding a ruleset touches nothing here.

use crate::dice::{Dice, DieRecord};
use crate::event::Event;
use crate::event::tell::Told;
use crate::side::{BySide, SideId, Sides};
use crate::view::plan::PagePlan;
use crate::view::{MapView, Panel, Viewer};
use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// The kind of orders a side owes for a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OrdersKind {
    /// Where the army stands at the start; secret until both are in.
    Deployment,
    /// The orders for a whole step (a round, a turn).
    Turn,
    /// An answer to a question the engine paused to ask.
    Decision,
    /// Standing reactions a side not owing orders may send at any time; the
    /// ruleset keeps them until they are replaced.
    Reactions,
}

/// One side's debt for the step that is open.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Owed {
    pub side: SideId,
    pub kind: OrdersKind,
    /// What is asked, in words ("orders for round 4: you are active").
    pub note: String,
}

/// What the open step waits for.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Due {
    /// The ruleset's name for the step ("Round 4, French active").
    pub heading: String,
    pub owed: Vec<Owed>,
    /// What sides may send without owing it (standing reactions). The step
    /// does not wait for these; whatever arrived is resolved with it.
    #[serde(default)]
    pub optional: Vec<Owed>,
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Outcome {
    /// The winner, or none for a draw.
    pub winner: Option<SideId>,
    pub reason: String,
}

/// The result of resolving a step.
#[derive(Clone, Debug, PartialEq)]
pub struct Resolution<S> {
    pub state: S,
    pub events: Vec<Event>,
    pub outcome: Option<Outcome>,
}

impl<S: RulesetState> Resolution<S> {
    /// The step resolved into `state` by `events`, with the outcome the
    /// state says, if the game has ended.
    pub fn new(state: S, events: Vec<Event>) -> Self {
        Resolution {
            outcome: state.outcome().cloned(),
            state,
            events,
        }
    }
}

/// What the core asks of every ruleset's state alike.
pub trait RulesetState: Serialize + DeserializeOwned + Clone + Send + Sync {
    /// How the game ended, once it has.
    fn outcome(&self) -> Option<&Outcome>;
}

/// A broken rule in one side's orders, for the player to fix.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Violation {
    /// Keys from the top of the `orders:` block to the offending entry
    /// (`["moves", "fr-1"]`), so the envelope can find its line.
    pub path: Vec<String>,
    pub unit: Option<String>,
    /// The rule, with the source section (`"6. Movement: columns near the enemy move at most 4 BW"`).
    pub rule: String,
    pub message: String,
}

impl Violation {
    pub fn new(path: &[&str], unit: Option<&str>, rule: &str, message: impl Into<String>) -> Self {
        Violation {
            path: path.iter().map(|s| s.to_string()).collect(),
            unit: unit.map(str::to_string),
            rule: rule.to_string(),
            message: message.into(),
        }
    }
}

/// `"; did you mean X?"` when one of `known` is a near miss of `word` (a
/// typo or another case), else nothing: for violations about ids that do
/// not exist.
pub fn did_you_mean<'a>(word: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    let w = word.to_lowercase();
    let limit = (w.chars().count() / 3).max(1);
    known
        .into_iter()
        .filter(|k| *k != word)
        .map(|k| (strsim::damerau_levenshtein(&w, &k.to_lowercase()), k))
        .filter(|(d, _)| *d <= limit)
        .min()
        .map(|(_, k)| format!("; did you mean {k}?"))
        .unwrap_or_default()
}

/// What a reader sees of a state.
#[derive(Clone, Debug, PartialEq)]
pub struct Sight {
    pub heading: String,
    pub map: MapView,
    pub panels: Vec<Panel>,
}

/// A rule set, with its own types.
pub trait Ruleset: Sync {
    /// Its sides (`crate::side::scenario_sides!`) give [`Ruleset::sides`].
    type Scenario: Serialize + DeserializeOwned + Sides;
    type State: RulesetState;
    type Orders: Serialize + DeserializeOwned + JsonSchema;

    /// The registry name, such as `maurice-lite`.
    fn name(&self) -> &'static str;
    /// Check a scenario beyond what its type says (sides, positions, terrain).
    fn check_scenario(&self, scenario: &Self::Scenario) -> Result<(), String>;
    /// The sides in scenario order (the order of the dice mix).
    fn sides(&self, scenario: &Self::Scenario) -> Vec<SideId> {
        scenario.side_ids()
    }
    /// The state before the first step. Needs no dice: anything random
    /// happens in the first step's resolution.
    fn start(&self, scenario: &Self::Scenario) -> Result<Self::State, String>;
    /// What the open step waits for; empty `owed` means it can resolve now.
    fn due(&self, state: &Self::State) -> Due;
    /// Check one side's orders against the state, before accepting them.
    fn check(&self, state: &Self::State, side: &SideId, orders: &Self::Orders) -> Vec<Violation>;
    /// Resolve the open step. Orders have passed [`Ruleset::check`].
    fn resolve(
        &self,
        state: &Self::State,
        orders: &BySide<Self::Orders>,
        dice: &mut Dice,
    ) -> Resolution<Self::State>;
    /// What `viewer` may see of `state`.
    fn view(&self, state: &Self::State, viewer: &Viewer) -> Sight;
    /// [`Ruleset::view`] of a state read by several readers in turn (a
    /// step's reports): what the readers' views have in common may be
    /// worked out once and kept in `memo`, which lives as long as the
    /// loaded state and is emptied when it changes. Default: the view.
    fn view_with(&self, state: &Self::State, viewer: &Viewer, memo: &Memo) -> Sight {
        let _ = memo;
        self.view(state, viewer)
    }
    /// The map alone of [`Ruleset::view`], for what needs no panels (the
    /// enemy written into an orders template): a ruleset whose panels cost
    /// much (Maurice Lite's options) draws the map without them.
    fn map_view(&self, state: &Self::State, viewer: &Viewer) -> MapView {
        self.view(state, viewer).map
    }
    /// A ready orders file body (the part under `orders:`), with the side's
    /// units and choices as YAML comments, if it owes orders.
    fn orders_template(&self, state: &Self::State, side: &SideId) -> Option<String>;
    /// Whether the game is over.
    fn outcome(&self, state: &Self::State) -> Option<Outcome> {
        state.outcome().cloned()
    }
    /// Extension point: what `side` can do now, as data for the orders
    /// page (`galloper orders page`), with the ruleset's writer script,
    /// if it owes orders. Built only from what the side sees. Default:
    /// none, and the page offers the orders template to edit by hand.
    fn orders_plan(&self, state: &Self::State, side: &SideId) -> Option<PagePlan> {
        let _ = (state, side);
        None
    }
    /// [`Ruleset::orders_plan`] sharing `memo` with the state's views
    /// ([`Ruleset::view_with`]). Default: the plan.
    fn orders_plan_with(
        &self,
        state: &Self::State,
        side: &SideId,
        memo: &Memo,
    ) -> Option<PagePlan> {
        let _ = memo;
        self.orders_plan(state, side)
    }
    /// Extension point: the orders the server applies for `side` when it
    /// sent none by the deadline and the game's policy is `default` (or
    /// `standing` found nothing that still fits). None when the ruleset has
    /// no sensible default for this step: the game then waits for the game
    /// master. What is returned must pass [`Ruleset::check`].
    fn default_orders(
        &self,
        state: &Self::State,
        side: &SideId,
    ) -> Result<Option<Self::Orders>, String> {
        let _ = (state, side);
        Ok(None)
    }
    /// Extension point: the part of `scenario` that the public archive may
    /// show while the game runs, when the scenario itself holds what the
    /// sides hide from each other (hidden troops and where they stand). The
    /// whole is then committed with a salt and opened when the game ends.
    /// Default: none, the whole scenario is public.
    fn public_scenario(&self, scenario: &Self::Scenario) -> Option<Self::Scenario> {
        let _ = scenario;
        None
    }
    /// Extension point: what the organiser should know before a game is
    /// made from `scenario` (`galloper new` prints each line as a warning),
    /// such as hidden troops placed where a stock scenario file, which
    /// anyone may read, puts them. Default: nothing.
    fn scenario_warnings(&self, scenario: &Self::Scenario) -> Vec<String> {
        let _ = scenario;
        Vec::new()
    }
    /// Extension point: `state` with everything its owner hides from the
    /// other sides drawn again from `dice` (the order of a hidden deck), so
    /// that a resolution from it tells nothing of the real one: the game
    /// master's preview resolves from this with throw-away dice. Default:
    /// the state as it is, for a ruleset whose only secret is its dice.
    fn conceal(&self, state: &Self::State, dice: &mut Dice) -> Self::State {
        let _ = dice;
        state.clone()
    }
    /// Extension point: a step told to `viewer`, "What changed" and the
    /// event lines, in this ruleset's words and groupings (Maurice Lite's
    /// fire is one line per firing unit). Every report, the mail's text
    /// part and `galloper render` take it from here. Default: each event in
    /// its own words with its dice beneath, and the units that left the table.
    fn tell(&self, events: &[Event], dice: &[DieRecord], viewer: &Viewer) -> Told {
        crate::event::tell::plain(events, dice, viewer)
    }
    /// Extension point for the sandbox (`galloper resolve --contact`): the
    /// state with `unit` moved so that its front edge touches `edge` of
    /// `target`, facing it, centred on that edge and slid `offset` along it
    /// (to the right as the moved unit faces). Default: not offered.
    fn place_in_contact(
        &self,
        state: &Self::State,
        unit: &str,
        target: &str,
        edge: ContactEdge,
        offset: f64,
    ) -> Result<Self::State, String> {
        let _ = (state, unit, target, edge, offset);
        Err(format!(
            "ruleset {} cannot place units in contact",
            self.name()
        ))
    }
}

/// An edge of a unit, as the unit itself faces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContactEdge {
    Front,
    Left,
    Right,
    Rear,
}

impl std::str::FromStr for ContactEdge {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "front" => Ok(ContactEdge::Front),
            "left" => Ok(ContactEdge::Left),
            "right" => Ok(ContactEdge::Right),
            "rear" => Ok(ContactEdge::Rear),
            _ => Err(format!("an edge is front, left, right or rear, not {s:?}")),
        }
    }
}

/// Extension point: a ruleset's player for `galloper demo`, which writes
/// every side's orders from the state as a player would, so that a whole
/// game can be played, archived and audited without people. Found through
/// `demo::players::player`; it sees the state as YAML text, like
/// [`AnyRuleset`], so the demo itself knows no ruleset. It must be a pure
/// function of what it is given (and of its own scripts): no clock, file or
/// randomness, so that a demo reads the same every time.
pub trait DemoPlayer {
    /// The registry name of the ruleset it plays.
    fn ruleset(&self) -> &'static str;
    /// The scenario it plays, as YAML.
    fn scenario(&self) -> &'static str;
    /// The game's name, which is also its archive folder.
    fn game(&self) -> &'static str;
    /// The `orders:` block for what `owed` asks, given the state as YAML.
    /// The ruleset may still refuse it; the demo then sends [`DemoPlayer::pass`].
    fn orders(&mut self, state: &str, owed: &Owed) -> Result<serde_yaml::Value, String>;
    /// Orders a side may send without owing them (`Due::optional`, such as
    /// standing reactions) at `step`, if it sends any now. Default: none.
    fn optional(
        &mut self,
        state: &str,
        owed: &Owed,
        step: u32,
    ) -> Result<Option<serde_yaml::Value>, String> {
        let _ = (state, owed, step);
        Ok(None)
    }
    /// An `orders:` block that does nothing (pass, hold), sent when the
    /// ruleset refuses what [`DemoPlayer::orders`] wrote.
    fn pass(&self, owed: &Owed) -> serde_yaml::Value;
}

/// The state a [`DemoPlayer`] is given, read as its ruleset's own type.
pub fn demo_state<S: DeserializeOwned>(state: &str) -> Result<S, String> {
    crate::yaml::from_str(state).map_err(|e| e.to_string())
}

/// A [`DemoPlayer`]'s orders as the `orders:` block it hands over.
pub fn demo_orders<O: Serialize>(orders: &O) -> Result<serde_yaml::Value, String> {
    crate::yaml::to_value(orders).map_err(|e| e.to_string())
}

/// A resolution with the state as YAML, as the rest of Galloper keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct TextResolution {
    pub state: String,
    pub events: Vec<Event>,
    pub dice: Vec<DieRecord>,
    pub outcome: Option<Outcome>,
}

/// A problem with a scenario or state file: an operator's error.
#[derive(Debug, thiserror::Error)]
pub enum RulesetError {
    #[error("the scenario is refused: {0}")]
    Scenario(String),
    #[error("the stored state does not parse (was it edited by hand?): {0}")]
    State(String),
    #[error("orders do not parse: {0}")]
    Orders(String),
}

/// A ruleset seen through YAML text, so that one registry holds them all.
pub trait AnyRuleset: Sync {
    fn name(&self) -> &'static str;
    fn sides(&self, scenario: &str) -> Result<Vec<SideId>, RulesetError>;
    fn start(&self, scenario: &str) -> Result<String, RulesetError>;
    /// [`Ruleset::public_scenario`] as YAML text.
    fn public_scenario(&self, scenario: &str) -> Result<Option<String>, RulesetError>;
    /// [`Ruleset::scenario_warnings`] of a scenario as YAML text.
    fn scenario_warnings(&self, scenario: &str) -> Result<Vec<String>, RulesetError>;
    fn due(&self, state: &str) -> Result<Due, RulesetError>;
    /// Parse the `orders:` block of an orders file and check it.
    fn check(
        &self,
        state: &str,
        side: &SideId,
        orders: &serde_yaml::Value,
    ) -> Result<Vec<Violation>, RulesetError>;
    fn resolve(
        &self,
        state: &str,
        orders: &BySide<serde_yaml::Value>,
        dice: &mut Dice,
    ) -> Result<TextResolution, RulesetError>;
    fn view(&self, state: &str, viewer: &Viewer) -> Result<Sight, RulesetError>;
    fn orders_template(&self, state: &str, side: &SideId) -> Result<Option<String>, RulesetError>;
    fn outcome(&self, state: &str) -> Result<Option<Outcome>, RulesetError>;
    /// Parse a state once to ask it several questions: a step's reports ask
    /// the same state for each reader, and parsing is the dearer part.
    fn load<'a>(&'a self, state: &str) -> Result<Box<dyn LoadedState + 'a>, RulesetError>;
    /// [`Ruleset::default_orders`] as an `orders:` block, with every field
    /// that only repeats its default left out, so that it reads short.
    fn default_orders(
        &self,
        state: &str,
        side: &SideId,
    ) -> Result<Option<serde_yaml::Value>, RulesetError>;
    /// JSON Schema of the `orders:` block.
    fn orders_schema(&self) -> serde_json::Value;
    /// [`Ruleset::place_in_contact`] on a state as YAML text; the error
    /// says why, in words.
    fn place_in_contact(
        &self,
        state: &str,
        unit: &str,
        target: &str,
        edge: ContactEdge,
        offset: f64,
    ) -> Result<String, String>;
    /// Where in a whole orders file its `orders:` block fails to parse as
    /// this ruleset's orders: (line, column, message), 1-based, or none
    /// when it parses. The block alone, read as a tree, has lost its lines.
    fn orders_error_at(&self, text: &str) -> Option<(usize, usize, String)>;
    /// [`Ruleset::tell`].
    fn tell(&self, events: &[Event], dice: &[DieRecord], viewer: &Viewer) -> Told;
}

/// A parsed state of some ruleset, with the questions the core asks of one.
/// Shareable between threads, so that a server that keeps parsed states
/// can still be moved to another thread.
pub trait LoadedState: Send + Sync {
    fn due(&self) -> Due;
    /// Parse the `orders:` block of an orders file and check it.
    fn check(
        &self,
        side: &SideId,
        orders: &serde_yaml::Value,
    ) -> Result<Vec<Violation>, RulesetError>;
    fn view(&self, viewer: &Viewer) -> Sight;
    /// The map alone of [`LoadedState::view`].
    fn map_view(&self, viewer: &Viewer) -> MapView;
    fn orders_template(&self, side: &SideId) -> Option<String>;
    fn orders_plan(&self, side: &SideId) -> Option<PagePlan>;
    fn outcome(&self) -> Option<Outcome>;
    /// Parse each side's `orders:` block and resolve the step from this state.
    fn resolve(
        &self,
        orders: &BySide<serde_yaml::Value>,
        dice: &mut Dice,
    ) -> Result<TextResolution, RulesetError>;
    /// [`Ruleset::conceal`], as YAML text.
    fn concealed(&self, dice: &mut Dice) -> Result<String, RulesetError>;
    /// [`LoadedState::resolve`], after which this is the state the step
    /// ended with, kept parsed: a replay of step after step (the audit)
    /// then parses no state but the first. The state kept is the one
    /// resolved, not its text read back; the audit compares that text
    /// with the archive's and falls back to reading it should they differ.
    fn advance(
        &mut self,
        orders: &BySide<serde_yaml::Value>,
        dice: &mut Dice,
    ) -> Result<TextResolution, RulesetError>;
}

struct Loaded<'a, R: Ruleset> {
    rules: &'a R,
    state: R::State,
    /// What the state's readers share ([`Ruleset::view_with`]); emptied
    /// whenever `state` changes.
    memo: Memo,
}

/// What the views of one state, read by several readers in turn, work out
/// once for all of them, by key (Maurice Lite's options panels, which cost
/// as much as the rest of a report). Each value is a pure function of the
/// state and its key, so a reader served from the memo gets the very value
/// he would have worked out himself. Values are made outside the lock: one
/// may be made from others, and two threads that race make the same value.
#[derive(Default)]
pub struct Memo(
    std::sync::Mutex<
        std::collections::BTreeMap<String, std::sync::Arc<dyn std::any::Any + Send + Sync>>,
    >,
);

impl Memo {
    /// The value kept under `key`, made by `make` and kept if none is.
    pub fn get_or<T: Clone + Send + Sync + 'static>(
        &self,
        key: &str,
        make: impl FnOnce() -> T,
    ) -> T {
        let kept = self.0.lock().map(|m| m.get(key).cloned()).unwrap_or(None);
        if let Some(v) = kept.as_deref().and_then(|v| v.downcast_ref::<T>()) {
            return v.clone();
        }
        let v = make();
        if let Ok(mut m) = self.0.lock() {
            m.insert(key.to_string(), std::sync::Arc::new(v.clone()));
        }
        v
    }

    /// How many values are kept (for tests).
    pub fn len(&self) -> usize {
        self.0.lock().map(|m| m.len()).unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl<R: Ruleset> LoadedState for Loaded<'_, R> {
    fn due(&self) -> Due {
        Ruleset::due(self.rules, &self.state)
    }
    fn check(
        &self,
        side: &SideId,
        orders: &serde_yaml::Value,
    ) -> Result<Vec<Violation>, RulesetError> {
        Ok(Ruleset::check(
            self.rules,
            &self.state,
            side,
            &parse_orders::<R>(orders)?,
        ))
    }
    fn view(&self, viewer: &Viewer) -> Sight {
        Ruleset::view_with(self.rules, &self.state, viewer, &self.memo)
    }
    fn map_view(&self, viewer: &Viewer) -> MapView {
        Ruleset::map_view(self.rules, &self.state, viewer)
    }
    fn orders_template(&self, side: &SideId) -> Option<String> {
        Ruleset::orders_template(self.rules, &self.state, side)
    }
    fn orders_plan(&self, side: &SideId) -> Option<PagePlan> {
        Ruleset::orders_plan_with(self.rules, &self.state, side, &self.memo)
    }
    fn outcome(&self) -> Option<Outcome> {
        Ruleset::outcome(self.rules, &self.state)
    }
    fn resolve(
        &self,
        orders: &BySide<serde_yaml::Value>,
        dice: &mut Dice,
    ) -> Result<TextResolution, RulesetError> {
        Ok(self.resolved(orders, dice)?.0)
    }
    fn concealed(&self, dice: &mut Dice) -> Result<String, RulesetError> {
        state_to_yaml(&Ruleset::conceal(self.rules, &self.state, dice))
    }
    fn advance(
        &mut self,
        orders: &BySide<serde_yaml::Value>,
        dice: &mut Dice,
    ) -> Result<TextResolution, RulesetError> {
        let (text, state) = self.resolved(orders, dice)?;
        self.state = state;
        self.memo = Memo::default();
        Ok(text)
    }
}

impl<R: Ruleset> Loaded<'_, R> {
    /// The step resolved from this state: as text, and its state typed.
    fn resolved(
        &self,
        orders: &BySide<serde_yaml::Value>,
        dice: &mut Dice,
    ) -> Result<(TextResolution, R::State), RulesetError> {
        let mut typed = BySide::new();
        for (side, v) in orders {
            typed.insert(side.clone(), parse_orders::<R>(v)?);
        }
        let res = Ruleset::resolve(self.rules, &self.state, &typed, dice);
        let text = TextResolution {
            state: state_to_yaml(&res.state)?,
            events: res.events,
            dice: dice.take_log(),
            outcome: res.outcome,
        };
        Ok((text, res.state))
    }
}

/// Serialise a state the one way Galloper stores and hashes it.
pub fn state_to_yaml<S: Serialize>(state: &S) -> Result<String, RulesetError> {
    crate::yaml::to_string(state).map_err(|e| RulesetError::State(e.to_string()))
}

fn parse_state<R: Ruleset>(text: &str) -> Result<R::State, RulesetError> {
    crate::yaml::from_str(text).map_err(|e| RulesetError::State(e.to_string()))
}

fn parse_scenario<R: Ruleset>(r: &R, text: &str) -> Result<R::Scenario, RulesetError> {
    // Every ruleset's scenario is bounded and its strings checked first
    // (`scenario_check`): the ruleset then checks what only it can count.
    crate::scenario_check::size(text).map_err(RulesetError::Scenario)?;
    let tree: serde_yaml::Value =
        crate::yaml::from_str(text).map_err(|e| RulesetError::Scenario(e.to_string()))?;
    crate::scenario_check::contents(&tree).map_err(RulesetError::Scenario)?;
    let s: R::Scenario =
        crate::yaml::from_str(text).map_err(|e| RulesetError::Scenario(e.to_string()))?;
    r.check_scenario(&s).map_err(RulesetError::Scenario)?;
    Ok(s)
}

fn parse_orders<R: Ruleset>(v: &serde_yaml::Value) -> Result<R::Orders, RulesetError> {
    crate::yaml::from_value(v.clone()).map_err(|e| RulesetError::Orders(e.to_string()))
}

impl<R: Ruleset> AnyRuleset for R {
    fn name(&self) -> &'static str {
        Ruleset::name(self)
    }
    fn tell(&self, events: &[Event], dice: &[DieRecord], viewer: &Viewer) -> Told {
        Ruleset::tell(self, events, dice, viewer)
    }
    fn sides(&self, scenario: &str) -> Result<Vec<SideId>, RulesetError> {
        Ok(Ruleset::sides(self, &parse_scenario(self, scenario)?))
    }
    fn start(&self, scenario: &str) -> Result<String, RulesetError> {
        let state = Ruleset::start(self, &parse_scenario(self, scenario)?)
            .map_err(RulesetError::Scenario)?;
        state_to_yaml(&state)
    }
    fn public_scenario(&self, scenario: &str) -> Result<Option<String>, RulesetError> {
        let Some(public) = Ruleset::public_scenario(self, &parse_scenario(self, scenario)?) else {
            return Ok(None);
        };
        let text =
            crate::yaml::to_string(&public).map_err(|e| RulesetError::Scenario(e.to_string()))?;
        Ok(Some(format!(
            "# The public part of this game's scenario: what the sides hide from each\n\
             # other is left out, and the whole is opened in sealed/start/ when the\n\
             # game ends (its salted commitment is game.yaml's sealed_scenario).\n{text}"
        )))
    }
    fn scenario_warnings(&self, scenario: &str) -> Result<Vec<String>, RulesetError> {
        Ok(Ruleset::scenario_warnings(
            self,
            &parse_scenario(self, scenario)?,
        ))
    }
    fn due(&self, state: &str) -> Result<Due, RulesetError> {
        Ok(self.load(state)?.due())
    }
    fn check(
        &self,
        state: &str,
        side: &SideId,
        orders: &serde_yaml::Value,
    ) -> Result<Vec<Violation>, RulesetError> {
        self.load(state)?.check(side, orders)
    }
    fn resolve(
        &self,
        state: &str,
        orders: &BySide<serde_yaml::Value>,
        dice: &mut Dice,
    ) -> Result<TextResolution, RulesetError> {
        self.load(state)?.resolve(orders, dice)
    }
    fn view(&self, state: &str, viewer: &Viewer) -> Result<Sight, RulesetError> {
        Ok(self.load(state)?.view(viewer))
    }
    fn orders_template(&self, state: &str, side: &SideId) -> Result<Option<String>, RulesetError> {
        Ok(self.load(state)?.orders_template(side))
    }
    fn outcome(&self, state: &str) -> Result<Option<Outcome>, RulesetError> {
        Ok(self.load(state)?.outcome())
    }
    fn load<'a>(&'a self, state: &str) -> Result<Box<dyn LoadedState + 'a>, RulesetError> {
        Ok(Box::new(Loaded {
            rules: self,
            state: parse_state::<R>(state)?,
            memo: Memo::default(),
        }))
    }
    fn default_orders(
        &self,
        state: &str,
        side: &SideId,
    ) -> Result<Option<serde_yaml::Value>, RulesetError> {
        let Some(orders) = Ruleset::default_orders(self, &parse_state::<R>(state)?, side)
            .map_err(RulesetError::Orders)?
        else {
            return Ok(None);
        };
        let text =
            crate::yaml::to_string(&orders).map_err(|e| RulesetError::Orders(e.to_string()))?;
        let value: serde_yaml::Value =
            crate::yaml::from_str(&text).map_err(|e| RulesetError::Orders(e.to_string()))?;
        Ok(Some(minimal::<R>(value, &text)))
    }
    fn orders_schema(&self) -> serde_json::Value {
        serde_json::to_value(schemars::schema_for!(R::Orders)).unwrap_or_default()
    }
    fn place_in_contact(
        &self,
        state: &str,
        unit: &str,
        target: &str,
        edge: ContactEdge,
        offset: f64,
    ) -> Result<String, String> {
        let s = parse_state::<R>(state).map_err(|e| e.to_string())?;
        let moved = Ruleset::place_in_contact(self, &s, unit, target, edge, offset)?;
        state_to_yaml(&moved).map_err(|e| e.to_string())
    }
    fn orders_error_at(&self, text: &str) -> Option<(usize, usize, String)> {
        #[derive(serde::Deserialize)]
        struct Whole<O> {
            // Parsed only for where it fails.
            #[allow(dead_code)]
            orders: O,
        }
        let e = crate::yaml::from_str::<Whole<R::Orders>>(text).err()?;
        let loc = e.location()?;
        Some((loc.line(), loc.column(), e.to_string()))
    }
}

/// Leave out of an orders block every entry whose absence reads back as the
/// same orders (serde defaults), shallowest first.
fn minimal<R: Ruleset>(value: serde_yaml::Value, canonical: &str) -> serde_yaml::Value {
    fn paths(
        v: &serde_yaml::Value,
        prefix: &mut Vec<serde_yaml::Value>,
        out: &mut Vec<Vec<serde_yaml::Value>>,
    ) {
        if let serde_yaml::Value::Mapping(m) = v {
            for (k, child) in m {
                prefix.push(k.clone());
                out.push(prefix.clone());
                paths(child, prefix, out);
                prefix.pop();
            }
        }
    }
    fn remove(v: &mut serde_yaml::Value, path: &[serde_yaml::Value]) -> bool {
        match (v, path) {
            (serde_yaml::Value::Mapping(m), [k]) => m.remove(k).is_some(),
            (serde_yaml::Value::Mapping(m), [k, rest @ ..]) => {
                m.get_mut(k).is_some_and(|c| remove(c, rest))
            }
            _ => false,
        }
    }
    let same = |v: &serde_yaml::Value| {
        parse_orders::<R>(v)
            .ok()
            .and_then(|o| crate::yaml::to_string(&o).ok())
            .is_some_and(|t| t == canonical)
    };
    let mut all = Vec::new();
    paths(&value, &mut Vec::new(), &mut all);
    let mut out = value;
    for p in all {
        let mut trial = out.clone();
        if remove(&mut trial, &p) && same(&trial) {
            out = trial;
        }
    }
    out
}
