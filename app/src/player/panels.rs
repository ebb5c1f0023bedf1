//! The panels that explain the current step: narration, pseudocode, locks, metrics.

use super::granularity_label;
use crate::components::MetaRef;
use slowpath_engine::run::format;
use slowpath_engine::run::lock::{LockKind, LockMode};
use slowpath_engine::run::narration::{group_digits, Segment};
use slowpath_engine::run::trace::{Granularity, Metric};
use slowpath_engine::run::view::{LockView, View};
use slowpath_engine::run::world::TaskState;
use slowpath_engine::Run;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Panels re-render only when the view (the state at the position) changes.
#[derive(Properties, Clone)]
pub struct ViewProps {
    pub run: Rc<Run>,
    pub view: Rc<View>,
    #[prop_or(Granularity::Iteration)]
    pub granularity: Granularity,
    /// The earlier micro-ops of the current step at a coarse granularity, so that
    /// one step reads as the two or three things it did.
    #[prop_or_default]
    pub earlier: Rc<Earlier>,
}

/// The micro-ops of the current step before its last: the narrations of the latest
/// few, and how many came before those (counted, not listed).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Earlier {
    pub listed: Vec<Vec<Segment>>,
    pub hidden: u64,
}

impl PartialEq for ViewProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.run, &other.run)
            && self.view == other.view
            && self.granularity == other.granularity
            && self.earlier == other.earlier
    }
}

/// On the case page, at most this many earlier micro-ops are listed above the last one.
pub const EARLIER_MAX: u64 = 5;

/// The micro-ops before the last one in the current unit: the latest `listed_max`
/// narrated, the rest counted, so the panel never drops one silently.
pub fn earlier_of(run: &Run, position: u64, granularity: Granularity, listed_max: u64) -> Earlier {
    if granularity == Granularity::Micro || position == 0 {
        return Earlier::default();
    }
    let unit = run.unit_of(position - 1, granularity);
    let Some((first, _)) = run.unit_ops(granularity, unit) else { return Earlier::default() };
    let from = first.max((position - 1).saturating_sub(listed_max));
    let listed = (from..position - 1).filter_map(|index| run.op(index)).map(|op| run.narrate(&op)).collect();
    Earlier { listed, hidden: from - first }
}

/// The line that stands for the micro-ops the narration does not list.
fn hidden_line(hidden: u64) -> Html {
    let operations = if hidden == 1 { "operation" } else { "operations" };
    html! {
        <li class="narration-hidden" data-testid="narration-hidden">
            { format!("… {} earlier {operations} of this step, not listed (step by micro-op to read each).", group_digits(hidden)) }
        </li>
    }
}

fn segments(segments: &[Segment]) -> Html {
    html! {
        { for segments.iter().map(|segment| match segment {
            Segment::Text(text) => crate::components::code_spans(text),
            Segment::Task(name) => html! { <span class="v-task">{ name.clone() }</span> },
            Segment::Lock(name) => html! { <span class="v-lock">{ name.clone() }</span> },
            Segment::Value(value) => html! { <span class="v-value">{ value.clone() }</span> },
        }) }
    }
}

/// An embed's one line of narration: the current step's first sentence, which says
/// in plain words what happens (the kernel detail follows it on the case page).
pub fn narration_line(view: &View) -> Html {
    let text = match &view.step {
        Some(step) => first_sentence(&slowpath_engine::run::narration::plain(&step.narration)).to_string(),
        None => "The run is at its start: ▶ Play starts it.".to_string(),
    };
    html! { <p class="embed-line" data-testid="embed-narration" aria-live="polite">{ text }</p> }
}

/// The text up to its first sentence's end: a stop followed by a space (a decimal
/// point in a figure is followed by a digit).
pub fn first_sentence(text: &str) -> &str {
    let text = text.trim();
    let bytes = text.as_bytes();
    for (i, pair) in bytes.windows(2).enumerate() {
        if matches!(pair[0], b'.' | b'!' | b'?') && pair[1] == b' ' {
            return &text[..=i];
        }
    }
    text
}

/// What a step at `granularity` is, in words: "iteration" alone explains nothing.
fn granularity_meaning(granularity: Granularity) -> &'static str {
    match granularity {
        Granularity::Phase => "a phase is a stage of the run with a title of its own",
        Granularity::Iteration => "an iteration is one turn of the loop being replayed",
        Granularity::Micro => "a micro-op is one operation inside an iteration",
    }
}

