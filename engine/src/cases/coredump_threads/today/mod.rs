//! The `today` variant: Linux 6.18's core-dump path for a threaded process, with
//! costs measured on the project's development machine
//! (`tools/measure/coredump-threads/results.tsv`).
//!
//! What decides the time to die today is counted work: SIGKILL queued for every
//! thread by `zap_threads` (no `yield()`), each thread's `do_exit` through
//! `coredump_task_exit`, the dumper's `wait_task_inactive` and `coredump_finish`'s
//! wake-ups, and with spinning threads how long the woken `main` waits for a CPU.
//! The scheduler is not simulated tick by tick (model choice, see `wait_for_cpu`).

use super::machine::{gauge, Doing, Shape, ShapeNames, MAIN};
use super::text::{self, at, T};
use super::Config;

mod dump;
use crate::run::builder::{text as txt, OpSpec, TraceBuilder};
use crate::run::lock::LockMode;
use crate::run::narration::{Arg, CodeLoc};
use crate::run::rng::Rng;
use crate::run::trace::OpKind;
use crate::run::world::{ChannelId, CounterId, Effect, LockId, TaskId, TaskState};

const US: u64 = 1_000;

/// Per-operation costs on the development machine (2-vCPU AMD EPYC KVM guest, Linux
/// 6.18.44), from `tools/measure/coredump-threads/results.tsv`, session `pause` (the
/// threads asleep, so nothing but the kill path takes the CPU): medians of 7 runs.
#[derive(Clone, Copy, Debug)]
pub struct TodayCosts {
    /// pthread_create of one thread: N = 1,000 `pause()` threads were ready after
    /// 28 ms at the fastest (start_to_ready_ms), ≈ 28 µs each.
    pub clone_ns: u64,
    /// complete_signal / zap_process for one thread: sigaddset and signal_wake_up
    /// under siglock (model choice: 0.5 µs, as the 2005 model's; not measured apart).
    pub zap_ns: u64,
    /// A woken thread's do_exit up to coredump_task_exit (dequeue SIGKILL, exit_signals;
    /// model choice: 3 µs of the 12.08 µs whole exit below).
    pub exit_head_ns: u64,
    /// The rest of do_exit (exit_mm, exit_files, exit_notify under tasklist_lock).
    /// SIGINT, N = 1,000: 12.8 ms, N = 0: 0.22 ms, so 12.58 µs a thread, of which 0.5 µs
    /// is the zap: head + rest = 12.08 µs.
    pub exit_rest_ns: u64,
    /// wait_task_inactive on one thread already asleep (model choice: 1 µs of the 2.8 µs below).
    pub inactive_ns: u64,
    /// coredump_finish's wake_up_process for one thread. SIGQUIT with `ulimit -c 0`,
    /// N = 1,000: 15.6 ms, i.e. 15.38 µs a thread, 2.8 µs more than SIGINT's: the
    /// dumper's round trip, split as 1 µs here and 1.8 µs for the wake-up.
    pub finish_wake_ns: u64,
    /// The process's end: the address space and files released, the parent's wait4()
    /// returning. N = 0 (no threads): SIGINT 0.221 ms, SIGQUIT 0.216 ms.
    pub process_end_ns: u64,
    /// A core file's fixed part: N = 0, core written 0.671 ms against 0.216 ms without.
    pub core_base_ns: u64,
    /// One page of a thread's stack in the core file: N = 1,000, core written 875 ms,
    /// less the 15.6 ms without, over 1,000 × 2,048 pages ≈ 420 ns a page. Model
    /// choice: the sparse dump's page costs 112 ns on the same machine; what makes a
    /// threaded process's page dearer was not profiled.
    pub core_page_ns: u64,
}

pub const TODAY_COSTS: TodayCosts = TodayCosts {
    clone_ns: 28 * US,
    zap_ns: 500,
    exit_head_ns: 3 * US,
    exit_rest_ns: 9_080,
    inactive_ns: US,
    finish_wake_ns: 1_800,
    process_end_ns: 220 * US,
    core_base_ns: 455 * US,
    core_page_ns: 420,
};

/// Pages of one thread's stack in the core file: glibc's default 8 MiB stack, dumped
/// whole (its guard page is not); the measured core files grew 8.4 MB a thread.
pub const STACK_PAGES: u64 = 2_048;

