//! The defer demo: for each sender, the SignalHandlers locks it holds (a pile
//! that grows per matching group before the fix), its defer stack released
//! LIFO at return, who queues on what, and the wait-for cycle when there is
//! one (the simulator's view: the real sentry would hang silently).

use slowpath_engine::cases::gvisor_threadgroups::{SentryShape, EXT_MU_LOCK};
use slowpath_engine::run::format::duration as format_duration;
use slowpath_engine::run::lock::{LockKind, LockMode};
use slowpath_engine::run::narration::group_digits;
use slowpath_engine::run::trace::{OpKind, Outcome};
use slowpath_engine::run::view::{TaskView, View};
use slowpath_engine::run::world::TaskState;
use yew::prelude::*;

use crate::cases::StageProps as DeferProps;

/// Locks of a sender's pile drawn one per row, the most recent first; the rest
/// are counted in one row (and in one entry of the defer stack below), so that a
/// pile of a dozen thread groups does not push the stage off the first screen.
const PILE_SHOWN_MAX: usize = 4;

#[function_component(DeferStage)]
pub fn defer_stage(props: &DeferProps) -> Html {
    let Some(shape) = props.run.extras::<SentryShape>() else { return html! {} };
    if shape.senders == 0 {
        return html! {};
    }
    let view = &props.view;
    let senders: Vec<_> = view.tasks.iter().filter(|task| task.name.starts_with("sender")).collect();
    // Past the deadlock op (if any): the cycle is drawn.
    let deadlock_at = match &props.run.outcome {
        Outcome::Deadlock(_) => props
            .run
            .notable_ops()
            .iter()
            .copied()
            .find(|&index| props.run.op(index).is_some_and(|op| op.kind == OpKind::Deadlock)),
        _ => None,
    };
    let show_cycle = deadlock_at.is_some_and(|index| view.position > index);
    let cycle_len = match &props.run.outcome {
        Outcome::Deadlock(deadlock) => deadlock.cycle.len(),
        _ => 0,
    };
    let defer = !shape.tgids;
    let call =
        if shape.job_control { "ProcessGroup.SendSignal (job control)" } else { "SendContainerSignal" };
    let title = if defer {
        format!("{call}: defer inside the loop (before the fix)")
    } else {
        format!("{call}: unlock at the end of each iteration (the fix)")
    };
    html! {
        <section class="gv-defer" aria-label="SendContainerSignal's locks">
            <h3>{ title }</h3>
            <p class="gv-note">{ if defer {
                "Each matching thread group's SignalHandlers.mu is locked and its Unlock deferred: the pile grows per group and is released only at return, last locked first."
            } else {
                "Each SignalHandlers.mu is locked and unlocked within one iteration: never more than one held."
            } }</p>
            <div class="gv-piles">
                { for senders.iter().map(|sender| sender_pile(view, shape, sender, defer)) }
            </div>
            if show_cycle {
                { deadlock_cycle(shape, cycle_len) }
            }
            if show_cycle && shape.job_control {
                <Freeze run={props.run.clone()} view={props.view.clone()} />
            }
        </section>
    }
}

/// One sender: the SignalHandlers locks it holds (k.extMu is a mutex too, held for
/// the whole call, and is left out), its defer stack, and what it waits for.
fn sender_pile(view: &View, shape: &SentryShape, sender: &TaskView, defer: bool) -> Html {
    let mut held: Vec<(u64, String)> = view
        .locks
        .iter()
        .filter(|lock| lock.kind == LockKind::GoMutex && lock.name != EXT_MU_LOCK)
        .filter_map(|lock| {
            lock.holders
                .iter()
                .find(|holder| holder.task == sender.id)
                .map(|holder| (holder.since_ns, lock.name.clone()))
        })
        .collect();
    slowpath_engine::run::sort::sort_by(&mut held, |a, b| a.cmp(b));
    let waits = view.locks.iter().find(|lock| lock.waiters.iter().any(|waiter| waiter.task == sender.id));
    // Kernel.Pause or Unpause: the only time a sender holds TaskSet.mu for writing.
    let pausing = view.locks.first().is_some_and(|lock| {
        lock.holders.iter().any(|holder| holder.task == sender.id && holder.mode == LockMode::Write)
    });
    let state = match sender.state {
        TaskState::BlockedOnLock { .. } => "blocked",
        TaskState::RunningKernel { .. } => "running",
        _ => "idle",
    };
    html! {
        <div class={classes!("gv-pile", (state == "blocked").then_some("gv-blocked"))} data-testid="gv-pile">
            <h4>{ format!("{} ({state})", sender.name) }</h4>
            <ol class="gv-stack" reversed=true>
                { for held.iter().rev().take(PILE_SHOWN_MAX).map(|(_, name)| html! {
                    <li class="gv-held-lock">{ name.clone() }{ if defer { " · defer Unlock" } else { "" } }</li>
                }) }
                if held.len() > PILE_SHOWN_MAX {
                    <li class="gv-held-more" data-testid="gv-held-more">
                        { format!("… and {} more, locked earlier", held.len() - PILE_SHOWN_MAX) }
                    </li>
                }
            </ol>
            if pausing {
                <p class="gv-pause" data-testid="gv-pause">{ format!(
                    "Kernel.Pause/Unpause: holds TaskSet.mu for writing and walks all {} tasks ({} to stop them, {} to resume), fix or not",
                    group_digits(shape.total_tasks), format_duration(shape.pause_walk_ns), format_duration(shape.unpause_walk_ns)) }</p>
            }
            <p data-testid="gv-held-count">{ format!("locks held: {}", held.len()) }</p>
            <p class="gv-defers">{ format!("defer stack (runs at return, top first): {}", defer_stack(view, sender.id, &held, defer)) }</p>
            if let Some(lock) = waits {
                <p class="gv-waits">{ format!("waits for {} (queued {})", lock.name,
                    lock.waiters.iter().find(|waiter| waiter.task == sender.id).map(|waiter| format_duration(view.now_ns.saturating_sub(waiter.since_ns))).unwrap_or_default()) }</p>
            }
        </div>
    }
}