/// Keeps the start of the current step's narration in view when the box scrolls: its
/// first sentence says in plain words what happens, and the earlier steps above it
/// may not all fit the first screen. (Scrolling to the end cut that sentence off.)
/// Again whenever the box changes size: the first screen's fit bounds it only after
/// the first render, and a box that was not yet scrollable then opened at its top.
#[hook]
fn use_scrolled_to_current(target: NodeRef, view: Rc<View>) {
    {
        let target = target.clone();
        use_effect_with(view, move |_| scroll_to_current(&target));
    }
    use_effect_with((), move |_| {
        let on_resize = {
            let target = target.clone();
            wasm_bindgen::closure::Closure::<dyn FnMut()>::new(move || scroll_to_current(&target))
        };
        let observer = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()).ok();
        if let (Some(observer), Some(element)) = (&observer, target.cast::<web_sys::Element>()) {
            observer.observe(&element);
        }
        move || {
            if let Some(observer) = observer {
                observer.disconnect();
            }
            drop(on_resize);
        }
    });
}

fn scroll_to_current(target: &NodeRef) {
    let Some(element) = target.cast::<web_sys::Element>() else { return };
    let current = element.query_selector(".narration-text.last").ok().flatten();
    let top = current.map_or(0.0, |current| {
        current.get_bounding_client_rect().top() - element.get_bounding_client_rect().top()
            + f64::from(element.scroll_top())
    });
    element.set_scroll_top(top.max(0.0) as i32);
}

/// The narration before the first step: how to start. A phone has no keyboard: the
/// same hint in taps. Both are drawn; the stylesheet shows the one for the pointer in
/// hand (`.touch-only`, `.keys-only`). Also part of a case's first screen drawn at
/// build time (`crate::prerender`).
pub fn start_narration(granularity: Granularity) -> Html {
    html! {
        <>
            <p class="narration-text touch-only">
                { "The run is at its start: nothing has happened yet. Tap " }<strong>{ "▶ Play" }</strong>
                { ", or " }<strong>{ "forward" }</strong>{ " to step one " }{ granularity_label(granularity) }
                { " at a time (" }{ granularity_meaning(granularity) }{ ")." }
            </p>
            <p class="narration-text keys-only">
                { "The run is at its start: nothing has happened yet. Press " }<kbd>{ "Space" }</kbd>
                { " to play, or " }<kbd>{ "→" }</kbd>{ " to step one " }{ granularity_label(granularity) }
                { " at a time (" }{ granularity_meaning(granularity) }{ "). Press " }<kbd>{ "?" }</kbd>
                { " for every key and word." }
            </p>
        </>
    }
}

#[function_component(NarrationPanel)]
pub fn narration_panel(props: &ViewProps) -> Html {
    let view = &props.view;
    let steps = use_node_ref();
    use_scrolled_to_current(steps.clone(), view.clone());
    let body = match &view.step {
        None => start_narration(props.granularity),
        Some(step) => html! {
            <>
                <p class="narration-context">
                    <span class="narration-phase">{ segments(&step.phase_title) }</span>
                    <span class="sep">{ " › " }</span>
                    <span>{ segments(&step.iteration_label) }</span>
                </p>
                if props.earlier.listed.is_empty() && props.earlier.hidden == 0 {
                    <p class="narration-text">{ segments(&step.narration) }</p>
                } else {
                    <ol class="narration-steps">
                        if props.earlier.hidden > 0 {
                            { hidden_line(props.earlier.hidden) }
                        }
                        { for props.earlier.listed.iter().map(|text| html! { <li>{ segments(text) }</li> }) }
                        <li class="narration-text last">{ segments(&step.narration) }</li>
                    </ol>
                }
                <p class="narration-meta">
                    { format!("t = {} · micro-op {} · {}", format::duration(step.at_ns), group_digits(step.index + 1), step.kind_key()) }
                </p>
            </>
        },
    };
    html! {
        <section class="panel narration" aria-labelledby="narration-title">
            // Named for assistive technology; on screen the narration needs no title.
            <h2 id="narration-title" class="visually-hidden">{ "What happens" }</h2>
            // Scrollable when long (the first screen bounds it), so reachable by keyboard,
            // and then a region with a name of its own.
            <div data-testid="narration" aria-live="polite" tabindex="0" role="region" aria-label="Narration (scrollable)"
                ref={steps}>{ body }</div>
        </section>
    }
}

