//! What the FIFO case's stage draws that is not tasks, locks or counters:
//! every write the program measured, the bursts, and the scheduler constants.
//! Static for the whole run (`Run::extras`).

use crate::run::wire::codec::wire_struct;

/// The FIFO case's static data: every write the program measured, the bursts,
/// and the scheduler constants the stage draws against.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct FifoCase {
    pub kernel: crate::run::wire::StaticStr,
    pub cpus: u16,
    pub hz: u64,
    pub tick_ns: u64,
    pub drain: bool,
    /// Listener, writer.
    pub nice: [i32; 2],
    /// A full timeslice (2.6) or a refilled counter (2.4) of each, in ns.
    pub slice_ns: [u64; 2],
    pub max_sleep_avg_ns: u64,
    /// For write k (0-based): when the writer's first gettimeofday ran, and the dt it printed.
    pub write_time_ns: Vec<u64>,
    pub write_dt_ns: Vec<u64>,
    pub bursts: Vec<FifoBurst>,
    /// The first lines of the writer's output through the reporter's `grep -v '= 0'`.
    pub grep_lines: Vec<super::grep::GrepLine>,
    pub slow_ns: u64,
    /// Unread bytes the FIFO holds before write() gets EAGAIN.
    pub pipe_capacity: u64,
    /// The reporter's printed slow writes, for comparison.
    pub reported_dt_ms: &'static [&'static str],
}
wire_struct!(FifoCase {
    kernel,
    cpus,
    hz,
    tick_ns,
    drain,
    nice,
    slice_ns,
    max_sleep_avg_ns,
    write_time_ns,
    write_dt_ns,
    bursts,
    grep_lines,
    slow_ns,
    pipe_capacity,
    reported_dt_ms,
});

/// A maximal run of slow writes.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct FifoBurst {
    /// 1-based number of its first write.
    pub first_write: u64,
    pub start_ns: u64,
    pub first_dt_ns: u64,
    /// The dt of each following slow write.
    pub following: Vec<u64>,
    /// Fast writes since the previous burst.
    pub fast_before: u64,
}
wire_struct!(FifoBurst { first_write, start_ns, first_dt_ns, following, fast_before });

impl FifoCase {
    /// The dt chart's points: every measured write, when it started and the dt it
    /// printed (`writes`), and the bursts of slow writes (`bursts`).
    pub fn csv_tables(&self) -> Vec<crate::export::csv::Table> {
        use crate::export::csv::Table;
        let mut writes = Table::new("writes", &["write", "time_ns", "dt_ns", "slow"]);
        for (index, (time_ns, dt_ns)) in self.write_time_ns.iter().zip(&self.write_dt_ns).enumerate() {
            let slow = if *dt_ns >= self.slow_ns { "yes" } else { "no" };
            writes.row(vec![(index + 1).to_string(), time_ns.to_string(), dt_ns.to_string(), slow.into()]);
        }
        let mut bursts =
            Table::new("bursts", &["first_write", "start_ns", "first_dt_ns", "slow_writes", "fast_before"]);
        for burst in &self.bursts {
            bursts.row(vec![
                burst.first_write.to_string(),
                burst.start_ns.to_string(),
                burst.first_dt_ns.to_string(),
                (1 + burst.following.len()).to_string(),
                burst.fast_before.to_string(),
            ]);
        }
        vec![writes, bursts]
    }

    /// The dt chart: every write's dt against when it started, slow ones apart.
    pub fn dt_chart(&self) -> crate::export::chart::Chart {
        use crate::export::chart::{Chart, Mark, Series, Unit};
        let mut fast = Vec::new();
        let mut slow = Vec::new();
        for (&time_ns, &dt_ns) in self.write_time_ns.iter().zip(&self.write_dt_ns) {
            if dt_ns >= self.slow_ns { &mut slow } else { &mut fast }.push((time_ns, dt_ns));
        }
        Chart {
            name: "dt",
            title: format!("Each write's dt on {} (HZ {})", self.kernel, self.hz),
            x_label: "when the write started",
            x_unit: Unit::Ns,
            log_x: false,
            log_y: false,
            y_label: "dt printed",
            y_unit: Unit::Ns,
            series: vec![
                Series::new("fast writes", "#2563eb", Mark::Dots, fast),
                Series::new(
                    format!("slow writes (≥ {})", crate::run::format::duration(self.slow_ns)),
                    "#dc2626",
                    Mark::Dots,
                    slow,
                ),
            ],
        }
    }
}
