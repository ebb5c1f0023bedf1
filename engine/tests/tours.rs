//! Every case in the registry ships chapters and a tour, and every stop of every
//! tour opens: its state is a valid link, its position is its chapter's, its text
//! quotes no typed figure, and its question's answer is the run's own figure.

use slowpath_engine::run::format;
use slowpath_engine::run::narration::group_digits;
use slowpath_engine::tour::{self, Answer, Ask, At};
use slowpath_engine::{run_checked, simulations, Metric, ParamValues};

#[test]
fn every_case_ships_chapters_and_a_tour() {
    for case in simulations() {
        let meta = case.meta();
        let run = run_checked(case, &meta.default_params(), meta.default_variant().id, 1).expect("runs");
        assert!(!run.chapters.is_empty(), "{}: a case declares its chapters (run.set_chapters)", meta.id);
        let stops = case.meta().tour.stops;
        assert!(stops.len() >= 2, "{}: a tour has at least two stops", meta.id);
        // A stop's figures are the case page's: the seed a link opens with. (The
        // reports' own numbers, "seed 003", are file names, not PRNG seeds.)
        for stop in stops {
            assert_eq!(
                stop.seed, 1,
                "{}: the stop \"{}\" runs another seed than a link's",
                meta.id, stop.title
            );
        }
        assert!(
            stops.iter().any(|stop| stop.question.is_some()),
            "{}: a tour asks at least one question",
            meta.id
        );
        // A question is revealed at the next stop, so the last stop cannot ask one.
        assert!(
            stops.last().is_some_and(|stop| stop.question.is_none()),
            "{}: the last stop asks nothing",
            meta.id
        );
    }
}

/// The figure at a metric path, read here without the tour module's help.
fn figure(metrics: &std::collections::BTreeMap<String, Metric>, path: &str) -> (u64, bool) {
    let mut parts = path.split('.');
    let mut metric = &metrics[parts.next().expect("a name")];
    for part in parts {
        let Metric::Object(fields) = metric else { panic!("{path}: not an object") };
        metric = &fields[part];
    }
    match metric {
        Metric::Ns(ns) => (*ns, true),
        Metric::Count(n) => (*n, false),
        Metric::None(Some(value)) => (*value, path.ends_with("_ns")),
        other => panic!("{path}: {other:?} is not a figure"),
    }
}

