//! The server end to end: signed orders in (OpenSSH's own `ssh-keygen -Y
//! sign` too), refusals that say why, resolution, the archive and its audit,
//! and an archive tampered with five ways.

#[path = "support/resign.rs"]
mod resign;

use galloper::archive::sha256_hex;
use galloper::audit;
use galloper::envelope;
use galloper::server::{PlayerSpec, Refusal, Server};
use galloper::side::SideId;
use galloper::sig;
use resign::resign;
use std::path::{Path, PathBuf};
use std::process::Command;

const SCENARIO: &str = galloper::demo::SCENARIO;

fn ssh_keygen(dir: &Path, name: &str) -> (PathBuf, String) {
    let key = dir.join(name);
    let st = Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-C", name, "-f"])
        .arg(&key)
        .status()
        .expect("ssh-keygen runs");
    assert!(st.success());
    let public = std::fs::read_to_string(key.with_extension("pub")).expect("public key");
    (key, public.trim().to_string())
}

fn ssh_sign(key: &Path, file: &Path) -> String {
    let mut sig_file = file.as_os_str().to_owned();
    sig_file.push(".sig");
    // ssh-keygen will not overwrite an existing signature.
    let _ = std::fs::remove_file(PathBuf::from(&sig_file));
    let st = Command::new("ssh-keygen")
        .args(["-Y", "sign", "-n", "galloper-orders", "-f"])
        .arg(key)
        .arg(file)
        .output()
        .expect("ssh-keygen -Y sign");
    assert!(
        st.status.success(),
        "{}",
        String::from_utf8_lossy(&st.stderr)
    );
    let mut sig = file.as_os_str().to_owned();
    sig.push(".sig");
    std::fs::read_to_string(PathBuf::from(sig)).expect("signature file")
}

/// The deployment template for a side, with fresh entropy, written to a file.
fn deployment(server: &Server, dir: &Path, side: &str) -> PathBuf {
    let text = galloper::cli::template(server, "g1", &SideId::new(side)).expect("template");
    let text = envelope::with_entropy(&text, &sha256_hex(b"ab"));
    let path = dir.join(format!("deploy-{side}.yaml"));
    std::fs::write(&path, text).expect("write");
    path
}

