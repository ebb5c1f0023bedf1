//! Lock operations: each decision is the kernel library's (`kernel::locks`),
//! recorded as effects on the world's lock state, which asserts it is possible.
//!
//! Model choices, said in the narration: a mutex contender never spins (the
//! library is asked with the owner off-CPU, which is exact on one CPU), and a
//! rwsem writer never spins (as with `CONFIG_RWSEM_SPIN_ON_OWNER` off).

use super::{Next, Sim, Why};
use crate::cases::the_lab::text::{self, at, T};
use crate::kernel::locks::mutex::{self, MutexDecision, MutexUnlock};
use crate::kernel::locks::rwsem::{self, ReadDecision, RetryDecision, RwsemPolicy, Wake, WriteDecision};
use crate::run::lock::{find_deadlock, LockKind, LockMode, LockState};
use crate::run::narration::Arg;
use crate::run::trace::{OpKind, Outcome};
use crate::run::world::{Effect, LockId, TaskId, TaskState};

/// The path an acquisition took, for its cost (`lockcost`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Path {
    /// The lock was free and nobody waited.
    Fast,
    /// A steal, a queued writer's first try, a woken waiter's retry.
    Slow,
}

/// The rwsem as the Lab runs it: v6.13's rules, writers sleeping rather than spinning.
const RWSEM_POLICY: RwsemPolicy = RwsemPolicy { writer_spin: false, handoff: true };

