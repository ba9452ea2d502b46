//! The prose/furniture decision against the hand-labelled Multi-News
//! validation sentences in `tests/fixtures/furniture/` (no dataset needed):
//! precision and recall of the junk class must not fall below the levels
//! reached when the filter was tuned (on the dev split only).

use precis::eval::furniture_fixture::{judge, Score};

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/furniture");

/// Levels reached (see docs/results/furniture.md), rounded down: all 416
/// sentences P 0.858 R 0.938; test split (160, 24 junk) P 0.833 R 0.833.
/// Precision is lower than the first filter's (0.927) on purpose: sentences
/// of three words or fewer and sentences ending in ':' are excluded as
/// fragments that cannot stand alone in a summary, while the fixture labels
/// some of them ("Who takes breaks?", "… the Spider-Man comic books:")
/// prose of the page.
const MIN_PRECISION: f64 = 0.85;
const MIN_RECALL: f64 = 0.89;
const MIN_TEST_PRECISION: f64 = 0.81;
const MIN_TEST_RECALL: f64 = 0.82;

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

/// With the prose reader after the rules, as summaries run them: the test
/// split (kept out of the reader's training) gains recall (0.833 → 0.917,
/// 2 more of its 24 junk sentences) for one more false positive.
const MIN_TEST_PRECISION_READ: f64 = 0.80;
const MIN_TEST_RECALL_READ: f64 = 0.90;

#[test]
fn the_prose_reader_adds_recall_on_the_labelled_fixture() {
    use precis::summarize::mark_read_furniture;
    let encoder = precis::models::load_encoder(None).unwrap();
    let clusters = std::fs::read_to_string(format!("{FIXTURE}/clusters.jsonl")).unwrap();
    let labels = std::fs::read_to_string(format!("{FIXTURE}/labels.jsonl")).unwrap();
    let judged = precis::eval::furniture_fixture::judge_read(&clusters, &labels, |cluster| {
        let embeddings = encoder.encode(&cluster.texts()).map_err(|e| e.to_string())?;
        mark_read_furniture(cluster, &embeddings);
        Ok(())
    })
    .unwrap();
    let test = Score::of(judged.iter().filter(|j| j.label.split == "test"));
    let rules_only = judge(&clusters, &labels).unwrap();
    let test_rules_only = Score::of(rules_only.iter().filter(|j| j.label.split == "test"));
    assert!(test.recall() > test_rules_only.recall(), "{test:?} vs {test_rules_only:?}");
    assert!(test.precision() >= MIN_TEST_PRECISION_READ, "test precision {:.3}: {test:?}", test.precision());
    assert!(test.recall() >= MIN_TEST_RECALL_READ, "test recall {:.3}: {test:?}", test.recall());
}
