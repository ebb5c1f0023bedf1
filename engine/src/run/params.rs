//! Parameter schemas, parsing of user text (with units) and validation.
//!
//! Everything here takes untrusted text (a link, a form field, a CLI flag) and
//! either returns a value inside the schema's range or says, naming the
//! parameter and its range, what it changed or why it refused.

use crate::run::narration::group_digits;
pub use crate::run::quote::{is_invisible_format, quote_input, QUOTE_CHARS_MAX};
use crate::run::wire::codec::{wire_enum, wire_struct};
use std::collections::BTreeMap;
use std::fmt;

/// What kind of value a parameter holds, with its range and default.
///
/// Integers are stored in base units: nanoseconds for durations, bytes for sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// A plain count (threads, iterations, CPUs).
    Count { min: u64, max: u64, default: u64 },
    /// A duration in nanoseconds; accepts `ns`, `us`, `ms`, `s` suffixes.
    Duration { min_ns: u64, max_ns: u64, default_ns: u64 },
    /// A size in bytes; accepts `B`, `KiB`, `MiB`, `GiB`, `TiB` suffixes.
    Size { min_bytes: u64, max_bytes: u64, default_bytes: u64 },
    /// A signed integer such as a nice value.
    Signed { min: i64, max: i64, default: i64 },
    /// A boolean switch: `on`/`off`, `true`/`false`, `1`/`0`.
    Switch { default: bool },
    /// One of a fixed list of words.
    Choice { options: &'static [&'static str], default: &'static str },
    /// Free text up to `max_bytes` (a workload): the case reads it, and
    /// `Case::check_params` says before a run why it cannot run.
    Text { max_bytes: usize, default: &'static str },
}

/// One entry of a case's parameter schema.
#[derive(Clone, Copy, Debug)]
pub struct ParamSpec {
    /// The key used in links and on the command line.
    pub name: &'static str,
    /// A short label for the parameter panel.
    pub label: &'static str,
    pub kind: ParamKind,
    /// One sentence: what the parameter changes in the model.
    pub description: &'static str,
}

/// A validated parameter value, in base units.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(untagged))]
pub enum ParamValue {
    Unsigned(u64),
    Signed(i64),
    Switch(bool),
    Word(String),
}
wire_enum!(ParamValue { 0 => Unsigned(value), 1 => Signed(value), 2 => Switch(value), 3 => Word(value) });

/// A full, validated set of parameters: one value for every name in the schema.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ParamValues(pub BTreeMap<String, ParamValue>);
wire_struct!(ParamValues(0));

/// Something validation changed, for the UI to show ("clamped `readers` to 64").
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Notice {
    pub param: String,
    pub message: String,
}

/// A parameter that could not be accepted at all (strict mode, e.g. the CLI).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamError {
    pub param: String,
    pub message: String,
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "parameter `{}`: {}", self.param, self.message)
    }
}

impl std::error::Error for ParamError {}

impl ParamKind {
    pub fn default_value(&self) -> ParamValue {
        match *self {
            ParamKind::Count { default, .. } => ParamValue::Unsigned(default),
            ParamKind::Duration { default_ns, .. } => ParamValue::Unsigned(default_ns),
            ParamKind::Size { default_bytes, .. } => ParamValue::Unsigned(default_bytes),
            ParamKind::Signed { default, .. } => ParamValue::Signed(default),
            ParamKind::Switch { default } => ParamValue::Switch(default),
            ParamKind::Choice { default, .. } | ParamKind::Text { default, .. } => {
                ParamValue::Word(default.to_string())
            }
        }
    }

