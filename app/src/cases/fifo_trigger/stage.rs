//! The FIFO trigger's stage: the two programs side by side with their current
//! lines and scheduler gauges, the CPU with the running
//! task's timeslice and the run queue's arrays (2.6.1), counters and
//! goodness (2.4.24), or EEVDF's lags and deadlines (6.18, in `eevdf.rs`). The FIFO's inode (`pipe`) and the writes (output, dt
//! chart, comparison) are in
//! `writes.rs`, below the first screen. Everything comes from the run:
//! `Run::extras` (the writes, the bursts, the scheduler constants) and the
//! view's tasks, gauges and counters.

use crate::player::Clamped;
use slowpath_engine::cases::fifo_trigger::build::{
    C_ALIVE, C_BYTES, C_DISCARDED, C_EAGAIN, C_ENXIO, C_FREES, C_PREEMPTIONS, C_READERS, C_SELECT_AT_ONCE,
    C_SELECT_SLEPT, C_SLOW, C_WRITERS, C_WRITES, G_ARRAY, G_BONUS, G_CREDIT, G_INTERACTIVE, G_LINE, G_PRIO,
    G_SLEEP_AVG, G_SLICE, G_SLICE_STAMP, G_STATIC,
};
use slowpath_engine::cases::fifo_trigger::machine::{LISTENER, WRITER};
use slowpath_engine::cases::fifo_trigger::FifoCase;
use slowpath_engine::kernel::sched::o1::{CREDIT_LIMIT, MAX_BONUS, MAX_PRIO, MAX_RT_PRIO};
use slowpath_engine::run::format;
use slowpath_engine::run::narration::group_digits;
use slowpath_engine::run::trace::OpKind;
use slowpath_engine::run::view::{TaskView, View};
use slowpath_engine::run::world::{CounterId, TaskState};
use slowpath_engine::Run;
use std::rc::Rc;
use yew::prelude::*;

use crate::cases::StageProps;

fn count(view: &View, counter: CounterId) -> u64 {
    view.counters.get(usize::from(counter.0)).map_or(0, |(_, value)| *value)
}

fn gauge(task: &TaskView, index: u8) -> i64 {
    task.gauges.get(usize::from(index)).copied().unwrap_or(0)
}

fn running_cpu(state: TaskState) -> Option<u16> {
    match state {
        TaskState::RunningUser { cpu }
        | TaskState::RunningKernel { cpu }
        | TaskState::Spinning { cpu, .. } => Some(cpu),
        _ => None,
    }
}

/// Jiffies (2.6) or ticks of counter (2.4) left now: the gauge is as of its
/// stamp, and a running task loses one per timer tick since.
fn slice_left(task: &TaskView, now_ns: u64, tick_ns: u64) -> i64 {
    let left = gauge(task, G_SLICE).max(0);
    if running_cpu(task.state).is_none() || tick_ns == 0 {
        return left;
    }
    let stamp = gauge(task, G_SLICE_STAMP).max(0) as u64;
    let ticks = (now_ns / tick_ns).saturating_sub(stamp / tick_ns);
    (left - ticks as i64).max(0)
}

fn ticks(count: i64) -> String {
    format!("{count} tick{}", if count == 1 { "" } else { "s" })
}

/// 2.4's goodness() of a SCHED_OTHER task, without the same-mm bonus.
fn goodness(counter: i64, nice: i32) -> i64 {
    if counter <= 0 {
        0
    } else {
        counter + 20 - i64::from(nice)
    }
}

