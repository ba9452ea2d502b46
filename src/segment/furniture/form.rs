//! The rules of form on one sentence: its size, case and ending (fragments,
//! headings and names, bullets, broken lines, headlines printed twice or
//! that ask).

use super::line::{Features, SHORT_LINE_WORDS};

/// "Пострадавших нет.", "Госпитализирован один человек.", "Kibicuję temu
/// eksperymentowi.", "Պաշտպանությունը դատավճիռը կբողոքարկի։": two or
/// three words with a full stop (of any script) and a lowercase
/// word of three letters or more (a verb or a noun in the clause) make a
/// statement in the languages that need no articles; "On Saturday." and
/// "December 19." have no such word.
pub(super) fn short_statement(text: &str, f: &Features) -> bool {
    let statement_end = f.last_mark.is_some_and(crate::text::is_full_stop);
    let lowercase_word = text.split_whitespace().any(|w| {
        let letters: Vec<char> = w.chars().filter(|c| c.is_alphabetic()).collect();
        letters.len() >= 3 && crate::text::is_lowercase(letters[0])
    });
    // Without capitals, words of three letters or more say as much: "والدین
    // پرامید ہیں۔" (the parents are hopeful).
    let caseless_words = text
        .split_whitespace()
        .filter(|w| {
            let letters: Vec<char> = w.chars().filter(|c| c.is_alphabetic()).collect();
            letters.len() >= 3 && letters.iter().all(|&c| crate::text::is_caseless_letter(c))
        })
        .count();
    f.words >= 2.0 && statement_end && (lowercase_word || caseless_words >= 2)
}

/// Sentences of at most three words say nothing alone ("On Saturday.",
/// "TMZ has learned.", "Love Ireland!", "December 19."), unless they carry
/// a number in a clause ("He was 83.": a digit, a lowercase word and
/// another word of letters; "$9.65 million?" has no clause); one word never
/// does.
pub(super) fn too_short(f: &Features) -> bool {
    let clause_with_number = f.digits > 0 && f.lowercase_words > 0 && f.alpha_words >= 2;
    f.words <= 1.0 || (f.words <= 3.0 && !clause_with_number)
}

/// "Israël : qui sont les nouveaux « anti-Bibi » ?", "Opinión: ¿A quién le
/// sirve un ataque …?": on a line of its own, a short question or
/// exclamation after a label (one word, or a few capitalized ones) and a
/// colon is a headline. ("Here's the thing: why …?" has a lowercase label;
/// a question with a full stop, or in a paragraph, is not a candidate.)
pub(super) fn labelled_headline(text: &str, f: &Features) -> bool {
    let Some((label, rest)) = text.split_once([':', '：']) else { return false };
    let words: Vec<&str> = label.split_whitespace().collect();
    let capitalized = words.iter().filter(|w| w.starts_with(|c: char| c.is_uppercase())).count();
    let labelled = words.first().is_some_and(|w| w.starts_with(|c: char| c.is_uppercase()))
        && (words.len() == 1 || (words.len() <= 4 && capitalized as f32 >= 0.75 * words.len() as f32))
        && !label.contains(['"', '“', '‘', '«']);
    labelled && !rest.trim().is_empty() && asks_like_a_headline(f)
}

/// "Patrick Callahan, 21, Mansfield, CT.", "2018 Federal Poverty
/// Guidelines": every word capitalized, so no verb in any cased language (a
/// verb is lowercase even in German); a list item, a name, a heading.
fn no_lowercase_word(f: &Features) -> bool {
    f.alpha_words >= 2 && f.lowercase_words == 0 && f.capitalized_words == f.alpha_words
}

/// One word, every word capitalized, or a title-case line without a
/// sentence end: a heading, a name, a table's cell.
pub(super) fn heading_or_name(f: &Features) -> bool {
    f.words <= 1.0 || no_lowercase_word(f) || (title_case(f) && !f.ends_sentence)
}

