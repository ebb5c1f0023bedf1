//! `sparse-dump`: the 30-second sparse core dump of Linux 6.13 (seed 001). A
//! process maps 1 TiB, writes one byte and aborts; the dump walks every page.

mod tour;
// The simulation: built only with the case's feature (see `registry`).
#[cfg(all(feature = "sparse-dump", feature = "stage-claims"))]
mod claims;
#[cfg(feature = "sparse-dump")]
mod costs;
#[cfg(feature = "sparse-dump")]
mod extras;
#[cfg(feature = "sparse-dump")]
mod model;
#[cfg(feature = "sparse-dump")]
mod sim;
#[cfg(feature = "sparse-dump")]
mod space;
#[cfg(feature = "sparse-dump")]
mod steps;
#[cfg(feature = "sparse-dump")]
mod text;
#[cfg(feature = "sparse-dump")]
mod tree_walk;
#[cfg(feature = "sparse-dump")]
pub use model::*;

use crate::case::{CaseMeta, Golden, ReportedFigure, Source, VariantGroup, VariantSpec};
use crate::run::params::{ParamKind, ParamSpec};

const KIB: u64 = 1 << 10;
const TIB: u64 = 1 << 40;

const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "size",
        label: "Mapping size",
        kind: ParamKind::Size { min_bytes: 4 * KIB, max_bytes: 128 * TIB, default_bytes: TIB },
        description: "Length of the anonymous mapping (rounded up to whole pages). Beyond about 85 TiB it no longer fits a 47-bit x86-64 address space and is placed above 128 TiB with 5-level paging.",
    },
    ParamSpec {
        name: "touched",
        label: "Touched pages",
        kind: ParamKind::Count { min: 0, max: 10_000, default: 1 },
        description: "Pages of the mapping that were written before the crash. With 0 the mapping has no anon_vma and is not dumped at all.",
    },
    ParamSpec {
        name: "touch_pattern",
        label: "Where",
        kind: ParamKind::Choice { options: &["first", "spread", "random"], default: "first" },
        description: "Touched pages at the start of the mapping, spread evenly, or at seeded random places.",
    },
    ParamSpec {
        name: "page_size",
        label: "Page size",
        kind: ParamKind::Choice { options: &["4KiB", "16KiB", "64KiB"], default: "4KiB" },
        description: "Base page size: 4 KiB (x86-64), or 16/64 KiB granules as on arm64, with their page-table shapes.",
    },
    ParamSpec {
        name: "vmas",
        label: "VMAs",
        kind: ParamKind::Count { min: 23, max: 65_530, default: 28 },
        description: "Total number of mappings, up to vm.max_map_count's default of 65,530; beyond the program's own, small mappings are added, growing the maple tree.",
    },
    ParamSpec {
        name: "thp",
        label: "Transparent huge pages",
        kind: ParamKind::Choice { options: &["never", "always"], default: "never" },
        description: "THP \"always\": the mapping is aligned to 2 MiB (a PMD) and the first write maps a whole 2 MiB huge page, so 512 pages get written per touched page (4 KiB pages). \"never\" (the default, a model choice: the report does not say; \"madvise\", a common default, behaves the same for a plain mmap).",
    },
    ParamSpec {
        name: "sigkill_at",
        label: "SIGKILL at",
        kind: ParamKind::Duration { min_ns: 0, max_ns: 1_000_000_000_000, default_ns: 1_000_000_000 },
        description: "When another process sends SIGKILL, in simulated time since the dump began; 0 sends none.",
    },
    ParamSpec {
        name: "target",
        label: "Dump target",
        kind: ParamKind::Choice { options: &["file", "pipe"], default: "file" },
        description: "A file (holes become one lseek each) or a pipe to a core handler (holes become zero-filled page writes).",
    },
];

const VARIANTS: &[VariantSpec] = &[
    VariantSpec {
        id: "v6.13",
        label: "Linux 6.13 (as reported)",
        description: "get_dump_page locks and unlocks mmap_lock for every page; the skip path never checks for a fatal signal.",
        group: VariantGroup::AsReported,
    },
    VariantSpec {
        id: "interruptible",
        label: "+ skip path checks signals (Tavian Barnes' patch)",
        description: "v6.13 with dump_interrupted() checked after every skipped page, as proposed in January 2025.",
        group: VariantGroup::Fix,
    },
    VariantSpec {
        id: "v6.15",
        label: "Linux 6.15 (Mateusz Guzik's fix)",
        description: "The read lock is held across pages and dropped only to write a page or to reschedule; dump_interrupted() every page.",
        group: VariantGroup::Fix,
    },
    VariantSpec {
        id: "tree-walk",
        label: "Skip holes via the page tables (hypothetical)",
        description: "The approach suggested on the list and never merged: walk only populated page tables and skip holes wholesale.",
        group: VariantGroup::WhatIf,
    },
    VariantSpec {
        id: "today",
        label: "Linux 6.18 today, on the project's machine",
        description: "v6.15's loop (the lock held across pages, dump_interrupted() every page) with each operation's cost calibrated on dumps measured on a 2-vCPU AMD EPYC VM running 6.18.44 (tools/measure/sparse-dump).",
        group: VariantGroup::Today,
    },
];

