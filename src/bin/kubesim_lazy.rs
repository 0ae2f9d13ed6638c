//! The page's second module: the parts of kubectl it loads on first use — kustomize's build
//! (`kubectl kustomize`, `apply|create|delete -k`) and v1.34's long `--help` texts.
//!
//! No upstream counterpart (kubectl is one binary). index.html builds this bin as a
//! `data-type="worker"` link with ES module glue (`kubesim_lazy.js`, `kubesim_lazy_bg.wasm`, not
//! hashed) and imports it when a command needs it; the main module then calls it synchronously
//! through `kubectl::lazy`. Both sides are the crate's own deterministic code, so a run is the
//! same in the page as natively. Natively this binary does nothing.

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod exports {
    use wasm_bindgen::prelude::*;

    /// `kubectl kustomize`'s build over the console's files: `{"dir", "files"}` in,
    /// `{"yaml", "warnings"}` or `{"error"}` out.
    #[wasm_bindgen]
    pub fn kustomize_build(input: &str) -> String {
        kubesim::kubectl::kustomize::answer(input)
    }

    /// `kubectl COMMAND --help`'s whole text, or "" when kubesim carries none for it.
    #[wasm_bindgen]
    pub fn help(cmd: &str) -> String {
        kubesim::kubectl::full_help(cmd).unwrap_or_default()
    }
}

fn main() {}
