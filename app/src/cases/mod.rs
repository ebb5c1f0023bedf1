//! Each case's own stage, charts and sweeps, one folder per case, and the one
//! table that maps a case id to them (the app's side of the engine's registry).
//! The generic player knows no case: it asks [`ui_for`] and draws what comes
//! back; a case with no row still gets every generic panel.

mod coredump_threads;
mod fifo_trigger;
mod sparse_dump;

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
    /// Drawn in the main column, under the narration and the pseudocode.
    pub main: fn(&StageContext) -> Html,
    /// Drawn at full width below the main grid (wide stages, plots, sweeps).
    pub wide: fn(&StageContext) -> Html,
}

/// Every case that has a stage of its own.
pub const CASE_UIS: &[CaseUi] = &[sparse_dump::UI, fifo_trigger::UI, coredump_threads::UI];

/// The stage of case `id`, if it has one.
pub fn ui_for(id: &str) -> Option<&'static CaseUi> {
    CASE_UIS.iter().find(|ui| ui.id == id)
}

/// For a slot a case leaves empty.
pub fn nothing(_: &StageContext) -> Html {
    Html::default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_names_a_registered_case_once() {
        for (index, ui) in CASE_UIS.iter().enumerate() {
            assert!(slowpath_engine::find(ui.id).is_some(), "no engine case `{}`", ui.id);
            assert!(CASE_UIS[..index].iter().all(|earlier| earlier.id != ui.id), "`{}` twice", ui.id);
        }
    }
}
