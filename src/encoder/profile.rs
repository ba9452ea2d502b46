//! Where the encoder's time goes: the CPU features tract can use (natively),
//! the matrix-multiplication kernel tract chose for each layer, and the time
//! each layer takes (`precis bench-encoder --layers`; in Chromium,
//! `BENCH_LAYERS=N tests/browser/bench-encoder.sh`). Kernel choices made on
//! one machine need not hold on another; this shows which ran here.

use super::{Encoder, Plan};
use anyhow::Result;
use std::collections::HashMap;
use tract_onnx::tract_core::plan::{eval, SimpleState};

/// One node of the optimized graph, summed over every batch of a pass.
#[derive(Clone, Debug, serde::Serialize)]
pub struct LayerTime {
    /// The node's name in the optimized graph (ONNX names, plus tract's
    /// suffixes for fused or split ops).
    pub node: String,
    /// The op tract runs there ("OptMatMul", "Gather", …).
    pub op: String,
    /// For a matrix product: its sizes and the kernel tract chose ("m:768
    /// k:256 n:2048 with [avx512_mmm_f32_32x12]"); empty otherwise.
    pub kernel: String,
    pub calls: usize,
    pub seconds: f64,
}

/// Every node of one profiled pass, slowest first, and the pass's wall
/// time from its first batch to its last (tokenization, batching and the
/// timing itself included, so it bounds the nodes' sum from above).
pub struct ProfiledPass {
    pub layers: Vec<LayerTime>,
    pub wall_seconds: f64,
}

/// A profiled pass, summed: the time of its nodes (a little above a plain
/// pass's), the pass's wall time, the time per kind of op (slowest first),
/// every distinct matmul kernel, and the slowest layers.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Profile {
    pub seconds: f64,
    pub wall_seconds: f64,
    pub ops: Vec<(String, f64)>,
    pub kernels: Vec<String>,
    pub layers: Vec<LayerTime>,
}

impl Profile {
    /// The summary of a pass with its `top` slowest layers kept.
    pub fn of(pass: ProfiledPass, top: usize) -> Profile {
        let ProfiledPass { layers, wall_seconds } = pass;
        let mut ops: Vec<(String, f64)> = vec![];
        for layer in &layers {
            match ops.iter_mut().find(|(op, _)| *op == layer.op) {
                Some((_, seconds)) => *seconds += layer.seconds,
                None => ops.push((layer.op.clone(), layer.seconds)),
            }
        }
        ops.sort_by(|a, b| b.1.total_cmp(&a.1));
        // "m:768 k:256 n:2048 with [kernel]": the kernel is what follows "with".
        let mut kernels: Vec<String> =
            layers.iter().filter_map(|l| l.kernel.split_once(" with ").map(|(_, k)| k.to_string())).collect();
        kernels.sort();
        kernels.dedup();
        let seconds = layers.iter().map(|l| l.seconds).sum();
        Profile { seconds, wall_seconds, ops, kernels, layers: layers.into_iter().take(top).collect() }
    }
}

impl Encoder {
    /// Encodes `sentences` as [`Encoder::encode`] does, timing every node
    /// of every plan it runs; nodes come back slowest first.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn profile_layers(&self, sentences: &[&str]) -> Result<ProfiledPass> {
        let start = std::time::Instant::now();
        self.profile_layers_timed(sentences, || start.elapsed().as_secs_f64())
    }

    /// [`Encoder::profile_layers`] with any clock in seconds: in wasm,
    /// where `Instant` panics, the browser's `performance.now()`.
    pub fn profile_layers_timed(&self, sentences: &[&str], now: impl Fn() -> f64) -> Result<ProfiledPass> {
        let pass_started = now();
        let ids: Vec<Vec<u32>> = sentences.iter().map(|s| self.tokenize(s)).collect();
        let (_, batches) = Self::ordered_batches(&ids)?;
        let mut layers: HashMap<(String, String, String), (usize, f64)> = HashMap::new();
        for batch in &batches {
            let (tier, inputs) = self.batch_inputs(batch)?;
            let plan: &Plan = self.plan(tier)?;
            let mut state = SimpleState::new(plan)?;
            state.run_plan_with_eval(inputs, |session, op_state, node, input| {
                let started = now();
                let outputs = eval(session, op_state, node, input);
                let key = (node.name.clone(), node.op().name().to_string(), kernel_of(node.op().info().unwrap_or_default()));
                let entry = layers.entry(key).or_default();
                entry.0 += 1;
                entry.1 += now() - started;
                outputs
            })?;
        }
        let mut out: Vec<LayerTime> = layers
            .into_iter()
            .map(|((node, op, kernel), (calls, seconds))| LayerTime { node, op, kernel, calls, seconds })
            .collect();
        out.sort_by(|a, b| b.seconds.total_cmp(&a.seconds).then_with(|| a.node.cmp(&b.node)));
        Ok(ProfiledPass { layers: out, wall_seconds: now() - pass_started })
    }
}

/// The "Mult: m:… k:… n:… with [kernel]" line of a matrix product's info.
fn kernel_of(info: Vec<String>) -> String {
    info.into_iter().find_map(|line| line.strip_prefix("Mult: ").map(str::to_string)).unwrap_or_default()
}

/// The SIMD features of this CPU that tract-linalg's kernels depend on.
#[cfg(not(target_arch = "wasm32"))]
pub fn cpu_features() -> Vec<&'static str> {
    #[allow(unused_mut)]
    let mut found = vec![];
    #[cfg(target_arch = "x86_64")]
    {
        macro_rules! detect {
            ($($feature:tt),*) => {
                $(if std::is_x86_feature_detected!($feature) { found.push($feature); })*
            };
        }
        detect!("sse4.1", "avx", "avx2", "fma", "f16c", "avx512f", "avx512bw", "avx512vl", "avx512vnni", "avxvnni");
    }
    #[cfg(target_arch = "aarch64")]
    {
        macro_rules! detect {
            ($($feature:tt),*) => {
                $(if std::arch::is_aarch64_feature_detected!($feature) { found.push($feature); })*
            };
        }
        detect!("neon", "fp16", "dotprod", "i8mm");
    }
    found
}
