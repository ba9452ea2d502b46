//! Credits: bylines, photo credits that open a line or stand in capitals,
//! an agency after a bar, a picture's credit line, a pull quote's signature.

use super::cues::PHOTO_CREDIT_MARKS;
use super::line::{is_closing, is_sentence_end, opens_with_word, Features};

/// "… reading list, and every boy’s and man’s, too.”—Connie Britton",
/// "… but I do.” — Claire Danes, asked how she’ll tell …": a closing quote,
/// a dash, and a signature without a sentence end.
pub(super) fn pull_quote(text: &str) -> bool {
    ["”—", "” —", "\"—", "\" —", "»—", "» —", "” –", "\" –"].iter().any(|mark| {
        text.rsplit_once(mark).is_some_and(|(_, signature)| {
            let signature = signature.trim();
            signature.starts_with(|c: char| c.is_uppercase())
                && !signature.trim_end_matches(is_closing).ends_with(is_sentence_end)
                && !signature.contains(['"', '“', '”'])
        })
    })
}

/// A credit line that names a picture ("Foto: …", "Fot. …", "ภาพ: …",
/// "写真：…"), not an article's source ("Source: …", "المصدر: …", "来源：…").
pub(super) fn names_a_picture(text: &str) -> bool {
    const PICTURE_WORDS: &[&str] = &[
        "photo", "foto", "fot.", "image", "imagen", "imagem", "immagine", "bild", "beeld", "zdjęcie", "фото", "fotoğraf",
        "صورة", "تصوير", "图", "圖", "写真", "사진", "ภาพ", "picture", "(photo", "(foto",
        // Thai sites thank the source of a picture or a clip ("ขอบคุณภาพ : สภ.สีคิ้ว").
        "ขอบคุณภาพ", "ขอบคุณคลิป", "คลิป",
    ];
    let folded = text.trim_start().to_lowercase();
    PICTURE_WORDS.iter().any(|w| folded.starts_with(w))
}

/// "ภาพที่ 1 / 12", "Photo 3 of 12", "Foto 2 de 8": a gallery's counter, a
/// picture's word and its place among the pictures.
pub(super) fn gallery_counter(text: &str) -> bool {
    const MAX_COUNTER_TOKENS: usize = 6;
    const OF_WORDS: &[&str] = &["/", "of", "de", "di", "von", "van", "z", "из"];
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let number = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let counted = match tokens.as_slice() {
        [.., place, of, total] if OF_WORDS.contains(&of.to_lowercase().as_str()) => number(place) && number(total),
        [.., place_of_total] => place_of_total.split_once('/').is_some_and(|(place, total)| number(place) && number(total)),
        [] => false,
    };
    tokens.len() <= MAX_COUNTER_TOKENS && counted && names_a_picture(text)
}

/// News agencies that credit a picture after a bar ("… en Misrata. | EFE").
const BAR_CREDITS: &[&str] = &["efe", "afp", "ap", "reuters", "getty", "dpa", "epa", "ansa", "xinhua", "europa press", "foto"];

/// A bar and an agency's name, up to three words: the credit under a
/// picture ("| Efe", "| AFP/HO/OneDayOnEarth.org"), not a footer's links
/// ("| Versión para móvil", "| Police de Cookies").
pub(super) fn agency_after_bar(text: &str) -> bool {
    let Some(rest) = text.strip_prefix("| ") else { return false };
    let folded = rest.to_lowercase();
    let named = BAR_CREDITS.iter().any(|agency| {
        opens_with_word(&folded, agency)
    });
    named && rest.split_whitespace().count() <= 3
}

