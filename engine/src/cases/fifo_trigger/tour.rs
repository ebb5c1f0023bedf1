//! The fifo-trigger tour: a one-byte write() into a FIFO, the preemption on its way
//! out, the first slow write, the totals, then 2.4.24. Figures come from slots.

use crate::tour::{Ask, At, Question, Stop, Tour};

pub static TOUR: Tour = Tour {
    stops: &[
        Stop {
            title: "A one-byte write()",
            set: &[],
            variant: None,
            seed: 1,
            at: At::Start,
            text: &[
                "A writer program opens a FIFO, writes one byte and closes it, over and over, timing each write().",
                "A listener program opens the FIFO, waits in select() for a byte, closes it and runs a busy loop before opening it again.",
                "Most writes take {m:write_dt_ns.p50}.",
            ],
            question: Some(Question {
                prompt: "How long will the slowest write() take?",
                ask: Ask::Magnitude { metric: "write_dt_ns.max", powers: &[-1, 1, 2] },
                explain: "The slowest write() takes {m:write_dt_ns.max}, though the byte goes into the pipe at once.",
            }),
        },
        Stop {
            title: "Preempted in write()",
            set: &[],
            variant: None,
            seed: 1,
            at: At::Chapter("preempted on its way out of write()"),
            text: &[
                "write() puts the byte in the pipe and wakes the listener, which has slept in select() and so has a better priority than the writer, which never sleeps.",
                "The writer is preempted on its way out of write(), before it can read the clock again.",
                "Nobody reads the byte, so each of the listener's select() calls returns at once, and it spins through its whole timeslice.",
            ],
            question: None,
        },
        Stop {
            title: "The first slow write",
            set: &[],
            variant: None,
            seed: 1,
            at: At::Chapter("the first slow write() is measured"),
            text: &[
                "The writer gets the CPU back and measures this write(): {m:first_burst_first_dt_ns}.",
                "While it waited, the listener, still counted as interactive, went back into the active array at the end of each timeslice, ahead of the writer.",
            ],
            question: Some(Question {
                prompt: "How many slow writes will the whole run have?",
                ask: Ask::Guess { metric: "writes_over_1ms", within: 2 },
                explain: "Of {m:writes} writes, {m:writes_over_1ms} were slow, in bursts.",
            }),
        },
        Stop {
            title: "The whole run",
            set: &[],
            variant: None,
            seed: 1,
            at: At::Chapter("the end of the run"),
            text: &[
                "The run ends at {t} after {m:writes} writes.",
                "The writer was preempted inside write() {m:preemptions_in_write} times.",
            ],
            question: None,
        },
        Stop {
            title: "The same programs on the older scheduler",
            set: &[],
            variant: Some("2.4.24"),
            seed: 1,
            at: At::End,
            text: &[
                "The same two programs on {variant}.",
                "Here the slowest write() takes {m:write_dt_ns.max}.",
                "Look at how the scheduler chooses between the two programs in this variant.",
            ],
            question: None,
        },
    ],
};
