//! `precis bench-stream`: stream throughput (encoding included), per-sentence
//! decision latency and memory over a long synthetic stream.
//!
//! Synthetic news sentences are generated, encoded and replayed document by
//! document through every policy at once, so memory is what the engines
//! keep, not the stream: resident memory is read from /proc/self/status at
//! checkpoints (it should stay flat apart from the updates themselves).

use super::flags::ModelsFlag;
use super::models::load_encoder;
use anyhow::{anyhow, Result};
use precis::stream::settings::StreamSettings;
use precis::stream::rng::SplitMix64;
use precis::stream::replay::{Replay, StepTimes};
use precis::stream::{PolicyKind, SentenceInput};
use precis::text::count_words;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(clap::Args)]
pub struct BenchStreamArgs {
    /// Sentences in the synthetic stream.
    #[arg(long, default_value_t = 100_000)]
    pub sentences: usize,
    /// Sentences per synthetic document.
    #[arg(long, default_value_t = 8)]
    pub per_document: usize,
    /// Seconds between documents.
    #[arg(long, default_value_t = 300)]
    pub interval: i64,
    #[arg(long, default_value_t = 7)]
    pub seed: u64,
    /// Policy settings (default: models/stream/ls.json).
    #[arg(long)]
    pub settings: Option<PathBuf>,
    #[command(flatten)]
    pub models: ModelsFlag,
}

/// Sentences generated and encoded together (a bounded buffer).
const BLOCK_SENTENCES: usize = 512;

/// Memory is reported when this many sentences have been replayed.
const CHECKPOINTS: [usize; 3] = [1_000, 10_000, 100_000];

/// One policy's replay of the stream and the time of each of its steps.
struct Lane {
    policy: PolicyKind,
    replay: Replay,
    times: StepTimes,
}

pub fn run(args: BenchStreamArgs) -> Result<()> {
    let settings = load_settings(&args)?;
    let encoder = load_encoder(args.models.dir())?;
    let mut text = SyntheticNews::new(args.seed);
    let query = encoder.encode(&["earthquake rescue in the coastal city"])?[0];
    let mut lanes: Vec<Lane> = PolicyKind::ALL
        .iter()
        .map(|&policy| Lane { policy, replay: Replay::new(policy, &settings, query), times: StepTimes::default() })
        .collect();
    let clock_start = Instant::now();
    let mut clock = || clock_start.elapsed().as_secs_f64() * 1000.0;
    let mut out = std::io::stdout().lock();
    writeln!(out, "synthetic stream: {} sentences, {} per document, one document every {} s", args.sentences, args.per_document, args.interval)?;
    let (mut encode_time, mut generate_time) = (Duration::ZERO, Duration::ZERO);
    let mut replayed = 0;
    let mut time = 1_700_000_000;
    while replayed < args.sentences {
        // Encode a block of documents at once: the encoder's batches hold up
        // to 64 sentences, so document-sized calls would mostly pad.
        let block = BLOCK_SENTENCES.min(args.sentences - replayed);
        let started = Instant::now();
        let texts: Vec<String> = (0..block).map(|_| text.sentence()).collect();
        generate_time += started.elapsed();
        let started = Instant::now();
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let inputs: Vec<SentenceInput> = encoder
            .encode(&refs)?
            .into_iter()
            .zip(&texts)
            .map(|(embedding, t)| SentenceInput { words: count_words(t), embedding, not_prose: None })
            .collect();
        encode_time += started.elapsed();
        for document in inputs.chunks(args.per_document.max(1)) {
            for lane in &mut lanes {
                lane.replay.push_timed(time, document, &mut clock, &mut lane.times);
            }
            let before = replayed;
            replayed += document.len();
            time += args.interval;
            for &c in CHECKPOINTS.iter().filter(|&&c| before < c && c <= replayed) {
                let (rss, hwm) = memory_kib();
                writeln!(out, "memory at {c} sentences: VmRSS {} MiB, VmHWM {} MiB", rss / 1024, hwm / 1024)?;
            }
        }
    }
    lanes.iter_mut().for_each(|lane| {
        lane.replay.finish();
    });
    let shared = encode_time + generate_time;
    writeln!(out, "encoding: {:.0} sentences/s (generation {:.2} s, encoding {:.2} s)", rate(replayed, encode_time), generate_time.as_secs_f64(), encode_time.as_secs_f64())?;
    for lane in &mut lanes {
        writeln!(out, "{}", lane_report(lane, replayed, shared))?;
    }
    Ok(())
}

