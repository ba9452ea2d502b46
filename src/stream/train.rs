//! Training the LS policy by locally optimal learning to search (LOLS,
//! Chang et al. 2015), as the streaming paper does.
//!
//! For each training stream: roll in with the current policy; at sampled
//! states try both actions and roll out to the end of the stream with either
//! the oracle (probability β) or the current policy; the cost of an action is
//! the loss of the completed run, 1 − Dice between its selected set and the
//! oracle's. A cost-sensitive linear regressor (one per action) is updated by
//! AdaGrad on those (features, action, cost) examples after each stream.
//!
//! The oracle is greedy: it selects a sentence iff it matches a nugget that
//! no update so far covers.

use super::apsal::{Apsal, ApsalParams};
use super::cos::Cos;
use super::engine::{Policy, StateConfig, StreamSentence, StreamState};
use super::evaluate::{replay, LabeledStream};
use super::features::{self, Features};
use super::learned::{LinearModel, Ls, LsCos};
use super::metrics;
use super::rng::SplitMix64;
use serde::{Deserialize, Serialize};

/// Hyperparameters of LOLS.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct LolsConfig {
    /// Passes over the training streams.
    pub epochs: usize,
    /// Probability that a roll-out follows the oracle (else the current policy).
    pub oracle_rollout: f64,
    /// L2 regularization of the regressors.
    pub l2: f32,
    /// AdaGrad step size.
    pub learning_rate: f32,
    /// Roll-in states per stream and epoch at which both actions are tried.
    pub rollouts_per_stream: usize,
    pub seed: u64,
}

impl Default for LolsConfig {
    fn default() -> Self {
        Self { epochs: 6, oracle_rollout: 0.5, l2: 1e-4, learning_rate: 0.1, rollouts_per_stream: 100, seed: 2016 }
    }
}

/// The greedy oracle's decisions from the start of a stream: the sentences
/// that add a nugget not yet covered, in stream order.
pub fn oracle_selection(sentence_nuggets: &[&[usize]], nugget_count: usize) -> Vec<usize> {
    let mut covered = vec![false; nugget_count];
    let mut selected = Vec::new();
    for (id, nuggets) in sentence_nuggets.iter().enumerate() {
        if adds_nugget(nuggets, &covered) {
            nuggets.iter().for_each(|&n| covered[n] = true);
            selected.push(id);
        }
    }
    selected
}

fn adds_nugget(nuggets: &[usize], covered: &[bool]) -> bool {
    nuggets.iter().any(|&n| !covered[n])
}

/// 1 − 2|A ∩ B| / (|A| + |B|) for sorted id lists (0 when both are empty).
pub fn dice_loss(a: &[usize], b: &[usize]) -> f64 {
    if a.is_empty() && b.is_empty() {
        return 0.0;
    }
    let (mut i, mut j, mut common) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                common += 1;
                i += 1;
                j += 1;
            }
        }
    }
    1.0 - 2.0 * common as f64 / (a.len() + b.len()) as f64
}

/// One training stream, flattened for simulation.
struct Episode<'a> {
    stream: &'a LabeledStream,
    nuggets: Vec<&'a [usize]>,
    /// (document, sentence within it) of each step.
    steps: Vec<(usize, usize)>,
    oracle: Vec<usize>,
}

impl<'a> Episode<'a> {
    fn new(stream: &'a LabeledStream) -> Self {
        let nuggets = stream.sentence_nuggets();
        let steps = stream
            .documents
            .iter()
            .enumerate()
            .flat_map(|(d, doc)| (0..doc.sentences.len()).map(move |j| (d, j)))
            .collect();
        let oracle = oracle_selection(&nuggets, stream.nugget_times.len());
        Self { stream, nuggets, steps, oracle }
    }
}

/// A point in the search: the state before deciding step `step`.
#[derive(Clone)]
struct Cursor {
    state: StreamState,
    covered: Vec<bool>,
    selected: Vec<usize>,
    step: usize,
}

