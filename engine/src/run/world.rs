//! The simulated machine's state at one instant, and the effects that change it.
//!
//! A case's simulation decides *what* happens; it records each decision as
//! [`Effect`]s. The world applies them and asserts the invariants that must
//! hold whatever the case does (a writer never shares a lock, time never
//! goes backwards, a CPU runs one task). Replaying the same effects from a
//! checkpoint rebuilds the same state, which is how seeking works.

use crate::run::lock::{LockKind, LockMode, LockState};
use crate::run::wire::codec::{wire_enum, wire_struct};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TaskId(pub u32);
wire_struct!(TaskId(0));

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct LockId(pub u32);
wire_struct!(LockId(0));

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct GroupId(pub u32);
wire_struct!(GroupId(0));

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct CounterId(pub u16);
wire_struct!(CounterId(0));

/// What a wait channel is called ("select() on test.fifo", "think time").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ChannelId(pub u16);
wire_struct!(ChannelId(0));

/// A task's state. The accounting bucket it charges follows from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "state", rename_all = "snake_case"))]
pub enum TaskState {
    /// Created but not yet started by the case.
    New,
    RunningUser {
        cpu: u16,
    },
    RunningKernel {
        cpu: u16,
    },
    /// On a CPU, burning it while waiting for a lock (optimistic spinning): sys time.
    Spinning {
        cpu: u16,
        lock: LockId,
    },
    /// Ready, waiting for a CPU.
    Runnable,
    Sleeping {
        channel: ChannelId,
    },
    BlockedOnLock {
        lock: LockId,
    },
    Stopped,
    Exiting {
        cpu: u16,
    },
    Dead,
}
wire_enum!(TaskState {
    0 => New, 1 => RunningUser { cpu }, 2 => RunningKernel { cpu }, 3 => Spinning { cpu, lock }, 4 => Runnable,
    5 => Sleeping { channel }, 6 => BlockedOnLock { lock }, 7 => Stopped, 8 => Exiting { cpu }, 9 => Dead,
});

/// Where a task's time goes; the five buckets add up to its lifetime.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Bucket {
    User = 0,
    Sys = 1,
    /// Runnable, waiting for a CPU.
    Runnable = 2,
    /// Blocked on a lock (asleep in its wait queue).
    Blocked = 3,
    /// Sleeping for any other reason, or stopped.
    Sleep = 4,
}

pub const BUCKETS: usize = 5;

impl TaskState {
    pub fn cpu(self) -> Option<u16> {
        match self {
            TaskState::RunningUser { cpu }
            | TaskState::RunningKernel { cpu }
            | TaskState::Spinning { cpu, .. }
            | TaskState::Exiting { cpu } => Some(cpu),
            _ => None,
        }
    }

    /// The bucket this state charges, or None for states that charge nothing (dead).
    pub fn bucket(self) -> Option<Bucket> {
        match self {
            TaskState::RunningUser { .. } => Some(Bucket::User),
            TaskState::RunningKernel { .. } | TaskState::Spinning { .. } | TaskState::Exiting { .. } => {
                Some(Bucket::Sys)
            }
            TaskState::Runnable => Some(Bucket::Runnable),
            TaskState::BlockedOnLock { .. } => Some(Bucket::Blocked),
            TaskState::Sleeping { .. } | TaskState::Stopped => Some(Bucket::Sleep),
            // Not yet started: the task does not exist yet, so none of its time is sleep.
            TaskState::New => None,
            TaskState::Dead => None,
        }
    }
}