    /// The unit shown next to the input, if any.
    pub fn unit(&self) -> &'static str {
        match self {
            ParamKind::Duration { .. } => "time",
            ParamKind::Size { .. } => "bytes",
            _ => "",
        }
    }

    /// A human description of the accepted range, used in every message.
    pub fn range_text(&self) -> String {
        use crate::run::format;
        match *self {
            ParamKind::Count { min, max, .. } => format!("{} to {}", group_digits(min), group_digits(max)),
            ParamKind::Duration { min_ns, max_ns, .. } => {
                format!("{} to {}", format::duration(min_ns), format::duration(max_ns))
            }
            ParamKind::Size { min_bytes, max_bytes, .. } => {
                format!("{} to {}", format::size(min_bytes), format::size(max_bytes))
            }
            ParamKind::Signed { min, max, .. } => {
                format!("{} to {}", format::signed(min), format::signed(max))
            }
            ParamKind::Switch { .. } => "on or off".to_string(),
            ParamKind::Choice { options, .. } => options.join(", "),
            ParamKind::Text { max_bytes, .. } => {
                format!("text of at most {} bytes", group_digits(max_bytes as u64))
            }
        }
    }
}

impl ParamSpec {
    /// Parses `text` for this parameter and clamps it into range.
    ///
    /// Returns the value and, when the text was changed to fit, a notice.
    /// Text that cannot be read at all falls back to the default with a notice.
    pub fn parse_clamped(&self, text: &str) -> (ParamValue, Option<Notice>) {
        match self.parse_strict(text) {
            Ok(value) => (value, None),
            Err(Clamp::OutOfRange { clamped, .. }) => {
                let shown = self.format_value(&clamped);
                let notice = Notice {
                    param: self.name.to_string(),
                    message: format!(
                        "`{}` = `{}` is outside {}; using {}",
                        self.name,
                        quote_input(text),
                        self.kind.range_text(),
                        shown
                    ),
                };
                (clamped, Some(notice))
            }
            Err(Clamp::Unreadable { reason }) => {
                let fallback = self.kind.default_value();
                let notice = Notice {
                    param: self.name.to_string(),
                    message: format!(
                        "`{}` = `{}` is not valid ({reason}); using the default {}",
                        self.name,
                        quote_input(text),
                        self.format_value(&fallback)
                    ),
                };
                (fallback, Some(notice))
            }
        }
    }

    /// Parses `text` for this parameter; anything not exactly acceptable is an error.
    pub fn parse_exact(&self, text: &str) -> Result<ParamValue, ParamError> {
        self.parse_strict(text).map_err(|clamp| ParamError {
            param: self.name.to_string(),
            message: match clamp {
                Clamp::OutOfRange { .. } => {
                    format!("`{}` is outside the range {}", quote_input(text), self.kind.range_text())
                }
                Clamp::Unreadable { reason } => format!(
                    "`{}` is not valid ({reason}); expected {}{}",
                    quote_input(text),
                    if matches!(self.kind, ParamKind::Choice { .. }) { "one of " } else { "" },
                    self.kind.range_text()
                ),
            },
        })
    }

    fn parse_strict(&self, text: &str) -> Result<ParamValue, Clamp> {
        if let ParamKind::Text { max_bytes, .. } = self.kind {
            // Text is kept as written (its lines and spaces may matter); too long is refused, not cut.
            return if text.len() <= max_bytes {
                Ok(ParamValue::Word(text.to_string()))
            } else {
                Err(Clamp::Unreadable { reason: format!("{} bytes, more than {max_bytes}", text.len()) })
            };
        }
        let text = text.trim();
        match self.kind {
            ParamKind::Count { min, max, .. } => {
                let value = parse_scaled(text, &[("", 1)], "not a whole number")?;
                clamp_unsigned(value, min, max)
            }
            ParamKind::Duration { min_ns, max_ns, .. } => {
                let value = parse_duration(text)?;
                clamp_unsigned(value, min_ns, max_ns)
            }
            ParamKind::Size { min_bytes, max_bytes, .. } => {
                let value = parse_scaled(text, SIZE_UNITS, SIZE_EXPECTED)?;
                clamp_unsigned(value, min_bytes, max_bytes)
            }
            ParamKind::Signed { min, max, .. } => {
                let value: i64 = text
                    .parse()
                    .map_err(|_| Clamp::Unreadable { reason: "not a whole number".to_string() })?;
                if value < min || value > max {
                    Err(Clamp::OutOfRange { clamped: ParamValue::Signed(value.clamp(min, max)) })
                } else {
                    Ok(ParamValue::Signed(value))
                }
            }
            ParamKind::Switch { .. } => match text.to_ascii_lowercase().as_str() {
                "on" | "true" | "1" | "yes" => Ok(ParamValue::Switch(true)),
                "off" | "false" | "0" | "no" => Ok(ParamValue::Switch(false)),
                _ => Err(Clamp::Unreadable { reason: "not a switch".to_string() }),
            },
            ParamKind::Choice { options, .. } => options
                .iter()
                .find(|option| option.eq_ignore_ascii_case(text))
                .map(|option| ParamValue::Word(option.to_string()))
                .ok_or_else(|| Clamp::Unreadable { reason: "not one of the choices".to_string() }),
            // Read above, before the trim.
            ParamKind::Text { .. } => Ok(ParamValue::Word(text.to_string())),
        }
    }

