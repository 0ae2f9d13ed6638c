//! `/version` and legacy discovery (`/api`, `/apis`, `/api/v1`, `/apis/GROUP/VERSION`), built
//! from kubesim's resource table [`crate::api::meta::RESOURCES`].
//!
//! kubectl 1.32 asks `/api` and `/apis` for aggregated discovery first
//! (`Accept: application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,…,application/json`).
//! client-go decides by the response's `Content-Type`: an answer in plain `application/json` is
//! read as the legacy `APIVersions` / `APIGroupList`, after which it fetches each group
//! version's `APIResourceList`. kubesim answers that way (the last, plain type of the Accept list).
//!
//! Also the OpenAPI documents (`/openapi/v3`, `/openapi/v3/…`, `/openapi/v2`): [`openapi`] builds
//! them from the generated `src/serve/openapi/definitions.json` and the resource table,
//! [`gnostic`] writes `/openapi/v2` as protobuf.

use crate::api::meta::{ResourceInfo, RESOURCES};
use crate::apiextensions::CrdRegistry;
use serde_json::{json, Value};

mod gnostic;
pub mod openapi;

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
    out.extend([("authentication.k8s.io", "v1"), ("authorization.k8s.io", "v1")]);
    // kube-apiserver's group order puts autoscaling before batch (`kubectl get all` lists in
    // discovery order)
    if let (Some(a), Some(b)) = (out.iter().position(|(g, _)| *g == "autoscaling"), out.iter().position(|(g, _)| *g == "batch")) {
        if a > b {
            let x = out.remove(a);
            out.insert(b, x);
        }
    }
    out
}

use crate::apiserver::review::REVIEWS as REVIEW_RESOURCES;

/// The groups the CRDs serve, each with its served versions, preferred first (the storage
/// version of the group's first CRD, then the others in the order the CRDs list them).
pub fn custom_groups(crds: &CrdRegistry) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for (c, info) in crds.discovered() {
        let i = match out.iter().position(|(g, _)| *g == c.group) {
            Some(i) => i,
            None => {
                out.push((c.group.clone(), vec![info.version.to_string()]));
                out.len() - 1
            }
        };
        for v in c.versions.iter().filter(|v| v.served) {
            if !out[i].1.contains(&v.name) {
                out[i].1.push(v.name.clone());
            }
        }
    }
    out
}

fn group_entry(g: &str, versions: Vec<Value>) -> Value {
    let preferred = versions.first().cloned().unwrap_or(json!({}));
    json!({"name": g, "versions": versions, "preferredVersion": preferred})
}

fn custom_entry(g: &str, versions: &[String]) -> Value {
    group_entry(g, versions.iter().map(|v| json!({"groupVersion": format!("{}/{}", g, v), "version": v})).collect())
}

/// `GET /apis`: `APIGroupList`, with the groups `APIService`s hand to extension API servers
/// (`aggregated`: group and version, as the cluster's `APIService`s say) and the CRDs' groups
/// after the built-in ones.
pub fn api_group_list(aggregated: &[(String, String)], crds: &CrdRegistry) -> Value {
    let builtin = groups();
    let extra: Vec<(&str, &str)> = aggregated.iter().map(|(g, v)| (g.as_str(), v.as_str())).filter(|(g, _)| !builtin.iter().any(|(b, _)| b == g)).collect();
    let mut groups: Vec<Value> = builtin
        .iter()
        .copied()
        .chain(extra)
        .map(|(g, v)| {
            let gv = json!({"groupVersion": format!("{}/{}", g, v), "version": v});
            group_entry(g, versions_of(g, gv))
        })
        .collect();
    for (g, vs) in custom_groups(crds) {
        if !builtin.iter().any(|(b, _)| *b == g) {
            groups.push(custom_entry(&g, &vs));
        }
    }
    json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": groups})
}

/// `GET /apis/GROUP`: `APIGroup`, or None for a group kubesim does not serve (nor an
/// `APIService` hands to an extension API server, nor a CRD defines).
pub fn api_group(group: &str, aggregated: &[(String, String)], crds: &CrdRegistry) -> Option<Value> {
    if let Some((g, v)) = groups().into_iter().map(|(g, v)| (g.to_string(), v.to_string())).chain(aggregated.iter().cloned()).find(|(g, _)| g == group) {
        let gv = json!({"groupVersion": format!("{}/{}", g, v), "version": v});
        let mut e = group_entry(&g, versions_of(&g, gv));
        e["kind"] = json!("APIGroup");
        e["apiVersion"] = json!("v1");
        return Some(e);
    }
    let (g, vs) = custom_groups(crds).into_iter().find(|(g, _)| g == group)?;
    let mut e = custom_entry(&g, &vs);
    e["kind"] = json!("APIGroup");
    e["apiVersion"] = json!("v1");
    Some(e)
}

