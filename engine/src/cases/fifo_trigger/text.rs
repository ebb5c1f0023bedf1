//! Narration and pseudocode for the FIFO trigger. The programs are the seed's
//! own test program; the kernel functions are our simplified rendering of
//! 2.6.1, 2.4.24 and 6.18 (the `today` variant), each linked to the real source.

use crate::run::narration::{CodeLoc, Function};

crate::templates! {
    PHASE_START = "The listener waits alone",
    PHASE_FAST = "Fast writes",
    PHASE_BURST = "Burst {0}: slow writes",
    ITER_START = "start",
    ITER_WRITE = "writer: write #{0}",
    ITER_ENXIO = "writer: open() → ENXIO",
    ITER_ENXIO_SPIN = "writer: open() → ENXIO, again",
    ITER_AGAIN = "writer: pipe full, write() → EAGAIN",
    ITER_LISTENER = "listener: open, select, close, loop",
    ITER_SCHEDULE = "schedule() on CPU {0}",
    ITER_TICK = "timer tick",
    ITER_END = "time is up",
    START = "The listener starts first and waits for the writer. {0} (./a.out LISTENER &) creates test.fifo and enters its loop. The writer is started {1} later, as the reporter typed its command.",
    START_26 = "The listener starts first and waits for the writer. {0} (./a.out LISTENER &) creates test.fifo and enters its loop. The writer is started {1} later, as the reporter typed its command. The shell forked it with {2} of its timeslice left, and copy_process gives the child half of it: a first slice of {3} (the shell's slice is a model choice, calibrated on the reported 302 ms).",
    L_OPEN_NEW = "{0} opens the FIFO to read from it and finds it empty: test.fifo, O_NONBLOCK. No pipe buffer existed, so an empty one is allocated. No writer has it open, so fifo_open sets f_version = WCOUNTER: POLLHUP stays hidden until a writer has come and gone.",
    L_OPEN_HELD = "{0} opens the FIFO again; the writer still has it open, so what was in it is still there: the old buffer, with {1} unread {1?byte|bytes}.",
    L_SELECT_SLEEP = "{0} goes to sleep until something happens on the FIFO. select(): pipe_poll finds no data and no hangup, so {0} sleeps on the pipe's wait queue (TASK_INTERRUPTIBLE). Sleeping is what earns sleep_avg on 2.6.",
    L_SELECT_AGAIN = "{0} wakes up, finds nothing new, and goes back to sleep. {0} was woken, but pipe_poll still finds no data and no hangup: back to sleep in select().",
    L_SELECT_DATA = "{0} finds bytes already in the FIFO, so it does not sleep. select() returns at once: {1} {1?byte|bytes} {1?sits|sit} in the pipe (POLLIN). Nobody ever reads them: {0} only wanted a signal.",
    L_SELECT_HUP = "{0} sees that a writer has come and gone, so it stops waiting. select() returns: no data, but a writer it saw has gone (POLLHUP, which select counts as readable).",
    L_READ = "{0} empties the FIFO before it closes it. Drain fix: {0} {0?read|reads} the {1} {1?byte|bytes} before closing, so a reopen can never find stale data.",
    L_READ_EMPTY = "{0} tries to empty the FIFO, but there is nothing in it. Drain fix: {0} calls read() before closing, but the pipe is empty (select() woke for a hangup): read() returns 0.",
    L_CLOSE_FREED = "{0} closes the FIFO; the writer has closed too, so whatever is in it is thrown away: pipe_release frees the buffer, {1} unread {1?byte|bytes} {1?vanishes|vanish}, and the next open starts empty.",
    L_CLOSE_KEPT = "{0} closes the FIFO; the writer still has it open, so what is in it stays: the buffer survives, with {1} unread {1?byte|bytes}.",
    L_LOOP = "{0} does some busy work on the CPU. {0} runs its busy loop (\"do some work\"): {1} {1?iteration|iterations}, {2} of CPU in user mode.",
    W_ENXIO = "{0} tries to open the FIFO, but nobody has it open for reading. {0}: open() for writing fails with ENXIO, because no reader has the FIFO open. It retries at once.",
    W_OPEN_WAKE = "{0} opens the FIFO and wakes anyone waiting on it. {0} opens test.fifo for writing. As the first writer, fifo_open wakes the pipe's wait queue (wake_up_partner).",
    W_OPEN = "{0} opens test.fifo for writing.",
    W_TIME1 = "{0} starts its stopwatch: it reads the clock (gettimeofday &tv1).",
    W_WROTE = "The writer puts one byte into the FIFO and wakes anyone waiting on it. write() copies 1 byte into the pipe and, on its way out, calls wake_up_interruptible on the pipe's wait queue: a plain wakeup, not a _sync one.",
    W_AGAIN = "The writer cannot write: the FIFO is full. write() fails with EAGAIN: the pipe holds {1} {1?byte|bytes}, its whole page, and the file is non-blocking. Nothing is printed.",
    W_BROKEN = "The writer cannot write: the listener has closed the FIFO. write() fails with EPIPE: the reader closed meanwhile (SIGPIPE is ignored). Nothing is printed.",
    W_TIME2_FAST = "{0} stops its stopwatch: this write was fast. {0} {0?read|reads} the clock again (&tv2): a fast write, well under a millisecond (its dt, in whole microseconds as gettimeofday counts them, is in the output).",
    W_TIME2_SLOW = "{0} stops its stopwatch: this write took {1}. {0} {0?read|reads} the clock again (&tv2): dt = {1}. All that time it sat preempted between write() and this gettimeofday(): the delay the reporter measured (gettimeofday counts whole microseconds). His output went through grep -v '= 0', which shows this line and hid the {2} fast {2?line|lines} since the previous slow one: in his 13 lines, slow writes far apart look like one unbroken burst.",
    W_PRINT = "{0} prints how long the write took. {0} prints \"dt = …\" to stderr: {1} per line, calibrated (see the cost model).",
    W_CLOSE_FREED = "{0} closes the FIFO; the listener had closed already, so whatever is in it is thrown away: the buffer is freed with {1} unread {1?byte|bytes}.",
    W_CLOSE_KEPT = "{0} closes the FIFO; the listener still has it open, so what is in it stays: the buffer keeps its unread bytes, and pipe_release wakes its wait queue.",
    WAKE_PREEMPT = "{0} wakes up with a better priority than {4}, so {4} must soon give up the CPU. The wakeup makes {0} runnable. recalc_task_prio credits the {1} it slept: sleep_avg {2} → priority {3}, strictly better than {4}'s {5}. TASK_PREEMPTS_CURR: {4} will be preempted as soon as it leaves the kernel.",
    WAKE_NO_PREEMPT = "{0} wakes up but must wait: {4} keeps the CPU. The wakeup makes {0} runnable. recalc_task_prio credits the {1} it slept: sleep_avg {2} → priority {3}, not better than {4}'s {5}, so no preemption: {0} waits in the active array.",
    WAKE_PREEMPT_LONG = "{0} wakes up after a long sleep with a better priority than {4}, so {4} must soon give up the CPU. The wakeup makes {0} runnable. It slept longer than JUST_INTERACTIVE_SLEEP (about 0.8 s), so recalc_task_prio does not count the sleep but sets sleep_avg to just interactive, {2}: priority {3}, strictly better than {4}'s {5}. TASK_PREEMPTS_CURR: {4} will be preempted as soon as it leaves the kernel.",
    WAKE_NO_PREEMPT_LONG = "{0} wakes up after a long sleep but must wait: {4} keeps the CPU. The wakeup makes {0} runnable. It slept longer than JUST_INTERACTIVE_SLEEP (about 0.8 s), so its sleep_avg is set to just interactive, {2}: priority {3}, not better than {4}'s {5}, so no preemption.",
    WAKE_IDLE = "{0} wakes up and runs at once: the CPU has nothing else to do. The wakeup makes {0} runnable (sleep_avg {2}, priority {3}); its CPU is idle, so it runs at once.",
    WAKE_24_PREEMPT = "{0} wakes up and scores higher than {2}, so {2} must soon give up the CPU. The wakeup puts {0} on the run queue. goodness({0}) = {1} > goodness({2}) = {3} (counter + 20 − nice, +1 for the running task's own mm): need_resched is set on {2}.",
    WAKE_24_NO_PREEMPT = "{0} wakes up but must wait: {2} keeps the CPU. The wakeup puts {0} on the run queue. goodness({0}) = {1} is not greater than goodness({2}) = {3}: no preemption.",
    TICK_ACTIVE = "{0} has used up its turn, but gets a new one straight away. Timer tick: {0}'s timeslice is used up. With sleep_avg {1} (bonus {2}, priority {3}) it still counts as interactive, so it goes straight back into the ACTIVE array with a fresh {4} slice: it will run again before anything in the expired array.",
    TICK_EXPIRED = "{0} has used up its turn and must wait until the others have had theirs. Timer tick: {0}'s timeslice is used up. sleep_avg {1} gives bonus {2}, priority {3}: not interactive, so it moves to the EXPIRED array and waits until the active array is empty.",
    TICK_STARVING = "{0} has used up its turn and must wait, because tasks that used theirs up have waited too long. Timer tick: {0}'s timeslice is used up. It is interactive, but the expired array has waited too long (EXPIRED_STARVING), so it goes to the expired array.",
    TICK_REQUEUE = "{0} goes to the back of the line of tasks with the same priority. Timer tick: {0} has used another TIMESLICE_GRANULARITY ({1}) of its slice and is interactive: it goes to the tail of its priority list and schedule() runs (round robin among equal priorities).",
    TICK_24 = "{0} has used up its turn. Timer tick: {0}'s counter reaches 0, so need_resched is set.",
    SWITCH_PREEMPT = "{0} must give up the CPU, and {3} runs. schedule(): {0} is preempted on its way out of {1}, still holding the FIFO open if it had it. It stays runnable at priority {2}. {3} runs (priority {4}).",
    SWITCH_PREEMPT_MID = "{0} must give up the CPU, and {3} runs. schedule(): {0} is preempted in the middle of {1}. It stays runnable at priority {2}. {3} runs (priority {4}).",
    SWITCH_PREEMPT_24 = "{0} must give up the CPU, and {3} runs. schedule(): {0} is preempted on its way out of {1}. {3} runs (goodness {4}).",
    SWITCH_SLEEP = "{0} goes to sleep, and {1} runs. schedule(): {1} resumes {2}.",
    SWITCH_SLICE = "{0}'s turn is over, and {1} runs. schedule(): {1} resumes {2}.",
    SWITCH_SAME = "{0} keeps the CPU. schedule(): {0} is still the best runnable task.",
    SWITCH_IDLE = "Nothing wants to run, so the CPU sits idle. schedule(): nothing is runnable; CPU {0} idles.",
    SWITCH_FROM_IDLE = "{0} gets the idle CPU {1} and resumes {2}.",
    DEBIT = "{0} loses some of its sleep credit for the time it ran. schedule() charges {0} for the {1} it ran since it last got the CPU: sleep_avg → {2} (bonus {3}).",
    DEBIT_HIGH = "{0} loses some sleep credit for the time it ran, but less than usual. schedule() charges {0} for the {1} it ran, divided by its bonus because it is HIGH_CREDIT: sleep_avg → {2} (bonus {3}).",
    SWAP = "No task has any of its turn left, so the tasks that used theirs up go again. The active array is empty: the arrays swap, and the tasks that expired get their turn.",
    RQ_CREDIT = "{0} gets some sleep credit for the time it waited for the CPU. {0} was woken {1} ago and has waited on the run queue since: 38/128 of that wait (29.7 %: ON_RUNQUEUE_WEIGHT, 30 %, in 128ths) counts as sleep, multiplied like any sleep: sleep_avg → {2}, priority {3}.",
    RECALC_24 = "Every task gets a new turn; a task that slept keeps part of its old one. Every runnable counter is 0: a new epoch. Every task, asleep or not, gets half its counter plus a fresh slice, NICE_TO_TICKS(nice): {1} now has {2}, {3} has {4}. A sleeper keeps what it did not use, so it comes out ahead.",
    END = "Time is up. The run ends at {0}: {1} {1?write|writes}, {2} of them slower than 1 ms.",
    WAKE_24_SMP_IDLE = "{0} wakes up and is sent to its last CPU, which is free, so {2} keeps running. The wakeup puts {0} on the run queue. SMP reschedule_idle: {0}'s last CPU, CPU {1}, runs its idle task, so {0} is sent there (send_now_idle) and {2} is not preempted: its need_resched stays clear while a CPU is idle. (The 2.4.24-smp variant: a hypothesis, see the notes.)",
    START_TODAY = "The listener starts first and waits for the writer. {0} (./a.out LISTENER &) creates test.fifo and enters its loop. The writer is started {1} later. Today's kernel, as measured: both programs pinned to one CPU, EEVDF with a base slice of {2} (0.70 ms scaled for the machine's two CPUs: an inference, the measured kernel's debugfs could not be read), a tick every {3} (HZ 250), preempt=none. The costs of each system call and of the busy loop were measured on that machine.",
    L_OPEN_NEW_TODAY = "{0} opens the FIFO to read from it and finds it empty: test.fifo, O_NONBLOCK. No pipe existed, so an empty ring of pipe_buffers is allocated. No writer has it open, so fifo_open records f_pipe = w_counter: POLLHUP stays hidden until a writer has come and gone, as on 2.6.",
    L_SELECT_SLEEP_TODAY = "{0} goes to sleep until something happens on the FIFO. select(): pipe_poll finds no data and no hangup, so {0} sleeps on the pipe's rd_wait queue. On EEVDF a sleeper keeps its lag (how much CPU it is owed, clamped), and gets it back when woken.",
    W_WROTE_TODAY = "The writer puts one byte into the FIFO and wakes anyone waiting on it. write() appends the byte to the pipe's ring and, after dropping the pipe's mutex, wakes rd_wait (wake_up_interruptible_sync_poll: select() set poll_usage). The sync hint does not change fair's wakeup preemption: v6.18 does not read it there, and with both programs on one CPU there is no CPU to choose.",
    W_TIME1_TODAY = "{0} starts its stopwatch: it reads the clock (clock_gettime, CLOCK_MONOTONIC, as the measured program does).",
    W_TIME2_FAST_TODAY = "{0} stops its stopwatch: this write was fast. {0} {0?read|reads} the clock again: a fast write, well under a millisecond.",
    W_TIME2_SLOW_TODAY = "{0} stops its stopwatch: this write took {1}. {0} {0?read|reads} the clock again: dt = {1}. All that time it sat preempted between write() and this clock_gettime(): the listener's EEVDF turn, ended by a tick, where 2.6.1 gave it a 100 ms timeslice. {2} fast {2?write|writes} came since the previous slow one.",
    W_PRINT_TODAY = "{0} prints how long the write took. {0} prints \"dt = …\" to stderr (a file, as in the measurement): {1} per line, measured on that machine.",
    WAKE_EEVDF_PREEMPT = "{0} wakes up owed some CPU time, so {2} must soon give up the CPU. The wakeup puts {0} back on the run queue at V less the lag it kept: it is owed {1} of CPU time. That pulls V below {2}'s vruntime, or {2}'s protected slice is over: pick_eevdf would choose {0}, so wakeup_preempt_fair sets need_resched, and {2} is preempted when it leaves the kernel.",
    WAKE_EEVDF_NO_PREEMPT = "{0} wakes up but must wait: {2} keeps the CPU. The wakeup puts {0} back on the run queue at V less the lag it kept: it is owed {1} of CPU time. pick_eevdf still keeps {2} (eligible, its slice protected by RUN_TO_PARITY or its deadline earlier): no preemption.",
    TICK_EEVDF = "{0} has used up its turn. Timer tick: update_curr finds {0} past its virtual deadline (a {1} slice used up): update_deadline gives it a new one, and with another task waiting need_resched is set.",
    W_AGAIN_TODAY = "The writer cannot write: the FIFO is full. write() fails with EAGAIN: the pipe's ring holds {1} unread {1?byte|bytes}, all 16 pages, and the file is non-blocking. Nothing is printed.",
    SWITCH_PREEMPT_EEVDF = "{0} must give up the CPU, and {2} runs. schedule(): {0} is preempted on its way out of {1}, still holding the FIFO open if it had it. pick_eevdf chooses {2}, eligible with the earliest virtual deadline.",
}

