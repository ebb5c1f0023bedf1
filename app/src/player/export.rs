//! The export row below the player: the run on screen as a Perfetto trace, CSV (the
//! figures, the case's plot tables) and SVG (the timeline, the case's charts), saved
//! as files named `<case>-<variant>-<position>[-<part>].<ext>`.
//!
//! The engine writes the text (`slowpath_engine::export`) from the run the page
//! already holds; the Perfetto file is bounded there (`perfetto::EFFECTS_MAX`), so a
//! click never holds the page for long. A file is saved through a Blob URL. The
//! stage's and the case's canvases are saved as PNG at twice their CSS size: each is
//! redrawn at pixel ratio 2 (`canvas::set_export_scale`), copied, then redrawn as before.

use slowpath_engine::export::{chart, csv, file_name, part_file_name, perfetto, svg};
use slowpath_engine::Run;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

#[derive(Properties)]
pub struct ExportProps {
    pub run: Rc<Run>,
    pub position: u64,
    /// The run's case, for its parameters, tables and charts (None: a preset's run).
    pub case: Option<&'static dyn slowpath_engine::Case>,
}

impl PartialEq for ExportProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.run, &other.run) && self.position == other.position
    }
}

/// What one button saves.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Perfetto,
    Metrics,
    /// The case's plot table with this index in `Case::csv_tables`.
    Table(usize),
    /// The case's chart with this index in `Case::charts`.
    Chart(usize),
    Svg,
}

#[function_component(ExportPanel)]
pub fn export_panel(props: &ExportProps) -> Html {
    let status = use_state(|| None::<String>);
    // The case's table and chart names, once per run (the position changes on every step).
    let parts = {
        let (run, case) = (props.run.clone(), props.case);
        use_memo((run.case, run.trace_hash), move |_| -> (Vec<&'static str>, Vec<&'static str>) {
            let Some(case) = case else { return Default::default() };
            (
                case.csv_tables(&run).iter().map(|table| table.name).collect(),
                case.charts(&run).iter().map(|chart| chart.name).collect(),
            )
        })
    };
    let (tables, charts) = &*parts;
    let save = |kind: Kind| {
        let (run, case) = (props.run.clone(), props.case);
        let position = props.position;
        let status = status.clone();
        Callback::from(move |_: MouseEvent| {
            let Some(case) = case else { return };
            let Some(file) = export_file(case, &run, position, kind) else { return };
            status.set(Some(save_and_say(kind, file)));
        })
    };
    let save_png = {
        let run = props.run.clone();
        let position = props.position;
        let status = status.clone();
        Callback::from(move |_: MouseEvent| {
            super::canvas::set_export_scale(PNG_SCALE);
            let (run, status) = (run.clone(), status.clone());
            // Yew redraws on its next turn; the copy is taken after it.
            gloo::timers::callback::Timeout::new(100, move || {
                let saved = save_canvases(&run, position);
                super::canvas::set_export_scale(0.0);
                status.set(Some(if saved.is_empty() {
                    "This case's stage and charts are drawn in HTML, not on a canvas: use the timeline's SVG, or \
                     the browser's own screenshot."
                        .to_string()
                } else {
                    format!("Saved {} at twice its size.", saved.join(", "))
                }));
            })
            .forget();
        })
    };
    html! {
        <div class="export" data-testid="export">
            <h2>{ "Export this run" }</h2>
            <p class="export-hint">{ "Every file is this run at this moment: the same link gives the same file. \
                The Perfetto trace opens at ui.perfetto.dev (\"Open trace file\"); each task is a thread, each lock a track." }</p>
            <div class="export-buttons">
                <button type="button" data-testid="export-perfetto" onclick={save(Kind::Perfetto)}>
                    { "Open in Perfetto (JSON trace)" }</button>
                <button type="button" data-testid="export-svg" onclick={save(Kind::Svg)}>{ "Timeline (SVG)" }</button>
                { for charts.iter().enumerate().map(|(index, name)| html! {
                    <button type="button" key={format!("chart-{name}")} data-testid={format!("export-chart-{name}")}
                        onclick={save(Kind::Chart(index))}>{ format!("{name} chart (SVG)") }</button>
                }) }
                <button type="button" data-testid="export-png" onclick={save_png}>{ "Stage canvases (PNG, 2×)" }</button>
                <button type="button" data-testid="export-csv" onclick={save(Kind::Metrics)}>{ "Figures (CSV)" }</button>
                { for tables.iter().enumerate().map(|(index, name)| html! {
                    <button type="button" key={*name} data-testid={format!("export-csv-{name}")}
                        onclick={save(Kind::Table(index))}>{ format!("{name} (CSV)") }</button>
                }) }
            </div>
            <p class="export-status" role="status" data-testid="export-status">
                { status.as_ref().cloned().unwrap_or_default() }</p>
        </div>
    }
}

/// The file one button saves: its name, its text and its type; none when the case
/// has no such table or chart.
fn export_file(
    case: &'static dyn slowpath_engine::Case,
    run: &Run,
    position: u64,
    kind: Kind,
) -> Option<(String, String, &'static str)> {
    let meta = case.meta();
    Some(match kind {
        Kind::Perfetto => {
            (file_name(run, position, "json"), perfetto::perfetto_json(meta, run), "application/json")
        }
        Kind::Metrics => (file_name(run, position, "csv"), csv::metrics_csv(meta, run), "text/csv"),
        Kind::Table(index) => {
            let table = case.csv_tables(run).into_iter().nth(index)?;
            (part_file_name(run, position, table.name, "csv"), table.to_csv(), "text/csv")
        }
        Kind::Chart(index) => {
            let chart = case.charts(run).into_iter().nth(index)?;
            (part_file_name(run, position, chart.name, "svg"), chart::chart_svg(&chart), "image/svg+xml")
        }
        Kind::Svg => {
            (file_name(run, position, "svg"), svg::timeline_svg(run, Some(position)), "image/svg+xml")
        }
    })
}