    /// Formats a value the way links and inputs show it (`10ms`, `1TiB`, `on`).
    pub fn format_value(&self, value: &ParamValue) -> String {
        match (self.kind, value) {
            (ParamKind::Duration { .. }, ParamValue::Unsigned(ns)) => format_duration(*ns),
            (ParamKind::Size { .. }, ParamValue::Unsigned(bytes)) => format_size(*bytes),
            (_, ParamValue::Unsigned(v)) => v.to_string(),
            (_, ParamValue::Signed(v)) => v.to_string(),
            (_, ParamValue::Switch(v)) => if *v { "on" } else { "off" }.to_string(),
            (_, ParamValue::Word(w)) => w.clone(),
        }
    }
}

enum Clamp {
    OutOfRange { clamped: ParamValue },
    Unreadable { reason: String },
}

// A duration needs its unit (only zero is the same in every unit), on the command
// line and in links alike: a bare number once meant nanoseconds, silently.
const DURATION_UNITS: &[(&str, u64)] =
    &[("ns", 1), ("us", 1_000), ("µs", 1_000), ("ms", 1_000_000), ("s", 1_000_000_000)];
/// Why a duration was refused, naming the units it accepts.
pub const DURATION_EXPECTED: &str = "not a duration; units: ns, us or µs, ms, s, as in 10ms";
/// Why a size was refused, naming the units it accepts.
pub const SIZE_EXPECTED: &str = "not a size; units: B, KiB, MiB, GiB, TiB (or K, M, G, T), as in 4KiB";
const SIZE_UNITS: &[(&str, u64)] = &[
    ("tib", 1 << 40),
    ("gib", 1 << 30),
    ("mib", 1 << 20),
    ("kib", 1 << 10),
    ("t", 1 << 40),
    ("g", 1 << 30),
    ("m", 1 << 20),
    ("k", 1 << 10),
    ("b", 1),
    ("", 1),
];

/// A duration: a number and one of [`DURATION_UNITS`]; a bare zero is zero.
fn parse_duration(text: &str) -> Result<u64, Clamp> {
    let digits = text.replace('_', "");
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        if digits.bytes().all(|b| b == b'0') {
            return Ok(0);
        }
        return Err(Clamp::Unreadable {
            reason: "a bare number has no unit; units: ns, us or µs, ms, s, as in 10ms".to_string(),
        });
    }
    parse_scaled(text, DURATION_UNITS, DURATION_EXPECTED)
}

fn clamp_unsigned(value: u64, min: u64, max: u64) -> Result<ParamValue, Clamp> {
    if value < min || value > max {
        Err(Clamp::OutOfRange { clamped: ParamValue::Unsigned(value.clamp(min, max)) })
    } else {
        Ok(ParamValue::Unsigned(value))
    }
}

