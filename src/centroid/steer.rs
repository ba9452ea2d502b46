//! Steering: a reader's question or topic pulls the centroid towards its own
//! embedding, so every centroid method (and the stream policies' reference
//! points) favours the sentences that answer it.
//!
//! With unit vectors ĉ (the centroid's direction) and q̂ (the topic's),
//! the steered direction is (1 − w)·ĉ + w·q̂: weight 0 leaves the centroid
//! as it was, 1 replaces it by the topic. The result keeps the centroid's
//! length, so the map draws it on the same scale as before.

use super::Centroid;
use serde::{Deserialize, Serialize};

/// What steering did, for the explorer and the map.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Steering {
    /// w, clamped to 0..=1.
    pub weight: f32,
    /// The topic's unit embedding (the mean of its sentences').
    pub query: Vec<f32>,
    /// The centroid before steering.
    pub unsteered: Vec<f32>,
    /// Cosine between the centroid before and after (1: it did not move).
    pub cosine_moved: f32,
    /// Cosine of the unsteered centroid with the topic.
    pub cosine_to_query: f32,
}

impl Steering {
    /// How far the centroid turned, in degrees.
    pub fn degrees_moved(&self) -> f32 {
        self.cosine_moved.clamp(-1.0, 1.0).acos().to_degrees()
    }
}

/// `centroid` pulled towards `query` (any length) by `weight`.
pub fn steer(mut centroid: Centroid, query: &[f32], weight: f32) -> Centroid {
    let weight = weight.clamp(0.0, 1.0);
    let length = norm(&centroid.vector);
    let query = unit(query);
    let steered: Vec<f32> =
        blend(&unit(&centroid.vector), &query, weight).into_iter().map(|x| x * length.max(f32::EPSILON)).collect();
    let steering = Steering {
        weight,
        cosine_moved: cosine(&centroid.vector, &steered),
        cosine_to_query: cosine(&centroid.vector, &query),
        query,
        unsteered: std::mem::replace(&mut centroid.vector, steered),
    };
    centroid.steering = Some(steering);
    centroid
}

/// normalize((1 − w)·a + w·b) for unit a and b: the steered direction,
/// shared with the stream policies (`StreamState::steered`).
pub fn blend(a: &[f32], b: &[f32], weight: f32) -> Vec<f32> {
    unit(&a.iter().zip(b).map(|(x, y)| (1.0 - weight) * x + weight * y).collect::<Vec<_>>())
}

/// The mean of unit vectors, scaled to unit length (zero for no vectors):
/// a topic of several sentences, a stream document's centroid.
pub fn unit_mean<'a>(vectors: impl IntoIterator<Item = &'a crate::encoder::Embedding>) -> Vec<f32> {
    let mut sum = vec![0f32; crate::encoder::DIM];
    for v in vectors {
        sum.iter_mut().zip(v.iter()).for_each(|(m, x)| *m += x);
    }
    let norm = crate::select::dot(&sum, &sum).sqrt();
    if norm > 0.0 {
        sum.iter_mut().for_each(|m| *m /= norm);
    }
    sum
}

fn norm(v: &[f32]) -> f32 {
    v.iter().map(|x| x * x).sum::<f32>().sqrt()
}

fn unit(v: &[f32]) -> Vec<f32> {
    let n = norm(v);
    if n == 0.0 {
        return v.to_vec();
    }
    v.iter().map(|x| x / n).collect()
}

fn cosine(a: &[f32], b: &[f32]) -> f32 {
    let (na, nb) = (norm(a), norm(b));
    if na == 0.0 || nb == 0.0 {
        return 0.0;
    }
    a.iter().zip(b).map(|(x, y)| x * y).sum::<f32>() / (na * nb)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn centroid(vector: Vec<f32>) -> Centroid {
        Centroid { vector, ..Default::default() }
    }

    #[test]
    fn weight_zero_keeps_the_centroid_and_one_replaces_it() {
        let c = centroid(vec![0.6, 0.0, 0.0]);
        let kept = steer(c.clone(), &[0.0, 2.0, 0.0], 0.0);
        assert_eq!(kept.vector, vec![0.6, 0.0, 0.0]);
        assert_eq!(kept.steering.as_ref().unwrap().cosine_moved, 1.0);
        let replaced = steer(c, &[0.0, 2.0, 0.0], 1.0);
        assert!((replaced.vector[1] - 0.6).abs() < 1e-6 && replaced.vector[0].abs() < 1e-6, "{:?}", replaced.vector);
        let s = replaced.steering.unwrap();
        assert!((s.degrees_moved() - 90.0).abs() < 1e-3);
        assert_eq!(s.unsteered, vec![0.6, 0.0, 0.0]);
        assert_eq!(s.query, vec![0.0, 1.0, 0.0]);
    }

    #[test]
    fn half_weight_lands_halfway_between_directions() {
        // Hand-checked: (1,0) and (0,1) at w = 0.5 give 45°, scaled to length 2.
        let steered = steer(centroid(vec![2.0, 0.0]), &[0.0, 1.0], 0.5);
        let h = 2f32.sqrt();
        assert!((steered.vector[0] - h).abs() < 1e-5 && (steered.vector[1] - h).abs() < 1e-5, "{:?}", steered.vector);
        assert!((steered.steering.unwrap().degrees_moved() - 45.0).abs() < 1e-3);
    }

    #[test]
    fn weights_outside_zero_to_one_are_clamped() {
        let steered = steer(centroid(vec![1.0, 0.0]), &[0.0, 1.0], 7.0);
        assert_eq!(steered.steering.unwrap().weight, 1.0);
    }
}
