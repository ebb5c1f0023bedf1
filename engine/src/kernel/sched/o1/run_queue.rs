//! One CPU's O(1) run queue (kernel/sched.c's `struct runqueue`): the active and
//! expired priority arrays with their bitmaps, and `scheduler_tick`, `schedule()`'s
//! pick and `sched_yield` on them. The rules they apply are the parent module's.

use super::{O1Task, Rules, MAX_PRIO, O1};
use crate::run::world::TaskId;
use std::collections::VecDeque;

/// Which array a task is queued in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Array {
    Active,
    Expired,
}

/// Tasks of one priority array with their priorities, best first.
pub type ArrayView = Vec<(i32, TaskId)>;

/// What `scheduler_tick` decided for the running task.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TickOutcome {
    /// A jiffy of its slice is gone; nothing else.
    Continue,
    /// Slice over; interactive and nobody starving: back into the active array, new slice.
    ExpiredToActive,
    /// Slice over; into the expired array.
    ExpiredToExpired { starving: bool },
    /// Interactive task at a TIMESLICE_GRANULARITY boundary: to the tail of its priority list.
    Requeued,
    /// Already in the expired array but still running (leaving a system call): reschedule, nothing else.
    NotYetOff,
}

/// One CPU's run queue: two arrays of 140 FIFO lists. As in the kernel, the
/// running task stays queued in its array, each array keeps a bitmap of its
/// non-empty lists (`sched_find_first_bit` finds the best), and swapping the
/// arrays swaps two pointers: `active_slot` names which of the two stores is the
/// active array. A pick and a swap are O(1) in the number of tasks, as in 2.6
/// (a run of 4,096 threads swaps often).
#[derive(Clone, Debug)]
pub struct RunQueue {
    /// The two priority arrays; `arrays[active_slot]` is the active one.
    arrays: [Vec<VecDeque<TaskId>>; 2],
    /// One bit per non-empty list of each array (priority p is bit p % 64 of word p / 64).
    bitmaps: [[u64; BITMAP_WORDS]; 2],
    active_slot: usize,
    /// `rq->expired_timestamp`: the jiffy of the first slice expiry since the last swap.
    expired_since_ns: Option<u64>,
    pub swaps: u64,
    /// Where each queued task is, indexed by task id: the kernel keeps `p->array`
    /// and `p->prio`; so do we, so that finding a task does not scan 280 lists.
    /// (slot of its array, priority).
    queued: Vec<Option<(usize, i32)>>,
    nr_running: usize,
    nr_active: usize,
}

/// Words of a priority bitmap: 140 priorities.
const BITMAP_WORDS: usize = (MAX_PRIO as usize).div_ceil(64);

impl Default for RunQueue {
    fn default() -> Self {
        RunQueue::new()
    }
}

impl RunQueue {
    pub fn new() -> RunQueue {
        RunQueue {
            arrays: [vec![VecDeque::new(); MAX_PRIO as usize], vec![VecDeque::new(); MAX_PRIO as usize]],
            bitmaps: [[0; BITMAP_WORDS]; 2],
            active_slot: 0,
            expired_since_ns: None,
            swaps: 0,
            queued: Vec::new(),
            nr_running: 0,
            nr_active: 0,
        }
    }

    fn slot(&self, array: Array) -> usize {
        match array {
            Array::Active => self.active_slot,
            Array::Expired => 1 - self.active_slot,
        }
    }

    fn array_of(&self, slot: usize) -> Array {
        if slot == self.active_slot {
            Array::Active
        } else {
            Array::Expired
        }
    }

    pub fn enqueue(&mut self, array: Array, task: TaskId, prio: i32) {
        assert!(self.find(task).is_none(), "task {} queued twice", task.0);
        assert!((0..MAX_PRIO).contains(&prio), "priority {prio} out of range");
        let slot = self.slot(array);
        self.arrays[slot][prio as usize].push_back(task);
        self.bitmaps[slot][prio as usize / 64] |= 1 << (prio as usize % 64);
        let index = task.0 as usize;
        if self.queued.len() <= index {
            self.queued.resize(index + 1, None);
        }
        self.queued[index] = Some((slot, prio));
        self.nr_running += 1;
        if array == Array::Active {
            self.nr_active += 1;
        }
    }

