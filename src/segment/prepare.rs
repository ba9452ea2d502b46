//! The text a unit's sentence boundaries are looked for in: character
//! references decoded, DUC's ``…'' quotes made plain, every whitespace run
//! (hard line wraps included) made one space, and a line break between two
//! CJK characters removed (those scripts put no space between words). A map
//! leads every offset back to the original text, so spans stay exact.

use super::entities::reference_at;
use std::ops::Range;

pub(super) struct Prepared {
    pub text: String,
    /// `(prepared, original)` offset pairs: between two anchors both texts
    /// advance together. The first anchor is `(0, start of the unit)`.
    anchors: Vec<(usize, usize)>,
}

impl Prepared {
    /// The original offset of a char boundary of the prepared text. An offset
    /// at a removed stretch maps to its end.
    pub fn original(&self, at: usize) -> usize {
        let next = self.anchors.partition_point(|&(prepared, _)| prepared <= at);
        let (prepared, original) = self.anchors[next - 1];
        original + (at - prepared)
    }

    fn replace(&mut self, replacement: &str, original_end: usize) {
        self.text.push_str(replacement);
        self.anchors.push((self.text.len(), original_end));
    }
}

/// Prepares `source[range]`.
pub(super) fn prepare(source: &str, range: Range<usize>) -> Prepared {
    let unit = &source[range.clone()];
    let mut prepared = Prepared { text: String::with_capacity(unit.len()), anchors: vec![(0, range.start)] };
    let mut copied = 0; // unit bytes already handled
    let mut chars = unit.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let replaced = match c {
            '&' => reference_at(&unit[at..]).map(|(decoded, len)| (String::from(decoded), at + len)),
            '`' | '\'' if unit[at + 1..].starts_with(c) => Some(("\"".into(), at + 2)),
            c if c.is_whitespace() => {
                let end = whitespace_run_end(unit, at);
                let run = &unit[at..end];
                if run == " " {
                    None
                } else if is_line_break(run) && joins_without_space(&unit[..at], &unit[end..]) {
                    Some((String::new(), end))
                } else {
                    Some((" ".into(), end))
                }
            }
            _ => None,
        };
        if let Some((replacement, end)) = replaced {
            prepared.text.push_str(&unit[copied..at]);
            prepared.replace(&replacement, range.start + end);
            copied = end;
            while chars.next_if(|&(next, _)| next < end).is_some() {}
        }
    }
    prepared.text.push_str(&unit[copied..]);
    prepared
}

fn whitespace_run_end(text: &str, start: usize) -> usize {
    text[start..].find(|c: char| !c.is_whitespace()).map_or(text.len(), |len| start + len)
}

fn is_line_break(run: &str) -> bool {
    run.contains(['\n', '\r', '\u{85}', '\u{2028}'])
}

/// A hard wrap between two CJK characters (or their punctuation) is joined
/// without a space: a Chinese or Japanese line is cut anywhere.
fn joins_without_space(before: &str, after: &str) -> bool {
    let last = before.chars().next_back();
    let first = after.chars().next();
    matches!((last, first), (Some(a), Some(b)) if is_spaceless_script(a) && is_spaceless_script(b))
}

/// Han, kana and CJK punctuation (Hangul is written with spaces).
pub(super) fn is_spaceless_script(c: char) -> bool {
    matches!(c as u32,
        0x3000..=0x303F      // CJK symbols and punctuation
        | 0x3040..=0x30FF    // hiragana, katakana
        | 0x3400..=0x4DBF    // CJK extension A
        | 0x4E00..=0x9FFF    // CJK unified ideographs
        | 0xF900..=0xFAFF    // CJK compatibility ideographs
        | 0xFF00..=0xFFEF    // full-width forms
        | 0x20000..=0x3134F  // CJK extensions B-G
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prepared(text: &str) -> Prepared {
        prepare(text, 0..text.len())
    }

    #[test]
    fn joins_wrapped_lines_and_collapses_spaces() {
        let p = prepared("one  two\nthree \r\n four");
        assert_eq!(p.text, "one two three four");
        assert_eq!(p.original(7), 8); // the space standing for "\n"
        assert_eq!(p.original(8), 9); // "three"
        assert_eq!(p.original(14), 18); // "four"
    }

    #[test]
    fn decodes_references_and_duc_quotes() {
        let text = "``Yes,'' AT&amp;T said.";
        let p = prepared(text);
        assert_eq!(p.text, "\"Yes,\" AT&T said.");
        let amp = p.text.find('&').unwrap();
        assert_eq!(&text[p.original(amp)..p.original(amp + 1)], "&amp;");
        assert_eq!(&text[p.original(amp + 1)..], "T said.");
    }

    #[test]
    fn joins_cjk_lines_without_a_space() {
        let text = "北京\n欢迎你。\nThe end";
        let p = prepared(text);
        assert_eq!(p.text, "北京欢迎你。 The end");
        assert_eq!(p.original("北京".len()), "北京\n".len());
    }

    #[test]
    fn maps_offsets_of_a_unit_inside_a_larger_text() {
        let text = "skip this|a &lt; b";
        let p = prepare(text, 10..text.len());
        assert_eq!(p.text, "a < b");
        assert_eq!(p.original(0), 10);
        assert_eq!(p.original(p.text.len()), text.len());
    }
}
