//! `autoscaling/v1` HorizontalPodAutoscalers, served beside `autoscaling/v2` (the storage
//! version) by converting at kube-apiserver's edge.
//!
//! Real counterpart: `pkg/apis/autoscaling/v1/conversion.go`
//! (`Convert_v1_HorizontalPodAutoscalerSpec_To_autoscaling_HorizontalPodAutoscalerSpec` and
//! back: `targetCPUUtilizationPercentage` is the CPU `Resource` metric's utilization target;
//! `currentCPUUtilizationPercentage` its current utilization; the v2 conditions travel in the
//! `autoscaling.alpha.kubernetes.io/conditions` annotation; metrics v1 cannot express in
//! `autoscaling.alpha.kubernetes.io/metrics`... — kubesim keeps the conditions annotation and
//! drops the others).

use serde_json::{json, Map, Value};

pub const CONDITIONS_ANNOTATION: &str = "autoscaling.alpha.kubernetes.io/conditions";

/// Whether a path is an `autoscaling/v1` HorizontalPodAutoscaler path.
pub fn is_v1_path(path: &str) -> bool {
    path.starts_with("/apis/autoscaling/v1/") && path.split(['?', '/']).any(|s| s == "horizontalpodautoscalers")
}

/// The same request path in `autoscaling/v2`.
pub fn v2_path(path: &str) -> String {
    path.replacen("/apis/autoscaling/v1/", "/apis/autoscaling/v2/", 1)
}

fn cpu_utilization(metrics: Option<&Value>, key: &str) -> Option<Value> {
    metrics?.as_array()?.iter().find_map(|m| {
        let r = m.get("resource")?;
        (m.get("type")? == "Resource" && r.get("name")? == "cpu").then(|| r.get(key)?.get("averageUtilization").cloned())?
    })
}

/// A v1 object as v2 (the request body of a create, update or status update).
pub fn v1_to_v2(v1: &Value) -> Value {
    let mut out = v1.clone();
    out["apiVersion"] = json!("autoscaling/v2");
    if let Some(spec) = out.get_mut("spec").and_then(Value::as_object_mut) {
        if let Some(t) = spec.remove("targetCPUUtilizationPercentage").filter(|t| !t.is_null()) {
            spec.insert("metrics".into(), json!([{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": t}}}]));
        }
    }
    if let Some(status) = out.get_mut("status").and_then(Value::as_object_mut) {
        if let Some(c) = status.remove("currentCPUUtilizationPercentage").filter(|c| !c.is_null()) {
            status.insert("currentMetrics".into(), json!([{"type": "Resource", "resource": {"name": "cpu", "current": {"averageUtilization": c}}}]));
        }
    }
    // the conditions annotation goes back into the status
    let conds = out.pointer(&format!("/metadata/annotations/{}", CONDITIONS_ANNOTATION.replace('/', "~1"))).and_then(Value::as_str).and_then(|s| serde_json::from_str::<Value>(s).ok());
    if let Some(a) = out.pointer_mut("/metadata/annotations").and_then(Value::as_object_mut) {
        a.remove(CONDITIONS_ANNOTATION);
        if a.is_empty() {
            if let Some(m) = out["metadata"].as_object_mut() {
                m.remove("annotations");
            }
        }
    }
    if let Some(c) = conds {
        out["status"]["conditions"] = c;
    }
    out
}

/// A v2 object as v1 (a response).
pub fn v2_to_v1(v2: &Value) -> Value {
    let mut out = v2.clone();
    if out.get("kind").and_then(Value::as_str) != Some("HorizontalPodAutoscaler") {
        return out;
    }
    out["apiVersion"] = json!("autoscaling/v1");
    let target = cpu_utilization(v2.pointer("/spec/metrics"), "target");
    if let Some(spec) = out.get_mut("spec").and_then(Value::as_object_mut) {
        spec.remove("metrics");
        spec.remove("behavior");
        if let Some(t) = target {
            spec.insert("targetCPUUtilizationPercentage".into(), t);
        }
    }
    let current = cpu_utilization(v2.pointer("/status/currentMetrics"), "current");
    let conditions = v2.pointer("/status/conditions").cloned();
    if let Some(status) = out.get_mut("status").and_then(Value::as_object_mut) {
        status.remove("currentMetrics");
        status.remove("conditions");
        if let Some(c) = current {
            status.insert("currentCPUUtilizationPercentage".into(), c);
        }
        status.entry("currentReplicas").or_insert(json!(0));
    }
    if let Some(c) = conditions.filter(|c| c.as_array().map(|a| !a.is_empty()).unwrap_or(false)) {
        if let Some(meta) = out.get_mut("metadata").and_then(Value::as_object_mut) {
            let ann = meta.entry("annotations").or_insert_with(|| Value::Object(Map::new()));
            if let Some(a) = ann.as_object_mut() {
                a.insert(CONDITIONS_ANNOTATION.into(), json!(serde_json::to_string(&c).unwrap_or_default()));
            }
        }
    }
    out
}

/// A response body as v1: an object or a list of them.
pub fn response_to_v1(body: &Value) -> Value {
    match body.get("kind").and_then(Value::as_str) {
        Some("HorizontalPodAutoscalerList") => {
            let mut out = body.clone();
            out["apiVersion"] = json!("autoscaling/v1");
            if let Some(items) = out.get_mut("items").and_then(Value::as_array_mut) {
                for i in items.iter_mut() {
                    let mut with_kind = i.clone();
                    with_kind["kind"] = json!("HorizontalPodAutoscaler");
                    let mut v = v2_to_v1(&with_kind);
                    if let Some(o) = v.as_object_mut() {
                        o.remove("kind");
                        o.remove("apiVersion");
                    }
                    *i = v;
                }
            }
            out
        }
        _ => v2_to_v1(body),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The round trip of upstream's `TestHorizontalPodAutoscalerConversion`-style cases.
    #[test]
    fn v1_and_v2_round_trip() {
        let v1 = json!({"apiVersion": "autoscaling/v1", "kind": "HorizontalPodAutoscaler", "metadata": {"name": "web"}, "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"}, "minReplicas": 1, "maxReplicas": 3, "targetCPUUtilizationPercentage": 50}});
        let v2 = v1_to_v2(&v1);
        assert_eq!(v2["spec"]["metrics"][0]["resource"]["target"]["averageUtilization"], json!(50));
        assert!(v2["spec"].get("targetCPUUtilizationPercentage").is_none());
        let mut stored = v2.clone();
        stored["status"] = json!({"currentReplicas": 2, "desiredReplicas": 2, "currentMetrics": [{"type": "Resource", "resource": {"name": "cpu", "current": {"averageUtilization": 40, "averageValue": "40m"}}}], "conditions": [{"type": "AbleToScale", "status": "True"}]});
        let back = v2_to_v1(&stored);
        assert_eq!(back["apiVersion"], json!("autoscaling/v1"));
        assert_eq!(back["spec"]["targetCPUUtilizationPercentage"], json!(50));
        assert_eq!(back["status"]["currentCPUUtilizationPercentage"], json!(40));
        assert_eq!(back["metadata"]["annotations"][CONDITIONS_ANNOTATION], json!("[{\"status\":\"True\",\"type\":\"AbleToScale\"}]"));
        assert!(is_v1_path("/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers?fieldManager=x"));
        assert!(!is_v1_path("/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers"));
    }
}
