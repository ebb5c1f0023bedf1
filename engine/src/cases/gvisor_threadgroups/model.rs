//! The simulation side of the case, built with the `gvisor-threadgroups` feature: the
//! metadata beside it (`mod.rs`) is built in every build.

use super::*;
use crate::case::Case;
use crate::run::params::ParamValues;
use crate::run::trace::{Metric, Run};
use crate::run::world::{Bucket, TaskId};
pub use extras::{ScalingPoint, SentryShape, REPORTED_AFTER, REPORTED_BEFORE};
use std::collections::BTreeMap;
pub struct GvisorThreadgroups;

fn config(params: &ParamValues, variant: &str, seed: u64) -> (sim::Config, bool) {
    let processes = params.unsigned("processes");
    let sidecars = params.unsigned("matching_groups");
    let wanted = params.unsigned("threads_per_process");
    // The cap: processes ≤ 4,096 and sidecars ≤ 16, so at least 5 threads each fit.
    let fit = (MAX_TASKS - sidecars) / processes;
    let threads = wanted.min(fit).max(1);
    let cfg = sim::Config {
        variant: if variant == "before" || variant == "job-control" {
            sim::Variant::Before
        } else {
            sim::Variant::Tgids
        },
        threads_per_process: threads,
        processes,
        sidecars,
        duration_ns: params.unsigned("duration"),
        tick_ns: SECOND / params.unsigned("tick_hz"),
        visit_ns: params.unsigned("visit_ns"),
        spread_pct: params.unsigned("visit_spread"),
        idle_stop: params.switch("ticker_idle_stop") || variant == "tgids+idle-stop",
        writer_at_ns: params.unsigned("writer_at"),
        senders: params.unsigned("senders"),
        runsc_ps: params.switch("runsc_ps"),
        shared_sighand: params.switch("shared_sighand"),
        job_control: variant == "job-control",
        seed,
        capped: threads < wanted,
    };
    (cfg, threads < wanted)
}

/// CPU time in ThreadGroupsAppend for `threads` in one process (the report's
/// benchmark, no sidecars) over the run's duration, in closed form: scans × (RLock +
/// Σ visits + RUnlock); and one runsc kill's pause and unpause at that size.
fn scaling_point(cfg: &sim::Config, threads: u64) -> ScalingPoint {
    let mut at = cfg.clone();
    at.threads_per_process = threads;
    at.processes = 1;
    // The report's benchmark: one process of N threads and nothing else in the sandbox.
    at.sidecars = 0;
    let scans = |c: &sim::Config, scan_cpu: u64| {
        if c.idle_stop {
            return 0;
        }
        let scan_ns = sim::TICK_NS + scan_cpu;
        let period = (scan_ns / c.tick_ns + 1) * c.tick_ns;
        let last_tick = c.duration_ns / c.tick_ns;
        if last_tick == 0 {
            0
        } else {
            (last_tick - 1) / (period / c.tick_ns) + 1
        }
    };
    let cpu = |c: &sim::Config, visits_ns: u64| {
        let scan_cpu = sim::RLOCK_NS + visits_ns + sim::RUNLOCK_NS;
        scans(c, scan_cpu) * scan_cpu
    };
    let mut before = at.clone();
    before.variant = sim::Variant::Before;
    let mut after = at.clone();
    after.variant = sim::Variant::Tgids;
    let (hot, cold) = (at.hot_ns(), at.cold_ns());
    ScalingPoint {
        threads,
        before_ns: cpu(&before, before.scan_visits_ns()),
        tgids_ns: cpu(&after, after.scan_visits_ns()),
        before_hot_ns: cpu(&before, before.visits_per_scan() * hot),
        before_cold_ns: cpu(&before, before.visits_per_scan() * cold),
        pause_ns: at.pause_walk_ns() + at.unpause_walk_ns(),
    }
}

pub(crate) const SCALING_THREADS: &[u64] = &[1, 1_024, 2_048, 4_096, 8_192, 12_288, 16_384];

