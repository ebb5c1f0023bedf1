//! The Lab's tour: the preset workload from its first decision to its end.

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
                "Change the kernel (FIFO, SJF, STCF) and compare the same workload's figures.",
            ],
            question: None,
        },
    ],
};
