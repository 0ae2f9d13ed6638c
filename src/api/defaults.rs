//! Defaulting (what the apiserver fills in when it decodes an object) and the admission plugins
//! that mutate a new Pod.
//!
//! Real counterparts:
//! - `pkg/apis/apps/v1/defaults.go` (`SetDefaults_Deployment`, `SetDefaults_ReplicaSet`) and
//!   `pkg/apis/apps/v1/zz_generated.defaults.go` (`SetObjectDefaults_Deployment`: the template
//!   only gets `SetDefaults_PodSpec` and the per-field defaults, never `SetDefaults_Pod`);
//! - `pkg/apis/core/v1/defaults.go` (`SetDefaults_Pod`, `SetDefaults_PodSpec`,
//!   `SetDefaults_Container`, `SetDefaults_Probe`, `SetDefaults_HTTPGetAction`, volume sources,
//!   `SetDefaults_Namespace`, `SetDefaults_NamespaceStatus`, `SetDefaults_NodeStatus`) and
//!   `pkg/apis/core/v1/zz_generated.defaults.go` (port protocol `TCP`, gRPC `service: ""`);
//! - `pkg/util/parsers/parsers.go` `ParseImageName` with the docker reference grammar
//!   (`github.com/distribution/reference`), which decides `imagePullPolicy`;
//! - admission: `plugin/pkg/admission/serviceaccount/admission.go`,
//!   `plugin/pkg/admission/defaulttolerationseconds/admission.go`,
//!   `plugin/pkg/admission/priority/admission.go`;
//! - `pkg/registry/core/namespace/strategy.go` `PrepareForCreate` (the `kubernetes` finalizer).
//!
//! Rules every function here follows, as upstream does: a default is only written when the field
//! is unset (missing, `null`, or the Go zero value the Go code tests for, such as `""` or `0`);
//! user values are never overwritten; a field of the wrong JSON type is left alone (upstream the
//! decoder would already have rejected it).
//!
//! Serialization artifacts are reproduced too, because `kubectl get -o yaml` shows them: a
//! container's non-pointer `resources` struct prints as `{}`, and the non-pointer `divisor`
//! quantity of a `resourceFieldRef` prints as `"0"`.
//!
//! Simplifications: `SetDefaults_ResourceList` (rounding quantities up to milli precision) and
//! the pod-level-resources defaults (`defaultPodRequests`/`defaultPodLimits`, feature
//! PodLevelResources) are not modelled; quantities are kept as written.

use super::meta;
use serde_json::{json, Map, Value};

/// `v1.DefaultTerminationGracePeriodSeconds`.
const DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS: i64 = 30;
/// `v1.SecretVolumeSourceDefaultMode` etc. (0644).
const DEFAULT_VOLUME_MODE: i64 = 420;
/// `serviceaccount.WarnOnlyBoundTokenExpirationSeconds`: 1 hour + 7 seconds.
const WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS: i64 = 3607;
/// `DefaultAPITokenMountPath` of the ServiceAccount admission plugin.
pub const DEFAULT_API_TOKEN_MOUNT_PATH: &str = "/var/run/secrets/kubernetes.io/serviceaccount";
/// `ServiceAccountVolumeName`; the volume is named `kube-api-access-<5 random characters>`.
pub const SERVICE_ACCOUNT_VOLUME_NAME: &str = "kube-api-access";
/// `defaultNotReadyTolerationSeconds` / `defaultUnreachableTolerationSeconds`.
const DEFAULT_TOLERATION_SECONDS: i64 = 300;

// ---------------------------------------------------------------------------------------------
// Small JSON helpers. All of them tolerate missing or mistyped data.
// ---------------------------------------------------------------------------------------------

/// True when a Go string field would be `""`: missing, `null` or the empty string.
fn str_unset(m: &Map<String, Value>, key: &str) -> bool {
    match m.get(key) {
        None | Some(Value::Null) => true,
        Some(Value::String(s)) => s.is_empty(),
        _ => false,
    }
}

/// True when a Go pointer field would be nil: missing or `null`.
fn ptr_unset(m: &Map<String, Value>, key: &str) -> bool {
    matches!(m.get(key), None | Some(Value::Null))
}

/// True when a Go int field would be 0: missing, `null` or `0`.
fn int_unset(m: &Map<String, Value>, key: &str) -> bool {
    match m.get(key) {
        None | Some(Value::Null) => true,
        Some(Value::Number(n)) => n.as_f64() == Some(0.0),
        _ => false,
    }
}

fn set_str_default(m: &mut Map<String, Value>, key: &str, val: &str) {
    if str_unset(m, key) {
        m.insert(key.to_string(), Value::String(val.to_string()));
    }
}

fn set_ptr_default(m: &mut Map<String, Value>, key: &str, val: Value) {
    if ptr_unset(m, key) {
        m.insert(key.to_string(), val);
    }
}

fn set_int_default(m: &mut Map<String, Value>, key: &str, val: i64) {
    if int_unset(m, key) {
        m.insert(key.to_string(), json!(val));
    }
}

/// The object under `key`, created as `{}` when missing or `null`; `None` when it has another
/// type (left untouched).
fn ensure_obj<'a>(m: &'a mut Map<String, Value>, key: &str) -> Option<&'a mut Map<String, Value>> {
    if ptr_unset(m, key) {
        m.insert(key.to_string(), Value::Object(Map::new()));
    }
    m.get_mut(key).and_then(Value::as_object_mut)
}

/// The object under `key` if it exists (a non-nil Go pointer).
fn obj_at<'a>(m: &'a mut Map<String, Value>, key: &str) -> Option<&'a mut Map<String, Value>> {
    m.get_mut(key).and_then(Value::as_object_mut)
}

/// Every object element of the array under `key`.
fn each_obj<'a>(
    m: &'a mut Map<String, Value>,
    key: &str,
) -> impl Iterator<Item = &'a mut Map<String, Value>> {
    m.get_mut(key)
        .and_then(Value::as_array_mut)
        .into_iter()
        .flat_map(|a| a.iter_mut())
        .filter_map(Value::as_object_mut)
}

// ---------------------------------------------------------------------------------------------
// apps/v1
// ---------------------------------------------------------------------------------------------

/// `SetObjectDefaults_Deployment`: `SetDefaults_Deployment`, then the pod template.
pub fn set_object_defaults_deployment(obj: &mut Value) {
    let Some(root) = obj.as_object_mut() else {
        return;
    };
    let Some(spec) = ensure_obj(root, "spec") else {
        return;
    };
    set_defaults_deployment_spec(spec);
    if let Some(tpl) = ensure_obj(spec, "template") {
        set_defaults_pod_template_spec_map(tpl);
    }
}

/// `SetDefaults_Deployment`.
fn set_defaults_deployment_spec(spec: &mut Map<String, Value>) {
    set_ptr_default(spec, "replicas", json!(1));
    if let Some(strategy) = ensure_obj(spec, "strategy") {
        set_str_default(strategy, "type", "RollingUpdate");
        // rollingUpdate is only defaulted (and only created) for the RollingUpdate type: a
        // Recreate deployment keeps no rollingUpdate block.
        if strategy.get("type").and_then(Value::as_str) == Some("RollingUpdate") {
            if let Some(ru) = ensure_obj(strategy, "rollingUpdate") {
                set_ptr_default(ru, "maxUnavailable", json!("25%"));
                set_ptr_default(ru, "maxSurge", json!("25%"));
            }
        }
    }
    set_ptr_default(spec, "revisionHistoryLimit", json!(10));
    set_ptr_default(spec, "progressDeadlineSeconds", json!(600));
}

