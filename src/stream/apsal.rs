//! APSAL (Kedzie et al. 2015): the stream is cut into fixed time windows; when
//! a window closes, affinity propagation clusters its sentences with each
//! sentence's preference set from its salience, and the exemplars that are
//! below a similarity threshold to every earlier update become updates, timed
//! at the window's close (the latency price of batching).

use super::engine::{dot, Action, Closest, Policy, Reason, Released, StreamSentence, StreamState};
use super::rng::SplitMix64;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ApsalParams {
    /// Window width in seconds; windows are aligned to the Unix epoch.
    pub window_seconds: i64,
    /// Redundancy threshold against earlier updates.
    pub threshold: f32,
    /// Preference = offset + salience (cosine to the query).
    pub preference_offset: f32,
}

impl Default for ApsalParams {
    fn default() -> Self {
        Self { window_seconds: 3600, threshold: 0.6, preference_offset: -0.5 }
    }
}

#[derive(Clone, Debug)]
pub struct Apsal {
    pub params: ApsalParams,
    window: Vec<Pending>,
    window_end: i64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
struct Pending {
    sentence: StreamSentence,
    #[serde(with = "super::snapshot::f32_bits")]
    salience: f32,
}

/// The open window, as a saved stream holds it.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Serialize, Deserialize)]
struct OpenWindow {
    window: Vec<Pending>,
    window_end: i64,
}

impl Apsal {
    pub fn new(params: ApsalParams) -> Self {
        Self { params, window: Vec::new(), window_end: i64::MIN }
    }

    fn end_of_window(&self, time: i64) -> i64 {
        let w = self.params.window_seconds.max(1);
        time.div_euclid(w) * w + w
    }

    /// Clusters the closed window and decides each of its sentences.
    fn close_window(&mut self, state: &StreamState) -> Vec<Released> {
        let pending = std::mem::take(&mut self.window);
        let similarity = similarity_matrix(&pending, self.params.preference_offset);
        let exemplar_of = affinity_propagation(&similarity, &ApConfig::default());
        let mut accepted: Vec<&StreamSentence> = Vec::new();
        let mut released = Vec::with_capacity(pending.len());
        for (i, p) in pending.iter().enumerate() {
            let (action, reason) = match exemplar_of[i] {
                Some(e) if e == i => {
                    let closest = closest_update(state, &accepted, &p.sentence, self.params.threshold);
                    let cluster_size = exemplar_of.iter().filter(|&&x| x == Some(i)).count();
                    if closest.is_novel() {
                        accepted.push(&p.sentence);
                        (Action::Select, Reason::Exemplar { cluster_size, closest })
                    } else {
                        (Action::Skip, Reason::Exemplar { cluster_size, closest })
                    }
                }
                Some(e) => (Action::Skip, Reason::NotExemplar { exemplar: pending[e].sentence.id }),
                None => (Action::Skip, Reason::NotExemplar { exemplar: p.sentence.id }),
            };
            released.push(Released { sentence: p.sentence.clone(), action, reason, time: self.window_end });
        }
        released
    }
}

/// Closest among the state's updates and those accepted earlier in this
/// window (which become the next updates, in order).
fn closest_update(state: &StreamState, accepted: &[&StreamSentence], s: &StreamSentence, threshold: f32) -> Closest {
    let mut closest = Closest::among(state.updates(), &s.embedding, threshold);
    for (j, a) in accepted.iter().enumerate() {
        let sim = dot(&a.embedding, &s.embedding);
        if closest.update.is_none() || sim > closest.similarity {
            closest.update = Some(state.updates().len() + j);
            closest.similarity = sim;
        }
    }
    closest
}

/// Cosine similarities, preferences on the diagonal.
fn similarity_matrix(pending: &[Pending], offset: f32) -> Vec<Vec<f64>> {
    pending
        .iter()
        .enumerate()
        .map(|(i, a)| {
            pending
                .iter()
                .enumerate()
                .map(|(k, b)| {
                    if i == k {
                        (offset + a.salience) as f64
                    } else {
                        dot(&a.sentence.embedding, &b.sentence.embedding) as f64
                    }
                })
                .collect()
        })
        .collect()
}

impl Policy for Apsal {
    fn name(&self) -> &'static str {
        "apsal"
    }

    fn decide(&mut self, state: &StreamState, sentence: &StreamSentence) -> (Action, Reason) {
        self.window_end = self.end_of_window(sentence.time);
        let salience = state.query_similarity(&sentence.embedding);
        self.window.push(Pending { sentence: sentence.clone(), salience });
        (Action::Defer, Reason::Waiting { window_end: self.window_end })
    }

