//! What the endpoints and EndpointSlice controllers share: which Pods back a Service, which
//! Services a Pod belongs to, and a Service port's target port on a given Pod.
//!
//! Real counterparts: `pkg/controller/util/endpoint/controller_utils.go`
//! (`ShouldPodBeInEndpoints`, `GetPodServiceMemberships`), `pkg/api/v1/pod/util.go` (`FindPort`,
//! `IsPodReady`), and `staging/src/k8s.io/endpointslice/util/controller_utils.go`.

use crate::api::meta;
use crate::client::Store;
use serde_json::{Map, Value};
use crate::sim::sort::CompactSort;

/// A Service's `spec.selector` as the controllers read it: `None` when unset (the Service's
/// endpoints are managed by hand and the controllers leave it alone); an empty map selects every
/// Pod of the namespace, as `labels.Set{}.AsSelector()` does.
pub fn service_selector(svc: &Value) -> Option<&Map<String, Value>> {
    meta::get(svc, &["spec", "selector"]).and_then(|s| s.as_object())
}

/// Does a Service's selector (a plain label map) select these labels?
pub fn selects(selector: &Map<String, Value>, labels: &Map<String, Value>) -> bool {
    selector.iter().all(|(k, v)| labels.get(k) == Some(v))
}

/// The Pods a Service selects, in the informer's (name) order.
pub fn pods_for_service<'a>(svc: &Value, pods: &'a Store) -> Vec<&'a Value> {
    let Some(sel) = service_selector(svc) else {
        return Vec::new();
    };
    let ns = meta::namespace(svc);
    pods.values().filter(|p| meta::namespace(p) == ns && selects(sel, &meta::labels(p))).collect()
}

/// `GetPodServiceMemberships`: the keys of the Services in the Pod's namespace that select it.
pub fn services_for_pod(pod: &Value, services: &Store) -> Vec<String> {
    let labels = meta::labels(pod);
    services
        .in_namespace(meta::namespace(pod))
        .filter(|s| service_selector(s).map(|sel| selects(sel, &labels)).unwrap_or(false))
        .map(meta::key)
        .collect()
}

/// The Services to sync after a Pod changed: those that selected it before and those that select
/// it now (`getPodServiceMemberships` of the old and the new Pod), sorted, once each.
pub fn services_to_sync(pod: &Value, old: Option<&Value>, services: &Store) -> Vec<String> {
    let mut keys = services_for_pod(pod, services);
    if let Some(o) = old {
        keys.extend(services_for_pod(o, services));
    }
    keys.csort();
    keys.dedup();
    keys
}

/// `ShouldPodBeInEndpoints`: a Pod with an address that has not finished (Succeeded/Failed);
/// a terminating Pod only when `include_terminating`.
pub fn should_pod_be_in_endpoints(pod: &Value, include_terminating: bool) -> bool {
    if meta::get_str(pod, &["status", "podIP"]).is_empty() {
        return false;
    }
    if matches!(meta::get_str(pod, &["status", "phase"]), "Succeeded" | "Failed") {
        return false;
    }
    if !include_terminating && meta::is_deleting(pod) {
        return false;
    }
    true
}

/// `IsPodReady`: the Pod's `Ready` condition is `True`.
pub fn is_pod_ready(pod: &Value) -> bool {
    meta::get(pod, &["status", "conditions"])
        .and_then(|c| c.as_array())
        .map(|cs| cs.iter().any(|c| meta::get_str(c, &["type"]) == "Ready" && meta::get_str(c, &["status"]) == "True"))
        .unwrap_or(false)
}

/// `FindPort`: a Service port's `targetPort` on this Pod: a number as it is, a name looked up
/// in the containers' ports (with the same protocol). `None` when the Pod has no such port.
pub fn find_port(pod: &Value, svc_port: &Value) -> Option<i64> {
    match svc_port.get("targetPort") {
        Some(Value::String(name)) => {
            let proto = meta::get_str(svc_port, &["protocol"]);
            meta::get(pod, &["spec", "containers"])?.as_array()?.iter().find_map(|c| {
                c.get("ports")?.as_array()?.iter().find_map(|p| {
                    let pp = meta::get_str(p, &["protocol"]);
                    (meta::get_str(p, &["name"]) == name && (pp == proto || pp.is_empty() && proto == "TCP"))
                        .then(|| meta::get_i64(p, &["containerPort"]))
                        .flatten()
                })
            })
        }
        Some(Value::Number(n)) => n.as_i64(),
        _ => meta::get_i64(svc_port, &["port"]),
    }
}

/// The latest time a Pod's or the Service's change could have triggered an endpoints update:
/// the `endpoints.kubernetes.io/last-change-trigger-time` annotation (the trigger-time
/// tracker, simplified to the newest of the Service's creation and the Pods' creation and
/// `Ready` transitions).
pub fn last_change_trigger_time(svc: &Value, pods: &[&Value]) -> String {
    let mut best = meta::get_str(svc, &["metadata", "creationTimestamp"]).to_string();
    for p in pods {
        let mut cands = vec![meta::get_str(p, &["metadata", "creationTimestamp"])];
        if let Some(cs) = meta::get(p, &["status", "conditions"]).and_then(|c| c.as_array()) {
            cands.extend(cs.iter().filter(|c| meta::get_str(c, &["type"]) == "Ready").map(|c| meta::get_str(c, &["lastTransitionTime"])));
        }
        for c in cands {
            // RFC 3339 in UTC with a fixed width sorts as text
            if c > best.as_str() {
                best = c.to_string();
            }
        }
    }
    best
}

/// The Service's labels that its endpoints carry: every label but the reserved ones the
/// controllers set themselves.
pub fn inherited_labels(svc: &Value, reserved: &[&str]) -> Map<String, Value> {
    meta::labels(svc).into_iter().filter(|(k, _)| !reserved.contains(&k.as_str())).collect()
}