impl Cursor {
    fn start(episode: &Episode, config: StateConfig) -> Self {
        Self {
            state: StreamState::new(episode.stream.query, config),
            covered: vec![false; episode.stream.nugget_times.len()],
            selected: Vec::new(),
            step: 0,
        }
    }

    /// Admits the sentence of the current step (opening its document first).
    fn admit(&mut self, episode: &Episode) -> StreamSentence {
        let (d, j) = episode.steps[self.step];
        let doc = &episode.stream.documents[d];
        if j == 0 {
            self.state.open_document(doc.time, doc.sentences.iter().map(|s| &s.embedding));
        }
        self.state.admit(&doc.sentences[j])
    }

    fn apply(&mut self, episode: &Episode, sentence: &StreamSentence, select: bool) {
        if select {
            self.state.add_update(sentence, sentence.time);
            episode.nuggets[sentence.id].iter().for_each(|&n| self.covered[n] = true);
            self.selected.push(sentence.id);
        }
        self.state.observe(sentence);
        self.step += 1;
    }

    /// Runs the learned policy to the end of the stream.
    fn finish_with_policy(mut self, episode: &Episode, model: &LinearModel) -> Vec<usize> {
        while self.step < episode.steps.len() {
            let sentence = self.admit(episode);
            let select = model.score(&features::extract(&self.state, &sentence)) > 0.0;
            self.apply(episode, &sentence, select);
        }
        self.selected
    }

    /// Runs the oracle to the end; it needs no features, so the stream
    /// state is left behind.
    fn finish_with_oracle(mut self, episode: &Episode) -> Vec<usize> {
        for id in self.step..episode.steps.len() {
            if adds_nugget(episode.nuggets[id], &self.covered) {
                episode.nuggets[id].iter().for_each(|&n| self.covered[n] = true);
                self.selected.push(id);
            }
        }
        self.selected
    }
}

/// A cost-sensitive example: the state's features and each action's cost.
struct Example {
    features: Features,
    skip_cost: f32,
    select_cost: f32,
}

/// Collects LOLS examples on one stream with the current model.
fn collect_examples(
    episode: &Episode,
    model: &LinearModel,
    lols: &LolsConfig,
    state_config: StateConfig,
    rng: &mut SplitMix64,
) -> Vec<Example> {
    let total = episode.steps.len();
    let mut sampled = vec![false; total];
    let mut order: Vec<usize> = (0..total).collect();
    rng.shuffle(&mut order);
    order.iter().take(lols.rollouts_per_stream).for_each(|&t| sampled[t] = true);
    // Costs in units of one decision: a single wrong choice moves the Dice
    // loss by about 1 / |oracle selection|.
    let scale = episode.oracle.len().max(1) as f64;
    let mut examples = Vec::new();
    let mut cursor = Cursor::start(episode, state_config);
    while cursor.step < total {
        let sentence = cursor.admit(episode);
        let phi = features::extract(&cursor.state, &sentence);
        if sampled[cursor.step] {
            let use_oracle = rng.next_f64() < lols.oracle_rollout;
            let cost = |select: bool| {
                let mut branch = cursor.clone();
                branch.apply(episode, &sentence, select);
                let selected = if use_oracle {
                    branch.finish_with_oracle(episode)
                } else {
                    branch.finish_with_policy(episode, model)
                };
                dice_loss(&selected, &episode.oracle)
            };
            let (skip, select) = (cost(false), cost(true));
            let best = skip.min(select);
            examples.push(Example {
                features: phi,
                skip_cost: ((skip - best) * scale) as f32,
                select_cost: ((select - best) * scale) as f32,
            });
        }
        let select = model.score(&phi) > 0.0;
        cursor.apply(episode, &sentence, select);
    }
    examples
}

/// Per-coordinate AdaGrad on the squared error of each action's cost, with
/// the running average of the weights as the policy (averaging tames the
/// noise of single roll-outs).
struct Regressor {
    current: LinearModel,
    skip_g2: Vec<f32>,
    select_g2: Vec<f32>,
    sum: LinearModel,
    steps: usize,
}

