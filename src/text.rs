//! Word counting for summary budgets, the same in every script.

/// CJK ideographs, kana and Hangul syllables: characters that ROUGE's
/// tokenizer and the prose filter read one by one, since Chinese and
/// Japanese do not space their words (budgets weigh them by
/// [`UnspacedScript`]).
pub fn is_cjk_word_char(c: char) -> bool {
    matches!(UnspacedScript::block(c), Some(UnspacedScript::Han | UnspacedScript::Kana | UnspacedScript::Hangul))
}

/// The marks that end a sentence, in every script: `.` `!` `?` `…`, CJK
/// `。！？．｡`, Arabic `؟`, Urdu `۔`, Devanagari and Bengali `।` `॥`,
/// Armenian `։`, Ethiopic `።` `፧`, Myanmar `။`, Khmer `។` `៕`, Tibetan
/// `།` `༎`, the Greek question mark `;` (U+037E; the ASCII `;` Greek
/// writes instead is read by the caller, who knows the script), and the
/// doubled marks `‼ ⁇ ⁈ ⁉`.
pub fn is_sentence_final(c: char) -> bool {
    is_full_stop(c) || matches!(c, '!' | '?' | '…' | '！' | '？' | '؟' | '፧' | '\u{037E}' | '‼' | '⁇' | '⁈' | '⁉')
}

/// The full stops among [`is_sentence_final`]'s marks: those that end a
/// statement, not a question or an exclamation.
pub fn is_full_stop(c: char) -> bool {
    matches!(c, '.' | '。' | '．' | '｡' | '۔' | '।' | '॥' | '։' | '።' | '။' | '។' | '៕' | '།' | '༎')
}

/// A Thai letter: Thai ends its sentences with no mark, a space or the
/// paragraph's end closes them, and a point closes an abbreviation
/// ("15:42 น.", "(สรท.)"). Lao writes full stops today, as Myanmar, Khmer
/// and Tibetan write their own.
pub fn is_markless_letter(c: char) -> bool {
    UnspacedScript::block(c) == Some(UnspacedScript::Thai) && c.is_alphabetic()
}

/// A letter of the Greek blocks (basic and extended).
pub fn is_greek(c: char) -> bool {
    matches!(c as u32, 0x0370..=0x03FF | 0x1F00..=0x1FFF)
}

/// A letter of a script that writes its words without spaces between
/// them: Chinese, Japanese, and the scripts that space phrases (Thai, Lao,
/// Tibetan, Myanmar, Khmer). Korean spaces its words.
pub fn spaces_no_words(c: char) -> bool {
    (is_cjk_word_char(c) && UnspacedScript::block(c) != Some(UnspacedScript::Hangul)) || is_phrase_spaced_letter(c)
}

/// Letters of the scripts that space phrases, not words: Thai, Lao,
/// Tibetan, Myanmar and Khmer. A run between spaces holds a clause, so
/// words are counted from letters.
pub fn is_phrase_spaced_letter(c: char) -> bool {
    use UnspacedScript::*;
    matches!(UnspacedScript::block(c), Some(Thai | Lao | Tibetan | Myanmar | Khmer))
}

/// A lowercase letter of a script whose text is written in two cases.
/// Georgian's everyday letters (Mkhedruli) are lowercase to Unicode since
/// version 11, which gave them capitals (Mtavruli) for headings, yet running
/// Georgian text starts its sentences and names with them: read as caseless,
/// as Arabic or Hebrew is.
pub fn is_lowercase(c: char) -> bool {
    c.is_lowercase() && !matches!(c as u32, 0x10D0..=0x10FF | 0x2D00..=0x2D2F)
}

/// A letter of a script without capitals: Arabic, Hebrew, Devanagari,
/// Georgian (see [`is_lowercase`]), Amharic, Thai, CJK, …
pub fn is_caseless_letter(c: char) -> bool {
    c.is_alphabetic() && !c.is_uppercase() && !is_lowercase(c)
}

/// Word characters as in regex `\w`: letters, marks, digits, connectors.
fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || is_mark(c)
}

fn is_mark(c: char) -> bool {
    use unicode_normalization::char::is_combining_mark;
    is_combining_mark(c)
}

