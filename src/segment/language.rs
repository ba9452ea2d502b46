//! Language of a sentence, as an ISO 639-1 code ("und" when unsure).
//!
//! - Scripts that name their language decide alone, even for one word:
//!   Hangul → ko; Han with kana (kana ≥ 5% of the CJK letters) → ja; Han
//!   only → zh; Thai → th; and whatlang's one-language scripts (Greek,
//!   Georgian, Armenian, Bengali, Tamil, …). Han, kana and Hangul count three,
//!   two and two times in the script vote, since one such character carries
//!   about a word: "iPhone 15在中国发布" is zh, while an English sentence
//!   quoting a Chinese name stays en.
//! - Lao, Tibetan and Thaana (Dhivehi), scripts of one language that
//!   whatlang does not know, decide alone as Thai does. Over whatlang's
//!   answer, letters that Bashkir, Tajik, Uzbek, Kazakh, Kyrgyz or
//!   Mongolian add to Russian's (in a sentence, or over most sentences of a
//!   page), only Pashto among the Arabic-script ones, and
//!   Tigrinya's ኣ against Amharic's አ, name those; Swahili's commonest
//!   words name it over a Latin guess that is not a language of our news
//!   (`language_whatlang_lacks`).
//! - Other scripts (Latin, Cyrillic, Arabic, Devanagari, Hebrew) go to
//!   whatlang; its answer is kept when its confidence is at least 0.3.
//!   (whatlang's own "reliable" needs 0.9, which most news sentences under
//!   ~15 words miss, and Cyrillic ones often score under 0.5. On 44k
//!   DUC/ml_crisis en/es/fr sentences, confidence above 0.3 kept 92% of them
//!   at 99.4% accuracy; above 0.9, 82% at 99.8%.) Below that, "und".
//! - `detect_languages` adds a per-document prior: the language of the
//!   document's confident sentences in the same script (the one covering
//!   most letters), or, when none is confident, whatlang's confident answer
//!   on those sentences together. A sentence keeps its own answer only when
//!   its confidence is at least 0.5, else takes the prior: so "Gracias." in
//!   a Spanish article is es, "OK." in a Russian one stays und, and English
//!   sentences that whatlang calls af or fr at confidence 0.3-0.5 stay en
//!   (on DUC 2004, 46 of 13,125 English sentences were labelled otherwise
//!   without the prior, 11 with it). Against a close relative of the
//!   document's language (es/pt/ca/it, da/nb/sv, cs/sk, ru/uk/be/bg, …),
//!   which whatlang confuses most, a sentence needs whatlang's "reliable"
//!   0.9. The price: a short quote in another language of the same script
//!   takes the article's language.

use whatlang::{Lang, Script};

/// The code for an unknown or unreliable language.
pub const UNDETERMINED: &str = "und";
/// Least whatlang confidence we keep (see the module comment).
const MIN_CONFIDENCE: f64 = 0.3;
/// Least confidence for a sentence to differ from its document's language.
const MIN_CONFIDENCE_AGAINST_PRIOR: f64 = 0.5;
/// Least confidence to differ from a close relative of it.
const MIN_CONFIDENCE_AGAINST_RELATIVE: f64 = 0.9;
/// Languages whatlang confuses with one another on short sentences.
const RELATED_LANGUAGES: &[&[&str]] = &[
    &["es", "pt", "ca", "it", "gl"],
    &["fr", "ca"],
    &["da", "nb", "sv"],
    &["cs", "sk"],
    &["ru", "uk", "be", "bg", "sr", "mk", "kk", "mn", "ky", "tg", "uz", "ba"],
    &["hr", "sr", "sl"],
    &["hi", "mr", "ne"],
    &["id", "jv", "tl"],
    &["nl", "af"],
    &["sw", "jv", "sn", "zu", "tl"],
    &["am", "ti"],
];
/// Text of unsure sentences given to whatlang at once for a prior.
const PRIOR_SAMPLE_BYTES: usize = 4096;

