//! A run as Chrome Trace Event JSON, which ui.perfetto.dev and chrome://tracing open.
//!
//! - Process 1 is the simulated machine: one thread per task (tid = task index + 1),
//!   its states as complete events (`"ph":"X"`, named by the state, args naming the
//!   CPU, lock or wait channel and the exact `ns`), the case's chapters as global
//!   instants and notable events as instants on their actor's thread, with the
//!   narration's text in `args`.
//! - Process 2 holds the locks: each lock's holds as complete events on lanes (one
//!   lane while holds do not overlap; shared holders take further lanes), and its
//!   waiter count as a counter (`"ph":"C"`).
//!
//! A repeat block is never expanded: a task whose state changes inside the repeated
//! iteration gets one slice over the whole block, named `repeated ×N`, whose args give
//! its exact time per accounting bucket (the block's delta times its count). So every
//! task's slices add up, bucket by bucket, to the world's own accounting.
//!
//! Bound: one event per stored state change, hold, queue change and notable op, plus
//! one per task and lock and chapter, so the file grows with the run's stored ops,
//! never with its simulated time. A run recording more than [`EFFECTS_MAX`] effects
//! is written up to the block that would pass it, and `otherData.covers_ns` and
//! `otherData.note` say where the file stops.

use super::{write_json_str, write_us};
use crate::case::CaseMeta;
use crate::run::lock::LockMode;
use crate::run::narration::{plain, Segment};
use crate::run::timeline::{LockSpan, LockSpanKind, SpanState};
use crate::run::trace::Run;
use crate::run::world::{Bucket, Effect, TaskId, TaskState, BUCKETS};
use std::fmt::Write;

/// The stored effects that become events (state changes, lock takes, queueing, releases,
/// plus notable ops) one file covers: each makes at most one event of a few hundred
/// bytes, so the file stays under about 15 MB (the app writes it on the page's thread).
pub const EFFECTS_MAX: u64 = 60_000;

const MACHINE_PID: u32 = 1;
const LOCKS_PID: u32 = 2;

/// The JSON key of each accounting bucket, in `Bucket` order.
pub const BUCKET_KEYS: [&str; BUCKETS] = ["user_ns", "sys_ns", "runnable_ns", "blocked_ns", "sleep_ns"];

/// How much of a run a file covers: its first `blocks` blocks, up to `position`
/// (the run's ops executed) and `end_ns`, the time of the last op it covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Extent {
    pub blocks: usize,
    pub position: u64,
    pub end_ns: u64,
    /// Whether the file stops before the run's end.
    pub cut: bool,
}

impl Extent {
    /// The blocks whose event-making effects fit in `effects_max` (a block is never split).
    pub fn of(run: &Run, effects_max: u64) -> Extent {
        let mut stored = 0u64;
        for (index, block) in run.blocks.iter().enumerate() {
            let ops = &run.ops[block.ops_start as usize..(block.ops_start + block.ops_len) as usize];
            stored += ops
                .iter()
                .map(|op| {
                    let written = run.op_effects(op).iter().filter(|effect| writes_an_event(effect)).count();
                    written as u64 + u64::from(op.kind.is_notable())
                })
                .sum::<u64>();
            if stored > effects_max {
                let position = block.first_op;
                return Extent { blocks: index, position, end_ns: run.time_at(position), cut: true };
            }
        }
        // The world's accounting stops at the last op, which may be before the run's
        // nominal end (a case that stops its clock between events).
        let position = run.total_ops();
        Extent { blocks: run.blocks.len(), position, end_ns: run.time_at(position), cut: false }
    }
}

/// Whether an effect becomes an event in the file (a state slice, a hold, a queue sample).
fn writes_an_event(effect: &Effect) -> bool {
    matches!(
        effect,
        Effect::SetState { .. } | Effect::Acquire { .. } | Effect::Enqueue { .. } | Effect::Release { .. }
    )
}