/// The scripts that do not space their words, and how many of their
/// characters say as much as one English word: measured on the same news
/// articles translated into each (`tests/fixtures/parallel`, checked by
/// `summarize::budget`'s tests). Korean spaces its words, but a word
/// (eojeol) carries a noun and its particles, about 1.6 English words, so
/// its syllables are counted as well.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnspacedScript {
    Han,
    Kana,
    Hangul,
    Thai,
    Lao,
    Tibetan,
    Myanmar,
    Khmer,
}

impl UnspacedScript {
    pub const ALL: [UnspacedScript; 8] = [Self::Han, Self::Kana, Self::Hangul, Self::Thai, Self::Lao, Self::Tibetan, Self::Myanmar, Self::Khmer];

    /// The script whose Unicode blocks hold `c`, whatever the character
    /// (letter, digit or punctuation).
    pub fn block(c: char) -> Option<Self> {
        Some(match c as u32 {
            // hiragana, katakana and its phonetic extensions, halfwidth katakana
            0x3040..=0x30FF | 0x31F0..=0x31FF | 0xFF66..=0xFF9D => Self::Kana,
            // CJK unified ideographs, extension A, compatibility ideographs, extensions B-G
            0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x20000..=0x3134F => Self::Han,
            0xAC00..=0xD7AF => Self::Hangul,
            0x0E00..=0x0E7F => Self::Thai,
            0x0E80..=0x0EFF => Self::Lao,
            0x0F00..=0x0FFF => Self::Tibetan,
            // Myanmar, extended-B, extended-A
            0x1000..=0x109F | 0xA9E0..=0xA9FF | 0xAA60..=0xAA7F => Self::Myanmar,
            // Khmer, Khmer symbols
            0x1780..=0x17FF | 0x19E0..=0x19FF => Self::Khmer,
            _ => return None,
        })
    }

    /// The script of a letter (or of a vowel sign or tone mark, which
    /// belongs to the letter before it).
    pub fn of(c: char) -> Option<Self> {
        Self::block(c).filter(|_| c.is_alphabetic() || is_mark(c))
    }

    /// Characters per English word (letters; vowel signs and tone marks
    /// that Unicode does not call letters are not counted).
    pub fn characters_per_word(self) -> f32 {
        match self {
            Self::Han => 1.6,
            Self::Kana => 3.9,
            Self::Hangul => 2.1,
            Self::Thai => 5.1,
            Self::Lao => 5.3,
            Self::Tibetan => 5.4,
            Self::Myanmar => 5.9,
            Self::Khmer => 5.6,
        }
    }
}

/// Budget length of a text, in words: each `\w+` run is one word (as
/// ROUGE counts English), and the letters of scripts that do not space
/// their words ([`UnspacedScript`]) count as the English words they say as
/// much as, so that a budget of 100 words holds about as much news in
/// Chinese, Japanese, Korean or Thai as in English (before, every
/// ideograph, kana or Hangul syllable was a word, so a Japanese summary
/// said half as much; and a Thai run between spaces, a whole clause, was
/// one word, so a Thai summary said five times as much). A text with any
/// word in it is at least one word long.
pub fn count_words(text: &str) -> usize {
    count_words_at(text, 1.0)
}

/// Vietnamese syllables per English word: Vietnamese writes a space
/// between syllables, not words, and says in 1.41 syllables what English
/// says in a word (the parallel articles, tests/fixtures/parallel;
/// docs/results/budget.md).
const VIETNAMESE_SYLLABLES_PER_WORD: f32 = 1.41;

/// [`count_words`] for a sentence in language `lang` (ISO 639-1): in
/// Vietnamese a `\w+` run is a syllable, counted as the share of an
/// English word it says.
pub fn count_words_in(text: &str, lang: &str) -> usize {
    count_words_at(text, if lang == "vi" { VIETNAMESE_SYLLABLES_PER_WORD } else { 1.0 })
}

fn count_words_at(text: &str, runs_per_word: f32) -> usize {
    let (runs, letters) = word_units(text);
    let unspaced: f32 = UnspacedScript::ALL.iter().zip(letters).map(|(s, n)| n as f32 / s.characters_per_word()).sum();
    let words = (runs as f32 / runs_per_word + unspaced + 0.5).floor() as usize;
    if words == 0 && (runs > 0 || letters.iter().any(|&n| n > 0)) {
        1
    } else {
        words
    }
}

