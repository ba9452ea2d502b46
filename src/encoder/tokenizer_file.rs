//! The tokenizer as the app reads it (`tokenizer.bin`, issue #43 part 2):
//! tokenizer.json's SentencePiece model, parsed, checked and sorted once at
//! set-up, so that a page load copies arrays instead of parsing 4.6 MB of
//! JSON and sorting 128,000 pieces (0.2–0.45 s in WebKit, docs/speed.md).
//! Token ids are tokenizer.json's (`tests/encoder_parity.rs`).
//!
//! Layout, little-endian: `PRECIST1`; unk id, pieces, piece bytes, sorted
//! pieces and charsmap bytes (u32 each); the pieces' starts (u32, one more
//! than the pieces); their scores (f64); their bytes; the non-empty pieces'
//! ids in byte order (u32); the normalizer's precompiled charsmap.

use anyhow::{ensure, Context, Result};

use super::spm_normalizer::SpmNormalizer;
use super::unigram::Unigram;

const MAGIC: &[u8; 8] = b"PRECIST1";

/// True for the bytes of a tokenizer file (and not of a tokenizer.json).
pub fn is_tokenizer_file(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// The tokenizer file of a tokenizer.json.
pub fn write(tokenizer_json: &[u8]) -> Result<Vec<u8>> {
    let (charsmap, unigram) = super::read_tokenizer_json(tokenizer_json)?;
    let parts = unigram.parts();
    let mut file = MAGIC.to_vec();
    let counts = [parts.unk_id as usize, parts.scores.len(), parts.bytes.len(), parts.sorted_ids.len(), charsmap.len()];
    for count in counts {
        file.extend_from_slice(&u32::try_from(count)?.to_le_bytes());
    }
    parts.starts.iter().for_each(|start| file.extend_from_slice(&start.to_le_bytes()));
    parts.scores.iter().for_each(|score| file.extend_from_slice(&score.to_le_bytes()));
    file.extend_from_slice(parts.bytes);
    parts.sorted_ids.iter().for_each(|id| file.extend_from_slice(&id.to_le_bytes()));
    file.extend_from_slice(&charsmap);
    Ok(file)
}

/// The normalizer and the Unigram model of a file [`write`] wrote.
pub fn read(bytes: &[u8]) -> Result<(SpmNormalizer, Unigram)> {
    ensure!(is_tokenizer_file(bytes), "not a Précis tokenizer file");
    let mut rest = Fields(&bytes[MAGIC.len()..]);
    let [unk_id, pieces, piece_bytes, sorted, charsmap] = [(); 5].map(|_| rest.u32());
    let (unk_id, pieces, piece_bytes, sorted, charsmap) = (unk_id?, pieces? as usize, piece_bytes? as usize, sorted? as usize, charsmap? as usize);
    let starts = rest.u32s(pieces.checked_add(1).context("too many pieces")?)?;
    let scores: Vec<f64> = rest.take(pieces.checked_mul(8).context("too many pieces")?)?
        .chunks_exact(8)
        .map(|b| f64::from_le_bytes(b.try_into().expect("8 bytes")))
        .collect();
    let piece_bytes = rest.take(piece_bytes)?.to_vec();
    let sorted_ids = rest.u32s(sorted)?;
    let normalizer = SpmNormalizer::from_charsmap(rest.take(charsmap)?)?;
    ensure!(rest.0.is_empty(), "{} bytes after the charsmap", rest.0.len());
    Ok((normalizer, Unigram::from_parts(piece_bytes, starts, scores, &sorted_ids, unk_id)?))
}

/// The file's fields, read front to back.
struct Fields<'a>(&'a [u8]);

impl<'a> Fields<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        ensure!(n <= self.0.len(), "the tokenizer file is cut short");
        let (taken, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(taken)
    }

    fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into()?))
    }

    fn u32s(&mut self, n: usize) -> Result<Vec<u32>> {
        let bytes = self.take(n.checked_mul(4).context("a count too large")?)?;
        Ok(bytes.chunks_exact(4).map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes"))).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tokenizer.json as the converter writes it, small: seven pieces, and
    /// the smallest charsmap (a trie of one unit, which knows no rule:
    /// `[4, 0]` as u32, in base64).
    fn tokenizer_json() -> String {
        let charsmap = "BAAAAAAAAAA=";
        format!(
            r#"{{"normalizer": {{"type": "Precompiled", "precompiled_charsmap": "{charsmap}"}},
                "pre_tokenizer": {{"type": "Metaspace"}},
                "model": {{"type": "Unigram", "unk_id": 0, "vocab": [["<unk>", 0.0], ["<s>", 0.0], ["</s>", 0.0],
                  ["▁a", -1.0], ["b", -2.5], ["▁ab", -2.0], ["\u00e9", -3.0]]}}}}"#
        )
    }

    fn segment(unigram: &Unigram, text: &str) -> Vec<u32> {
        let mut ids = vec![];
        unigram.segment(text, &mut ids);
        ids
    }

    #[test]
    fn a_tokenizer_file_segments_as_its_json() -> Result<()> {
        let json = tokenizer_json();
        let file = write(json.as_bytes())?;
        let (_, from_file) = read(&file)?;
        let (_, from_json) = super::super::read_tokenizer_json(json.as_bytes())?;
        for text in ["▁ab", "▁a▁ab", "▁abb", "▁éb", "▁x", ""] {
            assert_eq!(segment(&from_file, text), segment(&from_json, text), "{text}");
        }
        assert_eq!(segment(&from_file, "▁ab▁a"), vec![5, 3]);
        Ok(())
    }

    #[test]
    fn a_damaged_tokenizer_file_is_refused_with_a_reason() -> Result<()> {
        let file = write(tokenizer_json().as_bytes())?;
        let message = |bytes: &[u8]| format!("{:#}", read(bytes).err().expect("an error"));
        assert!(message(b"{\"model\": {}}").contains("not a Précis tokenizer file"));
        assert!(message(&file[..file.len() - 1]).contains("cut short"));
        assert!(message(&file[..30]).contains("cut short"));
        let mut extra = file.clone();
        extra.push(0);
        assert!(message(&extra).contains("1 bytes after the charsmap"));
        // A start beyond the pieces' bytes.
        let mut overlapping = file.clone();
        overlapping[8 + 20 + 4..8 + 20 + 8].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(message(&overlapping).contains("overlap"), "{}", message(&overlapping));
        Ok(())
    }
}
