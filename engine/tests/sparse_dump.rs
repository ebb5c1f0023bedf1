//! The figures of seed 001, asserted from the engine's own output.

mod common;

use slowpath_engine::run::params::ParamValues;
use slowpath_engine::run::trace::{Granularity, Metric};
use slowpath_engine::{run_checked, simulation, Run};

fn run(variant: &str, sets: &[(&str, &str)]) -> Run {
    let case = simulation("sparse-dump").expect("registered");
    let params = ParamValues::from_pairs_exact(case.meta().params, sets.iter().copied()).expect("valid");
    run_checked(case, &params, variant, 1).expect("runs")
}

fn count(run: &Run, key: &str) -> u64 {
    match run.metrics.get(key) {
        Some(Metric::Count(value) | Metric::Ns(value)) => *value,
        other => panic!("{key}: {other:?}"),
    }
}

fn latency(run: &Run) -> Option<u64> {
    match run.metrics.get("sigkill_latency_ns") {
        Some(Metric::None(value)) => *value,
        other => panic!("sigkill_latency_ns: {other:?}"),
    }
}

const SECOND: u64 = 1_000_000_000;

#[test]
fn v6_13_walks_every_page_for_30_seconds_and_ignores_sigkill() {
    let run = run("v6.13", &[]);
    assert_eq!(count(&run, "iterations"), 268_435_456);
    assert_eq!(count(&run, "pages_skipped"), 268_435_455);
    assert_eq!(count(&run, "pages_emitted"), 1);
    assert_eq!(count(&run, "lock_acquisitions"), 268_435_456);
    let dump = count(&run, "dump_ns");
    assert!((27 * SECOND..=33 * SECOND).contains(&dump), "30 s ± 10 %: {dump}");
    // SIGKILL at 1 s is honoured only when the whole dump is over.
    assert_eq!(latency(&run), Some(dump - SECOND));
}

#[test]
fn the_cost_split_follows_the_profile_of_seed_001() {
    let run = run("v6.13", &[("sigkill_at", "0")]);
    let Some(Metric::Object(costs)) = run.metrics.get("cost_by_function_ns") else { panic!("costs") };
    let ns = |key: &str| match costs.get(key) {
        Some(Metric::Ns(value)) => *value as f64,
        _ => 0.0,
    };
    let total: f64 = costs.values().map(|m| if let Metric::Ns(v) = m { *v as f64 } else { 0.0 }).sum();
    let share = |value: f64| value / total * 100.0;
    assert!((37.0..=45.0).contains(&share(ns("mt_find"))), "mt_find {}", share(ns("mt_find")));
    let lock = share(ns("down_read_killable") + ns("up_read"));
    assert!((25.0..=33.0).contains(&lock), "lock + unlock {lock}");
    assert!((2.0..=5.0).contains(&share(ns("check_vma_flags"))));
}

#[test]
fn the_interruptible_patch_ends_the_dump_within_one_iteration() {
    let run = run("interruptible", &[]);
    let latency = latency(&run).expect("a SIGKILL was sent");
    // The page in progress when the signal lands finishes, then one more page sees it.
    assert!(latency < 2 * 112 + 112, "{latency} ns");
    assert!(count(&run, "dump_ns") < SECOND + 1_000);
}

#[test]
fn v6_15_saves_roughly_the_lock_share_and_still_visits_every_page() {
    let before = run("v6.13", &[("sigkill_at", "0")]);
    let after = run("v6.15", &[("sigkill_at", "0")]);
    assert_eq!(count(&after, "iterations"), 268_435_456);
    let saved = 1.0 - count(&after, "dump_ns") as f64 / count(&before, "dump_ns") as f64;
    assert!((0.25..=0.33).contains(&saved), "saved {saved}");
    assert!(count(&after, "lock_acquisitions") <= 2, "the lock is held across pages");
}

#[test]
fn the_tree_walk_costs_what_is_populated_not_what_is_mapped() {
    let small = count(&run("tree-walk", &[("size", "4GiB")]), "dump_ns");
    let huge = count(&run("tree-walk", &[("size", "64TiB")]), "dump_ns");
    let largest = run("v6.13", &[("size", "128TiB"), ("sigkill_at", "0")]);
    assert_eq!(count(&largest, "iterations"), 128 << 28, "128 TiB of 4 KiB pages");
    let busy = count(&run("tree-walk", &[("touched", "5000"), ("touch_pattern", "spread")]), "dump_ns");
    assert!(huge < small * 11 / 10, "size barely matters: {small} vs {huge}");
    assert!(busy > small * 10, "populated pages do: {small} vs {busy}");
    let more_vmas = count(&run("tree-walk", &[("vmas", "2000")]), "dump_ns");
    assert!(more_vmas > small, "VMAs do: {small} vs {more_vmas}");
}

