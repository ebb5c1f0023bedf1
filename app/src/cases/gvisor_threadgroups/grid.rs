//! The task set as a dense grid (one cell per task, leaders marked), the scan's
//! cursor sweeping it under a read-lock badge, the visited count; after the fix
//! the tgids list beside it. A CPU meter and the ticker's clock below.

use crate::player::canvas::{context_2d, css_var, use_redraw_triggers};
use crate::player::Clamped;
use slowpath_engine::cases::gvisor_threadgroups::SentryShape;
use slowpath_engine::run::format::duration as format_duration;
use slowpath_engine::run::lock::LockMode;
use slowpath_engine::run::narration::{group_digits, Arg};
use slowpath_engine::run::trace::OpKind;
use slowpath_engine::run::view::View;
use slowpath_engine::run::world::TaskState;
use slowpath_engine::Run;
use std::rc::Rc;
use yew::prelude::*;

pub use crate::cases::StageProps;

/// Where the ticker's scan is at the current step.
#[derive(Clone, Copy, PartialEq, Default)]
pub struct ScanCursor {
    /// Entries visited in this scan so far (0: no scan in progress).
    pub visited: u64,
    /// The tid under the cursor, if the current step is a visit.
    pub tid: Option<u64>,
    pub tick: Option<u64>,
}

pub fn scan_cursor(run: &Run, view: &View, shape: &SentryShape) -> ScanCursor {
    let Some(op) = view.position.checked_sub(1).and_then(|index| run.op(index)) else {
        return ScanCursor::default();
    };
    let ticker = op.actor.map(|task| task.0) == Some(0);
    let tick = if ticker { tick_of(run, view.position) } else { None };
    match (op.kind, op.args.as_slice()) {
        (OpKind::TreeVisit, [Arg::Count(tid), _, _, Arg::Count(ordinal), ..]) => {
            ScanCursor { visited: *ordinal, tid: Some(*tid), tick }
        }
        (OpKind::LockRelease, [Arg::Count(n), ..]) => {
            ScanCursor { visited: *n.min(&shape.visits_per_scan), tid: None, tick }
        }
        _ => ScanCursor { visited: 0, tid: None, tick },
    }
}

/// The tick number of the scan holding op `position − 1` (its first op's narration).
fn tick_of(run: &Run, position: u64) -> Option<u64> {
    let index = position.checked_sub(1)?;
    let iteration = run.unit_of(index, slowpath_engine::run::trace::Granularity::Iteration);
    let (first, _) = run.unit_ops(slowpath_engine::run::trace::Granularity::Iteration, iteration)?;
    let op = run.op(first)?;
    match (op.kind, op.args.first()) {
        (OpKind::Wake, Some(Arg::Count(tick))) => Some(*tick),
        _ => None,
    }
}

/// Grid geometry: cell size and columns for `n` cells in `width` px, about `target` px tall.
fn geometry(n: u64, width: f64, target: f64) -> (f64, u64, f64) {
    let n = n.max(1) as f64;
    let cell = (width * target / n).sqrt().floor().clamped(1.0, 24.0);
    let cols = (width / cell).floor().max(1.0);
    let rows = (n / cols).ceil();
    (cell, cols as u64, rows * cell)
}

#[function_component(SentryStage)]
pub fn sentry_stage(props: &StageProps) -> Html {
    let canvas = use_node_ref();
    let (width, theme) = use_redraw_triggers(canvas.clone());
    let Some(shape) = props.run.extras::<SentryShape>() else { return html! {} };
    let cursor = scan_cursor(&props.run, &props.view, shape);
    {
        let canvas = canvas.clone();
        let shape = shape.clone();
        use_effect_with((cursor, width, theme, Rc::as_ptr(&props.run) as usize), move |(_, width, _, _)| {
            // Until the resize observer reports a width, drawing would force a layout.
            if *width > 0 {
                draw(&canvas, &shape, cursor);
            }
        });
    }
    let view = &props.view;
    let what = if shape.tgids { "thread groups (tgids)" } else { "tasks (tids)" };
    html! {
        <section class="gv-stage" aria-label="The sentry's task set">
            <header class="gv-head">
                <h3>{ format!("The task set: {}, {}", slowpath_engine::run::narration::counted(shape.total_tasks, "task", "tasks"), slowpath_engine::run::narration::counted(shape.processes + shape.sidecars, "thread group", "thread groups")) }</h3>
                { lock_badge(view) }
            </header>
            <p class="gv-count">
                <span data-testid="gv-visited">{ format!("visited {} of {} {} in this scan", group_digits(cursor.visited), group_digits(shape.visits_per_scan), what) }</span>
                if let Some(tid) = cursor.tid { <span class="gv-cursor" data-testid="gv-cursor">{ format!(" · cursor at tid {}", group_digits(tid)) }</span> }
                if let Some(tick) = cursor.tick { <span>{ format!(" · tick {}", group_digits(tick)) }</span> }
            </p>
            <div class="gv-grid-row">
                <canvas ref={canvas} class="gv-grid" role="img"
                    aria-label={format!("{} tasks; {} visited in this scan", shape.total_tasks, cursor.visited)} />
                { tgids_list(shape, cursor) }
            </div>
            <p class="gv-legend">
                <span class="gv-key gv-key-sleep" />{ "asleep (benchmark thread) " }
                <span class="gv-key gv-key-leader" />{ "thread-group leader " }
                <span class="gv-key gv-key-visited" />{ "visited in this scan " }
                <span class="gv-key gv-key-cursor" />{ "cursor" }
            </p>
            <p class="gv-asleep">{ "These threads are asleep; this CPU is spent on them anyway." }</p>
            { cpu_meter(view) }
            { ticker_clock(shape) }
            { lock_waits(view, shape) }
        </section>
    }
}

