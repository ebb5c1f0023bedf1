//! The FIFO trigger's writes, below the stage: the FIFO's inode, the writer's output beside the
//! reporter's, the dt of every write on a canvas (a click seeks to a write), and how
//! the model differs from the report. Kept apart from the stage so that the stage
//! fits one screen. The player's compare mode draws it once per side.

use super::chart::{DtChart, MeasuredBand};
use super::output::{output, ReporterGrep};
use slowpath_engine::cases::fifo_trigger::FifoCase;
use slowpath_engine::run::format;
use slowpath_engine::run::narration::group_digits;
use slowpath_engine::run::view::View;
use slowpath_engine::Run;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, Clone)]
pub struct FifoWritesProps {
    pub run: Rc<Run>,
    pub view: Rc<View>,
    /// Click on the dt chart: seek to a write's first gettimeofday().
    pub on_seek_time: Callback<u64>,
}

impl PartialEq for FifoWritesProps {
    // The callback is rebuilt on every render of the player but always dispatches
    // the same action; comparing it would re-render the charts for nothing.
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.run, &other.run) && self.view == other.view
    }
}

/// How many writes have a printed line at `now_ns` (their dt is known), and
/// the index of the write in progress or last done (None before the first).
fn write_progress(case: &FifoCase, now_ns: u64) -> (usize, Option<usize>) {
    let started = case.write_time_ns.partition_point(|&t| t <= now_ns);
    let Some(last) = started.checked_sub(1) else { return (0, None) };
    let done = case.write_time_ns[last] + case.write_dt_ns.get(last).copied().unwrap_or(0) <= now_ns;
    (if done { started } else { last }, Some(last))
}

/// The whole-run figures under the chart.
#[derive(Clone, PartialEq)]
struct Summary {
    writes: u64,
    slow: u64,
    max_ns: u64,
    bursts: u64,
}

fn summary(case: &FifoCase) -> Summary {
    Summary {
        writes: case.write_dt_ns.len() as u64,
        slow: case.write_dt_ns.iter().filter(|&&dt| dt >= case.slow_ns).count() as u64,
        max_ns: case.write_dt_ns.iter().copied().max().unwrap_or(0),
        bursts: case.bursts.len() as u64,
    }
}

#[function_component(FifoWrites)]
pub fn fifo_writes(props: &FifoWritesProps) -> Html {
    let run = props.run.clone();
    // The static data, cloned once per run (the charts hold it by Rc).
    let case = {
        let run = run.clone();
        use_memo(Rc::as_ptr(&props.run) as usize, move |_| run.extras::<FifoCase>().cloned().map(Rc::new))
    };
    // Today's run: the longest write of each measured run, read from the case's results file.
    let check = slowpath_engine::cases::fifo_trigger::META.today.filter(|check| check.variant == run.variant);
    let results = crate::player::today::use_results_file(check.map(|check| check.url()));
    // Read once per file, not at every step this section re-renders while playing.
    let band = {
        let results = results.clone();
        use_memo((Rc::as_ptr(&results) as usize, check.is_some()), move |_| {
            let band = match (check, &*results) {
                (Some(check), Some(Ok(text))) => measured_band(&check.selected_ms(text)),
                _ => None,
            };
            (band, crate::player::today::measured_release(&results))
        })
    };
    let Some(case) = (*case).clone() else { return html! {} };
    let (measured, release) = (band.0, &band.1);
    let now = props.view.now_ns;
    let (printed, current_write) = write_progress(&case, now);
    html! {
        <section class="panel stage fifo-stage fifo-writes" aria-labelledby="fifo-writes-title" data-testid="fifo-writes">
            <h2 id="fifo-writes-title">{ format!("The FIFO and every write's dt, Linux {}", case.kernel) }</h2>
            { super::stage::pipe(&case, &props.view) }
            <div class="fifo-row">
                { output(&case, printed) }
                <ReporterGrep case={case.clone()} printed={printed} />
            </div>
            <figure class="fifo-charts" data-testid="dt-charts">
                <figcaption>
                    { "dt of every write on a log scale (x: write number). Slow writes (≥ " }{ format::duration(case.slow_ns) }
                    { ") in red, bursts numbered above, the current write marked by a line and a dot. Click a bar to jump to that write." }
                    if let (Some((band, runs)), Some(check)) = (measured, check) {
                        <span data-testid="dt-measured">
                            { format!(
                                " The grey band behind the bars was measured on Linux {release}. {}: {} to {} over {runs} \
                                 runs. This run's longest write is in the figures below.",
                                check.what,
                                format::duration(band.low_ns),
                                format::duration(band.high_ns),
                            ) }
                        </span>
                    }
                </figcaption>
                <div class="fifo-chart-grid">
                    <div class="fifo-chart-cell">
                        <p class="fifo-chart-title">{ format!("Linux {}", case.kernel) }</p>
                        <DtChart case={case.clone()} current={current_write} seekable={true}
                            on_seek={props.on_seek_time.clone()} testid="dt-chart" measured={measured.map(|(band, _)| band)} />
                        { summary_list(&summary(&case), &case) }
                    </div>
                </div>
            </figure>
            { model_notes() }
        </section>
    }
}

