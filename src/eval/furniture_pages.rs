//! Scoring the prose filter per language on labelled news pages
//! (`tests/fixtures/furniture/pages/<lang>.jsonl`, see its README): every
//! line of a page is labelled prose or junk, the page is segmented as a
//! user's paste would be (`Cluster::new`, language detected), and each
//! sentence takes the label of the line it comes from.
//!
//! Two measures per language and split, on lines as the issue defines
//! them and on sentences as summaries see them:
//! - **prose lost**: prose lines with any sentence excluded / prose lines
//!   (sentences: prose sentences excluded / prose sentences);
//! - **junk caught**: junk lines with every sentence excluded / junk lines
//!   (sentences: junk sentences excluded / junk sentences).
//!
//! A sentence that runs over a line break into another line (the layout
//! joined two lines) counts as prose when any of its lines is prose: losing
//! it loses prose. A prose line may open with a `lead`, a wire dateline or
//! agency byline glued to its first sentence ("PARIS (Reuters) - ",
//! "(의성=연합뉴스) 김선형 기자 = "): a sentence within it is junk, counted
//! as a junk line of its own, caught when the filter cuts it off and
//! excludes it.

use crate::document::{Cluster, Document};
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Clone, Debug, Deserialize)]
pub struct Page {
    pub id: String,
    pub lang: String,
    pub split: String,
    #[serde(default)]
    pub source: String,
    /// What the page is: article, live-blog, plain, …
    pub page: String,
    pub lines: Vec<PageLine>,
}

#[derive(Clone, Debug, Deserialize)]
pub struct PageLine {
    pub text: String,
    pub label: String,
    #[serde(default)]
    pub kind: Option<String>,
    /// A prose line's glued dateline or byline: the start of `text`.
    #[serde(default)]
    pub lead: Option<String>,
}

impl PageLine {
    pub fn junk(&self) -> bool {
        self.label == "junk"
    }
}

impl Page {
    /// The page as the filter reads it: its lines, one a line.
    pub fn text(&self) -> String {
        self.lines.iter().map(|l| l.text.as_str()).collect::<Vec<_>>().join("\n")
    }

    /// The byte offset where each line starts in [`Page::text`].
    fn line_starts(&self) -> Vec<usize> {
        let mut at = 0;
        self.lines
            .iter()
            .map(|l| {
                let start = at;
                at += l.text.len() + 1;
                start
            })
            .collect()
    }
}

/// Every page of every `*.jsonl` file in `folder`, the files sorted by name.
pub fn read_page_files(folder: &std::path::Path) -> Result<Vec<Page>, String> {
    let entries = std::fs::read_dir(folder).map_err(|e| format!("cannot read {}: {e}", folder.display()))?;
    let mut files = vec![];
    for entry in entries {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.extension().is_some_and(|e| e == "jsonl") {
            let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            files.push((path.display().to_string(), text));
        }
    }
    files.sort();
    parse_pages(&files)
}

/// Every page of every `*.jsonl` text given (one page per line).
pub fn parse_pages(files: &[(String, String)]) -> Result<Vec<Page>, String> {
    let mut pages = vec![];
    for (name, text) in files {
        for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let page: Page = serde_json::from_str(line).map_err(|e| format!("{name}:{}: {e}", n + 1))?;
            if page.lines.iter().any(|l| l.label != "prose" && l.label != "junk") {
                return Err(format!("{name}:{}: a label is neither prose nor junk", n + 1));
            }
            if page.lines.iter().any(|l| l.lead.as_ref().is_some_and(|lead| l.junk() || !l.text.starts_with(lead.as_str()))) {
                return Err(format!("{name}:{}: a lead is not the start of a prose line", n + 1));
            }
            pages.push(page);
        }
    }
    Ok(pages)
}

/// One sentence of a page with the filter's decision.
#[derive(Clone, Debug)]
pub struct JudgedSentence {
    pub page: usize,
    /// The lines it covers (more than one when the layout joined lines).
    pub lines: std::ops::Range<usize>,
    pub text: String,
    /// Within its line's lead (then junk).
    pub lead: bool,
    /// Prose when any line it covers is prose, and not in a lead.
    pub prose: bool,
    /// Alone in its paragraph (the prose reader reads only such sentences).
    pub alone: bool,
    /// The filter's reason, `None` for prose.
    pub excluded: Option<String>,
}

