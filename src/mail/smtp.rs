//! Sending stored messages through an SMTP server, and when to try again.
//!
//! The outbox keeps each message as the bytes [`super::compose`] made; this
//! module hands those bytes to the submission server unchanged and says
//! whether a failure is worth retrying. The retry schedule is a pure function
//! so that the daemon's behaviour after a crash is predictable.

use std::fmt;
use std::time::Duration;

use lettre::address::Envelope;
use lettre::transport::smtp::SmtpTransport;
use lettre::transport::smtp::authentication::Credentials;
use lettre::{Address, Transport};
use serde::{Deserialize, Serialize};

/// How the connection to the SMTP server is protected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Security {
    /// No encryption at all: only for a server on the loopback interface
    /// (tests, a local Postfix).
    Plain,
    /// STARTTLS upgrade, required (usually port 587).
    #[serde(rename = "starttls")]
    StartTls,
    /// TLS from the first byte (usually port 465).
    Tls,
}

/// Where and how to submit mail.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SmtpConfig {
    /// Server host name (checked against its certificate under TLS).
    pub host: String,
    /// Server port.
    pub port: u16,
    /// Connection protection.
    pub security: Security,
    /// Login, if the server wants one (given together with `password`).
    #[serde(default)]
    pub user: Option<String>,
    /// Password for `user`.
    #[serde(default)]
    pub password: Option<String>,
    /// Limit for each network operation, in seconds (at least 1).
    pub timeout_secs: u64,
}

impl fmt::Debug for SmtpConfig {
    // Written out so that the password never reaches a log.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SmtpConfig")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("security", &self.security)
            .field("user", &self.user)
            .field("password", &self.password.as_ref().map(|_| "<hidden>"))
            .field("timeout_secs", &self.timeout_secs)
            .finish()
    }
}

/// Why a message was not sent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SendError {
    /// Worth trying again later: a 4xx reply, a refused or lost connection, a
    /// timeout, a TLS hiccup, a temporary authentication failure (454).
    #[error("temporary failure, will retry: {0}")]
    Transient(String),
    /// Trying again will not help: a 5xx reply, an address that does not
    /// parse, a configuration that cannot work.
    #[error("permanent failure: {0}")]
    Permanent(String),
    /// The server refused our login (530, 534, 535), or offers no way to log
    /// in that we speak. No message is at fault: the operator must fix
    /// `smtp.user` / `smtp.password_file`, and the outbox keeps the mail.
    #[error("the SMTP server refused the login: {0}")]
    Auth(String),
}

/// A connection pool to one SMTP server.
#[derive(Debug)]
pub struct Smtp {
    transport: SmtpTransport,
    /// `host:port` and the login, for operator messages.
    place: String,
    user: Option<String>,
}

impl Smtp {
    /// Prepares the transport; nothing is connected until the first send.
    pub fn new(cfg: &SmtpConfig) -> Result<Smtp, SendError> {
        if cfg.timeout_secs == 0 {
            return Err(SendError::Permanent(
                "SMTP timeout_secs must be at least 1".to_owned(),
            ));
        }
        let builder = match cfg.security {
            Security::Plain => SmtpTransport::builder_dangerous(cfg.host.as_str()),
            Security::StartTls => SmtpTransport::starttls_relay(&cfg.host)
                .map_err(|e| SendError::Permanent(format!("SMTP STARTTLS to {}: {e}", cfg.host)))?,
            Security::Tls => SmtpTransport::relay(&cfg.host)
                .map_err(|e| SendError::Permanent(format!("SMTP TLS to {}: {e}", cfg.host)))?,
        };
        let mut builder = builder
            .port(cfg.port)
            .timeout(Some(Duration::from_secs(cfg.timeout_secs)));
        match (&cfg.user, &cfg.password) {
            (Some(user), Some(password)) => {
                builder = builder.credentials(Credentials::new(user.clone(), password.clone()));
            }
            (None, None) => {}
            _ => {
                return Err(SendError::Permanent(
                    "SMTP user and password must be given together".to_owned(),
                ));
            }
        }
        Ok(Smtp {
            transport: builder.build(),
            place: format!("{}:{}", cfg.host, cfg.port),
            user: cfg.user.clone(),
        })
    }

