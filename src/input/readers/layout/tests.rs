//! The layout step on hand-made pages: glyphs of a monospaced font of
//! size 10 (each glyph 6 points wide), lines 12 points apart.

use super::*;

const SIZE: f64 = 10.0;
const ADVANCE: f64 = 6.0;
const LEADING: f64 = 12.0;
const PAGE_HEIGHT: f64 = 800.0;

/// The glyphs of `text` from `x` on the baseline `y`, one per character,
/// a space the width of a glyph (drawn as a space glyph, as most PDFs do).
fn glyphs(text: &str, x: f64, y: f64) -> Vec<Glyph> {
    glyphs_sized(text, x, y, SIZE)
}

fn glyphs_sized(text: &str, x: f64, y: f64, size: f64) -> Vec<Glyph> {
    let advance = ADVANCE * size / SIZE;
    text.chars()
        .enumerate()
        .map(|(i, c)| Glyph { text: c.to_string(), x: x + i as f64 * advance, baseline: y, width: advance, size })
        .collect()
}

/// A page of lines, each given as (x, text), from the top margin down.
fn page_of(lines: &[(f64, &str)]) -> Page {
    let glyphs = lines.iter().enumerate().flat_map(|(i, (x, text))| glyphs(text, *x, 100.0 + i as f64 * LEADING));
    Page { height: PAGE_HEIGHT, glyphs: glyphs.collect() }
}

fn text_of(pages: &[Page]) -> String {
    paragraphs(pages).join("\n\n")
}

#[test]
fn words_are_parted_by_gaps_not_by_space_glyphs() {
    let mut page = page_of(&[(50.0, "Rain fell.")]);
    // A second sentence drawn without space glyphs, words 3 points apart.
    let mut x = 50.0;
    for word in ["Rivers", "rose."] {
        page.glyphs.extend(glyphs(word, x, 100.0 + LEADING));
        x += word.len() as f64 * ADVANCE + 3.0;
    }
    // A space glyph that takes no room (Chromium's soft hyphen) parts nothing.
    page.glyphs.extend(glyphs("mediev", 50.0, 100.0 + 2.0 * LEADING));
    page.glyphs.push(Glyph { text: " ".into(), x: 86.0, baseline: 100.0 + 2.0 * LEADING, width: 0.0, size: SIZE });
    page.glyphs.extend(glyphs("al maps.", 86.0, 100.0 + 2.0 * LEADING));
    assert_eq!(text_of(&[page]), "Rain fell. Rivers rose. medieval maps.");
}

#[test]
fn glyphs_drawn_out_of_order_are_read_left_to_right_top_to_bottom() {
    let mut page = page_of(&[(50.0, "First line of text"), (50.0, "second line.")]);
    page.glyphs.reverse();
    assert_eq!(text_of(&[page]), "First line of text second line.");
}

#[test]
fn two_columns_are_read_one_after_the_other_under_the_title() {
    let left = ["Left one starts the", "story of the day and", "goes on for a while", "in this first column."];
    let right = ["Right one picks it", "up in the second", "column and takes it", "to the very end."];
    let mut glyph_list = glyphs_sized("A title across both columns", 50.0, 60.0, 20.0);
    for (i, (l, r)) in left.iter().zip(right).enumerate() {
        let y = 100.0 + i as f64 * LEADING;
        glyph_list.extend(glyphs(l, 50.0, y));
        glyph_list.extend(glyphs(r, 200.0, y));
    }
    glyph_list.extend(glyphs("A note that spans the page at the bottom of both columns.", 50.0, 160.0));
    let page = Page { height: PAGE_HEIGHT, glyphs: glyph_list };
    assert_eq!(
        paragraphs(&[page]),
        [
            "A title across both columns",
            "Left one starts the story of the day and goes on for a while in this first column.",
            "Right one picks it up in the second column and takes it to the very end.",
            "A note that spans the page at the bottom of both columns.",
        ]
    );
}

#[test]
fn a_table_of_short_cells_is_not_taken_for_columns() {
    let rows = ["Oslo", "Bergen", "Tromso", "Bodo", "Alta", "Narvik", "Molde", "Hamar"];
    let mut glyph_list = Vec::new();
    for (i, city) in rows.iter().enumerate() {
        let y = 100.0 + i as f64 * LEADING;
        glyph_list.extend(glyphs(city, 50.0, y));
        glyph_list.extend(glyphs(&format!("{} mm", i + 3), 200.0, y));
    }
    let text = text_of(&[Page { height: PAGE_HEIGHT, glyphs: glyph_list }]);
    assert!(text.starts_with("Oslo 3 mm Bergen 4 mm"), "{text}");
}

#[test]
fn repeated_headers_footers_and_page_numbers_are_removed() {
    let body = ["The flood reached the town on Monday and the", "water kept rising until", "the evening."];
    let pages: Vec<Page> = (0..3)
        .map(|n| {
            let mut glyph_list = glyphs("12/1/26, 7:13 PM", 30.0, 20.0);
            glyph_list.extend(glyphs("Flood news", 300.0, 20.0));
            glyph_list.extend(glyphs(body[n], 50.0, 100.0));
            glyph_list.extend(glyphs(&format!("file:///tmp/flood.html {}/3", n + 1), 30.0, 780.0));
            glyph_list.extend(glyphs(&format!("- {} -", n + 7), 250.0, 760.0));
            Page { height: PAGE_HEIGHT, glyphs: glyph_list }
        })
        .collect();
    assert_eq!(text_of(&pages), "The flood reached the town on Monday and the water kept rising until the evening.");
}

