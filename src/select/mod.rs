//! Sentence selectors: given candidate sentences, their embeddings, a centroid
//! and a length budget, pick the summary. One module per method, all behind
//! [`Selector`]; each returns the picked sentences and a trace of its search
//! that the app draws.

pub mod beam;
pub mod greedy;
pub mod location;
pub mod mmr;
pub mod tbmmr;
pub mod topic;

use crate::encoder::Embedding;
use serde::{Deserialize, Serialize};

/// What every selector gets.
pub struct Problem<'a> {
    /// Embeddings of all sentences of the cluster (indexed by sentence id).
    pub embeddings: &'a [Embedding],
    /// Sentence ids that may be picked, in document order.
    pub candidates: &'a [usize],
    /// Cost of each sentence of the cluster (words, or 1 for sentence budgets).
    pub costs: &'a [usize],
    /// The summary's total cost never exceeds this.
    pub limit: usize,
    pub centroid: &'a [f32],
    /// Skip a sentence whose cosine to an already picked one exceeds this.
    pub redundancy: Option<f32>,
    /// Weight of each sentence's embedding in the summary's sum (indexed by
    /// sentence id); `None` weighs every sentence 1, as published.
    pub weights: Option<&'a [f32]>,
    /// Sentence ids the reader pinned: every summary holds them, and the
    /// search starts from them (all are candidates, and fit the budget
    /// together).
    pub pinned: &'a [usize],
}

/// A selector's answer.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Selection {
    /// Sentence ids in the order they were added.
    pub sentences: Vec<usize>,
    /// Cosine between the summary's embedding sum and the centroid.
    pub score: f32,
    pub trace: Trace,
}

pub trait Selector {
    fn select(&self, problem: &Problem) -> Selection;
}

/// The search as the app shows it.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Trace {
    #[default]
    None,
    Greedy(greedy::GreedyTrace),
    Beam(beam::BeamTrace),
    /// MMR, TBMMR and Location: every step's candidates and their scores.
    Mmr(mmr::MmrTrace),
}

/// Incremental cosine between a growing set's weighted embedding sum
/// s = Σ w_i e_i and the centroid.
///
/// Works on the candidates only: `dot[i] = <e_i, c>` and the Gram matrix
/// `gram[i][j] = <e_i, e_j>` are computed once, then adding candidate k to a
/// set costs O(candidates):
/// |s + w_k e_k|² = |s|² + 2 w_k Σ_{i∈S} w_i gram[i][k] + w_k² gram[k][k].
pub struct SetScorer {
    /// Sentence id of each local candidate index.
    pub ids: Vec<usize>,
    pub costs: Vec<usize>,
    weight: Vec<f32>,
    dot: Vec<f32>,
    gram: Vec<Vec<f32>>,
    centroid_norm: f32,
}

/// A set of candidates (local indices) with what is needed to extend it.
#[derive(Clone, Debug)]
pub struct SetState {
    pub members: Vec<usize>,
    pub cost: usize,
    dot: f32,
    norm2: f32,
    /// Σ_{i∈S} w_i gram[i][k] for every candidate k.
    cross: Vec<f32>,
}

impl SetScorer {
    pub fn new(problem: &Problem) -> Self {
        let ids = problem.candidates.to_vec();
        let vectors: Vec<&Embedding> = ids.iter().map(|&i| &problem.embeddings[i]).collect();
        let to_centroid = vectors.iter().map(|e| dot(&e[..], problem.centroid)).collect();
        let gram = vectors
            .iter()
            .map(|a| vectors.iter().map(|b| dot(&a[..], &b[..])).collect())
            .collect();
        Self {
            costs: ids.iter().map(|&i| problem.costs[i]).collect(),
            weight: ids.iter().map(|&i| problem.weights.map_or(1.0, |w| w[i])).collect(),
            ids,
            dot: to_centroid,
            gram,
            centroid_norm: norm(problem.centroid),
        }
    }

    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    pub fn empty(&self) -> SetState {
        SetState { members: vec![], cost: 0, dot: 0.0, norm2: 0.0, cross: vec![0.0; self.len()] }
    }

    /// Where a search starts: the pinned sentences (none: the empty set).
    pub fn start(&self, problem: &Problem) -> SetState {
        problem
            .pinned
            .iter()
            .filter_map(|id| self.ids.iter().position(|i| i == id))
            .fold(self.empty(), |state, k| self.add(&state, k))
    }

    /// Cosine of the set's sum with the centroid (0 for the empty set).
    pub fn score(&self, state: &SetState) -> f32 {
        cosine_from(state.dot, state.norm2, self.centroid_norm)
    }

    /// Score the set would have with candidate k added.
    pub fn score_with(&self, state: &SetState, k: usize) -> f32 {
        let w = self.weight[k];
        let norm2 = state.norm2 + 2.0 * w * state.cross[k] + w * w * self.gram[k][k];
        cosine_from(state.dot + w * self.dot[k], norm2, self.centroid_norm)
    }

    pub fn add(&self, state: &SetState, k: usize) -> SetState {
        let w = self.weight[k];
        let mut next = state.clone();
        next.norm2 += 2.0 * w * state.cross[k] + w * w * self.gram[k][k];
        next.dot += w * self.dot[k];
        next.cost += self.costs[k];
        next.members.push(k);
        next.cross.iter_mut().zip(&self.gram[k]).for_each(|(c, g)| *c += w * g);
        next
    }

