//! Guided tours: a case's ordered stops, each a full state (parameters, variant,
//! seed and a position named by a chapter), a title, a few sentences and maybe a
//! question the student answers before playing on to the next stop.
//!
//! Tours are data the case declares (`Case::tour`, in the case's `tour.rs`), so
//! that the registry test, the CLI and the app all read the same stops. A stop's
//! text never types a figure: `{m:metric}` slots are filled from the stop's run and
//! formatted by `run::format`, and a question's choices and its right answer are
//! computed from the run's metrics (`engine/tests/tours.rs` checks every stop).

use crate::case::{run_checked, Case, CaseMeta};
use crate::run::format;
use crate::run::narration::group_digits;
use crate::run::params::{quote_input, Notice, ParamKind, ParamSpec, ParamValue, ParamValues};
use crate::run::trace::{Metric, Run};
use std::fmt;

/// A case's tour: its stops in order (at least two; the registry test says so).
#[derive(Clone, Copy, Debug)]
pub struct Tour {
    pub stops: &'static [Stop],
}

/// One stop of a tour.
#[derive(Clone, Copy, Debug)]
pub struct Stop {
    /// A few words, shown as the stop's heading.
    pub title: &'static str,
    /// Parameters that differ from the defaults, as links write them (`threads`, `64`).
    pub set: &'static [(&'static str, &'static str)],
    /// The variant's id; None is the default ("as reported").
    pub variant: Option<&'static str>,
    pub seed: u64,
    pub at: At,
    /// Two to five sentences of teaching text; may hold slots (see [`fill`]).
    pub text: &'static [&'static str],
    pub question: Option<Question>,
}

/// Where in its run a stop stands. By name, not by step number, so that a stop stays
/// on its moment when the model is tuned (the engine resolves it to a position).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum At {
    Start,
    /// The chapter with this title (one of the case's `set_chapters` titles).
    Chapter(&'static str),
    End,
}

/// A question asked at a stop and revealed at the next one.
#[derive(Clone, Copy, Debug)]
pub struct Question {
    pub prompt: &'static str,
    pub ask: Ask,
    /// One sentence said with the answer (slots allowed).
    pub explain: &'static str,
}