#[function_component(FifoStage)]
pub fn fifo_stage(props: &StageProps) -> Html {
    let run = props.run.clone();
    // The static data, cloned once per run (the charts hold it by Rc).
    let case = {
        let run = run.clone();
        use_memo(Rc::as_ptr(&props.run) as usize, move |_| run.extras::<FifoCase>().cloned().map(Rc::new))
    };
    let Some(case) = (*case).clone() else { return html! {} };
    let view = &props.view;
    let preempted = view.step.as_ref().is_some_and(|step| step.kind == OpKind::Preempt);
    let today = case.kernel == super::eevdf::TODAY_KERNEL;
    let o1 = case.kernel != "2.4.24" && !today;
    let why = if today {
        "lag makes it pick_eevdf's choice"
    } else if o1 {
        "priority is now better"
    } else {
        "goodness is now better"
    };
    let clock = if today { "clock_gettime()" } else { "gettimeofday()" };
    html! {
        <section class="panel stage fifo-stage" aria-labelledby="fifo-stage-title" data-testid="fifo-stage">
            <h2 id="fifo-stage-title">{ format!("Two programs, one FIFO, Linux {}", case.kernel) }</h2>
            if preempted {
                <p class="fifo-callout" role="status" data-testid="preempt-callout">
                    <strong>{ "Wakeup preemption. " }</strong>
                    { format!("{} has just copied its byte, and write() woke the listener, whose {why}. \
                        So the writer is preempted on its way out of write(), before its second {clock}: \
                        its stopwatch keeps running until it gets the CPU back.",
                        view.step.as_ref().and_then(|s| s.actor.clone()).unwrap_or_else(|| "The writer".into())) }
                </p>
            }
            <div class="fifo-programs">
                { program(&run, &case, view, LISTENER, "fifo-listener") }
                { program(&run, &case, view, WRITER, "fifo-writer") }
            </div>
            { cpu(&run, &case, view) }
            { if today {
                super::eevdf::runqueue(&run, view)
            } else if o1 {
                runqueue_o1(&run, &case, view)
            } else {
                counters_24(&run, &case, view)
            } }
        </section>
    }
}

fn state_badge(index: usize, task: &TaskView) -> (&'static str, String) {
    match task.state {
        TaskState::RunningUser { cpu } => ("running", format!("running (user) on CPU {cpu}")),
        TaskState::RunningKernel { cpu } => ("running", format!("running (kernel) on CPU {cpu}")),
        TaskState::Runnable => ("runnable", "runnable: waiting for the CPU".to_string()),
        TaskState::Sleeping { .. } if index == LISTENER => ("sleeping", "sleeping in select()".to_string()),
        TaskState::Sleeping { .. } if task.user_ns + task.sys_ns == 0 => {
            ("sleeping", "not started yet".to_string())
        }
        TaskState::Sleeping { .. } => ("sleeping", "sleeping".to_string()),
        _ => ("other", slowpath_engine::run::timeline::SpanState::of(task.state).label().to_string()),
    }
}

/// One program: its code with the current line, its state, its scheduler gauges.
fn program(run: &Run, case: &FifoCase, view: &View, index: usize, testid: &'static str) -> Html {
    let Some(task) = view.tasks.get(index) else { return html! {} };
    let today = case.kernel == super::eevdf::TODAY_KERNEL;
    let listing = slowpath_engine::cases::fifo_trigger::program_listing(today, index);
    let Some(function) = run.code.get(listing) else { return html! {} };
    let line = gauge(task, G_LINE);
    let current = (line >> 16 == index as i64).then_some((line & 0xffff) as usize);
    let (state_class, state_text) = state_badge(index, task);
    html! {
        <article class="fifo-program" data-testid={testid} aria-labelledby={format!("{testid}-name")}>
            <header class="fifo-program-head">
                <h3 id={format!("{testid}-name")}>{ &task.name }</h3>
                <span class={classes!("fifo-badge", state_class)} data-testid={format!("{testid}-state")}>{ state_text }</span>
            </header>
            <pre class="pseudocode fifo-code" tabindex="0" aria-label={format!("Code of {}", task.name)}>
                { for function.lines.iter().enumerate().map(|(i, text)| {
                    let here = current == Some(i);
                    html! {
                        <span class={classes!("line", here.then_some("current"))} aria-current={here.then_some("step")}>
                            <span class="line-number" aria-hidden="true">{ i + 1 }</span>{ *text }{ "\n" }
                        </span>
                    }
                }) }
            </pre>
            { gauges(case, task, index, view.now_ns) }
        </article>
    }
}

/// A horizontal bar: `fraction` of it filled.
fn bar(fraction: f64, class: &'static str, label: String) -> Html {
    let percent = (fraction.clamped(0.0, 1.0) * 100.0).round();
    html! {
        <span class={classes!("fifo-bar", class)} role="meter" aria-label={label}
            aria-valuemin="0" aria-valuemax="100" aria-valuenow={slowpath_engine::run::format::Shortest(percent).to_string()}>
            <span class="fifo-bar-fill" style={format!("width: {}%", slowpath_engine::run::format::Shortest(percent))}></span>
        </span>
    }
}

