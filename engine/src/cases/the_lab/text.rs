//! The Lab's narration templates and pseudocode. The pseudocode is our own
//! rendering of each deciding function, linked to the real one at the modelled
//! version (v6.13 for the locks; the textbook's chapter for its policies).

use crate::run::narration::{CodeLoc, Function};

crate::templates! {
    PHASE_START = "The workload runs",
    PHASE_AFTER_EXIT = "After {0} exits",
    ITER_AT = "At {0}",
    ARRIVE = "{0} arrives and joins the run queue ({1} waiting).",
    WAKE = "{0} wakes after sleeping {1} and joins the run queue ({2} waiting).",
    PICK_FIFO = "{0} runs on CPU {1}: first in, first out takes the task that joined the queue first, of {2} waiting.",
    PICK_SJF = "{0} runs on CPU {1}: shortest job first takes the smallest job, {2} of CPU in all, of {3} waiting.",
    PICK_STCF = "{0} runs on CPU {1}: shortest time-to-completion first takes the least time left, {2}, of {3} waiting.",
    PICK_RR = "{0} runs on CPU {1} for at most one quantum ({2}): round robin takes the head of the queue, of {3} waiting.",
    STCF_PREEMPT = "{0} takes CPU {1} from {2}: shortest time-to-completion first preempts, since {0} needs {3} and {2} has {4} left.",
    QUANTUM_REQUEUE = "{0}'s quantum of {1} is used up and {2} {2?task|tasks} {2?waits|wait}: round robin puts {0} at the tail of the queue.",
    QUANTUM_RENEW = "{0}'s quantum of {1} is used up, but nobody waits: it keeps the CPU for another.",
    QUANTUM_ATOMIC = "{0}'s quantum of {1} is used up, but it holds or waits for a spinlock: preemption is off until it unspins.",
    RUN = "{0} starts {1} of CPU work in user mode.",
    SYS = "{0} starts {1} of CPU work in the kernel.",
    SLEEP = "{0} sleeps for {1}; CPU {2} is free.",
    YIELD = "{0} yields: it goes to the tail of the run queue.",
    EXIT = "{0} exits at {1}: turnaround {2}, response {3}.",
    MUTEX_FAST = "{0} takes {1}: it is free and not handed off, so mutex_lock takes it at once.",
    MUTEX_QUEUE = "{0} cannot take {1}: {2} holds it. {0} joins the wait list (position {3}) and sleeps. (A Lab model choice: the kernel would first spin while the owner runs on another CPU, optimistic spinning, which the Lab leaves out.)",
    MUTEX_QUEUE_HANDOFF = "{0} cannot take {1}: it is free but reserved for the first waiter (handoff). {0} joins the wait list (position {2}) and sleeps.",
    MUTEX_UNLOCK = "{0} unlocks {1}; nobody waits.",
    MUTEX_UNLOCK_WAKE = "{0} unlocks {1} and wakes {2}, the first waiter: woken, not granted, it must retry when it runs.",
    MUTEX_UNLOCK_HAND = "{0} unlocks {1} and hands it straight to {2}: the handoff flag was set. {2} waited {3}.",
    MUTEX_RETRY_GOT = "{0} runs again, finds {1} free and takes it after waiting {2}.",
    MUTEX_RETRY_FAIL = "{0} runs again but {1} is taken by {2}: back to sleep in line.",
    MUTEX_SET_HANDOFF = "{0} runs again but {1} is taken by {2}; first in line, it sets the handoff flag, so the next unlock hands {1} to it.",
    SPIN_GOT = "{0} takes spinlock {1}: it is free and nobody is in line.",
    SPIN_WAIT = "{0} spins on {1}, held by {2}: it burns CPU {3} in line (position {4}) until its turn.",
    UNSPIN = "{0} unspins {1}; nobody is in line.",
    UNSPIN_NEXT = "{0} unspins {1}: {2}, first in line, takes it after spinning {3}.",
    READ_FAST = "{0} takes {1} for reading on the fast path: no writer, nobody queued, no handoff.",
    READ_STEAL = "{0} takes {1} for reading although {2} {2?waiter|waiters} {2?is|are} queued: no writer holds it and no handoff is set, so a reader may steal it.",
    READ_QUEUE_WRITER = "{0} cannot read {1}: {2} holds it for writing. {0} joins the wait queue (position {3}) and sleeps.",
    READ_QUEUE_FAIR = "{0} queues for {1} although readers hold it: a writer waits, and new readers may not starve it. Position {2}.",
    READ_QUEUE_HANDOFF = "{0} queues for {1} (position {2}): the handoff flag reserves it for the first waiter.",
    WRITE_FAST = "{0} takes {1} for writing on the fast path: nobody holds it and nobody waits.",
    WRITE_STEAL = "{0} takes {1} for writing although {2} {2?waiter|waiters} {2?is|are} queued: it is free and not handed off.",
    WRITE_QUEUE = "{0} cannot write {1}: it is held ({2} {2?holder|holders}). {0} joins the wait queue (position {3}) and sleeps. (Lab model choice: writers do not spin, as with CONFIG_RWSEM_SPIN_ON_OWNER off.)",
    WRITE_RETRY_GOT = "{0} runs again and finds {1} free: it takes it for writing after waiting {2}.",
    WRITE_RETRY_FAIL = "{0} runs again but {1} is held: back to sleep; it has waited {2}.",
    WRITE_SET_HANDOFF = "{0} has waited {2} for {1}, more than RWSEM_WAIT_TIMEOUT: it sets the handoff flag, so nobody may steal {1} from it.",
    UP_READ = "{0} releases its read hold on {1}; {2} {2?reader|readers} still {2?holds|hold} it.",
    UP_WRITE = "{0} releases {1}.",
    WAKE_WRITER = "{0}'s release wakes {1}, the writer first in line: woken, not granted, it retries when it runs.",
    WAKE_READERS = "{0}'s release grants {1} to {2} queued {2?reader|readers} at once: they wake already holding it.",
    DEADLOCK_EDGE = "{0} holds {1} and waits for {2}.",
    DEADLOCK = "Deadlock: {0} {0?task|tasks} each wait for a lock that the next one holds. None of them can run again; the run ends.",
    END_TIME = "The horizon: the run stops at {0} (`until`).",
    END_DONE = "Every task has exited; the run ends at {0}.",
    REFUSED = "This workload cannot run: {0} {0?error|errors}; the parameter's message lists them.",
    O1_FORK = "{0} starts with static priority {1} (nice {2}) and a timeslice of {3}: it joins the active array at priority {1}.",
    O1_ACTIVATE = "activate_task: {0}'s sleep_avg is {1} (bonus {2}), so its priority is {3}; it joins the active array.",
    O1_PREEMPT = "{0}'s priority {1} is better than {2}'s {3}: {0} preempts it (TASK_PREEMPTS_CURR).",
    O1_PICK = "{0} runs on CPU {1}: priority {2} is the best in the active array ({3} runnable).",
    O1_SWAP = "The active array is empty: schedule() swaps the arrays, and the expired tasks get their turn.",
    O1_CREDIT = "{0} waited {1} on the run queue after waking: part of it counts as sleep; sleep_avg {2}, priority {3}.",
    O1_TICK_REQUEUE = "{0} has used a TIMESLICE_GRANULARITY round: it goes to the back of priority {1} in the active array.",
    O1_TICK_ACTIVE = "{0}'s timeslice is used up, but it is interactive (priority {1}): back into the active array with a new slice of {2}.",
    O1_TICK_EXPIRED = "{0}'s timeslice is used up: it moves to the expired array at priority {1} with a new slice of {2}.",
    O1_TICK_STARVING = "{0}'s timeslice is used up; it is interactive, but the expired array has waited past STARVATION_LIMIT: it moves to the expired array at priority {1} with a new slice of {2}.",
    O1_YIELD = "{0} yields: sched_yield moves it to the expired array, behind every task in the active one.",
    YIELD_CPU = "{0} leaves the CPU for schedule() to pick again; it stays queued in its array.",
    O1_MIGRATE = "CPU {0} is about to idle: idle_balance pulls {1} from CPU {2}, the busiest run queue ({3} {3?task|tasks}), out of its {4} array.",
    O1_ATOMIC = "{0} must reschedule, but holds or waits for a spinlock: preemption waits until it unspins.",
    PIPE_WRITE = "{0} {0?write|writes} {1} {1?byte|bytes} into pipe {2}, in {3} new {3?page slot|page slots}: it holds {4} {4?byte|bytes} in {5} of its {6} slots.",
    PIPE_WRITE_WAIT = "{0} {0?write|writes} {1} {1?byte|bytes} into pipe {2} until every page slot is in use ({3} slots, {4} {4?byte|bytes}): {5} {5?byte|bytes} {5?is|are} left to write, so it sleeps on wr_wait until a read frees a slot.",
    PIPE_WRITE_ATOMIC_WAIT = "{0} cannot write yet: every page slot of pipe {1} ({2}) is in use, and the last one's page has no room for its {3} {3?byte|bytes}. A write of at most a page (PIPE_BUF) is never split, so it writes nothing and sleeps on wr_wait until a read frees a slot.",
    PIPE_READ = "{0} {0?read|reads} {1} {1?byte|bytes} from pipe {2} (it asked for {3}), emptying and freeing {4} {4?page slot|page slots}: {5} {5?byte|bytes} {5?is|are} left, in {6} of its {7} slots.",
    PIPE_READ_WAIT = "{0} finds pipe {1} empty and sleeps on rd_wait until a writer puts something in it.",
    PIPE_WAKE_READER = "The pipe was empty when {0}'s write began, or when it last woke (was_empty), so it wakes one reader, {1}, the first asleep on pipe {2}: it reads when it runs.",
    PIPE_WAKE_WRITER = "The pipe was full when {0}'s read began, or when it last woke (was_full), so it wakes one writer, {1}, the first asleep on pipe {2}, whether or not the read freed a slot (since v6.14 a read wakes a writer only if it frees a slot of a full pipe): {1} looks for a free slot when it runs.",
    STALL_NO_WRITER = "{0} waits to read pipe {1}, which is empty, and no other live task will ever write to it; {0} holds its write end itself, so no end of file comes.",
    STALL_NO_READER = "{0} waits to write into pipe {1}, which is full, and no other live task will ever read from it; {0} holds its read end itself, so no SIGPIPE comes.",
    STALL_READ = "{0} waits to read pipe {1}, which is empty; the tasks that could write to it wait too.",
    STALL_WRITE = "{0} waits to write into pipe {1}, which is full; the tasks that could read from it wait too.",
    STALL_LOCK = "{0} waits for {1}, held by a task that waits too.",
    END_STALL = "A stall: {0} {0?task|tasks} {0?waits|wait}, and nothing left can wake {0?it|them}. The run ends.",
    RESCHED = "{0} leaves the CPU for schedule() to pick again; it stays on the run queue.",
    RESCHED_ATOMIC = "{0} must reschedule, but holds or waits for a spinlock: preemption waits until it unspins.",
    YIELD_CALL = "{0} calls sched_yield() and leaves the CPU for schedule().",
    FAIR_NEW = "{0} arrives (nice {1}, weight {2}): place_entity puts it at V, vruntime {3}{4}, with its virtual deadline half a slice on, {5}{6} (a slice is {7}).",
    FAIR_WAKE = "{0} wakes with the lag it kept, {1}{2}: place_entity puts its vruntime at {3}{4}, so that V, now {5}{6}, still owes it that lag; its virtual deadline is one slice on, {7}{8}.",
    FAIR_PREEMPT = "{0} is eligible and its virtual deadline, {1}{2}, is earlier than {3}'s (vruntime {4}{5}, deadline {6}{7}): pick_eevdf would choose {0}, so wakeup_preempt reschedules {3}.",
    FAIR_WAKE_SLICE = "As {0} (virtual deadline {1}{2}) wakes, update_curr charges {3}: its vruntime {4}{5} has used up its slice (deadline now {6}{7}), so {3} is rescheduled.",
    FAIR_YIELD = "yield_task_fair: {0} is eligible, so it gives up the rest of its request: its vruntime jumps to its deadline, {1}{2}, and its virtual deadline moves a slice on, to {3}{4}.",
    FAIR_YIELD_NOTHING = "yield_task_fair: {0} is alone on the run queue or not eligible (vruntime {1}{2}): the yield only charges it; its virtual deadline stays {3}{4}.",
    FAIR_DEQUEUE = "{0} leaves the run queue eligible and keeps its lag for its wakeup: {1}{2} (V {3}{4} less its vruntime {5}{6}).",
    FAIR_DEQUEUE_CLAMPED = "{0} leaves the run queue eligible, V {3}{4} less its vruntime {5}{6}, more lag than update_entity_lag lets a task keep (two slices or a tick, whichever is longer, in its virtual time): it keeps {1}{2} for its wakeup.",
    FAIR_DEQUEUE_AHEAD = "{0} leaves the run queue not eligible (vruntime {5}{6} is past V {3}{4}): its lag is dropped to {1}{2}. (Lab model choice: v6.18 keeps it queued as a delayed dequeue until it is eligible.)",
    FAIR_PICK = "{0} runs on CPU {1}: it is eligible (vruntime {2}{3} ≤ V = {4}{5}) and its virtual deadline, {6}{7}, is the earliest of the {8} eligible, of {9} queued.",
    FAIR_TICK_DEADLINE = "The tick charges {0}: its vruntime {1}{2} has reached its virtual deadline {3}{4}; update_deadline gives it a new one, {5}{6}, and with {7} other {7?task|tasks} queued it is rescheduled.",
    FAIR_TICK_PROTECT = "The tick charges {0}: its vruntime {1}{2} has passed its protected slice (RUN_TO_PARITY, up to {3}{4}), and with {5} other {5?task|tasks} queued it is rescheduled.",
    GOOD_FORK = "{0} arrives with a counter of {1} {1?tick|ticks}: do_fork gives a child half of its parent's, here a full slice of {2} ticks at nice {3}. It joins the tail of the run queue.",
    GOOD_WAKE = "{0} wakes with its counter of {1} {1?tick|ticks} (goodness {2}) and joins the tail of the run queue.",
    GOOD_PREEMPT = "{0}'s goodness {1} beats {2}'s {3} (with its +1 for running last): reschedule_idle sets {2}'s need_resched, to switch as soon as {2} is in user space.",
    GOOD_YIELD = "sys_sched_yield: {0} moves to the tail of the run queue, marked SCHED_YIELD: its goodness is −1 at the next pick, so anyone else runnable goes first.",
    GOOD_RECALC = "Every runnable task's counter is 0: schedule() starts a new epoch. Every task, sleeping ones too, gets counter / 2 + NICE_TO_TICKS(nice): {0} ticks at nice 0 for a task that used all of its counter.",
    GOOD_PICK = "{0} runs on CPU {1}: goodness {2} (counter {3} + 20 − nice {4}, + 1 if it ran last) is the best of {5} runnable; the first in list order wins a tie.",
    GOOD_TICK_OUT = "The tick takes {0}'s counter to 0: its share of this epoch is used up; need_resched.",
    GOOD_IN_KERNEL = "{0} must reschedule, but it is in a system call: 2.4 never preempts the kernel, so the switch waits until the call returns to user space.",
    GOOD_SYSCALL_RETURN = "{0}'s system call returns with need_resched set: on the way back to user space (ret_from_sys_call) it calls schedule().",
    GOOD_SMP_IDLE = "reschedule_idle: CPU {1} runs its idle task and is {2}: {0} is sent there, and CPU {1} runs schedule().",
    GOOD_SMP_PREEMPT = "reschedule_idle: no CPU {0} may use is idle; on CPU {1} its goodness {2} beats {3}'s {4} (PROC_CHANGE_PENALTY to each on its own CPU, +1 to {3} for its own mm; a spent counter weighs 0, with no bonus) by the most: {3}'s need_resched is set, to switch as soon as {3} is in user space.",
    GOOD_PICK_SMP = "{0} runs on CPU {1}: goodness {2} (counter {3} + 20 − nice {4}, + PROC_CHANGE_PENALTY {6} if it last ran on CPU {1}, + 1 if it ran last there) is the best of the {5} runnable {5?task|tasks} CPU {1} may take (not running elsewhere); the first in list order wins a tie.",
    GOOD_RECALC_SMP = "Every runnable task CPU {1} may take (not running elsewhere) has a counter of 0: schedule() starts a new epoch. Every task, sleeping and running ones too, gets counter / 2 + NICE_TO_TICKS(nice): {0} ticks at nice 0 for a task that used all of its counter.",
    FAIR_SELECT = "select_task_rq_fair: {0} joins CPU {1}'s queue, {2} (CPU {3}). (Lab simplification of select_idle_sibling: no wake_affine, cache domains or SMT siblings.)",
    FAIR_MIGRATE = "CPU {0} finds its queue empty: newidle balancing pulls {1} from CPU {2}, the queue with the most tasks ({3}), the waiting task that ran least recently. It leaves with lag {4}{5} and is placed here at vruntime {6}{7}, deadline {8}{9}, as far after its vruntime as before (PLACE_REL_DEADLINE: a migration is no sleep, so what was left of its slice goes with it). (Lab simplification of sched_balance_newidle: by task count, no cache-hotness, no rd->overloaded or avg_idle gate; one task, as a CONFIG_PREEMPTION kernel's detach_tasks takes on a newly idle CPU.)",
    O1_REBALANCE = "CPU {0}, busy, balances (rebalance_tick: every {5} while busy, its domain's interval times busy_factor): CPU {2} has {3} {3?task|tasks}, it has {4}, so load_balance pulls {1} out of CPU {2}'s {6} array.",
    O1_REBALANCE_PINNED = "CPU {0}, busy, balances (rebalance_tick: every {4} while busy): CPU {1} has {2} {2?task|tasks}, it has {3}, but none of CPU {1}'s tasks may run on CPU {0} (cpus_allowed): load_balance finds them all pinned and backs off, doubling its interval up to MAX_PINNED_INTERVAL rather than max_interval: next in {5} while busy.",
    LOCK_COST = "{0} spends {1} in the kernel on the lock operation itself (the workload's `lockcost`).",
    PIPE_WRITE_MERGE = "{0} {0?write|writes} {1} {1?byte|bytes} into pipe {2}, merged into the page of its last slot (a write not a whole number of pages first fills the last page, if it has room): it holds {4} {4?byte|bytes} in {5} of its {6} slots.",
    PIPE_WRITE_BOTH = "{0} {0?write|writes} {1} {1?byte|bytes} into pipe {2}: {3} merged into the page of its last slot, the rest in {4} new {4?page slot|page slots}. It holds {5} {5?byte|bytes} in {6} of its {7} slots.",
    PIPE_WRITE_FULL_WAIT = "{0} cannot write yet: every page slot of pipe {1} ({2}) is in use, and the last one's page has no room for the part of its {3} {3?byte|bytes} that is not a whole page. It writes nothing and sleeps on wr_wait until a read frees a slot.",
    PIPE_WRITE_STILL_FULL = "{0} runs again, but every page slot of pipe {1} ({2}) is still in use (the read that woke it freed none): wait_event sees pipe_writable false, and {0} sleeps again at the tail of wr_wait. A wakeup for nothing: since v6.14 a read wakes a writer only if it frees a slot of a full pipe.",
    PIPE_READ_STILL_EMPTY = "{0} runs again, but pipe {1} is empty (another reader took what was there): wait_event sees pipe_readable false, and {0} sleeps again at the tail of rd_wait.",
    PIPE_WAKE_NEXT_READER = "{0} had slept before it read, and leaves {3} {3?byte|bytes} in pipe {2}: it wakes the next reader asleep, {1} (wake_next_reader: each wakeup wakes one exclusive waiter, so the woken pass it on).",
    PIPE_WAKE_NEXT_WRITER = "{0} had slept before it wrote, and leaves pipe {2} with a free slot: it wakes the next writer asleep, {1} (wake_next_writer: each wakeup wakes one exclusive waiter, so the woken pass it on).",
    PIPE_EOF = "{0} finds pipe {1} empty, and no task holds its write end any more (a task holds the ends its program uses until it exits): pipe_read returns 0, end of file, and {0} goes on.",
    PIPE_SIGPIPE = "{0} {0?write|writes} to pipe {1}, but no task holds its read end any more: pipe_write sends it SIGPIPE, whose default action kills it (a program that ignores SIGPIPE gets EPIPE from write instead).",
    PIPE_RELEASE_READERS = "With {0} gone, no task holds pipe {1}'s write end: pipe_release wakes every reader asleep on it ({2}), to re-check: each reads what is left, else end of file.",
    PIPE_RELEASE_WRITERS = "With {0} gone, no task holds pipe {1}'s read end: pipe_release wakes every writer asleep on it ({2}), to be sent SIGPIPE.",
    SIGPIPE_EXIT = "{0} is killed by SIGPIPE at {1}: turnaround {2}, response {3}.",
    PIPE_WRITE_SLOT_TAKEN = "{0} runs again, but every page slot of pipe {1} ({2}) is in use again: another writer took the free slot first. wait_event sees pipe_writable false, and {0} sleeps again at the tail of wr_wait.",
    PIPE_WRITE_PAGES_WAIT = "{0} cannot write yet: every page slot of pipe {1} ({2}) is in use, and its {3} {3?byte|bytes} {3?is|are} whole pages, each needing a slot of its own (no merge is tried). It writes nothing and sleeps on wr_wait until a read frees a slot.",
}

