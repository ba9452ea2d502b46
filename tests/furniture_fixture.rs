//! The prose/furniture decision against the hand-labelled Multi-News
//! validation sentences in `tests/fixtures/furniture/` (no dataset needed):
//! precision and recall of the junk class must not fall below the levels
//! reached when the filter was tuned (on the dev split only).

use precis::eval::furniture_fixture::{judge, Score};

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/furniture");

/// Levels reached (see docs/results/furniture.md), rounded down: all 416
/// sentences P 0.866 R 0.866; test split (160, 24 junk) P 0.833 R 0.833.
/// (Since issue 42's ninth round the splitter joins three of the dev
/// split's sentences that it used to cut, 413 in all: P 0.883 R 0.883,
/// test P 0.870 R 0.833.)
/// Recall fell from 0.938 when issue 42 kept short sentences inside a
/// paragraph as prose ("Nobody was hurt.", "¿Cuánto ha llovido?"): this
/// fixture's guide labels the verbless ones junk ("December 19.", "No hard
/// feelings."), the labelled pages of 16 languages, and the issue, prose.
const MIN_PRECISION: f64 = 0.86;
const MIN_RECALL: f64 = 0.86;
const MIN_TEST_PRECISION: f64 = 0.83;
const MIN_TEST_RECALL: f64 = 0.83;

#[test]
fn junk_precision_and_recall_on_the_labelled_fixture() {
    let clusters = std::fs::read_to_string(format!("{FIXTURE}/clusters.jsonl")).unwrap();
    let labels = std::fs::read_to_string(format!("{FIXTURE}/labels.jsonl")).unwrap();
    let judged = judge(&clusters, &labels).unwrap();
    assert!(judged.len() >= 300, "{} labelled sentences", judged.len());
    let all = Score::of(&judged);
    let test = Score::of(judged.iter().filter(|j| j.label.split == "test"));
    assert!(all.precision() >= MIN_PRECISION, "precision {:.3} < {MIN_PRECISION}: {all:?}", all.precision());
    assert!(all.recall() >= MIN_RECALL, "recall {:.3} < {MIN_RECALL}: {all:?}", all.recall());
    assert!(test.precision() >= MIN_TEST_PRECISION, "test precision {:.3}: {test:?}", test.precision());
    assert!(test.recall() >= MIN_TEST_RECALL, "test recall {:.3}: {test:?}", test.recall());
}

/// With the prose reader after the rules, as summaries run them: on the
/// test split (kept out of the reader's training) it reads only sentences
/// alone in their paragraph, and loses nothing the rules caught, at one
/// more false positive at most.
const MIN_TEST_PRECISION_READ: f64 = 0.80;

#[test]
fn the_prose_reader_keeps_what_the_rules_catch_on_the_labelled_fixture() {
    use precis::summarize::mark_read_furniture;
    let encoder = precis::models::load_encoder(None).unwrap();
    let clusters = std::fs::read_to_string(format!("{FIXTURE}/clusters.jsonl")).unwrap();
    let labels = std::fs::read_to_string(format!("{FIXTURE}/labels.jsonl")).unwrap();
    let judged = precis::eval::furniture_fixture::judge_read(&clusters, &labels, |cluster| {
        mark_read_furniture(cluster, &encoder).map_err(|e| e.to_string())
    })
    .unwrap();
    let test = Score::of(judged.iter().filter(|j| j.label.split == "test"));
    let rules_only = judge(&clusters, &labels).unwrap();
    let test_rules_only = Score::of(rules_only.iter().filter(|j| j.label.split == "test"));
    assert!(test.recall() >= test_rules_only.recall(), "{test:?} vs {test_rules_only:?}");
    assert!(test.false_positives <= test_rules_only.false_positives + 1, "{test:?} vs {test_rules_only:?}");
    assert!(test.precision() >= MIN_TEST_PRECISION_READ, "test precision {:.3}: {test:?}", test.precision());
}
