//! Resource metadata and object accessors.
//!
//! Real counterparts: the REST mapper (`k8s.io/apimachinery/pkg/api/meta`, kubectl's discovery
//! RESTMapper with its short names), `metav1.ObjectMeta` accessors, and the etcd key functions of
//! `staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go` with the special prefixes of
//! `pkg/kubeapiserver/default_storage_factory_builder.go` (nodes are stored under `minions`).

use serde_json::{json, Map, Value};
use crate::sim::sort::CompactSort;

/// The resources kubesim serves, as a closed set components can match on (`schema.GroupResource`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Resource {
    Namespaces,
    Nodes,
    Pods,
    Events,
    Deployments,
    ReplicaSets,
    Leases,
    Services,
    Endpoints,
    EndpointSlices,
    DaemonSets,
    ControllerRevisions,
    Jobs,
    CronJobs,
    StatefulSets,
    PersistentVolumeClaims,
    PersistentVolumes,
    StorageClasses,
    PriorityClasses,
    ResourceQuotas,
    ConfigMaps,
    Secrets,
    ServiceAccounts,
    Roles,
    ClusterRoles,
    RoleBindings,
    ClusterRoleBindings,
    ReplicationControllers,
    Ingresses,
    IngressClasses,
    NetworkPolicies,
    PodDisruptionBudgets,
    HorizontalPodAutoscalers,
    ApiServices,
    CustomResourceDefinitions,
    /// A custom resource a CustomResourceDefinition defines: an index into the interned
    /// [`custom_info`] table (which CRDs a cluster serves is the API server's state).
    Custom(u16),
}

impl Resource {
    /// The static facts about this resource.
    pub fn info(self) -> &'static ResourceInfo {
        match self {
            Resource::Custom(i) => CUSTOM.with(|c| c.borrow().get(i as usize).copied()).expect("an interned custom resource"),
            _ => RESOURCES.iter().find(|r| r.id == self).expect("every Resource has a row in RESOURCES"),
        }
    }
}

/// At most this many distinct custom resource shapes (group, version, names, scope) are
/// interned in a process.
pub const MAX_CUSTOM_RESOURCES: usize = 4096;

thread_local! {
    /// The custom resources' facts, interned: a shape seen once keeps its `&'static` row (its
    /// strings leaked once), so custom resources flow through the same code as built-in ones.
    /// What a cluster serves is its API server's own list; this table only holds shapes.
    static CUSTOM: std::cell::RefCell<Vec<&'static ResourceInfo>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn leak(s: &str) -> &'static str {
    Box::leak(s.to_string().into_boxed_str())
}

/// The facts of a custom resource (`crontabs` in `stable.example.com/v1`), interned. None: the
/// table is full ([`MAX_CUSTOM_RESOURCES`]).
pub fn custom_info(group: &str, version: &str, plural: &str, singular: &str, kind: &str, namespaced: bool, short_names: &[String]) -> Option<&'static ResourceInfo> {
    CUSTOM.with(|c| {
        let mut table = c.borrow_mut();
        let same = |r: &&'static ResourceInfo| {
            r.group == group && r.version == version && r.resource == plural && r.singular == singular && r.kind == kind && r.namespaced == namespaced && r.short_names.len() == short_names.len() && r.short_names.iter().zip(short_names).all(|(a, b)| *a == b.as_str())
        };
        if let Some(r) = table.iter().find(|r| same(r)) {
            return Some(*r);
        }
        if table.len() >= MAX_CUSTOM_RESOURCES {
            return None;
        }
        let shorts: Vec<&'static str> = short_names.iter().map(|s| leak(s)).collect();
        let info: &'static ResourceInfo = Box::leak(Box::new(ResourceInfo {
            id: Resource::Custom(table.len() as u16),
            resource: leak(plural),
            singular: leak(singular),
            kind: leak(kind),
            group: leak(group),
            version: leak(version),
            namespaced,
            etcd_prefix: leak(&format!("{}/{}", group, plural)),
            short_names: Box::leak(shorts.into_boxed_slice()),
        }));
        table.push(info);
        Some(info)
    })
}

