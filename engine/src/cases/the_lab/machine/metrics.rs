//! The run's figures under the textbook's names: per task (response, turnaround,
//! waiting, CPU, switches, lock wait), per lock, per CPU, and the averages.

use super::Sim;
use crate::run::trace::Metric;
use crate::run::world::{Bucket, TaskId};
use std::collections::BTreeMap;

fn object(fields: Vec<(&str, Metric)>) -> Metric {
    Metric::Object(fields.into_iter().map(|(key, value)| (key.to_string(), value)).collect())
}

/// The mean of some durations, if there are any (rounded down to the nanosecond).
fn mean(values: &[u64]) -> Option<u64> {
    let count = values.len() as u128;
    (count > 0).then(|| (values.iter().map(|v| u128::from(*v)).sum::<u128>() / count) as u64)
}

impl Sim<'_> {
    pub(super) fn metrics(&self) -> BTreeMap<String, Metric> {
        let world = self.builder.world();
        let layout = &self.builder.layout;
        let mut metrics = BTreeMap::new();
        let mut tasks = BTreeMap::new();
        let (mut responses, mut turnarounds, mut waits) = (Vec::new(), Vec::new(), Vec::new());
        for (index, rt) in self.tasks.iter().enumerate() {
            let id = TaskId(index as u32);
            let arrive = self.program.tasks[index].arrive_ns;
            let times = world.task_times(id);
            let response = rt.first_run_ns.map(|first| first - arrive);
            let turnaround = rt.exit_ns.map(|exit| exit - arrive);
            let waiting = times[Bucket::Runnable as usize];
            responses.extend(response);
            turnarounds.extend(turnaround);
            waits.push(waiting);
            let mut fields = vec![
                ("arrival_ns", Metric::Ns(arrive)),
                ("response_ns", Metric::None(response)),
                ("turnaround_ns", Metric::None(turnaround)),
                ("waiting_ns", Metric::Ns(waiting)),
                ("user_ns", Metric::Ns(times[Bucket::User as usize])),
                ("sys_ns", Metric::Ns(times[Bucket::Sys as usize])),
                ("blocked_ns", Metric::Ns(times[Bucket::Blocked as usize])),
                ("sleep_ns", Metric::Ns(times[Bucket::Sleep as usize])),
                ("switches", Metric::Count(rt.switches)),
                ("lock_wait_ns", Metric::Ns(rt.lock_wait_ns)),
            ];
            // Under the O(1) scheduler, where its rules left the task at the end.
            if let Some(sched) = &self.o1 {
                let o1 = &sched.tasks[index];
                fields.push(("prio", Metric::Count(u64::try_from(o1.prio).unwrap_or(0))));
                fields.push(("sleep_avg_ns", Metric::Ns(o1.sleep_avg_ns)));
            }
            if let Some(sched) = &self.fair {
                fields.push(("weight", Metric::Count(sched.weight(index))));
            }
            if let Some(sched) = &self.good {
                fields.push(("counter", Metric::Count(sched.tasks[index].counter.max(0) as u64)));
            }
            let entry = object(fields);
            tasks.insert(layout.task_name(id).to_string(), entry);
        }
        metrics.insert("tasks".to_string(), Metric::Object(tasks));
        metrics.insert("response_avg_ns".to_string(), Metric::None(mean(&responses)));
        metrics.insert("turnaround_avg_ns".to_string(), Metric::None(mean(&turnarounds)));
        metrics.insert("waiting_avg_ns".to_string(), Metric::None(mean(&waits)));
        metrics.insert("tasks_exited".to_string(), Metric::Count(turnarounds.len() as u64));
        let mut locks = BTreeMap::new();
        for &lock in &self.locks {
            let stats = world.lock(lock).stats_at(world.now_ns);
            let entry = object(vec![
                ("acquisitions", Metric::Count(stats.acquisitions)),
                ("contended", Metric::Count(stats.contended)),
                ("wait_total_ns", Metric::Ns(stats.wait_total_ns)),
                ("wait_max_ns", Metric::Ns(stats.wait_max_ns)),
                ("hold_total_ns", Metric::Ns(stats.hold_total_ns)),
            ]);
            locks.insert(layout.lock_name(lock).to_string(), entry);
        }
        metrics.insert("locks".to_string(), Metric::Object(locks));
        if !self.pipes.is_empty() {
            let mut pipes = BTreeMap::new();
            for (pipe, (name, _)) in self.pipes.iter().zip(&self.program.pipes) {
                let entry = object(vec![
                    ("capacity_bytes", Metric::Count(pipe.capacity())),
                    ("slots", Metric::Count(pipe.max_usage)),
                    ("sent_bytes", Metric::Count(pipe.sent)),
                    ("received_bytes", Metric::Count(pipe.received)),
                    ("left_bytes", Metric::Count(pipe.bytes)),
                    ("read_waits", Metric::Count(pipe.read_waits)),
                    ("write_waits", Metric::Count(pipe.write_waits)),
                    ("spurious_wakeups", Metric::Count(pipe.spurious_wakeups)),
                    ("eof_reads", Metric::Count(pipe.eof_reads)),
                    ("sigpipes", Metric::Count(pipe.sigpipes)),
                ]);
                pipes.insert(name.clone(), entry);
            }
            metrics.insert("pipes".to_string(), Metric::Object(pipes));
        }
        let mut cpus = BTreeMap::new();
        for cpu in 0..self.cpus.len() {
            let busy = world.now_ns - world.cpu_idle(cpu);
            let utilisation = if world.now_ns == 0 { 0.0 } else { busy as f64 / world.now_ns as f64 };
            let entry =
                object(vec![("busy_ns", Metric::Ns(busy)), ("utilisation", Metric::Ratio(utilisation))]);
            cpus.insert(format!("cpu{cpu}"), entry);
        }
        metrics.insert("cpus".to_string(), Metric::Object(cpus));
        for (name, value) in layout.counters.iter().zip(&world.counters) {
            metrics.insert(name.clone(), Metric::Count(*value));
        }
        metrics.insert("end_ns".to_string(), Metric::Ns(world.now_ns));
        metrics
    }
}
