//! Go's `sync.RWMutex` and `sync.Mutex` as pure policies: may a caller have
//! the lock now? The state they read is the world's (`run::lock`).
//!
//! Rules, from the Go documentation of package `sync`
//! (<https://pkg.go.dev/sync#RWMutex>, <https://pkg.go.dev/sync#Mutex>):
//! - `RWMutex.RLock`: "If a goroutine holds a RWMutex for reading and another
//!   goroutine might call Lock, no goroutine should expect to be able to acquire
//!   a read lock until the initial read lock is released": a waiting writer
//!   blocks new readers (writer preference).
//! - `RWMutex.Lock`: waits until no reader and no writer holds it.
//! - `Mutex.Lock`: not reentrant; a goroutine that locks a mutex it holds
//!   blocks forever (Go has no owner check).

use crate::run::lock::{LockMode, LockState};
use crate::run::world::TaskId;

/// Whether `RLock()` returns at once: no writer holds it and none waits.
pub fn rlock_now(lock: &LockState) -> bool {
    lock.writer().is_none() && !lock.waiters.iter().any(|waiter| waiter.mode == LockMode::Write)
}

/// Whether `Lock()` (of an `RWMutex` or a `Mutex`) returns at once: nobody holds it
/// and nobody is queued ahead.
pub fn lock_now(lock: &LockState) -> bool {
    lock.holders.is_empty() && lock.waiters.is_empty()
}

/// Whether `task` calling `Lock()` on a mutex it already holds: it will never return.
pub fn relocks_own(lock: &LockState, task: TaskId) -> bool {
    lock.holds(task)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::lock::LockKind;

    #[test]
    fn a_waiting_writer_blocks_new_readers() {
        let mut lock = LockState::new(LockKind::GoRwMutex);
        assert!(rlock_now(&lock));
        lock.acquire(TaskId(0), LockMode::Read, 0, 0);
        assert!(rlock_now(&lock));
        assert!(!lock_now(&lock));
        lock.enqueue(TaskId(1), LockMode::Write, 5);
        assert!(!rlock_now(&lock), "writer preference");
    }

    #[test]
    fn a_go_mutex_holder_may_queue_on_itself() {
        let mut lock = LockState::new(LockKind::GoMutex);
        lock.acquire(TaskId(3), LockMode::Write, 0, 0);
        assert!(relocks_own(&lock, TaskId(3)));
        lock.enqueue(TaskId(3), LockMode::Write, 1);
        lock.check_invariants();
        let found = crate::run::lock::find_deadlock(&[lock]).expect("self deadlock");
        assert_eq!(found.cycle.len(), 1);
    }
}
