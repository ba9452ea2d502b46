//! LS: a linear cost-sensitive policy over the state features, trained by
//! locally optimal learning to search (see `train`), and LS+COS, its
//! decisions filtered by the COS redundancy threshold. Also the settings file
//! that ships the trained weights and the tuned thresholds of every policy.

use super::apsal::ApsalParams;
use super::engine::{dot, Action, Closest, Policy, Reason, StateConfig, StreamSentence, StreamState};
use super::features::{self, Features};
use super::kind::PolicyKind;
use serde::{Deserialize, Serialize};

/// Two linear regressors of the cost of each action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LinearModel {
    /// Feature names, in order (checked on load).
    pub features: Vec<String>,
    /// Predicted cost of skipping = skip · φ.
    pub skip: Vec<f32>,
    /// Predicted cost of selecting = select · φ.
    pub select: Vec<f32>,
}

impl LinearModel {
    pub fn zeros() -> Self {
        Self { features: features::names(), skip: vec![0.0; features::COUNT], select: vec![0.0; features::COUNT] }
    }

    /// Cost of skipping minus cost of selecting: select when positive.
    pub fn score(&self, phi: &Features) -> f32 {
        dot(&self.skip, phi) - dot(&self.select, phi)
    }

    /// Errors when the weights were trained for other features.
    pub fn validate(&self) -> Result<(), String> {
        let expected = features::names();
        if self.features != expected || self.skip.len() != expected.len() || self.select.len() != expected.len() {
            return Err(format!("LS weights are for features {:?}, this build computes {:?}", self.features, expected));
        }
        Ok(())
    }
}

/// The learned policy alone.
#[derive(Clone, Debug)]
pub struct Ls {
    pub model: LinearModel,
}

impl Policy for Ls {
    fn name(&self) -> &'static str {
        "ls"
    }

    fn decide(&mut self, state: &StreamState, sentence: &StreamSentence) -> (Action, Reason) {
        let score = self.model.score(&features::extract(state, sentence));
        let action = if score > 0.0 { Action::Select } else { Action::Skip };
        (action, Reason::Score { score })
    }
}

/// LS, then the COS redundancy threshold on what LS selects.
#[derive(Clone, Debug)]
pub struct LsCos {
    pub model: LinearModel,
    pub threshold: f32,
}

impl Policy for LsCos {
    fn name(&self) -> &'static str {
        "ls+cos"
    }

    fn decide(&mut self, state: &StreamState, sentence: &StreamSentence) -> (Action, Reason) {
        let score = self.model.score(&features::extract(state, sentence));
        if score <= 0.0 {
            return (Action::Skip, Reason::ScoreThenRedundancy { score, closest: None });
        }
        let closest = Closest::among(state.updates(), &sentence.embedding, self.threshold);
        let action = if closest.is_novel() { Action::Select } else { Action::Skip };
        (action, Reason::ScoreThenRedundancy { score, closest: Some(closest) })
    }
}