    fn release(&mut self, state: &StreamState, now: Option<i64>) -> Vec<Released> {
        let closed = now.is_none_or(|t| t >= self.window_end);
        if self.window.is_empty() || !closed {
            return Vec::new();
        }
        self.close_window(state)
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn held(&self) -> serde_json::Value {
        let open = OpenWindow { window: self.window.clone(), window_end: self.window_end };
        serde_json::to_value(open).expect("a window serializes")
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn restore_held(&mut self, held: serde_json::Value) -> Result<(), String> {
        let open: OpenWindow = serde_json::from_value(held).map_err(|e| format!("the saved APSAL window: {e}"))?;
        (self.window, self.window_end) = (open.window, open.window_end);
        Ok(())
    }
}

/// Settings of affinity propagation (Frey & Dueck 2007).
#[derive(Clone, Copy, Debug)]
pub struct ApConfig {
    pub damping: f64,
    pub max_iterations: usize,
    /// Stop once the exemplars stayed the same this many iterations.
    pub convergence_iterations: usize,
}

impl Default for ApConfig {
    fn default() -> Self {
        Self { damping: 0.5, max_iterations: 200, convergence_iterations: 15 }
    }
}

/// Affinity propagation on a square similarity matrix whose diagonal holds
/// the preferences. Returns each point's exemplar (`None` for every point
/// when no exemplar emerged). Deterministic: ties are broken by a fixed,
/// tiny perturbation as in the usual implementations.
pub fn affinity_propagation(similarity: &[Vec<f64>], config: &ApConfig) -> Vec<Option<usize>> {
    let n = similarity.len();
    if n <= 1 {
        return (0..n).map(Some).collect();
    }
    let s = perturbed(similarity);
    let mut r = vec![vec![0.0; n]; n];
    let mut a = vec![vec![0.0; n]; n];
    let mut exemplars = vec![false; n];
    let mut stable = 0;
    for _ in 0..config.max_iterations {
        update_responsibilities(&s, &a, &mut r, config.damping);
        update_availabilities(&r, &mut a, config.damping);
        let now: Vec<bool> = (0..n).map(|k| r[k][k] + a[k][k] > 0.0).collect();
        stable = if now == exemplars { stable + 1 } else { 0 };
        exemplars = now;
        if stable >= config.convergence_iterations && exemplars.iter().any(|&e| e) {
            break;
        }
    }
    assign(&s, &exemplars)
}

/// Adds deterministic noise far below any real difference so that identical
/// sentences do not make the messages oscillate.
fn perturbed(similarity: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let mut rng = SplitMix64::new(0);
    similarity
        .iter()
        .map(|row| row.iter().map(|&x| x + 1e-12 * (x.abs() + 1e-3) * rng.normal()).collect())
        .collect()
}

/// r(i,k) ← s(i,k) − max_{k'≠k} (a(i,k') + s(i,k')), damped.
fn update_responsibilities(s: &[Vec<f64>], a: &[Vec<f64>], r: &mut [Vec<f64>], damping: f64) {
    let n = s.len();
    for i in 0..n {
        let (mut best, mut best_k, mut second) = (f64::NEG_INFINITY, 0, f64::NEG_INFINITY);
        for k in 0..n {
            let v = a[i][k] + s[i][k];
            if v > best {
                second = best;
                best = v;
                best_k = k;
            } else if v > second {
                second = v;
            }
        }
        for k in 0..n {
            let competitor = if k == best_k { second } else { best };
            r[i][k] = damping * r[i][k] + (1.0 - damping) * (s[i][k] - competitor);
        }
    }
}

/// a(i,k) ← min(0, r(k,k) + Σ_{i'∉{i,k}} max(0, r(i',k))) for i ≠ k and
/// a(k,k) ← Σ_{i'≠k} max(0, r(i',k)), damped.
fn update_availabilities(r: &[Vec<f64>], a: &mut [Vec<f64>], damping: f64) {
    let n = r.len();
    for k in 0..n {
        let positive = |i: usize| if i == k { r[k][k] } else { r[i][k].max(0.0) };
        let total: f64 = (0..n).map(positive).sum();
        for i in 0..n {
            let new = if i == k { total - r[k][k] } else { (total - positive(i)).min(0.0) };
            a[i][k] = damping * a[i][k] + (1.0 - damping) * new;
        }
    }
}

/// Each point joins its most similar exemplar; exemplars represent themselves.
fn assign(s: &[Vec<f64>], exemplars: &[bool]) -> Vec<Option<usize>> {
    let centers: Vec<usize> = (0..s.len()).filter(|&k| exemplars[k]).collect();
    (0..s.len())
        .map(|i| {
            if exemplars[i] {
                return Some(i);
            }
            centers.iter().copied().fold(None, |best: Option<usize>, k| match best {
                Some(b) if s[i][b] >= s[i][k] => Some(b),
                _ => Some(k),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::engine::tests::{axis, between, input};
    use crate::stream::engine::{Engine, StateConfig};

    /// Negative squared distances of points on a line, preference on the diagonal.
    fn line(points: &[f64], preference: f64) -> Vec<Vec<f64>> {
        points
            .iter()
            .enumerate()
            .map(|(i, x)| {
                let cost = |(k, y): (usize, &f64)| if i == k { preference } else { -(x - y) * (x - y) };
                points.iter().enumerate().map(cost).collect()
            })
            .collect()
    }

    #[test]
    fn two_groups_on_a_line_get_their_middles() {
        // {0,1,2} and {10,11,12}: within-group costs are 1–4, across ≥ 64;
        // a preference of −10 makes one exemplar per group, the middle point
        // (total cost 2 against 5 for an end point).
        let s = line(&[0.0, 1.0, 2.0, 10.0, 11.0, 12.0], -10.0);
        let exemplar_of = affinity_propagation(&s, &ApConfig::default());
        assert_eq!(exemplar_of, vec![Some(1), Some(1), Some(1), Some(4), Some(4), Some(4)]);
    }

    #[test]
    fn low_preference_merges_high_preference_splits() {
        // Far below every cost of merging: one cluster around the median point.
        let s = line(&[0.0, 1.0, 2.0, 10.0, 11.0, 12.0], -1000.0);
        let one = affinity_propagation(&s, &ApConfig::default());
        let center = one[0].expect("an exemplar");
        assert!(center == 2 || center == 3, "points 2 and 10 tie for the median: {one:?}");
        assert!(one.iter().all(|&e| e == Some(center)));
        // Above every similarity: each point is its own exemplar.
        let s = line(&[0.0, 1.0, 2.0, 10.0], 0.0);
        let all = affinity_propagation(&s, &ApConfig::default());
        assert_eq!(all, vec![Some(0), Some(1), Some(2), Some(3)]);
    }

    #[test]
    fn identical_points_still_converge_deterministically() {
        let s = line(&[5.0, 5.0, 5.0, 5.0], -1.0);
        let first = affinity_propagation(&s, &ApConfig::default());
        assert_eq!(first, affinity_propagation(&s, &ApConfig::default()));
        // Identical points: joining costs nothing, so one exemplar.
        let centers: std::collections::BTreeSet<_> = first.iter().collect();
        assert_eq!(centers.len(), 1);
        assert!(first[0].is_some());
    }

    #[test]
    fn windows_release_exemplars_at_their_close() {
        let params = ApsalParams { window_seconds: 100, threshold: 0.9, preference_offset: -0.5 };
        let mut engine = Engine::new(Apsal::new(params), Some(axis(3)), StateConfig::default());
        // Window [0, 100): a near-identical pair (cosine 0.98) where the first
        // is more salient (0.20 against 0), and the query itself (salience 1).
        let pair = [input(between(0, 3, 0.98)), input(axis(0))];
        let early = engine.push_document(10, &[pair[0].clone(), pair[1].clone(), input(axis(3))]);
        assert!(early.iter().all(|d| d.action == Action::Defer));
        assert_eq!(early[0].reason, Reason::Waiting { window_end: 100 });
        // A document at 150 closes the first window first. Best clustering:
        // {0 (pref −0.30) ← 1 (0.98)} and {2 (pref 0.5)}, net 1.18.
        let next = engine.push_document(150, &[input(between(0, 2, 0.95))]);
        let closed: Vec<(usize, Action, i64)> = next[..3].iter().map(|d| (d.sentence, d.action, d.time)).collect();
        assert_eq!(closed, vec![(0, Action::Select, 100), (1, Action::Skip, 100), (2, Action::Select, 100)]);
        assert_eq!(next[1].reason, Reason::NotExemplar { exemplar: 0 });
        assert_eq!(next[3].action, Action::Defer);
        // The end of the stream closes the last window: 0.95 × 0.98 ≥ 0.9.
        let last = engine.finish();
        assert_eq!((last[0].action, last[0].time), (Action::Skip, 200));
        assert_eq!(last[0].reason.to_string(), "exemplar of a cluster of 1, too similar to update 1: 0.93 ≥ 0.90");
    }
}
