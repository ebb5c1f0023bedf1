//! How a run ended (completed, stopped at a budget, killed, deadlocked) and the
//! case's own figures: what every run reports besides its trace.

use crate::run::lock::Deadlock;
use crate::run::wire::codec::{wire_enum, Reader, Wire, WireError, Writer};
use std::collections::BTreeMap;

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "outcome", rename_all = "snake_case"))]
pub enum Outcome {
    /// The modelled work finished.
    Completed,
    /// The simulated-time limit (a parameter) was reached.
    TimeLimit,
    /// The run stopped at the engine's step budget: shorten it to see the rest.
    StepLimit { micro_ops: u64 },
    /// The modelled process was killed by `signal`, sent at `sent_at_ns`; it died at
    /// `at_ns` (the figures cover the whole run up to then).
    Killed { signal: crate::run::wire::StaticStr, sent_at_ns: u64, at_ns: u64 },
    /// A cycle in the wait-for graph: reported as a result, not a hang.
    Deadlock(Deadlock),
    /// At `at_ns`, nothing could happen any more: `tasks` live tasks each waited for
    /// what no task would ever do (a read of a pipe nobody writes, ...).
    Stalled { at_ns: u64, tasks: u64 },
    /// The run reached the engine's work budget (`run::budget`) at `at_ns`, before
    /// the end its parameters asked for: its figures cover `[0, at_ns]` only.
    WorkLimit {
        at_ns: u64,
        /// Simulation steps taken when it stopped.
        steps: u64,
        /// What ran out, in words ("simulation steps", "kept writes").
        budget: crate::run::wire::StaticStr,
    },
}
wire_enum!(Outcome {
    0 => Completed,
    1 => TimeLimit,
    2 => StepLimit { micro_ops },
    3 => Killed { signal, sent_at_ns, at_ns },
    4 => Deadlock(deadlock),
    5 => WorkLimit { at_ns, steps, budget },
    6 => Stalled { at_ns, tasks },
});

impl Outcome {
    /// In plain words, when the run did not cover everything its parameters asked
    /// for; None when it did.
    pub fn limit_text(&self) -> Option<String> {
        match self {
            Outcome::WorkLimit { at_ns, steps, budget } => Some(format!(
                "Stopped after {} of simulated time: this setting makes too much work for one run \
                 ({} simulation steps so far; the budget of {budget} ran out). The figures cover \
                 the first {}; shorten the duration to see the rest.",
                crate::run::format::duration(*at_ns),
                crate::run::narration::group_digits(*steps),
                crate::run::format::duration(*at_ns),
            )),
            Outcome::StepLimit { micro_ops } => Some(format!(
                "The trace stops after {} micro-ops, the most one run stores; the figures cover \
                 the whole run.",
                crate::run::narration::group_digits(*micro_ops)
            )),
            Outcome::Completed
            | Outcome::TimeLimit
            | Outcome::Killed { .. }
            | Outcome::Deadlock(_)
            | Outcome::Stalled { .. } => None,
        }
    }
}

/// A case's own figure: a number with a unit, or a nested object.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(untagged))]
pub enum Metric {
    Count(u64),
    Ns(u64),
    Ratio(f64),
    Text(String),
    None(Option<u64>),
    List(Vec<Metric>),
    Object(BTreeMap<String, Metric>),
}

/// By hand, not [`wire_enum!`]: a metric nests, and damaged bytes must not nest
/// without end.
impl Wire for Metric {
    fn put(&self, w: &mut Writer) {
        match self {
            Metric::Count(value) => (0u8, *value).put(w),
            Metric::Ns(value) => (1u8, *value).put(w),
            Metric::Ratio(value) => (2u8, *value).put(w),
            Metric::Text(value) => {
                w.byte(3);
                value.put(w);
            }
            Metric::None(value) => (4u8, *value).put(w),
            Metric::List(items) => {
                w.byte(5);
                w.seq(items);
            }
            Metric::Object(fields) => {
                w.byte(6);
                fields.put(w);
            }
        }
    }
    fn take(r: &mut Reader<'_>) -> Result<Self, WireError> {
        r.nested(|r| match r.byte()? {
            0 => Ok(Metric::Count(Wire::take(r)?)),
            1 => Ok(Metric::Ns(Wire::take(r)?)),
            2 => Ok(Metric::Ratio(Wire::take(r)?)),
            3 => Ok(Metric::Text(Wire::take(r)?)),
            4 => Ok(Metric::None(Wire::take(r)?)),
            5 => Ok(Metric::List(Wire::take(r)?)),
            6 => Ok(Metric::Object(Wire::take(r)?)),
            _ => Err(r.error("an unknown Metric")),
        })
    }
}
