//! The line structure of a text: paragraphs, list items, and the lines that
//! stand alone (headlines) versus hard wraps inside a sentence.
//!
//! - A blank line, or a rule line (`---`, `* * *`, `===`), ends a paragraph;
//!   so does U+2029.
//! - A line starting with a bullet (`-`, `*`, `+`, `•`, `–`, `—`, …) followed
//!   by a space is a list item. A numbered marker (`1.`, `2)`, `(3)`, `a)`)
//!   counts only where a sentence can start: first line of a paragraph, or
//!   after a line ending in `.`/`:`/… or another item; so a wrapped
//!   "… in\n1990. The" is not a list. Each item is its own unit, its marker
//!   left out of the span.
//! - Any other line break is a hard wrap and is joined, except after a line
//!   that reads as a headline: it starts a sentence, has no final
//!   punctuation, the next line starts like a sentence (capital, digit or a
//!   caseless script), and the line is short for the text's wrap width (the
//!   next line's first word would have fitted, and the line fills at most
//!   80% of the width), and it does not end in a short lowercase word ("in",
//!   "the", "de"). The width is the 90th percentile of line lengths in
//!   columns (CJK characters count two), at least 40: DUC-style wraps at ~70
//!   columns stay joined, while "Earthquake hits Tokyo\nA strong quake…"
//!   splits.
//! - A text whose width is over 120 columns, or whose lines end sentences
//!   at least 40% of the time, is not hard-wrapped (a paste from a web page:
//!   one paragraph per line, short in Korean or Japanese), so there every
//!   line break ends a paragraph.

use std::ops::Range;

/// Below this, a "wrap width" says more about short lines than about wrapping.
const MIN_WRAP_WIDTH: usize = 40;
/// Above this, lines are paragraphs rather than hard wraps.
const MAX_WRAP_WIDTH: usize = 120;

/// The units of one paragraph; each unit is split into sentences on its own.
pub(super) struct Paragraph {
    pub units: Vec<Range<usize>>,
}

struct Line {
    /// The line without surrounding whitespace.
    content: Range<usize>,
    /// Display width: CJK characters count two columns.
    columns: usize,
    /// Ends with U+2029 PARAGRAPH SEPARATOR.
    ends_paragraph: bool,
}

/// Paragraphs of `text`, each with its units in order.
pub(super) fn paragraphs(text: &str) -> Vec<Paragraph> {
    let lines = lines(text);
    let width = wrap_width(&lines);
    let lines_are_paragraphs = width > MAX_WRAP_WIDTH || lines_mostly_end_sentences(text, &lines);
    let mut paragraphs = Vec::new();
    let mut builder = ParagraphBuilder::default();
    for (i, line) in lines.iter().enumerate() {
        if line.content.is_empty() || is_rule(&text[line.content.clone()]) {
            paragraphs.extend(builder.finish());
            continue;
        }
        builder.push_line(text, line);
        let next = lines.get(i + 1).filter(|_| !line.ends_paragraph);
        if let Some(next) = next.filter(|next| !next.content.is_empty()) {
            let headline = builder.line_starts_sentence
                && is_headline(&text[line.content.clone()], line.columns, &text[next.content.clone()], width);
            if headline {
                builder.close_unit();
            }
        }
        if line.ends_paragraph || lines_are_paragraphs {
            paragraphs.extend(builder.finish());
        }
    }
    paragraphs.extend(builder.finish());
    paragraphs
}

#[derive(Default)]
struct ParagraphBuilder {
    units: Vec<Range<usize>>,
    open: Option<Range<usize>>,
    /// The line just pushed began a sentence (first line, list item, or
    /// after sentence-final punctuation).
    line_starts_sentence: bool,
    previous_ends_sentence: bool,
}

impl ParagraphBuilder {
    fn push_line(&mut self, text: &str, line: &Line) {
        let content = &text[line.content.clone()];
        let at_sentence_start = self.open.is_none() || self.previous_ends_sentence;
        let marker = list_marker_len(content, at_sentence_start);
        if marker.is_some() {
            self.close_unit();
        }
        let start = line.content.start + marker.unwrap_or(0);
        self.line_starts_sentence = self.open.is_none() || self.previous_ends_sentence;
        let unit = self.open.get_or_insert(start..line.content.end);
        unit.end = line.content.end;
        self.previous_ends_sentence = ends_sentence_or_clause(content) || marker.is_some() || ends_in_thai(content);
    }

    fn close_unit(&mut self) {
        self.units.extend(self.open.take());
    }

    fn finish(&mut self) -> Option<Paragraph> {
        self.close_unit();
        let units = std::mem::take(&mut self.units);
        *self = Self::default();
        (!units.is_empty()).then_some(Paragraph { units })
    }
}

