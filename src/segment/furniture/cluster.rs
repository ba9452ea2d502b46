//! The pass over a whole cluster: short lines that recur across its
//! articles (one site's furniture) or within one page; and quotes a page
//! pulls out of its own story.

use super::line::{Features, Line, SHORT_LINE_WORDS};
use super::page::{name_unnamed, paragraphs};
use super::reason::Reason;
use crate::segment::line_key::line_key;
use std::collections::{HashMap, HashSet};

/// Two articles sharing this share of their lines are copies of one story:
/// their common lines are prose, not furniture.
const COPY_SHARE: f32 = 0.3;

/// Short own lines that occur in several documents (not copies of one
/// another) or several times in one.
pub(super) fn recurrence(documents: &[Vec<Line>], features: &[Vec<Features>]) -> HashMap<(usize, usize), Reason> {
    let mut where_found: HashMap<String, Vec<(usize, usize)>> = HashMap::new();
    for (d, lines) in documents.iter().enumerate() {
        for (i, line) in lines.iter().enumerate() {
            if features[d][i].words <= SHORT_LINE_WORDS {
                let key = line_key(line.text);
                if !key.is_empty() {
                    where_found.entry(key).or_default().push((d, i));
                }
            }
        }
    }
    // Lines shared by each pair of documents, to tell copies of one story.
    let mut shared: HashMap<(usize, usize), usize> = HashMap::new();
    for places in where_found.values() {
        let docs: Vec<usize> = places.iter().map(|p| p.0).collect::<HashSet<_>>().into_iter().collect();
        for (a, &x) in docs.iter().enumerate() {
            for &y in &docs[a + 1..] {
                *shared.entry((x.min(y), x.max(y))).or_default() += 1;
            }
        }
    }
    let copies = |x: usize, y: usize| {
        let n = shared.get(&(x.min(y), x.max(y))).copied().unwrap_or(0);
        let smaller = documents[x].len().min(documents[y].len()).max(1);
        n as f32 >= COPY_SHARE * smaller as f32 && n > 2
    };
    let mut repeats = HashMap::new();
    for places in where_found.values().filter(|p| p.len() > 1) {
        let mut docs: Vec<usize> = places.iter().map(|p| p.0).collect();
        docs.sort_unstable();
        docs.dedup();
        // Documents that are not copies of another one holding the line.
        let independent = docs.iter().filter(|&&x| !docs.iter().any(|&y| y < x && copies(x, y))).count();
        let reason = if independent >= 2 {
            Reason::Repeated(docs.len())
        } else if docs.len() == 1 && places.iter().filter(|&&(d, i)| documents[d][i].own_line).count() >= 2 {
            // Furniture repeats as lines: a sentence that the deck echoes
            // inside its paragraph ("… Wyrok nie jest prawomocny.") and the
            // story then prints on its own line is the story's.
            Reason::RepeatedInPage
        } else {
            continue;
        };
        for &place in places {
            repeats.insert(place, reason);
        }
    }
    repeats
}

/// Letters of the shortest quote taken for a pull quote.
const MIN_PULLED_LETTERS: usize = 20;