/// English name of an ISO 639-1 code, or the code when unknown.
pub fn language_name(code: &str) -> String {
    let name = match code {
        "en" => "English",
        "fr" => "French",
        "de" => "German",
        "it" => "Italian",
        "es" => "Spanish",
        "pt" => "Portuguese",
        "nl" => "Dutch",
        "ru" => "Russian",
        "uk" => "Ukrainian",
        "pl" => "Polish",
        "ar" => "Arabic",
        "zh" => "Chinese",
        "ja" => "Japanese",
        "ko" => "Korean",
        "tr" => "Turkish",
        "th" => "Thai",
        // Told by their script or letters (`guess`), unknown to whatlang.
        "lo" => "Lao",
        "bo" => "Tibetan",
        "dv" => "Dhivehi",
        "kk" => "Kazakh",
        "mn" => "Mongolian",
        "ky" => "Kyrgyz",
        "tg" => "Tajik",
        "ba" => "Bashkir",
        "ps" => "Pashto",
        "sw" => "Swahili",
        "ti" => "Tigrinya",
        "und" => "unknown language",
        // The others by whatlang's English names: "km" is Khmer, "ka" Georgian.
        _ => return Lang::all().iter().find(|&&lang| iso_639_1(lang) == code).map_or(code, |lang| lang.eng_name()).to_string(),
    };
    name.to_string()
}

/// ISO 639-1 code of the text's language, "und" when unsure.
pub fn detect_language(text: &str) -> &'static str {
    guess(text).sure.unwrap_or(UNDETERMINED)
}

/// Languages of the sentences of one document: as `detect_language`, but an
/// unsure sentence takes the document's main language for its script.
pub fn detect_languages<S: AsRef<str>>(sentences: &[S]) -> Vec<&'static str> {
    let guesses: Vec<Guess> = sentences.iter().map(|s| guess(s.as_ref())).collect();
    let mut priors: Vec<(Script, Option<&'static str>)> = Vec::new();
    guesses
        .iter()
        .map(|g| {
            let mut prior = || {
                let script = g.script?;
                if let Some(&(_, lang)) = priors.iter().find(|(s, _)| *s == script) {
                    return lang;
                }
                let lang = document_language(sentences, &guesses, script);
                priors.push((script, lang));
                lang
            };
            let Some(prior) = prior() else {
                return g.sure.unwrap_or(UNDETERMINED);
            };
            match g.sure {
                Some(own) if overrides(prior, own, g.confidence) => own,
                _ => prior,
            }
        })
        .collect()
}

/// Whether a sentence's own sure language, at whatlang's `confidence`,
/// overrides its document's.
fn overrides(prior: &str, own: &str, confidence: f64) -> bool {
    own != prior && !unknown_to_whatlang_beside(prior, own) && confidence >= least_confidence_against(prior, own)
}

fn least_confidence_against(prior: &str, own: &str) -> f64 {
    if related(prior, own) {
        MIN_CONFIDENCE_AGAINST_RELATIVE
    } else {
        MIN_CONFIDENCE_AGAINST_PRIOR
    }
}

fn related(a: &str, b: &str) -> bool {
    RELATED_LANGUAGES.iter().any(|group| group.contains(&a) && group.contains(&b))
}

/// Documents in the Cyrillic languages whatlang does not know (Kazakh,
/// Mongolian, Kyrgyz, Tajik, Uzbek, Bashkir): its sure answer for one of
/// their sentences that shows one of their letters or none ("Шешім
/// қабылданды." is "Belarusian", "Энэ жил 512 бөх барилдаж байна."
/// "Russian") names a relative only because it cannot name them, so such a
/// sentence takes its document's language.
fn unknown_to_whatlang_beside(prior: &str, own: &str) -> bool {
    NAMED_BY_CYRILLIC_LETTERS.contains(&prior) && related(prior, own)
}

/// Fewest letters for a sentence to count in `cyrillic_by_own_letters`.
const MIN_COUNTED_LETTERS: usize = 10;

