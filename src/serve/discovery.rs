//! `/version` and legacy discovery (`/api`, `/apis`, `/api/v1`, `/apis/GROUP/VERSION`), built
//! from kubesim's resource table [`crate::api::meta::RESOURCES`].
//!
//! kubectl asks `/api` and `/apis` for aggregated discovery first
//! (`Accept: application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,…,application/json`)
//! and decides by the response's `Content-Type`. kubesim answers as kube-apiserver v1.34 does:
//! an `APIGroupDiscoveryList` (`apidiscovery.k8s.io/v2`) with every group, version and resource
//! in one document ([`aggregated_core`], [`aggregated_groups`]), built from the same
//! `APIResourceList`s the legacy endpoints serve by upstream's conversion
//! (`endpoints/installer.go` `ConvertGroupVersionIntoToDiscovery`: subresources nested under
//! their parent, `responseKind` from the resource's group, version and kind); a CRD's group as
//! apiextensions-apiserver's discovery controller publishes it (`responseKind` with the CRD's
//! group and version), only once the CRD is Established; an `APIService`'s group from its
//! extension API server's `APIResourceList`, converted as kube-aggregator converts a server that
//! does not serve aggregated discovery itself. A client that asks for plain `application/json`
//! gets the legacy `APIVersions` / `APIGroupList`, then fetches each group version's
//! `APIResourceList`. Not modelled: `v2beta1` (removed in v1.33), ETags and `304 Not Modified`.
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
            out.push(("ephemeralcontainers", "Pod", "", "", GPU));
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

/// aggregated discovery's media type, as the response's `Content-Type`.
pub const AGGREGATED_V2: &str = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

/// Whether an `Accept` header offers aggregated discovery v2 (a media type `application/json`
/// with the parameters `g=apidiscovery.k8s.io`, `v=v2`, `as=APIGroupDiscoveryList`, in any order).
pub fn wants_aggregated(accept: &str) -> bool {
    accept.split(',').any(|t| {
        let mut parts = t.split(';').map(str::trim);
        if !parts.next().is_some_and(|m| m.eq_ignore_ascii_case("application/json")) {
            return false;
        }
        let params: Vec<(&str, &str)> = parts.filter_map(|p| p.split_once('=')).map(|(k, v)| (k.trim(), v.trim())).collect();
        let has = |k: &str, v: &str| params.iter().any(|(pk, pv)| *pk == k && *pv == v);
        has("g", "apidiscovery.k8s.io") && has("v", "v2") && has("as", "APIGroupDiscoveryList")
    })
}

/// One group version's `APIResourceList` in aggregated form (`APIVersionDiscovery`). With
/// `fill_gv`, a `responseKind` the list leaves without group and version gets the list's (as
/// apiextensions-apiserver's discovery controller writes a CRD's).
pub fn to_version_discovery(version: &str, list: &Value, fill_gv: bool) -> Value {
    let (group, ver) = match list.get("groupVersion").and_then(Value::as_str).unwrap_or("").split_once('/') {
        Some((g, v)) => (g.to_string(), v.to_string()),
        None => (String::new(), version.to_string()),
    };
    let mut entries: Vec<Value> = list.get("resources").and_then(Value::as_array).cloned().unwrap_or_default();
    if fill_gv {
        for e in &mut entries {
            if e.get("group").is_none() && e.get("version").is_none() {
                e["group"] = json!(group);
                e["version"] = json!(ver);
            }
        }
    }
    // kubesim's lists always nest cleanly; an error would leave the version empty, as upstream
    // logs the registration error
    let resources = convert_group_version_into_to_discovery(&entries).unwrap_or_default();
    json!({"version": version, "resources": resources, "freshness": "Current"})
}

