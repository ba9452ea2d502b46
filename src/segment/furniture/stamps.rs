//! Times and dates that make a line furniture: posted or updated stamps,
//! live-blog entries led by their time, chronology entries led by their
//! date.

use super::line::{Features, Line};
use super::reason::Reason;
use crate::dates::{self, CivilDate, MentionKind};
use crate::segment::lead_label::is_entry_time;

/// "Miércoles, 12 de noviembre 2025, 08:10 | Actualizado 14:05h.",
/// "2025年05月19日 21:58 新浪体育", "06.03.2025 - 14:05 | Son Güncelleme":
/// a clock time in a short line that is mostly numbers (a date, a time)
/// or split by a bar: a posted or updated stamp in any language. ("A las
/// 08:10 del 12 de noviembre el río se desbordó." has words enough.)
pub(super) fn dated_stamp(text: &str, f: &Features) -> bool {
    const MAX_STAMP_WORDS: f32 = 14.0;
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let numbered = tokens.iter().filter(|t| t.chars().any(|c| c.is_ascii_digit())).count();
    // Two digits each side, not the tail of a longer figure ("报3412.58点").
    let bytes = text.as_bytes();
    let digit_at = |i: usize| bytes.get(i).is_some_and(u8::is_ascii_digit);
    let clock = bytes.windows(5).enumerate().any(|(i, w)| {
        w[0].is_ascii_digit()
            && w[1].is_ascii_digit()
            && matches!(w[2], b':' | b'.' | b'h')
            && w[3].is_ascii_digit()
            && w[4].is_ascii_digit()
            && !(i > 0 && digit_at(i - 1))
            && !digit_at(i + 5)
    }) || cjk_clock(text);
    // Counted by tokens only where words are spaced.
    let spaced = !f.spaceless && tokens.len() as f32 >= 0.7 * f.words;
    let mostly_numbers = spaced && numbered as f32 >= 0.4 * tokens.len() as f32;
    // "Page name · 14 มกราคม เวลา 15:20 น.": a post's name and date; a
    // live blog's "14.05 | La policía cerró la plaza …" is an entry.
    const MAX_SEPARATED_WORDS: f32 = 10.0;
    let separated = (text.contains(" | ") || text.contains(" · ")) && f.words <= MAX_SEPARATED_WORDS;
    clock && f.words <= MAX_STAMP_WORDS && (mostly_numbers || separated || f.digits * 2 >= f.letters)
}

/// "24 เมษายน 2025", "วันพุธที่ 17 ธันวาคม", "5 ต.ค. 2568 เวลา 15:48 น.",
/// "Monday, March 14, 2011", "14 mars 2011 à 17h05": a short line that is
/// only a date naming its day (maybe with its weekday and time), which
/// pages print under the byline (on a line of its own, or cut from its
/// time by the splitter; "Dimanche 19 décembre 2010." opening a paragraph
/// is the story's). The date is read by `dates` in every
/// language it knows (Thai with its Buddhist-era years); a time and its
/// words may stand beside it.
pub(super) fn bare_date(text: &str, f: &Features) -> bool {
    const MAX_DATE_WORDS: f32 = 10.0;
    if f.words > MAX_DATE_WORDS || f.digits == 0 {
        return false;
    }
    let mentions = date_spans(text);
    let names_a_day = |m: &dates::DateMention| m.kind == MentionKind::Absolute && m.granularity == dates::Granularity::Day;
    if !mentions.iter().any(names_a_day) {
        return false;
    }
    let mut rest = String::new();
    let mut at = 0;
    for mention in &mentions {
        rest.push_str(&text[at..mention.start]);
        rest.push(' ');
        at = mention.end;
    }
    rest.push_str(&text[at..]);
    rest.split_whitespace().all(time_or_its_words)
}

