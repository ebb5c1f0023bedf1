//! Every registered case's default run, exported as Trace Event JSON, follows the
//! format's rules and carries exactly the run's own per-task time accounting.

use serde_json::Value;
use slowpath_engine::export::perfetto::{
    perfetto_json, perfetto_json_within, Extent, BUCKET_KEYS, EFFECTS_MAX,
};
use slowpath_engine::run::world::TaskId;
use slowpath_engine::Run;
use slowpath_engine::{run_checked, simulations};
use std::collections::BTreeMap;

/// A timestamp in µs (written as an exact decimal) back to integer ns.
fn ns(value: &Value) -> u64 {
    let us = value.as_f64().expect("a number");
    assert!(us >= 0.0);
    (us * 1000.0).round() as u64
}

#[test]
fn every_default_run_exports_well_formed_trace_events_with_exact_task_time() {
    for case in simulations() {
        let meta = case.meta();
        let run = run_checked(case, &meta.default_params(), meta.default_variant().id, 1).expect("runs");
        let text = perfetto_json(meta, &run);
        assert_eq!(text, perfetto_json(meta, &run), "{}: the export is deterministic", meta.id);
        let counts = check(&run, &text, Extent::of(&run, EFFECTS_MAX));
        assert!(!Extent::of(&run, EFFECTS_MAX).cut, "{}: a default run fits in one file", meta.id);
        println!("{}: {} bytes, {counts}", meta.id, text.len());
    }
}

#[test]
fn a_file_cut_at_its_stored_ops_bound_accounts_exactly_up_to_its_end() {
    let mut cut = 0;
    for case in simulations() {
        let meta = case.meta();
        let run = run_checked(case, &meta.default_params(), meta.default_variant().id, 1).expect("runs");
        let extent = Extent::of(&run, 300);
        cut += usize::from(extent.cut);
        let text = perfetto_json_within(meta, &run, 300);
        check(&run, &text, extent);
        if extent.cut {
            let file: Value = serde_json::from_str(&text).expect("JSON");
            assert_eq!(file["otherData"]["covers_ns"], extent.end_ns.to_string());
            assert!(file["otherData"]["note"].as_str().is_some_and(|note| note.contains("stops at")));
        }
    }
    assert!(cut >= 2, "the bound cuts some default runs at 300 effects");
}

#[test]
fn random_settings_export_without_panicking_and_account_exactly() {
    use slowpath_engine::export::{chart, csv, svg};
    use slowpath_engine::run::params::ParamValues;
    use slowpath_engine::run::rng::Rng;
    for case in simulations() {
        let meta = case.meta();
        for draws in [17u64, 9_000_001] {
            let mut rng = Rng::new(draws);
            let params = ParamValues::drawn(meta.params, |bound| rng.below(bound));
            let variant = meta.variants[rng.below(meta.variants.len() as u64) as usize].id;
            let run = run_checked(case, &params, variant, draws).expect("drawn settings are valid");
            let text = perfetto_json(meta, &run);
            check(&run, &text, Extent::of(&run, EFFECTS_MAX));
            assert!(!csv::metrics_csv(meta, &run).is_empty());
            assert!(svg::timeline_svg(&run, None).ends_with("</svg>\n"));
            for drawn in case.charts(&run) {
                assert!(chart::chart_svg(&drawn).ends_with("</svg>\n"));
            }
        }
    }
}