/// Parses `12`, `1.5ms`, `1TiB`: a decimal number and an optional unit suffix.
///
/// Saturates instead of overflowing, so `999999TiB` reads as "too large" and
/// is clamped rather than wrapping round to a small number.
fn parse_scaled(text: &str, units: &[(&str, u64)], why: &str) -> Result<u64, Clamp> {
    let unreadable = || Clamp::Unreadable { reason: why.to_string() };
    let lower = text.to_ascii_lowercase();
    let (number, scale) = units
        .iter()
        .find_map(|(suffix, scale)| lower.strip_suffix(suffix).map(|rest| (rest.trim(), *scale)))
        .ok_or_else(unreadable)?;
    let number = number.replace('_', "");
    if number.is_empty() || number.len() > 40 {
        return Err(unreadable());
    }
    let (whole, fraction) = match number.split_once('.') {
        Some((whole, fraction)) => (whole, fraction),
        None => (number.as_str(), ""),
    };
    if !whole.bytes().all(|b| b.is_ascii_digit()) || !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return Err(unreadable());
    }
    if whole.is_empty() && fraction.is_empty() {
        return Err(unreadable());
    }
    let mut value: u128 = 0;
    for digit in whole.bytes() {
        value = value.saturating_mul(10).saturating_add(u128::from(digit - b'0'));
    }
    value = value.saturating_mul(u128::from(scale));
    // Fractions are exact to the base unit: 1.5ms is 1,500,000 ns; finer digits round down.
    // The fraction must be exact in base units: 1.5ms and 1.5KiB are, 1.5ns and 1.5 threads are not.
    let fraction = fraction.trim_end_matches('0');
    if fraction.len() > 18 {
        return Err(unreadable());
    }
    let denominator = 10u128.pow(fraction.len() as u32);
    let numerator = fraction.parse::<u128>().unwrap_or(0) * u128::from(scale);
    if numerator % denominator != 0 {
        return Err(Clamp::Unreadable { reason: "finer than the smallest unit".to_string() });
    }
    value = value.saturating_add(numerator / denominator);
    Ok(u64::try_from(value).unwrap_or(u64::MAX))
}

/// `1500000` → `1.5ms`: the shortest exact form, used in links and labels.
pub fn format_duration(ns: u64) -> String {
    for (suffix, scale) in [("s", 1_000_000_000u64), ("ms", 1_000_000), ("us", 1_000)] {
        if ns >= scale {
            return format_scaled(ns, scale, suffix);
        }
    }
    format!("{ns}ns")
}

/// `1099511627776` → `1TiB`: the shortest exact form.
pub fn format_size(bytes: u64) -> String {
    for (suffix, shift) in [("TiB", 40u32), ("GiB", 30), ("MiB", 20), ("KiB", 10)] {
        let scale = 1u64 << shift;
        if bytes >= scale && bytes % scale == 0 {
            return format!("{}{suffix}", bytes / scale);
        }
    }
    format!("{bytes}B")
}

fn format_scaled(value: u64, scale: u64, suffix: &str) -> String {
    let whole = value / scale;
    let rest = value % scale;
    if rest == 0 {
        return format!("{whole}{suffix}");
    }
    let digits = scale.ilog10() as usize;
    let fraction = format!("{rest:0digits$}");
    format!("{whole}.{}{suffix}", fraction.trim_end_matches('0'))
}

impl ParamValues {
    /// The schema's defaults.
    pub fn defaults(schema: &[ParamSpec]) -> ParamValues {
        ParamValues(schema.iter().map(|spec| (spec.name.to_string(), spec.kind.default_value())).collect())
    }

