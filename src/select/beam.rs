//! Beam search over summaries (BS), optionally continued by the paper's
//! greedy search (BS+GS, Algorithm 1 of Gonçalves et al., 2023).
//!
//! Two variants of the beam:
//! - [`BeamMode::Paper`], as published: each beam proposes its B best next
//!   sentences whatever their length; the B best of the B² proposals survive;
//!   as soon as a survivor overflows the budget, the states of the previous
//!   step are frozen as finals. Summaries often end well short of the budget
//!   (the greedy search then fills them).
//! - [`BeamMode::Fill`] (default): beams only propose sentences that still
//!   fit, beams holding the same set of sentences are merged, and a beam is
//!   final when nothing fits any more. Every final summary uses the budget as
//!   fully as the candidates allow, so the search compares like with like.

use super::greedy::extend_greedily;
use super::{Problem, Selection, Selector, SetScorer, SetState, Trace};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BeamMode {
    Paper,
    #[default]
    Fill,
}

/// The CLI's `--beam-mode` values: the serde names, ours first.
#[cfg(not(target_arch = "wasm32"))]
impl clap::ValueEnum for BeamMode {
    fn value_variants<'a>() -> &'a [Self] {
        &[BeamMode::Fill, BeamMode::Paper]
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(match self {
            BeamMode::Fill => "fill",
            BeamMode::Paper => "paper",
        }))
    }
}

#[derive(Clone, Debug)]
pub struct BeamSearch {
    /// B: beams kept per step, and proposals per beam.
    pub width: usize,
    /// T of the greedy continuation; `None` for plain BS.
    pub greedy_candidates: Option<usize>,
    pub mode: BeamMode,
}

impl Default for BeamSearch {
    fn default() -> Self {
        Self { width: 5, greedy_candidates: Some(9), mode: BeamMode::Fill }
    }
}

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct BeamTrace {
    pub mode: BeamMode,
    pub width: usize,
    /// The pinned sentences every beam started from.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pinned: Vec<usize>,
    pub steps: Vec<BeamStep>,
    /// The greedy search from each of the best beam states (BS+GS only).
    pub continuations: Vec<Continuation>,
    /// Final candidate summaries, best first; the first is the answer.
    pub finals: Vec<Candidate>,
}

/// A summary under construction: sentence ids in the order added.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Candidate {
    pub sentences: Vec<usize>,
    pub score: f32,
    pub cost: usize,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct BeamStep {
    /// The live beams this step expands.
    pub beams: Vec<Candidate>,
    pub expansions: Vec<Expansion>,
    /// States that became final during this step.
    pub frozen: Vec<Candidate>,
}

/// One proposal: beam `beam` extended with `sentence`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Expansion {
    pub beam: usize,
    pub sentence: usize,
    pub score: f32,
    pub cost: usize,
    pub fate: Fate,
}

#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Fate {
    /// Among the B best: becomes a beam of the next step.
    Kept,
    /// Among the B best but over the budget (paper mode): never expanded.
    KeptOverBudget,
    /// Not among the B best.
    Dropped,
    /// Same set of sentences as a better proposal (fill mode).
    Duplicate,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Continuation {
    pub start: Candidate,
    pub added: Vec<usize>,
    pub result: Candidate,
}

struct Proposal {
    beam: usize,
    candidate: usize,
    score: f32,
}

impl Selector for BeamSearch {
    fn select(&self, problem: &Problem) -> Selection {
        let scorer = SetScorer::new(problem);
        let width = self.width.max(1);
        let mut trace = BeamTrace { mode: self.mode, width, pinned: problem.pinned.to_vec(), ..Default::default() };
        let (finals, complete) = match self.mode {
            BeamMode::Paper => paper_beam(&scorer, problem, width, &mut trace),
            BeamMode::Fill => (fill_beam(&scorer, problem, width, &mut trace), true),
        };
        let mut best = best_states(&scorer, finals, width, problem.limit);
        if let (Some(t), false) = (self.greedy_candidates, complete) {
            best = best
                .into_iter()
                .map(|start| {
                    let result = extend_greedily(&scorer, start.clone(), problem, t, None);
                    trace.continuations.push(Continuation {
                        start: describe(&scorer, &start),
                        added: scorer.sentence_ids(&result)[start.members.len()..].to_vec(),
                        result: describe(&scorer, &result),
                    });
                    result
                })
                .collect();
        }
        sort_best_first(&scorer, &mut best);
        trace.finals = best.iter().map(|s| describe(&scorer, s)).collect();
        let answer = best.into_iter().next().unwrap_or_else(|| scorer.start(problem));
        Selection {
            sentences: scorer.sentence_ids(&answer),
            score: scorer.score(&answer),
            trace: Trace::Beam(trace),
        }
    }
}

