//! Each case's own stage, charts and sweeps, one folder per case, and the one
//! table that maps a case id to them (the app's side of the engine's registry).
//! The generic player knows no case: the page hands it what [`ui_for`] gives and it
//! draws that; a case with no row still gets every generic panel.

mod coredump_threads;
mod fifo_trigger;
mod gvisor_threadgroups;
pub mod module;
mod rwsem_playground;
mod sparse_dump;
mod the_lab;

pub use crate::player::stage::{CaseUi, StageContext};
use slowpath_engine::{Run, View};
use std::rc::Rc;
use yew::Html;

/// What a stage component re-renders from: the run and the view at the cursor,
/// compared by the run's identity and the view's value (a step that changes nothing
/// on screen re-renders nothing). One type for every case's stage.
#[derive(yew::Properties, Clone)]
// A module whose case has no stage (the rwsem playground's) uses none.
#[cfg_attr(
    not(any(
        feature = "sparse-dump",
        feature = "fifo-trigger",
        feature = "coredump-threads",
        feature = "gvisor-threadgroups"
    )),
    allow(dead_code)
)]
pub struct StageProps {
    pub run: Rc<Run>,
    pub view: Rc<View>,
}

impl PartialEq for StageProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.run, &other.run) && self.view == other.view
    }
}

/// Every case that has a stage of its own, among those this build carries (each
/// behind its case's feature: a per-case module draws only its own case).
pub const CASE_UIS: &[CaseUi] = &[
    #[cfg(feature = "sparse-dump")]
    sparse_dump::UI,
    #[cfg(feature = "fifo-trigger")]
    fifo_trigger::UI,
    #[cfg(feature = "coredump-threads")]
    coredump_threads::UI,
    #[cfg(feature = "gvisor-threadgroups")]
    gvisor_threadgroups::UI,
    #[cfg(feature = "the-lab")]
    the_lab::UI,
];

/// The stage of case `id`, if it has one.
pub fn ui_for(id: &str) -> Option<&'static CaseUi> {
    CASE_UIS.iter().find(|ui| ui.id == id)
}

/// What a case adds to its engine metadata where it is introduced (its card on the
/// landing page, its title on its page and its tour): a small picture of its stage,
/// and why its modelled headline figure is not the one the report gives. The figures
/// themselves come from the engine (`CaseMeta::reported` and the default run).
pub struct CaseCard {
    /// The engine's case id (`CaseMeta::id`).
    pub id: &'static str,
    /// A light sketch of the stage: inline SVG drawn by the page (no image file, no
    /// figure in it), decorative beside the case's title.
    pub picture: fn() -> Html,
    /// Why the model's headline figure differs from the report's, in a few words and
    /// no figures; None for a case without a reported headline figure.
    pub why_figures_differ: Option<&'static str>,
}

/// Every case's card, in any order (the landing page follows the registry): in
/// every build, like the metadata, since any page may list the cases.
pub const CASE_CARDS: &[CaseCard] = &[
    sparse_dump::CARD,
    fifo_trigger::CARD,
    coredump_threads::CARD,
    gvisor_threadgroups::CARD,
    rwsem_playground::CARD,
    the_lab::CARD,
];

/// The card of case `id`, if it has one.
pub fn card_for(id: &str) -> Option<&'static CaseCard> {
    CASE_CARDS.iter().find(|card| card.id == id)
}

/// A case as the pages are handed it: found once, where the route names it, and
/// passed down (no page, player or panel looks a case up by its id again).
#[derive(Clone, Copy)]
pub struct Resolved {
    pub meta: &'static slowpath_engine::CaseMeta,
    /// The simulation, when this build carries it (the default build carries every
    /// case's; a per-case module only its own, see [`module`]).
    pub case: Option<&'static dyn slowpath_engine::Case>,
    /// The case's own stage, if it has one; the generic panels draw the rest.
    pub ui: Option<&'static CaseUi>,
    /// Its picture and why its figures differ from the report's, if it has a card.
    pub card: Option<&'static CaseCard>,
}

