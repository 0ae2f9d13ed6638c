//! `kubectl top node|pod`: resource usage from the metrics API (`metrics.k8s.io/v1beta1`,
//! served by metrics-server through kube-apiserver's aggregation layer).
//!
//! Real counterpart: `staging/src/k8s.io/kubectl/pkg/cmd/top` (`top_node.go`, `top_pod.go`:
//! `verifyEmptyMetrics`, `checkPodAge` with its 2-minute `metricsCreationDelay`) and
//! `pkg/metricsutil/metrics_printer.go` (columns, `%vm` and `%vMi`, the percentages of
//! allocatable, the sorters).
//!
//! What kubesim simplifies: the metrics API's availability is learned from the answer (a 404 or
//! 503) instead of a discovery request before it; no `--sum`, `--show-swap`,
//! `--use-protocol-buffers`.

use super::*;
use crate::kubectl::printers::tabwriter;
use crate::sim::sort::CompactSort;

/// `metricsCreationDelay`.
const METRICS_CREATION_DELAY_MS: i64 = 2 * 60 * 1000;

fn quantity_of(v: Option<&Value>) -> crate::api::quantity::Quantity {
    v.and_then(crate::api::quantity::parse_quantity).unwrap_or_else(|| crate::api::quantity::Quantity::zero(crate::api::quantity::Format::DecimalSI))
}

/// `%vm` of the CPU and `%vMi` of the memory.
fn cpu_cell(q: &crate::api::quantity::Quantity) -> String {
    format!("{}m", q.milli_value())
}
fn memory_cell(q: &crate::api::quantity::Quantity) -> String {
    format!("{}Mi", q.value() / (1024 * 1024))
}

/// The metrics API's answer, or kubectl's error when the API is not there.
fn metrics_get(cluster: &mut Cluster, path: &str, out: &mut Output) -> Option<Value> {
    let resp = kubectl(cluster, Method::Get, path, None);
    match resp.code {
        200 => Some(resp.body),
        // no APIService claims the group (404 from kube-apiserver) or its server is unavailable
        404 if resp.body.get("details").and_then(|d| d.get("group")).is_none() => {
            out.err("error: Metrics API not available");
            None
        }
        503 => {
            out.err("error: Metrics API not available");
            None
        }
        _ => {
            out.err(&server_error(&resp, None));
            None
        }
    }
}

pub(super) fn top(cluster: &mut Cluster, flags: &Flags, ns: &str, out: &mut Output) {
    let Some((what, rest)) = flags.positional.split_first() else {
        return out.err("error: Required resource not specified.\nUse \"kubectl top -h\" for help and examples");
    };
    match what.as_str() {
        "node" | "nodes" | "no" => top_node(cluster, flags, rest.first().map(String::as_str), out),
        "pod" | "pods" | "po" => top_pod(cluster, flags, ns, rest.first().map(String::as_str), out),
        other => out.err(&format!("error: unknown command \"{}\" for \"kubectl top\"\n\nDid you mean this?\n\tnode\n\tpod", other)),
    }
}

fn selector_query(flags: &Flags) -> String {
    if flags.selector.is_empty() {
        String::new()
    } else {
        format!("?labelSelector={}", crate::api::request::encode_selector(&flags.selector))
    }
}

fn top_node(cluster: &mut Cluster, flags: &Flags, name: Option<&str>, out: &mut Output) {
    let path = match name {
        Some(n) => format!("/apis/metrics.k8s.io/v1beta1/nodes/{}", n),
        None => format!("/apis/metrics.k8s.io/v1beta1/nodes{}", selector_query(flags)),
    };
    let Some(body) = metrics_get(cluster, &path, out) else { return };
    let metrics: Vec<Value> = if name.is_some() { vec![body] } else { body.get("items").and_then(Value::as_array).cloned().unwrap_or_default() };
    if metrics.is_empty() {
        return out.err("error: metrics not available yet");
    }
    // the nodes, for their allocatable resources
    let nodes: Vec<Value> = match name {
        Some(n) => {
            let r = kubectl(cluster, Method::Get, &format!("/api/v1/nodes/{}", n), None);
            if !r.ok() {
                return out.err(&server_error(&r, None));
            }
            vec![r.body]
        }
        None => {
            let r = kubectl(cluster, Method::Get, &format!("/api/v1/nodes{}", selector_query(flags)), None);
            if !r.ok() {
                return out.err(&server_error(&r, None));
            }
            r.body.get("items").and_then(Value::as_array).cloned().unwrap_or_default()
        }
    };
    let mut rows: Vec<(String, i64, i64, String)> = Vec::new();
    let mut text = String::new();
    if !flags.no_headers {
        text.push_str("NAME\tCPU(cores)\tCPU(%)\tMEMORY(bytes)\tMEMORY(%)\t\n");
    }
    for node in &nodes {
        let n = meta::name(node);
        let alloc = |r: &str| quantity_of(meta::get(node, &["status", "allocatable", r]));
        let line = match metrics.iter().find(|m| meta::name(m) == n) {
            Some(m) => {
                let (cpu, mem) = (quantity_of(meta::get(m, &["usage", "cpu"])), quantity_of(meta::get(m, &["usage", "memory"])));
                let pct = |u: &crate::api::quantity::Quantity, a: &crate::api::quantity::Quantity| (u.milli_value() as f64 / a.milli_value().max(1) as f64 * 100.0) as i64;
                rows.push((n.to_string(), cpu.milli_value(), mem.value(), String::new()));
                format!("{}\t{}\t{}%\t{}\t{}%\t\n", n, cpu_cell(&cpu), pct(&cpu, &alloc("cpu")), memory_cell(&mem), pct(&mem, &alloc("memory")))
            }
            None => {
                rows.push((n.to_string(), -1, -1, String::new()));
                format!("{}\t<unknown>\t<unknown>\t<unknown>\t<unknown>\t\n", n)
            }
        };
        rows.last_mut().expect("pushed").3 = line;
    }
    sort_rows(&mut rows, flags.sort_by.as_deref());
    for r in &rows {
        text.push_str(&r.3);
    }
    out.out(tabwriter(&text, 6, 3).trim_end_matches('\n'));
}

