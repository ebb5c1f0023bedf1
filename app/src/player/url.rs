//! The player's state in the URL, both ways.
//!
//! `#/case/<id>?readers=8&v=no-spin&seed=3&step=iter:120`: parameters under the
//! schema's own names (so a link says what it shows), `v` the variant, `seed`,
//! and `step=<granularity>:<index>` (0-based, the unit last executed). Only
//! values that differ from the defaults are written, so links stay short.
//! Reading is total: unknown keys are ignored, bad values are clamped or
//! replaced with a notice saying what changed. Plain Rust, tested on the host.
//!
//! Compare mode adds a second side: `cmp=<variant>` turns it on, `cmp.<param>=…`
//! and `cmp.seed=…` give what differs from the first side (the rest follows it),
//! and `align=unit` steps the two by the same unit instead of the same time.

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
    /// The second side of compare mode, if on.
    pub compare: Option<CompareSide>,
    /// How the second side follows the first (`align`).
    pub align: Align,
}

/// Compare mode's second side: the same case with its own variant, parameters
/// and seed (a full set; the link writes only what differs from the first side).
#[derive(Clone, Debug, PartialEq)]
pub struct CompareSide {
    pub variant: &'static str,
    pub params: ParamValues,
    pub seed: u64,
}

/// How one transport moves the second side of a comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// The last step at or before the first side's simulated time.
    Time,
    /// The same unit index (phase, iteration, micro-op) at the selected granularity.
    Unit,
}

impl Align {
    pub fn key(self) -> &'static str {
        match self {
            Align::Time => "time",
            Align::Unit => "unit",
        }
    }

    pub fn from_key(key: &str) -> Option<Align> {
        [Align::Time, Align::Unit].into_iter().find(|align| align.key() == key)
    }
}

/// The variant a comparison starts with: the first fix, else the first other variant.
pub fn first_other_variant(meta: &'static CaseMeta, variant: &str) -> &'static str {
    let others = || meta.variants.iter().filter(|other| other.id != variant);
    others()
        .find(|other| other.group == slowpath_engine::case::VariantGroup::Fix)
        .or_else(|| others().next())
        .map_or(meta.default_variant().id, |other| other.id)
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
            compare: None,
            align: Align::Time,
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
                "align" => match Align::from_key(value) {
                    Some(align) => parsed.align = align,
                    None => notices.push(notice(
                        "align",
                        format!("`{}` is not an alignment (time or unit); aligning by time", short(value)),
                    )),
                },
                _ => {}
            }
        }
        parsed.granularity = granularity.or(parsed.step.map(|(g, _)| g)).unwrap_or(DEFAULT_GRANULARITY);
        parsed.compare = parse_compare(meta, &parsed, &pairs, &mut notices);
        if parsed.compare.is_none() {
            // Alignment means nothing without a second side, and a link would not keep it.
            parsed.align = Align::Time;
        }
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
        if let Some(side) = &self.compare {
            out.append_pair("cmp", side.variant);
            for spec in meta.params {
                let theirs = side.params.0.get(spec.name);
                if let Some(value) = theirs.filter(|&value| self.params.0.get(spec.name) != Some(value)) {
                    out.append_pair(&format!("cmp.{}", spec.name), &spec.format_value(value));
                }
            }
            if side.seed != self.seed {
                out.append_pair("cmp.seed", &side.seed.to_string());
            }
            if self.align != Align::Time {
                out.append_pair("align", self.align.key());
            }
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

/// The second side from `cmp`, `cmp.<param>` and `cmp.seed`: the first side's
/// settings with these changed; on when any of them is present.
fn parse_compare(
    meta: &'static CaseMeta,
    first: &PlayerQuery,
    pairs: &[(String, String)],
    notices: &mut Vec<Notice>,
) -> Option<CompareSide> {
    let mut side = CompareSide { variant: first.variant, params: first.params.clone(), seed: first.seed };
    let mut on = false;
    for (key, value) in pairs {
        if key == "cmp" {
            on = true;
            if value.is_empty() {
                side.variant = first.variant;
            } else if let Some(variant) = meta.variant(value) {
                side.variant = variant.id;
            } else {
                let fallback = first_other_variant(meta, first.variant);
                side.variant = fallback;
                notices.push(notice(
                    "cmp",
                    format!(
                        "there is no variant `{}` to compare with; comparing with {fallback}",
                        short(value)
                    ),
                ));
            }
            continue;
        }
        let Some(name) = key.strip_prefix("cmp.") else { continue };
        on = true;
        if name == "seed" {
            match value.parse::<u64>() {
                Ok(seed) => side.seed = seed,
                Err(_) => notices.push(notice(
                    "cmp.seed",
                    format!("`{}` is not a seed (a whole number); using {}", short(value), first.seed),
                )),
            }
        } else if let Some(spec) = meta.params.iter().find(|spec| spec.name == name) {
            let (value, clamped) = spec.parse_clamped(value);
            side.params.0.insert(spec.name.to_string(), value);
            notices.extend(clamped.map(|n| Notice { param: format!("cmp.{}", n.param), ..n }));
        } else {
            notices.push(notice(
                "cmp",
                format!("this case has no parameter `{}`; the comparison ignores it", short(name)),
            ));
        }
    }
    on.then_some(side)
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
