//! One check per fuzz target: feed the bytes to a parser and assert the properties that must
//! hold for any input (no panic; round trips where the format has a printer). Shared by the
//! libFuzzer binaries (`fuzz/fuzz_targets/`) and the corpus replay in the main crate
//! (`tests/fuzz_regressions.rs`, which includes this file by path), so it depends on nothing but
//! `kubesim` and `serde_json`. The time limit is the runner's: libFuzzer's `-timeout`, and the
//! replay test's per-input bound.

use std::cell::RefCell;
use std::sync::atomic::{AtomicUsize, Ordering};

use kubesim::api::{codec, meta, quantity, schema};
use kubesim::cluster::Cluster;
use serde_json::Value;

/// How many inputs share one cluster before it is rebuilt (the trace and etcd grow with every
/// request). The replay test sets 1: every input on a fresh cluster, so results do not depend on
/// order.
pub static CLUSTER_REUSE: AtomicUsize = AtomicUsize::new(64);

thread_local! {
    static CLUSTER: RefCell<Option<(Cluster, usize)>> = const { RefCell::new(None) };
}

fn with_cluster<R>(f: impl FnOnce(&mut Cluster) -> R) -> R {
    CLUSTER.with(|c| {
        let mut slot = c.borrow_mut();
        let reuse = CLUSTER_REUSE.load(Ordering::Relaxed).max(1);
        if slot.as_ref().is_none_or(|(_, n)| *n >= reuse) {
            *slot = Some((kubesim::sandbox::default_cluster(1), 0));
        }
        let (cluster, n) = slot.as_mut().unwrap();
        *n += 1;
        f(cluster)
    })
}

fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

