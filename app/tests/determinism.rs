//! The engine compiled to wasm32 produces the same trace hash as natively.
//! Run by `cargo xtask test` through wasm-bindgen-test-runner under node.
#![cfg(target_arch = "wasm32")]

include!("../../engine/tests/golden.rs");

use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen_test]
fn the_playground_default_hash_matches_native() {
    let case = slowpath_engine::simulation("rwsem-playground").expect("registered");
    let run = slowpath_engine::run_checked(case, &case.meta().default_params(), "v6.13", 1).expect("runs");
    assert_eq!(format!("{:016x}", run.trace_hash), PLAYGROUND_DEFAULT_HASH);
}

#[wasm_bindgen_test]
fn the_fifo_default_hash_matches_native() {
    let case = slowpath_engine::simulation("fifo-trigger").expect("registered");
    let run = slowpath_engine::run_checked(case, &case.meta().default_params(), "2.6.1", 1).expect("runs");
    assert_eq!(format!("{:016x}", run.trace_hash), FIFO_DEFAULT_HASH);
}

#[wasm_bindgen_test]
fn the_gvisor_default_hash_matches_native() {
    let case = slowpath_engine::simulation("gvisor-threadgroups").expect("registered");
    let run = slowpath_engine::run_checked(case, &case.meta().default_params(), "before", 1).expect("runs");
    assert_eq!(format!("{:016x}", run.trace_hash), GVISOR_DEFAULT_HASH);
}

#[wasm_bindgen_test]
fn the_coredump_threads_default_hash_matches_native() {
    let case = slowpath_engine::simulation("coredump-threads").expect("registered");
    let run =
        slowpath_engine::run_checked(case, &case.meta().default_params(), "2.6.14-rc2", 1).expect("runs");
    assert_eq!(format!("{:016x}", run.trace_hash), COREDUMP_THREADS_DEFAULT_HASH);
}