/// `models/stream/ls.json`: the LS weights and the settings of every policy,
/// all tuned on TREC-TS 2013.
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

    /// The policy of `kind` with these settings.
    pub fn policy(&self, kind: PolicyKind) -> Box<dyn Policy> {
        match kind {
            PolicyKind::Cos => Box::new(super::cos::Cos { threshold: self.cos_threshold }),
            PolicyKind::Apsal => Box::new(super::apsal::Apsal::new(self.apsal)),
            PolicyKind::Ls => Box::new(Ls { model: self.ls.clone() }),
            PolicyKind::LsCos => Box::new(LsCos { model: self.ls.clone(), threshold: self.ls_cos_threshold }),
        }
    }

    /// The redundancy threshold `kind` uses; None for LS alone (it selects
    /// when its score is positive).
    pub fn threshold(&self, kind: PolicyKind) -> Option<f32> {
        match kind {
            PolicyKind::Cos => Some(self.cos_threshold),
            PolicyKind::LsCos => Some(self.ls_cos_threshold),
            PolicyKind::Apsal => Some(self.apsal.threshold),
            PolicyKind::Ls => None,
        }
    }

    /// These settings with `threshold` for `kind` (None keeps the tuned
    /// one); refuses a threshold that is no cosine.
    pub fn with_threshold(&self, kind: PolicyKind, threshold: Option<f32>) -> Result<Self, String> {
        let mut settings = self.clone();
        if let Some(t) = threshold {
            if !(-1.0..=1.0).contains(&t) || t.is_nan() {
                return Err("The threshold is a cosine: enter a number between 0 and 1.".into());
            }
            match kind {
                PolicyKind::Cos => settings.cos_threshold = t,
                PolicyKind::LsCos => settings.ls_cos_threshold = t,
                PolicyKind::Apsal => settings.apsal.threshold = t,
                PolicyKind::Ls => {}
            }
        }
        Ok(settings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::engine::tests::{axis, between, input};
    use crate::stream::engine::Engine;

    /// Selects exactly the sentences whose query similarity exceeds 0.5:
    /// cost(skip) = query_similarity, cost(select) = 0.5 · bias.
    fn query_model() -> LinearModel {
        let mut m = LinearModel::zeros();
        let names = features::names();
        m.skip[names.iter().position(|n| n == "query_similarity").unwrap()] = 1.0;
        m.select[0] = 0.5;
        m
    }

    #[test]
    fn ls_selects_on_positive_score() {
        let mut engine = Engine::new(Ls { model: query_model() }, Some(axis(0)), StateConfig::default());
        let d = engine.push_document(0, &[input(between(0, 1, 0.9)), input(between(0, 1, 0.3))]);
        assert_eq!((d[0].action, d[1].action), (Action::Select, Action::Skip));
        assert_eq!(d[1].reason.to_string(), "LS score −0.20 < 0");
    }

    #[test]
    fn ls_cos_filters_redundant_selections() {
        let policy = LsCos { model: query_model(), threshold: 0.9 };
        let mut engine = Engine::new(policy, Some(axis(0)), StateConfig::default());
        let d = engine.push_document(0, &[input(between(0, 1, 0.9)), input(between(0, 1, 0.8)), input(between(0, 2, 0.8))]);
        // The second is at cosine 0.72 + 0.6·0.44 ≈ 0.98 to the first: filtered.
        // The third (axis 2) is at 0.72 < 0.9: kept.
        let actions: Vec<Action> = d.iter().map(|d| d.action).collect();
        assert_eq!(actions, vec![Action::Select, Action::Skip, Action::Select]);
        assert!(d[1].reason.to_string().starts_with("LS score 0.30 > 0, too similar to update 1: 0.98"));
    }

    #[test]
    fn settings_round_trip_and_reject_other_features() {
        let settings = StreamSettings {
            format: SETTINGS_FORMAT.into(),
            state: StateConfig::default(),
            ls: query_model(),
            cos_threshold: 0.5,
            ls_cos_threshold: 0.6,
            apsal: ApsalParams::default(),
            training: serde_json::Value::Null,
        };
        let json = serde_json::to_string(&settings).unwrap();
        let back = StreamSettings::from_json(&json).unwrap();
        assert_eq!(back.ls, settings.ls);
        assert_eq!(back.policy(PolicyKind::LsCos).name(), "ls+cos");
        assert!("lexrank".parse::<PolicyKind>().is_err());
        let mut wrong = settings.clone();
        wrong.ls.features.pop();
        wrong.ls.skip.pop();
        wrong.ls.select.pop();
        assert!(StreamSettings::from_json(&serde_json::to_string(&wrong).unwrap()).is_err());
    }

    #[test]
    fn a_user_threshold_replaces_the_tuned_one_of_its_policy_only() {
        let tuned = StreamSettings::untrained();
        let cos = tuned.with_threshold(PolicyKind::Cos, Some(0.9)).unwrap();
        assert_eq!(cos.threshold(PolicyKind::Cos), Some(0.9));
        assert_eq!(cos.threshold(PolicyKind::Apsal), tuned.threshold(PolicyKind::Apsal));
        assert_eq!(tuned.with_threshold(PolicyKind::Ls, Some(0.9)).unwrap().threshold(PolicyKind::Ls), None);
        assert!(tuned.with_threshold(PolicyKind::Cos, Some(2.0)).unwrap_err().contains("cosine"));
        assert!(tuned.with_threshold(PolicyKind::Cos, Some(f32::NAN)).is_err());
    }

    /// The shipped file (models/stream/ls.json) loads from bytes, as the
    /// browser build does, and carries trained weights.
    #[test]
    fn shipped_settings_load_from_bytes() {
        let bytes = include_bytes!("../../models/stream/ls.json");
        assert!(bytes.len() < 64 * 1024, "ls.json is {} bytes", bytes.len());
        let settings = StreamSettings::from_bytes(bytes).unwrap();
        assert!(settings.ls.skip.iter().chain(&settings.ls.select).any(|&w| w != 0.0));
        for kind in PolicyKind::ALL {
            assert_eq!(settings.policy(kind).name(), kind.name());
        }
        assert!(StreamSettings::from_bytes(b"\xff").is_err());
    }
}