/// Saves the file and says what came of it; a Perfetto trace says how to open it.
fn save_and_say(kind: Kind, (name, text, mime): (String, String, &'static str)) -> String {
    let size = slowpath_engine::run::format::size(text.len() as u64);
    match text_blob(&text, mime).and_then(|blob| download(&name, &blob)) {
        Ok(()) if kind == Kind::Perfetto => format!(
            "Saved {name} ({size}). To open it: go to ui.perfetto.dev, choose \"Open trace file\" \
             and pick the file (it stays on your computer). Each task is a thread; the locks are a \
             process of their own."
        ),
        Ok(()) => format!("Saved {name} ({size})."),
        Err(()) => "This browser would not save the file.".to_string(),
    }
}

/// The pixel ratio of a PNG export.
const PNG_SCALE: f64 = 2.0;

/// Every canvas of the stage and of the case's charts, each saved as
/// `<case>-<variant>-<position>-canvas<k>.png`; returns the names.
fn save_canvases(run: &Run, position: u64) -> Vec<String> {
    let Ok(found) = gloo::utils::document()
        .query_selector_all("[data-testid=\"case-stage\"] canvas, #details-case canvas")
    else {
        return Vec::new();
    };
    let mut names = Vec::new();
    for index in 0..found.length() {
        let Some(canvas) =
            found.item(index).and_then(|node| node.dyn_into::<web_sys::HtmlCanvasElement>().ok())
        else {
            continue;
        };
        let name = part_file_name(run, position, &format!("canvas{}", index + 1), "png");
        let target = name.clone();
        // The bitmap is copied when toBlob is called; encoding finishes later.
        let done = wasm_bindgen::closure::Closure::once_into_js(move |blob: Option<web_sys::Blob>| {
            if let Some(blob) = blob {
                let _ = download(&target, &blob);
            }
        });
        if canvas.to_blob(done.unchecked_ref()).is_ok() {
            names.push(name);
        }
    }
    names
}

fn text_blob(text: &str, mime: &str) -> Result<web_sys::Blob, ()> {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).map_err(|_| ())
}

/// Saves `blob` as a file called `name`: a Blob URL on a clicked `<a download>`.
fn download(name: &str, blob: &web_sys::Blob) -> Result<(), ()> {
    let url = web_sys::Url::create_object_url_with_blob(blob).map_err(|_| ())?;
    let document = gloo::utils::document();
    let link: web_sys::HtmlAnchorElement =
        document.create_element("a").map_err(|_| ())?.dyn_into().map_err(|_| ())?;
    link.set_href(&url);
    link.set_download(name);
    link.click();
    // The browser has taken the file once the click's task is over.
    gloo::timers::callback::Timeout::new(0, move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    })
    .forget();
    Ok(())
}

#[derive(Properties, Clone)]
pub struct PlotExportProps {
    pub run: Rc<Run>,
    /// The plot as drawn, its points from many runs (a scaling plot, a sweep); None
    /// when the chart's axes cannot hold it (negative values).
    pub chart: Option<Rc<chart::Chart>>,
    /// Its points as a table.
    pub table: Rc<csv::Table>,
}

impl PartialEq for PlotExportProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.run, &other.run) && self.chart == other.chart && self.table == other.table
    }
}

/// "Save as SVG / CSV" under a plot made of many runs: the export panel's files
/// come from the run on screen, these from the plot's own points. The file is named
/// after the run and the plot (`<case>-<variant>-<end>-<plot>.svg`): its figures
/// are whole runs, so the position is the run's end.
#[function_component(PlotExport)]
pub fn plot_export(props: &PlotExportProps) -> Html {
    let status = use_state(|| None::<String>);
    let save = |svg: bool| {
        let (run, chart, table, status) =
            (props.run.clone(), props.chart.clone(), props.table.clone(), status.clone());
        Callback::from(move |_: MouseEvent| {
            let end = run.total_ops();
            let (name, text, mime) = match (&chart, svg) {
                (Some(chart), true) => {
                    (part_file_name(&run, end, chart.name, "svg"), chart::chart_svg(chart), "image/svg+xml")
                }
                _ => (part_file_name(&run, end, table.name, "csv"), table.to_csv(), "text/csv"),
            };
            let size = slowpath_engine::run::format::size(text.len() as u64);
            status.set(Some(match text_blob(&text, mime).and_then(|blob| download(&name, &blob)) {
                Ok(()) => format!("Saved {name} ({size})."),
                Err(()) => "This browser would not save the file.".to_string(),
            }));
        })
    };
    html! {
        <div class="plot-export" data-testid="plot-export">
            if props.chart.is_some() {
                <button type="button" onclick={save(true)} data-testid="plot-export-svg">{ "Save the plot as SVG" }</button>
            }
            <button type="button" onclick={save(false)} data-testid="plot-export-csv">{ "Its points as CSV" }</button>
            if let Some(said) = &*status {
                <span role="status" class="plot-export-status">{ said.clone() }</span>
            }
        </div>
    }
}
