//! PDF: lopdf parses the file and decrypts it when the user password is
//! empty; pdf-extract interprets the pages' drawing operators and decodes
//! the fonts, handing each glyph with its position to `GlyphCollector`;
//! `layout` makes text of the glyphs.
//!
//! Before pdf-extract runs, the document is mended where pdf-extract 0.12
//! goes wrong (`prepare`): it misreads the `first last width` form of CID
//! font widths (Chromium writes it), which shifts every glyph after a
//! space; it interprets image data as drawing operators; and it follows
//! form XObjects and /Parent links without a limit, so a loop in either
//! would recurse for ever, which no `catch_unwind` can stop.

use super::layout::{self, Glyph, Page, PageLines};
use super::{pdf_operators, Extracted};
use crate::input::{DocumentFormat, DocumentLimit, InputError};
use crate::limits::{MAX_DOCUMENT_GLYPHS, MAX_DOCUMENT_PAGES, MAX_PDF_PAGE_OPERATIONS, MAX_PDF_UNPACKED_BYTES};
use crate::text::collapse_whitespace;
use pdf_extract::{Dictionary, Document as Pdf, MediaBox, Object, ObjectId, OutputDev, OutputError, Stream, Transform};
use std::collections::{HashMap, HashSet};
use std::panic::{catch_unwind, AssertUnwindSafe};

const DAMAGED: InputError = InputError::Damaged { format: DocumentFormat::Pdf };

/// How much of a PDF is read at most.
#[derive(Clone, Copy, Debug)]
struct Limits {
    pages: usize,
    glyphs: usize,
    unpacked: usize,
}

const LIMITS: Limits =
    Limits { pages: MAX_DOCUMENT_PAGES, glyphs: MAX_DOCUMENT_GLYPHS, unpacked: MAX_PDF_UNPACKED_BYTES };

/// The text of a PDF.
pub(super) fn read(bytes: &[u8]) -> Result<Extracted, InputError> {
    read_within(bytes, LIMITS)
}

fn read_within(bytes: &[u8], limits: Limits) -> Result<Extracted, InputError> {
    let mut pdf = load(bytes)?;
    let pages = pdf.page_iter().take(limits.pages + 1).count();
    if pages > limits.pages {
        return Err(too_large(DocumentLimit::Pages));
    }
    if pages == 0 {
        return Err(DAMAGED);
    }
    prepare(&mut pdf, limits.unpacked)?;
    let collector = collect_glyphs(&pdf, limits.glyphs)?;
    if collector.mapped == 0 {
        return Err(if collector.unmapped > 0 { InputError::TextNotExtractable } else { InputError::NoTextLayer });
    }
    if collector.unmapped > collector.mapped {
        return Err(InputError::TextNotExtractable);
    }
    let paragraphs = layout::paragraphs_of_lines(collector.pages);
    if paragraphs.is_empty() {
        return Err(InputError::NoTextLayer);
    }
    Ok(Extracted { title: info_title(&pdf), paragraphs, timestamp: None })
}

fn too_large(limit: DocumentLimit) -> InputError {
    InputError::DocumentTooLarge { format: DocumentFormat::Pdf, limit }
}

/// The parsed PDF, decrypted when it opens without a password.
fn load(bytes: &[u8]) -> Result<Pdf, InputError> {
    let password_protected = InputError::PasswordProtected { format: DocumentFormat::Pdf };
    match Pdf::load_mem(bytes) {
        // lopdf tries the empty password itself; when that fails it leaves
        // the /Encrypt entry and the objects undecrypted.
        Ok(pdf) if pdf.trailer.get(b"Encrypt").is_ok() => Err(password_protected),
        Ok(pdf) => Ok(pdf),
        Err(pdf_extract::Error::Decryption(_) | pdf_extract::Error::InvalidPassword) => Err(password_protected),
        Err(_) => Err(DAMAGED),
    }
}

// ---------------------------------------------------------------- mending

/// Most widths written out when mending CID fonts, in all: the ranges
/// could otherwise ask for billions. A font's two-byte codes name at most
/// 65,536 CIDs, so this is four whole fonts; each width costs ~120 bytes
/// live (1 << 20 of them let a 2 kB file hold 128 MB, tests/fuzz.rs).
const MAX_WIDTH_ENTRIES: usize = 1 << 18;
/// Deepest nesting of form XObjects accepted (real files nest a few).
const MAX_FORM_DEPTH: usize = 32;
/// Deepest page tree accepted (lopdf reads no deeper either).
const MAX_TREE_DEPTH: usize = 256;

