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
        t: T,
        args: &[Arg],
        state: TaskState,
        doing: Doing,
    ) {
        let cpu = if task == MAIN { 0 } else { task % self.cpu_task.len() };
        debug_assert!(self.cpu_task[cpu].is_none(), "exits run one at a time on free CPUs");
        self.cpu_task[cpu] = Some(task);
        self.iter(T::ITER_RUN, &[Arg::Task(id(task))]);
        let e = self.become_(task, TaskState::RunningKernel { cpu: cpu as u16 }, Doing::Exiting);
        self.op(
            Some(task),
            OpKind::Compute,
            at(text::EXIT_TODAY, 0),
            T::KILL_DEQUEUE,
            &[Arg::Task(id(task))],
            &e,
        );
        self.now += ns;
        self.out.sys_ns += ns;
        self.cpu_task[cpu] = None;
        let e = self.become_(task, state, doing);
        let kind = if state == TaskState::Dead { OpKind::Exit } else { OpKind::Sleep };
        self.op(Some(task), kind, at(text::EXIT_TODAY, 6), t, args, &e);
    }

    pub(super) fn exit_whole(&mut self, task: usize, t: T, ns: u64) {
        self.run_then(task, ns, t, &[Arg::Task(id(task))], TaskState::Dead, Doing::Dead);
    }

    pub(super) fn zap_and_wait(&mut self, n: usize) {
        let costs = TODAY_COSTS;
        let dumper = self.dumper;
        // Every other thread of the group, in thread-list order (main first, if it is not the dumper).
        let others: Vec<usize> = (0..=n).filter(|&t| t != dumper).collect();
        let zap = costs.zap_ns * n as u64;
        let mut e = vec![
            Effect::Acquire { lock: self.siglock, task: id(dumper), mode: LockMode::Write, waited_ns: 0 },
            Effect::Count { counter: self.c_exit, delta: 1 },
            Effect::Count { counter: self.c_waiters, delta: n as u64 },
        ];
        self.out.siglock_acquisitions += 1;
        self.iter(T::ITER_RUN, &[Arg::Task(id(dumper))]);
        self.op(
            Some(dumper),
            OpKind::LockFast,
            at(text::COREDUMP_TODAY, 1),
            T::T_ZAP,
            &[Arg::Count(n as u64), Arg::Ns(costs.zap_ns), Arg::Task(id(dumper))],
            &e,
        );
        self.now += zap;
        self.out.sys_ns += zap;
        e = vec![Effect::Release { lock: self.siglock, task: id(dumper) }];
        e.extend(self.become_(dumper, TaskState::Sleeping { channel: self.ch_startup }, Doing::Dumper));
        self.cpu_task[0] = None;
        self.op(
            Some(dumper),
            OpKind::Sleep,
            at(text::COREDUMP_TODAY, 5),
            T::ZAP_18,
            &[Arg::Task(id(dumper)), Arg::Count(n as u64)],
            &e,
        );
        self.kicked_off_cpus();
        self.phase(T::PHASE_ZAP, &[]);
        for (i, &k) in others.iter().enumerate() {
            let left = (others.len() - 1 - i) as u64;
            let dec = [Effect::Decrease { counter: self.c_waiters, delta: 1 }];
            let t = if left == 0 { T::T_EXIT_CORE_LAST } else { T::T_EXIT_CORE };
            self.run_then(
                k,
                costs.exit_head_ns,
                t,
                &[Arg::Task(id(k)), Arg::Count(left)],
                TaskState::Sleeping { channel: self.ch_core },
                Doing::Asleep,
            );
            self.op(
                Some(k),
                OpKind::Note,
                at(text::EXIT_TODAY, 3),
                T::EXIT_MM_WAIT,
                &[Arg::Task(id(k)), Arg::Count(left)],
                &dec,
            );
        }
        // The dumper wakes, checks every thread is off its CPU, dumps (or not), finishes.
        self.iter(T::ITER_RUN, &[Arg::Task(id(dumper))]);
        self.cpu_task[0] = Some(dumper);
        let e = self.become_(dumper, TaskState::RunningKernel { cpu: 0 }, Doing::Dumper);
        self.op(
            Some(dumper),
            OpKind::Wake,
            at(text::COREDUMP_TODAY, 6),
            T::T_DUMPER,
            &[Arg::Task(id(dumper)), Arg::Count(n as u64), Arg::Ns(costs.inactive_ns)],
            &e,
        );
        let inactive = costs.inactive_ns * n as u64;
        self.now += inactive;
        self.out.sys_ns += inactive;
        if self.cfg.core_unlimited {
            let pages = STACK_PAGES * n as u64;
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
            self.now += ns;
            self.out.sys_ns += ns;
        } else {
            self.op(Some(dumper), OpKind::Note, at(text::COREDUMP_TODAY, 7), T::T_NO_CORE, &[], &[]);
        }
        let wakes = costs.finish_wake_ns * n as u64;
        self.op(
            Some(dumper),
            OpKind::Compute,
            at(text::COREDUMP_TODAY, 9),
            T::T_FINISH,
            &[Arg::Count(n as u64), Arg::Ns(costs.finish_wake_ns), Arg::Task(id(dumper))],
            &[],
        );
        self.now += wakes;
        self.out.sys_ns += wakes;
        self.cpu_task[0] = None;
        let e = self.become_(dumper, TaskState::Runnable, Doing::Exiting);
        self.op(Some(dumper), OpKind::Schedule, at(text::COREDUMP_TODAY, 9), T::ITER_SCHEDULE, &[], &e);
        for task in others.iter().copied().chain([dumper]) {
            let ns =
                if task == dumper { costs.exit_head_ns + costs.exit_rest_ns } else { costs.exit_rest_ns };
            self.exit_whole(task, T::T_EXIT_REST, ns);
        }
        self.process_end();
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
