//! The plain-language notes of a summary: too little in the chosen languages, no prose, an empty summary.

use super::preselect::is_prose;
use super::{Budget, Settings};
use crate::document::Cluster;
use crate::encoder::Embedding;

/// With summary languages chosen: a plain note when they have no prose at
/// all, or too little to fill the budget.
pub(super) fn language_note(
    cluster: &Cluster,
    costs: &[usize],
    limit: usize,
    settings: &Settings,
    read_as_furniture: &[usize],
) -> Option<String> {
    if settings.languages.is_empty() {
        return None;
    }
    let names = settings.languages.iter().map(|l| crate::segment::language_name(l)).collect::<Vec<_>>().join(" or ");
    let in_language: Vec<usize> = (0..cluster.sentences.len())
        .filter(|&s| is_prose(cluster, read_as_furniture, s) && settings.accepts_language(&cluster.sentences[s].lang))
        .collect();
    if in_language.is_empty() {
        return Some(format!(
            "No sentence is in {names}: the articles are in {}. Choose another summary language.",
            detected_languages(cluster)
        ));
    }
    let available: usize = in_language.iter().map(|&s| costs[s]).sum();
    (available < limit).then(|| {
        let count = in_language.len();
        let plural = if count == 1 { "" } else { "s" };
        let words: usize = in_language.iter().map(|&s| cluster.sentences[s].words).sum();
        format!("Only {count} {names} sentence{plural} ({words} words): the summary is shorter than the budget.")
    })
}

/// The cluster's languages by words, most first: "Spanish (420 words), French (97 words)".
fn detected_languages(cluster: &Cluster) -> String {
    let mut words = cluster.words_by_language();
    words.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    words.iter().map(|(l, w)| format!("{} ({w} words)", crate::segment::language_name(l))).collect::<Vec<_>>().join(", ")
}

/// The articles whose every sentence reads as page furniture (by the rules
/// or the prose reader), with how many sentences each has: (document,
/// sentences). The app says so on the article's card and offers to use
/// them all (`Document::keep_furniture`). `read_as_furniture` is sorted, as
/// `Summary::read_as_furniture` is.
pub fn articles_without_prose(cluster: &Cluster, read_as_furniture: &[usize]) -> Vec<(usize, usize)> {
    let mut sentences = vec![0usize; cluster.documents.len()];
    let mut prose = vec![0usize; cluster.documents.len()];
    for (id, s) in cluster.sentences.iter().enumerate() {
        sentences[s.doc] += 1;
        prose[s.doc] += usize::from(is_prose(cluster, read_as_furniture, id));
    }
    (0..cluster.documents.len()).filter(|&d| sentences[d] > 0 && prose[d] == 0).map(|d| (d, sentences[d])).collect()
}

/// "No prose found in “Breaking news”: 3 lines look like page furniture."
pub fn no_prose_note(cluster: &Cluster, doc: usize, lines: usize) -> String {
    let name = article_name(cluster, doc);
    let plural = if lines == 1 { "line looks" } else { "lines look" };
    format!("No prose found in “{name}”: {lines} {plural} like page furniture.")
}

/// Least mean cosine between an article's prose sentences for the encoder
/// to have read none of them: the sentences of a script outside its
/// vocabulary (Khmer, Burmese: every token unknown) embed alike, at 0.99 on
/// average, where two sentences of a plain article in the 16 languages are
/// 0.10–0.18 apart (docs/results/furniture.md, "Scripts beyond the
/// sixteen").
const MIN_UNREAD_COSINE: f32 = 0.95;
/// Fewest prose sentences, and most compared, for that judgement.
const UNREAD_SENTENCES: std::ops::RangeInclusive<usize> = 3..=20;

/// "The encoder cannot read “Phnom Penh floods” (Khmer): its 6 sentences
/// embed alike, …": for each article whose prose sentences all embed alike,
/// since which of them a summary takes then rests on position and length.
pub(super) fn unread_articles_notes(cluster: &Cluster, embeddings: &[Embedding], read_as_furniture: &[usize]) -> Vec<String> {
    prose_by_article(cluster, read_as_furniture)
        .iter()
        .enumerate()
        .filter(|(_, prose)| prose.len() >= *UNREAD_SENTENCES.start())
        .filter(|(_, prose)| {
            let compared = &prose[..prose.len().min(*UNREAD_SENTENCES.end())];
            let pairs: Vec<f32> = compared
                .iter()
                .enumerate()
                .flat_map(|(i, &a)| compared[i + 1..].iter().map(move |&b| crate::select::dot(&embeddings[a][..], &embeddings[b][..])))
                .collect();
            pairs.iter().sum::<f32>() / pairs.len() as f32 >= MIN_UNREAD_COSINE
        })
        .map(|(doc, prose)| unread_article_note(cluster, doc, prose))
        .collect()
}

/// Each article's prose sentences, in order, gathered in one pass over the
/// cluster (a pass per article would cost articles × sentences).
fn prose_by_article(cluster: &Cluster, read_as_furniture: &[usize]) -> Vec<Vec<usize>> {
    let mut prose = vec![Vec::new(); cluster.documents.len()];
    for (id, sentence) in cluster.sentences.iter().enumerate() {
        if is_prose(cluster, read_as_furniture, id) {
            prose[sentence.doc].push(id);
        }
    }
    prose
}

