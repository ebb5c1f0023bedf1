//! CSV and SVG exports of every registered case's default run: well-formed,
//! deterministic, bounded, and carrying the run's own figures.

use slowpath_engine::export::{chart, csv, file_name, part_file_name, svg};
use slowpath_engine::run::world::TaskId;
use slowpath_engine::{run_checked, simulations};

/// Splits RFC 4180 text into rows of cells (quotes, doubled quotes, embedded breaks).
fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let (mut rows, mut row, mut cell, mut quoted) = (Vec::new(), Vec::new(), String::new(), false);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                cell.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => cell.push(c),
            (false, '"') => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut cell)),
            (false, '\n') => {
                row.push(std::mem::take(&mut cell));
                rows.push(std::mem::take(&mut row));
            }
            (false, c) => cell.push(c),
        }
    }
    assert!(!quoted && cell.is_empty() && row.is_empty(), "the text ends with a complete row");
    rows
}

#[test]
fn every_default_run_exports_rectangular_csv_with_the_runs_figures() {
    for case in simulations() {
        let meta = case.meta();
        let run = run_checked(case, &meta.default_params(), meta.default_variant().id, 1).expect("runs");
        let text = csv::metrics_csv(meta, &run);
        assert_eq!(text, csv::metrics_csv(meta, &run), "{}: deterministic", meta.id);
        let rows = parse_csv(&text);
        assert_eq!(rows[0], ["metric", "value", "unit"]);
        assert!(rows.iter().all(|row| row.len() == 3), "{}: three cells a row", meta.id);
        let value = |name: &str| rows.iter().find(|row| row[0] == name).map(|row| row[1].clone());
        assert_eq!(value("sim_time"), Some(run.end_ns.to_string()));
        let world = run.state_at(run.total_ops());
        let first = &run.layout.tasks[0].name;
        assert_eq!(value(&format!("task.{first}.sys")), Some(world.task_times(TaskId(0))[1].to_string()));
        for name in run.metrics.keys() {
            assert!(
                rows.iter().any(|row| row[0] == *name || row[0].starts_with(&format!("{name}."))),
                "{name}"
            );
        }
        for table in case.csv_tables(&run) {
            let rows = parse_csv(&table.to_csv());
            assert_eq!(rows[0], table.header, "{}: {}", meta.id, table.name);
            assert!(rows.len() > 1, "{}: {} has points", meta.id, table.name);
            assert!(rows.iter().all(|row| row.len() == table.header.len()), "{}: {}", meta.id, table.name);
        }
    }
}

#[test]
fn plot_tables_carry_the_cases_points() {
    let fifo = slowpath_engine::simulation("fifo-trigger").expect("registered");
    let run =
        run_checked(fifo, &fifo.meta().default_params(), fifo.meta().default_variant().id, 1).expect("runs");
    let tables = fifo.csv_tables(&run);
    let writes = tables.iter().find(|table| table.name == "writes").expect("per-write dt");
    assert_eq!(
        writes.rows.len() as u64,
        run.metrics.get("writes").map_or(0, |m| match m {
            slowpath_engine::Metric::Count(n) => *n,
            _ => 0,
        })
    );
    let gvisor = slowpath_engine::simulation("gvisor-threadgroups").expect("registered");
    let run =
        run_checked(gvisor, &gvisor.meta().default_params(), gvisor.meta().default_variant().id, 1).unwrap();
    assert!(gvisor.csv_tables(&run).iter().any(|table| table.name == "scaling" && table.rows.len() > 2));
}

#[test]
fn every_default_run_draws_a_bounded_svg_with_its_task_names_as_text() {
    for case in simulations() {
        let meta = case.meta();
        let run = run_checked(case, &meta.default_params(), meta.default_variant().id, 1).expect("runs");
        let text = svg::timeline_svg(&run, None);
        assert_eq!(text, svg::timeline_svg(&run, None), "{}: deterministic", meta.id);
        assert!(text.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\"") && text.ends_with("</svg>\n"));
        assert_eq!(text.matches("<text").count(), text.matches("</text>").count());
        assert_eq!(text.matches("<rect").count(), text.matches("</rect>").count() + 10, "{}", meta.id);
        for task in run.layout.tasks.iter().take(svg::ROWS_MAX) {
            assert!(text.contains(&format!(">{}</text>", task.name)), "{}: {}", meta.id, task.name);
        }
        for chapter in &run.chapters {
            assert!(text.contains(chapter.title), "{}: chapter {}", meta.id, chapter.title);
        }
        let rects = text.matches("<rect").count();
        assert!(rects <= 10 + svg::ROWS_MAX * 1000, "{}: bounded", meta.id);
        assert_eq!(
            file_name(&run, u64::MAX, "svg"),
            format!("{}-{}-{}.svg", meta.id, run.variant, run.total_ops())
        );
        assert_eq!(part_file_name(&run, 7, "a b", "csv"), format!("{}-{}-7-a_b.csv", meta.id, run.variant));
    }
}

