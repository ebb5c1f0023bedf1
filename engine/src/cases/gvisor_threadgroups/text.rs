//! Narration and pseudocode for the gVisor thread-group scan. The pseudocode is
//! our own simplified Go-like rendering of the sentry's code; each function
//! links to the real one at the parent of the fix (82529bec) or at the fix
//! (4968dd13). Nothing here is gVisor source.

use crate::run::narration::{CodeLoc, Function};

crate::templates! {
    PHASE_START = "The benchmark starts {0} thread(s) in {1} process(es); the sandbox also runs {2} sidecar process(es)",
    PHASE_SLEEP = "{0} of sleep: every benchmark thread is asleep, the CPU-clock ticker fires at {1} Hz",
    PHASE_PS = "runsc ps: ThreadGroups() lists every thread group once",
    ITER_PS = "runsc ps",
    PS_RLOCK = "runsc ps (like a /proc listing, kill(-1) or kill(-pgid)) calls ThreadGroups(), a wrapper of the ticker's ThreadGroupsAppend: the same scan, {0} for reading.",
    PS_DONE = "{0} entries visited for one listing of {1} thread group(s): {2}. {3} released.",
    PHASE_SIGNAL = "runsc kill --all: SendContainerSignal from {0} sender(s)",
    PHASE_STALL = "The sandbox stays paused (the simulator's view)",
    ITER_SETUP = "the task set is built",
    ITER_TICK = "tick {0}",
    ITER_TICK_WRITER = "tick {0}, and a clone() that needs TaskSet.mu",
    ITER_WRITER = "a clone() that needs TaskSet.mu",
    ITER_SENDER = "{0}: {1}",
    ITER_STALL = "everyone waits",
    SETUP = "{0} tasks now sit in the PID namespace's maps: tasks (tid → task) and tids (task → tid){1}. Every benchmark thread goes to sleep for {2}. Our model: the {3} sidecar processes have one thread each and tids after the benchmark's; a visit costs {4} on average (calibrated on the seed: 17,210 ms / 12,000 scans / 16,384 threads ≈ 88 ns), {5} when the task is cache-hot and {6} when cold; this run's share of cold visits comes from the seed (a model choice).{7}",
    TICKER_IDLE = "dd69b49 (\"Disable cpuClockTicker when app is idle\"): no task runs, so the ticker stops until one wakes. No scan while everyone sleeps. (The real ticker still makes one scan on the tick where it finds every task asleep, and when the clone below runs it would restart and stop again at its next tick; we draw no scan for either: a model choice.)",
    TICK = "Tick {0}: the CPU-clock ticker fires, every {1}, on the monotonic clock, whether or not any task runs. Its Notify asks ThreadGroupsAppend for every thread group.",
    RLOCK = "ThreadGroupsAppend takes {0} for reading: readers share it, but a clone() or exit() that needs it for writing must wait until the scan is over.",
    RLOCK_WAIT = "The ticker wants {0} for reading, but a writer holds it or waits for it: Go's RWMutex lets a waiting writer go first, so the scan waits too.",
    RLOCK_GRANTED = "The ticker gets {0} for reading after {1}.",
    VISIT_SKIP = "Visit tid {0}: load t.tg, then tg.leader; not the leader, skipped. {1} load, {2}. Thread {3} of {4} in this scan.",
    VISIT_LEADER = "Visit tid {0}: t == t.tg.leader, so its thread group is appended. {1} load, {2}. Thread {3} of {4} in this scan.",
    VISIT_TGID = "tgids entry {3} of {4}: thread group led by tid {0}, appended directly, no thread visited. {1} load, {2}.",
    RUNLOCK = "The scan is over: {0} map entries visited to find {1} thread group(s), {2} of CPU for a sentry where every benchmark thread sleeps. {3} released; the ticker sleeps until the next tick.",
    WRITER_ARRIVES = "A clone() (or exit) reaches the sentry at {0}: it needs {1} for writing to add the new task to tasks, tids (and tgids).",
    WRITER_WAITS = "A scan holds {0} for reading, so the clone waits; and because a writer now waits, Go's RWMutex blocks new readers too.",
    WRITER_GRANTED = "The clone gets {0} for writing after waiting {1}: the rest of the scan, paid by a thread that is not even part of the benchmark.",
    WRITER_FREE = "{0} is free: the clone takes it for writing at once.",
    WRITER_DONE = "assignTIDsLocked has filed the new task; {0} released.",
    SEND_RLOCK = "{0} calls SendContainerSignal (runsc kill --all, which pauses the kernel first, so no task runs meanwhile): it takes {2}, a plain mutex that admits one caller at a time, then {1} for reading (the lock order asks for it before a SignalHandlers.mu).",
    SEND_WALK = "{0} ranges over {1}: {2} entries that belong to other containers, {3}.",
    SEND_VISIT = "{0} finds sidecar {1} (thread group {2}, leader tid {3}) in the container: it matches.",
    SEND_LOCK = "{0} locks {1}. Locks held by this call: {2}.",
    SEND_LOCK_DEFER = "{0} locks {1} and defers its Unlock: Go runs a defer when the function returns, not at the end of the loop's iteration. Locks held by this call: {2}.",
    SEND_BLOCKED = "{0} wants {1}, held by {2}: it queues and sleeps.",
    SEND_SELF = "{0} calls Lock() on {1} a second time: two thread groups share one SignalHandlers (clone with CLONE_VM|CLONE_SIGHAND and without CLONE_THREAD), and sync.Mutex is not reentrant. It waits for itself, forever.",
    SEND_GRANTED = "{0} gets {1} after waiting {2}.",
    SEND_SIGNAL = "{0} sends the signal to the whole group (sendSignalLocked, group-directed).",
    SEND_UNLOCK = "{0} unlocks {1} at the end of this iteration (the fix).",
    SEND_DEFER_UNLOCK = "{0} returns: a deferred Unlock runs, {1}, last locked first (LIFO). Still held: {2}.",
    SEND_RUNLOCK = "{0} returns and releases {1}. It held at most {2} SignalHandlers lock(s) at once.",
    STALL_PAUSED = "{0} never returns, so runsc never calls Unpause: the sandbox stays paused and no task runs again (no clone() can come to need {1}). Every later runsc command that needs {2} (another kill, an exec, Unpause itself) waits behind it forever. The CPU-clock ticker still gets {1} for reading and scans the paused sandbox at every tick (not drawn).",
    DEADLOCK = "The simulator's wait-for graph finds a cycle: {0} waits for {1}, which it holds itself. The real sentry would hang silently: the Go runtime reports a deadlock only when every goroutine sleeps, and here other goroutines live.",
    SEND_ADMITTED = "{0} gets {1} after waiting {2}: the caller before it has returned. It takes {3} for reading.",
}

