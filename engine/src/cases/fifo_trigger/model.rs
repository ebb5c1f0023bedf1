//! The simulation side of the case, built with the `fifo-trigger` feature: the
//! metadata beside it (`mod.rs`) is built in every build.

use super::*;
use crate::case::Case;
use crate::run::params::ParamValues;
use crate::run::trace::{Metric, Outcome, Run};
use build::{PhaseMark, TraceSink, SLOW_NS};
pub use extras::{FifoBurst, FifoCase};
use machine::{Config, Costs, Kernel, Machine, WriteRecord};
use std::collections::BTreeMap;
pub struct FifoTrigger;

/// Per-operation costs of the reporter's machine, which neither the report nor
/// the thread names (an assumption: a 2 GHz-class x86 PC of early 2004).
///
/// System calls: the order of magnitude LMbench reported for 2 GHz-class x86
/// Linux of 2003–2004 (null call ≈ 0.4 µs, open+close ≈ 2.6 µs, pipe write ≈ 1 µs);
/// a model choice, not a measurement of that machine. The writer's fprintf:
/// calibrated (see `print_cost`).
///
/// The busy loop: calibrated on the report. A one-slice write lasts what is left
/// of the listener's slice when the write wakes it, and before it slept in
/// select() the listener spent part of that slice finishing the busy loop that
/// its previous slice had cut short (wherever the tick fell in it). So the
/// one-slice writes spread over up to one loop below a slice: the reported ones, 99.725 to 101.775 ms, spread over 2.05 ms,
/// and a loop of about 2.5 ms (2,500 ps per iteration) reproduces them (the model's
/// twelve lines after the first: 99.6–101.5 ms; with one cycle at an assumed
/// 1.83 GHz, 550 ps, they were 101.5–102.0 ms). 2.5 ns is about 4 cycles at
/// 1.5–2 GHz, what gcc without optimisation makes of the seed's empty
/// `for (i = 0; i < 1000000; i++) ;` (the counter lives in memory: load, add,
/// store, compare, branch); an optimised build would take one cycle or drop the loop.
pub const COSTS: Costs = Costs {
    open_ns: 2 * US,
    open_enxio_ns: 1_500,
    close_ns: 600,
    write_ns: US,
    read_ns: 800,
    gettimeofday_ns: 400,
    print_ns: 140 * US,
    select_ns: 1_200,
    loop_iteration_ps: 2_500,
};

/// The machine configuration for validated parameters and a variant.
/// The pseudocode function (`Run::code`) the stage shows for program `task` (0 the
/// listener, 1 the writer): on today's kernel the writer is the measured one, timed
/// with `clock_gettime`.
pub fn program_listing(today: bool, task: usize) -> usize {
    if today && task == usize::from(text::WRITER) {
        usize::from(text::WRITER_TODAY)
    } else {
        task
    }
}

pub fn config(params: &ParamValues, variant: &str) -> Config {
    let kernel = match variant {
        "today" => Kernel::Eevdf,
        _ if variant.starts_with("2.4.24") => Kernel::Goodness,
        _ => Kernel::O1,
    };
    let hz = match params.word("hz") {
        "100" => 100,
        "250" => 250,
        "1000" => 1000,
        _ => match kernel {
            Kernel::Goodness => 100,
            Kernel::Eevdf => 250,
            Kernel::O1 => 1000,
        },
    };
    let today = kernel == Kernel::Eevdf;
    let costs = if today {
        scaled(today::TODAY_COSTS, params.unsigned("syscall_scale"))
    } else {
        Costs {
            loop_iteration_ps: params.unsigned("loop_ps"),
            print_ns: params.unsigned("print_cost"),
            ..scaled(COSTS, params.unsigned("syscall_scale"))
        }
    };
    Config {
        kernel,
        hz,
        cpus: if variant == "2cpu" || variant == "2.4.24-smp" { 2 } else { 1 },
        // Mainline 2.4.24 has no kernel preemption (it came with 2.6); today's
        // measured kernel ran with preempt=none, the switch's default.
        preempt: params.switch("preempt") && kernel != Kernel::Goodness,
        drain: variant == "drain-fix",
        listener_nice: params.signed("listener_nice") as i32,
        writer_nice: params.signed("writer_nice") as i32,
        loop_iters: params.unsigned("loop_iters"),
        writer_start_ns: params.unsigned("writer_start"),
        parent_bonus: params.unsigned("parent_bonus") as i64,
        shell_slice_ns: params.unsigned("shell_slice"),
        duration_ns: params.unsigned("duration"),
        // The measured machine has two CPUs; the programs were pinned to one of them.
        slice_cpus: if today { 2 } else { 1 },
        // The measured program reads clock_gettime() (ns), the seed gettimeofday() (µs).
        clock_resolution_ns: if today { 1 } else { 1_000 },
        pipe_capacity: if today { pipe::PIPE_SIZE_TODAY } else { pipe::PIPE_SIZE },
        // Two passes share the run's budget.
        steps_max: crate::run::budget::SIMULATED_STEPS_MAX / 2,
        writes_max: crate::run::budget::KEPT_RECORDS_MAX,
        costs,
    }
}

