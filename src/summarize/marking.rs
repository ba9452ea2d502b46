//! The prose reader's marks: the sentences it reads as furniture (with their reason on the cluster) and the prose it doubts as a summary line.

use super::{Settings, Summary};
use crate::document::Cluster;
use crate::encoder::{Embedding, Encoder};
use crate::segment::prose_reader::{ProseReader, Verdict};

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
    let read = read_prose(cluster, &embeddings, &Settings::default()).furniture;
    give_reader_reason(&mut cluster.sentences, &read);
    Ok(())
}

fn give_reader_reason(sentences: &mut [crate::document::Sentence], ids: &[usize]) {
    for &id in ids {
        sentences[id].excluded = Some(crate::segment::prose_reader::REASON.to_string());
    }
}

/// What the prose reader makes of a cluster's prose ([`read_prose`]), both
/// lists in order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Reading {
    /// Sentences it reads as page furniture: no longer prose, told with
    /// their reason.
    pub furniture: Vec<usize>,
    /// Prose it doubts as a summary line: no candidate, but prose still
    /// (in the centroid, the article's prose, the page).
    pub no_summary_line: Vec<usize>,
}

/// The prose reader's verdict on every sentence the rules leave as prose,
/// when the settings use it (an article kept whole is not read). It reads
/// as furniture only a sentence alone in its paragraph: what the rules
/// miss (a caption written as a sentence, a headline with a full stop, a
/// blurb) stands on a line of its own, while a sentence among others of
/// its paragraph is that paragraph's prose, though maybe no summary line:
/// the prose reader or the summary-line reader may doubt it as one.
pub fn read_prose(cluster: &Cluster, embeddings: &[Embedding], settings: &Settings) -> Reading {
    let mut reading = Reading::default();
    if !settings.prose_reader {
        return reading;
    }
    let reader = ProseReader::shipped();
    let summary_lines = ProseReader::summary_lines();
    for (id, sentence) in cluster.sentences.iter().enumerate() {
        if sentence.excluded.is_some() || cluster.documents[sentence.doc].keep_furniture {
            continue;
        }
        match reader.read(&sentence.text, &sentence.lang, &embeddings[id], cluster.alone_in_its_paragraph(id)) {
            Verdict::Furniture => reading.furniture.push(id),
            Verdict::NoSummaryLine => reading.no_summary_line.push(id),
            Verdict::Prose if summary_lines.doubts(&sentence.text, &sentence.lang, &embeddings[id]) => reading.no_summary_line.push(id),
            Verdict::Prose => {}
        }
    }
    reading
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
        assert_eq!(read_prose(&c, &e, &settings).furniture, vec![1]);
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
        assert_eq!(read_prose(&c, &inside, &settings).furniture, vec![1]);
        // There it is prose the reader doubts as a summary line: no
        // candidate, and no reason, since it is no furniture.
        assert_eq!(read_prose(&c, &inside, &settings), Reading { furniture: vec![1], no_summary_line: vec![4] });
        let summary = summarize(&SummaryRequest::new(&c, &inside, &settings)).unwrap();
        assert!(!summary.candidates.contains(&4) && summary.candidates.contains(&3), "{:?}", summary.candidates);
        assert!(sentences_as_read(&c, &summary)[4].excluded.is_none());
        assert_eq!(summary.doubted, vec![4]);
        let json = summary_json(&c, &settings, &summary);
        assert_eq!((&json["doubted"][0]["id"], &json["doubted"][0]["reason"]), (&4.into(), &crate::segment::prose_reader::DOUBTED.into()));
        let mut thai = c.clone();
        thai.sentences[1].lang = "th".into();
        assert!(read_prose(&thai, &e, &settings).furniture.is_empty());
        let rules_only = Settings { prose_reader: false, ..settings };
        assert!(read_prose(&c, &e, &rules_only).furniture.is_empty());
        assert!(summarize(&SummaryRequest::new(&c, &e, &rules_only)).unwrap().candidates.contains(&1));
        assert_eq!(read_prose(&c, &inside, &rules_only), Reading::default());
    }

    /// When the reader doubts every prose sentence, its doubts give way:
    /// an article of prose still gets a summary.
    #[test]
    fn doubts_give_way_rather_than_leave_a_summary_empty() {
        let c = Cluster::new(vec![Document {
            lang: Some("en".into()),
            ..Document::new("a", "Storm hits the coast today. Thousands lose their power. Schools close very early.")
        }]);
        let furniture = crate::segment::prose_reader::ProseReader::shipped().most_furniture_like();
        let e = vec![furniture; 3];
        let settings = Settings::default();
        assert_eq!(read_prose(&c, &e, &settings), Reading { furniture: vec![], no_summary_line: vec![0, 1, 2] });
        let summary = summarize(&SummaryRequest::new(&c, &e, &settings)).unwrap();
        assert_eq!(summary.candidates, vec![0, 1, 2]);
        assert!(summary.doubted.is_empty(), "its doubts gave way");
        assert!(!summary.sentences.is_empty());
    }
}
