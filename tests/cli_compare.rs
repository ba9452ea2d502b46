//! `precis compare` end to end on the invented DUC-style cluster in
//! tests/fixtures/duc_mini: methods side by side, shared picks, ROUGE with
//! a reference, clear errors. The encoder runs for real: models/ must be
//! built (python3 models/build.py).

#[path = "support/cli.rs"]
mod cli;

use cli::*;
use serde_json::Value;
use std::path::PathBuf;

fn cluster() -> PathBuf {
    cli::fixture("duc_mini").join("docs/1")
}

fn reference() -> PathBuf {
    cli::fixture("duc_mini").join("reference/Task1_reference1.txt")
}

fn ids(column: &Value) -> Vec<u64> {
    column["sentences"].as_array().unwrap().iter().map(|s| s["id"].as_u64().unwrap()).collect()
}

#[test]
fn compare_json_has_a_column_per_method_with_rouge_and_shared_counts() {
    let json: Value = serde_json::from_str(&succeed(["compare", "--methods", "gg,bs+gs,mmr", "--budget", "40",
        "--reference", reference().to_str().unwrap(), "--format", "json", cluster().to_str().unwrap()]))
    .unwrap();
    let columns = json["columns"].as_array().unwrap();
    let methods: Vec<&str> = columns.iter().map(|c| c["method"].as_str().unwrap()).collect();
    assert_eq!(methods, ["gg", "bs+gs", "mmr"]);
    let objectives: Vec<&str> = columns.iter().map(|c| c["objective"].as_str().unwrap()).collect();
    assert_eq!(objectives, ["centroid_similarity", "centroid_similarity", "mmr_total"]);
    for column in columns {
        let picks = column["sentences"].as_array().unwrap();
        assert!(!picks.is_empty(), "{column}");
        let words: u64 = column["words"].as_u64().unwrap();
        assert!(words <= 40 && words == column["cost"].as_u64().unwrap(), "{column}");
        let rouge = &column["rouge"];
        for metric in ["rouge_1", "rouge_2"] {
            let recall = rouge[metric]["recall"].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&recall), "{metric}: {rouge}");
        }
        // A pick's count is the number of columns holding the same sentence.
        for pick in picks {
            let holding = columns.iter().filter(|c| ids(c).contains(&pick["id"].as_u64().unwrap())).count();
            assert_eq!(pick["picked_by"].as_u64().unwrap() as usize, holding, "{pick}");
        }
    }
    // Same core, same settings: the gg column is `precis summarize --method gg`.
    let alone: Value = serde_json::from_str(&succeed(["summarize", "--method", "gg", "--budget", "40", "--format", "json",
        cluster().to_str().unwrap()]))
    .unwrap();
    let alone: Vec<u64> = alone["summary"].as_array().unwrap().iter().map(|s| s["id"].as_u64().unwrap()).collect();
    assert_eq!(ids(&columns[0]), alone);
}

#[test]
fn compare_markdown_is_a_table_then_the_summaries() {
    let md = succeed(["compare", "--methods", "gg,bs", "--budget", "40", cluster().to_str().unwrap()]);
    assert!(md.starts_with("## Methods compared\n"), "{md}");
    assert!(md.contains("| Method | Objective | Words |\n"), "{md}");
    assert!(!md.contains("ROUGE"), "no reference, no ROUGE: {md}");
    assert!(md.contains("| Greedy (gg) | centroid similarity 0."), "{md}");
    assert!(md.contains("\n### Beam search (bs)\n\n1. "), "{md}");
    let with_reference = succeed(["compare", "--methods", "gg,bs", "--budget", "40", "--reference",
        reference().to_str().unwrap(), cluster().to_str().unwrap()]);
    assert!(with_reference.contains("| ROUGE-1 R / F | ROUGE-2 R / F |"), "{with_reference}");
}

#[test]
fn compare_refuses_a_wrong_method_list_plainly() {
    let docs = cluster();
    let docs = docs.to_str().unwrap();
    assert!(fail(["compare", "--methods", "gg", docs]).contains("two to four methods"));
    assert!(fail(["compare", "--methods", "gg,bs,bs+gs,mmr,tbmmr", docs]).contains("two to four methods"));
    assert!(fail(["compare", "--methods", "gg,bs,gg", docs]).contains("gg is chosen twice"));
    assert!(fail(["compare", "--methods", "gg,oracle", docs]).contains("reference"));
    assert!(fail(["compare", "--methods", "gg,nope", docs]).contains("nope"));
}
