//! Link versions: every link written carries `lv=<n>`, and each version keeps the
//! defaults it had, so that a link opens with the parameters it was made with.
//!
//! Links leave defaults out, so a default that changes would change the meaning of
//! every link made before it. A tagged link is read with its version's defaults.
//! Links made before tags existed are read with [`UNTAGGED_VERSION`]'s defaults,
//! and where an older version's defaults differ for what the link leaves out, one
//! notice says so and gives the other reading as a link. The history is in
//! `docs/links.md`; the tables below are its defaults.

use slowpath_engine::run::params::{quote_input, Notice, ParamValues};
use slowpath_engine::CaseMeta;

/// The version every new link is written with.
pub const LINK_VERSION: u32 = 5;
/// The query key of the version.
pub const VERSION_KEY: &str = "lv";
/// The version an untagged link is read as: the last one before links were tagged.
pub const UNTAGGED_VERSION: u32 = 5;

/// One version of the links' defaults: from when it held, and the commit that began it.
#[derive(Clone, Copy, Debug)]
pub struct Version {
    pub number: u32,
    pub since: &'static str,
    pub commit: &'static str,
}

/// Every version, oldest first; a new one is added when a default changes or a
/// case's model moves its positions (see [`MODEL_CHANGES`]).
pub const VERSIONS: &[Version] = &[
    Version { number: 1, since: "29 Nov 2026", commit: "62e0435" },
    Version { number: 2, since: "30 Nov 2026 18:51 UTC", commit: "d7eb79b" },
    Version { number: 3, since: "30 Nov 2026 22:58 UTC", commit: "436228b" },
    Version { number: 4, since: "30 Nov 2026 23:26 UTC", commit: "dd22a42" },
    Version { number: 5, since: "3 Dec 2026 10:38 UTC", commit: "e9e9686" },
];

/// A default that changed: links of versions before `since` meant `before`.
#[derive(Clone, Copy, Debug)]
pub struct DefaultChange {
    pub case: &'static str,
    pub param: &'static str,
    pub since: u32,
    /// The value, as links write it, that gives what links meant before.
    pub before: &'static str,
}

/// Every default that changed, from git history (`docs/links.md` gives the commits).
pub const DEFAULT_CHANGES: &[DefaultChange] = &[
    // Before runsc ps existed the benchmark ran without it.
    DefaultChange { case: "gvisor-threadgroups", param: "runsc_ps", since: 2, before: "off" },
    DefaultChange { case: "fifo-trigger", param: "loop_ps", since: 3, before: "550" },
    DefaultChange { case: "fifo-trigger", param: "print_cost", since: 3, before: "140us" },
    // Before the knob the listener's first slice was half of a nice-0 slice.
    DefaultChange { case: "fifo-trigger", param: "shell_slice", since: 3, before: "102ms" },
    DefaultChange { case: "fifo-trigger", param: "print_cost", since: 4, before: "155us" },
    // Before the knob the program ran with no CPU limit.
    DefaultChange { case: "coredump-threads", param: "rlimit_cpu", since: 5, before: "none" },
];

/// A case whose model changed so that positions moved: links of versions before
/// `since` were made on the earlier model. Empty while no tagged link predates a
/// change; untagged links are always treated as possibly earlier.
pub const MODEL_CHANGES: &[(&str, u32)] = &[];

/// Each case's default trace hash at [`LINK_VERSION`] (the engine's golden hashes):
/// a test fails when one changes, so that a model change adds a version.
pub const MODEL_FINGERPRINTS: &[(&str, &str)] = &[
    ("rwsem-playground", "e90627a6a7dca6c0"),
    ("fifo-trigger", "66a66955f45815ce"),
    ("gvisor-threadgroups", "eda2a70aa7019807"),
    ("coredump-threads", "2c56651ee0cf73fe"),
];

/// How a link says which version it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Made {
    pub version: u32,
    pub tagged: bool,
}

