//! apiextensions-apiserver, which runs inside kube-apiserver: CustomResourceDefinitions and the
//! custom resources they define.
//!
//! Real counterparts: `k8s.io/apiextensions-apiserver` — `pkg/apiserver/customresource_handler.go`
//! (`crdHandler`: a request for a custom resource is served when its CRD serves the version and
//! its names are accepted or it is Established, and the request's scope matches; `create` is
//! forbidden while the CRD terminates), `pkg/registry/customresource` (the strategy: validation
//! against the version's schema, `status`/`scale` subresources, printer columns through
//! `tableconvertor`), `pkg/registry/customresourcedefinition` (the CRD's own strategy and its
//! deletion with the `customresourcecleanup` finalizer), and the controllers in `pkg/controller`
//! ([`controllers`]: naming, establishing, finalizer).
//!
//! kubesim keeps the served CRDs as the API server's state ([`CrdRegistry`], rebuilt from etcd's
//! CRDs after each of their writes) and interns each served version's resource facts
//! ([`crate::api::meta::custom_info`]) so a custom resource flows through the API server's
//! generic create/update/patch/delete/list/watch paths as a built-in resource does.
//!
//! What kubesim simplifies: conversion between versions is upstream's `None` strategy only (an
//! object keeps the `apiVersion` it was written with); no conversion webhooks, no `scale`
//! subresource's label selector path, no OpenAPI publishing of a CRD's schema through `serve`.

pub mod cel;
pub mod controllers;
pub mod schema;

use crate::api::meta::{self, ResourceInfo};
use serde_json::Value;
use std::rc::Rc;

impl Column {
    /// The value the column's JSONPath (a simple `.a.b` path) finds in `obj`: what the table
    /// convertor formats by the column's type.
    pub fn value<'a>(&self, obj: &'a Value) -> Option<&'a Value> {
        let path: Vec<&str> = self.json_path.trim_start_matches('.').split('.').filter(|p| !p.is_empty()).collect();
        meta::get(obj, &path).filter(|v| !v.is_null())
    }
}

/// The schema a CRD group version's OpenAPI document publishes for its kind: the version's schema
/// with `apiVersion`, `kind` and `metadata` (given as `metadata`) added, as apiextensions-
/// apiserver's `builder` adds them.
pub fn published_schema(schema: Option<&Value>, metadata: Value) -> Value {
    let mut root = schema.cloned().unwrap_or_else(|| serde_json::json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}));
    if let Some(m) = root.as_object_mut() {
        let props = m.entry("properties").or_insert_with(|| serde_json::json!({}));
        props["apiVersion"] = serde_json::json!({"description": "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources", "type": "string"});
        props["kind"] = serde_json::json!({"description": "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds", "type": "string"});
        props["metadata"] = metadata;
    }
    root
}

/// The description of the `metadata` property [`published_schema`] adds.
pub const METADATA_DESCRIPTION: &str = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

/// A printer column (`additionalPrinterColumns[]`).
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    pub name: String,
    pub type_: String,
    pub json_path: String,
    pub priority: i64,
}

/// One version of a CRD.
#[derive(Clone, Debug, PartialEq)]
pub struct CrdVersion {
    pub name: String,
    pub served: bool,
    pub storage: bool,
    /// The resource facts requests for this version resolve to (None: the intern table is full).
    pub info: Option<&'static ResourceInfo>,
    pub schema: Option<Rc<Value>>,
    /// `additionalPrinterColumns`, or the default `Age` column (`serveDefaultColumnsIfEmpty`).
    pub columns: Vec<Column>,
    pub status_subresource: bool,
    pub scale_subresource: bool,
}

/// A CustomResourceDefinition as the API server serves it.
#[derive(Clone, Debug, PartialEq)]
pub struct Crd {
    /// `crontabs.stable.example.com`.
    pub name: String,
    pub group: String,
    pub plural: String,
    pub singular: String,
    pub kind: String,
    pub namespaced: bool,
    pub short_names: Vec<String>,
    pub categories: Vec<String>,
    pub versions: Vec<CrdVersion>,
    pub names_accepted: bool,
    pub established: bool,
    pub terminating: bool,
}

