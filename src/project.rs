//! Two-dimensional PCA of sentence embeddings, for the app's map of a
//! cluster: where each sentence lies, where the centroid is, which were
//! picked.
//!
//! The two leading principal axes are found by orthogonal (block power)
//! iteration on the implicit covariance XᵀX, so the cost is O(n·d) per
//! iteration and no d×d matrix is ever formed.

use crate::centroid::Steering;
use serde::{Deserialize, Serialize};

/// Iterations stop when the axes move less than this (1 − |cos|).
const TOLERANCE: f64 = 1e-9;
const MAX_ITERATIONS: usize = 300;

/// A fitted 2-D projection: the data mean and two orthonormal axes.
#[derive(Clone, Debug, PartialEq)]
pub struct Pca2 {
    mean: Vec<f64>,
    axes: [Vec<f64>; 2],
    /// Share of the total variance along each axis (0 when there is none).
    pub explained: [f32; 2],
}

/// Points of a cluster map.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Projection {
    /// One (x, y) per input vector, in input order.
    pub points: Vec<[f32; 2]>,
    /// The centroid, projected with the same axes.
    pub centroid: [f32; 2],
    /// Share of the variance each axis explains.
    pub explained: [f32; 2],
    /// A reader's topic and the centroid before the topic moved it, when
    /// the summary was steered (`centroid::steer`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query: Option<[f32; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unsteered_centroid: Option<[f32; 2]>,
}

impl Pca2 {
    /// Fits the two leading principal axes of `vectors` (all the same
    /// length). Fewer than two distinct points give zero axes, so every
    /// point projects to the origin.
    pub fn fit<V: AsRef<[f32]>>(vectors: &[V]) -> Self {
        let dim = vectors.first().map_or(0, |v| v.as_ref().len());
        let mean = mean_of(vectors, dim);
        let centered: Vec<Vec<f64>> = vectors
            .iter()
            .map(|v| v.as_ref().iter().zip(&mean).map(|(x, m)| *x as f64 - m).collect())
            .collect();
        let total_variance: f64 = centered.iter().flatten().map(|x| x * x).sum();
        if total_variance <= f64::EPSILON * centered.len().max(1) as f64 {
            return Self { mean, axes: [vec![0.0; dim], vec![0.0; dim]], explained: [0.0; 2] };
        }
        let axes = leading_axes(&centered, dim);
        let variance_along = |axis: &[f64]| centered.iter().map(|row| dot(row, axis).powi(2)).sum::<f64>();
        let explained = [
            (variance_along(&axes[0]) / total_variance) as f32,
            (variance_along(&axes[1]) / total_variance) as f32,
        ];
        let mut pca = Self { mean, axes, explained };
        pca.orient(&centered);
        pca
    }

    /// Coordinates of one vector on the two axes.
    pub fn project(&self, vector: &[f32]) -> [f32; 2] {
        let centered: Vec<f64> = vector.iter().zip(&self.mean).map(|(x, m)| *x as f64 - m).collect();
        [dot(&centered, &self.axes[0]) as f32, dot(&centered, &self.axes[1]) as f32]
    }

    /// An axis's sign is arbitrary; fix it so the same data always gives
    /// the same picture: the point farthest along each axis lies on its
    /// positive side.
    fn orient(&mut self, centered: &[Vec<f64>]) {
        for axis in &mut self.axes {
            let extreme = centered
                .iter()
                .map(|row| dot(row, axis))
                .max_by(|a, b| a.abs().total_cmp(&b.abs()))
                .unwrap_or(0.0);
            if extreme < 0.0 {
                axis.iter_mut().for_each(|x| *x = -*x);
            }
        }
    }
}

/// Projects every vector and the centroid (and a steering topic with the
/// centroid before it) onto the vectors' two leading principal axes.
pub fn project<V: AsRef<[f32]>>(vectors: &[V], centroid: &[f32], steering: Option<&Steering>) -> Projection {
    let pca = Pca2::fit(vectors);
    Projection {
        points: vectors.iter().map(|v| pca.project(v.as_ref())).collect(),
        centroid: if centroid.is_empty() { [0.0; 2] } else { pca.project(centroid) },
        explained: pca.explained,
        query: steering.map(|s| pca.project(&s.query)),
        unsteered_centroid: steering.map(|s| pca.project(&s.unsteered)),
    }
}

fn mean_of<V: AsRef<[f32]>>(vectors: &[V], dim: usize) -> Vec<f64> {
    let mut mean = vec![0f64; dim];
    for v in vectors {
        mean.iter_mut().zip(v.as_ref()).for_each(|(m, x)| *m += *x as f64);
    }
    let n = vectors.len().max(1) as f64;
    mean.iter_mut().for_each(|m| *m /= n);
    mean
}

