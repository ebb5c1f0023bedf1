//! "What sets the length of the fast runs?": for the FIFO trigger, one
//! parameter swept over a handful of values, each point a 10 s run of the
//! engine with this run's other parameters, kernel and seed. Plotted on a
//! canvas: the fast writes between bursts and the writes over 1 ms, the
//! reported figure as a dashed line, this run's value marked. Computed only on
//! request, each point a run asked of the engine's worker, and memoised; saved as
//! CSV (and, for non-negative values, SVG) from the same points.

use slowpath_engine::cases::fifo_trigger::pipe::PIPE_SIZE;
use slowpath_engine::run::format;
use slowpath_engine::run::narration::group_digits;
use slowpath_engine::run::params::{ParamValue, ParamValues};
use slowpath_engine::run::trace::Metric;
use slowpath_engine::{CaseMeta, Run};
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

mod chart;

use chart::SweepChart;

/// The metric plotted as the fast runs, and the reported figure it is compared with.
const FAST_METRIC: &str = "fast_writes_between_bursts";
const SLOW_METRIC: &str = "writes_over_1ms";
/// Every point of the sweep is a run of this length.
const SWEEP_DURATION: &str = "10s";
/// Under the plot, fixed; checked against the engine at the defaults by `the_explanation_holds_at_the_defaults`.
const EXPLANATION: &str = "In this model a fast run is what the writer prints in one timeslice while the listener waits \
    on the run queue, so it follows the writer's cost per line and its timeslice (with very cheap lines it stops at {pipe} \
    writes, when the FIFO's one-page buffer is full). The listener's busy loop hardly changes it once the loop is long \
    (10⁵ iterations and up with the other parameters at their defaults); shorter loops, and the listener's nice, change \
    it a lot, and some nice values give no repeated bursts at all.";
/// Finished sweeps kept (per parameter, parameters, kernel and seed).
const CACHE_MAX: usize = 12;

/// The parameter swept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Swept {
    LoopIters,
    PrintCost,
    ListenerNice,
}

impl Swept {
    const ALL: [Swept; 3] = [Swept::LoopIters, Swept::PrintCost, Swept::ListenerNice];

    /// The parameter's name in the schema.
    fn name(self) -> &'static str {
        match self {
            Swept::LoopIters => "loop_iters",
            Swept::PrintCost => "print_cost",
            Swept::ListenerNice => "listener_nice",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Swept::LoopIters => "the listener's busy loop (loop_iters)",
            Swept::PrintCost => "the writer's cost per line (print_cost)",
            Swept::ListenerNice => "the listener's nice (listener_nice)",
        }
    }

    /// The x axis's title, and a short one for narrow plots.
    fn axis_title(self, short: bool) -> &'static str {
        if short {
            return match self {
                Swept::LoopIters => "busy-loop iterations (log)",
                Swept::PrintCost => "cost per line (log)",
                Swept::ListenerNice => "listener nice",
            };
        }
        match self {
            Swept::LoopIters => "iterations of the listener's busy loop (log scale)",
            Swept::PrintCost => "the writer's cost per printed line (log scale)",
            Swept::ListenerNice => "the listener's nice value",
        }
    }

    /// The values swept, as text parsed by the parameter's own spec.
    fn values(self) -> &'static [&'static str] {
        match self {
            Swept::LoopIters => &["1000", "3000", "10000", "30000", "100000", "1000000", "10000000"],
            Swept::PrintCost => &["10us", "20us", "50us", "100us", "140us", "200us", "400us"],
            Swept::ListenerNice => &["-5", "-4", "-3", "-2", "-1", "0", "1", "2", "3", "4", "5"],
        }
    }

    fn log_scale(self) -> bool {
        !matches!(self, Swept::ListenerNice)
    }

    fn from_name(name: &str) -> Option<Swept> {
        Swept::ALL.into_iter().find(|swept| swept.name() == name)
    }

    /// A value as the sentence and the readout say it.
    fn show(self, value: f64) -> String {
        match self {
            Swept::LoopIters => group_digits(value as u64),
            Swept::PrintCost => {
                let ns = value as u64;
                if ns % 1_000 == 0 && ns < 1_000_000 {
                    format!("{} µs", ns / 1_000)
                } else {
                    format::duration(ns)
                }
            }
            Swept::ListenerNice => signed(value as i64),
        }
    }

    /// A value as an axis tick says it (short).
    fn tick(self, value: f64) -> String {
        match self {
            Swept::LoopIters => {
                let exponent = value.log10().floor();
                let mantissa = (value / 10f64.powf(exponent)).round() as u64;
                let power = format!("10{}", superscript(exponent as u32));
                if mantissa == 1 {
                    power
                } else {
                    format!("{mantissa}×{power}")
                }
            }
            Swept::PrintCost => self.show(value).replace(' ', ""),
            Swept::ListenerNice => signed(value as i64),
        }
    }
}

