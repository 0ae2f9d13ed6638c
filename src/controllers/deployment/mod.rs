//! The deployment controller (`deployment-controller` in kube-controller-manager).
//!
//! Real counterpart: `pkg/controller/deployment/` — `deployment_controller.go` (informer handlers,
//! work queue, `syncDeployment`), `sync.go` (`getNewReplicaSet`, `scale`, `syncRolloutStatus`,
//! `cleanupDeployment`), `rolling.go` (`rolloutRolling`, `reconcileNewReplicaSet`,
//! `reconcileOldReplicaSets`), `recreate.go`, `progress.go` — each in the file of the same name here
//! (`sync.rs`, `rolling.rs`, `recreate.rs`, `progress.rs`); the arithmetic lives in [`util`].
//! This file holds `deployment_controller.go`'s part: the informer handlers and `syncDeployment`.
//!
//! The controller watches Deployments and ReplicaSets through the API server, keeps them in informer
//! stores, and reconciles one Deployment key at a time. Every change it makes is a request.
//!
//! Like upstream it also keeps a pod informer: `Recreate` waits until no Pod of an old ReplicaSet is
//! left (`oldPodsRunning`), and a Pod's deletion wakes a Recreate Deployment that has no Pods left
//! (`deletePod`).
//!
//! What kubesim simplifies: rollback through the legacy `rollbackTo` field is not simulated (`kubectl rollout undo` is
//! client-side anyway); a failed sync is requeued after the work queue's per-item exponential
//! back-off (`handleErr`), without its overall 10 qps bucket.

mod progress;
mod recreate;
mod rolling;
mod sync;
pub mod util;

use crate::api::meta::Resource;
use crate::api::request::EventType;
use crate::api::{meta, time};
use crate::api::request::{Identity, Method};
use crate::client::{Recorder, Store, WorkQueue};
use crate::cluster::{self, Component};
use crate::trace::Actor;
use serde_json::{json, Value};
use std::rc::Rc;
use util as du;

/// The deployment controller's timers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Timer {
    /// A work-queue worker wakes up.
    Worker,
    /// `requeueStuckDeployment`: look at a Deployment again when its progress deadline passes.
    Resync(String),
}

impl std::fmt::Display for Timer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Timer::Worker => f.write_str("workqueue"),
            Timer::Resync(key) => write!(f, "resync:{}", key),
        }
    }
}

type Ctx<'a> = cluster::Ctx<'a, Timer>;
type Input = cluster::Input<Timer>;

/// A sync step that upstream ends with `return err`: a request failed (a 409 Conflict, say) or a
/// computed scale was invalid. `syncDeployment` stops there and the key is requeued (`handleErr`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SyncError;

type SyncResult<T = ()> = Result<T, SyncError>;

pub struct DeploymentController {
    deployments: Store,
    replica_sets: Store,
    pods: Store,
    queue: WorkQueue,
    recorder: Recorder,
}

impl Default for DeploymentController {
    fn default() -> Self {
        DeploymentController {
            deployments: Store::default(),
            replica_sets: Store::default(),
            pods: Store::default(),
            queue: WorkQueue::default(),
            recorder: Recorder::new("deployment-controller", ""),
        }
    }
}

/// The identity kube-controller-manager uses for one controller with `--use-service-account-credentials`.
pub fn controller_identity(sa: &str, ua_suffix: &str) -> Identity {
    Identity {
        username: format!("system:serviceaccount:kube-system:{}", sa),
        uid: String::new(),
        groups: vec!["system:serviceaccounts".into(), "system:serviceaccounts:kube-system".into(), "system:authenticated".into()],
        user_agent: format!(
            "kube-controller-manager/{} (linux/amd64) kubernetes/{}/system:serviceaccount:kube-system:{}",
            crate::KUBE_VERSION,
            crate::KUBE_COMMIT,
            ua_suffix
        ),
        source_ip: "192.168.49.2".into(),
        impersonate: None,
    }
}

fn wall(ctx: &Ctx) -> i64 {
    time::EPOCH_MS + ctx.now
}

fn rs_path(ns: &str, name: &str) -> String {
    format!("/apis/apps/v1/namespaces/{}/replicasets/{}", ns, name)
}

impl DeploymentController {
    /// addReplicaSet/updateReplicaSet/deleteReplicaSet: find the owning (or adopting) Deployment.
    fn enqueue_for_rs(&mut self, ctx: &mut Ctx, rs: &Value) {
        if let Some(owner) = meta::controller_of(rs) {
            if meta::get_str(owner, &["kind"]) == "Deployment" {
                let key = format!("{}/{}", meta::namespace(rs), meta::get_str(owner, &["name"]));
                if self.deployments.get(&key).map(|d| meta::uid(d) == meta::get_str(owner, &["uid"])).unwrap_or(false) {
                    self.queue.enqueue(ctx, &key, Timer::Worker);
                }
            }
            return;
        }
        // an orphan: every Deployment whose selector matches may adopt it
        let labels = meta::labels(rs);
        let keys: Vec<String> = self
            .deployments
            .in_namespace(meta::namespace(rs))
            .filter(|d| meta::selector_matches(meta::get(d, &["spec", "selector"]), &labels))
            .map(meta::key)
            .collect();
        for k in keys {
            self.queue.enqueue(ctx, &k, Timer::Worker);
        }
    }

