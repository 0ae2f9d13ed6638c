//! The DaemonSet controller (`daemonset-controller` in kube-controller-manager, running as the
//! `daemon-set-controller` service account).
//!
//! Real counterpart: `pkg/controller/daemon/daemon_controller.go` (`syncDaemonSet`, `manage`,
//! `podsShouldBeOnNode`, `syncNodes`, `updateDaemonSetStatus`, `NodeShouldRunDaemonPod`),
//! `update.go` (`rollingUpdate`, `constructHistory`, `cleanupHistory`, `getPatch`) and
//! `util/daemonset_util.go`.
//!
//! It watches DaemonSets, Pods, Nodes and ControllerRevisions. For each DaemonSet it records the
//! template as a ControllerRevision (`<name>-<hash>`, the same hash as a Deployment's
//! pod-template-hash), then for every node decides whether a Pod belongs there
//! ([`util::node_should_run_daemon_pod`]) and creates one — through the default scheduler, pinned
//! by a `metadata.name` node affinity and with the daemon tolerations — or deletes the ones that
//! should go. A RollingUpdate replaces old Pods at most `maxUnavailable` nodes at a time (or, with
//! `maxSurge`, starts the new Pod first); OnDelete waits for you to delete them. Then it writes
//! status (`desiredNumberScheduled`, `numberReady`, `updatedNumberScheduled`, …).
//!
//! What kubesim simplifies: a failed daemon Pod is deleted at once (upstream backs off from 1 s
//! up to 15 min per node); orphans are not adopted; a ControllerRevision name collision is not
//! resolved by `collisionCount` (the sync fails and retries); nodes are visited in name order
//! where upstream ranges over a Go map.

pub mod update;
pub mod util;

use crate::api::meta::Resource;
use crate::api::request::{EventType, Identity, Method, Request};
use crate::api::{meta, time};
use crate::client::{Recorder, Store, WorkQueue};
use crate::cluster::{self, Component};
use crate::controllers::deployment::controller_identity;
use crate::controllers::replicaset::util as ru;
use crate::trace::Actor;
use serde_json::{json, Value};
use crate::controllers::expectations::{Expectations, OwnerIndex, SyncTimer};
use std::collections::{BTreeMap, BTreeSet};
use crate::sim::sort::CompactSort;

/// The DaemonSet controller's timers.
pub type Timer = SyncTimer;

type Ctx<'a> = cluster::Ctx<'a, Timer>;
type Input = cluster::Input<Timer>;

pub struct DaemonSetsController {
    daemon_sets: Store,
    pods: Store,
    nodes: Store,
    revisions: Store,
    queue: WorkQueue,
    recorder: Recorder,
    expectations: Expectations,
    by_owner: OwnerIndex,
}

impl Default for DaemonSetsController {
    fn default() -> Self {
        DaemonSetsController {
            daemon_sets: Store::default(),
            pods: Store::default(),
            nodes: Store::default(),
            revisions: Store::default(),
            queue: WorkQueue::default(),
            recorder: Recorder::new("daemonset-controller", ""),
            expectations: Expectations::default(),
            by_owner: OwnerIndex::default(),
        }
    }
}

fn owner_ds_key(obj: &Value) -> Option<String> {
    let r = meta::controller_of(obj)?;
    if meta::get_str(r, &["kind"]) != "DaemonSet" {
        return None;
    }
    Some(format!("{}/{}", meta::namespace(obj), meta::get_str(r, &["name"])))
}

/// `podByCreationTimestampAndPhase`: bound Pods first, then the oldest, then by name.
fn sort_by_creation(pods: &mut [&Value]) {
    pods.csort_by(|a, b| {
        let bound = |p: &Value| !meta::get_str(p, &["spec", "nodeName"]).is_empty();
        bound(b)
            .cmp(&bound(a))
            .then_with(|| meta::get_str(a, &["metadata", "creationTimestamp"]).cmp(meta::get_str(b, &["metadata", "creationTimestamp"])))
            .then_with(|| meta::name(a).cmp(meta::name(b)))
    });
}