impl Made {
    /// Whether the link's positions may be on an earlier model of `case` than today's.
    pub fn earlier_model(self, case: &str) -> bool {
        !self.tagged || MODEL_CHANGES.iter().any(|&(id, since)| id == case && self.version < since)
    }
}

/// Reads `lv` from a link's pairs; a missing tag is [`UNTAGGED_VERSION`], a bad one
/// or one from a newer slowpath is read as [`LINK_VERSION`] with a notice.
pub fn made(pairs: &[(String, String)]) -> (Made, Option<Notice>) {
    let Some((_, text)) = pairs.iter().rev().find(|(key, _)| key == VERSION_KEY) else {
        return (Made { version: UNTAGGED_VERSION, tagged: false }, None);
    };
    let current = Made { version: LINK_VERSION, tagged: true };
    match text.parse::<u32>() {
        Ok(version) if (1..=LINK_VERSION).contains(&version) => (Made { version, tagged: true }, None),
        Ok(version) if version > LINK_VERSION => (
            current,
            Some(notice(format!(
                "this link is from a newer slowpath (link version {version}); it is read as version {LINK_VERSION}, the newest this one knows"
            ))),
        ),
        _ => (
            current,
            Some(notice(format!(
                "`{}` is not a link version (1 to {LINK_VERSION}); it is read as version {LINK_VERSION}",
                quote_input(text)
            ))),
        ),
    }
}

/// The defaults links of `version` had for `meta`'s case.
pub fn defaults_at(meta: &'static CaseMeta, version: u32) -> ParamValues {
    let mut values = meta.default_params();
    let mut changes: Vec<&DefaultChange> =
        DEFAULT_CHANGES.iter().filter(|change| change.case == meta.id && change.since > version).collect();
    // Newest first, so that the oldest change a version predates has the last word.
    changes.sort_by_key(|change| std::cmp::Reverse(change.since));
    for change in changes {
        if let Some(spec) = meta.params.iter().find(|spec| spec.name == change.param) {
            values.0.insert(spec.name.to_string(), spec.parse_clamped(change.before).0);
        }
    }
    values
}

/// One older reading of an untagged link: the versions it covers and what differs.
pub struct Reading {
    pub first: u32,
    pub last: u32,
    pub differs: Vec<(&'static str, String)>,
}

/// The older readings of an untagged link that leaves out `set`'s complement: each
/// run of versions whose defaults differ alike from [`UNTAGGED_VERSION`]'s, newest first.
pub fn older_readings(meta: &'static CaseMeta, set: &[&str]) -> Vec<Reading> {
    let today = defaults_at(meta, UNTAGGED_VERSION);
    let mut readings: Vec<Reading> = Vec::new();
    for version in (1..UNTAGGED_VERSION).rev() {
        let then = defaults_at(meta, version);
        let differs: Vec<(&'static str, String)> = meta
            .params
            .iter()
            .filter(|spec| !set.contains(&spec.name) && then.0.get(spec.name) != today.0.get(spec.name))
            .filter_map(|spec| Some((spec.name, spec.format_value(then.0.get(spec.name)?))))
            .collect();
        match readings.last_mut() {
            Some(last) if last.differs == differs => last.first = version,
            _ => readings.push(Reading { first: version, last: version, differs }),
        }
    }
    readings
}

/// When links of versions `first..=last` were made, in words.
pub fn made_when(first: u32, last: u32) -> String {
    let since = |number: u32| VERSIONS.iter().find(|v| v.number == number).map_or("?", |v| v.since);
    if first <= 1 {
        format!("before {}", since(last + 1))
    } else {
        format!("from {} to {}", since(first), since(last + 1))
    }
}

pub fn since_of(version: u32) -> &'static str {
    VERSIONS.iter().find(|v| v.number == version).map_or("?", |v| v.since)
}

fn notice(message: String) -> Notice {
    Notice { param: VERSION_KEY.to_string(), message }
}
