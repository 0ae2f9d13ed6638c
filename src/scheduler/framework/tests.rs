//! The plugins' test tables (from upstream's plugin tests and hand-checked worked examples) and
//! whole-cycle placements, run through the typed framework: each case is written with Pod and
//! Node JSON as upstream's tests build them with `st.MakePod()`/`st.MakeNode()`, decoded once
//! into `PodInfo`/`NodeInfo` and run through PreFilter/Filter or PreScore/Score.

use super::cycle_state::CycleState;
use super::interface::*;
use super::listers::Listers;
use super::preemption::{default_preemption as preempt, PreemptionCandidate, PreemptionOutcome};
use super::runtime::{self, FILTER_PLUGINS};
use super::types::*;
use super::plugins::tainttoleration::untolerated_taint_reason;
use super::plugins::helper::default_normalize_score;

use super::plugins::noderesources::least_allocated::least_requested_score;

const MB: i64 = 1024 * 1024;
use crate::api::quantity::parse_quantity;
use crate::scheduler::internal::cache::Snapshot;
use crate::scheduler::schedule_one::{self, fit_error_message, fit_error_message_from_diagnosis, num_feasible_nodes_to_find, select_host, ScheduleOutcome};
use serde_json::{json, Value};
use std::collections::BTreeSet;

fn s(v: Option<&Value>) -> &str {
    v.and_then(Value::as_str).unwrap_or("")
}

/// PreFilter over a snapshot of `nodes`, then the node's filter verdict.
fn state_for(pod: &PodInfo, nodes: &[NodeInfo]) -> CycleState {
    let mut st = CycleState::default();
    let snap = Snapshot::new(nodes.to_vec());
    let _ = runtime::run_pre_filter_plugins(&mut st, pod, &snap, &Listers::default());
    st
}

fn filter(pod: &Value, node: &NodeInfo) -> Status {
    let p = PodInfo::from_value(pod.clone());
    let st = state_for(&p, std::slice::from_ref(node));
    runtime::run_filter_plugins(&st, &p, node)
}

fn filter_trail(st: &Status) -> Vec<(&'static str, Option<String>)> {
    runtime::filter_trail(&CycleState { skip_filter_plugins: [runtime::Plugin::PodTopologySpread, runtime::Plugin::InterPodAffinity].into_iter().collect(), ..CycleState::default() }, st)
}

/// Every filter plugin that ran on the node, in order, up to the first failure.
fn run_filter_plugins(pod: &Value, node: &NodeInfo) -> Vec<(String, Status)> {
    let p = PodInfo::from_value(pod.clone());
    let st = state_for(&p, std::slice::from_ref(node));
    let mut out = Vec::new();
    for plugin in runtime::FILTERS {
        if st.skip_filter_plugins.contains(plugin) {
            continue;
        }
        let v = runtime::run_filter(plugin, &st, &p, node);
        let failed = !v.is_success();
        out.push((plugin.name().to_string(), v));
        if failed {
            break;
        }
    }
    out
}

fn non_zero_pod_requests(pod: &Value) -> (i64, i64) {
    PodInfo::from_value(pod.clone()).non_zero
}

fn score_nodes(pod: &Value, feasible: &[&NodeInfo], all_nodes: &[NodeInfo]) -> Vec<NodeScore> {
    let p = PodInfo::from_value(pod.clone());
    let snap = Snapshot::new(all_nodes.to_vec());
    let mut st = state_for(&p, all_nodes);
    runtime::run_pre_score_plugins(&mut st, &p, feasible, &snap, &Listers::default());
    runtime::run_score_plugins(&st, &p, feasible, &snap)
}

fn schedule_pod(pod: &Value, nodes: &[NodeInfo], start: usize, pct: i32, tie: u64) -> (ScheduleOutcome, usize) {
    let c = schedule_one::schedule_pod(&PodInfo::from_value(pod.clone()), &Snapshot::new(nodes.to_vec()), &Listers::default(), start, pct, tie);
    (c.outcome, c.next_start_node_index)
}

fn find_nodes_that_fit(pod: &Value, nodes: &[NodeInfo], start: usize, pct: i32) -> schedule_one::FindResult {
    let mut st = CycleState::default();
    schedule_one::find_nodes_that_fit(&mut st, &PodInfo::from_value(pod.clone()), &Snapshot::new(nodes.to_vec()), &Listers::default(), start, pct)
}

fn default_preemption(pod: &Value, nodes: &[NodeInfo], diagnosis: &Diagnosis) -> PreemptionOutcome {
    let p = PodInfo::from_value(pod.clone());
    let st = state_for(&p, nodes);
    preempt(&st, &p, &Snapshot::new(nodes.to_vec()), diagnosis)
}

fn score_image_locality(pod: &Value, ni: &NodeInfo, all: &[NodeInfo]) -> i64 {
    super::plugins::imagelocality::score(&PodInfo::from_value(pod.clone()), ni, &Snapshot::new(all.to_vec()))
}



fn node(name: &str, cpu: &str, mem: &str, pods: i64) -> Value {
    json!({
        "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name}},
        "spec": {},
        "status": {"allocatable": {"cpu": cpu, "memory": mem, "pods": pods.to_string(), "ephemeral-storage": "100Gi"}}
    })
}

fn with(mut v: Value, path: &str, val: Value) -> Value {
    // set a nested field; path like "spec/taints" or "spec/containers/0/ports"
    {
        let parts: Vec<&str> = path.split('/').collect();
        let mut cur = &mut v;
        for p in &parts[..parts.len() - 1] {
            cur = match cur {
                Value::Array(a) => &mut a[p.parse::<usize>().unwrap()],
                other => {
                    if other.get(*p).is_none() {
                        other[*p] = json!({});
                    }
                    &mut other[*p]
                }
            };
        }
        let last = parts[parts.len() - 1];
        match cur {
            Value::Array(a) => a[last.parse::<usize>().unwrap()] = val,
            other => other[last] = val,
        }
    }
    v
}

fn pod(name: &str, cpu: Option<&str>, mem: Option<&str>) -> Value {
    let mut req = serde_json::Map::new();
    if let Some(c) = cpu {
        req.insert("cpu".into(), json!(c));
    }
    if let Some(m) = mem {
        req.insert("memory".into(), json!(m));
    }
    json!({
        "metadata": {"name": name, "namespace": "default"},
        "spec": {"containers": [{"name": "c", "image": "nginx:1.25", "resources": {"requests": Value::Object(req)}}]}
    })
}

fn ni(node: Value, pods: Vec<Value>) -> NodeInfo {
    NodeInfo::new(node, pods)
}

struct FilterCase {
    name: &'static str,
    pod: Value,
    node: NodeInfo,
    want: Status,
}

fn ok() -> Status {
    Status::success()
}
fn fail(code: Code, plugin: &'static str, reasons: &[&str]) -> Status {
    Status::new(code, plugin, reasons)
}
use Code::{Unschedulable as U, UnschedulableAndUnresolvable as UU};

fn run_cases(cases: Vec<FilterCase>) {
    for c in cases {
        assert_eq!(filter(&c.pod, &c.node), c.want, "{}", c.name);
    }
}

#[test]
fn node_unschedulable_table() {
    let cordoned = with(node("n1", "4", "8Gi", 110), "spec/unschedulable", json!(true));
    run_cases(vec![
        FilterCase {
            name: "schedulable node",
            pod: pod("p", None, None),
            node: ni(node("n1", "4", "8Gi", 110), vec![]),
            want: ok(),
        },
        FilterCase {
            name: "cordoned node rejects",
            pod: pod("p", None, None),
            node: ni(cordoned.clone(), vec![]),
            want: fail(UU, "NodeUnschedulable", &["node(s) were unschedulable"]),
        },
        FilterCase {
            name: "toleration of the unschedulable taint",
            pod: with(
                pod("p", None, None),
                "spec/tolerations",
                json!([{"key": "node.kubernetes.io/unschedulable", "operator": "Exists", "effect": "NoSchedule"}]),
            ),
            node: ni(cordoned.clone(), vec![]),
            want: ok(),
        },
        FilterCase {
            name: "tolerate-everything toleration",
            pod: with(pod("p", None, None), "spec/tolerations", json!([{"operator": "Exists"}])),
            node: ni(cordoned, vec![]),
            want: ok(),
        },
    ]);
}

