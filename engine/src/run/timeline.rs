//! The timeline: every task's states and every lock's hold and wait spans over
//! the whole run, in a compact columnar form that a canvas can draw at any zoom.
//!
//! Built once per run by one pass over the stored ops. A repeat block is never
//! expanded: a task whose state changes inside the repeated iteration gets one
//! span over the whole block, in the state it spends most of each iteration in,
//! and lock holds inside a repeat become one span marked with the repeat count.
//! At any zoom where one iteration is below a pixel, that is what a pixel shows.

use crate::run::lock::LockMode;
use crate::run::trace::Run;
use crate::run::world::{Effect, LockId, TaskId, TaskState};

/// A task state as the timeline colours it (one byte per span).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[repr(u8)]
pub enum SpanState {
    New,
    User,
    Kernel,
    Spinning,
    Runnable,
    Sleeping,
    Blocked,
    Stopped,
    Exiting,
    Dead,
}

impl SpanState {
    pub const ALL: [SpanState; 10] = [
        SpanState::New,
        SpanState::User,
        SpanState::Kernel,
        SpanState::Spinning,
        SpanState::Runnable,
        SpanState::Sleeping,
        SpanState::Blocked,
        SpanState::Stopped,
        SpanState::Exiting,
        SpanState::Dead,
    ];

    pub fn of(state: TaskState) -> SpanState {
        match state {
            TaskState::New => SpanState::New,
            TaskState::RunningUser { .. } => SpanState::User,
            TaskState::RunningKernel { .. } => SpanState::Kernel,
            TaskState::Spinning { .. } => SpanState::Spinning,
            TaskState::Runnable => SpanState::Runnable,
            TaskState::Sleeping { .. } => SpanState::Sleeping,
            TaskState::BlockedOnLock { .. } => SpanState::Blocked,
            TaskState::Stopped => SpanState::Stopped,
            TaskState::Exiting { .. } => SpanState::Exiting,
            TaskState::Dead => SpanState::Dead,
        }
    }

    /// The legend's words.
    pub fn label(self) -> &'static str {
        match self {
            SpanState::New => "not started",
            SpanState::User => "running (user)",
            SpanState::Kernel => "running (kernel)",
            SpanState::Spinning => "spinning on a lock",
            SpanState::Runnable => "runnable (waiting for a CPU)",
            SpanState::Sleeping => "sleeping",
            SpanState::Blocked => "blocked on a lock",
            SpanState::Stopped => "stopped",
            SpanState::Exiting => "exiting",
            SpanState::Dead => "dead",
        }
    }
}

/// One task's states: span `i` covers `[starts_ns[i], starts_ns[i + 1])`, the
/// last one up to the run's end. Columnar, so a track of a million spans is 9 MB.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Track {
    pub starts_ns: Vec<u64>,
    pub states: Vec<SpanState>,
}

impl Track {
    fn push(&mut self, at_ns: u64, state: SpanState) {
        if self.states.last() == Some(&state) {
            return;
        }
        if self.starts_ns.last() == Some(&at_ns) {
            // Two changes at one instant: the later one is what the instant shows.
            self.states.pop();
            self.starts_ns.pop();
            if self.states.last() == Some(&state) {
                return;
            }
        }
        self.starts_ns.push(at_ns);
        self.states.push(state);
    }

    /// Indices of the spans that overlap `[from_ns, to_ns)`.
    pub fn spans_in(&self, from_ns: u64, to_ns: u64) -> std::ops::Range<usize> {
        let first = self.starts_ns.partition_point(|&start| start <= from_ns).saturating_sub(1);
        let end = self.starts_ns.partition_point(|&start| start < to_ns);
        first..end.max(first)
    }

