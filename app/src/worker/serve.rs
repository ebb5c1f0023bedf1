//! The worker's side: wait for requests, make each run, post it back in parts.

use slowpath_engine::run::progress::with_progress;
use slowpath_engine::run::wire::{self, Detail, Request};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::DedicatedWorkerGlobalScope;

/// True when this module was started inside a Web Worker (not a page).
pub fn in_worker() -> bool {
    js_sys::global().dyn_into::<DedicatedWorkerGlobalScope>().is_ok()
}

/// Serves requests until the page stops the worker.
pub fn serve() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    // A panic here would trap the module silently: tell the page first.
    std::panic::set_hook(Box::new(|info| {
        let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
        post(&scope, "panic", 0, &[("message", JsValue::from_str(&info.to_string()))]);
    }));
    let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(|event: web_sys::MessageEvent| {
        let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
        let bytes = js_sys::Reflect::get(&event.data(), &"request".into()).unwrap_or(JsValue::UNDEFINED);
        handle(&scope, &js_sys::Uint8Array::new(&bytes).to_vec());
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The worker lives as long as the page keeps it: so does its handler.
    on_message.forget();
    post(&scope, "ready", 0, &[]);
}

fn post(scope: &DedicatedWorkerGlobalScope, kind: &str, id: u32, fields: &[(&str, JsValue)]) {
    let message = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&message, &"kind".into(), &JsValue::from_str(kind));
    let _ = js_sys::Reflect::set(&message, &"id".into(), &JsValue::from(id));
    for (name, value) in fields {
        let _ = js_sys::Reflect::set(&message, &JsValue::from_str(name), value);
    }
    let _ = scope.post_message(&message);
}

/// Posts one part, handing its buffer over rather than copying it.
fn post_part(scope: &DedicatedWorkerGlobalScope, id: u32, bytes: &[u8]) {
    let array = js_sys::Uint8Array::from(bytes);
    let message = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&message, &"kind".into(), &"part".into());
    let _ = js_sys::Reflect::set(&message, &"id".into(), &JsValue::from(id));
    let _ = js_sys::Reflect::set(&message, &"bytes".into(), &array);
    let transfer = js_sys::Array::of1(&array.buffer());
    let _ = scope.post_message_with_transfer(&message, &transfer);
}

fn handle(scope: &DedicatedWorkerGlobalScope, bytes: &[u8]) {
    let request = match Request::from_bytes(bytes) {
        Ok(request) => request,
        Err(message) => return post(scope, "error", 0, &[("message", JsValue::from_str(&message))]),
    };
    let id = request.id;
    let fail = |message: &str| post(scope, "error", id, &[("message", JsValue::from_str(message))]);
    let Some(case) = slowpath_engine::simulation(&request.case) else { return fail("no such case") };
    let reporter = scope.clone();
    let report = move |simulated_ns: u64| {
        post(&reporter, "progress", id, &[("ns", JsValue::from_f64(simulated_ns as f64))]);
    };
    let params = request.params();
    let made =
        with_progress(report, || slowpath_engine::run_checked(case, &params, &request.variant, request.seed));
    let run = match made {
        Ok(run) => run,
        Err(error) => return fail(&error.to_string()),
    };
    match request.detail {
        Detail::Run => {
            for part in wire::encode(case, &run) {
                post_part(scope, id, &part);
            }
        }
        Detail::Summary => post_part(scope, id, &wire::encode_summary(case, &run)),
    }
    post(scope, "done", id, &[]);
}