#[test]
fn node_name_table() {
    run_cases(vec![
        FilterCase {
            name: "no nodeName",
            pod: pod("p", None, None),
            node: ni(node("n1", "4", "8Gi", 110), vec![]),
            want: ok(),
        },
        FilterCase {
            name: "matching nodeName",
            pod: with(pod("p", None, None), "spec/nodeName", json!("n1")),
            node: ni(node("n1", "4", "8Gi", 110), vec![]),
            want: ok(),
        },
        FilterCase {
            name: "other nodeName",
            pod: with(pod("p", None, None), "spec/nodeName", json!("n2")),
            node: ni(node("n1", "4", "8Gi", 110), vec![]),
            want: fail(UU, "NodeName", &["node(s) didn't match the requested node name"]),
        },
    ]);
}

#[test]
fn taint_toleration_table() {
    let cp = with(
        node("cp", "4", "8Gi", 110),
        "spec/taints",
        json!([{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}]),
    );
    let kv = with(
        node("n", "4", "8Gi", 110),
        "spec/taints",
        json!([{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}]),
    );
    let exec = with(
        node("n", "4", "8Gi", 110),
        "spec/taints",
        json!([{"key": "node.kubernetes.io/unreachable", "effect": "NoExecute"}]),
    );
    let soft = with(
        node("n", "4", "8Gi", 110),
        "spec/taints",
        json!([{"key": "a", "value": "b", "effect": "PreferNoSchedule"}]),
    );
    let two = with(
        node("n", "4", "8Gi", 110),
        "spec/taints",
        json!([
            {"key": "first", "value": "1", "effect": "NoSchedule"},
            {"key": "second", "value": "2", "effect": "NoSchedule"}
        ]),
    );
    let tol = |t: Value| with(pod("p", None, None), "spec/tolerations", t);
    run_cases(vec![
        FilterCase {
            name: "control-plane taint, empty value",
            pod: pod("p", None, None),
            node: ni(cp.clone(), vec![]),
            want: fail(
                UU,
                "TaintToleration",
                &["node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }"],
            ),
        },
        FilterCase {
            name: "key/value taint",
            pod: pod("p", None, None),
            node: ni(kv.clone(), vec![]),
            want: fail(UU, "TaintToleration", &["node(s) had untolerated taint {dedicated: gpu}"]),
        },
        FilterCase {
            name: "Equal toleration",
            pod: tol(json!([{"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}])),
            node: ni(kv.clone(), vec![]),
            want: ok(),
        },
        FilterCase {
            name: "empty operator means Equal",
            pod: tol(json!([{"key": "dedicated", "value": "gpu"}])),
            node: ni(kv.clone(), vec![]),
            want: ok(),
        },
        FilterCase {
            name: "Equal with other value",
            pod: tol(json!([{"key": "dedicated", "operator": "Equal", "value": "cpu", "effect": "NoSchedule"}])),
            node: ni(kv.clone(), vec![]),
            want: fail(UU, "TaintToleration", &["node(s) had untolerated taint {dedicated: gpu}"]),
        },
        FilterCase {
            name: "Exists on key, empty effect",
            pod: tol(json!([{"key": "dedicated", "operator": "Exists"}])),
            node: ni(kv.clone(), vec![]),
            want: ok(),
        },
        FilterCase {
            name: "effect mismatch",
            pod: tol(json!([{"key": "dedicated", "operator": "Exists", "effect": "NoExecute"}])),
            node: ni(kv.clone(), vec![]),
            want: fail(UU, "TaintToleration", &["node(s) had untolerated taint {dedicated: gpu}"]),
        },
        FilterCase {
            name: "empty key Exists tolerates all",
            pod: tol(json!([{"operator": "Exists"}])),
            node: ni(kv.clone(), vec![]),
            want: ok(),
        },
        FilterCase {
            name: "unknown operator tolerates nothing",
            pod: tol(json!([{"key": "dedicated", "operator": "Gt", "value": "1"}])),
            node: ni(kv, vec![]),
            want: fail(UU, "TaintToleration", &["node(s) had untolerated taint {dedicated: gpu}"]),
        },
        FilterCase {
            name: "NoExecute taint rejects",
            pod: pod("p", None, None),
            node: ni(exec.clone(), vec![]),
            want: fail(
                UU,
                "TaintToleration",
                &["node(s) had untolerated taint {node.kubernetes.io/unreachable: }"],
            ),
        },
        FilterCase {
            name: "default unreachable toleration",
            pod: tol(
                json!([{"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}]),
            ),
            node: ni(exec, vec![]),
            want: ok(),
        },
        FilterCase {
            name: "PreferNoSchedule does not filter",
            pod: pod("p", None, None),
            node: ni(soft, vec![]),
            want: ok(),
        },
        FilterCase {
            name: "first untolerated taint is reported",
            pod: tol(json!([{"key": "second", "operator": "Exists"}])),
            node: ni(two.clone(), vec![]),
            want: fail(UU, "TaintToleration", &["node(s) had untolerated taint {first: 1}"]),
        },
        FilterCase {
            name: "second taint when the first is tolerated",
            pod: tol(json!([{"key": "first", "operator": "Exists"}])),
            node: ni(two, vec![]),
            want: fail(UU, "TaintToleration", &["node(s) had untolerated taint {second: 2}"]),
        },
    ]);
    assert_eq!(
        untolerated_taint_reason("k", "v", true),
        "node(s) had untolerated taint(s)",
        "redacted reason (1.34.2+)"
    );
}

#[test]
fn node_affinity_table() {
    let labelled = with(
        node("n1", "4", "8Gi", 110),
        "metadata/labels",
        json!({"zone": "z1", "disk": "ssd", "cores": "8", "kubernetes.io/hostname": "n1"}),
    );
    let req = |terms: Value| {
        with(
            pod("p", None, None),
            "spec/affinity",
            json!({"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": terms}}}),
        )
    };
    let expr = |key: &str, op: &str, values: Value| json!([{"matchExpressions": [{"key": key, "operator": op, "values": values}]}]);
    let mismatch = || fail(UU, "NodeAffinity", &["node(s) didn't match Pod's node affinity/selector"]);
    let n = || ni(labelled.clone(), vec![]);
    run_cases(vec![
        FilterCase {
            name: "nodeSelector match",
            pod: with(pod("p", None, None), "spec/nodeSelector", json!({"zone": "z1"})),
            node: n(),
            want: ok(),
        },
        FilterCase {
            name: "nodeSelector mismatch",
            pod: with(pod("p", None, None), "spec/nodeSelector", json!({"zone": "z2"})),
            node: n(),
            want: mismatch(),
        },
        FilterCase {
            name: "nodeSelector missing label",
            pod: with(pod("p", None, None), "spec/nodeSelector", json!({"gpu": "yes"})),
            node: n(),
            want: mismatch(),
        },
        FilterCase { name: "In match", pod: req(expr("zone", "In", json!(["z0", "z1"]))), node: n(), want: ok() },
        FilterCase {
            name: "In mismatch",
            pod: req(expr("zone", "In", json!(["z2"]))),
            node: n(),
            want: mismatch(),
        },
        FilterCase { name: "NotIn match", pod: req(expr("zone", "NotIn", json!(["z2"]))), node: n(), want: ok() },
        FilterCase {
            name: "NotIn on missing label matches",
            pod: req(expr("gpu", "NotIn", json!(["a"]))),
            node: n(),
            want: ok(),
        },
        FilterCase {
            name: "NotIn mismatch",
            pod: req(expr("zone", "NotIn", json!(["z1"]))),
            node: n(),
            want: mismatch(),
        },
        FilterCase { name: "Exists", pod: req(expr("disk", "Exists", json!([]))), node: n(), want: ok() },
        FilterCase {
            name: "Exists missing",
            pod: req(expr("gpu", "Exists", json!([]))),
            node: n(),
            want: mismatch(),
        },
        FilterCase {
            name: "DoesNotExist",
            pod: req(expr("gpu", "DoesNotExist", json!([]))),
            node: n(),
            want: ok(),
        },
        FilterCase {
            name: "DoesNotExist present",
            pod: req(expr("disk", "DoesNotExist", json!([]))),
            node: n(),
            want: mismatch(),
        },
        FilterCase { name: "Gt true", pod: req(expr("cores", "Gt", json!(["4"]))), node: n(), want: ok() },
        FilterCase { name: "Gt false", pod: req(expr("cores", "Gt", json!(["8"]))), node: n(), want: mismatch() },
        FilterCase { name: "Lt true", pod: req(expr("cores", "Lt", json!(["16"]))), node: n(), want: ok() },
        FilterCase {
            name: "Gt on non-integer label",
            pod: req(expr("zone", "Gt", json!(["1"]))),
            node: n(),
            want: mismatch(),
        },
        FilterCase {
            name: "Gt with bad value is an error",
            pod: req(expr("cores", "Gt", json!(["x"]))),
            node: n(),
            want: mismatch(),
        },
        FilterCase {
            name: "In without values is an error",
            pod: req(expr("zone", "In", json!([]))),
            node: n(),
            want: mismatch(),
        },
        FilterCase {
            name: "matchFields name",
            pod: req(json!([{"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n1"]}]}])),
            node: n(),
            want: ok(),
        },
        FilterCase {
            name: "matchFields other name",
            pod: req(json!([{"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n2"]}]}])),
            node: n(),
            want: mismatch(),
        },
        FilterCase {
            name: "matchFields NotIn",
            pod: req(json!([{"matchFields": [{"key": "metadata.name", "operator": "NotIn", "values": ["n2"]}]}])),
            node: n(),
            want: ok(),
        },
        FilterCase {
            name: "terms are ORed",
            pod: req(
                json!([{"matchExpressions": [{"key": "zone", "operator": "In", "values": ["z9"]}]}, {"matchExpressions": [{"key": "disk", "operator": "In", "values": ["ssd"]}]}]),
            ),
            node: n(),
            want: ok(),
        },
        FilterCase {
            name: "expressions are ANDed",
            pod: req(
                json!([{"matchExpressions": [{"key": "zone", "operator": "In", "values": ["z1"]}, {"key": "disk", "operator": "In", "values": ["hdd"]}]}]),
            ),
            node: n(),
            want: mismatch(),
        },
        FilterCase { name: "empty term selects nothing", pod: req(json!([{}])), node: n(), want: mismatch() },
        FilterCase { name: "no terms selects nothing", pod: req(json!([])), node: n(), want: mismatch() },
        FilterCase {
            name: "nodeSelector and affinity both apply",
            pod: with(req(expr("zone", "In", json!(["z1"]))), "spec/nodeSelector", json!({"disk": "hdd"})),
            node: n(),
            want: mismatch(),
        },
    ]);
}

