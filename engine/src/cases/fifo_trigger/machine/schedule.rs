//! `schedule()`: the task leaving is put back on its queue or taken off it, the
//! kernel's own rule picks the next one, and the switch is reported.

use super::*;
use crate::kernel::sched::o1::Credit;

/// The next task and what picking it did on the way, for the switch's narration.
#[derive(Default)]
struct Picked {
    next: Option<usize>,
    debit_ns: u64,
    runqueue_credit: Option<Credit>,
    swapped: bool,
    recalculated: bool,
}

impl Machine<'_> {
    /// `schedule()` on `cpu`: the current task leaves (runnable or asleep), the next one is picked.
    pub(super) fn schedule(&mut self, cpu: u16, why: SwitchWhy, sink: &mut impl Sink) {
        let now = self.now;
        let cpu_index = usize::from(cpu);
        self.cpus[cpu_index].need_resched = false;
        self.cpus[cpu_index].why = None;
        self.cpus[cpu_index].last_schedule_ns = now;
        let prev = self.cpus[cpu_index].current.take();
        let prev_sleeping = prev.is_some_and(|prev| self.tasks[prev].run == Run::Sleeping);
        if let Some(prev) = prev {
            self.put_prev(cpu_index, prev);
        }
        let picked = match self.config.kernel {
            Kernel::Eevdf => Picked { next: self.fair_pick(cpu, prev, prev_sleeping), ..Picked::default() },
            Kernel::O1 => self.o1_pick(cpu_index, prev),
            Kernel::Goodness => self.goodness_pick(cpu_index, prev),
        };
        let next = picked.next;
        self.switch_to(cpu, prev, next, why);
        let resumes = next.map(|next| self.tasks[next].step);
        let prev_step = prev.map(|prev| self.tasks[prev].step);
        let prev_left = prev.map(|prev| {
            let task = &self.tasks[prev];
            if task.remaining_ns.is_some() || task.spin.is_some() {
                (task.step, true)
            } else {
                (task.last_done, false)
            }
        });
        sink.event(Ev::Switch(Switch {
            at: now,
            cpu,
            prev,
            next,
            why,
            debit_ns: picked.debit_ns,
            runqueue_credit: picked.runqueue_credit,
            swapped: picked.swapped,
            recalculated: picked.recalculated,
            snaps: self.snaps(),
            prev_step,
            prev_left,
            resumes,
        }));
        if let Some(next) = next {
            self.begin_step(next);
        }
    }

    /// The task leaving stays runnable unless it sleeps; asleep, it leaves its queue
    /// (on EEVDF `fair_pick` charges it and takes it off the queue).
    fn put_prev(&mut self, cpu_index: usize, prev: usize) {
        let sleeping = self.tasks[prev].run == Run::Sleeping;
        if !sleeping {
            self.tasks[prev].run = Run::Runnable;
        }
        match self.config.kernel {
            Kernel::O1 => {
                if sleeping {
                    self.cpus[cpu_index].rq.as_mut().expect("rq").remove(Self::id(prev));
                }
            }
            Kernel::Goodness => {
                if sleeping {
                    self.cpus[cpu_index].queue.retain(|&queued| queued != prev);
                }
            }
            Kernel::Eevdf => {}
        }
    }

    /// The O(1) pick: the highest priority of the active array (swapping arrays
    /// when it is empty); a task picked after a wakeup gets its run-queue wait
    /// credited and is requeued at its new priority; the task leaving is charged.
    fn o1_pick(&mut self, cpu_index: usize, prev: Option<usize>) -> Picked {
        let (now, o1) = (self.now, self.o1);
        let rq = self.cpus[cpu_index].rq.as_mut().expect("rq");
        let swaps = rq.swaps;
        let next = rq.pick().map(|id| id.0 as usize);
        let mut picked = Picked { next, swapped: rq.swaps != swaps, ..Picked::default() };
        if let Some(next) = next {
            if self.tasks[next].o1.activated != Activated::No {
                // Picked at the instant it was woken, it waited nothing: no credit to tell.
                let credit =
                    self.tasks[next].o1.credit_runqueue_wait(&o1, now).filter(|credit| credit.slept_ns > 0);
                let rq = self.cpus[cpu_index].rq.as_mut().expect("rq");
                let (array, _) = rq.find(Self::id(next)).expect("picked from the queue");
                rq.remove(Self::id(next));
                rq.enqueue(array, Self::id(next), self.tasks[next].o1.prio);
                picked.runqueue_credit = credit;
            }
        }
        if let Some(prev) = prev {
            picked.debit_ns = self.tasks[prev].o1.charge(&o1, now);
        }
        if let Some(next) = next {
            self.tasks[next].o1.timestamp_ns = now;
        }
        picked
    }

    /// The 2.4 pick (`goodness::schedule_pick`): the best goodness on the queue; when
    /// every runnable counter is spent, a new epoch for every task and a second pick.
    fn goodness_pick(&mut self, cpu_index: usize, prev: Option<usize>) -> Picked {
        let last = prev.or(self.cpus[cpu_index].last_ran).map(Self::id);
        let queue: Vec<crate::run::world::TaskId> =
            self.cpus[cpu_index].queue.iter().map(|&q| Self::id(q)).collect();
        let mut goods: Vec<GoodTask> = self.tasks.iter().map(|task| task.good.clone()).collect();
        let picked = goodness::schedule_pick(last, &queue, &mut goods, self.config.hz, None);
        for (task, good) in self.tasks.iter_mut().zip(goods) {
            task.good = good;
        }
        Picked {
            next: picked.next.map(|id| id.0 as usize),
            recalculated: picked.recalculated,
            ..Picked::default()
        }
    }

    /// The picked task runs; the listener's spin budget starts afresh with each
    /// slice it is given.
    fn switch_to(&mut self, cpu: u16, prev: Option<usize>, next: Option<usize>, why: SwitchWhy) {
        let cpu_index = usize::from(cpu);
        if let Some(next) = next {
            self.tasks[next].run = Run::Running(cpu);
            self.cpus[cpu_index].last_ran = Some(next);
        }
        self.cpus[cpu_index].current = next;
        if prev != next {
            self.switches += 1;
        }
        if next == Some(LISTENER) && prev != Some(LISTENER) {
            self.listener_spun_this_slice = false;
        }
        if why == SwitchWhy::SliceEnd && prev == Some(LISTENER) && next == Some(LISTENER) {
            self.listener_spun_this_slice = false;
        }
    }
}
