//! Input → articles for the cards: size limits first (so nothing huge is
//! parsed), then `crate::input` reads pastes and files, then each article
//! gets its facts. Problems come back in plain words with their source;
//! whatever could be read is still returned.

use super::pipeline::describe;
use super::protocol::{Article, InputProblem};
use crate::limits::{megabytes, MAX_FILE_BYTES, MAX_INPUT_BYTES};
use crate::document::Document;
use crate::input;

/// What a read produced: articles, and what could not be read.
#[derive(Debug, Default)]
pub struct ReadOutcome {
    pub articles: Vec<Article>,
    pub problems: Vec<InputProblem>,
}

impl ReadOutcome {
    fn add(&mut self, source: &str, documents: Vec<Document>) {
        if documents.is_empty() {
            self.problem(source, "No article text was found in it.".into());
        }
        self.articles.extend(documents.into_iter().map(|document| Article { facts: describe(&document), document }));
    }

    /// Adds one file's result: its articles when their text is within the
    /// limit, else the reason in plain words.
    pub fn accept(&mut self, name: &str, read: Result<Vec<Document>, String>) {
        match read {
            Ok(documents) => {
                let text_bytes: usize = documents.iter().map(|d| d.text.len()).sum();
                if text_bytes > MAX_INPUT_BYTES {
                    self.problem(name, too_large(text_bytes));
                } else {
                    self.add(name, documents);
                }
            }
            Err(message) => self.problem(name, sentence_case(&message)),
        }
    }

    fn problem(&mut self, source: &str, message: String) {
        self.problems.push(InputProblem { source: source.to_string(), message });
    }
}

/// Reads the paste box. Pasted web-page markup is reduced to its article
/// text like an uploaded .html file, and the user is told: scripts and
/// images are dropped, never run.
pub fn read_paste(text: &str) -> ReadOutcome {
    let mut outcome = ReadOutcome::default();
    if text.trim().is_empty() {
        outcome.problem("paste", "The paste box is empty: paste an article's text first.".into());
    } else if text.len() > MAX_INPUT_BYTES {
        outcome.problem("paste", too_large(text.len()));
    } else if looks_like_html(text) {
        match input::documents_from_file("paste.html", text.as_bytes()) {
            Ok(documents) => {
                outcome.problem(
                    "paste",
                    "The paste contained HTML code: only its text was kept. Scripts, images and other markup were removed and never run."
                        .into(),
                );
                outcome.add("paste", documents);
            }
            Err(_) => outcome.problem(
                "paste",
                "The paste contained only HTML code (such as scripts or images) and no article text. Nothing was run; paste the article's text instead."
                    .into(),
            ),
        }
    } else {
        match input::documents_from_paste(text) {
            Ok(documents) => outcome.add("paste", documents),
            Err(e) => outcome.problem("paste", sentence_case(&e.to_string())),
        }
    }
    outcome
}

/// True when the text holds HTML tags (not just a stray "<" in prose).
pub fn looks_like_html(text: &str) -> bool {
    const TAGS: [&str; 24] = [
        "script", "style", "img", "iframe", "object", "embed", "svg", "html", "head", "body", "div", "span", "p", "a",
        "br", "article", "section", "h1", "h2", "h3", "ul", "li", "table", "meta",
    ];
    let lower = text.to_ascii_lowercase();
    lower.match_indices('<').any(|(at, _)| {
        let rest = lower[at + 1..].trim_start_matches('/');
        TAGS.iter().any(|tag| {
            rest.strip_prefix(tag).is_some_and(|after| after.starts_with(|c: char| c == '>' || c == '/' || c.is_ascii_whitespace()))
        })
    })
}

/// "the file is empty" → "The file is empty." (input's messages are
/// written to follow a file name).
fn sentence_case(message: &str) -> String {
    let mut chars = message.chars();
    let mut out: String = chars.next().map(|c| c.to_uppercase().collect()).unwrap_or_default();
    out.extend(chars);
    if !out.ends_with('.') {
        out.push('.');
    }
    out
}

/// Reads files given as (name, bytes); one file's problem does not stop
/// the others.
pub fn read_files(files: &[(String, Vec<u8>)]) -> ReadOutcome {
    let mut outcome = ReadOutcome::default();
    for (name, bytes) in files {
        if bytes.len() > MAX_FILE_BYTES {
            outcome.problem(name, too_large(bytes.len()));
            continue;
        }
        outcome.accept(name, input::documents_from_file(name, bytes).map_err(|e| e.to_string()));
    }
    outcome
}

