//! The stage at the cursor, drawn from the view's tasks, gauges, locks and
//! counters (everything the engine recorded) and the run's extras.

use super::heat::{HeatStrip, Kind as HeatKind};
use slowpath_engine::cases::coredump_threads::machine::{gauge, sig, Doing};
use slowpath_engine::cases::coredump_threads::CoredumpCase;
use slowpath_engine::run::format::duration as format_duration;
use slowpath_engine::run::narration::group_digits;
use slowpath_engine::run::view::{TaskView, View};
use slowpath_engine::run::world::TaskState;
use slowpath_engine::Run;
use std::rc::Rc;
use yew::prelude::*;

pub use crate::cases::StageProps;

/// Above this many threads the cards become a heat strip.
const CARDS_UP_TO: usize = 64;

fn g(task: &TaskView, id: u8) -> i64 {
    task.gauges.get(usize::from(id)).copied().unwrap_or(0)
}

fn counter(view: &View, name: &str) -> u64 {
    view.counters.iter().find(|(key, _)| key == name).map_or(0, |(_, value)| *value)
}

/// A task's `doing` gauge is this engine state.
fn is(task: &TaskView, doing: Doing) -> bool {
    g(task, gauge::DOING) == doing as i64
}

/// What a thread is doing, in the stage's words and CSS class.
pub(super) fn doing(task: &TaskView) -> (&'static str, &'static str) {
    match task.state {
        TaskState::Dead => ("dead", "dead"),
        TaskState::New => ("not created", "new"),
        TaskState::Stopped => ("stopped", "stopped"),
        TaskState::Sleeping { .. } => ("asleep", "asleep"),
        TaskState::BlockedOnLock { .. } if is(task, Doing::BlockedExit) => {
            ("asleep on mmap_sem: exit_mm", "blocked")
        }
        TaskState::BlockedOnLock { .. } => ("asleep on mmap_sem: a 2nd dumper", "blocked"),
        TaskState::RunningUser { .. } | TaskState::RunningKernel { .. } => {
            if is(task, Doing::SignalLoop) {
                ("running: signal loop", "loop running")
            } else if is(task, Doing::Dumper) {
                ("running: dumper", "dumper running")
            } else if is(task, Doing::Exiting) {
                ("running: exiting", "exiting running")
            } else {
                ("running", "running")
            }
        }
        _ if is(task, Doing::SignalLoop) => ("runnable: in the signal loop", "loop"),
        _ if is(task, Doing::Dumper) => ("runnable: the dumper", "dumper"),
        _ => ("runnable", "runnable"),
    }
}

/// The heat strip's kind for a card's CSS class (`doing`).
pub(super) fn heat_kind(class: &str) -> HeatKind {
    match class {
        "loop running" | "dumper running" | "exiting running" | "running" => HeatKind::Running,
        "loop" => HeatKind::Loop,
        "dumper" => HeatKind::Dumper,
        "runnable" => HeatKind::Runnable,
        "dead" | "new" => HeatKind::Dead,
        _ => HeatKind::Asleep,
    }
}

fn bonus(sleep_avg_ns: i64, max_ns: u64) -> i64 {
    if max_ns == 0 {
        return 0;
    }
    sleep_avg_ns.max(0) * 10 / max_ns as i64
}

#[function_component(ThreadsStage)]
pub fn threads_stage(props: &StageProps) -> Html {
    let Some(case) = props.run.extras::<CoredumpCase>() else { return html! {} };
    let view = &props.view;
    html! {
        <section class="panel stage cdt-stage" aria-labelledby="cdt-stage-title" data-testid="cdt-stage">
            // Named for assistive technology; on screen the boxes title themselves.
            <h2 id="cdt-stage-title" class="visually-hidden">{ "The process at this step" }</h2>
            // One CPU: the threads wait for the CPU, so its run queue leads and the
            // locks follow (mmap_sem, the one that queues, before siglock's line).
            if case.o1 && case.cpus <= 1 {
                { run_queue(view, case) }
            }
            <div class="cdt-top">
                { locks(view, case) }
                { signal_state(view, case) }
            </div>
            if case.o1 && case.cpus > 1 {
                { run_queue(view, case) }
            } else if !case.o1 {
                { cpus_today(view, case, &props.run) }
            }
            { threads(view, case) }
        </section>
    }
}

