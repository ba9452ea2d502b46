//! The worker's work, free of browser code so it is tested natively: check a
//! job, split it, know which sentences still need an embedding, and turn
//! embeddings into a summary with its map and scores.
//!
//! Encoding sits between `prepare` and `finish` and is done by the caller,
//! which can then report progress and keep the embeddings for later jobs.

use super::protocol::{ArticleFacts, ComparisonResult, Job, SummaryResult, Timing};
use crate::centroid::Heads;
use crate::compare;
use crate::document::{Cluster, Document, Sentence};
use crate::encoder::EmbeddingCache;
use crate::eval::reference::rouge_of_picked;
use crate::document::check_total_text;
use crate::project;
use crate::segment;
use crate::summarize::{estimate_centroid, select_towards, sentences_as_read, Method, SummaryTexts};

/// A checked and split job.
pub struct Prepared {
    pub cluster: Cluster,
    /// The reference's sentences and the topic texts, embedded with the
    /// cluster's sentences.
    pub extra: SummaryTexts,
    job: Job,
}

impl Prepared {
    /// Every text the summary needs embedded: the cluster's sentences, the
    /// reference's, then the topic's and the headlines.
    pub fn texts(&self) -> impl Iterator<Item = &str> {
        self.extra.texts(&self.cluster)
    }
}

/// Checks a job and splits its documents; errors are for the user.
pub fn prepare(job: Job) -> Result<Prepared, String> {
    let (cluster, reference) = check_and_split(&job, &[job.settings.method])?;
    let extra = SummaryTexts::new(&cluster, &job.settings, reference);
    Ok(Prepared { cluster, extra, job })
}

/// Checks a comparison of `methods` on the job's articles and settings;
/// what every method needs is embedded together, once.
pub fn prepare_comparison(job: Job, methods: &[Method]) -> Result<Prepared, String> {
    compare::check_methods(methods).map_err(|e| e.to_string())?;
    let (cluster, reference) = check_and_split(&job, methods)?;
    let extra = compare::texts_to_embed(&cluster, &job.settings, methods, reference);
    Ok(Prepared { cluster, extra, job })
}

/// The job's cluster and reference sentences, or what is wrong with the
/// job for these methods.
fn check_and_split(job: &Job, methods: &[Method]) -> Result<(Cluster, Vec<String>), String> {
    if job.documents.is_empty() {
        return Err("Add at least one article first.".into());
    }
    check_total_text(&job.documents)?;
    let reference: Vec<String> = job
        .reference
        .as_deref()
        .map(|text| segment::split(text).into_iter().map(|s| s.text).collect())
        .unwrap_or_default();
    if let Some(method) = methods.iter().find(|m| m.needs_reference()).filter(|_| reference.is_empty()) {
        return Err(format!(
            "The {} method needs a reference summary: write or paste one under “Reference summary”, or pick another method.",
            method.name()
        ));
    }
    let cluster = Cluster::new(job.documents.clone());
    if cluster.sentences.is_empty() {
        return Err("The articles contain no sentences to summarize (no letters or digits were found).".into());
    }
    Ok((cluster, reference))
}

/// Runs the method on the embedded cluster with the trained heads CeRA
/// and CeRAI need; `timing` is passed through, with the centroid step's
/// time (`now` reads milliseconds) in `centroid_ms`.
pub fn finish(
    prepared: &Prepared,
    cache: &EmbeddingCache,
    mut timing: Timing,
    heads: &Heads,
    now: &dyn Fn() -> f64,
) -> Result<SummaryResult, String> {
    let Prepared { cluster, extra, job } = prepared;
    let embedded = extra.embedded(cluster, |text| cache.get(text)).map_err(|e| e.to_string())?;
    let request = embedded.request(cluster, &job.settings, Some(heads));
    let centroid_started = now();
    let centroid = estimate_centroid(&request).map_err(|e| e.to_string())?;
    timing.centroid_ms = now() - centroid_started;
    let summary = select_towards(&request, centroid).map_err(|e| e.to_string())?;
    let projection = project::project(&embedded.sentences, &summary.centroid.vector, summary.centroid.steering.as_ref());
    let reference = &extra.reference;
    let rouge = (!reference.is_empty()).then(|| {
        let picked: Vec<&Sentence> = summary.sentences.iter().map(|&s| &cluster.sentences[s]).collect();
        rouge_of_picked(&picked, reference)
    });
    Ok(SummaryResult { sentences: sentences_as_read(cluster, &summary), summary, projection, rouge, timing })
}

/// Said when ROUGE stems English without WordNet's exception list (the app
/// could not download it).
pub const PARTIAL_STEMMING_NOTE: &str =
    "ROUGE stemmed English without WordNet's list of irregular words (it could not be downloaded), so scores may differ slightly from ROUGE-1.5.5's.";

