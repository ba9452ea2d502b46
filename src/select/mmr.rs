//! Maximal marginal relevance (Carbonell & Goldstein, 1998), the engine of
//! SMMR, TBMMR and the Location baseline (`docs/design/tbmmr.md`). Sentences are
//! picked one at a time by
//!
//! ```text
//! total(D_i) = λ · Sim1(D_i, Q) − (1 − λ) · max_{D_j ∈ S} Sim2(D_i, D_j) + μ · Pos(D_i)
//! Sim(a, b)  = (1 − γ) · cos(a, b) + γ · TimeSim(t_a, t_b)          (formula (5))
//! ```
//!
//! recomputed after every pick. SMMR is μ = γ = 0; Location weighs the
//! position score alone.
//!
//! Sim1 to a query of several sentences is the **maximum** over them: the
//! TBMMR query joins the seed event (the topic) with the themes of every
//! non-seed event, and a sentence reporting any one of those events is
//! relevant. A mean would pull every sentence towards the average of the
//! events, i.e. back to a centroid, and score a sentence about one minor
//! event below a vague one touching all. (A query sentence taken from the
//! cluster scores 1 against itself: it is a theme sentence the paper
//! wants covered.)
//!
//! Budget: as in the greedy selector, the best sentence that still fits is
//! picked and sentences that no longer fit are dropped for good (costs only
//! grow); the summary never exceeds the budget.

use super::topic::{time_similarity, QuerySentence, SentenceTime};
use super::{dot, norm, Problem, Selection, Selector, Trace};
use crate::dates::CivilDate;
use crate::encoder::Embedding;
use serde::{Deserialize, Serialize};

/// How much each part counts in a sentence's total.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Weights {
    /// λ: relevance to the query.
    pub relevance: f32,
    /// 1 − λ: redundancy with the sentences already picked (subtracted).
    pub redundancy: f32,
    /// μ: position score.
    pub position: f32,
}

impl Weights {
    /// Marginal relevance with trade-off λ (formula (1)) plus μ · Pos (formula (4)).
    pub fn marginal(lambda: f32, mu: f32) -> Self {
        Self {
            relevance: lambda,
            redundancy: 1.0 - lambda,
            position: mu,
        }
    }

    /// The position score only (the Location baseline).
    pub fn position_only() -> Self {
        Self {
            relevance: 0.0,
            redundancy: 0.0,
            position: 1.0,
        }
    }
}

/// Which member of the family a run is (named in the trace).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    Location,
    #[default]
    Smmr,
    Tbmmr,
}

/// A marginal-relevance selector: the query, times and positions of the
/// cluster's sentences, and the weights.
#[derive(Clone, Debug)]
pub struct Mmr {
    pub variant: Variant,
    pub query: Vec<QuerySentence>,
    /// Time of every sentence of the cluster (indexed by sentence id).
    pub times: Vec<SentenceTime>,
    /// Position score of every sentence (indexed by sentence id); empty: 0.
    pub positions: Vec<f32>,
    pub weights: Weights,
    /// γ: share of time similarity in Sim1 and Sim2.
    pub gamma: f32,
}

/// The trace the app's MMR score view draws.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct MmrTrace {
    pub variant: Variant,
    pub weights: Option<Weights>,
    pub gamma: f32,
    /// Time of every sentence of the cluster (ISO date; null when undated).
    pub times: Vec<Option<CivilDate>>,
    /// The query's sentences.
    pub query: Vec<QueryEntry>,
    pub steps: Vec<MmrStep>,
    /// TBMMR's reading of the topic (seed documents, structure, order).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topic: Option<super::tbmmr::TopicTrace>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct QueryEntry {
    #[serde(flatten)]
    pub source: super::topic::QuerySource,
    pub time: Option<CivilDate>,
}

/// One pick: every candidate still in play, best total first.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct MmrStep {
    /// Sentence id picked at this step.
    pub picked: usize,
    /// Picked because the reader pinned it (pins go first, best total first).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pinned: bool,
    /// Budget used after the pick.
    pub cost: usize,
    pub candidates: Vec<MmrRow>,
}

/// A candidate's score at one step.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct MmrRow {
    pub sentence: usize,
    /// Sim1 to the query.
    pub relevance: f32,
    /// Max Sim2 to the sentences already picked (0 before the first pick).
    pub redundancy: f32,
    pub position: f32,
    pub time: Option<CivilDate>,
    /// Weighted sum of the three parts.
    pub total: f32,
    /// False when the sentence no longer fits the budget (it is dropped).
    pub fits: bool,
    pub picked: bool,
}

