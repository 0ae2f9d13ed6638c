//! The deployment controller (`deployment-controller` in kube-controller-manager).
//!
//! Real counterpart: `pkg/controller/deployment/` — `deployment_controller.go` (informer handlers,
//! work queue, `syncDeployment`), `sync.go` (`getNewReplicaSet`, `scale`, `syncRolloutStatus`,
//! `cleanupDeployment`), `rolling.go` (`rolloutRolling`, `reconcileNewReplicaSet`,
//! `reconcileOldReplicaSets`), `recreate.go`, `progress.go`; the arithmetic lives in [`util`].
//!
//! The controller watches Deployments and ReplicaSets through the API server, keeps them in informer
//! stores, and reconciles one Deployment key at a time. Every change it makes is a request.
//!
//! What kubesim simplifies: no pod informer (Recreate waits on ReplicaSet status instead of pods);
//! rollback through the legacy `rollbackTo` field is not simulated (`kubectl rollout undo` is
//! client-side anyway); errors requeue after a fixed 1 s instead of the rate limiter's back-off.

pub mod util;

use crate::api::meta::Resource;
use crate::api::request::EventType;
use crate::api::{meta, time};
use crate::api::request::{Identity, Method};
use crate::client::{Recorder, Store, WorkQueue};
use crate::cluster::{self, Component};
use crate::trace::Actor;
use serde_json::{json, Value};
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

pub struct DeploymentController {
    deployments: Store,
    replica_sets: Store,
    queue: WorkQueue,
    recorder: Recorder,
}

