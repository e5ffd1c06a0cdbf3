//! The troop capability chart (source A.3, A.4 and E.7), in inches.
//!
//! A company's profile is its chart row, then its advanced variant, then its
//! qualities, then any scenario-defined special troop overrides.

use crate::geometry::Distance;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The basic troop types (A.3).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum TroopType {
    LineInfantry,
    LightInfantry,
    /// The chart's plain "Cavalry" row (A.3c calls it heavy cavalry).
    HeavyCavalry,
    LightCavalry,
    Artillery,
    Engineers,
    /// Baggage: wagons and the like.
    Wagons,
}

impl TroopType {
    pub fn label(self) -> &'static str {
        match self {
            TroopType::LineInfantry => "line infantry",
            TroopType::LightInfantry => "light infantry",
            TroopType::HeavyCavalry => "heavy cavalry",
            TroopType::LightCavalry => "light cavalry",
            TroopType::Artillery => "artillery",
            TroopType::Engineers => "engineers",
            TroopType::Wagons => "wagons",
        }
    }
    /// B.3: artillery, engineers and wagons may not charge.
    pub fn may_charge(self) -> bool {
        !matches!(
            self,
            TroopType::Artillery | TroopType::Engineers | TroopType::Wagons
        )
    }
    pub fn is_infantry(self) -> bool {
        matches!(self, TroopType::LineInfantry | TroopType::LightInfantry)
    }
    pub fn is_cavalry(self) -> bool {
        matches!(self, TroopType::HeavyCavalry | TroopType::LightCavalry)
    }
    /// The weapon a company of this type carries when the scenario names none.
    pub fn default_weapon(self) -> Weapon {
        match self {
            TroopType::LineInfantry | TroopType::LightInfantry | TroopType::Engineers => {
                Weapon::Musket
            }
            TroopType::LightCavalry => Weapon::Carbine,
            TroopType::Artillery => Weapon::Cannon,
            TroopType::HeavyCavalry | TroopType::Wagons => Weapon::None,
        }
    }
}

/// What a company shoots with.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Weapon {
    Musket,
    Rifle,
    Carbine,
    /// Canister at short range, shot and shell at long range.
    Cannon,
    None,
}

impl Weapon {
    pub fn label(self) -> &'static str {
        match self {
            Weapon::Musket => "musket",
            Weapon::Rifle => "rifle",
            Weapon::Carbine => "carbine",
            Weapon::Cannon => "cannon",
            Weapon::None => "no weapon",
        }
    }
}

/// Advanced artillery variants (E.7 d-i). Field guns are the chart row.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum GunVariant {
    #[default]
    Field,
    BattalionGun,
    Horse,
    Heavy,
    Howitzer,
    Rifled,
}

/// Advanced troop qualities (E.7 a-c, f, l-n).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Quality {
    /// +1 front and rear melee, at most 5.
    Elite,
    /// Light infantry only: hits on 4, 5 or 6.
    Sharpshooter,
    /// -1 front and rear melee, at least 1.
    Militia,
    /// Every shot hits on a 6 only.
    InferiorFirepower,
    /// Artillery without military drivers: no moving and shooting in one turn.
    Early,
    /// May charge without orders under command control.
    Impetuous,
    /// May refuse to charge under command control.
    Cautious,
    /// Rallies more easily.
    Stubborn,
}

/// Which kind of fire a weapon range is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FireKind {
    /// Small arms (musket, rifle, carbine).
    Small,
    Canister,
    ShotShell,
}

/// One weapon range: fire out to `range`, hitting on `hits_on` or more.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Fire {
    pub kind: FireKind,
    pub range: Distance,
    /// The lowest score that hits (5 means 5 or 6).
    pub hits_on: u32,
}