/// Checks one file against the Trace Event rules and the run's accounting up to
/// `extent`; returns the event counts in words.
fn check(run: &Run, text: &str, extent: Extent) -> String {
    let meta = slowpath_engine::simulation(run.case).expect("registered").meta();
    let file: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{}: not JSON: {e}", meta.id));
    let events = file["traceEvents"].as_array().expect("traceEvents");
    let mut thread_names: BTreeMap<(u64, u64), String> = BTreeMap::new();
    let mut process_names = 0;
    // Per (pid, tid): complete events as (start, end) in ns.
    let mut slices: BTreeMap<(u64, u64), Vec<(u64, u64)>> = BTreeMap::new();
    let mut task_buckets = vec![[0u64; 5]; run.layout.tasks.len()];
    for event in events {
        let phase = event["ph"].as_str().expect("every event has a phase");
        let pid = event["pid"].as_u64().expect("pid");
        let tid = event["tid"].as_u64().expect("tid");
        assert!(event["name"].is_string(), "{}: {event}", meta.id);
        match phase {
            "M" => match event["name"].as_str() {
                Some("thread_name") => {
                    let name = event["args"]["name"].as_str().expect("a thread's name").to_string();
                    assert!(thread_names.insert((pid, tid), name).is_none(), "one name per thread");
                }
                Some("process_name") => process_names += 1,
                _ => {}
            },
            "X" => {
                let start = ns(&event["ts"]);
                let end = start + ns(&event["dur"]);
                assert!(end <= extent.end_ns, "{}: {event} ends after the file's extent", meta.id);
                slices.entry((pid, tid)).or_default().push((start, end));
                if pid == 1 {
                    let task = (tid - 1) as usize;
                    let mut charged = 0;
                    for (bucket, key) in BUCKET_KEYS.iter().enumerate() {
                        if let Some(value) = event["args"][key].as_u64() {
                            task_buckets[task][bucket] += value;
                            charged += value;
                        }
                    }
                    assert_eq!(
                        charged,
                        end - start,
                        "{}: a slice's args account for its length: {event}",
                        meta.id
                    );
                }
            }
            "i" => {
                assert!(matches!(event["s"].as_str(), Some("g" | "t" | "p")), "{event}");
                assert!(ns(&event["ts"]) <= extent.end_ns);
            }
            "C" => {
                assert!(event["args"].as_object().is_some_and(|args| args.values().all(Value::is_number)));
            }
            other => panic!("{}: unexpected phase {other}", meta.id),
        }
    }
    assert_eq!(process_names, 2, "{}: the machine and its locks are named", meta.id);
    for (index, task) in run.layout.tasks.iter().enumerate() {
        assert_eq!(thread_names.get(&(1, index as u64 + 1)), Some(&task.name), "{}: tid metadata", meta.id);
    }
    for ((pid, tid), spans) in &mut slices {
        assert!(thread_names.contains_key(&(*pid, *tid)), "{}: slices on an unnamed thread", meta.id);
        // Trace Event Format: complete events on one thread nest properly or follow one another.
        spans.sort_by_key(|&(start, end)| (start, std::cmp::Reverse(end)));
        let mut stack: Vec<u64> = Vec::new();
        for &(start, end) in spans.iter() {
            while stack.last().is_some_and(|&open_end| open_end <= start) {
                stack.pop();
            }
            if let Some(&open_end) = stack.last() {
                assert!(end <= open_end, "{}: slices overlap without nesting on {pid}/{tid}", meta.id);
            }
            stack.push(end);
        }
        if *pid == 1 {
            assert!(
                spans.windows(2).all(|pair| pair[0].1 <= pair[1].0),
                "{}: a task is in one state",
                meta.id
            );
        }
    }
    let world = run.state_at(extent.position);
    assert_eq!(world.now_ns, extent.end_ns, "{}: the extent ends where its world is", meta.id);
    for (index, buckets) in task_buckets.iter().enumerate() {
        let accounted = world.task_times(TaskId(index as u32));
        assert_eq!(*buckets, accounted, "{}: task {} time per bucket", meta.id, run.layout.tasks[index].name);
    }
    let count = |phase: &str| events.iter().filter(|event| event["ph"] == phase).count();
    format!(
        "{} threads, {} X, {} i, {} C, {} M",
        thread_names.len(),
        count("X"),
        count("i"),
        count("C"),
        count("M")
    )
}
