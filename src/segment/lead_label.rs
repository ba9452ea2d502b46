//! Datelines and kicker labels in capitals that open a sentence with a
//! spaced dash: "WASHINGTON (AP) — The …", "LOS ANGELES — …", "(CNN) -- …",
//! "STOWE, Vt. — …", "FOCUS - La Ligue arabe …", "DÉCRYPTAGE - …".
//!
//! Pages print them glued to the first sentence of the text (or of a
//! section). Left there, a dateline rides into the summary with its lead,
//! and a kicker ("INDUSTRY REACTS - ", "PORTRAIT - ") makes a prose
//! sentence read as page furniture. The splitter cuts after the dash, so
//! the label is a line of its own, which the furniture rules mark
//! ([`is_lead_label`]), and the text after it stays prose.
//!
//! Form only, so any cased script: one to five words in capitals (with an
//! agency in parentheses, "(AP)", "(Reuters)", and after a comma a
//! capitalized state or country, "Vt.", "India"), at least three capitals or
//! an agency, then a dash standing alone. "I - I don't know" and "OK - fine"
//! have too few.

const MAX_LABEL_WORDS: usize = 5;
const MIN_LABEL_CAPITALS: usize = 3;

/// Where the text after a lead label starts, if `text` opens with one and
/// goes on with a sentence (a capital, a digit or an opening quote, and at
/// least two words).
pub(super) fn text_after_label(text: &str) -> Option<usize> {
    let end = label_end(text)?;
    let rest = text[end..].trim_start();
    let opens = rest.chars().next().is_some_and(|c| c.is_uppercase() || c.is_numeric() || "\"“«'‘".contains(c));
    (opens && rest.split_whitespace().nth(1).is_some()).then(|| text.len() - rest.len())
}

/// The whole line is a lead label (as the splitter leaves it): "WASHINGTON
/// (AP) —".
pub(super) fn is_lead_label(text: &str) -> bool {
    label_end(text) == Some(text.len())
}

/// The byte index just after the label's dash.
fn label_end(text: &str) -> Option<usize> {
    let mut words = 0;
    let mut capitals = 0;
    let mut agency = false;
    let mut after_comma = false;
    let mut spans = word_spans(text);
    while let Some((start, word)) = spans.next() {
        if is_dash(word) {
            let named = words >= 1 && (capitals >= MIN_LABEL_CAPITALS || agency);
            return named.then_some(start + word.len());
        }
        words += 1;
        if words > MAX_LABEL_WORDS {
            return None;
        }
        if let Some(opened) = word.strip_prefix('(') {
            // "(AP)", "(CNN)", "(Reuters)", "(HealthDay News)", "(Agencias y Redacción)".
            if !agency_in_parentheses(opened, &mut spans) {
                return None;
            }
            agency = true;
            continue;
        }
        let bare = word.strip_suffix(',');
        let fits = if after_comma { word.starts_with(char::is_uppercase) } else { in_capitals(bare.unwrap_or(word)) };
        if !fits {
            return None;
        }
        if !after_comma {
            capitals += word.chars().filter(|c| c.is_uppercase()).count();
            after_comma = bare.is_some();
        }
    }
    None
}

/// An agency's name in parentheses, from the word after '(' on: at most
/// three words, the first capitalized, the others capitalized or a short
/// joining word ("y", "and"); consumes the words it reads.
fn agency_in_parentheses<'a>(first: &'a str, rest: &mut impl Iterator<Item = (usize, &'a str)>) -> bool {
    const MAX_AGENCY_WORDS: usize = 3;
    let mut word = first;
    for count in 1..=MAX_AGENCY_WORDS {
        let closed = word.strip_suffix(')');
        let name = closed.unwrap_or(word);
        let fits = if count == 1 {
            name.starts_with(char::is_uppercase)
        } else {
            name.starts_with(char::is_uppercase) || (name.chars().count() <= 3 && name.chars().all(char::is_lowercase))
        };
        if !fits || name.contains(['(', ')']) {
            return false;
        }
        if closed.is_some() {
            return true;
        }
        match rest.next() {
            Some((_, next)) => word = next,
            None => return false,
        }
    }
    false
}