impl Crd {
    /// Builds the served state of a stored CRD (its accepted names, as the handler serves them).
    pub fn of(obj: &Value) -> Crd {
        let names = |k: &str| meta::get_str(obj, &["status", "acceptedNames", k]).to_string();
        let list = |path: &[&str]| meta::get_array(obj, path).iter().filter_map(Value::as_str).map(String::from).collect::<Vec<_>>();
        let cond = |t: &str| meta::get_array(obj, &["status", "conditions"]).iter().any(|c| meta::get_str(c, &["type"]) == t && meta::get_str(c, &["status"]) == "True");
        let group = meta::get_str(obj, &["spec", "group"]).to_string();
        let namespaced = meta::get_str(obj, &["spec", "scope"]) != "Cluster";
        let plural = names("plural");
        let singular = names("singular");
        let kind = names("kind");
        let short_names = list(&["status", "acceptedNames", "shortNames"]);
        let versions = meta::get_array(obj, &["spec", "versions"])
            .iter()
            .map(|v| {
                let name = meta::get_str(v, &["name"]).to_string();
                let info = if plural.is_empty() || kind.is_empty() { None } else { meta::custom_info(&group, &name, &plural, &singular, &kind, namespaced, &short_names) };
                let mut columns: Vec<Column> = meta::get_array(v, &["additionalPrinterColumns"])
                    .iter()
                    .map(|c| Column { name: meta::get_str(c, &["name"]).to_string(), type_: meta::get_str(c, &["type"]).to_string(), json_path: meta::get_str(c, &["jsonPath"]).to_string(), priority: meta::get_i64(c, &["priority"]).unwrap_or(0) })
                    .collect();
                if columns.is_empty() {
                    columns.push(Column { name: "Age".into(), type_: "date".into(), json_path: ".metadata.creationTimestamp".into(), priority: 0 });
                }
                CrdVersion {
                    name,
                    served: meta::get(v, &["served"]).and_then(Value::as_bool).unwrap_or(false),
                    storage: meta::get(v, &["storage"]).and_then(Value::as_bool).unwrap_or(false),
                    info,
                    schema: meta::get(v, &["schema", "openAPIV3Schema"]).filter(|s| !s.is_null()).map(|s| Rc::new(s.clone())),
                    columns,
                    status_subresource: meta::get(v, &["subresources", "status"]).map(|s| !s.is_null()).unwrap_or(false),
                    scale_subresource: meta::get(v, &["subresources", "scale"]).map(|s| !s.is_null()).unwrap_or(false),
                }
            })
            .collect();
        Crd {
            name: meta::name(obj).to_string(),
            group,
            plural,
            singular,
            kind,
            namespaced,
            short_names,
            categories: list(&["status", "acceptedNames", "categories"]),
            versions,
            names_accepted: cond("NamesAccepted"),
            established: cond("Established"),
            terminating: meta::is_deleting(obj),
        }
    }

    /// The version requests may use (`crdHandler.ServeHTTP`: served, and names accepted or
    /// Established).
    pub fn serving(&self, version: &str) -> Option<&CrdVersion> {
        if !(self.names_accepted || self.established) {
            return None;
        }
        self.versions.iter().find(|v| v.name == version && v.served && v.info.is_some())
    }

    /// The version discovery lists first (kubectl's preferred version): the storage version if
    /// it is served, else the first served one.
    pub fn preferred(&self) -> Option<&CrdVersion> {
        self.versions.iter().find(|v| v.storage && v.served).or_else(|| self.versions.iter().find(|v| v.served)).filter(|v| v.info.is_some())
    }
}

/// The CRDs the API server knows, in name order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CrdRegistry {
    pub crds: Vec<Crd>,
}

impl CrdRegistry {
    /// Rebuilt from the stored CRDs.
    pub fn rebuild(objs: &[Rc<Value>]) -> CrdRegistry {
        let mut crds: Vec<Crd> = objs.iter().map(|o| Crd::of(o)).collect();
        crds.sort_by(|a, b| a.name.cmp(&b.name));
        CrdRegistry { crds }
    }

    /// The CRD serving `group`/`plural` (its accepted plural).
    pub fn by_resource(&self, group: &str, plural: &str) -> Option<&Crd> {
        self.crds.iter().find(|c| c.group == group && c.plural == plural)
    }

    /// The CRD whose resource `info` belongs to.
    pub fn of_info(&self, info: &ResourceInfo) -> Option<&Crd> {
        self.by_resource(info.group, info.resource)
    }

    /// The served version for a resource's facts.
    pub fn version_of(&self, info: &ResourceInfo) -> Option<&CrdVersion> {
        self.of_info(info)?.versions.iter().find(|v| v.name == info.version)
    }

    /// What discovery lists: each Established-or-accepted CRD's preferred version's facts.
    pub fn discovered(&self) -> Vec<(&Crd, &'static ResourceInfo)> {
        self.crds.iter().filter(|c| c.names_accepted || c.established).filter_map(|c| Some((c, c.preferred()?.info?))).collect()
    }

    /// kubectl's RESTMapper over discovery: a custom resource by any name kubectl accepts —
    /// plural, singular, short name, kind, or `plural.group`.
    pub fn lookup(&self, name: &str) -> Option<&'static ResourceInfo> {
        self.discovered().into_iter().map(|(_, info)| info).find(|info| info.answers_to(name))
    }

    /// The REST mapper's `apiVersion` + `kind`.
    pub fn by_kind(&self, api_version: &str, kind: &str) -> Option<&'static ResourceInfo> {
        let (group, version) = api_version.split_once('/')?;
        let c = self.crds.iter().find(|c| c.group == group && c.kind == kind)?;
        c.serving(version)?.info
    }

    /// The resources in a category (`kubectl get all` asks for `all`).
    pub fn in_category(&self, category: &str) -> Vec<&'static ResourceInfo> {
        self.discovered().into_iter().filter(|(c, _)| c.categories.iter().any(|x| x == category)).map(|(_, i)| i).collect()
    }
}
