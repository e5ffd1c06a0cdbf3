//! Re-seal an archive after a change, as the server itself (or a forger
//! with a key of his own) could: `game.yaml`'s scenario hash, each
//! notice's link, each manifest's files (public and sealed) and the end's
//! link made to agree again, and every signed file signed anew. Unlike
//! `resign.rs`, which follows the old hashes, it rebuilds the links step by
//! step, so a changed link (a notice) is re-linked too. Runs in force only
//! (no rollbacks).

#![allow(dead_code)]

use std::path::Path;

/// Make every hash and link of `archive` agree again after a change (the
/// scenario's hash in `game.yaml`, each notice's link, each manifest's
/// files, public and sealed, the end's link) and sign every signed file
/// anew with `private`, whose public line `public` becomes `game.yaml`'s
/// server key. With the server's own key, what did not change comes out
/// byte for byte the same (signing is deterministic): only what follows
/// the change differs.
pub fn reseal(archive: &Path, private: &str, public: &str) {
    use galloper::archive::{EndFile, GameFile, Manifest, Notice, sha256_hex};
    let read = |p: &Path| std::fs::read_to_string(p).unwrap();
    let sign = |p: &Path| {
        let bytes = std::fs::read(p).unwrap();
        let sig = galloper::sig::sign(private, galloper::sig::REPORT_NAMESPACE, &bytes).unwrap();
        std::fs::write(format!("{}.sig", p.display()), sig).unwrap();
    };
    // Each file signed as soon as it is written: a manifest lists the
    // signature of its notice.
    let write = |p: &Path, t: String| {
        std::fs::write(p, t).unwrap();
        sign(p);
    };
    let rehash = |dir: &Path| {
        let mut m: Manifest = galloper::yaml::from_str(&read(&dir.join("manifest.yaml"))).unwrap();
        for (name, hash) in m.files.iter_mut() {
            *hash = sha256_hex(&std::fs::read(dir.join(name)).unwrap());
        }
        write(
            &dir.join("manifest.yaml"),
            galloper::yaml::to_string(&m).unwrap(),
        );
    };
    let mut game: GameFile = galloper::yaml::from_str(&read(&archive.join("game.yaml"))).unwrap();
    game.server_key = public.to_string();
    game.scenario_sha256 = sha256_hex(&std::fs::read(archive.join("scenario.yaml")).unwrap());
    write(
        &archive.join("game.yaml"),
        galloper::yaml::to_string(&game).unwrap(),
    );
    let mut prev = archive.join("game.yaml");
    let last = (1..)
        .take_while(|n| archive.join(format!("step-{n:04}/manifest.yaml")).exists())
        .count() as u32;
    for step in 1..=last + 1 {
        let dir = archive.join(format!("step-{step:04}"));
        if !dir.join("notice.yaml").exists() {
            break;
        }
        let mut notice: Notice = galloper::yaml::from_str(&read(&dir.join("notice.yaml"))).unwrap();
        notice.follows = sha256_hex(read(&prev).as_bytes());
        write(
            &dir.join("notice.yaml"),
            galloper::yaml::to_string(&notice).unwrap(),
        );
        if step > last {
            // The open step's notice, the last link (an end follows it).
            prev = dir.join("notice.yaml");
            break;
        }
        rehash(&dir);
        prev = dir.join("manifest.yaml");
    }
    if archive.join("end.yaml").exists() {
        let mut end: EndFile = galloper::yaml::from_str(&read(&archive.join("end.yaml"))).unwrap();
        end.last_link = sha256_hex(read(&prev).as_bytes());
        write(
            &archive.join("end.yaml"),
            galloper::yaml::to_string(&end).unwrap(),
        );
    }
    let mut stack = vec![archive.join("sealed")];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            }
        }
        if dir.join("manifest.yaml").exists() {
            rehash(&dir);
        }
    }
    let mut stack = vec![archive.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if let Some(signed) = p.to_str().and_then(|s| s.strip_suffix(".sig")) {
                // The rest (key changes); the files signed above come out
                // the same.
                sign(Path::new(signed));
            }
        }
    }
}
