//! The CPUs: timeslices, wakeups onto idle CPUs or the run queue, context switches.

use super::text::{self, at, T};
use super::{Cpu, Prog, Sim};
use crate::kernel::sched::{EnqueueReason, Scheduler};
use crate::run::narration::{Arg, CodeLoc};
use crate::run::trace::OpKind;
use crate::run::world::{Effect, TaskId, TaskState};

impl Sim<'_> {
    pub(super) fn slice_end(&mut self, cpu: u16, task: TaskId, now: u64) {
        let slot = usize::from(cpu);
        let slice = Arg::Ns(self.config.timeslice_ns);
        let Some(&next) = self.rr.queued().first() else {
            self.cpus[slot].slice_end_ns = now + self.config.timeslice_ns;
            self.op(
                now,
                Some(task),
                OpKind::Schedule,
                at(text::SCHEDULE, 5),
                T::SLICE_RENEW,
                &[Arg::Task(task), slice],
                &[],
            );
            return;
        };
        if let Prog::Spin { .. } = self.tasks[task.0 as usize].prog {
            // need_resched() ends optimistic spinning; the writer queues and sleeps.
            let position = self.queue_position() + 1;
            let args = [Arg::Task(task), Arg::Lock(self.lock), Arg::Count(position)];
            self.spin_to_sleep(cpu, task, now, T::SPIN_NEED_RESCHED, &args);
            return;
        }
        let remaining = self.tasks[task.0 as usize].burst_end_ns - now;
        self.task(task).remaining_ns = remaining;
        self.task(task).runnable_since_ns = now;
        self.cpus[slot].task = None;
        self.op(
            now,
            Some(task),
            OpKind::Preempt,
            at(text::SCHEDULE, 5),
            T::SLICE_PREEMPT,
            &[Arg::Task(task), slice, Arg::Task(next)],
            &[
                Effect::SetState { task, state: TaskState::Runnable },
                Effect::Count { counter: self.counters.preemptions, delta: 1 },
            ],
        );
        self.rr.enqueue(task, EnqueueReason::SliceExpired, now);
        // A writer spinning on this task stops: its owner is no longer running.
        if self.builder.world().lock(self.lock).writer() == Some(task) {
            self.stop_spinner_owner_off(now);
        }
        self.schedule(cpu, now);
    }

    // ---- scheduling ------------------------------------------------------------

    /// A woken or new task: straight onto an idle CPU, else onto the run queue.
    pub(super) fn make_runnable(&mut self, task: TaskId, now: u64) {
        self.task(task).runnable_since_ns = now;
        if let Some(cpu) = self.cpus.iter().position(|cpu| cpu.task.is_none()) {
            self.switch_in(cpu as u16, task, now);
            return;
        }
        let template =
            if self.tasks[task.0 as usize].prog == Prog::Start { T::START_WAIT } else { T::WOKEN_RUNNABLE };
        self.op(
            now,
            Some(task),
            OpKind::Schedule,
            at(text::SCHEDULE, 1),
            template,
            &[Arg::Task(task)],
            &[Effect::SetState { task, state: TaskState::Runnable }],
        );
        self.rr.enqueue(task, EnqueueReason::Wakeup, now);
    }

    /// A CPU became free: run the head of the run queue, if any.
    pub(super) fn schedule(&mut self, cpu: u16, now: u64) {
        assert!(self.cpus[usize::from(cpu)].task.is_none(), "schedule() on a busy CPU");
        if let Some(next) = self.rr.pick_next(cpu, now) {
            self.switch_in(cpu, next, now);
        }
    }

    pub(super) fn switch_in(&mut self, cpu: u16, task: TaskId, now: u64) {
        let slot = usize::from(cpu);
        self.cpus[slot] = Cpu { task: Some(task), slice_end_ns: now + self.rr.timeslice_ns(task) };
        let was_runnable = self.state(task) == TaskState::Runnable;
        let entry = &self.tasks[task.0 as usize];
        let (prog, remaining, granted) = (entry.prog, entry.remaining_ns, entry.granted_wait_ns);
        let queued_for = now - entry.runnable_since_ns;
        let switch_args = [Arg::Task(task), Arg::Count(u64::from(cpu)), Arg::Ns(queued_for)];
        let switch_text = if queued_for == 0 { T::SWITCH_IN_IDLE } else { T::SWITCH_IN };
        let switch_code = at(text::SCHEDULE, 3);
        match prog {
            Prog::Start => self.start_op(cpu, task, now),
            Prog::Think => {
                self.task(task).burst_end_ns = now + remaining;
                self.run_on(
                    cpu,
                    task,
                    now,
                    TaskState::RunningUser { cpu },
                    switch_code,
                    switch_text,
                    &switch_args,
                );
            }
            // A reader granted the lock while asleep runs its hold.
            Prog::Hold if granted > 0 || !was_runnable => {
                self.task(task).burst_end_ns = now + remaining;
                self.task(task).granted_wait_ns = 0;
                let args = [Arg::Task(task), Arg::Lock(self.lock), Arg::Ns(granted)];
                let code = at(self.loop_fn(task), 3);
                self.run_on(cpu, task, now, TaskState::RunningKernel { cpu }, code, T::GRANTED_RUN, &args);
            }
            Prog::Hold => {
                self.task(task).burst_end_ns = now + remaining;
                self.run_on(
                    cpu,
                    task,
                    now,
                    TaskState::RunningKernel { cpu },
                    switch_code,
                    switch_text,
                    &switch_args,
                );
            }
            Prog::WaitLock => {
                // A woken writer runs and retries its lock.
                self.run_on(
                    cpu,
                    task,
                    now,
                    TaskState::RunningKernel { cpu },
                    switch_code,
                    switch_text,
                    &switch_args,
                );
                self.retry_write(cpu, task, now);
            }
            Prog::Spin { .. } => unreachable!("a spinner never leaves its CPU without queueing"),
        }
    }

    /// Records the context switch that puts `task` on `cpu` in `state`.
    #[allow(clippy::too_many_arguments)]
    fn run_on(
        &mut self,
        cpu: u16,
        task: TaskId,
        now: u64,
        state: TaskState,
        code: CodeLoc,
        template: T,
        args: &[Arg],
    ) {
        debug_assert_eq!(state.cpu(), Some(cpu));
        self.op(now, Some(task), OpKind::Schedule, code, template, args, &[Effect::SetState { task, state }]);
    }

    pub(super) fn start_op(&mut self, cpu: u16, task: TaskId, now: u64) {
        let args = [Arg::Task(task), Arg::Count(u64::from(cpu))];
        let state = TaskState::RunningUser { cpu };
        self.op(
            now,
            Some(task),
            OpKind::Schedule,
            at(self.loop_fn(task), 0),
            T::START,
            &args,
            &[Effect::SetState { task, state }],
        );
        self.start_think(cpu, task, now);
    }
}