/// The run as a Trace Event Format JSON object (`traceEvents` plus `otherData`),
/// up to [`EFFECTS_MAX`] stored effects.
pub fn perfetto_json(meta: &CaseMeta, run: &Run) -> String {
    perfetto_json_within(meta, run, EFFECTS_MAX)
}

/// The run as Trace Event JSON over the blocks whose stored effects fit in `effects_max`.
pub fn perfetto_json_within(meta: &CaseMeta, run: &Run, effects_max: u64) -> String {
    let extent = Extent::of(run, effects_max);
    let mut writer = Writer { meta, run, extent, out: String::with_capacity(64 * 1024), first: true };
    writer.out.push_str("{\"displayTimeUnit\":\"ns\",\"otherData\":{");
    writer.other_data();
    writer.out.push_str("},\"traceEvents\":[\n");
    writer.metadata();
    writer.task_states();
    writer.lock_tracks();
    writer.instants();
    writer.out.push_str("\n]}\n");
    writer.out
}

struct Writer<'r> {
    /// The run's case: its parameters' names and units.
    meta: &'r CaseMeta,
    run: &'r Run,
    extent: Extent,
    out: String,
    first: bool,
}

/// The args of a complete event on a task's thread.
enum SliceArgs<'a> {
    State { state: TaskState, ns: u64 },
    Repeat { count: u64, period_ns: u64, buckets_ns: &'a [u64; BUCKETS], first: &'a str },
}

