//! The encoder's embedding table (`models/muse-v3/table.u8`), kept out of
//! the network (issue #43): the encoder looks up each batch's rows itself and
//! hands them to the graph, so that a caller can hold only the rows its
//! texts use.
//!
//! The file (written by `models/build.py`, `write_table`):
//! - the magic `PRECISBK` and five little-endian u32: bytes per row,
//!   pieces, rows per block, blocks, bytes of the index;
//! - the index, zlib: each piece's row (u32), then each block's end in the
//!   block data (u32);
//! - the blocks, each zlib on its own (its Adler-32 checks it on reading).
//!
//! The header and the index are the *head*: with it alone the table knows
//! which blocks a text needs and where they lie in the file, and the app's
//! worker fetches just those ([`EmbeddingTable::missing_blocks`],
//! [`EmbeddingTable::block_span`], [`EmbeddingTable::add_block`]). The rows
//! are ordered so that the pieces one language uses sit together
//! (`models/table/order.py`), so a text needs few blocks. Given the whole
//! file, every block is there and is inflated on first use.

use anyhow::{bail, ensure, Context, Result};
use std::ops::Range;
use std::sync::OnceLock;

const MAGIC: &[u8; 8] = b"PRECISBK";

/// The piece whose row fills a batch's unused slots up to its plan's size
/// (`Encoder::batch_inputs`): no token points at them, but the rows are
/// read, so its block is needed with any text's.
pub const PADDING_PIECE: u32 = 0;
const FIELDS: usize = 5;
const HEADER_BYTES: usize = MAGIC.len() + FIELDS * 4;

pub struct EmbeddingTable {
    row_bytes: usize,
    block_rows: usize,
    row_of_piece: Vec<u32>,
    /// Each block's bytes in the file.
    block_spans: Vec<Range<usize>>,
    /// The blocks inflated so far.
    blocks: Vec<OnceLock<Box<[u8]>>>,
    /// The whole file, once the caller has it: blocks are inflated from it
    /// on first use.
    file: OnceLock<Vec<u8>>,
}

/// The fixed header's fields.
struct Header {
    row_bytes: usize,
    pieces: usize,
    block_rows: usize,
    blocks: usize,
    index_bytes: usize,
}

fn read_header(bytes: &[u8]) -> Result<Header> {
    ensure!(bytes.len() >= HEADER_BYTES && bytes.starts_with(MAGIC), "not an embedding table (no PRECISBK header)");
    let field = |i: usize| -> usize {
        let at = MAGIC.len() + 4 * i;
        u32::from_le_bytes(bytes[at..at + 4].try_into().expect("four bytes")) as usize
    };
    let header = Header { row_bytes: field(0), pieces: field(1), block_rows: field(2), blocks: field(3), index_bytes: field(4) };
    ensure!(
        header.row_bytes > 0 && header.pieces > 0 && header.block_rows > 0,
        "an embedding table with an empty dimension"
    );
    ensure!(
        header.blocks == header.pieces.div_ceil(header.block_rows),
        "the embedding table's header says {} blocks of {} rows for {} pieces",
        header.blocks,
        header.block_rows,
        header.pieces
    );
    Ok(header)
}

fn inflate(compressed: &[u8], expected: usize) -> Result<Vec<u8>> {
    let bytes = miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(compressed, expected)
        .map_err(|e| anyhow::anyhow!("{:?}", e.status))?;
    ensure!(bytes.len() == expected, "{} bytes where {expected} were expected", bytes.len());
    Ok(bytes)
}

fn u32s(bytes: &[u8]) -> impl Iterator<Item = u32> + '_ {
    bytes.chunks_exact(4).map(|b| u32::from_le_bytes(b.try_into().expect("four bytes")))
}

impl EmbeddingTable {
    /// How many bytes of the file come before its first block (the header
    /// and the index): what a caller reads first.
    pub fn head_bytes(file_start: &[u8]) -> Result<usize> {
        Ok(HEADER_BYTES + read_header(file_start)?.index_bytes)
    }

