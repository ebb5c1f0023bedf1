//! What each hand-drawn canvas of a case's stage needs: a colour read from the
//! page's CSS at draw time (so both themes follow the stylesheet), a 2D context
//! sized for the screen's pixel density, and a hook that asks for a redraw when
//! the canvas is resized or the colour scheme changes.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// The CSS custom property `name` as `element` sees it, or `fallback`.
pub fn css_var(element: &web_sys::Element, name: &str, fallback: &str) -> String {
    web_sys::window()
        .and_then(|window| window.get_computed_style(element).ok().flatten())
        .and_then(|style| style.get_property_value(name).ok())
        .map(|value| value.trim().to_string())
        .filter(|value| !value.is_empty())
        .unwrap_or_else(|| fallback.to_string())
}

/// Sizes `canvas` to its CSS width and `height_css` CSS pixels at the device's
/// pixel ratio, and returns a context that draws in CSS pixels, with the width.
pub fn context_2d(
    canvas: &web_sys::HtmlCanvasElement,
    height_css: f64,
) -> Option<(web_sys::CanvasRenderingContext2d, f64)> {
    let width = f64::from(canvas.client_width().max(1));
    let dpr = web_sys::window().map_or(1.0, |window| window.device_pixel_ratio()).max(1.0);
    canvas.set_width((width * dpr).round() as u32);
    canvas.set_height((height_css * dpr).round() as u32);
    let pen = canvas.get_context("2d").ok()??.dyn_into::<web_sys::CanvasRenderingContext2d>().ok()?;
    let _ = pen.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0);
    Some((pen, width))
}

/// The canvas's CSS width (0 until it is laid out) and a counter bumped on every
/// colour-scheme change: put both in a drawing effect's dependencies.
#[hook]
pub fn use_redraw_triggers(canvas: NodeRef) -> (i32, u32) {
    let width = use_state(|| 0i32);
    let theme = use_state(|| 0u32);
    {
        let width = width.clone();
        let theme = theme.clone();
        use_effect_with((), move |_| {
            let element = canvas.cast::<web_sys::Element>();
            let on_resize = {
                let canvas = canvas.clone();
                Closure::<dyn FnMut()>::new(move || {
                    if let Some(element) = canvas.cast::<web_sys::Element>() {
                        width.set(element.client_width());
                    }
                })
            };
            let observer = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()).ok();
            if let (Some(observer), Some(element)) = (&observer, &element) {
                observer.observe(element);
            }
            let scheme = web_sys::window()
                .and_then(|window| window.match_media("(prefers-color-scheme: dark)").ok().flatten())
                .map(|query| {
                    gloo::events::EventListener::new(&query, "change", move |_| theme.set(*theme + 1))
                });
            move || {
                if let Some(observer) = observer {
                    observer.disconnect();
                }
                drop(on_resize);
                drop(scheme);
            }
        });
    }
    (*width, *theme)
}
