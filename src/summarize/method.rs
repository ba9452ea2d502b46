//! The summarization methods (`Method`): their names and what each needs.

use serde::{Deserialize, Serialize};

/// A summarization method: a centroid estimator and a selector.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Method {
    /// GG2017 greedy on the mean centroid.
    #[serde(rename = "gg")]
    Greedy,
    /// Beam search on the mean centroid.
    #[serde(rename = "bs")]
    Beam,
    /// Beam search + greedy search on the mean centroid (Algorithm 1).
    #[default]
    #[serde(rename = "bs+gs")]
    BeamGreedy,
    /// BS+GS on the reference summary's centroid (needs a reference).
    #[serde(rename = "oracle")]
    Oracle,
    /// Position score only: the first sentences of documents and paragraphs.
    #[serde(rename = "location")]
    Location,
    /// Standard MMR with the topic description as the query.
    #[serde(rename = "mmr")]
    Mmr,
    /// Topic-based MMR: seed and non-seed events, time, position, ordering.
    #[serde(rename = "tbmmr")]
    Tbmmr,
    /// BS+GS on the centroid of the supervised attention head (needs it).
    #[serde(rename = "cera")]
    Cera,
    /// BS+GS on CeRA interpolated with the mean centroid (needs its head).
    #[serde(rename = "cerai")]
    Cerai,
}

impl Method {
    pub const ALL: [Method; 9] = [
        Method::Greedy,
        Method::Beam,
        Method::BeamGreedy,
        Method::Oracle,
        Method::Location,
        Method::Mmr,
        Method::Tbmmr,
        Method::Cera,
        Method::Cerai,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Method::Greedy => "gg",
            Method::Beam => "bs",
            Method::BeamGreedy => "bs+gs",
            Method::Oracle => "oracle",
            Method::Location => "location",
            Method::Mmr => "mmr",
            Method::Tbmmr => "tbmmr",
            Method::Cera => "cera",
            Method::Cerai => "cerai",
        }
    }

    pub fn needs_reference(self) -> bool {
        self == Method::Oracle
    }

    /// Estimates the centroid with a trained head: see [`SummaryRequest::heads`].
    pub fn needs_head(self) -> bool {
        matches!(self, Method::Cera | Method::Cerai)
    }

    /// Compares sentences with the topic: see [`SummaryRequest::topic`].
    pub fn uses_topic(self) -> bool {
        matches!(self, Method::Mmr | Method::Tbmmr)
    }

    /// Selects towards a centroid, which a topic can steer: see
    /// [`Settings::topic_weight`]. (MMR and TBMMR compare with the topic
    /// itself; Location looks at positions only.)
    pub fn steerable(self) -> bool {
        !self.uses_topic() && self != Method::Location
    }
}

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Method {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Method::ALL.into_iter().find(|m| m.name() == s.to_ascii_lowercase()).ok_or_else(|| {
            let names: Vec<_> = Method::ALL.iter().map(|m| m.name()).collect();
            format!("unknown method {s:?} (expected one of {})", names.join(", "))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn method_names_round_trip() {
        for m in Method::ALL {
            assert_eq!(m.name().parse::<Method>().unwrap(), m);
        }
        assert!("nope".parse::<Method>().is_err());
    }
}
