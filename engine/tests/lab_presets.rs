//! The Lab's presets: each one runs on the kernel it names, has a key moment to step
//! to, and shows what its explanation says it shows.

use slowpath_engine::cases::the_lab::presets::{Preset, PRESETS};
use slowpath_engine::cases::the_lab::TEXT_BYTES_MAX;
use slowpath_engine::run::params::ParamValues;
use slowpath_engine::run::trace::{Metric, Run};
use slowpath_engine::{run_checked, simulation};

const MS: u64 = 1_000_000;

fn run(preset: &Preset, variant: &str) -> Run {
    let case = simulation("the-lab").expect("the Lab is built");
    let params = ParamValues::from_pairs_exact(case.meta().params, [("workload", preset.text)])
        .unwrap_or_else(|error| panic!("{}: {error}", preset.id));
    run_checked(case, &params, variant, 1)
        .unwrap_or_else(|error| panic!("{} on {variant}: {error}", preset.id))
}

fn preset(id: &str) -> &'static Preset {
    PRESETS.iter().find(|preset| preset.id == id).unwrap_or_else(|| panic!("no preset `{id}`"))
}

/// A task's figure (a count or nanoseconds).
fn task_figure(run: &Run, task: &str, key: &str) -> u64 {
    let Some(Metric::Object(tasks)) = run.metrics.get("tasks") else { panic!("no tasks") };
    let Some(Metric::Object(figures)) = tasks.get(task) else { panic!("no task {task}") };
    match figures.get(key) {
        Some(Metric::Ns(value) | Metric::Count(value) | Metric::None(Some(value))) => *value,
        other => panic!("{task}.{key} is not a figure: {other:?}"),
    }
}

fn figure(run: &Run, key: &str) -> Option<u64> {
    match run.metrics.get(key) {
        Some(Metric::Ns(value) | Metric::Count(value) | Metric::None(Some(value))) => Some(*value),
        _ => None,
    }
}

#[test]
fn every_preset_runs_as_written_and_has_a_key_moment() {
    assert!(PRESETS.len() >= 8, "the page offers at least eight");
    for (index, preset) in PRESETS.iter().enumerate() {
        assert!(PRESETS[..index].iter().all(|earlier| earlier.id != preset.id), "`{}` twice", preset.id);
        assert!(preset.text.len() <= TEXT_BYTES_MAX, "{}", preset.id);
        assert!(preset.question.ends_with('?'), "{}: a question", preset.id);
        let run = run(preset, "as-written");
        // `n` visits the chapters, then the notable events: a run with neither has
        // nothing for a lecture to step to.
        assert!(
            run.chapters.len() >= 2 || !run.notable_ops().is_empty(),
            "{}: nothing to step to",
            preset.id
        );
    }
}

#[test]
fn the_editor_earns_a_better_priority_than_the_hogs() {
    let run = run(preset("editor-and-hogs"), "as-written");
    assert!(task_figure(&run, "editor", "prio") < task_figure(&run, "hog1", "prio"));
}

#[test]
fn a_hog_that_sleeps_a_little_is_judged_interactive() {
    let run = run(preset("interactivity-fooled"), "as-written");
    assert!(task_figure(&run, "sneaky", "prio") < task_figure(&run, "hog", "prio"));
    assert!(task_figure(&run, "sneaky", "user_ns") > task_figure(&run, "hog", "user_ns"));
}

#[test]
fn the_high_priority_task_waits_while_the_medium_one_runs() {
    let run = run(preset("priority-inversion"), "as-written");
    assert!(task_figure(&run, "high", "lock_wait_ns") >= 100 * MS);
    assert!(task_figure(&run, "medium", "user_ns") > task_figure(&run, "low", "sys_ns"));
}

#[test]
fn the_textbook_jobs_give_the_hand_computed_averages_under_each_policy() {
    // A 300, B 200, C 100 ms, all at 0. FIFO: ends 300, 500, 600; SJF and STCF: 100,
    // 300, 600; responses FIFO 0, 300, 500 and SJF 0, 100, 300.
    let preset = preset("textbook-three-jobs");
    let averages = |variant: &str| {
        let run = run(preset, variant);
        (figure(&run, "turnaround_avg_ns").unwrap(), figure(&run, "response_avg_ns").unwrap())
    };
    assert_eq!(averages("as-written"), (1400 * MS / 3, 800 * MS / 3));
    assert_eq!(averages("sjf"), (1000 * MS / 3, 400 * MS / 3));
    assert_eq!(averages("stcf"), (1000 * MS / 3, 400 * MS / 3));
    // Round robin at 10 ms: C ends after 3 × 100 ms of turns, B after C's end plus
    // 2 × 100 ms, A last; the responses are 0, 10 and 20 ms.
    assert_eq!(averages("rr"), ((300 + 500 + 600) * MS / 3, 30 * MS / 3));
}

#[test]
fn a_read_of_a_full_pipe_wakes_the_writer_even_when_it_frees_no_slot() {
    let run = run(preset("pipe-wakeups"), "as-written");
    let Some(Metric::Object(pipes)) = run.metrics.get("pipes") else { panic!("no pipes") };
    let Some(Metric::Object(pipe)) = pipes.get("P") else { panic!("no pipe P") };
    let count = |key: &str| match pipe.get(key) {
        Some(Metric::Count(value)) => *value,
        other => panic!("{key}: {other:?}"),
    };
    // Each of the writer's waits on the full pipe ends with the read that empties a page;
    // the reads of that page before it (a quarter page each) woke it for nothing: up to
    // three a wait, fewer where the reader catches up.
    let (waits, spurious) = (count("write_waits"), count("spurious_wakeups"));
    assert!(waits > 0, "the pipe fills");
    assert!((2 * waits..=3 * waits).contains(&spurious), "{spurious} wakeups for nothing, {waits} waits");
    assert_eq!(count("received_bytes"), 12 * 4096);
}

#[test]
fn a_returning_sleepers_lag_is_v_less_its_vruntime_as_written() {
    // The lag is 4/3 ms and 2/3 ms here: V written to the lag's own digits, so that the
    // reader's subtraction gives the lag the sentence names (31.3 − 30 would not).
    let run = run(preset("eevdf-returning-sleeper"), "as-written");
    let text = run.trace_lines(100_000).collect::<Vec<_>>().join("\n");
    for sentence in [
        "keeps its lag for its wakeup: 1.33 ms (V 31.33 ms less its vruntime 30 ms)",
        "keeps its lag for its wakeup: 666.7 µs (V 55.6667 ms less its vruntime 55 ms)",
        "wakes with the lag it kept, 1.33 ms: place_entity puts its vruntime at 50 ms, so that V, now 51.33 ms,",
    ] {
        assert!(text.contains(sentence), "{sentence}\n{text}");
    }
}

#[test]
fn a_lag_beyond_update_entity_lags_limit_is_said_to_be_clamped() {
    // `high` (nice −20) leaves with more lag than its limit, which its weight shrinks in
    // virtual time: the sentence says it keeps the limit, not V less its vruntime.
    let run = run(preset("priority-inversion"), "eevdf");
    let text = run.trace_lines(100_000).collect::<Vec<_>>().join("\n");
    let clamped = "high leaves the run queue eligible, V 1.2632688 s less its vruntime 1.2632111 s, more lag than \
                   update_entity_lag lets a task keep (two slices or a tick, whichever is longer, in its virtual \
                   time): it keeps 46.1 µs for its wakeup.";
    assert!(text.contains(clamped), "{text}");
}
