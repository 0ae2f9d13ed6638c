#![cfg(not(target_arch = "wasm32"))]
//! Scenario transcripts: script in, expected transcript out (see `src/testing.rs`).
//! `UPDATE_EXPECT=1 cargo test --test transcripts` rewrites the expected files.

use kubesim::testing::{first_difference, run_checked, SCENARIOS};

#[test]
fn scenario_transcripts() {
    let update = std::env::var("UPDATE_EXPECT").map(|v| v == "1").unwrap_or(false);
    let mut failures = Vec::new();
    for (name, script, want) in SCENARIOS {
        let (got, denials) = run_checked(script);
        // the bootstrap RBAC policy lets every request of the control plane through
        if !denials.is_empty() {
            failures.push(format!("scenario {}: control-plane requests refused by authorization:\n{}", name, denials.join("\n")));
        }
        if update {
            let path = format!("{}/tests/scenarios/{}.out", env!("CARGO_MANIFEST_DIR"), name);
            std::fs::write(&path, &got).expect("write expected transcript");
            continue;
        }
        if let Some(d) = first_difference(want, &got) {
            failures.push(format!("scenario {}: {}", name, d));
        }
    }
    assert!(failures.is_empty(), "{}\n(run with UPDATE_EXPECT=1 to accept, then review the diff)", failures.join("\n\n"));
}
