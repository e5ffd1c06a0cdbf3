//! The loopback mail lab for integration tests: a real Postfix and Dovecot
//! started by `tests/maillab/start.sh` from private configuration folders.
//! `GALLOPER_LAB_DIR`, `GALLOPER_LAB_SMTP_PORT` and `GALLOPER_LAB_IMAP_PORT`
//! choose another instance (two developers on one machine, say).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

/// Users the lab creates: the club's mailbox, two players and a game master.
pub const USERS: [&str; 4] = ["club", "alice", "bob", "gm"];

pub struct Lab {
    pub dir: PathBuf,
    pub smtp_port: u16,
    pub imap_port: u16,
    pub domain: String,
    pub password: String,
    /// `<root>/<user>/{new,cur,tmp}`
    pub maildirs: PathBuf,
}

fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/maillab")
        .join(name)
}

/// Start the lab once per test process (the script is idempotent and
/// serialises concurrent callers).
pub fn lab() -> &'static Lab {
    static LAB: OnceLock<Lab> = OnceLock::new();
    LAB.get_or_init(|| {
        let out = Command::new("bash")
            .arg(script("start.sh"))
            .output()
            .expect("run tests/maillab/start.sh");
        assert!(
            out.status.success(),
            "the mail lab did not start (it needs root and Debian's postfix and dovecot):\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let get = |k: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(&format!("{k}=")))
                .unwrap_or_else(|| panic!("start.sh printed no {k}"))
                .to_string()
        };
        Lab {
            dir: PathBuf::from(get("LAB_DIR")),
            smtp_port: get("LAB_SMTP_PORT").parse().expect("port"),
            imap_port: get("LAB_IMAP_PORT").parse().expect("port"),
            domain: get("LAB_DOMAIN"),
            password: get("LAB_PASSWORD"),
            maildirs: PathBuf::from(get("LAB_MAILDIRS")),
        }
    })
}

/// A turn at the lab's mailboxes: held by one test at a time, across test
/// binaries and across processes (a test clears the Maildirs it reads, so
/// two tests at once would take each other's mail).
pub struct Turn {
    _in_process: MutexGuard<'static, ()>,
    _across: std::fs::File,
}

/// Tests that use the lab's mailboxes take turns.
pub fn exclusive() -> Turn {
    static TURN: Mutex<()> = Mutex::new(());
    let in_process = TURN.lock().unwrap_or_else(|e| e.into_inner());
    let path = lab().dir.join("turn.lock");
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .unwrap_or_else(|e| panic!("cannot open {}: {e}", path.display()));
    file.lock()
        .unwrap_or_else(|e| panic!("cannot lock {}: {e}", path.display()));
    Turn {
        _in_process: in_process,
        _across: file,
    }
}

impl Lab {
    pub fn address(&self, user: &str) -> String {
        format!("{user}@{}", self.domain)
    }

    pub fn maildir(&self, user: &str) -> PathBuf {
        self.maildirs.join(user)
    }

    /// Empty every user's Maildir (new/ and cur/).
    pub fn clear(&self) {
        for u in USERS {
            for sub in ["new", "cur", "tmp"] {
                let dir = self.maildir(u).join(sub);
                for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                    let _ = std::fs::remove_file(e.path());
                }
            }
        }
    }

    /// Every message in a user's Maildir (new/ and cur/), by file name.
    pub fn messages(&self, user: &str) -> Vec<(PathBuf, Vec<u8>)> {
        let mut out = Vec::new();
        for sub in ["new", "cur"] {
            for e in std::fs::read_dir(self.maildir(user).join(sub))
                .into_iter()
                .flatten()
                .flatten()
            {
                if let Ok(b) = std::fs::read(e.path()) {
                    out.push((e.path(), b));
                }
            }
        }
        out.sort();
        out
    }

    /// Wait until a user's Maildir holds at least `n` messages for which
    /// `keep` holds; panics after `timeout`.
    pub fn wait_for(
        &self,
        user: &str,
        n: usize,
        timeout: Duration,
        keep: impl Fn(&[u8]) -> bool,
    ) -> Vec<Vec<u8>> {
        let t0 = Instant::now();
        loop {
            let got: Vec<Vec<u8>> = self
                .messages(user)
                .into_iter()
                .map(|(_, b)| b)
                .filter(|b| keep(b))
                .collect();
            if got.len() >= n {
                return got;
            }
            assert!(
                t0.elapsed() < timeout,
                "{user} has {} of {n} expected messages after {timeout:?} (see {}/log/postfix.log)",
                got.len(),
                self.dir.display()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Send raw message bytes by SMTP to the lab's Postfix (a player's mail client).
    pub fn send(&self, from: &str, to: &str, raw: &[u8]) {
        use lettre::Transport;
        let t = lettre::SmtpTransport::builder_dangerous("127.0.0.1")
            .port(self.smtp_port)
            .build();
        let env = lettre::address::Envelope::new(
            Some(from.parse().expect("from address")),
            vec![to.parse().expect("to address")],
        )
        .expect("envelope");
        t.send_raw(&env, raw)
            .expect("the lab's Postfix took the message");
    }

    /// Stop Postfix only (Dovecot keeps serving).
    pub fn stop_postfix(&self) {
        let st = Command::new("bash")
            .arg(script("stop.sh"))
            .arg("postfix")
            .status()
            .expect("run stop.sh");
        assert!(st.success());
    }

    /// Start whatever is stopped again.
    pub fn restart(&self) {
        let out = Command::new("bash")
            .arg(script("start.sh"))
            .output()
            .expect("run start.sh");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
