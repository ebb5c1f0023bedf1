//! Turns the machine's events into a trace: ops with narration, code lines and
//! effects, grouped into iterations (one program loop, one tick, one
//! reschedule). Runs of identical iterations (the writer's fast writes, the
//! listener spinning, the writer spinning on ENXIO) become repeat blocks, so a
//! minute of simulated time stays a few thousand stored ops. The world's
//! vocabulary is in `layout.rs`; the scheduler's events in `sched.rs`; the
//! program steps in `steps.rs`.

mod layout;
mod sched;
mod steps;

pub use layout::*;

use super::events::{
    Config, Ev, Kernel, Outcome, SchedSnap, SpinKind, Step, Switch, SwitchWhy, WakeBy, LISTENER, WRITER,
};
use super::fold::{Folder, Iteration, OwnedOp};
use super::text::{self, at, T};
use crate::kernel::sched::o1::TickOutcome;
use crate::run::builder::{text as say, OpSpec, TraceBuilder};
use crate::run::narration::{Arg, CodeLoc};
use crate::run::trace::OpKind;
use crate::run::world::{ChannelId, Effect, TaskId, TaskState, World};

/// Where the phases change: the writer's open before the first write of each phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PhaseMark {
    pub write_index: u64,
    /// 0 for fast writes, k ≥ 1 for burst k.
    pub burst: u64,
}

pub struct TraceSink<'c> {
    pub folder: Folder,
    config: &'c Config,
    open: Option<Iteration>,
    marks: Vec<PhaseMark>,
    next_mark: usize,
    writes: u64,
    /// Fast writes since the last slow one: the lines the reporter's grep hid.
    hidden_by_grep: u64,
    phase_started: bool,
    /// When each task was last woken (for the run-queue credit narration).
    woken_at: [u64; 2],
    channel: ChannelId,
    kernel: Kernel,
    /// The state after every op pushed so far (the builder lags behind while runs are pending).
    shadow: World,
    /// When the trace stopped at the stored-ops budget.
    pub stopped_at: Option<u64>,
}

fn task(index: usize) -> TaskId {
    TaskId(index as u32)
}

fn running(step: Step, cpu: u16) -> TaskState {
    if step.user_mode() {
        TaskState::RunningUser { cpu }
    } else {
        TaskState::RunningKernel { cpu }
    }
}

fn line_of(step: Step) -> CodeLoc {
    match step {
        Step::ListenerOpen => at(text::LISTENER, 1),
        Step::ListenerSelect => at(text::LISTENER, 2),
        Step::ListenerRead => at(text::LISTENER, 3),
        Step::ListenerClose => at(text::LISTENER, 4),
        Step::ListenerLoop => at(text::LISTENER, 5),
        Step::WriterOpen => at(text::WRITER, 1),
        Step::WriterTime1 => at(text::WRITER, 2),
        Step::WriterWrite => at(text::WRITER, 3),
        Step::WriterTime2 => at(text::WRITER, 4),
        Step::WriterPrint => at(text::WRITER, 5),
        Step::WriterClose => at(text::WRITER, 7),
    }
}

fn line_gauge(task_index: usize, step: Step) -> Effect {
    let code = line_of(step);
    Effect::Gauge {
        task: task(task_index),
        gauge: G_LINE,
        value: i64::from(code.function) << 16 | i64::from(code.line),
    }
}

/// The step in words; `kernel` names the writer's clock (gettimeofday() in the
/// seed, clock_gettime() in the program measured on today's kernel).
fn step_word(step: Step, kernel: Kernel) -> &'static str {
    match step {
        Step::WriterTime1 | Step::WriterTime2 if kernel == Kernel::Eevdf => "clock_gettime()",
        Step::ListenerOpen | Step::WriterOpen => "open()",
        Step::ListenerSelect => "select()",
        Step::ListenerRead => "read()",
        Step::ListenerClose | Step::WriterClose => "close()",
        Step::ListenerLoop => "its busy loop",
        Step::WriterTime1 | Step::WriterTime2 => "gettimeofday()",
        Step::WriterWrite => "write()",
        Step::WriterPrint => "fprintf()",
    }
}

/// The step a preempted task was in when it lost the CPU (the one before the one it resumes).
fn left_in(resumes: Step) -> Step {
    match resumes {
        Step::WriterTime1 => Step::WriterOpen,
        Step::WriterWrite => Step::WriterTime1,
        Step::WriterTime2 => Step::WriterWrite,
        Step::WriterPrint => Step::WriterTime2,
        Step::WriterClose => Step::WriterPrint,
        other => other,
    }
}

