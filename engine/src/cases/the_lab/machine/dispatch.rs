//! The run queue and dispatch: a task made runnable joins the kernel's queue (the
//! O(1) arrays, EEVDF, 2.4's list) or the textbook's; an idle CPU takes the
//! kernel's or the policy's pick; STCF preempts for a shorter arrival.

use super::{CpuRt, Sim, Why};
use crate::cases::the_lab::lang::Instr;
use crate::cases::the_lab::text::{self, at, T};
use crate::kernel::sched::textbook::{Policy, Waiting};
use crate::run::narration::{Arg, CodeLoc};
use crate::run::trace::OpKind;
use crate::run::world::{Effect, TaskId, TaskState};

impl Sim<'_> {
    /// A task joins the run queue: the kernel's (O(1) arrays, EEVDF, 2.4's list), or the textbook's queue.
    pub(super) fn make_runnable(&mut self, task: TaskId, why: Why, now: u64) {
        if self.o1.is_some() {
            self.o1_enqueue(task, why, now);
        } else if self.fair.is_some() {
            self.fair_enqueue(task, why, now);
        } else if self.good.is_some() {
            self.good_enqueue(task, why, now);
        } else {
            self.enqueue(task);
            // A woken waiter takes an idle CPU before the other CPUs' events of this
            // instant, as the rwsem playground orders a wakeup (docs/cases/the-lab.md).
            if why == Why::Lock && self.cpus.iter().any(|cpu| cpu.task.is_none()) {
                self.dispatch_to_idle_cpus(now);
            }
        }
    }

    /// Whether a kernel's own scheduler runs the workload (not a textbook policy).
    pub(super) fn kernel_sched(&self) -> bool {
        self.o1.is_some() || self.fair.is_some() || self.good.is_some()
    }

    /// The kernel's pick for the idle `cpu`, with its narration and pseudocode line.
    pub(super) fn kernel_pick(&mut self, cpu: u16, now: u64) -> Option<(TaskId, Vec<Arg>, T, CodeLoc)> {
        if self.o1.is_some() {
            let (task, args) = self.o1_pick(cpu, now)?;
            Some((task, args, T::O1_PICK, at(text::O1_SCHEDULE_FN, 3)))
        } else if self.fair.is_some() {
            let (task, args) = self.fair_pick(cpu, now)?;
            Some((task, args, T::FAIR_PICK, at(text::FAIR_SCHEDULE_FN, 2)))
        } else {
            let smp = self.good.as_ref().is_some_and(|sched| sched.smp());
            let (task, args) = self.good_pick(cpu, now)?;
            if smp {
                return Some((task, args, T::GOOD_PICK_SMP, at(text::GOOD_SCHEDULE_FN, 5)));
            }
            Some((task, args, T::GOOD_PICK, at(text::GOOD_SCHEDULE_FN, 2)))
        }
    }

    pub(super) fn enqueue(&mut self, task: TaskId) {
        assert!(!self.queue.iter().any(|(queued, _)| *queued == task), "task {} queued twice", task.0);
        if let Some(at) = self.joining.iter().position(|joining| *joining == task) {
            self.joining.remove(at);
        }
        self.queue.push((task, self.next_seq));
        self.next_seq += 1;
    }

    /// Under a textbook policy: the tasks the op being recorded makes runnable join
    /// `joining` (after those still to join), and those no longer runnable leave it.
    pub(super) fn note_joining(&mut self, effects: &[Effect]) {
        let world = self.builder.world();
        self.joining.retain(|task| world.tasks[task.0 as usize].state == TaskState::Runnable);
        for effect in effects {
            if let Effect::SetState { task, state: TaskState::Runnable } = *effect {
                let queued = self.queue.iter().any(|(queued, _)| *queued == task);
                if !queued && !self.joining.contains(&task) {
                    self.joining.push(task);
                }
            }
        }
    }

    /// Tasks ready and off every CPU (the O(1) scheduler keeps the running one queued too).
    pub(super) fn waiting_count(&self) -> u64 {
        let running = self.cpus.iter().filter(|cpu| cpu.task.is_some()).count();
        let queued = if let Some(sched) = &self.o1 {
            sched.nr_running()
        } else if let Some(sched) = &self.fair {
            sched.nr_queued()
        } else if let Some(sched) = &self.good {
            sched.queue.len()
        } else {
            return self.queue.len() as u64;
        };
        queued.saturating_sub(running) as u64
    }

    pub(super) fn allowed(&self, task: TaskId, cpu: u16) -> bool {
        self.program.tasks[task.0 as usize].cpu.is_none_or(|pinned| pinned == cpu)
    }

    pub(super) fn remaining_ns(&self, task: TaskId) -> u64 {
        let demand = self.program.tasks[task.0 as usize].demand_ns;
        if demand == u64::MAX {
            return u64::MAX;
        }
        demand.saturating_sub(self.tasks[task.0 as usize].cpu_used_ns)
    }

    pub(super) fn waiting(&self, task: TaskId, queued_seq: u64) -> Waiting {
        Waiting {
            task,
            queued_seq,
            remaining_ns: self.remaining_ns(task),
            length_ns: self.program.tasks[task.0 as usize].demand_ns,
        }
    }

    /// The queued tasks that may run on `cpu`, as the policy sees them.
    pub(super) fn candidates(&self, cpu: u16) -> Vec<Waiting> {
        self.queue
            .iter()
            .filter(|(task, _)| self.allowed(*task, cpu))
            .map(|&(task, seq)| self.waiting(task, seq))
            .collect()
    }

    pub(super) fn waiting_for(&self, cpu: u16) -> u64 {
        self.queue.iter().filter(|(task, _)| self.allowed(*task, cpu)).count() as u64
    }

    /// Gives every idle CPU a task while any waits, until nothing changes: a task
    /// dispatched may leave at once (it sleeps or blocks), and a spinner granted its
    /// lock continues.
    pub(super) fn fill_idle_cpus(&mut self, now: u64) {
        loop {
            self.run_resumed(now);
            let dispatched = self.dispatch_to_idle_cpus(now);
            if (!dispatched && self.resume.is_empty()) || self.stopped.is_some() {
                return;
            }
        }
    }

    /// One pass over the CPUs; whether any got a task.
    pub(super) fn dispatch_to_idle_cpus(&mut self, now: u64) -> bool {
        let mut dispatched = false;
        for cpu in 0..self.cpus.len() as u16 {
            if self.cpus[usize::from(cpu)].task.is_some() || self.stopped.is_some() {
                continue;
            }
            if self.kernel_sched() {
                if self.over_budget() {
                    return false;
                }
                let Some((task, args, template, code)) = self.kernel_pick(cpu, now) else { continue };
                dispatched = true;
                self.dispatch(cpu, task, now, template, code, &args, &[]);
                continue;
            }
            let candidates = self.candidates(cpu);
            let Some(index) = self.policy.pick(&candidates) else { continue };
            if self.over_budget() {
                return false;
            }
            dispatched = true;
            let chosen = candidates[index];
            self.queue.retain(|(task, _)| *task != chosen.task);
            let (template, code, key) = match self.policy {
                Policy::Fifo => (T::PICK_FIFO, at(text::PICK_FIFO_FN, 1), None),
                Policy::Sjf => (T::PICK_SJF, at(text::PICK_SJF_FN, 1), Some(chosen.length_ns)),
                Policy::Stcf => (T::PICK_STCF, at(text::PICK_STCF_FN, 1), Some(chosen.remaining_ns)),
                Policy::RoundRobin { quantum_ns } => (T::PICK_RR, at(text::TICK_RR_FN, 0), Some(quantum_ns)),
            };
            let count = Arg::Count(candidates.len() as u64);
            let args: Vec<Arg> = match key {
                None => vec![Arg::Task(chosen.task), Arg::Count(u64::from(cpu)), count],
                Some(ns) => vec![Arg::Task(chosen.task), Arg::Count(u64::from(cpu)), shown_ns(ns), count],
            };
            self.dispatch(cpu, chosen.task, now, template, code, &args, &[]);
        }
        dispatched
    }

    /// Puts `task` on `cpu` and carries on with its program.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn dispatch(
        &mut self,
        cpu: u16,
        task: TaskId,
        now: u64,
        template: T,
        code: CodeLoc,
        args: &[Arg],
        before: &[Effect],
    ) {
        let slice_end_ns = if let Some(sched) = &self.o1 {
            sched.next_tick_ns(now)
        } else if let Some(sched) = &self.fair {
            sched.next_tick_ns(now)
        } else if let Some(sched) = &self.good {
            sched.next_tick_ns(now)
        } else {
            now.saturating_add(self.policy.quantum_ns().unwrap_or(u64::MAX))
        };
        let slot = usize::from(cpu);
        self.cpus[slot] = CpuRt { task: Some(task), charged_ns: now, slice_end_ns };
        let rt = self.rt(task);
        rt.switches += 1;
        rt.first_run_ns.get_or_insert(now);
        let state = match self.instr(task) {
            Instr::Run(_) if self.tasks[task.0 as usize].burst_left_ns > 0 => TaskState::RunningUser { cpu },
            _ => TaskState::RunningKernel { cpu },
        };
        let mut effects = before.to_vec();
        effects.push(Effect::SetState { task, state });
        effects.push(Effect::Count { counter: self.counters.switches, delta: 1 });
        self.op(now, Some(task), OpKind::Schedule, code, template, args, &effects);
        if self.tasks[task.0 as usize].burst_left_ns == 0 {
            self.advance(task, cpu, now);
        }
    }

    /// STCF: a queued task with less time left than a running one takes its CPU.
    pub(super) fn preempt_for_arrivals(&mut self, now: u64) {
        if self.policy != Policy::Stcf {
            return;
        }
        for cpu in 0..self.cpus.len() {
            self.charge(cpu, now);
        }
        // The running task with the most time left is the first to lose its CPU.
        let mut order: Vec<u16> = (0..self.cpus.len() as u16).collect();
        crate::run::sort::sort_by_key(&mut order, |&cpu| {
            let left = self.cpus[usize::from(cpu)].task.map_or(0, |task| self.remaining_ns(task));
            (std::cmp::Reverse(left), cpu)
        });
        for cpu in order {
            let Some(running) = self.cpus[usize::from(cpu)].task else { continue };
            if self.holds_or_spins_on_a_spinlock(running) || self.stopped.is_some() {
                continue;
            }
            let candidates = self.candidates(cpu);
            let Some(index) = self.policy.pick(&candidates) else { continue };
            let chosen = candidates[index];
            self.charge(usize::from(cpu), now);
            let left = self.remaining_ns(running);
            if !self.policy.preempts(&chosen, left) || self.over_budget() {
                continue;
            }
            self.queue.retain(|(task, _)| *task != chosen.task);
            let args = [
                Arg::Task(chosen.task),
                Arg::Count(u64::from(cpu)),
                Arg::Task(running),
                shown_ns(chosen.remaining_ns),
                shown_ns(left),
            ];
            let before = [
                Effect::SetState { task: running, state: TaskState::Runnable },
                Effect::Count { counter: self.counters.preemptions, delta: 1 },
            ];
            self.cpus[usize::from(cpu)].task = None;
            self.enqueue(running);
            self.dispatch(cpu, chosen.task, now, T::STCF_PREEMPT, at(text::PICK_STCF_FN, 3), &args, &before);
        }
    }

    pub(super) fn leave_cpu(&mut self, cpu: u16) {
        let left = self.cpus[usize::from(cpu)].task;
        self.cpus[usize::from(cpu)] = CpuRt { task: None, charged_ns: 0, slice_end_ns: u64::MAX };
        if let Some(sched) = self.good.as_mut() {
            sched.left_cpu(usize::from(cpu), left);
        }
    }

    /// A task asleep, blocked or dead leaves the kernel's run queue.
    pub(super) fn kernel_dequeue(&mut self, task: TaskId, now: u64) {
        if self.o1.is_some() {
            self.o1_dequeue(task, now);
        } else if self.fair.is_some() {
            self.fair_dequeue(task, now);
        } else if self.good.is_some() {
            self.good_dequeue(task);
        }
    }
}

/// A duration to narrate; an unbounded one (a `forever` task's demand) in words.
fn shown_ns(ns: u64) -> Arg {
    if ns == u64::MAX {
        Arg::Word("no end (it loops forever)")
    } else {
        Arg::Ns(ns)
    }
}
