//! A thread's way out: SIGKILL dequeued, `do_exit`, `exit_mm`'s wait for a dump in
//! progress (core_waiters, core_done), and the end of `do_exit`.

use super::*;

impl Machine<'_> {
    /// get_signal_to_deliver dequeues SIGKILL: do_group_exit → do_exit → exit_mm.
    pub(super) fn kill_exit(&mut self, task: usize) {
        let tid = id(task);
        let now = self.now;
        self.charge_sys(task, COSTS.step_ns);
        self.out.siglock_acquisitions += 1;
        self.iter(T::ITER_RUN, &[Arg::Task(tid)]);
        let mut e = self.siglock_section(tid).to_vec();
        e.extend(self.state(task, self.kernel_state(task)));
        self.tasks[task].act = Act::Exiting;
        e.extend(self.gauges(task, Doing::Exiting));
        self.op(now, Some(task), OpKind::Signal, at(text::GSTD, 8), T::KILL_DEQUEUE, &[Arg::Task(tid)], &e);
        self.exit_mm_core_wait(task);
    }

    /// exit_mm with a dump in progress: --core_waiters; the last one to arrive wakes the
    /// dumper (complete(startup_done)); each sleeps in wait_for_completion(core_done).
    /// The short mmap_sem sections around the count are not drawn (model choice).
    pub(super) fn exit_mm_core_wait(&mut self, task: usize) {
        let tid = id(task);
        self.tasks[task].act = Act::Exiting;
        if task == self.dumper || self.core_waiters == 0 {
            return;
        }
        self.core_waiters -= 1;
        let e = [Effect::Decrease { counter: self.shape.c_waiters, delta: 1 }];
        if self.core_waiters == 0 {
            let args = [Arg::Task(tid), Arg::Task(id(self.dumper))];
            self.op(self.now, Some(task), OpKind::Wake, at(text::EXIT_MM, 1), T::EXIT_MM_LAST, &args, &e);
            self.wake(self.dumper, self.now, Wake::Completion);
        } else {
            let args = [Arg::Task(tid), Arg::Count(self.core_waiters)];
            self.op(self.now, Some(task), OpKind::Sleep, at(text::EXIT_MM, 2), T::EXIT_MM_WAIT, &args, &e);
        }
        self.sleep(task, self.shape.ch_core);
    }

    /// The rest of do_exit: the thread is gone; the last one ends the process.
    pub(super) fn exiting(&mut self, task: usize) {
        let tid = id(task);
        self.charge_sys(task, COSTS.exit_ns);
        self.alive -= 1;
        self.tasks[task].act = Act::Gone;
        self.rq_mut(task).remove(tid);
        let cpu = self.cpu_of(task);
        self.cpus[cpu].current = None;
        self.cpus[cpu].need_resched = true;
        self.iter(T::ITER_RUN, &[Arg::Task(tid)]);
        let mut e: Vec<Effect> = Vec::new();
        if self.b.world().locks[self.shape.siglock.0 as usize].holds(tid) {
            e.push(Effect::Release { lock: self.shape.siglock, task: tid });
        }
        e.extend(self.gauges(task, Doing::Dead));
        e.extend(self.state(task, TaskState::Dead));
        if self.alive == 0 {
            self.out.last_exit_ns = self.now;
            let after = self.now.saturating_sub(self.out.signal_ns);
            let args = [Arg::Task(tid), Arg::Ns(after), Arg::Ns(self.now), Arg::Word(self.out.first_signal)];
            self.op(self.now, Some(task), OpKind::Milestone, at(text::EXIT_MM, 4), T::LAST_EXIT, &args, &e);
        } else {
            self.op(self.now, Some(task), OpKind::Exit, at(text::EXIT_MM, 4), T::EXIT, &[Arg::Task(tid)], &e);
        }
    }
}
