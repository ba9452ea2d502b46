//! The streaming policies by kind: what the CLI, the app and the replay
//! name, instead of strings, and where each kind's policy is built from
//! the settings.

use super::apsal::Apsal;
use super::cos::Cos;
use super::engine::Policy;
use super::learned::{Ls, LsCos};
use super::settings::StreamSettings;
use serde::{Deserialize, Serialize};
use std::fmt;

/// One of the four streaming policies (the app's menu order).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PolicyKind {
    /// The learned policy, then the COS redundancy threshold.
    #[default]
    #[serde(rename = "ls+cos")]
    LsCos,
    /// The learned policy alone.
    #[serde(rename = "ls")]
    Ls,
    /// First sentences below a similarity threshold to every update.
    #[serde(rename = "cos")]
    Cos,
    /// Affinity propagation in fixed time windows.
    #[serde(rename = "apsal")]
    Apsal,
}

impl PolicyKind {
    pub const ALL: [PolicyKind; 4] = [PolicyKind::LsCos, PolicyKind::Ls, PolicyKind::Cos, PolicyKind::Apsal];

    /// The name on the command line, on the wire and in reports.
    pub fn name(self) -> &'static str {
        match self {
            PolicyKind::LsCos => "ls+cos",
            PolicyKind::Ls => "ls",
            PolicyKind::Cos => "cos",
            PolicyKind::Apsal => "apsal",
        }
    }

    /// Needs the trained LS weights (models/stream/ls.json).
    pub fn needs_weights(self) -> bool {
        matches!(self, PolicyKind::LsCos | PolicyKind::Ls)
    }

    /// Has a redundancy threshold (LS alone selects on a positive score).
    pub fn has_threshold(self) -> bool {
        self != PolicyKind::Ls
    }
}

impl fmt::Display for PolicyKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for PolicyKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let wanted = s.trim().to_ascii_lowercase();
        PolicyKind::ALL.into_iter().find(|k| k.name() == wanted).ok_or_else(|| {
            let names: Vec<_> = PolicyKind::ALL.iter().map(|k| k.name()).collect();
            format!("unknown policy {s:?} ({})", names.join(", "))
        })
    }
}

impl StreamSettings {
    /// The policy of `kind` with these settings.
    pub fn policy(&self, kind: PolicyKind) -> Box<dyn Policy> {
        match kind {
            PolicyKind::Cos => Box::new(Cos { threshold: self.cos_threshold }),
            PolicyKind::Apsal => Box::new(Apsal::new(self.apsal)),
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

    #[test]
    fn names_round_trip_on_the_command_line_and_the_wire() {
        for kind in PolicyKind::ALL {
            assert_eq!(kind.name().parse::<PolicyKind>().unwrap(), kind);
            assert_eq!(serde_json::to_string(&kind).unwrap(), format!("\"{}\"", kind.name()));
        }
        assert!("magic".parse::<PolicyKind>().unwrap_err().contains("unknown policy"));
        assert!(PolicyKind::LsCos.needs_weights() && !PolicyKind::Apsal.needs_weights());
        assert!(!PolicyKind::Ls.has_threshold() && PolicyKind::Cos.has_threshold());
    }

    #[test]
    fn every_kind_builds_its_policy() {
        let settings = StreamSettings::from_bytes(include_bytes!("../../models/stream/ls.json")).unwrap();
        for kind in PolicyKind::ALL {
            assert_eq!(settings.policy(kind).name(), kind.name());
        }
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
}
