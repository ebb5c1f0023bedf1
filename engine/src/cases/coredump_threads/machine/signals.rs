//! The signal code: `get_signal_to_deliver`'s first turn, `zap_threads`, and
//! `group_send_sig_info` with `__group_complete_signal` (group stop or SIGKILL to all).

use super::*;

impl Machine<'_> {
    /// do_notify_resume → get_signal_to_deliver, the first turn after TIF_SIGPENDING.
    pub(super) fn sig_entry(&mut self, task: usize) {
        let tid = id(task);
        if self.tasks[task].sigkill {
            self.tasks[task].act = Act::KillExit;
            return;
        }
        if self.group_stop_count > 0 && !self.group_exit {
            // handle_group_stop: a real group stop.
            self.charge_sys(task, COSTS.step_ns);
            self.out.siglock_acquisitions += 1;
            self.group_stop_count -= 1;
            self.tasks[task].stopped = true;
            self.tasks[task].act = Act::SigEntry;
            self.iter(T::ITER_RUN, &[Arg::Task(tid)]);
            let e = [Effect::Decrease { counter: self.shape.c_stop, delta: 1 }];
            self.op(
                self.now,
                Some(task),
                OpKind::Sleep,
                at(text::HGS, 6),
                T::STOP,
                &[Arg::Task(tid), Arg::Count(self.group_stop_count)],
                &e,
            );
            self.rq_mut(task).remove(tid);
            self.tasks[task].sleeping = true;
            self.tasks[task].o1.charge(&self.o1, self.now);
            let e: Vec<Effect> = self
                .state(task, TaskState::Stopped)
                .into_iter()
                .chain(self.gauges(task, Doing::Stopped))
                .collect();
            self.op(
                self.now,
                Some(task),
                OpKind::Schedule,
                at(text::SCHEDULE, 1),
                T::SCHEDULE_STOP,
                &[Arg::Task(tid)],
                &e,
            );
            let cpu = self.cpu_of(task);
            self.cpus[cpu].current = None;
            self.cpus[cpu].need_resched = true;
            return;
        }
        if self.group_exit && self.shared_pending != 0 {
            // handle_group_stop punts (or there is no group stop): dequeue_signal finds a
            // signal on the shared set (a SIGXCPU, or a signal typed during the stall).
            self.dequeue_during_dump(task);
            return;
        }
        if self.group_stop_count > 0 {
            // SIGNAL_GROUP_EXIT is set: punt, nothing to dequeue, TIF_SIGPENDING stays.
            self.tasks[task].act = Act::Loop;
            return;
        }
        // Nothing pending and no group stop: recalc_sigpending clears the flag.
        self.charge_sys(task, COSTS.turn_ns);
        self.out.siglock_acquisitions += 1;
        self.tasks[task].tif_sigpending = false;
        let back = if self.cfg.spin { Act::Spin } else { Act::PauseCall };
        self.tasks[task].act = back;
        self.iter(T::ITER_RUN, &[Arg::Task(tid)]);
        let e = self.gauges(task, Doing::User);
        let to = if self.cfg.spin { "its user-mode loop" } else { "pause() (the system call restarts)" };
        self.op(
            self.now,
            Some(task),
            OpKind::Compute,
            at(text::GSTD, 6),
            T::CLEARED,
            &[Arg::Task(tid), Arg::Word(to)],
            &e,
        );
    }

    /// SIGKILL to every live thread but `killer` (zap_threads, zap_other_threads, zap_process).
    pub(super) fn zap_others(&mut self, killer: usize, reset: bool) {
        if reset {
            self.group_exit = true;
            self.group_stop_count = 0;
        }
        for t in 0..self.tasks.len() {
            if t == killer || !self.live(t) {
                continue;
            }
            self.out.siglock_acquisitions += 1;
            self.tasks[t].sigkill = true;
            self.tasks[t].tif_sigpending = true;
            if self.tasks[t].mmap_wait.is_some() {
                // TASK_UNINTERRUPTIBLE in down_write/down_read: signal_wake_up does not
                // wake it; the dumper's up_write will.
                continue;
            }
            if self.tasks[t].sleeping && !matches!(self.tasks[t].act, Act::Exiting) {
                self.tasks[t].stopped = false;
                self.tasks[t].act = Act::SigEntry;
                self.wake(t, self.now, Wake::Signal);
            } else if self.tasks[t].act == Act::Loop || self.tasks[t].act == Act::Spin {
                self.tasks[t].act = Act::SigEntry;
            }
        }
    }

    /// The signal typed at `signal_at` (^\\, ^C or kill(1)): group_send_sig_info to the
    /// process, whose leader, main, is asleep in pause() and wants it.
    pub(super) fn send_signal(&mut self) {
        self.signal_sent = true;
        let now = self.cfg.signal_at_ns.max(self.now);
        let signo = sig::number(self.cfg.signal);
        self.phase(T::PHASE_SIGNAL, &[Arg::Word(self.cfg.signal)]);
        self.iter(T::ITER_SIGNAL, &[]);
        self.out.siglock_acquisitions += 1;
        if !self.out.first_signal.is_empty() {
            self.late_signal(signo, now);
            return;
        }
        let mut e = self.siglock_section(id(MAIN)).to_vec();
        if self.cfg.coredump_sig {
            e.push(Effect::Count { counter: self.shape.c_pending, delta: 1 });
        }
        let args = [Arg::Word(self.cfg.signal), Arg::Task(id(MAIN))];
        self.op(now, None, OpKind::Signal, at(text::COMPLETE, 0), T::SIGNAL_SENT, &args, &e);
        // Said at once: with many threads and the report's 1.3 s the signal can come
        // before main has created them all, and that changes what the run times.
        let created = (1..self.tasks.len()).filter(|&t| self.tasks[t].created).count() as u64;
        let wanted = u64::from(self.cfg.threads);
        if created < wanted {
            let args = [Arg::Count(created), Arg::Count(wanted), Arg::Count(wanted - created)];
            self.op(now, None, OpKind::Signal, at(text::COMPLETE, 0), T::STILL_CREATING, &args, &[]);
        }
        if self.cfg.coredump_sig {
            self.shared_pending |= 1 << signo;
            self.first_fatal_signal(signo, MAIN);
        } else {
            self.out.first_signal = self.cfg.signal;
            self.out.signal_ns = now;
            self.group_exit = true;
            let e = [Effect::Count { counter: self.shape.c_exit, delta: 1 }];
            let args = [Arg::Word(self.cfg.signal)];
            self.op(now, None, OpKind::Signal, at(text::COMPLETE, 3), T::GROUP_EXIT, &args, &e);
            self.zap_others(usize::MAX, false);
        }
    }

    /// A fatal signal that dumps core, the first of the run (already on the shared set):
    /// __group_complete_signal starts a group stop with `target` as the group_exit_task,
    /// the thread that will dump core.
    pub(super) fn first_fatal_signal(&mut self, signo: u32, target: usize) {
        let now = self.now.max(if signo == sig::SIGXCPU { 0 } else { self.cfg.signal_at_ns });
        self.out.first_signal = sig::name(signo);
        self.out.signal_ns = now;
        self.dumper = target;
        if signo == sig::SIGXCPU {
            self.phase(T::PHASE_XCPU_FIRST, &[]);
            self.iter(T::ITER_SIGNAL, &[]);
            let args = [Arg::Task(id(target)), Arg::Ns(self.cfg.signal_at_ns), Arg::Word(self.cfg.signal)];
            self.op(now, None, OpKind::Signal, at(text::COMPLETE, 0), T::XCPU_FIRST, &args, &[]);
        }
        let live = (0..self.tasks.len()).filter(|&t| self.live(t)).count() as u64;
        self.group_stop_count = live;
        self.group_exit_task = Some(target);
        let e = [Effect::Count { counter: self.shape.c_stop, delta: live }];
        let args = [Arg::Word(sig::name(signo)), Arg::Count(live), Arg::Task(id(target))];
        self.op(now, None, OpKind::Signal, at(text::COMPLETE, 8), T::GROUP_STOP, &args, &e);
        // signal_wake_up on every thread from p (the leader) on, in thread-list order;
        // then wake_up_process(group_exit_task), a no-op when it was woken first.
        // If main is still creating threads, it meets the signal on its way out of the
        // current clone(): the rest are never created.
        self.tasks[target].act = Act::DumperDequeue;
        self.tasks[target].tif_sigpending = true;
        self.wake(target, now, Wake::Signal);
        for t in 0..self.tasks.len() {
            if t == target || !self.live(t) {
                continue;
            }
            self.tasks[t].tif_sigpending = true;
            let sleeping = self.tasks[t].sleeping;
            // main still in its pthread_create loop meets the signal on its way out of
            // the current clone() (TIF_SIGPENDING): the rest are never created.
            if matches!(self.tasks[t].act, Act::Spin | Act::PauseCall | Act::MainCreate(_)) || sleeping {
                self.tasks[t].act = Act::SigEntry;
            }
            if sleeping {
                self.wake(t, now, Wake::Signal);
            } else if self.recording {
                let e = self.gauges(t, self.doing(t));
                let args = [Arg::Task(id(t))];
                self.op(now, None, OpKind::Compute, at(text::COMPLETE, 8), T::MARK_RUNNABLE, &args, &e);
            }
        }
    }

    /// The typed signal comes after the CPU limit has started the dump: with
    /// SIGNAL_GROUP_EXIT (or the group stop) already there, __group_complete_signal
    /// neither stops nor kills; the signal waits on the shared set for a looping thread
    /// to dequeue it. (The microseconds between a group stop and SIGNAL_GROUP_EXIT,
    /// where the kernel would re-target the stop, are not modelled: model choice.)
    fn late_signal(&mut self, signo: u32, now: u64) {
        let bit = 1u32 << signo;
        let fresh = self.shared_pending & bit == 0 && self.alive > 0;
        let mut e = self.siglock_section(id(MAIN)).to_vec();
        if fresh {
            self.shared_pending |= bit;
            e.push(Effect::Count { counter: self.shape.c_pending, delta: 1 });
        }
        let args = [Arg::Word(self.cfg.signal), Arg::Word(self.out.first_signal)];
        self.op(now, None, OpKind::Signal, at(text::COMPLETE, 1), T::SIGNAL_LATE, &args, &e);
        // Every looping thread has TIF_SIGPENDING: the one on a CPU takes it at its next turn.
        for cpu in 0..self.cpus.len() {
            if let Some(t) = self.cpus[cpu].current {
                if self.tasks[t].act == Act::Loop {
                    self.tasks[t].act = Act::SigEntry;
                }
            }
        }
    }
}