fn gauges(case: &FifoCase, task: &TaskView, index: usize, now_ns: u64) -> Html {
    let nice = case.nice.get(index).copied().unwrap_or(0);
    if case.kernel == super::eevdf::TODAY_KERNEL {
        return super::eevdf::gauges(case, task, index);
    }
    if case.kernel == "2.4.24" {
        let counter = slice_left(task, now_ns, case.tick_ns);
        let full = (case.slice_ns.get(index).copied().unwrap_or(0) / case.tick_ns.max(1)).max(1) as i64;
        return html! {
            <dl class="fifo-gauges">
                <dt>{ "counter" }</dt>
                <dd>
                    { bar(counter as f64 / full as f64, "slice", format!("counter {}", ticks(counter))) }
                    <span class="fifo-value">{ format!("{} ({})", ticks(counter), format::duration(counter as u64 * case.tick_ns)) }</span>
                </dd>
                <dt>{ "goodness" }</dt>
                <dd><span class="fifo-value">{ goodness(counter, nice) }</span>
                    <span class="muted">{ format!(" = counter + 20 − nice ({nice})") }</span></dd>
                <dt>{ "sleep average" }</dt><dd class="muted">{ "none on 2.4: a sleeper keeps only the counter it did not use, and a recalculation halves it and adds a slice" }</dd>
            </dl>
        };
    }
    let sleep_avg = gauge(task, G_SLEEP_AVG).max(0) as u64;
    let bonus = gauge(task, G_BONUS);
    let prio = gauge(task, G_PRIO);
    let static_prio = gauge(task, G_STATIC);
    let interactive = gauge(task, G_INTERACTIVE) != 0;
    let credit = gauge(task, G_CREDIT);
    let credit_word = if credit > CREDIT_LIMIT {
        " (HIGH_CREDIT)"
    } else if credit < -CREDIT_LIMIT {
        " (LOW_CREDIT)"
    } else {
        ""
    };
    html! {
        <dl class="fifo-gauges">
            <dt>{ "sleep_avg" }</dt>
            <dd>
                { bar(sleep_avg as f64 / case.max_sleep_avg_ns.max(1) as f64, "sleep",
                    format!("sleep_avg {} of {}", format::duration(sleep_avg), format::duration(case.max_sleep_avg_ns))) }
                <span class="fifo-value">{ format!("{} of {}", format::duration(sleep_avg), format::duration(case.max_sleep_avg_ns)) }</span>
            </dd>
            <dt>{ "bonus" }</dt>
            <dd>
                { bar(bonus as f64 / MAX_BONUS as f64, "bonus", format!("bonus {bonus} of {MAX_BONUS}")) }
                <span class="fifo-value">{ format!("{bonus} / {MAX_BONUS}") }</span>
            </dd>
            <dt title="The dynamic priority: static priority − (bonus − 5); lower runs first">{ "priority" }</dt>
            <dd>
                <span class={classes!("fifo-value", (prio < static_prio).then_some("better"), (prio > static_prio).then_some("worse"))}>
                    { prio }</span>
                <span class="muted">{ format!("static {static_prio} · nice {nice}") }</span>
            </dd>
            <dt>{ "interactive" }</dt>
            <dd><span class={classes!("fifo-badge", if interactive { "yes" } else { "no" })}>{ if interactive { "yes" } else { "no" } }</span></dd>
            <dt>{ "interactive_credit" }</dt>
            <dd><span class="fifo-value">{ credit }</span><span class="muted">{ credit_word }</span></dd>
        </dl>
    }
}