/// `util.AllowsSurge`: a RollingUpdate whose maxSurge is not zero.
fn allows_surge(ds: &Value) -> bool {
    if meta::get_str(ds, &["spec", "updateStrategy", "type"]) != "RollingUpdate" {
        return false;
    }
    match meta::get(ds, &["spec", "updateStrategy", "rollingUpdate", "maxSurge"]) {
        Some(Value::Number(n)) => n.as_i64().unwrap_or(0) != 0,
        Some(Value::String(s)) => s.trim_end_matches('%').parse::<i64>().unwrap_or(0) != 0,
        _ => false,
    }
}

fn min_ready_seconds(ds: &Value) -> i32 {
    meta::get_i64(ds, &["spec", "minReadySeconds"]).unwrap_or(0) as i32
}

impl DaemonSetsController {
    /// `getDaemonPods`: the Pods this DaemonSet controls.
    fn daemon_pods(&self, ds: &Value) -> Vec<&Value> {
        self.by_owner.keys(meta::uid(ds)).filter_map(|k| self.pods.get(k)).collect()
    }

    /// `getNodesToDaemonPods`: node name -> its daemon Pods (unbound ones by their target node).
    fn nodes_to_daemon_pods(&self, ds: &Value) -> BTreeMap<String, Vec<&Value>> {
        let mut m: BTreeMap<String, Vec<&Value>> = BTreeMap::new();
        for p in self.daemon_pods(ds) {
            if let Some(n) = util::target_node_name(p) {
                m.entry(n).or_default().push(p);
            }
        }
        m
    }

    fn node_list(&self) -> Vec<Value> {
        self.nodes.values().cloned().collect()
    }

    /// `podsShouldBeOnNode`: the node's name if it needs a Pod, and the Pods to delete there.
    fn pods_should_be_on_node(&mut self, ctx: &mut Ctx, node: &Value, pods: Option<&Vec<&Value>>, ds: &Value, hash: &str) -> (Option<String>, Vec<String>) {
        let e = util::node_should_run_daemon_pod(node, ds);
        let node_name = meta::name(node).to_string();
        let mut to_delete = Vec::new();
        match pods {
            None if e.should_run => return (Some(node_name), to_delete),
            None => {}
            Some(pods) if e.should_continue_running => {
                let mut running: Vec<&Value> = Vec::new();
                for p in pods {
                    if meta::is_deleting(p) {
                        continue;
                    }
                    match meta::get_str(p, &["status", "phase"]) {
                        "Failed" => {
                            let msg = format!("Found failed daemon pod {}/{} on node {}, will try to kill it", meta::namespace(p), meta::name(p), node_name);
                            self.recorder.event(ctx, ds, None, "Warning", "FailedDaemonPod", &msg);
                            to_delete.push(meta::name(p).to_string());
                        }
                        "Succeeded" => {
                            let msg = format!("Found succeeded daemon pod {}/{} on node {}, will try to delete it", meta::namespace(p), meta::name(p), node_name);
                            self.recorder.event(ctx, ds, None, "Normal", "SucceededDaemonPod", &msg);
                            to_delete.push(meta::name(p).to_string());
                        }
                        _ => running.push(p),
                    }
                }
                if !allows_surge(ds) {
                    // more than one running Pod: keep the oldest
                    if running.len() > 1 {
                        sort_by_creation(&mut running);
                        to_delete.extend(running[1..].iter().map(|p| meta::name(p).to_string()));
                    }
                    return (None, to_delete);
                }
                if running.len() <= 1 {
                    let need = running.is_empty() && e.should_run;
                    return (need.then_some(node_name), to_delete);
                }
                // surging: keep the oldest new and the oldest old Pod while the new one is not
                // available and the old one is ready
                sort_by_creation(&mut running);
                let (mut oldest_new, mut oldest_old): (Option<&Value>, Option<&Value>) = (None, None);
                for p in &running {
                    let is_new = meta::get_str(p, &["metadata", "labels", util::REVISION_HASH_LABEL]) == hash;
                    if is_new && oldest_new.is_none() {
                        oldest_new = Some(p);
                    } else if !is_new && oldest_old.is_none() {
                        oldest_old = Some(p);
                    } else {
                        to_delete.push(meta::name(p).to_string());
                    }
                }
                if let (Some(n), Some(o)) = (oldest_new, oldest_old) {
                    if !ru::is_pod_ready(o) || ru::is_pod_available(n, min_ready_seconds(ds), time::EPOCH_MS + ctx.now) {
                        to_delete.push(meta::name(o).to_string());
                    }
                }
            }
            Some(pods) => {
                // the Pod may not stay: delete every daemon Pod here
                to_delete.extend(pods.iter().filter(|p| !meta::is_deleting(p)).map(|p| meta::name(p).to_string()));
            }
        }
        (None, to_delete)
    }