#[test]
fn node_ports_table() {
    let port_pod = |name: &str, port: i64, proto: Option<&str>, ip: Option<&str>| {
        let mut p = json!({"containerPort": 80, "hostPort": port});
        if let Some(pr) = proto {
            p["protocol"] = json!(pr);
        }
        if let Some(i) = ip {
            p["hostIP"] = json!(i);
        }
        with(pod(name, None, None), "spec/containers/0/ports", json!([p]))
    };
    let conflict = || fail(U, "NodePorts", &["node(s) didn't have free ports for the requested pod ports"]);
    let n = |pods: Vec<Value>| ni(node("n1", "4", "8Gi", 110), pods);
    run_cases(vec![
        FilterCase {
            name: "free port",
            pod: port_pod("p", 8080, None, None),
            node: n(vec![port_pod("q", 9090, None, None)]),
            want: ok(),
        },
        FilterCase {
            name: "same port",
            pod: port_pod("p", 8080, None, None),
            node: n(vec![port_pod("q", 8080, Some("TCP"), None)]),
            want: conflict(),
        },
        FilterCase {
            name: "same port, other protocol",
            pod: port_pod("p", 8080, Some("UDP"), None),
            node: n(vec![port_pod("q", 8080, None, None)]),
            want: ok(),
        },
        FilterCase {
            name: "wildcard vs specific IP",
            pod: port_pod("p", 8080, None, None),
            node: n(vec![port_pod("q", 8080, None, Some("10.0.0.1"))]),
            want: conflict(),
        },
        FilterCase {
            name: "specific IP vs wildcard",
            pod: port_pod("p", 8080, None, Some("10.0.0.2")),
            node: n(vec![port_pod("q", 8080, None, None)]),
            want: conflict(),
        },
        FilterCase {
            name: "different specific IPs",
            pod: port_pod("p", 8080, None, Some("10.0.0.2")),
            node: n(vec![port_pod("q", 8080, None, Some("10.0.0.1"))]),
            want: ok(),
        },
        FilterCase {
            name: "containerPort only is not a host port",
            pod: pod("p", None, None),
            node: n(vec![port_pod("q", 8080, None, None)]),
            want: ok(),
        },
    ]);
}

