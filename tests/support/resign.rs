//! Re-sign an archive folder's manifest after changing its files, as a
//! dishonest server could: the audit must still see the change.

use std::path::Path;

pub fn resign(dir: &Path, key: &str) {
    let m: galloper::game::archive::Manifest =
        galloper::yaml::from_str(&std::fs::read_to_string(dir.join("manifest.yaml")).unwrap())
            .unwrap();
    let mut files = std::collections::BTreeMap::new();
    for name in m.files.keys() {
        files.insert(name.clone(), std::fs::read(dir.join(name)).unwrap());
    }
    galloper::game::archive::write_folder(
        dir,
        &files,
        key,
        galloper::game::archive::Durability::Synced,
    )
    .unwrap();
}
