//! The prose filter on the labelled news pages of 16 languages
//! (`tests/fixtures/furniture/pages/`, no dataset needed), as summaries run
//! it (the rules, then the prose reader): on each language's test split,
//! prose lost and junk caught must hold at the levels reached (issue 42,
//! docs/results/furniture.md); and a plain article in any language gets a
//! summary.

use precis::document::{Cluster, Document};
use precis::eval::furniture_pages::{judge_pages, read_page_files, scores, Page};
use precis::summarize::{mark_read_furniture, summarize, Settings, SummaryRequest};

const PAGES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/furniture/pages");
/// Pages in 33 languages outside the encoder's 16, written blind to the
/// rules: a check that no script loses its prose, as Chinese and Thai once
/// did. A labelled page in each (hi, he, el, vi, id, uk, fa, sw; then km,
/// lo, my, bo, si, ka, hy, am, bn, ta; then te, kn, ml, gu, pa, ur, ne, dv,
/// mn, kk; then or, mr, ps, ti, sr), and a plain article in each of the
/// last twenty-five (the Swahili page is one too).
const OTHER_LANGUAGE_PAGES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/furniture/other-languages/pages");

/// The targets on every language's test split, by line: prose lost
/// at most 2%, junk caught at least 85%. Every language holds them (Thai,
/// the last, since fresh pages written blind joined its split and the
/// seventh round's rules: 573 of 659 junk lines).
const MAX_PROSE_LOST: f64 = 0.02;
const MIN_JUNK_CAUGHT: f64 = 0.85;

fn pages_in(dir: &str) -> Vec<Page> {
    read_page_files(std::path::Path::new(dir)).unwrap()
}

/// Prose lost and junk caught per language and split, as summaries run the
/// filter (the rules, then the prose reader).
fn scores_of(pages: &[Page]) -> std::collections::BTreeMap<(String, String), precis::eval::furniture_pages::Score> {
    let encoder = precis::models::load_encoder(None).unwrap();
    let judged = judge_pages(pages, |cluster| mark_read_furniture(cluster, &encoder).map_err(|e| e.to_string())).unwrap();
    scores(pages, &judged)
}

#[test]
fn every_language_loses_little_prose_and_catches_most_junk() {
    let pages = pages_in(PAGES);
    let scores = scores_of(&pages);
    let languages: Vec<&String> = scores.keys().filter(|(_, split)| split == "test").map(|(lang, _)| lang).collect();
    assert_eq!(languages.len(), 16, "{languages:?}");
    let mut failures = vec![];
    for ((lang, split), score) in &scores {
        if split != "test" {
            continue;
        }
        if score.prose_lost() > MAX_PROSE_LOST || score.junk_caught() < MIN_JUNK_CAUGHT {
            failures.push(format!(
                "{lang}: prose lost {:.3} (at most {MAX_PROSE_LOST}), junk caught {:.3} (at least {MIN_JUNK_CAUGHT}): {score:?}",
                score.prose_lost(),
                score.junk_caught()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Any single article of three or more prose sentences, in any of the 16
/// languages, gives a summary: the plain pages (wire copy, no furniture),
/// each alone, language detected as for a paste.
#[test]
fn a_plain_article_in_every_language_gets_a_summary() {
    assert_eq!(plain_articles_summarized(PAGES).len(), 16);
}

/// The same beyond the 16: scripts that space phrases, not words (Khmer,
/// Lao, Myanmar, Tibetan), end sentences with their own marks (Armenian
/// `։`, Amharic `።`, Bengali `।`, Tibetan `།`) or have no capitals
/// (Georgian, Sinhala, Tamil), and the Latin pages of Swahili, Tagalog and
/// six European languages (cs hu ro sv fi ca), with Bulgarian's Cyrillic. A Khmer or a Lao
/// article alone once gave "No sentence could be selected".
#[test]
fn a_plain_article_beyond_the_sixteen_gets_a_summary() {
    let languages = plain_articles_summarized(OTHER_LANGUAGE_PAGES);
    let expected = [
        "am", "bg", "bn", "bo", "ca", "cs", "dv", "fi", "gu", "hu", "hy", "ka", "kk", "km", "kn", "lo", "ml", "mn", "mr", "my", "ne", "or", "pa", "ps", "ro", "si",
        "sr", "sv", "sw", "ta", "te", "ti", "tl", "ur",
    ];
    assert_eq!(languages, expected);
}

/// Summarizes each plain page of `dir` alone, checking it keeps three prose
/// sentences or more and gets a summary; returns the languages seen.
fn plain_articles_summarized(dir: &str) -> Vec<String> {
    let encoder = precis::models::load_encoder(None).unwrap();
    let settings = Settings::default();
    let mut languages = std::collections::BTreeSet::new();
    for page in pages_in(dir).iter().filter(|p| p.page == "plain") {
        let cluster = Cluster::new(vec![Document::new(page.id.clone(), page.text())]);
        let prose = cluster.sentences.iter().filter(|s| s.excluded.is_none()).count();
        assert!(prose >= 3, "{}: {prose} prose sentences of {}", page.id, cluster.sentences.len());
        let embeddings = encoder.encode(&cluster.texts()).unwrap();
        let summary = summarize(&SummaryRequest::new(&cluster, &embeddings, &settings)).unwrap();
        assert!(!summary.sentences.is_empty(), "{}: no summary ({:?})", page.id, summary.notes);
        languages.insert(page.lang.clone());
    }
    languages.into_iter().collect()
}

/// In languages the encoder was not built for, the filter keeps the prose
/// (at most 2 % of its lines lost in each), whatever the script.
#[test]
fn languages_beyond_the_sixteen_keep_their_prose() {
    let scores = scores_of(&pages_in(OTHER_LANGUAGE_PAGES));
    let tested: Vec<&str> = scores.keys().filter(|(_, split)| split == "test").map(|(lang, _)| lang.as_str()).collect();
    let expected = [
        "am", "bg", "bn", "bo", "ca", "cs", "dv", "el", "fa", "fi", "gu", "he", "hi", "hu", "hy", "id", "ka", "kk", "km", "kn", "lo", "ml", "mn", "mr", "my", "ne",
        "or", "pa", "ps", "ro", "si", "sr", "sv", "sw", "ta", "te", "ti", "tl", "uk", "ur", "vi",
    ];
    assert_eq!(tested, expected);
    let failures: Vec<String> = scores
        .iter()
        .filter(|((_, split), score)| split == "test" && score.prose_lost() > MAX_PROSE_LOST)
        .map(|((lang, _), score)| format!("{lang}: prose lost {:.3}: {score:?}", score.prose_lost()))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
