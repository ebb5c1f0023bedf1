//! The player's state in the URL, both ways.
//!
//! `#/case/<id>?readers=8&v=no-spin&seed=3&step=iter:120`: parameters under the
//! schema's own names (so a link says what it shows), `v` the variant, `seed`,
//! and `step=<granularity>:<index>` (0-based, the unit last executed). Only
//! values that differ from the defaults are written, so links stay short.
//! Reading is total: unknown keys are ignored, bad values are clamped or
//! replaced with a notice saying what changed. Plain Rust, tested on the host.

use slowpath_engine::run::params::{Notice, ParamValues};
use slowpath_engine::run::trace::Granularity;
use slowpath_engine::CaseMeta;

pub const DEFAULT_SEED: u64 = 1;
pub const DEFAULT_GRANULARITY: Granularity = Granularity::Iteration;

/// Everything a link says about a case, validated against its schema.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerQuery {
    pub params: ParamValues,
    pub variant: &'static str,
    pub seed: u64,
    /// The granularity the transport steps at.
    pub granularity: Granularity,
    /// The position: the unit last executed at some granularity (0-based);
    /// None is the initial state. Written at the selected granularity when the
    /// position is on one of its boundaries, else at micro-op granularity.
    pub step: Option<(Granularity, u64)>,
}

impl PlayerQuery {
    pub fn defaults(meta: &'static CaseMeta) -> PlayerQuery {
        PlayerQuery {
            params: meta.default_params(),
            variant: meta.default_variant().id,
            seed: DEFAULT_SEED,
            granularity: DEFAULT_GRANULARITY,
            step: None,
        }
    }

    /// Reads a query string (without `?`). Never fails; says what it changed.
    pub fn parse(meta: &'static CaseMeta, query: &str) -> (PlayerQuery, Vec<Notice>) {
        let pairs: Vec<(String, String)> =
            form_urlencoded::parse(query.as_bytes()).map(|(k, v)| (k.into_owned(), v.into_owned())).collect();
        let (params, mut notices) = ParamValues::from_pairs_clamped(
            meta.params,
            pairs.iter().map(|(key, value)| (key.as_str(), value.as_str())),
        );
        let mut parsed = PlayerQuery { params, ..PlayerQuery::defaults(meta) };
        let mut granularity = None;
        for (key, value) in &pairs {
            match key.as_str() {
                "v" => match meta.variant(value) {
                    Some(variant) => parsed.variant = variant.id,
                    None => notices.push(notice(
                        "v",
                        format!(
                            "there is no variant `{}`; showing {} ({})",
                            short(value),
                            meta.default_variant().label,
                            meta.default_variant().id
                        ),
                    )),
                },
                "seed" => match value.parse::<u64>() {
                    Ok(seed) => parsed.seed = seed,
                    Err(_) => notices.push(notice(
                        "seed",
                        format!("`{}` is not a seed (a whole number); using {DEFAULT_SEED}", short(value)),
                    )),
                },
                "step" => match parse_step(value) {
                    Some(step) => parsed.step = Some(step),
                    None => notices.push(notice(
                        "step",
                        format!(
                            "`{}` is not a position (e.g. `iter:12`, `micro:40`, `phase:2`); starting at the beginning",
                            short(value)
                        ),
                    )),
                },
                "g" => match Granularity::from_key(value) {
                    Some(g) => granularity = Some(g),
                    None => notices.push(notice(
                        "g",
                        format!("`{}` is not a granularity (phase, iter or micro)", short(value)),
                    )),
                },
                _ => {}
            }
        }
        parsed.granularity = granularity.or(parsed.step.map(|(g, _)| g)).unwrap_or(DEFAULT_GRANULARITY);
        (parsed, notices)
    }

    /// The query string for this state (without `?`); defaults are left out.
    pub fn to_query(&self, meta: &'static CaseMeta) -> String {
        let mut out = form_urlencoded::Serializer::new(String::new());
        for (name, value) in self.params.non_default_pairs(meta.params) {
            out.append_pair(name, &value);
        }
        if self.variant != meta.default_variant().id {
            out.append_pair("v", self.variant);
        }
        if self.seed != DEFAULT_SEED {
            out.append_pair("seed", &self.seed.to_string());
        }
        if let Some((granularity, index)) = self.step {
            out.append_pair("step", &format!("{}:{index}", granularity.key()));
        }
        let implied = self.step.map_or(DEFAULT_GRANULARITY, |(g, _)| g);
        if self.granularity != implied {
            out.append_pair("g", self.granularity.key());
        }
        // `:` is legal in a query and reads better than `%3A` in `step=iter:120`.
        out.finish().replace("%3A", ":")
    }
}

/// `iter:12` → (Iteration, 12).
fn parse_step(value: &str) -> Option<(Granularity, u64)> {
    let (key, index) = value.split_once(':')?;
    Some((Granularity::from_key(key)?, index.parse().ok()?))
}

fn notice(param: &str, message: String) -> Notice {
    Notice { param: param.to_string(), message }
}

fn short(text: &str) -> String {
    let mut short: String = text.chars().take(24).collect();
    if text.chars().count() > 24 {
        short.push('…');
    }
    short
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use slowpath_engine::{registry, ParamValue};

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
        assert!(notices[0].message.contains("0..=64"), "{}", notices[0].message);
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
        (params, 0..meta.variants.len(), any::<u64>(), 0usize..3, step).prop_map(
            move |(pairs, variant, seed, granularity, step)| {
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
}
