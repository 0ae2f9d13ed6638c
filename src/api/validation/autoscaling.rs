//! `pkg/apis/autoscaling/validation/validation.go`: `ValidateHorizontalPodAutoscaler` (create
//! and update: the spec's rules are the same), `ValidateCrossVersionObjectReference`,
//! `validateMetrics` with each metric source, `validateBehavior` and its scaling rules.
//!
//! What kubesim simplifies: the `HPAScaleToZero` and `HPAConfigurableTolerance` feature gates are
//! off, as in v1.34 by default (`minReplicas` must be at least 1; a rule's `tolerance` is not
//! checked).

use super::*;

/// `MaxPeriodSeconds` and `MaxStabilizationWindowSeconds`.
const MAX_PERIOD_SECONDS: i64 = 1800;
const MAX_STABILIZATION_WINDOW_SECONDS: i64 = 3600;
const METRIC_SOURCE_TYPES: &[&str] = &["ContainerResource", "External", "Object", "Pods", "Resource"];
const SELECT_POLICIES: &[&str] = &["Disabled", "Max", "Min"];
const POLICY_TYPES: &[&str] = &["Percent", "Pods"];

/// `pathvalidation.IsValidPathSegmentName`.
pub fn path_segment_errors(name: &str) -> Vec<String> {
    match name {
        "." => return vec!["may not be '.'".into()],
        ".." => return vec!["may not be '..'".into()],
        _ => {}
    }
    let mut out = Vec::new();
    for bad in ["/", "%"] {
        if name.contains(bad) {
            out.push(format!("may not contain '{}'", bad));
        }
    }
    out
}

/// `ValidateCrossVersionObjectReference`.
fn validate_reference(r: Option<&Value>, path: &Path) -> Errs {
    let mut errs = Vec::new();
    for key in ["kind", "name"] {
        let v = get(r, key).and_then(Value::as_str).unwrap_or("");
        let p = path.child(key);
        if v.is_empty() {
            errs.push(FieldError::required(p.as_str(), ""));
        }
        for msg in if v.is_empty() { vec![] } else { path_segment_errors(v) } {
            errs.push(FieldError::invalid(p.as_str(), json!(v), &msg));
        }
    }
    errs
}

fn sign(q: Option<&Value>) -> Option<i32> {
    q.filter(|v| !v.is_null()).map(|v| crate::api::quantity::parse_quantity(v).map(|q| q.nanos().signum() as i32).unwrap_or(0))
}

/// `validateMetricTarget`.
fn validate_target(t: Option<&Value>, path: &Path) -> Errs {
    let mut errs = Vec::new();
    let ty = get(t, "type").and_then(Value::as_str).unwrap_or("");
    if ty.is_empty() {
        errs.push(FieldError::required(path.child("type").as_str(), "must specify a metric target type"));
    }
    if !matches!(ty, "Utilization" | "Value" | "AverageValue") {
        errs.push(FieldError::invalid(path.child("type").as_str(), json!(ty), "must be either Utilization, Value, or AverageValue"));
    }
    for key in ["value", "averageValue"] {
        if sign(get(t, key)).map(|s| s != 1).unwrap_or(false) {
            errs.push(FieldError::invalid(path.child(key).as_str(), get(t, key).cloned().unwrap_or(Value::Null), "must be positive"));
        }
    }
    if let Some(u) = get(t, "averageUtilization").and_then(Value::as_i64) {
        if u < 1 {
            errs.push(FieldError::invalid(path.child("averageUtilization").as_str(), json!(u), "must be greater than 0"));
        }
    }
    errs
}

fn validate_metric_identifier(id: Option<&Value>, path: &Path) -> Errs {
    let mut errs = Vec::new();
    let name = get(id, "name").and_then(Value::as_str).unwrap_or("");
    if name.is_empty() {
        errs.push(FieldError::required(path.child("name").as_str(), "must specify a metric name"));
    } else {
        for msg in path_segment_errors(name) {
            errs.push(FieldError::invalid(path.child("name").as_str(), json!(name), &msg));
        }
    }
    errs
}

/// The resource and container-resource sources' target rules.
fn utilization_or_value(t: Option<&Value>, path: &Path) -> Errs {
    let mut errs = Vec::new();
    let has = |k: &str| get(t, k).map(|v| !v.is_null()).unwrap_or(false);
    if !has("averageUtilization") && !has("averageValue") {
        errs.push(FieldError::required(path.child("averageUtilization").as_str(), "must set either a target raw value or a target utilization"));
    }
    if has("averageUtilization") && has("averageValue") {
        errs.push(FieldError::forbidden(path.child("averageValue").as_str(), "may not set both a target raw value and a target utilization"));
    }
    errs
}

