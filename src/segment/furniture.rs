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

use super::lead_label::is_lead_label;
use super::line_key::{key_hash, line_key};
use crate::dates::{self, CivilDate, MentionKind};
use std::collections::{HashMap, HashSet};
use std::fmt;

/// One sentence as the classifier sees it.
#[derive(Clone, Copy, Debug)]
pub struct Line<'a> {
    /// The sentence, whitespace-normalized.
    pub text: &'a str,
    /// It stands on its own line(s) in the source: a line break (or the
    /// start or end of the text) before and after it.
    pub own_line: bool,
    /// A line break (or the end of the text) follows it.
    pub ends_line: bool,
    /// Its language (ISO 639-1, "und" when unknown): capitals mark nouns
    /// in German, so no rule reads a German line's capitals as a title's.
    pub lang: &'a str,
}

/// Why a sentence is not prose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// Mostly digits and symbols: phone numbers, times, scores, rules.
    Symbols,
    /// A link, an e-mail address or a social handle.
    Link,
    Copyright,
    PhotoCredit,
    Credit,
    /// Share, follow, subscribe, "read more", advertisement.
    Widget,
    /// "Posted on …", "Updated at …".
    Stamp,
    /// "Enable JavaScript", "This site uses cookies".
    BrowserNotice,
    /// Wholly in parentheses or brackets.
    Parenthesized,
    /// Ends in ':' — a label or a quote opener.
    Colon,
    /// Starts with a short all-caps label and a colon: "PHOTOS: …".
    LabelPrefix,
    Dateline,
    AllCaps,
    TitleCase,
    /// A line of its own without a sentence ending.
    NoEnding,
    /// One word (in a document of several sentences).
    TooShort,
    /// The same short line in this many articles of the cluster.
    Repeated(usize),
    /// The same short line several times in one article.
    RepeatedInPage,
    /// A short line in the furniture that opens or closes the page.
    EdgeRun,
    /// Ends in "..." at the end of its line: a teaser or a cut-off line.
    CutOff,
    /// "…, Thursday, Dec. 20, 2012, in Chicago.": an agency photo caption.
    Caption,
    /// A sentence that recurs verbatim on the pages of many unrelated news
    /// sites (learned from Multi-News train pages; `boilerplate.txt`).
    Boilerplate,
    /// "Image caption …", "CLOSE …": a widget's label glued to the text.
    GluedLabel,
    /// "Headline Headline The story…": a headline printed twice.
    RepeatedHeadline,
    /// A tweet or post quoted by the page: "… — Name (@handle) June 20, 2017".
    EmbeddedPost,
    /// Ends in ':', ',', ';' or a dash: it only introduces what follows.
    Dangling,
    /// The rest of a short page that is mostly furniture: a video page, an
    /// error page, an archive's notes.
    FurniturePage,
    /// "UPDATE: …", "Editor's note: …", "This story has been corrected…".
    EditorNote,
    /// Starts with a lowercase letter: the rest of a line the page broke.
    LowercaseStart,
    /// In a short paragraph with a photo credit: the photo's caption.
    CreditedCaption,
    /// "GEORGE STEPHANOPOULOS: …": a speaker's label in a transcript.
    SpeakerLabel,
    /// A bullet, or an entry in a short paragraph led by a name or label
    /// ("Patrick Callahan, 21, Mansfield, CT. Charged with …").
    ListEntry,
    /// "… provided below.", "(3:40)", "here are 20 of …": it points at a
    /// table, a video or a list elsewhere on the page.
    PageReference,
    /// "… reading list.”—Connie Britton": a blurb or pull quote signed by
    /// its author.
    PullQuote,
    /// "22h50 : Le Conseil de sécurité …", "10:32 a.m. — …": an entry of a
    /// live blog, led by its time.
    TimedEntry,
    /// "Israël : qui sont les nouveaux « anti-Bibi » ?", or the page's first
    /// line when it asks: a headline that ends in '?' or '!'.
    Headline,
    /// "WASHINGTON (AP) —", "FOCUS -": a dateline or kicker label the
    /// splitter cut from the text it opened.
    LeadLabel,
    /// "Subscribe now for unlimited access", "Hai già un abbonamento?",
    /// "この記事は会員限定です。": the site asking to subscribe, donate or
    /// log in, in full sentences as often as not.
    Appeal,
    /// "Leggi anche: …", "Czytaj też: …", "相关阅读：…": another article's
    /// headline behind its label.
    RelatedLink,
    /// "Smog dusi Kraków. Normy pyłu przekroczone …": a line whose last
    /// sentence has no end (a headline or a link), or the deck between a
    /// page's headline and its byline or date.
    HeadlineBlock,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Symbols => write!(f, "not prose: mostly numbers or symbols"),
            Reason::Link => write!(f, "page furniture: link or address"),
            Reason::Copyright => write!(f, "page furniture: copyright notice"),
            Reason::PhotoCredit => write!(f, "page furniture: photo credit"),
            Reason::Credit => write!(f, "page furniture: credit or byline"),
            Reason::Widget => write!(f, "page furniture: share, subscribe or read-more link"),
            Reason::Stamp => write!(f, "page furniture: posted or updated stamp"),
            Reason::BrowserNotice => write!(f, "page furniture: browser or cookie notice"),
            Reason::Parenthesized => write!(f, "page furniture: credit or aside in parentheses"),
            Reason::Colon => write!(f, "fragment: label or quote opener ending in ':'"),
            Reason::LabelPrefix => write!(f, "page furniture: section label"),
            Reason::Dateline => write!(f, "page furniture: dateline"),
            Reason::AllCaps => write!(f, "page furniture: all-caps label"),
            Reason::TitleCase => write!(f, "fragment: every word capitalized (a heading, a name or a label)"),
            Reason::NoEnding => write!(f, "fragment: heading, caption or label (no sentence ending)"),
            Reason::TooShort => write!(f, "fragment: too short to stand alone"),
            Reason::Repeated(n) => write!(f, "page furniture: repeated across {n} articles"),
            Reason::RepeatedInPage => write!(f, "page furniture: repeated within the page"),
            Reason::EdgeRun => write!(f, "page furniture: short line among the page's header or footer"),
            Reason::CutOff => write!(f, "fragment: cut off ('...')"),
            Reason::Caption => write!(f, "page furniture: photo caption"),
            Reason::Boilerplate => write!(f, "page furniture: site boilerplate seen on many news sites"),
            Reason::GluedLabel => write!(f, "page furniture: widget label glued to the text"),
            Reason::RepeatedHeadline => write!(f, "fragment: headline printed twice before the text"),
            Reason::EmbeddedPost => write!(f, "page furniture: embedded social media post"),
            Reason::Dangling => write!(f, "fragment: ends in ':', ',' or a dash (introduces what follows)"),
            Reason::FurniturePage => write!(f, "page furniture: on a short page that is mostly furniture"),
            Reason::EditorNote => write!(f, "page furniture: update label or editor's note"),
            Reason::LowercaseStart => write!(f, "fragment: starts in lowercase (the rest of a broken line)"),
            Reason::CreditedCaption => write!(f, "page furniture: photo caption (next to its credit)"),
            Reason::SpeakerLabel => write!(f, "page furniture: speaker's label in a transcript"),
            Reason::ListEntry => write!(f, "fragment: entry in a list"),
            Reason::PageReference => write!(f, "page furniture: points to a table, video or list on the page"),
            Reason::PullQuote => write!(f, "page furniture: pull quote or blurb signed by its author"),
            Reason::TimedEntry => write!(f, "page furniture: live-blog entry led by its time"),
            Reason::Headline => write!(f, "fragment: headline (a question or exclamation on its own line)"),
            Reason::LeadLabel => write!(f, "page furniture: dateline or label before the text"),
            Reason::Appeal => write!(f, "page furniture: subscription, donation or log-in prompt"),
            Reason::RelatedLink => write!(f, "page furniture: link to another article"),
            Reason::HeadlineBlock => write!(f, "fragment: headline or deck (its line ends without a sentence end, or it stands between the headline and the byline)"),
        }
    }
}

/// Lines longer than this (in words) are never judged by recurrence, cue
/// or position: a long sentence quoted by two articles is prose.
const SHORT_LINE_WORDS: f32 = 15.0;
/// A document whose sentences end like sentences less often than this (of
/// those of 8 words or more) is not judged by its endings.
const MIN_PUNCTUATED_SHARE: f32 = 0.5;
/// … unless this many of them do (see `judged_by_form`).
const MIN_PUNCTUATED_SENTENCES: usize = 5;
/// Two articles sharing this share of their lines are copies of one story:
/// their common lines are prose, not furniture.
const COPY_SHARE: f32 = 0.3;

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
                    judge(line, f, form_applies, lines.len() > 1).or_else(|| match repeats.get(&(d, i)) {
                        // A full sentence that two wire stories share is prose,
                        // and so is a document of one sentence.
                        Some(&r) if form_applies && line.own_line && (!f.ends_sentence || f.words <= 5.0) => Some(r),
                        _ => None,
                    })
                })
                .collect();
            site_notices(lines, &mut reasons);
            captions_over_credits(lines, features, &mut reasons);
            if !form_applies && lines.len() > 1 {
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
            }
            furniture_page(&mut reasons);
            reasons
        })
        .collect()
}

/// Too short to say anything alone: at most three words without a number
/// in a clause (see `too_short`); a summary does not pick such a sentence,
/// though inside its paragraph it is prose.
pub fn too_short_to_stand_alone(text: &str) -> bool {
    too_short(&Features::of(text))
}

/// A sentence's size in words as the rules count it in every script:
/// spaced tokens, ideographs / 2, Thai letters / 5, Korean words × 2.
pub fn words(text: &str) -> f32 {
    Features::of(text).words
}

/// Whether a sentence ends like one (`.`, `!`, `?`, `。`, `؟`, … before
/// closing quotes and brackets).
pub fn ends_like_sentence(text: &str) -> bool {
    Features::of(text).ends_sentence
}

/// The reason for one sentence taken alone (a document of one sentence).
pub fn classify_sentence(text: &str) -> Option<Reason> {
    classify(&[vec![Line { text, own_line: true, ends_line: true, lang: "und" }]]).remove(0).remove(0)
}

/// What the rules read off one sentence, in one pass over its characters.
#[derive(Clone, Debug, Default)]
struct Features {
    /// Size in words: space-separated tokens, or ideographs / 2, Thai / 5.
    words: f32,
    /// Mostly ideographs, kana or Thai: scripts that do not space words.
    spaceless: bool,
    letters: usize,
    digits: usize,
    /// Other visible characters (punctuation, symbols).
    others: usize,
    upper: usize,
    lower: usize,
    /// Ends like a sentence (before closing quotes and brackets).
    ends_sentence: bool,
    /// Ends in ':', before closing marks or before punctuation standing for
    /// a value the page left empty ("El tiempo en Madrid: .").
    ends_colon: bool,
    /// Ends in ':', ',', ';' or a dash.
    ends_dangling: bool,
    /// Ends in "..." or "…".
    ends_ellipsis: bool,
    parenthesized: bool,
    /// Alphabetic words, and those starting with a capital.
    alpha_words: usize,
    capitalized_words: usize,
    /// Words of 4+ letters starting with a lowercase letter.
    long_lowercase_words: usize,
    /// Words starting with a lowercase letter.
    lowercase_words: usize,
    /// Lowercased, ':' normalized ("photo :" and "写真：" → "photo:", "写真:").
    folded: String,
}

/// Marks that may follow a sentence's end; '“' and '‘' close German quotes
/// („Ja.“), and '«' those written »so.«
fn is_closing(c: char) -> bool {
    matches!(c, '"' | '\'' | '”' | '’' | '“' | '‘' | '»' | '›' | '«' | '‹' | ')' | ']' | '」' | '』' | '）' | '】' | '》' | '〉' | '*' | '_')
}

fn is_sentence_end(c: char) -> bool {
    matches!(c, '.' | '!' | '?' | '…' | '。' | '！' | '？' | '؟' | '।' | '‼' | '⁇' | '⁈' | '⁉' | '．' | '｡' | '۔')
}

impl Features {
    fn of(text: &str) -> Self {
        let mut f = Features::default();
        let mut tokens = 0usize;
        let mut ideographs = 0usize;
        let mut thai = 0usize;
        let mut hangul = 0usize;
        for word in text.split_whitespace() {
            let mut chars = word.chars().filter(|c| c.is_alphanumeric());
            if let Some(first) = chars.next() {
                tokens += 1;
                if first.is_alphabetic() {
                    f.alpha_words += 1;
                    if first.is_uppercase() {
                        f.capitalized_words += 1;
                    } else if first.is_lowercase() {
                        f.lowercase_words += 1;
                        if word.chars().filter(|c| c.is_alphabetic()).count() >= 4 {
                            f.long_lowercase_words += 1;
                        }
                    }
                }
            }
        }
        for c in text.chars() {
            if c.is_alphabetic() {
                f.letters += 1;
                if c.is_uppercase() {
                    f.upper += 1;
                } else if c.is_lowercase() {
                    f.lower += 1;
                }
                if matches!(c as u32, 0xAC00..=0xD7AF) {
                    hangul += 1;
                } else if crate::text::is_cjk_word_char(c) {
                    ideographs += 1;
                } else if matches!(c as u32, 0x0E00..=0x0E7F) {
                    thai += 1;
                }
            } else if c.is_numeric() {
                f.digits += 1;
            } else if !c.is_whitespace() {
                f.others += 1;
            }
        }
        f.spaceless = ideographs + thai > f.letters / 2;
        f.words = if f.spaceless {
            ideographs as f32 / 2.0 + thai as f32 / 5.0 + (tokens as f32 / 2.0).min(3.0)
        } else if hangul > f.letters / 2 {
            // A Korean word (eojeol) carries a noun and its particles, or a
            // verb and its endings: about two English words.
            2.0 * tokens as f32
        } else {
            tokens as f32
        };
        let trimmed = text.trim_end_matches(|c: char| is_closing(c) || c.is_whitespace());
        let last = trimmed.chars().next_back();
        f.ends_sentence = last.is_some_and(is_sentence_end);
        let before_empty_value = text.trim_end_matches(|c: char| c.is_whitespace() || (c.is_ascii_punctuation() && c != ':'));
        f.ends_colon = matches!(last, Some(':' | '：')) || before_empty_value.ends_with([':', '：']);
        f.ends_dangling = matches!(last, Some(':' | '：' | ',' | '，' | '、' | ';' | '；' | '-' | '—' | '–'));
        // Not an ellipsis after a sentence's own end ("… on the way to the
        // exit. ..."): the sentence was whole, the quote went on.
        let before_ellipsis = trimmed.trim_end_matches(['.', '…', ' ']).chars().next_back();
        f.ends_ellipsis = (trimmed.ends_with("...") || trimmed.ends_with('…'))
            && !before_ellipsis.is_some_and(|c| is_sentence_end(c) || is_closing(c));
        let first = text.chars().next();
        let end = text.chars().next_back();
        f.parenthesized = matches!(
            (first, end),
            (Some('('), Some(')')) | (Some('['), Some(']')) | (Some('（'), Some('）')) | (Some('【'), Some('】'))
        ) || matches!((first, last), (Some('('), Some('.')) if trimmed.ends_with(").") && !text[1..].contains('('));
        let mut folded = String::with_capacity(text.len());
        for c in text.chars() {
            let c = if c == '：' { ':' } else { c };
            if c == ':' && folded.ends_with(' ') {
                folded.pop();
            }
            folded.extend(c.to_lowercase());
        }
        f.folded = folded;
        f
    }

    fn cased(&self) -> usize {
        self.upper + self.lower
    }
}

/// Whether a document's sentences are judged by their endings, size and
/// case: when its sentences of 8+ words mostly end like sentences (or it
/// has none that long), or when at least `MIN_PUNCTUATED_SENTENCES` of them
/// do. The second case is a page whose related-story headlines outnumber
/// the story's own sentences (45 headlines beside 13 sentences): the story
/// shows that the page punctuates, so its headlines are headlines. A text
/// that seldom punctuates (a chat log, a list) is still left alone.
fn judged_by_form(features: &[Features]) -> bool {
    let long = features.iter().filter(|f| f.words >= 8.0).count();
    let punctuated = features.iter().filter(|f| f.words >= 8.0 && f.ends_sentence).count();
    long == 0 || punctuated as f32 >= MIN_PUNCTUATED_SHARE * long as f32 || punctuated >= MIN_PUNCTUATED_SENTENCES
}

