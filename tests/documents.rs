//! The PDF, Word and OpenDocument readers on real files: the fixtures that
//! tests/fixtures/documents/make.py writes (PDFs printed by Chromium from
//! the HTML pages beside it, Word files from python-docx and by hand).
//! scripts/test.sh runs the script first; the files are looked for in
//! $PRECIS_DOCUMENT_FIXTURES, else target/document-fixtures.
//!
//! The expected text is the HTML pages' paragraphs, read here from the
//! pages themselves.

use precis::document::{Cluster, Document};
use precis::input::{document_format, documents_from_file, DocumentFormat, InputError};
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

fn fixtures_dir() -> PathBuf {
    std::env::var_os("PRECIS_DOCUMENT_FIXTURES")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/document-fixtures"))
}

fn fixture_bytes(name: &str) -> Vec<u8> {
    let path = fixtures_dir().join(name);
    std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}. Generate the document fixtures first: python3 tests/fixtures/documents/make.py \
             (scripts/test.sh does), or set PRECIS_DOCUMENT_FIXTURES to where they are",
            path.display()
        )
    })
}

fn read(name: &str) -> Result<Vec<Document>, InputError> {
    documents_from_file(name, &fixture_bytes(name))
}

fn read_one(name: &str) -> Document {
    let mut documents = read(name).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(documents.len(), 1, "{name}: one document per file");
    documents.remove(0)
}

/// The paragraphs of a fixture page (`<p class="…">` whose class starts
/// with `class`, or every `<p>` for ""), as text: tags removed, a line
/// break after a hyphen closed up, soft hyphens gone, spaces single.
fn html_paragraphs(page: &str, class: &str) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/documents").join(page);
    let html = std::fs::read_to_string(path).unwrap();
    html.split("<p")
        .skip(1)
        .filter(|p| class.is_empty() || p.starts_with(&format!(" class=\"{class}")))
        .map(|p| {
            let inner = &p[p.find('>').unwrap() + 1..p.find("</p>").unwrap()];
            let inner = inner.replace("-<br>", "-").replace("&shy;", "");
            let mut text = String::new();
            let mut in_tag = false;
            for c in inner.chars() {
                match c {
                    '<' => in_tag = true,
                    '>' => in_tag = false,
                    c if !in_tag => text.push(c),
                    _ => {}
                }
            }
            text.split_whitespace().collect::<Vec<_>>().join(" ")
        })
        .collect()
}

fn html_title(page: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/documents").join(page);
    let html = std::fs::read_to_string(path).unwrap();
    html.split("<title>").nth(1).unwrap().split("</title>").next().unwrap().to_string()
}

fn paragraphs_of(document: &Document) -> Vec<&str> {
    document.text.split("\n\n").collect()
}

#[test]
fn two_columns_are_read_left_then_right_under_the_title() {
    let document = read_one("two-columns.pdf");
    assert_eq!(document.id, "two-columns.pdf");
    assert_eq!(document.title.as_deref(), Some("Harbour bridge reopens after two years of repairs"));
    let (left, right) = (html_paragraphs("two-columns.html", "left"), html_paragraphs("two-columns.html", "right"));
    assert_eq!((left.len(), right.len()), (3, 3));
    let expected: Vec<&str> = left.iter().chain(&right).map(String::as_str).collect();
    assert_eq!(paragraphs_of(&document), expected);
    // In so many words: every sentence of the left column before any of the right.
    let last_left = left.iter().flat_map(|p| p.split(". ")).map(|s| document.text.find(s).unwrap()).max();
    let first_right = right.iter().flat_map(|p| p.split(". ")).map(|s| document.text.find(s).unwrap()).min();
    assert!(last_left < first_right);
}

#[test]
fn headers_footers_and_page_numbers_go_and_page_breaks_close_up() {
    let document = read_one("multi-page.pdf");
    assert_eq!(document.title.as_deref(), Some(html_title("multi-page.html").as_str()));
    // Equal to the article: nothing of Chromium's header (date, title) or
    // footer (file URL, "1/3"), and the paragraph that runs over a page
    // break (make.py checks there is one) in one piece.
    assert_eq!(paragraphs_of(&document), html_paragraphs("multi-page.html", ""));
    for furniture in ["file://", "/3", "PM"] {
        assert!(!document.text.contains(furniture), "{furniture} left in: {}", document.text);
    }
}

