//! `intstr.GetScaledValueFromIntOrPercent` and the fence posts of `deployment_util.go`:
//! `ResolveFenceposts`, `MaxUnavailable`, `MaxSurge`, `MinAvailable`, `NewRSNewReplicas`.

use super::*;

// ---------------------------------------------------------------------------
// IntOrString and fence posts
// ---------------------------------------------------------------------------

/// `intstr.GetScaledValueFromIntOrPercent`: an integer is returned as is; a string
/// must be `"<int>%"` and is scaled by `total`, rounded up (`math.Ceil`) or down
/// (`math.Floor`). `null` is Go's nil pointer. Error texts are upstream's.
pub fn get_scaled_value_from_int_or_percent(
    v: &Value,
    total: i32,
    round_up: bool,
) -> Result<i32, String> {
    let (value, is_percent) = match v {
        Value::Null => return Err("nil value for IntOrString".to_string()),
        Value::Number(_) => match int_of(v) {
            // IntOrString.IntVal is an int32.
            Some(i) => (i as i32 as i64, false),
            None => {
                return Err(
                    "invalid value for IntOrString: invalid type: neither int nor percentage"
                        .to_string(),
                )
            }
        },
        Value::String(s) => match s.strip_suffix('%') {
            None => {
                return Err(
                    "invalid value for IntOrString: invalid type: string is not a percentage"
                        .to_string(),
                )
            }
            Some(num) => match go_atoi(num) {
                Ok(i) => (i, true),
                Err(e) => {
                    return Err(format!(
                        "invalid value for IntOrString: invalid value {}: {}",
                        go_quote(s),
                        e
                    ))
                }
            },
        },
        _ => {
            return Err(
                "invalid value for IntOrString: invalid type: neither int nor percentage"
                    .to_string(),
            )
        }
    };
    if !is_percent {
        return Ok(value as i32);
    }
    let scaled = value as f64 * total as f64 / 100.0;
    let rounded = if round_up {
        scaled.ceil()
    } else {
        scaled.floor()
    };
    // Go: int(float64) then int32(int).
    Ok(rounded as i64 as i32)
}

/// `ResolveFenceposts(maxSurge, maxUnavailable, desired)` → `(surge, unavailable)`.
/// A missing value counts as `0` (`intstr.ValueOrDefault(x, FromInt(0))`). Surge
/// rounds up, unavailability rounds down, and if both end up `0` unavailability
/// becomes `1` so that a rollout can always make progress.
pub fn resolve_fenceposts(
    max_surge: Option<&Value>,
    max_unavailable: Option<&Value>,
    desired: i32,
) -> Result<(i32, i32), String> {
    let zero = Value::from(0);
    let or_zero = |v: Option<&Value>| match v {
        None | Some(Value::Null) => zero.clone(),
        Some(x) => x.clone(),
    };
    let surge = get_scaled_value_from_int_or_percent(&or_zero(max_surge), desired, true)?;
    let mut unavailable =
        get_scaled_value_from_int_or_percent(&or_zero(max_unavailable), desired, false)?;
    if surge == 0 && unavailable == 0 {
        unavailable = 1;
    }
    Ok((surge, unavailable))
}

/// `IsRollingUpdate`. A missing `spec.strategy.type` is read as the API default
/// `RollingUpdate`.
pub fn is_rolling_update(d: &Value) -> bool {
    str_at(d, &["spec", "strategy", "type"]).unwrap_or(ROLLING_UPDATE_DEPLOYMENT_STRATEGY_TYPE)
        == ROLLING_UPDATE_DEPLOYMENT_STRATEGY_TYPE
}

pub(super) fn strategy_type(d: &Value) -> &str {
    str_at(d, &["spec", "strategy", "type"]).unwrap_or(ROLLING_UPDATE_DEPLOYMENT_STRATEGY_TYPE)
}

pub(super) fn rolling_param<'a>(d: &'a Value, field: &str) -> Option<&'a Value> {
    get_path(d, &["spec", "strategy", "rollingUpdate", field])
}

/// `MaxUnavailable(d)`: 0 unless RollingUpdate with replicas > 0; never more than
/// `spec.replicas`. Invalid values (caught by validation upstream) count as 0.
pub fn max_unavailable(d: &Value) -> i32 {
    let replicas = spec_replicas(d);
    if !is_rolling_update(d) || replicas == 0 {
        return 0;
    }
    let unavailable = resolve_fenceposts(
        rolling_param(d, "maxSurge"),
        rolling_param(d, "maxUnavailable"),
        replicas,
    )
    .map_or(0, |r| r.1);
    unavailable.min(replicas)
}

/// `MaxSurge(d)`: 0 unless RollingUpdate.
pub fn max_surge(d: &Value) -> i32 {
    if !is_rolling_update(d) {
        return 0;
    }
    resolve_fenceposts(
        rolling_param(d, "maxSurge"),
        rolling_param(d, "maxUnavailable"),
        spec_replicas(d),
    )
    .map_or(0, |r| r.0)
}

/// `MinAvailable(d)` = `spec.replicas - MaxUnavailable(d)` (0 unless RollingUpdate).
pub fn min_available(d: &Value) -> i32 {
    if !is_rolling_update(d) {
        return 0;
    }
    spec_replicas(d).wrapping_sub(max_unavailable(d))
}

/// `NewRSNewReplicas`: how many replicas the new ReplicaSet should have now.
/// RollingUpdate adds at most `maxTotal - current` (maxTotal = replicas + surge) and
/// never goes beyond `spec.replicas`; Recreate jumps straight to `spec.replicas`.
pub fn new_rs_new_replicas(d: &Value, all_rss: &[Value], new_rs: &Value) -> Result<i32, String> {
    let replicas = spec_replicas(d);
    match strategy_type(d) {
        ROLLING_UPDATE_DEPLOYMENT_STRATEGY_TYPE => {
            let surge_value = rolling_param(d, "maxSurge").cloned().unwrap_or(Value::Null);
            let max_surge = get_scaled_value_from_int_or_percent(&surge_value, replicas, true)?;
            let current = get_replica_count_for_replica_sets(all_rss);
            let max_total = replicas.wrapping_add(max_surge);
            let new_rs_replicas = spec_replicas(new_rs);
            if current >= max_total {
                return Ok(new_rs_replicas);
            }
            let scale_up = max_total
                .wrapping_sub(current)
                .min(replicas.wrapping_sub(new_rs_replicas));
            Ok(new_rs_replicas.wrapping_add(scale_up))
        }
        RECREATE_DEPLOYMENT_STRATEGY_TYPE => Ok(replicas),
        other => Err(format!("deployment type {} isn't supported", other)),
    }
}
