//! The FIFO machine's vocabulary: its configuration and costs, the program
//! steps and how they end, the scheduler's state as the stage shows it, and
//! the events a run reports to a [`Sink`] (the trace builder, or nothing).

use crate::kernel::sched::o1::{Credit, TickOutcome};

pub const LISTENER: usize = 0;
pub const WRITER: usize = 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Linux 2.6.1: the O(1) scheduler.
    O1,
    /// Linux 2.4.24: goodness and counters.
    Goodness,
    /// Linux 6.18: EEVDF, the fair class of today's kernel.
    Eevdf,
}

/// Per-operation costs in ns (the busy loop in picoseconds per iteration).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Costs {
    pub open_ns: u64,
    pub open_enxio_ns: u64,
    pub close_ns: u64,
    pub write_ns: u64,
    pub read_ns: u64,
    pub gettimeofday_ns: u64,
    pub print_ns: u64,
    pub select_ns: u64,
    pub loop_iteration_ps: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub kernel: Kernel,
    pub hz: u64,
    pub cpus: u16,
    pub preempt: bool,
    /// The application fix: the listener reads the byte before closing.
    pub drain: bool,
    pub listener_nice: i32,
    pub writer_nice: i32,
    pub loop_iters: u64,
    /// The writer is started this long after the listener (the reporter typed it).
    pub writer_start_ns: u64,
    /// The bonus (0–10) of the shell that forks both programs.
    pub parent_bonus: i64,
    /// What is left of the shell's timeslice when it forks the listener (2.6 only).
    pub shell_slice_ns: u64,
    pub duration_ns: u64,
    /// The CPUs today's kernel scales its base slice by (the machine's, not the one the
    /// programs are pinned to); unused by the older schedulers.
    pub slice_cpus: u32,
    /// The resolution of the writer's clock: 1 µs for gettimeofday(), 1 ns for
    /// clock_gettime(), which the measurement on today's kernel uses.
    pub clock_resolution_ns: u64,
    /// Unread bytes the FIFO holds before write() gets EAGAIN (one page on 2.6.1).
    pub pipe_capacity: u64,
    pub costs: Costs,
    /// Work budget of one pass: the machine stops after this many steps...
    pub steps_max: u64,
    /// ...or this many measured writes, whichever comes first (`run::budget`).
    pub writes_max: usize,
}

impl Config {
    pub fn tick_ns(&self) -> u64 {
        1_000_000_000 / self.hz
    }

    pub fn loop_ns(&self) -> u64 {
        (self.loop_iters * self.costs.loop_iteration_ps / 1000).max(1)
    }
}

/// A program step: the line of the seed's C code being executed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Step {
    ListenerOpen,
    ListenerSelect,
    ListenerRead,
    ListenerClose,
    ListenerLoop,
    WriterOpen,
    WriterTime1,
    WriterWrite,
    WriterTime2,
    WriterPrint,
    WriterClose,
}

impl Step {
    pub fn user_mode(self) -> bool {
        matches!(self, Step::ListenerLoop)
    }

    pub(super) fn cost(self, config: &Config) -> u64 {
        let c = &config.costs;
        match self {
            Step::ListenerOpen | Step::WriterOpen => c.open_ns,
            Step::ListenerSelect => c.select_ns,
            Step::ListenerRead => c.read_ns,
            Step::ListenerClose | Step::WriterClose => c.close_ns,
            Step::ListenerLoop => config.loop_ns(),
            Step::WriterTime1 | Step::WriterTime2 => c.gettimeofday_ns,
            Step::WriterWrite => c.write_ns,
            Step::WriterPrint => c.print_ns,
        }
    }
}

/// How a step ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Done,
    /// open() of the writer: no reader, ENXIO.
    NoReader,
    /// open(): this was the first reader/writer, so the partner queue was woken.
    Opened {
        first: bool,
    },
    Select {
        readable: bool,
        pollin: bool,
        pollhup: bool,
    },
    Wrote,
    WriteAgain,
    WriteBroken,
    Read {
        bytes: u64,
    },
    Closed {
        freed: bool,
        discarded: u64,
    },
    /// gettimeofday() after a successful write: the measured dt.
    Measured {
        dt_ns: u64,
        write: u64,
    },
}

