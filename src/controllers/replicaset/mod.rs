//! The replicaset controller (`replicaset-controller` in kube-controller-manager).
//!
//! Real counterpart: `pkg/controller/replicaset/replica_set.go` (`syncReplicaSet`,
//! `manageReplicas`, `slowStartBatch`), `replica_set_utils.go` (status), and `pkg/controller/
//! controller_utils.go` (`ControllerExpectations`, `GetPodFromTemplate`, `ActivePodsWithRanks`).
//!
//! It watches ReplicaSets and Pods; for each ReplicaSet it counts the active Pods it controls and
//! creates (in slow-start batches 1, 2, 4, …, at most 500 per sync) or deletes (lowest ranked
//! first) Pods until the count matches `spec.replicas`, then writes status. Expectations stop it
//! from acting again before its own creates and deletes have come back through the watch.
//!
//! The creates of one slow-start batch, and the deletes of one sync, leave together as upstream's
//! goroutines do (`Ctx::request_batch`: one round trip for the batch); the Events follow them.
//!
//! The same controller is kube-controller-manager's `replication-controller` (upstream's
//! `pkg/controller/replication` is this code behind a conversion adapter): [`Flavor`] says which
//! kind it manages; a ReplicationController's label-map selector plays no part here, since the
//! Pods it controls are found by owner reference.
//!
//! What kubesim simplifies: orphan Pods are not adopted; the Events of a batch are written after it
//! (upstream's event broadcaster writes them in the background).

pub mod util;

use crate::api::meta::Resource;
use crate::api::request::EventType;
use crate::api::{meta, time};
use crate::api::request::{Identity, Method, Request};
use crate::client::{Recorder, Store, WorkQueue};
use crate::cluster::{self, Component};
use crate::controllers::deployment::controller_identity;
use crate::trace::Actor;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::rc::Rc;
use util as ru;

pub use crate::controllers::expectations::EXPECTATIONS_TIMEOUT_MS;
use crate::controllers::expectations::{controller_uid, Expectations, SyncTimer};

/// The replicaset controller's timers.
pub type Timer = SyncTimer;

type Ctx<'a> = cluster::Ctx<'a, Timer>;
type Input = cluster::Input<Timer>;

/// Which workload the controller manages: ReplicaSets (apps/v1) or ReplicationControllers (v1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Flavor {
    pub resource: Resource,
    /// Its name in kube-controller-manager, its service account and its Events' source.
    pub name: &'static str,
}

impl Flavor {
    pub const REPLICA_SET: Flavor = Flavor { resource: Resource::ReplicaSets, name: "replicaset-controller" };
    pub const REPLICATION_CONTROLLER: Flavor = Flavor { resource: Resource::ReplicationControllers, name: "replication-controller" };
}

pub struct ReplicaSetController {
    flavor: Flavor,
    replica_sets: Store,
    pods: Store,
    queue: WorkQueue,
    recorder: Recorder,
    expectations: Expectations,
    /// The Pods each ReplicaSet controls (by the owner's uid), with the facts a sync reads
    /// computed once per Pod version: the informer index upstream's `claimPods` gets from a
    /// label-selector list.
    by_owner: BTreeMap<String, BTreeMap<String, OwnedPod>>,
}

/// A Pod in [`ReplicaSetController::by_owner`]: the shared object and what `FilterActivePods`
/// and the status calculation read of it, decoded when its watch event arrives.
struct OwnedPod {
    pod: Rc<Value>,
    /// `metadata.labels` (a small map, copied so a sync does not walk to it in every Pod).
    labels: Option<Value>,
    active: bool,
    ready: bool,
    /// The Ready condition's lastTransitionTime (Unix ms).
    ready_since_ms: Option<i64>,
}

impl OwnedPod {
    fn new(pod: Rc<Value>) -> OwnedPod {
        OwnedPod {
            labels: meta::get(&pod, &["metadata", "labels"]).cloned(),
            active: ru::is_pod_active(&pod),
            ready: ru::is_pod_ready(&pod),
            ready_since_ms: ru::pod_ready_since(&pod),
            pod,
        }
    }
}

