//! User files and pastes turned into documents, for the CLI and the browser
//! app's upload (no filesystem here: callers pass the bytes).
//!
//! Formats, by extension, else by a look at the content:
//! - `.txt`, `.text`: one article; the first line is its title when it reads
//!   as a headline (a line of its own, no final period, more text after).
//! - `.md`, `.markdown`: the same after removing Markdown syntax (`#`
//!   headings, `>` quotes, `**`/`__`, images, links kept as their text).
//! - `.html`, `.htm`, `.xhtml`: the article text of the page (see
//!   `segment::reduce_html`), its headline and publication date.
//! - `.json`: one object or an array of objects; `.jsonl`, `.ndjson`: one
//!   object per line. Fields: `text` (required), `title`, `date` (ISO 8601
//!   date or date-time, or seconds since 1970), `lang`, `id`.
//! - PDF, Word (`.docx`) and OpenDocument text (`.odt`), known by their
//!   bytes (`document_format`), with the `documents` feature (`readers`);
//!   without it they are refused with `InputError::ReaderNotLoaded`, which
//!   the web app answers by loading the readers' own wasm module.
//!
//! Bytes are read as UTF-8, UTF-16 (with a byte-order mark, or without one
//! when every other byte is zero), else Windows-1252 (which also reads
//! Latin-1). Files over 20 MB, empty files and other binary files (old
//! Word files, images, archives, anything with NUL bytes or mostly control
//! characters) are refused with a message a reader can act on.

mod decode;
mod error;
mod format;
#[cfg(feature = "documents")]
mod readers;
mod text_formats;

pub use crate::dates::parse_iso8601;
pub use error::{DocumentLimit, InputError};
pub use format::{document_format, DocumentFormat};

use crate::document::Document;
use decode::decode;
use text_formats::{html_document, json_documents, json_lines_documents, strip_markdown, text_document, Format};

pub use crate::limits::MAX_FILE_BYTES;

/// The documents in a file, from its name (for the format) and its bytes.
pub fn documents_from_file(name: &str, bytes: &[u8]) -> Result<Vec<Document>, InputError> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(InputError::TooLarge { bytes: bytes.len() });
    }
    if let Some(format) = document_format(name, bytes) {
        return read_document(name, format, bytes);
    }
    if let Some(refusal) = format::office_refusal(name, bytes) {
        return Err(refusal);
    }
    let text = decode(bytes)?;
    let documents = match Format::of(name, &text) {
        Format::Text => text_document(name, &text).into_iter().collect(),
        Format::Markdown => text_document(name, &strip_markdown(&text)).into_iter().collect(),
        Format::Html => html_document(name, &text).into_iter().collect(),
        Format::Json => json_documents(name, &text)?,
        Format::JsonLines => json_lines_documents(name, &text)?,
    };
    if documents.is_empty() {
        return Err(InputError::Empty);
    }
    Ok(documents)
}

#[cfg(feature = "documents")]
fn read_document(name: &str, format: DocumentFormat, bytes: &[u8]) -> Result<Vec<Document>, InputError> {
    readers::read(name, format, bytes).map(|document| vec![document])
}

#[cfg(not(feature = "documents"))]
fn read_document(_name: &str, format: DocumentFormat, _bytes: &[u8]) -> Result<Vec<Document>, InputError> {
    Err(InputError::ReaderNotLoaded { format })
}

/// The articles of a paste. Several articles are separated by a line of
/// three or more `-` or `=` (nothing else on the line); each may start with
/// a headline line. Ids are `paste#1`, `paste#2`, …
pub fn documents_from_paste(text: &str) -> Result<Vec<Document>, InputError> {
    if text.len() > MAX_FILE_BYTES {
        return Err(InputError::TooLarge { bytes: text.len() });
    }
    let documents: Vec<Document> = split_paste(text)
        .into_iter()
        .filter_map(|article| text_document("", article))
        .enumerate()
        .map(|(i, document)| Document { id: format!("paste#{}", i + 1), ..document })
        .collect();
    if documents.is_empty() {
        return Err(InputError::Empty);
    }
    Ok(documents)
}

