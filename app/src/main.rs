fn main() {
    #[cfg(target_arch = "wasm32")]
    slowpath_app::start();

    #[cfg(not(target_arch = "wasm32"))]
    eprintln!("slowpath-app is the web front end: build it with `trunk build --release`.");
}