    /// The end of span `index`, given the run's end.
    pub fn span_end(&self, index: usize, run_end_ns: u64) -> u64 {
        self.starts_ns.get(index + 1).copied().unwrap_or(run_end_ns)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum LockSpanKind {
    Hold(LockMode),
    Wait,
}

/// A task holding or waiting for a lock over `[start_ns, end_ns)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct LockSpan {
    pub lock: LockId,
    pub task: TaskId,
    pub start_ns: u64,
    pub end_ns: u64,
    pub kind: LockSpanKind,
    /// How many repeated holds this span summarises (1 outside repeats).
    pub repeats: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Timeline {
    pub end_ns: u64,
    pub tracks: Vec<Track>,
    /// Sorted by start time.
    pub lock_spans: Vec<LockSpan>,
}

impl Run {
    /// The timeline of the whole run. One pass over stored ops; repeats summarised.
    pub fn timeline(&self) -> Timeline {
        let tasks = self.layout.tasks.len();
        let mut tracks = vec![Track::default(); tasks];
        let initial = &self.checkpoints[0].world;
        for (index, track) in tracks.iter_mut().enumerate() {
            track.push(0, SpanState::of(initial.tasks[index].state));
        }
        // Open holds and waits per (lock, task), closed by the matching effect.
        let mut open: Vec<(LockId, TaskId, u64, LockSpanKind)> = Vec::new();
        let mut spans: Vec<LockSpan> = Vec::new();
        let close = |open: &mut Vec<(LockId, TaskId, u64, LockSpanKind)>,
                     spans: &mut Vec<LockSpan>,
                     lock: LockId,
                     task: TaskId,
                     at_ns: u64,
                     hold: bool| {
            if let Some(position) = open.iter().position(|(l, t, _, kind)| {
                *l == lock && *t == task && matches!(kind, LockSpanKind::Hold(_)) == hold
            }) {
                let (lock, task, start_ns, kind) = open.remove(position);
                spans.push(LockSpan { lock, task, start_ns, end_ns: at_ns, kind, repeats: 1 });
            }
        };
        for block in &self.blocks {
            let ops = &self.ops[block.ops_start as usize..(block.ops_start + block.ops_len) as usize];
            if block.is_repeat() {
                self.summarise_repeat(block, ops, &mut tracks, &mut spans);
                continue;
            }
            for op in ops {
                for effect in self.op_effects(op) {
                    match *effect {
                        Effect::SetState { task, state } => {
                            tracks[task.0 as usize].push(op.at_ns, SpanState::of(state));
                        }
                        Effect::Enqueue { lock, task, .. } => {
                            open.push((lock, task, op.at_ns, LockSpanKind::Wait));
                        }
                        Effect::Acquire { lock, task, mode, waited_ns } => {
                            let queued = open
                                .iter()
                                .any(|(l, t, _, k)| *l == lock && *t == task && *k == LockSpanKind::Wait);
                            if queued {
                                close(&mut open, &mut spans, lock, task, op.at_ns, false);
                            } else if waited_ns > 0 {
                                // Waited without queueing: optimistic spinning.
                                let start_ns = op.at_ns - waited_ns;
                                spans.push(LockSpan {
                                    lock,
                                    task,
                                    start_ns,
                                    end_ns: op.at_ns,
                                    kind: LockSpanKind::Wait,
                                    repeats: 1,
                                });
                            }
                            open.push((lock, task, op.at_ns, LockSpanKind::Hold(mode)));
                        }
                        Effect::Release { lock, task } => {
                            close(&mut open, &mut spans, lock, task, op.at_ns, true)
                        }
                        Effect::Count { .. }
                        | Effect::Decrease { .. }
                        | Effect::Gauge { .. }
                        | Effect::SetHandoff { .. } => {}
                    }
                }
            }
        }
        for (lock, task, start_ns, kind) in open {
            spans.push(LockSpan { lock, task, start_ns, end_ns: self.end_ns, kind, repeats: 1 });
        }
        crate::run::sort::sort_by_key(&mut spans, |span| (span.start_ns, span.lock, span.task));
        Timeline { end_ns: self.end_ns, tracks, lock_spans: spans }
    }

    fn summarise_repeat(
        &self,
        block: &crate::run::trace::Block,
        ops: &[crate::run::trace::Op],
        tracks: &mut [Track],
        spans: &mut Vec<LockSpan>,
    ) {
        let block_end = block.start_ns + block.count * block.period_ns;
        // Time-weighted state per task within one iteration, from the state at block start.
        let mut changed: Vec<(TaskId, Vec<(u64, SpanState)>)> = Vec::new();
        for op in ops {
            for effect in self.op_effects(op) {
                match *effect {
                    Effect::SetState { task, state } => {
                        let entry = match changed.iter().position(|(t, _)| *t == task) {
                            Some(position) => &mut changed[position].1,
                            None => {
                                changed.push((task, Vec::new()));
                                &mut changed.last_mut().expect("just pushed").1
                            }
                        };
                        entry.push((op.at_ns, SpanState::of(state)));
                    }
                    Effect::Acquire { lock, task, mode, .. } => spans.push(LockSpan {
                        lock,
                        task,
                        start_ns: block.start_ns,
                        end_ns: block_end,
                        kind: LockSpanKind::Hold(mode),
                        repeats: block.count,
                    }),
                    _ => {}
                }
            }
        }
        for (task, changes) in changed {
            let track = &mut tracks[task.0 as usize];
            let before = *track.states.last().expect("every track starts with a span");
            let mut time_in: Vec<(SpanState, u64)> = Vec::new();
            let mut current = (0u64, before);
            for &(at, state) in changes.iter().chain(std::iter::once(&(block.period_ns, before))) {
                let spent = at - current.0;
                match time_in.iter_mut().find(|(s, _)| *s == current.1) {
                    Some(slot) => slot.1 += spent,
                    None => time_in.push((current.1, spent)),
                }
                current = (at, state);
            }
            let dominant = time_in
                .iter()
                .max_by_key(|(state, spent)| (*spent, std::cmp::Reverse(*state)))
                .map(|(s, _)| *s);
            track.push(block.start_ns, dominant.unwrap_or(before));
            // By the repeat invariant the state at the block's end is the state at its start.
            track.push(block_end, before);
        }
    }
}
