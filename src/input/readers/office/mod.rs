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
use crate::text::collapse_whitespace;
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
        paragraphs.iter().find(|p| p.rank == Some(rank) && !p.text.trim().is_empty()).map(|p| collapse_whitespace(&p.text))
    });
    let title = metadata.title.map(|t| collapse_whitespace(&t)).filter(|t| looks_like_a_title(t)).or(styled_title);
    let timestamp = [metadata.created, metadata.modified].into_iter().flatten().find_map(|d| parse_iso8601(d.trim()));
    Extracted { title, paragraphs: paragraphs.into_iter().map(|p| p.text).collect(), timestamp }
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

#[cfg(test)]
mod tests {
    use crate::input::{documents_from_file, DocumentFormat, DocumentLimit, InputError};
    use std::io::Write;
    use zip::write::SimpleFileOptions;
    use zip::{CompressionMethod, ZipWriter};

    const W: &str = r#"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main""#;

    fn docx(parts: &[(&str, &str)]) -> Vec<u8> {
        let mut zip = ZipWriter::new(std::io::Cursor::new(Vec::new()));
        let options = SimpleFileOptions::default().compression_method(CompressionMethod::Deflated);
        for (name, content) in parts {
            zip.start_file(*name, options).unwrap();
            zip.write_all(content.as_bytes()).unwrap();
        }
        zip.finish().unwrap().into_inner()
    }

    fn body(paragraphs: &str) -> String {
        format!("<w:document {W}><w:body>{paragraphs}</w:body></w:document>")
    }

    #[test]
    fn tab_stops_are_not_tabs_and_fields_show_their_result() {
        let xml = body(
            r#"<w:p><w:pPr><w:tabs><w:tab w:val="left" w:pos="720"/></w:tabs></w:pPr>
               <w:r><w:t>Turnout</w:t><w:tab/><w:t xml:space="preserve">rose &amp; fell</w:t></w:r>
               <w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> PAGE </w:instrText></w:r>
               <w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t> (page 4).</w:t></w:r>
               <w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>"#,
        );
        let document = &documents_from_file("a.docx", &docx(&[("word/document.xml", &xml)])).unwrap()[0];
        assert_eq!(document.text, "Turnout rose & fell (page 4).");
    }

    #[test]
    fn a_localized_heading_style_gives_the_title() {
        let styles = format!(
            r#"<w:styles {W}><w:style w:styleId="berschrift1"><w:name w:val="heading 1"/></w:style></w:styles>"#
        );
        let xml = body(
            r#"<w:p><w:pPr><w:pStyle w:val="berschrift1"/></w:pPr><w:r><w:t>Neue Brücke eröffnet</w:t></w:r></w:p>
               <w:p><w:r><w:t>Die Brücke ist offen.</w:t></w:r></w:p>"#,
        );
        let file = docx(&[("word/document.xml", &xml), ("word/styles.xml", &styles)]);
        let document = &documents_from_file("a.docx", &file).unwrap()[0];
        assert_eq!(document.title.as_deref(), Some("Neue Brücke eröffnet"));
        assert_eq!(document.text, "Die Brücke ist offen.");
    }

    #[test]
    fn a_zip_bomb_is_refused_by_what_it_unpacks_to() {
        let xml = body(&format!("<w:p><w:r><w:t>{}</w:t></w:r></w:p>", " ".repeat(crate::limits::MAX_UNPACKED_BYTES)));
        let file = docx(&[("word/document.xml", &xml)]);
        assert!(file.len() < 200_000, "{} bytes", file.len());
        let error = documents_from_file("bomb.docx", &file).unwrap_err();
        let limit = DocumentLimit::UnpackedSize;
        assert_eq!(error, InputError::DocumentTooLarge { format: DocumentFormat::Docx, limit });
        assert_eq!(
            error.to_string(),
            "this Word document unpacks to more than 50 MB, more than Précis reads at once: \
             split it into smaller files"
        );
    }

    #[test]
    fn broken_xml_or_a_missing_body_is_a_damaged_file() {
        let damaged = Err(InputError::Damaged { format: DocumentFormat::Docx });
        let broken = docx(&[("word/document.xml", "<w:document><w:body><w:p></w:body>")]);
        assert_eq!(documents_from_file("a.docx", &broken), damaged);
        let no_body = docx(&[("word/document.xml.bak", "x"), ("word/document.xml", "")]);
        assert_eq!(documents_from_file("a.docx", &no_body), Err(InputError::Empty));
        let renamed = docx(&[("word/other.xml", "<x/>")]);
        assert_eq!(documents_from_file("a.docx", &renamed), damaged);
    }
}
