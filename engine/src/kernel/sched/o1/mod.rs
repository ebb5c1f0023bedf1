//! The Linux 2.6.1 O(1) scheduler's rules (kernel/sched.c at v2.6.1), one CPU's
//! run queue: active and expired priority arrays over 140 priorities, static
//! priority from nice, timeslices by static priority (`BASE_TIMESLICE`, whose
//! formula holds from 2.6.0 through 2.6.8 until `SCALE_PRIO` replaces it in 2.6.9:
//! 10..200 ms, ≈102 ms at nice 0), `sleep_avg` credited on wakeup
//! (`recalc_task_prio`) and debited by run time in `schedule()`, `CURRENT_BONUS`
//! and the dynamic priority, `interactive_credit`, the on-runqueue credit of
//! freshly woken tasks (`activated`, `ON_RUNQUEUE_WEIGHT`), `TASK_INTERACTIVE`
//! tasks re-queued into the active array at slice end unless `EXPIRED_STARVING`,
//! the `TIMESLICE_GRANULARITY` round-robin, the array swap, wakeup preemption iff
//! the woken task's priority is strictly better, and `sched_yield` to the
//! expired array.
//!
//! Time is in nanoseconds; a jiffy is `1e9 / hz` ns. The rules are the kernel's;
//! the only model choices are that `sched_clock()` is exact and that a task is
//! always a user task (`p->mm` set).

mod run_queue;

pub use run_queue::{balance_plan, Array, ArrayView, Balance, BalanceTimer, RunQueue, TickOutcome};

pub const MAX_RT_PRIO: i32 = 100;
pub const MAX_PRIO: i32 = 140;
pub const MAX_USER_PRIO: i32 = 40;
/// `MAX_BONUS` = MAX_USER_PRIO × PRIO_BONUS_RATIO (25) / 100.
pub const MAX_BONUS: i64 = 10;
pub const INTERACTIVE_DELTA: i64 = 2;
/// Percent of the parent's bonus a forked child inherits.
pub const CHILD_PENALTY: u64 = 95;
/// Percent of the time a freshly woken task waits on the run queue that counts as sleep.
pub const ON_RUNQUEUE_WEIGHT: u64 = 30;
/// `interactive_credit` beyond ±CREDIT_LIMIT makes a task HIGH_CREDIT / LOW_CREDIT.
pub const CREDIT_LIMIT: i64 = 100;

/// `NICE_TO_PRIO`: nice −20..19 → static priority 100..139.
pub fn static_prio(nice: i32) -> i32 {
    MAX_RT_PRIO + 20 + nice.clamp(-20, 19)
}

/// Which generation of the O(1) scheduler's rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rules {
    /// 2.6.0 on: `BASE_TIMESLICE` linear in static priority (10..200 ms, through 2.6.8), the
    /// `interactive_credit` machinery, run time divided by the bonus only for
    /// HIGH_CREDIT tasks, `prio` recomputed on a granularity requeue.
    V2_6_1,
    /// 2.6.8 on (2.6.14 modelled): `task_timeslice` by `SCALE_PRIO` (2.6.9 on; 100 ms at
    /// nice 0, 800 ms at −20, 5 ms at +19), `MAX_SLEEP_AVG` = 10 × DEF_TIMESLICE,
    /// no `interactive_credit`, every task's run time divided by its bonus in
    /// `schedule()`, a granularity requeue keeps `prio`, and a wakeup from
    /// interrupt context (`activated` = 2) credits the whole run-queue wait.
    V2_6_14,
}

/// The tick-rate-dependent constants of one kernel configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct O1 {
    pub hz: u64,
    pub rules: Rules,
    /// `MAX_SLEEP_AVG` in jiffies and one jiffy in ns, computed once: every tick of
    /// every CPU asks for them (a bonus, a priority, the starvation limit), and
    /// each costs divisions.
    max_sleep_avg_jiffies: u64,
    tick_ns: u64,
}

impl O1 {
    /// The 2.6.1 rules at `hz`.
    pub fn new(hz: u64) -> O1 {
        O1::with_rules(hz, Rules::V2_6_1)
    }

    /// The 2.6.8+ rules (as in 2.6.14) at `hz`.
    pub fn v2_6_14(hz: u64) -> O1 {
        O1::with_rules(hz, Rules::V2_6_14)
    }

