//! `precis app-files DIR`: the encoder's files as the app reads them
//! (issue #43), written from the ones `models/build.py` made, which runs it:
//! the int8 network's graph, typed and decluttered (`encoder-int8.graph`,
//! `precis::encoder::graph_file`), and the tokenizer parsed and sorted
//! (`tokenizer.bin`, `precis::encoder::tokenizer_file`).

use anyhow::{Context, Result};
use clap::Args;
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct AppFilesArgs {
    /// The encoder's folder (models/muse-v3): reads encoder-int8.onnx and
    /// tokenizer.json, writes encoder-int8.graph and tokenizer.bin.
    pub dir: PathBuf,
}

pub fn run(args: AppFilesArgs) -> Result<()> {
    let convert = |from: &str, to: &str, write: fn(&[u8]) -> Result<Vec<u8>>| -> Result<()> {
        let (from, to) = (args.dir.join(from), args.dir.join(to));
        let bytes = std::fs::read(&from).with_context(|| format!("cannot read {}", from.display()))?;
        let converted = write(&bytes).with_context(|| format!("{}", from.display()))?;
        write_atomically(&to, &converted)
    };
    convert("encoder-int8.onnx", "encoder-int8.graph", precis::encoder::graph_file::write)?;
    convert("tokenizer.json", "tokenizer.bin", precis::encoder::tokenizer_file::write)
}

/// Written beside, then renamed: a file cut short is never left in place.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let temporary = path.with_extension("tmp");
    std::fs::write(&temporary, bytes).with_context(|| format!("cannot write {}", temporary.display()))?;
    std::fs::rename(&temporary, path).with_context(|| format!("cannot write {}", path.display()))
}
