//! A raw message through the daemon's intake, against a real store with two
//! open games. The store lives in /dev/shm when there is one (it syncs every
//! message) and is made afresh every few thousand messages so that it stays
//! small; a message already seen gets the `duplicate` path, which is fine.
//!
//! mail-parser panics on some messages and `inbound::parse` catches that,
//! as the daemon relies on. libfuzzer-sys's panic hook aborts before any
//! unwinding, which would report every caught panic as a crash; so this
//! target swaps in a hook that only prints. A panic nobody catches still
//! reaches libfuzzer-sys's own `catch_unwind`, which aborts: a crash.
#![no_main]
use galloper::fuzzing::{MailDesk, mail};
use std::sync::Mutex;

/// Messages handled before the desk is rebuilt.
const REBUILD_EVERY: u32 = 5000;

struct State {
    desk: Option<MailDesk>,
    handled: u32,
    builds: u32,
}

static STATE: Mutex<State> = Mutex::new(State {
    desk: None,
    handled: 0,
    builds: 0,
});

fn root(build: u32) -> std::path::PathBuf {
    let shm = std::path::Path::new("/dev/shm");
    let base = if shm.is_dir() {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    };
    base.join(format!("galloper-fuzz-mail-{}-{build}", std::process::id()))
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let mut st = STATE.lock().unwrap_or_else(|e| e.into_inner());
    if st.desk.is_none() || st.handled >= REBUILD_EVERY {
        if st.builds == 0 {
            std::panic::set_hook(Box::new(|info| eprintln!("panic: {info}")));
        }
        st.desk = None;
        st.builds += 1;
        let dir = root(st.builds);
        st.desk = Some(MailDesk::new(&dir).expect("the fuzzing mail desk"));
        st.handled = 0;
    }
    st.handled += 1;
    if let Some(desk) = st.desk.as_mut() {
        mail(desk, data);
    }
});