    /// Where a task is queued: its array and priority.
    pub fn find(&self, task: TaskId) -> Option<(Array, i32)> {
        let (slot, prio) = self.queued.get(task.0 as usize).copied().flatten()?;
        Some((self.array_of(slot), prio))
    }

    pub fn remove(&mut self, task: TaskId) {
        let Some((slot, prio)) = self.queued.get(task.0 as usize).copied().flatten() else { return };
        self.queued[task.0 as usize] = None;
        self.nr_running -= 1;
        if slot == self.active_slot {
            self.nr_active -= 1;
        }
        let list = &mut self.arrays[slot][prio as usize];
        // The running task is usually at the head of its list.
        if list.front() == Some(&task) {
            list.pop_front();
        } else {
            let at = list.iter().position(|&t| t == task).expect("a queued task is in its list");
            list.remove(at);
        }
        if list.is_empty() {
            self.bitmaps[slot][prio as usize / 64] &= !(1 << (prio as usize % 64));
        }
    }

    /// `rq->active->nr_active`: the tasks in the active array.
    pub fn nr_active(&self) -> usize {
        self.nr_active
    }

    /// `rq->nr_running`: every queued task (the running one included).
    pub fn nr_running(&self) -> usize {
        self.nr_running
    }

    /// `rq->expired_timestamp`, if a slice expired since the last swap.
    pub fn expired_since_ns(&self) -> Option<u64> {
        self.expired_since_ns
    }

    /// `EXPIRED_STARVING`: the first expiry was ≥ STARVATION_LIMIT × nr_running + 1 jiffy ago.
    pub fn expired_starving(&self, o1: &O1, now_ns: u64) -> bool {
        self.expired_since_ns.is_some_and(|since| {
            now_ns - since >= o1.starvation_limit_ns() * self.nr_running() as u64 + o1.tick_ns()
        })
    }

    /// `scheduler_tick` for the running `task` (queued in the active array).
    pub fn tick(
        &mut self,
        o1: &O1,
        current: TaskId,
        task: &mut O1Task,
        now_ns: u64,
        cpus: u64,
    ) -> TickOutcome {
        // "Task might have expired already, but not scheduled off yet": the slice is left alone.
        if !matches!(self.find(current), Some((Array::Active, _))) {
            return TickOutcome::NotYetOff;
        }
        assert!(task.time_slice > 0, "a running task has slice left");
        task.time_slice -= 1;
        if task.time_slice == 0 {
            // dequeue_task leaves rq->nr_running alone: the starvation test still counts this task.
            let starving = {
                self.expired_since_ns.get_or_insert(now_ns);
                self.expired_starving(o1, now_ns)
            };
            self.remove(current);
            task.prio = o1.effective_prio(task.static_prio, task.sleep_avg_ns);
            task.time_slice = o1.timeslice(task.static_prio);
            if task.interactive() && !starving {
                self.enqueue(Array::Active, current, task.prio);
                TickOutcome::ExpiredToActive
            } else {
                self.enqueue(Array::Expired, current, task.prio);
                TickOutcome::ExpiredToExpired { starving }
            }
        } else {
            if task.requeue_due(o1, task.time_slice, cpus) {
                self.remove(current);
                // 2.6.1 recomputes the priority; 2.6.8+'s requeue_task keeps it.
                if o1.rules == Rules::V2_6_1 {
                    task.prio = o1.effective_prio(task.static_prio, task.sleep_avg_ns);
                }
                self.enqueue(Array::Active, current, task.prio);
                TickOutcome::Requeued
            } else {
                TickOutcome::Continue
            }
        }
    }

    /// `schedule()` after crediting a freshly woken pick's run-queue wait: the task
    /// leaves its array and joins it again at the tail of its (new) priority.
    pub fn requeue(&mut self, task: TaskId, prio: i32) {
        let (array, _) = self.find(task).expect("a requeued task is queued");
        self.remove(task);
        self.enqueue(array, task, prio);
    }