#[test]
fn an_untouched_mapping_is_not_walked_at_all() {
    let run = run("v6.13", &[("touched", "0")]);
    assert_eq!(count(&run, "iterations"), 0);
    assert_eq!(count(&run, "lock_acquisitions"), 0);
}

#[test]
fn any_iteration_of_the_big_mapping_expands_on_demand() {
    let run = run("v6.13", &[]);
    let iteration = 200_000_000;
    let (first, end) = run.unit_ops(Granularity::Iteration, iteration).expect("exists");
    let ops: Vec<String> = (first..end)
        .map(|index| slowpath_engine::run::narration::plain(&run.narrate(&run.op(index).expect("op"))))
        .collect();
    assert!(ops.iter().any(|text| text.contains("find_vma(0x")), "{ops:?}");
    assert!(ops.iter().any(|text| text.contains("Maple node")), "{ops:?}");
    let label = |i| slowpath_engine::run::narration::plain(&run.iteration_label(i));
    let address = |text: String| u64::from_str_radix(text.trim_start_matches("page 0x"), 16).expect("hex");
    assert_eq!(address(label(iteration + 1)) - address(label(iteration)), 4096);
    let view = run.view(end);
    let iterations = view.counters.iter().find(|(name, _)| name == "iterations").expect("counter").1;
    assert!(iterations > 199_000_000 && iterations <= 200_000_001);
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

        /// Any valid parameters run without panicking, and seeking agrees with stepping.
        #[test]
        fn any_parameters_run_and_seek_equals_stepping(
            size_shift in 12u32..47,
            touched in 0u64..60,
            pattern in prop::sample::select(vec!["first", "spread", "random"]),
            page in prop::sample::select(vec!["4KiB", "16KiB", "64KiB"]),
            vmas in 23u64..200,
            sigkill_ms in prop::option::of(0u64..40_000),
            pipe in any::<bool>(),
            thp in any::<bool>(),
            variant in prop::sample::select(vec!["v6.13", "interruptible", "v6.15", "tree-walk"]),
            seed in any::<u64>(),
        ) {
            let size = format!("{}", 1u64 << size_shift);
            let touched = touched.to_string();
            let vmas = vmas.to_string();
            let sigkill = format!("{}ms", sigkill_ms.unwrap_or(0));
            let target = if pipe { "pipe" } else { "file" };
            let sets = [
                ("size", size.as_str()),
                ("touched", touched.as_str()),
                ("touch_pattern", pattern),
                ("page_size", page),
                ("vmas", vmas.as_str()),
                ("sigkill_at", sigkill.as_str()),
                ("target", target),
                ("thp", if thp { "always" } else { "never" }),
            ];
            let case = simulation("sparse-dump").unwrap();
            let params = ParamValues::from_pairs_exact(case.meta().params, sets.iter().copied()).unwrap();
            let run = run_checked(case, &params, variant, seed).unwrap();
            prop_assert!(run.total_ops() > 0);
            prop_assert_eq!(count(&run, "iterations") >= count(&run, "pages_emitted"), true);
            // Sample positions across the whole run: seek, then step a few ops, compare with a seek.
            common::assert_seek_agrees_with_stepping(&run);
        }
    }
}

/// The plain narration of every op of `iteration`.
fn iteration_texts(run: &Run, iteration: u64) -> Vec<String> {
    let (first, end) = run.unit_ops(Granularity::Iteration, iteration).expect("exists");
    (first..end)
        .map(|index| slowpath_engine::run::narration::plain(&run.narrate(&run.op(index).expect("op"))))
        .collect()
}

/// The iteration of the big mapping whose page is `addr` (labels are 4 KiB apart there).
fn iteration_at(run: &Run, addr: u64) -> u64 {
    let anchor = 200_000_000;
    let label = slowpath_engine::run::narration::plain(&run.iteration_label(anchor));
    let base = u64::from_str_radix(label.trim_start_matches("page 0x"), 16).expect("hex");
    (anchor as i64 + (addr as i64 - base as i64) / 4096) as u64
}

