//! Evaluation: ROUGE equal to ROUGE-1.5.5 for English (plus a Unicode mode
//! for other scripts) and bootstrap confidence intervals. Pure computation:
//! no filesystem, no threads, so it also runs in the browser.

pub mod bootstrap;
pub mod furniture_fixture;
pub mod furniture_pages;
pub mod porter;
pub mod reference;
pub mod rouge;
pub mod rouge_text;
