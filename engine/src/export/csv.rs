//! A run's figures as CSV (RFC 4180: comma-separated, CRLF-free, quoted when needed).
//!
//! `metrics_csv` is generic: the run's identity, its outcome, every task's time per
//! accounting bucket and every metric the case computed, one row each with its
//! dotted path. A case's plot points (per-write dt, scaling curves) come as
//! [`Table`]s from `Case::csv_tables`.

use crate::case::CaseMeta;
use crate::run::format::Shortest;
use crate::run::trace::{Metric, Run};
use crate::run::world::{Bucket, TaskId};

/// One CSV file: a name for the file (`<case>-<variant>-<position>-<name>.csv`), a
/// header and rows of cells already written as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub name: &'static str,
    pub header: Vec<&'static str>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    pub fn new(name: &'static str, header: &[&'static str]) -> Table {
        Table { name, header: header.to_vec(), rows: Vec::new() }
    }

    pub fn row(&mut self, cells: Vec<String>) {
        debug_assert_eq!(cells.len(), self.header.len(), "a row has one cell per column");
        self.rows.push(cells);
    }

    pub fn to_csv(&self) -> String {
        let mut out = String::new();
        write_row(&mut out, self.header.iter().copied());
        for row in &self.rows {
            write_row(&mut out, row.iter().map(String::as_str));
        }
        out
    }
}

fn write_row<'a>(out: &mut String, cells: impl Iterator<Item = &'a str>) {
    for (index, cell) in cells.enumerate() {
        if index > 0 {
            out.push(',');
        }
        write_cell(out, cell);
    }
    out.push('\n');
}

/// A cell, quoted when it holds a comma, a quote or a line break.
fn write_cell(out: &mut String, cell: &str) {
    if cell.contains([',', '"', '\n', '\r']) {
        out.push('"');
        out.push_str(&cell.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(cell);
    }
}

/// The run's figures: `metric,value,unit` rows.
pub fn metrics_table(meta: &CaseMeta, run: &Run) -> Table {
    let mut table = Table::new("metrics", &["metric", "value", "unit"]);
    let mut put =
        |metric: String, value: String, unit: &str| table.row(vec![metric, value, unit.to_string()]);
    put("case".into(), run.case.into(), "");
    put("variant".into(), run.variant.into(), "");
    put("seed".into(), run.seed.to_string(), "");
    for spec in meta.params {
        if let Some(value) = run.params.0.get(spec.name) {
            put(format!("param.{}", spec.name), spec.format_value(value), "");
        }
    }
    put("sim_time".into(), run.end_ns.to_string(), "ns");
    put("micro_ops".into(), run.counts.micro_ops.to_string(), "count");
    put("iterations".into(), run.counts.iterations.to_string(), "count");
    put("trace_hash".into(), format!("{:016x}", run.trace_hash), "");
    let outcome = match &run.outcome {
        crate::run::trace::Outcome::Completed => "completed",
        crate::run::trace::Outcome::TimeLimit => "time limit",
        crate::run::trace::Outcome::StepLimit { .. } => "storage limit",
        crate::run::trace::Outcome::Killed { .. } => "killed",
        crate::run::trace::Outcome::Deadlock(_) => "deadlock",
        crate::run::trace::Outcome::Stalled { .. } => "stalled",
        crate::run::trace::Outcome::WorkLimit { .. } => "work limit",
    };
    put("outcome".into(), outcome.into(), "");
    let mut rows = Vec::new();
    for (name, metric) in &run.metrics {
        flatten(&mut rows, name.clone(), metric);
    }
    for (metric, value, unit) in rows {
        table.row(vec![metric, value, unit.to_string()]);
    }
    let world = run.state_at(run.total_ops());
    let buckets = [
        (Bucket::User, "user"),
        (Bucket::Sys, "sys"),
        (Bucket::Runnable, "runnable"),
        (Bucket::Blocked, "blocked"),
        (Bucket::Sleep, "sleep"),
    ];
    for (index, task) in run.layout.tasks.iter().enumerate() {
        let times = world.task_times(TaskId(index as u32));
        for (bucket, key) in buckets {
            table.row(vec![
                format!("task.{}.{key}", task.name),
                times[bucket as usize].to_string(),
                "ns".into(),
            ]);
        }
    }
    table
}

/// A metric's leaves with dotted paths (`list.0`, `object.key`).
fn flatten(rows: &mut Vec<(String, String, &'static str)>, path: String, metric: &Metric) {
    match metric {
        Metric::Count(value) => rows.push((path, value.to_string(), "count")),
        Metric::Ns(value) => rows.push((path, value.to_string(), "ns")),
        Metric::Ratio(value) => rows.push((path, Shortest(*value).to_string(), "ratio")),
        Metric::Text(text) => rows.push((path, text.clone(), "")),
        Metric::None(value) => rows.push((path, value.map(|v| v.to_string()).unwrap_or_default(), "")),
        Metric::List(items) => {
            for (index, item) in items.iter().enumerate() {
                flatten(rows, format!("{path}.{index}"), item);
            }
        }
        Metric::Object(fields) => {
            for (key, item) in fields {
                flatten(rows, format!("{path}.{key}"), item);
            }
        }
    }
}

/// The metrics table as CSV text.
pub fn metrics_csv(meta: &CaseMeta, run: &Run) -> String {
    metrics_table(meta, run).to_csv()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_with_commas_quotes_or_breaks_are_quoted() {
        let mut table = Table::new("t", &["a", "b"]);
        table.row(vec!["1,2".into(), "say \"hi\"".into()]);
        table.row(vec!["plain".into(), "two\nlines".into()]);
        assert_eq!(table.to_csv(), "a,b\n\"1,2\",\"say \"\"hi\"\"\"\nplain,\"two\nlines\"\n");
    }
}
