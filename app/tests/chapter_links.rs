//! Link version 6: a link records where its step lies by chapter (`ch`), so that a
//! model change that moves micro-op numbers does not move the moment it names.
//! Every registered case's default run round-trips chapter and offset at the first
//! and last step of each chapter; a parameter setting that moves a chapter stands in
//! for a model change (with a test-only `model` row, or a step the run no longer
//! has); hostile chapter names and numbers give a notice, never a panic.

use proptest::prelude::*;
use slowpath_app::player::model::{Action, Player};
use slowpath_app::player::url::chapter::{self, mark_of, parts, place_mark, ChapterMark, Part};
use slowpath_app::player::url::place::{place, place_in};
use slowpath_app::player::url::versions::{history, parse_history, History, LINK_VERSION};
use slowpath_app::player::url::PlayerQuery;
use slowpath_engine::run::params::{is_invisible_format, Notice};
use slowpath_engine::run::trace::{Granularity, Run};
use slowpath_engine::{simulation, simulations, CaseMeta, ParamValues};

fn run_of(id: &str, set: &[(&str, &str)]) -> (&'static CaseMeta, ParamValues, Run) {
    let case = simulation(id).expect("registered");
    let meta = case.meta();
    let mut params = meta.default_params();
    for (name, value) in set {
        let spec = meta.params.iter().find(|spec| spec.name == *name).expect("a parameter");
        params.0.insert(name.to_string(), spec.parse_clamped(value).0);
    }
    let run = slowpath_engine::run_checked(case, &params, meta.default_variant().id, 1).expect("runs");
    (meta, params, run)
}

/// A history in which `case`'s model changed after this link version: every link
/// made today is on the earlier model.
fn model_changed(case: &str) -> History {
    parse_history(&format!("model\t{case}\t{}\ta test's model change", LINK_VERSION + 1))
}

/// The link the app writes for `step` of `run` with these parameters.
fn link_for(meta: &'static CaseMeta, params: &ParamValues, run: &Run, step: (Granularity, u64)) -> String {
    let query = PlayerQuery {
        params: params.clone(),
        step: Some(step),
        granularity: step.0,
        chapter: mark_of(run, step),
        ..PlayerQuery::defaults(meta)
    };
    query.to_query(meta)
}

fn clean(notice: &Notice) -> bool {
    !notice.message.chars().any(|c| c.is_control() || is_invisible_format(c))
}

/// The units of `granularity` a part spans: its first and its last.
fn unit_range(run: &Run, part: &Part, granularity: Granularity) -> (u64, u64) {
    (run.unit_of(part.first - 1, granularity), run.unit_of(part.last - 1, granularity))
}

#[test]
fn every_chapter_round_trips_its_first_and_last_step() {
    let (mut links, mut placements) = (0, 0);
    for case in simulations() {
        let (meta, params, run) = run_of(case.meta().id, &[]);
        let parts = parts(&run);
        assert!(parts.len() >= 2, "{}: a start or chapters", meta.id);
        // Names are what a link carries: no two parts of a run may share one.
        let mut names: Vec<&str> = parts.iter().map(|part| part.name.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), parts.len(), "{}: {names:?}", meta.id);
        for part in &parts {
            for granularity in Granularity::ALL {
                let (first, last) = unit_range(&run, part, granularity);
                for unit in [first, last] {
                    let step = (granularity, unit);
                    let position = run.position_after(granularity, unit).expect("a unit of the run");
                    let mark = mark_of(&run, step).expect("a step of the run has a chapter");
                    if granularity == Granularity::Micro {
                        // At micro-op granularity the first and last steps are the part's own.
                        assert_eq!(mark.chapter, part.name, "{}: {step:?}", meta.id);
                        assert_eq!(mark.offset, unit - first);
                        assert_eq!(mark.span, last - first + 1);
                    }
                    let link = link_for(meta, &params, &run, step);
                    assert!(link.contains(&format!("&ch={}", mark.value())), "{link}");
                    let (read, notices) = PlayerQuery::parse(meta, &link);
                    assert!(notices.is_empty(), "{link}: {notices:?}");
                    assert_eq!(read.chapter.as_ref(), Some(&mark), "{link}");
                    links += 1;
                    // Today's model: the step as written, nothing said.
                    assert_eq!(place(&run, &link, read.step), (position, None), "{link}");
                    // After a model change on the same positions: the same step by chapter, said.
                    let (placed, notice) = place_in(&run, &link, read.step, &model_changed(meta.id));
                    assert_eq!(placed, position, "{link}");
                    let message = notice.expect("a notice").message;
                    assert!(
                        message.contains("earlier model") && message.contains("same chapter"),
                        "{message}"
                    );
                    placements += 2;
                }
            }
        }
    }
    println!("{links} links round-tripped by chapter, {placements} placements checked");
    assert!(links >= 100, "{links}");
}

