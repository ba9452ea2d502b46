//! Word 2007 and later: `word/document.xml` (the body), `word/styles.xml`
//! (which styles are titles and headings) and `docProps/core.xml` (title,
//! dates). Headers, footers, footnotes and comments are other parts, so
//! they are left out by not being read.

use super::{attribute, extracted, metadata, walk, Metadata, Node, Paragraphs, Skipping, TitleRank};
use crate::input::readers::zip_entries::Archive;
use crate::input::readers::Extracted;
use crate::input::{DocumentFormat, InputError};
use std::collections::HashMap;

const FORMAT: DocumentFormat = DocumentFormat::Docx;

/// Text that is not the document as it reads now: deleted and moved-away
/// tracked changes, field codes, and the fallback copy of content that
/// Word also writes in a newer form (`mc:Choice`).
const SKIPPED: &[&str] = &["w:del", "w:moveFrom", "w:instrText", "w:delInstrText", "mc:Fallback"];

pub(in crate::input::readers) fn read(bytes: &[u8]) -> Result<Extracted, InputError> {
    let mut archive = Archive::open(bytes, FORMAT)?;
    let body = archive.text("word/document.xml")?.ok_or(InputError::Damaged { format: FORMAT })?;
    let styles = match archive.text("word/styles.xml")? {
        Some(xml) => title_styles(&xml)?,
        None => HashMap::new(),
    };
    let metadata = match archive.text("docProps/core.xml")? {
        Some(xml) => metadata(&xml, FORMAT, &["dc:title", "dcterms:created", "dcterms:modified"])?,
        None => Metadata::default(),
    };
    Ok(extracted(paragraphs(&body, &styles)?, metadata))
}

/// The body's paragraphs: `w:t` text, a tab as a space, a break as a new
/// line, links' text included.
fn paragraphs(xml: &str, styles: &HashMap<String, TitleRank>) -> Result<Vec<super::Paragraph>, InputError> {
    let mut paragraphs = Paragraphs::default();
    let mut skipping = Skipping::default();
    let (mut in_run, mut in_text) = (0usize, 0usize);
    walk(xml, FORMAT, |node| {
        if skipping.follows(&node, SKIPPED) {
            return;
        }
        match node {
            Node::Open("w:p", _) => paragraphs.open(),
            Node::Close("w:p") => paragraphs.close(),
            Node::Open("w:r", _) => in_run += 1,
            Node::Close("w:r") => in_run = in_run.saturating_sub(1),
            Node::Open("w:t", _) => in_text += 1,
            Node::Close("w:t") => in_text = in_text.saturating_sub(1),
            Node::Text(text) if in_text > 0 => paragraphs.push_str(text),
            // Outside runs, w:tab is a tab stop of the paragraph's style.
            Node::Open("w:tab", _) if in_run > 0 => paragraphs.push_str(" "),
            Node::Open("w:br" | "w:cr", _) if in_run > 0 => paragraphs.push_str("\n"),
            Node::Open("w:noBreakHyphen", _) if in_run > 0 => paragraphs.push_str("-"),
            Node::Open("w:pStyle", element) => {
                let style = attribute(element, "w:val").unwrap_or_default();
                paragraphs.rank(styles.get(&style).copied().or_else(|| rank_of_name(&style)));
            }
            _ => {}
        }
    })?;
    Ok(paragraphs.done)
}

/// Style ids that are titles or top headings, by the style's built-in
/// name: ids are localized ("berschrift1"), names are not ("heading 1").
fn title_styles(xml: &str) -> Result<HashMap<String, TitleRank>, InputError> {
    let mut styles = HashMap::new();
    let mut current: Option<String> = None;
    walk(xml, FORMAT, |node| match node {
        Node::Open("w:style", element) => current = attribute(element, "w:styleId"),
        Node::Open("w:name", element) => {
            let rank = attribute(element, "w:val").and_then(|name| rank_of_name(&name));
            if let (Some(id), Some(rank)) = (current.clone(), rank) {
                styles.insert(id, rank);
            }
        }
        _ => {}
    })?;
    Ok(styles)
}

fn rank_of_name(name: &str) -> Option<TitleRank> {
    match name.to_lowercase().replace(' ', "").as_str() {
        "title" => Some(TitleRank::Title),
        "heading1" => Some(TitleRank::TopHeading),
        _ => None,
    }
}