/// One change to the world. Recorded on every micro-op: "what it changed".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "effect", rename_all = "snake_case"))]
pub enum Effect {
    SetState {
        task: TaskId,
        state: TaskState,
    },
    /// Adds to a case counter (iterations, pages skipped, writes...).
    Count {
        counter: CounterId,
        delta: u64,
    },
    /// Takes from a case counter that can go down (bytes in a pipe, open ends).
    Decrease {
        counter: CounterId,
        delta: u64,
    },
    /// Sets a per-task gauge (sleep_avg, dynamic priority...): case-defined meaning.
    Gauge {
        task: TaskId,
        gauge: u8,
        value: i64,
    },
    /// `task` now holds `lock`. `waited_ns` is how long it waited (0: uncontended);
    /// if it was queued, it leaves the queue.
    Acquire {
        lock: LockId,
        task: TaskId,
        mode: LockMode,
        waited_ns: u64,
    },
    /// `task` joins the tail of `lock`'s wait queue.
    Enqueue {
        lock: LockId,
        task: TaskId,
        mode: LockMode,
    },
    Release {
        lock: LockId,
        task: TaskId,
    },
    /// The rwsem/mutex handoff flag: the lock is reserved for the first waiter.
    SetHandoff {
        lock: LockId,
        on: bool,
    },
}
wire_enum!(Effect {
    0 => SetState { task, state },
    1 => Count { counter, delta },
    2 => Decrease { counter, delta },
    3 => Gauge { task, gauge, value },
    4 => Acquire { lock, task, mode, waited_ns },
    5 => Enqueue { lock, task, mode },
    6 => Release { lock, task },
    7 => SetHandoff { lock, on },
});

/// Per-task bookkeeping. Time is charged lazily: `buckets` holds what was charged
/// up to `since_ns`, and the current state charges from `since_ns` onwards.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TaskRt {
    pub state: TaskState,
    pub since_ns: u64,
    pub buckets_ns: [u64; BUCKETS],
    pub gauges: Vec<i64>,
}
wire_struct!(TaskRt { state, since_ns, buckets_ns, gauges });

#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct World {
    pub now_ns: u64,
    pub tasks: Vec<TaskRt>,
    pub locks: Vec<LockState>,
    pub counters: Vec<u64>,
    /// Which task each CPU runs.
    pub cpu_task: Vec<Option<TaskId>>,
    /// Idle time per CPU, charged lazily like task time.
    pub cpu_idle_ns: Vec<u64>,
    pub cpu_since_ns: Vec<u64>,
}
wire_struct!(World { now_ns, tasks, locks, counters, cpu_task, cpu_idle_ns, cpu_since_ns });

/// The static shape of a world: what exists, with names. Shared by every state of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Layout {
    pub cpus: u16,
    pub tasks: Vec<TaskInfo>,
    pub groups: Vec<String>,
    pub locks: Vec<LockInfo>,
    pub counters: Vec<String>,
    pub gauges: Vec<String>,
    pub channels: Vec<String>,
}
wire_struct!(Layout { cpus, tasks, groups, locks, counters, gauges, channels });

#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TaskInfo {
    pub name: String,
    pub group: GroupId,
}
wire_struct!(TaskInfo { name, group });

#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct LockInfo {
    pub name: String,
    pub kind: LockKind,
}
wire_struct!(LockInfo { name, kind });

impl Layout {
    pub fn new(cpus: u16) -> Layout {
        assert!(cpus >= 1, "a machine has at least one CPU");
        Layout {
            cpus,
            tasks: Vec::new(),
            groups: Vec::new(),
            locks: Vec::new(),
            counters: Vec::new(),
            gauges: Vec::new(),
            channels: Vec::new(),
        }
    }

    pub fn add_group(&mut self, name: impl Into<String>) -> GroupId {
        self.groups.push(name.into());
        GroupId(u32::try_from(self.groups.len() - 1).expect("fewer than 2^32 groups"))
    }

    pub fn add_task(&mut self, name: impl Into<String>, group: GroupId) -> TaskId {
        assert!((group.0 as usize) < self.groups.len());
        self.tasks.push(TaskInfo { name: name.into(), group });
        TaskId(u32::try_from(self.tasks.len() - 1).expect("fewer than 2^32 tasks"))
    }

