//! The OpenAPI documents: `/openapi/v3` (the index), `/openapi/v3/api/v1`,
//! `/openapi/v3/apis/GROUP/VERSION` (OpenAPI 3.0, one per group version) and `/openapi/v2`
//! (Swagger 2.0, JSON or gnostic protobuf).
//!
//! The schemas come from one generated file, `src/serve/openapi/definitions.json`: upstream's
//! v1.34 definitions (`io.k8s.api.apps.v1.Deployment`, …) of every kind kubesim serves and what
//! they reference, in the shape a v1.34 kube-apiserver serves them in its v3 documents (see
//! `tools/genschema/src/bin/genopenapi.rs`). The paths are built here from kubesim's resource table
//! (the verbs and subresources `discovery` lists). Each group version's document holds its
//! paths and the closure of the schemas they reference (plus `DeleteOptions`, `Status`,
//! `WatchEvent`, `APIResourceList`), as upstream's do; the v2 document holds all paths and all
//! definitions, with `#/definitions/…` references. Everything is built once, on first use, and
//! kept as bytes; each v3 document's `hash` is the SHA-512 of its bytes, as upstream's is.

use super::{gnostic, groups, subresources, CLUSTER_VERBS, VERBS};
use crate::api::meta::{ResourceInfo, RESOURCES};
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha512};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

const DEFINITIONS: &str = include_str!("../openapi/definitions.json");
const V3_REF: &str = "#/components/schemas/";
const V2_REF: &str = "#/definitions/";
/// The media types of `/openapi/v2` in protobuf: the one client-go asks for, and the one
/// kube-openapi's handler also accepts and answers with (a valid MIME type: client-go parses the
/// response's `Content-Type`, and `@` is not a token character).
pub const V2_PROTOBUF_ACCEPT: &str = "com.github.proto-openapi.spec.v2@v1.0+protobuf";
pub const V2_PROTOBUF: &str = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";

const META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1";
/// Schemas every group version's document carries whether or not a path names them.
const ALWAYS: &[&str] = &["DeleteOptions", "Status", "WatchEvent", "APIResourceList"];

/// One group version's v3 document.
pub struct GroupVersionDoc {
    /// `api/v1`, `apis/apps/v1`.
    pub name: String,
    pub json: Vec<u8>,
    /// Upper-case hex SHA-512 of `json`.
    pub hash: String,
}

pub struct Docs {
    pub v3: Vec<GroupVersionDoc>,
    pub v2_json: Vec<u8>,
    pub v2_protobuf: Vec<u8>,
}

/// The documents, built on first use.
pub fn docs() -> &'static Docs {
    static DOCS: OnceLock<Docs> = OnceLock::new();
    DOCS.get_or_init(build)
}

type Gvk = (&'static str, &'static str, &'static str);

/// What an operation answers.
enum Resp {
    /// No schema (lists: kubesim publishes no `…List` definitions).
    Plain,
    Def(String),
    Text,
}

struct Op {
    method: &'static str,
    id: String,
    description: String,
    action: Option<&'static str>,
    gvk: Option<Gvk>,
    query: &'static [&'static str],
    /// Request body: definition, media types, required.
    body: Option<(String, &'static [&'static str], bool)>,
    responses: Vec<(&'static str, Resp)>,
    tag: String,
}

struct PathItem {
    path: String,
    /// `name` and `namespace` (path parameters) as the path has them; `pretty` always.
    name_of: Option<&'static str>,
    namespaced: bool,
    ops: Vec<Op>,
}

