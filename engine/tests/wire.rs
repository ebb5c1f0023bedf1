//! A run survives the trip through bytes (`run::wire`), as the app's Web Worker
//! sends it to the page: same views, figures, extras and chapters, and the same
//! bytes again when re-encoded. Damaged bytes give an error, never a panic.

use slowpath_engine::case::{run_checked, Case};
use slowpath_engine::registry::{simulation, simulations};
use slowpath_engine::run::params::ParamValues;
use slowpath_engine::run::rng::counter_hash;
use slowpath_engine::run::trace::Run;
use slowpath_engine::run::wire::{decode, encode};

fn positions(run: &Run) -> Vec<u64> {
    let total = run.total_ops();
    let mut positions: Vec<u64> = (0..=8).map(|k| total * k / 8).collect();
    positions.extend(run.notable_ops().iter().take(20).map(|&op| op + 1));
    positions.extend(run.chapters.iter().map(|chapter| chapter.position));
    positions
}

fn assert_round_trip(run: &Run) {
    let case = simulation(run.case).expect("registered");
    let bytes = encode(case, run);
    let back = decode(case, &bytes).unwrap_or_else(|error| panic!("{}: {error}", run.case));
    assert_eq!(encode(case, &back), bytes, "{}: re-encoding gives the same bytes", run.case);
    assert_eq!((back.case, back.variant, back.seed), (run.case, run.variant, run.seed));
    assert_eq!(back.params, run.params);
    assert_eq!(back.metrics, run.metrics, "{}: metrics keep their types", run.case);
    assert_eq!((back.trace_hash, back.end_ns, back.counts), (run.trace_hash, run.end_ns, run.counts));
    assert_eq!(back.outcome, run.outcome);
    assert_eq!(back.chapters, run.chapters);
    for position in positions(run) {
        assert_eq!(back.view(position), run.view(position), "{} at {position}", run.case);
    }
}

#[test]
fn every_case_default_run_round_trips() {
    for case in simulations() {
        let meta = case.meta();
        for variant in meta.variants {
            let run = run_checked(case, &meta.default_params(), variant.id, 1).expect("defaults run");
            assert_round_trip(&run);
        }
    }
}

#[test]
fn random_settings_round_trip() {
    for case in simulations() {
        let meta = case.meta();
        for sample in 0..3u64 {
            let mut counter = 0u64;
            let params = ParamValues::drawn(meta.params, |n| {
                counter += 1;
                counter_hash(sample * 7 + 11, counter) % n.max(1)
            });
            let variant = &meta.variants[(sample as usize) % meta.variants.len()];
            let Ok(run) = run_checked(case, &params, variant.id, sample + 2) else { continue };
            assert_round_trip(&run);
        }
    }
}

#[test]
fn damaged_bytes_give_an_error_not_a_panic() {
    let case = simulations().next().expect("a case");
    let run = run_checked(case, &case.meta().default_params(), case.meta().default_variant().id, 1).unwrap();
    let bytes = encode(case, &run);
    assert!(decode(case, &[]).is_err(), "no header");
    assert!(decode(case, &bytes[1..]).is_err(), "a table before the header");
    let header = &bytes[0];
    assert!(decode(case, &[header[..header.len() / 2].to_vec()]).is_err(), "a cut message is refused");
    let other: &'static dyn Case = simulations().nth(1).expect("two cases");
    assert!(decode(other, &bytes).is_err(), "a run read as another case's is refused");
    for k in 0..200u64 {
        let mut damaged = bytes.clone();
        let part = (counter_hash(5, k) % damaged.len() as u64) as usize;
        let at = (counter_hash(3, k) % damaged[part].len() as u64) as usize;
        damaged[part][at] ^= 1 << (k % 8);
        // Either refused or decoded into a run whose indices were checked: never a panic.
        let _ = decode(case, &damaged);
    }
}

#[test]
fn a_summary_carries_the_figures_and_a_request_its_inputs() {
    use slowpath_engine::run::wire::{decode_summary, encode_summary, Detail, Request};
    for case in simulations() {
        let meta = case.meta();
        let run =
            run_checked(case, &meta.default_params(), meta.default_variant().id, 1).expect("defaults run");
        let summary = decode_summary(case, &encode_summary(case, &run)).expect("decodes");
        assert_eq!((summary.case, summary.variant), (run.case, run.variant));
        assert_eq!(
            (&summary.metrics, &summary.outcome, summary.end_ns),
            (&run.metrics, &run.outcome, run.end_ns)
        );
        let request = Request::new(7, meta.id, run.variant, 3, &run.params, Detail::Summary);
        let back = Request::from_bytes(&request.to_bytes()).expect("decodes");
        assert_eq!((back.id, back.case.as_str(), back.seed, back.detail), (7, meta.id, 3, Detail::Summary));
        assert_eq!(back.params(), run.params, "parameters keep their types");
    }
    assert!(decode_summary(simulations().next().expect("a case"), b"\x00garbage").is_err());
    assert!(Request::from_bytes(b"\xff").is_err());
}
