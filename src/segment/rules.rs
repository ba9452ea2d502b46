//! Sentence boundaries inside one unit of prepared text.
//!
//! Unicode's sentence bounds (UAX #29, from unicode-segmentation) give the
//! candidates: they already handle `?`/`!`, CJK `。！？` with no following
//! space, Arabic `؟` `۔`, Devanagari `।`, decimals (`2.5`), `U.S.`-style
//! capitals, `etc. and` (a lowercase word after a period), quotes and
//! brackets after the stop (`."` `.)` `.»` `.”`), and `...` before a
//! capital. Then:
//!
//! - merged back: a piece starting with a lowercase letter (`"Stop!" she
//!   said`), a piece with no letter or digit, titles and abbreviations that
//!   never end a sentence (`Dr.`, `Mr.`, `Gen.`, `Sra.`, `M.`, `e.g.`,
//!   `z.B.`, `ca.`), initials (`J. R. R. Tolkien`, `George W. Bush`),
//!   abbreviations that may end one (`U.S.`, `Inc.`, `etc.`, `usw.`) unless a
//!   common sentence opener or a bracket follows (`The`, `Il`, `Der`,
//!   `El`…, `(AP)`; a bracket that opens on a number glosses the figure:
//!   `7:03 p.m. (1903 GMT), the moment…` stays whole), number
//!   abbreviations before a digit (`No. 5`, `art. 3`, `Jan. 5`), German
//!   ordinals (`am 3. Oktober`); the speaker named after a quote that ends
//!   in `?` or `!` (`"Where are they?" Bolanos said.`);
//! - split further: a period with no space between two words
//!   (`preserved.Then`; the library treats any letter before the period
//!   like a capital, as in `U.S`); `…` followed by a capital; Thai, which
//!   has no sentence punctuation, at a space between Thai letters when both
//!   sides have at least 20 characters (Thai writes a space between
//!   sentences and between clauses, so this gives clause-sized sentences,
//!   never one-word fragments); a dateline or kicker label in capitals
//!   before a spaced dash (`WASHINGTON (AP) — The…`, `FOCUS - La…`), which
//!   becomes a line of its own (`lead_label`);
//! - capped: a sentence longer than `MAX_SENTENCE_CHARS` characters is cut at
//!   its last space (else after `，`/`、`/`,`/`;`, else at a character) in
//!   the second half of each window, so a paste with no punctuation or no
//!   spaces yields bounded sentences in linear time.
//!
//! A run of 16 or more characters that are neither letters, digits nor
//! spaces ("!!!!…", "-----…") is set apart before UAX #29 sees it: the
//! library's lookahead is quadratic on such runs after a period.

use super::lead_label;
use super::abbreviations::{classify, is_ordinal_noun, is_sentence_opener, pairs_plural_initials, Abbreviation};
use std::ops::Range;
use unicode_segmentation::UnicodeSegmentation;

/// Longest sentence, in characters; longer runs are cut (see module comment).
pub const MAX_SENTENCE_CHARS: usize = 1000;
/// A non-word run at least this long is kept out of UAX #29.
const SYMBOL_RUN: usize = 16;
/// Thai text is cut at a space only with this many characters on each side.
const MIN_THAI_SENTENCE_CHARS: usize = 20;
/// Abbreviations are short: the last word is looked for in this many bytes.
const WORD_WINDOW: usize = 40;

/// Whether a dateline or kicker label is cut from the sentence it opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum LeadLabels {
    Cut,
    Kept,
}

/// Sentence ranges of `text`, trimmed, in order, each with a letter or digit.
pub(super) fn sentence_ranges(text: &str, lead_labels: LeadLabels) -> Vec<Range<usize>> {
    let mut sentences = Vec::new();
    for piece in merge_pieces(text, candidate_pieces(text)) {
        for part in split_further(text, piece, lead_labels) {
            for capped in cap_length(text, part) {
                let trimmed = trim(text, capped);
                if text[trimmed.clone()].chars().any(char::is_alphanumeric) {
                    sentences.push(trimmed);
                }
            }
        }
    }
    sentences
}

/// UAX #29 sentence pieces, with long symbol runs as pieces of their own.
fn candidate_pieces(text: &str) -> Vec<Range<usize>> {
    let mut pieces = Vec::new();
    let mut start = 0;
    for run in symbol_runs(text) {
        pieces.extend(uax29_pieces(text, start..run.start));
        pieces.push(run.clone());
        start = run.end;
    }
    pieces.extend(uax29_pieces(text, start..text.len()));
    pieces
}

/// UAX #29 pieces of `text[range]`, with quotes and brackets moved to the
/// right side of each boundary. UAX #29 counts every quote or bracket after
/// a full stop as closing, so an opening one written without a space
/// (`？“我们`, `。「被害`) goes forward to the sentence it opens; and it
/// never attaches a closing one after a space (`« Nous verrons. »`), which
/// goes back to the sentence it closes.
fn uax29_pieces(text: &str, range: Range<usize>) -> Vec<Range<usize>> {
    let offset = range.start;
    let mut pieces: Vec<Range<usize>> = text[range]
        .split_sentence_bound_indices()
        .map(|(at, piece)| offset + at..offset + at + piece.len())
        .collect();
    for i in 1..pieces.len() {
        let previous = &text[pieces[i - 1].clone()];
        let kept = previous.trim_end_matches(is_unambiguous_opening).len();
        let next = &text[pieces[i].clone()];
        let closers = spaced_closers_len(next);
        let boundary = if kept > 0 && kept < previous.len() {
            pieces[i - 1].start + kept
        } else if closers > 0 {
            pieces[i].start + closers
        } else {
            continue;
        };
        pieces[i - 1].end = boundary;
        pieces[i].start = boundary;
    }
    pieces
}

/// Length of the leading space and closing marks of `piece`, when those
/// marks stand alone (followed by a space or the end).
fn spaced_closers_len(piece: &str) -> usize {
    let marks = piece.trim_start();
    let rest = marks.trim_start_matches(is_unambiguous_closing);
    let stands_alone = rest.is_empty() || rest.starts_with(char::is_whitespace);
    if rest.len() < marks.len() && stands_alone {
        piece.len() - rest.len()
    } else {
        0
    }
}

/// Closing marks that never open a sentence (unlike `"`).
fn is_unambiguous_closing(c: char) -> bool {
    matches!(c, '»' | '”' | ')' | ']' | '}' | '」' | '』' | '）' | '】' | '〕' | '》' | '〉')
}

/// Marks that open a sentence when a piece ends with them, no space after:
/// brackets, CJK corners, `¿`, `¡`, and `“` `‘` (which close a German
/// quote, but there a space follows them before the next sentence).
fn is_unambiguous_opening(c: char) -> bool {
    matches!(c, '(' | '[' | '{' | '「' | '『' | '（' | '【' | '〔' | '《' | '〈' | '¿' | '¡' | '“' | '‘')
}

fn symbol_runs(text: &str) -> Vec<Range<usize>> {
    let mut runs = Vec::new();
    let mut run: Option<(usize, usize)> = None; // (start, chars)
    for (at, c) in text.char_indices() {
        if c.is_alphanumeric() || c.is_whitespace() {
            if let Some((start, chars)) = run.take() {
                if chars >= SYMBOL_RUN {
                    runs.push(start..at);
                }
            }
        } else {
            let (_, chars) = run.get_or_insert((at, 0));
            *chars += 1;
        }
    }
    if let Some((start, chars)) = run {
        if chars >= SYMBOL_RUN {
            runs.push(start..text.len());
        }
    }
    runs
}

