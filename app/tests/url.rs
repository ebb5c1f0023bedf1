//! Links: the player's state in the URL, both ways, on the rwsem playground's parameters.

use proptest::prelude::*;
use slowpath_app::player::url::chapter::ChapterMark;
use slowpath_app::player::url::*;
use slowpath_engine::run::trace::Granularity;
use slowpath_engine::{registry, ParamValue};
use slowpath_engine::{CaseMeta, ParamValues};

fn playground() -> &'static CaseMeta {
    slowpath_engine::find("rwsem-playground").expect("registered").meta
}

#[test]
fn defaults_write_an_empty_query_and_read_back() {
    let meta = playground();
    let defaults = PlayerQuery::defaults(meta);
    assert_eq!(defaults.to_query(meta), "");
    assert_eq!(PlayerQuery::parse(meta, ""), (defaults, Vec::new()));
}

#[test]
fn a_link_says_what_it_shows() {
    let meta = playground();
    let mut query = PlayerQuery::defaults(meta);
    query.params.0.insert("readers".into(), ParamValue::Unsigned(8));
    query.params.0.insert("read_hold".into(), ParamValue::Unsigned(1_500_000));
    query.variant = "no-spin";
    query.seed = 42;
    query.step = Some((Granularity::Iteration, 120));
    assert_eq!(query.to_query(meta), "lv=7&readers=8&read_hold=1.5ms&v=no-spin&seed=42&step=iter:120");
    query.granularity = Granularity::Phase;
    assert_eq!(PlayerQuery::parse(meta, &query.to_query(meta)).0, query);
    query.step = None;
    assert_eq!(PlayerQuery::parse(meta, &query.to_query(meta)).0, query);
}

#[test]
fn bad_values_are_clamped_or_replaced_with_a_notice() {
    let meta = playground();
    let (query, notices) = PlayerQuery::parse(meta, "readers=9999&v=v9&seed=x&step=lap:3&zzz=1");
    assert_eq!(query.params.unsigned("readers"), 64);
    assert_eq!(query.variant, "v6.13");
    assert_eq!(query.seed, DEFAULT_SEED);
    assert_eq!(query.step, None);
    let params: Vec<&str> = notices.iter().map(|n| n.param.as_str()).collect();
    assert_eq!(params, ["readers", "v", "seed", "step"]);
    assert!(notices[0].message.contains("0 to 64"), "{}", notices[0].message);
}

#[test]
fn every_preset_link_is_short() {
    for case in registry() {
        let meta = case.meta;
        for variant in meta.variants {
            let mut query = PlayerQuery::defaults(meta);
            query.variant = variant.id;
            query.seed = u64::MAX;
            query.step = Some((Granularity::Micro, u64::MAX));
            query.granularity = Granularity::Phase;
            let link =
                format!("https://example.github.io/slowpath/#/case/{}?{}", meta.id, query.to_query(meta));
            assert!(link.len() < 200, "{link}");
        }
    }
}

fn any_query() -> impl Strategy<Value = PlayerQuery> {
    let meta = playground();
    let params: Vec<BoxedStrategy<(String, String)>> = meta
        .params
        .iter()
        .map(|spec| {
            let name = spec.name.to_string();
            (0u64..2_000_000).prop_map(move |n| (name.clone(), n.to_string())).boxed()
        })
        .collect();
    let step = proptest::option::of((0usize..3, any::<u64>()));
    let compare =
        proptest::option::of((0..meta.variants.len(), 0u64..2_000_000, any::<u64>(), any::<bool>()));
    // Where the step lies by chapter: any name a link can carry, any numbers.
    let chapter = proptest::option::of(("[a-z0-9:-]{0,8}[a-z0-9-]", any::<u64>(), any::<u64>()));
    (
        params,
        0..meta.variants.len(),
        any::<u64>(),
        0usize..3,
        step,
        chapter,
        any::<bool>(),
        any::<bool>(),
        compare,
    )
        .prop_map(move |(pairs, variant, seed, granularity, step, chapter, embed, present, compare)| {
            let (params, _) = ParamValues::from_pairs_clamped(
                meta.params,
                pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())),
            );
            PlayerQuery {
                params: params.clone(),
                variant: meta.variants[variant].id,
                seed,
                granularity: Granularity::ALL[granularity],
                step: step.map(|(g, index)| (Granularity::ALL[g], index)),
                chapter: step.zip(chapter).map(|((g, index), (chapter, offset, span))| ChapterMark {
                    step: (Granularity::ALL[g], index),
                    chapter,
                    offset,
                    span,
                }),
                embed,
                present,
                compare: compare.map(|(variant, readers, seed, _)| {
                    let mut params = params.clone();
                    let spec =
                        meta.params.iter().find(|spec| spec.name == "readers").expect("a readers parameter");
                    params.0.insert("readers".into(), spec.parse_clamped(&readers.to_string()).0);
                    CompareSide { variant: meta.variants[variant].id, params, seed }
                }),
                align: if compare.is_some_and(|(_, _, _, unit)| unit) { Align::Unit } else { Align::Time },
            }
        })
}

