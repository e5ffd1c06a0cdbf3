//! The action deck (chapter 3): cards, the shuffle, the deal and the draw.
//!
//! The deck is our own (`games/maurice-lite/deck.yaml`): its names and
//! effects are Galloper's, with the spans, symbols and flags the source's
//! mechanics need.

use crate::dice::{Dice, StreamKind};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The deck Galloper ships, used when a scenario names none.
pub const DEFAULT_DECK: &str = include_str!("../../../games/maurice-lite/deck.yaml");

/// Which action a modifying card bends.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Symbol {
    Charge,
    March,
    Bombard,
    Rally,
    Volley,
}

/// What a card does when played as an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum EventEffect {
    /// Draw this many cards.
    Draw(u32),
    /// Every unit of the army within 4 BW of the CinC and not near the enemy loses one DISR.
    RallyAroundCinc,
}

/// What a modifying or interrupt card does (chapter 3). Which action a
/// modifying card may bend is its `symbol`; an interrupt card has `interrupt`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// Interrupt: the enemy's activated force counts this many BW further from its CinC.
    AddActivationDistance(u32),
    /// Interrupt, before the enemy moves: difficult terrain is impassable to his units this round.
    DifficultImpassable,
    /// Interrupt the volley phase: the passive side shoots first.
    FireFirst,
    /// Modifier: every to-hit die of the enemy's shooting this round.
    EnemyToHit(i32),
    /// Modifier: every to-hit die of this side's shooting this round.
    OwnToHit(i32),
    /// Modifier: every attacking unit's combat score.
    AttackScore(i32),
    /// Modifier: one defending unit's combat score.
    DefenderScore(i32),
    /// Modifier: every rally die of this side this round.
    RallyDice(i32),
    /// Modifier: every marching unit's allowance, in BW.
    MarchDistance(u32),
}
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Card {
    pub id: String,
    pub name: String,
    /// Activation reach in BW; zero for Reshuffle cards.
    #[serde(default)]
    pub span: u32,
    #[serde(default)]
    pub symbol: Option<Symbol>,
    #[serde(default)]
    pub interrupt: bool,
    #[serde(default)]
    pub event: Option<EventEffect>,
    #[serde(default)]
    pub reshuffle: bool,
    /// What the card does when played to modify or to interrupt.
    #[serde(default)]
    pub effect: Option<Effect>,
    /// What the card does when played for its effect, in our own words.
    #[serde(default)]
    pub text: String,
}

impl Card {
    pub fn describe(&self) -> String {
        self.describe_as(&self.name)
    }

    /// [`Card::describe`] with the name written as `name` (quoted, in a
    /// template).
    pub fn describe_as(&self, name: &str) -> String {
        let mut s = format!("{name} [{}] span {}", self.id, self.span);
        if let Some(sym) = self.symbol {
            s.push_str(&format!(", modifies {sym:?}").to_lowercase());
        }
        if self.interrupt {
            s.push_str(", interrupt");
        }
        if self.event.is_some() {
            s.push_str(", event");
        }
        s
    }
}

/// A whole deck definition.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DeckFile {
    pub name: String,
    pub cards: Vec<Card>,
}

impl DeckFile {
    /// Parse and check a deck: unique ids, exactly two Reshuffle cards.
    pub fn parse(text: &str) -> Result<DeckFile, String> {
        let deck: DeckFile = crate::yaml::from_str(text).map_err(|e| format!("deck: {e}"))?;
        let mut ids: Vec<&str> = deck.cards.iter().map(|c| c.id.as_str()).collect();
        ids.sort_unstable();
        if let Some(w) = ids.windows(2).find(|w| w[0] == w[1]) {
            return Err(format!("deck: card id {} appears twice", w[0]));
        }
        let reshuffles = deck.cards.iter().filter(|c| c.reshuffle).count();
        if reshuffles != 2 {
            return Err(format!(
                "deck: needs exactly two Reshuffle cards, has {reshuffles}"
            ));
        }
        Ok(deck)
    }
    pub fn card(&self, id: &str) -> Option<&Card> {
        self.cards.iter().find(|c| c.id == id)
    }
}

