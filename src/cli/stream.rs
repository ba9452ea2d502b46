//! `precis stream`: replay dated documents through a streaming policy.
//!
//! With `--data YEAR_DIR` it replays each TREC-TS event and prints the
//! TREC-TS scores per event and their mean; with files it prints the
//! timeline of updates of the user's own articles.

use super::flags::{ModelsFlag, CacheFlag};
use super::cache::{embed_cached, embed_cached_units};
use anyhow::{anyhow, bail, Context, Result};
use precis::dates::format_date_time;
use precis::document::Document;
use precis::encoder::Embedding;
use precis::input::{documents_from_file, parse_iso8601};
use precis::stream::replay::ReplaySet;
use precis::stream::{Action, PolicyKind};
use std::collections::HashMap;
use precis::stream::evaluate::{replay, LabeledStream};
use precis::stream::settings::{StreamSettings, SETTINGS_FORMAT};
use precis::stream::metrics::{self, Scores};
use precis::stream::train::{self, LolsConfig, TuningGrid};
use precis::stream::trec::{self, TrecUpdate, Year};
use precis::stream::StateConfig;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct StreamArgs {
    /// A TREC-TS year folder (topics, nuggets, matches, updates) to replay and score.
    #[arg(long, conflicts_with = "files")]
    pub data: Option<PathBuf>,
    /// Your own dated articles: JSON/JSONL with a `date` field, or a
    /// YYYY-MM-DD in the file name, else file order.
    pub files: Vec<PathBuf>,
    #[arg(long, value_parser = super::registry_args::policy_parser(), default_value_t = PolicyKind::default())]
    pub policy: PolicyKind,
    /// The event query (default: the topic's query; for files, the first
    /// document's first sentence).
    #[arg(long)]
    pub query: Option<String>,
    /// A reader's topic or question steering every policy (files only): it
    /// pulls the query and the running centroid towards itself, and COS's
    /// lead sentence, by --topic-weight.
    #[arg(long, conflicts_with = "data")]
    pub topic: Option<String>,
    /// w in 0..=1: how far --topic steers (0: no effect).
    #[arg(long, default_value_t = 0.0, requires = "topic", value_parser = super::summarize::parse_weight)]
    pub topic_weight: f32,
    /// Write the updates of the run as TSV (query_id, update_id, timestamp).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Override the similarity threshold of cos, ls+cos or apsal.
    #[arg(long, allow_hyphen_values = true)]
    pub threshold: Option<f32>,
    /// Policy settings (default: models/stream/ls.json).
    #[arg(long)]
    pub settings: Option<PathBuf>,
    #[command(flatten)]
    pub models: ModelsFlag,
    #[command(flatten)]
    pub cache: CacheFlag,
}

pub fn run(args: StreamArgs) -> Result<()> {
    let mut settings = load_settings(&args)?;
    if let Some(t) = args.threshold {
        // Any number: tests use thresholds no cosine reaches (1.5, -2).
        settings.cos_threshold = t;
        settings.ls_cos_threshold = t;
        settings.apsal.threshold = t;
    }
    match &args.data {
        Some(dir) => run_trec(&args, &settings, dir),
        None if !args.files.is_empty() => run_files(&args, &settings),
        None => bail!("give --data YEAR_DIR or article files"),
    }
}

/// The settings file; only COS and APSAL may run without one (defaults).
fn load_settings(args: &StreamArgs) -> Result<StreamSettings> {
    precis::models::load_stream_settings(args.settings.as_deref(), args.models.dir(), args.policy)
}

