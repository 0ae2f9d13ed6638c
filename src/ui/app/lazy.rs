//! The page's second module (`kubesim_lazy`, see `src/bin/kubesim_lazy.rs`): index.html's
//! `kubesimLazyLoad()` imports it once, and `kubesimLazyCall(name, input)` calls it
//! synchronously afterwards. The page loads it before it runs a console line, an Apply or a
//! shared link that may need it (`kubectl::lazy::needs`), so the core's synchronous call finds
//! it there.

use std::cell::Cell;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(catch, js_name = kubesimLazyLoad)]
    fn lazy_load() -> Result<js_sys::Promise, JsValue>;
    #[wasm_bindgen(catch, js_name = kubesimLazyCall)]
    fn lazy_call(name: &str, input: &str) -> Result<Option<String>, JsValue>;
}

thread_local! {
    static LOADED: Cell<bool> = const { Cell::new(false) };
}

fn hook(name: &str, input: &str) -> Option<String> {
    lazy_call(name, input).ok().flatten()
}

/// Registers the hook the core calls (`kubectl::lazy::set_hook`).
pub fn install() {
    crate::kubectl::lazy::set_hook(hook);
}

/// Whether the second module is loaded.
pub fn loaded() -> bool {
    LOADED.with(|l| l.get())
}

/// Loads the second module (once). A failure leaves the commands that need it to say so.
pub async fn ensure() {
    if loaded() {
        return;
    }
    let Ok(p) = lazy_load() else { return };
    if wasm_bindgen_futures::JsFuture::from(p).await.is_ok() {
        LOADED.with(|l| l.set(true));
    }
}
