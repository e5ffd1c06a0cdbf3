//! The game master's commands that change a player: his address, his key.

use super::{CommandRefusal, Issued, server_err};
use crate::archive::{self, KeyChange};
use crate::server::Server;
use crate::server::store::{AdminChange, PlayerRow};
use crate::side::SideId;
use crate::sig;

impl Server {
    /// A player's new address; he is told at the old and the new one.
    pub fn replace_address(
        &mut self,
        c: &Issued,
        side: &SideId,
        email: &str,
    ) -> Result<String, CommandRefusal> {
        let game = &c.file.game;
        self.not_over(game)?;
        let email = crate::mail::address::check(email)
            .map_err(|e| CommandRefusal::NotNow(e.to_string()))?;
        let email = email.as_str();
        let old = self.player(game, side)?.email;
        let mut text = format!(
            "The game master has changed the address of {side} in game {game} from {old} to {email}: reports and replies go to the new address from now on."
        );
        // An address stored before addresses were checked cannot be written
        // to: the repair must not fail on the very address it repairs.
        let old_deliverable = crate::mail::address::check(&old).is_ok();
        if !old_deliverable {
            text.push_str(
                "\nThe old address is not one mail can be sent to: only the new one is told.",
            );
        }
        let mut mails = Vec::new();
        mails.extend(self.notice_mail(c, game, side.as_str(), email, "New address", &text)?);
        if old_deliverable {
            mails.extend(self.notice_mail(
                c,
                game,
                &format!("{side}-old"),
                &old,
                "New address",
                &text,
            )?);
        }
        let change = AdminChange::Address {
            side: side.clone(),
            email: email.to_string(),
        };
        self.record(c, &text, &change, mails)
    }

    fn player(&self, game: &str, side: &SideId) -> Result<PlayerRow, CommandRefusal> {
        self.store
            .players(game)
            .map_err(server_err)?
            .into_iter()
            .find(|p| &p.side == side)
            .ok_or_else(|| CommandRefusal::UnknownSide {
                game: game.into(),
                side: side.to_string(),
            })
    }

    /// A player's new key, from the open step on. It goes into the public
    /// archive, signed by the server; orders the side sent for the open
    /// step with the old key are set aside.
    pub fn replace_key(
        &mut self,
        c: &Issued,
        side: &SideId,
        key: &str,
    ) -> Result<String, CommandRefusal> {
        let game = &c.file.game;
        self.not_over(game)?;
        self.player(game, side)?;
        let parsed = sig::parse_public(key).map_err(CommandRefusal::Signature)?;
        let key = parsed.to_openssh().map_err(server_err)?;
        let open = self
            .store
            .open_step(game)
            .map_err(server_err)?
            .ok_or_else(|| CommandRefusal::NotNow(format!("game {game} has no open step")))?;
        let set_aside = self
            .store
            .latest_orders(game, open.step)
            .map_err(server_err)?
            .contains_key(side);
        let fp = sig::fingerprint(&key).map_err(CommandRefusal::Signature)?;
        let mut text = format!(
            "The game master has replaced the key of {side} in game {game}: from step {} on, orders must be signed with the key {fp}. Orders signed with the old key are refused.",
            open.step
        );
        if set_aside {
            text.push_str(&format!(
                "\nThe orders {side} sent for step {} with the old key are set aside: send them again, signed with the new key.",
                open.step
            ));
        }
        // The archive first: a crash before the store is written leaves a
        // second, identical change when the command is handled again.
        let root = self.archive_dir(game);
        let n = archive::key_changes(&root).len() + 1;
        let change = KeyChange {
            game: game.clone(),
            side: side.to_string(),
            from_step: open.step,
            key: key.clone(),
            command_sha256: c.sha256.clone(),
        };
        archive::write_signed(
            &archive::keys_dir(&root),
            &format!("change-{n:03}.yaml"),
            crate::yaml::to_string(&change)
                .map_err(server_err)?
                .as_bytes(),
            self.private_key(),
        )
        .map_err(server_err)?;
        let mails = self.tell_everyone(c, game, &format!("New key for {side}"), &text)?;
        let change = AdminChange::Key {
            side: side.clone(),
            key,
            open_step: open.step,
        };
        self.record(c, &text, &change, mails)
    }
}