const LIST_QUERY: &[&str] = &[
    "allowWatchBookmarks",
    "continue",
    "fieldSelector",
    "labelSelector",
    "limit",
    "resourceVersion",
    "resourceVersionMatch",
    "sendInitialEvents",
    "timeoutSeconds",
    "watch",
];
const WRITE_QUERY: &[&str] = &["dryRun", "fieldManager", "fieldValidation"];
const PATCH_QUERY: &[&str] = &["dryRun", "fieldManager", "fieldValidation", "force"];
const DELETE_QUERY: &[&str] = &["dryRun", "gracePeriodSeconds", "ignoreStoreReadErrorWithClusterBreakingPotential", "orphanDependents", "propagationPolicy"];
const DELETE_COLLECTION_QUERY: &[&str] = &[
    "continue",
    "dryRun",
    "fieldSelector",
    "gracePeriodSeconds",
    "ignoreStoreReadErrorWithClusterBreakingPotential",
    "labelSelector",
    "limit",
    "orphanDependents",
    "propagationPolicy",
    "resourceVersion",
    "resourceVersionMatch",
    "sendInitialEvents",
    "timeoutSeconds",
];
const LOG_QUERY: &[&str] = &["container", "follow", "insecureSkipTLSVerifyBackend", "limitBytes", "previous", "sinceSeconds", "stream", "tailLines", "timestamps"];

/// The patch types kubesim's API server applies (server-side apply answers 415, so
/// `application/apply-patch+yaml` is not offered).
const PATCH_TYPES: &[&str] = &["application/json-patch+json", "application/merge-patch+json", "application/strategic-merge-patch+json"];
const JSON: &[&str] = &["application/json"];

fn query_type(name: &str) -> &'static str {
    match name {
        "allowWatchBookmarks" | "watch" | "sendInitialEvents" | "force" | "follow" | "previous" | "timestamps" | "orphanDependents" | "ignoreStoreReadErrorWithClusterBreakingPotential" | "insecureSkipTLSVerifyBackend" => {
            "boolean"
        }
        "limit" | "timeoutSeconds" | "gracePeriodSeconds" | "limitBytes" | "sinceSeconds" | "tailLines" => "integer",
        _ => "string",
    }
}

fn cap(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
}

/// `CoreV1`, `AppsV1`, `StorageV1` (the middle of upstream's operation ids).
fn op_prefix(group: &str, version: &str) -> String {
    let g = if group.is_empty() { "core" } else { group.split('.').next().unwrap_or(group) };
    cap(g) + &cap(version)
}

/// `core_v1`, `apps_v1`, `storage_v1` (upstream's tags).
fn tag(group: &str, version: &str) -> String {
    let g = if group.is_empty() { "core" } else { group.split('.').next().unwrap_or(group) };
    format!("{}_{}", g, version)
}

/// The definition carrying `x-kubernetes-group-version-kind` `gvk`.
fn def_of(by_gvk: &BTreeMap<(String, String, String), String>, gvk: Gvk) -> String {
    by_gvk
        .get(&(gvk.0.to_string(), gvk.1.to_string(), gvk.2.to_string()))
        .cloned()
        .unwrap_or_else(|| panic!("openapi: no definition for {:?} in definitions.json (regenerate with tools/genschema's genopenapi)", gvk))
}

