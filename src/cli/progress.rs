//! The progress bar of commands that walk a dataset cluster by cluster.

use indicatif::{ProgressBar, ProgressStyle};

/// A bar of `len` clusters on stderr, with elapsed time, rate and ETA.
pub fn cluster_bar(len: usize) -> ProgressBar {
    let bar = ProgressBar::new(len as u64);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} clusters ({per_sec}, eta {eta})")
            .expect("static template")
            .progress_chars("=> "),
    );
    bar
}
