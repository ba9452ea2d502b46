//! Reading order on a page: columns one after the other, each top to
//! bottom, and what spans them (a title, a full-width paragraph) in its
//! place between them.
//!
//! A gutter is a vertical strip at least `GUTTER` wide that no line crosses
//! except the spanning ones, with `MIN_COLUMN_LINES` lines or more wholly on
//! each side within one band between spanning lines. Each side is then
//! ordered the same way, so three columns are read right too.

use super::{median, Line, Word};

/// Narrowest gutter, in units of the font size: wider than the gaps
/// between words, even in justified text.
const GUTTER: f64 = 0.9;
/// Fewest lines on each side of a gutter: fewer is a caption or a label.
const MIN_COLUMN_LINES: usize = 3;
/// Narrowest column, in units of the font size (a median line): narrower
/// "columns" are the cells of a table, better read row by row.
const MIN_COLUMN_WIDTH: f64 = 6.0;
/// Gutters are looked for only in the middle of the text, not between a
/// margin note and the text.
const MIDDLE: f64 = 0.1;
/// Nested columns deeper than this are read as they are.
const MAX_DEPTH: usize = 6;

/// The lines of one page in reading order.
pub(super) fn reading_order(mut lines: Vec<Line>) -> Vec<Line> {
    lines.sort_by(|a, b| a.baseline().total_cmp(&b.baseline()).then(a.x0().total_cmp(&b.x0())));
    order(lines, 0)
}

fn order(lines: Vec<Line>, depth: usize) -> Vec<Line> {
    let gutter = if depth < MAX_DEPTH { find_gutter(&lines) } else { None };
    let Some(gutter) = gutter else { return lines };
    let mut ordered = Vec::with_capacity(lines.len());
    let (mut left, mut right) = (Vec::new(), Vec::new());
    for line in lines {
        match gutter.split(line) {
            Split::Spanning(line) => {
                flush(&mut ordered, &mut left, &mut right, depth);
                ordered.push(line);
            }
            Split::Sides(left_part, right_part) => {
                left.extend(left_part);
                right.extend(right_part);
            }
        }
    }
    flush(&mut ordered, &mut left, &mut right, depth);
    ordered
}

