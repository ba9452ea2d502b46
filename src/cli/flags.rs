//! Flags several commands share, declared once (`#[command(flatten)]`).
//! Each names its own clap id: flattened fields all called `dir` would
//! otherwise share one id, and `--cache` would fill `--models`.

use std::path::{Path, PathBuf};

/// `--models DIR`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct ModelsFlag {
    /// Folder of the built models: muse-v3/, stream/, cera/ (default: the repo's models/).
    #[arg(id = "models", long = "models", value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

impl ModelsFlag {
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }
}

/// `--cache DIR`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct CacheFlag {
    /// Where sentence embeddings are cached (default: $PRECIS_CACHE or the system temp folder).
    #[arg(id = "cache", long = "cache", value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

impl CacheFlag {
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }
}

/// `--threads N`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct ThreadsFlag {
    /// Worker threads (default: all cores).
    #[arg(id = "threads", long = "threads", value_name = "N")]
    pub count: Option<usize>,
}

impl ThreadsFlag {
    /// Sizes the global thread pool, before any parallel work.
    pub fn apply(&self) {
        if let Some(threads) = self.count {
            rayon::ThreadPoolBuilder::new().num_threads(threads).build_global().ok();
        }
    }
}