    /// `manage`: which nodes need a Pod and which Pods must go, then `syncNodes`.
    fn manage(&mut self, ctx: &mut Ctx, ds: &Value, hash: &str) -> Option<String> {
        let nodes = self.node_list();
        let node_names: BTreeSet<String> = nodes.iter().map(|n| meta::name(n).to_string()).collect();
        let map: BTreeMap<String, Vec<Value>> = self.nodes_to_daemon_pods(ds).into_iter().map(|(k, v)| (k, v.into_iter().cloned().collect())).collect();
        let mut needing = Vec::new();
        let mut to_delete = Vec::new();
        for node in &nodes {
            let pods: Option<Vec<&Value>> = map.get(meta::name(node)).map(|v| v.iter().collect());
            let (n, d) = self.pods_should_be_on_node(ctx, node, pods.as_ref(), ds, hash);
            needing.extend(n);
            to_delete.extend(d);
        }
        // getUnscheduledPodsWithoutNode: unbound Pods aimed at a node that is gone
        for (n, pods) in &map {
            if !node_names.contains(n) {
                to_delete.extend(pods.iter().filter(|p| meta::get_str(p, &["spec", "nodeName"]).is_empty()).map(|p| meta::name(p).to_string()));
            }
        }
        self.sync_nodes(ctx, ds, &to_delete, &needing, hash)
    }

