//! A.4 and E.7: the capability chart through the scenario, as companies get it.

use crate::common::table;
use galloper::rulesets::morschauser_macduff::units::FireKind;

/// Move, fires (kind, range, hits on), front, rear, strength.
type Row = (f64, Vec<(FireKind, f64, u32)>, u32, u32, u32);

fn row(id: &str) -> Row {
    let s = table();
    let p = &s.company(id).expect("company").profile;
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

#[test]
fn a4_line_infantry_gets_the_musket_by_default() {
    assert_eq!(
        row("b-li"),
        (12.0, vec![(FireKind::Small, 6.0, 5)], 3, 1, 4)
    );
}

#[test]
fn a4_light_infantry() {
    assert_eq!(
        row("b-lt"),
        (15.0, vec![(FireKind::Small, 12.0, 5)], 2, 1, 3)
    );
}

#[test]
fn a4_heavy_cavalry_does_not_shoot() {
    assert_eq!(row("b-hc"), (18.0, vec![], 4, 2, 4));
}

#[test]
fn a4_artillery_has_canister_and_shot() {
    assert_eq!(
        row("b-art"),
        (
            12.0,
            vec![
                (FireKind::Canister, 12.0, 2),
                (FireKind::ShotShell, 36.0, 4)
            ],
            2,
            1,
            2
        )
    );
}

#[test]
fn a4_engineers_and_wagons() {
    assert_eq!(
        row("b-eng"),
        (12.0, vec![(FireKind::Small, 6.0, 6)], 2, 1, 3)
    );
    assert_eq!(row("b-wag"), (9.0, vec![], 1, 1, 2));
}

#[test]
fn a1_a_company_starts_at_full_strength() {
    let s = table();
    let c = s.company("b-li").unwrap();
    assert_eq!((c.strength(), c.hits), (4, 0));
}
