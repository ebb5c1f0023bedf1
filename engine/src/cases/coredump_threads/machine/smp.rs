//! Two to four CPUs: what runs side by side, the siglock they fight over, and
//! the load balancer that spreads the threads.
//!
//! Model choices, named here and in docs/cases/coredump-threads.md:
//! - Kernel steps (a clone, a wakeup's bookkeeping, a kill, an exit: microseconds
//!   each) run one at a time; while one runs, the other CPUs stand still and their
//!   tasks are charged in the mode they are in. Spinning and looping, the seconds
//!   that matter, run side by side.
//! - Every CPU's timer ticks at the same instant.
//! - CPUs looping in `get_signal_to_deliver` at once start their turns together
//!   at each tick and take siglock in arrival order (a FIFO; 2.6.14's i386
//!   spinlock is a test-and-set byte without a queue: the same for two CPUs, and
//!   for more the same total wait in another order). Each turn holds the lock for
//!   3/5 of `Costs::turn_ns`; handing the lock's cache line over costs nothing extra.
//! - Load balancing: an idle CPU pulls from the busiest run queue at each tick
//!   (`rebalance_tick` with the idle interval, 1 ms, at most one tick) and when it is
//!   about to idle (`idle_balance`); the busiest is the one with most tasks now (not
//!   2.6.14's decayed `cpu_load`), half the difference moves, cache-hotness is not
//!   checked. A busy CPU's own periodic balancing (every 64 ms or more) is omitted:
//!   once every CPU is busy nothing moves, so the split made while threads are
//!   created stays for the whole stall.

use super::*;

/// A closed-form stretch of CPUs taking turns on siglock: who, when, what.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum LoopOp {
    // At one instant a release comes before the acquire it allows.
    Release,
    Recheck,
    Enqueue,
    Acquire,
    Punt,
    Nothing,
}

