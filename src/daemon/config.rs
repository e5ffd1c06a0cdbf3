//! The daemon's configuration file (YAML). `deploy/galloper.yaml` is an
//! example with every option explained.

use crate::mail::imap::ImapConfig;
use crate::mail::smtp::Security;
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
    /// The club's mailbox on an IMAP server (instead of, or beside, `maildir`).
    #[serde(default)]
    pub imap: Option<ImapSection>,
    /// How outgoing mail leaves; none keeps it queued (for tests and dry runs).
    #[serde(default)]
    pub smtp: Option<SmtpSection>,
    #[serde(default = "default_max_bytes")]
    pub max_message_bytes: usize,
    #[serde(default = "default_max_attachments")]
    pub max_attachments: usize,
    /// Seconds between polls of the Maildir in `serve`; with IMAP, the
    /// longest wait for new mail (IDLE wakes the daemon earlier).
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
    /// A drand relay (`https://api.drand.sh`) from which the daemon fetches
    /// the rounds of beacon games' steps; without it, rounds are put in
    /// `DATA/beacon/CHAIN/` by the operator (`galloper beacon add`).
    #[serde(default)]
    pub beacon_relay: Option<String>,
    /// Where the club publishes its site (`galloper site --out`), such as
    /// `https://club.example.org/games/`: report mails name each game's
    /// page there (`SITE/GAME.html`) as the place of the step's archive
    /// files, which they no longer carry.
    #[serde(default)]
    pub site_url: Option<String>,
    /// Whether report and briefing mails carry the orders page
    /// (`GAME-step-N-SIDE-orders.html`, some 300 to 400 KB, docs/ORDERS-PAGE.md)
    /// beside the orders template. On by default; a club whose players'
    /// mailboxes are small may turn it off (`galloper orders page` still
    /// writes it, and the reports folder holds it).
    #[serde(default = "on")]
    pub orders_page: bool,
}

fn on() -> bool {
    true
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

/// The `imap:` section: where the club's mailbox is, and how to log in.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImapSection {
    pub host: String,
    /// Default: 993 with `tls`, 143 otherwise.
    #[serde(default)]
    pub port: Option<u16>,
    /// `tls` (implicit TLS, port 993), `starttls` (port 143), or `plain` (loopback only).
    #[serde(default = "default_imap_security")]
    pub security: Security,
    pub user: String,
    /// A file holding the password (kept out of this file).
    pub password_file: PathBuf,
    #[serde(default = "default_mailbox")]
    pub mailbox: String,
    /// Handled messages are moved here; when absent they stay, marked seen.
    #[serde(default)]
    pub processed_mailbox: Option<String>,
    /// Wait for new mail with IDLE when the server offers it.
    #[serde(default = "default_true")]
    pub idle: bool,
    #[serde(default = "default_timeout")]
    pub timeout_seconds: u64,
}

impl ImapSection {
    /// The connection settings, with the password read from its file.
    pub fn settings(&self) -> anyhow::Result<ImapConfig> {
        let p = &self.password_file;
        let password = std::fs::read_to_string(p)
            .map_err(|e| anyhow::anyhow!("cannot read imap.password_file {}: {e}", p.display()))?
            .trim()
            .to_string();
        Ok(ImapConfig {
            host: self.host.clone(),
            port: self.port.unwrap_or(match self.security {
                Security::Tls => 993,
                _ => 143,
            }),
            security: self.security,
            user: self.user.clone(),
            password,
            mailbox: self.mailbox.clone(),
            processed_mailbox: self.processed_mailbox.clone(),
            idle: self.idle,
            timeout_secs: self.timeout_seconds.max(1),
        })
    }
}

