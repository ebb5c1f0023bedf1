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
    (params, 0..meta.variants.len(), any::<u64>(), 0usize..3, step, any::<bool>()).prop_map(
        move |(pairs, variant, seed, granularity, step, embed)| {
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
