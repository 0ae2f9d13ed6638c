//! The aggregation layer: requests for an API group that an `APIService` hands to an extension
//! API server (metrics-server's `metrics.k8s.io`) are proxied to it.
//!
//! Real counterpart: `staging/src/k8s.io/kube-aggregator/pkg/apiserver/handler_proxy.go`
//! (`proxyHandler.ServeHTTP`: the `APIService`'s Service resolved to an endpoint, `503 service
//! unavailable` when it is not available) and the `AvailableConditionController`'s test
//! (`pkg/controllers/status/remote`: the Service exists and has a ready endpoint).
//!
//! What kubesim simplifies: no TLS, no discovery check of the extension server; the
//! request is authorized by kube-apiserver as any request is, and the extension server trusts it
//! (metrics-server's delegated authorization is not repeated).

use super::*;
use crate::api::meta::Resource;

/// A request the aggregation layer hands on: its path and query, as the client sent them (the
/// cluster, which is the network, delivers it to the component that serves the path — the
/// `APIService`'s Service's only backend in kubesim).
#[derive(Clone, Debug, PartialEq)]
pub struct AggregatedProxy {
    pub path: String,
}

impl ApiServer {
    /// The aggregation layer's part of the handler chain: `Some` when an `APIService` claims the
    /// request's group and version (a 503 when its Service has no ready endpoint).
    pub(super) fn aggregate(&mut self, req: &Request) -> Option<Response> {
        let path = req.path.split('?').next().unwrap_or("");
        let mut parts = path.strip_prefix("/apis/")?.split('/');
        let (group, version) = (parts.next()?, parts.next()?);
        let (svc, _) = self.read_shared(Resource::ApiServices.info(), "", &format!("{}.{}", version, group))?;
        let local = meta::get(&svc, &["spec", "service"]).map(Value::is_null).unwrap_or(true);
        // handlingInfo.serviceAvailable: the Available condition the availability controller keeps
        let available = meta::get_array(&svc, &["status", "conditions"]).iter().any(|c| meta::get_str(c, &["type"]) == "Available" && meta::get_str(c, &["status"]) == "True");
        drop(svc);
        if local || !available {
            // http.Error: a text body, which clients show as ServiceUnavailable
            return Some(Response { code: 503, body: Value::String("service unavailable\n".into()) });
        }
        self.pending_proxy = Some(Proxy::Aggregated(AggregatedProxy { path: req.path.clone() }));
        Some(Response { code: 200, body: Value::String(String::new()) })
    }
}

/// kube-aggregator's `AvailableConditionController`, which runs inside kube-apiserver: each
/// `APIService`'s `Available` condition from its Service and endpoints, written to its status
/// through the loopback client. The aggregation proxy serves a group only while it is `True`.
///
/// Real counterpart: `staging/src/k8s.io/kube-aggregator/pkg/controllers/status/remote/
/// remote_available_controller.go` (`sync`: `Local`, `ServiceNotFound`, `MissingEndpoints`,
/// `Passed`; the status updated only when the condition changed). What kubesim simplifies: no
/// discovery probe of the extension server (`FailedDiscoveryCheck`), no 30 s resync.
#[derive(Default)]
pub struct AvailableConditionController {
    apiservices: crate::client::Store,
    services: crate::client::Store,
    slices: crate::client::Store,
}

/// The controller's one timer: the queue's worker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AvailableTimer {
    Sync,
}

impl std::fmt::Display for AvailableTimer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("apiservice-sync")
    }
}

