//! Timings that used to hide among the tests as ignored ones, which a test
//! must not be (issue #46: tests check behaviour, benchmarks measure):
//! - the splitter on 10 MB of news, 10 MB without spaces and 10 MB without
//!   sentence ends (it was meant to stay well under a second each);
//! - the trained centroid heads' native inference per cluster of 20, 60 and
//!   200 sentences (the target is under 5 ms in the browser).
//!
//! `cargo bench --bench timings` (nothing is asserted).

use precis::centroid::CeraHead;
use precis::encoder::{Embedding, DIM};
use std::path::PathBuf;
use std::time::Instant;

fn splitter() {
    const TEN_MB: usize = 10 * 1024 * 1024;
    let article = "Cambodian leader Hun Sen on Friday rejected opposition parties' demands \n\
                   for talks outside the country, the U.S. Embassy said. ``It is clear,'' he said.\n\n\
                   El Sr. García llegó a las 10.30 h. ¿Qué pasó? Dr. Müller sagte, es gebe ca. 5 Mio. Wähler.\n\
                   北京今天发生地震。没有人员伤亡！هل انتهت الأزمة؟ प्रधानमंत्री ने आज बैठक की।\n\n- item one\n- item two\n\n";
    let news = article.repeat(TEN_MB / article.len());
    let no_spaces = "abcdefghij.".repeat(TEN_MB / 11);
    let no_stops = "word and more words, ".repeat(TEN_MB / 21);
    for (name, text) in [("news", &news), ("no spaces", &no_spaces), ("no sentence ends", &no_stops)] {
        let start = Instant::now();
        let sentences = precis::segment::split(text).len();
        let elapsed = start.elapsed();
        println!("split, {name}: {:.1} MB, {sentences} sentences in {elapsed:?}", text.len() as f64 / 1_048_576.0);
    }
}

/// The synthetic cluster of models/cera/train.py: row i is
/// sin(0.618 (512 i + j) + n), L2-normalized; positions i; documents 3i / n.
fn synthetic(n: usize) -> (Vec<Embedding>, Vec<usize>, Vec<usize>) {
    let embeddings = (0..n)
        .map(|i| {
            let mut row = [0f32; DIM];
            for (j, x) in row.iter_mut().enumerate() {
                *x = (0.618 * (DIM * i + j) as f64 + n as f64).sin() as f32;
            }
            let norm = row.iter().map(|x| x * x).sum::<f32>().sqrt();
            row.iter_mut().for_each(|x| *x /= norm);
            row
        })
        .collect();
    (embeddings, (0..n).collect(), (0..n).map(|i| 3 * i / n).collect())
}

fn heads() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("models/cera");
    for name in ["cera", "cerai"] {
        let head = CeraHead::from_bytes(&std::fs::read(dir.join(format!("{name}.onnx"))).unwrap()).unwrap();
        for n in [20, 60, 200] {
            let (embeddings, positions, documents) = synthetic(n);
            head.run(&embeddings, &positions, &documents).unwrap();
            let rounds = 200;
            let t = Instant::now();
            for _ in 0..rounds {
                head.run(&embeddings, &positions, &documents).unwrap();
            }
            let ms = t.elapsed().as_secs_f64() * 1000.0 / rounds as f64;
            println!("{name} head: {n} sentences: {ms:.3} ms per cluster");
        }
    }
}

fn main() {
    splitter();
    heads();
}
