//! The oracle centroid: the mean of the reference summary's sentence
//! embeddings. An upper bound for centroid estimation, and what the
//! supervised heads learn to predict.

use super::{mean_of, Centroid, CentroidEstimator, CentroidInput};
use anyhow::{bail, Result};

#[derive(Clone, Copy, Debug, Default)]
pub struct OracleCentroid;

impl CentroidEstimator for OracleCentroid {
    fn estimate(&self, input: &CentroidInput) -> Result<Centroid> {
        match input.reference {
            Some(reference) if !reference.is_empty() => {
                Ok(Centroid { vector: mean_of(reference), ..Default::default() })
            }
            _ => bail!("the oracle centroid needs a reference summary"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::Cluster;
    use crate::select::testing::unit;

    #[test]
    fn averages_the_reference_and_requires_one() {
        let sentences = vec![unit(&[(0, 1.0)])];
        let reference = vec![unit(&[(3, 1.0)]), unit(&[(4, 1.0)])];
        let cluster = Cluster::default();
        let with = CentroidInput { cluster: &cluster, embeddings: &sentences, reference: Some(&reference) };
        let c = OracleCentroid.estimate(&with).unwrap().vector;
        assert_eq!((c[0], c[3], c[4]), (0.0, 0.5, 0.5));
        let without = CentroidInput { cluster: &cluster, embeddings: &sentences, reference: None };
        assert!(OracleCentroid.estimate(&without).is_err());
    }
}
