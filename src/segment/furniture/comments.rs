//! Readers' comments under an article.
//!
//! A page copied whole ends with its readers' comments: "Tu as raison.",
//! "La carte publiée par le figaro est totalement fausse.". Each is a
//! sentence, so no rule on one line catches it, and a summary would quote
//! a reader as the news. What gives a thread away is its company: it
//! comes after the article and the site's tools (share buttons, a comment
//! form, related headlines); readers write loosely, so among its lines are
//! some that start in lowercase or trail off in "...", which the rules on
//! one line have already marked; and they sign what they write ("Pere_BCN
//! …", "Isarpendler: …", "Nok Jaidee : …").
//!
//! So: the page's last stretch of lines, fenced off from the article by a
//! run of furniture, in which at least a third of the lines (and two or
//! more) are loose or signed, is a thread; its other sentences are
//! comments. The article above it must be the bigger part of the page's
//! prose, so an article whose own text is loose (a transcript, a poem) is
//! never taken for a thread.

use std::ops::Range;

use super::line::Line;
use super::page::{all_furniture, paragraphs};
use super::reason::Reason;

/// Furniture sentences in a row that fence a thread off from the article:
/// a comment form's notice and a share bar, a gallery's credits.
const MIN_FENCE_SENTENCES: usize = 3;
const MIN_LOOSE_LINES: usize = 2;

pub(super) fn comment_thread(lines: &[Line], reasons: &mut [Option<Reason>]) {
    let rows = paragraphs(lines);
    let Some(thread) = thread_rows(lines, &rows, reasons) else { return };
    let sentences = rows[thread.start].start..rows[thread.end - 1].end;
    let prose = |range: Range<usize>| reasons[range].iter().filter(|r| r.is_none()).count();
    if prose(0..sentences.start) <= prose(sentences.clone()) {
        return;
    }
    for reason in reasons[sentences].iter_mut().filter(|r| r.is_none()) {
        *reason = Some(Reason::ReaderComment);
    }
}

/// The rows of the page's last stretch before its foot, when a fence of
/// furniture stands above them and enough of them are loose.
fn thread_rows(lines: &[Line], rows: &[Range<usize>], reasons: &[Option<Reason>]) -> Option<Range<usize>> {
    let furniture = |row: &Range<usize>| all_furniture(reasons, row);
    let loose = |row: &Range<usize>| {
        // A headline led by its label ("Francia: descubren …") or a quoted
        // post is not a reader's signature.
        let opens_like_a_comment = matches!(reasons[row.start], None | Some(Reason::TitleCase | Reason::TooShort | Reason::ListEntry | Reason::LowercaseStart));
        // A signature on its own line, "Marco_Fi · 3 ore fa", "Bernard64 – le
        // 12/03/2026 à 08:17", "يقول Samir – Paris:", which the rules on one
        // line read as a heading, figures or a label.
        let signature_line = row.len() == 1
            && matches!(reasons[row.start], Some(Reason::NoEnding | Reason::Symbols | Reason::Colon | Reason::LowercaseStart))
            && signed_apart(lines[row.start].text);
        reasons[row.clone()].iter().any(|r| matches!(r, Some(Reason::LowercaseStart | Reason::CutOff)))
            || (opens_like_a_comment && signed_by_a_reader(lines, row))
            || signature_line
    };
    // The page's foot (a comment form's notice, a copyright) is not the thread.
    let end = rows.iter().rposition(|row| !furniture(row) || loose(row))? + 1;
    let (mut start, mut fence) = (end, 0);
    for k in (0..end).rev() {
        if furniture(&rows[k]) && !loose(&rows[k]) {
            fence += rows[k].len();
            if fence >= MIN_FENCE_SENTENCES {
                break;
            }
        } else {
            (start, fence) = (k, 0);
        }
    }
    let loose_rows = rows[start..end].iter().filter(|row| loose(row)).count();
    let fenced = fence >= MIN_FENCE_SENTENCES;
    (fenced && loose_rows >= MIN_LOOSE_LINES && 3 * loose_rows >= end - start).then_some(start..end)
}

/// Longest user name before the comment it signs, in words.
const MAX_NAME_WORDS: usize = 3;