pub(crate) const LISTENER: u16 = 0;
pub(crate) const WRITER: u16 = 1;
pub(crate) const PIPE_WRITE: u16 = 2;
pub(crate) const FIFO_OPEN: u16 = 3;
pub(crate) const SELECT: u16 = 4;
pub(crate) const PIPE_RELEASE: u16 = 5;
pub(crate) const WAKE_26: u16 = 6;
pub(crate) const TICK_26: u16 = 7;
pub(crate) const SCHEDULE_26: u16 = 8;
pub(crate) const SCHEDULE_24: u16 = 9;
pub(crate) const TICK_WAKE_24: u16 = 10;
pub(crate) const RESCHEDULE_IDLE_24: u16 = 11;
pub(crate) const PIPE_WRITE_TODAY: u16 = 12;
pub(crate) const FIFO_OPEN_TODAY: u16 = 13;
pub(crate) const SELECT_TODAY: u16 = 14;
pub(crate) const PIPE_RELEASE_TODAY: u16 = 15;
pub(crate) const WAKE_EEVDF: u16 = 16;
pub(crate) const TICK_EEVDF: u16 = 17;
pub(crate) const SCHEDULE_EEVDF: u16 = 18;
/// The writer as measured on today's kernel: `clock_gettime` where the seed has
/// `gettimeofday` (the same lines, so the same numbering).
pub(crate) const WRITER_TODAY: u16 = 19;

