//! `/version` and legacy discovery (`/api`, `/apis`, `/api/v1`, `/apis/GROUP/VERSION`), built
//! from kubesim's resource table [`crate::api::meta::RESOURCES`].
//!
//! kubectl 1.32 asks `/api` and `/apis` for aggregated discovery first
//! (`Accept: application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,…,application/json`).
//! client-go decides by the response's `Content-Type`: an answer in plain `application/json` is
//! read as the legacy `APIVersions` / `APIGroupList`, after which it fetches each group
//! version's `APIResourceList`. kubesim answers that way (the last, plain type of the Accept list).

use crate::api::meta::{ResourceInfo, RESOURCES};
use serde_json::{json, Value};

/// `GET /version`: kubesim's `KUBE_VERSION` and `KUBE_COMMIT`.
pub fn version() -> Value {
    let v = crate::KUBE_VERSION.trim_start_matches('v');
    let mut it = v.split('.');
    let major = it.next().unwrap_or("1");
    let minor = it.next().unwrap_or("0");
    json!({
        "major": major,
        "minor": minor,
        "emulationMajor": major,
        "emulationMinor": minor,
        "minCompatibilityMajor": major,
        "minCompatibilityMinor": minor.parse::<u32>().map(|m| m.saturating_sub(1).to_string()).unwrap_or_default(),
        "gitVersion": crate::KUBE_VERSION,
        "gitCommit": crate::KUBE_COMMIT,
        "gitTreeState": "clean",
        "buildDate": "2025-08-27T00:00:00Z",
        "goVersion": "go1.24.6",
        "compiler": "gc",
        "platform": "linux/amd64"
    })
}

/// `GET /api`: `APIVersions`.
pub fn api_versions(server_address: &str) -> Value {
    json!({
        "kind": "APIVersions",
        "versions": ["v1"],
        "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": server_address}]
    })
}

/// The named groups, in the table's order: `[("apps", "v1"), …]`.
fn groups() -> Vec<(&'static str, &'static str)> {
    let mut out: Vec<(&str, &str)> = Vec::new();
    for r in RESOURCES {
        if !r.group.is_empty() && !out.iter().any(|(g, v)| *g == r.group && *v == r.version) {
            out.push((r.group, r.version));
        }
    }
    out
}

/// `GET /apis`: `APIGroupList`.
pub fn api_group_list() -> Value {
    let groups: Vec<Value> = groups()
        .into_iter()
        .map(|(g, v)| {
            let gv = json!({"groupVersion": format!("{}/{}", g, v), "version": v});
            json!({"name": g, "versions": [gv.clone()], "preferredVersion": gv})
        })
        .collect();
    json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": groups})
}

/// `GET /apis/GROUP`: `APIGroup`, or None for a group kubesim does not serve.
pub fn api_group(group: &str) -> Option<Value> {
    let (g, v) = groups().into_iter().find(|(g, _)| *g == group)?;
    let gv = json!({"groupVersion": format!("{}/{}", g, v), "version": v});
    Some(json!({"kind": "APIGroup", "apiVersion": "v1", "name": g, "versions": [gv.clone()], "preferredVersion": gv}))
}

const VERBS: &[&str] = &["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"];
const CLUSTER_VERBS: &[&str] = &["create", "delete", "get", "list", "patch", "update", "watch"];

/// The `kubectl get all` category, as upstream declares it.
fn in_all(r: &ResourceInfo) -> bool {
    matches!(r.kind, "Pod" | "Service" | "Deployment" | "ReplicaSet" | "StatefulSet" | "DaemonSet" | "Job" | "CronJob")
}

/// The subresources kubesim's API server handles (see `apiserver::dispatch`), as
/// `(name, kind, group, version, verbs)`.
fn subresources(r: &ResourceInfo) -> Vec<(&'static str, &'static str, &'static str, &'static str, &'static [&'static str])> {
    const GPU: &[&str] = &["get", "patch", "update"];
    let mut out = Vec::new();
    match r.kind {
        "Deployment" | "ReplicaSet" | "StatefulSet" => out.push(("scale", "Scale", "autoscaling", "v1", GPU)),
        _ => {}
    }
    match r.kind {
        "Pod" => {
            out.push(("binding", "Binding", "", "", &["create"][..]));
            out.push(("log", "Pod", "", "", &["get"][..]));
        }
        "Namespace" => out.push(("finalize", "Namespace", "", "", &["update"][..])),
        _ => {}
    }
    if !matches!(r.kind, "Event" | "Lease" | "Endpoints" | "ControllerRevision" | "StorageClass" | "PriorityClass" | "EndpointSlice") {
        out.push(("status", r.kind, "", "", GPU));
    }
    out
}

