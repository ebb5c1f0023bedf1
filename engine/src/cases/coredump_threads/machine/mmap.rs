//! mmap_sem as the second lock of the stall: a thread that dequeues a fatal signal
//! while the dumper holds mmap_sem for writing sleeps on it (TASK_UNINTERRUPTIBLE,
//! off the run queue) until the dumper's `up_write`; then the rwsem hands it over
//! in arrival order, and each finds nothing left to dump and exits.

use super::*;

impl Machine<'_> {
    /// dequeue_signal's pick from the shared set: the lowest signal number first.
    pub(super) fn take_shared_signal(&mut self, task: usize) -> u32 {
        let signo = self.shared_pending.trailing_zeros();
        assert!(signo < 32, "a signal is pending when one is taken");
        self.shared_pending &= !(1 << signo);
        self.tasks[task].dequeued = signo;
        signo
    }

    /// The counter that shows `signo` on the shared set goes down.
    pub(super) fn pending_decrease(&self, signo: u32) -> Option<Effect> {
        let counter = if signo == sig::SIGXCPU { self.shape.c_xcpu_pending } else { self.shape.c_pending };
        Some(Effect::Decrease { counter, delta: 1 })
    }

    /// In get_signal_to_deliver during a dump (handle_group_stop punted): a signal is
    /// on the shared set, so this thread takes it and acts on it: a core-dump signal
    /// enters do_coredump's down_write(mmap_sem), any other fatal one do_group_exit →
    /// exit_mm's down_read. The dumper holds mmap_sem for writing, so either sleeps.
    pub(super) fn dequeue_during_dump(&mut self, task: usize) {
        let tid = id(task);
        self.charge_sys(task, COSTS.step_ns);
        self.out.siglock_acquisitions += 1;
        let signo = self.take_shared_signal(task);
        let dumps = sig::dumps_core(signo);
        let writer_holds = self.mmap_writer_holds();
        self.iter(T::ITER_RUN, &[Arg::Task(tid)]);
        let mut e = self.siglock_section(tid).to_vec();
        e.extend(self.pending_decrease(signo));
        e.extend(self.state(task, self.kernel_state(task)));
        e.extend(self.gauges(task, self.doing(task)));
        let template = if dumps { T::DEQUEUE_DUMP } else { T::DEQUEUE_EXIT };
        let args = [Arg::Task(tid), Arg::Word(sig::name(signo)), Arg::Task(id(self.dumper))];
        self.op(self.now, Some(task), OpKind::Signal, at(text::GSTD, 7), template, &args, &e);
        if !writer_holds {
            // The dumper has let mmap_sem go: the lock is taken at once, and the mm is
            // no longer dumpable (no shipped setting gets here: by then SIGKILL is pending).
            let mode = if dumps { LockMode::Write } else { LockMode::Read };
            if mode == LockMode::Read {
                self.mmap_readers += 1;
            }
            let e = [Effect::Acquire { lock: self.shape.mmap_sem, task: tid, mode, waited_ns: 0 }];
            self.op(
                self.now,
                Some(task),
                OpKind::LockFast,
                at(text::COREDUMP, 0),
                T::COREDUMP_LOCK_PLAIN,
                &[],
                &e,
            );
            self.tasks[task].act = if dumps { Act::DumpGiveUp } else { Act::ExitMmResume };
            return;
        }
        let since_ns = self.now;
        let wait = if dumps { MmapWait::Dump { since_ns } } else { MmapWait::Exit { since_ns } };
        if dumps {
            self.out.blocked_dumpers += 1;
        }
        self.block_on_mmap(task, wait);
    }

    /// Whether the dumper holds mmap_sem for writing now (between its down_write and
    /// the up_write after zap_threads).
    fn mmap_writer_holds(&self) -> bool {
        matches!(self.tasks[self.dumper].act, Act::DumpSetExit | Act::DumpWait | Act::Zap)
    }

    /// down_write / down_read slow path: queue on the rwsem, TASK_UNINTERRUPTIBLE,
    /// schedule(): deactivate_task takes the thread off the run queue, so nr_running
    /// (and with it the starvation threshold) drops by one.
    fn block_on_mmap(&mut self, task: usize, wait: MmapWait) {
        let tid = id(task);
        let cpu = self.cpu_of(task);
        let nr_before = self.cpus[cpu].rq.nr_running() as u64;
        let deadline_before = self.starvation_deadline(cpu);
        self.tasks[task].mmap_wait = Some(wait);
        self.tasks[task].sleeping = true;
        self.mmap_queue.push_back(task);
        self.rq_mut(task).remove(tid);
        self.tasks[task].o1.charge(&self.o1, self.now);
        if self.cpus[cpu].current == Some(task) {
            self.cpus[cpu].current = None;
        }
        self.cpus[cpu].need_resched = true;
        let mode = if matches!(wait, MmapWait::Dump { .. }) { LockMode::Write } else { LockMode::Read };
        let mut e = vec![Effect::Enqueue { lock: self.shape.mmap_sem, task: tid, mode }];
        e.extend(self.state(task, TaskState::BlockedOnLock { lock: self.shape.mmap_sem }));
        e.extend(self.gauges(task, self.doing(task)));
        let nr_after = self.cpus[cpu].rq.nr_running() as u64;
        let queued = self.mmap_queue.len() as u64;
        let (template, args) = match (deadline_before, self.starvation_deadline(cpu)) {
            (Some(before), Some(after)) => (
                T::MMAP_BLOCK,
                vec![
                    Arg::Task(tid),
                    Arg::Count(queued),
                    Arg::Count(nr_before),
                    Arg::Count(nr_after),
                    Arg::Ns(before.saturating_sub(after)),
                    Arg::Ns(before),
                    Arg::Ns(after),
                ],
            ),
            _ => (
                T::MMAP_BLOCK_NO_CLOCK,
                vec![Arg::Task(tid), Arg::Count(queued), Arg::Count(nr_before), Arg::Count(nr_after)],
            ),
        };
        let kind = if self.out.blocked_dumpers == 1 { OpKind::Milestone } else { OpKind::LockContended };
        self.op(self.now, Some(task), kind, at(text::COREDUMP, 0), template, &args, &e);
    }

    /// up_write's __rwsem_do_wake: the first waiter gets the lock; a writer alone, or
    /// every reader up to the next writer. Each is woken (process context).
    pub(super) fn grant_mmap(&mut self) {
        let Some(&first) = self.mmap_queue.front() else { return };
        let first_is_writer = matches!(self.tasks[first].mmap_wait, Some(MmapWait::Dump { .. }));
        while let Some(&task) = self.mmap_queue.front() {
            let (mode, since_ns, next) = match self.tasks[task].mmap_wait {
                Some(MmapWait::Dump { since_ns }) => (LockMode::Write, since_ns, Act::DumpGiveUp),
                Some(MmapWait::Exit { since_ns }) => (LockMode::Read, since_ns, Act::ExitMmResume),
                None => unreachable!("a queued thread waits on mmap_sem"),
            };
            if mode == LockMode::Write && task != first {
                break;
            }
            self.mmap_queue.pop_front();
            self.tasks[task].mmap_wait = None;
            if mode == LockMode::Read {
                self.mmap_readers += 1;
            }
            self.tasks[task].act = next;
            let waited_ns = self.now - since_ns;
            let e = [Effect::Acquire { lock: self.shape.mmap_sem, task: id(task), mode, waited_ns }];
            let args = [Arg::Task(id(task)), Arg::Ns(waited_ns), Arg::Count(self.mmap_queue.len() as u64)];
            self.op(self.now, None, OpKind::LockGranted, at(text::CDWAIT, 4), T::MMAP_GRANT, &args, &e);
            self.wake(task, self.now, Wake::Lock);
            if first_is_writer {
                break;
            }
        }
    }

    /// A second dumper with mmap_sem at last: do_coredump finds mm->dumpable = 0 (the
    /// dumper cleared it), up_write, and returns; do_group_exit → do_exit → exit_mm.
    pub(super) fn dump_give_up(&mut self, task: usize) {
        let tid = id(task);
        self.charge_sys(task, COSTS.step_ns);
        let args =
            [Arg::Task(tid), Arg::Word(sig::name(self.tasks[task].dequeued)), Arg::Task(id(self.dumper))];
        self.release_mmap_for_exit(task, at(text::COREDUMP, 1), T::DUMP_GIVE_UP, &args);
        self.grant_mmap();
        self.exit_mm_core_wait(task);
    }

    /// exit_mm's down_read granted after the dumper's up_write: on to the core_waiters count.
    pub(super) fn exit_mm_resume(&mut self, task: usize) {
        let tid = id(task);
        self.charge_sys(task, COSTS.step_ns);
        self.release_mmap_for_exit(task, at(text::EXIT_MM, 0), T::EXIT_MM_RESUME, &[Arg::Task(tid)]);
        self.mmap_readers -= 1;
        if self.mmap_readers == 0 {
            self.grant_mmap();
        }
        self.exit_mm_core_wait(task);
    }

    /// `task` lets mmap_sem go on its way to do_exit: the op that says so (`template`).
    fn release_mmap_for_exit(&mut self, task: usize, code: CodeLoc, template: T, args: &[Arg]) {
        let tid = id(task);
        self.iter(T::ITER_RUN, &[Arg::Task(tid)]);
        let mut e = vec![Effect::Release { lock: self.shape.mmap_sem, task: tid }];
        self.tasks[task].act = Act::Exiting;
        e.extend(self.state(task, self.kernel_state(task)));
        e.extend(self.gauges(task, Doing::Exiting));
        self.op(self.now, Some(task), OpKind::Exit, code, template, args, &e);
    }
}
