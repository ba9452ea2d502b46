//! One sentence as the rules see it: the [`Line`] the caller gives, and the
//! [`Features`] read off its characters in one pass.

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

/// Lines longer than this (in words) are never judged by recurrence, cue
/// or position: a long sentence quoted by two articles is prose.
pub(super) const SHORT_LINE_WORDS: f32 = 15.0;

/// What the rules read off one sentence, in one pass over its characters.
#[derive(Clone, Debug, Default)]
pub(super) struct Features {
    /// Size in words: space-separated tokens, or ideographs / 2 and letters
    /// of the scripts that space phrases (Thai, Lao, Khmer, Myanmar,
    /// Tibetan) / 5.
    pub(super) words: f32,
    /// Mostly ideographs, kana or Thai: scripts that do not space words.
    pub(super) spaceless: bool,
    /// Mostly Thai letters: sentences that end without a mark, so a mark at
    /// the end says little ([`crate::text::is_markless_letter`]).
    pub(super) markless: bool,
    pub(super) letters: usize,
    /// Hangul syllables and CJK ideographs and kana among the letters: each
    /// writes what an alphabet takes two letters or more for.
    pub(super) syllable_letters: usize,
    pub(super) digits: usize,
    /// Other visible characters (punctuation, symbols).
    pub(super) others: usize,
    pub(super) upper: usize,
    pub(super) lower: usize,
    /// The last character before closing quotes, brackets and spaces.
    pub(super) last_mark: Option<char>,
    /// Ends like a sentence (before closing quotes and brackets).
    pub(super) ends_sentence: bool,
    /// Ends in ':', before closing marks or before punctuation standing for
    /// a value the page left empty ("El tiempo en Madrid: .").
    pub(super) ends_colon: bool,
    /// Ends in ':', ',', ';' or a dash.
    pub(super) ends_dangling: bool,
    /// Trails off into "..." or "…": not after the sentence's own end, and
    /// not a quote's elision mark set apart by a space ([`ends_in_elision`]).
    pub(super) ends_ellipsis: bool,
    pub(super) parenthesized: bool,
    /// Alphabetic words, and those starting with a capital.
    pub(super) alpha_words: usize,
    pub(super) capitalized_words: usize,
    /// Words of 4+ letters starting with a lowercase letter.
    pub(super) long_lowercase_words: usize,
    /// Words starting with a lowercase letter.
    pub(super) lowercase_words: usize,
    /// Lowercased, ':' normalized ("photo :" and "写真：" → "photo:", "写真:").
    pub(super) folded: String,
}

/// Whether the text ends in a quote's elision mark, "(...)" or "[…]", set
/// apart by a space, where what was left out is the rest of a quote: after
/// a whole sentence ("… méritait. (...)") or before the quote's closing mark
/// ("«… je résiste toujours [...]»"). After a bare word, the mark is a
/// teaser's cut: glued ("… sur un terrain d[...]") or spaced, as blogs end
/// their excerpts ("… todos los pueblos de […]").
fn ends_in_elision(text: &str) -> bool {
    let text = text.trim_end();
    // Closing quotes only (not `is_closing`): the brackets are the mark's own.
    let unquoted = text.trim_end_matches(|c: char| c.is_whitespace() || matches!(c, '"' | '”' | '»' | '’' | '\''));
    let in_quote = unquoted.len() < text.len();
    ["(...)", "[...]", "(…)", "[…]"].iter().filter_map(|mark| unquoted.strip_suffix(mark)).any(|before| {
        let whole_before = before.trim_end().chars().next_back().is_none_or(|c| is_sentence_end(c) || is_closing(c));
        (before.is_empty() || before.ends_with(char::is_whitespace)) && (in_quote || whole_before)
    })
}

/// Marks that may follow a sentence's end; '“' and '‘' close German quotes
/// („Ja.“), and '«' those written »so.«
/// `text` opens with `word` as a word of its own: nothing after it, or no
/// letter or digit ("AFP", "AFP/Getty", not "AFPX").
pub(super) fn opens_with_word(text: &str, word: &str) -> bool {
    text.strip_prefix(word).is_some_and(|rest| !rest.starts_with(char::is_alphanumeric))
}

pub(super) fn is_closing(c: char) -> bool {
    matches!(c, '"' | '\'' | '”' | '’' | '“' | '‘' | '»' | '›' | '«' | '‹' | ')' | ']' | '」' | '』' | '）' | '】' | '》' | '〉' | '*' | '_')
}

/// Letters a quote alone on its line needs to be a sentence.
const SPOKEN_LETTERS: usize = 12;