/// The spread of the measured values (ms), and how many: None without any.
fn measured_band(values_ms: &[f64]) -> Option<(MeasuredBand, usize)> {
    let ns = |ms: f64| (ms * 1e6).round() as u64;
    let low = values_ms.iter().copied().reduce(f64::min)?;
    let high = values_ms.iter().copied().reduce(f64::max)?;
    Some((MeasuredBand { low_ns: ns(low), high_ns: ns(high) }, values_ms.len()))
}

/// What the model chose where the report is silent, and where it departs from it.
fn model_notes() -> Html {
    html! {
        <details class="fifo-model-notes" data-testid="fifo-model-notes">
            <summary>{ "How this model differs from the report" }</summary>
            <ul>
                <li>{ "Only the two programs share the CPU. The reporter's output went through grep or to a terminal; \
                       here each printed line simply costs the writer a calibrated time (the Writer's fprintf parameter)." }</li>
                <li>{ "System calls cost what LMbench measured on machines of that era, and the busy loop one cycle of \
                       the reporter's 1.83 GHz Athlon per iteration: model values, not measurements of his machine." }</li>
                <li>{ "The listener starts first and sleeps in select() until the writer is started (2 s by default), \
                       which makes it just interactive. That is why the first burst opens with a several-slice write; \
                       later bursts in the model open with a one-slice write, where the reporter saw 302 ms again." }</li>
                <li>{ "Both programs are forked by a shell whose sleep credit is unknown (the Shell's bonus parameter, \
                       0 by default); with an interactive shell the first writes are fast and the first burst is shorter." }</li>
                <li>{ "On 2.4.24 the reporter saw no slow write. On one CPU, 2.4.24's own rules predict slow writes: \
                       after a counter recalculation finds the listener asleep, its wakeup preempts the writer inside \
                       write(), and each such write waits one counter (about 90 ms), so the writer manages only about \
                       5 writes a second. The report's fast 2.4.24 matches only an SMP kernel (the 2.4.24-smp variant: \
                       a Hyper-Threading P4 with an SMP 2.4 kernel, where reschedule_idle sends the woken listener to \
                       the idle sibling instead of preempting the writer). That hypothesis also needs the 2.6.1 kernel \
                       to have run on one CPU. Which one the reporter ran is unknown: he gave no hardware details." }</li>
                <li>{ "2.4.24-smp does not slow the two logical CPUs down for sharing one core (Hyper-Threading): \
                       each runs at full speed, a model choice." }</li>
                <li>{ "The today variant is Linux 6.18 as measured on the project's machine, both programs pinned to \
                       one CPU: EEVDF with the base slice the kernel gives two CPUs (inferred), that kernel's tick rate, \
                       preempt=none, and \
                       each system call's and the busy loop's cost measured there. A listener that sleeps owing CPU time \
                       leaves the run queue with its debt forgiven (v6.18 keeps it queued until it is eligible: \
                       delayed dequeue), a model choice that moves the rhythm of the bursts; its figures beside the measurement are in the Today panel and \
                       the case's notes." }</li>
            </ul>
        </details>
    }
}

fn summary_list(summary: &Summary, case: &FifoCase) -> Html {
    html! {
        <>
            <dl class="fifo-summary" data-testid={format!("summary-{}", case.kernel)}>
                <dt>{ "writes" }</dt><dd>{ group_digits(summary.writes) }</dd>
                <dt>{ format!("writes ≥ {}", format::duration(case.slow_ns)) }</dt><dd>{ group_digits(summary.slow) }</dd>
                <dt>{ "max dt" }</dt><dd>{ format::duration(summary.max_ns) }</dd>
                <dt>{ "bursts" }</dt><dd>{ group_digits(summary.bursts) }</dd>
            </dl>
            if case.kernel == "2.4.24" {
                <p class="fifo-model-note" data-testid="model-note-2-4">
                    <strong>{ "Reported on 2.4.24: " }</strong>{ slowpath_engine::cases::fifo_trigger::REPORTED_2_4_24 }{ ". " }
                    if case.cpus > 1 {
                        { "This is the SMP hypothesis (two logical CPUs): reschedule_idle sends the woken listener to \
                           the idle CPU, the writer is never preempted, and every write is fast, as reported. Whether \
                           the reporter ran an SMP kernel is unknown." }
                    } else {
                        { "On one CPU, 2.4.24's own rules predict slow writes: an epoch recalculation that finds the \
                           listener asleep in select() gives it counter 9 against the writer's 6, goodness 29 beats 27, \
                           and the wakeup preempts the writer; each such write waits one counter (about 90 ms), never \
                           the several slices of 2.6.1. The report's fast 2.4.24 matches only an SMP kernel (the \
                           2.4.24-smp variant); which one the reporter ran is unknown." }
                    }
                </p>
            }
        </>
    }
}
