//! A StatefulSet's Pods, claims and revisions, one function each.
//!
//! Real counterpart: `pkg/controller/statefulset/stateful_set_utils.go` (`getParentNameAndOrdinal`,
//! `getPodName`, `getPersistentVolumeClaimName`, `getPersistentVolumeClaims`, `updateStorage`,
//! `initIdentity`, `newStatefulSetPod`, `newVersionedStatefulSetPod`, `isRunningAndReady`,
//! `isHealthy`, `getPatch`, `newRevision`, `ApplyRevision`, `completeRollingUpdate`,
//! `inconsistentStatus`) and `pkg/controller/history/controller_history.go`
//! (`NewControllerRevision`, `HashControllerRevision`, `ControllerRevisionName`).

use crate::api::meta;
use crate::controllers::deployment::util::hash::safe_encode_string;
use crate::controllers::replicaset::util as ru;
use serde_json::{json, Map, Value};

/// `apps.StatefulSetPodNameLabel`.
pub const POD_NAME_LABEL: &str = "statefulset.kubernetes.io/pod-name";
/// `apps.PodIndexLabel` (the PodIndexLabel gate is locked on in v1.34).
pub const POD_INDEX_LABEL: &str = "apps.kubernetes.io/pod-index";
/// `apps.ControllerRevisionHashLabelKey`: on a StatefulSet's Pods it holds the revision's name.
pub const REVISION_LABEL: &str = "controller-revision-hash";
/// `history.ControllerRevisionHashLabel`.
pub const HASH_LABEL: &str = "controller.kubernetes.io/hash";