fn signed(value: i64) -> String {
    match value {
        0 => "0".to_string(),
        v if v < 0 => format!("−{}", -v),
        v => format!("+{v}"),
    }
}

fn superscript(n: u32) -> String {
    const DIGITS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    n.to_string().chars().map(|c| DIGITS[c.to_digit(10).unwrap_or(0) as usize]).collect()
}

/// A parameter value as a number on the x axis.
fn numeric(value: &ParamValue) -> f64 {
    match value {
        ParamValue::Unsigned(v) => *v as f64,
        ParamValue::Signed(v) => *v as f64,
        _ => 0.0,
    }
}

/// One run of the sweep: the swept value and what the run measured.
#[derive(Clone, Debug, PartialEq)]
struct Point {
    x: f64,
    /// None when the run has fewer than two bursts: no fast run between bursts.
    fast: Option<u64>,
    slow: u64,
    /// The run could not be made (never expected: the values are in range).
    failed: bool,
}

/// What a finished sweep depends on: the parameter, the other parameters
/// (without `duration`, which the sweep sets), the kernel and the seed.
#[derive(Clone, Debug, PartialEq)]
struct SweepKey {
    swept: Swept,
    params: ParamValues,
    variant: &'static str,
    seed: u64,
}

impl SweepKey {
    fn of(run: &Run, swept: Swept) -> SweepKey {
        let mut params = run.params.clone();
        params.0.remove("duration");
        SweepKey { swept, params, variant: run.variant, seed: run.seed }
    }
}

fn spec(meta: &'static CaseMeta, name: &str) -> Option<&'static slowpath_engine::run::params::ParamSpec> {
    meta.params.iter().find(|spec| spec.name == name)
}

/// A swept value as the parameter's spec reads it.
fn parse_value(meta: &'static CaseMeta, swept: Swept, text: &str) -> Option<ParamValue> {
    spec(meta, swept.name()).map(|spec| spec.parse_clamped(text).0)
}

/// Every value of a sweep, as numbers on the x axis.
fn xs_of(meta: &'static CaseMeta, swept: Swept) -> Vec<f64> {
    swept.values().iter().filter_map(|text| parse_value(meta, swept, text)).map(|v| numeric(&v)).collect()
}

/// The run of one sweep point: its x, and the run to ask for.
fn point_key(meta: &'static CaseMeta, key: &SweepKey, text: &str) -> (f64, crate::worker::RunKey) {
    let mut params = key.params.clone();
    let mut x = 0.0;
    if let Some(spec) = spec(meta, "duration") {
        params.0.insert("duration".into(), spec.parse_clamped(SWEEP_DURATION).0);
    }
    if let Some(value) = parse_value(meta, key.swept, text) {
        x = numeric(&value);
        params.0.insert(key.swept.name().into(), value);
    }
    (x, crate::worker::RunKey { case: meta.id, variant: key.variant, seed: key.seed, params })
}

/// What one sweep point's run measured (None: the run could not be made).
fn point_of(x: f64, metrics: Option<&std::collections::BTreeMap<String, Metric>>) -> Point {
    let Some(metrics) = metrics else { return Point { x, fast: None, slow: 0, failed: true } };
    let fast = match metrics.get(FAST_METRIC) {
        Some(Metric::None(value)) => *value,
        _ => None,
    };
    let slow = match metrics.get(SLOW_METRIC) {
        Some(Metric::Count(n)) => *n,
        _ => 0,
    };
    Point { x, fast, slow, failed: false }
}

/// The first number in a reported figure's words ("around 700" → 700).
fn reported_number(text: &str) -> Option<f64> {
    let start = text.find(|c: char| c.is_ascii_digit())?;
    let digits: String = text[start..]
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ',' || *c == '.')
        .filter(|c| *c != ',')
        .collect();
    slowpath_engine::run::format::parse_decimal(digits.trim_end_matches('.'))
}

/// The reported figure for the fast runs: its words and the number in them.
fn reported(meta: &'static CaseMeta) -> Option<(&'static str, Option<f64>)> {
    meta.reported
        .iter()
        .find(|figure| figure.metric == FAST_METRIC)
        .map(|figure| (figure.reported, reported_number(figure.reported)))
}

