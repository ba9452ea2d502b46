//! TREC Temporal Summarization metrics, as `docs/design/streaming.md` defines them.
//!
//! A nugget counts once, on its earliest matching update. Gain G is the
//! number of distinct nuggets matched; expected gain G / updates;
//! comprehensiveness G / nuggets; F1 their harmonic mean. The latency
//! variants weight each nugget by 1 − (2/π)·arctan(delay / α), α = 6 h, where
//! the delay is the update's time minus the nugget's and a negative delay
//! counts as 0.

use serde::Serialize;
use std::f64::consts::PI;

/// α of the latency discount, in seconds.
pub const LATENCY_ALPHA_SECONDS: f64 = 6.0 * 3600.0;

/// Credit left for a nugget matched `delay` seconds after its timestamp.
pub fn latency_discount(delay_seconds: i64) -> f64 {
    let delay = delay_seconds.max(0) as f64;
    1.0 - (2.0 / PI) * (delay / LATENCY_ALPHA_SECONDS).atan()
}

/// Scores of one run on one event (or their mean over events).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Scores {
    pub updates: f64,
    pub gain: f64,
    pub latency_gain: f64,
    pub expected_gain: f64,
    pub comprehensiveness: f64,
    pub f1: f64,
    pub latency_expected_gain: f64,
    pub latency_comprehensiveness: f64,
    pub latency_f1: f64,
}

/// One update to score: when it was selected and which nuggets it matches
/// (indices into the event's nugget timestamps).
#[derive(Clone, Copy, Debug)]
pub struct ScoredUpdate<'a> {
    pub time: i64,
    pub nuggets: &'a [usize],
}

/// Scores `updates` against an event whose nuggets have `nugget_times`.
pub fn score(updates: &[ScoredUpdate], nugget_times: &[i64]) -> Scores {
    let mut order: Vec<&ScoredUpdate> = updates.iter().collect();
    order.sort_by_key(|u| u.time); // stable: equal times keep selection order
    let mut credited = vec![false; nugget_times.len()];
    let (mut gain, mut latency_gain) = (0.0, 0.0);
    for update in order {
        for &n in update.nuggets {
            if !std::mem::replace(&mut credited[n], true) {
                gain += 1.0;
                latency_gain += latency_discount(update.time - nugget_times[n]);
            }
        }
    }
    let count = updates.len() as f64;
    let nuggets = nugget_times.len() as f64;
    let per = |g: f64, n: f64| if n > 0.0 { g / n } else { 0.0 };
    let (eg, c) = (per(gain, count), per(gain, nuggets));
    let (leg, lc) = (per(latency_gain, count), per(latency_gain, nuggets));
    Scores {
        updates: count,
        gain,
        latency_gain,
        expected_gain: eg,
        comprehensiveness: c,
        f1: harmonic_mean(eg, c),
        latency_expected_gain: leg,
        latency_comprehensiveness: lc,
        latency_f1: harmonic_mean(leg, lc),
    }
}

fn harmonic_mean(a: f64, b: f64) -> f64 {
    if a + b > 0.0 {
        2.0 * a * b / (a + b)
    } else {
        0.0
    }
}

/// Field-wise mean over events (the averaged row of a report).
pub fn mean(scores: &[Scores]) -> Scores {
    let n = scores.len().max(1) as f64;
    let sum = |f: fn(&Scores) -> f64| scores.iter().map(f).sum::<f64>() / n;
    Scores {
        updates: sum(|s| s.updates),
        gain: sum(|s| s.gain),
        latency_gain: sum(|s| s.latency_gain),
        expected_gain: sum(|s| s.expected_gain),
        comprehensiveness: sum(|s| s.comprehensiveness),
        f1: sum(|s| s.f1),
        latency_expected_gain: sum(|s| s.latency_expected_gain),
        latency_comprehensiveness: sum(|s| s.latency_comprehensiveness),
        latency_f1: sum(|s| s.latency_f1),
    }
}