/// `SetObjectDefaults_ReplicaSet`: `SetDefaults_ReplicaSet` (replicas 1), then the template.
pub fn set_object_defaults_replica_set(obj: &mut Value) {
    let Some(root) = obj.as_object_mut() else {
        return;
    };
    let Some(spec) = ensure_obj(root, "spec") else {
        return;
    };
    set_ptr_default(spec, "replicas", json!(1));
    if let Some(tpl) = ensure_obj(spec, "template") {
        set_defaults_pod_template_spec_map(tpl);
    }
}

/// `SetObjectDefaults_ReplicationController`: `SetDefaults_ReplicationController` (the selector
/// and the labels are the template's labels when empty, replicas 1), then the template.
pub fn set_object_defaults_replication_controller(obj: &mut Value) {
    let tpl_labels = obj.pointer("/spec/template/metadata/labels").filter(|l| l.as_object().is_some_and(|m| !m.is_empty())).cloned();
    if let Some(labels) = tpl_labels {
        if obj.pointer("/spec/selector").and_then(Value::as_object).is_none_or(|m| m.is_empty()) {
            obj["spec"]["selector"] = labels.clone();
        }
        if obj.pointer("/metadata/labels").and_then(Value::as_object).is_none_or(|m| m.is_empty()) {
            obj["metadata"]["labels"] = labels;
        }
    }
    let Some(spec) = obj.as_object_mut().and_then(|root| ensure_obj(root, "spec")) else {
        return;
    };
    set_ptr_default(spec, "replicas", json!(1));
    if let Some(tpl) = spec.get_mut("template").and_then(Value::as_object_mut) {
        set_defaults_pod_template_spec_map(tpl);
    }
}

/// `SetObjectDefaults_DaemonSet`: `SetDefaults_DaemonSet` (a RollingUpdate strategy with
/// maxUnavailable 1 and maxSurge 0, revisionHistoryLimit 10), then the template.
pub fn set_object_defaults_daemon_set(obj: &mut Value) {
    let Some(root) = obj.as_object_mut() else {
        return;
    };
    let Some(spec) = ensure_obj(root, "spec") else {
        return;
    };
    if let Some(strategy) = ensure_obj(spec, "updateStrategy") {
        set_str_default(strategy, "type", "RollingUpdate");
        if strategy.get("type").and_then(Value::as_str) == Some("RollingUpdate") {
            if let Some(ru) = ensure_obj(strategy, "rollingUpdate") {
                set_ptr_default(ru, "maxUnavailable", json!(1));
                set_ptr_default(ru, "maxSurge", json!(0));
            }
        }
    }
    set_ptr_default(spec, "revisionHistoryLimit", json!(10));
    if let Some(tpl) = ensure_obj(spec, "template") {
        set_defaults_pod_template_spec_map(tpl);
    }
}

/// `SetObjectDefaults_StatefulSet`: `SetDefaults_StatefulSet` (OrderedReady, a RollingUpdate
/// strategy with partition 0, the Retain/Retain PVC retention policy, replicas 1,
/// revisionHistoryLimit 10), then the template and each `volumeClaimTemplates` entry as a
/// PersistentVolumeClaim (`volumeMode: Filesystem`, `status.phase: Pending`).
/// (`MaxUnavailableStatefulSet` is alpha in v1.34, so `maxUnavailable` is not defaulted.)
pub fn set_object_defaults_stateful_set(obj: &mut Value) {
    let Some(root) = obj.as_object_mut() else {
        return;
    };
    let Some(spec) = ensure_obj(root, "spec") else {
        return;
    };
    set_str_default(spec, "podManagementPolicy", "OrderedReady");
    if let Some(strategy) = ensure_obj(spec, "updateStrategy") {
        if str_unset(strategy, "type") {
            strategy.insert("type".into(), json!("RollingUpdate"));
            if ptr_unset(strategy, "rollingUpdate") {
                strategy.insert("rollingUpdate".into(), json!({}));
            }
        }
        if strategy.get("type").and_then(Value::as_str) == Some("RollingUpdate") {
            if let Some(ru) = obj_at(strategy, "rollingUpdate") {
                set_ptr_default(ru, "partition", json!(0));
            }
        }
    }
    if let Some(policy) = ensure_obj(spec, "persistentVolumeClaimRetentionPolicy") {
        set_str_default(policy, "whenDeleted", "Retain");
        set_str_default(policy, "whenScaled", "Retain");
    }
    set_ptr_default(spec, "replicas", json!(1));
    set_ptr_default(spec, "revisionHistoryLimit", json!(10));
    if let Some(tpl) = ensure_obj(spec, "template") {
        set_defaults_pod_template_spec_map(tpl);
    }
    if let Some(Value::Array(claims)) = spec.get_mut("volumeClaimTemplates") {
        for c in claims.iter_mut() {
            if let Some(m) = c.as_object_mut() {
                set_defaults_pvc_map(m);
                if m.get("metadata").map(|md| md.get("creationTimestamp").is_none()).unwrap_or(false) {
                    m.get_mut("metadata").and_then(Value::as_object_mut).map(|md| md.insert("creationTimestamp".into(), Value::Null));
                }
            }
        }
    }
}

/// `SetDefaults_PersistentVolumeClaim` and `SetDefaults_PersistentVolumeClaimSpec`:
/// `status.phase: Pending`, `spec.volumeMode: Filesystem`.
fn set_defaults_pvc_map(pvc: &mut Map<String, Value>) {
    if let Some(spec) = ensure_obj(pvc, "spec") {
        set_ptr_default(spec, "volumeMode", json!("Filesystem"));
    }
    if let Some(status) = ensure_obj(pvc, "status") {
        set_str_default(status, "phase", "Pending");
    }
}

/// `SetObjectDefaults_PersistentVolumeClaim`.
pub fn set_object_defaults_pvc(obj: &mut Value) {
    if let Some(m) = obj.as_object_mut() {
        set_defaults_pvc_map(m);
    }
}

/// `SetObjectDefaults_PersistentVolume`: `status.phase: Pending`, reclaim policy Retain,
/// `volumeMode: Filesystem`.
pub fn set_object_defaults_pv(obj: &mut Value) {
    let Some(root) = obj.as_object_mut() else {
        return;
    };
    if let Some(spec) = ensure_obj(root, "spec") {
        set_str_default(spec, "persistentVolumeReclaimPolicy", "Retain");
        set_ptr_default(spec, "volumeMode", json!("Filesystem"));
    }
    if let Some(status) = ensure_obj(root, "status") {
        set_str_default(status, "phase", "Pending");
    }
}

/// A Secret as the v1 → internal conversion and `SetDefaults_Secret` leave it: `stringData`
/// merged into `data` (its values win over `data`'s for the same key) and never stored; `type`
/// Opaque when empty.
pub fn set_object_defaults_secret(obj: &mut Value) {
    let Some(root) = obj.as_object_mut() else {
        return;
    };
    if let Some(Value::Object(string_data)) = root.remove("stringData") {
        let data = root.entry("data").or_insert_with(|| json!({}));
        if !data.is_object() {
            *data = json!({});
        }
        if let Some(d) = data.as_object_mut() {
            for (k, v) in string_data {
                d.insert(k, json!(crate::api::base64::encode(v.as_str().unwrap_or("").as_bytes())));
            }
        }
    }
    if root.get("type").and_then(Value::as_str).unwrap_or("").is_empty() {
        root.insert("type".into(), json!("Opaque"));
    }
}

/// apiextensions/v1 `SetObjectDefaults_CustomResourceDefinition` (`apis/apiextensions/v1/defaults.go`):
/// `names.singular` is the lowercase kind, `names.listKind` the kind + `List`, the conversion
/// strategy `None`.
pub fn set_object_defaults_custom_resource_definition(obj: &mut Value) {
    let kind = obj.pointer("/spec/names/kind").and_then(Value::as_str).unwrap_or("").to_string();
    if let Some(names) = obj.pointer_mut("/spec/names").and_then(Value::as_object_mut) {
        if names.get("singular").and_then(Value::as_str).unwrap_or("").is_empty() && !kind.is_empty() {
            names.insert("singular".into(), json!(kind.to_lowercase()));
        }
        if names.get("listKind").and_then(Value::as_str).unwrap_or("").is_empty() && !kind.is_empty() {
            names.insert("listKind".into(), json!(format!("{}List", kind)));
        }
    }
    if let Some(spec) = obj.get_mut("spec").and_then(Value::as_object_mut) {
        let conv = spec.entry("conversion").or_insert_with(|| json!({}));
        if let Some(c) = conv.as_object_mut() {
            c.entry("strategy").or_insert_with(|| json!("None"));
        }
    }
}

