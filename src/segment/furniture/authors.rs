//! The author's lines: the byline that names the writer near the top of
//! the page, and the notes about the writer that start with that name
//! ("Claire Dumesnil est sage-femme depuis vingt-deux ans …" under "Par
//! Claire Dumesnil"; "ธนากร ศรีสวัสดิ์ เป็นนักวิจัยด้านประชากรศาสตร์" at the end
//! of a page signed "โดย ธนากร ศรีสวัสดิ์"). A story seldom opens a
//! paragraph with the name of the person who wrote it, so the name read
//! off the byline marks the bio in any language and script.

use super::line::{Features, Line};
use super::page::{name_unnamed, paragraphs, words_in};
use super::reason::Reason;

/// Words that open a byline, lowercase, with their space.
const BYLINE_WORDS: &[&str] = &[
    "by ", "par ", "animé par ", "animée par ", "por ", "texto de ", "reportagem de ", "von ", "door ", "di ", "przez ", "autor: ",
    "autorka: ", "автор: ", "yazan: ", "โดย ",
];

/// Byline words that may also stand inside the line, after a column's name
/// ("คอลัมน์ มองเมือง โดย ศิริพร วงศ์ทองดี", a French live blog's "Live animé
/// par Camille Roussel"); elsewhere "by" and "di" inside a heading are no
/// byline ("Killed by Police Officer").
const INNER_BYLINE_WORDS: &[&str] = &["โดย ", "animé par ", "animée par "];

/// How far down the page a byline may stand, in paragraphs.
const BYLINE_PARAGRAPHS: usize = 8;
/// Longest note about the author, in words.
const NOTE_WORDS: f32 = 60.0;

/// The writer's name in a byline: "Par Claire Dumesnil", "คอลัมน์ มองเมือง
/// โดย ศิริพร วงศ์ทองดี", "Joanna Krawczyk, nauczycielka matematyki", or a bare
/// name beside the date ("Agnieszka Sowińska" over "12 marca 2025").
fn byline_name<'a>(line: &Line<'a>, reason: Option<Reason>, beside_date: bool) -> Option<&'a str> {
    let text = line.text.trim();
    let lower = text.to_lowercase();
    // The name after the last byline word ("… โดย ศิริพร วงศ์ทองดี").
    let after_word = BYLINE_WORDS
        .iter()
        .filter_map(|w| {
            let inner = || INNER_BYLINE_WORDS.contains(w).then(|| lower.find(&format!(" {w}")).map(|i| i + 1)).flatten();
            let at = if lower.starts_with(w) { Some(0) } else { inner() };
            at.map(|i| i + w.len())
        })
        .max();
    let (name, cue) = match after_word {
        // Byte offsets of the lowercase text hold in the original when
        // lowercasing kept every letter's length; check before slicing.
        Some(i) if lower.len() == text.len() && text.is_char_boundary(i) => (&text[i..], true),
        _ => (text, false),
    };
    let end = name.find([',', '·', '|', '/', '(', '–', '—']).unwrap_or(name.len());
    let rest = &name[end..];
    let name = name[..end].trim().trim_end_matches(" -").trim();
    if !names_alone(name) {
        return None;
    }
    // Without a byline word, a name is a byline only beside the date, or
    // followed by the writer's role in lowercase ("Joanna Krawczyk,
    // nauczycielka matematyki"): a lone name is as often a heading.
    let role = rest.trim_start_matches([',', '–', '—', ' ']).starts_with(crate::text::is_lowercase);
    let bylined = matches!(reason, Some(Reason::Credit | Reason::TooShort | Reason::TitleCase | Reason::NoEnding));
    (bylined && (cue || beside_date || role)).then_some(name)
}

/// One name or several joined by "and" ("Helena Quaresma Vilar e Rui
/// Sampaio Teles", "Anna Kowalska i Piotr Nowak").
fn names_alone(text: &str) -> bool {
    const JOINERS: [&str; 9] = [" and ", " & ", " e ", " y ", " et ", " und ", " en ", " i ", " и "];
    let mut names = vec![text];
    for joiner in JOINERS {
        names = names.iter().flat_map(|n| n.split(joiner)).collect();
    }
    names.iter().all(|n| looks_like_a_name(n.trim()))
}

