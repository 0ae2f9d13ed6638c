//! The builtin transformers a kustomization's fields configure, in kustomize's order.
//!
//! Upstream: kustomize `api/internal/target/kusttarget_configplugin.go` (the order:
//! PatchStrategicMerge, Patch, Namespace, Prefix, Suffix, Label, Annotations, PatchJson6902,
//! ReplicaCount, ImageTag), the filters in `api/filters/` and the field specs of
//! `api/internal/konfig/builtinpluginconsts/` (`commonlabels.go`, `metadatalabels.go`,
//! `commonannotations.go`, `namespace.go`). A field spec's path walks through lists (every
//! element) and is created only where kustomize's spec says `create: true`.

use super::{patches, string_map, Fs, Resource};
use serde_json::{Map, Value};

/// A field spec: a path, whether to create it, and the kinds it applies to (group, kind).
struct Spec {
    path: &'static str,
    create: bool,
    group: Option<&'static str>,
    kind: Option<&'static str>,
}

const fn spec(path: &'static str, create: bool, group: Option<&'static str>, kind: Option<&'static str>) -> Spec {
    Spec { path, create, group, kind }
}

const APPS: Option<&str> = Some("apps");

/// `metadataLabelsFieldSpecs`: metadata and Pod templates.
const TEMPLATE_LABELS: &[Spec] = &[
    spec("spec/template/metadata/labels", true, Some(""), Some("ReplicationController")),
    spec("spec/template/metadata/labels", true, None, Some("Deployment")),
    spec("spec/template/metadata/labels", true, None, Some("ReplicaSet")),
    spec("spec/template/metadata/labels", true, None, Some("DaemonSet")),
    spec("spec/template/metadata/labels", true, APPS, Some("StatefulSet")),
    spec("spec/template/metadata/labels", true, Some("batch"), Some("Job")),
    spec("spec/jobTemplate/metadata/labels", true, Some("batch"), Some("CronJob")),
    spec("spec/jobTemplate/spec/template/metadata/labels", true, Some("batch"), Some("CronJob")),
];

/// `commonLabelFieldSpecs` beside the metadata ones: the selectors.
const SELECTOR_LABELS: &[Spec] = &[
    spec("spec/selector", true, Some(""), Some("Service")),
    spec("spec/selector", true, Some(""), Some("ReplicationController")),
    spec("spec/selector/matchLabels", true, None, Some("Deployment")),
    spec("spec/template/spec/affinity/podAffinity/preferredDuringSchedulingIgnoredDuringExecution/podAffinityTerm/labelSelector/matchLabels", false, APPS, Some("Deployment")),
    spec("spec/template/spec/affinity/podAffinity/requiredDuringSchedulingIgnoredDuringExecution/labelSelector/matchLabels", false, APPS, Some("Deployment")),
    spec("spec/template/spec/affinity/podAntiAffinity/preferredDuringSchedulingIgnoredDuringExecution/podAffinityTerm/labelSelector/matchLabels", false, APPS, Some("Deployment")),
    spec("spec/template/spec/affinity/podAntiAffinity/requiredDuringSchedulingIgnoredDuringExecution/labelSelector/matchLabels", false, APPS, Some("Deployment")),
    spec("spec/template/spec/topologySpreadConstraints/labelSelector/matchLabels", false, APPS, Some("Deployment")),
    spec("spec/selector/matchLabels", true, None, Some("ReplicaSet")),
    spec("spec/selector/matchLabels", true, None, Some("DaemonSet")),
    spec("spec/selector/matchLabels", true, APPS, Some("StatefulSet")),
    spec("spec/template/spec/affinity/podAffinity/preferredDuringSchedulingIgnoredDuringExecution/podAffinityTerm/labelSelector/matchLabels", false, APPS, Some("StatefulSet")),
    spec("spec/template/spec/affinity/podAffinity/requiredDuringSchedulingIgnoredDuringExecution/labelSelector/matchLabels", false, APPS, Some("StatefulSet")),
    spec("spec/template/spec/affinity/podAntiAffinity/preferredDuringSchedulingIgnoredDuringExecution/podAffinityTerm/labelSelector/matchLabels", false, APPS, Some("StatefulSet")),
    spec("spec/template/spec/affinity/podAntiAffinity/requiredDuringSchedulingIgnoredDuringExecution/labelSelector/matchLabels", false, APPS, Some("StatefulSet")),
    spec("spec/template/spec/topologySpreadConstraints/labelSelector/matchLabels", false, APPS, Some("StatefulSet")),
    spec("spec/selector/matchLabels", false, Some("batch"), Some("Job")),
    spec("spec/jobTemplate/spec/selector/matchLabels", false, Some("batch"), Some("CronJob")),
    spec("spec/selector/matchLabels", false, Some("policy"), Some("PodDisruptionBudget")),
    spec("spec/podSelector/matchLabels", false, Some("networking.k8s.io"), Some("NetworkPolicy")),
    spec("spec/ingress/from/podSelector/matchLabels", false, Some("networking.k8s.io"), Some("NetworkPolicy")),
    spec("spec/egress/to/podSelector/matchLabels", false, Some("networking.k8s.io"), Some("NetworkPolicy")),
];

