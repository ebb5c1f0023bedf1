//! The rwsem-playground tour: readers and writers on mmap_lock, the first wait,
//! the batched reader wakeup, the totals, then writers without spinning.

use crate::tour::{Ask, At, Question, Stop, Tour};

pub static TOUR: Tour = Tour {
    stops: &[
        Stop {
            title: "Readers and writers",
            set: &[],
            variant: None,
            seed: 1,
            at: At::Start,
            text: &[
                "Readers ({p:readers} of them) and writers ({p:writers}) share mmap_lock on {p:cpus} CPUs.",
                "Readers may hold the lock together; a writer needs it alone.",
                "Each task thinks in user space, takes the lock, works, and lets go.",
            ],
            question: Some(Question {
                prompt: "How many acquisitions of mmap_lock will have to wait?",
                ask: Ask::Guess { metric: "contended", within: 2 },
                explain: "{m:contended} of the run's acquisitions were contended.",
            }),
        },
        Stop {
            title: "A task must wait",
            set: &[],
            variant: None,
            seed: 1,
            at: At::Chapter("a task must wait for mmap_lock"),
            text: &[
                "At {t} a task finds the lock taken in a way it cannot share.",
                "A writer whose owner is running may spin; otherwise the task joins the wait queue and sleeps.",
            ],
            question: None,
        },
        Stop {
            title: "Readers wake as a batch",
            set: &[],
            variant: None,
            seed: 1,
            at: At::Chapter("queued readers wake as a batch"),
            text: &[
                "When the lock is released to readers, rwsem_wake() grants it to the queued readers at once, skipping writers between them.",
                "Over the run, {m:reader_batches} such batches woke {m:batched_readers} readers.",
            ],
            question: Some(Question {
                prompt: "How long will the longest wait for mmap_lock be?",
                ask: Ask::Magnitude { metric: "locks.mmap_lock.wait_max_ns", powers: &[1, 2, 3] },
                explain: "The longest wait is {m:locks.mmap_lock.wait_max_ns}; the longest a writer waited is {m:writer_wait_max_ns}.",
            }),
        },
        Stop {
            title: "The whole run",
            set: &[],
            variant: None,
            seed: 1,
            at: At::Chapter("the end of the run"),
            text: &[
                "The run ends at {t}.",
                "mmap_lock was taken {m:locks.mmap_lock.acquisitions} times, {m:contended} of them after a wait, and writers spun {m:spins} times.",
            ],
            question: None,
        },
        Stop {
            title: "Writers that never spin",
            set: &[],
            variant: Some("no-spin"),
            seed: 1,
            at: At::End,
            text: &[
                "The same tasks with {variant}.",
                "A writer that finds the lock taken now always sleeps: {m:contended} acquisitions wait, and the longest writer wait is {m:writer_wait_max_ns}.",
            ],
            question: None,
        },
    ],
};
