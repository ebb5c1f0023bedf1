//! Text to a [`Workload`]: one statement a line, `#` starts a comment, `{` and
//! `}` open and close a loop's body. The grammar is in `docs/lab.md`.

use super::ast::{KernelChoice, LockCost, Pos, ResOp, Resource, ResourceKind, Stmt, TaskDecl, Workload};
use super::UNTIL_DEFAULT_NS;
use super::{quoted, Diagnostic, CPUS_MAX, DURATION_MAX_NS, NAME_CHARS_MAX, NESTING_MAX, REPEAT_MAX};
use super::{PIPE_BYTES_DEFAULT, PIPE_BYTES_MAX, PIPE_CAPACITY_DEFAULT, QUANTUM_DEFAULT_NS, TEXT_BYTES_MAX};
use crate::run::params::{ParamKind, ParamSpec, ParamValue};

/// One word of a line and where it starts.
#[derive(Clone, Copy, Debug)]
struct Token<'a> {
    text: &'a str,
    pos: Pos,
}

/// Splits a line into words; `{` and `}` are words of their own; `#` ends it.
fn tokens(line: &str, number: u32) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let mut start: Option<(usize, u32)> = None;
    let mut column = 0u32;
    for (index, c) in line.char_indices() {
        column += 1;
        let breaks = c.is_whitespace() || c == '{' || c == '}' || c == '#';
        if breaks {
            if let Some((from, at)) = start.take() {
                out.push(Token { text: &line[from..index], pos: Pos { line: number, column: at } });
            }
            if c == '#' {
                return out;
            }
            if c == '{' || c == '}' {
                out.push(Token { text: &line[index..index + 1], pos: Pos { line: number, column } });
            }
        } else if start.is_none() {
            start = Some((index, column));
        }
    }
    if let Some((from, at)) = start {
        out.push(Token { text: &line[from..], pos: Pos { line: number, column: at } });
    }
    out
}

/// A loop being read: its kind, its body so far, where it opened.
struct OpenLoop {
    repeat: Option<u64>,
    body: Vec<Stmt>,
    at: Pos,
}

struct Parser {
    errors: Vec<Diagnostic>,
    kernel: Option<(KernelChoice, Pos)>,
    hz: Option<u64>,
    cpus: Option<u64>,
    until_ns: Option<u64>,
    lock_cost: Option<LockCost>,
    resources: Vec<Resource>,
    tasks: Vec<TaskDecl>,
    loops: Vec<OpenLoop>,
}

/// Parses a workload, or lists what is wrong with it.
pub fn parse(text: &str) -> Result<Workload, Vec<Diagnostic>> {
    if text.len() > TEXT_BYTES_MAX {
        return Err(vec![Diagnostic {
            line: 1,
            column: 1,
            message: format!("the workload is {} bytes; at most {TEXT_BYTES_MAX} are read", text.len()),
        }]);
    }
    let mut parser = Parser {
        errors: Vec::new(),
        kernel: None,
        hz: None,
        cpus: None,
        until_ns: None,
        lock_cost: None,
        resources: Vec::new(),
        tasks: Vec::new(),
        loops: Vec::new(),
    };
    for (index, line) in text.lines().enumerate() {
        let words = tokens(line, index as u32 + 1);
        if let Some((first, rest)) = words.split_first() {
            parser.statement(*first, rest);
        }
    }
    parser.close_loops();
    if parser.tasks.is_empty() && parser.errors.is_empty() {
        parser.error(
            Pos { line: 1, column: 1 },
            "no task or job; add one, as in `job A length=10ms`".to_string(),
        );
    }
    if !parser.errors.is_empty() {
        return Err(parser.errors);
    }
    let (kernel, kernel_at) = parser.kernel.unwrap_or((KernelChoice::Fifo, Pos { line: 1, column: 1 }));
    Ok(Workload {
        kernel,
        kernel_at,
        hz: parser.hz,
        cpus: parser.cpus.unwrap_or(1),
        until_ns: parser.until_ns.unwrap_or(UNTIL_DEFAULT_NS),
        lock_cost: parser.lock_cost.unwrap_or_default(),
        resources: parser.resources,
        tasks: parser.tasks,
    })
}