    /// Connects (and logs in, if a user is configured) once without sending
    /// anything, so that a daemon finds a wrong password at start rather
    /// than at its first mail.
    pub fn check(&self) -> Result<(), SendError> {
        match self.transport.test_connection() {
            Ok(true) => Ok(()),
            Ok(false) => Err(SendError::Transient(format!(
                "{} accepted the connection but did not answer",
                self.place
            ))),
            Err(e) => Err(classify(e)),
        }
    }

    /// What an operator should read when the login is refused: where, as
    /// whom, and which settings to check.
    pub fn login_advice(&self, error: &str) -> String {
        format!(
            "the SMTP server {} refused the login of user {}: {error}; check smtp.user and smtp.password_file in the configuration",
            self.place,
            self.user.as_deref().unwrap_or("(none configured)")
        )
    }

    /// Sends stored bytes as they are, with envelope sender `from` (empty for
    /// the null return path `<>`) and recipients `to`.
    ///
    /// SMTP ends the data with CRLF `.` CRLF; one final CRLF of `bytes` is
    /// taken as the start of that terminator, so the server receives exactly
    /// `bytes` rather than `bytes` plus an empty line.
    pub fn send_raw(&self, from: &str, to: &[String], bytes: &[u8]) -> Result<(), SendError> {
        let envelope = envelope(from, to)?;
        let data = bytes.strip_suffix(b"\r\n").unwrap_or(bytes);
        self.transport
            .send_raw(&envelope, data)
            .map(|_| ())
            .map_err(classify)
    }
}

fn envelope(from: &str, to: &[String]) -> Result<Envelope, SendError> {
    let parse = |a: &str| {
        a.parse::<Address>()
            .map_err(|e| SendError::Permanent(format!("envelope address {a:?}: {e}")))
    };
    let sender = if from.is_empty() {
        None
    } else {
        Some(parse(from)?)
    };
    let recipients = to.iter().map(|a| parse(a)).collect::<Result<Vec<_>, _>>()?;
    Envelope::new(sender, recipients).map_err(|e| SendError::Permanent(format!("envelope: {e}")))
}

/// A refused login is the operator's to fix; otherwise only a 5xx reply is
/// final; everything else (4xx, connection, network, timeout, TLS, a garbled
/// reply) may pass, so the outbox keeps the message.
fn classify(e: lettre::transport::smtp::Error) -> SendError {
    let code = e.status().map(|c| c.to_string());
    // 530 authentication required, 534 mechanism too weak, 535 credentials
    // invalid (RFC 4954); lettre's own words when no mechanism matches.
    if matches!(code.as_deref(), Some("530" | "534" | "535"))
        || (e.is_client() && e.to_string().contains("authentication mechanism"))
    {
        SendError::Auth(e.to_string())
    } else if e.is_permanent() {
        SendError::Permanent(e.to_string())
    } else {
        SendError::Transient(e.to_string())
    }
}

/// First delay of the retry schedule.
const FIRST_DELAY_SECS: u64 = 30;
/// Longest delay of the retry schedule.
const MAX_DELAY_SECS: u64 = 3600;

/// The delay before retry number `attempt`: 30 s before the first retry
/// (`attempt` 1), doubling each time (60 s, 120 s, ...), at most one hour.
/// `attempt` 0 is the first send, which waits for nothing. No randomness,
/// so the schedule after a restart is the one before it.
pub fn backoff(attempt: u32) -> Duration {
    let secs = match attempt {
        0 => 0,
        n => {
            let doublings = n - 1;
            // 30 s doubled 7 times already exceeds the cap; stop before any
            // shift could overflow.
            if doublings >= 7 {
                MAX_DELAY_SECS
            } else {
                (FIRST_DELAY_SECS << doublings).min(MAX_DELAY_SECS)
            }
        }
    };
    Duration::from_secs(secs)
}

/// Whether to stop retrying a message queued `queued_age_secs` ago: once its
/// age reaches `max_age_secs`, the outbox gives up (and reports it).
pub fn should_give_up(queued_age_secs: u64, max_age_secs: u64) -> bool {
    queued_age_secs >= max_age_secs
}
