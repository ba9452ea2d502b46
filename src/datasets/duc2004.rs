//! DUC 2004 task 2: `docs/<cluster>/D*.txt` and
//! `reference/Task<cluster>_reference{1..4}.txt` (one sentence per line).

use super::EvalCluster;
use crate::document::Document;
use anyhow::{bail, Context, Result};
use std::path::Path;

pub fn load(root: &Path) -> Result<Vec<EvalCluster>> {
    let docs = root.join("docs");
    let mut names: Vec<String> = std::fs::read_dir(&docs)
        .with_context(|| format!("{}: expected the DUC2004 layout (docs/, reference/)", root.display()))?
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    // Numeric folder names ("1", "10", "1001") in numeric order.
    names.sort_by_key(|n| (n.parse::<u64>().unwrap_or(u64::MAX), n.clone()));
    names.iter().map(|name| load_cluster(root, name)).collect()
}

fn load_cluster(root: &Path, name: &str) -> Result<EvalCluster> {
    let folder = root.join("docs").join(name);
    let mut files: Vec<_> = std::fs::read_dir(&folder)?.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    // D1, D2, …, D10 in numeric order.
    files.sort_by_key(|p| {
        let stem = p.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        (stem.trim_start_matches('D').parse::<u64>().unwrap_or(u64::MAX), stem)
    });
    let documents = files
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).with_context(|| format!("{}", p.display()))?;
            let id = p.file_name().unwrap_or_default().to_string_lossy().into_owned();
            Ok(Document { id, lang: Some("en".into()), ..Document::new("", text) })
        })
        .collect::<Result<Vec<_>>>()?;
    let mut references = vec![];
    for i in 1.. {
        let path = root.join("reference").join(format!("Task{name}_reference{i}.txt"));
        if !path.exists() {
            break;
        }
        let text = std::fs::read_to_string(&path).with_context(|| format!("{}", path.display()))?;
        references.push(text.lines().map(str::trim).filter(|l| !l.is_empty()).map(String::from).collect());
    }
    if references.is_empty() {
        bail!("cluster {name}: no reference/Task{name}_reference1.txt");
    }
    Ok(EvalCluster { name: name.to_string(), documents, references })
}
