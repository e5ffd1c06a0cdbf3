//! The club's mailbox on an IMAP server, used as the daemon's queue of
//! incoming mail (instead of, or beside, a local Maildir).
//!
//! A message is pending while it is neither `\Seen` nor `\Deleted`. It is
//! read with `BODY.PEEK[]`, which leaves its flags alone, and marked `\Seen`
//! (and moved, if so configured) only after the daemon has handled it. A
//! crash in between leaves it pending, and the intake's exactly-once key
//! makes its second handling a harmless `duplicate`.
//!
//! Every socket operation has a timeout, so a dead server cannot hang the
//! daemon; errors say which setting to check.
//!
//! `mod.rs` holds the configuration and one session ([`Imap`]);
//! `stream.rs` the TLS or plain socket under it; `inbox.rs` the daemon's
//! [`Inbox`] that reconnects.

mod inbox;
mod stream;

pub use inbox::{Inbox, reconnect_delay};

use crate::mail::smtp::Security;
use imap::extensions::idle::WaitOutcome;
use imap::types::UnsolicitedResponse;
use std::fmt;
use std::net::{Shutdown, SocketAddr, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use stream::{Stream, connect_any, starttls};

/// At most this many messages are fetched by one [`Imap::pending`], so that
/// memory stays bounded; [`Inbox::drain`] asks again for the rest.
pub const PENDING_MAX: usize = 50;
/// One IDLE command lasts at most this long (RFC 2177 asks for less than 29
/// minutes); then it is ended and issued again.
pub const IDLE_MAX: Duration = Duration::from_secs(25 * 60);
/// How often a wait looks at the stop flag.
const STOP_CHECK: Duration = Duration::from_millis(50);

/// Where the mailbox is and how to log in.
#[derive(Clone, PartialEq, Eq)]
pub struct ImapConfig {
    /// Server host name (checked against its certificate under TLS).
    pub host: String,
    pub port: u16,
    /// `Tls` (implicit, port 993), `StartTls` (port 143), or `Plain`
    /// (refused unless the host is a loopback address).
    pub security: Security,
    pub user: String,
    pub password: String,
    /// The mailbox orders arrive in, usually `INBOX`.
    pub mailbox: String,
    /// Handled messages are moved here (created if missing); when absent
    /// they stay where they are, marked `\Seen`.
    pub processed_mailbox: Option<String>,
    /// Wait for new mail with IDLE when the server offers it.
    pub idle: bool,
    /// Limit for each network operation, in seconds.
    pub timeout_secs: u64,
}

impl fmt::Debug for ImapConfig {
    // Written out so that the password never reaches a log.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ImapConfig")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("security", &self.security)
            .field("user", &self.user)
            .field("password", &"<hidden>")
            .field("mailbox", &self.mailbox)
            .field("processed_mailbox", &self.processed_mailbox)
            .field("idle", &self.idle)
            .field("timeout_secs", &self.timeout_secs)
            .finish()
    }
}

/// An IMAP failure, worded for the operator: what failed and what to check.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ImapError(pub String);

pub type Result<T> = std::result::Result<T, ImapError>;

fn fail<T>(msg: String) -> Result<T> {
    Err(ImapError(msg))
}

/// One pending message.
#[derive(Clone, Debug)]
pub struct Pending {
    pub uid: u32,
    pub raw: Vec<u8>,
}

/// Why [`Imap::wait`] returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wake {
    /// New mail arrived, or unhandled mail is already there.
    NewMail,
    /// `max` passed.
    TimedOut,
    /// The stop flag was set. The connection may have been cut to notice it
    /// at once, so it must not be used again.
    Stopped,
}

/// A logged-in session with the mailbox selected.
pub struct Imap {
    session: imap::Session<Stream>,
    /// A second handle on the socket, to cut an IDLE short when asked to stop.
    sock: TcpStream,
    /// `host:port`, for messages.
    at: String,
    cfg: ImapConfig,
    can_idle: bool,
    can_move: bool,
    can_uidplus: bool,
    /// The processed mailbox as the server names it (`processed_name`).
    processed: Option<String>,
    /// Set once the socket was cut: no LOGOUT then.
    broken: bool,
}

impl fmt::Debug for Imap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Imap")
            .field("at", &self.at)
            .field("mailbox", &self.cfg.mailbox)
            .field("idle", &self.can_idle)
            .finish()
    }
}

