//! Preselection: which sentences may be candidates (prose, standing alone, in a summary language, no copies).

use super::Settings;
use crate::choices::Choices;
use crate::document::Cluster;
use crate::encoder::Embedding;
use crate::segment::line_key::line_key;

/// Candidate sentences: prose (not `Sentence::excluded`, not in
/// `read_as_furniture`) that stands alone ([`stands_alone`]) in a summary language (`Settings::languages`), within the budget,
/// not a copy of an earlier sentence, and among the first n remaining
/// sentences of their document.
pub fn preselect(
    cluster: &Cluster,
    embeddings: &[Embedding],
    costs: &[usize],
    limit: usize,
    settings: &Settings,
    read_as_furniture: &[usize],
    choices: &Choices,
) -> Vec<usize> {
    let mut kept: Vec<usize> = vec![];
    let mut seen_texts = std::collections::HashSet::new();
    let mut per_document = vec![0usize; cluster.documents.len()];
    for (id, sentence) in cluster.sentences.iter().enumerate() {
        // A pin is a candidate whatever it is ("use it anyway"); a strike never.
        if choices.pinned.contains(&id) {
            seen_texts.insert(line_key(&sentence.text));
            kept.push(id);
            continue;
        }
        let unwanted = choices.struck.contains(&id)
            || !is_prose(cluster, read_as_furniture, id)
            || !settings.accepts_language(&sentence.lang)
            || !(stands_alone(&sentence.text) || cluster.documents[sentence.doc].keep_furniture);
        if unwanted || costs[id] > limit || costs[id] == 0 || per_document[sentence.doc] >= settings.first_sentences {
            continue;
        }
        if !seen_texts.insert(line_key(&sentence.text)) {
            continue;
        }
        let copy = kept.iter().any(|&k| {
            crate::select::dot(&embeddings[k][..], &embeddings[id][..]) >= settings.near_duplicate
        });
        if copy {
            continue;
        }
        per_document[sentence.doc] += 1;
        kept.push(id);
    }
    kept
}

/// Neither furniture by the segmentation rules nor read as furniture by the
/// prose reader (`read_as_furniture`, in order).
/// Whether a prose sentence can be a summary line on its own: "Nobody was
/// hurt." and "¿Cuánto ha llovido?" are the prose of their paragraph, but
/// a summary of such lines says nothing ("They are assault.", "Et
/// pourtant.", "Mr. Oppenheim said." were judged junk as summary lines); a
/// number in a clause makes one ("He was 83.").
pub fn stands_alone(text: &str) -> bool {
    !crate::segment::furniture::too_short_to_stand_alone(text)
}

pub(super) fn is_prose(cluster: &Cluster, read_as_furniture: &[usize], id: usize) -> bool {
    cluster.sentences[id].excluded.is_none() && read_as_furniture.binary_search(&id).is_err()
}

#[cfg(test)]
mod tests {
    use super::*;
    use super::super::tests::{cluster, embeddings};
    use crate::document::Document;
    use crate::select::testing::unit;
    use crate::summarize::Budget;

    #[test]
    fn preselection_drops_copies_long_sentences_and_late_positions() {
        let c = cluster();
        assert_eq!(c.sentences.len(), 5);
        let e = embeddings(5);
        let (costs, _) = Budget::Words(100).costs(&c);
        let settings = Settings { first_sentences: 2, ..Default::default() };
        // "The storm hits the coast today!" is not a copy of "Storm hits the coast today."
        let kept = preselect(&c, &e, &costs, 100, &settings, &[], &Choices::default());
        assert_eq!(kept, vec![0, 1, 3, 4]);
        let kept = preselect(&c, &e, &costs, 4, &settings, &[], &Choices::default());
        assert_eq!(kept, vec![1, 2]); // only the 4-word sentences fit
    }

    #[test]
    fn exact_copies_are_dropped_even_across_documents() {
        let c = Cluster::new(vec![
            Document::new("a", "Storm hits the coast."),
            Document::new("b", "Storm hits the coast!"),
        ]);
        let e = vec![unit(&[(0, 1.0)]), unit(&[(1, 1.0)])];
        let (costs, limit) = Budget::Words(100).costs(&c);
        assert_eq!(preselect(&c, &e, &costs, limit, &Settings::default(), &[], &Choices::default()), vec![0]);
    }
}