/// One served resource.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResourceInfo {
    pub id: Resource,
    /// Plural lowercase resource name used in URLs: `deployments`.
    pub resource: &'static str,
    pub singular: &'static str,
    pub kind: &'static str,
    /// API group: "" for the core group, "apps", "events.k8s.io".
    pub group: &'static str,
    pub version: &'static str,
    pub namespaced: bool,
    /// The resource prefix under `/registry` in etcd.
    pub etcd_prefix: &'static str,
    pub short_names: &'static [&'static str],
}

impl ResourceInfo {
    /// `apps/v1` or `v1`.
    pub fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.to_string()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }
    /// Whether kubectl's RESTMapper maps `name` (plural, singular, short name or kind, any case,
    /// optionally `.group`) to this resource.
    pub fn answers_to(&self, name: &str) -> bool {
        let lower = name.to_ascii_lowercase();
        let (base, group) = match lower.split_once('.') {
            Some((b, g)) => (b, Some(g)),
            None => (lower.as_str(), None),
        };
        (self.resource == base || self.singular == base || self.short_names.contains(&base) || self.kind.to_ascii_lowercase() == base)
            && group.map(|g| g == self.group || (g == "v1" && self.group.is_empty())).unwrap_or(true)
    }

    /// `deployments.apps`, `pods` — the "qualified resource" used in API error messages.
    pub fn qualified(&self) -> String {
        if self.group.is_empty() {
            self.resource.to_string()
        } else {
            format!("{}.{}", self.resource, self.group)
        }
    }
    /// `deployment.apps`, `pod` — what kubectl prints before `/name`.
    pub fn kubectl_prefix(&self) -> String {
        if self.group.is_empty() {
            self.singular.to_string()
        } else {
            format!("{}.{}", self.singular, self.group)
        }
    }
    /// The URL path of the collection: `/apis/apps/v1/namespaces/default/deployments`.
    pub fn collection_path(&self, namespace: &str) -> String {
        let base = if self.group.is_empty() {
            format!("/api/{}", self.version)
        } else {
            format!("/apis/{}/{}", self.group, self.version)
        };
        if self.namespaced && !namespace.is_empty() {
            format!("{}/namespaces/{}/{}", base, namespace, self.resource)
        } else {
            format!("{}/{}", base, self.resource)
        }
    }
    pub fn object_path(&self, namespace: &str, name: &str) -> String {
        format!("{}/{}", self.collection_path(namespace), name)
    }
    /// The etcd key: `/registry/deployments/default/nginx`, `/registry/minions/node-1`.
    pub fn etcd_key(&self, namespace: &str, name: &str) -> String {
        if self.namespaced {
            format!("/registry/{}/{}/{}", self.etcd_prefix, namespace, name)
        } else {
            format!("/registry/{}/{}", self.etcd_prefix, name)
        }
    }
    pub fn etcd_collection_prefix(&self, namespace: &str) -> String {
        if self.namespaced && !namespace.is_empty() {
            format!("/registry/{}/{}/", self.etcd_prefix, namespace)
        } else {
            format!("/registry/{}/", self.etcd_prefix)
        }
    }
}

