//! Prose or page furniture: which sentences may go into a summary.
//!
//! Text copied or scraped from a web page carries its furniture along:
//! share buttons ("Tweet with a location"), credits ("(Photo: Boyd Huppert,
//! KARE 11)"), datelines ("STOWE, Vt."), section labels ("PREVIOUSLY:"),
//! headings, quote openers ("Karl Rove:"). Summaries must not pick them.
//! [`classify`] decides per sentence, for a whole cluster at once, and says
//! why in words a user can read. The sentences stay in the cluster; they are
//! only never candidates.
//!
//! The signals are language-independent first:
//! - size and the end of the sentence: a line of its own that does not end
//!   like a sentence (`.`, `!`, `?`, `。`, `؟`, … before closing quotes) is a
//!   heading, a caption or a widget, unless the document hardly ends any of
//!   its sentences that way (Thai, lists of notes);
//! - the share of letters (phone numbers, times, rules of symbols);
//! - capitalization: all capitals, or Title Case Throughout;
//! - a line ending in `:` (a label, a quote opener), a `LABEL:` prefix, a
//!   line wholly in parentheses (credits, asides), links and addresses;
//! - the position in the page: short lines in the runs of furniture that
//!   open and close a page;
//! - recurrence: a short line found in several articles of the cluster (one
//!   site's furniture repeats) or several times in one page.
//!
//! Small cue lists in the 16 languages (credits, share/subscribe widgets,
//! "posted on" stamps) name the kind of furniture and catch the few lines
//! the signals above miss; they are one signal among the others.
//!
//! Clean text loses nothing: the rules that judge form (ending, size, case)
//! only apply to a document with more than one sentence whose sentences
//! mostly end like sentences, and only to lines that stand alone (a sentence
//! inside a paragraph of prose is prose). Cost: one pass over each sentence
//! and a hash of each short line.
//!
//! The files, from the passes over many sentences down to the tables:
//! - `cluster`: short lines that recur across the cluster's articles or in
//!   one page; `page`: the passes over a document's paragraphs and edges;
//!   `comments`: the readers' thread under an article;
//! - `ladder`: the rules on one sentence, in order (the first that fires
//!   gives the reason), which call the checks of `form` (size, case,
//!   ending), `labels`, `credits`, `captions`, `stamps`, `links`,
//!   `boilerplate` and `cues` (the phrase lists of the 16 languages);
//! - `authors`: the byline's name, and the notes on the writer that
//!   start with it;
//! - `line`: a sentence and what the rules read off it; `reason`: the
//!   reasons and their words for a user.

mod authors;
mod boilerplate;
mod captions;
mod cluster;
mod comments;
mod credits;
mod cues;
mod form;
mod labels;
mod ladder;
mod line;
mod links;
mod page;
mod reason;
mod stamps;
#[cfg(test)]
mod tests;

pub use line::Line;
pub use reason::Reason;

use authors::author_notes;
use cluster::{pulled_quotes, recurrence};
use comments::comment_thread;
use line::SHORT_LINE_WORDS;
use links::{breadcrumb, signed_posts, skipped_embeds};
use form::too_short;
use ladder::{judge, judged_by_form};
use line::Features;
use stamps::entry_titles;
use page::{
    asking_headline, captions_over_credits, credited_paragraphs, one_word_answers, decks, edge_runs, furniture_page, furniture_paragraphs, headline_lines, headline_lists, link_blocks, question_subheads, scores_in_the_text,
    site_notices, speaker_labels, unpunctuated_page,
};