/// A Cyrillic document's language by its own letters: one such letter does
/// not name a sentence (`language_whatlang_lacks` asks two), but a page
/// where more than half the sentences show one (62 of 66 sentences of a
/// Kazakh page, 67 of 82 of a Mongolian one, none of 18 Russian pages; a
/// Kazakh name quoted in Russian news shows in one sentence) is in the
/// language that all its letters together name (`cyrillic_by_letters`):
/// a Kyrgyz page's ң and a Tajik one's ҷ need not be in every sentence.
fn cyrillic_by_own_letters<'a, S: AsRef<str> + 'a>(sentences: impl Iterator<Item = (&'a Guess, &'a S)>) -> Option<&'static str> {
    let (mut counted, mut with_own_letters) = (0, 0);
    let mut page = String::new();
    for (guess, sentence) in sentences {
        if guess.letters < MIN_COUNTED_LETTERS {
            continue;
        }
        let sentence = sentence.as_ref();
        counted += 1;
        with_own_letters += usize::from(sentence.chars().any(is_own_cyrillic_letter));
        page.push_str(sentence);
        page.push(' ');
    }
    (2 * with_own_letters > counted).then(|| cyrillic_by_letters(&page, MIN_LETTERS_OF_A_PAGE)).flatten()
}

/// The language covering most letters of the confident sentences in
/// `script` (for Cyrillic, Kazakh, Mongolian, … when, and only when, the
/// document's own letters name them); failing that, whatlang's confident
/// answer on those sentences together.
fn document_language<S: AsRef<str>>(
    sentences: &[S],
    guesses: &[Guess],
    script: Script,
) -> Option<&'static str> {
    let in_script = || guesses.iter().zip(sentences).filter(move |(g, _)| g.script == Some(script));
    if script == Script::Cyrillic {
        if let Some(lang) = cyrillic_by_own_letters(in_script()) {
            return Some(lang);
        }
    }
    // Only their pages' letters name a Kazakh, Mongolian, … document
    // (above), not one quote with a name in them.
    let named_by_letters = |lang: &&str| script == Script::Cyrillic && NAMED_BY_CYRILLIC_LETTERS.contains(lang);
    let mut letters_by_language: Vec<(&'static str, usize)> = Vec::new();
    for (g, _) in in_script() {
        let Some(lang) = g.sure.filter(|lang| !named_by_letters(lang)) else { continue };
        match letters_by_language.iter_mut().find(|(l, _)| *l == lang) {
            Some(entry) => entry.1 += g.letters,
            None => letters_by_language.push((lang, g.letters)),
        }
    }
    if let Some(&(lang, _)) = letters_by_language.iter().max_by_key(|(_, letters)| *letters) {
        return Some(lang);
    }
    let mut sample = String::new();
    for (_, sentence) in in_script() {
        if sample.len() >= PRIOR_SAMPLE_BYTES {
            break;
        }
        sample.push_str(sentence.as_ref());
        sample.push(' ');
    }
    guess(&sample).sure
}

struct Guess {
    /// The language when known with confidence.
    sure: Option<&'static str>,
    /// whatlang's confidence in its answer (1 when the script decides).
    confidence: f64,
    /// The main script, for the document prior.
    script: Option<Script>,
    letters: usize,
}

#[derive(Default)]
struct ScriptCounts {
    han: usize,
    kana: usize,
    hangul: usize,
    thai: usize,
    /// Lao, Tibetan and Thaana (Dhivehi): scripts of one language each,
    /// which whatlang does not know.
    lao: usize,
    tibetan: usize,
    thaana: usize,
    other: usize,
}

impl ScriptCounts {
    fn of(text: &str) -> Self {
        let mut counts = Self::default();
        for c in text.chars().filter(|c| c.is_alphabetic()) {
            use crate::text::UnspacedScript::{self as Unspaced, Han, Hangul, Kana, Lao, Thai, Tibetan};
            // The scripts' blocks are the budget's table (`text::UnspacedScript`);
            // Hangul's jamo, outside that table, and Thaana are added here.
            match (Unspaced::block(c), c as u32) {
                (Some(Hangul), _) | (_, 0x1100..=0x11FF | 0x3130..=0x318F) => counts.hangul += 1,
                (Some(Kana), _) => counts.kana += 1,
                (Some(Han), _) => counts.han += 1,
                (Some(Thai), _) => counts.thai += 1,
                (Some(Lao), _) => counts.lao += 1,
                (Some(Tibetan), _) => counts.tibetan += 1,
                (_, 0x0780..=0x07BF) => counts.thaana += 1,
                _ => counts.other += 1,
            }
        }
        counts
    }

    fn letters(&self) -> usize {
        self.han + self.kana + self.hangul + self.thai + self.lao + self.tibetan + self.thaana + self.other
    }

