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

mod format;
#[cfg(feature = "documents")]
mod readers;

pub use format::{document_format, DocumentFormat};

use crate::dates::CivilDate;
use crate::document::Document;
use crate::segment::{self, reduce_html, windows_1252_char};
use serde_json::{Map, Value};
use std::fmt;
use std::sync::LazyLock;

pub use crate::limits::MAX_FILE_BYTES;
use crate::limits::{
    MAX_DOCUMENT_GLYPHS, MAX_DOCUMENT_PAGES, MAX_PDF_PAGE_OPERATIONS, MAX_PDF_UNPACKED_BYTES, MAX_UNPACKED_BYTES,
};
/// Share of control characters above which decoded bytes are not text.
const MAX_CONTROL_SHARE: f64 = 0.05;
/// Longest first line taken as a title, in characters.
const MAX_TITLE_CHARS: usize = 200;

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
                        write!(f, "this {noun} has more than {} pages", thousands(MAX_DOCUMENT_PAGES))
                    }
                    DocumentLimit::Characters => {
                        write!(f, "this {noun} holds more than {} characters", thousands(MAX_DOCUMENT_GLYPHS))
                    }
                    DocumentLimit::PageOperations => {
                        write!(f, "a page of this {noun} draws text in more than {} pieces", thousands(MAX_PDF_PAGE_OPERATIONS))
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

/// 5000000 → "5,000,000".
fn thousands(number: usize) -> String {
    let digits = number.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

impl std::error::Error for InputError {}

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

// ---------------------------------------------------------------- decoding

/// The text of a file's bytes (see the module comment for encodings).
fn decode(bytes: &[u8]) -> Result<String, InputError> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(InputError::TooLarge { bytes: bytes.len() });
    }
    if let Some(kind) = binary_format(bytes) {
        return Err(InputError::Binary { kind: Some(kind) });
    }
    let text = if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        String::from_utf8_lossy(rest).into_owned()
    } else if let Some(rest) = bytes.strip_prefix(b"\xFF\xFE") {
        decode_utf16(rest, u16::from_le_bytes)
    } else if let Some(rest) = bytes.strip_prefix(b"\xFE\xFF") {
        decode_utf16(rest, u16::from_be_bytes)
    } else if let Some(little_endian) = utf16_without_bom(bytes) {
        decode_utf16(bytes, if little_endian { u16::from_le_bytes } else { u16::from_be_bytes })
    } else if bytes.contains(&0) {
        return Err(InputError::Binary { kind: None });
    } else {
        match std::str::from_utf8(bytes) {
            Ok(text) => text.to_string(),
            Err(_) => bytes.iter().map(|&b| windows_1252_char(b)).collect(),
        }
    };
    if is_mostly_control(&text) {
        return Err(InputError::Binary { kind: None });
    }
    if text.trim().is_empty() {
        return Err(InputError::Empty);
    }
    Ok(text)
}

/// Formats people upload by mistake, by their first bytes (PDF, Word and
/// old Office files are told apart before: `format`).
fn binary_format(bytes: &[u8]) -> Option<&'static str> {
    const SIGNATURES: &[(&[u8], &str)] = &[
        (b"PK\x03\x04", "a ZIP archive, or an Excel or PowerPoint file"),
        (b"{\\rtf", "an RTF document"),
        (b"\x89PNG", "an image"),
        (b"\xFF\xD8\xFF", "an image"),
        (b"GIF8", "an image"),
        (b"\x1F\x8B", "a compressed (gzip) file"),
    ];
    SIGNATURES.iter().find(|(magic, _)| bytes.starts_with(magic)).map(|&(_, kind)| kind)
}

/// UTF-16 without a byte-order mark: zeros in nearly all odd (little-endian)
/// or even (big-endian) positions and almost none in the others, as in
/// mostly-ASCII text.
fn utf16_without_bom(bytes: &[u8]) -> Option<bool> {
    if bytes.len() < 4 || !bytes.len().is_multiple_of(2) {
        return None;
    }
    let pairs = bytes.len() / 2;
    let zero_high = bytes.chunks_exact(2).filter(|p| p[1] == 0 && p[0] != 0).count();
    let zero_low = bytes.chunks_exact(2).filter(|p| p[0] == 0 && p[1] != 0).count();
    let mostly = |count: usize| count * 10 >= pairs * 9;
    match (mostly(zero_high), mostly(zero_low)) {
        (true, false) => Some(true),
        (false, true) => Some(false),
        _ => None,
    }
}