impl Default for DeploymentController {
    fn default() -> Self {
        DeploymentController {
            deployments: Store::default(),
            replica_sets: Store::default(),
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
        rbac_reason: format!(
            "RBAC: allowed by ClusterRoleBinding \"system:controller:{}\" of ClusterRole \"system:controller:{}\" to ServiceAccount \"{}/kube-system\"",
            sa, sa, sa
        ),
        source_ip: "192.168.49.2".into(),
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

    /// `getReplicaSetsForDeployment`: claim (adopt/orphan) ReplicaSets via the ControllerRefManager.
    fn get_replica_sets_for_deployment(&mut self, ctx: &mut Ctx, d: &Value) -> Vec<Value> {
        let ns = meta::namespace(d).to_string();
        let uid = meta::uid(d).to_string();
        let selector = meta::get(d, &["spec", "selector"]).cloned();
        let candidates: Vec<Value> = self.replica_sets.in_namespace(&ns).cloned().collect();
        let mut owned = Vec::new();
        for rs in candidates {
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

    fn update_status(&mut self, ctx: &mut Ctx, d: &Value) -> Option<Value> {
        let path = format!("/apis/apps/v1/namespaces/{}/deployments/{}/status", meta::namespace(d), meta::name(d));
        let resp = ctx.request(Method::Put, &path, Some(d.clone()));
        if resp.ok() {
            self.deployments.apply(EventType::Modified, &resp.body);
            Some(resp.body)
        } else {
            None
        }
    }

    /// `syncDeployment`.
    fn sync_deployment(&mut self, ctx: &mut Ctx, key: &str) {
        let Some(d) = self.deployments.get(key).cloned() else {
            return; // deleted: the garbage collector removes what it owned
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
            return;
        }
        let rs_list = self.get_replica_sets_for_deployment(ctx, &d);
        if meta::is_deleting(&d) {
            self.sync_status_only(ctx, &d, rs_list);
            return;
        }
        let paused = meta::get(&d, &["spec", "paused"]).and_then(|p| p.as_bool()).unwrap_or(false);
        if paused || self.is_scaling_event(&d, &rs_list) {
            self.sync(ctx, &d, rs_list);
            return;
        }
        if meta::get_str(&d, &["spec", "strategy", "type"]) == du::RECREATE_DEPLOYMENT_STRATEGY_TYPE {
            self.rollout_recreate(ctx, &d, rs_list);
        } else {
            self.rollout_rolling(ctx, &d, rs_list);
        }
    }

    /// `isScalingEvent`: an active ReplicaSet's desired-replicas annotation differs from
    /// `spec.replicas` (a scale, possibly together with a template change).
    fn is_scaling_event(&self, d: &Value, rs_list: &[Value]) -> bool {
        let replicas = du::spec_replicas(d);
        du::filter_active_replica_sets(rs_list).iter().any(|rs| du::get_desired_replicas_annotation(rs).map(|v| v != replicas).unwrap_or(false))
    }

    /// `getAllReplicaSetsAndSyncRevision`.
    fn get_all_replica_sets_and_sync_revision(&mut self, ctx: &mut Ctx, d: &mut Value, rs_list: &[Value], create: bool) -> (Option<Value>, Vec<Value>) {
        let mut list = rs_list.to_vec();
        let (_, all_old) = du::find_old_replica_sets(d, &mut list);
        let new_rs = self.get_new_replica_set(ctx, d, rs_list, &all_old, create);
        (new_rs, all_old)
    }

    /// `getNewReplicaSet`: find the ReplicaSet whose template matches, or create it.
    fn get_new_replica_set(&mut self, ctx: &mut Ctx, d: &mut Value, rs_list: &[Value], old_rss: &[Value], create: bool) -> Option<Value> {
        let ns = meta::namespace(d).to_string();
        let mut list = rs_list.to_vec();
        let existing = du::find_new_replica_set(d, &mut list);
        let new_revision = (du::max_revision(old_rss) + 1).to_string();
        let now = time::rfc3339(ctx.now);
        if let Some(existing) = existing {
            let mut rs_copy = existing.clone();
            let annotations_updated = du::set_new_replica_set_annotations(d, &mut rs_copy, &new_revision, true, du::MAX_REV_HISTORY_LENGTH_IN_CHARS);
            let min_ready = meta::get(d, &["spec", "minReadySeconds"]).cloned();
            let min_ready_changed = meta::get(&rs_copy, &["spec", "minReadySeconds"]).cloned() != min_ready;
            if annotations_updated || min_ready_changed {
                match min_ready {
                    Some(m) => meta::set(&mut rs_copy, &["spec", "minReadySeconds"], m),
                    None => {
                        meta::remove(&mut rs_copy, &["spec", "minReadySeconds"]);
                    }
                }
                let resp = ctx.request(Method::Put, &rs_path(&ns, meta::name(&rs_copy)), Some(rs_copy.clone()));
                if !resp.ok() {
                    return Some(existing);
                }
                rs_copy = resp.body;
                self.replica_sets.apply(EventType::Modified, &rs_copy);
            }
            let rev = meta::annotation(&rs_copy, du::REVISION_ANNOTATION).unwrap_or("").to_string();
            let mut needs_update = du::set_deployment_revision(d, &rev);
            let has_cond = du::get_deployment_condition(d.get("status").unwrap_or(&json!({})), du::DEPLOYMENT_PROGRESSING).is_some();
            if du::has_progress_deadline(d) && !has_cond {
                let msg = du::found_new_replica_set_message(meta::name(&rs_copy));
                let cond = du::new_deployment_condition(du::DEPLOYMENT_PROGRESSING, du::CONDITION_TRUE, du::FOUND_NEW_RS_REASON, &msg, &now);
                du::set_deployment_condition(meta::entry(d, &["status"]), cond);
                needs_update = true;
            }
            if needs_update {
                if let Some(nd) = self.update_status(ctx, d) {
                    *d = nd;
                }
            }
            return Some(rs_copy);
        }
        if !create {
            return None;
        }
        // new ReplicaSet: name = deployment name + "-" + pod-template-hash
        let template = meta::get(d, &["spec", "template"]).cloned().unwrap_or(json!({}));
        let collision = meta::get_i64(d, &["status", "collisionCount"]).map(|c| c as i32);
        let hash = du::compute_hash(&template, collision);
        let mut new_template = template.clone();
        meta::set(&mut new_template, &["metadata", "labels", du::DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY], json!(hash));
        let mut selector = meta::get(d, &["spec", "selector"]).cloned().unwrap_or(json!({}));
        meta::set(&mut selector, &["matchLabels", du::DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY], json!(hash));
        let name = format!("{}-{}", meta::name(d), hash);
        let mut spec = json!({"replicas": 0, "selector": selector, "template": new_template});
        if let Some(m) = meta::get(d, &["spec", "minReadySeconds"]) {
            spec["minReadySeconds"] = m.clone();
        }
        let mut new_rs = json!({
            "apiVersion": "apps/v1",
            "kind": "ReplicaSet",
            "metadata": {
                "name": name,
                "namespace": ns,
                "ownerReferences": [meta::new_controller_ref(d, "apps/v1", "Deployment")],
                "labels": new_template["metadata"]["labels"].clone(),
            },
            "spec": spec,
        });
        let mut all = old_rss.to_vec();
        all.push(new_rs.clone());
        let new_replicas = du::new_rs_new_replicas(d, &all, &new_rs).unwrap_or(0);
        meta::set(&mut new_rs, &["spec", "replicas"], json!(new_replicas));
        du::set_new_replica_set_annotations(d, &mut new_rs, &new_revision, false, du::MAX_REV_HISTORY_LENGTH_IN_CHARS);
        let resp = ctx.request(Method::Post, &format!("/apis/apps/v1/namespaces/{}/replicasets", ns), Some(new_rs.clone()));
        let mut already_exists = false;
        let created = if resp.ok() {
            self.replica_sets.apply(EventType::Added, &resp.body);
            Some(resp.body)
        } else if resp.reason() == "AlreadyExists" {
            // hash collision handling (sync.go): reuse it if it is ours and equal, else bump collisionCount
            already_exists = true;
            let key = format!("{}/{}", ns, name);
            let found = self.replica_sets.get(&key).cloned();
            match found {
                Some(rs)
                    if meta::controller_of(&rs).map(|o| meta::get_str(o, &["uid"]) == meta::uid(d)).unwrap_or(false)
                        && du::equal_ignore_hash(meta::get(&rs, &["spec", "template"]).unwrap_or(&json!({})), &template) =>
                {
                    Some(rs)
                }
                _ => {
                    let c = meta::get_i64(d, &["status", "collisionCount"]).unwrap_or(0) + 1;
                    meta::set(d, &["status", "collisionCount"], json!(c));
                    self.update_status(ctx, d);
                    return None;
                }
            }
        } else {
            let msg = du::failed_rs_create_message(&name, resp.message());
            self.recorder.event(ctx, d, None, "Warning", du::FAILED_RS_CREATE_REASON, &msg);
            let cond = du::new_deployment_condition(du::DEPLOYMENT_PROGRESSING, du::CONDITION_FALSE, du::FAILED_RS_CREATE_REASON, &msg, &now);
            du::set_deployment_condition(meta::entry(d, &["status"]), cond);
            self.update_status(ctx, d);
            return None;
        };
        let created = created?;
        if !already_exists && new_replicas > 0 {
            let msg = format!("Scaled up replica set {} from 0 to {}", name, new_replicas);
            self.recorder.event(ctx, d, None, "Normal", "ScalingReplicaSet", &msg);
        }
        let mut needs_update = du::set_deployment_revision(d, &new_revision);
        if !already_exists && du::has_progress_deadline(d) {
            let msg = du::new_replica_set_created_message(&name);
            let cond = du::new_deployment_condition(du::DEPLOYMENT_PROGRESSING, du::CONDITION_TRUE, du::NEW_REPLICA_SET_REASON, &msg, &now);
            du::set_deployment_condition(meta::entry(d, &["status"]), cond);
            needs_update = true;
        }
        if needs_update {
            if let Some(nd) = self.update_status(ctx, d) {
                *d = nd;
            }
        }
        Some(created)
    }

    /// `scaleReplicaSetAndRecordEvent` + `scaleReplicaSet`.
    fn scale_replica_set(&mut self, ctx: &mut Ctx, rs: &Value, new_scale: i32, d: &Value) -> (bool, Value) {
        let current = du::spec_replicas(rs);
        let size_needs_update = current != new_scale;
        let desired = du::spec_replicas(d);
        let max = desired + du::max_surge(d);
        let annotations_need_update = du::replicas_annotations_need_update(rs, desired, max);
        if !size_needs_update && !annotations_need_update {
            return (false, rs.clone());
        }
        let mut copy = rs.clone();
        meta::set(&mut copy, &["spec", "replicas"], json!(new_scale));
        du::set_replicas_annotations(&mut copy, desired, max);
        let resp = ctx.request(Method::Put, &rs_path(meta::namespace(rs), meta::name(rs)), Some(copy));
        if !resp.ok() {
            self.queue.enqueue(ctx, &meta::key(d), Timer::Worker);
            return (false, rs.clone());
        }
        self.replica_sets.apply(EventType::Modified, &resp.body);
        if size_needs_update {
            let op = if current < new_scale { "up" } else { "down" };
            let msg = format!("Scaled {} replica set {} from {} to {}", op, meta::name(rs), current, new_scale);
            self.recorder.event(ctx, d, None, "Normal", "ScalingReplicaSet", &msg);
        }
        (size_needs_update, resp.body)
    }

    /// `rolloutRolling`.
    fn rollout_rolling(&mut self, ctx: &mut Ctx, d: &Value, rs_list: Vec<Value>) {
        let mut d = d.clone();
        let (new_rs, old_rss) = self.get_all_replica_sets_and_sync_revision(ctx, &mut d, &rs_list, true);
        let Some(new_rs) = new_rs else { return };
        let mut all = old_rss.clone();
        all.push(new_rs.clone());
        // Scale up, if we can.
        let (scaled_up, new_rs) = self.reconcile_new_replica_set(ctx, &all, &new_rs, &d);
        if scaled_up {
            let mut all = old_rss.clone();
            all.push(new_rs.clone());
            return self.sync_rollout_status(ctx, &all, Some(&new_rs), &d);
        }
        // Scale down, if we can.
        let mut all = old_rss.clone();
        all.push(new_rs.clone());
        let active_old = du::filter_active_replica_sets(&old_rss);
        let scaled_down = self.reconcile_old_replica_sets(ctx, &all, &active_old, &new_rs, &d);
        let old_rss: Vec<Value> = old_rss.iter().map(|o| self.replica_sets.get(&meta::key(o)).cloned().unwrap_or_else(|| o.clone())).collect();
        let mut all = old_rss.clone();
        all.push(new_rs.clone());
        if scaled_down {
            return self.sync_rollout_status(ctx, &all, Some(&new_rs), &d);
        }
        let status = du::calculate_status(&d, &all, Some(&new_rs), &time::rfc3339(ctx.now));
        if du::deployment_complete(&d, &status) {
            self.cleanup_deployment(ctx, &old_rss, &d);
        }
        self.sync_rollout_status(ctx, &all, Some(&new_rs), &d);
    }

    fn reconcile_new_replica_set(&mut self, ctx: &mut Ctx, all: &[Value], new_rs: &Value, d: &Value) -> (bool, Value) {
        let replicas = du::spec_replicas(d);
        let current = du::spec_replicas(new_rs);
        if current == replicas {
            return (false, new_rs.clone());
        }
        if current > replicas {
            return self.scale_replica_set(ctx, new_rs, replicas, d);
        }
        match du::new_rs_new_replicas(d, all, new_rs) {
            Ok(n) => self.scale_replica_set(ctx, new_rs, n, d),
            Err(_) => (false, new_rs.clone()),
        }
    }

    fn reconcile_old_replica_sets(&mut self, ctx: &mut Ctx, all: &[Value], old_rss: &[Value], new_rs: &Value, d: &Value) -> bool {
        let old_pods = du::get_replica_count_for_replica_sets(old_rss);
        if old_pods == 0 {
            return false;
        }
        let all_pods = du::get_replica_count_for_replica_sets(all);
        let min_available = du::spec_replicas(d) - du::max_unavailable(d);
        let new_unavailable = du::spec_replicas(new_rs) - meta::get_i64(new_rs, &["status", "availableReplicas"]).unwrap_or(0) as i32;
        let max_scaled_down = all_pods - min_available - new_unavailable;
        if max_scaled_down <= 0 {
            return false;
        }
        // Clean up unhealthy replicas first, oldest first.
        let mut olds = old_rss.to_vec();
        olds.sort_by(du::replica_sets_by_creation_timestamp);
        let mut cleaned = 0;
        let mut updated_olds = Vec::new();
        for rs in olds {
            if cleaned >= max_scaled_down {
                updated_olds.push(rs);
                continue;
            }
            let spec = du::spec_replicas(&rs);
            let avail = meta::get_i64(&rs, &["status", "availableReplicas"]).unwrap_or(0) as i32;
            if spec == 0 || spec == avail {
                updated_olds.push(rs);
                continue;
            }
            let scaled = (max_scaled_down - cleaned).min(spec - avail);
            let new_count = spec - scaled;
            let (_, nrs) = self.scale_replica_set(ctx, &rs, new_count, d);
            cleaned += scaled;
            updated_olds.push(nrs);
        }
        // Then scale down old replica sets while keeping minAvailable.
        let mut all2 = updated_olds.clone();
        all2.push(new_rs.clone());
        let available = du::get_available_replica_count_for_replica_sets(&all2);
        let mut scaled_down = 0;
        if available > min_available {
            let total = available - min_available;
            let mut olds = updated_olds.clone();
            olds.sort_by(du::replica_sets_by_creation_timestamp);
            for rs in olds {
                if scaled_down >= total {
                    break;
                }
                let spec = du::spec_replicas(&rs);
                if spec == 0 {
                    continue;
                }
                let n = spec.min(total - scaled_down);
                self.scale_replica_set(ctx, &rs, spec - n, d);
                scaled_down += n;
            }
        }
        cleaned + scaled_down > 0
    }

    /// `rolloutRecreate`: scale old down to zero, wait, then scale the new one up.
    fn rollout_recreate(&mut self, ctx: &mut Ctx, d: &Value, rs_list: Vec<Value>) {
        let mut d = d.clone();
        let (new_rs, old_rss) = self.get_all_replica_sets_and_sync_revision(ctx, &mut d, &rs_list, false);
        let active_old = du::filter_active_replica_sets(&old_rss);
        let mut scaled = false;
        for rs in &active_old {
            if du::spec_replicas(rs) != 0 {
                self.scale_replica_set(ctx, rs, 0, &d);
                scaled = true;
            }
        }
        let olds: Vec<Value> = old_rss.iter().map(|o| self.replica_sets.get(&meta::key(o)).cloned().unwrap_or_else(|| o.clone())).collect();
        let mut all = olds.clone();
        if let Some(n) = &new_rs {
            all.push(n.clone());
        }
        if scaled {
            return self.sync_rollout_status(ctx, &all, new_rs.as_ref(), &d);
        }
        // oldPodsRunning (simplified to ReplicaSet status)
        if olds.iter().any(|rs| meta::get_i64(rs, &["status", "replicas"]).unwrap_or(0) > 0) {
            return self.sync_rollout_status(ctx, &all, new_rs.as_ref(), &d);
        }
        let new_rs = match new_rs {
            Some(n) => Some(n),
            None => self.get_new_replica_set(ctx, &mut d, &rs_list, &olds, true),
        };
        let Some(new_rs) = new_rs else { return };
        let mut all = olds.clone();
        all.push(new_rs.clone());
        let (_, new_rs) = self.scale_replica_set(ctx, &new_rs, du::spec_replicas(&d), &d);
        let mut all2 = olds.clone();
        all2.push(new_rs.clone());
        if du::deployment_complete(&d, &du::calculate_status(&d, &all2, Some(&new_rs), &time::rfc3339(ctx.now))) {
            self.cleanup_deployment(ctx, &olds, &d);
        }
        self.sync_rollout_status(ctx, &all2, Some(&new_rs), &d);
    }

    /// `sync`: reconcile scaling events (and paused deployments), then sync status.
    fn sync(&mut self, ctx: &mut Ctx, d: &Value, rs_list: Vec<Value>) {
        let mut d = d.clone();
        let (new_rs, old_rss) = self.get_all_replica_sets_and_sync_revision(ctx, &mut d, &rs_list, false);
        self.scale(ctx, &d, new_rs.as_ref(), &old_rss);
        let olds: Vec<Value> = old_rss.iter().map(|o| self.replica_sets.get(&meta::key(o)).cloned().unwrap_or_else(|| o.clone())).collect();
        let new_rs = new_rs.map(|n| self.replica_sets.get(&meta::key(&n)).cloned().unwrap_or(n));
        let mut all = olds.clone();
        if let Some(n) = &new_rs {
            all.push(n.clone());
        }
        self.sync_status_only_with(ctx, &d, &all, new_rs.as_ref());
    }

    /// `scale` — proportional scaling across active ReplicaSets (facts §4.5).
    fn scale(&mut self, ctx: &mut Ctx, d: &Value, new_rs: Option<&Value>, old_rss: &[Value]) {
        let replicas = du::spec_replicas(d);
        let mut olds = old_rss.to_vec();
        if let Some(active) = du::find_active_or_latest(new_rs, &mut olds) {
            if du::spec_replicas(&active) == replicas {
                return;
            }
            self.scale_replica_set(ctx, &active, replicas, d);
            return;
        }
        if du::is_saturated(d, new_rs) {
            for old in du::filter_active_replica_sets(old_rss) {
                self.scale_replica_set(ctx, &old, 0, d);
            }
            return;
        }
        if !du::is_rolling_update(d) {
            return;
        }
        let mut all: Vec<Value> = old_rss.to_vec();
        if let Some(n) = new_rs {
            all.push(n.clone());
        }
        let mut all = du::filter_active_replica_sets(&all);
        let allowed = if replicas > 0 { replicas + du::max_surge(d) } else { 0 };
        let to_add = allowed - du::get_replica_count_for_replica_sets(&all);
        if to_add > 0 {
            du::sort_replica_sets(&mut all, du::replica_sets_by_size_newer);
        } else if to_add < 0 {
            du::sort_replica_sets(&mut all, du::replica_sets_by_size_older);
        } else {
            return;
        }
        let mut added = 0;
        let mut sizes = Vec::new();
        for rs in &all {
            let p = if to_add != 0 { du::get_proportion(Some(rs), d, to_add, added) } else { 0 };
            sizes.push(du::spec_replicas(rs) + p);
            added += p;
        }
        for (i, rs) in all.iter().enumerate() {
            let mut size = sizes[i];
            if i == 0 && to_add != 0 {
                size = (size + to_add - added).max(0);
            }
            self.scale_replica_set(ctx, rs, size, d);
        }
    }

    fn sync_status_only(&mut self, ctx: &mut Ctx, d: &Value, rs_list: Vec<Value>) {
        let mut d = d.clone();
        let (new_rs, old_rss) = self.get_all_replica_sets_and_sync_revision(ctx, &mut d, &rs_list, false);
        let mut all = old_rss;
        if let Some(n) = &new_rs {
            all.push(n.clone());
        }
        self.sync_status_only_with(ctx, &d, &all, new_rs.as_ref());
    }

    /// `syncDeploymentStatus`.
    fn sync_status_only_with(&mut self, ctx: &mut Ctx, d: &Value, all: &[Value], new_rs: Option<&Value>) {
        let status = du::calculate_status(d, all, new_rs, &time::rfc3339(ctx.now));
        if d.get("status") == Some(&status) {
            return;
        }
        let mut nd = d.clone();
        nd["status"] = status;
        self.update_status(ctx, &nd);
    }

    /// `cleanupDeployment`: delete old ReplicaSets beyond revisionHistoryLimit.
    fn cleanup_deployment(&mut self, ctx: &mut Ctx, old_rss: &[Value], d: &Value) {
        if !du::has_revision_history_limit(d) {
            return;
        }
        let limit = meta::get_i64(d, &["spec", "revisionHistoryLimit"]).unwrap_or(10) as usize;
        let mut cleanable: Vec<Value> = old_rss.iter().filter(|rs| !meta::is_deleting(rs)).cloned().collect();
        if cleanable.len() <= limit {
            return;
        }
        let diff = cleanable.len() - limit;
        du::sort_replica_sets(&mut cleanable, du::replica_sets_by_revision);
        for rs in cleanable.iter().take(diff) {
            let st = meta::get_i64(rs, &["status", "replicas"]).unwrap_or(0);
            let gen = meta::get_i64(rs, &["metadata", "generation"]).unwrap_or(0);
            let obs = meta::get_i64(rs, &["status", "observedGeneration"]).unwrap_or(0);
            if st != 0 || du::spec_replicas(rs) != 0 || gen > obs || meta::is_deleting(rs) {
                continue;
            }
            ctx.request(Method::Delete, &rs_path(meta::namespace(rs), meta::name(rs)), None);
        }
    }

    /// `syncRolloutStatus`: compute status and the Progressing condition (progress.go).
    fn sync_rollout_status(&mut self, ctx: &mut Ctx, all: &[Value], new_rs: Option<&Value>, d: &Value) {
        let now = time::rfc3339(ctx.now);
        let mut new_status = du::calculate_status(d, all, new_rs, &now);
        if !du::has_progress_deadline(d) {
            du::remove_deployment_condition(&mut new_status, du::DEPLOYMENT_PROGRESSING);
        }
        let current = du::get_deployment_condition(d.get("status").unwrap_or(&json!({})), du::DEPLOYMENT_PROGRESSING);
        let is_complete = meta::get_i64(&new_status, &["replicas"]) == meta::get_i64(&new_status, &["updatedReplicas"])
            && current.as_ref().map(|c| meta::get_str(c, &["reason"]) == du::NEW_RS_AVAILABLE_REASON).unwrap_or(false);
        let rs_name = new_rs.map(|r| meta::name(r).to_string());
        if du::has_progress_deadline(d) && !is_complete {
            if du::deployment_complete(d, &new_status) {
                let msg = du::successfully_progressed_message(meta::name(d), rs_name.as_deref());
                let cond = du::new_deployment_condition(du::DEPLOYMENT_PROGRESSING, du::CONDITION_TRUE, du::NEW_RS_AVAILABLE_REASON, &msg, &now);
                du::set_deployment_condition(&mut new_status, cond);
            } else if du::deployment_progressing(d, &new_status) {
                let msg = du::progressing_message(meta::name(d), rs_name.as_deref());
                let mut cond = du::new_deployment_condition(du::DEPLOYMENT_PROGRESSING, du::CONDITION_TRUE, du::REPLICA_SET_UPDATED_REASON, &msg, &now);
                if let Some(c) = &current {
                    if meta::get_str(c, &["status"]) == du::CONDITION_TRUE {
                        cond["lastTransitionTime"] = c["lastTransitionTime"].clone();
                    }
                }
                du::remove_deployment_condition(&mut new_status, du::DEPLOYMENT_PROGRESSING);
                du::set_deployment_condition(&mut new_status, cond);
            } else if du::deployment_timed_out(d, &new_status, wall(ctx)) {
                let msg = du::timed_out_message(meta::name(d), rs_name.as_deref());
                let cond = du::new_deployment_condition(du::DEPLOYMENT_PROGRESSING, du::CONDITION_FALSE, du::TIMED_OUT_REASON, &msg, &now);
                du::set_deployment_condition(&mut new_status, cond);
            }
        }
        // ReplicaFailure is copied from the first ReplicaSet that has one.
        let failure = all.iter().find_map(|rs| {
            meta::get(rs, &["status", "conditions"])?.as_array()?.iter().find(|c| meta::get_str(c, &["type"]) == "ReplicaFailure").cloned()
        });
        match failure {
            Some(c) => du::set_deployment_condition(&mut new_status, du::replica_set_to_deployment_condition(&c)),
            None => du::remove_deployment_condition(&mut new_status, du::DEPLOYMENT_REPLICA_FAILURE),
        }
        if d.get("status") == Some(&new_status) {
            self.requeue_stuck_deployment(ctx, d, &new_status);
            return;
        }
        let mut nd = d.clone();
        nd["status"] = new_status.clone();
        if self.update_status(ctx, &nd).is_some() {
            self.requeue_stuck_deployment(ctx, &nd, &new_status);
        }
    }

    /// `requeueStuckDeployment`: check again when the progress deadline would pass.
    fn requeue_stuck_deployment(&mut self, ctx: &mut Ctx, d: &Value, new_status: &Value) {
        let Some(cond) = du::get_deployment_condition(new_status, du::DEPLOYMENT_PROGRESSING) else { return };
        if !du::has_progress_deadline(d) || meta::get_str(&cond, &["reason"]) == du::NEW_RS_AVAILABLE_REASON || meta::get_str(&cond, &["reason"]) == du::TIMED_OUT_REASON {
            return;
        }
        if du::deployment_complete(d, new_status) {
            return;
        }
        let last = meta::get(&cond, &["lastUpdateTime"]).and_then(|t| t.as_str()).and_then(time::parse_rfc3339).unwrap_or(ctx.now);
        let deadline = meta::get_i64(d, &["spec", "progressDeadlineSeconds"]).unwrap_or(600) * 1000;
        let after = (last + deadline - ctx.now + 1000).max(1000);
        // Background: a stuck rollout must not keep `sim settle` busy for ten virtual minutes.
        ctx.after_background(after, Timer::Resync(meta::key(d)));
    }
}

impl Component for DeploymentController {
    type Timer = Timer;

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
            Input::Watch { .. } => {}
            Input::Timer(Timer::Worker) => {
                if let Some(k) = self.queue.start_work() {
                    self.sync_deployment(ctx, &k);
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

    fn inspect(&self) -> Value {
        json!({"queue": self.queue.len(), "deployments": self.deployments.len(), "replicaSets": self.replica_sets.len()})
    }
}
