//! The disruption controller (`disruption-controller` in kube-controller-manager): each
//! PodDisruptionBudget's status, which the eviction subresource reads and decrements.
//!
//! Real counterpart: `pkg/controller/disruption/disruption.go` (`trySync`, `getExpectedPodCount`,
//! `getExpectedScale` with its finders for ReplicationControllers, Deployments (through their
//! ReplicaSets), ReplicaSets and StatefulSets, `countHealthyPods`, `buildDisruptedPodMap` with
//! `DeletionTimeout` of 2 minutes, `updatePdbStatus`) and the PDB helper's
//! `UpdateDisruptionAllowedCondition`. Its Events come from the `controllermanager` source, as
//! upstream's recorder names it.
//!
//! What kubesim simplifies: no generic scale-subresource finder (custom resources are not
//! served); no stale `DisruptionTarget` condition clean-up; a sync error is not turned into the
//! fail-safe status (the errors it can meet are a missing controller, reported as upstream's
//! Event, and a failed request, retried).

use crate::api::meta::{self, Resource};
use crate::api::poddisruptionbudget as pdbhelper;
use crate::api::request::{EventType, Identity, Method};
use crate::api::time;
use crate::client::{Recorder, Store, WorkQueue};
use crate::cluster::{self, Component};
use crate::controllers::deployment::controller_identity;
use crate::controllers::expectations::SyncTimer;
use crate::controllers::replicaset::util::is_pod_ready;
use crate::trace::Actor;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// The controller's timers.
pub type Timer = SyncTimer;

type Ctx<'a> = cluster::Ctx<'a, Timer>;
type Input = cluster::Input<Timer>;

/// `DeletionTimeout`: how long an evicted Pod may take to be deleted before the budget counts it
/// again.
pub const DELETION_TIMEOUT_MS: i64 = 2 * 60 * 1000;

pub struct DisruptionController {
    pdbs: Store,
    pods: Store,
    replica_sets: Store,
    deployments: Store,
    stateful_sets: Store,
    replication_controllers: Store,
    queue: WorkQueue,
    recorder: Recorder,
}

impl Default for DisruptionController {
    fn default() -> Self {
        DisruptionController {
            pdbs: Store::default(),
            pods: Store::default(),
            replica_sets: Store::default(),
            deployments: Store::default(),
            stateful_sets: Store::default(),
            replication_controllers: Store::default(),
            queue: WorkQueue::default(),
            recorder: Recorder::new("controllermanager", ""),
        }
    }
}

/// `GetScaledValueFromIntOrPercent` with rounding up.
pub fn scaled_value(v: &Value, total: i64) -> Result<i64, String> {
    match v {
        Value::Number(n) => Ok(n.as_i64().unwrap_or(0)),
        Value::String(s) => match s.strip_suffix('%').and_then(|p| p.parse::<i64>().ok()) {
            Some(p) => Ok((p * total + 99) / 100),
            None => Err(format!("invalid value for IntOrString: invalid value {:?}", s)),
        },
        _ => Ok(0),
    }
}

/// `countHealthyPods`: Ready, not being deleted, not evicted within the deletion timeout.
pub fn count_healthy(pods: &[Value], disrupted: &Map<String, Value>, now_ms: i64) -> i64 {
    pods.iter()
        .filter(|p| !meta::is_deleting(p))
        .filter(|p| !disrupted.get(meta::name(p)).and_then(|t| t.as_str()).and_then(time::parse_rfc3339).map(|t| t + DELETION_TIMEOUT_MS > now_ms).unwrap_or(false))
        .filter(|p| is_pod_ready(p))
        .count() as i64
}

impl DisruptionController {
    fn pods_for(&self, pdb: &Value) -> Vec<Value> {
        let sel = meta::get(pdb, &["spec", "selector"]);
        let empty = Map::new();
        self.pods
            .in_namespace(meta::namespace(pdb))
            .filter(|p| meta::selector_matches(sel, meta::get(p, &["metadata", "labels"]).and_then(|l| l.as_object()).unwrap_or(&empty)))
            .cloned()
            .collect()
    }