proptest! {
    #[test]
    fn any_valid_state_round_trips(query in any_query()) {
        let meta = playground();
        let (back, notices) = PlayerQuery::parse(meta, &query.to_query(meta));
        prop_assert!(notices.is_empty(), "{notices:?}");
        prop_assert_eq!(back, query);
    }

    #[test]
    fn arbitrary_strings_never_panic(text in "\\PC{0,200}") {
        let meta = playground();
        let (query, _) = PlayerQuery::parse(meta, &text);
        prop_assert!(query.params.check(meta.params).is_ok());
    }

    /// Adversarial links for every case: the case's own keys with hostile values
    /// (huge, negative, percent-encoded, units, control characters), repeated keys and
    /// flags. Parsing never panics, always yields valid parameters, and what it writes
    /// back reads back to the same state (a round trip from any link).
    #[test]
    fn hostile_links_for_every_case_parse_and_round_trip(
        case_index in 0usize..64,
        picks in proptest::collection::vec((0usize..64, 0usize..19), 0..12),
        noise in "\\PC{0,40}",
    ) {
        let meta = registry()[case_index % registry().len()].meta;
        let values = [
            "0", "-1", "18446744073709551616", "99999999999999999999TiB", "1.5ms", "%00", "%E2%88%92",
            "on", "", "\u{1b}[31m", "nan", &noise, "%E2%80%AEevil", "a%E2%80%8Bb", "%E2%81%A6x%E2%81%A9",
            "%EF%BB%BF", "tgids+idle-stop", "5", "LV",
        ];
        let keys: Vec<&str> =
            meta.params.iter().map(|spec| spec.name).chain(["v", "seed", "step", "g", "embed", "present", "cmp", "cmp.seed", "align", "lv"])
            .chain(meta.params.iter().map(|spec| if spec.name.len() % 2 == 0 { "cmp.threads" } else { "cmp.zzz" }))
            .collect();
        let link: Vec<String> =
            picks.iter().map(|&(k, v)| format!("{}={}", keys[k % keys.len()], values[v % values.len()])).collect();
        let (query, notices) = PlayerQuery::parse(meta, &link.join("&"));
        prop_assert!(query.params.check(meta.params).is_ok());
        let raw = |c: char| c.is_control() || slowpath_engine::run::params::is_invisible_format(c);
        prop_assert!(notices.iter().all(|n| !n.message.chars().any(raw)), "{notices:?}");
        let (again, notices) = PlayerQuery::parse(meta, &query.to_query(meta));
        prop_assert!(notices.is_empty(), "{notices:?}");
        prop_assert_eq!(again, query);
    }
}

#[test]
fn an_embed_keeps_its_flag_and_links_back_without_it() {
    let meta = playground();
    let (query, notices) = PlayerQuery::parse(meta, "readers=8&embed");
    assert!(notices.is_empty(), "{notices:?}");
    assert!(query.embed);
    assert_eq!(query.to_query(meta), "lv=7&readers=8&embed");
    assert_eq!(query.unembedded().to_query(meta), "lv=7&readers=8");
    let (bare, _) = PlayerQuery::parse(meta, "embed");
    assert_eq!(bare.to_query(meta), "lv=7&embed");
    assert!(slowpath_app::route::Route::parse("#/case/rwsem-playground?embed").embedded());
    assert!(!slowpath_app::route::Route::parse("#/case/rwsem-playground?readers=8").embedded());
}

/// A link made by the tour and variant presets, and a comparison of each case's default
/// against its first fix with every other field at its longest.
fn longest_links() -> Vec<String> {
    let mut links = Vec::new();
    for case in registry() {
        let meta = case.meta;
        let mut queries = Vec::new();
        for variant in meta.variants {
            queries.push(PlayerQuery { variant: variant.id, ..PlayerQuery::defaults(meta) });
        }
        for stop in case.meta.tour.stops {
            let state = slowpath_engine::tour::stop_state(meta, stop).expect("a tour stop opens");
            queries.push(PlayerQuery {
                params: state.params,
                variant: state.variant,
                seed: state.seed,
                ..PlayerQuery::defaults(meta)
            });
        }
        // Each preset with the step and seed at their longest, alone and compared
        // with the case's first fix (or its first other variant).
        for query in queries {
            let mut query = PlayerQuery {
                seed: u64::MAX,
                step: Some((Granularity::Micro, u64::MAX)),
                granularity: Granularity::Phase,
                ..query
            };
            links.push(format!(
                "https://example.github.io/slowpath/#/case/{}?{}",
                meta.id,
                query.to_query(meta)
            ));
            query.compare = Some(CompareSide {
                variant: first_other_variant(meta, query.variant),
                params: query.params.clone(),
                seed: query.seed,
            });
            query.align = Align::Unit;
            query.present = true;
            links.push(format!(
                "https://example.github.io/slowpath/#/case/{}?{}",
                meta.id,
                query.to_query(meta)
            ));
        }
    }
    links
}

