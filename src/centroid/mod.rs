//! Centroid estimators: where the summary should point in embedding space.
//! The unsupervised mean, the oracle (the reference summary's mean) and the
//! supervised heads all answer the same question behind [`CentroidEstimator`].

pub mod cera;
pub mod mean;
pub mod oracle;
pub mod steer;

use crate::document::Cluster;
use crate::encoder::Embedding;
use anyhow::Result;
use serde::{Deserialize, Serialize};

pub use cera::{CeraHead, Heads};
pub use mean::MeanCentroid;
pub use oracle::OracleCentroid;
pub use steer::{steer, Steering};

/// What an estimator may look at.
pub struct CentroidInput<'a> {
    pub cluster: &'a Cluster,
    /// One embedding per sentence of the cluster.
    pub embeddings: &'a [Embedding],
    /// Embeddings of a reference summary's sentences, when the user gave one.
    pub reference: Option<&'a [Embedding]>,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Centroid {
    pub vector: Vec<f32>,
    /// Weight of each sentence in the estimate (supervised heads), for the app.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attention: Option<Vec<f32>>,
    /// Share of the estimate that came from attention rather than the plain
    /// mean (CeRAI's mean interpolation weight).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attention_share: Option<f32>,
    /// Where a reader's topic moved the centroid (see [`steer`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steering: Option<Steering>,
}

pub trait CentroidEstimator {
    fn estimate(&self, input: &CentroidInput) -> Result<Centroid>;
}

/// Component-wise mean of embeddings (zero vector for none).
pub fn mean_of<'a>(embeddings: impl IntoIterator<Item = &'a Embedding>) -> Vec<f32> {
    let mut sum = vec![0f64; crate::encoder::DIM];
    let mut count = 0usize;
    for e in embeddings {
        sum.iter_mut().zip(e.iter()).for_each(|(s, x)| *s += *x as f64);
        count += 1;
    }
    sum.into_iter().map(|s| (s / count.max(1) as f64) as f32).collect()
}
