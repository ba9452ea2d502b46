//! `precis compare FILES…|DIR --methods gg,bs+gs,mmr`: two to four methods
//! side by side on the same articles and settings (the core's
//! `compare::compare`, as in the app's Compare tab), as Markdown or JSON.

use super::models::{load_encoder, load_heads};
use super::settings::SettingsArgs;
use super::summarize::{parse_weight, read_inputs, read_reference};
use anyhow::{bail, Result};
use precis::compare::{check_methods, compare, texts_to_embed};
use precis::document::Cluster;
use precis::summarize::{Method, Settings};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Args)]
pub struct CompareArgs {
    /// Files (.txt, .md, .html, .json, .jsonl, .pdf, .docx, .odt) or folders of them.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// Two to four methods, comma-separated (e.g. gg,bs+gs,mmr).
    #[arg(long, required = true, value_delimiter = ',', value_parser = super::registry_args::method_parser())]
    pub methods: Vec<Method>,
    /// A reference summary (one sentence per line): ROUGE-1/2 for every method; enables oracle.
    #[arg(long)]
    pub reference: Option<PathBuf>,
    /// A topic or question: mmr and tbmmr compare sentences with it; --topic-weight steers the centroid methods.
    #[arg(long)]
    pub topic: Option<String>,
    /// w in 0..=1: how far --topic pulls the centroid methods' centroid.
    #[arg(long, default_value_t = 0.0, requires = "topic", value_parser = parse_weight)]
    pub topic_weight: f32,
    #[arg(long, value_enum, default_value = "markdown")]
    pub format: Format,
    #[arg(long)]
    pub models: Option<PathBuf>,
    /// Folder of the trained centroid heads for cera and cerai (default: MODELS/cera).
    #[arg(long)]
    pub heads: Option<PathBuf>,
    #[command(flatten)]
    pub settings: SettingsArgs,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A table of the numbers, each method's summary, the shared picks.
    Markdown,
    /// Every column with its picks, objective, words and ROUGE.
    Json,
}

pub fn run(args: CompareArgs) -> Result<()> {
    // Before the model loads: a wrong method list is a quick, clear error.
    check_methods(&args.methods)?;
    let cluster = Cluster::new(read_inputs(&args.inputs)?);
    if cluster.sentences.is_empty() {
        bail!("the input has no sentences to summarize");
    }
    let settings = Settings {
        topic: args.topic.clone(),
        topic_weight: args.topic_weight,
        ..args.settings.to_settings(args.methods[0], 100)
    };
    let reference = args.reference.as_deref().map(read_reference).transpose()?.unwrap_or_default();
    if let Some(method) = args.methods.iter().find(|m| m.needs_reference()).filter(|_| reference.is_empty()) {
        bail!("method {method} needs a reference summary: pass --reference FILE");
    }
    let encoder = load_encoder(args.models.as_deref())?;
    let heads = load_heads(args.models.as_deref(), args.heads.as_deref(), &args.methods)?;
    let texts = texts_to_embed(&cluster, &settings, &args.methods, reference);
    let embedded = texts.encode(&encoder, &cluster)?;
    let started = Instant::now();
    let now = || started.elapsed().as_secs_f64() * 1000.0;
    let comparison = compare(&embedded.request(&cluster, &settings, Some(&heads)), &args.methods, &texts.reference, &now)?;
    for column in &comparison.columns {
        for note in &column.notes {
            eprintln!("precis: {}: {note}", column.method);
        }
    }
    let mut out = std::io::stdout().lock();
    match args.format {
        Format::Markdown => write!(out, "{}", comparison.to_markdown())?,
        Format::Json => writeln!(out, "{}", comparison.to_json())?,
    }
    Ok(())
}
