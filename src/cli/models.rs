//! Where the CLI finds the model files.

use anyhow::{Context, Result};
use precis::encoder::Encoder;
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