#[test]
fn page_table_depth_follows_the_whole_address_space() {
    // pgd entry 255 (0x7f80_0000_0000 up) holds libc, ld.so and the stack: a page of
    // the big mapping there finds the pgd entry and stops at an empty pud.
    let run = run("v6.13", &[("sigkill_at", "0")]);
    let texts = iteration_texts(&run, iteration_at(&run, 0x7f90_0000_0000));
    assert!(
        texts.iter().any(|t| t.contains("the pud entry is empty") && t.contains("2 levels")),
        "{texts:?}"
    );
    // pgd entry 254 is empty: the walk stops at the top there.
    let texts = iteration_texts(&run, iteration_at(&run, 0x7f10_0000_0000));
    assert!(
        texts.iter().any(|t| t.contains("the pgd/p4d entry is empty") && t.contains("1 level")),
        "{texts:?}"
    );
    // 511 pud entries × 262,144 pages one level deeper, 3 ns each: +0.40 s; with
    // __get_user_pages' base re-fitted to the profile at 1.5 levels a page (18 ns,
    // was 20), the no-SIGKILL dump is 29.93 s (was 30.07 s).
    let dump = count(&run, "dump_ns");
    assert!((29_900_000_000..30_000_000_000).contains(&dump), "{dump}");
    // The tree walk scans every entry of every level the big hole passes: hundreds, not 2.
    let walk = run_texts_containing(&run_tree_walk(), "268,435,455 pages");
    assert!(walk.iter().any(|t| t.contains("by scanning 1,534 table entries")), "{walk:?}");
}

fn run_tree_walk() -> Run {
    run("tree-walk", &[("sigkill_at", "0")])
}

fn run_texts_containing(run: &Run, needle: &str) -> Vec<String> {
    let total = run.total_ops();
    (0..total.min(10_000))
        .chain(total.saturating_sub(10_000).max(10_000)..total)
        .map(|index| slowpath_engine::run::narration::plain(&run.narrate(&run.op(index).expect("op"))))
        .filter(|text| text.contains(needle))
        .collect()
}

/// What the highlighted pseudocode line must name for each narration template
/// (matched by words of the kernel detail that follows the template's plain lead).
const LINE_NAMES: &[(&str, &str)] = &[
    ("dump_vma_snapshot takes", "mmap_write_lock_killable"),
    ("dump_vma_snapshot drops", "mmap_write_unlock"),
    ("v6.13 sorts the VMAs", "sort"),
    ("get_dump_page calls __get_user_pages_locked", "mmap_read_lock_killable"),
    ("v6.15 takes", "mmap_read_lock_killable"),
    ("find_vma(", "find_vma"),
    ("Maple node", "pivot"),
    ("check_vma_flags", "check_vma_flags"),
    ("__get_user_pages sees the pending SIGKILL", "fatal_signal_pending"),
    ("Page-table walk for {0}: {1} levels, and the pte maps", "return the page"),
    ("__get_user_pages_locked releases", "mmap_read_unlock"),
    ("v6.15 drops {0} before writing", "mmap_read_unlock"),
    ("v6.15 drops {0} at the end", "mmap_read_unlock"),
    ("NULL means a hole", "dump_skip"),
    ("dump_emit_page checks", "dump_emit_page"),
    ("dump_interrupted() is true", "dump_interrupted"),
    ("The next dump_emit writes out to_skip: __dump_skip", "vfs_llseek"),
    ("The next dump_emit writes out to_skip; a pipe", "zeroes"),
    ("The next dump_emit writes out to_skip as zero", "zeroes"),
    ("{0} skipped {0?page is|pages are} still in to_skip", "dump_interrupted"),
    ("SIGKILL is sent", "SIGKILL"),
    ("v6.13: the pending SIGKILL changes nothing", "dump_skip"),
    ("Hypothetical tree walk: takes {0}", "find_vma"),
    ("Hypothetical tree walk: one walk of the page tables", "skip"),
    ("Hypothetical tree walk: takes a reference", "mmap_read_unlock"),
    ("Hypothetical tree walk: retakes", "mmap_read_lock_killable"),
    ("Hypothetical tree walk: the range is done", "mmap_read_unlock"),
    ("The dump is over", "dump_user_range"),
    ("The process now dies", "dump_user_range"),
    ("No SIGKILL was sent", "dump_user_range"),
    ("No VMA here: this is the gate VMA", "in_gate_area"),
    ("Page-table walk for {0}: {1} levels, and the pmd maps", "pmd"),
];

