//! The panic hook: log to the console, then replace the page with an overlay
//! that explains what happened and helps the user file a bug report.
//!
//! By the time the hook runs, the app is dead: release builds use
//! `panic = "abort"` (wasm traps right after the hook returns), so the overlay
//! is built with raw DOM calls and its buttons are plain JavaScript that never
//! calls back into the (trapped) WebAssembly instance.

use std::panic::PanicHookInfo;

/// Installs the hook. Must go through Yew: `Renderer::render` replaces any hook
/// that was not set with [`yew::set_custom_panic_hook`].
pub fn install() {
    yew::set_custom_panic_hook(Box::new(hook));
}

fn hook(info: &PanicHookInfo<'_>) {
    let message = describe(
        payload_text(info),
        info.location().map(|location| (location.file(), location.line(), location.column())),
    );
    browser::report(&message);
}

/// Shows the overlay for a panic reported from elsewhere (the engine's worker).
pub fn report(message: &str) {
    #[cfg(target_arch = "wasm32")]
    browser::report(message);
    #[cfg(not(target_arch = "wasm32"))]
    eprintln!("slowpath panicked: {message}");
}

/// The panic payload as text, if it is text (it is for `panic!("...")` and `expect`).
fn payload_text<'a>(info: &'a PanicHookInfo<'_>) -> Option<&'a str> {
    let payload = info.payload();
    payload.downcast_ref::<&str>().copied().or_else(|| payload.downcast_ref::<String>().map(String::as_str))
}

/// The message shown in the overlay: the payload, then where it panicked.
pub fn describe(payload: Option<&str>, location: Option<(&str, u32, u32)>) -> String {
    let text = payload.unwrap_or("(a panic without a text message)");
    match location {
        Some((file, line, column)) => format!("{text}\n    at {file}:{line}:{column}"),
        None => text.to_string(),
    }
}

/// What a user can paste into a bug report.
pub fn bug_report(url: &str, message: &str, user_agent: &str, time: &str) -> String {
    format!(
        "slowpath bug report\n\
         URL: {url}\n\
         Version: slowpath-app {version}\n\
         User agent: {user_agent}\n\
         Time: {time}\n\
         \n\
         Panic:\n\
         {message}\n",
        version = env!("CARGO_PKG_VERSION"),
    )
}

#[cfg(target_arch = "wasm32")]
mod browser {
    use std::sync::atomic::{AtomicBool, Ordering};
    use wasm_bindgen::prelude::*;
    use web_sys::{Document, Element};

    #[wasm_bindgen(inline_js = r#"
export function js_stack() {
    return new Error().stack || "";
}
export function wire_overlay(copyButton, status, reportField, reloadLink, report) {
    copyButton.addEventListener("click", async () => {
        try {
            await navigator.clipboard.writeText(report);
            status.textContent = "Copied. Paste it into your bug report.";
        } catch (error) {
            reportField.focus();
            reportField.select();
            status.textContent =
                "Could not copy automatically. The report below is selected: press Ctrl+C (or Cmd+C) to copy it.";
        }
    });
    reloadLink.addEventListener("click", (event) => {
        event.preventDefault();
        window.location.reload();
    });
}
"#)]
    extern "C" {
        fn js_stack() -> String;
        fn wire_overlay(
            copy_button: &Element,
            status: &Element,
            report_field: &Element,
            reload_link: &Element,
            report: &str,
        );
    }

    /// Set once the overlay is up, so that a panic inside the hook cannot loop.
    static SHOWN: AtomicBool = AtomicBool::new(false);

    pub fn report(message: &str) {
        web_sys::console::error_1(&format!("slowpath panicked: {message}\n\nStack:\n{}", js_stack()).into());
        if SHOWN.swap(true, Ordering::SeqCst) {
            return;
        }
        if let Err(error) = show_overlay(message) {
            web_sys::console::error_2(&"slowpath could not show its panic overlay:".into(), &error);
        }
    }

