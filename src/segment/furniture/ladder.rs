//! The rule ladder on one sentence: the checks in order, the first that
//! fires gives the reason; and whether a document is judged by form.

use super::boilerplate::boilerplate;
use super::captions::{agency_caption, video_length};
use super::credits::{byline, credit_in_capitals, gallery_counter, opens_with_photo_credit, pull_quote};
use super::cues::cue;
use super::form::{broken_parenthesis, bullet, heading_or_name, labelled_headline, repeated_headline, short_statement, starts_lowercase, title_case, too_short};
use super::labels::{dateline, glued_label, label_prefix, rating_entry, title_label};
use super::line::{Features, Line, SHORT_LINE_WORDS};
use super::links::{embedded_post, ends_in_link, opens_with_handle, opens_with_tag, tagged_post};
use super::reason::Reason;
use super::stamps::{bare_date, chronology_entry, clock_stamp, dated_stamp, opens_with_time};
use crate::segment::lead_label::is_lead_label;

/// "Publié le 06 mars 2011 à 20h30 - Mis à jour le 07 mars 2011 à 08h08",
/// "Published 3:15 PM | Updated 4:20 PM": stamps side by side, each of
/// them one by its cue or its date, though together too long for either.
fn joined_stamps(text: &str) -> bool {
    const SEPARATORS: [&str; 4] = [" - ", " – ", " | ", " · "];
    // Most sentences reach this rule and have no separator: no copy for them.
    if !SEPARATORS.iter().any(|separator| text.contains(separator)) {
        return false;
    }
    let mut joined = text.to_string();
    for separator in SEPARATORS {
        joined = joined.replace(separator, "\n");
    }
    let parts: Vec<&str> = joined.split('\n').map(str::trim).collect();
    let stamp = |part: &str| {
        let f = Features::of(part);
        cue(&f) == Some(Reason::Stamp) || bare_date(part, &f) || dated_stamp(part, &f)
    };
    parts.len() >= 2 && parts.iter().all(|part| stamp(part))
}

/// A document whose sentences end like sentences less often than this (of
/// those of 8 words or more) is not judged by its endings.
const MIN_PUNCTUATED_SHARE: f32 = 0.5;
/// … unless this many of them do (see `judged_by_form`).
const MIN_PUNCTUATED_SENTENCES: usize = 5;

/// Whether a document's sentences are judged by their endings, size and
/// case: when its sentences of 8+ words mostly end like sentences (or it
/// has none that long), or when at least `MIN_PUNCTUATED_SENTENCES` of them
/// do. The second case is a page whose related-story headlines outnumber
/// the story's own sentences (45 headlines beside 13 sentences): the story
/// shows that the page punctuates, so its headlines are headlines. A text
/// that seldom punctuates (a chat log, a list) is still left alone, and so
/// is Thai, whose sentences end without a mark: there a mark at the
/// end is a question's, or an abbreviation's point ("15:42 น.", "(สรท.)"),
/// and five of them on a Thai page once took all its prose.
pub(super) fn judged_by_form(features: &[Features]) -> bool {
    let long = features.iter().filter(|f| f.words >= 8.0).count();
    let punctuated = features.iter().filter(|f| f.words >= 8.0 && f.ends_sentence && !f.markless).count();
    long == 0 || punctuated as f32 >= MIN_PUNCTUATED_SHARE * long as f32 || punctuated >= MIN_PUNCTUATED_SENTENCES
}

/// A word that makes a sentence inside a paragraph: "Niekoniecznie.",
/// "„Uwaga!" (not a splitter's fragment: "Cf.", "S.", "/ТАСС/.").
pub(super) fn one_word_answer(line: &Line, f: &Features) -> bool {
    !line.own_line && one_word_sentence(line.text, f, 3)
}

/// One word of at least `min_letters` letters, capitalized, ending the
/// sentence: "Niekoniecznie.", "„Uwaga!", "No.".
pub(super) fn one_word_sentence(text: &str, f: &Features, min_letters: usize) -> bool {
    let word = text.trim_start_matches(['"', '“', '„', '«', '»', '‘', '\'', '¡', '¿']);
    f.words <= 1.0 && f.ends_sentence && f.letters >= min_letters && word.starts_with(|c: char| c.is_alphabetic() && !crate::text::is_lowercase(c))
}

