//! `precis bench-encoder`: load time, single-thread throughput and peak memory
//! of the native encoder on a file of sentences (one per line), measured on
//! the `precis embed` path (tokenization included), and the CPU features
//! tract can use. With `--layers N`, one more pass times every layer and
//! names the matmul kernel tract chose for it. Prints one JSON object;
//! tests/browser/bench-encoder.sh puts it next to the Python reference and
//! the browser runtimes.

use super::flags::ModelsFlag;
use super::models::{encoder_path, load_encoder_timed};
use precis::encoder::profile::{cpu_features, Profile};
use precis::encoder::BuildTimes;
use anyhow::{Context, Result};
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Args)]
pub struct BenchEncoderArgs {
    /// Sentences, one per line (an empty line is an empty sentence).
    #[arg(long)]
    pub sentences: PathBuf,
    /// Timed passes over all sentences after one warm-up pass; the best one counts.
    #[arg(long, default_value_t = 3)]
    pub passes: usize,
    #[command(flatten)]
    pub models: ModelsFlag,
    /// After the timed passes, one profiled pass: the N slowest layers with
    /// their kernels, and the time per kind of op (0: no profiled pass).
    #[arg(long, default_value_t = 0)]
    pub layers: usize,
}

#[derive(serde::Serialize)]
struct Report {
    sentences: usize,
    tokens: usize,
    load_seconds: f64,
    /// Where the load went, files read first.
    build: BuildTimes,
    pass_seconds: Vec<f64>,
    sentences_per_second: f64,
    /// The network file's bytes (the embedding table is `table_bytes`).
    model_bytes: u64,
    table_bytes: u64,
    peak_rss_bytes: Option<u64>,
    cpu_features: Vec<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    profile: Option<Profile>,
}

pub fn run(args: BenchEncoderArgs) -> Result<()> {
    let text = std::fs::read_to_string(&args.sentences)
        .with_context(|| format!("cannot read {}", args.sentences.display()))?;
    let sentences: Vec<&str> = text.lines().collect();

    let started = Instant::now();
    let (encoder, build) = load_encoder_timed(args.models.dir(), &|| started.elapsed().as_secs_f64())?;
    let load_seconds = started.elapsed().as_secs_f64();

    // The warm-up pass also builds the lazily optimized plan for long sentences.
    encoder.encode(&sentences)?;
    let pass_seconds = (0..args.passes.max(1))
        .map(|_| {
            let pass = Instant::now();
            encoder.encode(&sentences).map(|_| pass.elapsed().as_secs_f64())
        })
        .collect::<Result<Vec<_>>>()?;
    let best = pass_seconds.iter().copied().fold(f64::INFINITY, f64::min);

    let tokens: usize = sentences.iter().map(|s| encoder.tokenize(s).len()).sum();
    let profile = (args.layers > 0).then(|| Ok::<_, anyhow::Error>(Profile::of(encoder.profile_layers(&sentences)?, args.layers))).transpose()?;
    let model_path = encoder_path(args.models.dir())?;
    let report = Report {
        sentences: sentences.len(),
        tokens,
        load_seconds,
        build,
        sentences_per_second: sentences.len() as f64 / best,
        pass_seconds,
        model_bytes: std::fs::metadata(&model_path)?.len(),
        table_bytes: std::fs::metadata(model_path.with_file_name("table.u8"))?.len(),
        peak_rss_bytes: peak_rss_bytes(),
        cpu_features: cpu_features(),
        profile,
    };
    println!("{}", serde_json::to_string(&report)?);
    Ok(())
}

/// VmHWM of this process (Linux), i.e. its peak resident memory.
fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}
