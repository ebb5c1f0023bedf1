// Talc, not Rust's default dlmalloc, in the wasm: runs allocate step by step (the
// trace builder, the narration's text), and with dlmalloc the allocation-heavy runs
// were the ones past the 1.5× wasm/native budget; Talc is also the smaller of the two.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

fn main() {
    #[cfg(target_arch = "wasm32")]
    slowpath_app::start();

    #[cfg(not(target_arch = "wasm32"))]
    eprintln!("slowpath-app is the web front end: build it with `trunk build --release`.");
}