    pub fn add_lock(&mut self, name: impl Into<String>, kind: LockKind) -> LockId {
        self.locks.push(LockInfo { name: name.into(), kind });
        LockId(u32::try_from(self.locks.len() - 1).expect("fewer than 2^32 locks"))
    }

    pub fn add_counter(&mut self, name: impl Into<String>) -> CounterId {
        self.counters.push(name.into());
        CounterId(u16::try_from(self.counters.len() - 1).expect("fewer than 2^16 counters"))
    }

    pub fn add_gauge(&mut self, name: impl Into<String>) -> u8 {
        self.gauges.push(name.into());
        u8::try_from(self.gauges.len() - 1).expect("fewer than 256 gauges")
    }

    pub fn add_channel(&mut self, name: impl Into<String>) -> ChannelId {
        self.channels.push(name.into());
        ChannelId(u16::try_from(self.channels.len() - 1).expect("fewer than 2^16 channels"))
    }

    pub fn task_name(&self, task: TaskId) -> &str {
        &self.tasks[task.0 as usize].name
    }

    pub fn lock_name(&self, lock: LockId) -> &str {
        &self.locks[lock.0 as usize].name
    }

    pub fn counter(&self, name: &str) -> Option<CounterId> {
        let index = self.counters.iter().position(|counter| counter == name)?;
        Some(CounterId(u16::try_from(index).expect("counters fit u16")))
    }
}

impl World {
    /// Time zero: every task `New`, every CPU idle, every lock free.
    pub fn new(layout: &Layout) -> World {
        World {
            now_ns: 0,
            tasks: layout
                .tasks
                .iter()
                .map(|_| TaskRt {
                    state: TaskState::New,
                    since_ns: 0,
                    buckets_ns: [0; BUCKETS],
                    gauges: vec![0; layout.gauges.len()],
                })
                .collect(),
            locks: layout.locks.iter().map(|info| LockState::new(info.kind)).collect(),
            counters: vec![0; layout.counters.len()],
            cpu_task: vec![None; usize::from(layout.cpus)],
            cpu_idle_ns: vec![0; usize::from(layout.cpus)],
            cpu_since_ns: vec![0; usize::from(layout.cpus)],
        }
    }

    /// Moves the clock forward. Time never goes backwards.
    pub fn advance_to(&mut self, at_ns: u64) {
        assert!(at_ns >= self.now_ns, "time went backwards: {} -> {}", self.now_ns, at_ns);
        self.now_ns = at_ns;
    }

    pub fn apply(&mut self, effect: &Effect) {
        match *effect {
            Effect::SetState { task, state } => self.set_state(task, state),
            Effect::Count { counter, delta } => {
                let slot = &mut self.counters[usize::from(counter.0)];
                *slot = slot.checked_add(delta).expect("counter overflow");
            }
            Effect::Decrease { counter, delta } => {
                let slot = &mut self.counters[usize::from(counter.0)];
                *slot = slot.checked_sub(delta).expect("counter went below zero");
            }
            Effect::Gauge { task, gauge, value } => {
                self.tasks[task.0 as usize].gauges[usize::from(gauge)] = value;
            }
            Effect::Acquire { lock, task, mode, waited_ns } => {
                let now = self.now_ns;
                self.locks[lock.0 as usize].acquire(task, mode, waited_ns, now);
            }
            Effect::Enqueue { lock, task, mode } => {
                let now = self.now_ns;
                self.locks[lock.0 as usize].enqueue(task, mode, now);
            }
            Effect::Release { lock, task } => {
                let now = self.now_ns;
                self.locks[lock.0 as usize].release(task, now);
            }
            Effect::SetHandoff { lock, on } => self.locks[lock.0 as usize].handoff = on,
        }
    }

