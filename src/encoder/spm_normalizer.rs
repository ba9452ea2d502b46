//! SentencePiece's own text normalization (`normalizer.cc`), for the
//! `nmt_nfkc` spec of the MUSE v3 model: the precompiled charsmap applied by
//! longest-prefix match over the input bytes, extra whitespace removed, a
//! dummy prefix added and spaces escaped as U+2581.
//!
//! The `tokenizers` crate's `Precompiled` normalizer (the `spm_precompiled`
//! port) is not this algorithm: it rewrites per grapheme cluster and takes
//! the shortest match, so rules that span a combining mark sequence
//! (decomposed Vietnamese, stacked marks, half-width kana followed by ﾞ/ﾟ)
//! come out differently. Here the charsmap's darts-clone double-array trie is
//! walked exactly like `Normalizer::NormalizePrefix`: at each position the
//! longest key that prefixes the remaining bytes is replaced by its string,
//! and when no key matches one UTF-8 character is copied as is.

use anyhow::{bail, ensure, Result};

/// U+2581, SentencePiece's escaped space.
pub const SPACE_SYMBOL: &str = "\u{2581}";

/// A SentencePiece normalizer over a precompiled charsmap, with the
/// `nmt_nfkc` flags this model uses: `add_dummy_prefix`,
/// `remove_extra_whitespaces` and `escape_whitespaces` all on.
#[derive(Clone, Debug)]
pub struct SpmNormalizer {
    /// The double-array units (little-endian u32 in the blob).
    units: Vec<u32>,
    /// NUL-terminated replacement strings, indexed by the trie's values.
    normalized: String,
}

impl SpmNormalizer {
    /// Parses a `precompiled_charsmap` blob: `<trie byte length: u32 LE>
    /// <trie units: u32 LE each> <replacement strings, each NUL-terminated>`.
    pub fn from_charsmap(blob: &[u8]) -> Result<Self> {
        ensure!(blob.len() > 4, "precompiled charsmap: blob of {} bytes", blob.len());
        let trie_len = u32::from_le_bytes([blob[0], blob[1], blob[2], blob[3]]) as usize;
        ensure!(
            trie_len % 4 == 0 && trie_len > 0 && 4 + trie_len <= blob.len(),
            "precompiled charsmap: trie of {trie_len} bytes in a blob of {}",
            blob.len()
        );
        let units = blob[4..4 + trie_len]
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        let Ok(normalized) = String::from_utf8(blob[4 + trie_len..].to_vec()) else {
            bail!("precompiled charsmap: replacement strings are not UTF-8");
        };
        Ok(Self { units, normalized })
    }

    /// The longest charsmap rule at the start of `input`: (replacement,
    /// bytes consumed), or None when no key prefixes `input`.
    fn longest_rule(&self, input: &[u8]) -> Option<(&str, usize)> {
        let offset = |unit: u32| ((unit >> 10) << ((unit & 0x200) >> 6)) as usize;
        let mut node = offset(*self.units.first()?);
        let mut best: Option<(usize, usize)> = None; // (length, value)
        for (i, &c) in input.iter().enumerate() {
            node ^= c as usize;
            // label(): the byte, and bit 31 clear (set on value units).
            match self.units.get(node) {
                Some(&unit) if unit & 0x8000_00FF == c as u32 => {
                    node ^= offset(unit);
                    if unit & 0x100 != 0 {
                        let Some(&value) = self.units.get(node) else { break };
                        best = Some((i + 1, (value & 0x7FFF_FFFF) as usize));
                    }
                }
                _ => break,
            }
        }
        let (length, value) = best?;
        // A value outside the strings (never in a well-formed charsmap) counts
        // as no match, as in the reference port.
        let rest = self.normalized.get(value..)?;
        let end = rest.find('\0').unwrap_or(rest.len());
        Some((&rest[..end], length))
    }

