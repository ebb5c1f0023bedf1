//! Lock state shared by every lock kind: holders, the wait queue in order,
//! counters. The *policy* (who gets the lock next) lives with each kind's
//! model (`rwsem.rs`); this module only records the outcome and asserts that
//! it is possible (a writer never shares, a holder is never queued).

use crate::run::wire::codec::{wire_enum, wire_struct};
use crate::run::world::TaskId;
use std::collections::VecDeque;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum LockKind {
    /// A reader-writer semaphore (`struct rw_semaphore`): sleeping, shared or exclusive.
    RwSem,
    /// A sleeping mutex (`struct mutex`): exclusive.
    Mutex,
    /// A queued spinlock: exclusive, waiters spin on their CPU in FIFO order.
    Spinlock,
    /// Go's `sync.RWMutex`: shared or exclusive; a waiting writer blocks new readers.
    GoRwMutex,
    /// Go's `sync.Mutex`: exclusive and not reentrant: a `Lock()` by its own holder
    /// queues behind itself and never returns.
    GoMutex,
}
wire_enum!(LockKind { 0 => RwSem, 1 => Mutex, 2 => Spinlock, 3 => GoRwMutex, 4 => GoMutex });

impl LockKind {
    /// Readers may share it.
    pub fn shared(self) -> bool {
        matches!(self, LockKind::RwSem | LockKind::GoRwMutex)
    }

    /// Its holder may queue on it again (and then waits forever).
    pub fn self_blocking(self) -> bool {
        self == LockKind::GoMutex
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum LockMode {
    Read,
    Write,
}
wire_enum!(LockMode { 0 => Read, 1 => Write });

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Holder {
    pub task: TaskId,
    pub mode: LockMode,
    /// When this hold began.
    pub since_ns: u64,
    /// Hold time is charged to `stats` up to here (lazily, like task time).
    pub charged_until_ns: u64,
}
wire_struct!(Holder { task, mode, since_ns, charged_until_ns });

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Waiter {
    pub task: TaskId,
    pub mode: LockMode,
    pub since_ns: u64,
}
wire_struct!(Waiter { task, mode, since_ns });

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct LockStats {
    pub acquisitions: u64,
    /// Acquisitions that had to wait (queue or spin) first.
    pub contended: u64,
    pub wait_total_ns: u64,
    pub wait_max_ns: u64,
    /// Time summed over holders (two readers for 1 ms each count 2 ms).
    pub hold_total_ns: u64,
}
wire_struct!(LockStats { acquisitions, contended, wait_total_ns, wait_max_ns, hold_total_ns });

#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct LockState {
    pub kind: LockKind,
    pub holders: Vec<Holder>,
    pub waiters: VecDeque<Waiter>,
    /// Reserved for the first waiter (rwsem `RWSEM_FLAG_HANDOFF`, mutex `MUTEX_FLAG_HANDOFF`).
    pub handoff: bool,
    pub stats: LockStats,
}
wire_struct!(LockState { kind, holders, waiters, handoff, stats });

/// The additive change to a lock's statistics over one repeated iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct LockStatsDelta {
    pub acquisitions: u64,
    pub contended: u64,
    pub wait_total_ns: u64,
    pub hold_total_ns: u64,
    /// Max is idempotent: after one or more iterations it is this value.
    pub wait_max_after_ns: u64,
    /// Bit i set: holder i (waiter i) is the same task in the same mode one
    /// iteration later but began one period later (it released and took the
    /// lock again, or left the queue and joined it again, at the same point of
    /// the iteration): k iterations move its start k periods on. Why: spinners
    /// taking turns on a saturated lock always leave a holder and a queue at
    /// any instant, so a repeat of their turns must carry them over.
    pub holders_moving: u64,
    pub waiters_moving: u64,
}
wire_struct!(LockStatsDelta {
    acquisitions,
    contended,
    wait_total_ns,
    hold_total_ns,
    wait_max_after_ns,
    holders_moving,
    waiters_moving,
});

impl LockState {
    pub fn new(kind: LockKind) -> LockState {
        LockState {
            kind,
            holders: Vec::new(),
            waiters: VecDeque::new(),
            handoff: false,
            stats: LockStats::default(),
        }
    }

    pub fn writer(&self) -> Option<TaskId> {
        self.holders.iter().find(|holder| holder.mode == LockMode::Write).map(|holder| holder.task)
    }

    pub fn readers(&self) -> usize {
        self.holders.iter().filter(|holder| holder.mode == LockMode::Read).count()
    }

    pub fn is_free(&self) -> bool {
        self.holders.is_empty()
    }

    pub fn holds(&self, task: TaskId) -> bool {
        self.holders.iter().any(|holder| holder.task == task)
    }

    pub fn queued(&self, task: TaskId) -> bool {
        self.waiters.iter().any(|waiter| waiter.task == task)
    }

