//! Issue 31's link defects, each pinned: names round-trip for every registered case,
//! `+` is a plus, an overflowing step goes to the end, compare notices name their
//! side, bare durations are refused, link versions keep their defaults, and nothing
//! an input holds reaches a notice raw.

use proptest::prelude::*;
use slowpath_app::player::url::place::place;
use slowpath_app::player::url::versions::{self, history, LINK_VERSION, VERSION_KEY};
use slowpath_app::player::url::{CompareSide, PlayerQuery};
use slowpath_app::route::Route;
use slowpath_engine::run::params::{is_invisible_format, Notice, ParamKind, ParamValue};
use slowpath_engine::run::trace::Granularity;
use slowpath_engine::{find, registry, CaseMeta};

fn meta(id: &str) -> &'static CaseMeta {
    find(id).expect("registered").meta
}

fn clean(notices: &[Notice]) -> bool {
    notices.iter().all(|n| !n.message.chars().any(|c| c.is_control() || is_invisible_format(c)))
}

/// Every value a parameter can be written with that matters: its edges, its default
/// and, for a choice, every option.
fn values_of(kind: ParamKind) -> Vec<ParamValue> {
    match kind {
        ParamKind::Count { min, max, default }
        | ParamKind::Duration { min_ns: min, max_ns: max, default_ns: default }
        | ParamKind::Size { min_bytes: min, max_bytes: max, default_bytes: default } => {
            [min, max, default].map(ParamValue::Unsigned).to_vec()
        }
        ParamKind::Signed { min, max, default } => [min, max, default].map(ParamValue::Signed).to_vec(),
        ParamKind::Switch { .. } => [true, false].map(ParamValue::Switch).to_vec(),
        ParamKind::Choice { options, .. } => {
            options.iter().map(|o| ParamValue::Word(o.to_string())).collect()
        }
        ParamKind::Text { default, .. } => vec![ParamValue::Word(default.to_string())],
    }
}

#[test]
fn every_registered_name_round_trips_through_a_link() {
    let mut names = 0;
    for case in registry() {
        let meta = case.meta;
        let route = Route::case(meta.id);
        assert_eq!(Route::parse(&route.to_hash()), route);
        names += 1;
        for variant in meta.variants {
            let query = PlayerQuery { variant: variant.id, ..PlayerQuery::defaults(meta) };
            let (back, notices) = PlayerQuery::parse(meta, &query.to_query(meta));
            assert!(notices.is_empty(), "{}: {notices:?}", variant.id);
            assert_eq!(back, query);
            let mut compared = PlayerQuery::defaults(meta);
            compared.compare =
                Some(CompareSide { variant: variant.id, params: meta.default_params(), seed: 1 });
            assert_eq!(PlayerQuery::parse(meta, &compared.to_query(meta)).0, compared, "cmp={}", variant.id);
            names += 1;
        }
        for spec in meta.params {
            for value in values_of(spec.kind) {
                let mut query = PlayerQuery::defaults(meta);
                query.params.0.insert(spec.name.to_string(), value.clone());
                let link = query.to_query(meta);
                let (back, notices) = PlayerQuery::parse(meta, &link);
                assert!(notices.is_empty(), "{link}: {notices:?}");
                assert_eq!(back, query, "{link}");
                names += 1;
            }
        }
    }
    println!("{names} registered names round-tripped");
    assert!(names > 150, "{names}");
}

#[test]
fn a_plus_in_a_variant_is_a_plus() {
    let gvisor = meta("gvisor-threadgroups");
    let (query, notices) = PlayerQuery::parse(gvisor, "lv=5&v=tgids+idle-stop&cmp=tgids+idle-stop");
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(query.variant, "tgids+idle-stop");
    assert_eq!(query.compare.map(|side| side.variant), Some("tgids+idle-stop"));
}