    /// A valid set drawn from `draw(bound)` (a number below `bound`), leaning on
    /// the edges: each value is the minimum, the maximum, the default or spread
    /// log-uniformly in between. For searches over the parameter space (property
    /// tests, the worst-setting search), where the extremes are what matter.
    pub fn drawn(schema: &[ParamSpec], mut draw: impl FnMut(u64) -> u64) -> ParamValues {
        fn between(draw: &mut impl FnMut(u64) -> u64, min: u64, max: u64, default: u64) -> u64 {
            match draw(4) {
                0 => min,
                1 => max,
                2 => default,
                _ => {
                    // Log-uniform: a power of two's worth of spread at every scale.
                    let span = max - min;
                    let bits = 64 - span.leading_zeros();
                    let bound = 1u64 << draw(u64::from(bits) + 1).min(63);
                    min + draw(bound).min(span)
                }
            }
        }
        let values = schema
            .iter()
            .map(|spec| {
                let value = match spec.kind {
                    ParamKind::Count { min, max, default } => {
                        ParamValue::Unsigned(between(&mut draw, min, max, default))
                    }
                    ParamKind::Duration { min_ns, max_ns, default_ns } => {
                        ParamValue::Unsigned(between(&mut draw, min_ns, max_ns, default_ns))
                    }
                    ParamKind::Size { min_bytes, max_bytes, default_bytes } => {
                        ParamValue::Unsigned(between(&mut draw, min_bytes, max_bytes, default_bytes))
                    }
                    ParamKind::Signed { min, max, default } => {
                        let offset = between(&mut draw, 0, max.abs_diff(min), default.abs_diff(min));
                        ParamValue::Signed(min.saturating_add_unsigned(offset))
                    }
                    ParamKind::Switch { .. } => ParamValue::Switch(draw(2) == 1),
                    ParamKind::Choice { options, .. } => {
                        ParamValue::Word(options[draw(options.len() as u64) as usize].to_string())
                    }
                    // Random text is drawn by each case's own property tests, from its grammar.
                    ParamKind::Text { default, .. } => ParamValue::Word(default.to_string()),
                };
                (spec.name.to_string(), value)
            })
            .collect();
        ParamValues(values)
    }

    /// Builds a full set from `key=value` text pairs, clamping; unknown keys are ignored.
    pub fn from_pairs_clamped<'a>(
        schema: &[ParamSpec],
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> (ParamValues, Vec<Notice>) {
        let mut values = ParamValues::defaults(schema);
        let mut notices = Vec::new();
        for (key, text) in pairs {
            if let Some(spec) = schema.iter().find(|spec| spec.name == key) {
                let (value, notice) = spec.parse_clamped(text);
                values.0.insert(spec.name.to_string(), value);
                notices.extend(notice);
            }
        }
        (values, notices)
    }

    /// Builds a full set from `key=value` text pairs; any bad pair is an error.
    pub fn from_pairs_exact<'a>(
        schema: &[ParamSpec],
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<ParamValues, ParamError> {
        let mut values = ParamValues::defaults(schema);
        for (key, text) in pairs {
            let spec = schema.iter().find(|spec| spec.name == key).ok_or_else(|| ParamError {
                param: quote_input(key),
                message: format!(
                    "unknown parameter; this case takes {}",
                    schema.iter().map(|spec| spec.name).collect::<Vec<_>>().join(", ")
                ),
            })?;
            values.0.insert(spec.name.to_string(), spec.parse_exact(text)?);
        }
        Ok(values)
    }

    /// The pairs that differ from the defaults, formatted for a link.
    pub fn non_default_pairs(&self, schema: &[ParamSpec]) -> Vec<(&'static str, String)> {
        schema
            .iter()
            .filter_map(|spec| {
                let value = self.0.get(spec.name)?;
                (*value != spec.kind.default_value()).then(|| (spec.name, spec.format_value(value)))
            })
            .collect()
    }

    pub fn unsigned(&self, name: &str) -> u64 {
        match self.0.get(name) {
            Some(ParamValue::Unsigned(v)) => *v,
            other => panic!("parameter {name} is not unsigned: {other:?}"),
        }
    }

    pub fn signed(&self, name: &str) -> i64 {
        match self.0.get(name) {
            Some(ParamValue::Signed(v)) => *v,
            other => panic!("parameter {name} is not signed: {other:?}"),
        }
    }

    pub fn switch(&self, name: &str) -> bool {
        match self.0.get(name) {
            Some(ParamValue::Switch(v)) => *v,
            other => panic!("parameter {name} is not a switch: {other:?}"),
        }
    }

    pub fn word(&self, name: &str) -> &str {
        match self.0.get(name) {
            Some(ParamValue::Word(v)) => v,
            other => panic!("parameter {name} is not a word: {other:?}"),
        }
    }

