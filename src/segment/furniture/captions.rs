//! Photo captions in sentence form (agency style: who stands where, the
//! date after the place, the credit at the end) and sentences that point
//! at the page's pictures, videos and tables.

use super::line::{is_closing, is_sentence_end, Features};

/// "Wedding costs soar to new highs (3:40) As Americans …": a video's
/// length in parentheses.
pub(super) fn video_length(text: &str) -> bool {
    text.match_indices('(').any(|(at, _)| {
        let inside: String = text[at + 1..].chars().take_while(|&c| c != ')').collect();
        let Some((minutes, seconds)) = inside.split_once(':') else { return false };
        (1..=2).contains(&minutes.len())
            && seconds.len() == 2
            && minutes.chars().chain(seconds.chars()).all(|c| c.is_ascii_digit())
    })
}

/// News-agency photo captions: "…, Thursday, Dec. 20, 2012, in Chicago.",
/// "…, listens, Monday May 4, 2015, in Neenah." (a weekday, a date and a
/// year in a row; English agencies' style), and captions that say where
/// people stand or that they are a photo ("…, left, speaks…", "This undated
/// photo provided by…", "FILE - In this…").
pub(super) fn agency_caption(text: &str, f: &Features) -> bool {
    if in_this_photo(text) {
        return true;
    }
    const OPENINGS: [&str; 9] =
        ["file - ", "file – ", "file photo", "this undated", "an undated", "this photo", "this image", "this handout", "this file photo"];
    const POSITIONS: [&str; 12] = [
        ", left, ", ", right, ", ", center, ", ", centre, ", "from left,", ", second from", " (links) ", " (rechts) ",
        " (à gauche) ", " (à droite) ", " (izquierda) ", " (derecha) ",
    ];
    const ANYWHERE: [&str; 12] = [
        " in this photo", " in this photograph", " in this image", " in this file photo", "(pictured)", ", pictured,", " at left,",
        " (left)", " (right)", " (center)", " (centre)", " (gauche)",
    ];
    const STARTS: [&str; 4] = ["at left", "at right", "from left", "pictured "];
    if ANYWHERE.iter().any(|a| f.folded.contains(a)) || STARTS.iter().any(|s| f.folded.starts_with(s)) || dated_after_place(text) {
        return true;
    }
    if OPENINGS.iter().any(|o| f.folded.starts_with(o)) || POSITIONS.iter().any(|p| f.folded.contains(p)) {
        return true;
    }
    if points_at_media(&f.folded) {
        return true;
    }
    if dated_after_comma(text) || credit_after_sentence(text) || opens_with_bare_date(text) || ends_with_credit(&f.folded) {
        return true;
    }
    const DAYS: [&str; 7] = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
    DAYS.iter().any(|day| {
        text.match_indices(day).any(|(at, _)| {
            let rest = &text[at + day.len()..];
            let Some(rest) = rest.strip_prefix(", ").or_else(|| rest.strip_prefix(' ')) else { return false };
            // Month (word or abbreviation), day number, comma, four-digit year.
            let mut parts = rest.splitn(3, ' ');
            let (Some(month), Some(number), Some(year)) = (parts.next(), parts.next(), parts.next()) else { return false };
            month.starts_with(|c: char| c.is_ascii_uppercase())
                && number.ends_with(',')
                && number.trim_end_matches(',').chars().all(|c| c.is_ascii_digit())
                && year.chars().take(4).filter(char::is_ascii_digit).count() == 4
        })
    })
}

/// "In this May 24, 2016, file photo, …", "In this Jan. 5 file photo, …",
/// "In this image, …": the AP's caption opening, its date and kind of
/// picture within the first eight words.
fn in_this_photo(text: &str) -> bool {
    const HEAD_WORDS: usize = 8;
    let Some(rest) = text.strip_prefix("In this ") else { return false };
    rest.split_whitespace()
        .take(HEAD_WORDS)
        .any(|w| w.ends_with(',') && matches!(w.trim_end_matches(','), "photo" | "image" | "photograph" | "picture"))
}

