//! The transcript tests again, in headless Chromium (wasm32): the expected transcripts were made
//! by the native build, so passing here also shows the trace is identical across targets.
#![cfg(target_arch = "wasm32")]

use kubesim::testing::{first_difference, run, SCENARIOS};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn scenario_transcripts_in_the_browser() {
    let mut failures = Vec::new();
    for (name, script, want) in SCENARIOS {
        if let Some(d) = first_difference(want, &run(script)) {
            failures.push(format!("scenario {}: {}", name, d));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[wasm_bindgen_test]
fn same_seed_same_trace_in_the_browser() {
    let script = SCENARIOS.iter().find(|s| s.0 == "trace").map(|s| s.1).unwrap_or("");
    assert_eq!(run(script), run(script));
}
