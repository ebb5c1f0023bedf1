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
    /// `embed`: the page is framed in someone else's page: the stage and the
    /// transport only, with a link to open the whole case.
    pub embed: bool,
    /// `present`: the presenter view (projector theme, large narration, a QR code
    /// of the link, secondary panels hidden).
    pub present: bool,
}

impl PlayerQuery {
    pub fn defaults(meta: &'static CaseMeta) -> PlayerQuery {
        PlayerQuery {
            params: meta.default_params(),
            variant: meta.default_variant().id,
            seed: DEFAULT_SEED,
            granularity: DEFAULT_GRANULARITY,
            step: None,
            embed: false,
            present: false,
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
                "embed" => parsed.embed = true,
                "present" => parsed.present = true,
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
        let mut query = out.finish().replace("%3A", ":");
        // Flags without a value, last: they say how the page shows, not what.
        for (on, flag) in [(self.present, "present"), (self.embed, "embed")] {
            if on {
                if !query.is_empty() {
                    query.push('&');
                }
                query.push_str(flag);
            }
        }
        query
    }

    /// The same moment as a link to the whole case page (an embed's "open in slowpath").
    pub fn unembedded(&self) -> PlayerQuery {
        PlayerQuery { embed: false, ..self.clone() }
    }

    /// The same moment as a student opens it: no embed, no presenter view.
    pub fn plain(&self) -> PlayerQuery {
        PlayerQuery { embed: false, present: false, ..self.clone() }
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