fn decode_utf16(bytes: &[u8], unit: fn([u8; 2]) -> u16) -> String {
    let units = bytes.chunks_exact(2).map(|pair| unit([pair[0], pair[1]]));
    char::decode_utf16(units).map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER)).collect()
}

fn is_mostly_control(text: &str) -> bool {
    let mut chars = 0usize;
    let mut control = 0usize;
    for c in text.chars() {
        chars += 1;
        let is_layout = matches!(c, '\n' | '\r' | '\t' | '\u{0C}');
        if (c.is_control() && !is_layout) || c == char::REPLACEMENT_CHARACTER {
            control += 1;
        }
    }
    control as f64 > chars as f64 * MAX_CONTROL_SHARE
}

// ---------------------------------------------------------------- formats

#[derive(Debug, PartialEq)]
enum Format {
    Text,
    Markdown,
    Html,
    Json,
    JsonLines,
}

impl Format {
    fn of(name: &str, text: &str) -> Self {
        let extension = name.rsplit_once('.').map(|(_, ext)| ext.to_ascii_lowercase()).unwrap_or_default();
        match extension.as_str() {
            "txt" | "text" => Self::Text,
            "md" | "markdown" => Self::Markdown,
            "html" | "htm" | "xhtml" => Self::Html,
            "json" => Self::Json,
            "jsonl" | "ndjson" => Self::JsonLines,
            _ => Self::sniff(text),
        }
    }

    /// The format of a file without a known extension, by its first characters.
    fn sniff(text: &str) -> Self {
        let start = text.trim_start();
        let head = start[..floor_char_boundary(start, 1024)].to_ascii_lowercase();
        if start.starts_with('[') {
            Self::Json
        } else if start.starts_with('{') {
            let first_line_is_object =
                start.lines().next().is_some_and(|l| serde_json::from_str::<Map<_, _>>(l).is_ok());
            if first_line_is_object && start.lines().filter(|l| !l.trim().is_empty()).count() > 1 {
                Self::JsonLines
            } else {
                Self::Json
            }
        } else if head.starts_with('<')
            && ["<html", "<!doctype html", "<body", "<p>", "<article"].iter().any(|t| head.contains(t))
        {
            Self::Html
        } else {
            Self::Text
        }
    }
}

/// A text article: the first line is the title when it is a headline.
fn text_document(id: &str, text: &str) -> Option<Document> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    let headline =
        segment::headline_line(text).filter(|line| text[line.clone()].chars().count() <= MAX_TITLE_CHARS);
    let (title, body) = match headline {
        Some(line) => (Some(text[line.clone()].to_string()), text[line.end..].trim()),
        None => (None, text),
    };
    Some(Document { id: id.to_string(), title, text: body.to_string(), ..Default::default() })
}

static MARKDOWN_SYNTAX: LazyLock<[(regex::Regex, &'static str); 5]> = LazyLock::new(|| {
    let rule = |pattern: &str, replacement| (regex::Regex::new(pattern).expect("valid pattern"), replacement);
    [
        rule(r"(?m)^[ \t]{0,3}(#{1,6}[ \t]+|>[ \t]?|```.*$)", ""),
        rule(r"(?m)[ \t]+#+[ \t]*$", ""),
        rule(r"!\[[^\]\n]*\]\([^)\n]*\)", ""),
        rule(r"\[([^\]\n]+)\]\([^)\n]*\)", "$1"),
        rule(r"\*\*|__", ""),
    ]
});

fn strip_markdown(text: &str) -> String {
    MARKDOWN_SYNTAX.iter().fold(text.to_string(), |text, (pattern, replacement)| {
        pattern.replace_all(&text, *replacement).into_owned()
    })
}

