//! The Porter stemmer exactly as ROUGE-1.5.5 runs it: its Perl port of
//! Martin Porter's algorithm (release 1, regex-based, `y` handled by the
//! regex character classes), with Chin-Yew Lin's 2004 change to step 4, and
//! the WordNet 2.0 exception lookup that `-m` tries first.
//!
//! The Perl original tests conditions such as "measure > 0" with regexes
//! built from two classes, consonant `[^aeiou]` and vowel `[aeiouy]`;
//! [`Pattern`] reproduces those regexes exactly (a tiny backtracking
//! matcher), so words with `y` and digits stem as in ROUGE-1.5.5.

use std::collections::HashMap;
use std::sync::OnceLock;

/// One element of ROUGE-1.5.5's stemmer regexes.
#[derive(Clone, Copy)]
enum Part {
    /// `C = [^aeiou][^aeiouy]*`, a consonant sequence.
    Consonants,
    /// `V = [aeiouy][aeiou]*`, a vowel sequence.
    Vowels,
    /// `(C)?`
    OptionalConsonants,
    /// `(V)?`
    OptionalVowels,
    /// `v = [aeiouy]`, one vowel.
    Vowel,
    /// `[^aeiouwxy]`, one letter that blocks the "cvc adds e" rule.
    NotAeiouwxy,
    /// `$`
    End,
}

use Part::*;