    /// `NormalizePrefix`: what the start of `input` normalizes to and how
    /// many bytes of it that consumes (always at least one character).
    fn normalize_prefix<'a>(&'a self, input: &'a str) -> (&'a str, usize) {
        if let Some(rule) = self.longest_rule(input.as_bytes()) {
            return rule;
        }
        let n = input.chars().next().map_or(0, char::len_utf8);
        (&input[..n], n)
    }

    /// The normalized text as SentencePiece's Unigram model sees it:
    /// e.g. `"  Hello   ＷＯＲＬＤ "` becomes `"▁Hello▁WORLD"`. Empty when the
    /// text is empty or normalizes to whitespace only.
    pub fn normalize(&self, text: &str) -> String {
        let mut input = text;
        // Heading whitespace (anything that normalizes to exactly " ").
        while !input.is_empty() {
            let (piece, consumed) = self.normalize_prefix(input);
            if piece != " " {
                break;
            }
            input = &input[consumed..];
        }
        if input.is_empty() {
            return String::new();
        }
        let mut out = String::with_capacity(input.len() * 3);
        out.push_str(SPACE_SYMBOL); // dummy prefix
        let mut is_prev_space = true;
        while !input.is_empty() {
            let (mut piece, consumed) = self.normalize_prefix(input);
            input = &input[consumed..];
            if is_prev_space {
                piece = piece.trim_start_matches(' ');
            }
            if !piece.is_empty() {
                for (i, part) in piece.split(' ').enumerate() {
                    if i > 0 {
                        out.push_str(SPACE_SYMBOL);
                    }
                    out.push_str(part);
                }
                is_prev_space = piece.ends_with(' ');
            }
        }
        while out.ends_with(SPACE_SYMBOL) {
            out.truncate(out.len() - SPACE_SYMBOL.len());
        }
        out
    }
}