    /// `getDeploymentForPod`: the Deployment controlling the ReplicaSet that controls the Pod.
    fn get_deployment_for_pod(&self, pod: &Value) -> Option<Value> {
        let rs_ref = meta::controller_of(pod).filter(|r| meta::get_str(r, &["kind"]) == "ReplicaSet")?;
        let rs = self.replica_sets.get(&format!("{}/{}", meta::namespace(pod), meta::get_str(rs_ref, &["name"])))?;
        if meta::uid(rs) != meta::get_str(rs_ref, &["uid"]) {
            return None;
        }
        let d_ref = meta::controller_of(rs).filter(|r| meta::get_str(r, &["kind"]) == "Deployment")?;
        let d = self.deployments.get(&format!("{}/{}", meta::namespace(rs), meta::get_str(d_ref, &["name"])))?;
        (meta::uid(d) == meta::get_str(d_ref, &["uid"])).then(|| d.clone())
    }

    /// `deletePod`: a Recreate Deployment is synced again once it has no Pods left.
    fn delete_pod(&mut self, ctx: &mut Ctx, pod: &Value) {
        let Some(d) = self.get_deployment_for_pod(pod) else { return };
        if meta::get_str(&d, &["spec", "strategy", "type"]) != du::RECREATE_DEPLOYMENT_STRATEGY_TYPE {
            return;
        }
        let rs_list: Vec<Value> = self
            .replica_sets
            .in_namespace(meta::namespace(&d))
            .filter(|rs| meta::controller_of(rs).is_some_and(|o| meta::get_str(o, &["uid"]) == meta::uid(&d)))
            .cloned()
            .collect();
        let num_pods: usize = self.get_pod_map_for_deployment(&d, &rs_list).iter().map(|(_, pods)| pods.len()).sum();
        if num_pods == 0 {
            self.queue.enqueue(ctx, &meta::key(&d), Timer::Worker);
        }
    }

    /// `getPodMapForDeployment`: the Pods the Deployment's selector matches, grouped by the
    /// ReplicaSet of `rs_list` that controls them (inactive Pods included: Recreate must see them).
    fn get_pod_map_for_deployment(&self, d: &Value, rs_list: &[Value]) -> Vec<(String, Vec<Value>)> {
        let selector = meta::get(d, &["spec", "selector"]);
        let mut map: Vec<(String, Vec<Value>)> = rs_list.iter().map(|rs| (meta::uid(rs).to_string(), Vec::new())).collect();
        for pod in self.pods.in_namespace(meta::namespace(d)) {
            if !meta::selector_matches(selector, &meta::labels(pod)) {
                continue;
            }
            let Some(owner) = meta::controller_of(pod) else { continue };
            if let Some((_, pods)) = map.iter_mut().find(|(uid, _)| uid == meta::get_str(owner, &["uid"])) {
                pods.push(pod.clone());
            }
        }
        map
    }

    /// `getReplicaSetsForDeployment`: claim (adopt/orphan) ReplicaSets via the ControllerRefManager.
    fn get_replica_sets_for_deployment(&mut self, ctx: &mut Ctx, d: &Value) -> Vec<Value> {
        let ns = meta::namespace(d).to_string();
        let uid = meta::uid(d).to_string();
        let selector = meta::get(d, &["spec", "selector"]).cloned();
        // Only the ReplicaSets this Deployment controls or could adopt are copied (the others in
        // the namespace are skipped without a copy: a namespace of 100 Deployments has 100 of them).
        let candidates: Vec<Rc<Value>> = self
            .replica_sets
            .in_namespace_shared(&ns)
            .filter(|rs| meta::controller_of(rs).map_or(true, |o| meta::get_str(o, &["uid"]) == uid))
            .cloned()
            .collect();
        let mut owned = Vec::new();
        for rs in candidates {
            let rs = Rc::unwrap_or_clone(rs);
            let matches = meta::selector_matches(selector.as_ref(), &meta::labels(&rs));
            match meta::controller_of(&rs).map(|o| meta::get_str(o, &["uid"]).to_string()) {
                Some(owner) if owner == uid => {
                    if matches || meta::is_deleting(d) {
                        owned.push(rs);
                    } else {
                        // release: remove our controller reference
                        let refs: Vec<Value> = meta::get(&rs, &["metadata", "ownerReferences"])
                            .and_then(|r| r.as_array())
                            .map(|a| a.iter().filter(|r| meta::get_str(r, &["uid"]) != uid).cloned().collect())
                            .unwrap_or_default();
                        ctx.merge_patch(&rs_path(&ns, meta::name(&rs)), json!({"metadata": {"ownerReferences": refs, "uid": meta::uid(&rs)}}));
                    }
                }
                Some(_) => {}
                None => {
                    if matches && !meta::is_deleting(d) && !meta::is_deleting(&rs) {
                        let mut refs = meta::get(&rs, &["metadata", "ownerReferences"]).and_then(|r| r.as_array()).cloned().unwrap_or_default();
                        refs.push(meta::new_controller_ref(d, "apps/v1", "Deployment"));
                        let resp = ctx.merge_patch(&rs_path(&ns, meta::name(&rs)), json!({"metadata": {"ownerReferences": refs, "uid": meta::uid(&rs)}}));
                        if resp.ok() {
                            owned.push(resp.body);
                        }
                    }
                }
            }
        }
        owned
    }

