//! Running external commands with messages that name the tool and the command.

use crate::setup::Tools;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub enum Failure {
    /// Bad arguments to xtask itself: usage is printed, exit code 2.
    Usage(String),
    /// A step failed: the message names it; exit code 1.
    Failed(String),
}

pub type Outcome = Result<(), Failure>;

/// The workspace root (xtask lives one level below it).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask sits inside the workspace").to_path_buf()
}

/// Renders a command the way a person would type it, for messages.
pub fn describe(command: &Command) -> String {
    let mut text = command.get_program().to_string_lossy().into_owned();
    for arg in command.get_args() {
        text.push(' ');
        text.push_str(&arg.to_string_lossy());
    }
    text
}

/// Runs `command` with inherited output; a non-zero exit names `what` and the command.
pub fn run(what: &str, command: &mut Command) -> Outcome {
    println!("xtask: {what}: {}", describe(command));
    let status = command.current_dir(root()).status().map_err(|error| {
        Failure::Failed(format!("{what}: could not start `{}`: {error}", describe(command)))
    })?;
    if status.success() {
        Ok(())
    } else {
        Err(Failure::Failed(format!("{what} failed ({status}): `{}`", describe(command))))
    }
}

/// Runs `command` quietly and returns its trimmed stdout, or None if it could not run or failed.
pub fn output(command: &mut Command) -> Option<String> {
    let output = command.current_dir(root()).stdin(Stdio::null()).stderr(Stdio::null()).output().ok()?;
    output.status.success().then(|| String::from_utf8_lossy(&output.stdout).trim().to_string())
}

/// A command for `program` with node_modules/.bin first on PATH, so that Trunk
/// finds binaryen's wasm-opt and the tools installed by cargo.
pub fn tool(tools: &Tools, program: &str) -> Command {
    let mut command = Command::new(program);
    command.env("PATH", &tools.path);
    command
}

/// Where `cargo xtask serve` builds. Not `dist/`: that is the release site that
/// `cargo xtask test` leaves for hosting, and a debug build with the live-reload
/// script must never end up there.
pub const SERVE_DIST: &str = "target/serve-dist";

/// `cargo xtask serve`: Trunk's dev server with live reload, building into [`SERVE_DIST`].
pub fn serve(tools: &Tools, port: u16) -> Outcome {
    let mut command = tool(tools, "trunk");
    command.args(["serve", "--dist", SERVE_DIST, "--address", "127.0.0.1", "--port", &port.to_string()]);
    println!("xtask: serving on http://127.0.0.1:{port}/ (Ctrl-C stops)");
    run("trunk serve", &mut command)
}
