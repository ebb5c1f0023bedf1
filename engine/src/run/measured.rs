//! Figures measured on a real kernel, read from the results files that
//! `tools/measure/` commits. A case that has a `today` variant names one such
//! figure ([`TodayCheck`]) for the page's "Today" panel: the measurement beside the
//! model's `today` run and the report. Nothing here is typed: the value is the
//! median of the file's rows, the kernel, date and machine its `#` header. The
//! file is read as committed: the page fetches it from the build (`measure/…`,
//! copied there by Trunk, so it is not in the wasm), the tests from the repository.

/// One row of a results file, by column name.
pub struct Row<'a> {
    header: &'a [&'a str],
    cells: Vec<&'a str>,
}

impl<'a> Row<'a> {
    pub fn text(&self, column: &str) -> Option<&'a str> {
        let index = self.header.iter().position(|name| *name == column)?;
        self.cells.get(index).copied()
    }

    pub fn number(&self, column: &str) -> Option<f64> {
        crate::run::format::parse_decimal(self.text(column)?)
    }
}

/// A measured figure the "Today" panel shows, and the model run to set beside it.
#[derive(Debug)]
pub struct TodayCheck {
    /// Where the results file lives in the repository (`tools/measure/<case>/results.tsv`).
    pub results_path: &'static str,
    /// What was measured, in words.
    pub what: &'static str,
    /// The model's run for the same thing: variant, parameters (as links write
    /// them), and the metric to read.
    pub variant: &'static str,
    pub params: &'static [(&'static str, &'static str)],
    pub metric: &'static str,
    /// A row's value in milliseconds when it belongs to this figure.
    pub select: fn(&Row<'_>) -> Option<f64>,
    /// How noisy the reference is: rows grouped by a number (the thread count),
    /// each group's spread shown beside the model; none for a case without one.
    pub spread: Option<SpreadBy>,
}

/// Which rows make the spread table, grouped by a whole number, and what they are.
#[derive(Clone, Copy, Debug)]
pub struct SpreadBy {
    /// What the rows are, in words ("spinning threads, SIGQUIT: every session's runs").
    pub what: &'static str,
    /// A row's group (a thread count) and value in milliseconds, when it belongs.
    pub group: fn(&Row<'_>) -> Option<(u64, f64)>,
}

/// One group's measured spread, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spread {
    pub group: u64,
    pub runs: usize,
    pub min_ms: f64,
    pub median_ms: f64,
    pub max_ms: f64,
}

/// Where and when a results file was measured, from its `# kernel:`, `# date:` and
/// `# CPU:` header lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Provenance {
    pub kernel: String,
    pub date: String,
    pub machine: String,
}

impl TodayCheck {
    /// Where the web build serves the results file (`measure/<case>/results.tsv`).
    pub fn url(&self) -> &'static str {
        self.results_path.strip_prefix("tools/").unwrap_or(self.results_path)
    }

    /// The selected rows' values of `results` (the file's text) in milliseconds,
    /// in file order; none when the file has no header or no such row.
    pub fn selected_ms(&self, results: &str) -> Vec<f64> {
        let Some(header) = data_lines(results).next() else { return Vec::new() };
        let header: Vec<&str> = header.split('\t').collect();
        data_lines(results)
            .skip(1)
            .map(|line| Row { header: &header, cells: line.split('\t').collect() })
            .filter_map(|row| (self.select)(&row))
            .filter(|value| value.is_finite() && *value >= 0.0)
            .collect()
    }

    /// The median of the selected rows of `results` (the file's text) in
    /// nanoseconds, and how many rows.
    pub fn measured_ns(&self, results: &str) -> Option<(u64, usize)> {
        let values = self.selected_ms(results);
        let count = values.len();
        median(values).map(|median_ms| ((median_ms * 1e6).round() as u64, count))
    }

    /// The spread of each group of `results` (the file's text), smallest group first.
    pub fn spreads(&self, results: &str) -> Vec<Spread> {
        let Some(by) = self.spread else { return Vec::new() };
        let mut groups: std::collections::BTreeMap<u64, Vec<f64>> = std::collections::BTreeMap::new();
        each_row(results, |row| {
            if let Some((group, ms)) = (by.group)(row) {
                if ms.is_finite() && ms >= 0.0 {
                    groups.entry(group).or_default().push(ms);
                }
            }
        });
        groups
            .into_iter()
            .filter_map(|(group, values)| {
                let min_ms = values.iter().copied().fold(f64::INFINITY, f64::min);
                let max_ms = values.iter().copied().fold(0.0, f64::max);
                let runs = values.len();
                Some(Spread { group, runs, min_ms, median_ms: median(values)?, max_ms })
            })
            .collect()
    }

    /// Where and when `results` (the file's text) was measured.
    pub fn provenance(results: &str) -> Provenance {
        let field = |name: &str| {
            results
                .lines()
                .filter_map(|line| line.strip_prefix('#'))
                .find_map(|line| line.trim_start().strip_prefix(name))
                .map(|value| value.trim().to_string())
                .unwrap_or_default()
        };
        Provenance { kernel: field("kernel:"), date: field("date:"), machine: field("CPU:") }
    }
}