/// Whitespace-separated words with their byte offsets.
fn word_spans(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split_whitespace().map(move |word| (word.as_ptr() as usize - text.as_ptr() as usize, word))
}

/// "—", "-", "--", "–", and DUC's "_".
fn is_dash(word: &str) -> bool {
    (1..=3).contains(&word.chars().count()) && word.chars().all(|c| matches!(c, '-' | '–' | '—' | '―' | '_'))
}

/// "WASHINGTON", "AL-ARISH", "FIGARO.", "L'EXPRESS": a letter, and every
/// letter a capital.
fn in_capitals(word: &str) -> bool {
    word.chars().any(char::is_alphabetic)
        && word.chars().all(|c| c.is_uppercase() || matches!(c, '.' | '\'' | '’' | '-' | '&'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(text: &str) -> Option<&str> {
        text_after_label(text).map(|at| &text[at..])
    }

    #[test]
    fn datelines_and_kickers_give_way_to_the_text() {
        assert_eq!(after("WASHINGTON (AP) — The president said so."), Some("The president said so."));
        assert_eq!(after("LOS ANGELES -- A jury found him guilty."), Some("A jury found him guilty."));
        assert_eq!(after("(CNN) -- A jury found him guilty."), Some("A jury found him guilty."));
        assert_eq!(after("STOWE, Vt. — Snow fell all night."), Some("Snow fell all night."));
        assert_eq!(after("NEW DELHI, India (AP) _ Snow fell all night."), Some("Snow fell all night."));
        assert_eq!(after("FOCUS - La Ligue arabe a appelé …"), Some("La Ligue arabe a appelé …"));
        assert_eq!(after("DÉCRYPTAGE - Le soulèvement reste sunnite."), Some("Le soulèvement reste sunnite."));
        assert_eq!(after("INFO À LA DEMANDE - Alors que Obama …"), Some("Alors que Obama …"));
        assert_eq!(after("MOSCOU – « Nous partirons », dit-il."), Some("« Nous partirons », dit-il."));
        assert_eq!(after("NEW DELHI (Reuters) - India said on Monday …"), Some("India said on Monday …"));
        assert_eq!(after("(HealthDay News) -- Older adults who walk …"), Some("Older adults who walk …"));
        assert_eq!(after("(Agencias y Redacción) - El Gobierno sirio …"), Some("El Gobierno sirio …"));
    }

    #[test]
    fn sentences_that_only_look_like_it_stay_whole() {
        // Too few capitals, no dash of its own, lowercase after, too long.
        assert_eq!(after("I - I don't know what happened."), None);
        assert_eq!(after("OK - That is fine by me."), None);
        assert_eq!(after("U.S. - China talks resumed on Monday."), None);
        assert_eq!(after("WASHINGTON-based groups sued on Monday."), None);
        assert_eq!(after("NASA - the agency said nothing."), None);
        assert_eq!(after("The president - who spoke - left."), None);
        assert_eq!(after("ONE TWO THREE FOUR FIVE SIX - Then it ended."), None);
        assert_eq!(after("\"NO - I won't,\" she said."), None);
        assert_eq!(after("PARIS — Oui."), None);
        assert_eq!(after("COVID-19 - What we know so far."), None);
        assert_eq!(after("(see below) - The figures were revised."), None);
        assert_eq!(after("(A long aside in parentheses) - The figures were revised."), None);
    }

    #[test]
    fn a_label_alone_is_a_lead_label() {
        assert!(is_lead_label("WASHINGTON (AP) —"));
        assert!(is_lead_label("(CNN) --"));
        assert!(is_lead_label("FOCUS -"));
        assert!(!is_lead_label("FOCUS - La Ligue"));
        assert!(!is_lead_label("WE -"));
        assert!(!is_lead_label("Paris -"));
    }
}
