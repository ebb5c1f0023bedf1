//! EEVDF, the fair class of today's kernel (kernel/sched/fair.c as of v6.18): one
//! CPU's run queue of tasks with weights, virtual runtimes, lags and virtual
//! deadlines. Pure rules, unit-tested one by one in `tests.rs`.
//!
//! Our own simplified rendering of fair.c at v6.18
//! (<https://elixir.bootlin.com/linux/v6.18/source/kernel/sched/fair.c>): a flat run
//! queue (no cgroups, so no group entities), every task with the default slice.
//! Model choices: `calc_delta_fair` divides exactly instead of the kernel's
//! fixed-point inverse weights (they differ in the last nanoseconds), and a task that
//! sleeps while not eligible leaves with zero lag instead of staying on the queue as
//! a delayed-dequeue entity (DELAY_DEQUEUE): picked once eligible, that ends the same
//! way, later; but woken first, v6.18's task keeps its negative lag and old deadline
//! and cannot preempt until it is eligible, where this model's is placed at V with a
//! fresh deadline.

/// A nice-0 task's weight (NICE_0_LOAD, scale_load_down'ed).
pub const NICE_0_WEIGHT: u64 = 1024;

/// sched_prio_to_weight: nice −20 to 19, each step ≈ 1.25 ×.
const PRIO_TO_WEIGHT: [u64; 40] = [
    88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916, 9548, 7620, 6100, 4904, 3906, 3121,
    2501, 1991, 1586, 1277, 1024, 820, 655, 526, 423, 335, 272, 215, 172, 137, 110, 87, 70, 56, 45, 36, 29,
    23, 18, 15,
];

/// The weight of a task at `nice` (clamped to −20..=19).
pub fn weight_of_nice(nice: i32) -> u64 {
    PRIO_TO_WEIGHT[(nice.clamp(-20, 19) + 20) as usize]
}

/// normalized_sysctl_sched_base_slice: 0.70 ms since v6.15 (it was 0.75 ms; "Reduce
/// the default slice to avoid tasks getting an extra tick").
pub const NORMALIZED_BASE_SLICE_NS: u64 = 700_000;

/// sysctl_sched_base_slice: 0.70 ms × (1 + ilog2(CPUs)), CPUs counted up to 8
/// (get_update_sysctl_factor with the default SCHED_TUNABLESCALING_LOG, applied at
/// boot by update_sysctl from sched_init_granularity and rq_online_fair;
/// sched_update_scaling is the inverse, for a write to the sysctl).
pub fn base_slice_ns(cpus: u32) -> u64 {
    NORMALIZED_BASE_SLICE_NS * (1 + u64::from(cpus.clamp(1, 8).ilog2()))
}

/// calc_delta_fair: real time `delta_ns` as virtual time for a task of `weight`.
pub fn calc_delta_fair(delta_ns: u64, weight: u64) -> u64 {
    if weight == NICE_0_WEIGHT {
        delta_ns
    } else {
        (u128::from(delta_ns) * u128::from(NICE_0_WEIGHT) / u128::from(weight.max(1))) as u64
    }
}

/// The scheduler features this model follows (`/sys/kernel/debug/sched/features`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Keep an eligible current task running until its protected vruntime
    /// (its deadline, with equal slices) even if a waiting task's deadline is earlier.
    pub run_to_parity: bool,
    /// A woken task keeps the lag it had when it went to sleep.
    pub place_lag: bool,
    /// A new task's first deadline is half a slice away.
    pub place_deadline_initial: bool,
}

/// v6.18's defaults.
pub const DEFAULT_FEATURES: Features =
    Features { run_to_parity: true, place_lag: true, place_deadline_initial: true };