/// Mends what pdf-extract would misread (see the module comment), and
/// inflates the streams within `unpacked` bytes.
fn prepare(pdf: &mut Pdf, unpacked: usize) -> Result<(), InputError> {
    if !page_trees_end(pdf) {
        return Err(DAMAGED);
    }
    blank_images(pdf);
    inflate_streams(pdf, unpacked)?;
    let drawn = keep_text_operators(pdf)?;
    check_drawing(pdf, &drawn)?;
    write_widths_one_by_one(pdf);
    Ok(())
}

/// Inflates every stream compressed with /FlateDecode alone, all within
/// `budget` bytes: lopdf would inflate them later without a limit, and a
/// stream of a few kilobytes can inflate to gigabytes. Streams it cannot
/// inflate are left for lopdf, which knows more ways to recover.
fn inflate_streams(pdf: &mut Pdf, mut budget: usize) -> Result<(), InputError> {
    use std::io::Read;
    for object in pdf.objects.values_mut() {
        let Object::Stream(stream) = object else { continue };
        let only_flate = stream.filters().is_ok_and(|filters| filters == [b"FlateDecode".as_slice()]);
        if !only_flate || stream.dict.has(b"DecodeParms") {
            continue;
        }
        let mut inflated = Vec::new();
        let decoder = flate2::read::ZlibDecoder::new(stream.content.as_slice());
        if decoder.take(budget as u64 + 1).read_to_end(&mut inflated).is_err() {
            continue;
        }
        budget = budget.checked_sub(inflated.len()).ok_or(too_large(DocumentLimit::UnpackedSize))?;
        stream.set_plain_content(inflated);
    }
    Ok(())
}

/// Empties image streams: pdf-extract would decode their pixels as
/// drawing operators (and its parser may assert on them).
fn blank_images(pdf: &mut Pdf) {
    for object in pdf.objects.values_mut() {
        if let Object::Stream(stream) = object {
            if stream.dict.get(b"Subtype").and_then(Object::as_name).is_ok_and(|name| name == b"Image") {
                stream.set_plain_content(Vec::new());
            }
        }
    }
}

/// Rewrites the `/W` arrays of CID fonts in the form `c [w1 w2 …]` only:
/// pdf-extract reads the other form, `c_first c_last w`, as no widths at
/// all, and then places every glyph after a space too far left.
fn write_widths_one_by_one(pdf: &mut Pdf) {
    let fonts: Vec<ObjectId> = pdf
        .objects
        .iter()
        .filter(|(_, object)| object.as_dict().is_ok_and(is_cid_font))
        .map(|(&id, _)| id)
        .collect();
    let mut budget = MAX_WIDTH_ENTRIES;
    for id in fonts {
        let Some(widths) = pdf.get_dictionary(id).ok().and_then(|font| font.get(b"W").ok()) else { continue };
        let Some(rewritten) = widths_one_by_one(pdf, widths, &mut budget) else { continue };
        if let Ok(font) = pdf.get_dictionary_mut(id) {
            font.set("W", Object::Array(rewritten));
        }
    }
}

fn is_cid_font(dict: &Dictionary) -> bool {
    let subtype = dict.get(b"Subtype").and_then(Object::as_name).unwrap_or_default();
    dict.has(b"W") && (subtype == b"CIDFontType0" || subtype == b"CIDFontType2")
}

/// `W` with each range written out; `None` when malformed or over budget
/// (then pdf-extract gets it as it is).
fn widths_one_by_one(pdf: &Pdf, widths: &Object, budget: &mut usize) -> Option<Vec<Object>> {
    let entries = deref(pdf, widths).as_array().ok()?;
    let number = |object: &Object| match deref(pdf, object) {
        Object::Integer(i) => Some(*i as f64),
        Object::Real(r) => Some(f64::from(*r)),
        _ => None,
    };
    let mut rewritten = Vec::new();
    let mut i = 0;
    while i < entries.len() {
        let first = number(&entries[i])? as i64;
        let (widths, used) = match deref(pdf, entries.get(i + 1)?) {
            Object::Array(widths) => (widths.iter().map(number).collect::<Option<Vec<f64>>>()?, 2),
            last => {
                let count = (number(last)? as i64).checked_sub(first)?.checked_add(1)?;
                let count = usize::try_from(count).ok().filter(|&c| c <= *budget)?;
                (vec![number(entries.get(i + 2)?)?; count], 3)
            }
        };
        *budget = budget.checked_sub(widths.len())?;
        rewritten.push(Object::Integer(first));
        rewritten.push(Object::Array(widths.into_iter().map(|w| Object::Real(w as f32)).collect()));
        i += used;
    }
    Some(rewritten)
}

