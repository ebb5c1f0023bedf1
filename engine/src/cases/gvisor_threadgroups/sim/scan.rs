//! The CPU-clock ticker's scans (one repeat block per stretch of identical
//! scans, any visit expanded on demand), the sleep they fill, and the clone that
//! waits for `TaskSet.mu` in between; and `runsc ps`, one more scan.

use super::*;

impl Sim<'_> {
    /// One scan's ops from `start` (absolute), the ticker's RLock granted at
    /// `rlock_at` (≥ start + TICK_NS; later if a writer held or waited).
    pub(super) fn scan_ops(&self, start: u64, tick: Arg, rlock_at: u64, relative: bool) -> Vec<Owned> {
        let base = if relative { 0 } else { start };
        let shift = |at_ns: u64| at_ns - start + base;
        let (ticker, lock) = (self.ticker, self.taskset);
        let mut ops = Vec::with_capacity(self.visit_ops.len() + 4);
        let waited = rlock_at - (start + TICK_NS);
        let wake_effects = vec![
            Effect::SetState { task: ticker, state: TaskState::RunningKernel { cpu: 0 } },
            Effect::Count { counter: self.c_scans, delta: 1 },
        ];
        ops.push(Owned {
            at_ns: shift(start),
            actor: Some(ticker),
            kind: OpKind::Wake,
            code: at(text::TICKER, 2),
            template: T::TICK,
            args: vec![tick, Arg::Ns(self.cfg.tick_ns)],
            effects: wake_effects,
        });
        if waited > 0 {
            ops.push(Owned {
                at_ns: shift(start + TICK_NS),
                actor: Some(ticker),
                kind: OpKind::LockContended,
                code: at(self.append_fn(), 1),
                template: T::RLOCK_WAIT,
                args: vec![Arg::Lock(lock)],
                effects: vec![
                    Effect::Enqueue { lock, task: ticker, mode: LockMode::Read },
                    Effect::SetState { task: ticker, state: TaskState::BlockedOnLock { lock } },
                ],
            });
            ops.push(Owned {
                at_ns: shift(rlock_at),
                actor: Some(ticker),
                kind: OpKind::LockGranted,
                code: at(self.append_fn(), 1),
                template: T::RLOCK_GRANTED,
                args: vec![Arg::Lock(lock), Arg::Ns(waited)],
                effects: vec![
                    Effect::Acquire { lock, task: ticker, mode: LockMode::Read, waited_ns: waited },
                    Effect::SetState { task: ticker, state: TaskState::RunningKernel { cpu: 0 } },
                ],
            });
        } else {
            ops.push(Owned {
                at_ns: shift(rlock_at),
                actor: Some(ticker),
                kind: OpKind::LockFast,
                code: at(self.append_fn(), 1),
                template: T::RLOCK,
                args: vec![Arg::Lock(lock)],
                effects: vec![Effect::Acquire { lock, task: ticker, mode: LockMode::Read, waited_ns: 0 }],
            });
        }
        let visits_from = rlock_at + RLOCK_NS;
        for op in &self.visit_ops {
            let mut op = op.clone();
            op.at_ns = shift(visits_from + op.at_ns);
            ops.push(op);
        }
        let visited = self.visit_ops.len() as u64;
        let found = self.cfg.groups();
        ops.push(Owned {
            at_ns: shift(visits_from + self.visit_total_ns),
            actor: Some(ticker),
            kind: OpKind::LockRelease,
            code: at(self.append_fn(), 2),
            template: T::RUNLOCK,
            args: vec![Arg::Count(visited), Arg::Count(found), Arg::Ns(self.totals.scan_ns), Arg::Lock(lock)],
            effects: vec![
                Effect::Release { lock, task: ticker },
                Effect::SetState { task: ticker, state: TaskState::Sleeping { channel: self.ch_tick } },
            ],
        });
        ops
    }

    pub(super) fn count_scans(&mut self, scans: u64) {
        self.totals.scans += scans;
        self.totals.tasks_visited += scans * self.visit_ops.len() as u64;
        self.totals.scan_cpu_ns += scans * (RLOCK_NS + self.visit_total_ns + RUNLOCK_NS);
    }

    /// `count` undisturbed scans from `start` (a tick), tick numbers from `tick0`.
    pub(super) fn repeat_scans(&mut self, start: u64, tick0: u64, count: u64) {
        if count == 0 {
            return;
        }
        let period = self.totals.scan_period_ns;
        let stride = period / self.cfg.tick_ns;
        let tick = Arg::AffineCount { base: tick0, stride };
        let ops = self.scan_ops(start, tick, start + TICK_NS, true);
        let specs: Vec<OpSpec<'_>> = ops
            .iter()
            .map(|op| OpSpec {
                at_ns: op.at_ns,
                actor: op.actor,
                kind: op.kind,
                code: op.code,
                text: say(op.template.id(), &op.args),
                effects: &op.effects,
            })
            .collect();
        self.builder.advance_to(start);
        self.builder.repeat(count, period, say(T::ITER_TICK.id(), &[tick]), &specs);
        self.count_scans(count);
    }

    pub(super) fn sleep(&mut self) {
        let cfg = self.cfg;
        let tick_ns = cfg.tick_ns;
        let period = self.totals.scan_period_ns;
        let stride = period / tick_ns;
        self.builder.phase(say(
            T::PHASE_SLEEP.id(),
            &[Arg::Ns(cfg.duration_ns), Arg::Count(1_000_000_000 / tick_ns)],
        ));
        let writer_at =
            Some(cfg.writer_at_ns).filter(|&writer_at| writer_at > 0 && writer_at <= cfg.duration_ns);
        if cfg.idle_stop {
            self.builder.iteration(say(T::ITER_TICK.id(), &[Arg::Count(0)]));
            self.emit(&Owned {
                at_ns: 0,
                actor: Some(self.ticker),
                kind: OpKind::Note,
                code: at(text::TICKER, 4),
                template: T::TICKER_IDLE,
                args: vec![],
                effects: vec![],
            });
            if let Some(writer_at) = writer_at {
                self.writer_window(writer_at, None);
            }
            // A clone at the very end of the sleep finishes after it (found by the budget test).
            let end = self.builder.now_ns().max(cfg.duration_ns);
            self.builder.advance_to(end);
            self.totals.sleep_end_ns = end;
            return;
        }
        // Scans at ticks 1, 1 + stride, … while the tick is within the duration.
        let last_tick = cfg.duration_ns / tick_ns;
        let mut next_tick = 1;
        if let Some(writer_at) = writer_at {
            let writer_tick = writer_at / tick_ns; // the tick at or before the writer
            if writer_tick >= next_tick {
                // Scans whose whole period ends at or before the writer's tick window.
                let before = (writer_tick - next_tick) / stride;
                self.repeat_scans(next_tick * tick_ns, next_tick, before);
                next_tick += before * stride;
            }
            next_tick = self.writer_window(writer_at, Some((next_tick, last_tick)));
        }
        if next_tick <= last_tick {
            let count = (last_tick - next_tick) / stride + 1;
            self.repeat_scans(next_tick * tick_ns, next_tick, count);
        }
        let end = self.builder.now_ns().max(cfg.duration_ns);
        self.builder.advance_to(end);
        self.totals.sleep_end_ns = end;
    }

    /// The clone at `writer_at`, with the ticker's scans around it (`ticks`: the
    /// next scan tick and the last one). Returns the next scan tick after the window.
    pub(super) fn writer_window(&mut self, writer_at: u64, ticks: Option<(u64, u64)>) -> u64 {
        let mut ops: Vec<(u64, u8, Owned)> = Vec::new();
        let window = self.scans_around_writer(writer_at, ticks, &mut ops);
        let waited = window.grant - writer_at;
        self.totals.writer_waits.push(waited);
        ops.extend(self.writer_ops(writer_at, window.grant, window.release));
        // Stable sort: by time, then releases before grants, then the order pushed.
        crate::run::sort::sort_by_key(&mut ops, |(at_ns, order, _)| (*at_ns, *order));
        let label_args = [Arg::Count(window.window_tick.unwrap_or(0))];
        let label = match window.window_tick {
            Some(_) => say(T::ITER_TICK_WRITER.id(), &label_args),
            None => say(T::ITER_WRITER.id(), &[]),
        };
        self.builder.iteration(label);
        for (_, _, op) in &ops {
            self.emit(op);
        }
        let end = ops.last().map_or(writer_at, |(at_ns, _, _)| *at_ns);
        // The window ends at the next scan tick (or just after its last op).
        let resume = (window.next_tick * self.cfg.tick_ns).max(end + 1);
        if ticks.is_some() {
            self.builder.advance_to(resume);
        }
        window.next_tick
    }

    /// Who gets `TaskSet.mu` first, the clone or the scan at its tick window (scan A,
    /// if the ticker runs one there), with that scan's ops pushed on `ops`.
    fn scans_around_writer(
        &mut self,
        writer_at: u64,
        ticks: Option<(u64, u64)>,
        ops: &mut Vec<(u64, u8, Owned)>,
    ) -> WriterWindow {
        let tick_ns = self.cfg.tick_ns;
        let scan_a = ticks.and_then(|(next, last)| {
            let start = next * tick_ns;
            (next <= last && start <= writer_at + WRITER_HOLD_NS).then_some((next, start, last))
        });
        let Some((tick_a, start_a, last_tick)) = scan_a else {
            return WriterWindow {
                grant: writer_at,
                release: writer_at + WRITER_HOLD_NS,
                next_tick: ticks.map_or(0, |(next, _)| next),
                window_tick: None,
            };
        };
        let window = if writer_at < start_a + TICK_NS {
            self.writer_before_scan(writer_at, tick_a, start_a, ops)
        } else {
            self.scan_before_writer(writer_at, tick_a, start_a, last_tick, ops)
        };
        if window.grant > writer_at {
            self.totals.writer_scan = Some((start_a, tick_a));
        }
        window
    }

    /// The clone gets in first; the scan's RLock waits for it.
    fn writer_before_scan(
        &mut self,
        writer_at: u64,
        tick_a: u64,
        start_a: u64,
        ops: &mut Vec<(u64, u8, Owned)>,
    ) -> WriterWindow {
        let release = writer_at + WRITER_HOLD_NS;
        let rlock = (start_a + TICK_NS).max(release);
        self.push_scan(ops, start_a, tick_a, rlock, 2);
        let end = rlock + RLOCK_NS + self.visit_total_ns + RUNLOCK_NS;
        let next_tick = end.div_ceil(self.cfg.tick_ns).max(tick_a + 1);
        WriterWindow { grant: writer_at, release, next_tick, window_tick: Some(tick_a) }
    }

    /// The scan holds its RLock first; the clone waits for its end, and the next
    /// scan (scan B) waits for the clone if its RLock comes while the clone waits or holds.
    fn scan_before_writer(
        &mut self,
        writer_at: u64,
        tick_a: u64,
        start_a: u64,
        last_tick: u64,
        ops: &mut Vec<(u64, u8, Owned)>,
    ) -> WriterWindow {
        let tick_ns = self.cfg.tick_ns;
        let rlock_a = start_a + TICK_NS;
        let end_a = rlock_a + RLOCK_NS + self.visit_total_ns;
        let grant = if writer_at < end_a { end_a } else { writer_at };
        let release = grant + WRITER_HOLD_NS;
        // The scan's RUnlock goes before the writer's grant at the same instant.
        self.push_scan(ops, start_a, tick_a, rlock_a, 0);
        let mut next_tick = tick_a + self.totals.scan_period_ns / tick_ns;
        let start_b = next_tick * tick_ns;
        if next_tick <= last_tick && start_b + TICK_NS < release {
            self.push_scan(ops, start_b, next_tick, release, 2);
            let end = release + RLOCK_NS + self.visit_total_ns + RUNLOCK_NS;
            next_tick = end.div_ceil(tick_ns).max(next_tick + 1);
        }
        WriterWindow { grant, release, next_tick, window_tick: Some(tick_a) }
    }

    /// One scan at `tick` with its RLock at `rlock_at`, its ops sorted as `order`
    /// among the writer's at the same instant.
    fn push_scan(
        &mut self,
        ops: &mut Vec<(u64, u8, Owned)>,
        start: u64,
        tick: u64,
        rlock_at: u64,
        order: u8,
    ) {
        for op in self.scan_ops(start, Arg::Count(tick), rlock_at, false) {
            ops.push((op.at_ns, order, op));
        }
        self.count_scans(1);
    }

    /// The clone's own ops: it arrives at `writer_at`, waits if the lock is held,
    /// holds it from `grant` and lets it go at `release`.
    fn writer_ops(&self, writer_at: u64, grant: u64, release: u64) -> Vec<(u64, u8, Owned)> {
        let (lock, writer) = (self.taskset, self.writer);
        let waited = grant - writer_at;
        let mut ops = Vec::with_capacity(4);
        let mut arrive = vec![Effect::SetState { task: writer, state: TaskState::RunningKernel { cpu: 1 } }];
        if waited > 0 {
            arrive.push(Effect::Enqueue { lock, task: writer, mode: LockMode::Write });
            arrive.push(Effect::SetState { task: writer, state: TaskState::BlockedOnLock { lock } });
        }
        ops.push((
            writer_at,
            1,
            Owned {
                at_ns: writer_at,
                actor: Some(writer),
                kind: OpKind::Syscall,
                code: at(text::CLONE, 1),
                template: T::WRITER_ARRIVES,
                args: vec![Arg::Ns(writer_at), Arg::Lock(lock)],
                effects: arrive,
            },
        ));
        if waited > 0 {
            ops.push((
                writer_at,
                1,
                Owned {
                    at_ns: writer_at,
                    actor: Some(writer),
                    kind: OpKind::LockContended,
                    code: at(text::CLONE, 1),
                    template: T::WRITER_WAITS,
                    args: vec![Arg::Lock(lock)],
                    effects: vec![],
                },
            ));
        }
        let mut granted =
            vec![Effect::Acquire { lock, task: writer, mode: LockMode::Write, waited_ns: waited }];
        if waited > 0 {
            granted.push(Effect::SetState { task: writer, state: TaskState::RunningKernel { cpu: 1 } });
        }
        ops.push((
            grant,
            1,
            Owned {
                at_ns: grant,
                actor: Some(writer),
                kind: if waited > 0 { OpKind::LockGranted } else { OpKind::LockFast },
                code: at(text::CLONE, 3),
                template: if waited > 0 { T::WRITER_GRANTED } else { T::WRITER_FREE },
                args: if waited > 0 { vec![Arg::Lock(lock), Arg::Ns(waited)] } else { vec![Arg::Lock(lock)] },
                effects: granted,
            },
        ));
        ops.push((
            release,
            0,
            Owned {
                at_ns: release,
                actor: Some(writer),
                kind: OpKind::LockRelease,
                code: at(text::CLONE, 2),
                template: T::WRITER_DONE,
                args: vec![Arg::Lock(lock)],
                effects: vec![
                    Effect::Release { lock, task: writer },
                    Effect::SetState { task: writer, state: TaskState::Sleeping { channel: self.ch_done } },
                ],
            },
        ));
        ops
    }
}