fn args(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// A kubectl run must fail with a message, not silently: code != 0 implies something on stderr.
fn assert_sane(out: &kubesim::kubectl::Output, what: &str) {
    if out.code != 0 {
        assert!(!out.stderr.trim().is_empty(), "{}: exit {} without a message", what, out.code);
    }
}

/// YAML/JSON manifest decoding and the strict schema check, without a cluster.
pub fn manifest(data: &[u8]) {
    let Some(s) = text(data) else { return };
    let Ok(docs) = codec::decode_manifest(s) else { return };
    for d in docs {
        let mut obj = d.object;
        let av = meta::get_str(&obj, &["apiVersion"]).to_string();
        let kind = meta::get_str(&obj, &["kind"]).to_string();
        let strict = schema::strict_check(&av, &kind, &obj);
        schema::normalize(&av, &kind, &mut obj);
        if strict.is_ok() {
            // normalizing is a Go decode+encode round trip: doing it twice changes nothing,
            // and what it produces still passes the strict check
            let once = obj.clone();
            schema::normalize(&av, &kind, &mut obj);
            assert_eq!(once, obj, "normalize is not idempotent");
            assert!(schema::strict_check(&av, &kind, &obj).is_ok(), "normalized object fails the strict check: {:?}", schema::strict_check(&av, &kind, &obj));
        }
    }
}

/// `kubectl apply -f -` with the bytes as the file, on a running cluster.
pub fn apply(data: &[u8]) {
    let Some(s) = text(data) else { return };
    let out = with_cluster(|c| kubesim::kubectl::run(c, &args(&["apply", "-f", "-"]), Some(s), &|_| None));
    assert_sane(&out, "apply");
}

/// Re-quotes words so that `split_args` gives them back.
pub fn quote(words: &[String]) -> String {
    words.iter().map(|w| format!("'{}'", w.replace('\'', "'\\''"))).collect::<Vec<_>>().join(" ")
}

/// The kubectl command line: `split_args`, then `kubectl::run`'s flag parsing and dispatch.
pub fn kubectl_args(data: &[u8]) {
    let Some(line) = text(data) else { return };
    let Ok(words) = kubesim::kubectl::split_args(line) else { return };
    let again = kubesim::kubectl::split_args(&quote(&words)).expect("quoted words split");
    assert_eq!(words, again, "split_args(quote(words)) != words");
    // the first line only feeds stdin-less commands; a watch would wait on virtual time
    let out = with_cluster(|c| kubesim::kubectl::run(c, &words, Some(""), &|_| None));
    assert_sane(&out, "kubectl");
}

/// Scenario scripts: `script::parse`, and each command's line through `split_args`.
pub fn script(data: &[u8]) {
    let Some(s) = text(data) else { return };
    let Ok(cmds) = kubesim::script::parse(s) else { return };
    let lines = s.lines().count();
    let mut last = 0;
    for c in &cmds {
        assert!(c.line_no > last && c.line_no <= lines, "line numbers out of order or range");
        last = c.line_no;
        assert!(!c.line.starts_with('#'), "a comment became a command");
        let _ = kubesim::kubectl::split_args(&c.line);
    }
}

/// The share-link fragment: parse, print, parse again gives the same scenario; base64 round trip.
pub fn fragment(data: &[u8]) {
    use kubesim::ui::fragment::{b64_decode, b64_encode, Scenario};
    assert_eq!(b64_decode(&b64_encode(data)).as_deref(), Some(data), "base64 round trip");
    let Some(s) = text(data) else { return };
    let _ = b64_decode(s);
    let Ok(sc) = Scenario::parse(s) else { return };
    let printed = sc.to_fragment();
    if printed.len() <= kubesim::ui::fragment::MAX_FRAGMENT {
        assert_eq!(Scenario::parse(&printed), Ok(sc.clone()), "fragment round trip through {:?}", printed);
    }
    let _ = sc.script_to_run();
}

/// kubectl's JSONPath: `-o jsonpath=`, `--sort-by` and `custom-columns` on the cluster's nodes.
pub fn jsonpath(data: &[u8]) {
    let Some(expr) = text(data) else { return };
    let (mode, expr) = match expr.split_once('\n') {
        Some(("sort", e)) => (1, e),
        Some(("cols", e)) => (2, e),
        _ => (0, expr),
    };
    let a = match mode {
        1 => vec!["get".to_string(), "nodes".into(), format!("--sort-by={}", expr)],
        2 => vec!["get".to_string(), "nodes".into(), "-o".into(), format!("custom-columns=X:{}", expr)],
        _ => vec!["get".to_string(), "nodes".into(), "-o".into(), format!("jsonpath={}", expr)],
    };
    let out = with_cluster(|c| kubesim::kubectl::run(c, &a, None, &|_| None));
    assert_sane(&out, "get");
}

/// Label and field selectors: parse, print, parse again gives the same requirements.
pub fn selectors(data: &[u8]) {
    let Some(s) = text(data) else { return };
    if let Ok(reqs) = meta::parse_label_selector(s) {
        let printed = reqs
            .iter()
            .map(|(k, op, v)| match op.as_str() {
                "exists" => k.clone(),
                "!" => format!("!{}", k),
                op => format!("{}{}{}", k, op, v),
            })
            .collect::<Vec<_>>()
            .join(",");
        assert_eq!(meta::parse_label_selector(&printed).as_ref(), Ok(&reqs), "label selector round trip through {:?}", printed);
        let labels = serde_json::Map::new();
        let _ = meta::label_selector_matches(&reqs, &labels);
    }
    let fields = kubesim::apiserver::parse_field_selector(s);
    let printed = fields.iter().map(|(k, op, v)| format!("{}{}{}", k, if op == "=" { "==" } else { op }, v)).collect::<Vec<_>>().join(",");
    assert_eq!(kubesim::apiserver::parse_field_selector(&printed), fields, "field selector round trip through {:?}", printed);
    for resource in ["pods", "nodes", "events", "replicasets", "configmaps"] {
        let _ = kubesim::apiserver::field_selector_matches(resource, &fields, &Value::Null);
        let _ = kubesim::apiserver::convert_field_selector(resource, s);
    }
}

/// `resource.Quantity`: a quantity that parses prints a canonical form that parses to the same
/// amount; printing settles after one more round. (Not at once: Go prints a BinarySI amount that
/// is not a whole number of Ki, `62.5Ki`, as the plain integer `64000`, which parses as DecimalSI
/// and prints as `64k`; the fuzzer found this, kubesim does as Go does.)
pub fn quantity(data: &[u8]) {
    let Some(s) = text(data) else { return };
    let Ok(p) = quantity::parse_go(s) else {
        let _ = quantity::parse_quantity_str(s);
        return;
    };
    let canon = p.canonical();
    let q = p.to_quantity();
    let p2 = quantity::parse_go(&canon).unwrap_or_else(|e| panic!("canonical {:?} of {:?} does not parse: {}", canon, s, e));
    let q2 = p2.to_quantity();
    // within int64 (what Kubernetes counts with): the same amount. Beyond it neither Go (its
    // DecimalSI suffixes end at E: 10^42 prints as "1") nor kubesim (38 significant digits)
    // prints every amount back.
    let fits = q.value() != i64::MAX && q.value() != i64::MIN;
    if fits {
        assert_eq!((q2.milli_value(), q2.value()), (q.milli_value(), q.value()), "canonical {:?} of {:?} is another amount", canon, s);
    }
    let canon2 = p2.canonical();
    let p3 = quantity::parse_go(&canon2).unwrap_or_else(|e| panic!("canonical {:?} of {:?} does not parse: {}", canon2, canon, e));
    assert_eq!(p3.canonical(), canon2, "printing {:?} does not settle", s);
    let _ = (q.to_string(), q.milli_value(), q.value());
    let _ = quantity::parse_quantity(&serde_json::json!(s));
}

/// The smaller parsers: cron schedules, CIDRs, image references, RFC 3339 times, Go durations.
pub fn misc(data: &[u8]) {
    let Some(s) = text(data) else { return };
    let _ = kubesim::controllers::cronjob::schedule::parse(s);
    if let Some(c) = kubesim::api::net::Cidr::parse(s) {
        let _ = c.to_string();
    }
    let _ = kubesim::api::net::parse_ipv4(s);
    if let Ok(i) = kubesim::api::image::parse_image(s) {
        let _ = i.full();
    }
    if let Some(t) = kubesim::api::time::parse_rfc3339(s) {
        let _ = kubesim::api::time::rfc3339(t);
    }
    let _ = kubesim::api::time::parse_rfc3339_unix(s);
    let _ = kubesim::api::time::parse_go_duration(s);
}