fn deref<'a>(pdf: &'a Pdf, object: &'a Object) -> &'a Object {
    pdf.dereference(object).map_or(object, |(_, target)| target)
}

/// Whether every page reaches the root of the page tree: pdf-extract looks
/// for inherited entries up the /Parent links without a limit, so a loop
/// there would overflow the stack.
fn page_trees_end(pdf: &Pdf) -> bool {
    pdf.page_iter().all(|page| {
        let mut node = page;
        for _ in 0..MAX_TREE_DEPTH {
            match pdf.get_dictionary(node).and_then(|dict| dict.get(b"Parent")).and_then(Object::as_reference) {
                Ok(parent) => node = parent,
                Err(_) => return true,
            }
        }
        false
    })
}

/// What a content stream draws once cut down to its text operators.
#[derive(Clone, Copy, Default)]
struct Drawn {
    operations: usize,
    draws_xobjects: bool,
}

/// Cuts every page's content, and every form XObject a page can reach, down
/// to the operators that place text (`pdf_operators`). A page's streams are
/// read as one (an operation may span two) into a stream of its own, shared
/// by the pages that draw the same streams; the originals are then emptied,
/// so memory does not grow. A page over `MAX_PDF_PAGE_OPERATIONS` is refused
/// as soon as it is found.
fn keep_text_operators(pdf: &mut Pdf) -> Result<HashMap<ObjectId, Drawn>, InputError> {
    let mut drawn = HashMap::new();
    let pages: Vec<ObjectId> = pdf.page_iter().collect();
    let forms = reachable_forms(pdf, &pages);
    let mut reduced: HashMap<Vec<ObjectId>, ObjectId> = HashMap::new();
    for page in pages {
        let streams = pdf.get_page_contents(page);
        let contents = match reduced.get(&streams) {
            Some(&contents) => contents,
            None => {
                let kept = page_text_operators(pdf, page, &streams);
                if kept.operations > MAX_PDF_PAGE_OPERATIONS {
                    return Err(too_large(DocumentLimit::PageOperations));
                }
                let summary = Drawn { operations: kept.operations, draws_xobjects: kept.draws_xobjects };
                let contents = pdf.add_object(Stream::new(Dictionary::new(), kept.content));
                drawn.insert(contents, summary);
                reduced.insert(streams, contents);
                contents
            }
        };
        if let Ok(page) = pdf.get_dictionary_mut(page) {
            page.set("Contents", Object::Reference(contents));
        }
    }
    for stream in reduced.into_keys().flatten().filter(|id| !forms.contains(id)) {
        if let Ok(Object::Stream(stream)) = pdf.get_object_mut(stream) {
            stream.set_plain_content(Vec::new());
        }
    }
    for form in forms {
        let Ok(Object::Stream(stream)) = pdf.get_object_mut(form) else { continue };
        // Read as pdf-extract reads it: inflated when that works, else as it stands.
        let content = stream.decompressed_content().unwrap_or_else(|_| stream.content.clone());
        let kept = pdf_operators::text_operators(&content, MAX_PDF_PAGE_OPERATIONS);
        drawn.insert(form, Drawn { operations: kept.operations, draws_xobjects: kept.draws_xobjects });
        stream.set_plain_content(kept.content);
    }
    Ok(drawn)
}

/// The text operators of `page`, drawn by `streams`: one uncompressed
/// stream (the usual case once inflated) is read where it lies, others are
/// joined by lopdf as pdf-extract would read them.
fn page_text_operators(pdf: &Pdf, page: ObjectId, streams: &[ObjectId]) -> pdf_operators::TextOperators {
    if let [id] = streams {
        if let Ok(Object::Stream(stream)) = pdf.get_object(*id) {
            if stream.filters().is_err() {
                return pdf_operators::text_operators(&stream.content, MAX_PDF_PAGE_OPERATIONS);
            }
        }
    }
    pdf_operators::text_operators(&pdf.get_page_content(page).unwrap_or_default(), MAX_PDF_PAGE_OPERATIONS)
}

