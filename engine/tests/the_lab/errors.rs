//! Errors a person can act on: where, what, and what was expected.

use super::*;

#[test]
fn an_undeclared_resource_is_named_with_its_place_and_what_is_declared() {
    let message = errors("mutex M\nrwsem R\ntask t\n  lock M2\n");
    assert!(message.contains("line 4, column 8: unknown resource `M2`; declared: M, R"), "{message}");
}

#[test]
fn several_errors_are_listed_at_once_and_capped() {
    let message = errors("cpus 9\ntask t\n  run 5\n  unlock M\n  frobnicate\n");
    assert!(message.contains("line 1, column 6: CPUs:"), "{message}");
    assert!(message.contains("line 3, column 7: duration:") && message.contains("no unit"), "{message}");
    assert!(message.contains("line 5, column 3: unknown operation `frobnicate`"), "{message}");
    let many: String = (0..20).map(|i| format!("bogus{i}\n")).collect();
    let message = errors(&many);
    assert_eq!(message.lines().count(), 10, "a count, 8 errors and a line counting the rest:\n{message}");
    assert!(message.contains("and 12 more"), "{message}");
}

#[test]
fn what_is_wrong_before_running_is_said_before_running() {
    let unlock = errors("mutex M\ntask t\n  run 1ms\n  unlock M\n");
    assert!(unlock.contains("line 4, column 10: `M` is not held here"), "{unlock}");
    let sleeps = errors("spinlock S\ntask t\n  spin S\n  sleep 1ms\n  unspin S\n");
    assert!(sleeps.contains("line 4, column 3: `sleep` while holding spinlock `S`"), "{sleeps}");
    let kind = errors("rwsem R\ntask t\n  lock R\n  unlock R\n");
    assert!(kind.contains("`R` is a rwsem: use read, write and release"), "{kind}");
    let spins = errors("task t\n  forever {\n    yield\n  }\n");
    assert!(spins.contains("line 2, column 3: this `forever` takes no time"), "{spins}");
    let held = errors("mutex M\ntask t\n  lock M\n  run 1ms\n");
    assert!(held.contains("`t` ends holding `M`"), "{held}");
}

#[test]
fn the_bounds_are_stated_and_kept() {
    let big = format!("job A length=1ms\n#{}\n", "x".repeat(4200));
    let meta = simulation("the-lab").expect("the Lab is built").meta();
    let refused =
        ParamValues::from_pairs_exact(meta.params, [("workload", big.as_str())]).expect_err("too long");
    assert!(refused.message.contains("more than 4096"), "{}", refused.message);
    let parsed = slowpath_engine::cases::the_lab::lang::load(&big).expect_err("too long for the parser too");
    assert!(parsed[0].message.contains("at most 4096 are read"), "{:?}", parsed);
    let crowd = errors("task t x 40\n  run 1ms\ntask u x 40\n  run 1ms\n");
    assert!(crowd.contains("80 tasks so far; at most 64"), "{crowd}");
    let cpus = errors("cpus 5\njob A length=1ms\n");
    assert!(cpus.contains("1 to 4"), "{cpus}");
}

#[test]
fn hostile_text_is_quoted_safely() {
    let message = errors("mutex M\ntask t\n  lock \u{202e}M\u{1b}[2J\n");
    assert!(!message.chars().any(|c| c == '\u{202e}' || c == '\u{1b}'), "{message:?}");
    assert!(message.contains("\\u{202e}"), "{message}");
}
