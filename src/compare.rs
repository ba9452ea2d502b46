//! Methods side by side (the classroom of issue #18): two to four methods
//! run on one embedded cluster with the same settings; each column has its
//! summary, its own objective, its length and, with a reference, ROUGE-1/2;
//! sentences that several methods picked are counted.
//!
//! `precis compare` and the app's worker both compare through [`compare`].
//! The texts to embed are the union of what the methods need
//! ([`texts_to_embed`]) and are embedded once, so a comparison costs
//! selection time only.

use crate::document::{Cluster, Sentence};
use crate::eval::reference::{rouge_of_picked, RougeResult};
use crate::registry;
use crate::select::topic::TopicTexts;
use crate::select::Trace;
use crate::summarize::{summarize, Method, Settings, Summary, SummaryRequest, SummaryTexts};
use crate::text::escape_markdown;
use anyhow::{bail, Result};
use serde::{Deserialize, Serialize};

/// How many methods a comparison shows: enough to contrast, few enough
/// for columns side by side.
pub const FEWEST_METHODS: usize = 2;
pub const MOST_METHODS: usize = 4;

/// Refuses fewer than two methods, more than four, or one chosen twice.
pub fn check_methods(methods: &[Method]) -> Result<()> {
    if !(FEWEST_METHODS..=MOST_METHODS).contains(&methods.len()) {
        bail!("Choose two to four methods to compare ({} chosen).", methods.len());
    }
    if let Some((i, m)) = methods.iter().enumerate().find(|(i, m)| methods[..*i].contains(m)) {
        bail!("{m} is chosen twice (as method {}).", i + 1);
    }
    Ok(())
}

/// What the methods need embedded beside the sentences, together: the
/// reference (the oracle's centroid, ROUGE) and the topic texts if any
/// method compares with the topic or is steered by it.
pub fn texts_to_embed(cluster: &Cluster, settings: &Settings, methods: &[Method], reference: Vec<String>) -> SummaryTexts {
    let needs_topic = methods.iter().any(|&method| method.uses_topic() || Settings { method, ..settings.clone() }.steers());
    SummaryTexts { reference, topic: needs_topic.then(|| TopicTexts::new(cluster, settings.topic.as_deref())) }
}

/// What a method maximizes, as it scores its own summary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Objective {
    /// Cosine of the summary's embedding sum with the (method's) centroid.
    CentroidSimilarity,
    /// Sum of the picked sentences' MMR totals when they were picked.
    MmrTotal,
}

impl Objective {
    pub fn label(self) -> &'static str {
        match self {
            Objective::CentroidSimilarity => "centroid similarity",
            Objective::MmrTotal => "MMR total",
        }
    }
}

/// A picked sentence, with how many of the compared methods picked it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Pick {
    /// Sentence id in the cluster.
    pub id: usize,
    /// Article (0-based) and sentence in it (0-based).
    pub doc: usize,
    pub index: usize,
    pub lang: String,
    pub text: String,
    pub picked_by: usize,
    /// Pinned by the reader (so every method has it).
    #[serde(default)]
    pub pinned: bool,
}

/// One method's summary and its numbers.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Column {
    pub method: Method,
    /// In the method's output order.
    pub sentences: Vec<Pick>,
    pub objective: Objective,
    pub objective_value: f32,
    pub words: usize,
    /// Budget used and available (words, or sentences for sentence budgets).
    pub cost: usize,
    pub limit: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rouge: Option<RougeResult>,
    pub notes: Vec<String>,
    /// Centroid and selection (embedding is shared and not counted).
    pub select_ms: f64,
}

/// Methods run side by side on the same articles and settings.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Comparison {
    /// The settings every method ran with (`method` aside).
    pub settings: Settings,
    /// The articles' ids, in order (`Pick::doc` indexes them).
    pub documents: Vec<String>,
    pub columns: Vec<Column>,
    /// The reader's choices every method ran with: sentence ids pinned and
    /// struck.
    #[serde(default)]
    pub pinned: Vec<usize>,
    #[serde(default)]
    pub struck: Vec<usize>,
}