/// The rules on one sentence; `form`: the ending, size and case rules
/// apply; `several`: the document has more than one sentence.
fn judge(line: &Line, f: &Features, form: bool, several: bool) -> Option<Reason> {
    let visible = f.letters + f.digits + f.others;
    if visible == 0 {
        return Some(Reason::Symbols);
    }
    if is_lead_label(line.text) {
        return Some(Reason::LeadLabel);
    }
    // Phone numbers, times, scores, "___", "+".
    let letters = f.letters as f32 / visible as f32;
    if f.words <= SHORT_LINE_WORDS && (letters < 0.35 || (letters < 0.5 && !f.ends_sentence)) {
        return Some(Reason::Symbols);
    }
    if boilerplate(line.text) {
        return Some(Reason::Boilerplate);
    }
    if glued_label(line.text, f) {
        return Some(Reason::GluedLabel);
    }
    if repeated_headline(line.text) {
        return Some(Reason::RepeatedHeadline);
    }
    if embedded_post(&f.folded) || opens_with_handle(line.text) || opens_with_tag(line.text) {
        return Some(Reason::EmbeddedPost);
    }
    if let Some(reason) = cue(f) {
        return Some(reason);
    }
    if opens_with_photo_credit(f) || credit_in_capitals(line.text) {
        return Some(Reason::CreditedCaption);
    }
    if byline(f) {
        return Some(Reason::Credit);
    }
    if clock_stamp(line.text, f) || dated_stamp(line.text, f) {
        return Some(Reason::Stamp);
    }
    if opens_with_time(line.text) {
        return Some(Reason::TimedEntry);
    }
    if chronology_entry(line.text) {
        return Some(Reason::ListEntry);
    }
    if agency_caption(line.text, f) {
        return Some(Reason::Caption);
    }
    // "(Associated Press)", not "(We are pretty sure it is about her.)".
    if f.parenthesized && f.words <= 12.0 && !f.ends_sentence {
        return Some(Reason::Parenthesized);
    }
    // "Karl Rove:", "ALSO:", and a label whose value the page left empty
    // ("El tiempo en Madrid: .").
    if f.ends_colon && f.words <= 8.0 {
        return Some(Reason::Colon);
    }
    // "… released the following statement:": whatever it introduces is
    // not in the sentence, so alone (in a summary) it dangles.
    if f.ends_dangling {
        return Some(Reason::Dangling);
    }
    if ends_in_link(&f.folded) {
        return Some(Reason::Link);
    }
    if label_prefix(line.text, f) || (line.lang != "de" && title_label(line.text)) {
        return Some(Reason::LabelPrefix);
    }
    if pull_quote(line.text) {
        return Some(Reason::PullQuote);
    }
    if video_length(line.text) {
        return Some(Reason::PageReference);
    }
    if bullet(line.text) {
        return Some(Reason::ListEntry);
    }
    if !form {
        // A list or a table (few sentence ends) still has headings and
        // one-word cells: "2018 Federal Poverty Guidelines", "Household/".
        return (several && heading_or_name(f)).then_some(Reason::TitleCase);
    }
    if dateline(line.text, f) {
        return Some(Reason::Dateline);
    }
    // Capitals among cased letters, where cased letters are most of the
    // line: "(CATL)" in a Japanese sentence is not an all-caps line.
    if f.cased() >= 6 && f.upper as f32 >= 0.8 * f.cased() as f32 && 2 * f.cased() >= f.letters {
        return Some(Reason::AllCaps);
    }
    // A teaser cut off by the page, or a quote trailing off: either way the
    // sentence is not whole.
    // Inside a paragraph only a short one: a long quote trailing off ("Maybe
    // you have teen-agers yourself and know how they are ...") still says
    // what it says.
    if f.ends_ellipsis && (line.ends_line || f.words <= 8.0) {
        return Some(Reason::CutOff);
    }
    // A short sentence inside a paragraph is part of its prose ("Nobody was
    // hurt.", "¿Cuánto ha llovido?", "Пострадавших нет."); alone on its
    // line it is a fragment, and one word is one anywhere.
    if too_short(f) && (f.words <= 1.0 || (line.own_line && !short_statement(line.text, f))) {
        return Some(Reason::TooShort);
    }
    if heading_or_name(f) {
        return Some(Reason::TitleCase);
    }
    if starts_lowercase(line.text) || broken_parenthesis(line.text) {
        return Some(Reason::LowercaseStart);
    }
    // Inside a paragraph of prose a sentence is prose; on its own line it
    // must look like one. The last sentence of a line must end like one.
    if !line.own_line {
        return (line.ends_line && !f.ends_sentence && f.words <= SHORT_LINE_WORDS).then_some(Reason::NoEnding);
    }
    // A line of its own without a sentence end, up to 40 words, is a
    // headline, a deck or a caption; only a very long line is prose that
    // lost its full stop.
    if !f.ends_sentence && f.words <= 40.0 {
        return Some(Reason::NoEnding);
    }
    if title_case(f) {
        return Some(Reason::TitleCase);
    }
    if labelled_headline(line.text, f) {
        return Some(Reason::Headline);
    }
    None
}

/// "Пострадавших нет.", "Госпитализирован один человек.", "Kibicuję temu
/// eksperymentowi.": two or three words with a full stop and a lowercase
/// word of three letters or more (a verb or a noun in the clause) make a
/// statement in the languages that need no articles; "On Saturday." and
/// "December 19." have no such word.
fn short_statement(text: &str, f: &Features) -> bool {
    let statement_end = text.trim_end_matches(|c: char| is_closing(c) || c.is_whitespace()).ends_with(['.', '。']);
    let lowercase_word = text.split_whitespace().any(|w| {
        let letters: Vec<char> = w.chars().filter(|c| c.is_alphabetic()).collect();
        letters.len() >= 3 && letters[0].is_lowercase()
    });
    f.words >= 2.0 && statement_end && lowercase_word
}

/// Sentences of at most three words say nothing alone ("On Saturday.",
/// "TMZ has learned.", "Love Ireland!", "December 19."), unless they carry
/// a number in a clause ("He was 83.": a digit, a lowercase word and
/// another word of letters; "$9.65 million?" has no clause); one word never
/// does.
fn too_short(f: &Features) -> bool {
    let clause_with_number = f.digits > 0 && f.lowercase_words > 0 && f.alpha_words >= 2;
    f.words <= 1.0 || (f.words <= 3.0 && !clause_with_number)
}

/// "Israël : qui sont les nouveaux « anti-Bibi » ?", "Opinión: ¿A quién le
/// sirve un ataque …?": on a line of its own, a short question or
/// exclamation after a label (one word, or a few capitalized ones) and a
/// colon is a headline. ("Here's the thing: why …?" has a lowercase label;
/// a question with a full stop, or in a paragraph, is not a candidate.)
fn labelled_headline(text: &str, f: &Features) -> bool {
    let Some((label, rest)) = text.split_once([':', '：']) else { return false };
    let words: Vec<&str> = label.split_whitespace().collect();
    let capitalized = words.iter().filter(|w| w.starts_with(|c: char| c.is_uppercase())).count();
    let labelled = words.first().is_some_and(|w| w.starts_with(|c: char| c.is_uppercase()))
        && (words.len() == 1 || (words.len() <= 4 && capitalized as f32 >= 0.75 * words.len() as f32))
        && !label.contains(['"', '“', '‘', '«']);
    labelled && !rest.trim().is_empty() && asks_like_a_headline(text, f)
}

/// "Patrick Callahan, 21, Mansfield, CT.", "2018 Federal Poverty
/// Guidelines": every word capitalized, so no verb in any cased language (a
/// verb is lowercase even in German); a list item, a name, a heading.
fn no_lowercase_word(f: &Features) -> bool {
    f.alpha_words >= 2 && f.lowercase_words == 0 && f.capitalized_words == f.alpha_words
}

/// One word, every word capitalized, or a title-case line without a
/// sentence end: a heading, a name, a table's cell.
fn heading_or_name(f: &Features) -> bool {
    f.words <= 1.0 || no_lowercase_word(f) || (title_case(f) && !f.ends_sentence)
}

/// "($55,327), North-Central New Jersey ($53,986) …": the rest of a line
/// cut inside a list of figures.
fn broken_parenthesis(text: &str) -> bool {
    text.strip_prefix('(').and_then(|rest| rest.split_once(')')).is_some_and(|(_, after)| after.starts_with([',', ';']))
}

/// "- Top ranked pages …", "-- up to a maximum of 100 …", "• …": a list's
/// bullet. (A dash with spaces, "— Я не знаю", opens dialogue in Russian,
/// Spanish and French, so only the hyphen-minus, "*" and "•" count.)
fn bullet(text: &str) -> bool {
    // "•Selon Alain Juppé, …": the bullet glued to the item.
    ["- ", "-- ", "* ", "•", "· "].iter().any(|b| text.starts_with(b))
}

/// "Day of Silent Social Media: Think you can turn it off?", "Figure 1:
/// Location …": a title-case label of two to six words (one word is too
/// often a title's first half: "Kong: Skull Island is …"), a colon, then a
/// capital. ("The result: a draw." and "NEW DELHI: The …" are left alone:
/// lowercase after the colon, or an all-caps dateline.)
fn title_label(text: &str) -> bool {
    let Some((label, rest)) = text.split_once(':') else { return false };
    let words: Vec<&str> = label.split_whitespace().collect();
    // 'For "Fare Thee Well: Celebrating …" shows' quotes a title.
    if label.contains(['"', '“', '‘', '\'', '«']) {
        return false;
    }
    let capitalized = words.iter().filter(|w| w.starts_with(|c: char| c.is_uppercase() || c.is_ascii_digit())).count();
    let all_caps = label.chars().filter(|c| c.is_alphabetic()).all(char::is_uppercase);
    // "Tony Gwynn: When he's hot, he's impossible." is a statement under
    // its subject's name, an entry of a list in the story.
    let statement = rest.trim_end().ends_with('.');
    (2..=6).contains(&words.len())
        && capitalized as f32 >= 0.75 * words.len() as f32
        && !all_caps
        && !statement
        && rest.trim_start().starts_with(|c: char| c.is_uppercase())
}

/// "… reading list, and every boy’s and man’s, too.”—Connie Britton",
/// "… but I do.” — Claire Danes, asked how she’ll tell …": a closing quote,
/// a dash, and a signature without a sentence end.
fn pull_quote(text: &str) -> bool {
    ["”—", "” —", "\"—", "\" —", "»—", "» —", "” –", "\" –"].iter().any(|mark| {
        text.rsplit_once(mark).is_some_and(|(_, signature)| {
            let signature = signature.trim();
            signature.starts_with(|c: char| c.is_uppercase())
                && !signature.trim_end_matches(is_closing).ends_with(is_sentence_end)
                && !signature.contains(['"', '“', '”'])
        })
    })
}

/// "Wedding costs soar to new highs (3:40) As Americans …": a video's
/// length in parentheses.
fn video_length(text: &str) -> bool {
    text.match_indices('(').any(|(at, _)| {
        let inside: String = text[at + 1..].chars().take_while(|&c| c != ')').collect();
        let Some((minutes, seconds)) = inside.split_once(':') else { return false };
        (1..=2).contains(&minutes.len())
            && seconds.len() == 2
            && minutes.chars().chain(seconds.chars()).all(|c| c.is_ascii_digit())
    })
}

/// "in up to 40 states – in many for the first time.", "reset Will Clinton
/// playbook work?": a sentence whose first word is in lowercase is the end
/// of a line the page broke, or a widget's word glued to a headline.
/// "iPhone sales…", "eBay said…" (a capital inside the word) are names.
fn starts_lowercase(text: &str) -> bool {
    // '" she recalled.': the tail of a quote the splitter cut off.
    let text = text.trim_start_matches(|c: char| matches!(c, '"' | '”' | '’' | '»') || c.is_whitespace());
    let first_word = text.split_whitespace().next().unwrap_or("");
    first_word.chars().next().is_some_and(char::is_lowercase) && !first_word.chars().any(char::is_uppercase)
}

/// The sentences of each paragraph: runs of lines up to one that ends a
/// line.
fn paragraphs(lines: &[Line]) -> Vec<std::ops::Range<usize>> {
    let mut out = vec![];
    let mut start = 0;
    for (i, line) in lines.iter().enumerate() {
        if line.ends_line || i + 1 == lines.len() {
            out.push(start..i + 1);
            start = i + 1;
        }
    }
    out
}

/// Words in a paragraph that can still be a caption with its credit.
const CAPTION_PARAGRAPH_WORDS: f32 = 50.0;

/// A short paragraph takes the role of the furniture that marks it: with a
/// photo credit it is a caption ("Donald Trump before opening the Nasdaq on
/// September 20, 2005. Michael Nagle/Getty Images"; also a credit in
/// parentheses, or an agency after a bar: "Manifestación en la localidad
/// siria de Banias. | Ap"), led by a name with a number it is a list entry,
/// and with an embedded post's signature it is the post.
fn furniture_paragraphs(lines: &[Line], features: &[Features], reasons: &mut [Option<Reason>]) {
    for paragraph in paragraphs(lines) {
        let words: f32 = features[paragraph.clone()].iter().map(|f| f.words).sum();
        if words > CAPTION_PARAGRAPH_WORDS || paragraph.len() > 3 {
            continue;
        }
        let credited = reasons[paragraph.clone()].iter().any(|r| matches!(r, Some(Reason::PhotoCredit | Reason::Parenthesized)))
            || lines[paragraph.clone()].iter().any(|line| agency_after_bar(line.text));
        // "Patrick Callahan, 21, Mansfield, CT. Charged with eight counts …":
        // led by a name with a number (an age, a count); a dateline ("BOSTON,
        // Mass.") has none and leads prose.
        let lead = paragraph.start;
        let listed = paragraph.len() > 1
            && matches!(reasons[lead], Some(Reason::TitleCase | Reason::ListEntry))
            && lines[lead].text.contains(|c: char| c.is_ascii_digit());
        // "RiP to the great one Prodigy. … — Lil Wayne (@LilTunechi) June 20, 2017"
        let posted = reasons[paragraph.clone()].contains(&Some(Reason::EmbeddedPost));
        let reason = if credited {
            Reason::CreditedCaption
        } else if listed {
            Reason::ListEntry
        } else if posted {
            Reason::EmbeddedPost
        } else {
            continue;
        };
        for r in reasons[paragraph].iter_mut().filter(|r| r.is_none()) {
            *r = Some(reason);
        }
    }
}

/// A short paragraph right above a line that is only a photo credit is
/// its caption ("Smog nad Nową Hutą, poniedziałek 13 stycznia" over "Fot.
/// Jakub Porzycki / Agencja Wyborcza.pl"; "เจ้าหน้าที่สาธารณสุขพ่นหมอกควัน…" over
/// "ภาพ: สำนักงานสาธารณสุขจังหวัดตาก").
fn captions_over_credits(lines: &[Line], features: &[Features], reasons: &mut [Option<Reason>]) {
    const MAX_CAPTION_WORDS: f32 = 40.0;
    let paragraphs = paragraphs(lines);
    for pair in paragraphs.windows(2) {
        let (caption, credit) = (&pair[0], &pair[1]);
        let credit_alone = credit.len() == 1
            && lines[credit.start].own_line
            && reasons[credit.start] == Some(Reason::PhotoCredit)
            && names_a_picture(lines[credit.start].text);
        let words: f32 = features[caption.clone()].iter().map(|f| f.words).sum();
        // A caption that ends like a sentence cannot be told from a lead
        // with its picture's credit under it ("The storm hit the coast on
        // Monday …" over "(Photo: Jane Doe)"); Thai ends none.
        let unended = caption.clone().all(|i| !features[i].ends_sentence);
        if credit_alone && caption.len() <= 2 && words <= MAX_CAPTION_WORDS && unended {
            for r in &mut reasons[caption.clone()] {
                r.get_or_insert(Reason::CreditedCaption);
            }
        }
    }
}

/// A credit line that names a picture ("Foto: …", "Fot. …", "ภาพ: …",
/// "写真：…"), not an article's source ("Source: …", "المصدر: …", "来源：…").
fn names_a_picture(text: &str) -> bool {
    const PICTURE_WORDS: &[&str] = &[
        "photo", "foto", "fot.", "image", "imagen", "imagem", "immagine", "bild", "beeld", "zdjęcie", "фото", "fotoğraf",
        "صورة", "تصوير", "图", "圖", "写真", "사진", "ภาพ", "picture", "(photo", "(foto",
    ];
    let folded = text.trim_start().to_lowercase();
    PICTURE_WORDS.iter().any(|w| folded.starts_with(w))
}

/// Lines of pages written without sentence punctuation (Thai), where
/// ending, size and case say nothing, read by their place instead:
/// - the lines above the byline or date that opens the story are its
///   headline and deck;
/// - a short line right after a live blog's time is the entry's title;
/// - short lines after a "most read" or "see also" label are links.
fn unpunctuated_page(lines: &[Line], features: &[Features], reasons: &mut [Option<Reason>]) {
    const MAX_OPENING_PARAGRAPHS: usize = 3;
    const TITLE_WORDS: f32 = 12.0;
    let paragraphs = paragraphs(lines);
    let is_time = |reasons: &[Option<Reason>], i: usize| {
        matches!(reasons[i], Some(Reason::Stamp | Reason::Symbols | Reason::TimedEntry)) && lines[i].text.contains(|c: char| c.is_ascii_digit())
    };
    let short = |p: &std::ops::Range<usize>| p.len() == 1 && lines[p.start].own_line && features[p.start].words <= TITLE_WORDS;
    // The opening: everything above the first date or byline, when it comes early.
    let opening = paragraphs.iter().take(MAX_OPENING_PARAGRAPHS + 1).position(|p| is_time(reasons, p.start) || reasons[p.start] == Some(Reason::Credit));
    if let Some(meta) = opening {
        for p in &paragraphs[..meta] {
            for r in &mut reasons[p.clone()] {
                r.get_or_insert(Reason::HeadlineBlock);
            }
        }
    }
    for (k, p) in paragraphs.iter().enumerate() {
        let next = paragraphs.get(k + 1);
        // An entry's title between its time and a longer paragraph.
        if is_time(reasons, p.end - 1) {
            if let Some(title) = next.filter(|n| short(n) && reasons[n.start].is_none()) {
                let followed = paragraphs.get(k + 2).is_some_and(|after| !short(after));
                if followed {
                    reasons[title.start] = Some(Reason::TimedEntry);
                }
            }
        }
        // Links after their label.
        let labelled = p.len() == 1 && matches!(reasons[p.start], Some(Reason::Widget | Reason::RelatedLink)) && features[p.start].words <= 4.0;
        if labelled {
            for link in paragraphs[k + 1..].iter().take_while(|n| short(n)) {
                reasons[link.start].get_or_insert(Reason::RelatedLink);
            }
        }
    }
    // Three short lines in a row among paragraphs of prose: a list of links.
    const MIN_LINKS: usize = 3;
    let mut k = 0;
    while k < paragraphs.len() {
        let run = paragraphs[k..].iter().take_while(|p| short(p) && reasons[p.start].is_none()).count();
        if run >= MIN_LINKS {
            for p in &paragraphs[k..k + run] {
                reasons[p.start] = Some(Reason::RelatedLink);
            }
        }
        k += run.max(1);
    }
}