#[test]
fn variants_read_like_choice_values() {
    let gvisor = meta("gvisor-threadgroups");
    assert_eq!(PlayerQuery::parse(gvisor, "v=TGIDS").0.variant, "tgids");
}

#[test]
fn a_case_id_is_percent_decoded() {
    assert_eq!(Route::parse("#/case/%63oredump-threads"), Route::case("coredump-threads"));
    assert_eq!(Route::parse("#/case/%63oredump-threads/tour/1").query(), "");
}

#[test]
fn a_step_past_any_u64_goes_to_the_end_with_a_notice() {
    let sparse = meta("sparse-dump");
    let text = "step=micro:18446744073709551616";
    let (query, notices) = PlayerQuery::parse(sparse, text);
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(query.step, Some((Granularity::Micro, u64::MAX)));
    let case = slowpath_engine::simulation("sparse-dump").expect("registered");
    let run = slowpath_engine::run_checked(case, &query.params, query.variant, query.seed).expect("runs");
    let (position, notice) = place(&run, text, query.step);
    assert_eq!(position, run.total_ops());
    let notice = notice.expect("a notice");
    assert!(
        notice.message.contains("micro:18446744073709551616") && notice.message.contains("the end"),
        "{}",
        notice.message
    );
    // An untagged link may be from an earlier model, and says so; a tagged one is not.
    assert!(
        notice.message.contains("earlier model") && notice.message.contains("chapter"),
        "{}",
        notice.message
    );
    let (_, tagged) = place(&run, &format!("lv={LINK_VERSION}&{text}"), query.step);
    assert!(!tagged.expect("a notice").message.contains("earlier model"));
    // The same as a large index that fits.
    let (position, notice) =
        place(&run, "step=micro:99999999999", Some((Granularity::Micro, 99_999_999_999)));
    assert_eq!(position, run.total_ops());
    assert!(notice.is_some());
}

#[test]
fn compare_notices_name_the_compare_side() {
    let coredump = meta("coredump-threads");
    let (_, notices) = PlayerQuery::parse(coredump, "lv=5&cmp.threads=999999&cmp.signal=nope");
    assert_eq!(notices.len(), 2, "{notices:?}");
    for notice in &notices {
        assert!(notice.param.starts_with("cmp."), "{notice:?}");
        assert!(notice.message.starts_with("`cmp."), "{}", notice.message);
    }
}

#[test]
fn a_bare_duration_in_a_link_is_refused_with_the_units() {
    let coredump = meta("coredump-threads");
    let (query, notices) = PlayerQuery::parse(coredump, "signal_at=5");
    assert_eq!(query.params, coredump.default_params());
    assert!(notices[0].message.contains("no unit") && notices[0].message.contains("ms, s"), "{notices:?}");
}

#[test]
fn echoed_input_is_escaped_and_cut() {
    let coredump = meta("coredump-threads");
    for link in
        ["v=%1B%5B2J", "seed=%00", "threads=%E2%80%AEevil", "v=a%E2%80%8Bb", "cmp=%E2%81%A6x", "lv=%1B"]
    {
        let (_, notices) = PlayerQuery::parse(coredump, link);
        assert!(!notices.is_empty(), "{link}");
        assert!(clean(&notices), "{link}: {notices:?}");
    }
    let (_, notices) = PlayerQuery::parse(coredump, &format!("v={}", "x".repeat(10_000)));
    assert!(notices[0].message.chars().count() < 200, "{}", notices[0].message);
}

#[test]
fn every_link_written_carries_the_version_and_a_bare_case_link_nothing() {
    for case in registry() {
        let meta = case.meta;
        assert_eq!(PlayerQuery::defaults(meta).to_query(meta), "");
        let query = PlayerQuery { seed: 7, ..PlayerQuery::defaults(meta) };
        assert!(query.to_query(meta).starts_with(&format!("{VERSION_KEY}={LINK_VERSION}&")));
    }
}

