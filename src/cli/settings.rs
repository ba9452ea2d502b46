//! Summary settings as command-line flags: the core's own declaration
//! (`Settings` and `BudgetFlags` derive `clap::Args`), so every flag, its
//! default and its help are written once, in src/summarize.

use precis::summarize::{BudgetFlags, Method, Settings};

#[derive(clap::Args, Clone, Debug)]
pub struct SettingsArgs {
    #[command(flatten)]
    pub budget: BudgetFlags,
    #[command(flatten)]
    pub settings: Settings,
}

impl SettingsArgs {
    pub fn to_settings(&self, method: Method, default_words: usize) -> Settings {
        // clap's `conflicts_with` already refuses two budget flags at once.
        let budget = self.budget.budget(default_words).expect("clap allows one budget flag");
        Settings { method, budget, ..self.settings.clone() }
    }
}