/// A consent banner or a subscription box is a paragraph of a few
/// sentences, only one of which names cookies or a subscription: "Valoramos
/// tu privacidad. Nosotros y nuestros socios almacenamos …", "Notre
/// rédaction est indépendante … Pour continuer à vous informer, abonnez-vous
/// …". The rest of such a paragraph goes with it.
fn site_notices(lines: &[Line], reasons: &mut [Option<Reason>]) {
    const MAX_NOTICE_SENTENCES: usize = 5;
    for paragraph in paragraphs(lines) {
        // A link's label opens its paragraph; the headline after it may be
        // cut in two ("อ่านเพิ่มเติม: เปิดแผนรัฐ ตั้งแล็บตรวจทุเรียน 20 แห่ง …").
        let notice = reasons[paragraph.clone()]
            .iter()
            .find(|r| matches!(r, Some(Reason::BrowserNotice | Reason::Appeal)))
            .copied()
            .flatten()
            .or(reasons[paragraph.start].filter(|r| *r == Reason::RelatedLink));
        if let (Some(reason), true) = (notice, paragraph.len() <= MAX_NOTICE_SENTENCES) {
            for r in &mut reasons[paragraph] {
                r.get_or_insert(reason);
            }
        }
    }
}

/// Longest sentence before a headline's kicker ("Smog dusi Kraków.").
const HEADLINE_SENTENCE_WORDS: f32 = 15.0;

/// Words in a line that can still be a headline with its kicker or a
/// related article's headline with its second sentence.
const HEADLINE_LINE_WORDS: f32 = 40.0;

/// "Smog dusi Kraków. Normy pyłu przekroczone pięciokrotnie, kierowcy
/// pojadą komunikacją za darmo", "Matura 2025. CKE podała terminy
/// egzaminów": a short line of two or three sentences whose last one has
/// no end is a headline or a link, all of it, on a page that ends its
/// sentences (a paragraph of prose ends like one).
fn headline_lines(lines: &[Line], features: &[Features], reasons: &mut [Option<Reason>]) {
    for paragraph in paragraphs(lines) {
        let last = paragraph.end - 1;
        let words: f32 = features[paragraph.clone()].iter().map(|f| f.words).sum();
        let unended = reasons[last] == Some(Reason::NoEnding) || (reasons[last].is_none() && !features[last].ends_sentence);
        // A headline's sentences are short; a lead followed by a wire code
        // ("… said Saturday. Mitch _ once, 2nd graf pvs") is not one.
        let short = features[paragraph.start..last].iter().all(|f| f.words <= HEADLINE_SENTENCE_WORDS);
        if (2..=3).contains(&paragraph.len()) && words <= HEADLINE_LINE_WORDS && unended && short {
            for r in &mut reasons[paragraph] {
                r.get_or_insert(Reason::HeadlineBlock);
            }
        }
    }
}

/// A deck: up to two short paragraphs between the page's opening furniture
/// (its headline) and the byline or date that opens the story
/// ("Rund 14 Milliarden Euro will das Finanzministerium einsparen." between
/// the headline and "Von Jana Richter · 14.05.2025"). A lead follows the
/// byline; a paragraph above it is the deck.
fn decks(lines: &[Line], reasons: &mut [Option<Reason>]) {
    const MAX_DECK_PARAGRAPHS: usize = 2;
    const MAX_DECK_SENTENCES: usize = 3;
    let paragraphs = paragraphs(lines);
    // A byline is often a bare name ("Katarzyna Nowak, Onet", "Marta Gil").
    let is_meta = |r: Option<Reason>| {
        matches!(r, Some(Reason::Stamp | Reason::Credit | Reason::Symbols | Reason::Dateline | Reason::LeadLabel | Reason::PhotoCredit | Reason::TitleCase | Reason::TooShort))
    };
    let furniture = |p: &std::ops::Range<usize>| reasons[p.clone()].iter().all(Option::is_some);
    let Some(first_prose) = paragraphs.iter().position(|p| !furniture(p)) else { return };
    // After the byline or the date comes the lead, not a deck; and a deck
    // stands under a headline.
    let headline = |r: Option<Reason>| {
        matches!(r, Some(Reason::NoEnding | Reason::TitleCase | Reason::AllCaps | Reason::Headline | Reason::HeadlineBlock | Reason::LabelPrefix))
    };
    let opening = &paragraphs[..first_prose];
    if first_prose == 0 || opening.iter().any(|p| is_meta(reasons[p.start])) || !opening.iter().any(|p| headline(reasons[p.start])) {
        return;
    }
    let deck_end = (first_prose..paragraphs.len().min(first_prose + MAX_DECK_PARAGRAPHS + 1))
        .find(|&k| furniture(&paragraphs[k]))
        .filter(|&k| is_meta(reasons[paragraphs[k].start]));
    let Some(deck_end) = deck_end else { return };
    let deck = &paragraphs[first_prose..deck_end];
    if deck.iter().all(|p| p.len() <= MAX_DECK_SENTENCES && !furniture(p)) {
        for p in deck {
            for r in &mut reasons[p.clone()] {
                r.get_or_insert(Reason::HeadlineBlock);
            }
        }
    }
}

/// Words of the labels that announce other articles, lowercase.
const RELATED_WORDS: &[&str] = &[
    "read", "more", "also", "related", "see ", "popular", "lire", "voir", "lus", "lea ", "lee ", "leer", "más", "leídas",
    "mehr", "lesen", "gelesen", "leggi", "letti", "leia", "lidas", "lees", "gelezen", "czytaj", "zobacz", "popularne",
    "читайте", "смотрите", "популяр", "ilgili", "okuyun", "okunan", "اقرأ", "الأكثر", "相关", "相關", "延伸", "热门", "熱門",
    "関連", "人気", "관련", "많이 본", "อ่าน", "ข่าวยอดนิยม", "ข่าวที่เกี่ยวข้อง",
];

/// Longest headline taken for a link in a list after a "see also" label.
const LINK_WORDS: f32 = 25.0;

/// A label such as "Zobacz także", "Most read", "Lees ook" on its own line,
/// then short lines: the list of other articles it announces, up to the
/// first line too long for a headline.
fn link_blocks(lines: &[Line], features: &[Features], reasons: &mut [Option<Reason>]) {
    let paragraphs = paragraphs(lines);
    for (k, label) in paragraphs.iter().enumerate() {
        // A heading, or a widget that announces other articles ("Lees ook",
        // "Most read"), not one that shares this one ("Tweet with a location").
        let announces = |f: &Features| RELATED_WORDS.iter().any(|w| f.folded.contains(w));
        let labelled = label.len() == 1
            && match reasons[label.start] {
                Some(Reason::RelatedLink | Reason::NoEnding | Reason::TitleCase | Reason::AllCaps) => true,
                Some(Reason::Widget) => announces(&features[label.start]),
                _ => false,
            }
            && features[label.start].words <= 4.0;
        if !labelled {
            continue;
        }
        // Short lines; one that reads as prose only between two headlines
        // (a photo's credit or a share button around it is no list).
        let short = |p: &std::ops::Range<usize>| p.len() <= 2 && features[p.clone()].iter().map(|f| f.words).sum::<f32>() <= LINK_WORDS;
        let marked = |p: &std::ops::Range<usize>| reasons[p.end - 1].is_some();
        let headline = |p: &std::ops::Range<usize>| {
            matches!(
                reasons[p.end - 1],
                Some(Reason::NoEnding | Reason::HeadlineBlock | Reason::RelatedLink | Reason::TitleCase | Reason::Headline | Reason::Boilerplate | Reason::ListEntry)
            )
        };
        let after = &paragraphs[k + 1..];
        let run = after
            .iter()
            .enumerate()
            .take_while(|&(j, p)| {
                let between = (j == 0 || headline(&after[j - 1])) && after.get(j + 1).is_some_and(|next| short(next) && headline(next));
                short(p) && (marked(p) || between)
            })
            .count();
        let links: Vec<&std::ops::Range<usize>> = after[..run].iter().collect();
        // A list holds two links at least, mostly headlines already.
        let headlines = links.iter().filter(|p| reasons[p.end - 1].is_some()).count();
        if links.len() >= 2 && 2 * headlines >= links.len() {
            for p in links {
                for r in &mut reasons[p.clone()] {
                    r.get_or_insert(Reason::RelatedLink);
                }
            }
        }
    }
}

/// Short lines of their own that end in '?' or '!', with a heading or a
/// scrap of a list on each side of the run, are more headlines in a list
/// of other stories ("Est-il vraiment possible de recycler les mégots ?"
/// between "Notre-Dame, Saint-Denis..." and "La crise économique due à
/// l'épidémie est unique, voici pourquoi"). Prose has few such questions
/// or exclamations alone on a line between headings.
fn headline_lists(lines: &[Line], features: &[Features], reasons: &mut [Option<Reason>]) {
    // Alone on its line: the end of a quote ("Keep it positive.”") bounds no list.
    let listed = |i: usize| {
        lines[i].own_line
            && matches!(
                reasons[i],
                Some(
                    Reason::NoEnding
                        | Reason::TitleCase
                        | Reason::TooShort
                        | Reason::CutOff
                        | Reason::Headline
                        | Reason::Boilerplate
                        | Reason::RelatedLink
                        | Reason::HeadlineBlock
                )
            )
    };
    let candidate = |i: usize| {
        reasons[i].is_none()
            && lines[i].own_line
            && asks_like_a_headline(lines[i].text, &features[i])
    };
    let mut runs = vec![];
    let mut i = 1;
    while i + 1 < lines.len() {
        let end = (i..lines.len()).find(|&j| !candidate(j)).unwrap_or(lines.len());
        if end > i && end < lines.len() && listed(i - 1) && listed(end) {
            runs.push(i..end);
        }
        i = end.max(i + 1);
    }
    for run in runs {
        for r in &mut reasons[run] {
            *r = Some(Reason::ListEntry);
        }
    }
}

/// A page that opens with a short question or exclamation alone on its
/// line opens with its headline ("¿Por qué en Libia sí y en Siria no?",
/// "Are Nevada officials actually trying to preserve the state's marijuana
/// black market?"): a lead is a statement, or runs on in its paragraph.
fn asking_headline(lines: &[Line], features: &[Features], reasons: &mut [Option<Reason>]) {
    let opens_page = lines.len() >= MIN_PAGE_FOR_HEADLINE && lines[0].own_line && reasons[0].is_none();
    if opens_page && asks_like_a_headline(lines[0].text, &features[0]) {
        reasons[0] = Some(Reason::Headline);
    }
}

/// Sentences on a page whose first line can be taken for its headline: a
/// note or a letter of a few lines may well open with a question.
const MIN_PAGE_FOR_HEADLINE: usize = 5;

/// Longest line taken for a headline that asks, in words.
const LISTED_HEADLINE_WORDS: f32 = 25.0;

/// A question or exclamation short enough for a headline: what the list,
/// label and first-line headline rules look for.
fn asks_like_a_headline(text: &str, f: &Features) -> bool {
    f.words <= LISTED_HEADLINE_WORDS && ends_in_question_or_exclamation(text)
}

fn ends_in_question_or_exclamation(text: &str) -> bool {
    let trimmed = text.trim_end_matches(|c: char| is_closing(c) || c.is_whitespace());
    trimmed.ends_with(['?', '!', '？', '！', '؟'])
}

/// News agencies that credit a picture after a bar ("… en Misrata. | EFE").
const BAR_CREDITS: &[&str] = &["efe", "afp", "ap", "reuters", "getty", "dpa", "epa", "ansa", "xinhua", "europa press", "foto"];

/// A bar and an agency's name, up to three words: the credit under a
/// picture ("| Efe", "| AFP/HO/OneDayOnEarth.org"), not a footer's links
/// ("| Versión para móvil", "| Police de Cookies").
fn agency_after_bar(text: &str) -> bool {
    let Some(rest) = text.strip_prefix("| ") else { return false };
    let folded = rest.to_lowercase();
    let named = BAR_CREDITS.iter().any(|agency| {
        folded.strip_prefix(agency).is_some_and(|after| after.is_empty() || after.starts_with(|c: char| !c.is_alphanumeric()))
    });
    named && rest.split_whitespace().count() <= 3
}

/// Speakers' labels in a transcript ("PRESIDENT OBAMA: Well, I don't think
/// …"): an all-caps label of one to three words and a colon, at the start
/// of three or more paragraphs of the page. (One such line, "NEW DELHI:
/// The government…", is a dateline on a lead and stays prose.)
fn speaker_labels(lines: &[Line], reasons: &mut [Option<Reason>]) {
    let labelled: Vec<usize> = paragraphs(lines).into_iter().map(|p| p.start).filter(|&i| caps_label(lines[i].text).is_some()).collect();
    if labelled.len() >= 3 {
        for i in labelled {
            reasons[i].get_or_insert(Reason::SpeakerLabel);
        }
    }
}

/// The text after an all-caps label of one to three words and a colon
/// ("PHOTOS:", "GEORGE STEPHANOPOULOS:", and "Q:").
fn caps_label(text: &str) -> Option<&str> {
    let (label, rest) = text.split_once([':', '：'])?;
    let words = label.split_whitespace().count();
    let letters: Vec<char> = label.chars().filter(|c| c.is_alphabetic()).collect();
    let caps = (letters.len() >= 2 || matches!(label.trim(), "Q" | "A")) && letters.iter().all(|c| c.is_uppercase());
    (caps && (1..=3).contains(&words) && !rest.trim().is_empty()).then_some(rest)
}

/// Site boilerplate (`boilerplate.txt`, read and pruned by hand), as the
/// sorted hashes of its lines' keys, which build.rs computes.
const BOILERPLATE: &[u64] = &include!(concat!(env!("OUT_DIR"), "/boilerplate_hashes.rs"));

fn boilerplate(text: &str) -> bool {
    BOILERPLATE.binary_search(&key_hash(&line_key(text))).is_ok()
}

/// A widget or caption label the page glued to the sentence after it:
/// "Image caption They are searching…", "CLOSE Police confirmed…",
/// "Media playback is unsupported on your device Media caption …". The
/// all-caps "CLOSE" and "|" are matched as written: "Close to 100 people…"
/// is prose.
fn glued_label(text: &str, f: &Features) -> bool {
    const LABELS: [&str; 15] = [
        "image caption ", "media caption ", "media playback ", "image copyright ", "caption ", "hide caption ",
        "story highlights ", "buy photo ", "what to know ", "embed ", "updated | ", "just watched ", "photos: ",
        "email this ", "continue reading the main story ",
    ];
    // A video player's buttons, wherever the page put them: "(Jan. 18) AP 1
    // of 68 Skip in Skip x Embed x Share CLOSE …" (68 sentences of 250
    // Multi-News validation pages, 66 of them candidates until now).
    const PLAYER_BUTTONS: &str = "skip in skip x embed x share";
    // "Related 'The Case of: JonBenet Ramsey' Pt.", not "Related research…".
    let related = text.strip_prefix("Related ").is_some_and(|rest| rest.starts_with(|c: char| c.is_uppercase() || "'\"‘“".contains(c)));
    related
        || LABELS.iter().any(|label| f.folded.starts_with(label))
        || f.folded.contains(PLAYER_BUTTONS)
        || ["CLOSE ", "| "].iter().any(|label| text.starts_with(label))
        || bracketed_label(text)
        || text.split_whitespace().any(doubled_word)
}

/// "[Video Link] The Wilco track …", "[liens en anglais sauf mention
/// contraire] Haleh Sahabi, …": a label or an editor's note of at most
/// twelve words in brackets, then the text.
fn bracketed_label(text: &str) -> bool {
    const MAX_LABEL_WORDS: usize = 12;
    let Some((label, rest)) = text.strip_prefix('[').and_then(|t| t.split_once(']')) else { return false };
    // "[2] The year after …" is a footnote's number, not a label.
    let words = label.split_whitespace().count();
    // "[T]he decision's …" is an editor's bracket inside a word, and
    // "[Labor union official] advised Obama …" one standing for the
    // sentence's subject: a label is followed by the text's own start.
    (1..=MAX_LABEL_WORDS).contains(&words)
        && label.chars().filter(|c| c.is_alphabetic()).count() >= 2
        && !label.ends_with(is_sentence_end)
        && rest.starts_with(' ')
        && !rest.trim().is_empty()
        && !starts_lowercase(rest.trim_start())
}

/// "TrumpTrump": a name glued to itself, as a hover card prints it ("Donald
/// John TrumpTrump Jr. getting …").
fn doubled_word(word: &str) -> bool {
    let chars: Vec<char> = word.chars().collect();
    let half = chars.len() / 2;
    chars.len() >= 6 && chars.len() % 2 == 0 && chars[0].is_uppercase() && chars[1..].iter().any(|c| c.is_lowercase()) && chars[..half] == chars[half..]
}

/// A post embedded in the page: its link ("pic.twitter.com/…", "t.co/…")
/// or its signature "(@handle)" followed by the date it was posted.
fn embedded_post(folded: &str) -> bool {
    if folded.contains("pic.twitter.com/") || folded.contains("https://t.co/") {
        return true;
    }
    folded.match_indices("(@").any(|(at, _)| {
        let rest = &folded[at + 2..];
        let handle_end = rest.find(')').unwrap_or(0);
        handle_end > 0
            && !rest[..handle_end].contains(' ')
            && rest[handle_end + 1..].chars().filter(char::is_ascii_digit).count() >= 4
    })
}

/// "Passenger Evaluated For Ebola Passenger Evaluated For Ebola A passenger
/// who…": the first three to twelve words repeated at once (a headline
/// printed twice by the page, then the lead). Any language with spaces.
fn repeated_headline(text: &str) -> bool {
    let words: Vec<&str> = text.split_whitespace().collect();
    (3..=12).any(|k| words.len() > 2 * k && words[..k] == words[k..2 * k])
}

/// "Why Is This Important?", "Free Online Training!": at least three
/// words, no long word in lowercase, four in five capitalized.
fn title_case(f: &Features) -> bool {
    f.alpha_words >= 3
        && f.words <= SHORT_LINE_WORDS
        && f.long_lowercase_words == 0
        && f.capitalized_words as f32 >= 0.8 * f.alpha_words as f32
}