/// The FIFO's inode: who has it open and what its buffer holds.
pub(super) fn pipe(case: &FifoCase, view: &View) -> Html {
    let bytes = count(view, C_BYTES);
    let allocated = count(view, C_ALIVE) > 0;
    let frees = count(view, C_FREES);
    let discarded = count(view, C_DISCARDED);
    let held = if !allocated {
        "no buffer".to_string()
    } else if bytes == 0 {
        "empty".to_string()
    } else if case.drain {
        format!("{} byte{}, not read yet", group_digits(bytes), if bytes == 1 { "" } else { "s" })
    } else {
        format!("{} byte{}, never read", group_digits(bytes), if bytes == 1 { "" } else { "s" })
    };
    html! {
        <figure class="fifo-pipe" data-testid="fifo-pipe">
            <figcaption>{ "test.fifo (the FIFO's inode)" }</figcaption>
            <dl class="fifo-facts">
                <dt>{ "readers" }</dt><dd data-testid="pipe-readers">{ count(view, C_READERS) }</dd>
                <dt>{ "writers" }</dt><dd data-testid="pipe-writers">{ count(view, C_WRITERS) }</dd>
                <dt>{ "buffer" }</dt>
                <dd>
                    <span class={classes!("fifo-badge", if allocated { "yes" } else { "no" })}>
                        { if allocated { "allocated" } else { "freed" } }
                    </span>
                </dd>
                <dt>{ format!("holds (of {})", format::size(case.pipe_capacity)) }</dt>
                <dd data-testid="pipe-bytes">
                    { bar(bytes as f64 / case.pipe_capacity.max(1) as f64, "bytes", format!("{bytes} of {} bytes", group_digits(case.pipe_capacity))) }
                    <span class="fifo-value">{ held }</span>
                </dd>
                <dt>{ "buffers freed" }</dt><dd>{ group_digits(frees) }</dd>
                <dt>{ "unread bytes discarded" }</dt><dd>{ group_digits(discarded) }</dd>
                <dt>{ "select() returned at once" }</dt><dd>{ group_digits(count(view, C_SELECT_AT_ONCE)) }</dd>
                <dt>{ "select() slept" }</dt><dd>{ group_digits(count(view, C_SELECT_SLEPT)) }</dd>
                <dt>{ "open() → ENXIO" }</dt><dd>{ group_digits(count(view, C_ENXIO)) }</dd>
                <dt>{ "write() → EAGAIN" }</dt><dd>{ group_digits(count(view, C_EAGAIN)) }</dd>
            </dl>
        </figure>
    }
}

/// The CPU(s): who runs, and the running task's timeslice (2.6) or counter (2.4).
fn cpu(run: &Run, case: &FifoCase, view: &View) -> Html {
    let (what, unit) = match case.kernel {
        "2.4.24" => ("counter", "ticks"),
        super::eevdf::TODAY_KERNEL => ("ticks until the tick that sees its deadline", "ticks"),
        _ => ("timeslice", "jiffies"),
    };
    html! {
        <figure class="fifo-cpu" data-testid="fifo-cpu">
            <figcaption>{ format!("CPU{} · HZ {} (a tick every {})", if case.cpus > 1 { "s" } else { "" }, case.hz, format::duration(case.tick_ns)) }</figcaption>
            { for view.cpus.iter().enumerate().map(|(cpu, task)| {
                let Some(id) = task else {
                    return html! { <p class="fifo-cpu-line"><strong>{ format!("CPU {cpu}: ") }</strong><span class="muted">{ "idle" }</span></p> };
                };
                let index = id.0 as usize;
                let Some(task) = view.tasks.get(index) else { return html! {} };
                let left = slice_left(task, view.now_ns, case.tick_ns);
                let full = (case.slice_ns.get(index).copied().unwrap_or(0) / case.tick_ns.max(1)).max(1) as i64;
                html! {
                    <div class="fifo-cpu-line">
                        <p><strong>{ format!("CPU {cpu}: ") }</strong><span class="v-task">{ run.layout.task_name(*id) }</span>
                            { format!(" · {what}: {left} of {full} {unit} left ({})", format::duration(left as u64 * case.tick_ns)) }</p>
                        { bar(left as f64 / full as f64, "slice", format!("{what}: {left} of {full} {unit} left")) }
                    </div>
                }
            }) }
            <p class="fifo-facts-line">
                { "wakeup preemptions: " }<strong>{ group_digits(count(view, C_PREEMPTIONS)) }</strong>
                { " · writes: " }<strong>{ group_digits(count(view, C_WRITES)) }</strong>
                { format!(" · ≥ {}: ", format::duration(case.slow_ns)) }<strong>{ group_digits(count(view, C_SLOW)) }</strong>
            </p>
        </figure>
    }
}

