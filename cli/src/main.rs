//! `slowpath-cli`: the engine on the command line.
//!
//! `list` prints the case registry; `run` runs one case and prints a
//! summary, a JSON object (`--json`) or one line per micro-op (`--trace`);
//! `tour` prints (and so validates) a case's guided tour; `lab FILE` runs a
//! workload file in the Lab, as `run lab --set workload=<the file>` would. `run` also writes the
//! run's exports: `--perfetto FILE` (Trace Event JSON), `--csv FILE` (the metrics,
//! and each of the case's plot tables beside it as `FILE-<table>.csv`), `--svg FILE`
//! (the timeline, and the case's charts beside it as `FILE-<chart>.svg`).

mod tour;

use slowpath_engine::run::params::{quote_input, ParamValues};
use slowpath_engine::{listed, registry, run_checked, simulation, Run};
use std::process::ExitCode;

const USAGE: &str = "\
usage: slowpath-cli list [--json]
       slowpath-cli tour <case-id>
       slowpath-cli lab FILE [--kernel K] [--seed N] [--json] [--trace [--trace-all]] [--perfetto FILE] [--csv FILE] [--svg FILE]
       slowpath-cli run <case-id> [--variant V] [--set key=value]... [--seed N] [--json]
                                   [--trace [--trace-all]] [--perfetto FILE] [--csv FILE] [--svg FILE]

`list --json` also gives the tests' own case (`example-case`), marked \"listed\": false.
Durations take a unit (ns, us or µs, ms, s), sizes may (B, KiB, MiB, GiB, TiB).
--trace prints the first 100,000 micro-ops and says where it stopped; --trace-all prints every one.
`lab` runs a workload (docs/lab.md); --kernel replaces its `kernel` line: fifo, sjf, stcf, rr, o1, eevdf or goodness.";

/// The usage on one line, for errors (every error is one prefixed line).
const USAGE_LINE: &str =
    "usage: slowpath-cli list [--json] | slowpath-cli tour <case-id> | slowpath-cli run <case-id> [--variant V] [--set key=value]... [--seed N] [--json] [--trace [--trace-all]] [--perfetto FILE] [--csv FILE] [--svg FILE]";

/// `--trace` prints at most this many lines (a few megabytes) unless `--trace-all`
/// lifts the cap, since a long run's every micro-op would fill a disk.
const TRACE_LINES_DEFAULT: u64 = 100_000;

struct RunArgs {
    case: String,
    variant: Option<String>,
    sets: Vec<(String, String)>,
    seed: u64,
    json: bool,
    trace: bool,
    trace_all: bool,
    perfetto: Option<String>,
    csv: Option<String>,
    svg: Option<String>,
}

/// The registry as the browser tests read it (`e2e/registry.mjs`): every case's id,
/// title, variants with their groups, whether it reproduces a report, whether
/// people are shown it (the tests' own case is not, and the tests run it too), and
/// whether the app has it (the Lab not yet: the browser tests leave it out).
fn registry_json() -> String {
    let cases: Vec<serde_json::Value> = registry()
        .iter()
        .map(|entry| {
            let meta = entry.meta;
            let variants: Vec<serde_json::Value> = meta
                .variants
                .iter()
                .map(|variant| serde_json::json!({ "id": variant.id, "group": variant.group.label() }))
                .collect();
            serde_json::json!({
                "id": meta.id,
                "title": meta.title,
                "variants": variants,
                "reported": !meta.reported.is_empty(),
                "listed": entry.listed,
                "in_app": entry.in_app,
            })
        })
        .collect();
    serde_json::Value::Array(cases).to_string()
}