    pub(crate) fn acquire(&mut self, task: TaskId, mode: LockMode, waited_ns: u64, now: u64) {
        assert!(!self.holds(task), "task {} acquires a lock it holds", task.0);
        match mode {
            LockMode::Write => assert!(self.holders.is_empty(), "writer {} would share the lock", task.0),
            LockMode::Read => {
                assert!(self.kind.shared(), "only a reader-writer lock has readers");
                assert!(self.writer().is_none(), "reader {} would share with a writer", task.0);
            }
        }
        if let Some(position) = self.waiters.iter().position(|waiter| waiter.task == task) {
            let waiter = self.waiters.remove(position).expect("position is in range");
            assert_eq!(waiter.mode, mode, "granted in the mode it queued for");
            assert_eq!(now - waiter.since_ns, waited_ns, "wait time of a queued waiter");
        }
        self.holders.push(Holder { task, mode, since_ns: now, charged_until_ns: now });
        self.stats.acquisitions += 1;
        if waited_ns > 0 {
            self.stats.contended += 1;
            self.stats.wait_total_ns += waited_ns;
            self.stats.wait_max_ns = self.stats.wait_max_ns.max(waited_ns);
        }
    }

    pub(crate) fn enqueue(&mut self, task: TaskId, mode: LockMode, now: u64) {
        assert!(self.kind.self_blocking() || !self.holds(task), "holder {} queued on its own lock", task.0);
        assert!(!self.queued(task), "task {} queued twice", task.0);
        self.waiters.push_back(Waiter { task, mode, since_ns: now });
    }

    pub(crate) fn release(&mut self, task: TaskId, now: u64) {
        let position =
            self.holders.iter().position(|holder| holder.task == task).expect("release by a non-holder");
        let holder = self.holders.remove(position);
        self.stats.hold_total_ns += now - holder.charged_until_ns;
    }

    pub(crate) fn normalize(&mut self, now: u64) {
        for holder in &mut self.holders {
            self.stats.hold_total_ns += now - holder.charged_until_ns;
            holder.charged_until_ns = now;
        }
    }

    /// Statistics with the open holds charged up to `now`: what the UI shows.
    pub fn stats_at(&self, now: u64) -> LockStats {
        let mut stats = self.stats;
        stats.hold_total_ns += self.holders.iter().map(|holder| now - holder.charged_until_ns).sum::<u64>();
        stats
    }

    pub fn check_invariants(&self) {
        if self.writer().is_some() {
            assert_eq!(self.holders.len(), 1, "a writer holds the lock alone");
        }
        if !self.kind.shared() {
            assert!(self.holders.iter().all(|holder| holder.mode == LockMode::Write));
        }
        if !self.kind.self_blocking() {
            for waiter in &self.waiters {
                assert!(!self.holds(waiter.task), "a holder is never queued");
            }
        }
        assert!(self.stats.contended <= self.stats.acquisitions);
    }

    /// One iteration's change. Holders and waiters must come back as the same
    /// tasks in the same order and modes, each starting at the same instant or
    /// exactly `period_ns` later.
    pub(crate) fn stats_delta(&self, after: &LockState, period_ns: u64) -> LockStatsDelta {
        let strip = |holders: &[Holder]| holders.iter().map(|h| (h.task, h.mode)).collect::<Vec<_>>();
        assert_eq!(strip(&self.holders), strip(&after.holders), "repeat changed a lock's holders");
        let strip_w = |w: &VecDeque<Waiter>| w.iter().map(|w| (w.task, w.mode)).collect::<Vec<_>>();
        assert_eq!(strip_w(&self.waiters), strip_w(&after.waiters), "repeat changed a wait queue");
        assert_eq!(self.handoff, after.handoff, "repeat changed a handoff flag");
        let moving = |pairs: &mut dyn Iterator<Item = (u64, u64)>| {
            let mut bits = 0u64;
            for (i, (before, now)) in pairs.enumerate() {
                if now != before {
                    assert_eq!(now, before + period_ns, "a hold or wait moved by other than one period");
                    assert!(i < 64, "at most 64 moving holders or waiters");
                    bits |= 1 << i;
                }
            }
            bits
        };
        let holders_moving =
            moving(&mut self.holders.iter().zip(&after.holders).map(|(a, b)| (a.since_ns, b.since_ns)));
        let waiters_moving =
            moving(&mut self.waiters.iter().zip(&after.waiters).map(|(a, b)| (a.since_ns, b.since_ns)));
        LockStatsDelta {
            holders_moving,
            waiters_moving,
            acquisitions: after.stats.acquisitions - self.stats.acquisitions,
            contended: after.stats.contended - self.stats.contended,
            wait_total_ns: after.stats.wait_total_ns - self.stats.wait_total_ns,
            hold_total_ns: after.stats.hold_total_ns - self.stats.hold_total_ns,
            wait_max_after_ns: after.stats.wait_max_ns,
        }
    }