    /// The language of a CJK, Thai, Lao, Tibetan or Thaana majority, by
    /// weighted letter counts (whatlang has no script for the last three).
    fn language_of_majority(&self) -> Option<(&'static str, Option<Script>)> {
        let cjk = 3 * self.han + 2 * self.kana + 2 * self.hangul;
        let all = cjk + self.thai + self.lao + self.tibetan + self.thaana + self.other;
        if 2 * cjk > all {
            return Some(if 2 * self.hangul >= 3 * self.han + 2 * self.kana {
                ("ko", Some(Script::Hangul))
            } else if 20 * self.kana >= self.han + self.kana {
                ("ja", Some(Script::Hiragana))
            } else {
                ("zh", Some(Script::Mandarin))
            });
        }
        [("th", self.thai, Some(Script::Thai)), ("lo", self.lao, None), ("bo", self.tibetan, None), ("dv", self.thaana, None)]
            .into_iter()
            .find(|&(_, count, _)| 2 * count > all)
            .map(|(lang, _, script)| (lang, script))
    }
}

/// Letters that the Cyrillic alphabets of Central Asia and the Volga add to
/// Russian's, which whatlang does not tell (it calls a Kazakh page
/// Belarusian, a Mongolian or Kyrgyz one Russian, a Tajik one Bulgarian or
/// Ukrainian). Read in this order (`cyrillic_by_letters`): Bashkir's own
/// ҡ ҙ ҫ; Tajik's own ӣ ӯ ҷ; Uzbek's ў (Belarusian's too) beside қ, ғ or
/// ҳ, which Belarusian lacks; Kazakh's; Kyrgyz's ң beside ө or ү, without
/// Kazakh's; Mongolian's ө and ү.
const BASHKIR_LETTERS: &str = "ҡҙҫҠҘҪ";
const TAJIK_LETTERS: &str = "ӣӯҷӢӮҶ";
const UZBEK_U: &str = "ўЎ";
const BESIDE_UZBEK_U: &str = "қғҳҚҒҲ";
const KAZAKH_LETTERS: &str = "әғқұһӘҒҚҰҺ";
const KYRGYZ_NG: &str = "ңҢ";
const MONGOLIAN_LETTERS: &str = "өүӨҮ";
/// All those letters.
const OWN_CYRILLIC_LETTERS: [&str; 7] =
    [BASHKIR_LETTERS, TAJIK_LETTERS, UZBEK_U, BESIDE_UZBEK_U, KAZAKH_LETTERS, KYRGYZ_NG, MONGOLIAN_LETTERS];

fn is_own_cyrillic_letter(c: char) -> bool {
    OWN_CYRILLIC_LETTERS.iter().any(|letters| letters.contains(c))
}
/// The languages `cyrillic_by_letters` names: whatlang knows none of them
/// in Cyrillic.
const NAMED_BY_CYRILLIC_LETTERS: &[&str] = &["ba", "tg", "uz", "kk", "ky", "mn"];
/// Letters that only Pashto writes among the Arabic-script languages
/// whatlang knows (it calls a Pashto page Persian).
const PASHTO_LETTERS: &str = "ټډړږښګڼېۍ";
/// Tigrinya writes a word's first "a" ኣ where Amharic writes አ (ኣብ "in",
/// Amharic አዲስ "new"); whatlang knows Amharic only. A sentence with
/// neither is a weak Amharic guess (`ETHIOPIC_GUESS_CONFIDENCE`), so that
/// it takes its document's language.
const TIGRINYA_A: &str = "ኣ";
const AMHARIC_A: &str = "አ";
const ETHIOPIC_GUESS_CONFIDENCE: f64 = 0.5;
/// Swahili's commonest short words: whatlang does not know Swahili and
/// calls it Shona, Javanese or Zulu. The first are Swahili's alone among
/// the languages of our news; "na", "ya", "ni" and "sana" are Spanish
/// words or names too ("Eso ya no ocurre.", "Ni Mubarak, ni Suleimán",
/// "SANA", Syria's agency), so they count only beside one of the first.
/// (Left out: "hizo", "hadi" and "cha", which are Spanish "did", Yemen's
/// president and a dance.)
const SWAHILI_WORDS: &[&str] = &[
    "wa", "kwa", "za", "katika", "kuwa", "hiyo", "huo", "hao", "ambao", "ambayo", "ambaye", "alisema", "amesema",
    "pia", "lakini", "hii", "zaidi", "wakati", "baada", "kabla", "vya",
];
const SWAHILI_WORDS_SHARED: &[&str] = &["na", "ya", "ni", "sana"];
/// Least share of a Latin text's words in the two Swahili lists for Swahili.
const MIN_SWAHILI_SHARE: f64 = 0.2;

