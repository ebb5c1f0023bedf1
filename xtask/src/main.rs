//! `cargo xtask <command>`: the project's chores in Rust, so that a fresh
//! machine with rustup needs nothing but `cargo xtask serve` and `cargo xtask test`.

mod bench;
mod cmd;
mod gather;
mod html;
mod layout;
mod lighthouse;
mod modules;
mod setup;
mod shell;
mod size;
mod static_server;
mod test;

use std::process::ExitCode;

const USAGE: &str = "\
usage: cargo xtask <command> [options]

commands:
  setup               install what is missing (wasm32 target, trunk, wasm-bindgen-cli,
                      npm packages, Chromium); each step is skipped when already satisfied
  serve [--port N]    setup, then serve the app with live reload on http://127.0.0.1:8080
  test                setup, then fmt, clippy, unit tests, release build, browser tests
  layout              only the layout check that `test` starts with (no case named in
                      generic code, no Markdown link outside the repository)
  gather              Trunk's pre-build hook: each case's stylesheet and measured results
                      gathered into target/generated/ for index.html (xtask/src/gather.rs)
  harden-html         Trunk's post-build hook: the start-up script into a file, and the
                      Content-Security-Policy in release builds (xtask/src/html.rs)
  bench               engine benchmarks: divan natively, then run times in wasm (Chromium)
  bench-web           browser benchmarks: start-up per page, long tasks, frame times
  size [--no-build] [--module CASE]
                      release build, then each shipped file raw/gzip/brotli, what a first
                      visit to each page transfers, and where the wasm's bytes go
                      (--no-build: measure dist/ as it is; --module: attribute that
                      case's own module rather than the all-cases one)
  lighthouse [--runs N] [--only PAGE] [--no-build]
                      release build served with its .br/.gz files, every page (landing,
                      about, each case id) measured by Lighthouse 12.2.3 (installed into
                      target/tools/lighthouse), mobile and desktop, N runs each (3);
                      prints the medians and saves the reports in target/lighthouse/;
                      it measures and does not gate: no figure fails it (--no-build:
                      measure dist/ as it is)
  help                this text";

fn main() -> ExitCode {
    let Some(args) =
        std::env::args_os().skip(1).map(|arg| arg.into_string().ok()).collect::<Option<Vec<String>>>()
    else {
        eprintln!("xtask: arguments must be valid UTF-8\n\n{USAGE}");
        return ExitCode::from(2);
    };
    let Some(command) = args.first() else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let rest = &args[1..];
    let result = match command.as_str() {
        "setup" => no_options(rest).and_then(|()| setup::run(setup::Need::Test).map(|_| ())),
        "serve" => parse_port(rest).and_then(|port| {
            let tools = setup::run(setup::Need::Serve)?;
            cmd::serve(&tools, port)
        }),
        "test" => no_options(rest).and_then(|()| {
            let tools = setup::run(setup::Need::Test)?;
            test::run(&tools)
        }),
        "layout" => no_options(rest).and_then(|()| layout::check()),
        "harden-html" => no_options(rest).and_then(|()| html::harden_from_env()),
        "gather" => no_options(rest).and_then(|()| gather::run()),
        "bench" => no_options(rest).and_then(|()| {
            let tools = setup::run(setup::Need::Test)?;
            bench::run(&tools)
        }),
        "bench-web" => no_options(rest).and_then(|()| {
            let tools = setup::run(setup::Need::Test)?;
            bench::web(&tools)
        }),
        "size" => size::parse_options(rest).and_then(|options| match options.build {
            true => size::run(&setup::run(setup::Need::Test)?, &options),
            false => size::report(&options),
        }),
        "lighthouse" => lighthouse::parse_options(rest).and_then(|options| {
            let tools = setup::run(setup::Need::Test)?;
            lighthouse::run(&tools, &options)
        }),
        "help" | "--help" | "-h" => {
            println!("{USAGE}");
            Ok(())
        }
        other => {
            eprintln!("xtask: unknown command `{other}`\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(cmd::Failure::Usage(message)) => {
            eprintln!("xtask: {message}\n\n{USAGE}");
            ExitCode::from(2)
        }
        Err(cmd::Failure::Failed(message)) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

fn no_options(rest: &[String]) -> Result<(), cmd::Failure> {
    match rest.first() {
        None => Ok(()),
        Some(extra) => Err(cmd::Failure::Usage(format!("unexpected argument `{extra}`"))),
    }
}

fn parse_port(rest: &[String]) -> Result<u16, cmd::Failure> {
    match rest {
        [] => Ok(8080),
        [flag, value] if flag == "--port" => value
            .parse::<u16>()
            .ok()
            .filter(|port| *port != 0)
            .ok_or_else(|| cmd::Failure::Usage(format!("--port takes 1..=65535, not `{value}`"))),
        [extra, ..] => Err(cmd::Failure::Usage(format!("unexpected argument `{extra}`"))),
    }
}