/// Every system call's cost times `percent` / 100 (at least 1 ns).
fn scaled(costs: Costs, percent: u64) -> Costs {
    let scale = |ns: u64| (ns * percent / 100).max(1);
    Costs {
        open_ns: scale(costs.open_ns),
        open_enxio_ns: scale(costs.open_enxio_ns),
        close_ns: scale(costs.close_ns),
        write_ns: scale(costs.write_ns),
        read_ns: scale(costs.read_ns),
        gettimeofday_ns: scale(costs.gettimeofday_ns),
        select_ns: scale(costs.select_ns),
        ..costs
    }
}

/// Groups the writes into fast runs and bursts (maximal runs of slow writes).
pub fn phase_marks(writes: &[WriteRecord]) -> (Vec<PhaseMark>, Vec<FifoBurst>) {
    let mut marks = Vec::new();
    let mut bursts: Vec<FifoBurst> = Vec::new();
    let mut previous_slow: Option<bool> = None;
    let mut fast_run = 0u64;
    for (index, write) in writes.iter().enumerate() {
        let slow = write.dt_ns >= SLOW_NS;
        let number = index as u64 + 1;
        if previous_slow != Some(slow) {
            if slow {
                bursts.push(FifoBurst {
                    first_write: number,
                    start_ns: write.time1_ns,
                    first_dt_ns: write.dt_ns,
                    following: Vec::new(),
                    fast_before: fast_run,
                });
                marks.push(PhaseMark { write_index: number, burst: bursts.len() as u64 });
            } else {
                marks.push(PhaseMark { write_index: number, burst: 0 });
                fast_run = 0;
            }
        } else if slow {
            bursts.last_mut().expect("inside a burst").following.push(write.dt_ns);
        }
        if !slow {
            fast_run += 1;
        }
        previous_slow = Some(slow);
    }
    (marks, bursts)
}

fn percentile(sorted: &[u64], per_mille: usize) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    sorted[(sorted.len() - 1) * per_mille / 1000]
}

/// Lines the reporter posted: the first through the filter and the twelve after it.
pub const GREP_LINES: usize = 13;

/// The output through the reporter's `grep -v '= 0'` (lines shown, the first, the
/// twelve after it), beside the unbroken run of slow writes that the filter hides.
fn grep_metrics(m: &mut BTreeMap<String, Metric>, writes: &[WriteRecord], bursts: &[FifoBurst]) {
    let dts: Vec<u64> = writes.iter().map(|w| w.dt_ns).collect();
    let shown = dts.iter().filter(|&&dt| grep::shown_by_grep(dt)).count() as u64;
    m.insert("grep_lines".into(), Metric::Count(shown));
    let lines = grep::through_grep(&dts, GREP_LINES);
    m.insert("grep_first_dt_ns".into(), Metric::None(lines.first().map(|l| l.dt_ns)));
    let next: Vec<u64> = lines.iter().skip(1).map(|l| l.dt_ns).collect();
    let (min, max) = (next.iter().min().copied(), next.iter().max().copied());
    m.insert("grep_following_min_ns".into(), Metric::None(min));
    m.insert("grep_following_max_ns".into(), Metric::None(max));
    let text = match (min, max) {
        (Some(min), Some(max)) => format!(
            "{} line{} of {}–{}",
            next.len(),
            if next.len() == 1 { "" } else { "s" },
            crate::run::format::duration(min),
            crate::run::format::duration(max)
        ),
        _ => "none".to_string(),
    };
    m.insert("grep_following".into(), Metric::Text(text));
    // What the filter hides: how many slow writes came in a row.
    m.insert(
        "first_burst_slow_writes".into(),
        Metric::None(bursts.first().map(|b| 1 + b.following.len() as u64)),
    );
    let longest = bursts.iter().map(|b| 1 + b.following.len() as u64).max();
    m.insert("longest_slow_run".into(), Metric::None(longest));
}