/// "By Jane Doe", "By JANE DOE and John Roe": "by" and at most five
/// words, all capitalized but "and"; or a reporter's name after the
/// Chinese word ("财联社记者 周一鸣").
pub(super) fn byline(f: &Features) -> bool {
    // The name is spaced off after the word, on a short line; "新华社记者
    // 沈伯韩 摄" is a photo's credit.
    const SHOT_BY: [char; 4] = ['摄', '攝', '图', '圖'];
    if (f.folded.contains("记者 ") || f.folded.contains("記者 ")) && f.words <= 6.0 && !f.folded.trim_end().ends_with(SHOT_BY) {
        return true;
    }
    let Some(rest) = f.folded.strip_prefix("by ") else { return false };
    let names = rest.split_whitespace().filter(|w| *w != "and" && *w != "&").count();
    f.words <= 6.0 && names >= 1 && f.capitalized_words + 1 >= f.alpha_words && !f.ends_sentence
}

/// How far into a long line a photo credit still opens it.
const CREDIT_OPENING_WORDS: usize = 4;

/// Credit labels as pages write them in capitals, matched as written (a
/// "Photo:" inside a sentence is rare, but "PHOTO:" is never prose).
const CAPITAL_CREDIT_LABELS: &[&str] = &["CREDIT:", "CREDITS:", "PHOTO:", "PHOTOS:", "IMAGE:", "CRÉDIT:", "FOTO:", "FOTOS:"];

/// A credit in capitals that the page ran into its caption: a label
/// anywhere in the line ("… Response To Rape Allegations CREDIT: AP
/// Photo/Brennan Linsley Bill Cosby performs …"), or a site's name or the
/// agency, in capitals, opening it ("DEVONJAMESXXX.COM 'I want you …' was
/// one text message …", "AP American Airlines on Thursday said …"; not "AP
/// reporters found …").
pub(super) fn credit_in_capitals(text: &str) -> bool {
    let mut words = text.split_whitespace().peekable();
    let Some(first) = words.next() else { return false };
    let next_capitalized = words.peek().is_some_and(|w| w.starts_with(char::is_uppercase));
    let opens_with_site = capital_domain(first) && words.peek().is_some();
    let opens_with_agency = first == "AP" && next_capitalized;
    opens_with_site || opens_with_agency || std::iter::once(first).chain(words).any(|w| CAPITAL_CREDIT_LABELS.contains(&w))
}

/// "DEVONJAMESXXX.COM", "NYPOST.COM": a domain name in capitals (a name,
/// a dot, a top-level domain of two to four capital letters).
fn capital_domain(word: &str) -> bool {
    let Some((name, top)) = word.rsplit_once('.') else { return false };
    let name_ok = name.chars().any(|c| c.is_ascii_uppercase())
        && name.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-' || c == '.');
    name_ok && (2..=4).contains(&top.len()) && top.chars().all(|c| c.is_ascii_uppercase())
}

/// A line of any length that opens with a photo credit: the credit and its
/// caption run together when the page was flattened to text ("AFP/Getty
/// Images NBA Finals MVP LeBron James of the Miami Heat holds the
/// championship trophy …", "Tom Williams/Getty Images Rep. Jackie Speier
/// (D-Calif.) will host …").
pub(super) fn opens_with_photo_credit(f: &Features) -> bool {
    // The space after the last word lets a mark that ends in one match it:
    // "Eric Gay / AP Senator …" opens with "eric gay / ap ".
    let mut opening = f.folded.split_whitespace().take(CREDIT_OPENING_WORDS).collect::<Vec<_>>().join(" ");
    opening.push(' ');
    PHOTO_CREDIT_MARKS.iter().any(|mark| opening.contains(mark))
}

#[cfg(test)]
mod tests {
    use crate::segment::furniture::{classify_sentence, Reason};
    use crate::segment::furniture::tests::{page, paragraphs_of, PROSE};

    #[test]
    fn a_chinese_reporters_byline_and_photo_credit() {
        assert_eq!(classify_sentence("财联社记者 周一鸣"), Some(Reason::Credit));
        assert_ne!(classify_sentence("新华社记者 沈伯韩 摄"), Some(Reason::Credit), "a photo's credit");
        assert_eq!(classify_sentence("记者从市应急管理局获悉，全市已转移群众1.2万人。"), None);
    }

