//! `slowpath-cli`: the engine on the command line.
//!
//! `list` prints the case registry; `run` runs one case and prints a
//! summary, a JSON object (`--json`) or one line per micro-op (`--trace`).

use slowpath_engine::run::params::ParamValues;
use slowpath_engine::{find, registry, run_checked, Run};
use std::process::ExitCode;

const USAGE: &str = "\
usage: slowpath-cli list
       slowpath-cli run <case-id> [--variant V] [--set key=value]... [--seed N] [--json] [--trace]";

/// `--trace` on a run larger than this prints the first lines and says so.
const TRACE_LINES_MAX: u64 = 10_000_000;

struct RunArgs {
    case: String,
    variant: Option<String>,
    sets: Vec<(String, String)>,
    seed: u64,
    json: bool,
    trace: bool,
}

fn main() -> ExitCode {
    let Some(args) =
        std::env::args_os().skip(1).map(|arg| arg.into_string().ok()).collect::<Option<Vec<String>>>()
    else {
        eprintln!("slowpath-cli: arguments must be valid UTF-8");
        return ExitCode::from(2);
    };
    match args.first().map(String::as_str) {
        Some("list") if args.len() == 1 => {
            let lines: String = registry()
                .iter()
                .map(|case| format!("{}\t{}\n", case.meta().id, case.meta().title))
                .collect();
            print_quietly(&lines);
            ExitCode::SUCCESS
        }
        Some("run") => match parse_run(&args[1..]).and_then(|run_args| execute(&run_args)) {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("slowpath-cli: {message}");
                ExitCode::from(2)
            }
        },
        Some("help" | "--help" | "-h") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn parse_run(args: &[String]) -> Result<RunArgs, String> {
    let mut iter = args.iter();
    let case = iter.next().ok_or("run needs a case id (see `slowpath-cli list`)")?.clone();
    let mut run = RunArgs { case, variant: None, sets: Vec::new(), seed: 1, json: false, trace: false };
    while let Some(arg) = iter.next() {
        let mut value = |flag: &str| iter.next().cloned().ok_or(format!("{flag} needs a value"));
        match arg.as_str() {
            "--variant" => run.variant = Some(value("--variant")?),
            "--seed" => {
                let text = value("--seed")?;
                run.seed = text.parse().map_err(|_| format!("--seed takes a whole number, not `{text}`"))?;
            }
            "--set" => {
                let pair = value("--set")?;
                let (key, text) =
                    pair.split_once('=').ok_or(format!("--set takes key=value, not `{pair}`"))?;
                run.sets.push((key.to_string(), text.to_string()));
            }
            "--json" => run.json = true,
            "--trace" => run.trace = true,
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    Ok(run)
}

fn execute(args: &RunArgs) -> Result<(), String> {
    let case = find(&args.case).ok_or_else(|| {
        let known: Vec<&str> = registry().iter().map(|s| s.meta().id).collect();
        format!("unknown case `{}`; known: {}", args.case, known.join(", "))
    })?;
    let meta = case.meta();
    let params =
        ParamValues::from_pairs_exact(meta.params, args.sets.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .map_err(|error| error.to_string())?;
    let variant = args.variant.as_deref().unwrap_or(meta.default_variant().id);
    let run = run_checked(case, &params, variant, args.seed).map_err(|error| error.to_string())?;
    if args.trace {
        use std::io::Write;
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        for line in run.trace_lines(TRACE_LINES_MAX) {
            // A closed pipe (`| head`) ends the listing quietly.
            if writeln!(out, "{line}").is_err() {
                return Ok(());
            }
        }
        if out.flush().is_err() {
            return Ok(());
        }
        drop(out);
        if run.total_ops() > TRACE_LINES_MAX {
            println!("... {} more micro-ops not printed", run.total_ops() - TRACE_LINES_MAX);
        }
    }
    if args.json {
        print_quietly(&(json(&run) + "\n"));
    } else if !args.trace {
        print_quietly(&(summary(&run) + "\n"));
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
    let meta = find(run.case).expect("the run came from the registry").meta();
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
        "metrics": run.metrics,
    });
    value.to_string()
}

fn summary(run: &Run) -> String {
    let (ops, blocks, checkpoints) = run.stored();
    format!(
        "{} ({}), seed {}: {} simulated, {} phases, {} iterations, {} micro-ops, outcome {:?}, trace {:016x}\n\
         stored: {} ops in {} blocks, {} checkpoints",
        run.case,
        run.variant,
        run.seed,
        slowpath_engine::run::params::format_duration(run.end_ns),
        run.counts.phases,
        run.counts.iterations,
        run.counts.micro_ops,
        run.outcome,
        run.trace_hash,
        ops,
        blocks,
        checkpoints
    )
}