trait KindKey {
    fn kind_key(&self) -> &'static str;
}

impl KindKey for slowpath_engine::run::view::StepView {
    fn kind_key(&self) -> &'static str {
        self.kind.key()
    }
}

/// Scrolls the code box (not the page) so that its current line is in the middle:
/// the box is as tall as the first screen allows, not as the function.
#[hook]
fn use_current_line_in_view(code: NodeRef, view: Rc<View>) {
    use_effect_with(view, move |_| {
        if let Some(code) = code.cast::<web_sys::HtmlElement>() {
            center_current_line(&code);
        }
    });
}

/// Scrolls the code box `code` so that its current line is in its middle.
pub fn center_current_line(code: &web_sys::HtmlElement) {
    let line = code.query_selector(".line.current").ok().flatten();
    let Some(line) = line.and_then(|line| line.dyn_into::<web_sys::HtmlElement>().ok()) else { return };
    let top = line.offset_top() - (code.client_height() - line.offset_height()) / 2;
    code.set_scroll_top(top.max(0));
}

#[function_component(CodePanel)]
pub fn code_panel(props: &ViewProps) -> Html {
    let code = use_node_ref();
    use_current_line_in_view(code.clone(), props.view.clone());
    let Some(step) = &props.view.step else {
        return html! {
            <section class="panel code" aria-labelledby="code-title">
                <h2 id="code-title">{ "Code" }</h2>
                <p class="muted">{ "The code being executed appears here, its current line highlighted." }</p>
            </section>
        };
    };
    let Some(function) = props.run.code.get(usize::from(step.code.function)) else { return html! {} };
    html! {
        <section class="panel code" aria-labelledby="code-title" data-testid="code">
            <h2 id="code-title">
                <code>{ function.name }</code>
                <a class="source-link" href={function.source_url} target="_blank" rel="noopener noreferrer">
                    { "real source ↗" }
                </a>
            </h2>
            <pre class="pseudocode" tabindex="0" ref={code} aria-label={format!("Simplified pseudocode of {}", function.name)}>
                { for function.lines.iter().enumerate().map(|(index, line)| {
                    let current = index == usize::from(step.code.line);
                    html! {
                        <span class={classes!("line", current.then_some("current"))}
                            aria-current={current.then_some("step")} data-testid={current.then_some("code-current")}>
                            <span class="line-number" aria-hidden="true">{ index + 1 }</span>
                            { *line }{ "\n" }
                        </span>
                    }
                }) }
            </pre>
            <p class="fine-print">{ "Our own simplified rendering of the function, not kernel source." }</p>
        </section>
    }
}

fn mode_word(mode: LockMode) -> &'static str {
    match mode {
        LockMode::Read => "read",
        LockMode::Write => "write",
    }
}

fn kind_word(kind: LockKind) -> &'static str {
    match kind {
        LockKind::RwSem => "rw_semaphore",
        LockKind::Mutex => "mutex",
        LockKind::Spinlock => "spinlock",
        LockKind::GoRwMutex => "sync.RWMutex",
        LockKind::GoMutex => "sync.Mutex",
    }
}

/// The longest any of `lock`'s waiters has waited at `now_ns`.
fn longest_wait_ns(lock: &LockView, now_ns: u64) -> u64 {
    lock.waiters.iter().map(|waiter| now_ns.saturating_sub(waiter.since_ns)).max().unwrap_or(0)
}

/// A wait as a share of the longest, in whole percent: the bar behind a waiter's chip,
/// so that who has waited longest reads at a glance.
fn wait_share_percent(waited_ns: u64, longest_ns: u64) -> u64 {
    if longest_ns == 0 {
        return 0;
    }
    (u128::from(waited_ns) * 100 / u128::from(longest_ns)) as u64
}