impl PartialEq for Resolved {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.meta, other.meta)
    }
}

/// The case a route names: the engine's registry entry and the app's stage for it.
/// The tests' own case (unlisted) opens only where the test doors do (`doors_open`:
/// the page is served from this machine), so the browser tests reach it in the build
/// that ships and nobody else is shown it.
pub fn resolve(id: &str, doors_open: bool) -> Option<Resolved> {
    let entry = slowpath_engine::find(id).filter(|entry| entry.listed || doors_open)?;
    Some(Resolved { meta: entry.meta, case: entry.simulation, ui: ui_for(id), card: card_for(id) })
}

/// For a slot a case leaves empty (no case does today; kept for the next one).
#[allow(dead_code)]
pub fn nothing(_: &StageContext) -> Html {
    Html::default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Real seconds that playing at `pace` takes to reach simulated time `at_ns`
    /// (None for paces that move by steps).
    fn seconds_to_reach(pace: crate::player::model::Pace, at_ns: u64, end_ns: u64) -> Option<f64> {
        use crate::player::model::Pace;
        match pace {
            Pace::Scale { sim, real } => Some(at_ns as f64 * real as f64 / sim as f64 / 1e9),
            Pace::WholeRunIn(seconds) => Some(f64::from(seconds) * at_ns as f64 / end_ns.max(1) as f64),
            Pace::Steps(_) | Pace::Max => None,
        }
    }

    #[test]
    fn play_reaches_the_first_key_moment_and_the_end_within_ten_seconds() {
        for ui in CASE_UIS {
            let case = slowpath_engine::simulation(ui.id).expect("registered");
            let meta = case.meta();
            let run =
                slowpath_engine::run_checked(case, &meta.default_params(), meta.default_variant().id, 1)
                    .expect("runs");
            let first_notable = run.notable_ops().first().and_then(|&index| run.op(index)).map(|op| op.at_ns);
            let first = first_notable.expect("a case with a stage has a key moment");
            let seconds = seconds_to_reach(ui.pace, first, run.end_ns).expect("a case plays by time");
            assert!(seconds <= 10.0, "{}: the first key moment after {seconds:.1} s of play", ui.id);
        }
    }

    #[test]
    fn the_tests_own_case_opens_only_behind_the_test_doors() {
        assert!(resolve("example-case", false).is_none());
        assert!(resolve("example-case", true).is_some_and(|case| case.ui.is_none()));
        for entry in slowpath_engine::listed() {
            assert!(resolve(entry.meta.id, false).is_some(), "{}", entry.meta.id);
        }
    }

    #[test]
    fn every_listed_case_has_a_card_and_says_why_its_headline_differs_from_the_report() {
        for entry in slowpath_engine::listed() {
            let meta = entry.meta;
            let card = card_for(meta.id).unwrap_or_else(|| panic!("`{}` has no card", meta.id));
            let reported = meta.reported.iter().any(|figure| figure.metric == meta.headline_metric);
            assert_eq!(
                card.why_figures_differ.is_some(),
                reported,
                "{}: a why exactly when the report gives the headline",
                meta.id
            );
            if let Some(why) = card.why_figures_differ {
                assert!(
                    !why.chars().any(|c| c.is_ascii_digit()),
                    "{}: the why types a figure: {why}",
                    meta.id
                );
            }
        }
        for (index, card) in CASE_CARDS.iter().enumerate() {
            assert!(slowpath_engine::find(card.id).is_some(), "no engine case `{}`", card.id);
            assert!(CASE_CARDS[..index].iter().all(|earlier| earlier.id != card.id), "`{}` twice", card.id);
        }
    }

    #[test]
    fn every_row_names_a_registered_case_once() {
        for (index, ui) in CASE_UIS.iter().enumerate() {
            assert!(slowpath_engine::find(ui.id).is_some(), "no engine case `{}`", ui.id);
            assert!(CASE_UIS[..index].iter().all(|earlier| earlier.id != ui.id), "`{}` twice", ui.id);
        }
    }
}
