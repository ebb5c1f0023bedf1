//! The engine's thread: one Web Worker, reused, that makes every run the page
//! asks for, so that the page never freezes (a run may take a second of CPU).
//!
//! The worker loads the page's own wasm module (`engine-worker-<hash>.js`,
//! written by `cargo xtask harden-html`, imports the same glue; `start()` sees a
//! worker scope and serves instead of drawing): no second copy of the engine is
//! shipped. A request is a `wire::Request` as bytes; the reply is progress
//! messages, then the run as `wire` messages (a header, then its tables in
//! chunks, each decoded on the page in its own short task), then "done".
//!
//! One request is in flight at a time and the queue stays here, on the page: a
//! request nobody waits for any more (its [`Ticket`] dropped: a sweep changed, a
//! page closed) leaves the queue without costing the worker anything, and runs
//! for the player go before figures for plots. Cancel stops the worker itself
//! (a run cannot be interrupted from outside) and starts a fresh one.

mod hooks;
pub mod serve;

pub use hooks::{ask, use_request, use_run, use_summaries, Answer, Asking, Figures};
pub use serve::serve;

use slowpath_engine::run::params::ParamValues;
use slowpath_engine::run::trace::Run;
use slowpath_engine::run::wire::{self, Assembler, Detail, Request, Summary};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::Callback;

/// What a caller hears back about its request.
#[derive(Clone)]
enum Reply {
    /// The run has reached this simulated time.
    Progress {
        simulated_ns: u64,
    },
    Run(Rc<Run>),
    Summary(Rc<Summary>),
    Failed(String),
}

/// The inputs of a run: what a request names.
#[derive(Clone, Debug, PartialEq)]
pub struct RunKey {
    pub case: &'static str,
    pub variant: &'static str,
    pub seed: u64,
    pub params: ParamValues,
}

struct Job {
    id: u32,
    key: RunKey,
    detail: Detail,
    callback: Callback<Reply>,
    started_ms: f64,
}