#[test]
fn a_version_keeps_its_defaults() {
    let fifo = meta("fifo-trigger");
    let at = |version: u32| PlayerQuery::parse(fifo, &format!("lv={version}&duration=3s")).0.params;
    assert_eq!(at(1).unsigned("loop_ps"), 550);
    assert_eq!(at(3).unsigned("loop_ps"), 2_500);
    assert_eq!(at(3).unsigned("print_cost"), 155_000);
    assert_eq!(at(4).unsigned("print_cost"), 140_000);
    assert_eq!(at(5), at(LINK_VERSION));
    let coredump = meta("coredump-threads");
    assert_eq!(PlayerQuery::parse(coredump, "lv=4&threads=8").0.params.word("rlimit_cpu"), "none");
    assert_eq!(PlayerQuery::parse(coredump, "lv=5&threads=8").0.params.word("rlimit_cpu"), "5");
    // A version from the future or no version at all is read as today's, said once.
    for link in ["lv=99&threads=8", "lv=abc&threads=8", "lv=0&threads=8"] {
        let (query, notices) = PlayerQuery::parse(coredump, link);
        assert_eq!(query.params.word("rlimit_cpu"), "5", "{link}");
        assert_eq!(notices.iter().filter(|n| n.param == VERSION_KEY).count(), 1, "{link}: {notices:?}");
    }
}

#[test]
fn an_untagged_link_states_its_reading_and_offers_the_others() {
    let fifo = meta("fifo-trigger");
    let (query, notices) = PlayerQuery::parse(fifo, "duration=3s&step=iter:5");
    assert_eq!(query.params.unsigned("loop_ps"), 2_500, "read with the last untagged version's defaults");
    assert_eq!(notices.len(), 1, "{notices:?}");
    let message = &notices[0].message;
    assert!(message.contains("no version tag"), "{message}");
    assert!(
        message.contains("#/case/fifo-trigger?lv=7&loop_ps=550&duration=3s&shell_slice=102ms&step=iter:5"),
        "{message}"
    );
    assert!(message.contains("print_cost=155us"), "{message}");
    // A link that sets every changed default, or a tagged one, is not ambiguous.
    let (_, notices) = PlayerQuery::parse(fifo, "loop_ps=550&print_cost=140us&shell_slice=102ms");
    assert!(notices.is_empty(), "{notices:?}");
    assert!(PlayerQuery::parse(fifo, "lv=5&duration=3s").1.is_empty());
    // A case whose defaults never changed says nothing.
    assert!(PlayerQuery::parse(meta("rwsem-playground"), "readers=8").1.is_empty());
}

#[test]
fn the_version_table_names_every_case_and_parameter_it_changes() {
    let history = history();
    for change in &history.defaults {
        let meta = meta(&change.case);
        let spec = meta.params.iter().find(|spec| spec.name == change.param).expect("a parameter");
        assert!(spec.parse_exact(&change.before).is_ok(), "{}: {}", change.param, change.before);
        assert!((2..=LINK_VERSION).contains(&change.since));
    }
    for (case, since) in &history.models {
        assert!(find(case).is_some() && (2..=LINK_VERSION).contains(since), "{case}");
    }
    let numbers: Vec<u32> = history.versions.iter().map(|v| v.number).collect();
    assert_eq!(numbers, (1..=LINK_VERSION).collect::<Vec<_>>());
    // Every row of the file is read: none is skipped for not fitting.
    let text = include_str!("../../docs/link-versions.tsv");
    let rows = text.lines().filter(|line| !line.starts_with("//") && !line.trim().is_empty()).count();
    let read =
        history.versions.len() + history.defaults.len() + history.models.len() + history.fingerprints.len();
    assert_eq!(read, rows);
    assert_eq!(versions::parse_history("default\tx\n//\nversion\tnot a number").versions.len(), 0);
}

