//! The text of a PDF from its positioned glyphs: glyphs → words → lines,
//! page headers and footers dropped (`running`), lines put in reading
//! order across columns (`columns`), then joined into paragraphs with
//! words hyphenated at line ends made whole (`paragraphs`).
//!
//! A pure function of the glyphs, so that it is tested on hand-made pages;
//! `pdf` turns a PDF into such pages. Coordinates are points, `x` from the
//! left edge of the page and baselines from its top.

mod columns;
mod paragraphs;
mod running;

use unicode_normalization::UnicodeNormalization;

/// One glyph as the PDF draws it.
#[derive(Clone, Debug, PartialEq)]
pub struct Glyph {
    /// The characters it stands for (a ligature glyph stands for several).
    pub text: String,
    /// Left edge.
    pub x: f64,
    pub baseline: f64,
    /// Advance width.
    pub width: f64,
    /// Font size.
    pub size: f64,
}

/// The glyphs of one page.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Page {
    pub height: f64,
    pub glyphs: Vec<Glyph>,
}

/// The paragraphs of a document's pages, in reading order.
#[cfg(test)]
pub fn paragraphs(pages: &[Page]) -> Vec<String> {
    paragraphs_of_lines(pages.iter().enumerate().map(|(i, page)| PageLines::of(i, page)).collect())
}

/// A page as lines of words: what is kept of a page while the next ones
/// are read (far fewer strings than glyphs).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PageLines {
    height: f64,
    lines: Vec<Line>,
}

impl PageLines {
    /// The lines of the `index`th page.
    pub fn of(index: usize, page: &Page) -> Self {
        Self { height: page.height, lines: lines_of(index, &page.glyphs) }
    }
}

/// The paragraphs of a document's pages, in reading order.
pub fn paragraphs_of_lines(pages: Vec<PageLines>) -> Vec<String> {
    let heights: Vec<f64> = pages.iter().map(|page| page.height).collect();
    let mut lines: Vec<Vec<Line>> = pages.into_iter().map(|page| page.lines).collect();
    running::remove_headers_and_footers(&mut lines, &heights);
    let ordered: Vec<Line> = lines.into_iter().flat_map(columns::reading_order).collect();
    paragraphs::paragraphs(&ordered)
}

/// A gap between two glyphs, in units of the font size, above which they
/// belong to two words (a space is about 0.25 to 0.33 of the size).
const WORD_GAP: f64 = 0.15;
/// The same when the PDF draws a space glyph between them: only a space
/// that takes no room is ignored (Chromium draws a soft hyphen that does not
/// break a line as such a space).
const SPACE_GAP: f64 = 0.04;
/// Between two CJK glyphs, which are not separated by spaces: only a gap
/// as wide as a column gutter separates them.
const CJK_GAP: f64 = 1.5;
/// Glyphs whose baselines differ by less than this share a line (a raised
/// footnote mark stays on its line).
const SAME_LINE: f64 = 0.35;

/// A run of glyphs without a word gap.
#[derive(Clone, Debug, PartialEq)]
struct Word {
    text: String,
    x0: f64,
    x1: f64,
    baseline: f64,
    size: f64,
}

/// Words on one baseline, left to right: a line of a column, or a whole
/// row of the page until `columns` splits it at a gutter.
#[derive(Clone, Debug, PartialEq)]
struct Line {
    page: usize,
    words: Vec<Word>,
}

impl Line {
    fn new(page: usize, words: Vec<Word>) -> Self {
        Self { page, words }
    }

    fn x0(&self) -> f64 {
        self.words.first().map_or(0.0, |w| w.x0)
    }

    fn x1(&self) -> f64 {
        self.words.iter().map(|w| w.x1).fold(f64::MIN, f64::max)
    }

    /// The baseline of most of its words (a raised footnote mark aside).
    fn baseline(&self) -> f64 {
        median(self.words.iter().map(|w| w.baseline))
    }

    fn size(&self) -> f64 {
        median(self.words.iter().map(|w| w.size))
    }

    fn text(&self) -> String {
        self.words.iter().map(|w| w.text.as_str()).collect::<Vec<_>>().join(" ")
    }
}

