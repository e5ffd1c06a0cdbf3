//! The national tables (the source's last pages): each troop type's fire,
//! rally and melee modifiers, and which types earn the light movement bonus.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Nation {
    French,
    Austrian,
    /// House rule: the source names British troops only in the cavalry
    /// control table; they use the French table.
    British,
    /// King's German Legion: as British, without the control penalty.
    Kgl,
}

impl Nation {
    pub fn label(self) -> &'static str {
        match self {
            Nation::French => "French",
            Nation::Austrian => "Austrian",
            Nation::British => "British",
            Nation::Kgl => "KGL",
        }
    }
}

/// The three arms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Arm {
    Infantry,
    Cavalry,
    Artillery,
}

/// Every troop type the national tables name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Troop {
    Guard,
    Grenadier,
    LightInfantry,
    Line,
    VeteranLine,
    Conscript,
    Jager,
    Grenz,
    Militia,
    HeavyCavalry,
    Lancer,
    MediumCavalry,
    LightCavalry,
    HeavyBattery,
    MediumBattery,
    LightBattery,
    MediumHorseBattery,
    LightHorseBattery,
}

impl Troop {
    pub fn arm(self) -> Arm {
        use Troop::*;
        match self {
            Guard | Grenadier | LightInfantry | Line | VeteranLine | Conscript | Jager | Grenz
            | Militia => Arm::Infantry,
            HeavyCavalry | Lancer | MediumCavalry | LightCavalry => Arm::Cavalry,
            _ => Arm::Artillery,
        }
    }

    /// The asterisked types: the light movement bonus.
    pub fn light(self) -> bool {
        use Troop::*;
        matches!(
            self,
            LightInfantry | Jager | Grenz | LightCavalry | LightBattery | LightHorseBattery
        )
    }

    pub fn horse_artillery(self) -> bool {
        matches!(self, Troop::MediumHorseBattery | Troop::LightHorseBattery)
    }

    /// Fire: a battery's normal range in cm (heavy 20, medium 15, light 10).
    pub fn battery_range(self) -> Option<f64> {
        use Troop::*;
        match self {
            HeavyBattery => Some(20.0),
            MediumBattery | MediumHorseBattery => Some(15.0),
            LightBattery | LightHorseBattery => Some(10.0),
            _ => None,
        }
    }

    pub fn label(self) -> &'static str {
        use Troop::*;
        match self {
            Guard => "Guard infantry",
            Grenadier => "grenadiers",
            LightInfantry => "light infantry",
            Line => "line infantry",
            VeteranLine => "veteran line",
            Conscript => "conscripts",
            Jager => "Jäger",
            Grenz => "Grenzer",
            Militia => "militia/Landwehr",
            HeavyCavalry => "heavy cavalry",
            Lancer => "lancers",
            MediumCavalry => "medium cavalry",
            LightCavalry => "light cavalry",
            HeavyBattery => "heavy foot battery",
            MediumBattery => "medium foot battery",
            LightBattery => "light foot battery",
            MediumHorseBattery => "medium horse battery",
            LightHorseBattery => "light horse battery",
        }
    }
}

/// One row of a national table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mods {
    /// None: the type does not fire (cavalry, "-").
    pub fire: Option<i32>,
    pub rally: i32,
    pub melee: i32,
    /// Lancers' bracketed "(5)": their melee when they charged this turn
    /// (house reading of the bracket).
    pub melee_charging: Option<i32>,
}

const fn row(fire: i32, rally: i32, melee: i32) -> Mods {
    Mods {
        fire: Some(fire),
        rally,
        melee,
        melee_charging: None,
    }
}

const fn horse(rally: i32, melee: i32) -> Mods {
    Mods {
        fire: None,
        rally,
        melee,
        melee_charging: None,
    }
}