#[test]
fn openssh_signed_orders_are_accepted_and_forgeries_and_replays_refused() {
    let tmp = tempfile::tempdir().expect("tmp");
    let d = tmp.path();
    let (fkey, fpub) = ssh_keygen(d, "french");
    let (akey, apub) = ssh_keygen(d, "austrians");
    let mut server = Server::open(&d.join("data")).expect("server");
    let players = vec![
        PlayerSpec {
            side: SideId::new("french"),
            email: "f@x.example".into(),
            public_key: fpub,
        },
        PlayerSpec {
            side: SideId::new("austrians"),
            email: "a@x.example".into(),
            public_key: apub,
        },
    ];
    server.new_game("g1", SCENARIO, &players).expect("new game");

    let file = deployment(&server, d, "french");
    let bytes = std::fs::read(&file).unwrap();
    let signature = ssh_sign(&fkey, &file);

    // One byte altered after signing.
    let mut altered = bytes.clone();
    let pos = altered.iter().position(|b| *b == b'x').unwrap();
    altered[pos] = b'y';
    let e = server
        .submit("deploy-french.yaml", &altered, &signature)
        .unwrap_err();
    assert!(
        matches!(e, Refusal::Signature(sig::SigError::BadSignature)),
        "{e}"
    );
    assert!(e.to_string().contains("changed since it was signed"), "{e}");

    // Signed by the other side's key.
    let forged = ssh_sign(&akey, &file);
    let e = server
        .submit("deploy-french.yaml", &bytes, &forged)
        .unwrap_err();
    assert!(
        matches!(e, Refusal::Signature(sig::SigError::WrongKey { .. })),
        "{e}"
    );
    assert!(e.to_string().contains("another key"), "{e}");

    // The real thing.
    let r = server
        .submit("deploy-french.yaml", &bytes, &signature)
        .expect("accepted");
    assert_eq!(r.step, 1);
    let afile = deployment(&server, d, "austrians");
    let asig = ssh_sign(&akey, &afile);
    server
        .submit(
            "deploy-austrians.yaml",
            &std::fs::read(&afile).unwrap(),
            &asig,
        )
        .expect("accepted");
    let done = server.process(&d.join("outbox")).expect("process");
    assert_eq!(done.len(), 1);

    // The same signed file again, now that step 1 is resolved: a replay.
    let e = server
        .submit("deploy-french.yaml", &bytes, &signature)
        .unwrap_err();
    assert!(
        matches!(
            e,
            Refusal::WrongStep {
                sent: 1,
                open: 2,
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("already resolved"), "{e}");
    // Re-labelled for the next step: the signature no longer fits.
    let relabelled = String::from_utf8(bytes)
        .unwrap()
        .replace("step: 1", "step: 2");
    let e = server
        .submit("deploy-french.yaml", relabelled.as_bytes(), &signature)
        .unwrap_err();
    assert!(matches!(e, Refusal::Signature(_)), "{e}");
}

#[test]
fn orders_that_break_a_rule_name_the_line_the_unit_and_the_rule() {
    let tmp = tempfile::tempdir().expect("tmp");
    let d = tmp.path();
    let f = sig::keygen("f").unwrap();
    let a = sig::keygen("a").unwrap();
    let mut server = Server::open(&d.join("data")).expect("server");
    let players = vec![
        PlayerSpec {
            side: SideId::new("french"),
            email: "f@x.example".into(),
            public_key: f.public_line.clone(),
        },
        PlayerSpec {
            side: SideId::new("austrians"),
            email: "a@x.example".into(),
            public_key: a.public_line.clone(),
        },
    ];
    server.new_game("g1", SCENARIO, &players).expect("new game");
    let file = deployment(&server, d, "french");
    // Push Picardie out of the French third of the table.
    let text = std::fs::read_to_string(&file).unwrap();
    let line_no = text
        .lines()
        .position(|l| l.contains("unit: fr-i1"))
        .unwrap()
        + 1;
    let bad: String = text
        .lines()
        .map(|l| {
            if l.contains("unit: fr-i1") {
                let i = l.find("y: ").expect("a y coordinate") + 3;
                let j = i + l[i..].find('}').expect("end of the point");
                format!("{}12.5{}\n", &l[..i], &l[j..])
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    assert_ne!(bad, text);
    let signature = sig::sign(&f.private_openssh, sig::ORDERS_NAMESPACE, bad.as_bytes()).unwrap();
    let e = server
        .submit("deploy-french.yaml", bad.as_bytes(), &signature)
        .unwrap_err();
    let msg = e.to_string();
    assert!(
        msg.contains(&format!("deploy-french.yaml:{line_no}")),
        "{msg}"
    );
    assert!(msg.contains("unit fr-i1"), "{msg}");
    assert!(msg.contains("deployment zone"), "{msg}");
    assert!(msg.contains("rule: 2. Setup"), "{msg}");
}

/// Play the demo once and give copies of its archive to tamper with.
fn demo_archive() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().expect("tmp");
    let out = tmp.path().join("demo");
    let args = galloper::demo::DemoArgs {
        out: out.clone(),
        max_steps: 400,
        battle: false,
        ruleset: "maurice-lite".into(),
    };
    galloper::demo::run(&args).expect("demo runs");
    let archive = out.join("server/archive/hollowbrook-demo");
    (tmp, archive)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

/// Change the hex digit right after `marker`.
fn flip_after(t: &str, marker: &str) -> String {
    let i = t.find(marker).expect("marker") + marker.len();
    let c = if &t[i..i + 1] == "a" { "b" } else { "a" };
    format!("{}{}{}", &t[..i], c, &t[i + 1..])
}

fn edit(path: &Path, f: impl FnOnce(String) -> String) {
    let t = std::fs::read_to_string(path).unwrap();
    let n = f(t.clone());
    assert_ne!(t, n, "the edit changed nothing in {}", path.display());
    std::fs::write(path, n).unwrap();
}

/// A way to spoil an archive.
type Tamper<'a> = Box<dyn Fn(&Path) + 'a>;

#[test]
fn the_audit_passes_the_demo_and_catches_five_kinds_of_tampering() {
    let (tmp, archive) = demo_archive();
    let v = audit::audit(&archive).expect("clean archive passes");
    assert!(
        v.replayed && v.steps >= 12 && v.public_dice >= 2,
        "{:?}",
        v.lines
    );
    let key = std::fs::read_to_string(archive.join("../../server_key")).expect("server key");
    let cases: Vec<(&str, Tamper, &str)> = vec![
        (
            "one die",
            Box::new(|a: &Path| {
                let f = a.join("step-0001/dice.yaml");
                edit(&f, |t| {
                    let i = t.find("value: ").unwrap() + 7;
                    let old = &t[i..i + 1];
                    let new = if old == "6" { "5" } else { "6" };
                    format!("{}{}{}", &t[..i], new, &t[i + 1..])
                });
                resign(&a.join("step-0001"), &key);
            }),
            "public dice",
        ),
        (
            "one order",
            Box::new(|a: &Path| {
                let dir = a.join("sealed/step-0002");
                let name = std::fs::read_dir(&dir)
                    .unwrap()
                    .map(|e| e.unwrap().file_name().into_string().unwrap())
                    .find(|n| n.starts_with("orders-"))
                    .unwrap();
                edit(&dir.join(name), |t| flip_after(&t, "entropy: "));
                resign(&dir, &key);
            }),
            "not the ones whose hash was published",
        ),
        (
            "one reveal",
            Box::new(|a: &Path| {
                edit(&a.join("step-0003/reveal.yaml"), |t| {
                    flip_after(&t, "public_secret: ")
                });
                resign(&a.join("step-0003"), &key);
            }),
            "does not match its commitment",
        ),
        (
            "one state",
            Box::new(|a: &Path| {
                let dir = a.join("sealed/step-0004");
                edit(&dir.join("state.yaml"), |t| {
                    t.replacen("disruption: 0", "disruption: 1", 1)
                });
                resign(&dir, &key);
            }),
            "published state commitment",
        ),
        (
            "one signature",
            Box::new(|a: &Path| {
                edit(&a.join("step-0005/notice.yaml.sig"), |t| {
                    let lines: Vec<&str> = t.lines().collect();
                    let mut l2: String = lines[2].to_string();
                    let c = if l2.starts_with('A') { "B" } else { "A" };
                    l2.replace_range(0..1, c);
                    let mut out = lines.clone();
                    out[2] = &l2;
                    out.join("\n") + "\n"
                });
            }),
            "signature",
        ),
    ];
    for (i, (what, tamper, expect)) in cases.iter().enumerate() {
        let copy = tmp.path().join(format!("tampered-{i}"));
        copy_dir(&archive, &copy);
        tamper(&copy);
        let err = audit::audit(&copy).expect_err(what);
        assert!(err.to_string().contains(expect), "{what}: {err}");
        println!("{what}: caught: {err}");
    }
}

/// `ssh-keygen -l`'s fingerprint of a public key file (`SHA256:...`).
fn ssh_fingerprint(public: &Path) -> String {
    let out = Command::new("ssh-keygen")
        .arg("-l")
        .arg("-f")
        .arg(public)
        .output()
        .expect("ssh-keygen -l");
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .nth(1)
        .expect("a fingerprint")
        .to_string()
}

#[test]
fn keys_on_record_show_in_every_report_from_the_first() {
    // The attack: the server (or whoever set the game up) registers another
    // key for a side, here Mallory's for the French player, or a second
    // server re-signs the game. The French player's very first report shows
    // the keys on record, so he sees a fingerprint that is not his own.
    let tmp = tempfile::tempdir().expect("tmp");
    let d = tmp.path();
    let (fkey, _) = ssh_keygen(d, "french");
    let (mkey, mpub) = ssh_keygen(d, "mallory");
    let (akey, apub) = ssh_keygen(d, "austrians");
    let mut server = Server::open(&d.join("data")).expect("server");
    let players = vec![
        PlayerSpec {
            side: SideId::new("french"),
            email: "f@x.example".into(),
            public_key: mpub,
        },
        PlayerSpec {
            side: SideId::new("austrians"),
            email: "a@x.example".into(),
            public_key: apub,
        },
    ];
    server.new_game("g1", SCENARIO, &players).expect("new game");
    for (side, key) in [("french", &mkey), ("austrians", &akey)] {
        let file = deployment(&server, d, side);
        let signature = ssh_sign(key, &file);
        server
            .submit(
                &format!("deploy-{side}.yaml"),
                &std::fs::read(&file).unwrap(),
                &signature,
            )
            .expect("accepted");
    }
    assert_eq!(server.process(&d.join("outbox")).expect("process").len(), 1);

    let own = ssh_fingerprint(&fkey.with_extension("pub"));
    let mallory = ssh_fingerprint(&mkey.with_extension("pub"));
    let austrians = ssh_fingerprint(&akey.with_extension("pub"));
    let server_fp = ssh_fingerprint(&d.join("data/server_key.pub"));
    for reader in ["french", "austrians", "public"] {
        let dir = d.join("outbox/g1/step-0001").join(reader);
        let text = std::fs::read_to_string(dir.join("report.txt")).unwrap();
        let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
        for page in [&text, &html] {
            assert!(page.contains("Keys on record"), "{reader}: {page}");
            assert!(page.contains(&format!("server: {server_fp}")), "{reader}");
            assert!(page.contains(&format!("french: {mallory}")), "{reader}");
            assert!(
                page.contains(&format!("austrians: {austrians}")),
                "{reader}"
            );
            assert!(
                !page.contains(&own),
                "{reader}: the French key is not on record"
            );
        }
    }
    // `galloper render` makes the same report again from the store.
    let view = server
        .report(
            "g1",
            Some(1),
            &galloper::view::Viewer::Side(SideId::new("french")),
        )
        .unwrap();
    assert!(view.keys.iter().any(|k| k == &format!("french: {mallory}")));
}

/// The orders template a report carries names the next step's notice as
/// published (that notice is written after the report is made, since it
/// names the step's manifest), so a player who fills in the template from
/// his report and signs it with ssh-keygen is accepted.
#[test]
fn the_template_in_a_report_names_the_next_notice_and_is_accepted() {
    let tmp = tempfile::tempdir().expect("tmp");
    let d = tmp.path();
    let (fkey, fpub) = ssh_keygen(d, "french");
    let (akey, apub) = ssh_keygen(d, "austrians");
    let mut server = Server::open(&d.join("data")).expect("server");
    let players = vec![
        PlayerSpec {
            side: SideId::new("french"),
            email: "f@x.example".into(),
            public_key: fpub,
        },
        PlayerSpec {
            side: SideId::new("austrians"),
            email: "a@x.example".into(),
            public_key: apub,
        },
    ];
    server.new_game("g1", SCENARIO, &players).expect("new game");
    for (side, key) in [("french", &fkey), ("austrians", &akey)] {
        let file = deployment(&server, d, side);
        let signature = ssh_sign(key, &file);
        server
            .submit(
                &format!("deploy-{side}.yaml"),
                &std::fs::read(&file).unwrap(),
                &signature,
            )
            .expect("accepted");
    }
    assert_eq!(server.process(&d.join("outbox")).expect("process").len(), 1);
    let notice = std::fs::read(server.archive_dir("g1").join("step-0002/notice.yaml")).unwrap();
    let hash = galloper::archive::sha256_hex(&notice);
    let (open, due) = server.due("g1").unwrap().unwrap();
    assert_eq!(open.step, 2);
    let side = due.owed[0].side.to_string();
    let key = if side == "french" { &fkey } else { &akey };
    let dir = d.join("outbox/g1/step-0001").join(&side);
    let template = std::fs::read_to_string(dir.join("orders-template.yaml")).unwrap();
    assert!(template.contains(&format!("notice: {hash}")), "{template}");
    for page in ["report.txt", "report.html"] {
        let text = std::fs::read_to_string(dir.join(page)).unwrap();
        assert!(!text.contains("not-yet-written"), "{page}: {text}");
    }
    let file = d.join("next.yaml");
    std::fs::write(&file, envelope::with_entropy(&template, &sha256_hex(b"cd"))).unwrap();
    let signature = ssh_sign(key, &file);
    server
        .submit("next.yaml", &std::fs::read(&file).unwrap(), &signature)
        .expect("the report's template, signed, is accepted");
}
