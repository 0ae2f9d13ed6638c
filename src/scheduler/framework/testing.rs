//! Fixtures and shims shared by the plugins' test tables (from upstream's plugin tests and hand-checked worked examples) and
//! whole-cycle placements, run through the typed framework: each case is written with Pod and
//! Node JSON as upstream's tests build them with `st.MakePod()`/`st.MakeNode()`, decoded once
//! into `PodInfo`/`NodeInfo` and run through PreFilter/Filter or PreScore/Score.

pub(crate) use super::cycle_state::CycleState;
pub(crate) use super::interface::*;
pub(crate) use super::listers::Listers;
pub(crate) use super::preemption::{default_preemption as preempt, PreemptionCandidate, PreemptionOutcome};
pub(crate) use super::runtime::{self, FILTER_PLUGINS};
pub(crate) use super::types::*;
pub(crate) use super::plugins::tainttoleration::untolerated_taint_reason;
pub(crate) use super::plugins::helper::default_normalize_score;

pub(crate) use super::plugins::noderesources::least_allocated::least_requested_score;

pub(crate) const MB: i64 = 1024 * 1024;
pub(crate) use crate::api::quantity::parse_quantity;
pub(crate) use crate::scheduler::internal::cache::Snapshot;
pub(crate) use crate::scheduler::schedule_one::{self, fit_error_message, fit_error_message_from_diagnosis, num_feasible_nodes_to_find, select_host, ScheduleOutcome};
pub(crate) use serde_json::{json, Value};
pub(crate) use std::collections::BTreeSet;

pub(crate) fn s(v: Option<&Value>) -> &str {
    v.and_then(Value::as_str).unwrap_or("")
}

/// PreFilter over a snapshot of `nodes`, then the node's filter verdict.
pub(crate) fn state_for(pod: &PodInfo, nodes: &[NodeInfo]) -> CycleState {
    let mut st = CycleState::default();
    let snap = Snapshot::new(nodes.to_vec());
    let _ = runtime::run_pre_filter_plugins(&mut st, pod, &snap, &Listers::default());
    st
}

pub(crate) fn filter(pod: &Value, node: &NodeInfo) -> Status {
    let p = PodInfo::from_value(pod.clone());
    let st = state_for(&p, std::slice::from_ref(node));
    runtime::run_filter_plugins(&st, &p, node)
}

pub(crate) fn filter_trail(st: &Status) -> Vec<(&'static str, Option<String>)> {
    runtime::filter_trail(&CycleState { skip_filter_plugins: [runtime::Plugin::PodTopologySpread, runtime::Plugin::InterPodAffinity].into_iter().collect(), ..CycleState::default() }, st)
}

