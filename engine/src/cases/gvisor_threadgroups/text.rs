//! Narration and pseudocode for the gVisor thread-group scan. The pseudocode is
//! our own simplified Go-like rendering of the sentry's code; each function
//! links to the real one at the parent of the fix (82529bec) or at the fix
//! (4968dd13). Nothing here is gVisor source.

use crate::run::narration::{CodeLoc, Function};

crate::templates! {
    PHASE_START = "The benchmark starts {0} {0?thread|threads} in {1} {1?process|processes}; the sandbox also runs {2} sidecar {2?process|processes}",
    PHASE_SLEEP = "{0} of sleep: every benchmark thread is asleep, the CPU-clock ticker fires at {1} Hz",
    PHASE_PS = "runsc ps: ThreadGroups() lists every thread group once",
    ITER_PS = "runsc ps",
    PS_RLOCK = "runsc ps asks for a list of every process: the same scan the ticker does. runsc ps (like a /proc listing, kill(-1) or kill(-pgid)) calls ThreadGroups(), a wrapper of the ticker's ThreadGroupsAppend: the same scan, {0} for reading.",
    PS_DONE = "runsc ps has its list. {0} {0?entry|entries} visited for one listing of {1} {1?thread group|thread groups}: {2}. {3} released.",
    PHASE_SIGNAL = "runsc kill --all: SendContainerSignal from {0} {0?sender|senders}",
    PHASE_STALL = "The sandbox stays paused (the simulator's view)",
    ITER_SETUP = "the task set is built",
    ITER_TICK = "tick {0}",
    ITER_TICK_WRITER = "tick {0}, and a clone() that needs TaskSet.mu",
    ITER_WRITER = "a clone() that needs TaskSet.mu",
    ITER_SENDER = "{0}: {1}",
    ITER_STALL = "everyone waits",
    SETUP = "The sandbox's threads are in place, and every benchmark thread goes to sleep for {2}. {0} {0?task|tasks} now sit in the PID namespace's maps: tasks (tid → task) and tids (task → tid){1}. Our model: the {3} sidecar processes have one thread each and tids after the benchmark's; a visit costs {5} when the task is cache-hot and {6} when cold, and this seed makes {7} % of visits cold (a model choice), so a visit costs {8} on average in this run. The knob's mean, {4}, is calibrated on the report: 17,210 ms / 12,000 scans / 16,384 threads.",
    CAPPED = "The model keeps fewer threads than asked, to fit. The model caps the task set at {0} {0?task|tasks} (one scan's visits are stored op by op): threads per process were reduced to fit.",
    TICKER_IDLE = "Nobody runs, so the CPU-clock ticker stops and no scan happens. dd69b49 (\"Disable cpuClockTicker when app is idle\"): no task runs, so the ticker stops until one wakes. No scan while everyone sleeps. (The real ticker still makes one scan on the tick where it finds every task asleep, and when the clone below runs it would restart and stop again at its next tick; we draw no scan for either: a model choice.)",
    TICK = "The CPU-clock ticker fires, as it does at every tick, and asks for a list of every process. Tick {0}: it fires every {1}, whether or not any task runs. It is a ktime.Timer on the sentry's monotonic clock: expirations it was too late for are counted, and Notify runs once. Notify asks ThreadGroupsAppend for every thread group, then skips each group without CPU timers; the benchmark set none, so the scan is all the ticker does for sleeping threads.",
    RLOCK = "The scan takes the task lock for reading: others may read too, but nobody may change the task set. ThreadGroupsAppend takes {0} for reading: readers share it, but a clone() or exit() that needs it for writing must wait until the scan is over.",
    RLOCK_WAIT = "The scan must wait for the task lock, because a writer is ahead of it. The ticker wants {0} for reading, but a writer holds it or waits for it: Go's RWMutex lets a waiting writer go first, so the scan waits too.",
    RLOCK_GRANTED = "The scan gets the task lock at last. The ticker gets {0} for reading after {1}.",
    VISIT_SKIP = "The scan checks thread {0}: it is not the first thread of its process, so it is skipped. Visit tid {0}: load t.tg, then tg.leader; not the leader. {1} load, {2}. Thread {3} of {4} in this scan.",
    VISIT_LEADER = "The scan checks thread {0}: it leads its process, so the process goes on the list. Visit tid {0}: t == t.tg.leader, so its thread group is appended. {1} load, {2}. Thread {3} of {4} in this scan.",
    VISIT_TGID = "The scan puts the next process on the list without checking any thread. tgids entry {3} of {4}: thread group led by tid {0}, appended directly, no thread visited. {1} load, {2}.",
    RUNLOCK = "The scan is over and lets go of the task lock. {0} map {0?entry|entries} visited to find {1} {1?thread group|thread groups}, {2} of CPU for a sentry where every benchmark thread sleeps. {3} released; the ticker sleeps until the next tick.",
    WRITER_ARRIVES = "A thread is created (or exits), and that needs the task lock to itself. A clone() (or exit) reaches the sentry at {0}: it needs {1} for writing to add the new task to tasks, tids (and tgids).",
    WRITER_WAITS = "The new thread must wait for the scan to finish, and now new scans must wait too. A scan holds {0} for reading, so the clone waits; and because a writer now waits, Go's RWMutex blocks new readers too.",
    WRITER_GRANTED = "The scan has finished, so the new thread gets the task lock. The clone gets {0} for writing after waiting {1}: the rest of the scan, paid by a thread that is not even part of the benchmark.",
    WRITER_FREE = "Nobody holds the task lock, so the new thread gets it at once. {0} is free: the clone takes it for writing at once.",
    WRITER_DONE = "The new thread is filed, and the task lock is free again. assignTIDsLocked has filed the new task; {0} released.",
    SEND_RLOCK = "{0} starts sending the signal to every process in the container. {0} calls SendContainerSignal (the kernel is paused, so no task runs meanwhile): it takes {2}, a plain mutex that admits one caller at a time, then {1} for reading (the lock order asks for it before a SignalHandlers.mu).",
    SEND_WALK = "{0} looks through the sandbox's list for the processes in the target container. {0} ranges over {1}: {2} {2?entry|entries} that belong to other containers, {3}.",
    SEND_VISIT = "{0} finds a sidecar process that is in the container. {0} finds sidecar {1} (thread group {2}, leader tid {3}) in the container: it matches.",
    SEND_LOCK = "{0} {0?lock|locks} {1}. Locks held by this call: {2}.",
    SEND_LOCK_DEFER = "{0} {0?lock|locks} {1} and will only unlock it when it is done with every process. {0} {0?lock|locks} {1} and defers its Unlock: Go runs a defer when the function returns, not at the end of the loop's iteration. Locks held by this call: {2}.",
    SEND_BLOCKED = "{0} must wait for {1}, which {2} holds. {0} wants {1}, held by {2}: it queues and sleeps.",
    SEND_SELF = "{0} waits for a lock it already holds, so it waits forever. {0} calls Lock() on {1} a second time: two thread groups share one SignalHandlers, and sync.Mutex is not reentrant. It waits for itself, forever. Three things made this possible, all reachable: sidecar 2 was cloned with CLONE_VM|CLONE_SIGHAND and without CLONE_THREAD (gVisor refuses shared handlers without a shared address space); it inherited the container ID (and the process group); and neither sidecar has called exec since (exec gives a group its own copy of the handlers).",
    SEND_GRANTED = "{0} gets {1} after waiting {2}.",
    SEND_SIGNAL = "{0} sends the signal to the whole group (sendSignalLocked, group-directed).",
    SEND_UNLOCK = "{0} unlocks {1} at the end of this iteration (the fix).",
    SEND_DEFER_UNLOCK = "{0} is done and unlocks its locks one by one, newest first. {0} returns: a deferred Unlock runs, {1}, last locked first (LIFO). Still held: {2}.",
    SEND_RUNLOCK = "{0} is done and lets go of {1}. {0} returns and releases {1}. It held at most {2} {2?SignalHandlers lock|SignalHandlers locks} at once.",
    STALL_PAUSED = "The stuck sender never finishes, so the sandbox stays paused for good. {0} never returns, so runsc never calls Unpause: the sandbox stays paused and no task runs again (no clone() can come to need {1}). Every later runsc command that needs {2} (another kill, an exec, Unpause itself) waits behind it forever, as the next sender already does inside Kernel.Pause. runsc ps and runsc events still answer: they read {1} and never take {2}. The CPU-clock ticker still gets {1} for reading and scans the paused sandbox at every tick (not drawn), unless the stuck group has CPU timers (setitimer, RLIMIT_CPU): then Notify blocks on that group's SignalHandlers.mu and the sandbox's CPU clock stops (we state it; no knob). The sentry's watchdog stays quiet: it flags tasks stuck in a syscall, and the stuck caller is runsc's control goroutine, not a task.",
    DEADLOCK = "{0} is stuck for good: it waits for itself. The simulator's wait-for graph finds a cycle: {0} waits for {1}, which it holds itself. The real sentry would hang silently: the Go runtime reports a deadlock only when every goroutine sleeps, and here other goroutines live.",
    SEND_ADMITTED = "{0} gets its turn to send. {0} gets {1} after waiting {2}: the caller before it has returned. It takes {3} for reading.",
    PAUSE_BEGIN = "{0} pauses the whole sandbox before it sends the signal. {0}: runsc kill --all first pauses the kernel, so that no process is created while the signal goes out. Kernel.Pause takes {1}, and BeginExternalStop takes {2} for writing: it waits for a ticker scan in progress, and while it holds the lock the ticker's next scan waits for it.",
    PAUSE_BLOCKED = "{0} must wait its turn to pause the sandbox. {0} calls Kernel.Pause: {1} is held by {2}, so it queues there, inside Pause, before it has stopped anything.",
    PAUSE_ADMITTED = "{0} gets its turn to pause the sandbox. {0} gets {1} after waiting {2}, inside Kernel.Pause; BeginExternalStop takes {3} for writing.",
    PAUSE_WALK = "The pause visits every thread and tells it to stop. BeginExternalStop walks every task, {0} of them, sleeping or not: for each it locks the group's SignalHandlers.mu, counts one more stop, unlocks, and interrupts the task (a sleeping thread wakes up to stop). {1} per task (the map walk, and {2} of stop bookkeeping: a model choice), {3} in all: O(tasks). The fix changes the scans, not this walk.",
    PAUSE_DONE = "Every thread is stopped, so the signal can go out. Every task is marked stopped: BeginExternalStop releases {0}, Pause releases {1}. Nothing runs in the sandbox until Unpause. runsc calls SendContainerSignal next and takes {1} straight back: Go's Mutex lets a running goroutine in before a waiter it has just woken (a model choice), so a second sender waits on inside Pause.",
    UNPAUSE_BEGIN = "The signal is out, so {0} starts to let the sandbox run again. {0}: the signal is sent, runsc calls Kernel.Unpause: it takes {1} straight back (before a waiter wakes), then {2} for writing again.",
    UNPAUSE_BLOCKED = "{0} must wait its turn to let the sandbox run again. {0} calls Kernel.Unpause: {1} is held by {2}, so it queues.",
    UNPAUSE_ADMITTED = "{0} gets its turn to let the sandbox run again. {0} gets {1} after waiting {2}, inside Kernel.Unpause; EndExternalStop takes {3} for writing.",
    UNPAUSE_WALK = "The unpause visits every thread again and lifts its stop. EndExternalStop walks every task again, {0} of them: lock, one stop fewer, unlock (a task whose count reaches zero is woken). {1} per task ({2} of bookkeeping, a model choice), {3} in all.",
    UNPAUSE_DONE = "The sandbox runs again. {0} and {1} released. This runsc kill cost {2} of pausing and unpausing, whatever the fix.",
    JC_ENTER = "{0} starts stopping a process group because a background process wrote to the terminal. {0} is a task goroutine inside the sandbox: a background process wrote to the terminal, so fs/host's TTY code stops its process group for job control (SIGTTOU) with ProcessGroup.SendSignal. No k.extMu and no pause here: it takes {1} for reading at once (readers share it).",
    JC_WALK = "{0} looks through the sandbox's list for the members of the process group. {0} ranges over {1}: {2} {2?entry|entries} outside the process group, {3}. Go ranges over a map in a random order, a new one each time: the model draws each sender's order of the process group's members from the seed, and visits them after the other entries (a model choice).",
    JC_VISIT = "{0} finds a member of the process group. {0} finds process-group member {1} (thread group {2}, leader tid {3}): it matches.",
    DEADLOCK_PAIR = "{0} and {2} each hold a lock the other one wants, so both wait forever. The simulator's wait-for graph finds a cycle: {0} waits for {1}, held by {2}; {2} waits for {3}, held by {0}. Each took the process group's SignalHandlers locks in its own random map order and keeps them until it returns (defer). The real sentry would hang silently.",
    DEADLOCK_RING = "The senders wait for each other in a circle, so they all wait forever. The simulator's wait-for graph finds a cycle of {0} senders, each waiting for a SignalHandlers.mu the next one holds (each took them in its own random map order and keeps them until it returns). The real sentry would hang silently.",
    PHASE_FREEZE = "The sandbox freezes (the simulator's view)",
    ITER_FREEZE_WRITER = "a clone() behind the stuck reader",
    ITER_FREEZE_TICK = "tick {0}: the ticker behind the clone",
    ITER_WATCHDOG = "the watchdog's turn",
    ITER_WATCHDOG_REPORT = "the watchdog reports",
    FREEZE_WRITER = "A thread is created or exits and needs the task lock to itself, but the stuck sender holds it for good. {0} after the freeze (a model choice) a task calls clone() or exits (the benchmark's threads wake from their sleep and exit): it needs {1} for writing, and the stuck sender holds it for reading forever. It queues, and from now on Go's RWMutex blocks every new reader too.",
    FREEZE_TICK = "The CPU-clock ticker has to wait in line behind the thread that waits for the lock, so the sandbox's CPU clock stops. Tick {0}: Notify adds one to the sandbox's CPU clock, then ThreadGroupsAppend asks {1} for reading and queues behind the clone. Notify never returns: the CPU clock stops at this tick, and the ticker scans no more.",
    WATCHDOG_TURN = "The watchdog wakes up to check on the sandbox and gets stuck in the same line. The sentry's watchdog wakes (every {0}, a quarter of its {1} timeout) and asks Root.Tasks(), which reads {2}: it queues behind the clone. runsc ps and runsc events would queue the same way now.",
    WATCHDOG_STUCK = "The watchdog gives up waiting and logs that it is stuck. {0} after its turn began, the watchdog gives up waiting and logs \"Watchdog goroutine is stuck\" with a stack dump of every goroutine (the default action, LogWarning; it panics only with --watchdog-action=panic). It never names the stuck sender: it would flag a task stuck in a syscall for {1} of the sandbox's CPU clock, and that clock stopped. Its turn never ends, so it reports nothing again.",
}

