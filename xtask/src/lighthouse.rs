//! `cargo xtask lighthouse`: every page of the release build measured by
//! Lighthouse as issue 32 measures it: a phone (Lighthouse's default mobile
//! profile: 150 ms RTT, 1.6 Mbps, 4× CPU slowdown, simulated) and a desktop
//! (`--preset=desktop`), each run several times, the build served with its
//! precompressed files as nginx's `brotli_static` serves them
//! ([`crate::static_server`]). It prints the median of each column per page and
//! where the reports are; it measures and never fails on a figure.
//!
//! Lighthouse is pinned in `tools/lighthouse/package-lock.json` and installed into
//! [`INSTALL_DIR`] only by this command, so that `cargo xtask test` and CI never
//! download it.

use crate::cmd::{self, root, Failure, Outcome};
use crate::setup::Tools;
use crate::static_server::StaticServer;
use std::path::{Path, PathBuf};

const PACKAGE_DIR: &str = "tools/lighthouse";
const INSTALL_DIR: &str = "target/tools/lighthouse";
const REPORT_DIR: &str = "target/lighthouse";
/// The version the issue's figures are taken with; package.json pins it exactly.
const VERSION: &str = "12.2.3";

pub struct Options {
    pub runs: usize,
    /// `landing`, `about` or a case id.
    pub only: Option<String>,
    /// Measure `dist/` as it is, without the release build first.
    pub no_build: bool,
}

pub fn parse_options(rest: &[String]) -> Result<Options, Failure> {
    let mut options = Options { runs: 3, only: None, no_build: false };
    let mut args = rest.iter();
    while let Some(arg) = args.next() {
        if arg == "--no-build" {
            options.no_build = true;
            continue;
        }
        let value = args.next();
        match (arg.as_str(), value) {
            ("--runs", Some(value)) => {
                options.runs = value.parse().ok().filter(|runs| *runs > 0).ok_or_else(|| {
                    Failure::Usage(format!("--runs takes a number of runs from 1, not `{value}`"))
                })?
            }
            ("--only", Some(value)) => options.only = Some(value.clone()),
            ("--runs" | "--only", None) => return Err(Failure::Usage(format!("{arg} needs a value"))),
            _ => return Err(Failure::Usage(format!("unexpected argument `{arg}`"))),
        }
    }
    Ok(options)
}

/// A page of the site: its name in the table and its route (the hash).
struct Page {
    name: String,
    hash: String,
}

fn pages(case_ids: &[String], only: Option<&str>) -> Result<Vec<Page>, Failure> {
    let mut pages = vec![
        Page { name: "landing".into(), hash: String::new() },
        Page { name: "about".into(), hash: "#/about".into() },
    ];
    pages.extend(case_ids.iter().map(|id| Page { name: format!("case/{id}"), hash: format!("#/case/{id}") }));
    let Some(only) = only else { return Ok(pages) };
    let chosen: Vec<Page> =
        pages.into_iter().filter(|page| page.name == only || page.name == format!("case/{only}")).collect();
    if chosen.is_empty() {
        let names = std::iter::once("landing, about".to_string()).chain(case_ids.iter().cloned());
        return Err(Failure::Usage(format!(
            "--only names no page: `{only}` (pages: {})",
            names.collect::<Vec<_>>().join(", ")
        )));
    }
    Ok(chosen)
}

/// What one Lighthouse report says about a page.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Metrics {
    score: f64,
    lcp_ms: f64,
    tbt_ms: f64,
    cls: f64,
    bytes: f64,
}

/// The performance score and the four figures of the table, from a report's JSON.
fn metrics(json: &str) -> Result<Metrics, String> {
    let report: serde_json::Value = serde_json::from_str(json).map_err(|error| error.to_string())?;
    if let Some(error) = report.pointer("/runtimeError/message").and_then(|message| message.as_str()) {
        return Err(format!("Lighthouse: {error}"));
    }
    let number = |pointer: &str| {
        report.pointer(pointer).and_then(serde_json::Value::as_f64).ok_or_else(|| format!("no {pointer}"))
    };
    let audit = |id: &str| number(&format!("/audits/{id}/numericValue"));
    Ok(Metrics {
        score: number("/categories/performance/score")?,
        lcp_ms: audit("largest-contentful-paint")?,
        tbt_ms: audit("total-blocking-time")?,
        cls: audit("cumulative-layout-shift")?,
        bytes: audit("total-byte-weight")?,
    })
}

fn median(mut values: Vec<f64>) -> Option<f64> {
    values.sort_by(f64::total_cmp);
    let middle = values.len() / 2;
    match values.len() {
        0 => None,
        len if len % 2 == 1 => Some(values[middle]),
        _ => Some((values[middle - 1] + values[middle]) / 2.0),
    }
}

