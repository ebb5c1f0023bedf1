//! Data-driven snapshots of short playground traces, one file per variant.
//! Update after an intended change with `UPDATE_EXPECT=1 cargo test`.

use slowpath_engine::run::params::ParamValues;
use slowpath_engine::{run_checked, simulation};

fn trace(variant: &str, sets: &[(&str, &str)]) -> String {
    let case = simulation("rwsem-playground").expect("registered");
    let params = ParamValues::from_pairs_exact(case.meta().params, sets.iter().copied()).expect("valid");
    let run = run_checked(case, &params, variant, 3).expect("runs");
    let mut text: String = run.trace_lines(u64::MAX).map(|line| line.trim_end().to_string() + "\n").collect();
    text.push_str(&format!("outcome: {:?}\n", run.outcome));
    text
}

const SMALL: &[(&str, &str)] = &[
    ("readers", "3"),
    ("writers", "1"),
    ("cpus", "2"),
    ("duration", "3ms"),
    ("write_think", "300us"),
    ("timeslice", "200us"),
];

#[test]
fn v6_13() {
    expect_test::expect_file!["snapshots/rwsem-v6.13.txt"].assert_eq(&trace("v6.13", SMALL));
}

#[test]
fn no_spin() {
    expect_test::expect_file!["snapshots/rwsem-no-spin.txt"].assert_eq(&trace("no-spin", SMALL));
}

#[test]
fn no_handoff_under_cpu_pressure() {
    let sets =
        &[("readers", "6"), ("writers", "1"), ("cpus", "2"), ("duration", "12ms"), ("read_think", "50us")];
    expect_test::expect_file!["snapshots/rwsem-no-handoff.txt"].assert_eq(&trace("no-handoff", sets));
}
