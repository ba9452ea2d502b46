//! Native encoder parity: `precis tokenize` and `precis embed` against the
//! Python package the model was converted from (tests/parity/reference_encoder.py)
//! on every sentence of tests/fixtures/parity_sentences.txt.
//!
//! Needs the repo venv and the built model: `python3 models/build.py`.
//! Run with `cargo test --test encoder_parity -- --nocapture` to see the stats.

use serde::de::DeserializeOwned;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const FIXTURE: &str = "tests/fixtures/parity_sentences.txt";
const MIN_COSINE: f64 = 0.995;
const DIM: usize = 512;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn fixture_text() -> String {
    std::fs::read_to_string(repo().join(FIXTURE)).expect("read the parity fixture")
}

/// The venv python, after checking that everything built by models/build.py exists.
fn reference_python() -> PathBuf {
    let python = repo().join(".venv/bin/python");
    let model_dir = repo().join("models/muse-v3");
    let built = ["encoder.onnx", "encoder-int8.onnx", "tokenizer.json"].map(|name| model_dir.join(name));
    for needed in std::iter::once(&python).chain(&built) {
        assert!(
            needed.exists(),
            "{} is missing: run `python3 models/build.py` first (it creates .venv/ and models/muse-v3/)",
            needed.display()
        );
    }
    python
}

/// A file of models/muse-v3, as models/build.py wrote it.
fn model_file(name: &str) -> Vec<u8> {
    let _ = reference_python();
    std::fs::read(repo().join("models/muse-v3").join(name)).unwrap_or_else(|e| panic!("models/muse-v3/{name}: {e}"))
}

/// Runs `program args…` with `input` on stdin and parses one JSON value per stdout line.
fn json_lines_from<T: DeserializeOwned>(program: &Path, args: &[&str], input: &str) -> Vec<T> {
    let mut child = Command::new(program)
        .args(args)
        .current_dir(repo())
        .env("PRECIS_MODELS", repo().join("models"))
        .env("OPENBLAS_NUM_THREADS", "1")
        .env("OMP_NUM_THREADS", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", program.display()));
    // Feed stdin from a thread: the child may fill its stdout pipe before it
    // has read all of its input.
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = input.as_bytes().to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let output = child.wait_with_output().expect("wait for child");
    writer.join().expect("stdin writer").expect("write stdin");
    assert!(output.status.success(), "{} {args:?} failed: {}", program.display(), output.status);
    String::from_utf8(output.stdout)
        .expect("utf-8 output")
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON value per line"))
        .collect()
}

fn reference<T: DeserializeOwned>(command: &str, input: &str) -> Vec<T> {
    let script = repo().join("tests/parity/reference_encoder.py");
    json_lines_from(&reference_python(), &[script.to_str().unwrap(), command], input)
}

/// `precis --encoder ENCODER COMMAND` (f32 or int8).
fn precis<T: DeserializeOwned>(encoder: &str, command: &str, input: &str) -> Vec<T> {
    json_lines_from(Path::new(env!("CARGO_BIN_EXE_precis")), &["--encoder", encoder, command], input)
}

fn cosine(a: &[f32], b: &[f32]) -> f64 {
    let dot: f64 = a.iter().zip(b).map(|(x, y)| *x as f64 * *y as f64).sum();
    let norm = |v: &[f32]| v.iter().map(|x| (*x as f64).powi(2)).sum::<f64>().sqrt();
    dot / (norm(a) * norm(b))
}

fn preview(sentence: &str) -> String {
    let head: String = sentence.chars().take(60).collect();
    format!("{head:?}{}", if head.len() < sentence.len() { "…" } else { "" })
}

#[test]
fn fixture_is_well_formed() {
    let text = fixture_text();
    assert!(!text.contains('\r'), "the fixture must use LF line endings");
    assert!(text.ends_with('\n'), "the fixture must end with a newline");
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() >= 300, "only {} sentences", lines.len());
    assert!(lines.contains(&""), "the empty sentence is missing");
    let long = lines.iter().filter(|l| l.chars().count() >= 1_800).count();
    assert!(long >= 3, "only {long} sentences of ~2,000 characters");
}

#[test]
fn encoder_matches_python_reference() {
    check_against_reference("f32", MIN_COSINE);
}

/// The int8 build (models/int8.py) against the same reference. Issue #21's
/// bar was the f32 one; with 12-bit activations and 10-bit weights (issue
/// #43) the int8 build holds a tighter one: its lowest line is at 0.99998,
/// where 12-bit activations with 8-bit weights reached 0.99976, and 8-bit
/// ones 0.99898 ("😀😀😀 🎉🔥"), and both lost ROUGE to f32.
#[test]
fn int8_encoder_matches_python_reference() {
    check_against_reference("int8", INT8_MIN_COSINE);
}