pub(crate) const APPEND_BEFORE: u16 = 0;
pub(crate) const APPEND_AFTER: u16 = 1;
pub(crate) const TICKER: u16 = 2;
pub(crate) const SEND_BEFORE: u16 = 3;
pub(crate) const SEND_AFTER: u16 = 4;
pub(crate) const CLONE: u16 = 5;
pub(crate) const BENCH: u16 = 6;

pub(crate) fn at(function: u16, line: u16) -> CodeLoc {
    CodeLoc { function, line }
}

pub(crate) static CODE: &[Function] = &[
    Function {
        name: "PIDNamespace.ThreadGroupsAppend (before)",
        source_url: "https://github.com/google/gvisor/blob/82529becaee6f5050cb3ebb4aaa7a798357c1cf1/pkg/sentry/kernel/threads.go#L250",
        lines: &[
            "func (ns *PIDNamespace) ThreadGroupsAppend(tgs) []*ThreadGroup {",
            "    ns.owner.mu.RLock()              // TaskSet.mu, for reading",
            "    defer ns.owner.mu.RUnlock()",
            "    for t := range ns.tids {         // every task: O(tasks)",
            "        if t == t.tg.leader {        // two dependent loads per task",
            "            tgs = append(tgs, t.tg)",
            "        }",
            "    }",
            "    return tgs",
            "}",
        ],
    },
    Function {
        name: "PIDNamespace.ThreadGroupsAppend (fix)",
        source_url: "https://github.com/google/gvisor/blob/4968dd1341a04e93557bdd9f4b4b83eb508e026d/pkg/sentry/kernel/threads.go#L256",
        lines: &[
            "func (ns *PIDNamespace) ThreadGroupsAppend(tgs) []*ThreadGroup {",
            "    ns.owner.mu.RLock()              // TaskSet.mu, for reading",
            "    defer ns.owner.mu.RUnlock()",
            "    for tg := range ns.tgids {       // thread groups only",
            "        tgs = append(tgs, tg)",
            "    }",
            "    return tgs",
            "}",
        ],
    },
    Function {
        name: "kernelCPUClockTicker.Notify",
        source_url: "https://github.com/google/gvisor/blob/82529becaee6f5050cb3ebb4aaa7a798357c1cf1/pkg/sentry/kernel/task_sched.go#L343",
        lines: &[
            "func (t *kernelCPUClockTicker) Notify(exp uint64) {",
            "    // every linux.ClockTick (10 ms), even if every task sleeps",
            "    tgs := k.tasks.Root.ThreadGroupsAppend(tgs)",
            "    for _, tg := range tgs { /* CPU timers, rlimits */ }",
            "    // dd69b49 later: if no task runs, stop until one wakes",
            "}",
        ],
    },
    Function {
        name: "Kernel.SendContainerSignal (before)",
        source_url: "https://github.com/google/gvisor/blob/82529becaee6f5050cb3ebb4aaa7a798357c1cf1/pkg/sentry/kernel/kernel.go#L872",
        lines: &[
            "func (k *Kernel) SendContainerSignal(cid, info) error {  // runsc paused the kernel",
            "    k.extMu.Lock(); k.tasks.mu.RLock()          // one caller at a time",
            "    defer k.extMu.Unlock(); defer k.tasks.mu.RUnlock()",
            "    for t := range k.tasks.Root.tids {          // every task",
            "        if t == t.tg.leader && t.ContainerID() == cid {",
            "            t.tg.signalHandlers.mu.Lock()",
            "            defer t.tg.signalHandlers.mu.Unlock()  // at return!",
            "            t.sendSignalLocked(info, true /*group*/)",
            "        }",
            "    }",
            "    return lastErr      // deferred Unlocks run here, LIFO",
            "}",
        ],
    },
    Function {
        name: "Kernel.SendContainerSignal (fix)",
        source_url: "https://github.com/google/gvisor/blob/4968dd1341a04e93557bdd9f4b4b83eb508e026d/pkg/sentry/kernel/kernel.go#L876",
        lines: &[
            "func (k *Kernel) SendContainerSignal(cid, info) error {  // runsc paused the kernel",
            "    k.extMu.Lock(); k.tasks.mu.RLock()          // one caller at a time",
            "    defer k.extMu.Unlock(); defer k.tasks.mu.RUnlock()",
            "    for tg := range k.tasks.Root.tgids {        // thread groups",
            "        if tg.leader.ContainerID() == cid {",
            "            tg.signalHandlers.mu.Lock()",
            "            tg.leader.sendSignalLocked(info, true /*group*/)",
            "            tg.signalHandlers.mu.Unlock()          // this iteration",
            "        }",
            "    }",
            "    return lastErr",
            "}",
        ],
    },
    Function {
        name: "TaskSet.newTask (clone)",
        source_url: "https://github.com/google/gvisor/blob/4968dd1341a04e93557bdd9f4b4b83eb508e026d/pkg/sentry/kernel/task_start.go#L225",
        lines: &[
            "func (ts *TaskSet) newTask(cfg) (*Task, error) {",
            "    ts.mu.Lock()                     // TaskSet.mu, for writing",
            "    defer ts.mu.Unlock()",
            "    ts.assignTIDsLocked(t)           // tasks, tids (and tgids)",
            "}",
        ],
    },
    Function {
        name: "the benchmark (seed 003)",
        source_url: "https://github.com/google/gvisor/commit/4968dd1341a04e93557bdd9f4b4b83eb508e026d",
        lines: &[
            "for i := 0; i < N; i++ { pthread_create(sleeper) }",
            "sleeper: sleep(2 min)               // every thread asleep",
        ],
    },
];
