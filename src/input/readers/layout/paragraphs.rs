//! Lines in reading order → paragraphs, each one line of text.
//!
//! A paragraph ends where the next line sits further below than lines
//! usually do, changes font size, or is indented; across a column or page
//! break, where the line ends a sentence and the next does not go on in
//! lower case. Lines are joined with a space, except in Chinese and
//! Japanese, and except a word broken by a hyphen at the end of a line:
//! - a soft hyphen (U+00AD) is dropped ("infor­" + "mation");
//! - a hyphen before a lower-case letter is dropped too ("infor-" + "mation"
//!   → "information"), unless the document writes the word with the hyphen
//!   elsewhere and never without ("well-" + "known" → "well-known");
//! - a hyphen before anything else stays ("Franco-" + "German", "COVID-" +
//!   "19").

use super::{median, unspaced_script, Line};
use crate::text::collapse_whitespace;
use std::collections::HashSet;

/// A line further below the previous one than this many times the usual
/// spacing starts a paragraph (paragraph spacing is usually half a line
/// or more).
const PARAGRAPH_GAP: f64 = 1.3;
/// A font size change over this share starts a paragraph (a title, a
/// caption).
const SIZE_CHANGE: f64 = 0.15;
/// First-line indentation, in units of the font size.
const MIN_INDENT: f64 = 0.8;
const MAX_INDENT: f64 = 6.0;
/// Usual baseline distance, in units of the font size, when no two lines
/// follow each other in a column.
const DEFAULT_SPACING: f64 = 1.2;

const HYPHENS: [char; 2] = ['-', '\u{2010}'];
const SOFT_HYPHEN: char = '\u{AD}';

/// The paragraphs of lines in reading order, blank ones left out.
pub(super) fn paragraphs(lines: &[Line]) -> Vec<String> {
    let spacing = usual_spacing(lines);
    let texts: Vec<String> = lines.iter().map(Line::text).collect();
    let vocabulary = Vocabulary::of(&texts);
    let mut paragraphs: Vec<Vec<&str>> = Vec::new();
    for (i, text) in texts.iter().enumerate() {
        let starts = i == 0 || starts_paragraph(&lines[i - 1], &lines[i], &texts[i - 1], text, spacing);
        match paragraphs.last_mut() {
            Some(paragraph) if !starts => paragraph.push(text),
            _ => paragraphs.push(vec![text]),
        }
    }
    paragraphs
        .into_iter()
        .map(|lines| clean(&join_lines(&lines, &vocabulary)))
        .filter(|paragraph| !paragraph.is_empty())
        .collect()
}

/// The next line follows the previous one in the same column.
fn follows_below(previous: &Line, next: &Line) -> bool {
    next.page == previous.page
        && next.baseline() > previous.baseline()
        && next.x0() < previous.x1()
        && previous.x0() < next.x1()
}

/// The median baseline distance between lines that follow each other in a
/// column with the same font size, in units of that size.
fn usual_spacing(lines: &[Line]) -> f64 {
    let distances: Vec<f64> = lines
        .windows(2)
        .filter(|pair| follows_below(&pair[0], &pair[1]) && !size_changes(&pair[0], &pair[1]))
        .map(|pair| (pair[1].baseline() - pair[0].baseline()) / pair[0].size())
        .collect();
    if distances.is_empty() {
        DEFAULT_SPACING
    } else {
        median(distances.into_iter())
    }
}

fn size_changes(previous: &Line, next: &Line) -> bool {
    let (a, b) = (previous.size(), next.size());
    (a - b).abs() > SIZE_CHANGE * a.max(b)
}