const INT8_MIN_COSINE: f64 = 0.9999;

fn check_against_reference(encoder: &str, min_cosine: f64) {
    let input = fixture_text();
    let sentences: Vec<&str> = input.lines().collect();

    let want_ids: Vec<Vec<u32>> = reference("tokenize", &input);
    let got_ids: Vec<Vec<u32>> = precis(encoder, "tokenize", &input);
    assert_eq!(want_ids.len(), sentences.len(), "reference tokenize: one line per sentence");
    assert_eq!(got_ids.len(), sentences.len(), "precis tokenize: one line per sentence");
    let longest = got_ids.iter().map(Vec::len).max().unwrap_or(0);
    let id_mismatches: Vec<String> = (0..sentences.len())
        .filter(|&i| want_ids[i] != got_ids[i])
        .map(|i| {
            format!(
                "line {}: {}\n    reference {:?}\n    precis    {:?}",
                i + 1,
                preview(sentences[i]),
                want_ids[i],
                got_ids[i]
            )
        })
        .collect();

    let want: Vec<Vec<f32>> = reference("embed", &input);
    let got: Vec<Vec<f32>> = precis(encoder, "embed", &input);
    assert_eq!(want.len(), sentences.len(), "reference embed: one line per sentence");
    assert_eq!(got.len(), sentences.len(), "precis embed: one line per sentence");
    assert!(got.iter().all(|e| e.len() == DIM), "precis embeddings are {DIM}-d");

    let cosines: Vec<f64> = want.iter().zip(&got).map(|(w, g)| cosine(w, g)).collect();
    let max_diff = want
        .iter()
        .zip(&got)
        .flat_map(|(w, g)| w.iter().zip(g).map(|(a, b)| (a - b).abs()))
        .fold(0f32, f32::max);
    let (worst, min_cos) = cosines
        .iter()
        .copied()
        .enumerate()
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .expect("sentences");
    let mean_cos = cosines.iter().sum::<f64>() / cosines.len() as f64;
    let stats = format!(
        "{encoder}: {} sentences (longest {longest} tokens): token ids identical for {}; cosine min {min_cos:.6} \
         (line {}: {}), mean {mean_cos:.6}; max |diff| {max_diff:.2e}",
        sentences.len(),
        sentences.len() - id_mismatches.len(),
        worst + 1,
        preview(sentences[worst]),
    );
    println!("{stats}");

    let low_cosine: Vec<String> = (0..sentences.len())
        .filter(|&i| !(cosines[i] >= min_cosine))
        .map(|i| format!("line {}: cosine {:.6} {}", i + 1, cosines[i], preview(sentences[i])))
        .collect();
    assert!(
        id_mismatches.is_empty() && low_cosine.is_empty(),
        "{stats}\n{} token id mismatch(es):\n  {}\n{} sentence(s) below cosine {min_cosine}:\n  {}",
        id_mismatches.len(),
        id_mismatches.join("\n  "),
        low_cosine.len(),
        low_cosine.join("\n  ")
    );
}

/// Batches are padded to one of several planned sizes (and sentences longer
/// than the largest run on the symbolic plan): a sentence's embedding must
/// not depend on which plan ran it or on its neighbours in the batch.
#[test]
fn embeddings_do_not_depend_on_the_batch() {
    for network in ["encoder.onnx", "encoder-int8.onnx"] {
        check_batch_independence(network);
    }
}

fn check_batch_independence(network: &str) {
    let _ = reference_python();
    let models = repo().join("models/muse-v3");
    let load = || precis::models::read_encoder(&models, network, &|| 0.0).expect("built model files").0;
    let encoder = load();
    let input = fixture_text();
    let sentences: Vec<&str> = input.lines().collect();
    let together = encoder.encode(&sentences).unwrap();
    // Plans built ahead of use (as the app's helper workers do) run the same.
    let prepared = load();
    prepared.prepare_plans().unwrap();
    assert!(prepared.encode(&sentences).unwrap() == together, "prepared plans give other embeddings");
    // Alone (smallest plan), in small groups (middle plan), and the longest
    // sentence (symbolic plan) next to a short one.
    let longest = (0..sentences.len()).max_by_key(|&i| sentences[i].len()).unwrap();
    let mut groups: Vec<Vec<usize>> = (0..12).map(|i| vec![i * 29]).collect();
    groups.extend((0..4).map(|g| (g * 40..g * 40 + 30).collect::<Vec<_>>()));
    groups.push(vec![longest, 0]);
    let mut max_diff = 0f32;
    for group in groups {
        let texts: Vec<&str> = group.iter().map(|&i| sentences[i]).collect();
        for (&i, got) in group.iter().zip(encoder.encode(&texts).unwrap()) {
            let diff = got.iter().zip(&together[i]).map(|(a, b)| (a - b).abs()).fold(0f32, f32::max);
            max_diff = max_diff.max(diff);
        }
    }
    assert!(max_diff < 2e-5, "{network}: embeddings differ by {max_diff:.2e} between batchings");
}

