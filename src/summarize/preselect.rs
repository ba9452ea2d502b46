//! Preselection: which sentences may be candidates (prose, standing alone, in its article's script, not doubted by the prose reader nor a question alone where those are junk, in a summary language, no copies).

use super::{Reading, Settings};
use crate::choices::Choices;
use crate::document::Cluster;
use crate::encoder::Embedding;
use crate::segment::line_key::line_key;
use crate::segment::prose_reader::ProseReader;

/// Candidate sentences: prose (not `Sentence::excluded`, not read as
/// furniture) that stands alone ([`stands_alone`]), is no question alone
/// where such questions are junk ([`asks_alone_where_questions_are_junk`]), is written in its
/// article's script ([`in_another_script`]) and that the prose reader
/// does not doubt as a summary line (`Reading::no_summary_line`), in
/// a summary language (`Settings::languages`), within the budget, not a
/// copy of an earlier sentence, and among the first n prose sentences of
/// their document (its lead, where a fragment or a doubted line still
/// takes its place but the furniture takes none).
pub fn preselect(
    cluster: &Cluster,
    embeddings: &[Embedding],
    costs: &[usize],
    limit: usize,
    settings: &Settings,
    reading: &Reading,
    choices: &Choices,
) -> Vec<usize> {
    let mut kept: Vec<usize> = vec![];
    let mut seen_texts = std::collections::HashSet::new();
    let mut per_document = vec![0usize; cluster.documents.len()];
    let quoted_original = in_another_script(cluster);
    for (id, sentence) in cluster.sentences.iter().enumerate() {
        // A pin is a candidate whatever it is ("use it anyway"); a strike never.
        if choices.pinned.contains(&id) {
            seen_texts.insert(line_key(&sentence.text));
            kept.push(id);
            continue;
        }
        let counts_in_lead = is_prose(cluster, &reading.furniture, id) && settings.accepts_language(&sentence.lang);
        if !counts_in_lead || choices.struck.contains(&id) || costs[id] > limit || costs[id] == 0 || per_document[sentence.doc] >= settings.first_sentences {
            continue;
        }
        if !seen_texts.insert(line_key(&sentence.text)) {
            continue;
        }
        let copy = kept.iter().any(|&k| {
            crate::select::dot(&embeddings[k][..], &embeddings[id][..]) >= settings.near_duplicate
                && share_their_text(&cluster.sentences[k].text, &sentence.text)
        });
        if copy {
            continue;
        }
        // The window is the article's lead: a prose sentence that makes no
        // summary line still takes its place in it, as it does when the
        // article's furniture is kept.
        per_document[sentence.doc] += 1;
        let makes_a_line = stands_alone(&sentence.text) && !quoted_original[id] && !asks_alone_where_questions_are_junk(cluster, id);
        let doubted = reading.no_summary_line.binary_search(&id).is_ok();
        if doubted || !(makes_a_line || cluster.documents[sentence.doc].keep_furniture) {
            continue;
        }
        kept.push(id);
    }
    kept
}

/// A question alone in its paragraph, in a language the summary-line
/// reader reads (Spanish, French), is no summary line: a headline that
/// asks, a reader's comment, an interviewer's question. Of such lines in the
/// summaries of the development topics, judges called 10 junk and 4 prose;
/// of the questions inside a paragraph, 25 junk and 28 prose, so those stay
/// (taking them too cost the timelines up to 0.16 ROUGE-2). In English
/// (Multi-News validation) 9 of 327 questions were junk.
fn asks_alone_where_questions_are_junk(cluster: &Cluster, id: usize) -> bool {
    let sentence = &cluster.sentences[id];
    cluster.alone_in_its_paragraph(id) && ProseReader::summary_lines().decides_for(&sentence.lang) && crate::segment::furniture::asks(&sentence.text)
}

/// Least share of the shorter sentence's letter trigrams that the longer
/// holds, for two sentences that embed alike to be copies.
const MIN_SHARED_TRIGRAMS: f32 = 0.5;

/// Whether two sentences that embed alike also share their text: wire
/// copies do ("… said Monday." / "… said on Monday."), while the sentences
/// of a script the encoder cannot read (Khmer, Burmese: every token
/// unknown) embed alike and share nothing, and are not copies of one
/// another.
fn share_their_text(a: &str, b: &str) -> bool {
    let (a, b) = (letter_trigrams(a), letter_trigrams(b));
    let (shorter, longer) = if a.len() <= b.len() { (&a, &b) } else { (&b, &a) };
    let shared = shorter.iter().filter(|t| longer.contains(*t)).count();
    shorter.is_empty() || shared as f32 >= MIN_SHARED_TRIGRAMS * shorter.len() as f32
}