/// Words that may stand beside a date in a stamp: "วันที่" (the date
/// of), "เวลา" (at), "น." (o'clock), "at", "à", "um", "alle", "às", "a
/// las", "om", "Uhr", "a.m." …
const WORDS_BESIDE_A_DATE: &[&str] = &[
    "วันที่", "เวลา", "น", "at", "on", "à", "le", "um", "uhr", "alle", "às", "a", "las", "om", "de", "del", "am", "pm", "a.m", "p.m",
];

/// A token of a stamp that is no date: a clock time ("15:48", "17h05",
/// "15.30"), punctuation, or one of [`WORDS_BESIDE_A_DATE`].
fn time_or_its_words(token: &str) -> bool {
    let bare = token.trim_matches(|c: char| c.is_ascii_punctuation() || "–—|·()".contains(c));
    let clock = bare.chars().any(|c| c.is_ascii_digit()) && bare.chars().all(|c| c.is_ascii_digit() || matches!(c, ':' | '.' | 'h'));
    bare.is_empty() || clock || WORDS_BESIDE_A_DATE.contains(&bare.to_lowercase().as_str())
}

/// "21時32分", "10时15分": a clock time written in CJK.
fn cjk_clock(text: &str) -> bool {
    let chars: Vec<char> = text.chars().collect();
    chars.windows(3).enumerate().any(|(i, w)| {
        w[0].is_ascii_digit() && matches!(w[1], '時' | '时') && w[2].is_ascii_digit() && chars[i + 2..].iter().take(3).any(|&c| c == '分')
    })
}

/// "2:44 p.m.", "Update 11:32 a.m.": a clock time in a line of at most
/// four words.
pub(super) fn clock_stamp(text: &str, f: &Features) -> bool {
    let chars: Vec<char> = text.chars().collect();
    // "Авария произошла около 3:40." says what happened when, and so does
    // "აქცია 12:00 საათზე დაიწყება." in a script without capitals, where
    // a label has one long word at most ("آخر تحديث 12:30").
    let says_what_happened = f.long_lowercase_words > 0 || long_caseless_words(text) >= 2;
    f.words <= 4.0 && !says_what_happened && chars.windows(3).any(|w| w[0].is_ascii_digit() && w[1] == ':' && w[2].is_ascii_digit())
}

/// Words of four letters or more in a script without capitals (Arabic,
/// Hebrew, Georgian, Amharic, Devanagari, …).
fn long_caseless_words(text: &str) -> usize {
    text.split_whitespace().filter(|w| w.chars().filter(|&c| crate::text::is_caseless_letter(c)).count() >= 4).count()
}

/// "22h50 : Le Conseil de sécurité …", "19H46 - Entraide - …", "10:32 a.m.
/// — …", "22 h 30 : …": a clock time (hours, then 'h', ':' or '.', then two
/// digits; maybe "a.m." or a zone), then a colon, a dash or a bar: a live
/// blog's entry. ("12.50 dollars" or "2012: La guerra" have no such time and
/// mark. "Update 11:10 a.m.: Not to be outdone, …" is left alone: the
/// fixture's labeller read it as prose, the summary judges as junk.)
pub(super) fn opens_with_time(text: &str) -> bool {
    let hours = text.chars().take_while(char::is_ascii_digit).count();
    let Some(rest) = text.get(hours..) else { return false };
    // French spaces the hour mark: "22 h 30".
    let spaced_mark = rest.strip_prefix(' ').filter(|r| r.starts_with(['h', 'H']) && r[1..].trim_start().starts_with(|c: char| c.is_ascii_digit()));
    let rest = spaced_mark.unwrap_or(rest);
    if on_the_hour(rest) {
        return (1..=2).contains(&hours);
    }
    let mut chars = rest.chars();
    let marked = matches!(chars.next(), Some('h' | 'H' | ':' | '.'));
    if spaced_mark.is_some() {
        chars = chars.as_str().trim_start().chars();
    }
    let minutes: String = chars.by_ref().take(2).collect();
    if !(1..=2).contains(&hours) || !marked || minutes.len() != 2 || !minutes.chars().all(|c| c.is_ascii_digit()) {
        return false;
    }
    let after = chars.as_str().trim_start();
    let word_end = after.find(|c: char| !(c.is_alphabetic() || c == '.')).unwrap_or(after.len());
    let after = match after[..word_end].to_lowercase().as_str() {
        "a.m." | "p.m." | "am" | "pm" | "gmt" | "utc" | "h" | "hs" | "uhr" | "heures" | "horas" => after[word_end..].trim_start(),
        _ => after,
    };
    let mut rest = after.chars();
    matches!(rest.next(), Some(':' | '-' | '–' | '—' | '|')) && rest.next().is_some_and(char::is_whitespace)
}

