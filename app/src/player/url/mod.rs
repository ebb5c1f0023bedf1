//! The player's state in the URL, both ways.
//!
//! `#/case/<id>?lv=7&readers=8&v=no-spin&seed=3&step=iter:120&ch=…`: the link version
//! whose defaults it leaves out (`versions`), parameters under the schema's own
//! names (so a link says what it shows), `v` the variant, `seed`, and
//! `step=<granularity>:<index>` (0-based, the unit last executed) with `ch`, where
//! that step lies by chapter (`chapter`). Only values that
//! differ from the defaults are written, so links stay short. `docs/links.md` gives
//! the grammar's history; `+` is a plus sign (`codec`).
//! Reading is total: unknown keys are ignored, bad values are clamped or
//! replaced with a notice saying what changed. Plain Rust, tested on the host.
//!
//! Compare mode adds a second side: `cmp=<variant>` turns it on, `cmp.<param>=…`
//! and `cmp.seed=…` give what differs from the first side (the rest follows it),
//! and `align=unit` steps the two by the same unit instead of the same time.

pub mod chapter;
pub mod codec;
pub mod place;
pub mod text;
pub mod versions;

use slowpath_engine::run::params::{quote_input, Notice, ParamValues};
use slowpath_engine::run::trace::Granularity;
use slowpath_engine::CaseMeta;

