//! `cargo xtask bench`: the engine's native benchmarks. Budgets live here, as
//! printed figures, never as assertions in timed tests.

use crate::cmd::{self, root, Failure, Outcome};
use crate::setup::Tools;
use crate::static_server::StaticServer;
use std::process::Command;

/// `cargo xtask bench`: divan natively, then the same runs timed in wasm (in
/// headless Chromium, so the figure is the one a student's browser sees).
pub fn run(tools: &Tools) -> Outcome {
    cmd::run("engine benchmarks", Command::new("cargo").args(["bench", "--package", "slowpath-engine"]))?;
    // The native side of each wasm timing, for the wasm/native ratio printed beside it.
    cmd::run(
        "native run timer",
        Command::new("cargo").args([
            "build",
            "--profile",
            "bench",
            "--package",
            "slowpath-engine",
            "--example",
            "native_time",
        ]),
    )?;
    browser(tools, &["runs"], true)
}

/// `cargo xtask bench-web`: a release build, served locally, measured in headless
/// Chromium by e2e/perf/bench-web.mjs (start-up per page, longest tasks, frame
/// times, engine time per frame), then the size of what that build ships.
pub fn web(tools: &Tools) -> Outcome {
    browser(tools, &[], false)?;
    println!("\nWhat a first visit transfers (this build's dist/):");
    print!("{}", crate::size::table(&crate::size::shipped(&root().join("dist"))?));
    Ok(())
}

fn browser(tools: &Tools, args: &[&str], with_native: bool) -> Outcome {
    cmd::run("release build", cmd::tool(tools, "trunk").args(["build", "--release"]))?;
    let server = StaticServer::start(root().join("dist"))
        .map_err(|error| Failure::Failed(format!("bench-web: cannot serve dist/: {error}")))?;
    let base_url = format!("http://127.0.0.1:{}/", server.port);
    let mut node = cmd::tool(tools, "node");
    node.arg("e2e/perf/bench-web.mjs")
        .args(args)
        .env("SLOWPATH_BASE_URL", &base_url)
        .env("SLOWPATH_CASE_IDS", crate::test::case_ids()?)
        .env("CHROMIUM_PATH", &tools.chromium);
    if with_native {
        node.env("SLOWPATH_NATIVE_TIME", root().join("target/release/examples/native_time"));
    }
    let result = cmd::run("browser benchmarks", &mut node);
    drop(server);
    result
}
