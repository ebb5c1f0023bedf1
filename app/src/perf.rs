//! Timings the app exposes on `window` for `cargo xtask bench-web` to read.
//! Measurement only: nothing in the app reads them back.

/// Milliseconds since the page started (0 outside a browser, e.g. in host tests).
pub(crate) fn now_ms() -> f64 {
    if cfg!(not(target_arch = "wasm32")) {
        return 0.0;
    }
    web_sys::window().and_then(|window| window.performance()).map_or(0.0, |performance| performance.now())
}

/// Sets `window[object][key] = ms`, creating the object if needed.
pub(crate) fn record(object: &str, key: &str, ms: f64) {
    if cfg!(not(target_arch = "wasm32")) {
        return;
    }
    let Some(window) = web_sys::window() else { return };
    let name = wasm_bindgen::JsValue::from_str(object);
    let target = match js_sys::Reflect::get(&window, &name) {
        Ok(value) if value.is_object() => value,
        _ => {
            let fresh = js_sys::Object::new().into();
            let _ = js_sys::Reflect::set(&window, &name, &fresh);
            fresh
        }
    };
    let _ = js_sys::Reflect::set(
        &target,
        &wasm_bindgen::JsValue::from_str(key),
        &wasm_bindgen::JsValue::from_f64(ms),
    );
}

/// Sets `window[object][key]` to `ms` if larger than what it holds (the longest
/// of several, e.g. the slowest message of a run decoded on the page).
pub(crate) fn record_max(object: &str, key: &str, ms: f64) {
    if cfg!(not(target_arch = "wasm32")) {
        return;
    }
    let Some(window) = web_sys::window() else { return };
    let held = js_sys::Reflect::get(&window, &wasm_bindgen::JsValue::from_str(object))
        .and_then(|target| js_sys::Reflect::get(&target, &wasm_bindgen::JsValue::from_str(key)))
        .ok()
        .and_then(|value| value.as_f64())
        .unwrap_or(0.0);
    record(object, key, ms.max(held));
}
