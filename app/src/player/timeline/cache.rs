//! What a run looks like to the timeline, once per run: states and lock kinds present, lock index, names.

use super::theme::STATES;
use crate::player::viewport::LockIndex;
use slowpath_engine::run::lock::LockMode;
use slowpath_engine::run::timeline::{LockSpanKind, Timeline as TimelineData};
use slowpath_engine::Run;
use std::rc::Rc;

/// What the run looks like, computed once per timeline.
pub(super) struct RunCache {
    pub(super) timeline: Rc<TimelineData>,
    /// Which states occur anywhere (the legend lists only those).
    pub(super) present: [bool; STATES],
    pub(super) any_read: bool,
    pub(super) any_write: bool,
    pub(super) any_wait: bool,
    pub(super) any_repeat: bool,
    pub(super) locks: LockIndex,
    /// The longest task or lock name by characters (measured once a canvas exists).
    pub(super) longest_name: String,
    /// Its width in CSS px, once measured.
    pub(super) label_w: Option<f64>,
}

impl RunCache {
    pub(super) fn new(run: &Run, timeline: Rc<TimelineData>) -> RunCache {
        let mut present = [false; STATES];
        for track in &timeline.tracks {
            for &state in &track.states {
                present[state as usize] = true;
            }
            if present.iter().all(|&seen| seen) {
                break;
            }
        }
        let kinds = |wanted: &dyn Fn(&slowpath_engine::run::timeline::LockSpan) -> bool| {
            timeline.lock_spans.iter().any(wanted)
        };
        let any_read = kinds(&|span| span.kind == LockSpanKind::Hold(LockMode::Read));
        let any_write = kinds(&|span| span.kind == LockSpanKind::Hold(LockMode::Write));
        let any_wait = kinds(&|span| span.kind == LockSpanKind::Wait);
        let any_repeat = kinds(&|span| span.repeats > 1);
        let longest_name = run
            .layout
            .tasks
            .iter()
            .map(|task| task.name.as_str())
            .chain(run.layout.locks.iter().map(|lock| lock.name.as_str()))
            .max_by_key(|name| name.chars().count())
            .unwrap_or("")
            .to_string();
        RunCache {
            locks: LockIndex::new(&timeline, run.layout.locks.len()),
            timeline,
            present,
            any_read,
            any_write,
            any_wait,
            any_repeat,
            longest_name,
            label_w: None,
        }
    }
}
