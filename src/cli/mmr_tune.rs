//! `precis mmr-tune`: a grid search of the MMR family's knobs (λ for SMMR;
//! λ, μ, the seed threshold and γ for TBMMR) on Multi-News validation,
//! scored with ROUGE-1.5.5 (stemming, `-l` budget) as `precis evaluate`
//! does. The centroid greedy (gg) and Location run alongside as reference
//! points. DUC2004 is for reporting only, so it is refused here.

use super::flags::{ModelsFlag, CacheFlag, ThreadsFlag};
use super::cache::embed_cached;
use anyhow::{bail, Result};
use precis::datasets::{Dataset, EvalCluster};
use precis::document::Cluster;
use precis::encoder::Embedding;
use precis::eval::rouge::{self, Metric, RougeConfig};
use precis::select::topic::{TopicEmbeddings, TopicTexts};
use precis::summarize::{summarize, SummaryRequest, Budget, Method, Settings};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::HashMap;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct MmrTuneArgs {
    /// A Multi-News .jsonl(.gz) file: validation, or its full-text sample.
    #[arg(long)]
    pub data: PathBuf,
    /// Use only the first K clusters.
    #[arg(long)]
    pub limit_clusters: Option<usize>,
    /// Budget in words.
    #[arg(long, default_value_t = 230)]
    pub budget: usize,
    #[arg(long, value_delimiter = ',', default_value = "0.3,0.5,0.7,0.8,0.9")]
    pub lambda: Vec<f32>,
    #[arg(long, value_delimiter = ',', default_value = "0,0.1,0.2,0.3,0.5,1")]
    pub mu: Vec<f32>,
    #[arg(long, value_delimiter = ',', default_value = "0.3,0.5,0.7")]
    pub seed_threshold: Vec<f32>,
    #[arg(long, value_delimiter = ',', default_value = "0.4")]
    pub gamma: Vec<f32>,
    /// n: candidates are among the first n prose sentences of each document (as in `summarize`).
    #[arg(long, default_value_t = 9)]
    pub first_sentences: usize,
    /// Writes OUT/mmr-tune.json with every configuration's scores.
    #[arg(long)]
    pub out: PathBuf,
    #[command(flatten)]
    pub models: ModelsFlag,
    #[command(flatten)]
    pub cache: CacheFlag,
    #[command(flatten)]
    pub threads: ThreadsFlag,
}

#[derive(Serialize)]
struct ConfigScore {
    method: &'static str,
    /// The knobs the method uses (None for the others).
    lambda: Option<f32>,
    mu: Option<f32>,
    seed_threshold: Option<f32>,
    gamma: Option<f32>,
    rouge_1_recall: f64,
    rouge_2_recall: f64,
    rouge_2_f: f64,
    mean_words: f64,
}

pub fn run(args: MmrTuneArgs) -> Result<()> {
    args.threads.apply();
    if args.data.to_string_lossy().to_lowercase().contains("duc") {
        bail!("DUC2004 is for reporting, not tuning: tune on Multi-News validation");
    }
    let mut clusters = Dataset::Multinews.load(&args.data)?;
    clusters.truncate(args.limit_clusters.unwrap_or(usize::MAX));
    let prepared: Vec<Cluster> = clusters
        .iter()
        .map(|c| Cluster::new(c.documents.clone()))
        .collect();
    let embedded = embed_all(&prepared, &args)?;
    let configs = grid(&args);
    eprintln!("{} clusters x {} configurations", clusters.len(), configs.len());
    let config = RougeConfig {
        max_n: 2,
        ..RougeConfig::rouge155(Some(args.budget))
    };
    // scores[cluster][config] = (R1-R, R2-R, R2-F, words)
    let scores: Vec<Vec<[f64; 4]>> = (0..clusters.len())
        .into_par_iter()
        .map(|i| score_cluster(&clusters[i], &prepared[i], &embedded[i], &configs, &config))
        .collect::<Result<_>>()?;
    let mut results: Vec<ConfigScore> = configs
        .iter()
        .enumerate()
        .map(|(k, settings)| {
            let mean = |j: usize| scores.iter().map(|s| s[k][j]).sum::<f64>() / scores.len().max(1) as f64;
            let tbmmr = settings.method == Method::Tbmmr;
            ConfigScore {
                method: settings.method.name(),
                lambda: settings.method.uses_topic().then_some(settings.lambda),
                mu: tbmmr.then_some(settings.mu),
                seed_threshold: tbmmr.then_some(settings.seed_threshold),
                gamma: tbmmr.then_some(settings.gamma),
                rouge_1_recall: mean(0),
                rouge_2_recall: mean(1),
                rouge_2_f: mean(2),
                mean_words: mean(3),
            }
        })
        .collect();
    results.sort_by(|a, b| b.rouge_2_recall.total_cmp(&a.rouge_2_recall));
    print_best(&results);
    std::fs::create_dir_all(&args.out)?;
    let path = args.out.join("mmr-tune.json");
    let json = serde_json::json!({"data": args.data, "clusters": clusters.len(), "budget_words": args.budget, "results": results});
    std::fs::write(&path, serde_json::to_string_pretty(&json)? + "\n")?;
    eprintln!("wrote {}", path.display());
    Ok(())
}