/// The rules on one sentence; `form`: the ending, size and case rules
/// apply; `several`: the document has more than one sentence.
pub(super) fn judge(line: &Line, f: &Features, form: bool, several: bool) -> Option<Reason> {
    let visible = f.letters + f.digits + f.others;
    if visible == 0 {
        return Some(Reason::Symbols);
    }
    if is_lead_label(line.text) {
        return Some(Reason::LeadLabel);
    }
    // Phone numbers, times, scores, "___", "+". A Hangul syllable or an
    // ideograph counts as two letters, so that "30대 후반(35∼39세)은
    // 48.9명, …" reads as the sentence it is.
    let letters = (f.letters + f.syllable_letters) as f32 / (visible + f.syllable_letters) as f32;
    // (A Thai line's piece with its number, "ระหว่างปี 2555-2563", is cut
    // from its sentence at a space: part of the sentence, not a table.)
    let piece_of_a_line = f.spaceless && !line.own_line;
    if !piece_of_a_line && f.words <= SHORT_LINE_WORDS && (letters < 0.35 || (letters < 0.5 && !f.ends_sentence)) {
        return Some(Reason::Symbols);
    }
    if boilerplate(line.text) {
        return Some(Reason::Boilerplate);
    }
    if glued_label(line.text, f) {
        return Some(Reason::GluedLabel);
    }
    if repeated_headline(line.text) {
        return Some(Reason::RepeatedHeadline);
    }
    if embedded_post(&f.folded) || opens_with_handle(line.text) || opens_with_tag(line.text) || tagged_post(&f.folded) {
        return Some(Reason::EmbeddedPost);
    }
    if let Some(reason) = cue(f) {
        return Some(reason);
    }
    if opens_with_photo_credit(f) || credit_in_capitals(line.text) {
        return Some(Reason::CreditedCaption);
    }
    if byline(f) {
        return Some(Reason::Credit);
    }
    if clock_stamp(line.text, f) || dated_stamp(line.text, f) || ((line.own_line || !f.ends_sentence) && bare_date(line.text, f)) || joined_stamps(line.text) {
        return Some(Reason::Stamp);
    }
    if opens_with_time(line.text) {
        return Some(Reason::TimedEntry);
    }
    if chronology_entry(line.text) || rating_entry(line.text) {
        return Some(Reason::ListEntry);
    }
    if agency_caption(line.text, f) {
        return Some(Reason::Caption);
    }
    // "(Associated Press)", not "(We are pretty sure it is about her.)".
    if f.parenthesized && f.words <= 12.0 && !f.ends_sentence {
        return Some(Reason::Parenthesized);
    }
    // "Karl Rove:", "ALSO:", and a label whose value the page left empty
    // ("El tiempo en Madrid: .").
    if f.ends_colon && f.words <= 8.0 {
        return Some(Reason::Colon);
    }
    // "… released the following statement:": whatever it introduces is
    // not in the sentence, so alone (in a summary) it dangles.
    if f.ends_dangling {
        return Some(Reason::Dangling);
    }
    if ends_in_link(&f.folded) {
        return Some(Reason::Link);
    }
    if label_prefix(line.text, f) || (line.lang != "de" && title_label(line.text)) {
        return Some(Reason::LabelPrefix);
    }
    if pull_quote(line.text) {
        return Some(Reason::PullQuote);
    }
    if video_length(line.text) || gallery_counter(line.text) {
        return Some(Reason::PageReference);
    }
    if bullet(line.text) {
        return Some(Reason::ListEntry);
    }
    if !form {
        // A list or a table (few sentence ends) still has headings and
        // one-word cells: "2018 Federal Poverty Guidelines", "Household/".
        return (several && heading_or_name(f)).then_some(Reason::TitleCase);
    }
    if dateline(line.text, f) {
        return Some(Reason::Dateline);
    }
    // Capitals among cased letters, where cased letters are most of the
    // line: "(CATL)" in a Japanese sentence is not an all-caps line.
    if f.cased() >= 6 && f.upper as f32 >= 0.8 * f.cased() as f32 && 2 * f.cased() >= f.letters {
        return Some(Reason::AllCaps);
    }
    // A teaser cut off by the page, or a quote trailing off: either way the
    // sentence is not whole.
    // Inside a paragraph only a short one: a long quote trailing off ("Maybe
    // you have teen-agers yourself and know how they are ...") still says
    // what it says.
    if f.ends_ellipsis && (line.ends_line || f.words <= 8.0) {
        return Some(Reason::CutOff);
    }
    // A short sentence inside a paragraph is part of its prose ("Nobody was
    // hurt.", "¿Cuánto ha llovido?", "Пострадавших нет."); alone on its
    // line it is a fragment, and one word is one unless its paragraph is
    // prose (`page::one_word_answers`).
    if too_short(f) && (f.words <= 1.0 || (line.own_line && !short_statement(line.text, f))) {
        return Some(Reason::TooShort);
    }
    if heading_or_name(f) {
        return Some(Reason::TitleCase);
    }
    if starts_lowercase(line.text) || broken_parenthesis(line.text) {
        return Some(Reason::LowercaseStart);
    }
    // Inside a paragraph of prose a sentence is prose; on its own line it
    // must look like one. The last sentence of a line must end like one.
    if !line.own_line {
        return (line.ends_line && !f.ends_sentence && f.words <= SHORT_LINE_WORDS).then_some(Reason::NoEnding);
    }
    // A line of its own without a sentence end, up to 40 words, is a
    // headline, a deck or a caption; only a very long line is prose that
    // lost its full stop.
    if !f.ends_sentence && f.words <= 40.0 {
        return Some(Reason::NoEnding);
    }
    if title_case(f) {
        return Some(Reason::TitleCase);
    }
    if labelled_headline(line.text, f) {
        return Some(Reason::Headline);
    }
    None
}