/// One task's scheduling entity. Virtual times are in virtual nanoseconds, signed:
/// placement can put a task behind zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entity {
    pub weight: u64,
    pub vruntime: i64,
    pub deadline: i64,
    /// Lag kept while asleep: V − vruntime when it left, clamped.
    pub vlag: i64,
    /// The slice it asks for (real ns).
    pub slice_ns: u64,
    /// RUN_TO_PARITY: the vruntime up to which the current task is not preempted.
    pub vprot: i64,
    /// On the run queue (queued or current).
    pub on_rq: bool,
    /// PLACE_REL_DEADLINE (on by default): `deadline` holds deadline − vruntime, kept
    /// by a dequeue that is not a sleep (a migration) for the next `place_entity`.
    pub rel_deadline: bool,
}

/// How a task joins the queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Enqueue {
    /// A new task (ENQUEUE_INITIAL).
    Initial,
    /// Woken from sleep.
    Wakeup,
}

/// V of one queue in parts: Σ vruntime·weight and Σ weight over its tasks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Balance {
    sum: i128,
    load: i128,
    zero_vruntime: i64,
}

impl Balance {
    /// avg_vruntime: the weighted average, rounded down; zero_vruntime for an empty queue.
    pub fn avg_vruntime(self) -> i64 {
        if self.load == 0 {
            return self.zero_vruntime;
        }
        self.sum.div_euclid(self.load) as i64
    }

    /// vruntime_eligible: `vruntime` ≤ V, compared without the division.
    pub fn eligible(self, vruntime: i64) -> bool {
        self.sum >= i128::from(vruntime) * self.load
    }
}

/// One CPU's fair run queue. Entities are indexed by the caller's task number; the
/// current task is on the queue but not among the waiting ones, as in the kernel's tree.
#[derive(Clone, Debug)]
pub struct RunQueue {
    pub entities: Vec<Entity>,
    pub curr: Option<usize>,
    pub features: Features,
    pub base_slice_ns: u64,
    pub tick_ns: u64,
    /// zero_vruntime: where V is taken when the queue is empty.
    pub zero_vruntime: i64,
    /// rq->cfs_tasks as an order: when each task was last put at the list's front (on
    /// enqueue, and when picked: the list is most recently used first). Load balancing
    /// detaches from the tail, the smallest here.
    pub mru: Vec<u64>,
    mru_clock: u64,
}

impl RunQueue {
    /// `tasks` nice-`nice` tasks, none on the queue yet.
    pub fn new(tasks: usize, nice: i32, cpus: u32, hz: u64, features: Features) -> RunQueue {
        let slice = base_slice_ns(cpus);
        let entity = Entity {
            weight: weight_of_nice(nice),
            vruntime: 0,
            deadline: 0,
            vlag: 0,
            slice_ns: slice,
            vprot: 0,
            on_rq: false,
            rel_deadline: false,
        };
        RunQueue {
            entities: vec![entity; tasks],
            curr: None,
            features,
            base_slice_ns: slice,
            tick_ns: 1_000_000_000 / hz.max(1),
            zero_vruntime: 0,
            mru: vec![0; tasks],
            mru_clock: 0,
        }
    }

    /// `list_add`/`list_move` of `task` to the front of rq->cfs_tasks.
    fn touch(&mut self, task: usize) {
        self.mru_clock += 1;
        self.mru[task] = self.mru_clock;
    }

    /// Tasks on the queue, the current one included (cfs_rq->nr_queued).
    pub fn nr_queued(&self) -> usize {
        self.entities.iter().filter(|e| e.on_rq).count()
    }

    fn vslice(&self, task: usize) -> i64 {
        let e = &self.entities[task];
        calc_delta_fair(e.slice_ns, e.weight) as i64
    }

    /// avg_vruntime: V, the weighted average vruntime of every task on the queue,
    /// rounded down; zero_vruntime when the queue is empty.
    pub fn avg_vruntime(&self) -> i64 {
        self.balance().avg_vruntime()
    }

    /// V's parts as the queue stands, for testing many tasks against one V: the kernel
    /// keeps them as it goes (`avg_vruntime`, `avg_load`); summing them for each task
    /// made a pick over n tasks cost n².
    pub fn balance(&self) -> Balance {
        let (sum, load) = self.entities.iter().filter(|e| e.on_rq).fold((0, 0), |(sum, load), e| {
            (sum + i128::from(e.vruntime) * i128::from(e.weight), load + i128::from(e.weight))
        });
        Balance { sum, load, zero_vruntime: self.zero_vruntime }
    }