/// The `time` line beside the report's and why nobody spins on siglock: below
/// the stage, which must fit the first screen.
pub fn time_and_notes(run: &Run, view: &View) -> Html {
    let Some(case) = run.extras::<CoredumpCase>() else { return html! {} };
    html! {
        <section class="panel stage cdt-stage" aria-labelledby="cdt-time-title">
            <h2 id="cdt-time-title">{ "The report's time line, and siglock" }</h2>
            { time_line(view, case) }
            if case.cpus == 1 {
                <p class="cdt-note">
                    { "One CPU: a thread holding a spinlock cannot be preempted, so nobody ever spins on siglock here. \
                       The cost is the sheer number of acquisitions: every turn of every looping thread takes it." }
                </p>
            } else {
                <p class="cdt-note">
                    { format!("{} CPUs: a looping thread on each, every turn holding siglock for 3/5 of the turn. \
                               The lock is never free; the CPUs take it in the order they asked and spin meanwhile, \
                               with interrupts off: more sys time, no progress.", case.cpus) }
                </p>
            }
        </section>
    }
}

/// The process's two locks: siglock (contended only on two or more CPUs) and
/// mmap_sem, where the dumper holds the address space and SIGXCPU dumpers queue.
fn locks(view: &View, case: &CoredumpCase) -> Html {
    if case.cpus <= 1 {
        // One CPU: mmap_sem is the lock that queues; siglock's line comes second.
        return html! {
            <div class="cdt-lock" data-testid="cdt-siglock">
                { mmap_sem(view, true) }
                { siglock(view, case) }
            </div>
        };
    }
    html! {
        <div class="cdt-lock" data-testid="cdt-siglock">
            { siglock(view, case) }
            { mmap_sem(view, false) }
        </div>
    }
}

fn task_name(view: &View, task: slowpath_engine::run::world::TaskId) -> String {
    view.tasks.get(task.0 as usize).map_or_else(|| format!("#{}", task.0), |t| t.name.clone())
}

fn siglock(view: &View, case: &CoredumpCase) -> Html {
    let Some(lock) = view.locks.iter().find(|l| l.name == "sighand->siglock") else { return html! {} };
    if case.cpus <= 1 {
        // One CPU: a spinlock holder cannot be preempted, so nobody queues here; say so
        // in a line and leave the room to the run queue, where the threads do wait.
        return html! {
            <>
                <p class="cdt-holder cdt-siglock-line" data-testid="cdt-siglock-line">
                    <strong>{ "sighand->siglock" }</strong>{ ": taken " }
                    <strong data-testid="cdt-acquisitions">{ group_digits(lock.stats.acquisitions) }</strong>
                    { " times, never waited for: a spinlock's holder is not preempted on one CPU, so nobody queues here." }
                </p>
            </>
        };
    }
    let cpu = |id: slowpath_engine::run::world::TaskId| {
        view.tasks
            .get(id.0 as usize)
            .and_then(|t| t.state.cpu())
            .map_or(String::new(), |c| format!(" (CPU {c})"))
    };
    let holder = lock.holders.first().map(|h| format!("{}{}", task_name(view, h.task), cpu(h.task)));
    // Wait bars against the longest wait so far (at least one ns, so nothing divides by zero).
    let scale = lock.stats.wait_max_ns.max(1);
    html! {
        <>
            <h3>{ "sighand->siglock" }</h3>
            <p class="cdt-holder">
                { "holder: " }
                <strong data-testid="cdt-siglock-holder">{ holder.unwrap_or_else(|| "free".to_string()) }</strong>
            </p>
            <p>{ "spinners queued, in order: " }<strong data-testid="cdt-spinners">{ lock.waiters.len() }</strong></p>
            if !lock.waiters.is_empty() {
                <ol class="cdt-spinners">
                    { lock.waiters.iter().map(|w| {
                        let waited = view.now_ns.saturating_sub(w.since_ns);
                        let pct = (waited * 100 / scale).min(100);
                        html! {
                            <li class="cdt-waiter">
                                { format!("{}{} ", task_name(view, w.task), cpu(w.task)) }
                                <span class="cdt-waitbar" style={format!("width:{pct}%")}></span>
                                { format!(" spinning for {}", format_duration(waited)) }
                            </li>
                        }
                    }).collect::<Html>() }
                </ol>
            }
            <dl class="cdt-stats">
                <dt>{ "acquisitions" }</dt><dd data-testid="cdt-acquisitions">{ group_digits(lock.stats.acquisitions) }</dd>
                <dt>{ "contended" }</dt><dd data-testid="cdt-contended">{ group_digits(lock.stats.contended) }</dd>
                <dt>{ "wait (total / max)" }</dt>
                <dd>{ format!("{} / {}", format_duration(lock.stats.wait_total_ns), format_duration(lock.stats.wait_max_ns)) }</dd>
            </dl>
        </>
    }
}

