//! genopenapi: writes the OpenAPI schemas `kubesim serve` publishes at `/openapi/v2` and
//! `/openapi/v3/...` (`src/serve/openapi/definitions.json`).
//!
//! Source of truth, as for `genschema`: the OpenAPI schemas of the `k8s-openapi` crate (feature
//! `v1_34`, generated from the upstream v1.34 OpenAPI spec), walked through its `schemars` impls
//! with schemars' OpenAPI 3.0 settings. That gives upstream's definition names
//! (`io.k8s.api.apps.v1.Deployment`), descriptions, types, formats, required fields and
//! `#/components/schemas/...` references (a reference with a description is wrapped in `allOf`,
//! as the v1.34 kube-apiserver serves its v3 documents). The generator then
//!
//! - puts back what k8s-openapi changed (see [`fix_up`]): `metadata` is not required upstream
//!   (but in core/v1 Event), and neither is `name` in the `LocalObjectReference`-like selectors
//!   (`NOT_REQUIRED`); the `WatchEvent` text goes back to its `object` property; `Quantity` and
//!   `IntOrString` become the `oneOf` schemas upstream's v3 documents carry;
//! - adds `x-kubernetes-group-version-kind` to each kind from k8s-openapi's `Resource` impls, and
//!   to `DeleteOptions`/`WatchEvent` (every group version kubesim serves), `Status` and
//!   `APIResourceList` as upstream lists them;
//! - adds the extensions k8s-openapi does not carry in its schemas (`x-kubernetes-list-type`,
//!   `x-kubernetes-list-map-keys`, `x-kubernetes-patch-strategy`, `x-kubernetes-patch-merge-key`,
//!   `x-kubernetes-map-type`, `x-kubernetes-unions`, and `default` when the source has it) from
//!   the checked-in table `openapi_extensions.json`, which `--extract-extensions` cuts out of an
//!   upstream v1.34 definitions file. Every entry must name a definition and property that
//!   exist, so a version bump cannot leave the table silently stale.
//!
//! The server (`src/serve/discovery.rs`) assembles each group version's v3 document from this one
//! file at start-up (paths from kubesim's resource table, then the closure of the `$ref`s) and
//! converts it to Swagger 2.0 for `/openapi/v2`.
//!
//! Usage (from `tools/genschema`):
//!
//!     cargo run --release --bin genopenapi -- ../../src/serve/openapi
//!     cargo run --release --bin genopenapi -- --extract-extensions UPSTREAM.json > openapi_extensions.json

use k8s_openapi::api::{
    apps::v1 as apps, authentication::v1 as authentication, authorization::v1 as authorization, autoscaling::v1 as autoscaling, batch::v1 as batch, coordination::v1 as coordination, core::v1 as core, discovery::v1 as discovery, networking::v1 as networking, policy::v1 as policy, rbac::v1 as rbac, scheduling::v1 as scheduling,
    storage::v1 as storage,
};
use k8s_openapi::api::autoscaling::v2 as autoscalingv2;
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1 as apiextensions;
use k8s_openapi::kube_aggregator::pkg::apis::apiregistration::v1 as apiregistration;
use k8s_openapi::apimachinery::pkg::apis::meta::v1 as meta;
use k8s_openapi::Resource;
use schemars::{generate::SchemaSettings, SchemaGenerator};
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

const REF_PREFIX: &str = "#/components/schemas/";

/// The overlay of upstream extensions (see the module docs), next to this crate's Cargo.toml.
const EXTENSIONS: &str = include_str!("../../openapi_extensions.json");

/// Extensions (and `default`) `--extract-extensions` keeps. The group-version-kind list is
/// generated, and the int-or-string/embedded/preserve-unknown markers k8s-openapi already has.
const KEPT: &[&str] = &[
    "x-kubernetes-list-type",
    "x-kubernetes-list-map-keys",
    "x-kubernetes-patch-strategy",
    "x-kubernetes-patch-merge-key",
    "x-kubernetes-map-type",
    "x-kubernetes-unions",
    "default",
];

