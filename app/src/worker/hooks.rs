//! Components' way to ask the worker for figures: a list of runs in, their
//! summaries out as they arrive, the requests withdrawn when the list changes.

use super::{request, Reply, RunKey, Ticket};
use slowpath_engine::run::wire::{Detail, Summary};
use std::rc::Rc;
use yew::prelude::*;

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
            let slots = Rc::new(std::cell::RefCell::new(vec![None; keys.len()]));
            results.set(Rc::new(slots.borrow().clone()));
            let made: Vec<Ticket> = keys
                .iter()
                .enumerate()
                .map(|(index, key)| {
                    let (results, slots) = (results.clone(), slots.clone());
                    let on_reply = Callback::from(move |reply: Reply| {
                        let figures = match reply {
                            Reply::Summary(summary) => Ok(summary),
                            Reply::Failed(why) => Err(why),
                            Reply::Progress { .. } | Reply::Run(_) => return,
                        };
                        slots.borrow_mut()[index] = Some(figures);
                        results.set(Rc::new(slots.borrow().clone()));
                    });
                    request(key.clone(), Detail::Summary, on_reply)
                })
                .collect();
            *tickets.borrow_mut() = made;
            move || tickets.borrow_mut().clear()
        });
    }
    (*results).clone()
}

/// The run of `key` (None: nothing asked), made by the worker: None until it
/// arrives, then the run or why it was not made.
#[hook]
pub fn use_run(key: Option<RunKey>) -> Option<Result<Rc<slowpath_engine::Run>, String>> {
    let result = use_state(|| None);
    let ticket = use_mut_ref(|| None::<Ticket>);
    {
        let result = result.clone();
        use_effect_with(key, move |key| {
            result.set(None);
            if let Some(key) = key.clone() {
                let on_reply = Callback::from(move |reply: Reply| match reply {
                    Reply::Run(run) => result.set(Some(Ok(run))),
                    Reply::Failed(why) => result.set(Some(Err(why))),
                    Reply::Progress { .. } | Reply::Summary(_) => {}
                });
                *ticket.borrow_mut() = Some(request(key, Detail::Run, on_reply));
            }
            move || drop(ticket.borrow_mut().take())
        });
    }
    (*result).clone()
}