impl Sim<'_> {
    fn lock_state(&self, lock: LockId) -> LockState {
        self.builder.world().lock(lock).clone()
    }

    fn waited_ns(lock: &LockState, task: TaskId, now: u64) -> u64 {
        lock.waiters.iter().find(|waiter| waiter.task == task).map_or(0, |waiter| now - waiter.since_ns)
    }

    fn blocked(task: TaskId, lock: LockId) -> Effect {
        Effect::SetState { task, state: TaskState::BlockedOnLock { lock } }
    }

    pub(super) fn take(&mut self, task: TaskId, cpu: u16, now: u64, index: usize, mode: LockMode) -> Next {
        let lock = self.locks[index];
        match (self.lock_state(lock).kind, mode) {
            (LockKind::Spinlock, _) => self.spin_take(task, cpu, now, lock),
            (LockKind::RwSem, LockMode::Read) => self.read_take(task, now, lock),
            (LockKind::RwSem, LockMode::Write) => self.write_take(task, now, lock, index),
            _ => self.mutex_take(task, now, lock),
        }
    }

    pub(super) fn give(&mut self, task: TaskId, now: u64, index: usize) {
        let lock = self.locks[index];
        match self.lock_state(lock).kind {
            LockKind::Spinlock => self.spin_give(task, now, lock),
            LockKind::RwSem => self.rwsem_give(task, now, lock, index),
            _ => self.mutex_give(task, now, lock),
        }
    }

    /// The task took the lock itself: it owes the workload's `lockcost` for the path taken.
    fn pay(&mut self, task: TaskId, path: Path) {
        let cost = self.program.lock_cost;
        self.rt(task).lock_cost_ns = match path {
            Path::Fast => cost.fast_ns,
            Path::Slow => cost.slow_ns,
        };
    }

    fn granted(&mut self, task: TaskId, waited_ns: u64) {
        self.rt(task).lock_wait_ns += waited_ns;
    }

    // ---- mutex -------------------------------------------------------------------

    fn mutex_take(&mut self, task: TaskId, now: u64, lock: LockId) -> Next {
        let state = self.lock_state(lock);
        let retry = self.tasks[task.0 as usize].retry && state.queued(task);
        // Model choice: the owner is never seen running, so the library never says Spin.
        let decision =
            if retry { mutex::mutex_woken_retry(&state, task) } else { mutex::mutex_lock(&state, false) };
        let (l, t) = (Arg::Lock(lock), Arg::Task(task));
        if decision == MutexDecision::Acquire {
            let waited = if retry { Self::waited_ns(&state, task, now) } else { 0 };
            let mut effects = Vec::new();
            if state.handoff {
                effects.push(Effect::SetHandoff { lock, on: false });
            }
            effects.push(Effect::Acquire { lock, task, mode: LockMode::Write, waited_ns: waited });
            self.rt(task).retry = false;
            self.granted(task, waited);
            self.pay(task, if retry { Path::Slow } else { Path::Fast });
            if retry {
                let code = at(text::MUTEX_LOCK_FN, 4);
                self.op(
                    now,
                    Some(task),
                    OpKind::LockGranted,
                    code,
                    T::MUTEX_RETRY_GOT,
                    &[t, l, Arg::Ns(waited)],
                    &effects,
                );
            } else {
                self.op(
                    now,
                    Some(task),
                    OpKind::LockFast,
                    at(text::MUTEX_LOCK_FN, 1),
                    T::MUTEX_FAST,
                    &[t, l],
                    &effects,
                );
            }
            return Next::Continue;
        }
        let holder = state.holders.first().map(|holder| holder.task);
        let position = Arg::Count(state.waiters.len() as u64 + 1);
        match (retry, holder) {
            (true, Some(holder)) if mutex::mutex_should_set_handoff(&state, task) => {
                let effects = [Effect::SetHandoff { lock, on: true }, Self::blocked(task, lock)];
                let args = [t, l, Arg::Task(holder)];
                self.op(
                    now,
                    Some(task),
                    OpKind::LockContended,
                    at(text::MUTEX_LOCK_FN, 4),
                    T::MUTEX_SET_HANDOFF,
                    &args,
                    &effects,
                );
            }
            (true, Some(holder)) => {
                let args = [t, l, Arg::Task(holder)];
                let effects = [Self::blocked(task, lock)];
                self.op(
                    now,
                    Some(task),
                    OpKind::LockContended,
                    at(text::MUTEX_LOCK_FN, 4),
                    T::MUTEX_RETRY_FAIL,
                    &args,
                    &effects,
                );
            }
            (true, None) => {
                let effects = [Self::blocked(task, lock)];
                let args = [t, l, Arg::Count(state.waiters.len() as u64)];
                self.op(
                    now,
                    Some(task),
                    OpKind::LockContended,
                    at(text::MUTEX_LOCK_FN, 4),
                    T::MUTEX_QUEUE_HANDOFF,
                    &args,
                    &effects,
                );
            }
            (false, Some(holder)) => {
                let effects =
                    [Effect::Enqueue { lock, task, mode: LockMode::Write }, Self::blocked(task, lock)];
                let args = [t, l, Arg::Task(holder), position];
                self.op(
                    now,
                    Some(task),
                    OpKind::LockContended,
                    at(text::MUTEX_LOCK_FN, 3),
                    T::MUTEX_QUEUE,
                    &args,
                    &effects,
                );
            }
            (false, None) => {
                let effects =
                    [Effect::Enqueue { lock, task, mode: LockMode::Write }, Self::blocked(task, lock)];
                let code = at(text::MUTEX_LOCK_FN, 3);
                self.op(
                    now,
                    Some(task),
                    OpKind::LockContended,
                    code,
                    T::MUTEX_QUEUE_HANDOFF,
                    &[t, l, position],
                    &effects,
                );
            }
        }
        self.check_deadlock(now);
        Next::OffCpu
    }

    fn mutex_give(&mut self, task: TaskId, now: u64, lock: LockId) {
        let mut after = self.lock_state(lock);
        after.release(task, now);
        let release = Effect::Release { lock, task };
        let (l, t) = (Arg::Lock(lock), Arg::Task(task));
        match mutex::mutex_unlock(&after) {
            MutexUnlock::Nobody => {
                self.op(
                    now,
                    Some(task),
                    OpKind::LockRelease,
                    at(text::MUTEX_UNLOCK_FN, 2),
                    T::MUTEX_UNLOCK,
                    &[t, l],
                    &[release],
                );
            }
            MutexUnlock::Wake(first) => {
                let mut effects = vec![release];
                let asleep = self.state(first) == TaskState::BlockedOnLock { lock };
                if asleep {
                    effects.push(Effect::SetState { task: first, state: TaskState::Runnable });
                }
                let args = [t, l, Arg::Task(first)];
                self.op(
                    now,
                    Some(task),
                    OpKind::Wake,
                    at(text::MUTEX_UNLOCK_FN, 2),
                    T::MUTEX_UNLOCK_WAKE,
                    &args,
                    &effects,
                );
                self.rt(first).retry = true;
                if asleep {
                    self.make_runnable(first, Why::Lock, now);
                }
            }
            MutexUnlock::HandTo(first) => {
                let waited = Self::waited_ns(&after, first, now);
                let mut effects = vec![
                    release,
                    Effect::SetHandoff { lock, on: false },
                    Effect::Acquire { lock, task: first, mode: LockMode::Write, waited_ns: waited },
                ];
                let asleep = self.state(first) == TaskState::BlockedOnLock { lock };
                if asleep {
                    effects.push(Effect::SetState { task: first, state: TaskState::Runnable });
                }
                let args = [t, l, Arg::Task(first), Arg::Ns(waited)];
                self.op(
                    now,
                    Some(task),
                    OpKind::LockGranted,
                    at(text::MUTEX_UNLOCK_FN, 1),
                    T::MUTEX_UNLOCK_HAND,
                    &args,
                    &effects,
                );
                self.granted(first, waited);
                let rt = self.rt(first);
                rt.retry = false;
                rt.pc += 1;
                if asleep {
                    self.make_runnable(first, Why::Lock, now);
                }
            }
        }
    }

    // ---- spinlock ------------------------------------------------------------------

    fn spin_take(&mut self, task: TaskId, cpu: u16, now: u64, lock: LockId) -> Next {
        let state = self.lock_state(lock);
        let (l, t) = (Arg::Lock(lock), Arg::Task(task));
        if mutex::spin_lock(&state) {
            let effects = [
                Effect::Acquire { lock, task, mode: LockMode::Write, waited_ns: 0 },
                Effect::SetState { task, state: TaskState::RunningKernel { cpu } },
            ];
            self.op(
                now,
                Some(task),
                OpKind::LockFast,
                at(text::SPIN_LOCK_FN, 1),
                T::SPIN_GOT,
                &[t, l],
                &effects,
            );
            self.pay(task, Path::Fast);
            return Next::Continue;
        }
        let holder = state.holders.first().map_or(task, |holder| holder.task);
        let effects = [
            Effect::Enqueue { lock, task, mode: LockMode::Write },
            Effect::SetState { task, state: TaskState::Spinning { cpu, lock } },
        ];
        let args =
            [t, l, Arg::Task(holder), Arg::Count(u64::from(cpu)), Arg::Count(state.waiters.len() as u64 + 1)];
        self.op(now, Some(task), OpKind::LockSpin, at(text::SPIN_LOCK_FN, 2), T::SPIN_WAIT, &args, &effects);
        self.check_deadlock(now);
        Next::OnCpu
    }

    fn spin_give(&mut self, task: TaskId, now: u64, lock: LockId) {
        let mut after = self.lock_state(lock);
        after.release(task, now);
        let release = Effect::Release { lock, task };
        let (l, t) = (Arg::Lock(lock), Arg::Task(task));
        let Some(next) = mutex::spin_unlock_next(&after) else {
            self.op(
                now,
                Some(task),
                OpKind::LockRelease,
                at(text::SPIN_UNLOCK_FN, 1),
                T::UNSPIN,
                &[t, l],
                &[release],
            );
            return;
        };
        let waited = Self::waited_ns(&after, next, now);
        let Some(cpu) = self.state(next).cpu() else {
            unreachable!("a spinlock waiter spins on its CPU");
        };
        let effects = [
            release,
            Effect::Acquire { lock, task: next, mode: LockMode::Write, waited_ns: waited },
            Effect::SetState { task: next, state: TaskState::RunningKernel { cpu } },
        ];
        let args = [t, l, Arg::Task(next), Arg::Ns(waited)];
        self.op(
            now,
            Some(task),
            OpKind::LockGranted,
            at(text::SPIN_UNLOCK_FN, 1),
            T::UNSPIN_NEXT,
            &args,
            &effects,
        );
        self.granted(next, waited);
        self.cpus[usize::from(cpu)].charged_ns = now;
        self.resume.push(next);
    }

    // ---- rwsem ---------------------------------------------------------------------

    fn read_take(&mut self, task: TaskId, now: u64, lock: LockId) -> Next {
        let index = self.locks.iter().position(|id| *id == lock).expect("a declared lock");
        let state = self.lock_state(lock);
        let (l, t) = (Arg::Lock(lock), Arg::Task(task));
        let acquire = [Effect::Acquire { lock, task, mode: LockMode::Read, waited_ns: 0 }];
        let position = Arg::Count(state.waiters.len() as u64 + 1);
        let queue = [Effect::Enqueue { lock, task, mode: LockMode::Read }, Self::blocked(task, lock)];
        let code = |line| at(text::DOWN_READ_FN, line);
        match rwsem::down_read(&state, self.rwsem_extra[index]) {
            ReadDecision::Fast => {
                self.rwsem_extra[index].reader_owned_hint = true;
                self.op(now, Some(task), OpKind::LockFast, code(1), T::READ_FAST, &[t, l], &acquire);
                self.pay(task, Path::Fast);
                return Next::Continue;
            }
            ReadDecision::Steal { wake_readers } => {
                self.rwsem_extra[index].reader_owned_hint = true;
                let args = [t, l, Arg::Count(state.waiters.len() as u64)];
                self.op(now, Some(task), OpKind::LockSlow, code(3), T::READ_STEAL, &args, &acquire);
                if wake_readers {
                    self.rwsem_wake(task, now, lock, index, false);
                }
                self.pay(task, Path::Slow);
                return Next::Continue;
            }
            ReadDecision::QueueBehindWriter => {
                let writer = Arg::Task(state.writer().unwrap_or(task));
                let args = [t, l, writer, position];
                self.op(now, Some(task), OpKind::LockContended, code(4), T::READ_QUEUE_WRITER, &args, &queue);
            }
            ReadDecision::QueueFair => {
                self.op(
                    now,
                    Some(task),
                    OpKind::LockContended,
                    code(2),
                    T::READ_QUEUE_FAIR,
                    &[t, l, position],
                    &queue,
                );
            }
            ReadDecision::QueueHandoff => {
                self.op(
                    now,
                    Some(task),
                    OpKind::LockContended,
                    code(4),
                    T::READ_QUEUE_HANDOFF,
                    &[t, l, position],
                    &queue,
                );
            }
        }
        self.check_deadlock(now);
        Next::OffCpu
    }

    fn write_take(&mut self, task: TaskId, now: u64, lock: LockId, index: usize) -> Next {
        let state = self.lock_state(lock);
        let (l, t) = (Arg::Lock(lock), Arg::Task(task));
        let code = |line| at(text::DOWN_WRITE_FN, line);
        if self.tasks[task.0 as usize].retry && state.queued(task) {
            return self.write_retry(task, now, lock, index, &state);
        }
        let acquire = Effect::Acquire { lock, task, mode: LockMode::Write, waited_ns: 0 };
        // Model choice: no spinning, so the owner's CPU does not matter.
        if rwsem::down_write(&state, RWSEM_POLICY, self.rwsem_extra[index], false, false)
            == WriteDecision::Fast
        {
            self.rwsem_extra[index].reader_owned_hint = false;
            self.op(now, Some(task), OpKind::LockFast, code(1), T::WRITE_FAST, &[t, l], &[acquire]);
            self.pay(task, Path::Fast);
            return Next::Continue;
        }
        // Queued, the slow path tries the lock once before sleeping.
        let mut queued = state.clone();
        queued.enqueue(task, LockMode::Write, now);
        let enqueue = Effect::Enqueue { lock, task, mode: LockMode::Write };
        if rwsem::try_write_lock(&queued, RWSEM_POLICY, task, now) == RetryDecision::Acquire {
            self.rwsem_extra[index].reader_owned_hint = false;
            let args = [t, l, Arg::Count(state.waiters.len() as u64)];
            self.op(now, Some(task), OpKind::LockSlow, code(3), T::WRITE_STEAL, &args, &[enqueue, acquire]);
            self.pay(task, Path::Slow);
            return Next::Continue;
        }
        let args = [t, l, Arg::Count(state.holders.len() as u64), Arg::Count(state.waiters.len() as u64 + 1)];
        let effects = [enqueue, Self::blocked(task, lock)];
        self.op(now, Some(task), OpKind::LockContended, code(2), T::WRITE_QUEUE, &args, &effects);
        self.check_deadlock(now);
        Next::OffCpu
    }

    fn write_retry(&mut self, task: TaskId, now: u64, lock: LockId, index: usize, state: &LockState) -> Next {
        let (l, t) = (Arg::Lock(lock), Arg::Task(task));
        let waited = Self::waited_ns(state, task, now);
        let args = [t, l, Arg::Ns(waited)];
        let code = at(text::DOWN_WRITE_FN, 3);
        match rwsem::try_write_lock(state, RWSEM_POLICY, task, now) {
            RetryDecision::Acquire => {
                let mut effects = Vec::new();
                if state.handoff {
                    effects.push(Effect::SetHandoff { lock, on: false });
                }
                effects.push(Effect::Acquire { lock, task, mode: LockMode::Write, waited_ns: waited });
                self.rwsem_extra[index].reader_owned_hint = false;
                self.rt(task).retry = false;
                self.granted(task, waited);
                self.op(now, Some(task), OpKind::LockGranted, code, T::WRITE_RETRY_GOT, &args, &effects);
                self.pay(task, Path::Slow);
                return Next::Continue;
            }
            RetryDecision::Sleep => {
                let effects = [Self::blocked(task, lock)];
                self.op(now, Some(task), OpKind::LockContended, code, T::WRITE_RETRY_FAIL, &args, &effects);
            }
            RetryDecision::SetHandoffAndSleep => {
                let effects = [Effect::SetHandoff { lock, on: true }, Self::blocked(task, lock)];
                let code = at(text::DOWN_WRITE_FN, 4);
                self.op(now, Some(task), OpKind::LockContended, code, T::WRITE_SET_HANDOFF, &args, &effects);
            }
        }
        self.check_deadlock(now);
        Next::OffCpu
    }

    fn rwsem_give(&mut self, task: TaskId, now: u64, lock: LockId, index: usize) {
        let before = self.lock_state(lock);
        let mode =
            before.holders.iter().find(|holder| holder.task == task).map_or(LockMode::Write, |h| h.mode);
        let mut after = before;
        after.release(task, now);
        let (l, t) = (Arg::Lock(lock), Arg::Task(task));
        let release = [Effect::Release { lock, task }];
        let code = at(text::UP_FN, 1);
        let wakes = if mode == LockMode::Read {
            let args = [t, l, Arg::Count(after.readers() as u64)];
            self.op(now, Some(task), OpKind::LockRelease, code, T::UP_READ, &args, &release);
            rwsem::up_read_wakes(&after)
        } else {
            self.op(now, Some(task), OpKind::LockRelease, code, T::UP_WRITE, &[t, l], &release);
            rwsem::up_write_wakes(&after)
        };
        if wakes {
            self.rwsem_wake(task, now, lock, index, true);
        }
    }

    /// `rwsem_mark_wake`: the writer first in line is woken; readers are granted.
    fn rwsem_wake(&mut self, waker: TaskId, now: u64, lock: LockId, index: usize, any: bool) {
        let state = self.lock_state(lock);
        match rwsem::mark_wake(&state, any) {
            Wake::Nobody => {}
            Wake::Writer(writer) => {
                if self.state(writer) != (TaskState::BlockedOnLock { lock }) {
                    return;
                }
                let effects = [Effect::SetState { task: writer, state: TaskState::Runnable }];
                let args = [Arg::Task(waker), Arg::Task(writer)];
                self.op(now, Some(waker), OpKind::Wake, at(text::UP_FN, 2), T::WAKE_WRITER, &args, &effects);
                self.rt(writer).retry = true;
                self.make_runnable(writer, Why::Lock, now);
            }
            Wake::Readers(readers) => {
                let mut effects = Vec::new();
                if state.handoff {
                    effects.push(Effect::SetHandoff { lock, on: false });
                }
                for &reader in &readers {
                    let waited = Self::waited_ns(&state, reader, now);
                    effects.push(Effect::Acquire {
                        lock,
                        task: reader,
                        mode: LockMode::Read,
                        waited_ns: waited,
                    });
                    effects.push(Effect::SetState { task: reader, state: TaskState::Runnable });
                }
                let args = [Arg::Task(waker), Arg::Lock(lock), Arg::Count(readers.len() as u64)];
                self.op(
                    now,
                    Some(waker),
                    OpKind::LockGranted,
                    at(text::UP_FN, 3),
                    T::WAKE_READERS,
                    &args,
                    &effects,
                );
                self.rwsem_extra[index].reader_owned_hint = true;
                for reader in readers {
                    let waited = Self::waited_ns(&state, reader, now);
                    self.granted(reader, waited);
                    self.rt(reader).pc += 1;
                    self.make_runnable(reader, Why::Lock, now);
                }
            }
        }
    }

    // ---- deadlock ------------------------------------------------------------------

    /// A cycle of waits ends the run, each edge named: who holds what, who waits for what.
    fn check_deadlock(&mut self, now: u64) {
        let Some(deadlock) = find_deadlock(&self.builder.world().locks) else { return };
        let cycle = &deadlock.cycle;
        let length = cycle.len();
        for (position, &(task, waits_for)) in cycle.iter().enumerate() {
            let holds = cycle[(position + length - 1) % length].1;
            let args = [Arg::Task(task), Arg::Lock(holds), Arg::Lock(waits_for)];
            self.op(now, Some(task), OpKind::Note, at(text::DEADLOCK_FN, 0), T::DEADLOCK_EDGE, &args, &[]);
        }
        let args = [Arg::Count(length as u64)];
        self.op(now, None, OpKind::Deadlock, at(text::DEADLOCK_FN, 1), T::DEADLOCK, &args, &[]);
        self.stopped = Some(Outcome::Deadlock(deadlock));
    }
}