impl Regressor {
    fn new() -> Self {
        let zeros = LinearModel::zeros();
        let n = zeros.skip.len();
        Self { current: zeros.clone(), skip_g2: vec![0.0; n], select_g2: vec![0.0; n], sum: zeros, steps: 0 }
    }

    fn learn(&mut self, example: &Example, lols: &LolsConfig) {
        let model = &mut self.current;
        step(&mut model.skip, &mut self.skip_g2, &example.features, example.skip_cost, lols);
        step(&mut model.select, &mut self.select_g2, &example.features, example.select_cost, lols);
        add(&mut self.sum.skip, &model.skip);
        add(&mut self.sum.select, &model.select);
        self.steps += 1;
    }

    fn averaged(&self) -> LinearModel {
        let n = self.steps.max(1) as f32;
        let mut model = self.sum.clone();
        model.skip.iter_mut().chain(model.select.iter_mut()).for_each(|w| *w /= n);
        model
    }
}

fn step(weights: &mut [f32], g2: &mut [f32], phi: &Features, target: f32, lols: &LolsConfig) {
    let error = super::engine::dot(weights, phi) - target;
    for ((w, g2), &x) in weights.iter_mut().zip(g2.iter_mut()).zip(phi.iter()) {
        let grad = error * x + lols.l2 * *w;
        *g2 += grad * grad;
        *w -= lols.learning_rate * grad / (g2.sqrt() + 1e-8);
    }
}

fn add(sum: &mut [f32], weights: &[f32]) {
    sum.iter_mut().zip(weights).for_each(|(s, w)| *s += w);
}

/// Trains LS on `streams`; `after_epoch(epoch, model)` sees the model after
/// each pass (for choosing the number of epochs on held-out events).
pub fn train(
    streams: &[LabeledStream],
    lols: &LolsConfig,
    state_config: StateConfig,
    mut after_epoch: impl FnMut(usize, &LinearModel),
) -> LinearModel {
    let episodes: Vec<Episode> = streams.iter().map(Episode::new).collect();
    let mut rng = SplitMix64::new(lols.seed);
    let mut regressor = Regressor::new();
    let mut policy = LinearModel::zeros();
    for epoch in 1..=lols.epochs {
        let mut order: Vec<usize> = (0..episodes.len()).collect();
        rng.shuffle(&mut order);
        for &e in &order {
            let mut examples = collect_examples(&episodes[e], &policy, lols, state_config, &mut rng);
            rng.shuffle(&mut examples);
            examples.iter().for_each(|x| regressor.learn(x, lols));
            policy = regressor.averaged();
        }
        after_epoch(epoch, &policy);
    }
    policy
}

/// The hyperparameters tried when tuning on a development year.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TuningGrid {
    pub cos_thresholds: Vec<f32>,
    pub apsal_windows: Vec<i64>,
    pub apsal_thresholds: Vec<f32>,
    pub apsal_offsets: Vec<f32>,
    pub oracle_rollouts: Vec<f64>,
    pub l2: Vec<f32>,
    /// Epochs are chosen among 1..=max_epochs by held-out F1.
    pub max_epochs: usize,
    /// Folds of the cross-validation over events.
    pub folds: usize,
}

impl Default for TuningGrid {
    fn default() -> Self {
        let thresholds: Vec<f32> = (6..=18).map(|i| i as f32 * 0.05).collect();
        Self {
            cos_thresholds: thresholds.clone(),
            apsal_windows: vec![3600, 6 * 3600],
            apsal_thresholds: vec![0.5, 0.6, 0.7, 0.8],
            apsal_offsets: vec![-1.0, -0.5, 0.0],
            oracle_rollouts: vec![0.5],
            l2: vec![1e-4, 1e-3],
            max_epochs: 8,
            folds: 3,
        }
    }
}