/// "By Jane Doe", "By JANE DOE and John Roe": "by" and at most five
/// words, all capitalized but "and".
fn byline(f: &Features) -> bool {
    let Some(rest) = f.folded.strip_prefix("by ") else { return false };
    let names = rest.split_whitespace().filter(|w| *w != "and" && *w != "&").count();
    f.words <= 6.0 && names >= 1 && f.capitalized_words + 1 >= f.alpha_words && !f.ends_sentence
}

/// "STOWE, Vt.", "NEW YORK, N.Y.", "BENSALEM, Pa. —": an all-caps place,
/// a comma, at most three more words.
fn dateline(text: &str, f: &Features) -> bool {
    if f.words > 4.0 {
        return false;
    }
    let Some((place, rest)) = text.split_once(',') else { return false };
    let letters: Vec<char> = place.chars().filter(|c| c.is_alphabetic()).collect();
    if letters.len() >= 3 && letters.iter().all(|c| c.is_uppercase()) {
        return true;
    }
    // "Long Island, N.Y.", "Darby, Pa.": capitalized place, abbreviation.
    let rest = rest.trim();
    let abbreviation = rest.len() <= 6
        && rest.ends_with('.')
        && rest.starts_with(|c: char| c.is_uppercase())
        && rest.chars().all(|c| c.is_alphabetic() || c == '.' || c == ' ');
    abbreviation && place.split_whitespace().all(|w| w.starts_with(|c: char| c.is_uppercase()))
}

/// "Miércoles, 12 de noviembre 2025, 08:10 | Actualizado 14:05h.",
/// "2025年05月19日 21:58 新浪体育", "06.03.2025 - 14:05 | Son Güncelleme":
/// a clock time in a short line that is mostly numbers (a date, a time)
/// or split by a bar: a posted or updated stamp in any language. ("A las
/// 08:10 del 12 de noviembre el río se desbordó." has words enough.)
fn dated_stamp(text: &str, f: &Features) -> bool {
    const MAX_STAMP_WORDS: f32 = 14.0;
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let numbered = tokens.iter().filter(|t| t.chars().any(|c| c.is_ascii_digit())).count();
    let clock = text.as_bytes().windows(5).any(|w| {
        w[0].is_ascii_digit() && w[1].is_ascii_digit() && matches!(w[2], b':' | b'.' | b'h') && w[3].is_ascii_digit() && w[4].is_ascii_digit()
    }) || cjk_clock(text);
    // Counted by tokens only where words are spaced.
    let spaced = !f.spaceless && tokens.len() as f32 >= 0.7 * f.words;
    let mostly_numbers = spaced && numbered as f32 >= 0.4 * tokens.len() as f32;
    // "Page name · 14 มกราคม เวลา 15:20 น.": a post's name and date; a
    // live blog's "14.05 | La policía cerró la plaza …" is an entry.
    const MAX_SEPARATED_WORDS: f32 = 10.0;
    let separated = (text.contains(" | ") || text.contains(" · ")) && f.words <= MAX_SEPARATED_WORDS;
    clock && f.words <= MAX_STAMP_WORDS && (mostly_numbers || separated || f.digits * 2 >= f.letters)
}

/// "21時32分", "10时15分": a clock time written in CJK.
fn cjk_clock(text: &str) -> bool {
    let chars: Vec<char> = text.chars().collect();
    chars.windows(3).enumerate().any(|(i, w)| {
        w[0].is_ascii_digit() && matches!(w[1], '時' | '时') && w[2].is_ascii_digit() && chars[i + 2..].iter().take(3).any(|&c| c == '分')
    })
}

/// "2:44 p.m.", "Update 11:32 a.m.": a clock time in a line of at most
/// four words.
fn clock_stamp(text: &str, f: &Features) -> bool {
    let chars: Vec<char> = text.chars().collect();
    // "Авария произошла около 3:40." says what happened when.
    f.words <= 4.0 && f.long_lowercase_words == 0 && chars.windows(3).any(|w| w[0].is_ascii_digit() && w[1] == ':' && w[2].is_ascii_digit())
}

/// "22h50 : Le Conseil de sécurité …", "19H46 - Entraide - …", "10:32 a.m.
/// — …", "22 h 30 : …": a clock time (hours, then 'h', ':' or '.', then two
/// digits; maybe "a.m." or a zone), then a colon, a dash or a bar: a live
/// blog's entry. ("12.50 dollars" or "2012: La guerra" have no such time and
/// mark. "Update 11:10 a.m.: Not to be outdone, …" is left alone: the
/// fixture's labeller read it as prose, the summary judges as junk.)
fn opens_with_time(text: &str) -> bool {
    let hours = text.chars().take_while(char::is_ascii_digit).count();
    let Some(rest) = text.get(hours..) else { return false };
    // French spaces the hour mark: "22 h 30".
    let spaced_mark = rest.strip_prefix(' ').filter(|r| r.starts_with(['h', 'H']) && r[1..].trim_start().starts_with(|c: char| c.is_ascii_digit()));
    let rest = spaced_mark.unwrap_or(rest);
    if on_the_hour(rest) {
        return (1..=2).contains(&hours);
    }
    let mut chars = rest.chars();
    let marked = matches!(chars.next(), Some('h' | 'H' | ':' | '.'));
    if spaced_mark.is_some() {
        chars = chars.as_str().trim_start().chars();
    }
    let minutes: String = chars.by_ref().take(2).collect();
    if !(1..=2).contains(&hours) || !marked || minutes.len() != 2 || !minutes.chars().all(|c| c.is_ascii_digit()) {
        return false;
    }
    let after = chars.as_str().trim_start();
    let word_end = after.find(|c: char| !(c.is_alphabetic() || c == '.')).unwrap_or(after.len());
    let after = match after[..word_end].to_lowercase().as_str() {
        "a.m." | "p.m." | "am" | "pm" | "gmt" | "utc" | "h" | "hs" | "uhr" | "heures" | "horas" => after[word_end..].trim_start(),
        _ => after,
    };
    let mut rest = after.chars();
    matches!(rest.next(), Some(':' | '-' | '–' | '—' | '|')) && rest.next().is_some_and(char::is_whitespace)
}

/// "15 marzo: Primeras protestas …", "16 de enero: …", "14 mars : …",
/// "1948: Una coalición …", "March 14, 2011: …", and with a dash, as
/// Spanish timelines write them, "1999 – Bashar al Assad se convierte …",
/// "23.03.2011.- Al menos 15 civiles …": an entry of a chronology, led by
/// its date, which alone in a summary is a list item (all fourteen such
/// lines judged so far are junk). The date is read by `dates` in every
/// language it knows.
fn chronology_entry(text: &str) -> bool {
    const MAX_DATE_WORDS: usize = 5;
    let Some((label, rest)) = split_after_date_label(text) else { return false };
    let label = label.trim_end();
    let label = label.strip_suffix('.').unwrap_or(label);
    let entry_follows = rest.trim_start().starts_with(|c: char| c.is_uppercase() || "\"“«".contains(c));
    if !entry_follows || label.is_empty() || label.split_whitespace().count() > MAX_DATE_WORDS {
        return false;
    }
    let year = label.len() == 4 && label.chars().all(|c| c.is_ascii_digit()) && matches!(&label[..2], "19" | "20");
    // Any day will do: only the span of the mention matters.
    let reference_day = CivilDate::new(2000, 1, 1).expect("a valid date");
    year || dates::extract(label, "und", reference_day).iter().any(|m| m.kind == MentionKind::Absolute && m.start == 0 && m.end == label.len())
}

/// The text before and after the first colon, or before and after the
/// first dash that stands apart (" – ", " — ", " - ") or follows a full
/// stop (".-", ".–"): a hyphen inside a word ("2011-2012") splits nothing.
fn split_after_date_label(text: &str) -> Option<(&str, &str)> {
    let (at, mark) = text.char_indices().find(|&(at, c)| {
        let before = text[..at].chars().next_back();
        let apart = before == Some(' ') && text[at + c.len_utf8()..].starts_with(' ');
        matches!(c, ':' | '：') || (matches!(c, '-' | '–' | '—') && (apart || before == Some('.')))
    })?;
    Some((&text[..at], &text[at + mark.len_utf8()..]))
}

/// After the hours, "h :" or " h :" with no minutes: "21 h : Les
/// États-Unis ont frappé …", "9h : …".
fn on_the_hour(after_hours: &str) -> bool {
    let rest = after_hours.strip_prefix(' ').unwrap_or(after_hours);
    let Some(rest) = rest.strip_prefix(['h', 'H']) else { return false };
    let rest = rest.trim_start_matches(' ');
    let Some(mark) = rest.chars().next().filter(|c| matches!(c, ':' | '-' | '–' | '—' | '|')) else { return false };
    // The mark's own length: '–' and '—' take three bytes.
    rest[mark.len_utf8()..].starts_with(char::is_whitespace) && after_hours.len() - rest.len() <= 3
}

/// "@manal: La policía militar está golpeando …", "@RafifJ [en]: Que …",
/// "@Razaniyat Un amigo en #Aleppo …", "@ooodani #12Cerrar…",
/// "@anasqtiesh\"porter atteinte …": a post or a reader's comment quoted
/// under its author's handle, then a colon, a capital, a tag or a quote
/// ("@handle said …" is a sentence about the post).
fn opens_with_handle(text: &str) -> bool {
    let Some(rest) = text.strip_prefix('@') else { return false };
    let handle = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
    let after = rest[handle..].trim_start();
    // A translator's note of the post's language: "[en]".
    let after = match after.strip_prefix('[').and_then(|a| a.split_once(']')) {
        Some((language, tail)) if language.len() <= 3 => tail.trim_start(),
        _ => after,
    };
    let spaced = rest[handle..].starts_with(char::is_whitespace);
    let quoted = after.starts_with(['"', '“', '«']);
    handle >= 1 && (after.starts_with(':') || quoted || (spaced && after.starts_with(|c: char| c.is_uppercase() || c == '@' || c == '#')))
}

/// "#Mubarak gobierna #Egipto desde 1981.", "#AntiCoup alliance confirm …":
/// a post quoted from its first tag, as posts open and sentences do not.
/// Not the tail of a quote that ends on a tag ("#Takei2018," he wrote.),
/// and not a lone tag, which would take its prose paragraph along
/// ("Lyft quickly admitted … #GetMono").
fn opens_with_tag(text: &str) -> bool {
    let Some(rest) = text.strip_prefix('#') else { return false };
    let first_word = rest.split_whitespace().next().unwrap_or_default();
    rest.starts_with(char::is_alphabetic) && !first_word.contains(['"', '”', '»']) && rest.split_whitespace().count() >= 3
}

/// News-agency photo captions: "…, Thursday, Dec. 20, 2012, in Chicago.",
/// "…, listens, Monday May 4, 2015, in Neenah." (a weekday, a date and a
/// year in a row; English agencies' style), and captions that say where
/// people stand or that they are a photo ("…, left, speaks…", "This undated
/// photo provided by…", "FILE - In this…").
fn agency_caption(text: &str, f: &Features) -> bool {
    if in_this_photo(text) {
        return true;
    }
    const OPENINGS: [&str; 9] =
        ["file - ", "file – ", "file photo", "this undated", "an undated", "this photo", "this image", "this handout", "this file photo"];
    const POSITIONS: [&str; 12] = [
        ", left, ", ", right, ", ", center, ", ", centre, ", "from left,", ", second from", " (links) ", " (rechts) ",
        " (à gauche) ", " (à droite) ", " (izquierda) ", " (derecha) ",
    ];
    const ANYWHERE: [&str; 12] = [
        " in this photo", " in this photograph", " in this image", " in this file photo", "(pictured)", ", pictured,", " at left,",
        " (left)", " (right)", " (center)", " (centre)", " (gauche)",
    ];
    const STARTS: [&str; 4] = ["at left", "at right", "from left", "pictured "];
    if ANYWHERE.iter().any(|a| f.folded.contains(a)) || STARTS.iter().any(|s| f.folded.starts_with(s)) || dated_after_place(text) {
        return true;
    }
    if OPENINGS.iter().any(|o| f.folded.starts_with(o)) || POSITIONS.iter().any(|p| f.folded.contains(p)) {
        return true;
    }
    if points_at_media(&f.folded) {
        return true;
    }
    if dated_after_comma(text) || credit_after_sentence(text) || opens_with_bare_date(text) || ends_with_credit(&f.folded) {
        return true;
    }
    const DAYS: [&str; 7] = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
    DAYS.iter().any(|day| {
        text.match_indices(day).any(|(at, _)| {
            let rest = &text[at + day.len()..];
            let Some(rest) = rest.strip_prefix(", ").or_else(|| rest.strip_prefix(' ')) else { return false };
            // Month (word or abbreviation), day number, comma, four-digit year.
            let mut parts = rest.splitn(3, ' ');
            let (Some(month), Some(number), Some(year)) = (parts.next(), parts.next(), parts.next()) else { return false };
            month.starts_with(|c: char| c.is_ascii_uppercase())
                && number.ends_with(',')
                && number.trim_end_matches(',').chars().all(|c| c.is_ascii_digit())
                && year.chars().take(4).filter(char::is_ascii_digit).count() == 4
        })
    })
}

/// "In this May 24, 2016, file photo, …", "In this Jan. 5 file photo, …",
/// "In this image, …": the AP's caption opening, its date and kind of
/// picture within the first eight words.
fn in_this_photo(text: &str) -> bool {
    const HEAD_WORDS: usize = 8;
    let Some(rest) = text.strip_prefix("In this ") else { return false };
    rest.split_whitespace()
        .take(HEAD_WORDS)
        .any(|w| w.ends_with(',') && matches!(w.trim_end_matches(','), "photo" | "image" | "photograph" | "picture"))
}

/// "Este video de la7jpress muestra …", "Cette vidéo, mise en ligne par …",
/// "El siguiente vídeo muestra …", "La primera parte del video muestra …",
/// "En esta imagen, civiles …", "In diesem Video, …": a sentence that opens
/// by pointing at a picture or a video on the page tells what the summary
/// cannot show. Of the ~8,800 summary lines judged by hand, the 13 it
/// excludes are all junk. After "in this" and its kin the picture is set off by a
/// comma, as in the AP's captions: "In this photograph he looks older …" is
/// someone speaking of a photograph. "Otras fotos muestran …" and "The
/// video, which shows …" point at nothing. `folded` is the lowercased line.
fn points_at_media(folded: &str) -> bool {
    // The picture is the sentence's subject.
    const SUBJECTS: [&str; 38] = [
        "this", "these", "the following", "the first part of the", "the second part of the", // en
        "este", "esta", "estos", "estas", "el siguiente", "la siguiente", "los siguientes", "las siguientes",
        "la primera parte del", "la segunda parte del", "o seguinte", "a seguinte", // es, pt
        "ce", "cet", "cette", "ces", "la première partie de la", "la deuxième partie de la",
        "la seconde partie de la", // fr
        "dieses", "diese", "dieser", "deze", "dit", "questo", "questa", "questi", "queste", // de, nl, it
        "это", "эта", "этот", "эти", "следующее", // ru
    ];
    // The picture is where the sentence happens.
    const PLACES: [&str; 17] = [
        "in this", "in these", "en este", "en esta", "neste", "nesta", "dans ce", "dans cette", "sur ce",
        "sur cette", "in diesem", "auf diesem", "auf diesen", "in deze", "op deze", "in questo", "in questa",
    ];
    const MEDIA: [&str; 40] = [
        "video", "videos", "vídeo", "vídeos", "vidéo", "vidéos", "clip", "clips", "footage", "filmato", "image", "images",
        "imagen", "imágenes", "imagem", "imagens", "immagine", "immagini", "picture", "pictures", "photo", "photos",
        "photograph", "photographs", "photographie", "photographies", "foto", "fotos", "fotografía", "fotografías",
        "fotografia", "fotografie", "bild", "bilder", "afbeelding", "beelden", "видео", "фото", "снимке", "снимок",
    ];
    let media_after = |pointers: &[&str], comma: bool| {
        pointers.iter().any(|pointer| {
            let Some(rest) = folded.strip_prefix(pointer).and_then(|rest| rest.strip_prefix(' ')) else { return false };
            let noun = rest.split(|c: char| !c.is_alphanumeric()).next().unwrap_or_default();
            MEDIA.contains(&noun) && (!comma || rest[noun.len()..].starts_with(','))
        })
    };
    media_after(&SUBJECTS, false) || media_after(&PLACES, true)
}

/// Captions end with the date set off by a comma, after the place: "…
/// in Paris, April 22, 2015.", "…, on Oct. 22, 2018.", "…, 22 avril 2015.";
/// prose says "on April 22, 2015" without the comma. Quotes are prose.
fn dated_after_comma(text: &str) -> bool {
    if text.contains(['"', '“', '”', '«', '»']) {
        return false;
    }
    let body = text.trim_end_matches(|c: char| c == '.' || c.is_whitespace());
    let Some((_, date)) = body.rsplit_once(", ").and_then(|(head, year)| {
        // The year closes the sentence: "… April 22, 2015" splits after "22".
        let is_year = year.len() == 4 && year.chars().all(|c| c.is_ascii_digit()) && matches!(&year[..2], "19" | "20");
        is_year.then(|| head.rsplit_once(", ")).flatten()
    }) else {
        return dated_day_month_year(body);
    };
    let date = date.strip_prefix("on ").unwrap_or(date);
    let mut parts = date.split(' ');
    let (Some(month), Some(day), None) = (parts.next(), parts.next(), parts.next()) else { return false };
    month_word(month) && day_number(day)
}

/// "… at a hotel in Kathmandu, Nepal May 30, 2016.": the caption's date
/// right after the place, with no "on" and no comma before the month.
fn dated_after_place(text: &str) -> bool {
    let body = text.trim_end_matches(|c: char| c == '.' || c.is_whitespace());
    let words: Vec<&str> = body.rsplitn(5, ' ').collect();
    let [year, day, month, place, _] = words[..] else { return false };
    year.len() == 4
        && year.chars().all(|c| c.is_ascii_digit())
        && day.strip_suffix(',').is_some_and(day_number)
        && month_word(month)
        && month.starts_with(|c: char| c.is_uppercase())
        && place.starts_with(|c: char| c.is_uppercase())
        && !place.ends_with(',')
}

