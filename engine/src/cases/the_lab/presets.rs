//! The Lab's presets: workloads a lecture can start from, each with what it shows in
//! two sentences and a question to predict before running. Data, in every build (the
//! page lists them); `engine/tests/lab_presets.rs` runs each one.

/// One preset.
pub struct Preset {
    /// Its id in the page (stable: a preset chosen is written into the link as its text).
    pub id: &'static str,
    pub title: &'static str,
    /// What it shows and why, in two sentences, with no figure (the run gives those).
    pub explanation: &'static str,
    /// A question to answer before running it.
    pub question: &'static str,
    /// The workload, in the Lab's language.
    pub text: &'static str,
}

/// Every preset, in the order the page offers them.
pub static PRESETS: &[Preset] = &[
    Preset {
        id: "editor-and-hogs",
        title: "An editor among CPU hogs (O(1))",
        explanation: "Three tasks burn the CPU while an editor runs a millisecond and sleeps twenty, as a person typing would. Linux 2.6's O(1) scheduler rewards sleep: a task's sleep_avg earns it up to five priority levels, and a woken task with a better priority preempts the one running.",
        question: "The editor starts with no history: how long does it wait the first time it wakes, and how long once its sleep_avg has grown?",
        text: EDITOR_AND_HOGS,
    },
    Preset {
        id: "interactivity-fooled",
        title: "The interactivity heuristic fooled (O(1))",
        explanation: "A hog runs without pause; a second task runs nine milliseconds and sleeps one, over and over. O(1) judges interactivity by sleep_avg alone, so short sleeps can earn a CPU hog the bonus meant for editors.",
        question: "Which of the two ends with the better priority, and who gets most of the CPU?",
        text: "\
# A CPU hog that sleeps 1 ms in every 10 looks interactive to 2.6.14's O(1).
kernel o1
cpus 1
until 2s
task hog
  forever {
    run 50ms
  }
task sneaky
  forever {
    run 9ms
    sleep 1ms
  }
",
    },
    Preset {
        id: "lock-convoy",
        title: "A lock convoy on a mutex",
        explanation: "Four workers on two CPUs each take one mutex for most of their work. When the holder releases it, the mutex is handed to the first waiter, and the others stay queued: the lock, not the CPUs, sets the pace.",
        question: "With two CPUs and four workers, how busy do you expect the CPUs to be, and how many acquisitions will have had to wait?",
        text: "\
# Four workers take one mutex for a short while, over and over, on two CPUs.
kernel rr quantum=4ms
cpus 2
until 100ms
mutex M
task worker x 4
  forever {
    run 1ms
    lock M
    sys 3ms
    unlock M
  }
",
    },
    Preset {
        id: "priority-inversion",
        title: "Priority inversion on a plain mutex (O(1))",
        explanation: "A low-priority task holds a mutex that a high-priority task needs, while a medium-priority hog is runnable. The high task sleeps on the mutex, so the scheduler runs the medium one instead of the holder; priority inheritance (rt_mutex), which would lend the holder the waiter's priority, is not modelled.",
        question: "How long does the high-priority task wait for the mutex, and who is running while it waits?",
        text: "\
# A low-priority task holds a mutex that a high-priority task needs, while a
# medium-priority hog keeps the CPU: priority inversion, on 2.6.14's O(1).
kernel o1
cpus 1
until 1s
mutex M
task low nice=19
  repeat 3 {
    lock M
    sys 20ms
    unlock M
    sleep 10ms
  }
task high nice=-20 at=5ms
  repeat 3 {
    lock M
    run 1ms
    unlock M
    sleep 30ms
  }
task medium at=6ms
  forever {
    run 100ms
  }
",
    },
    Preset {
        id: "rwsem-writer-handoff",
        title: "Readers, a writer and hand-off on an rwsem",
        explanation: "Three readers share an rwsem while a writer arrives and queues behind them. The v6.13 rules stop new readers from jumping ahead of a waiting writer and hand the lock off when the readers drain.",
        question: "When the writer queues, can the next reader still take the lock for reading?",
        text: "\
# Readers share an rwsem; a writer arrives and queues; v6.13 hands it off.
kernel rr quantum=4ms
cpus 4
until 20ms
rwsem R
task reader x 3
  forever {
    run 400us
    read R
    sys 1ms
    release R
  }
task writer at=1ms
  forever {
    run 2ms
    write R
    sys 300us
    release R
  }
",
    },
    Preset {
        id: "eevdf-returning-sleeper",
        title: "EEVDF and a returning sleeper (lag)",
        explanation: "Two hogs share one CPU under today's EEVDF; a third task runs briefly, sleeps, and comes back. EEVDF keeps a sleeper's lag (what it was owed or owed others) when it returns, so it neither jumps the queue nor starts at the back.",
        question: "When the sleeper wakes, does it run at once, or after the hog that is running finishes its slice?",
        text: "\
# Two hogs share the CPU under EEVDF; a third task sleeps, then comes back.
kernel eevdf
cpus 1
until 200ms
task hog x 2
  forever {
    run 100ms
  }
task sleeper
  repeat 3 {
    run 5ms
    sleep 40ms
  }
",
    },
    Preset {
        id: "textbook-three-jobs",
        title: "The textbook's three jobs: FIFO, SJF, STCF, RR",
        explanation: "Three jobs of different lengths arrive together, the longest first, as in OSTEP's scheduling chapter. Switch the kernel (the variant) between FIFO, SJF, STCF and round robin, or compare two side by side, and watch average turnaround and response change.",
        question: "Which policy gives the best average turnaround here, and which the best average response?",
        text: TEXTBOOK_THREE_JOBS,
    },
    Preset {
        id: "spinners-and-yield",
        title: "Twenty spinners and a yield() (the core-dump stall, reduced)",
        explanation: "Nineteen threads spin on one CPU and a twentieth calls yield() in a loop. Under 2.6.14's O(1), sched_yield moves a task to the expired array, behind every spinner's whole timeslice: the mechanism behind the coredump-threads case.",
        question: "After its first yield, how long until the yielding thread runs again?",
        text: "\
# Twenty threads spin; one yields and lands on 2.6.14's expired array.
kernel o1
cpus 1
until 2s
task spinner x 19
  forever {
    run 100ms
  }
task yielder
  forever {
    run 1ms
    yield
  }
",
    },
    Preset {
        id: "pipe-wakeups",
        title: "A pipe's page slots and wakeups for nothing (v6.13)",
        explanation: "A writer puts whole pages into a pipe of four page slots while a reader on the other CPU takes a kilobyte at a time. A read frees a slot only once it has emptied a page, yet in v6.13 every read of a full pipe wakes the sleeping writer, which finds no free slot and sleeps again (Linux 6.14 stopped those wakeups).",
        question: "Each read takes a quarter of a page: of the writer's wakeups, how many find a free slot?",
        text: "\
# A writer fills a 16 KiB pipe a page at a time; a reader on the other CPU takes 1 KiB at a time.
kernel fifo
cpus 2
pipe P 16KiB
task writer
  repeat 12 {
    run 1ms
    send P 4KiB
  }
task reader
  repeat 48 {
    recv P 1KiB
    run 1ms
  }
",
    },
];

/// The `textbook-three-jobs` preset's workload (the Lab's tour runs it too).
pub const TEXTBOOK_THREE_JOBS: &str = "\
# The textbook's three jobs, arriving together (OSTEP ch. 7): compare the policies.
kernel fifo
job A at=0 length=300ms
job B at=0 length=200ms
job C at=0 length=100ms
";

/// The `editor-and-hogs` preset's workload (the Lab's tour runs it too).
pub const EDITOR_AND_HOGS: &str = "\
# An editor and three CPU hogs on one CPU, Linux 2.6.14's O(1) scheduler.
kernel o1
cpus 1
until 1s
task editor
  forever {
    run 1ms
    sleep 20ms
  }
task hog x 3
  forever {
    run 50ms
  }
";
