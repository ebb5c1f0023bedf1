//! The real measurements the `today` variants are checked against: the rows of
//! `tools/measure/<case>/results.tsv` (taken on the project's machine, Linux 6.18.44,
//! 2026-11-30; provenance in each file's `#` header and its folder's README), read
//! as they are committed, so that the tests and the files cannot drift apart.
#![allow(dead_code)]

use std::collections::BTreeMap;

pub const SPARSE_DUMP: &str = include_str!("../../../tools/measure/sparse-dump/results.tsv");
pub const COREDUMP_THREADS: &str = include_str!("../../../tools/measure/coredump-threads/results.tsv");
pub const FIFO_TRIGGER: &str = include_str!("../../../tools/measure/fifo-trigger/results.tsv");

/// One measured row, by column name.
pub struct Row<'a>(BTreeMap<&'a str, &'a str>);

impl<'a> Row<'a> {
    pub fn text(&self, column: &str) -> &'a str {
        self.0.get(column).copied().unwrap_or_else(|| panic!("no column {column}"))
    }

    pub fn number(&self, column: &str) -> f64 {
        let text = self.text(column);
        text.parse().unwrap_or_else(|_| panic!("{column} = {text:?} is not a number"))
    }
}

/// The rows of a results file: `#` lines are provenance, the first other line names
/// the columns, tab-separated.
pub fn rows(file: &str) -> Vec<Row<'_>> {
    let mut lines = file.lines().filter(|line| !line.starts_with('#') && !line.trim().is_empty());
    let header: Vec<&str> = lines.next().expect("a header line").split('\t').collect();
    lines
        .map(|line| {
            let cells: Vec<&str> = line.split('\t').collect();
            assert_eq!(cells.len(), header.len(), "a row with as many cells as columns: {line}");
            Row(header.iter().copied().zip(cells).collect())
        })
        .collect()
}

pub fn median(mut values: Vec<f64>) -> f64 {
    assert!(!values.is_empty(), "a median of something");
    values.sort_by(|a, b| a.total_cmp(b));
    let middle = values.len() / 2;
    if values.len() % 2 == 1 {
        values[middle]
    } else {
        (values[middle - 1] + values[middle]) / 2.0
    }
}

/// The least-squares slope of `y` against `x`.
pub fn slope(points: &[(f64, f64)]) -> f64 {
    let n = points.len() as f64;
    let mean_x = points.iter().map(|p| p.0).sum::<f64>() / n;
    let mean_y = points.iter().map(|p| p.1).sum::<f64>() / n;
    let covariance: f64 = points.iter().map(|p| (p.0 - mean_x) * (p.1 - mean_y)).sum();
    let variance: f64 = points.iter().map(|p| (p.0 - mean_x).powi(2)).sum();
    covariance / variance
}
