//! GG2017 greedy selection (Gholipour Ghalandari, 2017, on sentence
//! embeddings): repeatedly add the sentence that makes the summary's sum
//! closest to the centroid. Sentences that no longer fit the budget are
//! skipped, so the summary stops before the budget is exceeded.

use super::{argmax, Problem, Selection, Selector, SetScorer, SetState, Trace};
use serde::{Deserialize, Serialize};

/// How many runners-up a trace step keeps, for the app.
const TRACE_RUNNERS_UP: usize = 5;

#[derive(Clone, Debug, Default)]
pub struct Greedy;

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct GreedyTrace {
    /// The pinned sentences the search started from.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pinned: Vec<usize>,
    pub steps: Vec<GreedyStep>,
}

/// One pick: the chosen sentence and the best alternatives at that moment.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct GreedyStep {
    pub picked: usize,
    /// Summary score after the pick.
    pub score: f32,
    /// Budget used after the pick.
    pub cost: usize,
    /// (sentence id, score the summary would have had) of the best
    /// alternatives, best first.
    pub runners_up: Vec<(usize, f32)>,
}

impl Selector for Greedy {
    fn select(&self, problem: &Problem) -> Selection {
        let scorer = SetScorer::new(problem);
        let mut trace = GreedyTrace { pinned: problem.pinned.to_vec(), ..Default::default() };
        let state = extend_greedily(&scorer, scorer.start(problem), problem, usize::MAX, Some(&mut trace));
        Selection {
            sentences: scorer.sentence_ids(&state),
            score: scorer.score(&state),
            trace: Trace::Greedy(trace),
        }
    }
}

/// Adds the best fitting candidate until none fits. `max_misses` is the T of
/// the paper's greedy search: walking down the ranking, a candidate that does
/// not fit is dropped and counts as a miss; after T misses in a row (since
/// the last pick) the search gives up. `usize::MAX` never gives up (GG2017).
pub fn extend_greedily(
    scorer: &SetScorer,
    mut state: SetState,
    problem: &Problem,
    max_misses: usize,
    mut trace: Option<&mut GreedyTrace>,
) -> SetState {
    let mut dropped = vec![false; scorer.len()];
    loop {
        let mut ranked: Vec<(usize, f32)> = (0..scorer.len())
            .filter(|&k| !dropped[k] && !state.members.contains(&k))
            .filter(|&k| !scorer.redundant(&state, k, problem.redundancy))
            .map(|k| (k, scorer.score_with(&state, k)))
            .collect();
        // Best first; ties by candidate order keep runs deterministic.
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let fits = |k: usize| state.cost + scorer.costs[k] <= problem.limit;
        let mut misses = 0;
        let mut pick = None;
        for &(k, _) in &ranked {
            if fits(k) {
                pick = Some(k);
                break;
            }
            dropped[k] = true;
            misses += 1;
            if misses == max_misses {
                break;
            }
        }
        let Some(pick) = pick else { return state };
        state = scorer.add(&state, pick);
        if let Some(trace) = trace.as_deref_mut() {
            trace.steps.push(GreedyStep {
                picked: scorer.ids[pick],
                score: scorer.score(&state),
                cost: state.cost,
                runners_up: ranked
                    .iter()
                    .filter(|&&(k, _)| k != pick && !dropped[k])
                    .take(TRACE_RUNNERS_UP)
                    .map(|&(k, s)| (scorer.ids[k], s))
                    .collect(),
            });
        }
    }
}

/// The best single candidate by score among those that fit (used when a
/// method must return something).
pub fn best_single(scorer: &SetScorer, problem: &Problem) -> Option<usize> {
    let empty = scorer.empty();
    argmax(scorer.fitting(&empty, problem.limit, None).map(|k| (k, scorer.score_with(&empty, k))))
        .map(|(k, _)| k)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::select::testing::*;

    #[test]
    fn picks_the_sentence_closest_to_the_centroid_then_complements_it() {
        // Centroid leans to axis 0, then axis 1. Sentence 0 is pure axis 0,
        // 1 pure axis 1, 2 pure axis 2 (unrelated), 3 a copy-like of 0.
        let embeddings = vec![
            unit(&[(0, 1.0)]),
            unit(&[(1, 1.0)]),
            unit(&[(2, 1.0)]),
            unit(&[(0, 1.0), (3, 0.05)]),
        ];
        let mut centroid = vec![0f32; crate::encoder::DIM];
        centroid[0] = 0.7;
        centroid[1] = 0.5;
        centroid[2] = 0.1;
        let problem = Problem {
            embeddings: &embeddings,
            candidates: &[0, 1, 2, 3],
            costs: &[10, 10, 10, 10],
            limit: 20,
            centroid: &centroid,
            redundancy: None,
            weights: None,
            pinned: &[],
        };
        let selection = Greedy.select(&problem);
        // First pick: sentence 0 (cos 0.81); with it, adding 1 gives the
        // sum (1,1,0) → cos 0.97, better than adding 3 (≈ 0.81).
        assert_eq!(selection.sentences, vec![0, 1]);
        let Trace::Greedy(trace) = selection.trace else { panic!("greedy trace") };
        assert_eq!(trace.steps.len(), 2);
        assert_eq!(trace.steps[0].picked, 0);
        assert_eq!(trace.steps[1].cost, 20);
    }

    #[test]
    fn skips_sentences_that_no_longer_fit() {
        let embeddings = vec![unit(&[(0, 1.0)]), unit(&[(0, 1.0), (1, 0.9)]), unit(&[(1, 1.0)])];
        let centroid = centroid_of(&embeddings);
        let problem = Problem {
            embeddings: &embeddings,
            candidates: &[0, 1, 2],
            costs: &[6, 7, 3],
            limit: 10,
            centroid: &centroid,
            redundancy: None,
            weights: None,
            pinned: &[],
        };
        let selection = Greedy.select(&problem);
        // 1 is closest to the centroid (7 words); 0 no longer fits, 2 does.
        assert_eq!(selection.sentences, vec![1, 2]);
    }

    #[test]
    fn redundancy_filter_skips_near_copies() {
        let embeddings = vec![unit(&[(0, 1.0)]), unit(&[(0, 1.0), (1, 0.1)]), unit(&[(1, 1.0)])];
        let mut centroid = vec![0f32; crate::encoder::DIM];
        centroid[0] = 1.0;
        centroid[1] = 0.2;
        let problem = Problem {
            embeddings: &embeddings,
            candidates: &[0, 1, 2],
            costs: &[1, 1, 1],
            limit: 2,
            centroid: &centroid,
            redundancy: Some(0.9),
            weights: None,
            pinned: &[],
        };
        let selection = Greedy.select(&problem);
        assert!(!(selection.sentences.contains(&0) && selection.sentences.contains(&1)));
        assert_eq!(selection.sentences.len(), 2);
    }

    #[test]
    fn empty_when_nothing_fits() {
        let embeddings = vec![unit(&[(0, 1.0)])];
        let centroid = centroid_of(&embeddings);
        let problem = Problem {
            embeddings: &embeddings,
            candidates: &[0],
            costs: &[50],
            limit: 10,
            centroid: &centroid,
            redundancy: None,
            weights: None,
            pinned: &[],
        };
        assert!(Greedy.select(&problem).sentences.is_empty());
    }
}