    /// `sys_sched_yield` for a SCHED_OTHER task: out of whichever array it is in,
    /// into the expired one at the same priority, so that every task in the active
    /// array runs before it again.
    pub fn sched_yield(&mut self, task: TaskId) {
        let (_, prio) = self.find(task).expect("a yielding task is queued");
        self.remove(task);
        self.enqueue(Array::Expired, task, prio);
    }

    /// Whether `pick` would swap the arrays first.
    pub fn active_empty(&self) -> bool {
        self.nr_active == 0
    }

    /// `schedule()`'s pick: the first task of the best non-empty priority in the
    /// active array (it stays queued); if the active array is empty, swap first.
    pub fn pick(&mut self) -> Option<TaskId> {
        if self.active_empty() {
            if self.nr_running == 0 {
                self.expired_since_ns = None;
                return None;
            }
            self.active_slot = 1 - self.active_slot;
            self.nr_active = self.nr_running;
            self.expired_since_ns = None;
            self.swaps += 1;
        }
        let bitmap = &self.bitmaps[self.active_slot];
        let word = bitmap.iter().position(|&word| word != 0)?;
        let prio = word * 64 + bitmap[word].trailing_zeros() as usize;
        let first = self.arrays[self.active_slot][prio].front().copied();
        assert!(first.is_some(), "the bitmap marks priority {prio} non-empty");
        first
    }

    /// Tasks in the active and expired arrays with their priorities, best first (for the view).
    pub fn arrays(&self) -> (ArrayView, ArrayView) {
        let flatten = |arrays: &Vec<VecDeque<TaskId>>| {
            arrays
                .iter()
                .enumerate()
                .flat_map(|(prio, list)| list.iter().map(move |&t| (prio as i32, t)))
                .collect()
        };
        let (active, expired): (ArrayView, ArrayView) =
            (flatten(&self.arrays[self.active_slot]), flatten(&self.arrays[1 - self.active_slot]));
        assert_eq!(active.len(), self.nr_active, "nr_active counts the active array");
        assert_eq!(active.len() + expired.len(), self.nr_running, "nr_running counts both arrays");
        (active, expired)
    }
}

impl RunQueue {
    /// move_tasks' next task to pull from this queue: the expired array first, then
    /// (when no expired task may move) the active one, as move_tasks goes on to the
    /// active array after the expired one's last priority; in an array, the best
    /// priority with a task that may move, from its list's tail; never the running
    /// task, nor one `movable` refuses (cpus_allowed).
    pub fn pull_candidate(
        &self,
        running: Option<TaskId>,
        movable: impl Fn(TaskId) -> bool,
    ) -> Option<(Array, TaskId)> {
        let (active, expired) = self.arrays();
        let may = |t: TaskId| Some(t) != running && movable(t);
        let pick = |list: &ArrayView| {
            let best = list.iter().map(|&(p, _)| p).find(|&p| list.iter().any(|&(q, t)| q == p && may(t)))?;
            list.iter().rev().find(|&&(q, t)| q == best && may(t)).map(|&(_, task)| task)
        };
        pick(&expired)
            .map(|task| (Array::Expired, task))
            .or_else(|| pick(&active).map(|task| (Array::Active, task)))
    }
}

impl RunQueue {
    /// move_tasks' `all_pinned`: no task on this queue, the running one included, may
    /// run on the pulling CPU (`movable` is its cpus_allowed test).
    pub fn all_pinned(&self, movable: impl Fn(TaskId) -> bool) -> bool {
        let (active, expired) = self.arrays();
        !active.iter().chain(expired.iter()).any(|&(_, task)| movable(task))
    }
}

/// load_balance as the models run it, for `this` CPU given every CPU's `loads`
/// (tasks on its run queue now, not 2.6.14's decayed cpu_load): the busiest other
/// CPU (ties: the lowest number) and how many tasks to pull, half the difference,
/// when it has at least two more.
pub fn balance_plan(loads: &[usize], this: usize) -> Option<(usize, usize)> {
    let n = loads.len();
    let busiest = (0..n).filter(|&c| c != this).max_by_key(|&c| (loads[c], n - c))?;
    let (mine, theirs) = (loads[this], loads[busiest]);
    (theirs >= mine + 2).then(|| (busiest, (theirs - mine) / 2))
}

