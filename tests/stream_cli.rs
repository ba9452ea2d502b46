//! `precis stream` on the tiny TREC-TS-layout year in tests/fixtures/trec_ts
//! (written by make_fixture.py there) and on dated article files. The
//! thresholds used make COS's choices independent of the embeddings, so the
//! scores can be checked by hand; the encoder still runs (models/ must be
//! built: python3 models/build.py).

#[path = "support/cli.rs"]
mod cli;

use cli::*;
use std::path::PathBuf;

fn fixture_year() -> PathBuf {
    fixture("trec_ts/2099")
}

/// `precis stream ARGS… --cache CACHE`, which must succeed.
fn stream(args: &[&str], cache: &Scratch) -> String {
    succeed(args.iter().copied().chain(["--cache", cache.arg()]))
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
    let out_dir = Scratch::new("stream_cli_out");
    let stdout = stream(
        &["stream", "--data", dir.to_str().unwrap(), "--policy", "cos", "--threshold", "1.5", "--out", out_dir.arg()],
        &Scratch::new("stream_cli_cache_a"),
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
    let stdout = stream(
        &["stream", "--data", dir.to_str().unwrap(), "--policy", "cos", "--threshold", "-2"],
        &Scratch::new("stream_cli_cache_b"),
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
    let cache = Scratch::new("stream_cli_cache_c");
    for policy in ["cos", "apsal", "ls", "ls+cos"] {
        let stdout = stream(&["stream", "--data", dir.to_str().unwrap(), "--policy", policy], &cache);
        let last = stdout.lines().last().unwrap_or("");
        assert!(last.starts_with("mean: updates="), "{policy}: {stdout}");
        assert_eq!(stdout.lines().count(), 3, "{policy}: two events and the mean");
    }
}

#[test]
fn timeline_of_dated_files() {
    // Dates from the file names (plain text) and from a JSON `date` field;
    // an undated file keeps its place after the file before it.
    let dir = Scratch::new("stream_cli_files");
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
    let stdout = stream(
        &["stream", "--policy", "cos", "--threshold", "1.5", "--query", "river flood", &late, &early, &json, &undated],
        &Scratch::new("stream_cli_cache_d"),
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

/// A pasted page's furniture is never an update: a credit above the text
/// and a share widget are skipped with their reasons, and COS reads the
/// first prose sentence as the page's first.
#[test]
fn page_furniture_is_never_an_update() {
    let dir = Scratch::new("stream_cli_furniture");
    let page = dir.join("2024-03-05-storm.txt");
    std::fs::write(
        &page,
        "(Photo: Jane Doe, KARE 11)\n\nThe storm hit the coast on Monday and thousands of homes lost power.\n\n\
         Officials said schools would stay closed until Wednesday.\n\nTweet with a location\n",
    )
    .unwrap();
    let stdout = stream(
        &["stream", "--policy", "cos", "--threshold", "1.5", "--query", "storm", page.to_str().unwrap()],
        &Scratch::new("stream_cli_cache_f"),
    );
    assert_eq!(
        stdout.lines().collect::<Vec<_>>(),
        vec!["2024-03-05 00:00\t2024-03-05-storm.txt\tThe storm hit the coast on Monday and thousands of homes lost power."]
    );
}

#[test]
fn a_question_moves_cos_to_the_sentence_that_answers_it() {
    // COS takes each article's first sentence; steered by a question with
    // enough weight it takes the sentence that answers it instead.
    let dir = Scratch::new("stream_cli_topic");
    let a = dir.write("2024-03-05-a.txt", "Heavy rain flooded the river town on Tuesday. Two fishermen drowned near the old bridge.");
    let b = dir.write("2024-03-06-b.txt", "The river crested a metre above the dykes. Schools and roads stayed closed.");
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let cache = Scratch::new("stream_cli_cache_topic");
    let run = |weight: &str| {
        let out = stream(&["stream", "--policy", "cos", "--threshold", "1.5", "--topic", "Did anyone die?", "--topic-weight", weight, a, b], &cache);
        out.lines().map(|l| l.rsplit('\t').next().unwrap().to_string()).collect::<Vec<_>>()
    };
    assert_eq!(run("0"), vec!["Heavy rain flooded the river town on Tuesday.", "The river crested a metre above the dykes."]);
    assert_eq!(run("1")[0], "Two fishermen drowned near the old bridge.");
}

/// The CLI and the app's timeline replay the same articles into the same
/// updates at the same times: an undated article first (it arrives at the
/// first known date in both), an undated one in the middle, dated ones out
/// of order, and a headline-less first article (the query is its first
/// sentence in both).
#[test]
fn the_cli_and_the_app_replay_the_same_timeline() {
    use precis::dates::format_date_time;
    use precis::input::documents_from_file;
    use precis::stream::settings::StreamSettings;
    use precis::stream::{Action, PolicyKind};
    use precis::encoder::EmbeddingCache;
    use precis::stream::timeline::{self, StreamJob};

    let dir = Scratch::new("stream_cli_same_as_app");
    let files = [
        ("a-undated.txt", "Volunteers filled sandbags overnight along the river. The water kept rising."),
        ("b.json", r#"{"text": "Heavy rain flooded the river town on Tuesday. Roads were closed.", "date": "2024-03-05T06:00:00Z"}"#),
        ("c.json", r#"{"text": "Floodwaters receded on Thursday. Cleanup began in the town.", "date": "2024-03-07"}"#),
        ("d-undated.txt", "Insurers counted the damage. Schools stayed closed."),
        ("e.json", r#"{"text": "Thousands were evacuated as the river rose. Rescuers used boats.", "date": "2024-03-06T09:30:00Z"}"#),
    ];
    let paths: Vec<String> = files.iter().map(|(name, text)| dir.write(name, text).to_str().unwrap().to_string()).collect();
    let mut documents = vec![];
    let mut sources = vec![];
    for (name, text) in &files {
        for document in documents_from_file(name, text.as_bytes()).unwrap() {
            documents.push(document);
            sources.push(name.to_string());
        }
    }
    let read = |name: &str| std::fs::read(repo().join("models").join(name)).expect("built models (python3 models/build.py)");
    let muse = repo().join("models/muse-v3");
    let encoder = precis::models::read_encoder(&muse, precis::models::Precision::default().file_name(), &|| 0.0).unwrap().0;
    let settings = StreamSettings::from_bytes(&read("stream/ls.json")).unwrap();
    let cache_dir = Scratch::new("stream_cli_same_as_app_cache");
    for policy in [PolicyKind::Cos, PolicyKind::Apsal, PolicyKind::LsCos] {
        let threshold = (policy == PolicyKind::Cos).then_some(0.9);
        let mut args = vec!["stream", "--policy", policy.name()];
        let threshold_text = threshold.map(|t: f32| t.to_string());
        if let Some(t) = &threshold_text {
            args.extend(["--threshold", t]);
        }
        args.extend(paths.iter().map(String::as_str));
        let cli: Vec<String> = stream(&args, &cache_dir).lines().map(str::to_string).collect();

        let job = StreamJob { documents: documents.clone(), policy, threshold, query: None, topic: None, topic_weight: 0.0 };
        let prepared = timeline::prepare(job, &settings).unwrap();
        let mut cache = EmbeddingCache::default();
        let missing = cache.missing(prepared.texts());
        let refs: Vec<&str> = missing.iter().map(String::as_str).collect();
        let embeddings = encoder.encode(&refs).unwrap();
        cache.insert(missing, embeddings);
        let app = timeline::replay(&prepared, &cache).unwrap();
        let app_lines: Vec<String> = app
            .events
            .iter()
            .filter(|e| e.action == Action::Select)
            .map(|e| {
                let sentence = &app.sentences[e.sentence];
                let article = &app.articles[sentence.doc];
                let time = if article.date.is_some() { format_date_time(e.time) } else { "undated".to_string() };
                format!("{time}\t{}\t{}", sources[article.card], sentence.text)
            })
            .collect();
        assert!(!cli.is_empty(), "{policy}: no update");
        assert_eq!(cli, app_lines, "{policy}");
        assert_eq!(app.articles[0].card, 0, "the undated first article arrives at the first known date");
        assert_eq!(app.articles[0].time, app.articles[1].time);
    }
}