/// The paths of one group version, from the resource table.
fn gv_paths(group: &'static str, version: &'static str, by_gvk: &BTreeMap<(String, String, String), String>) -> Vec<PathItem> {
    let base = if group.is_empty() { format!("/api/{}", version) } else { format!("/apis/{}/{}", group, version) };
    let prefix = op_prefix(group, version);
    let tag = tag(group, version);
    let resp = |code: &'static str, def: &str| (code, Resp::Def(def.to_string()));
    let unauthorized = || ("401", Resp::Plain);
    let mut out = vec![PathItem {
        path: format!("{}/", base),
        name_of: None,
        namespaced: false,
        ops: vec![Op {
            method: "get",
            id: format!("get{}APIResources", prefix),
            description: "get available resources".into(),
            action: None,
            gvk: None,
            query: &[],
            body: None,
            responses: vec![resp("200", &format!("{}.APIResourceList", META)), unauthorized()],
            tag: tag.clone(),
        }],
    }];
    let status_def = format!("{}.Status", META);
    let delete_options = format!("{}.DeleteOptions", META);
    let patch_def = format!("{}.Patch", META);
    for r in RESOURCES.iter().filter(|r| r.group == group && r.version == version) {
        let r: &'static ResourceInfo = r;
        let k = r.kind;
        let gvk: Gvk = (group, version, k);
        let def = def_of(by_gvk, gvk);
        let ns = if r.namespaced { "Namespaced" } else { "" };
        let coll = if r.namespaced { format!("{}/namespaces/{{namespace}}/{}", base, r.resource) } else { format!("{}/{}", base, r.resource) };
        let item = format!("{}/{{name}}", coll);
        let verbs = if r.namespaced { VERBS } else { CLUSTER_VERBS };
        let op = |method: &'static str,
                  id: String,
                  description: String,
                  action: &'static str,
                  gvk: Gvk,
                  query: &'static [&'static str],
                  body: Option<(String, &'static [&'static str], bool)>,
                  responses: Vec<(&'static str, Resp)>| Op { method, id, description, action: Some(action), gvk: Some(gvk), query, body, responses, tag: tag.clone() };
        let mut coll_ops = Vec::new();
        if verbs.contains(&"list") {
            coll_ops.push(op("get", format!("list{}{}{}", prefix, ns, k), format!("list or watch objects of kind {}", k), "list", gvk, LIST_QUERY, None, vec![("200", Resp::Plain), unauthorized()]));
        }
        if verbs.contains(&"create") {
            coll_ops.push(op(
                "post",
                format!("create{}{}{}", prefix, ns, k),
                format!("create a {}", k),
                "post",
                gvk,
                WRITE_QUERY,
                Some((def.clone(), JSON, true)),
                vec![resp("200", &def), resp("201", &def), resp("202", &def), unauthorized()],
            ));
        }
        if verbs.contains(&"deletecollection") {
            coll_ops.push(op(
                "delete",
                format!("deleteCollection{}{}{}", prefix, ns, k),
                format!("delete collection of {}", k),
                "deletecollection",
                gvk,
                DELETE_COLLECTION_QUERY,
                Some((delete_options.clone(), JSON, false)),
                vec![resp("200", &status_def), unauthorized()],
            ));
        }
        out.push(PathItem { path: coll, name_of: None, namespaced: r.namespaced, ops: coll_ops });
        let mut item_ops = Vec::new();
        if verbs.contains(&"get") {
            item_ops.push(op("get", format!("read{}{}{}", prefix, ns, k), format!("read the specified {}", k), "get", gvk, &[], None, vec![resp("200", &def), unauthorized()]));
        }
        if verbs.contains(&"update") {
            item_ops.push(op(
                "put",
                format!("replace{}{}{}", prefix, ns, k),
                format!("replace the specified {}", k),
                "put",
                gvk,
                WRITE_QUERY,
                Some((def.clone(), JSON, true)),
                vec![resp("200", &def), resp("201", &def), unauthorized()],
            ));
        }
        if verbs.contains(&"patch") {
            item_ops.push(op(
                "patch",
                format!("patch{}{}{}", prefix, ns, k),
                format!("partially update the specified {}", k),
                "patch",
                gvk,
                PATCH_QUERY,
                Some((patch_def.clone(), PATCH_TYPES, true)),
                vec![resp("200", &def), resp("201", &def), unauthorized()],
            ));
        }
        if verbs.contains(&"delete") {
            item_ops.push(op(
                "delete",
                format!("delete{}{}{}", prefix, ns, k),
                format!("delete a {}", k),
                "delete",
                gvk,
                DELETE_QUERY,
                Some((delete_options.clone(), JSON, false)),
                vec![resp("200", &status_def), resp("202", &status_def), unauthorized()],
            ));
        }
        out.push(PathItem { path: item.clone(), name_of: Some(k), namespaced: r.namespaced, ops: item_ops });
        // (the proxy subresources' connect operations are not published: kubectl never reads them)
        for (sub, sub_kind, g, v, sub_verbs) in subresources(r).into_iter().filter(|s| s.0 != "proxy") {
            let sub_gvk: Gvk = if g.is_empty() { (group, version, sub_kind) } else { (g, v, sub_kind) };
            let sub_def = def_of(by_gvk, sub_gvk);
            let cap = cap(sub);
            let what = format!("{} of the specified {}", sub, k);
            let mut ops = Vec::new();
            for verb in sub_verbs.iter() {
                ops.push(match (*verb, sub) {
                    ("get", "log") => op("get", format!("read{}{}{}{}", prefix, ns, k, cap), format!("read {}", what), "get", sub_gvk, LOG_QUERY, None, vec![("200", Resp::Text), unauthorized()]),
                    ("get", _) => op("get", format!("read{}{}{}{}", prefix, ns, k, cap), format!("read {}", what), "get", sub_gvk, &[], None, vec![resp("200", &sub_def), unauthorized()]),
                    ("update", _) => op(
                        "put",
                        format!("replace{}{}{}{}", prefix, ns, k, cap),
                        format!("replace {}", what),
                        "put",
                        sub_gvk,
                        WRITE_QUERY,
                        Some((sub_def.clone(), JSON, true)),
                        vec![resp("200", &sub_def), resp("201", &sub_def), unauthorized()],
                    ),
                    ("patch", _) => op(
                        "patch",
                        format!("patch{}{}{}{}", prefix, ns, k, cap),
                        format!("partially update {}", what),
                        "patch",
                        sub_gvk,
                        PATCH_QUERY,
                        Some((patch_def.clone(), PATCH_TYPES, true)),
                        vec![resp("200", &sub_def), resp("201", &sub_def), unauthorized()],
                    ),
                    ("create", _) => op(
                        "post",
                        format!("create{}{}{}{}", prefix, ns, k, cap),
                        format!("create {} of a {}", sub, k),
                        "post",
                        sub_gvk,
                        WRITE_QUERY,
                        Some((sub_def.clone(), JSON, true)),
                        vec![resp("200", &sub_def), resp("201", &sub_def), resp("202", &sub_def), unauthorized()],
                    ),
                    (other, _) => panic!("openapi: no operation for verb {} of {}/{}", other, r.resource, sub),
                });
            }
            out.push(PathItem { path: format!("{}/{}", item, sub), name_of: Some(k), namespaced: r.namespaced, ops });
        }
    }
    out
}