fn metrics(
    machine: &Machine<'_>,
    bursts: &[FifoBurst],
    world: &crate::run::world::World,
) -> BTreeMap<String, Metric> {
    let writes = &machine.writes;
    let mut dts: Vec<u64> = writes.iter().map(|w| w.dt_ns).collect();
    dts.sort_unstable();
    let slow = dts.iter().filter(|&&dt| dt >= SLOW_NS).count() as u64;
    let mut m = BTreeMap::new();
    m.insert("writes".into(), Metric::Count(writes.len() as u64));
    m.insert("writes_over_1ms".into(), Metric::Count(slow));
    let summary: BTreeMap<String, Metric> = [
        ("min", dts.first().copied().unwrap_or(0)),
        ("p50", percentile(&dts, 500)),
        ("p99", percentile(&dts, 990)),
        ("max", dts.last().copied().unwrap_or(0)),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), Metric::Ns(v)))
    .collect();
    m.insert("write_dt_ns".into(), Metric::Object(summary));
    // The figures measured on today's kernel, as `results.tsv` names them.
    m.insert("write_p99_ns".into(), Metric::Ns(percentile(&dts, 990)));
    m.insert("write_max_ns".into(), Metric::Ns(dts.last().copied().unwrap_or(0)));
    m.insert(
        "share_over_1ms".into(),
        Metric::Ratio(if dts.is_empty() { 0.0 } else { slow as f64 / dts.len() as f64 }),
    );
    let listed: Vec<Metric> = bursts
        .iter()
        .take(10)
        .map(|b| {
            let mut o = BTreeMap::new();
            o.insert("first_dt_ns".to_string(), Metric::Ns(b.first_dt_ns));
            o.insert("following_slow".to_string(), Metric::Count(b.following.len() as u64));
            o.insert("start_ns".to_string(), Metric::Ns(b.start_ns));
            o.insert("fast_before".to_string(), Metric::Count(b.fast_before));
            Metric::Object(o)
        })
        .collect();
    let mut burst_obj = BTreeMap::new();
    burst_obj.insert("count".to_string(), Metric::Count(bursts.len() as u64));
    burst_obj.insert("first".to_string(), Metric::List(listed));
    m.insert("bursts".into(), Metric::Object(burst_obj));
    m.insert("first_burst_first_dt_ns".into(), Metric::None(bursts.first().map(|b| b.first_dt_ns)));
    let following: Vec<u64> = bursts.first().map(|b| b.following.clone()).unwrap_or_default();
    m.insert(
        "following_slow_mean_ns".into(),
        Metric::None((!following.is_empty()).then(|| following.iter().sum::<u64>() / following.len() as u64)),
    );
    // Fast runs that sit between two bursts (not the one before the first). The
    // median, as the reporter's "around 700 ... between each series": the run right
    // after the first burst can span two of the writer's slices and would pull a mean up.
    let mut between: Vec<u64> = bursts.iter().skip(1).map(|b| b.fast_before).collect();
    between.sort_unstable();
    m.insert(
        "fast_writes_between_bursts".into(),
        Metric::None((!between.is_empty()).then(|| between[(between.len() - 1) / 2])),
    );
    grep_metrics(&mut m, writes, bursts);
    m.insert("preemptions_in_write".into(), Metric::Count(machine.preemptions_in_write));
    m.insert("listener_spin_slices".into(), Metric::Count(machine.listener_spin_slices));
    m.insert("context_switches".into(), Metric::Count(machine.switches));
    for (index, name) in ["listener", "writer"].into_iter().enumerate() {
        let times = world.task_times(crate::run::world::TaskId(index as u32));
        let mut o = BTreeMap::new();
        o.insert("user_ns".to_string(), Metric::Ns(times[crate::run::world::Bucket::User as usize]));
        o.insert("sys_ns".to_string(), Metric::Ns(times[crate::run::world::Bucket::Sys as usize]));
        o.insert("runnable_ns".to_string(), Metric::Ns(times[crate::run::world::Bucket::Runnable as usize]));
        o.insert("sleep_ns".to_string(), Metric::Ns(times[crate::run::world::Bucket::Sleep as usize]));
        m.insert(name.into(), Metric::Object(o));
    }
    m
}