/// The language a text's own letters or words name where whatlang knows
/// none of them: Bashkir, Tajik, Uzbek, Kazakh, Kyrgyz and Mongolian over a
/// Cyrillic guess, Pashto over an Arabic-script one (two letters at least,
/// so a quoted name does not decide), Tigrinya over an Amharic one, Swahili
/// over a Latin one that is not a language of our news. (A Kyrgyz sentence
/// without ң reads as Mongolian, a Bashkir one without ҡ, ҙ or ҫ as Kazakh,
/// and Tatar as Kazakh; their pages' letters name the first two.)
fn language_whatlang_lacks(text: &str, script: Script, guessed: Option<&str>) -> Option<&'static str> {
    let count = |letters: &str| count_of(text, letters);
    match script {
        Script::Cyrillic if text.chars().filter(|&c| is_own_cyrillic_letter(c)).count() >= MIN_LETTERS_OF_A_SENTENCE => {
            cyrillic_by_letters(text, 1)
        }
        Script::Arabic if count(PASHTO_LETTERS) >= 2 => Some("ps"),
        Script::Ethiopic if count(TIGRINYA_A) > count(AMHARIC_A) => Some("ti"),
        Script::Latin if !guessed.is_some_and(|lang| NEWS_LANGUAGES.contains(&lang)) => {
            let words: Vec<String> = text.split(|c: char| !c.is_alphabetic()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect();
            let own = words.iter().filter(|w| SWAHILI_WORDS.contains(&w.as_str())).count();
            let shared = words.iter().filter(|w| SWAHILI_WORDS_SHARED.contains(&w.as_str())).count();
            let share = (own + shared) as f64 / words.len().max(1) as f64;
            (words.len() >= 4 && own >= 1 && share >= MIN_SWAHILI_SHARE).then_some("sw")
        }
        _ => None,
    }
}

/// How many of `text`'s characters are among `letters`.
fn count_of(text: &str, letters: &str) -> usize {
    text.chars().filter(|c| letters.contains(*c)).count()
}

/// Own letters that name a sentence's language (one can be a quoted name),
/// and those of one language that name a page's.
const MIN_LETTERS_OF_A_SENTENCE: usize = 2;
const MIN_LETTERS_OF_A_PAGE: usize = 2;

/// The Cyrillic language that `text`'s own letters name (see
/// `BASHKIR_LETTERS`), if any, by at least `least` of them: a sentence's
/// by one once it has two own letters of any of these languages ("Шамоли
/// сусти ғарбӣ мевазад.", Tajik by ӣ), a page's by two. Uzbek's ў and
/// Kyrgyz's ң count with the letters they need beside them.
fn cyrillic_by_letters(text: &str, least: usize) -> Option<&'static str> {
    let count = |letters: &str| count_of(text, letters);
    let (kazakh, mongolian, ng) = (count(KAZAKH_LETTERS), count(MONGOLIAN_LETTERS), count(KYRGYZ_NG));
    let (uzbek_u, beside_uzbek_u) = (count(UZBEK_U), count(BESIDE_UZBEK_U));
    if count(BASHKIR_LETTERS) >= least {
        Some("ba")
    } else if count(TAJIK_LETTERS) >= least {
        Some("tg")
    } else if uzbek_u > 0 && beside_uzbek_u > 0 && uzbek_u + beside_uzbek_u >= least {
        Some("uz")
    } else if kazakh >= least {
        Some("kk")
    } else if ng > 0 && mongolian > 0 && ng + mongolian >= least {
        Some("ky")
    } else if mongolian >= least {
        Some("mn")
    } else {
        None
    }
}

