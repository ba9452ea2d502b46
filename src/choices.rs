//! The reader in charge: sentences pinned (every summary holds them) and
//! struck (never a candidate), whatever the method.
//!
//! A choice belongs to its article: `Document::pinned` and
//! `Document::struck` hold the sentences' texts (as segmentation gives
//! them), so a choice survives a reload, a new segmentation of the other
//! articles, and travels with the article to the worker, the CLI and the
//! Python package alike. [`Choices::of`] resolves them to sentence ids of a
//! cluster; [`choose`] records a choice given by sentence id or by exact
//! text, as `precis summarize --pin/--strike` and `precis.summarize(pin=…,
//! strike=…)` take them.

use crate::document::{Cluster, Document};
use anyhow::{bail, Result};

/// The reader's choices on one cluster, as sentence ids in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Choices {
    pub pinned: Vec<usize>,
    pub struck: Vec<usize>,
}

impl Choices {
    /// The sentences the documents' choices name (a text no longer found,
    /// after an edit of the article, names nothing).
    pub fn of(cluster: &Cluster) -> Self {
        let named = |id: &usize, list: fn(&Document) -> &Vec<String>| {
            let sentence = &cluster.sentences[*id];
            list(&cluster.documents[sentence.doc]).iter().any(|t| *t == sentence.text)
        };
        let ids = 0..cluster.sentences.len();
        Self {
            pinned: ids.clone().filter(|id| named(id, |d| &d.pinned)).collect(),
            struck: ids.filter(|id| named(id, |d| &d.struck)).collect(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.pinned.is_empty() && self.struck.is_empty()
    }

    /// An error when the pins do not fit the budget together: they are
    /// refused, never cut. `unit` names what `costs` count ("words",
    /// "sentences").
    pub fn check_budget(&self, costs: &[usize], limit: usize, unit: &str) -> Result<()> {
        let needed: usize = self.pinned.iter().map(|&id| costs[id]).sum();
        if needed > limit {
            let them = if self.pinned.len() == 1 { "The pinned sentence needs" } else { "The pinned sentences need" };
            bail!("{them} {needed} {unit}; the budget is {limit} {unit}. Unpin a sentence or raise the budget.");
        }
        Ok(())
    }
}

/// A sentence as a user names it: its id in the cluster (as `precis
/// summarize --format json` and `precis segment` report it) or its exact
/// text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SentenceRef {
    Id(usize),
    Text(String),
}

impl SentenceRef {
    /// A number is an id; anything else is a sentence's text.
    pub fn parse(given: &str) -> Self {
        match given.trim().parse::<usize>() {
            Ok(id) => Self::Id(id),
            Err(_) => Self::Text(given.trim().to_string()),
        }
    }
}

/// Whether a choice pins or strikes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    Pin,
    Strike,
}

/// Records choices on the cluster's documents: each reference must name a
/// sentence (an unknown id or text is an error that says so), and a
/// sentence is not both pinned and struck.
pub fn choose(cluster: &mut Cluster, choices: &[(Choice, SentenceRef)]) -> Result<()> {
    for (choice, reference) in choices {
        let id = match reference {
            SentenceRef::Id(id) if *id < cluster.sentences.len() => *id,
            SentenceRef::Id(id) => {
                bail!("no sentence {id}: the articles have {} sentences, numbered from 0 (precis segment lists them)", cluster.sentences.len())
            }
            SentenceRef::Text(text) => {
                let squashed = crate::text::collapse_whitespace(text);
                cluster.sentences.iter().position(|s| s.text == squashed).ok_or_else(|| {
                    anyhow::anyhow!("no sentence reads {text:?} in the articles (give its exact text, or its id from precis segment)")
                })?
            }
        };
        let sentence = cluster.sentences[id].clone();
        let document = &mut cluster.documents[sentence.doc];
        let (mine, other) = match choice {
            Choice::Pin => (&mut document.pinned, &mut document.struck),
            Choice::Strike => (&mut document.struck, &mut document.pinned),
        };
        if other.contains(&sentence.text) {
            bail!("sentence {id} is both pinned and struck: {:?}", sentence.text);
        }
        if !mine.contains(&sentence.text) {
            mine.push(sentence.text);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cluster() -> Cluster {
        Cluster::new(vec![
            Document::new("a", "The storm hit the coast on Monday. Thousands of homes lost power overnight."),
            Document::new("b", "Schools will stay closed until Wednesday, officials said."),
        ])
    }

    #[test]
    fn choices_by_id_and_by_text_land_on_their_documents() {
        let mut c = cluster();
        choose(&mut c, &[(Choice::Pin, SentenceRef::parse("2")), (Choice::Strike, SentenceRef::parse("Thousands of homes lost power   overnight."))]).unwrap();
        assert_eq!(c.documents[1].pinned, ["Schools will stay closed until Wednesday, officials said."]);
        assert_eq!(c.documents[0].struck, ["Thousands of homes lost power overnight."]);
        assert_eq!(Choices::of(&c), Choices { pinned: vec![2], struck: vec![1] });
        // Again: nothing doubles.
        choose(&mut c, &[(Choice::Pin, SentenceRef::Id(2))]).unwrap();
        assert_eq!(c.documents[1].pinned.len(), 1);
    }

    #[test]
    fn unknown_or_contradictory_choices_are_errors() {
        let mut c = cluster();
        assert!(choose(&mut c, &[(Choice::Pin, SentenceRef::Id(9))]).unwrap_err().to_string().contains("no sentence 9"));
        let err = choose(&mut c, &[(Choice::Strike, SentenceRef::parse("Not in any article."))]).unwrap_err().to_string();
        assert!(err.contains("no sentence reads"), "{err}");
        let both = [(Choice::Pin, SentenceRef::Id(0)), (Choice::Strike, SentenceRef::Id(0))];
        assert!(choose(&mut c, &both).unwrap_err().to_string().contains("both pinned and struck"));
    }

    #[test]
    fn pins_over_the_budget_are_refused() {
        let choices = Choices { pinned: vec![0, 1], struck: vec![] };
        assert!(choices.check_budget(&[7, 6, 9], 13, "words").is_ok());
        let err = choices.check_budget(&[7, 6, 9], 12, "words").unwrap_err().to_string();
        assert_eq!(err, "The pinned sentences need 13 words; the budget is 12 words. Unpin a sentence or raise the budget.");
    }
}
