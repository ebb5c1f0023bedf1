//! Every case's "Today" check opens: its results file gives a median and a
//! provenance, and its model run exists and carries the metric it names.

use slowpath_engine::run::params::ParamValues;
use slowpath_engine::{run_checked, simulations};

#[test]
fn every_today_check_has_a_measurement_a_provenance_and_a_model_run() {
    let mut checked = 0;
    for case in simulations() {
        let meta = case.meta();
        let Some(check) = meta.today else { continue };
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
        let run = run_checked(case, &params, check.variant, 1).expect("runs");
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

#[test]
fn the_sparse_plot_gets_the_measured_dumps_at_each_size() {
    let path = format!("{}/../tools/measure/sparse-dump/results.tsv", env!("CARGO_MANIFEST_DIR"));
    let results = std::fs::read_to_string(&path).expect("the results file");
    let points = slowpath_engine::cases::sparse_dump::measured_dump_points(&results);
    let sizes: Vec<u64> = points.iter().map(|&(bytes, _)| bytes >> 30).collect();
    assert_eq!(sizes, [1, 4, 16, 64, 256, 1024], "the sizes the seed's program was dumped at");
    // About 112 ns a page on this machine: 1 TiB is 268,435,456 pages, about 30 s.
    let (_, tib_ns) = points[5];
    assert!((29_000_000_000..31_000_000_000).contains(&tib_ns), "{tib_ns}");
}