impl Imap {
    /// Connects, logs in and selects the mailbox (creating the processed
    /// mailbox if one is configured and missing).
    pub fn connect(cfg: &ImapConfig) -> Result<Imap> {
        let at = format!("{}:{}", cfg.host, cfg.port);
        let timeout = Duration::from_secs(cfg.timeout_secs.max(1));
        let addrs: Vec<SocketAddr> = match (cfg.host.as_str(), cfg.port).to_socket_addrs() {
            Ok(a) => a.collect(),
            Err(e) => {
                return fail(format!(
                    "cannot resolve the IMAP host {:?}: {e} (check imap.host)",
                    cfg.host
                ));
            }
        };
        if cfg.security == Security::Plain && !addrs.iter().all(|a| a.ip().is_loopback()) {
            return fail(format!(
                "imap.security plain would send the password unencrypted, and is allowed only to a \
                 loopback address (127.0.0.1, ::1), which {} is not: use tls (port 993) or starttls (port 143)",
                cfg.host
            ));
        }
        let tcp = connect_any(&addrs, timeout).map_err(|e| {
            ImapError(format!(
                "cannot connect to the IMAP server {at}: {e} (check imap.host and imap.port, and that the server is up)"
            ))
        })?;
        let setup = |t: &TcpStream| {
            t.set_read_timeout(Some(timeout))?;
            t.set_write_timeout(Some(timeout))?;
            t.try_clone()
        };
        let sock = setup(&tcp).map_err(|e| ImapError(format!("IMAP socket to {at}: {e}")))?;
        let (stream, greeted) = match cfg.security {
            Security::Plain => (Stream::plain(tcp, timeout), false),
            Security::Tls => (Stream::tls(tcp, &cfg.host, &at, timeout)?, false),
            Security::StartTls => {
                let tcp = starttls(tcp, &at)?;
                (Stream::tls(tcp, &cfg.host, &at, timeout)?, true)
            }
        };
        let mut client = imap::Client::new(stream);
        if greeted {
            client.greeting_read = true;
        } else {
            let greeting = client.read_greeting().map_err(|e| {
                ImapError(format!(
                    "no IMAP greeting from {at}: {e} (check imap.port and imap.security)"
                ))
            })?;
            if !greeting.starts_with(b"* OK") {
                return fail(format!(
                    "{at} did not greet as an IMAP server ({}) (check imap.port and imap.security)",
                    String::from_utf8_lossy(&greeting).trim()
                ));
            }
        }
        let mut session = client.login(&cfg.user, &cfg.password).map_err(|(e, _)| {
            ImapError(format!(
                "IMAP login as {} at {at} failed: {e} (check imap.user and the password in imap.password_file)",
                cfg.user
            ))
        })?;
        let caps = session
            .capabilities()
            .map_err(|e| ImapError(format!("IMAP CAPABILITY at {at}: {e}")))?;
        let (can_idle, can_move, can_uidplus) = (
            caps.has_str("IDLE"),
            caps.has_str("MOVE"),
            caps.has_str("UIDPLUS"),
        );
        drop(caps);
        let processed = match &cfg.processed_mailbox {
            Some(configured) => {
                // `LIST "" ""` answers with the server's hierarchy delimiter.
                let delimiter = session
                    .list(Some(""), Some("\"\""))
                    .ok()
                    .and_then(|n| n.iter().find_map(|n| n.delimiter().map(str::to_string)));
                let p = processed_name(configured, delimiter.as_deref());
                match session.create(&p) {
                    // NO: it exists already (or cannot be made: asked below).
                    Ok(()) | Err(imap::Error::No(_)) => {}
                    Err(e) => {
                        return fail(format!(
                            "cannot create the mailbox {p:?} at {at}: {e} (check imap.processed_mailbox)"
                        ));
                    }
                }
                // A mailbox that cannot be made fails here, once, with what
                // to do, rather than every message's MOVE (and a reconnect
                // after each one).
                let there = session
                    .list(Some(""), Some(&quote(&p)))
                    .map(|n| !n.is_empty())
                    .unwrap_or(false);
                if !there {
                    return fail(format!(
                        "the mailbox {p:?} (imap.processed_mailbox {configured:?}, with the server's hierarchy delimiter {}) does not exist at {at} and could not be created: create it in a mail client, or give another name",
                        delimiter
                            .as_deref()
                            .map_or("unknown".to_string(), |d| format!("{d:?}"))
                    ));
                }
                Some(p)
            }
            None => None,
        };
        session.select(&cfg.mailbox).map_err(|e| {
            ImapError(format!(
                "cannot open the mailbox {:?} at {at}: {e} (check imap.mailbox)",
                cfg.mailbox
            ))
        })?;
        Ok(Imap {
            session,
            sock,
            at,
            cfg: cfg.clone(),
            can_idle,
            can_move,
            can_uidplus,
            processed,
            broken: false,
        })
    }