fn default_imap_security() -> Security {
    Security::Tls
}
fn default_mailbox() -> String {
    "INBOX".into()
}
fn default_true() -> bool {
    true
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

    /// The club as the sender of every mail: its name and address.
    pub fn club_party(&self) -> crate::mail::compose::Party {
        crate::mail::compose::Party {
            name: Some(self.name.clone()),
            email: self.club_address.clone(),
        }
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
        // Every mail goes from the club's address, and alerts to the game
        // master's: refused here, not at the first mail of a batch.
        crate::mail::address::check(&self.club_address)
            .map_err(|e| anyhow::anyhow!("club_address: {e}"))?;
        if let Some(gm) = &self.game_master {
            crate::mail::address::check(gm).map_err(|e| anyhow::anyhow!("game_master: {e}"))?;
        }
        let (local, domain) = self.club_parts();
        if local.is_empty() || domain.is_empty() {
            anyhow::bail!(
                "club_address must look like club@example.org, not {:?}",
                self.club_address
            );
        }
        if let Some(u) = &self.site_url {
            let scheme = u.starts_with("https://") || u.starts_with("http://");
            if !scheme || u.chars().any(|c| c.is_whitespace() || c.is_control()) {
                anyhow::bail!(
                    "site_url must be the address of the club's site, such as https://club.example.org/games/, not {u:?}"
                );
            }
        }
        if let Some(i) = &self.imap {
            if i.host.trim().is_empty() || i.user.trim().is_empty() || i.mailbox.trim().is_empty() {
                anyhow::bail!("imap: host, user and mailbox must not be empty");
            }
            if i.processed_mailbox.as_deref() == Some(i.mailbox.as_str()) {
                anyhow::bail!("imap.processed_mailbox must differ from imap.mailbox");
            }
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

    /// The IMAP settings, password included, when an `imap:` section is given.
    pub fn imap_settings(&self) -> anyhow::Result<Option<ImapConfig>> {
        self.imap.as_ref().map(ImapSection::settings).transpose()
    }

    pub fn reports_dir(&self) -> PathBuf {
        self.reports
            .clone()
            .unwrap_or_else(|| self.data.join("reports"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_imap_section_has_defaults_and_reads_its_password() {
        let dir = tempfile::tempdir().unwrap();
        let pw = dir.path().join("pw");
        std::fs::write(&pw, "secret\n").unwrap();
        let text = format!(
            "data: /tmp/x\nclub_address: club@example.org\nimap:\n  host: imap.example.org\n  user: club@example.org\n  password_file: {}\n",
            pw.display()
        );
        std::fs::write(dir.path().join("c.yaml"), text).unwrap();
        let c = Config::load(&dir.path().join("c.yaml")).unwrap();
        let s = c.imap_settings().unwrap().unwrap();
        assert_eq!((s.port, s.security), (993, Security::Tls));
        assert_eq!(s.mailbox, "INBOX");
        assert!(s.idle && s.processed_mailbox.is_none());
        assert_eq!(s.password, "secret");
        assert!(c.maildir.is_none());
    }

    #[test]
    fn the_example_configuration_loads_with_its_imap_section() {
        let dir = tempfile::tempdir().unwrap();
        // The example names the game master's key where a club keeps it.
        let key = dir.path().join("gm.pub");
        std::fs::write(&key, crate::sig::keygen("gm").unwrap().public_line).unwrap();
        let load = |text: &str| {
            let text = text.replace("/etc/galloper/game-master.pub", &key.display().to_string());
            std::fs::write(dir.path().join("c.yaml"), text).unwrap();
            Config::load(&dir.path().join("c.yaml"))
        };
        let example = include_str!("../../deploy/galloper.yaml");
        assert!(load(example).unwrap().imap.is_none());
        // Uncommented, the IMAP section is complete and valid too.
        let text: String = example
            .lines()
            .map(|l| match l.strip_prefix("# ") {
                Some(rest) if l.starts_with("# imap:") || l.starts_with("#   ") => {
                    if rest.trim_start().starts_with('#') {
                        String::new()
                    } else {
                        rest.to_string()
                    }
                }
                _ => l.to_string(),
            })
            .collect::<Vec<_>>()
            .join("\n");
        let c = load(&text).unwrap();
        let i = c.imap.expect("the imap section");
        assert_eq!(i.processed_mailbox.as_deref(), Some("Galloper/Done"));
        assert_eq!(
            (i.security, i.port, i.idle),
            (Security::Tls, Some(993), true)
        );
    }

    #[test]
    fn site_url_is_an_http_address_or_absent() {
        let dir = tempfile::tempdir().unwrap();
        let load = |extra: &str| {
            let text = format!("data: /tmp/x\nclub_address: club@example.org\n{extra}");
            std::fs::write(dir.path().join("c.yaml"), text).unwrap();
            Config::load(&dir.path().join("c.yaml"))
        };
        assert_eq!(load("").unwrap().site_url, None);
        assert_eq!(
            load("site_url: https://club.example.org/games/\n")
                .unwrap()
                .site_url
                .as_deref(),
            Some("https://club.example.org/games/")
        );
        for bad in ["club.example.org", "ftp://x", "\"https://a b\""] {
            let e = load(&format!("site_url: {bad}\n")).unwrap_err().to_string();
            assert!(e.contains("site_url must be the address"), "{bad}: {e}");
        }
    }
}