/// Segments every page as one article of a cluster of its own (language
/// detected, as for a paste), lets `read` decide more after the rules (the
/// prose reader, which needs the encoder), and pairs each sentence with
/// its lines' labels.
pub fn judge_pages(
    pages: &[Page],
    mut read: impl FnMut(&mut Cluster) -> Result<(), String>,
) -> Result<Vec<JudgedSentence>, String> {
    let mut judged = vec![];
    for (p, page) in pages.iter().enumerate() {
        let mut cluster = Cluster::new(vec![Document::new(page.id.clone(), page.text())]);
        read(&mut cluster)?;
        let starts = page.line_starts();
        let line_of = |byte: usize| starts.partition_point(|&s| s <= byte).saturating_sub(1);
        let in_paragraph = |para: usize| cluster.sentences.iter().filter(|s| s.para == para).count();
        let alone: Vec<bool> = cluster.sentences.iter().map(|s| in_paragraph(s.para) == 1).collect();
        for (sentence, alone) in cluster.sentences.into_iter().zip(alone) {
            let lines = line_of(sentence.start)..line_of(sentence.end.saturating_sub(1).max(sentence.start)) + 1;
            let first = &page.lines[lines.start];
            let lead = first.lead.as_ref().is_some_and(|lead| sentence.end <= starts[lines.start] + lead.len());
            let prose = !lead && page.lines[lines.clone()].iter().any(|l| !l.junk());
            judged.push(JudgedSentence { page: p, lines, text: sentence.text, lead, prose, alone, excluded: sentence.excluded });
        }
    }
    Ok(judged)
}

/// Counts of one language and split.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Score {
    pub pages: usize,
    pub prose_lines: usize,
    pub prose_lines_lost: usize,
    pub junk_lines: usize,
    pub junk_lines_caught: usize,
    pub prose_sentences: usize,
    pub prose_sentences_lost: usize,
    pub junk_sentences: usize,
    pub junk_sentences_caught: usize,
}

impl Score {
    pub fn prose_lost(&self) -> f64 {
        self.prose_lines_lost as f64 / self.prose_lines.max(1) as f64
    }

    pub fn junk_caught(&self) -> f64 {
        self.junk_lines_caught as f64 / self.junk_lines.max(1) as f64
    }

    pub fn prose_sentences_lost_share(&self) -> f64 {
        self.prose_sentences_lost as f64 / self.prose_sentences.max(1) as f64
    }

    pub fn junk_sentences_caught_share(&self) -> f64 {
        self.junk_sentences_caught as f64 / self.junk_sentences.max(1) as f64
    }

    fn add(&mut self, other: &Score) {
        self.pages += other.pages;
        self.prose_lines += other.prose_lines;
        self.prose_lines_lost += other.prose_lines_lost;
        self.junk_lines += other.junk_lines;
        self.junk_lines_caught += other.junk_lines_caught;
        self.prose_sentences += other.prose_sentences;
        self.prose_sentences_lost += other.prose_sentences_lost;
        self.junk_sentences += other.junk_sentences;
        self.junk_sentences_caught += other.junk_sentences_caught;
    }
}

