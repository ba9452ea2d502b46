//! Why a file or paste could not be read: `InputError`, `DocumentLimit` and their messages.

use super::DocumentFormat;
use crate::limits::{
    MAX_DOCUMENT_GLYPHS, MAX_DOCUMENT_PAGES, MAX_FILE_BYTES, MAX_PDF_PAGE_OPERATIONS, MAX_PDF_UNPACKED_BYTES,
    MAX_UNPACKED_BYTES,
};
use crate::text::thousands;
use std::fmt;

/// Why a file or paste could not be read, in words for the person who gave it.
#[derive(Clone, Debug, PartialEq)]
pub enum InputError {
    Empty,
    TooLarge {
        bytes: usize,
    },
    /// Not text; `kind` names the format when it is recognized.
    Binary {
        kind: Option<&'static str>,
    },
    InvalidJson {
        line: usize,
        column: usize,
        detail: String,
    },
    /// A JSON record (1-based) that is not a usable article.
    InvalidRecord {
        record: usize,
        problem: String,
    },
    /// A PDF or Word file in a build without the `documents` feature: the
    /// web app catches this and hands the bytes to its readers module.
    ReaderNotLoaded {
        format: DocumentFormat,
    },
    /// A Word 97-2003 file (.doc), which Précis does not read.
    OldWordDocument,
    /// A document that opens only with a password.
    PasswordProtected {
        format: DocumentFormat,
    },
    /// Not a complete, well-formed file of its format.
    Damaged {
        format: DocumentFormat,
    },
    /// A PDF whose pages are images (a scan without OCR).
    NoTextLayer,
    /// A PDF whose fonts do not say which letters they draw.
    TextNotExtractable,
    /// A document over one of the readers' limits (`crate::limits`).
    DocumentTooLarge {
        format: DocumentFormat,
        limit: DocumentLimit,
    },
}

/// The limit a document went over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DocumentLimit {
    /// `limits::MAX_DOCUMENT_PAGES`.
    Pages,
    /// `limits::MAX_DOCUMENT_GLYPHS`.
    Characters,
    /// The text operations one PDF page draws (`readers::pdf`).
    PageOperations,
    /// `limits::MAX_UNPACKED_BYTES` for the XML inside a Word file,
    /// `limits::MAX_PDF_UNPACKED_BYTES` for a PDF's compressed streams.
    UnpackedSize,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const FORMATS: &str =
            "plain text, Markdown, HTML, JSON, JSON Lines, PDF, Word (.docx) or OpenDocument text (.odt)";
        match self {
            Self::Empty => write!(f, "there is no text in it: it is empty or blank"),
            Self::TooLarge { bytes } => write!(
                f,
                "the file is too large ({:.1} MB); the limit is {} MB, so split it into smaller files",
                *bytes as f64 / 1_048_576.0,
                MAX_FILE_BYTES / 1_048_576
            ),
            Self::Binary { kind: Some(kind) } => {
                write!(f, "this is {kind}, not text: save or export it as {FORMATS} first")
            }
            Self::Binary { kind: None } => write!(f, "this file is not text; Précis reads {FORMATS}"),
            Self::InvalidJson { line, column, detail } => {
                write!(f, "the JSON is not valid at line {line}, column {column}: {detail}")
            }
            Self::InvalidRecord { record, problem } => write!(f, "article {record} in the file {problem}"),
            Self::ReaderNotLoaded { format } => write!(
                f,
                "this is {}: PDF and Word files need the document reader, which is not built in \
                 (build Précis with its `documents` feature)",
                format.label()
            ),
            Self::OldWordDocument => write!(
                f,
                "this is an old Word document (.doc), which Précis cannot read: \
                 open it in Word or LibreOffice and save it as .docx or PDF"
            ),
            Self::PasswordProtected { format } => write!(
                f,
                "this {} is password-protected: open it, then save or export an unprotected copy",
                format.noun()
            ),
            Self::Damaged { format } => write!(
                f,
                "this {} is damaged or not a complete {} file: download or export it again",
                format.noun(),
                format.extension()
            ),
            Self::NoTextLayer => write!(
                f,
                "this PDF has no text layer — it looks scanned: run OCR on it first, or paste the text"
            ),
            Self::TextNotExtractable => write!(
                f,
                "the text of this PDF cannot be extracted (its fonts do not say which letters they draw): \
                 run OCR on it first, or paste the text"
            ),
            Self::DocumentTooLarge { format, limit } => {
                let noun = format.noun();
                match limit {
                    DocumentLimit::Pages => {
                        write!(f, "this {noun} has more than {} pages", thousands(MAX_DOCUMENT_PAGES as u64))
                    }
                    DocumentLimit::Characters => {
                        write!(f, "this {noun} holds more than {} characters", thousands(MAX_DOCUMENT_GLYPHS as u64))
                    }
                    DocumentLimit::PageOperations => {
                        write!(f, "a page of this {noun} draws text in more than {} pieces", thousands(MAX_PDF_PAGE_OPERATIONS as u64))
                    }
                    DocumentLimit::UnpackedSize => {
                        let limit =
                            if *format == DocumentFormat::Pdf { MAX_PDF_UNPACKED_BYTES } else { MAX_UNPACKED_BYTES };
                        write!(f, "this {noun} unpacks to more than {} MB", limit >> 20)
                    }
                }?;
                write!(f, ", more than Précis reads at once: split it into smaller files")
            }
        }
    }
}


impl std::error::Error for InputError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn document_messages_say_what_to_do() {
        let too_many_pages = InputError::DocumentTooLarge { format: DocumentFormat::Pdf, limit: DocumentLimit::Pages };
        assert_eq!(
            too_many_pages.to_string(),
            "this PDF has more than 5,000 pages, more than Précis reads at once: split it into smaller files"
        );
        let too_many_glyphs =
            InputError::DocumentTooLarge { format: DocumentFormat::Pdf, limit: DocumentLimit::Characters };
        assert!(too_many_glyphs.to_string().starts_with("this PDF holds more than 5,000,000 characters"));
        let damaged = InputError::Damaged { format: DocumentFormat::Odt };
        assert_eq!(
            damaged.to_string(),
            "this OpenDocument text is damaged or not a complete .odt file: download or export it again"
        );
    }
}