impl Machine<'_> {
    /// While `task`'s kernel step of `ns` runs, the other CPUs stand still: their
    /// tasks are charged the time in the mode they are shown in.
    pub(super) fn freeze_others(&mut self, task: usize, ns: u64) {
        if self.cpus.len() == 1 {
            return;
        }
        let here = self.cpu_of(task);
        for cpu in 0..self.cpus.len() {
            let Some(t) = self.cpus[cpu].current else { continue };
            if cpu == here || t == task {
                continue;
            }
            let user = self.tasks[t].act == Act::Spin && self.tasks[t].pos_ns < COSTS.loop_ns;
            if user {
                self.add_time(t, ns, 0);
            } else {
                self.add_time(t, 0, ns);
            }
        }
    }

    /// Every CPU in `running` spins or loops: on together to the next event.
    pub(super) fn stretch(&mut self, running: &[usize]) {
        let end = self.horizon();
        let spinners: Vec<usize> =
            running.iter().copied().filter(|&t| self.tasks[t].act == Act::Spin).collect();
        let loopers: Vec<usize> =
            running.iter().copied().filter(|&t| self.tasks[t].act == Act::Loop).collect();
        if loopers.is_empty() {
            if end > self.now {
                self.spin_together(&spinners, end);
            } else {
                self.now += 1;
            }
        } else if spinners.is_empty() {
            self.loop_together(&loopers, end.max(self.now + 1));
        } else {
            self.mixed(&spinners, &loopers, end.max(self.now + 1));
        }
    }

    /// Spinners on several CPUs from now to `end`: one repeat block of their rounds
    /// side by side, each at its own phase.
    fn spin_together(&mut self, tasks: &[usize], end: u64) {
        let (lp, tm) = (COSTS.loop_ns, COSTS.times_ns);
        let period = lp + tm;
        let start = self.now;
        let d = end - start;
        let phases: Vec<u64> = tasks.iter().map(|&t| self.tasks[t].pos_ns).collect();
        let user_before = |x: u64| (x / period) * lp + (x % period).min(lp);
        for (&t, &p) in tasks.iter().zip(&phases) {
            let user = user_before(p + d) - user_before(p);
            self.add_time(t, user, d - user);
            self.tasks[t].pos_ns = (p + d) % period;
        }
        if self.rec_on() {
            // Only the spinners' CPUs (one per CPU): copying every task's would be
            // O(threads) a stretch.
            let cpus: Vec<(usize, u16)> = tasks.iter().map(|&t| (t, self.tasks[t].cpu as u16)).collect();
            let cpu_of = |t: usize| cpus.iter().find(|&&(task, _)| task == t).map_or(0, |&(_, cpu)| cpu);
            let user = |t: usize| TaskState::RunningUser { cpu: cpu_of(t) };
            let kernel = |t: usize| TaskState::RunningKernel { cpu: cpu_of(t) };
            let n = tasks.len() as u64;
            self.b
                .iteration(txt(T::ITER_SPIN_SMP.id(), &[Arg::Count(n), Arg::Count(self.cpus.len() as u64)]));
            let e: Vec<Effect> = tasks
                .iter()
                .zip(&phases)
                // The mode just before the stretch: a switch exactly at its start is the
                // template's first op, so that every iteration starts the same.
                .filter_map(|(&t, &p)| self.state(t, if (1..=lp).contains(&p) { user(t) } else { kernel(t) }))
                .collect();
            self.op(start, None, OpKind::Compute, at(text::TFUNC, 3), T::SPIN_SMP, &[Arg::Count(n)], &e);
            // Each spinner's switches within one period from `from`: (offset, task, to user?).
            let switches = |from: u64| {
                let mut out: Vec<(u64, usize, bool)> = Vec::new();
                for (&t, &p) in tasks.iter().zip(&phases) {
                    let phase = (p + from) % period;
                    out.push(((lp + period - phase) % period, t, false));
                    out.push(((period - phase) % period, t, true));
                }
                out.sort_unstable();
                out
            };
            let effects: Vec<[Effect; 1]> = switches(0)
                .iter()
                .map(|&(_, t, to_user)| {
                    [Effect::SetState { task: id(t), state: if to_user { user(t) } else { kernel(t) } }]
                })
                .collect();
            let k = d / period;
            if k >= 1 {
                let template: Vec<OpSpec<'_>> = switches(0)
                    .iter()
                    .zip(&effects)
                    .map(|(&(at_ns, t, to_user), e)| OpSpec {
                        at_ns,
                        actor: Some(id(t)),
                        kind: if to_user { OpKind::Compute } else { OpKind::Syscall },
                        code: at(text::TFUNC, if to_user { 3 } else { 4 }),
                        text: txt(if to_user { T::SPIN_USER.id() } else { T::SPIN_TIMES.id() }, &[]),
                        effects: e,
                    })
                    .collect();
                self.repeats += 1;
                let label = [Arg::Count(n), Arg::Count(self.cpus.len() as u64)];
                self.b.repeat(k, period, txt(T::ITER_SPIN_SMP.id(), &label), &template);
            }
            let tail_start = start + k * period;
            let tail: Vec<(u64, usize, bool)> =
                switches(k * period).into_iter().filter(|&(o, _, _)| tail_start + o < end).collect();
            if !tail.is_empty() && self.rec_on() {
                let label = [Arg::Count(n), Arg::Count(self.cpus.len() as u64)];
                self.b.iteration(txt(T::ITER_SPIN_SMP.id(), &label));
                for (o, t, to_user) in tail {
                    let state = if to_user { user(t) } else { kernel(t) };
                    let e = [Effect::SetState { task: id(t), state }];
                    let (tt, line, kind) = if to_user {
                        (T::SPIN_USER, 3, OpKind::Compute)
                    } else {
                        (T::SPIN_TIMES, 4, OpKind::Syscall)
                    };
                    self.op(tail_start + o, Some(t), kind, at(text::TFUNC, line), tt, &[], &e);
                }
            }
            self.b.advance_to(end);
        }
        self.now = end;
    }

    /// The ops of CPU `rank`'s acquisition number `k` of a stretch of `c` CPUs
    /// starting at `t0`, in closed form: acquisition k at t0 + rank × hold + k × cycle.
    fn loop_turn(t0: u64, c: u64, rank: u64, k: u64) -> Vec<(u64, LoopOp, u64, u64)> {
        let turn = COSTS.turn_ns;
        let hold = 3 * turn / 5;
        let cycle = (c * hold).max(turn);
        let a = t0 + rank * hold + k * cycle;
        let wait = if k == 0 { rank * hold } else { cycle - turn };
        let mut ops = Vec::with_capacity(6);
        if wait > 0 {
            ops.push((a - wait, LoopOp::Enqueue, rank, 0));
        }
        ops.push((a, LoopOp::Acquire, rank, wait));
        ops.push((a + turn / 5, LoopOp::Punt, rank, 0));
        ops.push((a + 2 * turn / 5, LoopOp::Nothing, rank, 0));
        ops.push((a + hold, LoopOp::Release, rank, 0));
        ops.push((a + 4 * turn / 5, LoopOp::Recheck, rank, 0));
        ops
    }

    /// Two or more CPUs looping in `get_signal_to_deliver` from now until the end of
    /// the turn that reaches `horizon`: their turns interleave on siglock.
    fn loop_together(&mut self, tasks: &[usize], horizon: u64) {
        let turn = COSTS.turn_ns;
        let hold = 3 * turn / 5;
        let c = tasks.len() as u64;
        let cycle = (c * hold).max(turn);
        let t0 = self.now;
        // The last acquisition, `last`, ends at t0 + (c−1)·hold + last·cycle + turn ≥ horizon.
        let reach = horizon.saturating_sub(t0 + (c - 1) * hold + turn);
        let last = reach.div_ceil(cycle).max(1);
        let end = t0 + (c - 1) * hold + last * cycle + turn;
        // Every CPU takes the lock last + 1 times; the first round waits rank × hold,
        // the others cycle − turn each.
        let first_wait: u64 = (0..c).map(|r| r * hold).sum();
        let steady_wait = cycle - turn;
        let turns = last + 1;
        for &t in tasks {
            self.add_time(t, 0, end - t0);
        }
        self.out.group_stop_loops += c * turns;
        self.out.siglock_acquisitions += c * turns;
        self.out.siglock_contended += (c - 1) + if steady_wait > 0 { c * last } else { 0 };
        self.out.siglock_wait_ns += first_wait + c * last * steady_wait;
        self.out.siglock_wait_max_ns = self.out.siglock_wait_max_ns.max((c - 1) * hold).max(steady_wait);
        if self.rec_on() {
            let label = [Arg::Count(c)];
            self.b.iteration(txt(T::ITER_LOOP_SMP.id(), &label));
            let e: Vec<Effect> = tasks.iter().filter_map(|&t| self.state(t, self.kernel_state(t))).collect();
            let args = [Arg::Count(c), Arg::Ns(hold), Arg::Ns(turn), Arg::Ns(steady_wait)];
            self.op(t0, None, OpKind::Compute, at(text::GSTD, 1), T::LOOP_SMP, &args, &e);
            let window = |from: u64, to: u64, ks: &[u64]| {
                let mut ops: Vec<(u64, LoopOp, u64, u64)> = Vec::new();
                for &k in ks {
                    for r in 0..c {
                        ops.extend(
                            Self::loop_turn(t0, c, r, k).into_iter().filter(|o| o.0 >= from && o.0 < to),
                        );
                    }
                }
                ops.sort_unstable_by_key(|o| (o.0, o.1, o.2));
                ops
            };
            // The first cycle on its own (its waits differ), then the steady cycles as
            // one repeat, then the last turns with no new request.
            let lead_in = window(t0, t0 + cycle, &[0, 1]);
            self.loop_ops(tasks, &lead_in);
            let steady = last - 1;
            if steady >= 1 && self.rec_on() {
                let one = window(t0 + cycle, t0 + 2 * cycle, &[0, 1, 2]);
                let effects: Vec<Vec<Effect>> = one.iter().map(|o| self.loop_effects(tasks, o)).collect();
                let template: Vec<OpSpec<'_>> = one
                    .iter()
                    .zip(&effects)
                    .map(|(o, e)| self.loop_spec(tasks, o, o.0 - (t0 + cycle), e))
                    .collect();
                self.repeats += 1;
                self.b.advance_to(t0 + cycle);
                self.b.repeat(steady, cycle, txt(T::ITER_LOOP_SMP.id(), &label), &template);
            }
            if self.rec_on() {
                let from = t0 + last * cycle;
                let lead_out = window(from, end, &[last - 1, last]);
                self.b.iteration(txt(T::ITER_LOOP_SMP.id(), &label));
                self.loop_ops(tasks, &lead_out);
                self.b.advance_to(end);
            }
        }
        self.now = end;
    }

    fn loop_effects(&self, tasks: &[usize], op: &(u64, LoopOp, u64, u64)) -> Vec<Effect> {
        let task = id(tasks[op.2 as usize]);
        let lock = self.shape.siglock;
        match op.1 {
            LoopOp::Enqueue => vec![Effect::Enqueue { lock, task, mode: LockMode::Write }],
            LoopOp::Acquire => vec![Effect::Acquire { lock, task, mode: LockMode::Write, waited_ns: op.3 }],
            LoopOp::Release => vec![Effect::Release { lock, task }],
            LoopOp::Recheck => vec![Effect::Count { counter: self.shape.c_loops, delta: 1 }],
            LoopOp::Punt | LoopOp::Nothing => Vec::new(),
        }
    }

    fn loop_spec<'a>(
        &self,
        tasks: &[usize],
        op: &(u64, LoopOp, u64, u64),
        at_ns: u64,
        effects: &'a [Effect],
    ) -> OpSpec<'a> {
        let (kind, code, t) = match op.1 {
            LoopOp::Enqueue => (OpKind::LockSpin, at(text::SPINLOCK, 1), T::LOOP_SPINWAIT),
            LoopOp::Acquire if op.3 > 0 => (OpKind::LockGranted, at(text::GSTD, 1), T::LOOP_LOCK),
            LoopOp::Acquire => (OpKind::LockFast, at(text::GSTD, 1), T::LOOP_LOCK),
            LoopOp::Punt => (OpKind::Compute, at(text::HGS, 4), T::LOOP_PUNT),
            LoopOp::Nothing => (OpKind::Compute, at(text::GSTD, 6), T::LOOP_NOTHING),
            LoopOp::Release => (OpKind::LockRelease, at(text::GSTD, 10), T::LOOP_UNLOCK),
            LoopOp::Recheck => (OpKind::Compute, at(text::ENTRY, 6), T::LOOP_RECHECK),
        };
        OpSpec { at_ns, actor: Some(id(tasks[op.2 as usize])), kind, code, text: txt(t.id(), &[]), effects }
    }

    /// Records loop ops one by one in the open iteration.
    fn loop_ops(&mut self, tasks: &[usize], ops: &[(u64, LoopOp, u64, u64)]) {
        for o in ops {
            let e = self.loop_effects(tasks, o);
            let spec = self.loop_spec(tasks, o, o.0, &e);
            if self.recording {
                self.b.op(spec);
            }
        }
    }

    /// Spinners and looping threads on different CPUs at once: the loopers take their
    /// turns, the spinners are shown and charged in the mode they are in (model choice;
    /// the shipped variants never get here: after the signal every thread has
    /// TIF_SIGPENDING and loops, and before it nobody loops).
    fn mixed(&mut self, spinners: &[usize], loopers: &[usize], horizon: u64) {
        self.out.mixed_stretches += 1;
        let start = self.now;
        if self.rec_on() {
            self.iter(T::ITER_SCHEDULE, &[]);
            let args = [Arg::Count(spinners.len() as u64), Arg::Count(loopers.len() as u64)];
            self.op(start, None, OpKind::Compute, at(text::GSTD, 1), T::MIXED, &args, &[]);
        }
        if let [one] = loopers {
            self.signal_loop(*one, horizon);
        } else {
            self.loop_together(loopers, horizon);
        }
        let d = self.now - start;
        for &t in spinners {
            if self.tasks[t].pos_ns < COSTS.loop_ns {
                self.add_time(t, d, 0);
            } else {
                self.add_time(t, 0, d);
            }
        }
    }

    /// `rebalance_tick` on every idle CPU after a tick.
    pub(super) fn rebalance_idle(&mut self) {
        for cpu in 0..self.cpus.len() {
            if self.cpus.len() > 1 && self.cpus[cpu].current.is_none() {
                self.balance(cpu);
            }
        }
    }

    /// `load_balance` for `this` CPU: pull half the difference from the busiest run queue.
    pub(super) fn balance(&mut self, this: usize) {
        let n = self.cpus.len();
        if n == 1 {
            return;
        }
        let loads: Vec<usize> = self.cpus.iter().map(|cpu| cpu.rq.nr_running()).collect();
        let Some((busiest, count)) = crate::kernel::sched::o1::balance_plan(&loads, this) else {
            return;
        };
        let theirs = loads[busiest];
        for _ in 0..count {
            let running = self.cpus[busiest].current.map(id);
            let Some((from, task)) = self.cpus[busiest].rq.pull_candidate(running, |_| true) else {
                return;
            };
            let task = task.0 as usize;
            self.cpus[busiest].rq.remove(id(task));
            self.tasks[task].cpu = this;
            self.seq += 1;
            self.tasks[task].seq = self.seq;
            let prio = self.tasks[task].o1.prio;
            self.cpus[this].rq.enqueue(from, id(task), prio);
            self.out.migrations += 1;
            match self.cpus[this].current {
                Some(c) if !wakeup_preempts(prio, self.tasks[c].o1.prio) => {}
                _ => self.cpus[this].need_resched = true,
            }
            if self.rec_on() {
                self.iter(T::ITER_SCHEDULE, &[]);
                let e = self.gauges(task, self.doing(task));
                let array = if from == Array::Active { "active" } else { "expired" };
                let args = [
                    Arg::Count(this as u64),
                    Arg::Task(id(task)),
                    Arg::Count(busiest as u64),
                    Arg::Count(theirs as u64),
                    Arg::Word(array),
                ];
                self.op(self.now, None, OpKind::Compute, at(text::BALANCE, 3), T::MIGRATE, &args, &e);
            }
        }
    }
}