/// Today's counterpart of a 2.6.1 pipe function (same line numbering), or the function itself.
pub(crate) fn today_function(function: u16) -> u16 {
    match function {
        PIPE_WRITE => PIPE_WRITE_TODAY,
        FIFO_OPEN => FIFO_OPEN_TODAY,
        SELECT => SELECT_TODAY,
        PIPE_RELEASE => PIPE_RELEASE_TODAY,
        WRITER => WRITER_TODAY,
        other => other,
    }
}

/// Today's wording of a template whose 2.6.1 text names what changed, or the template itself.
pub(crate) fn today_template(template: T) -> T {
    match template {
        T::START => T::START_TODAY,
        T::L_OPEN_NEW => T::L_OPEN_NEW_TODAY,
        T::L_SELECT_SLEEP => T::L_SELECT_SLEEP_TODAY,
        T::W_WROTE => T::W_WROTE_TODAY,
        T::W_TIME1 => T::W_TIME1_TODAY,
        T::W_TIME2_FAST => T::W_TIME2_FAST_TODAY,
        T::W_TIME2_SLOW => T::W_TIME2_SLOW_TODAY,
        T::W_PRINT => T::W_PRINT_TODAY,
        T::W_AGAIN => T::W_AGAIN_TODAY,
        other => other,
    }
}