/// "($55,327), North-Central New Jersey ($53,986) …": the rest of a line
/// cut inside a list of figures.
pub(super) fn broken_parenthesis(text: &str) -> bool {
    text.strip_prefix('(').and_then(|rest| rest.split_once(')')).is_some_and(|(_, after)| after.starts_with([',', ';']))
}

/// "- Top ranked pages …", "-- up to a maximum of 100 …", "• …": a list's
/// bullet. (A dash with spaces, "— Я не знаю", opens dialogue in Russian,
/// Spanish and French, so only the hyphen-minus, "*" and "•" count.)
pub(super) fn bullet(text: &str) -> bool {
    // "•Selon Alain Juppé, …": the bullet glued to the item.
    ["- ", "-- ", "* ", "•", "· "].iter().any(|b| text.starts_with(b))
}

/// "in up to 40 states – in many for the first time.", "reset Will Clinton
/// playbook work?": a sentence whose first word is in lowercase is the end
/// of a line the page broke, or a widget's word glued to a headline.
/// "iPhone sales…", "eBay said…" (a capital inside the word) are names.
pub(super) fn starts_lowercase(text: &str) -> bool {
    // '" she recalled.': the tail of a quote the splitter cut off.
    let text = text.trim_start_matches(|c: char| matches!(c, '"' | '”' | '’' | '»') || c.is_whitespace());
    let first_word = text.split_whitespace().next().unwrap_or("");
    first_word.chars().next().is_some_and(crate::text::is_lowercase) && !first_word.chars().any(char::is_uppercase)
}

/// Longest line taken for a headline that asks, in words.
const LISTED_HEADLINE_WORDS: f32 = 25.0;

/// A question or exclamation short enough for a headline: what the list,
/// label and first-line headline rules look for.
pub(super) fn asks_like_a_headline(f: &Features) -> bool {
    f.words <= LISTED_HEADLINE_WORDS && (asks_a_question(f) || matches!(f.last_mark, Some('!' | '！')))
}

/// Ends in a question mark, before closing quotes and brackets.
pub(super) fn asks_a_question(f: &Features) -> bool {
    matches!(f.last_mark, Some('?' | '？' | '؟'))
}

/// "Passenger Evaluated For Ebola Passenger Evaluated For Ebola A passenger
/// who…": the first three to twelve words repeated at once (a headline
/// printed twice by the page, then the lead). Any language with spaces.
pub(super) fn repeated_headline(text: &str) -> bool {
    let words: Vec<&str> = text.split_whitespace().collect();
    (3..=12).any(|k| words.len() > 2 * k && words[..k] == words[k..2 * k])
}

/// "Why Is This Important?", "Free Online Training!": at least three
/// words, no long word in lowercase, four in five capitalized.
pub(super) fn title_case(f: &Features) -> bool {
    f.alpha_words >= 3
        && f.words <= SHORT_LINE_WORDS
        && f.long_lowercase_words == 0
        && f.capitalized_words as f32 >= 0.8 * f.alpha_words as f32
}

#[cfg(test)]
mod tests {
    use crate::segment::furniture::Reason;
    use crate::segment::furniture::tests::{among_prose, page, paragraph, PROSE};

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
        // (A date alone is its page's stamp.)
        assert_eq!(among_prose(&lines), [None, short, Some(Reason::Stamp), short, short, None, None]);
        // Inside a paragraph a short sentence is its prose; one word is a fragment anywhere.
        let r = paragraph(&["The storm reached the coast early on Monday morning.", "¿Cuánto ha llovido?", "Nobody was hurt.", "Ja.", "Police said the road would stay closed."]);
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
    fn a_number_needs_a_clause_to_stand_alone() {
        let lines = ["$9.65 million?", "He was 83.", "It's 5 p.m.", "Up 5%."];
        assert_eq!(among_prose(&lines), [Some(Reason::TooShort), None, None, Some(Reason::TooShort)]);
    }
}