/// Algorithm 1's beam, step for step as published. Returns the final states
/// and whether they are complete (the published code skips the greedy search
/// when no state ever reached the budget).
fn paper_beam(
    scorer: &SetScorer,
    problem: &Problem,
    width: usize,
    trace: &mut BeamTrace,
) -> (Vec<SetState>, bool) {
    let mut states = vec![scorer.start(problem)];
    let mut finals: Vec<SetState> = vec![];
    loop {
        let expandable: Vec<usize> = (0..states.len()).filter(|&b| states[b].cost < problem.limit).collect();
        let proposals = propose(scorer, problem, &states, &expandable, width, false);
        if proposals.is_empty() {
            break;
        }
        let kept = top_proposals(&proposals, width);
        let next: Vec<SetState> =
            kept.iter().map(|&p| scorer.add(&states[proposals[p].beam], proposals[p].candidate)).collect();
        let mut step = step_record(scorer, &states, &proposals, &kept, problem.limit);
        // The published code checks the survivors from the lowest score up:
        // the first that overflows freezes the previous states; one that hits
        // the budget exactly freezes the current ones.
        for state in next.iter().rev() {
            if state.cost > problem.limit {
                step.frozen = states.iter().map(|s| describe(scorer, s)).collect();
                finals.extend(states.iter().cloned());
                break;
            } else if state.cost == problem.limit {
                step.frozen = next.iter().map(|s| describe(scorer, s)).collect();
                finals.extend(next.iter().cloned());
                break;
            }
        }
        trace.steps.push(step);
        states = next;
    }
    if finals.is_empty() {
        return (states, true);
    }
    (finals, false)
}

/// The fill variant: proposals always fit, equal sets merge, a beam with
/// nothing left that fits is final.
fn fill_beam(scorer: &SetScorer, problem: &Problem, width: usize, trace: &mut BeamTrace) -> Vec<SetState> {
    let mut states = vec![scorer.start(problem)];
    let mut finals = vec![];
    while !states.is_empty() {
        let all: Vec<usize> = (0..states.len()).collect();
        let proposals = propose(scorer, problem, &states, &all, width, true);
        let proposing: Vec<bool> = (0..states.len()).map(|b| proposals.iter().any(|p| p.beam == b)).collect();
        let kept = top_proposals_distinct(&states, &proposals, width);
        let next: Vec<SetState> =
            kept.iter().map(|&p| scorer.add(&states[proposals[p].beam], proposals[p].candidate)).collect();
        let mut step = step_record(scorer, &states, &proposals, &kept, problem.limit);
        mark_duplicates(&states, &proposals, &kept, &mut step);
        for (b, state) in states.iter().enumerate() {
            if !proposing[b] && !state.members.is_empty() {
                step.frozen.push(describe(scorer, state));
                finals.push(state.clone());
            }
        }
        if !step.expansions.is_empty() || !step.frozen.is_empty() {
            trace.steps.push(step);
        }
        states = next;
    }
    dedupe_sets(finals)
}

/// The `width` best next sentences of each listed beam.
fn propose(
    scorer: &SetScorer,
    problem: &Problem,
    states: &[SetState],
    beams: &[usize],
    width: usize,
    must_fit: bool,
) -> Vec<Proposal> {
    let mut proposals = vec![];
    for &b in beams {
        let state = &states[b];
        let mut ranked: Vec<(usize, f32)> = (0..scorer.len())
            .filter(|&k| !state.members.contains(&k))
            .filter(|&k| !must_fit || state.cost + scorer.costs[k] <= problem.limit)
            .filter(|&k| !scorer.redundant(state, k, problem.redundancy))
            .map(|k| (k, scorer.score_with(state, k)))
            .collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        proposals.extend(ranked.into_iter().take(width).map(|(candidate, score)| Proposal { beam: b, candidate, score }));
    }
    proposals
}

/// Indices of the `width` best proposals, best first (ties: earlier first).
fn top_proposals(proposals: &[Proposal], width: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..proposals.len()).collect();
    order.sort_by(|&a, &b| proposals[b].score.total_cmp(&proposals[a].score).then(a.cmp(&b)));
    order.truncate(width);
    order
}