fn html_document(id: &str, html: &str) -> Option<Document> {
    let article = reduce_html(html);
    if article.text.trim().is_empty() {
        return None;
    }
    Some(Document {
        id: id.to_string(),
        title: article.title,
        timestamp: article.published.as_deref().and_then(parse_iso8601),
        text: article.text,
        lang: None,
        keep_furniture: false,
        pinned: vec![],
        struck: vec![],
    })
}

fn json_documents(name: &str, text: &str) -> Result<Vec<Document>, InputError> {
    let value: Value = serde_json::from_str(text).map_err(|e| json_error(&e, 0))?;
    let records = match value {
        Value::Array(records) => records,
        record => vec![record],
    };
    let several = records.len() > 1;
    records.into_iter().enumerate().map(|(i, record)| record_document(name, i + 1, several, record)).collect()
}

fn json_lines_documents(name: &str, text: &str) -> Result<Vec<Document>, InputError> {
    let lines: Vec<(usize, &str)> =
        text.lines().enumerate().filter(|(_, line)| !line.trim().is_empty()).collect();
    let several = lines.len() > 1;
    lines
        .into_iter()
        .enumerate()
        .map(|(i, (line_index, line))| {
            let record = serde_json::from_str(line).map_err(|e| json_error(&e, line_index))?;
            record_document(name, i + 1, several, record)
        })
        .collect()
}

fn json_error(error: &serde_json::Error, line_offset: usize) -> InputError {
    let detail = error.to_string();
    let detail = detail.split(" at line ").next().unwrap_or(&detail).to_string();
    InputError::InvalidJson { line: error.line() + line_offset, column: error.column(), detail }
}

/// One JSON record (`record` is 1-based) as a document.
fn record_document(name: &str, record: usize, several: bool, value: Value) -> Result<Document, InputError> {
    let invalid = |problem: String| InputError::InvalidRecord { record, problem };
    let Value::Object(fields) = value else {
        return Err(invalid("is not an object like {\"title\": …, \"text\": …}".into()));
    };
    let text = match fields.get("text") {
        Some(Value::String(text)) if !text.trim().is_empty() => text.clone(),
        Some(Value::String(_)) => return Err(invalid("has an empty \"text\"".into())),
        Some(_) => return Err(invalid("has a \"text\" that is not a string".into())),
        None => return Err(invalid("has no \"text\"".into())),
    };
    let id = match fields.get("id") {
        Some(Value::String(id)) => id.clone(),
        Some(Value::Number(id)) => id.to_string(),
        _ if several => format!("{name}#{record}"),
        _ => name.to_string(),
    };
    Ok(Document {
        id,
        title: optional_string(&fields, "title").map_err(invalid)?,
        timestamp: record_timestamp(&fields).map_err(invalid)?,
        text,
        lang: optional_string(&fields, "lang").map_err(invalid)?.map(|l| l.to_ascii_lowercase()),
        // The app's saved choice to use all of an article's sentences.
        keep_furniture: fields.get("keep_furniture").and_then(Value::as_bool).unwrap_or(false),
        // The app's saved pins and strikes, as texts.
        pinned: string_list(&fields, "pinned"),
        struck: string_list(&fields, "struck"),
    })
}

/// A list of strings under `key` (anything else there is ignored).
fn string_list(fields: &Map<String, Value>, key: &str) -> Vec<String> {
    fields.get(key).and_then(Value::as_array).map_or_else(Vec::new, |items| items.iter().filter_map(|v| v.as_str().map(str::to_string)).collect())
}

fn optional_string(fields: &Map<String, Value>, key: &str) -> Result<Option<String>, String> {
    match fields.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.trim().to_string())),
        Some(_) => Err(format!("has a \"{key}\" that is not a string")),
    }
}

fn record_timestamp(fields: &Map<String, Value>) -> Result<Option<i64>, String> {
    let date_problem = |shown: &dyn fmt::Display| {
        format!("has a \"date\" ({shown}) that is not a date like 2024-03-05 or 2024-03-05T14:30:00Z")
    };
    match fields.get("date") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
        Some(Value::String(s)) => {
            parse_iso8601(s.trim()).map(Some).ok_or_else(|| date_problem(&format!("\"{s}\"")))
        }
        Some(Value::Number(n)) => n.as_i64().map(Some).ok_or_else(|| date_problem(n)),
        Some(other) => Err(date_problem(other)),
    }
}