/// A company's capabilities once every rule has been applied.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    pub troop: TroopType,
    pub weapon: Weapon,
    /// Maximum move on open ground.
    pub movement: Distance,
    /// Shortest range first.
    pub fires: Vec<Fire>,
    pub front: u32,
    pub rear: u32,
    pub strength: u32,
    /// Early artillery: no moving and shooting in the same turn.
    #[serde(default)]
    pub no_move_and_shoot: bool,
    /// Heavy artillery: the town penalty to hit is only -1 (E.7g).
    #[serde(default)]
    pub town_penalty: u32,
    /// Howitzers: overhead fire with shell, hitting on 6 only (B.5, E.7h).
    #[serde(default)]
    pub overhead: bool,
    /// Special troops: front melee value when charging.
    #[serde(default)]
    pub charging_front: Option<u32>,
}

impl Profile {
    /// The longest range the company can shoot at, if any.
    pub fn max_range(&self) -> Option<Distance> {
        self.fires.iter().map(|f| f.range).reduce(Distance::max)
    }
}

fn fire(kind: FireKind, range: f64, hits_on: u32) -> Fire {
    Fire {
        kind,
        range: Distance(range),
        hits_on,
    }
}

/// The chart row (A.4) for `troop` armed with `weapon`, or why there is none.
///
/// House rule (wagons): the source's wagons row reads "9" None 1 1 2" with
/// no score column; read as move 9", no shooting, melee 1 front and 1 rear,
/// 2 strength points.
pub fn chart(troop: TroopType, weapon: Weapon) -> Result<Profile, String> {
    use FireKind::*;
    use TroopType::*;
    use Weapon as W;
    let (movement, fires, front, rear, strength) = match (troop, weapon) {
        (LineInfantry, W::Musket) => (12.0, vec![fire(Small, 6.0, 5)], 3, 1, 4),
        (LineInfantry, W::Rifle) => (12.0, vec![fire(Small, 18.0, 5)], 3, 1, 4),
        (LightInfantry, W::Musket) => (15.0, vec![fire(Small, 12.0, 5)], 2, 1, 3),
        (LightInfantry, W::Rifle) => (15.0, vec![fire(Small, 18.0, 5)], 2, 1, 3),
        (HeavyCavalry, W::None) => (18.0, vec![], 4, 2, 4),
        (LightCavalry, W::Carbine) => (24.0, vec![fire(Small, 6.0, 6)], 3, 1, 3),
        (Artillery, W::Cannon) => (
            12.0,
            vec![fire(Canister, 12.0, 2), fire(ShotShell, 36.0, 4)],
            2,
            1,
            2,
        ),
        (Engineers, W::Musket) => (12.0, vec![fire(Small, 6.0, 6)], 2, 1, 3),
        (Engineers, W::Rifle) => (12.0, vec![fire(Small, 18.0, 6)], 2, 1, 3),
        (Wagons, W::None) => (9.0, vec![], 1, 1, 2),
        (t, w) => {
            return Err(format!(
                "the chart has no {} armed with {}: use {}",
                t.label(),
                w.label(),
                allowed_weapons(t)
                    .iter()
                    .map(|w| w.label())
                    .collect::<Vec<_>>()
                    .join(" or ")
            ));
        }
    };
    Ok(Profile {
        troop,
        weapon,
        movement: Distance(movement),
        fires,
        front,
        rear,
        strength,
        no_move_and_shoot: false,
        town_penalty: 2,
        overhead: false,
        charging_front: None,
    })
}

/// The weapons the chart gives a troop type.
pub fn allowed_weapons(t: TroopType) -> &'static [Weapon] {
    match t {
        TroopType::LineInfantry | TroopType::LightInfantry | TroopType::Engineers => {
            &[Weapon::Musket, Weapon::Rifle]
        }
        TroopType::HeavyCavalry | TroopType::Wagons => &[Weapon::None],
        TroopType::LightCavalry => &[Weapon::Carbine],
        TroopType::Artillery => &[Weapon::Cannon],
    }
}