fn validate_source(kind: &str, src: Option<&Value>, path: &Path) -> Errs {
    let mut errs = Vec::new();
    let target = get(src, "target");
    let tpath = path.child("target");
    let has = |k: &str| get(target, k).map(|v| !v.is_null()).unwrap_or(false);
    match kind {
        "object" => {
            errs.extend(validate_reference(get(src, "describedObject"), &path.child("describedObject")));
            errs.extend(validate_metric_identifier(get(src, "metric"), &path.child("metric")));
            errs.extend(validate_target(target, &tpath));
            if !has("value") && !has("averageValue") {
                errs.push(FieldError::required(tpath.child("averageValue").as_str(), "must set either a target value or averageValue"));
            }
        }
        "external" => {
            errs.extend(validate_metric_identifier(get(src, "metric"), &path.child("metric")));
            errs.extend(validate_target(target, &tpath));
            if !has("value") && !has("averageValue") {
                errs.push(FieldError::required(tpath.child("averageValue").as_str(), "must set either a target value for metric or a per-pod target"));
            }
            if has("value") && has("averageValue") {
                errs.push(FieldError::forbidden(tpath.child("value").as_str(), "may not set both a target value for metric and a per-pod target"));
            }
        }
        "pods" => {
            errs.extend(validate_metric_identifier(get(src, "metric"), &path.child("metric")));
            errs.extend(validate_target(target, &tpath));
            if !has("averageValue") {
                errs.push(FieldError::required(tpath.child("averageValue").as_str(), "must specify a positive target averageValue"));
            }
        }
        "containerResource" => {
            if get(src, "name").and_then(Value::as_str).unwrap_or("").is_empty() {
                errs.push(FieldError::required(path.child("name").as_str(), "must specify a resource name"));
            }
            let c = get(src, "container").and_then(Value::as_str).unwrap_or("");
            if c.is_empty() {
                errs.push(FieldError::required(path.child("container").as_str(), "must specify a container"));
            }
            errs.extend(validate_target(target, &tpath));
            errs.extend(utilization_or_value(target, &tpath));
        }
        _ => {
            if get(src, "name").and_then(Value::as_str).unwrap_or("").is_empty() {
                errs.push(FieldError::required(path.child("name").as_str(), "must specify a resource name"));
            }
            errs.extend(validate_target(target, &tpath));
            errs.extend(utilization_or_value(target, &tpath));
        }
    }
    errs
}

/// `validateMetricSpec`.
fn validate_metric_spec(m: &Value, path: &Path) -> Errs {
    let mut errs = Vec::new();
    let ty = m.get("type").and_then(Value::as_str).unwrap_or("");
    if ty.is_empty() {
        errs.push(FieldError::required(path.child("type").as_str(), "must specify a metric source type"));
    }
    if !METRIC_SOURCE_TYPES.contains(&ty) {
        errs.push(FieldError::not_supported(path.child("type").as_str(), json!(ty), METRIC_SOURCE_TYPES));
    }
    let mut present: Vec<&str> = Vec::new();
    for key in ["object", "external", "pods", "resource", "containerResource"] {
        if m.get(key).map(|v| !v.is_null()).unwrap_or(false) {
            present.push(key);
            if present.len() == 1 {
                errs.extend(validate_source(key, m.get(key), &path.child(key)));
            }
        }
    }
    let expected = match ty {
        "Object" => "object",
        "Pods" => "pods",
        "Resource" => "resource",
        "External" => "external",
        "ContainerResource" => "containerResource",
        _ => "",
    };
    if !expected.is_empty() && !present.contains(&expected) {
        errs.push(FieldError::required(path.child(expected).as_str(), "must populate information for the given metric source"));
    }
    if present.len() != 1 {
        for k in present.iter().filter(|k| **k != expected) {
            errs.push(FieldError::forbidden(path.child(k).as_str(), "must populate the given metric source only"));
        }
    }
    errs
}