/// `GET /apis/GROUP/VERSION` of a CRD group: the custom resources served in that version
/// (apiextensions-apiserver's discovery controller: verbs, short names, categories, and the
/// `status`/`scale` subresources).
pub fn custom_resource_list(crds: &CrdRegistry, group: &str, version: &str) -> Option<Value> {
    let mut resources = Vec::new();
    for c in crds.crds.iter().filter(|c| c.group == group) {
        let Some(v) = c.serving(version) else { continue };
        let mut e = json!({"name": c.plural, "singularName": c.singular, "namespaced": c.namespaced, "kind": c.kind, "verbs": VERBS});
        if !c.short_names.is_empty() {
            e["shortNames"] = json!(c.short_names);
        }
        if !c.categories.is_empty() {
            e["categories"] = json!(c.categories);
        }
        resources.push(e);
        if v.status_subresource {
            resources.push(json!({"name": format!("{}/status", c.plural), "singularName": "", "namespaced": c.namespaced, "kind": c.kind, "verbs": ["get", "patch", "update"]}));
        }
        if v.scale_subresource {
            resources.push(json!({"name": format!("{}/scale", c.plural), "singularName": "", "namespaced": c.namespaced, "group": "autoscaling", "version": "v1", "kind": "Scale", "verbs": ["get", "patch", "update"]}));
        }
    }
    if resources.is_empty() {
        return None;
    }
    Some(json!({"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": format!("{}/{}", group, version), "resources": resources}))
}

/// A group's served versions, preferred first: `autoscaling` also serves `v1`
/// HorizontalPodAutoscalers (converted at the API server's edge, `api::hpa_conversion`).
fn versions_of(group: &str, preferred: Value) -> Vec<Value> {
    let mut out = vec![preferred];
    if group == "autoscaling" {
        out.push(json!({"groupVersion": "autoscaling/v1", "version": "v1"}));
    }
    out
}

const VERBS: &[&str] = &["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"];
const CLUSTER_VERBS: &[&str] = &["create", "delete", "get", "list", "patch", "update", "watch"];

/// The `kubectl get all` category, as upstream declares it.
fn in_all(r: &ResourceInfo) -> bool {
    matches!(r.kind, "Pod" | "ReplicationController" | "Service" | "Deployment" | "ReplicaSet" | "StatefulSet" | "DaemonSet" | "Job" | "CronJob" | "HorizontalPodAutoscaler")
}

/// The subresources kubesim's API server handles (see `apiserver::dispatch`), as
/// `(name, kind, group, version, verbs)`.
fn subresources(r: &ResourceInfo) -> Vec<(&'static str, &'static str, &'static str, &'static str, &'static [&'static str])> {
    const GPU: &[&str] = &["get", "patch", "update"];
    let mut out = Vec::new();
    match r.kind {
        "Deployment" | "ReplicaSet" | "StatefulSet" | "ReplicationController" => out.push(("scale", "Scale", "autoscaling", "v1", GPU)),
        _ => {}
    }
    match r.kind {
        "Pod" => {
            out.push(("binding", "Binding", "", "", &["create"][..]));
            out.push(("eviction", "Eviction", "policy", "v1", &["create"][..]));
            out.push(("log", "Pod", "", "", &["get"][..]));
            out.push(("proxy", "PodProxyOptions", "", "", &["create", "delete", "get", "patch", "update"][..]));
        }
        "Service" => out.push(("proxy", "ServiceProxyOptions", "", "", &["create", "delete", "get", "patch", "update"][..])),
        "Namespace" => out.push(("finalize", "Namespace", "", "", &["update"][..])),
        "ServiceAccount" => out.push(("token", "TokenRequest", "authentication.k8s.io", "v1", &["create"][..])),
        _ => {}
    }
    if !crate::apiserver::no_status_subresource(r.kind) {
        out.push(("status", r.kind, "", "", GPU));
    }
    out
}

