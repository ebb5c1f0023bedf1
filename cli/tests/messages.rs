//! What the CLI says: each mistake once and plainly, the units a duration or size
//! takes, the run's outcome in words, and a trace that stops before it fills a disk.

use std::process::{Command, Output};

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_slowpath-cli")).args(args).output().expect("the CLI starts")
}

fn error(args: &[&str]) -> String {
    let output = cli(args);
    assert_eq!(output.status.code(), Some(2), "{args:?}");
    String::from_utf8(output.stderr).expect("UTF-8")
}

fn stdout(args: &[&str]) -> String {
    let output = cli(args);
    assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).expect("UTF-8")
}

#[test]
fn a_bare_duration_is_refused_with_the_units() {
    let line = error(&["run", "coredump-threads", "--set", "signal_at=5"]);
    assert!(line.contains("no unit") && line.contains("ns, us or µs, ms, s"), "{line}");
    let line = error(&["run", "sparse-dump", "--set", "size=lots"]);
    assert!(line.contains("B, KiB, MiB, GiB, TiB"), "{line}");
    // Zero is zero in every unit.
    assert!(stdout(&["run", "fifo-trigger", "--set", "writer_start=0", "--set", "duration=1s"])
        .contains("fifo-trigger"));
}

#[test]
fn the_valid_set_is_stated_once() {
    for args in [
        ["run", "coredump-threads", "--set", "signal=FOO"],
        ["run", "coredump-threads", "--set", "dumpable=maybe"],
        ["run", "coredump-threads", "--set", "hz=7"],
    ] {
        let line = error(&args);
        let set = if line.contains("SIGQUIT") {
            "SIGQUIT"
        } else if line.contains("on or off") {
            "on or off"
        } else {
            "1000"
        };
        assert_eq!(line.matches(set).count(), 1, "{line}");
        assert_eq!(line.matches("expected").count(), 1, "{line}");
    }
}

#[test]
fn a_repeated_flag_is_an_error() {
    assert!(
        error(&["run", "rwsem-playground", "--seed", "1", "--seed", "2"]).contains("--seed is given twice")
    );
    assert!(error(&["run", "rwsem-playground", "--variant", "v6.13", "--variant", "no-spin"])
        .contains("--variant is given twice"));
    assert!(error(&["run", "rwsem-playground", "--set", "readers=2", "--set", "readers=3"])
        .contains("--set `readers` is given twice"));
}

#[test]
fn variants_take_the_same_case_rules_as_choices() {
    let upper = stdout(&["run", "rwsem-playground", "--variant", "NO-SPIN"]);
    let lower = stdout(&["run", "rwsem-playground", "--variant", "no-spin"]);
    assert_eq!(upper, lower);
    assert!(lower.starts_with("rwsem-playground (no-spin)"), "{lower}");
}

#[test]
fn the_summary_says_how_the_run_ended_in_words() {
    let summary = stdout(&["run", "rwsem-playground"]);
    assert!(summary.contains("the run reached its simulated-time limit"), "{summary}");
    assert!(!summary.contains("TimeLimit") && !summary.contains("outcome "), "no Debug output: {summary}");
}

#[test]
fn which_argument_is_not_utf8_is_named() {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let bad = std::ffi::OsStr::from_bytes(b"ab\xff");
        let output = Command::new(env!("CARGO_BIN_EXE_slowpath-cli"))
            .arg("run")
            .arg(bad)
            .output()
            .expect("the CLI starts");
        let line = String::from_utf8(output.stderr).expect("UTF-8");
        assert!(line.contains("argument 2 is not valid UTF-8"), "{line}");
    }
}

#[test]
fn the_trace_is_capped_and_says_where_it_stopped() {
    let trace = stdout(&["run", "fifo-trigger", "--trace"]);
    let lines: Vec<&str> = trace.lines().collect();
    assert_eq!(lines.len(), 100_001, "the cap and one closing line");
    let last = lines.last().copied().unwrap_or_default();
    assert!(last.contains("stopped after micro-op 100,000 of") && last.contains("--trace-all"), "{last}");
    assert!(error(&["run", "fifo-trigger", "--trace-all"]).contains("give --trace too"));
}
