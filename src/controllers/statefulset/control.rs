//! One sync of a StatefulSet: revisions, Pods in ordinal order, scale down, rolling update,
//! status, history.
//!
//! Real counterpart: `pkg/controller/statefulset/stateful_set_control.go`
//! (`defaultStatefulSetControl.UpdateStatefulSet`, `performUpdate`, `getStatefulSetRevisions`,
//! `updateStatefulSet`, `processReplica`, `processCondemned`, `runForAll`,
//! `updateStatefulSetStatus`, `truncateHistory`, `computeReplicaStatus`).

use super::utils::{self, *};
use super::{Ctx, StatefulSetController};
use crate::api::meta;
use crate::api::request::Method;
use crate::api::time;
use serde_json::{json, Value};
use std::collections::BTreeSet;
use crate::sim::sort::CompactSort;

/// The counts of `computeReplicaStatus`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReplicaStatus {
    pub replicas: i64,
    pub ready: i64,
    pub available: i64,
    pub current: i64,
    pub updated: i64,
}

/// `computeReplicaStatus` over every list.
pub fn compute_replica_status(lists: &[&[Value]], min_ready: i32, now_ms: i64, current_revision: &str, update_revision: &str) -> ReplicaStatus {
    let mut s = ReplicaStatus::default();
    for list in lists {
        for pod in list.iter() {
            if is_created(pod) {
                s.replicas += 1;
            }
            if is_running_and_ready(pod) {
                s.ready += 1;
                if is_running_and_available(pod, min_ready, now_ms) {
                    s.available += 1;
                }
            }
            if is_created(pod) && !meta::is_deleting(pod) {
                let rev = pod_revision(pod);
                if rev == current_revision {
                    s.current += 1;
                }
                if rev == update_revision {
                    s.updated += 1;
                }
            }
        }
    }
    s
}

/// The status `updateStatefulSet` computes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SetStatus {
    pub observed_generation: i64,
    pub current_revision: String,
    pub update_revision: String,
    pub collision_count: i64,
    pub counts: ReplicaStatus,
}

impl SetStatus {
    /// As `apps/v1.StatefulSetStatus` marshals (omitempty on the ready/current/updated counts,
    /// the revisions and observedGeneration).
    pub fn to_json(&self) -> Value {
        let mut v = json!({"replicas": self.counts.replicas, "availableReplicas": self.counts.available, "collisionCount": self.collision_count});
        let mut put = |k: &str, n: i64| {
            if n != 0 {
                v[k] = json!(n);
            }
        };
        put("observedGeneration", self.observed_generation);
        put("readyReplicas", self.counts.ready);
        put("currentReplicas", self.counts.current);
        put("updatedReplicas", self.counts.updated);
        if !self.current_revision.is_empty() {
            v["currentRevision"] = json!(self.current_revision);
        }
        if !self.update_revision.is_empty() {
            v["updateRevision"] = json!(self.update_revision);
        }
        v
    }
}

/// `completeRollingUpdate`: once every replica is updated and ready, the update revision
/// becomes the current one.
pub fn complete_rolling_update(set: &Value, status: &mut SetStatus) {
    let r = utils::replicas(set);
    if meta::get_str(set, &["spec", "updateStrategy", "type"]) == "RollingUpdate" && status.counts.updated == r && status.counts.ready == r && status.counts.replicas == r {
        status.counts.current = status.counts.updated;
        status.current_revision = status.update_revision.clone();
    }
}

/// `inconsistentStatus`.
fn inconsistent_status(set: &Value, s: &SetStatus) -> bool {
    let st = |k: &str| meta::get_i64(set, &["status", k]).unwrap_or(0);
    let ss = |k: &str| meta::get_str(set, &["status", k]);
    s.observed_generation > st("observedGeneration")
        || s.counts.replicas != st("replicas")
        || s.counts.current != st("currentReplicas")
        || s.counts.ready != st("readyReplicas")
        || s.counts.updated != st("updatedReplicas")
        || s.current_revision != ss("currentRevision")
        || s.counts.available != st("availableReplicas")
        || s.update_revision != ss("updateRevision")
}

