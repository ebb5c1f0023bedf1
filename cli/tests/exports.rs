//! `run … --perfetto FILE --csv FILE --svg FILE` writes the engine's exports: the
//! same bytes as the engine's writers, the case's plot tables beside the CSV, and an
//! unwritable path is one error line.

use slowpath_engine::export::{chart, csv, perfetto, svg};
use slowpath_engine::{run_checked, simulation};
use std::process::Command;

#[test]
fn run_writes_the_perfetto_csv_and_svg_files() {
    let dir = std::env::temp_dir().join(format!("slowpath-cli-exports-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let path = |name: &str| dir.join(name).to_str().expect("UTF-8 path").to_string();
    let output = Command::new(env!("CARGO_BIN_EXE_slowpath-cli"))
        .args(["run", "fifo-trigger", "--set", "duration=3s", "--perfetto", &path("t.json")])
        .args(["--csv", &path("t.csv"), "--svg", &path("t.svg")])
        .output()
        .expect("the CLI starts");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let case = simulation("fifo-trigger").expect("registered");
    let params = slowpath_engine::ParamValues::from_pairs_exact(case.meta().params, [("duration", "3s")])
        .expect("valid");
    let run = run_checked(case, &params, case.meta().default_variant().id, 1).expect("runs");
    let read = |name: &str| std::fs::read_to_string(path(name)).expect(name);
    assert_eq!(read("t.json"), perfetto::perfetto_json(case.meta(), &run));
    let trace: serde_json::Value = serde_json::from_str(&read("t.json")).expect("JSON");
    assert!(trace["traceEvents"].as_array().is_some_and(|events| events.len() > 10));
    assert_eq!(read("t.csv"), csv::metrics_csv(case.meta(), &run));
    assert_eq!(read("t.svg"), svg::timeline_svg(&run, None));
    for chart in case.charts(&run) {
        assert_eq!(read(&format!("t-{}.svg", chart.name)), chart::chart_svg(&chart), "{}", chart.name);
    }
    for table in case.csv_tables(&run) {
        assert_eq!(read(&format!("t-{}.csv", table.name)), table.to_csv(), "{}", table.name);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unwritable_export_path_is_one_error_line() {
    let output = Command::new(env!("CARGO_BIN_EXE_slowpath-cli"))
        .args(["run", "sparse-dump", "--perfetto", "/nonexistent/t.json"])
        .output()
        .expect("the CLI starts");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).expect("UTF-8");
    assert!(stderr.starts_with("slowpath-cli: cannot write `/nonexistent/t.json`"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1);
}
