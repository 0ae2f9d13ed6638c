//! `pkg/apis/scheduling/validation/validation.go`: PriorityClasses (`ValidatePriorityClass`,
//! `ValidatePriorityClassUpdate`) and `pkg/apis/scheduling/types.go`'s constants.

use super::*;

/// `scheduling.HighestUserDefinablePriority`.
pub const HIGHEST_USER_DEFINABLE_PRIORITY: i64 = 1_000_000_000;
/// `scheduling.SystemCriticalPriority`.
pub const SYSTEM_CRITICAL_PRIORITY: i64 = 2 * HIGHEST_USER_DEFINABLE_PRIORITY;
/// `scheduling.SystemPriorityClassPrefix`.
pub const SYSTEM_PRIORITY_CLASS_PREFIX: &str = "system-";

/// `scheduling.SystemPriorityClasses()`: (name, value, description) as the API server's
/// post-start hook creates them.
pub const SYSTEM_PRIORITY_CLASSES: [(&str, i64, &str); 2] = [
    ("system-node-critical", SYSTEM_CRITICAL_PRIORITY + 1000, "Used for system critical pods that must not be moved from their current node."),
    ("system-cluster-critical", SYSTEM_CRITICAL_PRIORITY, "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary."),
];

/// `IsKnownSystemPriorityClass`.
fn known_system_priority_class(name: &str, value: i64, global_default: bool) -> Result<(), String> {
    match SYSTEM_PRIORITY_CLASSES.iter().find(|(n, _, _)| *n == name) {
        None => Err(format!("{} is not a known system priority class", name)),
        Some((_, v, _)) if *v != value => Err(format!("value of {} PriorityClass must be {}", name, v)),
        Some(_) if global_default => Err(format!("globalDefault of {} PriorityClass must be false", name)),
        Some(_) => Ok(()),
    }
}

/// `ValidatePriorityClass`.
pub fn validate_priority_class(obj: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta(obj, false, name_is_dns_subdomain);
    let o = Some(obj);
    let name = get_str(get(o, "metadata"), "name");
    let value = get_i64(o, "value").unwrap_or(0);
    if name.starts_with(SYSTEM_PRIORITY_CLASS_PREFIX) {
        if let Err(e) = known_system_priority_class(name, value, get_bool(o, "globalDefault")) {
            errs.push(FieldError::forbidden("metadata.name", &format!("priority class names with '{}' prefix are reserved for system use only. error: {}", SYSTEM_PRIORITY_CLASS_PREFIX, e)));
        }
    } else if value > HIGHEST_USER_DEFINABLE_PRIORITY {
        errs.push(FieldError::forbidden("value", &format!("maximum allowed value of a user defined priority is {}", HIGHEST_USER_DEFINABLE_PRIORITY)));
    }
    if let Some(p) = get(o, "preemptionPolicy") {
        let s = p.as_str().unwrap_or("");
        if s != "PreemptLowerPriority" && s != "Never" {
            errs.push(FieldError::not_supported("preemptionPolicy", json!(s), &["Never", "PreemptLowerPriority"]).json_rendered());
        }
    }
    errs
}

/// `ValidatePriorityClassUpdate`: the value and the preemption policy are fixed.
pub fn validate_priority_class_update(new: &Value, old: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta_update(new, old);
    if get_i64(Some(new), "value") != get_i64(Some(old), "value") {
        errs.push(FieldError::forbidden("value", "may not be changed in an update."));
    }
    if new.get("preemptionPolicy") != old.get("preemptionPolicy") {
        errs.push(FieldError::invalid("preemptionPolicy", new.get("preemptionPolicy").cloned().unwrap_or(Value::Null), FIELD_IMMUTABLE_ERROR_MSG));
    }
    errs
}

/// The quota resource names `IsStandardQuotaResourceName` accepts (plus `count/…`, `requests.…`
/// for extended resources and the per-StorageClass names).
const STANDARD_QUOTA_RESOURCES: [&str; 20] = [
    "pods", "cpu", "memory", "requests.cpu", "requests.memory", "limits.cpu", "limits.memory", "ephemeral-storage", "requests.ephemeral-storage",
    "limits.ephemeral-storage", "services", "services.nodeports", "services.loadbalancers", "persistentvolumeclaims", "requests.storage", "configmaps", "secrets",
    "resourcequotas", "replicationcontrollers", "storage",
];

/// `ValidateResourceQuota` (the parts kubesim checks): standard resource names, quantities
/// that parse and are not negative.
pub fn validate_resource_quota(obj: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta(obj, true, name_is_dns_subdomain);
    let hard = Path::new("spec").child("hard");
    if let Some(m) = get(get(Some(obj), "spec"), "hard").and_then(Value::as_object) {
        for (k, v) in m {
            let p = hard.key(k);
            let standard = STANDARD_QUOTA_RESOURCES.contains(&k.as_str()) || k.starts_with("count/") || k.starts_with("requests.") || k.contains(".storageclass.storage.k8s.io/");
            if !standard {
                errs.push(FieldError::invalid(p.as_str(), json!(k), "must be a standard resource for quota"));
                continue;
            }
            if let Some(q) = super::pod::parse_quantity_at(v, &p, &mut errs) {
                if q.nanos() < 0 {
                    errs.push(FieldError::invalid(p.as_str(), json!(q.to_string()), IS_NEGATIVE_ERROR_MSG));
                }
            }
        }
    }
    errs
}