/// What a run produced, before it is packed into a selection.
#[derive(Clone, Debug, Default)]
pub struct MmrRun {
    /// Sentence ids in pick order.
    pub picked: Vec<usize>,
    /// Each pick's total when it was picked.
    pub totals: Vec<f32>,
    pub steps: Vec<MmrStep>,
}

impl Mmr {
    /// Sim of formula (5) between two embedded, timed texts.
    pub fn similarity(
        &self,
        a: &Embedding,
        time_a: SentenceTime,
        b: &Embedding,
        time_b: SentenceTime,
    ) -> f32 {
        let cosine = dot(&a[..], &b[..]);
        if self.gamma == 0.0 {
            return cosine;
        }
        (1.0 - self.gamma) * cosine + self.gamma * time_similarity(time_a, time_b)
    }

    /// Sim1(D_i, Q): the best match among the query's sentences (0 for none).
    pub fn relevance(&self, embedding: &Embedding, time: SentenceTime) -> f32 {
        self.query
            .iter()
            .map(|q| self.similarity(embedding, time, &q.embedding, q.time))
            .fold(None, |best: Option<f32>, s| Some(best.map_or(s, |b| b.max(s))))
            .unwrap_or(0.0)
    }

    fn position(&self, id: usize) -> f32 {
        self.positions.get(id).copied().unwrap_or(0.0)
    }

    /// Greedy marginal relevance to the budget.
    pub fn run(&self, problem: &Problem) -> MmrRun {
        let ids = problem.candidates;
        let relevance: Vec<f32> = ids
            .iter()
            .map(|&i| self.relevance(&problem.embeddings[i], self.times[i]))
            .collect();
        let mut redundancy = vec![0f32; ids.len()];
        let mut max_cosine = vec![f32::NEG_INFINITY; ids.len()];
        let mut open = vec![true; ids.len()];
        let mut cost = 0;
        let mut run = MmrRun::default();
        loop {
            let mut ranked = self.rank(problem, &open, &relevance, &redundancy, cost);
            for (k, row) in &ranked {
                open[*k] &= row.fits;
            }
            // The pins first (they fit together), then the best that fits.
            let pins_left = problem.pinned.iter().any(|id| !run.picked.contains(id));
            let chosen = if pins_left {
                ranked.iter().position(|(k, _)| problem.pinned.contains(&ids[*k]))
            } else {
                ranked.iter().position(|(_, row)| row.fits)
            };
            let Some(best) = chosen else {
                return run;
            };
            let (pick, _) = ranked[best];
            ranked[best].1.picked = true;
            open[pick] = false;
            cost += problem.costs[ids[pick]];
            run.picked.push(ids[pick]);
            run.totals.push(ranked[best].1.total);
            run.steps.push(MmrStep {
                picked: ids[pick],
                pinned: pins_left,
                cost,
                candidates: ranked.into_iter().map(|(_, r)| r).collect(),
            });
            self.update_redundancy(problem, pick, &mut open, &mut redundancy, &mut max_cosine);
        }
    }

    /// The open candidates (local index, row), best total first; ties keep
    /// candidate (document) order.
    fn rank(
        &self,
        problem: &Problem,
        open: &[bool],
        relevance: &[f32],
        redundancy: &[f32],
        cost: usize,
    ) -> Vec<(usize, MmrRow)> {
        let ids = problem.candidates;
        let mut ranked: Vec<(usize, MmrRow)> = (0..ids.len())
            .filter(|&k| open[k])
            .map(|k| {
                let fits = cost + problem.costs[ids[k]] <= problem.limit;
                (k, self.row(ids[k], relevance[k], redundancy[k], fits))
            })
            .collect();
        ranked.sort_by(|a, b| b.1.total.total_cmp(&a.1.total));
        ranked
    }

    fn row(&self, id: usize, relevance: f32, redundancy: f32, fits: bool) -> MmrRow {
        let position = self.position(id);
        let w = self.weights;
        MmrRow {
            sentence: id,
            relevance,
            redundancy,
            position,
            time: self.times[id].day(),
            total: w.relevance * relevance - w.redundancy * redundancy + w.position * position,
            fits,
            picked: false,
        }
    }