#[test]
fn node_resources_fit_table() {
    let full = |cpu: &str, mem: &str| ni(node("n1", "2", "4Gi", 110), vec![pod("q", Some(cpu), Some(mem))]);
    let init_pod = json!({
        "metadata": {"name": "p", "namespace": "default"},
        "spec": {
            "initContainers": [{"name": "i", "image": "busybox", "resources": {"requests": {"cpu": "1500m"}}}],
            "containers": [{"name": "c", "image": "nginx", "resources": {"requests": {"cpu": "500m"}}}]
        }
    });
    let sidecar_pod = json!({
        "metadata": {"name": "p", "namespace": "default"},
        "spec": {
            "initContainers": [
                {"name": "s", "image": "envoy", "restartPolicy": "Always", "resources": {"requests": {"cpu": "600m"}}},
                {"name": "i", "image": "busybox", "resources": {"requests": {"cpu": "1"}}}
            ],
            "containers": [{"name": "c", "image": "nginx", "resources": {"requests": {"cpu": "500m"}}}]
        }
    });
    let gpu_pod =
        with(pod("p", None, None), "spec/containers/0/resources/requests", json!({"nvidia.com/gpu": "1"}));
    run_cases(vec![
        FilterCase { name: "fits", pod: pod("p", Some("500m"), Some("1Gi")), node: full("1", "1Gi"), want: ok() },
        FilterCase {
            name: "exactly fits",
            pod: pod("p", Some("1"), Some("3Gi")),
            node: full("1", "1Gi"),
            want: ok(),
        },
        FilterCase {
            name: "insufficient cpu",
            pod: pod("p", Some("1500m"), None),
            node: full("1", "1Gi"),
            want: fail(U, "NodeResourcesFit", &["Insufficient cpu"]),
        },
        FilterCase {
            name: "insufficient memory",
            pod: pod("p", None, Some("4Gi")),
            node: full("1", "1Gi"),
            want: fail(U, "NodeResourcesFit", &["Insufficient memory"]),
        },
        FilterCase {
            name: "both insufficient",
            pod: pod("p", Some("1500m"), Some("3500Mi")),
            node: full("1", "1Gi"),
            want: fail(U, "NodeResourcesFit", &["Insufficient cpu", "Insufficient memory"]),
        },
        FilterCase {
            name: "larger than the node is unresolvable",
            pod: pod("p", Some("3"), None),
            node: full("1", "1Gi"),
            want: fail(UU, "NodeResourcesFit", &["Insufficient cpu"]),
        },
        FilterCase {
            name: "no requests fits a full node",
            pod: pod("p", None, None),
            node: full("2", "4Gi"),
            want: ok(),
        },
        FilterCase {
            name: "too many pods",
            pod: pod("p", None, None),
            node: ni(node("n1", "2", "4Gi", 1), vec![pod("q", None, None)]),
            want: fail(U, "NodeResourcesFit", &["Too many pods"]),
        },
        FilterCase {
            name: "too many pods and insufficient cpu",
            pod: pod("p", Some("1500m"), None),
            node: ni(node("n1", "2", "4Gi", 1), vec![pod("q", Some("1"), None)]),
            want: fail(U, "NodeResourcesFit", &["Too many pods", "Insufficient cpu"]),
        },
        FilterCase {
            name: "init container max: 1500m fits 2 cores minus 500m",
            pod: init_pod.clone(),
            node: full("500m", "0"),
            want: ok(),
        },
        FilterCase {
            name: "init container max: 1500m does not fit 1 free core",
            pod: init_pod,
            node: full("1", "0"),
            want: fail(U, "NodeResourcesFit", &["Insufficient cpu"]),
        },
        FilterCase {
            name: "sidecar adds to the total: 1.6 cores needed",
            pod: sidecar_pod.clone(),
            node: full("400m", "0"),
            want: ok(),
        },
        FilterCase {
            name: "sidecar adds to the total: 1.6 > 1.5 free",
            pod: sidecar_pod,
            node: full("500m", "0"),
            want: fail(U, "NodeResourcesFit", &["Insufficient cpu"]),
        },
        FilterCase {
            name: "extended resource absent",
            pod: gpu_pod.clone(),
            node: full("0", "0"),
            want: fail(UU, "NodeResourcesFit", &["Insufficient nvidia.com/gpu"]),
        },
        FilterCase {
            name: "ephemeral storage",
            pod: with(
                pod("p", None, None),
                "spec/containers/0/resources/requests",
                json!({"ephemeral-storage": "200Gi"}),
            ),
            node: full("0", "0"),
            want: fail(UU, "NodeResourcesFit", &["Insufficient ephemeral-storage"]),
        },
    ]);
    // A GPU node, via a properly built allocatable map.
    let mut gpu_node = node("g", "2", "4Gi", 110);
    gpu_node["status"]["allocatable"]["nvidia.com/gpu"] = json!("2");
    let gpu = with(pod("p", None, None), "spec/containers/0/resources/requests", json!({"nvidia.com/gpu": "1"}));
    assert_eq!(filter(&gpu, &ni(gpu_node.clone(), vec![])), ok(), "gpu fits");
    assert_eq!(
        filter(&gpu, &ni(gpu_node, vec![gpu.clone(), gpu.clone()])),
        fail(U, "NodeResourcesFit", &["Insufficient nvidia.com/gpu"]),
        "gpus used up"
    );
}

#[test]
fn filter_order_table() {
    // A node failing several plugins reports only the first in profile order.
    let bad = with(
        with(node("n1", "1", "1Gi", 110), "spec/unschedulable", json!(true)),
        "spec/taints",
        json!([{"key": "x", "effect": "NoSchedule"}]),
    );
    struct C {
        name: &'static str,
        pod: Value,
        node: NodeInfo,
        ran: Vec<&'static str>,
    }
    let cases = [
        C {
            name: "unschedulable first",
            pod: pod("p", Some("4"), None),
            node: ni(bad.clone(), vec![]),
            ran: vec!["NodeUnschedulable"],
        },
        C {
            name: "taint before resources",
            pod: with(
                pod("p", Some("4"), None),
                "spec/tolerations",
                json!([{"key": "node.kubernetes.io/unschedulable", "operator": "Exists"}]),
            ),
            node: ni(bad, vec![]),
            ran: vec!["NodeUnschedulable", "NodeName", "TaintToleration"],
        },
        C {
            name: "all pass",
            pod: pod("p", None, None),
            node: ni(node("n1", "1", "1Gi", 110), vec![]),
            ran: FILTER_PLUGINS[..6].to_vec(),
        },
    ];
    for c in &cases {
        let got: Vec<String> = run_filter_plugins(&c.pod, &c.node).into_iter().map(|(p, _)| p).collect();
        assert_eq!(got, c.ran, "{}", c.name);
    }
}

#[test]
fn pod_requests_table() {
    struct C {
        name: &'static str,
        pod: Value,
        non_zero: (i64, i64),
        requested_cpu: i64,
    }
    let two = json!({"metadata": {"name": "p"}, "spec": {"containers": [
        {"name": "a", "resources": {"requests": {"cpu": "200m"}}},
        {"name": "b", "resources": {}}
    ]}});
    let explicit_zero = json!({"metadata": {"name": "p"}, "spec": {"containers": [
        {"name": "a", "resources": {"requests": {"cpu": "0", "memory": "0"}}}
    ]}});
    let overhead = with(pod("p", Some("250m"), None), "spec/overhead", json!({"cpu": "50m"}));
    let pod_level = with(pod("p", Some("100m"), Some("64Mi")), "spec/resources", json!({"requests": {"cpu": "1"}}));
    let resized = with(
        pod("p", Some("100m"), None),
        "status/containerStatuses",
        json!([{"name": "c", "resources": {"requests": {"cpu": "300m"}}}]),
    );
    let cases = [
        C {
            name: "missing requests get defaults",
            pod: pod("p", None, None),
            non_zero: (100, DEFAULT_MEMORY_REQUEST),
            requested_cpu: 0,
        },
        C {
            name: "per container defaults",
            pod: two,
            non_zero: (300, 2 * DEFAULT_MEMORY_REQUEST),
            requested_cpu: 200,
        },
        C { name: "explicit zero stays zero", pod: explicit_zero, non_zero: (0, 0), requested_cpu: 0 },
        C { name: "overhead is added", pod: overhead, non_zero: (300, DEFAULT_MEMORY_REQUEST), requested_cpu: 300 },
        C {
            name: "pod-level requests override",
            pod: pod_level,
            non_zero: (1000, 64 * 1024 * 1024),
            requested_cpu: 1000,
        },
        C {
            name: "status resources raise requests",
            pod: resized,
            non_zero: (300, DEFAULT_MEMORY_REQUEST),
            requested_cpu: 300,
        },
    ];
    for c in &cases {
        assert_eq!(non_zero_pod_requests(&c.pod), c.non_zero, "{}: non-zero", c.name);
        let n = ni(node("n", "4", "8Gi", 110), vec![c.pod.clone()]);
        assert_eq!(n.requested.milli_cpu, c.requested_cpu, "{}: requested", c.name);
    }
}