    /// The finders: (controller uid, scale) of the Pod's controller.
    fn controller_scale(&self, ns: &str, r: &Value) -> Option<(String, i64)> {
        let (kind, name, uid) = (meta::get_str(r, &["kind"]), meta::get_str(r, &["name"]), meta::get_str(r, &["uid"]));
        let key = format!("{}/{}", ns, name);
        let found = |s: &Store| s.get(&key).filter(|o| meta::uid(o) == uid).cloned();
        let replicas = |o: &Value| meta::get_i64(o, &["spec", "replicas"]).unwrap_or(1);
        match kind {
            "ReplicationController" => found(&self.replication_controllers).map(|o| (uid.to_string(), replicas(&o))),
            "StatefulSet" => found(&self.stateful_sets).map(|o| (uid.to_string(), replicas(&o))),
            "ReplicaSet" => {
                let rs = found(&self.replica_sets)?;
                // a Deployment's ReplicaSet: the Deployment's scale
                match meta::controller_of(&rs).filter(|o| meta::get_str(o, &["kind"]) == "Deployment") {
                    Some(d) => {
                        let dkey = format!("{}/{}", ns, meta::get_str(d, &["name"]));
                        let duid = meta::get_str(d, &["uid"]);
                        self.deployments.get(&dkey).filter(|o| meta::uid(o) == duid).map(|o| (duid.to_string(), replicas(o)))
                    }
                    None => Some((uid.to_string(), replicas(&rs))),
                }
            }
            _ => None,
        }
    }

    /// `getExpectedScale`.
    fn expected_scale(&self, pods: &[Value]) -> Result<(i64, Vec<String>), String> {
        let mut scales: BTreeMap<String, i64> = BTreeMap::new();
        let mut unmanaged = Vec::new();
        for p in pods {
            let Some(r) = meta::controller_of(p) else {
                unmanaged.push(meta::name(p).to_string());
                continue;
            };
            if scales.contains_key(meta::get_str(r, &["uid"])) {
                continue;
            }
            match self.controller_scale(meta::namespace(p), r) {
                Some((uid, n)) => {
                    scales.insert(uid, n);
                }
                None => return Err(format!("found no controllers for pod {:?}", meta::name(p))),
            }
        }
        Ok((scales.values().sum(), unmanaged))
    }

    /// `getExpectedPodCount`: (expectedCount, desiredHealthy, unmanaged Pods).
    fn expected_pod_count(&self, pdb: &Value, pods: &[Value]) -> Result<(i64, i64, Vec<String>), String> {
        let spec = |k: &str| meta::get(pdb, &["spec", k]).filter(|v| !v.is_null());
        if let Some(max) = spec("maxUnavailable") {
            let (expected, unmanaged) = self.expected_scale(pods)?;
            let max = scaled_value(max, expected)?;
            return Ok((expected, (expected - max).max(0), unmanaged));
        }
        if let Some(min) = spec("minAvailable") {
            if min.is_number() {
                return Ok((pods.len() as i64, min.as_i64().unwrap_or(0), Vec::new()));
            }
            let (expected, unmanaged) = self.expected_scale(pods)?;
            return Ok((expected, scaled_value(min, expected)?, unmanaged));
        }
        Ok((0, 0, Vec::new()))
    }

    /// `trySync`.
    fn sync(&mut self, ctx: &mut Ctx, key: &str) {
        let Some(pdb) = self.pdbs.get(key).cloned() else { return };
        let pods = self.pods_for(&pdb);
        if pods.is_empty() {
            self.recorder.event(ctx, &pdb, None, "Normal", "NoPods", "No matching pods found");
        }
        let (expected, desired, unmanaged) = match self.expected_pod_count(&pdb, &pods) {
            Ok(x) => x,
            Err(e) => {
                self.recorder.event(ctx, &pdb, None, "Warning", "CalculateExpectedPodCountFailed", &format!("Failed to calculate the number of expected pods: {}", e));
                return;
            }
        };
        if !unmanaged.is_empty() {
            let sel = crate::api::meta::selector_string(meta::get(&pdb, &["spec", "selector"]));
            self.recorder.event(ctx, &pdb, None, "Warning", "UnmanagedPods", &format!("Pods selected by this PodDisruptionBudget (selector: {}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set \".spec.minAvailable\" field of the PDB to an integer value.", sel));
        }
        // buildDisruptedPodMap
        let now = ctx.now;
        let old: Map<String, Value> = meta::get(&pdb, &["status", "disruptedPods"]).and_then(|d| d.as_object()).cloned().unwrap_or_default();
        let mut disrupted = Map::new();
        let mut recheck: Option<i64> = None;
        for p in pods.iter().filter(|p| !meta::is_deleting(p)) {
            let Some(at) = old.get(meta::name(p)) else { continue };
            let expected_deletion = at.as_str().and_then(time::parse_rfc3339).unwrap_or(0) + DELETION_TIMEOUT_MS;
            if expected_deletion < now {
                self.recorder.event(ctx, p, None, "Warning", "NotDeleted", &format!("Pod was expected by PDB {}/{} to be deleted but it wasn't", meta::namespace(&pdb), meta::namespace(&pdb)));
            } else {
                recheck = Some(recheck.map(|r| r.min(expected_deletion)).unwrap_or(expected_deletion));
                disrupted.insert(meta::name(p).to_string(), at.clone());
            }
        }
        let healthy = count_healthy(&pods, &disrupted, now);
        // updatePdbStatus
        let allowed = if expected <= 0 || healthy - desired <= 0 { 0 } else { healthy - desired };
        let generation = meta::get_i64(&pdb, &["metadata", "generation"]).unwrap_or(0);
        let st = |k: &str| meta::get_i64(&pdb, &["status", k]).unwrap_or(0);
        let same = st("currentHealthy") == healthy
            && st("desiredHealthy") == desired
            && st("expectedPods") == expected
            && st("disruptionsAllowed") == allowed
            && old == disrupted
            && st("observedGeneration") == generation
            && pdbhelper::conditions_are_up_to_date(&pdb);
        if !same {
            let mut copy = pdb.clone();
            let conditions = meta::get(&pdb, &["status", "conditions"]).cloned();
            let mut status = json!({"observedGeneration": generation, "disruptionsAllowed": allowed, "currentHealthy": healthy, "desiredHealthy": desired, "expectedPods": expected});
            if !disrupted.is_empty() {
                status["disruptedPods"] = Value::Object(disrupted);
            }
            if let Some(c) = conditions {
                status["conditions"] = c;
            }
            copy["status"] = status;
            pdbhelper::update_disruption_allowed_condition(&mut copy, now);
            let path = format!("/apis/policy/v1/namespaces/{}/poddisruptionbudgets/{}/status", meta::namespace(&pdb), meta::name(&pdb));
            let resp = ctx.request(Method::Put, &path, Some(copy));
            if resp.ok() {
                self.pdbs.apply(EventType::Modified, &resp.body);
            } else {
                ctx.after_background(1000, Timer::Requeue(key.to_string()));
                return;
            }
        }
        if let Some(at) = recheck {
            ctx.after_background((at - now).max(0), Timer::Requeue(key.to_string()));
        }
    }