/// A regex anchored at the start (`^...`); it matches a prefix unless it ends in `End`.
struct Pattern(&'static [Part]);

/// `^(C)?VC`: measure greater than 0.
const MGR0: Pattern = Pattern(&[OptionalConsonants, Vowels, Consonants]);
/// `^(C)?VC(V)?$`: measure exactly 1.
const MEQ1: Pattern = Pattern(&[OptionalConsonants, Vowels, Consonants, OptionalVowels, End]);
/// `^(C)?VCVC`: measure greater than 1.
const MGR1: Pattern = Pattern(&[OptionalConsonants, Vowels, Consonants, Vowels, Consonants]);
/// `^(C)?v`: the stem contains a vowel.
const HAS_VOWEL: Pattern = Pattern(&[OptionalConsonants, Vowel]);
/// `^Cv[^aeiouwxy]$`: a short consonant-vowel-consonant word.
const SHORT_CVC: Pattern = Pattern(&[Consonants, Vowel, NotAeiouwxy, End]);

fn is_aeiou(b: u8) -> bool {
    matches!(b, b'a' | b'e' | b'i' | b'o' | b'u')
}

fn is_aeiouy(b: u8) -> bool {
    is_aeiou(b) || b == b'y'
}

impl Pattern {
    fn matches(&self, word: &[u8]) -> bool {
        match_parts(self.0, word)
    }
}

/// Backtracking match of `parts` against the start of `s`, as Perl's regex engine would.
fn match_parts(parts: &[Part], s: &[u8]) -> bool {
    let Some((part, rest)) = parts.split_first() else {
        return true;
    };
    match part {
        End => s.is_empty(),
        Vowel => s.first().is_some_and(|&b| is_aeiouy(b)) && match_parts(rest, &s[1..]),
        NotAeiouwxy => {
            s.first()
                .is_some_and(|&b| !matches!(b, b'a' | b'e' | b'i' | b'o' | b'u' | b'w' | b'x' | b'y'))
                && match_parts(rest, &s[1..])
        }
        Consonants => match_consonants(s, rest),
        Vowels => match_vowels(s, rest),
        OptionalConsonants => match_parts(rest, s) || match_consonants(s, rest),
        OptionalVowels => match_parts(rest, s) || match_vowels(s, rest),
    }
}

fn match_consonants(s: &[u8], rest: &[Part]) -> bool {
    match_sequence(s, |b| !is_aeiou(b), |b| !is_aeiouy(b), rest)
}

fn match_vowels(s: &[u8], rest: &[Part]) -> bool {
    match_sequence(s, is_aeiouy, is_aeiou, rest)
}

/// `first continuation*` followed by `rest`, trying every length of the run.
fn match_sequence(s: &[u8], first: fn(u8) -> bool, continuation: fn(u8) -> bool, rest: &[Part]) -> bool {
    if !s.first().is_some_and(|&b| first(b)) {
        return false;
    }
    let run = 1 + s[1..].iter().take_while(|&&b| continuation(b)).count();
    (1..=run).rev().any(|len| match_parts(rest, &s[len..]))
}

/// The longest of `suffixes` that `word` ends with: what Perl's leftmost
/// match of `/(a|b|...)$/` finds.
fn longest_suffix(word: &[u8], suffixes: &[&'static str]) -> Option<&'static str> {
    suffixes
        .iter()
        .copied()
        .filter(|suffix| word.ends_with(suffix.as_bytes()))
        .max_by_key(|suffix| suffix.len())
}

fn stem_of<'w>(word: &'w [u8], suffix: &str) -> &'w [u8] {
    &word[..word.len() - suffix.len()]
}

/// Porter stem of a lowercase ASCII word, as ROUGE-1.5.5's `stem()` gives
/// it. Words shorter than 3 letters and non-ASCII words come back unchanged.
pub fn porter_stem(word: &str) -> String {
    if word.len() < 3 || !word.is_ascii() {
        return word.to_string();
    }
    let mut w = word.as_bytes().to_vec();
    // An initial y is a consonant: "Y" is outside both regex vowel classes.
    let initial_y = w[0] == b'y';
    if initial_y {
        w[0] = b'Y';
    }
    step1a(&mut w);
    step1b(&mut w);
    step1c(&mut w);
    replace_suffix_if_mgr0(&mut w, STEP2);
    replace_suffix_if_mgr0(&mut w, STEP3);
    step4(&mut w);
    step5(&mut w);
    if initial_y {
        w[0] = b'y';
    }
    String::from_utf8(w).expect("ASCII in, ASCII out")
}

fn step1a(w: &mut Vec<u8>) {
    if w.ends_with(b"sses") || w.ends_with(b"ies") {
        w.truncate(w.len() - 2);
    } else if w.len() >= 2 && w.ends_with(b"s") && w[w.len() - 2] != b's' {
        w.pop();
    }
}

fn step1b(w: &mut Vec<u8>) {
    if w.ends_with(b"eed") {
        if MGR0.matches(stem_of(w, "eed")) {
            w.pop();
        }
        return;
    }
    let Some(suffix) = longest_suffix(w, &["ed", "ing"]) else {
        return;
    };
    if !HAS_VOWEL.matches(stem_of(w, suffix)) {
        return;
    }
    w.truncate(w.len() - suffix.len());
    let n = w.len();
    if longest_suffix(w, &["at", "bl", "iz"]).is_some() {
        w.push(b'e');
    } else if n >= 2 && w[n - 1] == w[n - 2] && !b"aeiouylsz".contains(&w[n - 1]) {
        w.pop();
    } else if SHORT_CVC.matches(w) {
        w.push(b'e');
    }
}

fn step1c(w: &mut [u8]) {
    if w.ends_with(b"y") && HAS_VOWEL.matches(stem_of(w, "y")) {
        *w.last_mut().expect("ends with y") = b'i';
    }
}

#[rustfmt::skip]
const STEP2: &[(&str, &str)] = &[
    ("ational", "ate"), ("tional", "tion"), ("enci", "ence"), ("anci", "ance"), ("izer", "ize"),
    ("bli", "ble"), ("alli", "al"), ("entli", "ent"), ("eli", "e"), ("ousli", "ous"),
    ("ization", "ize"), ("ation", "ate"), ("ator", "ate"), ("alism", "al"), ("iveness", "ive"),
    ("fulness", "ful"), ("ousness", "ous"), ("aliti", "al"), ("iviti", "ive"), ("biliti", "ble"),
    ("logi", "log"),
];

#[rustfmt::skip]
const STEP3: &[(&str, &str)] = &[
    ("icate", "ic"), ("ative", ""), ("alize", "al"), ("iciti", "ic"), ("ical", "ic"), ("ful", ""),
    ("ness", ""),
];

/// Steps 2 and 3: only the longest matching suffix is tried.
fn replace_suffix_if_mgr0(w: &mut Vec<u8>, rules: &[(&str, &str)]) {
    let longest = rules
        .iter()
        .filter(|(suffix, _)| w.ends_with(suffix.as_bytes()))
        .max_by_key(|(suffix, _)| suffix.len());
    let Some(&(suffix, replacement)) = longest else {
        return;
    };
    if MGR0.matches(stem_of(w, suffix)) {
        w.truncate(w.len() - suffix.len());
        w.extend_from_slice(replacement.as_bytes());
    }
}

/// ROUGE-1.5.5's step 4: "-ement" no longer falls through to "-ment" and
/// "-ent" in the first rule, but the later "-ment" and "-ent" rules still
/// run on whatever the first one left.
fn step4(w: &mut Vec<u8>) {
    const SUFFIXES: &[&str] = &[
        "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ou", "ism", "ate", "iti", "ous",
        "ive", "ize",
    ];
    if let Some(suffix) = longest_suffix(w, SUFFIXES) {
        remove_if_mgr1(w, suffix.len());
    }
    if w.ends_with(b"ment") {
        remove_if_mgr1(w, 4);
    }
    // "-ent", or "-ion" after s or t: three letters either way.
    if w.ends_with(b"ent") || w.ends_with(b"sion") || w.ends_with(b"tion") {
        remove_if_mgr1(w, 3);
    }
}

fn remove_if_mgr1(w: &mut Vec<u8>, suffix_len: usize) {
    if MGR1.matches(&w[..w.len() - suffix_len]) {
        w.truncate(w.len() - suffix_len);
    }
}

fn step5(w: &mut Vec<u8>) {
    if w.ends_with(b"e") {
        let stem = stem_of(w, "e");
        if MGR1.matches(stem) || (MEQ1.matches(stem) && !SHORT_CVC.matches(stem)) {
            w.pop();
        }
    }
    if w.ends_with(b"ll") && MGR1.matches(w) {
        w.pop();
    }
}

/// WordNet 2.0's exception list, as ROUGE-1.5.5's `-m` stemming uses it.
/// Native builds carry it; the app's wasm leaves it out (28 KB gzipped of
/// the bundle every visitor downloads, needed only for ROUGE against an
/// English reference) and its worker installs the copy it serves
/// ([`WORDNET_EXCEPTIONS_URL`]) before the first such score.
static WORDNET: OnceLock<HashMap<&'static str, &'static str>> = OnceLock::new();

/// Where the app serves the list (Trunk copies `src/eval/data/` there).
pub const WORDNET_EXCEPTIONS_URL: &str = "rouge/wordnet-2.0-exceptions.txt";

fn parse_exceptions(text: &'static str) -> HashMap<&'static str, &'static str> {
    text.lines().filter(|line| !line.starts_with('#')).filter_map(|line| line.split_once(' ')).collect()
}

#[cfg(not(target_arch = "wasm32"))]
fn wordnet_table() -> &'static HashMap<&'static str, &'static str> {
    WORDNET.get_or_init(|| parse_exceptions(include_str!("data/wordnet-2.0-exceptions.txt")))
}