/// Credits that close a caption, in the words and marks of each language's
/// pages, lowercase.
const CLOSING_CREDITS: &[&str] = &[
    "foto:", "foto ", "fot.", "photo:", "bild:", "beeld ", "imagem:", "imagen:", "credit:", "/ dpa", "/dpa", "/ afp",
    "/afp", "/ reuters", "/reuters", "/ ap", "/ epa", "/ anp", "(ansa)", "(afp)", "(ap)", "(reuters)", "(efe)",
    "(lapresse)", "/ imago", "imago/", "getty images", "keystone", "agencja", "folhapress", "| efe", "| ap", "| afp",
    "| reuters", "• anp", "© ", "(фото", "фото:", "(fotoğraf", "fotoğraf:", "(aa)", "(dha)", "(iha)", "摄", "攝", "撮影",
    "提供）", "提供)", "（图", "(图", "（圖", "(圖", "图/", "圖／", "사진=", "/뉴스1", "/연합뉴스", "일보db", "(ที่มา", "ภาพ:",
    "ภาพ :", "@yna.co.kr", "@osen.co.kr",
];

/// "Finanzminister Reinhard Vogt am Mittwoch im Bundestag Foto: Jens Körber /
/// dpa", "…平远县城一处街道被洪水淹没。新华社记者 沈伯韩 摄", "…기뻐하고 있다.
/// 2025.3.24 psik@yna.co.kr", "…en Saná.| Ap": a caption with its credit
/// at the end: the last few words after the last sentence end (or of a
/// line that never ends one) hold a credit.
fn ends_with_credit(folded: &str) -> bool {
    const CREDIT_WORDS: usize = 8;
    let body = folded.trim_end_matches(|c: char| c.is_whitespace() || is_closing(c) || c == '.');
    let tail_start = body.rfind(|c: char| is_sentence_end(c)).map_or(0, |at| at + body[at..].chars().next().map_or(1, char::len_utf8));
    let tail = &body[tail_start..];
    let words = tail.split_whitespace().count();
    // A whole line without a sentence end: only its last words.
    let tail = if tail_start == 0 { last_words(tail, 6) } else { tail };
    (tail_start > 0 && words <= CREDIT_WORDS || tail_start == 0) && CLOSING_CREDITS.iter().any(|credit| tail.contains(credit))
}

/// The last `n` whitespace-separated words of `text`.
fn last_words(text: &str, n: usize) -> &str {
    let mut start = text.len();
    for (count, (at, _)) in text.rmatch_indices(char::is_whitespace).enumerate() {
        if count + 1 >= n {
            break;
        }
        start = at;
    }
    if text.split_whitespace().count() <= n {
        text
    } else {
        &text[start..]
    }
}

/// "Tory MP Karen Vecchio says she will oppose the bid. (parl.gc.ca)": a
/// caption's credit in parentheses after its last sentence.
fn credit_after_sentence(text: &str) -> bool {
    let Some(body) = text.strip_suffix(')') else { return false };
    let Some((before, credit)) = body.rsplit_once('(') else { return false };
    let credit_words = credit.split_whitespace().count();
    let sentence_before = before.trim_end().chars().next_back().is_some_and(is_sentence_end);
    let sentence_inside = credit.trim_end().chars().next_back().is_some_and(is_sentence_end);
    sentence_before && !sentence_inside && (1..=5).contains(&credit_words)
}

/// "March 22, 2014 Armed men take cover…": a gallery's date glued to the
/// caption, with no punctuation between the year and the next word.
fn opens_with_bare_date(text: &str) -> bool {
    let words: Vec<&str> = text.splitn(5, ' ').collect();
    let [month, day, year, next, _] = words[..] else { return false };
    let day = day.strip_suffix(',').unwrap_or("");
    month_word(month)
        && month.starts_with(|c: char| c.is_uppercase())
        && day_number(day)
        && year.len() == 4
        && year.chars().all(|c| c.is_ascii_digit())
        && next.starts_with(|c: char| c.is_uppercase())
}

/// ", 22 avril 2015" / ", 17 November 2012" at the end of `body`.
fn dated_day_month_year(body: &str) -> bool {
    let Some((_, date)) = body.rsplit_once(", ") else { return false };
    let date = date.strip_prefix("on ").unwrap_or(date);
    let parts: Vec<&str> = date.split(' ').collect();
    let [day, month, year] = parts[..] else { return false };
    let day = day.trim_end_matches('.');
    day_number(day) && month_word(month) && year.len() == 4 && year.chars().all(|c| c.is_ascii_digit())
}

fn month_word(word: &str) -> bool {
    let letters = word.trim_end_matches('.');
    letters.chars().count() >= 3 && letters.chars().all(char::is_alphabetic)
}

fn day_number(word: &str) -> bool {
    (1..=2).contains(&word.len()) && word.chars().all(|c| c.is_ascii_digit())
}

/// "PHOTOS: Blagojevich Cronies", "RELATED: …", "GEORGE STEPHANOPOULOS: --":
/// up to three all-caps words and a colon, then a short line.
fn label_prefix(text: &str, f: &Features) -> bool {
    caps_label(text).is_some() && (f.words <= SHORT_LINE_WORDS || !f.ends_sentence)
}

/// Cue phrases at the start of a short line (`starts`) or anywhere in it
/// (`contains`), lowercase, colons without the space before them.
struct Cues {
    reason: Reason,
    max_words: f32,
    starts: &'static [&'static str],
    contains: &'static [&'static str],
}

/// Marks of a photo credit anywhere in a short line, or in the first words
/// of a long one ([`opens_with_photo_credit`]).
const PHOTO_CREDIT_MARKS: &[&str] = &[
    "undated photo", "file photo", "photo provided by", "buy photo", "getty images", "/ getty", "/getty", "via getty",
    "/ afp", "/ reuters", "shutterstock", "/ ap photo", "(ap photo", "/ ap ",
    // A picture's licence: "… en Flickr usada bajo CC BY 2.0", "(CC BY-NC-SA 2.0)".
    "cc by", "cc-by", "creative commons",
];

/// How far into a long line a photo credit still opens it.
const CREDIT_OPENING_WORDS: usize = 4;

const CUES: &[Cues] = &[
    Cues {
        reason: Reason::PhotoCredit,
        max_words: 20.0,
        starts: &[
            "photo:", "photos:", "image:", "images:", "picture:", "photograph:", "photo credit", "image credit",
            "(photo", "(photos", "photo by", "photograph by", "image by", "caption:", "video:", "credit:", "credits:", "source:", "crédit photo", "crédits photo", "crédit:",
            "foto:", "fotos:", "imagen:", "fuente:", "bild:", "quelle:", "fonte:", "imagem:", "beeld:", "bron:",
            // "Foto compartida por kudumomo en Flickr …", "Photo partagée par …",
            // "Imagen de @Qoutb (Twitter).": who took or shared the picture.
            "foto de ", "foto por ", "foto compartida", "fotografía de ", "imagen de ", "imagen del usuario",
            "imagen compartida", "photo de ", "photo partagée", "photo prise par", "image téléchargée",
            "image partagée", "foto di ", "foto von ", "bild von ",
            "fot.", "zdjęcie:", "źródło:", "фото:", "фото ", "источник:", "fotoğraf:", "kaynak:", "صورة:",
            "المصدر:", "تصوير:", "图片来源", "图片:", "图:", "来源:", "摄影:", "资料图", "写真:", "出典:",
            "提供:", "사진=", "사진:", "출처:", "ภาพ:", "ที่มา:",
        ],
        contains: PHOTO_CREDIT_MARKS,
    },
    Cues {
        reason: Reason::Credit,
        max_words: 30.0,
        starts: &[
            "written by", "directed by", "starring ", "reporting by", "edited by", "with reporting by", "additional reporting",
            "เรื่อง:", "คอลัมน์ ",
        ],
        contains: &[
            "contributed to this report", "contributed reporting", "contributed to this story", "editing by",
            "writing by", "first appeared in", "originally appeared", "originally published", "made possible",
            "责任编辑", "编辑:", "記者:", "기자 =",
        ],
    },
    Cues {
        // Thai "by" opens a byline, and clauses too: only a short line.
        reason: Reason::Credit,
        max_words: 6.0,
        starts: &["โดย "],
        contains: &[],
    },
    Cues {
        reason: Reason::Copyright,
        max_words: 40.0,
        starts: &["copyright", "(c) 1", "(c) 2"],
        contains: &["©", "all rights reserved", "tous droits réservés", "todos los derechos reservados", "alle rechte vorbehalten", "版权所有", "无权转载", "все права защищены", "جميع الحقوق محفوظة"],
    },
    Cues {
        reason: Reason::BrowserNotice,
        max_words: 60.0,
        starts: &[],
        contains: &[
            "enable javascript", "javascript is disabled", "javascript enabled", "uses cookies", "use of cookies",
            "accept cookies", "our cookie", "javascript", "not available right now", "your browser", "supported browser", "utilise des cookies",
            "utiliza cookies", "verwendet cookies", "использует cookie", "usamos cookies", "utilizamos cookies",
            "nous utilisons des cookies", "wir verwenden cookies", "su navegador", "tu navegador", "votre navigateur",
            "ihr browser", "il tuo browser", "seu navegador", "ваш браузер",
            // Consent banners, in each language's usual words.
            "we use cookies", "this site uses cookies", "this website uses cookies", "cookie policy", "cookie settings",
            "our privacy policy", "manage your preferences", "manage preferences", "by continuing to browse",
            "by continuing to use this site", "store and/or access information on a device",
            "política de cookies", "nuestra política de privacidad", "gestionar tus preferencias", "gestionar preferencias",
            "nosotros y nuestros socios", "si continúa navegando", "si continúas navegando", "aceptar todas las cookies",
            "politique de cookies", "politique de confidentialité", "gérer mes choix", "nous et nos partenaires",
            "en poursuivant votre navigation", "paramétrer les cookies", "votre consentement",
            "cookie-richtlinie", "datenschutzerklärung", "wenn sie weitersurfen", "stimmen sie der verwendung",
            "externe inhalte angezeigt", "externen inhalt von", "an drittplattformen",
            "utilizziamo cookie", "utilizza cookie", "noi e terze parti", "il tuo consenso", "informativa sulla privacy",
            "política de privacidade", "ao continuar navegando", "ao continuar a navegar", "utilizamos cookies e",
            "maakt gebruik van cookies", "gebruik van cookies", "wij gebruiken cookies", "cookiebeleid",
            "privacyverklaring", "dpg media en haar partners",
            "plików cookies", "pliki cookies", "polityka prywatności", "polityce prywatności", "twoją prywatność",
            "akceptuję i przechodzę", "my i nasi partnerzy",
            "cookie-файлы", "файлы cookie", "файлов cookie", "политикой конфиденциальности", "политика конфиденциальности",
            "обработку персональных данных",
            "çerezler kullan", "çerez politika", "kvkk kapsamında", "kişisel verileriniz",
            "ملفات تعريف الارتباط", "سياسة الخصوصية",
            "《隐私政策》", "《隱私權政策》", "私隱政策", "同意我们的", "同意我們的", "使用cookie", "使用 cookie", "cookies以", "cookie以",
            "cookieを", "クッキー", "プライバシーポリシー", "쿠키", "개인정보처리방침", "개인정보 처리방침",
            "คุกกี้", "นโยบายความเป็นส่วนตัว",
            // Error pages scraped in place of the article.
            "page you requested", "page you are looking for", "page you were looking for", "could not be found", "page not found",
            "no longer be here", "from a bookmark", "page url", "page introuvable", "página no encontrada", "seite nicht gefunden",
            // A blog host's page in place of a moved blog.
            "domain mapping",
        ],
    },
    Cues {
        reason: Reason::Stamp,
        max_words: 12.0,
        starts: &[
            "posted ", "posted:", "updated ", "updated:", "published ", "published:", "last updated", "last modified",
            "publié le", "mis à jour", "publicado ", "actualizado", "veröffentlicht", "aktualisiert", "stand:",
            "pubblicato", "aggiornato", "atualizado", "gepubliceerd", "bijgewerkt", "opublikowano", "aktualizacja",
            "опубликовано", "обновлено", "yayınlanma", "güncelleme", "نشر في", "تم التحديث", "发布时间", "更新时间",
            "发表于", "投稿日", "更新日", "입력", "수정", "เผยแพร่", "อัปเดต", "แก้ไขล่าสุด",
        ],
        // A reading time: "Temps de Lecture 3 min.", "Tiempo de lectura: 4 min".
        contains: &[
            "temps de lecture", "tiempo de lectura", "lesezeit", "tempo di lettura", "tempo de leitura", "leestijd",
            "время чтения", "阅读时间",
        ],
    },
    Cues {
        reason: Reason::Widget,
        max_words: 8.0,
        starts: &[
            "share", "tweet", "email this", "e-mail this", "print this", "subscribe", "sign up", "follow us", "follow ",
            "what is your reaction", "what's your reaction", "quelle est votre réaction", "¿cuál es tu reacción",
            "like us", "read more", "read the full", "learn more", "see more", "see also", "more:", "click here",
            "continue reading", "advertisement", "sponsored", "recommended", "related:", "also:", "watch:", "listen:",
            "previously:", "comments", "leave a comment", "log in", "sign in", "newsletter", "download the",
            "play video", "play facebook", "play twitter", "skip to", "back to top", "jump to",
            // fr
            "partager", "lire aussi", "lire la suite", "à lire aussi", "voir aussi", "publicité", "abonnez-vous",
            "s'abonner", "inscrivez-vous", "suivez-nous",
            // es
            "compartir", "lea también", "lee también", "leer más", "publicidad", "suscríbete", "ver más",
            "te puede interesar", "síguenos",
            // de
            "teilen", "mehr zum thema", "lesen sie auch", "lesen sie mehr", "anzeige", "weiterlesen", "abonnieren",
            "folgen sie uns",
            // it
            "condividi", "leggi anche", "pubblicità", "iscriviti", "seguici",
            // pt
            "compartilhar", "leia também", "leia mais", "publicidade", "assine", "siga-nos",
            // nl
            "delen", "lees ook", "lees meer", "advertentie", "abonneer", "volg ons",
            // pl
            "udostępnij", "czytaj też", "czytaj także", "czytaj więcej", "reklama", "zobacz też", "zobacz także",
            // ru
            "поделиться", "читайте также", "реклама", "подписаться", "подпишитесь", "читать далее", "смотрите также",
            // tr
            "paylaş", "ayrıca okuyun", "reklam", "abone ol", "devamını oku", "ilginizi çekebilir",
            // ar
            "شارك", "اقرأ أيضا", "اقرأ أيضاً", "إعلان", "اشترك", "تابعونا", "اقرأ المزيد",
            // zh, ja, ko, th
            "分享", "相关阅读", "相关新闻", "相关报道", "广告", "订阅", "阅读全文", "点击查看", "延伸阅读", "扫码",
            "シェア", "関連記事", "広告", "続きを読む", "공유", "관련기사", "광고", "구독", "แชร์", "อ่านเพิ่มเติม",
            "โฆษณา", "ข่าวยอดนิยม", "ข่าวที่เกี่ยวข้อง", "ข่าวล่าสุด",
        ],
        contains: &[],
    },
    Cues {
        // The Internet Archive's notes on its crawls, scraped in place of
        // pages that were gone.
        reason: Reason::Boilerplate,
        max_words: 80.0,
        starts: &[],
        contains: &[
            "internet archive", "wayback machine", "archive-it", "crawl data", "crawler", "web crawl", "these crawls", "this crawl",
            "seed list", "seedlist", "broken links on the web", " crawls ", "web captures", "linked-to domain",
            "inter-domain navigational",
        ],
    },
    Cues {
        reason: Reason::Widget,
        max_words: 30.0,
        starts: &[
            "please ", "thank you for", "click below", "thanks for", "watch ", "only on ", "read on", "for more on", "for the latest",
            "want more", "for more coverage", "by submitting", "send us", "read:",
        ],
        contains: &[
            "mailing list", "sign up for", "sign up now", "subscribe to our", "newsletter", "delivered straight to your",
            "click here", "after the jump", "your tweets", "location information",
            // Forms: a petition's, a shop's, a sign-up's.
            "in your email", "check your email", "your inbox", "into your account", "your signature",
        ],
    },
    Cues {
        // It points at what the page shows elsewhere: a table, a video, a list.
        reason: Reason::PageReference,
        max_words: 30.0,
        starts: &[
            "below,", "below is", "below are", "here are the", "here's a look", "here is a look", "ci-dessous", "a continuación,",
            "here are 1", "here are 2", "here are 3", "here are 4", "here are 5", "here are 6", "here are 7", "here are 8",
            "here are 9",
        ],
        contains: &[
            "provided below", "listed below", "shown below", "see below", "watch below", "video below", "video above",
            "compiled a list", ", here are 1", ", here are 2", ", here are 3", ", here are 4", ", here are 5", ", here are 6",
            ", here are 7", ", here are 8", ", here are 9", "download a copy", " here are ten ", " here are five ", "shown here",
            "we've collected", "we have collected", "we've rounded up", "we've compiled",
        ],
    },
    Cues {
        // A site's appeal to subscribe, donate or log in: polite full
        // sentences, which only their words give away.
        reason: Reason::Appeal,
        max_words: 60.0,
        starts: &[],
        contains: &[
            // en
            "subscribe now", "subscribe for", "subscribe today", "for subscribers only", "exclusive to subscribers",
            "available to subscribers", "already a subscriber", "already have an account", "log in to", "sign in to",
            "create an account", "create a free account", "free articles", "unlimited access", "support our journalism",
            "support local journalism", "support independent journalism", "make a contribution", "donate now",
            "become a member", "reached your limit", "to continue reading",
            // es
            "suscríbete", "suscribirte", "ya eres suscriptor", "ya tienes una cuenta", "inicia sesión", "iniciar sesión",
            "regístrate", "acceso ilimitado", "apoya el periodismo", "hazte socio", "exclusivo para suscriptores",
            // fr
            "abonnez-vous", "réservé aux abonnés", "déjà abonné", "connectez-vous", "créez un compte", "créer un compte",
            "accès illimité", "soutenez notre", "soutenez-nous", "faites un don", "nous avons besoin de vous",
            "pour continuer à lire",
            // de
            "jetzt abonnieren", "abonnieren sie", "für abonnenten", "sie haben bereits ein abo", "bereits abonnent",
            "jetzt anmelden", "melden sie sich an", "registrieren sie sich", "unbegrenzten zugang", "unterstützen sie uns",
            "jetzt unterstützen", "weiterlesen mit",
            // it
            "abbonati a", "abbonati ora", "riservato agli abbonati", "hai già un abbonamento", "accedi o registrati",
            "registrati gratis", "sostieni il", "dona ora", "continua a leggere", "accesso illimitato",
            // pt
            "assine o", "assine já", "exclusivo para assinantes", "já é assinante", "faça login", "cadastre-se",
            "acesso ilimitado", "apoie o jornalismo", "continue lendo", "para salvar este conteúdo",
            // nl
            "neem een abonnement", "heb je al een abonnement", "word abonnee", "onbeperkt lezen", "steun onze",
            "gratis artikel van",
            // pl
            "w ramach subskrypcji", "z subskrypcją", "masz już subskrypcję", "zaloguj się", "zarejestruj się",
            "masz już konto", "wesprzyj", "nieograniczony dostęp",
            // ru
            "оформите подписку", "входит в подписку", "по подписке", "войдите", "зарегистрируйтесь", "поддержите нас",
            "поддержать редакцию",
            // tr
            "abone ol", "aboneliğ", "giriş yapmalısınız", "giriş yapın", "üye ol", "bağışla destek", "destek olun",
            "okumaya devam etmek için",
            // ar
            "اشترك الآن", "للمشتركين", "سجل الدخول", "تسجيل الدخول", "ادعم", "تبرع", "وصول غير محدود",
            // zh
            "点击订阅", "欢迎订阅", "立即订阅", "訂閱", "付费内容", "付費內容", "会员专属", "會員專屬", "请登录", "請登入",
            "立即登录", "注册", "註冊", "赞赏", "贊賞", "小额捐款", "小額捐款", "支持我们", "支持我們", "成为会员", "成為會員",
            // ja
            "会員限定", "有料会員", "有料記事", "ログインすると", "ログインして", "会員登録", "登録すると", "購読",
            // ko
            "구독하고", "구독하기", "구독 신청", "구독자 전용", "로그인", "회원가입", "후원하기", "후원해", "전용 콘텐츠",
            // th
            "สมัครสมาชิก", "เข้าสู่ระบบ", "ร่วมสนับสนุน", "สมัครรับจดหมายข่าว", "ลงทะเบียนรับจดหมายข่าว", "เพิ่มเพื่อนทาง line",
            "คลิกเพิ่มเพื่อน",
            // newsletters and offers, any language
            "votre abonnement", "profitez de notre offre", "sans engagement", "рассылк", "оставьте свой e-mail",
            "поддержите редакцию", "quotes delayed",
        ],
    },
    Cues {
        // Another article behind its label, at any length.
        reason: Reason::RelatedLink,
        max_words: 40.0,
        starts: &[
            "read also:", "read more:", "related:", "► related:", "see also:", "more:", "watch:", "most read",
            "lea también:", "lee también:", "leer más:", "te puede interesar", "lire aussi:", "à lire aussi:", "voir aussi:",
            "lesen sie auch:", "mehr zum thema:", "leggi anche:", "leggi anche", "leia também:", "leia mais:",
            "lees ook:", "lees meer:", "czytaj też:", "czytaj także:", "czytaj więcej:", "zobacz też:", "zobacz także:",
            "читайте также:", "смотрите также:", "ilgili haber:", "okumaya devam edin:", "ayrıca okuyun:",
            "اقرأ أيضا:", "اقرأ أيضاً:", "اقرأ أيضا", "اقرأ أيضاً", "相关阅读:", "相关新闻:", "延伸阅读:", "延伸閱讀:",
            "相關新聞:", "関連記事:", "관련기사:", "อ่านข่าว:", "อ่านเพิ่มเติม:", "ข่าวที่น่าสนใจ:", "ข่าวที่เกี่ยวข้อง:",
            "อ่านข่าวที่เกี่ยวข้อง:", "ข่าวแนะนำ",
        ],
        contains: &[],
    },
    Cues {
        // Notes on the story, not the story, at any length: "UPDATE: …",
        // "Editor's note: …", "This story has been corrected…".
        reason: Reason::EditorNote,
        max_words: 120.0,
        starts: &[
            "update:", "updated:", "editor's note", "editor’s note", "editors' note", "editors’ note", "correction:",
            "clarification:", "note:", "exclusive:", "breaking:", "exclusiva:", "exclusivo:", "exclusif:", "exclusivité:",
            "exklusiv:", "esclusiva:", "esclusivo:", "this story has been", "this story was", "this article has been",
            "this article was", "this post has been", "this post was", "this report has been",
            // A site's note that the post belongs to a series (Global Voices in every language).
            "this post is part of", "this article is part of", "este post es parte", "este post forma parte",
            "este artículo es parte", "este artículo forma parte", "esta publicación es parte",
            "esta publicación forma parte", "ce billet fait partie", "cet article fait partie",
            "questo post fa parte", "este post faz parte", "dieser beitrag ist teil",
            "mise à jour", "note de la rédaction", "actualización:", "nota del editor", "nota de la redacción",
            "anmerkung der redaktion", "korrektur:", "aggiornamento:", "nota della redazione", "atualização:", "nota da redação",
            "обновление:", "от редакции", "güncelleme:", "editörün notu", "更新：", "更新:", "编者按", "追記", "수정:",
        ],
        // An opinion page's disclaimer.
        contains: &[
            "views expressed", "opinions expressed", "may not reflect the views", "les opinions exprimées",
            "n'engagent que leur auteur", "la opinión del autor", "no refleja necesariamente", "die meinung des autors",
            "мнение автора может не совпадать", "l'opinione dell'autore", "a opinião do autor", "yazarın görüşleri",
        ],
    },
];