fn merge_pieces(text: &str, pieces: Vec<Range<usize>>) -> Vec<Range<usize>> {
    let mut merged: Vec<Range<usize>> = Vec::with_capacity(pieces.len());
    for piece in pieces {
        match merged.last_mut() {
            Some(last) if continues(&text[last.clone()], &text[piece.clone()]) => last.end = piece.end,
            _ => merged.push(piece),
        }
    }
    merged
}

/// Whether the sentence `before` goes on into the piece `after`.
fn continues(before: &str, after: &str) -> bool {
    let next = after.trim_start().trim_start_matches(is_opening);
    let Some(first) = next.chars().next() else {
        return true;
    };
    if crate::text::is_lowercase(first) || !has_word_char(after) || attributes_quote(before, after) || names_speaker(before, after) {
        return true;
    }
    // Burmese "၊" is a comma, though Unicode counts it among the marks that
    // end a sentence ("။" does): "ကောင်စီဝင် ရေး တိုလီဗာ၊ အမန်ဒါ ဆိုက်ခ်စ်၊ …".
    if before.trim_end().ends_with('၊') {
        return true;
    }
    let Some(word) = last_word(before) else {
        return false;
    };
    // Thai ends no sentence with a period: "ส.ส.", "อ.", "พ.ร.บ." and
    // "01.20 น." are abbreviations and times.
    if word.trim_end_matches('.').chars().next_back().is_some_and(is_thai) && (is_thai(first) || first.is_numeric()) {
        return true;
    }
    let alone = before.trim_start().trim_start_matches(is_opening).trim_end() == word;
    if is_caseless_abbreviation(word, alone) && (is_caseless_letter(first) || first.is_numeric()) {
        return true;
    }
    // "South Korea/U.S. forces": the abbreviation is what follows the slash.
    let word = word.rsplit('/').next().unwrap_or(word);
    if pairs_plural_initials(word, after) {
        return true;
    }
    let next_word = first_word(after);
    let starts_with_opening = after.trim_start().starts_with(is_opening);
    match classify(word) {
        Some(Abbreviation::Title) => true,
        Some(Abbreviation::Initial) => first.is_uppercase(),
        Some(Abbreviation::PageOrInitial) => first.is_uppercase() || first.is_numeric(),
        Some(Abbreviation::Letter) => first.is_numeric() || next_word.chars().count() == 1,
        // "7:03 p.m. (1903 GMT), the moment…": a bracket opening on a number
        // glosses the abbreviation's figure; a new sentence does not open so.
        Some(Abbreviation::MayEndSentence) if starts_with_opening => first.is_numeric(),
        Some(Abbreviation::MayEndSentence) => !is_sentence_opener(next_word),
        Some(Abbreviation::BeforeNumber) => first.is_numeric(),
        // "żołnierzy 6. Mazowieckiej Brygady Obrony Terytorialnej": Polish
        // names the unit after its region, between the number and the noun.
        Some(Abbreviation::Ordinal) => is_ordinal_noun(next_word) || is_ordinal_noun(second_word(after)),
        None => false,
    }
}

/// Chinese speech verbs that close the sentence a quote opened: `“……。”
/// 他说。`, `「……。」他說。`.
const SPEECH_VERBS: [&str; 14] = ["说", "說", "表示", "称", "稱", "指出", "说道", "說道", "问", "問", "回应", "回應", "强调", "強調"];
/// Longest attribution after a quote, in characters: a speaker with a
/// title, a name and where or when it was said
/// (`助理总检察长鲁本·奥乔亚周三在结案陈词中对陪审员说。`, 25).
const MAX_ATTRIBUTION_CHARS: usize = 40;

/// `“……。”这位法官说。`: a piece that names who spoke a quote the sentence
/// before ended, in Chinese, where the quote's own full stop comes first;
/// it belongs to the quote's sentence. A sentence that ends on its verb of
/// saying has said nothing itself. Transliterated names join their parts
/// with a middle dot (`卡拉·贝纳维德斯`).
fn attributes_quote(before: &str, after: &str) -> bool {
    let after = after.trim();
    let Some(body) = after.strip_suffix(['。', '！']) else { return false };
    before.trim_end().ends_with(['”', '」', '』'])
        && after.chars().count() <= MAX_ATTRIBUTION_CHARS
        && after.chars().all(|c| crate::text::is_cjk_word_char(c) || "，、。！·・".contains(c))
        && SPEECH_VERBS.iter().any(|verb| body.ends_with(verb))
}

/// Verbs of an English attribution after a quote: `"Where are they?"
/// Bolanos said.` (Spanish, French and the rest put the verb first, in
/// lowercase, which already continues the sentence.)
const ATTRIBUTION_VERBS: [&str; 12] =
    ["said", "says", "asked", "asks", "told", "added", "replied", "recalled", "shouted", "wrote", "insisted", "explained"];

/// `"Where are they?" Bolanos said.`: a quote that ends in `?` or `!` and
/// the capitalized name of who said it, one to three words, then the verb.
/// The quote's mark ends the quote, not the sentence that reports it.
fn names_speaker(before: &str, after: &str) -> bool {
    let quote_ends_in_mark = before
        .trim_end()
        .strip_suffix(['"', '”', '»', '\''])
        .is_some_and(|quote| quote.trim_end_matches(['"', '\'']).ends_with(['?', '!']));
    if !quote_ends_in_mark {
        return false;
    }
    let words: Vec<&str> = after.split_whitespace().take(4).collect();
    let verb_at = words.iter().position(|w| ATTRIBUTION_VERBS.contains(&w.trim_end_matches([',', '.', ';'])));
    verb_at.is_some_and(|at| (1..=3).contains(&at) && words[..at].iter().all(|w| w.chars().next().is_some_and(char::is_uppercase)))
}

fn has_word_char(text: &str) -> bool {
    text.chars().any(char::is_alphanumeric)
}

/// The last whitespace-separated word, without opening quotes or brackets,
/// if it fits in `WORD_WINDOW` bytes.
fn last_word(text: &str) -> Option<&str> {
    let text = text.trim_end();
    let window = floor_char_boundary(text, text.len().saturating_sub(WORD_WINDOW));
    let tail = &text[window..];
    let word = match tail.rfind(char::is_whitespace) {
        Some(space) => tail[space..].trim_start(),
        None if window == 0 => tail,
        None => return None,
    };
    Some(word.trim_start_matches(is_opening))
}

/// The first word, without opening quotes or brackets and without trailing
/// punctuation.
fn first_word(text: &str) -> &str {
    split_first_word(text).0
}

/// The first word (as [`first_word`]) and the text after it.
fn split_first_word(text: &str) -> (&str, &str) {
    let text = text.trim_start().trim_start_matches(is_opening);
    let end = text.find(|c: char| !c.is_alphanumeric() && c != '\'' && c != '’').unwrap_or(text.len());
    text.split_at(end)
}