/// `history.SortControllerRevisions`: by revision, then creation time, then name.
fn sort_revisions(revs: &mut [Value]) {
    revs.csort_by(|a, b| {
        meta::get_i64(a, &["revision"])
            .cmp(&meta::get_i64(b, &["revision"]))
            .then_with(|| meta::get_str(a, &["metadata", "creationTimestamp"]).cmp(meta::get_str(b, &["metadata", "creationTimestamp"])))
            .then_with(|| meta::name(a).cmp(meta::name(b)))
    });
}

impl StatefulSetController {
    /// `ListRevisions`: the revisions this set controls, sorted.
    fn list_revisions(&self, set: &Value) -> Vec<Value> {
        let mut revs: Vec<Value> = self
            .revisions
            .in_namespace(meta::namespace(set))
            .filter(|r| meta::controller_of(r).map(|o| meta::get_str(o, &["uid"]) == meta::uid(set)).unwrap_or(false))
            .cloned()
            .collect();
        sort_revisions(&mut revs);
        revs
    }

    /// `UpdateStatefulSet`: `performUpdate`, then `truncateHistory`. Returns the status written.
    pub(super) fn update_stateful_set(&mut self, ctx: &mut Ctx, set: &Value, pods: &[Value]) -> Result<Value, String> {
        let revisions = self.list_revisions(set);
        let (current, update, collision) = self.get_stateful_set_revisions(ctx, set, &revisions)?;
        let (mut status, result) = self.update_pods(ctx, set, &current, &update, collision, pods);
        // updateStatefulSetStatus
        complete_rolling_update(set, &mut status);
        if inconsistent_status(set, &status) {
            let mut copy = set.clone();
            copy["status"] = status.to_json();
            let path = format!("/apis/apps/v1/namespaces/{}/statefulsets/{}/status", meta::namespace(set), meta::name(set));
            let resp = ctx.request(Method::Put, &path, Some(copy));
            if resp.ok() {
                self.sets.apply(crate::api::request::EventType::Modified, &resp.body);
            } else {
                return Err(resp.message().to_string());
            }
        }
        result?;
        self.truncate_history(ctx, set, pods, &revisions, &current, &update);
        Ok(status.to_json())
    }

    /// `getStatefulSetRevisions`: the update revision (the template now: an existing equal
    /// revision, renumbered if it is not the newest — a rollback — or a new one) and the current
    /// revision (`status.currentRevision`, or the update revision at first).
    fn get_stateful_set_revisions(&mut self, ctx: &mut Ctx, set: &Value, revisions: &[Value]) -> Result<(Value, Value, i64), String> {
        let collision = meta::get_i64(set, &["status", "collisionCount"]).unwrap_or(0);
        let next = revisions.last().and_then(|r| meta::get_i64(r, &["revision"])).unwrap_or(0) + 1;
        let candidate = new_revision(set, next, collision);
        let equal: Vec<&Value> = revisions.iter().filter(|r| r.get("data") == candidate.get("data")).collect();
        let ns = meta::namespace(set);
        let update = match equal.last() {
            Some(e) if revisions.last().map(|l| meta::name(l) == meta::name(e)).unwrap_or(false) => (*e).clone(),
            Some(e) => {
                // an older template is back: its revision becomes the newest
                let mut r = (*e).clone();
                r["revision"] = json!(next);
                let resp = ctx.request(Method::Put, &format!("/apis/apps/v1/namespaces/{}/controllerrevisions/{}", ns, meta::name(&r)), Some(r));
                if !resp.ok() {
                    return Err(resp.message().to_string());
                }
                self.revisions.apply(crate::api::request::EventType::Modified, &resp.body);
                resp.body
            }
            None => {
                let resp = ctx.request(Method::Post, &format!("/apis/apps/v1/namespaces/{}/controllerrevisions", ns), Some(candidate));
                if !resp.ok() {
                    return Err(resp.message().to_string());
                }
                self.revisions.apply(crate::api::request::EventType::Added, &resp.body);
                resp.body
            }
        };
        let current_name = meta::get_str(set, &["status", "currentRevision"]);
        let current = revisions.iter().find(|r| meta::name(r) == current_name).cloned().unwrap_or_else(|| update.clone());
        Ok((current, update, collision))
    }

