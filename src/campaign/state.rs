//! The ledger: where every army stands on a day, what each unit has left,
//! and the battles begun and fought. It is the campaign's state, kept as
//! YAML step after step like a game's.

use super::file::{ArmySpec, CampaignFile};
use crate::muster::{AnyMuster, Condition, Mustered};
use crate::side::SideId;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ledger {
    pub campaign: CampaignFile,
    /// The day the next turn is for (1 is the first).
    pub day: u32,
    pub armies: Vec<Army>,
    /// Each battlefield's scenario text, by its path in the campaign file,
    /// read once when the campaign was made: every battle is mustered from
    /// the ledger alone.
    pub fields: BTreeMap<String, String>,
    #[serde(default)]
    pub battles: Vec<Battle>,
    /// Set once the campaign is over.
    #[serde(default)]
    pub over: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Army {
    pub id: String,
    pub side: SideId,
    pub name: String,
    pub commander: String,
    pub at: String,
    /// The area it came from on the day it reached `at`, if it marched:
    /// its road decides its table edge in a battle there.
    #[serde(default)]
    pub came_from: Option<String>,
    pub units: Vec<Mustered>,
    /// The battle it is fighting, which holds it in place.
    #[serde(default)]
    pub in_battle: Option<String>,
}

impl Army {
    /// Whether it can still fight: some unit not lost.
    pub fn standing(&self) -> bool {
        self.units.iter().any(|u| u.condition != Condition::Lost)
    }
}

/// A battle the campaign made, fought as a game of its own.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Battle {
    /// The game's name: the campaign's, the day and the area.
    pub id: String,
    pub area: String,
    pub day: u32,
    pub ruleset: String,
    /// The side that marched in (the other held the area).
    pub attacker: SideId,
    pub armies: Vec<String>,
    /// The battle's scenario, made from the ledger: what its audit checks
    /// the battle began with.
    pub scenario: String,
    #[serde(default)]
    pub result: Option<BattleResult>,
}

/// What a battle's end gave back to the ledger.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BattleResult {
    pub winner: Option<SideId>,
    pub reason: String,
    /// The SHA-256 of the battle archive's last step, which signs its end.
    pub end: String,
}

impl Ledger {
    /// The ledger of day 1: every army of the file, each unit read by the
    /// hook of the ruleset its area fights by, against that battlefield.
    pub fn start(
        campaign: &CampaignFile,
        battlefield: &dyn Fn(&str) -> Result<String, String>,
        hook: &dyn Fn(&str) -> Option<&'static dyn AnyMuster>,
    ) -> Result<Ledger, String> {
        campaign.check()?;
        let armies = campaign
            .armies
            .iter()
            .map(|a| enlist(campaign, a, battlefield, hook))
            .collect::<Result<Vec<_>, String>>()?;
        // Reinforcements are read now too, so that a slip in one is told
        // when the campaign is made, not on its day.
        for r in &campaign.reinforcements {
            enlist(campaign, &r.army, battlefield, hook)?;
        }
        let mut fields = BTreeMap::new();
        for a in &campaign.areas {
            if !fields.contains_key(&a.battlefield) {
                fields.insert(a.battlefield.clone(), battlefield(&a.battlefield)?);
            }
        }
        Ok(Ledger {
            campaign: campaign.clone(),
            day: 1,
            armies,
            fields,
            battles: Vec::new(),
            over: None,
        })
    }

    pub fn army(&self, id: &str) -> Option<&Army> {
        self.armies.iter().find(|a| a.id == id)
    }

    /// The ruleset of a battle in `area`.
    pub fn ruleset_at(&self, area: &str) -> &str {
        self.campaign
            .area(area)
            .and_then(|a| a.ruleset.as_deref())
            .unwrap_or(&self.campaign.ruleset)
    }

    /// The battles still being fought.
    pub fn open_battles(&self) -> impl Iterator<Item = &Battle> {
        self.battles.iter().filter(|b| b.result.is_none())
    }
}

/// An army of the file as the ledger holds it.
pub fn enlist(
    campaign: &CampaignFile,
    a: &ArmySpec,
    battlefield: &dyn Fn(&str) -> Result<String, String>,
    hook: &dyn Fn(&str) -> Option<&'static dyn AnyMuster>,
) -> Result<Army, String> {
    let area = campaign
        .area(&a.at)
        .ok_or_else(|| format!("army {}: there is no area {}", a.id, a.at))?;
    let ruleset = area.ruleset.as_deref().unwrap_or(&campaign.ruleset);
    let hook = hook(ruleset).ok_or_else(|| {
        format!(
            "area {}: no ruleset {ruleset} fights campaign battles",
            area.id
        )
    })?;
    let field = battlefield(&area.battlefield)?;
    let units = a
        .units
        .iter()
        .map(|u| {
            hook.enlist(&field, u)
                .map_err(|e| format!("army {}: {e}", a.id))
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(Army {
        id: a.id.clone(),
        side: a.side.clone(),
        name: a.name.clone(),
        commander: a.commander.clone(),
        at: a.at.clone(),
        came_from: None,
        units,
        in_battle: None,
    })
}
