//! The supervised centroid heads of Gonçalves et al. (2023): CeRA (attention
//! over the cluster's sentences, then a linear map) and CeRAI (CeRA
//! interpolated per dimension with the plain mean). Trained by
//! models/cera/train.py and exported to small ONNX graphs that tract runs.
//!
//! Graph contract (models/cera/lean.py, MODEL_CARD.md):
//! - inputs, all prepared by `run` from the embeddings and the sentences'
//!   places: `rows` f32 [N, 512] (each embedding L2-normalized, then
//!   standardized: the head's input LayerNorm without its gain and bias,
//!   which the graph folds into its weights), `positions` i64 [N]
//!   (sentence index within its document; the graph caps it at its last
//!   positional embedding), `weights` f32 [N] (each sentence's weight in
//!   the cluster mean-pool, the mean over documents of each document's
//!   mean) and, for CeRAI, `mean` f32 [512] (the plain mean of the
//!   normalized embeddings, which CeRAI interpolates with);
//! - outputs: `centroid` f32 [512], `attention` f32 [N] (softmax weights);
//!   CeRAI adds `alpha` f32 [512] (interpolation weights) and
//!   `attention_centroid` f32 [512] (the attention's estimate before the
//!   interpolation).
//!
//! Loaded from bytes, so the browser can pass fetched files; the graph is
//! optimized once, at load, for any number of sentences.

use super::{Centroid, CentroidEstimator, CentroidInput};
use crate::encoder::{Embedding, DIM};
use anyhow::{bail, ensure, Result};
use tract_onnx::prelude::*;

/// Which of the two published heads a graph is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeadKind {
    Cera,
    Cerai,
}

pub struct CeraHead {
    plan: std::sync::Arc<TypedSimplePlan>,
    kind: HeadKind,
}

/// Everything a head computes for one cluster.
#[derive(Clone, Debug, PartialEq)]
pub struct HeadOutput {
    pub centroid: Vec<f32>,
    /// One softmax weight per sentence (sums to 1).
    pub attention: Vec<f32>,
    /// CeRAI only: per-dimension weight of the attention's estimate.
    pub alpha: Option<Vec<f32>>,
    /// CeRAI only: the attention's estimate before the interpolation.
    pub attention_centroid: Option<Vec<f32>>,
    /// CeRAI only: how much of the centroid comes from the attention
    /// rather than the plain mean (`attention_share`).
    pub attention_share: Option<f32>,
}

impl CeraHead {
    pub fn from_bytes(onnx: &[u8]) -> Result<Self> {
        let model = crate::encoder::onnx_reader::read(onnx, "centroid head")?;
        let kind = match model.output_outlets()?.len() {
            2 => HeadKind::Cera,
            4 => HeadKind::Cerai,
            n => bail!("centroid head: {n} outputs (expected 2 for CeRA, 4 for CeRAI)"),
        };
        let inputs: Vec<&str> = model.input_outlets()?.iter().map(|o| model.node(o.node).name.as_str()).collect();
        let expected: &[&str] = match kind {
            HeadKind::Cera => &["rows", "positions", "weights"],
            HeadKind::Cerai => &["rows", "positions", "weights", "mean"],
        };
        ensure!(
            inputs == expected,
            "centroid head: inputs {inputs:?}, expected {expected:?} (a graph from before models/cera/lean.py? \
             `python models/cera/lean.py HEAD.onnx` rewrites it)"
        );
        let plan = model.into_optimized()?.into_runnable()?;
        Ok(Self { plan, kind })
    }

    pub fn kind(&self) -> HeadKind {
        self.kind
    }