use crate::kernel::sched::eevdf::base_slice_ns;

/// A slice as a spinner uses it: the tick that notices it is used up ends it, so it
/// lasts a whole number of ticks.
pub fn slice_at_ticks_ns(cpus: u32, hz: u64) -> u64 {
    let tick = 1_000_000_000 / hz.max(1);
    base_slice_ns(cpus).div_ceil(tick) * tick
}

/// What the run reports besides the trace.
#[derive(Clone, Debug, Default)]
pub struct TodayOutcome {
    pub signal_ns: u64,
    pub zap_ns: Option<u64>,
    pub last_exit_ns: u64,
    pub wait_for_cpu_ns: u64,
    /// Spinners whose deadlines came before main's.
    pub spinners_ahead: u64,
    pub core_pages: u64,
    pub user_ns: u64,
    pub sys_ns: u64,
    pub siglock_acquisitions: u64,
    /// The signal that started the dump or the kill: the one typed, or SIGXCPU when
    /// the process reached its CPU limit first.
    pub first_signal: &'static str,
    /// The trace stopped at the storage budget.
    pub truncated: bool,
    /// Blocks simulated (the run's simulation steps).
    pub steps: u64,
}

struct Today<'c> {
    cfg: &'c Config,
    b: TraceBuilder,
    now: u64,
    siglock: LockId,
    ch_pause: ChannelId,
    ch_startup: ChannelId,
    ch_core: ChannelId,
    c_exit: CounterId,
    c_waiters: CounterId,
    /// What each CPU runs: a task index.
    cpu_task: Vec<Option<usize>>,
    out: TodayOutcome,
    /// When the spinners on the CPUs started spinning (for their user time).
    spin_since: Vec<u64>,
    /// The thread that dumps core: main for a typed signal, the thread on CPU 0 for a
    /// SIGXCPU that comes first.
    dumper: usize,
    /// False from the first block past the run's storage budget: the machine still
    /// runs to the end, so every figure covers the whole run.
    recording: bool,
}

fn id(task: usize) -> TaskId {
    TaskId(task as u32)
}

/// Runs the today variant: the trace and what it measured.
pub fn run(cfg: &Config, seed: u64) -> (TraceBuilder, TodayOutcome) {
    // mmap_sem has been mmap_lock since v5.8, and today's kill path does not take it.
    let (layout, shape) = Shape::new(
        cfg,
        &ShapeNames {
            mmap_lock: "mm->mmap_lock",
            startup: "wait_for_completion(&core_state->startup)",
            core: "coredump_task_exit: until coredump_finish",
        },
    );
    let Shape { siglock, ch_pause, ch_startup, ch_core, c_exit, c_waiters, .. } = shape;
    let mut today = Today {
        cfg,
        b: TraceBuilder::new(layout, text::TEMPLATES, text::CODE),
        now: 0,
        siglock,
        ch_pause,
        ch_startup,
        ch_core,
        c_exit,
        c_waiters,
        cpu_task: vec![None; cfg.cpus as usize],
        out: TodayOutcome::default(),
        spin_since: vec![0; cfg.cpus as usize],
        dumper: MAIN,
        recording: true,
    };
    today.start();
    today.signal(&mut Rng::new(seed));
    (today.b, today.out)
}