/// `SetDefaults_NetworkPolicy` and `SetDefaults_NetworkPolicyPort`: `policyTypes` `[Ingress]`,
/// plus `Egress` when there are egress rules; a port's protocol TCP.
pub fn set_object_defaults_network_policy(obj: &mut Value) {
    let Some(spec) = obj.get_mut("spec").and_then(Value::as_object_mut) else {
        return;
    };
    for dir in ["ingress", "egress"] {
        if let Some(rules) = spec.get_mut(dir).and_then(Value::as_array_mut) {
            for rule in rules {
                if let Some(ports) = rule.get_mut("ports").and_then(Value::as_array_mut) {
                    for p in ports.iter_mut().filter_map(Value::as_object_mut) {
                        set_ptr_default(p, "protocol", json!("TCP"));
                    }
                }
            }
        }
    }
    if spec.get("policyTypes").and_then(Value::as_array).map(|a| a.is_empty()).unwrap_or(true) {
        let egress = spec.get("egress").and_then(Value::as_array).map(|a| !a.is_empty()).unwrap_or(false);
        spec.insert("policyTypes".into(), if egress { json!(["Ingress", "Egress"]) } else { json!(["Ingress"]) });
    }
}

/// `SetDefaults_PriorityClass`: preemptionPolicy PreemptLowerPriority.
pub fn set_object_defaults_priority_class(obj: &mut Value) {
    if let Some(root) = obj.as_object_mut() {
        set_ptr_default(root, "preemptionPolicy", json!("PreemptLowerPriority"));
    }
}

/// `SetDefaults_StorageClass`: reclaimPolicy Delete, volumeBindingMode Immediate.
pub fn set_object_defaults_storage_class(obj: &mut Value) {
    let Some(root) = obj.as_object_mut() else {
        return;
    };
    set_ptr_default(root, "reclaimPolicy", json!("Delete"));
    set_ptr_default(root, "volumeBindingMode", json!("Immediate"));
}

/// `SetObjectDefaults_Job`: `SetDefaults_Job` (completions and parallelism 1 when both are unset,
/// parallelism 1, backoffLimit 6, NonIndexed, not suspended, podReplacementPolicy
/// TerminatingOrFailed), then the template.
pub fn set_object_defaults_job(obj: &mut Value) {
    let Some(root) = obj.as_object_mut() else {
        return;
    };
    let Some(spec) = ensure_obj(root, "spec") else {
        return;
    };
    if ptr_unset(spec, "completions") && ptr_unset(spec, "parallelism") {
        set_ptr_default(spec, "completions", json!(1));
    }
    set_ptr_default(spec, "parallelism", json!(1));
    // with backoffLimitPerIndex the global limit is math.MaxInt32
    let backoff_limit = if ptr_unset(spec, "backoffLimitPerIndex") { 6 } else { i32::MAX as i64 };
    set_ptr_default(spec, "backoffLimit", json!(backoff_limit));
    set_ptr_default(spec, "completionMode", json!("NonIndexed"));
    set_ptr_default(spec, "suspend", json!(false));
    // a pod failure policy's condition patterns default to status True
    if let Some(rules) = spec.get_mut("podFailurePolicy").and_then(|p| p.get_mut("rules")).and_then(Value::as_array_mut) {
        for rule in rules {
            if let Some(patterns) = rule.get_mut("onPodConditions").and_then(Value::as_array_mut) {
                for p in patterns.iter_mut().filter_map(Value::as_object_mut) {
                    if p.get("status").and_then(Value::as_str).unwrap_or("").is_empty() {
                        p.insert("status".into(), json!("True"));
                    }
                }
            }
        }
    }
    let policy = if ptr_unset(spec, "podFailurePolicy") { "TerminatingOrFailed" } else { "Failed" };
    set_ptr_default(spec, "podReplacementPolicy", json!(policy));
    if let Some(tpl) = ensure_obj(spec, "template") {
        set_defaults_pod_template_spec_map(tpl);
    }
}

/// `SetObjectDefaults_CronJob`: `SetDefaults_CronJob` (concurrencyPolicy Allow, not suspended,
/// history limits 3 and 1), then the Job template's pod template (not the Job's own defaults).
pub fn set_object_defaults_cron_job(obj: &mut Value) {
    let Some(root) = obj.as_object_mut() else {
        return;
    };
    let Some(spec) = ensure_obj(root, "spec") else {
        return;
    };
    set_str_default(spec, "concurrencyPolicy", "Allow");
    set_ptr_default(spec, "suspend", json!(false));
    set_ptr_default(spec, "successfulJobsHistoryLimit", json!(3));
    set_ptr_default(spec, "failedJobsHistoryLimit", json!(1));
    if let Some(jt) = ensure_obj(spec, "jobTemplate") {
        if let Some(js) = ensure_obj(jt, "spec") {
            if let Some(tpl) = ensure_obj(js, "template") {
                set_defaults_pod_template_spec_map(tpl);
            }
        }
    }
}

/// What a Deployment or ReplicaSet template gets: the `PodSpec` defaults and the per-field
/// defaults of containers, probes, ports and volumes. No `SetDefaults_Pod`, so no
/// `enableServiceLinks` and no requests copied from limits.
pub fn set_defaults_pod_template_spec(tpl: &mut Value) {
    if let Some(t) = tpl.as_object_mut() {
        set_defaults_pod_template_spec_map(t);
    }
}

fn set_defaults_pod_template_spec_map(tpl: &mut Map<String, Value>) {
    if let Some(spec) = ensure_obj(tpl, "spec") {
        set_defaults_pod_spec(spec);
    }
}

// ---------------------------------------------------------------------------------------------
// core/v1 Pod
// ---------------------------------------------------------------------------------------------

/// `SetObjectDefaults_Pod`: `SetDefaults_Pod`, then `SetDefaults_PodSpec` and the per-field
/// defaults.
pub fn set_object_defaults_pod(obj: &mut Value) {
    let Some(root) = obj.as_object_mut() else {
        return;
    };
    let Some(spec) = ensure_obj(root, "spec") else {
        return;
    };
    set_defaults_pod(spec);
    set_defaults_pod_spec(spec);
}

/// `SetDefaults_Pod` (pods only, not templates).
fn set_defaults_pod(spec: &mut Map<String, Value>) {
    // If limits are specified but requests are not, requests default to the limits, resource
    // by resource (a resource already requested keeps its request).
    for key in ["containers", "initContainers"] {
        for c in each_obj(spec, key) {
            let Some(res) = obj_at(c, "resources") else {
                continue;
            };
            let limits = match res.get("limits") {
                Some(Value::Object(l)) => l.clone(),
                _ => continue,
            };
            if limits.is_empty() {
                continue;
            }
            let Some(requests) = ensure_obj(res, "requests") else {
                continue;
            };
            for (name, q) in limits {
                requests.entry(name).or_insert(q);
            }
        }
    }
    set_ptr_default(spec, "enableServiceLinks", json!(true));
    // With host networking, every container port also becomes a host port.
    if spec.get("hostNetwork").and_then(Value::as_bool) == Some(true) {
        for key in ["containers", "initContainers"] {
            for c in each_obj(spec, key) {
                for p in each_obj(c, "ports") {
                    if int_unset(p, "hostPort") {
                        if let Some(cp) = p.get("containerPort").cloned() {
                            p.insert("hostPort".into(), cp);
                        }
                    }
                }
            }
        }
    }
}