/// The worked example for the score formulas (numbers computed by hand in the comments).
fn score_fixture() -> (Value, Vec<NodeInfo>) {
    // A: 4 cores / 8Gi, one pod requesting 1 core / 2Gi, PreferNoSchedule taint, zone=z1,
    //    has nginx:1.25 (500Mi).
    let mut a = node("a", "4", "8Gi", 110);
    a["metadata"]["labels"]["zone"] = json!("z1");
    a["spec"]["taints"] = json!([{"key": "a", "value": "b", "effect": "PreferNoSchedule"}]);
    a["status"]["images"] =
        json!([{"names": ["docker.io/library/nginx@sha256:abc", "nginx:1.25"], "sizeBytes": 524288000}]);
    // B: 2 cores / 2Gi, one best-effort pod, disk=ssd, no image.
    let mut b = node("b", "2", "2Gi", 110);
    b["metadata"]["labels"]["disk"] = json!("ssd");
    // C: not feasible in the scoring call, but has the image (spread 2/3).
    let mut c = node("c", "1", "1Gi", 110);
    c["status"]["images"] = json!([{"names": ["nginx:1.25"], "sizeBytes": 524288000}]);
    let nodes =
        vec![ni(a, vec![pod("qa", Some("1"), Some("2Gi"))]), ni(b, vec![pod("qb", None, None)]), ni(c, vec![])];
    let p = with(
        pod("p", Some("500m"), Some("1Gi")),
        "spec/affinity",
        json!({"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": 10, "preference": {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["z1"]}]}},
            {"weight": 5, "preference": {"matchExpressions": [{"key": "disk", "operator": "Exists"}]}}
        ]}}),
    );
    (p, nodes)
}

#[test]
fn score_formula_table() {
    let (p, nodes) = score_fixture();
    let feasible: Vec<&NodeInfo> = nodes[..2].iter().collect();
    let scores = score_nodes(&p, &feasible, &nodes);
    struct C {
        name: &'static str,
        node: usize,
        plugin: &'static str,
        want: (i64, i64, i64),
    }
    let cases = [
        // one untolerated PreferNoSchedule taint on A: raw 1 -> 100 -> reversed 0, x3
        C { name: "taint A", node: 0, plugin: "TaintToleration", want: (1, 0, 0) },
        C { name: "taint B", node: 1, plugin: "TaintToleration", want: (0, 100, 300) },
        // preferred weights: A matches zone (10), B matches disk (5); max 10
        C { name: "affinity A", node: 0, plugin: "NodeAffinity", want: (10, 100, 200) },
        C { name: "affinity B", node: 1, plugin: "NodeAffinity", want: (5, 50, 100) },
        // A: cpu (4000-1500)*100/4000 = 62, mem (8Gi-3Gi)*100/8Gi = 62 -> 62
        C { name: "least allocated A", node: 0, plugin: "NodeResourcesFit", want: (62, 62, 62) },
        // B: cpu (2000-(100+500))*100/2000 = 70; mem (2Gi-(200Mi+1Gi))*100/2Gi = 40 -> 55
        C { name: "least allocated B", node: 1, plugin: "NodeResourcesFit", want: (55, 55, 55) },
        // A: 1500/4000 = 0.375, 3Gi/8Gi = 0.375 -> std 0 -> 100
        C { name: "balanced A", node: 0, plugin: "NodeResourcesBalancedAllocation", want: (100, 100, 100) },
        // B (real requests): 500/2000 = 0.25, 1Gi/2Gi = 0.5 -> std 0.125 -> 87
        C { name: "balanced B", node: 1, plugin: "NodeResourcesBalancedAllocation", want: (87, 87, 87) },
        // A: 500Mi * 2/3 = 349525333; (349525333-23Mi)*100/(1000Mi-23Mi) = 31
        C { name: "image A", node: 0, plugin: "ImageLocality", want: (31, 31, 31) },
        C { name: "image B", node: 1, plugin: "ImageLocality", want: (0, 0, 0) },
    ];
    for c in &cases {
        let got = scores[c.node].per_plugin.iter().find(|p| p.plugin == c.plugin).map(|p| (p.raw, p.normalized, p.weighted));
        assert_eq!(got, Some(c.want), "{}", c.name);
    }
    assert_eq!(scores[0].total, 393, "total A");
    assert_eq!(scores[1].total, 542, "total B");
    assert_eq!(select_host(&scores, 0).as_deref(), Some("b"), "best node");
}

#[test]
fn score_skip_table() {
    struct C {
        name: &'static str,
        pod: Value,
        plugins: Vec<&'static str>,
    }
    let cases = [
        C {
            name: "best-effort pod without preferences",
            pod: pod("p", None, None),
            plugins: vec!["TaintToleration", "NodeResourcesFit", "ImageLocality"],
        },
        C {
            name: "requests, no preferences",
            pod: pod("p", Some("100m"), None),
            plugins: vec![
                "TaintToleration",
                "NodeResourcesFit",
                "NodeResourcesBalancedAllocation",
                "ImageLocality",
            ],
        },
    ];
    let (_, nodes) = score_fixture();
    let feasible: Vec<&NodeInfo> = nodes.iter().collect();
    for c in &cases {
        let scores = score_nodes(&c.pod, &feasible, &nodes);
        let got: Vec<&str> = scores[0].per_plugin.iter().map(|p| p.plugin).collect();
        assert_eq!(got, c.plugins, "{}", c.name);
    }
}

#[test]
fn normalize_and_helpers_table() {
    struct C {
        name: &'static str,
        input: Vec<i64>,
        reverse: bool,
        want: Vec<i64>,
    }
    let cases = [
        C { name: "scale to max", input: vec![2, 4, 0], reverse: false, want: vec![50, 100, 0] },
        C { name: "reverse", input: vec![2, 4, 0], reverse: true, want: vec![50, 0, 100] },
        C { name: "all zero", input: vec![0, 0], reverse: false, want: vec![0, 0] },
        C { name: "all zero reversed", input: vec![0, 0], reverse: true, want: vec![100, 100] },
        C { name: "integer division", input: vec![1, 3], reverse: false, want: vec![33, 100] },
    ];
    for c in &cases {
        let mut v = c.input.clone();
        default_normalize_score(100, c.reverse, &mut v);
        assert_eq!(v, c.want, "{}", c.name);
    }
    let images = [
        ("nginx", "nginx:latest"),
        ("nginx:1.25", "nginx:1.25"),
        ("localhost:5000/app", "localhost:5000/app:latest"),
        ("localhost:5000/app:v1", "localhost:5000/app:v1"),
    ];
    for (i, w) in images {
        assert_eq!(normalized_image_name(i), w, "normalized image {i}");
    }
    struct L {
        name: &'static str,
        req: i64,
        cap: i64,
        want: i64,
    }
    for l in [
        L { name: "half used", req: 50, cap: 100, want: 50 },
        L { name: "over capacity", req: 150, cap: 100, want: 0 },
        L { name: "no capacity", req: 0, cap: 0, want: 0 },
        L { name: "rounds down", req: 1, cap: 3, want: 66 },
    ] {
        assert_eq!(least_requested_score(l.req, l.cap), l.want, "{}", l.name);
    }
}

#[test]
fn image_locality_table() {
    // One node with a 250Mi image, total 1 node: spread 1.
    struct C {
        name: &'static str,
        size: i64,
        containers: usize,
        want: i64,
    }
    let cases = [
        C { name: "below 23Mi scores 0", size: 10 * MB, containers: 1, want: 0 },
        // (250Mi-23Mi)*100/(1000Mi-23Mi) = 227/977*100 = 23
        C { name: "250Mi one container", size: 250 * MB, containers: 1, want: 23 },
        C { name: "above 1000Mi is capped", size: 2000 * MB, containers: 1, want: 100 },
        // two containers, only one image present: (250-23)/(2000-23) = 11
        C { name: "two containers", size: 250 * MB, containers: 2, want: 11 },
    ];
    for c in &cases {
        let mut n = node("n", "1", "1Gi", 110);
        n["status"]["images"] = json!([{"names": ["app:v1"], "sizeBytes": c.size}]);
        let nodes = vec![ni(n, vec![])];
        let mut containers = vec![json!({"name": "a", "image": "app:v1"})];
        if c.containers == 2 {
            containers.push(json!({"name": "b", "image": "other:v1"}));
        }
        let p = json!({"metadata": {"name": "p"}, "spec": {"containers": containers}});
        assert_eq!(score_image_locality(&p, &nodes[0], &nodes), c.want, "{}", c.name);
    }
}