/// A pull quote: a paragraph wholly in quote marks whose words the story
/// prints elsewhere on the page ("“การแจกเงินเด็กแรกเกิด … ก้นรั่ว”" above the
/// paragraph that says it, "« Il avait raison. »"). The copy set apart is
/// the furniture; two quoted copies of one paragraph are left alone.
pub(super) fn pulled_quotes(lines: &[Line], reasons: &mut [Option<Reason>]) {
    let paragraphs = paragraphs(lines);
    let texts: Vec<String> = paragraphs.iter().map(|p| lines[p.clone()].iter().map(|l| l.text).collect::<Vec<_>>().join(" ")).collect();
    let keys: Vec<String> = texts.iter().map(|t| line_key(t)).collect();
    let quoted = |t: &str| {
        let t = t.trim();
        t.starts_with(['"', '“', '„', '«', '「', '『', '‘']) && t.ends_with(['"', '”', '“', '»', '」', '』', '’'])
    };
    for (k, p) in paragraphs.iter().enumerate() {
        if !quoted(&texts[k]) || keys[k].chars().count() < MIN_PULLED_LETTERS {
            continue;
        }
        let printed_again = (0..paragraphs.len()).any(|j| j != k && keys[j].contains(&keys[k]) && !(keys[j] == keys[k] && quoted(&texts[j])));
        if printed_again {
            name_unnamed(&mut reasons[p.clone()], Reason::PullQuote);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::segment::furniture::tests::{page, paragraphs_of};
    use crate::segment::furniture::{classify, Line, Reason};

    #[test]
    fn a_quote_the_page_pulls_out_of_its_story() {
        let story = "On ne fait pas naître des enfants dans un département qui n’a plus de maternité, m’a dit un jour un maire voisin.";
        let r = page(&[
            "Il est 3 heures du matin lorsque Léa, 29 ans, ressent ses premières contractions dans sa maison.",
            "« On ne fait pas naître des enfants dans un département qui n’a plus de maternité. »",
            story,
            "« Il avait raison, et tout le monde le savait depuis longtemps dans la vallée. »",
        ]);
        assert_eq!(r, [None, Some(Reason::PullQuote), None, None]);
    }

    #[test]
    fn a_sentence_the_deck_echoes_is_the_storys() {
        let r = paragraphs_of(&[
            &["Balkon runął na przechodniów."],
            &["Sąd uznał, że zarządca przez lata ignorował ekspertyzy.", "Wyrok nie jest prawomocny."],
            &["Sąd Rejonowy skazał we wtorek zarządcę kamienicy na dwa lata więzienia."],
            &["Obrońca zapowiedział apelację."],
            &["Wyrok nie jest prawomocny."],
            &["Czytaj więcej"],
            &["Prokuratura domagała się trzech lat pozbawienia wolności."],
            &["Czytaj więcej"],
        ]);
        assert_eq!(r[5], None, "{r:?}");
        // A site's line printed twice on its own is furniture.
        assert!(matches!(r[6], Some(Reason::RepeatedInPage | Reason::Widget)), "{r:?}");
        let twice = page(&[
            "The council voted on Tuesday to close the old bridge to heavy trucks.",
            "Our reporters in the field.",
            "Engineers found cracks in two of its supports last month, the city said.",
            "Our reporters in the field.",
            "Repairs are expected to take at least a year and cost several million dollars.",
        ]);
        assert_eq!(twice[1], Some(Reason::RepeatedInPage));
    }

    #[test]
    fn recurring_lines_across_articles() {
        let a: Vec<Line> = ["Sign in to comment", "A storm hit the coast on Monday.", "Thousands lost power."]
            .iter()
            .map(|text| Line { text, own_line: false, ends_line: false, lang: "und" })
            .collect();
        let b: Vec<Line> = ["Officials warned of flooding.", "Sign in to comment", "Schools were closed on Tuesday."]
            .iter()
            .map(|text| Line { text, own_line: false, ends_line: false, lang: "und" })
            .collect();
        let r = classify(&[a.clone(), b]);
        // Not own lines: "Sign in" is a cue, not a recurrence (cue comes first).
        assert_eq!(r[0][0], Some(Reason::Widget));
        let x: Vec<Line> = ["Our reporters in the field", "A storm hit the coast on Monday."].iter().map(|text| Line { text, own_line: true, ends_line: true, lang: "und" }).collect();
        let y: Vec<Line> = ["Officials warned of flooding.", "Our reporters in the field."].iter().map(|text| Line { text, own_line: true, ends_line: true, lang: "und" }).collect();
        let r = classify(&[x, y]);
        assert_eq!(r[1][1], Some(Reason::Repeated(2)));
        // Two copies of one story: their shared lines stay prose.
        let story = ["The dam broke on Monday.", "Water flooded the valley.", "Hundreds fled the village.", "Rescuers arrived at night."];
        let copy: Vec<Line> = story.iter().map(|text| Line { text, own_line: true, ends_line: true, lang: "und" }).collect();
        let r = classify(&[copy.clone(), copy]);
        assert!(r.iter().flatten().all(Option::is_none), "{r:?}");
    }
}