    /// Whether the server offers IDLE.
    pub fn can_idle(&self) -> bool {
        self.can_idle
    }

    /// UIDs of the messages not yet done, oldest first.
    fn pending_uids(&mut self) -> Result<Vec<u32>> {
        let found = self
            .session
            .uid_search("UNSEEN UNDELETED")
            .map_err(|e| self.err("SEARCH", e))?;
        let mut uids: Vec<u32> = found.into_iter().collect();
        uids.sort_unstable();
        Ok(uids)
    }

    /// The messages not yet done (at most [`PENDING_MAX`]), oldest first,
    /// fetched without marking them.
    pub fn pending(&mut self) -> Result<Vec<Pending>> {
        let mut out = Vec::new();
        for uid in self.pending_uids()?.into_iter().take(PENDING_MAX) {
            let fetched = self
                .session
                .uid_fetch(uid.to_string(), "(UID BODY.PEEK[])")
                .map_err(|e| self.err("FETCH", e))?;
            // A message expunged meanwhile comes back empty: skip it.
            if let Some(raw) = fetched
                .iter()
                .find(|f| f.uid == Some(uid))
                .and_then(|f| f.body())
            {
                out.push(Pending {
                    uid,
                    raw: raw.to_vec(),
                });
            }
        }
        self.drop_unsolicited();
        Ok(out)
    }

    /// Marks one message done: `\Seen`, then moved to the processed mailbox
    /// if one is configured (UID MOVE, else COPY, `\Deleted` and EXPUNGE).
    pub fn done(&mut self, uid: u32) -> Result<()> {
        let set = uid.to_string();
        self.session
            .uid_store(&set, "+FLAGS.SILENT (\\Seen)")
            .map_err(|e| self.err("STORE", e))?;
        if let Some(to) = self.processed.clone() {
            if self.can_move {
                self.session
                    .uid_mv(&set, &to)
                    .map_err(|e| self.err("MOVE", e))?;
            } else {
                self.session
                    .uid_copy(&set, quote(&to))
                    .map_err(|e| self.err("COPY", e))?;
                self.session
                    .uid_store(&set, "+FLAGS.SILENT (\\Deleted)")
                    .map_err(|e| self.err("STORE", e))?;
                // Without UIDPLUS, EXPUNGE also removes what others marked deleted.
                let r = if self.can_uidplus {
                    self.session.uid_expunge(&set).map(drop)
                } else {
                    self.session.expunge().map(drop)
                };
                r.map_err(|e| self.err("EXPUNGE", e))?;
            }
        }
        self.drop_unsolicited();
        Ok(())
    }

    /// Waits for new mail: returns at once if mail is pending, when new mail
    /// arrives (IDLE, when the server offers it and it is enabled), when
    /// `max` has passed, or when `stop` is set. Without IDLE it sleeps in
    /// short slices until `max` or `stop`.
    pub fn wait(&mut self, max: Duration, stop: &AtomicBool) -> Result<Wake> {
        let until = Instant::now() + max;
        // IDLE announces only what arrives after it starts.
        if !self.pending_uids()?.is_empty() {
            return Ok(Wake::NewMail);
        }
        if !(self.can_idle && self.cfg.idle) {
            return Ok(sleep_until(until, stop));
        }
        loop {
            if stop.load(Ordering::SeqCst) {
                return Ok(Wake::Stopped);
            }
            let left = until.saturating_duration_since(Instant::now());
            if left < STOP_CHECK {
                return Ok(Wake::TimedOut);
            }
            match self.idle_once(left.min(IDLE_MAX), stop) {
                Ok(WaitOutcome::MailboxChanged) => return Ok(Wake::NewMail),
                Ok(WaitOutcome::TimedOut) => {}
                Err(_) if stop.load(Ordering::SeqCst) => {
                    self.broken = true;
                    return Ok(Wake::Stopped);
                }
                Err(e) => return Err(self.err("IDLE", e)),
            }
        }
    }