    /// Every budget of the Pod's namespace whose selector selects it (`getPdbForPod`).
    fn enqueue_for_pod(&mut self, ctx: &mut Ctx, pod: &Value) {
        let empty = Map::new();
        let labels = meta::get(pod, &["metadata", "labels"]).and_then(|l| l.as_object()).unwrap_or(&empty);
        let keys: Vec<String> = self.pdbs.in_namespace(meta::namespace(pod)).filter(|b| meta::selector_matches(meta::get(b, &["spec", "selector"]), labels)).map(meta::key).collect();
        for k in keys {
            self.queue.enqueue(ctx, &k, Timer::Worker);
        }
    }

    /// A controller's scale changed: its namespace's budgets are synced again.
    fn enqueue_namespace(&mut self, ctx: &mut Ctx, ns: &str) {
        let keys: Vec<String> = self.pdbs.in_namespace(ns).map(meta::key).collect();
        for k in keys {
            self.queue.enqueue(ctx, &k, Timer::Worker);
        }
    }
}

impl Component for DisruptionController {
    type Timer = Timer;

    fn restarted(&self) -> Option<Self> {
        Some(Self::default())
    }

    fn actor(&self) -> Actor {
        Actor::DisruptionController
    }

    fn identity(&self) -> Identity {
        controller_identity("disruption-controller", "disruption-controller")
    }

    fn start(&mut self, ctx: &mut Ctx) {
        let pdbs = ctx.list_and_watch(Resource::PodDisruptionBudgets.info(), "", "", "");
        self.pdbs.replace(pdbs);
        let pods = ctx.list_and_watch(Resource::Pods.info(), "", "", "");
        self.pods.replace(pods);
        let rcs = ctx.list_and_watch(Resource::ReplicationControllers.info(), "", "", "");
        self.replication_controllers.replace(rcs);
        let rss = ctx.list_and_watch(Resource::ReplicaSets.info(), "", "", "");
        self.replica_sets.replace(rss);
        let ds = ctx.list_and_watch(Resource::Deployments.info(), "", "", "");
        self.deployments.replace(ds);
        let sts = ctx.list_and_watch(Resource::StatefulSets.info(), "", "", "");
        self.stateful_sets.replace(sts);
        let keys: Vec<String> = self.pdbs.items.keys().cloned().collect();
        for k in keys {
            self.queue.enqueue(ctx, &k, Timer::Worker);
        }
    }

