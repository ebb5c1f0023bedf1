//! Drawing a frame on the canvas: background, axis, lock rows, task rows and playhead, in device pixels.

use super::cache::RunCache;
use super::layout::{Geometry, AXIS_H, GUTTER_MIN, LOCK_ROW_H, ROW_H_ROOMY, SECTION_GAP};
use super::theme::{hatch_of, is_thin, Hatch, Palette, STATES};
use super::{Timeline, TimelineProps};
use crate::player::viewport::{
    aggregate_track, ticks, LockRaster, MaskRun, PixelRun, TickFormat, Window, HELD_READ, HELD_WRITE,
    REPEATED, WAITED,
};
use slowpath_engine::run::timeline::SpanState;
use std::fmt::Write as _;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{CanvasRenderingContext2d, Element, HtmlCanvasElement};

/// Axis labels are at least this far apart.
const TICK_GAP: f64 = 100.0;
/// A repeated lock span wider than this (device px / dpr) gets its "×N" label.
const REPEAT_LABEL_MIN_W: f64 = 44.0;

/// Reused every frame.
#[derive(Default)]
pub(super) struct Scratch {
    runs: Vec<PixelRun>,
    masks: Vec<MaskRun>,
    raster: LockRaster,
    /// Rectangles (device px) per task state, filled in one path each.
    rects: [Vec<[f64; 4]>; STATES],
    /// Lock rectangles: read, write, wait, repeated.
    lock_rects: [Vec<[f64; 4]>; 4],
    text: String,
}

fn now_ms() -> f64 {
    web_sys::window().and_then(|window| window.performance()).map_or(0.0, |performance| performance.now())
}

impl Timeline {
    pub(super) fn draw(&mut self, props: &TimelineProps) {
        let began = now_ms();
        let Some(canvas) = self.canvas.cast::<HtmlCanvasElement>() else { return };
        if self.context.is_none() {
            let options = js_sys::Object::new();
            let _ = js_sys::Reflect::set(&options, &JsValue::from_str("alpha"), &JsValue::FALSE);
            self.context = canvas
                .get_context_with_context_options("2d", &options)
                .ok()
                .flatten()
                .and_then(|context| context.dyn_into::<CanvasRenderingContext2d>().ok());
        }
        let Some(context) = self.context.clone() else { return };
        if self.palette.is_none() {
            if let Some(root) = self.root.cast::<Element>() {
                self.palette = Some(Palette::read(&root));
            }
        }
        let dpr = self.dpr;
        let Some(palette) = self.palette.as_mut() else { return };
        palette.ensure_patterns(&context, dpr);
        if self.cache.label_w.is_none() {
            context.set_font(&format!("700 13px {}", palette.font_family));
            let measured =
                context.measure_text(&self.cache.longest_name).map_or(GUTTER_MIN, |metrics| metrics.width());
            self.cache.label_w = Some(measured);
        }
        let geometry = self.geometry(&props.run);
        let device_w = (geometry.width * dpr).round().max(1.0) as u32;
        let device_h = (geometry.view_h * dpr).round().max(1.0) as u32;
        if canvas.width() != device_w {
            canvas.set_width(device_w);
        }
        if canvas.height() != device_h {
            canvas.set_height(device_h);
        }
        let palette = self.palette.as_ref().expect("read above");
        let scene = Scene {
            context: &context,
            palette,
            dpr,
            w: f64::from(device_w),
            h: f64::from(device_h),
            plot_x0: (geometry.gutter * dpr).round(),
            columns: ((geometry.plot_w * dpr).round().max(1.0)) as u32,
            window: self.window,
            geometry,
        };
        scene.background();
        scene.axis(&mut self.scratch.text);
        scene.locks(props, &self.cache, &mut self.scratch);
        scene.tasks(props, self.scroll_top, &mut self.scratch);
        scene.playhead(props.now_ns);
        let elapsed = now_ms() - began;
        if let Some(window) = web_sys::window() {
            let _ = js_sys::Reflect::set(
                &window,
                &JsValue::from_str("__slowpathTimelineDrawMs"),
                &elapsed.into(),
            );
        }
    }
}

