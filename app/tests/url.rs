//! Links: the player's state in the URL, both ways, on the rwsem playground's parameters.

use proptest::prelude::*;
use slowpath_app::player::url::*;
use slowpath_engine::run::trace::Granularity;
use slowpath_engine::{registry, ParamValue};
use slowpath_engine::{CaseMeta, ParamValues};

fn playground() -> &'static CaseMeta {
    slowpath_engine::find("rwsem-playground").expect("registered").meta()
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
    assert_eq!(query.to_query(meta), "readers=8&read_hold=1.5ms&v=no-spin&seed=42&step=iter:120");
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
        let meta = case.meta();
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
    (params, 0..meta.variants.len(), any::<u64>(), 0usize..3, step, any::<bool>(), any::<bool>()).prop_map(
        move |(pairs, variant, seed, granularity, step, embed, present)| {
            let (params, _) = ParamValues::from_pairs_clamped(
                meta.params,
                pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())),
            );
            PlayerQuery {
                params,
                variant: meta.variants[variant].id,
                seed,
                granularity: Granularity::ALL[granularity],
                step: step.map(|(g, index)| (Granularity::ALL[g], index)),
                embed,
                present,
            }
        },
    )
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
        picks in proptest::collection::vec((0usize..64, 0usize..12), 0..12),
        noise in "\\PC{0,40}",
    ) {
        let meta = registry()[case_index % registry().len()].meta();
        let values = [
            "0", "-1", "18446744073709551616", "99999999999999999999TiB", "1.5ms", "%00", "%E2%88%92",
            "on", "", "\u{1b}[31m", "nan", &noise,
        ];
        let keys: Vec<&str> =
            meta.params.iter().map(|spec| spec.name).chain(["v", "seed", "step", "g", "embed", "present"]).collect();
        let link: Vec<String> =
            picks.iter().map(|&(k, v)| format!("{}={}", keys[k % keys.len()], values[v % values.len()])).collect();
        let (query, _) = PlayerQuery::parse(meta, &link.join("&"));
        prop_assert!(query.params.check(meta.params).is_ok());
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
    assert_eq!(query.to_query(meta), "readers=8&embed");
    assert_eq!(query.unembedded().to_query(meta), "readers=8");
    let (bare, _) = PlayerQuery::parse(meta, "embed");
    assert_eq!(bare.to_query(meta), "embed");
    assert!(slowpath_app::route::Route::parse("#/case/rwsem-playground?embed").embedded());
    assert!(!slowpath_app::route::Route::parse("#/case/rwsem-playground?readers=8").embedded());
}