    /// entity_eligible: the task is owed service, vruntime ≤ V (compared without the
    /// division, as vruntime_eligible does).
    pub fn eligible(&self, task: usize) -> bool {
        self.balance().eligible(self.entities[task].vruntime)
    }

    /// place_entity and enqueue: a task joins at V less its lag (scaled up by PLACE_LAG
    /// so that adding it does not move V away from what it is owed), its deadline one
    /// virtual slice later (half for a new task), or, for a migrated task
    /// (`rel_deadline`, PLACE_REL_DEADLINE), as far after its vruntime as before.
    pub fn enqueue(&mut self, task: usize, how: Enqueue) {
        assert!(!self.entities[task].on_rq, "task {task} enqueued twice");
        let balance = self.balance();
        let (v, load) = (balance.avg_vruntime(), balance.load);
        let e = self.entities[task];
        let mut lag = 0i128;
        if self.features.place_lag && load > 0 && e.vlag != 0 {
            lag = i128::from(e.vlag) * (load + i128::from(e.weight)) / load;
        }
        let mut vslice = self.vslice(task);
        if self.features.place_deadline_initial && how == Enqueue::Initial {
            vslice /= 2;
        }
        let e = &mut self.entities[task];
        e.vruntime = v - lag as i64;
        e.deadline = e.vruntime + if e.rel_deadline { e.deadline } else { vslice };
        e.rel_deadline = false;
        e.on_rq = true;
        self.touch(task);
    }

    /// dequeue for sleep: update_entity_lag keeps V − vruntime, clamped to the virtual
    /// time of max(2 slices, one tick). Not eligible: leaves with zero lag (model choice).
    pub fn dequeue_sleep(&mut self, task: usize) {
        assert!(self.entities[task].on_rq, "task {task} is not queued");
        let v = self.avg_vruntime();
        let eligible = self.eligible(task);
        let tick = self.tick_ns;
        let e = &mut self.entities[task];
        let limit = calc_delta_fair((2 * e.slice_ns).max(tick), e.weight) as i64;
        e.vlag = if eligible { (v - e.vruntime).clamp(-limit, limit) } else { 0 };
        e.on_rq = false;
        if self.curr == Some(task) {
            self.curr = None;
        }
        if self.nr_queued() == 0 {
            self.zero_vruntime = v;
        }
    }

    /// dequeue for a migration (detach_task): update_entity_lag keeps V − vruntime,
    /// clamped as for a sleep, whether eligible or not (no delayed dequeue: the task is
    /// not going to sleep), and, not being a sleep, PLACE_REL_DEADLINE keeps its
    /// deadline relative to its vruntime (`rel_deadline`): it keeps what is left of its
    /// slice. The entity is for the destination's `place_entity` ([`RunQueue::adopt`]).
    pub fn dequeue_migrate(&mut self, task: usize) -> Entity {
        assert!(self.entities[task].on_rq && self.curr != Some(task), "task {task} is not waiting here");
        let v = self.avg_vruntime();
        let tick = self.tick_ns;
        let e = &mut self.entities[task];
        let limit = calc_delta_fair((2 * e.slice_ns).max(tick), e.weight) as i64;
        e.vlag = (v - e.vruntime).clamp(-limit, limit);
        e.deadline -= e.vruntime;
        e.rel_deadline = true;
        e.on_rq = false;
        let left = *e;
        if self.nr_queued() == 0 {
            self.zero_vruntime = v;
        }
        left
    }

    /// A task arriving from another CPU's queue (a migration, or a wakeup placed on
    /// another CPU): it brings its weight, slice and kept lag; `enqueue` places it.
    pub fn adopt(&mut self, task: usize, from: &Entity) {
        assert!(!self.entities[task].on_rq, "task {task} is queued here already");
        self.entities[task] = Entity { on_rq: false, ..*from };
    }

