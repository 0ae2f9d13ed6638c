//! Pure helpers of the ReplicaSet controller.
//!
//! Models these upstream Kubernetes (v1.34) Go sources:
//! - `pkg/controller/controller_utils.go`: `slowStartBatch` (as the list of batch
//!   sizes it would run), `IsPodActive`, `FilterActivePods`, and the scale-down order
//!   `ActivePodsWithRanks.Less` (with its helpers `afterOrZero`,
//!   `logarithmicRankDiff`, `podReadyTime`, `compareMaxContainerRestarts`).
//! - `pkg/controller/replicaset/replica_set.go`: `BurstReplicas`, `getPodsToDelete`,
//!   `getPodsRankedByRelatedPodsOnSameNode`.
//! - `pkg/controller/replicaset/replica_set_utils.go`: `calculateStatus` and the
//!   ReplicaSet condition helpers (`NewReplicaSetCondition`, `GetCondition`,
//!   `SetCondition`, `RemoveCondition`); `observedGeneration` is set here as
//!   `updateReplicaSetStatus` does.
//! - `pkg/api/v1/pod` (`podutil`): `IsPodReady`, `IsPodAvailable`.
//! - `pkg/apis/core/helper` `GetDeletionCostFromPodAnnotations`.
//!
//! Pods and ReplicaSets are `serde_json::Value`s in wire form; missing or mistyped
//! fields read as Go zero values and nothing panics. Feature gates are those of
//! v1.34: `PodDeletionCost` and `LogarithmicScaleDown` on,
//! `DeploymentReplicaSetTerminatingReplicas` off (so `status.terminatingReplicas` is
//! never written).
//!
//! What kubesim simplifies: Go's `sort.Sort` is unstable and its input order comes
//! from informer caches (Go map order), so ties beyond 12 pods have no fixed upstream
//! order; kubesim sorts with `go_sort_by_less` (exactly Go's insertion sort for up
//! to 12 elements, stable beyond). Time is virtual milliseconds; `now` in the
//! logarithmic buckets is converted to nanoseconds as Go measures durations.

use crate::controllers::deployment::util::{go_parse_int, go_sort_by_less};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// At most this many pod creations or deletions per sync (`BurstReplicas`).
pub const BURST_REPLICAS: usize = 500;
/// First batch of `slowStartBatch` (`controller.SlowStartInitialBatchSize`).
pub const SLOW_START_INITIAL_BATCH_SIZE: usize = 1;
/// Annotation ranking pods for scale-down (`core.PodDeletionCost`).
pub const POD_DELETION_COST_ANNOTATION: &str = "controller.kubernetes.io/pod-deletion-cost";
/// ReplicaSet condition type and its reasons.
pub const REPLICA_SET_REPLICA_FAILURE: &str = "ReplicaFailure";
pub const FAILED_CREATE_REASON: &str = "FailedCreate";
pub const FAILED_DELETE_REASON: &str = "FailedDelete";

// ---------------------------------------------------------------------------
// Accessors
// ---------------------------------------------------------------------------

use crate::api::meta::{get as get_path, get_i64 as i64_at, str_at};

fn node_name(pod: &Value) -> &str {
    str_at(pod, &["spec", "nodeName"]).unwrap_or("")
}

fn phase(pod: &Value) -> &str {
    str_at(pod, &["status", "phase"]).unwrap_or("")
}

fn uid(pod: &Value) -> &str {
    str_at(pod, &["metadata", "uid"]).unwrap_or("")
}

/// A `metav1.Time` field in ms; `None` is Go's zero time (missing or unparseable).
fn time_at(v: &Value, path: &[&str]) -> Option<i64> {
    str_at(v, path).and_then(crate::api::time::parse_rfc3339_unix)
}

// ---------------------------------------------------------------------------
// Batching
// ---------------------------------------------------------------------------

/// The batch sizes `slowStartBatch(count, initial, fn)` runs when every call
/// succeeds: `initial`, then doubling, the last batch taking what is left
/// (10 → `[1, 2, 4, 3]`). Calls within a batch run in parallel; upstream stops after
/// the first batch with an error, so a caller replays these batches and stops there.
pub fn slow_start_batches(count: usize, initial: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut remaining = count;
    let mut batch = remaining.min(initial);
    while batch > 0 {
        out.push(batch);
        remaining -= batch;
        batch = batch.saturating_mul(2).min(remaining);
    }
    out
}

/// `manageReplicas` caps the create/delete diff at [`BURST_REPLICAS`] per sync.
pub fn cap_to_burst_replicas(diff: usize) -> usize {
    diff.min(BURST_REPLICAS)
}

// ---------------------------------------------------------------------------
// Pod state
// ---------------------------------------------------------------------------

/// `IsPodActive`: not Succeeded, not Failed, and not being deleted.
pub fn is_pod_active(pod: &Value) -> bool {
    let p = phase(pod);
    let deleting = get_path(pod, &["metadata", "deletionTimestamp"]).is_some_and(|v| !v.is_null());
    p != "Succeeded" && p != "Failed" && !deleting
}

/// `FilterActivePods`. Terminating pods drop out, so the controller replaces them
/// immediately.
pub fn filter_active_pods(pods: &[Value]) -> Vec<Value> {
    pods.iter().filter(|p| is_pod_active(p)).cloned().collect()
}

/// `GetPodReadyCondition`: the first condition of type `Ready`.
pub fn get_pod_ready_condition(pod: &Value) -> Option<&Value> {
    crate::api::meta::find_condition(crate::api::meta::get_array(pod, &["status", "conditions"]), "Ready")
}