fn lines(text: &str) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if !matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}') {
            continue;
        }
        if c == '\r' {
            chars.next_if(|&(_, next)| next == '\n');
        }
        lines.push(line(text, start..at, c == '\u{2029}'));
        start = chars.peek().map_or(text.len(), |&(next, _)| next);
    }
    if start < text.len() {
        lines.push(line(text, start..text.len(), false));
    }
    lines
}

fn line(text: &str, range: Range<usize>, ends_paragraph: bool) -> Line {
    let raw = &text[range.clone()];
    let trimmed = raw.trim_start();
    let start = range.start + (raw.len() - trimmed.len());
    let content = start..start + trimmed.trim_end().len();
    let columns = text[content.clone()].chars().map(columns).sum();
    Line { content, columns, ends_paragraph }
}

/// Columns a character takes in a fixed-width layout: two for East Asian
/// wide characters, one for the rest.
fn columns(c: char) -> usize {
    let wide = matches!(c as u32,
        0x1100..=0x115F | 0x2E80..=0xA4CF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF | 0xFE30..=0xFE4F
        | 0xFF00..=0xFF60 | 0xFFE0..=0xFFE6 | 0x20000..=0x3FFFD);
    if wide {
        2
    } else {
        1
    }
}

/// The 90th percentile of non-blank line widths, at least `MIN_WRAP_WIDTH`.
fn wrap_width(lines: &[Line]) -> usize {
    let mut lengths: Vec<usize> = lines.iter().map(|l| l.columns).filter(|&n| n > 0).collect();
    if lengths.is_empty() {
        return MIN_WRAP_WIDTH;
    }
    let rank = (lengths.len() * 9).div_ceil(10) - 1;
    let (_, &mut p90, _) = lengths.select_nth_unstable(rank);
    p90.max(MIN_WRAP_WIDTH)
}

/// Lines that end a sentence at least this often are whole paragraphs: a
/// hard wrap ends a line where the width runs out, which is at a sentence
/// end about once in the number of lines a sentence takes.
const MIN_SENTENCE_END_SHARE: f32 = 0.4;

/// Whether the text's lines mostly end sentences (with at least three
/// lines): a page copied from a browser, one paragraph a line, however
/// short its lines are (Korean and Japanese sentences fit in 60 columns),
/// not a text wrapped at a width.
fn lines_mostly_end_sentences(text: &str, lines: &[Line]) -> bool {
    let contents: Vec<&str> = lines.iter().map(|l| &text[l.content.clone()]).filter(|c| !c.is_empty() && !is_rule(c)).collect();
    let ending = contents.iter().filter(|c| ends_sentence_or_clause(c)).count();
    contents.len() >= 3 && ending as f32 >= MIN_SENTENCE_END_SHARE * contents.len() as f32 && !mostly_cut_by_width(text, lines)
}

/// Whether most lines that end no sentence were cut by a width: they end in
/// a comma, or the next line goes on in lowercase. A short wrapped story
/// can end sentences on two lines of five ("… (82.88 square-kilometer)\n
/// area below the slopes …", "… elsewhere in the country,\nBolanos
/// said."); a page's own lines seldom go on so.
fn mostly_cut_by_width(text: &str, lines: &[Line]) -> bool {
    let (mut open, mut cut) = (0, 0);
    for pair in lines.windows(2) {
        let (line, next) = (&text[pair[0].content.clone()], &text[pair[1].content.clone()]);
        if line.is_empty() || next.is_empty() || is_rule(line) || ends_sentence_or_clause(line) {
            continue;
        }
        open += 1;
        cut += usize::from(line.ends_with([',', ';']) || next.chars().next().is_some_and(crate::text::is_lowercase));
    }
    cut >= 2 && 2 * cut >= open
}

/// A line of only dashes, equals signs, stars and the like.
fn is_rule(line: &str) -> bool {
    line.chars().filter(|c| !c.is_whitespace()).count() >= 3
        && line.chars().all(|c| c.is_whitespace() || "-=_*~#•·+".contains(c))
}

/// Length of a list marker and the spaces after it, if the line has one.
fn list_marker_len(line: &str, at_sentence_start: bool) -> Option<usize> {
    let marker = bullet_len(line).or_else(|| at_sentence_start.then(|| number_len(line)).flatten())?;
    let rest = &line[marker..];
    let content = rest.trim_start();
    let has_space = content.len() < rest.len();
    (has_space && !content.is_empty()).then_some(line.len() - content.len())
}

fn bullet_len(line: &str) -> Option<usize> {
    let first = line.chars().next()?;
    "-*+•·‣◦▪▫■□●○►▶➢✓✔–—".contains(first).then_some(first.len_utf8())
}

