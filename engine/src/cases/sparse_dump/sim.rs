//! The dump loop, page by page, in closed form: every run of identical pages
//! (same VMA, same page-table walk, same signal state) is one repeat block, so
//! a 1 TiB dump is a few dozen blocks, exact to the page and the nanosecond.

use super::costs::OpCosts;
use super::space::{Backing, PageTables, Space, Walk};
use super::text::{self, at, T, TEMPLATES};
use crate::kernel::mm::maple::{Slot, Visit};
use crate::run::builder::{text as say, OpSpec, TraceBuilder};
use crate::run::lock::{LockKind, LockMode};
use crate::run::narration::{Arg, CodeLoc};
use crate::run::trace::{Metric, OpKind, Outcome};
use crate::run::world::{CounterId, Effect, Layout, LockId, TaskId, TaskState};
use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Variant {
    V613,
    Interruptible,
    V615,
    TreeWalk,
    /// Linux 6.18 on this project's machine: v6.15's loop, this machine's costs.
    Today,
}

impl Variant {
    /// v6.15 and later keep mmap_lock across skipped pages.
    pub(super) fn keeps_lock(self) -> bool {
        matches!(self, Variant::V615 | Variant::Today)
    }
}

pub(super) struct Config {
    pub page: u64,
    pub sigkill_at_ns: Option<u64>,
    pub pipe: bool,
    pub variant: Variant,
    pub costs: OpCosts,
}

/// Where simulated time goes, by function (the cost breakdown bar).
#[derive(Clone, Copy)]
#[repr(usize)]
pub(super) enum Cost {
    MtFind,
    DownRead,
    UpRead,
    CheckFlags,
    GupRest,
    GetDumpPage,
    Loop,
    Emit,
    Holes,
    Snapshot,
    TreeWalk,
}

pub(super) const COST_NAMES: [&str; 11] = [
    "mt_find",
    "down_read_killable",
    "up_read",
    "check_vma_flags",
    "__get_user_pages (rest, incl. page-table walk)",
    "get_dump_page",
    "dump_user_range loop",
    "dump_emit_page",
    "holes (lseek or zero pages)",
    "dump_vma_snapshot",
    "tree walk (hypothetical)",
];

/// One op of a page's iteration, owned, with its cost.
pub(super) struct Step {
    pub kind: OpKind,
    pub code: CodeLoc,
    pub template: T,
    pub args: Vec<Arg>,
    pub effects: Vec<Effect>,
    pub cost: Vec<(Cost, u64)>,
}

#[derive(Default, Clone, Copy)]
pub(super) struct Tally {
    pub iterations: u64,
    pub skipped: u64,
    pub emitted: u64,
    pub lock_acquisitions: u64,
    pub node_visits: u64,
}

pub(super) struct Sim<'a> {
    pub config: &'a Config,
    pub space: &'a Space,
    pub tables: PageTables,
    pub builder: Recorder,
    pub task: TaskId,
    pub lock: LockId,
    pub counters: [CounterId; 6],
    pub costs: [u64; 11],
    pub big: Tally,
    pub all: Tally,
    pub locked: bool,
    pub signal_pending: bool,
    pub aborted_at: Option<u64>,
    /// `cprm->to_skip` in pages: skipped pages not yet turned into an lseek or zero pages.
    pub to_skip: u64,
}

pub(super) const C_ITERATIONS: usize = 0;
pub(super) const C_SKIPPED: usize = 1;
pub(super) const C_EMITTED: usize = 2;
pub(super) const C_LOCKS: usize = 3;
pub(super) const C_VISITS: usize = 4;
pub(super) const C_SIGKILL: usize = 5;

/// The trace builder, until the run has stored as much as one run may
/// (`TraceBuilder::storage_full`, checked at every block): from then on the dump
/// is still simulated to its end, its clock kept here, but nothing more is stored.
pub(super) struct Recorder {
    pub builder: TraceBuilder,
    now: u64,
    /// Where storing stopped: the simulated time then.
    pub stopped_at: Option<u64>,
    /// Blocks (single iterations and repeats) simulated, stored or not.
    pub blocks: u64,
}

impl Recorder {
    fn new(builder: TraceBuilder) -> Recorder {
        Recorder { builder, now: 0, stopped_at: None, blocks: 0 }
    }

    /// Whether this block is stored (false from the first block past the budget on).
    fn storing(&mut self) -> bool {
        if self.stopped_at.is_none() && self.builder.storage_full() {
            self.stopped_at = Some(self.now);
        }
        self.stopped_at.is_none()
    }

    pub fn now_ns(&self) -> u64 {
        self.now
    }

    pub fn phase(&mut self, title: crate::run::builder::Text<'_>) {
        if self.storing() {
            self.builder.phase(title);
        }
    }

