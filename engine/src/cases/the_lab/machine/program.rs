//! A task's program: each instruction run in turn until one takes time or takes
//! the task off its CPU (a burst, a sleep, a lock wait, a pipe wait, a yield, an exit).

use super::{Next, Sim, Why};
use crate::cases::the_lab::lang::Instr;
use crate::cases::the_lab::text::{self, at, T};
use crate::run::builder::text as say;
use crate::run::narration::Arg;
use crate::run::trace::OpKind;
use crate::run::world::{Effect, TaskId, TaskState};

impl Sim<'_> {
    /// Runs `task`'s program from its current instruction until it takes time or leaves.
    pub(super) fn advance(&mut self, task: TaskId, cpu: u16, now: u64) {
        loop {
            if self.over_budget() {
                return;
            }
            match self.step(task, cpu, now) {
                Next::Continue => self.rt(task).pc += 1,
                Next::OnCpu => return,
                Next::OffCpu => {
                    if self.cpus[usize::from(cpu)].task == Some(task) {
                        self.leave_cpu(cpu);
                    }
                    if self.state(task) != TaskState::Runnable {
                        self.kernel_dequeue(task, now);
                    }
                    return;
                }
            }
        }
    }

    /// Continues the spinners granted a spinlock during the last step.
    pub(super) fn run_resumed(&mut self, now: u64) {
        while let Some(task) = self.resume.pop() {
            let Some(cpu) = self.state(task).cpu() else { continue };
            self.rt(task).pc += 1;
            self.advance(task, cpu, now);
        }
    }

    pub(super) fn step(&mut self, task: TaskId, cpu: u16, now: u64) -> Next {
        let instr = self.instr(task);
        let body = |line| at(text::BODY, line);
        match instr {
            Instr::Run(ns) | Instr::Sys(ns) => {
                let user = matches!(instr, Instr::Run(_));
                self.rt(task).burst_left_ns = ns;
                self.cpus[usize::from(cpu)].charged_ns = now;
                let state =
                    if user { TaskState::RunningUser { cpu } } else { TaskState::RunningKernel { cpu } };
                let (template, line, kind) = if user {
                    (T::RUN, text::BODY_RUN, OpKind::Compute)
                } else {
                    (T::SYS, text::BODY_SYS, OpKind::Syscall)
                };
                self.op(
                    now,
                    Some(task),
                    kind,
                    body(line),
                    template,
                    &[Arg::Task(task), Arg::Ns(ns)],
                    &[Effect::SetState { task, state }],
                );
                Next::OnCpu
            }
            Instr::Sleep(ns) => {
                let rt = self.rt(task);
                rt.wake_at_ns = Some(now.saturating_add(ns));
                rt.slept_ns = ns;
                rt.pc += 1;
                let state = TaskState::Sleeping { channel: self.sleep_channel };
                let args = [Arg::Task(task), Arg::Ns(ns), Arg::Count(u64::from(cpu))];
                self.op(
                    now,
                    Some(task),
                    OpKind::Sleep,
                    body(text::BODY_SLEEP),
                    T::SLEEP,
                    &args,
                    &[Effect::SetState { task, state }],
                );
                Next::OffCpu
            }
            Instr::Yield => {
                self.rt(task).pc += 1;
                let effects = [Effect::SetState { task, state: TaskState::Runnable }];
                let (template, code) = if self.o1.is_some() {
                    (T::O1_YIELD, at(text::O1_YIELD_FN, 1))
                } else if self.kernel_sched() {
                    (T::YIELD_CALL, body(text::BODY_YIELD))
                } else {
                    (T::YIELD, body(text::BODY_YIELD))
                };
                self.op(now, Some(task), OpKind::Schedule, code, template, &[Arg::Task(task)], &effects);
                self.leave_cpu(cpu);
                self.make_runnable(task, Why::Yield, now);
                Next::OffCpu
            }
            Instr::Exit => {
                self.exit(task, now);
                Next::OffCpu
            }
            Instr::LoopStart { count, end } => {
                if count == 0 {
                    self.rt(task).pc = end;
                } else {
                    self.rt(task).loops.push(count);
                }
                Next::Continue
            }
            Instr::LoopEnd { start } => {
                let rt = self.rt(task);
                let left = rt.loops.last_mut().expect("a loop's end closes an open loop");
                *left -= 1;
                if *left > 0 {
                    rt.pc = start;
                } else {
                    rt.loops.pop();
                }
                Next::Continue
            }
            Instr::Take { lock, mode } => {
                let next = self.take(task, cpu, now, lock, mode);
                let cost = std::mem::take(&mut self.rt(task).lock_cost_ns);
                if next != Next::Continue || cost == 0 {
                    return next;
                }
                // The lock operation's own time (`lockcost`), in the kernel, before the
                // next operation: the `Take` stays current until this burst ends.
                self.rt(task).burst_left_ns = cost;
                self.cpus[usize::from(cpu)].charged_ns = now;
                let state = TaskState::RunningKernel { cpu };
                let args = [Arg::Task(task), Arg::Ns(cost)];
                let effects = [Effect::SetState { task, state }];
                self.op(
                    now,
                    Some(task),
                    OpKind::Syscall,
                    body(text::BODY_LOCK_COST),
                    T::LOCK_COST,
                    &args,
                    &effects,
                );
                Next::OnCpu
            }
            Instr::Give { lock } => {
                self.give(task, now, lock);
                Next::Continue
            }
            Instr::Send { pipe, bytes } => self.send(task, now, pipe, bytes),
            Instr::Recv { pipe, bytes } => self.recv(task, now, pipe, bytes),
        }
    }

    pub(super) fn exit(&mut self, task: TaskId, now: u64) {
        self.end_task(task, now, T::EXIT);
    }

    /// The task leaves for good (`template` says how: an exit, or SIGPIPE), and the
    /// pipe ends it held close with it.
    pub(super) fn end_task(&mut self, task: TaskId, now: u64, template: T) {
        let arrive = self.program.tasks[task.0 as usize].arrive_ns;
        let rt = self.rt(task);
        rt.exit_ns = Some(now);
        let response = rt.first_run_ns.unwrap_or(now) - arrive;
        let args = [Arg::Task(task), Arg::Ns(now), Arg::Ns(now - arrive), Arg::Ns(response)];
        let effects = [Effect::SetState { task, state: TaskState::Dead }];
        self.op(now, Some(task), OpKind::Exit, at(text::BODY, text::BODY_EXIT), template, &args, &effects);
        if self.tasks.iter().any(|task| task.exit_ns.is_none()) {
            self.builder.phase(say(T::PHASE_AFTER_EXIT.id(), &[Arg::Task(task)]));
            self.iteration_due.get_or_insert(now);
        }
        self.pipe_release(task, now);
    }
}
