//! Runs come from the engine's worker (`crate::worker`): the player opens once
//! its run arrives; until then, and while a changed parameter is being run, a
//! progress bar with the simulated time reached and a Cancel button.

use super::link::OpenedLink;
use super::model::{run_key, Action, Player, RunHandle};
use super::PlayerView;
use crate::player::Clamped;
use crate::worker::{self, Answer, RunKey};
use slowpath_engine::run::format;
use slowpath_engine::run::wire::Detail;
use std::rc::Rc;
use yew::prelude::*;

/// How a run being made is getting on.
#[derive(Clone, Debug, PartialEq)]
pub enum Making {
    Idle,
    /// Asked for; the simulated time reached so far (None before the first report).
    Running(Option<u64>),
    Failed(String),
}

/// The run's "time" parameter, if it has one: how far the bar goes.
fn target_ns(key: &RunKey) -> Option<u64> {
    match key.params.0.get("duration") {
        Some(slowpath_engine::ParamValue::Unsigned(ns)) if *ns > 0 => Some(*ns),
        _ => None,
    }
}

/// The progress of a run being made, with Cancel; `target_ns` is the simulated
/// time the run is asked to cover, when a parameter says.
pub fn run_progress(making: &Making, target_ns: Option<u64>, on_cancel: &Callback<()>) -> Html {
    let Making::Running(reached) = making else { return html! {} };
    let words = match reached {
        Some(ns) => format!("Simulating… {} of simulated time so far", format::duration(*ns)),
        None => "Simulating…".to_string(),
    };
    let fraction = match (reached, target_ns) {
        (Some(ns), Some(target)) => Some((*ns as f64 / target as f64).clamped(0.0, 1.0)),
        _ => None,
    };
    let cancel = on_cancel.reform(|_| ());
    html! {
        <div class="run-progress" role="status" aria-live="polite" data-testid="run-progress">
            <span class="run-progress-words">{ words }</span>
            if let Some(fraction) = fraction {
                <progress max="1" value={slowpath_engine::run::format::Fixed(fraction, 3).to_string()} aria-label="Simulated time reached" />
            } else {
                <progress aria-label="Simulating" />
            }
            <button type="button" class="button" onclick={cancel} data-testid="run-cancel">{ "Cancel" }</button>
        </div>
    }
}

#[derive(Properties)]
pub struct LoaderProps {
    /// The case whose player this is, handed in by the page.
    pub case: &'static dyn slowpath_engine::Case,
    /// The case's own stage, if it has one (`crate::cases::ui_for`).
    pub case_ui: Option<&'static super::stage::CaseUi>,
    /// The link, parsed once by the page.
    pub link: Rc<OpenedLink>,
}

impl PartialEq for LoaderProps {
    fn eq(&self, other: &Self) -> bool {
        self.case.meta().id == other.case.meta().id && self.link == other.link
    }
}

/// A case's player: asks for the link's run, shows its progress, then the player.
#[function_component(PlayerLoader)]
pub fn player_loader(props: &LoaderProps) -> Html {
    let meta = props.case.meta();
    let asked = use_state(|| 0u32);
    let key = run_key(meta, &props.link.query);
    let asking = worker::use_request(Some(key.clone()), Detail::Run, *asked);
    // Only this case's run: never another case's under this one's title.
    if let Answer::Run(run) = &asking.answer {
        if run.case == meta.id {
            return html! { <PlayerView meta={meta} case={Some(props.case)} case_ui={props.case_ui} link={props.link.clone()} run={Some(run.clone())} /> };
        }
    }
    let making = match &asking.answer {
        Answer::Failed(why) => Making::Failed(why.clone()),
        Answer::Waiting(reached) => Making::Running(*reached),
        _ => Making::Running(None),
    };
    let on_cancel = asking.cancel.clone();
    let retry = Callback::from(move |_| asked.set(*asked + 1));
    html! {
        <section class="player player-loading" aria-label={format!("Player: {}", meta.title)} data-testid="player-loading">
            if let Making::Failed(why) = &making {
                <div class="run-progress" role="status" data-testid="run-failed">
                    <span>{ format!("The run was not made: {why}.") }</span>
                    <button type="button" class="button" onclick={retry}>{ "Run it" }</button>
                    <a class="button" href={crate::route::Route::case(meta.id).to_hash()}>{ "Open with the defaults" }</a>
                </div>
            } else {
                { run_progress(&making, target_ns(&key), &on_cancel) }
            }
        </section>
    }
}

/// Inside the player: when the query asks for another run (a parameter, the
/// variant or the seed changed), asks the worker and hands the reply to the
/// reducer; returns how that run is getting on, for the progress bar.
#[hook]
pub fn use_wanted_run(player: &UseReducerHandle<Player>) -> (Making, Option<u64>, Callback<()>) {
    use_worker_run(player, player.wanted(), Action::RunReady, Action::RunFailed)
}

/// The same for compare mode's second run (queued behind the first in the worker).
#[hook]
pub fn use_wanted_compare(player: &UseReducerHandle<Player>) -> (Making, Option<u64>, Callback<()>) {
    use_worker_run(player, player.wanted_compare(), Action::CompareReady, Action::CompareFailed)
}

/// Asks the worker for `wanted` while it is wanted; tells the reducer how it went,
/// once per answer.
#[hook]
fn use_worker_run(
    player: &UseReducerHandle<Player>,
    wanted: Option<RunKey>,
    ready: fn(RunHandle) -> Action,
    failed: fn(String) -> Action,
) -> (Making, Option<u64>, Callback<()>) {
    let target = wanted.as_ref().and_then(target_ns);
    let asking = worker::use_request(wanted, Detail::Run, 0);
    {
        let dispatcher = player.dispatcher();
        let answer = asking.answer.clone();
        use_effect_with(asking.serial, move |_| match answer {
            Answer::Run(made) => dispatcher.dispatch(ready(RunHandle(made))),
            Answer::Failed(why) => dispatcher.dispatch(failed(why)),
            Answer::Idle | Answer::Waiting(_) | Answer::Summary(_) => {}
        });
    }
    let making = match &asking.answer {
        Answer::Waiting(reached) => Making::Running(*reached),
        _ => Making::Idle,
    };
    (making, target, asking.cancel)
}