/// What kind of answer a question takes. The right answer always comes from the run.
#[derive(Clone, Copy, Debug)]
pub enum Ask {
    /// Multiple choice: the run's figure for `metric` beside the same figure scaled by
    /// ten to each of `powers` (e.g. `[-2, -1, 1]`), all formatted alike, smallest first.
    Magnitude { metric: &'static str, powers: &'static [i8] },
    /// Multiple choice: which of these (label, metric) pairs is the largest in the run.
    Largest { choices: &'static [(&'static str, &'static str)] },
    /// A typed number (a duration needs its unit); right when within a factor of `within`
    /// of the run's figure.
    Guess { metric: &'static str, within: u64 },
}

/// A tour that does not fit its case: what the registry test and the CLI report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TourError(pub String);

impl fmt::Display for TourError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TourError {}

fn error(message: String) -> TourError {
    TourError(message)
}

/// A stop's state as a link gives it.
#[derive(Clone, Debug, PartialEq)]
pub struct StopState {
    pub params: ParamValues,
    pub variant: &'static str,
    pub seed: u64,
}

/// The stop's parameters read strictly: a tour's own data must be exactly valid.
pub fn stop_state(meta: &'static CaseMeta, stop: &Stop) -> Result<StopState, TourError> {
    let params = ParamValues::from_pairs_exact(meta.params, stop.set.iter().copied())
        .map_err(|e| error(format!("stop `{}`: {e}", stop.title)))?;
    let variant = match stop.variant {
        None => meta.default_variant().id,
        Some(id) => {
            meta.variant(id).ok_or_else(|| error(format!("stop `{}`: no variant `{id}`", stop.title)))?.id
        }
    };
    Ok(StopState { params, variant, seed: stop.seed })
}

/// A stop opened: its run, its position, its text with the slots filled, and its
/// question with the choices and the answer computed.
pub struct OpenStop {
    pub state: StopState,
    pub run: std::rc::Rc<Run>,
    pub position: u64,
    pub text: Vec<String>,
    pub question: Option<Posed>,
}

/// A question with its answer worked out from the run.
#[derive(Clone, Debug, PartialEq)]
pub struct Posed {
    pub prompt: String,
    pub answer: Answer,
    pub explain: String,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// The choices as shown and the index of the right one.
    Choice { choices: Vec<String>, correct: usize },
    /// The run's figure, as shown, and the tolerance factor.
    Guess { value: u64, shown: String, duration: bool, within: u64 },
}

impl Answer {
    /// The right answer in words.
    pub fn correct_text(&self) -> String {
        match self {
            Answer::Choice { choices, correct } => choices.get(*correct).cloned().unwrap_or_default(),
            Answer::Guess { shown, .. } => shown.clone(),
        }
    }

    /// Whether a typed guess is right; an unreadable one says why (never panics).
    pub fn judge_guess(&self, text: &str) -> Result<bool, String> {
        let Answer::Guess { value, duration, within, .. } = self else {
            return Err("this question takes a choice, not a number".to_string());
        };
        let guess = read_guess(text, *duration)?;
        let (low, high) = (value / within.max(&1), value.saturating_mul(*within));
        Ok((low..=high).contains(&guess))
    }
}

/// A typed number: a duration must say its unit (a bare `357` could be ns or ms).
fn read_guess(text: &str, duration: bool) -> Result<u64, String> {
    let text: String = text.trim().chars().filter(|c| *c != ',' && *c != ' ').collect();
    if duration && text.ends_with(|c: char| c.is_ascii_digit()) {
        return Err("say the unit: ns, µs, ms or s (e.g. 20ms)".to_string());
    }
    let kind = if duration {
        ParamKind::Duration { min_ns: 0, max_ns: u64::MAX, default_ns: 0 }
    } else {
        ParamKind::Count { min: 0, max: u64::MAX, default: 0 }
    };
    let spec = ParamSpec { name: "guess", label: "guess", kind, description: "" };
    match spec.parse_exact(&text) {
        Ok(ParamValue::Unsigned(value)) => Ok(value),
        _ => Err(format!("`{}` is not a number this question can read", quote_input(&text))),
    }
}

/// The metric at a dotted path (`writer.sys_ns`, `write_dt_ns.max`).
pub fn metric<'a>(run: &'a Run, path: &str) -> Option<&'a Metric> {
    let mut parts = path.split('.');
    let mut metric = run.metrics.get(parts.next()?)?;
    for part in parts {
        metric = match metric {
            Metric::Object(fields) => fields.get(part)?,
            _ => return None,
        };
    }
    Some(metric)
}

/// A metric that a sentence can quote or a question can ask: (value, is a duration).
fn figure(run: &Run, path: &str) -> Result<(u64, bool), TourError> {
    match metric(run, path) {
        Some(Metric::Ns(ns)) => Ok((*ns, true)),
        Some(Metric::Count(count)) => Ok((*count, false)),
        // An optional figure knows its unit by its key, as the metrics panel reads it.
        Some(Metric::None(Some(value))) => Ok((*value, path.ends_with("_ns"))),
        Some(_) => Err(error(format!("metric `{path}` is not a duration or a count"))),
        None => Err(error(format!("the run has no metric `{path}`"))),
    }
}

fn shown(value: u64, duration: bool) -> String {
    if duration {
        format::duration(value)
    } else {
        group_digits(value)
    }
}

/// A parameter's value as the UI writes it (`1 TiB`, `1.3 s`, `4,096`); the link
/// forms of `params.rs` (`1TiB`) are for links and inputs, not for sentences.
fn param_shown(spec: &ParamSpec, value: &ParamValue) -> String {
    match (spec.kind, value) {
        (ParamKind::Duration { .. }, ParamValue::Unsigned(ns)) => format::duration(*ns),
        (ParamKind::Size { .. }, ParamValue::Unsigned(bytes)) => format::size(*bytes),
        (ParamKind::Count { .. }, ParamValue::Unsigned(count)) => group_digits(*count),
        (ParamKind::Signed { .. }, ParamValue::Signed(value)) => format::signed(*value),
        _ => spec.format_value(value),
    }
}