    /// Cosine between two candidates (embeddings are unit length).
    pub fn similarity(&self, a: usize, b: usize) -> f32 {
        self.gram[a][b]
    }

    /// True if `k` is too similar to a member (the optional redundancy filter).
    pub fn redundant(&self, state: &SetState, k: usize, threshold: Option<f32>) -> bool {
        threshold.is_some_and(|r| state.members.iter().any(|&m| self.gram[m][k] > r))
    }

    /// Candidates not in the set, whose cost still fits and that pass the
    /// redundancy filter.
    pub fn fitting<'s>(
        &'s self,
        state: &'s SetState,
        limit: usize,
        redundancy: Option<f32>,
    ) -> impl Iterator<Item = usize> + 's {
        (0..self.len()).filter(move |&k| {
            !state.members.contains(&k)
                && state.cost + self.costs[k] <= limit
                && !self.redundant(state, k, redundancy)
        })
    }

    /// Sentence ids of a state's members, in the order they were added.
    pub fn sentence_ids(&self, state: &SetState) -> Vec<usize> {
        state.members.iter().map(|&k| self.ids[k]).collect()
    }
}

fn cosine_from(dot: f32, norm2: f32, centroid_norm: f32) -> f32 {
    if norm2 <= 0.0 || centroid_norm <= 0.0 {
        0.0
    } else {
        dot / (norm2.sqrt() * centroid_norm)
    }
}

/// Dot product with eight independent partial sums, so the compiler can keep
/// them in SIMD lanes (a plain float `sum()` must stay sequential).
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut lanes = [0f32; 8];
    let (a8, b8) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = a8.remainder().iter().zip(b8.remainder()).map(|(x, y)| x * y).sum();
    for (x, y) in a8.zip(b8) {
        for i in 0..8 {
            lanes[i] += x[i] * y[i];
        }
    }
    lanes.iter().sum::<f32>() + tail
}

pub fn norm(a: &[f32]) -> f32 {
    dot(a, a).sqrt()
}

/// Index of the largest score; ties go to the earlier index (stable and
/// deterministic).
pub fn argmax(items: impl Iterator<Item = (usize, f32)>) -> Option<(usize, f32)> {
    items.fold(None, |best, (i, s)| match best {
        Some((_, b)) if b >= s => best,
        _ => Some((i, s)),
    })
}

#[cfg(test)]
pub(crate) mod testing {
    use super::*;
    use crate::encoder::DIM;

    /// A unit vector along the given (axis, weight) pairs.
    pub fn unit(parts: &[(usize, f32)]) -> Embedding {
        let mut e = [0f32; DIM];
        for &(axis, w) in parts {
            e[axis] = w;
        }
        let n = norm(&e);
        e.iter_mut().for_each(|x| *x /= n);
        e
    }

    pub fn centroid_of(embeddings: &[Embedding]) -> Vec<f32> {
        let mut c = vec![0f32; DIM];
        for e in embeddings {
            c.iter_mut().zip(e.iter()).for_each(|(a, b)| *a += b / embeddings.len() as f32);
        }
        c
    }
}

#[cfg(test)]
mod tests {
    use super::testing::*;
    use super::*;

    #[test]
    fn incremental_score_equals_direct_cosine() {
        let embeddings = vec![unit(&[(0, 1.0), (1, 0.5)]), unit(&[(1, 1.0)]), unit(&[(2, 1.0), (0, 0.2)])];
        let centroid = vec![0.3f32; crate::encoder::DIM];
        let problem = Problem {
            embeddings: &embeddings,
            candidates: &[0, 1, 2],
            costs: &[1, 1, 1],
            limit: 3,
            centroid: &centroid,
            redundancy: None,
            weights: Some(&[2.0, 1.0, 0.5]),
            pinned: &[],
        };
        let scorer = SetScorer::new(&problem);
        let set = scorer.add(&scorer.add(&scorer.empty(), 0), 2);
        let mut sum = [0f32; crate::encoder::DIM];
        for (i, w) in [(0, 2.0), (2, 0.5)] {
            sum.iter_mut().zip(embeddings[i].iter()).for_each(|(s, e)| *s += w * e);
        }
        let direct = dot(&sum, &centroid) / (norm(&sum) * norm(&centroid));
        assert!((scorer.score(&set) - direct).abs() < 1e-6);
        let with_one = scorer.score_with(&scorer.add(&scorer.empty(), 0), 2);
        assert!((with_one - direct).abs() < 1e-6);
    }

    #[test]
    fn dot_handles_lengths_that_are_not_multiples_of_eight() {
        let a: Vec<f32> = (0..19).map(|i| i as f32).collect();
        let b: Vec<f32> = (0..19).map(|i| (i % 3) as f32 - 1.0).collect();
        let expected: f32 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
        assert_eq!(dot(&a, &b), expected);
        assert_eq!(dot(&[], &[]), 0.0);
    }

    #[test]
    fn argmax_prefers_earliest_on_ties() {
        assert_eq!(argmax([(3, 0.5), (1, 0.7), (2, 0.7)].into_iter()), Some((1, 0.7)));
        assert_eq!(argmax(std::iter::empty()), None);
    }
}
