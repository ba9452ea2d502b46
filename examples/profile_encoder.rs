//! Per-node timing of the encoder graph optimized for the largest batch shape
//! the encoder uses (developer tool): `cargo run --release --example
//! profile_encoder < sentences.txt` (TOKENS, SENTENCES, PIECES override the batch shape).
#![allow(non_snake_case)]
use std::collections::HashMap;
use std::io::{BufRead, Cursor};
use tract_onnx::prelude::*;

fn env(n: &str, d: usize) -> usize { std::env::var(n).ok().and_then(|v| v.parse().ok()).unwrap_or(d) }

fn main() -> anyhow::Result<()> {
    let (TOKENS, SENTENCES, PIECES) = (env("TOKENS", 2048), env("SENTENCES", 128), env("PIECES", 1024));
    let dir = std::path::Path::new("models/muse-v3");
    let onnx = std::fs::read(dir.join("encoder.onnx"))?;
    let mut model = tract_onnx::onnx().model_for_read(&mut Cursor::new(&onnx))?;
    model.set_input_fact(0, i64::fact([PIECES]).into())?;
    model.set_input_fact(1, u8::fact([PIECES, precis::encoder::DIM]).into())?;
    model.set_input_fact(2, i64::fact([TOKENS]).into())?;
    model.set_input_fact(3, i64::fact([SENTENCES + 1]).into())?;
    let model = model.into_optimized()?;
    let (enc, _) = precis::models::read_encoder(dir, "encoder.onnx", &|| 0.0)?;
    let table = precis::encoder::EmbeddingTable::from_bytes(&std::fs::read(dir.join("table.u8"))?)?;
    let lines: Vec<String> = std::io::stdin().lock().lines().collect::<Result<_, _>>()?;
    let ids: Vec<Vec<u32>> = lines.iter().map(|l| enc.tokenize(l)).collect();
    let plan = TypedSimplePlan::new(model.clone())?;
    let mut state = TypedSimpleState::new(&plan)?;
    let mut times: HashMap<usize, std::time::Duration> = HashMap::new();
    let total = std::time::Instant::now();
    let mut i = 0;
    while i < ids.len() {
        let (mut pieces, mut token_pieces, mut offsets) = (vec![], vec![], vec![0i64]);
        let mut index: HashMap<u32, i64> = HashMap::new();
        while i < ids.len() && offsets.len() <= SENTENCES && token_pieces.len() + ids[i].len() <= TOKENS {
            let new: std::collections::HashSet<_> = ids[i].iter().filter(|x| !index.contains_key(x)).collect();
            if pieces.len() + new.len() > PIECES { break; }
            for &id in &ids[i] {
                let n = pieces.len() as i64;
                let k = *index.entry(id).or_insert(n);
                if k == n { pieces.push(id as i64); }
                token_pieces.push(k);
            }
            offsets.push(token_pieces.len() as i64);
            i += 1;
        }
        let last = *offsets.last().unwrap();
        pieces.resize(PIECES, 0);
        token_pieces.resize(TOKENS, 0);
        offsets.resize(SENTENCES + 1, last);
        let t = |v: &[i64]| Tensor::from_shape(&[v.len()], v).unwrap().into_tvalue();
        let rows = Tensor::from_shape(&[PIECES, precis::encoder::DIM], &table.gather(&pieces)?)?.into_tvalue();
        state.run_plan_with_eval(tvec![t(&pieces), rows, t(&token_pieces), t(&offsets)], |ctx, st, node, input| {
            let t = std::time::Instant::now();
            let r = tract_onnx::tract_core::plan::eval(ctx, st, node, input);
            *times.entry(node.id).or_default() += t.elapsed();
            r
        })?;
    }
    println!("total {:?}", total.elapsed());
    let mut v: Vec<_> = times.into_iter().collect();
    v.sort_by_key(|(_, t)| std::cmp::Reverse(*t));
    for (id, t) in v.iter().take(30) {
        let n = model.node(*id);
        println!("{:>10.1?} {:>4} {:<40} {}", t, id, n.name, n.op().name());
    }
    Ok(())
}
