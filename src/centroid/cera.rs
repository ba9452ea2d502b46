//! The supervised centroid heads of Gonçalves et al. (2023): CeRA (attention
//! over the cluster's sentences, then a linear map) and CeRAI (CeRA
//! interpolated per dimension with the plain mean). Trained by
//! models/cera/train.py and exported to small ONNX graphs that tract runs.
//!
//! Graph contract (models/cera/MODEL_CARD.md):
//! - inputs: `embeddings` f32 [N, 512] (the encoder's, L2-normalized),
//!   `positions` i64 [N] (sentence index within its document; the graph
//!   caps it at its last positional embedding), `documents` i64 [N]
//!   (document index of each sentence; the graph averages per document
//!   first, then over documents);
//! - outputs: `centroid` f32 [512], `attention` f32 [N] (softmax weights);
//!   CeRAI adds `alpha` f32 [512] (interpolation weights) and
//!   `attention_centroid` f32 [512] (the attention's estimate before the
//!   interpolation).
//!
//! Loaded from bytes, so the browser can pass fetched files; the graph is
//! optimized once, at load, for any number of sentences.

use super::{mean_of, Centroid, CentroidEstimator, CentroidInput};
use crate::encoder::{Embedding, DIM};
use anyhow::{bail, ensure, Context, Result};
use std::io::Cursor;
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
}

impl CeraHead {
    pub fn from_bytes(onnx: &[u8]) -> Result<Self> {
        let model = tract_onnx::onnx()
            .model_for_read(&mut Cursor::new(onnx))
            .context("centroid head: not a readable ONNX model")?;
        let kind = match model.output_outlets()?.len() {
            2 => HeadKind::Cera,
            4 => HeadKind::Cerai,
            n => bail!("centroid head: {n} outputs (expected 2 for CeRA, 4 for CeRAI)"),
        };
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
        let flat: Vec<f32> = embeddings.iter().flatten().copied().collect();
        let as_i64 = |v: &[usize]| -> Result<TValue> {
            let v: Vec<i64> = v.iter().map(|&x| x as i64).collect();
            Ok(Tensor::from_shape(&[n], &v)?.into_tvalue())
        };
        let inputs = tvec![Tensor::from_shape(&[n, DIM], &flat)?.into_tvalue(), as_i64(positions)?, as_i64(documents)?];
        let outputs = self.plan.run(inputs)?;
        let vector = |i: usize, len: usize| -> Result<Vec<f32>> {
            let view = outputs[i].to_plain_array_view::<f32>()?;
            ensure!(view.len() == len, "centroid head: output {i} has {} values, expected {len}", view.len());
            Ok(view.iter().copied().collect())
        };
        let interpolated = self.kind == HeadKind::Cerai;
        Ok(HeadOutput {
            centroid: vector(0, DIM)?,
            attention: vector(1, n)?,
            alpha: interpolated.then(|| vector(2, DIM)).transpose()?,
            attention_centroid: interpolated.then(|| vector(3, DIM)).transpose()?,
        })
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
        let attention_share = match (&out.alpha, &out.attention_centroid) {
            (Some(alpha), Some(attended)) => Some(attention_share(alpha, attended, &mean_of(input.embeddings))),
            _ => None,
        };
        Ok(Centroid { vector: out.centroid, attention: Some(out.attention), attention_share })
    }
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
    use super::attention_share;

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
