//! The hypothetical tree walk (the `tree-walk` variant): one VMA lookup per range,
//! holes skipped whole by one walk of the page tables, present pages written with
//! mmap_lock dropped around each write. A what-if design, never merged.

use super::sim::{Cost, Sim, C_EMITTED, C_ITERATIONS, C_LOCKS, C_SKIPPED, C_VISITS};
use super::text::{self, at, T};
use crate::kernel::mm::maple::Visit;
use crate::run::builder::{text as say, OpSpec};
use crate::run::lock::LockMode;
use crate::run::narration::Arg;
use crate::run::trace::OpKind;
use crate::run::world::Effect;

impl Sim<'_> {
    /// The hypothetical range walk: one lookup, holes skipped whole, present pages written.
    pub(super) fn tree_walk_vma(&mut self, _vma: usize, start: u64, end: u64, path: &[Visit]) {
        let (lock, task) = (self.lock, self.task);
        self.tree_walk_lookup(start, path);
        let big = self.space.vmas[self.space.big].start == start;
        for (seg_start, seg_end, present) in self.tree_walk_runs(start, end) {
            if self.aborted_at.is_some() {
                break;
            }
            let now = self.builder.now_ns();
            if let (Some(sent), false) = (self.config.sigkill_at_ns, self.signal_pending) {
                if now >= sent {
                    self.sigkill(sent, Some(seg_start));
                    self.aborted_at = Some(now);
                    break;
                }
            }
            let pages = (seg_end - seg_start) / self.config.page;
            if present {
                self.tree_walk_present(seg_start, pages, path, big);
            } else {
                self.tree_walk_hole(seg_start, seg_end, pages, big);
            }
        }
        let now = self.builder.now_ns();
        self.builder.iteration(say(T::ITER_END.id(), &[]));
        self.builder.op(OpSpec {
            at_ns: now,
            actor: Some(task),
            kind: OpKind::LockRelease,
            code: at(text::TREE_WALK, 7),
            text: say(T::TREE_UNLOCK_END.id(), &[Arg::Lock(lock)]),
            effects: &[Effect::Release { lock, task }],
        });
    }

    /// The range walk's start: the read lock taken once and the VMA at `start` looked up.
    fn tree_walk_lookup(&mut self, start: u64, path: &[Visit]) {
        let (lock, task) = (self.lock, self.task);
        let now = self.builder.now_ns();
        let mut steps = Vec::new();
        self.lookup_steps(start, path, &mut steps);
        self.builder.iteration(say(T::ITER_PAGE.id(), &[Arg::Addr(start)]));
        let mut at_ns = now;
        self.builder.op(OpSpec {
            at_ns,
            actor: Some(task),
            kind: OpKind::LockFast,
            code: at(text::TREE_WALK, 1),
            text: say(T::TREE_LOOKUP.id(), &[Arg::Lock(lock)]),
            effects: &[
                Effect::Acquire { lock, task, mode: LockMode::Read, waited_ns: 0 },
                self.count(C_LOCKS, 1),
            ],
        });
        self.all.lock_acquisitions += 1;
        let visits = path.len() as u64;
        self.all.node_visits += visits;
        if self.space.vmas[self.space.big].start == start {
            self.big.node_visits += visits;
            self.big.lock_acquisitions += 1;
        }
        for step in &steps {
            let ns: u64 = step.cost.iter().map(|c| c.1).sum();
            self.builder.op(OpSpec {
                at_ns,
                actor: Some(task),
                kind: step.kind,
                code: step.code,
                text: say(step.template.id(), &step.args),
                effects: &step.effects,
            });
            self.costs[Cost::TreeWalk as usize] += ns;
            at_ns += ns;
        }
        self.builder.advance_to(at_ns);
    }

    /// The range's runs of present pages and of holes, (start, end, present). A hole
    /// is everything between two populated pages, whatever depth its parts stop at:
    /// one skip, scanning the entries of every level it passes.
    fn tree_walk_runs(&self, start: u64, end: u64) -> Vec<(u64, u64, bool)> {
        let mut runs: Vec<(u64, u64, bool)> = Vec::new();
        for (seg_start, seg_end, walk) in self.tables.segments(start, end) {
            match runs.last_mut() {
                Some(last) if !walk.present && !last.2 => last.1 = seg_end,
                _ => runs.push((seg_start, seg_end, walk.present)),
            }
        }
        runs
    }

    /// A run of present pages: for each, drop the lock, write, retake it and look the
    /// VMA up again (all but the first and last page as one repeat).
    fn tree_walk_present(&mut self, seg_start: u64, pages: u64, path: &[Visit], big: bool) {
        let page = self.config.page;
        let (lock, task) = (self.lock, self.task);
        let mut relookup = Vec::new();
        self.lookup_steps(seg_start, path, &mut relookup);
        let lookup_ns: u64 = relookup.iter().map(|step| step.cost.iter().map(|c| c.1).sum::<u64>()).sum();
        let unlock = [Effect::Release { lock, task }];
        let emitted = [self.count(C_EMITTED, 1), self.count(C_ITERATIONS, 1)];
        let relock = [
            Effect::Acquire { lock, task, mode: LockMode::Read, waited_ns: 0 },
            self.count(C_LOCKS, 1),
            self.count(C_VISITS, path.len() as u64),
        ];
        let lock_arg = [Arg::Lock(lock)];
        let unlock_spec = |at_ns| OpSpec {
            at_ns,
            actor: Some(task),
            kind: OpKind::LockRelease,
            code: at(text::TREE_WALK, 4),
            text: say(T::TREE_UNLOCK_EMIT.id(), &lock_arg),
            effects: &unlock,
        };
        let emit_spec = |at_ns| OpSpec {
            at_ns,
            actor: Some(task),
            kind: OpKind::Emit,
            code: at(text::TREE_WALK, 5),
            text: say(T::EMIT.id(), &[Arg::Word("populated")]),
            effects: &emitted,
        };
        let relock_spec = |at_ns| OpSpec {
            at_ns,
            actor: Some(task),
            kind: OpKind::LockFast,
            code: at(text::TREE_WALK, 6),
            text: say(T::TREE_RELOCK.id(), &lock_arg),
            effects: &relock,
        };
        // The lock is dropped before the first page; each page is then written,
        // the lock retaken (and the VMA looked up again) and, but after the
        // last page, dropped again for the next one.
        let now = self.builder.now_ns();
        self.builder.iteration(say(T::ITER_PAGE.id(), &[Arg::Addr(seg_start)]));
        self.builder.op(unlock_spec(now));
        self.builder.advance_to(now + self.config.costs.up_read);
        let period =
            self.config.costs.emit + self.config.costs.down_read + lookup_ns + self.config.costs.up_read;
        if pages > 1 {
            let specs = [
                emit_spec(0),
                relock_spec(self.config.costs.emit),
                unlock_spec(self.config.costs.emit + self.config.costs.down_read + lookup_ns),
            ];
            let label_args = [Arg::AffineAddr { base: seg_start, stride: page }];
            self.builder.repeat(pages - 1, period, say(T::ITER_PAGE.id(), &label_args), &specs);
        }
        let now = self.builder.now_ns();
        let last = seg_start + (pages - 1) * page;
        self.builder.iteration(say(T::ITER_PAGE.id(), &[Arg::Addr(last)]));
        self.builder.op(emit_spec(now));
        self.builder.op(relock_spec(now + self.config.costs.emit));
        self.builder.advance_to(now + self.config.costs.emit + self.config.costs.down_read + lookup_ns);
        self.costs[Cost::Emit as usize] += pages * self.config.costs.emit;
        self.costs[Cost::UpRead as usize] += pages * self.config.costs.up_read;
        self.costs[Cost::DownRead as usize] += pages * self.config.costs.down_read;
        self.costs[Cost::TreeWalk as usize] += pages * lookup_ns;
        let visits = pages * path.len() as u64;
        for tally in std::iter::once(&mut self.all).chain(big.then_some(&mut self.big)) {
            tally.emitted += pages;
            tally.iterations += pages;
            tally.lock_acquisitions += pages;
            tally.node_visits += visits;
        }
    }

    /// A hole skipped whole, at the cost of the table entries it scans.
    fn tree_walk_hole(&mut self, seg_start: u64, seg_end: u64, pages: u64, big: bool) {
        let task = self.task;
        let now = self.builder.now_ns();
        let entries = self.tables.entries_to_skip(seg_start, seg_end);
        let ns = entries * self.config.costs.table_entry;
        self.builder.iteration(say(T::ITER_HOLE.id(), &[Arg::Addr(seg_start), Arg::Count(pages)]));
        let args = [Arg::Addr(seg_start), Arg::Addr(seg_end - 1), Arg::Count(pages), Arg::Count(entries)];
        self.builder.op(OpSpec {
            at_ns: now,
            actor: Some(task),
            kind: OpKind::Skip,
            code: at(text::TREE_WALK, 3),
            text: say(T::TREE_SKIP.id(), &args),
            effects: &[self.count(C_SKIPPED, pages), self.count(C_ITERATIONS, 1)],
        });
        self.builder.advance_to(now + ns.max(1));
        self.costs[Cost::TreeWalk as usize] += ns;
        self.all.skipped += pages;
        self.all.iterations += 1;
        if big {
            self.big.skipped += pages;
            self.big.iterations += 1;
        }
    }
}