const STATEMENTS: &str =
    "kernel, cpus, until, lockcost, mutex, spinlock, rwsem, pipe, task, job, or an operation (run, sys, sleep, lock, …)";

impl Parser {
    fn error(&mut self, pos: Pos, message: String) {
        self.errors.push(Diagnostic { line: pos.line, column: pos.column, message });
    }

    fn statement(&mut self, first: Token<'_>, rest: &[Token<'_>]) {
        match first.text {
            "kernel" | "cpus" | "until" | "lockcost" | "mutex" | "spinlock" | "rwsem" | "pipe" | "task"
            | "job" => {
                // A declaration ends the task before it: its loops must be closed.
                self.close_loops();
                self.declaration(first, rest);
            }
            "}" => self.close_loop(first, rest),
            _ => self.operation(first, rest),
        }
    }

    fn declaration(&mut self, first: Token<'_>, rest: &[Token<'_>]) {
        match first.text {
            "kernel" => self.kernel(first, rest),
            "cpus" => {
                if let Some(value) = self.single(first, rest, "a number of CPUs, 1 to 4") {
                    if self.cpus.is_some() {
                        self.error(first.pos, "`cpus` is given twice; give it once".to_string());
                    }
                    self.cpus = self.count(value, 1, CPUS_MAX, "CPUs");
                }
            }
            "until" => {
                if let Some(value) = self.single(first, rest, "a duration, as in `until 2s`") {
                    if self.until_ns.is_some() {
                        self.error(first.pos, "`until` is given twice; give it once".to_string());
                    }
                    self.until_ns = self.duration(value, 1);
                }
            }
            "mutex" | "spinlock" | "rwsem" => {
                let kind = match first.text {
                    "mutex" => ResourceKind::Mutex,
                    "spinlock" => ResourceKind::Spinlock,
                    _ => ResourceKind::Rwsem,
                };
                if let Some(name) = self.single(first, rest, "a name, as in `mutex M`") {
                    if self.name(name) {
                        self.declare_resource(name, kind, 0);
                    }
                }
            }
            "pipe" => self.pipe(first, rest),
            "lockcost" => self.lock_cost(first, rest),
            _ => self.task(first, rest),
        }
    }

    /// `lockcost [fast=DURATION] [slow=DURATION]`: each 0 unless given.
    fn lock_cost(&mut self, first: Token<'_>, rest: &[Token<'_>]) {
        if self.lock_cost.is_some() {
            self.error(first.pos, "`lockcost` is given twice; give it once".to_string());
        }
        if rest.is_empty() {
            self.error(
                first.pos,
                "`lockcost` needs `fast=` or `slow=`, as in `lockcost fast=20ns slow=150ns`".to_string(),
            );
        }
        let mut cost = LockCost::default();
        for option in rest {
            match option.text.split_once('=') {
                Some((key @ ("fast" | "slow"), value)) => {
                    let value_token = Token { text: value, pos: shifted(option.pos, &format!("{key}=")) };
                    let ns = self.duration(value_token, 0).unwrap_or(0);
                    if key == "fast" {
                        cost.fast_ns = ns;
                    } else {
                        cost.slow_ns = ns;
                    }
                }
                _ => {
                    let message = format!("unexpected {}; expected `fast=` or `slow=`", quoted(option.text));
                    self.error(option.pos, message);
                }
            }
        }
        self.lock_cost = Some(cost);
    }

    /// `pipe P [capacity]`.
    fn pipe(&mut self, first: Token<'_>, rest: &[Token<'_>]) {
        let Some((name, sizes)) = rest.split_first() else {
            self.error(first.pos, "`pipe` needs a name, as in `pipe P` or `pipe P 4KiB`".to_string());
            return;
        };
        let capacity = match sizes {
            [] => Some(PIPE_CAPACITY_DEFAULT),
            [size] => self.size(*size),
            [_, extra, ..] => {
                let message =
                    format!("unexpected {}; `pipe` takes a name and a capacity", quoted(extra.text));
                self.error(extra.pos, message);
                None
            }
        };
        if let (true, Some(capacity)) = (self.name(*name), capacity) {
            self.declare_resource(*name, ResourceKind::Pipe, capacity);
        }
    }

    fn declare_resource(&mut self, name: Token<'_>, kind: ResourceKind, capacity: u64) {
        if let Some(earlier) = self.resources.iter().find(|r| r.name == name.text) {
            let message =
                format!("{} is declared again (first at line {})", quoted(name.text), earlier.at.line);
            self.error(name.pos, message);
            return;
        }
        self.resources.push(Resource { name: name.text.to_string(), kind, at: name.pos, capacity });
    }

    fn kernel(&mut self, first: Token<'_>, rest: &[Token<'_>]) {
        if self.kernel.is_some() {
            self.error(first.pos, "`kernel` is given twice; give it once".to_string());
        }
        let Some((word, options)) = rest.split_first() else {
            self.error(
                first.pos,
                "`kernel` needs a name: fifo, sjf, stcf, rr, o1, eevdf or goodness".to_string(),
            );
            return;
        };
        let choice = match word.text {
            "fifo" => KernelChoice::Fifo,
            "sjf" => KernelChoice::Sjf,
            "stcf" => KernelChoice::Stcf,
            "rr" => KernelChoice::Rr { quantum_ns: None },
            "o1" => KernelChoice::O1,
            "eevdf" => KernelChoice::Eevdf,
            "goodness" => KernelChoice::Goodness,
            other => {
                let message = format!(
                    "unknown kernel {}; expected fifo, sjf, stcf, rr, o1, eevdf or goodness",
                    quoted(other)
                );
                self.error(word.pos, message);
                return;
            }
        };
        let mut choice = choice;
        for option in options {
            match (choice, option.text.split_once('=')) {
                (KernelChoice::Rr { .. }, Some(("quantum", value))) => {
                    let value = Token { text: value, pos: shifted(option.pos, "quantum=") };
                    choice = KernelChoice::Rr { quantum_ns: self.duration(value, 1) };
                }
                (KernelChoice::O1 | KernelChoice::Eevdf | KernelChoice::Goodness, Some(("hz", value))) => {
                    let value = Token { text: value, pos: shifted(option.pos, "hz=") };
                    self.hz = self.hz_value(value);
                }
                _ => {
                    let expected = match choice {
                        KernelChoice::Rr { .. } => format!(
                            "`quantum=` (default {})",
                            crate::run::format::duration(QUANTUM_DEFAULT_NS)
                        ),
                        KernelChoice::O1 | KernelChoice::Eevdf | KernelChoice::Goodness => {
                            "`hz=` (100, 250, 300 or 1000)".to_string()
                        }
                        _ => format!("nothing after `kernel {}`", choice.word()),
                    };
                    self.error(
                        option.pos,
                        format!("unexpected {}; expected {expected}", quoted(option.text)),
                    );
                }
            }
        }
        self.kernel = Some((choice, word.pos));
    }

    fn task(&mut self, first: Token<'_>, rest: &[Token<'_>]) {
        let is_job = first.text == "job";
        let Some((name, mut options)) = rest.split_first() else {
            self.error(first.pos, format!("`{}` needs a name, as in `{} A`", first.text, first.text));
            return;
        };
        if !self.name(*name) {
            return;
        }
        if self.tasks.iter().any(|task| task.name == name.text) {
            self.error(name.pos, format!("a task named {} is declared again", quoted(name.text)));
        }
        let mut decl = TaskDecl {
            name: name.text.to_string(),
            copies: 1,
            nice: 0,
            at_ns: 0,
            cpu: None,
            body: Vec::new(),
            is_job,
            pos: first.pos,
        };
        if let [times, count, tail @ ..] = options {
            if times.text == "x" && !is_job {
                decl.copies = self.count(*count, 1, super::TASKS_MAX, "copies").unwrap_or(1);
                options = tail;
            }
        }
        let mut length = None;
        let (mut io_every, mut io_for) = (None, None);
        for option in options {
            let Some((key, value)) = option.text.split_once('=') else {
                self.error(
                    option.pos,
                    format!("unexpected {}; expected key=value, as in `at=10ms`", quoted(option.text)),
                );
                continue;
            };
            let value_token = Token { text: value, pos: shifted(option.pos, &format!("{key}=")) };
            match key {
                "at" => decl.at_ns = self.duration(value_token, 0).unwrap_or(0),
                "nice" => decl.nice = self.nice(value_token).unwrap_or(0),
                "cpu" => decl.cpu = self.count(value_token, 0, CPUS_MAX - 1, "a CPU number"),
                "length" if is_job => length = self.duration(value_token, 1),
                "io_every" if is_job => io_every = Some((self.duration(value_token, 1), option.pos)),
                "io_for" if is_job => io_for = Some((self.duration(value_token, 1), option.pos)),
                _ => {
                    let keys = if is_job {
                        "at=, length=, nice=, cpu=, io_every= or io_for="
                    } else {
                        "at=, nice= or cpu="
                    };
                    self.error(option.pos, format!("unknown option {}; expected {keys}", quoted(key)));
                }
            }
        }
        if is_job {
            match length {
                Some(ns) => decl.body = self.job_body(ns, io_every, io_for, name.pos),
                None if options.iter().any(|o| o.text.starts_with("length=")) => {}
                None => {
                    self.error(name.pos, "a job needs its `length=`, as in `job A length=100ms`".to_string())
                }
            }
        }
        self.tasks.push(decl);
    }

    /// A job's body: `run LENGTH`, or with I/O (`io_every=E io_for=F`) a burst of E,
    /// then F asleep in I/O, again until LENGTH of CPU is done (no I/O after the last).
    fn job_body(
        &mut self,
        length_ns: u64,
        io_every: Option<(Option<u64>, Pos)>,
        io_for: Option<(Option<u64>, Pos)>,
        at: Pos,
    ) -> Vec<Stmt> {
        let (every, io_ns, io_at) = match (io_every, io_for) {
            (None, None) => return vec![Stmt::Run { ns: length_ns }],
            (Some((Some(every), _)), Some((Some(io_ns), io_at))) => (every, io_ns, io_at),
            (Some((None, _)), _) | (_, Some((None, _))) => return Vec::new(),
            (Some((_, pos)), None) | (None, Some((_, pos))) => {
                let message = "`io_every=` and `io_for=` go together, as in `io_every=10ms io_for=5ms`";
                self.error(pos, message.to_string());
                return Vec::new();
            }
        };
        let bursts = length_ns.div_ceil(every);
        if bursts - 1 > REPEAT_MAX {
            let message = format!(
                "{} I/O bursts; at most {}: make `io_every=` longer",
                crate::run::narration::group_digits(bursts),
                crate::run::narration::group_digits(REPEAT_MAX)
            );
            self.error(io_at, message);
            return Vec::new();
        }
        let last = Stmt::Run { ns: length_ns - (bursts - 1) * every };
        if bursts == 1 {
            return vec![last];
        }
        let body = vec![Stmt::Run { ns: every }, Stmt::Sleep { ns: io_ns, at: io_at }];
        vec![Stmt::Repeat { count: bursts - 1, body, at }, last]
    }

    fn operation(&mut self, first: Token<'_>, rest: &[Token<'_>]) {
        if self.tasks.last().is_none_or(|task| task.is_job) {
            let message = if self.tasks.is_empty() {
                format!("unknown statement {}; expected {STATEMENTS}", quoted(first.text))
            } else {
                format!(
                    "{} is not part of a task: a job's body is its length; use `task` for a body",
                    quoted(first.text)
                )
            };
            self.error(first.pos, message);
            return;
        }
        let stmt = match first.text {
            "run" | "sys" | "sleep" => {
                let Some(value) = self.single(first, rest, "a duration, as in `run 5ms`") else { return };
                let Some(ns) = self.duration(value, 1) else { return };
                match first.text {
                    "run" => Stmt::Run { ns },
                    "sys" => Stmt::Sys { ns },
                    _ => Stmt::Sleep { ns, at: first.pos },
                }
            }
            "yield" | "exit" => {
                if let Some(extra) = rest.first() {
                    self.error(
                        extra.pos,
                        format!("unexpected {}; `{}` takes nothing", quoted(extra.text), first.text),
                    );
                }
                if first.text == "yield" {
                    Stmt::Yield { at: first.pos }
                } else {
                    Stmt::Exit { at: first.pos }
                }
            }
            "repeat" | "forever" => {
                self.open_loop(first, rest);
                return;
            }
            "send" | "recv" => {
                let op = if first.text == "send" { ResOp::Send } else { ResOp::Recv };
                let Some((name, sizes)) = rest.split_first() else {
                    self.error(
                        first.pos,
                        format!("`{}` needs a pipe, as in `{} P 4KiB`", first.text, first.text),
                    );
                    return;
                };
                let bytes = match sizes {
                    [] => PIPE_BYTES_DEFAULT,
                    [size] => {
                        let Some(bytes) = self.size(*size) else { return };
                        bytes
                    }
                    [_, extra, ..] => {
                        let message = format!(
                            "unexpected {}; `{}` takes a pipe and a size",
                            quoted(extra.text),
                            first.text
                        );
                        self.error(extra.pos, message);
                        return;
                    }
                };
                Stmt::Pipe { op, name: name.text.to_string(), bytes, at: name.pos }
            }
            word => {
                let Some(op) = res_op(word) else {
                    let message = format!(
                        "unknown operation {}; expected run, sys, sleep, lock, unlock, read, write, release, spin, \
                         unspin, send, recv, yield, repeat, forever or exit",
                        quoted(word)
                    );
                    self.error(first.pos, message);
                    return;
                };
                let Some(name) = self.single(first, rest, "the name of a declared resource") else { return };
                Stmt::Res { op, name: name.text.to_string(), at: name.pos }
            }
        };
        self.push(stmt);
    }

    fn push(&mut self, stmt: Stmt) {
        match self.loops.last_mut() {
            Some(open) => open.body.push(stmt),
            None => {
                if let Some(task) = self.tasks.last_mut() {
                    task.body.push(stmt);
                }
            }
        }
    }

    fn open_loop(&mut self, first: Token<'_>, rest: &[Token<'_>]) {
        let (repeat, after) = if first.text == "repeat" {
            let Some((count, after)) = rest.split_first() else {
                self.error(first.pos, "`repeat` needs a count and `{`, as in `repeat 3 {`".to_string());
                return;
            };
            (Some(self.count(*count, 1, REPEAT_MAX, "repetitions").unwrap_or(1)), after)
        } else {
            (None, rest)
        };
        match after {
            [brace] if brace.text == "{" => {}
            [] => {
                let at = rest.last().map_or(first.pos, |t| t.pos);
                self.error(at, format!("`{}` needs `{{` at the end of its line", first.text));
                return;
            }
            [other, ..] => {
                self.error(
                    other.pos,
                    format!("unexpected {}; expected `{{` to open the loop's body", quoted(other.text)),
                );
                return;
            }
        }
        if self.loops.len() >= NESTING_MAX {
            self.error(first.pos, format!("loops nest at most {NESTING_MAX} deep"));
        }
        self.loops.push(OpenLoop { repeat, body: Vec::new(), at: first.pos });
    }

    fn close_loop(&mut self, first: Token<'_>, rest: &[Token<'_>]) {
        if let Some(extra) = rest.first() {
            self.error(
                extra.pos,
                format!("unexpected {}; `}}` stands alone on its line", quoted(extra.text)),
            );
        }
        let Some(open) = self.loops.pop() else {
            self.error(first.pos, "`}` closes no loop".to_string());
            return;
        };
        let stmt = match open.repeat {
            Some(count) => Stmt::Repeat { count, body: open.body, at: open.at },
            None => Stmt::Forever { body: open.body, at: open.at },
        };
        self.push(stmt);
    }

    fn close_loops(&mut self) {
        while let Some(open) = self.loops.pop() {
            self.error(open.at, "this loop's `{` is never closed; add `}`".to_string());
        }
    }

    /// The one word after `first`, or an error naming what was expected.
    fn single<'a>(&mut self, first: Token<'a>, rest: &[Token<'a>], expected: &str) -> Option<Token<'a>> {
        match rest {
            [one] => Some(*one),
            [] => {
                self.error(first.pos, format!("`{}` needs {expected}", first.text));
                None
            }
            [_, extra, ..] => {
                self.error(
                    extra.pos,
                    format!("unexpected {}; `{}` takes {expected}", quoted(extra.text), first.text),
                );
                None
            }
        }
    }

    fn name(&mut self, token: Token<'_>) -> bool {
        let mut chars = token.text.chars();
        let starts = chars.next().is_some_and(|c| c.is_ascii_alphabetic());
        let ok = starts
            && token.text.chars().count() <= NAME_CHARS_MAX
            && token.text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if !ok {
            let message = format!(
                "{} is not a name; expected a letter, then letters, digits, `_` or `-`, at most {NAME_CHARS_MAX}",
                quoted(token.text)
            );
            self.error(token.pos, message);
        }
        ok
    }

    /// A duration with its unit, by the same rules as every case's parameters.
    fn duration(&mut self, token: Token<'_>, min_ns: u64) -> Option<u64> {
        let kind = ParamKind::Duration { min_ns, max_ns: DURATION_MAX_NS, default_ns: min_ns };
        self.read(token, kind, "duration").and_then(|value| match value {
            ParamValue::Unsigned(ns) => Some(ns),
            _ => None,
        })
    }

    /// CONFIG_HZ: one of the kernel's choices.
    fn hz_value(&mut self, token: Token<'_>) -> Option<u64> {
        let hz = self.count(token, 1, 1000, "hz")?;
        if [100, 250, 300, 1000].contains(&hz) {
            return Some(hz);
        }
        self.error(token.pos, format!("hz: {hz} is not a CONFIG_HZ; expected 100, 250, 300 or 1000"));
        None
    }

    /// A size with its unit (`B`, `KiB`, `MiB`), by the same rules as every case's parameters.
    fn size(&mut self, token: Token<'_>) -> Option<u64> {
        let kind = ParamKind::Size { min_bytes: 1, max_bytes: PIPE_BYTES_MAX, default_bytes: 1 };
        self.read(token, kind, "size").and_then(|value| match value {
            ParamValue::Unsigned(bytes) => Some(bytes),
            _ => None,
        })
    }

    fn count(&mut self, token: Token<'_>, min: u64, max: u64, what: &'static str) -> Option<u64> {
        let kind = ParamKind::Count { min, max, default: min };
        self.read(token, kind, what).and_then(|value| match value {
            ParamValue::Unsigned(count) => Some(count),
            _ => None,
        })
    }

    fn nice(&mut self, token: Token<'_>) -> Option<i64> {
        let kind = ParamKind::Signed { min: -20, max: 19, default: 0 };
        self.read(token, kind, "nice").and_then(|value| match value {
            ParamValue::Signed(nice) => Some(nice),
            _ => None,
        })
    }

    fn read(&mut self, token: Token<'_>, kind: ParamKind, what: &'static str) -> Option<ParamValue> {
        let spec = ParamSpec { name: what, label: what, kind, description: "" };
        match spec.parse_exact(token.text) {
            Ok(value) => Some(value),
            Err(error) => {
                self.error(token.pos, format!("{what}: {}", error.message));
                None
            }
        }
    }
}

/// The operation a word names, with the kernel's own names for the rwsem's.
fn res_op(word: &str) -> Option<ResOp> {
    Some(match word {
        "lock" => ResOp::Lock,
        "unlock" => ResOp::Unlock,
        "read" | "down_read" => ResOp::Read,
        "write" | "down_write" => ResOp::Write,
        "release" | "up_read" | "up_write" => ResOp::Release,
        "spin" => ResOp::Spin,
        "unspin" => ResOp::Unspin,
        _ => return None,
    })
}

/// Where the value of `key=value` starts.
fn shifted(pos: Pos, prefix: &str) -> Pos {
    Pos { line: pos.line, column: pos.column + prefix.chars().count() as u32 }
}
