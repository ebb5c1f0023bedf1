//! Narration and pseudocode for the core-dump-threads case. The program is the
//! seed's test program; the kernel functions are our own simplified rendering
//! of Linux 2.6.14, each linked to the real file at v2.6.14.

use crate::run::narration::{CodeLoc, Function};

crate::templates! {
    PHASE_START = "main starts and creates {0} threads",
    PHASE_SPIN = "The threads spin",
    PHASE_SIGNAL = "{0} arrives",
    PHASE_STALL = "The dumper waits in the expired array",
    PHASE_ZAP = "zap_threads: the threads die",
    ITER_MAIN = "main",
    ITER_CREATE = "main: pthread_create #{0}",
    ITER_RUN = "{0} runs",
    ITER_SPIN = "{0}: user loop + times()",
    ITER_LOOP = "{0}: get_signal_to_deliver, again",
    ITER_TICK = "timer tick",
    ITER_SCHEDULE = "schedule()",
    ITER_SIGNAL = "the signal",
    ITER_IDLE = "idle",
    MAIN_START = "{0} starts (forked by a shell that had just woken up: sleep_avg {1}, priority {2}) and runs system(\"uname -a; date\"): it sleeps in wait4() for {3} while the children run (a model choice: the children are not simulated).",
    CREATE = "pthread_create → clone(CLONE_VM|CLONE_THREAD|…): {1} is born with sleep_avg {2} (CURRENT_BONUS of {0} × 95 % CHILD_PENALTY, rounded down to a whole bonus step) and half of {0}'s remaining timeslice: {3} jiffies. A thread is queued last (CLONE_VM: \"run child last\"), at priority {4}.",
    CREATE_EXPIRE = "Splitting its slice left {0} with none: sched_fork gives it one jiffy and calls scheduler_tick, which expires it. Still interactive, it goes back into the active array with a fresh slice.",
    MAIN_PAUSE = "{0} calls pause() and sleeps (TASK_INTERRUPTIBLE). It will sleep until a signal comes.",
    THREAD_START = "{0} starts in tfunc and calls usleep(20000): nanosleep sleeps until the timer fires {1} jiffies from now (20 ms rounded up to whole jiffies, plus one).",
    THREAD_PAUSE = "{0} calls pause() (mode pause) and sleeps.",
    TIMER_WAKE = "The timer softirq wakes {0} (usleep is over): it slept {1}, and recalc_task_prio credits it × (MAX_BONUS − bonus): sleep_avg {2}, priority {3}. Woken from interrupt context, activated = 2: its wait on the run queue will count in full too.",
    PICK_CREDIT = "schedule() picks {0}, woken {1} ago (activated = {2}): that wait on the run queue counts as sleep, multiplied like any sleep: sleep_avg {3}, priority {4}.",
    SWITCH = "schedule(): {0} runs (priority {1}, sleep_avg {2}, {3} jiffies of slice left).",
    SWITCH_SAME = "schedule(): {0} is still the best task in the active array and keeps the CPU.",
    CHARGE = "schedule() charges {0} for the {1} it ran, divided by its bonus {2} (2.6.8+ does this for every task, so that interactive tasks lose their status slowly): sleep_avg → {3}.",
    SPIN = "{0} spins in its user-mode loop (100,000 empty iterations, {1} each round) and calls times() ({2} in the kernel) each round.",
    TICK_REQUEUE = "Timer tick: {0} has used another TIMESLICE_GRANULARITY ({1}) of its slice and is interactive (bonus {2}): to the tail of its priority list, round robin.",
    TICK_ACTIVE = "Timer tick: {0}'s timeslice is used up. sleep_avg {1} is bonus {2}: still interactive (TASK_INTERACTIVE needs bonus ≥ 7 at nice 0), so it goes straight back into the ACTIVE array with a fresh {3} slice. The expired array (where the dumper waits) stays behind it.",
    TICK_EXPIRED = "Timer tick: {0}'s timeslice is used up, and with sleep_avg {1} (bonus {2}) it is no longer interactive: it moves to the EXPIRED array. {3} task(s) left in the active array.",
    TICK_STARVING = "Timer tick: {0}'s timeslice is used up. It is interactive, but the expired array has waited longer than STARVATION_LIMIT × nr_running (EXPIRED_STARVING), so it goes to the expired array.",
    SWAP = "The active array is empty: schedule() swaps the arrays. Everything that was expired, the dumper included, is active again.",
    IDLE = "Nothing is runnable: the CPU idles until {0}.",
    SIGNAL_SENT = "{0} arrives (^\\ on the terminal for SIGQUIT, ^C for SIGINT, kill(1) for the others). group_send_sig_info queues it on the SHARED pending set; __group_complete_signal picks {1} (it wants the signal: in pause(), nothing pending).",
    GROUP_STOP = "{0} dumps core, so instead of killing everyone __group_complete_signal starts a GROUP STOP: group_stop_count = {1} (every thread, main included), group_exit_task = {2}, and signal_wake_up() sets TIF_SIGPENDING on every thread.",
    GROUP_EXIT = "{0} is fatal but does not dump core: __group_complete_signal sets SIGNAL_GROUP_EXIT and puts SIGKILL in every thread's private pending set at once, with signal_wake_up() on each.",
    MARK_RUNNABLE = "signal_wake_up sets TIF_SIGPENDING on {0}. It is already runnable, so there is nothing to wake: it will meet the signal the next time it returns to user mode (after a timer tick or a system call).",
    WAKE_SIGNAL = "{0} is woken by signal_wake_up (it slept {1}: a long sleeper gets just-interactive sleep_avg {2}), priority {3}.",
    PREEMPT = "{0}'s priority {1} is strictly better than {2}'s {3}: TASK_PREEMPTS_CURR, so {2} is preempted at once.",
    NO_PREEMPT = "{0}'s priority {1} is not better than {2}'s {3}: no preemption; {0} waits in the active array.",
    DEQUEUE_MAIN = "{0} enters get_signal_to_deliver under siglock: handle_group_stop sees it is the group_exit_task, clears it and returns 0; dequeue_signal takes {1} off the shared set.",
    COREDUMP_LOCK = "do_coredump: down_write(mmap_sem). {0} holds the address space for writing from now until zap_threads is done.",
    NOT_DUMPABLE = "mm->dumpable is 0 (set-uid program): do_coredump gives up at once, up_write(mmap_sem). do_group_exit → zap_other_threads: SIGNAL_GROUP_EXIT, group_stop_count = 0, SIGKILL to every other thread.",
    SET_GROUP_EXIT = "Under siglock, do_coredump sets SIGNAL_GROUP_EXIT. group_stop_count stays {0}: nothing resets it before coredump_wait returns.",
    SET_GROUP_EXIT_RESET = "Under siglock, do_coredump sets SIGNAL_GROUP_EXIT and (fix b) group_stop_count = 0, so recalc_sigpending can clear the other threads' TIF_SIGPENDING.",
    SET_GROUP_EXIT_ZAP = "2.6.18: under siglock, do_coredump sets SIGNAL_GROUP_EXIT and, in the same critical section, queues SIGKILL for every other thread (zap_process): group_stop_count = 0.",
    YIELD = "coredump_wait: core_waiters = 1, then yield(). On the O(1) scheduler sys_sched_yield moves {0} to the EXPIRED array (priority {1}). It cannot run again until the active array is empty, and it still holds mmap_sem for writing. {2} thread(s) stand before it in the active array.",
    NO_YIELD = "coredump_wait: core_waiters = 1 and, with the yield() removed (fix a), straight on to zap_threads.",
    LOOP = "{0} is in the i386 entry.S work loop: TIF_SIGPENDING is set, so do_notify_resume → get_signal_to_deliver: spin_lock_irq(siglock); group_stop_count is {1} and SIGNAL_GROUP_EXIT is set, so handle_group_stop punts (returns 0); dequeue_signal finds nothing; recalc_sigpending keeps TIF_SIGPENDING because group_stop_count ≠ 0; unlock; entry.S re-tests the flags without leaving the kernel ({2} per turn: sys time).",
    LOOP_LOCK = "spin_lock_irq(siglock)",
    LOOP_PUNT = "handle_group_stop: SIGNAL_GROUP_EXIT is set, punt (return 0)",
    LOOP_NOTHING = "dequeue_signal: nothing pending; recalc_sigpending keeps TIF_SIGPENDING (group_stop_count ≠ 0)",
    LOOP_UNLOCK = "spin_unlock_irq(siglock)",
    LOOP_RECHECK = "entry.S: TIF_SIGPENDING still set, do_notify_resume again",
    SPIN_USER = "user loop",
    SPIN_TIMES = "times()",
    CLEARED = "{0} runs get_signal_to_deliver: handle_group_stop punts, nothing to dequeue, and with group_stop_count = 0 recalc_sigpending CLEARS TIF_SIGPENDING. {0} returns to {1}.",
    STOP = "{0} reaches get_signal_to_deliver before SIGNAL_GROUP_EXIT is set: handle_group_stop stops it (TASK_STOPPED), group_stop_count → {1}.",
    ZAP = "The arrays have swapped and {0} runs again: zap_threads sends SIGKILL to each of the {1} other thread(s) (core_waiters = {2}), then up_write(mmap_sem) and waits for them in wait_for_completion(startup_done).",
    ZAP_18 = "coredump_wait: the threads already have SIGKILL (queued with SIGNAL_GROUP_EXIT); core_waiters = {1}; up_write(mmap_sem); {0} waits in wait_for_completion(startup_done).",
    KILL_DEQUEUE = "{0} runs get_signal_to_deliver and dequeues SIGKILL: do_group_exit → do_exit.",
    EXIT_MM_WAIT = "exit_mm: a core dump is in progress, so {0} decrements core_waiters (now {1}) and sleeps in wait_for_completion(core_done).",
    EXIT_MM_LAST = "exit_mm: {0} is the last thread to arrive (core_waiters → 0): complete(startup_done) wakes the dumper; {0} sleeps in wait_for_completion(core_done).",
    DUMPER_RESUMES = "{0} returns from coredump_wait. Only now does do_coredump look at RLIMIT_CORE: {1}.",
    CORE_SKIP = "RLIMIT_CORE is 0: no core file. complete_all(core_done) releases the waiting threads; then do_group_exit.",
    CORE_WRITE = "RLIMIT_CORE is unlimited: the core file is written ({1} pages, {2}). Then complete_all(core_done) releases the waiting threads; do_group_exit.",
    EXIT = "{0} finishes do_exit and is gone.",
    LAST_EXIT = "{0} finishes do_exit: it was the last thread. The process is gone {1} after the signal ({2} after launch).",
    ITER_SPIN_SMP = "{0} threads spin side by side on {1} CPUs",
    ITER_LOOP_SMP = "{0} CPUs: get_signal_to_deliver, again, taking turns on siglock",
    SPIN_SMP = "{0} threads spin in their user-mode loops at once, one per CPU, each calling times() every round.",
    LOOP_SMP = "{0} CPUs are in the entry.S work loop at once. Each turn holds siglock for {1}; {0} × {1} is more than one turn ({2}), so the lock is never free: the CPUs take it in turn, in the order they asked (the model's FIFO: 2.6.14's i386 spinlock is a test-and-set byte with no queue, which for two CPUs is the same). Each waits {3} per turn, spinning with interrupts off: sys time that does nothing.",
    LOOP_SPINWAIT = "spin_lock_irq(siglock): taken by another CPU, spin",
    MIXED = "{0} spinning and {1} looping CPUs side by side: the spinners are drawn in one mode for this stretch (model choice; no shipped variant gets here).",
    MIGRATE = "CPU {0} is idle: the load balancer pulls {1} from CPU {2} (the busiest run queue, {3} tasks) into its {4} array. (Model choice: only an idle CPU balances; a busy CPU's own periodic balancing is left out, so once every CPU is busy nothing moves.)",
    // Linux 6.18 (the today variant, today.rs).
    T_START = "{0} starts and creates {1} threads ({2} each, the clone of a thread on the measuring machine), then calls pause().",
    T_THREAD = "{0} is born and, after usleep(20000), {1}.",
    T_SPINNING = "{0} threads spin on {1} CPU(s) until the signal (EEVDF shares the CPUs; the model does not draw every slice before the signal).",
    T_SIGNAL_CORE = "{0} arrives. complete_signal sees a core-dump signal: it does not kill the group, it picks {1} (in pause(), it wants the signal) and wakes it with signal_wake_up. The other threads are not told yet.",
    T_SIGNAL_KILL = "{0} arrives. complete_signal, in the sender's kill(): the signal is fatal and dumps no core, so SIGNAL_GROUP_EXIT is set and SIGKILL queued for all {1} threads with signal_wake_up(t, 1), {2} each. Nothing waits for anybody.",
    T_WAIT_CPU = "{0} is runnable but the CPU is busy: it waits behind {1} spinning thread(s) whose virtual deadlines come first, each running a slice that ends at a tick ({2}): {3}. (Model choice: main's place among the deadlines is drawn from the seed; see the case notes.)",
    T_RUNS = "{0} gets a CPU and enters get_signal: the signal dumps core, so do_coredump.",
    T_ZAP = "do_coredump → coredump_wait → zap_threads, under siglock: SIGNAL_GROUP_EXIT, group_stop_count = 0, core_state set, SIGKILL queued for each of the {0} other threads with signal_wake_up(t, 1) ({1} each). No yield(): {2} then sleeps in wait_for_completion(&core_state->startup).",
    T_EXIT_CORE = "{0} dequeues SIGKILL: do_exit → coredump_task_exit: it links itself into core_state's list, decrements nr_threads (now {1}) and sleeps (TASK_IDLE) until the dump is over.",
    T_EXIT_CORE_LAST = "{0} dequeues SIGKILL: do_exit → coredump_task_exit: it is the last (nr_threads → 0): complete(&core_state->startup) wakes the dumper; it sleeps (TASK_IDLE) until the dump is over.",
    T_DUMPER = "{0} wakes and calls wait_task_inactive on each of the {1} threads ({2} each): they are all off their CPUs.",
    T_NO_CORE = "RLIMIT_CORE is 0: no core file is written.",
    T_CORE = "RLIMIT_CORE is unlimited: the core file is written: {0} pages (each thread's 8 MiB stack, walked page by page), {1}.",
    T_FINISH = "coredump_finish: under siglock core_state = NULL; then wake_up_process for each of the {0} threads ({1} each). {2} goes on to do_group_exit.",
    T_EXIT_REST = "{0} finishes do_exit and is gone.",
    T_EXIT_KILL = "{0} runs with SIGKILL pending: do_exit, and it is gone.",
    T_LAST = "The last task is gone: the process's address space and files are released and the parent's wait4() returns, {0} after the signal.",
    STILL_CREATING = "main has created only {0} of its {1} threads: the signal finds it still in its pthread_create loop, kept off the CPU by the first threads (woken from usleep() and interactive). It meets the signal on its way out of the current clone(), and the other {2} are never created: this run times a process still being built (the measured runs send the signal after the last thread exists).",
}