/// Every stream named as an XObject in the resources of `pages`, or of
/// the streams found so, whatever its /Subtype says: pdf-extract draws
/// whatever a `Do` names.
fn reachable_forms(pdf: &Pdf, pages: &[ObjectId]) -> HashSet<ObjectId> {
    let mut resources: Vec<&Dictionary> = pages.iter().filter_map(|&page| inherited(pdf, page, b"Resources")).collect();
    let mut forms = HashSet::new();
    while let Some(dict) = resources.pop() {
        let Some(xobjects) = dict.get(b"XObject").ok().and_then(|x| deref(pdf, x).as_dict().ok()) else { continue };
        for (_, value) in xobjects.iter() {
            let Ok(id) = value.as_reference() else { continue };
            let Ok(Object::Stream(stream)) = pdf.get_object(id) else { continue };
            if forms.insert(id) {
                resources.extend(stream.dict.get(b"Resources").ok().and_then(|r| deref(pdf, r).as_dict().ok()));
            }
        }
    }
    forms
}

/// Refuses a PDF whose forms draw themselves, directly or through others,
/// or nest deeper than `MAX_FORM_DEPTH` (pdf-extract would recurse until
/// the stack overflows: a self-drawing stream typed `/FoRm`, tests/fuzz.rs
/// pdf input 103,157), or whose page draws more than `MAX_PDF_PAGE_OPERATIONS`.
fn check_drawing(pdf: &Pdf, drawn: &HashMap<ObjectId, Drawn>) -> Result<(), InputError> {
    let mut costs = HashMap::new();
    for page in pdf.page_iter() {
        let Some(contents) = pdf.get_page_contents(page).first().and_then(|id| drawn.get(id)).copied() else { continue };
        let forms = if contents.draws_xobjects {
            let resources = inherited(pdf, page, b"Resources");
            forms_cost(pdf, resources, drawn, &mut Vec::new(), &mut costs).ok_or(DAMAGED)?
        } else {
            0
        };
        if contents.operations + forms > MAX_PDF_PAGE_OPERATIONS {
            return Err(too_large(DocumentLimit::PageOperations));
        }
    }
    Ok(())
}

/// A page's entry, or its nearest ancestor's (pages inherit resources).
fn inherited<'a>(pdf: &'a Pdf, page: ObjectId, key: &[u8]) -> Option<&'a Dictionary> {
    let mut node = pdf.get_dictionary(page).ok()?;
    for _ in 0..MAX_TREE_DEPTH {
        if let Ok(value) = node.get(key) {
            return deref(pdf, value).as_dict().ok();
        }
        let parent = node.get(b"Parent").and_then(Object::as_reference).ok()?;
        node = pdf.get_dictionary(parent).ok()?;
    }
    None
}

/// The most operations one form that `resources` offer holds while it is
/// drawn, with the forms it draws in turn (the costliest chain: a form's
/// operations stay in memory while its own forms are drawn); `None` when
/// one draws itself or they nest deeper than `MAX_FORM_DEPTH`. `path`
/// holds the forms being drawn, `costs` those measured before.
fn forms_cost(
    pdf: &Pdf,
    resources: Option<&Dictionary>,
    drawn: &HashMap<ObjectId, Drawn>,
    path: &mut Vec<ObjectId>,
    costs: &mut HashMap<ObjectId, usize>,
) -> Option<usize> {
    if path.len() > MAX_FORM_DEPTH {
        return None;
    }
    let Some(xobjects) = resources.and_then(|r| r.get(b"XObject").ok()).and_then(|x| deref(pdf, x).as_dict().ok())
    else {
        return Some(0);
    };
    let mut costliest = 0;
    for (_, value) in xobjects.iter() {
        let Ok(id) = value.as_reference() else { continue };
        let cost = match costs.get(&id) {
            Some(&cost) => cost,
            None if path.contains(&id) => return None,
            None => {
                let Ok(Object::Stream(form)) = pdf.get_object(id) else { continue };
                let own = drawn.get(&id).copied().unwrap_or_default();
                // A form that draws no XObject ends the chain, whatever it could reach.
                let below = if own.draws_xobjects {
                    let resources = form.dict.get(b"Resources").ok().and_then(|r| deref(pdf, r).as_dict().ok()).or(resources);
                    path.push(id);
                    let below = forms_cost(pdf, resources, drawn, path, costs)?;
                    path.pop();
                    below
                } else {
                    0
                };
                costs.insert(id, own.operations + below);
                own.operations + below
            }
        };
        costliest = costliest.max(cost);
    }
    Some(costliest)
}

