//! The report a player needs, through the real mail lab (Postfix and
//! Dovecot on loopback; issue 13): the briefing mail before the first move,
//! the deadline in the player's own zone in acknowledgements and reports,
//! the enemy as he sees it, and his standing reactions kept in the next
//! template.

#[path = "support/base64.rs"]
mod base64;
#[path = "support/maillab.rs"]
mod maillab;

use base64::b64;
use galloper::archive::sha256_hex;
use galloper::daemon::config::Config;
use galloper::daemon::serve;
use galloper::server::PlayerSpec;
use galloper::side::SideId;
use galloper::sig;
use mail_parser::{Message, MessageParser, MimeHeaders};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// Lab user, side, zone.
const PLAYERS: [(&str, &str, &str); 2] = [
    ("alice", "french", "Europe/Paris"),
    ("bob", "austrians", "UTC"),
];
const GAME: &str = "reports-lab";

/// Times in `text` are given in `zone`, named beside them; a reader in UTC
/// is given one time, not UTC twice.
fn in_zone(text: &str, zone: &str) -> bool {
    if zone == "UTC" {
        text.contains(" UTC") && !text.contains("(UTC)")
    } else {
        text.contains(&format!("({zone})"))
    }
}
const SCHEDULE: &str = "zone: UTC\ntime: \"20:00\"\nmin_hours: 48\ngrace_minutes: 30\n";

struct Club {
    _tmp: tempfile::TempDir,
    config: PathBuf,
    keys: BTreeMap<String, sig::KeyPair>,
}

fn club(lab: &maillab::Lab) -> Club {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let config = d.join("galloper.yaml");
    std::fs::write(
        &config,
        format!(
            "data: {}\nclub_address: {}\nmaildir: {}\ngame_master: {}\npoll_seconds: 1\nreplies_per_hour: 1000\nsmtp: {{host: 127.0.0.1, port: {}, security: plain, timeout_seconds: 10}}\n",
            d.join("data").display(),
            lab.address("club"),
            lab.maildir("club").display(),
            lab.address("gm"),
            lab.smtp_port,
        ),
    )
    .unwrap();
    let cfg = Config::load(&config).unwrap();
    let mut server = serve::open(&cfg).unwrap();
    let mut keys = BTreeMap::new();
    let mut players = Vec::new();
    for (user, side, _) in PLAYERS {
        let k = sig::keygen(side).unwrap();
        players.push(PlayerSpec {
            side: SideId::new(side),
            email: lab.address(user),
            public_key: k.public_line.clone(),
        });
        keys.insert(user.to_string(), k);
    }
    server
        .new_game_with(
            GAME,
            galloper::demo::SCENARIO,
            &players,
            Some(SCHEDULE),
            None,
        )
        .unwrap();
    for (_, side, zone) in PLAYERS {
        server.set_zone(GAME, &SideId::new(side), zone).unwrap();
    }
    Club {
        _tmp: tmp,
        config,
        keys,
    }
}

/// `galloper process --config FILE`, as a club's cron runs it.
fn process(config: &Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_galloper"))
        .arg("process")
        .arg("--config")
        .arg(config)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "process failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn parse(raw: &[u8]) -> Message<'_> {
    MessageParser::default().parse(raw).expect("a mail parses")
}

fn subject(raw: &[u8]) -> String {
    parse(raw).subject().unwrap_or_default().to_string()
}

/// The one mail of `user` whose subject contains `what`, waited for.
fn mail(lab: &maillab::Lab, user: &str, what: &str) -> Vec<u8> {
    let got = lab.wait_for(user, 1, Duration::from_secs(30), |r| {
        subject(r).contains(what)
    });
    assert_eq!(got.len(), 1, "{user}: one mail about {what:?}");
    got[0].clone()
}

/// The attachment of `raw` whose name ends with `suffix`, as text.
fn attachment(raw: &[u8], suffix: &str) -> String {
    let m = parse(raw);
    m.attachments()
        .find(|a| a.attachment_name().is_some_and(|n| n.ends_with(suffix)))
        .map(|a| String::from_utf8_lossy(a.contents()).into_owned())
        .unwrap_or_else(|| panic!("no attachment ending {suffix}"))
}

/// Sign `orders` with `user`'s key and mail them to the club by SMTP.
fn send(lab: &maillab::Lab, c: &Club, user: &str, orders: &str, tag: &str) {
    let orders = galloper::envelope::with_entropy(orders, &sha256_hex(tag.as_bytes()));
    let signature = sig::sign(
        &c.keys[user].private_openssh,
        sig::ORDERS_NAMESPACE,
        orders.as_bytes(),
    )
    .unwrap();
    let from = lab.address(user);
    let to = format!("club+{GAME}@{}", lab.domain);
    let raw = format!(
        "From: Player <{from}>\r\nTo: {to}\r\nSubject: orders {tag}\r\nMessage-ID: <{tag}-{user}@{}>\r\nDate: Sun, 22 Nov 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"XX\"\r\n\r\n--XX\r\nContent-Type: text/plain\r\n\r\nHere they are.\r\n--XX\r\nContent-Type: application/yaml; name=\"o.yaml\"\r\nContent-Disposition: attachment; filename=\"o.yaml\"\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n--XX\r\nContent-Type: application/octet-stream; name=\"o.yaml.sig\"\r\nContent-Disposition: attachment; filename=\"o.yaml.sig\"\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n--XX--\r\n",
        lab.domain,
        b64(orders.as_bytes()),
        b64(signature.as_bytes())
    );
    lab.send(&from, &to, raw.as_bytes());
}