fn main() -> ExitCode {
    let args = match utf8_args(std::env::args_os().skip(1)) {
        Ok(args) => args,
        Err(message) => return fail(&message),
    };
    match args.first().map(String::as_str) {
        Some("list") if args.len() == 2 && args[1] == "--json" => {
            print_quietly(&(registry_json() + "\n"));
            ExitCode::SUCCESS
        }
        Some("list") if args.len() == 1 => {
            let lines: String =
                listed().map(|entry| format!("{}\t{}\n", entry.meta.id, entry.meta.title)).collect();
            print_quietly(&lines);
            ExitCode::SUCCESS
        }
        Some("run") => match parse_run(&args[1..]).and_then(|run_args| execute(&run_args)) {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => fail(&message),
        },
        Some("lab") => match parse_lab(&args[1..]).and_then(|run_args| execute(&run_args)) {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => fail(&message),
        },
        Some("tour") if args.len() == 2 => match tour::print(&args[1]) {
            Ok(text) => {
                print_quietly(&text);
                ExitCode::SUCCESS
            }
            Err(message) => fail(&message),
        },
        Some("tour") => fail(&format!("tour takes one case id; {USAGE_LINE}")),
        Some("help" | "--help" | "-h") if args.len() == 1 => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        None => fail(&format!("no command; {USAGE_LINE}")),
        Some(command @ ("list" | "help" | "--help" | "-h")) => {
            fail(&format!("`{command}` takes no arguments; {USAGE_LINE}"))
        }
        Some(other) => fail(&format!("unknown command `{}`; {USAGE_LINE}", quote_input(other))),
    }
}

/// The arguments as text, or which one is not UTF-8 (counted from 1 after the program).
fn utf8_args(args: impl Iterator<Item = std::ffi::OsString>) -> Result<Vec<String>, String> {
    args.enumerate()
        .map(|(index, arg)| {
            arg.into_string().map_err(|arg| {
                format!(
                    "argument {} is not valid UTF-8: `{}`",
                    index + 1,
                    quote_input(&arg.to_string_lossy())
                )
            })
        })
        .collect()
}

/// Every error: one line on stderr, prefixed, exit code 2. Echoed inputs are
/// quoted where they are built (`quote_input`); this escapes anything left, so
/// that no message can break the line or drive the terminal.
/// A message of several errors (a workload's) is several lines, each prefixed.
fn fail(message: &str) -> ExitCode {
    for line in message.split('\n') {
        let line: String = line
            .chars()
            .flat_map(|c| -> Vec<char> {
                if c.is_control() || slowpath_engine::run::params::is_invisible_format(c) {
                    c.escape_default().collect()
                } else {
                    vec![c]
                }
            })
            .collect();
        eprintln!("slowpath-cli: {line}");
    }
    ExitCode::from(2)
}

/// `lab FILE [--kernel K] …`: `run lab` with the file as its workload and the kernel
/// as its variant; every other flag is `run`'s.
fn parse_lab(args: &[String]) -> Result<RunArgs, String> {
    let (path, rest) = args.split_first().ok_or("lab needs a workload file (see docs/lab.md)")?;
    let mut forwarded = vec!["the-lab".to_string()];
    let mut kernel = None;
    let mut iter = rest.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--kernel" => {
                if kernel.is_some() {
                    return Err("--kernel is given twice; give it once".to_string());
                }
                kernel = Some(
                    iter.next()
                        .ok_or("--kernel needs a value: fifo, sjf, stcf, rr, o1, eevdf or goodness")?
                        .clone(),
                );
            }
            "--variant" | "--set" => {
                return Err(format!("`lab` takes --kernel, not {arg}; the workload is the file"));
            }
            _ => forwarded.push(arg.clone()),
        }
    }
    let mut run = parse_run(&forwarded)?;
    run.variant = kernel;
    run.sets.push(("workload".to_string(), read_workload(path)?));
    Ok(run)
}

/// The workload file's text, refused past the Lab's bound before it is read whole.
fn read_workload(path: &str) -> Result<String, String> {
    use std::io::Read;
    let bound = slowpath_engine::cases::the_lab::TEXT_BYTES_MAX;
    let file =
        std::fs::File::open(path).map_err(|error| format!("cannot read `{}`: {error}", quote_input(path)))?;
    let mut bytes = Vec::new();
    file.take(bound as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|error| format!("cannot read `{}`: {error}", quote_input(path)))?;
    if bytes.len() > bound {
        return Err(format!("`{}` is longer than the Lab reads ({bound} bytes)", quote_input(path)));
    }
    String::from_utf8(bytes).map_err(|_| format!("`{}` is not UTF-8 text", quote_input(path)))
}