    /// One IDLE command of at most `span`. A watcher thread cuts the socket
    /// if `stop` is set, so that the daemon stops at once.
    fn idle_once(&mut self, span: Duration, stop: &AtomicBool) -> imap::Result<WaitOutcome> {
        let finished = AtomicBool::new(false);
        let sock = &self.sock;
        let session = &mut self.session;
        std::thread::scope(|s| {
            s.spawn(|| {
                while !finished.load(Ordering::SeqCst) {
                    if stop.load(Ordering::SeqCst) {
                        let _ = sock.shutdown(Shutdown::Both);
                        return;
                    }
                    std::thread::sleep(STOP_CHECK);
                }
            });
            let outcome = {
                let mut handle = session.idle();
                handle.timeout(span).keepalive(false);
                handle.wait_while(|r| {
                    !matches!(
                        r,
                        UnsolicitedResponse::Exists(_) | UnsolicitedResponse::Recent(_)
                    )
                })
                // The handle ends the IDLE (DONE) when dropped here.
            };
            finished.store(true, Ordering::SeqCst);
            outcome
        })
    }

    fn drop_unsolicited(&mut self) {
        // Nothing reads them; keep the queue from growing.
        self.session.take_all_unsolicited().for_each(drop);
    }

    fn err(&self, what: &str, e: imap::Error) -> ImapError {
        ImapError(format!(
            "IMAP {what} in {:?} at {} failed: {e} (check that the server is up and imap.mailbox{} usable)",
            self.cfg.mailbox,
            self.at,
            if self.cfg.processed_mailbox.is_some() {
                " and imap.processed_mailbox are"
            } else {
                " is"
            }
        ))
    }
}

impl Drop for Imap {
    fn drop(&mut self) {
        if !self.broken {
            let _ = self.session.logout();
        }
    }
}

/// Sleeps in short slices until `until` or `stop`.
pub fn sleep_until(until: Instant, stop: &AtomicBool) -> Wake {
    loop {
        if stop.load(Ordering::SeqCst) {
            return Wake::Stopped;
        }
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Wake::TimedOut;
        }
        std::thread::sleep(left.min(STOP_CHECK));
    }
}

/// The processed mailbox's name as the server spells it: the configuration
/// writes levels with `/` (`Galloper/Done`), and a server whose hierarchy
/// delimiter is another (Dovecot's Maildir++ uses `.`) gets its own.
pub fn processed_name(configured: &str, delimiter: Option<&str>) -> String {
    match delimiter {
        Some(d) if d != "/" && !d.is_empty() => configured.replace('/', d),
        _ => configured.to_string(),
    }
}

/// The IMAP quoted string for a mailbox name (for commands the `imap` crate
/// does not quote itself).
fn quote(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(host: &str, security: Security) -> ImapConfig {
        ImapConfig {
            host: host.into(),
            port: 1,
            security,
            user: "u".into(),
            password: "p".into(),
            mailbox: "INBOX".into(),
            processed_mailbox: None,
            idle: true,
            timeout_secs: 2,
        }
    }

    #[test]
    fn plain_is_refused_off_loopback() {
        let e = Imap::connect(&cfg("192.0.2.1", Security::Plain)).unwrap_err();
        assert!(e.0.contains("loopback"), "{e}");
        // To loopback it is allowed, and then fails on the closed port.
        let e = Imap::connect(&cfg("127.0.0.1", Security::Plain)).unwrap_err();
        assert!(
            e.0.contains("cannot connect") && e.0.contains("imap.port"),
            "{e}"
        );
    }

    #[test]
    fn the_processed_mailbox_takes_the_servers_delimiter() {
        assert_eq!(processed_name("Galloper/Done", Some(".")), "Galloper.Done");
        assert_eq!(processed_name("Galloper/Done", Some("/")), "Galloper/Done");
        assert_eq!(processed_name("Galloper/Done", None), "Galloper/Done");
        assert_eq!(processed_name("Processed", Some(".")), "Processed");
    }

    #[test]
    fn mailbox_names_are_quoted() {
        assert_eq!(quote("Done \"x\""), "\"Done \\\"x\\\"\"");
    }

    #[test]
    fn the_password_stays_out_of_debug_output() {
        assert!(!format!("{:?}", cfg("h", Security::Tls)).contains("\"p\""));
    }
}