#[test]
fn a_line_in_the_margin_band_that_does_not_repeat_stays() {
    let pages: Vec<Page> = ["Storm warning issued", "Ferries cancelled"]
        .iter()
        .map(|headline| {
            let mut glyph_list = glyphs(headline, 50.0, 40.0);
            glyph_list.extend(glyphs("Page 1 of 2", 250.0, 780.0));
            glyph_list.extend(glyphs("Body text of the page.", 50.0, 300.0));
            Page { height: PAGE_HEIGHT, glyphs: glyph_list }
        })
        .collect();
    let text = text_of(&pages);
    assert!(text.contains("Storm warning issued") && text.contains("Ferries cancelled"), "{text}");
    assert!(!text.contains("Page 1"), "{text}");
}

#[test]
fn a_sentence_over_a_page_break_is_one_paragraph() {
    let first = page_of(&[(50.0, "The council met on Tuesday and"), (50.0, "decided to build a new")]);
    let second = page_of(&[(50.0, "bridge over the river."), (50.0, "It will open next year.")]);
    assert_eq!(
        text_of(&[first, second]),
        "The council met on Tuesday and decided to build a new bridge over the river. It will open next year."
    );
}

#[test]
fn a_heading_at_the_foot_of_a_page_stays_apart_from_the_next_page() {
    let mut first = page_of(&[(50.0, "The first part ends here.")]);
    first.glyphs.extend(glyphs_sized("Part two", 50.0, 130.0, 14.0));
    let second = page_of(&[(50.0, "Heavy rain fell on Monday.")]);
    assert_eq!(paragraphs(&[first, second]), ["The first part ends here.", "Part two", "Heavy rain fell on Monday."]);
}

#[test]
fn a_gap_or_an_indent_starts_a_paragraph() {
    let mut glyph_list = Vec::new();
    for (i, (x, line)) in [(50.0, "One line of a first"), (50.0, "paragraph ends here."), (50.0, "After a gap")]
        .iter()
        .enumerate()
    {
        let gap = if i == 2 { LEADING } else { 0.0 };
        glyph_list.extend(glyphs(line, *x, 100.0 + i as f64 * LEADING + gap));
    }
    glyph_list.extend(glyphs("a second one.", 50.0, 100.0 + 4.0 * LEADING));
    glyph_list.extend(glyphs("An indented", 70.0, 100.0 + 5.0 * LEADING));
    glyph_list.extend(glyphs("third one is here.", 50.0, 100.0 + 6.0 * LEADING));
    assert_eq!(
        paragraphs(&[Page { height: PAGE_HEIGHT, glyphs: glyph_list }]),
        ["One line of a first paragraph ends here.", "After a gap a second one.", "An indented third one is here."]
    );
}

#[test]
fn words_hyphenated_at_line_ends_are_rejoined() {
    let page = page_of(&[
        (50.0, "The infor-"),
        (50.0, "mation desk is well-known to all and the inter\u{2010}"),
        (50.0, "national staff, a well-"),
        (50.0, "known team from the Franco-"),
        (50.0, "German office, helps con\u{AD}"),
        (50.0, "tributors - and 10 -"),
        (50.0, "20 visitors."),
    ]);
    assert_eq!(
        text_of(&[page]),
        "The information desk is well-known to all and the international staff, a well-known team from the \
         Franco-German office, helps contributors - and 10 - 20 visitors."
    );
}

#[test]
fn soft_hyphens_inside_lines_are_removed() {
    let page = page_of(&[(50.0, "An extra\u{AD}ordinary day.")]);
    assert_eq!(text_of(&[page]), "An extraordinary day.");
}

#[test]
fn ligatures_are_expanded_to_their_letters() {
    let page = page_of(&[(50.0, "The \u{FB01}nance o\u{FB03}ce baﬄed the ﬂight crew; \u{FB05}.")]);
    assert_eq!(text_of(&[page]), "The finance office baffled the flight crew; st.");
    // Not the whole text: fullwidth punctuation stays as it is.
    assert_eq!(expand_ligatures("（注）ﬁ"), "（注）fi");
}

#[test]
fn cjk_gets_no_spaces_inside_or_between_lines() {
    let mut glyph_list = Vec::new();
    // Justified Chinese: glyphs spread 2 points apart, more than a word gap.
    let lines = ["市政府周一宣布，城市", "中心公园的扩建工程已", "经正式开工。"];
    for (i, line) in lines.iter().enumerate() {
        let baseline = 100.0 + i as f64 * 14.0;
        for (j, c) in line.chars().enumerate() {
            let x = 50.0 + j as f64 * (SIZE + 2.0);
            glyph_list.push(Glyph { text: c.to_string(), x, baseline, width: SIZE, size: SIZE });
        }
    }
    let page = Page { height: PAGE_HEIGHT, glyphs: glyph_list };
    assert_eq!(text_of(&[page]), "市政府周一宣布，城市中心公园的扩建工程已经正式开工。");
}

#[test]
fn fake_bold_drawn_twice_is_read_once() {
    let mut page = page_of(&[(50.0, "Bold words")]);
    let twice: Vec<Glyph> = glyphs("Bold", 50.3, 100.0);
    page.glyphs.extend(twice);
    assert_eq!(text_of(&[page]), "Bold words");
}

#[test]
fn nothing_but_spaces_is_no_paragraph() {
    let page = page_of(&[(50.0, "     ")]);
    assert!(paragraphs(&[page, Page::default()]).is_empty());
}
