//! The key two lines share when they differ only in case, spaces and
//! punctuation, and its 64-bit hash. Also compiled into build.rs (through
//! `#[path]`), which hashes `boilerplate.txt` with these same functions.

/// Letters and digits, lowercased: the key that makes "( associated press )"
/// and "(Associated Press)" the same line.
pub fn line_key(text: &str) -> String {
    text.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
}

/// The FNV-1a hash of a key, 64 bits: stable across builds and platforms
/// (std's hasher is neither), and a collision among a few hundred lines has
/// odds of ~1e-15.
pub fn key_hash(key: &str) -> u64 {
    fnv1a(FNV_OFFSET, key.as_bytes())
}

/// FNV-1a's starting value.
pub const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a, 64 bits, continued from `hash` over `bytes` (also the CLI's
/// embedding cache key).
pub fn fnv1a(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |hash, &byte| (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3))
}

/// The sentences of a boilerplate list (one a line, `#` comments), hashed
/// and sorted for a binary search. (build.rs's; the crate only tests it.)
#[cfg_attr(not(test), allow(dead_code))]
pub fn hashed_lines(list: &str) -> Vec<u64> {
    let mut hashes: Vec<u64> =
        list.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).map(|l| key_hash(&line_key(l))).collect();
    hashes.sort_unstable();
    hashes.dedup();
    hashes
}