/// `validateScalingRules`.
fn validate_rules(rules: Option<&Value>, path: &Path) -> Errs {
    let mut errs = Vec::new();
    let Some(rules) = rules.filter(|v| !v.is_null()) else { return errs };
    if let Some(w) = rules.get("stabilizationWindowSeconds").and_then(Value::as_i64) {
        if w < 0 {
            errs.push(FieldError::invalid(path.child("stabilizationWindowSeconds").as_str(), json!(w), "must be greater than or equal to zero"));
        }
        if w > MAX_STABILIZATION_WINDOW_SECONDS {
            errs.push(FieldError::invalid(path.child("stabilizationWindowSeconds").as_str(), json!(w), &format!("must be less than or equal to {}", MAX_STABILIZATION_WINDOW_SECONDS)));
        }
    }
    if let Some(p) = rules.get("selectPolicy").and_then(Value::as_str) {
        if !SELECT_POLICIES.contains(&p) {
            errs.push(FieldError::not_supported(path.child("selectPolicy").as_str(), json!(p), SELECT_POLICIES));
        }
    }
    let policies = rules.get("policies").and_then(Value::as_array).cloned().unwrap_or_default();
    let ppath = path.child("policies");
    if policies.is_empty() {
        errs.push(FieldError::required(ppath.as_str(), "must specify at least one Policy"));
    }
    for (i, p) in policies.iter().enumerate() {
        let ip = ppath.index(i);
        let ty = p.get("type").and_then(Value::as_str).unwrap_or("");
        if !POLICY_TYPES.contains(&ty) {
            errs.push(FieldError::not_supported(ip.child("type").as_str(), json!(ty), POLICY_TYPES));
        }
        let value = p.get("value").and_then(Value::as_i64).unwrap_or(0);
        if value <= 0 {
            errs.push(FieldError::invalid(ip.child("value").as_str(), json!(value), "must be greater than zero"));
        }
        let period = p.get("periodSeconds").and_then(Value::as_i64).unwrap_or(0);
        if period <= 0 {
            errs.push(FieldError::invalid(ip.child("periodSeconds").as_str(), json!(period), "must be greater than zero"));
        }
        if period > MAX_PERIOD_SECONDS {
            errs.push(FieldError::invalid(ip.child("periodSeconds").as_str(), json!(period), &format!("must be less than or equal to {}", MAX_PERIOD_SECONDS)));
        }
    }
    errs
}

