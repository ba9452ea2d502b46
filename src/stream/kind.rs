//! The streaming policies by kind: what the CLI, the app and the replay
//! name, instead of strings.

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
}