/// The wait-for cycle once the deadlock op has passed, drawn when it is one sender
/// waiting for a lock it holds, with what the real sentry would do instead.
fn deadlock_cycle(shape: &SentryShape, cycle_len: usize) -> Html {
    html! {
        <div class="gv-cycle" data-testid="gv-deadlock">
            <h4>{ "Wait-for cycle (the simulator's view)" }</h4>
            <p>{ shape.deadlock.clone().unwrap_or_default() }</p>
            if cycle_len == 1 {
            <svg viewBox="0 0 320 90" class="gv-cycle-svg" role="img" aria-label="a sender waits for a lock it holds">
                <rect x="10" y="30" width="110" height="30" rx="6" class="gv-node" />
                <text x="65" y="50" text-anchor="middle">{ "sender 1" }</text>
                <rect x="190" y="30" width="120" height="30" rx="6" class="gv-node" />
                <text x="250" y="50" text-anchor="middle">{ "SignalHandlers.mu" }</text>
                <path d="M120 38 C150 10, 170 10, 190 38" class="gv-edge" />
                <text x="155" y="14" text-anchor="middle">{ "waits for" }</text>
                <path d="M190 52 C170 80, 150 80, 120 52" class="gv-edge" />
                <text x="155" y="88" text-anchor="middle">{ "held by" }</text>
            </svg>
            }
            <p class="gv-note">{ if shape.job_control {
                "The real sentry would hang silently: Go reports a deadlock only when every goroutine sleeps. Nothing is paused here: the stuck senders keep TaskSet.mu for reading, so the next clone or exit waits for good, and every reader after it (the ticker, the watchdog, runsc ps). This is our reading of the code; the commit message does not mention the defer."
            } else {
                "The real sentry would hang silently: Go reports a deadlock only when every goroutine sleeps. runsc paused the kernel before this call and never gets to unpause it: the sandbox stays paused, and every later runsc command that needs k.extMu hangs too. This is our reading of the code; the commit message does not mention the defer."
            } }</p>
        </div>
    }
}

/// After job control's deadlock: who queues on TaskSet.mu behind the stuck
/// readers, the CPU clock stopped, and the watchdog's report when it has come.
#[function_component(Freeze)]
fn freeze(props: &DeferProps) -> Html {
    let Some(shape) = props.run.extras::<SentryShape>() else { return html! {} };
    let view = &props.view;
    let Some(taskset) = view.locks.first() else { return html! {} };
    let name = |task: slowpath_engine::run::world::TaskId| {
        view.tasks.get(task.0 as usize).map_or_else(|| "?".to_string(), |t| t.name.clone())
    };
    let queue: Vec<String> = taskset
        .waiters
        .iter()
        .map(|w| format!("{} ({})", name(w.task), if w.mode == LockMode::Read { "read" } else { "write" }))
        .collect();
    let ticker_blocked =
        view.tasks.first().is_some_and(|t| matches!(t.state, TaskState::BlockedOnLock { .. }));
    let reported = shape.watchdog_report_ns.filter(|&at| view.now_ns >= at);
    html! {
        <div class="gv-freeze" data-testid="gv-freeze">
            <h4>{ "The sandbox freezes (the simulator's view)" }</h4>
            <p>{ format!("TaskSet.mu: held for reading by the stuck senders; queued behind them: {}",
                if queue.is_empty() { "nobody yet".to_string() } else { queue.join(" → ") }) }</p>
            if ticker_blocked {
                <p data-testid="gv-clock-stopped">{ "The CPU-clock ticker waits behind the clone: the sandbox's CPU clock has stopped." }</p>
            }
            <p data-testid="gv-watchdog">{ match (reported, shape.watchdog_report_ns) {
                (Some(at), _) => format!("Watchdog, at {}: \"Watchdog goroutine is stuck\" (it never names the senders: the CPU clock it measures them by stopped).", format_duration(at)),
                (None, Some(at)) => format!("The watchdog will log its own goroutine stuck at {}, its timeout after its first turn behind the clone.", format_duration(at)),
                (None, None) => String::new(),
            } }</p>
        </div>
    }
}

/// The sender's pending defers, last pushed first: each deferred Unlock (before
/// the fix), then `TaskSet.mu.RUnlock()` pushed at the top of the function.
fn defer_stack(
    view: &View,
    sender: slowpath_engine::run::world::TaskId,
    held: &[(u64, String)],
    defer: bool,
) -> String {
    let mut stack: Vec<String> = Vec::new();
    if defer {
        stack.extend(held.iter().rev().take(PILE_SHOWN_MAX).map(|(_, name)| format!("{name}.Unlock()")));
        if held.len() > PILE_SHOWN_MAX {
            stack.push(format!("{} more Unlock()s", held.len() - PILE_SHOWN_MAX));
        }
    }
    let reads = view.locks.first().is_some_and(|lock| lock.holders.iter().any(|h| h.task == sender));
    if reads {
        stack.push("TaskSet.mu.RUnlock()".to_string());
    }
    // Deferred first, so it runs last.
    let admitted = view
        .locks
        .iter()
        .any(|lock| lock.name == EXT_MU_LOCK && lock.holders.iter().any(|h| h.task == sender));
    if admitted {
        stack.push(format!("{EXT_MU_LOCK}.Unlock()"));
    }
    if stack.is_empty() {
        "empty".to_string()
    } else {
        stack.join(" → ")
    }
}