/// `ConvertGroupVersionIntoToDiscovery` (endpoints/installer.go): each top-level `APIResource`
/// becomes an `APIResourceDiscovery` (scope, `responseKind` from the entry's group, version and
/// kind, verbs, short names, categories, singular name); each `parent/sub` entry is nested under
/// its parent (one with an empty `responseKind` is made for a subresource without a parent), an
/// error if their scopes differ.
fn convert_group_version_into_to_discovery(list: &[Value]) -> Result<Vec<Value>, String> {
    let gvk = |r: &Value| {
        let f = |k: &str| r.get(k).and_then(Value::as_str).unwrap_or("").to_string();
        json!({"group": f("group"), "version": f("version"), "kind": f("kind")})
    };
    let scope = |r: &Value| if r.get("namespaced").and_then(Value::as_bool).unwrap_or(false) { "Namespaced" } else { "Cluster" };
    let mut out: Vec<Value> = Vec::new();
    for r in list.iter().filter(|r| !r["name"].as_str().unwrap_or("").contains('/')) {
        let singular = r.get("singularName").and_then(Value::as_str).unwrap_or("");
        let mut d = json!({"resource": r["name"], "responseKind": gvk(r), "scope": scope(r), "singularResource": singular, "verbs": r.get("verbs").cloned().unwrap_or(Value::Null)});
        for k in ["shortNames", "categories"] {
            if let Some(v) = r.get(k).filter(|v| v.as_array().is_some_and(|a| !a.is_empty())) {
                d[k] = v.clone();
            }
        }
        out.push(d);
    }
    for r in list {
        let Some((parent, sub)) = r["name"].as_str().and_then(|n| n.split_once('/')) else { continue };
        let at = match out.iter().position(|d| d["resource"] == parent) {
            Some(i) => i,
            None => {
                out.push(json!({"resource": parent, "responseKind": {"group": "", "version": "", "kind": ""}, "scope": scope(r), "singularResource": "", "verbs": null}));
                out.len() - 1
            }
        };
        if out[at]["scope"] != scope(r) {
            return Err(format!("Error: Parent {} (scope: {}) and subresource {} (scope: {}) scope do not match", parent, out[at]["scope"].as_str().unwrap_or(""), sub, scope(r)));
        }
        let s = json!({"subresource": sub, "responseKind": gvk(r), "verbs": r.get("verbs").cloned().unwrap_or(Value::Null)});
        match out[at].get_mut("subresources").and_then(Value::as_array_mut) {
            Some(a) => a.push(s),
            None => out[at]["subresources"] = json!([s]),
        }
    }
    Ok(out)
}

fn group_discovery(name: &str, versions: Vec<Value>) -> Value {
    let metadata = if name.is_empty() { json!({"creationTimestamp": null}) } else { json!({"name": name, "creationTimestamp": null}) };
    json!({"metadata": metadata, "versions": versions})
}

fn discovery_list(items: Vec<Value>) -> Value {
    json!({"kind": "APIGroupDiscoveryList", "apiVersion": "apidiscovery.k8s.io/v2", "metadata": {}, "items": items})
}

/// `GET /api` as aggregated discovery: the legacy group `v1`.
pub fn aggregated_core() -> Value {
    let v1 = api_resource_list("", "v1").map(|l| to_version_discovery("v1", &l, false)).unwrap_or(json!({}));
    discovery_list(vec![group_discovery("", vec![v1])])
}