/// A live entry's title, which the splitter leaves as the sentence after
/// the entry's time, on the same line: "13h35 : Nice aussi. L'aéroport …",
/// "14:30 Carreteras cortadas. La DGT mantiene …", "18:10 Okullar tatil.
/// Bursa Valiliği …". Two words at most, closed by a period, with the
/// entry's text after it. A question or an exclamation there is the
/// entry's own ("Boa tarde!", "¿Cuántos vecinos han sido desalojados?"),
/// and so is a quote or a figure ("11,70 mètres."). At three words, titles
/// ("Desalojo de Acebo.") and statements that open an entry ("Ve karar
/// geldi.", "Нээлтийн ёслол өндөрлөлөө.") read alike, and are left to the
/// other rules (neither is a summary line: `too_short`).
pub(super) fn entry_titles(lines: &[Line], features: &[Features], reasons: &mut [Option<Reason>]) {
    const MAX_TITLE_WORDS: f32 = 2.0;
    for i in 1..lines.len() {
        let f = &features[i];
        // A quote opened there runs on into the entry: "«Lo hemos logrado. No puedo creer …»".
        let quote = lines[i].text.starts_with(['"', '“', '«', '„', '‘']);
        let title = f.words <= MAX_TITLE_WORDS && f.digits == 0 && f.last_mark == Some('.') && !quote && !lines[i].ends_line;
        if !title || !matches!(reasons[i], None | Some(Reason::TooShort)) {
            continue;
        }
        // Read last, as only a title's neighbour needs the time pattern run on it.
        let opens_line = i == 1 || lines[i - 2].ends_line;
        if opens_line && !lines[i - 1].ends_line && is_entry_time(lines[i - 1].text) {
            reasons[i] = Some(Reason::TimedEntry);
        }
    }
}

/// "15 marzo: Primeras protestas …", "16 de enero: …", "14 mars : …",
/// "1948: Una coalición …", "March 14, 2011: …", and with a dash, as
/// Spanish timelines write them, "1999 – Bashar al Assad se convierte …",
/// "23.03.2011.- Al menos 15 civiles …": an entry of a chronology, led by
/// its date, which alone in a summary is a list item (all fourteen such
/// lines judged so far are junk). The date is read by `dates` in every
/// language it knows.
pub(super) fn chronology_entry(text: &str) -> bool {
    const MAX_DATE_WORDS: usize = 5;
    let Some((label, rest)) = split_after_date_label(text) else { return false };
    let label = label.trim_end();
    let label = label.strip_suffix('.').unwrap_or(label);
    let entry_follows = rest.trim_start().starts_with(|c: char| c.is_uppercase() || "\"“«".contains(c));
    if !entry_follows || label.is_empty() || label.split_whitespace().count() > MAX_DATE_WORDS {
        return false;
    }
    let year = label.len() == 4 && label.chars().all(|c| c.is_ascii_digit()) && matches!(&label[..2], "19" | "20");
    year || date_spans(label).iter().any(|m| m.kind == MentionKind::Absolute && m.start == 0 && m.end == label.len())
}

/// The dates a text mentions, in any language `dates` reads, for where they
/// stand: relative ones are read against an arbitrary day, since only the
/// spans and kinds matter here.
fn date_spans(text: &str) -> Vec<dates::DateMention> {
    let any_day = CivilDate::new(2000, 1, 1).expect("a valid date");
    dates::extract(text, "und", any_day)
}