fn kind_cluster() -> Vec<NodeInfo> {
    let mut cp = node("kind-control-plane", "8", "16Gi", 110);
    cp["spec"]["taints"] = json!([{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}]);
    vec![
        ni(cp, vec![]),
        ni(node("kind-worker", "8", "16Gi", 110), vec![pod("w1", Some("7500m"), None)]),
        ni(node("kind-worker2", "8", "16Gi", 110), vec![pod("w2", Some("7500m"), None)]),
    ]
}

#[test]
fn fit_error_message_table() {
    let st = |code, plugin: &'static str, r: &[&str]| Status::new(code, plugin, r);
    let taint = "node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }";
    struct C {
        name: &'static str,
        n: usize,
        statuses: Vec<(String, Status)>,
        post: Option<&'static str>,
        want: &'static str,
    }
    let cases = [
        C {
            name: "kind cluster, sorted histogram",
            n: 3,
            statuses: vec![
                ("w1".into(), st(U, "NodeResourcesFit", &["Insufficient cpu"])),
                ("cp".into(), st(UU, "TaintToleration", &[taint])),
                ("w2".into(), st(U, "NodeResourcesFit", &["Insufficient cpu"])),
            ],
            post: Some("preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod."),
            want: "0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.",
        },
        C {
            name: "several reasons on one node count separately",
            n: 2,
            statuses: vec![
                ("a".into(), st(U, "NodeResourcesFit", &["Insufficient cpu", "Insufficient memory"])),
                ("b".into(), st(U, "NodeResourcesFit", &["Insufficient memory"])),
            ],
            post: None,
            want: "0/2 nodes are available: 1 Insufficient cpu, 2 Insufficient memory.",
        },
        C {
            name: "whole-string sort puts 10 before 2",
            n: 12,
            statuses: (0..12)
                .map(|i| if i < 10 { (format!("n{i}"), st(U, "NodeResourcesFit", &["Insufficient cpu"])) } else { (format!("n{i}"), st(UU, "NodeAffinity", &["node(s) didn't match Pod's node affinity/selector"])) })
                .collect(),
            post: None,
            want: "0/12 nodes are available: 10 Insufficient cpu, 2 node(s) didn't match Pod's node affinity/selector.",
        },
        C { name: "no statuses", n: 0, statuses: vec![], post: None, want: "0/0 nodes are available:" },
    ];
    for c in &cases {
        assert_eq!(fit_error_message(c.n, &c.statuses, c.post), c.want, "{}", c.name);
    }
    // absent nodes (PreFilterResult) and PreFilter rejections
    let d = Diagnosis {
        node_statuses: vec![("n1".into(), st(U, "NodeResourcesFit", &["Too many pods"]))],
        absent_status: Some(st(UU, "", &["node(s) didn't satisfy plugin(s) [NodeAffinity]"])),
        ..Diagnosis::default()
    };
    assert_eq!(
        fit_error_message_from_diagnosis(46, &d, None),
        "0/46 nodes are available: 1 Too many pods, 45 node(s) didn't satisfy plugin(s) [NodeAffinity].",
        "absent nodes"
    );
    let d = Diagnosis { pre_filter_msg: Some("pod affinity terms conflict".into()), ..Diagnosis::default() };
    assert_eq!(
        fit_error_message_from_diagnosis(3, &d, Some("preemption: x.")),
        "0/3 nodes are available: pod affinity terms conflict. preemption: x.",
        "prefilter message"
    );
}

#[test]
fn num_feasible_nodes_to_find_table() {
    struct C {
        name: &'static str,
        pct: i32,
        n: i32,
        want: i32,
    }
    let cases = [
        C { name: "50 nodes: all", pct: 0, n: 50, want: 50 },
        C { name: "100 nodes: 50% but floor 100", pct: 0, n: 100, want: 100 },
        C { name: "1000 nodes: 42%", pct: 0, n: 1000, want: 420 },
        C { name: "5000 nodes: 10%", pct: 0, n: 5000, want: 500 },
        C { name: "10000 nodes: floor 5%", pct: 0, n: 10000, want: 500 },
        C { name: "explicit 100%", pct: 100, n: 1000, want: 1000 },
        C { name: "explicit 1% floors at 100", pct: 1, n: 1000, want: 100 },
    ];
    for c in &cases {
        assert_eq!(num_feasible_nodes_to_find(c.pct, c.n), c.want, "{}", c.name);
    }
}

#[test]
fn preemption_table() {
    struct C {
        name: &'static str,
        pod: Value,
        nodes: Vec<NodeInfo>,
        want: PreemptionOutcome,
    }
    let big = pod("p", Some("1"), None);
    let mut low = pod("low", Some("7500m"), None);
    low["spec"]["priority"] = json!(-10);
    let mut low2 = pod("low2", Some("500m"), None);
    low2["spec"]["priority"] = json!(-10);
    let mut never = big.clone();
    never["spec"]["preemptionPolicy"] = json!("Never");
    let mut huge = pod("p", Some("9"), None);
    huge["spec"]["priority"] = json!(100);
    let mut one_node = kind_cluster();
    one_node[1] = ni(one_node[1].node.as_ref().clone(), vec![low.clone(), low2.clone()]);
    let mut still_full = kind_cluster();
    still_full[1] = ni(still_full[1].node.as_ref().clone(), vec![pod("w1", Some("7600m"), None), low2]);
    let cases = [
        C {
            name: "kind cluster, equal priorities",
            pod: big.clone(),
            nodes: kind_cluster(),
            want: PreemptionOutcome::Unschedulable(
                "preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.".into(),
            ),
        },
        C {
            name: "preemptionPolicy Never",
            pod: never,
            nodes: kind_cluster(),
            want: PreemptionOutcome::Unschedulable("preemption: not eligible due to preemptionPolicy=Never.".into()),
        },
        C {
            name: "pod larger than any node",
            pod: huge,
            nodes: kind_cluster(),
            want: PreemptionOutcome::Unschedulable("preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.".into()),
        },
        C {
            name: "low-priority victim makes room; the small one is reprieved",
            pod: big.clone(),
            nodes: one_node,
            want: PreemptionOutcome::Nominated(PreemptionCandidate {
                node: "kind-worker".into(),
                victims: vec![("default".into(), "low".into())],
            }),
        },
        C {
            name: "evicting the only low-priority pod is not enough",
            pod: big,
            nodes: still_full,
            want: PreemptionOutcome::Unschedulable(
                "preemption: 0/3 nodes are available: 1 Insufficient cpu, 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.".into(),
            ),
        },
    ];
    for c in &cases {
        let found = find_nodes_that_fit(&c.pod, &c.nodes, 0, 0);
        assert!(found.feasible.is_empty(), "{}: expected no feasible node", c.name);
        assert_eq!(default_preemption(&c.pod, &c.nodes, &found.diagnosis), c.want, "{}", c.name);
    }
    // the brief's helper
    let nodes = kind_cluster();
    let found = find_nodes_that_fit(&pod("p", Some("1"), None), &nodes, 0, 0);
    let d = Diagnosis { node_statuses: found.diagnosis.node_statuses.clone(), ..Diagnosis::default() };
    let msg = match default_preemption(&pod("p", Some("1"), None), &nodes, &d) {
        PreemptionOutcome::Unschedulable(m) => Some(m),
        PreemptionOutcome::Nominated(_) => None,
    };
    assert_eq!(
        msg.as_deref(),
        Some("preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod."),
        "preemption_message"
    );
}

