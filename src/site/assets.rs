//! The files every page loads, built into the binary: the page's own
//! scripts and style (`site/`), and the vendored primitives and YAML reader
//! with their licences (`site/vendor/`, built once with npm by
//! `site/vendor/build/`, committed), so that `galloper site` needs neither
//! npm nor a network.

/// (name under `assets/`, contents).
pub const FILES: &[(&str, &str)] = &[
    ("site.css", include_str!("../../site/site.css")),
    ("replay.js", include_str!("../../site/replay.js")),
    ("audit.js", include_str!("../../site/audit.js")),
    (
        "galloper-vendor.js",
        include_str!("../../site/vendor/galloper-vendor.js"),
    ),
    (
        "LICENSES/noble-hashes.LICENSE",
        include_str!("../../site/vendor/LICENSES/noble-hashes.LICENSE"),
    ),
    (
        "LICENSES/noble-ciphers.LICENSE",
        include_str!("../../site/vendor/LICENSES/noble-ciphers.LICENSE"),
    ),
    (
        "LICENSES/noble-curves.LICENSE",
        include_str!("../../site/vendor/LICENSES/noble-curves.LICENSE"),
    ),
    (
        "LICENSES/yaml.LICENSE",
        include_str!("../../site/vendor/LICENSES/yaml.LICENSE"),
    ),
    (
        "LICENSES/bcrypt-pbkdf.LICENSE",
        include_str!("../../site/vendor/LICENSES/bcrypt-pbkdf.LICENSE"),
    ),
];

/// Write every asset into the site's `assets/`.
pub fn write(out: &super::out::Out) -> anyhow::Result<()> {
    for (name, text) in FILES {
        out.write(&format!("assets/{name}"), text.as_bytes())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_vendored_package_ships_its_licence() {
        let vendor = FILES
            .iter()
            .find(|(n, _)| *n == "galloper-vendor.js")
            .map(|(_, t)| *t)
            .unwrap();
        for p in [
            "@noble/hashes",
            "@noble/ciphers",
            "@noble/curves",
            "yaml",
            "bcrypt-pbkdf",
        ] {
            assert!(vendor[..400].contains(p), "the bundle's banner names {p}");
            let licence = format!("LICENSES/{}.LICENSE", p.replace('@', "").replace('/', "-"));
            let text = FILES.iter().find(|(n, _)| *n == licence).map(|(_, t)| *t);
            assert!(
                text.is_some_and(|t| t.contains("Permission")),
                "{licence} is shipped and is a licence"
            );
        }
    }
}
