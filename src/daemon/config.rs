//! The daemon's configuration file (YAML). `deploy/galloper.yaml` is an
//! example with every option explained.

use serde::Deserialize;
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// The server's data folder (database, key, archive).
    pub data: PathBuf,
    /// Where rendered reports are kept; `DATA/reports` when absent.
    #[serde(default)]
    pub reports: Option<PathBuf>,
    /// The club's address: players send orders to it, plus-addressed
    /// (`club+GAME@example.org`) or not.
    pub club_address: String,
    /// The name on outgoing mail.
    #[serde(default = "default_name")]
    pub name: String,
    /// The Maildir the MTA delivers the club's mail into.
    #[serde(default)]
    pub maildir: Option<PathBuf>,
    /// How outgoing mail leaves; none keeps it queued (for tests and dry runs).
    #[serde(default)]
    pub smtp: Option<SmtpSection>,
    #[serde(default = "default_max_bytes")]
    pub max_message_bytes: usize,
    #[serde(default = "default_max_attachments")]
    pub max_attachments: usize,
    /// Seconds between polls of the Maildir in `serve`.
    #[serde(default = "default_poll")]
    pub poll_seconds: u64,
    /// Give up sending a mail this long after it was queued, and alert the game master.
    #[serde(default = "default_give_up")]
    pub give_up_hours: u64,
    /// Replies to any one address per hour, at most.
    #[serde(default = "default_replies")]
    pub replies_per_hour: u32,
    /// The game master's address, for alerts.
    #[serde(default)]
    pub game_master: Option<String>,
    /// The game master's OpenSSH public key file (`.pub`): his signed
    /// commands are taken only when it is set.
    #[serde(default)]
    pub game_master_key: Option<PathBuf>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SmtpSection {
    pub host: String,
    pub port: u16,
    /// `starttls` (submission, port 587), `tls` (port 465), or `plain` (loopback only).
    pub security: String,
    #[serde(default)]
    pub user: Option<String>,
    /// A file holding the password (kept out of this file).
    #[serde(default)]
    pub password_file: Option<PathBuf>,
    #[serde(default = "default_timeout")]
    pub timeout_seconds: u64,
}

fn default_name() -> String {
    "Galloper".into()
}
fn default_max_bytes() -> usize {
    1024 * 1024
}
fn default_max_attachments() -> usize {
    6
}
fn default_poll() -> u64 {
    30
}
fn default_give_up() -> u64 {
    48
}
fn default_replies() -> u32 {
    20
}
fn default_timeout() -> u64 {
    30
}

impl Config {
    pub fn load(path: &Path) -> anyhow::Result<Config> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            anyhow::anyhow!("cannot read the configuration {}: {e}", path.display())
        })?;
        let c: Config = serde_yaml::from_str(&text).map_err(|e| {
            anyhow::anyhow!(
                "{}: {e} (see deploy/galloper.yaml for every option)",
                path.display()
            )
        })?;
        c.check()?;
        c.game_master_key_line()?;
        Ok(c)
    }

    /// The game master's public key line, read from `game_master_key`.
    pub fn game_master_key_line(&self) -> anyhow::Result<Option<String>> {
        let Some(path) = &self.game_master_key else {
            return Ok(None);
        };
        let line = std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("cannot read game_master_key {}: {e}", path.display()))?;
        crate::sig::parse_public(&line).map_err(|e| {
            anyhow::anyhow!(
                "game_master_key {}: {e} (it must be the game master's .pub file)",
                path.display()
            )
        })?;
        Ok(Some(line.trim().to_string()))
    }

    fn check(&self) -> anyhow::Result<()> {
        let (local, domain) = self.club_parts();
        if local.is_empty() || domain.is_empty() {
            anyhow::bail!(
                "club_address must look like club@example.org, not {:?}",
                self.club_address
            );
        }
        Ok(())
    }

    /// The local part and the domain of the club address.
    pub fn club_parts(&self) -> (String, String) {
        match self.club_address.rsplit_once('@') {
            Some((l, d)) => (l.to_ascii_lowercase(), d.to_ascii_lowercase()),
            None => (String::new(), String::new()),
        }
    }

    pub fn reports_dir(&self) -> PathBuf {
        self.reports
            .clone()
            .unwrap_or_else(|| self.data.join("reports"))
    }
}
