//! Letting go: `up_read`, `up_write`, `rwsem_wake` and what a release does to a spinner.

use super::text::{self, at, T};
use super::{Prog, Role, Sim, FAST_LOCK_NS};
use crate::kernel::locks::rwsem::{self, Wake};
use crate::run::lock::LockMode;
use crate::run::narration::Arg;
use crate::run::trace::OpKind;
use crate::run::world::{Effect, TaskId, TaskState};

impl Sim<'_> {
    // ---- releasing -------------------------------------------------------------

    pub(super) fn release(&mut self, cpu: u16, task: TaskId, now: u64) {
        let lock = self.lock;
        let (l, t) = (Arg::Lock(lock), Arg::Task(task));
        let effects = [
            Effect::Release { lock, task },
            Effect::SetState { task, state: TaskState::RunningUser { cpu } },
        ];
        let mut after = self.builder.world().lock(lock).clone();
        after.release(task, now);
        let reader = self.tasks[task.0 as usize].role == Role::Reader;
        if reader && after.readers() == 0 {
            // The last reader out clears RWSEM_NONSPINNABLE.
            self.extra.nonspinnable = false;
        }
        let wakes = if reader { rwsem::up_read_wakes(&after) } else { rwsem::up_write_wakes(&after) };
        let function = if reader { text::UP_READ } else { text::UP_WRITE };
        if wakes {
            let template = if reader { T::UP_READ_WAKE } else { T::UP_WRITE_WAKE };
            self.op(now, Some(task), OpKind::LockRelease, at(function, 3), template, &[t, l], &effects);
        } else if reader {
            let left = Arg::Count(after.readers() as u64);
            let args = [t, l, left];
            self.op(now, Some(task), OpKind::LockRelease, at(function, 1), T::UP_READ, &args, &effects);
        } else {
            self.op(now, Some(task), OpKind::LockRelease, at(function, 1), T::UP_WRITE, &[t, l], &effects);
        }
        // A spinner on another CPU sees the count drop before any woken task runs.
        self.spinner_check(now);
        if wakes {
            self.wake(task, now, true);
        }
        self.start_think(cpu, task, now);
    }

    pub(super) fn start_think(&mut self, cpu: u16, task: TaskId, now: u64) {
        let think = self.think_ns(task);
        self.task(task).prog = Prog::Think;
        self.task(task).burst_end_ns = now + think;
        let args = [Arg::Task(task), Arg::Ns(think), Arg::Lock(self.lock)];
        let code = at(self.loop_fn(task), 1);
        self.op(
            now,
            Some(task),
            OpKind::Compute,
            code,
            T::THINK,
            &args,
            &[Effect::SetState { task, state: TaskState::RunningUser { cpu } }],
        );
    }

    /// After a release: a spinning writer takes a free lock at once (unless handed
    /// off), or switches to spinning on the readers now holding it.
    pub(super) fn spinner_check(&mut self, now: u64) {
        let Some(spinner) = self.spinner() else { return };
        let Prog::Spin { since_ns, deadline_ns } = self.tasks[spinner.0 as usize].prog else { return };
        let cpu = self.state(spinner).cpu().expect("a spinner is on a CPU");
        let lock = self.lock;
        let state = self.builder.world().lock(lock);
        if state.is_free() && !state.handoff {
            let waited = now - since_ns;
            self.writer_wait_max_ns = self.writer_wait_max_ns.max(waited);
            let effects = [
                Effect::Acquire { lock, task: spinner, mode: LockMode::Write, waited_ns: waited },
                Effect::Count { counter: self.counters.spin_acquisitions, delta: 1 },
            ];
            let args = [Arg::Task(spinner), Arg::Lock(lock), Arg::Ns(waited)];
            self.op(
                now,
                Some(spinner),
                OpKind::LockGranted,
                at(text::DOWN_WRITE_SLOW, 2),
                T::WRITE_SPIN_GOT,
                &args,
                &effects,
            );
            self.extra.reader_owned_hint = false;
            self.start_hold(cpu, spinner, now, FAST_LOCK_NS);
        } else if let Some(owner) = state.writer() {
            // Another writer got it first: keep spinning while it runs, with no reader deadline.
            if self.state(owner).cpu().is_some() {
                self.task(spinner).prog = Prog::Spin { since_ns, deadline_ns: None };
                self.task(spinner).burst_end_ns = u64::MAX;
            } else {
                self.stop_spinner_owner_off(now);
            }
        } else if state.readers() > 0 && deadline_ns.is_none() {
            let limit = rwsem::reader_spin_threshold_ns(state.readers());
            self.task(spinner).prog = Prog::Spin { since_ns, deadline_ns: Some(now + limit) };
            self.task(spinner).burst_end_ns = now + limit;
        } else if state.handoff {
            let position = self.queue_position() + 1;
            let args = [Arg::Task(spinner), Arg::Lock(lock), Arg::Count(position)];
            self.spin_to_sleep(cpu, spinner, now, T::READ_QUEUE_HANDOFF, &args[..]);
        }
    }

    /// `rwsem_wake` → `rwsem_mark_wake(any)` on behalf of `waker`.
    pub(super) fn wake(&mut self, waker: TaskId, now: u64, any: bool) {
        let lock = self.lock;
        let state = self.builder.world().lock(lock);
        match rwsem::mark_wake(state, any) {
            Wake::Nobody => {}
            Wake::Writer(writer) => {
                let args = [Arg::Task(waker), Arg::Task(writer)];
                if matches!(self.state(writer), TaskState::BlockedOnLock { .. }) {
                    self.op(
                        now,
                        Some(waker),
                        OpKind::Wake,
                        at(text::MARK_WAKE, 3),
                        T::WAKE_WRITER,
                        &args,
                        &[],
                    );
                    self.make_runnable(writer, now);
                } else {
                    self.op(
                        now,
                        Some(waker),
                        OpKind::Wake,
                        at(text::MARK_WAKE, 3),
                        T::WAKE_WRITER_AGAIN,
                        &args,
                        &[],
                    );
                }
            }
            Wake::Readers(readers) => {
                let mut effects: Vec<Effect> = readers
                    .iter()
                    .map(|&reader| {
                        let since = state.waiters.iter().find(|w| w.task == reader).expect("queued").since_ns;
                        Effect::Acquire { lock, task: reader, mode: LockMode::Read, waited_ns: now - since }
                    })
                    .collect();
                let waits: Vec<(TaskId, u64)> = effects
                    .iter()
                    .map(|effect| match effect {
                        Effect::Acquire { task, waited_ns, .. } => (*task, *waited_ns),
                        _ => unreachable!(),
                    })
                    .collect();
                if state.handoff {
                    effects.push(Effect::SetHandoff { lock, on: false });
                }
                effects.push(Effect::Count { counter: self.counters.reader_batches, delta: 1 });
                effects.push(Effect::Count {
                    counter: self.counters.batched_readers,
                    delta: readers.len() as u64,
                });
                let args = [Arg::Task(waker), Arg::Lock(lock), Arg::Count(readers.len() as u64)];
                self.op(
                    now,
                    Some(waker),
                    OpKind::Wake,
                    at(text::MARK_WAKE, 7),
                    T::WAKE_READERS,
                    &args,
                    &effects,
                );
                self.extra.reader_owned_hint = true;
                for (reader, waited) in waits {
                    let hold = self.hold_ns(reader);
                    let entry = self.task(reader);
                    entry.prog = Prog::Hold;
                    entry.remaining_ns = hold;
                    entry.granted_wait_ns = waited;
                    self.make_runnable(reader, now);
                }
            }
        }
    }
}