/// Apply an artillery variant (E.7 d, e, g, h, i) to a chart row.
///
/// House rules: a battalion gun's 24" is its shot range (canister stays
/// 12"); a howitzer's 24" maximum shortens its shot and shell, and its
/// overhead shell hits on 6 only (B.5).
pub fn apply_variant(p: &mut Profile, v: GunVariant) {
    let set_long = |p: &mut Profile, range: f64| {
        for f in p.fires.iter_mut().filter(|f| f.kind == FireKind::ShotShell) {
            f.range = Distance(range);
        }
    };
    match v {
        GunVariant::Field => {}
        GunVariant::BattalionGun => {
            set_long(p, 24.0);
            p.strength = 1;
            p.movement = Distance(9.0);
        }
        GunVariant::Horse => p.movement = Distance(24.0),
        GunVariant::Heavy => {
            p.movement = Distance(6.0);
            p.strength = 3;
            p.town_penalty = 1;
        }
        GunVariant::Howitzer => {
            set_long(p, 24.0);
            p.overhead = true;
        }
        GunVariant::Rifled => {
            set_long(p, 48.0);
            for f in p.fires.iter_mut().filter(|f| f.kind == FireKind::Canister) {
                f.hits_on = 3;
            }
        }
    }
}

/// Apply qualities (E.7 a, b, c, f) to a profile. Melee values stay within
/// 1 to 5 whatever is stacked.
pub fn apply_qualities(p: &mut Profile, qualities: &[Quality]) {
    for q in qualities {
        match q {
            Quality::Elite => {
                p.front = (p.front + 1).min(5);
                p.rear = (p.rear + 1).min(5);
            }
            Quality::Militia => {
                p.front = p.front.saturating_sub(1).max(1);
                p.rear = p.rear.saturating_sub(1).max(1);
            }
            Quality::Sharpshooter if p.troop == TroopType::LightInfantry => {
                for f in &mut p.fires {
                    f.hits_on = f.hits_on.min(4);
                }
            }
            Quality::Early => p.no_move_and_shoot = true,
            _ => {}
        }
    }
    // Inferior firepower last, so that it wins over sharpshooting.
    if qualities.contains(&Quality::InferiorFirepower) {
        for f in &mut p.fires {
            f.hits_on = 6;
        }
    }
}