/// The text before and after the first colon, or before and after the
/// first dash that stands apart (" – ", " — ", " - ") or follows a full
/// stop (".-", ".–"): a hyphen inside a word ("2011-2012") splits nothing.
fn split_after_date_label(text: &str) -> Option<(&str, &str)> {
    let (at, mark) = text.char_indices().find(|&(at, c)| {
        let before = text[..at].chars().next_back();
        let apart = before == Some(' ') && text[at + c.len_utf8()..].starts_with(' ');
        matches!(c, ':' | '：') || (matches!(c, '-' | '–' | '—') && (apart || before == Some('.')))
    })?;
    Some((&text[..at], &text[at + mark.len_utf8()..]))
}

/// After the hours, "h :" or " h :" with no minutes: "21 h : Les
/// États-Unis ont frappé …", "9h : …".
fn on_the_hour(after_hours: &str) -> bool {
    let rest = after_hours.strip_prefix(' ').unwrap_or(after_hours);
    let Some(rest) = rest.strip_prefix(['h', 'H']) else { return false };
    let rest = rest.trim_start_matches(' ');
    let Some(mark) = rest.chars().next().filter(|c| matches!(c, ':' | '-' | '–' | '—' | '|')) else { return false };
    // The mark's own length: '–' and '—' take three bytes.
    rest[mark.len_utf8()..].starts_with(char::is_whitespace) && after_hours.len() - rest.len() <= 3
}

#[cfg(test)]
mod tests {
    use crate::segment::furniture::Reason;
    use crate::segment::furniture::tests::only_these_get;

    #[test]
    fn figures_with_points_are_no_clocks() {
        // Thousands written with points, and a price's decimals, are figures.
        for prose in [
            "Unos dicen 5.000 otros 50.000.",
            "Un carnage: 10.000, voire 20.000 ou 25.000 tués.",
            "截至今日收盘，上证指数报3412.58点，上涨0.63%；创业板指上涨2.11%。",
        ] {
            assert_eq!(crate::segment::furniture::classify_sentence(prose), None, "{prose}");
        }
        let stamp = "Veröffentlicht 17.03. | 18.42";
        assert!(super::dated_stamp(stamp, &crate::segment::furniture::line::Features::of(stamp)));
    }

    #[test]
    fn live_blog_entries_led_by_their_time() {
        let entries = [
            "22h50 : Le Conseil de sécurité de l'ONU se réunit pour la deuxième journée consécutive.",
            "19H46 - Entraide - A la frontière tunisienne, un Libyen raconte sa fuite.",
            "10:32 a.m. — The senator left the chamber without speaking to reporters.",
            "14.05 | La policía cerró la plaza a los manifestantes durante toda la tarde.",
            "22 h 30 : Les rebelles annoncent avoir pris le contrôle de la ville de Brega.",
            "21 h : Les États-Unis ont frappé samedi des sites anti-aériens libyens.",
            "21 h — Les États-Unis ont frappé samedi des sites anti-aériens libyens.",
        ];
        let prose = [
            // A dash of three bytes right after the hour (found by tests/fuzz.rs).
            "9h—iÜ les rebelles annoncent avoir pris le contrôle de la ville de Brega.",
            "12.50 dollars a barrel was the price the cartel had agreed on in March.",
            "10:30 was when the first train left the station on the opening day of the line.",
            "Il est 22 h 30 : les rebelles annoncent avoir pris le contrôle de la ville.",
            "48 heures : c'est le temps qu'il a fallu aux rebelles pour prendre la ville.",
            "At 10:30 the first train left the station on the opening day of the line.",
        ];
        only_these_get(Reason::TimedEntry, &entries, &prose);
    }