    fn handle(&mut self, ctx: &mut Ctx, input: Input) {
        match input {
            Input::Watch { resource: Resource::PodDisruptionBudgets, event_type, object } => {
                let old = self.pdbs.apply_shared(event_type, object.clone());
                // a new budget or a changed spec; the eviction handler's status writes too
                let changed = old.map(|o| *o != *object).unwrap_or(true);
                if event_type != EventType::Deleted && changed {
                    self.queue.enqueue(ctx, &meta::key(&object), Timer::Worker);
                }
            }
            Input::Watch { resource: Resource::Pods, event_type, object } => {
                let old = self.pods.apply_shared(event_type, object.clone());
                if let Some(o) = old.filter(|o| o.get("metadata").and_then(|m| m.get("labels")) != object.get("metadata").and_then(|m| m.get("labels"))) {
                    self.enqueue_for_pod(ctx, &o);
                }
                self.enqueue_for_pod(ctx, &object);
            }
            Input::Watch { resource, event_type, object } => {
                let store = match resource {
                    Resource::ReplicaSets => &mut self.replica_sets,
                    Resource::Deployments => &mut self.deployments,
                    Resource::StatefulSets => &mut self.stateful_sets,
                    Resource::ReplicationControllers => &mut self.replication_controllers,
                    _ => return,
                };
                let old = store.apply_shared(event_type, object.clone());
                let scale = |o: &Value| meta::get_i64(o, &["spec", "replicas"]);
                if old.map(|o| scale(&o) != scale(&object)).unwrap_or(false) {
                    self.enqueue_namespace(ctx, meta::namespace(&object));
                }
            }
            Input::Timer(Timer::Worker) => {
                if let Some(k) = self.queue.start_work() {
                    self.sync(ctx, &k);
                }
                self.queue.done(ctx, Timer::Worker);
            }
            Input::Timer(Timer::Requeue(k)) => {
                if self.pdbs.get(&k).is_some() {
                    self.queue.enqueue(ctx, &k, Timer::Worker);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `GetScaledValueFromIntOrPercent(…, roundUp=true)` as the controller calls it.
    #[test]
    fn scaled_values_round_up() {
        for (v, total, want) in [(json!(2), 10, 2), (json!("50%"), 3, 2), (json!("50%"), 4, 2), (json!("10%"), 5, 1), (json!("0%"), 5, 0), (json!("100%"), 7, 7)] {
            assert_eq!(scaled_value(&v, total), Ok(want), "{} of {}", v, total);
        }
    }

    /// The disruptions-allowed arithmetic of upstream's `TestBasicFinderFunctions`-style cases:
    /// (spec, pods Ready, controller scale) -> (expected, desired, allowed).
    #[test]
    fn disruptions_allowed_arithmetic() {
        let mut dc = DisruptionController::default();
        let dep = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "default", "uid": "d1"}, "spec": {"replicas": 4}});
        let rs = json!({"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "web-1", "namespace": "default", "uid": "r1", "ownerReferences": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "web", "uid": "d1", "controller": true}]}, "spec": {"replicas": 4}});
        dc.deployments.apply(EventType::Added, &dep);
        dc.replica_sets.apply(EventType::Added, &rs);
        let pod = |i: usize, ready: bool| json!({"metadata": {"name": format!("web-1-{}", i), "namespace": "default", "labels": {"app": "web"}, "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-1", "uid": "r1", "controller": true}]}, "status": {"conditions": [{"type": "Ready", "status": if ready { "True" } else { "False" }}]}});
        let pods: Vec<Value> = (0..4).map(|i| pod(i, i < 3)).collect();
        let cases = [
            (json!({"minAvailable": 2}), (4, 2, 1)),
            (json!({"minAvailable": "50%"}), (4, 2, 1)),
            (json!({"maxUnavailable": 1}), (4, 3, 0)),
            (json!({"maxUnavailable": "50%"}), (4, 2, 1)),
            (json!({"minAvailable": 4}), (4, 4, 0)),
        ];
        for (spec, (expected, desired, allowed)) in cases {
            let mut s = spec.clone();
            s["selector"] = json!({"matchLabels": {"app": "web"}});
            let pdb = json!({"metadata": {"name": "p", "namespace": "default"}, "spec": s});
            let (e, d, _) = dc.expected_pod_count(&pdb, &pods).expect("counts");
            let healthy = count_healthy(&pods, &Map::new(), 0);
            let a = if e <= 0 || healthy - d <= 0 { 0 } else { healthy - d };
            assert_eq!((e, d, a), (expected, desired, allowed), "{}", spec);
        }
        // an evicted Pod does not count as healthy until the deletion timeout passes
        let mut disrupted = Map::new();
        disrupted.insert("web-1-0".into(), json!(time::rfc3339(0)));
        assert_eq!(count_healthy(&pods, &disrupted, 1_000), 2);
        assert_eq!(count_healthy(&pods, &disrupted, DELETION_TIMEOUT_MS + 1), 3);
    }
}