#[test]
fn schedule_pod_table() {
    struct C {
        name: &'static str,
        pod: Value,
        nodes: Vec<NodeInfo>,
        start: usize,
        want: ScheduleOutcome,
        next: usize,
    }
    let ds_pod = with(
        pod("ds", None, None),
        "spec/affinity",
        json!({"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
            {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["kind-worker"]}]}
        ]}}}),
    );
    let mut full_ds_cluster = kind_cluster();
    let mut full_node = full_ds_cluster[1].node.as_ref().clone();
    full_node["status"]["allocatable"]["pods"] = json!("1");
    full_ds_cluster[1] = ni(full_node, vec![pod("w1", Some("7500m"), None)]);
    let conflict_pod = with(
        pod("c", None, None),
        "spec/affinity",
        json!({"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
            {"matchFields": [
                {"key": "metadata.name", "operator": "In", "values": ["a"]},
                {"key": "metadata.name", "operator": "In", "values": ["b"]}
            ]}
        ]}}}),
    );
    let plugins = |v: &[&'static str]| v.iter().copied().collect::<BTreeSet<&'static str>>();
    let cases = [
        C {
            name: "kind cluster full: FailedScheduling message",
            pod: pod("p", Some("1"), None),
            nodes: kind_cluster(),
            start: 0,
            want: ScheduleOutcome::Unschedulable {
                message: "0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.".into(),
                unschedulable_plugins: plugins(&["NodeResourcesFit", "TaintToleration"]),
                preemption: None,
            },
            next: 0,
        },
        C {
            name: "single feasible node is not scored",
            pod: pod("p", Some("100m"), None),
            nodes: kind_cluster()[..2].to_vec(),
            start: 0,
            want: ScheduleOutcome::Scheduled { node: "kind-worker".into(), evaluated_nodes: 2, feasible_nodes: 1, scores: vec![] },
            next: 0,
        },
        C {
            name: "DaemonSet-style pin on a full node",
            pod: ds_pod,
            nodes: full_ds_cluster,
            start: 0,
            want: ScheduleOutcome::Unschedulable {
                message: "0/3 nodes are available: 1 Too many pods, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. no new claims to deallocate, preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.".into(),
                unschedulable_plugins: plugins(&["NodeAffinity", "NodeResourcesFit"]),
                preemption: None,
            },
            next: 1,
        },
        C {
            name: "PreFilter conflict",
            pod: conflict_pod,
            nodes: kind_cluster(),
            start: 2,
            want: ScheduleOutcome::Unschedulable {
                message: "0/3 nodes are available: pod affinity terms conflict. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.".into(),
                unschedulable_plugins: plugins(&["NodeAffinity"]),
                preemption: None,
            },
            next: 2,
        },
        C { name: "no nodes", pod: pod("p", None, None), nodes: vec![], start: 0, want: ScheduleOutcome::NoNodes, next: 0 },
    ];
    for c in &cases {
        let (got, next) = schedule_pod(&c.pod, &c.nodes, c.start, 0, 0);
        assert_eq!(got, c.want, "{}", c.name);
        assert_eq!(next, c.next, "{}: next start index", c.name);
    }
    // Two feasible workers: scored, and the tie breaker picks among equal totals.
    let mut nodes = kind_cluster();
    nodes[1] = ni(nodes[1].node.as_ref().clone(), vec![]);
    nodes[2] = ni(nodes[2].node.as_ref().clone(), vec![]);
    for (tb, want) in [(0u64, "kind-worker"), (1, "kind-worker2")] {
        match schedule_pod(&pod("p", Some("1"), None), &nodes, 0, 0, tb).0 {
            ScheduleOutcome::Scheduled { node, feasible_nodes, evaluated_nodes, scores } => {
                assert_eq!(node, want, "tie breaker {tb}");
                assert_eq!((feasible_nodes, evaluated_nodes, scores.len()), (2, 3, 2), "tie breaker {tb}: counts");
            }
            other => panic!("tie breaker {tb}: {other:?}"),
        }
    }
    // A nominated pod goes straight to its nominated node when it fits.
    let mut nominated = pod("p", Some("1"), None);
    nominated["status"] = json!({"nominatedNodeName": "kind-worker2"});
    match schedule_pod(&nominated, &nodes, 0, 0, 0).0 {
        ScheduleOutcome::Scheduled { node, .. } => assert_eq!(node, "kind-worker2", "nominated node"),
        other => panic!("nominated node: {other:?}"),
    }
}

#[test]
fn never_panics_on_garbage() {
    let garbage = [
        json!(null),
        json!(1),
        json!("x"),
        json!({"spec": 5, "metadata": []}),
        json!({"spec": {"containers": [1, {"resources": {"requests": {"cpu": "bogus"}}}]}}),
        // extreme numbers everywhere: priorities, weights, quantities, image sizes
        json!({
            "metadata": {"name": "x", "labels": {"a": "b"}},
            "spec": {
                "priority": i64::MAX,
                "containers": [{"name": "c", "image": "i", "resources": {"requests": {"cpu": "99999999999999E", "memory": "9Ei", "x.io/y": "1e300"}}}],
                "affinity": {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
                    {"weight": i64::MAX, "preference": {}}, {"weight": i64::MAX, "preference": {}}
                ]}},
                "taints": [{"key": "k", "effect": "PreferNoSchedule"}]
            },
            "status": {
                "allocatable": {"cpu": "9223372036854775807", "memory": "1e300", "pods": "9e18", "x.io/y": "-5"},
                "images": [{"names": ["i:latest"], "sizeBytes": i64::MAX}]
            }
        }),
    ];
    for g in &garbage {
        let n = NodeInfo::new(g.clone(), vec![g.clone(), g.clone()]);
        let _ = run_filter_plugins(g, &n);
        let _ = score_nodes(g, &[&n, &n], &[n.clone(), n.clone()]);
        let _ = schedule_pod(g, &[n.clone(), n.clone()], usize::MAX, 0, u64::MAX);
        let _ = default_preemption(g, std::slice::from_ref(&n), &Diagnosis::default());
    }
    let big = parse_quantity(&json!("1e300")).unwrap();
    let _ = (big.add(&big).canonical(), big.sub(&big).add(&big).milli_value());
}

#[test]
fn filter_trail_matches_run_filter_plugins() {
    let busy = with(node("busy", "1", "1Gi", 110), "spec/unschedulable", json!(false));
    let tainted = with(node("tainted", "4", "8Gi", 110), "spec/taints", json!([{"key": "k", "value": "v", "effect": "NoSchedule"}]));
    let cordoned = with(node("cordoned", "4", "8Gi", 110), "spec/unschedulable", json!(true));
    let nodes = [NodeInfo::new(busy, vec![]), NodeInfo::new(tainted, vec![]), NodeInfo::new(cordoned, vec![]), NodeInfo::new(node("ok", "4", "8Gi", 110), vec![])];
    let pods = [pod("small", Some("100m"), None), pod("big", Some("2"), None)];
    for p in &pods {
        for ni in &nodes {
            let ran: Vec<(&str, Option<String>)> = run_filter_plugins(p, ni)
                .into_iter()
                .map(|(name, st)| (FILTER_PLUGINS.iter().copied().find(|f| *f == name).unwrap(), (!st.is_success()).then(|| st.message())))
                .collect();
            assert_eq!(filter_trail(&filter(p, ni)), ran, "{} on {}", meta_name(p), ni.name());
        }
    }
}

fn meta_name(v: &Value) -> &str {
    s(v.pointer("/metadata/name"))
}


/// Whole cycles of the default profile: the node chosen for each pod of a sequence, each pod
/// assumed on its node before the next (as the binding cycle does), ties drawn from the seeded
/// RNG. Nodes: three 4-CPU nodes, one per zone of ap-northeast-2.
mod placements {
    use super::*;
    use crate::scheduler::internal::cache::Cache;
    use crate::sim::Rng;
    use std::rc::Rc;

