use crate::params::{ParamKind, ParamSpec, ParamValues};
use crate::scenario::{ReportedFigure, Scenario, ScenarioMeta, Source, VariantSpec};
use crate::trace::Run;

pub struct RwsemPlayground;

const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "readers",
        label: "Readers",
        kind: ParamKind::Count {
            min: 0,
            max: 64,
            default: 4,
        },
        description:
            "Tasks that take the semaphore for reading, like page-fault handlers taking mmap_lock.",
    },
    ParamSpec {
        name: "writers",
        label: "Writers",
        kind: ParamKind::Count {
            min: 0,
            max: 16,
            default: 1,
        },
        description: "Tasks that take it for writing, like mmap() or munmap().",
    },
];

static META: ScenarioMeta = ScenarioMeta {
    id: "rwsem-playground",
    title: "mmap_lock under contention",
    year: 2024,
    system: "Linux 6.13",
    summary: "Readers share, writers queue: watch a reader-writer semaphore batch readers, hold back a writer and hand the lock off.",
    sources: &[Source { label: "kernel/locking/rwsem.c (v6.13)", url: "https://elixir.bootlin.com/linux/v6.13.7/source/kernel/locking/rwsem.c" }],
    params: PARAMS,
    variants: &[VariantSpec { id: "v6.13", label: "Linux 6.13", description: "The rwsem as of v6.13." }],
    reported: &[] as &[ReportedFigure],
    headline_metric: "contended",
};

impl Scenario for RwsemPlayground {
    fn meta(&self) -> &'static ScenarioMeta {
        &META
    }
    fn run_validated(&self, _params: &ParamValues, _variant: &'static str, _seed: u64) -> Run {
        Run
    }
}