    /// Reads the table from the file's bytes: its head alone (no block
    /// yet), or the whole file. Errors say what is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        let header = read_header(bytes)?;
        let head = HEADER_BYTES + header.index_bytes;
        ensure!(bytes.len() >= head, "the embedding table's index is cut short");
        let index = inflate(&bytes[HEADER_BYTES..head], 4 * (header.pieces + header.blocks))
            .context("the embedding table's index is damaged")?;
        let (rows, ends) = index.split_at(4 * header.pieces);
        let row_of_piece: Vec<u32> = u32s(rows).collect();
        ensure!(row_of_piece.iter().all(|&r| (r as usize) < header.pieces), "the embedding table's index names a row it lacks");
        let mut block_spans = Vec::with_capacity(header.blocks);
        let mut start = head;
        for end in u32s(ends) {
            let end = head + end as usize;
            ensure!(end >= start, "the embedding table's block index is out of order");
            block_spans.push(start..end);
            start = end;
        }
        let table = Self {
            row_bytes: header.row_bytes,
            block_rows: header.block_rows,
            row_of_piece,
            block_spans,
            blocks: (0..header.blocks).map(|_| OnceLock::new()).collect(),
            file: OnceLock::new(),
        };
        if bytes.len() > head {
            table.add_file(bytes.to_vec())?;
        }
        Ok(table)
    }

    /// Bytes per row (the embedding's width).
    pub fn row_bytes(&self) -> usize {
        self.row_bytes
    }

    /// How many pieces have a row.
    pub fn pieces(&self) -> usize {
        self.row_of_piece.len()
    }

    /// How many blocks the table is stored in.
    pub fn blocks(&self) -> usize {
        self.block_spans.len()
    }

    /// The bytes of the whole file.
    pub fn file_bytes(&self) -> usize {
        self.block_spans.last().map_or(0, |span| span.end)
    }

    /// Where block `block` lies in the file.
    pub fn block_span(&self, block: usize) -> Range<usize> {
        self.block_spans[block].clone()
    }

    /// Whether every row can be read (the whole file, or every block, is here).
    pub fn is_whole(&self) -> bool {
        self.file.get().is_some() || self.blocks.iter().all(|b| b.get().is_some())
    }

    /// The whole file, read later (the app's background download): every
    /// block becomes readable.
    pub fn add_file(&self, file: Vec<u8>) -> Result<()> {
        ensure!(
            file.len() == self.file_bytes(),
            "the embedding table holds {} bytes, its index says {}",
            file.len(),
            self.file_bytes()
        );
        let _ = self.file.set(file);
        Ok(())
    }

    /// Inflates up to `count` blocks not inflated yet, from the whole file
    /// (the app's worker does this while idle, so that no summary pays for
    /// it); false once none is left, or without the whole file.
    pub fn inflate_ahead(&self, count: usize) -> bool {
        let Some(file) = self.file.get() else { return false };
        let mut pending = (0..self.blocks()).filter(|&block| self.blocks[block].get().is_none());
        for block in pending.by_ref().take(count) {
            // A damaged block stays as it is: reading its rows says so.
            let _ = self.add_block(block, &file[self.block_span(block)]);
        }
        pending.next().is_some()
    }

    /// Block `block`, from its bytes in the file (`block_span`): inflated
    /// and checked; a damaged block is refused.
    pub fn add_block(&self, block: usize, compressed: &[u8]) -> Result<()> {
        ensure!(block < self.blocks(), "the embedding table has no block {block}");
        let rows = inflate(compressed, self.rows_in(block) * self.row_bytes)
            .with_context(|| format!("block {block} of the embedding table is damaged"))?;
        let _ = self.blocks[block].set(rows.into_boxed_slice());
        Ok(())
    }

    /// The blocks that hold the rows of `ids`, in file order, each once;
    /// with [`PADDING_PIECE`]'s, which every padded batch reads.
    pub fn blocks_of(&self, ids: impl IntoIterator<Item = u32>) -> Vec<usize> {
        let mut blocks: Vec<usize> = ids
            .into_iter()
            .chain([PADDING_PIECE])
            .filter_map(|id| self.row_of_piece.get(id as usize))
            .map(|&row| row as usize / self.block_rows)
            .collect();
        blocks.sort_unstable();
        blocks.dedup();
        blocks
    }

    /// The blocks that hold the rows of `ids` and cannot be read yet, in
    /// file order, each once.
    pub fn missing_blocks(&self, ids: impl IntoIterator<Item = u32>) -> Vec<usize> {
        if self.file.get().is_some() {
            return vec![];
        }
        let mut blocks = self.blocks_of(ids);
        blocks.retain(|&block| self.blocks[block].get().is_none());
        blocks
    }

    /// Consecutive blocks `first..`, as they lie in the file one after the
    /// other (one ranged request's bytes); each is checked.
    pub fn add_blocks(&self, first: usize, bytes: &[u8]) -> Result<()> {
        let start = self.block_spans.get(first).context("no such block")?.start;
        let mut block = first;
        while block < self.blocks() && self.block_spans[block].end - start <= bytes.len() {
            let span = self.block_span(block);
            self.add_block(block, &bytes[span.start - start..span.end - start])?;
            block += 1;
        }
        ensure!(
            block > first && self.block_spans[block - 1].end - start == bytes.len(),
            "{} bytes do not end on a block of the embedding table",
            bytes.len()
        );
        Ok(())
    }

    /// The runs of a [`bundle_runs`] entry, each added and checked; a
    /// damaged bundle is refused.
    pub fn add_bundle(&self, bundle: &[u8]) -> Result<()> {
        let mut fields = bundle.chunks_exact(4).map(|b| u32::from_le_bytes(b.try_into().expect("four bytes")) as usize);
        let count = fields.next().context("an empty bundle of table blocks")?;
        let mut at = count.checked_mul(8).and_then(|n| n.checked_add(4)).filter(|&n| n <= bundle.len()).context("a bundle of table blocks cut short")?;
        let runs: Vec<(usize, usize)> = (0..count).map(|_| (fields.next().unwrap_or(0), fields.next().unwrap_or(0))).collect();
        for (first, bytes) in runs {
            let run = bundle.get(at..at + bytes).context("a bundle of table blocks cut short")?;
            self.add_blocks(first, run)?;
            at += bytes;
        }
        ensure!(at == bundle.len(), "a bundle of table blocks with {} bytes too many", bundle.len() - at);
        Ok(())
    }

    /// Block `block`'s rows as inflated (for a helper's table, see
    /// [`EmbeddingTable::add_rows`]).
    pub fn block_rows(&self, block: usize) -> Result<&[u8]> {
        ensure!(block < self.blocks(), "the embedding table has no block {block}");
        self.block(block)
    }

    /// The bytes of block `block`'s rows (0 for a block it lacks).
    pub fn inflated_bytes(&self, block: usize) -> usize {
        if block < self.blocks() { self.rows_in(block) * self.row_bytes } else { 0 }
    }

    /// Block `block`'s rows, already inflated by another copy of the table.
    pub fn add_rows(&self, block: usize, rows: &[u8]) -> Result<()> {
        ensure!(block < self.blocks(), "the embedding table has no block {block}");
        ensure!(rows.len() == self.rows_in(block) * self.row_bytes, "block {block} of the embedding table has other rows");
        let _ = self.blocks[block].set(rows.into());
        Ok(())
    }

    fn rows_in(&self, block: usize) -> usize {
        self.block_rows.min(self.pieces() - block * self.block_rows)
    }

    fn block(&self, block: usize) -> Result<&[u8]> {
        if let Some(rows) = self.blocks[block].get() {
            return Ok(rows);
        }
        let Some(file) = self.file.get() else {
            bail!("block {block} of the embedding table has not been loaded");
        };
        self.add_block(block, &file[self.block_span(block)])?;
        Ok(self.blocks[block].get().expect("just added"))
    }

    /// The row of piece `id`.
    pub fn row(&self, id: usize) -> Result<&[u8]> {
        let Some(&row) = self.row_of_piece.get(id) else {
            bail!("piece {id} has no row in the embedding table ({} pieces)", self.pieces());
        };
        let (block, within) = (row as usize / self.block_rows, row as usize % self.block_rows);
        Ok(&self.block(block)?[within * self.row_bytes..(within + 1) * self.row_bytes])
    }

    /// The rows of `ids`, one after the other.
    pub fn gather(&self, ids: &[i64]) -> Result<Vec<u8>> {
        let mut out = Vec::with_capacity(ids.len() * self.row_bytes);
        for &id in ids {
            let id = usize::try_from(id).context("a negative piece id")?;
            out.extend_from_slice(self.row(id)?);
        }
        Ok(out)
    }
}