/// `IsPodReady`: the Ready condition has status `True`.
pub fn is_pod_ready(pod: &Value) -> bool {
    get_pod_ready_condition(pod)
        .and_then(|c| c.get("status"))
        .and_then(Value::as_str)
        == Some("True")
}

/// `IsPodAvailable`: ready, and ready for at least `min_ready_seconds`
/// (`lastTransitionTime + minReadySeconds` strictly before now). With
/// `min_ready_seconds == 0` readiness is enough.
pub fn is_pod_available(pod: &Value, min_ready_seconds: i32, now_ms: i64) -> bool {
    if !is_pod_ready(pod) {
        return false;
    }
    if min_ready_seconds == 0 {
        return true;
    }
    match get_pod_ready_condition(pod).and_then(|c| time_at(c, &["lastTransitionTime"])) {
        Some(t) => t.saturating_add(min_ready_seconds as i64 * 1000) < now_ms,
        None => false,
    }
}

/// `GetDeletionCostFromPodAnnotations`: the pod-deletion-cost annotation as an
/// `int32`. Absent → `Ok(0)`. A leading `+` or leading zeros (`"007"`) are invalid;
/// callers use 0 for any invalid value.
pub fn get_deletion_cost_from_pod_annotations(pod: &Value) -> Result<i32, String> {
    let Some(v) = get_path(
        pod,
        &["metadata", "annotations", POD_DELETION_COST_ANNOTATION],
    ) else {
        return Ok(0);
    };
    let s = v.as_str().unwrap_or("");
    let first = s.as_bytes().first().copied();
    let valid_first = match first {
        Some(b'-') => true,
        Some(b'0') => s == "0",
        Some(c) => c.is_ascii_digit(),
        None => false,
    };
    if !valid_first {
        return Err(format!(
            "invalid value {}",
            crate::controllers::deployment::util::go_quote(s)
        ));
    }
    go_parse_int("ParseInt", s, 32).map(|i| i as i32)
}

fn deletion_cost(pod: &Value) -> i32 {
    get_deletion_cost_from_pod_annotations(pod).unwrap_or(0)
}

/// `maxContainerRestarts` → (max restarts of regular containers, max restarts of
/// sidecars: init containers with `restartPolicy: Always`).
pub fn max_container_restarts(pod: &Value) -> (i64, i64) {
    let restarts = |list: Option<&Value>, only: Option<&Vec<&str>>| -> i64 {
        list.and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter(|c| {
                        only.is_none_or(|names| {
                            c.get("name")
                                .and_then(Value::as_str)
                                .is_some_and(|n| names.contains(&n))
                        })
                    })
                    .map(|c| c.get("restartCount").and_then(Value::as_i64).unwrap_or(0))
                    .fold(0, i64::max)
            })
            .unwrap_or(0)
    };
    let regular = restarts(get_path(pod, &["status", "containerStatuses"]), None);
    let sidecars: Vec<&str> = get_path(pod, &["spec", "initContainers"])
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter(|c| c.get("restartPolicy").and_then(Value::as_str) == Some("Always"))
                .filter_map(|c| c.get("name").and_then(Value::as_str))
                .collect()
        })
        .unwrap_or_default();
    let sidecar = restarts(
        get_path(pod, &["status", "initContainerStatuses"]),
        Some(&sidecars),
    );
    (regular, sidecar)
}

/// `compareMaxContainerRestarts`: `Some(true)` if `pi` restarted more, `Some(false)`
/// if `pj` did, `None` on a tie (regular containers first, then sidecars).
fn compare_max_container_restarts(pi: &Value, pj: &Value) -> Option<bool> {
    let (ri, si) = max_container_restarts(pi);
    let (rj, sj) = max_container_restarts(pj);
    if ri != rj {
        return Some(ri > rj);
    }
    if si != sj {
        return Some(si > sj);
    }
    None
}

/// `podPhaseToOrdinal`: Pending 0 < Unknown 1 < Running 2 (anything else 0).
fn phase_ordinal(pod: &Value) -> i32 {
    match phase(pod) {
        "Unknown" => 1,
        "Running" => 2,
        _ => 0,
    }
}

/// `podReadyTime`: the `lastTransitionTime` of the first `Ready=True` condition of a
/// ready pod, else zero (`None`).
fn pod_ready_time(pod: &Value) -> Option<i64> {
    if !is_pod_ready(pod) {
        return None;
    }
    get_path(pod, &["status", "conditions"])?
        .as_array()?
        .iter()
        .find(|c| {
            c.get("type").and_then(Value::as_str) == Some("Ready")
                && c.get("status").and_then(Value::as_str) == Some("True")
        })
        .and_then(|c| time_at(c, &["lastTransitionTime"]))
}

/// `afterOrZero`: is `t1` after `t2`? A zero time counts as after any other time.
fn after_or_zero(t1: Option<i64>, t2: Option<i64>) -> bool {
    match (t1, t2) {
        (Some(a), Some(b)) => a > b,
        _ => t1.is_none(),
    }
}

/// `logarithmicRankDiff`: difference of `floor(log2(now − t))` (durations in
/// nanoseconds; −1 for non-positive durations). Pods whose ages fall in the same
/// power-of-two bucket compare as equal, so scale-down does not always hit the
/// very youngest pod.
fn logarithmic_rank_diff(t1: i64, t2: i64, now_ms: i64) -> i64 {
    let rank = |t: i64| -> i64 {
        let d_ns = (now_ms as i128 - t as i128) * 1_000_000;
        if d_ns > 0 {
            (d_ns as f64).log2() as i64
        } else {
            -1
        }
    };
    rank(t1) - rank(t2)
}

