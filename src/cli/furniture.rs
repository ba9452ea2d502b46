//! `precis furniture-eval`: the prose/furniture decision against hand
//! labels: per language and split on the labelled pages of 16 languages
//! (prose lost, junk caught), and precision and recall on the English
//! Multi-News fixture; with the errors.

use super::flags::ModelsFlag;
use anyhow::{anyhow, bail, Context, Result};
use precis::document::Cluster;
use precis::encoder::Encoder;
use precis::eval::furniture_fixture::{judge_read, Score};
use precis::eval::furniture_pages::{judge_pages, read_page_files, scores, JudgedSentence, Page};
use precis::summarize::mark_read_furniture;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct FurnitureEvalArgs {
    /// Folder with clusters.jsonl and labels.jsonl (English, labelled per
    /// sentence), pages/ (labelled per line), or both, as the default.
    #[arg(long, default_value = "tests/fixtures/furniture")]
    pub fixture: PathBuf,
    /// Print the misjudged sentences of this split (dev, test or all).
    #[arg(long)]
    pub errors: Option<String>,
    /// Only these languages of the pages (comma-separated codes).
    #[arg(long, value_delimiter = ',')]
    pub languages: Vec<String>,
    /// Write every sentence of the labelled pages, with its label and the
    /// decision, as JSON lines to this file (models/furniture/train.py
    /// trains on the dev split's).
    #[arg(long)]
    pub sentences: Option<PathBuf>,
    /// Also run the prose reader (models/furniture/reader.json) on what the
    /// rules leave as prose, as summaries do; needs the encoder.
    #[arg(long)]
    pub reader: bool,
    #[command(flatten)]
    pub models: ModelsFlag,
}

/// Reports on what the folder holds: labelled pages, the English fixture,
/// or both (`tests/fixtures/furniture`); a folder of pages alone, such as
/// `other-languages`, gets the per-language table only.
pub fn run(args: FurnitureEvalArgs) -> Result<()> {
    let has_pages = args.fixture.join("pages").is_dir();
    let has_fixture = args.fixture.join("clusters.jsonl").is_file();
    if !has_pages && !has_fixture {
        bail!("{} holds no labelled pages (pages/) and no English fixture (clusters.jsonl, labels.jsonl)", args.fixture.display());
    }
    let encoder = if args.reader { Some(super::models::load_encoder(args.models.dir())?) } else { None };
    let read = |cluster: &mut Cluster| read_with(encoder.as_ref(), cluster);
    if has_pages {
        pages_report(&args, read)?;
    }
    if has_fixture {
        fixture_report(&args, read)?;
    }
    Ok(())
}

/// The prose reader's decision marked on the cluster, when it runs.
fn read_with(encoder: Option<&Encoder>, cluster: &mut Cluster) -> Result<(), String> {
    let Some(encoder) = encoder else { return Ok(()) };
    mark_read_furniture(cluster, encoder).map_err(|e| e.to_string())
}

fn pages_report(args: &FurnitureEvalArgs, read: impl FnMut(&mut Cluster) -> Result<(), String>) -> Result<()> {
    let pages: Vec<Page> = read_page_files(&args.fixture.join("pages")).map_err(|e| anyhow!(e))?
        .into_iter()
        .filter(|p| args.languages.is_empty() || args.languages.contains(&p.lang))
        .collect();
    let judged = judge_pages(&pages, read).map_err(|e| anyhow!(e))?;
    println!("Labelled pages ({}), per language and split: prose lost and junk caught, by line (by sentence)", args.fixture.join("pages").display());
    println!();
    println!("| language | split | pages | prose lines | prose lost | junk lines | junk caught | prose lost, sentences | junk caught, sentences |");
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|");
    for ((lang, split), s) in scores(&pages, &judged) {
        println!(
            "| {lang} | {split} | {} | {} | {} ({:.1}%) | {} | {} ({:.1}%) | {}/{} ({:.1}%) | {}/{} ({:.1}%) |",
            s.pages,
            s.prose_lines,
            s.prose_lines_lost,
            100.0 * s.prose_lost(),
            s.junk_lines,
            s.junk_lines_caught,
            100.0 * s.junk_caught(),
            s.prose_sentences_lost,
            s.prose_sentences,
            100.0 * s.prose_sentences_lost_share(),
            s.junk_sentences_caught,
            s.junk_sentences,
            100.0 * s.junk_sentences_caught_share(),
        );
    }
    println!();
    if let Some(split) = &args.errors {
        for j in judged.iter().filter(|j| split == "all" || pages[j.page].split == *split) {
            print_error(&pages[j.page], j);
        }
        println!();
    }
    if let Some(path) = &args.sentences {
        let rows: Vec<String> = judged
            .iter()
            .map(|j| {
                let page = &pages[j.page];
                serde_json::json!({
                    "lang": page.lang, "split": page.split, "page": page.id, "line": j.lines.start,
                    "text": j.text, "prose": j.prose, "lead": j.lead, "alone": j.alone, "excluded": j.excluded,
                })
                .to_string()
            })
            .collect();
        std::fs::write(path, rows.join("\n") + "\n")?;
    }
    Ok(())
}

fn print_error(page: &Page, j: &JudgedSentence) {
    let kind = || page.lines[j.lines.clone()].iter().find_map(|l| l.kind.clone()).unwrap_or_else(|| "-".into());
    match (j.prose, &j.excluded) {
        (true, Some(reason)) => println!("LOST {} [{reason}] {}", page.id, j.text),
        (false, None) => println!("KEPT {} [{}] {}", page.id, kind(), j.text),
        _ => {}
    }
}

fn fixture_report(args: &FurnitureEvalArgs, read: impl FnMut(&mut Cluster) -> Result<(), String>) -> Result<()> {
    let read_file = |name: &str| {
        let path = args.fixture.join(name);
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))
    };
    let (clusters, labels) = (read_file("clusters.jsonl")?, read_file("labels.jsonl")?);
    let judged = judge_read(&clusters, &labels, read).map_err(|e| anyhow!(e))?;
    println!("English Multi-News fixture ({}), labelled per sentence: junk precision and recall", args.fixture.display());
    println!();
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
    if let Some(split) = &args.errors {
        for j in judged.iter().filter(|j| split == "all" || j.label.split == *split) {
            match (j.junk(), &j.excluded) {
                (false, Some(reason)) => println!("FP [{reason}] {}", j.label.text),
                (true, None) => println!("FN [{}] {}", j.label.kind.as_deref().unwrap_or("-"), j.label.text),
                _ => {}
            }
        }
    }
    Ok(())
}