/// Parameter settings that move a chapter of each case: stand-ins for a model change.
const MOVES: &[(&str, &str, &str)] = &[
    ("rwsem-playground", "readers", "8"),
    ("fifo-trigger", "loop_iters", "500000"),
    ("sparse-dump", "vmas", "100"),
    ("gvisor-threadgroups", "threads_per_process", "8192"),
    ("coredump-threads", "threads", "8"),
];

#[test]
fn a_link_keeps_its_chapter_when_a_model_change_moves_its_step() {
    let (mut links, mut moved, mut gone) = (0, 0, 0);
    for &(id, name, value) in MOVES {
        let (meta, params, made) = run_of(id, &[]);
        let (_, _, today) = run_of(id, &[(name, value)]);
        let today_parts = parts(&today);
        for part in parts(&made) {
            let Some(now) = today_parts.iter().find(|now| now.name == part.name) else { continue };
            moved += usize::from(now.first != part.first);
            for granularity in [Granularity::Micro, Granularity::Iteration] {
                let (first, last) = unit_range(&made, &part, granularity);
                let (now_first, now_last) = unit_range(&today, now, granularity);
                for unit in [first, first + (last - first) / 2, last] {
                    let step = (granularity, unit);
                    let mark = mark_of(&made, step).expect("a step of the run");
                    if mark.chapter != part.name {
                        continue; // a coarse unit that ends in the next chapter
                    }
                    let link = link_for(meta, &params, &made, step);
                    let read = PlayerQuery::parse(meta, &link).0;
                    let (position, notice) = place_in(&today, &link, read.step, &model_changed(id));
                    let placed_unit = today.unit_of(position - 1, granularity);
                    assert!((now_first..=now_last).contains(&placed_unit), "{link}: unit {placed_unit}");
                    if granularity == Granularity::Micro {
                        assert!((now.first..=now.last).contains(&position), "{link}: {position} in {now:?}");
                        if now.last - now.first == part.last - part.first {
                            assert_eq!(position - now.first, mark.offset, "{link}: the same offset");
                        }
                    }
                    let message = notice.expect("a notice").message;
                    assert!(
                        message.contains("earlier model") && message.contains("same chapter"),
                        "{message}"
                    );
                    assert!(message.contains(&now.described()), "{message}");
                    links += 1;
                    // With no model change recorded: the step as written while it exists,
                    // else the same place by chapter, said.
                    let (position, notice) = place(&today, &link, read.step);
                    match today.position_after(granularity, unit) {
                        Some(raw) => assert_eq!((position, notice), (raw, None), "{link}"),
                        None => {
                            gone += 1;
                            assert_eq!(today.unit_of(position - 1, granularity), placed_unit, "{link}");
                            let message = notice.expect("a notice").message;
                            assert!(
                                message.contains("does not exist") && message.contains("same chapter"),
                                "{message}"
                            );
                        }
                    }
                }
            }
        }
    }
    println!("{links} links read across a model change ({moved} chapters moved, {gone} steps gone)");
    assert!(moved >= MOVES.len(), "every stand-in moves a chapter: {moved}");
    assert!(gone > 0, "some step no longer exists");
}