/// Two to four words, the first and last capitalized (or of a script
/// without case), with particles between ("Marieke de Groot").
fn looks_like_a_name(name: &str) -> bool {
    let words: Vec<&str> = name.split_whitespace().collect();
    let named = |w: &str| w.chars().next().is_some_and(|c| c.is_uppercase() || (c.is_alphabetic() && !crate::text::is_lowercase(c)));
    // Thai tone marks and Latin accents typed apart are marks, not letters.
    let mark = |c: char| ('\u{0300}'..='\u{036F}').contains(&c) || ('\u{0E00}'..='\u{0E7F}').contains(&c);
    let lettered = |w: &str| w.chars().all(|c| (c.is_alphabetic() || mark(c) || matches!(c, '-' | '\'' | '’' | '.')) && !c.is_numeric());
    (2..=4).contains(&words.len())
        && words.iter().all(|w| lettered(w))
        && named(words[0])
        && named(words[words.len() - 1])
        && name.chars().filter(|c| c.is_alphabetic()).count() >= 5
}

/// A name with the writer's role after it, the byline form that ends no
/// sentence: "Joanna Krawczyk, nauczycielka matematyki, publicystka".
pub(super) fn name_with_role(line: &Line) -> bool {
    byline_name(line, Some(Reason::NoEnding), false).is_some()
}