/// Who holds `TaskSet.mu` and how, or that it is free.
fn lock_badge(view: &View) -> Html {
    let readers: Vec<String> = view
        .locks
        .first()
        .map(|lock| {
            lock.holders
                .iter()
                .map(|holder| {
                    let name =
                        view.tasks.get(holder.task.0 as usize).map_or("?".into(), |task| task.name.clone());
                    format!("{} ({})", name, if holder.mode == LockMode::Read { "read" } else { "write" })
                })
                .collect()
        })
        .unwrap_or_default();
    if readers.is_empty() {
        html! { <span class="gv-badge gv-free" data-testid="gv-lock">{ "TaskSet.mu: free" }</span> }
    } else {
        html! { <span class="gv-badge gv-held" data-testid="gv-lock">{ format!("TaskSet.mu held: {}", readers.join(", ")) }</span> }
    }
}

/// After the fix, the first thread groups of the tgids list, those the scan has
/// visited marked; nothing before it.
fn tgids_list(shape: &SentryShape, cursor: ScanCursor) -> Html {
    if !shape.tgids {
        return html! {};
    }
    let groups = shape.processes + shape.sidecars;
    let shown = groups.min(12);
    html! {
        <div class="gv-tgids" data-testid="gv-tgids">
            <h4>{ format!("tgids: {} entries", group_digits(groups)) }</h4>
            <ol>
                { for (0..shown).map(|group| {
                    let leader = if group < shape.processes { group * shape.threads_per_process } else { shape.threads_per_process * shape.processes + group - shape.processes };
                    let touched = cursor.visited > group;
                    html! { <li class={classes!(touched.then_some("gv-touched"))}>{ format!("tg {} → tid {}", group + 1, group_digits(SentryShape::tid(leader))) }</li> }
                }) }
                if groups > shown { <li>{ format!("… {} more", group_digits(groups - shown)) }</li> }
            </ol>
        </div>
    }
}

/// The ticker's CPU so far, as a share of one CPU, and whether it scans now.
fn cpu_meter(view: &View) -> Html {
    let ticker = view.tasks.first();
    let sys = ticker.map_or(0, |task| task.sys_ns);
    let share = if view.now_ns > 0 { sys as f64 / view.now_ns as f64 } else { 0.0 };
    let scanning = ticker.is_some_and(|task| {
        matches!(task.state, TaskState::RunningKernel { .. } | TaskState::BlockedOnLock { .. })
    });
    html! {
        <div class="gv-meter" data-testid="gv-cpu">
            <div class="gv-meter-bar"><div class="gv-meter-fill" style={format!("width:{}%", slowpath_engine::run::format::Fixed((share * 100.0).min(100.0), 2))} /></div>
            <span>{ format!("cpu-clock ticker: {} of CPU in {} ({} % of one CPU){}", format_duration(sys), format_duration(view.now_ns), slowpath_engine::run::format::Fixed(share * 100.0, 2), if scanning { ", scanning now" } else { "" }) }</span>
        </div>
    }
}