    pub(crate) fn apply_stats_delta(&mut self, delta: &LockStatsDelta, k: u64, elapsed_ns: u64) {
        self.stats.acquisitions += delta.acquisitions * k;
        self.stats.contended += delta.contended * k;
        self.stats.wait_total_ns += delta.wait_total_ns * k;
        self.stats.hold_total_ns += delta.hold_total_ns * k;
        if k > 0 {
            self.stats.wait_max_ns = self.stats.wait_max_ns.max(delta.wait_max_after_ns);
        }
        for (i, holder) in self.holders.iter_mut().enumerate() {
            holder.charged_until_ns += elapsed_ns;
            if i < 64 && delta.holders_moving & (1 << i) != 0 {
                holder.since_ns += elapsed_ns;
            }
        }
        for (i, waiter) in self.waiters.iter_mut().enumerate() {
            if i < 64 && delta.waiters_moving & (1 << i) != 0 {
                waiter.since_ns += elapsed_ns;
            }
        }
    }
}

/// A cycle in the wait-for graph: each task waits for a lock held by the next.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Deadlock {
    /// (waiting task, the lock it waits for), in cycle order.
    pub cycle: Vec<(TaskId, crate::run::world::LockId)>,
}
wire_struct!(Deadlock { cycle });

/// Finds a cycle in the wait-for graph (task → lock it waits on → that lock's
/// holders), if any. Deterministic: starts from the lowest task id.
pub fn find_deadlock(locks: &[LockState]) -> Option<Deadlock> {
    use crate::run::world::LockId;
    use std::collections::BTreeMap;
    // Each waiting task waits on exactly one lock.
    let mut waits_on: BTreeMap<TaskId, LockId> = BTreeMap::new();
    for (index, lock) in locks.iter().enumerate() {
        for waiter in &lock.waiters {
            waits_on.insert(waiter.task, LockId(index as u32));
        }
    }
    for &start in waits_on.keys() {
        let mut path: Vec<(TaskId, LockId)> = Vec::new();
        let mut current = start;
        // Bounded: a path longer than the number of waiters must have repeated.
        for _ in 0..=waits_on.len() {
            let Some(&lock) = waits_on.get(&current) else { break };
            if let Some(position) = path.iter().position(|(task, _)| *task == current) {
                return Some(Deadlock { cycle: path[position..].to_vec() });
            }
            path.push((current, lock));
            // Follow the first holder that itself waits (a reader-held lock may have several).
            let holders = &locks[lock.0 as usize].holders;
            match holders.iter().map(|h| h.task).find(|task| waits_on.contains_key(task)) {
                Some(next) => current = next,
                None => break,
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::world::LockId;

    #[test]
    fn two_tasks_holding_what_the_other_wants_deadlock() {
        let mut a = LockState::new(LockKind::Mutex);
        let mut b = LockState::new(LockKind::Mutex);
        a.acquire(TaskId(0), LockMode::Write, 0, 0);
        b.acquire(TaskId(1), LockMode::Write, 0, 0);
        a.enqueue(TaskId(1), LockMode::Write, 5);
        assert_eq!(find_deadlock(&[a.clone(), b.clone()]), None);
        b.enqueue(TaskId(0), LockMode::Write, 6);
        let found = find_deadlock(&[a, b]).expect("deadlock");
        assert_eq!(found.cycle, vec![(TaskId(0), LockId(1)), (TaskId(1), LockId(0))]);
    }

    #[test]
    fn a_task_waiting_on_a_lock_it_holds_through_another_is_a_self_deadlock() {
        let mut a = LockState::new(LockKind::Mutex);
        a.acquire(TaskId(3), LockMode::Write, 0, 0);
        let mut b = LockState::new(LockKind::Mutex);
        b.acquire(TaskId(3), LockMode::Write, 0, 0);
        // Task 3 waits on lock a, which task 3 holds: Go's `defer Unlock` in a loop.
        let mut a_waiting = a.clone();
        a_waiting.holders.clear();
        a_waiting.holders.push(Holder {
            task: TaskId(3),
            mode: LockMode::Write,
            since_ns: 0,
            charged_until_ns: 0,
        });
        a_waiting.waiters.push_back(Waiter { task: TaskId(3), mode: LockMode::Write, since_ns: 1 });
        let found = find_deadlock(&[a_waiting, b]).expect("self deadlock");
        assert_eq!(found.cycle, vec![(TaskId(3), LockId(0))]);
    }

    #[test]
    #[should_panic(expected = "would share")]
    fn a_writer_never_shares() {
        let mut lock = LockState::new(LockKind::RwSem);
        lock.acquire(TaskId(0), LockMode::Read, 0, 0);
        lock.acquire(TaskId(1), LockMode::Write, 0, 0);
    }
}