#[function_component(LockPanel)]
pub fn lock_panel(props: &ViewProps) -> Html {
    let view = &props.view;
    if view.locks.is_empty() {
        return html! {};
    }
    let name = |task: slowpath_engine::run::world::TaskId| props.run.layout.task_name(task).to_string();
    html! {
        <section class="panel locks" aria-labelledby="locks-title" data-testid="locks">
            <h2 id="locks-title">{ "Locks" }</h2>
            { for view.locks.iter().map(|lock| html! {
                <article class="lock" key={lock.name.clone()}>
                    <h3><span class="v-lock">{ &lock.name }</span>{ " " }<span class="muted">{ kind_word(lock.kind) }</span>
                        if lock.handoff { <span class="badge handoff" title="Reserved for the first waiter">{ "handoff" }</span> }
                    </h3>
                    <p class="lock-holders">
                        <span class="label">{ "Held by: " }</span>
                        if lock.holders.is_empty() { <span class="muted">{ "nobody (free)" }</span> }
                        { for lock.holders.iter().map(|holder| html! {
                            <span class={classes!("chip", "holder", mode_word(holder.mode))} key={holder.task.0}>
                                { name(holder.task) }{ " · " }{ mode_word(holder.mode) }
                                { " · " }{ format::duration(view.now_ns - holder.since_ns) }
                            </span>
                        }) }
                    </p>
                    <div class="lock-queue">
                        <span class="label">{ format!("Wait queue ({}): ", lock.waiters.len()) }</span>
                        if lock.waiters.is_empty() { <span class="muted">{ "empty" }</span> }
                        <ol class="queue">
                            { for lock.waiters.iter().map(|waiter| {
                                let waited_ns = view.now_ns.saturating_sub(waiter.since_ns);
                                html! {
                                    <li key={waiter.task.0} class={classes!("chip", "waiter", mode_word(waiter.mode))}
                                        style={format!("--waited: {}%", wait_share_percent(waited_ns, longest_wait_ns(lock, view.now_ns)))}>
                                        { name(waiter.task) }{ " · " }{ mode_word(waiter.mode) }
                                        { " · waiting " }{ format::duration(waited_ns) }
                                    </li>
                                }
                            }) }
                        </ol>
                    </div>
                    <dl class="lock-stats">
                        <dt>{ "acquisitions" }</dt><dd>{ group_digits(lock.stats.acquisitions) }</dd>
                        <dt>{ "contended" }</dt><dd>{ group_digits(lock.stats.contended) }</dd>
                        <dt>{ "max wait" }</dt><dd>{ format::duration(lock.stats.wait_max_ns) }</dd>
                        <dt>{ "total wait" }</dt><dd>{ format::duration(lock.stats.wait_total_ns) }</dd>
                    </dl>
                </article>
            }) }
        </section>
    }
}

fn state_word(state: TaskState) -> String {
    slowpath_engine::run::timeline::SpanState::of(state).label().to_string()
}

/// A counter as the Figures list writes it: its name in words, its value with the unit
/// its name ends with (units last: `expired_timestamp_ns`, `rlimit_cpu_cur_s`).
fn counter_text(name: &str, value: u64) -> (String, String) {
    let words = |stem: &str| stem.replace('_', " ");
    if let Some(stem) = name.strip_suffix("_ns") {
        (words(stem), format::duration(value))
    } else if let Some(stem) = name.strip_suffix("_s") {
        (words(stem), format!("{} s", group_digits(value)))
    } else {
        (words(name), group_digits(value))
    }
}

/// Shows at most this many task rows; a 16,384-task run lists the first ones and says so.
const TASK_ROWS_MAX: usize = 32;

/// A metric as the UI writes it.
/// A metric as text. Its key names its unit (units last: `dump_ns`), which is
/// how an optional value (`Metric::None`) knows it is a duration.
pub fn metric_text(key: &str, metric: &Metric) -> String {
    match metric {
        Metric::Count(value) => group_digits(*value),
        Metric::Ns(ns) => format::duration(*ns),
        Metric::Ratio(ratio) => slowpath_engine::run::format::Fixed(*ratio, 3).to_string(),
        Metric::Text(text) => text.clone(),
        Metric::None(None) => "none".to_string(),
        Metric::None(Some(value)) if key.ends_with("_ns") => format::duration(*value),
        Metric::None(Some(value)) => group_digits(*value),
        Metric::List(items) => format!("{} items", items.len()),
        Metric::Object(_) => "…".to_string(),
    }
}