/// Appends one band: its left column, then its right column.
fn flush(ordered: &mut Vec<Line>, left: &mut Vec<Line>, right: &mut Vec<Line>, depth: usize) {
    ordered.extend(order(std::mem::take(left), depth + 1));
    ordered.extend(order(std::mem::take(right), depth + 1));
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Gutter {
    start: f64,
    end: f64,
}

enum Split {
    Spanning(Line),
    Sides(Option<Line>, Option<Line>),
}

impl Gutter {
    fn split(&self, line: Line) -> Split {
        if runs(&line).iter().any(|&(a, b)| a < self.end && b > self.start) {
            return Split::Spanning(line);
        }
        let page = line.page;
        let (left, right): (Vec<Word>, Vec<Word>) = line.words.into_iter().partition(|w| w.x1 <= self.end);
        let side = |words: Vec<Word>| (!words.is_empty()).then(|| Line::new(page, words));
        Split::Sides(side(left), side(right))
    }
}

/// The stretches of a line without a gap as wide as a gutter.
fn runs(line: &Line) -> Vec<(f64, f64)> {
    let gap = GUTTER * line.size();
    let mut runs: Vec<(f64, f64)> = Vec::new();
    for word in &line.words {
        match runs.last_mut() {
            Some(run) if word.x0 - run.1 < gap => run.1 = run.1.max(word.x1),
            _ => runs.push((word.x0, word.x1)),
        }
    }
    runs
}

/// The widest strip in the middle of the lines that the fewest lines cross,
/// if it separates columns (`separates_columns`).
fn find_gutter(lines: &[Line]) -> Option<Gutter> {
    if lines.len() < 2 * MIN_COLUMN_LINES {
        return None;
    }
    let em = median(lines.iter().map(Line::size));
    let left = lines.iter().map(Line::x0).fold(f64::MAX, f64::min);
    let right = lines.iter().map(Line::x1).fold(f64::MIN, f64::max);
    let width = right - left;
    if !width.is_finite() || width < 2.0 * MIN_COLUMN_WIDTH * em {
        return None;
    }
    let coverage = Coverage::of(lines, left, width);
    let mut candidates = coverage.least_crossed(left + MIDDLE * width, right - MIDDLE * width);
    candidates.retain(|g| g.end - g.start >= GUTTER * em);
    candidates.sort_by(|a, b| (b.end - b.start).total_cmp(&(a.end - a.start)));
    candidates.into_iter().find(|gutter| separates_columns(lines, *gutter, em))
}

/// How many lines cross each thin vertical strip of the text.
struct Coverage {
    left: f64,
    bin: f64,
    lines: Vec<u32>,
}

impl Coverage {
    /// At most this many strips: enough for a gutter a few points wide.
    const MAX_BINS: f64 = 2000.0;

    fn of(lines: &[Line], left: f64, width: f64) -> Self {
        let bin = (width / Self::MAX_BINS).max(0.5);
        let bins = (width / bin).ceil() as usize + 1;
        // A difference array: +1 where a run starts, -1 after it ends.
        let mut changes = vec![0i64; bins + 1];
        for line in lines {
            for (a, b) in runs(line) {
                let first = (((a - left) / bin).floor().max(0.0) as usize).min(bins - 1);
                let last = (((b - left) / bin).ceil() as usize).clamp(first + 1, bins);
                changes[first] += 1;
                changes[last] -= 1;
            }
        }
        let mut crossing = 0i64;
        let lines = changes[..bins]
            .iter()
            .map(|change| {
                crossing += change;
                crossing.max(0) as u32
            })
            .collect();
        Self { left, bin, lines }
    }

    /// The strips between `from` and `to` that the fewest lines cross,
    /// each stretch of neighbouring such strips as one candidate.
    fn least_crossed(&self, from: f64, to: f64) -> Vec<Gutter> {
        let first = ((from - self.left) / self.bin).ceil().max(0.0) as usize;
        let last = (((to - self.left) / self.bin).floor().max(0.0) as usize).min(self.lines.len() - 1);
        let Some(&least) = self.lines.get(first..=last).and_then(|bins| bins.iter().min()) else {
            return Vec::new();
        };
        let mut gutters: Vec<Gutter> = Vec::new();
        let mut previous_was_least = false;
        for i in first..=last {
            let is_least = self.lines[i] == least;
            let (start, end) = (self.left + i as f64 * self.bin, self.left + (i + 1) as f64 * self.bin);
            match (is_least, previous_was_least, gutters.last_mut()) {
                (true, true, Some(gutter)) => gutter.end = end,
                (true, _, _) => gutters.push(Gutter { start, end }),
                _ => {}
            }
            previous_was_least = is_least;
        }
        gutters
    }
}

/// Whether, in some band between lines that cross the gutter, enough
/// lines of prose stand wholly on each side of it.
fn separates_columns(lines: &[Line], gutter: Gutter, em: f64) -> bool {
    let (mut left, mut right): (Vec<f64>, Vec<f64>) = (Vec::new(), Vec::new());
    let is_column = |widths: &[f64]| {
        widths.len() >= MIN_COLUMN_LINES && median(widths.iter().copied()) >= MIN_COLUMN_WIDTH * em
    };
    for line in lines {
        match gutter.split(line.clone()) {
            Split::Spanning(_) => {
                if is_column(&left) && is_column(&right) {
                    return true;
                }
                left.clear();
                right.clear();
            }
            Split::Sides(left_part, right_part) => {
                left.extend(left_part.map(|l| l.x1() - l.x0()));
                right.extend(right_part.map(|l| l.x1() - l.x0()));
            }
        }
    }
    is_column(&left) && is_column(&right)
}