/// Where the reply to the request in flight is being put together.
enum Reading {
    Run(Box<Assembler>),
    /// The case asked of, whose tables read the figures, and the figures once read.
    Summary(&'static dyn slowpath_engine::Case, Option<Summary>),
}

struct Client {
    /// None where workers cannot start (then runs happen here, one per task).
    worker: Option<web_sys::Worker>,
    ready: bool,
    queue: VecDeque<Job>,
    in_flight: Option<(Job, Reading)>,
    next_id: u32,
    _listeners: Vec<Closure<dyn FnMut(web_sys::MessageEvent)>>,
}

thread_local! {
    static CLIENT: RefCell<Option<Client>> = const { RefCell::new(None) };
}

/// Keeps a request alive: dropping it withdraws the request (a run already in
/// the worker finishes there, and its reply is ignored).
pub struct Ticket(u32);

impl Drop for Ticket {
    fn drop(&mut self) {
        let id = self.0;
        with_client(|client| {
            client.queue.retain(|job| job.id != id);
            if let Some((job, _)) = client.in_flight.as_mut() {
                if job.id == id {
                    job.callback = Callback::noop();
                }
            }
        });
    }
}

impl Ticket {
    /// Cancels this request: withdrawn if still queued, the worker stopped (and a
    /// fresh one started) if it is being run; its caller hears `Failed("cancelled")`.
    pub fn cancel(&self) {
        let id = self.0;
        let cancelled = with_client(|client| {
            if let Some(at) = client.queue.iter().position(|job| job.id == id) {
                return client.queue.remove(at);
            }
            if client.in_flight.as_ref().is_some_and(|(job, _)| job.id == id) {
                let job = client.in_flight.take().map(|(job, _)| job);
                restart_worker(client);
                return job;
            }
            None
        });
        if let Some(job) = cancelled {
            job.callback.emit(Reply::Failed("cancelled".to_string()));
        }
        pump();
    }
}

/// Asks for a run (`Detail::Run`) or its figures (`Detail::Summary`); `callback`
/// hears progress and then one final reply, always later (never inside this call).
fn request(key: RunKey, detail: Detail, callback: Callback<Reply>) -> Ticket {
    let id = with_client(|client| {
        client.next_id = client.next_id.wrapping_add(1).max(1);
        let id = client.next_id;
        let job = Job { id, key, detail, callback, started_ms: crate::perf::now_ms() };
        // Runs for the player go first: someone is looking at a progress bar.
        match detail {
            Detail::Run => {
                let at = client.queue.iter().position(|job| job.detail == Detail::Summary);
                client.queue.insert(at.unwrap_or(client.queue.len()), job);
            }
            Detail::Summary => client.queue.push_back(job),
        }
        id
    });
    pump();
    Ticket(id)
}

/// Stops whatever run is in flight (the worker is stopped and a fresh one
/// started); its caller hears `Failed("cancelled")`. Queued requests go on.
fn cancel_in_flight() {
    let cancelled = with_client(|client| {
        let job = client.in_flight.take().map(|(job, _)| job);
        restart_worker(client);
        job
    });
    if let Some(job) = cancelled {
        job.callback.emit(Reply::Failed("cancelled".to_string()));
    }
    pump();
}

/// Stops the worker (a run cannot be interrupted from outside) and starts a fresh one.
fn restart_worker(client: &mut Client) {
    if let Some(worker) = client.worker.take() {
        worker.terminate();
        client._listeners.clear();
        client.ready = false;
        start_worker(client);
    }
}

fn with_client<R>(f: impl FnOnce(&mut Client) -> R) -> R {
    CLIENT.with(|cell| {
        let mut slot = cell.borrow_mut();
        let client = slot.get_or_insert_with(|| {
            let mut client = Client {
                worker: None,
                ready: false,
                queue: VecDeque::new(),
                in_flight: None,
                next_id: 0,
                _listeners: Vec::new(),
            };
            start_worker(&mut client);
            client
        });
        f(client)
    })
}

/// The worker script's address, from the page (`<meta name="slowpath-engine-worker">`).
fn worker_url() -> Option<String> {
    let document = web_sys::window()?.document()?;
    let meta = document.query_selector("meta[name=slowpath-engine-worker]").ok()??;
    meta.get_attribute("content")
}

fn start_worker(client: &mut Client) {
    let Some(url) = worker_url() else { return };
    let options = web_sys::WorkerOptions::new();
    options.set_type(web_sys::WorkerType::Module);
    let Ok(worker) = web_sys::Worker::new_with_options(&url, &options) else { return };
    let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(|event: web_sys::MessageEvent| {
        on_message(event.data());
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // A worker that fails to load or traps: fail the request in flight, start afresh.
    let on_error = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(|_event: web_sys::MessageEvent| {
        on_worker_lost("the engine's worker stopped unexpectedly".to_string());
    });
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    // The page's compiled module, so that the worker does not compile the wasm again
    // (the worker script waits for it; see xtask's html.rs).
    let handoff = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&handoff, &"module".into(), &wasm_bindgen::module());
    let _ = worker.post_message(&handoff);
    client._listeners = vec![on_message, on_error];
    client.worker = Some(worker);
}

fn on_worker_lost(message: String) {
    let lost = with_client(|client| client.in_flight.take().map(|(job, _)| job));
    if let Some(job) = lost {
        job.callback.emit(Reply::Failed(message));
    }
    cancel_in_flight();
}

fn field(data: &JsValue, name: &str) -> JsValue {
    js_sys::Reflect::get(data, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
}

/// One message from the worker. Replies to a request that is no longer in flight
/// (cancelled, withdrawn) are ignored.
fn on_message(data: JsValue) {
    let kind = field(&data, "kind").as_string().unwrap_or_default();
    let id = field(&data, "id").as_f64().unwrap_or(0.0) as u32;
    if kind == "ready" {
        with_client(|client| client.ready = true);
        pump();
        return;
    }
    if kind == "panic" {
        let message = field(&data, "message").as_string().unwrap_or_default();
        crate::panic::report(&format!("in the engine's worker: {message}"));
        return;
    }
    let mut emit: Vec<(Callback<Reply>, Reply)> = Vec::new();
    let finished = with_client(|client| {
        let Some((job, reading)) = client.in_flight.as_mut() else { return false };
        if job.id != id {
            return false;
        }
        match kind.as_str() {
            "progress" => {
                let simulated_ns = field(&data, "ns").as_f64().unwrap_or(0.0) as u64;
                emit.push((job.callback.clone(), Reply::Progress { simulated_ns }));
                false
            }
            "part" => {
                let bytes = js_sys::Uint8Array::new(&field(&data, "bytes")).to_vec();
                let started = crate::perf::now_ms();
                let read = match reading {
                    Reading::Run(assembler) => assembler.push(&bytes),
                    Reading::Summary(case, summary) => {
                        wire::decode_summary(*case, &bytes).map(|read| *summary = Some(read))
                    }
                };
                crate::perf::record_max("__slowpathDecodeMs", job.key.case, crate::perf::now_ms() - started);
                if let Err(error) = read {
                    emit.push((job.callback.clone(), Reply::Failed(error)));
                    return true;
                }
                false
            }
            "done" => {
                let (job, reading) = client.in_flight.take().expect("in flight");
                crate::perf::record("__slowpathRunMs", job.key.case, crate::perf::now_ms() - job.started_ms);
                let reply = match reading {
                    Reading::Run(assembler) => assembler.finish().map(|run| Reply::Run(Rc::new(run))),
                    Reading::Summary(_, summary) => {
                        summary.map(|s| Reply::Summary(Rc::new(s))).ok_or_else(|| "no figures".to_string())
                    }
                };
                emit.push((job.callback, reply.unwrap_or_else(Reply::Failed)));
                true
            }
            _ => {
                let message = field(&data, "message").as_string().unwrap_or_else(|| kind.clone());
                emit.push((job.callback.clone(), Reply::Failed(message)));
                true
            }
        }
    });
    if finished {
        with_client(|client| {
            if client.in_flight.as_ref().is_some_and(|(job, _)| job.id == id) {
                client.in_flight = None;
            }
        });
    }
    for (callback, reply) in emit {
        if matches!(reply, Reply::Run(_)) {
            // Assembling a big run takes a task of its own: drawing it waits for the next
            // one, so that the two never add up to one long freeze (issue 14).
            gloo::timers::callback::Timeout::new(0, move || callback.emit(reply)).forget();
        } else {
            callback.emit(reply);
        }
    }
    if finished {
        pump();
    }
}

/// Sends the next request when the worker is free.
fn pump() {
    enum Next {
        Nothing,
        Sent,
        Here(Job),
    }
    let next = with_client(|client| {
        if client.in_flight.is_some() {
            return Next::Nothing;
        }
        if client.worker.is_some() && !client.ready {
            return Next::Nothing;
        }
        let Some(job) = client.queue.pop_front() else { return Next::Nothing };
        match &client.worker {
            Some(worker) => {
                let key = &job.key;
                // An unknown case is answered here, by `run_here`, as every failure is.
                let Some(case) = slowpath_engine::simulation(key.case) else { return Next::Here(job) };
                let request = Request::new(job.id, key.case, key.variant, key.seed, &key.params, job.detail);
                let bytes = js_sys::Uint8Array::from(request.to_bytes().as_slice());
                let message = js_sys::Object::new();
                let _ = js_sys::Reflect::set(&message, &"request".into(), &bytes);
                let reading = match job.detail {
                    Detail::Run => Reading::Run(Box::new(Assembler::new(case))),
                    Detail::Summary => Reading::Summary(case, None),
                };
                if worker.post_message(&message).is_err() {
                    return Next::Here(job);
                }
                client.in_flight = Some((job, reading));
                Next::Sent
            }
            None => Next::Here(job),
        }
    });
    if let Next::Here(job) = next {
        // No worker (an old browser, a page without the worker's address): run
        // here, one request per task, so the page at least paints in between.
        gloo::timers::callback::Timeout::new(0, move || {
            let reply = run_here(&job.key, job.detail);
            job.callback.emit(reply);
            pump();
        })
        .forget();
    }
}

/// Makes a run on this thread (no worker): the same reply, by the same code.
fn run_here(key: &RunKey, detail: Detail) -> Reply {
    let Some(case) = slowpath_engine::simulation(key.case) else {
        return Reply::Failed("no such case".into());
    };
    match slowpath_engine::run_checked(case, &key.params, key.variant, key.seed) {
        Err(error) => Reply::Failed(error.to_string()),
        Ok(run) => match detail {
            Detail::Run => Reply::Run(Rc::new(run)),
            Detail::Summary => match wire::decode_summary(case, &wire::encode_summary(case, &run)) {
                Ok(summary) => Reply::Summary(Rc::new(summary)),
                Err(error) => Reply::Failed(error),
            },
        },
    }
}