/// Which OpenAPI version a document is rendered for.
#[derive(Clone, Copy, PartialEq)]
enum Flavor {
    V3,
    V2,
}

fn reference(flavor: Flavor, def: &str) -> Value {
    json!({"$ref": format!("{}{}", if flavor == Flavor::V3 { V3_REF } else { V2_REF }, def)})
}

fn parameter(flavor: Flavor, name: &str, inn: &str, required: bool, description: Option<String>, ty: &str) -> Value {
    let mut p = json!({"name": name, "in": inn});
    if required {
        p["required"] = json!(true);
    }
    if let Some(d) = description {
        p["description"] = json!(d);
    }
    match flavor {
        Flavor::V3 => p["schema"] = json!({"type": ty, "uniqueItems": true}),
        Flavor::V2 => {
            p["type"] = json!(ty);
            p["uniqueItems"] = json!(true);
        }
    }
    p
}

fn render_paths(flavor: Flavor, items: &[PathItem]) -> Map<String, Value> {
    let mut paths = Map::new();
    for item in items {
        if item.ops.is_empty() {
            continue;
        }
        let mut pi = Map::new();
        let mut params = Vec::new();
        if let Some(kind) = item.name_of {
            params.push(parameter(flavor, "name", "path", true, Some(format!("name of the {}", kind)), "string"));
        }
        if item.namespaced {
            params.push(parameter(flavor, "namespace", "path", true, Some("object name and auth scope, such as for teams and projects".into()), "string"));
        }
        if !item.path.ends_with('/') {
            params.push(parameter(flavor, "pretty", "query", false, None, "string"));
            pi.insert("parameters".into(), Value::Array(params));
        }
        for op in &item.ops {
            pi.insert(op.method.into(), render_op(flavor, op));
        }
        paths.insert(item.path.clone(), Value::Object(pi));
    }
    paths
}

