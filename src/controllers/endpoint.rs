//! The endpoints controller (`endpoint-controller` in kube-controller-manager), which still
//! writes the legacy `v1` Endpoints object of every Service with a selector.
//!
//! Real counterpart: `pkg/controller/endpoint/endpoints_controller.go` (`syncService`,
//! `addEndpointSubset`) and `pkg/api/v1/endpoints/util.go` (`RepackSubsets`, `SortSubsets`).
//!
//! The Endpoints object is named after the Service: ready Pods go under `addresses`, the others
//! under `notReadyAddresses`, with the Service's ports resolved on each Pod; Pods that share the
//! same resolved ports share a subset. Terminating Pods are left out (unless
//! `publishNotReadyAddresses`). It carries the `endpoints.kubernetes.io/managed-by` label and the
//! last-change-trigger-time annotation.
//!
//! What kubesim simplifies: no 1000-address truncation (`endpoints.kubernetes.io/over-capacity`),
//! no `hostname` on addresses.

use crate::api::meta::{self, Resource};
use crate::api::net;
use crate::api::request::{EventType, Identity, Method, Request};
use crate::client::{Recorder, Store, WorkQueue};
use crate::cluster::{self, Component};
use crate::controllers::deployment::controller_identity;
use crate::controllers::endpointutil as eu;
use crate::trace::Actor;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use crate::sim::sort::CompactSort;

pub const LABEL_MANAGED_BY: &str = "endpoints.kubernetes.io/managed-by";
pub const CONTROLLER_NAME: &str = "endpoint-controller";

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Timer {
    Worker,
    Requeue(String),
}

impl std::fmt::Display for Timer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Timer::Worker => f.write_str("workqueue"),
            Timer::Requeue(k) => write!(f, "requeue:{}", k),
        }
    }
}

type Ctx<'a> = cluster::Ctx<'a, Timer>;
type Input = cluster::Input<Timer>;

pub struct EndpointsController {
    services: Store,
    pods: Store,
    endpoints: Store,
    queue: WorkQueue,
    recorder: Recorder,
}

impl Default for EndpointsController {
    fn default() -> Self {
        EndpointsController {
            services: Store::default(),
            pods: Store::default(),
            endpoints: Store::default(),
            queue: WorkQueue::default(),
            recorder: Recorder::new("endpoint-controller", ""),
        }
    }
}

fn ip_key(a: &Value) -> (u32, String) {
    let ip = meta::get_str(a, &["ip"]);
    (net::parse_ipv4(ip).unwrap_or(u32::MAX), meta::get_str(a, &["targetRef", "uid"]).to_string())
}

/// The subsets for a Service's Pods (`addEndpointSubset` then `RepackSubsets`).
pub fn subsets(svc: &Value, pods: &[&Value]) -> Value {
    let publish = meta::get(svc, &["spec", "publishNotReadyAddresses"]).and_then(|v| v.as_bool()).unwrap_or(false);
    let svc_ports = meta::get(svc, &["spec", "ports"]).and_then(|p| p.as_array()).cloned().unwrap_or_default();
    // resolved ports -> (ready, not ready)
    let mut groups: BTreeMap<String, (Value, Vec<Value>, Vec<Value>)> = BTreeMap::new();
    for pod in pods {
        if !eu::should_pod_be_in_endpoints(pod, publish) {
            continue;
        }
        let mut ports = Vec::new();
        for sp in &svc_ports {
            if let Some(n) = eu::find_port(pod, sp) {
                let mut p = json!({"port": n, "protocol": meta::get_str(sp, &["protocol"])});
                let name = meta::get_str(sp, &["name"]);
                if !name.is_empty() {
                    p["name"] = json!(name);
                }
                ports.push(p);
            }
        }
        if ports.is_empty() && !svc_ports.is_empty() {
            continue;
        }
        let mut addr = json!({
            "ip": meta::get_str(pod, &["status", "podIP"]),
            "targetRef": {"kind": "Pod", "namespace": meta::namespace(pod), "name": meta::name(pod), "uid": meta::uid(pod)},
        });
        let node = meta::get_str(pod, &["spec", "nodeName"]);
        if !node.is_empty() {
            addr["nodeName"] = json!(node);
        }
        ports.csort_by(|a, b| meta::get_str(a, &["name"]).cmp(meta::get_str(b, &["name"])).then(meta::get_i64(a, &["port"]).cmp(&meta::get_i64(b, &["port"]))));
        let k = Value::Array(ports.clone()).to_string();
        let g = groups.entry(k).or_insert_with(|| (Value::Array(ports), Vec::new(), Vec::new()));
        if publish || eu::is_pod_ready(pod) {
            g.1.push(addr);
        } else {
            g.2.push(addr);
        }
    }
    if groups.is_empty() {
        return Value::Null;
    }
    let subsets: Vec<Value> = groups
        .into_values()
        .map(|(ports, mut ready, mut not_ready)| {
            ready.csort_by_key(ip_key);
            not_ready.csort_by_key(ip_key);
            let mut s = json!({"ports": ports});
            if !ready.is_empty() {
                s["addresses"] = Value::Array(ready);
            }
            if !not_ready.is_empty() {
                s["notReadyAddresses"] = Value::Array(not_ready);
            }
            s
        })
        .collect();
    Value::Array(subsets)
}