    /// `updateStatefulSet`: partitions the Pods into replicas and condemned ones, then
    /// `processReplica` for each replica (in ordinal order; with OrderedReady it stops at the first
    /// that is not Running and Ready), `processCondemned` from the highest ordinal, and the
    /// rolling update. Returns the status and whether the sync failed.
    fn update_pods(&mut self, ctx: &mut Ctx, set: &Value, current: &Value, update: &Value, collision: i64, pods: &[Value]) -> (SetStatus, Result<(), String>) {
        let now = time::EPOCH_MS + ctx.now;
        let min_ready = meta::get_i64(set, &["spec", "minReadySeconds"]).unwrap_or(0) as i32;
        let current_set = apply_revision(set, current);
        let update_set = apply_revision(set, update);
        let (cur_name, upd_name) = (meta::name(current).to_string(), meta::name(update).to_string());
        let mut status = SetStatus {
            observed_generation: meta::get_i64(set, &["metadata", "generation"]).unwrap_or(0),
            current_revision: cur_name.clone(),
            update_revision: upd_name.clone(),
            collision_count: collision,
            counts: compute_replica_status(&[pods], min_ready, now, &cur_name, &upd_name),
        };
        let start = start_ordinal(set);
        let count = utils::replicas(set).max(0) as usize;
        let mut replicas: Vec<Option<Value>> = vec![None; count];
        let mut condemned: Vec<Value> = Vec::new();
        for p in pods {
            if pod_in_ordinal_range(p, set) {
                replicas[(ordinal(p) - start) as usize] = Some(p.clone());
            } else if ordinal(p) >= 0 {
                condemned.push(p.clone());
            }
        }
        let mut replicas: Vec<Value> = replicas
            .into_iter()
            .enumerate()
            .map(|(i, p)| p.unwrap_or_else(|| new_versioned_pod(set, &current_set, &update_set, &cur_name, &upd_name, start + i as i64)))
            .collect();
        condemned.csort_by_key(|p| std::cmp::Reverse(ordinal(p)));
        let first_unhealthy: Option<String> = replicas
            .iter()
            .find(|p| is_unavailable(p, min_ready, now))
            .or_else(|| condemned.iter().rev().find(|p| is_unavailable(p, min_ready, now)))
            .map(|p| meta::name(p).to_string());
        if meta::is_deleting(set) {
            return (status, Ok(()));
        }
        let monotonic = meta::get_str(set, &["spec", "podManagementPolicy"]) != "Parallel";
        let recount = |replicas: &[Value], condemned: &[Value], status: &mut SetStatus| {
            status.counts = compute_replica_status(&[replicas, condemned], min_ready, now, &cur_name, &upd_name);
        };
        // processReplica for each replica
        for i in 0..replicas.len() {
            match self.process_replica(ctx, set, &update_set, monotonic, &mut replicas, i, min_ready, now) {
                Ok(false) => {}
                Ok(true) if !monotonic => {}
                Ok(true) => {
                    recount(&replicas, &condemned, &mut status);
                    return (status, Ok(()));
                }
                Err(e) => {
                    recount(&replicas, &condemned, &mut status);
                    return (status, Err(e));
                }
            }
        }
        // the claims of condemned Pods follow the retention policy before they go
        for p in &condemned {
            if let Err(e) = self.update_pod_claim_for_retention_policy(ctx, &update_set, p, true) {
                recount(&replicas, &condemned, &mut status);
                return (status, Err(e));
            }
        }
        // processCondemned, highest ordinal first
        for p in condemned.clone() {
            let stop = if meta::is_deleting(&p) {
                monotonic
            } else if monotonic && Some(meta::name(&p)) != first_unhealthy.as_deref() && (!is_running_and_ready(&p) || !is_running_and_available(&p, min_ready, now)) {
                true
            } else {
                if let Err(e) = self.delete_stateful_pod(ctx, set, &p) {
                    recount(&replicas, &condemned, &mut status);
                    return (status, Err(e));
                }
                true
            };
            if stop && monotonic {
                recount(&replicas, &condemned, &mut status);
                return (status, Ok(()));
            }
        }
        recount(&replicas, &condemned, &mut status);
        if meta::get_str(set, &["spec", "updateStrategy", "type"]) == "OnDelete" {
            return (status, Ok(()));
        }
        // the rolling update: the highest ordinal not at the update revision is deleted, and
        // each waits for the ones above it to be healthy
        let update_min = meta::get_i64(set, &["spec", "updateStrategy", "rollingUpdate", "partition"]).unwrap_or(0).max(0) as usize;
        for target in (update_min..replicas.len()).rev() {
            let pod = &replicas[target];
            if pod_revision(pod) != upd_name && !meta::is_deleting(pod) {
                let pod = pod.clone();
                let r = self.delete_stateful_pod(ctx, set, &pod);
                status.counts.current -= 1;
                return (status, r);
            }
            if is_unavailable(pod, min_ready, now) {
                return (status, Ok(()));
            }
        }
        (status, Ok(()))
    }