/// A model change moves positions: when a golden hash changes, add a link version
/// with a `model` row in `docs/link-versions.tsv`, then update the fingerprint there.
#[test]
fn the_models_are_the_ones_this_link_version_was_made_on() {
    // Every registered case's recorded hash (`CaseMeta::golden`), but the tests' own
    // example case and any case the app does not have yet, which no link opens.
    let mut golden: Vec<(&str, &str)> = registry()
        .iter()
        .filter(|entry| entry.in_app && entry.meta.id != "example-case")
        .filter_map(|entry| entry.meta.golden.map(|golden| (entry.meta.id, golden.trace_hash)))
        .collect();
    let mut recorded: Vec<(&str, &str)> =
        history().fingerprints.iter().map(|(case, hash)| (case.as_str(), hash.as_str())).collect();
    golden.sort_unstable();
    recorded.sort_unstable();
    assert_eq!(recorded, golden);
}

#[test]
fn the_test_doors_open_on_loopback_hosts_only() {
    for host in ["127.0.0.1", "localhost", "[::1]", "127.1.2.3"] {
        assert_eq!(Route::parse("#/__crash").on_host(host), Route::Crash, "{host}");
        assert!(matches!(Route::parse("#/__perf?tasks=9").on_host(host), Route::Perf { .. }), "{host}");
    }
    for host in ["example.github.io", "", "127.0.0.1.evil.example", "10.0.0.1", "localhost.example"] {
        assert_eq!(
            Route::parse("#/__crash").on_host(host),
            Route::NotFound { path: "/__crash".into() },
            "{host}"
        );
        assert_eq!(
            Route::parse("#/__perf").on_host(host),
            Route::NotFound { path: "/__perf".into() },
            "{host}"
        );
    }
}

fn hostile_char() -> impl Strategy<Value = char> {
    prop_oneof![
        proptest::char::range('\u{0}', '\u{1f}'),
        proptest::char::range('\u{7f}', '\u{9f}'),
        proptest::char::range('\u{202a}', '\u{202e}'),
        proptest::char::range('\u{2066}', '\u{2069}'),
        Just('\u{200e}'),
        Just('\u{200f}'),
        Just('\u{61c}'),
        proptest::char::range('\u{200b}', '\u{200d}'),
        Just('\u{2060}'),
        Just('\u{feff}'),
    ]
}

proptest! {
    /// Every registered key with a registered name and control, bidi or zero-width
    /// characters mixed in: parsing never panics, the state is valid, and no notice
    /// carries the characters raw.
    #[test]
    fn invisible_characters_never_reach_a_notice(
        case_index in 0usize..64,
        key_index in 0usize..64,
        name_index in 0usize..256,
        chars in proptest::collection::vec(hostile_char(), 1..4),
        at in 0usize..3,
    ) {
        let meta = registry()[case_index % registry().len()].meta;
        let keys: Vec<String> = meta.params.iter().map(|s| s.name.to_string())
            .chain(["v", "cmp", "seed", "step", "g", "align", "lv", "cmp.seed", "ch"].map(String::from))
            .chain(meta.params.iter().map(|s| format!("cmp.{}", s.name)))
            .collect();
        let names: Vec<String> = meta.variants.iter().map(|v| v.id.to_string())
            .chain(meta.params.iter().flat_map(|s| values_of(s.kind).into_iter().map(move |v| s.format_value(&v))))
            .collect();
        let name = &names[name_index % names.len()];
        let hostile: String = chars.iter().collect();
        let value = match at { 0 => format!("{hostile}{name}"), 1 => format!("{name}{hostile}"), _ => hostile.clone() };
        let encoded = slowpath_app::player::url::codec::encode(&value);
        let link = format!("{}={encoded}", keys[key_index % keys.len()]);
        let (query, notices) = PlayerQuery::parse(meta, &link);
        prop_assert!(query.params.check(meta.params).is_ok());
        prop_assert!(clean(&notices), "{link}: {notices:?}");
    }
}