/// Runs of blocks as one cache entry, so that a reload reads a text's runs
/// back in one go (a Cache API read per run took 0.15-0.3 s for the example
/// set's: docs/speed.md): the number of runs, each run's first block and
/// byte length, then the runs' bytes as they lie in the file (u32, little-endian).
pub fn bundle_runs(runs: &[(usize, Vec<u8>)]) -> Vec<u8> {
    let bytes: usize = runs.iter().map(|(_, run)| run.len()).sum();
    let mut bundle = Vec::with_capacity(4 + 8 * runs.len() + bytes);
    bundle.extend_from_slice(&(runs.len() as u32).to_le_bytes());
    for (first, run) in runs {
        bundle.extend_from_slice(&(*first as u32).to_le_bytes());
        bundle.extend_from_slice(&(run.len() as u32).to_le_bytes());
    }
    for (_, run) in runs {
        bundle.extend_from_slice(run);
    }
    bundle
}

/// The ranged requests that fetch `blocks` (sorted): runs of consecutive
/// blocks, a run carried across a gap of at most `gap` blocks, since a
/// 16-row block is a few kilobytes and a request costs more than that.
pub fn fetch_runs(blocks: &[usize], gap: usize) -> Vec<std::ops::RangeInclusive<usize>> {
    let mut runs: Vec<std::ops::RangeInclusive<usize>> = vec![];
    for &block in blocks {
        match runs.last_mut() {
            Some(run) if block <= run.end() + gap + 1 => *run = *run.start()..=block.max(*run.end()),
            _ => runs.push(block..=block),
        }
    }
    runs
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn zlib(bytes: &[u8]) -> Vec<u8> {
        miniz_oxide::deflate::compress_to_vec_zlib(bytes, 6)
    }

    /// A table file as build.py writes it: `pieces` rows of 2 bytes in
    /// blocks of `block_rows`, piece p in row `row_of(p)`, holding [p, 100 + p].
    pub(crate) fn table_file(pieces: u32, block_rows: u32, row_of: impl Fn(u32) -> u32) -> Vec<u8> {
        let mut rows = vec![0u8; 2 * pieces as usize];
        for p in 0..pieces {
            let r = row_of(p) as usize;
            rows[2 * r..2 * r + 2].copy_from_slice(&[p as u8, 100 + p as u8]);
        }
        let blocks: Vec<Vec<u8>> = rows.chunks(2 * block_rows as usize).map(zlib).collect();
        let mut index: Vec<u8> = (0..pieces).flat_map(|p| row_of(p).to_le_bytes()).collect();
        let mut end = 0;
        for block in &blocks {
            end += block.len() as u32;
            index.extend_from_slice(&end.to_le_bytes());
        }
        let index = zlib(&index);
        let mut file = MAGIC.to_vec();
        for v in [2, pieces, block_rows, blocks.len() as u32, index.len() as u32] {
            file.extend_from_slice(&v.to_le_bytes());
        }
        file.extend_from_slice(&index);
        blocks.iter().for_each(|b| file.extend_from_slice(b));
        file
    }

    /// 10 pieces in blocks of 4, stored in reverse: piece p in row 9 - p.
    fn reversed() -> Vec<u8> {
        table_file(10, 4, |p| 9 - p)
    }

    #[test]
    fn a_piece_is_found_in_its_row_of_the_whole_file() {
        let table = EmbeddingTable::from_bytes(&reversed()).unwrap();
        assert_eq!((table.pieces(), table.blocks()), (10, 3));
        assert!(table.is_whole());
        assert_eq!(table.row(7).unwrap(), [7, 107]);
        assert_eq!(table.gather(&[9, 0, 4]).unwrap(), [9, 109, 0, 100, 4, 104]);
        assert_eq!(table.missing_blocks([1, 2]), Vec::<usize>::new());
    }

    #[test]
    fn from_the_head_alone_only_the_blocks_added_are_read() {
        let file = reversed();
        let head = EmbeddingTable::head_bytes(&file).unwrap();
        let table = EmbeddingTable::from_bytes(&file[..head]).unwrap();
        assert!(!table.is_whole());
        // Pieces 0 and 1 are rows 9 and 8 (block 2, the last, of 2 rows);
        // piece 6 is row 3 (block 0).
        assert_eq!(table.missing_blocks([6, 0, 1, 6]), [0, 2]);
        // Piece 0 pads batches: its block (2) is always among those needed.
        assert_eq!(table.missing_blocks([6]), [0, 2]);
        assert!(table.row(0).unwrap_err().to_string().contains("not been loaded"));
        table.add_block(2, &file[table.block_span(2)]).unwrap();
        assert_eq!(table.gather(&[1, 0]).unwrap(), [1, 101, 0, 100]);
        assert_eq!(table.missing_blocks([6, 0, 1]), [0]);
        table.add_block(0, &file[table.block_span(0)]).unwrap();
        table.add_block(1, &file[table.block_span(1)]).unwrap();
        assert!(table.is_whole());
        assert_eq!(table.row(6).unwrap(), [6, 106]);
        // The whole file, fetched later, is taken as it is, and inflated ahead.
        let fresh = EmbeddingTable::from_bytes(&file[..head]).unwrap();
        assert!(!fresh.inflate_ahead(1));
        fresh.add_file(file.clone()).unwrap();
        assert!(fresh.inflate_ahead(2));
        assert!(!fresh.inflate_ahead(2));
        assert_eq!(fresh.blocks.iter().filter(|b| b.get().is_some()).count(), 3);
        table.add_file(file.clone()).unwrap();
        assert!(table.add_file(file[..file.len() - 1].to_vec()).is_err());
    }

    #[test]
    fn runs_of_blocks_carry_across_small_gaps() {
        assert_eq!(fetch_runs(&[], 2), vec![]);
        assert_eq!(fetch_runs(&[3, 4, 5, 8, 12, 20], 2), vec![3..=8, 12..=12, 20..=20]);
        assert_eq!(fetch_runs(&[3, 4, 5, 8, 12, 20], 0), vec![3..=5, 8..=8, 12..=12, 20..=20]);
    }

    #[test]
    fn a_run_of_blocks_and_a_helpers_rows_are_added_whole() {
        let file = reversed();
        let table = EmbeddingTable::from_bytes(&file[..EmbeddingTable::head_bytes(&file).unwrap()]).unwrap();
        let run = table.block_span(1).start..table.block_span(2).end;
        table.add_blocks(1, &file[run.clone()]).unwrap();
        assert_eq!(table.missing_blocks(0..10), [0]);
        assert!(table.add_blocks(0, &file[table.block_span(0).start..run.start + 1]).is_err());
        let helper = EmbeddingTable::from_bytes(&file[..EmbeddingTable::head_bytes(&file).unwrap()]).unwrap();
        helper.add_rows(2, table.block_rows(2).unwrap()).unwrap();
        assert_eq!(helper.gather(&[0, 1]).unwrap(), [0, 100, 1, 101]);
        assert!(helper.add_rows(1, table.block_rows(2).unwrap()).is_err());
        assert_eq!(table.blocks_of([7, 0, 5, 6]), [0, 1, 2]);
    }

    #[test]
    fn a_bundle_of_runs_adds_each_run_and_a_damaged_one_is_refused() {
        let file = reversed();
        let head = EmbeddingTable::head_bytes(&file).unwrap();
        let table = EmbeddingTable::from_bytes(&file[..head]).unwrap();
        let (zero, two) = (file[table.block_span(0)].to_vec(), file[table.block_span(2)].to_vec());
        let bundle = bundle_runs(&[(0, zero.clone()), (2, two)]);
        table.add_bundle(&bundle).unwrap();
        assert_eq!(table.missing_blocks(0..10), [1]);
        assert_eq!(table.gather(&[0, 9]).unwrap(), [0, 100, 9, 109]);
        let fresh = || EmbeddingTable::from_bytes(&file[..head]).unwrap();
        for damaged in [&bundle[..bundle.len() - 1], &bundle[..6], &[bundle.as_slice(), &[0]].concat(), &[][..]] {
            assert!(fresh().add_bundle(damaged).is_err(), "{} bytes", damaged.len());
        }
        // A run that claims the place of a block of another size.
        assert!(fresh().add_bundle(&bundle_runs(&[(2, zero)])).is_err());
        assert!(fresh().add_bundle(&bundle_runs(&[])).is_ok());
    }

    #[test]
    fn a_damaged_table_block_or_an_unknown_piece_says_what_is_wrong() {
        let file = reversed();
        let table = EmbeddingTable::from_bytes(&file[..EmbeddingTable::head_bytes(&file).unwrap()]).unwrap();
        let mut block = file[table.block_span(1)].to_vec();
        let last = block.len() - 1;
        block[last] ^= 1; // the Adler-32
        assert!(table.add_block(1, &block).unwrap_err().to_string().contains("block 1"));
        assert_eq!(table.missing_blocks([4]), [1, 2]);
        assert!(EmbeddingTable::from_bytes(&file[..30]).err().unwrap().to_string().contains("index"));
        assert!(EmbeddingTable::from_bytes(b"PK\x03\x04 not a table at all, no").err().unwrap().to_string().contains("PRECISBK"));
        assert!(EmbeddingTable::from_bytes(&file[..file.len() - 1]).err().unwrap().to_string().contains("bytes"));
        let whole = EmbeddingTable::from_bytes(&file).unwrap();
        assert!(whole.gather(&[10]).unwrap_err().to_string().contains("piece 10"));
        assert!(whole.gather(&[-1]).is_err());
    }
}
