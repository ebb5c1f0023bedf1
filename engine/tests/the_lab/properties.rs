//! Property tests: random workloads from the grammar and random bytes.

use super::*;

/// A random workload from the grammar: balanced lock use most of the time, so that
/// most of them run, and every operation the language has.
fn workload() -> impl Strategy<Value = String> {
    let kernel = prop::sample::select(vec![
        "fifo",
        "sjf",
        "stcf",
        "rr",
        "rr quantum=1ms",
        "rr quantum=3ms",
        "o1",
        "o1 hz=100",
        "eevdf",
        "eevdf hz=1000",
        "goodness",
        "goodness hz=1000",
    ]);
    let kinds = prop::collection::vec(prop::sample::select(vec!["mutex", "spinlock", "rwsem", "pipe"]), 0..4);
    let op = (0u8..12, 0usize..4, 1u64..20);
    let body = prop::collection::vec(op, 1..8);
    let tasks = prop::collection::vec((body, 1u64..4, 0u64..20, any::<bool>()), 1..5);
    (kernel, 1u64..5, kinds, tasks, 5u64..200).prop_map(|(kernel, cpus, kinds, tasks, until)| {
        let mut text = format!("kernel {kernel}\ncpus {cpus}\nuntil {until}ms\n");
        if until % 4 == 0 {
            // Lock operations that take time: a burst after each acquisition.
            text += &format!("lockcost fast={until}ns slow={}us\n", until / 4);
        }
        for (index, kind) in kinds.iter().enumerate() {
            let capacity = if *kind == "pipe" { format!(" {}KiB", index * 3 + 1) } else { String::new() };
            text += &format!("{kind} L{index}{capacity}\n");
        }
        for (number, (body, copies, at, job)) in tasks.iter().enumerate() {
            if *job {
                let io = if at % 3 == 0 {
                    format!(" io_every={}ms io_for={}ms", copies + 1, at % 5 + 1)
                } else {
                    String::new()
                };
                text += &format!("job J{number} at={at}ms length={}ms{io}\n", copies * 7);
                continue;
            }
            text += &format!("task T{number} x {copies} at={at}ms\n");
            for &(choice, lock, ms) in body {
                text += &statement(choice, lock, ms, &kinds);
            }
        }
        text
    })
}

fn statement(choice: u8, lock: usize, ms: u64, kinds: &[&str]) -> String {
    // A declared lock, mostly; with none declared, lock statements name `L0`, an error to report.
    let lock = if kinds.is_empty() || choice == 9 { lock } else { lock % kinds.len() };
    let (take, give) = lock_ops(kinds.get(lock).copied(), ms);
    match choice {
        0 => format!("  run {ms}ms\n"),
        1 => format!("  sys {ms}00us\n"),
        2 => format!("  sleep {ms}ms\n"),
        3 => "  yield\n".to_string(),
        4 => format!("  repeat {ms} {{\n    run 1ms\n    sleep 1ms\n  }}\n"),
        5 => format!(
            "  forever {{\n    run {ms}ms\n    {take} L{lock}\n    sys 1ms\n    {give} L{lock}\n  }}\n"
        ),
        6 => format!("  {take} L{lock}\n  {give} L{lock}\n"),
        // Unbalanced, or undeclared (choice 9): an error to report, never a panic.
        7 | 9 if ms % 4 == 0 => format!("  {give} L{lock}\n"),
        // Two locks in either order: a deadlock when two tasks disagree.
        10 => {
            let other = (lock + 1) % kinds.len().max(1);
            let (take2, give2) = lock_ops(kinds.get(other).copied(), ms);
            format!(
                "  {take} L{lock}\n  run {ms}ms\n  {take2} L{other}\n  {give2} L{other}\n  {give} L{lock}\n"
            )
        }
        _ => format!("  {take} L{lock}\n  sys {ms}ms\n  {give} L{lock}\n"),
    }
}

fn lock_ops(kind: Option<&str>, ms: u64) -> (&'static str, &'static str) {
    match kind {
        Some("mutex") => ("lock", "unlock"),
        Some("spinlock") => ("spin", "unspin"),
        Some("pipe") if ms % 2 == 0 => ("send", "recv"),
        Some("pipe") => ("recv", "send"),
        Some(_) if ms % 2 == 0 => ("read", "release"),
        Some(_) => ("write", "release"),
        None => ("lock", "unlock"),
    }
}

fn check_messages(error: &RunError) {
    let message = error.to_string();
    assert!(message.lines().count() <= 2 + slowpath_engine::cases::the_lab::lang::ERRORS_MAX, "{message}");
    for line in message.lines() {
        assert!(
            !line.chars().any(|c| c.is_control() || slowpath_engine::run::params::is_invisible_format(c)),
            "{line:?}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn random_workloads_run_or_say_why_within_the_budget(text in workload()) {
        for variant in ["as-written", "fifo", "stcf", "o1", "eevdf", "goodness"] {
            match try_run(&text, variant) {
                Ok(run) => {
                    let (ops, blocks, _) = run.stored();
                    prop_assert!(ops <= slowpath_engine::run::budget::STORED_OPS_MAX + 256);
                    prop_assert!(blocks <= slowpath_engine::run::budget::STORED_BLOCKS_MAX + 1);
                    // At every key moment the picture is what the words say.
                    let case = simulation("the-lab").expect("the Lab is built");
                    let (disagreements, uncovered) = run.stage_disagreements(case.stage_claims());
                    prop_assert!(disagreements.is_empty(), "{:?}", disagreements.first().map(|d| (d.says, &d.shows)));
                    prop_assert!(uncovered.is_empty(), "templates with no claim: {uncovered:?}");
                    let stopped_storing = matches!(run.outcome, Outcome::StepLimit { .. });
                    prop_assert!(!stopped_storing, "the Lab stops simulating, never only storing");
                }
                Err(error) => check_messages(&error),
            }
        }
    }

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        let text = String::from_utf8_lossy(&bytes);
        if let Err(error) = try_run(&text, "as-written") {
            check_messages(&error);
        }
    }

    #[test]
    fn random_lines_of_words_never_panic(
        lines in prop::collection::vec(
            prop::collection::vec(prop::sample::select(vec![
                "task", "job", "mutex", "rwsem", "spinlock", "kernel", "rr", "cpus", "2", "x", "3", "run", "5ms",
                "lock", "unlock", "M", "{", "}", "repeat", "forever", "sleep", "at=1ms", "length=2ms", "until",
                "read", "write", "release", "spin", "unspin", "yield", "exit", "quantum=1ms", "#", "T",
                "pipe", "send", "recv", "P", "4KiB", "eevdf", "goodness", "o1", "hz=1000", "io_every=1ms",
                "io_for=2ms", "lockcost", "fast=1ns", "slow=2us",
            ]), 0..6),
            0..20,
        )
    ) {
        let text: String = lines.iter().map(|words| words.join(" ") + "\n").collect();
        if let Err(error) = try_run(&text, "as-written") {
            check_messages(&error);
        }
    }
}
