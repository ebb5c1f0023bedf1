//! The dumper's path, one method a step: `get_signal_to_deliver` takes the core-dump
//! signal, `do_coredump` takes mmap_sem and sets SIGNAL_GROUP_EXIT, `coredump_wait`
//! yields (2.6.14) and zaps the other threads, and the dump resumes when the last
//! of them has reached `exit_mm`.

use super::*;

impl Machine<'_> {
    /// handle_group_stop returns 0 for the group_exit_task; dequeue_signal takes the
    /// lowest pending signal off the shared set: the one that made this task the dumper.
    pub(super) fn dumper_dequeue(&mut self, task: usize) {
        let tid = id(task);
        let now = self.now;
        self.charge_sys(task, COSTS.step_ns);
        self.out.siglock_acquisitions += 1;
        if self.tasks[task].sigkill {
            // A plain fatal signal (or not dumpable): SIGKILL is pending.
            self.tasks[task].act = Act::KillExit;
            return;
        }
        self.group_exit_task = None;
        let signo = self.take_shared_signal(task);
        self.iter(T::ITER_RUN, &[Arg::Task(tid)]);
        let mut e = self.siglock_section(tid).to_vec();
        e.extend(self.pending_decrease(signo));
        e.extend(self.state(task, self.kernel_state(task)));
        e.extend(self.gauges(task, Doing::Dumper));
        let args = [Arg::Task(tid), Arg::Word(sig::name(signo))];
        self.op(now, Some(task), OpKind::Signal, at(text::HGS, 1), T::DEQUEUE_MAIN, &args, &e);
        self.tasks[task].act = Act::DumpLock;
    }

    /// do_coredump: down_write(mmap_sem) (free: nobody else writes), the dumpable test.
    pub(super) fn dump_lock(&mut self, task: usize) {
        let tid = id(task);
        let now = self.now;
        self.charge_sys(task, COSTS.step_ns);
        self.iter(T::ITER_RUN, &[Arg::Task(tid)]);
        let e =
            [Effect::Acquire { lock: self.shape.mmap_sem, task: tid, mode: LockMode::Write, waited_ns: 0 }];
        let template = if self.dumpable { T::COREDUMP_LOCK } else { T::COREDUMP_LOCK_PLAIN };
        self.op(now, Some(task), OpKind::LockFast, at(text::COREDUMP, 0), template, &[Arg::Task(tid)], &e);
        if !self.dumpable {
            let mut e = vec![
                Effect::Release { lock: self.shape.mmap_sem, task: tid },
                Effect::Count { counter: self.shape.c_exit, delta: 1 },
            ];
            if self.group_stop_count > 0 {
                e.push(Effect::Decrease { counter: self.shape.c_stop, delta: self.group_stop_count });
            }
            self.op(self.now, Some(task), OpKind::Signal, at(text::COREDUMP, 1), T::NOT_DUMPABLE, &[], &e);
            self.zap_others(task, true);
            self.tasks[task].act = Act::KillExit;
            self.tasks[task].sigkill = true;
        } else {
            // mm->dumpable = 0: whoever takes mmap_sem after this dumper finds nothing to dump.
            self.dumpable = false;
            self.tasks[task].act = Act::DumpSetExit;
        }
    }

    /// Under siglock: SIGNAL_GROUP_EXIT (and fix b's reset, or 2.6.18's SIGKILLs).
    pub(super) fn dump_set_exit(&mut self, task: usize) {
        let tid = id(task);
        let now = self.now;
        self.charge_sys(task, COSTS.step_ns);
        self.out.siglock_acquisitions += 1;
        self.group_exit = true;
        self.iter(T::ITER_RUN, &[Arg::Task(tid)]);
        let mut e = vec![
            Effect::Acquire { lock: self.shape.siglock, task: tid, mode: LockMode::Write, waited_ns: 0 },
            Effect::Count { counter: self.shape.c_exit, delta: 1 },
        ];
        let template = match self.cfg.variant {
            Variant::V2_6_18 => T::SET_GROUP_EXIT_ZAP,
            Variant::ResetGroupStop | Variant::ResetOnly => T::SET_GROUP_EXIT_RESET,
            _ => T::SET_GROUP_EXIT,
        };
        if self.cfg.variant.resets() && self.group_stop_count > 0 {
            e.push(Effect::Decrease { counter: self.shape.c_stop, delta: self.group_stop_count });
            self.group_stop_count = 0;
        }
        e.push(Effect::Release { lock: self.shape.siglock, task: tid });
        let args = [Arg::Count(self.group_stop_count)];
        self.op(now, Some(task), OpKind::Compute, at(text::COREDUMP, 3), template, &args, &e);
        if self.cfg.variant == Variant::V2_6_18 {
            self.zap_others(task, false);
        }
        self.tasks[task].act = Act::DumpWait;
    }

    /// coredump_wait: core_waiters = 1, then (2.6.14-rc2) yield() to the expired array.
    pub(super) fn dump_wait(&mut self, task: usize) {
        let tid = id(task);
        let now = self.now;
        self.charge_sys(task, COSTS.step_ns);
        self.core_waiters = 1;
        self.iter(T::ITER_RUN, &[Arg::Task(tid)]);
        if self.cfg.variant.yields() {
            self.rq_mut(task).sched_yield(tid);
            self.seq += 1;
            self.tasks[task].seq = self.seq;
            self.out.yield_ns = Some(now);
            self.slices_counting = true;
            let ahead = self.rq(task).nr_active() as u64;
            let mut e = vec![Effect::Count { counter: self.shape.c_waiters, delta: 1 }];
            e.extend(self.gauges(task, Doing::Dumper));
            let cpu = self.cpu_of(task);
            let nr = self.cpus[cpu].rq.nr_running() as u64;
            let mut args =
                vec![Arg::Task(tid), Arg::Signed(i64::from(self.tasks[task].o1.prio)), Arg::Count(ahead)];
            let template = match (self.cpus[cpu].rq.expired_since_ns(), self.starvation_deadline(cpu)) {
                (Some(since), Some(deadline)) => {
                    args.extend([Arg::Ns(since), Arg::Count(nr), Arg::Ns(deadline)]);
                    T::YIELD
                }
                _ => {
                    args.push(Arg::Count(nr));
                    T::YIELD_NO_CLOCK
                }
            };
            self.op(now, Some(task), OpKind::Milestone, at(text::CDWAIT, 1), template, &args, &e);
            self.phase(T::PHASE_STALL, &[]);
            self.resched(task);
        } else {
            let e = [Effect::Count { counter: self.shape.c_waiters, delta: 1 }];
            self.op(now, Some(task), OpKind::Compute, at(text::CDWAIT, 0), T::NO_YIELD, &[], &e);
        }
        self.tasks[task].act = Act::Zap;
    }

    /// zap_threads: SIGKILL to every other thread of the mm, core_waiters counts them;
    /// up_write(mmap_sem) hands the lock to the first thread asleep on it; then the
    /// dumper waits for the others in wait_for_completion(startup_done).
    pub(super) fn zap(&mut self, task: usize) {
        let tid = id(task);
        self.phase(T::PHASE_ZAP, &[]);
        self.out.zap_ns = Some(self.now);
        let others = (0..self.tasks.len()).filter(|&t| t != task && self.live(t)).count() as u64;
        if self.cfg.variant != Variant::V2_6_18 {
            self.zap_others(task, false);
        }
        self.core_waiters += others;
        let cost = COSTS.zap_per_thread_ns * others.max(1);
        self.charge_sys(task, cost);
        self.iter(T::ITER_RUN, &[Arg::Task(tid)]);
        // --core_waiters: the dumper's own count.
        self.core_waiters -= 1;
        let e = [
            Effect::Count { counter: self.shape.c_waiters, delta: others },
            Effect::Decrease { counter: self.shape.c_waiters, delta: 1 },
            Effect::Release { lock: self.shape.mmap_sem, task: tid },
        ];
        let template = if self.cfg.variant == Variant::V2_6_18 { T::ZAP_18 } else { T::ZAP };
        let args = [
            Arg::Task(tid),
            Arg::Count(others),
            Arg::Count(self.core_waiters + 1),
            Arg::Count(self.mmap_queue.len() as u64),
        ];
        self.op(self.now, Some(task), OpKind::Signal, at(text::CDWAIT, 2), template, &args, &e);
        self.grant_mmap();
        self.tasks[task].act = Act::DumpResume;
        if self.core_waiters > 0 {
            self.sleep(task, self.shape.ch_startup);
        }
    }

    /// Back from coredump_wait: only now the RLIMIT_CORE test, the core file or none,
    /// and complete_all(core_done) for the threads waiting in exit_mm.
    pub(super) fn dump_resume(&mut self, task: usize) {
        let tid = id(task);
        let now = self.now;
        self.charge_sys(task, COSTS.step_ns);
        self.iter(T::ITER_RUN, &[Arg::Task(tid)]);
        let mut e = Vec::new();
        if self.group_stop_count > 0 {
            e.push(Effect::Decrease { counter: self.shape.c_stop, delta: self.group_stop_count });
            self.group_stop_count = 0;
        }
        let limit = if self.cfg.core_unlimited { "unlimited" } else { "0" };
        let args = [Arg::Task(tid), Arg::Word(limit)];
        self.op(now, Some(task), OpKind::Compute, at(text::COREDUMP, 7), T::DUMPER_RESUMES, &args, &e);
        if self.cfg.core_unlimited {
            let pages = COSTS.core_pages_base + COSTS.core_pages_per_thread * u64::from(self.cfg.threads);
            let cost = pages * COSTS.core_page_ns;
            self.charge_sys(task, cost);
            let args = [Arg::Task(tid), Arg::Count(pages), Arg::Ns(cost)];
            self.op(self.now, Some(task), OpKind::Compute, at(text::COREDUMP, 8), T::CORE_WRITE, &args, &[]);
        } else {
            self.op(self.now, Some(task), OpKind::Compute, at(text::COREDUMP, 9), T::CORE_SKIP, &[], &[]);
        }
        // complete_all(core_done)
        let waiting: Vec<usize> = (0..self.tasks.len())
            .filter(|&t| self.tasks[t].sleeping && self.tasks[t].act == Act::Exiting)
            .collect();
        for t in waiting {
            self.wake(t, self.now, Wake::Completion);
        }
        self.tasks[task].act = Act::Exiting;
    }
}
