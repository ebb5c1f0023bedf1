//! Narration templates and pseudocode for the rwsem playground.
//! The pseudocode is our own simplified rendering; each function links to the
//! real one at v6.13.

use crate::run::narration::{CodeLoc, Function};

crate::templates! {
    PHASE_FREE = "{0} is free",
    PHASE_READ = "{0} is held for reading",
    PHASE_WRITE = "{0} holds {1} for writing",
    ITER_START = "{0} starts",
    ITER_WANT = "{0} wants {1}",
    ITER_HOLD_DONE = "{0} is done with {1}",
    ITER_SLICE = "{0}'s timeslice ends",
    ITER_SPIN_LIMIT = "{0}'s spin limit expires",
    ITER_END = "Time is up at {0}",
    END = "The run ends at {0} of simulated time; the totals on screen are final.",
    WRITE_QUEUE_GOT = "{0} joins the line for {1}, finds it free, and takes it at once. {0} finds waiters queued, so the fast path fails; it joins the queue, and its first rwsem_try_write_lock finds {1} free and not handed off, so it takes it at once.",
    WAKE_WRITER_AGAIN = "{0} goes to wake the first in line, but {1} is already awake. {0}'s wakeup finds {1} at the head of the queue already woken and waiting for a CPU: nothing more to do.",
    START = "{0} starts on CPU {1} and enters its loop.",
    START_WAIT = "{0} is ready to start but every CPU is busy: it waits on the run queue.",
    THINK = "{0} runs in user space for {1} before it needs {2} again.",
    READ_FAST = "{0} gets {1} for reading at once. {0} takes {1} for reading on the fast path: no writer holds it, nobody is queued and no handoff is pending, so one atomic add is enough.",
    READ_QUEUE_WRITER = "{0} cannot read {1}: {2} holds it for writing. {0} joins the tail of the wait queue (position {3}) and sleeps until an unlock wakes it.",
    READ_QUEUE_FAIR = "{0} must wait in line, because {2} is already waiting to write. {0} queues for {1} although readers hold it: {2} is waiting to write, and letting new readers keep jumping ahead would starve it. {0} is number {3} in the queue.",
    READ_QUEUE_HANDOFF = "{0} must wait in line: {1} is kept for the first in line. {0} queues for {1} (position {2}): the handoff flag reserves the lock for the first waiter, so nobody may steal it.",
    READ_STEAL = "{0} jumps the line and gets {1} for reading. {0} takes {1} for reading on the slow path: waiters are queued, but no writer holds it and no handoff is set, so a reader may steal it.",
    READ_STEAL_WAKE = "{0} jumps the line for {1} and lets the waiting readers in with it. {0} steals {1} for reading as the first reader and brings the queued readers along.",
    WRITE_FAST = "{0} gets {1} for writing at once: nobody else has it. {0} takes {1} for writing on the fast path: the count was 0 (no readers, no writer, no waiters), so one compare-and-swap takes it.",
    WRITE_STEAL = "{0} jumps the line and gets {1} for writing. {0} takes {1} for writing although {2} {2?waiter|waiters} {2?is|are} queued: the lock is free and not handed off, so a newcomer may steal it before the woken waiter runs.",
    WRITE_SPIN_WRITER = "{0} keeps trying for {1} instead of going to sleep. {0} finds {1} held by {2}, which is running on a CPU, so it spins instead of sleeping: a running owner should let go soon. (Model choice: one spinner at a time.)",
    WRITE_SPIN_READERS = "{0} keeps trying for {1} for a short while, hoping the readers leave. {0} finds {1} held by {2} {2?reader|readers} and spins for at most {3} (rwsem_rspin_threshold) hoping they leave.",
    WRITE_SPIN_GOT = "{0} gets {1} without ever going to sleep. {0} was spinning and takes {1} the moment it is free, after {2} of spinning.",
    WRITE_SPIN_GIVE_UP = "{0} gives up trying and goes to sleep in line. {0} stops spinning after {1}: readers still hold {2}. It joins the wait queue (position {3}) and sleeps.",
    WRITE_SPIN_OWNER_OFF = "{0} gives up trying and goes to sleep in line: the owner of {1} is not running. {0} stops spinning: the owner of {1} lost its CPU and could be away for a whole timeslice. It joins the wait queue (position {2}) and sleeps.",
    WRITE_QUEUE = "{0} must wait in line for {1}. {0} cannot write {1}: it is held ({2}). {0} joins the tail of the wait queue (position {3}) and sleeps.",
    WRITE_RETRY_GOT = "{0} runs again and retries: {1} is free, so it takes it for writing after waiting {2}.",
    WRITE_RETRY_FAIL = "{0} runs again but {1} is taken ({2}); back to sleep. It has waited {3} so far.",
    WRITE_SET_HANDOFF = "{0} has waited too long, so it claims {1} for itself: nobody may jump the line now. {0} has waited {1}, more than RWSEM_WAIT_TIMEOUT ({2}): it sets the handoff flag, so the lock is reserved for it and nobody may steal it. (Model choice: the kernel's handoff waiter spins on the owner; here it sleeps until woken. Readers never set handoff in this model.)",
    HOLD = "{0} works with {1} held for {2} (kernel mode).",
    GRANTED_RUN = "{0} gets a CPU and continues: it was granted {1} while it slept, after waiting {2}.",
    UP_READ = "{0} drops its read hold on {1}; {2} {2?reader|readers} still {2?holds|hold} it.",
    UP_READ_WAKE = "{0} is the last reader to leave {1}, and others wait in line, so it calls rwsem_wake() for the next in line.",
    UP_WRITE = "{0} releases {1}; nobody is queued.",
    UP_WRITE_WAKE = "{0} releases {1}, and others wait in line, so it calls rwsem_wake() for the next in line.",
    WAKE_WRITER = "{0} wakes {1}, the writer at the head of the queue. It is woken, not granted: it must get a CPU and retry, and a newcomer may take the lock first.",
    WAKE_READERS = "{0} hands {1} to the waiting readers, all at once. {0}'s wakeup grants {1} to {2} queued {2?reader|readers} at once, skipping writers between them: the readers wake as a batch, already holding the lock.",
    WOKEN_RUNNABLE = "{0} is runnable but every CPU is busy: it waits on the run queue.",
    SLICE_PREEMPT = "{0} has used its {1} timeslice and {2} is waiting for a CPU, so {0} goes to the back of the run queue.",
    SLICE_RENEW = "{0} has used its {1} timeslice; nobody else wants the CPU, so it gets another.",
    SWITCH_IN = "{0} gets CPU {1} after {2} on the run queue.",
    SWITCH_IN_IDLE = "{0} runs at once on CPU {1}, which was idle.",
    SPIN_NEED_RESCHED = "{0} must give up its CPU, so it stops trying for {1} and sleeps in line. {0}'s timeslice ends while it spins on {1}, and others want the CPU: it stops spinning, joins the wait queue (position {2}) and sleeps.",
    EMPTY = "Nothing to simulate: with no readers and no writers, {0} is never taken.",
}

