//! What each hand-drawn canvas of a case's stage needs: a colour read from the
//! page's CSS at draw time (so both themes follow the stylesheet), a 2D context
//! sized for the screen's pixel density, and a hook that asks for a redraw when
//! the canvas is resized or the colour scheme changes. An export asks every canvas
//! to redraw at a pixel ratio of its choosing (`set_export_scale`) for a sharp PNG.

use std::cell::Cell;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

thread_local! {
    /// A pixel ratio an export asks for (0: the screen's own).
    static EXPORT_SCALE: Cell<f64> = const { Cell::new(0.0) };
    /// Bumped on every redraw request, so that each one changes the hook's state.
    static REDRAWS: Cell<u32> = const { Cell::new(0) };
}

/// The window event that asks every canvas using [`use_redraw_triggers`] to redraw.
const REDRAW_EVENT: &str = "slowpath-redraw";

/// Draws every canvas at pixel ratio `scale` from now on (0 goes back to the
/// screen's), and asks them all to redraw.
pub fn set_export_scale(scale: f64) {
    EXPORT_SCALE.with(|cell| cell.set(scale));
    if let (Some(window), Ok(event)) = (web_sys::window(), web_sys::Event::new(REDRAW_EVENT)) {
        let _ = window.dispatch_event(&event);
    }
}

fn next_redraw() -> u32 {
    REDRAWS.with(|cell| {
        cell.set(cell.get().wrapping_add(1));
        cell.get()
    })
}

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
    // An export's ratio, exactly (the same PNG on any screen); else the screen's.
    let export = EXPORT_SCALE.with(Cell::get);
    let dpr = if export > 0.0 {
        export
    } else {
        web_sys::window().map_or(1.0, |window| window.device_pixel_ratio()).max(1.0)
    };
    canvas.set_width((width * dpr).round() as u32);
    canvas.set_height((height_css * dpr).round() as u32);
    let pen = canvas.get_context("2d").ok()??.dyn_into::<web_sys::CanvasRenderingContext2d>().ok()?;
    let _ = pen.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0);
    Some((pen, width))
}

/// The canvas's CSS width (0 until it is laid out) and a counter bumped on every
/// colour-scheme change or export redraw: put both in a drawing effect's dependencies.
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
                    let theme = theme.clone();
                    gloo::events::EventListener::new(&query, "change", move |_| theme.set(next_redraw()))
                });
            let export = web_sys::window().map(|window| {
                gloo::events::EventListener::new(&window, REDRAW_EVENT, move |_| theme.set(next_redraw()))
            });
            move || {
                if let Some(observer) = observer {
                    observer.disconnect();
                }
                drop(on_resize);
                drop(scheme);
                drop(export);
            }
        });
    }
    (*width, *theme)
}
