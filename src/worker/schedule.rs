//! How the worker spreads encoding over itself and its helper workers, as
//! plain data (tested natively): texts are tokenized a chunk at a time,
//! grouped so that batches share pieces, cut into the encoder's batches and
//! shared out so that every worker finishes together. Also when running
//! work is overtaken by a newer request.

use super::protocol::Request;
use crate::encoder::{share_batches, Encoder};
use anyhow::Result;
use std::ops::Range;

/// Sentences tokenized at a time: the encoder's batches are cut from each
/// chunk, and a chunk's last, partial batch runs on a smaller plan.
pub const TOKENIZE_CHUNK: usize = 256;

/// One chunk's texts in batch order, their token ids, and who encodes
/// which batch.
#[derive(Debug)]
pub struct ChunkPlan {
    pub texts: Vec<String>,
    pub ids: Vec<Vec<u32>>,
    pub batches: Vec<PlannedBatch>,
}

/// A batch of a [`ChunkPlan`]: its sentences and its worker (0: the main
/// worker, n: helper n − 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlannedBatch {
    pub range: Range<usize>,
    pub worker: usize,
}

impl ChunkPlan {
    /// Plans `texts` (tokenized as `ids`) for `workers` workers (≥ 1).
    pub fn new(texts: &[String], mut ids: Vec<Vec<u32>>, workers: usize) -> Result<Self> {
        // Grouped so that batches share pieces (embeddings are keyed by
        // text, so the order they arrive in does not matter).
        let order = Encoder::batch_order(&ids);
        let texts: Vec<String> = order.iter().map(|&i| texts[i].clone()).collect();
        let ids: Vec<Vec<u32>> = order.into_iter().map(|i| std::mem::take(&mut ids[i])).collect();
        let ranges = Encoder::batch_ranges_for(&ids, workers)?;
        let costs: Vec<usize> = ranges.iter().map(|r| ids[r.clone()].iter().map(Vec::len).sum()).collect();
        let batches = ranges
            .into_iter()
            .zip(share_batches(&costs, workers))
            .map(|(range, worker)| PlannedBatch { range, worker })
            .collect();
        Ok(Self { texts, ids, batches })
    }

    pub fn texts_of(&self, batch: &PlannedBatch) -> &[String] {
        &self.texts[batch.range.clone()]
    }

    pub fn ids_of(&self, batch: &PlannedBatch) -> &[Vec<u32>] {
        &self.ids[batch.range.clone()]
    }
}

/// Work that a newer request of the same kind makes moot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Supersedable {
    Summary,
    Timeline,
    Comparison,
}

impl Request {
    /// The running work this request, once it waits, makes moot.
    pub fn overtakes(&self) -> Option<Supersedable> {
        match self {
            Request::Summarize { .. } => Some(Supersedable::Summary),
            Request::Stream { .. } => Some(Supersedable::Timeline),
            Request::Compare { .. } => Some(Supersedable::Comparison),
            _ => None,
        }
    }
}

/// Helper workers at most, whatever the number of cores: each holds its
/// own copy of the model (about 300 MiB).
pub const MAX_HELPERS: usize = 2;

/// How many helper workers a page gets: one per core beyond the main
/// worker's, capped; `helpers=N` in the page's query (`search`, "?a=1&…")
/// sets it (tests and benchmarks; `helpers=0`: none).
pub fn helper_count(search: &str, cores: usize) -> usize {
    let asked = search.split(['?', '&']).find_map(|p| p.strip_prefix("helpers=")?.parse::<usize>().ok());
    asked.unwrap_or(cores.saturating_sub(1)).min(MAX_HELPERS)
}