    fn with_rules(hz: u64, rules: Rules) -> O1 {
        assert!((10..=10_000).contains(&hz), "hz {hz} out of range");
        let mut o1 = O1 { hz, rules, max_sleep_avg_jiffies: 0, tick_ns: 1_000_000_000 / hz };
        o1.max_sleep_avg_jiffies = o1.timeslice(static_prio(0)) * MAX_BONUS as u64;
        assert!(o1.max_sleep_avg_jiffies > 0 && o1.tick_ns > 0);
        o1
    }

    /// `DEF_TIMESLICE` of 2.6.8+ (100 ms) in jiffies, at least one.
    pub fn def_timeslice(&self) -> u64 {
        (100 * self.hz / 1000).max(1)
    }

    /// `task_timeslice` of 2.6.8+ (kernel/sched.c at v2.6.14), in jiffies:
    /// `SCALE_PRIO(x, prio)` = max(x × (MAX_PRIO − prio) / (MAX_USER_PRIO / 2), MIN_TIMESLICE)
    /// with x = 4 × DEF_TIMESLICE below nice 0 and DEF_TIMESLICE otherwise;
    /// MIN_TIMESLICE = max(5 × HZ / 1000, 1). At HZ 1000: 100 ms at nice 0,
    /// 800 ms at −20, 5 ms at +19.
    pub fn task_timeslice(&self, static_prio: i32) -> u64 {
        let min = (5 * self.hz / 1000).max(1);
        let x =
            if static_prio < self::static_prio(0) { 4 * self.def_timeslice() } else { self.def_timeslice() };
        (x * (MAX_PRIO - static_prio) as u64 / (MAX_USER_PRIO / 2) as u64).max(min)
    }

    pub fn tick_ns(&self) -> u64 {
        self.tick_ns
    }

    /// `MIN_TIMESLICE` (10 ms) in jiffies, at least one.
    pub fn min_timeslice(&self) -> u64 {
        (10 * self.hz / 1000).max(1)
    }

    /// `MAX_TIMESLICE` (200 ms) in jiffies.
    pub fn max_timeslice(&self) -> u64 {
        (200 * self.hz / 1000).max(1)
    }

    /// The timeslice of a task in jiffies under these rules: 2.6.1's `BASE_TIMESLICE`
    /// (102 at nice 0 and HZ 1000) or 2.6.8+'s [`O1::task_timeslice`].
    pub fn timeslice(&self, static_prio: i32) -> u64 {
        if self.rules == Rules::V2_6_14 {
            return self.task_timeslice(static_prio);
        }
        let (min, max) = (self.min_timeslice(), self.max_timeslice());
        min + (max - min) * (MAX_PRIO - 1 - static_prio) as u64 / (MAX_USER_PRIO - 1) as u64
    }

    /// `MAX_SLEEP_AVG` = AVG_TIMESLICE × MAX_BONUS, in jiffies (1,020 at HZ 1000).
    pub fn max_sleep_avg(&self) -> u64 {
        self.max_sleep_avg_jiffies
    }

    pub fn max_sleep_avg_ns(&self) -> u64 {
        self.max_sleep_avg() * self.tick_ns()
    }

    /// `CURRENT_BONUS`: sleep_avg in whole jiffies × MAX_BONUS / MAX_SLEEP_AVG.
    pub fn current_bonus(&self, sleep_avg_ns: u64) -> i64 {
        ((sleep_avg_ns / self.tick_ns()) * MAX_BONUS as u64 / self.max_sleep_avg()) as i64
    }

    /// `effective_prio`: static priority − (bonus − MAX_BONUS / 2), clamped to 100..=139.
    pub fn effective_prio(&self, static_prio: i32, sleep_avg_ns: u64) -> i32 {
        let bonus = self.current_bonus(sleep_avg_ns) - MAX_BONUS / 2;
        (static_prio - bonus as i32).clamp(MAX_RT_PRIO, MAX_PRIO - 1)
    }

    /// `JUST_INTERACTIVE_SLEEP`: a sleep longer than this sets sleep_avg to just interactive.
    pub fn just_interactive_sleep_ns(&self, static_prio: i32) -> u64 {
        let jiffies = self.max_sleep_avg()
            * (MAX_BONUS / 2 + i64::from(interactive_delta(static_prio)) + 1) as u64
            / MAX_BONUS as u64
            - 1;
        jiffies * self.tick_ns()
    }