    pub fn iteration(&mut self, label: crate::run::builder::Text<'_>) {
        self.blocks += 1;
        if self.storing() {
            self.builder.iteration(label);
        }
    }

    /// An op of the current single iteration (stored iff its iteration was).
    pub fn op(&mut self, spec: OpSpec<'_>) {
        self.now = self.now.max(spec.at_ns);
        if self.stopped_at.is_none() {
            self.builder.op(spec);
        }
    }

    pub fn repeat(
        &mut self,
        count: u64,
        period_ns: u64,
        label: crate::run::builder::Text<'_>,
        template: &[OpSpec<'_>],
    ) {
        self.blocks += 1;
        if self.storing() {
            self.builder.repeat(count, period_ns, label, template);
        }
        self.now += count * period_ns;
    }

    pub fn advance_to(&mut self, at_ns: u64) {
        self.now = self.now.max(at_ns);
        if self.stopped_at.is_none() {
            self.builder.advance_to(at_ns);
        }
    }
}

pub(super) struct Finished {
    pub builder: TraceBuilder,
    pub outcome: Outcome,
    pub metrics: BTreeMap<String, Metric>,
    /// Blocks simulated (stored or not): the dump loop's work.
    pub blocks: u64,
}

pub(super) fn run(config: &Config, space: &Space, tables: PageTables) -> Finished {
    let mut layout = Layout::new(1);
    let group = layout.add_group("a.out");
    let task = layout.add_task("a.out", group);
    let lock = layout.add_lock("mmap_lock", LockKind::RwSem);
    let counters = [
        layout.add_counter("iterations"),
        layout.add_counter("pages_skipped"),
        layout.add_counter("pages_emitted"),
        layout.add_counter("lock_acquisitions"),
        layout.add_counter("tree_node_visits"),
        layout.add_counter("sigkill_pending"),
    ];
    let mut sim = Sim {
        config,
        space,
        tables,
        builder: Recorder::new(TraceBuilder::new(layout, TEMPLATES, text::CODE)),
        task,
        lock,
        counters,
        costs: [0; 11],
        big: Tally::default(),
        all: Tally::default(),
        locked: false,
        signal_pending: false,
        aborted_at: None,
        to_skip: 0,
    };
    sim.simulate();
    // A SIGKILL that arrived kills the process: at once with the fixes, after the
    // whole dump in v6.13.
    let outcome = match (sim.builder.stopped_at, sim.config.sigkill_at_ns) {
        // The trace stops at the storage budget; the figures cover the whole dump.
        (Some(_), _) => Outcome::StepLimit { micro_ops: sim.builder.builder.ops_recorded() },
        (None, Some(sent_at_ns)) if sim.signal_pending => {
            Outcome::Killed { signal: "SIGKILL", sent_at_ns, at_ns: sim.builder.now_ns() }
        }
        _ => Outcome::Completed,
    };
    let metrics = sim.metrics();
    Finished { builder: sim.builder.builder, outcome, metrics, blocks: sim.builder.blocks }
}

impl Sim<'_> {
    pub(super) fn count(&self, index: usize, delta: u64) -> Effect {
        Effect::Count { counter: self.counters[index], delta }
    }

    fn simulate(&mut self) {
        let task = self.task;
        let dumped: Vec<usize> = self.dump_order();
        // The snapshot, under the write lock.
        self.builder.phase(say(T::PHASE_SNAPSHOT.id(), &[]));
        self.builder.iteration(say(T::ITER_SNAPSHOT.id(), &[]));
        let lock = self.lock;
        let big = &self.space.vmas[self.space.big];
        let touched: u64 = big.present.iter().map(|(s, e)| (e - s) / self.config.page).sum();
        let snapshot_args = [
            Arg::Lock(lock),
            Arg::Count(self.space.vmas.len() as u64),
            Arg::Count(dumped.len() as u64),
            Arg::Count(touched),
        ];
        self.builder.op(OpSpec {
            at_ns: 0,
            actor: Some(task),
            kind: OpKind::LockFast,
            code: at(text::SNAPSHOT, 1),
            text: say(T::SNAPSHOT.id(), &snapshot_args),
            effects: &[
                Effect::SetState { task, state: TaskState::RunningKernel { cpu: 0 } },
                Effect::Acquire { lock, task, mode: LockMode::Write, waited_ns: 0 },
            ],
        });
        let snapshot_ns = self.config.costs.snapshot_per_vma * self.space.vmas.len() as u64;
        self.costs[Cost::Snapshot as usize] += snapshot_ns;
        let sorted = self.config.variant == Variant::V613 || self.config.variant == Variant::Interruptible;
        self.builder.op(OpSpec {
            at_ns: snapshot_ns,
            actor: Some(task),
            kind: OpKind::LockRelease,
            code: at(text::SNAPSHOT, 3),
            text: say(T::SNAPSHOT_UNLOCK.id(), &[Arg::Lock(lock)]),
            effects: &[Effect::Release { lock, task }],
        });
        if sorted {
            self.builder.op(OpSpec {
                at_ns: snapshot_ns,
                actor: Some(task),
                kind: OpKind::Note,
                code: at(text::SNAPSHOT, 4),
                text: say(T::SNAPSHOT_ORDER.id(), &[]),
                effects: &[],
            });
        }
        for index in dumped {
            if self.aborted_at.is_some() {
                break;
            }
            self.dump_vma(index);
        }
        self.finish_dump();
    }