    /// `syncNodes`: create the Pods (slow-start batches, each pinned to its node) and delete
    /// the others, with expectations set first.
    fn sync_nodes(&mut self, ctx: &mut Ctx, ds: &Value, to_delete: &[String], needing: &[String], hash: &str) -> Option<String> {
        let key = meta::key(ds);
        let creates = ru::cap_to_burst_replicas(needing.len());
        let deletes = ru::cap_to_burst_replicas(to_delete.len());
        if creates == 0 && deletes == 0 {
            return None;
        }
        self.expectations.set(&key, creates as i64, deletes as i64, ctx.now);
        let template = util::create_pod_template(ds, hash);
        let ns = meta::namespace(ds).to_string();
        let mut error = None;
        let mut pos = 0;
        for batch in ru::slow_start_batches(creates, ru::SLOW_START_INITIAL_BATCH_SIZE) {
            let reqs: Vec<Request> = needing[pos..pos + batch]
                .iter()
                .map(|node| {
                    let mut spec = template.get("spec").cloned().unwrap_or(json!({}));
                    util::replace_node_name_affinity(&mut spec, node);
                    let mut md = json!({"generateName": format!("{}-", meta::name(ds)), "namespace": ns, "ownerReferences": [meta::new_controller_ref(ds, "apps/v1", "DaemonSet")]});
                    for f in ["labels", "annotations", "finalizers"] {
                        if let Some(v) = meta::get(&template, &["metadata", f]) {
                            md[f] = v.clone();
                        }
                    }
                    Request::new(Method::Post, format!("/api/v1/namespaces/{}/pods", ns), Some(json!({"apiVersion": "v1", "kind": "Pod", "metadata": md, "spec": spec})))
                })
                .collect();
            pos += batch;
            for resp in ctx.request_batch(reqs) {
                if resp.ok() {
                    let msg = format!("Created pod: {}", meta::name(&resp.body));
                    self.recorder.event(ctx, ds, None, "Normal", "SuccessfulCreate", &msg);
                } else {
                    let msg = format!("Error creating: {}", resp.message());
                    self.recorder.event(ctx, ds, None, "Warning", ru::FAILED_CREATE_REASON, &msg);
                    self.expectations.lower(&key, 1, 0);
                    error = Some(msg);
                }
            }
            if error.is_some() {
                // the batches not attempted are not expected
                self.expectations.lower(&key, (creates - pos) as i64, 0);
                break;
            }
        }
        let reqs = to_delete[..deletes].iter().map(|p| Request::new(Method::Delete, format!("/api/v1/namespaces/{}/pods/{}", ns, p), None)).collect();
        let resps = ctx.request_batch(reqs);
        for (p, resp) in to_delete.iter().zip(resps) {
            if resp.ok() {
                let msg = format!("Deleted pod: {}", p);
                self.recorder.event(ctx, ds, None, "Normal", "SuccessfulDelete", &msg);
            } else {
                self.expectations.lower(&key, 0, 1);
                if resp.code != 404 {
                    let msg = format!("Error deleting: {}", resp.message());
                    self.recorder.event(ctx, ds, None, "Warning", ru::FAILED_DELETE_REASON, &msg);
                    error = Some(msg);
                }
            }
        }
        error
    }

    /// `updateDaemonSetStatus` and `storeDaemonSetStatus`.
    fn update_status(&mut self, ctx: &mut Ctx, ds: &Value, hash: &str, update_observed_gen: bool) {
        let now = time::EPOCH_MS + ctx.now;
        let generation = util::template_generation(ds);
        let map = self.nodes_to_daemon_pods(ds);
        let (mut desired, mut current, mut misscheduled, mut ready, mut updated, mut available) = (0, 0, 0, 0, 0, 0);
        for node in self.nodes.values() {
            let e = util::node_should_run_daemon_pod(node, ds);
            let pods = map.get(meta::name(node));
            let scheduled = pods.map(|p| !p.is_empty()).unwrap_or(false);
            if e.should_run {
                desired += 1;
                let Some(pods) = pods.filter(|_| scheduled) else { continue };
                current += 1;
                let mut pods = pods.clone();
                sort_by_creation(&mut pods);
                let pod = pods[0];
                if ru::is_pod_ready(pod) {
                    ready += 1;
                    if ru::is_pod_available(pod, min_ready_seconds(ds), now) {
                        available += 1;
                    }
                }
                if util::is_pod_updated(pod, hash, generation) {
                    updated += 1;
                }
            } else if scheduled {
                misscheduled += 1;
            }
        }
        let unavailable = desired - available;
        let st = |k: &str| meta::get_i64(ds, &["status", k]).unwrap_or(0);
        let generation_now = meta::get_i64(ds, &["metadata", "generation"]).unwrap_or(0);
        if st("desiredNumberScheduled") == desired
            && st("currentNumberScheduled") == current
            && st("numberMisscheduled") == misscheduled
            && st("numberReady") == ready
            && st("updatedNumberScheduled") == updated
            && st("numberAvailable") == available
            && st("numberUnavailable") == unavailable
            && st("observedGeneration") >= generation_now
        {
            return;
        }
        let mut status = ds.get("status").cloned().unwrap_or(json!({}));
        if !status.is_object() {
            status = json!({});
        }
        if update_observed_gen {
            status["observedGeneration"] = json!(generation_now);
        }
        for (k, v) in [("desiredNumberScheduled", desired), ("currentNumberScheduled", current), ("numberMisscheduled", misscheduled), ("numberReady", ready)] {
            status[k] = json!(v);
        }
        // omitempty in DaemonSetStatus
        for (k, v) in [("updatedNumberScheduled", updated), ("numberAvailable", available), ("numberUnavailable", unavailable)] {
            match v {
                0 => {
                    status.as_object_mut().map(|m| m.remove(k));
                }
                _ => status[k] = json!(v),
            }
        }
        let mut copy = ds.clone();
        copy["status"] = status;
        let path = format!("/apis/apps/v1/namespaces/{}/daemonsets/{}/status", meta::namespace(ds), meta::name(ds));
        let resp = ctx.request(Method::Put, &path, Some(copy));
        if resp.ok() {
            self.daemon_sets.apply(EventType::Modified, &resp.body);
        }
        let min_ready = min_ready_seconds(ds);
        if min_ready > 0 && ready != available {
            ctx.after(min_ready as i64 * 1000 + 1, Timer::Requeue(meta::key(ds)), false);
        }
    }

