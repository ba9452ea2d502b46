//! Evaluation datasets read from their published layout (native only):
//! a cluster of documents with one or more human reference summaries.

pub mod duc2004;
pub mod ml_crisis;
pub mod multinews;

use crate::document::Document;
use anyhow::{bail, Result};
use std::path::Path;

/// One evaluation cluster.
#[derive(Clone, Debug)]
pub struct EvalCluster {
    /// DUC2004 folder name or Multi-News id; names the summary files.
    pub name: String,
    pub documents: Vec<Document>,
    /// Each reference as its list of sentences.
    pub references: Vec<Vec<String>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Dataset {
    Duc2004,
    Multinews,
}

impl Dataset {
    /// The budget in words used by the literature for this dataset.
    pub fn default_budget(self) -> usize {
        match self {
            Dataset::Duc2004 => 100,
            Dataset::Multinews => 230,
        }
    }

    pub fn load(self, path: &Path) -> Result<Vec<EvalCluster>> {
        if !path.exists() {
            bail!("{}: no such file or folder", path.display());
        }
        match self {
            Dataset::Duc2004 => duc2004::load(path),
            Dataset::Multinews => multinews::load(path),
        }
    }
}