/// Runs every method of a comparison on the embedded cluster (see
/// [`compare::compare`]); `timing` is passed through.
pub fn finish_comparison(
    prepared: &Prepared,
    methods: &[Method],
    cache: &EmbeddingCache,
    timing: Timing,
    heads: &Heads,
    now: &dyn Fn() -> f64,
) -> Result<ComparisonResult, String> {
    let Prepared { cluster, extra, job } = prepared;
    let embedded = extra.embedded(cluster, |text| cache.get(text)).map_err(|e| e.to_string())?;
    let request = embedded.request(cluster, &job.settings, Some(heads));
    let comparison = compare::compare(&request, methods, &extra.reference, now).map_err(|e| format!("{e:#}"))?;
    Ok(ComparisonResult { comparison, timing })
}

/// Languages, words and sentences of one article.
pub fn describe(document: &Document) -> ArticleFacts {
    let cluster = Cluster::new(vec![document.clone()]);
    let mut words_by_language = cluster.words_by_language();
    words_by_language.sort_by(|a, b| b.1.cmp(&a.1));
    let mut languages: Vec<String> = words_by_language.into_iter().map(|(lang, _)| lang.to_string()).collect();
    if languages.len() > 1 {
        languages.retain(|lang| lang != segment::UNDETERMINED);
    }
    ArticleFacts { languages, words: cluster.total_words(), sentences: cluster.sentences.len() }
}

