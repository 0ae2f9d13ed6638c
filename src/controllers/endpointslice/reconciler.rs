//! The EndpointSlice reconciler: from the Pods a Service selects to the slices that should
//! exist, and the creates, updates and deletes that get there.
//!
//! Real counterpart: `staging/src/k8s.io/endpointslice/reconciler.go` (`reconcile`,
//! `reconcileByAddressType`, `reconcileByPortMapping`, `finalize`) and `utils.go`
//! (`podToEndpoint`, `newEndpointSlice`, `getEndpointPorts`).
//!
//! What kubesim simplifies: one address type (IPv4); within a port mapping, endpoints keep the
//! slice they are in and new ones fill the first slice with room (upstream fills the slice
//! closest to full first); endpoints are ordered by Pod name (upstream's order comes from a Go
//! map); no topology hints, no zone (the simulated nodes carry no zone label).

use crate::api::meta;
use crate::controllers::endpointutil as eu;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// `--max-endpoints-per-slice`'s default.
pub const MAX_ENDPOINTS_PER_SLICE: usize = 100;
pub const LABEL_SERVICE_NAME: &str = "kubernetes.io/service-name";
pub const LABEL_MANAGED_BY: &str = "endpointslice.kubernetes.io/managed-by";
pub const CONTROLLER_NAME: &str = "endpointslice-controller.k8s.io";
pub const LABEL_HEADLESS: &str = "service.kubernetes.io/headless";
pub const ANNOTATION_TRIGGER_TIME: &str = "endpoints.kubernetes.io/last-change-trigger-time";

/// What a sync should do.
#[derive(Debug, Default, PartialEq)]
pub struct Plan {
    pub create: Vec<Value>,
    pub update: Vec<Value>,
    pub delete: Vec<Value>,
}