#[derive(Properties, Clone)]
pub struct MetricsProps {
    pub run: Rc<Run>,
    pub view: Rc<View>,
    pub meta: MetaRef,
}

impl PartialEq for MetricsProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.run, &other.run) && self.view == other.view
    }
}

#[function_component(MetricsPanel)]
pub fn metrics_panel(props: &MetricsProps) -> Html {
    let view = &props.view;
    let run = &props.run;
    let shown = view.tasks.len().min(TASK_ROWS_MAX);
    html! {
        <section class="panel metrics" aria-labelledby="metrics-title" data-testid="metrics">
            <h2 id="metrics-title">{ "Figures" }</h2>
            <dl class="figures">
                <dt>{ "simulated time" }</dt>
                <dd>{ format::duration(view.now_ns) }{ " of " }{ format::duration(run.end_ns) }</dd>
                { for props.meta.0.reported.iter().map(|figure| html! {
                    <>
                        <dt>{ figure.label }</dt>
                        <dd>
                            { "reported: " }<strong>{ figure.reported }</strong>
                            { " · simulated: " }
                            <strong>{ run.metrics.get(figure.metric).map(|m| metric_text(figure.metric, m)).unwrap_or_else(|| "—".into()) }</strong>
                        </dd>
                    </>
                }) }
                { for view.counters.iter().filter(|(_, value)| *value > 0).map(|(name, value)| {
                    let (label, figure) = counter_text(name, *value);
                    html! { <><dt>{ label }</dt><dd>{ figure }</dd></> }
                }) }
            </dl>
            <div class="table-scroll" role="region" aria-label="Time per task" tabindex="0">
            <table class="task-table">
                <caption class="visually-hidden">{ "Time per task so far" }</caption>
                <thead><tr>
                    <th scope="col">{ "task" }</th><th scope="col">{ "state" }</th>
                    <th scope="col">{ "user" }</th><th scope="col">{ "sys" }</th>
                    // The timeline's states by name: waiting for a CPU is not waiting for a lock.
                    <th scope="col">{ "runnable" }</th><th scope="col">{ "blocked" }</th><th scope="col">{ "sleeping" }</th>
                </tr></thead>
                <tbody>
                    { for view.tasks.iter().take(shown).map(|task| html! {
                        <tr key={task.id.0}>
                            <th scope="row">{ &task.name }</th>
                            <td class={classes!("state", format!("s-{:?}", slowpath_engine::run::timeline::SpanState::of(task.state)).to_ascii_lowercase())}>
                                { state_word(task.state) }
                            </td>
                            <td>{ format::duration(task.user_ns) }</td>
                            <td>{ format::duration(task.sys_ns) }</td>
                            <td>{ format::duration(task.runnable_ns) }</td>
                            <td>{ format::duration(task.blocked_ns) }</td>
                            <td>{ format::duration(task.sleep_ns) }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
            </div>
            if view.tasks.len() > shown {
                <p class="muted">{ format!("and {} more tasks (see the timeline)", group_digits((view.tasks.len() - shown) as u64)) }</p>
            }
            // The run's fingerprint: what `slowpath-cli run … --json` prints for the same
            // link, so that anyone can check a run is the same on their machine.
            <p class="muted trace-hash">
                { "Trace " }<code data-testid="trace-hash">{ format!("{:016x}", run.trace_hash) }</code>
                { ": the same link gives the same trace on every machine (" }<code>{ "slowpath-cli run … --json" }</code>{ " prints it too)." }
            </p>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::{first_sentence, wait_share_percent};

    #[test]
    fn the_first_sentence_ends_at_a_stop_not_at_a_decimal_point() {
        assert_eq!(
            first_sentence("The signal arrives at 1.3 s. Then it waits."),
            "The signal arrives at 1.3 s."
        );
        assert_eq!(first_sentence(" One sentence only "), "One sentence only");
        assert_eq!(first_sentence("Done? Yes."), "Done?");
    }

    #[test]
    fn a_wait_bar_is_its_share_of_the_longest_wait() {
        assert_eq!(wait_share_percent(5, 20), 25);
        assert_eq!(wait_share_percent(20, 20), 100);
        assert_eq!(wait_share_percent(0, 0), 0, "a waiter that has just queued");
        assert_eq!(wait_share_percent(u64::MAX, u64::MAX), 100, "no overflow");
    }
}