fn starts_paragraph(previous: &Line, next: &Line, previous_text: &str, next_text: &str, spacing: f64) -> bool {
    if !follows_below(previous, next) {
        // A column or page break: the font size and the text tell.
        let sentence_ends = ends_sentence(previous_text) && !next_text.starts_with(char::is_lowercase);
        return size_changes(previous, next) || sentence_ends;
    }
    let em = previous.size().max(next.size());
    let distance = (next.baseline() - previous.baseline()) / previous.size();
    let indent = (next.x0() - previous.x0()) / em;
    let is_indented = (MIN_INDENT..=MAX_INDENT).contains(&indent) && next.x1() >= previous.x1() - em;
    size_changes(previous, next) || distance > PARAGRAPH_GAP * spacing || is_indented
}

fn ends_sentence(text: &str) -> bool {
    let text = text.trim_end_matches(['"', '\'', '”', '’', '»', ')', ']', '」', '』', '）']);
    text.ends_with(['.', '!', '?', ':', '。', '！', '？', '…'])
}

/// The words a document writes, to tell "well-known" from "infor-mation".
struct Vocabulary(HashSet<String>);

impl Vocabulary {
    /// Words inside lines: those at a line's end may be broken.
    fn of(lines: &[String]) -> Self {
        let words = lines
            .iter()
            .flat_map(|line| {
                let words: Vec<&str> = line.split_whitespace().collect();
                let inner = words.len().saturating_sub(1);
                words.into_iter().take(inner)
            })
            .map(|word| bare(word).replace('\u{2010}', "-").to_lowercase())
            .filter(|word| !word.is_empty())
            .collect();
        Self(words)
    }

    fn has(&self, word: &str) -> bool {
        self.0.contains(&word.to_lowercase())
    }
}

/// A word without the punctuation around it.
fn bare(word: &str) -> &str {
    word.trim_matches(|c: char| !c.is_alphanumeric())
}

fn join_lines(lines: &[&str], vocabulary: &Vocabulary) -> String {
    let mut text = String::new();
    for line in lines {
        let line = line.trim();
        if text.is_empty() {
            text.push_str(line);
            continue;
        }
        match line_end_hyphen(&text, line, vocabulary) {
            Some(Hyphen::Drop) => {
                text.pop();
            }
            Some(Hyphen::Keep) => {}
            None if needs_space(&text, line) => text.push(' '),
            None => {}
        }
        text.push_str(line);
    }
    text
}

enum Hyphen {
    Drop,
    Keep,
}

/// What to do with a hyphen that ends `text` before the line `next`.
fn line_end_hyphen(text: &str, next: &str, vocabulary: &Vocabulary) -> Option<Hyphen> {
    if text.ends_with(SOFT_HYPHEN) {
        return Some(Hyphen::Drop);
    }
    let stem = text.strip_suffix(HYPHENS)?;
    let prefix = stem.rsplit(char::is_whitespace).next().unwrap_or_default();
    if !prefix.ends_with(char::is_alphabetic) {
        return None; // a dash standing alone, "10 -", …
    }
    if !next.starts_with(char::is_lowercase) {
        return Some(Hyphen::Keep);
    }
    let rest = next.split_whitespace().next().unwrap_or_default();
    let prefix = prefix.trim_start_matches(|c: char| !c.is_alphanumeric()).replace(SOFT_HYPHEN, "");
    let rest = rest.trim_end_matches(|c: char| !c.is_alphanumeric()).replace(SOFT_HYPHEN, "");
    let written_with_hyphen = vocabulary.has(&format!("{prefix}-{rest}"));
    let written_without = vocabulary.has(&format!("{prefix}{rest}"));
    Some(if written_with_hyphen && !written_without { Hyphen::Keep } else { Hyphen::Drop })
}

fn needs_space(text: &str, next: &str) -> bool {
    let last = text.chars().last();
    let first = next.chars().next();
    !(last.is_some_and(unspaced_script) || first.is_some_and(unspaced_script))
}

/// Soft hyphens left inside words removed, spaces made single.
fn clean(text: &str) -> String {
    collapse_whitespace(&text.replace(SOFT_HYPHEN, ""))
}