/// Fields k8s-openapi marks required (it gives them a non-`Option` Rust type) that upstream's
/// v1.34 schemas do not list in `required`: (definition, field).
const NOT_REQUIRED: &[(&str, &str)] = &[
    ("io.k8s.api.core.v1.ConfigMapEnvSource", "name"),
    ("io.k8s.api.core.v1.ConfigMapKeySelector", "name"),
    ("io.k8s.api.core.v1.ConfigMapProjection", "name"),
    ("io.k8s.api.core.v1.ConfigMapVolumeSource", "name"),
    ("io.k8s.api.core.v1.LocalObjectReference", "name"),
    ("io.k8s.api.core.v1.SecretEnvSource", "name"),
    ("io.k8s.api.core.v1.SecretKeySelector", "name"),
    ("io.k8s.api.core.v1.SecretProjection", "name"),
];

/// The one schema among kubesim's whose `metadata` upstream requires (core/v1 Event's Go field
/// has no `omitempty`); k8s-openapi requires `metadata` of every resource.
const METADATA_REQUIRED: &[&str] = &["io.k8s.api.core.v1.Event"];

/// A root definition: its name and the group-version-kinds upstream tags it with.
struct Root {
    name: String,
    gvks: Vec<(String, String, String)>,
    /// One of the kinds kubesim serves (`RESOURCES` in src/api/meta.rs).
    served: bool,
}

fn kind<T: Resource + schemars::JsonSchema>(g: &mut SchemaGenerator, served: bool) -> Root {
    let _ = g.subschema_for::<T>();
    Root { name: T::schema_name().into_owned(), gvks: vec![(T::GROUP.to_string(), T::VERSION.to_string(), T::KIND.to_string())], served }
}

fn other<T: schemars::JsonSchema>(g: &mut SchemaGenerator) -> Root {
    let _ = g.subschema_for::<T>();
    Root { name: T::schema_name().into_owned(), gvks: Vec::new(), served: false }
}

