//! `precis rouge` run as a program on small temporary files.

#[path = "support/cli.rs"]
mod cli;

use cli::*;
use std::ffi::OsStr;
use std::process::Output;

fn rouge(args: &[&OsStr]) -> Output {
    precis(std::iter::once(OsStr::new("rouge")).chain(args.iter().copied()))
}

/// The recall, precision and F of `metric` in the JSON output.
fn json_score(json: &serde_json::Value, metric: &str) -> [f64; 3] {
    let entry = json["scores"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["metric"] == metric)
        .unwrap();
    ["recall", "precision", "f"].map(|k| entry[k].as_f64().unwrap())
}

fn close(actual: [f64; 3], expected: [f64; 3]) -> bool {
    actual.iter().zip(expected).all(|(a, e)| (a - e).abs() < 1e-9)
}

#[test]
fn scores_a_summary_against_two_references_as_json() {
    let files = Scratch::new("cli-rouge-json");
    let summary = files.write("summary.txt", "Police killed the gunman.\n");
    let first = files.write("ref1.txt", "The gunman killed the policeman.\n");
    let second = files.write("ref2.txt", "Police shot the gunman.\nHe died.\n");
    let output = rouge(&[
        "--summary".as_ref(),
        summary.as_os_str(),
        "--reference".as_ref(),
        first.as_os_str(),
        second.as_os_str(),
        "--json".as_ref(),
    ]);
    let json: serde_json::Value = serde_json::from_str(&stdout_of(&output)).unwrap();
    // Tokens: peer "polic kill the gunman"; ref1 "the gunman kill the policeman";
    // ref2 "polic shot the gunman he die". Unigram hits 3 + 3 of 5 + 6
    // reference tokens, 2 × 4 peer tokens.
    let (recall, precision) = (6.0 / 11.0, 6.0 / 8.0);
    let f = 2.0 * recall * precision / (recall + precision);
    assert!(
        close(json_score(&json, "ROUGE-1"), [recall, precision, f]),
        "{json}"
    );
    let metrics: Vec<&str> = json["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["metric"].as_str().unwrap())
        .collect();
    assert_eq!(
        metrics,
        ["ROUGE-1", "ROUGE-2", "ROUGE-3", "ROUGE-4", "ROUGE-L", "ROUGE-SU4"]
    );
    assert_eq!(json["config"]["stemming"], "porter_word_net");
}

#[test]
fn word_limit_cuts_summary_and_references() {
    let files = Scratch::new("cli-rouge-limit");
    let summary = files.write("summary.txt", "alpha beta\ngamma delta\n");
    let reference = files.write("ref.txt", "alpha beta gamma\ndelta\n");
    let args = |limit: &str| {
        rouge(&[
            "--summary".as_ref(),
            summary.as_os_str(),
            "--reference".as_ref(),
            reference.as_os_str(),
            "--limit".as_ref(),
            limit.as_ref(),
            "--json".as_ref(),
        ])
    };
    let json: serde_json::Value = serde_json::from_str(&stdout_of(&args("3"))).unwrap();
    // Both cut to "alpha beta gamma".
    assert!(close(json_score(&json, "ROUGE-2"), [1.0, 1.0, 1.0]), "{json}");
    let json: serde_json::Value = serde_json::from_str(&stdout_of(&args("4"))).unwrap();
    // Bigrams: peer "alpha beta", "beta gamma", "gamma delta" all in the reference.
    assert!(close(json_score(&json, "ROUGE-2"), [1.0, 1.0, 1.0]), "{json}");
    let json: serde_json::Value = serde_json::from_str(&stdout_of(&args("2"))).unwrap();
    assert!(close(json_score(&json, "ROUGE-1"), [1.0, 1.0, 1.0]), "{json}");
}

#[test]
fn unicode_mode_scores_chinese_by_character() {
    let files = Scratch::new("cli-rouge-unicode");
    let summary = files.write("summary.txt", "北京发生地震。\n");
    let reference = files.write("ref.txt", "北京地震\n");
    let unicode = rouge(&[
        "--summary".as_ref(),
        summary.as_os_str(),
        "--reference".as_ref(),
        reference.as_os_str(),
        "--unicode".as_ref(),
        "--json".as_ref(),
    ]);
    let json: serde_json::Value = serde_json::from_str(&stdout_of(&unicode)).unwrap();
    // 4 of the reference's 4 characters appear among the summary's 6.
    let f = 2.0 * 1.0 * (4.0 / 6.0) / (1.0 + 4.0 / 6.0);
    assert!(close(json_score(&json, "ROUGE-1"), [1.0, 4.0 / 6.0, f]), "{json}");
    // ROUGE-1.5.5's tokenization sees no ASCII letters at all.
    let ascii = rouge(&[
        "--summary".as_ref(),
        summary.as_os_str(),
        "--reference".as_ref(),
        reference.as_os_str(),
        "--json".as_ref(),
    ]);
    let json: serde_json::Value = serde_json::from_str(&stdout_of(&ascii)).unwrap();
    assert!(close(json_score(&json, "ROUGE-1"), [0.0, 0.0, 0.0]), "{json}");
}

#[test]
fn prints_a_table_by_default() {
    let files = Scratch::new("cli-rouge-table");
    let summary = files.write("summary.txt", "The cat sat.\n");
    let reference = files.write("ref.txt", "The cat sat.\n");
    let text = stdout_of(&rouge(&[
        "--summary".as_ref(),
        summary.as_os_str(),
        "--reference".as_ref(),
        reference.as_os_str(),
    ]));
    assert!(
        text.lines().any(|l| l
            .split_whitespace()
            .eq(["ROUGE-1", "1.00000", "1.00000", "1.00000"])),
        "{text}"
    );
    assert!(text.contains("ROUGE-SU4"), "{text}");
}

#[test]
fn missing_file_is_an_error() {
    let files = Scratch::new("cli-rouge-missing");
    let reference = files.write("ref.txt", "x\n");
    let output = rouge(&[
        "--summary".as_ref(),
        files.join("nope.txt").as_os_str(),
        "--reference".as_ref(),
        reference.as_os_str(),
    ]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("nope.txt"));
}