#[test]
fn a_link_without_a_chapter_reads_as_before() {
    let (_, _, run) = run_of("sparse-dump", &[]);
    let step = Some((Granularity::Micro, 10));
    let position = run.position_after(Granularity::Micro, 10).expect("exists");
    for link in ["lv=5&step=micro:10", "step=micro:10", "lv=6&step=micro:10"] {
        assert_eq!(place_in(&run, link, step, history()), (position, None), "{link}");
    }
    // A tagged link before a model change and without a chapter: as written, said.
    let (at, notice) = place_in(&run, "lv=5&step=micro:10", step, &model_changed("sparse-dump"));
    assert_eq!(at, position);
    assert!(notice.expect("a notice").message.contains("shown as written"));
    // A chapter without a step means nothing, and is not written back.
    let meta = simulation("sparse-dump").expect("registered").meta();
    let (query, notices) = PlayerQuery::parse(meta, "lv=6&ch=sigkill-arrives:3of10");
    assert!(notices.is_empty() && query.chapter.is_none(), "{notices:?}");
    // A mark taken at another step is not written beside this one.
    let mut query = PlayerQuery::parse(meta, "lv=6&step=micro:10&ch=sigkill-arrives:3of10").0;
    query.step = Some((Granularity::Micro, 11));
    assert_eq!(query.to_query(meta), "lv=7&step=micro:11");
}

#[test]
fn the_player_writes_where_its_step_lies() {
    let case = simulation("rwsem-playground").expect("registered");
    let meta = case.meta();
    let opened = slowpath_app::player::link::OpenedLink::parse(meta, "");
    let mut player = Player::open(case, &opened);
    for _ in 0..40 {
        player = player.apply(Action::StepForward);
    }
    let step = player.query.step.expect("a step");
    let mark = mark_of(&player.run, step).expect("a chapter");
    let link = player.query.to_query(meta);
    assert!(link.contains(&format!("ch={}", mark.value())), "{link}");
    // A link whose chapter disagrees with its step is rewritten from the run.
    let text = format!("lv=6&step={}:{}&ch=start:0of1", step.0.key(), step.1);
    let reopened = Player::open(case, &slowpath_app::player::link::OpenedLink::parse(meta, &text));
    assert_eq!(reopened.query.chapter, Some(mark));
}

/// Names and numbers a hostile link may carry in `ch`.
const HOSTILE: &[&str] = &[
    "no-such-chapter:1of2",
    "the-end-of-the-run:99999999999999999999999of0",
    "sigkill-arrives:18446744073709551615of18446744073709551615",
    "start:5of3",
    "%E2%80%AEevil:1of1",
    "%1B%5B2J:0of1",
    "a%E2%80%8Bb:0of2",
    "%00:0of1",
    ":1of2",
    "x",
    "1of2",
    "SIGKILL%20Arrives:1of2",
];

#[test]
fn hostile_chapters_give_a_notice_and_never_a_panic() {
    let mut checked = 0;
    for case in simulations() {
        let (meta, _, run) = run_of(case.meta().id, &[]);
        let long = format!("{}:1of2", "x".repeat(10_000));
        for value in HOSTILE.iter().copied().chain([long.as_str()]) {
            for step in [(Granularity::Micro, 3), (Granularity::Iteration, u64::MAX), (Granularity::Phase, 1)]
            {
                let link = format!("lv=6&step={}:{}&ch={value}", step.0.key(), step.1);
                let (query, notices) = PlayerQuery::parse(meta, &link);
                assert!(notices.iter().all(clean), "{link}: {notices:?}");
                for history in [history(), &model_changed(meta.id)] {
                    let (position, notice) = place_in(&run, &link, query.step, history);
                    assert!(position <= run.total_ops());
                    if let Some(notice) = notice {
                        assert!(clean(&notice), "{link}: {notice:?}");
                        assert!(notice.message.chars().count() < 400, "{}", notice.message);
                    }
                    checked += 1;
                }
            }
            // A name this run lacks says so, quoted, whether the step exists or not.
            let link = format!("lv=6&step=micro:3&ch={value}");
            let read = PlayerQuery::parse(meta, &link).0;
            let lacked = read
                .chapter
                .as_ref()
                .filter(|mark| !parts(&run).iter().any(|part| part.name == chapter::slug(&mark.chapter)));
            if lacked.is_some() {
                for (step, said) in
                    [(read.step, "shown as written"), (Some((Granularity::Micro, u64::MAX)), "the end")]
                {
                    let (_, notice) = place_in(&run, &link, step, &model_changed(meta.id));
                    let message = notice.expect("a notice").message;
                    assert!(message.contains("is not in this run") && message.contains(said), "{message}");
                    checked += 1;
                }
            }
        }
    }
    println!("{checked} hostile placements checked");
}