/// A comment signed by its reader: a user name ("Jean-Yves22", "Pere_BCN",
/// "montse.g"), or a name of up to three words and then a colon or a
/// separator ("Isarpendler: 360 Euro …", "M. Weber: Endlich.", "Nok Jaidee
/// : …", "Javier M. · Por fin …").
fn signed_by_a_reader(lines: &[Line], row: &Range<usize>) -> bool {
    if listed(lines[row.start].text) {
        return false;
    }
    // The row's first words, across its sentences ("Javier M." · "Por fin …").
    let tokens: Vec<&str> = lines[row.clone()].iter().flat_map(|l| l.text.split_whitespace()).take(MAX_NAME_WORDS + 1).collect();
    let Some(first) = tokens.first() else { return false };
    if user_name(first) {
        return true;
    }
    for n in 1..=MAX_NAME_WORDS.min(tokens.len() - 1) {
        let last = tokens[n - 1];
        if let Some(word) = last.strip_suffix(':') {
            return tokens[..n - 1].iter().all(|w| name_word(w)) && name_word(word);
        }
        if !name_word(last) {
            return false;
        }
        if matches!(tokens[n], ":" | "·" | "-" | "–" | "—" | "|") {
            return true;
        }
    }
    false
}

/// Three items or more set apart by the same mark: a list of tags or a
/// menu ("Москва · Транспорт · Электросамокаты"), where a signature has one
/// name and one mark.
fn listed(text: &str) -> bool {
    [" · ", " | "].iter().any(|mark| text.matches(mark).count() >= 2)
}

/// Arabic comment forms print the verb "says" before the reader's name:
/// "يقول أبو يزن – الزرقاء:", "تقول د. فاطمة النعيمي – باريس:".
const SAYS_BEFORE_NAME: [&str; 2] = ["يقول ", "تقول "];

/// A reader's name, then a middle dot or a dash and what the site adds
/// (the time, the reader's town): "Marco_Fi · 3 ore fa", "Lucia R. · 1 ora
/// fa", "Claire_D – le 12/03/2026 à 09:03"; or a user name and the time
/// alone, "bluesky**** 2026.05.12 09:41". A headline led by its label has a
/// colon, not these.
fn signed_apart(text: &str) -> bool {
    const SEPARATORS: [&str; 4] = [" · ", " – ", " — ", " | "];
    let Some(name) = SEPARATORS.iter().filter_map(|s| text.split_once(s)).map(|(name, _)| name).min_by_key(|name| name.len()) else {
        return timed_user_name(text);
    };
    let name = SAYS_BEFORE_NAME.iter().find_map(|says| name.strip_prefix(says)).unwrap_or(name);
    let words: Vec<&str> = name.split_whitespace().collect();
    (words.len() == 1 && user_name(words[0])) || ((1..=MAX_NAME_WORDS).contains(&words.len()) && words.iter().all(|w| name_word(w)))
}

/// "jmk7**** 2026.05.12 08:57": a user name, then only the date and time.
fn timed_user_name(text: &str) -> bool {
    let Some((name, time)) = text.split_once(' ') else { return false };
    user_name(name) && time.chars().any(|c| c.is_ascii_digit()) && !time.chars().any(char::is_alphabetic)
}

/// A word of a name: it does not start in lowercase, and ends in no
/// punctuation unless it is an initial ("M.").
fn name_word(word: &str) -> bool {
    let starts = word.chars().next().is_some_and(|c| c.is_alphabetic() && !crate::text::is_lowercase(c));
    let initial = word.chars().count() == 2 && word.ends_with('.');
    starts && (initial || !word.ends_with(['.', '!', '?', ',', ';', ':']))
}

/// A forum's user name: "Pere_BCN", "Giorgio_56", "Jean-Yves22" (letters,
/// then digits), "montse.g" (lowercase words joined by a dot), "bluesky****"
/// (masked by the site, as Korean sites do).
fn user_name(token: &str) -> bool {
    let word = token.trim_end_matches([':', '·']);
    let masked = {
        let shown = word.trim_end_matches('*');
        word.len() - shown.len() >= 3 && !shown.is_empty() && shown.chars().all(|c| c.is_ascii_alphanumeric())
    };
    if masked {
        return true;
    }
    let letters_then_digits = {
        let digits = word.chars().rev().take_while(char::is_ascii_digit).count();
        let letters = word.chars().filter(|c| c.is_alphabetic()).count();
        // "COVID-19" numbers its name after a hyphen; a user name runs on.
        let runs_on = word.chars().rev().nth(digits).is_some_and(char::is_alphabetic);
        digits >= 2 && letters >= 3 && runs_on && !word.contains(['/', '.'])
    };
    // Two parts only: "www.lemonde.fr" is an address.
    let parts: Vec<&str> = word.split('.').collect();
    let dotted = parts.len() == 2 && parts.iter().all(|part| !part.is_empty() && part.chars().all(crate::text::is_lowercase));
    (word.contains('_') && word.chars().any(char::is_alphabetic)) || letters_then_digits || dotted
}

