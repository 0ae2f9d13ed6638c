//! Quota evaluators: what an object charges against a ResourceQuota, shared by the API server's
//! `ResourceQuota` admission plugin and the resource quota controller.
//!
//! Real counterparts: `pkg/quota/v1/evaluator/core/pods.go` (`PodUsageFunc`,
//! `podComputeUsageHelper`, `enforcePodContainerConstraints`, `QuotaV1Pod`), `services.go`,
//! `persistent_volume_claims.go`, `staging/src/k8s.io/apiserver/pkg/quota/v1/generic/evaluator.go`
//! (`ObjectCountQuotaResourceNameFor`) and `resources.go` (`Add`, `Mask`, `LessThanOrEqual`), and
//! the `prettyPrint` of `apiserver/pkg/admission/plugin/resourcequota/controller.go`.
//!
//! What kubesim simplifies: no quota scopes (Terminating, BestEffort, PriorityClass) or scope
//! selectors; ephemeral storage and extended resources are not charged; a Pod's requests are the
//! sum of its containers' or its largest init container's, whichever is larger (no overhead).

use super::meta;
use super::quantity::{parse_quantity, Format, Quantity};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

pub type ResourceList = BTreeMap<String, Quantity>;

/// The compute resources whose quota requires every container to say how much it needs.
const VALIDATION_SET: [&str; 6] = ["cpu", "memory", "requests.cpu", "requests.memory", "limits.cpu", "limits.memory"];

/// `ObjectCountQuotaResourceNameFor`: `count/pods`, `count/deployments.apps`.
pub fn object_count_name(info: &meta::ResourceInfo) -> String {
    if info.group.is_empty() {
        format!("count/{}", info.resource)
    } else {
        format!("count/{}.{}", info.resource, info.group)
    }
}

fn one() -> Quantity {
    Quantity::new(1, Format::DecimalSI)
}

/// `QuotaV1Pod`: a Pod counts against compute quota unless it is terminal.
pub fn pod_counts(pod: &Value) -> bool {
    !matches!(meta::get_str(pod, &["status", "phase"]), "Succeeded" | "Failed")
}

/// A container list's total of one resource kind (`requests` or `limits`) and name.
fn container_sum(containers: &[Value], which: &str, name: &str) -> Option<Quantity> {
    let mut total: Option<Quantity> = None;
    for c in containers {
        if let Some(q) = meta::get(c, &["resources", which, name]).and_then(parse_quantity) {
            total = Some(match total {
                Some(t) => t.add(&q),
                None => q,
            });
        }
    }
    total
}

/// `PodRequests` / `PodLimits` for one resource: the containers' sum or the largest init
/// container, whichever is larger.
fn pod_total(pod: &Value, which: &str, name: &str) -> Option<Quantity> {
    let sum = container_sum(meta::get_array(pod, &["spec", "containers"]), which, name);
    let init = meta::get_array(pod, &["spec", "initContainers"])
        .iter()
        .filter_map(|c| meta::get(c, &["resources", which, name]).and_then(parse_quantity))
        .max();
    match (sum, init) {
        (Some(s), Some(i)) => Some(if i > s { i } else { s }),
        (s, i) => s.or(i),
    }
}

/// What an object charges: `PodUsageFunc` for Pods, the service and claim evaluators, and an
/// object count for everything.
pub fn usage(info: &meta::ResourceInfo, obj: &Value) -> ResourceList {
    let mut u = ResourceList::new();
    u.insert(object_count_name(info), one());
    match info.kind {
        "Pod" => {
            if pod_counts(obj) {
                u.insert("pods".into(), one());
                for (name, req, lim) in [("cpu", "requests.cpu", "limits.cpu"), ("memory", "requests.memory", "limits.memory")] {
                    if let Some(q) = pod_total(obj, "requests", name) {
                        u.insert(name.into(), q.clone());
                        u.insert(req.into(), q);
                    }
                    if let Some(q) = pod_total(obj, "limits", name) {
                        u.insert(lim.into(), q);
                    }
                }
            }
        }
        "Service" => {
            u.insert("services".into(), one());
            let ports = meta::get_array(obj, &["spec", "ports"]).len() as i64;
            match meta::get_str(obj, &["spec", "type"]) {
                "NodePort" => {
                    u.insert("services.nodeports".into(), Quantity::new(ports, Format::DecimalSI));
                }
                "LoadBalancer" => {
                    u.insert("services.loadbalancers".into(), one());
                    u.insert("services.nodeports".into(), Quantity::new(ports, Format::DecimalSI));
                }
                _ => {}
            }
        }
        "PersistentVolumeClaim" => {
            u.insert("persistentvolumeclaims".into(), one());
            let class = meta::storage_class_of(obj);
            if !class.is_empty() {
                u.insert(format!("{}.storageclass.storage.k8s.io/persistentvolumeclaims", class), one());
            }
            if let Some(q) = meta::get(obj, &["spec", "resources", "requests", "storage"]).and_then(parse_quantity) {
                if !class.is_empty() {
                    u.insert(format!("{}.storageclass.storage.k8s.io/requests.storage", class), q.clone());
                }
                u.insert("requests.storage".into(), q);
            }
        }
        _ => {}
    }
    u
}