/// The text's trigrams of lowercased letters and digits, other characters
/// dropped.
fn letter_trigrams(text: &str) -> std::collections::HashSet<[char; 3]> {
    let chars: Vec<char> = text.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect();
    chars.windows(3).map(|w| [w[0], w[1], w[2]]).collect()
}

/// Whether a prose sentence can be a summary line on its own: "Et
/// pourtant." and "17 de mayo de 2011." are the prose of their paragraph,
/// but a summary of such lines says nothing ("They are assault.", "Et
/// pourtant.", "Mr. Oppenheim said.", "21 de abril de 2011." were judged
/// junk as summary lines); a number in a clause makes one ("He was 83.").
pub fn stands_alone(text: &str) -> bool {
    crate::segment::furniture::says_nothing_alone(text).is_none()
}

/// Whether each sentence is written in another script than most of its
/// article: the original of a quoted post or slogan, which its translation
/// follows ("واحد واحد واحد، الشعب السوري واحد" inside a French article),
/// is the article's quote, not its report, and no summary line. An article
/// has a script when two thirds of three or more sentences share it (Han
/// and kana count as one).
fn in_another_script(cluster: &Cluster) -> Vec<bool> {
    let scripts: Vec<Option<whatlang::Script>> = cluster.sentences.iter().map(|s| writing_system(&s.text)).collect();
    let mut counts: Vec<Vec<(whatlang::Script, usize)>> = vec![vec![]; cluster.documents.len()];
    for (sentence, script) in cluster.sentences.iter().zip(&scripts) {
        let Some(script) = *script else { continue };
        let of_doc = &mut counts[sentence.doc];
        match of_doc.iter_mut().find(|(s, _)| *s == script) {
            Some(entry) => entry.1 += 1,
            None => of_doc.push((script, 1)),
        }
    }
    let main: Vec<Option<whatlang::Script>> = counts
        .iter()
        .map(|of_doc| {
            let total: usize = of_doc.iter().map(|(_, n)| n).sum();
            let &(script, most) = of_doc.iter().max_by_key(|(_, n)| *n)?;
            (total >= 3 && 3 * most >= 2 * total).then_some(script)
        })
        .collect();
    cluster.sentences.iter().zip(&scripts).map(|(s, own)| matches!((main[s.doc], own), (Some(m), Some(o)) if m != *o)).collect()
}

/// The script of most of the text's letters, Han and kana as one.
fn writing_system(text: &str) -> Option<whatlang::Script> {
    use whatlang::Script::{Hiragana, Katakana, Mandarin};
    whatlang::detect_script(text).map(|script| if matches!(script, Hiragana | Katakana) { Mandarin } else { script })
}

