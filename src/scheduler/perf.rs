//! The scheduler alone, as upstream's `scheduler_perf` measures it: nodes and pods made from its
//! templates, a pre-filled queue, each pod scheduled on a fresh snapshot and the cache updated as
//! the binding's watch event would update it. The shell times it (`kubesim bench scheduler`).
//!
//! Real counterpart: `test/integration/scheduler_perf/` — `misc/performance-config.yaml`
//! (SchedulingBasic), `affinity/performance-config.yaml` (SchedulingPodAffinity),
//! `topology_spreading/` (TopologySpreading), `templates/node-default.yaml` (4 CPU, 32Gi,
//! 110 pods) and `pod-default.yaml` (100m CPU, 500Mi). What kubesim simplifies: no API server,
//! no watch — the cycle and the cache are what is measured.

use super::framework::listers::Listers;
use super::framework::types::PodInfo;
use super::internal::cache::{Cache, Snapshot};
use super::schedule_one::{schedule_pod, ScheduleOutcome};
use crate::sim::Rng;
use serde_json::{json, Value};
use std::rc::Rc;

/// The workloads of `kubesim bench scheduler --workload`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Workload {
    /// SchedulingBasic: plain pods.
    Basic,
    /// SchedulingPodAffinity: each pod requires a `color=blue` pod in its zone (the first passes
    /// by matching its own term).
    Affinity,
    /// TopologySpreading: `maxSkew: 1` over zones, `DoNotSchedule`.
    Spread,
}

impl Workload {
    pub fn parse(s: &str) -> Option<Workload> {
        match s {
            "basic" => Some(Workload::Basic),
            "affinity" => Some(Workload::Affinity),
            "spread" => Some(Workload::Spread),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Workload::Basic => "SchedulingBasic",
            Workload::Affinity => "SchedulingPodAffinity",
            Workload::Spread => "TopologySpreading",
        }
    }
}

/// The zones nodes are spread over (`topology.kubernetes.io/zone`).
pub const ZONES: [&str; 3] = ["zone-a", "zone-b", "zone-c"];

/// `node-default.yaml`, with a zone label.
pub fn node(i: usize) -> Value {
    let name = format!("scheduler-perf-{i}");
    json!({
        "apiVersion": "v1", "kind": "Node",
        "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name, "topology.kubernetes.io/zone": ZONES[i % ZONES.len()]}},
        "status": {"allocatable": {"cpu": "4", "memory": "32Gi", "pods": "110"}, "capacity": {"cpu": "4", "memory": "32Gi", "pods": "110"},
                   "conditions": [{"type": "Ready", "status": "True"}]}
    })
}

/// `pod-default.yaml` (and the workload's affinity or spread).
pub fn pod(i: usize, workload: Workload) -> Value {
    let mut p = json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": format!("pod-{i}"), "namespace": "default", "uid": format!("uid-{i}"), "labels": {"color": "blue"}},
        "spec": {"containers": [{"name": "pause", "image": "registry.k8s.io/pause:3.10.1", "ports": [{"containerPort": 80}],
                 "resources": {"requests": {"cpu": "100m", "memory": "500Mi"}, "limits": {"cpu": "100m", "memory": "500Mi"}}}]}
    });
    let blue = json!({"matchLabels": {"color": "blue"}});
    match workload {
        Workload::Basic => {}
        Workload::Affinity => {
            p["spec"]["affinity"] = json!({"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                {"labelSelector": blue, "topologyKey": "topology.kubernetes.io/zone"}]}});
        }
        Workload::Spread => {
            p["spec"]["topologySpreadConstraints"] = json!([
                {"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone", "whenUnsatisfiable": "DoNotSchedule", "labelSelector": blue}]);
        }
    }
    p
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    pub scheduled: usize,
    pub unschedulable: usize,
    /// Nodes with at least one pod at the end, and the most pods on one node.
    pub nodes_used: usize,
    pub max_pods_per_node: usize,
}

/// A cache with `nodes` nodes, and the pods to schedule (decoded as the informer would).
pub fn setup(nodes: usize, pods: usize, workload: Workload) -> (Cache, Vec<Rc<PodInfo>>) {
    let mut cache = Cache::default();
    for i in 0..nodes {
        cache.add_or_update_node(Rc::new(node(i)));
    }
    let queue = (0..pods).map(|i| Rc::new(PodInfo::new(Rc::new(pod(i, workload))))).collect();
    (cache, queue)
}

/// Schedules every pod of `queue` in order: snapshot, cycle, assume, then the bound pod as the
/// informer's event adds it. `progress(done)` is called every 1,000 pods; returning false stops.
pub fn run(cache: &mut Cache, queue: &[Rc<PodInfo>], seed: u64, progress: &mut dyn FnMut(usize) -> bool) -> Outcome {
    let mut rng = Rng::new(seed);
    let mut snapshot = Snapshot::default();
    let listers = Listers::default();
    let mut next = 0usize;
    let mut out = Outcome::default();
    for (n, p) in queue.iter().enumerate() {
        if n % 1000 == 0 && n > 0 && !progress(n) {
            break;
        }
        cache.update_snapshot(&mut snapshot);
        let cycle = schedule_pod(p, &snapshot, &listers, next, 0, rng.next_u64());
        next = cycle.next_start_node_index;
        match cycle.outcome {
            ScheduleOutcome::Scheduled { node, .. } => {
                cache.assume_pod(p.clone(), &node);
                let mut bound = (*p.pod).clone();
                bound["spec"]["nodeName"] = json!(node);
                cache.add_or_update_pod(Rc::new(PodInfo::new(Rc::new(bound))));
                out.scheduled += 1;
            }
            _ => out.unschedulable += 1,
        }
    }
    cache.update_snapshot(&mut snapshot);
    for ni in snapshot.node_info_list() {
        if !ni.pods.is_empty() {
            out.nodes_used += 1;
        }
        out.max_pods_per_node = out.max_pods_per_node.max(ni.pods.len());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whole runs at a small size: every workload places every pod, within the rules.
    #[test]
    fn workloads_place_every_pod_within_their_rules() {
        for (w, nodes, pods) in [(Workload::Basic, 30, 300), (Workload::Affinity, 30, 90), (Workload::Spread, 30, 90)] {
            let (mut cache, queue) = setup(nodes, pods, w);
            let out = run(&mut cache, &queue, 1, &mut |_| true);
            assert_eq!((out.scheduled, out.unschedulable), (pods, 0), "{}", w.name());
            if w == Workload::Spread {
                // zone skew at most 1: 30 pods in each of the 3 zones
                let mut snap = Snapshot::default();
                cache.update_snapshot(&mut snap);
                let mut per_zone = std::collections::BTreeMap::new();
                for ni in snap.node_info_list() {
                    *per_zone.entry(ni.labels["topology.kubernetes.io/zone"].clone()).or_insert(0) += ni.pods.len();
                }
                assert_eq!(per_zone.values().copied().collect::<Vec<_>>(), vec![30, 30, 30], "spread per zone");
            }
        }
    }
}
