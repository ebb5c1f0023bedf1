//! The colours and font the FIFO's canvases (the dt chart and the sweep) draw with,
//! read from the page's stylesheet at each redraw, so that they follow the theme.

use crate::player::canvas::css_var;

pub(super) struct Colours {
    pub fast: String,
    pub slow: String,
    pub grid: String,
    pub muted: String,
    pub now: String,
    pub warm: String,
    pub surface: String,
    pub font: String,
}

impl Colours {
    pub fn of(canvas: &web_sys::HtmlCanvasElement) -> Colours {
        Colours {
            fast: css_var(canvas, "--fifo-fast", "#0a4bb3"),
            slow: css_var(canvas, "--fifo-slow", "#b3261e"),
            grid: css_var(canvas, "--border", "#b9bcc4"),
            muted: css_var(canvas, "--muted", "#3f4654"),
            now: css_var(canvas, "--fifo-now", "#1b1f27"),
            warm: css_var(canvas, "--warm", "#9a4a00"),
            surface: css_var(canvas, "--surface", "#ffffff"),
            font: css_var(canvas, "font-family", "system-ui, sans-serif"),
        }
    }
}