    /// After picking local candidate `pick`: each open candidate's max Sim2
    /// to the picks, and the optional cosine filter of the problem.
    fn update_redundancy(
        &self,
        problem: &Problem,
        pick: usize,
        open: &mut [bool],
        redundancy: &mut [f32],
        max_cosine: &mut [f32],
    ) {
        let ids = problem.candidates;
        let (picked, picked_time) = (&problem.embeddings[ids[pick]], self.times[ids[pick]]);
        for k in 0..ids.len() {
            if !open[k] {
                continue;
            }
            let embedding = &problem.embeddings[ids[k]];
            redundancy[k] =
                redundancy[k].max(self.similarity(embedding, self.times[ids[k]], picked, picked_time));
            max_cosine[k] = max_cosine[k].max(dot(&embedding[..], &picked[..]));
            // A pin stays, however close to a pick.
            if problem.redundancy.is_some_and(|r| max_cosine[k] > r) && !problem.pinned.contains(&ids[k]) {
                open[k] = false;
            }
        }
    }

    /// The trace of a run (without TBMMR's topic part).
    pub fn trace(&self, run: &MmrRun) -> MmrTrace {
        MmrTrace {
            variant: self.variant,
            weights: Some(self.weights),
            gamma: self.gamma,
            times: self.times.iter().map(|t| t.day()).collect(),
            query: self
                .query
                .iter()
                .map(|q| QueryEntry {
                    source: q.source,
                    time: q.time.day(),
                })
                .collect(),
            steps: run.steps.clone(),
            topic: None,
        }
    }
}

impl Selector for Mmr {
    fn select(&self, problem: &Problem) -> Selection {
        let run = self.run(problem);
        Selection {
            score: centroid_score(problem, &run.picked),
            trace: Trace::Mmr(self.trace(&run)),
            sentences: run.picked,
        }
    }
}

/// Cosine between the picked sentences' embedding sum and the centroid, the
/// score every selector reports (so methods compare in the app).
pub fn centroid_score(problem: &Problem, picked: &[usize]) -> f32 {
    let mut sum = vec![0f32; problem.centroid.len()];
    for &id in picked {
        sum.iter_mut()
            .zip(problem.embeddings[id].iter())
            .for_each(|(s, e)| *s += e);
    }
    let norms = norm(&sum) * norm(problem.centroid);
    if norms > 0.0 {
        dot(&sum, problem.centroid) / norms
    } else {
        0.0
    }
}