    #[test]
    fn a_gallery_counter_points_to_the_page() {
        for counter in ["ภาพที่ 1 / 12", "Photo 3 of 12", "Bild 4/10"] {
            assert_eq!(classify_sentence(counter), Some(Reason::PageReference), "{counter}");
        }
        // An earlier rule reads this one as a credit; furniture either way.
        assert!(classify_sentence("Foto 2 de 8").is_some());
        // A sentence about pictures, or a count without a picture, is not one.
        for text in ["Photo agencies sold 3 of 12 pictures.", "Mannschaft 1 / 12"] {
            assert_ne!(classify_sentence(text), Some(Reason::PageReference), "{text}");
        }
    }

    #[test]
    fn a_long_line_that_opens_with_a_photo_credit_is_its_caption() {
        let r = page(&[
            "AFP/Getty Images NBA Finals MVP LeBron James of the Miami Heat holds the championship trophy after \
             defeating the Oklahoma City Thunder in Game 5 of the NBA Finals.",
            "Tom Williams/Getty Images Rep. Jackie Speier (D-Calif.) will host an hour-long reading of a widely \
             circulated statement from the victim of a 2015 sexual assault by a former Stanford University student.",
            "The agency, which licenses pictures to newspapers around the world, said on Monday that its sales to \
             Getty Images and Reuters had grown for the third year running.",
        ]);
        assert_eq!(r, [Some(Reason::CreditedCaption), Some(Reason::CreditedCaption), None]);
    }

    #[test]
    fn credits_and_notes_glued_before_the_text() {
        for (line, reason) in [
            ("Eric Gay / AP Senator Wendy Davis listens as the Texas Senate debates an abortion bill.", Reason::PhotoCredit),
            ("Eric Gay / AP Senator Wendy Davis listens as the Texas Senate debate an abortion bill before the final vote, on July 12, 2013, in Austin.", Reason::CreditedCaption),
            ("AP American Airlines on Thursday said it received an unsolicited notice from Qatar Airways.", Reason::CreditedCaption),
            ("[liens en anglais sauf mention contraire] Haleh Sahabi, une activiste iranienne, est décédée hier.", Reason::GluedLabel),
            ("WASHINGTON (AP) —", Reason::LeadLabel),
            ("FOCUS -", Reason::LeadLabel),
            ("In this May 24, 2016, file photo, Rep. John Conyers, D-Mich., ranking member on the House Judiciary Committee, speaks on Capitol Hill in Washington during a hearing on the budget.", Reason::Caption),
            ("Exclusiva: Rusia dice que al menos 20 países han mostrado interés por su vacuna.", Reason::EditorNote),
            ("•Selon Alain Juppé, l'Otan n'exercera pas le pilotage politique de l'opération.", Reason::ListEntry),
        ] {
            assert_eq!(classify_sentence(line), Some(reason), "{line}");
        }
        for prose in [
            "AP reporters found that the company had paid the fine in March of last year.",
            "The ratio of 3/ap was not what the engineers had expected to see in the test.",
            "[The union's president] told members that the strike would go on until Friday.",
            "In this photograph he looks older than his 83 years, his daughter said on Monday.",
        ] {
            assert_eq!(classify_sentence(prose), None, "{prose}");
        }
    }

    #[test]
    fn credits_in_capitals() {
        let r = paragraphs_of(&[
            &["Culture ‘Reality Is The Situation’: Bill Cosby’s Incoherent Response To Rape Allegations CREDIT: AP \
               Photo/Brennan Linsley Bill Cosby performs at the Buell Theater in Denver on Jan. 17, 2015."],
            &["DEVONJAMESXXX.COM 'I want you to call me' was one text message she says the golfer sent her."],
            &["The photo credit read: Reuters, and the site NYPOST.COM ran it the same day as the others."],
            &["NASA.GOV"],
            &[PROSE[0]],
            &[PROSE[1]],
        ]);
        assert_eq!(r[..2], [Some(Reason::CreditedCaption); 2]);
        assert_eq!(r[2], None, "a site named inside a sentence, and 'credit' in lowercase");
        assert_ne!(r[3], Some(Reason::CreditedCaption), "a site's name alone credits nothing");
        assert_eq!(r[4..], [None, None]);
    }
}
