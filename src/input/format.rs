//! Which document format a file holds, by its bytes: compiled in every
//! build, so that a build without the readers (the web app's main module)
//! still knows a PDF or a Word file when it sees one and can hand it on.

use super::InputError;
use serde::{Deserialize, Serialize};

/// A document format read by the `documents` feature's readers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DocumentFormat {
    Pdf,
    /// Word 2007 and later (Office Open XML).
    Docx,
    /// OpenDocument text (LibreOffice, Google Docs export).
    Odt,
}

impl DocumentFormat {
    /// The format as a reader names it: "a PDF file".
    pub fn label(self) -> &'static str {
        match self {
            Self::Pdf => "a PDF file",
            Self::Docx => "a Word document",
            Self::Odt => "an OpenDocument text",
        }
    }

    /// The noun that follows "this" in messages: "this PDF is damaged".
    pub(crate) fn noun(self) -> &'static str {
        match self {
            Self::Pdf => "PDF",
            Self::Docx => "Word document",
            Self::Odt => "OpenDocument text",
        }
    }

    pub(crate) fn extension(self) -> &'static str {
        match self {
            Self::Pdf => ".pdf",
            Self::Docx => ".docx",
            Self::Odt => ".odt",
        }
    }
}

const ZIP_MAGIC: &[u8] = b"PK\x03\x04";
const OLE_MAGIC: &[u8] = b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1";
const ODT_MIMETYPE: &[u8] = b"application/vnd.oasis.opendocument.text";

/// The document format of a file, by its first bytes; the name's extension
/// only settles what the bytes leave open (a PDF header after some junk, a
/// ZIP without the entries of its format).
pub fn document_format(name: &str, bytes: &[u8]) -> Option<DocumentFormat> {
    let hinted = hinted_format(name);
    if bytes.starts_with(b"%PDF-") {
        return Some(DocumentFormat::Pdf);
    }
    // The PDF specification lets the header sit anywhere in the first KB.
    if hinted == Some(DocumentFormat::Pdf) && bytes[..bytes.len().min(1024)].windows(5).any(|w| w == b"%PDF-") {
        return Some(DocumentFormat::Pdf);
    }
    if !bytes.starts_with(ZIP_MAGIC) {
        return None;
    }
    if is_opendocument_text(bytes) {
        return Some(DocumentFormat::Odt);
    }
    match zip_entry_names(bytes) {
        Some(names) if names.iter().any(|n| *n == b"word/document.xml") => Some(DocumentFormat::Docx),
        // A ZIP named .docx or .odt without their marks: the reader will
        // call it damaged, which says more than "a ZIP archive".
        _ => hinted.filter(|&f| f != DocumentFormat::Pdf),
    }
}

fn hinted_format(name: &str) -> Option<DocumentFormat> {
    let extension = name.rsplit_once('.').map(|(_, ext)| ext.to_ascii_lowercase())?;
    match extension.as_str() {
        "pdf" => Some(DocumentFormat::Pdf),
        "docx" | "docm" | "dotx" => Some(DocumentFormat::Docx),
        "odt" | "ott" => Some(DocumentFormat::Odt),
        _ => None,
    }
}

/// OpenDocument puts an uncompressed `mimetype` entry first in the archive
/// so that its type shows at a fixed offset (ODF 1.2, part 3, §3.3).
fn is_opendocument_text(bytes: &[u8]) -> bool {
    const NAME_AT: usize = 30;
    let Some(header) = bytes.get(..NAME_AT) else { return false };
    let method = u16::from_le_bytes([header[8], header[9]]);
    let name_len = usize::from(u16::from_le_bytes([header[26], header[27]]));
    let extra_len = usize::from(u16::from_le_bytes([header[28], header[29]]));
    let data_at = NAME_AT + name_len + extra_len;
    method == 0
        && bytes.get(NAME_AT..NAME_AT + name_len) == Some(b"mimetype")
        && bytes.get(data_at..).is_some_and(|data| data.starts_with(ODT_MIMETYPE))
}

/// The entry names of a ZIP archive, from its central directory; `None`
/// when there is no readable directory (a truncated or damaged archive).
fn zip_entry_names(bytes: &[u8]) -> Option<Vec<&[u8]>> {
    const END_SIZE: usize = 22;
    const MAX_COMMENT: usize = u16::MAX as usize;
    let search_from = bytes.len().saturating_sub(END_SIZE + MAX_COMMENT);
    let end_at = (search_from..=bytes.len().checked_sub(END_SIZE)?)
        .rev()
        .find(|&at| bytes[at..].starts_with(b"PK\x05\x06"))?;
    let end = &bytes[end_at..end_at + END_SIZE];
    let entries = usize::from(u16::from_le_bytes([end[10], end[11]]));
    let mut at = u32::from_le_bytes([end[16], end[17], end[18], end[19]]) as usize;
    let mut names = Vec::with_capacity(entries.min(4096));
    for _ in 0..entries {
        let header = bytes.get(at..at + 46)?;
        if !header.starts_with(b"PK\x01\x02") {
            return None;
        }
        let field = |i: usize| usize::from(u16::from_le_bytes([header[i], header[i + 1]]));
        let (name_len, extra_len, comment_len) = (field(28), field(30), field(32));
        names.push(bytes.get(at + 46..at + 46 + name_len)?);
        at += 46 + name_len + extra_len + comment_len;
    }
    Some(names)
}