    /// Runs the head on one cluster's sentences (at least one).
    pub fn run(&self, embeddings: &[Embedding], positions: &[usize], documents: &[usize]) -> Result<HeadOutput> {
        let n = embeddings.len();
        ensure!(n > 0, "centroid head: no sentences");
        ensure!(positions.len() == n && documents.len() == n, "centroid head: one position and document per sentence");
        let (rows, mean) = graph_rows(embeddings);
        let positions: Vec<i64> = positions.iter().map(|&x| x as i64).collect();
        let mut inputs = tvec![
            Tensor::from_shape(&[n, DIM], &rows)?.into_tvalue(),
            Tensor::from_shape(&[n], &positions)?.into_tvalue(),
            Tensor::from_shape(&[n], &document_weights(documents))?.into_tvalue(),
        ];
        if self.kind == HeadKind::Cerai {
            inputs.push(Tensor::from_shape(&[DIM], &mean)?.into_tvalue());
        }
        let outputs = self.plan.run(inputs)?;
        let vector = |i: usize, len: usize| -> Result<Vec<f32>> {
            let view = outputs[i].to_plain_array_view::<f32>()?;
            ensure!(view.len() == len, "centroid head: output {i} has {} values, expected {len}", view.len());
            Ok(view.iter().copied().collect())
        };
        let interpolated = self.kind == HeadKind::Cerai;
        let alpha = interpolated.then(|| vector(2, DIM)).transpose()?;
        let attention_centroid = interpolated.then(|| vector(3, DIM)).transpose()?;
        let attention_share = match (&alpha, &attention_centroid) {
            (Some(alpha), Some(attended)) => Some(attention_share(alpha, attended, &mean)),
            _ => None,
        };
        Ok(HeadOutput { centroid: vector(0, DIM)?, attention: vector(1, n)?, alpha, attention_centroid, attention_share })
    }
}

impl CentroidEstimator for CeraHead {
    fn estimate(&self, input: &CentroidInput) -> Result<Centroid> {
        if input.embeddings.is_empty() {
            return Ok(Centroid { vector: vec![0.0; DIM], ..Default::default() });
        }
        let sentences = &input.cluster.sentences;
        let positions: Vec<usize> = sentences.iter().map(|s| s.index).collect();
        let documents: Vec<usize> = sentences.iter().map(|s| s.doc).collect();
        let out = self.run(input.embeddings, &positions, &documents)?;
        Ok(Centroid { vector: out.centroid, attention: Some(out.attention), attention_share: out.attention_share, steering: None })
    }
}

/// The graph's `rows` and CeRAI's `mean`: each embedding scaled to unit
/// length (as the heads were trained; a zero row stays zero), then
/// standardized by the head's input LayerNorm without its gain and bias
/// (mean 0, variance 1, PyTorch's epsilon 1e-5); and the plain mean of the
/// unit rows. One read and one write per value: a unit row's variance is
/// 1/d − mean², so the sums of x and x² give both scalings at once.
fn graph_rows(embeddings: &[Embedding]) -> (Vec<f32>, Vec<f32>) {
    let mut rows = Vec::with_capacity(embeddings.len() * DIM);
    let mut sum = [0f32; DIM];
    for row in embeddings {
        let (total, squares) = sums(row);
        let inverse_norm = 1.0 / squares.sqrt().max(1e-8);
        let mean = total * inverse_norm / DIM as f32;
        let variance = (squares * inverse_norm * inverse_norm / DIM as f32 - mean * mean).max(0.0);
        let scale = 1.0 / (variance + 1e-5).sqrt();
        let (slope, offset) = (scale * inverse_norm, -mean * scale);
        rows.extend(row.iter().map(|x| x * slope + offset));
        sum.iter_mut().zip(row).for_each(|(s, x)| *s += x * inverse_norm);
    }
    let count = embeddings.len().max(1) as f32;
    (rows, sum.iter().map(|s| s / count).collect())
}

/// Σx and Σx² over a row, in eight independent running sums so that the
/// additions overlap instead of each waiting for the last.
fn sums(row: &Embedding) -> (f32, f32) {
    let (mut total, mut squares) = ([0f32; 8], [0f32; 8]);
    for chunk in row.chunks_exact(8) {
        for k in 0..8 {
            total[k] += chunk[k];
            squares[k] += chunk[k] * chunk[k];
        }
    }
    (total.iter().sum(), squares.iter().sum())
}

/// The cluster mean-pool's weight of each sentence: every document counts
/// the same, and every sentence the same within its document (the mean of
/// the per-document means). Sums to 1.
fn document_weights(documents: &[usize]) -> Vec<f32> {
    let mut sentences = std::collections::HashMap::<usize, usize>::new();
    for &doc in documents {
        *sentences.entry(doc).or_default() += 1;
    }
    let count = sentences.len() as f32;
    documents.iter().map(|doc| 1.0 / (count * sentences[doc] as f32)).collect()
}