/// Shared by rules 6 and 8: newer (or zero) time is smaller, with log buckets.
fn time_rule(t1: Option<i64>, t2: Option<i64>, uid_i: &str, uid_j: &str, now_ms: i64) -> bool {
    match (t1, t2) {
        (Some(a), Some(b)) => {
            let diff = logarithmic_rank_diff(a, b, now_ms);
            if diff == 0 {
                uid_i < uid_j
            } else {
                diff < 0
            }
        }
        _ => after_or_zero(t1, t2),
    }
}

/// `ActivePodsWithRanks.Less`: should `pi` be deleted before `pj`?
/// `rank_*` is the number of active related pods on the pod's node.
/// 1. unassigned < assigned; 2. Pending < Unknown < Running; 3. not ready < ready;
/// 4. lower pod-deletion-cost < higher; 5. higher rank < lower rank;
/// 6. both ready: more recently ready < ready longer (log2 buckets, then UID);
/// 7. more container restarts < fewer (sidecars as tie-break);
/// 8. newer < older creation (log2 buckets, then UID; zero time is newest).
pub fn active_pods_with_ranks_less(
    pi: &Value,
    pj: &Value,
    rank_i: usize,
    rank_j: usize,
    now_ms: i64,
) -> bool {
    let (ni, nj) = (node_name(pi), node_name(pj));
    if ni != nj && (ni.is_empty() || nj.is_empty()) {
        return ni.is_empty();
    }
    let (oi, oj) = (phase_ordinal(pi), phase_ordinal(pj));
    if oi != oj {
        return oi < oj;
    }
    let (ri, rj) = (is_pod_ready(pi), is_pod_ready(pj));
    if ri != rj {
        return !ri;
    }
    let (ci, cj) = (deletion_cost(pi), deletion_cost(pj));
    if ci != cj {
        return ci < cj;
    }
    if rank_i != rank_j {
        return rank_i > rank_j;
    }
    if ri && rj {
        let (t1, t2) = (pod_ready_time(pi), pod_ready_time(pj));
        if t1 != t2 {
            return time_rule(t1, t2, uid(pi), uid(pj), now_ms);
        }
    }
    if let Some(res) = compare_max_container_restarts(pi, pj) {
        return res;
    }
    let (c1, c2) = (
        time_at(pi, &["metadata", "creationTimestamp"]),
        time_at(pj, &["metadata", "creationTimestamp"]),
    );
    if c1 != c2 {
        return time_rule(c1, c2, uid(pi), uid(pj), now_ms);
    }
    false
}

/// `getPodsRankedByRelatedPodsOnSameNode`: for each pod, how many *active* pods of
/// the related ReplicaSets (same controlling owner, including this RS) share its
/// node. Unassigned pods share the node name `""`.
pub fn get_pods_ranked_by_related_pods_on_same_node(
    pods: &[Value],
    related_pods: &[Value],
) -> Vec<usize> {
    let mut on_node: BTreeMap<&str, usize> = BTreeMap::new();
    for p in related_pods.iter().filter(|p| is_pod_active(p)) {
        *on_node.entry(node_name(p)).or_insert(0) += 1;
    }
    pods.iter()
        .map(|p| on_node.get(node_name(p)).copied().unwrap_or(0))
        .collect()
}

/// `getPodsToDelete`: the `diff` pods to delete on scale-down. When only some pods
/// go, they are sorted with [`active_pods_with_ranks_less`] first; when all go, the
/// input order is kept (upstream skips the sort).
pub fn get_pods_to_delete(
    filtered_pods: &[Value],
    related_pods: &[Value],
    diff: usize,
    now_ms: i64,
) -> Vec<Value> {
    if diff >= filtered_pods.len() {
        return filtered_pods.to_vec();
    }
    let ranks = get_pods_ranked_by_related_pods_on_same_node(filtered_pods, related_pods);
    let mut ranked: Vec<(Value, usize)> = filtered_pods.iter().cloned().zip(ranks).collect();
    go_sort_by_less(&mut ranked, |a, b| {
        active_pods_with_ranks_less(&a.0, &b.0, a.1, b.1, now_ms)
    });
    ranked.into_iter().take(diff).map(|(p, _)| p).collect()
}

// ---------------------------------------------------------------------------
// ReplicaSet conditions
// ---------------------------------------------------------------------------

/// `NewReplicaSetCondition`: `lastTransitionTime` is `now` (RFC 3339); empty reason
/// and message are omitted.
pub fn new_replica_set_condition(
    type_: &str,
    status: &str,
    reason: &str,
    message: &str,
    now: &str,
) -> Value {
    let mut m = Map::new();
    m.insert("type".into(), Value::from(type_));
    m.insert("status".into(), Value::from(status));
    m.insert(
        "lastTransitionTime".into(),
        if now.is_empty() {
            Value::Null
        } else {
            Value::from(now)
        },
    );
    if !reason.is_empty() {
        m.insert("reason".into(), Value::from(reason));
    }
    if !message.is_empty() {
        m.insert("message".into(), Value::from(message));
    }
    Value::Object(m)
}

fn cond_field<'a>(c: &'a Value, f: &str) -> &'a str {
    c.get(f).and_then(Value::as_str).unwrap_or("")
}

/// `GetCondition(status, type)` and `RemoveCondition` (an emptied list is dropped) on a
/// ReplicaSet `status` object.
pub use crate::api::meta::{get_condition, remove_condition};