pub(crate) const BODY: u16 = 0;
pub(crate) const PICK_FIFO_FN: u16 = 1;
pub(crate) const PICK_SJF_FN: u16 = 2;
pub(crate) const PICK_STCF_FN: u16 = 3;
pub(crate) const TICK_RR_FN: u16 = 4;
pub(crate) const MUTEX_LOCK_FN: u16 = 5;
pub(crate) const MUTEX_UNLOCK_FN: u16 = 6;
pub(crate) const SPIN_LOCK_FN: u16 = 7;
pub(crate) const SPIN_UNLOCK_FN: u16 = 8;
pub(crate) const DOWN_READ_FN: u16 = 9;
pub(crate) const DOWN_WRITE_FN: u16 = 10;
pub(crate) const UP_FN: u16 = 11;
pub(crate) const DEADLOCK_FN: u16 = 12;
pub(crate) const O1_SCHEDULE_FN: u16 = 13;
pub(crate) const O1_TICK_FN: u16 = 14;
pub(crate) const O1_WAKE_FN: u16 = 15;
pub(crate) const O1_YIELD_FN: u16 = 16;
pub(crate) const FAIR_WAKE_FN: u16 = 17;
pub(crate) const FAIR_SCHEDULE_FN: u16 = 18;
pub(crate) const FAIR_TICK_FN: u16 = 19;
pub(crate) const FAIR_YIELD_FN: u16 = 20;
pub(crate) const GOOD_WAKE_FN: u16 = 21;
pub(crate) const GOOD_SCHEDULE_FN: u16 = 22;
pub(crate) const GOOD_TICK_FN: u16 = 23;
pub(crate) const GOOD_YIELD_FN: u16 = 24;
pub(crate) const PIPE_WRITE_FN: u16 = 25;
pub(crate) const PIPE_READ_FN: u16 = 26;
pub(crate) const PIPE_RELEASE_FN: u16 = 27;

