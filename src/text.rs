//! Word counting for summary budgets, the same in every script.

/// True for the characters that count as one word each: CJK ideographs,
/// kana and hangul syllables (those scripts do not separate words by spaces).
pub fn is_cjk_word_char(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF      // hiragana, katakana
        | 0x31F0..=0x31FF    // katakana phonetic extensions
        | 0x3400..=0x4DBF    // CJK extension A
        | 0x4E00..=0x9FFF    // CJK unified ideographs
        | 0xAC00..=0xD7AF    // hangul syllables
        | 0xF900..=0xFAFF    // CJK compatibility ideographs
        | 0xFF66..=0xFF9D    // halfwidth katakana
        | 0x20000..=0x3134F  // CJK extensions B-G
    )
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

/// A letter of the Greek blocks (basic and extended).
pub fn is_greek(c: char) -> bool {
    matches!(c as u32, 0x0370..=0x03FF | 0x1F00..=0x1FFF)
}

/// Letters of the scripts that space phrases, not words: Thai, Lao,
/// Tibetan, Myanmar and Khmer. A run between spaces holds a clause, so
/// words are counted from letters.
pub fn is_phrase_spaced_letter(c: char) -> bool {
    matches!(c as u32,
        0x0E00..=0x0EFF      // Thai, Lao
        | 0x0F00..=0x0FFF    // Tibetan
        | 0x1000..=0x109F    // Myanmar
        | 0x1780..=0x17FF    // Khmer
        | 0x19E0..=0x19FF    // Khmer symbols
        | 0xA9E0..=0xA9FF    // Myanmar extended-B
        | 0xAA60..=0xAA7F    // Myanmar extended-A
    )
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

/// Budget length of a text: each `\w+` run is one word, except that every
/// CJK ideograph, kana or hangul syllable is a word of its own.
pub fn count_words(text: &str) -> usize {
    let mut words = 0;
    let mut in_run = false;
    for c in text.chars() {
        if is_cjk_word_char(c) {
            words += 1;
            in_run = false;
        } else if is_word_char(c) {
            if !in_run {
                words += 1;
                in_run = true;
            }
        } else {
            in_run = false;
        }
    }
    words
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

    #[test]
    fn counts_each_cjk_character() {
        assert_eq!(count_words("北京欢迎你。"), 5);
        assert_eq!(count_words("東京で火災"), 5);
        assert_eq!(count_words("서울에서 화재"), 4 + 2);
        assert_eq!(count_words("iPhone 15在中国发布"), 2 + 5);
    }

    #[test]
    fn counts_other_scripts_by_runs() {
        assert_eq!(count_words("Правительство объявило о мерах"), 4);
        assert_eq!(count_words("أعلنت الحكومة"), 2);
        assert_eq!(count_words("नमस्ते दुनिया"), 2);
    }
}
