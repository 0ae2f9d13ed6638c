#![cfg(not(target_arch = "wasm32"))]
//! The fuzzers' corpus as a regression test (the CI slice of `scripts/fuzz.sh`): every seed in
//! `fuzz/corpus/<target>/` and every minimized crasher in `fuzz/regressions/<target>/` goes
//! through the same check the fuzz target runs (`fuzz/src/checks.rs`: no panic, round trips),
//! each within a time limit; and the crashers the fuzzers found, with what they give now.
//! Native only: it reads the corpus from disk.

#[path = "../fuzz/src/checks.rs"]
#[allow(dead_code)]
mod checks;

use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Per-input limit in this (debug) build; a hang shows up as this test failing with the input.
const LIMIT: Duration = Duration::from_secs(20);

/// A fuzz target: its name and its check.
type Target = (&'static str, fn(&[u8]));

const TARGETS: &[Target] = &[
    ("manifest", checks::manifest),
    ("apply", checks::apply),
    ("kubectl_args", checks::kubectl_args),
    ("script", checks::script),
    ("fragment", checks::fragment),
    ("jsonpath", checks::jsonpath),
    ("selectors", checks::selectors),
    ("quantity", checks::quantity),
    ("misc", checks::misc),
];

fn inputs(target: &str) -> Vec<(String, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut out = Vec::new();
    for dir in ["corpus", "regressions"] {
        let Ok(rd) = std::fs::read_dir(root.join(dir).join(target)) else { continue };
        let mut files: Vec<_> = rd.flatten().map(|e| e.path()).collect();
        files.sort();
        for f in files {
            out.push((format!("{}/{}/{}", dir, target, f.file_name().unwrap().to_string_lossy()), std::fs::read(&f).unwrap()));
        }
    }
    out
}

#[test]
fn corpus_replays_within_the_time_limit() {
    // a cluster serves a few inputs, as in the fuzzer; enough fresh ones to keep state small
    checks::CLUSTER_REUSE.store(16, std::sync::atomic::Ordering::Relaxed);
    let mut total = 0;
    for (target, check) in TARGETS {
        let inputs = inputs(target);
        assert!(!inputs.is_empty() || *target == "misc", "no corpus for {}", target);
        total += inputs.len();
        let (tx, rx) = mpsc::channel::<(String, Duration)>();
        let names: Vec<String> = inputs.iter().map(|(n, _)| n.clone()).collect();
        let check = *check;
        let worker = std::thread::spawn(move || {
            for (name, data) in inputs {
                let t = Instant::now();
                check(&data);
                tx.send((name, t.elapsed())).unwrap();
            }
        });
        for name in &names {
            match rx.recv_timeout(LIMIT) {
                Ok((done, took)) => assert!(took < LIMIT, "{} took {:?}", done, took),
                // the worker panicked (its message is above) or the input hangs
                Err(mpsc::RecvTimeoutError::Disconnected) => panic!("{} panicked on {}", target, name),
                Err(mpsc::RecvTimeoutError::Timeout) => panic!("{} hangs on {} (over {:?})", target, name, LIMIT),
            }
        }
        worker.join().unwrap();
    }
    assert!(total > 100, "corpus has only {} inputs", total);
}

/// The crashers the fuzzers found, minimized, and what kubesim answers now.
#[test]
fn crashers_found_by_fuzzing() {
    use kubesim::api::meta::parse_label_selector;
    use kubesim::apiserver::parse_field_selector;
    let t = |k: &str, op: &str, v: &str| (k.to_string(), op.to_string(), v.to_string());
    // selectors: `===` parsed as key "" = value "=", which printed back as `==` (another selector)
    assert_eq!(parse_label_selector("==="), Err("unable to parse requirement: ===".to_string()));
    // selectors: a field selector term split at `==` before an earlier `=` (upstream's splitTerm
    // takes the first operator)
    assert_eq!(parse_field_selector("a=b==c"), vec![t("a", "=", "b==c")]);
    // manifest, apply: flow collections nested thousands deep made the YAML scanner quadratic
    // (hours for a 3 MiB manifest on the page); refused before parsing, with the line
    // quantity: the check expected Go's canonical form to be a fixed point; `62.5Ki` prints as
    // `64000` (whole bytes, not whole Ki), which prints as `64k`, in Go as in kubesim: the check
    // now asks for the same amount and a print that settles after one more round
    let p = kubesim::api::quantity::parse_go("62.5Ki").unwrap();
    assert_eq!(p.canonical(), "64000");
    assert_eq!(kubesim::api::quantity::parse_go("64000").unwrap().canonical(), "64k");
    checks::quantity(b"62.5Ki");
    let deep = format!("a: 1\n---\nb: {}{}\n", "[".repeat(100_000), "]".repeat(100_000));
    let e = kubesim::api::codec::decode_manifest(&deep).unwrap_err();
    assert_eq!((e.message.as_str(), e.line), ("error converting YAML to JSON: nesting deeper than 64 levels, kubesim's limit", Some(3)));
}
