//! The unsupervised centroid: the mean of the prose sentences' embeddings.
//!
//! The centroid paper averages every sentence. Pasted pages bring page
//! furniture (credits, "Learn more", datelines cut from their leads), and
//! each such line pulls the mean towards what no summary should say. So the
//! mean is over the sentences the segmentation keeps as prose
//! (`Sentence::excluded` is `None`), and over all of them when none is. On
//! clean text (DUC2004) that is every sentence, as in the paper.
//!
//! Measured on Multi-News validation, ROUGE-2 recall (docs/results/furniture.md,
//! "Datelines, kickers and a centroid of prose"): full text GG +0.06, BS+GS
//! +0.16; the 5,622 clusters GG +0.07, BS+GS +0.04.

use super::{mean_of, Centroid, CentroidEstimator, CentroidInput};
use anyhow::Result;

#[derive(Clone, Copy, Debug, Default)]
pub struct MeanCentroid;

impl CentroidEstimator for MeanCentroid {
    fn estimate(&self, input: &CentroidInput) -> Result<Centroid> {
        let prose: Vec<_> = input
            .cluster
            .sentences
            .iter()
            .zip(input.embeddings)
            .filter(|(sentence, _)| sentence.excluded.is_none())
            .map(|(_, embedding)| embedding)
            .collect();
        let vector = if prose.is_empty() { mean_of(input.embeddings) } else { mean_of(prose) };
        Ok(Centroid { vector, ..Default::default() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::{Cluster, Document};
    use crate::select::testing::unit;

    fn centroid(cluster: &Cluster, embeddings: &[crate::encoder::Embedding]) -> Vec<f32> {
        MeanCentroid.estimate(&CentroidInput { cluster, embeddings, reference: None }).unwrap().vector
    }

    #[test]
    fn averages_every_sentence_when_none_is_marked() {
        let embeddings = vec![unit(&[(0, 1.0)]), unit(&[(1, 1.0)]), unit(&[(1, 1.0)])];
        let c = centroid(&Cluster::default(), &embeddings);
        assert!((c[0] - 1.0 / 3.0).abs() < 1e-6 && (c[1] - 2.0 / 3.0).abs() < 1e-6);
        assert!(c[2..].iter().all(|x| *x == 0.0));
    }

    #[test]
    fn page_furniture_does_not_pull_the_centroid() {
        let cluster = Cluster::new(vec![Document::new(
            "a",
            "WASHINGTON (AP) — The storm hit the coast on Monday night. Thousands of homes lost their power.",
        )]);
        let marked: Vec<bool> = cluster.sentences.iter().map(|s| s.excluded.is_some()).collect();
        assert_eq!(marked, [true, false, false], "the dateline is cut from its lead and marked");
        let embeddings = vec![unit(&[(0, 1.0)]), unit(&[(1, 1.0)]), unit(&[(2, 1.0)])];
        let c = centroid(&cluster, &embeddings);
        assert_eq!(c[0], 0.0);
        assert!((c[1] - 0.5).abs() < 1e-6 && (c[2] - 0.5).abs() < 1e-6);
    }

    #[test]
    fn a_cluster_of_furniture_alone_still_has_a_centroid() {
        let cluster = Cluster::new(vec![Document::new("a", "Share this.\nLearn more")]);
        assert!(cluster.sentences.iter().all(|s| s.excluded.is_some()));
        let embeddings = vec![unit(&[(0, 1.0)]); cluster.sentences.len()];
        assert!((centroid(&cluster, &embeddings)[0] - 1.0).abs() < 1e-6);
    }
}
