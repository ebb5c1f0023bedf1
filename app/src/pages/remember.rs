//! A few words kept in the browser's `localStorage` between visits. Every access is
//! guarded: private modes and sandboxed frames throw on `localStorage` itself, a full
//! store throws on `setItem`; then nothing is remembered and the page goes on.
//! Reached through `js_sys::Reflect`, so that no storage binding is compiled in.

use wasm_bindgen::{JsCast, JsValue};

fn storage() -> Option<JsValue> {
    // Drawn at build time (natively), a page has no browser and remembers nothing.
    if !cfg!(target_arch = "wasm32") {
        return None;
    }
    let window = web_sys::window()?;
    // The getter itself throws where storage is denied: Reflect turns that into Err.
    js_sys::Reflect::get(&window, &JsValue::from_str("localStorage")).ok().filter(|value| value.is_object())
}

fn method(storage: &JsValue, name: &str) -> Option<js_sys::Function> {
    js_sys::Reflect::get(storage, &JsValue::from_str(name)).ok()?.dyn_into::<js_sys::Function>().ok()
}

/// The value kept under `key`, if any (None also when storage is denied).
pub fn recall(key: &str) -> Option<String> {
    let storage = storage()?;
    method(&storage, "getItem")?.call1(&storage, &JsValue::from_str(key)).ok()?.as_string()
}

/// Keeps `value` under `key`, if the browser lets us.
pub fn keep(key: &str, value: &str) {
    if let Some(storage) = storage() {
        if let Some(set) = method(&storage, "setItem") {
            let _ = set.call2(&storage, &JsValue::from_str(key), &JsValue::from_str(value));
        }
    }
}
