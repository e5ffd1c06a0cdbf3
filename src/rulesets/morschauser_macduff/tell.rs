//! A half-turn told to one reader: each event in its own words with its
//! dice beneath; "What changed" names the companies destroyed and sums the
//! strength points each lost.

use crate::dice::DieRecord;
use crate::event::Event;
use crate::event::tell::{self, Told};
use crate::view::Viewer;

pub fn tell(events: &[Event], dice: &[DieRecord], viewer: &Viewer) -> Told {
    tell::own_words_and(events, dice, viewer, |seen| {
        tell::removed(seen, "Destroyed")
            .into_iter()
            .chain(tell::sums(seen, "Strength points lost", |of| of == "SP"))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{Facts, Kind, Loss, UnitRef, Visibility};
    use crate::side::SideId;

    #[test]
    fn what_changed_names_losses_and_not_what_was_regained() {
        let coy = UnitRef {
            id: "br-r1".into(),
            name: "95th Rifles, 1st Coy".into(),
            side: SideId("british".into()),
        };
        let loss = |amount, of: &str| {
            Event::new(
                Visibility::Public,
                Kind::Loss,
                "sp_left",
                Facts {
                    unit: Some(coy.clone()),
                    losses: vec![Loss {
                        unit: "br-r1".into(),
                        amount,
                        of: of.into(),
                    }],
                    ..Facts::default()
                },
                "a loss",
            )
        };
        let events = [loss(2, "SP"), loss(1, "SP regained"), loss(1, "SP")];
        let told = tell(&events, &[], &Viewer::Public);
        assert_eq!(
            told.changed,
            vec!["Strength points lost: 95th Rifles, 1st Coy (br-r1) +3".to_string()]
        );
        assert_eq!(told.lines.len(), 3);
        assert_eq!(told.lines[0].text, "a loss");
    }
}
