//! The page's state: a handful of signals shared as context.

use super::persist;
use crate::document::Document;
use crate::summarize::{Method, Settings};
use crate::worker::protocol::{Article, ComparisonResult, InputProblem, ModelStatus, Stage, StreamOffer, SummaryResult, Timeline};
use crate::stream::PolicyKind;
use serde::{Deserialize, Serialize};
use leptos::prelude::*;
use std::sync::Arc;

/// An article card: the article and a key that stays with it for its life
/// (components look the article up by key, so they always see the latest).
#[derive(Clone, Debug, PartialEq)]
pub struct Card {
    pub key: u64,
    pub article: Article,
}

/// What the page makes of the articles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// One summary of all articles.
    Summary,
    /// The articles replayed by date, updates on a timeline.
    Timeline,
}

/// The timeline's controls.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StreamChoice {
    pub policy: PolicyKind,
    /// None: the policy's tuned threshold.
    pub threshold: Option<f32>,
    /// What the event is about; empty: the earliest article's headline.
    pub query: String,
}


/// A timeline with the articles it was made from.
#[derive(Debug)]
pub struct TimelineOutcome {
    pub timeline: Timeline,
    pub documents: Vec<Document>,
}

/// The worker crashed: whether it was restarted, and whether requests it
/// lost can be sent again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorkerCrash {
    pub restarted: bool,
    pub retry: bool,
}

/// Which detail tab is open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Sources,
    Explorer,
    Map,
    Compare,
}

impl Tab {
    pub fn slug(self) -> &'static str {
        match self {
            Tab::Sources => "sources",
            Tab::Explorer => "explorer",
            Tab::Map => "map",
            Tab::Compare => "compare",
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
    /// Fires when the paste box is set by the app (not by typing): only then
    /// is the textarea rewritten, so typing or pasting megabytes never
    /// makes the page copy the text back into the box.
    pub draft_reset: Trigger,
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
    /// Another tab saved a different list of articles.
    pub articles_elsewhere: RwSignal<bool>,
    /// The worker crashed and was restarted (or not); shown until dismissed.
    pub worker_crash: RwSignal<Option<WorkerCrash>>,
    pub mode: RwSignal<Mode>,
    /// What the worker offers for the timeline (None until it says).
    pub stream_offer: RwSignal<Option<StreamOffer>>,
    pub stream_choice: RwSignal<StreamChoice>,
    pub timeline: RwSignal<Option<Arc<TimelineOutcome>>>,
    pub timeline_progress: RwSignal<Option<Progress>>,
    pub timeline_error: RwSignal<Option<String>>,
    /// Decisions of the timeline revealed so far.
    pub replay: RwSignal<usize>,
    pub playing: RwSignal<bool>,
    /// Decisions revealed per second while playing.
    pub speed: RwSignal<f64>,
    /// The timeline lists skipped sentences too.
    pub show_skipped: RwSignal<bool>,
    /// The trained centroid heads the worker loaded: (CeRA, CeRAI).
    pub heads: RwSignal<(bool, bool)>,
    /// Helper workers that encode alongside the worker.
    pub helpers: RwSignal<usize>,
    /// The Compare tab: the methods ticked, the last comparison, its
    /// progress and why it failed.
    pub compare_methods: RwSignal<Vec<Method>>,
    pub comparison: RwSignal<Option<Arc<ComparisonResult>>>,
    pub compare_progress: RwSignal<Option<Progress>>,
    pub compare_error: RwSignal<Option<String>>,
    /// The reader's pins and strikes, for Undo and Redo (newest last).
    pub choice_undo: RwSignal<Vec<super::choices::ChoiceEdit>>,
    pub choice_redo: RwSignal<Vec<super::choices::ChoiceEdit>>,
    next_key: StoredValue<u64>,
}

impl AppState {
    /// Fresh state with the saved articles (read before mounting, see
    /// `persist::load_articles`) and whatever else the last visit left.
    pub fn restore(articles: Vec<Article>) -> Self {
        let saved = persist::load();
        let cards: Vec<Card> = articles.into_iter().enumerate().map(|(i, article)| Card { key: i as u64, article }).collect();
        let next_key = cards.len() as u64;
        Self {
            cards: RwSignal::new(cards),
            draft: RwSignal::new(persist::load_draft()),
            draft_reset: Trigger::new(),
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
            articles_elsewhere: RwSignal::new(false),
            worker_crash: RwSignal::new(None),
            mode: RwSignal::new(saved.mode),
            stream_offer: RwSignal::new(None),
            stream_choice: RwSignal::new(saved.stream),
            timeline: RwSignal::new(None),
            timeline_progress: RwSignal::new(None),
            timeline_error: RwSignal::new(None),
            replay: RwSignal::new(0),
            playing: RwSignal::new(false),
            speed: RwSignal::new(4.0),
            show_skipped: RwSignal::new(false),
            heads: RwSignal::new((false, false)),
            helpers: RwSignal::new(0),
            compare_methods: RwSignal::new(vec![Method::Greedy, Method::BeamGreedy]),
            comparison: RwSignal::new(None),
            compare_progress: RwSignal::new(None),
            compare_error: RwSignal::new(None),
            choice_undo: RwSignal::new(vec![]),
            choice_redo: RwSignal::new(vec![]),
            next_key: StoredValue::new(next_key),
        }
    }