/// Runs each method on the request's embedded cluster (the request's own
/// method is ignored); `reference` (the reference's sentences, empty for
/// none) adds ROUGE; `now` reads milliseconds.
pub fn compare(request: &SummaryRequest, methods: &[Method], reference: &[String], now: &dyn Fn() -> f64) -> Result<Comparison> {
    check_methods(methods)?;
    let cluster = request.cluster;
    let mut runs = vec![];
    for &method in methods {
        let settings = Settings { method, ..request.settings.clone() };
        let started = now();
        let summary = summarize(&SummaryRequest { settings: &settings, ..*request })
            .map_err(|e| e.context(format!("{}", registry::method(method).label)))?;
        runs.push((method, summary, now() - started));
    }
    let picked_by = |id: usize| runs.iter().filter(|(_, s, _)| s.sentences.contains(&id)).count();
    let columns = runs
        .iter()
        .map(|(method, summary, select_ms)| {
            let picked: Vec<&Sentence> = summary.sentences.iter().map(|&id| &cluster.sentences[id]).collect();
            let (objective, objective_value) = objective_of(*method, summary);
            Column {
                method: *method,
                sentences: summary.sentences.iter().zip(&picked).map(|(&id, s)| pick(id, s, picked_by(id), summary.pinned.contains(&id))).collect(),
                objective,
                objective_value,
                words: picked.iter().map(|s| s.words).sum(),
                cost: summary.cost,
                limit: summary.limit,
                rouge: (!reference.is_empty()).then(|| rouge_of_picked(&picked, reference)),
                notes: summary.notes.clone(),
                select_ms: *select_ms,
            }
        })
        .collect();
    // Every method ran on the same choices; the first run reports them.
    let (pinned, struck) = runs.first().map(|(_, s, _)| (s.pinned.clone(), s.struck.clone())).unwrap_or_default();
    Ok(Comparison {
        settings: request.settings.clone(),
        documents: cluster.documents.iter().map(|d| d.id.clone()).collect(),
        columns,
        pinned,
        struck,
    })
}

fn pick(id: usize, s: &Sentence, picked_by: usize, pinned: bool) -> Pick {
    Pick { id, doc: s.doc, index: s.index, lang: s.lang.clone(), text: s.text.clone(), picked_by, pinned }
}

/// MMR and TBMMR maximize their greedy totals; every other method the
/// similarity to its centroid.
fn objective_of(method: Method, summary: &Summary) -> (Objective, f32) {
    match &summary.trace {
        Trace::Mmr(trace) if method.uses_topic() => {
            let picked_rows = trace.steps.iter().flat_map(|step| step.candidates.iter().filter(|row| row.picked));
            (Objective::MmrTotal, picked_rows.map(|row| row.total).sum())
        }
        _ => (Objective::CentroidSimilarity, summary.score),
    }
}

/// A share as a percentage with one decimal.
fn percent(share: f64) -> String {
    format!("{:.1}%", share * 100.0)
}

impl Comparison {
    /// Whether ROUGE was computed (a reference was given).
    pub fn has_rouge(&self) -> bool {
        self.columns.iter().any(|c| c.rouge.is_some())
    }

    /// Sentences picked by more than one method, first seen first, with
    /// the methods that picked them.
    pub fn shared(&self) -> Vec<(&Pick, Vec<Method>)> {
        let mut shared: Vec<(&Pick, Vec<Method>)> = vec![];
        for column in &self.columns {
            for pick in column.sentences.iter().filter(|p| p.picked_by > 1) {
                match shared.iter_mut().find(|(p, _)| p.id == pick.id) {
                    Some((_, methods)) => methods.push(column.method),
                    None => shared.push((pick, vec![column.method])),
                }
            }
        }
        shared
    }

    /// A table of the numbers, then each method's summary and the
    /// sentences several methods picked.
    pub fn to_markdown(&self) -> String {
        let rouge = self.has_rouge();
        let mut out = format!(
            "## Methods compared\n\n*{} articles, budget {}, the same settings for every method.*\n\n",
            self.documents.len(),
            self.settings.budget.describe()
        );
        if !self.pinned.is_empty() || !self.struck.is_empty() {
            out += &format!("*Every method kept the reader's choices: {} pinned, {} struck.*\n\n", self.pinned.len(), self.struck.len());
        }
        out += "| Method | Objective | Words |";
        out += if rouge { " ROUGE-1 R / F | ROUGE-2 R / F |\n|---|---|---:|---:|---:|\n" } else { "\n|---|---|---:|\n" };
        for c in &self.columns {
            out += &format!("| {} | {} {:.3} | {} |", heading(c.method), c.objective.label(), c.objective_value, c.words);
            if let Some(r) = &c.rouge {
                let both = |p: crate::eval::rouge::Prf| format!(" {} / {} |", percent(p.recall), percent(p.f));
                out += &(both(r.rouge_1) + &both(r.rouge_2));
            }
            out += "\n";
        }
        for c in &self.columns {
            out += &format!("\n### {}\n\n", heading(c.method));
            for (n, p) in c.sentences.iter().enumerate() {
                let mut shared = if p.picked_by > 1 { format!("; picked by {}", p.picked_by) } else { String::new() };
                if p.pinned {
                    shared += "; pinned";
                }
                out += &format!("{}. {} *(article {}, sentence {}{shared})*\n", n + 1, escape_markdown(&p.text), p.doc + 1, p.index + 1);
            }
            for note in &c.notes {
                out += &format!("\n> {}\n", escape_markdown(note));
            }
        }
        let shared = self.shared();
        if !shared.is_empty() {
            out += "\n### Picked by several methods\n\n";
            for (p, methods) in shared {
                let names: Vec<&str> = methods.iter().map(|m| m.name()).collect();
                out += &format!("- {} — {}\n", escape_markdown(&p.text), names.join(", "));
            }
        }
        out
    }

