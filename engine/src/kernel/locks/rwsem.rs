//! The policy of Linux's reader-writer semaphore at v6.13
//! (`kernel/locking/rwsem.c`): who may take the lock, who must queue, whom an
//! unlock wakes. Pure functions over [`LockState`]; the caller records the
//! outcome as effects.
//!
//! Modelled: reader fast path and its failure mask (writer, waiters, handoff);
//! reader lock stealing and its anti-starvation exception; no reader spinning
//! (removed in v5.11); writer optimistic spinning on a running writer or on
//! readers (bounded by `rwsem_rspin_threshold`); FIFO wait queue with
//! phase-fair reader wakeup (all queued readers, skipping writers, up to 256);
//! writer wakeups that wake without granting; handoff after `RWSEM_WAIT_TIMEOUT`.
//! Model choices, stated in the narration: one spinner at a time (the kernel's
//! OSQ queues further spinners, which also burn CPU); a handoff waiter sleeps
//! rather than spinning; readers never set handoff.

use crate::run::lock::{LockMode, LockState};
use crate::run::world::TaskId;

/// `RWSEM_WAIT_TIMEOUT` = `DIV_ROUND_UP(HZ, 250)` jiffies: 4 ms at HZ=1000.
pub const RWSEM_WAIT_TIMEOUT_NS: u64 = 4_000_000;
/// `MAX_READERS_WAKEUP`: readers granted by one wakeup.
pub const MAX_READERS_WAKEUP: usize = 256;

/// Knobs for the comparison variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RwsemPolicy {
    /// `CONFIG_RWSEM_SPIN_ON_OWNER`: writers may spin instead of sleeping.
    pub writer_spin: bool,
    /// The v5.3+ handoff bit. Off only in the hypothetical "no handoff" variant.
    pub handoff: bool,
}

/// The extra state the real rwsem keeps beyond holders and waiters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RwsemExtra {
    /// `RWSEM_READER_OWNED` in `sem->owner`: set by readers, only cleared when a
    /// writer takes the lock, so it is a hint that can be stale.
    pub reader_owned_hint: bool,
    /// `RWSEM_NONSPINNABLE`: set when a writer gave up spinning on readers; no writer
    /// spins on readers again until the reader count drops to zero.
    pub nonspinnable: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadDecision {
    /// No writer, no waiters, no handoff: one atomic add.
    Fast,
    /// Slow path, but no writer and no handoff: take it; `wake_readers` when
    /// this reader is the first and others are queued.
    Steal { wake_readers: bool },
    /// Queue because a writer holds the lock.
    QueueBehindWriter,
    /// Queue although readers hold it: the anti-starvation rule.
    QueueFair,
    /// Queue because the lock is handed off to the first waiter.
    QueueHandoff,
}