/// mmap_sem: who holds it, and the threads asleep on it in arrival order, each with
/// when it came and why (the signal it dequeued).
fn mmap_sem(view: &View, the_queueing_lock: bool) -> Html {
    // mmap_sem in 2005's runs, mmap_lock (its name since v5.8) in today's.
    let Some(mmap) = view.locks.iter().find(|l| l.name == "mm->mmap_sem" || l.name == "mm->mmap_lock") else {
        return html! {};
    };
    let holder = mmap.holders.first().map_or_else(
        || "free".to_string(),
        |h| {
            let how =
                if h.mode == slowpath_engine::run::lock::LockMode::Write { "writing" } else { "reading" };
            format!("held for {how} by {}", task_name(view, h.task))
        },
    );
    html! {
        <div class="cdt-mmap" data-testid="cdt-mmap">
            <h3>
                { mmap.name.clone() }
                if the_queueing_lock { { ": the lock that does queue" } }
            </h3>
            <p><strong data-testid="cdt-mmap-holder">{ holder }</strong></p>
            if !mmap.waiters.is_empty() {
                <p>{ format!("{} asleep on it in order, off the run queue (TASK_UNINTERRUPTIBLE), {}:", mmap.waiters.len(),
                             if mmap.waiters.iter().all(|w| w.mode == slowpath_engine::run::lock::LockMode::Write) {
                                 "each in do_coredump's down_write after taking a core-dump signal"
                             } else {
                                 "in do_coredump's down_write (a core-dump signal) or exit_mm's down_read (another fatal one)"
                             }) }</p>
                <ol class="cdt-queue" data-testid="cdt-mmap-queue">
                    { mmap.waiters.iter().map(|w| {
                        let signo = view.tasks.get(w.task.0 as usize).map_or(0, |t| g(t, gauge::DEQUEUED)) as u32;
                        let (call, short) = if w.mode == slowpath_engine::run::lock::LockMode::Write {
                            ("do_coredump's down_write", "")
                        } else {
                            ("exit_mm's down_read", ", exit_mm")
                        };
                        let name = task_name(view, w.task);
                        let title = format!("{name} took {} at {} and sleeps in {call}, waiting {} so far",
                                            sig::name(signo), format_duration(w.since_ns),
                                            format_duration(view.now_ns.saturating_sub(w.since_ns)));
                        html! {
                            <li class="cdt-qchip" {title}>
                                <strong>{ name }</strong>
                                { format!(" {}: {}{short}", format_duration(w.since_ns), sig::name(signo)) }
                            </li>
                        }
                    }).collect::<Html>() }
                </ol>
            }
        </div>
    }
}

fn signal_state(view: &View, case: &CoredumpCase) -> Html {
    let pending =
        view.tasks.iter().filter(|t| g(t, gauge::SIGPENDING) != 0 && t.state != TaskState::Dead).count();
    let mut shared: Vec<&str> = Vec::new();
    if counter(view, "shared_pending") > 0 {
        shared.push(case.signal);
    }
    if counter(view, "shared_pending_SIGXCPU") > 0 {
        shared.push("SIGXCPU");
    }
    html! {
        <div class="cdt-signal" data-testid="cdt-signal">
            <h3>{ "Signal state" }</h3>
            <dl class="cdt-stats">
                <dt>{ "shared pending" }</dt>
                <dd data-testid="cdt-shared-pending">{ if shared.is_empty() { "∅".to_string() } else { shared.join(", ") } }</dd>
                <dt>{ "group_stop_count" }</dt>
                <dd data-testid="cdt-group-stop">{ counter(view, "group_stop_count") }</dd>
                <dt>{ "SIGNAL_GROUP_EXIT" }</dt>
                <dd>{ if counter(view, "SIGNAL_GROUP_EXIT") > 0 { "set" } else { "clear" } }</dd>
                <dt>{ "TIF_SIGPENDING" }</dt>
                <dd>{ slowpath_engine::run::narration::counted(pending as u64, "thread", "threads") }</dd>
                <dt>{ "core_waiters" }</dt>
                <dd>{ counter(view, "core_waiters") }</dd>
                // The 2005 loop in get_signal_to_deliver; today's threads do not turn in it.
                if case.o1 {
                    <dt>{ "loop turns" }</dt>
                    <dd>{ group_digits(counter(view, "group_stop_loops")) }</dd>
                }
                { cpu_clock(view, case) }
            </dl>
        </div>
    }
}

