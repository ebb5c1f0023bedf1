//! What one page of the dump does, as micro-ops with costs, per variant; and
//! the dump's ends: holes, the SIGKILL, the totals (the tree walk is in `tree_walk.rs`).

use super::sim::{
    Cost, Sim, Step, Variant, C_EMITTED, C_ITERATIONS, C_LOCKS, C_SIGKILL, C_SKIPPED, C_VISITS,
};
use super::space::{Backing, Walk};
use super::text::{self, at, T};
use crate::kernel::mm::maple::Visit;
use crate::run::builder::{text as say, OpSpec};
use crate::run::lock::LockMode;
use crate::run::narration::Arg;
use crate::run::trace::{Metric, OpKind};
use crate::run::world::{Effect, TaskState};
use std::collections::BTreeMap;

impl Sim<'_> {
    fn dump_fn(&self) -> u16 {
        match self.config.variant {
            Variant::V613 => text::DUMP_613,
            Variant::Interruptible => text::DUMP_INTERRUPTIBLE,
            Variant::V615 | Variant::TreeWalk => text::DUMP_615,
            Variant::Today => text::DUMP_TODAY,
        }
    }

    pub(super) fn lookup_steps(&self, addr: u64, path: &[Visit], steps: &mut Vec<Step>) {
        steps.push(Step {
            kind: OpKind::TreeVisit,
            code: at(text::GUP, 1),
            template: T::MT_FIND,
            args: vec![Arg::Addr(addr)],
            effects: vec![],
            cost: vec![(Cost::MtFind, self.config.costs.rcu + self.config.costs.ma_state)],
        });
        for (depth, visit) in path.iter().enumerate() {
            let leaf = depth + 1 == path.len();
            let kind = if leaf { "leaf_64" } else { "arange_64" };
            steps.push(Step {
                kind: OpKind::TreeVisit,
                code: at(text::MT_FIND, if leaf { 7 } else { 4 }),
                template: T::VISIT,
                args: vec![
                    Arg::Count(u64::from(visit.node)),
                    Arg::Word(kind),
                    Arg::Count(u64::from(visit.pivots_compared)),
                    Arg::Count(u64::from(visit.slot)),
                    Arg::Addr(visit.min),
                    Arg::Addr(visit.max),
                ],
                effects: vec![self.count(C_VISITS, 1)],
                cost: vec![(
                    Cost::MtFind,
                    self.config.costs.node + self.config.costs.pivot * u64::from(visit.pivots_compared),
                )],
            });
        }
    }

    /// The micro-ops of one page at `addr`: the lock (every page before 6.15, once
    /// after), the tree lookup, the VMA's flags, the page walk, the unlock, and the
    /// page written or skipped.
    pub(super) fn page_steps(
        &self,
        vma: usize,
        addr: u64,
        walk: Walk,
        path: &[Visit],
        take_lock: bool,
    ) -> Vec<Step> {
        let per_page_lock = !self.config.variant.keeps_lock();
        let backing = self.space.vmas[vma].backing;
        let mut steps = Vec::new();
        if per_page_lock || take_lock {
            steps.push(self.read_lock_step(per_page_lock));
        }
        self.lookup_steps(addr, path, &mut steps);
        steps.push(self.flags_step(backing));
        // The gate and vvar have no pages to walk: their flags end the lookup.
        let no_walk = matches!(backing, Backing::Gate | Backing::Vvar);
        let present = walk.present && !self.signal_pending && !no_walk;
        if no_walk {
        } else if self.signal_pending {
            steps.push(self.signal_seen_step());
        } else {
            steps.push(self.page_walk_step(addr, walk));
        }
        if per_page_lock || present {
            steps.push(self.read_unlock_step(per_page_lock));
        }
        if present {
            steps.push(self.emit_step());
        } else {
            self.skip_steps(&mut steps);
        }
        steps
    }

    /// `mmap_read_lock`: per page in `get_dump_page` before 6.15, or once for the
    /// whole dump after.
    fn read_lock_step(&self, per_page_lock: bool) -> Step {
        let (lock, task) = (self.lock, self.task);
        let (template, code) = if per_page_lock {
            (T::LOCK, at(text::GUP_LOCKED, 1))
        } else {
            (T::LOCK_TAKE_615, at(self.dump_fn(), 3))
        };
        Step {
            kind: OpKind::LockFast,
            code,
            template,
            args: vec![Arg::Lock(lock), Arg::Count(self.all.lock_acquisitions + 1)],
            effects: vec![
                Effect::Acquire { lock, task, mode: LockMode::Read, waited_ns: 0 },
                self.count(C_LOCKS, 1),
            ],
            cost: vec![(Cost::DownRead, self.config.costs.down_read)],
        }
    }

    /// The VMA's flags checked: the gate page is a hole at once; vvar is refused here,
    /// at the cost of the rest of the lookup.
    fn flags_step(&self, backing: Backing) -> Step {
        let rest = [
            (Cost::GupRest, self.config.costs.gup_base),
            (Cost::GetDumpPage, self.config.costs.get_dump_page),
        ];
        if backing == Backing::Gate {
            return Step {
                kind: OpKind::Compute,
                code: at(text::GUP, 2),
                template: T::GATE_HOLE,
                args: vec![],
                effects: vec![],
                cost: rest.to_vec(),
            };
        }
        let vvar = backing == Backing::Vvar;
        let mut cost = vec![(Cost::CheckFlags, self.config.costs.check_flags)];
        if vvar {
            cost.extend(rest.iter().copied());
        }
        Step {
            kind: OpKind::Compute,
            code: at(text::GUP, 3),
            template: if vvar { T::FLAGS_VVAR } else { T::FLAGS },
            args: vec![],
            effects: vec![],
            cost,
        }
    }

    /// A pending SIGKILL seen in the lookup: no walk, the page is not dumped.
    fn signal_seen_step(&self) -> Step {
        Step {
            kind: OpKind::Compute,
            code: at(text::GUP, 4),
            template: T::SIGNAL_SEEN,
            args: vec![],
            effects: vec![],
            cost: vec![
                (Cost::GupRest, self.config.costs.gup_base),
                (Cost::GetDumpPage, self.config.costs.get_dump_page),
            ],
        }
    }

    /// The page-table walk down to the page, a huge page, or the level with no entry.
    fn page_walk_step(&self, addr: u64, walk: Walk) -> Step {
        let levels = u64::from(walk.levels);
        let names = self.tables.geometry.names;
        let huge = walk.present && usize::from(walk.levels) < names.len();
        let (template, args) = if huge {
            (T::WALK_HUGE, vec![Arg::Addr(addr), Arg::Count(levels)])
        } else if walk.present {
            (T::WALK_PRESENT, vec![Arg::Addr(addr), Arg::Count(levels)])
        } else {
            (
                T::WALK_NONE,
                vec![Arg::Addr(addr), Arg::Word(names[usize::from(walk.levels) - 1]), Arg::Count(levels)],
            )
        };
        Step {
            kind: OpKind::PageWalk,
            code: at(text::FOLLOW, follow_line(names, walk)),
            template,
            args,
            effects: vec![],
            cost: vec![
                (Cost::GupRest, self.config.costs.gup_base + self.config.costs.level * levels),
                (Cost::GetDumpPage, self.config.costs.get_dump_page),
            ],
        }
    }

    /// `mmap_read_unlock`: after every page before 6.15; after 6.15, before a present
    /// page is written (the write may sleep).
    fn read_unlock_step(&self, per_page_lock: bool) -> Step {
        let (lock, task) = (self.lock, self.task);
        let (template, code) = if per_page_lock {
            (T::UNLOCK, at(text::GUP_LOCKED, 3))
        } else {
            (T::UNLOCK_615_EMIT, at(self.dump_fn(), 6))
        };
        Step {
            kind: OpKind::LockRelease,
            code,
            template,
            args: vec![Arg::Lock(lock)],
            effects: vec![Effect::Release { lock, task }],
            cost: vec![(Cost::UpRead, self.config.costs.up_read)],
        }
    }

    /// A present page written to the core file.
    fn emit_step(&self) -> Step {
        let v615 = self.config.variant.keeps_lock();
        Step {
            kind: OpKind::Emit,
            code: at(self.dump_fn(), if v615 { 7 } else { 4 }),
            template: T::EMIT,
            args: vec![Arg::Word(if self.config.page == 4096 { "4 KiB" } else { "one" })],
            effects: vec![self.count(C_EMITTED, 1), self.count(C_ITERATIONS, 1)],
            cost: vec![(Cost::Emit, self.config.costs.emit)],
        }
    }

    /// A page not dumped: skipped (checking for a signal where the variant does), and
    /// the loop left when one is pending and the variant looks.
    fn skip_steps(&self, steps: &mut Vec<Step>) {
        let variant = self.config.variant;
        let v615 = variant.keeps_lock();
        let dump = self.dump_fn();
        let (template, check) = match variant {
            Variant::V613 => (T::SKIP, 0),
            Variant::Interruptible => (T::SKIP_CHECKED, self.config.costs.interrupt_check),
            _ => (T::SKIP_615, self.config.costs.interrupt_check),
        };
        steps.push(Step {
            kind: OpKind::Skip,
            code: at(dump, if v615 { 10 } else { 7 }),
            template,
            args: vec![],
            effects: vec![self.count(C_SKIPPED, 1), self.count(C_ITERATIONS, 1)],
            cost: vec![(Cost::Loop, self.config.costs.dump_loop + check)],
        });
        if self.signal_pending && variant != Variant::V613 {
            steps.push(Step {
                kind: OpKind::Signal,
                code: at(dump, if v615 { 12 } else { 8 }),
                template: T::ABORT,
                args: vec![],
                effects: vec![],
                cost: vec![],
            });
        }
    }

    pub(super) fn unlock_op(&mut self, now: u64, _why: Option<T>) {
        let (lock, task) = (self.lock, self.task);
        self.builder.iteration(say(T::ITER_END.id(), &[]));
        self.builder.op(OpSpec {
            at_ns: now,
            actor: Some(task),
            kind: OpKind::LockRelease,
            code: at(text::DUMP_615, 15),
            text: say(T::UNLOCK_615_END.id(), &[Arg::Lock(lock)]),
            effects: &[Effect::Release { lock, task }],
        });
        self.locked = false;
    }

    /// `cprm->to_skip` is written out by the next `dump_emit` (before a present
    /// page, or do_coredump's final one): one lseek for a file, zero-filled pages for
    /// a pipe. `__dump_skip` checks `dump_interrupted()` first, and a pipe's zero
    /// pages go through `__dump_emit` one by one, each checking it: after a SIGKILL
    /// nothing more is written.
    pub(super) fn flush_hole(&mut self) {
        let pages = self.to_skip;
        if pages == 0 {
            return;
        }
        self.to_skip = 0;
        let now = self.builder.now_ns();
        let task = self.task;
        self.builder.iteration(say(T::ITER_HOLE.id(), &[Arg::Count(0), Arg::Count(pages)]));
        let (template, code, args, ns, stops) = if self.signal_pending {
            (
                T::HOLE_DROPPED,
                at(text::HOLES, 4),
                vec![Arg::Count(pages)],
                self.config.costs.interrupt_check,
                true,
            )
        } else if self.config.pipe {
            // Zero pages until the SIGKILL lands, if it lands during them.
            let written = match self.config.sigkill_at_ns {
                Some(sent) if sent >= now && sent < now + pages * self.config.costs.zero_page => {
                    ((sent - now) / self.config.costs.zero_page + 1).min(pages)
                }
                _ => pages,
            };
            if written < pages {
                let args = vec![Arg::Count(written), Arg::Count(pages)];
                (T::HOLE_PIPE_CUT, at(text::HOLES, 5), args, written * self.config.costs.zero_page, true)
            } else {
                (
                    T::HOLE_PIPE,
                    at(text::HOLES, 5),
                    vec![Arg::Count(pages)],
                    pages * self.config.costs.zero_page,
                    false,
                )
            }
        } else {
            (T::HOLE_FILE, at(text::HOLES, 4), vec![Arg::Count(pages)], self.config.costs.lseek, false)
        };
        self.costs[Cost::Holes as usize] += ns;
        self.builder.op(OpSpec {
            at_ns: now,
            actor: Some(task),
            kind: OpKind::Emit,
            code,
            text: say(template.id(), &args),
            effects: &[],
        });
        self.builder.advance_to(now + ns);
        if template == T::HOLE_PIPE_CUT {
            let sent = self.config.sigkill_at_ns.unwrap_or(now);
            self.sigkill(sent, None);
        }
        if stops {
            self.aborted_at = Some(now + ns);
        }
    }

    /// The SIGKILL arrives while page `addr` is examined, or (None) while a hole's
    /// zero pages are written.
    pub(super) fn sigkill(&mut self, sent_at: u64, addr: Option<u64>) {
        let now = self.builder.now_ns();
        self.signal_pending = true;
        self.builder.iteration(say(T::ITER_SIGNAL.id(), &[]));
        let (template, args) = match addr {
            Some(addr) => (T::SIGNAL, vec![Arg::Ns(sent_at), Arg::Addr(addr)]),
            None => (T::SIGNAL_IN_HOLE, vec![Arg::Ns(sent_at)]),
        };
        let text = say(template.id(), &args);
        self.builder.op(OpSpec {
            at_ns: now,
            actor: None,
            kind: OpKind::Signal,
            code: at(text::SIGNAL, 1),
            text,
            effects: &[self.count(C_SIGKILL, 1)],
        });
        if self.config.variant == Variant::V613 && addr.is_some() {
            self.builder.op(OpSpec {
                at_ns: now,
                actor: Some(self.task),
                kind: OpKind::Note,
                code: at(text::DUMP_613, 7),
                text: say(T::SIGNAL_IGNORED.id(), &[]),
                effects: &[],
            });
        }
    }

    pub(super) fn finish_dump(&mut self) {
        // do_coredump's final dump_emit(cprm, "", 1) writes out what is left in to_skip.
        self.flush_hole();
        let now = self.builder.now_ns();
        self.builder.phase(say(T::PHASE_END.id(), &[]));
        self.builder.iteration(say(T::ITER_END.id(), &[]));
        let task = self.task;
        let (end_template, end_args) = match self.config.sigkill_at_ns {
            Some(sent) if self.signal_pending => {
                (T::END_KILLED, vec![Arg::Ns(sent), Arg::Ns(now.saturating_sub(sent))])
            }
            _ => (T::END_NO_SIGNAL, vec![]),
        };
        self.builder.op(OpSpec {
            at_ns: now,
            actor: Some(task),
            kind: OpKind::Note,
            code: at(self.dump_fn(), 0),
            text: say(
                T::END.id(),
                &[Arg::Ns(now), Arg::Count(self.all.skipped), Arg::Count(self.all.emitted)],
            ),
            effects: &[],
        });
        self.builder.op(OpSpec {
            at_ns: now,
            actor: Some(task),
            kind: OpKind::Exit,
            code: at(self.dump_fn(), 0),
            text: say(end_template.id(), &end_args),
            effects: &[Effect::SetState { task, state: TaskState::Dead }],
        });
    }

    pub(super) fn metrics(&self) -> BTreeMap<String, Metric> {
        let mut metrics = BTreeMap::new();
        let end = self.builder.now_ns();
        let put = |m: &mut BTreeMap<String, Metric>, k: &str, v: Metric| {
            m.insert(k.to_string(), v);
        };
        put(&mut metrics, "iterations", Metric::Count(self.big.iterations));
        put(&mut metrics, "pages_skipped", Metric::Count(self.big.skipped));
        put(&mut metrics, "pages_emitted", Metric::Count(self.big.emitted));
        put(&mut metrics, "lock_acquisitions", Metric::Count(self.big.lock_acquisitions));
        put(&mut metrics, "tree_node_visits", Metric::Count(self.big.node_visits));
        put(&mut metrics, "dump_ns", Metric::Ns(end));
        let latency =
            self.config.sigkill_at_ns.filter(|_| self.signal_pending).map(|sent| end.saturating_sub(sent));
        put(&mut metrics, "sigkill_latency_ns", Metric::None(latency));
        let costs: BTreeMap<String, Metric> = super::sim::COST_NAMES
            .iter()
            .zip(self.costs)
            .filter(|(_, ns)| *ns > 0)
            .map(|(name, ns)| (name.to_string(), Metric::Ns(ns)))
            .collect();
        put(&mut metrics, "cost_by_function_ns", Metric::Object(costs));
        put(&mut metrics, "maple_height", Metric::Count(u64::from(self.space.tree.height())));
        put(&mut metrics, "maple_nodes", Metric::Count(self.space.tree.nodes.len() as u64));
        let all: BTreeMap<String, Metric> = [
            ("iterations", self.all.iterations),
            ("pages_skipped", self.all.skipped),
            ("pages_emitted", self.all.emitted),
            ("lock_acquisitions", self.all.lock_acquisitions),
            ("tree_node_visits", self.all.node_visits),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), Metric::Count(v)))
        .collect();
        put(&mut metrics, "all_vmas", Metric::Object(all));
        metrics
    }
}

/// The line of `follow_page_mask` where a walk ends: the level it stops at, by
/// name (4-level x86-64 folds p4d into pgd; arm64 with 64 KiB pages folds pud),
/// or the last line when the pte maps a page.
fn follow_line(names: &[&str], walk: Walk) -> u16 {
    if walk.present && usize::from(walk.levels) == names.len() {
        return 6;
    }
    if walk.present {
        // A huge pmd (THP): follow_pmd_mask returns the page it maps.
        return 4;
    }
    let name = names[usize::from(walk.levels) - 1];
    match name.split('/').next().unwrap_or(name) {
        "pgd" => 1,
        "p4d" => 2,
        "pud" => 3,
        "pmd" => 4,
        _ => 5,
    }
}
