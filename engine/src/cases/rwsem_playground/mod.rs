//! `rwsem-playground`: "mmap_lock under contention". R readers and W writers
//! loop over think → lock → work → unlock on N CPUs, on the v6.13 rwsem model.

mod tour;
// The simulation: built only with the case's feature (see `registry`).
#[cfg(all(feature = "rwsem-playground", feature = "stage-claims"))]
mod claims;
#[cfg(feature = "rwsem-playground")]
mod model;
#[cfg(feature = "rwsem-playground")]
mod sim;
#[cfg(feature = "rwsem-playground")]
mod text;
#[cfg(feature = "rwsem-playground")]
pub use model::*;
/// The playground's lock-operation costs, for a Lab workload that states them (`lockcost`).
#[cfg(feature = "rwsem-playground")]
pub use sim::{FAST_LOCK_NS, SLOW_LOCK_NS};

use crate::case::{CaseMeta, Golden, ReportedFigure, Source, VariantGroup, VariantSpec};
use crate::run::params::{ParamKind, ParamSpec};

const US: u64 = 1_000;
const MS: u64 = 1_000_000;

const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "readers",
        label: "Readers",
        kind: ParamKind::Count { min: 0, max: 64, default: 4 },
        description: "Tasks that take the lock for reading, as page faults take mmap_lock.",
    },
    ParamSpec {
        name: "writers",
        label: "Writers",
        kind: ParamKind::Count { min: 0, max: 16, default: 1 },
        description: "Tasks that take it for writing, as mmap() and munmap() do.",
    },
    ParamSpec {
        name: "cpus",
        label: "CPUs",
        kind: ParamKind::Count { min: 1, max: 8, default: 6 },
        description: "CPUs to run on; with fewer CPUs than tasks, woken waiters also wait for a CPU.",
    },
    ParamSpec {
        name: "read_hold",
        label: "Read hold",
        kind: ParamKind::Duration { min_ns: 10 * US, max_ns: 100 * MS, default_ns: 200 * US },
        description: "How long a reader works with the lock held.",
    },
    ParamSpec {
        name: "write_hold",
        label: "Write hold",
        kind: ParamKind::Duration { min_ns: 10 * US, max_ns: 100 * MS, default_ns: 300 * US },
        description: "How long a writer works with the lock held.",
    },
    ParamSpec {
        name: "read_think",
        label: "Reader think",
        kind: ParamKind::Duration { min_ns: 10 * US, max_ns: 1_000 * MS, default_ns: 400 * US },
        description: "User-mode time between a reader's lock holds.",
    },
    ParamSpec {
        name: "write_think",
        label: "Writer think",
        kind: ParamKind::Duration { min_ns: 10 * US, max_ns: 1_000 * MS, default_ns: 2 * MS },
        description: "User-mode time between a writer's lock holds.",
    },
    ParamSpec {
        name: "jitter",
        label: "Jitter %",
        kind: ParamKind::Count { min: 0, max: 100, default: 30 },
        description: "Each hold and think time varies uniformly by up to this percentage (seeded).",
    },
    ParamSpec {
        name: "duration",
        label: "Duration",
        kind: ParamKind::Duration { min_ns: 100 * US, max_ns: 1_000 * MS, default_ns: 20 * MS },
        description: "Simulated time to run.",
    },
    ParamSpec {
        name: "timeslice",
        label: "Timeslice",
        kind: ParamKind::Duration { min_ns: 100 * US, max_ns: 100 * MS, default_ns: 4 * MS },
        description:
            "Round-robin timeslice: a running task is preempted after this if others wait for a CPU.",
    },
];

const VARIANTS: &[VariantSpec] = &[
    VariantSpec {
        id: "v6.13",
        label: "Linux 6.13",
        description: "The rwsem as in v6.13: phase-fair reader wakeups, writer spinning, handoff after 4 ms.",
        group: VariantGroup::AsReported,
    },
    VariantSpec {
        id: "no-spin",
        label: "No writer spinning",
        description: "As v6.13 built without CONFIG_RWSEM_SPIN_ON_OWNER: writers always queue and sleep.",
        group: VariantGroup::WhatIf,
    },
    VariantSpec {
        id: "no-handoff",
        label: "No handoff (hypothetical)",
        description: "v6.13 with the handoff bit removed, a hypothetical kernel: newcomers can keep stealing the lock from a woken writer.",
        group: VariantGroup::WhatIf,
    },
];

/// kernel/locking/rwsem.c at v6.13.
pub const RWSEM_SOURCE: &str = "https://elixir.bootlin.com/linux/v6.13.7/source/kernel/locking/rwsem.c";

pub static META: CaseMeta = CaseMeta {
    id: "rwsem-playground",
    title: "mmap_lock under contention",
    year: 2024,
    system: "Linux 6.13 rwsem",
    summary: "Readers share, writers queue: watch a reader-writer semaphore batch readers, hold back a writer, and hand the lock off.",
    sources: &[
        Source { label: "kernel/locking/rwsem.c at v6.13", url: RWSEM_SOURCE },
        Source {
            label: "locking/rwsem: Implement lock handoff to prevent lock starvation (v5.3)",
            url: "https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/commit/?id=4f23dbc1e657",
        },
        Source {
            label: "locking/rwsem: Wake up almost all readers in wait queue (v5.3)",
            url: "https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/commit/?id=d3681e269fff",
        },
    ],
    params: PARAMS,
    variants: VARIANTS,
    reported: &[] as &[ReportedFigure],
    headline_metric: "contended",
    headline_label: "contended acquisitions of mmap_lock in 20 ms (default run)",
    tour: &tour::TOUR,
    today: None,
    golden: Some(Golden { variant: "v6.13", seed: 1, trace_hash: "e90627a6a7dca6c0" }),
};