/// `SetDefaults_PodSpec` plus the generated per-field defaults of everything inside a PodSpec.
fn set_defaults_pod_spec(spec: &mut Map<String, Value>) {
    set_str_default(spec, "dnsPolicy", "ClusterFirst");
    set_str_default(spec, "restartPolicy", "Always");
    set_ptr_default(spec, "securityContext", json!({}));
    set_ptr_default(
        spec,
        "terminationGracePeriodSeconds",
        json!(DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS),
    );
    set_str_default(spec, "schedulerName", "default-scheduler");

    for v in each_obj(spec, "volumes") {
        set_defaults_volume(v);
    }
    for key in ["initContainers", "containers", "ephemeralContainers"] {
        for c in each_obj(spec, key) {
            set_defaults_container(c);
        }
    }
}

/// `SetDefaults_Container` and the generated defaults of a container's ports, env, resources,
/// probes and lifecycle handlers.
pub fn set_defaults_container(c: &mut Map<String, Value>) {
    if str_unset(c, "imagePullPolicy") {
        let image = c.get("image").and_then(Value::as_str).unwrap_or("");
        c.insert("imagePullPolicy".into(), json!(default_pull_policy(image)));
    }
    set_str_default(c, "terminationMessagePath", "/dev/termination-log");
    set_str_default(c, "terminationMessagePolicy", "File");

    for p in each_obj(c, "ports") {
        set_str_default(p, "protocol", "TCP");
    }
    for e in each_obj(c, "env") {
        if let Some(vf) = obj_at(e, "valueFrom") {
            if let Some(fr) = obj_at(vf, "fieldRef") {
                set_str_default(fr, "apiVersion", "v1");
            }
            if let Some(rf) = obj_at(vf, "resourceFieldRef") {
                set_ptr_default(rf, "divisor", json!("0"));
            }
        }
    }
    // `resources` is a non-pointer struct: it always serializes, as `{}` when empty.
    set_ptr_default(c, "resources", json!({}));

    for probe in ["livenessProbe", "readinessProbe", "startupProbe"] {
        if let Some(p) = obj_at(c, probe) {
            set_defaults_probe(p);
        }
    }
    if let Some(lc) = obj_at(c, "lifecycle") {
        for hook in ["postStart", "preStop"] {
            if let Some(h) = obj_at(lc, hook) {
                if let Some(hg) = obj_at(h, "httpGet") {
                    set_defaults_http_get(hg);
                }
            }
        }
    }
}

/// `SetDefaults_Probe` and the defaults of its handler.
fn set_defaults_probe(p: &mut Map<String, Value>) {
    set_int_default(p, "timeoutSeconds", 1);
    set_int_default(p, "periodSeconds", 10);
    set_int_default(p, "successThreshold", 1);
    set_int_default(p, "failureThreshold", 3);
    if let Some(hg) = obj_at(p, "httpGet") {
        set_defaults_http_get(hg);
    }
    if let Some(g) = obj_at(p, "grpc") {
        // zz_generated.defaults.go: a nil gRPC service becomes the empty string.
        set_ptr_default(g, "service", json!(""));
    }
}

/// `SetDefaults_HTTPGetAction`.
fn set_defaults_http_get(hg: &mut Map<String, Value>) {
    set_str_default(hg, "path", "/");
    set_str_default(hg, "scheme", "HTTP");
}

/// `SetDefaults_Volume` and the defaults of the volume sources.
fn set_defaults_volume(v: &mut Map<String, Value>) {
    // A volume that names no source at all becomes an emptyDir.
    let has_source = v.iter().any(|(k, val)| k != "name" && !val.is_null());
    if !has_source {
        v.insert("emptyDir".into(), json!({}));
    }
    for key in ["secret", "configMap"] {
        if let Some(s) = obj_at(v, key) {
            set_ptr_default(s, "defaultMode", json!(DEFAULT_VOLUME_MODE));
        }
    }
    if let Some(d) = obj_at(v, "downwardAPI") {
        set_ptr_default(d, "defaultMode", json!(DEFAULT_VOLUME_MODE));
        set_defaults_downward_api_items(d);
    }
    if let Some(p) = obj_at(v, "projected") {
        set_ptr_default(p, "defaultMode", json!(DEFAULT_VOLUME_MODE));
        for src in each_obj(p, "sources") {
            if let Some(d) = obj_at(src, "downwardAPI") {
                set_defaults_downward_api_items(d);
            }
            if let Some(t) = obj_at(src, "serviceAccountToken") {
                set_ptr_default(t, "expirationSeconds", json!(3600));
            }
        }
    }
    if let Some(h) = obj_at(v, "hostPath") {
        // HostPathUnset is the empty string; it is a pointer, so it shows as `type: ""`.
        set_ptr_default(h, "type", json!(""));
    }
    if let Some(i) = obj_at(v, "iscsi") {
        set_str_default(i, "iscsiInterface", "default");
    }
    if let Some(r) = obj_at(v, "rbd") {
        set_str_default(r, "pool", "rbd");
        set_str_default(r, "user", "admin");
        set_str_default(r, "keyring", "/etc/ceph/keyring");
    }
    if let Some(e) = obj_at(v, "ephemeral") {
        if let Some(t) = obj_at(e, "volumeClaimTemplate") {
            if let Some(s) = obj_at(t, "spec") {
                set_ptr_default(s, "volumeMode", json!("Filesystem"));
            }
        }
    }
}

fn set_defaults_downward_api_items(d: &mut Map<String, Value>) {
    for item in each_obj(d, "items") {
        if let Some(fr) = obj_at(item, "fieldRef") {
            set_str_default(fr, "apiVersion", "v1");
        }
        if let Some(rf) = obj_at(item, "resourceFieldRef") {
            set_ptr_default(rf, "divisor", json!("0"));
        }
    }
}

/// The `imagePullPolicy` default of `SetDefaults_Container`: `Always` when the tag is `latest`
/// (an image without tag or digest defaults to tag `latest`), `IfNotPresent` otherwise —
/// including digest-only images and images that do not parse.
pub fn default_pull_policy(image: &str) -> &'static str {
    match super::image::parse_image(image) {
        Ok(r) if r.tag == "latest" => "Always",
        _ => "IfNotPresent",
    }
}

// ---------------------------------------------------------------------------------------------
// Namespace, Node
// ---------------------------------------------------------------------------------------------

/// `SetObjectDefaults_Namespace`: the `kubernetes.io/metadata.name` label (always set to the
/// name, overwriting a user value, as upstream) and `status.phase: Active`.
///
/// The `kubernetes` finalizer in `spec.finalizers` is *not* a default upstream (it may be removed
/// over the object's life): it is added on create only, see [`prepare_namespace_for_create`].
pub fn set_object_defaults_namespace(obj: &mut Value) {
    let Some(root) = obj.as_object_mut() else {
        return;
    };
    let name = root
        .get("metadata")
        .and_then(|m| m.get("name"))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    if !name.is_empty() {
        if let Some(meta) = ensure_obj(root, "metadata") {
            if let Some(labels) = ensure_obj(meta, "labels") {
                labels.insert("kubernetes.io/metadata.name".into(), json!(name));
            }
        }
    }
    if let Some(status) = ensure_obj(root, "status") {
        set_str_default(status, "phase", "Active");
    }
}

