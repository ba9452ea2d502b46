//! The page's state: a handful of signals shared as context.

use super::persist;
use crate::document::Document;
use crate::summarize::Settings;
use crate::worker::protocol::{Article, InputProblem, ModelStatus, Stage, SummaryResult};
use leptos::prelude::*;
use std::sync::Arc;

/// An article card: the article and a key that stays with it for its life
/// (components look the article up by key, so they always see the latest).
#[derive(Clone, Debug, PartialEq)]
pub struct Card {
    pub key: u64,
    pub article: Article,
}

/// Which detail tab is open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Sources,
    Explorer,
    Map,
}

impl Tab {
    pub fn slug(self) -> &'static str {
        match self {
            Tab::Sources => "sources",
            Tab::Explorer => "explorer",
            Tab::Map => "map",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    pub stage: Stage,
    pub done: usize,
    pub total: usize,
}

/// The summary on screen: the method's answer, or a beam candidate the
/// user picked in the explorer.
#[derive(Clone, Debug, PartialEq)]
pub struct Shown {
    /// Sentence ids in output order.
    pub sentences: Vec<usize>,
    pub score: f32,
    pub cost: usize,
    /// Rank among the beam's final candidates when one was picked.
    pub candidate: Option<usize>,
}

/// A summary with the articles and settings it was made from (the cards
/// and settings may change afterwards).
#[derive(Debug)]
pub struct Outcome {
    pub result: SummaryResult,
    pub documents: Vec<Document>,
    pub settings: Settings,
}

#[derive(Clone, Copy)]
pub struct AppState {
    pub cards: RwSignal<Vec<Card>>,
    /// The paste box.
    pub draft: RwSignal<String>,
    pub settings: RwSignal<Settings>,
    pub reference: RwSignal<String>,
    /// None until the worker reports.
    pub model: RwSignal<Option<ModelStatus>>,
    /// Problems with the last input read, shown under the input.
    pub input_problems: RwSignal<Vec<InputProblem>>,
    /// A read (paste, files, example) is under way.
    pub reading: RwSignal<bool>,
    /// A summary is under way (None when idle).
    pub progress: RwSignal<Option<Progress>>,
    /// Why the last summary failed, shown next to the button.
    pub summary_error: RwSignal<Option<String>>,
    pub result: RwSignal<Option<Arc<Outcome>>>,
    /// The articles or the reference changed after the result was made.
    pub stale: RwSignal<bool>,
    pub shown: RwSignal<Option<Shown>>,
    pub tab: RwSignal<Tab>,
    /// Articles removed by "Clear all", kept for an undo.
    pub cleared: RwSignal<Option<Vec<Card>>>,
    /// The browser refused to store the input (quota).
    pub storage_warning: RwSignal<Option<String>>,
    next_key: StoredValue<u64>,
}

impl AppState {
    /// Fresh state with whatever the last visit left in storage.
    pub fn restore() -> Self {
        let saved = persist::load();
        let cards: Vec<Card> =
            saved.articles.into_iter().enumerate().map(|(i, article)| Card { key: i as u64, article }).collect();
        let next_key = cards.len() as u64;
        Self {
            cards: RwSignal::new(cards),
            draft: RwSignal::new(persist::load_draft()),
            settings: RwSignal::new(saved.settings),
            reference: RwSignal::new(saved.reference),
            model: RwSignal::new(None),
            input_problems: RwSignal::new(vec![]),
            reading: RwSignal::new(false),
            progress: RwSignal::new(None),
            summary_error: RwSignal::new(None),
            result: RwSignal::new(None),
            stale: RwSignal::new(false),
            shown: RwSignal::new(None),
            tab: RwSignal::new(Tab::Sources),
            cleared: RwSignal::new(None),
            storage_warning: RwSignal::new(None),
            next_key: StoredValue::new(next_key),
        }
    }

    pub fn new_key(&self) -> u64 {
        let key = self.next_key.get_value();
        self.next_key.set_value(key + 1);
        key
    }

    pub fn add_articles(&self, articles: Vec<Article>) {
        let new: Vec<Card> = articles.into_iter().map(|article| Card { key: self.new_key(), article }).collect();
        if !new.is_empty() {
            self.cards.update(|cards| cards.extend(new));
            self.input_changed();
        }
    }

    /// The card's article as it is now.
    pub fn article(&self, key: u64) -> Option<Article> {
        self.cards.with(|cards| cards.iter().find(|c| c.key == key).map(|c| c.article.clone()))
    }

    /// Changes one article and marks the result out of date.
    pub fn edit_article(&self, key: u64, edit: impl FnOnce(&mut Article)) {
        self.cards.update(|cards| {
            if let Some(card) = cards.iter_mut().find(|c| c.key == key) {
                edit(&mut card.article);
            }
        });
        self.input_changed();
    }

    /// Marks the result as out of date with the input.
    pub fn input_changed(&self) {
        if self.result.with_untracked(Option::is_some) {
            self.stale.set(true);
        }
    }

    /// Shows the method's own answer.
    pub fn show_result(&self, result: Arc<Outcome>) {
        let summary = &result.result.summary;
        self.shown.set(Some(Shown {
            sentences: summary.sentences.clone(),
            score: summary.score,
            cost: summary.cost,
            candidate: None,
        }));
        self.result.set(Some(result));
        self.stale.set(false);
    }
}