/// The app's worker builds the encoder from the table's head alone and adds
/// the blocks a text needs before encoding it (issue #43): the embeddings
/// are those of the whole table, bit for bit, and a text whose blocks were
/// not added is refused rather than embedded with rows missing.
#[test]
fn the_tables_head_and_a_texts_blocks_embed_as_the_whole_table() {
    let (network, tokenizer_json, table) = (model_file("encoder-int8.onnx"), model_file("tokenizer.json"), model_file("table.u8"));
    let encoder = |table: &[u8]| {
        precis::encoder::Encoder::from_bytes(precis::encoder::EncoderFiles { network: &network, tokenizer: &tokenizer_json, table })
            .unwrap()
    };
    let whole = encoder(&table);
    let head = precis::encoder::EmbeddingTable::head_bytes(&table).unwrap();
    let partial = encoder(&table[..head]);
    let input = fixture_text();
    let sentences: Vec<&str> = input.lines().take(60).collect();
    let ids = sentences.iter().flat_map(|s| partial.tokenize(s));
    let needed = partial.table().missing_blocks(ids);
    assert!(
        !needed.is_empty() && needed.len() < partial.table().blocks() / 4,
        "60 sentences need {} of {} blocks",
        needed.len(),
        partial.table().blocks()
    );
    assert!(partial.encode(&sentences).unwrap_err().to_string().contains("not been loaded"));
    for block in needed {
        partial.table().add_block(block, &table[partial.table().block_span(block)]).unwrap();
    }
    assert!(partial.encode(&sentences).unwrap() == whole.encode(&sentences).unwrap());
}

/// `precis bench-encoder --layers`: the CPU's features, every layer with
/// its op, its kernel and its time, and times that account for the
/// profiled pass. Structure only: which layers are slowest depends on the
/// CPU and on the moment (issue #46), so no ranking is asserted.
#[test]
fn bench_encoder_names_each_layers_kernel_and_time() {
    let sentences: String = fixture_text().lines().take(40).map(|l| format!("{l}\n")).collect();
    let file = std::env::temp_dir().join(format!("precis-bench-layers-{}.txt", std::process::id()));
    std::fs::write(&file, sentences).unwrap();
    // More layers than the graph has: every layer is reported.
    let args = ["bench-encoder", "--sentences", file.to_str().unwrap(), "--passes", "1", "--layers", "100000"];
    let report: Vec<serde_json::Value> = json_lines_from(Path::new(env!("CARGO_BIN_EXE_precis")), &args, "");
    std::fs::remove_file(&file).ok();
    let report = &report[0];
    assert_eq!(report["sentences"], 40);
    let features: Vec<&str> = report["cpu_features"].as_array().unwrap().iter().map(|f| f.as_str().unwrap()).collect();
    #[cfg(target_arch = "x86_64")]
    assert!(features.contains(&"sse4.1"), "{features:?}");
    let profile = &report["profile"];
    let layers = profile["layers"].as_array().unwrap();
    assert!(layers.len() > 20, "{} layers", layers.len());
    for layer in layers {
        assert!(!layer["node"].as_str().unwrap().is_empty() && !layer["op"].as_str().unwrap().is_empty(), "{layer}");
        assert!(layer["calls"].as_u64().unwrap() >= 1, "{layer}");
        let seconds = layer["seconds"].as_f64().unwrap();
        assert!(seconds.is_finite() && seconds >= 0.0, "{layer}");
    }
    // Every matrix product names its kernel, and each kernel is one this
    // CPU can run; the int8 products run ours where tract's integer
    // kernels are slow (src/encoder/int8_product.rs), the one the CPU's
    // features select.
    let kernel = |layer: &serde_json::Value| layer["kernel"].as_str().unwrap().to_string();
    let products: Vec<&serde_json::Value> = layers.iter().filter(|l| !kernel(l).is_empty()).collect();
    assert!(products.iter().any(|l| l["op"] == "OptMatMul"), "no f32 matrix product in {layers:?}");
    for layer in &products {
        let named = kernel(layer);
        let (_, name) = named.split_once(" with ").unwrap_or_else(|| panic!("no kernel named: {layer}"));
        assert!(runs_here(name, &features), "kernel {name} on a CPU with {features:?}");
    }
    #[cfg(target_arch = "x86_64")]
    {
        let has = |f: &str| features.contains(&f);
        // The build's products take 12-bit rows and 10-bit weights: with
        // AVX-512 VNNI they run on the i16 tile, not the byte one.
        let int8 = if has("avx512f") && has("avx512bw") && has("avx512vnni") {
            "[precis_avx512vnni_i16_8x32]"
        } else if has("avx2") {
            "[precis_avx2_i8_4x16]"
        } else {
            "[precis_portable_i8_4x8]"
        };
        let ours: Vec<String> = products.iter().filter(|l| l["op"] == "PrecisInt8Product").map(|l| kernel(l)).collect();
        if has("avx2") {
            assert!(!ours.is_empty(), "no int8 product of ours on a CPU with AVX2");
        }
        assert!(ours.iter().all(|k| k.ends_with(int8)), "{ours:?} where the CPU's features select {int8}");
    }
    // The layers' times add up to the profile's, by kind of op too, and
    // fit inside the profiled pass's wall time (they are timed within it).
    let layer_sum: f64 = layers.iter().map(|l| l["seconds"].as_f64().unwrap()).sum();
    let seconds = profile["seconds"].as_f64().unwrap();
    assert!((layer_sum - seconds).abs() <= 1e-9 * layers.len() as f64 + 1e-9, "{layer_sum} vs {seconds}");
    let by_op: f64 = profile["ops"].as_array().unwrap().iter().map(|o| o[1].as_f64().unwrap()).sum();
    assert!((by_op - seconds).abs() < 1e-6);
    let wall = profile["wall_seconds"].as_f64().unwrap();
    assert!(seconds > 0.0 && seconds <= wall + 1e-6, "layers {seconds} s, pass {wall} s");
    assert!(!profile["kernels"].as_array().unwrap().is_empty());
}