/// "1 iteration step", "84 iteration steps": a run's length in the words of a notice.
pub fn steps_of(count: u64, unit: &str) -> String {
    slowpath_engine::run::narration::counted(count, &format!("{unit} step"), &format!("{unit} steps"))
}

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
    /// `ch`: where the step lies by chapter (link version 6), so that the link
    /// finds its moment on a later model; written only beside the step it was
    /// taken at (the player sets it from its run).
    pub chapter: Option<chapter::ChapterMark>,
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
            chapter: None,
            embed: false,
            present: false,
            compare: None,
            align: Align::Time,
        }
    }

    /// Reads a query string (without `?`). Never fails; says what it changed.
    pub fn parse(meta: &'static CaseMeta, query: &str) -> (PlayerQuery, Vec<Notice>) {
        let (pairs, unreadable) = text::unpacked_pairs(meta, &codec::pairs(query));
        let (made, version_notice) = versions::made(&pairs);
        let (parsed, mut notices) = PlayerQuery::parse_at(meta, &pairs, made.version);
        notices.extend(unreadable.into_iter().map(|(param, message)| Notice { param, message }));
        notices.extend(version_notice);
        if !made.tagged {
            notices.extend(untagged_notice(meta, &pairs));
        }
        (parsed, notices)
    }

    /// Reads a link's pairs with the defaults of link version `version`.
    fn parse_at(
        meta: &'static CaseMeta,
        pairs: &[(String, String)],
        version: u32,
    ) -> (PlayerQuery, Vec<Notice>) {
        let mut params = versions::defaults_at(meta, version);
        let mut notices = Vec::new();
        for (key, value) in pairs {
            if let Some(spec) = meta.params.iter().find(|spec| spec.name == key) {
                let (value, notice) = spec.parse_clamped(value);
                params.0.insert(spec.name.to_string(), value);
                notices.extend(notice);
            }
        }
        let mut parsed = PlayerQuery { params, ..PlayerQuery::defaults(meta) };
        let mut granularity = None;
        let mut chapter = None;
        for (key, value) in pairs {
            match key.as_str() {
                "embed" => parsed.embed = true,
                "present" => parsed.present = true,
                "v" => match find_variant(meta, value) {
                    Some(variant) => parsed.variant = variant,
                    None => notices.push(notice(
                        "v",
                        format!(
                            "there is no variant `{}`; showing {} ({})",
                            quote_input(value),
                            meta.default_variant().label,
                            meta.default_variant().id
                        ),
                    )),
                },
                "seed" => match value.parse::<u64>() {
                    Ok(seed) => parsed.seed = seed,
                    Err(_) => notices.push(notice(
                        "seed",
                        format!("`{}` is not a seed (a whole number); using {DEFAULT_SEED}", quote_input(value)),
                    )),
                },
                "step" => match parse_step(value) {
                    Some(step) => parsed.step = Some(step),
                    None => notices.push(notice(
                        "step",
                        format!(
                            "`{}` is not a position (e.g. `iter:12`, `micro:40`, `phase:2`); starting at the beginning",
                            quote_input(value)
                        ),
                    )),
                },
                chapter::CHAPTER_KEY => match chapter::parse_value(value) {
                    Some(mark) => chapter = Some(mark),
                    None => notices.push(notice(
                        chapter::CHAPTER_KEY,
                        format!(
                            "`{}` is not a place in a chapter (e.g. `sigkill-arrives:3of10`); the step is read alone",
                            quote_input(value)
                        ),
                    )),
                },
                "g" => match Granularity::from_key(value) {
                    Some(g) => granularity = Some(g),
                    None => notices.push(notice(
                        "g",
                        format!("`{}` is not a granularity (phase, iter or micro)", quote_input(value)),
                    )),
                },
                "align" => match Align::from_key(value) {
                    Some(align) => parsed.align = align,
                    None => notices.push(notice(
                        "align",
                        format!("`{}` is not an alignment (time or unit); aligning by time", quote_input(value)),
                    )),
                },
                _ => {}
            }
        }
        // A chapter means nothing without the step it places.
        parsed.chapter = parsed
            .step
            .zip(chapter)
            .map(|(step, (chapter, offset, span))| chapter::ChapterMark { step, chapter, offset, span });
        parsed.granularity = granularity.or(parsed.step.map(|(g, _)| g)).unwrap_or(DEFAULT_GRANULARITY);
        parsed.compare = parse_compare(meta, &parsed, pairs, &mut notices);
        if parsed.compare.is_none() {
            // Alignment means nothing without a second side, and a link would not keep it.
            parsed.align = Align::Time;
        }
        (parsed, notices)
    }

    /// The query string for this state (without `?`); defaults are left out, and
    /// anything written is tagged with the link version its defaults are from.
    pub fn to_query(&self, meta: &'static CaseMeta) -> String {
        let mut out = String::new();
        for (name, value) in self.params.non_default_pairs(meta.params) {
            // Every pair is of the schema; a text parameter goes packed.
            let (key, value) = match meta.params.iter().find(|spec| spec.name == name) {
                Some(spec) => text::written_pair(spec, name, value),
                None => (name.to_string(), value),
            };
            codec::push_pair(&mut out, &key, &value);
        }
        if self.variant != meta.default_variant().id {
            codec::push_pair(&mut out, "v", self.variant);
        }
        if self.seed != DEFAULT_SEED {
            codec::push_pair(&mut out, "seed", &self.seed.to_string());
        }
        if let Some((granularity, index)) = self.step {
            codec::push_pair(&mut out, "step", &format!("{}:{index}", granularity.key()));
        }
        if let Some(mark) = self.chapter.as_ref().filter(|mark| Some(mark.step) == self.step) {
            codec::push_pair(&mut out, chapter::CHAPTER_KEY, &mark.value());
        }
        let implied = self.step.map_or(DEFAULT_GRANULARITY, |(g, _)| g);
        if self.granularity != implied {
            codec::push_pair(&mut out, "g", self.granularity.key());
        }
        if let Some(side) = &self.compare {
            codec::push_pair(&mut out, "cmp", side.variant);
            for spec in meta.params {
                let theirs = side.params.0.get(spec.name);
                if let Some(value) = theirs.filter(|&value| self.params.0.get(spec.name) != Some(value)) {
                    let (key, value) =
                        text::written_pair(spec, &format!("cmp.{}", spec.name), spec.format_value(value));
                    codec::push_pair(&mut out, &key, &value);
                }
            }
            if side.seed != self.seed {
                codec::push_pair(&mut out, "cmp.seed", &side.seed.to_string());
            }
            if self.align != Align::Time {
                codec::push_pair(&mut out, "align", self.align.key());
            }
        }
        // Flags without a value, last: they say how the page shows, not what.
        for (on, flag) in [(self.present, "present"), (self.embed, "embed")] {
            if on {
                if !out.is_empty() {
                    out.push('&');
                }
                out.push_str(flag);
            }
        }
        if out.is_empty() {
            // A bare case link names the case, not a moment: it has nothing to tag.
            return out;
        }
        format!("{}={}&{out}", versions::VERSION_KEY, versions::LINK_VERSION)
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
            } else if let Some(variant) = find_variant(meta, value) {
                side.variant = variant;
            } else {
                let fallback = first_other_variant(meta, first.variant);
                side.variant = fallback;
                notices.push(notice(
                    "cmp",
                    format!(
                        "there is no variant `{}` to compare with; comparing with {fallback}",
                        quote_input(value)
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
                    format!("`{}` is not a seed (a whole number); using {}", quote_input(value), first.seed),
                )),
            }
        } else if let Some(spec) = meta.params.iter().find(|spec| spec.name == name) {
            let (value, clamped) = spec.parse_clamped(value);
            side.params.0.insert(spec.name.to_string(), value);
            // The notice names the side it is about: `cmp.threads`, not `threads`.
            notices.extend(clamped.map(|n| Notice {
                param: format!("cmp.{}", n.param),
                message: n.message.replacen(
                    &format!("`{}` =", spec.name),
                    &format!("`cmp.{}` =", spec.name),
                    1,
                ),
            }));
        } else {
            notices.push(notice(
                "cmp",
                format!("this case has no parameter `{}`; the comparison ignores it", quote_input(name)),
            ));
        }
    }
    on.then_some(side)
}

