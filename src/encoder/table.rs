//! The encoder's embedding table (`models/muse-v3/table.u8`), kept out of
//! the network (issue #43): the encoder looks up each batch's rows itself and
//! hands them to the graph, so that a caller can hold only the rows its
//! texts use.
//!
//! The file (written by `models/build.py`, `write_table`): the magic
//! `PRECISTB`, three little-endian u32 (bytes per row, chunks, rows per
//! chunk), then the rows, uint8. Piece `id` is row `(id mod chunks) ·
//! rows_per_chunk + id div chunks`: chunk-major, each chunk with its own
//! scale (the graph dequantizes), which gzips 3 MB smaller than the pieces
//! in id order.

use anyhow::{ensure, Context, Result};

const MAGIC: &[u8; 8] = b"PRECISTB";
const HEADER_BYTES: usize = MAGIC.len() + 3 * 4;

pub struct EmbeddingTable {
    rows: Vec<u8>,
    row_bytes: usize,
    chunks: usize,
    rows_per_chunk: usize,
}

impl EmbeddingTable {
    /// Reads the table from its file's bytes; errors say what is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        ensure!(bytes.len() >= HEADER_BYTES && bytes.starts_with(MAGIC), "not an embedding table (no PRECISTB header)");
        let field = |i: usize| -> usize {
            let at = MAGIC.len() + 4 * i;
            u32::from_le_bytes(bytes[at..at + 4].try_into().expect("four bytes")) as usize
        };
        let (row_bytes, chunks, rows_per_chunk) = (field(0), field(1), field(2));
        ensure!(row_bytes > 0 && chunks > 0 && rows_per_chunk > 0, "an embedding table with an empty dimension");
        let expected = row_bytes.checked_mul(chunks).and_then(|n| n.checked_mul(rows_per_chunk)).context("an embedding table too large")?;
        let rows = &bytes[HEADER_BYTES..];
        ensure!(rows.len() == expected, "the embedding table holds {} bytes of rows, its header says {expected}", rows.len());
        Ok(Self { rows: rows.to_vec(), row_bytes, chunks, rows_per_chunk })
    }

    /// Bytes per row (the embedding's width).
    pub fn row_bytes(&self) -> usize {
        self.row_bytes
    }

    /// How many pieces have a row.
    pub fn pieces(&self) -> usize {
        self.chunks * self.rows_per_chunk
    }

    /// The row of piece `id`.
    pub fn row(&self, id: usize) -> Result<&[u8]> {
        ensure!(id < self.pieces(), "piece {id} has no row in the embedding table ({} pieces)", self.pieces());
        let row = (id % self.chunks) * self.rows_per_chunk + id / self.chunks;
        Ok(&self.rows[row * self.row_bytes..(row + 1) * self.row_bytes])
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A table of `chunks` × `per_chunk` rows of 2 bytes, row r holding [r, 100 + r].
    fn table_bytes(chunks: u32, per_chunk: u32) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        for v in [2, chunks, per_chunk] {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        for r in 0..(chunks * per_chunk) as u8 {
            bytes.extend_from_slice(&[r, 100 + r]);
        }
        bytes
    }

    #[test]
    fn a_piece_is_found_in_its_chunk() {
        let table = EmbeddingTable::from_bytes(&table_bytes(3, 4)).unwrap();
        assert_eq!(table.pieces(), 12);
        // Piece 7: chunk 7 mod 3 = 1, row 1 · 4 + 7 div 3 = 6.
        assert_eq!(table.row(7).unwrap(), [6, 106]);
        assert_eq!(table.row(0).unwrap(), [0, 100]);
        // Piece 11: chunk 2, row 2 · 4 + 3 = 11.
        assert_eq!(table.gather(&[11, 1]).unwrap(), [11, 111, 4, 104]);
    }

    #[test]
    fn a_damaged_table_or_an_unknown_piece_says_what_is_wrong() {
        let bytes = table_bytes(3, 4);
        assert!(EmbeddingTable::from_bytes(&bytes[..bytes.len() - 1]).err().unwrap().to_string().contains("header says 24"));
        assert!(EmbeddingTable::from_bytes(b"PK\x03\x04 not a table at all").err().unwrap().to_string().contains("PRECISTB"));
        let table = EmbeddingTable::from_bytes(&bytes).unwrap();
        assert!(table.gather(&[12]).unwrap_err().to_string().contains("piece 12"));
        assert!(table.gather(&[-1]).is_err());
    }
}