#[cfg(test)]
mod tests {
    use crate::segment::furniture::tests::paragraphs_of;
    use crate::segment::furniture::Reason;

    const ARTICLE: [&str; 5] = [
        "Les troupes du colonel Kadhafi ont échoué, dimanche, à reprendre les places fortes de la rébellion.",
        "Sur le front Est à Brega, des échanges d'artillerie ont eu lieu, a constaté un journaliste.",
        "La visite a eu lieu mardi, selon la télévision d'Etat.",
        "Le régime avait démenti ces informations, qualifiées de mensonges.",
        "L'Union africaine a tenté plusieurs médiations entre le régime et les rebelles.",
    ];

    const SHARE_BAR: [&str; 4] = ["Agrandir le texte", "Réduire le texte", "Ajouter aux favoris", "Envoyer par email"];

    /// Where the tail starts: after the article and its share bar.
    const TAIL: usize = ARTICLE.len() + SHARE_BAR.len();

    /// The reasons of an article, its share bar, then `tail`'s paragraphs.
    fn under_the_share_bar(tail: &[&[&str]]) -> Vec<Option<Reason>> {
        let mut page: Vec<&[&str]> = ARTICLE.iter().chain(&SHARE_BAR).map(std::slice::from_ref).collect();
        page.extend_from_slice(tail);
        let r = paragraphs_of(&page);
        assert!(r[..ARTICLE.len()].iter().all(Option::is_none), "{r:?}");
        r
    }

    fn no_comment(r: &[Option<Reason>]) -> bool {
        r.iter().all(|x| *x != Some(Reason::ReaderComment))
    }

    #[test]
    fn a_thread_under_the_share_bar_is_comments() {
        let r = under_the_share_bar(&[
            &["Tu as raison.", "Avec ces pays, on ne peut jamais savoir qui dit vrai."],
            &["vous avez raison de vous méfier..."],
            &["La carte publiée par le journal est totalement fausse."],
            &["mon commentaire était ironique !"],
        ]);
        assert_eq!(r[TAIL..TAIL + 2], [Some(Reason::ReaderComment); 2]);
        assert_eq!(r[TAIL + 3], Some(Reason::ReaderComment));
    }

    #[test]
    fn readers_sign_their_comments() {
        let r = under_the_share_bar(&[
            &["Isarpendler: 360 Euro für einen Parkplatz, den ich eh nie finde.", "Großartig."],
            &["M. Weber: Endlich."],
            &["Jean-Yves22 · Encore une fois ce sont les ouvriers qui paient."],
        ]);
        assert_eq!(r[TAIL..TAIL + 2], [Some(Reason::ReaderComment); 2], "{r:?}");
        assert_eq!(r[TAIL + 3], Some(Reason::ReaderComment), "{r:?}");
        // Other stories' headlines, each led by its label, are no signatures.
        let r = under_the_share_bar(&[
            &["Francia: descubren una fiesta clandestina con 400 invitados"],
            &["Los vecinos avisaron a la policía pasada la medianoche."],
            &["Islandia: dimite el seleccionador tras quedar fuera de la Eurocopa"],
        ]);
        assert!(no_comment(&r), "{r:?}");
    }

    #[test]
    fn signatures_dated_after_a_dash_or_masked_sign_comments_too() {
        for (first, second) in [("Bernard64 – le 12/03/2026 à 08:17", "Claire_D – le 12/03/2026 à 09:03"), ("bluesky**** 2026.05.12 09:41", "jmk7**** 2026.05.12 08:57")] {
            let r = under_the_share_bar(&[
                &[first],
                &["Enfin quelqu'un qui dit tout haut ce que tout le monde pense.", "Ma mairie est déjà fermée le vendredi."],
                &[second],
                &["Je suis agente dans une DDT et je suis passée aux quatre jours il y a un an."],
            ]);
            assert_eq!(r[TAIL + 1..TAIL + 3], [Some(Reason::ReaderComment); 2], "{r:?}");
            assert_eq!(r[TAIL + 4], Some(Reason::ReaderComment), "{r:?}");
        }
    }

