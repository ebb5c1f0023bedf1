use yew::prelude::*;

/// The text that the panic overlay must show; the browser test looks for it.
pub const CRASH_MESSAGE: &str = "deliberate crash for testing (the #/__crash route)";

/// `#/__crash`: panics on purpose, so the browser tests can check the panic overlay.
pub fn crash_page() -> Html {
    panic!("{CRASH_MESSAGE}");
}
