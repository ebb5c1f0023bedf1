//! The one list of cases that the app, the CLI, the tests and the benchmarks all
//! iterate (egui's demo-registry pattern): adding a case means adding it here, and
//! every consumer picks it up.
//!
//! It sits at the top of the engine, beside the crate root: it names every case,
//! so nothing generic may import it (`cargo xtask layout` checks the `use` graph).
//! The generic layers are handed the case they work for instead.
//!
//! Each entry holds a case's metadata, always built, and its simulation, built
//! when the case's cargo feature is on (all are by default): a build can carry
//! every case's titles, parameters and tours and the machine of only one.

use crate::case::{Case, CaseMeta};

/// One registered case.
#[derive(Clone, Copy)]
pub struct Entry {
    pub meta: &'static CaseMeta,
    /// None when this build left the case's simulation out (its feature is off).
    pub simulation: Option<&'static dyn Case>,
    /// Whether people are shown the case (the landing, the About page, the CLI's
    /// `list`): false only for the tests' own case, which the page opens only where
    /// its test doors open, so that the browser tests reach it in the build that ships.
    pub listed: bool,
    /// Whether the app has a page for it (every case today; a case whose page is not
    /// built yet is registered with false, and the browser tests leave it out).
    pub in_app: bool,
}

/// An entry for a case whose simulation this build carries only with `$feature`.
macro_rules! entry {
    ($feature:literal, $module:ident, $simulation:ident) => {
        Entry {
            meta: &crate::cases::$module::META,
            #[cfg(feature = $feature)]
            simulation: Some(&crate::cases::$module::$simulation),
            #[cfg(not(feature = $feature))]
            simulation: None,
            listed: true,
            in_app: true,
        }
    };
}

/// Every case slowpath knows, in the order the landing page lists them.
pub fn registry() -> &'static [Entry] {
    // The four reports in the order the project numbers them, then the playground.
    static ENTRIES: &[Entry] = &[
        entry!("coredump-threads", coredump_threads, CoredumpThreads),
        entry!("sparse-dump", sparse_dump, SparseDump),
        entry!("fifo-trigger", fifo_trigger, FifoTrigger),
        entry!("gvisor-threadgroups", gvisor_threadgroups, GvisorThreadgroups),
        entry!("rwsem-playground", rwsem_playground, RwsemPlayground),
        // The tests' own case (`cases/example_case`), in the builds that turn its
        // feature on: the engine's tests, the CLI and the app (behind its test doors).
        #[cfg(feature = "example-case")]
        Entry { listed: false, ..entry!("example-case", example_case, Example) },
        // The Lab (`cases/the_lab`): a workload the reader writes, after the reports.
        entry!("the-lab", the_lab, Lab),
    ];
    ENTRIES
}

/// Looks a case up by its link id.
pub fn find(id: &str) -> Option<&'static Entry> {
    registry().iter().find(|entry| entry.meta.id == id)
}

/// The cases people are shown, in registry order (every one but the tests' own).
pub fn listed() -> impl Iterator<Item = &'static Entry> {
    registry().iter().filter(|entry| entry.listed)
}

/// The simulation of the case with this link id, when this build carries it.
pub fn simulation(id: &str) -> Option<&'static dyn Case> {
    find(id).and_then(|entry| entry.simulation)
}

/// The cases whose simulation this build carries, in registry order.
pub fn simulations() -> impl Iterator<Item = &'static dyn Case> {
    registry().iter().filter_map(|entry| entry.simulation)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::run_checked;

    #[test]
    fn registry_ids_are_unique_and_link_safe() {
        let mut ids: Vec<&str> = registry().iter().map(|entry| entry.meta.id).collect();
        for id in &ids {
            assert!(id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'));
        }
        ids.sort_unstable();
        let before = ids.len();
        ids.dedup();
        assert_eq!(before, ids.len());
    }

    #[test]
    fn only_the_tests_own_case_is_unlisted() {
        let unlisted: Vec<&str> =
            registry().iter().filter(|entry| !entry.listed).map(|entry| entry.meta.id).collect();
        let expected: Vec<&str> = if cfg!(feature = "example-case") { vec!["example-case"] } else { vec![] };
        assert_eq!(unlisted, expected);
        assert_eq!(listed().count(), 6);
        assert!(registry().iter().all(|entry| entry.in_app), "every case has a page");
    }

    #[test]
    fn a_simulation_belongs_to_its_entry() {
        for entry in registry() {
            if let Some(simulation) = entry.simulation {
                assert!(std::ptr::eq(simulation.meta(), entry.meta), "{}", entry.meta.id);
            }
        }
    }

    /// Each case's feature decides whether its simulation is built, and nothing else:
    /// `cargo xtask test` runs this in a build with one case's feature only.
    #[test]
    fn a_build_carries_every_meta_and_the_simulations_its_features_ask_for() {
        let unlisted = usize::from(cfg!(feature = "example-case")) + usize::from(cfg!(feature = "the-lab"));
        assert_eq!(registry().len(), 5 + unlisted);
        let expected = [
            cfg!(feature = "coredump-threads"),
            cfg!(feature = "sparse-dump"),
            cfg!(feature = "fifo-trigger"),
            cfg!(feature = "gvisor-threadgroups"),
            cfg!(feature = "rwsem-playground"),
            cfg!(feature = "example-case"),
            cfg!(feature = "the-lab"),
        ];
        for (entry, built) in registry().iter().zip(expected) {
            assert_eq!(entry.simulation.is_some(), built, "{}", entry.meta.id);
            assert!(!entry.meta.tour.stops.is_empty(), "{}", entry.meta.id);
        }
    }

    #[test]
    fn every_headline_metric_exists_in_the_default_run() {
        for case in simulations() {
            let meta = case.meta();
            let run = run_checked(case, &meta.default_params(), meta.default_variant().id, 1).expect("runs");
            assert!(run.metrics.contains_key(meta.headline_metric), "{}: {}", meta.id, meta.headline_metric);
        }
    }

    #[test]
    fn every_case_has_variants_and_valid_defaults() {
        for entry in registry() {
            let meta = entry.meta;
            assert!(!meta.variants.is_empty(), "{}", meta.id);
            meta.default_params().check(meta.params).expect("defaults are in range");
            for spec in meta.params {
                assert!(!spec.description.is_empty(), "{}.{}", meta.id, spec.name);
            }
        }
    }
}
