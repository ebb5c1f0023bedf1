//! `cargo xtask test`: everything CI checks, in the order that fails fastest.

use crate::cmd::{self, root, Failure, Outcome};
use crate::setup::Tools;
use crate::static_server::StaticServer;
use std::process::Command;
use std::time::Instant;

pub fn run(tools: &Tools) -> Outcome {
    let started = Instant::now();
    crate::layout::check()?;
    cmd::run("rustfmt", Command::new("cargo").args(["fmt", "--all", "--check"]))?;
    cmd::run(
        "clippy (host crates)",
        Command::new("cargo").args([
            "clippy",
            "--workspace",
            "--exclude",
            "slowpath-app",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ]),
    )?;
    cmd::run(
        "clippy (app on wasm32)",
        Command::new("cargo").args([
            "clippy",
            "--package",
            "slowpath-app",
            "--target",
            "wasm32-unknown-unknown",
            "--",
            "-D",
            "warnings",
        ]),
    )?;
    // The app natively, as the build's prerendering compiles it (the landing and About).
    cmd::run(
        "clippy (app's prerendering, host)",
        Command::new("cargo").args([
            "clippy",
            "--package",
            "slowpath-app",
            "--features",
            "prerender",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ]),
    )?;
    cmd::run("unit tests", Command::new("cargo").args(["test", "--workspace"]))?;
    cmd::run(
        "the static pages' prerendering",
        Command::new("cargo").args([
            "test",
            "--package",
            "slowpath-app",
            "--features",
            "prerender",
            "--lib",
            "prerender",
        ]),
    )?;
    // A build can carry every case's metadata and one case's simulation (the
    // registry's test checks which simulations such a build has).
    cmd::run(
        "one case's simulation with every case's metadata",
        Command::new("cargo").args([
            "test",
            "--package",
            "slowpath-engine",
            "--lib",
            "--no-default-features",
            "--features",
            "rwsem-playground",
            "registry::",
        ]),
    )?;
    // The same engine compiled to wasm32 must produce the native trace hash.
    cmd::run(
        "engine determinism in wasm (node)",
        cmd::tool(tools, "cargo")
            .args([
                "test",
                "--package",
                "slowpath-app",
                "--target",
                "wasm32-unknown-unknown",
                "--test",
                "determinism",
            ])
            .env("CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER", "wasm-bindgen-test-runner"),
    )?;
    cmd::run("release build", cmd::tool(tools, "trunk").args(["build", "--release"]))?;
    browser_tests(tools)?;
    println!("xtask: test finished in {:.0} s", started.elapsed().as_secs_f64());
    println!("bundle: {}", bundle_size()?);
    Ok(())
}

fn browser_tests(tools: &Tools) -> Outcome {
    let server = StaticServer::start(root().join("dist"))
        .map_err(|error| Failure::Failed(format!("browser tests: cannot serve dist/: {error}")))?;
    let base_url = format!("http://127.0.0.1:{}/", server.port);
    // The landing test checks that exactly the registry's cases are listed.
    let mut node = cmd::tool(tools, "node");
    node.args(["--test", "--test-concurrency=1"])
        .args(e2e_files()?)
        .env("SLOWPATH_BASE_URL", &base_url)
        .env("SLOWPATH_REGISTRY", registry_json()?)
        .env("CHROMIUM_PATH", &tools.chromium);
    let result = cmd::run(&format!("browser tests against {base_url}"), &mut node);
    // Screenshots of every case's first screen (start and headline, three sizes) for a
    // human to look at, in e2e/artifacts/shots/ (not committed): after the tests pass,
    // with the same server and one browser.
    let result = result.and_then(|()| {
        let mut shots = cmd::tool(tools, "node");
        shots
            .arg("e2e/screenshots.mjs")
            .env("SLOWPATH_BASE_URL", &base_url)
            .env("SLOWPATH_REGISTRY", registry_json()?)
            .env("CHROMIUM_PATH", &tools.chromium);
        cmd::run("screenshots into e2e/artifacts/shots", &mut shots)
    });
    drop(server);
    result
}

/// The browser test files, sorted so that runs are reproducible.
fn e2e_files() -> Result<Vec<String>, Failure> {
    let dir = root().join("e2e");
    let entries = std::fs::read_dir(&dir)
        .map_err(|error| Failure::Failed(format!("browser tests: cannot list {}: {error}", dir.display())))?;
    let mut files: Vec<String> = entries
        .filter_map(|entry| entry.ok())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".test.mjs"))
        .map(|name| format!("e2e/{name}"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(Failure::Failed("browser tests: e2e/ has no *.test.mjs files".to_string()));
    }
    Ok(files)
}

/// The size line of what a first visit downloads, after one line per route,
/// failing above the bundle's ceiling or a route's.
fn bundle_size() -> Result<String, Failure> {
    let dist = root().join("dist");
    let assets = crate::size::shipped(&dist)?;
    let routes = crate::size::routes(&dist, &crate::size::case_ids()?)?;
    for route in &routes {
        print!("route {}", crate::size::route_line(route, &assets));
    }
    let line = crate::size::total_line(&assets);
    let total = crate::size::total_gz(&assets);
    if total > crate::size::CEILING_GZ_BYTES {
        return Err(Failure::Failed(format!(
            "{}the bundle passed its ceiling: run `cargo xtask size` to see where the bytes go",
            line
        )));
    }
    let over = crate::size::routes_over_ceiling(&routes, &assets);
    if !over.is_empty() {
        return Err(Failure::Failed(format!(
            "pages passed their ceiling ({}): run `cargo xtask size` to see where the bytes go",
            over.join("; ")
        )));
    }
    Ok(line.trim_end().trim_start_matches("bundle: ").to_string())
}

/// The registry as JSON, from `slowpath-cli list --json`: what the browser tests
/// iterate (`e2e/registry.mjs`), so that a new case needs no list in them.
pub fn registry_json() -> Result<String, Failure> {
    cmd::output(Command::new("cargo").args([
        "run",
        "--quiet",
        "--package",
        "slowpath-cli",
        "--",
        "list",
        "--json",
    ]))
    .ok_or_else(|| Failure::Failed("`slowpath-cli list --json` failed".to_string()))
}

/// The registry's case ids, comma-separated, from `slowpath-cli list`: what the
/// benchmarks iterate.
pub fn case_ids() -> Result<String, Failure> {
    Ok(cmd::output(Command::new("cargo").args(["run", "--quiet", "--package", "slowpath-cli", "--", "list"]))
        .ok_or_else(|| Failure::Failed("`slowpath-cli list` failed".to_string()))?
        .lines()
        .filter_map(|line| line.split('\t').next())
        .collect::<Vec<_>>()
        .join(","))
}