/// Whether the method can run with what the user gave.
pub fn method_available(method: Method, has_reference: bool) -> bool {
    !method.needs_reference() || has_reference
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::encoder::fake_embedding;
    use crate::summarize::{Budget, Settings};

    fn embed_all(prepared: &Prepared, cache: &mut EmbeddingCache) -> usize {
        let missing = cache.missing(prepared.texts());
        cache.make_room(missing.len());
        let embeddings = missing.iter().map(|t| fake_embedding(t)).collect();
        let count = missing.len();
        cache.insert(missing, embeddings);
        count
    }

    fn job(settings: Settings, reference: Option<&str>) -> Job {
        Job {
            documents: vec![
                Document::new("a", "The dam broke on Monday. Water flooded the valley. Hundreds fled the village."),
                Document::new("b", "Le barrage a cédé lundi. L'eau a inondé la vallée."),
                Document::new("c", "The valley flooded after the dam broke. Rescuers searched the village."),
            ],
            settings,
            reference: reference.map(str::to_string),
        }
    }

    #[test]
    fn a_job_becomes_a_summary_within_budget_with_its_map() {
        let settings = Settings { budget: Budget::Words(12), ..Default::default() };
        let prepared = prepare(job(settings, None)).unwrap();
        let mut cache = EmbeddingCache::default();
        assert_eq!(embed_all(&prepared, &mut cache), 7);
        let result = finish(&prepared, &cache, Timing::default(), &Heads::default(), &|| 0.0).unwrap();
        assert!(!result.summary.sentences.is_empty());
        assert!(result.summary.cost <= 12);
        let words: usize = result.summary.sentences.iter().map(|&s| result.sentences[s].words).sum();
        assert_eq!(words, result.summary.cost);
        assert_eq!(result.projection.points.len(), result.sentences.len());
        assert!(result.rouge.is_none());
    }

    #[test]
    fn embeddings_are_reused_across_jobs() {
        let mut cache = EmbeddingCache::default();
        let first = prepare(job(Settings::default(), None)).unwrap();
        embed_all(&first, &mut cache);
        let mut second_job = job(Settings { beam_width: 2, ..Default::default() }, None);
        second_job.documents.push(Document::new("d", "A new sentence arrives. The dam broke on Monday."));
        let second = prepare(second_job).unwrap();
        assert_eq!(cache.missing(second.texts()), vec!["A new sentence arrives.".to_string()]);
    }

    #[test]
    fn a_reference_enables_the_oracle_and_rouge() {
        let reference = "The dam broke and the valley flooded.";
        let oracle = Settings { method: Method::Oracle, ..crate::summarize::tests::rules_only() };
        let prepared = prepare(job(oracle, Some(reference))).unwrap();
        let mut cache = EmbeddingCache::default();
        embed_all(&prepared, &mut cache);
        let result = finish(&prepared, &cache, Timing::default(), &Heads::default(), &|| 0.0).unwrap();
        let rouge = result.rouge.expect("ROUGE with a reference");
        assert!(rouge.rouge_1.recall > 0.0 && rouge.rouge_1.recall <= 1.0);
        assert!(rouge.rouge_2.recall <= rouge.rouge_1.recall);
    }

    #[test]
    fn the_oracle_without_reference_says_what_to_do() {
        let oracle = Settings { method: Method::Oracle, ..Default::default() };
        let message = prepare(job(oracle.clone(), None)).err().unwrap();
        assert!(message.contains("reference summary"), "{message}");
        assert!(prepare(job(oracle, Some("  "))).is_err());
        assert!(!method_available(Method::Oracle, false));
        assert!(method_available(Method::Greedy, false));
    }

    #[test]
    fn empty_and_oversized_jobs_are_refused_in_plain_words() {
        let mut empty = job(Settings::default(), None);
        empty.documents.clear();
        assert_eq!(prepare(empty).err().unwrap(), "Add at least one article first.");
        let mut punctuation = job(Settings::default(), None);
        punctuation.documents = vec![Document::new("x", "... !!! ---")];
        assert!(prepare(punctuation).err().unwrap().contains("no sentences"));
        let mut huge = job(Settings::default(), None);
        huge.documents = vec![Document::new("x", "word ".repeat(crate::limits::MAX_TOTAL_BYTES / 5 + 1))];
        let message = prepare(huge).err().unwrap();
        assert!(message.contains("2.1 MB") && message.contains("at most"), "{message}");
    }

    #[test]
    fn a_budget_below_every_sentence_comes_back_as_a_note() {
        let settings = Settings { budget: Budget::Words(2), ..Default::default() };
        let prepared = prepare(job(settings, None)).unwrap();
        let mut cache = EmbeddingCache::default();
        embed_all(&prepared, &mut cache);
        let result = finish(&prepared, &cache, Timing::default(), &Heads::default(), &|| 0.0).unwrap();
        assert!(result.summary.sentences.is_empty());
        assert!(result.summary.notes.iter().any(|n| n.contains("Raise the budget")), "{:?}", result.summary.notes);
    }

    #[test]
    fn topic_methods_embed_the_topic_and_trace_every_step() {
        let settings = Settings {
            method: Method::Tbmmr,
            topic: Some("The dam broke.".into()),
            budget: Budget::Words(20),
            ..Default::default()
        };
        let prepared = prepare(job(settings, None)).unwrap();
        assert!(prepared.texts().any(|t| t == "The dam broke."));
        let mut cache = EmbeddingCache::default();
        embed_all(&prepared, &mut cache);
        let result = finish(&prepared, &cache, Timing::default(), &Heads::default(), &|| 0.0).unwrap();
        let crate::select::Trace::Mmr(trace) = &result.summary.trace else { panic!("an MMR trace") };
        assert_eq!(trace.steps.len(), result.summary.sentences.len());
        assert!(result.summary.cost <= 20 && !result.summary.sentences.is_empty());
    }

    #[test]
    fn a_comparison_after_a_summary_embeds_nothing_new() {
        let topic = Some("The dam broke.".to_string());
        let mmr = Settings { method: Method::Mmr, topic: topic.clone(), budget: Budget::Words(20), ..Default::default() };
        let mut cache = EmbeddingCache::default();
        embed_all(&prepare(job(mmr, None)).unwrap(), &mut cache);
        let shared = Settings { topic, budget: Budget::Words(20), ..Default::default() };
        let methods = [Method::Greedy, Method::BeamGreedy, Method::Mmr];
        let prepared = prepare_comparison(job(shared, None), &methods).unwrap();
        assert_eq!(cache.missing(prepared.texts()), Vec::<String>::new());
        let result = finish_comparison(&prepared, &methods, &cache, Timing::default(), &Heads::default(), &|| 0.0).unwrap();
        let columns = &result.comparison.columns;
        assert_eq!(columns.iter().map(|c| c.method).collect::<Vec<_>>(), methods);
        assert!(columns.iter().all(|c| !c.sentences.is_empty() && c.words <= 20 && c.rouge.is_none()));
    }

    #[test]
    fn a_comparison_checks_its_methods_and_their_needs() {
        let one = prepare_comparison(job(Settings::default(), None), &[Method::Greedy]).err().unwrap();
        assert!(one.contains("two to four"), "{one}");
        let oracle = prepare_comparison(job(Settings::default(), None), &[Method::Greedy, Method::Oracle]).err().unwrap();
        assert!(oracle.contains("oracle method needs a reference"), "{oracle}");
        let reference = Some("The dam broke and the valley flooded.");
        let prepared = prepare_comparison(job(Settings::default(), reference), &[Method::Greedy, Method::Oracle]).unwrap();
        let mut cache = EmbeddingCache::default();
        embed_all(&prepared, &mut cache);
        let methods = [Method::Greedy, Method::Oracle];
        let result = finish_comparison(&prepared, &methods, &cache, Timing::default(), &Heads::default(), &|| 0.0).unwrap();
        assert!(result.comparison.columns.iter().all(|c| c.rouge.is_some()));
        let cera = finish_comparison(&prepared, &[Method::Greedy, Method::Cera], &cache, Timing::default(), &Heads::default(), &|| 0.0);
        assert!(cera.err().unwrap().contains("CeRA"));
    }

    #[test]
    fn cards_get_languages_by_share_of_words() {
        let facts = describe(&Document::new(
            "m",
            "The flood destroyed the old bridge over the river yesterday evening. Le pont est détruit.",
        ));
        assert_eq!(facts.sentences, 2);
        assert_eq!(facts.languages.first().map(String::as_str), Some("en"));
        assert!(facts.words >= 14);
        let unknown = describe(&Document::new("u", "12345"));
        assert_eq!(unknown.languages, vec![segment::UNDETERMINED.to_string()]);
    }

}