/// The Latin-script languages of the encoder, which whatlang tells well.
const NEWS_LANGUAGES: &[&str] = &["en", "es", "fr", "de", "it", "pt", "nl", "pl", "tr"];

fn guess(text: &str) -> Guess {
    let counts = ScriptCounts::of(text);
    let letters = counts.letters();
    if let Some((lang, script)) = counts.language_of_majority() {
        return Guess { sure: Some(lang), confidence: 1.0, script, letters };
    }
    match whatlang::detect(text) {
        Some(info) => {
            let sure = (info.confidence() >= MIN_CONFIDENCE).then(|| iso_639_1(info.lang()));
            match language_whatlang_lacks(text, info.script(), sure) {
                Some(lang) => Guess { sure: Some(lang), confidence: 1.0, script: Some(info.script()), letters },
                // Neither ኣ nor አ: a weak guess, which casts no vote for
                // its document's language either.
                None if info.script() == Script::Ethiopic && count_of(text, AMHARIC_A) == 0 => Guess {
                    sure,
                    confidence: info.confidence().min(ETHIOPIC_GUESS_CONFIDENCE),
                    script: Some(info.script()),
                    letters: 0,
                },
                None => Guess { sure, confidence: info.confidence(), script: Some(info.script()), letters },
            }
        }
        None => Guess { sure: None, confidence: 0.0, script: None, letters },
    }
}

