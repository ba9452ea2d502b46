//! `precis furniture-eval`: precision and recall of the prose/furniture
//! decision on the hand-labelled fixture, per split, with the errors.

use anyhow::{anyhow, Result};
use precis::eval::furniture_fixture::{judge_read, Score};
use precis::summarize::mark_read_furniture;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct FurnitureEvalArgs {
    /// Folder with clusters.jsonl and labels.jsonl.
    #[arg(long, default_value = "tests/fixtures/furniture")]
    pub fixture: PathBuf,
    /// Print the misjudged sentences of this split (dev, test or all).
    #[arg(long)]
    pub errors: Option<String>,
    /// Also run the prose reader (models/furniture/reader.json) on what the
    /// rules leave as prose, as summaries do; needs the encoder.
    #[arg(long)]
    pub reader: bool,
    #[arg(long)]
    pub models: Option<PathBuf>,
}

pub fn run(args: FurnitureEvalArgs) -> Result<()> {
    let clusters = std::fs::read_to_string(args.fixture.join("clusters.jsonl"))?;
    let labels = std::fs::read_to_string(args.fixture.join("labels.jsonl"))?;
    let encoder = if args.reader { Some(super::models::load_encoder(args.models.as_deref())?) } else { None };
    let judged = judge_read(&clusters, &labels, |cluster| {
        let Some(encoder) = &encoder else { return Ok(()) };
        let embeddings = encoder.encode(&cluster.texts()).map_err(|e| e.to_string())?;
        mark_read_furniture(cluster, &embeddings);
        Ok(())
    })
    .map_err(|e| anyhow!(e))?;
    println!("| split | sentences | junk | precision | recall | false positives | false negatives |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for split in ["dev", "test", "all"] {
        let s = Score::of(judged.iter().filter(|j| split == "all" || j.label.split == split));
        println!(
            "| {split} | {} | {} | {:.3} | {:.3} | {} | {} |",
            s.sentences,
            s.junk,
            s.precision(),
            s.recall(),
            s.false_positives,
            s.false_negatives
        );
    }
    if let Some(split) = args.errors {
        for j in judged.iter().filter(|j| split == "all" || j.label.split == split) {
            match (j.junk(), &j.excluded) {
                (false, Some(reason)) => println!("FP [{reason}] {}", j.label.text),
                (true, None) => println!("FN [{}] {}", j.label.kind.as_deref().unwrap_or("-"), j.label.text),
                _ => {}
            }
        }
    }
    Ok(())
}