/// `commonAnnotationFieldSpecs` beside metadata: the Pod templates.
const TEMPLATE_ANNOTATIONS: &[Spec] = &[
    spec("spec/template/metadata/annotations", true, Some(""), Some("ReplicationController")),
    spec("spec/template/metadata/annotations", true, None, Some("Deployment")),
    spec("spec/template/metadata/annotations", true, None, Some("ReplicaSet")),
    spec("spec/template/metadata/annotations", true, None, Some("DaemonSet")),
    spec("spec/template/metadata/annotations", true, None, Some("StatefulSet")),
    spec("spec/template/metadata/annotations", true, Some("batch"), Some("Job")),
    spec("spec/jobTemplate/metadata/annotations", true, Some("batch"), Some("CronJob")),
    spec("spec/jobTemplate/spec/template/metadata/annotations", true, Some("batch"), Some("CronJob")),
];

const METADATA_LABELS: Spec = spec("metadata/labels", true, None, None);
const METADATA_ANNOTATIONS: Spec = spec("metadata/annotations", true, None, None);

pub(super) fn run(fs: Fs, dir: &str, k: &Value, acc: &mut Vec<Resource>) -> Result<(), String> {
    patches::strategic_merge_files(fs, dir, k, acc)?;
    patches::patches(fs, dir, k, acc)?;
    if let Some(ns) = k.get("namespace").and_then(Value::as_str).filter(|n| !n.is_empty()) {
        namespace(acc, ns);
    }
    let prefix = k.get("namePrefix").and_then(Value::as_str).unwrap_or("");
    let suffix = k.get("nameSuffix").and_then(Value::as_str).unwrap_or("");
    if !prefix.is_empty() || !suffix.is_empty() {
        for r in acc.iter_mut().filter(|r| !skips_name_affixes(r)) {
            let name = format!("{}{}{}", prefix, r.name(), suffix);
            r.set_name(&name);
        }
    }
    // `labels` (each entry with its own reach), then `commonLabels` (selectors and templates)
    if let Some(list) = k.get("labels").and_then(Value::as_array) {
        for l in list {
            let pairs = string_map(l.get("pairs"), "Label.pairs")?;
            let selectors = l.get("includeSelectors").and_then(Value::as_bool).unwrap_or(false);
            let templates = l.get("includeTemplates").and_then(Value::as_bool).unwrap_or(false);
            let mut specs: Vec<&Spec> = vec![&METADATA_LABELS];
            if selectors {
                specs.extend(SELECTOR_LABELS.iter().chain(TEMPLATE_LABELS));
            } else if templates {
                specs.extend(TEMPLATE_LABELS);
            }
            set_map_entries(acc, &specs, &pairs);
        }
    }
    let common = string_map(k.get("commonLabels"), "Kustomization.commonLabels")?;
    if !common.is_empty() {
        let specs: Vec<&Spec> = std::iter::once(&METADATA_LABELS).chain(SELECTOR_LABELS).chain(TEMPLATE_LABELS).collect();
        set_map_entries(acc, &specs, &common);
    }
    let annotations = string_map(k.get("commonAnnotations"), "Kustomization.commonAnnotations")?;
    if !annotations.is_empty() {
        let specs: Vec<&Spec> = std::iter::once(&METADATA_ANNOTATIONS).chain(TEMPLATE_ANNOTATIONS).collect();
        set_map_entries(acc, &specs, &annotations);
    }
    patches::json6902_files(fs, dir, k, acc)?;
    replicas(k, acc)?;
    images(k, acc)?;
    Ok(())
}

