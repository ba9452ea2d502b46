//! Text formats, known by extension or content: plain text, Markdown, HTML, JSON and JSON Lines.

use super::InputError;
use crate::dates::parse_iso8601;
use crate::document::Document;
use crate::segment::{self, reduce_html};
use serde_json::{Map, Value};
use std::fmt;
use std::sync::LazyLock;

/// Longest first line taken as a title, in characters.
pub(super) const MAX_TITLE_CHARS: usize = 200;

#[derive(Debug, PartialEq)]
pub(super) enum Format {
    Text,
    Markdown,
    Html,
    Json,
    JsonLines,
}

impl Format {
    pub(super) fn of(name: &str, text: &str) -> Self {
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
pub(super) fn text_document(id: &str, text: &str) -> Option<Document> {
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

pub(super) fn strip_markdown(text: &str) -> String {
    MARKDOWN_SYNTAX.iter().fold(text.to_string(), |text, (pattern, replacement)| {
        pattern.replace_all(&text, *replacement).into_owned()
    })
}

pub(super) fn html_document(id: &str, html: &str) -> Option<Document> {
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

pub(super) fn json_documents(name: &str, text: &str) -> Result<Vec<Document>, InputError> {
    let value: Value = serde_json::from_str(text).map_err(|e| json_error(&e, 0))?;
    let records = match value {
        Value::Array(records) => records,
        record => vec![record],
    };
    let several = records.len() > 1;
    records.into_iter().enumerate().map(|(i, record)| record_document(name, i + 1, several, record)).collect()
}

pub(super) fn json_lines_documents(name: &str, text: &str) -> Result<Vec<Document>, InputError> {
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


fn floor_char_boundary(text: &str, at: usize) -> usize {
    (0..=at.min(text.len())).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::documents_from_file;
    use crate::input::tests::one;

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
    fn unknown_extensions_are_sniffed() {
        assert_eq!(Format::of("noext", "  [{\"text\": \"a\"}]"), Format::Json);
        assert_eq!(Format::of("noext", "{\"text\": \"a\"}\n{\"text\": \"b\"}"), Format::JsonLines);
        assert_eq!(Format::of("noext", "{\n  \"text\": \"a\"\n}"), Format::Json);
        assert_eq!(Format::of("page", "<!DOCTYPE html><html>"), Format::Html);
        assert_eq!(Format::of("notes.log", "Plain words."), Format::Text);
        assert_eq!(Format::of("x.JSONL", ""), Format::JsonLines);
    }
}