/// Every definition kubesim publishes: the kinds it serves, the kinds of the subresources it
/// serves (`pods/binding`, `*/scale`), and the meta types its operations use.
fn generate() -> (Vec<Root>, BTreeMap<String, Value>) {
    let mut g = SchemaGenerator::new(SchemaSettings::openapi3());
    let mut roots = vec![
        kind::<core::Namespace>(&mut g, true),
        kind::<core::Node>(&mut g, true),
        kind::<core::Pod>(&mut g, true),
        kind::<core::Event>(&mut g, true),
        kind::<apps::Deployment>(&mut g, true),
        kind::<apps::ReplicaSet>(&mut g, true),
        kind::<coordination::Lease>(&mut g, true),
        kind::<core::Service>(&mut g, true),
        kind::<core::Endpoints>(&mut g, true),
        kind::<apps::DaemonSet>(&mut g, true),
        kind::<apps::ControllerRevision>(&mut g, true),
        kind::<batch::Job>(&mut g, true),
        kind::<batch::CronJob>(&mut g, true),
        kind::<apps::StatefulSet>(&mut g, true),
        kind::<core::PersistentVolumeClaim>(&mut g, true),
        kind::<core::PersistentVolume>(&mut g, true),
        kind::<storage::StorageClass>(&mut g, true),
        kind::<scheduling::PriorityClass>(&mut g, true),
        kind::<core::ResourceQuota>(&mut g, true),
        kind::<discovery::EndpointSlice>(&mut g, true),
        kind::<core::ConfigMap>(&mut g, true),
        kind::<core::Secret>(&mut g, true),
        kind::<core::ServiceAccount>(&mut g, true),
        kind::<rbac::Role>(&mut g, true),
        kind::<rbac::ClusterRole>(&mut g, true),
        kind::<rbac::RoleBinding>(&mut g, true),
        kind::<rbac::ClusterRoleBinding>(&mut g, true),
        kind::<core::ReplicationController>(&mut g, true),
        kind::<networking::Ingress>(&mut g, true),
        kind::<networking::IngressClass>(&mut g, true),
        kind::<networking::NetworkPolicy>(&mut g, true),
        kind::<policy::PodDisruptionBudget>(&mut g, true),
        kind::<policy::Eviction>(&mut g, false),
        kind::<autoscalingv2::HorizontalPodAutoscaler>(&mut g, true),
        kind::<apiregistration::APIService>(&mut g, true),
        kind::<apiextensions::CustomResourceDefinition>(&mut g, true),
        kind::<core::Binding>(&mut g, false),
        kind::<authentication::TokenRequest>(&mut g, false),
        kind::<authentication::SelfSubjectReview>(&mut g, false),
        kind::<authorization::SelfSubjectAccessReview>(&mut g, false),
        kind::<authorization::SubjectAccessReview>(&mut g, false),
        kind::<authorization::LocalSubjectAccessReview>(&mut g, false),
        kind::<authorization::SelfSubjectRulesReview>(&mut g, false),
        kind::<autoscaling::Scale>(&mut g, false),
        other::<meta::DeleteOptions>(&mut g),
        other::<meta::Status>(&mut g),
        other::<meta::WatchEvent<core::Pod>>(&mut g),
        other::<meta::APIResourceList>(&mut g),
        other::<meta::Patch>(&mut g),
    ];
    // The group versions kubesim serves, "" (core) first, as upstream orders its lists.
    let served: BTreeSet<(String, String)> = roots.iter().filter(|r| r.served).map(|r| (r.gvks[0].0.clone(), r.gvks[0].1.clone())).collect();
    for r in roots.iter_mut() {
        let short = r.name.rsplit('.').next().unwrap_or_default().to_string();
        match short.as_str() {
            "DeleteOptions" | "WatchEvent" => r.gvks = served.iter().map(|(g, v)| (g.clone(), v.clone(), short.clone())).collect(),
            "Status" | "APIResourceList" => r.gvks = vec![(String::new(), "v1".into(), short)],
            _ => {}
        }
    }
    let defs: BTreeMap<String, Value> = g.take_definitions(true).into_iter().collect();
    (roots, defs)
}