/// SD_CPU_INIT at 2.6.14 (include/linux/topology.h, the one domain of an SMP machine
/// without SMT or NUMA): the balancing interval starts at and returns to `min_interval`.
pub const SD_MIN_INTERVAL_MS: u64 = 1;
/// SD_CPU_INIT's `max_interval`: the interval doubles up to it while balanced.
pub const SD_MAX_INTERVAL_MS: u64 = 4;
/// SD_CPU_INIT's `busy_factor`: a busy CPU balances this many times less often.
pub const SD_BUSY_FACTOR: u64 = 64;
/// CONFIG_NR_CPUS's default on i386 (arch/i386/Kconfig), for rebalance_tick's
/// `CPU_OFFSET(cpu)`, which staggers the CPUs' balancing.
pub const NR_CPUS: u64 = 8;

/// MAX_PINNED_INTERVAL (kernel/sched.c at 2.6.14, before load_balance): how far, in ms,
/// the interval backs off while every task load_balance could pull is pinned elsewhere.
pub const MAX_PINNED_INTERVAL_MS: u64 = 512;

/// What one load_balance found, for the interval's tuning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Balance {
    /// No imbalance (find_busiest_group found none).
    Balanced,
    /// An imbalance and move_tasks ran (whether or not a task could move).
    Tried,
    /// An imbalance, but no task of the busiest queue may run on this CPU.
    AllPinned,
}

/// One CPU's balancing clock in its sched domain (`sd->last_balance`, in jiffies since
/// the domain was built, and `sd->balance_interval`, in ms): rebalance_tick at 2.6.14.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BalanceTimer {
    pub last_balance: u64,
    pub interval_ms: u64,
}

impl Default for BalanceTimer {
    fn default() -> Self {
        BalanceTimer { last_balance: 0, interval_ms: SD_MIN_INTERVAL_MS }
    }
}

impl BalanceTimer {
    /// The interval rebalance_tick waits, in jiffies: `balance_interval`, times
    /// `busy_factor` unless idle, through msecs_to_jiffies, at least one.
    pub fn interval_jiffies(&self, hz: u64, idle: bool) -> u64 {
        let ms = if idle { self.interval_ms } else { self.interval_ms * SD_BUSY_FACTOR };
        (ms * hz).div_ceil(1000).max(1)
    }

    /// rebalance_tick on `cpu` at `jiffies`: whether load_balance runs now (`j −
    /// last_balance ≥ interval`, `j` ahead by CPU_OFFSET); if so, `last_balance` moves
    /// on by the interval (not to now: a CPU behind catches up tick by tick).
    pub fn due(&mut self, cpu: u64, jiffies: u64, hz: u64, idle: bool) -> bool {
        let j = jiffies + hz * cpu / NR_CPUS;
        let interval = self.interval_jiffies(hz, idle);
        if j.saturating_sub(self.last_balance) < interval {
            return false;
        }
        self.last_balance += interval;
        true
    }

    /// load_balance's tuning of the interval: reset to `min_interval` after it tried to
    /// move tasks (active balancing is not modelled); doubled while below `max_interval`
    /// when balanced (`out_balanced`), or while below MAX_PINNED_INTERVAL when every
    /// task it found was pinned elsewhere (`all_pinned`, which also goes to out_balanced).
    pub fn balanced(&mut self, outcome: Balance) {
        let cap = if outcome == Balance::AllPinned { MAX_PINNED_INTERVAL_MS } else { SD_MAX_INTERVAL_MS };
        self.interval_ms = match outcome {
            Balance::Tried => SD_MIN_INTERVAL_MS,
            Balance::Balanced | Balance::AllPinned if self.interval_ms < cap => self.interval_ms * 2,
            Balance::Balanced | Balance::AllPinned => self.interval_ms,
        };
    }
}