fn load_settings(args: &BenchStreamArgs) -> Result<StreamSettings> {
    let path = args
        .settings
        .clone()
        .unwrap_or_else(|| super::models::models_dir(args.models.dir()).join("stream/ls.json"));
    match std::fs::read_to_string(&path) {
        Ok(json) => StreamSettings::from_json(&json).map_err(|e| anyhow!("{}: {e}", path.display())),
        Err(_) => {
            eprintln!("no {}: LS runs with zero weights", path.display());
            Ok(StreamSettings::untrained())
        }
    }
}

fn lane_report(lane: &mut Lane, sentences: usize, shared: Duration) -> String {
    let micros_total: f32 = lane.times.decisions_us.iter().chain(&lane.times.arrivals_us).sum();
    let decide_total = Duration::from_secs_f64(f64::from(micros_total) / 1e6);
    let (mean, p99) = mean_and_p99(&mut lane.times.decisions_us);
    let (open_mean, open_p99) = mean_and_p99(&mut lane.times.arrivals_us);
    format!(
        "{:7} updates {:6}  throughput {:6.0} sentences/s with encoding, {:9.0} without  \
         decision mean {mean:.1} µs p99 {p99:.1} µs  document arrival mean {open_mean:.1} µs p99 {open_p99:.1} µs",
        lane.policy.name(),
        lane.replay.updates(),
        rate(sentences, shared + decide_total),
        rate(sentences, decide_total),
    )
}

/// Mean and 99th percentile of samples in µs.
fn mean_and_p99(samples: &mut [f32]) -> (f32, f32) {
    if samples.is_empty() {
        return (0.0, 0.0);
    }
    samples.sort_unstable_by(f32::total_cmp);
    let mean = samples.iter().sum::<f32>() / samples.len() as f32;
    let p99 = samples[(samples.len() * 99 / 100).min(samples.len() - 1)];
    (mean, p99)
}

fn rate(count: usize, time: Duration) -> f64 {
    count as f64 / time.as_secs_f64().max(1e-9)
}

/// (VmRSS, VmHWM) in KiB; zeros where /proc is unavailable.
fn memory_kib() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// Template news sentences with random slots: varied enough that the
/// embeddings spread out, reproducible from the seed.
struct SyntheticNews {
    rng: SplitMix64,
}

const SUBJECTS: [&str; 12] = [
    "Rescue teams", "The mayor", "Officials", "Witnesses", "The coast guard", "Hospital staff",
    "Engineers", "Local residents", "The governor", "Firefighters", "Police", "Aid agencies",
];
const VERBS: [&str; 10] = [
    "reported", "confirmed", "warned about", "described", "denied", "investigated",
    "announced", "disputed", "estimated", "responded to",
];
const OBJECTS: [&str; 12] = [
    "new aftershocks", "collapsed buildings", "the number of injured", "power outages", "road closures",
    "shelter capacity", "water shortages", "the damage to the port", "missing fishermen",
    "school closures", "price increases", "the evacuation order",
];
const PLACES: [&str; 8] = [
    "in the old town", "near the harbor", "along the coast road", "in the northern district",
    "at the main hospital", "outside the city", "in three villages", "across the province",
];

impl SyntheticNews {
    fn new(seed: u64) -> Self {
        Self { rng: SplitMix64::new(seed) }
    }

    fn pick<'a>(&mut self, words: &[&'a str]) -> &'a str {
        words[self.rng.below(words.len())]
    }

    fn sentence(&mut self) -> String {
        let number = 2 + self.rng.below(500);
        format!(
            "{} {} {} {} on day {}, with {} people affected.",
            self.pick(&SUBJECTS),
            self.pick(&VERBS),
            self.pick(&OBJECTS),
            self.pick(&PLACES),
            1 + self.rng.below(30),
            number
        )
    }
}
