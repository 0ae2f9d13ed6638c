//! The transcript tests again, in headless Chromium (wasm32): the expected transcripts were made
//! by the native build, so passing here also shows the trace is identical across targets.
//!
//! The scenarios run one by one with a macrotask between them: a test that held the page's main
//! thread for the whole suite left ChromeDriver's renderer unanswered for over 30 s on a slower
//! machine ("Timed out receiving message from renderer"), and the runner lost the page.
#![cfg(target_arch = "wasm32")]

use kubesim::testing::{first_difference, run, SCENARIOS};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Resolves on the next `setTimeout(0)`: the renderer answers ChromeDriver in between.
async fn next_macrotask() {
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        if let Some(window) = web_sys::window() {
            let _ = window.set_timeout_with_callback(&resolve);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

#[wasm_bindgen_test]
async fn scenario_transcripts_in_the_browser() {
    let mut failures = Vec::new();
    for (name, script, want) in SCENARIOS {
        if let Some(d) = first_difference(want, &run(script)) {
            failures.push(format!("scenario {}: {}", name, d));
        }
        next_macrotask().await;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[wasm_bindgen_test]
async fn same_seed_same_trace_in_the_browser() {
    let script = SCENARIOS.iter().find(|s| s.0 == "trace").map(|s| s.1).unwrap_or("");
    let first = run(script);
    next_macrotask().await;
    assert_eq!(first, run(script));
}