/// "−4, −3 and −2".
fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// One sentence, from the data: how much the fast runs changed across the sweep.
fn summary_sentence(swept: Swept, points: &[Point]) -> String {
    let done: Vec<&Point> = points.iter().filter(|p| !p.failed).collect();
    let with_fast: Vec<(&Point, u64)> = done.iter().filter_map(|p| p.fast.map(|n| (*p, n))).collect();
    let (Some(first), Some(last)) = (done.first(), done.last()) else {
        return "No run of the sweep could be made.".to_string();
    };
    let range = match swept {
        Swept::LoopIters => {
            format!(
                "From {} to {} iterations of the listener's busy loop",
                swept.show(first.x),
                swept.show(last.x)
            )
        }
        Swept::PrintCost => format!("From {} to {} per line", swept.show(first.x), swept.show(last.x)),
        Swept::ListenerNice => {
            format!("From listener nice {} to {}", swept.show(first.x), swept.show(last.x))
        }
    };
    let slow =
        format!("writes over 1 ms go from {} to {}", group_digits(first.slow), group_digits(last.slow));
    let mut sentence = match with_fast.as_slice() {
        [] => format!(
            "No value in this sweep gives repeated bursts, so there is no fast run between bursts to measure. {range}, the {slow}."
        ),
        [(only, n)] => format!(
            "Only at {} do the bursts repeat, with {} fast writes between them. {range}, the {slow}.",
            swept.show(only.x),
            group_digits(*n)
        ),
        [(a, na), .., (b, nb)] => {
            let min = with_fast.iter().map(|(_, n)| *n).min().unwrap_or(0);
            let max = with_fast.iter().map(|(_, n)| *n).max().unwrap_or(0);
            let (lo, hi) = ((*na).min(*nb), (*na).max(*nb));
            let lead = if a.x == first.x && b.x == last.x {
                range.clone()
            } else {
                format!("{range} (repeated bursts from {} to {})", swept.show(a.x), swept.show(b.x))
            };
            let on_the_way = if min < lo || max > hi {
                format!(", passing {} to {} on the way", group_digits(min), group_digits(max))
            } else {
                String::new()
            };
            format!(
                "{lead}, the fast runs between bursts go from {} to {} writes{on_the_way}, and the {slow}.",
                group_digits(*na),
                group_digits(*nb)
            )
        }
    };
    let without: Vec<String> = done.iter().filter(|p| p.fast.is_none()).map(|p| swept.show(p.x)).collect();
    if !without.is_empty() && !with_fast.is_empty() {
        sentence.push_str(&format!(" At {} there are no repeated bursts.", join_and(&without)));
    }
    let failed = points.iter().filter(|p| p.failed).count();
    if failed > 0 {
        sentence.push_str(&format!(
            " {} failed and {} left out.",
            slowpath_engine::run::narration::counted(failed as u64, "run", "runs"),
            if failed == 1 { "is" } else { "are" }
        ));
    }
    sentence
}

/// The readout of one point (hover or arrow keys on the plot).
fn point_text(swept: Swept, point: &Point) -> String {
    let x = format!("{} = {}", swept.name(), swept.show(point.x));
    if point.failed {
        return format!("{x}: the run failed");
    }
    let fast = point.fast.map_or("no repeated bursts".to_string(), |n| {
        format!("{} fast writes between bursts", group_digits(n))
    });
    format!("{x}: {fast}, {} writes over 1 ms", group_digits(point.slow))
}

/// A sweep in progress: the points so far and the request for the next one.
struct Job {
    key: SweepKey,
    points: Vec<Point>,
    _next: Option<crate::worker::Ticket>,
}

type Cache = Rc<RefCell<Vec<(SweepKey, Rc<Vec<Point>>)>>>;
type JobSlot = Rc<RefCell<Option<Job>>>;

