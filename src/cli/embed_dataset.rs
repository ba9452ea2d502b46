//! `precis embed-dataset`: embeds every sentence of a Multi-News split (the
//! documents as `Cluster::new` splits them, and the reference summary) into a
//! compact cache that models/cera/train.py reads. These are exactly the
//! vectors the app computes, so the heads are trained on what they will see.
//!
//! Cache layout for `--out DIR/NAME`:
//! - `NAME.sentences.f16`: little-endian IEEE half floats, one 512-d row per
//!   document sentence, clusters in file order;
//! - `NAME.summary.f16`: the same for the reference summaries' sentences;
//! - `NAME.clusters.jsonl`: one line per cluster, `{"id", "doc": [..],
//!   "pos": [..], "summary_sentences"}`: per document sentence, its
//!   document's index and its 0-based position in that document. Rows are
//!   implicit: cluster k starts where cluster k-1 ended.

use super::flags::{ModelsFlag, ThreadsFlag};
use super::models::load_encoder;
use anyhow::{ensure, Context, Result};
use super::progress::cluster_bar;
use precis::datasets::{multinews, EvalCluster};
use precis::document::Cluster;
use precis::encoder::{Embedding, Encoder};
use precis::eval::rouge::{self, RougeConfig};
use rayon::prelude::*;
use serde::Serialize;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(clap::Args)]
pub struct EmbedDatasetArgs {
    /// A Multi-News .jsonl.gz split.
    #[arg(long)]
    pub data: PathBuf,
    /// Output prefix: writes OUT.sentences.f16, OUT.summary.f16, OUT.clusters.jsonl.
    #[arg(long)]
    pub out: PathBuf,
    /// Embed only the first K clusters.
    #[arg(long)]
    pub limit_clusters: Option<usize>,
    #[command(flatten)]
    pub models: ModelsFlag,
    #[command(flatten)]
    pub threads: ThreadsFlag,
    /// Instead of embedding, write OUT.rouge.jsonl: per cluster, the ROUGE
    /// token ids (ROUGE-1.5.5 tokens, stemmed) of every document sentence,
    /// in the cache's row order, and of the reference summary, for training
    /// on ROUGE overlap (models/cera/train.py --rank-teacher rouge).
    #[arg(long)]
    pub rouge_tokens: bool,
}

/// Clusters encoded in one call: enough sentences that the encoder's fixed
/// 1024-token batches are packed full instead of padded per cluster.
const CLUSTERS_PER_CALL: usize = 16;
/// Clusters held in memory between writes.
const CLUSTERS_PER_BLOCK: usize = 2048;

#[derive(Serialize)]
struct ClusterIndex {
    id: String,
    doc: Vec<usize>,
    pos: Vec<usize>,
    summary_sentences: usize,
}

struct EmbeddedCluster {
    index: ClusterIndex,
    sentences: Vec<Embedding>,
    summary: Vec<Embedding>,
}

struct CacheWriter {
    sentences: BufWriter<File>,
    summary: BufWriter<File>,
    index: BufWriter<File>,
}

pub fn run(args: EmbedDatasetArgs) -> Result<()> {
    let started = Instant::now();
    let mut clusters = multinews::load(&args.data)?;
    if let Some(k) = args.limit_clusters {
        clusters.truncate(k);
    }
    args.threads.apply();
    if args.rouge_tokens {
        return write_rouge_tokens(&clusters, &args.out);
    }
    let encoder = load_encoder(args.models.dir())?;
    let mut writer = CacheWriter::create(&args.out)?;
    let progress = cluster_bar(clusters.len());
    let (mut sentences, mut summary_sentences) = (0usize, 0usize);
    for block in clusters.chunks(CLUSTERS_PER_BLOCK) {
        let embedded: Vec<EmbeddedCluster> = block
            .par_chunks(CLUSTERS_PER_CALL)
            .map(|group| {
                let out = embed_group(&encoder, group);
                progress.inc(group.len() as u64);
                out
            })
            .collect::<Result<Vec<_>>>()?
            .into_iter()
            .flatten()
            .collect();
        for cluster in &embedded {
            sentences += cluster.sentences.len();
            summary_sentences += cluster.summary.len();
            writer.write(cluster)?;
        }
    }
    writer.finish()?;
    progress.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    eprintln!(
        "embedded {} clusters: {sentences} document + {summary_sentences} summary sentences in {seconds:.0} s ({:.0} sentences/s) → {}.*",
        clusters.len(),
        (sentences + summary_sentences) as f64 / seconds,
        args.out.display()
    );
    Ok(())
}

/// One line of OUT.rouge.jsonl; ids are local to the cluster.
#[derive(Serialize)]
struct RougeTokens {
    id: String,
    sentences: Vec<Vec<u32>>,
    reference: Vec<u32>,
}

fn write_rouge_tokens(clusters: &[EvalCluster], prefix: &Path) -> Result<()> {
    let config = RougeConfig::rouge155(None);
    let lines: Vec<RougeTokens> = clusters
        .par_iter()
        .map(|eval| {
            let (cluster, reference) = split_cluster(eval);
            let texts = cluster.texts();
            let mut ids = rouge::token_ids(&[&texts, &reference], &config).into_iter();
            let (sentences, reference) = (ids.next().unwrap_or_default(), ids.next().unwrap_or_default());
            ensure!(sentences.len() == texts.len(), "cluster {}: an empty sentence", eval.name);
            Ok(RougeTokens { id: eval.name.clone(), sentences, reference: reference.concat() })
        })
        .collect::<Result<_>>()?;
    let (mut out, path) = create_output(prefix, "rouge.jsonl")?;
    for line in &lines {
        serde_json::to_writer(&mut out, line)?;
        out.write_all(b"\n")?;
    }
    out.flush()?;
    eprintln!("ROUGE tokens of {} clusters → {}", lines.len(), path.display());
    Ok(())
}

