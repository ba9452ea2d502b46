//! Word (.docx) and OpenDocument text (.odt): ZIP archives of XML parts.
//! The body's paragraphs are read in order, table cells' paragraphs among
//! them, with their styles; what is not the running text is left out
//! (deleted tracked changes, footnotes, comments, page headers and footers,
//! field codes). The title is the metadata's when it looks real, else the
//! first paragraph styled as a title or top heading; the date is when the
//! file was created (else last saved), as a file has nothing better.
//!
//! Elements are matched by their usual prefixes (`w:`, `text:`): Word,
//! LibreOffice and Google Docs all write them so.

mod docx;
mod odt;

pub(super) use docx::read as read_docx;
pub(super) use odt::read as read_odt;

use super::{looks_like_a_title, Extracted};
use crate::input::{parse_iso8601, DocumentFormat, InputError};
use quick_xml::events::{BytesStart, Event};
use quick_xml::escape::resolve_predefined_entity;
use quick_xml::{Reader, XmlVersion};

/// What the readers see of an XML part.
enum Node<'e> {
    Open(&'e str, &'e BytesStart<'e>),
    Close(&'e str),
    Text(&'e str),
}

/// Walks an XML part: elements by qualified name, text with its entities
/// resolved. Malformed XML is a damaged file.
fn walk(xml: &str, format: DocumentFormat, mut visit: impl FnMut(Node<'_>)) -> Result<(), InputError> {
    let mut reader = Reader::from_str(xml);
    loop {
        match reader.read_event().map_err(|_| InputError::Damaged { format })? {
            Event::Start(element) => visit(Node::Open(element.name().0, &element)),
            Event::Empty(element) => {
                visit(Node::Open(element.name().0, &element));
                visit(Node::Close(element.name().0));
            }
            Event::End(element) => visit(Node::Close(element.name().0)),
            Event::Text(text) => visit(Node::Text(&text.xml10_content())),
            Event::GeneralRef(reference) => {
                let name = reference.xml10_content();
                match reference.resolve_char_ref() {
                    Ok(Some(c)) => visit(Node::Text(c.encode_utf8(&mut [0; 4]))),
                    _ => visit(Node::Text(resolve_predefined_entity(&name).unwrap_or_default())),
                }
            }
            Event::Eof => return Ok(()),
            _ => {}
        }
    }
}

fn attribute(element: &BytesStart<'_>, name: &str) -> Option<String> {
    let value = element.try_get_attribute(name).ok()??;
    value.normalized_value(XmlVersion::Implicit1_0).ok().map(|v| v.into_owned())
}

/// A paragraph being read, and whether its style makes it a title.
#[derive(Default)]
struct Paragraph {
    text: String,
    rank: Option<TitleRank>,
}

/// Styles that name a document: a "Title" paragraph before a top heading.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum TitleRank {
    Title,
    TopHeading,
}

/// Paragraphs as they close, nested ones (a text box in a paragraph) too.
#[derive(Default)]
struct Paragraphs {
    open: Vec<Paragraph>,
    done: Vec<Paragraph>,
}

impl Paragraphs {
    fn open(&mut self) {
        self.open.push(Paragraph::default());
    }

    fn close(&mut self) {
        if let Some(paragraph) = self.open.pop() {
            self.done.push(paragraph);
        }
    }

    fn push_str(&mut self, text: &str) {
        if let Some(paragraph) = self.open.last_mut() {
            paragraph.text.push_str(text);
        }
    }

    fn rank(&mut self, rank: Option<TitleRank>) {
        if let (Some(paragraph), Some(rank)) = (self.open.last_mut(), rank) {
            paragraph.rank = Some(rank);
        }
    }

    /// Text with each run of white space as one space, none doubled where
    /// two pieces meet.
    fn push_collapsed(&mut self, text: &str) {
        let Some(paragraph) = self.open.last_mut() else { return };
        let mut after_space = paragraph.text.ends_with(' ');
        for c in text.chars() {
            if c.is_whitespace() {
                if !after_space {
                    paragraph.text.push(' ');
                }
                after_space = true;
            } else {
                paragraph.text.push(c);
                after_space = false;
            }
        }
    }
}

/// A document's metadata, as text.
#[derive(Default)]
struct Metadata {
    title: Option<String>,
    created: Option<String>,
    modified: Option<String>,
}

/// The metadata of an XML part whose elements `names` hold the title,
/// the creation date and the last-saved date.
fn metadata(xml: &str, format: DocumentFormat, names: &[&str; 3]) -> Result<Metadata, InputError> {
    let mut metadata = Metadata::default();
    let mut field: Option<usize> = None;
    walk(xml, format, |node| match node {
        Node::Open(name, _) => field = names.iter().position(|n| *n == name),
        Node::Close(_) => field = None,
        Node::Text(text) => {
            let slot = match field {
                Some(0) => &mut metadata.title,
                Some(1) => &mut metadata.created,
                Some(2) => &mut metadata.modified,
                _ => return,
            };
            slot.get_or_insert_with(String::new).push_str(text);
        }
    })?;
    Ok(metadata)
}

/// The extracted text: the title from the metadata when it looks real,
/// else from the first paragraph of the best title style.
fn extracted(paragraphs: Vec<Paragraph>, metadata: Metadata) -> Extracted {
    let styled_title = [TitleRank::Title, TitleRank::TopHeading].into_iter().find_map(|rank| {
        paragraphs.iter().find(|p| p.rank == Some(rank) && !p.text.trim().is_empty()).map(|p| squash(&p.text))
    });
    let title = metadata.title.map(|t| squash(&t)).filter(|t| looks_like_a_title(t)).or(styled_title);
    let timestamp = [metadata.created, metadata.modified].into_iter().flatten().find_map(|d| parse_iso8601(d.trim()));
    Extracted { title, paragraphs: paragraphs.into_iter().map(|p| p.text).collect(), timestamp }
}

fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// How deep the reader is inside elements whose text is not the article.
#[derive(Default)]
struct Skipping(usize);

impl Skipping {
    /// Follows `node`; true while it is inside a skipped element (`skipped`
    /// names them).
    fn follows(&mut self, node: &Node<'_>, skipped: &[&str]) -> bool {
        match node {
            Node::Open(name, _) if self.0 > 0 || skipped.contains(name) => self.0 += 1,
            Node::Close(_) if self.0 > 0 => {
                self.0 -= 1;
                return true;
            }
            _ => {}
        }
        self.0 > 0
    }
}
