//! `precis compare FILES…|DIR --methods gg,bs+gs,mmr`: two to four methods
//! side by side on the same articles and settings (the core's
//! `compare::compare`, as in the app's Compare tab), as Markdown or JSON.

use super::settings::SettingsArgs;
use super::summarize::ArticlesArgs;
use anyhow::{bail, Result};
use precis::compare::{check_methods, compare, texts_to_embed};
use precis::summarize::Method;
use std::io::Write;
use std::time::Instant;

#[derive(clap::Args)]
pub struct CompareArgs {
    #[command(flatten)]
    pub articles: ArticlesArgs,
    /// Two to four methods, comma-separated (e.g. gg,bs+gs,mmr).
    #[arg(long, required = true, value_delimiter = ',', value_parser = super::registry_args::method_parser())]
    pub methods: Vec<Method>,
    #[arg(long, value_enum, default_value = "markdown")]
    pub format: Format,
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
    let cluster = args.articles.cluster()?;
    let settings = args.articles.settings(&args.settings, args.methods[0]);
    let reference = args.articles.reference()?;
    if let Some(method) = args.methods.iter().find(|m| m.needs_reference()).filter(|_| reference.is_empty()) {
        bail!("method {method} needs a reference summary: pass --reference FILE");
    }
    let encoder = args.articles.encoder()?;
    let heads = args.articles.heads(&args.methods)?;
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