fn render_op(flavor: Flavor, op: &Op) -> Value {
    let mut o = json!({"description": op.description, "operationId": op.id, "tags": [op.tag]});
    let mut params: Vec<Value> = Vec::new();
    if let (Flavor::V2, Some((def, _, required))) = (flavor, &op.body) {
        let mut b = json!({"name": "body", "in": "body", "schema": reference(flavor, def)});
        if *required {
            b["required"] = json!(true);
        }
        params.push(b);
    }
    params.extend(op.query.iter().map(|q| parameter(flavor, q, "query", false, None, query_type(q))));
    if !params.is_empty() {
        o["parameters"] = Value::Array(params);
    }
    let mut responses = Map::new();
    for (code, r) in &op.responses {
        let description = match *code {
            "200" => "OK",
            "201" => "Created",
            "202" => "Accepted",
            _ => "Unauthorized",
        };
        let mut rv = json!({"description": description});
        match (flavor, r) {
            (_, Resp::Plain) => {}
            (Flavor::V3, Resp::Def(d)) => rv["content"] = json!({"application/json": {"schema": reference(flavor, d)}}),
            (Flavor::V2, Resp::Def(d)) => rv["schema"] = reference(flavor, d),
            (Flavor::V3, Resp::Text) => rv["content"] = json!({"text/plain": {"schema": {"type": "string"}}}),
            (Flavor::V2, Resp::Text) => rv["schema"] = json!({"type": "string"}),
        }
        responses.insert(code.to_string(), rv);
    }
    o["responses"] = Value::Object(responses);
    match flavor {
        Flavor::V3 => {
            if let Some((def, types, required)) = &op.body {
                let content: Map<String, Value> = types.iter().map(|t| (t.to_string(), json!({"schema": reference(flavor, def)}))).collect();
                o["requestBody"] = json!({"content": content});
                if *required {
                    o["requestBody"]["required"] = json!(true);
                }
            }
        }
        Flavor::V2 => {
            let consumes: &[&str] = match &op.body {
                Some((_, types, _)) if types.len() > 1 => types,
                _ => &["*/*"],
            };
            o["consumes"] = json!(consumes);
            let produces: &[&str] = if op.responses.iter().any(|(_, r)| matches!(r, Resp::Text)) { &["text/plain", "application/json"] } else { JSON };
            o["produces"] = json!(produces);
        }
    }
    if let Some(a) = op.action {
        o["x-kubernetes-action"] = json!(a);
    }
    if let Some((g, v, k)) = op.gvk {
        o["x-kubernetes-group-version-kind"] = json!({"group": g, "kind": k, "version": v});
    }
    o
}

/// The definitions a value references (`$ref`s with `prefix`), outside vendor extensions.
fn refs(v: &Value, prefix: &str, out: &mut BTreeSet<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                match (k.as_str(), x) {
                    ("$ref", Value::String(r)) => {
                        if let Some(d) = r.strip_prefix(prefix) {
                            out.insert(d.to_string());
                        }
                    }
                    (k, _) if k.starts_with("x-") => {}
                    _ => refs(x, prefix, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| refs(x, prefix, out)),
        _ => {}
    }
}

/// `roots` and every definition they reach.
fn closure(defs: &Map<String, Value>, roots: BTreeSet<String>) -> Map<String, Value> {
    let mut out = Map::new();
    let mut todo: Vec<String> = roots.into_iter().collect();
    while let Some(name) = todo.pop() {
        if out.contains_key(&name) {
            continue;
        }
        let schema = defs.get(&name).unwrap_or_else(|| panic!("openapi: {} is referenced but not in definitions.json", name));
        let mut next = BTreeSet::new();
        refs(schema, V3_REF, &mut next);
        todo.extend(next.into_iter().filter(|n| !out.contains_key(n)));
        out.insert(name, schema.clone());
    }
    out
}

