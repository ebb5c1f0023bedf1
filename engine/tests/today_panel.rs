//! Every case's "Today" check opens: its results file gives a median and a
//! provenance, and its model run exists and carries the metric it names.

use slowpath_engine::case::{registry, run_checked};
use slowpath_engine::run::params::ParamValues;

#[test]
fn every_today_check_has_a_measurement_a_provenance_and_a_model_run() {
    let mut checked = 0;
    for case in registry() {
        let Some(check) = case.today() else { continue };
        let meta = case.meta();
        let path = format!("{}/../{}", env!("CARGO_MANIFEST_DIR"), check.results_path);
        let results = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{path}: {error}"));
        let (measured_ns, rows) =
            check.measured_ns(&results).unwrap_or_else(|| panic!("{}: no measured rows", meta.id));
        assert!(rows >= 3 && measured_ns > 0, "{}: {rows} rows, {measured_ns} ns", meta.id);
        let provenance = slowpath_engine::run::measured::TodayCheck::provenance(&results);
        assert!(provenance.kernel.contains("6."), "{}: kernel {:?}", meta.id, provenance.kernel);
        assert!(!provenance.date.is_empty() && !provenance.machine.is_empty(), "{}: {provenance:?}", meta.id);
        assert!(meta.variant(check.variant).is_some(), "{}: variant {}", meta.id, check.variant);
        let params = ParamValues::from_pairs_exact(meta.params, check.params.iter().copied()).expect("valid");
        let run = run_checked(*case, &params, check.variant, 1).expect("runs");
        // The panel sets the two side by side: they must measure the same thing. The
        // case's own today tests hold the tolerances; this catches a run that measures
        // something else (a SIGKILL that ends the dump early, another N).
        let Some(slowpath_engine::run::trace::Metric::Ns(model_ns)) = run.metrics.get(check.metric) else {
            panic!("{}: metric {} is not a duration", meta.id, check.metric)
        };
        let ratio = *model_ns as f64 / measured_ns as f64;
        assert!(
            (0.2..=5.0).contains(&ratio),
            "{}: model {model_ns} ns against measured {measured_ns} ns",
            meta.id
        );
        checked += 1;
    }
    assert!(checked >= 2, "sparse-dump and coredump-threads have a today check");
}
