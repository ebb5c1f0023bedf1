//! The timeline in words: the tooltip under the pointer (and where it goes) and the canvas's aria label.

use super::layout::{Geometry, AXIS_H, LOCK_ROW_H};
use super::{Timeline, TimelineProps};
use crate::player::viewport::{format_short, group_digits};
use slowpath_engine::run::lock::LockMode;
use slowpath_engine::run::narration::counted;
use slowpath_engine::run::timeline::LockSpanKind;

/// A tooltip: the text and where (CSS px from the canvas's corner).
pub(super) struct Tip {
    pub(super) text: String,
    pub(super) x: f64,
    pub(super) y: f64,
}

impl Timeline {
    /// What is under (x, y) (CSS px from the canvas's corner), in words.
    pub(super) fn hit_text(
        &self,
        props: &TimelineProps,
        geometry: &Geometry,
        x: f64,
        y: f64,
    ) -> Option<String> {
        if x < geometry.gutter || x > geometry.gutter + geometry.plot_w {
            return None;
        }
        let layout = &props.run.layout;
        let timeline = &props.timeline;
        let t = self.window.t_at(x - geometry.gutter, geometry.plot_w).max(0.0);
        let at = format_short(t.round() as u64);
        if y < AXIS_H {
            return Some(format!("{at}: click to jump here"));
        }
        let locks_bottom = AXIS_H + layout.locks.len() as f64 * LOCK_ROW_H;
        if y < locks_bottom {
            let lock = ((y - AXIS_H) / LOCK_ROW_H) as usize;
            let info = layout.locks.get(lock)?;
            // Within two pixels, so a one-pixel hold can be pointed at.
            let slack = 2.0 * self.window.ns_per_px(geometry.plot_w);
            let mut parts: [Vec<&str>; 3] = [Vec::new(), Vec::new(), Vec::new()];
            let mut repeats = 1;
            for span in self.cache.locks.spans_in(timeline, lock, t - slack, t + slack) {
                if (span.start_ns as f64) > t + slack || (span.end_ns as f64) < t - slack {
                    continue;
                }
                let name = layout.tasks.get(span.task.0 as usize).map_or("?", |task| task.name.as_str());
                let slot = match span.kind {
                    LockSpanKind::Hold(LockMode::Write) => 0,
                    LockSpanKind::Hold(LockMode::Read) => 1,
                    LockSpanKind::Wait => 2,
                };
                if !parts[slot].contains(&name) {
                    parts[slot].push(name);
                }
                repeats = repeats.max(span.repeats);
            }
            let names = |list: &[&str]| -> String {
                let shown = list.iter().take(4).copied().collect::<Vec<_>>().join(", ");
                match list.len() {
                    0..=4 => shown,
                    more => format!("{shown} and {} more", more - 4),
                }
            };
            let mut text = format!("{} at {at}: ", info.name);
            let mut said = Vec::new();
            if !parts[0].is_empty() {
                said.push(format!("held for write by {}", names(&parts[0])));
            }
            if !parts[1].is_empty() {
                said.push(format!("held for read by {}", names(&parts[1])));
            }
            if said.is_empty() {
                said.push("free".to_string());
            }
            if !parts[2].is_empty() {
                said.push(format!("waiting: {}", names(&parts[2])));
            }
            text.push_str(&said.join("; "));
            if repeats > 1 {
                text.push_str(&format!(" (one span for {} repeated holds)", group_digits(repeats)));
            }
            return Some(text);
        }
        if y < geometry.header_h {
            return None;
        }
        let row = ((y - geometry.header_h + self.scroll_top) / geometry.row_h).floor();
        let row = if row >= 0.0 { row as usize } else { return None };
        let (task, track) = (layout.tasks.get(row)?, timeline.tracks.get(row)?);
        let t_ns = t.round() as u64;
        let index = track.spans_in(t_ns, t_ns.saturating_add(1)).start;
        let state = *track.states.get(index)?;
        let start = track.starts_ns[index];
        let end = track.span_end(index, timeline.end_ns);
        Some(format!(
            "{} at {at}: {} (from {} to {}, {})",
            task.name,
            state.label(),
            format_short(start),
            format_short(end),
            format_short(end - start)
        ))
    }

    pub(super) fn aria_label(&self, props: &TimelineProps, geometry: &Geometry) -> String {
        let layout = &props.run.layout;
        let end = props.timeline.end_ns;
        let mut label = format!("Timeline of {}", counted(layout.tasks.len() as u64, "task", "tasks"));
        if !layout.locks.is_empty() {
            label.push_str(&format!(" and {}", counted(layout.locks.len() as u64, "lock", "locks")));
        }
        label.push_str(&format!(" over {}", format_short(end)));
        if !self.window.is_full(end) {
            label.push_str(&format!(
                "; showing {} to {}",
                format_short(self.window.start.round() as u64),
                format_short(self.window.end().round() as u64)
            ));
        }
        let rows = geometry.visible_rows(self.scroll_top, layout.tasks.len());
        if rows.len() < layout.tasks.len() && !rows.is_empty() {
            label.push_str(&format!(
                "; tasks {} to {} in view",
                group_digits(rows.start as u64 + 1),
                group_digits(rows.end as u64)
            ));
        }
        label.push_str(&format!("; playhead at {}.", format_short(props.now_ns)));
        label
    }
}

/// Below and right of the pointer, flipped left or up near the far edges.
pub(super) fn tip_style(tip: &Tip, geometry: &Geometry) -> String {
    // The canvas sits 1px inside the frame (the scroll container's border).
    let (x, y) = (tip.x + 1.0, tip.y + 1.0);
    let flip_x = x > geometry.width * 0.6;
    let flip_y = y > geometry.view_h - 48.0;
    let left = if flip_x { x - 12.0 } else { x + 14.0 };
    let top = if flip_y { y - 10.0 } else { y + 18.0 };
    let shift_x = if flip_x { "-100%" } else { "0" };
    let shift_y = if flip_y { "-100%" } else { "0" };
    format!(
        "left: {}px; top: {}px; transform: translate({shift_x}, {shift_y})",
        slowpath_engine::run::format::Shortest(left),
        slowpath_engine::run::format::Shortest(top)
    )
}
