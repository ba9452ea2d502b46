//! The prose reader's marks: the sentences it reads as furniture, and their reason on the cluster.

use super::{Settings, Summary};
use crate::document::Cluster;
use crate::encoder::{Embedding, Encoder};
use std::collections::HashMap;

/// The cluster's sentences with the prose reader's reason on those it read
/// as furniture for `summary`: what the CLI's JSON and the app's Sources tab
/// show, so every exclusion is told.
pub fn sentences_as_read(cluster: &Cluster, summary: &Summary) -> Vec<crate::document::Sentence> {
    let mut sentences = cluster.sentences.clone();
    give_reader_reason(&mut sentences, &summary.read_as_furniture);
    sentences
}

/// Marks on the cluster itself what the prose reader (default settings)
/// reads as furniture, to score the decision apart from any summary
/// (`precis furniture-eval --reader`, `precis segment --prose-reader`). The
/// sentences are embedded as summaries embed them ([`Cluster::texts`]).
pub fn mark_read_furniture(cluster: &mut Cluster, encoder: &Encoder) -> anyhow::Result<()> {
    let embeddings = encoder.encode(&cluster.texts())?;
    let read = read_as_furniture(cluster, &embeddings, &Settings::default());
    give_reader_reason(&mut cluster.sentences, &read);
    Ok(())
}

fn give_reader_reason(sentences: &mut [crate::document::Sentence], ids: &[usize]) {
    for &id in ids {
        sentences[id].excluded = Some(crate::segment::prose_reader::REASON.to_string());
    }
}

/// The prose sentences the prose reader reads as furniture, when the
/// settings use it. It reads only sentences alone in their paragraph: what
/// the rules miss (a caption written as a sentence, a headline with a full
/// stop, a blurb) stands on a line of its own, while a sentence among
/// others of its paragraph is that paragraph's prose.
pub fn read_as_furniture(cluster: &Cluster, embeddings: &[Embedding], settings: &Settings) -> Vec<usize> {
    if !settings.prose_reader {
        return vec![];
    }
    let reader = crate::segment::prose_reader::ProseReader::shipped();
    let mut per_paragraph: HashMap<(usize, usize), usize> = HashMap::new();
    for s in &cluster.sentences {
        *per_paragraph.entry((s.doc, s.para)).or_default() += 1;
    }
    (0..cluster.sentences.len())
        .filter(|&id| {
            let sentence = &cluster.sentences[id];
            sentence.excluded.is_none()
                && !cluster.documents[sentence.doc].keep_furniture
                && per_paragraph[&(sentence.doc, sentence.para)] == 1
                && reader.reads_as_furniture(&sentence.text, &sentence.lang, &embeddings[id])
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use super::super::tests::embeddings;
    use crate::document::Document;
    use crate::summarize::{summarize, summary_json, SummaryRequest};

    /// What the prose reader flags is no candidate, is told with its reason,
    /// and counts again once the settings turn the reader off.
    #[test]
    fn sentences_the_prose_reader_flags_are_no_candidates_and_say_why() {
        // The reader reads a sentence alone in its paragraph (as captions
        // and headlines stand), in a language it decides for.
        let c = Cluster::new(vec![
            Document { lang: Some("en".into()), ..Document::new("a", "Storm hits the coast today.\n\nThousands lose their power.\n\nSchools close very early.") },
            Document { lang: Some("en".into()), ..Document::new("b", "The storm hits the coast today! Officials warn of heavy flooding.") },
        ]);
        let furniture = crate::segment::prose_reader::ProseReader::shipped().most_furniture_like();
        // Synthetic embeddings mean nothing to the reader, so the prose ones
        // point away from what it reads as furniture.
        let mut e: Vec<Embedding> = embeddings(5)
            .iter()
            .map(|v| {
                let away: Vec<f32> = v.iter().zip(&furniture).map(|(x, f)| x - f).collect();
                let length = away.iter().map(|x| x * x).sum::<f32>().sqrt();
                std::array::from_fn(|i| away[i] / length)
            })
            .collect();
        e[1] = furniture;
        let settings = Settings::default();
        assert_eq!(read_as_furniture(&c, &e, &settings), vec![1]);
        let summary = summarize(&SummaryRequest::new(&c, &e, &settings)).unwrap();
        assert_eq!(summary.read_as_furniture, vec![1]);
        assert!(!summary.candidates.contains(&1));
        let reasons: Vec<Option<String>> = sentences_as_read(&c, &summary).into_iter().map(|s| s.excluded).collect();
        assert_eq!(reasons[1].as_deref(), Some(crate::segment::prose_reader::REASON));
        assert!(reasons.iter().enumerate().all(|(id, r)| id == 1 || r.is_none()));
        let json = summary_json(&c, &settings, &summary);
        assert_eq!(json["excluded"][0]["reason"], crate::segment::prose_reader::REASON);
        // Inside a paragraph, or in a language it does not decide for, it
        // reads nothing.
        let mut inside = e.clone();
        inside[4] = furniture;
        assert_eq!(read_as_furniture(&c, &inside, &settings), vec![1]);
        let mut thai = c.clone();
        thai.sentences[1].lang = "th".into();
        assert!(read_as_furniture(&thai, &e, &settings).is_empty());
        let rules_only = Settings { prose_reader: false, ..settings };
        assert!(read_as_furniture(&c, &e, &rules_only).is_empty());
        assert!(summarize(&SummaryRequest::new(&c, &e, &rules_only)).unwrap().candidates.contains(&1));
    }
}
