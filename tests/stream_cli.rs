//! `precis stream` on the tiny TREC-TS-layout year in tests/fixtures/trec_ts
//! (written by make_fixture.py there) and on dated article files. The
//! thresholds used make COS's choices independent of the embeddings, so the
//! scores can be checked by hand; the encoder still runs (models/ must be
//! built: python3 models/build.py).

use std::path::{Path, PathBuf};
use std::process::Command;

fn fixture_year() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/trec_ts/2099")
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn precis(args: &[&str], cache: &Path) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_precis"))
        .args(args)
        .arg("--cache")
        .arg(cache)
        .output()
        .expect("run precis");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "precis {args:?} failed: {stderr}");
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn every_first_sentence_scores_as_computed_by_hand() {
    // Threshold 1.5: no cosine reaches it, so COS selects every document's
    // first pooled sentence.
    // TS99.1: 4 updates (aaa-0: N1.1 on time; bbb-1: N1.2, 6 h late → 0.5;
    // ccc-3 duplicates aaa-0: nothing new; ddd-0: nothing) of 4 nuggets:
    // EG = C = F1 = 0.5, latency gain 1.5 → 0.375 each.
    // TS99.2: 2 updates, 2 nuggets (N2.1 early → 1; N2.2 40,200 s late →
    // 1 − (2/π)·atan(40200/21600) = 0.31389): EG = C = F1 = 1, latency 0.65694.
    // Topic 3 has no pooled sentences and is left out.
    let dir = fixture_year();
    let out_dir = scratch("stream_cli_out");
    let stdout = precis(
        &["stream", "--data", dir.to_str().unwrap(), "--policy", "cos", "--threshold", "1.5", "--out", out_dir.to_str().unwrap()],
        &scratch("stream_cli_cache_a"),
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert!(lines[0].starts_with("TS99.1 updates=4 expected_gain=0.5000 comprehensiveness=0.5000 f1=0.5000 latency_expected_gain=0.3750"));
    assert!(lines[1].starts_with("TS99.2 updates=2 expected_gain=1.0000"));
    assert_eq!(
        lines[2],
        "mean: updates=3 expected_gain=0.7500 comprehensiveness=0.7500 f1=0.7500 \
         latency_expected_gain=0.5160 latency_comprehensiveness=0.5160 latency_f1=0.5160"
    );
    let tsv = std::fs::read_to_string(out_dir.join("cos.tsv")).unwrap();
    assert_eq!(
        tsv,
        "query_id\tupdate_id\ttimestamp\n\
         TS99.1\t1000-aaa-0\t1000\nTS99.1\t22600-bbb-1\t22600\nTS99.1\t40000-ccc-3\t40000\nTS99.1\t45000-ddd-0\t45000\n\
         TS99.2\t2000-eee-0\t2000\nTS99.2\t45200-fff-0\t45200\n"
    );
}

#[test]
fn only_the_very_first_sentence_below_any_similarity() {
    // Threshold −2: after the first update nothing is below it.
    // TS99.1: 1 update, 1 of 4 nuggets: EG 1, C 0.25, F1 0.4 (on time).
    // TS99.2: 1 update, 1 of 2 nuggets: EG 1, C 0.5, F1 2/3.
    let dir = fixture_year();
    let stdout = precis(
        &["stream", "--data", dir.to_str().unwrap(), "--policy", "cos", "--threshold", "-2"],
        &scratch("stream_cli_cache_b"),
    );
    assert_eq!(
        stdout.lines().last().unwrap(),
        "mean: updates=1 expected_gain=1.0000 comprehensiveness=0.3750 f1=0.5333 \
         latency_expected_gain=1.0000 latency_comprehensiveness=0.3750 latency_f1=0.5333"
    );
}

#[test]
fn shipped_policies_run_on_the_fixture() {
    let dir = fixture_year();
    let cache = scratch("stream_cli_cache_c");
    for policy in ["cos", "apsal", "ls", "ls+cos"] {
        let stdout = precis(&["stream", "--data", dir.to_str().unwrap(), "--policy", policy], &cache);
        let last = stdout.lines().last().unwrap_or("");
        assert!(last.starts_with("mean: updates="), "{policy}: {stdout}");
        assert_eq!(stdout.lines().count(), 3, "{policy}: two events and the mean");
    }
}

#[test]
fn timeline_of_dated_files() {
    // Dates from the file names (plain text) and from a JSON `date` field;
    // an undated file keeps its place after the file before it.
    let dir = scratch("stream_cli_files");
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let late = write("report-2024-03-07.txt", "Floodwaters receded across the region on Thursday. Cleanup began.");
    let early = write("2024-03-05-flood.txt", "Heavy rain flooded the river town on Tuesday. Roads were closed.");
    let json = write(
        "wire.json",
        r#"{"text": "Thousands were evacuated as the river rose.", "date": "2024-03-06T09:30:00Z"}"#,
    );
    let undated = write("notes.txt", "Volunteers filled sandbags overnight.");
    let stdout = precis(
        &["stream", "--policy", "cos", "--threshold", "1.5", "--query", "river flood", &late, &early, &json, &undated],
        &scratch("stream_cli_cache_d"),
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines,
        vec![
            "2024-03-05 00:00\t2024-03-05-flood.txt\tHeavy rain flooded the river town on Tuesday.",
            "2024-03-06 09:30\twire.json\tThousands were evacuated as the river rose.",
            "undated\tnotes.txt\tVolunteers filled sandbags overnight.",
            "2024-03-07 00:00\treport-2024-03-07.txt\tFloodwaters receded across the region on Thursday.",
        ]
    );
}
