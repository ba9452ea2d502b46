//! Selection time against candidate count: GG2017 greedy, BS and BS+GS (ours
//! and the paper's beam) on random unit embeddings, words drawn like news
//! sentences (8–40), a 100-word budget. Greedy is the reference measured in
//! the same run; beam times are also printed as ratios to it.
//!
//! `cargo bench --bench selection` (not a test: nothing is asserted).

use precis::encoder::{Embedding, DIM};
use precis::select::beam::{BeamMode, BeamSearch};
use precis::select::greedy::Greedy;
use precis::select::{Problem, Selector};
use std::time::Instant;

fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

fn random_unit(state: &mut u64) -> Embedding {
    let mut e = [0f32; DIM];
    e.iter_mut().for_each(|x| *x = (xorshift(state) % 2001) as f32 / 1000.0 - 1.0);
    let norm = e.iter().map(|x| x * x).sum::<f32>().sqrt();
    e.iter_mut().for_each(|x| *x /= norm);
    e
}

/// Median seconds of `runs` calls.
fn median_seconds(runs: usize, mut f: impl FnMut()) -> f64 {
    let mut times: Vec<f64> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[runs / 2]
}

fn main() {
    let mut state = 0x5eed_u64;
    println!("| candidates | GG ms | BS ms | BS+GS ms (ours) | BS+GS ms (paper) | BS+GS / GG |");
    println!("|---:|---:|---:|---:|---:|---:|");
    for n in [10, 25, 50, 90, 150, 250, 400] {
        let embeddings: Vec<Embedding> = (0..n).map(|_| random_unit(&mut state)).collect();
        let costs: Vec<usize> = (0..n).map(|_| 8 + (xorshift(&mut state) % 33) as usize).collect();
        let mut centroid = [0f32; DIM];
        embeddings.iter().for_each(|e| centroid.iter_mut().zip(e).for_each(|(c, x)| *c += x / n as f32));
        let candidates: Vec<usize> = (0..n).collect();
        let problem = Problem {
            embeddings: &embeddings,
            candidates: &candidates,
            costs: &costs,
            limit: 100,
            centroid: &centroid,
            redundancy: None,
            weights: None,
            pinned: &[],
        };
        let runs = if n <= 90 { 201 } else { 41 };
        let time = |selector: &dyn Selector| median_seconds(runs, || drop(selector.select(&problem))) * 1e3;
        let gg = time(&Greedy);
        let bs = time(&BeamSearch { greedy_candidates: None, ..BeamSearch::default() });
        let bsgs = time(&BeamSearch::default());
        let paper = time(&BeamSearch { mode: BeamMode::Paper, ..BeamSearch::default() });
        println!("| {n} | {gg:.3} | {bs:.3} | {bsgs:.3} | {paper:.3} | {:.1} |", bsgs / gg);
    }
}
