//! What the eviction subresource and the disruption controller share about a
//! PodDisruptionBudget: upstream's `k8s.io/component-helpers/apps/poddisruptionbudget`
//! (`UpdateDisruptionAllowedCondition`, `ConditionsAreUpToDate`) over apimachinery's
//! `meta.SetStatusCondition`, and which budgets select a Pod (eviction.go's
//! `getPodDisruptionBudgets`).

use super::{meta, time};
use serde_json::{json, Value};

/// `policy.DisruptionAllowedCondition`.
pub const DISRUPTION_ALLOWED: &str = "DisruptionAllowed";

/// `meta.SetStatusCondition`: the condition of `type_` takes `status`, `reason` and `message`;
/// its lastTransitionTime moves only when the status changes.
pub fn set_status_condition(conditions: &mut Vec<Value>, type_: &str, status: &str, reason: &str, message: &str, observed_generation: i64, now_ms: i64) {
    let fresh = json!({"type": type_, "status": status, "observedGeneration": observed_generation, "lastTransitionTime": time::rfc3339(now_ms), "reason": reason, "message": message});
    match conditions.iter_mut().find(|c| meta::get_str(c, &["type"]) == type_) {
        Some(c) => {
            let since = if meta::get_str(c, &["status"]) == status { c.get("lastTransitionTime").cloned() } else { None };
            *c = fresh;
            if let Some(s) = since {
                c["lastTransitionTime"] = s;
            }
        }
        None => conditions.push(fresh),
    }
}

/// `UpdateDisruptionAllowedCondition`: `SufficientPods` (True) while disruptions are allowed,
/// else `InsufficientPods` (False); observedGeneration from the status.
pub fn update_disruption_allowed_condition(pdb: &mut Value, now_ms: i64) {
    let allowed = meta::get_i64(pdb, &["status", "disruptionsAllowed"]).unwrap_or(0);
    let generation = meta::get_i64(pdb, &["status", "observedGeneration"]).unwrap_or(0);
    let mut conds: Vec<Value> = meta::get_array(pdb, &["status", "conditions"]).to_vec();
    let (status, reason) = if allowed > 0 { ("True", "SufficientPods") } else { ("False", "InsufficientPods") };
    set_status_condition(&mut conds, DISRUPTION_ALLOWED, status, reason, "", generation, now_ms);
    meta::set(pdb, &["status", "conditions"], Value::Array(conds));
}

/// `ConditionsAreUpToDate`: the DisruptionAllowed condition says what the status says.
pub fn conditions_are_up_to_date(pdb: &Value) -> bool {
    let allowed = meta::get_i64(pdb, &["status", "disruptionsAllowed"]).unwrap_or(0);
    let generation = meta::get_i64(pdb, &["status", "observedGeneration"]).unwrap_or(0);
    meta::get_array(pdb, &["status", "conditions"]).iter().any(|c| {
        meta::get_str(c, &["type"]) == DISRUPTION_ALLOWED
            && meta::get_i64(c, &["observedGeneration"]).unwrap_or(0) == generation
            && meta::get_str(c, &["status"]) == if allowed > 0 { "True" } else { "False" }
            && meta::get_str(c, &["reason"]) == if allowed > 0 { "SufficientPods" } else { "InsufficientPods" }
    })
}

/// Whether the budget selects the Pod: same namespace, and a selector that is neither missing
/// nor empty (a nil or empty selector matches nothing, as eviction.go says).
pub fn selects(pdb: &Value, pod: &Value) -> bool {
    if meta::namespace(pdb) != meta::namespace(pod) {
        return false;
    }
    let sel = meta::get(pdb, &["spec", "selector"]);
    let empty = sel.map(|s| s.get("matchLabels").and_then(|m| m.as_object()).map(|m| m.is_empty()).unwrap_or(true) && meta::get_array(s, &["matchExpressions"]).is_empty()).unwrap_or(true);
    if empty {
        return false;
    }
    let labels = meta::get(pod, &["metadata", "labels"]).and_then(|l| l.as_object()).cloned().unwrap_or_default();
    meta::selector_matches(sel, &labels)
}