fn referenced(schema: &Value, out: &mut BTreeSet<String>) {
    match schema {
        Value::Object(m) => {
            for (k, v) in m {
                match (k.as_str(), v) {
                    ("$ref", Value::String(r)) => {
                        out.insert(r.strip_prefix(REF_PREFIX).unwrap_or_else(|| panic!("unexpected $ref {r}")).to_string());
                    }
                    _ => referenced(v, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|v| referenced(v, out)),
        _ => {}
    }
}

fn obj<'a>(defs: &'a mut BTreeMap<String, Value>, name: &str) -> &'a mut Map<String, Value> {
    defs.get_mut(name).and_then(Value::as_object_mut).unwrap_or_else(|| panic!("no definition {name}"))
}

fn remove_required(schema: &mut Map<String, Value>, field: &str) -> bool {
    let Some(Value::Array(req)) = schema.get_mut("required") else { return false };
    let before = req.len();
    req.retain(|f| f != field);
    let removed = req.len() != before;
    if req.is_empty() {
        schema.remove("required");
    }
    removed
}

/// Puts back what k8s-openapi changed in upstream's schemas (see the module docs).
fn fix_up(defs: &mut BTreeMap<String, Value>) {
    // `metadata` is optional in upstream's schemas but METADATA_REQUIRED; k8s-openapi requires it
    // of its resources.
    for (name, schema) in defs.iter_mut() {
        let m = schema.as_object_mut().expect("schema object");
        let is_meta = m.get("properties").and_then(|p| p.get("metadata")).is_some_and(|md| {
            let mut refs = BTreeSet::new();
            referenced(md, &mut refs);
            refs.iter().any(|r| r.ends_with(".ObjectMeta") || r.ends_with(".ListMeta"))
        });
        if is_meta && METADATA_REQUIRED.contains(&name.as_str()) {
            assert!(m.get("required").and_then(Value::as_array).is_some_and(|r| r.contains(&json!("metadata"))), "{name}: metadata expected required");
        } else if is_meta {
            remove_required(m, "metadata");
        }
    }
    for (def, field) in NOT_REQUIRED {
        assert!(remove_required(obj(defs, def), field), "NOT_REQUIRED: {def}.{field} is not required (any more): drop the entry");
    }
    // WatchEvent: k8s-openapi moved the description of `object` into the type's.
    let we = obj(defs, "io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent");
    let desc = we.get("description").and_then(Value::as_str).expect("WatchEvent description").to_string();
    let (head, object) = desc.split_once("\n\n").expect("WatchEvent description with the object paragraph");
    we.insert("description".into(), json!(head));
    let object_schema = we.get_mut("properties").and_then(|p| p.get_mut("object")).and_then(Value::as_object_mut).expect("WatchEvent.object");
    let r = object_schema.remove("$ref").expect("WatchEvent.object $ref");
    object_schema.insert("allOf".into(), json!([{"$ref": r}]));
    object_schema.insert("description".into(), json!(object.trim_end()));
    // apiextensions/v1's JSON and its unions: upstream's schemas give only their description
    // (their custom marshalling accepts any JSON the union allows); k8s-openapi spells a `oneOf`
    for def in ["JSON", "JSONSchemaPropsOrArray", "JSONSchemaPropsOrBool", "JSONSchemaPropsOrStringArray"] {
        let m = obj(defs, &format!("io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.{def}"));
        m.retain(|k, _| k == "description");
    }
    // Quantity and IntOrString: k8s-openapi marks them x-kubernetes-int-or-string; upstream's v3
    // documents give the JSON types they accept.
    for (def, one_of, format) in [
        ("io.k8s.apimachinery.pkg.api.resource.Quantity", json!([{"type": "string"}, {"type": "number"}]), None),
        ("io.k8s.apimachinery.pkg.util.intstr.IntOrString", json!([{"type": "integer"}, {"type": "string"}]), Some("int-or-string")),
    ] {
        let m = obj(defs, def);
        assert_eq!(m.remove("x-kubernetes-int-or-string"), Some(Value::Bool(true)), "{def}: expected x-kubernetes-int-or-string");
        m.insert("oneOf".into(), one_of);
        if let Some(f) = format {
            m.insert("format".into(), json!(f));
        }
    }
}

/// Adds the overlay's extensions; panics on an entry that names nothing.
fn apply_extensions(defs: &mut BTreeMap<String, Value>, overlay: &Value) {
    let overlay = overlay.as_object().expect("openapi_extensions.json: an object");
    for (def, ext) in overlay {
        let schema = defs.get_mut(def).and_then(Value::as_object_mut).unwrap_or_else(|| panic!("openapi_extensions.json: no definition {def}"));
        for (k, v) in ext.as_object().expect("extension object") {
            if k == "properties" {
                for (prop, pext) in v.as_object().expect("properties object") {
                    let p = schema
                        .get_mut("properties")
                        .and_then(|ps| ps.get_mut(prop))
                        .and_then(Value::as_object_mut)
                        .unwrap_or_else(|| panic!("openapi_extensions.json: no property {def}.{prop}"));
                    for (pk, pv) in pext.as_object().expect("property extensions") {
                        assert!(KEPT.contains(&pk.as_str()), "openapi_extensions.json: unexpected key {pk} at {def}.{prop}");
                        p.insert(pk.clone(), pv.clone());
                    }
                }
            } else {
                assert!(KEPT.contains(&k.as_str()), "openapi_extensions.json: unexpected key {k} at {def}");
                schema.insert(k.clone(), v.clone());
            }
        }
    }
}

/// The definitions of an upstream file: Swagger 2.0 (`definitions`), OpenAPI 3 (`components.schemas`)
/// or a JSON Schema bundle (`$defs`, as kubernetes-validate ships them).
fn upstream_definitions(doc: &Value) -> &Map<String, Value> {
    doc.get("definitions")
        .or_else(|| doc.get("components").and_then(|c| c.get("schemas")))
        .or_else(|| doc.get("$defs"))
        .and_then(Value::as_object)
        .expect("an upstream file with definitions, components.schemas or $defs")
}

fn kept(schema: &Map<String, Value>) -> Map<String, Value> {
    schema.iter().filter(|(k, _)| KEPT.contains(&k.as_str())).map(|(k, v)| (k.clone(), v.clone())).collect()
}

/// `--extract-extensions UPSTREAM.json`: the overlay table for the definitions kubesim publishes.
fn extract(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let doc: Value = serde_json::from_str(&text).expect("upstream JSON");
    let up = upstream_definitions(&doc);
    let (_, defs) = generate();
    let mut out = Map::new();
    for (name, ours) in &defs {
        let u = up.get(name).and_then(Value::as_object).unwrap_or_else(|| panic!("{name} missing upstream"));
        let mut entry = kept(u);
        let mut props = Map::new();
        if let Some(Value::Object(ups)) = u.get("properties") {
            for (p, ps) in ups {
                let ext = kept(ps.as_object().expect("property object"));
                if ext.is_empty() {
                    continue;
                }
                assert!(ours.get("properties").and_then(|o| o.get(p)).is_some(), "upstream {name}.{p} has extensions but k8s-openapi has no such property");
                props.insert(p.clone(), Value::Object(ext));
            }
        }
        if !props.is_empty() {
            entry.insert("properties".into(), Value::Object(props));
        }
        if !entry.is_empty() {
            out.insert(name.clone(), Value::Object(entry));
        }
    }
    Value::Object(out)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [flag, upstream] if flag == "--extract-extensions" => {
            println!("{}", serde_json::to_string_pretty(&extract(Path::new(upstream))).expect("json"));
        }
        [out_dir] if !out_dir.starts_with('-') => write(Path::new(out_dir)),
        _ => {
            eprintln!("usage: genopenapi OUT_DIR | genopenapi --extract-extensions UPSTREAM.json");
            std::process::exit(2);
        }
    }
}