/// The word after the first. The rest is cut where the first word ends, not
/// at its length from the start: `"\u{a0}ไทย` has a space after its quote,
/// and that length cut inside a letter.
fn second_word(text: &str) -> &str {
    first_word(split_first_word(text).1)
}

fn is_opening(c: char) -> bool {
    matches!(c, '"' | '\'' | '`' | '(' | '[' | '{' | '«' | '“' | '‘' | '„' | '「' | '『' | '（' | '¿' | '¡')
}

fn is_closing(c: char) -> bool {
    matches!(c, '"' | '\'' | ')' | ']' | '}' | '»' | '”' | '’' | '」' | '』' | '）')
}

/// Splits a sentence at a period missing its space, at `…` before a capital,
/// at Thai sentence spaces and after a dateline or kicker label that opens it
/// ("WASHINGTON (AP) — ", "FOCUS - ").
fn split_further(text: &str, range: Range<usize>, lead_labels: LeadLabels) -> Vec<Range<usize>> {
    let mut cuts = ellipsis_cuts(text, range.clone());
    if lead_labels == LeadLabels::Cut {
        cuts.extend(lead_label::text_after_label(&text[range.clone()]).map(|at| range.start + at));
    }
    cuts.extend(missing_space_cuts(text, range.clone()));
    cuts.extend(thai_cuts(text, range.clone()));
    cuts.extend(unmarked_sentence_cuts(text, range.clone()));
    cuts.sort_unstable();
    let mut parts = Vec::with_capacity(cuts.len() + 1);
    let mut start = range.start;
    for cut in cuts {
        parts.push(start..cut);
        start = cut;
    }
    parts.push(start..range.end);
    parts
}

/// After each `…` that is followed by closers, a space and a capital.
fn ellipsis_cuts(text: &str, range: Range<usize>) -> Vec<usize> {
    let slice = &text[range.clone()];
    slice
        .match_indices('…')
        .filter_map(|(at, dots)| {
            let after = at + dots.len();
            ellipsis_ends_sentence(&slice[after..]).map(|closers| range.start + after + closers)
        })
        .collect()
}

/// After each period joining two words without a space, as in
/// `preserved.Then`: two lowercase letters before it, a capital and a
/// lowercase letter after, and no abbreviation, web address or e-mail.
fn missing_space_cuts(text: &str, range: Range<usize>) -> Vec<usize> {
    let slice = &text[range.clone()];
    slice
        .match_indices('.')
        .filter(|&(at, _)| {
            let mut before = slice[..at].chars().rev();
            let mut after = slice[at + 1..].chars();
            let lowercase_before = before.next().is_some_and(crate::text::is_lowercase)
                && before.next().is_some_and(crate::text::is_lowercase);
            let word_after =
                after.next().is_some_and(char::is_uppercase) && after.next().is_some_and(crate::text::is_lowercase);
            lowercase_before
                && word_after
                && is_plain_word(&slice[..=at])
                && !is_domain_suffix(&slice[at + 1..])
        })
        .map(|(at, _)| range.start + at + 1)
        .collect()
}

/// Whether the last word of `text` (ending in a period) is neither an
/// abbreviation nor part of a web or e-mail address.
fn is_plain_word(text: &str) -> bool {
    last_word(text)
        .is_some_and(|word| classify(word).is_none() && !word.contains(['/', '@']) && !word.contains("www."))
}

/// `Com`, `Net`… as in `Agency.Com`.
fn is_domain_suffix(after: &str) -> bool {
    let word = first_word(after);
    ["com", "net", "org", "gov", "edu"].iter().any(|suffix| word.eq_ignore_ascii_case(suffix))
}

/// If the text after a `…` starts a new sentence (closers, a space, then a
/// capital), the length of the closers.
fn ellipsis_ends_sentence(after: &str) -> Option<usize> {
    let rest = after.trim_start_matches(is_closing);
    let closers = after.len() - rest.len();
    let word = rest.strip_prefix(' ')?.trim_start_matches(is_opening);
    word.chars().next().filter(|c| c.is_uppercase()).map(|_| closers)
}

/// In a script without capitals no capital opens the next sentence, so a
/// one-letter word before the period, or letter groups of one or two
/// joined by periods, is an abbreviation: Georgian "ქ. გურჯაანში" (city),
/// "2024 წ. 16" (year), "ე.წ." (so-called), Amharic "ዓ.ም." (the Ethiopian
/// era), Sinhala initials "ඒ. එම්. රත්නායක", Nepali "के.सी.ले". A word of
/// two letters is one only when nothing comes before it (Dhivehi "ގދ.
/// ތިނަދޫ", an atoll's code): at a sentence's end it may be a word. Vowel
/// signs and a consonant that a virama kills ("ම්") are parts of a
/// syllable, not letters of their own. Hangul and CJK are left out: a
/// Korean sentence ends in a word of two syllables ("했다."). Thai and Lao
/// abbreviate to bare consonants ("พ.ศ.", "ສ.ປ.ປ."), so a group with a
/// vowel sign or tone mark there is a word: Lao "… 10 ປີ. ລອນດອນ …" ("…
/// 10 years. London …") ends a sentence.
fn is_caseless_abbreviation(word: &str, alone: bool) -> bool {
    let Some(stem) = word.strip_suffix('.') else { return false };
    let groups: Vec<&str> = stem.split('.').collect();
    let most_letters = if groups.len() == 1 && !alone { 1 } else { 2 };
    groups.iter().all(|group| {
        let letters = syllable_letters(group);
        (1..=most_letters).contains(&letters)
            && group.chars().filter(|c| c.is_alphabetic()).all(is_caseless_letter)
            && !is_thai_or_lao_word(group)
    })
}

/// A group of Thai or Lao letters with a vowel sign or tone mark after a
/// consonant: "ປີ", "ປາ", "ปา" (not the bare "ສ", "พ").
fn is_thai_or_lao_word(group: &str) -> bool {
    group.chars().any(is_thai_or_lao_sign)
}

/// Letters of `text`, not counting vowel signs and other marks, nor a
/// consonant that a virama follows.
fn syllable_letters(text: &str) -> usize {
    use unicode_normalization::char::{canonical_combining_class, is_combining_mark};
    const VIRAMA: u8 = 9;
    let chars: Vec<char> = text.chars().collect();
    (0..chars.len())
        .filter(|&i| {
            let letter = chars[i].is_alphabetic() && !is_combining_mark(chars[i]);
            letter && chars.get(i + 1).map_or(true, |&next| canonical_combining_class(next) != VIRAMA)
        })
        .count()
}

/// A letter of a script without capitals, other than Hangul and CJK.
fn is_caseless_letter(c: char) -> bool {
    crate::text::is_caseless_letter(c) && !crate::text::is_cjk_word_char(c)
}

