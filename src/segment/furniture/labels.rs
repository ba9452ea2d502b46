//! Labels before or instead of the text: widget labels glued to it, labels
//! before a colon (all-caps or title-case), and datelines.

use super::form::starts_lowercase;
use super::line::{is_sentence_end, Features, SHORT_LINE_WORDS};

/// "Day of Silent Social Media: Think you can turn it off?", "Figure 1:
/// Location …": a title-case label of two to six words (one word is too
/// often a title's first half: "Kong: Skull Island is …"), a colon, then a
/// capital. ("The result: a draw." and "NEW DELHI: The …" are left alone:
/// lowercase after the colon, or an all-caps dateline.)
pub(super) fn title_label(text: &str) -> bool {
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

/// The text after an all-caps label of one to three words and a colon
/// ("PHOTOS:", "GEORGE STEPHANOPOULOS:", and "Q:").
pub(super) fn caps_label(text: &str) -> Option<&str> {
    let (label, rest) = text.split_once([':', '：'])?;
    let words = label.split_whitespace().count();
    let letters: Vec<char> = label.chars().filter(|c| c.is_alphabetic()).collect();
    let caps = (letters.len() >= 2 || matches!(label.trim(), "Q" | "A")) && letters.iter().all(|c| c.is_uppercase());
    (caps && (1..=3).contains(&words) && !rest.trim().is_empty()).then_some(rest)
}

/// A widget or caption label the page glued to the sentence after it:
/// "Image caption They are searching…", "CLOSE Police confirmed…",
/// "Media playback is unsupported on your device Media caption …". The
/// all-caps "CLOSE" and "|" are matched as written: "Close to 100 people…"
/// is prose.
pub(super) fn glued_label(text: &str, f: &Features) -> bool {
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
    chars.len() >= 6 && chars.len() % 2 == 0 && chars[0].is_uppercase() && chars[1..].iter().any(|&c| crate::text::is_lowercase(c)) && chars[..half] == chars[half..]
}

/// "STOWE, Vt.", "NEW YORK, N.Y.", "BENSALEM, Pa. —": an all-caps place,
/// a comma, at most three more words.
pub(super) fn dateline(text: &str, f: &Features) -> bool {
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

/// "PHOTOS: Blagojevich Cronies", "RELATED: …", "GEORGE STEPHANOPOULOS: --":
/// up to three all-caps words and a colon, then a short line.
pub(super) fn label_prefix(text: &str, f: &Features) -> bool {
    caps_label(text).is_some() && (f.words <= SHORT_LINE_WORDS || !f.ends_sentence)
}

/// A player's rating in a match report ("Meret 7 – Decisivo su Dimarco
/// al 67'.", "Di Lorenzo 6,5 – Soffre nel primo tempo …", "Neuer 2 - …"):
/// a name of up to three words, a mark (a half written "6,5" or "6.5"),
/// then a dash that stands apart. An entry of a list of ratings, never a
/// sentence of the report.
pub(super) fn rating_entry(text: &str) -> bool {
    use std::sync::OnceLock;
    static RATING: OnceLock<regex::Regex> = OnceLock::new();
    RATING
        .get_or_init(|| {
            regex::Regex::new(r"^(?:\p{Lu}[\p{L}'’.-]*\s){1,3}(?:10|[1-9])(?:[,.]5)?\s[–—-]\s\S").expect("the rating pattern")
        })
        .is_match(text)
}

#[cfg(test)]
mod tests {
    use crate::segment::furniture::Reason;
    use crate::segment::furniture::tests::{page, paragraphs_of, prose, PROSE};

    #[test]
    fn a_players_rating_is_a_list_entry() {
        use crate::segment::furniture::classify_sentence;
        for rating in ["Meret 7 – Decisivo su Dimarco al 67', sicuro nelle uscite.", "Di Lorenzo 6,5 – Soffre Dimarco nel primo tempo.", "Neuer 2 - Hielt alles, was zu halten war."] {
            assert_eq!(classify_sentence(rating), Some(Reason::ListEntry), "{rating}");
        }
        for prose in ["Meret ha parato 7 tiri – un record per lui.", "Il Napoli ha vinto 2-1 contro l'Inter al Maradona.", "Apollo 11 – the mission that landed on the Moon – launched in 1969."] {
            assert_eq!(classify_sentence(prose), None, "{prose}");
        }
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
}
