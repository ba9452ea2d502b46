//! Where the model files are and how they load: shared by the CLI and the
//! Python package, so both find and read the same files (native only).

use crate::centroid::{CeraHead, Heads};
use crate::encoder::{BuildTimes, Encoder, EncoderFiles};
use crate::stream::settings::StreamSettings;
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

/// Which of the encoder's two builds runs (issue #21). int8 is the default
/// of the CLI, the Python package and the app alike (src/worker/assets.rs),
/// so that all three give the same summaries; f32 is kept for parity work.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Precision {
    /// models/muse-v3/encoder.onnx, the f32 network the Python reference runs.
    F32,
    /// models/muse-v3/encoder-int8.onnx: the dense layers of the n-gram
    /// branches on integers, 12-bit activations and 10-bit weights
    /// (models/int8.py), 1.3-1.6 times as fast natively and 1.5 in wasm.
    #[default]
    Int8,
}

impl Precision {
    pub fn file_name(self) -> &'static str {
        match self {
            Precision::F32 => "encoder.onnx",
            Precision::Int8 => "encoder-int8.onnx",
        }
    }
}

static CHOSEN_PRECISION: std::sync::OnceLock<Precision> = std::sync::OnceLock::new();

/// Sets the precision for this process (the CLI's `--encoder`); the first
/// choice holds.
pub fn choose_precision(precision: Precision) {
    let _ = CHOSEN_PRECISION.set(precision);
}

/// The precision chosen by [`choose_precision`], else `$PRECIS_ENCODER`
/// ("f32" or "int8"), else int8.
pub fn encoder_precision() -> Result<Precision> {
    if let Some(precision) = CHOSEN_PRECISION.get() {
        return Ok(*precision);
    }
    match std::env::var("PRECIS_ENCODER") {
        Ok(name) => <Precision as clap::ValueEnum>::from_str(&name, true)
            .map_err(|_| anyhow!("PRECIS_ENCODER={name:?}: expected \"f32\" or \"int8\"")),
        Err(_) => Ok(Precision::default()),
    }
}

/// The encoder network file that [`load_encoder`] reads.
pub fn encoder_path(models: Option<&Path>) -> Result<PathBuf> {
    Ok(models_dir(models).join("muse-v3").join(encoder_precision()?.file_name()))
}

/// The sentence encoder from the models folder's muse-v3/, in the chosen
/// [`Precision`].
pub fn load_encoder(models: Option<&Path>) -> Result<Encoder> {
    load_encoder_timed(models, &|| 0.0).map(|(encoder, _)| encoder)
}

/// [`load_encoder`], with where building it went (`precis bench-encoder`).
pub fn load_encoder_timed(models: Option<&Path>, clock: &dyn Fn() -> f64) -> Result<(Encoder, BuildTimes)> {
    read_encoder(&models_dir(models).join("muse-v3"), encoder_precision()?.file_name(), clock)
}

/// The encoder from a muse-v3 folder: the network `network` ("encoder.onnx"
/// or "encoder-int8.onnx"), tokenizer.json and table.u8.
pub fn read_encoder(muse: &Path, network: &str, clock: &dyn Fn() -> f64) -> Result<(Encoder, BuildTimes)> {
    let read = |name: &str| {
        let path = muse.join(name);
        std::fs::read(&path).with_context(|| {
            format!("cannot read {} (build the models first: python3 models/build.py)", path.display())
        })
    };
    let (network, tokenizer, table) = (read(network)?, read("tokenizer.json")?, read("table.u8")?);
    Encoder::from_bytes_timed(EncoderFiles { network: &network, tokenizer: &tokenizer, table: &table }, clock)
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