/// Orthogonal iteration: multiply two vectors by XᵀX and re-orthonormalize
/// until they stop turning. Starts from the two rows of largest norm, which
/// already point into the spread of the data (and keeps runs deterministic).
fn leading_axes(centered: &[Vec<f64>], dim: usize) -> [Vec<f64>; 2] {
    let mut axes = starting_axes(centered, dim);
    for _ in 0..MAX_ITERATIONS {
        let mut next = [covariance_times(centered, &axes[0]), covariance_times(centered, &axes[1])];
        orthonormalize(&mut next, dim);
        let moved = (0..2).map(|i| 1.0 - dot(&next[i], &axes[i]).abs()).fold(0.0, f64::max);
        axes = next;
        if moved < TOLERANCE {
            break;
        }
    }
    axes
}

fn starting_axes(centered: &[Vec<f64>], dim: usize) -> [Vec<f64>; 2] {
    let mut by_norm: Vec<usize> = (0..centered.len()).collect();
    by_norm.sort_by(|&a, &b| dot(&centered[b], &centered[b]).total_cmp(&dot(&centered[a], &centered[a])));
    let pick = |rank: usize| by_norm.get(rank).map_or_else(|| vec![0.0; dim], |&i| centered[i].clone());
    let mut axes = [pick(0), pick(1)];
    orthonormalize(&mut axes, dim);
    axes
}

/// XᵀX·v computed as Xᵀ(X·v).
fn covariance_times(centered: &[Vec<f64>], v: &[f64]) -> Vec<f64> {
    let mut out = vec![0f64; v.len()];
    for row in centered {
        let along = dot(row, v);
        out.iter_mut().zip(row).for_each(|(o, x)| *o += along * x);
    }
    out
}

/// Gram–Schmidt on two vectors; a vector that collapses is replaced by a
/// unit vector orthogonal to the other, so the result is always orthonormal.
fn orthonormalize(axes: &mut [Vec<f64>; 2], dim: usize) {
    if !normalize(&mut axes[0]) {
        axes[0] = unit_vector(dim, 0);
    }
    let (first, second) = axes.split_at_mut(1);
    remove_component(&mut second[0], &first[0]);
    if !normalize(&mut second[0]) {
        second[0] = (0..dim)
            .map(|i| {
                let mut e = unit_vector(dim, i);
                remove_component(&mut e, &first[0]);
                e
            })
            .find_map(|mut e| normalize(&mut e).then_some(e))
            .unwrap_or_else(|| vec![0.0; dim]);
    }
}

fn remove_component(v: &mut [f64], unit: &[f64]) {
    let along = dot(v, unit);
    v.iter_mut().zip(unit).for_each(|(x, u)| *x -= along * u);
}

/// Scales `v` to unit length; false if it is (numerically) zero.
fn normalize(v: &mut [f64]) -> bool {
    let norm = dot(v, v).sqrt();
    if norm < 1e-12 {
        return false;
    }
    v.iter_mut().for_each(|x| *x /= norm);
    true
}