/// One frame's drawing context; everything in device pixels.
struct Scene<'a> {
    context: &'a CanvasRenderingContext2d,
    palette: &'a Palette,
    dpr: f64,
    w: f64,
    h: f64,
    plot_x0: f64,
    columns: u32,
    window: Window,
    geometry: Geometry,
}

impl Scene<'_> {
    fn px(&self, css: f64) -> f64 {
        (css * self.dpr).round()
    }

    fn font(&self, weight: u32, size_css: f64) {
        self.context.set_font(&format!(
            "{weight} {}px {}",
            slowpath_engine::run::format::Shortest((size_css * self.dpr).round()),
            self.palette.font_family
        ));
    }

    fn fill_rects(&self, rects: &[[f64; 4]], colour: &str, hatch: Option<Hatch>) {
        if rects.is_empty() {
            return;
        }
        let context = self.context;
        context.begin_path();
        for &[x, y, w, h] in rects {
            context.rect(x, y, w, h);
        }
        context.set_fill_style_str(colour);
        context.fill();
        if let Some(pattern) = hatch.and_then(|hatch| self.palette.pattern(hatch)) {
            context.set_fill_style_canvas_pattern(pattern);
            context.fill();
        }
    }

    fn background(&self) {
        let context = self.context;
        context.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0).ok();
        context.set_fill_style_str(&self.palette.bg);
        context.fill_rect(0.0, 0.0, self.w, self.h);
        // The gutter's edge.
        context.set_fill_style_str(&self.palette.rule);
        context.fill_rect(self.plot_x0 - self.px(1.0).max(1.0), 0.0, self.px(1.0).max(1.0), self.h);
    }

    fn axis(&self, text: &mut String) {
        let context = self.context;
        let axis_h = self.px(AXIS_H);
        let width = f64::from(self.columns);
        let (first, step) = ticks(self.window, width, TICK_GAP * self.dpr);
        let format = TickFormat::new(step, self.window.end().max(0.0) as u64);
        let line = self.px(1.0).max(1.0);
        // Grid lines through every row, and ticks on the axis.
        context.begin_path();
        let mut t = first;
        while (t as f64) <= self.window.end() {
            let x = self.plot_x0 + self.window.x_of(t as f64, width).round();
            context.rect(x, axis_h, line, self.h - axis_h);
            match t.checked_add(step) {
                Some(next) => t = next,
                None => break,
            }
        }
        context.set_fill_style_str(&self.palette.grid);
        context.fill();
        context.set_fill_style_str(&self.palette.rule);
        context.fill_rect(self.plot_x0, axis_h - line, width, line);
        self.font(500, 13.0);
        context.set_text_baseline("middle");
        context.set_text_align("left");
        let mut t = first;
        while (t as f64) <= self.window.end() {
            let x = self.plot_x0 + self.window.x_of(t as f64, width).round();
            context.set_fill_style_str(&self.palette.rule);
            context.fill_rect(x, axis_h - self.px(7.0), line, self.px(7.0));
            text.clear();
            format.write(text, t);
            let fits = x < self.w - self.px(120.0)
                || context
                    .measure_text(text)
                    .is_ok_and(|metrics| x + self.px(4.0) + metrics.width() <= self.w);
            if fits {
                context.set_fill_style_str(&self.palette.muted);
                let _ = context.fill_text(text, x + self.px(4.0), axis_h / 2.0 - self.px(2.0));
            }
            match t.checked_add(step) {
                Some(next) => t = next,
                None => break,
            }
        }
        // The axis's own label, in the gutter.
        context.set_fill_style_str(&self.palette.muted);
        let _ = context.fill_text("time", self.px(8.0), axis_h / 2.0 - self.px(2.0));
    }

    fn locks(&self, props: &TimelineProps, cache: &RunCache, scratch: &mut Scratch) {
        let locks = &props.run.layout.locks;
        if locks.is_empty() {
            return;
        }
        let context = self.context;
        let timeline = &props.timeline;
        let row_h = self.px(LOCK_ROW_H);
        let inset = self.px(3.0);
        let hold_h = ((row_h - 2.0 * inset) * 0.58).round();
        let wait_gap = self.px(2.0);
        let wait_h = row_h - 2.0 * inset - hold_h - wait_gap;
        let width = f64::from(self.columns);
        for rects in &mut scratch.lock_rects {
            rects.clear();
        }
        let (from, to) = (self.window.start, self.window.end());
        for (lock, _) in locks.iter().enumerate() {
            let y = self.px(AXIS_H) + lock as f64 * row_h;
            let spans = cache.locks.spans_in(timeline, lock, from, to);
            scratch.raster.rasterize(spans, self.window, self.columns, &mut scratch.masks);
            for run in &scratch.masks {
                let x = self.plot_x0 + f64::from(run.x0);
                let w = f64::from(run.x1 - run.x0);
                let hold = [x, y + inset, w, hold_h];
                if run.mask & HELD_WRITE != 0 {
                    scratch.lock_rects[1].push(hold);
                } else if run.mask & HELD_READ != 0 {
                    scratch.lock_rects[0].push(hold);
                }
                if run.mask & REPEATED != 0 {
                    scratch.lock_rects[3].push(hold);
                }
                if run.mask & WAITED != 0 {
                    scratch.lock_rects[2].push([x, y + inset + hold_h + wait_gap, w, wait_h]);
                }
            }
        }
        self.fill_rects(&scratch.lock_rects[0], &self.palette.read, None);
        self.fill_rects(&scratch.lock_rects[1], &self.palette.write, None);
        self.fill_rects(&scratch.lock_rects[2], &self.palette.wait, Some(Hatch::Cross));
        if let Some(pattern) = self.palette.pattern(Hatch::Bars) {
            if !scratch.lock_rects[3].is_empty() {
                context.begin_path();
                for &[x, y, w, h] in &scratch.lock_rects[3] {
                    context.rect(x, y, w, h);
                }
                context.set_fill_style_canvas_pattern(pattern);
                context.fill();
            }
        }
        // "×N" on repeated spans wide enough to hold it, and the lock names.
        self.font(700, 12.0);
        context.set_text_baseline("middle");
        context.set_text_align("center");
        let min_w = REPEAT_LABEL_MIN_W * self.dpr;
        for (lock, _) in locks.iter().enumerate() {
            let y = self.px(AXIS_H) + lock as f64 * row_h;
            for span in cache.locks.spans_in(timeline, lock, from, to).filter(|span| span.repeats > 1) {
                let x0 = self.window.x_of(span.start_ns as f64, width).max(0.0);
                let x1 = self.window.x_of(span.end_ns as f64, width).min(width);
                if x1 - x0 < min_w {
                    continue;
                }
                scratch.text.clear();
                let _ = write!(scratch.text, "×{}", span.repeats);
                let text_w = context.measure_text(&scratch.text).map_or(0.0, |metrics| metrics.width());
                if text_w + self.px(8.0) > x1 - x0 {
                    continue;
                }
                let centre = self.plot_x0 + (x0 + x1) / 2.0;
                context.set_fill_style_str(&self.palette.bg);
                context.fill_rect(
                    (centre - text_w / 2.0 - self.px(3.0)).round(),
                    y + inset,
                    (text_w + self.px(6.0)).round(),
                    hold_h,
                );
                context.set_fill_style_str(&self.palette.text);
                let _ = context.fill_text(&scratch.text, centre, y + inset + hold_h / 2.0);
            }
        }
        context.set_text_align("left");
        self.font(700, 13.0);
        context.set_fill_style_str(&self.palette.text);
        context.save();
        context.begin_path();
        context.rect(0.0, 0.0, self.plot_x0 - self.px(6.0), self.h);
        context.clip();
        for (lock, info) in locks.iter().enumerate() {
            let y = self.px(AXIS_H) + lock as f64 * row_h;
            let _ = context.fill_text(&info.name, self.px(8.0), y + row_h / 2.0);
        }
        context.restore();
        // The rule between locks and tasks.
        let y = self.px(AXIS_H) + locks.len() as f64 * row_h + self.px(SECTION_GAP / 2.0);
        context.set_fill_style_str(&self.palette.rule);
        context.fill_rect(0.0, y, self.w, self.px(1.0).max(1.0));
    }

    fn tasks(&self, props: &TimelineProps, scroll_top: f64, scratch: &mut Scratch) {
        let context = self.context;
        let tasks = &props.run.layout.tasks;
        let timeline = &props.timeline;
        let geometry = self.geometry;
        let top = self.px(geometry.header_h);
        let row_h = geometry.row_h * self.dpr;
        let dense = geometry.row_h < ROW_H_ROOMY;
        let inset = self.px(if dense { 2.0 } else { 3.0 }).max(1.0);
        let bar_h = (row_h - 2.0 * inset).round().max(1.0);
        let thin_h = (bar_h / 4.0).round().max(self.px(2.0));
        let rows = geometry.visible_rows(scroll_top, tasks.len());
        let row_y = |row: usize| (top + (row as f64 * geometry.row_h - scroll_top) * self.dpr).round();
        context.save();
        context.begin_path();
        context.rect(0.0, top, self.w, self.h - top);
        context.clip();
        // Alternate rows are shaded a little, so a row is easy to follow across.
        context.begin_path();
        for row in rows.clone().filter(|row| row % 2 == 1) {
            context.rect(0.0, row_y(row), self.w, row_y(row + 1) - row_y(row));
        }
        context.set_fill_style_str(&self.palette.row_alt);
        context.fill();
        for rects in &mut scratch.rects {
            rects.clear();
        }
        for row in rows.clone() {
            let Some(track) = timeline.tracks.get(row) else { continue };
            let y = row_y(row) + inset;
            aggregate_track(track, timeline.end_ns, self.window, self.columns, &mut scratch.runs);
            for run in &scratch.runs {
                let x = self.plot_x0 + f64::from(run.x0);
                let w = f64::from(run.x1 - run.x0);
                let rect = if is_thin(run.state) {
                    [x, y + ((bar_h - thin_h) / 2.0).round(), w, thin_h]
                } else {
                    [x, y, w, bar_h]
                };
                scratch.rects[run.state as usize].push(rect);
            }
        }
        for state in SpanState::ALL {
            self.fill_rects(
                &scratch.rects[state as usize],
                &self.palette.states[state as usize],
                hatch_of(state),
            );
        }
        // Names in the gutter.
        context.begin_path();
        context.rect(0.0, top, self.plot_x0 - self.px(6.0), self.h - top);
        context.clip();
        self.font(500, if dense { 11.0 } else { 13.0 });
        context.set_text_baseline("middle");
        context.set_text_align("left");
        context.set_fill_style_str(&self.palette.text);
        for row in rows {
            if let Some(task) = tasks.get(row) {
                let _ = context.fill_text(&task.name, self.px(8.0), row_y(row) + row_h / 2.0);
            }
        }
        context.restore();
    }

    fn playhead(&self, now_ns: u64) {
        let context = self.context;
        let width = f64::from(self.columns);
        let x = self.window.x_of(now_ns as f64, width);
        if !(-1.0..=width + 1.0).contains(&x) {
            return;
        }
        let x = self.plot_x0 + x.round();
        let line = self.px(2.0).max(2.0);
        let halo = self.px(1.0).max(1.0);
        context.set_fill_style_str(&self.palette.halo);
        context.fill_rect(x - line / 2.0 - halo, 0.0, line + 2.0 * halo, self.h);
        context.set_fill_style_str(&self.palette.playhead);
        context.fill_rect(x - line / 2.0, 0.0, line, self.h);
        // A marker on the axis.
        let size = self.px(6.0);
        context.begin_path();
        context.move_to(x - size, 0.0);
        context.line_to(x + size, 0.0);
        context.line_to(x, size * 1.4);
        context.close_path();
        context.fill();
    }
}