impl AvailableConditionController {
    /// `sync`: (status, reason, message) of the `Available` condition.
    pub fn available(&self, svc: &Value) -> (&'static str, &'static str, String) {
        let Some(s) = meta::get(svc, &["spec", "service"]).filter(|s| !s.is_null()) else {
            return ("True", "Local", "Local APIServices are always available".into());
        };
        let (ns, name) = (meta::get_str(s, &["namespace"]), meta::get_str(s, &["name"]));
        let Some(service) = self.services.get(&format!("{}/{}", ns, name)) else {
            return ("False", "ServiceNotFound", format!("service/{} in {:?} is not present", name, ns));
        };
        let port = meta::get_i64(s, &["port"]).unwrap_or(443);
        let port_name = meta::get_array(service, &["spec", "ports"]).iter().find(|p| meta::get_i64(p, &["port"]) == Some(port)).map(|p| meta::get_str(p, &["name"]).to_string()).unwrap_or_default();
        let ready = self.slices.in_namespace(ns).filter(|e| meta::get_str(e, &["metadata", "labels", "kubernetes.io/service-name"]) == name).any(|e| {
            meta::get_array(e, &["ports"]).iter().any(|p| meta::get_str(p, &["name"]) == port_name)
                && meta::get_array(e, &["endpoints"]).iter().any(|x| meta::get(x, &["conditions", "ready"]).and_then(Value::as_bool).unwrap_or(false))
        });
        if !ready {
            return ("False", "MissingEndpoints", format!("endpoints for service/{} in {:?} have no addresses with port name {:?}", name, ns, port_name));
        }
        ("True", "Passed", "all checks passed".into())
    }

    fn sync(&mut self, ctx: &mut crate::cluster::Ctx<AvailableTimer>) {
        let all: Vec<Value> = self.apiservices.items.values().map(|v| Value::clone(v)).collect();
        for svc in all {
            let (status, reason, message) = self.available(&svc);
            let old = meta::get_array(&svc, &["status", "conditions"]).iter().find(|c| meta::get_str(c, &["type"]) == "Available").cloned();
            if old.as_ref().map(|c| meta::get_str(c, &["status"]) == status && meta::get_str(c, &["reason"]) == reason && meta::get_str(c, &["message"]) == message).unwrap_or(false) {
                continue;
            }
            let changed = old.as_ref().map(|c| meta::get_str(c, &["status"]) != status).unwrap_or(true);
            let since = match (&old, changed) {
                (Some(c), false) => meta::get(c, &["lastTransitionTime"]).cloned().unwrap_or(Value::Null),
                _ => json!(crate::api::time::rfc3339(ctx.now)),
            };
            let mut obj = svc.clone();
            obj["status"] = json!({"conditions": [{"type": "Available", "status": status, "lastTransitionTime": since, "reason": reason, "message": message}]});
            let path = format!("{}/status", Resource::ApiServices.info().object_path("", meta::name(&svc)));
            ctx.request_with(Request::new(Method::Put, &path, Some(obj)));
        }
    }
}

impl crate::cluster::Component for AvailableConditionController {
    type Timer = AvailableTimer;

    fn restarted(&self) -> Option<Self> {
        Some(Self::default())
    }

    fn actor(&self) -> crate::trace::Actor {
        crate::trace::Actor::AvailableConditionController
    }

    fn identity(&self) -> Identity {
        crate::cluster::apiserver_identity()
    }

    fn start(&mut self, ctx: &mut crate::cluster::Ctx<AvailableTimer>) {
        let a = ctx.list_and_watch(Resource::ApiServices.info(), "", "", "");
        self.apiservices.replace(a);
        let s = ctx.list_and_watch(Resource::Services.info(), "", "", "");
        self.services.replace(s);
        let e = ctx.list_and_watch(Resource::EndpointSlices.info(), "", "", "");
        self.slices.replace(e);
        self.sync(ctx);
    }

    fn handle(&mut self, ctx: &mut crate::cluster::Ctx<AvailableTimer>, input: crate::cluster::Input<AvailableTimer>) {
        match input {
            crate::cluster::Input::Watch { resource, event_type, object } => {
                let store = match resource {
                    Resource::ApiServices => &mut self.apiservices,
                    Resource::Services => &mut self.services,
                    Resource::EndpointSlices => &mut self.slices,
                    _ => return,
                };
                let old = store.apply_shared(event_type, object.clone());
                // a status write of its own needs no new sync
                if resource == Resource::ApiServices && old.map(|o| o.get("spec") == object.get("spec")).unwrap_or(false) {
                    return;
                }
                if !self.apiservices.items.is_empty() {
                    self.sync(ctx);
                }
            }
            crate::cluster::Input::Timer(AvailableTimer::Sync) => self.sync(ctx),
        }
    }
}