/// Every op's highlighted line names what the op's narration names.
fn assert_lines_match(run: &Run, label: &str, ops: impl Iterator<Item = u64>) -> usize {
    let mut checked = 0;
    for index in ops {
        let op = run.op(index).expect("op");
        let template = run.templates[usize::from(op.template)];
        let line = run.code[usize::from(op.code.function)].lines[usize::from(op.code.line)];
        if template.contains("Page-table walk for {0}: the {1} entry is empty") {
            // The level the walk stops at, as the pseudocode names it (pgd/p4d: pgd).
            let Some(slowpath_engine::run::narration::Arg::Word(level)) = op.args.get(1) else {
                panic!("level")
            };
            let level = level.split('/').next().expect("a name");
            assert!(
                line.contains(&format!("{level}_none")) || line.contains(&format!("{level}_present")),
                "{label}: {level} on {line:?}"
            );
        } else {
            let (_, name) = LINE_NAMES
                .iter()
                .find(|(start, _)| template.contains(start))
                .unwrap_or_else(|| panic!("{label}: no expected line for {template:?}"));
            assert!(
                line.contains(name),
                "{label}: {template:?} highlights {line:?}, which does not name {name}"
            );
        }
        checked += 1;
    }
    checked
}

#[test]
fn every_op_highlights_the_line_it_names() {
    let mut kinds = std::collections::BTreeSet::new();
    for variant in ["v6.13", "interruptible", "v6.15", "tree-walk"] {
        for (page, target, sigkill) in [
            ("4KiB", "file", "300us"),
            ("4KiB", "pipe", "0"),
            ("64KiB", "pipe", "1ms"),
            ("16KiB", "file", "0"),
            ("4KiB", "pipe", "1ms"),
        ] {
            let sets = [
                ("size", "64MiB"),
                ("touched", "5"),
                ("touch_pattern", "spread"),
                ("page_size", page),
                ("target", target),
                ("sigkill_at", sigkill),
            ];
            let run = run(variant, &sets);
            let label = format!("{variant} {sets:?}");
            assert_lines_match(&run, &label, 0..run.total_ops());
            for index in 0..run.total_ops() {
                kinds.insert((variant, run.op(index).expect("op").kind.key()));
            }
        }
    }
    // 5-level paging (above 128 TiB): every stored op, sampled pages of the repeats.
    let run = run("v6.13", &[("size", "100TiB"), ("sigkill_at", "0")]);
    let step = run.total_ops() / 5_000;
    assert!(assert_lines_match(&run, "5-level", (0..run.total_ops()).step_by(step as usize)) > 1_000);
    // Every op kind of every variant was seen.
    for variant in ["v6.13", "interruptible", "v6.15"] {
        for kind in ["lock.fast", "lock.release", "tree.visit", "page.walk", "emit", "skip", "signal"] {
            assert!(kinds.contains(&(variant, kind)), "{variant} {kind}");
        }
    }
}

#[test]
fn the_acquisition_count_is_exact_inside_repeats() {
    let run = run("v6.13", &[]);
    for iteration in [150_000_000u64, 150_000_001, 200_000_000] {
        let (first, end) = run.unit_ops(Granularity::Iteration, iteration).expect("exists");
        let lock_text = (first..end)
            .map(|index| slowpath_engine::run::narration::plain(&run.narrate(&run.op(index).expect("op"))))
            .find(|text| text.contains("acquisitions so far"))
            .expect("the lock op");
        // The narration's count is the counter's value once the op has run.
        let lock_op = (first..end)
            .find(|&index| run.templates[usize::from(run.op(index).expect("op").template)].contains("so far"))
            .expect("lock op");
        let view = run.view(lock_op + 1);
        let counted = view.counters.iter().find(|(name, _)| name == "lock_acquisitions").expect("counter").1;
        let shown = slowpath_engine::run::narration::group_digits(counted);
        assert!(lock_text.contains(&format!("{shown} acquisitions so far")), "{lock_text} vs {shown}");
        assert!(counted > 100_000_000, "{counted}");
    }
}