/// Like `top_proposals`, but a proposal whose sentence set equals a better
/// one's is skipped.
fn top_proposals_distinct(states: &[SetState], proposals: &[Proposal], width: usize) -> Vec<usize> {
    let mut kept: Vec<usize> = vec![];
    let mut seen: Vec<Vec<usize>> = vec![];
    for p in top_proposals(proposals, proposals.len()) {
        let set = set_key(&states[proposals[p].beam], proposals[p].candidate);
        if !seen.contains(&set) {
            seen.push(set);
            kept.push(p);
            if kept.len() == width {
                break;
            }
        }
    }
    kept
}

fn set_key(state: &SetState, extra: usize) -> Vec<usize> {
    let mut set = state.members.clone();
    set.push(extra);
    set.sort_unstable();
    set
}

fn mark_duplicates(states: &[SetState], proposals: &[Proposal], kept: &[usize], step: &mut BeamStep) {
    let kept_sets: Vec<Vec<usize>> =
        kept.iter().map(|&p| set_key(&states[proposals[p].beam], proposals[p].candidate)).collect();
    for (p, expansion) in proposals.iter().zip(step.expansions.iter_mut()) {
        if expansion.fate == Fate::Dropped && kept_sets.contains(&set_key(&states[p.beam], p.candidate)) {
            expansion.fate = Fate::Duplicate;
        }
    }
}

fn step_record(
    scorer: &SetScorer,
    states: &[SetState],
    proposals: &[Proposal],
    kept: &[usize],
    limit: usize,
) -> BeamStep {
    let expansions = proposals
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let cost = states[p.beam].cost + scorer.costs[p.candidate];
            let fate = match kept.iter().position(|&k| k == i) {
                Some(_) if cost > limit => Fate::KeptOverBudget,
                Some(_) => Fate::Kept,
                None => Fate::Dropped,
            };
            Expansion { beam: p.beam, sentence: scorer.ids[p.candidate], score: p.score, cost, fate }
        })
        .collect();
    BeamStep { beams: states.iter().map(|s| describe(scorer, s)).collect(), expansions, frozen: vec![] }
}

/// The `width` best states within the budget, best first.
fn best_states(scorer: &SetScorer, states: Vec<SetState>, width: usize, limit: usize) -> Vec<SetState> {
    let mut within: Vec<SetState> = states.into_iter().filter(|s| s.cost <= limit).collect();
    sort_best_first(scorer, &mut within);
    within.truncate(width);
    within
}

fn sort_best_first(scorer: &SetScorer, states: &mut [SetState]) {
    states.sort_by(|a, b| scorer.score(b).total_cmp(&scorer.score(a)));
}

fn dedupe_sets(states: Vec<SetState>) -> Vec<SetState> {
    let mut seen: Vec<Vec<usize>> = vec![];
    states
        .into_iter()
        .filter(|s| {
            let mut key = s.members.clone();
            key.sort_unstable();
            let fresh = !seen.contains(&key);
            if fresh {
                seen.push(key);
            }
            fresh
        })
        .collect()
}