    /// The task load balancing would detach: a queued task, not the current one, that
    /// `movable` allows, from the tail of rq->cfs_tasks (the least recently enqueued or
    /// picked). detach_tasks' cache-hotness test (`task_hot`) is not modelled.
    pub fn migration_candidate(&self, movable: impl Fn(usize) -> bool) -> Option<usize> {
        (0..self.entities.len())
            .filter(|&t| self.entities[t].on_rq && self.curr != Some(t) && movable(t))
            .min_by_key(|&t| (self.mru[t], t))
    }

    /// update_curr: the current task ran `delta_ns`; its vruntime advances by the
    /// virtual time, and update_deadline gives it a new slice when it has reached its
    /// deadline. Returns whether to reschedule: with others waiting, a new deadline or
    /// a protected slice used up (`!protect_slice(curr)`: its vruntime has reached its
    /// protected vruntime, which a task picked again keeps from before).
    pub fn update_curr(&mut self, delta_ns: u64) -> bool {
        let Some(task) = self.curr else { return false };
        let vslice = self.vslice(task);
        let others = self.nr_queued() > 1;
        let e = &mut self.entities[task];
        e.vruntime += calc_delta_fair(delta_ns, e.weight) as i64;
        let renewed = e.vruntime >= e.deadline;
        if renewed {
            e.deadline = e.vruntime + vslice;
        }
        others && (renewed || e.vruntime >= e.vprot)
    }

    /// pick_eevdf: among the eligible tasks, the earliest virtual deadline; the current
    /// task stays if it is eligible and `protect` and RUN_TO_PARITY hold while its
    /// vruntime is below its protected vruntime. A queued task with the same deadline
    /// as the current one wins, as in `__pick_eevdf`; among queued tasks, the lower
    /// task number (model choice for the tree's order among equals).
    pub fn pick(&self, protect: bool) -> Option<usize> {
        let queued: Vec<usize> = (0..self.entities.len()).filter(|&t| self.entities[t].on_rq).collect();
        if queued.len() <= 1 {
            return queued.first().copied();
        }
        let balance = self.balance();
        let eligible = |t: usize| balance.eligible(self.entities[t].vruntime);
        let curr = self.curr.filter(|&c| self.entities[c].on_rq && eligible(c));
        if let Some(c) = curr {
            if self.features.run_to_parity && protect && self.entities[c].vruntime < self.entities[c].vprot {
                return Some(c);
            }
        }
        let best = queued
            .iter()
            .copied()
            .filter(|&t| Some(t) != self.curr && eligible(t))
            .min_by_key(|&t| (self.entities[t].deadline, t));
        match (best, curr) {
            (Some(b), Some(c)) if self.entities[c].deadline < self.entities[b].deadline => Some(c),
            (Some(b), _) => Some(b),
            (None, c) => c.or(self.curr),
        }
    }

    /// set_next_entity: `task` becomes current; with equal slices set_protect_slice
    /// protects it up to its deadline.
    pub fn set_next(&mut self, task: usize) {
        assert!(self.entities[task].on_rq, "task {task} picked but not queued");
        self.curr = Some(task);
        self.touch(task);
        let min_slice =
            self.entities.iter().filter(|e| e.on_rq).map(|e| e.slice_ns).min().unwrap_or(self.base_slice_ns);
        let e = &mut self.entities[task];
        let slice = if self.features.run_to_parity { min_slice } else { self.base_slice_ns }.min(e.slice_ns);
        e.vprot = e.deadline;
        if slice != e.slice_ns {
            e.vprot = e.vprot.min(e.vruntime + calc_delta_fair(slice, e.weight) as i64);
        }
    }

    /// check_preempt_wakeup_fair for a task just enqueued by a wakeup: it preempts the
    /// current task if pick_eevdf (protecting the current one, as no slice is shorter)
    /// would choose it. The caller has run update_curr first.
    pub fn wakeup_preempts(&self, woken: usize) -> bool {
        match self.curr {
            None => true,
            Some(c) if c == woken => false,
            Some(_) => self.pick(true) == Some(woken),
        }
    }