/// ISO 639-1 code of a whatlang language.
#[rustfmt::skip]
pub fn iso_639_1(lang: Lang) -> &'static str {
    use Lang::*;
    match lang {
        Epo => "eo", Eng => "en", Rus => "ru", Cmn => "zh", Spa => "es", Por => "pt", Ita => "it",
        Ben => "bn", Fra => "fr", Deu => "de", Ukr => "uk", Kat => "ka", Ara => "ar", Hin => "hi",
        Jpn => "ja", Heb => "he", Yid => "yi", Pol => "pl", Amh => "am", Jav => "jv", Kor => "ko",
        Nob => "nb", Dan => "da", Swe => "sv", Fin => "fi", Tur => "tr", Nld => "nl", Hun => "hu",
        Ces => "cs", Ell => "el", Bul => "bg", Bel => "be", Mar => "mr", Kan => "kn", Ron => "ro",
        Slv => "sl", Hrv => "hr", Srp => "sr", Mkd => "mk", Lit => "lt", Lav => "lv", Est => "et",
        Tam => "ta", Vie => "vi", Urd => "ur", Tha => "th", Guj => "gu", Uzb => "uz", Pan => "pa",
        Aze => "az", Ind => "id", Tel => "te", Pes => "fa", Mal => "ml", Ori => "or", Mya => "my",
        Nep => "ne", Sin => "si", Khm => "km", Tuk => "tk", Aka => "ak", Zul => "zu", Sna => "sn",
        Afr => "af", Lat => "la", Slk => "sk", Cat => "ca", Tgl => "tl", Hye => "hy", Cym => "cy",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_are_named_in_english_beyond_the_sixteen() {
        assert_eq!(language_name("km"), "Khmer");
        assert_eq!(language_name("ka"), "Georgian");
        assert_eq!(language_name("es"), "Spanish");
        assert_eq!(language_name("xx"), "xx");
    }

    #[test]
    fn detects_languages_of_full_sentences() {
        let cases = [
            ("en", "The government announced new measures to help the victims of the floods."),
            ("es", "El gobierno anunció nuevas medidas para ayudar a las víctimas de las inundaciones."),
            ("fr", "Le gouvernement a annoncé de nouvelles mesures pour aider les victimes des inondations."),
            ("de", "Die Regierung kündigte neue Maßnahmen an, um den Opfern der Überschwemmungen zu helfen."),
            ("ru", "Правительство объявило о новых мерах помощи пострадавшим от наводнений."),
            ("ar", "أعلنت الحكومة عن إجراءات جديدة لمساعدة ضحايا الفيضانات في البلاد."),
            ("hi", "सरकार ने बाढ़ पीड़ितों की मदद के लिए नए उपायों की घोषणा की है।"),
            ("zh", "政府宣布了帮助洪水灾民的新措施。"),
            ("ja", "政府は洪水の被災者を支援する新たな対策を発表した。"),
            ("ko", "정부는 홍수 피해자를 돕기 위한 새로운 대책을 발표했다."),
            ("th", "รัฐบาลประกาศมาตรการใหม่เพื่อช่วยเหลือผู้ประสบภัยน้ำท่วม"),
            ("tr", "Hükümet, sel mağdurlarına yardım etmek için yeni önlemler açıkladı."),
            ("el", "Η κυβέρνηση ανακοίνωσε νέα μέτρα."),
        ];
        for (expected, text) in cases {
            assert_eq!(detect_language(text), expected, "{text}");
        }
    }

    #[test]
    fn scripts_decide_short_cjk_and_thai_text() {
        assert_eq!(detect_language("東京で火災"), "ja");
        assert_eq!(detect_language("北京"), "zh");
        assert_eq!(detect_language("서울"), "ko");
        assert_eq!(detect_language("สวัสดี"), "th");
        assert_eq!(detect_language("iPhone 15在中国发布"), "zh");
        assert_eq!(
            detect_language("Xi Jinping (习近平) met the president of France on Monday in Paris."),
            "en"
        );
    }

    /// Languages whatlang does not know, told by their script (Lao,
    /// Tibetan, Thaana), their letters (Kazakh, Mongolian, Pashto) or their
    /// commonest words (Swahili): whatlang took them for "und", Belarusian,
    /// Russian, Persian and Shona.
    #[test]
    fn scripts_letters_and_words_tell_what_whatlang_does_not_know() {
        let cases = [
            ("lo", "ຕາມແຈ້ງການດັ່ງກ່າວ, ຢູ່ນະຄອນຫຼວງວຽງຈັນ ນ້ຳມັນແອັດຊັງພິເສດ ຂຶ້ນ 650 ກີບ"),
            ("bo", "ས་རུད་དེ་ཚེས་ ༡༨ ཉིན་གྱི་ཐོ་རངས་ཆུ་ཚོད་ ༣ ཙམ་ལ་བྱུང་བ་དང་།"),
            ("dv", "މިއީ މި އަހަރު އެއް ދުވަހުން މާލެއަށް ވެހުނު އެންމެ ގިނަ މިންވަރެވެ."),
            ("kk", "Бұл туралы қала әкімдігінің баспасөз қызметі хабарлады."),
            ("mn", "Нээлтийн ёслол Төв цэнгэлдэх хүрээлэнд 11:00 цагт эхэлнэ."),
            ("ps", "د نوموړي په خبره، ټپیان د پروان ولایت مرکز چاریکار روغتون ته وړل شوي دي."),
            ("sw", "Bei hiyo ilitangazwa wiki iliyopita katika kikao cha wadau wa pamba."),
            ("ti", "ኣብ ገለ ከባቢታት ማይ ብሰሙን ሓንሳብ ጥራይ እዩ ዝመጽእ።"),
            ("am", "ፖሊስ አደጋው የደረሰው ትናንት ምሽት መሆኑን ገልጿል።"),
            // Spanish with Swahili-looking words, Russian and Persian stay.
            ("es", "El gobierno ya anunció nuevas medidas para ayudar a las víctimas, ni más ni menos."),
            ("ru", "Правительство объявило о новых мерах помощи пострадавшим от наводнений."),
            ("fa", "دولت اقدامات تازه‌ای برای کمک به آسیب‌دیدگان سیل اعلام کرد."),
        ];
        for (expected, text) in cases {
            assert_eq!(detect_language(text), expected, "{text}");
        }
        // A Tigrinya sentence without ኣ takes its document's language.
        let tigrinya = ["ኣብ ገለ ከባቢታት ማይ ብሰሙን ሓንሳብ ጥራይ እዩ ዝመጽእ።", "ከተማ መቐለ ዝበዝሕ ማይ መስተ ካብ ዒላታት ዓይናለም እያ እትረክብ።"];
        assert_eq!(detect_language(tigrinya[1]), "am");
        assert_eq!(detect_languages(&tigrinya), ["ti", "ti"]);
        // A Kazakh or Mongolian page names its sentences with one of its
        // letters or none, which whatlang calls Belarusian or Russian; a
        // Kazakh name in Russian news names nothing.
        let kazakh = ["Бұл туралы қала әкімдігінің баспасөз қызметі хабарлады.", "Шешім қабылданды.", "Сайт cookie файлдарын пайдаланады."];
        assert_eq!(detect_language(kazakh[1]), "be");
        assert_eq!(detect_languages(&kazakh), ["kk"; 3]);
        let mongolian = ["Нээлтийн ёслол Төв цэнгэлдэх хүрээлэнд 11:00 цагт эхэлнэ.", "Энэ жил 512 бөх барилдаж байна."];
        assert_eq!(detect_language(mongolian[1]), "ru");
        assert_eq!(detect_languages(&mongolian), ["mn"; 2]);
        // Tajik, Uzbek, Kyrgyz and Bashkir by their letters too; a Kyrgyz
        // sentence without ң reads as Mongolian, but its page does not.
        let more = [
            ("tg", "Шамоли сусти ғарбӣ мевазад."),
            ("uz", "Бунга янги ҳосилнинг кириб келиши сабаб бўлди."),
            ("ky", "Мэр жаңы мектеп шаардагы башка мектептердин жүгүн жеңилдетерин белгиледи."),
            ("ba", "Өфөлә был аҙна аҙағында ҡар яуасаҡ."),
            ("be", "На вуліцы пакладуць новую плітку і ўсталююць сучасныя ліхтары."),
        ];
        for (expected, text) in more {
            assert_eq!(detect_language(text), expected, "{text}");
        }
        let kyrgyz = ["Бишкекте жума күнү кар жаайт.", "Унааларга кышкы дөңгөлөктөрдү орнотуу сунушталат.", "Ош шаарында жаңы мектеп ачылды."];
        assert_eq!(detect_language(kyrgyz[0]), "mn");
        assert_eq!(detect_languages(&kyrgyz), ["ky"; 3]);
        let russian = [
            "Правительство объявило о новых мерах помощи пострадавшим от наводнений.",
            "Об этом сообщил президент Казахстана Қасым-Жомарт Тоқаев на встрече с министрами в столице.",
        ];
        assert_eq!(detect_languages(&russian), ["ru", "kk"]);
        assert_eq!(language_name("sw"), "Swahili");
        assert_eq!(language_name("lo"), "Lao");
    }

    #[test]
    fn unsure_text_is_undetermined() {
        assert_eq!(detect_language("OK."), UNDETERMINED);
        assert_eq!(detect_language("2024"), UNDETERMINED);
        assert_eq!(detect_language(""), UNDETERMINED);
    }

    #[test]
    fn short_sentences_take_the_document_language_of_their_script() {
        let sentences = [
            "El gobierno anunció nuevas medidas para ayudar a las víctimas de las inundaciones.",
            "Gracias.",
            "Правительство объявило о новых мерах помощи пострадавшим от наводнений.",
            "Да.",
            "2024",
        ];
        assert_eq!(detect_languages(&sentences), ["es", "es", "ru", "ru", UNDETERMINED]);
        assert_eq!(detect_languages(&["Gracias."]), [UNDETERMINED]);
    }

    #[test]
    fn a_weak_guess_yields_to_the_document_language() {
        let english = "The commission will publish its final report on Thursday after two years of hearings.";
        let weak = "It will parcel out moral condemnations and recommend individual prosecutions.";
        assert_eq!(detect_language(weak), "fr"); // whatlang, confidence 0.3-0.5
        assert_eq!(detect_languages(&[english, weak]), ["en", "en"]);
    }

    #[test]
    fn a_close_relative_needs_a_reliable_guess() {
        let spanish = "El gobierno anunció nuevas medidas para ayudar a las víctimas de las inundaciones.";
        let confused = "No tendría pincher si no Camellito Arias.";
        assert_eq!(detect_language(confused), "pt");
        assert_eq!(detect_languages(&[spanish, confused]), ["es", "es"]);
        let english = "He said it would help the victims of the floods in the north of the country.";
        assert_eq!(detect_languages(&[spanish, english]), ["es", "en"]);
    }

    #[test]
    fn a_document_of_short_sentences_is_judged_as_a_whole() {
        let sentences =
            ["Il pleut.", "Le vent souffle.", "Les écoles sont fermées.", "La mairie a ouvert un gymnase."];
        assert_eq!(detect_languages(&sentences), ["fr"; 4]);
    }
}