/// The process CPU clock beside the soft RLIMIT_CPU, and the SIGXCPUs sent so far.
fn cpu_clock(view: &View, case: &CoredumpCase) -> Html {
    let Some(_) = case.rlimit_cpu_s else {
        return html! { <><dt>{ "RLIMIT_CPU" }</dt><dd>{ "none" }</dd></> };
    };
    let used: u64 = view.tasks.iter().map(|t| t.user_ns + t.sys_ns).sum();
    let limit_s = counter(view, "rlimit_cpu_cur_s");
    let limit = if limit_s == 0 { "not set yet".to_string() } else { format!("{limit_s} s") };
    html! {
        <>
            <dt>{ "CPU time / RLIMIT_CPU" }</dt>
            <dd data-testid="cdt-cpu-clock">{ format!("{} / {limit}", format_duration(used)) }</dd>
            <dt>{ "SIGXCPU sent" }</dt>
            <dd data-testid="cdt-sigxcpu-sent">{ counter(view, "SIGXCPU_sent") }</dd>
        </>
    }
}

/// `rq->expired_timestamp` of one CPU, the EXPIRED_STARVING threshold for the run
/// queue as it is now, and how far the deadline is.
fn starvation_clock(view: &View, case: &CoredumpCase, cpu: u32, nr_running: u64) -> Html {
    let since = counter(view, &format!("cpu{cpu}_expired_timestamp_ns"));
    if since == 0 {
        return html! {
            <p class="cdt-starve" data-testid="cdt-starvation">
                { "Starvation clock: not running (no slice has expired since the last array swap)." }
            </p>
        };
    }
    let threshold = case.max_sleep_avg_ns * nr_running + case.tick_ns;
    let deadline = since + threshold;
    let elapsed = view.now_ns.saturating_sub(since);
    let pct = (elapsed * 100 / threshold.max(1)).min(100);
    let status = if view.now_ns >= deadline {
        "EXPIRED_STARVING holds: every slice that ends now goes to the expired array".to_string()
    } else {
        format!(
            "fires at {} ({} from now)",
            format_duration(deadline),
            format_duration(deadline - view.now_ns)
        )
    };
    html! {
        <p class="cdt-starve" data-testid="cdt-starvation">
            { format!("Starvation clock: expired_timestamp {} · threshold STARVATION_LIMIT × nr_running {nr_running} + 1 jiffy = {} · ",
                      format_duration(since), format_duration(threshold)) }
            <span class="cdt-starvebar"><span style={format!("width:{pct}%")}></span></span>
            <strong>{ format!(" {status}") }</strong>
        </p>
    }
}

fn run_queue(view: &View, case: &CoredumpCase) -> Html {
    if case.cpus <= 1 {
        return cpu_queue(view, case, 0);
    }
    // Several CPUs: one box, a row per CPU, so that four run queues take four rows
    // of the first screen, not four boxes.
    html! {
        <div class="cdt-rq cdt-rq-multi">
            <h3>{ "The O(1) run queues, one per CPU (by priority, best first)" }</h3>
            { for (0..case.cpus).map(|cpu| cpu_queue(view, case, cpu)) }
        </div>
    }
}

