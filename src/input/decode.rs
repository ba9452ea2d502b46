//! Bytes to text: UTF-8, UTF-16 (with or without a byte-order mark), Windows-1252; binary files refused.

use super::InputError;
use crate::limits::MAX_FILE_BYTES;
use crate::segment::windows_1252_char;

/// Share of control characters above which decoded bytes are not text.
const MAX_CONTROL_SHARE: f64 = 0.05;

/// The text of a file's bytes (see the module comment for encodings).
pub(super) fn decode(bytes: &[u8]) -> Result<String, InputError> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(InputError::TooLarge { bytes: bytes.len() });
    }
    if let Some(kind) = binary_format(bytes) {
        return Err(InputError::Binary { kind: Some(kind) });
    }
    let text = if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        String::from_utf8_lossy(rest).into_owned()
    } else if let Some(rest) = bytes.strip_prefix(b"\xFF\xFE") {
        decode_utf16(rest, u16::from_le_bytes)
    } else if let Some(rest) = bytes.strip_prefix(b"\xFE\xFF") {
        decode_utf16(rest, u16::from_be_bytes)
    } else if let Some(little_endian) = utf16_without_bom(bytes) {
        decode_utf16(bytes, if little_endian { u16::from_le_bytes } else { u16::from_be_bytes })
    } else if bytes.contains(&0) {
        return Err(InputError::Binary { kind: None });
    } else {
        match std::str::from_utf8(bytes) {
            Ok(text) => text.to_string(),
            Err(_) => bytes.iter().map(|&b| windows_1252_char(b)).collect(),
        }
    };
    if is_mostly_control(&text) {
        return Err(InputError::Binary { kind: None });
    }
    if text.trim().is_empty() {
        return Err(InputError::Empty);
    }
    Ok(text)
}

/// Formats people upload by mistake, by their first bytes (PDF, Word and
/// old Office files are told apart before: `format`).
fn binary_format(bytes: &[u8]) -> Option<&'static str> {
    const SIGNATURES: &[(&[u8], &str)] = &[
        (b"PK\x03\x04", "a ZIP archive, or an Excel or PowerPoint file"),
        (b"{\\rtf", "an RTF document"),
        (b"\x89PNG", "an image"),
        (b"\xFF\xD8\xFF", "an image"),
        (b"GIF8", "an image"),
        (b"\x1F\x8B", "a compressed (gzip) file"),
    ];
    SIGNATURES.iter().find(|(magic, _)| bytes.starts_with(magic)).map(|&(_, kind)| kind)
}

/// UTF-16 without a byte-order mark: zeros in nearly all odd (little-endian)
/// or even (big-endian) positions and almost none in the others, as in
/// mostly-ASCII text.
fn utf16_without_bom(bytes: &[u8]) -> Option<bool> {
    if bytes.len() < 4 || !bytes.len().is_multiple_of(2) {
        return None;
    }
    let pairs = bytes.len() / 2;
    let zero_high = bytes.chunks_exact(2).filter(|p| p[1] == 0 && p[0] != 0).count();
    let zero_low = bytes.chunks_exact(2).filter(|p| p[0] == 0 && p[1] != 0).count();
    let mostly = |count: usize| count * 10 >= pairs * 9;
    match (mostly(zero_high), mostly(zero_low)) {
        (true, false) => Some(true),
        (false, true) => Some(false),
        _ => None,
    }
}

fn decode_utf16(bytes: &[u8], unit: fn([u8; 2]) -> u16) -> String {
    let units = bytes.chunks_exact(2).map(|pair| unit([pair[0], pair[1]]));
    char::decode_utf16(units).map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER)).collect()
}

fn is_mostly_control(text: &str) -> bool {
    let mut chars = 0usize;
    let mut control = 0usize;
    for c in text.chars() {
        chars += 1;
        let is_layout = matches!(c, '\n' | '\r' | '\t' | '\u{0C}');
        if (c.is_control() && !is_layout) || c == char::REPLACEMENT_CHARACTER {
            control += 1;
        }
    }
    control as f64 > chars as f64 * MAX_CONTROL_SHARE
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::documents_from_file;
    use crate::input::tests::one;

    #[test]
    fn binary_files_are_refused() {
        let zip = documents_from_file("photos.zip", b"PK\x03\x04\x14\x00junk").unwrap_err();
        assert_eq!(zip, InputError::Binary { kind: Some("a ZIP archive, or an Excel or PowerPoint file") });
        assert!(zip.to_string().starts_with("this is a ZIP archive, or an Excel or PowerPoint file, not text"));
        let nul = documents_from_file("data.txt", b"abc\x00\x01\x02\x03def\x00").unwrap_err();
        assert_eq!(nul, InputError::Binary { kind: None });
        let controls: Vec<u8> = (0..200u8).map(|i| if i % 3 == 0 { 0x07 } else { b'a' }).collect();
        assert_eq!(documents_from_file("x.txt", &controls), Err(InputError::Binary { kind: None }));
    }

    #[test]
    fn reads_utf16_and_windows_1252() {
        let utf16le: Vec<u8> =
            [0xFF, 0xFE].into_iter().chain("Café ok.".encode_utf16().flat_map(u16::to_le_bytes)).collect();
        assert_eq!(one("a.txt", &utf16le).text, "Café ok.");
        let utf16be: Vec<u8> = "Über alles.".encode_utf16().flat_map(u16::to_be_bytes).collect();
        assert_eq!(one("a.txt", &utf16be).text, "Über alles.");
        assert_eq!(one("a.txt", b"\x93Caf\xE9\x94 \x96 ok.").text, "“Café” – ok.");
        assert_eq!(one("a.txt", "\u{FEFF}Déjà vu.".as_bytes()).text, "Déjà vu.");
    }
}