// ---------------------------------------------------------------- glyphs

/// The glyphs of every page that pdf-extract can draw. The document is
/// drawn in one go; if pdf-extract panics on a page, page by page again,
/// leaving out the pages it cannot draw.
fn collect_glyphs(pdf: &Pdf, max_glyphs: usize) -> Result<GlyphCollector, InputError> {
    let mut collector = GlyphCollector::new(max_glyphs);
    match catch_unwind(AssertUnwindSafe(|| pdf_extract::output_doc(pdf, &mut collector))) {
        Ok(_) if collector.over_limit => Err(too_large(DocumentLimit::Characters)),
        Ok(Ok(())) => Ok(collector),
        Ok(Err(_)) | Err(_) => collect_page_by_page(pdf, max_glyphs),
    }
}

fn collect_page_by_page(pdf: &Pdf, max_glyphs: usize) -> Result<GlyphCollector, InputError> {
    let mut collector = GlyphCollector::new(max_glyphs);
    let numbers: Vec<u32> = pdf.get_pages().into_keys().collect();
    let mut drawn = 0;
    for number in numbers {
        let (pages, mapped, unmapped) = (collector.pages.len(), collector.mapped, collector.unmapped);
        match catch_unwind(AssertUnwindSafe(|| pdf_extract::output_doc_page(pdf, &mut collector, number))) {
            _ if collector.over_limit => return Err(too_large(DocumentLimit::Characters)),
            Ok(Ok(())) => drawn += 1,
            Ok(Err(_)) | Err(_) => {
                collector.pages.truncate(pages);
                collector.page = None;
                (collector.mapped, collector.unmapped) = (mapped, unmapped);
            }
        }
    }
    if drawn == 0 {
        return Err(DAMAGED);
    }
    Ok(collector)
}

/// Receives pdf-extract's glyphs, in page coordinates (points from the
/// top-left corner of the media box), and keeps each page as lines.
struct GlyphCollector {
    pages: Vec<PageLines>,
    page: Option<(MediaBox, Page)>,
    /// Glyphs with characters, and glyphs whose font gives none.
    mapped: usize,
    unmapped: usize,
    max_glyphs: usize,
    over_limit: bool,
}

impl GlyphCollector {
    fn new(max_glyphs: usize) -> Self {
        Self { pages: Vec::new(), page: None, mapped: 0, unmapped: 0, max_glyphs, over_limit: false }
    }
}

/// Ends pdf-extract's work early (its errors carry no reason of ours).
fn stop() -> OutputError {
    OutputError::FormatError(std::fmt::Error)
}

impl OutputDev for GlyphCollector {
    fn begin_page(&mut self, _: u32, media_box: &MediaBox, _: Option<(f64, f64, f64, f64)>) -> Result<(), OutputError> {
        self.page = Some((*media_box, Page { height: media_box.ury - media_box.lly, glyphs: Vec::new() }));
        Ok(())
    }

    fn end_page(&mut self) -> Result<(), OutputError> {
        if let Some((_, page)) = self.page.take() {
            self.pages.push(PageLines::of(self.pages.len(), &page));
        }
        Ok(())
    }

    fn output_character(
        &mut self,
        trm: &Transform,
        width: f64,
        _spacing: f64,
        font_size: f64,
        text: &str,
    ) -> Result<(), OutputError> {
        if self.mapped + self.unmapped >= self.max_glyphs {
            self.over_limit = true;
            return Err(stop());
        }
        let Some((media_box, page)) = self.page.as_mut() else { return Ok(()) };
        let text: String = text.chars().filter(|&c| is_printable(c)).collect();
        if text.is_empty() {
            self.unmapped += 1;
            return Ok(());
        }
        self.mapped += 1;
        let (scale_x, scale_y) = (font_size * trm.m11, font_size * trm.m22);
        let (skew_x, skew_y) = (font_size * trm.m12, font_size * trm.m21);
        // Rotated or mirrored text (a watermark, a label along an axis) is
        // not in the lines of the page.
        let upright =
            scale_x > 0.0 && scale_y > 0.0 && skew_x.abs() <= 0.05 * scale_x && skew_y.abs() <= 0.05 * scale_y;
        if upright {
            page.glyphs.push(Glyph {
                text,
                x: trm.m31 - media_box.llx,
                baseline: media_box.ury - trm.m32,
                width: width * scale_x,
                size: scale_y,
            });
        }
        Ok(())
    }