/// One CPU's run queue: the tasks whose `cpu` gauge names it.
fn cpu_queue(view: &View, case: &CoredumpCase, cpu: u32) -> Html {
    let here = |t: &&TaskView| g(t, gauge::CPU) == i64::from(cpu);
    let mut active: Vec<&TaskView> =
        view.tasks.iter().filter(|t| g(t, gauge::ARRAY) == 1).filter(here).collect();
    let mut expired: Vec<&TaskView> =
        view.tasks.iter().filter(|t| g(t, gauge::ARRAY) == 2).filter(here).collect();
    // CPU 0 keeps the plain test ids; the others are suffixed.
    let suffix = if cpu == 0 { String::new() } else { format!("-cpu{cpu}") };
    let order = |t: &&TaskView| (g(t, gauge::PRIO), g(t, gauge::SEQ));
    slowpath_engine::run::sort::sort_by_key(&mut active, order);
    slowpath_engine::run::sort::sort_by_key(&mut expired, order);
    let array = |title: &str, tasks: &[&TaskView], testid: &str| {
        let mut rows: Vec<(i64, Vec<&TaskView>)> = Vec::new();
        for t in tasks {
            let prio = g(t, gauge::PRIO);
            match rows.last_mut() {
                Some((p, list)) if *p == prio => list.push(t),
                _ => rows.push((prio, vec![t])),
            }
        }
        html! {
            <div class="cdt-array" data-testid={testid.to_string()}>
                <h4>{ format!("{title}: {}", tasks.len()) }</h4>
                if rows.is_empty() { <p class="cdt-empty">{ "empty" }</p> }
                { rows.into_iter().map(|(prio, list)| html! {
                    <div class="cdt-prio">
                        <span class="cdt-prio-label">{ prio }</span>
                        { list.iter().take(48).map(|t| {
                            let main = is(t, Doing::Dumper);
                            let running = t.state.cpu().is_some();
                            let class = classes!("cdt-chip", main.then_some("main"), running.then_some("on-cpu"));
                            html! { <span class={class} title={t.name.clone()}>{ t.name.clone() }</span> }
                        }).collect::<Html>() }
                        if list.len() > 48 { <span class="cdt-more">{ format!("+{}", list.len() - 48) }</span> }
                    </div>
                }).collect::<Html>() }
            </div>
        }
    };
    let parked = expired.iter().any(|t| is(t, Doing::Dumper)) && case.yield_ns.is_some();
    let nr_running = (active.len() + expired.len()) as u64;
    html! {
        <div class={if case.cpus == 1 { "cdt-rq" } else { "cdt-cpu-row" }} data-testid={format!("cdt-runqueue{suffix}")}>
            if case.cpus == 1 {
                <h3>{ "The O(1) run queue (by priority, best first)" }</h3>
                <p class="cdt-lead" data-testid="cdt-one-cpu">
                    { "One CPU: the threads wait here, for the CPU, not for a lock." }
                </p>
            } else {
                <span class="cdt-cpu-label">{ format!("CPU {cpu}") }</span>
            }
            <div class="cdt-arrays">
                { array("active", &active, &format!("rq-active{suffix}")) }
                { array("expired", &expired, &format!("rq-expired{suffix}")) }
            </div>
            if parked {
                <p class="cdt-callout" data-testid="cdt-parked">
                    { format!("The dumper called yield() in coredump_wait: it sits in the expired array and runs only when the active array is empty. \
                               {} ahead of it{}.", slowpath_engine::run::narration::counted(active.len() as u64, "thread is", "threads are"), if case.cpus > 1 { " on this CPU" } else { "" }) }
                </p>
            }
            if case.o1 { { starvation_clock(view, case, cpu, nr_running) } }
        </div>
    }
}