/// The lines of a page: glyphs grouped by baseline, then into words.
fn lines_of(page: usize, glyphs: &[Glyph]) -> Vec<Line> {
    let mut sorted: Vec<&Glyph> = glyphs
        .iter()
        .filter(|g| g.size > 0.0 && [g.x, g.baseline, g.width, g.size].iter().all(|v| v.is_finite()))
        .collect();
    sorted.sort_by(|a, b| a.baseline.total_cmp(&b.baseline).then(a.x.total_cmp(&b.x)));
    let mut rows: Vec<Vec<&Glyph>> = Vec::new();
    for glyph in sorted {
        match rows.last_mut() {
            Some(row) if (glyph.baseline - row[0].baseline).abs() <= SAME_LINE * glyph.size.max(row[0].size) => {
                row.push(glyph)
            }
            _ => rows.push(vec![glyph]),
        }
    }
    rows.into_iter()
        .filter_map(|mut row| {
            row.sort_by(|a, b| a.x.total_cmp(&b.x));
            let words = words_of(&row);
            (!words.is_empty()).then(|| Line::new(page, words))
        })
        .collect()
}

/// The words of a row of glyphs sorted left to right. Space glyphs only
/// hint at a boundary: the gaps decide, since many PDFs draw no spaces.
fn words_of(glyphs: &[&Glyph]) -> Vec<Word> {
    let mut words: Vec<Word> = Vec::new();
    let mut space_between = false;
    let mut last: Option<&Glyph> = None;
    for glyph in glyphs {
        let text = expand_ligatures(&glyph.text);
        if text.chars().all(char::is_whitespace) {
            space_between = true;
            continue;
        }
        if last.is_some_and(|l| l.text == glyph.text && (l.x - glyph.x).abs() < 0.1 * glyph.size) {
            continue; // drawn twice at the same place: fake bold
        }
        if let Some(word) = words.last_mut() {
            if !starts_new_word(word, glyph, &text, space_between) {
                word.text.push_str(&text);
                word.x1 = word.x1.max(glyph.x + glyph.width);
                space_between = false;
                last = Some(glyph);
                continue;
            }
        }
        words.push(Word {
            text,
            x0: glyph.x,
            x1: glyph.x + glyph.width,
            baseline: glyph.baseline,
            size: glyph.size,
        });
        space_between = false;
        last = Some(glyph);
    }
    words
}

fn starts_new_word(word: &Word, glyph: &Glyph, text: &str, space_between: bool) -> bool {
    let gap = (glyph.x - word.x1) / glyph.size.max(word.size);
    let both_unspaced = word.text.chars().last().is_some_and(unspaced_script)
        && text.chars().next().is_some_and(unspaced_script);
    if both_unspaced {
        gap > CJK_GAP
    } else {
        gap > WORD_GAP || (space_between && gap > SPACE_GAP)
    }
}

/// Scripts written without spaces between words: Chinese, Japanese and
/// their punctuation (not Korean, which puts spaces between words).
fn unspaced_script(c: char) -> bool {
    matches!(c as u32,
        0x3000..=0x303F      // CJK symbols and punctuation
        | 0x3040..=0x30FF    // hiragana, katakana
        | 0x3100..=0x312F    // bopomofo
        | 0x31F0..=0x31FF    // katakana phonetic extensions
        | 0x3400..=0x4DBF    // CJK extension A
        | 0x4E00..=0x9FFF    // CJK unified ideographs
        | 0xF900..=0xFAFF    // CJK compatibility ideographs
        | 0xFF00..=0xFFEF    // fullwidth and halfwidth forms
        | 0x20000..=0x3134F  // CJK extensions B-G
    )
}

/// Typographic ligatures (ﬁ, ﬂ, ﬀ, ﬃ, ﬄ, ſt, st and the Armenian ones) as
/// their letters. Only these: NFKC on the whole text would also change
/// fullwidth CJK punctuation, superscripts and the like.
fn expand_ligatures(text: &str) -> String {
    if !text.chars().any(is_ligature) {
        return text.to_string();
    }
    text.chars().flat_map(|c| if is_ligature(c) { c.nfkc().collect() } else { vec![c] }).collect()
}

fn is_ligature(c: char) -> bool {
    matches!(c, '\u{FB00}'..='\u{FB06}' | '\u{FB13}'..='\u{FB17}')
}

fn median(values: impl Iterator<Item = f64>) -> f64 {
    let mut values: Vec<f64> = values.collect();
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

#[cfg(test)]
pub(crate) mod tests;