pub(crate) const APPEND_BEFORE: u16 = 0;
pub(crate) const APPEND_AFTER: u16 = 1;
pub(crate) const TICKER: u16 = 2;
pub(crate) const SEND_BEFORE: u16 = 3;
pub(crate) const SEND_AFTER: u16 = 4;
pub(crate) const CLONE: u16 = 5;
pub(crate) const BENCH: u16 = 6;
pub(crate) const PAUSE: u16 = 7;
pub(crate) const UNPAUSE: u16 = 8;
pub(crate) const JOB_CONTROL: u16 = 9;
pub(crate) const WATCHDOG: u16 = 10;

/// Lines of `SendContainerSignal`'s pseudocode, before and after the fix alike
/// unless said (the two renderings keep the same shape).
pub(crate) mod send_line {
    pub const EXT_MU: u16 = 1;
    pub const RLOCK: u16 = 3;
    pub const RUNLOCK: u16 = 4;
    pub const RANGE: u16 = 5;
    pub const MATCH: u16 = 6;
    pub const LOCK: u16 = 7;
    /// `sendSignalLocked`: after the deferred Unlock before the fix, before the Unlock after it.
    pub const SIGNAL_BEFORE: u16 = 9;
    pub const SIGNAL_AFTER: u16 = 8;
    pub const UNLOCK_AFTER: u16 = 9;
    pub const RETURN: u16 = 12;
}

