//! The seed's program as step machines: each step of `main` and of a thread costs
//! time, then takes effect (creation, the loop, pause, the signal code's entry and exit).

use super::*;

impl Machine<'_> {
    /// A discrete step of `task`: costs time, then takes effect.
    pub(super) fn step(&mut self, task: usize, act: Act) {
        let tid = id(task);
        let now = self.now;
        match act {
            Act::MainSetup => {
                let cost = COSTS.main_setup_ns;
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
                self.charge_sys(task, cost);
                self.tasks[task].act = Act::MainCreate(0);
                self.exact_wake = Some((self.now + COSTS.system_ns, task));
                self.sleep(task, self.shape.ch_system);
            }
            Act::MainCreate(k) => {
                let cost = COSTS.clone_ns;
                self.charge_sys(task, cost);
                let child = k as usize + 1;
                // sched_fork: sched_balance_self(cpu, SD_BALANCE_FORK) finds no domain with
                // that flag on a plain SMP machine in 2.6.14: the child starts on main's CPU.
                self.tasks[child].cpu = self.cpu_of(MAIN);
                // sched_fork / wake_up_new_task (2.6.14): CHILD_PENALTY of the parent's
                // bonus, half the parent's remaining slice, parent keeps whole bonus steps.
                let parent_bonus = self.o1.current_bonus(self.tasks[MAIN].o1.sleep_avg_ns);
                let mut c = O1Task::forked(&self.o1, self.cfg.nice, self.now, parent_bonus);
                c.prio = self.o1.effective_prio(c.static_prio, c.sleep_avg_ns);
                let parent_slice = self.tasks[MAIN].o1.time_slice;
                c.time_slice = (parent_slice + 1) >> 1;
                self.tasks[MAIN].o1.time_slice = parent_slice >> 1;
                self.tasks[MAIN].o1.sleep_avg_ns =
                    parent_bonus as u64 * self.o1.max_sleep_avg() / 10 * self.o1.tick_ns();
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
                    // sched_fork: "current->time_slice = 1; scheduler_tick()".
                    self.tasks[MAIN].o1.time_slice = 1;
                    let at_ns = self.now;
                    let (cpu, cpus) = (self.cpu_of(MAIN), self.cpus.len() as u64);
                    let out = self.cpus[cpu].rq.tick(&self.o1, tid, &mut self.tasks[MAIN].o1, at_ns, cpus);
                    debug_assert!(matches!(
                        out,
                        TickOutcome::ExpiredToActive | TickOutcome::ExpiredToExpired { .. }
                    ));
                    self.resched(MAIN);
                    let e = self.gauges(MAIN, Doing::User);
                    self.op(
                        at_ns,
                        Some(task),
                        OpKind::Compute,
                        at(text::TICK, 0),
                        T::CREATE_EXPIRE,
                        &[Arg::Task(tid)],
                        &e,
                    );
                }
                self.tasks[task].act =
                    if k + 1 < self.cfg.threads { Act::MainCreate(k + 1) } else { Act::MainPause };
            }
            Act::MainPause => {
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
                self.tasks[task].act = Act::MainSignal;
                self.sleep(task, self.shape.ch_pause);
            }
            Act::ThreadStart => {
                self.charge_sys(task, COSTS.thread_start_ns);
                // sys_nanosleep: timespec_to_jiffies rounds 20 ms up, plus one jiffy.
                let jiffies = (20_000_000u64).div_ceil(self.tick_ns) + 1;
                let wake = (self.now / self.tick_ns + jiffies) * self.tick_ns;
                self.iter(T::ITER_RUN, &[Arg::Task(tid)]);
                let e: Vec<Effect> = self.state(task, self.kernel_state(task)).into_iter().collect();
                self.op(
                    self.now,
                    Some(task),
                    OpKind::Sleep,
                    at(text::TFUNC, 0),
                    T::THREAD_START,
                    &[Arg::Task(tid), Arg::Count(jiffies)],
                    &e,
                );
                self.timers.insert((wake, task));
                self.tasks[task].timer = Some(wake);
                self.tasks[task].act = if self.cfg.spin { Act::Spin } else { Act::PauseCall };
                self.sleep(task, self.shape.ch_usleep);
                if task as u32 == self.cfg.threads && !self.signal_sent {
                    // The last thread is asleep in usleep(): from here on, the threads spin.
                    self.phase(T::PHASE_SPIN, &[]);
                }
            }
            Act::PauseCall => {
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
            Act::SigEntry => self.sig_entry(task),
            Act::MainSignal => {
                self.charge_sys(task, COSTS.step_ns);
                self.out.siglock_acquisitions += 1;
                if self.tasks[task].sigkill {
                    // A plain fatal signal (or not dumpable): SIGKILL is pending.
                    self.tasks[task].act = Act::KillExit;
                    return;
                }
                self.group_exit_task = None;
                self.shared_pending = false;
                self.iter(T::ITER_RUN, &[Arg::Task(tid)]);
                let mut e = self.siglock_section(tid).to_vec();
                e.push(Effect::Decrease { counter: self.shape.c_pending, delta: 1 });
                e.extend(self.state(task, self.kernel_state(task)));
                e.extend(self.gauges(task, Doing::Dumper));
                self.op(
                    now,
                    Some(task),
                    OpKind::Signal,
                    at(text::HGS, 1),
                    T::DEQUEUE_MAIN,
                    &[Arg::Task(tid), Arg::Word(self.cfg.signal)],
                    &e,
                );
                self.tasks[task].act = Act::DumpLock;
            }
            Act::DumpLock => {
                self.charge_sys(task, COSTS.step_ns);
                self.iter(T::ITER_RUN, &[Arg::Task(tid)]);
                let e = [Effect::Acquire {
                    lock: self.shape.mmap_sem,
                    task: tid,
                    mode: LockMode::Write,
                    waited_ns: 0,
                }];
                self.op(
                    now,
                    Some(task),
                    OpKind::LockFast,
                    at(text::COREDUMP, 0),
                    T::COREDUMP_LOCK,
                    &[Arg::Task(tid)],
                    &e,
                );
                if !self.cfg.dumpable {
                    let mut e = vec![
                        Effect::Release { lock: self.shape.mmap_sem, task: tid },
                        Effect::Count { counter: self.shape.c_exit, delta: 1 },
                    ];
                    if self.group_stop_count > 0 {
                        e.push(Effect::Decrease { counter: self.shape.c_stop, delta: self.group_stop_count });
                    }
                    self.op(
                        self.now,
                        Some(task),
                        OpKind::Signal,
                        at(text::COREDUMP, 1),
                        T::NOT_DUMPABLE,
                        &[],
                        &e,
                    );
                    self.zap_others(task, true);
                    self.tasks[task].act = Act::KillExit;
                    self.tasks[task].sigkill = true;
                } else {
                    self.tasks[task].act = Act::DumpSetExit;
                }
            }
            Act::DumpSetExit => {
                self.charge_sys(task, COSTS.step_ns);
                self.out.siglock_acquisitions += 1;
                self.group_exit = true;
                self.iter(T::ITER_RUN, &[Arg::Task(tid)]);
                let mut e = vec![
                    Effect::Acquire {
                        lock: self.shape.siglock,
                        task: tid,
                        mode: LockMode::Write,
                        waited_ns: 0,
                    },
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
                self.op(
                    now,
                    Some(task),
                    OpKind::Compute,
                    at(text::COREDUMP, 3),
                    template,
                    &[Arg::Count(self.group_stop_count)],
                    &e,
                );
                if self.cfg.variant == Variant::V2_6_18 {
                    self.zap_others(task, false);
                }
                self.tasks[task].act = Act::DumpWait;
            }
            Act::DumpWait => {
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
                    let args =
                        [Arg::Task(tid), Arg::Signed(i64::from(self.tasks[task].o1.prio)), Arg::Count(ahead)];
                    self.op(now, Some(task), OpKind::Milestone, at(text::CDWAIT, 1), T::YIELD, &args, &e);
                    self.phase(T::PHASE_STALL, &[]);
                    self.resched(task);
                } else {
                    let e = [Effect::Count { counter: self.shape.c_waiters, delta: 1 }];
                    self.op(now, Some(task), OpKind::Compute, at(text::CDWAIT, 0), T::NO_YIELD, &[], &e);
                }
                self.tasks[task].act = Act::Zap;
            }
            Act::Zap => {
                self.phase(T::PHASE_ZAP, &[]);
                self.out.zap_ns = Some(now);
                let others = (1..self.tasks.len()).filter(|&t| self.live(t)).count() as u64;
                if self.cfg.variant != Variant::V2_6_18 {
                    self.zap_others(task, false);
                }
                self.core_waiters += others;
                let cost = COSTS.zap_per_thread_ns * others.max(1);
                self.charge_sys(task, cost);
                self.iter(T::ITER_RUN, &[Arg::Task(tid)]);
                // --core_waiters: main's own count.
                self.core_waiters -= 1;
                let mut e = vec![Effect::Count { counter: self.shape.c_waiters, delta: others }];
                e.push(Effect::Decrease { counter: self.shape.c_waiters, delta: 1 });
                e.push(Effect::Release { lock: self.shape.mmap_sem, task: tid });
                let template = if self.cfg.variant == Variant::V2_6_18 { T::ZAP_18 } else { T::ZAP };
                self.op(
                    self.now,
                    Some(task),
                    OpKind::Signal,
                    at(text::CDWAIT, 2),
                    template,
                    &[Arg::Task(tid), Arg::Count(others), Arg::Count(self.core_waiters + 1)],
                    &e,
                );
                self.tasks[task].act = Act::DumpResume;
                if self.core_waiters > 0 {
                    self.sleep(task, self.shape.ch_startup);
                }
            }
            Act::DumpResume => {
                self.charge_sys(task, COSTS.step_ns);
                self.iter(T::ITER_RUN, &[Arg::Task(tid)]);
                let mut e = Vec::new();
                if self.group_stop_count > 0 {
                    e.push(Effect::Decrease { counter: self.shape.c_stop, delta: self.group_stop_count });
                    self.group_stop_count = 0;
                }
                let limit = if self.cfg.core_unlimited { "unlimited" } else { "0" };
                self.op(
                    now,
                    Some(task),
                    OpKind::Compute,
                    at(text::COREDUMP, 7),
                    T::DUMPER_RESUMES,
                    &[Arg::Task(tid), Arg::Word(limit)],
                    &e,
                );
                if self.cfg.core_unlimited {
                    let pages =
                        COSTS.core_pages_base + COSTS.core_pages_per_thread * u64::from(self.cfg.threads);
                    let cost = pages * COSTS.core_page_ns;
                    self.charge_sys(task, cost);
                    self.op(
                        self.now,
                        Some(task),
                        OpKind::Compute,
                        at(text::COREDUMP, 8),
                        T::CORE_WRITE,
                        &[Arg::Task(tid), Arg::Count(pages), Arg::Ns(cost)],
                        &[],
                    );
                } else {
                    self.op(
                        self.now,
                        Some(task),
                        OpKind::Compute,
                        at(text::COREDUMP, 9),
                        T::CORE_SKIP,
                        &[],
                        &[],
                    );
                }
                // complete_all(core_done)
                let waiting: Vec<usize> = (1..self.tasks.len())
                    .filter(|&t| self.tasks[t].sleeping && self.tasks[t].act == Act::Exiting)
                    .collect();
                for t in waiting {
                    self.wake(t, self.now, false);
                }
                self.tasks[task].act = Act::Exiting;
            }
            Act::KillExit => {
                self.charge_sys(task, COSTS.step_ns);
                self.out.siglock_acquisitions += 1;
                self.iter(T::ITER_RUN, &[Arg::Task(tid)]);
                let mut e = self.siglock_section(tid).to_vec();
                e.extend(self.state(task, self.kernel_state(task)));
                self.tasks[task].act = Act::Exiting;
                e.extend(self.gauges(task, Doing::Exiting));
                self.op(
                    now,
                    Some(task),
                    OpKind::Signal,
                    at(text::GSTD, 8),
                    T::KILL_DEQUEUE,
                    &[Arg::Task(tid)],
                    &e,
                );
                if task != MAIN && self.core_waiters > 0 {
                    self.core_waiters -= 1;
                    let e = [Effect::Decrease { counter: self.shape.c_waiters, delta: 1 }];
                    if self.core_waiters == 0 {
                        self.op(
                            self.now,
                            Some(task),
                            OpKind::Wake,
                            at(text::EXIT_MM, 1),
                            T::EXIT_MM_LAST,
                            &[Arg::Task(tid)],
                            &e,
                        );
                        self.wake(MAIN, self.now, false);
                    } else {
                        self.op(
                            self.now,
                            Some(task),
                            OpKind::Sleep,
                            at(text::EXIT_MM, 2),
                            T::EXIT_MM_WAIT,
                            &[Arg::Task(tid), Arg::Count(self.core_waiters)],
                            &e,
                        );
                    }
                    self.sleep(task, self.shape.ch_core);
                }
            }
            Act::Exiting => {
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
                    self.op(
                        self.now,
                        Some(task),
                        OpKind::Milestone,
                        at(text::EXIT_MM, 4),
                        T::LAST_EXIT,
                        &[Arg::Task(tid), Arg::Ns(after), Arg::Ns(self.now)],
                        &e,
                    );
                } else {
                    self.op(
                        self.now,
                        Some(task),
                        OpKind::Exit,
                        at(text::EXIT_MM, 4),
                        T::EXIT,
                        &[Arg::Task(tid)],
                        &e,
                    );
                }
            }
            Act::Spin | Act::Loop | Act::Gone => unreachable!("handled by run_task"),
        }
    }
}
