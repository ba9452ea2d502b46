//! `precis evaluate`: run methods over a dataset, write every summary, score
//! them with ROUGE (as ROUGE-1.5.5 would) and print a Table-4-style report.

use super::flags::{ModelsFlag, ThreadsFlag};
use super::models::{load_encoder, load_heads};
use super::settings::SettingsArgs;
use anyhow::{bail, Context, Result};
use super::progress::cluster_bar;
use precis::datasets::{Dataset, EvalCluster};
use precis::centroid::Heads;
use precis::document::Cluster;
use precis::encoder::Encoder;
use precis::eval::bootstrap::{BootstrapConfig, Estimate};
use precis::eval::rouge::{self, CorpusRouge, Metric, RougeConfig};
use precis::summarize::{summarize, Method, SummaryRequest};
use rayon::prelude::*;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[derive(clap::Args)]
pub struct EvaluateArgs {
    #[arg(long, value_enum)]
    pub dataset: Dataset,
    /// The dataset: DUC2004's root folder, or a Multi-News .jsonl.gz (or its folder).
    #[arg(long)]
    pub data: PathBuf,
    /// Comma-separated methods.
    #[arg(long, value_delimiter = ',', value_parser = super::registry_args::method_parser(), default_value = "gg,bs,bs+gs,oracle")]
    pub methods: Vec<Method>,
    /// Evaluate only the first K clusters.
    #[arg(long)]
    pub limit_clusters: Option<usize>,
    /// Summaries go to OUT/<method>/<cluster>.txt, scores to OUT/results.json.
    #[arg(long)]
    pub out: PathBuf,
    #[command(flatten)]
    pub models: ModelsFlag,
    /// Folder of the trained centroid heads for cera and cerai (default: MODELS/cera).
    #[arg(long)]
    pub heads: Option<PathBuf>,
    #[command(flatten)]
    pub threads: ThreadsFlag,
    /// Let page furniture be picked (as before the prose filter and the
    /// prose reader), to measure them.
    #[arg(long)]
    pub keep_furniture: bool,
    #[command(flatten)]
    pub settings: SettingsArgs,
}

/// What one cluster produced.
struct ClusterRun {
    name: String,
    references: Vec<Vec<String>>,
    /// Per method (in `--methods` order): the summary's sentences.
    summaries: Vec<Vec<String>>,
    words: Vec<usize>,
    encode_time: Duration,
    select_time: Vec<Duration>,
}

#[derive(Serialize)]
pub struct MethodReport {
    pub method: String,
    pub clusters: usize,
    pub mean_words: f64,
    /// Clusters per second for selection alone, and with encoding.
    pub selection_clusters_per_second: f64,
    pub clusters_per_second: f64,
    pub rouge: CorpusRouge,
}

pub fn run(args: EvaluateArgs) -> Result<()> {
    let started = Instant::now();
    let mut clusters = args.dataset.load(&args.data)?;
    if let Some(k) = args.limit_clusters {
        clusters.truncate(k);
    }
    if clusters.is_empty() {
        bail!("{}: no clusters found", args.data.display());
    }
    let budget = args.settings.budget.budget.unwrap_or(args.dataset.default_budget());
    let encoder = load_encoder(args.models.dir())?;
    let heads = load_heads(args.models.dir(), args.heads.as_deref(), &args.methods)?;
    args.threads.apply();
    let progress = cluster_bar(clusters.len());
    let runs: Vec<ClusterRun> = clusters
        .par_iter()
        .map(|c| {
            let run = run_cluster(&encoder, &heads, c, &args, budget);
            progress.inc(1);
            run
        })
        .collect::<Result<_>>()?;
    progress.finish_and_clear();
    let wall = started.elapsed();
    write_summaries(&args.out, &args.methods, &runs)?;
    let reports = report(&args.methods, &runs, budget)?;
    print_table(&args, &reports, runs.len(), wall);
    let json = serde_json::json!({
        "dataset": format!("{:?}", args.dataset).to_lowercase(),
        "data": args.data,
        "budget_words": budget,
        "clusters": runs.len(),
        "wall_seconds": wall.as_secs_f64(),
        "settings": args.settings.to_settings(Method::BeamGreedy, budget),
        "methods": reports,
    });
    let path = args.out.join("results.json");
    std::fs::write(&path, serde_json::to_string_pretty(&json)? + "\n")
        .with_context(|| format!("{}", path.display()))?;
    eprintln!("wrote {} and {}/<method>/<cluster>.txt", path.display(), args.out.display());
    Ok(())
}