/// `iter:12` → (Iteration, 12); an index past any run's end (more digits than a
/// u64 holds) is the end, which is where a too-large index already goes.
fn parse_step(value: &str) -> Option<(Granularity, u64)> {
    let (key, index) = value.split_once(':')?;
    let granularity = Granularity::from_key(key)?;
    match index.parse() {
        Ok(index) => Some((granularity, index)),
        Err(_) if !index.is_empty() && index.bytes().all(|b| b.is_ascii_digit()) => {
            Some((granularity, u64::MAX))
        }
        Err(_) => None,
    }
}

/// A variant by id, with the same leniency as a choice's value: case and
/// surrounding spaces do not matter.
pub fn find_variant(meta: &'static CaseMeta, text: &str) -> Option<&'static str> {
    let text = text.trim();
    meta.variants.iter().find(|variant| variant.id.eq_ignore_ascii_case(text)).map(|variant| variant.id)
}

/// The one notice an untagged link gets when an older version's defaults would
/// read it otherwise: which reading it opens with, and each other one as a link.
fn untagged_notice(meta: &'static CaseMeta, pairs: &[(String, String)]) -> Option<Notice> {
    if pairs.is_empty() {
        return None;
    }
    let set: Vec<&str> = pairs.iter().map(|(key, _)| key.as_str()).collect();
    let readings = versions::older_readings(meta, &set);
    let stated_since = readings
        .first()
        .filter(|reading| reading.differs.is_empty())
        .map_or(versions::UNTAGGED_VERSION, |reading| reading.first);
    let others: Vec<String> = readings
        .iter()
        .filter(|reading| !reading.differs.is_empty())
        .map(|reading| {
            let differs: Vec<String> =
                reading.differs.iter().map(|(name, value)| format!("{name}={value}")).collect();
            let then = PlayerQuery::parse_at(meta, pairs, reading.last).0;
            let link =
                crate::route::Route::Case { id: meta.id.to_string(), query: then.to_query(meta) }.to_hash();
            // The reading just before the stated one ends where it begins: "then".
            let when = match (reading.first <= 1, reading.last + 1 == stated_since) {
                (true, true) => "before then".to_string(),
                (false, true) => format!("from {} to then", versions::since_of(reading.first)),
                _ => versions::made_when(reading.first, reading.last),
            };
            format!("Made {when}, it meant {}: {link}", differs.join(", "))
        })
        .collect();
    if others.is_empty() {
        return None;
    }
    Some(notice(
        versions::VERSION_KEY,
        format!(
            "this link has no version tag, so it opens as links made since {} do. {}",
            versions::since_of(stated_since),
            others.join(" ")
        ),
    ))
}

fn notice(param: &str, message: String) -> Notice {
    Notice { param: param.to_string(), message }
}