    /// `processReplica`: `Ok(true)` means "stop here" (OrderedReady waits).
    #[allow(clippy::too_many_arguments)]
    fn process_replica(&mut self, ctx: &mut Ctx, set: &Value, update_set: &Value, monotonic: bool, replicas: &mut [Value], i: usize, min_ready: i32, now: i64) -> Result<bool, String> {
        let pod = replicas[i].clone();
        if is_failed(&pod) || is_succeeded(&pod) {
            if !meta::is_deleting(&pod) {
                self.delete_stateful_pod(ctx, set, &pod)?;
            }
            // the new Pod is made on a later sync, once this one is gone from etcd
            return Ok(true);
        }
        if !is_created(&pod) {
            if self.pod_claim_is_stale(set, &pod) {
                return Ok(true);
            }
            self.create_stateful_pod(ctx, set, update_set, &pod)?;
            return Ok(monotonic);
        }
        if is_pending(&pod) {
            self.create_persistent_volume_claims(ctx, set, &pod)?;
        }
        if meta::is_deleting(&pod) && monotonic {
            return Ok(true);
        }
        if !is_running_and_ready(&pod) && monotonic {
            return Ok(true);
        }
        if !is_running_and_available(&pod, min_ready, now) && monotonic {
            return Ok(true);
        }
        // claims follow the retention policy (owner references)
        let _ = self.update_pod_claim_for_retention_policy(ctx, update_set, &pod, false);
        Ok(false)
    }

    /// `truncateHistory`: keep `revisionHistoryLimit` revisions besides the live ones (current,
    /// update, and any a Pod carries); delete the oldest others.
    fn truncate_history(&mut self, ctx: &mut Ctx, set: &Value, pods: &[Value], revisions: &[Value], current: &Value, update: &Value) {
        let mut live: BTreeSet<&str> = BTreeSet::new();
        live.insert(meta::name(current));
        live.insert(meta::name(update));
        for p in pods {
            live.insert(pod_revision(p));
        }
        let history: Vec<&Value> = revisions.iter().filter(|r| !live.contains(meta::name(r))).collect();
        let limit = meta::get_i64(set, &["spec", "revisionHistoryLimit"]).unwrap_or(10).max(0) as usize;
        if history.len() <= limit {
            return;
        }
        for r in &history[..history.len() - limit] {
            let path = format!("/apis/apps/v1/namespaces/{}/controllerrevisions/{}", meta::namespace(r), meta::name(r));
            if !ctx.request(Method::Delete, &path, None).ok() {
                return;
            }
        }
    }
}