/// True when one of the waiting requests (of kind `None` when it cannot
/// overtake anything) is of the running work's kind: dragging a slider
/// then never queues up work.
pub fn superseded(running: Supersedable, waiting: impl IntoIterator<Item = Option<Supersedable>>) -> bool {
    waiting.into_iter().any(|kind| kind == Some(running))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sentences(n: usize) -> (Vec<String>, Vec<Vec<u32>>) {
        let texts: Vec<String> = (0..n).map(|i| format!("sentence {i}")).collect();
        // Two "languages" of pieces, interleaved, of varying lengths.
        let ids = (0..n as u32).map(|i| (0..5 + i % 7).map(|k| 2 + (i % 2) * 5000 + k).collect()).collect();
        (texts, ids)
    }

    #[test]
    fn helpers_one_per_spare_core_capped_or_as_the_page_asks() {
        assert_eq!(helper_count("", 1), 0);
        assert_eq!(helper_count("", 2), 1);
        assert_eq!(helper_count("", 3), 2);
        assert_eq!(helper_count("", 64), MAX_HELPERS);
        assert_eq!(helper_count("?helpers=0", 8), 0);
        assert_eq!(helper_count("?lang=fr&helpers=2", 1), 2);
        assert_eq!(helper_count("?helpers=9", 1), MAX_HELPERS);
        assert_eq!(helper_count("?helpers=x", 2), 1);
    }

    #[test]
    fn every_text_is_planned_once_with_its_own_ids() {
        let (texts, ids) = sentences(200);
        let plan = ChunkPlan::new(&texts, ids.clone(), 3).unwrap();
        let mut covered: Vec<usize> = plan.batches.iter().flat_map(|b| b.range.clone()).collect();
        covered.sort();
        assert_eq!(covered, (0..200).collect::<Vec<_>>());
        for (text, ids_here) in plan.texts.iter().zip(&plan.ids) {
            let original = texts.iter().position(|t| t == text).unwrap();
            assert_eq!(ids_here, &ids[original], "{text}");
        }
        let mut sorted = plan.texts.clone();
        sorted.sort();
        let mut expected = texts.clone();
        expected.sort();
        assert_eq!(sorted, expected);
    }

    #[test]
    fn one_worker_encodes_everything_and_helpers_get_their_share() {
        let (texts, ids) = sentences(256);
        let alone = ChunkPlan::new(&texts, ids.clone(), 1).unwrap();
        assert!(alone.batches.iter().all(|b| b.worker == 0));
        let shared = ChunkPlan::new(&texts, ids, 3).unwrap();
        let tokens = |w: usize| -> usize { shared.batches.iter().filter(|b| b.worker == w).map(|b| shared.ids_of(b).iter().map(Vec::len).sum::<usize>()).sum() };
        let loads: Vec<usize> = (0..3).map(tokens).collect();
        assert!(loads.iter().all(|&l| l > 0), "{loads:?}");
        let (least, most) = (loads.iter().min().unwrap(), loads.iter().max().unwrap());
        assert!(most - least <= shared.batches.iter().map(|b| shared.ids_of(b).iter().map(Vec::len).sum::<usize>()).max().unwrap(), "{loads:?}");
    }

    #[test]
    fn batches_group_sentences_that_share_pieces() {
        let (texts, ids) = sentences(128);
        let plan = ChunkPlan::new(&texts, ids, 1).unwrap();
        // Sentences of one "language" sit together: the piece ranges switch once.
        let language: Vec<bool> = plan.ids.iter().map(|s| s[0] >= 5000).collect();
        assert_eq!(language.windows(2).filter(|w| w[0] != w[1]).count(), 1, "{language:?}");
    }

    #[test]
    fn only_a_newer_request_of_the_same_kind_cancels() {
        use Supersedable::*;
        assert!(superseded(Summary, [None, Some(Summary)]));
        assert!(!superseded(Summary, [Some(Timeline), None]));
        assert!(superseded(Timeline, [Some(Timeline)]));
        assert!(!superseded(Timeline, []));
        let waiting = [Request::ReadExamples { id: 1 }, Request::Describe { id: 2, documents: vec![] }];
        assert!(!superseded(Summary, waiting.iter().map(Request::overtakes)));
        assert_eq!(Request::ReadPaste { id: 3, text: String::new() }.overtakes(), None);
        let job = super::super::protocol::Job { documents: vec![], settings: Default::default(), reference: None };
        let comparison = Request::Compare { id: 4, job, methods: vec![] };
        assert!(superseded(Comparison, [comparison.overtakes()]));
        assert!(!superseded(Summary, [comparison.overtakes()]));
    }
}