/// Fills a sentence's slots from the run at `position`: `{m:path}` a metric, `{t}`
/// the simulated time there, `{p:name}` a parameter, `{variant}` the variant's label.
pub fn fill(meta: &CaseMeta, run: &Run, position: u64, text: &str) -> Result<String, TourError> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let close = rest[open..].find('}').ok_or_else(|| error(format!("unclosed slot in `{text}`")))? + open;
        let slot = &rest[open + 1..close];
        out.push_str(&match slot.split_once(':') {
            _ if slot == "t" => format::duration(run.time_at(position)),
            _ if slot == "variant" => meta.variant(run.variant).map_or(run.variant, |v| v.label).to_string(),
            Some(("m", path)) => figure(run, path).map(|(value, duration)| shown(value, duration))?,
            Some(("p", name)) => {
                let spec = meta.params.iter().find(|spec| spec.name == name);
                match (spec, run.params.0.get(name)) {
                    (Some(spec), Some(value)) => param_shown(spec, value),
                    _ => return Err(error(format!("no parameter `{name}` for slot in `{text}`"))),
                }
            }
            _ => return Err(error(format!("unknown slot `{{{slot}}}` in `{text}`"))),
        });
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// Works a question out from the run: the choices and which is right.
pub fn pose(meta: &CaseMeta, run: &Run, position: u64, question: &Question) -> Result<Posed, TourError> {
    let answer = match question.ask {
        Ask::Magnitude { metric, powers } => {
            let (value, duration) = figure(run, metric)?;
            let mut values: Vec<(u64, bool)> = vec![(value, true)];
            for &power in powers {
                let scale = 10u64.checked_pow(u32::from(power.unsigned_abs())).unwrap_or(u64::MAX);
                let scaled = if power < 0 { value / scale } else { value.saturating_mul(scale) };
                values.push((scaled, false));
            }
            crate::run::sort::sort_by_key(&mut values, |(value, _)| *value);
            let correct = values.iter().position(|(_, right)| *right).unwrap_or(0);
            let choices: Vec<String> = values.iter().map(|(value, _)| shown(*value, duration)).collect();
            if choices.windows(2).any(|pair| pair[0] == pair[1]) {
                return Err(error(format!("`{metric}` is {}: its choices do not differ", choices[correct])));
            }
            Answer::Choice { choices, correct }
        }
        Ask::Largest { choices } => {
            let mut figures = Vec::with_capacity(choices.len());
            for (_, path) in choices {
                figures.push(figure(run, path)?.0);
            }
            let best = figures.iter().copied().max().unwrap_or(0);
            if figures.iter().filter(|&&f| f == best).count() != 1 {
                return Err(error(format!("`{}`: no single largest figure", question.prompt)));
            }
            let correct = figures.iter().position(|&f| f == best).unwrap_or(0);
            Answer::Choice { choices: choices.iter().map(|(label, _)| label.to_string()).collect(), correct }
        }
        Ask::Guess { metric, within } => {
            let (value, duration) = figure(run, metric)?;
            Answer::Guess { value, shown: shown(value, duration), duration, within: within.max(1) }
        }
    };
    Ok(Posed {
        prompt: fill(meta, run, position, question.prompt)?,
        answer,
        explain: fill(meta, run, position, question.explain)?,
    })
}

/// Where `at` falls in `run`.
pub fn resolve(run: &Run, at: At) -> Result<u64, TourError> {
    match at {
        At::Start => Ok(0),
        At::End => Ok(run.total_ops()),
        At::Chapter(title) => run
            .chapters
            .iter()
            .find(|chapter| chapter.title == title)
            .map(|chapter| chapter.position)
            .ok_or_else(|| error(format!("this run has no chapter `{title}`"))),
    }
}

/// Opens stop `index` (0-based) of `case`'s tour, strictly: any mismatch between the
/// tour and its case is an error (the registry test and the CLI report it).
pub fn open(case: &dyn Case, index: usize) -> Result<OpenStop, TourError> {
    let state = state_of(case, index)?;
    let run =
        run_checked(case, &state.params, state.variant, state.seed).map_err(|e| error(e.to_string()))?;
    open_with_run(case, index, std::rc::Rc::new(run))
}

/// Stop `index`'s state (what to run), without running it.
pub fn state_of(case: &dyn Case, index: usize) -> Result<StopState, TourError> {
    let stop = case.meta().tour.stops.get(index).ok_or_else(|| error(format!("no stop {}", index + 1)))?;
    stop_state(case.meta(), stop)
}