    /// enqueue_task_fair and wakeup_preempt for a task that wakes (or a new one): the
    /// current task is charged for `ran_ns` first (update_curr). Whether the current
    /// task must reschedule: its slice ran out as it was charged, or the woken task
    /// would be picked before it.
    pub fn wake(&mut self, task: usize, how: Enqueue, ran_ns: u64) -> bool {
        let slice_over = self.curr.is_some() && self.update_curr(ran_ns);
        self.enqueue(task, how);
        slice_over || self.wakeup_preempts(task)
    }

    /// schedule()'s part in the fair class: `prev` charged for `ran_ns` and taken off
    /// the queue if it sleeps, then pick_eevdf (the current task kept while
    /// RUN_TO_PARITY protects it) and set_next_entity; the same task picked again
    /// keeps its protection (put_prev_set_next_task does nothing).
    pub fn schedule(&mut self, prev: Option<usize>, ran_ns: u64, prev_sleeps: bool) -> Option<usize> {
        if prev.is_some() && self.curr.is_some() {
            self.update_curr(ran_ns);
        }
        if let (Some(p), true) = (prev, prev_sleeps) {
            self.dequeue_sleep(p);
        }
        let next = self.pick(true);
        if let Some(n) = next {
            if self.curr != Some(n) {
                self.set_next(n);
            }
        }
        next
    }

    /// yield_task_fair: alone on the queue, nothing; else the current task is charged
    /// for `ran_ns` and, if eligible, gives up the rest of its request: its vruntime
    /// jumps to its deadline and the deadline moves a slice on. Whether it did.
    pub fn yield_curr(&mut self, ran_ns: u64) -> bool {
        let Some(task) = self.curr else { return false };
        if self.nr_queued() <= 1 {
            return false;
        }
        self.update_curr(ran_ns);
        if !self.eligible(task) {
            return false;
        }
        let vslice = self.vslice(task);
        let e = &mut self.entities[task];
        e.vruntime = e.deadline;
        e.deadline += vslice;
        true
    }

    /// V − vruntime: what the queue owes `task` (positive: it is behind).
    pub fn lag(&self, task: usize) -> i64 {
        self.avg_vruntime() - self.entities[task].vruntime
    }

    /// How long the current task runs before a tick finds its slice used up
    /// (update_curr at each tick: the slice ends at the first tick at or after its
    /// deadline or its protected vruntime), counted from a tick boundary.
    pub fn run_until_tick_resched_ns(&self) -> Option<u64> {
        let task = self.curr?;
        let e = &self.entities[task];
        // The deadline, or a stale protection that runs out first (update_curr's rule).
        let left_virtual = (e.deadline.min(e.vprot) - e.vruntime).max(0) as u64;
        // Real time to cover the virtual time left: the inverse of calc_delta_fair.
        let left_ns =
            (u128::from(left_virtual) * u128::from(e.weight)).div_ceil(u128::from(NICE_0_WEIGHT)) as u64;
        Some(left_ns.div_ceil(self.tick_ns).max(1) * self.tick_ns)
    }
}

/// Where a waking task is placed (select_task_rq_fair), simplified: its previous CPU
/// if idle, else the first idle CPU after it (wrapping, as select_idle_cpu scans from
/// the target), else its previous CPU. `idle` says, per CPU, whether it is idle and the
/// task may run there. The kernel's select_idle_sibling also weighs wake_affine (the
/// waker's CPU), cache domains, SMT siblings and recent use (`recent_used_cpu`).
pub fn select_idle_sibling(prev: usize, idle: &[bool]) -> usize {
    let n = idle.len();
    if idle.get(prev).copied().unwrap_or(false) || n == 0 {
        return prev;
    }
    (1..n).map(|step| (prev + step) % n).find(|&cpu| idle[cpu]).unwrap_or(prev)
}

#[cfg(test)]
mod tests;