fn describe(scorer: &SetScorer, state: &SetState) -> Candidate {
    Candidate { sentences: scorer.sentence_ids(state), score: scorer.score(state), cost: state.cost }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::select::greedy::Greedy;
    use crate::select::testing::*;

    /// A (6 words) alone is closest to the centroid, but B + C (5 + 5) cover
    /// it exactly; with a 10-word budget A leaves room only for the unrelated D.
    fn knapsack_trap() -> (Vec<crate::encoder::Embedding>, Vec<f32>) {
        let embeddings = vec![
            unit(&[(0, 1.0), (1, 0.8)]), // A
            unit(&[(0, 1.0)]),           // B
            unit(&[(1, 1.0)]),           // C
            unit(&[(2, 1.0)]),           // D
        ];
        let mut centroid = vec![0f32; crate::encoder::DIM];
        centroid[0] = 1.0;
        centroid[1] = 1.0;
        (embeddings, centroid)
    }

    fn problem<'a>(embeddings: &'a [crate::encoder::Embedding], centroid: &'a [f32]) -> Problem<'a> {
        Problem { embeddings, candidates: &[0, 1, 2, 3], costs: &[6, 5, 5, 4], limit: 10, centroid, redundancy: None, weights: None, pinned: &[] }
    }

    #[test]
    fn greedy_falls_into_the_trap() {
        let (e, c) = knapsack_trap();
        assert_eq!(Greedy.select(&problem(&e, &c)).sentences, vec![0, 3]);
    }

    #[test]
    fn fill_beam_finds_the_better_pair() {
        let (e, c) = knapsack_trap();
        let beam = BeamSearch { width: 2, greedy_candidates: Some(9), mode: BeamMode::Fill };
        let selection = beam.select(&problem(&e, &c));
        assert_eq!(selection.sentences, vec![1, 2]);
        assert!((selection.score - 1.0).abs() < 1e-6);
        let Trace::Beam(trace) = selection.trace else { panic!("beam trace") };
        // Step 1 keeps A and B (C ties B and loses on order); step 2 keeps
        // B+C and A+D; step 3 freezes both (nothing fits).
        assert_eq!(trace.steps.len(), 3);
        let kept: Vec<usize> = trace.steps[0]
            .expansions
            .iter()
            .filter(|x| x.fate == Fate::Kept)
            .map(|x| x.sentence)
            .collect();
        assert_eq!(kept, vec![0, 1]);
        assert_eq!(trace.steps[2].frozen.len(), 2);
        assert_eq!(trace.finals[0].sentences, vec![1, 2]);
        assert!(trace.finals.iter().all(|f| f.cost <= 10));
    }

    #[test]
    fn fill_beam_merges_equal_sets() {
        // Two beams reach {B, C} in both orders: only one survives.
        let embeddings = vec![unit(&[(0, 1.0)]), unit(&[(1, 1.0)]), unit(&[(2, 1.0)])];
        let mut centroid = vec![0f32; crate::encoder::DIM];
        centroid[0] = 1.0;
        centroid[1] = 1.0;
        centroid[2] = 0.1;
        let p = Problem { embeddings: &embeddings, candidates: &[0, 1, 2], costs: &[1, 1, 1], limit: 2, centroid: &centroid, redundancy: None, weights: None, pinned: &[] };
        let beam = BeamSearch { width: 3, greedy_candidates: None, mode: BeamMode::Fill };
        let Trace::Beam(trace) = beam.select(&p).trace else { panic!() };
        let step2 = &trace.steps[1];
        assert!(step2.expansions.iter().any(|x| x.fate == Fate::Duplicate));
        let kept_sets: Vec<Vec<usize>> = step2
            .expansions
            .iter()
            .filter(|x| x.fate == Fate::Kept)
            .map(|x| {
                let mut set = step2.beams[x.beam].sentences.clone();
                set.push(x.sentence);
                set.sort();
                set
            })
            .collect();
        let mut unique = kept_sets.clone();
        unique.dedup();
        assert_eq!(unique.len(), kept_sets.len());
    }

    #[test]
    fn paper_beam_freezes_previous_states_on_overflow_and_greedy_fills() {
        // Budget 10. Singles: A (cost 8) best, B (cost 3), C (cost 3).
        // Step 2 survivors include A+B (11 words): the step-1 states freeze.
        // The greedy search then completes B with C.
        let embeddings = vec![unit(&[(0, 1.0), (1, 1.0)]), unit(&[(0, 1.0)]), unit(&[(1, 1.0)])];
        let mut centroid = vec![0f32; crate::encoder::DIM];
        centroid[0] = 1.0;
        centroid[1] = 1.0;
        let p = Problem { embeddings: &embeddings, candidates: &[0, 1, 2], costs: &[8, 3, 3], limit: 10, centroid: &centroid, redundancy: None, weights: None, pinned: &[] };
        let plain = BeamSearch { width: 2, greedy_candidates: None, mode: BeamMode::Paper };
        let selection = plain.select(&p);
        let Trace::Beam(trace) = &selection.trace else { panic!() };
        assert!(trace.steps[1].expansions.iter().any(|x| x.fate == Fate::KeptOverBudget));
        assert_eq!(trace.steps[1].frozen.len(), 2);
        // Plain BS returns the best frozen state: A alone (cos 1).
        assert_eq!(selection.sentences, vec![0]);
        let with_greedy = BeamSearch { width: 2, greedy_candidates: Some(9), mode: BeamMode::Paper };
        let selection = with_greedy.select(&p);
        let Trace::Beam(trace) = &selection.trace else { panic!() };
        assert_eq!(trace.continuations.len(), 2);
        // B continued with C also reaches cos 1; A cannot grow. Ties keep the
        // better-ranked start (A).
        assert!(trace.continuations.iter().any(|c| c.result.sentences == vec![1, 2]));
        assert_eq!(selection.sentences, vec![0]);
    }

    #[test]
    fn nothing_fits_gives_an_empty_selection() {
        let (e, c) = knapsack_trap();
        let p = Problem { embeddings: &e, candidates: &[0, 1, 2, 3], costs: &[60, 50, 50, 40], limit: 10, centroid: &c, redundancy: None, weights: None, pinned: &[] };
        for mode in [BeamMode::Fill, BeamMode::Paper] {
            let beam = BeamSearch { width: 3, greedy_candidates: Some(9), mode };
            assert!(beam.select(&p).sentences.iter().all(|_| false), "{mode:?}");
        }
    }
}