    #[test]
    fn a_live_entrys_title_after_its_time() {
        use crate::segment::furniture::tests::paragraphs_of;
        let text = "La Guardia Civil ha empezado a desalojar el pueblo por la cercanía de las llamas.";
        let reasons = paragraphs_of(&[
            &["13h35 :", "Nice aussi.", text],
            &["14:30", "Carreteras cortadas.", text],
            // The entry's own short sentences: a greeting, a question, a
            // statement of three words, a quote, a figure, and one that is
            // the whole entry.
            &["11:30", "Boa tarde!", text],
            &["14:25 h.", "¿Qué pasa ahora?", text],
            &["16:40", "Ve karar geldi.", text],
            &["16:52", "11,70 mètres.", text],
            &["17:16h:", "\"Lo logramos.", "Es increíble\", dice un joven.", text],
            &["17:05", "Nadie murió."],
            // A short sentence after a dateline is the lead's.
            &["MADRID (EFE) -", "Nadie murió.", text],
        ]);
        let titles: Vec<usize> = (0..reasons.len()).filter(|&i| reasons[i] == Some(Reason::TimedEntry)).collect();
        assert_eq!(titles, [1, 4], "{reasons:?}");
    }

    #[test]
    fn lines_that_are_only_a_date_are_stamps() {
        let stamps = [
            "24 เมษายน 2025",
            "วันพุธที่ 17 ธันวาคม",
            "5 ต.ค. 2568 เวลา 15:48 น.",
            "17 ธ.ค. 68 15.30 น.",
            "วันที่ 22 ส.ค. 2568 - 14:37 น.",
            "Monday, March 14, 2011",
            "14 mars 2011 à 17h05",
        ];
        let prose = [
            "24 เมษายน 2025 รัฐบาลประกาศมาตรการใหม่",
            "เมื่อวันที่ 24 เมษายน 2025 ตำรวจได้จับกุมผู้ต้องหา",
            "ผู้ต้องหา 24 คน",
            "On March 14, 2011 the protests began.",
            "2011",
            "March 2011",
        ];
        for (text, is_stamp) in stamps.iter().map(|t| (t, true)).chain(prose.iter().map(|t| (t, false))) {
            assert_eq!(super::bare_date(text, &super::Features::of(text)), is_stamp, "{text}");
        }
    }

    #[test]
    fn chronology_entries_led_by_their_date() {
        let entries = [
            "15 marzo: Primeras protestas bajo el lema \"Una Siria sin tiranía\".",
            "16 de enero: Preocupados por la situación en el mundo árabe, los ministros se reúnen.",
            "14 mars : Les forces du régime continuent d'avancer vers Benghazi.",
            "1948: Una coalición formada por Egipto, Iraq, Siria y Jordania es derrotada.",
            "2012: La guerra civil se extendió a todas las provincias del país durante el verano.",
            "March 14, 2011: Protesters gather in the capital for the first time.",
            "1999 – Bashar al Assad se convierte en coronel del Ejército sirio.",
            "1938.- Se logra aislar el gas \"Sarin\" a partir del \"Tabun\".",
            "23.03.2011.- Al menos 15 civiles y un soldado fallecen en Deraa.",
            "20 mars 2011 - Des manifestations éclatent à Deraa, dans le sud du pays.",
        ];
        let prose = [
            "2011-2012 fue el peor bienio para la economía siria en medio siglo.",
            "1999 fue el año en que Bashar al Assad se convirtió en coronel – según la prensa oficial.",
            "The 1999 - 2000 season ended early: the league had run out of money.",
            "Le 14 mars, les forces du régime ont continué d'avancer vers Benghazi.",
            "Lunes: El gobierno anunció nuevas medidas contra la protesta en la capital.",
            "The result in 2012: a civil war that spread to every province of the country.",
            "2012: la guerra civil se extendió a todas las provincias del país durante el verano.",
            "Ahmed Shafik: \"Nous ne partirons pas\", a déclaré le candidat devant la presse.",
        ];
        only_these_get(Reason::ListEntry, &entries, &prose);
    }
}
