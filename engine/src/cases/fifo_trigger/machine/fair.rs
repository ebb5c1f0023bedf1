//! The machine on today's kernel: the CPU's EEVDF run queue
//! (`kernel::sched::eevdf`) driven by the machine's events. `update_curr` charges
//! the running task at every tick, wakeup and `schedule()`, as fair.c does.

use super::*;
use crate::kernel::sched::eevdf::{self, Enqueue, RunQueue};

impl Machine<'_> {
    /// A fresh EEVDF run queue for the two programs at their nice levels (6.18's
    /// default features; the base slice scaled by the machine's CPUs).
    pub(super) fn fair_queue(config: &Config) -> RunQueue {
        let mut rq = RunQueue::new(2, 0, config.slice_cpus, config.hz, eevdf::DEFAULT_FEATURES);
        rq.entities[LISTENER].weight = eevdf::weight_of_nice(config.listener_nice);
        rq.entities[WRITER].weight = eevdf::weight_of_nice(config.writer_nice);
        rq
    }

    /// update_curr: the running task is charged for the time since it was last
    /// charged. Whether its slice ran out with another task waiting.
    pub(super) fn fair_update_curr(&mut self, cpu: u16) -> bool {
        let now = self.now;
        let c = &mut self.cpus[usize::from(cpu)];
        let delta = now - c.exec_start_ns;
        c.exec_start_ns = now;
        let rq = c.fair.as_mut().expect("an EEVDF run queue");
        rq.curr.is_some() && rq.update_curr(delta)
    }

    /// A task joins the queue (`Initial`: a new task; `Wakeup`: woken from select()).
    /// Whether the running task must be rescheduled: the wakeup preemption test, or
    /// its slice running out as it is charged (`RunQueue::wake`).
    pub(super) fn fair_enqueue(&mut self, cpu: u16, task: usize, how: Enqueue) -> bool {
        let now = self.now;
        let c = &mut self.cpus[usize::from(cpu)];
        let ran = now - c.exec_start_ns;
        c.exec_start_ns = now;
        c.fair.as_mut().expect("an EEVDF run queue").wake(task, how, ran)
    }

    /// The tick's update_curr: whether the running task's slice is over.
    pub(super) fn fair_tick(&mut self, cpu: u16) -> bool {
        self.fair_update_curr(cpu)
    }

    /// `schedule()`'s part in the fair class (`RunQueue::schedule`): charge `prev`, take
    /// it off the queue if it sleeps, pick the next task and make it current.
    pub(super) fn fair_pick(&mut self, cpu: u16, prev: Option<usize>, sleeping: bool) -> Option<usize> {
        let now = self.now;
        let c = &mut self.cpus[usize::from(cpu)];
        let ran = if prev.is_some() { now - c.exec_start_ns } else { 0 };
        c.exec_start_ns = now;
        c.fair.as_mut().expect("an EEVDF run queue").schedule(prev, ran, sleeping)
    }

    /// The first tick from now at which the running `task`'s slice is found used
    /// up (its deadline reached or its protected slice over) with another task
    /// waiting (or the end of the run if none waits).
    pub(super) fn fair_resched_tick(&self, task: usize) -> u64 {
        let c = &self.cpus[usize::from(self.tasks[task].home_cpu)];
        let rq = c.fair.as_ref().expect("an EEVDF run queue");
        if rq.nr_queued() <= 1 {
            return self.config.duration_ns;
        }
        let e = &rq.entities[task];
        let charged = e.vruntime + eevdf::calc_delta_fair(self.now - c.exec_start_ns, e.weight) as i64;
        // update_curr reschedules at the deadline or, for a task picked again with its
        // old protection, when that runs out, whichever comes first.
        let left_virtual = (e.deadline.min(e.vprot) - charged).max(0) as u64;
        // Real time to cover it: the inverse of calc_delta_fair, rounded up.
        let left_ns = (u128::from(left_virtual) * u128::from(e.weight))
            .div_ceil(u128::from(eevdf::NICE_0_WEIGHT)) as u64;
        let reach = self.now + left_ns;
        let tick = self.config.tick_ns();
        self.next_tick + reach.saturating_sub(self.next_tick).div_ceil(tick) * tick
    }

    /// One task's EEVDF state for the stage.
    pub(super) fn fair_snap(&self, task: usize) -> SchedSnap {
        let t = &self.tasks[task];
        let rq = self.cpus[usize::from(t.home_cpu)].fair.as_ref().expect("an EEVDF run queue");
        let e = &rq.entities[task];
        let nice = if task == LISTENER { self.config.listener_nice } else { self.config.writer_nice };
        let (lag, eligible) =
            if e.on_rq { (rq.avg_vruntime() - e.vruntime, rq.eligible(task)) } else { (e.vlag, false) };
        let left_virtual = (e.deadline - e.vruntime).max(0) as u64;
        let left_ns = (u128::from(left_virtual) * u128::from(e.weight))
            .div_ceil(u128::from(eevdf::NICE_0_WEIGHT)) as u64;
        SchedSnap {
            prio: o1::static_prio(nice),
            static_prio: o1::static_prio(nice),
            sleep_avg_ns: 0,
            bonus: 0,
            interactive: false,
            credit: 0,
            slice_left: left_ns.div_ceil(self.config.tick_ns()),
            array: u8::from(e.on_rq),
            fair: Some(FairSnap { vruntime: e.vruntime, deadline: e.deadline, lag, eligible }),
        }
    }
}