/// `getParentNameAndOrdinal`: `web-2` → (`web`, 2); a name without `-<digits>` at its end has
/// ordinal −1.
pub fn parent_name_and_ordinal(name: &str) -> (&str, i64) {
    match name.rsplit_once('-') {
        Some((parent, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => match n.parse::<i64>() {
            Ok(o) => (parent, o),
            Err(_) => ("", -1),
        },
        _ => ("", -1),
    }
}

/// `getOrdinal`.
pub fn ordinal(pod: &Value) -> i64 {
    parent_name_and_ordinal(meta::name(pod)).1
}

/// `isMemberOf`: the Pod's name is `<set>-<ordinal>`.
pub fn is_member_of(set: &Value, pod: &Value) -> bool {
    let (parent, ord) = parent_name_and_ordinal(meta::name(pod));
    ord >= 0 && parent == meta::name(set)
}

/// `getStartOrdinal`: `spec.ordinals.start`, else 0.
pub fn start_ordinal(set: &Value) -> i64 {
    meta::get_i64(set, &["spec", "ordinals", "start"]).unwrap_or(0)
}

pub fn replicas(set: &Value) -> i64 {
    meta::get_i64(set, &["spec", "replicas"]).unwrap_or(1)
}

/// `getEndOrdinal`.
pub fn end_ordinal(set: &Value) -> i64 {
    start_ordinal(set) + replicas(set) - 1
}

/// `podInOrdinalRange`.
pub fn pod_in_ordinal_range(pod: &Value, set: &Value) -> bool {
    let o = ordinal(pod);
    o >= start_ordinal(set) && o <= end_ordinal(set)
}

/// `getPodName`.
pub fn pod_name(set: &Value, ordinal: i64) -> String {
    format!("{}-{}", meta::name(set), ordinal)
}

/// `getPersistentVolumeClaimName`: `<template>-<set>-<ordinal>`.
pub fn claim_name(set: &Value, template_name: &str, ordinal: i64) -> String {
    format!("{}-{}-{}", template_name, meta::name(set), ordinal)
}

/// `getPersistentVolumeClaims`: the claims a Pod of this ordinal uses, in template order
/// (upstream builds a map): each template named for the ordinal, in the set's namespace, with
/// the selector's matchLabels over the template's labels.
pub fn persistent_volume_claims(set: &Value, ordinal: i64) -> Vec<(String, Value)> {
    let match_labels = meta::get(set, &["spec", "selector", "matchLabels"]).and_then(Value::as_object).cloned().unwrap_or_default();
    meta::get_array(set, &["spec", "volumeClaimTemplates"])
        .iter()
        .map(|t| {
            let tname = meta::name(t).to_string();
            let mut claim = t.clone();
            let mut md = claim.get("metadata").and_then(Value::as_object).cloned().unwrap_or_default();
            md.insert("name".into(), json!(claim_name(set, &tname, ordinal)));
            md.insert("namespace".into(), json!(meta::namespace(set)));
            md.remove("creationTimestamp");
            let mut labels = md.get("labels").and_then(Value::as_object).cloned().unwrap_or_default();
            for (k, v) in &match_labels {
                labels.insert(k.clone(), v.clone());
            }
            md.insert("labels".into(), Value::Object(labels));
            claim["metadata"] = Value::Object(md);
            claim["apiVersion"] = json!("v1");
            claim["kind"] = json!("PersistentVolumeClaim");
            if let Some(o) = claim.as_object_mut() {
                o.remove("status");
            }
            (tname, claim)
        })
        .collect()
}

/// `updateStorage`: a volume per claim template (replacing a template volume of that name),
/// then the template's other volumes.
fn update_storage(set: &Value, spec: &mut Value, ordinal: i64) {
    let claims = persistent_volume_claims(set, ordinal);
    if claims.is_empty() {
        return;
    }
    let mut volumes: Vec<Value> = claims
        .iter()
        .map(|(tname, c)| json!({"name": tname, "persistentVolumeClaim": {"claimName": meta::name(c)}}))
        .collect();
    for v in meta::get_array(spec, &["volumes"]) {
        if !claims.iter().any(|(t, _)| t == meta::get_str(v, &["name"])) {
            volumes.push(v.clone());
        }
    }
    spec["volumes"] = Value::Array(volumes);
}

/// `newStatefulSetPod` + `setPodRevision`: the Pod of `ordinal` from `template_set`'s template
/// (`GetPodFromTemplate`: labels, annotations, finalizers, `generateName: <set>-`, the controller
/// reference), with its identity (`initIdentity`: name, pod-name and pod-index labels,
/// `hostname`, `subdomain`) and storage.
pub fn new_stateful_set_pod(set: &Value, template_set: &Value, ordinal: i64, revision: &str) -> Value {
    let tpl = meta::get(template_set, &["spec", "template"]).cloned().unwrap_or(json!({}));
    let name = pod_name(set, ordinal);
    let mut labels: Map<String, Value> = meta::get(&tpl, &["metadata", "labels"]).and_then(Value::as_object).cloned().unwrap_or_default();
    labels.insert(POD_NAME_LABEL.into(), json!(name));
    labels.insert(POD_INDEX_LABEL.into(), json!(ordinal.to_string()));
    labels.insert(REVISION_LABEL.into(), json!(revision));
    let mut md = json!({
        "name": name,
        "generateName": format!("{}-", meta::name(set)),
        "namespace": meta::namespace(set),
        "labels": labels,
        "ownerReferences": [meta::new_controller_ref(set, "apps/v1", "StatefulSet")],
    });
    for f in ["annotations", "finalizers"] {
        if let Some(v) = meta::get(&tpl, &["metadata", f]) {
            md[f] = v.clone();
        }
    }
    let mut spec = tpl.get("spec").cloned().unwrap_or(json!({}));
    spec["hostname"] = json!(name);
    let service = meta::get_str(set, &["spec", "serviceName"]);
    if !service.is_empty() {
        spec["subdomain"] = json!(service);
    }
    update_storage(set, &mut spec, ordinal);
    json!({"apiVersion": "v1", "kind": "Pod", "metadata": md, "spec": spec})
}

/// `newVersionedStatefulSetPod`: ordinals below the partition (or, without a rollingUpdate
/// block, below `status.currentReplicas`) are made at the current revision, the others at the
/// update revision.
pub fn new_versioned_pod(set: &Value, current_set: &Value, update_set: &Value, current_revision: &str, update_revision: &str, ordinal: i64) -> Value {
    let rolling = meta::get_str(current_set, &["spec", "updateStrategy", "type"]) == "RollingUpdate";
    let ru_block = meta::get(current_set, &["spec", "updateStrategy", "rollingUpdate"]).filter(|v| !v.is_null());
    let start = start_ordinal(current_set);
    let at_current = match ru_block {
        None => rolling && ordinal < start + meta::get_i64(current_set, &["status", "currentReplicas"]).unwrap_or(0),
        Some(r) => ordinal < start + meta::get_i64(r, &["partition"]).unwrap_or(0),
    };
    if at_current {
        new_stateful_set_pod(set, current_set, ordinal, current_revision)
    } else {
        new_stateful_set_pod(set, update_set, ordinal, update_revision)
    }
}

/// `getPodRevision`.
pub fn pod_revision(pod: &Value) -> &str {
    meta::get_str(pod, &["metadata", "labels", REVISION_LABEL])
}

/// `isCreated`: the Pod has a phase (the ones built in this sync have none).
pub fn is_created(pod: &Value) -> bool {
    !meta::get_str(pod, &["status", "phase"]).is_empty()
}

pub fn is_failed(pod: &Value) -> bool {
    meta::get_str(pod, &["status", "phase"]) == "Failed"
}

pub fn is_succeeded(pod: &Value) -> bool {
    meta::get_str(pod, &["status", "phase"]) == "Succeeded"
}

pub fn is_pending(pod: &Value) -> bool {
    meta::get_str(pod, &["status", "phase"]) == "Pending"
}

/// `isRunningAndReady`.
pub fn is_running_and_ready(pod: &Value) -> bool {
    meta::get_str(pod, &["status", "phase"]) == "Running" && ru::is_pod_ready(pod)
}

/// `isRunningAndAvailable`.
pub fn is_running_and_available(pod: &Value, min_ready_seconds: i32, now_ms: i64) -> bool {
    ru::is_pod_available(pod, min_ready_seconds, now_ms)
}

/// `isHealthy`.
pub fn is_healthy(pod: &Value) -> bool {
    is_running_and_ready(pod) && !meta::is_deleting(pod)
}

/// `isUnavailable`: not healthy, or not yet available for minReadySeconds.
pub fn is_unavailable(pod: &Value, min_ready_seconds: i32, now_ms: i64) -> bool {
    !is_healthy(pod) || !is_running_and_available(pod, min_ready_seconds, now_ms)
}

/// `getPatch`: `{"spec":{"template":{…,"$patch":"replace"}}}`.
pub fn get_patch(set: &Value) -> Value {
    let mut tpl = meta::get(set, &["spec", "template"]).cloned().unwrap_or(json!({}));
    if !tpl.is_object() {
        tpl = json!({});
    }
    tpl["$patch"] = json!("replace");
    json!({"spec": {"template": tpl}})
}

/// Go's `json.Marshal` of a decoded map: keys sorted, no spaces, `<`, `>`, `&`, U+2028 and
/// U+2029 escaped (also kustomize's content hash, `kubectl::kustomize::hasher`).
pub fn go_marshal(v: &Value) -> String {
    let mut out = String::new();
    crate::controllers::deployment::util::hash::write_canonical_json(v, &mut out);
    out.replace('<', "\\u003c").replace('>', "\\u003e").replace('&', "\\u0026").replace('\u{2028}', "\\u2028").replace('\u{2029}', "\\u2029")
}

/// `HashControllerRevision`: FNV-32 (FNV-1) of the data's bytes and the collision count,
/// printed in decimal and `SafeEncodeString`d.
pub fn hash_controller_revision(data: &Value, collision_count: Option<i64>) -> String {
    let mut h: u32 = 2_166_136_261;
    let mut write = |bytes: &[u8]| {
        for b in bytes {
            h = h.wrapping_mul(16_777_619);
            h ^= *b as u32;
        }
    };
    write(go_marshal(data).as_bytes());
    if let Some(c) = collision_count {
        write(c.to_string().as_bytes());
    }
    safe_encode_string(&h.to_string())
}

/// `ControllerRevisionName`: the prefix cut to 223 characters, a dash, the hash.
pub fn controller_revision_name(prefix: &str, hash: &str) -> String {
    let p: String = prefix.chars().take(223).collect();
    format!("{}-{}", p, hash)
}

/// `newRevision` (`history.NewControllerRevision` with the set's annotations).
pub fn new_revision(set: &Value, revision: i64, collision_count: i64) -> Value {
    let data = get_patch(set);
    let hash = hash_controller_revision(&data, Some(collision_count));
    let mut labels = meta::get(set, &["spec", "template", "metadata", "labels"]).and_then(Value::as_object).cloned().unwrap_or_default();
    labels.insert(HASH_LABEL.into(), json!(hash));
    let mut md = json!({
        "name": controller_revision_name(meta::name(set), &hash),
        "namespace": meta::namespace(set),
        "labels": labels,
        "ownerReferences": [meta::new_controller_ref(set, "apps/v1", "StatefulSet")],
    });
    if let Some(a) = meta::get(set, &["metadata", "annotations"]).filter(|a| a.as_object().map_or(false, |m| !m.is_empty())) {
        md["annotations"] = a.clone();
    }
    json!({"apiVersion": "apps/v1", "kind": "ControllerRevision", "metadata": md, "data": data, "revision": revision})
}

/// `ApplyRevision`: the set with the revision's template.
pub fn apply_revision(set: &Value, revision: &Value) -> Value {
    let mut s = set.clone();
    if let Some(mut tpl) = meta::get(revision, &["data", "spec", "template"]).cloned() {
        if let Some(m) = tpl.as_object_mut() {
            m.remove("$patch");
        }
        s["spec"]["template"] = tpl;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `pkg/controller/statefulset/testdata/compatibility_revision_1.34.0.json`: a revision a
    /// v1.34 cluster wrote, named `test-776999688b` (collision count 0).
    #[test]
    fn revision_hash_matches_a_v1_34_cluster() {
        let data: Value = serde_json::from_str(r#"{"spec":{"template":{"$patch":"replace","metadata":{"annotations":{"test":"value"},"labels":{"app":"foo"}},"spec":{"containers":[{"image":"test","imagePullPolicy":"Always","name":"test","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],"dnsPolicy":"ClusterFirst","restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"terminationGracePeriodSeconds":30}}}}"#).unwrap();
        assert_eq!(hash_controller_revision(&data, Some(0)), "776999688b");
    }

    #[test]
    fn ordinals_table() {
        let cases: &[(&str, &str, i64)] = &[
            ("web-0", "web", 0),
            ("web-12", "web", 12),
            ("my-web-3", "my-web", 3),
            ("web", "", -1),
            ("web-", "", -1),
            ("web-x1", "", -1),
        ];
        for (name, parent, ord) in cases {
            assert_eq!(parent_name_and_ordinal(name), (*parent, *ord), "{name}");
        }
    }
}