pub(crate) const READER_LOOP: u16 = 0;
pub(crate) const WRITER_LOOP: u16 = 1;
pub(crate) const DOWN_READ: u16 = 2;
pub(crate) const DOWN_READ_SLOW: u16 = 3;
pub(crate) const DOWN_WRITE: u16 = 4;
pub(crate) const DOWN_WRITE_SLOW: u16 = 5;
pub(crate) const UP_READ: u16 = 6;
pub(crate) const UP_WRITE: u16 = 7;
pub(crate) const MARK_WAKE: u16 = 8;
pub(crate) const SCHEDULE: u16 = 9;

pub(crate) fn at(function: u16, line: u16) -> CodeLoc {
    CodeLoc { function, line }
}

pub(crate) static CODE: &[Function] = &[
    Function {
        name: "reader task (model)",
        source_url: "https://elixir.bootlin.com/linux/v6.13.7/source/mm/memory.c",
        lines: &[
            "for (;;) {",
            "    think();                      // user mode",
            "    down_read(&mm->mmap_lock);    // e.g. a page fault",
            "    work();                       // kernel mode, lock held",
            "    up_read(&mm->mmap_lock);",
            "}",
        ],
    },
    Function {
        name: "writer task (model)",
        source_url: "https://elixir.bootlin.com/linux/v6.13.7/source/mm/mmap.c",
        lines: &[
            "for (;;) {",
            "    think();                      // user mode",
            "    down_write(&mm->mmap_lock);   // e.g. mmap() or munmap()",
            "    work();                       // kernel mode, lock held",
            "    up_write(&mm->mmap_lock);",
            "}",
        ],
    },
    Function {
        name: "down_read",
        source_url: "https://elixir.bootlin.com/linux/v6.13.7/source/kernel/locking/rwsem.c#L1243",
        lines: &[
            "down_read(sem):",
            "    count = atomic_add_return(READER_BIAS, &sem->count)",
            "    if (!(count & (WRITER_LOCKED | WAITERS | HANDOFF)))",
            "        return                    // fast path: shared",
            "    rwsem_down_read_slowpath(sem, count)",
        ],
    },
    Function {
        name: "rwsem_down_read_slowpath",
        source_url: "https://elixir.bootlin.com/linux/v6.13.7/source/kernel/locking/rwsem.c#L996",
        lines: &[
            "rwsem_down_read_slowpath(sem, count):",
            "    if (owner is READER_OWNED && readers > 1 && !WRITER_LOCKED)",
            "        goto queue                // do not starve a waiting writer",
            "    if (!(count & (WRITER_LOCKED | HANDOFF))) {",
            "        if (first reader && WAITERS) rwsem_mark_wake(READ_OWNED)",
            "        return                    // reader lock stealing",
            "    }",
            "queue:",
            "    list_add_tail(&waiter, &sem->wait_list); set WAITERS",
            "    rwsem_cond_wake_waiter(sem)   // wake others if the lock is free",
            "    sleep until a waker grants the lock",
        ],
    },
    Function {
        name: "down_write",
        source_url: "https://elixir.bootlin.com/linux/v6.13.7/source/kernel/locking/rwsem.c#L1300",
        lines: &[
            "down_write(sem):",
            "    if (atomic_cmpxchg(&sem->count, 0, WRITER_LOCKED) == 0)",
            "        return                    // fast path: nobody anywhere",
            "    rwsem_down_write_slowpath(sem)",
        ],
    },
    Function {
        name: "rwsem_down_write_slowpath",
        source_url: "https://elixir.bootlin.com/linux/v6.13.7/source/kernel/locking/rwsem.c#L1107",
        lines: &[
            "rwsem_down_write_slowpath(sem):",
            "    if (rwsem_can_spin_on_owner(sem) && rwsem_optimistic_spin(sem))",
            "        return                    // took it while spinning",
            "    list_add_tail(&waiter, &sem->wait_list); set WAITERS",
            "    for (;;) {",
            "        if (rwsem_try_write_lock(sem, &waiter)) break",
            "        if (first waiter && waited > RWSEM_WAIT_TIMEOUT) set HANDOFF",
            "        schedule()                // sleep until woken",
            "    }",
            "    list_del(&waiter)             // we own it",
        ],
    },
    Function {
        name: "up_read",
        source_url: "https://elixir.bootlin.com/linux/v6.13.7/source/kernel/locking/rwsem.c#L1338",
        lines: &[
            "up_read(sem):",
            "    count = atomic_sub_return(READER_BIAS, &sem->count)",
            "    if ((count & (LOCK_MASK | WAITERS)) == WAITERS)",
            "        rwsem_wake(sem)           // last reader out wakes the queue",
        ],
    },
    Function {
        name: "up_write",
        source_url: "https://elixir.bootlin.com/linux/v6.13.7/source/kernel/locking/rwsem.c#L1360",
        lines: &[
            "up_write(sem):",
            "    count = atomic_sub_return(WRITER_LOCKED, &sem->count)",
            "    if (count & WAITERS)",
            "        rwsem_wake(sem)",
        ],
    },
    Function {
        name: "rwsem_mark_wake",
        source_url: "https://elixir.bootlin.com/linux/v6.13.7/source/kernel/locking/rwsem.c#L411",
        lines: &[
            "rwsem_mark_wake(sem, type):",
            "    waiter = first entry of sem->wait_list",
            "    if (waiter is a writer) {",
            "        if (type == WAKE_ANY) wake_up(waiter)  // woken, not granted",
            "        return",
            "    }",
            "    for each reader on the list, skipping writers, up to 256:",
            "        grant it a read hold; remove it from the list",
            "    clear HANDOFF; wake up every granted reader",
        ],
    },
    Function {
        name: "schedule (round-robin model)",
        source_url: "https://elixir.bootlin.com/linux/v6.13.7/source/kernel/sched/core.c",
        lines: &[
            "schedule():",
            "    if (prev is still runnable) enqueue_tail(prev)",
            "    next = dequeue_head()         // round-robin: oldest first",
            "    context_switch(prev, next)",
            "scheduler_tick():",
            "    if (slice used up && others are waiting) preempt current",
        ],
    },
];