/// Asks the engine's worker for the job's next point, then the one after.
fn schedule(job: JobSlot, cache: Cache, update: UseForceUpdateHandle, meta: &'static CaseMeta) {
    let Some((x, run_key)) = job.borrow().as_ref().and_then(|running| {
        let text = running.key.swept.values().get(running.points.len())?;
        Some(point_key(meta, &running.key, text))
    }) else {
        return;
    };
    let slot = job.clone();
    let on_answer = Callback::from(move |answer: crate::worker::Answer| {
        let point = match answer {
            crate::worker::Answer::Summary(summary) => point_of(x, Some(&summary.metrics)),
            crate::worker::Answer::Failed(_) => point_of(x, None),
            _ => return,
        };
        let finished = {
            let mut current = slot.borrow_mut();
            let Some(running) = current.as_mut() else { return };
            running.points.push(point);
            running.points.len() >= running.key.swept.values().len()
        };
        if finished {
            if let Some(done) = slot.borrow_mut().take() {
                let mut cache = cache.borrow_mut();
                cache.retain(|(key, _)| *key != done.key);
                if cache.len() >= CACHE_MAX {
                    cache.remove(0);
                }
                cache.push((done.key, Rc::new(done.points)));
            }
        } else {
            schedule(slot.clone(), cache.clone(), update.clone(), meta);
        }
        update.force_update();
    });
    let ticket = crate::worker::ask(run_key, slowpath_engine::run::wire::Detail::Summary, on_answer);
    if let Some(running) = job.borrow_mut().as_mut() {
        running._next = Some(ticket);
    }
}

#[derive(Properties, Clone)]
pub struct FifoSweepProps {
    pub run: Rc<Run>,
    pub meta: &'static CaseMeta,
}

impl PartialEq for FifoSweepProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.run, &other.run)
    }
}

#[function_component(FifoSweep)]
pub fn fifo_sweep(props: &FifoSweepProps) -> Html {
    let meta = props.meta;
    let swept = use_state(|| Swept::LoopIters);
    let cache: Cache = use_mut_ref(Vec::new);
    let job: JobSlot = use_mut_ref(|| None);
    let update = use_force_update();
    let hover = use_state(|| None::<usize>);
    {
        // A sweep still running when the player goes away is cancelled.
        let job = job.clone();
        use_effect_with((), move |_| move || drop(job.borrow_mut().take()));
    }
    let key = SweepKey::of(&props.run, *swept);
    let finished = cache.borrow().iter().find(|(k, _)| *k == key).map(|(_, points)| points.clone());
    let running = job.borrow().as_ref().filter(|j| j.key == key).map(|j| j.points.clone());
    let busy = finished.is_none() && running.is_some();
    let total = swept.values().len();

    let on_param = {
        let swept = swept.clone();
        let hover = hover.clone();
        Callback::from(move |event: Event| {
            let Some(select) = event.target_dyn_into::<web_sys::HtmlSelectElement>() else { return };
            if let Some(choice) = Swept::from_name(&select.value()) {
                hover.set(None);
                swept.set(choice);
            }
        })
    };
    let on_run = {
        let job = job.clone();
        let cache = cache.clone();
        let update = update.clone();
        let key = key.clone();
        Callback::from(move |_: MouseEvent| {
            *job.borrow_mut() = Some(Job { key: key.clone(), points: Vec::new(), _next: None });
            schedule(job.clone(), cache.clone(), update.clone(), meta);
            update.force_update();
        })
    };

    let points: Option<Rc<Vec<Point>>> = finished.clone().or_else(|| running.map(Rc::new));
    let current_x = props.run.params.0.get(swept.name()).map(numeric);
    let reported = reported(meta);
    let hover_text = points
        .as_ref()
        .and_then(|points| hover.and_then(|i| points.get(i)))
        .map(|point| point_text(*swept, point));
    let any_missing = points.as_ref().is_some_and(|points| points.iter().any(|p| p.fast.is_none()));
    let status = if busy {
        format!("Running… {} of {total} runs done", running_len(&job))
    } else if finished.is_some() {
        format!("{total} runs of {} each, one per value", SWEEP_DURATION)
    } else {
        format!("Not run yet: {total} runs of {SWEEP_DURATION} each")
    };

    html! {
        <section class="panel fifo-sweep" aria-labelledby="fifo-sweep-title" data-testid="fifo-sweep" aria-busy={busy.to_string()}>
            <h2 id="fifo-sweep-title">{ "What sets the length of the fast runs?" }</h2>
            <p class="muted">
                { format!("Each point is a {SWEEP_DURATION} run of the engine on Linux {} with this run's other parameters and seed, \
                    one parameter changed. Plotted: the fast writes between two bursts and the writes over 1 ms, on a log scale.", props.run.variant) }
            </p>
            <div class="sweep-controls">
                <label class="sweep-field">
                    <span>{ "Sweep " }</span>
                    <select data-testid="sweep-param" onchange={on_param} disabled={busy}>
                        { for Swept::ALL.iter().map(|choice| html! {
                            <option value={choice.name()} selected={*choice == *swept}>{ choice.label() }</option>
                        }) }
                    </select>
                </label>
                <button type="button" class="fifo-compare-toggle" data-testid="sweep-run" onclick={on_run}
                    disabled={busy || finished.is_some()}>
                    { if busy { "Running the sweep…" } else if finished.is_some() { "Sweep done" } else { "Run the sweep" } }
                </button>
                <span class="sweep-status muted" role="status">{ status }</span>
            </div>
            if let Some(points) = points.clone() {
                <SweepChart swept={*swept} xs={Rc::new(xs_of(meta, *swept))} points={points.clone()} current_x={current_x}
                    reported={reported.and_then(|(text, n)| n.map(|n| (text, n)))} hover={*hover}
                    on_hover={ let hover = hover.clone(); Callback::from(move |i: Option<usize>| hover.set(i)) } />
                <ul class="sweep-legend" role="list">
                    <li><span class="sweep-key fast" aria-hidden="true"></span>{ "fast writes between bursts" }</li>
                    <li><span class="sweep-key slow" aria-hidden="true"></span>{ "writes over 1 ms" }</li>
                    if let Some((text, Some(_))) = reported {
                        <li><span class="sweep-key reported" aria-hidden="true"></span>{ format!("reported: {text}") }</li>
                    }
                    <li><span class="sweep-key now" aria-hidden="true"></span>{ "this run's value" }</li>
                    if any_missing {
                        <li><span class="sweep-key missing" aria-hidden="true">{ "×" }</span>{ "no repeated bursts (fewer than two)" }</li>
                    }
                </ul>
                if finished.is_some() {
                    <crate::player::export::PlotExport run={props.run.clone()}
                        chart={sweep_chart(*swept, &points, props.run.variant)} table={Rc::new(sweep_table(*swept, &points))} />
                }
                <p class="sweep-readout muted" aria-live="polite">
                    { hover_text.unwrap_or_else(|| "Point at the plot, or focus it and use ← →, to read a run.".to_string()) }
                </p>
            }
            if let Some(points) = finished {
                <p class="sweep-summary" data-testid="sweep-summary">{ summary_sentence(*swept, &points) }</p>
            }
            <p class="sweep-note muted">{ EXPLANATION.replace("{pipe}", &group_digits(PIPE_SIZE)) }</p>
        </section>
    }
}