impl<'c> TraceSink<'c> {
    pub fn new(config: &'c Config, marks: Vec<PhaseMark>) -> TraceSink<'c> {
        let layout = layout(config);
        let channel = ChannelId(0);
        let shadow = World::new(&layout);
        let folder = Folder::new(TraceBuilder::new(layout, text::TEMPLATES, text::CODE));
        TraceSink {
            folder,
            config,
            open: None,
            marks,
            next_mark: 0,
            writes: 0,
            hidden_by_grep: 0,
            phase_started: false,
            woken_at: [0; 2],
            channel,
            kernel: config.kernel,
            shadow,
            stopped_at: None,
        }
    }

    /// The gauges of `snap` that differ from what the trace already shows. The
    /// slice left is stamped at every switch (`force_slice`) and whenever the live
    /// value the stage computes (stamped value minus the ticks since, while
    /// running) would be wrong.
    fn snap_gauges(
        &self,
        index: usize,
        snap: &SchedSnap,
        at_ns: u64,
        force_slice: bool,
        effects: &mut Vec<Effect>,
    ) {
        let t = task(index);
        let shown = &self.shadow.tasks[index].gauges;
        let values: [(u8, i64); 7] = [
            (G_PRIO, i64::from(snap.prio)),
            (G_STATIC, i64::from(snap.static_prio)),
            (G_SLEEP_AVG, snap.sleep_avg_ns as i64),
            (G_BONUS, snap.bonus),
            (G_INTERACTIVE, i64::from(snap.interactive)),
            (G_CREDIT, snap.credit),
            (G_ARRAY, i64::from(snap.array)),
        ];
        let fair = snap.fair.map(|f| [(G_VRUNTIME, f.vruntime), (G_DEADLINE, f.deadline), (G_LAG, f.lag)]);
        for (gauge, value) in values.into_iter().chain(fair.into_iter().flatten()) {
            if shown[usize::from(gauge)] != value {
                effects.push(Effect::Gauge { task: t, gauge, value });
            }
        }
        let tick = self.config.tick_ns();
        let stamp = shown[usize::from(G_SLICE_STAMP)].max(0) as u64;
        let ticks_since = (at_ns / tick).saturating_sub(stamp / tick) as i64;
        let running = self.shadow.tasks[index].state.cpu().is_some();
        let live = shown[usize::from(G_SLICE)] - if running { ticks_since } else { 0 };
        if force_slice || live != snap.slice_left as i64 {
            effects.push(Effect::Gauge { task: t, gauge: G_SLICE, value: snap.slice_left as i64 });
            effects.push(Effect::Gauge { task: t, gauge: G_SLICE_STAMP, value: at_ns as i64 });
        }
    }

    /// Starts the phase that the next writes belong to, if a mark is due.
    fn maybe_phase(&mut self, upcoming_write: u64) {
        if !self.phase_started {
            self.folder.builder.phase(say(T::PHASE_START.id(), &[]));
            self.phase_started = true;
        }
        while let Some(mark) = self.marks.get(self.next_mark).copied() {
            if mark.write_index > upcoming_write {
                break;
            }
            self.folder.flush();
            if mark.burst == 0 {
                self.folder.builder.phase(say(T::PHASE_FAST.id(), &[]));
            } else {
                self.folder.builder.phase(say(T::PHASE_BURST.id(), &[Arg::Count(mark.burst)]));
            }
            self.next_mark += 1;
        }
    }

    fn begin(&mut self, at_ns: u64, label: u16, label_args: Vec<Arg>, write: Option<u64>) {
        if self.stopped_at.is_some() {
            return;
        }
        self.close_open(at_ns);
        if self.folder.builder.storage_full() {
            // The trace ends here; everything after, even of this event, is dropped.
            self.stopped_at = Some(at_ns);
            return;
        }
        if let Some(write) = write {
            self.maybe_phase(write);
        } else if !self.phase_started {
            self.maybe_phase(0);
        }
        self.open =
            Some(Iteration { start_ns: at_ns, label, write, label_args, ops: Vec::new(), period_ns: 0 });
    }

    // The fields of one op, in OpSpec's order; a struct here would only rename them.
    #[allow(clippy::too_many_arguments)]
    fn push(
        &mut self,
        at_ns: u64,
        actor: Option<usize>,
        kind: OpKind,
        code: CodeLoc,
        template: T,
        args: Vec<Arg>,
        effects: Vec<Effect>,
    ) {
        if self.open.is_none() {
            self.begin(at_ns, T::ITER_SCHEDULE.id(), vec![Arg::Count(0)], None);
        }
        if self.stopped_at.is_some() {
            return;
        }
        // Today's kernel: its own pipe functions and the words for what changed.
        let (code, template) = if self.kernel == Kernel::Eevdf {
            (
                CodeLoc { function: text::today_function(code.function), ..code },
                text::today_template(template),
            )
        } else {
            (code, template)
        };
        self.shadow.advance_to(at_ns);
        for effect in &effects {
            self.shadow.apply(effect);
        }
        let iteration = self.open.as_mut().expect("an open iteration");
        iteration.ops.push(OwnedOp {
            rel_ns: at_ns - iteration.start_ns,
            actor: actor.map(task),
            kind,
            code,
            template: template.id(),
            args,
            effects,
        });
    }

    /// Closes the open iteration at `end_ns` and feeds it to the folder.
    fn close_open(&mut self, end_ns: u64) {
        let Some(mut iteration) = self.open.take() else { return };
        if iteration.ops.is_empty() {
            return;
        }
        iteration.period_ns = end_ns - iteration.start_ns;
        self.folder.close(iteration);
    }

    fn free(&self, effects: &mut Vec<Effect>, discarded: u64) {
        effects.push(Effect::Decrease { counter: C_ALIVE, delta: 1 });
        effects.push(Effect::Count { counter: C_FREES, delta: 1 });
        if discarded > 0 {
            effects.push(Effect::Decrease { counter: C_BYTES, delta: discarded });
            effects.push(Effect::Count { counter: C_DISCARDED, delta: discarded });
        }
    }

    fn spin(&mut self, at_ns: u64, kind: SpinKind, count: u64, cycle_ns: u64) {
        let cpu = self.config.cpus - 1;
        let me = Arg::Task(task(WRITER));
        let state = Effect::SetState { task: task(WRITER), state: TaskState::RunningKernel { cpu } };
        // Ops sit at the end of each step, like the machine's; an iteration starts at its first op.
        // The first cycle and the last are built; the identical ones between are counted.
        // The last stays open, so that its length is set by whatever comes next.
        let middle = count.saturating_sub(2);
        let mut k = 0;
        while k < count {
            let cycle_start = at_ns + k * cycle_ns;
            self.spin_cycle(kind, cycle_start, cycle_ns, me, state);
            if self.stopped_at.is_some() {
                return;
            }
            if k == 0 && middle > 0 {
                let first_op = self.open.as_ref().map_or(cycle_start, |it| it.start_ns);
                let built = self.open.clone();
                self.close_open(first_op + cycle_ns);
                if self.folder.extend(middle) {
                    for op in built.iter().flat_map(|it| it.ops.iter()) {
                        for effect in &op.effects {
                            match *effect {
                                Effect::Count { counter, delta } => {
                                    self.shadow.apply(&Effect::Count { counter, delta: delta * middle })
                                }
                                Effect::Decrease { counter, delta } => {
                                    self.shadow.apply(&Effect::Decrease { counter, delta: delta * middle })
                                }
                                _ => {}
                            }
                        }
                    }
                    k = count - 1;
                    continue;
                }
            }
            k += 1;
        }
    }

    fn spin_cycle(&mut self, kind: SpinKind, cycle_start: u64, cycle_ns: u64, me: Arg, state: Effect) {
        match kind {
            SpinKind::Enxio => {
                let start = cycle_start + cycle_ns;
                self.begin(start, T::ITER_ENXIO_SPIN.id(), vec![], None);
                let effects = vec![
                    state,
                    line_gauge(WRITER, Step::WriterOpen),
                    Effect::Count { counter: C_ENXIO, delta: 1 },
                ];
                self.push(
                    start,
                    Some(WRITER),
                    OpKind::Syscall,
                    at(text::FIFO_OPEN, 4),
                    T::W_ENXIO,
                    vec![me],
                    effects,
                );
            }
            SpinKind::Again => {
                let c = self.config.costs;
                let start = cycle_start + c.open_ns;
                self.begin(start, T::ITER_AGAIN.id(), vec![], None);
                let steps = [
                    (0, Step::WriterOpen, T::W_OPEN, vec![Effect::Count { counter: C_WRITERS, delta: 1 }]),
                    (c.gettimeofday_ns, Step::WriterTime1, T::W_TIME1, vec![]),
                    (
                        c.gettimeofday_ns + c.write_ns,
                        Step::WriterWrite,
                        T::W_AGAIN,
                        vec![Effect::Count { counter: C_EAGAIN, delta: 1 }],
                    ),
                    (
                        c.gettimeofday_ns + c.write_ns + c.close_ns,
                        Step::WriterClose,
                        T::W_CLOSE_KEPT,
                        vec![Effect::Decrease { counter: C_WRITERS, delta: 1 }],
                    ),
                ];
                for (offset, step, template, extra) in steps {
                    let mut effects = vec![state, line_gauge(WRITER, step)];
                    effects.extend(extra);
                    let args = match template {
                        T::W_AGAIN => vec![me, Arg::Count(self.config.pipe_capacity)],
                        _ => vec![me],
                    };
                    let code = match template {
                        T::W_OPEN => at(text::FIFO_OPEN, 5),
                        T::W_AGAIN => at(text::PIPE_WRITE, 3),
                        T::W_CLOSE_KEPT => at(text::PIPE_RELEASE, 3),
                        _ => line_of(step),
                    };
                    self.push(start + offset, Some(WRITER), OpKind::Syscall, code, template, args, effects);
                }
            }
        }
    }

    /// The listener starts alone; the writer follows later.
    pub fn start(&mut self) {
        self.begin(0, T::ITER_START.id(), vec![], None);
        let mut args = vec![Arg::Task(task(LISTENER)), Arg::Ns(self.config.writer_start_ns)];
        let template = match self.kernel {
            Kernel::O1 => {
                let [shell, listener, _] = super::machine::forked_slices(self.config);
                let tick = self.config.tick_ns();
                args.extend([Arg::Ns(shell * tick), Arg::Ns(listener * tick)]);
                T::START_26
            }
            Kernel::Eevdf => {
                let slice = crate::kernel::sched::eevdf::base_slice_ns(self.config.slice_cpus);
                args.extend([Arg::Ns(slice), Arg::Ns(self.config.tick_ns())]);
                T::START
            }
            Kernel::Goodness => T::START,
        };
        self.push(0, Some(LISTENER), OpKind::Note, at(text::LISTENER, 0), template, args, vec![]);
    }

    pub fn finish_ops(&mut self, end_ns: u64, writes: u64, slow: u64) {
        let end_ns = self.stopped_at.unwrap_or(end_ns);
        if self.stopped_at.is_some() {
            // The iteration open at the stop is dropped: its end is unknown.
            self.open = None;
        }
        self.close_open(end_ns);
        self.folder.flush();
        self.folder.builder.advance_to(end_ns);
        self.folder.builder.iteration(say(T::ITER_END.id(), &[]));
        self.folder.builder.op(OpSpec {
            at_ns: end_ns,
            actor: None,
            kind: OpKind::Note,
            code: at(text::WRITER, 0),
            text: say(T::END.id(), &[Arg::Ns(end_ns), Arg::Count(writes), Arg::Count(slow)]),
            effects: &[],
        });
    }
}

impl crate::cases::fifo_trigger::machine::Sink for TraceSink<'_> {
    fn event(&mut self, ev: Ev) {
        if self.stopped_at.is_some() {
            return;
        }
        match ev {
            Ev::Step { at, task, step, outcome, next } => self.step(at, task, step, outcome, next),
            Ev::Spin { at, kind, count, cycle_ns, .. } => self.spin(at, kind, count, cycle_ns),
            Ev::Tick { at, task: index, outcome, snap, .. } => self.tick(at, index, outcome, &snap),
            Ev::Wake { at, task: index, why, credit, preempts, snap, .. } => {
                self.wake(at, index, why, credit, preempts, &snap)
            }
            Ev::Sleep { at, task: index, snap } => {
                let mut effects = vec![Effect::SetState {
                    task: task(index),
                    state: TaskState::Sleeping { channel: self.channel },
                }];
                self.snap_gauges(index, &snap, at, false, &mut effects);
                for effect in &effects {
                    self.shadow.apply(effect);
                }
                let op =
                    self.open.as_mut().and_then(|it| it.ops.last_mut()).expect("select precedes the sleep");
                op.effects.extend(effects);
            }
            Ev::Switch(switch) => self.switch(switch),
        }
    }
}