fn write(out_dir: &Path) {
    let (roots, mut defs) = generate();
    fix_up(&mut defs);
    apply_extensions(&mut defs, &serde_json::from_str(EXTENSIONS).expect("openapi_extensions.json"));
    for r in &roots {
        let list: Vec<Value> = r.gvks.iter().map(|(g, v, k)| json!({"group": g, "kind": k, "version": v})).collect();
        if !list.is_empty() {
            obj(&mut defs, &r.name).insert("x-kubernetes-group-version-kind".into(), Value::Array(list));
        }
    }
    // Every reference resolves.
    for (name, schema) in &defs {
        let mut refs = BTreeSet::new();
        referenced(schema, &mut refs);
        for r in refs {
            assert!(defs.contains_key(&r), "{name} refers to {r}, which is not generated");
        }
    }
    std::fs::create_dir_all(out_dir).expect("creating the output directory");
    let file = out_dir.join("definitions.json");
    let text = serde_json::to_string(&defs).expect("json");
    std::fs::write(&file, &text).unwrap_or_else(|e| panic!("writing {}: {e}", file.display()));
    eprintln!(
        "genopenapi: {} definitions ({} kinds) -> {} ({} bytes)",
        defs.len(),
        roots.iter().filter(|r| r.served).count(),
        file.display(),
        text.len()
    );
}
