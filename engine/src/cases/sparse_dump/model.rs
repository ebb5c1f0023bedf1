//! The simulation side of the case, built with the `sparse-dump` feature: the
//! metadata beside it (`mod.rs`) is built in every build.

use super::*;
use crate::case::Case;
use crate::run::params::ParamValues;
use crate::run::trace::Run;

pub use extras::{AddressSpace, VmaInfo};

pub struct SparseDump;

/// Mateusz Guzik's profile of the reported dump (seed 001), as shares of the time,
/// keyed like `cost_by_function_ns`.
#[allow(clippy::approx_constant)] // 3.14 % is a measured share, not π.
const PROFILE: &[(&str, f64)] = &[
    ("mt_find", 40.92),
    ("down_read_killable", 15.13),
    ("up_read", 13.84),
    ("check_vma_flags", 3.14),
    ("__get_user_pages (rest, incl. page-table walk)", 20.13),
    ("get_dump_page", 4.96),
    ("dump_user_range loop", 1.88),
];

impl Case for SparseDump {
    fn meta(&self) -> &'static CaseMeta {
        &META
    }

    fn wire(&self) -> crate::run::wire::CaseWire {
        crate::run::wire::CaseWire::with_extras::<extras::AddressSpace>(text::TEMPLATES, text::CODE)
    }

    #[cfg(feature = "stage-claims")]
    fn stage_claims(&self) -> &'static [crate::run::chapters::StageClaim] {
        super::claims::CLAIMS
    }

    fn run_validated(&self, params: &ParamValues, variant: &'static str, seed: u64) -> Run {
        let (page, geometry) = match params.word("page_size") {
            "16KiB" => (16 * KIB, space::GEOMETRY_16K),
            "64KiB" => (64 * KIB, space::GEOMETRY_64K),
            _ if space::needs_high_address(params.unsigned("size")) => (4 * KIB, space::GEOMETRY_4K_5LEVEL),
            _ => (4 * KIB, space::GEOMETRY_4K),
        };
        // mmap rounds the length up to whole pages.
        let size = params.unsigned("size").div_ceil(page) * page;
        let pattern = match params.word("touch_pattern") {
            "spread" => space::Pattern::Spread,
            "random" => space::Pattern::Random(seed),
            _ => space::Pattern::First,
        };
        // The PMD size: a huge page maps what one entry of the next-to-last level covers.
        let pmd = 1u64 << geometry.shifts[geometry.shifts.len() - 2];
        let thp = (params.word("thp") == "always").then_some(pmd);
        let space =
            space::build(size, params.unsigned("touched"), pattern, page, params.unsigned("vmas"), thp);
        let tables = space::PageTables::new(geometry, &space.vmas, &space.huge);
        let config = sim::Config {
            page,
            sigkill_at_ns: Some(params.unsigned("sigkill_at")).filter(|&at| at > 0),
            pipe: params.word("target") == "pipe",
            variant: match variant {
                "interruptible" => sim::Variant::Interruptible,
                "v6.15" => sim::Variant::V615,
                "tree-walk" => sim::Variant::TreeWalk,
                "today" => sim::Variant::Today,
                _ => sim::Variant::V613,
            },
            costs: if variant == "today" { costs::THIS_MACHINE } else { costs::SEED_MACHINE },
        };
        let finished = sim::run(&config, &space, tables);
        let variant_kind = config.variant;
        let blocks = finished.blocks;
        let mut run = finished.builder.finish(
            META.id,
            variant,
            seed,
            params.clone(),
            finished.outcome,
            finished.metrics,
        );
        // The dump loop's work is one step per block it simulates (a run of identical
        // pages is one repeat block, summed in closed form), stored or not.
        run.simulated_steps = blocks.max(1);
        run.set_extras(AddressSpace {
            vmas: space
                .vmas
                .iter()
                .map(|vma| VmaInfo {
                    start: vma.start,
                    end: vma.end,
                    name: vma.name,
                    dump_bytes: vma.dump_size(page),
                    big: vma.big,
                    present: vma.present.clone(),
                })
                .collect(),
            tree: space.tree.clone(),
            page_bytes: page,
            machine: geometry.machine,
            levels: geometry.names,
            profile: PROFILE,
            loop_as_reported: text::DUMP_613,
            loop_of_variant: match variant_kind {
                sim::Variant::V613 => text::DUMP_613,
                sim::Variant::Interruptible => text::DUMP_INTERRUPTIBLE,
                sim::Variant::V615 => text::DUMP_615,
                sim::Variant::TreeWalk => text::TREE_WALK,
                sim::Variant::Today => text::DUMP_TODAY,
            },
        });
        use text::T;
        let first = |templates: &[T]| {
            run.first_op_with_template(&templates.iter().map(|t| t.id()).collect::<Vec<_>>())
        };
        let moments = [
            (first(&[T::LOCK, T::LOCK_TAKE_615, T::TREE_LOOKUP]), "mmap_lock is taken for the first page"),
            (first(&[T::SIGNAL, T::SIGNAL_IN_HOLE]), "SIGKILL arrives"),
            (first(&[T::END, T::END_KILLED, T::END_NO_SIGNAL]), "the dump ends"),
        ];
        run.set_chapters(&moments);
        run
    }
}
