//! The kernel's own run-queue structure, for the stage: four gauges a task (where it
//! is, its key there, a mark, its queue's CPU), named per kernel so that the stage
//! knows how to draw them. Recorded with each step, only for the tasks whose place
//! changed.
//!
//! What each kernel's gauges mean:
//! - O(1) (`o1_*`): the array (1 active, 2 expired, 0 neither), the dynamic
//!   priority it is queued at, nothing, the CPU whose run queue holds it.
//! - EEVDF (`eevdf_*`): 1 while on its CPU's queue (waiting or running), its virtual
//!   deadline less the queue's average vruntime V (virtual ns: the order it is picked
//!   in among the eligible), 1 when eligible (vruntime ≤ V), the queue's CPU.
//! - 2.4 (`good_*`): 1 while on the run list, its goodness before the CPU and mm
//!   bonuses (0 once the counter is spent), its counter (ticks left), 0 (one list).
//! - A textbook policy (`fifo_*`, `sjf_*`, `stcf_*`, `rr_*`): 1 while in the queue,
//!   its place in the order the policy picks from it (1 is next), what the policy
//!   orders by (SJF the job's length, STCF the time it has left; 0 for FIFO and RR,
//!   which take the queue in order), 0 (one queue).

use super::Sim;
use crate::kernel::sched::eevdf::Balance;
use crate::kernel::sched::o1::Array;
use crate::kernel::sched::textbook::Waiting;
use crate::run::sort::sort_by_key;
use crate::run::world::{Effect, Layout, TaskId};

/// The gauges' order in the layout: where, key, mark, CPU.
pub const PLACE: u8 = 0;
pub const KEY: u8 = 1;
pub const MARK: u8 = 2;
pub const CPU: u8 = 3;

/// Gauge names by kernel, in the order above.
pub const O1_GAUGES: [&str; 4] = ["o1_array", "o1_prio", "o1_none", "o1_cpu"];
pub const EEVDF_GAUGES: [&str; 4] = ["eevdf_queued", "eevdf_deadline_after_v", "eevdf_eligible", "eevdf_cpu"];
pub const GOOD_GAUGES: [&str; 4] = ["good_queued", "good_goodness", "good_counter", "good_none"];
pub const FIFO_GAUGES: [&str; 4] = ["fifo_queued", "fifo_rank", "fifo_none", "fifo_cpu"];
pub const SJF_GAUGES: [&str; 4] = ["sjf_queued", "sjf_rank", "sjf_length_ns", "sjf_cpu"];
pub const STCF_GAUGES: [&str; 4] = ["stcf_queued", "stcf_rank", "stcf_left_ns", "stcf_cpu"];
pub const RR_GAUGES: [&str; 4] = ["rr_queued", "rr_rank", "rr_none", "rr_cpu"];

/// Registers a kernel's gauges, or a textbook policy's.
pub(super) fn add(layout: &mut Layout, names: [&str; 4]) {
    for (index, name) in names.iter().enumerate() {
        let id = layout.add_gauge(*name);
        assert_eq!(usize::from(id), index, "the queue gauges come first");
    }
}

/// One task's four values.
pub(super) type Place = [i64; 4];

/// What every task's place is read against, taken once a step: reading it again for
/// each task made a step cost the square of the tasks.
struct ReadOnce {
    /// V of each CPU's EEVDF queue.
    fair_balances: Vec<Balance>,
    /// Whether each task is on 2.4's run list.
    on_run_list: Vec<bool>,
}

impl Sim<'_> {
    fn read_once(&self) -> ReadOnce {
        let fair_balances = self
            .fair
            .as_ref()
            .map(|sched| sched.rqs.iter().map(|rq| rq.balance()).collect())
            .unwrap_or_default();
        let mut on_run_list = Vec::new();
        if let Some(sched) = &self.good {
            on_run_list = vec![false; self.tasks.len()];
            for task in &sched.queue {
                on_run_list[task.0 as usize] = true;
            }
        }
        ReadOnce { fair_balances, on_run_list }
    }

    /// Where task `index` is in its kernel's structure now; None under a textbook
    /// policy (`textbook_places` places every task at once).
    fn place_of(&self, index: usize, once: &ReadOnce) -> Option<Place> {
        let task = TaskId(index as u32);
        if let Some(sched) = &self.o1 {
            let cpu = sched.cpu_of[index];
            let (array, prio) = match sched.rqs[cpu].find(task) {
                Some((Array::Active, prio)) => (1, prio),
                Some((Array::Expired, prio)) => (2, prio),
                None => (0, 0),
            };
            return Some([array, i64::from(prio), 0, cpu as i64]);
        }
        if let Some(sched) = &self.fair {
            let cpu = sched.cpu_of[index];
            let rq = &sched.rqs[cpu];
            let entity = &rq.entities[index];
            if !entity.on_rq {
                return Some([0, 0, 0, cpu as i64]);
            }
            let balance = once.fair_balances[cpu];
            let after_v = entity.deadline.saturating_sub(balance.avg_vruntime());
            return Some([1, after_v, i64::from(balance.eligible(entity.vruntime)), cpu as i64]);
        }
        if let Some(sched) = &self.good {
            let queued = once.on_run_list[index];
            let good = &sched.tasks[index];
            return Some([i64::from(queued), good.goodness(false), good.counter, 0]);
        }
        None
    }

    /// Every task's place in the textbook queue: in it or not, its rank in the
    /// policy's order (`Policy::order`, the order `pick` takes), the policy's key.
    /// The tasks the op being recorded makes runnable are in it already, at the tail
    /// with the sequence numbers they are about to take.
    fn textbook_places(&self) -> Vec<Place> {
        let joining = self.joining.iter().zip(self.next_seq..).map(|(&task, seq)| (task, seq));
        let queue = self.queue.iter().copied().chain(joining);
        let mut waiting: Vec<Waiting> = queue.map(|(task, seq)| self.waiting(task, seq)).collect();
        sort_by_key(&mut waiting, |candidate| self.policy.order(candidate));
        let mut places = vec![[0; 4]; self.tasks.len()];
        for (rank, candidate) in waiting.iter().enumerate() {
            let key = i64::try_from(self.policy.key_ns(candidate)).unwrap_or(i64::MAX);
            places[candidate.task.0 as usize] = [1, rank as i64 + 1, key, 0];
        }
        places
    }

    /// The gauge effects of every task whose place changed since the last step, which
    /// are remembered as shown.
    pub(super) fn queue_gauges(&mut self) -> Vec<Effect> {
        let mut effects = Vec::new();
        let mut shown = std::mem::take(&mut self.shown);
        let textbook = (!self.kernel_sched()).then(|| self.textbook_places());
        let once = self.read_once();
        for (index, last) in shown.iter_mut().enumerate() {
            let Some(now) =
                textbook.as_ref().map(|places| places[index]).or_else(|| self.place_of(index, &once))
            else {
                break;
            };
            for gauge in [PLACE, KEY, MARK, CPU] {
                let slot = usize::from(gauge);
                if now[slot] != last[slot] {
                    effects.push(Effect::Gauge { task: TaskId(index as u32), gauge, value: now[slot] });
                }
            }
            *last = now;
        }
        self.shown = shown;
        effects
    }
}
