//! Per-node timing of the optimized encoder graph (developer tool).
use std::collections::HashMap;
use std::io::{BufRead, Cursor};
use tract_onnx::prelude::*;

fn main() -> anyhow::Result<()> {
    let dir = std::path::Path::new("models/muse-v3");
    let onnx = std::fs::read(dir.join("encoder.onnx"))?;
    let mut model = tract_onnx::onnx().model_for_read(&mut Cursor::new(&onnx))?;
    let fixed = std::env::var("FIXED").is_ok();
    if fixed {
        model.set_input_fact(0, i64::fact([1024usize]).into())?;
        model.set_input_fact(1, i64::fact([65usize]).into())?;
    }
    let model = model.into_optimized()?;
    let enc = precis::encoder::Encoder::from_bytes(&onnx, &std::fs::read(dir.join("tokenizer.json"))?)?;
    let lines: Vec<String> = std::io::stdin().lock().lines().collect::<Result<_, _>>()?;
    let ids: Vec<Vec<u32>> = lines.iter().map(|l| enc.tokenize(l).unwrap()).collect();
    let plan = TypedSimplePlan::new(model.clone())?;
    let mut state = TypedSimpleState::new(&plan)?;
    let mut times: HashMap<usize, std::time::Duration> = HashMap::new();
    let mut first = 0;
    let mut tokens = 0;
    let mut batches = vec![];
    for (i, s) in ids.iter().enumerate() {
        if i > first && (tokens + s.len() > 1024 || i - first >= 64) { batches.push(&ids[first..i]); first = i; tokens = 0; }
        tokens += s.len();
    }
    batches.push(&ids[first..]);
    let total = std::time::Instant::now();
    for b in batches {
        let mut off = vec![0i64];
        let mut flat = vec![];
        for s in b { flat.extend(s.iter().map(|&x| x as i64)); off.push(flat.len() as i64); }
        if fixed { let n = flat.len() as i64; while off.len() < 65 { off.push(n); } flat.resize(1024, 0); }
        let inputs = tvec![Tensor::from_shape(&[flat.len()], &flat)?.into_tvalue(), Tensor::from_shape(&[off.len()], &off)?.into_tvalue()];
        state.run_plan_with_eval(inputs, |ctx, st, node, input| {
            let t = std::time::Instant::now();
            let r = tract_onnx::tract_core::plan::eval(ctx, st, node, input);
            *times.entry(node.id).or_default() += t.elapsed();
            r
        })?;
    }
    println!("total {:?}", total.elapsed());
    let mut v: Vec<_> = times.into_iter().collect();
    v.sort_by_key(|(_, t)| std::cmp::Reverse(*t));
    for (id, t) in v.iter().take(40) {
        let n = model.node(*id);
        println!("{:>10.1?} {:>4} {:<30} {}", t, id, n.name, n.op().name());
    }
    Ok(())
}