fn parse_run(args: &[String]) -> Result<RunArgs, String> {
    let mut iter = args.iter();
    let case = iter.next().ok_or("run needs a case id (see `slowpath-cli list`)")?.clone();
    let mut run = RunArgs {
        case,
        variant: None,
        sets: Vec::new(),
        seed: 1,
        json: false,
        trace: false,
        trace_all: false,
        perfetto: None,
        csv: None,
        svg: None,
    };
    let mut seed_seen = false;
    while let Some(arg) = iter.next() {
        let mut value = |flag: &str| iter.next().cloned().ok_or(format!("{flag} needs a value"));
        // A flag given twice is a mistake to say, not a last-wins to guess at.
        let once = |flag: &str, seen: bool| {
            if seen {
                Err(format!("{flag} is given twice; give it once"))
            } else {
                Ok(())
            }
        };
        match arg.as_str() {
            "--variant" => {
                once("--variant", run.variant.is_some())?;
                run.variant = Some(value("--variant")?);
            }
            "--seed" => {
                once("--seed", seed_seen)?;
                seed_seen = true;
                run.seed = parse_seed(&value("--seed")?)?;
            }
            "--set" => {
                let pair = value("--set")?;
                let (key, text) = pair
                    .split_once('=')
                    .ok_or_else(|| format!("--set takes key=value, not `{}`", quote_input(&pair)))?;
                if run.sets.iter().any(|(seen, _)| seen == key) {
                    return Err(format!("--set `{}` is given twice; give it once", quote_input(key)));
                }
                run.sets.push((key.to_string(), text.to_string()));
            }
            "--json" => run.json = true,
            "--trace" => run.trace = true,
            "--trace-all" => run.trace_all = true,
            "--perfetto" => {
                once("--perfetto", run.perfetto.is_some())?;
                run.perfetto = Some(value("--perfetto")?);
            }
            "--csv" => {
                once("--csv", run.csv.is_some())?;
                run.csv = Some(value("--csv")?);
            }
            "--svg" => {
                once("--svg", run.svg.is_some())?;
                run.svg = Some(value("--svg")?);
            }
            other => return Err(format!("unknown argument `{}`; {USAGE_LINE}", quote_input(other))),
        }
    }
    if run.trace_all && !run.trace {
        return Err("--trace-all lifts --trace's cap; give --trace too".to_string());
    }
    Ok(run)
}

/// A seed is any u64; the message names the range and says which way it failed.
fn parse_seed(text: &str) -> Result<u64, String> {
    use std::num::IntErrorKind;
    text.parse::<u64>().map_err(|error| {
        let why = match error.kind() {
            IntErrorKind::PosOverflow => "is too large",
            IntErrorKind::Empty => "is empty",
            _ => "is not a whole number",
        };
        format!("--seed takes a whole number from 0 to {}; `{}` {why}", u64::MAX, quote_input(text))
    })
}