/// `MatchingResources`: the quota's resources this kind of object can charge.
pub fn matching_resources(info: &meta::ResourceInfo, hard: &ResourceList) -> BTreeSet<String> {
    let count = object_count_name(info);
    hard.keys()
        .filter(|k| {
            **k == count
                || match info.kind {
                    "Pod" => matches!(k.as_str(), "pods" | "cpu" | "memory" | "requests.cpu" | "requests.memory" | "limits.cpu" | "limits.memory"),
                    "Service" => matches!(k.as_str(), "services" | "services.nodeports" | "services.loadbalancers"),
                    "PersistentVolumeClaim" => k.as_str() == "persistentvolumeclaims" || k.as_str() == "requests.storage" || k.contains(".storageclass.storage.k8s.io/"),
                    _ => false,
                }
        })
        .cloned()
        .collect()
}

/// `enforcePodContainerConstraints`: with quota on cpu or memory, every container must say how
/// much of it it requests or is limited to. Returns `must specify …` or nothing.
pub fn pod_constraints(pod: &Value, restricted: &BTreeSet<String>) -> Option<String> {
    let required: Vec<&str> = VALIDATION_SET.iter().copied().filter(|r| restricted.contains(*r)).collect();
    if required.is_empty() {
        return None;
    }
    let mut missing: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    let containers = meta::get_array(pod, &["spec", "containers"]).iter().chain(meta::get_array(pod, &["spec", "initContainers"]).iter());
    for c in containers {
        let has = |which: &str, name: &str| meta::get(c, &["resources", which, name]).is_some();
        for r in &required {
            let ok = match *r {
                "cpu" | "requests.cpu" => has("requests", "cpu"),
                "memory" | "requests.memory" => has("requests", "memory"),
                "limits.cpu" => has("limits", "cpu"),
                _ => has("limits", "memory"),
            };
            if !ok {
                missing.entry(r).or_default().insert(meta::get_str(c, &["name"]).to_string());
            }
        }
    }
    if missing.is_empty() {
        return None;
    }
    let parts: Vec<String> = missing.iter().map(|(r, names)| format!("{} for: {}", r, names.iter().cloned().collect::<Vec<_>>().join(","))).collect();
    Some(format!("must specify {}", parts.join("; ")))
}

/// A resource list from JSON (`status.hard`, `status.used`).
pub fn list_of(v: Option<&Value>) -> ResourceList {
    v.and_then(Value::as_object)
        .map(|m| m.iter().filter_map(|(k, q)| parse_quantity(q).map(|q| (k.clone(), q))).collect())
        .unwrap_or_default()
}

/// `prettyPrint`: `name=quantity` sorted by name, joined with commas.
pub fn pretty_print(list: &ResourceList) -> String {
    list.iter().map(|(k, q)| format!("{}={}", k, q)).collect::<Vec<_>>().join(",")
}

/// `quota.Add`.
pub fn add(a: &ResourceList, b: &ResourceList) -> ResourceList {
    let mut out = a.clone();
    for (k, q) in b {
        let v = match out.get(k) {
            Some(x) => x.add(q),
            None => q.clone(),
        };
        out.insert(k.clone(), v);
    }
    out
}

/// `quota.Mask`: only the named resources.
pub fn mask(list: &ResourceList, names: &BTreeSet<String>) -> ResourceList {
    list.iter().filter(|(k, _)| names.contains(*k)).map(|(k, v)| (k.clone(), v.clone())).collect()
}

/// `quota.LessThanOrEqual`: the resources of `a` over their limit in `b`.
pub fn exceeded(a: &ResourceList, b: &ResourceList) -> BTreeSet<String> {
    a.iter().filter(|(k, q)| b.get(*k).map(|h| *q > h).unwrap_or(false)).map(|(k, _)| k.clone()).collect()
}

/// The JSON of a resource list, quantities in canonical form.
pub fn to_json(list: &ResourceList) -> Value {
    Value::Object(list.iter().map(|(k, q)| (k.clone(), Value::String(q.to_string()))).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn constraints_and_pretty_print_table() {
        let pod = json!({"spec": {"containers": [
            {"name": "nginx", "resources": {"requests": {"cpu": "250m"}}},
            {"name": "sidecar"}
        ]}});
        let restricted: BTreeSet<String> = ["pods", "requests.cpu", "limits.cpu", "requests.memory"].iter().map(|s| s.to_string()).collect();
        assert_eq!(pod_constraints(&pod, &restricted).as_deref(), Some("must specify limits.cpu for: nginx,sidecar; requests.cpu for: sidecar; requests.memory for: nginx,sidecar"));
        let only_pods: BTreeSet<String> = ["pods".to_string()].into_iter().collect();
        assert_eq!(pod_constraints(&pod, &only_pods), None);
        let pods = meta::lookup("pods").unwrap();
        let u = usage(pods, &json!({"spec": {"containers": [{"name": "a", "resources": {"requests": {"cpu": "500m", "memory": "64Mi"}}}, {"name": "b", "resources": {"requests": {"cpu": "500m"}}}]}}));
        assert_eq!(pretty_print(&u), "count/pods=1,cpu=1,memory=64Mi,pods=1,requests.cpu=1,requests.memory=64Mi");
        let done = usage(pods, &json!({"spec": {"containers": []}, "status": {"phase": "Succeeded"}}));
        assert_eq!(pretty_print(&done), "count/pods=1");
        assert_eq!(object_count_name(meta::lookup("deployments").unwrap()), "count/deployments.apps");
    }
}