impl Scores {
    /// `updates=… expected_gain=… … latency_f1=…`, the report format.
    pub fn report(&self) -> String {
        format!(
            "updates={} expected_gain={:.4} comprehensiveness={:.4} f1={:.4} \
             latency_expected_gain={:.4} latency_comprehensiveness={:.4} latency_f1={:.4}",
            format_count(self.updates),
            self.expected_gain,
            self.comprehensiveness,
            self.f1,
            self.latency_expected_gain,
            self.latency_comprehensiveness,
            self.latency_f1
        )
    }
}

/// Whole counts print as integers, means of counts with one decimal.
fn format_count(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOUR: i64 = 3600;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn latency_discount_values() {
        assert_eq!(latency_discount(0), 1.0);
        assert_eq!(latency_discount(-5 * HOUR), 1.0, "no bonus for being early");
        // arctan(1) = π/4: a 6-hour delay keeps half the credit.
        assert!(close(latency_discount(6 * HOUR), 0.5));
        // arctan(√3) = π/3: a 6√3-hour delay keeps a third.
        let delay = (6.0 * 3f64.sqrt() * 3600.0).round() as i64;
        assert!((latency_discount(delay) - 1.0 / 3.0).abs() < 1e-5, "within rounding to a second");
    }

    #[test]
    fn hand_checked_event() {
        // Three nuggets at t = 0, 0 and 10 h; four updates.
        let nuggets = [0, 0, 10 * HOUR];
        let updates = [
            ScoredUpdate { time: 6 * HOUR, nuggets: &[0] },     // nugget 0, 6 h late: 0.5
            ScoredUpdate { time: 7 * HOUR, nuggets: &[0] },     // duplicate: nothing
            ScoredUpdate { time: 8 * HOUR, nuggets: &[] },      // empty
            ScoredUpdate { time: 9 * HOUR, nuggets: &[0, 2] },  // nugget 2, 1 h early: 1.0
        ];
        let s = score(&updates, &nuggets);
        assert_eq!((s.updates, s.gain), (4.0, 2.0));
        assert!(close(s.latency_gain, 1.5));
        assert!(close(s.expected_gain, 0.5));
        assert!(close(s.comprehensiveness, 2.0 / 3.0));
        assert!(close(s.f1, 2.0 * 0.5 * (2.0 / 3.0) / (0.5 + 2.0 / 3.0)));
        assert!(close(s.latency_expected_gain, 1.5 / 4.0));
        assert!(close(s.latency_comprehensiveness, 0.5));
        assert!(close(s.latency_f1, 2.0 * 0.375 * 0.5 / 0.875));
    }

    #[test]
    fn a_nugget_counts_on_its_earliest_update() {
        // Listed out of time order: the 1-hour update earns the credit.
        let nuggets = [0];
        let updates = [
            ScoredUpdate { time: 6 * HOUR, nuggets: &[0] },
            ScoredUpdate { time: HOUR, nuggets: &[0] },
        ];
        let s = score(&updates, &nuggets);
        assert!(close(s.latency_gain, latency_discount(HOUR)));
        assert_eq!(s.gain, 1.0);
    }

    #[test]
    fn no_updates_scores_zero() {
        let s = score(&[], &[0, 1]);
        assert_eq!((s.expected_gain, s.comprehensiveness, s.f1, s.latency_f1), (0.0, 0.0, 0.0, 0.0));
    }

    #[test]
    fn mean_averages_each_field_and_report_formats() {
        let a = Scores { updates: 3.0, f1: 0.5, ..Default::default() };
        let b = Scores { updates: 4.0, f1: 0.25, ..Default::default() };
        let m = mean(&[a, b]);
        assert_eq!((m.updates, m.f1), (3.5, 0.375));
        assert!(m.report().starts_with("updates=3.5 expected_gain=0.0000 comprehensiveness=0.0000 f1=0.3750"));
        assert!(a.report().starts_with("updates=3 "));
    }
}
