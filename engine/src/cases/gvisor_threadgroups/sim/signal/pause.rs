//! Kernel.Pause and Kernel.Unpause around `SendContainerSignal`: each walks every
//! task under `TaskSet.mu` held for writing, before and after the fix alike.

use super::*;

impl Sim<'_> {
    /// `BeginExternalStop`'s or `EndExternalStop`'s walk over every task: one op.
    pub(super) fn walk_every_task(&mut self, index: usize, now: u64, senders: &mut [Sender]) {
        let cfg = self.cfg;
        let task = senders[index].task;
        let pause = senders[index].action == Action::PauseWalk;
        let (template, walk_ns, per_task_ns, function) = if pause {
            (T::PAUSE_WALK, self.totals.pause_walk_ns, STOP_TASK_NS, text::PAUSE)
        } else {
            (T::UNPAUSE_WALK, self.totals.unpause_walk_ns, RESUME_TASK_NS, text::UNPAUSE)
        };
        let tasks = cfg.total_tasks();
        self.emit(&Owned {
            at_ns: now,
            actor: Some(task),
            kind: OpKind::Compute,
            code: at(function, 8),
            template,
            args: vec![
                Arg::Count(tasks),
                Arg::Ns(walk_ns / tasks.max(1)),
                Arg::Ns(per_task_ns),
                Arg::Ns(walk_ns),
            ],
            effects: vec![],
        });
        self.totals.pause_cpu_ns += walk_ns;
        let next = if pause { Action::PauseDone } else { Action::UnpauseDone };
        senders[index].then(next, now + walk_ns.max(1));
    }

    /// The end of Pause (`TaskSet.mu` and `k.extMu` released, the call next) or of
    /// Unpause (the kill is over; the next sender gets `k.extMu`).
    pub(super) fn end_pause(&mut self, index: usize, now: u64, senders: &mut [Sender]) {
        let task = senders[index].task;
        let pause = senders[index].action == Action::PauseDone;
        let Some(ext_mu) = self.ext_mu else { return };
        let taskset = self.taskset;
        let mut effects =
            vec![Effect::Release { lock: taskset, task }, Effect::Release { lock: ext_mu, task }];
        let (template, function, args) = if pause {
            (T::PAUSE_DONE, text::PAUSE, vec![Arg::Lock(taskset), Arg::Lock(ext_mu)])
        } else {
            effects.push(Effect::SetState { task, state: TaskState::Sleeping { channel: self.ch_done } });
            let cost = self.totals.pause_walk_ns + self.totals.unpause_walk_ns;
            (T::UNPAUSE_DONE, text::UNPAUSE, vec![Arg::Lock(ext_mu), Arg::Lock(taskset), Arg::Ns(cost)])
        };
        self.emit(&Owned {
            at_ns: now,
            actor: Some(task),
            kind: OpKind::LockRelease,
            code: at(function, 3),
            template,
            args,
            effects,
        });
        if pause {
            // runsc calls SendContainerSignal next and takes k.extMu straight back.
            senders[index].then(Action::Enter, now + MUTEX_NS);
            senders[index].barges = true;
        } else {
            senders[index].action = Action::Done;
            senders[index].next_at = None;
            self.hand_off(ext_mu, now, senders);
        }
    }
}
