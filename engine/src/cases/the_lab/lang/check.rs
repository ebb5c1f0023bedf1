//! A parsed workload to a [`Program`]: names resolved, `x N` expanded, loops
//! flattened into jumps, and every mistake that can be seen before running
//! reported (an undeclared resource, an unlock of what is not held, sleeping with
//! a spinlock held, a `forever` that takes no time).

use super::ast::{KernelChoice, LockCost, Pos, ResOp, ResourceKind, Stmt, Workload};
use super::{quoted, Diagnostic, QUANTUM_DEFAULT_NS, TASKS_MAX};
use crate::run::lock::LockMode;
use crate::run::narration::counted;

/// One step of a task's program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Instr {
    /// User-mode CPU time.
    Run(u64),
    /// Kernel-mode CPU time.
    Sys(u64),
    Sleep(u64),
    Take {
        lock: usize,
        mode: LockMode,
    },
    Give {
        lock: usize,
    },
    /// Writes `bytes` into pipe number `pipe` (sleeping while it is full).
    Send {
        pipe: usize,
        bytes: u64,
    },
    /// Reads up to `bytes` from pipe number `pipe` (sleeping while it is empty).
    Recv {
        pipe: usize,
        bytes: u64,
    },
    Yield,
    Exit,
    /// Runs the body up to `end` (its `LoopEnd`) `count` times; `u64::MAX` is forever.
    LoopStart {
        count: u64,
        end: usize,
    },
    LoopEnd {
        start: usize,
    },
}

/// Runs "forever" this many times: the horizon (`until`) ends it long before.
pub const FOREVER: u64 = u64::MAX;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskProgram {
    pub name: String,
    pub nice: i64,
    pub arrive_ns: u64,
    pub cpu: Option<u16>,
    pub code: Vec<Instr>,
    /// Its whole CPU demand (`u64::MAX` when it loops forever): SJF's job length.
    pub demand_ns: u64,
    pub is_job: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    pub kernel: KernelChoice,
    /// The kernel's tick rate when the workload gives one (else each kernel's own).
    pub hz: Option<u64>,
    pub cpus: u16,
    pub until_ns: u64,
    /// What a lock operation costs its taker (`lockcost`).
    pub lock_cost: LockCost,
    /// The locks, in declaration order (a lock's number in `Take` and `Give`).
    pub locks: Vec<(String, ResourceKind)>,
    /// The pipes and their capacities, in declaration order.
    pub pipes: Vec<(String, u64)>,
    pub tasks: Vec<TaskProgram>,
}

impl Program {
    /// Round robin's quantum as run: the workload's, else the default.
    pub fn quantum_ns(&self) -> u64 {
        match self.kernel {
            KernelChoice::Rr { quantum_ns } => quantum_ns.unwrap_or(QUANTUM_DEFAULT_NS),
            _ => QUANTUM_DEFAULT_NS,
        }
    }
}

struct Checker<'w> {
    workload: &'w Workload,
    errors: Vec<Diagnostic>,
}

/// Resolves and checks a workload: the program, or every error found.
pub fn compile(workload: &Workload) -> Result<Program, Vec<Diagnostic>> {
    let mut checker = Checker { workload, errors: Vec::new() };
    let mut tasks = Vec::new();
    let mut total = 0u64;
    for decl in &workload.tasks {
        total += decl.copies;
        if total > TASKS_MAX {
            checker.error(decl.pos, format!("{total} tasks so far; at most {TASKS_MAX} (after `x N`)"));
            break;
        }
        if let Some(cpu) = decl.cpu {
            if cpu >= workload.cpus {
                let message = format!(
                    "`cpu={cpu}` but the machine has {}, numbered from 0",
                    counted(workload.cpus, "CPU", "CPUs")
                );
                checker.error(decl.pos, message);
            }
        }
        let mut code = Vec::new();
        let mut held = Vec::new();
        checker.body(&decl.body, &mut code, &mut held);
        if let Some(&(lock, _)) = held.first() {
            let message = format!(
                "{} ends holding {}; release it first",
                quoted(&decl.name),
                quoted(checker.lock_name(lock))
            );
            checker.error(decl.pos, message);
        }
        code.push(Instr::Exit);
        let demand_ns = demand(&decl.body);
        for copy in 0..decl.copies {
            let name =
                if decl.copies == 1 { decl.name.clone() } else { format!("{}{}", decl.name, copy + 1) };
            tasks.push(TaskProgram {
                name,
                nice: decl.nice,
                arrive_ns: decl.at_ns,
                cpu: decl.cpu.map(|cpu| cpu as u16),
                code: code.clone(),
                demand_ns,
                is_job: decl.is_job,
            });
        }
    }
    if !checker.errors.is_empty() {
        return Err(checker.errors);
    }
    assert!(!tasks.is_empty() && tasks.len() as u64 <= TASKS_MAX);
    Ok(Program {
        kernel: workload.kernel,
        hz: workload.hz,
        cpus: workload.cpus as u16,
        until_ns: workload.until_ns,
        lock_cost: workload.lock_cost,
        locks: workload
            .resources
            .iter()
            .filter(|r| r.kind != ResourceKind::Pipe)
            .map(|r| (r.name.clone(), r.kind))
            .collect(),
        pipes: workload
            .resources
            .iter()
            .filter(|r| r.kind == ResourceKind::Pipe)
            .map(|r| (r.name.clone(), r.capacity))
            .collect(),
        tasks,
    })
}