/// "Este video de la7jpress muestra …", "Cette vidéo, mise en ligne par …",
/// "El siguiente vídeo muestra …", "La primera parte del video muestra …",
/// "En esta imagen, civiles …", "In diesem Video, …": a sentence that opens
/// by pointing at a picture or a video on the page tells what the summary
/// cannot show. Of the ~8,800 summary lines judged by hand, the 13 it
/// excludes are all junk. After "in this" and its kin the picture is set off by a
/// comma, as in the AP's captions: "In this photograph he looks older …" is
/// someone speaking of a photograph. "Otras fotos muestran …" and "The
/// video, which shows …" point at nothing. `folded` is the lowercased line.
fn points_at_media(folded: &str) -> bool {
    // The picture is the sentence's subject.
    const SUBJECTS: [&str; 38] = [
        "this", "these", "the following", "the first part of the", "the second part of the", // en
        "este", "esta", "estos", "estas", "el siguiente", "la siguiente", "los siguientes", "las siguientes",
        "la primera parte del", "la segunda parte del", "o seguinte", "a seguinte", // es, pt
        "ce", "cet", "cette", "ces", "la première partie de la", "la deuxième partie de la",
        "la seconde partie de la", // fr
        "dieses", "diese", "dieser", "deze", "dit", "questo", "questa", "questi", "queste", // de, nl, it
        "это", "эта", "этот", "эти", "следующее", // ru
    ];
    // The picture is where the sentence happens.
    const PLACES: [&str; 17] = [
        "in this", "in these", "en este", "en esta", "neste", "nesta", "dans ce", "dans cette", "sur ce",
        "sur cette", "in diesem", "auf diesem", "auf diesen", "in deze", "op deze", "in questo", "in questa",
    ];
    const MEDIA: [&str; 40] = [
        "video", "videos", "vídeo", "vídeos", "vidéo", "vidéos", "clip", "clips", "footage", "filmato", "image", "images",
        "imagen", "imágenes", "imagem", "imagens", "immagine", "immagini", "picture", "pictures", "photo", "photos",
        "photograph", "photographs", "photographie", "photographies", "foto", "fotos", "fotografía", "fotografías",
        "fotografia", "fotografie", "bild", "bilder", "afbeelding", "beelden", "видео", "фото", "снимке", "снимок",
    ];
    let media_after = |pointers: &[&str], comma: bool| {
        pointers.iter().any(|pointer| {
            let Some(rest) = folded.strip_prefix(pointer).and_then(|rest| rest.strip_prefix(' ')) else { return false };
            let noun = rest.split(|c: char| !c.is_alphanumeric()).next().unwrap_or_default();
            MEDIA.contains(&noun) && (!comma || rest[noun.len()..].starts_with(','))
        })
    };
    media_after(&SUBJECTS, false) || media_after(&PLACES, true)
}

/// Captions end with the date set off by a comma, after the place: "…
/// in Paris, April 22, 2015.", "…, on Oct. 22, 2018.", "…, 22 avril 2015.";
/// prose says "on April 22, 2015" without the comma. Quotes are prose.
fn dated_after_comma(text: &str) -> bool {
    if text.contains(['"', '“', '”', '«', '»']) {
        return false;
    }
    let body = text.trim_end_matches(|c: char| c == '.' || c.is_whitespace());
    let Some((_, date)) = body.rsplit_once(", ").and_then(|(head, year)| {
        // The year closes the sentence: "… April 22, 2015" splits after "22".
        let is_year = year.len() == 4 && year.chars().all(|c| c.is_ascii_digit()) && matches!(&year[..2], "19" | "20");
        is_year.then(|| head.rsplit_once(", ")).flatten()
    }) else {
        return dated_day_month_year(body);
    };
    let date = date.strip_prefix("on ").unwrap_or(date);
    let mut parts = date.split(' ');
    let (Some(month), Some(day), None) = (parts.next(), parts.next(), parts.next()) else { return false };
    month_word(month) && day_number(day)
}

/// "… at a hotel in Kathmandu, Nepal May 30, 2016.": the caption's date
/// right after the place, with no "on" and no comma before the month.
fn dated_after_place(text: &str) -> bool {
    let body = text.trim_end_matches(|c: char| c == '.' || c.is_whitespace());
    let words: Vec<&str> = body.rsplitn(5, ' ').collect();
    let [year, day, month, place, _] = words[..] else { return false };
    year.len() == 4
        && year.chars().all(|c| c.is_ascii_digit())
        && day.strip_suffix(',').is_some_and(day_number)
        && month_word(month)
        && month.starts_with(|c: char| c.is_uppercase())
        && place.starts_with(|c: char| c.is_uppercase())
        && !place.ends_with(',')
}

/// Credits that close a caption, in the words and marks of each language's
/// pages, lowercase.
const CLOSING_CREDITS: &[&str] = &[
    "foto:", "foto ", "fot.", "photo:", "bild:", "beeld ", "imagem:", "imagen:", "credit:", "/ dpa", "/dpa", "/ afp",
    "/afp", "/ reuters", "/reuters", "/ ap", "/ epa", "/ anp", "(ansa)", "(afp)", "(ap)", "(reuters)", "(efe)",
    "(lapresse)", "/ imago", "imago/", "getty images", "keystone", "agencja", "folhapress", "| efe", "| ap", "| afp",
    "| reuters", "• anp", "© ", "(фото", "фото:", "(fotoğraf", "fotoğraf:", "(aa)", "(dha)", "(iha)", "摄", "攝", "撮影",
    "提供）", "提供)", "（图", "(图", "（圖", "(圖", "图/", "圖／", "사진=", "/뉴스1", "/연합뉴스", "일보db", "(ที่มา", "ภาพ:",
    "ภาพ :", "@yna.co.kr", "@osen.co.kr",
    // French captions mark a stock or archive picture ("… (illustration).").
    "(illustration", "(photo d'illustration", "(photo d’illustration", "(image d'illustration", "(image d’illustration",
];