/// Calls `visit` with every row of `results` (a results file's text).
pub fn each_row(results: &str, mut visit: impl FnMut(&Row<'_>)) {
    let mut lines = data_lines(results);
    let Some(header) = lines.next() else { return };
    let header: Vec<&str> = header.split('\t').collect();
    for line in lines {
        visit(&Row { header: &header, cells: line.split('\t').collect() });
    }
}

/// The median of `values`, if there are any.
pub fn median(mut values: Vec<f64>) -> Option<f64> {
    values.retain(|value| value.is_finite());
    if values.is_empty() {
        return None;
    }
    crate::run::sort::sort_by(&mut values, f64::total_cmp);
    let middle = values.len() / 2;
    Some(if values.len() % 2 == 1 { values[middle] } else { (values[middle - 1] + values[middle]) / 2.0 })
}

fn data_lines(results: &str) -> impl Iterator<Item = &str> {
    results.lines().filter(|line| !line.starts_with('#') && !line.trim().is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "# kernel: uname -r = 6.1 (a test)\n# date: 2026-11-30\n# CPU: two cores\nkind\tn\tms\nx\t1\t3.0\nx\t2\t1.0\ny\t1\t9.0\nx\t3\t2.0\n";

    #[test]
    fn the_median_of_the_selected_rows_and_the_header() {
        let check = TodayCheck {
            results_path: "tools/measure/test/results.tsv",
            what: "a test",
            variant: "today",
            params: &[],
            metric: "m",
            select: |row| (row.text("kind") == Some("x")).then(|| row.number("ms")).flatten(),
            spread: Some(SpreadBy {
                what: "x rows by n",
                group: |row| {
                    Some((row.number("n")? as u64, row.number("ms")?))
                        .filter(|_| row.text("kind") == Some("x"))
                },
            }),
        };
        let spreads = check.spreads(FILE);
        assert_eq!(spreads.len(), 3);
        assert_eq!(
            (spreads[0].group, spreads[0].runs, spreads[0].min_ms, spreads[0].max_ms),
            (1, 1, 3.0, 3.0)
        );
        assert_eq!(check.selected_ms(FILE), vec![3.0, 1.0, 2.0]);
        assert_eq!(check.measured_ns(FILE), Some((2_000_000, 3)));
        assert!(check.selected_ms("").is_empty());
        assert_eq!(check.measured_ns("# only a comment\n"), None);
        assert_eq!(check.url(), "measure/test/results.tsv");
        let provenance = TodayCheck::provenance(FILE);
        assert_eq!(provenance.kernel, "uname -r = 6.1 (a test)");
        assert_eq!((provenance.date.as_str(), provenance.machine.as_str()), ("2026-11-30", "two cores"));
    }
    /// Every cell of the committed results files that the standard parser reads as a
    /// number is read to the same `f64` by `Row::number` (which has no float parser).
    #[test]
    fn every_committed_figure_reads_as_the_standard_parser_reads_it() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tools/measure");
        let mut numbers = 0;
        for case in std::fs::read_dir(&dir).expect("tools/measure") {
            let Ok(results) = std::fs::read_to_string(case.expect("an entry").path().join("results.tsv"))
            else {
                continue;
            };
            for line in data_lines(&results) {
                for cell in line.split('\t') {
                    if let Ok(expected) = cell.parse::<f64>() {
                        let ours = crate::run::format::parse_decimal(cell).map(f64::to_bits);
                        assert_eq!(ours, Some(expected.to_bits()), "{cell}");
                        numbers += 1;
                    }
                }
            }
        }
        assert!(numbers > 1_000, "the results files were read ({numbers} numbers)");
    }
}