fn text_of(raw: &[u8]) -> String {
    parse(raw).body_text(0).unwrap_or_default().into_owned()
}

fn html_of(raw: &[u8]) -> String {
    parse(raw).body_html(0).unwrap_or_default().into_owned()
}

/// Words wrapped onto several lines read as one line again.
fn unwrapped(t: &str) -> String {
    t.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn briefing_deadlines_enemy_and_kept_reactions_reach_players_through_postfix() {
    let lab = maillab::lab();
    let _turn = maillab::exclusive();
    lab.clear();
    let c = club(lab);

    // The first batch gives step 1 its deadline and mails each player his
    // briefing: scenario, map with deployment zones, template, deadline.
    let out = process(&c.config);
    assert!(out.contains("2 mail(s) sent"), "{out}");
    let mut templates = BTreeMap::new();
    for (user, side, zone) in PLAYERS {
        let raw = mail(lab, user, "Before the first move");
        let s = subject(&raw);
        assert!(s.contains(&format!("[{GAME}]")) && s.contains(side), "{s}");
        let text = unwrapped(&text_of(&raw));
        assert!(text.contains("Briefing"), "{text}");
        assert!(text.contains("Victory conditions"), "{text}");
        assert!(text.contains("Deadline for step 1:"), "{text}");
        assert!(in_zone(&text, zone), "{zone}: {text}");
        let t = attachment(&raw, &format!("{GAME}-step-1-{side}.yaml"));
        assert!(t.contains("deploy:"), "{t}");
        // The map with the deployment zones is inline.
        assert!(html_of(&raw).contains("cid:map@galloper"));
        templates.insert(user, t);
    }
    // Sent once: a second batch sends nothing new.
    let out = process(&c.config);
    assert!(out.contains("0 mail(s) sent"), "{out}");

    // Both deploy from the briefing's template; each acknowledgement shows
    // the deadline in the player's own zone.
    for (user, _, _) in PLAYERS {
        send(lab, &c, user, &templates[user], "deploy");
    }
    lab.wait_for("club", 2, Duration::from_secs(30), |_| true);
    process(&c.config);
    for (user, _, zone) in PLAYERS {
        let ack = mail(lab, user, "Re: orders deploy");
        let text = unwrapped(&text_of(&ack));
        assert!(text.contains("accepted for game"), "{text}");
        assert!(text.contains("Deadline for step 1:"), "{text}");
        assert!(in_zone(&text, zone), "{zone}: {text}");
    }
    // Each report of step 1 lists the enemy and the next deadline.
    let mut active = None;
    let mut passive = None;
    let mut step2 = BTreeMap::new();
    for (user, side, zone) in PLAYERS {
        let raw = mail(lab, user, "Step 1:");
        let text = unwrapped(&text_of(&raw));
        assert!(text.contains("The enemy as you see him"), "{text}");
        assert!(text.contains("from your nearest unit"), "{text}");
        assert!(text.contains("Deadline for step 2: "), "{text}");
        assert!(in_zone(&text, zone), "{zone}: {text}");
        let html = html_of(&raw);
        assert!(html.contains("<table class=\"enemy\">"), "{html}");
        let t = attachment(&raw, &format!("{GAME}-step-2-{side}.yaml"));
        assert!(
            t.contains("# The enemy as you see him"),
            "the template names the enemy: {t}"
        );
        if t.contains("round:") {
            active = Some(user);
        } else {
            assert!(t.contains("reactions:"), "{t}");
            passive = Some(user);
        }
        step2.insert(user, t);
    }
    let (active, passive) = (
        active.expect("an active side"),
        passive.expect("a passive side"),
    );

    // Step 2: the active side passes; the passive side stands its units'
    // return fire down, a standing reaction.
    send(lab, &c, active, &step2[active], "step2");
    let reactions = step2[passive].replace("return_fire: all", "return_fire: none");
    assert_ne!(reactions, step2[passive]);
    send(lab, &c, passive, &reactions, "step2");
    lab.wait_for("club", 4, Duration::from_secs(30), |_| true);
    process(&c.config);
    let raw = mail(lab, passive, "Step 2:");
    assert!(
        unwrapped(&text_of(&raw)).contains("Return fire: none"),
        "the report lists the reactions in force"
    );
    // Step 3: the sides change over; the side that sent reactions passes.
    let side_of = |u: &str| PLAYERS.iter().find(|p| p.0 == u).unwrap().1;
    let t3 = attachment(&raw, &format!("{GAME}-step-3-{}.yaml", side_of(passive)));
    assert!(t3.contains("round:"), "{t3}");
    send(lab, &c, passive, &t3, "step3");
    lab.wait_for("club", 5, Duration::from_secs(30), |_| true);
    process(&c.config);
    // Its next template, as a passive side again, keeps what it sent.
    let raw = mail(lab, passive, "Step 3:");
    let t4 = attachment(&raw, &format!("{GAME}-step-4-{}.yaml", side_of(passive)));
    assert!(t4.contains("return_fire: none"), "kept:\n{t4}");
    assert!(t4.contains("These reactions are in force"), "{t4}");
    assert!(html_of(&raw).contains("Return fire: none"));
    // For a look in a browser: the reports folder's page, map inline.
    if let Ok(dir) = std::env::var("GALLOPER_KEEP_REPORT") {
        let cfg = Config::load(&c.config).unwrap();
        let from = cfg
            .reports_dir()
            .join(GAME)
            .join("step-0003")
            .join(side_of(passive));
        for f in ["report.html", "report.txt", "map.png"] {
            std::fs::copy(from.join(f), Path::new(&dir).join(f)).unwrap();
        }
    }
}
