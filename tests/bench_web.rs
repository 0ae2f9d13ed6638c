//! `kubesim bench` in headless Chromium (wasm32): the same engine the page runs, measured with
//! the browser's clock. CI runs the small size (3 nodes / 30 pods) to check that every pod
//! reaches Running in the browser too; the figure for a size is taken with
//!
//! ```sh
//! KUBESIM_WASM_BENCH=100,1000 CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
//!   CHROMEDRIVER=/usr/bin/chromedriver WASM_BINDGEN_TEST_WEBDRIVER_JSON=$PWD/webdriver.json \
//!   cargo test --release --target wasm32-unknown-unknown --test bench_web -- --nocapture
//! ```
//!
//! and compared with `kubesim bench --nodes 100 --pods 1000` natively. It prints one JSON line.
#![cfg(target_arch = "wasm32")]

use kubesim::sandbox;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map(|p| p.now()).unwrap_or(0.0)
}

#[wasm_bindgen_test]
fn bench_in_the_browser() {
    let (nodes, pods) = option_env!("KUBESIM_WASM_BENCH")
        .and_then(|s| s.split_once(','))
        .and_then(|(n, p)| Some((n.trim().parse::<usize>().ok()?, p.trim().parse::<usize>().ok()?)))
        .unwrap_or((3, 30));
    let mut c = sandbox::bench_cluster(1, nodes);
    let t0 = now_ms();
    let errors = sandbox::bench_apply(&mut c, pods, (pods / 100).max(1));
    let settle = c.run_until_settled();
    let wall_s = (now_ms() - t0) / 1000.0;
    let running = sandbox::count_running(&c);
    let memory_mb = (core::arch::wasm32::memory_size(0) * 65_536) as f64 / (1024.0 * 1024.0);
    let line = format!(
        "{{\"target\":\"wasm32 (headless Chromium)\",\"nodes\":{},\"pods\":{},\"running\":{},\"messages\":{},\"virtual_s\":{:.3},\"settled\":{},\"wall_s\":{:.3},\"pods_per_s\":{:.1},\"memory_mb\":{:.1}}}",
        nodes,
        pods,
        running,
        c.trace().total(),
        c.now() as f64 / 1000.0,
        settle.settled,
        wall_s,
        running as f64 / wall_s.max(1e-9),
        memory_mb
    );
    web_sys::console::log_1(&line.into());
    assert!(errors.is_empty(), "{}", errors);
    assert_eq!(running, pods, "every pod reaches Running in the browser");
}
