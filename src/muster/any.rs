//! The campaign hook seen through YAML text, so that a campaign holds any
//! ruleset's battles without knowing its types.

use super::{Carried, Force, Muster, Mustered};
use crate::ruleset::Ruleset;
use crate::side::SideId;

/// [`Muster`] of some ruleset, on scenarios and states as YAML text.
pub trait AnyMuster: Sync {
    fn name(&self) -> &'static str;
    fn strength_word(&self) -> &'static str;
    fn roster(&self, scenario: &str) -> Result<Vec<(SideId, Mustered)>, String>;
    fn enlist(&self, field: &str, spec: &serde_yaml::Value) -> Result<Mustered, String>;
    fn muster(&self, field: &str, forces: &[Force]) -> Result<String, String>;
    fn carry(&self, state: &str) -> Result<Vec<Carried>, String>;
}

impl<R: Muster> AnyMuster for R {
    fn name(&self) -> &'static str {
        Ruleset::name(self)
    }
    fn strength_word(&self) -> &'static str {
        Muster::strength_word(self)
    }
    fn roster(&self, scenario: &str) -> Result<Vec<(SideId, Mustered)>, String> {
        Muster::roster(self, &read::<R::Scenario>(scenario, "scenario")?)
    }
    fn enlist(&self, field: &str, spec: &serde_yaml::Value) -> Result<Mustered, String> {
        Muster::enlist(self, &read::<R::Scenario>(field, "battlefield")?, spec)
    }
    fn muster(&self, field: &str, forces: &[Force]) -> Result<String, String> {
        let field: R::Scenario = read(field, "battlefield")?;
        let battle = Muster::muster(self, &field, forces)?;
        let scenario = crate::yaml::to_string(&battle).map_err(|e| e.to_string())?;
        // What a battle begins with goes through the same checks as any
        // scenario an organiser writes.
        let parsed: R::Scenario = read(&scenario, "mustered scenario")?;
        self.check_scenario(&parsed)
            .map_err(|e| format!("the mustered battle does not hold: {e}"))?;
        Ok(scenario)
    }
    fn carry(&self, state: &str) -> Result<Vec<Carried>, String> {
        Ok(Muster::carry(self, &read::<R::State>(state, "state")?))
    }
}

fn read<T: serde::de::DeserializeOwned>(text: &str, what: &str) -> Result<T, String> {
    crate::yaml::from_str(text).map_err(|e| format!("the {what} does not parse: {e}"))
}