fn cue(f: &Features) -> Option<Reason> {
    CUES.iter().find_map(|cues| {
        let hit = f.words <= cues.max_words
            && (cues.starts.iter().any(|s| f.folded.starts_with(s)) || cues.contains.iter().any(|s| f.folded.contains(s)));
        hit.then_some(cues.reason)
    })
    .or_else(|| link(f).then_some(Reason::Link))
}

/// Credit labels as pages write them in capitals, matched as written (a
/// "Photo:" inside a sentence is rare, but "PHOTO:" is never prose).
const CAPITAL_CREDIT_LABELS: &[&str] = &["CREDIT:", "CREDITS:", "PHOTO:", "PHOTOS:", "IMAGE:", "CRÉDIT:", "FOTO:", "FOTOS:"];

/// A credit in capitals that the page ran into its caption: a label
/// anywhere in the line ("… Response To Rape Allegations CREDIT: AP
/// Photo/Brennan Linsley Bill Cosby performs …"), or a site's name or the
/// agency, in capitals, opening it ("DEVONJAMESXXX.COM 'I want you …' was
/// one text message …", "AP American Airlines on Thursday said …"; not "AP
/// reporters found …").
fn credit_in_capitals(text: &str) -> bool {
    let mut words = text.split_whitespace().peekable();
    let Some(first) = words.next() else { return false };
    let next_capitalized = words.peek().is_some_and(|w| w.starts_with(char::is_uppercase));
    let opens_with_site = capital_domain(first) && words.peek().is_some();
    let opens_with_agency = first == "AP" && next_capitalized;
    opens_with_site || opens_with_agency || std::iter::once(first).chain(words).any(|w| CAPITAL_CREDIT_LABELS.contains(&w))
}

/// "DEVONJAMESXXX.COM", "NYPOST.COM": a domain name in capitals (a name,
/// a dot, a top-level domain of two to four capital letters).
fn capital_domain(word: &str) -> bool {
    let Some((name, top)) = word.rsplit_once('.') else { return false };
    let name_ok = name.chars().any(|c| c.is_ascii_uppercase())
        && name.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-' || c == '.');
    name_ok && (2..=4).contains(&top.len()) && top.chars().all(|c| c.is_ascii_uppercase())
}

/// A line of any length that opens with a photo credit: the credit and its
/// caption run together when the page was flattened to text ("AFP/Getty
/// Images NBA Finals MVP LeBron James of the Miami Heat holds the
/// championship trophy …", "Tom Williams/Getty Images Rep. Jackie Speier
/// (D-Calif.) will host …").
fn opens_with_photo_credit(f: &Features) -> bool {
    // The space after the last word lets a mark that ends in one match it:
    // "Eric Gay / AP Senator …" opens with "eric gay / ap ".
    let mut opening = f.folded.split_whitespace().take(CREDIT_OPENING_WORDS).collect::<Vec<_>>().join(" ");
    opening.push(' ');
    PHOTO_CREDIT_MARKS.iter().any(|mark| opening.contains(mark))
}

/// A sentence that ends in a URL: "… as I expect they will.” http://bit.ly/qEYaoz".
fn ends_in_link(folded: &str) -> bool {
    folded.split_whitespace().next_back().is_some_and(|last| last.starts_with("http") || last.contains("://"))
}

/// A URL, an e-mail address or a handle in a short line.
fn link(f: &Features) -> bool {
    if f.words > SHORT_LINE_WORDS {
        return false;
    }
    let t = &f.folded;
    t.contains("http://") || t.contains("https://") || t.contains("www.") || t.split_whitespace().any(|w| {
        let w = w.trim_matches(|c: char| !c.is_alphanumeric() && c != '@');
        (w.contains('@') && w.contains('.') && !w.starts_with('@')) || (w.starts_with('@') && w.len() > 1)
    })
}