    fn zoned(name: &str, zone: &str) -> Value {
        json!({"metadata": {"name": name, "labels": {"kubernetes.io/hostname": name, "topology.kubernetes.io/region": "ap-northeast-2", "topology.kubernetes.io/zone": zone}},
               "spec": {}, "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}})
    }

    fn rs_pod(name: &str, app: &str, extra: Value) -> Value {
        let mut p = json!({"metadata": {"name": name, "namespace": "default", "uid": format!("uid-{name}"), "labels": {"app": app},
                           "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": format!("{app}-rs"), "controller": true}]},
                           "spec": {"containers": [{"name": "c", "image": "nginx:1.27", "resources": {"requests": {"cpu": "100m"}}}]}});
        if let Value::Object(m) = extra {
            for (k, v) in m {
                p["spec"][k] = v;
            }
        }
        p
    }

    /// Runs the pods through the cycle in order; returns the chosen node (or the message).
    fn place(pods: &[Value], extra_nodes: &[(&str, &str)], seed: u64) -> Vec<String> {
        let mut cache = Cache::default();
        for (n, z) in [("node-1", "ap-northeast-2a"), ("node-2", "ap-northeast-2b"), ("node-3", "ap-northeast-2c")].iter().chain(extra_nodes) {
            cache.add_or_update_node(Rc::new(zoned(n, z)));
        }
        let mut listers = Listers::default();
        for app in ["web", "cache"] {
            listers.set_replicaset(&json!({"metadata": {"name": format!("{app}-rs"), "namespace": "default"}, "spec": {"selector": {"matchLabels": {"app": app}}}}), false);
        }
        let mut snap = Snapshot::default();
        let mut rng = Rng::new(seed);
        let mut next = 0;
        let mut out = Vec::new();
        for p in pods {
            cache.update_snapshot(&mut snap);
            let info = Rc::new(PodInfo::from_value(p.clone()));
            let c = schedule_one::schedule_pod(&info, &snap, &listers, next, 0, rng.next_u64());
            next = c.next_start_node_index;
            match c.outcome {
                ScheduleOutcome::Scheduled { node, .. } => {
                    cache.assume_pod(info, &node);
                    out.push(node);
                }
                ScheduleOutcome::Unschedulable { message, .. } => out.push(message),
                ScheduleOutcome::NoNodes => out.push("no nodes".into()),
            }
        }
        out
    }

    #[test]
    fn default_profile_placement_table() {
        let web = |i: usize, extra: Value| rs_pod(&format!("web-{i}"), "web", extra);
        let anti = json!({"affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
            {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": "kubernetes.io/hostname"}]}}});
        let zone_spread = json!({"topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone",
            "whenUnsatisfiable": "DoNotSchedule", "labelSelector": {"matchLabels": {"app": "web"}}}]});
        let near_web = json!({"affinity": {"podAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": 100, "podAffinityTerm": {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": "kubernetes.io/hostname"}}]}}});
        struct C {
            name: &'static str,
            pods: Vec<Value>,
            extra_nodes: Vec<(&'static str, &'static str)>,
            /// Nodes chosen, in order; a count per node where ties make the order the RNG's.
            want: Vec<&'static str>,
        }
        let anti_msg = "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules. no new claims to deallocate, preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.";
        let cases = vec![
            C {
                name: "a ReplicaSet's six pods spread two per node (system default spreading, then LeastAllocated)",
                pods: (0..6).map(|i| web(i, json!({}))).collect(),
                extra_nodes: vec![],
                want: vec!["node-1:2", "node-2:2", "node-3:2"],
            },
            C {
                name: "required anti-affinity on the hostname: the fourth replica does not fit",
                pods: (0..4).map(|i| web(i, anti.clone())).collect(),
                extra_nodes: vec![],
                want: vec!["node-1:1", "node-2:1", "node-3:1", anti_msg],
            },
            C {
                name: "zone spread, maxSkew 1, two nodes in zone a: seven replicas 3/2/2 by zone",
                pods: (0..7).map(|i| web(i, zone_spread.clone())).collect(),
                extra_nodes: vec![("node-4", "ap-northeast-2a")],
                want: vec!["zone-a:3", "zone-b:2", "zone-c:2"],
            },
            C {
                name: "a cache preferring a web pod's node goes where web runs",
                pods: vec![web(0, json!({})), rs_pod("cache-0", "cache", near_web.clone())],
                extra_nodes: vec![],
                want: vec!["same-node"],
            },
        ];
        for c in &cases {
            let got = place(&c.pods, &c.extra_nodes, 7);
            let count = |pred: &dyn Fn(&str) -> bool| got.iter().filter(|n| pred(n)).count();
            for w in &c.want {
                match *w {
                    "same-node" => assert_eq!(got[0], got[1], "{}: {:?}", c.name, got),
                    w if w.starts_with("zone-") => {
                        let (z, n) = w.split_once(':').unwrap();
                        let nodes: &[&str] = match z {
                            "zone-a" => &["node-1", "node-4"],
                            "zone-b" => &["node-2"],
                            _ => &["node-3"],
                        };
                        assert_eq!(count(&|x| nodes.contains(&x)), n.parse::<usize>().unwrap(), "{}: {:?}", c.name, got);
                    }
                    w if w.starts_with("node-") => {
                        let (node, n) = w.split_once(':').unwrap();
                        assert_eq!(count(&|x| x == node), n.parse::<usize>().unwrap(), "{}: {:?}", c.name, got);
                    }
                    msg => assert!(got.iter().any(|g| g == msg), "{}: no {:?} in {:?}", c.name, msg, got),
                }
            }
        }
    }

    /// The same pods and seed give the same nodes, in the same order (ties from the RNG).
    #[test]
    fn placements_are_deterministic_per_seed() {
        let pods: Vec<Value> = (0..9).map(|i| rs_pod(&format!("web-{i}"), "web", json!({}))).collect();
        assert_eq!(place(&pods, &[], 3), place(&pods, &[], 3));
        assert_eq!(place(&pods, &[], 3), ["node-2", "node-1", "node-3", "node-1", "node-2", "node-3", "node-1", "node-2", "node-3"], "seed 3");
    }
}

/// The Scheduler panel's "why the winner won".
#[test]
fn winner_reason_table() {
    use crate::scheduler::{Attempt, NodeVerdict, WinnerReason};
    let score = |plugin: &'static str, weighted: i64| PluginScore { plugin, raw: 0, normalized: 0, weighted };
    let node = |n: &str, scores: Vec<PluginScore>| NodeVerdict { node: n.into(), filters: vec![], total: scores.iter().map(|s| s.weighted).sum(), scores };
    let attempt = |result: &str, nodes: Vec<NodeVerdict>| Attempt { pod: "default/p".into(), time_ms: 0, result: result.into(), nodes };
    let cases = [
        ("one feasible node", attempt("Scheduled to node-2", vec![node("node-1", vec![]), node("node-2", vec![])]), Some(WinnerReason::Only { node: "node-2".into() })),
        (
            "a tie",
            attempt("Scheduled to node-3", vec![node("node-1", vec![score("NodeResourcesFit", 90)]), node("node-3", vec![score("NodeResourcesFit", 90)])]),
            Some(WinnerReason::Tie { node: "node-3".into(), tied: vec!["node-1".into(), "node-3".into()], total: 90 }),
        ),
        (
            "the default spreading decides",
            attempt(
                "Scheduled to node-2",
                vec![
                    node("node-1", vec![score("NodeResourcesFit", 88), score("PodTopologySpread", 100)]),
                    node("node-2", vec![score("NodeResourcesFit", 90), score("PodTopologySpread", 200)]),
                ],
            ),
            Some(WinnerReason::Ahead { node: "node-2".into(), total: 290, runner_up: "node-1".into(), runner_up_total: 188, margins: vec![("PodTopologySpread", 100), ("NodeResourcesFit", 2)] }),
        ),
        ("a failed attempt", attempt("0/3 nodes are available: …", vec![]), None),
    ];
    for (name, a, want) in cases {
        assert_eq!(a.winner_reason(), want, "{name}");
    }
}
