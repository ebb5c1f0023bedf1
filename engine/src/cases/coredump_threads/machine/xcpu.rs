//! The seed's own CPU limit and the O(1) starvation clock it shortens.
//!
//! main sets a soft RLIMIT_CPU (`setrlimit`); from every tick, 2.6.14's
//! `run_posix_cpu_timers` → `check_process_timers` compares the process's CPU time
//! (user + sys of every thread) with it, sends SIGXCPU to the thread group when it is
//! reached and raises the soft limit by a second, so that one more follows every
//! further CPU-second (the hard limit, unlimited here, would send SIGKILL). The
//! kernel samples CPU time by ticks; the model charges it exactly and compares at the
//! tick (model choice: the two differ by less than a tick).

use super::*;

const S: u64 = 1_000_000_000;

impl Machine<'_> {
    /// setrlimit(RLIMIT_CPU, soft): arms the process CPU timer (set_process_cpu_timer).
    pub(super) fn arm_rlimit(&mut self, task: usize) {
        let Some(limit_s) = self.cfg.rlimit_cpu_s else { return };
        self.rlimit_cur_s = Some(limit_s);
        let e = [Effect::Count { counter: self.shape.c_rlimit, delta: limit_s }];
        let args = [Arg::Task(id(task)), Arg::Count(limit_s), Arg::Ns(self.cpu_total_ns)];
        self.op(self.now, Some(task), OpKind::Syscall, at(text::MAIN, 1), T::SETRLIMIT, &args, &e);
    }

    /// run_posix_cpu_timers(current) after scheduler_tick on `cpu`.
    pub(super) fn check_process_timers(&mut self, cpu: usize) {
        let Some(current) = self.cpus[cpu].current else { return };
        let Some(limit_s) = self.rlimit_cur_s else { return };
        // A thread with SIGKILL pending is on its way out with the rest of the group
        // (model choice: no SIGXCPU in the microseconds after the kill).
        if self.cpu_total_ns < limit_s * S || self.tasks[current].sigkill {
            return;
        }
        self.rlimit_cur_s = Some(limit_s + 1);
        self.out.sigxcpu_ns.push(self.now);
        let sent = self.out.sigxcpu_ns.len() as u64;
        let bit = 1u32 << sig::SIGXCPU;
        let dropped = self.shared_pending & bit != 0;
        let mut e = vec![
            Effect::Count { counter: self.shape.c_xcpu_sent, delta: 1 },
            Effect::Count { counter: self.shape.c_rlimit, delta: 1 },
        ];
        if !dropped {
            self.shared_pending |= bit;
            e.push(Effect::Count { counter: self.shape.c_xcpu_pending, delta: 1 });
        }
        let args = [
            Arg::Ns(self.cpu_total_ns),
            Arg::Count(limit_s),
            Arg::Count(sent),
            Arg::Task(id(current)),
            Arg::Count(limit_s + 1),
        ];
        let template = if dropped { T::XCPU_DROPPED } else { T::XCPU_SENT };
        let kind = if sent == 1 { OpKind::Milestone } else { OpKind::Signal };
        self.iter(T::ITER_TICK, &[]);
        self.op(self.now, Some(current), kind, at(text::XCPU, 2), template, &args, &e);
        if dropped {
            return;
        }
        if self.out.first_signal.is_empty() {
            // Nothing fatal has happened yet: SIGXCPU is the core-dump signal that starts it all.
            self.first_fatal_signal(sig::SIGXCPU, current);
        } else {
            // __group_complete_signal: SIGNAL_GROUP_EXIT (or a group stop) is already
            // there, so no new group stop: signal_wake_up on the thread that wants it,
            // the one on the CPU (task_curr).
            self.tasks[current].tif_sigpending = true;
            if matches!(self.tasks[current].act, Act::Spin | Act::Loop) {
                self.tasks[current].act = Act::SigEntry;
            }
        }
    }

    /// When EXPIRED_STARVING will hold on `cpu` with today's nr_running: the first
    /// expiry since the last swap plus STARVATION_LIMIT × nr_running + one jiffy.
    pub(super) fn starvation_deadline(&self, cpu: usize) -> Option<u64> {
        let rq = &self.cpus[cpu].rq;
        let since = rq.expired_since_ns()?;
        Some(since + self.o1.starvation_limit_ns() * rq.nr_running() as u64 + self.o1.tick_ns())
    }

    /// The effect that brings the stage's `rq->expired_timestamp` of `cpu` up to date.
    pub(super) fn expired_clock_sync(&self, cpu: usize) -> Option<Effect> {
        if !self.recording {
            return None;
        }
        let counter = self.shape.expired_ts(cpu);
        let shown = self.b.world().counters[counter.0 as usize];
        let now = self.cpus[cpu].rq.expired_since_ns().unwrap_or(0);
        match now.cmp(&shown) {
            std::cmp::Ordering::Equal => None,
            std::cmp::Ordering::Greater => Some(Effect::Count { counter, delta: now - shown }),
            std::cmp::Ordering::Less => Some(Effect::Decrease { counter, delta: shown - now }),
        }
    }
}