/// Short own lines that occur in several documents (not copies of one
/// another) or several times in one.
fn recurrence(documents: &[Vec<Line>], features: &[Vec<Features>]) -> HashMap<(usize, usize), Reason> {
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
        } else if docs.len() == 1 {
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

/// A short page (4 to 50 sentences) with at least twice as many furniture
/// sentences as others, two of them known site boilerplate or four of them
/// links, is a video page, an error page or an archive's notes ("Rating is available when the
/// video has been rented.", "Sorry, the page you requested was not
/// found."): its remaining sentences are the page's own blurbs ("If you are
/// looking for an older news story…"), not an article. (A short article
/// among many share buttons has no such boilerplate and keeps its prose.)
fn furniture_page(reasons: &mut [Option<Reason>]) {
    // A note on the story ("This post is part of our coverage …") says the
    // page is a story, so it does not count towards furniture.
    // So does a live blog's time label.
    let furniture = reasons.iter().filter(|r| r.is_some_and(|r| !matches!(r, Reason::EditorNote | Reason::TimedEntry))).count();
    let others = reasons.len() - furniture;
    let boilerplate = reasons.iter().filter(|r| **r == Some(Reason::Boilerplate)).count();
    let links = reasons.iter().filter(|r| **r == Some(Reason::Link)).count();
    if (4..=50).contains(&reasons.len()) && furniture >= 2 * others && (boilerplate >= 2 || links >= 4) {
        for reason in reasons.iter_mut().filter(|r| r.is_none()) {
            *reason = Some(Reason::FurniturePage);
        }
    }
}

/// Short lines (5 words or fewer, own line) in a run of furniture that
/// reaches the page's edge, with furniture between them and the edge and
/// at least two furniture lines in the run: "Thank you.", "Send." among
/// the share buttons.
fn edge_runs(lines: &[Line], features: &[Features], reasons: &mut [Option<Reason>]) {
    let n = lines.len();
    let weak = |i: usize| lines[i].own_line && features[i].words <= 5.0;
    for order in [(0..n).collect::<Vec<_>>(), (0..n).rev().collect()] {
        let mut furniture = 0;
        let mut pending = vec![];
        for i in order {
            if reasons[i].is_some() {
                furniture += 1;
            } else if weak(i) && reasons[i].is_none() {
                // Only lines with furniture between them and the edge.
                if furniture > 0 {
                    pending.push(i);
                }
            } else {
                break;
            }
        }
        if furniture >= 2 {
            for i in pending {
                reasons[i] = Some(Reason::EdgeRun);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(lines: &[&str]) -> Vec<Option<Reason>> {
        let doc: Vec<Line> = lines.iter().map(|text| Line { text, own_line: true, ends_line: true, lang: "und" }).collect();
        classify(&[doc]).remove(0)
    }

    /// The reasons of `lines`, each on a line of its own, on a page whose
    /// first and last lines are long prose (so no run of furniture reaches
    /// the page's edges through them).
    fn among_prose(lines: &[&str]) -> Vec<Option<Reason>> {
        let first = "The council met on Tuesday evening to discuss the plan for the new bridge over the river.";
        let last = "The meeting ended after midnight, and a vote is expected at the next session in March.";
        let mut all = vec![first];
        all.extend(lines);
        all.push(last);
        let reasons = page(&all);
        reasons[1..reasons.len() - 1].to_vec()
    }

    fn prose(lines: &[&str]) -> Vec<String> {
        lines.iter().zip(page(lines)).filter(|(_, r)| r.is_none()).map(|(l, _)| l.to_string()).collect()
    }

    #[test]
    fn english_page_furniture() {
        let lines = [
            "Good Country Index Is Released, US Not In The Top 20",
            "Tweet with a location",
            "(Photo: Boyd Huppert, KARE 11)",
            "STOWE, Vt.",
            "The index ranks 163 countries by what they contribute to the world.",
            "Karl Rove:",
            "It was not clear what sparked the incident.",
            "PREVIOUSLY: Sweden tops the list",
            "Source: Gage Skidmore / Flickr",
            "503-294-4004",
            "Associated Press writer Eric Tucker contributed to this report.",
            "Read or Share this story: http://usat.ly/RHTLA8",
            "Why Is This Important?",
            "He was 83.",
        ];
        let reasons = page(&lines);
        assert_eq!(prose(&lines), ["The index ranks 163 countries by what they contribute to the world.", "It was not clear what sparked the incident.", "He was 83."]);
        assert_eq!(reasons[2], Some(Reason::PhotoCredit));
        assert_eq!(reasons[3], Some(Reason::Dateline));
        assert_eq!(reasons[5], Some(Reason::Colon));
        assert_eq!(reasons[8], Some(Reason::PhotoCredit));
        assert_eq!(reasons[9], Some(Reason::Symbols));
        assert_eq!(reasons[10], Some(Reason::Credit));
        assert_eq!(Reason::PhotoCredit.to_string(), "page furniture: photo credit");
    }

    #[test]
    fn french_spanish_german_pages() {
        let fr = [
            "Lire aussi : La réforme des retraites adoptée",
            "Le gouvernement a présenté mercredi son projet de loi sur les retraites.",
            "Photo : AFP",
            "PUBLICITÉ",
            "Les syndicats appellent à une nouvelle journée de grève jeudi.",
        ];
        assert_eq!(prose(&fr), [fr[1], fr[4]]);
        let es = [
            "Compartir en Facebook",
            "El terremoto de magnitud 7,1 sacudió la capital el martes por la tarde.",
            "Foto: EFE",
            "Las autoridades informaron de al menos 200 muertos.",
            "Te puede interesar",
        ];
        assert_eq!(prose(&es), [es[1], es[3]]);
        let de = [
            "Mehr zum Thema",
            "Die Bundesregierung hat am Mittwoch ein neues Klimapaket beschlossen.",
            "Foto: dpa",
            "Der Bundestag soll im Herbst darüber abstimmen.",
            "Anzeige",
        ];
        assert_eq!(prose(&de), [de[1], de[3]]);
        // A caption without a sentence end, over its credit, goes with it.
        let captioned = [
            "Le gouvernement a présenté mercredi son projet de loi sur les retraites.",
            "Manifestation contre la réforme à Paris, le 5 décembre",
            "Photo : AFP",
            "Les syndicats appellent à une nouvelle journée de grève jeudi.",
        ];
        assert_eq!(prose(&captioned), [captioned[0], captioned[3]]);
    }

    #[test]
    fn chinese_arabic_russian_pages() {
        let zh = ["责任编辑：王丽", "国务院周三公布了新的经济刺激计划。", "图片来源：新华社", "该计划包括减税和基础设施投资。", "分享到微信"];
        assert_eq!(prose(&zh), [zh[1], zh[3]]);
        let ar = [
            "اقرأ أيضا: الحكومة تعلن خطة جديدة",
            "أعلنت الحكومة يوم الأربعاء عن خطة جديدة لدعم الاقتصاد.",
            "المصدر: رويترز",
            "وقال وزير المالية إن الخطة ستبدأ الشهر المقبل.",
        ];
        assert_eq!(prose(&ar), [ar[1], ar[3]]);
        let ru = [
            "Читайте также: Правительство одобрило бюджет",
            "Правительство России в среду одобрило проект бюджета на следующий год.",
            "Фото: ТАСС",
            "Документ будет направлен в Государственную думу.",
            "Поделиться",
        ];
        assert_eq!(prose(&ru), [ru[1], ru[3]]);
    }

    #[test]
    fn clean_text_keeps_every_sentence() {
        // Sentences inside a paragraph, one without a full stop included
        // (sentences of three words or fewer are fragments anywhere).
        let doc: Vec<Line> = ["One more came here.", "Two more came here.", "Storm hits the coast", "More of them came."]
            .iter()
            .map(|text| Line { text, own_line: false, ends_line: false, lang: "und" })
            .collect();
        assert!(classify(&[doc]).remove(0).iter().all(Option::is_none));
        // A one-sentence document without a full stop is a sentence.
        assert_eq!(classify_sentence("Storm hits the coast"), None);
        assert_eq!(classify_sentence("Thousands lose power."), None);
        // ... unless it is clearly furniture.
        assert_eq!(classify_sentence("(Associated Press)"), Some(Reason::Parenthesized));
        assert_eq!(classify_sentence("(We are already pretty sure the song is about her.)"), None);
        assert_eq!(classify_sentence("Karl Rove:"), Some(Reason::Colon));
        // Thai does not end sentences with a mark: endings are not judged.
        let th = ["รัฐบาลประกาศมาตรการใหม่เพื่อช่วยเหลือเกษตรกรที่ได้รับผลกระทบจากน้ำท่วม", "นายกรัฐมนตรีกล่าวว่าจะเริ่มจ่ายเงินในสัปดาห์หน้าให้กับทุกครอบครัวที่ลงทะเบียน"];
        assert_eq!(prose(&th).len(), 2);
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

    /// Sentences inside one paragraph of prose (not lines of their own).
    fn paragraph(sentences: &[&str]) -> Vec<Option<Reason>> {
        let doc: Vec<Line> = sentences.iter().map(|text| Line { text, own_line: false, ends_line: false, lang: "und" }).collect();
        classify(&[doc]).remove(0)
    }

    #[test]
    fn fragments_too_short_to_stand_alone_in_any_language() {
        let lines = [
            "The storm reached the coast early on Monday morning.",
            "On Saturday.",
            "December 19.",
            "Et alors ?",
            "好的。",
            "国务院周三公布了新的经济刺激计划。",
            "Police said the road would stay closed until Friday.",
        ];
        let short = Some(Reason::TooShort);
        // Alone on their lines.
        assert_eq!(among_prose(&lines), [None, short, short, short, short, None, None]);
        // Inside a paragraph a short sentence is its prose; one word is a fragment anywhere.
        let r = paragraph(&["The storm reached the coast early on Monday morning.", "Nobody was hurt.", "¿Cuánto ha llovido?", "Ja.", "Police said the road would stay closed."]);
        assert_eq!(r, [None, None, None, short, None]);
    }

    /// Two or three words with a full stop and a word in lowercase are a
    /// statement in the languages without articles, alone on a line too.
    #[test]
    fn short_statements_stand_alone() {
        let lines = ["Пострадавших нет.", "Госпитализирован один человек.", "Kibicuję temu eksperymentowi.", "He was 83.", "Am Samstag.", "On Saturday."];
        let short = Some(Reason::TooShort);
        let r = among_prose(&lines);
        assert_eq!(r[..4], [None, None, None, None]);
        assert_eq!(r[4..], [short, short]);
    }

    #[test]
    fn cut_off_sentences_inside_a_paragraph() {
        // A short one; a long quote trailing off still says what it says,
        // and so does a whole sentence the quote went on after (". ...").
        let r = paragraph(&[
            "Four people are dead and one person is injured...",
            "The fire started in the kitchen of the restaurant.",
            "Встреча продолжалась до позднего вечера…",
            "The mayor visited the site on Tuesday.",
            "\"Maybe you have teen-agers yourself and know how they are ...",
            "Everybody was trying to get out and people trampled on each other on the way to the exit. ...",
            "The police arrived an hour later.",
        ]);
        assert_eq!(r, [None, None, Some(Reason::CutOff), None, None, None, None]);
        // At the end of its line, a teaser cut off.
        assert_eq!(among_prose(&["Four people are dead and one person is injured in a fire that broke out..."]), [Some(Reason::CutOff)]);
    }

    #[test]
    fn labels_glued_to_the_text() {
        let lines = [
            "CLOSE Police confirmed that two bodies found Tuesday were the missing teens.",
            "Close to 100 people were evacuated from the building on Monday.",
            "Image caption Paul Conroy was smuggled across the border into Lebanon.",
            "Media playback is unsupported on your device Media caption The moment the patient answered",
            "| AP Photo Trump picks Gorsuch for Supreme Court The judge would be the court's first addition.",
            "The court will hear the case in the autumn session next year.",
            "(Jan. 18) AP 1 of 68 Skip in Skip x Embed x Share CLOSE BABY, IT'S COLD OUTSIDE Thawing ice spells trouble.",
            "Continue reading the main story At the scene The bombardment has started in Binnish this week.",
        ];
        let r = page(&lines);
        assert_eq!(prose(&lines), [lines[1], lines[5]]);
        assert_eq!(r[0], Some(Reason::GluedLabel));
        assert_eq!(r[2], Some(Reason::GluedLabel));
        assert_eq!(r[6..], [Some(Reason::GluedLabel); 2]);
    }

    #[test]
    fn headline_printed_twice_before_the_lead() {
        let lines = [
            "Passenger Evaluated For Ebola In Newark Passenger Evaluated For Ebola In Newark A passenger who arrived from Brussels is being evaluated.",
            "Incendio en Madrid deja tres heridos Incendio en Madrid deja tres heridos Un incendio en un edificio del centro dejó tres heridos el lunes.",
            "Brand in Hamburg Brand in Hamburg Ein Feuer hat am Montag eine Lagerhalle im Hafen zerstört.",
            "Officials said the passenger had no fever when he landed on Sunday.",
            "Very, very, very good results came in from the tests on Monday, the team said.",
        ];
        let r = page(&lines);
        assert_eq!(r[..3], [Some(Reason::RepeatedHeadline); 3]);
        assert_eq!(r[3..], [None, None]);
    }

    #[test]
    fn site_boilerplate_learned_from_train_pages() {
        let lines = [
            "Breaking News Emails Get breaking news alerts and special reports.",
            "The governor signed the budget into law on Tuesday afternoon.",
            "You can unsubscribe at any time.",
            "Starting in 1996, Alexa Internet has been donating their crawl data to the Internet Archive.",
            "He did not elaborate.",
        ];
        let r = page(&lines);
        assert_eq!(r, [Some(Reason::Boilerplate), None, Some(Reason::Boilerplate), Some(Reason::Boilerplate), None]);
        // Case, spacing and punctuation do not matter.
        assert!(boilerplate("you can UNSUBSCRIBE at any time"));
    }

    #[test]
    fn captions_in_sentence_form() {
        let lines = [
            "Menasha Police Chief Tim Styka, right, speaks during a press conference at the medical center.",
            "Police said the gunman had been known to them for years.",
            "Bundeskanzlerin Angela Merkel (links) spricht mit Präsident Emmanuel Macron (rechts) in Berlin.",
            "Le président Emmanuel Macron (à droite) accueille la chancelière à l'Élysée.",
            "The chief listens, Monday May 4, 2015, in Neenah, Wis.",
            "This undated photo provided by the family shows the boy at his home.",
            "FILE - In this Jan. 14, 2013 file photo, the actress poses for a portrait in New York.",
            "The investigation is expected to take several months.",
        ];
        let r = page(&lines);
        assert_eq!(prose(&lines), [lines[1], lines[7]]);
        assert_eq!(r[..5], [Some(Reason::Caption), None, Some(Reason::Caption), Some(Reason::Caption), Some(Reason::Caption)]);
        // Photo cues name the last two first.
        assert_eq!(r[5..7], [Some(Reason::PhotoCredit); 2]);
    }

    /// A sentence that opens by pointing at a picture or a video of the
    /// page is a caption in any language; one that only mentions pictures
    /// or videos is prose.
    #[test]
    fn sentences_that_point_at_the_pages_media() {
        let lines = [
            "El presidente anunció el martes un plan de reconstrucción para la ciudad.",
            "Este video de la7jpress muestra la hora del almuerzo en ambos campamentos, en la capital Sanaa.",
            "Cette vidéo, mise en ligne par un militant, montre des enfants qui parlent de leurs souffrances.",
            "En esta imagen, civiles y uniformados protestan contra el Gobierno.",
            "La primera parte del video muestra caminos sucios y paquetes de comida.",
            "In diesem Video, aufgenommen am Montag, sieht man die Demonstranten vor dem Parlament.",
            "This image shows the mummy of an ancient Egyptian man in his fifties.",
            "Otras fotos muestran los lemas y banderolas del régimen en toda la ciudad.",
            "The video, which shows several people holding guns, led investigators to the house.",
            "This year the festival drew more visitors than ever before.",
        ];
        let r = page(&lines);
        assert_eq!(prose(&lines), [lines[0], lines[7], lines[8], lines[9]]);
        assert!(r[1..7].iter().all(|reason| *reason == Some(Reason::Caption)), "{r:?}");
    }

    #[test]
    fn dangling_endings_and_trailing_links() {
        let r = paragraph(&[
            "The New Baltimore Police Department released the following statement:",
            "The mayor said the road would reopen on Friday after repairs.",
            "Le ministre a déclaré devant les députés réunis à Paris :",
            "During his long stay in the capital,",
            "Markets fell again on Tuesday as I expected they would.” http://bit.ly/qEYaoz",
            "El presidente habló durante una hora ante el Congreso.",
        ]);
        assert_eq!(r, [Some(Reason::Dangling), None, Some(Reason::Dangling), Some(Reason::Dangling), Some(Reason::Link), None]);
    }

    #[test]
    fn embedded_social_media_posts() {
        let r = paragraph(&[
            "RIP Prodigy one of my favourite rappers of all time, can't believe this. — Boi-1da (@Boi1da) June 20, 2017",
            "Если что-то взорвут, будет плохо. — Степан (@faraday_m) August 20, 2013",
            "The triple-decker includes a swimming pool and a park. pic.twitter.com/VEvTRkXT9O",
            "The rapper, whose account on the service is @Boi1da, posted the short message late on Tuesday night from his home.",
        ]);
        assert_eq!(r[..3], [Some(Reason::EmbeddedPost); 3]);
        assert_eq!(r[3], None);
    }

    #[test]
    fn caption_credits_and_long_headlines() {
        let lines = [
            "Tory MP Karen Vecchio says she will oppose the bid to change the lyrics. (parl.gc.ca)",
            "The vote is expected next week, the party's whip said on Monday.",
            "He left the room. (He came back an hour later, smiling.)",
            "Kim Kardashian's husband is dropped by her agent but couple put on a show of unity and their rings on night out",
            "The new standards will introduce climate change as a core aspect of science education for middle and high school students in twenty six states across the country starting next year and the year after that, according to the officials who wrote them over several years",
            "The party has not said how many of its members will vote against the proposal.",
            "Opponents of the change have collected more than ten thousand signatures online.",
        ];
        let r = page(&lines);
        assert_eq!(r, [Some(Reason::Caption), None, None, Some(Reason::NoEnding), None, None, None]);
    }

    #[test]
    fn short_pages_that_are_mostly_furniture() {
        // A video page: its blurb is not an article.
        let video = page(&[
            "Rating is available when the video has been rented.",
            "This feature is not available right now.",
            "Please try again later.",
            "Jimmy gets a surprise visit from a dragon queen, and they talk about her crazy life.",
            "Published on Sep 2, 2008",
            "Learn more",
        ]);
        // (Above the page's date it is also its deck.)
        assert!(matches!(video[3], Some(Reason::FurniturePage | Reason::HeadlineBlock)), "{video:?}");
        let undated = page(&[
            "Rating is available when the video has been rented.",
            "This feature is not available right now.",
            "Please try again later.",
            "Jimmy gets a surprise visit from a dragon queen, and they talk about her crazy life.",
            "Learn more",
        ]);
        assert_eq!(undated[3], Some(Reason::FurniturePage));
        // An article with a few widgets keeps its sentences.
        let article = page(&[
            "Share this story",
            "The council voted on Tuesday to close the old bridge to heavy trucks.",
            "Engineers found cracks in two of its supports last month.",
            "Learn more",
        ]);
        assert_eq!(article[1..3], [None, None]);
    }

    #[test]
    fn gallery_dates_and_question_labels() {
        let lines = [
            "March 22, 2014 Armed men take cover behind an armored vehicle near Sevastopol.",
            "Q: What do I do with the ticket?",
            "The winner has not come forward yet, lottery officials said on Monday.",
            "March 22 was the day the troops moved in, officials said.",
        ];
        let r = page(&lines);
        assert_eq!(r, [Some(Reason::Caption), Some(Reason::LabelPrefix), None, None]);
    }

    /// Paragraphs of sentences: each inner slice is one paragraph.
    fn paragraphs_of(paragraphs: &[&[&str]]) -> Vec<Option<Reason>> {
        let mut doc = vec![];
        for sentences in paragraphs {
            for (i, text) in sentences.iter().enumerate() {
                let ends_line = i + 1 == sentences.len();
                doc.push(Line { text, own_line: sentences.len() == 1, ends_line, lang: "und" });
            }
        }
        classify(&[doc]).remove(0)
    }

    const PROSE: [&str; 3] = [
        "The council voted on Tuesday to close the old bridge to heavy trucks.",
        "Engineers found cracks in two of its supports last month, the city said.",
        "Repairs are expected to take at least a year and cost several million dollars.",
    ];

    #[test]
    fn the_boilerplate_table_is_the_lists_hashes() {
        let list = include_str!("boilerplate.txt");
        assert_eq!(BOILERPLATE, super::super::line_key::hashed_lines(list).as_slice());
        assert!(BOILERPLATE.len() > 200);
        for line in list.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
            assert!(boilerplate(&line.to_uppercase()), "{line}");
        }
    }

    #[test]
    fn a_long_line_that_opens_with_a_photo_credit_is_its_caption() {
        let r = page(&[
            "AFP/Getty Images NBA Finals MVP LeBron James of the Miami Heat holds the championship trophy after \
             defeating the Oklahoma City Thunder in Game 5 of the NBA Finals.",
            "Tom Williams/Getty Images Rep. Jackie Speier (D-Calif.) will host an hour-long reading of a widely \
             circulated statement from the victim of a 2015 sexual assault by a former Stanford University student.",
            "The agency, which licenses pictures to newspapers around the world, said on Monday that its sales to \
             Getty Images and Reuters had grown for the third year running.",
        ]);
        assert_eq!(r, [Some(Reason::CreditedCaption), Some(Reason::CreditedCaption), None]);
    }

    #[test]
    fn captions_next_to_their_credit_and_list_entries() {
        let r = paragraphs_of(&[
            &["Donald Trump before opening the Nasdaq on September 20, 2005.", "Michael Nagle/Getty Images"],
            &[PROSE[0]],
            &["Patrick Callahan, 21, Mansfield, CT.", "Charged with eight counts of permitting a minor to possess alcohol."],
            &["BOSTON, Mass.", "(AP) — A couple born on the same day at the same hospital have exchanged vows."],
            &[PROSE[1], PROSE[2]],
        ]);
        assert_eq!(r[..2], [Some(Reason::CreditedCaption), Some(Reason::PhotoCredit)]);
        assert_eq!(r[2], None);
        assert_eq!(r[3..5], [Some(Reason::TitleCase), Some(Reason::ListEntry)]);
        // A dateline leads prose: no number, so not a list.
        assert_eq!(r[6], None);
        assert_eq!(r[7..], [None, None]);
    }

    #[test]
    fn captions_credited_in_spanish_and_french_or_by_an_agency_after_a_bar() {
        let r = paragraphs_of(&[
            &["Un símbolo copto de una iglesia en El Cairo.", "Foto compartida por kudumomo en Flickr usada bajo CC BY 2.0"],
            &["Manifestants devant l'ambassade syrienne au Caire.", "Photo de Hossam El Hamalawy"],
            &["Embajada de Siria, Londres.", "Imagen del usuario de Flickr Yersinia (CC BY-NC-SA 2.0)."],
            &["Manifestación en la localidad siria de Banias.", "| Ap"],
            &[PROSE[0]],
            // A footer's links after a bar are not a credit.
            &[PROSE[1], "| Versión para móvil"],
        ]);
        let caption = [Some(Reason::CreditedCaption), Some(Reason::PhotoCredit)];
        assert_eq!((&r[0..2], &r[2..4], &r[4..6]), (&caption[..], &caption[..], &caption[..]));
        assert_eq!(r[6..8], [Some(Reason::CreditedCaption), Some(Reason::GluedLabel)]);
        assert_eq!(r[8..], [None, None, Some(Reason::GluedLabel)]);
    }

    /// Each of `entries` alone gets `reason`; none of `others` does.
    fn only_these_get(reason: Reason, entries: &[&str], others: &[&str]) {
        for entry in entries {
            assert_eq!(classify_sentence(entry), Some(reason), "{entry}");
        }
        for other in others {
            assert_ne!(classify_sentence(other), Some(reason), "{other}");
        }
    }

    #[test]
    fn live_blog_entries_led_by_their_time() {
        let entries = [
            "22h50 : Le Conseil de sécurité de l'ONU se réunit pour la deuxième journée consécutive.",
            "19H46 - Entraide - A la frontière tunisienne, un Libyen raconte sa fuite.",
            "10:32 a.m. — The senator left the chamber without speaking to reporters.",
            "14.05 | La policía cerró la plaza a los manifestantes durante toda la tarde.",
            "22 h 30 : Les rebelles annoncent avoir pris le contrôle de la ville de Brega.",
            "21 h : Les États-Unis ont frappé samedi des sites anti-aériens libyens.",
            "21 h — Les États-Unis ont frappé samedi des sites anti-aériens libyens.",
        ];
        let prose = [
            // A dash of three bytes right after the hour (found by tests/fuzz.rs).
            "9h—iÜ les rebelles annoncent avoir pris le contrôle de la ville de Brega.",
            "12.50 dollars a barrel was the price the cartel had agreed on in March.",
            "10:30 was when the first train left the station on the opening day of the line.",
            "Il est 22 h 30 : les rebelles annoncent avoir pris le contrôle de la ville.",
            "48 heures : c'est le temps qu'il a fallu aux rebelles pour prendre la ville.",
            "At 10:30 the first train left the station on the opening day of the line.",
        ];
        only_these_get(Reason::TimedEntry, &entries, &prose);
    }

    #[test]
    fn chronology_entries_led_by_their_date() {
        let entries = [
            "15 marzo: Primeras protestas bajo el lema \"Una Siria sin tiranía\".",
            "16 de enero: Preocupados por la situación en el mundo árabe, los ministros se reúnen.",
            "14 mars : Les forces du régime continuent d'avancer vers Benghazi.",
            "1948: Una coalición formada por Egipto, Iraq, Siria y Jordania es derrotada.",
            "2012: La guerra civil se extendió a todas las provincias del país durante el verano.",
            "March 14, 2011: Protesters gather in the capital for the first time.",
            "1999 – Bashar al Assad se convierte en coronel del Ejército sirio.",
            "1938.- Se logra aislar el gas \"Sarin\" a partir del \"Tabun\".",
            "23.03.2011.- Al menos 15 civiles y un soldado fallecen en Deraa.",
            "20 mars 2011 - Des manifestations éclatent à Deraa, dans le sud du pays.",
        ];
        let prose = [
            "2011-2012 fue el peor bienio para la economía siria en medio siglo.",
            "1999 fue el año en que Bashar al Assad se convirtió en coronel – según la prensa oficial.",
            "The 1999 - 2000 season ended early: the league had run out of money.",
            "Le 14 mars, les forces du régime ont continué d'avancer vers Benghazi.",
            "Lunes: El gobierno anunció nuevas medidas contra la protesta en la capital.",
            "The result in 2012: a civil war that spread to every province of the country.",
            "2012: la guerra civil se extendió a todas las provincias del país durante el verano.",
            "Ahmed Shafik: \"Nous ne partirons pas\", a déclaré le candidat devant la presse.",
        ];
        only_these_get(Reason::ListEntry, &entries, &prose);
    }

    #[test]
    fn credits_and_notes_glued_before_the_text() {
        for (line, reason) in [
            ("Eric Gay / AP Senator Wendy Davis listens as the Texas Senate debates an abortion bill.", Reason::PhotoCredit),
            ("Eric Gay / AP Senator Wendy Davis listens as the Texas Senate debate an abortion bill before the final vote, on July 12, 2013, in Austin.", Reason::CreditedCaption),
            ("AP American Airlines on Thursday said it received an unsolicited notice from Qatar Airways.", Reason::CreditedCaption),
            ("[liens en anglais sauf mention contraire] Haleh Sahabi, une activiste iranienne, est décédée hier.", Reason::GluedLabel),
            ("WASHINGTON (AP) —", Reason::LeadLabel),
            ("FOCUS -", Reason::LeadLabel),
            ("In this May 24, 2016, file photo, Rep. John Conyers, D-Mich., ranking member on the House Judiciary Committee, speaks on Capitol Hill in Washington during a hearing on the budget.", Reason::Caption),
            ("Exclusiva: Rusia dice que al menos 20 países han mostrado interés por su vacuna.", Reason::EditorNote),
            ("•Selon Alain Juppé, l'Otan n'exercera pas le pilotage politique de l'opération.", Reason::ListEntry),
        ] {
            assert_eq!(classify_sentence(line), Some(reason), "{line}");
        }
        for prose in [
            "AP reporters found that the company had paid the fine in March of last year.",
            "The ratio of 3/ap was not what the engineers had expected to see in the test.",
            "[The union's president] told members that the strike would go on until Friday.",
            "In this photograph he looks older than his 83 years, his daughter said on Monday.",
        ] {
            assert_eq!(classify_sentence(prose), None, "{prose}");
        }
    }

    #[test]
    fn posts_quoted_under_their_handle() {
        let r = paragraphs_of(&[
            &[PROSE[0]],
            &["@iyad_elbaghdadi: Confirmado: cañones antiaéreos usados contra los manifestantes.", "22 muertos, cientos de heridos."],
            &["@Razaniyat Un amigo en #Aleppo tiene un módem 3G, me cuenta que no le funciona."],
            &["@realDonaldTrump said on Monday that the trade talks with China were going very well indeed, his aides said."],
            &[PROSE[1]],
            &[PROSE[2]],
        ]);
        assert_eq!(r[1..4], [Some(Reason::EmbeddedPost); 3]);
        assert_eq!((r[0], r[4], r[5], r[6]), (None, None, None, None));
    }

    #[test]
    fn posts_quoted_from_their_first_tag() {
        let r = paragraphs_of(&[
            &[PROSE[0]],
            &["#Mubarak gobierna #Egipto desde 1981."],
            &["#AntiCoup alliance confirm that today's rallies end with the evening and funeral prayers."],
            &["@anasqtiesh\"porter atteinte au sentiment national\", c'est ce qui est reproché aux militants."],
            &["The actor ended his post with #Takei2018 and a link to the article announcing his run."],
            &["#Takei2018,\" the actor wrote, along with a link to a Daily Buzz article announcing his run."],
            &["Lyft quickly admitted the wearable was a prank, but the company did get a model to try one out.", "#GetMono"],
            &[PROSE[1]],
        ]);
        assert_eq!(r[1..4], [Some(Reason::EmbeddedPost); 3]);
        assert_eq!((r[0], r[4], r[5], r[6], r[8]), (None, None, None, None, None));
        assert_ne!(r[7], Some(Reason::EmbeddedPost), "a lone tag is no post");
    }

    #[test]
    fn labelled_questions_alone_on_their_line_are_headlines() {
        let r = page(&[
            "Israël : qui sont les nouveaux « anti-Bibi » ?",
            PROSE[0],
            "Opinión: ¿A quién le sirve un ataque de EE.UU. contra Siria?",
            PROSE[1],
            "Here's the thing: why would anyone vote for the bridge to close?",
            "Résultat : les combattants kurdes affrontent l'armée syrienne libre.",
            PROSE[2],
        ]);
        assert_eq!((r[0], r[2]), (Some(Reason::Headline), Some(Reason::Headline)));
        assert_eq!((r[1], r[3], r[4], r[5], r[6]), (None, None, None, None, None));
    }

    #[test]
    fn a_page_that_opens_with_a_question_opens_with_its_headline() {
        let opening = "¿Por qué en Libia sí y en Siria no?";
        assert_eq!(page(&[opening, PROSE[0], PROSE[1], PROSE[2], PROSE[0]])[0], Some(Reason::Headline));
        // A short note may ask first; further down, a question is prose.
        assert_eq!(page(&[opening, PROSE[0], PROSE[1]])[0], None);
        assert_eq!(page(&[PROSE[0], opening, PROSE[1], PROSE[2], PROSE[0]])[1], None);
    }

    #[test]
    fn reading_times_are_stamps() {
        for stamp in ["Temps de Lecture 3 min.", "Tiempo de lectura: 4 min.", "Lesezeit: 2 Minuten."] {
            assert_eq!(classify_sentence(stamp), Some(Reason::Stamp), "{stamp}");
        }
        assert_eq!(classify_sentence("Le temps de lecture d'un roman varie selon les lecteurs et les genres littéraires."), None);
    }

    #[test]
    fn transcripts_updates_and_broken_lines() {
        let r = paragraphs_of(&[
            &["GEORGE STEPHANOPOULOS: Thanks for joining us live for this exclusive interview with the president."],
            &["PRESIDENT OBAMA: Great to be here, and thank you for having me on the show today."],
            &["GEORGE STEPHANOPOULOS: There has been a huge response since we announced this interview."],
            &["UPDATE: Authorities positively identified the two bodies found near the creek on Tuesday."],
            &["in up to 40 states – in many for the first time."],
            &["iPhone sales rose by a third in the last quarter of the year, the company said."],
            &["($55,327), North-Central New Jersey ($53,986) and Chicago ($50,934) also topped the list."],
            &["-- up to a maximum of 100 most highly ranked URLs per domain"],
            &["— Я не знаю, что будет дальше, — сказал он журналистам в понедельник."],
            &[PROSE[0]],
            &[PROSE[1]],
        ]);
        // Short labelled lines are labels anyway; the long one is judged as
        // a transcript's.
        assert!(r[..3].iter().all(Option::is_some));
        assert_eq!(r[1], Some(Reason::SpeakerLabel));
        assert_eq!(r[3], Some(Reason::EditorNote));
        assert_eq!(r[4], Some(Reason::LowercaseStart));
        assert_eq!(r[5], None, "a name with a capital inside starts in lowercase");
        assert_eq!(r[6], Some(Reason::LowercaseStart));
        assert_eq!(r[7], Some(Reason::ListEntry));
        assert_eq!(r[8], None, "a dash opens dialogue in Russian");
        assert_eq!(r[9..], [None, None]);
    }

    #[test]
    fn labels_pull_quotes_and_page_references() {
        let r = paragraphs_of(&[
            &["Day of Silent Social Media: Think you can turn it off?"],
            &["Kong: Skull Island is, reportedly, a reboot of the original King Kong from 1933."],
            &["The result: a draw that pleased no one in the stadium on Saturday night."],
            &["It should be on every girl’s reading list, and every boy’s too.”—Connie Britton"],
            &["The 2017 guidelines are also provided below for reference."],
            &["Wedding costs soar to new highs (3:40) As Americans feel better, they spend more."],
            &["\"There are 11 million people living here illegally,\" he said on Sunday."],
            &["[Video Link] The Wilco track is re-imagined as a classic, early-era Popeye cartoon."],
            &["[2] The year after his retirement, another player retired because of the same problem."],
            &["[Labor union official] advised Obama that he would reach out to the governor on Monday."],
            &["Donald John TrumpTrump Jr. getting ok to speak at UNT panned the chairwoman on Monday."],
            &["Ahmad Seth Zaharie, 26, with his sister Aishah Zaharie (left), 27, and their mother."],
            &["Ueli Steck speaks to the media during an interview at a hotel in Kathmandu, Nepal May 30, 2016."],
            &["2018 Federal Poverty Guidelines for Alaska"],
            &[PROSE[0]],
            &[PROSE[1]],
        ]);
        assert_eq!(r[0], Some(Reason::LabelPrefix));
        assert_eq!(r[1..3], [None, None], "a title's colon and prose's colon");
        assert_eq!(r[3], Some(Reason::PullQuote));
        assert_eq!(r[4..6], [Some(Reason::PageReference); 2]);
        assert_eq!(r[6], None, "'There are 11' is not 'here are 11'");
        assert_eq!(r[7], Some(Reason::GluedLabel));
        assert_eq!(r[8], None, "a footnote's number is not a label");
        assert_eq!(r[9], None, "an editor's bracket for the subject is not a label");
        assert_eq!(r[10], Some(Reason::GluedLabel));
        assert_eq!(r[11..13], [Some(Reason::Caption); 2]);
        assert_eq!(r[13], Some(Reason::TitleCase));
        assert_eq!(r[14..], [None, None]);
    }

    #[test]
    fn credits_in_capitals() {
        let r = paragraphs_of(&[
            &["Culture ‘Reality Is The Situation’: Bill Cosby’s Incoherent Response To Rape Allegations CREDIT: AP \
               Photo/Brennan Linsley Bill Cosby performs at the Buell Theater in Denver on Jan. 17, 2015."],
            &["DEVONJAMESXXX.COM 'I want you to call me' was one text message she says the golfer sent her."],
            &["The photo credit read: Reuters, and the site NYPOST.COM ran it the same day as the others."],
            &["NASA.GOV"],
            &[PROSE[0]],
            &[PROSE[1]],
        ]);
        assert_eq!(r[..2], [Some(Reason::CreditedCaption); 2]);
        assert_eq!(r[2], None, "a site named inside a sentence, and 'credit' in lowercase");
        assert_ne!(r[3], Some(Reason::CreditedCaption), "a site's name alone credits nothing");
        assert_eq!(r[4..], [None, None]);
    }

    #[test]
    fn forms_a_blog_hosts_page_and_archive_notes() {
        let reasons = [
            "You must confirm your signature in your email for your vote to count.",
            "Morning Money Political intelligence on Washington and Wall Street — weekday mornings, in your inbox.",
            "Shop or log into your account to \"Skip the Month\" by the 5th of the month and you won't be charged.",
            "If you need additional information about domain mapping, please visit our help center.",
            "These web captures are available to the general public.",
            "Top ranked pages (up to a max of 100) from every linked-to domain using the Wide00012 inter-domain navigational link graph",
            "The campaign said it had collected 40,000 signatures, more than twice what the ballot requires.",
        ]
        .map(classify_sentence);
        assert_eq!(reasons[..3], [Some(Reason::Widget); 3]);
        assert_eq!(reasons[3], Some(Reason::BrowserNotice));
        assert_eq!(reasons[4..6], [Some(Reason::Boilerplate); 2]);
        assert_eq!(reasons[6], None);
    }

    #[test]
    fn series_notes_browser_notices_and_empty_labels_in_spanish_and_french() {
        let reasons = [
            "Este post es parte de nuestra cobertura especial Levantamiento en Libia 2011.",
            "Ce billet fait partie de notre dossier central sur le soulèvement en Syrie 2011/12.",
            "Su navegador tiene las notificaciones bloqueadas.",
            "Quelle est votre réaction ?",
            "El tiempo en Sevilla: .",
            "Los rebeldes tomaron el control de Brega el martes, según fuentes de la oposición.",
            "Le ministre a dit : « Nous ne céderons pas. »",
        ]
        .map(classify_sentence);
        assert_eq!(reasons[..2], [Some(Reason::EditorNote); 2]);
        assert_eq!(reasons[2], Some(Reason::BrowserNotice));
        assert_eq!(reasons[3], Some(Reason::Widget));
        assert_eq!(reasons[4], Some(Reason::Colon));
        assert_eq!(reasons[5..], [None, None], "prose, and a colon that introduces a quote inside the sentence");
    }

    #[test]
    fn notes_on_the_story_do_not_make_a_furniture_page() {
        let lines = [
            "Este post es parte de nuestra cobertura especial Protestas en Siria 2011.",
            "http://twitter.com/activista/status/1",
            "http://twitter.com/activista/status/2",
            "http://twitter.com/activista/status/3",
            "http://twitter.com/activista/status/4",
            PROSE[0],
            PROSE[1],
            PROSE[2],
            "Este post forma parte de nuestra cobertura especial Protestas en Siria 2011.",
        ];
        let r = page(&lines);
        assert_eq!(r[0], Some(Reason::EditorNote));
        assert_eq!(r[1..5], [Some(Reason::Link); 4]);
        assert_eq!(r[5..8], [None, None, None], "four links and two notes do not outnumber three sentences two to one");
    }

    #[test]
    fn a_number_needs_a_clause_to_stand_alone() {
        let lines = ["$9.65 million?", "He was 83.", "It's 5 p.m.", "Up 5%."];
        assert_eq!(among_prose(&lines), [Some(Reason::TooShort), None, None, Some(Reason::TooShort)]);
    }

    #[test]
    fn related_headlines_that_outnumber_the_story_are_still_headlines() {
        let story = [
            "Un avión israelí fue alcanzado este sábado durante una operación militar en Siria.",
            "Los pilotos de uno de los aviones lo abandonaron según el procedimiento habitual.",
            "Cayeron en territorio israelí y fueron llevados al hospital para recibir tratamiento.",
            "El ejército dijo que atacó doce objetivos iraníes y sirios durante la noche del sábado.",
            "Irán negó haber enviado un dron al espacio aéreo israelí desde la base siria de Palmira.",
        ];
        let related: Vec<String> = (1..=12)
            .map(|n| format!("Otra noticia número {n} sobre la economía de la región que nadie lee hoy"))
            .collect();
        let lines: Vec<&str> = story.iter().copied().chain(related.iter().map(String::as_str)).collect();
        let r = page(&lines);
        assert_eq!(r[..5], [None; 5]);
        assert_eq!(r[5..], [Some(Reason::NoEnding); 12]);
        // Four punctuated sentences among twelve lines without an ending: a
        // text that seldom punctuates, left alone.
        assert_eq!(page(&lines[1..]), vec![None; 16]);
    }

    #[test]
    fn a_question_among_headlines_is_one_of_them() {
        let lines = [
            "Il a aussi appelé au calme dans les grandes villes du pays après les violences de la nuit.",
            "Budget européen : un accord à 1 800 milliards d'euros",
            "Est-il vraiment possible de recycler les bouteilles ?",
            "Arabie Saoudite : plusieurs personnes blessées dans un attentat à Riyad",
            "Les transports en commun gratuits pour les moins de 18 ans !",
            "Qui sont les forces d'opposition syriennes ?",
            "Le Conseil national syrien a été créé fin août à Istanbul par des opposants en exil.",
            "Pourquoi le Conseil a-t-il attendu si longtemps ?",
            "Parce que la Ligue arabe a fixé un délai qui expire samedi soir à minuit.",
        ];
        let r = page(&lines);
        assert_eq!(r[1..4], [Some(Reason::NoEnding), Some(Reason::ListEntry), Some(Reason::NoEnding)]);
        // Beside one heading only, a question is prose (and so is one in
        // the text itself).
        assert_eq!((r[4], r[5], r[7]), (None, None, None));
        // A run of them, between a heading and a scrap ("Abonnés").
        let r = page(&[
            lines[0],
            lines[1],
            "Faut-il reconstruire les ponts détruits ?",
            "Est-il vraiment possible de recycler les bouteilles ?",
            "Abonnés",
            lines[6],
        ]);
        assert_eq!(r[2..5], [Some(Reason::ListEntry), Some(Reason::ListEntry), Some(Reason::TooShort)]);
    }

    proptest::proptest! {
        #[test]
        fn never_panics_and_is_deterministic(lines in proptest::collection::vec(("\\PC{0,60}", proptest::bool::ANY), 0..8), other in "\\PC{0,40}") {
            let doc: Vec<Line> = lines.iter().map(|(text, own_line)| Line { text, own_line: *own_line, ends_line: *own_line, lang: "und" }).collect();
            let second = vec![Line { text: &other, own_line: true, ends_line: true, lang: "und" }];
            let first = classify(&[doc.clone(), second.clone()]);
            proptest::prop_assert_eq!(first.len(), 2);
            proptest::prop_assert_eq!(first[0].len(), doc.len());
            proptest::prop_assert_eq!(&first, &classify(&[doc, second]));
            let _ = classify_sentence(&other).map(|r| r.to_string());
            let _ = classify_sentence(&format!("Monday, Jan 5, 2é{other}"));
            let _ = classify_sentence(&format!("In this {other} photo, {other}"));
        }
    }
}