/// Today's run has no O(1) arrays to draw: who is on each CPU, how many threads
/// wait for one, and the model's reading of EEVDF for the woken dumper.
fn cpus_today(view: &View, case: &CoredumpCase, run: &slowpath_engine::Run) -> Html {
    let count = |state: fn(&TaskState) -> bool| view.tasks.iter().filter(|t| state(&t.state)).count();
    let runnable = count(|s| matches!(s, TaskState::Runnable));
    let dead = count(|s| matches!(s, TaskState::Dead));
    let asleep = view.tasks.len() - runnable - dead - count(|s| s.cpu().is_some());
    let metric_ns = |name: &str| match run.metrics.get(name) {
        Some(slowpath_engine::run::trace::Metric::Ns(ns)) => Some(*ns),
        _ => None,
    };
    let ahead = match run.metrics.get("spinners_ahead") {
        Some(slowpath_engine::run::trace::Metric::Count(n)) => *n,
        _ => 0,
    };
    html! {
        <div class="cdt-rq" data-testid="cdt-cpus-today">
            <h3>{ "Who runs (Linux 6.18, EEVDF)" }</h3>
            <ul class="cdt-today-cpus">
                { for (0..case.cpus.clamp(1, u32::from(u16::MAX)) as u16).map(|cpu| {
                    let on = view.tasks.iter().find(|t| t.state.cpu() == Some(cpu));
                    html! {
                        <li>
                            { format!("CPU {cpu}: ") }
                            <strong>{ on.map_or_else(|| "idle".to_string(), |t| t.name.clone()) }</strong>
                        </li>
                    }
                }) }
            </ul>
            <p data-testid="cdt-today-counts">
                { format!("waiting for a CPU: {} · asleep: {} · exited: {}", group_digits(runnable as u64),
                          group_digits(asleep as u64), group_digits(dead as u64)) }
            </p>
            <p class="cdt-note">
                if case.spin {
                    { format!("Model choice: today's scheduler is not stepped tick by tick. Woken to finish the dump, \
                               main waits while {} with earlier deadlines each run a slice of {} \
                               before it: {}.", slowpath_engine::run::narration::counted(ahead, "spinning thread", "spinning threads"), format_duration(case.slice_ns),
                               format_duration(metric_ns("wait_for_cpu_ns").unwrap_or(0))) }
                } else {
                    { "The threads sleep in pause(): every CPU is idle when main is woken, so it runs at once." }
                }
            </p>
        </div>
    }
}

fn threads(view: &Rc<View>, case: &CoredumpCase) -> Html {
    let threads: Vec<&TaskView> = view.tasks.iter().collect();
    if threads.len() > CARDS_UP_TO {
        // Kinds only: the strip reads a thread's name from the view when it is hovered,
        // so a step of a 4,096-thread run copies no names.
        let kinds: Vec<HeatKind> = threads.iter().map(|t| heat_kind(doing(t).1)).collect();
        return html! { <HeatStrip view={view.clone()} {kinds} /> };
    }
    html! {
        <>
        <p class="cdt-legend">
            <span class="cdt-badge sig">{ "SIG" }</span>{ " TIF_SIGPENDING set · " }
            if case.o1 {
                <span class="cdt-badge inter">{ "i" }</span>{ " interactive (TASK_INTERACTIVE) · priorities in the run queue above · " }
            }
            { "bar: user " }
            <span class="cdt-key user"></span>{ " and sys " }<span class="cdt-key sys"></span>{ " time" }
        </p>
        <div class="cdt-cards" data-testid="cdt-threads">
            { threads.iter().map(|t| {
                let (word, class) = doing(t);
                let total = (t.user_ns + t.sys_ns).max(1);
                // A thread that has not run yet has no time to split: an empty bar.
                let (user_pct, sys_pct) = if t.user_ns + t.sys_ns == 0 {
                    (0, 0)
                } else {
                    let user_pct = t.user_ns * 100 / total;
                    (user_pct, 100 - user_pct)
                };
                let sleep_avg = g(t, gauge::SLEEP_AVG);
                let b = bonus(sleep_avg, case.max_sleep_avg_ns);
                let interactive = case.o1
                    && slowpath_engine::kernel::sched::o1::task_interactive(g(t, gauge::PRIO) as i32, case.static_prio)
                    && t.state != TaskState::Dead
                    && t.state != TaskState::New;
                html! {
                    <div class={classes!("cdt-card", class)} title={case.o1.then(|| format!("prio {} · sleep bonus {b}", g(t, gauge::PRIO)))}>
                        <div class="cdt-card-head">
                            <strong>{ t.name.clone() }</strong>
                            if g(t, gauge::SIGPENDING) != 0 && t.state != TaskState::Dead { <span class="cdt-badge sig" title="TIF_SIGPENDING">{ "SIG" }</span> }
                            if interactive { <span class="cdt-badge inter" title="TASK_INTERACTIVE">{ "i" }</span> }
                            // A thread not yet created, or dead, is on no run queue.
                            if case.cpus > 1 && t.state != TaskState::New && t.state != TaskState::Dead { <span class="cdt-badge cpu" title="the CPU whose run queue holds it">{ format!("CPU{}", g(t, gauge::CPU)) }</span> }
                        </div>
                        <div class="cdt-state">{ word }</div>
                        <div class="cdt-bar" title={format!("user {} · sys {}", format_duration(t.user_ns), format_duration(t.sys_ns))}>
                            <span class="user" style={format!("width:{user_pct}%")}></span>
                            <span class="sys" style={format!("width:{sys_pct}%")}></span>
                        </div>
                    </div>
                }
            }).collect::<Html>() }
        </div>
        </>
    }
}

