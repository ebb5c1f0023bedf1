//! What the player hands a case's stage and what a case gives the player: the
//! contract between the generic player and `crate::cases`, which the page joins
//! (`crate::cases::ui_for`), so that the player names no case.

use super::model::Action;
use super::url::PlayerQuery;
use slowpath_engine::{CaseMeta, Run, View};
use std::rc::Rc;
use yew::{Callback, Html};

/// What a case's stage is drawn from: the run, the view at the cursor, and a
/// way to move the cursor.
pub struct StageContext {
    pub meta: &'static CaseMeta,
    pub run: Rc<Run>,
    pub view: Rc<View>,
    /// Seeks the player to a simulated time (a chart click, a marker).
    pub on_seek_time: Callback<u64>,
}

/// A case's parts of the player page.
pub struct CaseUi {
    /// The engine's case id (`CaseMeta::id`).
    pub id: &'static str,
    /// The stage: what animates, on the first screen beside the narration and the
    /// pseudocode. It must fit there (about 34rem tall at 1280 × 800): secondary
    /// parts go in `wide`.
    pub main: fn(&StageContext) -> Html,
    /// Drawn at full width below the first screen (outputs, plots, sweeps, diffs).
    pub wide: fn(&StageContext) -> Html,
    /// The speed Play starts at: one that reaches the case's headline moment
    /// within about ten seconds.
    pub pace: super::model::Pace,
    /// What the reader writes for the run, drawn once above the stage (the Lab's
    /// workload editor); None for a case whose parameters are all below.
    pub input: Option<fn(&InputContext) -> Html>,
    /// Whether the generic lock panel goes below the first screen: false for a stage
    /// that draws the locks itself (the generic stage does), so that no panel is twice.
    pub locks_below: bool,
    /// A variant's name for these parameters where its label alone does not say
    /// what runs (the Lab's "As written" names the workload's kernel); None: the label.
    pub variant_named: Option<fn(variant: &str, params: &slowpath_engine::ParamValues) -> Option<String>>,
}

impl CaseUi {
    /// A stage with the player's own parts around it: parameters below, the lock
    /// panel below, each variant named by its label (a case with more overrides them).
    pub const fn stage(
        id: &'static str,
        main: fn(&StageContext) -> Html,
        wide: fn(&StageContext) -> Html,
        pace: super::model::Pace,
    ) -> CaseUi {
        CaseUi { id, main, wide, pace, input: None, locks_below: true, variant_named: None }
    }
}

/// What a case's input is drawn from: the run's settings as the link asks for them,
/// and a way to change them (a parameter, the variant), as the parameter panel does.
pub struct InputContext {
    pub meta: &'static CaseMeta,
    /// The settings of the run asked for (on screen, or being made).
    pub query: Rc<PlayerQuery>,
    /// The run on screen (its figures and outcome).
    pub run: Rc<Run>,
    /// Whether a run is being made for a changed setting.
    pub making: bool,
    /// Tells the player's reducer (`Action::SetParam`, `Action::SetVariant`).
    pub on_action: Callback<Action>,
}
