//! Runs come from the engine's worker (`crate::worker`): the player opens once
//! its run arrives; until then, and while a changed parameter is being run, a
//! progress bar with the simulated time reached and a Cancel button.

use super::link::OpenedLink;
use super::model::{run_key, Action, Player, RunHandle};
use super::PlayerView;
use crate::worker::{self, Reply, RunKey, Ticket};
use slowpath_engine::run::format;
use slowpath_engine::run::wire::Detail;
use slowpath_engine::Run;
use std::cell::RefCell;
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
        (Some(ns), Some(target)) => Some((*ns as f64 / target as f64).clamp(0.0, 1.0)),
        _ => None,
    };
    let cancel = on_cancel.reform(|_| ());
    html! {
        <div class="run-progress" role="status" aria-live="polite" data-testid="run-progress">
            <span class="run-progress-words">{ words }</span>
            if let Some(fraction) = fraction {
                <progress max="1" value={format!("{fraction:.3}")} aria-label="Simulated time reached" />
            } else {
                <progress aria-label="Simulating" />
            }
            <button type="button" class="button" onclick={cancel} data-testid="run-cancel">{ "Cancel" }</button>
        </div>
    }
}

/// Asks the worker for `key`'s run; `on_reply` hears progress and the result.
/// The returned ticket withdraws the request when dropped.
fn ask(key: RunKey, on_reply: Callback<Reply>) -> Ticket {
    worker::request(key, Detail::Run, on_reply)
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
    let run = use_state(|| None::<Rc<Run>>);
    let making = use_state(|| Making::Running(None));
    let ticket = use_mut_ref(|| None::<Ticket>);
    let key = run_key(meta, &props.link.query);
    let asked = use_mut_ref(|| 0u32);
    {
        let (run, making, ticket) = (run.clone(), making.clone(), ticket.clone());
        let key = key.clone();
        use_effect_with((key, *asked.borrow()), move |(key, _)| {
            making.set(Making::Running(None));
            let on_reply = Callback::from(move |reply: Reply| match reply {
                Reply::Progress { simulated_ns } => making.set(Making::Running(Some(simulated_ns))),
                Reply::Run(made) => {
                    making.set(Making::Idle);
                    run.set(Some(made));
                }
                Reply::Summary(_) => {}
                Reply::Failed(why) => making.set(Making::Failed(why)),
            });
            *ticket.borrow_mut() = Some(ask(key.clone(), on_reply));
            move || drop(ticket.borrow_mut().take())
        });
    }
    // Only this case's run: never another case's under this one's title.
    if let Some(run) = (*run).clone().filter(|run| run.case == meta.id) {
        return html! { <PlayerView meta={meta} case={Some(props.case)} case_ui={props.case_ui} link={props.link.clone()} run={Some(run)} /> };
    }
    let on_cancel = {
        let ticket = ticket.clone();
        Callback::from(move |_| {
            if let Some(ticket) = ticket.borrow().as_ref() {
                ticket.cancel();
            }
        })
    };
    let retry = {
        let asked = asked.clone();
        let making = making.clone();
        Callback::from(move |_| {
            *asked.borrow_mut() += 1;
            making.set(Making::Running(None));
        })
    };
    html! {
        <section class="player player-loading" aria-label={format!("Player: {}", meta.title)} data-testid="player-loading">
            if let Making::Failed(why) = &*making {
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

/// Asks the worker for `wanted` while it is wanted; tells the reducer how it went.
#[hook]
fn use_worker_run(
    player: &UseReducerHandle<Player>,
    wanted: Option<RunKey>,
    ready: fn(RunHandle) -> Action,
    failed: fn(String) -> Action,
) -> (Making, Option<u64>, Callback<()>) {
    let making = use_state(|| Making::Idle);
    let ticket: Rc<RefCell<Option<Ticket>>> = use_mut_ref(|| None);
    let target = wanted.as_ref().and_then(target_ns);
    let cancel = {
        let ticket = ticket.clone();
        Callback::from(move |_| {
            if let Some(ticket) = ticket.borrow().as_ref() {
                ticket.cancel();
            }
        })
    };
    {
        let dispatcher = player.dispatcher();
        let making = making.clone();
        use_effect_with(wanted, move |wanted| {
            if let Some(key) = wanted.clone() {
                making.set(Making::Running(None));
                let on_reply = Callback::from(move |reply: Reply| match reply {
                    Reply::Progress { simulated_ns } => making.set(Making::Running(Some(simulated_ns))),
                    Reply::Run(made) => {
                        making.set(Making::Idle);
                        dispatcher.dispatch(ready(RunHandle(made)));
                    }
                    Reply::Summary(_) => {}
                    Reply::Failed(why) => {
                        making.set(Making::Idle);
                        dispatcher.dispatch(failed(why));
                    }
                });
                *ticket.borrow_mut() = Some(ask(key, on_reply));
            } else {
                making.set(Making::Idle);
            }
            move || drop(ticket.borrow_mut().take())
        });
    }
    ((*making).clone(), target, cancel)
}