    fn show_overlay(message: &str) -> Result<(), JsValue> {
        let window = web_sys::window().ok_or("no window")?;
        let document = window.document().ok_or("no document")?;
        let location = window.location();
        let href = location.href()?;
        let user_agent = window.navigator().user_agent().unwrap_or_default();
        let time = String::from(js_sys::Date::new_0().to_iso_string());
        let report = super::bug_report(&href, message, &user_agent, &time);
        // A link without a fragment is a real navigation, even from a hash route.
        let home = format!("{}{}", location.pathname()?, location.search()?);

        let overlay = element(
            &document,
            "main",
            &[
                ("class", "panic-overlay"),
                ("data-testid", "panic-overlay"),
                ("role", "alert"),
                ("aria-labelledby", "panic-title"),
            ],
        )?;
        let title = element(&document, "h1", &[("id", "panic-title")])?;
        title.set_text_content(Some("slowpath hit a bug"));
        let intro = element(&document, "p", &[])?;
        intro.set_text_content(Some(
            "Something went wrong inside slowpath and the page has stopped. \
             Nothing you did caused this. Reloading usually helps; \
             if it happens again, please send us the report below.",
        ));
        let message_label = element(&document, "h2", &[])?;
        message_label.set_text_content(Some("What went wrong"));
        let pre = element(&document, "pre", &[("class", "panic-message"), ("data-testid", "panic-message")])?;
        pre.set_text_content(Some(message));

        let actions = element(&document, "p", &[("class", "panic-actions")])?;
        let copy = element(
            &document,
            "button",
            &[("type", "button"), ("class", "button"), ("data-testid", "copy-bug-report")],
        )?;
        copy.set_text_content(Some("Copy bug report"));
        let reload = element(
            &document,
            "a",
            &[("href", &href), ("class", "button button-secondary"), ("data-testid", "reload")],
        )?;
        reload.set_text_content(Some("Reload"));
        let home_link = element(&document, "a", &[("href", &home), ("class", "button button-secondary")])?;
        home_link.set_text_content(Some("Go to the home page"));
        actions.append_with_node_3(&copy, &reload, &home_link)?;
        let status = element(
            &document,
            "p",
            &[("class", "panic-status"), ("role", "status"), ("data-testid", "copy-status")],
        )?;

        let report_label = element(&document, "label", &[("for", "panic-report")])?;
        report_label.set_text_content(Some("Bug report (you can also copy it by hand)"));
        let report_field = element(
            &document,
            "textarea",
            &[
                ("id", "panic-report"),
                ("readonly", ""),
                ("rows", "10"),
                ("spellcheck", "false"),
                ("data-testid", "bug-report"),
            ],
        )?;
        report_field.set_text_content(Some(&report));

        overlay.append_with_node_4(&title, &intro, &message_label, &pre)?;
        overlay.append_with_node_4(&actions, &status, &report_label, &report_field)?;

        let body = document.body().ok_or("no body")?;
        body.set_text_content(None);
        body.append_child(&overlay)?;
        document.set_title("slowpath hit a bug");
        wire_overlay(&copy, &status, &report_field, &reload, &report);
        Ok(())
    }

    fn element(document: &Document, tag: &str, attributes: &[(&str, &str)]) -> Result<Element, JsValue> {
        let element = document.create_element(tag)?;
        for (name, value) in attributes {
            element.set_attribute(name, value)?;
        }
        Ok(element)
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod browser {
    /// Off the web there is no page to replace: print the message.
    pub fn report(message: &str) {
        eprintln!("slowpath panicked: {message}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describe_puts_the_location_under_the_message() {
        assert_eq!(
            describe(Some("deliberate crash for testing"), Some(("app/src/pages/crash.rs", 7, 5))),
            "deliberate crash for testing\n    at app/src/pages/crash.rs:7:5"
        );
        assert_eq!(describe(None, None), "(a panic without a text message)");
    }

    #[test]
    fn bug_report_has_url_message_and_user_agent() {
        let report = bug_report(
            "http://127.0.0.1:8080/#/__crash",
            "deliberate crash for testing",
            "Mozilla/5.0 (test)",
            "2025-01-01T00:00:00.000Z",
        );
        assert!(report.starts_with("slowpath bug report\n"));
        assert!(report.contains("URL: http://127.0.0.1:8080/#/__crash\n"));
        assert!(report.contains("User agent: Mozilla/5.0 (test)\n"));
        assert!(report.contains("Panic:\ndeliberate crash for testing\n"));
        assert!(report.contains(env!("CARGO_PKG_VERSION")));
    }
}