/// SMMR: formula (1) with the topic's sentences as the query, cosine
/// similarities (γ = 0) and no position score. `times` only label the trace.
pub fn smmr(query: Vec<QuerySentence>, times: Vec<SentenceTime>, lambda: f32) -> Mmr {
    Mmr {
        variant: Variant::Smmr,
        query,
        times,
        positions: vec![],
        weights: Weights::marginal(lambda, 0.0),
        gamma: 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::select::testing::unit;
    use crate::select::topic::QuerySource;

    fn query(parts: &[&[(usize, f32)]]) -> Vec<QuerySentence> {
        parts
            .iter()
            .enumerate()
            .map(|(index, p)| QuerySentence {
                source: QuerySource::Topic { index },
                embedding: unit(p),
                time: SentenceTime::Unknown,
            })
            .collect()
    }

    fn undated(n: usize) -> Vec<SentenceTime> {
        vec![SentenceTime::Unknown; n]
    }

    /// Query along axis 0. Sentence 0 is the most relevant; 1 nearly copies
    /// it; 2 is less relevant but new.
    ///   cos(q,0) = 1, cos(q,1) = 0.9/√(0.81+0.19) = 0.9, cos(q,2) = 0.6,
    ///   cos(0,1) = 0.9, cos(0,2) = 0.6, cos(1,2) = 0.9·0.6 + √0.19·0.8 ≈ 0.889.
    fn trade_off() -> (Vec<Embedding>, Vec<QuerySentence>) {
        let embeddings = vec![
            unit(&[(0, 1.0)]),
            unit(&[(0, 0.9), (1, 0.19f32.sqrt())]),
            unit(&[(0, 0.6), (2, 0.8)]),
        ];
        (embeddings, query(&[&[(0, 1.0)]]))
    }

    fn problem<'a>(
        embeddings: &'a [Embedding],
        centroid: &'a [f32],
        costs: &'a [usize],
        limit: usize,
    ) -> Problem<'a> {
        const CANDIDATES: [usize; 4] = [0, 1, 2, 3];
        Problem {
            embeddings,
            candidates: &CANDIDATES[..embeddings.len()],
            costs,
            limit,
            centroid,
            redundancy: None,
            weights: None,
            pinned: &[],
        }
    }

    #[test]
    fn high_lambda_favours_relevance_low_lambda_novelty() {
        let (embeddings, q) = trade_off();
        let centroid = vec![1.0; crate::encoder::DIM];
        let p = problem(&embeddings, &centroid, &[1, 1, 1], 2);
        // Second pick, after 0: MR(1) = λ·0.9 − (1−λ)·0.9, MR(2) = λ·0.6 − (1−λ)·0.6.
        // λ = 0.9: 0.72 vs 0.48 → the near copy 1 wins.
        let relevant = smmr(q.clone(), undated(3), 0.9).select(&p);
        assert_eq!(relevant.sentences, vec![0, 1]);
        // λ = 0.3: −0.36 vs −0.24 → the new sentence 2 wins.
        let novel = smmr(q, undated(3), 0.3).select(&p);
        assert_eq!(novel.sentences, vec![0, 2]);
    }

    #[test]
    fn trace_lists_every_candidate_with_its_parts() {
        let (embeddings, q) = trade_off();
        let centroid = vec![1.0; crate::encoder::DIM];
        let p = problem(&embeddings, &centroid, &[1, 1, 1], 2);
        let Trace::Mmr(trace) = smmr(q, undated(3), 0.3).select(&p).trace else {
            panic!("mmr trace")
        };
        assert_eq!(trace.steps.len(), 2);
        let first = &trace.steps[0];
        assert_eq!(first.candidates.len(), 3);
        assert!(first.candidates[0].picked && first.candidates[0].sentence == 0);
        assert!((first.candidates[0].total - 0.3).abs() < 1e-6); // 0.3·1 − 0.7·0
        let second = &trace.steps[1];
        let row = |s: usize| second.candidates.iter().find(|r| r.sentence == s).unwrap();
        assert!((row(1).redundancy - 0.9).abs() < 1e-5);
        assert!((row(2).total - (0.3 * 0.6 - 0.7 * 0.6)).abs() < 1e-5);
        assert!(row(2).picked && !row(1).picked);
        assert_eq!(serde_json::to_value(&trace).unwrap()["steps"][1]["picked"], 2);
    }

    #[test]
    fn skips_what_no_longer_fits_and_stops_at_the_budget() {
        let (embeddings, q) = trade_off();
        let centroid = vec![1.0; crate::encoder::DIM];
        // 0 (6 words) first; 1 (5) no longer fits in 10; 2 (4) does.
        let p = problem(&embeddings, &centroid, &[6, 5, 4], 10);
        let selection = smmr(q.clone(), undated(3), 0.9).select(&p);
        assert_eq!(selection.sentences, vec![0, 2]);
        let Trace::Mmr(trace) = selection.trace else {
            panic!()
        };
        let dropped = trace.steps[1]
            .candidates
            .iter()
            .find(|r| r.sentence == 1)
            .unwrap();
        assert!(!dropped.fits);
        let nothing = smmr(q, undated(3), 0.9).select(&problem(&embeddings, &centroid, &[6, 5, 4], 3));
        assert!(nothing.sentences.is_empty());
    }

    #[test]
    fn relevance_is_the_best_match_over_the_query_sentences() {
        let mmr = smmr(query(&[&[(0, 1.0)], &[(1, 1.0)]]), undated(1), 0.5);
        let e = unit(&[(0, 0.6), (1, 0.8)]);
        assert!((mmr.relevance(&e, SentenceTime::Unknown) - 0.8).abs() < 1e-6);
        let empty = smmr(vec![], undated(1), 0.5);
        assert_eq!(empty.relevance(&e, SentenceTime::Unknown), 0.0);
    }

    #[test]
    fn time_similarity_is_mixed_in_with_gamma() {
        let day = |s: &str| SentenceTime::Day(s.parse().unwrap());
        let mut mmr = smmr(vec![], undated(1), 0.5);
        mmr.gamma = 0.4;
        let (a, b) = (unit(&[(0, 1.0)]), unit(&[(0, 0.6), (1, 0.8)]));
        let same_day = mmr.similarity(&a, day("2011-03-19"), &b, day("2011-03-19"));
        assert!((same_day - (0.6 * 0.6 + 0.4)).abs() < 1e-6);
        let close = mmr.similarity(&a, day("2011-03-19"), &b, day("2011-03-21"));
        assert!((close - (0.6 * 0.6 + 0.4 * 0.3)).abs() < 1e-6);
        let far = mmr.similarity(&a, day("2011-03-19"), &b, day("2011-04-19"));
        assert!((far - 0.36).abs() < 1e-6);
    }

    #[test]
    fn redundancy_filter_of_the_problem_applies() {
        let (embeddings, q) = trade_off();
        let centroid = vec![1.0; crate::encoder::DIM];
        let mut p = problem(&embeddings, &centroid, &[1, 1, 1], 2);
        p.redundancy = Some(0.85);
        // λ = 0.9 would take the near copy 1 (cos 0.9 > 0.85): filtered out.
        assert_eq!(smmr(q, undated(3), 0.9).select(&p).sentences, vec![0, 2]);
    }
}