    /// `syncDaemonSet`.
    fn sync_daemon_set(&mut self, ctx: &mut Ctx, key: &str) {
        let Some(ds) = self.daemon_sets.get(key).cloned() else {
            self.expectations.delete(key);
            return;
        };
        let sel = meta::get(&ds, &["spec", "selector"]);
        let empty = sel.map(|s| meta::get(s, &["matchLabels"]).and_then(Value::as_object).map_or(true, |m| m.is_empty()) && meta::get_array(s, &["matchExpressions"]).is_empty()).unwrap_or(true);
        if empty {
            self.recorder.event(ctx, &ds, None, "Warning", "SelectingAll", "This daemon set is selecting all pods. A non-empty selector is required.");
            return;
        }
        if meta::is_deleting(&ds) {
            return;
        }
        let (hash, old) = match update::construct_history(ctx, &ds, &self.revisions) {
            Ok(x) => x,
            Err(_) => {
                ctx.after_background(1000, Timer::Requeue(key.to_string()));
                return;
            }
        };
        if !self.expectations.satisfied(key, ctx.now) {
            self.update_status(ctx, &ds, &hash, false);
            return;
        }
        let mut err = self.manage(ctx, &ds, &hash);
        if err.is_none() && self.expectations.satisfied(key, ctx.now) && meta::get_str(&ds, &["spec", "updateStrategy", "type"]) == "RollingUpdate" {
            err = self.rolling_update(ctx, &ds, &hash);
        }
        if err.is_none() {
            let live: BTreeSet<String> = self.daemon_pods(&ds).iter().map(|p| meta::get_str(p, &["metadata", "labels", util::REVISION_HASH_LABEL]).to_string()).collect();
            update::cleanup_history(ctx, &ds, &old, &live);
        }
        self.update_status(ctx, &ds, &hash, true);
        if err.is_some() {
            ctx.after_background(1000, Timer::Requeue(key.to_string()));
        }
    }

    /// `rollingUpdate`: the nodes' old Pods replaced within maxUnavailable (or maxSurge).
    fn rolling_update(&mut self, ctx: &mut Ctx, ds: &Value, hash: &str) -> Option<String> {
        let now = time::EPOCH_MS + ctx.now;
        let nodes = self.node_list();
        let map = self.nodes_to_daemon_pods(ds);
        let desired = nodes.iter().filter(|n| util::node_should_run_daemon_pod(n, ds).should_run).count() as i32;
        let (max_surge, max_unavailable) = update::updated_desired_node_counts(ds, desired);
        let generation = util::template_generation(ds);
        let plan = update::plan_rolling_update(&map, hash, generation, max_surge, max_unavailable, &|p| ru::is_pod_available(p, min_ready_seconds(ds), now));
        self.sync_nodes(ctx, ds, &plan.delete, &plan.create, hash)
    }