#[test]
fn a_killed_run_says_it_was_killed_and_when() {
    for variant in ["v6.13", "interruptible", "v6.15"] {
        let run = run(variant, &[]);
        let dump = count(&run, "dump_ns");
        assert_eq!(
            run.outcome,
            slowpath_engine::Outcome::Killed { signal: "SIGKILL", sent_at_ns: SECOND, at_ns: dump },
            "{variant}"
        );
        let json = serde_json::to_value(&run.outcome).expect("serialises");
        assert_eq!(json["outcome"], "killed");
        assert_eq!(json["sent_at_ns"], SECOND);
    }
    assert_eq!(run("v6.13", &[("sigkill_at", "0")]).outcome, slowpath_engine::Outcome::Completed);
    // The tree walk ends before the SIGKILL at 1 s: it completes.
    assert_eq!(run("tree-walk", &[]).outcome, slowpath_engine::Outcome::Completed);
}

#[test]
fn after_a_sigkill_no_hole_is_written() {
    // v6.13: the holes wait in to_skip; the final dump_emit's __dump_skip sees the signal.
    for target in ["file", "pipe"] {
        let run = run("v6.13", &[("target", target)]);
        let texts = run_texts_containing(&run, "to_skip");
        assert!(
            texts.iter().any(|t| t.contains("no lseek and no zero page is written")),
            "{target}: {texts:?}"
        );
        let Some(Metric::Object(costs)) = run.metrics.get("cost_by_function_ns") else { panic!("costs") };
        let holes = match costs.get("holes (lseek or zero pages)") {
            Some(Metric::Ns(ns)) => *ns,
            _ => 0,
        };
        // Only the small VMAs' holes before the signal (a few lseeks or zero pages), none after.
        assert!(holes < 100_000, "{target}: {holes} ns of holes");
        // The pipe no longer writes 268 million zero pages after the signal.
        assert!(count(&run, "dump_ns") < 31 * SECOND, "{target}");
    }
    // A SIGKILL during a pipe's zero pages stops them at the next page.
    let run = run(
        "v6.13",
        &[("target", "pipe"), ("touched", "2"), ("touch_pattern", "spread"), ("sigkill_at", "20s")],
    );
    let texts = run_texts_containing(&run, "of 134,217,727 pages");
    assert!(texts.iter().any(|t| t.contains("stops the writes after")), "{texts:?}");
    assert!(latency(&run).expect("sent") <= 500, "{:?}", latency(&run));
}

#[test]
fn the_tree_walk_never_writes_under_mmap_lock() {
    let run = run("tree-walk", &[("touched", "40"), ("touch_pattern", "spread"), ("sigkill_at", "0")]);
    let mut emits = 0;
    for index in 0..run.total_ops() {
        let op = run.op(index).expect("op");
        if op.kind == slowpath_engine::run::trace::OpKind::Emit {
            let locks = run.view(index).locks;
            assert!(locks.iter().all(|lock| lock.holders.is_empty()), "op {index} writes under a lock");
            emits += 1;
        }
    }
    assert!(emits >= 40, "{emits}");
    // One acquisition to start, then one per written page (the lock is retaken after each).
    assert_eq!(count(&run, "lock_acquisitions"), 1 + 40);
}

/// mt_find's time is mostly its fixed MA_STATE set-up (the seed's profile note),
/// so a deeper tree adds only its node visits and pivots: 2,000 VMAs (height 4)
/// cost about a fifth more per page, not the +45 % of a model that put mt_find's
/// time on its node visits.
#[test]
fn a_deeper_maple_tree_adds_node_visits_not_the_set_up() {
    let base = count(&run("v6.13", &[("sigkill_at", "0")]), "dump_ns");
    let more = run("v6.13", &[("sigkill_at", "0"), ("vmas", "2000")]);
    assert_eq!(count(&more, "maple_height"), 4);
    let ratio = count(&more, "dump_ns") as f64 / base as f64;
    assert!((1.10..1.30).contains(&ratio), "2,000 VMAs: × {ratio}");
    let texts = iteration_texts(&more, 200_000_000);
    assert!(texts.iter().any(|t| t.contains("48-byte MA_STATE")), "{texts:?}");
}

#[test]
fn vvar_and_the_gate_vma_are_dumped_whole_as_holes() {
    use slowpath_engine::cases::sparse_dump::AddressSpace;
    let run = run("v6.13", &[("sigkill_at", "0")]);
    let space = run.extras::<AddressSpace>().expect("extras");
    let vvar = space.vmas.iter().find(|vma| vma.name == "[vvar]").expect("[vvar]");
    assert_eq!(vvar.dump_bytes, vvar.end - vvar.start, "always_dump_vma: whole");
    let gate = space.vmas.iter().find(|vma| vma.name == "[vsyscall]").expect("the gate VMA");
    assert_eq!((gate.start, gate.dump_bytes), (0xffff_ffff_ff60_0000, 4096));
    let texts = run_texts_containing(&run, "");
    assert_eq!(texts.iter().filter(|t| t.contains("check_vma_flags: [vvar] is VM_IO")).count(), 4);
    assert_eq!(texts.iter().filter(|t| t.contains("No VMA here: this is the gate VMA")).count(), 1);
    // The gate VMA is not one of the process's mappings: `vmas` still counts 28.
    assert_eq!(space.vmas.len(), 29);
}

