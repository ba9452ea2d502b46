//! `precis segment FILES…`: the sentences of articles, one JSON object per
//! line: `{"id", "doc", "para", "index", "lang", "text"}`, plus `"excluded"` with
//! the reason when the sentence is page furniture or a fragment (never a
//! summary candidate; see `precis::segment::furniture`).

use super::flags::ModelsFlag;
use anyhow::{bail, Result};
use precis::document::{Cluster, Document};
use precis::input::{documents_from_file, documents_from_paste, InputError, MAX_FILE_BYTES};
use serde::Serialize;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct SegmentArgs {
    /// Text, Markdown, HTML, JSON, JSON Lines, PDF, Word (.docx) or
    /// OpenDocument (.odt) files; `-` reads a paste from
    /// stdin (articles separated by a line of `---` or `===`).
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// Also run the prose reader on what the rules leave as prose, as
    /// summaries do (needs the encoder): its exclusions get their reason too.
    #[arg(long)]
    pub prose_reader: bool,
    #[command(flatten)]
    pub models: ModelsFlag,
}

/// One output line. `doc` counts documents over all files in argument order
/// (each record of a JSON file is one); `para` and `index` count within the
/// document; all from 0.
#[derive(Serialize)]
struct SentenceLine<'a> {
    /// The sentence's id in the cluster, as `precis summarize --format
    /// json` reports it and `--pin`/`--strike` take it.
    id: usize,
    doc: usize,
    para: usize,
    index: usize,
    lang: &'a str,
    text: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    excluded: Option<&'a str>,
}

pub fn run(args: SegmentArgs) -> Result<()> {
    let mut documents = Vec::new();
    let mut failures = 0;
    for path in &args.files {
        match read_documents(path) {
            Ok(found) => documents.extend(found),
            Err(problem) => {
                eprintln!("precis: {}: {problem}", path.display());
                failures += 1;
            }
        }
    }
    if failures > 0 {
        bail!("{failures} of {} files could not be read; nothing was segmented", args.files.len());
    }
    // One cluster, so that lines recurring across the files count.
    let mut cluster = Cluster::new(documents);
    if args.prose_reader {
        let encoder = super::models::load_encoder(args.models.dir())?;
        precis::summarize::mark_read_furniture(&mut cluster, &encoder)?;
    }
    let mut out = BufWriter::new(std::io::stdout().lock());
    for (id, sentence) in cluster.sentences.iter().enumerate() {
        let line = SentenceLine {
            id,
            doc: sentence.doc,
            para: sentence.para,
            index: sentence.index,
            lang: &sentence.lang,
            text: &sentence.text,
            excluded: sentence.excluded.as_deref(),
        };
        serde_json::to_writer(&mut out, &line)?;
        out.write_all(b"\n")?;
    }
    Ok(out.flush()?)
}

/// The documents of one argument, or why it cannot be read, in plain words.
fn read_documents(path: &Path) -> Result<Vec<Document>, String> {
    if path == Path::new("-") {
        let mut paste = String::new();
        std::io::stdin()
            .take(MAX_FILE_BYTES as u64 + 1)
            .read_to_string(&mut paste)
            .map_err(|e| format!("cannot read the paste from standard input ({e}); it must be UTF-8 text"))?;
        return documents_from_paste(&paste).map_err(|e| e.to_string());
    }
    let size = std::fs::metadata(path).map_err(cannot_open)?.len();
    if size > MAX_FILE_BYTES as u64 {
        return Err(InputError::TooLarge { bytes: usize::try_from(size).unwrap_or(usize::MAX) }.to_string());
    }
    let bytes = std::fs::read(path).map_err(cannot_open)?;
    let name = path.file_name().map_or_else(|| path.to_string_lossy(), |n| n.to_string_lossy());
    documents_from_file(&name, &bytes).map_err(|e| e.to_string())
}

fn cannot_open(error: std::io::Error) -> String {
    match error.kind() {
        std::io::ErrorKind::NotFound => "there is no such file".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission to read it was denied".to_string(),
        _ if error.raw_os_error() == Some(21) => "this is a folder, not a file".to_string(),
        _ => format!("cannot read it ({error})"),
    }
}