fn run_trec(args: &StreamArgs, settings: &StreamSettings, dir: &Path) -> Result<()> {
    let (year, streams) = prepare_year(dir, args.query.as_deref(), args.models.dir(), args.cache.dir())?;
    let mut updates = Vec::new();
    for (event, stream) in year.events.iter().zip(&streams) {
        let ids = event.update_ids();
        let run = replay(settings.policy(args.policy), stream, settings.state);
        updates.extend(run.updates.iter().map(|&(sentence, time)| TrecUpdate {
            query_id: event.query_id.clone(),
            update_id: ids[sentence].to_string(),
            time,
        }));
    }
    if let Some(out_dir) = &args.out {
        std::fs::create_dir_all(out_dir).with_context(|| format!("cannot create {}", out_dir.display()))?;
        let path = out_dir.join(format!("{}.tsv", args.policy));
        std::fs::write(&path, trec::updates_tsv(&updates)).with_context(|| format!("cannot write {}", path.display()))?;
    }
    let mut out = std::io::stdout().lock();
    for line in trec::report(&year, &updates)? {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// Reads the files; a document without a date of its own takes the first
/// YYYY-MM-DD in its file name. Each comes with its file's name.
fn dated_documents(files: &[PathBuf]) -> Result<(Vec<Document>, Vec<String>)> {
    let mut docs = Vec::new();
    let mut sources = Vec::new();
    for path in files {
        let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        let name = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
        let from_name = date_in_name(&name);
        for document in documents_from_file(&name, &bytes).map_err(|e| anyhow!("{name}: {e}"))? {
            docs.push(Document { timestamp: document.timestamp.or(from_name), ..document });
            sources.push(name.clone());
        }
    }
    Ok((docs, sources))
}

/// The first YYYY-MM-DD in a file name, as midnight UTC.
fn date_in_name(name: &str) -> Option<i64> {
    let bytes = name.as_bytes();
    (0..bytes.len().saturating_sub(9)).find_map(|i| {
        let candidate = &name.get(i..i + 10)?;
        let shape = candidate.bytes().enumerate().all(|(j, b)| if j == 4 || j == 7 { b == b'-' } else { b.is_ascii_digit() });
        shape.then(|| parse_iso8601(candidate)).flatten()
    })
}

/// `precis stream FILES…`: prints the timeline of updates, replayed as the
/// app's timeline replays the same articles.
fn run_files(args: &StreamArgs, settings: &StreamSettings) -> Result<()> {
    let (docs, sources) = dated_documents(&args.files)?;
    let set = ReplaySet::new(&docs, args.query.as_deref()).map_err(|e| anyhow!(e))?.with_topic(args.topic.as_deref(), args.topic_weight);
    let texts: Vec<&str> = set.texts().collect();
    let embeddings = embed_cached(&texts, args.models.dir(), args.cache.dir())?;
    let by_text: HashMap<&str, Embedding> = texts.iter().copied().zip(embeddings).collect();
    let (decisions, _) = set.replay(args.policy, settings, |t| by_text.get(t).copied()).map_err(|e| anyhow!(e))?;
    let mut out = std::io::stdout().lock();
    for update in decisions.iter().filter(|d| d.action == Action::Select) {
        let article = &set.articles[update.doc];
        let time = if article.date.is_some() { format_date_time(update.time) } else { "undated".to_string() };
        let sentence = &set.cluster.sentences[update.sentence].text;
        writeln!(out, "{time}\t{}\t{sentence}", sources[article.card])?;
    }
    Ok(())
}

/// Mean scores of a policy over streams.
pub fn mean_scores(settings: &StreamSettings, policy: PolicyKind, streams: &[LabeledStream]) -> Scores {
    let scores: Vec<Scores> = streams.iter().map(|s| replay(settings.policy(policy), s, settings.state).scores).collect();
    metrics::mean(&scores)
}

/// Loads a year and embeds its sentences and queries (cached on disk).
pub fn prepare_year(
    dir: &Path,
    query_override: Option<&str>,
    models: Option<&Path>,
    cache: Option<&Path>,
) -> Result<(Year, Vec<LabeledStream>)> {
    let year = trec::load_year(dir)?;
    if year.events.is_empty() {
        bail!("{}: no event has pooled sentences", dir.display());
    }
    let queries: Vec<&str> =
        year.events.iter().map(|e| query_override.unwrap_or(e.topic.query.as_str())).collect();
    // Each query alone, then each pooled document's sentences together
    // (see `embed_by_article`): Spark's micro-batches embed the same way.
    let units: Vec<Vec<&str>> = queries
        .iter()
        .map(|q| vec![*q])
        .chain(year.events.iter().flat_map(|e| e.documents.iter().map(|d| d.sentences.iter().map(|s| s.text.as_str()).collect())))
        .collect();
    let embeddings = embed_cached_units(&units, models, cache)?;
    let (query_embeddings, mut rest) = embeddings.split_at(queries.len());
    let streams = year
        .events
        .iter()
        .zip(query_embeddings)
        .map(|(event, query)| {
            let (mine, others) = rest.split_at(event.sentence_count());
            rest = others;
            event.labeled(Some(*query), mine)
        })
        .collect();
    Ok((year, streams))
}

#[derive(clap::Args)]
pub struct TrainArgs {
    /// The development year (TREC-TS 2013): every hyperparameter is chosen on it.
    #[arg(long)]
    pub data: PathBuf,
    /// Where to write the settings (LS weights and every policy's thresholds).
    #[arg(long, default_value = "models/stream/ls.json")]
    pub out: PathBuf,
    #[arg(long, default_value_t = 2016)]
    pub seed: u64,
    /// A small grid and few epochs, to check the pipeline quickly.
    #[arg(long)]
    pub quick: bool,
    #[command(flatten)]
    pub models: ModelsFlag,
    #[command(flatten)]
    pub cache: CacheFlag,
}

/// `precis stream-train`: tunes COS, APSAL, LS and LS+COS on a development
/// year, trains LS on all of it and writes the settings file.
pub fn run_train(args: TrainArgs) -> Result<()> {
    let started = std::time::Instant::now();
    let (year, streams) = prepare_year(&args.data, None, args.models.dir(), args.cache.dir())?;
    let state = StateConfig::default();
    let base = LolsConfig { seed: args.seed, ..Default::default() };
    let grid = if args.quick { quick_grid() } else { TuningGrid::default() };
    let tuned = train::tune(&streams, &grid, &base, state, |line| eprintln!("{line}"));
    // LOLS runs swing a lot from one run to the next (one retrained on all
    // events scored far below its cross-validated siblings), so the shipped
    // model is the mean of the validated fold models.
    let model = tuned.ls_model.clone();
    let seconds = started.elapsed().as_secs_f64();
    let mut settings = StreamSettings {
        format: SETTINGS_FORMAT.into(),
        state,
        ls: model,
        cos_threshold: tuned.cos_threshold,
        ls_cos_threshold: tuned.ls_cos_threshold,
        apsal: tuned.apsal,
        training: serde_json::Value::Null,
    };
    let train_scores: serde_json::Map<String, serde_json::Value> = PolicyKind::ALL
        .iter()
        .map(|&p| Ok((p.name().to_string(), serde_json::to_value(mean_scores(&settings, p, &streams))?)))
        .collect::<Result<_>>()?;
    settings.training = serde_json::json!({
        "command": format!("precis stream-train --data {} --out {} --seed {}{}",
            args.data.display(), args.out.display(), args.seed, if args.quick { " --quick" } else { "" }),
        "data": args.data.file_name().map(|n| n.to_string_lossy().into_owned()),
        "events": year.events.iter().map(|e| &e.query_id).collect::<Vec<_>>(),
        "sentences": streams.iter().map(|s| s.sentence_count()).sum::<usize>(),
        "seed": args.seed,
        "grid": grid,
        "tuned": tuned,
        "ls_model": "mean of the cross-validation fold models at the chosen setting",
        "scores_on_training_year": train_scores,
        "seconds": (seconds * 10.0).round() / 10.0,
    });
    if let Some(dir) = args.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(&args.out, serde_json::to_string_pretty(&settings)? + "\n")
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    eprintln!("wrote {} in {seconds:.0} s", args.out.display());
    Ok(())
}

fn quick_grid() -> TuningGrid {
    TuningGrid {
        cos_thresholds: vec![0.5, 0.6, 0.7],
        apsal_windows: vec![3600],
        apsal_thresholds: vec![0.6],
        apsal_offsets: vec![-0.5],
        oracle_rollouts: vec![0.5],
        l2: vec![1e-4],
        max_epochs: 2,
        folds: 3,
    }
}