/// Neither furniture by the segmentation rules nor read as furniture by the
/// prose reader (`Reading::furniture`, in order).
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
        let kept = preselect(&c, &e, &costs, 100, &settings, &Reading::default(), &Choices::default());
        assert_eq!(kept, vec![0, 1, 3, 4]);
        let kept = preselect(&c, &e, &costs, 4, &settings, &Reading::default(), &Choices::default());
        assert_eq!(kept, vec![1, 2]); // only the 4-word sentences fit
    }

    #[test]
    fn sentences_that_embed_alike_are_copies_only_when_they_share_their_text() {
        // The encoder reads no Khmer: every sentence embeds alike.
        let c = Cluster::new(vec![
            Document::new("a", "ភ្លៀងធ្លាក់ខ្លាំងនៅរាជធានីភ្នំពេញកាលពីម្សិលមិញ។ សាលារៀនមួយចំនួនត្រូវបិទជាបណ្ដោះអាសន្ន។"),
            Document::new("b", "The storm hit the coast on Monday. The storm hit the coast Monday."),
        ]);
        let e = vec![unit(&[(0, 1.0)]), unit(&[(0, 1.0)]), unit(&[(1, 1.0)]), unit(&[(1, 1.0)])];
        let (costs, limit) = Budget::Words(100).costs(&c);
        assert_eq!(preselect(&c, &e, &costs, limit, &Settings::default(), &Reading::default(), &Choices::default()), vec![0, 1, 2]);
    }

    #[test]
    fn the_window_is_the_articles_lead_in_prose_sentences() {
        // The dateline is furniture and takes no place in the window; the
        // fragment is prose that makes no summary line, and takes its place
        // as it does when the furniture is kept.
        let text = "INNSBRUCK, Austria (AP) --\n\nThe storm hit the coast on Monday. Mr. Oppenheim said. Schools closed across the region on Tuesday.";
        let c = Cluster::new(vec![Document::new("a", text)]);
        assert_eq!(c.sentences.len(), 4);
        assert!(c.sentences[0].excluded.is_some() && c.sentences[2].excluded.is_none());
        let e = vec![unit(&[(0, 1.0)]), unit(&[(1, 1.0)]), unit(&[(2, 1.0)]), unit(&[(3, 1.0)])];
        let (costs, limit) = Budget::Words(100).costs(&c);
        let settings = Settings { first_sentences: 2, ..Default::default() };
        assert_eq!(preselect(&c, &e, &costs, limit, &settings, &Reading::default(), &Choices::default()), vec![1]);
        let wide = Settings { first_sentences: 3, ..Default::default() };
        assert_eq!(preselect(&c, &e, &costs, limit, &wide, &Reading::default(), &Choices::default()), vec![1, 3]);
        // "Use all its sentences": the dateline and the fragment are candidates.
        let kept_whole = Cluster::new(vec![Document { keep_furniture: true, ..Document::new("a", text) }]);
        assert_eq!(preselect(&kept_whole, &e, &costs, limit, &settings, &Reading::default(), &Choices::default()), vec![0, 1]);
    }

    #[test]
    fn a_question_alone_is_no_summary_line_in_spanish_or_french_only() {
        let spanish = Cluster::new(vec![Document::new("a", "El régimen anunció nuevas sanciones contra la oposición este lunes.\n\n¿Está muerto el derrocado presidente Hosni Mubarak?\n\nLa Liga Árabe pidió calma a todas las partes del conflicto.")]);
        let english = Cluster::new(vec![Document::new("a", "The regime announced new sanctions against the opposition on Monday.\n\nWhat happens to the families who stayed behind?\n\nThe Arab League called on all sides to stop the fighting.")]);
        // Asked inside a paragraph, the question is the story's own.
        let inside = Cluster::new(vec![Document::new("a", "El régimen anunció nuevas sanciones contra la oposición este lunes. ¿Servirán de algo esta vez? La Liga Árabe pidió calma a todas las partes del conflicto.")]);
        for (cluster, lang, candidates) in [(spanish, "es", vec![0, 2]), (english, "en", vec![0, 1, 2]), (inside, "es", vec![0, 1, 2])] {
            assert_eq!(cluster.sentences.len(), 3);
            assert!(cluster.sentences.iter().all(|s| s.lang == lang && s.excluded.is_none()), "{:?}", cluster.sentences);
            let e = vec![unit(&[(0, 1.0)]), unit(&[(1, 1.0)]), unit(&[(2, 1.0)])];
            let (costs, limit) = Budget::Words(100).costs(&cluster);
            assert_eq!(preselect(&cluster, &e, &costs, limit, &Settings::default(), &Reading::default(), &Choices::default()), candidates, "{lang}");
        }
    }

    #[test]
    fn a_date_alone_is_no_summary_line_in_any_language_dates_reads() {
        // A chronology's entry heads: prose of their paragraph, no summary line.
        for date in ["17 de mayo de 2011.", "-. 26 de enero.", "24 de junio.", "Dimanche 19 décembre 2010.", "March 14, 2011.", "5. März 2011.", "2011年3月15日。", "24 เมษายน 2554"] {
            assert!(!stands_alone(date), "{date}");
        }
        for line in ["El 17 de mayo de 2011 la UE aprobó sus primeras sanciones.", "He was 83.", "Le 19 décembre, la police a tiré sur la foule."] {
            assert!(stands_alone(line), "{line}");
        }
        let c = Cluster::new(vec![Document::new("a", "La UE aprobó nuevas sanciones contra el régimen sirio.\n\n17 de mayo de 2011. Incluye a trece oficiales sirios en su lista.")]);
        let e = vec![unit(&[(0, 1.0)]), unit(&[(1, 1.0)]), unit(&[(2, 1.0)])];
        assert_eq!(c.sentences.len(), 3);
        assert!(c.sentences[1].excluded.is_none(), "the date is its paragraph's prose");
        let (costs, limit) = Budget::Words(100).costs(&c);
        assert_eq!(preselect(&c, &e, &costs, limit, &Settings::default(), &Reading::default(), &Choices::default()), vec![0, 2]);
    }

    #[test]
    fn a_sentence_that_presents_what_follows_is_no_summary_line() {
        for pointer in [
            "Voici quelques vidéos de la ville de Homs.",
            "He aquí una selección de videos de la ciudad.",
            "Here are 18 impressive facts about the London Tube.",
            "“Here's his take on border security, in his own words.",
        ] {
            assert!(!stands_alone(pointer), "{pointer}");
        }
        // What a colon brings in is in the sentence; "Voilà" and German
        // "Hier ist" open statements.
        for line in [
            "Here's one sign of the recovery: the average cost of a wedding hit a record.",
            "Voilà des années que le régime jouait ce numéro.",
            "Hier ist die Lage seit Tagen angespannt.",
        ] {
            assert!(stands_alone(line), "{line}");
        }
    }

    #[test]
    fn a_sentence_that_trails_off_is_no_summary_line() {
        for teaser in [
            "They also claim that Obama allegedly lied when he said he didn’t have any conversations with Rezko about a casino license…",
            "The event quickly escalated into violence and at least two people had to be treated...",
            "Celli went on to say that “It’s not necessarily that it’s too cold for them …",
            "\"Maybe you have teen-agers yourself and know how they are ...\"",
            "Rodez centre dans secteur prisé - Maison de ville 8 pièces sur un terrain d[...]",
            "En Yemen y Siria las manifestaciones se multiplicaron al calor de esta victoria que todos los pueblos de […]",
        ] {
            assert!(!stands_alone(teaser), "{teaser}");
        }
        // A whole sentence before the ellipsis, or a quote's elision mark
        // (after a whole sentence, or inside the quote).
        for line in [
            "Everybody was trying to get out and people trampled on each other on the way to the exit. ...",
            "\"Je n'ai pas reçu tous les soutiens que la cause méritait. (...)",
            "«Je suis à proximité des bombardements mais je résiste toujours [...]»",
            "Il a dit que la situation était grave.",
        ] {
            assert!(stands_alone(line), "{line}");
        }
    }

    #[test]
    fn a_quote_in_another_script_than_its_article_is_no_summary_line() {
        let french = "Les manifestants scandent un slogan devant la mosquée. واحد واحد واحد، الشعب السوري واحد. « Un, un, un, le peuple syrien est un », disent-ils. La police les disperse dans la soirée.";
        let c = Cluster::new(vec![
            Document::new("a", french),
            // Kanji and kana are one script; a short article has none.
            Document::new("b", "東京で大雨が降った。気象庁は警報を出した。 カタカナのニュース。"),
            Document::new("c", "Пожар в центре Москвы. A fire in central Moscow."),
        ]);
        assert_eq!(c.sentences.len(), 9);
        let flagged: Vec<usize> = in_another_script(&c).iter().enumerate().filter(|(_, f)| **f).map(|(id, _)| id).collect();
        assert_eq!(flagged, vec![1]);
        let e: Vec<Embedding> = (0..9).map(|i| unit(&[(i, 1.0)])).collect();
        let (costs, limit) = Budget::Words(100).costs(&c);
        let kept = preselect(&c, &e, &costs, limit, &Settings::default(), &Reading::default(), &Choices::default());
        assert!(!kept.contains(&1) && kept.contains(&0) && kept.contains(&2), "{kept:?}");
        // "Use all its sentences" keeps it a candidate.
        let mut whole = c.clone();
        whole.documents[0].keep_furniture = true;
        assert!(preselect(&whole, &e, &costs, limit, &Settings::default(), &Reading::default(), &Choices::default()).contains(&1));
    }

    #[test]
    fn exact_copies_are_dropped_even_across_documents() {
        let c = Cluster::new(vec![
            Document::new("a", "Storm hits the coast."),
            Document::new("b", "Storm hits the coast!"),
        ]);
        let e = vec![unit(&[(0, 1.0)]), unit(&[(1, 1.0)])];
        let (costs, limit) = Budget::Words(100).costs(&c);
        assert_eq!(preselect(&c, &e, &costs, limit, &Settings::default(), &Reading::default(), &Choices::default()), vec![0]);
    }
}