/// Whether a matmul kernel's instruction set is among `features`: tract's
/// kernels are named after it ("avx512_mmm_f32_32x12", "fma_mmm_f32_16x6",
/// "avx512vnni_mmm_i32_8x8"), ours too ("precis_avx2_i8_4x16").
/// A list of kernels ("[a, b]") runs here when each of them does.
fn runs_here(kernels: &str, features: &[&str]) -> bool {
    kernels.trim_matches(|c| c == '[' || c == ']').split(", ").all(|name| {
        let name = name.strip_prefix("precis_").unwrap_or(name);
        let isa = name.split('_').next().unwrap_or_default();
        match isa {
            "avx512" => features.contains(&"avx512f"),
            "avx512vnni" => features.contains(&"avx512vnni"),
            "avx2" | "fma" | "avx" => features.contains(&isa),
            _ => !isa.starts_with("avx") && !isa.starts_with("fma"),
        }
    })
}

/// The app reads the int8 encoder from the files `models/build.py` writes
/// for it (issue #43): the graph typed and decluttered, and the tokenizer
/// parsed and sorted. They are the ONNX file's and tokenizer.json's, made
/// from them here again: the same token ids, and the same embedding for
/// every sentence, bit for bit, from the smallest plan to the symbolic one.
#[test]
fn the_apps_files_embed_as_the_onnx_file_and_tokenizer_json() {
    let (onnx, tokenizer_json, table) = (model_file("encoder-int8.onnx"), model_file("tokenizer.json"), model_file("table.u8"));
    let graph = precis::encoder::graph_file::write(&onnx).unwrap();
    let tokenizer_bin = precis::encoder::tokenizer_file::write(&tokenizer_json).unwrap();
    for (name, made) in [("encoder-int8.graph", &graph), ("tokenizer.bin", &tokenizer_bin)] {
        assert!(*made == model_file(name), "models/muse-v3/{name} is not made from the files beside it: run models/build.py");
    }
    let encoder = |network: &[u8], tokenizer: &[u8]| {
        precis::encoder::Encoder::from_bytes(precis::encoder::EncoderFiles { network, tokenizer, table: &table }).unwrap()
    };
    let (from_onnx, apps) = (encoder(&onnx, &tokenizer_json), encoder(&graph, &tokenizer_bin));
    let input = fixture_text();
    let sentences: Vec<&str> = input.lines().collect();
    for sentence in &sentences {
        assert_eq!(apps.tokenize(sentence), from_onnx.tokenize(sentence), "{sentence}");
    }
    let longest = (0..sentences.len()).max_by_key(|&i| sentences[i].len()).unwrap();
    let mut groups: Vec<Vec<&str>> = vec![sentences.clone(), vec![sentences[longest], sentences[0]]];
    groups.extend(sentences.iter().take(5).map(|&s| vec![s]));
    groups.extend(sentences.chunks(30).map(|c| c.to_vec()));
    for group in groups {
        assert!(apps.encode(&group).unwrap() == from_onnx.encode(&group).unwrap(), "a group of {} differs", group.len());
    }
}