/// What tuning chose, with the held-out evidence.
#[derive(Clone, Debug, Serialize)]
pub struct Tuned {
    pub cos_threshold: f32,
    pub cos_f1: f64,
    pub apsal: ApsalParams,
    pub apsal_f1: f64,
    pub lols: LolsConfig,
    /// Mean held-out F1 of LS at the chosen setting.
    pub ls_cv_f1: f64,
    pub ls_cos_threshold: f32,
    pub ls_cos_cv_f1: f64,
    /// Every LS setting tried: (oracle_rollout, l2, epoch, held-out F1).
    pub ls_trials: Vec<(f64, f32, usize, f64)>,
    /// The shipped LS: the mean of the cross-validation models at the chosen
    /// setting, each validated on the events it did not see.
    #[serde(skip)]
    pub ls_model: LinearModel,
}

/// Mean F1 of a policy over streams.
fn mean_f1<P: Policy>(make: impl Fn() -> P, streams: &[&LabeledStream], state: StateConfig) -> f64 {
    let scores: Vec<_> = streams.iter().map(|s| replay(make(), s, state).scores).collect();
    metrics::mean(&scores).f1
}

/// The candidate with the best score; ties go to the earlier candidate.
fn best<T: Copy>(candidates: impl IntoIterator<Item = (T, f64)>) -> (T, f64) {
    candidates
        .into_iter()
        .fold(None, |best: Option<(T, f64)>, (c, f)| match best {
            Some((_, b)) if b >= f => best,
            _ => Some((c, f)),
        })
        .expect("a non-empty grid")
}

/// Chooses every policy's hyperparameters on `streams` (a development year)
/// by mean F1: COS and APSAL on all events, LS and LS+COS by cross-validation
/// over events. `log` receives one line per finished step.
pub fn tune(
    streams: &[LabeledStream],
    grid: &TuningGrid,
    base: &LolsConfig,
    state: StateConfig,
    mut log: impl FnMut(&str),
) -> Tuned {
    let all: Vec<&LabeledStream> = streams.iter().collect();
    let (cos_threshold, cos_f1) =
        best(grid.cos_thresholds.iter().map(|&t| (t, mean_f1(|| Cos { threshold: t }, &all, state))));
    log(&format!("cos: threshold {cos_threshold:.2}, F1 {cos_f1:.4}"));
    let apsal_grid = grid.apsal_windows.iter().flat_map(|&w| {
        grid.apsal_thresholds.iter().flat_map(move |&t| {
            grid.apsal_offsets.iter().map(move |&o| ApsalParams { window_seconds: w, threshold: t, preference_offset: o })
        })
    });
    let (apsal, apsal_f1) = best(apsal_grid.map(|p| (p, mean_f1(|| Apsal::new(p), &all, state))));
    log(&format!("apsal: {apsal:?}, F1 {apsal_f1:.4}"));
    let folds = folds(streams.len(), grid.folds, base.seed);
    let mut trials = Vec::new();
    let mut fold_models: Vec<Vec<Vec<LinearModel>>> = Vec::new();
    for &beta in &grid.oracle_rollouts {
        for &l2 in &grid.l2 {
            let lols = LolsConfig { oracle_rollout: beta, l2, epochs: grid.max_epochs, ..*base };
            let (f1_by_epoch, models) = cross_validate(streams, &folds, &lols, state);
            for (epoch, f1) in f1_by_epoch.iter().enumerate() {
                trials.push((beta, l2, epoch + 1, *f1));
            }
            log(&format!("ls: oracle roll-out {beta}, l2 {l2}: held-out F1 by epoch {f1_by_epoch:.4?}"));
            fold_models.push(models);
        }
    }
    let (trial, ls_cv_f1) = best(trials.iter().enumerate().map(|(i, t)| (i, t.3)));
    let (beta, l2, epochs, _) = trials[trial];
    let models = &fold_models[trial / grid.max_epochs];
    let lols = LolsConfig { oracle_rollout: beta, l2, epochs, ..*base };
    let ls_cos = grid.cos_thresholds.iter().map(|&t| {
        let per_fold: Vec<f64> = folds
            .iter()
            .zip(models)
            .map(|(held_out, by_epoch)| {
                let model = &by_epoch[epochs - 1];
                let test: Vec<&LabeledStream> = held_out.iter().map(|&i| &streams[i]).collect();
                mean_f1(|| LsCos { model: model.clone(), threshold: t }, &test, state) * test.len() as f64
            })
            .collect();
        (t, per_fold.iter().sum::<f64>() / streams.len() as f64)
    });
    let (ls_cos_threshold, ls_cos_cv_f1) = best(ls_cos);
    log(&format!("ls: {lols:?}, held-out F1 {ls_cv_f1:.4}; ls+cos threshold {ls_cos_threshold:.2}, held-out F1 {ls_cos_cv_f1:.4}"));
    let ls_model = mean_model(models.iter().map(|by_epoch| &by_epoch[epochs - 1]));
    Tuned { cos_threshold, cos_f1, apsal, apsal_f1, lols, ls_cv_f1, ls_cos_threshold, ls_cos_cv_f1, ls_trials: trials, ls_model }
}