/// `getEndpointPorts`: the Service's ports as this Pod serves them (a named target port the
/// Pod lacks is left out).
fn endpoint_ports(svc: &Value, pod: &Value) -> Vec<Value> {
    meta::get(svc, &["spec", "ports"])
        .and_then(|p| p.as_array())
        .map(|ports| {
            ports
                .iter()
                .filter_map(|sp| {
                    let n = eu::find_port(pod, sp)?;
                    Some(json!({"name": meta::get_str(sp, &["name"]), "port": n, "protocol": meta::get_str(sp, &["protocol"])}))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// `podToEndpoint`.
pub fn pod_to_endpoint(svc: &Value, pod: &Value) -> Value {
    let serving = eu::is_pod_ready(pod);
    let terminating = meta::is_deleting(pod);
    let publish = meta::get(svc, &["spec", "publishNotReadyAddresses"]).and_then(|v| v.as_bool()).unwrap_or(false);
    let ready = publish || (serving && !terminating);
    let mut ep = json!({
        "addresses": [meta::get_str(pod, &["status", "podIP"])],
        "conditions": {"ready": ready, "serving": serving, "terminating": terminating},
        "targetRef": {"kind": "Pod", "namespace": meta::namespace(pod), "name": meta::name(pod), "uid": meta::uid(pod)},
    });
    let node = meta::get_str(pod, &["spec", "nodeName"]);
    if !node.is_empty() {
        ep["nodeName"] = json!(node);
    }
    let hostname = meta::get_str(pod, &["spec", "hostname"]);
    if !hostname.is_empty() && meta::get_str(pod, &["spec", "subdomain"]) == meta::name(svc) {
        ep["hostname"] = json!(hostname);
    }
    ep
}

/// The labels every slice of the Service carries (`setEndpointSliceLabels`).
fn slice_labels(svc: &Value) -> Map<String, Value> {
    let mut labels = eu::inherited_labels(svc, &[LABEL_SERVICE_NAME, LABEL_MANAGED_BY, LABEL_HEADLESS]);
    labels.insert(LABEL_SERVICE_NAME.into(), json!(meta::name(svc)));
    labels.insert(LABEL_MANAGED_BY.into(), json!(CONTROLLER_NAME));
    if meta::get_str(svc, &["spec", "clusterIP"]) == "None" {
        labels.insert(LABEL_HEADLESS.into(), json!(""));
    }
    labels
}

/// `newEndpointSlice`: `generateName: <service>-`, owned by the Service.
fn new_slice(svc: &Value, ports: &Value) -> Value {
    json!({
        "apiVersion": "discovery.k8s.io/v1",
        "kind": "EndpointSlice",
        "metadata": {
            "generateName": format!("{}-", meta::name(svc)),
            "namespace": meta::namespace(svc),
            "labels": slice_labels(svc),
            "ownerReferences": [meta::new_controller_ref(svc, "v1", "Service")],
        },
        "addressType": "IPv4",
        "endpoints": Value::Null,
        "ports": ports,
    })
}

fn endpoints_of(slice: &Value) -> Vec<Value> {
    slice.get("endpoints").and_then(|e| e.as_array()).cloned().unwrap_or_default()
}

fn ports_of(slice: &Value) -> Value {
    match slice.get("ports") {
        Some(Value::Array(a)) if !a.is_empty() => Value::Array(a.clone()),
        _ => Value::Null,
    }
}

fn endpoint_uid(ep: &Value) -> &str {
    meta::get_str(ep, &["targetRef", "uid"])
}

/// Is the slice one of this Service's, made by this controller?
pub fn owned_slice(slice: &Value, svc_ns: &str, svc_name: &str) -> bool {
    let labels = meta::labels(slice);
    meta::namespace(slice) == svc_ns
        && labels.get(LABEL_SERVICE_NAME).and_then(|v| v.as_str()) == Some(svc_name)
        && labels.get(LABEL_MANAGED_BY).and_then(|v| v.as_str()) == Some(CONTROLLER_NAME)
}

/// `reconcile`: the plan that makes `existing` (this Service's slices) match the Pods.
pub fn reconcile(svc: &Value, pods: &[&Value], existing: &[&Value], trigger_time: &str) -> Plan {
    // desired endpoints, grouped by the ports they serve (endpointMeta)
    let mut desired: BTreeMap<String, (Value, Vec<Value>)> = BTreeMap::new();
    for pod in pods {
        if !eu::should_pod_be_in_endpoints(pod, true) {
            continue;
        }
        let ports = endpoint_ports(svc, pod);
        let ports = if ports.is_empty() { Value::Null } else { Value::Array(ports) };
        let k = ports.to_string();
        desired.entry(k).or_insert_with(|| (ports, Vec::new())).1.push(pod_to_endpoint(svc, pod));
    }
    let mut plan = Plan::default();
    let mut by_ports: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for s in existing {
        by_ports.entry(ports_of(s).to_string()).or_default().push((*s).clone());
    }
    let labels = slice_labels(svc);
    for (k, (ports, eps)) in &desired {
        let mut slices = by_ports.remove(k).unwrap_or_default();
        let want: BTreeMap<&str, &Value> = eps.iter().map(|e| (endpoint_uid(e), e)).collect();
        let mut placed: std::collections::BTreeSet<String> = Default::default();
        let mut changed = vec![false; slices.len()];
        // keep endpoints where they are, with their new conditions
        for (i, s) in slices.iter_mut().enumerate() {
            let old = endpoints_of(s);
            let kept: Vec<Value> = old.iter().filter_map(|e| want.get(endpoint_uid(e)).map(|w| (*w).clone())).collect();
            for e in &kept {
                placed.insert(endpoint_uid(e).to_string());
            }
            if kept != old {
                changed[i] = true;
                s["endpoints"] = if kept.is_empty() { Value::Null } else { Value::Array(kept) };
            }
        }
        // new endpoints fill slices with room, then new slices
        let mut fresh: Vec<&Value> = eps.iter().filter(|e| !placed.contains(endpoint_uid(e))).collect();
        for (i, s) in slices.iter_mut().enumerate() {
            let mut cur = endpoints_of(s);
            while cur.len() < MAX_ENDPOINTS_PER_SLICE && !fresh.is_empty() {
                cur.push(fresh.remove(0).clone());
                changed[i] = true;
            }
            if changed[i] {
                s["endpoints"] = if cur.is_empty() { Value::Null } else { Value::Array(cur) };
            }
        }
        for chunk in fresh.chunks(MAX_ENDPOINTS_PER_SLICE) {
            let mut s = new_slice(svc, ports);
            s["endpoints"] = Value::Array(chunk.iter().map(|e| (*e).clone()).collect());
            plan.create.push(s);
        }
        for (i, mut s) in slices.into_iter().enumerate() {
            if endpoints_of(&s).is_empty() {
                plan.delete.push(s);
            } else if changed[i] || meta::get(&s, &["metadata", "labels"]) != Some(&Value::Object(labels.clone())) {
                s["metadata"]["labels"] = Value::Object(labels.clone());
                plan.update.push(s);
            }
        }
    }
    // slices of port mappings no Pod serves any more
    for (_, slices) in by_ports {
        plan.delete.extend(slices);
    }
    // a Service with no endpoints keeps one placeholder slice
    if existing.len() == plan.delete.len() && plan.create.is_empty() {
        let placeholder = new_slice(svc, &Value::Null);
        let same = plan.delete.len() == 1 && endpoints_of(&plan.delete[0]).is_empty() && ports_of(&plan.delete[0]).is_null();
        if same {
            plan.delete.clear();
        } else {
            plan.create.push(placeholder);
        }
    }
    // creates become updates of slices that would be deleted (same name kept)
    while !plan.create.is_empty() && !plan.delete.is_empty() {
        let old = plan.delete.remove(0);
        let mut s = plan.create.pop().expect("a create");
        s["metadata"] = old["metadata"].clone();
        s["metadata"]["labels"] = Value::Object(labels.clone());
        plan.update.push(s);
    }
    for s in plan.create.iter_mut().chain(plan.update.iter_mut()) {
        if !trigger_time.is_empty() {
            meta::set(s, &["metadata", "annotations", ANNOTATION_TRIGGER_TIME], json!(trigger_time));
        }
    }
    plan
}

#[cfg(test)]
mod tests {
    use super::*;

    fn svc() -> Value {
        json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web", "namespace": "default", "uid": "s1", "labels": {"app": "web"}},
               "spec": {"selector": {"app": "web"}, "clusterIP": "10.96.0.9", "ports": [{"name": "http", "port": 80, "protocol": "TCP", "targetPort": "http"}]}})
    }

    fn pod(phase: &str, ip: &str, ready: bool, deleting: bool) -> Value {
        let mut p = json!({"metadata": {"name": "web-1", "namespace": "default", "uid": "p1", "labels": {"app": "web"}},
            "spec": {"nodeName": "node-1", "containers": [{"name": "c", "ports": [{"name": "http", "containerPort": 8080, "protocol": "TCP"}]}]},
            "status": {"phase": phase, "podIP": ip, "conditions": [{"type": "Ready", "status": if ready { "True" } else { "False" }}]}});
        if deleting {
            p["metadata"]["deletionTimestamp"] = json!("2026-01-01T00:00:10Z");
        }
        p
    }

    /// Named table: an endpoint's conditions across a Pod's life (`podToEndpoint`).
    #[test]
    fn endpoint_conditions_follow_the_pod() {
        let cases = [
            ("pending, no IP yet: not listed", pod("Pending", "", false, false), None),
            ("running, not ready", pod("Running", "10.244.1.2", false, false), Some((false, false, false))),
            ("running and ready", pod("Running", "10.244.1.2", true, false), Some((true, true, false))),
            ("terminating, still ready", pod("Running", "10.244.1.2", true, true), Some((false, true, true))),
            ("terminating, no longer ready", pod("Running", "10.244.1.2", false, true), Some((false, false, true))),
            ("succeeded: not listed", pod("Succeeded", "10.244.1.2", false, false), None),
        ];
        for (name, p, want) in cases {
            let plan = reconcile(&svc(), &[&p], &[], "");
            assert_eq!(plan.create.len(), 1, "{}", name);
            let slice = &plan.create[0];
            let got = slice["endpoints"].as_array().and_then(|e| e.first()).map(|e| {
                let c = |k: &str| e["conditions"][k].as_bool().unwrap();
                (c("ready"), c("serving"), c("terminating"))
            });
            assert_eq!(got, want, "{}", name);
            match want {
                // the named target port resolved on the Pod
                Some(_) => assert_eq!(slice["ports"], json!([{"name": "http", "port": 8080, "protocol": "TCP"}]), "{}", name),
                // no endpoint: the placeholder, with no ports
                None => assert_eq!(slice["ports"], Value::Null, "{}", name),
            }
        }
    }

    /// A placeholder is updated in place (same name) when the first Pod arrives, and an
    /// unchanged slice needs no request.
    #[test]
    fn placeholder_becomes_the_slice() {
        let mut placeholder = reconcile(&svc(), &[], &[], "").create.remove(0);
        placeholder["metadata"]["name"] = json!("web-abcde");
        let p = pod("Running", "10.244.1.2", true, false);
        let plan = reconcile(&svc(), &[&p], &[&placeholder], "");
        assert!(plan.create.is_empty() && plan.delete.is_empty());
        assert_eq!(plan.update.len(), 1);
        assert_eq!(plan.update[0]["metadata"]["name"], "web-abcde");
        let same = plan.update[0].clone();
        assert_eq!(reconcile(&svc(), &[&p], &[&same], ""), Plan::default());
    }
}
