//! Page headers, footers and page numbers: what a printed page repeats at
//! its top and bottom, which is not the article (and would break a sentence
//! that runs over a page break).
//!
//! Only the outermost lines of a page, in a band at its top or bottom, are
//! looked at. A piece of such a line (pieces are parted by wide gaps, as
//! a date on the left and a title on the right) goes when it is a page
//! number, or when the same piece, digits aside, is on other pages too.

use super::{Line, Word};
use regex::Regex;
use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

/// Share of the page height, at the top and at the bottom, where headers
/// and footers are looked for.
const BAND: f64 = 0.12;
/// At most this many lines at each end of a page are headers or footers.
const OUTERMOST_LINES: usize = 3;
/// A gap wider than this, in units of the font size, parts two pieces.
const PIECE_GAP: f64 = 2.0;

/// "3", "- 3 -", "(3)", "Page 3", "Page 3 of 9", "3/9", "p. 3", "iv".
static PAGE_NUMBER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)^[\s\-–—(\[]*",
        r"(?:(?:page|pg\.?|p\.|seite|página|pagina|страница)\s*)?",
        r"(?:\d{1,5}|[ivxlc]{1,7})",
        r"(?:\s*(?:/|of|de|von|sur|di|из)\s*\d{1,5})?",
        r"[\s\-–—)\]]*$",
    ))
    .expect("valid pattern")
});

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Edge {
    Top,
    Bottom,
}

/// Where a piece is: page, line in that page, and its words.
struct Piece {
    page: usize,
    line: usize,
    words: std::ops::Range<usize>,
    edge: Edge,
    key: String,
    is_page_number: bool,
}

/// Removes headers, footers and page numbers from the lines of each page
/// (`heights`: the pages' heights).
pub(super) fn remove_headers_and_footers(pages: &mut [Vec<Line>], heights: &[f64]) {
    let pieces: Vec<Piece> =
        pages.iter().enumerate().flat_map(|(page, lines)| edge_pieces(page, lines, heights[page])).collect();
    let mut pages_of: HashMap<(Edge, &str), HashSet<usize>> = HashMap::new();
    for piece in &pieces {
        pages_of.entry((piece.edge, piece.key.as_str())).or_default().insert(piece.page);
    }
    let repeats = |piece: &Piece| {
        let count = pages_of[&(piece.edge, piece.key.as_str())].len();
        count >= 2 && count * 3 >= pages.len()
    };
    let mut doomed: HashMap<(usize, usize), Vec<std::ops::Range<usize>>> = HashMap::new();
    for piece in pieces.iter().filter(|p| p.is_page_number || repeats(p)) {
        doomed.entry((piece.page, piece.line)).or_default().push(piece.words.clone());
    }
    for ((page, line), ranges) in doomed {
        let words = &mut pages[page][line].words;
        let mut index = 0;
        words.retain(|_| {
            index += 1;
            !ranges.iter().any(|r| r.contains(&(index - 1)))
        });
    }
    for lines in pages.iter_mut() {
        lines.retain(|line| !line.words.is_empty());
    }
}

/// The pieces of the outermost lines of a page, within the bands.
fn edge_pieces(page: usize, lines: &[Line], height: f64) -> Vec<Piece> {
    let mut order: Vec<usize> = (0..lines.len()).collect();
    order.sort_by(|&a, &b| lines[a].baseline().total_cmp(&lines[b].baseline()));
    let top = order.iter().take(OUTERMOST_LINES).filter(|&&i| lines[i].baseline() <= BAND * height);
    let bottom =
        order.iter().rev().take(OUTERMOST_LINES).filter(|&&i| lines[i].baseline() >= (1.0 - BAND) * height);
    let in_bands: Vec<(usize, Edge)> =
        top.map(|&i| (i, Edge::Top)).chain(bottom.map(|&i| (i, Edge::Bottom))).collect();
    let mut seen = HashSet::new();
    in_bands
        .into_iter()
        .filter(|(i, _)| seen.insert(*i)) // a line at both ends of a short page counts once
        .flat_map(|(line, edge)| {
            pieces_of(&lines[line].words).into_iter().map(move |(words, text)| Piece {
                page,
                line,
                words,
                edge,
                key: normalize(&text),
                is_page_number: PAGE_NUMBER.is_match(&text),
            })
        })
        .collect()
}

/// Words parted by wide gaps, with their text.
fn pieces_of(words: &[Word]) -> Vec<(std::ops::Range<usize>, String)> {
    let mut pieces = Vec::new();
    let mut start = 0;
    for i in 1..=words.len() {
        let parts_here =
            i == words.len() || words[i].x0 - words[i - 1].x1 > PIECE_GAP * words[i].size.max(words[i - 1].size);
        if parts_here {
            let text = words[start..i].iter().map(|w| w.text.as_str()).collect::<Vec<_>>().join(" ");
            pieces.push((start..i, text));
            start = i;
        }
    }
    pieces
}

/// The same for every page: lower case, each run of digits as one "0".
fn normalize(text: &str) -> String {
    let mut key = String::with_capacity(text.len());
    for c in text.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_digit() {
            if !key.ends_with('0') {
                key.push('0');
            }
        } else {
            key.push(c);
        }
    }
    key
}