/// The prefix/suffix transformer leaves CRDs and Namespaces' names alone (its field spec is
/// `metadata/name` of every kind but these).
fn skips_name_affixes(r: &Resource) -> bool {
    matches!(r.kind(), "CustomResourceDefinition" | "Namespace" | "APIService")
}

/// Whether a resource kind is cluster-scoped (the namespace transformer leaves those).
pub(super) fn cluster_scoped(r: &Resource) -> bool {
    let av = r.obj.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    match crate::api::meta::by_kind(av, r.kind()) {
        Some(info) => !info.namespaced,
        None => matches!(r.kind(), "Namespace" | "ClusterRole" | "ClusterRoleBinding" | "CustomResourceDefinition" | "PersistentVolume" | "StorageClass" | "Node" | "PriorityClass" | "IngressClass" | "ValidatingWebhookConfiguration" | "MutatingWebhookConfiguration" | "APIService"),
    }
}

/// `api/filters/namespace`: metadata.namespace of every namespaced resource, and the
/// subjects named `default` of role bindings (`DefaultSubjectsOnly`).
fn namespace(acc: &mut [Resource], ns: &str) {
    for r in acc.iter_mut() {
        if matches!(r.kind(), "RoleBinding" | "ClusterRoleBinding") {
            if let Some(subjects) = r.obj.get_mut("subjects").and_then(Value::as_array_mut) {
                for s in subjects.iter_mut() {
                    if s.get("name").and_then(Value::as_str) == Some("default") {
                        s["namespace"] = Value::String(ns.to_string());
                    }
                }
            }
        }
        if !cluster_scoped(r) {
            r.set_namespace(ns);
        }
    }
}

/// Whether a field spec applies to a resource (its group and kind, when the spec names them).
fn applies(s: &Spec, r: &Resource) -> bool {
    let (g, _) = r.group_version();
    s.kind.is_none_or(|k| k == r.kind()) && s.group.is_none_or(|sg| sg == g)
}

/// Sets `pairs` in the maps every applicable spec's path reaches.
fn set_map_entries(acc: &mut [Resource], specs: &[&Spec], pairs: &[(String, String)]) {
    for r in acc.iter_mut() {
        let chosen: Vec<&&Spec> = specs.iter().filter(|s| applies(s, r)).collect();
        for s in chosen {
            let path: Vec<&str> = s.path.split('/').collect();
            visit(&mut r.obj, &path, s.create, &mut |m| {
                if !m.is_object() {
                    *m = Value::Object(Map::new());
                }
                let map = m.as_object_mut().expect("object");
                for (k, v) in pairs {
                    map.insert(k.clone(), Value::String(v.clone()));
                }
            });
        }
    }
}

/// Calls `f` on the value at `path` (walking every element of a list on the way), creating
/// missing maps when `create` says so.
fn visit(v: &mut Value, path: &[&str], create: bool, f: &mut dyn FnMut(&mut Value)) {
    if let Value::Array(items) = v {
        for item in items {
            visit(item, path, create, f);
        }
        return;
    }
    let Some((first, rest)) = path.split_first() else {
        f(v);
        return;
    };
    let Value::Object(m) = v else { return };
    if !m.contains_key(*first) || m.get(*first).is_some_and(Value::is_null) {
        if !create {
            return;
        }
        m.insert(first.to_string(), Value::Object(Map::new()));
    }
    visit(m.get_mut(*first).expect("inserted"), rest, create, f);
}

