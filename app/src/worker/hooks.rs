//! The one way components ask the worker for a run or its figures: [`use_request`]
//! for one request that follows a key (the player, a tour stop), [`use_summaries`]
//! for a list of figures (plots), both on [`ask`], which turns the worker's replies
//! into an [`Answer`]. Requests are withdrawn when the key changes or the component
//! goes away (their [`Ticket`] dropped).

use super::{request, Reply, RunKey, Ticket};
use slowpath_engine::run::wire::{Detail, Summary};
use slowpath_engine::Run;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use yew::prelude::*;

/// What the worker has said about one request so far.
#[derive(Clone)]
pub enum Answer {
    /// Nothing asked.
    Idle,
    /// Asked; the simulated time the run has reached (None before the first report).
    Waiting(Option<u64>),
    Run(Rc<Run>),
    Summary(Rc<Summary>),
    Failed(String),
}

impl Answer {
    fn of(reply: Reply) -> Answer {
        match reply {
            Reply::Progress { simulated_ns } => Answer::Waiting(Some(simulated_ns)),
            Reply::Run(run) => Answer::Run(run),
            Reply::Summary(summary) => Answer::Summary(summary),
            Reply::Failed(why) => Answer::Failed(why),
        }
    }

    /// The run or why it was not made; None while waiting (or nothing asked).
    pub fn run(&self) -> Option<Result<Rc<Run>, String>> {
        match self {
            Answer::Run(run) => Some(Ok(run.clone())),
            Answer::Failed(why) => Some(Err(why.clone())),
            _ => None,
        }
    }
}

/// Asks the worker for `key`'s run (or figures) and tells `on_answer` every step of
/// the way. The returned ticket withdraws the request when dropped.
pub fn ask(key: RunKey, detail: Detail, on_answer: Callback<Answer>) -> Ticket {
    on_answer.emit(Answer::Waiting(None));
    request(key, detail, on_answer.reform(Answer::of))
}

/// One request as a component sees it: the latest answer, a number that changes
/// with every answer (to act once on each), and Cancel.
#[derive(Clone)]
pub struct Asking {
    pub answer: Answer,
    pub serial: u32,
    pub cancel: Callback<()>,
}

/// Asks for `key` (None: nothing) while it stays the same; `again` changed asks anew
/// for the same key (a "Run it" after a failure).
#[hook]
pub fn use_request(key: Option<RunKey>, detail: Detail, again: u32) -> Asking {
    let answer = use_state(|| (0u32, Answer::Idle));
    let serial = use_mut_ref(|| Cell::new(0u32));
    let ticket: Rc<RefCell<Option<Ticket>>> = use_mut_ref(|| None);
    {
        let (answer, ticket) = (answer.clone(), ticket.clone());
        use_effect_with((key, again), move |(key, _)| {
            let on_answer = Callback::from(move |said: Answer| {
                let next = serial.borrow().get().wrapping_add(1);
                serial.borrow().set(next);
                answer.set((next, said));
            });
            match key.clone() {
                Some(key) => *ticket.borrow_mut() = Some(ask(key, detail, on_answer)),
                None => on_answer.emit(Answer::Idle),
            }
            move || drop(ticket.borrow_mut().take())
        });
    }
    let cancel = Callback::from(move |_| {
        if let Some(ticket) = ticket.borrow().as_ref() {
            ticket.cancel();
        }
    });
    Asking { answer: answer.1.clone(), serial: answer.0, cancel }
}

/// The run of `key` (None: nothing asked), made by the worker: None until it
/// arrives, then the run or why it was not made.
#[hook]
pub fn use_run(key: Option<RunKey>) -> Option<Result<Rc<Run>, String>> {
    use_request(key, Detail::Run, 0).answer.run()
}

/// One run's figures: not yet (None), or what came back.
pub type Figures = Option<Result<Rc<Summary>, String>>;

/// The summaries of `keys`' runs, in order, filled in as the worker makes them
/// (one at a time, after any run the player is waiting for).
#[hook]
pub fn use_summaries(keys: Vec<RunKey>) -> Rc<Vec<Figures>> {
    let results = use_state(|| Rc::new(vec![None; keys.len()]));
    let tickets = use_mut_ref(Vec::<Ticket>::new);
    {
        let results = results.clone();
        use_effect_with(keys, move |keys| {
            let slots = Rc::new(RefCell::new(vec![None; keys.len()]));
            results.set(Rc::new(slots.borrow().clone()));
            let made: Vec<Ticket> = keys
                .iter()
                .enumerate()
                .map(|(index, key)| {
                    let (results, slots) = (results.clone(), slots.clone());
                    let on_answer = Callback::from(move |answer: Answer| {
                        let figures = match answer {
                            Answer::Summary(summary) => Ok(summary),
                            Answer::Failed(why) => Err(why),
                            Answer::Idle | Answer::Waiting(_) | Answer::Run(_) => return,
                        };
                        slots.borrow_mut()[index] = Some(figures);
                        results.set(Rc::new(slots.borrow().clone()));
                    });
                    ask(key.clone(), Detail::Summary, on_answer)
                })
                .collect();
            *tickets.borrow_mut() = made;
            move || tickets.borrow_mut().clear()
        });
    }
    (*results).clone()
}