/// Sentence ends that UAX #29 reads as inside a sentence, cut after the
/// mark and its closers, before the space:
/// - `;` between Greek words: Greek's question mark;
/// - the Tibetan shad `།` (or `༎`) before the next phrase.
fn unmarked_sentence_cuts(text: &str, range: Range<usize>) -> Vec<usize> {
    let slice = &text[range.clone()];
    slice
        .char_indices()
        .filter(|&(_, c)| matches!(c, ';' | '།' | '༎'))
        .filter_map(|(at, mark)| {
            let before = &slice[..at];
            let after = &slice[at + mark.len_utf8()..];
            // A doubled shad ("།།") is cut after its last mark.
            let rest = after.trim_start_matches(is_closing);
            let closers = after.len() - rest.len();
            let next = rest.strip_prefix(char::is_whitespace)?.trim_start().chars().next()?;
            let ends = match mark {
                ';' => crate::text::is_greek(next) && next.is_uppercase() && before.chars().next_back().is_some_and(crate::text::is_greek),
                '།' | '༎' => {
                    is_tibetan(next)
                        && !ends_tibetan_clause(before)
                        && !quotes_tibetan_speech(rest.trim_start())
                        && !inside_tibetan_list(before, rest)
                }
                _ => false,
            };
            ends.then_some(range.start + at + mark.len_utf8() + closers)
        })
        .collect()
}

/// Tibetan writes a shad after a clause as well as after a sentence: a
/// clause that ends in a connective particle goes on past it (དང "and",
/// ན "if, when", ཞིང ཅིང ཤིང "and", སྟེ ཏེ དེ "and so", ནས "after", ལ "and"
/// after a verb, ཀྱང ཡང "even, also", རྗེས "after", པས བས "because"):
/// "ནད་རྟགས་ལ་ཚ་བ་དྲག་པོ་དང་། སྣ་ཆུ་…" ("the symptoms are a high fever and
/// | a runny nose …") is one sentence. So does a subject in the agentive
/// case (གིས ཀྱིས གྱིས ཡིས, ཚོས after a plural), which a shad sets off from
/// its clause: "ཉེས་འཛུགས་པ་ཚོས། …" ("the prosecutors | said …"), and
/// "…བཤད་དོན།" ("… said:"), before what was said.
fn ends_tibetan_clause(before: &str) -> bool {
    const CONNECTIVES: &[&str] = &[
        "དང", "ན", "ཞིང", "ཅིང", "ཤིང", "སྟེ", "ཏེ", "དེ", "ནས", "ལ", "ཀྱང", "ཡང", "རྗེས", "པས", "བས", // connectives
        "གིས", "ཀྱིས", "གྱིས", "ཡིས", "ཚོས", // the agentive case
    ];
    let clause = before.trim_end_matches(|c: char| c == '་' || c == '༌' || c.is_whitespace());
    // "…ཚོས་བཤད་དོན། …" ("… said: …"): what was said follows.
    last_tibetan_syllable(clause).is_some_and(|syllable| CONNECTIVES.contains(&syllable)) || clause.ends_with("བཤད་དོན")
}

/// Longest item of a Tibetan list, in syllables.
const MAX_TIBETAN_ITEM_SYLLABLES: usize = 10;
/// Items a Tibetan list may hold on either side of a shad, between the
/// one that དང ("and") opens it with and བཅས that ends it.
const MAX_TIBETAN_ITEMS_AROUND: usize = 2;

/// A shad between the items of a list that "X དང།" ("X and") opens goes
/// on to the list's end, which བཅས ("and so on", "together with") marks:
/// "…ཚ་བ་དྲག་པོ་དང་། སྣ་ཆུ་འཛག་པ། …ཐོར་པ་དམར་སྨུག་བཅས་ཚུད་ཡོད།" ("a high
/// fever, | a runny nose | and a rash"). An item is short and ends in no
/// verb or final particle. A list of names without དང is still cut
/// ("…རེ་ཊོ་ལི་ཝར། ཨ་མན་ཌ་སའི་ཀསི། …བཅས་…"): a verb such a rule cannot
/// tell from a name ends "…ཆར་པ་བབས། སློབ་གྲྭ་དང་ལམ་ཁ་བཅས་བཀག་ཡོད།" ("It
/// rained. | Schools, roads and so on were closed.").
fn inside_tibetan_list(before: &str, rest: &str) -> bool {
    let mut phrases = before.rsplit(['།', '༎']);
    let item = phrases.next().unwrap_or(before);
    if tibetan_syllables(item).len() > MAX_TIBETAN_ITEM_SYLLABLES || ends_tibetan_sentence(item) {
        return false;
    }
    let opened = phrases.take(MAX_TIBETAN_ITEMS_AROUND).any(|phrase| last_tibetan_syllable(phrase) == Some("དང"));
    opened && list_ends_ahead(rest)
}

/// Whether བཅས comes within the next `MAX_TIBETAN_ITEMS_AROUND` phrases,
/// past short ones only.
fn list_ends_ahead(rest: &str) -> bool {
    for phrase in rest.split(['།', '༎']).take(MAX_TIBETAN_ITEMS_AROUND) {
        let syllables = tibetan_syllables(phrase);
        if syllables.contains(&"བཅས") {
            return true;
        }
        if syllables.len() > MAX_TIBETAN_ITEM_SYLLABLES {
            return false;
        }
    }
    false
}

/// Whether a Tibetan phrase ends as a sentence does: in a verb of being,
/// saying or happening, or in a final particle (the suffix letter and ོ).
fn ends_tibetan_sentence(phrase: &str) -> bool {
    const FINAL: &[&str] = &[
        "ཡོད", "མེད", "རེད", "ཡིན", "མིན", "འདུག", "བཤད", "ཟེར", "གསུངས", "སོང", "བྱུང", "བྱས", "ཐུབ", //
        "གོ", "ངོ", "དོ", "ནོ", "བོ", "མོ", "འོ", "རོ", "ལོ", "སོ", "ཏོ",
    ];
    last_tibetan_syllable(phrase).is_some_and(|last| FINAL.contains(&last))
}

/// A Tibetan phrase's last syllable, past a closing tsheg or space.
fn last_tibetan_syllable(phrase: &str) -> Option<&str> {
    phrase.rsplit(['་', '༌', ' ']).map(str::trim).find(|syllable| !syllable.is_empty())
}

/// A Tibetan phrase's syllables, split at the tsheg and at spaces.
fn tibetan_syllables(phrase: &str) -> Vec<&str> {
    phrase.split(['་', '༌', ' ']).map(str::trim).filter(|syllable| !syllable.is_empty()).collect()
}

/// A quote's end is not its sentence's when the quotative particle (ཅེས,
/// ཞེས, ཤེས, "thus") follows it, then who said it: "“…རེད།” ཅེས་…གྱིས་བཤད།"
/// ("“…,” said …").
fn quotes_tibetan_speech(next: &str) -> bool {
    ["ཅེས", "ཞེས", "ཤེས"].iter().any(|particle| next.starts_with(particle))
}

fn is_tibetan(c: char) -> bool {
    crate::text::UnspacedScript::block(c) == Some(crate::text::UnspacedScript::Tibetan)
}