impl Case for GvisorThreadgroups {
    fn meta(&self) -> &'static CaseMeta {
        &META
    }

    fn wire(&self) -> crate::run::wire::CaseWire {
        crate::run::wire::CaseWire::with_extras::<extras::SentryShape>(text::TEMPLATES, text::CODE)
    }

    #[cfg(feature = "stage-claims")]
    fn stage_claims(&self) -> &'static [crate::run::chapters::StageClaim] {
        super::claims::CLAIMS
    }

    fn csv_tables(&self, run: &Run) -> Vec<crate::export::csv::Table> {
        run.extras::<extras::SentryShape>().map(extras::SentryShape::csv_tables).unwrap_or_default()
    }

    fn charts(&self, run: &Run) -> Vec<crate::export::chart::Chart> {
        run.extras::<extras::SentryShape>().map(|shape| vec![shape.scaling_chart()]).unwrap_or_default()
    }

    fn run_validated(&self, params: &ParamValues, variant: &'static str, seed: u64) -> Run {
        let (cfg, capped) = config(params, variant, seed);
        let finished = sim::run(&cfg);
        let totals = &finished.totals;
        let world = finished.builder.world();
        let ticker_sys = world.task_times(TaskId(0))[Bucket::Sys as usize];
        let mut metrics = BTreeMap::new();
        let mut put = |key: &str, value: Metric| {
            metrics.insert(key.to_string(), value);
        };
        put("threads", Metric::Count(cfg.bench_tasks()));
        put("thread_groups", Metric::Count(cfg.groups()));
        put("tasks", Metric::Count(cfg.total_tasks()));
        put("task_cap_applied", Metric::Count(u64::from(capped)));
        put("scans", Metric::Count(totals.scans));
        put("tasks_visited", Metric::Count(totals.tasks_visited));
        put("visits_per_scan", Metric::Count(cfg.visits_per_scan()));
        put("scan_ns", Metric::Ns(totals.scan_ns));
        put("scan_cpu_ns", Metric::Ns(totals.scan_cpu_ns));
        put("ticker_cpu_ns", Metric::Ns(ticker_sys));
        put("cpu_share", Metric::Ratio(ticker_sys as f64 / totals.sleep_end_ns.max(1) as f64));
        let wait_max = totals.writer_waits.iter().copied().max().unwrap_or(0);
        let wait_total: u64 = totals.writer_waits.iter().sum();
        put("writer_wait_max_ns", Metric::Ns(wait_max));
        put("writer_wait_total_ns", Metric::Ns(wait_total));
        put(
            "writer_wait_ns",
            Metric::Object(BTreeMap::from([
                ("max".to_string(), Metric::Ns(wait_max)),
                ("total".to_string(), Metric::Ns(wait_total)),
            ])),
        );
        put("ps_scan_ns", Metric::None(totals.ps_scan_ns));
        put("sender_wait_max_ns", Metric::Ns(totals.sender_waits.iter().copied().max().unwrap_or(0)));
        put("locks_held_max", Metric::Count(totals.locks_held_max));
        put("pause_walk_ns", Metric::Ns(totals.pause_walk_ns));
        put("unpause_walk_ns", Metric::Ns(totals.unpause_walk_ns));
        put("pause_cpu_ns", Metric::Ns(totals.pause_cpu_ns));
        put("freeze_at_ns", Metric::None(totals.freeze_at_ns));
        put("clock_stopped_tick", Metric::None(totals.clock_stopped_tick));
        put("watchdog_report_ns", Metric::None(totals.watchdog_report_ns));
        put(
            "locks_held_at_return",
            Metric::List(totals.locks_held_at_return.iter().map(|&n| Metric::Count(n)).collect()),
        );
        put(
            "deadlock",
            match &totals.deadlock_text {
                Some(text) => Metric::Text(text.clone()),
                None => Metric::None(None),
            },
        );
        let scaling = SCALING_THREADS.iter().map(|&n| scaling_point(&cfg, n)).collect();
        let shape = SentryShape {
            tgids: cfg.variant == sim::Variant::Tgids,
            idle_stop: cfg.idle_stop,
            threads_per_process: cfg.threads_per_process,
            processes: cfg.processes,
            sidecars: cfg.sidecars,
            total_tasks: cfg.total_tasks(),
            visits_per_scan: cfg.visits_per_scan(),
            tick_ns: cfg.tick_ns,
            duration_ns: cfg.duration_ns,
            seed,
            visit_ns: cfg.visit_ns,
            hot_ns: cfg.hot_ns(),
            cold_ns: cfg.cold_ns(),
            cold_ppm: cfg.cold_ppm(),
            scan_ns: totals.scan_ns,
            scan_period_ns: totals.scan_period_ns,
            scans: totals.scans,
            shared_sighand: cfg.shared_sighand && cfg.sidecars >= 2,
            senders: cfg.senders,
            writer_scan: totals.writer_scan,
            writer_wait_ns: totals.writer_waits.first().copied(),
            scaling,
            reported_before: REPORTED_BEFORE,
            reported_after: REPORTED_AFTER,
            append_fn: if cfg.variant == sim::Variant::Before {
                text::APPEND_BEFORE
            } else {
                text::APPEND_AFTER
            },
            send_fn: match (cfg.job_control, cfg.variant) {
                (true, _) => text::JOB_CONTROL,
                (false, sim::Variant::Before) => text::SEND_BEFORE,
                (false, sim::Variant::Tgids) => text::SEND_AFTER,
            },
            job_control: cfg.job_control,
            pause_walk_ns: totals.pause_walk_ns,
            unpause_walk_ns: totals.unpause_walk_ns,
            watchdog_report_ns: totals.watchdog_report_ns,
            ticker_fn: text::TICKER,
            clone_fn: text::CLONE,
            deadlock: totals.deadlock_text.clone(),
        };
        let mut run =
            finished.builder.finish(META.id, variant, seed, params.clone(), finished.outcome, metrics);
        // The simulation's work is one step per block it emits (identical scans are one
        // repeat block, any visit expanded on demand).
        run.simulated_steps = run.stored().1 as u64;
        run.set_extras(shape);
        use text::T;
        let first = |templates: &[T]| {
            run.first_op_with_template(&templates.iter().map(|t| t.id()).collect::<Vec<_>>())
        };
        let moments = [
            (first(&[T::RLOCK]), "the ticker scans every task"),
            (first(&[T::WRITER_WAITS]), "a clone waits for TaskSet.mu"),
            (first(&[T::PAUSE_WALK]), "the pause stops every task"),
            (first(&[T::SEND_LOCK_DEFER]), "a defer inside the loop: locks pile up"),
            (first(&[T::DEADLOCK, T::DEADLOCK_PAIR, T::DEADLOCK_RING]), "deadlock"),
            (first(&[T::FREEZE_TICK]), "the ticker queues: the CPU clock stops"),
            (first(&[T::WATCHDOG_STUCK]), "the watchdog reports"),
        ];
        run.set_chapters(&moments);
        run
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scaling plot sums a scan's visits in closed form; it must equal the sum
    /// the run's own scan expands visit by visit.
    #[test]
    fn a_scans_closed_form_sum_is_the_sum_of_its_visits() {
        for (variant, seed) in [("before", 1), ("before", 7), ("tgids", 3)] {
            let (cfg, _) = config(&META.default_params(), variant, seed);
            let expanded_ns: u64 = cfg.visits().map(|i| cfg.visit_cost(i)).sum();
            assert_eq!(cfg.scan_visits_ns(), expanded_ns, "{variant} seed {seed}");
            assert_eq!(cfg.visits_per_scan(), cfg.visits().count() as u64);
        }
    }
}