    fn set_state(&mut self, task: TaskId, state: TaskState) {
        let now = self.now_ns;
        let index = task.0 as usize;
        let old = self.tasks[index].state;
        assert!(old != TaskState::Dead, "task {} changed state after death", task.0);
        self.charge_task(index);
        if let Some(cpu) = old.cpu() {
            let slot = usize::from(cpu);
            assert_eq!(self.cpu_task[slot], Some(task), "cpu {cpu} bookkeeping");
            self.cpu_task[slot] = None;
            self.cpu_since_ns[slot] = now;
        }
        if let Some(cpu) = state.cpu() {
            let slot = usize::from(cpu);
            assert!(slot < self.cpu_task.len(), "no cpu {cpu}");
            assert_eq!(
                self.cpu_task[slot], None,
                "cpu {cpu} already runs a task; cannot run task {}",
                task.0
            );
            self.cpu_idle_ns[slot] += now - self.cpu_since_ns[slot];
            self.cpu_task[slot] = Some(task);
        }
        self.tasks[index].state = state;
    }

    /// Charges a task's current state up to now and restarts its lazy interval.
    fn charge_task(&mut self, index: usize) {
        let now = self.now_ns;
        let task = &mut self.tasks[index];
        if let Some(bucket) = task.state.bucket() {
            task.buckets_ns[bucket as usize] += now - task.since_ns;
        }
        task.since_ns = now;
    }

    /// Charges everything up to now, so that the lazy intervals all start at now.
    /// Repeats start from a normalized world so that their deltas are exact.
    pub fn normalize(&mut self) {
        let now = self.now_ns;
        for index in 0..self.tasks.len() {
            self.charge_task(index);
        }
        for cpu in 0..self.cpu_task.len() {
            if self.cpu_task[cpu].is_none() {
                self.cpu_idle_ns[cpu] += now - self.cpu_since_ns[cpu];
            }
            self.cpu_since_ns[cpu] = now;
        }
        for lock in &mut self.locks {
            lock.normalize(now);
        }
    }

    /// A task's time in each bucket up to now, including the open interval.
    pub fn task_times(&self, task: TaskId) -> [u64; BUCKETS] {
        let rt = &self.tasks[task.0 as usize];
        let mut times = rt.buckets_ns;
        if let Some(bucket) = rt.state.bucket() {
            times[bucket as usize] += self.now_ns - rt.since_ns;
        }
        times
    }

    pub fn cpu_idle(&self, cpu: usize) -> u64 {
        let open = if self.cpu_task[cpu].is_none() { self.now_ns - self.cpu_since_ns[cpu] } else { 0 };
        self.cpu_idle_ns[cpu] + open
    }

    /// The invariants every state satisfies; asserted after each replayed op in
    /// debug builds and by the property tests everywhere.
    pub fn check_invariants(&self) {
        for (cpu, task) in self.cpu_task.iter().enumerate() {
            if let Some(task) = task {
                assert_eq!(self.tasks[task.0 as usize].state.cpu(), Some(cpu as u16), "cpu {cpu} map");
            }
        }
        for (index, task) in self.tasks.iter().enumerate() {
            if let Some(cpu) = task.state.cpu() {
                assert_eq!(self.cpu_task[usize::from(cpu)], Some(TaskId(index as u32)));
            }
            assert!(task.since_ns <= self.now_ns);
        }
        for lock in &self.locks {
            lock.check_invariants();
        }
        // Running time plus idle time is exactly elapsed time on every CPU.
        let busy: u64 = (0..self.tasks.len())
            .map(|index| {
                let times = self.task_times(TaskId(index as u32));
                times[Bucket::User as usize] + times[Bucket::Sys as usize]
            })
            .sum();
        let idle: u64 = (0..self.cpu_task.len()).map(|cpu| self.cpu_idle(cpu)).sum();
        assert_eq!(busy + idle, self.now_ns * self.cpu_task.len() as u64, "cpu time accounting");
    }

    /// The holders of `lock` with their modes.
    pub fn lock(&self, lock: LockId) -> &LockState {
        &self.locks[lock.0 as usize]
    }
}