/// The OpenAPI 3.0 document of a CRD group version (apiextensions-apiserver's `builder`: the
/// kind's schema as `<reversed group>.<version>.<Kind>` with `apiVersion`, `kind` and `metadata`
/// added and its group-version-kind, the ObjectMeta it references, and the paths of the
/// resource with their group-version-kind, which `kubectl explain` looks the kind up by).
pub fn custom_document(crds: &crate::apiextensions::CrdRegistry, group: &str, version: &str) -> Option<Value> {
    // ObjectMeta and what it references, taken from the definitions once
    static OBJECT_META: OnceLock<Map<String, Value>> = OnceLock::new();
    let meta_defs = OBJECT_META.get_or_init(|| match serde_json::from_str(DEFINITIONS) {
        Ok(Value::Object(defs)) => closure(&defs, ["io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta".to_string()].into_iter().collect()),
        _ => Map::new(),
    });
    let reversed: Vec<&str> = group.split('.').rev().collect();
    let mut schemas = meta_defs.clone();
    let mut paths = Map::new();
    for c in crds.crds.iter().filter(|c| c.group == group) {
        let Some(v) = c.serving(version) else { continue };
        let gvk = json!({"group": group, "version": version, "kind": c.kind});
        let def = format!("{}.{}.{}", reversed.join("."), version, c.kind);
        let metadata = json!({"description": crate::apiextensions::METADATA_DESCRIPTION, "allOf": [{"$ref": format!("{}io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta", V3_REF)}]});
        let mut schema = crate::apiextensions::published_schema(v.schema.as_deref(), metadata);
        if let Some(m) = schema.as_object_mut() {
            m.insert("x-kubernetes-group-version-kind".into(), json!([gvk]));
        }
        schemas.insert(def.clone(), schema);
        let base = if c.namespaced { format!("/apis/{}/{}/namespaces/{{namespace}}/{}", group, version, c.plural) } else { format!("/apis/{}/{}/{}", group, version, c.plural) };
        let op = |action: &str| json!({"x-kubernetes-action": action, "x-kubernetes-group-version-kind": gvk, "responses": {"200": {"description": "OK", "content": {"application/json": {"schema": {"$ref": format!("{}{}", V3_REF, def)}}}}}});
        paths.insert(base.clone(), json!({"get": op("list"), "post": op("post")}));
        paths.insert(format!("{}/{{name}}", base), json!({"get": op("get"), "put": op("put"), "patch": op("patch"), "delete": op("delete")}));
    }
    if paths.is_empty() {
        return None;
    }
    Some(json!({"openapi": "3.0.0", "info": {"title": "Kubernetes CRD Swagger", "version": "v0.1.0"}, "paths": paths, "components": {"schemas": schemas}}))
}