/// gg and Location once; SMMR per λ; TBMMR per λ, μ, threshold and γ.
fn grid(args: &MmrTuneArgs) -> Vec<Settings> {
    let base = Settings {
        budget: Budget::Words(args.budget),
        first_sentences: args.first_sentences,
        ..Default::default()
    };
    let mut configs = vec![
        Settings {
            method: Method::Greedy,
            ..base.clone()
        },
        Settings {
            method: Method::Location,
            ..base.clone()
        },
    ];
    configs.extend(args.lambda.iter().map(|&lambda| Settings {
        method: Method::Mmr,
        lambda,
        ..base.clone()
    }));
    for &lambda in &args.lambda {
        for &mu in &args.mu {
            for &seed_threshold in &args.seed_threshold {
                for &gamma in &args.gamma {
                    let tbmmr = Settings {
                        method: Method::Tbmmr,
                        lambda,
                        mu,
                        seed_threshold,
                        gamma,
                        ..base.clone()
                    };
                    configs.push(tbmmr);
                }
            }
        }
    }
    configs
}

/// Sentence and topic embeddings of every cluster (each distinct text once, cached).
fn embed_all(clusters: &[Cluster], args: &MmrTuneArgs) -> Result<Vec<(Vec<Embedding>, TopicEmbeddings)>> {
    let topics: Vec<TopicTexts> = clusters.iter().map(|c| TopicTexts::new(c, None)).collect();
    let mut unique: Vec<&str> = vec![];
    let mut index: HashMap<&str, usize> = HashMap::new();
    for (cluster, topic) in clusters.iter().zip(&topics) {
        for text in cluster.texts().into_iter().chain(topic.texts()) {
            index.entry(text).or_insert_with(|| {
                unique.push(text);
                unique.len() - 1
            });
        }
    }
    let vectors = embed_cached(&unique, args.models.dir(), args.cache.dir())?;
    let lookup = |texts: Vec<&str>| {
        texts
            .iter()
            .map(|t| vectors[index[t]])
            .collect::<Vec<Embedding>>()
    };
    clusters
        .iter()
        .zip(&topics)
        .map(|(cluster, topic)| {
            let embedded = topic
                .embedded(lookup(topic.texts()))
                .map_err(anyhow::Error::msg)?;
            Ok((lookup(cluster.texts()), embedded))
        })
        .collect()
}

fn score_cluster(
    eval: &EvalCluster,
    cluster: &Cluster,
    (embeddings, topic): &(Vec<Embedding>, TopicEmbeddings),
    configs: &[Settings],
    config: &RougeConfig,
) -> Result<Vec<[f64; 4]>> {
    configs
        .iter()
        .map(|settings| {
            let summary = summarize(&SummaryRequest { topic: Some(topic), ..SummaryRequest::new(cluster, embeddings, settings) })?;
            let sentences: Vec<String> = summary
                .sentences
                .iter()
                .map(|&s| cluster.sentences[s].text.clone())
                .collect();
            let scores = rouge::score(&sentences, &eval.references, config);
            let r1 = scores.get(Metric::N(1)).unwrap_or_default();
            let r2 = scores.get(Metric::N(2)).unwrap_or_default();
            Ok([r1.recall, r2.recall, r2.f, summary.cost as f64])
        })
        .collect()
}

fn print_best(results: &[ConfigScore]) {
    println!(
        "{:<9} {:>5} {:>5} {:>6} {:>5} {:>7} {:>7} {:>7} {:>6}",
        "method", "λ", "μ", "θ", "γ", "R1-R", "R2-R", "R2-F", "words"
    );
    let knob = |k: Option<f32>| k.map_or("-".to_string(), |k| k.to_string());
    let line = |r: &ConfigScore| {
        println!(
            "{:<9} {:>5} {:>5} {:>6} {:>5} {:>7.2} {:>7.2} {:>7.2} {:>6.1}",
            r.method,
            knob(r.lambda),
            knob(r.mu),
            knob(r.seed_threshold),
            knob(r.gamma),
            100.0 * r.rouge_1_recall,
            100.0 * r.rouge_2_recall,
            100.0 * r.rouge_2_f,
            r.mean_words
        )
    };
    results.iter().take(15).for_each(line);
    println!("best per method:");
    for method in [Method::Greedy, Method::Location, Method::Mmr, Method::Tbmmr] {
        if let Some(best) = results.iter().find(|r| r.method == method.name()) {
            line(best);
        }
    }
}