/// Spaces between two Thai letters (not after the repetition mark ๆ) that
/// leave at least `MIN_THAI_SENTENCE_CHARS` characters on both sides.
fn thai_cuts(text: &str, range: Range<usize>) -> Vec<usize> {
    let slice = &text[range.clone()];
    let mut fragments = vec![0]; // starts of the fragments between candidate spaces
    let mut previous = None;
    let mut chars = slice.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let next = chars.peek().map(|&(_, next)| next);
        let between_thai = previous.is_some_and(|p| is_thai(p) && p != 'ๆ') && next.is_some_and(is_thai);
        if c == ' ' && between_thai {
            fragments.push(at);
        }
        previous = Some(c);
    }
    fragments.push(slice.len());
    let lengths: Vec<usize> = fragments.windows(2).map(|w| slice[w[0]..w[1]].chars().count()).collect();
    let mut cuts = Vec::new();
    let (mut sentence_chars, mut sentence_start) = (0, 0);
    for (i, &length) in lengths.iter().enumerate().skip(1) {
        sentence_chars += lengths[i - 1];
        let before = &slice[fragments[i - 1]..fragments[i]];
        if ends_in_that(before) {
            // What was said is a clause of its own, at least as long as a
            // sentence: "ระบุว่า เมื่อเดือนมกราคม มีเด็ก…" ("said that in
            // January three children…") goes on past its first space too.
            sentence_chars = 0;
        }
        let clauses = ThaiClauses { sentence: &slice[fragments[sentence_start]..fragments[i]], before, rest: &slice[fragments[i]..] };
        if sentence_chars >= MIN_THAI_SENTENCE_CHARS && length >= MIN_THAI_SENTENCE_CHARS && !clauses.sentence_goes_on() {
            cuts.push(range.start + fragments[i]);
            (sentence_chars, sentence_start) = (0, i);
        }
    }
    cuts
}

/// The text around a space where a Thai sentence may end: the sentence so
/// far, the clause just before the space, and the rest of the paragraph.
struct ThaiClauses<'a> {
    sentence: &'a str,
    before: &'a str,
    rest: &'a str,
}

/// Thai words that carry a sentence on past a space: a clause opened by a
/// conjunction, a relative, a preposition or (`THAI_SAYING`) a verb of
/// saying belongs to the sentence before it ("… 2,911 ราย ซึ่งเป็นยอดรวม…",
/// "… which is the highest …"; "ดร.ปริยา แนร์ … กล่าวว่า …", "Dr Priya
/// Nair … said …").
const THAI_CLAUSE_OPENERS: &[&str] = &[
    // and, but, or, which, by, in order to, because, so, that, while
    "และ", "แต่", "หรือ", "ซึ่ง", "โดย", "เพื่อ", "เพราะ", "จึง", "ว่า", "ขณะที่",
    // including, as well as, causing, resulting in, before, will, can
    "รวมถึง", "รวมทั้ง", "ตลอดจน", "อีกทั้ง", "ทำให้", "ส่งผลให้", "ก่อน", "จะ", "สามารถ",
    // of, to (a recipient), on, from, on the charge of: prepositions that
    // open no sentence ("… ลดลงเหลือ 95 บาท จากราว 180 บาท", "… fell to 95
    // baht from about 180"; "… 15 ปี ฐานเป็นเจ้าพนักงาน…", "… 15 years for,
    // as an official, …")
    "ของ", "ให้แก่", "บน", "จาก", "ฐาน",
];
/// Thai verbs of saying, which follow their speaker: said, stated, argued,
/// revealed (two words), explained, confirmed, told, claimed, announced.
/// The filter reads a quote's speaker by them too.
pub(super) const THAI_SAYING: &[&str] = &["กล่าว", "ระบุ", "แย้ง", "เปิดเผย", "เผย", "ชี้แจง", "ยืนยัน", "บอก", "อ้าง", "แถลง"];
/// Prepositions of place and time that open a phrase fronted before the
/// main clause: in, during, since, within, after, amid.
const THAI_FRONTED_PREPOSITIONS: &[&str] = &["ใน", "ระหว่าง", "ตั้งแต่", "ภายใน", "หลัง", "ท่ามกลาง"];
/// Words that begin like [`THAI_CLAUSE_OPENERS`] and may open a sentence:
/// friend, to appoint, -elect, previously, after that, status, (military)
/// base, database, and "from the investigation / inquiry / check /
/// survey", which front a sentence ("จากการสอบสวน ผู้ต้องหารับสารภาพ…").
const THAI_NOT_OPENERS: &[&str] = &[
    "เพื่อน", "แต่ง", "ว่าที่", "ก่อนหน้า", "จากนั้น", "ฐานะ", "ฐานทัพ", "ฐานข้อมูล", //
    "จากการสอบสวน", "จากการสืบสวน", "จากการตรวจสอบ", "จากการสำรวจ",
];
/// Words that open a clause the sentence's main clause follows: if,
/// although, after.
const THAI_SUBORDINATORS: &[&str] = &["หาก", "ถ้า", "แม้", "หลังจาก"];

impl ThaiClauses<'_> {
    /// Whether the sentence goes on past the space: the next clause opens
    /// with a conjunction, a relative, a preposition or a verb of saying;
    /// the clause before opens with "if", "although" or "after"; the
    /// sentence so far is a fronted phrase of place or time; or a quote's
    /// speaker comes before "said". (A clause that ends in ว่า, "that", is
    /// kept whole by `thai_cuts` itself.) Measured on the same articles in
    /// Thai and English (tests/fixtures/parallel).
    fn sentence_goes_on(&self) -> bool {
        let (after, before, sentence) = (self.rest.trim_start(), self.before.trim(), self.sentence.trim());
        let opens_clause = THAI_CLAUSE_OPENERS.iter().chain(THAI_SAYING).any(|w| after.starts_with(w))
            && !THAI_NOT_OPENERS.iter().any(|w| starts_with_thai_word(after, w));
        let subordinate = THAI_SUBORDINATORS.iter().any(|w| before.starts_with(w));
        // "ในบางพื้นที่ของลอนดอน อัตรา…" ("In some parts of London, uptake …").
        let fronted = sentence == before && THAI_FRONTED_PREPOSITIONS.iter().any(|w| sentence.starts_with(w));
        opens_clause || subordinate || fronted || self.speaker_follows()
    }

    /// A quote, then its speaker's name (and title), then a verb of saying:
    /// "“…” คาร์ลา เบนาบิเดส นายกเทศมนตรี… กล่าว" ("… ,” said Mayor Carla
    /// Benavides …").
    fn speaker_follows(&self) -> bool {
        const MAX_NAME_CHARS: usize = 40;
        const MAX_TITLE_CHARS: usize = 80;
        // Only the sentence's last characters can hold the name, so only
        // they are searched: a long paragraph stays linear.
        let tail_start = self.sentence.char_indices().rev().nth(MAX_NAME_CHARS).map_or(0, |(at, _)| at);
        let tail = &self.sentence[tail_start..];
        let Some(quote_end) = tail.rfind('”') else { return false };
        let name = &tail[quote_end + '”'.len_utf8()..];
        let title: String = self.rest.chars().take(MAX_TITLE_CHARS).collect();
        !name.trim().is_empty() && THAI_SAYING.iter().any(|w| title.contains(w))
    }
}

/// Whether `text` opens with the Thai word `word` itself, not with a word
/// it begins: a vowel sign or tone mark after it would make its last
/// consonant the start of the next syllable ("เพื่อนำ" is เพื่อ "to" + นำ
/// "bring", not เพื่อน "friend").
fn starts_with_thai_word(text: &str, word: &str) -> bool {
    text.strip_prefix(word).is_some_and(|rest| !rest.starts_with(is_thai_or_lao_sign))
}