/// Closed-form runs of identical writer cycles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpinKind {
    /// `open()` fails with ENXIO, again and again.
    Enxio,
    /// open, gettimeofday, write → EAGAIN (pipe full), close.
    Again,
}

/// Scheduler state of one task as the stage shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SchedSnap {
    pub prio: i32,
    pub static_prio: i32,
    pub sleep_avg_ns: u64,
    pub bonus: i64,
    pub interactive: bool,
    pub credit: i64,
    /// Jiffies left in the slice (2.6) or counter (2.4).
    pub slice_left: u64,
    /// 0 not queued, 1 active, 2 expired (2.6); 0/1 on the run queue (2.4, 6.18).
    pub array: u8,
    /// EEVDF (6.18): vruntime, virtual deadline and lag (V − vruntime), virtual ns.
    pub fair: Option<FairSnap>,
}

/// One task's EEVDF state as the stage shows it, in virtual nanoseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FairSnap {
    pub vruntime: i64,
    pub deadline: i64,
    pub lag: i64,
    pub eligible: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WakeBy {
    /// pipe_write's wake_up_interruptible.
    Write,
    /// fifo_open's wake_up_partner (first writer).
    OpenPartner,
    /// pipe_release's wake_up_interruptible (pipe not freed).
    Close,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SwitchWhy {
    /// The previous task went to sleep.
    Sleep,
    /// Woken task with a better priority (or goodness).
    Preempted,
    /// Timeslice (counter) ran out.
    SliceEnd,
    /// TIMESLICE_GRANULARITY round-robin.
    Requeue,
    /// An idle CPU got work.
    Idle,
}

/// A context switch, or a reschedule that kept the same task.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Switch {
    pub at: u64,
    pub cpu: u16,
    pub prev: Option<usize>,
    pub next: Option<usize>,
    pub why: SwitchWhy,
    pub debit_ns: u64,
    pub runqueue_credit: Option<Credit>,
    pub swapped: bool,
    pub recalculated: bool,
    pub snaps: [SchedSnap; 2],
    /// The step `prev` will resume when it runs again.
    pub prev_step: Option<Step>,
    /// Where `prev` lost the CPU: in the middle of a step (true), or at the end of one.
    pub prev_left: Option<(Step, bool)>,
    /// The step `next` resumes.
    pub resumes: Option<Step>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ev {
    /// `task` completed `step` at `at` and begins `next`.
    Step { at: u64, task: usize, step: Step, outcome: Outcome, next: Step },
    /// `count` identical writer cycles of `cycle_ns` from `at`.
    Spin { at: u64, task: usize, kind: SpinKind, count: u64, cycle_ns: u64 },
    /// A tick that changed something for the running task.
    Tick { at: u64, cpu: u16, task: usize, outcome: TickOutcome, snap: SchedSnap },
    /// `task` woken by `by`.
    Wake {
        at: u64,
        task: usize,
        by: usize,
        why: WakeBy,
        credit: Option<Credit>,
        preempts: bool,
        snap: SchedSnap,
    },
    /// A context switch (or a reschedule that kept the same task).
    Switch(Switch),
    /// The listener sleeps in select().
    Sleep { at: u64, task: usize, snap: SchedSnap },
}

pub trait Sink {
    fn event(&mut self, ev: Ev);
}

/// A sink that keeps nothing (the first pass only needs the writes).
pub struct Discard;

impl Sink for Discard {
    fn event(&mut self, _ev: Ev) {}
}

impl Sink for Vec<Ev> {
    fn event(&mut self, ev: Ev) {
        self.push(ev);
    }
}

/// One write the program measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteRecord {
    pub time1_ns: u64,
    pub dt_ns: u64,
}