#[test]
fn words_hyphenated_at_line_ends_are_whole_again() {
    let document = read_one("hyphenation.pdf");
    assert_eq!(document.title.as_deref(), Some("Library opens its archive to researchers"));
    assert_eq!(paragraphs_of(&document), html_paragraphs("hyphenation.html", ""));
    assert!(!document.text.contains(['\u{AD}', '\u{2010}']), "{}", document.text);
    let hyphenated: Vec<&str> = document.text.split_whitespace().filter(|w| w.contains('-')).collect();
    assert_eq!(hyphenated, ["well-known", "well-known", "Franco-German"]);
}

#[test]
fn ligatures_are_spelled_out() {
    let document = read_one("ligatures.pdf");
    assert_eq!(document.title.as_deref(), Some("Finance ministers agree on flight tax"));
    let spelled_out = |text: &str| {
        [("ﬁ", "fi"), ("ﬂ", "fl"), ("ﬀ", "ff"), ("ﬃ", "ffi"), ("ﬄ", "ffl")]
            .iter()
            .fold(text.to_string(), |text, (ligature, letters)| text.replace(ligature, letters))
    };
    let expected: Vec<String> = html_paragraphs("ligatures.html", "").iter().map(|p| spelled_out(p)).collect();
    assert_eq!(paragraphs_of(&document), expected);
    for word in ["finance", "flight", "Officials", "efficient", "baffled", "figures", "effect"] {
        assert!(document.text.contains(word), "{word}");
    }
}

#[test]
fn chinese_is_read_without_spaces_and_detected_as_chinese() {
    let document = read_one("cjk.pdf");
    assert_eq!(document.title.as_deref(), Some("城市公园扩建工程正式开工"));
    assert_eq!(paragraphs_of(&document), html_paragraphs("cjk.html", ""));
    assert!(!document.text.contains(' '), "{}", document.text);
    let cluster = Cluster::new(vec![document]);
    assert!(cluster.sentences.len() >= 5);
    assert!(cluster.sentences.iter().all(|s| s.lang == "zh"), "{:?}", cluster.sentences);
}

#[test]
fn a_pdf_with_an_empty_user_password_is_read() {
    assert_eq!(read_one("empty-password.pdf").text, read_one("two-columns.pdf").text);
}

#[test]
fn unreadable_pdfs_say_what_to_do() {
    let cases = [
        ("scanned.pdf", InputError::NoTextLayer, "no text layer — it looks scanned: run OCR on it first"),
        ("password.pdf", InputError::PasswordProtected { format: DocumentFormat::Pdf }, "an unprotected copy"),
        ("truncated.pdf", InputError::Damaged { format: DocumentFormat::Pdf }, "damaged or not a complete .pdf file"),
        ("old-word.doc", InputError::OldWordDocument, "save it as .docx or PDF"),
    ];
    for (name, expected, words) in cases {
        let error = read(name).unwrap_err();
        assert_eq!(error, expected, "{name}");
        assert!(error.to_string().contains(words), "{name}: {error}");
    }
}