/// The namespace registry's `PrepareForCreate`: status is reset to `{phase: Active}` and the
/// `kubernetes` finalizer is appended to `spec.finalizers` when missing. Call on create only.
pub fn prepare_namespace_for_create(obj: &mut Value) {
    let Some(root) = obj.as_object_mut() else {
        return;
    };
    root.insert("status".into(), json!({"phase": "Active"}));
    let Some(spec) = ensure_obj(root, "spec") else {
        return;
    };
    if ptr_unset(spec, "finalizers") {
        spec.insert("finalizers".into(), json!([]));
    }
    if let Some(f) = spec.get_mut("finalizers").and_then(Value::as_array_mut) {
        if !f.iter().any(|x| x.as_str() == Some("kubernetes")) {
            f.push(json!("kubernetes"));
        }
    }
}

/// `SetObjectDefaults_Node`: `SetDefaults_NodeStatus` copies `capacity` into a missing
/// `allocatable`.
pub fn set_object_defaults_node(obj: &mut Value) {
    let Some(root) = obj.as_object_mut() else {
        return;
    };
    let Some(status) = obj_at(root, "status") else {
        return;
    };
    if ptr_unset(status, "allocatable") {
        if let Some(cap) = status.get("capacity").filter(|c| c.is_object()).cloned() {
            status.insert("allocatable".into(), cap);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Service, Endpoints, EndpointSlice
// ---------------------------------------------------------------------------------------------

/// `v1.DefaultClientIPServiceAffinitySeconds`: three hours.
pub const DEFAULT_CLIENT_IP_SERVICE_AFFINITY_SECONDS: i64 = 10800;

/// `SetObjectDefaults_Service` (`SetDefaults_Service` and the ports' `protocol: TCP`):
/// `sessionAffinity: None` (its config dropped) or, for `ClientIP`, a 3-hour timeout;
/// `type: ClusterIP`; each port's `targetPort` is its `port` when unset or `0`/`""`;
/// `externalTrafficPolicy: Cluster` for a Service reachable from outside (NodePort,
/// LoadBalancer, or ClusterIP with `externalIPs`); `internalTrafficPolicy: Cluster` for
/// ClusterIP, NodePort and LoadBalancer; `allocateLoadBalancerNodePorts: true` for LoadBalancer.
/// The non-pointer `status.loadBalancer` prints as `{}`.
pub fn set_object_defaults_service(obj: &mut Value) {
    let Some(root) = obj.as_object_mut() else {
        return;
    };
    if let Some(spec) = ensure_obj(root, "spec") {
        set_str_default(spec, "sessionAffinity", "None");
        match spec.get("sessionAffinity").and_then(Value::as_str) {
            Some("None") => {
                spec.remove("sessionAffinityConfig");
            }
            Some("ClientIP") => {
                let has = spec
                    .get("sessionAffinityConfig")
                    .and_then(|c| c.get("clientIP"))
                    .and_then(|c| c.get("timeoutSeconds"))
                    .map(|t| !t.is_null())
                    .unwrap_or(false);
                if !has {
                    spec.insert(
                        "sessionAffinityConfig".into(),
                        json!({"clientIP": {"timeoutSeconds": DEFAULT_CLIENT_IP_SERVICE_AFFINITY_SECONDS}}),
                    );
                }
            }
            _ => {}
        }
        set_str_default(spec, "type", "ClusterIP");
        if let Some(ports) = spec.get_mut("ports").and_then(Value::as_array_mut) {
            for p in ports.iter_mut().filter_map(Value::as_object_mut) {
                set_str_default(p, "protocol", "TCP");
                let unset = match p.get("targetPort") {
                    None | Some(Value::Null) => true,
                    Some(Value::Number(n)) => n.as_i64() == Some(0),
                    Some(Value::String(s)) => s.is_empty(),
                    _ => false,
                };
                if unset {
                    if let Some(port) = p.get("port").cloned() {
                        p.insert("targetPort".into(), port);
                    }
                }
            }
        }
        let ty = spec.get("type").and_then(Value::as_str).unwrap_or("").to_string();
        let external_ips = spec.get("externalIPs").and_then(Value::as_array).map(|a| !a.is_empty()).unwrap_or(false);
        let externally_accessible = ty == "NodePort" || ty == "LoadBalancer" || (ty == "ClusterIP" && external_ips);
        if externally_accessible {
            set_str_default(spec, "externalTrafficPolicy", "Cluster");
        }
        if ptr_unset(spec, "internalTrafficPolicy") && matches!(ty.as_str(), "ClusterIP" | "NodePort" | "LoadBalancer") {
            spec.insert("internalTrafficPolicy".into(), json!("Cluster"));
        }
        if ty == "LoadBalancer" && ptr_unset(spec, "allocateLoadBalancerNodePorts") {
            spec.insert("allocateLoadBalancerNodePorts".into(), json!(true));
        }
    }
    if let Some(status) = ensure_obj(root, "status") {
        if ptr_unset(status, "loadBalancer") {
            status.insert("loadBalancer".into(), json!({}));
        }
    }
}

/// `SetObjectDefaults_Endpoints`: each subset port's `protocol: TCP`.
pub fn set_object_defaults_endpoints(obj: &mut Value) {
    if let Some(subsets) = obj.get_mut("subsets").and_then(Value::as_array_mut) {
        for s in subsets.iter_mut() {
            if let Some(ports) = s.get_mut("ports").and_then(Value::as_array_mut) {
                for p in ports.iter_mut().filter_map(Value::as_object_mut) {
                    set_str_default(p, "protocol", "TCP");
                }
            }
        }
    }
}

/// `SetObjectDefaults_EndpointSlice` (discovery/v1 `SetDefaults_EndpointPort`): a port's `name`
/// defaults to `""` and its `protocol` to `TCP`.
pub fn set_object_defaults_endpoint_slice(obj: &mut Value) {
    if let Some(ports) = obj.get_mut("ports").and_then(Value::as_array_mut) {
        for p in ports.iter_mut().filter_map(Value::as_object_mut) {
            if ptr_unset(p, "name") {
                p.insert("name".into(), json!(""));
            }
            if ptr_unset(p, "protocol") {
                p.insert("protocol".into(), json!("TCP"));
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Admission
// ---------------------------------------------------------------------------------------------

/// The mutating admission plugins that touch a new Pod, in the apiserver's plugin order
/// (ServiceAccount, Priority, DefaultTolerationSeconds). Runs after defaulting, before
/// validation. `volume_suffix` is the 5 random characters of `kube-api-access-xxxxx` (drawn by
/// the caller from the `names` alphabet).
///
/// - ServiceAccount: `serviceAccountName` (and the deprecated `serviceAccount` that the v1
///   conversion mirrors) default to `default`; unless `automountServiceAccountToken` is false,
///   every container and init container without a mount at
///   `/var/run/secrets/kubernetes.io/serviceaccount` gets a read-only mount of a projected
///   volume (token with `expirationSeconds: 3607`, the `kube-root-ca.crt` ConfigMap, the
///   namespace through the downward API). Mirror pods are skipped.
/// - Priority: with no `priorityClassName` (and no global default class) `priority: 0` and
///   `preemptionPolicy: PreemptLowerPriority`; the two built-in classes
///   `system-cluster-critical` (2000000000) and `system-node-critical` (2000001000) are known.
///   Upstream rejects a pod whose given `priority` differs from the computed one; kubesim keeps
///   a user-supplied value (that rejection is not modelled here).
/// - DefaultTolerationSeconds: `node.kubernetes.io/not-ready` and `.../unreachable` NoExecute
///   tolerations with `tolerationSeconds: 300`, unless the pod already tolerates them.
pub fn admit_pod(pod: &mut Value, volume_suffix: &str, service_account: Option<&Value>) {
    let Some(root) = pod.as_object_mut() else {
        return;
    };
    let is_mirror = root
        .get("metadata")
        .and_then(|m| m.get("annotations"))
        .and_then(|a| a.get("kubernetes.io/config.mirror"))
        .is_some();
    let Some(spec) = ensure_obj(root, "spec") else {
        return;
    };
    if !is_mirror {
        admit_service_account(spec, volume_suffix, service_account);
    }
    admit_priority(spec);
    admit_default_toleration_seconds(spec);
}

fn admit_service_account(spec: &mut Map<String, Value>, volume_suffix: &str, service_account: Option<&Value>) {
    // v1 -> internal conversion: the deprecated serviceAccount fills an empty serviceAccountName.
    if str_unset(spec, "serviceAccountName") {
        let deprecated = spec
            .get("serviceAccount")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let sa = if deprecated.is_empty() {
            "default".to_string()
        } else {
            deprecated
        };
        spec.insert("serviceAccountName".into(), json!(sa));
    }
    // internal -> v1 conversion mirrors the name into the deprecated field.
    let sa = spec
        .get("serviceAccountName")
        .cloned()
        .unwrap_or(json!("default"));
    spec.insert("serviceAccount".into(), sa);

    // imagePullSecrets: a Pod that lists none gets its ServiceAccount's
    let sa_pull_secrets = service_account
        .map(|sa| meta::get_array(sa, &["imagePullSecrets"]).to_vec())
        .unwrap_or_default();
    if ptr_unset(spec, "imagePullSecrets") && !sa_pull_secrets.is_empty() {
        let refs: Vec<Value> = sa_pull_secrets
            .iter()
            .map(|r| json!({"name": meta::get_str(r, &["name"])}))
            .collect();
        spec.insert("imagePullSecrets".into(), Value::Array(refs));
    }

    // shouldAutomount: the pod's own setting wins, then the ServiceAccount's, else true.
    let automount = spec
        .get("automountServiceAccountToken")
        .and_then(Value::as_bool)
        .or_else(|| service_account.and_then(|sa| sa.get("automountServiceAccountToken")).and_then(Value::as_bool))
        .unwrap_or(true);
    if !automount {
        return;
    }

    // Reuse an existing kube-api-access-* volume if the pod already has one.
    let prefix = format!("{}-", SERVICE_ACCOUNT_VOLUME_NAME);
    let existing = spec
        .get("volumes")
        .and_then(Value::as_array)
        .and_then(|vols| {
            vols.iter()
                .filter_map(|v| v.get("name").and_then(Value::as_str))
                .find(|n| n.starts_with(&prefix))
                .map(str::to_string)
        });
    let has_token_volume = existing.is_some();
    let volume_name = existing.unwrap_or_else(|| format!("{}{}", prefix, volume_suffix));
    let mount = json!({
        "name": volume_name,
        "readOnly": true,
        "mountPath": DEFAULT_API_TOKEN_MOUNT_PATH,
    });

    let mut needs_volume = false;
    for key in ["initContainers", "containers"] {
        for c in each_obj(spec, key) {
            let already = c
                .get("volumeMounts")
                .and_then(Value::as_array)
                .is_some_and(|ms| {
                    ms.iter().any(|m| {
                        m.get("mountPath").and_then(Value::as_str)
                            == Some(DEFAULT_API_TOKEN_MOUNT_PATH)
                    })
                });
            if already {
                continue;
            }
            if ptr_unset(c, "volumeMounts") {
                c.insert("volumeMounts".into(), json!([]));
            }
            if let Some(ms) = c.get_mut("volumeMounts").and_then(Value::as_array_mut) {
                ms.push(mount.clone());
                needs_volume = true;
            }
        }
    }

    if needs_volume && !has_token_volume {
        if ptr_unset(spec, "volumes") {
            spec.insert("volumes".into(), json!([]));
        }
        if let Some(vols) = spec.get_mut("volumes").and_then(Value::as_array_mut) {
            vols.push(json!({
                "name": volume_name,
                "projected": token_volume_source(),
            }));
        }
    }
}

/// `TokenVolumeSource()` of the ServiceAccount plugin (defaultMode is set explicitly because
/// admission runs after defaulting).
fn token_volume_source() -> Value {
    json!({
        "defaultMode": DEFAULT_VOLUME_MODE,
        "sources": [
            {"serviceAccountToken": {"expirationSeconds": WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS, "path": "token"}},
            {"configMap": {"name": "kube-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}},
            {"downwardAPI": {"items": [{"path": "namespace", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"}}]}},
        ],
    })
}

fn admit_priority(spec: &mut Map<String, Value>) {
    let class = spec
        .get("priorityClassName")
        .and_then(Value::as_str)
        .unwrap_or("");
    let priority = match class {
        "system-node-critical" => 2_000_001_000,
        "system-cluster-critical" => 2_000_000_000,
        // scheduling.DefaultPriorityWhenNoDefaultClassExists. An unknown class is rejected
        // upstream ("no PriorityClass with name ... was found"); kubesim falls back to 0.
        _ => 0,
    };
    set_ptr_default(spec, "priority", json!(priority));
    set_ptr_default(spec, "preemptionPolicy", json!("PreemptLowerPriority"));
}

fn admit_default_toleration_seconds(spec: &mut Map<String, Value>) {
    let mut tolerates_not_ready = false;
    let mut tolerates_unreachable = false;
    if let Some(ts) = spec.get("tolerations").and_then(Value::as_array) {
        for t in ts {
            let key = t.get("key").and_then(Value::as_str).unwrap_or("");
            let effect = t.get("effect").and_then(Value::as_str).unwrap_or("");
            let effect_ok = effect == "NoExecute" || effect.is_empty();
            if (key == "node.kubernetes.io/not-ready" || key.is_empty()) && effect_ok {
                tolerates_not_ready = true;
            }
            if (key == "node.kubernetes.io/unreachable" || key.is_empty()) && effect_ok {
                tolerates_unreachable = true;
            }
        }
    }
    if tolerates_not_ready && tolerates_unreachable {
        return;
    }
    if ptr_unset(spec, "tolerations") {
        spec.insert("tolerations".into(), json!([]));
    }
    let Some(ts) = spec.get_mut("tolerations").and_then(Value::as_array_mut) else {
        return;
    };
    for (tolerated, key) in [
        (tolerates_not_ready, "node.kubernetes.io/not-ready"),
        (tolerates_unreachable, "node.kubernetes.io/unreachable"),
    ] {
        if !tolerated {
            ts.push(json!({
                "key": key,
                "operator": "Exists",
                "effect": "NoExecute",
                "tolerationSeconds": DEFAULT_TOLERATION_SECONDS,
            }));
        }
    }
}

/// rbac/v1 `SetDefaults_RoleBinding` / `SetDefaults_ClusterRoleBinding` and
/// `SetDefaults_Subject`: the roleRef's group, and a User's or Group's subject group.
pub fn set_object_defaults_rbac_binding(obj: &mut Value) {
    const GROUP: &str = "rbac.authorization.k8s.io";
    if meta::get_str(obj, &["roleRef", "apiGroup"]).is_empty() {
        if let Some(r) = obj.get_mut("roleRef").and_then(Value::as_object_mut) {
            r.insert("apiGroup".into(), json!(GROUP));
        }
    }
    if let Some(subjects) = obj.get_mut("subjects").and_then(Value::as_array_mut) {
        for s in subjects.iter_mut().filter_map(Value::as_object_mut) {
            let kind = s.get("kind").and_then(Value::as_str).unwrap_or("");
            if (kind == "User" || kind == "Group") && s.get("apiGroup").and_then(Value::as_str).unwrap_or("").is_empty() {
                s.insert("apiGroup".into(), json!(GROUP));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed_deployment() -> Value {
        json!({
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "metadata": {"name": "nginx", "namespace": "default", "labels": {"app": "nginx"}},
            "spec": {
                "replicas": 3,
                "selector": {"matchLabels": {"app": "nginx"}},
                "template": {
                    "metadata": {"labels": {"app": "nginx"}},
                    "spec": {"containers": [{"name": "nginx", "image": "nginx:1.27", "ports": [{"containerPort": 80}]}]}
                }
            }
        })
    }

    #[test]
    fn deployment_defaults_seed_nginx() {
        let mut d = seed_deployment();
        set_object_defaults_deployment(&mut d);
        let want = json!({
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "metadata": {"name": "nginx", "namespace": "default", "labels": {"app": "nginx"}},
            "spec": {
                "replicas": 3,
                "progressDeadlineSeconds": 600,
                "revisionHistoryLimit": 10,
                "selector": {"matchLabels": {"app": "nginx"}},
                "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}},
                "template": {
                    "metadata": {"labels": {"app": "nginx"}},
                    "spec": {
                        "containers": [{
                            "name": "nginx",
                            "image": "nginx:1.27",
                            "imagePullPolicy": "IfNotPresent",
                            "ports": [{"containerPort": 80, "protocol": "TCP"}],
                            "resources": {},
                            "terminationMessagePath": "/dev/termination-log",
                            "terminationMessagePolicy": "File"
                        }],
                        "dnsPolicy": "ClusterFirst",
                        "restartPolicy": "Always",
                        "schedulerName": "default-scheduler",
                        "securityContext": {},
                        "terminationGracePeriodSeconds": 30
                    }
                }
            }
        });
        assert_eq!(d, want);
        // Defaulting is idempotent.
        let mut again = d.clone();
        set_object_defaults_deployment(&mut again);
        assert_eq!(again, d);
    }

    struct SpecCase {
        name: &'static str,
        spec: Value,
        pointer: &'static str,
        want: Value,
    }

    #[test]
    fn deployment_spec_defaults_table() {
        let cases = vec![
            SpecCase {
                name: "replicas default 1",
                spec: json!({}),
                pointer: "/spec/replicas",
                want: json!(1),
            },
            SpecCase {
                name: "replicas 0 kept",
                spec: json!({"replicas": 0}),
                pointer: "/spec/replicas",
                want: json!(0),
            },
            SpecCase {
                name: "recreate gets no rollingUpdate",
                spec: json!({"strategy": {"type": "Recreate"}}),
                pointer: "/spec/strategy",
                want: json!({"type": "Recreate"}),
            },
            SpecCase {
                name: "partial rollingUpdate kept",
                spec: json!({"strategy": {"rollingUpdate": {"maxSurge": 1}}}),
                pointer: "/spec/strategy",
                want: json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1, "maxUnavailable": "25%"}}),
            },
            SpecCase {
                name: "rollingUpdate with Recreate untouched",
                spec: json!({"strategy": {"type": "Recreate", "rollingUpdate": {"maxSurge": 1}}}),
                pointer: "/spec/strategy",
                want: json!({"type": "Recreate", "rollingUpdate": {"maxSurge": 1}}),
            },
            SpecCase {
                name: "revisionHistoryLimit 0 kept",
                spec: json!({"revisionHistoryLimit": 0}),
                pointer: "/spec/revisionHistoryLimit",
                want: json!(0),
            },
            SpecCase {
                name: "progressDeadlineSeconds kept",
                spec: json!({"progressDeadlineSeconds": 30}),
                pointer: "/spec/progressDeadlineSeconds",
                want: json!(30),
            },
            SpecCase {
                name: "missing template still gets PodSpec defaults",
                spec: json!({}),
                pointer: "/spec/template/spec/dnsPolicy",
                want: json!("ClusterFirst"),
            },
            SpecCase {
                name: "template gets no enableServiceLinks",
                spec: json!({}),
                pointer: "/spec/template/spec/enableServiceLinks",
                want: Value::Null,
            },
            SpecCase {
                name: "template does not copy limits to requests",
                spec: json!({"template": {"spec": {"containers": [{"name": "a", "image": "a", "resources": {"limits": {"cpu": "1"}}}]}}}),
                pointer: "/spec/template/spec/containers/0/resources",
                want: json!({"limits": {"cpu": "1"}}),
            },
        ];
        for c in cases {
            let mut d = json!({"spec": c.spec});
            set_object_defaults_deployment(&mut d);
            assert_eq!(
                d.pointer(c.pointer).cloned().unwrap_or(Value::Null),
                c.want,
                "case {}",
                c.name
            );
        }
        let mut rs = json!({"spec": {}});
        set_object_defaults_replica_set(&mut rs);
        assert_eq!(rs["spec"]["replicas"], json!(1));
        assert!(rs["spec"].get("strategy").is_none());
    }

    #[test]
    fn pull_policy_table() {
        let cases = [
            ("no tag", "nginx", "Always"),
            ("latest", "nginx:latest", "Always"),
            ("versioned", "nginx:1.27", "IfNotPresent"),
            ("registry port no tag", "localhost:5000/nginx", "Always"),
            ("registry port with tag", "registry.example.com:5000/team/app:v2", "IfNotPresent"),
            ("digest only", "nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "IfNotPresent"),
            ("latest and digest", "nginx:latest@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "Always"),
            ("uppercase repository fails to parse", "Nginx", "IfNotPresent"),
            ("empty", "", "IfNotPresent"),
            ("bad tag", "nginx:-x", "IfNotPresent"),
            ("uppercase domain ok", "Registry.io/nginx", "Always"),
        ];
        for (name, image, want) in cases {
            assert_eq!(default_pull_policy(image), want, "case {}", name);
        }
    }

    #[test]
    fn pod_defaults() {
        let mut p = json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "p", "namespace": "default"},
            "spec": {
                "containers": [{
                    "name": "app", "image": "busybox", "imagePullPolicy": "Never",
                    "resources": {"limits": {"cpu": "500m", "memory": "64Mi"}, "requests": {"cpu": "100m"}},
                    "livenessProbe": {"httpGet": {"port": 8080}},
                    "readinessProbe": {"grpc": {"port": 9000}, "periodSeconds": 5},
                    "env": [{"name": "N", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}]
                }],
                "volumes": [{"name": "scratch"}, {"name": "cfg", "configMap": {"name": "c"}}, {"name": "h", "hostPath": {"path": "/x"}}]
            }
        });
        set_object_defaults_pod(&mut p);
        let s = &p["spec"];
        let c = &s["containers"][0];
        let cases: Vec<(&str, &Value, Value)> = vec![
            (
                "user pull policy kept",
                &c["imagePullPolicy"],
                json!("Never"),
            ),
            (
                "requests filled from limits",
                &c["resources"]["requests"],
                json!({"cpu": "100m", "memory": "64Mi"}),
            ),
            (
                "liveness defaults",
                &c["livenessProbe"],
                json!({"httpGet": {"port": 8080, "path": "/", "scheme": "HTTP"}, "timeoutSeconds": 1, "periodSeconds": 10, "successThreshold": 1, "failureThreshold": 3}),
            ),
            (
                "readiness keeps period, grpc service",
                &c["readinessProbe"],
                json!({"grpc": {"port": 9000, "service": ""}, "timeoutSeconds": 1, "periodSeconds": 5, "successThreshold": 1, "failureThreshold": 3}),
            ),
            (
                "fieldRef apiVersion",
                &c["env"][0]["valueFrom"]["fieldRef"]["apiVersion"],
                json!("v1"),
            ),
            ("enableServiceLinks", &s["enableServiceLinks"], json!(true)),
            (
                "emptyDir default",
                &s["volumes"][0],
                json!({"name": "scratch", "emptyDir": {}}),
            ),
            (
                "configMap defaultMode",
                &s["volumes"][1]["configMap"]["defaultMode"],
                json!(420),
            ),
            (
                "hostPath type",
                &s["volumes"][2]["hostPath"]["type"],
                json!(""),
            ),
            (
                "terminationGracePeriodSeconds",
                &s["terminationGracePeriodSeconds"],
                json!(30),
            ),
            (
                "schedulerName",
                &s["schedulerName"],
                json!("default-scheduler"),
            ),
        ];
        for (name, got, want) in cases {
            assert_eq!(got, &want, "case {}", name);
        }

        let mut hn = json!({"spec": {"hostNetwork": true, "containers": [{"name": "a", "image": "a", "ports": [{"containerPort": 53}]}]}});
        set_object_defaults_pod(&mut hn);
        assert_eq!(
            hn["spec"]["containers"][0]["ports"][0],
            json!({"containerPort": 53, "hostPort": 53, "protocol": "TCP"})
        );
    }

    #[test]
    fn admission_adds_service_account_priority_tolerations() {
        let mut p = json!({
            "metadata": {"name": "web-1", "namespace": "default"},
            "spec": {"containers": [{"name": "web", "image": "nginx"}], "initContainers": [{"name": "init", "image": "busybox"}]}
        });
        set_object_defaults_pod(&mut p);
        admit_pod(&mut p, "x8k2q", None);
        let s = &p["spec"];
        let mount = json!({"name": "kube-api-access-x8k2q", "readOnly": true, "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount"});
        let cases: Vec<(&str, &Value, Value)> = vec![
            (
                "serviceAccountName",
                &s["serviceAccountName"],
                json!("default"),
            ),
            ("serviceAccount", &s["serviceAccount"], json!("default")),
            (
                "container mount",
                &s["containers"][0]["volumeMounts"],
                json!([mount.clone()]),
            ),
            (
                "init container mount",
                &s["initContainers"][0]["volumeMounts"],
                json!([mount]),
            ),
            (
                "volume",
                &s["volumes"],
                json!([{
                    "name": "kube-api-access-x8k2q",
                    "projected": {
                        "defaultMode": 420,
                        "sources": [
                            {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
                            {"configMap": {"items": [{"key": "ca.crt", "path": "ca.crt"}], "name": "kube-root-ca.crt"}},
                            {"downwardAPI": {"items": [{"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"}, "path": "namespace"}]}}
                        ]
                    }
                }]),
            ),
            (
                "tolerations",
                &s["tolerations"],
                json!([
                    {"effect": "NoExecute", "key": "node.kubernetes.io/not-ready", "operator": "Exists", "tolerationSeconds": 300},
                    {"effect": "NoExecute", "key": "node.kubernetes.io/unreachable", "operator": "Exists", "tolerationSeconds": 300}
                ]),
            ),
            ("priority", &s["priority"], json!(0)),
            (
                "preemptionPolicy",
                &s["preemptionPolicy"],
                json!("PreemptLowerPriority"),
            ),
        ];
        for (name, got, want) in cases {
            assert_eq!(got, &want, "case {}", name);
        }

        // Second pass is a no-op (volume reused, mounts present, tolerations present).
        let before = p.clone();
        admit_pod(&mut p, "zzzzz", None);
        assert_eq!(p, before);
    }

    #[test]
    fn admission_respects_opt_outs() {
        struct Case {
            name: &'static str,
            spec: Value,
            pointer: &'static str,
            want: Value,
        }
        let cases = vec![
            Case {
                name: "automount false: no volume",
                spec: json!({"automountServiceAccountToken": false, "containers": [{"name": "a", "image": "a"}]}),
                pointer: "/spec/volumes",
                want: Value::Null,
            },
            Case {
                name: "custom service account kept",
                spec: json!({"serviceAccountName": "builder", "containers": [{"name": "a", "image": "a"}]}),
                pointer: "/spec/serviceAccount",
                want: json!("builder"),
            },
            Case {
                name: "tolerate-everything toleration suppresses defaults",
                spec: json!({"tolerations": [{"operator": "Exists"}], "containers": []}),
                pointer: "/spec/tolerations",
                want: json!([{"operator": "Exists"}]),
            },
            Case {
                name: "only unreachable added when not-ready tolerated",
                spec: json!({"tolerations": [{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute"}], "containers": []}),
                pointer: "/spec/tolerations/1/key",
                want: json!("node.kubernetes.io/unreachable"),
            },
            Case {
                name: "system-node-critical priority",
                spec: json!({"priorityClassName": "system-node-critical", "containers": []}),
                pointer: "/spec/priority",
                want: json!(2000001000),
            },
        ];
        for c in cases {
            let mut p = json!({"metadata": {"name": "p"}, "spec": c.spec});
            admit_pod(&mut p, "abcde", None);
            assert_eq!(
                p.pointer(c.pointer).cloned().unwrap_or(Value::Null),
                c.want,
                "case {}",
                c.name
            );
        }
    }

    #[test]
    fn namespace_and_node_defaults() {
        let mut ns = json!({"metadata": {"name": "team-a"}});
        set_object_defaults_namespace(&mut ns);
        prepare_namespace_for_create(&mut ns);
        assert_eq!(
            ns,
            json!({
                "metadata": {"name": "team-a", "labels": {"kubernetes.io/metadata.name": "team-a"}},
                "spec": {"finalizers": ["kubernetes"]},
                "status": {"phase": "Active"}
            })
        );
        let mut node = json!({"metadata": {"name": "n1"}, "status": {"capacity": {"cpu": "4", "pods": "110"}}});
        set_object_defaults_node(&mut node);
        assert_eq!(
            node["status"]["allocatable"],
            json!({"cpu": "4", "pods": "110"})
        );
    }

    #[test]
    fn never_panics_on_garbage() {
        for v in [
            json!(null),
            json!(1),
            json!({"spec": 3}),
            json!({"spec": {"template": "x", "strategy": []}}),
            json!({"spec": {"containers": [1, null, {"ports": "x", "resources": 5}], "volumes": [null, {"name": 1}]}}),
        ] {
            let mut a = v.clone();
            set_object_defaults_deployment(&mut a);
            let mut b = v.clone();
            set_object_defaults_pod(&mut b);
            admit_pod(&mut b, "abcde", None);
            let mut c = v.clone();
            set_object_defaults_namespace(&mut c);
            set_object_defaults_node(&mut c);
            set_object_defaults_replica_set(&mut c);
        }
    }
}

/// autoscaling/v2 `SetDefaults_HorizontalPodAutoscaler`: `minReplicas: 1`; no metrics → CPU at
/// 80 % utilization; a `behavior` that is present gets `GenerateHPAScaleUpRules` /
/// `GenerateHPAScaleDownRules` (each field the manifest sets is kept; the scale-down window stays
/// unset: the controller uses its `--horizontal-pod-autoscaler-downscale-stabilization`).
pub fn set_object_defaults_horizontal_pod_autoscaler(obj: &mut Value) {
    let Some(spec) = obj.get_mut("spec").and_then(Value::as_object_mut) else { return };
    if spec.get("minReplicas").map(Value::is_null).unwrap_or(true) {
        spec.insert("minReplicas".into(), json!(1));
    }
    if spec.get("metrics").and_then(Value::as_array).map(|m| m.is_empty()).unwrap_or(true) {
        spec.insert("metrics".into(), json!([{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 80}}}]));
    }
    let Some(behavior) = spec.get_mut("behavior").and_then(Value::as_object_mut) else { return };
    let rules = |given: Option<&Value>, up: bool| {
        let mut r = if up {
            json!({"stabilizationWindowSeconds": 0, "selectPolicy": "Max", "policies": [{"type": "Pods", "value": 4, "periodSeconds": 15}, {"type": "Percent", "value": 100, "periodSeconds": 15}]})
        } else {
            json!({"selectPolicy": "Max", "policies": [{"type": "Percent", "value": 100, "periodSeconds": 15}]})
        };
        if let Some(g) = given.and_then(Value::as_object) {
            for k in ["selectPolicy", "policies", "stabilizationWindowSeconds", "tolerance"] {
                if let Some(v) = g.get(k).filter(|v| !v.is_null()) {
                    r[k] = v.clone();
                }
            }
        }
        r
    };
    let up = rules(behavior.get("scaleUp"), true);
    let down = rules(behavior.get("scaleDown"), false);
    behavior.insert("scaleUp".into(), up);
    behavior.insert("scaleDown".into(), down);
}
