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
    use super::*;
    use serde::Deserialize;
    use std::path::PathBuf;
    use std::time::Instant;

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
                HeadKind::Cera => assert!(out.alpha.is_none() && out.attention_centroid.is_none()),
                HeadKind::Cerai => {
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

    /// Native inference time per cluster (`cargo test --release --lib
    /// head_inference_time -- --ignored --nocapture`).
    #[test]
    #[ignore]
    fn head_inference_time() {
        for name in ["cera", "cerai"] {
            let (head, _) = shipped(name);
            for n in [20, 60, 200] {
                let (embeddings, positions, documents) = synthetic(n);
                head.run(&embeddings, &positions, &documents).unwrap();
                let rounds = 200;
                let t = Instant::now();
                for _ in 0..rounds {
                    head.run(&embeddings, &positions, &documents).unwrap();
                }
                let ms = t.elapsed().as_secs_f64() * 1000.0 / rounds as f64;
                println!("{name}: {n} sentences: {ms:.3} ms per cluster");
            }
        }
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
