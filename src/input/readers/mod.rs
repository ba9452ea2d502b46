//! The PDF, Word and OpenDocument readers (feature `documents`). Each turns
//! a file's bytes into paragraphs, a title and perhaps a date; `read` makes
//! the document of them the way the text path does. Pure Rust without
//! threads or files, so the web app runs the same code in wasm: the same
//! bytes give the same document in the CLI and in the browser.

mod layout;
mod office;
mod pdf;
mod pdf_operators;
mod zip_entries;

use super::text_formats::{text_document, MAX_TITLE_CHARS};
use super::{DocumentFormat, InputError};
use crate::document::Document;
use crate::text::collapse_whitespace;

/// What a reader found in a file.
#[derive(Debug, Default, PartialEq)]
struct Extracted {
    /// The title its metadata or styles give, if any.
    title: Option<String>,
    /// The text, one string a paragraph, in reading order.
    paragraphs: Vec<String>,
    /// When it was written, seconds since 1970 (UTC).
    timestamp: Option<i64>,
}

/// The document in a PDF, Word or OpenDocument file.
pub(super) fn read(name: &str, format: DocumentFormat, bytes: &[u8]) -> Result<Document, InputError> {
    let extracted = guarded(format, || match format {
        DocumentFormat::Pdf => pdf::read(bytes),
        DocumentFormat::Docx => office::read_docx(bytes),
        DocumentFormat::Odt => office::read_odt(bytes),
    })?;
    document(name, extracted).ok_or(InputError::Empty)
}

/// The document of extracted text: titled by the metadata when that looks
/// like a real title, else as a text file is (its first line when that
/// reads as a headline).
fn document(name: &str, extracted: Extracted) -> Option<Document> {
    let paragraphs: Vec<&str> =
        extracted.paragraphs.iter().map(|p| p.trim()).filter(|p| !p.is_empty()).collect();
    let text = paragraphs.join("\n\n");
    let document = match extracted.title.filter(|title| looks_like_a_title(title)) {
        Some(title) => {
            let text = without_leading_title(&paragraphs, &title).join("\n\n");
            if text.is_empty() {
                return None;
            }
            Document { id: name.to_string(), title: Some(title), text, ..Default::default() }
        }
        None => text_document(name, &text)?,
    };
    Some(Document { timestamp: extracted.timestamp, ..document })
}

/// The paragraphs without the first when it is the title (the metadata
/// title usually repeats the heading that opens the text; a site name may
/// follow it there, "Quake hits Tokyo | The Daily").
fn without_leading_title<'a>(paragraphs: &[&'a str], title: &str) -> Vec<&'a str> {
    let squash = |text: &str| collapse_whitespace(text).to_lowercase();
    let title = squash(title);
    match paragraphs.split_first() {
        Some((first, rest)) if !rest.is_empty() && !first.is_empty() && title.starts_with(&squash(first)) => {
            rest.to_vec()
        }
        _ => paragraphs.to_vec(),
    }
}

/// Metadata titles are often left as the tool set them: a file name,
/// "Untitled", "Microsoft Word - draft3.doc".
fn looks_like_a_title(title: &str) -> bool {
    let title = title.trim();
    let lower = title.to_lowercase();
    let file_name = [".doc", ".docx", ".pdf", ".odt", ".rtf", ".txt", ".htm", ".html", ".indd", ".tex", ".qxd"]
        .iter()
        .any(|ext| lower.ends_with(ext));
    let placeholder = ["untitled", "document", "title", "presentation"]
        .iter()
        .any(|word| lower == *word || lower.starts_with(&format!("{word} ")) && lower.len() <= word.len() + 4);
    !title.is_empty()
        && title.chars().count() <= MAX_TITLE_CHARS
        && title.chars().any(char::is_alphabetic)
        && !file_name
        && !placeholder
        && !lower.starts_with("microsoft word - ")
}

/// Runs a reader so that a panic in it (the PDF crates assert much about
/// their input) reads as a damaged file instead of ending the program.
fn guarded<T>(format: DocumentFormat, read: impl FnOnce() -> Result<T, InputError>) -> Result<T, InputError> {
    let _quiet = quiet_panics::Quiet::enter();
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(read))
        .unwrap_or(Err(InputError::Damaged { format }))
}

/// Panics caught in a reader print nothing: the user gets the reader's
/// message instead of a Rust backtrace. Other panics print as before.
#[cfg(not(target_arch = "wasm32"))]
mod quiet_panics {
    use std::cell::Cell;
    use std::sync::Once;

    thread_local! {
        static QUIET: Cell<usize> = const { Cell::new(0) };
    }

    /// While alive, panics on this thread print nothing.
    pub struct Quiet;

    impl Quiet {
        pub fn enter() -> Self {
            static INSTALL: Once = Once::new();
            INSTALL.call_once(|| {
                let previous = std::panic::take_hook();
                std::panic::set_hook(Box::new(move |info| {
                    if QUIET.with(Cell::get) == 0 {
                        previous(info);
                    }
                }));
            });
            QUIET.with(|quiet| quiet.set(quiet.get() + 1));
            Quiet
        }
    }

    impl Drop for Quiet {
        fn drop(&mut self) {
            QUIET.with(|quiet| quiet.set(quiet.get() - 1));
        }
    }
}

/// In wasm a panic aborts the module: the app runs the readers in a worker
/// of their own and reports a worker that dies.
#[cfg(target_arch = "wasm32")]
mod quiet_panics {
    pub struct Quiet;

    impl Quiet {
        pub fn enter() -> Self {
            Quiet
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn extracted(title: Option<&str>, paragraphs: &[&str]) -> Extracted {
        Extracted {
            title: title.map(str::to_string),
            paragraphs: paragraphs.iter().map(|p| p.to_string()).collect(),
            timestamp: Some(1_709_631_000),
        }
    }

    #[test]
    fn a_real_metadata_title_is_taken_and_not_repeated_in_the_text() {
        let doc = document("a.pdf", extracted(Some("Quake hits Tokyo | The Daily"), &["Quake hits Tokyo", "A quake."]))
            .unwrap();
        assert_eq!(doc.title.as_deref(), Some("Quake hits Tokyo | The Daily"));
        assert_eq!(doc.text, "A quake.");
        assert_eq!(doc.timestamp, Some(1_709_631_000));
        let doc = document("a.pdf", extracted(Some("Quake report"), &["Monday, 4 March", "A quake."])).unwrap();
        assert_eq!(doc.text, "Monday, 4 March\n\nA quake.");
    }

    #[test]
    fn a_placeholder_title_gives_way_to_the_headline() {
        for placeholder in ["Untitled", "Microsoft Word - draft3.doc", "scan_0001.pdf", "Document 1", "  ", "12"] {
            let doc = document("a.pdf", extracted(Some(placeholder), &["Quake hits Tokyo", "A strong quake."]))
                .unwrap();
            assert_eq!(doc.title.as_deref(), Some("Quake hits Tokyo"), "{placeholder}");
            assert_eq!(doc.text, "A strong quake.");
        }
        assert!(looks_like_a_title("Document shows rise in prices"));
    }

    #[test]
    fn no_text_is_no_document() {
        assert_eq!(document("a.pdf", extracted(Some("A title"), &["  "])), None);
        assert_eq!(document("a.pdf", extracted(None, &[])), None);
    }

    #[test]
    fn a_panicking_reader_reads_as_a_damaged_file() {
        let result: Result<(), InputError> = guarded(DocumentFormat::Pdf, || panic!("assertion in a PDF crate"));
        assert_eq!(result, Err(InputError::Damaged { format: DocumentFormat::Pdf }));
    }
}
