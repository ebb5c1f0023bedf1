//! The Lab's workload language (`docs/lab.md`): a line-based text, parsed
//! (`parse.rs`), then checked and compiled (`check.rs`) into a [`Program`] the
//! machine runs. Every error says where (`line:column`), what it found, quoted
//! safely, and what it expected; several are listed at once.

pub mod ast;
pub mod check;
pub mod parse;

pub use check::{compile, Instr, Program, TaskProgram};

use crate::run::params::quote_input;
use std::fmt;

pub use super::TEXT_BYTES_MAX;
/// Tasks after every `x N` is expanded.
pub const TASKS_MAX: u64 = 64;
pub const CPUS_MAX: u64 = 4;
/// A pipe's capacity when `pipe P` gives none: 16 pages (PIPE_DEF_BUFFERS).
pub const PIPE_CAPACITY_DEFAULT: u64 = 65_536;
/// The largest pipe, and the most one `send` or `recv` moves (pipe-max-size).
pub const PIPE_BYTES_MAX: u64 = 1 << 20;
/// What `send P` or `recv P` moves when it gives no size: one page.
pub const PIPE_BYTES_DEFAULT: u64 = 4096;
/// Errors listed at once; the rest are counted.
pub const ERRORS_MAX: usize = 8;
/// `repeat N`: the largest N.
pub const REPEAT_MAX: u64 = 1_000_000;
/// Loops inside loops.
pub const NESTING_MAX: usize = 8;
/// The longest duration anywhere (a burst, a sleep, an arrival, the horizon).
pub const DURATION_MAX_NS: u64 = 60_000_000_000;
/// Where `forever` stops when the workload says no `until`.
pub const UNTIL_DEFAULT_NS: u64 = 1_000_000_000;
/// Round robin's quantum when `kernel rr` gives none.
pub const QUANTUM_DEFAULT_NS: u64 = 10_000_000;
/// Names: letters, digits, `_` and `-`, starting with a letter, at most this long.
pub const NAME_CHARS_MAX: usize = 16;

/// One error a person can act on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub line: u32,
    pub column: u32,
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: {}", self.line, self.column, self.message)
    }
}

/// Untrusted text as a message quotes it: escaped and cut.
pub fn quoted(text: &str) -> String {
    format!("`{}`", quote_input(text))
}

/// The errors as lines, at most [`ERRORS_MAX`] and a count of the rest.
pub fn report(diagnostics: &[Diagnostic]) -> String {
    let mut sorted = diagnostics.to_vec();
    crate::run::sort::sort_by_key(&mut sorted, |d| (d.line, d.column));
    let mut lines: Vec<String> = sorted.iter().take(ERRORS_MAX).map(ToString::to_string).collect();
    if sorted.len() > ERRORS_MAX {
        lines.push(format!("… and {} more (the first {ERRORS_MAX} are listed)", sorted.len() - ERRORS_MAX));
    }
    lines.join("\n")
}

/// Parses and checks a workload: the program, or every error found.
pub fn load(text: &str) -> Result<Program, Vec<Diagnostic>> {
    let workload = parse::parse(text)?;
    compile(&workload)
}
