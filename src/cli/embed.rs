//! `precis embed` and `precis tokenize`: stdin lines in, JSON lines out.

use super::flags::ModelsFlag;
use super::models::load_encoder;
use anyhow::Result;
use std::io::{BufRead, BufWriter, Write};

#[derive(clap::Args)]
pub struct EmbedArgs {
    #[command(flatten)]
    pub models: ModelsFlag,
    /// After each embedding, the prose reader's form features of the line
    /// (segment::prose_reader::form_features), as models/furniture/train.py
    /// reads them.
    #[arg(long)]
    pub form_features: bool,
}

fn read_lines() -> Result<Vec<String>> {
    Ok(std::io::stdin().lock().lines().collect::<Result<_, _>>()?)
}

pub fn run_embed(args: EmbedArgs) -> Result<()> {
    let encoder = load_encoder(args.models.dir())?;
    let lines = read_lines()?;
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let embeddings = encoder.encode(&refs)?;
    let mut out = BufWriter::new(std::io::stdout().lock());
    for (e, line) in embeddings.iter().zip(&lines) {
        let mut row: Vec<f32> = e.to_vec();
        if args.form_features {
            row.extend(precis::segment::prose_reader::form_features(line));
        }
        serde_json::to_writer(&mut out, &row)?;
        out.write_all(b"\n")?;
    }
    Ok(out.flush()?)
}

pub fn run_tokenize(args: EmbedArgs) -> Result<()> {
    let encoder = load_encoder(args.models.dir())?;
    let mut out = BufWriter::new(std::io::stdout().lock());
    for line in read_lines()? {
        serde_json::to_writer(&mut out, &encoder.tokenize(&line))?;
        out.write_all(b"\n")?;
    }
    Ok(out.flush()?)
}