fn split_paste(text: &str) -> Vec<&str> {
    let mut articles = Vec::new();
    let mut start = 0;
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        if is_article_separator(line) {
            articles.push(&text[start..line_start]);
            start = line_start + line.len();
        }
        line_start += line.len();
    }
    articles.push(&text[start..]);
    articles
}

fn is_article_separator(line: &str) -> bool {
    let line = line.trim();
    line.len() >= 3 && (line.bytes().all(|b| b == b'-') || line.bytes().all(|b| b == b'='))
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn one(name: &str, bytes: &[u8]) -> Document {
        let mut documents = documents_from_file(name, bytes).unwrap();
        assert_eq!(documents.len(), 1, "{documents:?}");
        documents.remove(0)
    }

    #[test]
    fn empty_and_blank_files_are_refused() {
        assert_eq!(documents_from_file("a.txt", b""), Err(InputError::Empty));
        assert_eq!(documents_from_file("a.txt", b" \n\t\n"), Err(InputError::Empty));
        assert_eq!(documents_from_file("a.html", b"<html><script>x</script></html>"), Err(InputError::Empty));
        assert_eq!(InputError::Empty.to_string(), "there is no text in it: it is empty or blank");
    }

    #[test]
    fn pdf_and_word_files_go_to_the_document_readers() {
        let pdf = documents_from_file("report.pdf", b"%PDF-1.7\n%\xE2\xE3").unwrap_err();
        if cfg!(feature = "documents") {
            assert_eq!(pdf, InputError::Damaged { format: DocumentFormat::Pdf });
        } else {
            assert_eq!(pdf, InputError::ReaderNotLoaded { format: DocumentFormat::Pdf });
        }
        let not_loaded = InputError::ReaderNotLoaded { format: DocumentFormat::Docx };
        assert_eq!(
            not_loaded.to_string(),
            "this is a Word document: PDF and Word files need the document reader, which is not built in \
             (build Précis with its `documents` feature)"
        );
    }

    #[test]
    fn too_large_files_are_refused() {
        let big = vec![b'a'; MAX_FILE_BYTES + 1];
        let err = documents_from_file("big.txt", &big).unwrap_err();
        assert_eq!(err, InputError::TooLarge { bytes: MAX_FILE_BYTES + 1 });
        assert!(err.to_string().contains("the limit is 20 MB"), "{err}");
        assert!(documents_from_paste(&"a".repeat(MAX_FILE_BYTES + 1)).is_err());
    }

    #[test]
    fn a_paste_splits_on_separator_lines() {
        let paste =
            "Quake hits Tokyo\nA strong quake struck on Monday.\n---\nSecond article.\n\n=====\n\n\n----\n";
        let docs = documents_from_paste(paste).unwrap();
        assert_eq!(docs.len(), 2);
        assert_eq!((docs[0].id.as_str(), docs[0].title.as_deref()), ("paste#1", Some("Quake hits Tokyo")));
        assert_eq!(docs[0].text, "A strong quake struck on Monday.");
        assert_eq!((docs[1].id.as_str(), docs[1].text.as_str()), ("paste#2", "Second article."));
        assert_eq!(documents_from_paste("  \n---\n"), Err(InputError::Empty));
        assert_eq!(documents_from_paste("a -- b --- c").unwrap()[0].text, "a -- b --- c");
    }

    proptest::proptest! {
        #[test]
        fn never_panics_on_arbitrary_bytes(
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..300),
            name in proptest::sample::select(vec!["a.txt", "a.md", "a.html", "a.json", "a.jsonl", "a"]),
        ) {
            let _ = documents_from_file(name, &bytes);
        }

        #[test]
        fn documents_from_a_paste_have_text(paste in "[a-z .\n=-]{0,200}") {
            if let Ok(documents) = documents_from_paste(&paste) {
                proptest::prop_assert!(documents.iter().all(|d| !d.text.trim().is_empty()));
            }
        }
    }

    #[test]
    fn never_panics_on_odd_bytes() {
        for bytes in [&b"\xFF"[..], b"\xFE\xFF\x00", b"\xFF\xFE\x00\xD8", b"<", b"{", b"[", b"\xEF\xBB\xBF"] {
            for name in ["a.txt", "a.html", "a.json", "a.jsonl", "a.md", "a"] {
                let _ = documents_from_file(name, bytes);
            }
        }
    }
}