fn execute(args: &RunArgs) -> Result<(), String> {
    let case = simulation(&args.case).ok_or_else(|| {
        let known: Vec<&str> = listed().map(|entry| entry.meta.id).collect();
        format!("unknown case `{}`; known: {}", quote_input(&args.case), known.join(", "))
    })?;
    let meta = case.meta();
    let params =
        ParamValues::from_pairs_exact(meta.params, args.sets.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .map_err(|error| error.to_string())?;
    let variant = match &args.variant {
        None => meta.default_variant().id,
        // The same leniency as a choice's value: case and surrounding spaces do not matter.
        Some(text) => meta
            .variants
            .iter()
            .find(|variant| variant.id.eq_ignore_ascii_case(text.trim()))
            .map(|variant| variant.id)
            .ok_or_else(|| {
                let known: Vec<&str> = meta.variants.iter().map(|variant| variant.id).collect();
                format!(
                    "{} has no variant `{}`; its variants: {}",
                    meta.id,
                    quote_input(text),
                    known.join(", ")
                )
            })?,
    };
    let run = run_checked(case, &params, variant, args.seed).map_err(|error| error.to_string())?;
    write_exports(case, &run, args)?;
    if args.trace {
        use std::io::Write;
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        let limit = if args.trace_all { u64::MAX } else { TRACE_LINES_DEFAULT };
        for line in run.trace_lines(limit) {
            // A closed pipe (`| head`) ends the listing quietly.
            if writeln!(out, "{line}").is_err() {
                return Ok(());
            }
        }
        if out.flush().is_err() {
            return Ok(());
        }
        drop(out);
        if run.total_ops() > limit {
            let at = run.op(limit - 1).map_or(0, |op| op.at_ns);
            print_quietly(&format!(
                "... stopped after micro-op {} of {} (simulated time {}); --trace-all prints every one\n",
                group(limit),
                group(run.total_ops()),
                slowpath_engine::run::params::format_duration(at)
            ));
        }
    }
    if args.json {
        print_quietly(&(json(&run) + "\n"));
    } else if !args.trace {
        print_quietly(&(summary(&run) + "\n"));
    }
    Ok(())
}

/// Writes the files the export flags ask for (the whole run: position = its end).
fn write_exports(case: &dyn slowpath_engine::Case, run: &Run, args: &RunArgs) -> Result<(), String> {
    use slowpath_engine::export::{chart, csv, perfetto, svg};
    let write = |path: &str, text: String| {
        std::fs::write(path, text).map_err(|error| format!("cannot write `{}`: {error}", quote_input(path)))
    };
    if let Some(path) = &args.perfetto {
        write(path, perfetto::perfetto_json(case.meta(), run))?;
    }
    if let Some(path) = &args.csv {
        write(path, csv::metrics_csv(case.meta(), run))?;
        let stem = path.strip_suffix(".csv").unwrap_or(path);
        for table in case.csv_tables(run) {
            write(&format!("{stem}-{}.csv", table.name), table.to_csv())?;
        }
    }
    if let Some(path) = &args.svg {
        write(path, svg::timeline_svg(run, None))?;
        let stem = path.strip_suffix(".svg").unwrap_or(path);
        for chart in case.charts(run) {
            write(&format!("{stem}-{}.svg", chart.name), chart::chart_svg(&chart))?;
        }
    }
    Ok(())
}

/// Prints, ending quietly if stdout was closed (`| head`, `| true`).
fn print_quietly(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

fn json(run: &Run) -> String {
    let meta = simulation(run.case).expect("the run came from the registry").meta();
    let params: serde_json::Map<String, serde_json::Value> = meta
        .params
        .iter()
        .filter_map(|spec| {
            Some((spec.name.to_string(), serde_json::json!(spec.format_value(run.params.0.get(spec.name)?))))
        })
        .collect();
    let value = serde_json::json!({
        "case": run.case,
        "variant": run.variant,
        "params": params,
        "seed": run.seed,
        "sim_time_ns": run.end_ns,
        "steps": run.counts,
        "trace_hash": format!("{:016x}", run.trace_hash),
        "outcome": run.outcome,
        "outcome_text": run.outcome.limit_text(),
        "simulated_steps": run.simulated_steps,
        "chapters": run.chapters,
        "metrics": run.metrics,
    });
    value.to_string()
}

fn summary(run: &Run) -> String {
    let (ops, blocks, checkpoints) = run.stored();
    format!(
        "{} ({}), seed {}: {} simulated, {} phases, {} iterations, {} micro-ops, {}; trace {:016x}\n\
         stored: {} ops in {} blocks, {} checkpoints",
        run.case,
        run.variant,
        run.seed,
        slowpath_engine::run::params::format_duration(run.end_ns),
        run.counts.phases,
        run.counts.iterations,
        run.counts.micro_ops,
        outcome_sentence(run),
        run.trace_hash,
        ops,
        blocks,
        checkpoints
    )
}

fn group(value: u64) -> String {
    slowpath_engine::run::narration::group_digits(value)
}

/// How the run ended, in the words the page uses: its limit sentence when it has
/// one, else what happened.
fn outcome_sentence(run: &Run) -> String {
    use slowpath_engine::run::outcome::Outcome;
    use slowpath_engine::run::params::format_duration;
    if let Some(text) = run.outcome.limit_text() {
        return text;
    }
    match &run.outcome {
        Outcome::Completed => "the modelled work finished".to_string(),
        Outcome::TimeLimit => "the run reached its simulated-time limit".to_string(),
        Outcome::Killed { signal, sent_at_ns, at_ns } => format!(
            "the process was killed by {signal}, sent at {}, and died at {}",
            format_duration(*sent_at_ns),
            format_duration(*at_ns)
        ),
        Outcome::Deadlock(deadlock) => {
            let waits: Vec<String> = deadlock
                .cycle
                .iter()
                .map(|(task, lock)| {
                    format!("{} waits for {}", run.layout.task_name(*task), run.layout.lock_name(*lock))
                })
                .collect();
            format!("a deadlock: {}", waits.join(", "))
        }
        Outcome::Stalled { at_ns, tasks } => format!(
            "a stall at {}: {tasks} task(s) wait for what no task will ever do",
            format_duration(*at_ns)
        ),
        Outcome::WorkLimit { .. } | Outcome::StepLimit { .. } => String::new(),
    }
}