#[test]
fn every_preset_and_its_comparison_fits_200_characters() {
    let links = longest_links();
    assert!(links.len() > 2 * registry().len());
    let longest = links.iter().map(String::len).max().unwrap_or(0);
    println!("the longest preset link: {longest} characters");
    for link in links {
        // A workload the link carries (a packed text parameter, `<param>.z=`) is as
        // long as its text makes it, bounded by the parameter's limit; the rest of the
        // link still fits.
        let (rest, packed) = without_packed_text(&link);
        assert!(rest.len() <= 200, "{} characters besides its text: {link}", rest.len());
        assert!(packed.len() <= slowpath_app::player::url::text::packed_chars_max(4096), "{link}");
    }
}

/// The link without its `<param>.z=<packed>` pairs, and the packed values.
fn without_packed_text(link: &str) -> (String, String) {
    let Some((address, query)) = link.split_once('?') else { return (link.to_string(), String::new()) };
    let (packed, rest): (Vec<&str>, Vec<&str>) =
        query.split('&').partition(|pair| pair.split('=').next().is_some_and(|key| key.ends_with(".z")));
    (format!("{address}?{}", rest.join("&")), packed.join("&"))
}

#[test]
fn a_comparison_writes_only_what_differs_and_reads_back() {
    let meta = playground();
    let (query, notices) = PlayerQuery::parse(meta, "readers=8&cmp=no-spin&cmp.readers=16&align=unit");
    assert!(notices.is_empty(), "{notices:?}");
    let side = query.compare.clone().expect("compare on");
    assert_eq!(side.variant, "no-spin");
    assert_eq!(side.params.unsigned("readers"), 16);
    assert_eq!(side.seed, query.seed);
    assert_eq!(query.align, Align::Unit);
    // What the second side does not set follows the first side.
    assert_eq!(
        side.params.0.iter().filter(|(name, _)| *name != "readers").collect::<Vec<_>>(),
        query.params.0.iter().filter(|(name, _)| *name != "readers").collect::<Vec<_>>()
    );
    assert_eq!(query.to_query(meta), "lv=7&readers=8&cmp=no-spin&cmp.readers=16&align=unit");
    // The same variant with other parameters (20 against 40 threads, say).
    let (same, _) = PlayerQuery::parse(meta, "readers=20&cmp=v6.13&cmp.readers=40&cmp.seed=7");
    assert_eq!(same.compare.as_ref().map(|side| (side.variant, side.seed)), Some(("v6.13", 7)));
    assert_eq!(PlayerQuery::parse(meta, &same.to_query(meta)).0, same);
    // A parameter the first side sets and the second puts back to its default is written.
    let mut back = same.clone();
    let default = meta.default_params();
    back.compare.as_mut().unwrap().params = default;
    assert_eq!(PlayerQuery::parse(meta, &back.to_query(meta)).0, back);
    // Without `cmp` there is no second side, and align alone is not written.
    let plain = PlayerQuery::parse(meta, "align=unit").0;
    assert_eq!(plain, PlayerQuery::defaults(meta));
    assert_eq!(plain.to_query(meta), "");
}

#[test]
fn bad_comparison_keys_are_replaced_with_notices() {
    let meta = playground();
    let (query, notices) =
        PlayerQuery::parse(meta, "cmp=v9&cmp.readers=9999&cmp.seed=x&cmp.zzz=1&align=sideways");
    let side = query.compare.expect("compare on");
    assert_ne!(side.variant, "v9");
    assert_eq!(side.variant, first_other_variant(meta, query.variant));
    assert_eq!(side.params.unsigned("readers"), 64);
    assert_eq!(side.seed, query.seed);
    assert_eq!(query.align, Align::Time);
    let params: Vec<&str> = notices.iter().map(|n| n.param.as_str()).collect();
    assert_eq!(params, ["align", "cmp", "cmp.readers", "cmp.seed", "cmp"]);
}
