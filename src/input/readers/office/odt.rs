//! OpenDocument text: `content.xml` (the body) and `meta.xml` (title,
//! dates). Footnotes, comments and tracked deletions sit inside the body,
//! so they are skipped there.

use super::{attribute, extracted, metadata, walk, Metadata, Node, Paragraphs, Skipping, TitleRank};
use quick_xml::events::BytesStart;
use crate::input::readers::zip_entries::Archive;
use crate::input::readers::Extracted;
use crate::input::{DocumentFormat, InputError};

const FORMAT: DocumentFormat = DocumentFormat::Odt;

/// Notes (their text is elsewhere on the page), comments and the record
/// of tracked changes (which keeps deleted text).
const SKIPPED: &[&str] = &["text:note", "office:annotation", "text:tracked-changes"];
/// Most spaces one `text:s` stands for (its count is the file's word):
/// fewer than the 9 bytes of the shortest one, `<text:s/>`, so the text is
/// never longer than the XML it came from (with 100, the 50 MB of XML a
/// ZIP may unpack to could hold 230 MB of spaces); runs that wide are
/// layout anyway.
const MAX_SPACES: usize = 8;

pub(in crate::input::readers) fn read(bytes: &[u8]) -> Result<Extracted, InputError> {
    let mut archive = Archive::open(bytes, FORMAT)?;
    let content = archive.text("content.xml")?.ok_or(InputError::Damaged { format: FORMAT })?;
    let metadata = match archive.text("meta.xml")? {
        Some(xml) => metadata(&xml, FORMAT, &["dc:title", "meta:creation-date", "dc:date"])?,
        None => Metadata::default(),
    };
    Ok(extracted(paragraphs(&content)?, metadata))
}

/// Paragraphs and headings; white space collapses as in HTML (ODF 1.2
/// §6.1.2) except where `text:s`, `text:tab` and `text:line-break` say.
fn paragraphs(xml: &str) -> Result<Vec<super::Paragraph>, InputError> {
    let mut paragraphs = Paragraphs::default();
    let mut skipping = Skipping::default();
    walk(xml, FORMAT, |node| {
        if skipping.follows(&node, SKIPPED) {
            return;
        }
        match node {
            Node::Open(name @ ("text:p" | "text:h"), element) => {
                paragraphs.open();
                paragraphs.rank(rank(name, element));
            }
            Node::Close("text:p" | "text:h") => paragraphs.close(),
            Node::Open("text:s", element) => {
                let count = attribute(element, "text:c").and_then(|c| c.parse().ok()).unwrap_or(1usize);
                paragraphs.push_str(&" ".repeat(count.min(MAX_SPACES)));
            }
            Node::Open("text:tab", _) => paragraphs.push_str(" "),
            Node::Open("text:line-break", _) => paragraphs.push_str("\n"),
            Node::Text(text) => paragraphs.push_collapsed(text),
            _ => {}
        }
    })?;
    Ok(paragraphs.done)
}

/// A heading of level 1, or a paragraph in the "Title" style.
fn rank(name: &str, element: &BytesStart<'_>) -> Option<TitleRank> {
    let style = attribute(element, "text:style-name").unwrap_or_default().to_lowercase();
    if style == "title" {
        Some(TitleRank::Title)
    } else if name == "text:h" && attribute(element, "text:outline-level").is_none_or(|level| level == "1") {
        Some(TitleRank::TopHeading)
    } else {
        None
    }
}