/// `ValidateHorizontalPodAutoscaler` with the strategy's ObjectMeta check (the spec rules are
/// the same on update).
pub fn validate_horizontal_pod_autoscaler(hpa: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta(hpa, true, name_is_dns_subdomain);
    let spec = get(Some(hpa), "spec");
    let path = Path::new("spec");
    let min = get(spec, "minReplicas").and_then(Value::as_i64);
    let max = get(spec, "maxReplicas").and_then(Value::as_i64).unwrap_or(0);
    if let Some(m) = min.filter(|m| *m < 1) {
        errs.push(FieldError::invalid("spec.minReplicas", json!(m), "must be greater than or equal to 1"));
    }
    if max < 1 {
        errs.push(FieldError::invalid("spec.maxReplicas", json!(max), "must be greater than 0"));
    }
    if min.map(|m| max < m).unwrap_or(false) {
        errs.push(FieldError::invalid("spec.maxReplicas", json!(max), "must be greater than or equal to `minReplicas`"));
    }
    errs.extend(validate_reference(get(spec, "scaleTargetRef"), &path.child("scaleTargetRef")));
    let mpath = path.child("metrics");
    for (i, m) in get(spec, "metrics").and_then(Value::as_array).map(|a| a.as_slice()).unwrap_or(&[]).iter().enumerate() {
        errs.extend(validate_metric_spec(m, &mpath.index(i)));
    }
    if let Some(b) = get(spec, "behavior").filter(|v| !v.is_null()) {
        let bpath = path.child("behavior");
        errs.extend(validate_rules(b.get("scaleUp"), &bpath.child("scaleUp")));
        errs.extend(validate_rules(b.get("scaleDown"), &bpath.child("scaleDown")));
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hpa(spec: Value) -> Value {
        json!({"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "metadata": {"name": "myautoscaler", "namespace": "default"}, "spec": spec})
    }

    fn cpu(target: Value) -> Value {
        json!([{"type": "Resource", "resource": {"name": "cpu", "target": target}}])
    }

    /// Cases from upstream's `TestValidateHorizontalPodAutoscaler` (error cases with the
    /// message each must contain).
    #[test]
    fn validate_horizontal_pod_autoscaler_table() {
        let r = json!({"kind": "ReplicationController", "name": "myrc"});
        let ok = hpa(json!({"scaleTargetRef": r, "minReplicas": 1, "maxReplicas": 5, "metrics": cpu(json!({"type": "Utilization", "averageUtilization": 70}))}));
        assert!(validate_horizontal_pod_autoscaler(&ok).is_empty());
        let with_behavior = hpa(json!({"scaleTargetRef": r, "maxReplicas": 5, "behavior": {"scaleDown": {"stabilizationWindowSeconds": 300, "selectPolicy": "Max", "policies": [{"type": "Percent", "value": 100, "periodSeconds": 15}]}}}));
        assert!(validate_horizontal_pod_autoscaler(&with_behavior).is_empty());
        let cases = [
            (json!({"scaleTargetRef": {"name": "myrc"}, "minReplicas": 1, "maxReplicas": 5}), "spec.scaleTargetRef.kind: Required value"),
            (json!({"scaleTargetRef": {"kind": "..", "name": "myrc"}, "minReplicas": 1, "maxReplicas": 5}), "spec.scaleTargetRef.kind: Invalid value: \"..\": may not be '..'"),
            (json!({"scaleTargetRef": {"kind": "ReplicationController"}, "minReplicas": 1, "maxReplicas": 5}), "spec.scaleTargetRef.name: Required value"),
            (json!({"scaleTargetRef": {"kind": "ReplicationController", "name": "my/rc"}, "minReplicas": 1, "maxReplicas": 5}), "may not contain '/'"),
            (json!({"scaleTargetRef": r, "minReplicas": -1, "maxReplicas": 5}), "spec.minReplicas: Invalid value: -1: must be greater than or equal to 1"),
            (json!({"scaleTargetRef": r, "minReplicas": 7, "maxReplicas": 5}), "spec.maxReplicas: Invalid value: 5: must be greater than or equal to `minReplicas`"),
            (json!({"scaleTargetRef": r, "minReplicas": 1, "maxReplicas": 0}), "spec.maxReplicas: Invalid value: 0: must be greater than 0"),
            (json!({"scaleTargetRef": r, "maxReplicas": 5, "metrics": cpu(json!({"type": "Utilization", "averageUtilization": 70, "averageValue": "300m"}))}), "spec.metrics[0].resource.target.averageValue: Forbidden: may not set both a target raw value and a target utilization"),
            (json!({"scaleTargetRef": r, "maxReplicas": 5, "metrics": cpu(json!({"type": "Utilization"}))}), "spec.metrics[0].resource.target.averageUtilization: Required value: must set either a target raw value or a target utilization"),
            (json!({"scaleTargetRef": r, "maxReplicas": 5, "metrics": cpu(json!({"type": "Utilization", "averageUtilization": -10}))}), "spec.metrics[0].resource.target.averageUtilization: Invalid value: -10: must be greater than 0"),
            (json!({"scaleTargetRef": r, "maxReplicas": 5, "metrics": cpu(json!({"averageUtilization": 70}))}), "spec.metrics[0].resource.target.type: Required value: must specify a metric target type"),
            (json!({"scaleTargetRef": r, "maxReplicas": 5, "metrics": cpu(json!({"type": "boogity", "averageUtilization": 70}))}), "must be either Utilization, Value, or AverageValue"),
            (json!({"scaleTargetRef": r, "maxReplicas": 5, "metrics": [{"type": "Resource"}]}), "spec.metrics[0].resource: Required value: must populate information for the given metric source"),
            (json!({"scaleTargetRef": r, "maxReplicas": 5, "metrics": [{"type": "Foo", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 70}}}]}), "spec.metrics[0].type: Unsupported value: \"Foo\": supported values: \"ContainerResource\", \"External\", \"Object\", \"Pods\", \"Resource\""),
            (json!({"scaleTargetRef": r, "maxReplicas": 5, "metrics": [{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 70}}, "pods": {"metric": {"name": "qps"}, "target": {"type": "AverageValue", "averageValue": "10"}}}]}), "spec.metrics[0].pods: Forbidden: must populate the given metric source only"),
            (json!({"scaleTargetRef": r, "maxReplicas": 5, "behavior": {"scaleUp": {"policies": []}}}), "spec.behavior.scaleUp.policies: Required value: must specify at least one Policy"),
            (json!({"scaleTargetRef": r, "maxReplicas": 5, "behavior": {"scaleDown": {"stabilizationWindowSeconds": 3601, "policies": [{"type": "Pods", "value": 1, "periodSeconds": 15}]}}}), "spec.behavior.scaleDown.stabilizationWindowSeconds: Invalid value: 3601: must be less than or equal to 3600"),
            (json!({"scaleTargetRef": r, "maxReplicas": 5, "behavior": {"scaleUp": {"policies": [{"type": "Pods", "value": 0, "periodSeconds": 1801}]}}}), "spec.behavior.scaleUp.policies[0].periodSeconds: Invalid value: 1801: must be less than or equal to 1800"),
        ];
        for (spec, want) in cases {
            let errs = validate_horizontal_pod_autoscaler(&hpa(spec.clone()));
            let got = crate::api::field::aggregate(&errs);
            assert!(got.contains(want), "{}\n got: {}\nwant: {}", spec, got, want);
        }
    }
}