fn run_cluster(
    encoder: &Encoder,
    heads: &Heads,
    eval: &EvalCluster,
    args: &EvaluateArgs,
    budget: usize,
) -> Result<ClusterRun> {
    let cluster = if args.keep_furniture {
        Cluster::unfiltered(eval.documents.clone())
    } else {
        Cluster::new(eval.documents.clone())
    };
    let t = Instant::now();
    let embeddings = encoder.encode(&cluster.texts())?;
    let reference = if args.methods.iter().any(|m| m.needs_reference()) {
        let sentences: Vec<&str> = eval.references.iter().flatten().map(String::as_str).collect();
        Some(encoder.encode(&sentences)?)
    } else {
        None
    };
    let encode_time = t.elapsed();
    let mut run = ClusterRun {
        name: eval.name.clone(),
        references: eval.references.clone(),
        summaries: vec![],
        words: vec![],
        encode_time,
        select_time: vec![],
    };
    for &method in &args.methods {
        let t = Instant::now();
        let mut settings = args.settings.to_settings(method, budget);
        settings.prose_reader &= !args.keep_furniture;
        let request = SummaryRequest { reference: reference.as_deref(), heads: Some(heads), ..SummaryRequest::new(&cluster, &embeddings, &settings) };
        let summary = summarize(&request)
            .with_context(|| format!("cluster {}, method {}", eval.name, method.name()))?;
        run.select_time.push(t.elapsed());
        run.words.push(summary.sentences.iter().map(|&s| cluster.sentences[s].words).sum());
        run.summaries.push(summary.sentences.iter().map(|&s| cluster.sentences[s].text.clone()).collect());
    }
    Ok(run)
}

fn write_summaries(out: &Path, methods: &[Method], runs: &[ClusterRun]) -> Result<()> {
    for (m, method) in methods.iter().enumerate() {
        let dir = out.join(method.name());
        std::fs::create_dir_all(&dir).with_context(|| format!("{}", dir.display()))?;
        for run in runs {
            let mut text = run.summaries[m].join("\n");
            text.push('\n');
            std::fs::write(dir.join(format!("{}.txt", run.name)), text)?;
        }
    }
    Ok(())
}

fn report(methods: &[Method], runs: &[ClusterRun], budget: usize) -> Result<Vec<MethodReport>> {
    let config = RougeConfig::rouge155(Some(budget));
    let encode: Duration = runs.iter().map(|r| r.encode_time).sum();
    methods
        .iter()
        .enumerate()
        .map(|(m, method)| {
            let pairs: Vec<(Vec<String>, Vec<Vec<String>>)> =
                runs.iter().map(|r| (r.summaries[m].clone(), r.references.clone())).collect();
            let select: Duration = runs.iter().map(|r| r.select_time[m]).sum();
            let n = runs.len() as f64;
            Ok(MethodReport {
                method: method.name().to_string(),
                clusters: runs.len(),
                mean_words: runs.iter().map(|r| r.words[m] as f64).sum::<f64>() / n,
                selection_clusters_per_second: n / select.as_secs_f64().max(1e-9),
                clusters_per_second: n / (select + encode).as_secs_f64().max(1e-9),
                rouge: rouge::evaluate(&pairs, &config, &BootstrapConfig::default()),
            })
        })
        .collect()
}

fn print_table(args: &EvaluateArgs, reports: &[MethodReport], clusters: usize, wall: Duration) {
    println!(
        "{:?}: {} clusters, budget {} words, ROUGE-1.5.5 (-n 4 -m -a -c 95 -r 1000 -f A -p 0.5 -t 0), recall and F1 x100 [95% CI]",
        args.dataset,
        clusters,
        args.settings.budget.budget.unwrap_or(args.dataset.default_budget())
    );
    println!(
        "{:<8} {:>22} {:>22} {:>22} {:>22} {:>22} {:>22} {:>7} {:>10}",
        "method", "R1-R", "R1-F", "R2-R", "R2-F", "RL-R", "RL-F", "words", "sel cl/s"
    );
    for r in reports {
        // ROUGE-1.5.5 prints the mean of the bootstrap resamples as "Average".
        let cell = |e: Estimate| format!("{:.2} [{:.2}-{:.2}]", 100.0 * e.bootstrap_mean, 100.0 * e.low, 100.0 * e.high);
        let metric = |m: Metric| r.rouge.get(m).expect("ROUGE-1, 2 and L are always computed");
        let (r1, r2, rl) = (metric(Metric::N(1)), metric(Metric::N(2)), metric(Metric::L));
        println!(
            "{:<8} {:>22} {:>22} {:>22} {:>22} {:>22} {:>22} {:>7.1} {:>10.1}",
            r.method,
            cell(r1.recall),
            cell(r1.f),
            cell(r2.recall),
            cell(r2.f),
            cell(rl.recall),
            cell(rl.f),
            r.mean_words,
            r.selection_clusters_per_second
        );
    }
    println!(
        "wall time {:.1} s for {} clusters x {} methods, encoding included ({:.1} clusters/s)",
        wall.as_secs_f64(),
        clusters,
        reports.len(),
        clusters as f64 / wall.as_secs_f64()
    );
}
