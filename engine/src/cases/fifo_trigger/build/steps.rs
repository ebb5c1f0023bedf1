//! The seed's program steps in the trace: each line the listener or the writer
//! runs, as an op whose narration and counters follow from how the line ended.

use super::*;

/// An op's kind, narration template and arguments.
type Said = (OpKind, T, Vec<Arg>);

impl TraceSink<'_> {
    /// One program step of task `index`, which goes on to `next`.
    pub(super) fn step(&mut self, at_ns: u64, index: usize, step: Step, outcome: Outcome, next: Step) {
        let cpu = if index == LISTENER { 0 } else { self.config.cpus - 1 };
        let me = Arg::Task(task(index));
        let mut effects =
            vec![Effect::SetState { task: task(index), state: running(next, cpu) }, line_gauge(index, step)];
        let mut code = line_of(step);
        let (kind, template, args) = match step {
            Step::ListenerOpen
            | Step::ListenerSelect
            | Step::ListenerRead
            | Step::ListenerClose
            | Step::ListenerLoop => self.listener_step(at_ns, me, step, outcome, &mut effects, &mut code),
            Step::WriterOpen
            | Step::WriterTime1
            | Step::WriterWrite
            | Step::WriterTime2
            | Step::WriterPrint
            | Step::WriterClose => self.writer_step(at_ns, me, step, outcome, &mut effects, &mut code),
        };
        self.push(at_ns, Some(index), kind, code, template, args, effects);
    }

    /// A line of the listener's loop: open, select, read, close, spin.
    fn listener_step(
        &mut self,
        at_ns: u64,
        me: Arg,
        step: Step,
        outcome: Outcome,
        effects: &mut Vec<Effect>,
        code: &mut CodeLoc,
    ) -> Said {
        match (step, outcome) {
            (Step::ListenerOpen, Outcome::Opened { .. }) => {
                self.begin(at_ns, T::ITER_LISTENER.id(), vec![], None);
                effects.push(Effect::Count { counter: C_READERS, delta: 1 });
                // Reads the world before this op: the buffer exists iff someone else holds it.
                let writers = self.shadow.counters[usize::from(C_WRITERS.0)];
                let bytes = self.shadow.counters[usize::from(C_BYTES.0)];
                *code = at(text::FIFO_OPEN, 3);
                if writers == 0 {
                    effects.push(Effect::Count { counter: C_ALIVE, delta: 1 });
                    (OpKind::Syscall, T::L_OPEN_NEW, vec![me])
                } else {
                    (OpKind::Syscall, T::L_OPEN_HELD, vec![me, Arg::Count(bytes)])
                }
            }
            (Step::ListenerSelect, Outcome::Select { readable, pollin, .. }) => {
                self.listener_select(me, readable, pollin, effects, code)
            }
            (Step::ListenerRead, Outcome::Read { bytes }) => {
                effects.push(Effect::Decrease { counter: C_BYTES, delta: bytes });
                if bytes == 0 {
                    (OpKind::Syscall, T::L_READ_EMPTY, vec![me])
                } else {
                    (OpKind::Syscall, T::L_READ, vec![me, Arg::Count(bytes)])
                }
            }
            (Step::ListenerClose, Outcome::Closed { freed, discarded }) => {
                effects.push(Effect::Decrease { counter: C_READERS, delta: 1 });
                *code = at(text::PIPE_RELEASE, if freed { 2 } else { 3 });
                let bytes = self.shadow.counters[usize::from(C_BYTES.0)];
                if freed {
                    self.free(effects, discarded);
                    (OpKind::Syscall, T::L_CLOSE_FREED, vec![me, Arg::Count(discarded)])
                } else {
                    (OpKind::Syscall, T::L_CLOSE_KEPT, vec![me, Arg::Count(bytes)])
                }
            }
            (Step::ListenerLoop, _) => {
                effects.push(Effect::Count { counter: C_LOOPS, delta: 1 });
                (
                    OpKind::Compute,
                    T::L_LOOP,
                    vec![me, Arg::Count(self.config.loop_iters), Arg::Ns(self.config.loop_ns())],
                )
            }
            (step, outcome) => unreachable!("step {step:?} cannot end with {outcome:?}"),
        }
    }

    /// The listener's select: data or a hangup at once, or a sleep until woken.
    fn listener_select(
        &self,
        me: Arg,
        readable: bool,
        pollin: bool,
        effects: &mut Vec<Effect>,
        code: &mut CodeLoc,
    ) -> Said {
        let bytes = self.shadow.counters[usize::from(C_BYTES.0)];
        *code = at(text::SELECT, if readable { 4 } else { 5 });
        if readable {
            effects.push(Effect::Count { counter: C_SELECT_AT_ONCE, delta: 1 });
            if pollin {
                (OpKind::Syscall, T::L_SELECT_DATA, vec![me, Arg::Count(bytes)])
            } else {
                (OpKind::Syscall, T::L_SELECT_HUP, vec![me])
            }
        } else {
            effects.push(Effect::Count { counter: C_SELECT_SLEPT, delta: 1 });
            // After a wakeup the re-poll runs inside the reschedule's iteration.
            let again = self.open.as_ref().is_some_and(|iteration| iteration.label == T::ITER_SCHEDULE.id());
            (OpKind::Sleep, if again { T::L_SELECT_AGAIN } else { T::L_SELECT_SLEEP }, vec![me])
        }
    }

    /// A line of the writer's loop: open, time, write, time, print, close.
    fn writer_step(
        &mut self,
        at_ns: u64,
        me: Arg,
        step: Step,
        outcome: Outcome,
        effects: &mut Vec<Effect>,
        code: &mut CodeLoc,
    ) -> Said {
        match (step, outcome) {
            (Step::WriterOpen, Outcome::NoReader) => {
                self.begin(at_ns, T::ITER_ENXIO.id(), vec![], None);
                effects.push(Effect::Count { counter: C_ENXIO, delta: 1 });
                *code = at(text::FIFO_OPEN, 4);
                (OpKind::Syscall, T::W_ENXIO, vec![me])
            }
            (Step::WriterOpen, Outcome::Opened { first }) => {
                self.begin(at_ns, T::ITER_WRITE.id(), vec![], Some(self.writes + 1));
                effects.push(Effect::Count { counter: C_WRITERS, delta: 1 });
                *code = at(text::FIFO_OPEN, 5);
                (OpKind::Syscall, if first { T::W_OPEN_WAKE } else { T::W_OPEN }, vec![me])
            }
            (Step::WriterTime1, _) => (OpKind::Syscall, T::W_TIME1, vec![me]),
            (Step::WriterWrite, outcome) => self.writer_write(me, outcome, effects, code),
            (Step::WriterTime2, Outcome::Measured { dt_ns, write }) => {
                self.writer_measured(me, dt_ns, write, effects)
            }
            (Step::WriterPrint, _) => {
                (OpKind::Syscall, T::W_PRINT, vec![me, Arg::Ns(self.config.costs.print_ns)])
            }
            (Step::WriterClose, Outcome::Closed { freed, discarded }) => {
                effects.push(Effect::Decrease { counter: C_WRITERS, delta: 1 });
                *code = at(text::PIPE_RELEASE, if freed { 2 } else { 3 });
                if freed {
                    self.free(effects, discarded);
                    (OpKind::Syscall, T::W_CLOSE_FREED, vec![me, Arg::Count(discarded)])
                } else {
                    (OpKind::Syscall, T::W_CLOSE_KEPT, vec![me])
                }
            }
            (step, outcome) => unreachable!("step {step:?} cannot end with {outcome:?}"),
        }
    }

    /// The writer's write: a byte in, a full pipe (EAGAIN), or a broken one; the
    /// latter two leave the iteration without a write of its own.
    fn writer_write(
        &mut self,
        me: Arg,
        outcome: Outcome,
        effects: &mut Vec<Effect>,
        code: &mut CodeLoc,
    ) -> Said {
        match outcome {
            Outcome::Wrote => {
                effects.push(Effect::Count { counter: C_BYTES, delta: 1 });
                *code = at(text::PIPE_WRITE, 6);
                (OpKind::Syscall, T::W_WROTE, vec![me])
            }
            Outcome::WriteAgain => {
                effects.push(Effect::Count { counter: C_EAGAIN, delta: 1 });
                *code = at(text::PIPE_WRITE, 3);
                if let Some(open) = self.open.as_mut() {
                    open.label = T::ITER_AGAIN.id();
                    open.write = None;
                }
                (OpKind::Syscall, T::W_AGAIN, vec![me, Arg::Count(self.config.pipe_capacity)])
            }
            _ => {
                if let Some(open) = self.open.as_mut() {
                    open.write = None;
                }
                *code = at(text::PIPE_WRITE, 2);
                (OpKind::Syscall, T::W_BROKEN, vec![me])
            }
        }
    }

    /// The writer's second timestamp: a slow write is a milestone that says how many
    /// fast ones the reporter's grep hid before it.
    fn writer_measured(&mut self, me: Arg, dt_ns: u64, write: u64, effects: &mut Vec<Effect>) -> Said {
        self.writes = write;
        effects.push(Effect::Count { counter: C_WRITES, delta: 1 });
        // dt is whole microseconds, so "at least 1 ms" is exactly what grep shows.
        assert_eq!(super::super::grep::shown_by_grep(dt_ns), dt_ns >= SLOW_NS, "grep and SLOW_NS agree");
        if dt_ns >= SLOW_NS {
            effects.push(Effect::Count { counter: C_SLOW, delta: 1 });
            let hidden = std::mem::take(&mut self.hidden_by_grep);
            (OpKind::Milestone, T::W_TIME2_SLOW, vec![me, Arg::Ns(dt_ns), Arg::Count(hidden)])
        } else {
            self.hidden_by_grep += 1;
            (OpKind::Syscall, T::W_TIME2_FAST, vec![me])
        }
    }
}