impl Writer<'_> {
    /// Starts one event object: `{"ph":..,"pid":..,"tid":..,"name":..`.
    fn begin(&mut self, phase: char, pid: u32, tid: u32, name: &str) {
        if !self.first {
            self.out.push_str(",\n");
        }
        self.first = false;
        let _ = write!(self.out, "{{\"ph\":\"{phase}\",\"pid\":{pid},\"tid\":{tid},\"name\":");
        write_json_str(&mut self.out, name);
    }

    fn key(&mut self, key: &str) {
        let _ = write!(self.out, ",\"{key}\":");
    }

    fn other_data(&mut self) {
        let run = self.run;
        self.out.push_str("\"case\":");
        write_json_str(&mut self.out, run.case);
        self.out.push_str(",\"variant\":");
        write_json_str(&mut self.out, run.variant);
        let _ = write!(
            self.out,
            ",\"seed\":\"{}\",\"end_ns\":\"{}\",\"trace_hash\":\"{:016x}\",\"params\":",
            run.seed, run.end_ns, run.trace_hash
        );
        let params: Vec<String> = self
            .meta
            .params
            .iter()
            .filter_map(|spec| {
                Some(format!("{}={}", spec.name, spec.format_value(run.params.0.get(spec.name)?)))
            })
            .collect();
        write_json_str(&mut self.out, &params.join(" "));
        let _ = write!(self.out, ",\"covers_ns\":\"{}\"", self.extent.end_ns);
        if self.extent.cut {
            let note = format!(
                "the file stops at {} of the run's {}: it covers the first {} of {} micro-ops",
                crate::run::format::duration(self.extent.end_ns),
                crate::run::format::duration(run.end_ns),
                self.extent.position,
                run.total_ops()
            );
            self.out.push_str(",\"note\":");
            write_json_str(&mut self.out, &note);
        }
    }

    fn metadata(&mut self) {
        let run = self.run;
        let title = format!("{} ({}), seed {}", run.case, run.variant, run.seed);
        for (pid, name) in [(MACHINE_PID, title.as_str()), (LOCKS_PID, "locks")] {
            self.begin('M', pid, 0, "process_name");
            self.key("args");
            self.out.push_str("{\"name\":");
            write_json_str(&mut self.out, name);
            self.out.push_str("}}");
            self.begin('M', pid, 0, "process_sort_index");
            let _ = write!(self.out, ",\"args\":{{\"sort_index\":{pid}}}}}");
        }
        for (index, task) in run.layout.tasks.iter().enumerate() {
            let tid = index as u32 + 1;
            self.begin('M', MACHINE_PID, tid, "thread_name");
            self.key("args");
            self.out.push_str("{\"name\":");
            write_json_str(&mut self.out, &task.name);
            self.out.push_str("}}");
            self.begin('M', MACHINE_PID, tid, "thread_sort_index");
            let _ = write!(self.out, ",\"args\":{{\"sort_index\":{tid}}}}}");
        }
    }

    fn complete(&mut self, pid: u32, tid: u32, name: &str, start_ns: u64, end_ns: u64) {
        self.begin('X', pid, tid, name);
        self.key("ts");
        write_us(&mut self.out, start_ns);
        self.key("dur");
        write_us(&mut self.out, end_ns - start_ns);
    }

    fn task_slice(&mut self, task: usize, start_ns: u64, end_ns: u64, args: SliceArgs) {
        let name = match &args {
            SliceArgs::State { state, .. } => SpanState::of(*state).label().to_string(),
            SliceArgs::Repeat { count, .. } => format!("repeated ×{count}"),
        };
        self.complete(MACHINE_PID, task as u32 + 1, &name, start_ns, end_ns);
        self.out.push_str(",\"cat\":\"state\",\"args\":{");
        match args {
            SliceArgs::State { state, ns } => {
                let bucket = state.bucket().map_or("none", |bucket| BUCKET_KEYS[bucket as usize]);
                let _ = write!(self.out, "\"{bucket}\":{ns}");
                let layout = &self.run.layout;
                match state {
                    TaskState::RunningUser { cpu }
                    | TaskState::RunningKernel { cpu }
                    | TaskState::Exiting { cpu } => {
                        let _ = write!(self.out, ",\"cpu\":{cpu}");
                    }
                    TaskState::Spinning { cpu, lock } => {
                        let _ = write!(self.out, ",\"cpu\":{cpu},\"lock\":");
                        write_json_str(&mut self.out, layout.lock_name(lock));
                    }
                    TaskState::BlockedOnLock { lock } => {
                        self.out.push_str(",\"lock\":");
                        write_json_str(&mut self.out, layout.lock_name(lock));
                    }
                    TaskState::Sleeping { channel } => {
                        self.out.push_str(",\"channel\":");
                        let name = layout.channels.get(usize::from(channel.0)).map_or("", String::as_str);
                        write_json_str(&mut self.out, name);
                    }
                    TaskState::New | TaskState::Runnable | TaskState::Stopped | TaskState::Dead => {}
                }
            }
            SliceArgs::Repeat { count, period_ns, buckets_ns, first } => {
                let _ =
                    write!(self.out, "\"iterations\":{count},\"period_ns\":{period_ns},\"first_iteration\":");
                write_json_str(&mut self.out, first);
                for (key, ns) in BUCKET_KEYS.iter().zip(buckets_ns) {
                    let _ = write!(self.out, ",\"{key}\":{}", ns * count);
                }
            }
        }
        self.out.push_str("}}");
    }

    /// Every task's exact states over the run, repeats as one slice each.
    fn task_states(&mut self) {
        let run = self.run;
        let initial = &run.checkpoints[0].world;
        let mut open: Vec<(TaskState, u64)> = initial.tasks.iter().map(|task| (task.state, 0)).collect();
        for block in &run.blocks[..self.extent.blocks] {
            let ops = &run.ops[block.ops_start as usize..(block.ops_start + block.ops_len) as usize];
            if let Some(delta) = block.delta {
                let mut changing: Vec<TaskId> = ops
                    .iter()
                    .flat_map(|op| run.op_effects(op))
                    .filter_map(|effect| match *effect {
                        Effect::SetState { task, .. } => Some(task),
                        _ => None,
                    })
                    .collect();
                crate::run::sort::sort_by(&mut changing, |a, b| a.cmp(b));
                changing.dedup();
                let block_end = block.start_ns + block.count * block.period_ns;
                let first = if changing.is_empty() {
                    String::new()
                } else {
                    plain(&run.iteration_label(block.first_iteration))
                };
                for task in changing {
                    let index = task.0 as usize;
                    self.close(index, open[index], block.start_ns);
                    let buckets_ns = &run.deltas[delta as usize].task_buckets_ns[index];
                    let args = SliceArgs::Repeat {
                        count: block.count,
                        period_ns: block.period_ns,
                        buckets_ns,
                        first: &first,
                    };
                    self.task_slice(index, block.start_ns, block_end, args);
                    // A repeat ends in the state it started in.
                    open[index].1 = block_end;
                }
                continue;
            }
            for op in ops {
                for effect in run.op_effects(op) {
                    if let Effect::SetState { task, state } = *effect {
                        let index = task.0 as usize;
                        self.close(index, open[index], op.at_ns);
                        open[index] = (state, op.at_ns);
                    }
                }
            }
        }
        for (index, &slice) in open.iter().enumerate() {
            self.close(index, slice, self.extent.end_ns);
        }
    }

    /// Writes a state's slice up to `end_ns` unless it is empty or charges nothing (dead).
    fn close(&mut self, task: usize, (state, start_ns): (TaskState, u64), end_ns: u64) {
        if end_ns > start_ns && state.bucket().is_some() {
            self.task_slice(task, start_ns, end_ns, SliceArgs::State { state, ns: end_ns - start_ns });
        }
    }

    /// Holds on lanes per lock (process 2), then each lock's waiter count.
    fn lock_tracks(&mut self) {
        let run = self.run;
        let timeline = run.timeline();
        let Extent { end_ns, cut, .. } = self.extent;
        let mut next_tid = 1u32;
        for (lock_index, info) in run.layout.locks.iter().enumerate() {
            let holds: Vec<_> = timeline
                .lock_spans
                .iter()
                .filter(|span| {
                    span.lock.0 as usize == lock_index && matches!(span.kind, LockSpanKind::Hold(_))
                })
                .filter(|span| !cut || span.start_ns < end_ns)
                .map(|span| LockSpan { end_ns: span.end_ns.min(end_ns), ..*span })
                .collect();
            // Lanes: the first whose last hold has ended; shared holders spill over.
            let mut lane_ends: Vec<u64> = Vec::new();
            let mut placed: Vec<usize> = Vec::with_capacity(holds.len());
            for span in &holds {
                let lane = match lane_ends.iter().position(|&end| end <= span.start_ns) {
                    Some(lane) => lane,
                    None => {
                        lane_ends.push(0);
                        lane_ends.len() - 1
                    }
                };
                lane_ends[lane] = span.end_ns;
                placed.push(lane);
            }
            let first_tid = next_tid;
            for lane in 0..lane_ends.len().max(1) {
                let tid = first_tid + lane as u32;
                let name =
                    if lane == 0 { info.name.clone() } else { format!("{} (lane {})", info.name, lane + 1) };
                self.begin('M', LOCKS_PID, tid, "thread_name");
                self.out.push_str(",\"args\":{\"name\":");
                write_json_str(&mut self.out, &name);
                self.out.push_str("}}");
            }
            next_tid += lane_ends.len().max(1) as u32;
            for (span, lane) in holds.iter().zip(placed) {
                let mode = match span.kind {
                    LockSpanKind::Hold(LockMode::Read) => "read",
                    _ => "write",
                };
                let holder = run.layout.task_name(span.task);
                let name = if span.repeats > 1 {
                    format!("{holder} ({mode}) ×{}", span.repeats)
                } else {
                    format!("{holder} ({mode})")
                };
                self.complete(LOCKS_PID, first_tid + lane as u32, &name, span.start_ns, span.end_ns);
                let _ = write!(self.out, ",\"cat\":\"lock\",\"args\":{{\"mode\":\"{mode}\",\"holder\":");
                write_json_str(&mut self.out, holder);
                let _ = write!(
                    self.out,
                    ",\"holds\":{},\"ns\":{}}}}}",
                    span.repeats,
                    span.end_ns - span.start_ns
                );
            }
        }
        self.waiter_counters();
    }

    /// Each lock's wait-queue length, from the queueing effects of stored single
    /// blocks (a repeat leaves every queue as it found it, so it adds no sample).
    fn waiter_counters(&mut self) {
        let run = self.run;
        let mut queues: Vec<Vec<TaskId>> = vec![Vec::new(); run.layout.locks.len()];
        for lock in 0..queues.len() {
            self.counter(lock, 0, 0);
        }
        for block in run.blocks[..self.extent.blocks].iter().filter(|block| !block.is_repeat()) {
            let ops = &run.ops[block.ops_start as usize..(block.ops_start + block.ops_len) as usize];
            for op in ops {
                for effect in run.op_effects(op) {
                    let lock = match *effect {
                        Effect::Enqueue { lock, task, .. } => {
                            queues[lock.0 as usize].push(task);
                            lock
                        }
                        Effect::Acquire { lock, task, .. } => {
                            let queue = &mut queues[lock.0 as usize];
                            let Some(at) = queue.iter().position(|&waiter| waiter == task) else { continue };
                            queue.remove(at);
                            lock
                        }
                        _ => continue,
                    };
                    let waiting = queues[lock.0 as usize].len();
                    self.counter(lock.0 as usize, op.at_ns, waiting);
                }
            }
        }
    }

    fn counter(&mut self, lock: usize, at_ns: u64, waiters: usize) {
        // Perfetto names a counter track "<event name> <arg key>": "mmap_lock waiters".
        let name = self.run.layout.locks[lock].name.clone();
        self.begin('C', LOCKS_PID, 0, &name);
        self.key("ts");
        write_us(&mut self.out, at_ns);
        let _ = write!(self.out, ",\"args\":{{\"waiters\":{waiters}}}}}");
    }

    /// Chapters as global instants; notable events on their actor's thread.
    fn instants(&mut self) {
        let run = self.run;
        let covered = self.extent.position;
        for chapter in run.chapters.iter().filter(|chapter| chapter.position <= covered) {
            let Some(op) = chapter.position.checked_sub(1).and_then(|index| run.op(index)) else { continue };
            self.begin('i', MACHINE_PID, 0, chapter.title);
            self.key("ts");
            write_us(&mut self.out, op.at_ns);
            let _ = write!(
                self.out,
                ",\"s\":\"g\",\"cat\":\"chapter\",\"args\":{{\"position\":{}",
                chapter.position
            );
            self.narration_arg(&op);
            self.out.push_str("}}");
        }
        for &index in run.notable_ops().iter().filter(|&&index| index < covered) {
            let Some(op) = run.op(index) else { continue };
            let (tid, scope) = op.actor.map_or((0, 'g'), |task| (task.0 + 1, 't'));
            self.begin('i', MACHINE_PID, tid, op.kind.key());
            self.key("ts");
            write_us(&mut self.out, op.at_ns);
            let _ = write!(
                self.out,
                ",\"s\":\"{scope}\",\"cat\":\"notable\",\"args\":{{\"position\":{}",
                index + 1
            );
            self.narration_arg(&op);
            self.out.push_str("}}");
        }
    }

    /// The op's narration as plain text, and its values one by one.
    fn narration_arg(&mut self, op: &crate::run::trace::OpView) {
        let segments = self.run.narrate(op);
        self.out.push_str(",\"narration\":");
        write_json_str(&mut self.out, &plain(&segments));
        let values: Vec<&str> = segments
            .iter()
            .filter_map(|segment| match segment {
                Segment::Text(_) => None,
                Segment::Task(text) | Segment::Lock(text) | Segment::Value(text) => Some(text.as_str()),
            })
            .collect();
        for (index, value) in values.iter().enumerate() {
            let _ = write!(self.out, ",\"value{index}\":");
            write_json_str(&mut self.out, value);
        }
    }
}

/// The accounting bucket each key in [`BUCKET_KEYS`] stands for (for readers of the file).
pub fn bucket_of_key(key: &str) -> Option<Bucket> {
    let buckets = [Bucket::User, Bucket::Sys, Bucket::Runnable, Bucket::Blocked, Bucket::Sleep];
    BUCKET_KEYS.iter().position(|k| *k == key).map(|index| buckets[index])
}