#[cfg(test)]
mod tests {
    use crate::segment::furniture::Reason;
    use crate::segment::furniture::tests::{among_prose, page, paragraph, paragraphs_of};
    use crate::segment::furniture::classify_sentence;
    use super::joined_stamps;

    #[test]
    fn a_thai_lines_number_is_part_of_its_sentence() {
        // "The municipality, between 2012 and 2020, had a yearly budget of
        // about 60 million baht": the splitter cuts the line at its spaces.
        let line = paragraphs_of(&[&[
            "เทศบาลตำบลบ้านใหม่ได้รับการจัดอันดับเป็นเทศบาลดีเด่น",
            "ระหว่างปี 2555-2563",
            "เทศบาลแห่งนี้มีงบประมาณรายจ่ายทั้งปีราว 60 ล้านบาท",
        ]]);
        assert_eq!(line, [None, None, None]);
        // On a line of its own, a number is a table's cell or a stamp.
        assert_eq!(classify_sentence("2555-2563"), Some(Reason::Symbols));
    }

    #[test]
    fn a_korean_sentence_of_figures_is_a_sentence() {
        assert_eq!(classify_sentence("30대 후반(35∼39세)은 48.9명, 20대 후반(25∼29세)은 23.0명이었다."), None);
        assert_eq!(classify_sentence("서울 25.3 / 부산 27.1 / 대구 29.4"), Some(Reason::Symbols));
    }

    #[test]
    fn stamps_side_by_side() {
        for stamp in ["Publié le 06 mars 2011 à 20h30 - Mis à jour le 07 mars 2011 à 08h08", "Published 3:15 PM | Updated 4:20 PM"] {
            assert_eq!(classify_sentence(stamp), Some(Reason::Stamp), "{stamp}");
        }
        // One stamp beside a headline is not two stamps.
        assert!(!joined_stamps("Publié le 06 mars 2011 - La France appelle à un cessez-le-feu en Libye"));
        assert!(!joined_stamps("Publié le 06 mars 2011 à 20h30"));
    }