    /// v6.13 (and the patch on it) sorts by dump size, smallest first; later kernels use address order.
    fn dump_order(&self) -> Vec<usize> {
        let page = self.config.page;
        let mut order: Vec<usize> =
            (0..self.space.vmas.len()).filter(|&i| self.space.vmas[i].dump_size(page) > 0).collect();
        if matches!(self.config.variant, Variant::V613 | Variant::Interruptible) {
            crate::run::sort::sort_by_key(&mut order, |&i| {
                (self.space.vmas[i].dump_size(page), self.space.vmas[i].start)
            });
        }
        order
    }

    fn dump_vma(&mut self, index: usize) {
        let vma = &self.space.vmas[index];
        let page = self.config.page;
        let length = vma.dump_size(page);
        let (start, end) = (vma.start, vma.start + length);
        let name = if vma.big { "the big anonymous mapping" } else { narrated_name(vma.name) };
        self.builder
            .phase(say(T::PHASE_VMA.id(), &[Arg::Word(name), Arg::Count(length / page), Arg::Addr(start)]));
        let (path, found) = self.space.tree.walk(start);
        debug_assert!(found == Slot::Vma(index as u32) || vma.backing == Backing::Gate);
        if self.config.variant == Variant::TreeWalk {
            self.tree_walk_vma(index, start, end, &path);
            return;
        }
        // [vvar] and [vsyscall] never reach the page-table walk: every page alike.
        let segments = match vma.backing {
            Backing::Vvar | Backing::Gate => vec![(start, end, Walk { levels: 1, present: false })],
            _ => self.tables.segments(start, end),
        };
        for (seg_start, seg_end, walk) in segments {
            if self.aborted_at.is_some() {
                return;
            }
            let pages = (seg_end - seg_start) / page;
            // Skipped pages wait in cprm->to_skip until the next dump_emit writes them.
            if walk.present && !self.signal_pending {
                self.flush_hole();
            }
            let skipped = self.all.skipped;
            self.run_pages(index, seg_start, pages, walk, &path);
            self.to_skip += self.all.skipped - skipped;
        }
        if self.locked {
            // v6.15 drops the lock at the end of the range.
            self.unlock_op(self.builder.now_ns(), None);
        }
    }

    /// Runs `pages` identical pages from `first`, breaking for a SIGKILL. Returns pages done.
    fn run_pages(&mut self, vma: usize, first: u64, pages: u64, walk: Walk, path: &[Visit]) -> u64 {
        let page = self.config.page;
        let mut done = 0;
        while done < pages && self.aborted_at.is_none() {
            let addr = first + done * page;
            // v6.15 takes the lock for a stretch in a single iteration of its own.
            let needs_lock = self.config.variant.keeps_lock() && !self.locked;
            let steps = self.page_steps(vma, addr, walk, path, needs_lock);
            let period: u64 = steps.iter().map(step_ns).sum();
            let remaining = pages - done;
            // How many pages run before a SIGKILL lands (the one it lands in completes).
            let count = match (self.config.sigkill_at_ns, self.signal_pending) {
                (Some(at), false) => {
                    let now = self.builder.now_ns();
                    if at <= now {
                        0
                    } else {
                        ((at - now).div_ceil(period)).min(remaining)
                    }
                }
                _ => remaining,
            };
            // A page that takes or drops the lock without the other is not a repeat.
            let acquires =
                steps.iter().flat_map(|s| &s.effects).filter(|e| matches!(e, Effect::Acquire { .. })).count();
            let releases =
                steps.iter().flat_map(|s| &s.effects).filter(|e| matches!(e, Effect::Release { .. })).count();
            let single = acquires != releases || self.ends_dump(&steps);
            let count = if single { count.min(1) } else { count };
            if count > 0 {
                self.record(vma, addr, count, period, &steps);
                done += count;
            }
            if self.ends_dump(&steps) && count > 0 {
                self.aborted_at = Some(self.builder.now_ns());
                break;
            }
            if let (Some(at), false) = (self.config.sigkill_at_ns, self.signal_pending) {
                if self.builder.now_ns() >= at || count == 0 {
                    self.sigkill(at, Some(first + done.min(pages.saturating_sub(1)) * page));
                }
            }
        }
        done
    }