/// 2.6.1's run queue: the ACTIVE and EXPIRED arrays, tasks at their priorities.
fn runqueue_o1(run: &Run, case: &FifoCase, view: &View) -> Html {
    let span = f64::from(MAX_PRIO - 1 - MAX_RT_PRIO).max(1.0);
    let row = |array: i64, name: &'static str, note: &'static str| {
        html! {
            <div class="fifo-rq-row">
                <span class="fifo-rq-name">{ name }<span class="muted">{ note }</span></span>
                <div class="fifo-rq-strip">
                    { for view.tasks.iter().enumerate().filter(|(_, t)| gauge(t, G_ARRAY) == array).map(|(i, t)| {
                        let prio = gauge(t, G_PRIO);
                        let left = ((prio - i64::from(MAX_RT_PRIO)) as f64 / span * 100.0).clamped(0.0, 100.0);
                        let running = running_cpu(t.state).is_some();
                        html! {
                            <span class={classes!("fifo-rq-task", if i == LISTENER { "listener" } else { "writer" }, running.then_some("running"))}
                                style={format!("left: {}%", slowpath_engine::run::format::Fixed(left, 2))} title={format!("{} at priority {prio}", t.name)}>
                                { format!("{} {prio}", run.layout.task_name(t.id)) }
                            </span>
                        }
                    }) }
                </div>
            </div>
        }
    };
    let ticks = [MAX_RT_PRIO, MAX_RT_PRIO + 10, MAX_RT_PRIO + 20, MAX_RT_PRIO + 30, MAX_PRIO - 1];
    html! {
        <figure class="fifo-runqueue" data-testid="fifo-runqueue">
            <figcaption>
                { "The run queue: schedule() takes the best (lowest) priority in the ACTIVE array; the EXPIRED array waits until ACTIVE is empty. A running task stays in its array (outlined)." }
                if case.cpus > 1 { { " Each CPU has its own run queue; both are drawn on one strip." } }
            </figcaption>
            { row(1, "ACTIVE", "") }
            { row(2, "EXPIRED", "") }
            <div class="fifo-rq-row fifo-rq-axis" aria-hidden="true">
                <span class="fifo-rq-name muted">{ "priority" }</span>
                <div class="fifo-rq-scale">
                    { for ticks.iter().map(|&p| html! {
                        <span style={format!("left: {}%", slowpath_engine::run::format::Fixed(f64::from(p - MAX_RT_PRIO) / span * 100.0, 2))}>{ p }</span>
                    }) }
                </div>
            </div>
        </figure>
    }
}

/// 2.4.24 has no arrays: each task's counter and goodness.
fn counters_24(run: &Run, case: &FifoCase, view: &View) -> Html {
    html! {
        <figure class="fifo-runqueue" data-testid="fifo-runqueue">
            <figcaption>{ "2.4.24 has no priority arrays: schedule() scans the run queue for the best goodness() = counter + 20 − nice (0 once the counter is used up); when every runnable counter is 0, every task's counter, sleepers' too, becomes half of itself plus a fresh slice." }</figcaption>
            <table class="fifo-good">
                <thead><tr>
                    <th scope="col">{ "task" }</th><th scope="col">{ "on the run queue" }</th>
                    <th scope="col">{ "counter" }</th><th scope="col">{ "goodness" }</th>
                </tr></thead>
                <tbody>
                    { for view.tasks.iter().enumerate().map(|(i, t)| {
                        let counter = slice_left(t, view.now_ns, case.tick_ns);
                        let nice = case.nice.get(i).copied().unwrap_or(0);
                        html! {
                            <tr>
                                <th scope="row">{ run.layout.task_name(t.id) }</th>
                                <td>{ if gauge(t, G_ARRAY) != 0 { "yes" } else { "no" } }</td>
                                <td>{ ticks(counter) }</td>
                                <td>{ goodness(counter, nice) }</td>
                            </tr>
                        }
                    }) }
                </tbody>
            </table>
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slice_left_counts_ticks_since_the_stamp_for_a_running_task() {
        let mut task = TaskView {
            id: slowpath_engine::run::world::TaskId(0),
            name: "t".into(),
            state: TaskState::RunningUser { cpu: 0 },
            user_ns: 0,
            sys_ns: 0,
            runnable_ns: 0,
            blocked_ns: 0,
            sleep_ns: 0,
            gauges: vec![0; 10],
        };
        task.gauges[usize::from(G_SLICE)] = 100;
        task.gauges[usize::from(G_SLICE_STAMP)] = 2_500_000;
        assert_eq!(slice_left(&task, 2_900_000, 1_000_000), 100);
        assert_eq!(slice_left(&task, 5_000_000, 1_000_000), 97);
        assert_eq!(slice_left(&task, 500_000_000, 1_000_000), 0);
        task.state = TaskState::Runnable;
        assert_eq!(slice_left(&task, 5_000_000, 1_000_000), 100);
    }

    #[test]
    fn goodness_is_zero_without_counter() {
        assert_eq!(goodness(0, 0), 0);
        assert_eq!(goodness(6, 0), 26);
        assert_eq!(goodness(6, 5), 21);
    }
}