impl ru::PodStatusView for OwnedPod {
    fn labels(&self) -> Option<&Value> {
        self.labels.as_ref()
    }
    fn ready(&self) -> bool {
        self.ready
    }
    /// `IsPodAvailable` from the cached facts (the same rule as on the JSON).
    fn available(&self, min_ready_seconds: i32, now_ms: i64) -> bool {
        if !self.ready {
            return false;
        }
        if min_ready_seconds == 0 {
            return true;
        }
        self.ready_since_ms.is_some_and(|t| t.saturating_add(min_ready_seconds as i64 * 1000) < now_ms)
    }
}


impl Default for ReplicaSetController {
    fn default() -> Self {
        ReplicaSetController::new(Flavor::REPLICA_SET)
    }
}

fn owner_rs_key(pod: &Value, kind: &str) -> Option<String> {
    let r = meta::controller_of(pod)?;
    if meta::get_str(r, &["kind"]) != kind {
        return None;
    }
    Some(format!("{}/{}", meta::namespace(pod), meta::get_str(r, &["name"])))
}

impl ReplicaSetController {
    pub fn new(flavor: Flavor) -> Self {
        ReplicaSetController {
            flavor,
            replica_sets: Store::default(),
            pods: Store::default(),
            queue: WorkQueue::default(),
            recorder: Recorder::new(flavor.name, ""),
            expectations: Expectations::default(),
            by_owner: BTreeMap::new(),
        }
    }

