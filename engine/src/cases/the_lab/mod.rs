//! `the-lab`: the Lab. A workload written in a small language (`docs/lab.md`)
//! runs on the kernel library's rules, with the same steps, narration and
//! figures as a case; its page is the editor above a generic stage (issue 34).

#[cfg(all(feature = "the-lab", feature = "stage-claims"))]
mod claims;
pub mod presets;
mod tour;
// The simulation: built only with the `lab` feature (see `registry`).
#[cfg(feature = "the-lab")]
pub mod lang;
#[cfg(feature = "the-lab")]
mod machine;
#[cfg(feature = "the-lab")]
mod model;
#[cfg(feature = "the-lab")]
mod text;
#[cfg(feature = "the-lab")]
pub use model::Lab;

use crate::case::{CaseMeta, Golden, ReportedFigure, Source, VariantGroup, VariantSpec};
use crate::run::params::{ParamKind, ParamSpec};

/// The variant a workload's own `kernel` line names, which "As written" runs (the
/// default kernel when it has none), if the workload loads.
#[cfg(feature = "the-lab")]
pub fn written_variant(text: &str) -> Option<&'static str> {
    lang::load(text).ok().map(|program| program.kernel.word())
}

/// The longest workload text, in bytes.
pub const TEXT_BYTES_MAX: usize = 4096;

/// The workload a link with none runs: two workers share a mutex on one CPU
/// with a batch job, so that the first run shows a wait, a wakeup and a quantum.
pub const PRESET: &str = "\
# Two workers share a mutex on one CPU; a batch job arrives at 5 ms.
kernel rr quantum=10ms
cpus 1
until 200ms
mutex M
task worker x 2
  repeat 3 {
    run 4ms
    lock M
    sys 8ms
    unlock M
  }
job batch at=5ms length=30ms
";

const PARAMS: &[ParamSpec] = &[ParamSpec {
    name: "workload",
    label: "Workload",
    kind: ParamKind::Text { max_bytes: TEXT_BYTES_MAX, default: PRESET },
    description:
        "The workload, in the Lab's language: a kernel, CPUs, resources, and tasks with their operations.",
}];

const VARIANTS: &[VariantSpec] = &[
    VariantSpec {
        id: "as-written",
        label: "As written",
        description: "The kernel the workload's own `kernel` line names.",
        group: VariantGroup::AsReported,
    },
    VariantSpec {
        id: "fifo",
        label: "FIFO",
        description: "First in, first out: each task runs until it blocks or exits.",
        group: VariantGroup::WhatIf,
    },
    VariantSpec {
        id: "sjf",
        label: "SJF",
        description: "Shortest job first: the least total CPU demand runs next, never preempted.",
        group: VariantGroup::WhatIf,
    },
    VariantSpec {
        id: "stcf",
        label: "STCF",
        description: "Shortest time-to-completion first: an arrival with less time left preempts.",
        group: VariantGroup::WhatIf,
    },
    VariantSpec {
        id: "o1",
        label: "Linux 2.6.14 O(1)",
        description: "The 2.6.14 O(1) scheduler at HZ 1000, a run queue per CPU: priorities from nice and sleep_avg, active and expired arrays.",
        group: VariantGroup::WhatIf,
    },
    VariantSpec {
        id: "eevdf",
        label: "Linux 6.18 EEVDF",
        description: "Today's fair scheduler at HZ 250, a queue per CPU: the eligible task with the earliest virtual deadline runs; a wakeup goes to an idle CPU, and a CPU left idle pulls a waiting task.",
        group: VariantGroup::WhatIf,
    },
    VariantSpec {
        id: "goodness",
        label: "Linux 2.4 goodness",
        description: "The 2.4.24 scheduler at HZ 100, one run queue for every CPU: the best goodness (counter + 20 − nice, more on the CPU it last ran on) runs; spent counters are recalculated each epoch.",
        group: VariantGroup::WhatIf,
    },
    VariantSpec {
        id: "rr",
        label: "Round robin",
        description: "Round robin: the queue's head runs for one quantum (the workload's, else 10 ms).",
        group: VariantGroup::WhatIf,
    },
];

pub static META: CaseMeta = CaseMeta {
    id: "the-lab",
    title: "The Lab: write your own slow path",
    year: 2026,
    system: "the kernel library: textbook policies, 2.4 goodness, 2.6 O(1), 6.18 EEVDF, v6.13 locks",
    summary: "Write a few lines (tasks, locks, a kernel) and step through what that kernel's own rules do.",
    sources: &[
        Source {
            label: "OSTEP, Scheduling: Introduction (FIFO, SJF, STCF, RR)",
            url: "https://pages.cs.wisc.edu/~remzi/OSTEP/cpu-sched.pdf",
        },
        Source {
            label: "kernel/sched/fair.c at v6.18 (EEVDF)",
            url: "https://elixir.bootlin.com/linux/v6.18/source/kernel/sched/fair.c",
        },
        Source {
            label: "kernel/locking/mutex.c at v6.13",
            url: "https://elixir.bootlin.com/linux/v6.13.7/source/kernel/locking/mutex.c",
        },
        Source {
            label: "kernel/locking/rwsem.c at v6.13",
            url: "https://elixir.bootlin.com/linux/v6.13.7/source/kernel/locking/rwsem.c",
        },
    ],
    params: PARAMS,
    variants: VARIANTS,
    reported: &[] as &[ReportedFigure],
    headline_metric: "turnaround_avg_ns",
    headline_label: "average turnaround of the preset workload",
    tour: &tour::TOUR,
    today: None,
    golden: Some(Golden { variant: "as-written", seed: 1, trace_hash: "bc98216be9b64ac2" }),
};