/// Until the worker installs the list, irregular words stem as Porter alone would.
#[cfg(target_arch = "wasm32")]
fn wordnet_table() -> &'static HashMap<&'static str, &'static str> {
    static NONE: OnceLock<HashMap<&'static str, &'static str>> = OnceLock::new();
    WORDNET.get().unwrap_or_else(|| NONE.get_or_init(HashMap::new))
}

/// Installs the exception list from its text (the app's served copy).
/// False when a list is already in place (it stays).
pub fn install_wordnet_exceptions(text: String) -> bool {
    WORDNET.set(parse_exceptions(Box::leak(text.into_boxed_str()))).is_ok()
}

/// Whether stemming has the exception list (always, natively).
pub fn has_wordnet_exceptions() -> bool {
    !wordnet_table().is_empty()
}

/// The base form ROUGE-1.5.5's WordNet 2.0 exception DB gives an irregular
/// word ("children" → "child", "said" → "say"), for words of more than three
/// ASCII letters or digits (the only ones ROUGE-1.5.5 stems).
pub fn wordnet_exception(word: &str) -> Option<&'static str> {
    wordnet_table().get(word).copied()
}

/// Every entry of the embedded exception table, in no particular order.
pub fn wordnet_exceptions() -> impl Iterator<Item = (&'static str, &'static str)> {
    wordnet_table().iter().map(|(&word, &base)| (word, base))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_like_porters_examples() {
        let cases = [
            ("caresses", "caress"),
            ("ponies", "poni"),
            ("cats", "cat"),
            ("feed", "feed"),
            ("agreed", "agre"),
            ("plastered", "plaster"),
            ("motoring", "motor"),
            ("sing", "sing"),
            ("conflated", "conflat"),
            ("troubled", "troubl"),
            ("sized", "size"),
            ("hopping", "hop"),
            ("falling", "fall"),
            ("hissing", "hiss"),
            ("filing", "file"),
            ("happy", "happi"),
            ("relational", "relat"),
            ("conditional", "condit"),
            ("rational", "ration"),
            ("digitizer", "digit"),
            ("generalization", "gener"),
            ("hopefulness", "hope"),
            ("electrical", "electr"),
            ("goodness", "good"),
            ("adoption", "adopt"),
            ("controll", "control"),
            ("roll", "roll"),
            ("generate", "gener"),
        ];
        for (word, stem) in cases {
            assert_eq!(porter_stem(word), stem, "{word}");
        }
    }

    #[test]
    fn keeps_rouge_155s_step4_change() {
        // Stock Porter gives "agreement" → "agreement"; ROUGE-1.5.5's
        // separate "-ent" rule strips it from "agreem" (m = 2).
        assert_eq!(porter_stem("agreement"), "agreem");
        assert_eq!(porter_stem("replacement"), "replac");
        assert_eq!(porter_stem("government"), "govern");
    }

    #[test]
    fn treats_initial_y_and_digits_as_consonants() {
        assert_eq!(porter_stem("yelling"), "yell");
        assert_eq!(porter_stem("yttrium"), "yttrium");
        assert_eq!(porter_stem("1990s"), "1990");
        assert_eq!(porter_stem("syzygy"), "syzygi");
    }

    #[test]
    fn leaves_short_and_non_ascii_words() {
        assert_eq!(porter_stem("is"), "is");
        assert_eq!(porter_stem("año"), "año");
    }

    #[test]
    fn looks_up_irregular_forms() {
        assert_eq!(wordnet_exception("children"), Some("child"));
        assert_eq!(wordnet_exception("said"), Some("say"));
        // adj.exc has "better good", adv.exc (read later) "better well".
        assert_eq!(wordnet_exception("better"), Some("well"));
        assert_eq!(wordnet_exception("house"), None);
    }

    /// Each pattern with the regex of ROUGE-1.5.5's `initialise()` it stands for.
    fn perl_regexes() -> Vec<(Pattern, regex::Regex)> {
        let (c, v) = ("[^aeiou]", "[aeiouy]");
        let big_c = format!("{c}[^aeiouy]*");
        let big_v = format!("{v}[aeiou]*");
        [
            (MGR0, format!("^({big_c})?{big_v}{big_c}")),
            (MEQ1, format!("^({big_c})?{big_v}{big_c}({big_v})?$")),
            (MGR1, format!("^({big_c})?{big_v}{big_c}{big_v}{big_c}")),
            (HAS_VOWEL, format!("^({big_c})?{v}")),
            (SHORT_CVC, format!("^{big_c}{v}[^aeiouwxy]$")),
        ]
        .into_iter()
        .map(|(pattern, source)| (pattern, regex::Regex::new(&source).unwrap()))
        .collect()
    }

    proptest::proptest! {
        #[test]
        fn patterns_agree_with_the_perl_regexes(word in "[aeiouyYbcdlmnrstwx0-9]{0,9}") {
            for (pattern, regex) in perl_regexes() {
                proptest::prop_assert_eq!(pattern.matches(word.as_bytes()), regex.is_match(&word), "{}", regex);
            }
        }
    }
}
