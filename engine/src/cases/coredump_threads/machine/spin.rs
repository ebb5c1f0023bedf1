//! A thread's stretch of spinning in user mode or looping in the kernel between two
//! scheduler decisions, in closed form: one repeat block, one round per iteration.

use super::*;

impl Machine<'_> {
    /// Spins in the user loop from now to `end`.
    pub(super) fn spin(&mut self, task: usize, end: u64) {
        let (lp, tm) = (COSTS.loop_ns, COSTS.times_ns);
        let period = lp + tm;
        let user_before = |x: u64| (x / period) * lp + (x % period).min(lp);
        let p = self.tasks[task].pos_ns;
        let d = end - self.now;
        let user = user_before(p + d) - user_before(p);
        self.add_time(task, user, d - user);
        self.tasks[task].pos_ns = (p + d) % period;
        if self.rec_on() {
            let start = self.now;
            let user_state = TaskState::RunningUser { cpu: self.cpu_of(task) as u16 };
            let kernel_state = self.kernel_state(task);
            self.b.iteration(txt(T::ITER_SPIN.id(), &[Arg::Task(id(task))]));
            let first = if p < lp { user_state } else { kernel_state };
            let e: Vec<Effect> = self.state(task, first).into_iter().collect();
            let line = if p < lp { 3 } else { 4 };
            self.op(
                start,
                Some(task),
                OpKind::Compute,
                at(text::TFUNC, line),
                T::SPIN,
                &[Arg::Task(id(task)), Arg::Ns(lp), Arg::Ns(tm)],
                &e,
            );
            let boundary = start + (period - p);
            if p < lp && start + (lp - p) < end {
                let e: Vec<Effect> = vec![Effect::SetState { task: id(task), state: kernel_state }];
                self.op(
                    start + (lp - p),
                    Some(task),
                    OpKind::Syscall,
                    at(text::TFUNC, 4),
                    T::SPIN_TIMES,
                    &[],
                    &e,
                );
            }
            if boundary < end {
                let k = (end - boundary) / period;
                if k >= 1 {
                    self.b.advance_to(boundary);
                    let e_user = [Effect::SetState { task: id(task), state: user_state }];
                    let e_kernel = [Effect::SetState { task: id(task), state: kernel_state }];
                    let template = [
                        OpSpec {
                            at_ns: 0,
                            actor: Some(id(task)),
                            kind: OpKind::Compute,
                            code: at(text::TFUNC, 3),
                            text: txt(T::SPIN_USER.id(), &[]),
                            effects: &e_user,
                        },
                        OpSpec {
                            at_ns: lp,
                            actor: Some(id(task)),
                            kind: OpKind::Syscall,
                            code: at(text::TFUNC, 4),
                            text: txt(T::SPIN_TIMES.id(), &[]),
                            effects: &e_kernel,
                        },
                    ];
                    self.repeats += 1;
                    self.b.repeat(k, period, txt(T::ITER_SPIN.id(), &[Arg::Task(id(task))]), &template);
                }
                let c = boundary + k * period;
                if c < end && self.rec_on() {
                    self.b.iteration(txt(T::ITER_SPIN.id(), &[Arg::Task(id(task))]));
                    let e = [Effect::SetState { task: id(task), state: user_state }];
                    self.op(c, Some(task), OpKind::Compute, at(text::TFUNC, 3), T::SPIN_USER, &[], &e);
                    if c + lp < end {
                        let e = [Effect::SetState { task: id(task), state: kernel_state }];
                        self.op(
                            c + lp,
                            Some(task),
                            OpKind::Syscall,
                            at(text::TFUNC, 4),
                            T::SPIN_TIMES,
                            &[],
                            &e,
                        );
                    }
                }
            }
            self.b.advance_to(end);
        }
        self.now = end;
    }

    /// Loops in get_signal_to_deliver from now until the first turn boundary at or after `horizon`.
    pub(super) fn signal_loop(&mut self, task: usize, horizon: u64) {
        let turn = COSTS.turn_ns;
        let turns = (horizon - self.now).div_ceil(turn).max(1);
        let end = self.now + turns * turn;
        self.add_time(task, 0, turns * turn);
        self.out.group_stop_loops += turns;
        self.out.siglock_acquisitions += turns;
        if self.rec_on() {
            let start = self.now;
            self.b.iteration(txt(T::ITER_LOOP.id(), &[Arg::Task(id(task))]));
            let e: Vec<Effect> = self.state(task, self.kernel_state(task)).into_iter().collect();
            self.op(
                start,
                Some(task),
                OpKind::Compute,
                at(text::GSTD, 3),
                T::LOOP,
                &[Arg::Task(id(task)), Arg::Count(self.group_stop_count), Arg::Ns(turn)],
                &e,
            );
            let tid = id(task);
            let acquire = [Effect::Acquire {
                lock: self.shape.siglock,
                task: tid,
                mode: LockMode::Write,
                waited_ns: 0,
            }];
            let release = [Effect::Release { lock: self.shape.siglock, task: tid }];
            let count = [Effect::Count { counter: self.shape.c_loops, delta: 1 }];
            let template = [
                OpSpec {
                    at_ns: 0,
                    actor: Some(tid),
                    kind: OpKind::LockFast,
                    code: at(text::GSTD, 1),
                    text: txt(T::LOOP_LOCK.id(), &[]),
                    effects: &acquire,
                },
                OpSpec {
                    at_ns: turn / 5,
                    actor: Some(tid),
                    kind: OpKind::Compute,
                    code: at(text::HGS, 4),
                    text: txt(T::LOOP_PUNT.id(), &[]),
                    effects: &[],
                },
                OpSpec {
                    at_ns: 2 * turn / 5,
                    actor: Some(tid),
                    kind: OpKind::Compute,
                    code: at(text::GSTD, 6),
                    text: txt(T::LOOP_NOTHING.id(), &[]),
                    effects: &[],
                },
                OpSpec {
                    at_ns: 3 * turn / 5,
                    actor: Some(tid),
                    kind: OpKind::LockRelease,
                    code: at(text::GSTD, 10),
                    text: txt(T::LOOP_UNLOCK.id(), &[]),
                    effects: &release,
                },
                OpSpec {
                    at_ns: 4 * turn / 5,
                    actor: Some(tid),
                    kind: OpKind::Compute,
                    code: at(text::ENTRY, 6),
                    text: txt(T::LOOP_RECHECK.id(), &[]),
                    effects: &count,
                },
            ];
            self.repeats += 1;
            self.b.repeat(turns, turn, txt(T::ITER_LOOP.id(), &[Arg::Task(id(task))]), &template);
            self.b.advance_to(end);
        }
        self.now = end;
    }
}