pub fn down_read(lock: &LockState, extra: RwsemExtra) -> ReadDecision {
    let writer = lock.writer().is_some();
    let waiters = !lock.waiters.is_empty();
    if !writer && !waiters && !lock.handoff {
        return ReadDecision::Fast;
    }
    // rcnt counts this reader too: more than one means other readers hold it.
    let rcnt = lock.readers() + 1;
    if extra.reader_owned_hint && rcnt > 1 && !writer {
        return ReadDecision::QueueFair;
    }
    if !writer && !lock.handoff {
        return ReadDecision::Steal { wake_readers: rcnt == 1 && waiters };
    }
    if writer {
        ReadDecision::QueueBehindWriter
    } else {
        ReadDecision::QueueHandoff
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriteDecision {
    /// Count was 0: one compare-and-swap.
    Fast,
    /// The lock is free but waiters are queued and no handoff is set: take it.
    Steal,
    /// Spin on a running writer owner (until it releases or loses its CPU).
    SpinOnWriter,
    /// Spin on reader owners for at most the given time.
    SpinOnReaders {
        limit_ns: u64,
    },
    Queue,
}

/// `rwsem_rspin_threshold`: (20 + min(readers, 30)) × 1000 / 2 ns.
pub fn reader_spin_threshold_ns(readers: usize) -> u64 {
    (20 + readers.min(30) as u64) * 1000 / 2
}

/// `owner_running`: the writer owner is on a CPU. `spinner_present`: another
/// writer already spins (the OSQ lets one spin at a time).
pub fn down_write(
    lock: &LockState,
    policy: RwsemPolicy,
    extra: RwsemExtra,
    owner_running: bool,
    spinner_present: bool,
) -> WriteDecision {
    if lock.is_free() && lock.waiters.is_empty() && !lock.handoff {
        return WriteDecision::Fast;
    }
    if !policy.writer_spin || spinner_present {
        return WriteDecision::Queue;
    }
    if lock.is_free() {
        return if lock.handoff { WriteDecision::Queue } else { WriteDecision::Steal };
    }
    if lock.writer().is_some() {
        return if owner_running { WriteDecision::SpinOnWriter } else { WriteDecision::Queue };
    }
    if extra.nonspinnable {
        return WriteDecision::Queue;
    }
    WriteDecision::SpinOnReaders { limit_ns: reader_spin_threshold_ns(lock.readers()) }
}

/// What `rwsem_try_write_lock` does for a queued writer that runs again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RetryDecision {
    Acquire,
    /// Still taken (or handed to someone else): sleep again.
    Sleep,
    /// Still taken, and this first waiter has waited past the timeout: set handoff, then sleep.
    SetHandoffAndSleep,
}

pub fn try_write_lock(lock: &LockState, policy: RwsemPolicy, task: TaskId, now_ns: u64) -> RetryDecision {
    let position =
        lock.waiters.iter().position(|waiter| waiter.task == task).expect("a queued writer retries");
    let first = position == 0;
    if lock.handoff && !first {
        return RetryDecision::Sleep;
    }
    if lock.is_free() {
        return RetryDecision::Acquire;
    }
    let waited = now_ns - lock.waiters[position].since_ns;
    if policy.handoff && first && !lock.handoff && waited > RWSEM_WAIT_TIMEOUT_NS {
        RetryDecision::SetHandoffAndSleep
    } else {
        RetryDecision::Sleep
    }
}

/// Whom `rwsem_mark_wake` wakes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Wake {
    Nobody,
    /// The writer at the head: woken, not granted.
    Writer(TaskId),
    /// Readers granted the lock before they are woken, in queue order.
    Readers(Vec<TaskId>),
}

/// `rwsem_mark_wake(sem, RWSEM_WAKE_ANY)` when `any`, else `RWSEM_WAKE_READ_OWNED`.
pub fn mark_wake(lock: &LockState, any: bool) -> Wake {
    let Some(first) = lock.waiters.front() else { return Wake::Nobody };
    if first.mode == LockMode::Write {
        return if any { Wake::Writer(first.task) } else { Wake::Nobody };
    }
    if lock.writer().is_some() {
        return Wake::Nobody;
    }
    Wake::Readers(
        lock.waiters
            .iter()
            .filter(|waiter| waiter.mode == LockMode::Read)
            .take(MAX_READERS_WAKEUP)
            .map(|waiter| waiter.task)
            .collect(),
    )
}

/// `up_read`: does this release call `rwsem_wake`? (Last reader out, waiters queued.)
pub fn up_read_wakes(lock_after_release: &LockState) -> bool {
    lock_after_release.is_free() && !lock_after_release.waiters.is_empty()
}

