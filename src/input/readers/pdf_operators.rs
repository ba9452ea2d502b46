//! A page's drawing operators cut down to those that place text, before
//! pdf-extract reads them. lopdf holds every operation it parses in ~480
//! bytes (an operand vector sized for four objects), so 8 MB of `BT ET`
//! inflated from a 12.8 kB file held 1.6 GB; charts and maps are mostly
//! path operators, which the text never needs. What is kept is copied byte
//! for byte, so pdf-extract reads the text operators exactly as before.

/// The operators pdf-extract acts on for text: text objects and state,
/// text showing, the graphics state stack, transforms and form XObjects.
/// (Colours, paths, clipping, marked content and inline images only draw.)
const KEPT: &[&[u8]] = &[
    b"BT", b"ET", b"Tc", b"Tw", b"Tz", b"TL", b"Tf", b"Tr", b"Ts", b"Td", b"TD", b"Tm", b"T*", b"Tj", b"TJ",
    b"'", b"\"", b"q", b"Q", b"cm", b"gs", b"Do",
];

/// Content reduced to its text operators.
#[derive(Debug, Default, PartialEq)]
pub(super) struct TextOperators {
    /// The kept operations, each with its operands, one a line.
    pub content: Vec<u8>,
    /// How many operations were kept.
    pub operations: usize,
    /// Whether one of them draws an XObject (`Do`).
    pub draws_xobjects: bool,
}

/// The text operators of `content`, up to `limit` of them and one more
/// (which says there were more than `limit`). Operands run from the first
/// token after the previous operator; strings, arrays and dictionaries are
/// skipped whole, so an operator name inside them is not taken for one.
pub(super) fn text_operators(content: &[u8], limit: usize) -> TextOperators {
    let mut kept = TextOperators::default();
    let mut lexer = Lexer { bytes: content, at: 0, nesting: 0 };
    let mut operands_start = None;
    while let Some((start, token)) = lexer.next_token() {
        let Token::Operator(name) = token else {
            operands_start.get_or_insert(start);
            continue;
        };
        if name == b"BI" {
            lexer.skip_inline_image();
        } else if KEPT.contains(&name) {
            kept.content.extend_from_slice(&content[operands_start.unwrap_or(start)..lexer.at]);
            kept.content.push(b'\n');
            kept.operations += 1;
            kept.draws_xobjects |= name == b"Do";
            if kept.operations > limit {
                break;
            }
        }
        operands_start = None;
    }
    kept
}

enum Token<'a> {
    Operand,
    Operator(&'a [u8]),
}

struct Lexer<'a> {
    bytes: &'a [u8],
    at: usize,
    /// Depth inside arrays and dictionaries, where words are operands.
    nesting: usize,
}

fn is_whitespace(b: u8) -> bool {
    matches!(b, b'\0' | b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

fn is_delimiter(b: u8) -> bool {
    matches!(b, b'(' | b')' | b'<' | b'>' | b'[' | b']' | b'{' | b'}' | b'/' | b'%')
}

impl<'a> Lexer<'a> {
    fn peek(&self, offset: usize) -> Option<u8> {
        self.bytes.get(self.at + offset).copied()
    }

    /// The next token and where it starts; `None` at the end.
    fn next_token(&mut self) -> Option<(usize, Token<'a>)> {
        loop {
            while self.peek(0).is_some_and(is_whitespace) {
                self.at += 1;
            }
            if self.peek(0) != Some(b'%') {
                break;
            }
            while self.peek(0).is_some_and(|b| b != b'\n' && b != b'\r') {
                self.at += 1;
            }
        }
        let start = self.at;
        let token = match self.peek(0)? {
            b'(' => {
                self.skip_string();
                Token::Operand
            }
            b'<' if self.peek(1) == Some(b'<') => {
                self.at += 2;
                self.nesting += 1;
                Token::Operand
            }
            b'>' if self.peek(1) == Some(b'>') => {
                self.at += 2;
                self.nesting = self.nesting.saturating_sub(1);
                Token::Operand
            }
            b'<' => {
                self.skip_past(b'>');
                Token::Operand
            }
            b'[' | b'{' => {
                self.at += 1;
                self.nesting += 1;
                Token::Operand
            }
            b']' | b'}' => {
                self.at += 1;
                self.nesting = self.nesting.saturating_sub(1);
                Token::Operand
            }
            b'/' => {
                self.at += 1;
                self.skip_word();
                Token::Operand
            }
            b')' | b'>' => {
                self.at += 1;
                Token::Operand
            }
            _ => {
                self.skip_word();
                let word = &self.bytes[start..self.at];
                if self.nesting > 0 || is_object_word(word) {
                    Token::Operand
                } else {
                    Token::Operator(word)
                }
            }
        };
        Some((start, token))
    }

    fn skip_word(&mut self) {
        while self.peek(0).is_some_and(|b| !is_whitespace(b) && !is_delimiter(b)) {
            self.at += 1;
        }
    }

    fn skip_past(&mut self, end: u8) {
        while let Some(b) = self.peek(0) {
            self.at += 1;
            if b == end {
                return;
            }
        }
    }

    /// A literal string: balanced parentheses, backslash escapes.
    fn skip_string(&mut self) {
        let mut depth = 0usize;
        while let Some(b) = self.peek(0) {
            self.at += 1;
            match b {
                b'\\' => self.at = (self.at + 1).min(self.bytes.len()),
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        return;
                    }
                }
                _ => {}
            }
        }
    }

    /// `BI <dictionary> ID <data> EI`: the data is binary, so it ends at
    /// the first `EI` standing alone after white space.
    fn skip_inline_image(&mut self) {
        let rest = &self.bytes[self.at..];
        let data = rest.windows(2).position(|w| w == b"ID").map_or(rest.len(), |p| p + 2);
        let end = rest[data..]
            .windows(4)
            .position(|w| is_whitespace(w[0]) && &w[1..3] == b"EI" && (is_whitespace(w[3]) || is_delimiter(w[3])))
            .map_or(rest.len(), |p| data + p + 3);
        self.at += end;
    }
}

