//! `precis segment` (and `furniture-eval`) run as a program on small temporary files.

#[path = "support/cli.rs"]
mod cli;

use cli::*;
use serde_json::Value;
use std::path::PathBuf;
use std::process::Output;

fn segment(paths: &[&PathBuf]) -> Output {
    precis(std::iter::once(&PathBuf::from("segment")).chain(paths.iter().copied()))
}

/// The output lines as JSON objects, checking each has exactly the six keys
/// (and `excluded`, the reason, for page furniture), and that the ids count
/// 0, 1, 2, … in output order, as `summarize --format json` and `--pin` use them.
fn sentences(output: &Output) -> Vec<Value> {
    stdout_of(output)
        .lines()
        .enumerate()
        .map(|(position, line)| {
            let value: Value = serde_json::from_str(line).unwrap();
            let mut keys: Vec<&str> =
                value.as_object().unwrap().keys().map(String::as_str).filter(|k| *k != "excluded").collect();
            keys.sort_unstable();
            assert_eq!(keys, ["doc", "id", "index", "lang", "para", "text"], "{line}");
            assert_eq!(value["id"].as_u64(), Some(position as u64), "{line}");
            value
        })
        .collect()
}

fn row(v: &Value) -> (u64, u64, u64, &str, &str) {
    (
        v["doc"].as_u64().unwrap(),
        v["para"].as_u64().unwrap(),
        v["index"].as_u64().unwrap(),
        v["lang"].as_str().unwrap(),
        v["text"].as_str().unwrap(),
    )
}

#[test]
fn splits_files_in_several_languages_and_formats() {
    let files = Scratch::new("cli-segment-languages");
    let en = files.write(
        "en.txt",
        "Quake hits Tokyo\n\nA strong earthquake struck Tokyo on Monday, the U.S. Geological Survey said. \
         Dr. Smith said damage was limited.\n\nTrains stopped for an hour in the whole region.\n",
    );
    let html = files.write(
        "fr.html",
        "<html><head><title>Séisme</title><script>var p = '<p>caché</p>';</script></head><body>\
         <nav><li>Accueil</li></nav><article><h1>Séisme à Tokyo</h1>\
         <p>Un fort séisme a frappé Tokyo lundi, selon les autorités japonaises.</p>\
         <p>M. Tanaka a déclaré que les dégâts étaient limités dans toute la ville.</p></article></body></html>",
    );
    let json = files.write(
        "more.jsonl",
        "{\"title\": \"东京地震\", \"text\": \"东京周一发生强烈地震。目前没有人员伤亡的报告。\"}\n\
         {\"text\": \"Un fuerte terremoto sacudió Tokio el lunes. Los trenes se detuvieron durante una hora.\", \
         \"date\": \"2024-03-04\"}\n",
    );
    let output = segment(&[&en, &html, &json]);
    let lines = sentences(&output);
    let rows: Vec<_> = lines.iter().map(row).collect();
    assert_eq!(
        rows,
        [
            (0, 0, 0, "en", "A strong earthquake struck Tokyo on Monday, the U.S. Geological Survey said."),
            (0, 0, 1, "en", "Dr. Smith said damage was limited."),
            (0, 1, 2, "en", "Trains stopped for an hour in the whole region."),
            (1, 0, 0, "fr", "Un fort séisme a frappé Tokyo lundi, selon les autorités japonaises."),
            (1, 1, 1, "fr", "M. Tanaka a déclaré que les dégâts étaient limités dans toute la ville."),
            (2, 0, 0, "zh", "东京周一发生强烈地震。"),
            (2, 0, 1, "zh", "目前没有人员伤亡的报告。"),
            (3, 0, 0, "es", "Un fuerte terremoto sacudió Tokio el lunes."),
            (3, 0, 1, "es", "Los trenes se detuvieron durante una hora."),
        ]
    );
}

#[test]
fn reads_a_paste_from_stdin() {
    let paste = "First article. It has two sentences.\n---\nSecond article here.\n";
    let output = precis_with_stdin(["segment", "-"], paste.as_bytes());
    let docs: Vec<u64> = sentences(&output).iter().map(|v| v["doc"].as_u64().unwrap()).collect();
    assert_eq!(docs, [0, 0, 1]);
}

