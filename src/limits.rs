//! Every size limit, in one place. The file limit is the same for the CLI
//! and the app; the text limits are the app's, which must keep a tab
//! responsive (the CLI works through whole corpora).

/// Largest file read, in bytes (HTML and JSON carry markup and many
/// records beyond their text).
pub const MAX_FILE_BYTES: usize = 20 << 20;
/// Most text the app reads at once (one paste, or the articles of one
/// file), in bytes of UTF-8. Far above any news article (a long one is
/// ~60 kB) and small enough that splitting and encoding stay in tens of
/// seconds.
pub const MAX_INPUT_BYTES: usize = 1 << 20;
/// Most text the app summarizes or replays at once, all articles together.
pub const MAX_TOTAL_BYTES: usize = 2 << 20;
/// Most pages and glyphs read from one PDF (and characters from one Word
/// file): far above any article, low enough that a hostile file cannot keep
/// a reader busy for minutes.
pub const MAX_DOCUMENT_PAGES: usize = 5_000;
pub const MAX_DOCUMENT_GLYPHS: usize = 5_000_000;
/// Most text operations one PDF page may draw, its forms included, once
/// only the text operators are left (`input::readers::pdf_operators`):
/// lopdf holds each in ~480 bytes while the page is drawn, so ~48 MB. A
/// dense page of text draws a few thousand.
pub const MAX_PDF_PAGE_OPERATIONS: usize = 100_000;
/// Most bytes unpacked from the XML of one Word or OpenDocument file: a
/// ZIP bomb of a few kB could otherwise unpack to gigabytes.
pub const MAX_UNPACKED_BYTES: usize = 50 << 20;
/// The same for the compressed streams of one PDF (page contents, fonts):
/// more, as a long PDF holds more than its text.
pub const MAX_PDF_UNPACKED_BYTES: usize = 256 << 20;

/// "1.2 MB", "640 kB": sizes as the user reads them.
pub fn megabytes(bytes: usize) -> String {
    if bytes >= 1_000_000 {
        format!("{:.1} MB", bytes as f64 / 1e6)
    } else {
        format!("{} kB", bytes.div_ceil(1000))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_naturally() {
        assert_eq!(megabytes(5_242_880), "5.2 MB");
        assert_eq!(megabytes(1_500), "2 kB");
    }
}