/// The resources kubesim serves.
pub const RESOURCES: &[ResourceInfo] = &[
    ResourceInfo { id: Resource::Namespaces, resource: "namespaces", singular: "namespace", kind: "Namespace", group: "", version: "v1", namespaced: false, etcd_prefix: "namespaces", short_names: &["ns"] },
    ResourceInfo { id: Resource::Nodes, resource: "nodes", singular: "node", kind: "Node", group: "", version: "v1", namespaced: false, etcd_prefix: "minions", short_names: &["no"] },
    ResourceInfo { id: Resource::Pods, resource: "pods", singular: "pod", kind: "Pod", group: "", version: "v1", namespaced: true, etcd_prefix: "pods", short_names: &["po"] },
    ResourceInfo { id: Resource::Events, resource: "events", singular: "event", kind: "Event", group: "", version: "v1", namespaced: true, etcd_prefix: "events", short_names: &["ev"] },
    ResourceInfo { id: Resource::Deployments, resource: "deployments", singular: "deployment", kind: "Deployment", group: "apps", version: "v1", namespaced: true, etcd_prefix: "deployments", short_names: &["deploy"] },
    ResourceInfo { id: Resource::ReplicaSets, resource: "replicasets", singular: "replicaset", kind: "ReplicaSet", group: "apps", version: "v1", namespaced: true, etcd_prefix: "replicasets", short_names: &["rs"] },
    ResourceInfo { id: Resource::Leases, resource: "leases", singular: "lease", kind: "Lease", group: "coordination.k8s.io", version: "v1", namespaced: true, etcd_prefix: "leases", short_names: &[] },
    ResourceInfo { id: Resource::Services, resource: "services", singular: "service", kind: "Service", group: "", version: "v1", namespaced: true, etcd_prefix: "services/specs", short_names: &["svc"] },
    ResourceInfo { id: Resource::Endpoints, resource: "endpoints", singular: "endpoints", kind: "Endpoints", group: "", version: "v1", namespaced: true, etcd_prefix: "services/endpoints", short_names: &["ep"] },
    ResourceInfo { id: Resource::DaemonSets, resource: "daemonsets", singular: "daemonset", kind: "DaemonSet", group: "apps", version: "v1", namespaced: true, etcd_prefix: "daemonsets", short_names: &["ds"] },
    ResourceInfo { id: Resource::ControllerRevisions, resource: "controllerrevisions", singular: "controllerrevision", kind: "ControllerRevision", group: "apps", version: "v1", namespaced: true, etcd_prefix: "controllerrevisions", short_names: &[] },
    ResourceInfo { id: Resource::Jobs, resource: "jobs", singular: "job", kind: "Job", group: "batch", version: "v1", namespaced: true, etcd_prefix: "jobs", short_names: &[] },
    ResourceInfo { id: Resource::CronJobs, resource: "cronjobs", singular: "cronjob", kind: "CronJob", group: "batch", version: "v1", namespaced: true, etcd_prefix: "cronjobs", short_names: &["cj"] },
    ResourceInfo { id: Resource::StatefulSets, resource: "statefulsets", singular: "statefulset", kind: "StatefulSet", group: "apps", version: "v1", namespaced: true, etcd_prefix: "statefulsets", short_names: &["sts"] },
    ResourceInfo { id: Resource::PersistentVolumeClaims, resource: "persistentvolumeclaims", singular: "persistentvolumeclaim", kind: "PersistentVolumeClaim", group: "", version: "v1", namespaced: true, etcd_prefix: "persistentvolumeclaims", short_names: &["pvc"] },
    ResourceInfo { id: Resource::PersistentVolumes, resource: "persistentvolumes", singular: "persistentvolume", kind: "PersistentVolume", group: "", version: "v1", namespaced: false, etcd_prefix: "persistentvolumes", short_names: &["pv"] },
    ResourceInfo { id: Resource::StorageClasses, resource: "storageclasses", singular: "storageclass", kind: "StorageClass", group: "storage.k8s.io", version: "v1", namespaced: false, etcd_prefix: "storageclasses", short_names: &["sc"] },
    ResourceInfo { id: Resource::PriorityClasses, resource: "priorityclasses", singular: "priorityclass", kind: "PriorityClass", group: "scheduling.k8s.io", version: "v1", namespaced: false, etcd_prefix: "priorityclasses", short_names: &["pc"] },
    ResourceInfo { id: Resource::ResourceQuotas, resource: "resourcequotas", singular: "resourcequota", kind: "ResourceQuota", group: "", version: "v1", namespaced: true, etcd_prefix: "resourcequotas", short_names: &["quota"] },
    ResourceInfo { id: Resource::ConfigMaps, resource: "configmaps", singular: "configmap", kind: "ConfigMap", group: "", version: "v1", namespaced: true, etcd_prefix: "configmaps", short_names: &["cm"] },
    ResourceInfo { id: Resource::Secrets, resource: "secrets", singular: "secret", kind: "Secret", group: "", version: "v1", namespaced: true, etcd_prefix: "secrets", short_names: &[] },
    ResourceInfo { id: Resource::ServiceAccounts, resource: "serviceaccounts", singular: "serviceaccount", kind: "ServiceAccount", group: "", version: "v1", namespaced: true, etcd_prefix: "serviceaccounts", short_names: &["sa"] },
    ResourceInfo { id: Resource::Roles, resource: "roles", singular: "role", kind: "Role", group: "rbac.authorization.k8s.io", version: "v1", namespaced: true, etcd_prefix: "roles", short_names: &[] },
    ResourceInfo { id: Resource::ClusterRoles, resource: "clusterroles", singular: "clusterrole", kind: "ClusterRole", group: "rbac.authorization.k8s.io", version: "v1", namespaced: false, etcd_prefix: "clusterroles", short_names: &[] },
    ResourceInfo { id: Resource::RoleBindings, resource: "rolebindings", singular: "rolebinding", kind: "RoleBinding", group: "rbac.authorization.k8s.io", version: "v1", namespaced: true, etcd_prefix: "rolebindings", short_names: &[] },
    ResourceInfo { id: Resource::ClusterRoleBindings, resource: "clusterrolebindings", singular: "clusterrolebinding", kind: "ClusterRoleBinding", group: "rbac.authorization.k8s.io", version: "v1", namespaced: false, etcd_prefix: "clusterrolebindings", short_names: &[] },
    ResourceInfo { id: Resource::EndpointSlices, resource: "endpointslices", singular: "endpointslice", kind: "EndpointSlice", group: "discovery.k8s.io", version: "v1", namespaced: true, etcd_prefix: "endpointslices", short_names: &[] },
    ResourceInfo { id: Resource::ReplicationControllers, resource: "replicationcontrollers", singular: "replicationcontroller", kind: "ReplicationController", group: "", version: "v1", namespaced: true, etcd_prefix: "controllers", short_names: &["rc"] },
    ResourceInfo { id: Resource::Ingresses, resource: "ingresses", singular: "ingress", kind: "Ingress", group: "networking.k8s.io", version: "v1", namespaced: true, etcd_prefix: "ingress", short_names: &["ing"] },
    ResourceInfo { id: Resource::IngressClasses, resource: "ingressclasses", singular: "ingressclass", kind: "IngressClass", group: "networking.k8s.io", version: "v1", namespaced: false, etcd_prefix: "ingressclasses", short_names: &[] },
    ResourceInfo { id: Resource::NetworkPolicies, resource: "networkpolicies", singular: "networkpolicy", kind: "NetworkPolicy", group: "networking.k8s.io", version: "v1", namespaced: true, etcd_prefix: "networkpolicies", short_names: &["netpol"] },
    ResourceInfo { id: Resource::PodDisruptionBudgets, resource: "poddisruptionbudgets", singular: "poddisruptionbudget", kind: "PodDisruptionBudget", group: "policy", version: "v1", namespaced: true, etcd_prefix: "poddisruptionbudgets", short_names: &["pdb"] },
    ResourceInfo { id: Resource::HorizontalPodAutoscalers, resource: "horizontalpodautoscalers", singular: "horizontalpodautoscaler", kind: "HorizontalPodAutoscaler", group: "autoscaling", version: "v2", namespaced: true, etcd_prefix: "horizontalpodautoscalers", short_names: &["hpa"] },
    ResourceInfo { id: Resource::ApiServices, resource: "apiservices", singular: "apiservice", kind: "APIService", group: "apiregistration.k8s.io", version: "v1", namespaced: false, etcd_prefix: "apiregistration.k8s.io/apiservices", short_names: &[] },
    ResourceInfo { id: Resource::CustomResourceDefinitions, resource: "customresourcedefinitions", singular: "customresourcedefinition", kind: "CustomResourceDefinition", group: "apiextensions.k8s.io", version: "v1", namespaced: false, etcd_prefix: "apiextensions.k8s.io/customresourcedefinitions", short_names: &["crd", "crds"] },
];