/// The reason each sentence is not prose (`None`: prose), per document and
/// sentence, for a whole cluster.
pub fn classify(documents: &[Vec<Line>]) -> Vec<Vec<Option<Reason>>> {
    let features: Vec<Vec<Features>> = documents.iter().map(|d| d.iter().map(|l| Features::of(l.text)).collect()).collect();
    let repeats = recurrence(documents, &features);
    documents
        .iter()
        .zip(&features)
        .enumerate()
        .map(|(d, (lines, features))| {
            let form_applies = lines.len() > 1 && judged_by_form(features);
            let mut reasons: Vec<Option<Reason>> = lines
                .iter()
                .zip(features)
                .enumerate()
                .map(|(i, (line, f))| {
                    judge(line, f, form_applies, lines.len() > 1)
                        .or_else(|| match repeats.get(&(d, i)) {
                            // A full sentence that two wire stories share is prose,
                            // and so is a document of one sentence.
                            Some(&r) if form_applies && line.own_line && (!f.ends_sentence || f.words <= 5.0) => Some(r),
                            _ => None,
                        })
                        // Last, so that a breadcrumb another rule names keeps its name.
                        .or_else(|| (line.own_line && f.words <= SHORT_LINE_WORDS && breadcrumb(line.text)).then_some(Reason::Link))
                })
                .collect();
            site_notices(lines, &mut reasons);
            captions_over_credits(lines, features, &mut reasons);
            author_notes(lines, features, &mut reasons);
            signed_posts(lines, form_applies, &mut reasons);
            skipped_embeds(lines, features, &mut reasons);
            pulled_quotes(lines, &mut reasons);
            if !form_applies && lines.len() > 1 {
                // Captions first: a caption over its credit would otherwise
                // end a run of short lines taken for links.
                credited_paragraphs(lines, features, &mut reasons);
                unpunctuated_page(lines, features, &mut reasons);
            }
            if form_applies {
                headline_lines(lines, features, &mut reasons);
                decks(lines, &mut reasons);
                link_blocks(lines, features, &mut reasons);
                edge_runs(lines, features, &mut reasons);
                furniture_paragraphs(lines, features, &mut reasons);
                speaker_labels(lines, &mut reasons);
                headline_lists(lines, features, &mut reasons);
                asking_headline(lines, features, &mut reasons);
                question_subheads(lines, features, &mut reasons);
                entry_titles(lines, features, &mut reasons);
            }
            one_word_answers(lines, features, &mut reasons);
            scores_in_the_text(lines, &mut reasons);
            comment_thread(lines, &mut reasons);
            furniture_page(&mut reasons);
            reasons
        })
        .collect()
}

/// Why a prose sentence says nothing alone, so that neither a summary nor
/// a stream's updates pick it, though inside its paragraph it is prose: at
/// most three words without a number in a clause ("Et pourtant.", see
/// `too_short`); only a date ("17 de mayo de 2011.", "24 de junio.": the
/// head of a chronology's entry, in every language `dates` reads); a
/// pointer to what follows it on the page (`points_ahead`); or a sentence
/// that trails off into an ellipsis, a teaser cut off ("… a casino
/// license…"), which inside a long paragraph stays prose (see `ladder`).
pub fn says_nothing_alone(text: &str) -> Option<Reason> {
    let features = Features::of(text);
    if too_short(&features) {
        Some(Reason::TooShort)
    } else if stamps::bare_date(text, &features) {
        Some(Reason::DateAlone)
    } else if points_ahead(text) {
        Some(Reason::PointsAhead)
    } else if features.ends_ellipsis {
        Some(Reason::CutOff)
    } else {
        None
    }
}

/// Words that present what comes next on the page: "Voici quelques vidéos
/// de la ville de Homs.", "He aquí una selección de videos…", "Here are 18
/// impressive facts…", "Estos son los últimos hechos…", Italian "Ecco",
/// Portuguese "Eis", Polish "Oto". (Not German "Hier ist" or Russian
/// "Вот", which also open plain statements: "Hier ist die Lage
/// angespannt.")
const PRESENTATIVES: &[&str] = &[
    "Voici ", "He aquí ", "Here is ", "Here are ", "Here's ", "Here’s ", "Ecco ", "Eis ", "Oto ", //
    "Estos son los ", "Estas son las ", "Estos son las ", "Estas son los ",
];

/// A sentence that opens by presenting what follows it and holds none of
/// it (no colon brings it in): a summary line that points at nothing.
/// Judged summary lines: 16 such, 15 junk; the labelled pages of 49
/// languages: no prose line.
fn points_ahead(text: &str) -> bool {
    let text = text.trim_start_matches(['"', '“', '«', '„', '‘', '\'', ' ']);
    PRESENTATIVES.iter().any(|word| text.starts_with(word)) && !text.contains([':', '：'])
}

/// A sentence's size in words as the rules count it in every script:
/// spaced tokens, ideographs / 2, Thai, Lao, Khmer, Myanmar and Tibetan
/// letters / 5, Korean words × 2.
pub fn words(text: &str) -> f32 {
    Features::of(text).words
}

/// Whether a sentence ends like one (`.`, `!`, `?`, `。`, `؟`, … before
/// closing quotes and brackets).
pub fn ends_like_sentence(text: &str) -> bool {
    Features::of(text).ends_sentence
}

/// Whether a sentence asks a question (`?`, `？`, `؟` before closing quotes
/// and brackets).
pub fn asks(text: &str) -> bool {
    form::asks_a_question(&Features::of(text))
}

/// The reason for one sentence taken alone (a document of one sentence).
pub fn classify_sentence(text: &str) -> Option<Reason> {
    classify(&[vec![Line { text, own_line: true, ends_line: true, lang: "und" }]]).remove(0).remove(0)
}