/// `GET /api/v1` or `/apis/GROUP/VERSION`: `APIResourceList`, or None for an unknown group version.
pub fn api_resource_list(group: &str, version: &str) -> Option<Value> {
    // installer.go sorts a group version's paths, so its resources come in name order (and
    // `kubectl get all` prints pods, replicationcontrollers, services as on a real cluster)
    let mut rs: Vec<&ResourceInfo> = RESOURCES.iter().filter(|r| r.group == group && (r.version == version || (group == "autoscaling" && version == "v1"))).collect();
    rs.sort_by_key(|r| r.resource);
    let reviews: Vec<Value> = REVIEW_RESOURCES
        .iter()
        .filter(|(g, ..)| *g == group && version == "v1")
        .map(|(_, name, kind, namespaced)| json!({"name": name, "singularName": kind.to_lowercase(), "namespaced": namespaced, "kind": kind, "verbs": ["create"]}))
        .collect();
    if !reviews.is_empty() {
        return Some(json!({"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": format!("{}/{}", group, version), "resources": reviews}));
    }
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

/// `GET /openapi/v3`: the index of the group-version documents, each URL with the hash of its
/// document (`?hash=…`, the SHA-512 of its bytes, as upstream's index gives it; the server
/// answers with the current document whatever the hash).
///
/// kubectl reads these documents for `kubectl explain` (the kind's schema, found through the
/// `x-kubernetes-group-version-kind` of its paths' operations), and `kubectl apply`/`create` read
/// them to see that the server supports the `fieldValidation` query parameter (among the
/// parameters of the kind's PATCH operation): they then validate on the server
/// (`fieldValidation=Strict`, which kubesim's API server implements from its schema) instead of
/// on the client; and `kubectl apply` computes its strategic merge patches from the kind's schema
/// (its `x-kubernetes-patch-merge-key`s), since the PATCH operation offers
/// `application/strategic-merge-patch+json`. The schemas are upstream's v1.34 definitions, generated by
/// `tools/genschema`'s `genopenapi` into `src/serve/openapi/definitions.json` (see
/// [`openapi`]).
pub fn openapi_v3_root(crds: &CrdRegistry) -> Value {
    let mut paths: serde_json::Map<String, Value> = openapi::docs()
        .v3
        .iter()
        .map(|d| (d.name.clone(), json!({"serverRelativeURL": format!("/openapi/v3/{}?hash={}", d.name, d.hash)})))
        .collect();
    // the CRDs' group versions, each with the hash of its document
    for (g, versions) in custom_groups(crds) {
        for v in versions {
            if let Some(doc) = openapi::custom_document(crds, &g, &v) {
                let name = format!("apis/{}/{}", g, v);
                let hash = hex_sha512(&serde_json::to_vec(&doc).unwrap_or_default());
                paths.insert(name.clone(), json!({"serverRelativeURL": format!("/openapi/v3/{}?hash={}", name, hash)}));
            }
        }
    }
    json!({"paths": paths})
}

fn hex_sha512(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha512::digest(bytes).iter().map(|b| format!("{:02X}", b)).collect()
}

/// `GET /openapi/v3/apis/GROUP/VERSION` of a CRD group: its document.
pub fn openapi_v3_custom(crds: &CrdRegistry, name: &str) -> Option<Vec<u8>> {
    let rest = name.strip_prefix("apis/")?;
    let (g, v) = rest.split_once('/')?;
    openapi::custom_document(crds, g, v).map(|d| serde_json::to_vec(&d).unwrap_or_default())
}

/// `GET /openapi/v3/api/v1`, `/openapi/v3/apis/GROUP/VERSION`: the group version's OpenAPI 3.0
/// document (JSON), or None for a group version kubesim does not serve.
pub fn openapi_v3_group_version(name: &str) -> Option<&'static [u8]> {
    openapi::docs().v3.iter().find(|d| d.name == name).map(|d| d.json.as_slice())
}

/// `GET /openapi/v2`: the Swagger 2.0 document of every path and definition, as gnostic protobuf
/// when the `Accept` header asks for it (client-go's `OpenAPISchema()` always does: `kubectl
/// explain --output plaintext-openapiv2`, and `kubectl apply`'s patches when v3 does not have the
/// kind), else JSON. Returns (Content-Type, body).
pub fn openapi_v2(accept: &str) -> (&'static str, &'static [u8]) {
    let d = openapi::docs();
    if accept.contains(openapi::V2_PROTOBUF_ACCEPT) || accept.contains(openapi::V2_PROTOBUF) {
        (openapi::V2_PROTOBUF, &d.v2_protobuf)
    } else {
        ("application/json", &d.v2_json)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Discovery lists only subresources the API server has a handler for (the two tables name
    /// the same subresources: this keeps them from drifting apart).
    #[test]
    fn listed_subresources_are_handled() {
        for r in RESOURCES.iter() {
            for (sub, ..) in subresources(r) {
                assert!(crate::apiserver::has_subresource(r, sub), "{}/{} is in discovery but has no handler", r.resource, sub);
            }
        }
    }
}
