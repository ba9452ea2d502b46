//! `precis segment` and `precis summarize` on PDF and Word files: the
//! fixtures of tests/fixtures/documents/make.py (see tests/documents.rs),
//! in $PRECIS_DOCUMENT_FIXTURES or target/document-fixtures.

#[path = "support/cli.rs"]
mod cli;

use cli::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn document(name: &str) -> PathBuf {
    let dir = std::env::var_os("PRECIS_DOCUMENT_FIXTURES")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("target/document-fixtures"));
    let path = dir.join(name);
    assert!(
        path.exists(),
        "{} is missing: generate the document fixtures first with python3 tests/fixtures/documents/make.py \
         (scripts/test.sh does)",
        path.display()
    );
    path
}

fn arg(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn segment_splits_a_pdf_into_its_sentences() {
    let pdf = document("two-columns.pdf");
    let lines: Vec<Value> = succeed(["segment", arg(&pdf)]).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let texts: Vec<&str> = lines.iter().map(|l| l["text"].as_str().unwrap()).collect();
    assert_eq!(texts.len(), 12, "{texts:?}");
    assert_eq!(
        texts[0],
        "The old harbour bridge in Port Alder reopened to traffic on Saturday morning after two years of repairs \
         that cost the city more than forty million dollars."
    );
    // The right column's first sentence follows the left column's last.
    assert_eq!(texts[5], "She thanked the crews who worked through two winters on the exposed span above the harbour.");
    assert!(texts[6].starts_with("Local shop owners on both sides of the harbour"), "{}", texts[6]);
    assert!(lines.iter().all(|l| l["lang"] == "en" && l["doc"] == 0));
}

#[test]
fn summarize_reads_a_pdf_and_a_word_document_together() {
    let (pdf, docx) = (document("multi-page.pdf"), document("council.docx"));
    let json: Value =
        serde_json::from_str(&succeed(["summarize", "--budget", "60", "--format", "json", arg(&pdf), arg(&docx)]))
            .unwrap();
    let summary = json["summary"].as_array().unwrap();
    assert!(!summary.is_empty());
    let words: u64 = summary.iter().map(|s| s["words"].as_u64().unwrap()).sum();
    assert!(words <= 60, "{words} words");
    // Every summary sentence is a sentence of one of the two files.
    let sentences = succeed(["segment", arg(&pdf), arg(&docx)]);
    for sentence in summary {
        let text = sentence["text"].as_str().unwrap();
        assert!(sentences.contains(&serde_json::to_string(text).unwrap()), "{text} is in neither file");
    }
}

#[test]
fn a_scanned_pdf_fails_with_what_to_do() {
    let message = fail(["segment", arg(&document("scanned.pdf"))]);
    let advice = "scanned.pdf: this PDF has no text layer — it looks scanned: run OCR on it first";
    assert!(message.contains(advice), "{message}");
    let message = fail(["summarize", arg(&document("password.pdf"))]);
    assert!(message.contains("password.pdf: this PDF is password-protected"), "{message}");
}

#[test]
fn one_bad_document_among_good_ones_fails_the_run_as_a_bad_text_file_does() {
    let (good, scanned, old) = (document("council.odt"), document("scanned.pdf"), document("old-word.doc"));
    // segment names every file it cannot read, prints nothing, and fails.
    let output = precis(["segment", arg(&good), arg(&scanned), arg(&old)]);
    let message = stderr_of_failure(&output);
    assert!(output.stdout.is_empty());
    assert!(message.contains("scanned.pdf: this PDF has no text layer"), "{message}");
    assert!(message.contains("old-word.doc: this is an old Word document (.doc)"), "{message}");
    assert!(message.contains("2 of 3 files could not be read"), "{message}");
    assert!(!message.contains("council.odt"), "{message}");
    // summarize stops at the first file it cannot read, naming it.
    let message = fail(["summarize", arg(&good), arg(&scanned)]);
    assert!(message.contains("scanned.pdf: this PDF has no text layer"), "{message}");
}