#[test]
fn a_name_reads_regardless_of_case_and_spacing() {
    let (_, _, run) = run_of("sparse-dump", &[]);
    let mark =
        ChapterMark { step: (Granularity::Micro, 5), chapter: "SIGKILL Arrives".into(), offset: 0, span: 9 };
    let placed = place_mark(&run, &mark).expect("placed");
    assert_eq!(placed.part.title, Some("SIGKILL arrives"));
    assert_eq!(placed.offset, 0);
    assert_eq!(chapter::slug("SIGKILL arrives"), "sigkill-arrives");
    // The example docs/links.md gives, and its notice.
    let step = (Granularity::Micro, 72_709_424);
    assert_eq!(mark_of(&run, step).expect("a step").value(), "sigkill-arrives:4of2074775851");
    let link = "lv=6&step=micro:72709424&ch=sigkill-arrives:4of2074775851";
    let (_, notice) = place_in(&run, link, Some(step), &model_changed("sparse-dump"));
    assert_eq!(
        notice.expect("a notice").message,
        "this link was made with an earlier model (link version 6); the step shown is in the same chapter, \
         “SIGKILL arrives”, at the same place in it (micro step 5 of 2074775851), rather than step micro:72709424"
    );
}

fn sparse_run() -> &'static Run {
    static RUN: std::sync::OnceLock<Run> = std::sync::OnceLock::new();
    RUN.get_or_init(|| run_of("sparse-dump", &[]).2)
}

fn hostile_char() -> impl Strategy<Value = char> {
    prop_oneof![
        proptest::char::range('\u{0}', '\u{1f}'),
        proptest::char::range('\u{7f}', '\u{9f}'),
        proptest::char::range('\u{202a}', '\u{202e}'),
        proptest::char::range('\u{2066}', '\u{2069}'),
        proptest::char::range('\u{200b}', '\u{200f}'),
        Just('\u{feff}'),
        Just(':'),
        Just('o'),
        Just('f'),
        proptest::char::range('0', '9'),
        proptest::char::range('a', 'z'),
    ]
}

proptest! {
    /// Any `ch` value, any step: placing never panics, lands in the run, and no
    /// notice carries a control, bidi or zero-width character raw.
    #[test]
    fn any_chapter_value_places_safely(
        chars in proptest::collection::vec(hostile_char(), 0..24),
        name in 0usize..5,
        granularity in 0usize..3,
        unit in prop_oneof![0u64..1_000, any::<u64>()],
        changed in any::<bool>(),
    ) {
        let run = sparse_run();
        let meta = simulation("sparse-dump").expect("registered").meta();
        let names = ["sigkill-arrives", "start", "the-dump-ends", "mmap-lock-is-taken-for-the-first-page", ""];
        let value: String = names[name].chars().chain(chars).collect();
        let step = (Granularity::ALL[granularity], unit);
        let link = format!(
            "lv=6&step={}:{unit}&ch={}",
            step.0.key(),
            slowpath_app::player::url::codec::encode(&value)
        );
        let (query, notices) = PlayerQuery::parse(meta, &link);
        prop_assert!(notices.iter().all(clean), "{}: {:?}", link, notices);
        let history = if changed { model_changed(meta.id) } else { History::default() };
        let (position, notice) = place_in(run, &link, query.step, &history);
        prop_assert!(position <= run.total_ops());
        prop_assert!(notice.iter().all(clean), "{}: {:?}", link, notice);
    }
}