/// The sweep's points as a table: the swept value, then what each run measured
/// (empty where the run had fewer than two bursts, or failed).
fn sweep_table(swept: Swept, points: &[Point]) -> slowpath_engine::export::csv::Table {
    let mut table =
        slowpath_engine::export::csv::Table::new("sweep", &[swept.name(), FAST_METRIC, SLOW_METRIC]);
    for point in points {
        let fast = point.fast.map_or_else(String::new, |fast| fast.to_string());
        let slow = if point.failed { String::new() } else { point.slow.to_string() };
        table.row(vec![slowpath_engine::run::format::Shortest(point.x).to_string(), fast, slow]);
    }
    table
}

/// The sweep as an SVG chart; None for a swept value below zero (a nice value),
/// which the chart's axes do not hold (the CSV has it).
fn sweep_chart(
    swept: Swept,
    points: &[Point],
    variant: &str,
) -> Option<Rc<slowpath_engine::export::chart::Chart>> {
    use slowpath_engine::export::chart::{Chart, Mark, Series, Unit};
    if points.iter().any(|point| point.x < 0.0) {
        return None;
    }
    let fast = points.iter().filter_map(|p| Some((p.x as u64, p.fast?))).collect();
    let slow = points.iter().filter(|p| !p.failed).map(|p| (p.x as u64, p.slow)).collect();
    Some(Rc::new(Chart {
        name: "sweep",
        title: format!("What sets the length of the fast runs? Linux {variant}"),
        x_label: swept.axis_title(false),
        x_unit: if matches!(swept, Swept::PrintCost) { Unit::Ns } else { Unit::Count },
        log_x: swept.log_scale(),
        log_y: true,
        y_label: "writes",
        y_unit: Unit::Count,
        series: vec![
            Series::new("fast writes between bursts", "#2563eb", Mark::Line, fast),
            Series::new("writes over 1 ms", "#b91c1c", Mark::Line, slow),
        ],
    }))
}

fn running_len(job: &JobSlot) -> usize {
    job.borrow().as_ref().map_or(0, |j| j.points.len())
}

#[cfg(test)]
mod tests;
