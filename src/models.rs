//! Where the model files are and how they load: shared by the CLI and the
//! Python package, so both find and read the same files (native only).

use crate::centroid::{CeraHead, Heads};
use crate::encoder::Encoder;
use crate::stream::learned::StreamSettings;
use crate::stream::PolicyKind;
use crate::summarize::Method;
use anyhow::{anyhow, Context, Result};
use std::path::{Path, PathBuf};

/// `dir` when given, else `$PRECIS_MODELS`, else `models/` beside the
/// crate root it was built from or in the working directory.
pub fn models_dir(dir: Option<&Path>) -> PathBuf {
    if let Some(dir) = dir {
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

/// The sentence encoder from the models folder's muse-v3/.
pub fn load_encoder(models: Option<&Path>) -> Result<Encoder> {
    let dir = models_dir(models).join("muse-v3");
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

/// The centroid heads that `methods` need, from `heads` (else the models
/// folder's cera/): DIR/cera.onnx, DIR/cerai.onnx.
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

/// The stream policies' settings file (default: the models folder's
/// stream/ls.json); only policies without trained weights may run without it.
pub fn load_stream_settings(path: Option<&Path>, models: Option<&Path>, policy: PolicyKind) -> Result<StreamSettings> {
    let path = path.map(Path::to_path_buf).unwrap_or_else(|| models_dir(models).join("stream/ls.json"));
    match std::fs::read_to_string(&path) {
        Ok(json) => StreamSettings::from_json(&json).map_err(|e| anyhow!("{}: {e}", path.display())),
        Err(_) if !policy.needs_weights() => Ok(StreamSettings::untrained()),
        Err(e) => Err(anyhow!("cannot read {} ({e}); train it with `precis stream-train`", path.display())),
    }
}