/// `SetCondition`: no-op if the same type already has the same status and reason;
/// otherwise the old entry is removed and the new one appended. (Unlike the
/// Deployment helper, `lastTransitionTime` is not carried over.)
pub fn set_condition(status: &mut Value, cond: Value) {
    if status.is_null() {
        *status = Value::Object(Map::new());
    }
    let type_ = cond_field(&cond, "type").to_string();
    if let Some(cur) = get_condition(status, &type_) {
        if cond_field(&cur, "status") == cond_field(&cond, "status")
            && cond_field(&cur, "reason") == cond_field(&cond, "reason")
        {
            return;
        }
    }
    crate::api::meta::replace_condition(status, cond);
}

// ---------------------------------------------------------------------------
// Status
// ---------------------------------------------------------------------------

/// `calculateStatus` + the `observedGeneration` of `updateReplicaSetStatus`, with no
/// manage-replicas error. See [`calculate_replica_set_status_with_error`].
pub fn calculate_replica_set_status(rs: &Value, filtered_pods: &[Value], now_ms: i64) -> Value {
    calculate_replica_set_status_with_error(rs, filtered_pods, None, now_ms)
}

/// What the status calculation reads of a Pod: its labels, whether it is Ready, whether it is
/// available. A `Value` answers from its JSON; the controller's informer keeps the facts of each
/// Pod version computed once (`OwnedPod`), so a sync over thousands of Pods reads no JSON.
pub trait PodStatusView {
    fn labels(&self) -> Option<&Value>;
    fn ready(&self) -> bool;
    fn available(&self, min_ready_seconds: i32, now_ms: i64) -> bool;
}

impl PodStatusView for Value {
    fn labels(&self) -> Option<&Value> {
        get_path(self, &["metadata", "labels"])
    }
    fn ready(&self) -> bool {
        is_pod_ready(self)
    }
    fn available(&self, min_ready_seconds: i32, now_ms: i64) -> bool {
        is_pod_available(self, min_ready_seconds, now_ms)
    }
}

impl<T: PodStatusView + ?Sized> PodStatusView for &T {
    fn labels(&self) -> Option<&Value> {
        (**self).labels()
    }
    fn ready(&self) -> bool {
        (**self).ready()
    }
    fn available(&self, min_ready_seconds: i32, now_ms: i64) -> bool {
        (**self).available(min_ready_seconds, now_ms)
    }
}

/// When the Pod's Ready condition last changed (`IsPodAvailable` counts `minReadySeconds` from
/// it), in Unix milliseconds.
pub fn pod_ready_since(pod: &Value) -> Option<i64> {
    get_pod_ready_condition(pod).and_then(|c| time_at(c, &["lastTransitionTime"]))
}