/// "Finanzminister Reinhard Vogt am Mittwoch im Bundestag Foto: Jens Körber /
/// dpa", "…平远县城一处街道被洪水淹没。新华社记者 沈伯韩 摄", "…기뻐하고 있다.
/// 2025.3.24 psik@yna.co.kr", "…en Saná.| Ap": a caption with its credit
/// at the end: the last few words after the last sentence end (or of a
/// line that never ends one) hold a credit.
fn ends_with_credit(folded: &str) -> bool {
    const CREDIT_WORDS: usize = 8;
    let body = folded.trim_end_matches(|c: char| c.is_whitespace() || is_closing(c) || c == '.');
    let tail_start = body.rfind(|c: char| is_sentence_end(c)).map_or(0, |at| at + body[at..].chars().next().map_or(1, char::len_utf8));
    let tail = &body[tail_start..];
    let words = tail.split_whitespace().count();
    // A whole line without a sentence end: only its last words.
    let tail = if tail_start == 0 { last_words(tail, 6) } else { tail };
    (tail_start > 0 && words <= CREDIT_WORDS || tail_start == 0) && CLOSING_CREDITS.iter().any(|credit| holds_credit(tail, credit))
}

/// `tail` holds the credit mark where a word starts: "Beeld ANP", not
/// "bijvoorbeeld gevaar" ("for example"). Marks in CJK scripts (which a
/// Korean credit glues to the paper's name: "조선일보DB"), Thai, or that
/// open on a bracket or a slash, match anywhere.
fn holds_credit(tail: &str, credit: &str) -> bool {
    let spaced = credit.chars().next().is_some_and(|c| {
        c.is_alphabetic() && !crate::text::is_cjk_word_char(c) && !crate::text::is_phrase_spaced_letter(c)
    });
    tail.match_indices(credit).any(|(at, _)| !spaced || !tail[..at].chars().next_back().is_some_and(char::is_alphanumeric))
}

/// The last `n` whitespace-separated words of `text`.
fn last_words(text: &str, n: usize) -> &str {
    let mut start = text.len();
    for (count, (at, _)) in text.rmatch_indices(char::is_whitespace).enumerate() {
        if count + 1 >= n {
            break;
        }
        start = at;
    }
    if text.split_whitespace().count() <= n {
        text
    } else {
        &text[start..]
    }
}

/// "Tory MP Karen Vecchio says she will oppose the bid. (parl.gc.ca)": a
/// caption's credit in parentheses after its last sentence.
fn credit_after_sentence(text: &str) -> bool {
    let Some(body) = text.strip_suffix(')') else { return false };
    let Some((before, credit)) = body.rsplit_once('(') else { return false };
    let credit_words = credit.split_whitespace().count();
    let sentence_before = before.trim_end().chars().next_back().is_some_and(is_sentence_end);
    let sentence_inside = credit.trim_end().chars().next_back().is_some_and(is_sentence_end);
    sentence_before && !sentence_inside && (1..=5).contains(&credit_words)
}

/// "March 22, 2014 Armed men take cover…": a gallery's date glued to the
/// caption, with no punctuation between the year and the next word.
fn opens_with_bare_date(text: &str) -> bool {
    let words: Vec<&str> = text.splitn(5, ' ').collect();
    let [month, day, year, next, _] = words[..] else { return false };
    let day = day.strip_suffix(',').unwrap_or("");
    month_word(month)
        && month.starts_with(|c: char| c.is_uppercase())
        && day_number(day)
        && year.len() == 4
        && year.chars().all(|c| c.is_ascii_digit())
        && next.starts_with(|c: char| c.is_uppercase())
}

/// ", 22 avril 2015" / ", 17 November 2012" at the end of `body`.
fn dated_day_month_year(body: &str) -> bool {
    let Some((_, date)) = body.rsplit_once(", ") else { return false };
    let date = date.strip_prefix("on ").unwrap_or(date);
    let parts: Vec<&str> = date.split(' ').collect();
    let [day, month, year] = parts[..] else { return false };
    let day = day.trim_end_matches('.');
    day_number(day) && month_word(month) && year.len() == 4 && year.chars().all(|c| c.is_ascii_digit())
}

fn month_word(word: &str) -> bool {
    let letters = word.trim_end_matches('.');
    letters.chars().count() >= 3 && letters.chars().all(char::is_alphabetic)
}