impl EndpointsController {
    /// `syncService`.
    fn sync_service(&mut self, ctx: &mut Ctx, key: &str) {
        let Some(svc) = self.services.get(key).cloned() else {
            // upstream deletes the Endpoints of a deleted Service
            if let Some(ep) = self.endpoints.get(key).cloned() {
                let path = format!("/api/v1/namespaces/{}/endpoints/{}", meta::namespace(&ep), meta::name(&ep));
                let resp = ctx.request(Method::Delete, &path, None);
                if resp.ok() || resp.code == 404 {
                    self.endpoints.apply(EventType::Deleted, &ep);
                }
            }
            return;
        };
        if eu::service_selector(&svc).is_none() || meta::is_deleting(&svc) {
            return;
        }
        let pods: Vec<Value> = eu::pods_for_service(&svc, &self.pods).into_iter().cloned().collect();
        let pods: Vec<&Value> = pods.iter().collect();
        let subsets = subsets(&svc, &pods);
        let mut labels = eu::inherited_labels(&svc, &[LABEL_MANAGED_BY]);
        labels.insert(LABEL_MANAGED_BY.into(), json!(CONTROLLER_NAME));
        let current = self.endpoints.get(key).cloned();
        if let Some(cur) = &current {
            let same_subsets = cur.get("subsets").cloned().unwrap_or(Value::Null) == subsets;
            if same_subsets && meta::labels(cur) == labels {
                return;
            }
        }
        let trigger = eu::last_change_trigger_time(&svc, &pods);
        let (ns, name) = (meta::namespace(&svc).to_string(), meta::name(&svc).to_string());
        let resp = match current {
            Some(mut cur) => {
                cur["subsets"] = subsets;
                cur["metadata"]["labels"] = Value::Object(labels);
                meta::set(&mut cur, &["metadata", "annotations", "endpoints.kubernetes.io/last-change-trigger-time"], json!(trigger));
                ctx.request(Method::Put, &format!("/api/v1/namespaces/{}/endpoints/{}", ns, name), Some(cur))
            }
            None => {
                let mut ep = json!({
                    "apiVersion": "v1",
                    "kind": "Endpoints",
                    "metadata": {"name": name, "namespace": ns, "labels": labels},
                    "subsets": subsets,
                });
                meta::set(&mut ep, &["metadata", "annotations", "endpoints.kubernetes.io/last-change-trigger-time"], json!(trigger));
                ctx.request_with(Request::new(Method::Post, format!("/api/v1/namespaces/{}/endpoints", ns), Some(ep)))
            }
        };
        if resp.ok() {
            self.endpoints.apply(EventType::Modified, &resp.body);
        } else {
            let text = format!("Failed to update endpoint {}/{}: {}", ns, name, resp.message());
            self.recorder.event(ctx, &svc, None, "Warning", "FailedToUpdateEndpoint", &text);
            ctx.after_background(1000, Timer::Requeue(key.to_string()));
        }
    }
}

impl Component for EndpointsController {
    type Timer = Timer;

    fn restarted(&self) -> Option<Self> {
        Some(Self::default())
    }

    fn actor(&self) -> Actor {
        Actor::EndpointsController
    }

    fn identity(&self) -> Identity {
        controller_identity("endpoint-controller", "endpoint-controller")
    }

    fn start(&mut self, ctx: &mut Ctx) {
        let svcs = ctx.list_and_watch(meta::lookup("services").expect("services"), "", "", "");
        self.services.replace(svcs);
        let pods = ctx.list_and_watch(meta::lookup("pods").expect("pods"), "", "", "");
        self.pods.replace(pods);
        let eps = ctx.list_and_watch(meta::lookup("endpoints").expect("endpoints"), "", "", "");
        self.endpoints.replace(eps);
        let keys: Vec<String> = self.services.items.keys().cloned().collect();
        for k in keys {
            self.queue.enqueue(ctx, &k, Timer::Worker);
        }
    }

    fn handle(&mut self, ctx: &mut Ctx, input: Input) {
        match input {
            Input::Watch { resource: Resource::Services, event_type, object } => {
                self.services.apply_shared(event_type, object.clone());
                self.queue.enqueue(ctx, &meta::key(&object), Timer::Worker);
            }
            Input::Watch { resource: Resource::Pods, event_type, object } => {
                let old = self.pods.apply_shared(event_type, object.clone());
                for k in eu::services_to_sync(&object, old.as_deref(), &self.services) {
                    self.queue.enqueue(ctx, &k, Timer::Worker);
                }
            }
            Input::Watch { resource: Resource::Endpoints, event_type, object } => {
                self.endpoints.apply_shared(event_type, object.clone());
            }
            Input::Watch { .. } => {}
            Input::Timer(Timer::Worker) => {
                if let Some(k) = self.queue.start_work() {
                    self.sync_service(ctx, &k);
                }
                self.queue.done(ctx, Timer::Worker);
            }
            Input::Timer(Timer::Requeue(k)) => {
                self.queue.enqueue(ctx, &k, Timer::Worker);
            }
        }
    }
}
