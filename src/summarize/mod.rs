//! The pipeline's last stages, shared by the CLI and the app: settings →
//! budget → preselection → centroid → selection → ordered summary.
//!
//! The public face of the folder: every item is re-exported here, so
//! callers name `summarize::Settings`, `summarize::summarize` and so on.

mod budget;
mod dispatch;
mod marking;
mod method;
mod notes;
mod order;
mod output;
mod preselect;
mod request;
mod settings;
mod texts;

pub use budget::{Budget, BudgetFlags};
pub use dispatch::{estimate_centroid, run_selector, select_towards, summarize};
pub use marking::{mark_read_furniture, read_prose, sentences_as_read, Reading};
pub use method::Method;
pub use notes::{articles_without_prose, no_prose_note};
pub use order::{order_sentences, Order};
pub use output::summary_json;
pub use preselect::{preselect, stands_alone};
pub use request::{cluster_to_summarize, Summary, SummaryRequest};
pub use settings::{check_weight, language_code, Settings, DEFAULT_GAMMA, DEFAULT_LAMBDA, DEFAULT_MU, DEFAULT_SEED_THRESHOLD};
pub use texts::{EmbeddedTexts, SummaryTexts};

/// Fixtures the folder's tests share (and src/compare.rs, src/worker).
#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::document::{Cluster, Document};
    use crate::encoder::Embedding;
    use crate::select::testing::unit;
    use crate::select::topic::TopicEmbeddings;

    pub(super) fn cluster() -> Cluster {
        Cluster::new(vec![
            // Four words at least: shorter sentences are fragments, never candidates.
            Document::new("a", "Storm hits the coast today. Thousands lose their power. Schools close very early."),
            Document::new("b", "The storm hits the coast today! Officials warn of heavy flooding."),
        ])
    }

    pub(super) fn embeddings(n: usize) -> Vec<Embedding> {
        (0..n).map(|i| unit(&[(i, 1.0), (100, 0.3)])).collect()
    }

    /// Three storm sentences and one answer to "what about the curfew?",
    /// each on its own axis plus a shared storm direction (also the
    /// comparison's fixture, src/compare.rs).
    pub(crate) fn storm_and_curfew() -> (Cluster, Vec<Embedding>, TopicEmbeddings) {
        let c = Cluster::new(vec![
            Document::new("a", "The storm hit the coast at dawn. Winds tore roofs off many houses."),
            Document::new("b", "The storm flooded the harbour overnight. The mayor ordered a curfew from nine."),
        ]);
        let e = vec![
            unit(&[(0, 1.0), (100, 1.0)]),
            unit(&[(1, 1.0), (100, 1.0)]),
            unit(&[(2, 1.0), (100, 1.0)]),
            unit(&[(3, 1.0), (100, 0.2)]),
        ];
        let question = TopicEmbeddings { given: vec![unit(&[(3, 1.0), (50, 0.5)])], headlines: vec![None, None] };
        (c, e, question)
    }

    /// Settings for tests on synthetic embeddings, which mean nothing to the
    /// prose reader: only the segmentation rules decide what is prose.
    pub(crate) fn rules_only() -> Settings {
        Settings { prose_reader: false, ..Default::default() }
    }
}
