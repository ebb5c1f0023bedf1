//! The engine compiled to wasm32 produces the same trace hash as natively: every
//! registered case's recorded hash (`CaseMeta::golden`, beside the case), the
//! Lab's among them.
//! Run by `cargo xtask test` through wasm-bindgen-test-runner under node.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen_test]
fn every_case_reproduces_its_recorded_hash_in_wasm() {
    // The app's default features carry the Lab: a run of a workload is a run like a case's.
    assert!(slowpath_engine::simulations().any(|case| case.meta().id == "the-lab"), "the Lab is covered");
    for case in slowpath_engine::simulations() {
        let meta = case.meta();
        let golden = meta.golden.expect("every registered case records a hash");
        let run = slowpath_engine::run_checked(case, &meta.default_params(), golden.variant, golden.seed)
            .expect("runs");
        assert_eq!(format!("{:016x}", run.trace_hash), golden.trace_hash, "{} {}", meta.id, golden.variant);
    }
}