/// The new ReplicaSet status from its active pods (`filtered_pods`).
///
/// Starts from the current status (so conditions are kept) and sets: `replicas`
/// (number of active pods; always written, it has no `omitempty`),
/// `fullyLabeledReplicas` (pods carrying every template label), `readyReplicas`,
/// `availableReplicas` (ready for `spec.minReadySeconds`), `observedGeneration`
/// (`metadata.generation`). Zero optional counters are omitted; `terminatingReplicas`
/// is removed because its feature gate is off in v1.34.
///
/// With `manage_replicas_err` set and no `ReplicaFailure` condition yet, adds
/// `ReplicaFailure=True` with reason `FailedCreate` (fewer pods than wanted) or
/// `FailedDelete` (more) and the error as message; without an error an existing
/// `ReplicaFailure` condition is removed.
pub fn calculate_replica_set_status_with_error<P: PodStatusView>(
    rs: &Value,
    filtered_pods: &[P],
    manage_replicas_err: Option<&str>,
    now_ms: i64,
) -> Value {
    let mut status = match rs.get("status") {
        Some(Value::Object(m)) => Value::Object(m.clone()),
        _ => Value::Object(Map::new()),
    };
    let template_labels: Vec<(&String, &Value)> =
        get_path(rs, &["spec", "template", "metadata", "labels"])
            .and_then(Value::as_object)
            .map(|m| m.iter().collect())
            .unwrap_or_default();
    let min_ready = i64_at(rs, &["spec", "minReadySeconds"])
        .unwrap_or(0)
        .clamp(i32::MIN as i64, i32::MAX as i64) as i32;
    let (mut fully_labeled, mut ready, mut available) = (0i64, 0i64, 0i64);
    for pod in filtered_pods {
        let labels = pod.labels();
        if template_labels
            .iter()
            .all(|(k, v)| labels.and_then(|l| l.get(k.as_str())) == Some(*v))
        {
            fully_labeled += 1;
        }
        if pod.ready() {
            ready += 1;
            if pod.available(min_ready, now_ms) {
                available += 1;
            }
        }
    }

    let failure = get_condition(&status, REPLICA_SET_REPLICA_FAILURE);
    match (manage_replicas_err, failure) {
        (Some(err), None) => {
            let want = i64_at(rs, &["spec", "replicas"]).unwrap_or(1);
            let diff = filtered_pods.len() as i64 - want;
            let reason = match diff {
                d if d < 0 => FAILED_CREATE_REASON,
                d if d > 0 => FAILED_DELETE_REASON,
                _ => "",
            };
            let cond = new_replica_set_condition(
                REPLICA_SET_REPLICA_FAILURE,
                "True",
                reason,
                err,
                &crate::api::time::unix_rfc3339(now_ms),
            );
            set_condition(&mut status, cond);
        }
        (None, Some(_)) => remove_condition(&mut status, REPLICA_SET_REPLICA_FAILURE),
        _ => {}
    }

    if let Some(obj) = status.as_object_mut() {
        obj.insert("replicas".into(), Value::from(filtered_pods.len() as i64));
        for (key, v) in [
            ("fullyLabeledReplicas", fully_labeled),
            ("readyReplicas", ready),
            ("availableReplicas", available),
        ] {
            if v != 0 {
                obj.insert(key.into(), Value::from(v));
            } else {
                obj.remove(key);
            }
        }
        obj.remove("terminatingReplicas");
        match i64_at(rs, &["metadata", "generation"]).unwrap_or(0) {
            0 => {
                obj.remove("observedGeneration");
            }
            g => {
                obj.insert("observedGeneration".into(), Value::from(g));
            }
        }
    }
    status
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const T0: i64 = 1_767_225_600_000; // 2026-01-01T00:00:00Z
    const NOW: i64 = T0 + 86_400_000; // one day later

    /// A running, ready pod on `node`, created and ready at `created` (ms).
    fn pod(name: &str, node: &str, created: i64) -> Value {
        json!({
            "metadata": {"name": name, "uid": format!("uid-{name}"), "creationTimestamp": crate::api::time::unix_rfc3339(created), "labels": {"app": "web"}},
            "spec": {"nodeName": node},
            "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True", "lastTransitionTime": crate::api::time::unix_rfc3339(created)}]}
        })
    }

    fn not_ready(mut p: Value) -> Value {
        p["status"]["conditions"][0]["status"] = json!("False");
        p
    }

    fn names(v: &[Value]) -> Vec<String> {
        v.iter()
            .map(|p| str_at(p, &["metadata", "name"]).unwrap_or("").to_string())
            .collect()
    }

    #[test]
    fn slow_start_table() {
        struct Case {
            name: &'static str,
            count: usize,
            want: Vec<usize>,
        }
        let cases = [
            Case {
                name: "0",
                count: 0,
                want: vec![],
            },
            Case {
                name: "1",
                count: 1,
                want: vec![1],
            },
            Case {
                name: "3",
                count: 3,
                want: vec![1, 2],
            },
            Case {
                name: "10",
                count: 10,
                want: vec![1, 2, 4, 3],
            },
            Case {
                name: "16",
                count: 16,
                want: vec![1, 2, 4, 8, 1],
            },
            Case {
                name: "500 (burst)",
                count: 500,
                want: vec![1, 2, 4, 8, 16, 32, 64, 128, 245],
            },
            Case {
                name: "600 capped to burst",
                count: cap_to_burst_replicas(600),
                want: vec![1, 2, 4, 8, 16, 32, 64, 128, 245],
            },
        ];
        for c in &cases {
            let got = slow_start_batches(c.count, SLOW_START_INITIAL_BATCH_SIZE);
            assert_eq!(got, c.want, "case {}", c.name);
            assert_eq!(got.iter().sum::<usize>(), c.count, "case {} (sum)", c.name);
        }
        assert_eq!(
            slow_start_batches(5, 0),
            Vec::<usize>::new(),
            "case initial 0 does nothing"
        );
        assert_eq!(slow_start_batches(5, 4), vec![4, 1], "case initial 4");
        assert_eq!(BURST_REPLICAS, 500, "case burst constant");
    }

    #[test]
    fn pod_state_table() {
        let ready = pod("a", "n1", T0);
        let mut succeeded = ready.clone();
        succeeded["status"]["phase"] = json!("Succeeded");
        let mut failed = ready.clone();
        failed["status"]["phase"] = json!("Failed");
        let mut deleting = ready.clone();
        deleting["metadata"]["deletionTimestamp"] = json!("2026-01-01T00:00:05Z");
        let mut pending = json!({"metadata": {"name": "p"}, "status": {"phase": "Pending"}});
        pending["status"]["conditions"] = json!([{"type": "PodScheduled", "status": "True"}]);
        let no_ltt = json!({"status": {"conditions": [{"type": "Ready", "status": "True"}]}});
        struct Case {
            name: &'static str,
            pod: Value,
            active: bool,
            ready: bool,
            available_min0: bool,
            available_min10_at: (i64, bool),
        }
        let cases = [
            Case {
                name: "running ready",
                pod: ready.clone(),
                active: true,
                ready: true,
                available_min0: true,
                available_min10_at: (T0 + 11_000, true),
            },
            Case {
                name: "ready exactly min seconds is not available",
                pod: ready.clone(),
                active: true,
                ready: true,
                available_min0: true,
                available_min10_at: (T0 + 10_000, false),
            },
            Case {
                name: "succeeded",
                pod: succeeded,
                active: false,
                ready: true,
                available_min0: true,
                available_min10_at: (T0 + 11_000, true),
            },
            Case {
                name: "failed",
                pod: failed,
                active: false,
                ready: true,
                available_min0: true,
                available_min10_at: (T0 + 11_000, true),
            },
            Case {
                name: "deleting",
                pod: deleting,
                active: false,
                ready: true,
                available_min0: true,
                available_min10_at: (T0 + 11_000, true),
            },
            Case {
                name: "pending, no Ready condition",
                pod: pending,
                active: true,
                ready: false,
                available_min0: false,
                available_min10_at: (NOW, false),
            },
            Case {
                name: "not ready",
                pod: not_ready(ready),
                active: true,
                ready: false,
                available_min0: false,
                available_min10_at: (NOW, false),
            },
            Case {
                name: "ready without transition time",
                pod: no_ltt,
                active: true,
                ready: true,
                available_min0: true,
                available_min10_at: (NOW, false),
            },
            Case {
                name: "not an object",
                pod: json!("x"),
                active: true,
                ready: false,
                available_min0: false,
                available_min10_at: (NOW, false),
            },
        ];
        for c in &cases {
            assert_eq!(is_pod_active(&c.pod), c.active, "case {} (active)", c.name);
            assert_eq!(is_pod_ready(&c.pod), c.ready, "case {} (ready)", c.name);
            assert_eq!(
                is_pod_available(&c.pod, 0, NOW),
                c.available_min0,
                "case {} (available 0)",
                c.name
            );
            assert_eq!(
                is_pod_available(&c.pod, 10, c.available_min10_at.0),
                c.available_min10_at.1,
                "case {} (available 10)",
                c.name
            );
        }
        let all: Vec<Value> = cases.iter().map(|c| c.pod.clone()).collect();
        assert_eq!(filter_active_pods(&all).len(), 6, "case filter_active_pods");
    }

    #[test]
    fn deletion_cost_table() {
        let with =
            |v: Value| json!({"metadata": {"annotations": {POD_DELETION_COST_ANNOTATION: v}}});
        let cases: [(&str, Value, Result<i32, &str>); 8] = [
            ("absent", json!({}), Ok(0)),
            ("positive", with(json!("100")), Ok(100)),
            ("negative", with(json!("-5")), Ok(-5)),
            ("zero", with(json!("0")), Ok(0)),
            (
                "plus sign invalid",
                with(json!("+10")),
                Err("invalid value \"+10\""),
            ),
            (
                "leading zero invalid",
                with(json!("007")),
                Err("invalid value \"007\""),
            ),
            (
                "out of int32 range",
                with(json!("2147483648")),
                Err("strconv.ParseInt: parsing \"2147483648\": value out of range"),
            ),
            ("empty", with(json!("")), Err("invalid value \"\"")),
        ];
        for (name, p, want) in cases {
            assert_eq!(
                get_deletion_cost_from_pod_annotations(&p),
                want.map_err(String::from),
                "case {name}"
            );
        }
    }

    #[test]
    fn deletion_ranking_table() {
        // Each case lists pods so that the one to delete is *not* first; with diff = 1
        // the ranking alone must pick it.
        struct Case {
            name: &'static str,
            pods: Vec<Value>,
            related: Option<Vec<Value>>,
            want_first: &'static str,
        }
        let base = |name: &str| pod(name, "n1", T0);
        let with_phase = |name: &str, ph: &str| {
            let mut p = not_ready(base(name));
            p["status"]["phase"] = json!(ph);
            p
        };
        let with_cost = |name: &str, cost: &str| {
            let mut p = base(name);
            p["metadata"]["annotations"] = json!({POD_DELETION_COST_ANNOTATION: cost});
            p
        };
        let ready_at = |name: &str, ready_ms: i64| {
            let mut p = base(name);
            p["status"]["conditions"][0]["lastTransitionTime"] = json!(crate::api::time::unix_rfc3339(ready_ms));
            p
        };
        let restarts = |name: &str, n: i64| {
            let mut p = base(name);
            p["status"]["containerStatuses"] =
                json!([{"name": "c", "restartCount": 0}, {"name": "d", "restartCount": n}]);
            p
        };
        let sidecar_restarts = |name: &str, n: i64| {
            let mut p = base(name);
            p["spec"]["initContainers"] =
                json!([{"name": "proxy", "restartPolicy": "Always"}, {"name": "init"}]);
            p["status"]["initContainerStatuses"] =
                json!([{"name": "proxy", "restartCount": n}, {"name": "init", "restartCount": 50}]);
            p
        };
        let created = |name: &str, ms: i64| {
            let mut p = pod(name, "n1", ms);
            p["status"]["conditions"][0]["lastTransitionTime"] = json!(crate::api::time::unix_rfc3339(T0));
            p
        };
        let with_uid = |mut p: Value, uid: &str| {
            p["metadata"]["uid"] = json!(uid);
            p
        };
        let cases = [
            Case {
                name: "1 unassigned before assigned",
                pods: vec![base("assigned"), not_ready(pod("unassigned", "", T0))],
                related: None,
                want_first: "unassigned",
            },
            Case {
                name: "2 pending before running",
                pods: vec![not_ready(base("running")), with_phase("pending", "Pending")],
                related: None,
                want_first: "pending",
            },
            Case {
                name: "2 unknown before running",
                pods: vec![not_ready(base("running")), with_phase("unknown", "Unknown")],
                related: None,
                want_first: "unknown",
            },
            Case {
                name: "2 pending before unknown",
                pods: vec![
                    with_phase("unknown", "Unknown"),
                    with_phase("pending", "Pending"),
                ],
                related: None,
                want_first: "pending",
            },
            Case {
                name: "3 not ready before ready",
                pods: vec![base("ready"), not_ready(base("notready"))],
                related: None,
                want_first: "notready",
            },
            Case {
                name: "4 lower deletion cost first",
                pods: vec![with_cost("expensive", "10"), with_cost("cheap", "-10")],
                related: None,
                want_first: "cheap",
            },
            Case {
                name: "4 invalid cost counts as 0",
                pods: vec![with_cost("one", "1"), with_cost("invalid", "+5")],
                related: None,
                want_first: "invalid",
            },
            Case {
                name: "5 more co-located related pods first",
                pods: vec![pod("alone", "n2", T0), pod("crowded", "n1", T0)],
                related: Some(vec![
                    pod("r1", "n1", T0),
                    pod("r2", "n1", T0),
                    pod("r3", "n2", T0),
                ]),
                want_first: "crowded",
            },
            Case {
                name: "5 inactive related pods do not count",
                pods: vec![pod("b", "n2", T0), pod("a", "n1", T0)],
                related: Some(vec![
                    pod("r1", "n1", T0),
                    {
                        let mut t = pod("t1", "n2", T0);
                        t["metadata"]["deletionTimestamp"] = json!("2026-01-01T00:00:00Z");
                        t
                    },
                    {
                        let mut t = pod("t2", "n2", T0);
                        t["status"]["phase"] = json!("Failed");
                        t
                    },
                ]),
                want_first: "a",
            },
            Case {
                name: "6 more recently ready first (different log buckets)",
                pods: vec![
                    ready_at("old", NOW - 100_000),
                    ready_at("recent", NOW - 10_000),
                ],
                related: None,
                want_first: "recent",
            },
            Case {
                name: "6 same log bucket falls back to UID",
                pods: vec![
                    with_uid(ready_at("recent", NOW - 10_000), "uid-z"),
                    with_uid(ready_at("older", NOW - 11_000), "uid-a"),
                ],
                related: None,
                want_first: "older",
            },
            Case {
                name: "6 zero ready time counts as newest",
                pods: vec![ready_at("recent", NOW - 1_000), {
                    let mut p = base("zero");
                    p["status"]["conditions"][0]
                        .as_object_mut()
                        .unwrap()
                        .remove("lastTransitionTime");
                    p
                }],
                related: None,
                want_first: "zero",
            },
            Case {
                name: "7 more restarts first",
                pods: vec![restarts("calm", 1), restarts("crashy", 7)],
                related: None,
                want_first: "crashy",
            },
            Case {
                name: "7 sidecar restarts break ties",
                pods: vec![sidecar_restarts("calm", 0), sidecar_restarts("sidecar", 3)],
                related: None,
                want_first: "sidecar",
            },
            Case {
                name: "8 newer creation first",
                pods: vec![created("old", T0 - 86_400_000 * 30), created("new", T0)],
                related: None,
                want_first: "new",
            },
            Case {
                name: "8 same creation bucket falls back to UID",
                pods: vec![
                    with_uid(created("new", NOW - 10_000), "uid-z"),
                    with_uid(created("older", NOW - 11_000), "uid-a"),
                ],
                related: None,
                want_first: "older",
            },
            Case {
                name: "8 zero creation time counts as newest",
                pods: vec![created("dated", T0), {
                    let mut p = created("zero", T0);
                    p["metadata"]
                        .as_object_mut()
                        .unwrap()
                        .remove("creationTimestamp");
                    p
                }],
                related: None,
                want_first: "zero",
            },
            Case {
                name: "earlier rule wins: unassigned beats high cost",
                pods: vec![with_cost("cheap", "-100"), {
                    let mut p = pod("unassigned", "", T0);
                    p["metadata"]["annotations"] = json!({POD_DELETION_COST_ANNOTATION: "100"});
                    p
                }],
                related: None,
                want_first: "unassigned",
            },
        ];
        for c in &cases {
            let related = c.related.clone().unwrap_or_else(|| c.pods.clone());
            let got = get_pods_to_delete(&c.pods, &related, 1, NOW);
            assert_eq!(
                names(&got),
                vec![c.want_first.to_string()],
                "case {}",
                c.name
            );
        }
    }

    #[test]
    fn pods_to_delete_counts_table() {
        let pods = vec![
            pod("a", "n1", T0),
            not_ready(pod("b", "n1", T0)),
            pod("c", "", T0),
        ];
        struct Case {
            name: &'static str,
            diff: usize,
            want: Vec<&'static str>,
        }
        let cases = [
            Case {
                name: "delete none",
                diff: 0,
                want: vec![],
            },
            Case {
                name: "delete two, ranked",
                diff: 2,
                want: vec!["c", "b"],
            },
            Case {
                name: "delete all keeps input order (no sort)",
                diff: 3,
                want: vec!["a", "b", "c"],
            },
            Case {
                name: "diff beyond len is clamped",
                diff: 9,
                want: vec!["a", "b", "c"],
            },
        ];
        for c in &cases {
            assert_eq!(
                names(&get_pods_to_delete(&pods, &pods, c.diff, NOW)),
                c.want,
                "case {}",
                c.name
            );
        }
        assert_eq!(
            get_pods_ranked_by_related_pods_on_same_node(&pods, &pods),
            vec![2, 2, 1],
            "case ranks"
        );
        // Many pods: never panics, returns diff pods.
        let many: Vec<Value> = (0..40)
            .map(|i| {
                pod(
                    &format!("p{i}"),
                    if i % 2 == 0 { "n1" } else { "n2" },
                    T0 + i * 1000,
                )
            })
            .collect();
        assert_eq!(
            get_pods_to_delete(&many, &many, 25, NOW).len(),
            25,
            "case many pods"
        );
    }

    #[test]
    fn logarithmic_rank_diff_table() {
        let cases: [(&str, i64, i64, i64); 4] = [
            ("same age", NOW - 1000, NOW - 1000, 0),
            ("10s vs 100s", NOW - 10_000, NOW - 100_000, 33 - 36),
            ("future time ranks -1", NOW + 5, NOW - 1, -1 - 19),
            ("1ms vs 2ms", NOW - 1, NOW - 2, 19 - 20),
        ];
        for (name, t1, t2, want) in cases {
            assert_eq!(logarithmic_rank_diff(t1, t2, NOW), want, "case {name}");
        }
    }

    #[test]
    fn calculate_replica_set_status_table() {
        struct Case {
            name: &'static str,
            rs: Value,
            pods: Vec<Value>,
            err: Option<&'static str>,
            want: Value,
        }
        let rs = |replicas: i64, min_ready: i64, status: Value| {
            json!({
                "metadata": {"name": "web-1", "generation": 3},
                "spec": {"replicas": replicas, "minReadySeconds": min_ready, "template": {"metadata": {"labels": {"app": "web", "tier": "fe"}}}},
                "status": status
            })
        };
        let full = |name: &str, created: i64| {
            let mut p = pod(name, "n1", created);
            p["metadata"]["labels"] = json!({"app": "web", "tier": "fe", "extra": "x"});
            p
        };
        let now_s = crate::api::time::unix_rfc3339(NOW);
        let failure = json!({"type": "ReplicaFailure", "status": "True", "reason": "FailedCreate", "message": "quota", "lastTransitionTime": "2026-01-01T00:00:00Z"});
        let cases = [
            Case {
                name: "counts, partial labels, min ready seconds",
                rs: rs(3, 60, json!({"replicas": 1, "terminatingReplicas": 1})),
                pods: vec![
                    full("old-enough", NOW - 120_000),
                    full("too-new", NOW - 30_000),
                    not_ready(pod("partial", "n1", T0)),
                ],
                err: None,
                want: json!({"replicas": 3, "fullyLabeledReplicas": 2, "readyReplicas": 2, "availableReplicas": 1, "observedGeneration": 3}),
            },
            Case {
                name: "no pods: replicas 0 stays, zero counters dropped",
                rs: rs(
                    0,
                    0,
                    json!({"replicas": 2, "readyReplicas": 2, "availableReplicas": 2, "fullyLabeledReplicas": 2}),
                ),
                pods: vec![],
                err: None,
                want: json!({"replicas": 0, "observedGeneration": 3}),
            },
            Case {
                name: "create error adds ReplicaFailure FailedCreate",
                rs: rs(3, 0, json!({})),
                pods: vec![full("a", T0)],
                err: Some("pods \"web-1-x\" is forbidden: exceeded quota"),
                want: json!({
                    "replicas": 1, "fullyLabeledReplicas": 1, "readyReplicas": 1, "availableReplicas": 1, "observedGeneration": 3,
                    "conditions": [{"type": "ReplicaFailure", "status": "True", "reason": "FailedCreate", "message": "pods \"web-1-x\" is forbidden: exceeded quota", "lastTransitionTime": now_s}]
                }),
            },
            Case {
                name: "delete error gives FailedDelete",
                rs: rs(0, 0, json!({})),
                pods: vec![full("a", T0)],
                err: Some("boom"),
                want: json!({
                    "replicas": 1, "fullyLabeledReplicas": 1, "readyReplicas": 1, "availableReplicas": 1, "observedGeneration": 3,
                    "conditions": [{"type": "ReplicaFailure", "status": "True", "reason": "FailedDelete", "message": "boom", "lastTransitionTime": now_s}]
                }),
            },
            Case {
                name: "existing failure kept while errors continue",
                rs: rs(3, 0, json!({"conditions": [failure.clone()]})),
                pods: vec![],
                err: Some("other"),
                want: json!({"replicas": 0, "observedGeneration": 3, "conditions": [failure.clone()]}),
            },
            Case {
                name: "success removes failure",
                rs: rs(1, 0, json!({"conditions": [failure]})),
                pods: vec![full("a", T0)],
                err: None,
                want: json!({"replicas": 1, "fullyLabeledReplicas": 1, "readyReplicas": 1, "availableReplicas": 1, "observedGeneration": 3}),
            },
            Case {
                name: "other conditions kept",
                rs: rs(
                    1,
                    0,
                    json!({"conditions": [{"type": "Custom", "status": "True"}]}),
                ),
                pods: vec![],
                err: None,
                want: json!({"replicas": 0, "observedGeneration": 3, "conditions": [{"type": "Custom", "status": "True"}]}),
            },
        ];
        for c in &cases {
            let got = calculate_replica_set_status_with_error(&c.rs, &c.pods, c.err, NOW);
            assert_eq!(got, c.want, "case {}", c.name);
            if c.err.is_none() {
                assert_eq!(
                    calculate_replica_set_status(&c.rs, &c.pods, NOW),
                    c.want,
                    "case {} (no-error entry point)",
                    c.name
                );
            }
        }
        assert_eq!(
            calculate_replica_set_status(&Value::Null, &[], NOW),
            json!({"replicas": 0}),
            "case null rs"
        );
    }

    #[test]
    fn replica_set_condition_table() {
        let c1 = new_replica_set_condition(
            REPLICA_SET_REPLICA_FAILURE,
            "True",
            FAILED_CREATE_REASON,
            "a",
            "2026-01-01T00:00:00Z",
        );
        let c2 = new_replica_set_condition(
            REPLICA_SET_REPLICA_FAILURE,
            "True",
            FAILED_CREATE_REASON,
            "b",
            "2026-01-01T00:01:00Z",
        );
        let c3 = new_replica_set_condition(
            REPLICA_SET_REPLICA_FAILURE,
            "True",
            FAILED_DELETE_REASON,
            "c",
            "2026-01-01T00:02:00Z",
        );
        let other = json!({"type": "Other", "status": "True"});
        let cases: [(&str, Value, Value, Value); 3] = [
            (
                "append",
                json!({}),
                c1.clone(),
                json!({"conditions": [c1.clone()]}),
            ),
            (
                "same status and reason no-op",
                json!({"conditions": [c1.clone()]}),
                c2,
                json!({"conditions": [c1.clone()]}),
            ),
            (
                "reason change replaces at end, new transition time",
                json!({"conditions": [c1, other.clone()]}),
                c3.clone(),
                json!({"conditions": [other, c3]}),
            ),
        ];
        for (name, before, cond, want) in cases {
            let mut st = before.clone();
            set_condition(&mut st, cond);
            assert_eq!(st, want, "case {name}");
        }
    }
}
