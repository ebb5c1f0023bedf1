//! The seed's program as step machines: each step of `main` and of a thread costs
//! time, then takes effect (creation, the loop, pause, the signal code's entry and exit).
//! `step` only dispatches: each step is a method of its own, here or in the module of
//! the kernel path it belongs to (`dump.rs`, `exit.rs`, `mmap.rs`, `signals.rs`).

use super::*;

impl Machine<'_> {
    /// A discrete step of `task`: costs time, then takes effect.
    pub(super) fn step(&mut self, task: usize, act: Act) {
        match act {
            Act::MainSetup => self.main_setup(task),
            Act::MainCreate(k) => self.main_create(task, k),
            Act::MainPause => self.main_pause(task),
            Act::ThreadStart => self.thread_start(task),
            Act::PauseCall => self.pause_call(task),
            Act::SigEntry => self.sig_entry(task),
            Act::DumperDequeue => self.dumper_dequeue(task),
            Act::DumpLock => self.dump_lock(task),
            Act::DumpSetExit => self.dump_set_exit(task),
            Act::DumpWait => self.dump_wait(task),
            Act::Zap => self.zap(task),
            Act::DumpResume => self.dump_resume(task),
            Act::KillExit => self.kill_exit(task),
            Act::DumpGiveUp => self.dump_give_up(task),
            Act::ExitMmResume => self.exit_mm_resume(task),
            Act::Exiting => self.exiting(task),
            Act::Spin | Act::Loop | Act::Gone => unreachable!("handled by run_task"),
        }
    }

    /// main's start-up, then system("uname -a; date"): fork (sh is not simulated: a model
    /// choice) and sleep in wait4() until the children have run.
    fn main_setup(&mut self, task: usize) {
        let tid = id(task);
        let now = self.now;
        self.iter(T::ITER_MAIN, &[]);
        let mut e: Vec<Effect> = self.state(task, self.kernel_state(task)).into_iter().collect();
        e.extend(self.gauges(task, Doing::User));
        let o = &self.tasks[task].o1;
        let args = [
            Arg::Task(tid),
            Arg::Ns(o.sleep_avg_ns),
            Arg::Signed(i64::from(o.prio)),
            Arg::Ns(COSTS.system_ns),
        ];
        self.op(now, Some(task), OpKind::Compute, at(text::MAIN, 0), T::MAIN_START, &args, &e);
        self.charge_sys(task, COSTS.main_setup_ns);
        // The fork of sh: the same sched_fork / wake_up_new_task as a thread's.
        let _sh = self.fork_from_main();
        if self.tasks[MAIN].o1.time_slice == 0 {
            self.expire_after_fork(task);
        }
        let o = &self.tasks[task].o1;
        let args =
            [Arg::Task(tid), Arg::Count(o.time_slice), Arg::Ns(o.sleep_avg_ns), Arg::Ns(COSTS.system_ns)];
        let e = self.gauges(task, Doing::User);
        self.op(self.now, Some(task), OpKind::Syscall, at(text::MAIN, 0), T::SYSTEM_FORK, &args, &e);
        self.tasks[task].act = Act::MainCreate(0);
        self.exact_wake = Some((self.now + COSTS.system_ns, task));
        self.sleep(task, self.shape.ch_system);
    }

    /// sched_fork / wake_up_new_task (2.6.14) on main's side: the child gets
    /// CHILD_PENALTY of main's bonus and half of main's remaining slice; main keeps
    /// whole bonus steps (PARENT_PENALTY) and the other half. Returns the child.
    fn fork_from_main(&mut self) -> O1Task {
        let parent_bonus = self.o1.current_bonus(self.tasks[MAIN].o1.sleep_avg_ns);
        let mut child = O1Task::forked(&self.o1, self.cfg.nice, self.now, parent_bonus);
        child.prio = self.o1.effective_prio(child.static_prio, child.sleep_avg_ns);
        let parent_slice = self.tasks[MAIN].o1.time_slice;
        child.time_slice = (parent_slice + 1) >> 1;
        self.tasks[MAIN].o1.time_slice = parent_slice >> 1;
        self.tasks[MAIN].o1.sleep_avg_ns =
            parent_bonus as u64 * self.o1.max_sleep_avg() / 10 * self.o1.tick_ns();
        child
    }

    /// pthread_create #k (setrlimit first, before the first one).
    fn main_create(&mut self, task: usize, k: u32) {
        let tid = id(task);
        if k == 0 {
            self.arm_rlimit(task);
        }
        let now = self.now;
        self.charge_sys(task, COSTS.clone_ns);
        let child = k as usize + 1;
        // sched_fork: sched_balance_self(cpu, SD_BALANCE_FORK) finds no domain with
        // that flag on a plain SMP machine in 2.6.14: the child starts on main's CPU.
        self.tasks[child].cpu = self.cpu_of(MAIN);
        let c = self.fork_from_main();
        self.tasks[child].o1 = c;
        self.tasks[child].sleeping = false;
        self.tasks[child].created = true;
        self.alive += 1;
        self.enqueue(child, Array::Active);
        if self.rec_on() {
            self.b.iteration(txt(T::ITER_CREATE.id(), &[Arg::Count(u64::from(k) + 1)]));
            let mut e: Vec<Effect> = self.state(child, TaskState::Runnable).into_iter().collect();
            e.extend(self.gauges(child, Doing::NotStarted));
            e.extend(self.gauges(MAIN, Doing::User));
            let ct = &self.tasks[child].o1;
            let args = [
                Arg::Task(tid),
                Arg::Task(id(child)),
                Arg::Ns(ct.sleep_avg_ns),
                Arg::Count(ct.time_slice),
                Arg::Signed(i64::from(ct.prio)),
            ];
            self.op(now, Some(task), OpKind::Syscall, at(text::MAIN, 3), T::CREATE, &args, &e);
        }
        if self.tasks[MAIN].o1.time_slice == 0 {
            self.expire_after_fork(task);
        }
        self.tasks[task].act = if k + 1 < self.cfg.threads { Act::MainCreate(k + 1) } else { Act::MainPause };
    }

    /// sched_fork left main with no slice: "current->time_slice = 1; scheduler_tick()",
    /// which expires it into the active array (interactive) or the expired one.
    fn expire_after_fork(&mut self, task: usize) {
        let tid = id(task);
        self.tasks[MAIN].o1.time_slice = 1;
        let at_ns = self.now;
        let (cpu, cpus) = (self.cpu_of(MAIN), self.cpus.len() as u64);
        let out = self.cpus[cpu].rq.tick(&self.o1, tid, &mut self.tasks[MAIN].o1, at_ns, cpus);
        self.resched(MAIN);
        let mut e = self.gauges(MAIN, Doing::User);
        e.extend(self.expired_clock_sync(cpu));
        let o = &self.tasks[MAIN].o1;
        let args =
            [Arg::Task(tid), Arg::Ns(o.sleep_avg_ns), Arg::Signed(self.o1.current_bonus(o.sleep_avg_ns))];
        let template = match out {
            TickOutcome::ExpiredToActive => T::CREATE_EXPIRE,
            TickOutcome::ExpiredToExpired { .. } => T::CREATE_EXPIRE_EXPIRED,
            _ => unreachable!("a slice of one jiffy ends at this tick"),
        };
        self.op(at_ns, Some(task), OpKind::Compute, at(text::TICK, 0), template, &args, &e);
    }

    fn main_pause(&mut self, task: usize) {
        let tid = id(task);
        self.charge_sys(task, COSTS.step_ns);
        self.iter(T::ITER_MAIN, &[]);
        self.op(
            self.now,
            Some(task),
            OpKind::Sleep,
            at(text::MAIN, 4),
            T::MAIN_PAUSE,
            &[Arg::Task(tid)],
            &[],
        );
        // Only a signal ends pause(): main wakes into the signal code.
        self.tasks[task].act = Act::SigEntry;
        self.sleep(task, self.shape.ch_pause);
    }

    /// tfunc's usleep(20000): nanosleep until a timer a whole number of jiffies away.
    fn thread_start(&mut self, task: usize) {
        let tid = id(task);
        self.charge_sys(task, COSTS.thread_start_ns);
        // sys_nanosleep: timespec_to_jiffies rounds 20 ms up, plus one jiffy.
        let jiffies = (20_000_000u64).div_ceil(self.tick_ns) + 1;
        let wake = (self.now / self.tick_ns + jiffies) * self.tick_ns;
        self.iter(T::ITER_RUN, &[Arg::Task(tid)]);
        let e: Vec<Effect> = self.state(task, self.kernel_state(task)).into_iter().collect();
        let args = [Arg::Task(tid), Arg::Count(jiffies)];
        self.op(self.now, Some(task), OpKind::Sleep, at(text::TFUNC, 0), T::THREAD_START, &args, &e);
        self.timers.insert((wake, task));
        self.tasks[task].timer = Some(wake);
        self.tasks[task].act = if self.cfg.spin { Act::Spin } else { Act::PauseCall };
        self.sleep(task, self.shape.ch_usleep);
        if task as u32 == self.cfg.threads && !self.signal_sent {
            // The last thread is asleep in usleep(): from here on, the threads spin.
            self.phase(T::PHASE_SPIN, &[]);
        }
    }

    /// mode pause: the thread sleeps in pause() (again, after a signal that did not kill it).
    fn pause_call(&mut self, task: usize) {
        let tid = id(task);
        self.charge_sys(task, COSTS.step_ns);
        self.iter(T::ITER_RUN, &[Arg::Task(tid)]);
        let e: Vec<Effect> = self.state(task, self.kernel_state(task)).into_iter().collect();
        self.op(
            self.now,
            Some(task),
            OpKind::Sleep,
            at(text::TFUNC, 1),
            T::THREAD_PAUSE,
            &[Arg::Task(tid)],
            &e,
        );
        self.tasks[task].act = Act::PauseCall;
        self.sleep(task, self.shape.ch_pause);
    }
}