    /// The pods controlled by this ReplicaSet (`claimPods` without adoption).
    fn pods_for<'a>(&'a self, rs: &Value) -> impl Iterator<Item = &'a OwnedPod> + 'a {
        self.by_owner.get(meta::uid(rs)).into_iter().flat_map(|m| m.values())
    }

    /// Moves a Pod between owners as its watch event says, with its facts decoded once.
    fn index_pod(&mut self, event_type: EventType, pod: &Rc<Value>, old: Option<&Value>) {
        let key = meta::key(pod);
        if let Some(o) = old.and_then(controller_uid) {
            if let Some(set) = self.by_owner.get_mut(&o) {
                set.remove(&key);
                if set.is_empty() {
                    self.by_owner.remove(&o);
                }
            }
        }
        if event_type != EventType::Deleted {
            if let Some(o) = controller_uid(pod) {
                self.by_owner.entry(o).or_default().insert(key, OwnedPod::new(pod.clone()));
            }
        }
    }

    /// `GetPodFromTemplate`.
    fn pod_from_template(&self, rs: &Value) -> Value {
        let info = self.flavor.resource.info();
        let tpl = meta::get(rs, &["spec", "template"]).cloned().unwrap_or(json!({}));
        let mut md = json!({
            "generateName": format!("{}-", meta::name(rs)),
            "namespace": meta::namespace(rs),
            "ownerReferences": [meta::new_controller_ref(rs, &info.api_version(), info.kind)],
        });
        for f in ["labels", "annotations", "finalizers"] {
            if let Some(v) = meta::get(&tpl, &["metadata", f]) {
                md[f] = v.clone();
            }
        }
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": md, "spec": tpl.get("spec").cloned().unwrap_or(json!({}))})
    }

    /// `manageReplicas`: create or delete pods so that the count matches spec.replicas.
    fn manage_replicas(&mut self, ctx: &mut Ctx, filtered: &[Value], rs: &Value) -> Option<String> {
        let key = meta::key(rs);
        let want = meta::get_i64(rs, &["spec", "replicas"]).unwrap_or(1);
        let diff = filtered.len() as i64 - want;
        if diff < 0 {
            let count = ru::cap_to_burst_replicas((-diff) as usize);
            self.expectations.set(&key, count as i64, 0, ctx.now);
            let mut created = 0;
            let mut error = None;
            // slowStartBatch: each batch's creates go out together (goroutines); a batch with a
            // failure is the last one.
            for batch in ru::slow_start_batches(count, ru::SLOW_START_INITIAL_BATCH_SIZE) {
                let path = format!("/api/v1/namespaces/{}/pods", meta::namespace(rs));
                let reqs = (0..batch).map(|_| Request::new(Method::Post, path.clone(), Some(self.pod_from_template(rs)))).collect();
                for resp in ctx.request_batch(reqs) {
                    if resp.ok() {
                        created += 1;
                        let msg = format!("Created pod: {}", meta::name(&resp.body));
                        self.recorder.event(ctx, rs, None, "Normal", "SuccessfulCreate", &msg);
                    } else {
                        let msg = format!("Error creating: {}", resp.message());
                        self.recorder.event(ctx, rs, None, "Warning", ru::FAILED_CREATE_REASON, &msg);
                        error = Some(msg);
                    }
                }
                if error.is_some() {
                    break;
                }
            }
            if created < count {
                // skipped creates are subtracted from expectations
                self.expectations.lower(&key, (count - created) as i64, 0);
            }
            return error;
        } else if diff > 0 {
            let count = ru::cap_to_burst_replicas(diff as usize);
            // related pods: active pods of ReplicaSets owned by the same controller
            let owner_uid = meta::controller_of(rs).map(|o| meta::get_str(o, &["uid"]).to_string());
            let related: Vec<Value> = match &owner_uid {
                Some(ou) => {
                    let sibling_uids: Vec<String> = self
                        .replica_sets
                        .in_namespace(meta::namespace(rs))
                        .filter(|r| meta::controller_of(r).map(|o| meta::get_str(o, &["uid"]) == ou).unwrap_or(false))
                        .map(|r| meta::uid(r).to_string())
                        .collect();
                    ru::filter_active_pods(
                        &self
                            .pods
                            .in_namespace(meta::namespace(rs))
                            .filter(|p| meta::controller_of(p).map(|o| sibling_uids.iter().any(|u| u == meta::get_str(o, &["uid"]))).unwrap_or(false))
                            .cloned()
                            .collect::<Vec<_>>(),
                    )
                }
                None => filtered.to_vec(),
            };
            let to_delete = ru::get_pods_to_delete(filtered, &related, count, time::EPOCH_MS + ctx.now);
            self.expectations.set(&key, 0, to_delete.len() as i64, ctx.now);
            let mut error = None;
            // The deletes go out together, one goroutine each.
            let reqs = to_delete.iter().map(|p| Request::new(Method::Delete, format!("/api/v1/namespaces/{}/pods/{}", meta::namespace(p), meta::name(p)), None)).collect();
            let resps = ctx.request_batch(reqs);
            for (p, resp) in to_delete.iter().zip(resps) {
                if resp.ok() || resp.code == 404 {
                    if resp.ok() {
                        let msg = format!("Deleted pod: {}", meta::name(p));
                        self.recorder.event(ctx, rs, None, "Normal", "SuccessfulDelete", &msg);
                    } else {
                        self.expectations.lower(&key, 0, 1);
                    }
                } else {
                    let msg = format!("Error deleting: {}", resp.message());
                    self.recorder.event(ctx, rs, None, "Warning", ru::FAILED_DELETE_REASON, &msg);
                    self.expectations.lower(&key, 0, 1);
                    error = Some(msg);
                }
            }
            return error;
        }
        None
    }

    /// `syncReplicaSet`.
    fn sync_replica_set(&mut self, ctx: &mut Ctx, key: &str) {
        let Some(rs) = self.replica_sets.get(key).cloned() else {
            self.expectations.delete(key);
            return;
        };
        let needs_sync = self.expectations.satisfied(key, ctx.now);
        let want = meta::get_i64(&rs, &["spec", "replicas"]).unwrap_or(1);
        let active_count = self.pods_for(&rs).filter(|p| p.active).count() as i64;
        let mut err = None;
        if needs_sync && !meta::is_deleting(&rs) && active_count != want {
            let filtered: Vec<Value> = self.pods_for(&rs).filter(|p| p.active).map(|p| Value::clone(&p.pod)).collect();
            err = self.manage_replicas(ctx, &filtered, &rs);
        }
        let filtered: Vec<&OwnedPod> = self.pods_for(&rs).filter(|p| p.active).collect();
        let wall = time::EPOCH_MS + ctx.now;
        // status counts what the informer has seen (new pods arrive through the watch)
        let new_status = ru::calculate_replica_set_status_with_error(&rs, &filtered, err.as_deref(), wall);
        let mut status_err = false;
        if rs.get("status") != Some(&new_status) {
            let mut copy = rs.clone();
            copy["status"] = new_status.clone();
            let path = format!("{}/status", self.flavor.resource.info().object_path(meta::namespace(&rs), meta::name(&rs)));
            let resp = ctx.request(Method::Put, &path, Some(copy));
            if resp.ok() {
                self.replica_sets.apply(EventType::Modified, &resp.body);
            } else if resp.code != 404 {
                // updateReplicaSetStatus's error is the sync's error: requeued below
                status_err = true;
            }
        }
        // minReadySeconds: check again when pods should have become available
        let min_ready = meta::get_i64(&rs, &["spec", "minReadySeconds"]).unwrap_or(0);
        let ready = meta::get_i64(&new_status, &["readyReplicas"]).unwrap_or(0);
        let avail = meta::get_i64(&new_status, &["availableReplicas"]).unwrap_or(0);
        let replicas = meta::get_i64(&new_status, &["replicas"]).unwrap_or(0);
        if err.is_none() && min_ready > 0 && ready == replicas && avail != replicas {
            ctx.after(min_ready * 1000 + 1, Timer::Requeue(key.to_string()), false);
        }
        // handleErr: a failed sync comes back after the rate limiter's back-off; a good one
        // is forgotten
        if err.is_some() || status_err {
            match self.queue.backoff(key) {
                (delay, true) => ctx.after(delay, Timer::Requeue(key.to_string()), false),
                (delay, false) => ctx.after_background(delay, Timer::Requeue(key.to_string())),
            }
        } else {
            self.queue.forget(key);
        }
    }
}