/// Whether a quality makes sense for a troop type (checked in scenarios).
pub fn quality_fits(q: Quality, t: TroopType) -> bool {
    match q {
        Quality::Sharpshooter => t == TroopType::LightInfantry,
        Quality::Early => t == TroopType::Artillery,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pin a whole row: move, fires (kind, range, hits on), front, rear, SP.
    /// Move, fires (kind, range, hits on), front, rear, strength.
    type Row = (f64, Vec<(FireKind, f64, u32)>, u32, u32, u32);

    fn row(t: TroopType, w: Weapon) -> Row {
        let p = chart(t, w).expect("row exists");
        (
            p.movement.get(),
            p.fires
                .iter()
                .map(|f| (f.kind, f.range.get(), f.hits_on))
                .collect(),
            p.front,
            p.rear,
            p.strength,
        )
    }

    use FireKind::*;
    use TroopType::*;

    #[test]
    fn line_infantry_musket() {
        assert_eq!(
            row(LineInfantry, Weapon::Musket),
            (12.0, vec![(Small, 6.0, 5)], 3, 1, 4)
        );
    }
    #[test]
    fn line_infantry_rifle() {
        assert_eq!(
            row(LineInfantry, Weapon::Rifle),
            (12.0, vec![(Small, 18.0, 5)], 3, 1, 4)
        );
    }
    #[test]
    fn light_infantry_musket() {
        assert_eq!(
            row(LightInfantry, Weapon::Musket),
            (15.0, vec![(Small, 12.0, 5)], 2, 1, 3)
        );
    }
    #[test]
    fn light_infantry_rifle() {
        assert_eq!(
            row(LightInfantry, Weapon::Rifle),
            (15.0, vec![(Small, 18.0, 5)], 2, 1, 3)
        );
    }
    #[test]
    fn heavy_cavalry() {
        assert_eq!(row(HeavyCavalry, Weapon::None), (18.0, vec![], 4, 2, 4));
    }
    #[test]
    fn light_cavalry_carbine() {
        assert_eq!(
            row(LightCavalry, Weapon::Carbine),
            (24.0, vec![(Small, 6.0, 6)], 3, 1, 3)
        );
    }
    #[test]
    fn artillery_canister_and_shot() {
        assert_eq!(
            row(Artillery, Weapon::Cannon),
            (
                12.0,
                vec![(Canister, 12.0, 2), (ShotShell, 36.0, 4)],
                2,
                1,
                2
            )
        );
    }
    #[test]
    fn engineers_musket() {
        assert_eq!(
            row(Engineers, Weapon::Musket),
            (12.0, vec![(Small, 6.0, 6)], 2, 1, 3)
        );
    }
    #[test]
    fn engineers_rifle() {
        assert_eq!(
            row(Engineers, Weapon::Rifle),
            (12.0, vec![(Small, 18.0, 6)], 2, 1, 3)
        );
    }
    #[test]
    fn wagons_house_rule() {
        assert_eq!(row(Wagons, Weapon::None), (9.0, vec![], 1, 1, 2));
    }
    #[test]
    fn no_row_for_a_weapon_the_chart_does_not_give() {
        let e = chart(HeavyCavalry, Weapon::Rifle).unwrap_err();
        assert!(e.contains("no weapon"), "{e}");
        assert!(chart(Artillery, Weapon::Musket).is_err());
    }

    fn gun(v: GunVariant) -> Profile {
        let mut p = chart(Artillery, Weapon::Cannon).unwrap();
        apply_variant(&mut p, v);
        p
    }

    #[test]
    fn battalion_gun() {
        let p = gun(GunVariant::BattalionGun);
        assert_eq!((p.movement.get(), p.strength), (9.0, 1));
        assert_eq!(p.max_range(), Some(Distance(24.0)));
    }
    #[test]
    fn horse_artillery() {
        let p = gun(GunVariant::Horse);
        assert_eq!((p.movement.get(), p.strength), (24.0, 2));
    }
    #[test]
    fn heavy_artillery() {
        let p = gun(GunVariant::Heavy);
        assert_eq!((p.movement.get(), p.strength, p.town_penalty), (6.0, 3, 1));
    }
    #[test]
    fn howitzer() {
        let p = gun(GunVariant::Howitzer);
        assert!(p.overhead);
        assert_eq!(p.max_range(), Some(Distance(24.0)));
    }
    #[test]
    fn rifled_artillery() {
        let p = gun(GunVariant::Rifled);
        assert_eq!(p.max_range(), Some(Distance(48.0)));
        assert_eq!(p.fires[0].hits_on, 3);
    }
    #[test]
    fn elite_is_capped_at_five_and_militia_floored_at_one() {
        let mut p = chart(HeavyCavalry, Weapon::None).unwrap();
        apply_qualities(&mut p, &[Quality::Elite, Quality::Elite]);
        assert_eq!((p.front, p.rear), (5, 4));
        let mut w = chart(Wagons, Weapon::None).unwrap();
        apply_qualities(&mut w, &[Quality::Militia]);
        assert_eq!((w.front, w.rear), (1, 1));
    }
    #[test]
    fn sharpshooters_and_inferior_firepower() {
        let mut p = chart(LightInfantry, Weapon::Rifle).unwrap();
        apply_qualities(&mut p, &[Quality::Sharpshooter]);
        assert_eq!(p.fires[0].hits_on, 4);
        apply_qualities(&mut p, &[Quality::InferiorFirepower]);
        assert_eq!(p.fires[0].hits_on, 6);
        // Sharpshooting is for light infantry only.
        let mut l = chart(LineInfantry, Weapon::Musket).unwrap();
        apply_qualities(&mut l, &[Quality::Sharpshooter]);
        assert_eq!(l.fires[0].hits_on, 5);
    }
    #[test]
    fn early_artillery() {
        let mut p = chart(Artillery, Weapon::Cannon).unwrap();
        apply_qualities(&mut p, &[Quality::Early]);
        assert!(p.no_move_and_shoot);
    }
}