/// Lines of `ProcessGroup.SendSignal`'s pseudocode.
pub(crate) mod job_line {
    pub const RLOCK: u16 = 1;
    pub const RANGE: u16 = 3;
    pub const MATCH: u16 = 4;
    pub const LOCK: u16 = 5;
    pub const SIGNAL: u16 = 7;
    pub const RETURN: u16 = 10;
}

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
        source_url: "https://github.com/google/gvisor/blob/82529becaee6f5050cb3ebb4aaa7a798357c1cf1/pkg/sentry/kernel/task_sched.go#L333",
        lines: &[
            "func (t *kernelCPUClockTicker) Notify(exp uint64) {  // a ktime.Timer, every 10 ms",
            "    now := atomic.AddUint64(&k.cpuClock, 1)   // once, however many ticks were late",
            "    tgs := k.tasks.Root.ThreadGroupsAppend(tgs)",
            "    for _, tg := range tgs {",
            "        if tg.cpuTimersEnabled == 0 { continue }  // no CPU timers: skipped",
            "        /* sum the group's CPU time; lock tg.signalHandlers.mu; fire timers */",
            "    }",
            "    // dd69b49 later: if no task runs, stop until one wakes",
            "}",
        ],
    },
    Function {
        name: "Kernel.SendContainerSignal (before)",
        source_url: "https://github.com/google/gvisor/blob/82529becaee6f5050cb3ebb4aaa7a798357c1cf1/pkg/sentry/kernel/kernel.go#L862",
        lines: &[
            "func (k *Kernel) SendContainerSignal(cid, info) error {  // runsc paused the kernel",
            "    k.extMu.Lock()                              // one caller at a time",
            "    defer k.extMu.Unlock()",
            "    k.tasks.mu.RLock()                          // TaskSet.mu, for reading",
            "    defer k.tasks.mu.RUnlock()",
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
        source_url: "https://github.com/google/gvisor/blob/4968dd1341a04e93557bdd9f4b4b83eb508e026d/pkg/sentry/kernel/kernel.go#L862",
        lines: &[
            "func (k *Kernel) SendContainerSignal(cid, info) error {  // runsc paused the kernel",
            "    k.extMu.Lock()                              // one caller at a time",
            "    defer k.extMu.Unlock()",
            "    k.tasks.mu.RLock()                          // TaskSet.mu, for reading",
            "    defer k.tasks.mu.RUnlock()",
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
        source_url: "https://github.com/google/gvisor/blob/82529becaee6f5050cb3ebb4aaa7a798357c1cf1/pkg/sentry/kernel/task_start.go#L139",
        lines: &[
            "func (ts *TaskSet) newTask(cfg) (*Task, error) {",
            "    ts.mu.Lock()                     // TaskSet.mu, for writing",
            "    defer ts.mu.Unlock()",
            "    ts.assignTIDsLocked(t)           // tasks, tids (and, with the fix, tgids)",
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
    Function {
        name: "Kernel.Pause → TaskSet.BeginExternalStop",
        source_url: "https://github.com/google/gvisor/blob/82529becaee6f5050cb3ebb4aaa7a798357c1cf1/pkg/sentry/kernel/task_stop.go#L190",
        lines: &[
            "func (k *Kernel) Pause() {                   // kernel.go",
            "    k.extMu.Lock()                           // a second sender queues here",
            "    k.tasks.BeginExternalStop()",
            "    k.extMu.Unlock()",
            "}",
            "func (ts *TaskSet) BeginExternalStop() {",
            "    ts.mu.Lock()                             // TaskSet.mu, for writing",
            "    defer ts.mu.Unlock()",
            "    for t := range ts.Root.tids {            // every task, fix or not",
            "        t.tg.signalHandlers.mu.Lock()",
            "        t.beginStopLocked()                  // one more stop",
            "        t.tg.signalHandlers.mu.Unlock()",
            "        t.interrupt()                        // a sleeper wakes to stop",
            "    }",
            "}",
        ],
    },
    Function {
        name: "Kernel.Unpause → TaskSet.EndExternalStop",
        source_url: "https://github.com/google/gvisor/blob/82529becaee6f5050cb3ebb4aaa7a798357c1cf1/pkg/sentry/kernel/task_stop.go#L211",
        lines: &[
            "func (k *Kernel) Unpause() {                 // kernel.go",
            "    k.extMu.Lock()",
            "    defer k.extMu.Unlock()",
            "    k.tasks.EndExternalStop()",
            "}",
            "func (ts *TaskSet) EndExternalStop() {",
            "    ts.mu.Lock()                             // TaskSet.mu, for writing",
            "    defer ts.mu.Unlock()",
            "    for t := range ts.Root.tids {            // every task again",
            "        t.tg.signalHandlers.mu.Lock()",
            "        t.endStopLocked()                    // one stop fewer; at zero, wake",
            "        t.tg.signalHandlers.mu.Unlock()",
            "    }",
            "}",
        ],
    },
    Function {
        name: "ProcessGroup.SendSignal (job control, before)",
        source_url: "https://github.com/google/gvisor/blob/82529becaee6f5050cb3ebb4aaa7a798357c1cf1/pkg/sentry/kernel/sessions.go#L237",
        lines: &[
            "func (pg *ProcessGroup) SendSignal(info) error {  // a task goroutine (TTY job control)",
            "    tasks.mu.RLock()                          // TaskSet.mu; no extMu, no pause",
            "    defer tasks.mu.RUnlock()",
            "    for t := range tasks.Root.tids {          // every task, in random order",
            "        if t == t.tg.leader && t.tg.ProcessGroup() == pg {",
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
        name: "Watchdog.runTurn",
        source_url: "https://github.com/google/gvisor/blob/82529becaee6f5050cb3ebb4aaa7a798357c1cf1/pkg/sentry/watchdog/watchdog.go#L192",
        lines: &[
            "func (w *Watchdog) runTurn() {               // every taskTimeout / 4",
            "    go func() { tasks = k.TaskSet().Root.Tasks(); close(done) }()  // TaskSet.mu, read",
            "    select {",
            "    case <-done:",
            "    case <-time.After(w.taskTimeout):        // 3 minutes by default",
            "        w.reportStuckWatchdog()              // \"Watchdog goroutine is stuck\"",
            "        <-done                               // waits on, forever if need be",
            "    }",
            "    now := k.CPUClockNow()                   // the ticker's clock",
            "    for _, t := range tasks {                // in a syscall longer than the timeout?",
            "        if t.RunningSys() && now-t.since > w.taskTimeout { /* report it */ }",
            "    }",
            "}",
        ],
    },
];