#[test]
fn every_stop_of_every_tour_opens_and_agrees_with_its_run() {
    for case in simulations() {
        let meta = case.meta();
        for (index, stop) in case.meta().tour.stops.iter().enumerate() {
            let name = format!("{} stop {}", meta.id, index + 1);
            let opened = tour::open(case, index).unwrap_or_else(|e| panic!("{name}: {e}"));

            // The state is a link: its non-default pairs read back to the same values.
            let pairs = opened.state.params.non_default_pairs(meta.params);
            let reread =
                ParamValues::from_pairs_exact(meta.params, pairs.iter().map(|(k, v)| (*k, v.as_str())))
                    .expect("link");
            assert_eq!(reread, opened.state.params, "{name}");
            assert!(meta.variant(opened.state.variant).is_some(), "{name}");

            // The position is in range and is the named moment's.
            assert!(opened.position <= opened.run.total_ops(), "{name}");
            match stop.at {
                At::Start => assert_eq!(opened.position, 0, "{name}"),
                At::End => assert_eq!(opened.position, opened.run.total_ops(), "{name}"),
                At::Chapter(title) => {
                    let chapter = opened.run.chapters.iter().find(|c| c.title == title).expect("chapter");
                    assert_eq!(opened.position, chapter.position, "{name}");
                }
            }

            // Two to five sentences; no figure typed anywhere an author wrote text.
            assert!((2..=5).contains(&stop.text.len()), "{name}: {} sentences", stop.text.len());
            let mut typed = vec![stop.title];
            typed.extend(stop.text);
            if let Some(question) = &stop.question {
                typed.extend([question.prompt, question.explain]);
                if let Ask::Largest { choices } = question.ask {
                    typed.extend(choices.iter().map(|(label, _)| *label));
                }
            }
            for text in typed {
                assert_eq!(tour::typed_digits(text), "", "{name}: `{text}` types a figure; use a slot");
            }
            for (sentence, filled) in stop.text.iter().zip(&opened.text) {
                assert!(!filled.contains('{') && !filled.is_empty(), "{name}: {sentence} -> {filled}");
            }

            // The question's answer is the run's figure, computed again here.
            let (Some(question), Some(posed)) = (&stop.question, &opened.question) else {
                assert!(stop.question.is_none() && opened.question.is_none(), "{name}");
                continue;
            };
            let metrics = &opened.run.metrics;
            match (question.ask, &posed.answer) {
                (Ask::Magnitude { metric, powers }, Answer::Choice { choices, correct }) => {
                    let (value, duration) = figure(metrics, metric);
                    let shown = if duration { format::duration(value) } else { group_digits(value) };
                    assert_eq!(choices[*correct], shown, "{name}");
                    assert_eq!(choices.len(), powers.len() + 1, "{name}");
                    assert_eq!(
                        choices.iter().filter(|c| **c == shown).count(),
                        1,
                        "{name}: one right choice"
                    );
                }
                (Ask::Largest { choices: declared }, Answer::Choice { choices, correct }) => {
                    let figures: Vec<u64> =
                        declared.iter().map(|(_, path)| figure(metrics, path).0).collect();
                    for (i, f) in figures.iter().enumerate() {
                        assert!(i == *correct || *f < figures[*correct], "{name}: {figures:?}");
                    }
                    assert_eq!(choices[*correct], declared[*correct].0, "{name}");
                }
                (Ask::Guess { metric, within }, Answer::Guess { value, duration, .. }) => {
                    let (expected, is_duration) = figure(metrics, metric);
                    assert_eq!((*value, *duration), (expected, is_duration), "{name}");
                    let unit = if is_duration { "ns" } else { "" };
                    assert_eq!(posed.answer.judge_guess(&format!("{expected}{unit}")), Ok(true), "{name}");
                    let far = expected.max(1) * within * 4;
                    assert_eq!(posed.answer.judge_guess(&format!("{far}{unit}")), Ok(false), "{name}");
                }
                (ask, answer) => panic!("{name}: {ask:?} posed as {answer:?}"),
            }
        }
    }
}

#[test]
fn slots_fill_from_the_run_and_bad_ones_are_errors_not_panics() {
    let case = slowpath_engine::simulation("rwsem-playground").expect("registered");
    let meta = case.meta();
    let run = run_checked(case, &meta.default_params(), meta.default_variant().id, 1).expect("runs");
    let Metric::Count(contended) = run.metrics["contended"] else { panic!("a count") };
    assert_eq!(
        tour::fill(meta, &run, 0, "{m:contended} waits").unwrap(),
        format!("{} waits", group_digits(contended))
    );
    assert_eq!(
        tour::fill(meta, &run, run.total_ops(), "at {t}").unwrap(),
        format!("at {}", format::duration(run.end_ns))
    );
    assert_eq!(tour::fill(meta, &run, 0, "{variant}").unwrap(), meta.default_variant().label);
    for bad in ["{m:nope}", "{m:locks}", "{p:nope}", "{x}", "{m:contended", "{}"] {
        assert!(tour::fill(meta, &run, 0, bad).is_err(), "{bad}");
    }
    // A question whose choices would all read the same is refused, not shown.
    let question = tour::Question {
        prompt: "p",
        ask: Ask::Magnitude { metric: "handoffs", powers: &[-1, 1] },
        explain: "e",
    };
    assert!(matches!(run.metrics["handoffs"], Metric::Count(0)));
    assert!(tour::pose(meta, &run, 0, &question).is_err());
}
