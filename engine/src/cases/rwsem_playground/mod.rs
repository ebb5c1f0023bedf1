//! `rwsem-playground`: "mmap_lock under contention". R readers and W writers
//! loop over think → lock → work → unlock on N CPUs, on the v6.13 rwsem model.

mod sim;
mod text;
mod tour;

use crate::case::{Case, CaseMeta, ReportedFigure, Source, VariantGroup, VariantSpec};
use crate::kernel::locks::rwsem::RwsemPolicy;
use crate::run::params::{ParamKind, ParamSpec, ParamValues};
use crate::run::trace::Run;

pub struct RwsemPlayground;

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

static META: CaseMeta = CaseMeta {
    id: "rwsem-playground",
    title: "mmap_lock under contention",
    year: 2024,
    system: "Linux 6.13 rwsem",
    summary: "Readers share, writers queue: watch a reader-writer semaphore batch readers, hold back a writer, and hand the lock off.",
    sources: &[
        Source { label: "kernel/locking/rwsem.c at v6.13", url: text::RWSEM_SOURCE },
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
};

impl Case for RwsemPlayground {
    fn meta(&self) -> &'static CaseMeta {
        &META
    }

    fn wire(&self) -> crate::run::wire::CaseWire {
        crate::run::wire::CaseWire::without_extras(text::TEMPLATES, text::CODE)
    }

    fn tour(&self) -> &'static crate::tour::Tour {
        &tour::TOUR
    }

    fn run_validated(&self, params: &ParamValues, variant: &'static str, seed: u64) -> Run {
        let policy = match variant {
            "no-spin" => RwsemPolicy { writer_spin: false, handoff: true },
            "no-handoff" => RwsemPolicy { writer_spin: true, handoff: false },
            _ => RwsemPolicy { writer_spin: true, handoff: true },
        };
        let config = sim::Config {
            readers: params.unsigned("readers") as usize,
            writers: params.unsigned("writers") as usize,
            cpus: params.unsigned("cpus") as u16,
            read_hold_ns: params.unsigned("read_hold"),
            write_hold_ns: params.unsigned("write_hold"),
            read_think_ns: params.unsigned("read_think"),
            write_think_ns: params.unsigned("write_think"),
            jitter_percent: params.unsigned("jitter"),
            duration_ns: params.unsigned("duration"),
            timeslice_ns: params.unsigned("timeslice"),
            policy,
        };
        let mut run = sim::run(&config, seed).finish(META.id, variant, seed, params.clone());
        use text::T;
        let first = |templates: &[T]| {
            run.first_op_with_template(&templates.iter().map(|t| t.id()).collect::<Vec<_>>())
        };
        // The lock's story in four moments; one that does not happen in a run (no
        // handoff in the default one) is left out of its chapters.
        let waits = [
            T::READ_QUEUE_WRITER,
            T::READ_QUEUE_FAIR,
            T::READ_QUEUE_HANDOFF,
            T::WRITE_QUEUE,
            T::WRITE_SPIN_WRITER,
            T::WRITE_SPIN_READERS,
        ];
        let moments = [
            (first(&waits), "a task must wait for mmap_lock"),
            (first(&[T::WAKE_READERS]), "queued readers wake as a batch"),
            (first(&[T::WRITE_SET_HANDOFF]), "a writer sets the handoff flag"),
            (first(&[T::END]), "the end of the run"),
        ];
        run.set_chapters(&moments);
        run
    }
}