/// A v3 schema as Swagger 2.0 has it: `#/definitions/…` references, a described reference as a
/// `$ref` with the description beside it (not `allOf`), no `default`s, and the `oneOf` of
/// `Quantity`/`IntOrString` as the `string` upstream's v2 document gives them.
fn to_v2(schema: &Value) -> Value {
    let Some(m) = schema.as_object() else { return schema.clone() };
    let mut out = Map::new();
    let single_ref = match m.get("allOf") {
        Some(Value::Array(a)) if a.len() == 1 && a[0].get("$ref").is_some() => a[0].get("$ref").and_then(Value::as_str),
        _ => None,
    };
    for (k, v) in m {
        match k.as_str() {
            "$ref" => {
                let r = v.as_str().unwrap_or_default();
                out.insert(k.clone(), json!(r.replacen(V3_REF, V2_REF, 1)));
            }
            "allOf" if single_ref.is_some() => {
                out.insert("$ref".into(), json!(single_ref.unwrap_or_default().replacen(V3_REF, V2_REF, 1)));
            }
            "allOf" => {
                out.insert(k.clone(), Value::Array(v.as_array().map(|a| a.iter().map(to_v2).collect()).unwrap_or_default()));
            }
            "default" | "nullable" => {}
            "oneOf" => {
                out.insert("type".into(), json!("string"));
            }
            "properties" => {
                let props: Map<String, Value> = v.as_object().map(|p| p.iter().map(|(n, s)| (n.clone(), to_v2(s))).collect()).unwrap_or_default();
                out.insert(k.clone(), Value::Object(props));
            }
            "items" | "additionalProperties" => {
                out.insert(k.clone(), to_v2(v));
            }
            _ => {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    Value::Object(out)
}

/// The group versions kubesim serves with their v3 names (`api/v1`, `apis/apps/v1`).
fn group_versions() -> Vec<(String, &'static str, &'static str)> {
    let mut out = vec![("api/v1".to_string(), "", "v1")];
    for (g, v) in groups() {
        out.push((format!("apis/{}/{}", g, v), g, v));
    }
    out
}

fn build() -> Docs {
    let defs: Map<String, Value> = match serde_json::from_str(DEFINITIONS) {
        Ok(Value::Object(m)) => m,
        _ => panic!("openapi: src/serve/openapi/definitions.json is not a JSON object"),
    };
    let mut by_gvk = BTreeMap::new();
    for (name, schema) in &defs {
        for gvk in schema.get("x-kubernetes-group-version-kind").and_then(Value::as_array).into_iter().flatten() {
            let s = |k: &str| gvk.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
            by_gvk.entry((s("group"), s("version"), s("kind"))).or_insert_with(|| name.clone());
        }
    }
    let info = json!({"title": "Kubernetes", "version": crate::KUBE_VERSION});
    let mut v3 = Vec::new();
    let mut all_paths = Vec::new();
    for (name, group, version) in group_versions() {
        let items = gv_paths(group, version, &by_gvk);
        let paths = render_paths(Flavor::V3, &items);
        let mut roots = BTreeSet::new();
        refs(&Value::Object(paths.clone()), V3_REF, &mut roots);
        roots.extend(ALWAYS.iter().map(|d| format!("{}.{}", META, d)));
        let doc = json!({
            "openapi": "3.0.0",
            "info": info,
            "paths": paths,
            "components": {"schemas": closure(&defs, roots)},
        });
        let json = serde_json::to_vec(&doc).unwrap_or_default();
        let hash = Sha512::digest(&json).iter().map(|b| format!("{:02X}", b)).collect();
        v3.push(GroupVersionDoc { name, json, hash });
        all_paths.extend(items);
    }
    let definitions: Map<String, Value> = defs.iter().map(|(n, s)| (n.clone(), to_v2(s))).collect();
    let v2 = json!({
        "swagger": "2.0",
        "info": info,
        "paths": render_paths(Flavor::V2, &all_paths),
        "definitions": definitions,
    });
    Docs { v3, v2_json: serde_json::to_vec(&v2).unwrap_or_default(), v2_protobuf: gnostic::document(&v2) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(b: &[u8]) -> Value {
        serde_json::from_slice(b).expect("json")
    }

    #[test]
    fn every_served_kind_has_its_schema_in_its_group_version_document() {
        let d = docs();
        for r in RESOURCES {
            let name = if r.group.is_empty() { format!("api/{}", r.version) } else { format!("apis/{}/{}", r.group, r.version) };
            let doc = parse(&d.v3.iter().find(|g| g.name == name).expect("group version document").json);
            let schemas = doc["components"]["schemas"].as_object().expect("schemas");
            let gvk = json!({"group": r.group, "kind": r.kind, "version": r.version});
            let found = schemas.values().filter(|s| s["x-kubernetes-group-version-kind"].as_array().is_some_and(|l| l.contains(&gvk))).count();
            assert_eq!(found, 1, "{}: {}", name, r.kind);
            // the schema closure is complete
            let mut rs = BTreeSet::new();
            refs(&doc, V3_REF, &mut rs);
            assert!(rs.iter().all(|x| schemas.contains_key(x)), "{}: dangling $ref", name);
            // kubectl explain finds the GVK on the kind's collection path
            let base = if r.group.is_empty() { format!("/api/{}", r.version) } else { format!("/apis/{}/{}", r.group, r.version) };
            let coll = if r.namespaced { format!("{}/namespaces/{{namespace}}/{}", base, r.resource) } else { format!("{}/{}", base, r.resource) };
            assert_eq!(doc["paths"][&coll]["get"]["x-kubernetes-group-version-kind"], gvk, "{}", coll);
            // and kubectl apply/create find fieldValidation on its PATCH (server-side validation)
            let patch = &doc["paths"][&format!("{}/{{name}}", coll)]["patch"];
            assert!(patch["parameters"].as_array().unwrap().iter().any(|p| p["name"] == "fieldValidation" && p["in"] == "query"), "{}", coll);
        }
    }

    #[test]
    fn documents_have_upstream_shapes() {
        let d = docs();
        let apps = parse(&d.v3.iter().find(|g| g.name == "apis/apps/v1").unwrap().json);
        assert_eq!(apps["openapi"], "3.0.0");
        let s = &apps["components"]["schemas"];
        assert_eq!(s["io.k8s.api.apps.v1.Deployment"]["properties"]["spec"]["allOf"][0]["$ref"], "#/components/schemas/io.k8s.api.apps.v1.DeploymentSpec");
        assert!(s["io.k8s.api.apps.v1.Deployment"].get("required").is_none());
        let containers = &s["io.k8s.api.core.v1.PodSpec"]["properties"]["containers"];
        assert_eq!(containers["x-kubernetes-patch-merge-key"], "name");
        assert_eq!(containers["x-kubernetes-patch-strategy"], "merge");
        assert_eq!(containers["x-kubernetes-list-type"], "map");
        assert_eq!(s["io.k8s.api.autoscaling.v1.Scale"]["x-kubernetes-group-version-kind"][0]["group"], "autoscaling");
        assert!(s["io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions"]["x-kubernetes-group-version-kind"].as_array().unwrap().contains(&json!({"group": "apps", "kind": "DeleteOptions", "version": "v1"})));
        assert!(s.get("io.k8s.api.batch.v1.Job").is_none(), "apps/v1 carries no batch kinds");
        assert_eq!(d.v3.iter().find(|g| g.name == "apis/apps/v1").unwrap().hash.len(), 128);

        let v2 = parse(&d.v2_json);
        assert_eq!(v2["swagger"], "2.0");
        let spec = &v2["definitions"]["io.k8s.api.apps.v1.Deployment"]["properties"]["spec"];
        assert_eq!(spec["$ref"], "#/definitions/io.k8s.api.apps.v1.DeploymentSpec");
        assert_eq!(spec["description"], "Specification of the desired behavior of the Deployment.");
        assert_eq!(v2["definitions"]["io.k8s.apimachinery.pkg.util.intstr.IntOrString"]["type"], "string");
        assert_eq!(v2["definitions"]["io.k8s.apimachinery.pkg.util.intstr.IntOrString"]["format"], "int-or-string");
        let text = String::from_utf8_lossy(&d.v2_json);
        assert!(!text.contains("#/components/"));
        // no schema combinators (a property may be named `oneOf`: JSONSchemaProps has one)
        fn combinators(v: &Value) -> bool {
            match v {
                Value::Object(m) => m.iter().any(|(k, x)| (matches!(k.as_str(), "allOf" | "oneOf") && x.is_array()) || combinators(x)),
                Value::Array(a) => a.iter().any(combinators),
                _ => false,
            }
        }
        assert!(!combinators(&v2));
        let patch = &v2["paths"]["/apis/apps/v1/namespaces/{namespace}/deployments/{name}"]["patch"];
        assert!(patch["consumes"].as_array().unwrap().contains(&json!("application/strategic-merge-patch+json")));
        assert!(d.v2_protobuf.len() > 100_000);
    }
}
