//! YAML the way players write it: an enum is a one-key map (`march: {...}`,
//! `forward: 3`), never a `!tag`. Every YAML read or written by Galloper goes
//! through here, so stored states and replayed ones are byte-identical.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_yaml::with::singleton_map_recursive;

pub use serde_yaml::Error;

pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, Error> {
    singleton_map_recursive::deserialize(serde_yaml::Deserializer::from_str(text))
}

pub fn from_slice<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, Error> {
    singleton_map_recursive::deserialize(serde_yaml::Deserializer::from_slice(bytes))
}

pub fn from_value<T: DeserializeOwned>(value: serde_yaml::Value) -> Result<T, Error> {
    singleton_map_recursive::deserialize(value)
}

pub fn to_string<T: Serialize>(value: &T) -> Result<String, Error> {
    let mut buf = Vec::new();
    let mut ser = serde_yaml::Serializer::new(&mut buf);
    singleton_map_recursive::serialize(value, &mut ser)?;
    // The serializer writes UTF-8 only.
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

#[cfg(test)]
mod tests {
    #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "snake_case")]
    enum Step {
        Forward(f64),
        AboutFace,
    }

    #[test]
    fn enums_are_one_key_maps_both_ways() {
        let steps: Vec<Step> = super::from_str("- forward: 3\n- about_face\n").unwrap();
        assert_eq!(steps, vec![Step::Forward(3.0), Step::AboutFace]);
        let text = super::to_string(&steps).unwrap();
        assert!(text.contains("forward: 3"), "{text}");
        assert_eq!(super::from_str::<Vec<Step>>(&text).unwrap(), steps);
    }
}