fn unread_article_note(cluster: &Cluster, doc: usize, prose: &[usize]) -> String {
    let name = article_name(cluster, doc);
    let language = crate::segment::language_name(&cluster.sentences[prose[0]].lang);
    format!(
        "The encoder cannot read “{name}” ({language}): its {} sentences embed alike, so which of them the summary takes rests on their position and length, not on what they say.",
        prose.len()
    )
}

/// An article as a note names it: its title, or its id when it has none.
fn article_name(cluster: &Cluster, doc: usize) -> &str {
    let document = &cluster.documents[doc];
    document.title.as_deref().filter(|t| !t.trim().is_empty()).unwrap_or(&document.id)
}

pub(super) fn empty_summary_note(cluster: &Cluster, costs: &[usize], limit: usize, budget: &Budget) -> String {
    if cluster.sentences.is_empty() {
        return "There is no text to summarize.".into();
    }
    let shortest = costs.iter().copied().filter(|&c| c > 0).min().unwrap_or(0);
    match budget {
        Budget::Sentences(0) => "The budget is 0 sentences.".into(),
        _ if shortest > limit => format!(
            "Every sentence is longer than the budget ({}, i.e. {limit} words); the shortest has {shortest} words. Raise the budget.",
            budget.describe()
        ),
        _ => "No sentence could be selected.".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{cluster, embeddings, rules_only};
    use crate::document::{Cluster, Document};
    use crate::encoder::Embedding;
    use crate::select::testing::unit;
    use crate::summarize::{summarize, Budget, Settings, SummaryRequest};

    #[test]
    fn a_budget_below_every_sentence_explains_itself() {
        let (c, e) = (cluster(), embeddings(5));
        let settings = Settings { budget: Budget::Words(2), ..Default::default() };
        let summary = summarize(&SummaryRequest::new(&c, &e, &settings)).unwrap();
        assert!(summary.sentences.is_empty());
        assert!(summary.notes[0].contains("shortest has 4 words"), "{:?}", summary.notes);
    }

    #[test]
    fn an_article_whose_sentences_all_embed_alike_is_said_to_be_unread() {
        let text = "ភ្លៀងធ្លាក់ខ្លាំងនៅភ្នំពេញ។ ផ្លូវជាច្រើនត្រូវលិចទឹក។ សាលារៀនមួយចំនួនត្រូវបិទ។";
        let c = Cluster::new(vec![Document::new("phnom-penh", text)]);
        let alike: Vec<Embedding> = (0..c.sentences.len()).map(|i| unit(&[(0, 1.0), (i + 1, 0.05)])).collect();
        let summary = summarize(&SummaryRequest::new(&c, &alike, &rules_only())).unwrap();
        assert_eq!(summary.sentences.len(), 3, "not copies of one another");
        assert_eq!(
            summary.notes,
            ["The encoder cannot read “phnom-penh” (Khmer): its 3 sentences embed alike, so which of them the summary takes rests on their position and length, not on what they say."]
        );
        let apart: Vec<Embedding> = (0..c.sentences.len()).map(|i| unit(&[(i, 1.0), (100, 0.5)])).collect();
        assert!(summarize(&SummaryRequest::new(&c, &apart, &rules_only())).unwrap().notes.is_empty());
    }

    fn bilingual() -> (Cluster, Vec<Embedding>) {
        let doc = |id: &str, lang: &str, text: &str| Document { lang: Some(lang.into()), ..Document::new(id, text) };
        let c = Cluster::new(vec![
            doc("es", "es", "La tormenta golpeó la costa al amanecer. Miles de casas quedaron sin luz."),
            doc("fr", "fr", "La tempête a frappé la côte à l'aube. Des milliers de maisons sont privées de courant."),
            doc("en", "en", "The storm hit the coast at dawn."),
        ]);
        let e = (0..c.sentences.len()).map(|i| unit(&[(i, 1.0), (100, 1.0)])).collect();
        (c, e)
    }

    #[test]
    fn only_sentences_in_the_summary_languages_are_candidates() {
        let (c, e) = bilingual();
        let settings = Settings { languages: vec!["es".into(), "en".into()], budget: Budget::Words(100), ..rules_only() };
        let summary = summarize(&SummaryRequest::new(&c, &e, &settings)).unwrap();
        let languages: Vec<&str> = summary.candidates.iter().map(|&s| c.sentences[s].lang.as_str()).collect();
        assert_eq!(languages, vec!["es", "es", "en"]);
        assert!(summary.sentences.iter().all(|&s| c.sentences[s].lang != "fr"));
        // The centroid is still the mean of every sentence, French included.
        assert_eq!(summary.centroid.vector, crate::centroid::mean_of(&e));
        assert_eq!(summary.notes, vec!["Only 3 Spanish or English sentences (20 words): the summary is shorter than the budget.".to_string()]);
    }

    #[test]
    fn a_summary_language_without_text_says_which_languages_there_are() {
        let (c, e) = bilingual();
        let settings = Settings { languages: vec!["ar".into()], ..rules_only() };
        let summary = summarize(&SummaryRequest::new(&c, &e, &settings)).unwrap();
        assert!(summary.sentences.is_empty());
        assert_eq!(
            summary.notes,
            vec!["No sentence is in Arabic: the articles are in French (17 words), Spanish (13 words), English (7 words). Choose another summary language.".to_string()]
        );
        let enough = Settings { languages: vec!["fr".into()], budget: Budget::Words(10), ..rules_only() };
        assert!(summarize(&SummaryRequest::new(&c, &e, &enough)).unwrap().notes.is_empty());
    }
}