/// `up_write`: does this release call `rwsem_wake`? (Waiters queued.)
pub fn up_write_wakes(lock_after_release: &LockState) -> bool {
    !lock_after_release.waiters.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::lock::LockKind;

    fn lock() -> LockState {
        LockState::new(LockKind::RwSem)
    }

    const V613: RwsemPolicy = RwsemPolicy { writer_spin: true, handoff: true };

    #[test]
    fn readers_share_and_queue_behind_a_writer() {
        let mut sem = lock();
        assert_eq!(down_read(&sem, RwsemExtra::default()), ReadDecision::Fast);
        sem.acquire(TaskId(0), LockMode::Read, 0, 0);
        assert_eq!(
            down_read(&sem, RwsemExtra { reader_owned_hint: true, nonspinnable: false }),
            ReadDecision::Fast
        );
        sem.release(TaskId(0), 10);
        sem.acquire(TaskId(9), LockMode::Write, 0, 10);
        assert_eq!(down_read(&sem, RwsemExtra::default()), ReadDecision::QueueBehindWriter);
    }

    #[test]
    fn a_queued_writer_holds_back_new_readers_unless_the_lock_looks_free() {
        let mut sem = lock();
        sem.acquire(TaskId(0), LockMode::Read, 0, 0);
        sem.enqueue(TaskId(9), LockMode::Write, 1);
        let hint = RwsemExtra { reader_owned_hint: true, nonspinnable: false };
        assert_eq!(down_read(&sem, hint), ReadDecision::QueueFair);
        sem.release(TaskId(0), 2);
        // Free again but the hint is stale: rcnt == 1, so a reader may steal (the writer was only woken).
        assert_eq!(down_read(&sem, hint), ReadDecision::Steal { wake_readers: true });
        sem.handoff = true;
        assert_eq!(down_read(&sem, hint), ReadDecision::QueueHandoff);
    }

    #[test]
    fn wakeups_batch_all_queued_readers_skipping_writers() {
        let mut sem = lock();
        sem.acquire(TaskId(9), LockMode::Write, 0, 0);
        sem.enqueue(TaskId(1), LockMode::Read, 1);
        sem.enqueue(TaskId(8), LockMode::Write, 2);
        sem.enqueue(TaskId(2), LockMode::Read, 3);
        assert_eq!(mark_wake(&sem, true), Wake::Nobody, "a writer still holds it");
        sem.release(TaskId(9), 4);
        assert!(up_write_wakes(&sem));
        assert_eq!(mark_wake(&sem, true), Wake::Readers(vec![TaskId(1), TaskId(2)]));
    }

    #[test]
    fn a_writer_at_the_head_is_woken_not_granted_and_takes_handoff_after_the_timeout() {
        let mut sem = lock();
        sem.acquire(TaskId(0), LockMode::Read, 0, 0);
        sem.enqueue(TaskId(9), LockMode::Write, 0);
        assert_eq!(try_write_lock(&sem, V613, TaskId(9), RWSEM_WAIT_TIMEOUT_NS), RetryDecision::Sleep);
        assert_eq!(
            try_write_lock(&sem, V613, TaskId(9), RWSEM_WAIT_TIMEOUT_NS + 1),
            RetryDecision::SetHandoffAndSleep
        );
        sem.release(TaskId(0), 10);
        assert_eq!(mark_wake(&sem, true), Wake::Writer(TaskId(9)));
        assert_eq!(try_write_lock(&sem, V613, TaskId(9), 11), RetryDecision::Acquire);
    }

    #[test]
    fn writers_spin_only_on_a_running_owner_and_for_a_bounded_time_on_readers() {
        let mut sem = lock();
        sem.acquire(TaskId(0), LockMode::Write, 0, 0);
        assert_eq!(down_write(&sem, V613, RwsemExtra::default(), true, false), WriteDecision::SpinOnWriter);
        assert_eq!(down_write(&sem, V613, RwsemExtra::default(), false, false), WriteDecision::Queue);
        assert_eq!(down_write(&sem, V613, RwsemExtra::default(), true, true), WriteDecision::Queue);
        sem.release(TaskId(0), 1);
        sem.acquire(TaskId(1), LockMode::Read, 0, 1);
        sem.acquire(TaskId(2), LockMode::Read, 0, 1);
        assert_eq!(
            down_write(&sem, V613, RwsemExtra::default(), false, false),
            WriteDecision::SpinOnReaders { limit_ns: 11_000 }
        );
        let gave_up = RwsemExtra { reader_owned_hint: true, nonspinnable: true };
        assert_eq!(down_write(&sem, V613, gave_up, false, false), WriteDecision::Queue);
        let no_spin = RwsemPolicy { writer_spin: false, handoff: true };
        assert_eq!(down_write(&sem, no_spin, RwsemExtra::default(), false, false), WriteDecision::Queue);
    }
}