    /// `TIMESLICE_GRANULARITY`: GRANULARITY × 2^((MAX_BONUS − bonus or 1) − 1) × CPUs,
    /// where GRANULARITY is MIN_TIMESLICE (2.6.1) or 10 ms in jiffies (2.6.8+); both 10 ms.
    pub fn granularity(&self, sleep_avg_ns: u64, cpus: u64) -> u64 {
        let steps = (MAX_BONUS - self.current_bonus(sleep_avg_ns)).max(1) as u32;
        self.min_timeslice() * (1u64 << (steps - 1)) * cpus
    }

    /// `STARVATION_LIMIT` (= MAX_SLEEP_AVG) in ns.
    pub fn starvation_limit_ns(&self) -> u64 {
        self.max_sleep_avg_ns()
    }
}

/// `DELTA(p)`: how far below its static priority a task must be to count as interactive.
pub fn interactive_delta(static_prio: i32) -> i32 {
    let nice = static_prio - MAX_RT_PRIO - 20;
    (nice as i64 * MAX_BONUS / MAX_USER_PRIO as i64 + INTERACTIVE_DELTA) as i32
}

/// `TASK_INTERACTIVE`: prio ≤ static_prio − DELTA. At nice 0: bonus ≥ 7.
pub fn task_interactive(prio: i32, static_prio: i32) -> bool {
    prio <= static_prio - interactive_delta(static_prio)
}

/// `TASK_PREEMPTS_CURR`: a woken task preempts the running one iff its priority is strictly better.
pub fn wakeup_preempts(woken_prio: i32, current_prio: i32) -> bool {
    woken_prio < current_prio
}

/// How a task came onto the run queue, for the on-runqueue credit (`p->activated`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activated {
    /// Not freshly woken (preempted, expired, or already credited).
    No,
    /// Woken by another task: 30 % of its wait on the run queue counts as sleep.
    Woken,
    /// Woken from interrupt context (a timer, a device): `activated` = 2, the whole
    /// wait on the run queue counts as sleep (2.6.1's `activate_task` has it too).
    /// The −1 of an uninterruptible sleep is not modelled: no modelled task sleeps so.
    Interrupt,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct O1Task {
    pub static_prio: i32,
    pub prio: i32,
    pub sleep_avg_ns: u64,
    pub interactive_credit: i64,
    pub activated: Activated,
    /// Jiffies left in the current slice.
    pub time_slice: u64,
    /// When it last started running, went to sleep, or was woken (`p->timestamp`).
    pub timestamp_ns: u64,
}

/// What `recalc_task_prio` did, for the narration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Credit {
    pub slept_ns: u64,
    /// What was added to sleep_avg (after the low-bonus multiplier and caps).
    pub added_ns: u64,
    /// The sleep was long enough to get just interactive status instead.
    pub just_interactive: bool,
}

impl O1Task {
    pub fn new(o1: &O1, nice: i32, now_ns: u64) -> O1Task {
        let static_prio = static_prio(nice);
        O1Task {
            static_prio,
            prio: static_prio,
            sleep_avg_ns: 0,
            interactive_credit: 0,
            activated: Activated::No,
            time_slice: o1.timeslice(static_prio),
            timestamp_ns: now_ns,
        }
    }

    /// `wake_up_forked_process`: a child of a parent with `parent_bonus` starts with
    /// CHILD_PENALTY % of that bonus as sleep_avg and half the parent's (full) slice.
    pub fn forked(o1: &O1, nice: i32, now_ns: u64, parent_bonus: i64) -> O1Task {
        let mut task = O1Task::new(o1, nice, now_ns);
        let parent_bonus = parent_bonus.clamp(0, MAX_BONUS);
        let bonus = parent_bonus as u64 * CHILD_PENALTY / 100;
        task.sleep_avg_ns = bonus * o1.max_sleep_avg() / MAX_BONUS as u64 * o1.tick_ns();
        // The child is queued beside its running parent, at the parent's priority.
        task.prio =
            (task.static_prio - (parent_bonus - MAX_BONUS / 2) as i32).clamp(MAX_RT_PRIO, MAX_PRIO - 1);
        task.time_slice = o1.timeslice(task.static_prio).div_ceil(2);
        task
    }