impl Today<'_> {
    fn threads(&self) -> usize {
        self.cfg.threads as usize
    }

    fn op(
        &mut self,
        actor: Option<usize>,
        kind: OpKind,
        code: CodeLoc,
        t: T,
        args: &[Arg],
        effects: &[Effect],
    ) {
        if self.recording {
            let at_ns = self.now;
            self.b.op(OpSpec { at_ns, actor: actor.map(id), kind, code, text: txt(t.id(), args), effects });
        }
    }

    /// Starts a block, if the run may still store one.
    fn iter(&mut self, t: T, args: &[Arg]) {
        self.out.steps += 1;
        if self.recording && self.b.storage_full() {
            self.recording = false;
            self.out.truncated = true;
        }
        if self.recording {
            self.b.iteration(txt(t.id(), args));
        }
    }

    fn phase(&mut self, t: T, args: &[Arg]) {
        if self.recording {
            self.b.phase(txt(t.id(), args));
        }
    }

    fn advance(&mut self) {
        if self.recording {
            self.b.advance_to(self.now);
        }
    }

    /// The state change of `task`, with the stage's `doing` gauge.
    fn become_(&mut self, task: usize, state: TaskState, doing: Doing) -> [Effect; 2] {
        [
            Effect::SetState { task: id(task), state },
            Effect::Gauge { task: id(task), gauge: gauge::DOING, value: doing as i64 },
        ]
    }

    /// Takes `task` off whatever CPU it is on, charging a spinner its user time.
    fn leave_cpu(&mut self, task: usize) {
        for cpu in 0..self.cpu_task.len() {
            if self.cpu_task[cpu] == Some(task) {
                self.cpu_task[cpu] = None;
                if task != MAIN && self.cfg.spin && self.out.zap_ns.is_none() {
                    self.out.user_ns += self.now - self.spin_since[cpu];
                }
            }
        }
    }

    fn start(&mut self) {
        let n = self.threads();
        let costs = TODAY_COSTS;
        self.phase(T::PHASE_START, &[Arg::Count(n as u64)]);
        self.iter(T::ITER_MAIN, &[]);
        let e = self.become_(MAIN, TaskState::RunningUser { cpu: 0 }, Doing::User);
        self.cpu_task[0] = Some(MAIN);
        self.op(
            Some(MAIN),
            OpKind::Compute,
            at(text::MAIN, 2),
            T::T_START,
            &[Arg::Task(id(MAIN)), Arg::Count(n as u64), Arg::Ns(costs.clone_ns)],
            &e,
        );
        self.iter(T::ITER_MAIN, &[]);
        for k in 1..=n {
            self.now += costs.clone_ns;
            self.out.sys_ns += costs.clone_ns;
            let free = (1..self.cpu_task.len()).find(|&cpu| self.cpu_task[cpu].is_none());
            let (state, doing, what) = match (self.cfg.spin, free) {
                (false, _) => {
                    (TaskState::Sleeping { channel: self.ch_pause }, Doing::Asleep, "sleeps in pause()")
                }
                (true, Some(cpu)) => (TaskState::RunningUser { cpu: cpu as u16 }, Doing::User, "spins"),
                (true, None) => (TaskState::Runnable, Doing::User, "spins (runnable, waiting its turn)"),
            };
            if let (true, Some(cpu)) = (self.cfg.spin, free) {
                self.cpu_task[cpu] = Some(k);
                self.spin_since[cpu] = self.now;
            }
            let e = self.become_(k, state, doing);
            self.op(
                Some(k),
                OpKind::Compute,
                at(text::TFUNC, 0),
                T::T_THREAD,
                &[Arg::Task(id(k)), Arg::Word(what)],
                &e,
            );
        }
        // main calls pause(); a spinner takes its CPU.
        self.leave_cpu(MAIN);
        let mut e =
            self.become_(MAIN, TaskState::Sleeping { channel: self.ch_pause }, Doing::Asleep).to_vec();
        if self.cfg.spin {
            let waiting = (1..=n).find(|&k| !self.cpu_task.contains(&Some(k)));
            if let Some(k) = waiting {
                self.cpu_task[0] = Some(k);
                self.spin_since[0] = self.now;
                e.extend(self.become_(k, TaskState::RunningUser { cpu: 0 }, Doing::User));
            }
        }
        self.op(Some(MAIN), OpKind::Sleep, at(text::MAIN, 4), T::MAIN_PAUSE, &[Arg::Task(id(MAIN))], &e);
        if self.cfg.spin {
            self.phase(T::PHASE_SPIN, &[]);
            self.iter(T::ITER_SPIN, &[Arg::Task(id(1))]);
            let cpus = self.cpu_task.len() as u64;
            self.op(
                None,
                OpKind::Note,
                at(text::TFUNC, 3),
                T::T_SPINNING,
                &[Arg::Count(n as u64), Arg::Count(cpus)],
                &[],
            );
        }
        self.now = match self.sigxcpu_at() {
            Some(at_ns) if at_ns < self.cfg.signal_at_ns => {
                self.dumper = self.cpu_task[0].unwrap_or(MAIN);
                self.out.first_signal = "SIGXCPU";
                at_ns
            }
            _ => {
                self.out.first_signal = self.cfg.signal;
                self.now.max(self.cfg.signal_at_ns)
            }
        };
        self.advance();
    }

    /// The tick at which the spinners' CPU time reaches the soft RLIMIT_CPU (check_rlimit
    /// in check_process_timers, as in 2.6.14: SIGXCPU at the soft limit), if they spin.
    fn sigxcpu_at(&self) -> Option<u64> {
        let limit_ns = self.cfg.rlimit_cpu_s? * 1_000_000_000;
        let spinning: Vec<u64> = (0..self.cpu_task.len())
            .filter(|&cpu| self.cpu_task[cpu].is_some())
            .map(|cpu| self.spin_since[cpu])
            .collect();
        if !self.cfg.spin || spinning.is_empty() {
            return None;
        }
        // CPU time at `now` and after: the clones so far, then each busy CPU's spinner.
        let used_at =
            |t: u64| self.out.sys_ns + spinning.iter().map(|&since| t.saturating_sub(since)).sum::<u64>();
        let tick = 1_000_000_000 / self.cfg.hz.max(1);
        let busy = spinning.len() as u64;
        let short = limit_ns.saturating_sub(used_at(self.now));
        let reached = self.now + short.div_ceil(busy);
        debug_assert!(used_at(reached) >= limit_ns, "the limit is reached by then");
        Some(reached.div_ceil(tick) * tick)
    }

    fn signal(&mut self, rng: &mut Rng) {
        let n = self.threads();
        let costs = TODAY_COSTS;
        self.out.signal_ns = self.now;
        if self.dumper != MAIN {
            self.sigxcpu_dump(n);
            return;
        }
        self.phase(T::PHASE_SIGNAL, &[Arg::Word(self.cfg.signal)]);
        self.iter(T::ITER_SIGNAL, &[]);
        let lock = [
            Effect::Acquire { lock: self.siglock, task: id(MAIN), mode: LockMode::Write, waited_ns: 0 },
            Effect::Release { lock: self.siglock, task: id(MAIN) },
        ];
        self.out.siglock_acquisitions += 1;
        if !self.cfg.coredump_sig {
            // SIGINT, SIGTERM: the sender kills the group in complete_signal.
            let mut e = lock.to_vec();
            e.push(Effect::Count { counter: self.c_exit, delta: 1 });
            self.op(
                None,
                OpKind::Signal,
                at(text::COMPLETE_TODAY, 1),
                T::T_SIGNAL_KILL,
                &[Arg::Word(self.cfg.signal), Arg::Count(n as u64 + 1), Arg::Ns(costs.zap_ns)],
                &e,
            );
            self.now += costs.zap_ns * (n as u64 + 1);
            self.all_killed(n);
            return;
        }
        self.op(
            None,
            OpKind::Signal,
            at(text::COMPLETE_TODAY, 6),
            T::T_SIGNAL_CORE,
            &[Arg::Word(self.cfg.signal), Arg::Task(id(MAIN))],
            &lock,
        );
        self.wait_for_cpu(rng);
        // main runs do_coredump on CPU 0.
        self.iter(T::ITER_RUN, &[Arg::Task(id(MAIN))]);
        if let Some(spinner) = self.cpu_task[0] {
            self.preempt(spinner, Doing::User, at(text::COMPLETE_TODAY, 6), T::T_RUNS, MAIN);
        }
        self.dump_on_cpu0(MAIN);
        if !self.cfg.dumpable {
            // A set-uid program: do_coredump gives up before coredump_wait; do_group_exit
            // kills the others as SIGINT's sender would.
            self.now += costs.zap_ns * n as u64;
            self.out.sys_ns += costs.zap_ns * n as u64;
            self.cpu_task[0] = None;
            let e = self.become_(MAIN, TaskState::Runnable, Doing::Exiting);
            self.op(Some(MAIN), OpKind::Note, at(text::COREDUMP_TODAY, 0), T::NOT_DUMPABLE, &[], &e);
            self.all_killed(n);
            return;
        }
        self.zap_and_wait(n);
    }

    /// The CPU limit came first: check_process_timers sends SIGXCPU to the group, and
    /// complete_signal picks the thread on the CPU (it is running, so it wants it): that
    /// thread dequeues it on its way back to user mode and dumps core at once, with no
    /// wait for a CPU.
    fn sigxcpu_dump(&mut self, n: usize) {
        let dumper = self.dumper;
        self.phase(T::PHASE_XCPU_FIRST, &[]);
        self.iter(T::ITER_SIGNAL, &[]);
        self.out.siglock_acquisitions += 1;
        let e = [
            Effect::Acquire { lock: self.siglock, task: id(dumper), mode: LockMode::Write, waited_ns: 0 },
            Effect::Release { lock: self.siglock, task: id(dumper) },
        ];
        let limit_s = self.cfg.rlimit_cpu_s.unwrap_or(0);
        let args = [
            Arg::Count(limit_s),
            Arg::Task(id(dumper)),
            Arg::Ns(self.cfg.signal_at_ns),
            Arg::Word(self.cfg.signal),
        ];
        self.op(Some(dumper), OpKind::Signal, at(text::XCPU_TODAY, 3), T::T_SIGNAL_XCPU, &args, &e);
        self.iter(T::ITER_RUN, &[Arg::Task(id(dumper))]);
        self.leave_cpu(dumper);
        self.dump_on_cpu0(dumper);
        self.zap_and_wait(n);
    }

    /// `dumper` has CPU 0 and enters do_coredump.
    fn dump_on_cpu0(&mut self, dumper: usize) {
        self.cpu_task[0] = Some(dumper);
        let e = self.become_(dumper, TaskState::RunningKernel { cpu: 0 }, Doing::Dumper);
        let args = [Arg::Task(id(dumper))];
        self.op(Some(dumper), OpKind::Compute, at(text::COREDUMP_TODAY, 0), T::T_RUNS, &args, &e);
    }

    /// Spinning threads: main waits for a CPU. Model choice, a simple reading of EEVDF
    /// rather than its simulation: main wakes with no lag, so eligible, with a virtual
    /// deadline one slice ahead; the spinners on its CPU that are eligible too (their
    /// vruntime behind the average: about half of them) and whose deadlines come first
    /// each run a slice before it. How many is drawn from the seed, uniformly from none
    /// to that half: the measured spread (a factor 2–15 between runs) comes from main's
    /// lag at the moment, which the model does not follow. Asleep threads: the CPU is idle.
    fn wait_for_cpu(&mut self, rng: &mut Rng) {
        let e = self.become_(MAIN, TaskState::Runnable, Doing::Dumper);
        if !self.cfg.spin || self.cpu_task[0].is_none() {
            self.iter(T::ITER_RUN, &[Arg::Task(id(MAIN))]);
            self.op(
                Some(MAIN),
                OpKind::Wake,
                at(text::COMPLETE_TODAY, 6),
                T::ITER_RUN,
                &[Arg::Task(id(MAIN))],
                &e,
            );
            return;
        }
        let per_cpu = (self.threads() as u64).div_ceil(self.cpu_task.len() as u64);
        let ahead = rng.below(per_cpu / 2 + 1);
        let slice = slice_at_ticks_ns(self.cfg.cpus, self.cfg.hz);
        let wait = ahead * slice;
        self.out.spinners_ahead = ahead;
        self.out.wait_for_cpu_ns = wait;
        self.iter(T::ITER_SCHEDULE, &[]);
        self.op(
            Some(MAIN),
            OpKind::Wake,
            at(text::COMPLETE_TODAY, 6),
            T::T_WAIT_CPU,
            &[Arg::Task(id(MAIN)), Arg::Count(ahead), Arg::Ns(slice), Arg::Ns(wait)],
            &e,
        );
        self.now += wait;
        self.advance();
    }

    /// `task` leaves its CPU, runnable and now `doing`; the narration names `named`.
    fn preempt(&mut self, task: usize, doing: Doing, code: CodeLoc, template: T, named: usize) {
        self.leave_cpu(task);
        let e = self.become_(task, TaskState::Runnable, doing);
        self.op(Some(task), OpKind::Preempt, code, template, &[Arg::Task(id(named))], &e);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    #[test]
    fn the_base_slice_grows_with_the_log_of_the_cpus_and_ends_at_a_tick() {
        assert_eq!(base_slice_ns(1), 700 * US);
        assert_eq!(base_slice_ns(2), 1_400 * US);
        assert_eq!(base_slice_ns(4), 2_100 * US);
        // HZ 250: a 4 ms tick; HZ 1000 with 2 CPUs: two 1 ms ticks.
        assert_eq!(slice_at_ticks_ns(2, 250), 4 * MS);
        assert_eq!(slice_at_ticks_ns(2, 1000), 2 * MS);
        assert_eq!(slice_at_ticks_ns(4, 100), 10 * MS);
    }
}