/// The paragraphs of council.docx and council.odt: a heading, a link's text,
/// a tab as a space, a line break kept, table cells one by one.
fn council_paragraphs(table: &[&'static str]) -> Vec<&'static str> {
    let mut paragraphs = vec![
        "The city council approved a new park along the river on Tuesday evening, after a debate that lasted \
         more than four hours.",
        "Funding",
        "The park will cost twelve million, according to the published plan.",
        "Work starts in May. Planting follows in the autumn.\nThe first paths open next summer.",
    ];
    paragraphs.extend(table);
    paragraphs.push("Residents can comment on the plan until the end of the month.");
    paragraphs
}

#[test]
fn a_word_document_reads_as_its_body_with_title_and_date() {
    let document = read_one("council.docx");
    assert_eq!(document.title.as_deref(), Some("Council approves new river park"));
    assert_eq!(document.timestamp, precis::input::parse_iso8601("2024-03-05T09:30:00Z"));
    let table = ["Costs by year", "Year", "Cost", "First year", "Seven million", "Second year", "Five million"];
    assert_eq!(paragraphs_of(&document), council_paragraphs(&table));
    for absent in ["delayed again", "Riverside Gazette", "footer"] {
        assert!(!document.text.contains(absent), "{absent}");
    }
}

#[test]
fn an_opendocument_text_reads_the_same_way() {
    let document = read_one("council.odt");
    assert_eq!(document.title.as_deref(), Some("Council approves new river park"));
    assert_eq!(document.timestamp, precis::input::parse_iso8601("2024-03-05T09:30:00Z"));
    let table = ["Year", "Cost", "First year", "Seven   million"];
    assert_eq!(paragraphs_of(&document), council_paragraphs(&table));
    for absent in ["delayed again", "Footnote"] {
        assert!(!document.text.contains(absent), "{absent}");
    }
}

#[test]
fn formats_are_known_by_their_bytes_whatever_the_name() {
    for (name, format) in [
        ("two-columns.pdf", Some(DocumentFormat::Pdf)),
        ("council.docx", Some(DocumentFormat::Docx)),
        ("council.odt", Some(DocumentFormat::Odt)),
        ("old-word.doc", None),
    ] {
        let bytes = fixture_bytes(name);
        assert_eq!(document_format(name, &bytes), format, "{name}");
        assert_eq!(document_format("upload", &bytes), format, "{name} without its extension");
    }
    let renamed = documents_from_file("article.txt", &fixture_bytes("council.docx")).unwrap();
    assert_eq!(renamed[0].title.as_deref(), Some("Council approves new river park"));
}

// ---------------------------------------------------------------- robustness

/// Every fixture that a reader accepts, by name.
static VALID: LazyLock<Vec<(&'static str, Vec<u8>)>> = LazyLock::new(|| {
    ["two-columns.pdf", "multi-page.pdf", "cjk.pdf", "empty-password.pdf", "council.docx", "council.odt"]
        .into_iter()
        .map(|name| (name, fixture_bytes(name)))
        .collect()
});

/// Documents with text, or an error: nothing else, and never a panic.
fn check_outcome(result: Result<Vec<Document>, InputError>) -> Result<(), TestCaseError> {
    if let Ok(documents) = result {
        prop_assert!(!documents.is_empty());
        prop_assert!(documents.iter().all(|d| !d.text.trim().is_empty()));
    }
    Ok(())
}

/// 256 cases unless $PROPTEST_CASES says more (a longer hunt for panics).
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|cases| cases.parse().ok()).unwrap_or(256)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn damaged_fixtures_give_documents_or_an_error(
        fixture in 0..6usize,
        flips in proptest::collection::vec((0.0..1.0f64, any::<u8>()), 0..12),
        // Half the cases whole (flips only), half cut short too.
        keep in prop_oneof![Just(1.0f64), 0.05..1.0f64],
    ) {
        let (name, bytes) = &VALID[fixture];
        let mut bytes = bytes.clone();
        for (at, byte) in flips {
            let index = ((bytes.len() - 1) as f64 * at) as usize;
            bytes[index] = byte;
        }
        bytes.truncate(((bytes.len() as f64) * keep) as usize);
        check_outcome(documents_from_file(name, &bytes))?;
    }

    #[test]
    fn arbitrary_bytes_after_a_document_header_give_documents_or_an_error(
        header in proptest::sample::select(vec![
            &b"%PDF-1.7\n"[..], b"PK\x03\x04", b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1",
        ]),
        body in proptest::collection::vec(any::<u8>(), 0..2000),
        name in proptest::sample::select(vec!["a.pdf", "a.docx", "a.odt", "a.doc", "a"]),
    ) {
        let bytes: Vec<u8> = header.iter().chain(&body).copied().collect();
        check_outcome(documents_from_file(name, &bytes))?;
    }
}