    pub fn interactive(&self) -> bool {
        task_interactive(self.prio, self.static_prio)
    }

    /// `copy_process` (2.6.1 kernel/fork.c): the parent's remaining slice is shared,
    /// so that forking creates no CPU time. The child gets `(left + 1) >> 1` jiffies
    /// and the parent keeps `left >> 1`, or 1 (then `scheduler_tick` ends it at once).
    /// Returns (child's slice, parent's slice left).
    pub fn fork_slice(parent_left: u64) -> (u64, u64) {
        ((parent_left + 1) >> 1, (parent_left >> 1).max(1))
    }

    /// TIMESLICE_GRANULARITY's round robin, for a running task in the active array:
    /// is it requeued by the tick that leaves it `left` jiffies?
    fn requeue_due(&self, o1: &O1, left: u64, cpus: u64) -> bool {
        let granularity = o1.granularity(self.sleep_avg_ns, cpus);
        // Unsigned int, as in the kernel: a first slice shared at fork can be longer
        // than task_timeslice (a nice 19 child of a shell with 196 ms left), and then
        // `task_timeslice(p) - p->time_slice` wraps.
        let used = (o1.timeslice(self.static_prio) as u32).wrapping_sub(left as u32);
        self.interactive() && u64::from(used) % granularity == 0 && left >= granularity
    }

    /// How many ticks from now, while it keeps running in the active array, until
    /// `scheduler_tick` asks it to reschedule (slice end or granularity requeue).
    /// Nothing it does while running changes the answer: sleep_avg and prio move
    /// only in `schedule()` and at those ticks.
    ///
    /// In closed form (the machine asks at every step): the requeues fall on the
    /// multiples of the granularity in slice time, so the first is the next one,
    /// if it still leaves a whole granularity; otherwise the slice ends first.
    pub fn ticks_until_resched(&self, o1: &O1, cpus: u64) -> u64 {
        let left = self.time_slice;
        if left <= 1 || !self.interactive() {
            return left;
        }
        if left > o1.timeslice(self.static_prio) {
            // The wrapped `used` of a long first slice has no tidy closed form; it is
            // one slice at most (≤ MAX_TIMESLICE ticks), so count.
            return self.ticks_until_resched_by_ticks(o1, cpus);
        }
        let granularity = i128::from(o1.granularity(self.sleep_avg_ns, cpus));
        let used = i128::from(o1.timeslice(self.static_prio)) - i128::from(left);
        let first = granularity - used.rem_euclid(granularity);
        if i128::from(left) - first >= granularity {
            u64::try_from(first).expect("between 1 and the granularity")
        } else {
            left
        }
    }

    /// `ticks_until_resched` the slow way, tick by tick: what the closed form must equal.
    fn ticks_until_resched_by_ticks(&self, o1: &O1, cpus: u64) -> u64 {
        (1..self.time_slice)
            .find(|&k| self.requeue_due(o1, self.time_slice - k, cpus))
            .unwrap_or(self.time_slice)
    }

    pub fn high_credit(&self) -> bool {
        self.interactive_credit > CREDIT_LIMIT
    }

    pub fn low_credit(&self) -> bool {
        self.interactive_credit < -CREDIT_LIMIT
    }

