//! The order of a summary's sentences (`Order`), one function for the core's summaries and the app's candidates.

use crate::document::{Document, Sentence};
use serde::{Deserialize, Serialize};

/// Order of the summary's sentences.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    /// By document, then position in the document.
    #[default]
    Position,
    /// In the order the method picked them (best first).
    Score,
    /// By document date, then position (undated documents keep input order).
    Chronological,
}

/// The CLI's `--order` values: the serde names, in this order.
#[cfg(not(target_arch = "wasm32"))]
impl clap::ValueEnum for Order {
    fn value_variants<'a>() -> &'a [Self] {
        &[Order::Position, Order::Score, Order::Chronological]
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        let name = match self {
            Order::Position => "position",
            Order::Score => "score",
            Order::Chronological => "chronological",
        };
        Some(clap::builder::PossibleValue::new(name))
    }
}

/// The picked sentences in the chosen output order: the core orders its
/// summaries so, and the app any other candidate of the beam the same way.
pub fn order_sentences(sentences: &[Sentence], documents: &[Document], picked: &[usize], order: Order) -> Vec<usize> {
    let mut ids = picked.to_vec();
    let position = |&s: &usize| (sentences[s].doc, sentences[s].index);
    match order {
        Order::Score => {}
        Order::Position => ids.sort_by_key(position),
        Order::Chronological => ids.sort_by_key(|s| {
            let date = documents.get(sentences[*s].doc).and_then(|d| d.timestamp).unwrap_or(i64::MIN);
            (date, position(s))
        }),
    }
    ids
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sentence(doc: usize, index: usize) -> Sentence {
        Sentence::placed(doc, index)
    }

    #[test]
    fn candidates_are_ordered_like_the_summary() {
        let sentences = vec![sentence(0, 0), sentence(0, 1), sentence(1, 0), sentence(1, 1)];
        let mut older = Document::new("b", "");
        older.timestamp = Some(100);
        let mut newer = Document::new("a", "");
        newer.timestamp = Some(200);
        let documents = vec![newer, older];
        let picked = [3, 1, 2];
        assert_eq!(order_sentences(&sentences, &documents, &picked, Order::Position), vec![1, 2, 3]);
        assert_eq!(order_sentences(&sentences, &documents, &picked, Order::Chronological), vec![2, 3, 1]);
        assert_eq!(order_sentences(&sentences, &documents, &picked, Order::Score), vec![3, 1, 2]);
    }
}