/// Each column's median over the runs (a column on its own, as the issue's table reads).
fn medians(runs: &[Metrics]) -> Option<Metrics> {
    let column = |field: fn(&Metrics) -> f64| median(runs.iter().map(field).collect());
    Some(Metrics {
        score: column(|m| m.score)?,
        lcp_ms: column(|m| m.lcp_ms)?,
        tbt_ms: column(|m| m.tbt_ms)?,
        cls: column(|m| m.cls)?,
        bytes: column(|m| m.bytes)?,
    })
}

const HEADER: &str = "| page | mobile score | LCP | TBT | CLS | bytes (br) | desktop score (CLS) |\n\
                      | --- | --- | --- | --- | --- | --- | --- |\n";
const GOALS: &str =
    "| goal | ≥ 0.90 | ≤ 2.5 s | ≤ 200 ms | ≤ 0.1 | landing, about ≤ 15 kB; a case ≤ 250 kB | ≥ 0.95 |\n";

fn row(page: &str, mobile: Option<Metrics>, desktop: Option<Metrics>) -> String {
    let mobile = match mobile {
        Some(m) => format!(
            "{:.2} | {:.1} s | {:.0} ms | {:.3} | {:.1} kB",
            m.score,
            m.lcp_ms / 1000.0,
            m.tbt_ms,
            m.cls,
            m.bytes / 1000.0
        ),
        None => "no report | — | — | — | —".to_string(),
    };
    let desktop = desktop.map_or("no report".to_string(), |d| format!("{:.2} ({:.3})", d.score, d.cls));
    format!("| {page} | {mobile} | {desktop} |\n")
}

/// Installs the pinned Lighthouse unless the installed one matches the lock file.
fn install(tools: &Tools) -> Result<PathBuf, Failure> {
    let fail = |what: String| Failure::Failed(format!("lighthouse: {what}"));
    let (package, target) = (root().join(PACKAGE_DIR), root().join(INSTALL_DIR));
    let bin = target.join("node_modules/.bin/lighthouse");
    let lock = std::fs::read(package.join("package-lock.json"))
        .map_err(|error| fail(format!("cannot read {PACKAGE_DIR}/package-lock.json: {error}")))?;
    let stamp = format!("{:016x}", crate::setup::fnv1a(&lock));
    let stamp_path = target.join(".slowpath-stamp");
    if std::fs::read_to_string(&stamp_path).ok().as_deref() == Some(stamp.as_str()) && bin.exists() {
        println!("xtask: lighthouse {VERSION}: already installed in {INSTALL_DIR}");
        return Ok(bin);
    }
    std::fs::create_dir_all(&target)
        .map_err(|error| fail(format!("cannot create {INSTALL_DIR}: {error}")))?;
    for file in ["package.json", "package-lock.json"] {
        std::fs::copy(package.join(file), target.join(file))
            .map_err(|error| fail(format!("cannot copy {PACKAGE_DIR}/{file}: {error}")))?;
    }
    let mut npm = cmd::tool(tools, "npm");
    npm.args(["ci", "--no-audit", "--no-fund", "--prefix", INSTALL_DIR]);
    cmd::run(&format!("install Lighthouse {VERSION} into {INSTALL_DIR}"), &mut npm)?;
    let reported = cmd::output(cmd::tool(tools, "node").arg(&bin).arg("--version"));
    if reported.as_deref() != Some(VERSION) {
        return Err(fail(format!("{} --version reports {reported:?}, not {VERSION}", bin.display())));
    }
    std::fs::write(&stamp_path, stamp).map_err(|error| fail(format!("cannot write the stamp: {error}")))?;
    Ok(bin)
}

/// Chromium as Lighthouse's CHROME_PATH: the caller's, else the system's.
fn chromium() -> Result<PathBuf, Failure> {
    let path =
        std::env::var_os("CHROME_PATH").map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from);
    if path.is_file() {
        Ok(path)
    } else {
        Err(Failure::Failed(format!(
            "lighthouse: no Chromium at {}: install it (Debian/Ubuntu: `sudo apt-get install chromium`) or set CHROME_PATH",
            path.display()
        )))
    }
}

/// One Lighthouse run: its report saved at `report`, its figures read back.
fn measure(
    tools: &Tools,
    bin: &Path,
    chrome: &Path,
    url: &str,
    desktop: bool,
    report: &Path,
) -> Result<Metrics, String> {
    let mut lighthouse = cmd::tool(tools, "node");
    lighthouse
        .arg(bin)
        .arg(url)
        .args(["--only-categories=performance", "--output=json", "--quiet"])
        .arg("--chrome-flags=--headless --no-sandbox")
        .arg(format!("--output-path={}", report.display()))
        .env("CHROME_PATH", chrome);
    if desktop {
        lighthouse.arg("--preset=desktop");
    }
    let output = lighthouse.current_dir(root()).output().map_err(|error| error.to_string())?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(format!("{} ({})", output.status, stderr.lines().last().unwrap_or("no message")));
    }
    let json = std::fs::read_to_string(report).map_err(|error| format!("no report: {error}"))?;
    metrics(&json)
}