/// The exact change one iteration of a repeat makes to a normalized world:
/// additive parts only. Applying it k times is the closed form for k iterations.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct WorldDelta {
    pub period_ns: u64,
    pub task_buckets_ns: Vec<[u64; BUCKETS]>,
    pub counters: Vec<u64>,
    pub cpu_idle_ns: Vec<u64>,
    pub locks: Vec<crate::run::lock::LockStatsDelta>,
}
wire_struct!(WorldDelta { period_ns, task_buckets_ns, counters, cpu_idle_ns, locks });

/// What a repeat's delta needs of the normalized world it starts from: the additive
/// parts of everything, and the parts that must come back unchanged (state, gauges)
/// of the tasks its template names. No other task's state or gauges can change (only
/// `SetState` and `Gauge` effects do), so the world itself is never copied: a copy of
/// every task per repeat was most of a many-thread run's time, in wasm above all
/// (an allocation, a `memory.copy` and a byte-wise `memcmp` per task).
pub struct RepeatStart {
    now_ns: u64,
    task_buckets_ns: Vec<[u64; BUCKETS]>,
    /// The tasks the template names, with their state and gauges: (index, state, gauges).
    touched: Vec<(usize, TaskState, Vec<i64>)>,
    counters: Vec<u64>,
    cpu_task: Vec<Option<TaskId>>,
    cpu_idle_ns: Vec<u64>,
    locks: Vec<LockState>,
}

impl RepeatStart {
    /// Notes a normalized `world` before one iteration whose effects are `effects`.
    pub fn capture<'a>(world: &World, effects: impl Iterator<Item = &'a Effect>) -> RepeatStart {
        let mut touched: Vec<usize> = effects
            .filter_map(|effect| match *effect {
                Effect::SetState { task, .. } | Effect::Gauge { task, .. } => Some(task.0 as usize),
                _ => None,
            })
            .collect();
        touched.sort_unstable();
        touched.dedup();
        RepeatStart {
            now_ns: world.now_ns,
            task_buckets_ns: world.tasks.iter().map(|task| task.buckets_ns).collect(),
            touched: touched
                .into_iter()
                .map(|index| {
                    let task = &world.tasks[index];
                    (index, task.state, task.gauges.clone())
                })
                .collect(),
            counters: world.counters.clone(),
            cpu_task: world.cpu_task.clone(),
            cpu_idle_ns: world.cpu_idle_ns.clone(),
            locks: world.locks.clone(),
        }
    }

    /// The delta from the captured world to `after`, the same world normalized one
    /// iteration later.
    ///
    /// Panics unless everything that is not additive (states, holders, queues,
    /// gauges) is identical: a repeat must really repeat.
    pub fn delta_to(&self, after: &World) -> WorldDelta {
        assert!(after.now_ns > self.now_ns, "an iteration takes time");
        let period_ns = after.now_ns - self.now_ns;
        assert_eq!(self.cpu_task, after.cpu_task, "repeat changed which task runs where");
        for (index, state, gauges) in &self.touched {
            let new = &after.tasks[*index];
            assert_eq!(*state, new.state, "repeat changed a task's state");
            assert_eq!(*gauges, new.gauges, "repeat changed a gauge");
        }
        let mut task_buckets_ns = Vec::with_capacity(after.tasks.len());
        for (old, new) in self.task_buckets_ns.iter().zip(&after.tasks) {
            assert_eq!(new.since_ns, after.now_ns, "repeat must end normalized");
            let mut delta = [0; BUCKETS];
            for (slot, (a, b)) in delta.iter_mut().zip(old.iter().zip(&new.buckets_ns)) {
                *slot = b - a;
            }
            task_buckets_ns.push(delta);
        }
        WorldDelta {
            period_ns,
            task_buckets_ns,
            counters: self
                .counters
                .iter()
                .zip(&after.counters)
                .map(|(a, b)| b.checked_sub(*a).expect("a repeat may not lower a counter"))
                .collect(),
            cpu_idle_ns: self.cpu_idle_ns.iter().zip(&after.cpu_idle_ns).map(|(a, b)| b - a).collect(),
            locks: self.locks.iter().zip(&after.locks).map(|(a, b)| a.stats_delta(b, period_ns)).collect(),
        }
    }
}