/// The scores per (language, split), and per language over both splits
/// (split "all").
pub fn scores(pages: &[Page], judged: &[JudgedSentence]) -> BTreeMap<(String, String), Score> {
    let mut per_page: Vec<Score> = pages.iter().map(|_| Score { pages: 1, ..Score::default() }).collect();
    // Per line: excluded sentences and sentences it holds, apart from those
    // of its lead (excluded, sentences).
    let mut line_counts: Vec<Vec<(usize, usize)>> = pages.iter().map(|p| vec![(0, 0); p.lines.len()]).collect();
    let mut lead_counts: Vec<Vec<(usize, usize)>> = line_counts.clone();
    for j in judged {
        let score = &mut per_page[j.page];
        let excluded = j.excluded.is_some();
        if j.prose {
            score.prose_sentences += 1;
            score.prose_sentences_lost += excluded as usize;
        } else {
            score.junk_sentences += 1;
            score.junk_sentences_caught += excluded as usize;
        }
        for line in j.lines.clone() {
            let counts = if j.lead { &mut lead_counts[j.page][line] } else { &mut line_counts[j.page][line] };
            counts.0 += excluded as usize;
            counts.1 += 1;
        }
    }
    for (p, page) in pages.iter().enumerate() {
        for (l, (line, &(excluded, sentences))) in page.lines.iter().zip(&line_counts[p]).enumerate() {
            let score = &mut per_page[p];
            if line.lead.is_some() {
                // The lead is a junk line of its own, caught only when cut off and excluded.
                let (lead_excluded, lead_sentences) = lead_counts[p][l];
                score.junk_lines += 1;
                score.junk_lines_caught += (lead_sentences > 0 && lead_excluded == lead_sentences) as usize;
            }
            if line.junk() {
                score.junk_lines += 1;
                score.junk_lines_caught += (sentences > 0 && excluded == sentences) as usize;
            } else {
                score.prose_lines += 1;
                score.prose_lines_lost += (excluded > 0) as usize;
            }
        }
    }
    let mut out: BTreeMap<(String, String), Score> = BTreeMap::new();
    for (page, score) in pages.iter().zip(&per_page) {
        for split in [page.split.as_str(), "all"] {
            out.entry((page.lang.clone(), split.to_string())).or_default().add(score);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(lines: &[(&str, &str)]) -> Page {
        Page {
            id: "en-01".into(),
            lang: "en".into(),
            split: "test".into(),
            source: "written".into(),
            page: "article".into(),
            lines: lines
                .iter()
                .map(|(text, label)| PageLine { text: text.to_string(), label: label.to_string(), kind: None, lead: None })
                .collect(),
        }
    }

    /// A headline, a credit, a prose paragraph of two sentences and a
    /// short prose line: what the rules exclude is counted per line and
    /// per sentence, each sentence under its own line's label.
    #[test]
    fn sentences_take_their_lines_labels() {
        let pages = vec![page(&[
            ("Storm closes schools across the region", "junk"),
            ("(Photo: Jane Doe/Reuters)", "junk"),
            ("Schools in dozens of districts announced closures for Tuesday. The storm is expected to bring 30 centimetres of snow by the evening.", "prose"),
            ("Officials said the roads would be cleared by Wednesday morning at the latest.", "prose"),
        ])];
        let judged = judge_pages(&pages, |_| Ok(())).unwrap();
        assert_eq!(judged.len(), 5);
        assert_eq!(judged.iter().map(|j| j.lines.start).collect::<Vec<_>>(), [0, 1, 2, 2, 3]);
        assert_eq!(judged.iter().map(|j| j.prose).collect::<Vec<_>>(), [false, false, true, true, true]);
        let score = scores(&pages, &judged)[&("en".to_string(), "test".to_string())];
        assert_eq!((score.prose_lines, score.junk_lines, score.prose_sentences, score.junk_sentences), (2, 2, 3, 2));
        let all = scores(&pages, &judged)[&("en".to_string(), "all".to_string())];
        assert_eq!(all, score);
        // Whatever the filter decides, the counts agree with the sentences' reasons.
        let lost = judged.iter().filter(|j| j.prose && j.excluded.is_some()).count();
        assert_eq!(score.prose_sentences_lost, lost);
    }

    /// A prose line counts as lost when any of its sentences is excluded;
    /// a junk line counts as caught only when all of its are.
    #[test]
    fn lines_are_lost_by_any_sentence_and_caught_by_all() {
        let pages = vec![page(&[("One. Two.", "prose"), ("Three. Four.", "junk")])];
        let judged = vec![
            JudgedSentence { page: 0, lines: 0..1, text: "One.".into(), lead: false, alone: false, prose: true, excluded: Some("x".into()) },
            JudgedSentence { page: 0, lines: 0..1, text: "Two.".into(), lead: false, alone: false, prose: true, excluded: None },
            JudgedSentence { page: 0, lines: 1..2, text: "Three.".into(), lead: false, alone: false, prose: false, excluded: Some("x".into()) },
            JudgedSentence { page: 0, lines: 1..2, text: "Four.".into(), lead: false, alone: false, prose: false, excluded: None },
        ];
        let score = scores(&pages, &judged)[&("en".to_string(), "test".to_string())];
        assert_eq!((score.prose_lines_lost, score.junk_lines_caught), (1, 0));
        assert_eq!((score.prose_sentences_lost, score.junk_sentences_caught), (1, 1));
        assert_eq!(score.prose_lost(), 1.0);
        assert_eq!(score.junk_caught(), 0.0);
    }

    /// "PARIS (Reuters) - " glued to a lead: the splitter cuts it off, and
    /// the cut label is a junk line of its own while the lead stays prose.
    #[test]
    fn a_glued_dateline_is_junk_and_its_lead_prose() {
        let mut pages = vec![page(&[(
            "PARIS (Reuters) - France's Carmat said on Monday it had raised 50 million euros to fund the trial of its artificial heart.",
            "prose",
        )])];
        pages[0].lines[0].lead = Some("PARIS (Reuters) - ".into());
        let judged = judge_pages(&pages, |_| Ok(())).unwrap();
        assert_eq!(judged.iter().map(|j| (j.lead, j.prose)).collect::<Vec<_>>(), [(true, false), (false, true)]);
        let score = scores(&pages, &judged)[&("en".to_string(), "test".to_string())];
        assert_eq!((score.prose_lines, score.junk_lines, score.junk_sentences, score.prose_sentences), (1, 1, 1, 1));
    }

    #[test]
    fn labels_other_than_prose_and_junk_are_refused() {
        let files = vec![("x.jsonl".to_string(), r#"{"id":"x-01","lang":"x","split":"dev","page":"plain","lines":[{"text":"A.","label":"maybe"}]}"#.to_string())];
        assert!(parse_pages(&files).unwrap_err().contains("neither prose nor junk"));
    }
}
