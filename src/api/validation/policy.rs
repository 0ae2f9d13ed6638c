//! `pkg/apis/policy/validation/validation.go`: `ValidatePodDisruptionBudget` and
//! `ValidatePodDisruptionBudgetSpec` (the registry strategy validates the ObjectMeta first, names
//! as DNS subdomains). Updates are validated with the same rules: since v1.15 a PDB's spec is
//! mutable.

use super::*;

/// `supportedUnhealthyPodEvictionPolicies`.
const UNHEALTHY_POD_EVICTION_POLICIES: &[&str] = &["AlwaysAllow", "IfHealthyBudget"];

/// The internal `policy.PodDisruptionBudgetSpec` as Go's JSON renders it (no JSON tags on the
/// internal type; `IntOrString` and `LabelSelector` marshal as in the API).
fn pdb_spec_internal_json(spec: Option<&Value>) -> String {
    let field = |k: &str| Some(get(spec, k).filter(|v| !v.is_null()).map(go_json).unwrap_or_else(|| "null".to_string()));
    go_struct(&[("MinAvailable", field("minAvailable")), ("Selector", field("selector")), ("MaxUnavailable", field("maxUnavailable")), ("UnhealthyPodEvictionPolicy", field("unhealthyPodEvictionPolicy"))])
}

/// `ValidatePodDisruptionBudget` with the strategy's ObjectMeta check (create and update).
pub fn validate_pod_disruption_budget(pdb: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta(pdb, true, name_is_dns_subdomain);
    let spec = get(Some(pdb), "spec");
    let path = Path::new("spec");
    let min = get(spec, "minAvailable").filter(|v| !v.is_null());
    let max = get(spec, "maxUnavailable").filter(|v| !v.is_null());
    if min.is_some() && max.is_some() {
        errs.push(FieldError::invalid("spec", spec.cloned().unwrap_or(Value::Null), "minAvailable and maxUnavailable cannot be both set").with_raw_value(pdb_spec_internal_json(spec)));
    }
    for (name, v) in [("minAvailable", min), ("maxUnavailable", max)] {
        if let Some(v) = v {
            let p = path.child(name);
            errs.extend(validate_positive_int_or_percent(v, &p));
            errs.extend(not_more_than_100_percent(v, &p));
        }
    }
    errs.extend(validate_label_selector(get(spec, "selector"), &path.child("selector")));
    if let Some(policy) = get(spec, "unhealthyPodEvictionPolicy").filter(|v| !v.is_null()) {
        if !UNHEALTHY_POD_EVICTION_POLICIES.contains(&policy.as_str().unwrap_or("")) {
            errs.push(FieldError::not_supported("spec.unhealthyPodEvictionPolicy", policy.clone(), UNHEALTHY_POD_EVICTION_POLICIES));
        }
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pdb(spec: Value) -> Value {
        json!({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "web", "namespace": "default"}, "spec": spec})
    }

    /// Cases from upstream's `TestValidatePodDisruptionBudgetSpec` and
    /// `TestValidateMinAvailablePodDisruptionBudgetSpec` / `…MaxUnavailable…`.
    #[test]
    fn validate_pod_disruption_budget_spec() {
        let sel = json!({"matchLabels": {"app": "web"}});
        let ok = [json!({"minAvailable": 1, "selector": sel}), json!({"minAvailable": "10%", "selector": sel}), json!({"maxUnavailable": 0, "selector": sel}), json!({"maxUnavailable": "100%"}), json!({"minAvailable": 0, "unhealthyPodEvictionPolicy": "AlwaysAllow"})];
        for s in ok {
            assert!(validate_pod_disruption_budget(&pdb(s.clone())).is_empty(), "{}", s);
        }
        let bad: [(Value, &str); 6] = [
            (json!({"minAvailable": -1}), "spec.minAvailable: Invalid value: -1: must be greater than or equal to 0"),
            (json!({"maxUnavailable": "110%"}), "spec.maxUnavailable: Invalid value: \"110%\": must not be greater than 100%"),
            (json!({"minAvailable": "1.1%"}), "spec.minAvailable: Invalid value: \"1.1%\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"),
            (
                json!({"minAvailable": 1, "maxUnavailable": 1, "selector": sel}),
                "spec: Invalid value: {\"MinAvailable\":1,\"Selector\":{\"matchLabels\":{\"app\":\"web\"}},\"MaxUnavailable\":1,\"UnhealthyPodEvictionPolicy\":null}: minAvailable and maxUnavailable cannot be both set",
            ),
            (json!({"minAvailable": 1, "unhealthyPodEvictionPolicy": "Sometimes"}), "spec.unhealthyPodEvictionPolicy: Unsupported value: \"Sometimes\": supported values: \"AlwaysAllow\", \"IfHealthyBudget\""),
            (json!({"minAvailable": 1, "selector": {"matchLabels": {"app": "-web"}}}), "spec.selector.matchLabels: Invalid value: \"-web\""),
        ];
        for (s, want) in bad {
            let errs = validate_pod_disruption_budget(&pdb(s.clone()));
            assert!(errs.iter().any(|e| e.to_string().starts_with(want)), "{}: {:?}", s, errs.iter().map(|e| e.to_string()).collect::<Vec<_>>());
        }
    }
}
