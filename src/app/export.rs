//! A summary as plain text, Markdown or JSON, every sentence with where it
//! came from.

use super::catalogue;
use super::present::{article_label, budget_use, iso_date, language_name, title_of};
use crate::document::{Document, Sentence};
use crate::summarize::Settings;
use crate::text::escape_markdown;
use serde_json::json;

/// Everything an export shows.
pub struct SummaryExport<'a> {
    pub documents: &'a [Document],
    /// Every sentence of the cluster.
    pub sentences: &'a [Sentence],
    /// The summary's sentence ids, in output order.
    pub picked: &'a [usize],
    pub settings: &'a Settings,
    /// Cosine of the summary with the centroid.
    pub score: f32,
    pub cost: usize,
    pub limit: usize,
    /// The reader's pins (in the summary) and strikes (kept out of it).
    pub pinned: &'a [usize],
    pub struck: &'a [usize],
}

/// Why a chosen sentence is where it is, in the exports.
const PINNED: &str = "pinned by the reader: in every summary";
const STRUCK: &str = "struck by the reader: never a candidate";

impl SummaryExport<'_> {
    fn headline(&self) -> String {
        format!(
            "Summary of {} articles — {}, {}, similarity to the centroid {:.3}",
            self.documents.len(),
            catalogue::describe(self.settings.method).label,
            budget_use(self.cost, self.limit, &self.settings.budget),
            self.score
        )
    }

    /// "A2, sentence 3".
    fn source_of(&self, id: usize) -> String {
        let s = &self.sentences[id];
        format!("{}, sentence {}", article_label(s.doc), s.index + 1)
    }

    /// Articles that gave at least one sentence, in article order.
    fn cited_documents(&self) -> Vec<usize> {
        let mut docs: Vec<usize> = self.picked.iter().map(|&id| self.sentences[id].doc).collect();
        docs.sort_unstable();
        docs.dedup();
        docs
    }

    fn document_line(&self, doc: usize) -> String {
        let d = &self.documents[doc];
        let date = d.timestamp.map(|t| format!(", {}", iso_date(t))).unwrap_or_default();
        format!("{} — {}{date}", article_label(doc), title_of(d))
    }

    /// One sentence a line, each followed by its source; then the sources.
    pub fn to_text(&self) -> String {
        let mut out = format!("{}\n\n", self.headline());
        for &id in self.picked {
            let pinned = if self.pinned.contains(&id) { ", pinned" } else { "" };
            out += &format!("{} [{}{pinned}]\n", self.sentences[id].text, self.source_of(id));
        }
        if !self.struck.is_empty() {
            out += "\nStruck by the reader\n";
            for &id in self.struck {
                out += &format!("{} [{}]\n", self.sentences[id].text, self.source_of(id));
            }
        }
        out += "\nSources\n";
        for doc in self.cited_documents() {
            out += &format!("{}\n", self.document_line(doc));
        }
        out
    }

    /// The reader's choices as the JSON export lists them.
    fn choices_json(&self, ids: &[usize], reason: &str) -> Vec<serde_json::Value> {
        ids.iter()
            .map(|&id| {
                let s = &self.sentences[id];
                json!({"text": s.text, "article": s.doc, "article_id": self.documents[s.doc].id, "sentence": s.index, "reason": reason})
            })
            .collect()
    }

    /// The summary as a paragraph with footnotes pointing to the articles.
    pub fn to_markdown(&self) -> String {
        let mut out = format!("## Summary\n\n*{}*\n\n", self.headline());
        let body: Vec<String> = self
            .picked
            .iter()
            .enumerate()
            .map(|(n, &id)| format!("{}[^{}]", escape_markdown(&self.sentences[id].text), n + 1))
            .collect();
        out += &body.join(" ");
        out += "\n\n";
        if !self.pinned.is_empty() || !self.struck.is_empty() {
            let list = |ids: &[usize]| {
                ids.iter()
                    .map(|&id| format!("«{}» ({})", escape_markdown(&self.sentences[id].text), self.source_of(id)))
                    .collect::<Vec<_>>()
                    .join("; ")
            };
            if !self.pinned.is_empty() {
                out += &format!("*Pinned by the reader:* {}\n\n", list(self.pinned));
            }
            if !self.struck.is_empty() {
                out += &format!("*Struck by the reader:* {}\n\n", list(self.struck));
            }
        }
        for (n, &id) in self.picked.iter().enumerate() {
            let s = &self.sentences[id];
            out += &format!(
                "[^{}]: {} «{}», sentence {} ({}).\n",
                n + 1,
                article_label(s.doc),
                escape_markdown(&title_of(&self.documents[s.doc])),
                s.index + 1,
                language_name(&s.lang)
            );
        }
        out
    }

    /// Settings, scores and every sentence with full provenance.
    pub fn to_json(&self) -> String {
        let sentences: Vec<_> = self
            .picked
            .iter()
            .map(|&id| {
                let s = &self.sentences[id];
                let d = &self.documents[s.doc];
                json!({
                    "text": s.text,
                    "lang": s.lang,
                    "words": s.words,
                    "article": s.doc,
                    "article_id": d.id,
                    "article_title": title_of(d),
                    "article_date": d.timestamp.map(iso_date),
                    "sentence": s.index,
                    "paragraph": s.para,
                    "char_start": s.char_start,
                    "char_end": s.char_end,
                })
            })
            .collect();
        let value = json!({
            "generator": "Précis",
            "method": self.settings.method.name(),
            "settings": self.settings,
            "score": self.score,
            "cost": self.cost,
            "limit": self.limit,
            "sentences": sentences,
            "pinned": self.choices_json(self.pinned, PINNED),
            "struck": self.choices_json(self.struck, STRUCK),
        });
        serde_json::to_string_pretty(&value).unwrap_or_default()
    }
}

