//! `precis timeline-eval`: summarize each day of the ml_crisis topics that
//! has a reference timeline entry and score the summary against that day's
//! entries with ROUGE-1/2 (Unicode tokens, no stemming: ROUGE-1.5.5 would
//! drop every accented word).
//!
//! Tracks: `es` and `fr` (a language's articles of the day against the same
//! language's entries) and `mixed>es`, `mixed>fr` (the Spanish and French
//! articles of the day together, against each language's entries).
//!
//! With `--languages`, only the tracks scored against a chosen language's
//! reference run, and each `mixed>xx` track gets a twin, `xx only (mixed
//! days)`: the same days summarized from that language's articles alone,
//! i.e. with a centroid of one language instead of both.
//!
//! Budget: 50 words by default, the same for every day and method; or
//! `--reference-budget`: the day's reference length in words (often under
//! 20 words, so a day may get no sentence at all).

use super::flags::{ModelsFlag, CacheFlag, ThreadsFlag};
use super::models::{load_heads, models_dir};
use super::settings::SettingsArgs;
use super::cache::embed_cached;
use anyhow::{bail, Result};
use precis::datasets::ml_crisis::{self, TopicData};
use precis::centroid::Heads;
use precis::dates::CivilDate;
use precis::document::{Cluster, Document};
use precis::encoder::Embedding;
use precis::eval::bootstrap::BootstrapConfig;
use precis::eval::rouge::{self, CorpusRouge, Metric, RougeConfig, RougeScores};
use precis::select::topic::{TopicEmbeddings, TopicTexts};
use precis::select::Trace;
use precis::summarize::{summarize, SummaryRequest, Budget, Method, Settings};
use precis::text::count_words;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

const DEFAULT_BUDGET_WORDS: usize = 50;