/// Office files that Précis does not read, refused with what to do instead:
/// Word 97–2003 (.doc) and Office files encrypted with a password (an
/// encrypted .docx is an OLE container holding an `EncryptedPackage`).
pub(super) fn office_refusal(name: &str, bytes: &[u8]) -> Option<InputError> {
    if !bytes.starts_with(OLE_MAGIC) {
        return None;
    }
    let lower = name.to_ascii_lowercase();
    let is_other_office = [".xls", ".xlsx", ".ppt", ".pptx"].iter().any(|ext| lower.ends_with(ext));
    Some(if contains_utf16le(bytes, "EncryptedPackage") && !is_other_office {
        InputError::PasswordProtected { format: DocumentFormat::Docx }
    } else if contains_utf16le(bytes, "WordDocument") || lower.ends_with(".doc") {
        InputError::OldWordDocument
    } else {
        InputError::Binary { kind: Some("an old Excel or PowerPoint file") }
    })
}

fn contains_utf16le(bytes: &[u8], text: &str) -> bool {
    let needle: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
    bytes.windows(needle.len()).any(|window| window == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A ZIP archive of empty stored entries (local headers, central
    /// directory, end record), as the readers would find it.
    fn zip_of(names: &[&str]) -> Vec<u8> {
        let mut bytes = Vec::new();
        let mut directory = Vec::new();
        for name in names {
            let offset = bytes.len() as u32;
            bytes.extend(b"PK\x03\x04\x14\x00");
            bytes.extend([0; 20]); // flags, method 0 (stored), time, date, CRC, sizes
            bytes.extend((name.len() as u16).to_le_bytes());
            bytes.extend([0, 0]);
            bytes.extend(name.as_bytes());
            directory.extend(b"PK\x01\x02\x14\x00\x14\x00");
            directory.extend([0; 20]); // flags, method, time, date, CRC, sizes
            directory.extend((name.len() as u16).to_le_bytes());
            directory.extend([0; 12]);
            directory.extend(offset.to_le_bytes());
            directory.extend(name.as_bytes());
        }
        let directory_at = bytes.len() as u32;
        bytes.extend(&directory);
        bytes.extend(b"PK\x05\x06\x00\x00\x00\x00");
        bytes.extend((names.len() as u16).to_le_bytes());
        bytes.extend((names.len() as u16).to_le_bytes());
        bytes.extend((directory.len() as u32).to_le_bytes());
        bytes.extend(directory_at.to_le_bytes());
        bytes.extend([0, 0]);
        bytes
    }

    #[test]
    fn a_pdf_is_known_by_its_header() {
        assert_eq!(document_format("x.bin", b"%PDF-1.7\n"), Some(DocumentFormat::Pdf));
        assert_eq!(document_format("report.pdf", b"\r\n  junk %PDF-1.4\n"), Some(DocumentFormat::Pdf));
        assert_eq!(document_format("notes.txt", b"\r\n  junk %PDF-1.4\n"), None);
        assert_eq!(document_format("fake.pdf", b"Just text."), None);
    }

    #[test]
    fn word_and_opendocument_are_known_by_their_entries() {
        let docx = zip_of(&["[Content_Types].xml", "word/document.xml"]);
        assert_eq!(document_format("any.name", &docx), Some(DocumentFormat::Docx));
        let mut odt = b"PK\x03\x04\x14\x00\x00\x00\x00\x00".to_vec();
        odt.extend([0; 16]);
        odt.extend(8u16.to_le_bytes());
        odt.extend([0, 0]);
        odt.extend(b"mimetypeapplication/vnd.oasis.opendocument.text");
        assert_eq!(document_format("noext", &odt), Some(DocumentFormat::Odt));
        assert_eq!(document_format("sheet.xlsx", &zip_of(&["xl/workbook.xml"])), None);
        assert_eq!(document_format("sheet.docx", &zip_of(&["xl/workbook.xml"])), Some(DocumentFormat::Docx));
    }

    #[test]
    fn the_extension_settles_a_damaged_archive() {
        let truncated = &zip_of(&["word/document.xml"])[..40];
        assert_eq!(document_format("letter.docx", truncated), Some(DocumentFormat::Docx));
        assert_eq!(document_format("letter.odt", truncated), Some(DocumentFormat::Odt));
        assert_eq!(document_format("archive.zip", truncated), None);
    }

    #[test]
    fn labels_read_as_a_noun_phrase() {
        assert_eq!(DocumentFormat::Pdf.label(), "a PDF file");
        assert_eq!(DocumentFormat::Docx.label(), "a Word document");
        assert_eq!(DocumentFormat::Odt.label(), "an OpenDocument text");
    }

    #[test]
    fn old_and_encrypted_office_files_are_refused_with_advice() {
        let ole = |stream: &str| {
            let mut bytes = OLE_MAGIC.to_vec();
            bytes.extend([7; 100]);
            bytes.extend(stream.encode_utf16().flat_map(u16::to_le_bytes));
            bytes
        };
        assert_eq!(office_refusal("a.doc", &ole("WordDocument")), Some(InputError::OldWordDocument));
        assert_eq!(office_refusal("renamed", &ole("WordDocument")), Some(InputError::OldWordDocument));
        assert_eq!(
            office_refusal("secret.docx", &ole("EncryptedPackage")),
            Some(InputError::PasswordProtected { format: DocumentFormat::Docx })
        );
        assert!(matches!(office_refusal("book.xls", &ole("Workbook")), Some(InputError::Binary { .. })));
        assert_eq!(office_refusal("a.doc", b"plain text"), None);
    }
}
