//! Rollout state: `DeploymentComplete`, `DeploymentProgressing`, `DeploymentTimedOut`.

use super::*;

// ---------------------------------------------------------------------------
// Rollout state
// ---------------------------------------------------------------------------

/// `HasProgressDeadline`: `progressDeadlineSeconds` set and not `MaxInt32`.
pub fn has_progress_deadline(d: &Value) -> bool {
    i64_at(d, &["spec", "progressDeadlineSeconds"]).is_some_and(|v| v != MAX_INT32)
}

/// `spec.paused`.
pub fn is_paused(d: &Value) -> bool {
    crate::api::meta::get(d, &["spec", "paused"]).and_then(Value::as_bool).unwrap_or(false)
}

/// `HasRevisionHistoryLimit`: `revisionHistoryLimit` set and not `MaxInt32`.
pub fn has_revision_history_limit(d: &Value) -> bool {
    i64_at(d, &["spec", "revisionHistoryLimit"]).is_some_and(|v| v != MAX_INT32)
}

/// `DeploymentComplete`: every desired replica is updated and available, no old
/// replica is left, and the status describes the current generation.
pub fn deployment_complete(d: &Value, new_status: &Value) -> bool {
    let replicas = spec_replicas(d);
    let st = |f: &str| i32_at(new_status, &[f]).unwrap_or(0);
    st("updatedReplicas") == replicas
        && st("replicas") == replicas
        && st("availableReplicas") == replicas
        && i64_at(new_status, &["observedGeneration"]).unwrap_or(0)
            >= i64_at(d, &["metadata", "generation"]).unwrap_or(0)
}

/// `DeploymentProgressing`: compared with the Deployment's current status, did new
/// replicas get created, old ones go away, or more pods become ready or available?
pub fn deployment_progressing(d: &Value, new_status: &Value) -> bool {
    let old = |f: &str| status_i32(d, f);
    let new = |f: &str| i32_at(new_status, &[f]).unwrap_or(0);
    let old_old_replicas = old("replicas").wrapping_sub(old("updatedReplicas"));
    let new_old_replicas = new("replicas").wrapping_sub(new("updatedReplicas"));
    new("updatedReplicas") > old("updatedReplicas")
        || new_old_replicas < old_old_replicas
        || new("readyReplicas") > old("readyReplicas")
        || new("availableReplicas") > old("availableReplicas")
}

/// `DeploymentTimedOut`: the Progressing condition's `lastUpdateTime` plus
/// `progressDeadlineSeconds` is before `now_ms`. A completed rollout
/// (`NewReplicaSetAvailable`) never times out; `ProgressDeadlineExceeded` stays.
pub fn deployment_timed_out(d: &Value, new_status: &Value, now_ms: i64) -> bool {
    if !has_progress_deadline(d) {
        return false;
    }
    let Some(cond) = get_deployment_condition(new_status, DEPLOYMENT_PROGRESSING) else {
        return false;
    };
    match str_at(&cond, &["reason"]).unwrap_or("") {
        NEW_RS_AVAILABLE_REASON => return false,
        TIMED_OUT_REASON => return true,
        _ => {}
    }
    let deadline_ms = i64_at(d, &["spec", "progressDeadlineSeconds"])
        .unwrap_or(0)
        .saturating_mul(1000);
    // A missing/unparseable time is Go's zero time: long ago, so timed out.
    match str_at(&cond, &["lastUpdateTime"]).and_then(crate::api::time::parse_rfc3339_unix) {
        Some(from) => from.saturating_add(deadline_ms) < now_ms,
        None => true,
    }
}
