//! `galloper campaign check`: an organiser's campaign file read with its
//! battlefields, and every battle its map could give mustered once.

use std::process::Command;

fn check(file: &std::path::Path) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_galloper"))
        .args(["campaign", "check"])
        .arg(file)
        .output()
        .expect("galloper runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_example_campaign_checks_and_says_what_each_army_holds() {
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games/campaigns/wiese.yaml");
    let (ok, out, err) = check(&file);
    assert!(ok, "{out}\n{err}");
    assert!(
        out.contains("12 areas, 17 roads, 4 armies on day 1"),
        "{out}"
    );
    assert!(
        out.contains("1st Division (french, Gén. Morand) at fahrnau: 4 units, 12 of 12 white dice"),
        "{out}"
    );
    assert!(
        out.contains("every battle the map could give musters"),
        "{out}"
    );
}

#[test]
fn a_slip_in_a_campaign_is_told_with_the_army_and_the_nearest_name() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games/campaigns");
    let text = std::fs::read_to_string(root.join("wiese.yaml")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    // The battlefields are found from the campaign file's own folder.
    let bad = text
        .replace(
            "../activation-dice/",
            &format!("{}/", root.join("../activation-dice").display()),
        )
        .replacen("troop: heavy_cavalry", "troop: heavy_cavlry", 1);
    let file = dir.path().join("slip.yaml");
    std::fs::write(&file, bad).unwrap();
    let (ok, _, err) = check(&file);
    assert!(!ok);
    assert!(
        err.contains("army fr-2: unit fr-cui: troop heavy_cavlry is not in the battlefield's troop table; did you mean heavy_cavalry?"),
        "{err}"
    );
}
