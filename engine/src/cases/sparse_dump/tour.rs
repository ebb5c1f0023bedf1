//! The sparse-dump tour: a huge sparse mapping dumped page by page, SIGKILL that
//! does nothing, the end of the dump, and the fix. Figures come from slots.

use crate::tour::{Ask, At, Question, Stop, Tour};

pub static TOUR: Tour = Tour {
    stops: &[
        Stop {
            title: "A huge mapping, almost empty",
            set: &[],
            variant: None,
            seed: 1,
            at: At::Start,
            text: &[
                "The process maps {p:size} of anonymous memory, writes one byte and aborts.",
                "Its core dump must describe every page of the mapping, even the ones never touched.",
                "The dump loop visits {m:iterations} pages, one at a time.",
            ],
            question: Some(Question {
                prompt: "How long will the dump take?",
                ask: Ask::Magnitude { metric: "dump_ns", powers: &[-2, -1, 1] },
                explain: "The dump takes {m:dump_ns}: each of {m:iterations} pages costs a lock, a tree lookup and a page-table walk.",
            }),
        },
        Stop {
            title: "The first page",
            set: &[],
            variant: None,
            seed: 1,
            at: At::Chapter("mmap_lock is taken for the first page"),
            text: &[
                "For each page the dump takes mmap_lock, finds the page's VMA in the maple tree and walks the page tables.",
                "Only {m:pages_emitted} page holds data; the other {m:pages_skipped} are holes, written as nothing, but each still costs the whole walk.",
            ],
            question: None,
        },
        Stop {
            title: "SIGKILL arrives",
            set: &[],
            variant: None,
            seed: 1,
            at: At::Chapter("SIGKILL arrives"),
            text: &[
                "At {t} someone sends SIGKILL to stop the dump.",
                "The dump loop only checks for a fatal signal when it writes data, and holes write nothing.",
            ],
            question: Some(Question {
                prompt: "How long after SIGKILL will the process die?",
                ask: Ask::Magnitude { metric: "sigkill_latency_ns", powers: &[-3, -2, -1] },
                explain: "It dies {m:sigkill_latency_ns} after SIGKILL, when the dump ends on its own.",
            }),
        },
        Stop {
            title: "The dump ends",
            set: &[],
            variant: None,
            seed: 1,
            at: At::Chapter("the dump ends"),
            text: &[
                "The dump ends at {t}, having taken mmap_lock {m:lock_acquisitions} times.",
                "SIGKILL was pending for {m:sigkill_latency_ns} of it.",
            ],
            question: None,
        },
        Stop {
            title: "The fix",
            set: &[],
            variant: Some("v6.15"),
            seed: 1,
            at: At::End,
            text: &[
                "The same process on {variant}.",
                "The dump now ends after {m:dump_ns}.",
                "Step through a page and compare its operations with the previous run's.",
            ],
            question: None,
        },
    ],
};
