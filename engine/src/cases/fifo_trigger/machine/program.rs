//! The two programs' steps on the machine: what a step does when it completes
//! (the pipe's and the FIFO's rules, the wakeups it makes), how a step starts or
//! resumes, and when the writer spins on a failing `open()`.

use super::*;

impl Machine<'_> {
    /// The effect of `step` completing now: its outcome, the next step, and the
    /// wakeup of the pipe's wait queue it performs, if any.
    pub(super) fn effect(&mut self, task: usize, step: Step) -> (Outcome, Step, Option<WakeBy>) {
        match step {
            Step::ListenerOpen => {
                let (file, first) = self.fifo.open_reader();
                self.tasks[task].fd = Some(file);
                (Outcome::Opened { first }, Step::ListenerSelect, None)
            }
            Step::ListenerSelect => {
                let file = self.tasks[task].fd.expect("select on an open fd");
                let mask = self.fifo.poll(&file);
                let next = if self.config.drain { Step::ListenerRead } else { Step::ListenerClose };
                let outcome =
                    Outcome::Select { readable: mask.readable(), pollin: mask.pollin, pollhup: mask.pollhup };
                if mask.readable() {
                    (outcome, next, None)
                } else {
                    (outcome, Step::ListenerSelect, None)
                }
            }
            Step::ListenerRead => {
                let bytes = self.fifo.read(self.fifo.capacity);
                (Outcome::Read { bytes }, Step::ListenerClose, None)
            }
            Step::ListenerClose => {
                let file = self.tasks[task].fd.take().expect("close an open fd");
                let closed = self.fifo.close(file);
                (
                    Outcome::Closed { freed: closed.freed, discarded: closed.discarded },
                    Step::ListenerLoop,
                    None,
                )
            }
            Step::ListenerLoop => {
                // A whole loop without sleeping: the listener is spinning, not waiting.
                self.listener_spun_this_slice = true;
                (Outcome::Done, Step::ListenerOpen, None)
            }
            Step::WriterOpen => match self.fifo.open_writer() {
                None => (Outcome::NoReader, Step::WriterOpen, None),
                Some((file, first)) => {
                    self.tasks[task].fd = Some(file);
                    (Outcome::Opened { first }, Step::WriterTime1, first.then_some(WakeBy::OpenPartner))
                }
            },
            Step::WriterTime1 => {
                self.tasks[task].time1_ns = self.now;
                (Outcome::Done, Step::WriterWrite, None)
            }
            Step::WriterWrite => match self.fifo.write_byte() {
                WriteResult::Wrote => (Outcome::Wrote, Step::WriterTime2, Some(WakeBy::Write)),
                WriteResult::Again => (Outcome::WriteAgain, Step::WriterClose, None),
                WriteResult::Broken => (Outcome::WriteBroken, Step::WriterClose, None),
            },
            Step::WriterTime2 => {
                // As the program computes it: two clock readings at the clock's resolution
                // (whole microseconds for the seed's gettimeofday()).
                let tick = self.config.clock_resolution_ns.max(1);
                let dt_ns = (self.now / tick - self.tasks[task].time1_ns / tick) * tick;
                self.writes.push(WriteRecord { time1_ns: self.tasks[task].time1_ns, dt_ns });
                (Outcome::Measured { dt_ns, write: self.writes.len() as u64 }, Step::WriterPrint, None)
            }
            Step::WriterPrint => (Outcome::Done, Step::WriterClose, None),
            Step::WriterClose => {
                let file = self.tasks[task].fd.take().expect("close an open fd");
                let closed = self.fifo.close(file);
                let wakes = (!closed.freed).then_some(WakeBy::Close);
                (
                    Outcome::Closed { freed: closed.freed, discarded: closed.discarded },
                    Step::WriterOpen,
                    wakes,
                )
            }
        }
    }

    /// Starts the task's current step (or the rest of an interrupted one).
    pub(super) fn begin_step(&mut self, task: usize) {
        let now = self.now;
        if let Some(rest) = self.tasks[task].remaining_ns.take() {
            self.tasks[task].step_end = now + rest;
            return;
        }
        let step = self.tasks[task].step;
        if step == Step::WriterOpen {
            if let Some((kind, cycle)) = self.spin_kind() {
                // Sum up identical cycles until something could change: the next
                // rescheduling tick, another CPU's next step, or the end of the run.
                let mut bound = self.next_resched_tick(task).min(self.config.duration_ns);
                for (cpu, c) in self.cpus.iter().enumerate() {
                    if cpu != usize::from(self.tasks[task].home_cpu) {
                        if let Some(other) = c.current {
                            bound = bound.min(self.tasks[other].step_end);
                        }
                    }
                }
                let count = bound.saturating_sub(now) / cycle;
                if count >= 2 {
                    self.tasks[task].spin = Some((kind, now, cycle));
                    self.tasks[task].step_end = now + count * cycle;
                    return;
                }
            }
        }
        self.tasks[task].step_end = now + step.cost(self.config);
    }

    /// Whether the writer's next cycles are all alike, and their length.
    pub(super) fn spin_kind(&self) -> Option<(SpinKind, u64)> {
        let c = &self.config.costs;
        if self.fifo.readers() == 0 {
            return Some((SpinKind::Enxio, c.open_enxio_ns));
        }
        let listener_waiting = self.tasks[LISTENER].waiting;
        // One CPU only: a cycle of several steps must not straddle another CPU's event,
        // whose op would then come before the cycle's first steps.
        if self.cpus.len() == 1
            && self.fifo.bytes() >= self.fifo.capacity
            && self.fifo.writers() == 0
            && !listener_waiting
        {
            return Some((SpinKind::Again, c.open_ns + c.gettimeofday_ns + c.write_ns + c.close_ns));
        }
        None
    }
}