pub(crate) const TFUNC: u16 = 0;
pub(crate) const MAIN: u16 = 1;
pub(crate) const COMPLETE: u16 = 2;
pub(crate) const GSTD: u16 = 3;
pub(crate) const HGS: u16 = 4;
pub(crate) const COREDUMP: u16 = 5;
pub(crate) const CDWAIT: u16 = 6;
pub(crate) const ENTRY: u16 = 7;
pub(crate) const TICK: u16 = 8;
pub(crate) const SCHEDULE: u16 = 9;
pub(crate) const EXIT_MM: u16 = 10;
pub(crate) const BALANCE: u16 = 11;
pub(crate) const SPINLOCK: u16 = 12;
pub(crate) const COMPLETE_TODAY: u16 = 13;
pub(crate) const COREDUMP_TODAY: u16 = 14;
pub(crate) const EXIT_TODAY: u16 = 15;

pub(crate) fn at(function: u16, line: u16) -> CodeLoc {
    CodeLoc { function, line }
}

/// The LKML report (Michael Kerrisk, 22 September 2005).
pub const REPORT_URL: &str = "https://lore.kernel.org/lkml/20206.1127391230@www22.gmx.net/";

pub(crate) static CODE: &[Function] = &[
    Function {
        name: "tfunc (the seed's test program)",
        source_url: REPORT_URL,
        lines: &[
            "usleep(20000);             // let main() create the others",
            "// pause();                // the \"mode pause\" knob",
            "for (;;) {",
            "    for (j = 0; j < 100000; j++) continue;   // user time",
            "    times(&tms);                             // a short system call",
            "}",
        ],
    },
    Function {
        name: "main (the seed's test program)",
        source_url: REPORT_URL,
        lines: &[
            "system(\"uname -a; date\");",
            "setrlimit(RLIMIT_CPU, …);",
            "for (tn = 0; tn < numThreads; tn++)",
            "    pthread_create(&thr, NULL, tfunc, tn);",
            "pause();",
        ],
    },
    Function {
        name: "__group_complete_signal (kernel/signal.c)",
        source_url: "https://elixir.bootlin.com/linux/v2.6.14/source/kernel/signal.c",
        lines: &[
            "t = a thread that wants the signal (main: in pause(), nothing pending)",
            "if (sig is fatal && !SIGNAL_GROUP_EXIT) {",
            "    if (!sig_kernel_coredump(sig)) {",
            "        flags = SIGNAL_GROUP_EXIT; group_stop_count = 0",
            "        for each thread: add SIGKILL; signal_wake_up(thread)",
            "        return",
            "    }",
            "    group_stop_count = 0; group_exit_task = t",
            "    for each thread: group_stop_count++; signal_wake_up(thread)",
            "    wake_up_process(group_exit_task)",
            "}",
        ],
    },
    Function {
        name: "get_signal_to_deliver (kernel/signal.c)",
        source_url: "https://elixir.bootlin.com/linux/v2.6.14/source/kernel/signal.c",
        lines: &[
            "relock:",
            "spin_lock_irq(&sighand->siglock)",
            "for (;;) {",
            "    if (group_stop_count > 0 && handle_group_stop())",
            "        goto relock             // we were stopped",
            "    signr = dequeue_signal()    // recalc_sigpending() inside",
            "    if (!signr) break           // nothing: back to entry.S",
            "    if (sig_kernel_coredump(signr)) do_coredump(signr)",
            "    do_group_exit(signr)        // fatal: never returns",
            "}",
            "spin_unlock_irq(&sighand->siglock)",
            "return 0",
        ],
    },
    Function {
        name: "handle_group_stop (kernel/signal.c)",
        source_url: "https://elixir.bootlin.com/linux/v2.6.14/source/kernel/signal.c",
        lines: &[
            "if (group_exit_task == current) {   // the dumper",
            "    group_exit_task = NULL; return 0",
            "}",
            "if (flags & SIGNAL_GROUP_EXIT)",
            "    return 0                       // punt: someone is dumping",
            "stop_count = --group_stop_count",
            "set_current_state(TASK_STOPPED); finish_stop(); return 1",
        ],
    },
    Function {
        name: "do_coredump (fs/exec.c)",
        source_url: "https://elixir.bootlin.com/linux/v2.6.14/source/fs/exec.c",
        lines: &[
            "down_write(&mm->mmap_sem)",
            "if (!mm->dumpable) { up_write(&mm->mmap_sem); goto fail }",
            "mm->dumpable = 0",
            "spin_lock_irq(siglock); flags = SIGNAL_GROUP_EXIT; spin_unlock_irq(siglock)",
            "    // fix b: also group_stop_count = 0   2.6.18: also zap_process()",
            "coredump_wait(mm)",
            "group_stop_count = 0                  // only now",
            "if (RLIMIT_CORE < min_coredump) goto fail_unlock",
            "binfmt->core_dump(...)                // write the core",
            "fail_unlock: complete_all(&mm->core_done)",
            "fail: return   // then do_group_exit",
        ],
    },
    Function {
        name: "coredump_wait (fs/exec.c)",
        source_url: "https://elixir.bootlin.com/linux/v2.6.14/source/fs/exec.c",
        lines: &[
            "mm->core_waiters++",
            "yield()                      // removed by fix a (Oct 2005)",
            "zap_threads(mm)              // SIGKILL to each thread, core_waiters++",
            "if (--mm->core_waiters) {",
            "    up_write(&mm->mmap_sem)",
            "    wait_for_completion(&startup_done)",
            "} else up_write(&mm->mmap_sem)",
        ],
    },
    Function {
        name: "work_pending / work_notifysig (arch/i386/kernel/entry.S)",
        source_url: "https://elixir.bootlin.com/linux/v2.6.14/source/arch/i386/kernel/entry.S",
        lines: &[
            "work_pending:",
            "    if (TIF_NEED_RESCHED) { schedule(); goto work_pending }",
            "work_notifysig:",
            "    do_notify_resume()        // → do_signal → get_signal_to_deliver",
            "    jmp resume_userspace      // 2.6.14-rc1: re-test the work flags",
            "resume_userspace:",
            "    if (flags & _TIF_WORK_MASK) goto work_pending",
            "    iret                      // back to user mode",
        ],
    },
    Function {
        name: "scheduler_tick (kernel/sched.c)",
        source_url: "https://elixir.bootlin.com/linux/v2.6.14/source/kernel/sched.c",
        lines: &[
            "if (!--p->time_slice) {",
            "    dequeue; prio = effective_prio(p); time_slice = task_timeslice(p)",
            "    if (!expired_timestamp) expired_timestamp = jiffies",
            "    if (!TASK_INTERACTIVE(p) || EXPIRED_STARVING(rq))",
            "        enqueue_task(p, rq->expired)",
            "    else enqueue_task(p, rq->active)     // interactive: again",
            "} else if (TASK_INTERACTIVE(p) && used % TIMESLICE_GRANULARITY(p) == 0)",
            "    requeue_task(p, rq->active)          // round robin",
        ],
    },
    Function {
        name: "schedule / sys_sched_yield (kernel/sched.c)",
        source_url: "https://elixir.bootlin.com/linux/v2.6.14/source/kernel/sched.c",
        lines: &[
            "run_time = (now - prev->timestamp) / CURRENT_BONUS(prev)",
            "prev->sleep_avg -= run_time",
            "if (!rq->active->nr_active) swap(rq->active, rq->expired)",
            "next = first task of the best priority in rq->active",
            "if (next->activated) credit its run-queue wait as sleep",
            "sys_sched_yield: move current to rq->expired; schedule()",
        ],
    },
    Function {
        name: "exit_mm (kernel/exit.c)",
        source_url: "https://elixir.bootlin.com/linux/v2.6.14/source/kernel/exit.c",
        lines: &[
            "if (mm->core_waiters) {",
            "    if (!--mm->core_waiters) complete(mm->core_startup_done)",
            "    wait_for_completion(&mm->core_done)",
            "}",
            "... do_exit continues: the thread is gone",
        ],
    },
    Function {
        name: "sched_fork / load_balance / move_tasks (kernel/sched.c)",
        source_url: "https://elixir.bootlin.com/linux/v2.6.14/source/kernel/sched.c",
        lines: &[
            "sched_fork: cpu = sched_balance_self(cpu, SD_BALANCE_FORK)   // plain SMP: this CPU",
            "idle CPU, at a tick (rebalance_tick) or going idle (idle_balance):",
            "    busiest = the run queue with the most tasks",
            "    move_tasks: take from busiest->expired first, else busiest->active, never its running task",
            "    pull_task: into the same array here; resched if it preempts",
        ],
    },
    Function {
        name: "spin_lock (include/asm-i386/spinlock.h)",
        source_url: "https://elixir.bootlin.com/linux/v2.6.14/source/include/asm-i386/spinlock.h",
        lines: &[
            "atomically decrement the lock byte: if it was free, it is ours",
            "else spin (rep; nop) reading the byte until it looks free, then try again",
            "no queue: whoever tries first wins (the model serves spinners in arrival order)",
        ],
    },
    Function {
        name: "complete_signal (kernel/signal.c, v6.18)",
        source_url: "https://elixir.bootlin.com/linux/v6.18/A/ident/complete_signal",
        lines: &[
            "t = p if it wants the signal (main, in pause()), else another thread that does",
            "if (sig_fatal(p, sig) && !(signal->flags & SIGNAL_GROUP_EXIT) && !sig_kernel_coredump(sig)) {",
            "    signal->flags = SIGNAL_GROUP_EXIT; group_stop_count = 0",
            "    for each thread t: sigaddset(&t->pending, SIGKILL); signal_wake_up(t, 1)",
            "    return",
            "}",
            "signal_wake_up(t, sig == SIGKILL)   // a core-dump signal wakes one thread",
        ],
    },
    Function {
        name: "do_coredump / coredump_wait / zap_threads (fs/coredump.c, v6.18)",
        source_url: "https://elixir.bootlin.com/linux/v6.18/A/ident/coredump_wait",
        lines: &[
            "do_coredump(siginfo): ... coredump_wait(siginfo->si_signo, &core_state)",
            "zap_threads: spin_lock_irq(siglock); signal->core_state = core_state",
            "    zap_process: SIGNAL_GROUP_EXIT; group_stop_count = 0",
            "        for each other thread t: sigaddset(&t->pending, SIGKILL); signal_wake_up(t, 1); nr++",
            "    nr_threads = nr; spin_unlock_irq(siglock)",
            "if (nr) wait_for_completion(&core_state->startup)   // no yield()",
            "    for each thread on core_state's list: wait_task_inactive(t)",
            "if (cprm.limit < binfmt->min_coredump) skip   // ulimit -c 0: no file",
            "else binfmt->core_dump(&cprm)                 // every VMA, page by page",
            "coredump_finish: core_state = NULL; wake_up_process(each waiting thread)",
        ],
    },
    Function {
        name: "do_exit / coredump_task_exit (kernel/exit.c, v6.18)",
        source_url: "https://elixir.bootlin.com/linux/v6.18/A/ident/coredump_task_exit",
        lines: &[
            "get_signal: SIGKILL dequeued → do_group_exit → do_exit",
            "do_exit: exit_signals ... coredump_task_exit(tsk):",
            "    if (signal->core_state) {",
            "        link self into core_state->dumper.next; if (!--nr_threads) complete(&startup)",
            "        sleep (TASK_IDLE) until coredump_finish clears self.task",
            "    }",
            "exit_mm, exit_files, exit_notify (tasklist_lock) ... the thread is gone",
        ],
    },
];