/// Find a resource by any name kubectl accepts: plural, singular, short name, kind, or `deployments.apps`.
pub fn lookup(name: &str) -> Option<&'static ResourceInfo> {
    RESOURCES.iter().find(|r| r.answers_to(name))
}

/// Find a resource by apiVersion and kind, as the REST mapper does.
pub fn by_kind(api_version: &str, kind: &str) -> Option<&'static ResourceInfo> {
    RESOURCES.iter().find(|r| r.kind == kind && r.api_version() == api_version)
}

pub fn by_resource(group: &str, resource: &str) -> Option<&'static ResourceInfo> {
    RESOURCES.iter().find(|r| r.resource == resource && r.group == group)
}

// ---- accessors -------------------------------------------------------------------------------

/// Follow a path of object keys.
pub fn get<'a>(v: &'a Value, path: &[&str]) -> Option<&'a Value> {
    let mut cur = v;
    for p in path {
        cur = cur.get(*p)?;
    }
    Some(cur)
}

pub fn get_str<'a>(v: &'a Value, path: &[&str]) -> &'a str {
    get(v, path).and_then(|x| x.as_str()).unwrap_or("")
}

/// The string at `path`, if there is one.
pub fn str_at<'a>(v: &'a Value, path: &[&str]) -> Option<&'a str> {
    get(v, path).and_then(Value::as_str)
}