/// A timeline's updates (the replay's selected sentences) with provenance.
pub struct TimelineExport<'a> {
    pub timeline: &'a crate::stream::timeline::Timeline,
    /// The articles in card order (`StreamArticle::card` indexes them).
    pub documents: &'a [Document],
}

impl TimelineExport<'_> {
    fn updates(&self) -> impl Iterator<Item = &crate::stream::timeline::StreamEvent> {
        self.timeline.events.iter().filter(|e| e.action == crate::stream::Action::Select)
    }

    fn headline(&self) -> String {
        format!(
            "Timeline of {} articles — policy {}{}, {} updates from {} sentences; event: {}",
            self.timeline.articles.len(),
            self.timeline.policy.name().to_uppercase(),
            self.timeline.threshold.map(|t| format!(" at threshold {t:.2}")).unwrap_or_default(),
            self.timeline.updates,
            self.timeline.sentences.len(),
            self.timeline.query
        )
    }

    /// Time, sentence and source of every update, as Markdown.
    pub fn to_markdown(&self) -> String {
        let mut out = format!("## Timeline\n\n*{}*\n\n", escape_markdown(&self.headline()));
        for event in self.updates() {
            let s = &self.timeline.sentences[event.sentence];
            let article = &self.timeline.articles[s.doc];
            let when = match article.date {
                Some(_) => crate::dates::format_time(event.time),
                None => "undated".into(),
            };
            out += &format!(
                "- **{when}** — {} *({}, sentence {}, {})*\n",
                escape_markdown(&s.text),
                article_label(article.card),
                s.index + 1,
                language_name(&s.lang)
            );
        }
        out += "\n### Sources\n\n";
        for article in &self.timeline.articles {
            let d = &self.documents[article.card];
            let date = article.date.map(|t| format!(", {}", iso_date(t))).unwrap_or_default();
            out += &format!("- {} — {}{date}\n", article_label(article.card), escape_markdown(&title_of(d)));
        }
        out
    }

    pub fn to_json(&self) -> String {
        let updates: Vec<serde_json::Value> = self
            .updates()
            .map(|event| {
                let s = &self.timeline.sentences[event.sentence];
                let article = &self.timeline.articles[s.doc];
                let d = &self.documents[article.card];
                json!({
                    "update": event.update.map_or(0, |u| u + 1),
                    "time": event.time,
                    "date": article.date.map(|_| crate::dates::format_time(event.time)),
                    "text": s.text,
                    "lang": s.lang,
                    "reason": event.reason,
                    "source": {
                        "article": article.card + 1,
                        "id": d.id,
                        "title": title_of(d),
                        "date": article.date.map(iso_date),
                        "sentence": s.index + 1,
                        "char_start": s.char_start,
                        "char_end": s.char_end,
                    },
                })
            })
            .collect();
        serde_json::to_string_pretty(&json!({
            "policy": self.timeline.policy,
            "threshold": self.timeline.threshold,
            "query": self.timeline.query,
            "updates": updates,
        }))
        .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::Cluster;
    use crate::summarize::Budget;

    fn cluster() -> Cluster {
        let mut a = Document::new("wire-1", "Dam breaks in Pradella. About 340 people fled.");
        a.title = Some("Dam breaks".into());
        a.timestamp = Some(1_773_100_800); // 2026-03-10
        let b = Document { lang: Some("fr".into()), ..Document::new("b", "Le pont est détruit. Les *secours* arrivent.") };
        Cluster::new(vec![a, b])
    }

    fn export<'a>(c: &'a Cluster, picked: &'a [usize], settings: &'a Settings) -> SummaryExport<'a> {
        SummaryExport { documents: &c.documents, sentences: &c.sentences, picked, settings, score: 0.9123, cost: 9, limit: 12, pinned: &[], struck: &[] }
    }

    #[test]
    fn text_lists_sentences_with_sources() {
        let c = cluster();
        let settings = Settings { budget: Budget::Words(12), ..Default::default() };
        let text = export(&c, &[1, 3], &settings).to_text();
        assert!(text.starts_with("Summary of 2 articles — Beam + greedy, 9 of 12 words, similarity to the centroid 0.912"), "{text}");
        assert!(text.contains("About 340 people fled. [A1, sentence 2]\n"));
        assert!(text.contains("Les *secours* arrivent. [A2, sentence 2]\n"));
        assert!(text.contains("A1 — Dam breaks, 2026-03-10\nA2 — Le pont est détruit. Les *secours* arrivent.\n"), "{text}");
    }

    /// Pins are marked where they stand, strikes listed apart, in every format.
    #[test]
    fn exports_name_the_readers_pins_and_strikes() {
        let c = cluster();
        let settings = Settings { budget: Budget::Words(12), ..Default::default() };
        let chosen = SummaryExport { pinned: &[3], struck: &[1], ..export(&c, &[0, 3], &settings) };
        let text = chosen.to_text();
        assert!(text.contains("Les *secours* arrivent. [A2, sentence 2, pinned]\n"), "{text}");
        assert!(text.contains("\nStruck by the reader\nAbout 340 people fled. [A1, sentence 2]\n"), "{text}");
        let md = chosen.to_markdown();
        assert!(md.contains("*Pinned by the reader:* «Les \\*secours\\* arrivent.» (A2, sentence 2)"), "{md}");
        assert!(md.contains("*Struck by the reader:* «About 340 people fled.» (A1, sentence 2)"), "{md}");
        let value: serde_json::Value = serde_json::from_str(&chosen.to_json()).unwrap();
        assert_eq!(value["pinned"][0]["text"], "Les *secours* arrivent.");
        assert_eq!(value["pinned"][0]["reason"], PINNED);
        assert_eq!(value["struck"][0]["article_id"], "wire-1");
        assert_eq!(value["struck"][0]["reason"], STRUCK);
    }

    #[test]
    fn markdown_uses_footnotes_and_escapes_formatting() {
        let c = cluster();
        let settings = Settings::default();
        let md = export(&c, &[3], &settings).to_markdown();
        assert!(md.contains("Les \\*secours\\* arrivent.[^1]"), "{md}");
        assert!(md.contains("[^1]: A2 «Le pont est détruit. Les \\*secours\\* arrivent.», sentence 2 (French)."), "{md}");
    }

    #[test]
    fn json_keeps_full_provenance() {
        let c = cluster();
        let settings = Settings::default();
        let value: serde_json::Value = serde_json::from_str(&export(&c, &[1], &settings).to_json()).unwrap();
        let s = &value["sentences"][0];
        assert_eq!(s["article_id"], "wire-1");
        assert_eq!(s["article_date"], "2026-03-10");
        assert_eq!(s["sentence"], 1);
        let (start, end) = (s["char_start"].as_u64().unwrap() as usize, s["char_end"].as_u64().unwrap() as usize);
        let text: String = c.documents[0].text.chars().skip(start).take(end - start).collect();
        assert_eq!(text, "About 340 people fled.");
        assert_eq!(value["method"], "bs+gs");
        assert_eq!(value["settings"]["beam_width"], 5);
    }

    #[test]
    fn a_timeline_exports_its_updates_in_time_order_with_sources() {
        use crate::stream::Action;
        use crate::stream::timeline::{StreamArticle, StreamEvent, Timeline};
        let c = cluster();
        let event = |sentence: usize, action: Action, update: Option<usize>| StreamEvent {
            sentence,
            action,
            time: 1_773_100_800,
            reason: "new: closest is update 1 at 0.20 < 0.60".into(),
            update,
            similarity: None,
        };
        // Replay order: the dated article first (card 0), then card 1 undated.
        let timeline = Timeline {
            policy: crate::stream::PolicyKind::Cos,
            threshold: Some(0.6),
            query: "Dam breaks".into(),
            articles: vec![
                StreamArticle { card: 0, date: Some(1_773_100_800), time: 1_773_100_800 },
                StreamArticle { card: 1, date: None, time: 1_773_100_800 },
            ],
            sentences: c.sentences.clone(),
            events: vec![event(0, Action::Select, Some(0)), event(1, Action::Skip, None), event(2, Action::Select, Some(1))],
            updates: 2,
            notes: vec![],
            timing_ms: 0.0,
        };
        let export = TimelineExport { timeline: &timeline, documents: &c.documents };
        let md = export.to_markdown();
        assert!(md.contains("policy COS at threshold 0.60, 2 updates from 4 sentences"), "{md}");
        assert!(md.contains("- **2026-03-10** — Dam breaks in Pradella. *(A1, sentence 1, "), "{md}");
        assert!(md.contains("- **undated** — Le pont est détruit. *(A2, sentence 1, French)*\n"), "{md}");
        let json: serde_json::Value = serde_json::from_str(&export.to_json()).unwrap();
        assert_eq!(json["updates"].as_array().unwrap().len(), 2);
        assert_eq!(json["updates"][0]["source"]["id"], "wire-1");
        assert_eq!(json["updates"][1]["update"], 2);
        assert!(json["updates"][1]["date"].is_null());
    }
}