    /// Pretty JSON. Written compact first, then re-indented as a `Value`:
    /// in the app both of those serializers are already there (messages,
    /// other exports), where pretty-printing `self` directly would add a
    /// third copy of every serialization routine to the bundle.
    pub fn to_json(&self) -> String {
        let compact = serde_json::to_string(self).unwrap_or_default();
        serde_json::from_str::<serde_json::Value>(&compact)
            .and_then(|value| serde_json::to_string_pretty(&value))
            .unwrap_or(compact)
    }
}

/// "Beam + greedy (bs+gs)".
fn heading(method: Method) -> String {
    format!("{} ({})", registry::method(method).label, method.name())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::centroid::mean_of;
    use crate::select::{dot, norm};
    use crate::summarize::tests::{rules_only, storm_and_curfew};
    use crate::summarize::Budget;

    fn settings() -> Settings {
        Settings { budget: Budget::Sentences(1), topic: Some("What about the curfew?".into()), ..rules_only() }
    }

    const CLASS: [Method; 3] = [Method::Greedy, Method::BeamGreedy, Method::Mmr];

    fn run(reference: &[String]) -> Comparison {
        let (c, e, question) = storm_and_curfew();
        let settings = settings();
        let request = SummaryRequest { topic: Some(&question), ..SummaryRequest::new(&c, &e, &settings) };
        compare(&request, &CLASS, reference, &|| 0.0).unwrap()
    }

    #[test]
    fn each_method_gets_a_column_with_its_own_objective() {
        let comparison = run(&[]);
        let methods: Vec<Method> = comparison.columns.iter().map(|c| c.method).collect();
        assert_eq!(methods, CLASS);
        let picks: Vec<Vec<usize>> = comparison.columns.iter().map(|c| c.sentences.iter().map(|p| p.id).collect()).collect();
        // The storm sentences tie on the mean centroid (the first wins); MMR answers the topic.
        assert_eq!(picks, vec![vec![0], vec![0], vec![3]]);
        let (_, e, question) = storm_and_curfew();
        let centroid = mean_of(&e);
        let similarity = dot(&e[0], &centroid) / norm(&centroid);
        for column in &comparison.columns[..2] {
            assert_eq!(column.objective, Objective::CentroidSimilarity);
            assert!((column.objective_value - similarity).abs() < 1e-5, "{column:?}");
        }
        let mmr = &comparison.columns[2];
        assert_eq!(mmr.objective, Objective::MmrTotal);
        // One pick, nothing picked before it: λ · relevance to the topic.
        let relevance = dot(&e[3], &question.given[0]);
        assert!((mmr.objective_value - 0.8 * relevance).abs() < 1e-5, "{} vs {}", mmr.objective_value, 0.8 * relevance);
        assert_eq!(comparison.columns.iter().map(|c| c.words).collect::<Vec<_>>(), vec![7, 7, 7]);
        assert_eq!(comparison.documents, vec!["a".to_string(), "b".to_string()]);
    }

    #[test]
    fn every_method_runs_with_the_same_pins_and_strikes() {
        let (mut c, e, question) = storm_and_curfew();
        // Strike what the centroid methods picked (0) and what MMR picked (3); pin the roofs (1).
        c.documents[0].struck = vec!["The storm hit the coast at dawn.".into()];
        c.documents[1].struck = vec!["The mayor ordered a curfew from nine.".into()];
        c.documents[0].pinned = vec!["Winds tore roofs off many houses.".into()];
        let settings = Settings { budget: Budget::Sentences(2), ..settings() };
        let request = SummaryRequest { topic: Some(&question), ..SummaryRequest::new(&c, &e, &settings) };
        let comparison = compare(&request, &CLASS, &[], &|| 0.0).unwrap();
        assert_eq!((comparison.pinned.clone(), comparison.struck.clone()), (vec![1], vec![0, 3]));
        for column in &comparison.columns {
            let ids: Vec<usize> = column.sentences.iter().map(|p| p.id).collect();
            assert_eq!(ids.len(), 2, "{:?}", column.method);
            assert!(ids.contains(&1) && !ids.contains(&0) && !ids.contains(&3), "{:?}: {ids:?}", column.method);
            assert!(column.sentences.iter().all(|p| p.pinned == (p.id == 1)));
        }
        assert!(comparison.to_markdown().contains("Every method kept the reader's choices: 1 pinned, 2 struck."));
        assert!(comparison.to_markdown().contains("sentence 2; picked by 3; pinned)"));
    }

    #[test]
    fn sentences_several_methods_picked_are_marked() {
        let comparison = run(&[]);
        let counts: Vec<usize> = comparison.columns.iter().map(|c| c.sentences[0].picked_by).collect();
        assert_eq!(counts, vec![2, 2, 1]);
        let shared = comparison.shared();
        assert_eq!(shared.len(), 1);
        assert_eq!(shared[0].0.text, "The storm hit the coast at dawn.");
        assert_eq!(shared[0].1, vec![Method::Greedy, Method::BeamGreedy]);
    }

    #[test]
    fn rouge_only_with_a_reference() {
        assert!(run(&[]).columns.iter().all(|c| c.rouge.is_none()));
        let comparison = run(&["The mayor ordered a curfew from nine.".to_string()]);
        let recall: Vec<f64> = comparison.columns.iter().map(|c| c.rouge.as_ref().unwrap().rouge_1.recall).collect();
        assert!((recall[2] - 1.0).abs() < 1e-9, "{recall:?}");
        assert!(recall[0] < 0.5, "{recall:?}");
        assert!(comparison.has_rouge());
    }

    #[test]
    fn two_to_four_distinct_methods() {
        assert!(check_methods(&[Method::Greedy]).unwrap_err().to_string().contains("two to four"));
        assert!(check_methods(&[Method::Greedy; 5][..]).is_err());
        let twice = check_methods(&[Method::Greedy, Method::Beam, Method::Greedy]).unwrap_err().to_string();
        assert!(twice.contains("gg is chosen twice"), "{twice}");
        assert!(check_methods(&[Method::Greedy, Method::Mmr]).is_ok());
    }

    #[test]
    fn the_texts_to_embed_are_what_any_method_needs_once() {
        let (c, _, _) = storm_and_curfew();
        let plain = Settings { topic: None, ..settings() };
        let centroid_only = texts_to_embed(&c, &plain, &[Method::Greedy, Method::Beam], vec![]);
        assert!(centroid_only.topic.is_none());
        assert_eq!(centroid_only.texts(&c).count(), 4);
        let with_mmr = texts_to_embed(&c, &settings(), &CLASS, vec!["A curfew.".into()]);
        let texts: Vec<&str> = with_mmr.texts(&c).collect();
        assert_eq!(texts.len(), 4 + 1 + 1, "{texts:?}");
        let steered = Settings { topic_weight: 0.5, ..settings() };
        assert!(texts_to_embed(&c, &steered, &[Method::Greedy, Method::Beam], vec![]).topic.is_some());
    }

    #[test]
    fn a_method_that_cannot_run_names_itself() {
        let (c, e, question) = storm_and_curfew();
        let settings = settings();
        let request = SummaryRequest { topic: Some(&question), ..SummaryRequest::new(&c, &e, &settings) };
        let message = format!("{:#}", compare(&request, &[Method::Greedy, Method::Oracle], &[], &|| 0.0).unwrap_err());
        assert!(message.starts_with("Oracle"), "{message}");
    }

    #[test]
    fn markdown_and_json_exports() {
        let plain = run(&[]).to_markdown();
        assert!(plain.contains("| Method | Objective | Words |\n"), "{plain}");
        assert!(!plain.contains("ROUGE"), "{plain}");
        assert!(plain.contains("| Greedy (gg) | centroid similarity 0."), "{plain}");
        assert!(plain.contains("| MMR (mmr) | MMR total 0."), "{plain}");
        assert!(plain.contains("1. The storm hit the coast at dawn. *(article 1, sentence 1; picked by 2)*"), "{plain}");
        assert!(plain.contains("### Picked by several methods\n\n- The storm hit the coast at dawn. — gg, bs+gs\n"), "{plain}");
        let scored = run(&["The mayor ordered a curfew from nine.".to_string()]);
        assert!(scored.to_markdown().contains("| 100.0% / "), "{}", scored.to_markdown());
        let json: serde_json::Value = serde_json::from_str(&scored.to_json()).unwrap();
        assert_eq!(json["columns"][2]["method"], "mmr");
        assert_eq!(json["columns"][2]["objective"], "mmr_total");
        assert_eq!(json["columns"][0]["sentences"][0]["picked_by"], 2);
        assert!(json["columns"][0]["rouge"]["rouge_2"]["recall"].is_number());
        let back: Comparison = serde_json::from_str(&scored.to_json()).unwrap();
        assert_eq!(back.columns.len(), 3);
    }
}