/// Marks as the author's notes the short paragraphs below the byline that
/// start with the writer's name.
pub(super) fn author_notes(lines: &[Line], features: &[Features], reasons: &mut [Option<Reason>]) {
    let paragraphs = paragraphs(lines);
    let is_date = |k: usize| paragraphs.get(k).is_some_and(|p| matches!(reasons[p.start], Some(Reason::Stamp | Reason::Symbols)));
    let bylines: Vec<(usize, &str, bool)> = paragraphs
        .iter()
        .take(BYLINE_PARAGRAPHS)
        .enumerate()
        .filter_map(|(k, p)| {
            let beside_date = is_date(k + 1) || (k > 0 && is_date(k - 1));
            (p.len() == 1).then(|| byline_name(&lines[p.start], reasons[p.start], beside_date)).flatten().map(|name| (k, name, beside_date))
        })
        .collect();
    // The name beside the date is the writer's: a profile's headline names
    // its subject with a role too ("Itziar Olabarria, la arquitecta que …"),
    // and the story's first paragraph opens with that name.
    let Some(&(at, name, _)) = bylines.iter().find(|b| b.2).or(bylines.first()) else { return };
    for p in &paragraphs[at + 1..] {
        let words = words_in(features, p);
        let text = lines[p.start].text;
        let opens = text.strip_prefix(name).is_some_and(|rest| rest.starts_with(|c: char| !c.is_alphanumeric()));
        if opens && p.len() <= 3 && words <= NOTE_WORDS {
            name_unnamed(&mut reasons[p.clone()], Reason::Credit);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::segment::furniture::tests::page;
    use crate::segment::furniture::Reason;

    #[test]
    fn notes_that_start_with_the_bylines_name() {
        let r = page(&[
            "« Fermer nos petites maternités, c’est dire aux femmes qu’elles comptent moins »",
            "Par Claire Dumesnil",
            "Publié le 12 mars 2026 à 17:05",
            "Claire Dumesnil est sage-femme depuis vingt-deux ans et conseillère départementale de la Creuse.",
            "Il est 3 heures du matin lorsque Léa, 29 ans, ressent ses premières contractions.",
            "Elle habite à quarante minutes de la maternité la plus proche, sur une route de montagne.",
            "Claire Dumesnil a reçu le prix de la meilleure tribune en 2024.",
        ]);
        assert_eq!(r[3], Some(Reason::Credit));
        assert_eq!(r[4..6], [None, None]);
        assert_eq!(r[6], Some(Reason::Credit));
    }

    #[test]
    fn a_deck_above_a_byline_of_two_names() {
        let r = page(&[
            "Algarve vai ter segunda dessalinizadora e agricultores perdem 15% da água de rega",
            "Conselho de Ministros aprovou pacote de 310 milhões de euros para a região.",
            "Texto de Helena Quaresma Vilar e Rui Sampaio Teles",
            "5 de Março de 2026, 18:42",
            "O Algarve vai ter uma segunda central de dessalinização, a construir em Lagos, anunciou o Governo.",
            "A nova dessalinizadora deverá entrar em funcionamento no final de 2029.",
        ]);
        assert_eq!(r[1], Some(Reason::HeadlineBlock), "{r:?}");
        assert!(r[2].is_some() && r[3].is_some(), "{r:?}");
        assert_eq!(r[4..], [None, None], "{r:?}");
    }

    #[test]
    fn a_live_blogs_hosts_and_stamp_close_its_deck() {
        let r = page(&[
            "En direct, budget 2027 : le gouvernement engage sa responsabilité sur la partie « recettes »",
            "Le premier ministre a annoncé mardi après-midi le recours à l’article 49.3 de la Constitution.",
            "Live animé par Camille Roussel, Julien Marchetti et Inès Barraud",
            "Publié aujourd’hui à 07h01, modifié à 18h34",
            "Comme attendu, La France insoumise a déposé, avec les écologistes et les communistes, une motion de censure.",
            "Elle a recueilli 121 signatures, et le vote doit avoir lieu jeudi dans l'après-midi.",
        ]);
        assert_eq!(r[1], Some(Reason::HeadlineBlock), "{r:?}");
        assert_eq!(r[3], Some(Reason::Stamp), "{r:?}");
        assert_eq!(r[4..], [None, None]);
    }

    #[test]
    fn a_profiles_subject_is_no_byline() {
        // The headline names the subject with a role; the writer stands
        // beside the date, and the story opens with the subject's name.
        let r = page(&[
            "Itziar Olabarria, la arquitecta que devolvió la ría a Bilbao",
            "Ane Urrutikoetxea",
            "Bilbao - 12 mar 2026 - 05:30 CET",
            "Itziar Olabarria solía decir que una ciudad se mide por lo que deja hacer a quienes no tienen dinero.",
            "Murió el martes en su casa de Getxo, rodeada de libros y de planos que nunca quiso tirar.",
        ]);
        assert_eq!(r[3..], [None, None], "{r:?}");
    }

    #[test]
    fn a_deck_between_the_date_and_the_byline() {
        let r = page(&[
            "Busse und Bahnen stehen in vielen Städten still",
            "Stand: 17.02.2026 18:04 Uhr",
            "In sieben Bundesländern hat ver.di zu Warnstreiks aufgerufen. Die Arbeitgeber sprechen von Eskalation.",
            "Von Lena Hartmann, SWR",
            "Pendlerinnen und Pendler in weiten Teilen Deutschlands müssen sich zum Ende der Woche auf Ausfälle einstellen.",
            "Die Gewerkschaft rief die Beschäftigten kommunaler Verkehrsbetriebe zu ganztägigen Streiks auf.",
        ]);
        assert_eq!(r[2], Some(Reason::HeadlineBlock), "{r:?}");
        assert_eq!(r[4..], [None, None], "{r:?}");
        // Under the date, a lead that a photo's credit follows stays the lead.
        let r = page(&[
            "Busse und Bahnen stehen in vielen Städten still",
            "Stand: 17.02.2026 18:04 Uhr",
            "In sieben Bundesländern hat ver.di zu Warnstreiks aufgerufen, und die Arbeitgeber sprechen von Eskalation.",
            "Foto: dpa",
            "Pendlerinnen und Pendler in weiten Teilen Deutschlands müssen sich zum Ende der Woche auf Ausfälle einstellen.",
        ]);
        assert_eq!(r[2], None, "{r:?}");
    }

    #[test]
    fn a_lone_name_is_no_byline_and_prose_about_a_person_stays() {
        // A heading that is a name, then a story about that person.
        let r = page(&[
            "Angela Merkel",
            "Angela Merkel sprach am Dienstag vor dem Bundestag über die Lage in der Ukraine.",
            "Die Abgeordneten hörten ihr eine Stunde lang zu und stellten danach viele Fragen.",
        ]);
        assert_eq!(r[1..], [None, None]);
        // Thai: the byline word in a column's line, the bio at the end.
        let r = page(&[
            "คอลัมน์ มองเมือง โดย ศิริพร วงศ์ทองดี",
            "ข้อเสนอเก็บค่าธรรมเนียมรถติดในเขตกรุงเทพฯ ชั้นใน วันละ 40-50 บาท กลับมาเป็นประเด็นร้อนอีกครั้งหลังจากกระทรวงคมนาคมเปิดรับฟังความคิดเห็น",
            "ศิริพร วงศ์ทองดี เป็นนักวิจัยด้านนโยบายขนส่งเมือง",
        ]);
        assert_eq!(r[1], None);
        assert_eq!(r[2], Some(Reason::Credit));
    }
}