pub static META: CaseMeta = CaseMeta {
    id: "sparse-dump",
    title: "The 30-second sparse core dump",
    year: 2025,
    system: "Linux 6.13",
    summary: "A 1 TiB mapping with one written byte takes 30 s to dump, at 100 % CPU, and SIGKILL does nothing meanwhile.",
    sources: &[
        Source {
            label: "Tavian Barnes' report and patch, and Mateusz Guzik's profile (LKML, January 2025)",
            url: "https://lore.kernel.org/all/?q=%22coredump%3A+allow+interrupting+dumps+of+large+anonymous+regions%22",
        },
        Source { label: "fs/coredump.c at v6.13", url: "https://elixir.bootlin.com/linux/v6.13/source/fs/coredump.c" },
        Source { label: "mm/gup.c at v6.13", url: "https://elixir.bootlin.com/linux/v6.13/source/mm/gup.c" },
        Source { label: "lib/maple_tree.c at v6.13", url: "https://elixir.bootlin.com/linux/v6.13/source/lib/maple_tree.c" },
        Source { label: "fs/coredump.c at v6.15", url: "https://elixir.bootlin.com/linux/v6.15/source/fs/coredump.c" },
        Source { label: "fs/coredump.c at v6.18 (today)", url: "https://elixir.bootlin.com/linux/v6.18/source/fs/coredump.c" },
    ],
    params: PARAMS,
    variants: VARIANTS,
    reported: &[
        ReportedFigure { metric: "dump_ns", label: "dump time", reported: "about 30 s at 100 % CPU" },
        ReportedFigure { metric: "sigkill_latency_ns", label: "SIGKILL", reported: "no effect until the dump ends" },
    ],
    headline_metric: "dump_ns",
    headline_label: "to dump a 1 TiB mapping with one written page (v6.13)",
    tour: &tour::TOUR,
    today: Some(&TODAY),
    golden: Some(Golden { variant: "v6.13", seed: 1, trace_hash: "3da09aa6c5838c10" }),
};

/// The seed's program dumping a 1 TiB mapping on this project's machine: the
/// system time of each run (both sessions), beside the `today` model at 1 TiB.
static TODAY: crate::run::measured::TodayCheck = crate::run::measured::TodayCheck {
    results_path: "tools/measure/sparse-dump/results.tsv",
    what: "The seed's program with a 1 TiB mapping, one page written: the dump's CPU time (system time of the dying process)",
    variant: "today",
    // No SIGKILL (the default sends one at 1 s, which today's dump honours at once).
    params: &[("size", "1TiB"), ("sigkill_at", "0")],
    metric: "dump_ns",
    select: |row| {
        let seed_runs = matches!(row.text("kind"), Some("dump" | "dump@ag-10"));
        (seed_runs && row.number("size_gib") == Some(1024.0)).then(|| row.number("stime_ms")).flatten()
    },
    spread: None,
};

/// The report's point on the scaling plot: (mapping bytes, dump time, what it is). The
/// seed gives a 1 TiB mapping with one written page and "about 30 s" at 100 % CPU
/// (`docs/cases/sparse-dump.md`, "What was reported").
pub const REPORTED_DUMP_POINTS: &[(u64, u64, &str)] =
    &[(1 << 40, 30_000_000_000, "the report: 1 TiB, about 30 s")];

/// The measured points of the scaling plot: for each mapping size the seed's
/// program was dumped at, the median system time of those dumps (both sessions),
/// as (mapping bytes, ns), from `results` (the text of [`TODAY`]'s file).
pub fn measured_dump_points(results: &str) -> Vec<(u64, u64)> {
    let mut by_size: std::collections::BTreeMap<u64, Vec<f64>> = std::collections::BTreeMap::new();
    crate::run::measured::each_row(results, |row| {
        let seed_runs = matches!(row.text("kind"), Some("dump" | "dump@ag-10"));
        if let (true, Some(gib), Some(ms)) = (seed_runs, row.number("size_gib"), row.number("stime_ms")) {
            if gib >= 1.0 && gib.fract() == 0.0 {
                by_size.entry(gib as u64).or_default().push(ms);
            }
        }
    });
    by_size
        .into_iter()
        .filter_map(|(gib, values)| {
            let ms = crate::run::measured::median(values)?;
            Some((gib << 30, (ms * 1e6).round() as u64))
        })
        .collect()
}
