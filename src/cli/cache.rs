//! The CLI's embedding cache on disk: evaluations, tuning and stream runs
//! embed the same corpora again and again, so each set of texts is encoded
//! once and read back from a file keyed by the model and the texts.

use super::models::{load_encoder, models_dir};
use anyhow::Result;
use precis::encoder::{Embedding, Encoder, DIM};
use precis::segment::line_key::{fnv1a, FNV_OFFSET};
use precis::stream::replay::embed_by_article;
use std::path::{Path, PathBuf};

/// Embeds `texts` in batches of 2,048, cached (see [`embed_cached_units`]).
pub fn embed_cached(texts: &[&str], models: Option<&Path>, cache: Option<&Path>) -> Result<Vec<Embedding>> {
    let units: Vec<Vec<&str>> = texts.chunks(2048).map(<[&str]>::to_vec).collect();
    embed_cached_units(&units, models, cache)
}

/// Embeds each unit of texts in one encoder call, reading and writing a
/// cache file keyed by the model manifest, the encoder's build, the texts
/// and the units, so repeated runs skip the encoder entirely.
pub fn embed_cached_units(units: &[Vec<&str>], models: Option<&Path>, cache: Option<&Path>) -> Result<Vec<Embedding>> {
    let manifest = std::fs::read(models_dir(models).join("muse-v3/manifest.json")).unwrap_or_default();
    let encoder_file = precis::models::encoder_precision()?.file_name();
    let count: usize = units.iter().map(Vec::len).sum();
    let dir = cache_dir(cache);
    let path = dir.join(cache_file_name(&manifest, encoder_file, units, count));
    if let Some(embeddings) = read_embeddings(&path, count) {
        return Ok(embeddings);
    }
    let encoder = load_encoder(models)?;
    let embeddings = encode_units(&encoder, units, count)?;
    std::fs::create_dir_all(&dir).ok();
    let bytes: Vec<u8> = embeddings.iter().flatten().flat_map(|x| x.to_le_bytes()).collect();
    let tmp = path.with_extension("tmp");
    if std::fs::write(&tmp, bytes).is_ok() {
        std::fs::rename(&tmp, &path).ok();
    }
    Ok(embeddings)
}

/// The cache file of `units` embedded by `encoder_file` of the models that
/// `manifest` describes. The manifest lists both builds (f32 and int8), so
/// the build is part of the key: `--encoder f32` must not read back what
/// int8 wrote.
fn cache_file_name(manifest: &[u8], encoder_file: &str, units: &[Vec<&str>], count: usize) -> String {
    let seed = fnv1a(fnv1a(FNV_OFFSET, manifest), encoder_file.as_bytes());
    let key = units.iter().fold(seed, |h, unit| {
        let h = unit.iter().fold(h, |h, t| fnv1a(fnv1a(h, t.as_bytes()), b"\n"));
        fnv1a(h, b"\x1e")
    });
    format!("embeddings-{key:016x}-{count}.f32")
}

fn encode_units(encoder: &Encoder, units: &[Vec<&str>], count: usize) -> Result<Vec<Embedding>> {
    let mut done = 0;
    let embeddings = embed_by_article(units.iter().cloned(), |texts| {
        done += texts.len();
        eprint!("\rencoding {done}/{count} sentences");
        encoder.encode(texts)
    })?;
    eprintln!();
    Ok(embeddings)
}

/// The cache folder: the flag, else $PRECIS_CACHE, else the system temp folder.
pub fn cache_dir(flag: Option<&Path>) -> PathBuf {
    flag.map(Path::to_path_buf)
        .or_else(|| std::env::var_os("PRECIS_CACHE").map(PathBuf::from))
        .unwrap_or_else(|| std::env::temp_dir().join("precis-cache"))
}

fn read_embeddings(path: &Path, count: usize) -> Option<Vec<Embedding>> {
    let bytes = std::fs::read(path).ok()?;
    if bytes.len() != count * DIM * 4 {
        return None;
    }
    let floats: Vec<f32> = bytes.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
    Some(floats.chunks_exact(DIM).map(|c| c.try_into().expect("DIM floats")).collect())
}

#[cfg(test)]
mod tests {
    use super::cache_file_name;

    #[test]
    fn each_encoder_build_has_its_own_cache_file() {
        let units = vec![vec!["One sentence.", "Another."], vec!["A third."]];
        let int8 = cache_file_name(b"{manifest}", "encoder-int8.onnx", &units, 3);
        assert_eq!(int8, cache_file_name(b"{manifest}", "encoder-int8.onnx", &units, 3));
        assert_ne!(int8, cache_file_name(b"{manifest}", "encoder.onnx", &units, 3));
        assert_ne!(int8, cache_file_name(b"{other manifest}", "encoder-int8.onnx", &units, 3));
        let regrouped = vec![vec!["One sentence."], vec!["Another.", "A third."]];
        assert_ne!(int8, cache_file_name(b"{manifest}", "encoder-int8.onnx", &regrouped, 3));
        assert!(int8.ends_with("-3.f32"), "{int8}");
    }
}
