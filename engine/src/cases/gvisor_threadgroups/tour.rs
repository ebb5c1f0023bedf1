//! The gvisor-threadgroups tour: the ticker's scans of every task, the clone that
//! waits, the pause, the defer pile, the fix, then job control's freeze. Figures
//! come from slots.

use crate::tour::{Ask, At, Question, Stop, Tour};

pub static TOUR: Tour = Tour {
    stops: &[
        Stop {
            title: "Sleeping threads",
            set: &[],
            variant: None,
            seed: 1,
            at: At::Start,
            text: &[
                "A sandbox runs {m:threads} threads that do nothing but sleep.",
                "They belong to only {m:thread_groups} thread groups.",
                "gVisor's CPU-clock ticker still wakes up regularly to look at the thread groups.",
            ],
            question: Some(Question {
                prompt: "How long will one of the ticker's scans take?",
                ask: Ask::Magnitude { metric: "scan_ns", powers: &[-2, -1, 1] },
                explain: "One scan takes {m:scan_ns}, because it visits every task to find the thread groups.",
            }),
        },
        Stop {
            title: "The ticker scans every task",
            set: &[],
            variant: None,
            seed: 1,
            at: At::Chapter("the ticker scans every task"),
            text: &[
                "ThreadGroupsAppend walks the map of every task, {m:visits_per_scan} entries, to list the thread groups.",
                "It holds TaskSet.mu for reading while it walks.",
                "Over the run the ticker scans {m:scans} times and spends {m:scan_cpu_ns} of CPU doing it.",
            ],
            question: Some(Question {
                prompt: "How long will a clone() wait for TaskSet.mu?",
                ask: Ask::Guess { metric: "writer_wait_max_ns", within: 2 },
                explain: "The clone waits {m:writer_wait_max_ns}: a writer must wait for the scan that holds the lock.",
            }),
        },
        Stop {
            title: "A clone waits",
            set: &[],
            variant: None,
            seed: 1,
            at: At::Chapter("a clone waits for TaskSet.mu"),
            text: &[
                "A thread calls clone(), which needs TaskSet.mu for writing.",
                "The ticker's scan holds it for reading, so the clone waits, and Go's writer preference makes new readers wait behind it.",
            ],
            question: None,
        },
        Stop {
            title: "The pause stops every task",
            set: &[],
            variant: None,
            seed: 1,
            at: At::Chapter("the pause stops every task"),
            text: &[
                "Before it sends the signal, runsc pauses the kernel so that no new process appears meanwhile.",
                "The pause takes TaskSet.mu for writing and visits all {m:tasks} tasks to stop each one: {m:pause_walk_ns}, and unpausing visits them again.",
                "The fix changes the ticker's scans, not this walk.",
            ],
            question: None,
        },
        Stop {
            title: "Locks pile up",
            set: &[],
            variant: None,
            seed: 1,
            at: At::Chapter("a defer inside the loop: locks pile up"),
            text: &[
                "Sending a signal to the container takes a lock per thread group inside a loop, and releases each with defer.",
                "A deferred unlock runs when the function returns, not at the end of the loop turn, so the locks pile up: {m:locks_held_max} at once.",
            ],
            question: None,
        },
        Stop {
            title: "The fix",
            set: &[],
            variant: Some("tgids"),
            seed: 1,
            at: At::End,
            text: &[
                "The same sandbox with the fix: {variant}. The scan now walks the thread groups only.",
                "One scan now takes {m:scan_ns}, and the ticker spends {m:scan_cpu_ns} in all.",
            ],
            question: None,
        },
        Stop {
            title: "Job control freezes the sandbox",
            set: &[],
            variant: Some("job-control"),
            seed: 1,
            at: At::Chapter("the ticker queues: the CPU clock stops"),
            text: &[
                "The same defer sits in the terminal's job-control path, which two threads can run at once, with no pause.",
                "Each visits the process group in its own random map order; here the orders cross and each holds a lock the other wants.",
                "Both keep TaskSet.mu for reading, so a clone waits for good, and the ticker waits behind the clone: the CPU clock stops.",
            ],
            question: None,
        },
    ],
};
