//! The one list of cases that the app, the CLI, the tests and the benchmarks all
//! iterate (egui's demo-registry pattern): adding a case means adding it here, and
//! every consumer picks it up.
//!
//! It sits at the top of the engine, beside the crate root: it names every case,
//! so nothing generic may import it (`cargo xtask layout` checks the `use` graph).
//! The generic layers are handed the case they work for instead.

use crate::case::Case;

/// Every case slowpath knows, in the order the landing page lists them.
pub fn registry() -> &'static [&'static dyn Case] {
    // The four reports in the order the project numbers them, then the playground.
    &[
        &crate::cases::coredump_threads::CoredumpThreads,
        &crate::cases::sparse_dump::SparseDump,
        &crate::cases::fifo_trigger::FifoTrigger,
        &crate::cases::gvisor_threadgroups::GvisorThreadgroups,
        &crate::cases::rwsem_playground::RwsemPlayground,
    ]
}

/// Looks a case up by its link id.
pub fn find(id: &str) -> Option<&'static dyn Case> {
    registry().iter().copied().find(|case| case.meta().id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::run_checked;

    #[test]
    fn registry_ids_are_unique_and_link_safe() {
        let mut ids: Vec<&str> = registry().iter().map(|s| s.meta().id).collect();
        for id in &ids {
            assert!(id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'));
        }
        ids.sort_unstable();
        let before = ids.len();
        ids.dedup();
        assert_eq!(before, ids.len());
    }

    #[test]
    fn every_headline_metric_exists_in_the_default_run() {
        for case in registry() {
            let meta = case.meta();
            let run = run_checked(*case, &meta.default_params(), meta.default_variant().id, 1).expect("runs");
            assert!(run.metrics.contains_key(meta.headline_metric), "{}: {}", meta.id, meta.headline_metric);
        }
    }

    #[test]
    fn every_case_has_variants_and_valid_defaults() {
        for case in registry() {
            let meta = case.meta();
            assert!(!meta.variants.is_empty(), "{}", meta.id);
            meta.default_params().check(meta.params).expect("defaults are in range");
            for spec in meta.params {
                assert!(!spec.description.is_empty(), "{}.{}", meta.id, spec.name);
            }
        }
    }
}