    /// `syncDeployment`.
    fn sync_deployment(&mut self, ctx: &mut Ctx, key: &str) -> SyncResult {
        let Some(d) = self.deployments.get(key).cloned() else {
            return Ok(()); // deleted: the garbage collector removes what it owned
        };
        let selector_empty = meta::get(&d, &["spec", "selector"]).and_then(|s| s.as_object()).map(|s| s.values().all(|v| v.as_object().map(|o| o.is_empty()).unwrap_or(v.as_array().map(|a| a.is_empty()).unwrap_or(true)))).unwrap_or(true);
        if selector_empty {
            self.recorder.event(ctx, &d, None, "Warning", "SelectingAll", "This deployment is selecting all pods. A non-empty selector is required.");
            let g = meta::get_i64(&d, &["metadata", "generation"]).unwrap_or(0);
            if meta::get_i64(&d, &["status", "observedGeneration"]).unwrap_or(0) < g {
                let mut d2 = d.clone();
                meta::set(&mut d2, &["status", "observedGeneration"], json!(g));
                self.update_status(ctx, &d2);
            }
            return Ok(());
        }
        let rs_list = self.get_replica_sets_for_deployment(ctx, &d);
        if meta::is_deleting(&d) {
            return self.sync_status_only(ctx, &d, rs_list);
        }
        // Upstream works on one deep copy: the paused condition is written into it and later
        // steps see it (with the resourceVersion read from the cache, as upstream's copy has).
        let mut d = d;
        self.check_paused_conditions(ctx, &mut d)?;
        if du::is_paused(&d) {
            return self.sync(ctx, &d, rs_list);
        }
        if self.is_scaling_event(&d, &rs_list) {
            return self.sync(ctx, &d, rs_list);
        }
        if meta::get_str(&d, &["spec", "strategy", "type"]) == du::RECREATE_DEPLOYMENT_STRATEGY_TYPE {
            self.rollout_recreate(ctx, &d, rs_list)
        } else {
            self.rollout_rolling(ctx, &d, rs_list)
        }
    }

}

impl Component for DeploymentController {
    type Timer = Timer;

    fn restarted(&self) -> Option<Self> {
        Some(Self::default())
    }

    fn actor(&self) -> Actor {
        Actor::DeploymentController
    }

    fn identity(&self) -> Identity {
        controller_identity("deployment-controller", "deployment-controller")
    }

    fn start(&mut self, ctx: &mut Ctx) {
        let d = ctx.list_and_watch(meta::lookup("deployments").expect("deployments"), "", "", "");
        self.deployments.replace(d);
        let rs = ctx.list_and_watch(meta::lookup("replicasets").expect("replicasets"), "", "", "");
        self.replica_sets.replace(rs);
        let pods = ctx.list_and_watch(meta::lookup("pods").expect("pods"), "", "", "");
        self.pods.replace(pods);
        let keys: Vec<String> = self.deployments.items.keys().cloned().collect();
        for k in keys {
            self.queue.enqueue(ctx, &k, Timer::Worker);
        }
    }

    fn handle(&mut self, ctx: &mut Ctx, input: Input) {
        match input {
            Input::Watch { resource: Resource::Deployments, event_type, object } => {
                self.deployments.apply_shared(event_type, object.clone());
                if event_type != EventType::Deleted {
                    self.queue.enqueue(ctx, &meta::key(&object), Timer::Worker);
                }
            }
            Input::Watch { resource: Resource::ReplicaSets, event_type, object } => {
                self.replica_sets.apply_shared(event_type, object.clone());
                self.enqueue_for_rs(ctx, &object);
            }
            Input::Watch { resource: Resource::Pods, event_type, object } => {
                self.pods.apply_shared(event_type, object.clone());
                if event_type == EventType::Deleted {
                    self.delete_pod(ctx, &object);
                }
            }
            Input::Watch { .. } => {}
            Input::Timer(Timer::Worker) => {
                if let Some(k) = self.queue.start_work() {
                    if self.sync_deployment(ctx, &k).is_err() {
                        // handleErr: requeue the key after the rate limiter's back-off
                        match self.queue.backoff(&k) {
                            (delay, true) => ctx.after(delay, Timer::Resync(k.clone()), false),
                            (delay, false) => ctx.after_background(delay, Timer::Resync(k.clone())),
                        }
                    } else {
                        self.queue.forget(&k);
                    }
                }
                self.queue.done(ctx, Timer::Worker);
            }
            Input::Timer(Timer::Resync(k)) => {
                if self.deployments.get(&k).is_some() {
                    self.queue.enqueue(ctx, &k, Timer::Worker);
                }
            }
        }
    }
}