/// How much of CeRAI's centroid α ⊙ ĉ_attn + (1 − α) ⊙ ē comes from the
/// attention: |α ⊙ ĉ_attn| / (|α ⊙ ĉ_attn| + |(1 − α) ⊙ ē|). Norms rather
/// than the mean of α, because ĉ_attn and the mean ē differ in scale: a
/// small α on a long ĉ_attn can still dominate the direction.
pub fn attention_share(alpha: &[f32], attended: &[f32], mean: &[f32]) -> f32 {
    let (mut from_attention, mut from_mean) = (0f64, 0f64);
    for ((&a, &c), &m) in alpha.iter().zip(attended).zip(mean) {
        from_attention += ((a * c) as f64).powi(2);
        from_mean += (((1.0 - a) * m) as f64).powi(2);
    }
    let (from_attention, from_mean) = (from_attention.sqrt(), from_mean.sqrt());
    if from_attention + from_mean == 0.0 {
        return 0.0;
    }
    (from_attention / (from_attention + from_mean)) as f32
}

/// The trained heads an app or CLI has loaded; methods `cera` and `cerai`
/// need theirs.
#[derive(Default)]
pub struct Heads {
    pub cera: Option<CeraHead>,
    pub cerai: Option<CeraHead>,
}

impl Heads {
    /// Checks that each head is of the kind its slot expects.
    pub fn new(cera: Option<CeraHead>, cerai: Option<CeraHead>) -> Result<Self> {
        ensure!(cera.as_ref().is_none_or(|h| h.kind == HeadKind::Cera), "the cera slot holds a CeRAI head");
        ensure!(cerai.as_ref().is_none_or(|h| h.kind == HeadKind::Cerai), "the cerai slot holds a CeRA head");
        Ok(Self { cera, cerai })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use std::path::PathBuf;

    /// PyTorch's outputs on one synthetic cluster (models/cera/train.py,
    /// `synthetic_case`), written beside the shipped head.
    #[derive(Deserialize)]
    struct Reference {
        sentences: usize,
        centroid: Vec<f32>,
        attention: Vec<f32>,
        alpha: Option<Vec<f32>>,
        attention_centroid: Option<Vec<f32>>,
    }

    fn shipped(name: &str) -> (CeraHead, Vec<Reference>) {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("models/cera");
        let bytes = std::fs::read(dir.join(format!("{name}.onnx"))).unwrap();
        let json = std::fs::read_to_string(dir.join(format!("{name}.reference.json"))).unwrap();
        (CeraHead::from_bytes(&bytes).unwrap(), serde_json::from_str(&json).unwrap())
    }

    /// The synthetic cluster of train.py: row i is sin(0.618 (512 i + j) + n),
    /// L2-normalized; positions i; documents 3i / n.
    fn synthetic(n: usize) -> (Vec<Embedding>, Vec<usize>, Vec<usize>) {
        let embeddings = (0..n)
            .map(|i| {
                let mut row = [0f32; DIM];
                for (j, x) in row.iter_mut().enumerate() {
                    *x = (0.618 * (DIM * i + j) as f64 + n as f64).sin() as f32;
                }
                let norm = row.iter().map(|x| x * x).sum::<f32>().sqrt();
                row.iter_mut().for_each(|x| *x /= norm);
                row
            })
            .collect();
        (embeddings, (0..n).collect(), (0..n).map(|i| 3 * i / n).collect())
    }

    fn cosine(a: &[f32], b: &[f32]) -> f64 {
        let dot: f64 = a.iter().zip(b).map(|(x, y)| *x as f64 * *y as f64).sum();
        let norm = |v: &[f32]| v.iter().map(|x| (*x as f64).powi(2)).sum::<f64>().sqrt();
        dot / (norm(a) * norm(b))
    }

    fn check_shipped(name: &str, kind: HeadKind) {
        let (head, references) = shipped(name);
        assert_eq!(head.kind(), kind);
        assert!(!references.is_empty());
        for reference in references {
            let (embeddings, positions, documents) = synthetic(reference.sentences);
            let out = head.run(&embeddings, &positions, &documents).unwrap();
            assert_eq!(out.centroid.len(), DIM);
            assert_eq!(out.attention.len(), reference.sentences);
            let sum: f32 = out.attention.iter().sum();
            assert!((sum - 1.0).abs() < 1e-4, "{name}: attention sums to {sum}");
            assert!(out.attention.iter().all(|&a| (0.0..=1.0).contains(&a)));
            let parity = cosine(&out.centroid, &reference.centroid);
            assert!(parity >= 0.9999, "{name}, {} sentences: centroid cosine {parity}", reference.sentences);
            if reference.sentences > 1 {
                let parity = cosine(&out.attention, &reference.attention);
                assert!(parity >= 0.9999, "{name}: attention cosine {parity}");
            }
            match kind {
                HeadKind::Cera => {
                    assert!(out.alpha.is_none() && out.attention_centroid.is_none() && out.attention_share.is_none())
                }
                HeadKind::Cerai => {
                    let share = out.attention_share.expect("CeRAI reports its attention share");
                    assert!((0.0..=1.0).contains(&share), "{name}: attention share {share}");
                    let alpha = out.alpha.unwrap();
                    assert_eq!(alpha.len(), DIM);
                    assert!(alpha.iter().all(|&a| a > 0.0 && a < 1.0), "{name}: alpha outside (0, 1)");
                    assert!(cosine(&alpha, reference.alpha.as_ref().unwrap()) >= 0.9999);
                    let attended = out.attention_centroid.unwrap();
                    assert!(cosine(&attended, reference.attention_centroid.as_ref().unwrap()) >= 0.9999);
                }
            }
        }
    }

    #[test]
    fn shipped_cera_matches_pytorch() {
        check_shipped("cera", HeadKind::Cera);
    }

    #[test]
    fn shipped_cerai_matches_pytorch() {
        check_shipped("cerai", HeadKind::Cerai);
    }

    #[test]
    fn heads_refuse_the_wrong_slot() {
        let (cera, _) = shipped("cera");
        let (cerai, _) = shipped("cerai");
        assert!(Heads::new(Some(cerai), None).is_err());
        assert!(Heads::new(None, Some(cera)).is_err());
    }

    #[test]
    fn document_weights_average_each_document_then_the_documents() {
        // Two sentences in document 4, one in document 9: each document
        // weighs 1/2, shared by its sentences.
        assert_eq!(document_weights(&[4, 4, 9]), vec![0.25, 0.25, 0.5]);
        assert_eq!(document_weights(&[0]), vec![1.0]);
    }

    #[test]
    fn graph_rows_are_unit_then_standardized_and_mean_is_of_unit_rows() {
        // Row a = (3, 4, 0, ...): unit (0.6, 0.8, 0, ...); row b: 2 at j = 2,
        // unit e_2; row c: zeros, which stay zeros.
        let mut a = [0f32; DIM];
        (a[0], a[1]) = (3.0, 4.0);
        let mut b = [0f32; DIM];
        b[2] = 2.0;
        let (rows, mean) = graph_rows(&[a, b, [0.0; DIM]]);
        let d = DIM as f64;
        // Unit a: mean 1.4 / d, variance (0.36 + 0.64) / d − mean².
        let (mean_a, var_a) = (1.4 / d, 1.0 / d - (1.4 / d).powi(2));
        let expect_a = |x: f64| (x - mean_a) / (var_a + 1e-5).sqrt();
        for (j, x) in [(0, 0.6), (1, 0.8), (2, 0.0), (511, 0.0)] {
            assert!((rows[j] as f64 - expect_a(x)).abs() < 1e-5, "a[{j}] = {}", rows[j]);
        }
        let (mean_b, var_b) = (1.0 / d, 1.0 / d - (1.0 / d).powi(2));
        assert!((rows[DIM + 2] as f64 - (1.0 - mean_b) / (var_b + 1e-5).sqrt()).abs() < 1e-5);
        assert!(rows[2 * DIM..].iter().all(|&x| x == 0.0));
        // The mean of the unit rows over all three sentences.
        assert!((mean[0] - 0.2).abs() < 1e-7 && (mean[1] - 0.8 / 3.0).abs() < 1e-7);
        assert!((mean[2] - 1.0 / 3.0).abs() < 1e-7 && mean[3] == 0.0);
    }

    #[test]
    fn share_weighs_each_side_by_its_norm() {
        let mean = [0.5, 0.0];
        let attended = [0.0, 3.0];
        assert_eq!(attention_share(&[0.0, 0.0], &attended, &mean), 0.0);
        assert_eq!(attention_share(&[1.0, 1.0], &attended, &mean), 1.0);
        // Half of each: |(0, 1.5)| = 1.5 against |(0.25, 0)| = 0.25.
        let share = attention_share(&[0.5, 0.5], &attended, &mean);
        assert!((share - 1.5 / 1.75).abs() < 1e-6, "{share}");
    }
}