#[derive(clap::Args)]
pub struct TimelineEvalArgs {
    /// The ml_crisis folder (`<lang>/<topic>/<YYYY-MM-DD>/*.txt`, `<lang>/reference/<topic>.txt`).
    #[arg(long)]
    pub data: PathBuf,
    /// Comma-separated methods.
    #[arg(long, value_delimiter = ',', value_parser = super::registry_args::method_parser(), default_value = "location,mmr,tbmmr,gg,bs+gs")]
    pub methods: Vec<Method>,
    /// Writes OUT/results.json (every day's summaries and scores, and the tables).
    #[arg(long)]
    pub out: PathBuf,
    /// Budget each day with its reference's length in words (default: a fixed --budget, 50 words).
    #[arg(long, conflicts_with_all = ["budget", "budget_percent", "budget_sentences"])]
    pub reference_budget: bool,
    /// Which reference days: all; tune (every third day, for choosing settings); report (the others).
    #[arg(long, value_enum, default_value = "all")]
    pub days: DaySplit,
    #[command(flatten)]
    pub models: ModelsFlag,
    /// Folder of the trained centroid heads for cera and cerai (default: MODELS/cera).
    #[arg(long)]
    pub heads: Option<PathBuf>,
    #[command(flatten)]
    pub cache: CacheFlag,
    #[command(flatten)]
    pub threads: ThreadsFlag,
    #[command(flatten)]
    pub settings: SettingsArgs,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DaySplit {
    All,
    Tune,
    Report,
}

impl DaySplit {
    /// A third of the days (by date, so both languages agree) are for tuning.
    fn includes(self, date: CivilDate) -> bool {
        let tuning = date.to_unix_days().rem_euclid(3) == 0;
        match self {
            DaySplit::All => true,
            DaySplit::Tune => tuning,
            DaySplit::Report => !tuning,
        }
    }
}

/// The articles summarized for one track, topic and day.
struct DayCluster {
    name: String,
    cluster: Cluster,
    topic_texts: TopicTexts,
}

/// One scored summary: a day cluster against one language's reference.
struct Case {
    track: String,
    topic: String,
    date: CivilDate,
    cluster: usize,
    reference: Vec<String>,
}

#[derive(Serialize)]
struct CaseResult {
    track: String,
    topic: String,
    date: CivilDate,
    cluster: String,
    reference: Vec<String>,
    budget_words: usize,
    methods: BTreeMap<String, MethodOutcome>,
}

#[derive(Serialize)]
struct MethodOutcome {
    summary: Vec<String>,
    words: usize,
    rouge_1: rouge::Prf,
    rouge_2: rouge::Prf,
    /// TBMMR's structure decision ("sequential" / "divergent").
    #[serde(skip_serializing_if = "Option::is_none")]
    structure: Option<String>,
    #[serde(skip)]
    scores: RougeScores,
}

#[derive(Serialize)]
struct TrackReport {
    track: String,
    days: usize,
    methods: Vec<MethodReport>,
}

#[derive(Serialize)]
struct MethodReport {
    method: String,
    mean_words: f64,
    /// TBMMR: days read as divergent.
    #[serde(skip_serializing_if = "Option::is_none")]
    divergent_days: Option<usize>,
    rouge: CorpusRouge,
}

pub fn run(args: TimelineEvalArgs) -> Result<()> {
    args.threads.apply();
    let topics = ml_crisis::load(&args.data)?;
    let (clusters, cases) = build_cases(&topics, args.days, &args.settings.settings.languages)?;
    if cases.is_empty() {
        bail!(
            "{}: no day has both articles and a reference entry",
            args.data.display()
        );
    }
    eprintln!("{} day clusters, {} scored cases", clusters.len(), cases.len());
    let embedded = embed_clusters(&clusters, &args)?;
    let heads = load_heads(args.models.dir(), args.heads.as_deref(), &args.methods)?;
    let results: Vec<CaseResult> = cases
        .par_iter()
        .map(|case| run_case(case, &clusters[case.cluster], &embedded[case.cluster], &heads, &args))
        .collect::<Result<_>>()?;
    let tracks = report(&results, &args.methods);
    print_tables(&tracks, &args);
    let json = serde_json::json!({
        "data": args.data,
        "days": args.days,
        "budget": budget_description(&args),
        "rouge": "ROUGE-1/2, Unicode tokens, no stemming, no stopword removal, mean over days with 95% bootstrap intervals",
        "settings": base_settings(&args, Method::Tbmmr),
        "tracks": tracks,
        "cases": results,
    });
    std::fs::create_dir_all(&args.out)?;
    let path = args.out.join("results.json");
    std::fs::write(&path, serde_json::to_string_pretty(&json)? + "\n")?;
    eprintln!("wrote {}", path.display());
    Ok(())
}

/// Day clusters (each language alone, and both together) and the cases that
/// score them: every day of the split with articles and a reference entry.
fn build_cases(topics: &[TopicData], split: DaySplit, languages: &[String]) -> Result<(Vec<DayCluster>, Vec<Case>)> {
    let scored = |lang: &str| languages.is_empty() || languages.iter().any(|l| l == lang);
    let mut clusters: Vec<DayCluster> = vec![];
    let mut cases: Vec<Case> = vec![];
    let mut by_topic: BTreeMap<&str, Vec<&TopicData>> = BTreeMap::new();
    for data in topics {
        by_topic.entry(data.topic.as_str()).or_default().push(data);
    }
    for (topic, languages) in by_topic {
        let mut reference_days: Vec<CivilDate> = languages.iter().flat_map(|l| l.reference_days()).collect();
        reference_days.sort();
        reference_days.dedup();
        for date in reference_days.into_iter().filter(|d| split.includes(*d)) {
            let articles: Vec<(&TopicData, Vec<Document>)> = languages
                .iter()
                .map(|l| Ok((*l, l.articles(date)?)))
                .collect::<Result<_>>()?;
            let mut alone: BTreeMap<&str, usize> = BTreeMap::new();
            for (data, documents) in &articles {
                let reference = data.reference_of(date);
                if documents.is_empty() || reference.is_empty() || !scored(&data.lang) {
                    continue;
                }
                clusters.push(day_cluster(
                    format!("{}/{topic}/{date}", data.lang),
                    documents.clone(),
                ));
                alone.insert(&data.lang, clusters.len() - 1);
                cases.push(Case {
                    track: data.lang.clone(),
                    topic: topic.into(),
                    date,
                    cluster: clusters.len() - 1,
                    reference,
                });
            }
            let with_articles: Vec<&(&TopicData, Vec<Document>)> =
                articles.iter().filter(|(_, d)| !d.is_empty()).collect();
            if with_articles.len() < 2 {
                continue;
            }
            let mixed: Vec<Document> = with_articles
                .iter()
                .flat_map(|(_, d)| d.iter().cloned())
                .collect();
            let languages_label: Vec<&str> = with_articles.iter().map(|(l, _)| l.lang.as_str()).collect();
            clusters.push(day_cluster(
                format!("{}/{topic}/{date}", languages_label.join("+")),
                mixed,
            ));
            let mixed_cluster = clusters.len() - 1;
            for (data, _) in &articles {
                let reference = data.reference_of(date);
                if reference.is_empty() || !scored(&data.lang) {
                    continue;
                }
                let case = |track: String, cluster: usize| Case { track, topic: topic.into(), date, cluster, reference: reference.clone() };
                cases.push(case(format!("mixed>{}", data.lang), mixed_cluster));
                if let (false, Some(&cluster)) = (languages.is_empty(), alone.get(data.lang.as_str())) {
                    cases.push(case(format!("{} only (mixed days)", data.lang), cluster));
                }
            }
        }
    }
    Ok((clusters, cases))
}

fn day_cluster(name: String, documents: Vec<Document>) -> DayCluster {
    let cluster = Cluster::new(documents);
    let topic_texts = TopicTexts::new(&cluster, None);
    DayCluster {
        name,
        cluster,
        topic_texts,
    }
}

/// Sentence and topic embeddings of every cluster, each distinct text
/// embedded once (and cached on disk).
fn embed_clusters(
    clusters: &[DayCluster],
    args: &TimelineEvalArgs,
) -> Result<Vec<(Vec<Embedding>, TopicEmbeddings)>> {
    let mut unique: Vec<&str> = vec![];
    let mut index: HashMap<&str, usize> = HashMap::new();
    for day in clusters {
        for text in day.cluster.texts().into_iter().chain(day.topic_texts.texts()) {
            index.entry(text).or_insert_with(|| {
                unique.push(text);
                unique.len() - 1
            });
        }
    }
    eprintln!(
        "{} distinct texts to embed (models: {})",
        unique.len(),
        models_dir(args.models.dir()).display()
    );
    let vectors = embed_cached(&unique, args.models.dir(), args.cache.dir())?;
    let lookup = |texts: Vec<&str>| {
        texts
            .iter()
            .map(|t| vectors[index[t]])
            .collect::<Vec<Embedding>>()
    };
    clusters
        .iter()
        .map(|day| {
            let topic = day
                .topic_texts
                .embedded(lookup(day.topic_texts.texts()))
                .map_err(anyhow::Error::msg)?;
            Ok((lookup(day.cluster.texts()), topic))
        })
        .collect()
}

fn base_settings(args: &TimelineEvalArgs, method: Method) -> Settings {
    args.settings.to_settings(method, DEFAULT_BUDGET_WORDS)
}

fn budget_description(args: &TimelineEvalArgs) -> String {
    if args.reference_budget {
        "the day's reference length in words".into()
    } else {
        base_settings(args, Method::Tbmmr).budget.describe()
    }
}

fn run_case(
    case: &Case,
    day: &DayCluster,
    (embeddings, topic): &(Vec<Embedding>, TopicEmbeddings),
    heads: &Heads,
    args: &TimelineEvalArgs,
) -> Result<CaseResult> {
    let reference_words: usize = case.reference.iter().map(|s| count_words(s)).sum();
    let config = RougeConfig {
        max_n: 2,
        ..RougeConfig::multilingual(false, None)
    };
    let mut methods = BTreeMap::new();
    let mut budget_words = 0;
    for &method in &args.methods {
        let mut settings = base_settings(args, method);
        if args.reference_budget {
            settings.budget = Budget::Words(reference_words);
        }
        let summary = summarize(&SummaryRequest { topic: Some(topic), heads: Some(heads), ..SummaryRequest::new(&day.cluster, embeddings, &settings) })?;
        budget_words = summary.limit;
        let sentences: Vec<String> = summary
            .sentences
            .iter()
            .map(|&s| day.cluster.sentences[s].text.clone())
            .collect();
        let scores = rouge::score(&sentences, &[&case.reference], &config);
        let structure = match &summary.trace {
            Trace::Mmr(trace) => trace
                .topic
                .as_ref()
                .map(|t| format!("{:?}", t.structure).to_lowercase()),
            _ => None,
        };
        methods.insert(
            method.name().to_string(),
            MethodOutcome {
                words: summary.cost,
                rouge_1: scores.get(Metric::N(1)).unwrap_or_default(),
                rouge_2: scores.get(Metric::N(2)).unwrap_or_default(),
                summary: sentences,
                structure,
                scores,
            },
        );
    }
    Ok(CaseResult {
        track: case.track.clone(),
        topic: case.topic.clone(),
        date: case.date,
        cluster: day.name.clone(),
        reference: case.reference.clone(),
        budget_words,
        methods,
    })
}

/// Per track (es, fr, mixed>es, mixed>fr) and method: ROUGE over the days.
fn report(results: &[CaseResult], methods: &[Method]) -> Vec<TrackReport> {
    let mut tracks: Vec<String> = results.iter().map(|r| r.track.clone()).collect();
    tracks.sort();
    tracks.dedup();
    tracks
        .into_iter()
        .map(|track| {
            let cases: Vec<&CaseResult> = results.iter().filter(|r| r.track == track).collect();
            let methods = methods
                .iter()
                .map(|m| {
                    let outcomes: Vec<&MethodOutcome> = cases.iter().map(|c| &c.methods[m.name()]).collect();
                    let scores: Vec<RougeScores> = outcomes.iter().map(|o| o.scores.clone()).collect();
                    let divergent = outcomes
                        .iter()
                        .filter(|o| o.structure.as_deref() == Some("divergent"))
                        .count();
                    MethodReport {
                        method: m.name().to_string(),
                        mean_words: outcomes.iter().map(|o| o.words as f64).sum::<f64>()
                            / outcomes.len() as f64,
                        divergent_days: (*m == Method::Tbmmr).then_some(divergent),
                        rouge: CorpusRouge::from_scores(&scores, &BootstrapConfig::default()),
                    }
                })
                .collect();
            TrackReport {
                track,
                days: cases.len(),
                methods,
            }
        })
        .collect()
}

fn print_tables(tracks: &[TrackReport], args: &TimelineEvalArgs) {
    println!(
        "ml_crisis timelines ({:?} days), budget {}, ROUGE x100 (Unicode tokens, no stemming) [95% CI]",
        args.days,
        budget_description(args)
    );
    for track in tracks {
        println!("\n{} ({} days)", track.track, track.days);
        println!(
            "{:<8} {:>20} {:>20} {:>20} {:>20} {:>7}",
            "method", "R1-R", "R1-F", "R2-R", "R2-F", "words"
        );
        for m in &track.methods {
            let cell =
                |metric: Metric, pick: fn(&rouge::CorpusMetric) -> precis::eval::bootstrap::Estimate| {
                    m.rouge.get(metric).map_or("-".into(), |c| {
                        let e = pick(c);
                        format!(
                            "{:.2} [{:.2}-{:.2}]",
                            100.0 * e.mean,
                            100.0 * e.low,
                            100.0 * e.high
                        )
                    })
                };
            println!(
                "{:<8} {:>20} {:>20} {:>20} {:>20} {:>7.1}",
                m.method,
                cell(Metric::N(1), |c| c.recall),
                cell(Metric::N(1), |c| c.f),
                cell(Metric::N(2), |c| c.recall),
                cell(Metric::N(2), |c| c.f),
                m.mean_words
            );
        }
    }
}