/// The draw pile, the discard pile and the cards out of the game. The top
/// of the draw pile is the last element.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Piles {
    pub draw: Vec<String>,
    pub discard: Vec<String>,
    pub removed: Vec<String>,
}

/// Fifteen or more discards make a Reshuffle card shuffle them back.
pub const RESHUFFLE_THRESHOLD: usize = 15;
/// Each side's opening hand.
pub const OPENING_HAND: usize = 6;
/// The most cards a hand may hold at the end of a round.
pub const HAND_LIMIT: usize = 10;

/// What happened when one card was drawn, for the log.
#[derive(Clone, Debug, PartialEq)]
pub enum DrawNote {
    /// A Reshuffle card came up and `recycled` discards went back into the deck
    /// (the Reshuffle card left the game).
    ReshuffledDiscards { card: String, recycled: usize },
    /// A Reshuffle card came up with too few discards: it alone went back in.
    ReshuffledItself { card: String },
}

impl Piles {
    /// Shuffle the deck and deal the opening hands (chapter 2): Reshuffle
    /// cards are set aside for the deal, then shuffled back in.
    pub fn deal(deck: &DeckFile, hands: usize, dice: &mut Dice) -> (Piles, Vec<Vec<String>>) {
        let mut draw: Vec<String> = deck
            .cards
            .iter()
            .filter(|c| !c.reshuffle)
            .map(|c| c.id.clone())
            .collect();
        dice.shuffle(
            StreamKind::Hidden,
            &mut draw,
            "shuffle the action deck for the deal",
        );
        let mut dealt = vec![Vec::new(); hands];
        for _ in 0..OPENING_HAND {
            for hand in dealt.iter_mut() {
                if let Some(c) = draw.pop() {
                    hand.push(c);
                }
            }
        }
        draw.extend(
            deck.cards
                .iter()
                .filter(|c| c.reshuffle)
                .map(|c| c.id.clone()),
        );
        dice.shuffle(
            StreamKind::Hidden,
            &mut draw,
            "shuffle the Reshuffle cards into the deck",
        );
        (
            Piles {
                draw,
                discard: Vec::new(),
                removed: Vec::new(),
            },
            dealt,
        )
    }

    /// Draw one playable card, acting on any Reshuffle cards on the way
    /// (chapter 4, Reshuffle). `None` when the deck is empty.
    pub fn draw(
        &mut self,
        deck: &DeckFile,
        dice: &mut Dice,
        notes: &mut Vec<DrawNote>,
    ) -> Option<String> {
        loop {
            let id = self.draw.pop()?;
            let is_reshuffle = deck.card(&id).is_some_and(|c| c.reshuffle);
            if !is_reshuffle {
                return Some(id);
            }
            if self.discard.len() >= RESHUFFLE_THRESHOLD {
                let recycled = self.discard.len();
                self.draw.append(&mut self.discard);
                dice.shuffle(
                    StreamKind::Hidden,
                    &mut self.draw,
                    "Reshuffle: discards back into the deck",
                );
                self.removed.push(id.clone());
                notes.push(DrawNote::ReshuffledDiscards { card: id, recycled });
            } else if self
                .draw
                .iter()
                .all(|c| deck.card(c).is_some_and(|c| c.reshuffle))
            {
                // House rule: a Reshuffle card alone with nothing to draw
                // would come up forever; it leaves the game and the deck is empty.
                self.removed.push(id);
                self.removed.append(&mut self.draw);
                return None;
            } else {
                self.draw.push(id.clone());
                dice.shuffle(
                    StreamKind::Hidden,
                    &mut self.draw,
                    "Reshuffle: the card alone back into the deck",
                );
                notes.push(DrawNote::ReshuffledItself { card: id });
            }
        }
    }
}
