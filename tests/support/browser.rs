//! What the browser tests share: the output of a command that must succeed,
//! and node, chromium and tests/browser's npm packages (installed from the
//! lock file once). A missing tool fails the test, never skips it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `out`'s stdout, or a failure that shows both streams.
pub fn ok(what: &str, out: &Output) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{what} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// tests/browser, ready to run its scripts.
pub fn node_ready() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/browser");
    let node = Command::new("node").arg("--version").output();
    assert!(
        node.is_ok_and(|o| o.status.success()),
        "node is needed for the browser tests: apt-get install nodejs npm chromium (.ci/run does)"
    );
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    assert!(
        Path::new(&chromium).exists(),
        "{chromium} is missing: apt-get install chromium (.ci/run does), or set CHROMIUM"
    );
    if !dir.join("node_modules/playwright-core").is_dir() {
        let out = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(&dir)
            .output()
            .expect("npm runs");
        ok("npm ci in tests/browser", &out);
    }
    dir
}