    /// Checks that every schema entry is present and in range; the engine's own
    /// invariant, asserted before a run so that accessors above cannot fail.
    pub fn check(&self, schema: &[ParamSpec]) -> Result<(), ParamError> {
        for spec in schema {
            let value = self
                .0
                .get(spec.name)
                .ok_or_else(|| ParamError { param: spec.name.to_string(), message: "missing".to_string() })?;
            let text = spec.format_value(value);
            let reparsed = spec.parse_exact(&text)?;
            if reparsed != *value {
                return Err(ParamError {
                    param: spec.name.to_string(),
                    message: format!("value {value:?} does not fit {}", spec.kind.range_text()),
                });
            }
        }
        if let Some(extra) = self.0.keys().find(|key| !schema.iter().any(|spec| spec.name == *key)) {
            return Err(ParamError { param: quote_input(extra), message: "unknown parameter".to_string() });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TIME: ParamSpec = ParamSpec {
        name: "hold",
        label: "Hold",
        kind: ParamKind::Duration { min_ns: 1_000, max_ns: 1_000_000_000, default_ns: 50_000 },
        description: "",
    };
    const SIZE: ParamSpec = ParamSpec {
        name: "size",
        label: "Size",
        kind: ParamKind::Size { min_bytes: 4096, max_bytes: 128 << 40, default_bytes: 1 << 40 },
        description: "",
    };

    #[test]
    fn units_parse_and_format_round_trip() {
        assert_eq!(TIME.parse_exact("1.5ms"), Ok(ParamValue::Unsigned(1_500_000)));
        assert_eq!(TIME.parse_exact("250us"), Ok(ParamValue::Unsigned(250_000)));
        assert_eq!(TIME.format_value(&ParamValue::Unsigned(1_500_000)), "1.5ms");
        assert_eq!(SIZE.parse_exact("1TiB"), Ok(ParamValue::Unsigned(1 << 40)));
        assert_eq!(SIZE.parse_exact("64 KiB"), Ok(ParamValue::Unsigned(64 << 10)));
        assert_eq!(SIZE.format_value(&ParamValue::Unsigned(1 << 40)), "1TiB");
        assert!(TIME.parse_exact("1.5ns").is_err(), "finer than a nanosecond");
        assert_eq!(TIME.parse_exact("2.000us"), Ok(ParamValue::Unsigned(2_000)));
        assert_eq!(SIZE.parse_exact("4.5KiB"), Ok(ParamValue::Unsigned(4608)));
    }

    #[test]
    fn out_of_range_is_clamped_with_a_notice_naming_the_range() {
        let (value, notice) = SIZE.parse_clamped("999999999TiB");
        assert_eq!(value, ParamValue::Unsigned(128 << 40));
        let notice = notice.expect("a notice");
        assert!(notice.message.contains("4 KiB to 128 TiB"), "{}", notice.message);
        let (value, notice) = TIME.parse_clamped("banana");
        assert_eq!(value, ParamValue::Unsigned(50_000));
        assert!(notice.expect("a notice").message.contains("not valid"));
    }

    #[test]
    fn a_duration_needs_its_unit_but_zero() {
        let error = TIME.parse_exact("5").expect_err("a bare number");
        assert!(
            error.message.contains("no unit") && error.message.contains("ns, us or µs, ms, s"),
            "{error}"
        );
        const FROM_ZERO: ParamSpec =
            ParamSpec { kind: ParamKind::Duration { min_ns: 0, max_ns: 10, default_ns: 5 }, ..TIME };
        assert_eq!(FROM_ZERO.parse_exact("0"), Ok(ParamValue::Unsigned(0)));
        assert_eq!(FROM_ZERO.parse_exact("0ns"), Ok(ParamValue::Unsigned(0)));
        let error = SIZE.parse_exact("lots").expect_err("no size");
        assert!(error.message.contains("B, KiB, MiB, GiB, TiB"), "{error}");
    }

    proptest::proptest! {
        #[test]
        fn arbitrary_text_never_panics_and_lands_in_range(text in "\\PC{0,40}") {
            for spec in [TIME, SIZE] {
                let (value, _) = spec.parse_clamped(&text);
                let shown = spec.format_value(&value);
                proptest::prop_assert_eq!(spec.parse_exact(&shown), Ok(value));
            }
        }
    }
}