/// The `\w+` runs outside the unspaced scripts, and the letters of each
/// unspaced script (in [`UnspacedScript::ALL`]'s order).
fn word_units(text: &str) -> (usize, [usize; 8]) {
    let mut runs = 0;
    let mut letters = [0usize; 8];
    let mut in_run = false;
    for c in text.chars() {
        if let Some(script) = UnspacedScript::of(c) {
            if c.is_alphabetic() {
                letters[script as usize] += 1;
            }
            in_run = false;
        } else if is_word_char(c) {
            if !in_run {
                runs += 1;
                in_run = true;
            }
        } else {
            in_run = false;
        }
    }
    (runs, letters)
}

/// Runs of whitespace (spaces, tabs, line breaks) made one space, and the
/// ends trimmed.
pub fn collapse_whitespace(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Backslash-escapes the characters Markdown would read as formatting.
pub fn escape_markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '\\' | '*' | '_' | '[' | ']' | '<' | '>' | '`' | '#' | '|') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// 5000000 → "5,000,000": figures in messages.
pub fn thousands(number: u64) -> String {
    let digits = number.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_latin_words_and_numbers() {
        // The, U, S, economy, grew, 2, 5, in, 2023: `\w+` runs split at every dot.
        assert_eq!(count_words("The U.S. economy grew 2.5% in 2023."), 9);
        assert_eq!(count_words("state-of-the-art"), 4);
        assert_eq!(count_words(""), 0);
        assert_eq!(count_words("  ...  "), 0);
    }

    /// Ideographs, kana and Hangul syllables count as the English words
    /// they say as much as: 北京欢迎你 (5 ideographs / 1.6 = 3.1, "Beijing
    /// welcomes you"), 東京で火災 (4 / 1.6 + 1 kana / 3.9 = 2.8, "fire in
    /// Tokyo"), 서울에서 화재 (6 syllables / 2.1 = 2.9, "fire in Seoul").
    #[test]
    fn counts_unspaced_scripts_as_the_english_words_they_say() {
        assert_eq!(count_words("北京欢迎你。"), 3);
        assert_eq!(count_words("東京で火災"), 3);
        assert_eq!(count_words("서울에서 화재"), 3);
        assert_eq!(count_words("iPhone 15在中国发布"), 2 + 3); // 5 / 1.6
        assert_eq!(count_words("他说。"), 1, "a text with a word in it is at least one word long");
        assert_eq!(count_words("。、「」"), 0);
    }

    /// Thai, Lao, Khmer, Burmese and Tibetan space clauses, not words: a
    /// run between spaces is several words, counted from its letters, vowel
    /// signs and tone marks absorbed; their digits are words as anywhere.
    #[test]
    fn counts_phrase_spaced_scripts_by_letters() {
        // "The Bank of Thailand kept its policy rate" (8 English words):
        // 38 letters and vowel signs / 5.1 = 7.5 (the two tone marks are not counted).
        let thai = "ธนาคารแห่งประเทศไทยคงอัตราดอกเบี้ยนโยบาย";
        assert_eq!(word_units(thai).0, 0);
        assert_eq!(count_words(thai), 7);
        // Before, the whole run was one word.
        assert!(count_words("ฝนตกหนักในกรุงเทพฯ เมื่อวันจันทร์") >= 4);
        assert_eq!(count_words("๒๕๖๘"), 1, "Thai digits are a number, one word");
        assert_eq!(word_units("ཀ་ཁ་"), (0, [0, 0, 0, 0, 0, 2, 0, 0]));
    }

    #[test]
    fn counts_other_scripts_by_runs() {
        assert_eq!(count_words("Правительство объявило о мерах"), 4);
        assert_eq!(count_words("أعلنت الحكومة"), 2);
        assert_eq!(count_words("नमस्ते दुनिया"), 2);
        // Vietnamese spaces syllables: 7 of them say 5 English words.
        assert_eq!(count_words_in("Mưa lớn gây ngập nhiều tuyến phố", "vi"), 5);
        assert_eq!(count_words_in("Mưa lớn gây ngập nhiều tuyến phố", "en"), 7);
        assert_eq!(count_words_in("Mưa", "vi"), 1, "at least one word");
    }
}