/// A Japanese paragraph that is one quote, 「…」, ends there without a
/// full stop ("「最初に結果を見たときは、何かの間違いだと思った」"): it is
/// a sentence, as a quote closed by "。」" is.
fn spoken_alone(text: &str, spaceless: bool) -> bool {
    let text = text.trim();
    spaceless
        && text.starts_with('「')
        && text.ends_with('」')
        && text.matches('「').count() == 1
        && text.chars().filter(|c| c.is_alphabetic()).count() >= SPOKEN_LETTERS
}

pub(super) fn is_sentence_end(c: char) -> bool {
    crate::text::is_sentence_final(c)
}

impl Features {
    pub(super) fn of(text: &str) -> Self {
        let mut f = Features::default();
        let mut tokens = 0usize;
        let mut ideographs = 0usize;
        let mut phrase_spaced = 0usize;
        let mut markless = 0usize;
        let mut greek = 0usize;
        let mut hangul = 0usize;
        for word in text.split_whitespace() {
            let mut chars = word.chars().filter(|c| c.is_alphanumeric());
            if let Some(first) = chars.next() {
                tokens += 1;
                if first.is_alphabetic() {
                    f.alpha_words += 1;
                    if first.is_uppercase() {
                        f.capitalized_words += 1;
                    } else if crate::text::is_lowercase(first) {
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
                } else if crate::text::is_lowercase(c) {
                    f.lower += 1;
                }
                if matches!(c as u32, 0xAC00..=0xD7AF) {
                    hangul += 1;
                } else if crate::text::is_cjk_word_char(c) {
                    ideographs += 1;
                } else if crate::text::is_phrase_spaced_letter(c) {
                    phrase_spaced += 1;
                    markless += usize::from(crate::text::is_markless_letter(c));
                } else if crate::text::is_greek(c) {
                    greek += 1;
                }
            } else if c.is_numeric() {
                f.digits += 1;
            } else if !c.is_whitespace() {
                f.others += 1;
            }
        }
        f.syllable_letters = hangul + ideographs;
        f.spaceless = ideographs + phrase_spaced > f.letters / 2;
        f.markless = markless > f.letters / 2;
        f.words = if f.spaceless {
            ideographs as f32 / 2.0 + phrase_spaced as f32 / 5.0 + (tokens as f32 / 2.0).min(3.0)
        } else if hangul > f.letters / 2 {
            // A Korean word (eojeol) carries a noun and its particles, or a
            // verb and its endings: about two English words.
            2.0 * tokens as f32
        } else {
            tokens as f32
        };
        let trimmed = text.trim_end_matches(|c: char| is_closing(c) || c.is_whitespace());
        let last = trimmed.chars().next_back();
        f.last_mark = last;
        // Greek asks with ';'.
        let greek_question = last == Some(';') && 2 * greek > f.letters;
        f.ends_sentence = last.is_some_and(is_sentence_end) || greek_question || spoken_alone(text, f.spaceless);
        let before_empty_value = text.trim_end_matches(|c: char| c.is_whitespace() || (c.is_ascii_punctuation() && c != ':'));
        f.ends_colon = matches!(last, Some(':' | '：')) || before_empty_value.ends_with([':', '：']);
        f.ends_dangling = !greek_question && matches!(last, Some(':' | '：' | ',' | '，' | '、' | ';' | '；' | '-' | '—' | '–'));
        // Not an ellipsis after a sentence's own end ("… on the way to the
        // exit. ..."): the sentence was whole, the quote went on.
        // Only the ellipsis is cut before looking: cutting every trailing
        // period took the sentence's own with it, so "exit. ..." read as cut off.
        let before_ellipsis = trimmed.strip_suffix("...").or_else(|| trimmed.strip_suffix('…'));
        f.ends_ellipsis = before_ellipsis
            .is_some_and(|before| !before.trim_end().chars().next_back().is_some_and(|c| is_sentence_end(c) || is_closing(c)))
            && !ends_in_elision(text);
        let first = text.chars().next();
        let end = text.chars().next_back();
        f.parenthesized = matches!(
            (first, end),
            (Some('('), Some(')')) | (Some('['), Some(']')) | (Some('（'), Some('）')) | (Some('【'), Some('】'))
        ) || matches!((first, last), (Some('('), Some('.')) if trimmed.ends_with(").") && !text[1..].contains('('));
        let mut folded = String::with_capacity(text.len());
        for c in text.chars() {
            // Turkish "İ" lowers to "i" and a combining dot, which no cue writes.
            let c = match c {
                '：' => ':',
                'İ' => 'i',
                c => c,
            };
            if c == ':' && folded.ends_with(' ') {
                folded.pop();
            }
            folded.extend(c.to_lowercase());
        }
        f.folded = folded;
        f
    }

    pub(super) fn cased(&self) -> usize {
        self.upper + self.lower
    }
}
