//! `calculateStatus` (`sync.go`): the status counts and the `Available` condition.

use super::*;

// ---------------------------------------------------------------------------
// Status
// ---------------------------------------------------------------------------

pub(super) fn put_nonzero(m: &mut Map<String, Value>, key: &str, v: i64) {
    // Deployment status counters are `omitempty`.
    if v != 0 {
        m.insert(key.to_string(), Value::from(v));
    }
}

/// sync.go `calculateStatus`: the Deployment status computed from its ReplicaSets.
///
/// Counts: `replicas` Σ RS `status.replicas`; `updatedReplicas` the new RS's
/// `status.replicas`; `readyReplicas`, `availableReplicas` sums; `unavailableReplicas`
/// `max(0, Σ spec.replicas − available)`; `observedGeneration` the Deployment's
/// generation; `collisionCount` kept. Existing conditions are copied and the
/// `Available` condition is set (True when available ≥ replicas − maxUnavailable).
/// Zero counters are omitted like Go's `omitempty`. `now` stamps a new condition.
pub fn calculate_status(d: &Value, all_rss: &[Value], new_rs: Option<&Value>, now: &str) -> Value {
    let available = get_available_replica_count_for_replica_sets(all_rss);
    let total = get_replica_count_for_replica_sets(all_rss);
    let unavailable = total.wrapping_sub(available).max(0);
    let updated = new_rs.map_or(0, |rs| status_i32(rs, "replicas"));

    let mut m = Map::new();
    put_nonzero(
        &mut m,
        "observedGeneration",
        i64_at(d, &["metadata", "generation"]).unwrap_or(0),
    );
    put_nonzero(
        &mut m,
        "replicas",
        get_actual_replica_count_for_replica_sets(all_rss) as i64,
    );
    put_nonzero(&mut m, "updatedReplicas", updated as i64);
    put_nonzero(
        &mut m,
        "readyReplicas",
        get_ready_replica_count_for_replica_sets(all_rss) as i64,
    );
    put_nonzero(&mut m, "availableReplicas", available as i64);
    put_nonzero(&mut m, "unavailableReplicas", unavailable as i64);
    // A pointer field: kept even when 0.
    if let Some(c) = get_path(d, &["status", "collisionCount"]).filter(|v| !v.is_null()) {
        m.insert("collisionCount".into(), c.clone());
    }
    if let Some(conds) = get_path(d, &["status", "conditions"]).and_then(Value::as_array) {
        if !conds.is_empty() {
            m.insert("conditions".into(), Value::Array(conds.clone()));
        }
    }
    let mut status = Value::Object(m);
    let cond = if available >= spec_replicas(d).wrapping_sub(max_unavailable(d)) {
        new_deployment_condition(
            DEPLOYMENT_AVAILABLE,
            CONDITION_TRUE,
            MINIMUM_REPLICAS_AVAILABLE,
            MINIMUM_REPLICAS_AVAILABLE_MESSAGE,
            now,
        )
    } else {
        new_deployment_condition(
            DEPLOYMENT_AVAILABLE,
            CONDITION_FALSE,
            MINIMUM_REPLICAS_UNAVAILABLE,
            MINIMUM_REPLICAS_UNAVAILABLE_MESSAGE,
            now,
        )
    };
    set_deployment_condition(&mut status, cond);
    status
}
