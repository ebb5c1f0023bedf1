//! The Lab's tour: the default workload from its first decision to a lock wait,
//! then two presets: the textbook's three jobs under FIFO and under SJF (with a
//! question), and an editor among CPU hogs on 2.6's O(1).

use super::presets::{EDITOR_AND_HOGS, TEXTBOOK_THREE_JOBS};
use crate::tour::{Ask, At, Question, Stop, Tour};

pub static TOUR: Tour = Tour {
    stops: &[
        Stop {
            title: "A workload of your own",
            set: &[],
            variant: None,
            seed: 1,
            at: At::Start,
            text: &[
                "The preset: two workers share a mutex on one CPU under round robin, and a batch job arrives.",
                "Every step is a decision of the kernel library's rules, named with its numbers.",
            ],
            question: Some(Question {
                prompt: "How many times will a task be switched onto the CPU?",
                ask: Ask::Guess { metric: "context_switches", within: 2 },
                explain: "The run switches {m:context_switches} times: each quantum, wait and wakeup costs one.",
            }),
        },
        Stop {
            title: "A task waits for the mutex",
            set: &[],
            variant: None,
            seed: 1,
            at: At::Chapter("a task waits for a lock"),
            text: &[
                "At {t} a task finds the mutex held and sleeps in its wait list.",
                "The unlock that follows wakes it, but does not hand it the mutex: another task may take it first.",
            ],
            question: None,
        },
        Stop {
            title: "The end",
            set: &[],
            variant: None,
            seed: 1,
            at: At::Chapter("the run ends"),
            text: &[
                "Every task has run; the average turnaround is {m:turnaround_avg_ns}.",
                "Next, a preset: the textbook's three jobs, under two kernels.",
            ],
            question: None,
        },
        Stop {
            title: "Three jobs, first come first served",
            set: &[("workload", TEXTBOOK_THREE_JOBS)],
            variant: None,
            seed: 1,
            at: At::Start,
            text: &[
                "Three jobs arrive together, the longest first. FIFO runs each to its end in the order they came.",
                "The editor on the left holds the workload: change a length, press Ctrl+Enter, and the run follows.",
            ],
            question: Some(Question {
                prompt: "What will the average turnaround be under FIFO?",
                ask: Ask::Magnitude { metric: "turnaround_avg_ns", powers: &[-1, 1] },
                explain: "Under FIFO the short jobs wait behind the long one: {m:turnaround_avg_ns} on average.",
            }),
        },
        Stop {
            title: "The same jobs, shortest first",
            set: &[("workload", TEXTBOOK_THREE_JOBS)],
            variant: Some("sjf"),
            seed: 1,
            at: At::End,
            text: &[
                "The kernel picker replaces the workload's `kernel` line: here SJF runs the shortest job first.",
                "The average turnaround falls to {m:turnaround_avg_ns}; compare mode shows both kernels side by side.",
            ],
            question: None,
        },
        Stop {
            title: "An editor among CPU hogs",
            set: &[("workload", EDITOR_AND_HOGS)],
            variant: None,
            seed: 1,
            at: At::End,
            text: &[
                "This preset's kernel rewards sleep: an editor that sleeps most of the time earns a priority bonus from its sleep_avg.",
                "At first it waits behind the hogs like any new task; once its bonus has grown, each wakeup preempts them.",
                "Step back through the run and find the first wakeup that preempts a hog.",
            ],
            question: None,
        },
    ],
};