/// `GET /apis` as aggregated discovery: the built-in groups (each version, preferred first), the
/// groups `APIService`s hand to extension API servers (`extension`: group, version and the
/// `APIResourceList` that server answered; a group whose server did not answer is left out, as
/// kube-aggregator has nothing to publish for it yet), then the CRDs' groups.
pub fn aggregated_groups(extension: &[(String, String, Value)], crds: &CrdRegistry) -> Value {
    let builtin = groups();
    let mut items = Vec::new();
    for (g, v) in &builtin {
        let gv = json!({"groupVersion": format!("{}/{}", g, v), "version": v});
        let versions = versions_of(g, gv).iter().filter_map(|e| e["version"].as_str().map(str::to_string)).filter_map(|ver| api_resource_list(g, &ver).map(|l| to_version_discovery(&ver, &l, false))).collect();
        items.push(group_discovery(g, versions));
    }
    for (g, v, list) in extension.iter().filter(|(g, ..)| !builtin.iter().any(|(b, _)| b == g)) {
        items.push(group_discovery(g, vec![to_version_discovery(v, list, false)]));
    }
    for (g, vs) in custom_groups(crds) {
        if builtin.iter().any(|(b, _)| *b == g) {
            continue;
        }
        let versions = vs.iter().filter_map(|v| custom_resource_list(crds, &g, v).map(|l| to_version_discovery(v, &l, true))).collect();
        items.push(group_discovery(&g, versions));
    }
    discovery_list(items)
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

    /// Upstream's `TestConvertAPIResourceToDiscovery` (endpoints/installer_test.go), case by
    /// case: the legacy entries in, the aggregated ones (or the error) out.
    #[test]
    fn convert_api_resource_to_discovery() {
        const V: &[&str] = &["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"];
        let cj = json!({"name": "cronjobs", "namespaced": true, "kind": "CronJob", "group": "batch", "version": "v1", "shortNames": ["cj"], "verbs": V});
        let cj_status = json!({"name": "cronjobs/status", "namespaced": true, "kind": "CronJob", "group": "batch", "version": "v1", "shortNames": ["cj"], "verbs": V});
        let batch = json!({"group": "batch", "version": "v1", "kind": "CronJob"});
        let apps = json!({"group": "apps", "version": "v1", "kind": "Deployment"});
        let empty = json!({"group": "", "version": "", "kind": ""});
        let kind = |k: &str| json!({"group": "", "version": "", "kind": k});
        let status = |rk: &Value| json!([{"subresource": "status", "responseKind": rk, "verbs": V}]);
        let cases: Vec<(&str, Vec<Value>, Result<Value, &str>)> = vec![
            (
                "Basic Test",
                vec![json!({"name": "pods", "namespaced": true, "kind": "Pod", "shortNames": ["po"], "verbs": V})],
                Ok(json!([{"resource": "pods", "scope": "Namespaced", "responseKind": kind("Pod"), "singularResource": "", "shortNames": ["po"], "verbs": V}])),
            ),
            ("Basic Group Version Test", vec![cj.clone()], Ok(json!([{"resource": "cronjobs", "scope": "Namespaced", "responseKind": batch, "singularResource": "", "shortNames": ["cj"], "verbs": V}]))),
            (
                "Test with subresource",
                vec![cj.clone(), cj_status.clone()],
                Ok(json!([{"resource": "cronjobs", "scope": "Namespaced", "responseKind": batch, "singularResource": "", "shortNames": ["cj"], "verbs": V, "subresources": status(&batch)}])),
            ),
            (
                "Test multiple resources and subresources",
                vec![
                    cj.clone(),
                    cj_status.clone(),
                    json!({"name": "deployments", "namespaced": true, "kind": "Deployment", "group": "apps", "version": "v1", "shortNames": ["deploy"], "verbs": V}),
                    json!({"name": "deployments/status", "namespaced": true, "kind": "Deployment", "group": "apps", "version": "v1", "shortNames": ["deploy"], "verbs": V}),
                ],
                Ok(json!([
                    {"resource": "cronjobs", "scope": "Namespaced", "responseKind": batch, "singularResource": "", "shortNames": ["cj"], "verbs": V, "subresources": status(&batch)},
                    {"resource": "deployments", "scope": "Namespaced", "responseKind": apps, "singularResource": "", "shortNames": ["deploy"], "verbs": V, "subresources": status(&apps)},
                ])),
            ),
            (
                "Test with subresource with no parent",
                vec![json!({"name": "cronjobs/status", "namespaced": true, "kind": "CronJob", "group": "batch", "version": "v1", "verbs": V})],
                Ok(json!([{"resource": "cronjobs", "scope": "Namespaced", "responseKind": empty, "singularResource": "", "verbs": null, "subresources": status(&batch)}])),
            ),
            (
                "Test with subresource with missing kind",
                vec![json!({"name": "cronjobs/status", "namespaced": true, "group": "batch", "version": "v1", "verbs": V})],
                Ok(json!([{"resource": "cronjobs", "scope": "Namespaced", "responseKind": empty, "singularResource": "", "verbs": null, "subresources": [{"subresource": "status", "responseKind": {"group": "batch", "version": "v1", "kind": ""}, "verbs": V}]}])),
            ),
            (
                "Test with mismatch parent and subresource scope",
                vec![cj.clone(), json!({"name": "cronjobs/status", "namespaced": false, "kind": "CronJob", "group": "batch", "version": "v1", "verbs": V})],
                Err("Error: Parent cronjobs (scope: Namespaced) and subresource status (scope: Cluster) scope do not match"),
            ),
            (
                "Cluster Scope Test",
                vec![json!({"name": "nodes", "namespaced": false, "kind": "Node", "shortNames": ["no"], "verbs": V})],
                Ok(json!([{"resource": "nodes", "scope": "Cluster", "responseKind": kind("Node"), "singularResource": "", "shortNames": ["no"], "verbs": V}])),
            ),
            (
                "Namespace Scope Test",
                vec![json!({"name": "nodes", "namespaced": true, "kind": "Node", "shortNames": ["no"], "verbs": V})],
                Ok(json!([{"resource": "nodes", "scope": "Namespaced", "responseKind": kind("Node"), "singularResource": "", "shortNames": ["no"], "verbs": V}])),
            ),
            (
                "Singular Resource Name",
                vec![json!({"name": "nodes", "singularName": "node", "kind": "Node", "shortNames": ["no"], "verbs": V})],
                Ok(json!([{"resource": "nodes", "scope": "Cluster", "responseKind": kind("Node"), "singularResource": "node", "shortNames": ["no"], "verbs": V}])),
            ),
        ];
        for (name, input, want) in cases {
            let got = convert_group_version_into_to_discovery(&input).map(Value::Array);
            assert_eq!(got, want.map_err(str::to_string), "{}", name);
        }
    }

    #[test]
    fn aggregated_accept_and_documents() {
        // client-go's Accept (v1.32): v2 first, then v2beta1, then the legacy fallback
        assert!(wants_aggregated("application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json"));
        assert!(wants_aggregated("application/json; as=APIGroupDiscoveryList; v=v2; g=apidiscovery.k8s.io"));
        assert!(!wants_aggregated("application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json"));
        assert!(!wants_aggregated("application/json"));
        let core = aggregated_core();
        assert_eq!(core["kind"], "APIGroupDiscoveryList");
        let pods = core["items"][0]["versions"][0]["resources"].as_array().unwrap().iter().find(|r| r["resource"] == "pods").unwrap().clone();
        assert_eq!(pods["scope"], "Namespaced");
        assert_eq!(pods["categories"], json!(["all"]));
        let subs: Vec<&str> = pods["subresources"].as_array().unwrap().iter().map(|s| s["subresource"].as_str().unwrap()).collect();
        assert_eq!(subs, ["binding", "ephemeralcontainers", "eviction", "log", "proxy", "status"]);
        let groups = aggregated_groups(&[], &CrdRegistry::default());
        let names: Vec<&str> = groups["items"].as_array().unwrap().iter().map(|i| i["metadata"]["name"].as_str().unwrap()).collect();
        assert_eq!(names[0], "apps");
        let autoscaling = groups["items"].as_array().unwrap().iter().find(|i| i["metadata"]["name"] == "autoscaling").unwrap();
        let versions: Vec<&str> = autoscaling["versions"].as_array().unwrap().iter().map(|v| v["version"].as_str().unwrap()).collect();
        assert_eq!(versions, ["v2", "v1"]);
    }
}
