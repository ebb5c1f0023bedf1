//! Today's dump and the exits around it: zap_threads, each thread's wait in
//! coredump_task_exit, the dumper's checks and the core file, coredump_finish, and
//! the exits one after another.

use super::*;

impl Today<'_> {
    /// signal_wake_up(t, 1) kicks every running spinner into the kernel: the CPUs
    /// are given to the exits that follow, one at a time.
    pub(super) fn kicked_off_cpus(&mut self) {
        for cpu in 0..self.cpu_task.len() {
            if let Some(task) = self.cpu_task[cpu] {
                if task != MAIN {
                    self.preempt(task, Doing::Exiting, at(text::EXIT_TODAY, 0), T::KILL_DEQUEUE, task);
                }
            }
        }
        self.out.zap_ns = Some(self.now);
        self.advance();
    }

    /// `task` runs for `ns` on a CPU and then is in `state`. Model choice: exits follow
    /// one another (exit_notify and release_task take tasklist_lock for writing; the
    /// measured SIGINT times on one CPU and on two agree: 12.0 and 12.8 ms at N = 1,000).
    pub(super) fn run_then(
        &mut self,
        task: usize,
        ns: u64,
        template: T,
        args: &[Arg],
        state: TaskState,
        doing: Doing,
    ) {
        let cpu = if task == MAIN { 0 } else { task % self.cpu_task.len() };
        debug_assert!(self.cpu_task[cpu].is_none(), "exits run one at a time on free CPUs");
        self.cpu_task[cpu] = Some(task);
        self.iter(T::ITER_RUN, &[Arg::Task(id(task))]);
        let effects = self.become_(task, TaskState::RunningKernel { cpu: cpu as u16 }, Doing::Exiting);
        self.op(
            Some(task),
            OpKind::Compute,
            at(text::EXIT_TODAY, 0),
            T::KILL_DEQUEUE,
            &[Arg::Task(id(task))],
            &effects,
        );
        self.spend_sys(ns);
        self.cpu_task[cpu] = None;
        let effects = self.become_(task, state, doing);
        let kind = if state == TaskState::Dead { OpKind::Exit } else { OpKind::Sleep };
        self.op(Some(task), kind, at(text::EXIT_TODAY, 6), template, args, &effects);
    }

    pub(super) fn exit_whole(&mut self, task: usize, template: T, ns: u64) {
        self.run_then(task, ns, template, &[Arg::Task(id(task))], TaskState::Dead, Doing::Dead);
    }

    /// The dumper kills the `waiters` other threads of the group and waits for each
    /// to reach the core wait, dumps (or not), and everyone exits.
    pub(super) fn zap_and_wait(&mut self, waiters: usize) {
        let dumper = self.dumper;
        // Every other thread of the group, in thread-list order (main first, if it is not the dumper).
        let others: Vec<usize> = (0..=waiters).filter(|&task| task != dumper).collect();
        self.zap_others(waiters);
        self.kicked_off_cpus();
        self.phase(T::PHASE_ZAP, &[]);
        self.others_reach_core_wait(&others);
        self.dump_core(waiters);
        self.finish_dump(waiters, &others);
        self.process_end();
    }

    /// The kernel's time on the dumper's CPU: the clock moves and it is sys time.
    fn spend_sys(&mut self, ns: u64) {
        self.now += ns;
        self.out.sys_ns += ns;
    }

    /// Under the siglock the dumper sends SIGKILL to each other thread, then sleeps
    /// until they have all stopped.
    fn zap_others(&mut self, waiters: usize) {
        let costs = TODAY_COSTS;
        let dumper = self.dumper;
        let effects = [
            Effect::Acquire { lock: self.siglock, task: id(dumper), mode: LockMode::Write, waited_ns: 0 },
            Effect::Count { counter: self.c_exit, delta: 1 },
            Effect::Count { counter: self.c_waiters, delta: waiters as u64 },
        ];
        self.out.siglock_acquisitions += 1;
        self.iter(T::ITER_RUN, &[Arg::Task(id(dumper))]);
        self.op(
            Some(dumper),
            OpKind::LockFast,
            at(text::COREDUMP_TODAY, 1),
            T::T_ZAP,
            &[Arg::Count(waiters as u64), Arg::Ns(costs.zap_ns), Arg::Task(id(dumper))],
            &effects,
        );
        self.spend_sys(costs.zap_ns * waiters as u64);
        let mut effects = vec![Effect::Release { lock: self.siglock, task: id(dumper) }];
        effects.extend(self.become_(dumper, TaskState::Sleeping { channel: self.ch_startup }, Doing::Dumper));
        self.cpu_task[0] = None;
        self.op(
            Some(dumper),
            OpKind::Sleep,
            at(text::COREDUMP_TODAY, 5),
            T::ZAP_18,
            &[Arg::Task(id(dumper)), Arg::Count(waiters as u64)],
            &effects,
        );
    }

    /// Each killed thread runs the head of its exit and sleeps in the core wait; the
    /// last one to arrive is told as such.
    fn others_reach_core_wait(&mut self, others: &[usize]) {
        for (index, &task) in others.iter().enumerate() {
            let left = (others.len() - 1 - index) as u64;
            let one_fewer = [Effect::Decrease { counter: self.c_waiters, delta: 1 }];
            let template = if left == 0 { T::T_EXIT_CORE_LAST } else { T::T_EXIT_CORE };
            self.run_then(
                task,
                TODAY_COSTS.exit_head_ns,
                template,
                &[Arg::Task(id(task)), Arg::Count(left)],
                TaskState::Sleeping { channel: self.ch_core },
                Doing::Asleep,
            );
            self.op(
                Some(task),
                OpKind::Note,
                at(text::EXIT_TODAY, 3),
                T::EXIT_MM_WAIT,
                &[Arg::Task(id(task)), Arg::Count(left)],
                &one_fewer,
            );
        }
    }

    /// The dumper wakes, checks every thread is off its CPU, and dumps the core if
    /// the limit allows one.
    fn dump_core(&mut self, waiters: usize) {
        let costs = TODAY_COSTS;
        let dumper = self.dumper;
        self.iter(T::ITER_RUN, &[Arg::Task(id(dumper))]);
        self.cpu_task[0] = Some(dumper);
        let effects = self.become_(dumper, TaskState::RunningKernel { cpu: 0 }, Doing::Dumper);
        self.op(
            Some(dumper),
            OpKind::Wake,
            at(text::COREDUMP_TODAY, 6),
            T::T_DUMPER,
            &[Arg::Task(id(dumper)), Arg::Count(waiters as u64), Arg::Ns(costs.inactive_ns)],
            &effects,
        );
        self.spend_sys(costs.inactive_ns * waiters as u64);
        if self.cfg.core_unlimited {
            let pages = STACK_PAGES * waiters as u64;
            let ns = costs.core_base_ns + pages * costs.core_page_ns;
            self.out.core_pages = pages;
            self.op(
                Some(dumper),
                OpKind::Emit,
                at(text::COREDUMP_TODAY, 8),
                T::T_CORE,
                &[Arg::Count(pages), Arg::Ns(ns)],
                &[],
            );
            self.spend_sys(ns);
        } else {
            self.op(Some(dumper), OpKind::Note, at(text::COREDUMP_TODAY, 7), T::T_NO_CORE, &[], &[]);
        }
    }

    /// The dumper wakes every waiter to finish its exit, then each exits in turn,
    /// the dumper last.
    fn finish_dump(&mut self, waiters: usize, others: &[usize]) {
        let costs = TODAY_COSTS;
        let dumper = self.dumper;
        self.op(
            Some(dumper),
            OpKind::Compute,
            at(text::COREDUMP_TODAY, 9),
            T::T_FINISH,
            &[Arg::Count(waiters as u64), Arg::Ns(costs.finish_wake_ns), Arg::Task(id(dumper))],
            &[],
        );
        self.spend_sys(costs.finish_wake_ns * waiters as u64);
        self.cpu_task[0] = None;
        let effects = self.become_(dumper, TaskState::Runnable, Doing::Exiting);
        self.op(Some(dumper), OpKind::Schedule, at(text::COREDUMP_TODAY, 9), T::ITER_SCHEDULE, &[], &effects);
        for task in others.iter().copied().chain([dumper]) {
            let ns =
                if task == dumper { costs.exit_head_ns + costs.exit_rest_ns } else { costs.exit_rest_ns };
            self.exit_whole(task, T::T_EXIT_REST, ns);
        }
    }

    pub(super) fn process_end(&mut self) {
        self.iter(T::ITER_RUN, &[Arg::Task(id(MAIN))]);
        self.now += TODAY_COSTS.process_end_ns;
        self.advance();
        self.out.last_exit_ns = self.now;
        let after = self.now - self.out.signal_ns;
        self.op(Some(MAIN), OpKind::Note, at(text::EXIT_TODAY, 6), T::T_LAST, &[Arg::Ns(after)], &[]);
    }

    /// SIGKILL for everyone (SIGINT's sender, or a set-uid dumper giving up): the
    /// threads leave their CPUs, exit one after another, and the process ends.
    pub(super) fn all_killed(&mut self, n: usize) {
        let costs = TODAY_COSTS;
        self.kicked_off_cpus();
        self.phase(T::PHASE_ZAP, &[]);
        for task in (1..=n).chain([MAIN]) {
            self.exit_whole(task, T::T_EXIT_KILL, costs.exit_head_ns + costs.exit_rest_ns);
        }
        self.process_end();
    }
}