/// When the clone gets `TaskSet.mu` and lets it go, and where the scans resume.
struct WriterWindow {
    grant: u64,
    release: u64,
    /// The next scan tick after the window.
    next_tick: u64,
    /// The tick of the scan at the writer's tick window, if the ticker ran one there.
    window_tick: Option<u64>,
}

impl Sim<'_> {
    /// `runsc ps` after the sleep: `ThreadGroups()`, one more scan by another goroutine.
    pub(super) fn runsc_ps(&mut self) {
        if !self.cfg.runsc_ps {
            return;
        }
        let (ps, lock) = (self.ps, self.taskset);
        let start = self.builder.now_ns();
        self.builder.phase(say(T::PHASE_PS.id(), &[]));
        self.builder.iteration(say(T::ITER_PS.id(), &[]));
        self.emit(&Owned {
            at_ns: start,
            actor: Some(ps),
            kind: OpKind::LockFast,
            code: at(self.append_fn(), 1),
            template: T::PS_RLOCK,
            args: vec![Arg::Lock(lock)],
            effects: vec![
                Effect::SetState { task: ps, state: TaskState::RunningKernel { cpu: 1 } },
                Effect::Acquire { lock, task: ps, mode: LockMode::Read, waited_ns: 0 },
            ],
        });
        let from = start + RLOCK_NS;
        for op in self.visit_ops.clone() {
            self.emit(&Owned { at_ns: from + op.at_ns, actor: Some(ps), ..op });
        }
        let end = from + self.visit_total_ns;
        let cpu = RLOCK_NS + self.visit_total_ns + RUNLOCK_NS;
        self.totals.ps_scan_ns = Some(cpu);
        self.emit(&Owned {
            at_ns: end,
            actor: Some(ps),
            kind: OpKind::LockRelease,
            code: at(self.append_fn(), 2),
            template: T::PS_DONE,
            args: vec![
                Arg::Count(self.visit_ops.len() as u64),
                Arg::Count(self.cfg.groups()),
                Arg::Ns(cpu),
                Arg::Lock(lock),
            ],
            effects: vec![
                Effect::Release { lock, task: ps },
                Effect::SetState { task: ps, state: TaskState::Sleeping { channel: self.ch_done } },
            ],
        });
        self.builder.advance_to(end + RUNLOCK_NS);
    }
}
