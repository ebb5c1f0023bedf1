//! `slowpath-cli lab FILE`: a workload file run as `run the-lab` runs it, its
//! errors one prefixed line each.

use std::process::{Command, Output};

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_slowpath-cli")).args(args).output().expect("the CLI starts")
}

/// A file of the test's own in the target directory, removed with the test's process.
fn workload_file(name: &str, text: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join(format!("{}-{name}.lab", std::process::id()));
    std::fs::write(&path, text).expect("writes the workload");
    path.display().to_string()
}

fn json(output: &Output) -> serde_json::Value {
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("JSON")
}

const SJF: &str = "kernel sjf\njob A at=0 length=30ms\njob B at=10ms length=5ms\n";

#[test]
fn a_workload_file_runs_as_the_case_runs_it() {
    let path = workload_file("sjf", SJF);
    let from_file = json(&cli(&["lab", &path, "--json"]));
    let from_set = json(&cli(&["run", "the-lab", "--set", &format!("workload={SJF}"), "--json"]));
    assert_eq!(from_file["case"], "the-lab");
    assert_eq!(from_file["variant"], "as-written");
    assert_eq!(from_file["trace_hash"], from_set["trace_hash"]);
    // SJF: A 0–30, then B 30–35: B's turnaround is 35 − 10 = 25 ms.
    assert_eq!(from_file["metrics"]["tasks"]["B"]["turnaround_ns"], 25_000_000);
    // STCF preempts A at 10 for B: B's turnaround is 5 ms.
    let stcf = json(&cli(&["lab", &path, "--kernel", "stcf", "--json"]));
    assert_eq!(stcf["variant"], "stcf");
    assert_eq!(stcf["metrics"]["tasks"]["B"]["turnaround_ns"], 5_000_000);
    let trace = cli(&["lab", &path, "--trace"]);
    let text = String::from_utf8(trace.stdout).expect("UTF-8");
    assert!(text.contains("shortest job first takes the smallest job"), "{text}");
}

#[test]
fn a_workload_with_errors_lists_each_on_its_own_prefixed_line() {
    let path = workload_file("errors", "mutex M\ntask t\n  lock M2\n  run 5\n  \u{1b}[2Jbogus\n");
    // Parse errors come first; the checks (an undeclared resource) once the text parses.
    let checked = workload_file("checked", "mutex M\ntask t\n  lock M2\n  unlock M\n");
    let output = cli(&["lab", &path]);
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8(output.stderr).expect("UTF-8");
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(lines.len() >= 3, "{stderr}");
    for line in &lines {
        assert!(line.starts_with("slowpath-cli: "), "{line:?}");
        assert!(!line.chars().any(char::is_control), "{line:?}");
    }
    assert!(stderr.starts_with("slowpath-cli: parameter `workload`: 2 errors, one a line:\n"), "{stderr}");
    assert!(stderr.contains("slowpath-cli: line 4, column 7: duration:"), "{stderr}");
    assert!(
        stderr.contains("slowpath-cli: line 5, column 3: unknown operation `\\u{1b}[2Jbogus`"),
        "{stderr}"
    );
    let stderr = String::from_utf8(cli(&["lab", &checked]).stderr).expect("UTF-8");
    assert!(stderr.contains("line 3, column 8: unknown resource `M2`; declared: M"), "{stderr}");
    assert!(stderr.contains("line 4, column 10: `M` is not held here"), "{stderr}");
}

#[test]
fn a_missing_or_oversized_file_is_one_line() {
    let output = cli(&["lab", "/nonexistent/workload.lab"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).expect("UTF-8");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("cannot read"), "{stderr}");
    let big = workload_file("big", &format!("job A length=1ms\n#{}\n", "x".repeat(5000)));
    let stderr = String::from_utf8(cli(&["lab", &big]).stderr).expect("UTF-8");
    assert!(stderr.contains("longer than the Lab reads (4096 bytes)"), "{stderr}");
    let stderr = String::from_utf8(cli(&["lab", &big, "--kernel", "o1"]).stderr).expect("UTF-8");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let stderr = String::from_utf8(cli(&["lab"]).stderr).expect("UTF-8");
    assert!(stderr.contains("lab needs a workload file"), "{stderr}");
}