impl Case for FifoTrigger {
    fn meta(&self) -> &'static CaseMeta {
        &META
    }

    fn wire(&self) -> crate::run::wire::CaseWire {
        crate::run::wire::CaseWire::with_extras::<extras::FifoCase>(text::TEMPLATES, text::CODE)
    }

    #[cfg(feature = "stage-claims")]
    fn stage_claims(&self) -> &'static [crate::run::chapters::StageClaim] {
        claims::CLAIMS
    }

    fn csv_tables(&self, run: &Run) -> Vec<crate::export::csv::Table> {
        run.extras::<FifoCase>().map(FifoCase::csv_tables).unwrap_or_default()
    }

    fn charts(&self, run: &Run) -> Vec<crate::export::chart::Chart> {
        run.extras::<FifoCase>().map(|extras| vec![extras.dt_chart()]).unwrap_or_default()
    }

    fn run_validated(&self, params: &ParamValues, variant: &'static str, seed: u64) -> Run {
        let config = config(params, variant);
        // Pass 1: where the writes and bursts fall.
        let mut first = Machine::new(&config);
        first.run(&mut machine::Discard);
        let (marks, bursts) = phase_marks(&first.writes);
        // Pass 2: the same machine, streamed into the trace.
        let mut second = Machine::new(&config);
        let mut sink = TraceSink::new(&config, marks);
        sink.start();
        second.run(&mut sink);
        assert_eq!(second.writes, first.writes, "both passes run the same machine");
        assert_eq!(second.stopped, first.stopped, "both passes stop at the same place");
        let slow = second.writes.iter().filter(|w| w.dt_ns >= SLOW_NS).count() as u64;
        let end_ns = second.stopped.map_or(config.duration_ns, |(at_ns, _)| at_ns);
        sink.finish_ops(end_ns, second.writes.len() as u64, slow);
        let world = sink.folder.builder.world().clone();
        let metrics = metrics(&second, &bursts, &world);
        let steps = first.steps + second.steps;
        let outcome = match (second.stopped, sink.stopped_at) {
            (Some((at_ns, budget)), _) => Outcome::WorkLimit { at_ns, steps, budget },
            (None, Some(_)) => Outcome::StepLimit { micro_ops: sink.folder.builder.ops_recorded() },
            (None, None) => Outcome::TimeLimit,
        };
        let mut run = sink.folder.builder.finish(META.id, variant, seed, params.clone(), outcome, metrics);
        run.simulated_steps = steps;
        let o1 = crate::kernel::sched::o1::O1::new(config.hz);
        let slice = |nice: i32| match config.kernel {
            Kernel::O1 => o1.timeslice(crate::kernel::sched::o1::static_prio(nice)) * config.tick_ns(),
            Kernel::Goodness => {
                crate::kernel::sched::goodness::nice_to_ticks(nice, config.hz) as u64 * config.tick_ns()
            }
            // Every task asks for the base slice (real time, whatever its weight).
            Kernel::Eevdf => {
                let _ = nice;
                crate::kernel::sched::eevdf::base_slice_ns(config.slice_cpus)
            }
        };
        run.set_extras(FifoCase {
            kernel: match config.kernel {
                Kernel::O1 => "2.6.1",
                Kernel::Goodness => "2.4.24",
                Kernel::Eevdf => "6.18",
            },
            cpus: config.cpus,
            hz: config.hz,
            tick_ns: config.tick_ns(),
            drain: config.drain,
            nice: [config.listener_nice, config.writer_nice],
            slice_ns: [slice(config.listener_nice), slice(config.writer_nice)],
            max_sleep_avg_ns: o1.max_sleep_avg_ns(),
            write_time_ns: second.writes.iter().map(|w| w.time1_ns).collect(),
            write_dt_ns: second.writes.iter().map(|w| w.dt_ns).collect(),
            grep_lines: grep::through_grep(
                &second.writes.iter().map(|w| w.dt_ns).collect::<Vec<_>>(),
                GREP_LINES,
            ),
            bursts,
            slow_ns: SLOW_NS,
            pipe_capacity: config.pipe_capacity,
            reported_dt_ms: REPORTED_DT_MS,
        });
        use text::T;
        let first = |templates: &[T]| {
            run.first_op_with_template(&templates.iter().map(|t| t.id()).collect::<Vec<_>>())
        };
        let moments = [
            // The first preemption on the way out of a write() (others can leave open()).
            (
                first(&[T::W_WROTE, T::W_WROTE_TODAY]).and_then(|wrote| {
                    let switches = [
                        T::SWITCH_PREEMPT.id(),
                        T::SWITCH_PREEMPT_MID.id(),
                        T::SWITCH_PREEMPT_24.id(),
                        T::SWITCH_PREEMPT_EEVDF.id(),
                    ];
                    // Bounded: each look starts past the previous find.
                    let mut from = wrote;
                    loop {
                        let found = run.first_op_with_template_from(&switches, from)?;
                        if run.op(found).is_some_and(|op| op.kind == crate::run::trace::OpKind::Preempt) {
                            break Some(found);
                        }
                        from = found + 1;
                    }
                }),
                "preempted on its way out of write()",
            ),
            (first(&[T::W_TIME2_SLOW, T::W_TIME2_SLOW_TODAY]), "the first slow write() is measured"),
            (first(&[T::END]), "the end of the run"),
        ];
        run.set_chapters(&moments);
        run
    }
}