/// A cluster's documents as `Cluster::new` splits them (the cache's rows)
/// and its reference summary's sentences.
fn split_cluster(eval: &EvalCluster) -> (Cluster, Vec<&str>) {
    let reference = eval.references.iter().flatten().map(String::as_str).collect();
    (Cluster::new(eval.documents.clone()), reference)
}

/// Creates `PREFIX.SUFFIX` (and PREFIX's folder) for buffered writing.
fn create_output(prefix: &Path, suffix: &str) -> Result<(BufWriter<File>, PathBuf)> {
    if let Some(dir) = prefix.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("{}", dir.display()))?;
    }
    let path = PathBuf::from(format!("{}.{suffix}", prefix.display()));
    let file = File::create(&path).with_context(|| format!("{}", path.display()))?;
    Ok((BufWriter::new(file), path))
}

/// Splits and embeds a few clusters in one encoder call.
fn embed_group(encoder: &Encoder, group: &[EvalCluster]) -> Result<Vec<EmbeddedCluster>> {
    let split: Vec<(Cluster, Vec<&str>)> = group.iter().map(split_cluster).collect();
    let texts: Vec<&str> = split
        .iter()
        .flat_map(|(cluster, summary)| cluster.texts().into_iter().chain(summary.iter().copied()))
        .collect();
    let mut embeddings = encoder.encode(&texts)?.into_iter();
    let embedded = group
        .iter()
        .zip(&split)
        .map(|(eval, (cluster, summary))| EmbeddedCluster {
            index: ClusterIndex {
                id: eval.name.clone(),
                doc: cluster.sentences.iter().map(|s| s.doc).collect(),
                pos: cluster.sentences.iter().map(|s| s.index).collect(),
                summary_sentences: summary.len(),
            },
            sentences: embeddings.by_ref().take(cluster.sentences.len()).collect(),
            summary: embeddings.by_ref().take(summary.len()).collect(),
        })
        .collect();
    Ok(embedded)
}

impl CacheWriter {
    fn create(prefix: &Path) -> Result<Self> {
        let open = |suffix| create_output(prefix, suffix).map(|(out, _)| out);
        Ok(Self { sentences: open("sentences.f16")?, summary: open("summary.f16")?, index: open("clusters.jsonl")? })
    }

    fn write(&mut self, cluster: &EmbeddedCluster) -> Result<()> {
        write_half_rows(&mut self.sentences, &cluster.sentences)?;
        write_half_rows(&mut self.summary, &cluster.summary)?;
        serde_json::to_writer(&mut self.index, &cluster.index)?;
        Ok(self.index.write_all(b"\n")?)
    }

    fn finish(mut self) -> Result<()> {
        self.sentences.flush()?;
        self.summary.flush()?;
        Ok(self.index.flush()?)
    }
}

fn write_half_rows(out: &mut impl Write, rows: &[Embedding]) -> Result<()> {
    let bytes: Vec<u8> = rows.iter().flatten().flat_map(|&x| f32_to_f16_bits(x).to_le_bytes()).collect();
    Ok(out.write_all(&bytes)?)
}

/// IEEE 754 binary16 bits of `x`, rounded to nearest even (as numpy's
/// `astype(float16)`); overflow saturates to infinity, NaN stays NaN.
pub fn f32_to_f16_bits(x: f32) -> u16 {
    let bits = x.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exponent = ((bits >> 23) & 0xff) as i32;
    let mantissa = bits & 0x7f_ffff;
    if exponent == 0xff {
        return sign | 0x7c00 | if mantissa != 0 { 0x200 } else { 0 };
    }
    let half_exponent = exponent - 127 + 15;
    if half_exponent >= 0x1f {
        return sign | 0x7c00;
    }
    if half_exponent <= 0 {
        // Subnormal half (or zero): shift the full significand into place.
        if half_exponent < -10 {
            return sign;
        }
        let significand = mantissa | 0x80_0000;
        let shift = (14 - half_exponent) as u32;
        return sign | round_shift(significand, shift) as u16;
    }
    // A carry out of the mantissa correctly bumps the exponent.
    let rounded = round_shift((half_exponent as u32) << 23 | mantissa, 13);
    sign | rounded as u16
}

/// `value >> shift`, rounded to nearest, ties to even.
fn round_shift(value: u32, shift: u32) -> u32 {
    let kept = value >> shift;
    let rest = value & ((1 << shift) - 1);
    let half = 1 << (shift - 1);
    if rest > half || (rest == half && kept & 1 == 1) {
        kept + 1
    } else {
        kept
    }
}

#[cfg(test)]
mod tests {
    use super::f32_to_f16_bits;

    #[test]
    fn half_conversion_matches_ieee_rounding() {
        let cases: [(f32, u16); 10] = [
            (0.0, 0x0000),
            (-0.0, 0x8000),
            (1.0, 0x3c00),
            (-2.5, 0xc100),
            (65504.0, 0x7bff),
            (70000.0, 0x7c00),
            (6.1035156e-5, 0x0400), // smallest normal
            (5.9604645e-8, 0x0001), // smallest subnormal
            (1.0 + 1.0 / 2048.0, 0x3c00), // tie: rounds to even
            (1.0 + 3.0 / 2048.0, 0x3c02), // tie: rounds to even (up)
        ];
        for (x, bits) in cases {
            assert_eq!(f32_to_f16_bits(x), bits, "{x}");
        }
        assert_eq!(f32_to_f16_bits(f32::NAN) & 0x7e00, 0x7e00);
    }
}