/// Opens stop `index` on its run, made elsewhere from [`state_of`] (the app's
/// worker): the position, the text and the question worked out from it.
pub fn open_with_run(case: &dyn Case, index: usize, run: std::rc::Rc<Run>) -> Result<OpenStop, TourError> {
    let meta = case.meta();
    let stop = case.meta().tour.stops.get(index).ok_or_else(|| error(format!("no stop {}", index + 1)))?;
    let state = stop_state(meta, stop)?;
    if (run.case, run.variant, run.seed, &run.params) != (meta.id, state.variant, state.seed, &state.params) {
        return Err(error(format!("stop `{}`: the run given is not this stop's", stop.title)));
    }
    let position = resolve(&run, stop.at).map_err(|e| error(format!("stop `{}`: {e}", stop.title)))?;
    let text = stop.text.iter().map(|s| fill(meta, &run, position, s)).collect::<Result<Vec<_>, _>>()?;
    let question = stop.question.as_ref().map(|q| pose(meta, &run, position, q)).transpose()?;
    Ok(OpenStop { state, run, position, text, question })
}

/// A stop number from a link (1-based), clamped to the tour's `len` stops, with a
/// notice saying what was changed. Returns the 0-based index.
pub fn stop_number(text: &str, len: usize) -> (usize, Option<Notice>) {
    let last = len.max(1);
    let notice = |message: String| Some(Notice { param: "stop".to_string(), message });
    let text = text.trim();
    if text.is_empty() {
        return (0, None);
    }
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        let message = format!("`{}` is not a stop number; showing stop 1 of {last}", quote_input(text));
        return (0, notice(message));
    }
    // All digits: too long to parse is past the end.
    let number = text.parse::<u64>().unwrap_or(u64::MAX);
    match usize::try_from(number) {
        Ok(0) => (0, notice(format!("stops are numbered from 1; showing stop 1 of {last}"))),
        Ok(n) if n <= last => (n - 1, None),
        _ => (
            last - 1,
            notice(format!(
                "this tour has {last} stops, so stop {} does not exist; showing the last",
                quote_input(text)
            )),
        ),
    }
}

/// Text a tour author typed (outside slots) that quotes a figure: any digit. Empty
/// when the text is clean; the registry test requires it to be.
pub fn typed_digits(text: &str) -> String {
    let mut depth = 0u32;
    text.chars()
        .filter(|&c| {
            match c {
                '{' => depth += 1,
                '}' => depth = depth.saturating_sub(1),
                _ => {}
            }
            depth == 0 && c.is_ascii_digit()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_numbers_are_clamped_and_explained() {
        assert_eq!(stop_number("3", 5), (2, None));
        assert_eq!(stop_number("", 5), (0, None));
        assert_eq!(stop_number("1", 5), (0, None));
        assert_eq!(stop_number("5", 5), (4, None));
        for (text, index) in
            [("0", 0), ("6", 4), ("99999999999999999999999", 4), ("-1", 0), ("abc", 0), ("2e3", 0)]
        {
            let (got, notice) = stop_number(text, 5);
            assert_eq!(got, index, "{text}");
            assert!(notice.is_some(), "{text} is explained");
        }
        // Hostile text is quoted and cut, not echoed whole.
        let (_, notice) = stop_number(&"\u{1b}[31m".repeat(100), 3);
        let message = notice.expect("explained").message;
        assert!(!message.contains('\u{1b}') && message.len() < 120, "{message}");
        // An empty tour cannot be indexed past its start.
        assert_eq!(stop_number("4", 0).0, 0);
    }

    #[test]
    fn typed_digits_skip_slots() {
        assert_eq!(typed_digits("It takes {m:dump_ns} in {p:threads} threads."), "");
        assert_eq!(typed_digits("It takes 29 s."), "29");
        assert_eq!(typed_digits("{m:a}{m:b} 3"), "3");
    }

    #[test]
    fn guesses_need_units_for_durations_and_never_panic() {
        let answer = Answer::Guess {
            value: 357_000_000,
            shown: format::duration(357_000_000),
            duration: true,
            within: 2,
        };
        assert_eq!(answer.judge_guess("300ms"), Ok(true));
        assert_eq!(answer.judge_guess("0.3 s"), Ok(true));
        assert_eq!(answer.judge_guess("100ms"), Ok(false));
        assert_eq!(answer.judge_guess("1s"), Ok(false));
        assert!(answer.judge_guess("357").is_err());
        assert!(answer.judge_guess("").is_err());
        assert!(answer.judge_guess(&"9".repeat(500)).is_err());
        let count = Answer::Guess { value: 7_766, shown: group_digits(7_766), duration: false, within: 2 };
        assert_eq!(count.judge_guess("7,000"), Ok(true));
        assert_eq!(count.judge_guess("99999999999999999999999999"), Ok(false));
    }
}