/// The row for `troop` in `nation`'s table, with the Guard artillery's +1
/// to each value when `guard`; None when the nation has no such troops.
pub fn mods(nation: Nation, troop: Troop, guard: bool) -> Option<Mods> {
    use Troop::*;
    let lancer = Mods {
        fire: None,
        rally: 1,
        melee: 3,
        melee_charging: Some(5),
    };
    let base = match (nation, troop) {
        (_, HeavyBattery) => row(2, 1, 3),
        (_, MediumBattery) | (_, MediumHorseBattery) => row(1, 1, 2),
        (_, LightBattery) | (_, LightHorseBattery) => row(0, 0, 1),
        (_, Lancer) => lancer,
        (_, MediumCavalry) => horse(1, 3),
        (_, LightCavalry) => horse(0, 2),
        (Nation::Austrian, HeavyCavalry) => horse(2, 5),
        (_, HeavyCavalry) => horse(1, 5),
        (Nation::Austrian, Grenadier) => row(1, 2, 6),
        (Nation::Austrian, Jager) => row(2, 1, 2),
        (Nation::Austrian, Grenz) => row(2, 0, 2),
        (Nation::Austrian, LightInfantry) => row(1, 1, 3),
        // House rule: the Austrian line's melee reads 0 in the source, below
        // its militia's 2; read as 3, one under the French line.
        (Nation::Austrian, Line) => row(0, 1, 3),
        (Nation::Austrian, VeteranLine) => row(1, 2, 4),
        (Nation::Austrian, Militia) => row(-1, -1, 2),
        (Nation::Austrian, _) => return None,
        (_, Guard) => row(2, 2, 7),
        (_, Grenadier) => row(1, 2, 5),
        (_, LightInfantry) => row(2, 1, 3),
        (_, Line) => row(1, 1, 4),
        (_, VeteranLine) => row(1, 2, 4),
        (_, Conscript) => row(-1, -1, 2),
        (_, Jager | Grenz | Militia) => return None,
    };
    // The French table's "GD Arty" row: +1 to fire, rally and melee.
    let plus = i32::from(guard && troop.arm() == Arm::Artillery);
    Some(Mods {
        fire: base.fire.map(|f| f + plus),
        rally: base.rally + plus,
        melee: base.melee + plus,
        melee_charging: base.melee_charging,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn french_table_rows() {
        // National tables, French: Guard 2/2/7, Conscript -1/-1/2, heavy cavalry -/1/5.
        assert_eq!(
            mods(Nation::French, Troop::Guard, false),
            Some(row(2, 2, 7))
        );
        assert_eq!(
            mods(Nation::French, Troop::Conscript, false),
            Some(row(-1, -1, 2))
        );
        assert_eq!(
            mods(Nation::French, Troop::HeavyCavalry, false),
            Some(horse(1, 5))
        );
        assert_eq!(mods(Nation::French, Troop::Jager, false), None);
    }

    #[test]
    fn austrian_table_rows() {
        // National tables, Austrian: Grenadier 1/2/6, Grenz 2/0/2, heavy cavalry rally 2.
        assert_eq!(
            mods(Nation::Austrian, Troop::Grenadier, false),
            Some(row(1, 2, 6))
        );
        assert_eq!(
            mods(Nation::Austrian, Troop::Grenz, false),
            Some(row(2, 0, 2))
        );
        assert_eq!(
            mods(Nation::Austrian, Troop::HeavyCavalry, false).map(|m| m.rally),
            Some(2)
        );
        assert_eq!(mods(Nation::Austrian, Troop::Guard, false), None);
        // House rule: Austrian line melee 3.
        assert_eq!(
            mods(Nation::Austrian, Troop::Line, false).map(|m| m.melee),
            Some(3)
        );
    }

    #[test]
    fn guard_artillery_adds_one_to_each() {
        // French table, GD Arty: +1 / +1 / +1 on the battery's row.
        assert_eq!(
            mods(Nation::French, Troop::HeavyBattery, true),
            Some(row(3, 2, 4))
        );
    }

    #[test]
    fn lancers_melee_five_when_charging() {
        let m = mods(Nation::Austrian, Troop::Lancer, false).unwrap();
        assert_eq!((m.melee, m.melee_charging, m.fire), (3, Some(5), None));
    }

    #[test]
    fn light_bonus_goes_to_the_asterisked_types() {
        assert!(Troop::Jager.light() && Troop::LightHorseBattery.light());
        assert!(!Troop::Line.light() && !Troop::HeavyCavalry.light());
    }

    #[test]
    fn battery_ranges() {
        // Fire: heavy 20 cm, medium 15 cm, light 10 cm.
        assert_eq!(Troop::HeavyBattery.battery_range(), Some(20.0));
        assert_eq!(Troop::MediumHorseBattery.battery_range(), Some(15.0));
        assert_eq!(Troop::LightBattery.battery_range(), Some(10.0));
        assert_eq!(Troop::Line.battery_range(), None);
    }
}
