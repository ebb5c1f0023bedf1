//! When a sender never returns: the simulator's wait-for graph names the cycle;
//! after `SendContainerSignal` the paused sandbox stays paused; after job control
//! a clone queues behind the stuck reader, the ticker behind the clone (the CPU
//! clock stops), and the watchdog reports its own goroutine stuck.

use super::*;

impl Sim<'_> {
    /// Some sender never returns: the simulator's wait-for graph names the cycle,
    /// and what follows is drawn (job control) or said (the paused sandbox).
    pub(super) fn stall(&mut self) -> Outcome {
        let now = self.builder.now_ns();
        self.builder.phase(say(T::PHASE_STALL.id(), &[]));
        self.builder.iteration(say(T::ITER_STALL.id(), &[]));
        let found = find_deadlock(&self.builder.world().locks);
        if let Some(deadlock) = &found {
            self.say_deadlock(deadlock, now);
        }
        self.totals.deadlock = found.clone();
        let Some(deadlock) = found else { return Outcome::Completed };
        let stuck = deadlock.cycle[0].0;
        match self.ext_mu {
            // runsc paused the kernel before the call: no task runs, so no clone comes;
            // the stuck caller keeps k.extMu, and with it every later runsc command.
            Some(ext_mu) => self.emit(&Owned {
                at_ns: now,
                actor: Some(stuck),
                kind: OpKind::Compute,
                code: at(self.send_fn(), text::send_line::RLOCK),
                template: T::STALL_PAUSED,
                args: vec![Arg::Task(stuck), Arg::Lock(self.taskset), Arg::Lock(ext_mu)],
                effects: vec![],
            }),
            None => self.freeze(now),
        }
        Outcome::Deadlock(deadlock)
    }

    /// The deadlock op, and the cycle in words for the metrics.
    fn say_deadlock(&mut self, deadlock: &Deadlock, now: u64) {
        let (task, lock) = deadlock.cycle[0];
        let (template, args) = match deadlock.cycle.as_slice() {
            [_] => (T::DEADLOCK, vec![Arg::Task(task), Arg::Lock(lock)]),
            [(_, _), (other, other_lock)] => (
                T::DEADLOCK_PAIR,
                vec![Arg::Task(task), Arg::Lock(lock), Arg::Task(*other), Arg::Lock(*other_lock)],
            ),
            cycle => (T::DEADLOCK_RING, vec![Arg::Count(cycle.len() as u64)]),
        };
        let (function, line) = if self.cfg.job_control {
            (text::JOB_CONTROL, text::job_line::LOCK)
        } else {
            (self.send_fn(), text::send_line::LOCK)
        };
        self.emit(&Owned {
            at_ns: now,
            actor: Some(task),
            kind: OpKind::Deadlock,
            code: at(function, line),
            template,
            args,
            effects: vec![],
        });
        let layout = &self.builder.layout;
        let words: Vec<String> = deadlock
            .cycle
            .iter()
            .map(|(t, l)| format!("{} waits for {}", layout.task_name(*t), layout.lock_name(*l)))
            .collect();
        let text = if words.len() == 1 {
            format!("{}, which it holds itself", words[0])
        } else {
            format!("{}, each lock held by the next", words.join("; "))
        };
        self.totals.deadlock_text = Some(text);
        self.totals.freeze_at_ns = Some(now);
    }

    /// Job control froze with `TaskSet.mu` read-held for good (no pause: the sandbox
    /// runs on). The next writer queues behind the stuck reader, the ticker's next
    /// scan behind the writer, and the watchdog's next turn too, which reports itself
    /// stuck after its timeout.
    fn freeze(&mut self, frozen_at: u64) {
        let (taskset, writer, ticker) = (self.taskset, self.writer, self.ticker);
        let Some(watchdog) = self.watchdog else { return };
        self.builder.phase(say(T::PHASE_FREEZE.id(), &[]));
        let clone_at = frozen_at + FREEZE_WRITER_AFTER_NS;
        self.builder.iteration(say(T::ITER_FREEZE_WRITER.id(), &[]));
        self.emit(&Owned {
            at_ns: clone_at,
            actor: Some(writer),
            kind: OpKind::LockContended,
            code: at(text::CLONE, 1),
            template: T::FREEZE_WRITER,
            args: vec![Arg::Ns(FREEZE_WRITER_AFTER_NS), Arg::Lock(taskset)],
            effects: vec![
                Effect::Enqueue { lock: taskset, task: writer, mode: LockMode::Write },
                Effect::SetState { task: writer, state: TaskState::BlockedOnLock { lock: taskset } },
            ],
        });
        // The ticker's first tick after the writer queued: Notify counts it, then blocks.
        let tick = clone_at / self.cfg.tick_ns + 1;
        let tick_at = tick * self.cfg.tick_ns;
        self.builder.iteration(say(T::ITER_FREEZE_TICK.id(), &[Arg::Count(tick)]));
        self.emit(&Owned {
            at_ns: tick_at,
            actor: Some(ticker),
            kind: OpKind::LockContended,
            code: at(text::TICKER, 2),
            template: T::FREEZE_TICK,
            args: vec![Arg::Count(tick), Arg::Lock(taskset)],
            effects: vec![
                Effect::Enqueue { lock: taskset, task: ticker, mode: LockMode::Read },
                Effect::SetState { task: ticker, state: TaskState::BlockedOnLock { lock: taskset } },
            ],
        });
        self.totals.clock_stopped_tick = Some(tick);
        // The watchdog's turns: every period from the sandbox's start (a model choice:
        // a turn takes no time); the first one after the ticker blocked queues too.
        let turn_at = (tick_at / WATCHDOG_PERIOD_NS + 1) * WATCHDOG_PERIOD_NS;
        self.builder.iteration(say(T::ITER_WATCHDOG.id(), &[]));
        self.emit(&Owned {
            at_ns: turn_at,
            actor: Some(watchdog),
            kind: OpKind::LockContended,
            code: at(text::WATCHDOG, 1),
            template: T::WATCHDOG_TURN,
            args: vec![Arg::Ns(WATCHDOG_PERIOD_NS), Arg::Ns(WATCHDOG_TIMEOUT_NS), Arg::Lock(taskset)],
            effects: vec![
                Effect::SetState { task: watchdog, state: TaskState::RunningKernel { cpu: 1 } },
                Effect::Enqueue { lock: taskset, task: watchdog, mode: LockMode::Read },
                Effect::SetState { task: watchdog, state: TaskState::BlockedOnLock { lock: taskset } },
            ],
        });
        let report_at = turn_at + WATCHDOG_TIMEOUT_NS;
        self.builder.iteration(say(T::ITER_WATCHDOG_REPORT.id(), &[]));
        self.emit(&Owned {
            at_ns: report_at,
            actor: Some(watchdog),
            kind: OpKind::Note,
            code: at(text::WATCHDOG, 5),
            template: T::WATCHDOG_STUCK,
            args: vec![Arg::Ns(WATCHDOG_TIMEOUT_NS), Arg::Ns(WATCHDOG_TIMEOUT_NS)],
            effects: vec![],
        });
        self.totals.watchdog_report_ns = Some(report_at);
    }
}