/// The integer at `path`: integers and integral floats (`3.0`); out-of-range unsigned numbers clamp.
pub fn get_i64(v: &Value, path: &[&str]) -> Option<i64> {
    get(v, path).and_then(int_of)
}

/// A JSON number as an integer, as Go's decoder fills an integer field: integers and integral
/// floats; out-of-range unsigned numbers clamp to `i64::MAX`.
pub fn int_of(v: &Value) -> Option<i64> {
    if let Some(i) = v.as_i64() {
        return Some(i);
    }
    if let Some(u) = v.as_u64() {
        return Some(u.min(i64::MAX as u64) as i64);
    }
    match v.as_f64() {
        Some(f) if f.is_finite() && f.fract() == 0.0 => Some(f as i64),
        _ => None,
    }
}

/// The first condition of `type_` in a list of conditions.
pub fn find_condition<'a>(conditions: &'a [Value], type_: &str) -> Option<&'a Value> {
    conditions.iter().find(|c| get_str(c, &["type"]) == type_)
}

/// The first condition of `type_` in a `status.conditions` list (a copy), as the controllers'
/// `GetCondition` helpers return it. `status` is the object's `status`.
pub fn get_condition(status: &Value, type_: &str) -> Option<Value> {
    find_condition(get_array(status, &["conditions"]), type_).cloned()
}

/// Removes the conditions of `type_` from `status.conditions`; an emptied list is dropped, as
/// Go omits a nil slice on the wire.
pub fn remove_condition(status: &mut Value, type_: &str) {
    if let Some(obj) = status.as_object_mut() {
        let now_empty = match obj.get_mut("conditions").and_then(Value::as_array_mut) {
            Some(conds) => {
                conds.retain(|c| get_str(c, &["type"]) != type_);
                conds.is_empty()
            }
            None => obj.contains_key("conditions"),
        };
        if now_empty {
            obj.remove("conditions");
        }
    }
}

/// Removes the conditions of the new condition's type and appends it at the end (the controllers'
/// `SetCondition` helpers, after their own "nothing changed" checks).
pub fn replace_condition(status: &mut Value, cond: Value) {
    if status.is_null() {
        *status = Value::Object(Map::new());
    }
    let type_ = get_str(&cond, &["type"]).to_string();
    remove_condition(status, &type_);
    if let Some(obj) = status.as_object_mut() {
        let entry = obj.entry("conditions").or_insert_with(|| Value::Array(Vec::new()));
        if !entry.is_array() {
            *entry = Value::Array(Vec::new());
        }
        if let Some(a) = entry.as_array_mut() {
            a.push(cond);
        }
    }
}

