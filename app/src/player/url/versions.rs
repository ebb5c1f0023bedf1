//! Link versions: every link written carries `lv=<n>`, and each version keeps the
//! defaults it had, so that a link opens with the parameters it was made with.
//!
//! Links leave defaults out, so a default that changes would change the meaning of
//! every link made before it. A tagged link is read with its version's defaults.
//! Links made before tags existed are read with [`UNTAGGED_VERSION`]'s defaults,
//! and where an older version's defaults differ for what the link leaves out, one
//! notice says so and gives the other reading as a link. The history itself is
//! data, `docs/link-versions.tsv`, explained in `docs/links.md`.

use slowpath_engine::run::params::{quote_input, Notice, ParamValues};
use slowpath_engine::run::sort::sort_by_key;
use slowpath_engine::CaseMeta;

/// The version every new link is written with.
pub const LINK_VERSION: u32 = 7;
/// The query key of the version.
pub const VERSION_KEY: &str = "lv";
/// The version an untagged link is read as: the last one before links were tagged.
pub const UNTAGGED_VERSION: u32 = 5;

/// One version of the links' defaults: from when it held, and the commit that began it.
#[derive(Clone, Debug)]
pub struct Version {
    pub number: u32,
    pub since: String,
    pub commit: String,
}

/// A default that changed: links of versions before `since` meant `before`.
#[derive(Clone, Debug)]
pub struct DefaultChange {
    pub case: String,
    pub param: String,
    pub since: u32,
    /// The value, as links write it, that gives what links meant before.
    pub before: String,
}

/// The history of links: every version, every default that changed, every model
/// change that moved positions, and each case's default trace hash today. Data,
/// not code (`docs/link-versions.tsv`), since it names cases.
#[derive(Clone, Debug, Default)]
pub struct History {
    pub versions: Vec<Version>,
    pub defaults: Vec<DefaultChange>,
    /// (case, the first version whose links are on its new model).
    pub models: Vec<(String, u32)>,
    /// (case, its default trace hash at [`LINK_VERSION`]): a test fails when one
    /// changes, so that a model change adds a version.
    pub fingerprints: Vec<(String, String)>,
}

const HISTORY_TSV: &str = include_str!("../../../../docs/link-versions.tsv");

/// The history, read once from `docs/link-versions.tsv`.
pub fn history() -> &'static History {
    static HISTORY: std::sync::OnceLock<History> = std::sync::OnceLock::new();
    HISTORY.get_or_init(|| parse_history(HISTORY_TSV))
}

/// Reads the history's rows; a row that does not fit is skipped (a test reads every one).
pub fn parse_history(text: &str) -> History {
    let mut history = History::default();
    for line in text.lines().filter(|line| !line.starts_with("//") && !line.trim().is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        let number = |index: usize| fields.get(index).and_then(|text| text.parse::<u32>().ok());
        let text = |index: usize| fields.get(index).map(|text| text.to_string());
        match fields[0] {
            "version" => {
                if let (Some(number), Some(since), Some(commit)) = (number(1), text(2), text(3)) {
                    history.versions.push(Version { number, since, commit });
                }
            }
            "default" => {
                if let (Some(case), Some(param), Some(since), Some(before)) =
                    (text(1), text(2), number(3), text(4))
                {
                    history.defaults.push(DefaultChange { case, param, since, before });
                }
            }
            "model" => {
                if let (Some(case), Some(since)) = (text(1), number(2)) {
                    history.models.push((case, since));
                }
            }
            "fingerprint" => {
                if let (Some(case), Some(hash)) = (text(1), text(2)) {
                    history.fingerprints.push((case, hash));
                }
            }
            _ => {}
        }
    }
    history
}

/// How a link says which version it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Made {
    pub version: u32,
    pub tagged: bool,
}

impl Made {
    /// Whether the link's positions may be on an earlier model of `case` than today's.
    pub fn earlier_model(self, case: &str) -> bool {
        self.earlier_model_in(case, history())
    }

    /// [`Made::earlier_model`] by the model changes `history` records.
    pub fn earlier_model_in(self, case: &str, history: &History) -> bool {
        !self.tagged || history.models.iter().any(|(id, since)| id == case && self.version < *since)
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
        history().defaults.iter().filter(|change| change.case == meta.id && change.since > version).collect();
    // Newest first, so that the oldest change a version predates has the last word.
    sort_by_key(&mut changes, |change| std::cmp::Reverse(change.since));
    for change in changes {
        if let Some(spec) = meta.params.iter().find(|spec| spec.name == change.param) {
            values.0.insert(spec.name.to_string(), spec.parse_clamped(&change.before).0);
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
    let since = since_of;
    if first <= 1 {
        format!("before {}", since(last + 1))
    } else {
        format!("from {} to {}", since(first), since(last + 1))
    }
}

/// From when links of `version` were made, in words.
pub fn since_of(version: u32) -> &'static str {
    history().versions.iter().find(|v| v.number == version).map_or("?", |v| v.since.as_str())
}

fn notice(message: String) -> Notice {
    Notice { param: VERSION_KEY.to_string(), message }
}