impl Component for ReplicaSetController {
    type Timer = Timer;

    fn restarted(&self) -> Option<Self> {
        Some(Self::new(self.flavor))
    }

    fn actor(&self) -> Actor {
        match self.flavor.resource {
            Resource::ReplicationControllers => Actor::ReplicationController,
            _ => Actor::ReplicaSetController,
        }
    }

    fn identity(&self) -> Identity {
        controller_identity(self.flavor.name, self.flavor.name)
    }

    fn start(&mut self, ctx: &mut Ctx) {
        let rs = ctx.list_and_watch(self.flavor.resource.info(), "", "", "");
        self.replica_sets.replace(rs);
        let pods = ctx.list_and_watch(meta::lookup("pods").expect("pods"), "", "", "");
        self.pods.replace(pods);
        let listed: Vec<Rc<Value>> = self.pods.items.values().cloned().collect();
        for p in &listed {
            self.index_pod(EventType::Added, p, None);
        }
        let keys: Vec<String> = self.replica_sets.items.keys().cloned().collect();
        for k in keys {
            self.queue.enqueue(ctx, &k, Timer::Worker);
        }
    }

    fn handle(&mut self, ctx: &mut Ctx, input: Input) {
        match input {
            Input::Watch { resource, event_type, object } if resource == self.flavor.resource => {
                self.replica_sets.apply_shared(event_type, object.clone());
                if event_type == EventType::Deleted {
                    self.expectations.delete(&meta::key(&object));
                }
                self.queue.enqueue(ctx, &meta::key(&object), Timer::Worker);
            }
            Input::Watch { resource: Resource::Pods, event_type, object } => {
                let old = self.pods.apply_shared(event_type, object.clone());
                self.index_pod(event_type, &object, old.as_deref());
                if let Some(k) = owner_rs_key(&object, self.flavor.resource.info().kind) {
                    self.expectations.observe_pod(&k, event_type, &object, old.as_deref());
                    if self.replica_sets.get(&k).is_some() {
                        self.queue.enqueue(ctx, &k, Timer::Worker);
                    }
                }
            }
            Input::Watch { .. } => {}
            Input::Timer(Timer::Worker) => {
                if let Some(k) = self.queue.start_work() {
                    self.sync_replica_set(ctx, &k);
                }
                self.queue.done(ctx, Timer::Worker);
            }
            Input::Timer(Timer::Requeue(k)) => {
                if self.replica_sets.get(&k).is_some() {
                    self.queue.enqueue(ctx, &k, Timer::Worker);
                }
            }
        }
    }
}