    /// Every DaemonSet whose Pods a node change may move.
    fn enqueue_all(&mut self, ctx: &mut Ctx) {
        let keys: Vec<String> = self.daemon_sets.items.keys().cloned().collect();
        for k in keys {
            self.queue.enqueue(ctx, &k, Timer::Worker);
        }
    }
}

impl Component for DaemonSetsController {
    type Timer = Timer;

    fn restarted(&self) -> Option<Self> {
        Some(Self::default())
    }

    fn actor(&self) -> Actor {
        Actor::DaemonSetController
    }

    fn identity(&self) -> Identity {
        controller_identity("daemon-set-controller", "daemon-set-controller")
    }

    fn start(&mut self, ctx: &mut Ctx) {
        let ds = ctx.list_and_watch(meta::lookup("daemonsets").expect("ds"), "", "", "");
        self.daemon_sets.replace(ds);
        let revs = ctx.list_and_watch(meta::lookup("controllerrevisions").expect("cr"), "", "", "");
        self.revisions.replace(revs);
        let pods = ctx.list_and_watch(meta::lookup("pods").expect("pods"), "", "", "");
        for p in &pods {
            self.by_owner.index(EventType::Added, p, None);
        }
        self.pods.replace(pods);
        let nodes = ctx.list_and_watch(meta::lookup("nodes").expect("nodes"), "", "", "");
        self.nodes.replace(nodes);
        self.enqueue_all(ctx);
    }

    fn handle(&mut self, ctx: &mut Ctx, input: Input) {
        match input {
            Input::Watch { resource: Resource::DaemonSets, event_type, object } => {
                self.daemon_sets.apply_shared(event_type, object.clone());
                if event_type == EventType::Deleted {
                    self.expectations.delete(&meta::key(&object));
                }
                self.queue.enqueue(ctx, &meta::key(&object), Timer::Worker);
            }
            Input::Watch { resource: Resource::ControllerRevisions, event_type, object } => {
                self.revisions.apply_shared(event_type, object.clone());
                if let Some(k) = owner_ds_key(&object) {
                    if self.daemon_sets.get(&k).is_some() {
                        self.queue.enqueue(ctx, &k, Timer::Worker);
                    }
                }
            }
            Input::Watch { resource: Resource::Pods, event_type, object } => {
                let old = self.pods.apply_shared(event_type, object.clone());
                self.by_owner.index(event_type, &object, old.as_deref());
                if let Some(k) = owner_ds_key(&object) {
                    self.expectations.observe_pod(&k, event_type, &object, old.as_deref());
                    if self.daemon_sets.get(&k).is_some() {
                        self.queue.enqueue(ctx, &k, Timer::Worker);
                    }
                }
            }
            Input::Watch { resource: Resource::Nodes, event_type, object } => {
                let old = self.nodes.apply_shared(event_type, object.clone());
                // addNode, deleteNode, and updateNode when what decides placement changed
                let placement = |n: &Value| (meta::get(n, &["metadata", "labels"]).cloned(), meta::get(n, &["spec", "taints"]).cloned(), meta::get(n, &["spec", "unschedulable"]).cloned());
                let changed = match (&old, event_type) {
                    (_, EventType::Added) | (_, EventType::Deleted) | (None, _) => true,
                    (Some(o), _) => placement(o) != placement(&object),
                };
                if changed {
                    self.enqueue_all(ctx);
                }
            }
            Input::Watch { .. } => {}
            Input::Timer(Timer::Worker) => {
                if let Some(k) = self.queue.start_work() {
                    self.sync_daemon_set(ctx, &k);
                }
                self.queue.done(ctx, Timer::Worker);
            }
            Input::Timer(Timer::Requeue(k)) => {
                if self.daemon_sets.get(&k).is_some() {
                    self.queue.enqueue(ctx, &k, Timer::Worker);
                }
            }
        }
    }
}