fn day_number(word: &str) -> bool {
    (1..=2).contains(&word.len()) && word.chars().all(|c| c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use crate::segment::furniture::Reason;
    use crate::segment::furniture::tests::{page, prose};

    #[test]
    fn captions_in_sentence_form() {
        let lines = [
            "Menasha Police Chief Tim Styka, right, speaks during a press conference at the medical center.",
            "Police said the gunman had been known to them for years.",
            "Bundeskanzlerin Angela Merkel (links) spricht mit Präsident Emmanuel Macron (rechts) in Berlin.",
            "Le président Emmanuel Macron (à droite) accueille la chancelière à l'Élysée.",
            "The chief listens, Monday May 4, 2015, in Neenah, Wis.",
            "This undated photo provided by the family shows the boy at his home.",
            "FILE - In this Jan. 14, 2013 file photo, the actress poses for a portrait in New York.",
            "The investigation is expected to take several months.",
        ];
        let r = page(&lines);
        assert_eq!(prose(&lines), [lines[1], lines[7]]);
        assert_eq!(r[..5], [Some(Reason::Caption), None, Some(Reason::Caption), Some(Reason::Caption), Some(Reason::Caption)]);
        // Photo cues name the last two first.
        assert_eq!(r[5..7], [Some(Reason::PhotoCredit); 2]);
    }

    #[test]
    fn a_credit_mark_starts_a_word() {
        use super::ends_with_credit;
        assert!(ends_with_credit("agenten bij het station in utrecht. beeld anp"));
        assert!(ends_with_credit("finanzminister reinhard vogt am mittwoch im bundestag foto: jens körber / dpa"));
        assert!(ends_with_credit("시민들이 광장에 모여 있다. 조선일보db"));
        // "bijvoorbeeld" (for example) ends in "beeld" (picture).
        assert!(!ends_with_credit("het knmi geeft die waarschuwing af bij extreem weer, bijvoorbeeld gevaar voor mensenlevens"));
    }

    /// A sentence that opens by pointing at a picture or a video of the
    /// page is a caption in any language; one that only mentions pictures
    /// or videos is prose.
    #[test]
    fn sentences_that_point_at_the_pages_media() {
        let lines = [
            "El presidente anunció el martes un plan de reconstrucción para la ciudad.",
            "Este video de la7jpress muestra la hora del almuerzo en ambos campamentos, en la capital Sanaa.",
            "Cette vidéo, mise en ligne par un militant, montre des enfants qui parlent de leurs souffrances.",
            "En esta imagen, civiles y uniformados protestan contra el Gobierno.",
            "La primera parte del video muestra caminos sucios y paquetes de comida.",
            "In diesem Video, aufgenommen am Montag, sieht man die Demonstranten vor dem Parlament.",
            "This image shows the mummy of an ancient Egyptian man in his fifties.",
            "Otras fotos muestran los lemas y banderolas del régimen en toda la ciudad.",
            "The video, which shows several people holding guns, led investigators to the house.",
            "This year the festival drew more visitors than ever before.",
        ];
        let r = page(&lines);
        assert_eq!(prose(&lines), [lines[0], lines[7], lines[8], lines[9]]);
        assert!(r[1..7].iter().all(|reason| *reason == Some(Reason::Caption)), "{r:?}");
    }

    #[test]
    fn caption_credits_and_long_headlines() {
        let lines = [
            "Tory MP Karen Vecchio says she will oppose the bid to change the lyrics. (parl.gc.ca)",
            "L’hélicoptère Caïman de la Marine nationale a hélitreuillé les trois marins en pleine nuit (illustration).",
            "He left the room. (He came back an hour later, smiling.)",
            "Kim Kardashian's husband is dropped by her agent but couple put on a show of unity and their rings on night out",
            "The new standards will introduce climate change as a core aspect of science education for middle and high school students in twenty six states across the country starting next year and the year after that, according to the officials who wrote them over several years",
            "The party has not said how many of its members will vote against the proposal.",
            "Opponents of the change have collected more than ten thousand signatures online.",
        ];
        let r = page(&lines);
        assert_eq!(r, [Some(Reason::Caption), Some(Reason::Caption), None, Some(Reason::NoEnding), None, None, None]);
    }

    #[test]
    fn gallery_dates_and_question_labels() {
        let lines = [
            "March 22, 2014 Armed men take cover behind an armored vehicle near Sevastopol.",
            "Q: What do I do with the ticket?",
            "The winner has not come forward yet, lottery officials said on Monday.",
            "March 22 was the day the troops moved in, officials said.",
        ];
        let r = page(&lines);
        assert_eq!(r, [Some(Reason::Caption), Some(Reason::LabelPrefix), None, None]);
    }
}