fn seconds(ns: u64) -> String {
    format!(
        "{}m{}s",
        ns / 60_000_000_000,
        slowpath_engine::run::format::Fixed((ns % 60_000_000_000) as f64 / 1e9, 3)
    )
}

fn time_line(view: &View, case: &CoredumpCase) -> Html {
    let user: u64 = view.tasks.iter().map(|t| t.user_ns).sum();
    let sys: u64 = view.tasks.iter().map(|t| t.sys_ns).sum();
    html! {
        <div class="cdt-time" data-testid="cdt-time">
            <h3>{ "time ./thread_share_RLIMIT_CPU 5 …" }</h3>
            <table>
                <thead><tr><th><span class="visually-hidden">{ "time" }</span></th><th>{ "this run (at the end)" }</th><th>{ "so far" }</th><th>{ "the report" }</th></tr></thead>
                <tbody>
                    <tr><th>{ "real" }</th><td>{ seconds(case.real_ns) }</td><td>{ seconds(view.now_ns) }</td><td>{ case.reported_real }</td></tr>
                    <tr><th>{ "user" }</th><td>{ seconds(case.user_ns) }</td><td>{ seconds(user) }</td><td>{ case.reported_user }</td></tr>
                    <tr><th>{ "sys" }</th><td>{ seconds(case.sys_ns) }</td><td>{ seconds(sys) }</td><td>{ case.reported_sys }</td></tr>
                </tbody>
            </table>
            <p>{ format!("{} sent at {}; the last thread gone {} later.", case.signal, format_duration(case.signal_ns), format_duration(case.last_exit_ns.saturating_sub(case.signal_ns))) }</p>
            { why_this_long(case) }
        </div>
    }
}

/// Why the stall lasted as long as it did, from the run's own turning points: the
/// starvation deadline, and the SIGXCPU dumpers that brought it closer.
fn why_this_long(case: &CoredumpCase) -> Html {
    let (Some(yield_ns), Some(starving_ns)) = (case.yield_ns, case.starving_ns) else { return html! {} };
    let limit = format_duration(case.max_sleep_avg_ns);
    let xcpu = match (case.rlimit_cpu_s, case.sigxcpu_ns.first()) {
        (Some(limit_s), Some(&first)) => format!(
            " With RLIMIT_CPU = {limit_s} s, SIGXCPU came {}, the first at {}: each was taken by a looping thread \
             that then slept on mmap_sem behind the dumper, off the run queue, so each brought the deadline {limit} closer \
             (so the stall grows by about half a second per thread, not a whole one).",
            slowpath_engine::run::narration::counted(case.sigxcpu_ns.len() as u64, "time", "times"),
            format_duration(first)
        ),
        (Some(limit_s), None) => format!(" The process never reached its RLIMIT_CPU of {limit_s} s during the stall."),
        (None, _) => " With no CPU limit nothing else shortens it: about one STARVATION_LIMIT per thread.".to_string(),
    };
    html! {
        <p class="cdt-note" data-testid="cdt-why">
            { format!("Why {}: the dumper yielded at {} and ran again only after EXPIRED_STARVING fired at {}: \
                       the expired array had waited STARVATION_LIMIT ({limit}) × nr_running + 1 jiffy since the first slice \
                       expired, so every slice that ended went to the expired array and the active one emptied.{xcpu}",
                      format_duration(case.last_exit_ns.saturating_sub(case.signal_ns)),
                      format_duration(yield_ns), format_duration(starving_ns)) }
        </p>
    }
}