pub(crate) fn at(function: u16, line: u16) -> CodeLoc {
    CodeLoc { function, line }
}

/// The report with its test program (message-id permalink).
const SEED_URL: &str = "https://lore.kernel.org/all/20040120004647.GA292@s.chello.no/";
const TARBALL_2424: &str = "https://cdn.kernel.org/pub/linux/kernel/v2.4/linux-2.4.24.tar.gz";
const PIPE_618: &str = "https://elixir.bootlin.com/linux/v6.18/source/fs/pipe.c";
const FAIR_618: &str = "https://elixir.bootlin.com/linux/v6.18/source/kernel/sched/fair.c";

pub(crate) static CODE: &[Function] = &[
    Function {
        name: "run_listener (the seed's test program)",
        source_url: SEED_URL,
        lines: &[
            "for (;;) {",
            "    fd = open(\"test.fifo\", O_RDONLY | O_NONBLOCK);",
            "    select(fd + 1, {fd}, {}, NULL, &tv);      // until readable",
            "    read(fd, buf, sizeof buf);                // drain fix only",
            "    close(fd);",
            "    for (i = 0; i < 1000000; i++) ;           // \"do some work\"",
            "}",
        ],
    },
    Function {
        name: "run_writer (the seed's test program)",
        source_url: SEED_URL,
        lines: &[
            "for (;;) {",
            "    while ((fd = open(\"test.fifo\", O_WRONLY | O_NONBLOCK)) < 0) ;",
            "    gettimeofday(&tv1, NULL);",
            "    if (write(fd, &fd, 1) == 1) {",
            "        gettimeofday(&tv2, NULL);",
            "        fprintf(stderr, \"dt = %f ms\\n\", tv2 - tv1);",
            "    }",
            "    close(fd);",
            "}",
        ],
    },
    Function {
        name: "pipe_write (fs/pipe.c)",
        source_url:
            "https://git.kernel.org/pub/scm/linux/kernel/git/tglx/history.git/tree/fs/pipe.c?h=v2.6.1",
        lines: &[
            "pipe_write(file, buf, count = 1):",
            "    down(PIPE_SEM)",
            "    if (!PIPE_READERS) { send SIGPIPE; return -EPIPE }",
            "    if (no room && O_NONBLOCK) return -EAGAIN",
            "    copy the byte in; PIPE_LEN += 1",
            "    up(PIPE_SEM)",
            "    wake_up_interruptible(PIPE_WAIT)    // not _sync",
            "    inode_update_time(inode, 1)         // mtime and ctime",
            "    return 1",
        ],
    },
    Function {
        name: "fifo_open (fs/fifo.c)",
        source_url:
            "https://git.kernel.org/pub/scm/linux/kernel/git/tglx/history.git/tree/fs/fifo.c?h=v2.6.1",
        lines: &[
            "fifo_open(inode, file):",
            "    if (!inode->i_pipe) allocate an empty buffer (counters = 1)",
            "    O_RDONLY: RCOUNTER++; if (READERS++ == 0) wake_up_partner()",
            "              if (!WRITERS && O_NONBLOCK) f_version = WCOUNTER",
            "    O_WRONLY: if (O_NONBLOCK && !READERS) return -ENXIO",
            "              WCOUNTER++; if (WRITERS++ == 0) wake_up_partner()",
        ],
    },
    Function {
        name: "do_select + pipe_poll",
        source_url:
            "https://git.kernel.org/pub/scm/linux/kernel/git/tglx/history.git/tree/fs/select.c?h=v2.6.1",
        lines: &[
            "do_select():",
            "    for (;;) {",
            "        mask = pipe_poll(file)   // POLLIN if PIPE_LEN > 0",
            "                                 // POLLHUP if !WRITERS && f_version != WCOUNTER",
            "        if (mask & (POLLIN | POLLHUP)) return 1",
            "        sleep on PIPE_WAIT; timeout = schedule_timeout(timeout)   // tv: 1477 s, never reached",
            "    }",
        ],
    },
    Function {
        name: "pipe_release (fs/pipe.c)",
        source_url:
            "https://git.kernel.org/pub/scm/linux/kernel/git/tglx/history.git/tree/fs/pipe.c?h=v2.6.1",
        lines: &[
            "pipe_release(inode, decr, decw):",
            "    READERS -= decr; WRITERS -= decw",
            "    if (!READERS && !WRITERS) free the buffer   // unread bytes vanish",
            "    else wake_up_interruptible(PIPE_WAIT)",
        ],
    },
    Function {
        name: "try_to_wake_up (2.6.1 kernel/sched.c)",
        source_url:
            "https://git.kernel.org/pub/scm/linux/kernel/git/tglx/history.git/tree/kernel/sched.c?h=v2.6.1",
        lines: &[
            "try_to_wake_up(p, sync = 0):",
            "    activate_task(p): recalc_task_prio(p, now)",
            "        if (slept > JUST_INTERACTIVE_SLEEP(p))   // ≈ 0.8 s at nice 0: an idle task",
            "            sleep_avg = MAX_SLEEP_AVG − AVG_TIMESLICE   // just interactive: 918 ms",
            "        else sleep_avg += slept × (MAX_BONUS − CURRENT_BONUS)   // ≤ 1,020 ms",
            "        prio = static_prio − (CURRENT_BONUS − 5)",
            "        p->activated = 1                  // 2 if woken in interrupt context",
            "    enqueue p in the active array at prio",
            "    if (p->prio < current->prio) resched_task(current)",
        ],
    },
    Function {
        name: "scheduler_tick (2.6.1 kernel/sched.c)",
        source_url:
            "https://git.kernel.org/pub/scm/linux/kernel/git/tglx/history.git/tree/kernel/sched.c?h=v2.6.1",
        lines: &[
            "scheduler_tick():",
            "    if (--p->time_slice == 0) {",
            "        dequeue p from the active array; set_tsk_need_resched(p)",
            "        p->prio = effective_prio(p); p->time_slice = task_timeslice(p)",
            "        if (!rq->expired_timestamp) rq->expired_timestamp = jiffies",
            "        if (!TASK_INTERACTIVE(p) || EXPIRED_STARVING(rq)) enqueue in expired",
            "        else enqueue in active          // sleep_avg as of the last schedule()",
            "    } else if (TASK_INTERACTIVE(p) && (task_timeslice(p) − time_slice) % GRANULARITY(p) == 0",
            "               && p->time_slice >= GRANULARITY(p) && p->array == rq->active)",
            "        requeue p at the tail of its priority; p->prio = effective_prio(p); set_tsk_need_resched(p)",
        ],
    },
    Function {
        name: "schedule (2.6.1 kernel/sched.c)",
        source_url:
            "https://git.kernel.org/pub/scm/linux/kernel/git/tglx/history.git/tree/kernel/sched.c?h=v2.6.1",
        lines: &[
            "schedule():",
            "    run_time = now − prev->timestamp    // ÷ CURRENT_BONUS if HIGH_CREDIT",
            "    if (prev is sleeping) deactivate_task(prev)",
            "    if (active array is empty) swap active and expired",
            "    next = first task of the best priority in the active array",
            "    if (next was just woken) credit its wait × 38/128 (29.7 %) as sleep   // all of it if activated == 2",
            "    prev->sleep_avg −= run_time",
            "    switch to next",
        ],
    },
    Function {
        name: "schedule (2.4.24 kernel/sched.c)",
        source_url: TARBALL_2424,
        lines: &[
            "schedule():",
            "    if (prev is sleeping) del_from_runqueue(prev)",
            "    c = −1000",
            "    for each runnable p: weight = goodness(p)   // counter + 20 − nice (+1 same mm)",
            "        if (weight > c) { c = weight; next = p }",
            "    if (c == 0) for every task: counter = counter / 2 + NICE_TO_TICKS(nice)",
            "    switch to next",
        ],
    },
    Function {
        name: "tick and wakeup (2.4.24 kernel/timer.c, sched.c)",
        source_url: TARBALL_2424,
        lines: &[
            "update_process_times():",
            "    if (--current->counter <= 0) { counter = 0; need_resched = 1 }",
            "try_to_wake_up(p, sync = 0):",
            "    add_to_runqueue(p)",
            "    if (goodness(p) − goodness(current) > 0) current->need_resched = 1",
        ],
    },
    Function {
        name: "reschedule_idle (2.4.24 kernel/sched.c, CONFIG_SMP)",
        source_url: TARBALL_2424,
        lines: &[
            "reschedule_idle(p):                  // SMP: called by try_to_wake_up",
            "    best_cpu = p->processor          // the CPU p last ran on",
            "    if (can_schedule(p, best_cpu)) {",
            "        tsk = idle_task(best_cpu)",
            "        if (cpu_curr(best_cpu) == tsk) { send_now_idle: tsk->need_resched = 1; IPI; return }",
            "    }",
            "    for each CPU: the idle one with the oldest last_schedule (oldest_idle) → send_now_idle",
            "    no idle CPU: the running task with the largest preemption_goodness > 0 gets need_resched",
        ],
    },
    Function {
        name: "pipe_write (v6.18 fs/pipe.c)",
        source_url: PIPE_618,
        lines: &[
            "anon_pipe_write(iocb, from):          // 1 byte",
            "    mutex_lock(&pipe->mutex); was_empty = pipe_empty(head, tail)",
            "    if (!pipe->readers) { send SIGPIPE; return -EPIPE }",
            "    if (the ring is full && O_NONBLOCK) return -EAGAIN",
            "    append to the last pipe_buffer if it has room, else take the next slot of the ring",
            "    mutex_unlock(&pipe->mutex)",
            "    if (was_empty || pipe->poll_usage) wake_up_interruptible_sync_poll(&pipe->rd_wait, EPOLLIN)",
            "    file_update_time(filp)",
            "    return 1",
        ],
    },
    Function {
        name: "fifo_open (v6.18 fs/pipe.c)",
        source_url: PIPE_618,
        lines: &[
            "fifo_open(inode, filp):",
            "    if (!inode->i_pipe) allocate a pipe: a ring of 16 empty pipe_buffers",
            "    FMODE_READ: r_counter++; if (readers++ == 0) wake_up_partner(pipe)",
            "                if (!writers && O_NONBLOCK) filp->f_pipe = w_counter   // suppress POLLHUP",
            "    FMODE_WRITE: if (O_NONBLOCK && !readers) return -ENXIO",
            "                 w_counter++; if (!writers++) wake_up_partner(pipe)   // wakes rd_wait",
        ],
    },
    Function {
        name: "do_select + pipe_poll (v6.18)",
        source_url: "https://elixir.bootlin.com/linux/v6.18/source/fs/select.c",
        lines: &[
            "do_select():",
            "    for (;;) {",
            "        mask = pipe_poll(file)   // poll_usage = true; EPOLLIN if the ring is not empty",
            "                                 // EPOLLHUP if !writers && f_pipe != w_counter",
            "        if (mask & (EPOLLIN | EPOLLHUP)) return 1",
            "        sleep on rd_wait; poll_schedule_timeout()   // tv: 1477 s, never reached",
            "    }",
        ],
    },
    Function {
        name: "pipe_release (v6.18 fs/pipe.c)",
        source_url: PIPE_618,
        lines: &[
            "pipe_release(inode, file):",
            "    readers -= decr; writers -= decw",
            "    if (!readers && !writers) free the pipe and its buffers   // unread bytes vanish",
            "    else if (!readers != !writers) wake rd_wait and wr_wait   // one side is gone",
        ],
    },
    Function {
        name: "try_to_wake_up → enqueue_entity → wakeup_preempt_fair (v6.18 kernel/sched/fair.c)",
        source_url: FAIR_618,
        lines: &[
            "try_to_wake_up(p):",
            "    update_curr(cfs_rq)                            // charge the running task first",
            "    place_entity(p): lag = p->vlag × (W + w) / W      // PLACE_LAG",
            "        p->vruntime = V − lag; p->deadline = p->vruntime + slice × 1024 / w",
            "    enqueue p in the tree",
            "    wakeup_preempt_fair(rq, p):",
            "        if (curr is protected: RUN_TO_PARITY and curr->vruntime < curr->vprot) no preemption",
            "        if (pick_eevdf(cfs_rq) == p) resched_curr(rq)   // preempt=none: acted on at return to user",
        ],
    },
    Function {
        name: "task_tick_fair → update_curr (v6.18 kernel/sched/fair.c)",
        source_url: FAIR_618,
        lines: &[
            "task_tick_fair(rq, curr):",
            "    update_curr(cfs_rq):",
            "        curr->vruntime += delta_exec × 1024 / weight",
            "        if (curr->vruntime >= curr->deadline) {            // update_deadline",
            "            curr->deadline = curr->vruntime + slice × 1024 / weight",
            "            if (other tasks are queued) resched_curr(rq)",
            "        }",
        ],
    },
    Function {
        name: "__schedule → pick_next_task_fair (v6.18 kernel/sched/fair.c)",
        source_url: FAIR_618,
        lines: &[
            "__schedule():",
            "    update_curr(cfs_rq)",
            "    if (prev sleeps) dequeue_entity(prev): prev->vlag = clamp(V − prev->vruntime)",
            "    pick_eevdf(cfs_rq):",
            "        if (curr is eligible && RUN_TO_PARITY && curr->vruntime < curr->vprot) keep curr",
            "        else the eligible task (vruntime ≤ V) with the earliest virtual deadline",
            "    set_next_entity(next): next->vprot = next->deadline     // its protected slice",
            "    switch to next",
        ],
    },
    Function {
        name: "run_writer (the seed's program, timed with clock_gettime as measured on 6.18)",
        source_url: SEED_URL,
        lines: &[
            "for (;;) {",
            "    while ((fd = open(\"test.fifo\", O_WRONLY | O_NONBLOCK)) < 0) ;",
            "    clock_gettime(CLOCK_MONOTONIC, &t1);",
            "    if (write(fd, &fd, 1) == 1) {",
            "        clock_gettime(CLOCK_MONOTONIC, &t2);",
            "        fprintf(stderr, \"dt = %f ms\\n\", t2 - t1);",
            "    }",
            "    close(fd);",
            "}",
        ],
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    const HISTORY_261: &str = "https://git.kernel.org/pub/scm/linux/kernel/git/tglx/history.git/tree";

    #[test]
    fn every_history_link_names_the_modelled_version() {
        for function in CODE {
            let url = function.source_url;
            assert!(
                url == SEED_URL
                    || url == TARBALL_2424
                    || url.starts_with("https://elixir.bootlin.com/linux/v6.18/")
                    || (url.starts_with(HISTORY_261) && url.ends_with("h=v2.6.1")),
                "{url}"
            );
        }
    }
}