/// Weight-wise mean of linear models (a bagged ensemble of the fold models).
fn mean_model<'a>(models: impl Iterator<Item = &'a LinearModel>) -> LinearModel {
    let mut sum = LinearModel::zeros();
    let mut count = 0;
    for m in models {
        add(&mut sum.skip, &m.skip);
        add(&mut sum.select, &m.select);
        count += 1;
    }
    sum.skip.iter_mut().chain(sum.select.iter_mut()).for_each(|w| *w /= count.max(1) as f32);
    sum
}

/// Event indices split into `k` folds after a seeded shuffle.
fn folds(n: usize, k: usize, seed: u64) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..n).collect();
    SplitMix64::new(seed).shuffle(&mut order);
    let k = k.clamp(1, n.max(1));
    (0..k).map(|f| order.iter().copied().skip(f).step_by(k).collect()).collect()
}

/// Trains on all folds but one, per fold (in parallel); returns the mean
/// held-out F1 after each epoch (events weighted equally) and each fold's
/// model per epoch.
fn cross_validate(
    streams: &[LabeledStream],
    folds: &[Vec<usize>],
    lols: &LolsConfig,
    state: StateConfig,
) -> (Vec<f64>, Vec<Vec<LinearModel>>) {
    use rayon::prelude::*;
    let per_fold: Vec<(Vec<f64>, Vec<LinearModel>)> = folds
        .par_iter()
        .map(|held_out| {
            let train_set: Vec<LabeledStream> =
                (0..streams.len()).filter(|i| !held_out.contains(i)).map(|i| streams[i].clone()).collect();
            let test: Vec<&LabeledStream> = held_out.iter().map(|&i| &streams[i]).collect();
            let (mut f1_sums, mut models) = (Vec::new(), Vec::new());
            train(&train_set, lols, state, |_, model| {
                f1_sums.push(mean_f1(|| Ls { model: model.clone() }, &test, state) * test.len() as f64);
                models.push(model.clone());
            });
            (f1_sums, models)
        })
        .collect();
    let f1 = (0..lols.epochs)
        .map(|e| per_fold.iter().map(|(sums, _)| sums[e]).sum::<f64>() / streams.len() as f64)
        .collect();
    (f1, per_fold.into_iter().map(|(_, models)| models).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::evaluate::tests::tiny_stream;
    use crate::stream::engine::tests::{axis, between, input};
    use crate::stream::evaluate::LabeledDocument;

    #[test]
    fn oracle_selects_sentences_with_new_nuggets() {
        let nuggets: Vec<&[usize]> = vec![&[], &[0], &[0], &[1, 0], &[1], &[2]];
        assert_eq!(oracle_selection(&nuggets, 3), vec![1, 3, 5]);
    }

    #[test]
    fn dice_loss_values() {
        assert_eq!(dice_loss(&[], &[]), 0.0);
        assert_eq!(dice_loss(&[1, 2], &[1, 2]), 0.0);
        assert_eq!(dice_loss(&[1, 2, 3], &[]), 1.0);
        // |A ∩ B| = 1, |A| + |B| = 4.
        assert_eq!(dice_loss(&[1, 5], &[1, 2]), 0.5);
        assert!((dice_loss(&[0, 2, 4], &[2]) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn costs_prefer_the_oracle_action() {
        // Oracle-only roll-outs: selecting sentence 0 (nugget 0) costs
        // nothing, skipping it loses it; sentence 1 matches nothing.
        let stream = tiny_stream();
        let episode = Episode::new(&stream);
        assert_eq!(episode.oracle, vec![0, 1], "sentences 2 and 3 repeat nuggets 0 and 1");
        let lols = LolsConfig { oracle_rollout: 1.0, rollouts_per_stream: 100, ..Default::default() };
        let examples =
            collect_examples(&episode, &LinearModel::zeros(), &lols, StateConfig::default(), &mut SplitMix64::new(1));
        assert_eq!(examples.len(), 4, "every state sampled");
        // The roll-in skips everything (zero weights). Costs are in units of
        // 1/|oracle| = 1/2.
        // Step 0: skip → the oracle takes 1 and 2: Dice 2·1/4, loss 0.5;
        // select → 0 then 1: loss 0.
        assert_eq!((examples[0].skip_cost, examples[0].select_cost), (1.0, 0.0));
        // Step 1 (0 skipped): skip → {2, 3}, loss 1; select → {1, 2}, loss 0.5.
        assert_eq!((examples[1].skip_cost, examples[1].select_cost), (1.0, 0.0));
        // Step 2 (0 and 1 skipped): {3} or {2, 3}, both loss 1: Dice only
        // rewards the oracle's own choices.
        assert_eq!((examples[2].skip_cost, examples[2].select_cost), (0.0, 0.0));
    }

    /// Sentences along the query (axis 0) match a nugget, the others are
    /// noise; LS must learn to follow query similarity.
    fn relevant_and_noise(seed: u64) -> LabeledStream {
        let mut rng = SplitMix64::new(seed);
        let mut documents = Vec::new();
        let mut nugget = 0;
        for d in 0..40 {
            let relevant = d % 2 == 0;
            let embedding = if relevant { between(0, 1 + rng.below(50), 0.9) } else { axis(100 + rng.below(300)) };
            let nuggets = if relevant {
                nugget += 1;
                vec![nugget - 1]
            } else {
                vec![]
            };
            documents.push(LabeledDocument { time: d as i64 * 600, sentences: vec![input(embedding)], nuggets: vec![nuggets] });
        }
        LabeledStream { name: format!("s{seed}"), query: Some(axis(0)), documents, nugget_times: vec![0; nugget] }
    }

    #[test]
    fn folds_partition_the_events() {
        let f = folds(7, 3, 5);
        assert_eq!(f.len(), 3);
        let mut all: Vec<usize> = f.concat();
        all.sort();
        assert_eq!(all, (0..7).collect::<Vec<_>>());
        assert!(f.iter().all(|fold| fold.len() >= 2));
    }

    #[test]
    fn mean_model_averages_weights() {
        let (mut a, mut b) = (LinearModel::zeros(), LinearModel::zeros());
        a.skip[0] = 1.0;
        b.skip[0] = 3.0;
        b.select[1] = -2.0;
        let m = mean_model([&a, &b].into_iter());
        assert_eq!((m.skip[0], m.select[1], m.select[0]), (2.0, -1.0, 0.0));
    }

    #[test]
    fn best_keeps_the_first_of_ties() {
        assert_eq!(best([(1, 0.5), (2, 0.7), (3, 0.7)]), (2, 0.7));
    }

    #[test]
    fn lols_learns_to_follow_the_query() {
        let streams: Vec<LabeledStream> = (0..3).map(relevant_and_noise).collect();
        let lols = LolsConfig { epochs: 3, rollouts_per_stream: 20, ..Default::default() };
        let mut epochs = Vec::new();
        let model = train(&streams, &lols, StateConfig::default(), |e, _| epochs.push(e));
        assert_eq!(epochs, vec![1, 2, 3]);
        let run = replay(Ls { model }, &relevant_and_noise(99), StateConfig::default());
        assert!(run.scores.f1 > 0.9, "F1 {} on a held-out stream", run.scores.f1);
    }
}