fn unit_vector(dim: usize, axis: usize) -> Vec<f64> {
    let mut e = vec![0.0; dim];
    if let Some(x) = e.get_mut(axis) {
        *x = 1.0;
    }
    e
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Points in 5-D: a long spread along (1,1,0,0,0)/√2, a shorter one
    /// along (0,0,1,0,0), a tiny one along (0,0,0,0,1), all off-center.
    fn elongated_cloud() -> Vec<Vec<f32>> {
        let s = std::f32::consts::FRAC_1_SQRT_2;
        (0..40)
            .map(|i| {
                let t = (i as f32 - 19.5) / 4.0; // spread ≈ 2.3
                let u = ((i * 7 % 11) as f32 - 5.0) / 10.0; // spread ≈ 0.3
                let w = if i % 2 == 0 { 0.01 } else { -0.01 };
                vec![3.0 + t * s, 1.0 + t * s, u, -2.0, w]
            })
            .collect()
    }

    fn cos(a: &[f64], b: &[f64]) -> f64 {
        dot(a, b) / (dot(a, a).sqrt() * dot(b, b).sqrt())
    }

    #[test]
    fn recovers_the_leading_directions_in_order() {
        let pca = Pca2::fit(&elongated_cloud());
        let s = std::f64::consts::FRAC_1_SQRT_2;
        assert!(cos(&pca.axes[0], &[s, s, 0.0, 0.0, 0.0]).abs() > 0.999, "{:?}", pca.axes[0]);
        assert!(cos(&pca.axes[1], &[0.0, 0.0, 1.0, 0.0, 0.0]).abs() > 0.999, "{:?}", pca.axes[1]);
        assert!(pca.explained[0] > pca.explained[1] && pca.explained[1] > 0.0);
        assert!(pca.explained[0] + pca.explained[1] > 0.99 && pca.explained[0] + pca.explained[1] <= 1.0 + 1e-6);
    }

    #[test]
    fn projections_are_centered_and_keep_distances_of_planar_data() {
        // Data lying in a 2-D plane of 4-D space: the map is an isometry.
        let plane = |x: f32, y: f32| vec![1.0 + x * 0.6, 2.0 + x * 0.8, y, 5.0];
        let data: Vec<Vec<f32>> =
            [(0.0, 0.0), (3.0, 0.5), (-1.0, 2.0), (2.0, -2.5), (0.5, 1.0)].iter().map(|&(x, y)| plane(x, y)).collect();
        let projection = project(&data, &[], None);
        let mean_x: f32 = projection.points.iter().map(|p| p[0]).sum::<f32>() / 5.0;
        let mean_y: f32 = projection.points.iter().map(|p| p[1]).sum::<f32>() / 5.0;
        assert!(mean_x.abs() < 1e-5 && mean_y.abs() < 1e-5);
        let distance = |a: &[f32], b: &[f32]| a.iter().zip(b).map(|(x, y)| (x - y).powi(2)).sum::<f32>().sqrt();
        for i in 0..5 {
            for j in 0..5 {
                let original = distance(&data[i], &data[j]);
                let mapped = distance(&projection.points[i], &projection.points[j]);
                assert!((original - mapped).abs() < 1e-4, "{i},{j}: {original} vs {mapped}");
            }
        }
    }

    #[test]
    fn the_centroid_of_the_points_maps_to_the_origin() {
        let data = elongated_cloud();
        let mean: Vec<f32> = (0..5).map(|k| data.iter().map(|v| v[k]).sum::<f32>() / data.len() as f32).collect();
        let projection = project(&data, &mean, None);
        assert!(projection.centroid.iter().all(|c| c.abs() < 1e-5), "{:?}", projection.centroid);
        assert_eq!(projection.points.len(), data.len());
    }

    #[test]
    fn a_steered_centroid_shows_the_question_and_where_the_centroid_was() {
        let data = elongated_cloud();
        let mean: Vec<f32> = (0..5).map(|k| data.iter().map(|v| v[k]).sum::<f32>() / data.len() as f32).collect();
        let steering = Steering { query: data[0].clone(), unsteered: mean.clone(), ..Default::default() };
        let projection = project(&data, &data[1], Some(&steering));
        assert_eq!(projection.query, Some(projection.points[0]), "the question lands where its own text would");
        assert!(projection.unsteered_centroid.unwrap().iter().all(|c| c.abs() < 1e-5));
        assert_eq!(projection.centroid, projection.points[1]);
        assert_eq!(project(&data, &mean, None).query, None);
    }

    #[test]
    fn orientation_is_deterministic_and_independent_of_input_sign() {
        let data = elongated_cloud();
        let flipped: Vec<Vec<f32>> = data.iter().map(|v| v.iter().map(|x| -x).collect()).collect();
        let a = project(&data, &[], None);
        let b = project(&flipped, &[], None);
        // Mirrored data gives a picture in which the extreme points still
        // lie on the positive side of each axis.
        for p in [&a, &b] {
            for axis in 0..2 {
                let extreme = p.points.iter().map(|q| q[axis]).max_by(|x, y| x.abs().total_cmp(&y.abs())).unwrap();
                assert!(extreme > 0.0);
            }
        }
        assert_eq!(a, project(&data, &[], None));
    }

    #[test]
    fn degenerate_inputs_give_finite_zeros() {
        let none: Vec<Vec<f32>> = vec![];
        assert_eq!(project(&none, &[], None).points.len(), 0);
        let one = project(&[vec![0.5f32, 0.5]], &[0.1, 0.2], None);
        assert_eq!(one.points, vec![[0.0, 0.0]]);
        assert_eq!(one.explained, [0.0, 0.0]);
        let same = project(&vec![vec![1.0f32, 2.0, 3.0]; 4], &[], None);
        assert!(same.points.iter().all(|p| *p == [0.0, 0.0]));
    }

    #[test]
    fn data_on_a_line_has_one_axis_with_all_the_variance() {
        let line: Vec<Vec<f32>> = (0..10).map(|i| vec![i as f32, 2.0 * i as f32, 0.0]).collect();
        let projection = project(&line, &[], None);
        assert!((projection.explained[0] - 1.0).abs() < 1e-6);
        assert!(projection.explained[1].abs() < 1e-6);
        assert!(projection.points.iter().all(|p| p[1].abs() < 1e-4 && p.iter().all(|x| x.is_finite())));
    }
}