/// The array at `path`, or an empty slice.
pub fn get_array<'a>(v: &'a Value, path: &[&str]) -> &'a [Value] {
    get(v, path).and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[])
}

/// The boolean at `path`, `false` when missing (Go's zero value).
pub fn get_bool(v: &Value, path: &[&str]) -> bool {
    get(v, path).and_then(Value::as_bool).unwrap_or(false)
}

/// Mutable access creating intermediate objects as needed. Replaces non-objects on the way.
pub fn entry<'a>(v: &'a mut Value, path: &[&str]) -> &'a mut Value {
    let mut cur = v;
    for p in path {
        if !cur.is_object() {
            *cur = Value::Object(Map::new());
        }
        cur = cur.as_object_mut().expect("object").entry(p.to_string()).or_insert(Value::Null);
    }
    cur
}

pub fn set(v: &mut Value, path: &[&str], value: Value) {
    *entry(v, path) = value;
}

pub fn remove(v: &mut Value, path: &[&str]) -> Option<Value> {
    let (last, parent) = path.split_last()?;
    let mut cur = v;
    for p in parent {
        cur = cur.get_mut(*p)?;
    }
    cur.as_object_mut()?.remove(*last)
}

pub fn name(v: &Value) -> &str {
    get_str(v, &["metadata", "name"])
}
pub fn namespace(v: &Value) -> &str {
    get_str(v, &["metadata", "namespace"])
}
pub fn uid(v: &Value) -> &str {
    get_str(v, &["metadata", "uid"])
}
pub fn kind(v: &Value) -> &str {
    get_str(v, &["kind"])
}
pub fn resource_version(v: &Value) -> &str {
    get_str(v, &["metadata", "resourceVersion"])
}
pub fn labels(v: &Value) -> Map<String, Value> {
    get(v, &["metadata", "labels"]).and_then(|l| l.as_object()).cloned().unwrap_or_default()
}
pub fn annotation<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    get(v, &["metadata", "annotations", key]).and_then(|x| x.as_str())
}
pub fn is_deleting(v: &Value) -> bool {
    get(v, &["metadata", "deletionTimestamp"]).map(|x| !x.is_null()).unwrap_or(false)
}
/// `GetPersistentVolumeClaimClass` / `GetPersistentVolumeClass`: a claim's or volume's
/// StorageClass, from the beta annotation or else `spec.storageClassName`.
pub fn storage_class_of(v: &Value) -> &str {
    annotation(v, "volume.beta.kubernetes.io/storage-class").unwrap_or_else(|| get_str(v, &["spec", "storageClassName"]))
}
/// `namespace/name` or `name`: the key informers and work queues use (`cache.MetaNamespaceKeyFunc`).
pub fn key(v: &Value) -> String {
    let ns = namespace(v);
    if ns.is_empty() {
        name(v).to_string()
    } else {
        format!("{}/{}", ns, name(v))
    }
}

/// The controller ownerReference (`metav1.GetControllerOf`).
pub fn controller_of(v: &Value) -> Option<&Value> {
    get(v, &["metadata", "ownerReferences"])?
        .as_array()?
        .iter()
        .find(|r| r.get("controller").and_then(|c| c.as_bool()).unwrap_or(false))
}

/// `metav1.NewControllerRef`.
pub fn new_controller_ref(owner: &Value, api_version: &str, kind: &str) -> Value {
    json!({
        "apiVersion": api_version,
        "kind": kind,
        "name": name(owner),
        "uid": uid(owner),
        "controller": true,
        "blockOwnerDeletion": true,
    })
}

