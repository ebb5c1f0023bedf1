//! Same case + parameters + seed ⇒ the same trace hash, run after run, and
//! the recorded hash that the wasm build must reproduce too.

mod common;

use slowpath_engine::{registry, run_checked};

#[test]
fn every_case_is_deterministic_and_seed_sensitive() {
    for case in registry() {
        let meta = case.meta();
        let params = meta.default_params();
        for variant in meta.variants {
            let a = run_checked(*case, &params, variant.id, 7).expect("runs");
            let b = run_checked(*case, &params, variant.id, 7).expect("runs");
            assert_eq!(a.trace_hash, b.trace_hash, "{} {}", meta.id, variant.id);
            assert_eq!(a.counts, b.counts);
        }
    }
}

#[test]
fn the_playground_default_hash_is_the_recorded_one() {
    let case = slowpath_engine::find("rwsem-playground").expect("registered");
    let run = run_checked(case, &case.meta().default_params(), "v6.13", 1).expect("runs");
    assert_eq!(format!("{:016x}", run.trace_hash), common::PLAYGROUND_DEFAULT_HASH);
}

#[test]
fn the_fifo_default_hash_is_the_recorded_one() {
    let case = slowpath_engine::find("fifo-trigger").expect("registered");
    let run = run_checked(case, &case.meta().default_params(), "2.6.1", 1).expect("runs");
    assert_eq!(format!("{:016x}", run.trace_hash), common::FIFO_DEFAULT_HASH);
}

#[test]
fn the_gvisor_default_hash_is_the_recorded_one() {
    let case = slowpath_engine::find("gvisor-threadgroups").expect("registered");
    let run = run_checked(case, &case.meta().default_params(), "before", 1).expect("runs");
    assert_eq!(format!("{:016x}", run.trace_hash), common::GVISOR_DEFAULT_HASH);
}

#[test]
fn the_coredump_threads_default_hash_is_the_recorded_one() {
    let case = slowpath_engine::find("coredump-threads").expect("registered");
    let run = run_checked(case, &case.meta().default_params(), "2.6.14-rc2", 1).expect("runs");
    assert_eq!(format!("{:016x}", run.trace_hash), common::COREDUMP_THREADS_DEFAULT_HASH);
}