    #[test]
    fn a_signature_on_its_own_line_signs_the_comment_below() {
        let r = paragraphs_of(&[
            &["Il decreto approvato giovedì dal Consiglio dei ministri riapre i termini per sanare gli abusi edilizi."],
            &["Secondo le stime del governo, le domande potrebbero essere più di trecentomila in tutta Italia."],
            &["I geologi hanno chiesto di escludere le aree a pericolosità idraulica elevata.", "Il governo ha risposto di no."],
            &["Il decreto ora passa alle Camere, che hanno sessanta giorni per convertirlo."],
            &["Commenti (214)"],
            &["Per commentare devi essere registrato.", "Accedi o registrati"],
            &["Marco_Fi · 3 ore fa"],
            &["Ho una casa in zona agricola con un portico mai dichiarato.", "Ora lo sanerò e buonanotte."],
            &["Lucia R. · 1 ora fa"],
            &["Sempre la stessa storia, dal 1985.", "Cambiano i governi, i condoni restano."],
        ]);
        assert!(r[..5].iter().all(Option::is_none), "{r:?}");
        // The first reads as a teaser under its "headline" already.
        assert!(r[9..11].iter().all(Option::is_some), "{r:?}");
        assert_eq!(r[12..14], [Some(Reason::ReaderComment); 2], "{r:?}");
    }

    #[test]
    fn arabic_forms_sign_with_says_and_tags_are_no_signature() {
        let comments: [&[&str]; 4] = [
            &["يقول أبو يزن – الزرقاء:"],
            &["والله يا أستاذ كأنك تكتب عن شارعنا.", "عندنا الماء يوم السبت فقط."],
            &["تقول د. فاطمة النعيمي – باريس:"],
            &["مقال مهم، لكني أختلف معك في نقطة الزراعة."],
        ];
        let r = under_the_share_bar(&comments);
        assert_eq!(r[TAIL + 1..TAIL + 3], [Some(Reason::ReaderComment); 2], "{r:?}");
        assert_eq!(r[TAIL + 4], Some(Reason::ReaderComment), "{r:?}");
        // A line of tags between the article and its comment count is the
        // site's, and fences the thread off (it is no reader signing).
        let r = paragraphs_of(&[
            &["Мосгордума приняла в первом чтении закон о запрете электросамокатов в центре города."],
            &["По данным мэрии, за год в авариях с самокатами пострадали более двух тысяч человек."],
            &["Второе чтение назначено на апрель.", "Время еще есть."],
            &["Москва · Транспорт · Электросамокаты · Мосгордума"],
            &["Комментарии (87)"],
            &["Чтобы оставить комментарий, войдите или зарегистрируйтесь."],
            &["Сергей_М · 22.03.2026, 11:02"],
            &["Автор явно не ходит пешком по Тверской.", "Меня дважды чуть не сбили."],
            &["nataly.k · 22.03.2026, 11:40"],
            &["Запрещать — это проще всего."],
        ]);
        assert!(r[..4].iter().all(Option::is_none), "{r:?}");
        assert_eq!([r[8], r[9], r[11]], [Some(Reason::ReaderComment); 3], "{r:?}");
        assert!(super::listed("Москва · Транспорт · Электросамокаты") && !super::listed("Сергей_М · 22.03.2026, 11:02"));
    }

    #[test]
    fn user_names_and_signatures() {
        for name in ["Pere_BCN", "Giorgio_56", "Jean-Yves22", "montse.g"] {
            assert!(super::user_name(name), "{name}");
        }
        for word in ["COVID-19", "G7", "Lyon", "m.in.", "2025", "www.lemonde.fr"] {
            assert!(!super::user_name(word), "{word}");
        }
    }

    #[test]
    fn an_article_that_goes_on_below_its_tools_keeps_its_prose() {
        // One loose line is not a thread: the text below the bar is the article's.
        let r = under_the_share_bar(&[
            &["Le gouvernement a annoncé un nouveau plan pour les hôpitaux."],
            &["et ce n'est pas tout..."],
            &["Les syndicats ont salué une avancée, mais attendent les détails."],
            &["Le texte sera présenté au Parlement en janvier."],
        ]);
        assert!(no_comment(&r), "{r:?}");
    }

    #[test]
    fn a_loose_page_without_a_fence_is_not_a_thread() {
        let r = paragraphs_of(&[
            &["Tu as raison."],
            &["vous avez raison de vous méfier..."],
            &["La carte publiée par le journal est totalement fausse."],
            &["mon commentaire était ironique !"],
        ]);
        assert!(no_comment(&r), "{r:?}");
    }
}