/// Lines of the task body's function: what each op of the workload does.
pub(crate) const BODY_RUN: u16 = 1;
pub(crate) const BODY_SYS: u16 = 2;
pub(crate) const BODY_SLEEP: u16 = 3;
pub(crate) const BODY_YIELD: u16 = 4;
pub(crate) const BODY_EXIT: u16 = 5;
pub(crate) const BODY_LOCK_COST: u16 = 6;

pub(crate) fn at(function: u16, line: u16) -> CodeLoc {
    CodeLoc { function, line }
}

const OSTEP: &str = "https://pages.cs.wisc.edu/~remzi/OSTEP/cpu-sched.pdf";
const MUTEX_C: &str = "https://elixir.bootlin.com/linux/v6.13.7/source/kernel/locking/mutex.c";
const FAIR_618: &str = "https://elixir.bootlin.com/linux/v6.18/source/kernel/sched/fair.c";
const TARBALL_2424: &str = "https://cdn.kernel.org/pub/linux/kernel/v2.4/linux-2.4.24.tar.gz";
const QSPINLOCK_C: &str = "https://elixir.bootlin.com/linux/v6.13.7/source/kernel/locking/qspinlock.c";

pub(crate) static CODE: &[Function] = &[
    Function {
        name: "task (the workload's body)",
        source_url: "https://elixir.bootlin.com/linux/v6.13.7/source/kernel/sched/core.c",
        lines: &[
            "for each operation of the task:",
            "    run d    -> compute in user mode for d",
            "    sys d    -> compute in the kernel for d",
            "    sleep d  -> schedule_timeout(d): off the CPU until woken",
            "    yield    -> sched_yield(): to the tail of the run queue",
            "    exit     -> do_exit(): never runs again",
            "    take a lock -> if `lockcost`: its fast or slow path's time in the kernel",
        ],
    },
    Function {
        name: "pick_next (FIFO)",
        source_url: OSTEP,
        lines: &["pick_next():", "    return the task queued earliest    // runs until it blocks or exits"],
    },
    Function {
        name: "pick_next (SJF)",
        source_url: OSTEP,
        lines: &[
            "pick_next():",
            "    return the queued task with the least total CPU demand",
            "    // ties: the one queued earliest; never preempts",
        ],
    },
    Function {
        name: "pick_next (STCF)",
        source_url: OSTEP,
        lines: &[
            "pick_next():",
            "    return the queued task with the least CPU time left",
            "on_arrival(task):",
            "    if task.left < current.left: preempt current",
        ],
    },
    Function {
        name: "scheduler_tick (round robin)",
        source_url: OSTEP,
        lines: &[
            "pick_next(): return the head of the queue; slice = quantum",
            "scheduler_tick():",
            "    if slice used up && others wait: enqueue_tail(current); reschedule",
            "    if slice used up && nobody waits: slice = quantum",
        ],
    },
    Function {
        name: "mutex_lock",
        source_url: MUTEX_C,
        lines: &[
            "mutex_lock(lock):",
            "    if (lock is free && !HANDOFF) take it; return  // fast path, even past waiters",
            "    // (owner running: spin on it; not modelled in the Lab)",
            "    add to the tail of lock->wait_list; sleep",
            "    on wakeup: retry; first waiter that fails sets HANDOFF",
        ],
    },
    Function {
        name: "mutex_unlock",
        source_url: MUTEX_C,
        lines: &[
            "mutex_unlock(lock):",
            "    if (HANDOFF) give the lock to the first waiter; wake it",
            "    else release; wake the first waiter (woken, not granted)",
        ],
    },
    Function {
        name: "queued_spin_lock",
        source_url: QSPINLOCK_C,
        lines: &[
            "queued_spin_lock(lock):",
            "    if (lock is free && nobody queued) take it; return",
            "    join the MCS queue; spin on this CPU until the lock passes to us",
        ],
    },
    Function {
        name: "queued_spin_unlock",
        source_url: QSPINLOCK_C,
        lines: &["queued_spin_unlock(lock):", "    release; the head of the queue takes it next"],
    },
    Function {
        name: "down_read",
        source_url: "https://elixir.bootlin.com/linux/v6.13.7/source/kernel/locking/rwsem.c#L1243",
        lines: &[
            "down_read(sem):",
            "    if (!(count & (WRITER_LOCKED | WAITERS | HANDOFF))) return  // fast path",
            "    if (READER_OWNED && readers > 1) goto queue  // do not starve a writer",
            "    if (!(count & (WRITER_LOCKED | HANDOFF))) return  // reader steals",
            "queue: add to the tail of the wait list; sleep until granted",
        ],
    },
    Function {
        name: "down_write",
        source_url: "https://elixir.bootlin.com/linux/v6.13.7/source/kernel/locking/rwsem.c#L1300",
        lines: &[
            "down_write(sem):",
            "    if (cmpxchg(count, 0, WRITER_LOCKED)) return  // fast path",
            "    add to the tail of the wait list",
            "    for (;;) { if (rwsem_try_write_lock()) break;",
            "        if (first && waited > RWSEM_WAIT_TIMEOUT) set HANDOFF; schedule() }",
        ],
    },
    Function {
        name: "up_read / up_write",
        source_url: "https://elixir.bootlin.com/linux/v6.13.7/source/kernel/locking/rwsem.c#L411",
        lines: &[
            "up_read(sem) / up_write(sem):",
            "    release; if (nobody holds it && WAITERS) rwsem_wake(sem)",
            "rwsem_mark_wake(): a writer first: wake it (not granted)",
            "    readers first: grant every queued reader, skipping writers",
        ],
    },
    Function {
        name: "the wait-for graph",
        source_url: "https://elixir.bootlin.com/linux/v6.13.7/source/kernel/locking/lockdep.c",
        lines: &[
            "follow: task -> the lock it waits for -> that lock's holder -> ...",
            "a task met twice closes a cycle: deadlock",
        ],
    },
    Function {
        name: "schedule (2.6.14)",
        source_url: "https://elixir.bootlin.com/linux/v2.6.14/source/kernel/sched.c",
        lines: &[
            "schedule():",
            "    prev->sleep_avg -= run_time / CURRENT_BONUS(prev)",
            "    if (!rq->active->nr_active) swap(rq->active, rq->expired)",
            "    next = the first task of the best priority in rq->active",
            "    if (next->activated) credit its run-queue wait as sleep; requeue it",
            "    context_switch(prev, next)",
            "idle_balance(cpu):   // no task here: pull half the difference from the busiest CPU",
            "rebalance_tick(cpu, NOT_IDLE):   // at each tick; due every interval × busy_factor ms",
            "    load_balance: pull half the difference from the busiest CPU; interval reset or doubled",
            "    all of the busiest CPU's tasks pinned elsewhere: double the interval up to MAX_PINNED_INTERVAL",
        ],
    },
    Function {
        name: "scheduler_tick (2.6.14)",
        source_url: "https://elixir.bootlin.com/linux/v2.6.14/source/kernel/sched.c",
        lines: &[
            "scheduler_tick():",
            "    if (!--p->time_slice) {",
            "        p->prio = effective_prio(p); p->time_slice = task_timeslice(p)",
            "        if (TASK_INTERACTIVE(p) && !EXPIRED_STARVING(rq)) enqueue into the active array",
            "        else enqueue into the expired array",
            "    } else if (TASK_INTERACTIVE(p) && slice used % TIMESLICE_GRANULARITY == 0) requeue",
        ],
    },
    Function {
        name: "try_to_wake_up (2.6.14)",
        source_url: "https://elixir.bootlin.com/linux/v2.6.14/source/kernel/sched.c",
        lines: &[
            "try_to_wake_up(p):",
            "    activate_task(p): recalc_task_prio(p, now)   // sleep_avg, prio",
            "    enqueue p into rq->active",
            "    if (TASK_PREEMPTS_CURR(p, rq)) resched_task(rq->curr)",
        ],
    },
    Function {
        name: "sys_sched_yield (2.6.14)",
        source_url: "https://elixir.bootlin.com/linux/v2.6.14/source/kernel/sched.c",
        lines: &["sys_sched_yield():", "    move current into rq->expired at its priority", "    schedule()"],
    },
    Function {
        name: "enqueue_task_fair / wakeup_preempt (6.18)",
        source_url: FAIR_618,
        lines: &[
            "try_to_wake_up(p) / wake_up_new_task(p):",
            "    place_entity: vruntime = V; deadline = vruntime + vslice / 2   // a new task",
            "    place_entity: vruntime = V - lag * (load + w) / load; deadline = vruntime + vslice",
            "    update_curr(curr); if (pick_eevdf() == p || curr's slice used up) resched_curr()",
            "select_task_rq_fair(p):   // several CPUs; Lab simplification of select_idle_sibling",
            "    prev CPU if idle, else the first idle CPU after it, else prev; p brings its lag",
        ],
    },
    Function {
        name: "pick_next_task_fair (6.18)",
        source_url: FAIR_618,
        lines: &[
            "schedule():",
            "    if prev sleeps: update_curr; dequeue_entity: vlag = clamp(V - vruntime)",
            "    pick_eevdf(): of the tasks with vruntime <= V, the earliest virtual deadline",
            "        (RUN_TO_PARITY: curr stays while vruntime < its protected vruntime)",
            "    set_next_entity(next): protect it up to its deadline",
            "    queue empty: sched_balance_newidle   // Lab simplification: pull one waiting task,",
            "        least recently run, from the queue with the most tasks (2 or more), lag kept",
        ],
    },
    Function {
        name: "task_tick_fair / update_curr (6.18)",
        source_url: FAIR_618,
        lines: &[
            "task_tick_fair(curr):   // spinlock held: the reschedule waits",
            "    update_curr: vruntime += delta * NICE_0_LOAD / weight",
            "    if (vruntime >= deadline) { deadline = vruntime + vslice; resched if others queued }",
            "    else if (vruntime >= protected vruntime && others queued) resched",
        ],
    },
    Function {
        name: "yield_task_fair (6.18)",
        source_url: FAIR_618,
        lines: &[
            "yield_task_fair():",
            "    if (nr_running == 1) return; update_curr(curr)",
            "    if (eligible(curr)) { vruntime = deadline; deadline += vslice }",
        ],
    },
    Function {
        name: "do_fork / reschedule_idle (2.4.24)",
        source_url: TARBALL_2424,
        lines: &[
            "wake_up_process(p): add_to_runqueue(p)   // at the tail of the list",
            "do_fork: p->counter = (current->counter + 1) >> 1   // half of the parent's",
            "reschedule_idle(p):   // one CPU",
            "    if (goodness(p) > goodness(curr) + 1 for its own mm) curr->need_resched = 1",
            "reschedule_idle(p):   // SMP",
            "    if (p's last CPU runs its idle task) send p there",
            "    else if (a CPU p may use is idle) send p to the one idle longest",
            "    else the CPU where goodness(p) - goodness(curr) is largest and > 0: curr->need_resched = 1",
        ],
    },
    Function {
        name: "schedule (2.4.24)",
        source_url: TARBALL_2424,
        lines: &[
            "schedule():",
            "    if (prev is not runnable) del_from_runqueue(prev)",
            "    c = -1000; for each p on the run queue: weight = goodness(p) (-1 if SCHED_YIELD); keep the first best",
            "    if (c == 0) { for every task: counter = counter / 2 + NICE_TO_TICKS(nice); repeat }",
            "goodness(p) = p->counter ? p->counter + 20 - p->nice (+ 1 same mm) : 0",
            "SMP: only p not running elsewhere and allowed here; + PROC_CHANGE_PENALTY if p last ran here",
            "__schedule_tail(prev): if (prev still runnable and did not yield) reschedule_idle(prev)",
        ],
    },
    Function {
        name: "update_process_times (2.4.24)",
        source_url: TARBALL_2424,
        lines: &[
            "update_process_times():   // spinlock held: the reschedule waits",
            "    if (--p->counter <= 0) { p->counter = 0; p->need_resched = 1 }",
        ],
    },
    Function {
        name: "sys_sched_yield (2.4.24)",
        source_url: TARBALL_2424,
        lines: &[
            "sys_sched_yield():",
            "    current->policy |= SCHED_YIELD; current->need_resched = 1",
            "    move_last_runqueue(current)",
        ],
    },
    Function {
        name: "pipe_write (v6.13)",
        source_url: "https://elixir.bootlin.com/linux/v6.13.7/source/fs/pipe.c#L428",
        lines: &[
            "pipe_write(pipe, n):   // a ring of max_usage page slots",
            "    if (!pipe->readers) { send_sig(SIGPIPE); return -EPIPE }   // also after each wait",
            "    was_empty = pipe_empty(); merge n % PAGE_SIZE into the last slot's page if it has room",
            "    while (bytes left) { if (!pipe_full) { take a new slot, copy up to a page; continue }",
            "        if (was_empty) wake_up(rd_wait)   // before sleeping: one exclusive reader",
            "        wait_event_exclusive(wr_wait, pipe_writable)   // until a slot is free",
            "        was_empty = pipe_empty(); wake_next_writer = true }",
            "    if (was_empty) wake_up(rd_wait)   // one exclusive reader",
            "    if (wake_next_writer && !pipe_full) wake_up(wr_wait)",
        ],
    },
    Function {
        name: "pipe_read (v6.13)",
        source_url: "https://elixir.bootlin.com/linux/v6.13.7/source/fs/pipe.c#L251",
        lines: &[
            "pipe_read(pipe, n):",
            "    was_full = pipe_full()",
            "    while (!pipe_empty) { copy from the tail slot; free it once empty; if (n read) break }",
            "    if (pipe_empty && !pipe->writers) break   // returns what was read: 0 is end of file",
            "    if (nothing read) { wait_event_exclusive(rd_wait, pipe_readable); was_full = pipe_full(); wake_next_reader = true; loop }",
            "    if (was_full) wake_up(wr_wait)   // v6.14: only if a read freed a slot",
            "    if (wake_next_reader && !pipe_empty) wake_up(rd_wait)",
        ],
    },
    Function {
        name: "pipe_release (v6.13)",
        source_url: "https://elixir.bootlin.com/linux/v6.13.7/source/fs/pipe.c#L723",
        lines: &[
            "pipe_release(pipe):   // a task that held an end has exited",
            "    if (its read end) pipe->readers--; if (its write end) pipe->writers--",
            "    if (!pipe->readers != !pipe->writers) {   // one side has just gone",
            "        wake_up_all(rd_wait); wake_up_all(wr_wait) }   // every sleeper re-checks",
        ],
    },
];