/// Numbers and the keywords that are objects, not operators.
fn is_object_word(word: &[u8]) -> bool {
    matches!(word.first(), Some(b'0'..=b'9' | b'+' | b'-' | b'.'))
        || matches!(word, b"true" | b"false" | b"null")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(content: impl AsRef<[u8]>) -> (String, usize, bool) {
        let t = text_operators(content.as_ref(), usize::MAX);
        (String::from_utf8(t.content).unwrap(), t.operations, t.draws_xobjects)
    }

    #[test]
    fn text_operators_are_kept_byte_for_byte_and_paths_are_dropped() {
        let page = "0.5 g 10 10 m 20 20 l S q 1 0 0 1 5 5 cm BT /F1 12 Tf 72 700 Td (Hello \\) world) Tj \
                    [(A) -120 (B)] TJ ET Q /Fm1 Do 0 0 100 100 re f";
        let (content, operations, draws) = kept(page);
        assert_eq!(
            content,
            "q\n1 0 0 1 5 5 cm\nBT\n/F1 12 Tf\n72 700 Td\n(Hello \\) world) Tj\n[(A) -120 (B)] TJ\nET\nQ\n/Fm1 Do\n"
        );
        assert_eq!((operations, draws), (10, true));
    }

    #[test]
    fn operator_names_inside_strings_arrays_and_dictionaries_are_operands() {
        let page = "/P <</MCID 0 /Alt (re f Tj)>> BDC BT (BT ET \\( Tj) Tj [(x) (Do)] TJ ET EMC % Do in a comment\n";
        let (content, operations, draws) = kept(page);
        assert_eq!(content, "BT\n(BT ET \\( Tj) Tj\n[(x) (Do)] TJ\nET\n");
        assert_eq!((operations, draws), (4, false));
    }

    #[test]
    fn inline_image_data_is_skipped_whole() {
        let page = b"BI /W 2 /H 2 /BPC 8 /CS /G ID \x00Tj\xffEIx BT\n EI Q BT (after) Tj ET";
        assert_eq!(kept(page).0, "Q\nBT\n(after) Tj\nET\n");
    }

    #[test]
    fn reading_stops_one_past_the_limit() {
        let t = text_operators(b"BT (a) Tj (b) Tj (c) Tj ET", 2);
        assert_eq!((t.operations, t.content.as_slice()), (3, b"BT\n(a) Tj\n(b) Tj\n".as_slice()));
    }

    #[test]
    fn hostile_content_ends_without_panic() {
        for page in ["(((", "<<<<", "]]]] >> ))", "BI", "BI ID", "\\", "<abc", "%", "Tj Tj", "[ BT"] {
            let t = text_operators(page.as_bytes(), usize::MAX);
            assert!(t.content.len() <= page.len() + t.operations, "{page}");
        }
    }
}
