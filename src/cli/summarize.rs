//! `precis summarize FILES…|DIR`: one document per file (or per record of a
//! JSON/JSONL file), one summary out.

use super::flags::ModelsFlag;
use super::models::{load_encoder, load_heads};
use super::settings::SettingsArgs;
use anyhow::{Context, Result};
use precis::choices::{choose, Choice, SentenceRef};
use precis::document::{Cluster, Document};
use precis::summarize::{Method, Settings, SummaryTexts};
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct SummarizeArgs {
    #[command(flatten)]
    pub articles: ArticlesArgs,
    #[arg(long, value_parser = super::registry_args::method_parser(), default_value_t = Method::default())]
    pub method: Method,
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    #[command(flatten)]
    pub settings: SettingsArgs,
}

/// What `summarize` and `compare` read: the articles, an optional reference
/// and question, and where the models are.
#[derive(clap::Args)]
pub struct ArticlesArgs {
    /// Files (.txt, .md, .html, .json, .jsonl, .pdf, .docx, .odt) or folders of them.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// A reference summary (one sentence per line): enables the oracle (and,
    /// in compare, ROUGE-1/2 for every method).
    #[arg(long)]
    pub reference: Option<PathBuf>,
    /// A topic or question. mmr and tbmmr compare sentences with it (default:
    /// the earliest article's headline and first sentence); the centroid
    /// methods are pulled towards it by --topic-weight.
    #[arg(long)]
    pub topic: Option<String>,
    /// w in 0..=1: how far --topic pulls the centroid (0: no effect, 1: the topic alone).
    #[arg(long, default_value_t = 0.0, requires = "topic", value_parser = parse_weight)]
    pub topic_weight: f32,
    #[command(flatten)]
    pub models: ModelsFlag,
    /// Folder of the trained centroid heads for cera and cerai (default: MODELS/cera).
    #[arg(long)]
    pub heads: Option<PathBuf>,
    /// Use every sentence of this article file (one of the inputs, or a
    /// file in an input folder), page furniture included: for an article
    /// whose sentences all read as furniture. Repeatable.
    #[arg(long, value_name = "FILE")]
    pub keep_furniture_of: Vec<PathBuf>,
    /// Pin a sentence: every summary holds it (the methods start from it,
    /// and the budget counts it). Its id (as --format json and precis
    /// segment report it) or its exact text. Repeatable.
    #[arg(long, value_name = "ID|TEXT")]
    pub pin: Vec<String>,
    /// Strike a sentence: never a candidate. Its id or its exact text. Repeatable.
    #[arg(long, value_name = "ID|TEXT")]
    pub strike: Vec<String>,
}

impl ArticlesArgs {
    /// The articles as one cluster; an error if they hold no sentence.
    pub fn cluster(&self) -> Result<Cluster> {
        let mut files = read_input_files(&self.inputs)?;
        for keep in &self.keep_furniture_of {
            // Resolved once; a path that does not resolve matches no file
            // (two unresolvable paths are not the same file).
            let wanted = std::fs::canonicalize(keep).ok();
            let same = |path: &Path| wanted.is_some() && std::fs::canonicalize(path).ok() == wanted;
            let file = files.iter_mut().find(|(path, _)| same(path)).ok_or_else(|| {
                anyhow::anyhow!("--keep-furniture-of {}: not one of the articles given (a file among the inputs, or in an input folder)", keep.display())
            })?;
            for document in &mut file.1 {
                document.keep_furniture = true;
            }
        }
        let mut cluster = precis::summarize::cluster_to_summarize(files.into_iter().flat_map(|(_, documents)| documents).collect())?;
        let pins = self.pin.iter().map(|p| (Choice::Pin, SentenceRef::parse(p)));
        let strikes = self.strike.iter().map(|s| (Choice::Strike, SentenceRef::parse(s)));
        choose(&mut cluster, &pins.chain(strikes).collect::<Vec<_>>())?;
        Ok(cluster)
    }

    /// The settings flags for `method`, with the question and its weight.
    pub fn settings(&self, flags: &SettingsArgs, method: Method) -> Settings {
        Settings { topic: self.topic.clone(), topic_weight: self.topic_weight, ..flags.to_settings(method, 100) }
    }

    /// The reference's sentences (none without --reference).
    pub fn reference(&self) -> Result<Vec<String>> {
        Ok(self.reference.as_deref().map(read_reference).transpose()?.unwrap_or_default())
    }

    pub fn encoder(&self) -> Result<precis::encoder::Encoder> {
        load_encoder(self.models.dir())
    }

    pub fn heads(&self, methods: &[Method]) -> Result<precis::centroid::cera::Heads> {
        load_heads(self.models.dir(), self.heads.as_deref(), methods)
    }
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One summary sentence per line.
    Text,
    /// Sentences with provenance, the settings and the search trace.
    Json,
}

/// A weight between 0 and 1.
pub fn parse_weight(text: &str) -> Result<f32, String> {
    let weight = text.parse::<f32>().map_err(|_| format!("{text:?} is not a weight between 0 and 1"))?;
    precis::summarize::check_weight(weight)
}

pub fn run(args: SummarizeArgs) -> Result<()> {
    let cluster = args.articles.cluster()?;
    let settings = args.articles.settings(&args.settings, args.method);
    let encoder = args.articles.encoder()?;
    let heads = args.articles.heads(&[args.method])?;
    let reference = args.articles.reference()?;
    let texts = SummaryTexts::new(&cluster, &settings, reference);
    let summary = texts.encode_and_summarize(&encoder, &cluster, &settings, Some(&heads))?;
    for note in &summary.notes {
        eprintln!("precis: {note}");
    }
    if !precis::summarize::articles_without_prose(&cluster, &summary.read_as_furniture).is_empty() {
        eprintln!("precis: --keep-furniture-of FILE uses every sentence of an article, page furniture included.");
    }
    let mut out = std::io::stdout().lock();
    match args.format {
        Format::Text => {
            for &s in &summary.sentences {
                writeln!(out, "{}", cluster.sentences[s].text)?;
            }
        }
        Format::Json => {
            let json = precis::summarize::summary_json(&cluster, &settings, &summary);
            serde_json::to_writer_pretty(&mut out, &json)?;
            writeln!(out)?;
        }
    }
    Ok(())
}

/// A reference summary's sentences: its non-empty lines.
pub fn read_reference(path: &Path) -> Result<Vec<String>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("{}", path.display()))?;
    Ok(text.lines().map(str::trim).filter(|l| !l.is_empty()).map(str::to_string).collect())
}

/// Documents from files and folders (folders: their files, sorted by
/// name): each file read, with its documents, in order.
fn read_input_files(inputs: &[PathBuf]) -> Result<Vec<(PathBuf, Vec<Document>)>> {
    let mut files = vec![];
    for input in inputs {
        if input.is_dir() {
            let mut paths: Vec<PathBuf> = std::fs::read_dir(input)
                .with_context(|| format!("{}", input.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file())
                .collect();
            paths.sort();
            for path in paths {
                let documents = read_file(&path)?;
                files.push((path, documents));
            }
        } else {
            files.push((input.clone(), read_file(input)?));
        }
    }
    Ok(files)
}

fn read_file(path: &Path) -> Result<Vec<Document>> {
    let bytes = std::fs::read(path).with_context(|| format!("{}", path.display()))?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    precis::input::documents_from_file(&name, &bytes).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}