/// A body's CPU demand, saturating; a `forever` that burns CPU makes it unbounded.
fn demand(body: &[Stmt]) -> u64 {
    body.iter().fold(0u64, |sum, stmt| {
        let one = match stmt {
            Stmt::Run { ns } | Stmt::Sys { ns } => *ns,
            Stmt::Repeat { count, body, .. } => demand(body).saturating_mul(*count),
            Stmt::Forever { body, .. } if demand(body) > 0 => u64::MAX,
            _ => 0,
        };
        sum.saturating_add(one)
    })
}

/// Whether a body takes any time when it runs (CPU or sleep).
fn takes_time(body: &[Stmt]) -> bool {
    body.iter().any(|stmt| match stmt {
        Stmt::Run { .. } | Stmt::Sys { .. } | Stmt::Sleep { .. } => true,
        Stmt::Repeat { body, .. } | Stmt::Forever { body, .. } => takes_time(body),
        _ => false,
    })
}

impl Checker<'_> {
    fn error(&mut self, pos: Pos, message: String) {
        self.errors.push(Diagnostic { line: pos.line, column: pos.column, message });
    }

    fn lock_name(&self, lock: usize) -> &str {
        &self.workload.resources[lock].name
    }

    /// Compiles `body`, tracking which locks are held (in order of taking).
    fn body(&mut self, body: &[Stmt], code: &mut Vec<Instr>, held: &mut Vec<(usize, LockMode)>) {
        for stmt in body {
            match stmt {
                Stmt::Run { ns } => code.push(Instr::Run(*ns)),
                Stmt::Sys { ns } => code.push(Instr::Sys(*ns)),
                Stmt::Sleep { ns, at } => {
                    self.no_spinlock_held(held, *at, "sleep");
                    code.push(Instr::Sleep(*ns));
                }
                Stmt::Yield { at } => {
                    self.no_spinlock_held(held, *at, "yield");
                    code.push(Instr::Yield);
                }
                Stmt::Exit { at } => {
                    if let Some(&(lock, _)) = held.first() {
                        let message = format!(
                            "`exit` while holding {}; release it first",
                            quoted(self.lock_name(lock))
                        );
                        self.error(*at, message);
                    }
                    code.push(Instr::Exit);
                }
                Stmt::Res { op, name, at } => self.resource(*op, name, *at, code, held),
                Stmt::Pipe { op, name, bytes, at } => self.pipe(*op, name, *bytes, *at, code, held),
                Stmt::Repeat { count, body, at } => self.repeat(*count, body, *at, code, held),
                Stmt::Forever { body, at } => {
                    if !takes_time(body) {
                        let message = "this `forever` takes no time (no run, sys or sleep): it would never \
                                       reach the horizon"
                            .to_string();
                        self.error(*at, message);
                    }
                    self.repeat(super::check::FOREVER, body, *at, code, held);
                }
            }
        }
    }

    fn repeat(
        &mut self,
        count: u64,
        body: &[Stmt],
        at: Pos,
        code: &mut Vec<Instr>,
        held: &mut Vec<(usize, LockMode)>,
    ) {
        let start = code.len();
        code.push(Instr::LoopStart { count, end: 0 });
        let before = held.clone();
        self.body(body, code, held);
        if *held != before {
            let message = "a loop's body must give back what it takes, and take back what it gives: \
                           the locks held differ between its start and its end"
                .to_string();
            self.error(at, message);
            *held = before;
        }
        let end = code.len();
        code.push(Instr::LoopEnd { start });
        code[start] = Instr::LoopStart { count, end };
    }

    fn no_spinlock_held(&mut self, held: &[(usize, LockMode)], at: Pos, what: &str) {
        let spinlock =
            held.iter().find(|(lock, _)| self.workload.resources[*lock].kind == ResourceKind::Spinlock);
        if let Some(&(lock, _)) = spinlock {
            let message = format!(
                "`{what}` while holding spinlock {}: a spinlock holder may not sleep; unspin it first",
                quoted(self.lock_name(lock))
            );
            self.error(at, message);
        }
    }

    /// A resource's number among those of its family (locks, or pipes): the
    /// machine's index for it.
    fn number(&self, resource: usize) -> usize {
        let pipe = self.workload.resources[resource].kind == ResourceKind::Pipe;
        let earlier = &self.workload.resources[..resource];
        earlier.iter().filter(|r| (r.kind == ResourceKind::Pipe) == pipe).count()
    }

    /// The declared resource named `name` of the kind `op` works on, or an error.
    fn find(&mut self, op: ResOp, name: &str, at: Pos) -> Option<usize> {
        let resources = &self.workload.resources;
        let Some(index) = resources.iter().position(|r| r.name == name) else {
            let declared: Vec<&str> = resources.iter().map(|r| r.name.as_str()).collect();
            let message = if declared.is_empty() {
                format!(
                    "unknown resource {}; none is declared (declare it first, as in `{} {}`)",
                    quoted(name),
                    op.kind().word(),
                    quote_name(name)
                )
            } else {
                format!("unknown resource {}; declared: {}", quoted(name), declared.join(", "))
            };
            self.error(at, message);
            return None;
        };
        let kind = resources[index].kind;
        if op.kind() != kind {
            let message = format!("{} is a {}: use {}", quoted(name), kind.word(), kind.ops_text());
            self.error(at, message);
            return None;
        }
        Some(index)
    }

    fn pipe(
        &mut self,
        op: ResOp,
        name: &str,
        bytes: u64,
        at: Pos,
        code: &mut Vec<Instr>,
        held: &[(usize, LockMode)],
    ) {
        let what = if op == ResOp::Send { "send" } else { "recv" };
        self.no_spinlock_held(held, at, what);
        let Some(index) = self.find(op, name, at) else { return };
        let pipe = self.number(index);
        code.push(if op == ResOp::Send { Instr::Send { pipe, bytes } } else { Instr::Recv { pipe, bytes } });
    }

    fn resource(
        &mut self,
        op: ResOp,
        name: &str,
        at: Pos,
        code: &mut Vec<Instr>,
        held: &mut Vec<(usize, LockMode)>,
    ) {
        let Some(lock) = self.find(op, name, at) else { return };
        let kind = self.workload.resources[lock].kind;
        if op.takes() {
            if kind != ResourceKind::Spinlock {
                self.no_spinlock_held(held, at, "taking a sleeping lock");
            }
            if held.iter().any(|(taken, _)| *taken == lock) {
                let message = format!(
                    "{} is already held here: taking it again would wait on itself forever",
                    quoted(name)
                );
                self.error(at, message);
                return;
            }
            let mode = if op == ResOp::Read { LockMode::Read } else { LockMode::Write };
            held.push((lock, mode));
            code.push(Instr::Take { lock: self.number(lock), mode });
        } else {
            let Some(index) = held.iter().position(|(taken, _)| *taken == lock) else {
                self.error(at, format!("{} is not held here: nothing to give back", quoted(name)));
                return;
            };
            held.remove(index);
            code.push(Instr::Give { lock: self.number(lock) });
        }
    }
}

/// A resource's name as an example declaration writes it (already a valid name, or `M`).
fn quote_name(name: &str) -> String {
    if name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') && name.len() <= 16 {
        name.to_string()
    } else {
        "M".to_string()
    }
}
