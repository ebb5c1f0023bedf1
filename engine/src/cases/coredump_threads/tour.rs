//! The coredump-threads tour: the signal, the dumper's yield, the threads' loop in
//! the kernel, a SIGXCPU dumper asleep on mmap_sem, the starvation deadline, the
//! array swap, the end; then the fix. Figures come from slots.

use crate::tour::{Ask, At, Question, Stop, Tour};

pub static TOUR: Tour = Tour {
    stops: &[
        Stop {
            title: "Threads spinning in user space",
            set: &[],
            variant: None,
            seed: 1,
            at: At::Start,
            text: &[
                "A program starts {p:threads} threads, and each spins in user space calling times().",
                "At {m:signal_ns} the process receives {p:signal}, whose default action dumps core.",
                "Before the dump can begin, every other thread of the process must stop.",
            ],
            question: Some(Question {
                prompt: "How long will the process take to die after the signal?",
                ask: Ask::Magnitude { metric: "exit_latency_ns", powers: &[-1, 1, 2] },
                explain: "From the signal to the last thread's exit: {m:exit_latency_ns}, nearly all of it system time.",
            }),
        },
        Stop {
            title: "The signal is sent",
            set: &[],
            variant: None,
            seed: 1,
            at: At::Chapter("the signal is sent"),
            text: &[
                "The signal arrives at {t} and goes on the process's shared pending set.",
                "A signal that dumps core first starts a group stop: every thread is woken to stop, and the main thread, which sleeps in pause(), will do the dump.",
                "Watch the siglock counters and the scheduler's two arrays from here on.",
            ],
            question: None,
        },
        Stop {
            title: "The dumper yields",
            set: &[],
            variant: None,
            seed: 1,
            at: At::Chapter("the dumper yields to the expired array"),
            text: &[
                "The dumper takes mmap_sem, marks the whole group as exiting, and coredump_wait() calls yield() to let the other threads reach their stop.",
                "On this kernel's scheduler yield() moves the dumper to the expired array: it runs again only when the active array is empty.",
                "Meanwhile every other thread loops in the kernel on its way back to user space: the group stop is still pending, so each turn takes the siglock and finds the signal work not done.",
            ],
            question: Some(Question {
                prompt: "Where will the process spend most of its time until it dies?",
                ask: Ask::Largest { choices: &[("In user space", "user_ns"), ("In the kernel", "sys_ns")] },
                explain: "User time {m:user_ns}, system time {m:sys_ns}: the threads loop in the kernel, not in the program.",
            }),
        },
        Stop {
            title: "A second dumper sleeps on mmap_sem",
            set: &[],
            variant: None,
            seed: 1,
            at: At::Chapter("a second dumper sleeps on mmap_sem"),
            text: &[
                "The program set a CPU limit of {p:rlimit_cpu} s, and the looping threads burn CPU: at {m:first_sigxcpu_ns} the kernel sends SIGXCPU, another signal that dumps core.",
                "A looping thread takes it and tries to dump core too, but the dumper holds mmap_sem: it sleeps, and leaves the run queue.",
                "The stall ends when the expired array has waited one second for every task on the run queue. One task fewer: one second less.",
            ],
            question: Some(Question {
                prompt: "How many SIGXCPUs will the process get before it dies?",
                ask: Ask::Guess { metric: "sigxcpu_sent", within: 2 },
                explain: "{m:sigxcpu_sent}: one for every CPU-second past the limit, each taking one more thread off the run queue.",
            }),
        },
        Stop {
            title: "The starvation deadline fires",
            set: &[],
            variant: None,
            seed: 1,
            at: At::Chapter("the starvation deadline fires"),
            text: &[
                "At {t} the expired array has waited long enough: EXPIRED_STARVING holds.",
                "From now on even an interactive thread whose slice ends goes to the expired array, so the active array empties.",
            ],
            question: None,
        },
        Stop {
            title: "The arrays swap",
            set: &[],
            variant: None,
            seed: 1,
            at: At::Chapter("the arrays swap: the dumper runs again"),
            text: &[
                "At {t} the active array is empty, the arrays swap, and the dumper runs again.",
                "By then the threads have gone round the group-stop loop {m:group_stop_loops} times and taken the siglock {m:siglock_acquisitions} times.",
            ],
            question: None,
        },
        Stop {
            title: "The last thread exits",
            set: &[],
            variant: None,
            seed: 1,
            at: At::Chapter("the last thread exits"),
            text: &[
                "zap_threads() sends SIGKILL to every thread, and they exit.",
                "The process is gone at {t}, {m:exit_latency_ns} after the signal.",
            ],
            question: None,
        },
        Stop {
            title: "The fix",
            set: &[],
            variant: Some("2.6.18"),
            seed: 1,
            at: At::End,
            text: &[
                "The same program on {variant}.",
                "Here the process dies {m:exit_latency_ns} after the signal, with {m:array_swaps} array swaps.",
                "Compare the narration at the signal with the previous run's.",
            ],
            question: None,
        },
    ],
};