/// `GET /api/v1` or `/apis/GROUP/VERSION`: `APIResourceList`, or None for an unknown group version.
pub fn api_resource_list(group: &str, version: &str) -> Option<Value> {
    let rs: Vec<&ResourceInfo> = RESOURCES.iter().filter(|r| r.group == group && r.version == version).collect();
    if rs.is_empty() {
        return None;
    }
    let mut resources = Vec::new();
    for r in rs {
        let mut e = json!({
            "name": r.resource,
            "singularName": r.singular,
            "namespaced": r.namespaced,
            "kind": r.kind,
            "verbs": if r.namespaced { VERBS } else { CLUSTER_VERBS },
        });
        if !r.short_names.is_empty() {
            e["shortNames"] = json!(r.short_names);
        }
        if in_all(r) {
            e["categories"] = json!(["all"]);
        }
        resources.push(e);
        for (sub, kind, g, v, verbs) in subresources(r) {
            let mut s = json!({"name": format!("{}/{}", r.resource, sub), "singularName": "", "namespaced": r.namespaced, "kind": kind, "verbs": verbs});
            if !g.is_empty() {
                s["group"] = json!(g);
                s["version"] = json!(v);
            }
            resources.push(s);
        }
    }
    let gv = if group.is_empty() { version.to_string() } else { format!("{}/{}", group, version) };
    Some(json!({"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": gv, "resources": resources}))
}

/// The group versions as OpenAPI v3 names them: `api/v1`, `apis/apps/v1`.
fn openapi_v3_names() -> Vec<(String, &'static str, &'static str)> {
    let mut out = vec![("api/v1".to_string(), "", "v1")];
    for (g, v) in groups() {
        out.push((format!("apis/{}/{}", g, v), g, v));
    }
    out
}

/// `GET /openapi/v3`: the index of group-version documents.
///
/// kubectl reads OpenAPI v3 for one thing kubesim needs: whether the server supports the
/// `fieldValidation` query parameter (`QueryParamVerifierV3` looks for it among the parameters
/// of the PATCH operation of the kind's paths). With it, `kubectl apply`/`create` validate on the
/// server (`fieldValidation=Strict`, which kubesim's API server implements from its schema)
/// instead of downloading `/openapi/v2` to validate on the client. The documents carry no
/// schemas: `kubectl explain` does not work, and kubectl apply computes its strategic merge
/// patches from its compiled-in types (the PATCH operations declare no request body, so kubectl
/// does not look for v3 schemas).
pub fn openapi_v3_root() -> Value {
    let paths: serde_json::Map<String, Value> = openapi_v3_names()
        .into_iter()
        .map(|(name, _, _)| {
            let url = format!("/openapi/v3/{}?hash=kubesim-{}", name, crate::KUBE_COMMIT);
            (name, json!({"serverRelativeURL": url}))
        })
        .collect();
    json!({"paths": paths})
}

/// `GET /openapi/v3/api/v1`, `/openapi/v3/apis/GROUP/VERSION`: the paths of each kind with their
/// PATCH operation and its `fieldValidation` parameter (see [`openapi_v3_root`]).
pub fn openapi_v3_group_version(name: &str) -> Option<Value> {
    let (_, group, version) = openapi_v3_names().into_iter().find(|(n, _, _)| n == name)?;
    let mut paths = serde_json::Map::new();
    for r in RESOURCES.iter().filter(|r| r.group == group && r.version == version) {
        let base = if group.is_empty() { format!("/api/{}", version) } else { format!("/apis/{}/{}", group, version) };
        let path = if r.namespaced { format!("{}/namespaces/{{namespace}}/{}/{{name}}", base, r.resource) } else { format!("{}/{}/{{name}}", base, r.resource) };
        let gvk = json!({"group": group, "version": version, "kind": r.kind});
        let param = |n: &str| json!({"name": n, "in": "query", "schema": {"type": "string", "uniqueItems": true}});
        paths.insert(
            path,
            json!({
                "patch": {
                    "operationId": format!("patch{}", r.kind),
                    "parameters": [param("dryRun"), param("fieldManager"), param("fieldValidation")],
                    "responses": {"200": {"description": "OK"}},
                    "x-kubernetes-action": "patch",
                    "x-kubernetes-group-version-kind": gvk,
                },
                "parameters": [{"name": "name", "in": "path", "required": true, "schema": {"type": "string"}}]
            }),
        );
    }
    Some(json!({"openapi": "3.0.0", "info": {"title": "Kubernetes (kubesim)", "version": crate::KUBE_VERSION}, "paths": paths, "components": {"schemas": {}}}))
}