/// The ticker's clock: its period and one scan's cost, and one tick drawn as scan
/// then idle; or that it stops while every task sleeps.
fn ticker_clock(shape: &SentryShape) -> Html {
    html! {
        <>
            <p class="gv-clock">
                { if shape.idle_stop {
                    "Ticker: stopped while every task sleeps (dd69b49).".to_string()
                } else {
                    format!("Ticker: every {} ({} Hz); one scan takes {} per tick; {} scans in this run.",
                        format_duration(shape.tick_ns), 1_000_000_000 / shape.tick_ns.max(1), format_duration(shape.scan_ns), group_digits(shape.scans))
                } }
            </p>
            if !shape.idle_stop {
                <div class="gv-tick" aria-label="one tick period: the scan, then idle">
                    <div class="gv-tick-scan" style={format!("width:{}%", slowpath_engine::run::format::Fixed((shape.scan_ns as f64 / shape.scan_period_ns.max(1) as f64 * 100.0).min(100.0), 2))} />
                    <span>{ format!("one tick: {} scanning, {} idle", format_duration(shape.scan_ns), format_duration(shape.scan_period_ns.saturating_sub(shape.scan_ns))) }</span>
                </div>
            }
        </>
    }
}

/// Who waits for `TaskSet.mu` now, and how long this run's clone waited for a scan.
fn lock_waits(view: &View, shape: &SentryShape) -> Html {
    let waiting: Vec<String> = view
        .locks
        .first()
        .map(|lock| {
            lock.waiters
                .iter()
                .map(|waiter| {
                    let name =
                        view.tasks.get(waiter.task.0 as usize).map_or("?".into(), |task| task.name.clone());
                    format!(
                        "{} waits {} since {}",
                        name,
                        if waiter.mode == LockMode::Read { "to read" } else { "to write" },
                        format_duration(view.now_ns.saturating_sub(waiter.since_ns))
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    html! {
        <>
            if !waiting.is_empty() {
                <p class="gv-writer" data-testid="gv-writer">{ waiting.join("; ") }</p>
            }
            if let Some(wait) = shape.writer_wait_ns.filter(|&wait| wait > 0) {
                <p class="gv-note">{ format!("In this run a clone waits {} for a scan to release TaskSet.mu (see the timeline).", format_duration(wait)) }</p>
            }
        </>
    }
}

fn draw(canvas: &NodeRef, shape: &SentryShape, cursor: ScanCursor) {
    let Some(element) = canvas.cast::<web_sys::HtmlCanvasElement>() else { return };
    let width = f64::from(element.client_width().max(1));
    let n = shape.total_tasks;
    // About 10rem tall: the grid shares the first screen with the rest of the stage.
    let (cell, cols, height) = geometry(n, width, 170.0);
    let Some((pen, _)) = context_2d(&element, height) else { return };
    // Its exact height, in place of the stylesheet's first guess (which keeps the
    // stage from moving while the run arrives).
    let _ = element
        .style()
        .set_property("height", &format!("{}px", slowpath_engine::run::format::Shortest(height)));
    let el: &web_sys::Element = &element;
    let sleep = css_var(el, "--gv-sleep", "#c8c8c8");
    let leader = css_var(el, "--gv-leader", "#333");
    let visited = css_var(el, "--gv-visited", "#e07020");
    let now = css_var(el, "--gv-cursor", "#d00");
    let pos = |i: u64| ((i % cols) as f64 * cell, (i / cols) as f64 * cell);
    let gap = if cell >= 4.0 { 1.0 } else { 0.0 };
    pen.clear_rect(0.0, 0.0, width, height);
    // Every task, asleep: whole rows at once.
    pen.set_fill_style_str(&sleep);
    let full_rows = n / cols;
    pen.fill_rect(0.0, 0.0, cols as f64 * cell, full_rows as f64 * cell);
    if n % cols > 0 {
        pen.fill_rect(0.0, full_rows as f64 * cell, (n % cols) as f64 * cell, cell);
    }
    // Visited in this scan: a prefix of tid order before the fix; leaders only after.
    pen.set_fill_style_str(&visited);
    if !shape.tgids {
        let v = cursor.visited.min(n);
        let rows = v / cols;
        pen.fill_rect(0.0, 0.0, cols as f64 * cell, rows as f64 * cell);
        pen.fill_rect(0.0, rows as f64 * cell, (v % cols) as f64 * cell, cell);
    }
    // Leaders (and, after the fix, the ones this scan touched).
    let groups = shape.processes + shape.sidecars;
    for g in 0..groups {
        let i = if g < shape.processes {
            g * shape.threads_per_process
        } else {
            shape.threads_per_process * shape.processes + g - shape.processes
        };
        let touched = shape.tgids && cursor.visited > g;
        pen.set_fill_style_str(if touched { &visited } else { &leader });
        let (x, y) = pos(i);
        pen.fill_rect(x, y, (cell - gap).max(1.0), (cell - gap).max(1.0));
    }
    if let Some(tid) = cursor.tid {
        let (x, y) = pos(tid - 1);
        pen.set_fill_style_str(&now);
        let grow = (3.0 - cell).max(0.0);
        pen.fill_rect(x - grow, y - grow, cell + 2.0 * grow, cell + 2.0 * grow);
    }
}