/// `1.`, `12)`, `(3)`, `a)`: up to three digits, or one letter before `)`.
fn number_len(line: &str) -> Option<usize> {
    let bytes = line.as_bytes();
    let open = usize::from(bytes.first() == Some(&b'('));
    let digits = bytes[open..].iter().take_while(|b| b.is_ascii_digit()).count();
    let label = if (1..=3).contains(&digits) {
        digits
    } else if bytes.get(open).is_some_and(u8::is_ascii_alphabetic) {
        1
    } else {
        return None;
    };
    let close = bytes.get(open + label)?;
    let closes = match (open, close) {
        (1, b')') => true,
        (0, b')') => true,
        (0, b'.') => digits > 0,
        _ => false,
    };
    closes.then_some(open + label + 1)
}

/// Final punctuation of a sentence, or a colon introducing a list, possibly
/// followed by closing quotes or brackets.
fn ends_sentence_or_clause(line: &str) -> bool {
    line.trim_end_matches(is_closing).chars().next_back().is_some_and(|c| crate::text::is_sentence_final(c) || matches!(c, ':' | '：'))
}

/// Thai ends its sentences with a space or a line break, never a mark: a
/// line that ends in Thai may end a sentence, and `is_headline` decides by
/// the line's length whether it did ("ภาพ: FIVB" over the next paragraph)
/// or the text wrapped there.
fn ends_in_thai(line: &str) -> bool {
    line.trim_end_matches(is_closing).chars().next_back().is_some_and(|c| ('\u{0E01}'..='\u{0E5B}').contains(&c))
}

fn is_closing(c: char) -> bool {
    matches!(c, '"' | '\'' | ')' | ']' | '}' | '»' | '”' | '’' | '」' | '』' | '）' | '】')
}

/// Whether the break after `line` ends a headline rather than wrapping a
/// sentence (see the module comment).
fn is_headline(line: &str, line_columns: usize, next: &str, width: usize) -> bool {
    // A line of only tags ("#ตู้บริจาค #ขโมย") closes a post; no text wraps
    // into one.
    if next.split_whitespace().all(|w| w.starts_with('#') && w.len() > 1) {
        return true;
    }
    let last = line.trim_end_matches(is_closing).chars().next_back();
    let ends_in_word = last.is_some_and(char::is_alphanumeric) && !ends_in_function_word(line);
    let Some(first) = next.trim_start_matches(is_opening).chars().next() else {
        return false;
    };
    let starts_like_sentence = first.is_uppercase() || first.is_numeric() || crate::text::is_caseless_letter(first);
    let (gap, next_word) = if super::prepare::is_spaceless_script(first) {
        (0, columns(first))
    } else {
        (1, next.split_whitespace().next().map_or(0, |w| w.chars().map(columns).sum()))
    };
    let short = line_columns + gap + next_word <= width && line_columns * 5 <= width * 4;
    ends_in_word && starts_like_sentence && short
}

/// A line ending in a short lowercase word ("in", "the", "de") is cut
/// mid-sentence, whatever its length.
fn ends_in_function_word(line: &str) -> bool {
    let last_word = line.rsplit(char::is_whitespace).next().unwrap_or(line);
    line.contains(char::is_whitespace)
        && last_word.chars().count() <= 3
        && last_word.chars().all(crate::text::is_lowercase)
}

fn is_opening(c: char) -> bool {
    matches!(c, '"' | '\'' | '`' | '(' | '[' | '«' | '“' | '‘' | '„' | '「' | '『' | '（' | '¿' | '¡')
}


#[cfg(test)]
mod tests {
    use super::*;

    fn units(text: &str) -> Vec<Vec<&str>> {
        paragraphs(text).into_iter().map(|p| p.units.into_iter().map(|u| &text[u]).collect()).collect()
    }

    #[test]
    fn blank_and_rule_lines_end_paragraphs() {
        let text = "First para.\n\n  \nSecond para.\n* * *\nThird.\u{2029}Fourth.";
        assert_eq!(units(text), [["First para."], ["Second para."], ["Third."], ["Fourth."]]);
    }

    #[test]
    fn hard_wraps_are_one_unit() {
        let text = "Cambodian leader Hun Sen on Friday rejected opposition parties' demands\n\
                    for talks outside the country, accusing them of trying to\n\
                    ``internationalize'' the political crisis.";
        assert_eq!(units(text), [[text]]);
    }

    #[test]
    fn a_short_headline_line_stands_alone() {
        let text = "Earthquake hits Tokyo\nA strong earthquake struck Tokyo on Monday, officials said.";
        assert_eq!(units(text), [["Earthquake hits Tokyo", &text[22..]]]);
    }