#[test]
fn case_charts_draw_every_series_with_text_labels_and_bounded_marks() {
    let mut charts = 0;
    for case in simulations() {
        let meta = case.meta();
        let run = run_checked(case, &meta.default_params(), meta.default_variant().id, 1).expect("runs");
        for chart in case.charts(&run) {
            charts += 1;
            let text = chart::chart_svg(&chart);
            assert_eq!(text, chart::chart_svg(&chart), "{}: deterministic", meta.id);
            assert!(
                text.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\"") && text.ends_with("</svg>\n")
            );
            assert_eq!(text.matches("<text").count(), text.matches("</text>").count());
            let groups = text.matches("<g>").count() + text.matches("<g ").count();
            assert_eq!(groups, text.matches("</g>").count(), "{}: groups closed", meta.id);
            for series in &chart.series {
                assert!(!series.points.is_empty(), "{}: {} has points", meta.id, series.name);
                assert!(text.contains(&format!("<title>{}</title>", series.name.replace('&', "&amp;"))));
                assert_eq!(
                    series.low.len(),
                    if matches!(series.mark, chart::Mark::Band | chart::Mark::Range) {
                        series.points.len()
                    } else {
                        0
                    },
                    "{}: {} has a low end per point exactly when it draws spans",
                    meta.id,
                    series.name
                );
            }
            // Dots on one pixel are drawn once: at most one per pixel of the 900 × 520 picture.
            assert!(text.matches("<circle").count() <= 900 * 520, "{}: bounded", meta.id);
        }
    }
    assert!(charts >= 2, "the FIFO's dt chart and gVisor's scaling chart");
}

#[test]
fn the_dt_chart_has_one_dot_per_distinct_pixel_of_the_writes() {
    let fifo = slowpath_engine::simulation("fifo-trigger").expect("registered");
    let run =
        run_checked(fifo, &fifo.meta().default_params(), fifo.meta().default_variant().id, 1).expect("runs");
    let charts = fifo.charts(&run);
    let dt = charts.iter().find(|chart| chart.name == "dt").expect("the dt chart");
    let points: usize = dt.series.iter().map(|series| series.points.len()).sum();
    let writes = fifo.csv_tables(&run).into_iter().find(|table| table.name == "writes").expect("writes");
    assert_eq!(points, writes.rows.len(), "every write is a point");
    let dots = chart::chart_svg(dt).matches("<circle").count();
    assert!(dots > 0 && dots <= points, "{dots} dots for {points} writes");
}

/// A chart built from many runs (a scaling plot) on a log time axis: a gridline per
/// decade from the smallest value's to the largest's, labelled as durations, and its
/// points as a CSV table, one row per point with units.
#[test]
fn a_log_time_chart_has_a_gridline_per_decade_and_its_points_as_csv() {
    use chart::{Chart, Mark, Series, Unit};
    let chart = Chart {
        name: "scaling",
        title: "Time to die".to_string(),
        x_label: "threads",
        x_unit: Unit::Count,
        log_x: false,
        log_y: true,
        y_label: "time",
        y_unit: Unit::Ns,
        series: vec![
            Series::new("2005", "#d9534f", Mark::Line, vec![(20, 8_860_000_000), (100, 63_300_000_000)]),
            Series::new("today", "#17a2b8", Mark::Line, vec![(20, 20_500_000), (100, 89_800_000)]),
        ],
    };
    let svg = chart::chart_svg(&chart);
    assert!(svg.contains("(log scale)"), "the axis says it is logarithmic");
    // 20.5 ms lies in the 10 ms decade and 63.3 s below 100 s: 10 ms … 100 s, five decades.
    for tick in [">10 ms<", ">100 ms<", ">1 s<", ">10 s<", ">100 s<"] {
        assert!(svg.contains(tick), "a gridline labelled {tick}");
    }
    assert!(!svg.contains(">1 ms<"), "no decade below the smallest value's");
    let rows = parse_csv(&chart::series_table(&chart).to_csv());
    assert_eq!(rows[0], ["series", "x", "x_unit", "y", "y_unit"]);
    assert_eq!(rows.len(), 1 + 4);
    assert_eq!(rows[3], ["today", "20", "count", "20500000", "ns"]);
}

/// The timeline saved from a moment marks that moment; without one, none is drawn.
#[test]
fn the_timeline_svg_marks_the_moment_it_was_saved_at() {
    let case = slowpath_engine::simulation("rwsem-playground").expect("registered");
    let run = slowpath_engine::run_checked(
        case,
        &slowpath_engine::run::params::ParamValues::defaults(case.meta().params),
        case.meta().default_variant().id,
        1,
    )
    .expect("runs");
    let middle = run.total_ops() / 2;
    let marked = slowpath_engine::export::svg::timeline_svg(&run, Some(middle));
    let moment = slowpath_engine::run::format::duration(run.time_at(middle));
    assert!(marked.contains(&format!("this moment: {moment}")), "{moment}");
    assert!(!slowpath_engine::export::svg::timeline_svg(&run, None).contains("this moment"));
}
