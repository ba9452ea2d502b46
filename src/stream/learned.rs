//! LS: a linear cost-sensitive policy over the state features, trained by
//! locally optimal learning to search (see `train`), and LS+COS, its
//! decisions filtered by the COS redundancy threshold. The trained weights
//! ship in the settings file (`settings.rs`).

use super::engine::{dot, Action, Closest, Policy, Reason, StreamSentence, StreamState};
use super::features::{self, Features};
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::engine::tests::{axis, between, input};
    use crate::stream::engine::{Engine, StateConfig};

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
}