    #[test]
    fn a_short_thai_line_after_thai_stands_alone() {
        // Thai ends no sentence with a mark: a short line after a line of
        // Thai is a line of its own, a long one a wrap.
        let caption = "ผู้เล่นทีมชาติไทยดีใจหลังทำแต้มสุดท้ายในเซตที่ 5 ต่อหน้าแฟนวอลเลย์บอลกว่า 12,000 คน";
        let text = format!("{caption}\nภาพ: FIVB\nการแข่งขันดำเนินไปอย่างสูสีตลอดเกือบ 2 ชั่วโมงครึ่ง ญี่ปุ่นซึ่งมีอันดับโลกสูงกว่าไทย 8 อันดับ ไล่ตีเสมอได้ 2 ครั้ง");
        let got = units(&text);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].len(), 3, "{got:?}");
        assert_eq!(got[0][1], "ภาพ: FIVB");
    }

    #[test]
    fn a_wrapped_line_starting_with_a_name_is_not_a_headline() {
        let text = "The Cambodian People's Party won 64 of the 122 parliamentary seats in\n\
                    July's elections, short of the two-thirds majority needed to form\n\
                    a government on its own, officials said on Friday in Phnom Penh.";
        assert_eq!(units(text).concat().len(), 1);
    }

    #[test]
    fn list_items_are_units_without_their_markers() {
        let text = "The plan has three parts:\n- cut taxes\n* build roads\n2) hire nurses\n(4) end";
        assert_eq!(
            units(text),
            [["The plan has three parts:", "cut taxes", "build roads", "hire nurses", "end"]]
        );
    }

    #[test]
    fn numbered_markers_need_a_sentence_start() {
        let wrapped = "Die Preise stiegen im ersten Quartal stark, teilte die Bank am Montag\n\
                       2. Quartal und auch danach weiter, wie die Zentralbank in Frankfurt sagte.";
        assert_eq!(units(wrapped).concat().len(), 1);
        let list = "Steps:\n1. Open the box\n2. Read the manual";
        assert_eq!(units(list), [["Steps:", "Open the box", "Read the manual"]]);
        // Lines that all end sentences are pasted paragraphs: each its own.
        let pasted = "Steps.\n1. Open the box.\n2. Read the manual.";
        assert_eq!(units(pasted), [["Steps."], ["Open the box."], ["Read the manual."]]);
    }

    #[test]
    fn a_double_dash_is_not_a_bullet() {
        let text = "He said the talks had failed\n-- and then he left the room.";
        assert_eq!(units(text), [[text]]);
    }

    #[test]
    fn a_line_ending_in_a_function_word_is_wrapped() {
        let text =
            "Prices rose sharply in\nMarch, the bank said on Monday in a statement issued in Frankfurt.";
        assert_eq!(units(text), [[text]]);
    }

    /// Korean and Japanese pages have short lines, each a paragraph ending
    /// a sentence; a headline line above one must not run into it.
    #[test]
    fn short_lines_that_end_sentences_are_paragraphs() {
        let text = "경북 의성 산불 사흘째…주민 대피, 진화율 68%\n송고시간2025-03-24 15:42\n산림청은 진화율이 68%라고 밝혔다.\n불은 22일 시작됐다.\n인명 피해는 없다.";
        assert_eq!(units(text).len(), 5);
    }

    #[test]
    fn a_short_wrapped_story_is_not_taken_for_a_paste() {
        // Two of its five lines end sentences, as a paste's lines do; but
        // its other lines go on in lowercase or end in a comma (DUC2004 2/D6).
        let text = "Nicaraguan Vice President Enrique Bolanos said Sunday night that between \n\
                    1,000 and 1,500 people were buried in a 32-square mile (82.88 square-kilometer) \n\
                    area below the slopes of the Casita volcano in northern Nicaragua. \n\
                    That is in addition to least another 600 people elsewhere in the country, \n\
                    Bolanos said. ";
        assert_eq!(units(text).concat().len(), 1);
    }

    #[test]
    fn long_lines_are_paragraphs() {
        let long = "This paragraph is a single long line, as pasted from a web page, and it goes on and on \
                    well past any width that a text would be wrapped at.";
        let text = format!("{long}\nHe said:\n{long}");
        assert_eq!(units(&text), [[long], ["He said:"], [long]]);
    }

    #[test]
    fn cjk_lines_are_measured_in_columns() {
        let line = "北京市政府今天上午召开新闻发布会，宣布将采取新的措施应对";
        let text = format!("{line}\n{line}\n{line}\n结束。");
        assert_eq!(units(&text).concat().len(), 1);
    }

    #[test]
    fn handles_crlf_and_lone_cr_line_ends() {
        assert_eq!(units("One.\r\n\r\nTwo and\rthree"), [vec!["One."], vec!["Two and\rthree"]]);
        assert_eq!(units("One.\r\n\r\nTwo.\rThree."), [vec!["One."], vec!["Two."], vec!["Three."]]);
    }
}