    /// Whether the method can run: its reference given, its trained head
    /// shipped.
    pub fn can_run(&self, method: Method) -> bool {
        let has_reference = self.reference.with(|r| !r.trim().is_empty());
        let (cera, cerai) = self.heads.get();
        let head = match method {
            Method::Cera => cera,
            Method::Cerai => cerai,
            _ => true,
        };
        head && crate::worker::pipeline::method_available(method, has_reference)
    }

    /// Sets the paste box's text from the app.
    pub fn set_draft(&self, text: String) {
        self.draft.set(text);
        self.draft_reset.notify();
    }

    pub fn new_key(&self) -> u64 {
        let key = self.next_key.get_value();
        self.next_key.set_value(key + 1);
        key
    }

    /// Replaces every card (the list another tab saved).
    pub fn replace_articles(&self, articles: Vec<Article>) {
        let cards: Vec<Card> = articles.into_iter().map(|article| Card { key: self.new_key(), article }).collect();
        self.cards.set(cards);
        self.input_changed();
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
        if self.result.with_untracked(Option::is_some) || self.timeline.with_untracked(Option::is_some) {
            self.stale.set(true);
        }
    }

    /// Shows a new timeline. A first one plays from the start; a replay
    /// with other settings keeps the replay where it was (the same number
    /// of sentences arrived).
    pub fn show_timeline(&self, outcome: Arc<TimelineOutcome>) {
        let cursor_now = self.replay.get_untracked();
        let arrived = self.timeline.with_untracked(|old| {
            old.as_ref().map(|old| if cursor_now >= old.timeline.events.len() { None } else { Some(arrived(&old.timeline, cursor_now)) })
        });
        let cursor = match arrived {
            Some(None) => outcome.timeline.events.len(),
            Some(Some(arrived)) => cursor_for(&outcome.timeline, arrived),
            None => {
                self.playing.set(true);
                0
            }
        };
        self.replay.set(cursor);
        self.timeline.set(Some(outcome));
        self.stale.set(false);
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

/// Sentences that had arrived after the first `cursor` decisions.
pub fn arrived(timeline: &Timeline, cursor: usize) -> usize {
    timeline.events.iter().take(cursor).map(|e| e.sentence + 1).max().unwrap_or(0)
}

/// The first cursor at which `sentences` sentences have arrived.
pub fn cursor_for(timeline: &Timeline, sentences: usize) -> usize {
    if sentences == 0 {
        return 0;
    }
    let mut max = 0;
    for (i, e) in timeline.events.iter().enumerate() {
        max = max.max(e.sentence + 1);
        if max >= sentences {
            return i + 1;
        }
    }
    timeline.events.len()
}
