//! Sentence embeddings kept by text between jobs, so that changing a
//! setting, striking a sentence or adding an article only encodes what is
//! new (the worker's, and the native replays' in tests).

use super::Embedding;
use std::collections::HashMap;

/// Embeddings kept between summaries (about 2 kB each): beyond this many
/// the cache starts over rather than grow without bound.
const CACHE_SENTENCES: usize = 50_000;

/// Sentence embeddings by sentence text, so changing a setting or adding an
/// article only embeds what is new.
#[derive(Default)]
pub struct EmbeddingCache {
    by_text: HashMap<String, Embedding>,
}

impl EmbeddingCache {
    /// Texts without an embedding yet, each once, in first-seen order.
    pub fn missing<'a>(&self, texts: impl IntoIterator<Item = &'a str>) -> Vec<String> {
        let mut seen = std::collections::HashSet::new();
        texts
            .into_iter()
            .filter(|t| !self.by_text.contains_key(*t) && seen.insert(*t))
            .map(str::to_string)
            .collect()
    }

    /// Call before embedding `incoming` new sentences: when they would not
    /// fit, forget everything (a job never needs more than its own).
    pub fn make_room(&mut self, incoming: usize) {
        if self.by_text.len() + incoming > CACHE_SENTENCES {
            self.by_text.clear();
        }
    }

    pub fn insert(&mut self, texts: Vec<String>, embeddings: Vec<Embedding>) {
        self.by_text.extend(texts.into_iter().zip(embeddings));
    }

    /// The embedding of one text, if it was embedded.
    pub fn get(&self, text: &str) -> Option<Embedding> {
        self.by_text.get(text).copied()
    }

    pub fn len(&self) -> usize {
        self.by_text.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_text.is_empty()
    }
}

/// A deterministic stand-in for the encoder in tests: sentences sharing
/// words get similar unit vectors.
#[cfg(test)]
pub(crate) fn fake_embedding(text: &str) -> Embedding {
    let mut e = [0f32; super::DIM];
    for word in text.split_whitespace() {
        let h = word.to_lowercase().bytes().fold(7u64, |h, b| h.wrapping_mul(31).wrapping_add(b as u64));
        e[(h % super::DIM as u64) as usize] += 1.0;
    }
    let norm = e.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-6);
    e.iter_mut().for_each(|x| *x /= norm);
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cache_starts_over_only_before_a_job_that_would_not_fit() {
        let mut cache = EmbeddingCache::default();
        cache.insert(vec!["a".into()], vec![[0.5; crate::encoder::DIM]]);
        assert_eq!(cache.missing(["a", "b", "b"]), vec!["b".to_string()]);
        cache.make_room(CACHE_SENTENCES - 1);
        assert_eq!(cache.len(), 1);
        cache.make_room(CACHE_SENTENCES);
        assert!(cache.is_empty());
    }
}