// ---------------------------------------------------------------- dates

/// Seconds since 1970 (UTC) of an ISO 8601 date (`2024-03-05`, midnight
/// UTC) or date-time (`2024-03-05T14:30`, `…:15`, `…:15.250`, then `Z`,
/// `+02:00`, `+0200` or nothing for UTC; a space may stand for `T`).
pub fn parse_iso8601(text: &str) -> Option<i64> {
    let (date, time) = match text.find(['T', 't', ' ']) {
        Some(at) => (&text[..at], Some(&text[at + 1..])),
        None => (text, None),
    };
    let days = parse_date(date)?;
    let seconds = match time {
        Some(time) => parse_time_and_zone(time)?,
        None => 0,
    };
    Some(days * 86_400 + seconds)
}

/// Days since 1970-01-01 of `YYYY-MM-DD`.
fn parse_date(date: &str) -> Option<i64> {
    let mut parts = date.split('-');
    let (year, month, day) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || year.len() != 4 || month.len() != 2 || day.len() != 2 {
        return None;
    }
    let (year, month, day): (i64, i64, i64) = (number(year)?, number(month)?, number(day)?);
    Some(CivilDate::new(year as i32, month as u32, day as u32)?.to_unix_days())
}

/// Seconds into the day, shifted to UTC, of `HH:MM[:SS[.fff]][Z|±HH:MM|±HHMM]`.
fn parse_time_and_zone(time: &str) -> Option<i64> {
    let zone_at = time.find(['Z', 'z', '+', '-']).unwrap_or(time.len());
    let (clock, zone) = time.split_at(zone_at);
    let clock = clock.split('.').next()?; // fractions of a second are dropped
    let mut parts = clock.split(':');
    let hours: i64 = two_digits(parts.next()?)?;
    let minutes: i64 = two_digits(parts.next()?)?;
    let seconds: i64 = parts.next().map_or(Some(0), two_digits)?;
    if parts.next().is_some() || hours > 24 || minutes > 59 || seconds > 60 {
        return None;
    }
    Some(hours * 3600 + minutes * 60 + seconds - zone_offset(zone)?)
}

/// Seconds east of UTC of `Z`, `±HH:MM`, `±HHMM`, `±HH` or nothing.
fn zone_offset(zone: &str) -> Option<i64> {
    if zone.is_empty() || zone.eq_ignore_ascii_case("z") {
        return Some(0);
    }
    let sign = if zone.starts_with('-') { -1 } else { 1 };
    let digits = zone[1..].replace(':', "");
    let (hours, minutes) = match digits.len() {
        2 => (two_digits(&digits)?, 0),
        4 => (two_digits(&digits[..2])?, two_digits(&digits[2..])?),
        _ => return None,
    };
    (hours <= 23 && minutes <= 59).then_some(sign * (hours * 3600 + minutes * 60))
}

fn two_digits(text: &str) -> Option<i64> {
    (text.len() == 2).then(|| number(text)).flatten()
}

fn number(text: &str) -> Option<i64> {
    text.bytes().all(|b| b.is_ascii_digit()).then(|| text.parse().ok()).flatten()
}

