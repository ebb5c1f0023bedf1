//! What the gVisor stage draws that is not tasks, locks or counters: the task
//! set's shape, the cache model (to colour any task's visit without the ops),
//! the scaling curves computed by the engine, the seed's measured points.

use crate::run::wire::codec::wire_struct;
use serde::Serialize;

/// One point of the scaling plot, computed in closed form by the same cost
/// model as the run (every scan of a run is identical).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct ScalingPoint {
    pub threads: u64,
    /// CPU time in ThreadGroupsAppend over the run's duration, this run's cache regime.
    pub before_ns: u64,
    pub tgids_ns: u64,
    /// The band over every cache regime: all visits hot, all cold.
    pub before_hot_ns: u64,
    pub before_cold_ns: u64,
}
wire_struct!(ScalingPoint { threads, before_ns, tgids_ns, before_hot_ns, before_cold_ns });

/// The seed's measured CPU time in ThreadGroupsAppend (threads, low ms, high ms).
pub const REPORTED_BEFORE: &[(u64, u64, u64)] =
    &[(1, 0, 0), (1_024, 30, 9_130), (4_096, 50, 2_000), (8_192, 18_160, 18_160), (16_384, 17_210, 17_210)];
/// After the fix: 0 ms at every N.
pub const REPORTED_AFTER: &[(u64, u64, u64)] =
    &[(1, 0, 0), (1_024, 0, 0), (4_096, 0, 0), (8_192, 0, 0), (16_384, 0, 0)];

#[derive(Clone, Debug, Serialize)]
pub struct SentryShape {
    /// "before" or "tgids".
    pub tgids: bool,
    pub idle_stop: bool,
    pub threads_per_process: u64,
    pub processes: u64,
    pub sidecars: u64,
    /// Benchmark threads plus sidecar threads.
    pub total_tasks: u64,
    /// Entries one scan visits (tasks before, thread groups after).
    pub visits_per_scan: u64,
    pub tick_ns: u64,
    pub duration_ns: u64,
    pub seed: u64,
    pub visit_ns: u64,
    pub hot_ns: u64,
    pub cold_ns: u64,
    /// Share of visits that miss the cache in this run, per million.
    pub cold_ppm: u64,
    /// One scan, wake to sleep, and the spacing of scans.
    pub scan_ns: u64,
    pub scan_period_ns: u64,
    pub scans: u64,
    pub shared_sighand: bool,
    pub senders: u64,
    /// Where the clone waited: (scan start, tick), if it did.
    pub writer_scan: Option<(u64, u64)>,
    pub writer_wait_ns: Option<u64>,
    pub scaling: Vec<ScalingPoint>,
    pub reported_before: &'static [(u64, u64, u64)],
    pub reported_after: &'static [(u64, u64, u64)],
    /// Pseudocode function ids: the scan and the sender of this variant.
    pub append_fn: u16,
    pub send_fn: u16,
    pub ticker_fn: u16,
    pub clone_fn: u16,
    pub deadlock: Option<String>,
}
wire_struct!(SentryShape {
    tgids,
    idle_stop,
    threads_per_process,
    processes,
    sidecars,
    total_tasks,
    visits_per_scan,
    tick_ns,
    duration_ns,
    seed,
    visit_ns,
    hot_ns,
    cold_ns,
    cold_ppm,
    scan_ns,
    scan_period_ns,
    scans,
    shared_sighand,
    senders,
    writer_scan,
    writer_wait_ns,
    scaling,
    reported_before,
    reported_after,
    append_fn,
    send_fn,
    ticker_fn,
    clone_fn,
    deadlock,
});

impl SentryShape {
    /// Task index → tid (tids from 1 in creation order).
    pub fn tid(index: u64) -> u64 {
        index + 1
    }

    /// Whether task `index` leads its thread group.
    pub fn is_leader(&self, index: u64) -> bool {
        let bench = self.threads_per_process * self.processes;
        index >= bench || index % self.threads_per_process == 0
    }

    /// Whether visiting task `index` misses the cache (the run's own draw).
    pub fn cold(&self, index: u64) -> bool {
        crate::run::rng::counter_hash(self.seed, index) % 1_000_000 < self.cold_ppm
    }
}

impl SentryShape {
    /// The scaling plot's points: the engine's curves (`scaling`) and the seed's
    /// measured points (`reported`).
    pub fn csv_tables(&self) -> Vec<crate::export::csv::Table> {
        use crate::export::csv::Table;
        let mut scaling = Table::new(
            "scaling",
            &["threads", "before_ns", "tgids_ns", "before_all_hot_ns", "before_all_cold_ns"],
        );
        for point in &self.scaling {
            scaling.row(vec![
                point.threads.to_string(),
                point.before_ns.to_string(),
                point.tgids_ns.to_string(),
                point.before_hot_ns.to_string(),
                point.before_cold_ns.to_string(),
            ]);
        }
        let mut reported = Table::new("reported", &["threads", "fix", "low_ms", "high_ms"]);
        for (fix, points) in [("before", self.reported_before), ("after", self.reported_after)] {
            for (threads, low_ms, high_ms) in points {
                reported.row(vec![threads.to_string(), fix.into(), low_ms.to_string(), high_ms.to_string()]);
            }
        }
        vec![scaling, reported]
    }

    /// The scaling plot: CPU time in ThreadGroupsAppend against threads, before and
    /// after the fix, the band over cache regimes (all visits hot to all cold), and the
    /// seed's measured points with their spread. The page draws this same chart.
    pub fn scaling_chart(&self) -> crate::export::chart::Chart {
        use crate::export::chart::{Chart, Mark, Series, Unit};
        let curve = |name: &str, colour, value: fn(&ScalingPoint) -> u64| {
            let points = self.scaling.iter().map(|point| (point.threads, value(point))).collect();
            Series::new(name, colour, Mark::Line, points)
        };
        let band = Series {
            low: self.scaling.iter().map(|point| point.before_hot_ns).collect(),
            ..curve("before, all visits hot – all cold", "#f59e0b", |point| point.before_cold_ns)
        };
        let band = Series { mark: Mark::Band, ..band };
        let reported = |name: &str, colour, points: &[(u64, u64, u64)]| Series {
            low: points.iter().map(|&(_, low_ms, _)| low_ms * 1_000_000).collect(),
            class: "reported",
            ..Series::new(
                name,
                colour,
                Mark::Range,
                points.iter().map(|&(threads, _, high_ms)| (threads, high_ms * 1_000_000)).collect(),
            )
        };
        Chart {
            name: "scaling",
            title: "CPU time in ThreadGroupsAppend over the run".into(),
            x_label: "threads",
            x_unit: Unit::Count,
            log_x: true,
            log_y: false,
            y_label: "CPU time",
            y_unit: Unit::Ns,
            series: vec![
                band,
                curve("before the fix (model)", "#dc2626", |point| point.before_ns),
                curve("after, tgids (model)", "#2563eb", |point| point.tgids_ns),
                reported("reported before (low – high)", "#dc2626", self.reported_before),
                reported("reported after", "#2563eb", self.reported_after),
            ],
        }
    }
}