#[test]
fn an_empty_file_is_an_error_naming_the_file() {
    let files = Scratch::new("cli-segment-empty");
    let good = files.write("good.txt", "A sentence.");
    let empty = files.write("empty.txt", "");
    let output = segment(&[&good, &empty]);
    assert!(!output.status.success());
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("empty.txt: there is no text in it"), "{stderr}");
    assert!(!stderr.contains("good.txt"), "{stderr}");
}

#[test]
fn binary_and_missing_files_are_errors_naming_the_files() {
    let files = Scratch::new("cli-segment-binary");
    let binary = files.write("photo.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR");
    let noise = files.write("noise.dat", [0u8, 159, 146, 150, 0, 1, 2, 3, 0, 7]);
    let missing = files.join("missing.txt");
    let output = segment(&[&binary, &noise, &missing]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("photo.txt: this is an image, not text"), "{stderr}");
    assert!(stderr.contains("noise.dat: this file is not text"), "{stderr}");
    assert!(stderr.contains("missing.txt: there is no such file"), "{stderr}");
}

#[test]
fn invalid_json_is_an_error_with_its_line() {
    let files = Scratch::new("cli-segment-json");
    let json = files.write("bad.json", "[\n {\"text\": \"ok\"},\n {\"text\" \"missing colon\"}\n]");
    let output = segment(&[&json]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("bad.json: the JSON is not valid at line 3"), "{stderr}");
}

#[test]
fn page_furniture_is_listed_with_its_reason() {
    let files = Scratch::new("cli-segment-furniture");
    let page = files.write("page.txt", WEB_PAGE);
    let out = sentences(&segment(&[&page]));
    let excluded: Vec<(&str, Option<&str>)> =
        out.iter().map(|v| (v["text"].as_str().unwrap(), v["excluded"].as_str())).collect();
    // The first line is the article's headline (its title), not a sentence.
    assert_eq!(excluded.len(), 5, "{excluded:?}");
    assert_eq!(excluded[1], ("(Photo: Jane Doe, KARE 11)", Some("page furniture: photo credit")));
    assert_eq!(excluded[2].1, None);
    assert_eq!(excluded[3].1, None);
    assert!(excluded[0].1.is_some() && excluded[4].1.is_some(), "{excluded:?}");
}

/// `precis segment … | head`: when the reader of its output has gone, the
/// program ends as `cat` does, killed by SIGPIPE, without a panic's message.
/// The pipe's reading end is closed before the run, so every write fails.
#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_the_program_quietly() {
    use std::os::unix::process::ExitStatusExt;
    let dir = Scratch::new("closed-pipe");
    let article = dir.write("article.txt", "The storm hit the coast at dawn. Thousands of homes lost power.");
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let output = command(["segment", article.to_str().unwrap()]).stdout(writer).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
    assert_eq!(output.status.signal(), Some(libc::SIGPIPE));
}

/// Tajik, Uzbek, Kyrgyz and Bashkir, which the language detector does not
/// know in Cyrillic (it said Bulgarian, Kazakh, Ukrainian, Mongolian or
/// Russian), are named by their letters, and Belarusian stays Belarusian:
/// every sentence of three articles each (`tests/fixtures/languages`).
#[test]
fn names_the_cyrillic_languages_the_detector_does_not_know() {
    let folder = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/languages/cyrillic");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&folder).unwrap().map(|entry| entry.unwrap().path()).collect();
    paths.sort();
    assert_eq!(paths.len(), 15);
    let output = segment(&paths.iter().collect::<Vec<_>>());
    for sentence in sentences(&output) {
        let (doc, _, _, lang, text) = row(&sentence);
        let file = paths[doc as usize].file_name().unwrap().to_str().unwrap();
        assert_eq!(lang, &file[..2], "{file}: {text}");
    }
}

/// `furniture-eval` on a folder of labelled pages alone (the pages beyond
/// the 16 languages) prints their table and stops there, and a folder with
/// neither pages nor the English fixture is named in the error.
#[test]
fn furniture_eval_reads_a_folder_of_pages_alone() {
    let other = repo().join("tests/fixtures/furniture/other-languages");
    let table = succeed(["furniture-eval".as_ref(), "--fixture".as_ref(), other.as_os_str()]);
    assert!(table.contains("| vi | test |"), "{table}");
    assert!(!table.contains("English Multi-News fixture"), "{table}");
    let empty = Scratch::new("furniture-eval-empty");
    let error = fail(["furniture-eval", "--fixture", empty.arg()]);
    assert!(error.contains("holds no labelled pages"), "{error}");
}