fn floor_char_boundary(text: &str, at: usize) -> usize {
    (0..=at.min(text.len())).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(name: &str, bytes: &[u8]) -> Document {
        let mut documents = documents_from_file(name, bytes).unwrap();
        assert_eq!(documents.len(), 1, "{documents:?}");
        documents.remove(0)
    }

    #[test]
    fn a_text_file_with_a_headline_gets_a_title() {
        let doc =
            one("quake.txt", "Quake hits Tokyo\n\nA strong earthquake struck Tokyo on Monday.\n".as_bytes());
        assert_eq!(doc.id, "quake.txt");
        assert_eq!(doc.title.as_deref(), Some("Quake hits Tokyo"));
        assert_eq!(doc.text, "A strong earthquake struck Tokyo on Monday.");
    }

    #[test]
    fn a_wrapped_first_line_is_not_a_title() {
        let text = "Cambodian leader Hun Sen on Friday rejected opposition parties' demands\n\
                    for talks outside the country, accusing them of trying to internationalize\n\
                    the political crisis.\n";
        let doc = one("D1", text.as_bytes());
        assert_eq!(doc.title, None);
        assert_eq!(doc.text, text.trim());
        assert_eq!(one("a.txt", b"Just one sentence.\n").title, None);
        assert_eq!(one("a.txt", b"Only a headline").title, None);
    }

    #[test]
    fn markdown_syntax_is_removed() {
        let md =
            "# Quake hits *Tokyo*\n\n> A **strong** quake, see [the map](http://x/map) ![photo](p.jpg)\n";
        let doc = one("quake.md", md.as_bytes());
        assert_eq!(doc.title.as_deref(), Some("Quake hits *Tokyo*"));
        assert_eq!(doc.text, "A strong quake, see the map");
    }

    #[test]
    fn html_is_reduced_to_the_article_with_its_date() {
        let html = "<html><head><title>Site</title><script>alert(1)</script></head><body>\
                    <nav><a>Home</a></nav><article><h1>Quake hits Tokyo</h1>\
                    <time datetime=\"2024-03-05T10:00:00+01:00\">5 March</time>\
                    <p>A strong earthquake struck Tokyo.</p><p>Trains &amp; buses stopped.</p></article>\
                    <footer>© Site</footer></body></html>";
        let doc = one("page.HTML", html.as_bytes());
        assert_eq!(doc.title.as_deref(), Some("Quake hits Tokyo"));
        assert_eq!(doc.text, "A strong earthquake struck Tokyo.\n\nTrains & buses stopped.");
        assert_eq!(doc.timestamp, Some(1_709_629_200));
    }

    #[test]
    fn json_object_array_and_lines() {
        let object = r#"{"title": "T", "text": "Body.", "date": "2024-03-05", "lang": "EN"}"#;
        let doc = one("a.json", object.as_bytes());
        assert_eq!(
            doc,
            Document {
                id: "a.json".into(),
                title: Some("T".into()),
                timestamp: Some(1_709_596_800),
                text: "Body.".into(),
                lang: Some("en".into()),
                keep_furniture: false,
                pinned: vec![],
                struck: vec![],
            }
        );
        let array = r#"[{"text": "One."}, {"text": "Two.", "id": "x7", "date": 1700000000}]"#;
        let docs = documents_from_file("b.json", array.as_bytes()).unwrap();
        assert_eq!(docs.iter().map(|d| d.id.as_str()).collect::<Vec<_>>(), ["b.json#1", "x7"]);
        assert_eq!(docs[1].timestamp, Some(1_700_000_000));
        let lines = "{\"text\": \"One.\"}\n\n{\"text\": \"Dos.\", \"lang\": \"es\"}\n";
        let docs = documents_from_file("c.jsonl", lines.as_bytes()).unwrap();
        assert_eq!(docs.iter().map(|d| d.text.as_str()).collect::<Vec<_>>(), ["One.", "Dos."]);
        assert_eq!(docs[1].id, "c.jsonl#2");
    }

    #[test]
    fn invalid_json_says_where() {
        let err =
            documents_from_file("a.json", b"[\n  {\"text\": \"One.\"},\n  {\"text\": }\n]").unwrap_err();
        assert!(matches!(err, InputError::InvalidJson { line: 3, .. }), "{err:?}");
        assert!(err.to_string().starts_with("the JSON is not valid at line 3, column"), "{err}");
        let err = documents_from_file("a.jsonl", b"{\"text\": \"ok\"}\n{\"text\": \"broken\"\n").unwrap_err();
        assert!(matches!(err, InputError::InvalidJson { line: 2, .. }), "{err:?}");
    }

    #[test]
    fn unusable_records_are_named() {
        let problem = |json: &str| documents_from_file("a.json", json.as_bytes()).unwrap_err().to_string();
        assert_eq!(problem(r#"[{"text": "ok"}, {"title": "x"}]"#), "article 2 in the file has no \"text\"");
        assert_eq!(problem(r#"{"text": "  "}"#), "article 1 in the file has an empty \"text\"");
        assert_eq!(problem(r#"{"text": 5}"#), "article 1 in the file has a \"text\" that is not a string");
        assert_eq!(
            problem(r#"["just text"]"#),
            "article 1 in the file is not an object like {\"title\": …, \"text\": …}"
        );
        assert_eq!(
            problem(r#"{"text": "x", "date": "yesterday"}"#),
            "article 1 in the file has a \"date\" (\"yesterday\") that is not a date like 2024-03-05 or 2024-03-05T14:30:00Z"
        );
        assert_eq!(documents_from_file("a.json", b"[]"), Err(InputError::Empty));
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

    #[test]
    fn binary_files_are_refused() {
        let zip = documents_from_file("photos.zip", b"PK\x03\x04\x14\x00junk").unwrap_err();
        assert_eq!(zip, InputError::Binary { kind: Some("a ZIP archive, or an Excel or PowerPoint file") });
        assert!(zip.to_string().starts_with("this is a ZIP archive, or an Excel or PowerPoint file, not text"));
        let nul = documents_from_file("data.txt", b"abc\x00\x01\x02\x03def\x00").unwrap_err();
        assert_eq!(nul, InputError::Binary { kind: None });
        let controls: Vec<u8> = (0..200u8).map(|i| if i % 3 == 0 { 0x07 } else { b'a' }).collect();
        assert_eq!(documents_from_file("x.txt", &controls), Err(InputError::Binary { kind: None }));
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
    fn reads_utf16_and_windows_1252() {
        let utf16le: Vec<u8> =
            [0xFF, 0xFE].into_iter().chain("Café ok.".encode_utf16().flat_map(u16::to_le_bytes)).collect();
        assert_eq!(one("a.txt", &utf16le).text, "Café ok.");
        let utf16be: Vec<u8> = "Über alles.".encode_utf16().flat_map(u16::to_be_bytes).collect();
        assert_eq!(one("a.txt", &utf16be).text, "Über alles.");
        assert_eq!(one("a.txt", b"\x93Caf\xE9\x94 \x96 ok.").text, "“Café” – ok.");
        assert_eq!(one("a.txt", "\u{FEFF}Déjà vu.".as_bytes()).text, "Déjà vu.");
    }

    #[test]
    fn unknown_extensions_are_sniffed() {
        assert_eq!(Format::of("noext", "  [{\"text\": \"a\"}]"), Format::Json);
        assert_eq!(Format::of("noext", "{\"text\": \"a\"}\n{\"text\": \"b\"}"), Format::JsonLines);
        assert_eq!(Format::of("noext", "{\n  \"text\": \"a\"\n}"), Format::Json);
        assert_eq!(Format::of("page", "<!DOCTYPE html><html>"), Format::Html);
        assert_eq!(Format::of("notes.log", "Plain words."), Format::Text);
        assert_eq!(Format::of("x.JSONL", ""), Format::JsonLines);
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

    #[test]
    fn parses_iso_8601_dates_and_times() {
        assert_eq!(parse_iso8601("1970-01-01"), Some(0));
        assert_eq!(parse_iso8601("2024-03-05"), Some(1_709_596_800));
        assert_eq!(parse_iso8601("2024-03-05T10:20"), Some(1_709_596_800 + 37_200));
        assert_eq!(parse_iso8601("2024-03-05 10:20:30Z"), Some(1_709_596_800 + 37_230));
        assert_eq!(parse_iso8601("2024-03-05T10:20:30.250+02:00"), Some(1_709_596_800 + 37_230 - 7200));
        assert_eq!(parse_iso8601("2024-03-05T10:20:30-0500"), Some(1_709_596_800 + 37_230 + 18_000));
        assert_eq!(parse_iso8601("2000-02-29"), Some(951_782_400));
        assert_eq!(parse_iso8601("1969-12-31T23:59:59Z"), Some(-1));
        for bad in ["2023-02-29", "2024-13-01", "24-03-05", "2024-03-05T25:00", "2024-3-5", "yesterday", ""] {
            assert_eq!(parse_iso8601(bad), None, "{bad}");
        }
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