/// Every filter plugin that ran on the node, in order, up to the first failure.
pub(crate) fn run_filter_plugins(pod: &Value, node: &NodeInfo) -> Vec<(String, Status)> {
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

pub(crate) fn non_zero_pod_requests(pod: &Value) -> (i64, i64) {
    PodInfo::from_value(pod.clone()).non_zero
}

pub(crate) fn score_nodes(pod: &Value, feasible: &[&NodeInfo], all_nodes: &[NodeInfo]) -> Vec<NodeScore> {
    let p = PodInfo::from_value(pod.clone());
    let snap = Snapshot::new(all_nodes.to_vec());
    let mut st = state_for(&p, all_nodes);
    runtime::run_pre_score_plugins(&mut st, &p, feasible, &snap, &Listers::default());
    runtime::run_score_plugins(&st, &p, feasible, &snap)
}

pub(crate) fn schedule_pod(pod: &Value, nodes: &[NodeInfo], start: usize, pct: i32, tie: u64) -> (ScheduleOutcome, usize) {
    let c = schedule_one::schedule_pod(&PodInfo::from_value(pod.clone()), &Snapshot::new(nodes.to_vec()), &Listers::default(), start, pct, tie);
    (c.outcome, c.next_start_node_index)
}

pub(crate) fn find_nodes_that_fit(pod: &Value, nodes: &[NodeInfo], start: usize, pct: i32) -> schedule_one::FindResult {
    let mut st = CycleState::default();
    schedule_one::find_nodes_that_fit(&mut st, &PodInfo::from_value(pod.clone()), &Snapshot::new(nodes.to_vec()), &Listers::default(), start, pct)
}

pub(crate) fn default_preemption(pod: &Value, nodes: &[NodeInfo], diagnosis: &Diagnosis) -> PreemptionOutcome {
    default_preemption_with_pdbs(pod, nodes, diagnosis, &[])
}

/// DefaultPreemption with PodDisruptionBudgets (`policy/v1` objects with their status).
pub(crate) fn default_preemption_with_pdbs(pod: &Value, nodes: &[NodeInfo], diagnosis: &Diagnosis, pdbs: &[Value]) -> PreemptionOutcome {
    let p = PodInfo::from_value(pod.clone());
    let st = state_for(&p, nodes);
    let infos: Vec<super::listers::PdbInfo> = pdbs.iter().map(super::listers::PdbInfo::from_json).collect();
    let refs: Vec<&super::listers::PdbInfo> = infos.iter().collect();
    preempt(&st, &p, &Snapshot::new(nodes.to_vec()), diagnosis, &refs)
}

pub(crate) fn score_image_locality(pod: &Value, ni: &NodeInfo, all: &[NodeInfo]) -> i64 {
    super::plugins::imagelocality::score(&PodInfo::from_value(pod.clone()), ni, &Snapshot::new(all.to_vec()))
}



pub(crate) fn node(name: &str, cpu: &str, mem: &str, pods: i64) -> Value {
    json!({
        "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name}},
        "spec": {},
        "status": {"allocatable": {"cpu": cpu, "memory": mem, "pods": pods.to_string(), "ephemeral-storage": "100Gi"}}
    })
}

pub(crate) fn with(mut v: Value, path: &str, val: Value) -> Value {
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

pub(crate) fn pod(name: &str, cpu: Option<&str>, mem: Option<&str>) -> Value {
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

pub(crate) fn ni(node: Value, pods: Vec<Value>) -> NodeInfo {
    NodeInfo::new(node, pods)
}

pub(crate) struct FilterCase {
    pub name: &'static str,
    pub pod: Value,
    pub node: NodeInfo,
    pub want: Status,
}

pub(crate) fn ok() -> Status {
    Status::success()
}
pub(crate) fn fail(code: Code, plugin: &'static str, reasons: &[&str]) -> Status {
    Status::new(code, plugin, reasons)
}
pub(crate) use Code::{Unschedulable as U, UnschedulableAndUnresolvable as UU};

pub(crate) fn run_cases(cases: Vec<FilterCase>) {
    for c in cases {
        assert_eq!(filter(&c.pod, &c.node), c.want, "{}", c.name);
    }
}

/// The worked example for the score formulas (numbers computed by hand in the comments).
pub(crate) fn score_fixture() -> (Value, Vec<NodeInfo>) {
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

pub(crate) fn kind_cluster() -> Vec<NodeInfo> {
    let mut cp = node("kind-control-plane", "8", "16Gi", 110);
    cp["spec"]["taints"] = json!([{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}]);
    vec![
        ni(cp, vec![]),
        ni(node("kind-worker", "8", "16Gi", 110), vec![pod("w1", Some("7500m"), None)]),
        ni(node("kind-worker2", "8", "16Gi", 110), vec![pod("w2", Some("7500m"), None)]),
    ]
}

pub(crate) fn meta_name(v: &Value) -> &str {
    s(v.pointer("/metadata/name"))
}

/// `cache.NewSnapshot(pods, nodes)` as upstream's plugin tests build it: each node with the pods
/// bound to it (`spec.nodeName`).
pub(crate) fn node_infos_of(nodes: &[Value], pods: &[Value]) -> Vec<NodeInfo> {
    nodes
        .iter()
        .map(|n| {
            let name = n["metadata"]["name"].as_str().unwrap_or("");
            let here = pods.iter().filter(|p| p["spec"]["nodeName"].as_str() == Some(name)).cloned().collect();
            NodeInfo::new(n.clone(), here)
        })
        .collect()
}
