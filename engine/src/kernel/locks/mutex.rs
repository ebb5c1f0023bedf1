//! Policies of the two exclusive locks, at v6.13, as pure functions over
//! [`LockState`] (the caller records outcomes as effects, as for `rwsem.rs`).
//!
//! `struct mutex` (`kernel/locking/mutex.c`): a free mutex is taken by anyone,
//! even past queued waiters, unless the handoff flag reserves it; a contender
//! spins while the owner runs on a CPU, else joins the FIFO wait list; unlock
//! wakes only the first waiter, and a woken first waiter that finds the mutex
//! taken again sets `MUTEX_FLAG_HANDOFF` (no timeout, unlike the rwsem), after
//! which unlock passes ownership straight to it.
//!
//! Queued spinlock (`kernel/locking/qspinlock.c`): contenders spin on their own
//! CPU and get the lock in arrival order (pending bit, then the MCS queue), so
//! the wait queue here is strictly FIFO and every wait is CPU time (sys).
//! Model choice: the unfair test-and-set fallback used in some VMs is not modelled.

use crate::run::lock::{LockKind, LockState};
use crate::run::world::TaskId;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MutexDecision {
    /// Free and not handed off: take it (even with waiters queued).
    Acquire,
    /// The owner is running: spin on it.
    Spin,
    /// Queue at the tail and sleep.
    Queue,
}

pub fn mutex_lock(lock: &LockState, owner_running: bool) -> MutexDecision {
    debug_assert_eq!(lock.kind, LockKind::Mutex);
    if lock.is_free() && !lock.handoff {
        MutexDecision::Acquire
    } else if !lock.is_free() && owner_running {
        MutexDecision::Spin
    } else {
        MutexDecision::Queue
    }
}

/// What `mutex_unlock` does with the first waiter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MutexUnlock {
    Nobody,
    /// Woken, not granted: it must retry (and may lose to a spinner).
    Wake(TaskId),
    /// Handoff set: ownership passes straight to the first waiter.
    HandTo(TaskId),
}

pub fn mutex_unlock(lock_after_release: &LockState) -> MutexUnlock {
    match lock_after_release.waiters.front() {
        None => MutexUnlock::Nobody,
        Some(first) if lock_after_release.handoff => MutexUnlock::HandTo(first.task),
        Some(first) => MutexUnlock::Wake(first.task),
    }
}

/// A woken first waiter that finds the mutex taken sets the handoff flag.
pub fn mutex_woken_retry(lock: &LockState, task: TaskId) -> MutexDecision {
    let first = lock.waiters.front().map(|waiter| waiter.task) == Some(task);
    if lock.is_free() && (!lock.handoff || first) {
        MutexDecision::Acquire
    } else {
        MutexDecision::Queue
    }
}

/// Whether a woken waiter that failed should set `MUTEX_FLAG_HANDOFF`.
pub fn mutex_should_set_handoff(lock: &LockState, task: TaskId) -> bool {
    !lock.handoff && lock.waiters.front().map(|waiter| waiter.task) == Some(task) && !lock.is_free()
}

/// A queued spinlock: take it if free and nobody queued, else spin in line.
pub fn spin_lock(lock: &LockState) -> bool {
    debug_assert_eq!(lock.kind, LockKind::Spinlock);
    lock.is_free() && lock.waiters.is_empty()
}

/// On `spin_unlock`, the head of the line gets the lock next.
pub fn spin_unlock_next(lock_after_release: &LockState) -> Option<TaskId> {
    lock_after_release.waiters.front().map(|waiter| waiter.task)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::lock::LockMode;

    #[test]
    fn a_mutex_is_stolen_past_waiters_until_a_woken_waiter_asks_for_handoff() {
        let mut mutex = LockState::new(LockKind::Mutex);
        assert_eq!(mutex_lock(&mutex, false), MutexDecision::Acquire);
        mutex.acquire(TaskId(0), LockMode::Write, 0, 0);
        assert_eq!(mutex_lock(&mutex, true), MutexDecision::Spin);
        assert_eq!(mutex_lock(&mutex, false), MutexDecision::Queue);
        mutex.enqueue(TaskId(1), LockMode::Write, 1);
        mutex.release(TaskId(0), 2);
        assert_eq!(mutex_unlock(&mutex), MutexUnlock::Wake(TaskId(1)));
        // Before the woken waiter runs, a newcomer steals the free mutex.
        assert_eq!(mutex_lock(&mutex, false), MutexDecision::Acquire);
        mutex.acquire(TaskId(2), LockMode::Write, 0, 3);
        assert_eq!(mutex_woken_retry(&mutex, TaskId(1)), MutexDecision::Queue);
        assert!(mutex_should_set_handoff(&mutex, TaskId(1)));
        mutex.handoff = true;
        mutex.release(TaskId(2), 4);
        assert_eq!(mutex_unlock(&mutex), MutexUnlock::HandTo(TaskId(1)));
        assert_eq!(mutex_lock(&mutex, false), MutexDecision::Queue, "handoff blocks stealing");
    }

    #[test]
    fn a_queued_spinlock_serves_in_arrival_order() {
        let mut spin = LockState::new(LockKind::Spinlock);
        assert!(spin_lock(&spin));
        spin.acquire(TaskId(0), LockMode::Write, 0, 0);
        assert!(!spin_lock(&spin));
        spin.enqueue(TaskId(5), LockMode::Write, 1);
        spin.enqueue(TaskId(3), LockMode::Write, 2);
        spin.release(TaskId(0), 3);
        assert!(!spin_lock(&spin), "a newcomer cannot jump the line");
        assert_eq!(spin_unlock_next(&spin), Some(TaskId(5)));
    }
}