/// Does a `metav1.LabelSelector` (matchLabels + matchExpressions) select these labels?
/// An empty selector matches everything; a missing (null) one matches nothing, as
/// `metav1.LabelSelectorAsSelector` does.
pub fn selector_matches(selector: Option<&Value>, labels: &Map<String, Value>) -> bool {
    let sel = match selector {
        Some(s) if s.is_object() => s,
        _ => return false,
    };
    if let Some(ml) = sel.get("matchLabels").and_then(|m| m.as_object()) {
        for (k, v) in ml {
            if labels.get(k) != Some(v) {
                return false;
            }
        }
    }
    if let Some(exprs) = sel.get("matchExpressions").and_then(|m| m.as_array()) {
        for e in exprs {
            let key = get_str(e, &["key"]);
            let op = get_str(e, &["operator"]);
            let values: Vec<&str> =
                e.get("values").and_then(|v| v.as_array()).map(|a| a.iter().filter_map(|x| x.as_str()).collect()).unwrap_or_default();
            let have = labels.get(key).and_then(|v| v.as_str());
            let ok = match op {
                "In" => have.map(|h| values.contains(&h)).unwrap_or(false),
                "NotIn" => have.map(|h| !values.contains(&h)).unwrap_or(true),
                "Exists" => have.is_some(),
                "DoesNotExist" => have.is_none(),
                _ => false,
            };
            if !ok {
                return false;
            }
        }
    }
    true
}

/// `labels.Selector.String()` of a `metav1.LabelSelector` (`LabelSelectorAsSelector`):
/// requirements sorted by key, values sorted and deduplicated, e.g. `app=nginx,tier in (web)`;
/// "" for an empty or missing selector.
pub fn selector_string(selector: Option<&Value>) -> String {
    let Some(sel) = selector else { return String::new() };
    let text = |v: &Value| match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let mut reqs: Vec<(String, String)> = Vec::new();
    if let Some(ml) = get(sel, &["matchLabels"]).and_then(Value::as_object) {
        for (k, v) in ml {
            reqs.push((k.clone(), format!("{}={}", k, text(v))));
        }
    }
    for e in get_array(sel, &["matchExpressions"]) {
        let key = get_str(e, &["key"]).to_string();
        let mut vals: Vec<String> = get_array(e, &["values"]).iter().map(text).collect();
        vals.csort();
        vals.dedup();
        let s = match get_str(e, &["operator"]) {
            "In" => format!("{} in ({})", key, vals.join(",")),
            "NotIn" => format!("{} notin ({})", key, vals.join(",")),
            "Exists" => key.clone(),
            "DoesNotExist" => format!("!{}", key),
            _ => continue,
        };
        reqs.push((key, s));
    }
    reqs.csort_by(|a, b| a.0.cmp(&b.0));
    reqs.into_iter().map(|r| r.1).collect::<Vec<_>>().join(",")
}

/// `metav1.FormatLabelSelector`: [`selector_string`], or `<none>` when empty.
pub fn format_label_selector(selector: Option<&Value>) -> String {
    let s = selector_string(selector);
    if s.is_empty() {
        "<none>".into()
    } else {
        s
    }
}

/// Parses a kubectl/apiserver label selector string (`a=b,c!=d,e`) into a matcher.
pub fn parse_label_selector(s: &str) -> Result<Vec<(String, String, String)>, String> {
    let mut out: Vec<(String, String, String)> = Vec::new();
    for part in s.split(',').map(|p| p.trim()).filter(|p| !p.is_empty()) {
        if let Some((k, v)) = part.split_once("!=") {
            out.push((k.trim().into(), "!=".into(), v.trim().into()));
        } else if let Some((k, v)) = part.split_once("==") {
            out.push((k.trim().into(), "=".into(), v.trim().into()));
        } else if let Some((k, v)) = part.split_once('=') {
            out.push((k.trim().into(), "=".into(), v.trim().into()));
        } else if let Some(k) = part.strip_prefix('!') {
            out.push((k.trim().into(), "!".into(), String::new()));
        } else if part.chars().all(|c| c.is_ascii_alphanumeric() || "-_./".contains(c)) {
            out.push((part.into(), "exists".into(), String::new()));
        } else {
            return Err(format!("unable to parse requirement: {}", part));
        }
        // `=` and `!` are operators to the selector lexer, never part of a key or value (`a===`,
        // `!a=b`); a key is never empty (`=v`)
        let (k, _, v) = out.last().unwrap();
        if k.is_empty() || k.contains(['=', '!']) || v.contains(['=', '!']) {
            return Err(format!("unable to parse requirement: {}", part));
        }
    }
    Ok(out)
}