impl WorldDelta {
    /// Applies `k` iterations in closed form to a normalized world.
    pub fn apply(&self, world: &mut World, k: u64) {
        let elapsed = self.period_ns.checked_mul(k).expect("repeat time overflow");
        world.now_ns += elapsed;
        for (task, delta) in world.tasks.iter_mut().zip(&self.task_buckets_ns) {
            for (slot, d) in task.buckets_ns.iter_mut().zip(delta) {
                *slot += d * k;
            }
            task.since_ns += elapsed;
        }
        for (value, d) in world.counters.iter_mut().zip(&self.counters) {
            *value += d * k;
        }
        for cpu in 0..world.cpu_idle_ns.len() {
            world.cpu_idle_ns[cpu] += self.cpu_idle_ns[cpu] * k;
            world.cpu_since_ns[cpu] += elapsed;
        }
        for (lock, delta) in world.locks.iter_mut().zip(&self.locks) {
            lock.apply_stats_delta(delta, k, elapsed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: TaskId = TaskId(0);
    const B: TaskId = TaskId(1);

    /// Task A on the CPU in user mode, B asleep, both normalized at 10 ns.
    fn world() -> World {
        let mut layout = Layout::new(1);
        let group = layout.add_group("g");
        layout.add_task("a", group);
        layout.add_task("b", group);
        layout.add_counter("rounds");
        layout.add_gauge("x");
        let mut world = World::new(&layout);
        world.apply(&Effect::SetState { task: A, state: TaskState::RunningUser { cpu: 0 } });
        world.apply(&Effect::SetState { task: B, state: TaskState::Sleeping { channel: ChannelId(0) } });
        world.advance_to(10);
        world.normalize();
        world
    }

    /// One round of 10 ns: A enters the kernel at +2, counts a round and sets `gauge`
    /// on B (a task no state change names), is back in user mode at +5.
    fn round(world: &mut World, start_ns: u64, gauge: i64) {
        world.advance_to(start_ns + 2);
        world.apply(&Effect::SetState { task: A, state: TaskState::RunningKernel { cpu: 0 } });
        world.apply(&Effect::Count { counter: CounterId(0), delta: 1 });
        world.apply(&Effect::Gauge { task: B, gauge: 0, value: gauge });
        world.advance_to(start_ns + 5);
        world.apply(&Effect::SetState { task: A, state: TaskState::RunningUser { cpu: 0 } });
        world.advance_to(start_ns + 10);
        world.normalize();
    }

    fn effects(gauge: i64) -> [Effect; 4] {
        [
            Effect::SetState { task: A, state: TaskState::RunningKernel { cpu: 0 } },
            Effect::Count { counter: CounterId(0), delta: 1 },
            Effect::Gauge { task: B, gauge: 0, value: gauge },
            Effect::SetState { task: A, state: TaskState::RunningUser { cpu: 0 } },
        ]
    }

    #[test]
    fn one_live_round_then_the_delta_for_the_rest_is_every_round_stepped() {
        let mut live = world();
        let start = RepeatStart::capture(&live, effects(0).iter());
        round(&mut live, 10, 0);
        start.delta_to(&live).apply(&mut live, 4);
        let mut stepped = world();
        for k in 0..5 {
            round(&mut stepped, 10 + 10 * k, 0);
        }
        assert_eq!(live, stepped);
        assert_eq!(live.counters[0], 5);
        assert_eq!(
            live.task_times(B)[Bucket::Sleep as usize],
            60,
            "B, named by no state change, slept throughout"
        );
    }

    #[test]
    #[should_panic(expected = "repeat changed a gauge")]
    fn a_round_that_moves_a_gauge_of_a_task_it_names_only_there_does_not_repeat() {
        let mut live = world();
        let start = RepeatStart::capture(&live, effects(7).iter());
        round(&mut live, 10, 7);
        start.delta_to(&live);
    }
}
