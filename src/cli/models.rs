//! Where the CLI finds the model files.

use anyhow::{Context, Result};
use precis::centroid::{CeraHead, Heads};
use precis::encoder::Encoder;
use precis::summarize::Method;
use std::path::{Path, PathBuf};

/// `--models DIR`, else `$PRECIS_MODELS`, else `models/` beside the
/// executable's crate root or the working directory.
pub fn models_dir(flag: Option<&Path>) -> PathBuf {
    if let Some(dir) = flag {
        return dir.to_path_buf();
    }
    if let Some(dir) = std::env::var_os("PRECIS_MODELS") {
        return PathBuf::from(dir);
    }
    let built_in = Path::new(env!("CARGO_MANIFEST_DIR")).join("models");
    if built_in.join("muse-v3/encoder.onnx").exists() {
        return built_in;
    }
    PathBuf::from("models")
}

pub fn load_encoder(flag: Option<&Path>) -> Result<Encoder> {
    let dir = models_dir(flag).join("muse-v3");
    let read = |name: &str| {
        std::fs::read(dir.join(name)).with_context(|| {
            format!(
                "cannot read {} (build the models first: python3 models/build.py)",
                dir.join(name).display()
            )
        })
    };
    Encoder::from_bytes(&read("encoder.onnx")?, &read("tokenizer.json")?)
}

/// The centroid heads that `methods` need, from `--heads DIR` (else the
/// models folder's cera/): DIR/cera.onnx, DIR/cerai.onnx.
pub fn load_heads(models: Option<&Path>, heads: Option<&Path>, methods: &[Method]) -> Result<Heads> {
    let dir = heads.map(Path::to_path_buf).unwrap_or_else(|| models_dir(models).join("cera"));
    let load = |method: Method| -> Result<Option<CeraHead>> {
        if !methods.contains(&method) {
            return Ok(None);
        }
        let path = dir.join(format!("{}.onnx", method.name()));
        let bytes = std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
        Ok(Some(CeraHead::from_bytes(&bytes).with_context(|| format!("{}", path.display()))?))
    };
    Heads::new(load(Method::Cera)?, load(Method::Cerai)?)
}
