//! A parsed workload, before its names are resolved (`check.rs` turns it into a
//! `Program` the machine runs).

/// Where something is in the text: 1-based line and column (in characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pos {
    pub line: u32,
    pub column: u32,
}

/// The scheduler a workload asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KernelChoice {
    Fifo,
    Sjf,
    Stcf,
    /// `quantum_ns` when the workload gave one.
    Rr {
        quantum_ns: Option<u64>,
    },
    O1,
    Eevdf,
    Goodness,
}

impl KernelChoice {
    pub fn word(self) -> &'static str {
        match self {
            KernelChoice::Fifo => "fifo",
            KernelChoice::Sjf => "sjf",
            KernelChoice::Stcf => "stcf",
            KernelChoice::Rr { .. } => "rr",
            KernelChoice::O1 => "o1",
            KernelChoice::Eevdf => "eevdf",
            KernelChoice::Goodness => "goodness",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResourceKind {
    Mutex,
    Spinlock,
    Rwsem,
    Pipe,
}

impl ResourceKind {
    pub fn word(self) -> &'static str {
        match self {
            ResourceKind::Mutex => "mutex",
            ResourceKind::Spinlock => "spinlock",
            ResourceKind::Rwsem => "rwsem",
            ResourceKind::Pipe => "pipe",
        }
    }

    /// The operations that take and give back this kind, as a message lists them.
    pub fn ops_text(self) -> &'static str {
        match self {
            ResourceKind::Mutex => "lock and unlock",
            ResourceKind::Spinlock => "spin and unspin",
            ResourceKind::Rwsem => "read, write and release (or down_read, down_write, up_read, up_write)",
            ResourceKind::Pipe => "send and recv",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resource {
    pub name: String,
    pub kind: ResourceKind,
    pub at: Pos,
    /// A pipe's capacity in bytes (0 for a lock).
    pub capacity: u64,
}

/// What an operation on a resource does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResOp {
    Lock,
    Unlock,
    Read,
    Write,
    Release,
    Spin,
    Unspin,
    Send,
    Recv,
}

impl ResOp {
    /// The kind of resource the operation belongs to.
    pub fn kind(self) -> ResourceKind {
        match self {
            ResOp::Lock | ResOp::Unlock => ResourceKind::Mutex,
            ResOp::Spin | ResOp::Unspin => ResourceKind::Spinlock,
            ResOp::Read | ResOp::Write | ResOp::Release => ResourceKind::Rwsem,
            ResOp::Send | ResOp::Recv => ResourceKind::Pipe,
        }
    }

    pub fn takes(self) -> bool {
        matches!(self, ResOp::Lock | ResOp::Read | ResOp::Write | ResOp::Spin)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stmt {
    Run {
        ns: u64,
    },
    Sys {
        ns: u64,
    },
    Sleep {
        ns: u64,
        at: Pos,
    },
    Res {
        op: ResOp,
        name: String,
        at: Pos,
    },
    /// `send` or `recv` on a pipe: `op` is `Send` or `Recv`.
    Pipe {
        op: ResOp,
        name: String,
        bytes: u64,
        at: Pos,
    },
    Yield {
        at: Pos,
    },
    Exit {
        at: Pos,
    },
    Repeat {
        count: u64,
        body: Vec<Stmt>,
        at: Pos,
    },
    Forever {
        body: Vec<Stmt>,
        at: Pos,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskDecl {
    pub name: String,
    pub copies: u64,
    pub nice: i64,
    pub at_ns: u64,
    pub cpu: Option<u64>,
    pub body: Vec<Stmt>,
    pub is_job: bool,
    pub pos: Pos,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Workload {
    pub kernel: KernelChoice,
    pub kernel_at: Pos,
    /// `hz=` on the kernel line (o1, eevdf, goodness), if given.
    pub hz: Option<u64>,
    pub cpus: u64,
    pub until_ns: u64,
    /// `lockcost`: the time a lock operation takes (none unless the workload says).
    pub lock_cost: LockCost,
    pub resources: Vec<Resource>,
    pub tasks: Vec<TaskDecl>,
}

/// What a lock operation costs the task that makes it (`lockcost fast=… slow=…`):
/// `fast_ns` after an acquisition on the fast path (the lock was free), `slow_ns`
/// after one through the slow path (a steal, a queued writer's try, a woken waiter's
/// retry). A lock given by another task's release (a handoff, a batch of readers, the
/// next spinner) costs its taker nothing. Zero unless the workload says, so that a
/// workload's figures stay the sums a person computes by hand.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LockCost {
    pub fast_ns: u64,
    pub slow_ns: u64,
}