    #[test]
    fn cut_off_sentences_inside_a_paragraph() {
        // A short one; a long quote trailing off still says what it says,
        // and so does a whole sentence the quote went on after (". ...").
        let r = paragraph(&[
            "Four people are dead and one person is injured...",
            "The fire started in the kitchen of the restaurant.",
            "Встреча продолжалась до позднего вечера…",
            "The mayor visited the site on Tuesday.",
            "\"Maybe you have teen-agers yourself and know how they are ...",
            "Everybody was trying to get out and people trampled on each other on the way to the exit. ...",
            "The police arrived an hour later.",
        ]);
        assert_eq!(r, [None, None, Some(Reason::CutOff), None, None, None, None]);
        // At the end of its line, a teaser cut off.
        assert_eq!(among_prose(&["Four people are dead and one person is injured in a fire that broke out..."]), [Some(Reason::CutOff)]);
        // There too, a sentence whole before the ellipsis is not cut off.
        assert_eq!(among_prose(&["Everybody was trying to get out and people trampled on each other on the way to the exit. ..."]), [None]);
        assert_eq!(among_prose(&["\"They include all kinds of fifth-raters. ..."]), [None]);
        // Nor is a quote's elision mark set apart by a space, after a whole
        // sentence; glued to a word, or spaced after one outside a quote,
        // the mark is a teaser's cut.
        assert_eq!(among_prose(&["\"Je n'ai pas reçu tous les soutiens que la cause méritait, a-t-il dit. (...)"]), [None]);
        assert_eq!(among_prose(&["Les rebelles ont repris la ville après trois jours de combats sur un terrain d[...]"]), [Some(Reason::CutOff)]);
        assert_eq!(among_prose(&["En Yemen y Siria las manifestaciones se multiplicaron al calor de esta victoria que todos los pueblos de […]"]), [Some(Reason::CutOff)]);
    }

    #[test]
    fn dangling_endings_and_trailing_links() {
        let r = paragraph(&[
            "The New Baltimore Police Department released the following statement:",
            "The mayor said the road would reopen on Friday after repairs.",
            "Le ministre a déclaré devant les députés réunis à Paris :",
            "During his long stay in the capital,",
            "Markets fell again on Tuesday as I expected they would.” http://bit.ly/qEYaoz",
            "El presidente habló durante una hora ante el Congreso.",
        ]);
        assert_eq!(r, [Some(Reason::Dangling), None, Some(Reason::Dangling), Some(Reason::Dangling), Some(Reason::Link), None]);
    }

    #[test]
    fn related_headlines_that_outnumber_the_story_are_still_headlines() {
        let story = [
            "Un avión israelí fue alcanzado este sábado durante una operación militar en Siria.",
            "Los pilotos de uno de los aviones lo abandonaron según el procedimiento habitual.",
            "Cayeron en territorio israelí y fueron llevados al hospital para recibir tratamiento.",
            "El ejército dijo que atacó doce objetivos iraníes y sirios durante la noche del sábado.",
            "Irán negó haber enviado un dron al espacio aéreo israelí desde la base siria de Palmira.",
        ];
        let related: Vec<String> = (1..=12)
            .map(|n| format!("Otra noticia número {n} sobre la economía de la región que nadie lee hoy"))
            .collect();
        let lines: Vec<&str> = story.iter().copied().chain(related.iter().map(String::as_str)).collect();
        let r = page(&lines);
        assert_eq!(r[..5], [None; 5]);
        assert_eq!(r[5..], [Some(Reason::NoEnding); 12]);
        // Four punctuated sentences among twelve lines without an ending: a
        // text that seldom punctuates, left alone.
        assert_eq!(page(&lines[1..]), vec![None; 16]);
    }

    #[test]
    fn thai_marks_at_the_end_do_not_make_a_page_punctuate() {
        // Two questions and three abbreviations' points, each at the end
        // of a long clause: Thai still ends its sentences without a mark.
        let marked = [
            "บาทแข็งแบบนี้ ผู้ส่งออกจะรับไหวอีกนานแค่ไหน?",
            "คำถามคือ รัฐบาลจะทำอะไรได้มากกว่านี้หรือไม่?",
            "ประธานสภาผู้ส่งสินค้าทางเรือแห่งประเทศไทย (สรท.)",
            "ปลัดกระทรวงพาณิชย์แถลงข่าวเมื่อวันที่ 21 เมษายน 2569 เวลา 15:42 น.",
            "แท็ก : ส่งออก ค่าเงินบาท กระทรวงพาณิชย์ ทุเรียน สรท.",
        ];
        let story = [
            "การแข็งค่าของบาททุก 1 บาทต่อดอลลาร์ จึงอาจกินกำไรของผู้ส่งออกกลุ่มนี้ไปเกือบทั้งหมด",
            "ส่วนข้าวหดตัว 12.6% จากการแข่งขันด้านราคากับเวียดนามและอินเดีย",
            "ตัวเลขนี้ไม่ได้ทำให้ผู้ค้าข้าวแปลกใจ",
        ];
        let lines: Vec<&str> = marked.iter().chain(story.iter()).copied().collect();
        assert_eq!(page(&lines)[5..], [None; 3]);
    }
}