    fn ends_dump(&self, steps: &[Step]) -> bool {
        steps.iter().any(|step| step.template == T::ABORT)
    }

    fn record(&mut self, vma: usize, addr: u64, count: u64, period: u64, steps: &[Step]) {
        let page = self.config.page;
        let start = self.builder.now_ns();
        let big = self.space.vmas[vma].big;
        // In a repeat, the page address and the running acquisition count advance
        // with the iteration, so every page of the block reads exactly.
        let affine = |template: T, arg: &Arg| match *arg {
            Arg::Addr(a) if a == addr && count > 1 => Arg::AffineAddr { base: addr, stride: page },
            Arg::Count(n) if count > 1 && (template == T::LOCK) => Arg::AffineCount { base: n, stride: 1 },
            other => other,
        };
        let owned: Vec<(u64, Vec<Arg>, &Step)> = {
            let mut offset = 0;
            steps
                .iter()
                .map(|step| {
                    let at = offset;
                    offset += step_ns(step);
                    (at, step.args.iter().map(|arg| affine(step.template, arg)).collect(), step)
                })
                .collect()
        };
        let label_args =
            [if count > 1 { Arg::AffineAddr { base: addr, stride: page } } else { Arg::Addr(addr) }];
        let label = say(T::ITER_PAGE.id(), &label_args);
        let task = self.task;
        if count == 1 {
            self.builder.iteration(label);
            for (at, args, step) in &owned {
                let actor = if step.kind == OpKind::Signal { None } else { Some(task) };
                self.builder.op(OpSpec {
                    at_ns: start + at,
                    actor,
                    kind: step.kind,
                    code: step.code,
                    text: say(step.template.id(), args),
                    effects: &step.effects,
                });
            }
            self.builder.advance_to(start + period);
        } else {
            let specs: Vec<OpSpec<'_>> = owned
                .iter()
                .map(|(at, args, step)| OpSpec {
                    at_ns: *at,
                    actor: Some(task),
                    kind: step.kind,
                    code: step.code,
                    text: say(step.template.id(), args),
                    effects: &step.effects,
                })
                .collect();
            self.builder.repeat(count, period, label, &specs);
        }
        for step in steps {
            for &(cost, ns) in &step.cost {
                self.costs[cost as usize] += ns * count;
            }
            for effect in &step.effects {
                if let Effect::Count { counter, delta } = *effect {
                    let tally_add = |tally: &mut Tally| match counter {
                        c if c == self.counters[C_ITERATIONS] => tally.iterations += delta * count,
                        c if c == self.counters[C_SKIPPED] => tally.skipped += delta * count,
                        c if c == self.counters[C_EMITTED] => tally.emitted += delta * count,
                        c if c == self.counters[C_LOCKS] => tally.lock_acquisitions += delta * count,
                        c if c == self.counters[C_VISITS] => tally.node_visits += delta * count,
                        _ => {}
                    };
                    let mut all = self.all;
                    tally_add(&mut all);
                    self.all = all;
                    if big {
                        let mut tally = self.big;
                        tally_add(&mut tally);
                        self.big = tally;
                    }
                }
                match effect {
                    Effect::Acquire { .. } => self.locked = true,
                    Effect::Release { .. } => self.locked = false,
                    _ => {}
                }
            }
        }
    }
}

fn step_ns(step: &Step) -> u64 {
    step.cost.iter().map(|&(_, ns)| ns).sum::<u64>().max(1)
}

/// How the narration names a mapping: files by name, anonymous memory in words.
fn narrated_name(name: &'static str) -> &'static str {
    match name {
        "a.out" => "a.out",
        "a.out (relro)" => "a.out (relro)",
        "a.out (data)" => "a.out (data)",
        "[heap]" => "[heap]",
        "[stack]" => "[stack]",
        "[vdso]" => "[vdso]",
        "libc.so.6" => "libc.so.6",
        "libc.so.6 (relro)" => "libc.so.6 (relro)",
        "libc.so.6 (data)" => "libc.so.6 (data)",
        "ld-linux-x86-64.so.2" => "ld-linux-x86-64.so.2",
        "ld-linux-x86-64.so.2 (relro)" => "ld-linux-x86-64.so.2 (relro)",
        "ld-linux-x86-64.so.2 (data)" => "ld-linux-x86-64.so.2 (data)",
        "anon (malloc arena)" => "an anonymous mapping (malloc arena)",
        "locale file" => "a locale file",
        "[vvar]" | "[vsyscall]" => name,
        _ => "an anonymous mapping",
    }
}