/// `replicas`: `spec.replicas` of the resources with that name.
fn replicas(k: &Value, acc: &mut [Resource]) -> Result<(), String> {
    let Some(list) = k.get("replicas").and_then(Value::as_array) else { return Ok(()) };
    for rep in list {
        let name = rep.get("name").and_then(Value::as_str).unwrap_or("");
        let count = rep.get("count").and_then(Value::as_i64).ok_or_else(|| format!("replicas: the entry for '{}' needs a count", name))?;
        let mut found = false;
        for r in acc.iter_mut().filter(|r| r.was_named(name)) {
            if matches!(r.kind(), "Deployment" | "ReplicaSet" | "StatefulSet" | "ReplicationController") || r.obj.pointer("/spec/replicas").is_some() {
                super::set_path(&mut r.obj, &["spec", "replicas"], Value::from(count));
                found = true;
            }
        }
        if !found {
            return Err(format!("resource with name {} does not match a config with the following GVK [apps_v1_Deployment apps_v1_ReplicaSet apps_v1_StatefulSet v1_ReplicationController]", name));
        }
    }
    Ok(())
}

/// `images`: every container's and init container's image whose name matches (`api/filters/imagetag`).
fn images(k: &Value, acc: &mut [Resource]) -> Result<(), String> {
    let Some(list) = k.get("images").and_then(Value::as_array) else { return Ok(()) };
    for img in list {
        let name = img.get("name").and_then(Value::as_str).unwrap_or("");
        let new_name = img.get("newName").and_then(Value::as_str);
        let new_tag = img.get("newTag").map(|t| match t {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        });
        let digest = img.get("digest").and_then(Value::as_str);
        for r in acc.iter_mut() {
            set_images(&mut r.obj, &mut |image: &str| {
                let (repo, tag, dig) = split_image(image);
                if repo != name {
                    return None;
                }
                let repo = new_name.unwrap_or(repo);
                Some(match (digest, &new_tag) {
                    (Some(d), _) => format!("{}@{}", repo, d),
                    (None, Some(t)) => format!("{}:{}", repo, t),
                    (None, None) => match (tag, dig) {
                        (_, Some(d)) => format!("{}@{}", repo, d),
                        (Some(t), None) => format!("{}:{}", repo, t),
                        (None, None) => repo.to_string(),
                    },
                })
            });
        }
    }
    Ok(())
}

/// `nginx:1.25` → ("nginx", Some("1.25"), None); `reg:5000/app@sha256:…` → ("reg:5000/app", None, Some(…)).
fn split_image(image: &str) -> (&str, Option<&str>, Option<&str>) {
    let (rest, digest) = match image.split_once('@') {
        Some((r, d)) => (r, Some(d)),
        None => (image, None),
    };
    let slash = rest.rfind('/').map(|i| i + 1).unwrap_or(0);
    match rest[slash..].rfind(':') {
        Some(i) => (&rest[..slash + i], Some(&rest[slash + i + 1..]), digest),
        None => (rest, None, digest),
    }
}

/// Calls `f` on every `containers[].image` and `initContainers[].image` anywhere in `v`.
fn set_images(v: &mut Value, f: &mut dyn FnMut(&str) -> Option<String>) {
    match v {
        Value::Object(m) => {
            for (k, child) in m.iter_mut() {
                if k == "containers" || k == "initContainers" {
                    if let Value::Array(cs) = child {
                        for c in cs.iter_mut() {
                            if let Some(new) = c.get("image").and_then(Value::as_str).and_then(&mut *f) {
                                c["image"] = Value::String(new);
                            }
                        }
                        continue;
                    }
                }
                set_images(child, f);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| set_images(x, f)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::split_image;

    #[test]
    fn images_split_as_kustomize_reads_them() {
        assert_eq!(split_image("nginx"), ("nginx", None, None));
        assert_eq!(split_image("nginx:1.25"), ("nginx", Some("1.25"), None));
        assert_eq!(split_image("localhost:5000/app:v1"), ("localhost:5000/app", Some("v1"), None));
        assert_eq!(split_image("app@sha256:abc"), ("app", None, Some("sha256:abc")));
    }
}
