//! The unsupervised centroid: the mean of all sentence embeddings.

use super::{mean_of, Centroid, CentroidEstimator, CentroidInput};
use anyhow::Result;

#[derive(Clone, Copy, Debug, Default)]
pub struct MeanCentroid;

impl CentroidEstimator for MeanCentroid {
    fn estimate(&self, input: &CentroidInput) -> Result<Centroid> {
        Ok(Centroid { vector: mean_of(input.embeddings), ..Default::default() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::Cluster;
    use crate::select::testing::unit;

    #[test]
    fn averages_every_sentence() {
        let embeddings = vec![unit(&[(0, 1.0)]), unit(&[(1, 1.0)]), unit(&[(1, 1.0)])];
        let cluster = Cluster::default();
        let input = CentroidInput { cluster: &cluster, embeddings: &embeddings, reference: None };
        let c = MeanCentroid.estimate(&input).unwrap().vector;
        assert!((c[0] - 1.0 / 3.0).abs() < 1e-6 && (c[1] - 2.0 / 3.0).abs() < 1e-6);
        assert!(c[2..].iter().all(|x| *x == 0.0));
    }
}
