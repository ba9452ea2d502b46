//! `models/stream/ls.json`: the settings of every streaming policy (the LS
//! weights, the thresholds, APSAL's parameters), as data. The policies are
//! built from them by kind (`kind.rs`).

use super::apsal::ApsalParams;
use super::engine::StateConfig;
use super::learned::LinearModel;
use serde::{Deserialize, Serialize};

/// The LS weights and the settings of every policy, all tuned on TREC-TS 2013.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StreamSettings {
    pub format: String,
    pub state: StateConfig,
    pub ls: LinearModel,
    pub cos_threshold: f32,
    pub ls_cos_threshold: f32,
    pub apsal: ApsalParams,
    /// How the file was made (data, hyperparameters, seed, scores); not read.
    #[serde(default)]
    pub training: serde_json::Value,
}

pub const SETTINGS_FORMAT: &str = "precis-stream-settings/1";

impl StreamSettings {
    /// Settings before any training: the paper-style thresholds and no LS
    /// weights (what `precis stream` and the app use without ls.json).
    pub fn untrained() -> Self {
        Self {
            format: SETTINGS_FORMAT.into(),
            state: StateConfig::default(),
            ls: LinearModel::zeros(),
            cos_threshold: 0.6,
            ls_cos_threshold: 0.6,
            apsal: ApsalParams::default(),
            training: serde_json::Value::Null,
        }
    }

    pub fn from_json(json: &str) -> Result<Self, String> {
        let settings: Self = serde_json::from_str(json).map_err(|e| format!("stream settings: {e}"))?;
        if settings.format != SETTINGS_FORMAT {
            return Err(format!("stream settings: format {:?}, expected {SETTINGS_FORMAT:?}", settings.format));
        }
        settings.ls.validate()?;
        Ok(settings)
    }

    /// The settings from the raw bytes of the file (e.g. fetched or embedded
    /// with `include_bytes!` in the browser build: no filesystem involved).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        let json = std::str::from_utf8(bytes).map_err(|e| format!("stream settings: {e}"))?;
        Self::from_json(json)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Weights with one non-zero entry, so a round trip is seen.
    fn trained_like() -> LinearModel {
        let mut m = LinearModel::zeros();
        m.select[0] = 0.5;
        m
    }

    #[test]
    fn settings_round_trip_and_reject_other_features() {
        let settings = StreamSettings {
            format: SETTINGS_FORMAT.into(),
            state: StateConfig::default(),
            ls: trained_like(),
            cos_threshold: 0.5,
            ls_cos_threshold: 0.6,
            apsal: ApsalParams::default(),
            training: serde_json::Value::Null,
        };
        let json = serde_json::to_string(&settings).unwrap();
        let back = StreamSettings::from_json(&json).unwrap();
        assert_eq!(back.ls, settings.ls);
        let mut wrong = settings.clone();
        wrong.ls.features.pop();
        wrong.ls.skip.pop();
        wrong.ls.select.pop();
        assert!(StreamSettings::from_json(&serde_json::to_string(&wrong).unwrap()).is_err());
    }

    /// The shipped file (models/stream/ls.json) loads from bytes, as the
    /// browser build does, and carries trained weights.
    #[test]
    fn shipped_settings_load_from_bytes() {
        let bytes = include_bytes!("../../models/stream/ls.json");
        assert!(bytes.len() < 64 * 1024, "ls.json is {} bytes", bytes.len());
        let settings = StreamSettings::from_bytes(bytes).unwrap();
        assert!(settings.ls.skip.iter().chain(&settings.ls.select).any(|&w| w != 0.0));
        assert!(StreamSettings::from_bytes(b"\xff").is_err());
    }
}