/// `cargo xtask lighthouse`: build, serve, measure every page, print the table.
pub fn run(tools: &Tools, options: &Options) -> Outcome {
    let chrome = chromium()?;
    let pages = pages(&crate::size::case_ids()?, options.only.as_deref())?;
    let bin = install(tools)?;
    if !options.no_build {
        cmd::run("release build", cmd::tool(tools, "trunk").args(["build", "--release"]))?;
    }
    let reports = root().join(REPORT_DIR);
    std::fs::create_dir_all(&reports)
        .map_err(|error| Failure::Failed(format!("lighthouse: cannot create {REPORT_DIR}: {error}")))?;
    let server = StaticServer::start(root().join("dist"))
        .map_err(|error| Failure::Failed(format!("lighthouse: cannot serve dist/: {error}")))?;
    let base_url = format!("http://127.0.0.1:{}/", server.port);
    let mut table = String::from(HEADER);
    let mut failures = Vec::new();
    for page in &pages {
        let mut medians_of = |desktop: bool| {
            let form = if desktop { "desktop" } else { "mobile" };
            let mut runs = Vec::new();
            for run in 1..=options.runs {
                let report = reports.join(format!("{}-{form}-{run}.json", page.name.replace('/', "-")));
                println!("xtask: lighthouse {} ({form}, run {run} of {})", page.name, options.runs);
                match measure(tools, &bin, &chrome, &format!("{base_url}{}", page.hash), desktop, &report) {
                    Ok(metrics) => runs.push(metrics),
                    Err(why) => failures.push(format!("{} {form} run {run}: {why}", page.name)),
                }
            }
            medians(&runs)
        };
        let mobile = medians_of(false);
        let desktop = medians_of(true);
        table += &row(&page.name, mobile, desktop);
    }
    drop(server);
    table += GOALS;
    println!(
        "\nLighthouse {VERSION}, median of {} runs per column; bytes: what the page transferred, as served with its .br files",
        options.runs
    );
    print!("{table}");
    println!("reports (JSON): {REPORT_DIR}/<page>-<mobile|desktop>-<run>.json");
    if failures.is_empty() {
        Ok(())
    } else {
        Err(Failure::Failed(format!("some runs gave no report:\n  {}", failures.join("\n  "))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(score: f64, lcp: f64) -> String {
        format!(
            r#"{{"categories": {{"performance": {{"score": {score}}}}}, "audits": {{
                "largest-contentful-paint": {{"numericValue": {lcp}}},
                "total-blocking-time": {{"numericValue": 120.4}},
                "cumulative-layout-shift": {{"numericValue": 0.02}},
                "total-byte-weight": {{"numericValue": 654321}} }} }}"#
        )
    }

    #[test]
    fn a_report_gives_the_tables_figures() {
        let read = metrics(&report(0.87, 2400.0)).expect("read");
        assert_eq!(read, Metrics { score: 0.87, lcp_ms: 2400.0, tbt_ms: 120.4, cls: 0.02, bytes: 654321.0 });
        let failed = r#"{"runtimeError": {"code": "NO_FCP", "message": "The page did not paint"}}"#;
        assert_eq!(metrics(failed), Err("Lighthouse: The page did not paint".to_string()));
        let no_score = r#"{"categories": {"performance": {"score": null}}, "audits": {}}"#;
        assert!(metrics(no_score).is_err());
    }

    #[test]
    fn each_column_takes_its_own_median() {
        let runs: Vec<Metrics> = [(0.9, 3000.0), (0.5, 1000.0), (0.7, 2000.0)]
            .map(|(s, l)| metrics(&report(s, l)).unwrap())
            .into();
        let median = medians(&runs).expect("three runs");
        assert_eq!((median.score, median.lcp_ms), (0.7, 2000.0));
        assert_eq!(medians(&runs[..2]).map(|m| m.lcp_ms), Some(2000.0));
        assert_eq!(medians(&[]), None);
        assert_eq!(
            row("landing", Some(median), None),
            "| landing | 0.70 | 2.0 s | 120 ms | 0.020 | 654.3 kB | no report |\n"
        );
    }

    #[test]
    fn pages_are_the_landing_about_and_each_case() {
        let ids = ["a".to_string(), "b".to_string()];
        let hashes =
            |only| pages(&ids, only).map(|pages| pages.into_iter().map(|p| p.hash).collect::<Vec<_>>());
        assert_eq!(hashes(None).ok().unwrap(), ["", "#/about", "#/case/a", "#/case/b"]);
        assert_eq!(hashes(Some("b")).ok().unwrap(), ["#/case/b"]);
        assert_eq!(hashes(Some("case/a")).ok().unwrap(), ["#/case/a"]);
        assert!(hashes(Some("c")).is_err());
        assert_eq!(parse_options(&["--runs".into(), "5".into()]).ok().map(|o| o.runs), Some(5));
        assert_eq!(parse_options(&["--no-build".into()]).ok().map(|o| (o.no_build, o.runs)), Some((true, 3)));
        assert!(parse_options(&["--runs".into(), "0".into()]).is_err());
        assert!(parse_options(&["--only".into()]).is_err());
    }
}
