//! Proportional scaling (`GetReplicaSetProportion`, `getReplicaSetFraction`, `IsSaturated`).

use super::*;

// ---------------------------------------------------------------------------
// Proportional scaling
// ---------------------------------------------------------------------------

/// `k8s.io/utils/integer.RoundToInt32`: rounds half away from zero
/// (`2.5 → 3`, `-2.5 → -3`), unlike banker's rounding or JavaScript's `Math.round`.
pub fn round_to_int32(a: f64) -> i32 {
    if a < 0.0 {
        (a - 0.5) as i32
    } else {
        (a + 0.5) as i32
    }
}

pub(super) fn get_int_from_annotation(rs: &Value, key: &str) -> Option<i32> {
    let v = annotation(rs, key)?;
    go_atoi(v).ok().map(|i| i as i32)
}

/// `GetDesiredReplicasAnnotation`.
pub fn get_desired_replicas_annotation(rs: &Value) -> Option<i32> {
    get_int_from_annotation(rs, DESIRED_REPLICAS_ANNOTATION)
}

/// `getMaxReplicasAnnotation`.
pub fn get_max_replicas_annotation(rs: &Value) -> Option<i32> {
    get_int_from_annotation(rs, MAX_REPLICAS_ANNOTATION)
}

/// `getReplicaSetFraction`: by how much this ReplicaSet should change when the
/// Deployment is resized during a rollout (or while paused).
///
/// `round(rs.replicas * (d.replicas + maxSurge) / maxReplicasBeforeScale) - rs.replicas`,
/// where `maxReplicasBeforeScale` is the RS's `max-replicas` annotation. Since v1.33
/// (PR #128535) a missing *or zero* annotation falls back to `d.status.replicas`, and
/// if that is also 0 the fraction is 0 instead of a division by zero. Scaling the
/// Deployment to 0 gives the RS's whole (negative) size.
pub fn get_replica_set_fraction(rs: &Value, d: &Value) -> i32 {
    let d_replicas = spec_replicas(d);
    let rs_replicas = spec_replicas(rs);
    if d_replicas == 0 {
        return rs_replicas.wrapping_neg();
    }
    let deployment_max_replicas = d_replicas.wrapping_add(max_surge(d));
    let before = match get_max_replicas_annotation(rs) {
        Some(v) if v != 0 => v,
        _ => {
            let s = status_i32(d, "replicas");
            if s == 0 {
                return 0;
            }
            s
        }
    };
    // Go multiplies in int32 before converting to float64.
    let new_size = rs_replicas.wrapping_mul(deployment_max_replicas) as f64 / before as f64;
    round_to_int32(new_size).wrapping_sub(rs_replicas)
}

/// `GetReplicaSetProportion` (`GetProportion` in older trees): the share of
/// `to_add` this ReplicaSet gets, given `added` already handed out. Scaling up takes
/// `min(fraction, allowed)`, scaling down `max(fraction, allowed)`, so the total never
/// overshoots. `None` (or `null`) is a nil ReplicaSet.
pub fn get_proportion(rs: Option<&Value>, d: &Value, to_add: i32, added: i32) -> i32 {
    let rs = match rs {
        Some(r) if !r.is_null() => r,
        _ => return 0,
    };
    if spec_replicas(rs) == 0 || to_add == 0 || to_add == added {
        return 0;
    }
    let fraction = get_replica_set_fraction(rs, d);
    let allowed = to_add.wrapping_sub(added);
    if to_add > 0 {
        fraction.min(allowed)
    } else {
        fraction.max(allowed)
    }
}

/// `IsSaturated`: the new RS owns every desired replica (its size, its
/// `desired-replicas` annotation and its available count all equal `d.spec.replicas`).
pub fn is_saturated(d: &Value, rs: Option<&Value>) -> bool {
    let rs = match rs {
        Some(r) if !r.is_null() => r,
        _ => return false,
    };
    let desired = match annotation(rs, DESIRED_REPLICAS_ANNOTATION).map(go_atoi) {
        Some(Ok(v)) => v as i32,
        _ => return false,
    };
    let replicas = spec_replicas(d);
    spec_replicas(rs) == replicas
        && desired == replicas
        && status_i32(rs, "availableReplicas") == replicas
}
