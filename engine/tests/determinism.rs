//! Same case + parameters + seed ⇒ the same trace hash, run after run, and
//! the recorded hash that the wasm build must reproduce too.

use slowpath_engine::{run_checked, simulations};

/// The variants whose default run draws from the seed (arrivals, cache draws, the
/// spinners' phases): another seed must give another trace.
const DRAWN_FROM_THE_SEED: &[(&str, &str)] = &[
    ("rwsem-playground", "v6.13"),
    ("rwsem-playground", "no-spin"),
    ("rwsem-playground", "no-handoff"),
    ("gvisor-threadgroups", "before"),
    ("coredump-threads", "today"),
];

#[test]
fn every_case_is_deterministic_and_seed_sensitive() {
    let mut sensitive = Vec::new();
    for case in simulations() {
        let meta = case.meta();
        let params = meta.default_params();
        for variant in meta.variants {
            let a = run_checked(case, &params, variant.id, 7).expect("runs");
            let b = run_checked(case, &params, variant.id, 7).expect("runs");
            assert_eq!(a.trace_hash, b.trace_hash, "{} {}", meta.id, variant.id);
            assert_eq!(a.counts, b.counts);
            let other = run_checked(case, &params, variant.id, 8).expect("runs");
            assert_eq!((a.seed, other.seed), (7, 8), "{} {}: a run records its seed", meta.id, variant.id);
            if other.trace_hash != a.trace_hash {
                sensitive.push((meta.id, variant.id));
            }
        }
    }
    for drawn in DRAWN_FROM_THE_SEED {
        assert!(sensitive.contains(drawn), "{drawn:?}: another seed gives the same trace");
    }
    // A setting that draws only when asked: the sparse dump's random touch pattern.
    let sparse = slowpath_engine::simulation("sparse-dump").expect("registered");
    let random =
        slowpath_engine::ParamValues::from_pairs_exact(sparse.meta().params, [("touch_pattern", "random")])
            .expect("valid");
    let hash = |seed| run_checked(sparse, &random, "v6.13", seed).expect("runs").trace_hash;
    assert_eq!(hash(7), hash(7));
    assert_ne!(hash(7), hash(8), "the random pattern follows the seed");
}

/// Every registered case records its default run's hash beside it (`CaseMeta::golden`),
/// and the run reproduces it; the wasm build checks the same list (`app/tests/determinism.rs`).
#[test]
fn every_case_reproduces_its_recorded_hash() {
    for case in simulations() {
        let meta = case.meta();
        let golden = meta.golden.unwrap_or_else(|| panic!("{}: no recorded hash", meta.id));
        let run = run_checked(case, &meta.default_params(), golden.variant, golden.seed).expect("runs");
        assert_eq!(format!("{:016x}", run.trace_hash), golden.trace_hash, "{} {}", meta.id, golden.variant);
    }
}

/// Every reported case ships its key moments (chapters), in order, inside the run,
/// at least two in its default run: a lecture's table of contents.
#[test]
fn every_reported_case_has_chapters_in_order() {
    for case in slowpath_engine::simulations() {
        let meta = case.meta();
        if meta.reported.is_empty() {
            continue;
        }
        let run = run_checked(case, &meta.default_params(), meta.default_variant().id, 1).expect("runs");
        assert!(run.chapters.len() >= 2, "{}: {:?}", meta.id, run.chapters);
        for pair in run.chapters.windows(2) {
            assert!(pair[0].position < pair[1].position, "{}: {:?}", meta.id, run.chapters);
        }
        assert!(run.chapters.iter().all(|c| c.position <= run.total_ops() && !c.title.is_empty()));
        // `n` from the start visits every chapter in order, stopping at the notable
        // events between them too; `p` walks the same stops back.
        let mut stops = Vec::new();
        let mut position = 0;
        while let Some(next) = run.next_key_moment(position) {
            assert!(next > position, "{}: n moves forward", meta.id);
            stops.push(next);
            position = next;
            assert!(stops.len() <= run.notable_ops().len() + run.chapters.len(), "{}: n ends", meta.id);
        }
        for chapter in &run.chapters {
            assert!(stops.contains(&chapter.position), "{}: n stops at {}", meta.id, chapter.title);
        }
        let mut back = Vec::new();
        while let Some(previous) = run.previous_key_moment(position) {
            back.push(position);
            position = previous;
        }
        back.push(position);
        back.reverse();
        assert_eq!(back, stops, "{}: p retraces n", meta.id);
    }
}