    fn begin_word(&mut self) -> Result<(), OutputError> {
        Ok(())
    }

    fn end_word(&mut self) -> Result<(), OutputError> {
        Ok(())
    }

    fn end_line(&mut self) -> Result<(), OutputError> {
        Ok(())
    }
}

/// Characters a font can really mean: not controls, private-use code
/// points (a font without a character map) or U+FFFD.
fn is_printable(c: char) -> bool {
    !c.is_control() && !matches!(c, '\u{E000}'..='\u{F8FF}' | '\u{FFFD}' | '\u{F0000}'..)
}

// ---------------------------------------------------------------- metadata

/// The document information's title.
fn info_title(pdf: &Pdf) -> Option<String> {
    let info = deref(pdf, pdf.trailer.get(b"Info").ok()?).as_dict().ok()?;
    let title = deref(pdf, info.get(b"Title").ok()?).as_str().ok()?;
    let title = text_string(title);
    let title = collapse_whitespace(&title);
    (!title.is_empty()).then_some(title)
}

/// A PDF text string: UTF-16BE or UTF-8 after a byte-order mark, else
/// PDFDocEncoding (Latin-1 with typographic marks in 0x80-0x9F).
fn text_string(bytes: &[u8]) -> String {
    if let Some(utf16) = bytes.strip_prefix(b"\xFE\xFF") {
        let units = utf16.chunks_exact(2).map(|pair| u16::from_be_bytes([pair[0], pair[1]]));
        return char::decode_utf16(units).map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER)).collect();
    }
    if let Some(utf8) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        return String::from_utf8_lossy(utf8).into_owned();
    }
    const HIGH: [char; 33] = [
        '•', '†', '‡', '…', '—', '–', 'ƒ', '⁄', '‹', '›', '−', '‰', '„', '“', '”', '‘', '’',
        '‚', '™', 'ﬁ', 'ﬂ', 'Ł', 'Œ', 'Š', 'Ÿ', 'Ž', 'ı', 'ł', 'œ', 'š', 'ž', '\u{FFFD}', '€',
    ];
    let char_of = |b: u8| if (0x80..=0xA0).contains(&b) { HIGH[usize::from(b - 0x80)] } else { char::from(b) };
    bytes.iter().map(|&b| char_of(b)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use pdf_extract::{Stream, StringFormat};

    /// A PDF whose pages draw `contents` with Helvetica as /F1 (a standard
    /// font: no file needed); `extend` adds to the page resources.
    fn pdf_of(contents: &[&str], extend: impl FnOnce(&mut Pdf, &mut Dictionary)) -> Vec<u8> {
        let mut pdf = Pdf::with_version("1.5");
        let pages_id = pdf.new_object_id();
        let mut font = Dictionary::new();
        font.set("Type", Object::Name(b"Font".to_vec()));
        font.set("Subtype", Object::Name(b"Type1".to_vec()));
        font.set("BaseFont", Object::Name(b"Helvetica".to_vec()));
        let font_id = pdf.add_object(font);
        let mut fonts = Dictionary::new();
        fonts.set("F1", Object::Reference(font_id));
        let mut resources = Dictionary::new();
        resources.set("Font", Object::Dictionary(fonts));
        extend(&mut pdf, &mut resources);
        let kids: Vec<Object> = contents
            .iter()
            .map(|content| {
                let stream_id = pdf.add_object(Stream::new(Dictionary::new(), content.as_bytes().to_vec()));
                let mut page = Dictionary::new();
                page.set("Type", Object::Name(b"Page".to_vec()));
                page.set("Parent", Object::Reference(pages_id));
                page.set("Contents", Object::Reference(stream_id));
                Object::Reference(pdf.add_object(page))
            })
            .collect();
        let mut pages = Dictionary::new();
        pages.set("Type", Object::Name(b"Pages".to_vec()));
        pages.set("Count", Object::Integer(kids.len() as i64));
        pages.set("Kids", Object::Array(kids));
        pages.set("Resources", Object::Dictionary(resources));
        pages.set("MediaBox", Object::Array([0, 0, 595, 842].map(Object::Integer).to_vec()));
        pdf.objects.insert(pages_id, Object::Dictionary(pages));
        let mut catalog = Dictionary::new();
        catalog.set("Type", Object::Name(b"Catalog".to_vec()));
        catalog.set("Pages", Object::Reference(pages_id));
        let catalog_id = pdf.add_object(catalog);
        pdf.trailer.set("Root", Object::Reference(catalog_id));
        let mut bytes = Vec::new();
        pdf.save_to(&mut bytes).unwrap();
        bytes
    }

    fn text(content: &str) -> String {
        format!("BT /F1 12 Tf 72 700 Td ({content}) Tj ET")
    }

    #[test]
    fn a_hand_made_pdf_is_read_with_its_info_title() {
        let bytes = pdf_of(&[&text("Rain fell all night.")], |pdf, _| {
            let mut info = Dictionary::new();
            let title: Vec<u8> = [0xFE, 0xFF].into_iter().chain("Séisme".encode_utf16().flat_map(u16::to_be_bytes)).collect();
            info.set("Title", Object::String(title, StringFormat::Hexadecimal));
            let info_id = pdf.add_object(info);
            pdf.trailer.set("Info", Object::Reference(info_id));
        });
        let extracted = read(&bytes).unwrap();
        assert_eq!(extracted.paragraphs, ["Rain fell all night."]);
        assert_eq!(extracted.title.as_deref(), Some("Séisme"));
    }

    #[test]
    fn pages_and_glyphs_over_the_limits_are_refused() {
        let bytes = pdf_of(&[&text("One."), &text("Two."), &text("Three.")], |_, _| {});
        let limits = Limits { pages: 3, glyphs: 14, unpacked: 1000 };
        let pages = read_within(&bytes, Limits { pages: 2, ..limits }).unwrap_err();
        assert_eq!(pages, too_large(DocumentLimit::Pages));
        let glyphs = read_within(&bytes, Limits { glyphs: 10, ..limits }).unwrap_err();
        assert_eq!(glyphs, too_large(DocumentLimit::Characters));
        assert_eq!(read_within(&bytes, limits).unwrap().paragraphs, ["One.", "Two.", "Three."]);
    }

    #[test]
    fn a_stream_that_inflates_past_the_limit_is_refused() {
        use flate2::{write::ZlibEncoder, Compression};
        use std::io::Write;
        let page = format!("{}{}", text("Compressed page."), " ".repeat(200_000));
        let mut encoder = ZlibEncoder::new(Vec::new(), Compression::best());
        encoder.write_all(page.as_bytes()).unwrap();
        let compressed = encoder.finish().unwrap();
        let mut pdf = load(&pdf_of(&[&text("Plain page.")], |_, _| {})).unwrap();
        let stream_id = pdf.objects.iter().find(|(_, o)| o.as_stream().is_ok()).map(|(&id, _)| id).unwrap();
        let mut dict = Dictionary::new();
        dict.set("Filter", Object::Name(b"FlateDecode".to_vec()));
        pdf.objects.insert(stream_id, Object::Stream(Stream::new(dict, compressed)));
        let mut bytes = Vec::new();
        pdf.save_to(&mut bytes).unwrap();
        let limits = Limits { pages: 10, glyphs: 1000, unpacked: 100_000 };
        assert_eq!(read_within(&bytes, limits), Err(too_large(DocumentLimit::UnpackedSize)));
        let roomy = Limits { unpacked: 300_000, ..limits };
        assert_eq!(read_within(&bytes, roomy).unwrap().paragraphs, ["Compressed page."]);
    }

    #[test]
    fn a_form_that_draws_itself_is_damaged_not_a_stack_overflow() {
        // pdf-extract draws what `Do` names whatever its subtype says.
        for subtype in ["Form", "FoRm", "PS"] {
            assert_eq!(read(&self_drawing_form(subtype)), Err(DAMAGED), "{subtype}");
        }
    }

    fn self_drawing_form(subtype: &str) -> Vec<u8> {
        pdf_of(&["/X1 Do"], |pdf, resources| {
            let form_id = pdf.new_object_id();
            let mut xobjects = Dictionary::new();
            xobjects.set("X1", Object::Reference(form_id));
            let mut form_resources = Dictionary::new();
            form_resources.set("XObject", Object::Dictionary(xobjects.clone()));
            let mut form = Dictionary::new();
            form.set("Type", Object::Name(b"XObject".to_vec()));
            form.set("Subtype", Object::Name(subtype.as_bytes().to_vec()));
            form.set("Resources", Object::Dictionary(form_resources));
            pdf.objects.insert(form_id, Object::Stream(Stream::new(form, b"/X1 Do".to_vec())));
            resources.set("XObject", Object::Dictionary(xobjects));
        })
    }

    #[test]
    fn a_page_tree_that_loops_is_damaged_not_a_stack_overflow() {
        let mut pdf = load(&pdf_of(&[&text("Looping.")], |_, _| {})).unwrap();
        let pages_id = pdf.catalog().unwrap().get(b"Pages").unwrap().as_reference().unwrap();
        // The page tree's root names itself as its parent, and no longer
        // holds the media box that its page inherits.
        let root = pdf.get_dictionary_mut(pages_id).unwrap();
        root.set("Parent", Object::Reference(pages_id));
        root.remove(b"MediaBox");
        let mut bytes = Vec::new();
        pdf.save_to(&mut bytes).unwrap();
        assert_eq!(read(&bytes), Err(DAMAGED));
    }

    #[test]
    fn rotated_text_is_left_out() {
        let page = format!("BT /F1 30 Tf 0 1 -1 0 300 200 Tm (DRAFT DRAFT) Tj ET {}", text("The body."));
        assert_eq!(read(&pdf_of(&[&page], |_, _| {})).unwrap().paragraphs, ["The body."]);
    }

    #[test]
    fn a_page_of_images_only_has_no_text_layer() {
        let bytes = pdf_of(&["q 100 0 0 100 0 0 cm /Im1 Do Q"], |pdf, resources| {
            let mut image = Dictionary::new();
            image.set("Type", Object::Name(b"XObject".to_vec()));
            image.set("Subtype", Object::Name(b"Image".to_vec()));
            image.set("Width", Object::Integer(2));
            image.set("Height", Object::Integer(2));
            image.set("ColorSpace", Object::Name(b"DeviceGray".to_vec()));
            image.set("BitsPerComponent", Object::Integer(8));
            // Pixels that read as drawing operators would draw text.
            let image_id = pdf.add_object(Stream::new(image, b"BT /F1 12 Tf (pixels) Tj ET".to_vec()));
            let mut xobjects = Dictionary::new();
            xobjects.set("Im1", Object::Reference(image_id));
            resources.set("XObject", Object::Dictionary(xobjects));
        });
        assert_eq!(read(&bytes), Err(InputError::NoTextLayer));
    }

    #[test]
    fn text_strings_in_every_encoding() {
        assert_eq!(text_string(b"\xFE\xFF\x00Q\x00u\x00a\x00k\x00e"), "Quake");
        assert_eq!(text_string("\u{FEFF}Séisme".as_bytes()), "Séisme");
        assert_eq!(text_string(b"Caf\xE9 \x8Dquoted\x8E \x84 done \xA0"), "Café “quoted” — done €");
    }

    #[test]
    fn width_ranges_are_written_out() {
        let pdf = Pdf::new();
        let w = Object::Array(vec![
            Object::Integer(3),
            Object::Integer(5),
            Object::Real(317.5),
            Object::Integer(16),
            Object::Array(vec![Object::Integer(600), Object::Integer(700)]),
        ]);
        let rewritten = widths_one_by_one(&pdf, &w, &mut 100).unwrap();
        let expected = vec![
            Object::Integer(3),
            Object::Array(vec![Object::Real(317.5); 3]),
            Object::Integer(16),
            Object::Array(vec![Object::Real(600.0), Object::Real(700.0)]),
        ];
        assert_eq!(format!("{rewritten:?}"), format!("{expected:?}"));
        let huge = Object::Array(vec![Object::Integer(0), Object::Integer(i64::MAX), Object::Integer(1)]);
        assert!(widths_one_by_one(&pdf, &huge, &mut MAX_WIDTH_ENTRIES.clone()).is_none());
        let truncated = Object::Array(vec![Object::Integer(0), Object::Integer(5)]);
        assert!(widths_one_by_one(&pdf, &truncated, &mut 100).is_none());
    }

    #[test]
    fn a_width_range_beyond_what_a_font_can_name_is_left_as_it_is() {
        // Found by tests/fuzz.rs: `/W [0 1000000 500]` in a 2 kB file.
        let pdf = Pdf::new();
        let range = |last| Object::Array(vec![Object::Integer(0), Object::Integer(last), Object::Integer(500)]);
        assert!(widths_one_by_one(&pdf, &range(1_000_000), &mut MAX_WIDTH_ENTRIES.clone()).is_none());
        let whole_font = widths_one_by_one(&pdf, &range(65_535), &mut MAX_WIDTH_ENTRIES.clone()).unwrap();
        assert_eq!(whole_font[1].as_array().unwrap().len(), 65_536);
    }
}