/// Standard base64 (with or without `=` padding), as `tokenizers` writes the
/// charsmap into tokenizer.json.
pub fn decode_base64(text: &str) -> Result<Vec<u8>> {
    let digit = |c: u8| -> Result<u32> {
        Ok(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => bail!("base64: unexpected byte {c:#04x}"),
        } as u32)
    };
    let data = text.trim_end_matches('=').as_bytes();
    ensure!(data.len() % 4 != 1, "base64: truncated input");
    let mut out = Vec::with_capacity(data.len() / 4 * 3 + 2);
    for chunk in data.chunks(4) {
        let mut bits = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            bits |= digit(c)? << (18 - 6 * i);
        }
        let bytes = bits.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A charsmap blob in darts-clone's layout for (key, replacement) rules:
    /// every trie node gets its own 1,024-unit block, its children at
    /// `base ^ byte` and its value unit at `base`.
    fn charsmap(rules: &[(&str, &str)]) -> Vec<u8> {
        use std::collections::BTreeMap;
        #[derive(Default)]
        struct Node {
            children: BTreeMap<u8, Node>,
            value: Option<u32>,
        }
        let mut root = Node::default();
        let mut strings = Vec::new();
        for (key, replacement) in rules {
            let node = key.bytes().fold(&mut root, |node, b| node.children.entry(b).or_default());
            node.value = Some(strings.len() as u32);
            strings.extend_from_slice(replacement.as_bytes());
            strings.push(0);
        }
        fn place(node: &Node, pos: usize, units: &mut Vec<u32>) {
            // A fresh block of units; the offset (pos ^ base) is stored in
            // bits 10.. of the unit (darts-clone's encoding for offsets < 2^21).
            let block = units.len() >> 10;
            units.resize(units.len() + 1024, 0);
            let base = (block << 10) | (pos & 0x3FF);
            let offset = (pos ^ base) as u32;
            assert!(offset < 1 << 21);
            units[pos] |= (offset << 10) | if node.value.is_some() { 0x100 } else { 0 };
            if let Some(value) = node.value {
                units[base] = value | 0x8000_0000;
            }
            for (&b, child) in &node.children {
                units[base ^ b as usize] = b as u32;
                place(child, base ^ b as usize, units);
            }
        }
        let mut units = vec![0u32; 1024];
        place(&root, 0, &mut units);
        let mut blob = ((units.len() * 4) as u32).to_le_bytes().to_vec();
        units.iter().for_each(|u| blob.extend_from_slice(&u.to_le_bytes()));
        blob.extend_from_slice(&strings);
        blob
    }

    #[test]
    fn base64_round_trips() {
        assert_eq!(decode_base64("").unwrap(), b"");
        assert_eq!(decode_base64("Zg==").unwrap(), b"f");
        assert_eq!(decode_base64("Zm8=").unwrap(), b"fo");
        assert_eq!(decode_base64("Zm9v").unwrap(), b"foo");
        assert_eq!(decode_base64("Zm9vYmFy").unwrap(), b"foobar");
        assert_eq!(decode_base64("/+A").unwrap(), [0xff, 0xe0]);
        assert!(decode_base64("Zm9v!").is_err());
    }

    #[test]
    fn longest_rule_wins_over_shorter_ones() {
        let n = SpmNormalizer::from_charsmap(&charsmap(&[("a", "x"), ("ab", "y"), ("abc", "z")])).unwrap();
        assert_eq!(n.normalize("abcd"), "▁zd");
        assert_eq!(n.normalize("abd"), "▁yd");
        assert_eq!(n.normalize("ad"), "▁xd");
        // A key's prefix that is no key itself does not match.
        let n = SpmNormalizer::from_charsmap(&charsmap(&[("a", "x"), ("abc", "z")])).unwrap();
        assert_eq!(n.normalize("abd"), "▁xbd");
    }

    #[test]
    fn whitespace_rules() {
        let n = SpmNormalizer::from_charsmap(&charsmap(&[("\t", " "), ("\u{3000}", " "), ("x", " x ")])).unwrap();
        assert_eq!(n.normalize(""), "");
        assert_eq!(n.normalize(" \t\u{3000} "), "");
        assert_eq!(n.normalize("  a   b \t c  "), "▁a▁b▁c");
        // Spaces produced by a rule are collapsed with their neighbours too.
        assert_eq!(n.normalize("a x b"), "▁a▁x▁b");
        assert_eq!(n.normalize("x"), "▁x");
    }

    /// The model's own charsmap, from models/muse-v3/tokenizer.json (built by
    /// `python3 models/build.py`).
    fn model_normalizer() -> SpmNormalizer {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models/muse-v3/tokenizer.json");
        let json = std::fs::read(&path)
            .unwrap_or_else(|e| panic!("{}: {e}: run `python3 models/build.py` first", path.display()));
        super::super::read_tokenizer(&json).expect("tokenizer.json").0
    }

    /// Expected outputs checked by hand (and against sentencepiece's
    /// SentencePieceNormalizer for sp.model).
    #[test]
    fn model_charsmap_hand_checked() {
        let n = model_normalizer();
        let cases: &[(&str, &str)] = &[
            ("", ""),
            ("   ", ""),
            ("\u{3000}\t\n ", ""),
            // Decomposed Vietnamese: base letter + two combining marks is one
            // rule (longest match), composed to a single code point.
            ("Tie\u{302}\u{301}ng Vie\u{323}\u{302}t", "▁Ti\u{1ebf}ng▁Vi\u{1ec7}t"),
            ("Ha\u{300} No\u{323}\u{302}i co\u{301} mu\u{31b}a lo\u{31b}\u{301}n",
             "▁H\u{e0}▁N\u{1ed9}i▁c\u{f3}▁m\u{1b0}a▁l\u{1edb}n"),
            // Stacked marks: only the composable pair is composed.
            ("a\u{308}\u{301}l\u{334}", "▁\u{e4}\u{301}l\u{334}"),
            ("x\u{301}\u{302}\u{303}", "▁x\u{301}\u{302}\u{303}"),
            // Half-width katakana with half-width (semi-)voiced marks: one
            // full-width kana each; a lone mark becomes the combining one.
            ("\u{ff8a}\u{ff9f}\u{ff9d}\u{3068}\u{ff76}\u{ff9e}\u{ff7d}", "▁\u{30d1}\u{30f3}\u{3068}\u{30ac}\u{30b9}"),
            ("\u{ff76} \u{ff9e}", "▁\u{30ab}▁\u{3099}"),
            // Full-width ASCII and the ideographic space.
            ("ＡＢＣ\u{3000}ｘｙｚ\u{3000}１２３！", "▁ABC▁xyz▁123!"),
            ("（半角ｶﾅ）", "▁(半角カナ)"),
            // Compatibility characters.
            ("\u{fb01}", "▁fi"),
            ("\u{2460}", "▁1"),
            // Extra whitespace: heading, trailing and repeated, any kind.
            ("  a \t\n b   ", "▁a▁b"),
            ("Hello   world", "▁Hello▁world"),
            // Zero-width space normalizes to nothing.
            ("\u{200b}", ""),
            ("a\u{0}b", "▁a\u{0}b"),
        ];
        for (text, want) in cases {
            assert_eq!(n.normalize(text), *want, "normalize({text:?})");
        }
    }
}