pub fn label_selector_matches(reqs: &[(String, String, String)], labels: &Map<String, Value>) -> bool {
    reqs.iter().all(|(k, op, v)| {
        let have = labels.get(k).and_then(|x| x.as_str());
        match op.as_str() {
            "=" => have == Some(v.as_str()),
            "!=" => have != Some(v.as_str()),
            "!" => have.is_none(),
            _ => have.is_some(),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_selector_operators_are_not_part_of_keys_or_values() {
        // found by fuzzing: `===` parsed as key "" = value "=", which prints back as `==`
        for bad in ["===", "=v", "a==b=c", "!a=b", "a!=b!=c", "a=b!"] {
            assert_eq!(parse_label_selector(bad), Err(format!("unable to parse requirement: {}", bad)), "{}", bad);
        }
        let ok = |k: &str, op: &str, v: &str| (k.to_string(), op.to_string(), v.to_string());
        assert_eq!(parse_label_selector("a==b, c!=d,!e,f,g="), Ok(vec![ok("a", "=", "b"), ok("c", "!=", "d"), ok("e", "!", ""), ok("f", "exists", ""), ok("g", "=", "")]));
    }

    #[test]
    fn lookup_by_any_name() {
        let cases = [("deploy", "deployments"), ("Deployment", "deployments"), ("rs", "replicasets"), ("po", "pods"), ("nodes", "nodes"), ("deployments.apps", "deployments"), ("ev", "events"), ("svc", "services"), ("ep", "endpoints"), ("endpointslices.discovery.k8s.io", "endpointslices")];
        for (input, want) in cases {
            assert_eq!(lookup(input).map(|r| r.resource), Some(want), "{}", input);
        }
        assert!(lookup("deployment.core").is_none());
        assert_eq!(lookup("ds").map(|r| r.resource), Some("daemonsets"));
        assert_eq!(lookup("sts").map(|r| r.resource), Some("statefulsets"));
        assert_eq!(lookup("pvc").map(|r| r.kind), Some("PersistentVolumeClaim"));
        assert_eq!(lookup("svc").unwrap().etcd_key("default", "web"), "/registry/services/specs/default/web");
    }

    #[test]
    fn etcd_keys_follow_upstream() {
        assert_eq!(lookup("node").unwrap().etcd_key("", "node-1"), "/registry/minions/node-1");
        assert_eq!(lookup("deploy").unwrap().etcd_key("default", "nginx"), "/registry/deployments/default/nginx");
        assert_eq!(lookup("deploy").unwrap().collection_path("default"), "/apis/apps/v1/namespaces/default/deployments");
        assert_eq!(lookup("pods").unwrap().object_path("default", "p"), "/api/v1/namespaces/default/pods/p");
    }

    #[test]
    fn selectors() {
        let labels: Map<String, Value> = serde_json::from_str(r#"{"app":"nginx","tier":"web"}"#).unwrap();
        let cases = [
            ("matchLabels", json!({"matchLabels":{"app":"nginx"}}), true),
            ("mismatch", json!({"matchLabels":{"app":"other"}}), false),
            ("empty selects all", json!({}), true),
            ("In", json!({"matchExpressions":[{"key":"tier","operator":"In","values":["web","db"]}]}), true),
            ("DoesNotExist", json!({"matchExpressions":[{"key":"tier","operator":"DoesNotExist"}]}), false),
        ];
        for (name, sel, want) in cases {
            assert_eq!(selector_matches(Some(&sel), &labels), want, "{}", name);
        }
        assert!(!selector_matches(None, &labels));
    }
}