    /// `recalc_task_prio(p, now)`: credit the time since `timestamp` as sleep and
    /// recompute the priority.
    pub fn recalc(&mut self, o1: &O1, now_ns: u64) -> Credit {
        let max = o1.max_sleep_avg_ns();
        let slept = now_ns.saturating_sub(self.timestamp_ns).min(max);
        let mut credit = Credit { slept_ns: slept, added_ns: 0, just_interactive: false };
        if slept > 0 {
            if slept > o1.just_interactive_sleep_ns(self.static_prio) {
                // A long sleeper is categorised as idle: just interactive, no more.
                let before = self.sleep_avg_ns;
                self.sleep_avg_ns = (o1.max_sleep_avg() - o1.timeslice(static_prio(0))) * o1.tick_ns();
                credit.added_ns = self.sleep_avg_ns.saturating_sub(before);
                credit.just_interactive = true;
                if o1.rules == Rules::V2_6_1 && !self.high_credit() {
                    self.interactive_credit += 1;
                }
            } else {
                // The lower the sleep_avg, the faster it rises. On i386 `sleep_time` and
                // `sleep_avg` are 32-bit: the product wraps beyond 4.29 s (a sleep of 430 ms
                // to 815 ms at bonus 0), and so does the sum, as on the reporter's machine.
                let multiplier = (MAX_BONUS - o1.current_bonus(self.sleep_avg_ns)).max(1) as u32;
                let mut added = u64::from((slept as u32).wrapping_mul(multiplier));
                // Tasks with low credit get at most one timeslice of bonus.
                let slice_ns = o1.timeslice(self.static_prio) * o1.tick_ns();
                if o1.rules == Rules::V2_6_1 && self.low_credit() && added > slice_ns {
                    added = slice_ns;
                }
                let before = self.sleep_avg_ns;
                self.sleep_avg_ns = u64::from((self.sleep_avg_ns as u32).wrapping_add(added as u32));
                if self.sleep_avg_ns > max {
                    self.sleep_avg_ns = max;
                    if o1.rules == Rules::V2_6_1 && !self.high_credit() {
                        self.interactive_credit += 1;
                    }
                }
                credit.added_ns = self.sleep_avg_ns.saturating_sub(before);
            }
        }
        self.prio = o1.effective_prio(self.static_prio, self.sleep_avg_ns);
        credit
    }

    /// `activate_task` for a non-sync wakeup: recalc, mark as freshly woken, stamp.
    pub fn wake(&mut self, o1: &O1, now_ns: u64) -> Credit {
        let credit = self.recalc(o1, now_ns);
        if self.activated == Activated::No {
            self.activated = Activated::Woken;
        }
        self.timestamp_ns = now_ns;
        credit
    }

    /// `activate_task` of 2.6.8+ for a wakeup from interrupt context (`in_interrupt()`):
    /// recalc, `activated` = 2, stamp.
    pub fn wake_from_interrupt(&mut self, o1: &O1, now_ns: u64) -> Credit {
        let credit = self.recalc(o1, now_ns);
        if self.activated == Activated::No {
            self.activated = Activated::Interrupt;
        }
        self.timestamp_ns = now_ns;
        credit
    }

    /// `schedule()` picking a freshly woken task: 30 % of its wait counts as sleep
    /// (all of it after a wakeup from interrupt context).
    /// The caller re-queues it at the new priority.
    pub fn credit_runqueue_wait(&mut self, o1: &O1, now_ns: u64) -> Option<Credit> {
        if self.activated == Activated::No {
            return None;
        }
        let how = std::mem::replace(&mut self.activated, Activated::No);
        let waited = now_ns.saturating_sub(self.timestamp_ns);
        let weighted = if how == Activated::Interrupt {
            waited
        } else {
            waited * (ON_RUNQUEUE_WEIGHT * 128 / 100) / 128
        };
        let stamp = self.timestamp_ns;
        let credit = self.recalc(o1, stamp + weighted);
        // recalc does not move the timestamp here; schedule() stamps it on the switch.
        self.timestamp_ns = stamp;
        Some(credit)
    }

    /// `schedule()` switching away from (or back to) this task: debit the run time
    /// since `timestamp` (divided by CURRENT_BONUS only for HIGH_CREDIT tasks).
    /// Returns the debit.
    pub fn charge(&mut self, o1: &O1, now_ns: u64) -> u64 {
        let mut run = now_ns.saturating_sub(self.timestamp_ns).min(o1.max_sleep_avg_ns());
        // 2.6.8+: "Tasks charged proportionately less run_time at high sleep_avg to
        // delay them losing their interactive status", for every task.
        if self.high_credit() || o1.rules == Rules::V2_6_14 {
            run /= o1.current_bonus(self.sleep_avg_ns).max(1) as u64;
        }
        if run >= self.sleep_avg_ns {
            self.sleep_avg_ns = 0;
            if o1.rules == Rules::V2_6_1 && !(self.high_credit() || self.low_credit()) {
                self.interactive_credit -= 1;
            }
        } else {
            self.sleep_avg_ns -= run;
        }
        self.timestamp_ns = now_ns;
        run
    }
}

#[cfg(test)]
mod tests;