/// Thai and Lao vowel signs, tone marks and other marks written after a
/// consonant: the combining ones ("ี", "ີ") and the spacing vowels that
/// follow it ("ะ", "า", "ำ"; "ະ", "າ", "ຳ"), which are letters to Unicode.
fn is_thai_or_lao_sign(c: char) -> bool {
    matches!(c, '\u{0E30}'..='\u{0E3A}' | '\u{0E47}'..='\u{0E4E}' | '\u{0EB0}'..='\u{0EBC}' | '\u{0EC8}'..='\u{0ECE}')
}

/// A Thai clause that ends in ว่า ("that"), not in กว่า ("than", which may end a sentence).
fn ends_in_that(clause: &str) -> bool {
    let clause = clause.trim_end();
    clause.ends_with("ว่า") && !clause.ends_with("กว่า")
}

/// A character of the Thai block (its assigned code points).
pub(super) fn is_thai(c: char) -> bool {
    ('\u{0E01}'..='\u{0E5B}').contains(&c)
}

/// Cuts a range into pieces of at most `MAX_SENTENCE_CHARS` characters.
fn cap_length(text: &str, range: Range<usize>) -> Vec<Range<usize>> {
    let mut pieces = Vec::new();
    let mut start = range.start;
    loop {
        let rest = &text[start..range.end];
        let Some((limit, _)) = rest.char_indices().nth(MAX_SENTENCE_CHARS) else {
            pieces.push(start..range.end);
            return pieces;
        };
        let cut = start + cut_point(rest, limit);
        pieces.push(start..cut);
        start = cut;
    }
}

/// Where to cut `rest[..limit]`, an overlong window: at its last space, else
/// after its last comma-like mark, in the second half; else at the limit
/// (moved back before combining marks, which belong to the character before).
fn cut_point(rest: &str, limit: usize) -> usize {
    let half = floor_char_boundary(rest, limit / 2);
    let second_half = &rest[half..limit];
    if let Some(space) = second_half.rfind(char::is_whitespace) {
        return half + space;
    }
    if let Some((comma, mark)) = second_half.rmatch_indices(['，', '、', ',', ';', '；']).next() {
        return half + comma + mark.len();
    }
    let mut end = limit;
    while end > half && rest[end..].chars().next().is_some_and(joins_previous) {
        end = floor_char_boundary(rest, end - 1);
    }
    end
}

fn joins_previous(c: char) -> bool {
    unicode_normalization::char::is_combining_mark(c) || matches!(c, '\u{200D}' | '\u{FE00}'..='\u{FE0F}')
}

fn trim(text: &str, range: Range<usize>) -> Range<usize> {
    let slice = &text[range.clone()];
    let start = range.start + (slice.len() - slice.trim_start().len());
    start..start + slice.trim().len()
}