/// The message for input over the limit.
pub fn too_large(bytes: usize) -> String {
    format!(
        "This is {} of text; Précis reads at most {} at once (about 150,000 words). Split it into several parts or files.",
        megabytes(bytes),
        megabytes(MAX_INPUT_BYTES)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::worker::EXAMPLE_FILES;

    #[test]
    fn the_example_set_reads_as_dated_articles_in_five_languages() {
        let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/examples/");
        let read = |name: &str| (name.to_string(), std::fs::read(format!("{folder}{name}")).unwrap());
        let files: Vec<(String, Vec<u8>)> = EXAMPLE_FILES.iter().map(|name| read(name)).collect();
        let outcome = read_files(&files);
        assert!(outcome.problems.is_empty(), "{:?}", outcome.problems);
        assert_eq!(outcome.articles.len(), 5);
        let on_disk = std::fs::read_dir(folder).unwrap().filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "json"));
        assert_eq!(on_disk.count(), EXAMPLE_FILES.len(), "every file in assets/examples is listed in EXAMPLE_FILES");
        let mut languages: Vec<&str> = outcome.articles.iter().map(|a| a.facts.languages[0].as_str()).collect();
        languages.sort();
        assert_eq!(languages, ["de", "en", "es", "fr", "it"]);
        assert!(outcome.articles.iter().all(|a| a.document.timestamp.is_some() && a.document.title.is_some()));
        assert!(outcome.articles.iter().all(|a| a.facts.sentences >= 5 && a.facts.words > 100));
    }

    #[test]
    fn empty_and_oversized_pastes_are_refused_with_the_reason() {
        let empty = read_paste(" \n\t ");
        assert!(empty.articles.is_empty() && empty.problems[0].message.contains("empty"));
        let huge = read_paste(&"Words upon words. ".repeat(300_000));
        assert!(huge.articles.is_empty());
        assert!(huge.problems[0].message.contains("5.4 MB") && huge.problems[0].message.contains("at most 1.0 MB"), "{:?}", huge.problems);
    }

    #[test]
    fn a_bad_file_does_not_stop_the_good_ones() {
        let files = vec![
            ("photo.png".to_string(), vec![0x89, b'P', b'N', b'G', 0, 0, 0, 13, 0, 1, 2, 3, 255, 254, 0, 0]),
            ("note.txt".to_string(), b"Storm hits the coast. Thousands lose power.".to_vec()),
        ];
        let outcome = read_files(&files);
        assert_eq!(outcome.articles.len(), 1);
        assert_eq!(outcome.problems.len(), 1);
        assert_eq!(outcome.problems[0].source, "photo.png");
    }

    #[test]
    fn pasted_markup_is_reduced_to_text_and_the_user_is_told() {
        let outcome = read_paste(
            "<p>Storm hits the coast of Brittany overnight.</p><script>alert(1)</script><img src=x onerror=alert(2)><p>Power is out in thousands of homes.</p>",
        );
        assert_eq!(outcome.articles.len(), 1);
        let text = &outcome.articles[0].document.text;
        assert!(text.contains("Storm hits the coast") && text.contains("Power is out"), "{text:?}");
        assert!(!text.contains('<') && !text.contains("alert"), "{text:?}");
        assert!(outcome.problems[0].message.contains("never run"));
        let only_code = read_paste("<script>document.title='x'</script><img src=x onerror=alert(1)>");
        assert!(only_code.articles.is_empty());
        assert!(only_code.problems[0].message.contains("no article text"), "{:?}", only_code.problems);
    }

    #[test]
    fn only_real_tags_count_as_html() {
        assert!(looks_like_html("<P class=x>Hi</P>"));
        assert!(looks_like_html("text <br/> more"));
        assert!(looks_like_html("<img src=x onerror=alert(1)>"));
        assert!(!looks_like_html("Inflation < 2% and rates <3 months; a <b>"));
        assert!(!looks_like_html("The <pre-election> period"));
    }

    #[test]
    fn several_pasted_articles_become_several_cards() {
        let outcome = read_paste("Flood in Pradella\n\nThe lake burst on Monday.\n---\nLe lac a cédé lundi soir.");
        assert_eq!(outcome.articles.len(), 2, "{:?}", outcome.problems);
        assert!(outcome.problems.is_empty());
    }
}