/// vm.max_map_count's default, 65,530 mappings: the tree is built as the kernel
/// would (5 levels), the worst setting stays within the work budget, and the
/// trace stops at the storage budget while the figures cover the whole dump.
#[test]
fn the_full_map_count_builds_a_deep_tree_within_the_budget() {
    use slowpath_engine::run::budget::{SIMULATED_STEPS_MAX, STORED_BLOCKS_MAX, STORED_OPS_MAX};
    let sets = [
        ("vmas", "65530"),
        ("touched", "10000"),
        ("touch_pattern", "spread"),
        ("size", "128TiB"),
        ("sigkill_at", "0"),
    ];
    for variant in ["v6.13", "v6.15", "tree-walk"] {
        let run = run(variant, &sets);
        let height = count(&run, "maple_height");
        assert!((5..=6).contains(&height), "{variant}: height {height}");
        let (ops, blocks, _) = run.stored();
        assert!(
            ops <= STORED_OPS_MAX + 256 && blocks <= STORED_BLOCKS_MAX + 256,
            "{variant}: {ops} ops, {blocks} blocks"
        );
        assert!(run.simulated_steps <= SIMULATED_STEPS_MAX, "{variant}");
        assert!(
            matches!(run.outcome, slowpath_engine::Outcome::StepLimit { .. }),
            "{variant}: {:?}",
            run.outcome
        );
        let Some(Metric::Object(all)) = run.metrics.get("all_vmas") else { panic!("all_vmas") };
        let Some(Metric::Count(skipped)) = all.get("pages_skipped") else { panic!("skipped") };
        assert!(
            *skipped >= (128u64 << 28) - 10_000,
            "{variant}: the figures cover the whole 128 TiB: {skipped}"
        );
    }
    let run = run("v6.13", &[("vmas", "65530"), ("sigkill_at", "0")]);
    let space = run.extras::<slowpath_engine::cases::sparse_dump::AddressSpace>().expect("extras");
    assert_eq!(space.vmas.len(), 65_530 + 1, "every mapping, and the gate VMA");
}

/// THP "always": the 1 TiB mapping is aligned to 2 MiB and the one write maps a
/// 2 MiB huge page, so 512 pages are written, each found at the pmd.
#[test]
fn with_thp_always_one_write_dumps_a_whole_huge_page() {
    let run = run("v6.13", &[("thp", "always"), ("sigkill_at", "0")]);
    assert_eq!(count(&run, "pages_emitted"), 512);
    assert_eq!(count(&run, "iterations"), 268_435_456);
    let space = run.extras::<slowpath_engine::cases::sparse_dump::AddressSpace>().expect("extras");
    let big = space.vmas.iter().find(|vma| vma.big).expect("big");
    assert_eq!(big.start % (2 << 20), 0, "aligned to a PMD");
    let texts = run_texts_containing(&run, "transparent huge page");
    assert!(!texts.is_empty());
    assert_eq!(count(&self::run("v6.13", &[("sigkill_at", "0")]), "pages_emitted"), 1, "never: one page");
}

/// Every function's share of the simulated 1 TiB dump is within 0.8 points of
/// Guzik's profile (the constants are fitted to it at the corrected depth).
#[test]
fn every_cost_share_is_within_a_point_of_the_profile() {
    let run = run("v6.13", &[("sigkill_at", "0")]);
    let profile = run.extras::<slowpath_engine::cases::sparse_dump::AddressSpace>().expect("extras").profile;
    let Some(Metric::Object(costs)) = run.metrics.get("cost_by_function_ns") else { panic!("costs") };
    let ns = |m: &Metric| if let Metric::Ns(v) = m { *v as f64 } else { 0.0 };
    let total: f64 = costs.values().map(ns).sum();
    for (name, share) in profile {
        let simulated = costs.get(*name).map(ns).unwrap_or(0.0) / total * 100.0;
        assert!((simulated - share).abs() <= 0.8, "{name}: {simulated:.2} % against {share} %");
    }
}