fn floor_char_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sentences(text: &str) -> Vec<&str> {
        sentence_ranges(text, LeadLabels::Cut).into_iter().map(|r| &text[r]).collect()
    }

    #[test]
    fn a_lead_label_is_cut_unless_kept() {
        let text = "WASHINGTON (AP) — The storm hit the coast. It rained.";
        assert_eq!(sentences(text), ["WASHINGTON (AP) —", "The storm hit the coast.", "It rained."]);
        let kept: Vec<&str> = sentence_ranges(text, LeadLabels::Kept).into_iter().map(|r| &text[r]).collect();
        assert_eq!(kept, ["WASHINGTON (AP) — The storm hit the coast.", "It rained."]);
    }

    #[test]
    fn merges_titles_initials_and_abbreviations() {
        assert_eq!(
            sentences("Dr. J. R. R. Tolkien met Mr. George W. Bush in the U.S. Senate. Then he left."),
            ["Dr. J. R. R. Tolkien met Mr. George W. Bush in the U.S. Senate.", "Then he left."]
        );
    }

    #[test]
    fn an_abbreviation_before_a_sentence_opener_ends_the_sentence() {
        assert_eq!(
            sentences("He moved to the U.S. The move was hard. Apple Inc. said no."),
            ["He moved to the U.S.", "The move was hard.", "Apple Inc. said no."]
        );
    }

    #[test]
    fn number_abbreviations_continue_only_before_digits() {
        assert_eq!(
            sentences("It was No. 5 on Jan. 12 in art. 3 of the law. He said No. Then he left."),
            ["It was No. 5 on Jan. 12 in art. 3 of the law.", "He said No.", "Then he left."]
        );
        assert_eq!(
            sentences("Durán (Lucas Aranda, min. 71) y Galán. La espera duró 15 min. Luego llegó el árbitro."),
            ["Durán (Lucas Aranda, min. 71) y Galán.", "La espera duró 15 min.", "Luego llegó el árbitro."]
        );
    }

    #[test]
    fn a_lowercase_word_after_a_quote_continues() {
        assert_eq!(
            sentences("\"Stop!\" she said. \"Why?\" He did not answer."),
            ["\"Stop!\" she said.", "\"Why?\"", "He did not answer."]
        );
    }

    #[test]
    fn quotes_go_with_the_sentence_they_open_or_close() {
        assert_eq!(
            sentences("Il a dit : « Nous verrons. » Puis il est parti. ( Vraiment. ) Oui."),
            ["Il a dit : « Nous verrons. »", "Puis il est parti.", "( Vraiment. )", "Oui."]
        );
        assert_eq!(sentences("他问：“为什么？”“因为我想。”"), ["他问：“为什么？”", "“因为我想。”"]);
    }

    #[test]
    fn splits_at_a_period_missing_its_space() {
        assert_eq!(
            sentences("It was preserved.Then it moved. Visit www.Example.org, Agency.Com or e.g.The list."),
            ["It was preserved.", "Then it moved.", "Visit www.Example.org, Agency.Com or e.g.The list."]
        );
    }

    #[test]
    fn splits_after_an_ellipsis_only_before_a_capital() {
        assert_eq!(
            sentences("Well… maybe. He waited… Nothing came. Then... Silence... and more."),
            ["Well… maybe.", "He waited…", "Nothing came.", "Then...", "Silence... and more."]
        );
    }

    #[test]
    fn splits_georgian_greek_and_tibetan_sentences() {
        // Georgian letters are lowercase to Unicode, and a lowercase word
        // after a period would continue the sentence: read as caseless, they
        // do not. `ქ.` (city) is an abbreviation.
        assert_eq!(
            sentences("გუშინ თბილისში წვიმა მოვიდა. ქალაქის ქუჩები დაიტბორა. ის ქ. თბილისში ცხოვრობს."),
            ["გუშინ თბილისში წვიმა მოვიდა.", "ქალაქის ქუჩები დაიტბორა.", "ის ქ. თბილისში ცხოვრობს."]
        );
        // Greek asks with ';', but a ';' between Latin words joins clauses.
        assert_eq!(
            sentences("Τι θα γίνει τώρα; Κανείς δεν ξέρει. It rained; Nobody came."),
            ["Τι θα γίνει τώρα;", "Κανείς δεν ξέρει.", "It rained; Nobody came."]
        );
        assert_eq!(sentences("ཁ་སང་ཆར་པ་བབས། ལམ་ཆུས་ཁེངས།"), ["ཁ་སང་ཆར་པ་བབས།", "ལམ་ཆུས་ཁེངས།"]);
        // A shad after a clause that ends in a connective ("and", "if") goes on.
        let one = "ནད་རྟགས་ལ་ཚ་བ་དྲག་པོ་དང་། སྣ་ཆུ་འཛག་པ་ཡོད།";
        assert_eq!(sentences(one), [one]);
        let one = "ཆར་པ་བབས་ན། ལམ་ཆུས་ཁེངས་ཀྱི་རེད།";
        assert_eq!(sentences(one), [one]);
        // A subject in the agentive case, then what it said; a quote, then
        // ཅེས ("thus") and who said it (the parallel articles, en-10 and en-11).
        for one in [
            "སྤྱིར་བཏང་སྨན་པ་ཚོས། ཕ་མ་ཁ་ཤས་ལ་སྨན་པ་མཇལ་རྒྱུའི་དུས་འཚམས་ལེན་པར་དཀའ་ངལ་ཡོད་ཅེས་བཤད།",
            "“ཁོ་མོས་དངུལ་མཛོད་དེ་རང་ཉིད་ཀྱི་དངུལ་ཁང་རྩིས་ཁྲ་ལྟར་བཀོལ་སྤྱོད་བྱས།” ཅེས་རུ་བེན་ཨོ་ཆོ་ཨ་ཡིས་བཤད།",
        ] {
            assert_eq!(sentences(one), [one]);
        }
        // A list that དང opens runs past its items' shads to བཅས; "… said:"
        // goes on to what was said (en-10, en-11).
        for one in [
            "ནད་རྟགས་ལ་ཚ་བ་དྲག་པོ་དང་། སྣ་ཆུ་འཛག་པ། ཕལ་ཆེར་གདོང་ལ་ཐོག་མར་མངོན་པའི་ཐོར་པ་དམར་སྨུག་བཅས་ཚུད་ཡོད།",
            "དྲན་སྐུལ་འཕྲིན་ཐུང་གཏོང་རྒྱུ་དང་། མན་ཆེ་སི་ཊར། ལིཌ་སི། བྷ་རེཌ་ཧྥོཌ་བཅས་ཀྱི་སྨན་ཚོང་ཁང་རྣམས་སུ་སྨན་ཁབ་རྒྱག་རྒྱུ་ཡིན།",
            "ཉེས་འཛུགས་པ་ཚོས་བཤད་དོན། ཁླའིན་གྱིས་ཀུང་སི་ཞིག་ལ་དངུལ་འཛིན་བྲིས།",
        ] {
            assert_eq!(sentences(one), [one]);
        }
        // A sentence's end before a list, and a list without དང, are cut.
        assert_eq!(sentences("ཆར་པ་བབས། སློབ་གྲྭ་དང་ལམ་ཁ་བཅས་བཀག་ཡོད།"), ["ཆར་པ་བབས།", "སློབ་གྲྭ་དང་ལམ་ཁ་བཅས་བཀག་ཡོད།"]);
        assert_eq!(
            sentences("ཁ་སང་ཆར་པ་བབས་ཡོད། ཁོང་ཚོ་བཅས་ཡོང་།"),
            ["ཁ་སང་ཆར་པ་བབས་ཡོད།", "ཁོང་ཚོ་བཅས་ཡོང་།"]
        );
    }

    #[test]
    fn short_caseless_words_before_a_period_are_abbreviations() {
        for text in [
            "ის 2024 წ. 16 სექტემბერს ჩავიდა ქ. გურჯაანში.",
            "প্রবক্তা সুরেন্দ্র ডা. রহমান বলেন।",
            "प्रवक्ता सुरेन्द्र के.सी.ले कारबाही गरिने बताए ।",
            "ගොවියෙකු වන ඒ. එම්. රත්නායක මහතා පැවසීය.",
            "ގދ. ތިނަދޫގެ ގެތަކަށް ފެން ވަދެއްޖެ.",
            "ዩኔስኮ በ2006 ዓ.ም. ተመዝግቧል።",
            "ຄະນະກຳມະການ ສ.ປ.ປ. ລາວ ໄດ້ປະຊຸມ",
        ] {
            assert_eq!(sentences(text), [text], "{text}");
        }
        // A Korean sentence ends in a word of two syllables; a Lao one in a
        // word of one consonant and its vowel sign (ປີ, "year").
        assert_eq!(sentences("비가 왔다. 학교가 닫혔다."), ["비가 왔다.", "학교가 닫혔다."]);
        let (first, second) = ("ຫຼາຍກວ່າເຄິ່ງໜຶ່ງແມ່ນເດັກນ້ອຍອາຍຸຕ່ຳກວ່າ 10 ປີ.", "ລອນດອນ ແລະ ເວສມິດແລນ ກວມເອົາ 61% ຂອງຜູ້ປ່ວຍທັງໝົດ.");
        assert_eq!(sentences(&format!("{first} {second}")), [first, second]);
        // A consonant and its spacing vowel is a word too, even alone ("ປາ.",
        // "fish."); bare consonants are an abbreviation.
        assert!(!is_caseless_abbreviation("ປາ.", true) && !is_caseless_abbreviation("ຂ້ອຍ.", true));
        assert!(is_caseless_abbreviation("ສ.ປ.", true) && is_caseless_abbreviation("ສປ.", true));
    }

    #[test]
    fn german_ordinals_before_a_month_or_known_noun_continue() {
        assert_eq!(
            sentences("Die Wahl ist am 3. Oktober. Nach dem 2. Weltkrieg spielte der 1. FC Köln. Es ist 15. Die Zeit."),
            ["Die Wahl ist am 3. Oktober.", "Nach dem 2. Weltkrieg spielte der 1. FC Köln.", "Es ist 15.", "Die Zeit."]
        );
    }

    #[test]
    fn polish_ordinals_before_the_unit_they_number_continue() {
        assert_eq!(
            sentences("Pomagają żołnierze 6. Mazowieckiej Brygady Obrony Terytorialnej. Liczba ofiar wzrosła do 6. Mazowsze czeka. Przyszło „6. Nowa fala"),
            [
                "Pomagają żołnierze 6. Mazowieckiej Brygady Obrony Terytorialnej.",
                "Liczba ofiar wzrosła do 6.",
                "Mazowsze czeka.",
                "Przyszło „6.",
                "Nowa fala"
            ]
        );
    }

    /// Found by `invariants_hold_on_newsy_text`: an ordinal, then a quote
    /// and a space before a Thai word, panicked when its second word was
    /// read.
    #[test]
    fn an_ordinal_before_a_quoted_spaced_word_does_not_panic() {
        let text = "\"1. \"\u{a0}ไทยU.S.";
        let letters = |t: &str| t.chars().filter(|c| !c.is_whitespace()).collect::<String>();
        assert_eq!(letters(&sentences(text).concat()), letters(text));
        // The first word of "( ไทย" is empty (a space follows the bracket),
        // so ไทย, whole, comes second.
        assert_eq!(second_word("( ไทย )।"), "ไทย");
        assert_eq!(second_word("ไทย คน"), "คน");
    }

    #[test]
    fn splits_thai_at_spaces_after_a_clause() {
        let clause = "รัฐบาลประกาศมาตรการช่วยเหลือผู้ประสบภัย";
        let text = format!("{clause} นายกรัฐมนตรีกล่าวว่าจะเดินทางไปเยี่ยม ต่างๆ นานา");
        assert_eq!(sentences(&text), [clause, "นายกรัฐมนตรีกล่าวว่าจะเดินทางไปเยี่ยม ต่างๆ นานา"]);
        assert_eq!(sentences("สวัสดี ครับ"), ["สวัสดี ครับ"]);
    }

    /// A Thai clause opened by a conjunction, a relative or a verb of
    /// saying, or what follows "ว่า" (that), belongs to the sentence before
    /// it (the same articles in Thai and English, tests/fixtures/parallel).
    #[test]
    fn thai_sentences_go_on_past_conjunctions_and_verbs_of_saying() {
        let whole = [
            // "… 2,911 cases, which is the highest annual total …"
            "เมื่อปีที่แล้วอังกฤษมีผู้ป่วยโรคหัดที่ได้รับการยืนยันผล 2,911 ราย ซึ่งเป็นยอดรวมรายปีสูงที่สุดนับตั้งแต่ปี 2012",
            // "The agency said that in January three children were treated …"
            "หน่วยงานดังกล่าวระบุว่า เมื่อเดือนมกราคม มีเด็กสามคนเข้ารับการรักษาในหอผู้ป่วยวิกฤต",
            // "Dr Priya Nair, a consultant epidemiologist at the agency, said …"
            "ดร.ปริยา แนร์ นักระบาดวิทยาที่ปรึกษาของหน่วยงาน กล่าวว่าโรคหัดไม่ใช่โรคที่ไม่รุนแรง",
            // "… will not have had both doses"
            "เด็กราวหนึ่งใน 10 คนที่จะเริ่มเข้าเรียนชั้นประถมในอังกฤษ จะยังไม่ได้รับวัคซีนครบทั้งสองเข็ม",
            // "In some parts of London, uptake of the second dose is below 70%."
            "ในบางพื้นที่ของลอนดอน อัตราการได้รับวัคซีนเข็มที่สองต่ำกว่า 70%",
            // "“This is the biggest thing …,” said Mayor Carla Benavides, who lobbied hard …"
            "“นี่คือเรื่องใหญ่ที่สุดที่เกิดขึ้นกับย่านใจกลางเมืองในรอบหนึ่งชั่วอายุคน” คาร์ลา เบนาบิเดส นายกเทศมนตรีซึ่งผลักดันโครงการนี้อย่างหนัก กล่าว",
            // "… to put the ordinance on the ballot": เพื่อ (to) before นำ (bring), not เพื่อน (friend)
            "ฝ่ายคัดค้านมีเวลา 30 วันในการรวบรวมรายชื่อราว 4,100 รายชื่อ เพื่อนำข้อบัญญัติดังกล่าวเข้าสู่การลงคะแนนเสียง",
            // "… as early as March on the 6.5-acre site, a former rail yard …"
            "การก่อสร้างอาจเริ่มได้เร็วที่สุดในเดือนมีนาคม บนพื้นที่ 6.5 เอเคอร์ ซึ่งเดิมเป็นลานรถไฟทางทิศตะวันออกของถนนเจฟเฟอร์สัน",
            // "… repaid over 25 years from a new 1% tax on hotel rooms …"
            "ข้อตกลงดังกล่าวผูกพันให้เมืองต้องออกพันธบัตรมูลค่า 31 ล้านดอลลาร์ ซึ่งจะชำระคืนภายใน 25 ปี จากภาษีห้องพักโรงแรมอัตราใหม่ 1%",
            // "… was convicted Thursday of stealing more than $3.1 million …"
            "อดีตเหรัญญิกประจำเคาน์ตีแห่งหนึ่งในพื้นที่ชนบทของรัฐแอริโซนาถูกตัดสินว่ามีความผิดเมื่อวันพฤหัสบดี ฐานขโมยเงินสาธารณะกว่า 3.1 ล้านดอลลาร์",
        ];
        for text in whole {
            assert_eq!(sentences(text), [text]);
        }
        // "Construction could begin in March …" / "The team hopes to play …"
        let (first, second) = ("การก่อสร้างอาจเริ่มได้เร็วที่สุดในเดือนมีนาคม", "ทีมหวังว่าจะได้ลงเล่นเกมแรกที่นั่นในเดือนเมษายน 2027");
        assert_eq!(sentences(&format!("{first} {second}")), [first, second]);
        // เพื่อน (friend) is not เพื่อ (in order to); กว่า (than) is not ว่า.
        let friend = "เพื่อนบ้านช่วยกันขนของขึ้นที่สูงตั้งแต่เมื่อคืน";
        assert_eq!(sentences(&format!("{first} {friend}")), [first, friend]);
        // จากนั้น (after that) and จากการสืบสวน (from the inquiry) open a sentence.
        for opener in ["จากนั้นจะโอนสายไปยังคนที่อ้างว่าเป็นตำรวจ", "จากการสืบสวนพบว่ากลุ่มผู้ต้องหาจะโทรศัพท์หาเหยื่อ"] {
            assert_eq!(sentences(&format!("{first} {opener}")), [first, opener]);
        }
        let higher = "ราคาน้ำมันดีเซลสัปดาห์นี้สูงกว่า";
        assert_eq!(sentences(&format!("{higher} {second}")), [higher, second]);
        // A phrase of place is fronted only when it opens the sentence; a quote
        // with no verb of saying after it ends its sentence.
        let in_london = "ในบางพื้นที่ของลอนดอน อัตราการได้รับวัคซีนเข็มที่สองต่ำกว่า 70%";
        assert_eq!(sentences(&format!("{first} {in_london}")), [first, in_london]);
        let quote = "“นี่คือเรื่องใหญ่ที่สุดที่เกิดขึ้นกับย่านใจกลางเมืองในรอบหนึ่งชั่วอายุคน” คาร์ลา";
        assert_eq!(sentences(&format!("{quote} {second}")), [quote, second]);
    }

    /// Burmese ends its sentences with "။"; "၊" is its comma.
    #[test]
    fn burmese_commas_end_no_sentence() {
        let one = "ရောဂါလက္ခဏာများတွင် အဖျားကြီးခြင်း၊ နှာရည်ယိုခြင်း၊ အဖုအပိမ့်များ ပါဝင်သည်။";
        let two = "အခြားသူ တစ်ဦးဦး သိခဲ့သလား။";
        assert_eq!(sentences(&format!("{one} {two}")), [one, two]);
    }

    #[test]
    fn caps_overlong_runs_at_a_space_or_a_character() {
        let words = "word ".repeat(1000);
        let parts = sentences(&words);
        assert!(parts.len() >= 5);
        assert!(parts.iter().all(|p| p.chars().count() <= MAX_SENTENCE_CHARS && p.ends_with("word")));
        let han = "字".repeat(2500);
        let parts = sentences(&han);
        assert_eq!(parts.iter().map(|p| p.chars().count()).collect::<Vec<_>>(), [1000, 1000, 500]);
    }

    #[test]
    fn keeps_symbol_runs_out_of_the_way() {
        let bangs = "!".repeat(40);
        let text = format!("End. {bangs} Next one.");
        assert_eq!(sentences(&text), [format!("End. {bangs}").as_str(), "Next one."]);
        let text = format!("Word{}word.", ")".repeat(40));
        assert_eq!(sentences(&text).concat(), text);
    }
}
