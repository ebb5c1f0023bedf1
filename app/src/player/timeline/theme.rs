//! Colours and hatches: the `--tl-*` palette read from CSS, fallbacks, thin bars and hatch patterns.

// The light theme's colours are the saved SVG's (one list, in the engine); the canvas
// falls back to them when timeline.css did not load.
use slowpath_engine::export::svg::state_colour;
use slowpath_engine::run::timeline::SpanState;
use wasm_bindgen::JsCast;
use web_sys::{CanvasPattern, CanvasRenderingContext2d, Element, HtmlCanvasElement};

pub(super) const STATES: usize = SpanState::ALL.len();

/// The CSS name of a state: the suffix of its `--tl-*` colour and legend class.
pub fn state_css_name(state: SpanState) -> &'static str {
    match state {
        SpanState::New => "new",
        SpanState::User => "user",
        SpanState::Kernel => "kernel",
        SpanState::Spinning => "spinning",
        SpanState::Runnable => "runnable",
        SpanState::Sleeping => "sleeping",
        SpanState::Blocked => "blocked",
        SpanState::Stopped => "stopped",
        SpanState::Exiting => "exiting",
        SpanState::Dead => "dead",
    }
}

/// States drawn as a thin bar: the task does not exist (yet, or any more).
pub(super) fn is_thin(state: SpanState) -> bool {
    matches!(state, SpanState::New | SpanState::Dead)
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Hatch {
    /// `/` stripes: busy waiting.
    Stripes,
    /// `×` cross-hatch: blocked, waiting for a lock.
    Cross,
    /// `|` bars: many repeated iterations summarised.
    Bars,
}

pub(super) fn hatch_of(state: SpanState) -> Option<Hatch> {
    match state {
        SpanState::Spinning => Some(Hatch::Stripes),
        SpanState::Blocked => Some(Hatch::Cross),
        _ => None,
    }
}

/// Colours and fonts, read from CSS once (and on a colour-scheme change).
pub(super) struct Palette {
    pub(super) states: [String; STATES],
    pub(super) bg: String,
    pub(super) text: String,
    pub(super) muted: String,
    pub(super) grid: String,
    pub(super) row_alt: String,
    pub(super) rule: String,
    pub(super) playhead: String,
    pub(super) halo: String,
    pub(super) read: String,
    pub(super) write: String,
    pub(super) wait: String,
    hatch: String,
    pub(super) font_family: String,
    /// Built for `patterns_dpr`.
    stripes: Option<CanvasPattern>,
    cross: Option<CanvasPattern>,
    bars: Option<CanvasPattern>,
    patterns_dpr: f64,
}

impl Palette {
    pub(super) fn read(element: &Element) -> Palette {
        let style = web_sys::window().and_then(|window| window.get_computed_style(element).ok().flatten());
        let get = |name: &str, fallback: &str| -> String {
            style
                .as_ref()
                .and_then(|style| style.get_property_value(name).ok())
                .map(|value| value.trim().to_string())
                .filter(|value| !value.is_empty())
                .unwrap_or_else(|| fallback.to_string())
        };
        Palette {
            states: SpanState::ALL
                .map(|state| get(&format!("--tl-{}", state_css_name(state)), state_colour(state))),
            bg: get("--tl-bg", "#ffffff"),
            text: get("--tl-text", "#111318"),
            muted: get("--tl-muted", "#3f4654"),
            grid: get("--tl-grid", "rgba(17, 19, 24, 0.12)"),
            row_alt: get("--tl-row-alt", "rgba(17, 19, 24, 0.04)"),
            rule: get("--tl-rule", "#5b6170"),
            playhead: get("--tl-playhead", "#111318"),
            halo: get("--tl-halo", "#ffffff"),
            read: get("--tl-read", "#9e86d6"),
            write: get("--tl-write", "#5b2a99"),
            wait: get("--tl-wait", "#c4500a"),
            hatch: get("--tl-hatch", "rgba(17, 19, 24, 0.55)"),
            font_family: get("font-family", "system-ui, sans-serif"),
            stripes: None,
            cross: None,
            bars: None,
            patterns_dpr: 0.0,
        }
    }

    pub(super) fn ensure_patterns(&mut self, context: &CanvasRenderingContext2d, dpr: f64) {
        if self.patterns_dpr == dpr {
            return;
        }
        self.stripes = make_pattern(context, Hatch::Stripes, &self.hatch, dpr);
        self.cross = make_pattern(context, Hatch::Cross, &self.hatch, dpr);
        self.bars = make_pattern(context, Hatch::Bars, &self.hatch, dpr);
        self.patterns_dpr = dpr;
    }

    pub(super) fn pattern(&self, hatch: Hatch) -> Option<&CanvasPattern> {
        match hatch {
            Hatch::Stripes => self.stripes.as_ref(),
            Hatch::Cross => self.cross.as_ref(),
            Hatch::Bars => self.bars.as_ref(),
        }
    }
}

/// A small tile with hatch lines, repeated as a fill over a solid colour.
fn make_pattern(
    context: &CanvasRenderingContext2d,
    hatch: Hatch,
    colour: &str,
    dpr: f64,
) -> Option<CanvasPattern> {
    let tile: HtmlCanvasElement = gloo::utils::document().create_element("canvas").ok()?.dyn_into().ok()?;
    let size = (if hatch == Hatch::Bars { 6.0 } else { 7.0 } * dpr).round().max(4.0);
    tile.set_width(size as u32);
    tile.set_height(size as u32);
    let pen: CanvasRenderingContext2d = tile.get_context("2d").ok()??.dyn_into().ok()?;
    pen.set_stroke_style_str(colour);
    pen.set_line_width((1.4 * dpr).max(1.0));
    pen.begin_path();
    match hatch {
        Hatch::Stripes | Hatch::Cross => {
            for k in [-1.0, 0.0, 1.0] {
                pen.move_to(k * size, size);
                pen.line_to(k * size + size, 0.0);
                if hatch == Hatch::Cross {
                    pen.move_to(k * size, 0.0);
                    pen.line_to(k * size + size, size);
                }
            }
        }
        Hatch::Bars => {
            pen.move_to(size / 2.0, 0.0);
            pen.line_to(size / 2.0, size);
        }
    }
    pen.stroke();
    context.create_pattern_with_html_canvas_element(&tile, "repeat").ok().flatten()
}