/// The sorters: by name, or `--sort-by=cpu|memory` (largest first).
fn sort_rows(rows: &mut [(String, i64, i64, String)], by: Option<&str>) {
    match by {
        Some("cpu") => rows.csort_by(|a, b| b.1.cmp(&a.1)),
        Some("memory") => rows.csort_by(|a, b| b.2.cmp(&a.2)),
        _ => rows.csort_by(|a, b| a.0.cmp(&b.0)),
    }
}

fn top_pod(cluster: &mut Cluster, flags: &Flags, ns: &str, name: Option<&str>, out: &mut Output) {
    if let Some(s) = flags.sort_by.as_deref().filter(|s| !matches!(*s, "cpu" | "memory")) {
        return out.err(&format!("error: --sort-by accepts only cpu or memory, got {:?}", s));
    }
    let all = flags.all_namespaces;
    let path = match (name, all) {
        (Some(n), _) => format!("/apis/metrics.k8s.io/v1beta1/namespaces/{}/pods/{}", ns, n),
        (None, true) => format!("/apis/metrics.k8s.io/v1beta1/pods{}", selector_query(flags)),
        (None, false) => format!("/apis/metrics.k8s.io/v1beta1/namespaces/{}/pods{}", ns, selector_query(flags)),
    };
    let Some(body) = metrics_get(cluster, &path, out) else { return };
    let metrics: Vec<Value> = if name.is_some() { vec![body] } else { body.get("items").and_then(Value::as_array).cloned().unwrap_or_default() };
    if metrics.is_empty() {
        // verifyEmptyMetrics
        let pods_path = if all { format!("/api/v1/pods{}", selector_query(flags)) } else { format!("/api/v1/namespaces/{}/pods{}", ns, selector_query(flags)) };
        let r = kubectl(cluster, Method::Get, &pods_path, None);
        if !r.ok() {
            return out.err(&server_error(&r, None));
        }
        let pods = r.body.get("items").and_then(Value::as_array).cloned().unwrap_or_default();
        if pods.is_empty() {
            return out.err(&if all { "No resources found".to_string() } else { format!("No resources found in {} namespace.", ns) });
        }
        let now = cluster.now();
        for p in &pods {
            let created = meta::get(p, &["metadata", "creationTimestamp"]).and_then(Value::as_str).and_then(crate::api::time::parse_rfc3339).unwrap_or(now);
            if now - created > METRICS_CREATION_DELAY_MS {
                return out.err(&format!("error: Metrics not available for pod {}/{}, age: {}", meta::namespace(p), meta::name(p), crate::kubelet::pods::go_duration(now - created)));
            }
        }
        return out.err("error: metrics not available yet");
    }
    let mut text = String::new();
    if !flags.no_headers {
        let mut h = String::new();
        if all {
            h.push_str("NAMESPACE\t");
        }
        if flags.containers {
            h.push_str("POD\t");
        }
        h.push_str("NAME\tCPU(cores)\tMEMORY(bytes)\t\n");
        text.push_str(&h);
    }
    let mut rows: Vec<(String, i64, i64, String)> = Vec::new();
    for m in &metrics {
        let prefix = if all { format!("{}\t", meta::namespace(m)) } else { String::new() };
        let containers = meta::get_array(m, &["containers"]);
        let sum = |r: &str| containers.iter().fold(quantity_of(None), |acc, c| acc.add(&quantity_of(meta::get(c, &["usage", r]))));
        let (cpu, mem) = (sum("cpu"), sum("memory"));
        let key = format!("{}/{}", meta::namespace(m), meta::name(m));
        let line = if flags.containers {
            containers.iter().map(|c| format!("{}{}\t{}\t{}\t{}\t\n", prefix, meta::name(m), meta::get_str(c, &["name"]), cpu_cell(&quantity_of(meta::get(c, &["usage", "cpu"]))), memory_cell(&quantity_of(meta::get(c, &["usage", "memory"]))))).collect()
        } else {
            format!("{}{}\t{}\t{}\t\n", prefix, meta::name(m), cpu_cell(&cpu), memory_cell(&mem))
        };
        rows.push((key, cpu.milli_value(), mem.value(), line));
    }
    sort_rows(&mut rows, flags.sort_by.as_deref());
    for r in &rows {
        text.push_str(&r.3);
    }
    out.out(tabwriter(&text, 6, 3).trim_end_matches('\n'));
}
