//! StatefulSets (`pkg/apis/apps/validation/validation.go`: `ValidateStatefulSet`,
//! `ValidateStatefulSetSpec`, `ValidateStatefulSetUpdate`,
//! `ValidatePersistentVolumeClaimRetentionPolicy`) and the storage kinds they bring
//! (`pkg/apis/core/validation/validation.go`: `ValidatePersistentVolumeClaim`,
//! `ValidatePersistentVolumeClaimSpec`, `ValidatePersistentVolumeClaimUpdate`,
//! `ValidatePersistentVolume`; `pkg/apis/storage/validation/validation.go`:
//! `ValidateStorageClass`, `ValidateStorageClassUpdate`).
//!
//! As upstream, a StatefulSet's pod template is not validated as a pod spec (only its labels
//! and annotations): a bad container is found when the Pod is created (`FailedCreate`).
//!
//! What kubesim simplifies: a PersistentVolume's volume source is checked for presence (exactly
//! one of `hostPath`, `local`, `nfs`, `csi`), not field by field; a PVC's data sources and
//! selectors are not validated.

use super::pod::parse_quantity_at;
use super::*;

/// `ValidateStatefulSet`.
pub fn validate_stateful_set(obj: &Value) -> Vec<FieldError> {
    // ValidateStatefulSetName is NameIsDNSLabel: the name becomes the Pods' hostname prefix
    let mut errs = validate_object_meta(obj, true, name_is_dns_label);
    errs.extend(validate_stateful_set_spec(obj.get("spec")));
    errs
}

/// `ValidateStatefulSetUpdate`: the spec again, then every field but the updatable ones must be
/// unchanged.
pub fn validate_stateful_set_update(new: &Value, old: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta_update(new, old);
    errs.extend(validate_stateful_set_spec(new.get("spec")));
    let strip = |v: &Value| {
        let mut s = v.get("spec").cloned().unwrap_or(json!({}));
        if let Some(m) = s.as_object_mut() {
            for k in ["replicas", "template", "updateStrategy", "minReadySeconds", "ordinals", "persistentVolumeClaimRetentionPolicy"] {
                m.remove(k);
            }
        }
        s
    };
    if !semantic_eq(Some(&strip(new)), Some(&strip(old))) {
        errs.push(FieldError::forbidden(
            "spec",
            "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
        ));
    }
    errs
}

/// `ValidateStatefulSetSpec`.
fn validate_stateful_set_spec(spec: Option<&Value>) -> Errs {
    let path = Path::new("spec");
    let mut errs = Vec::new();
    match get_str(spec, "podManagementPolicy") {
        "" => errs.push(FieldError::required(path.child("podManagementPolicy").as_str(), "")),
        "OrderedReady" | "Parallel" => {}
        p => errs.push(FieldError::invalid(path.child("podManagementPolicy").as_str(), json!(p), "must be 'OrderedReady' or 'Parallel'")),
    }
    let strategy = get(spec, "updateStrategy");
    let sp = path.child("updateStrategy");
    match get_str(strategy, "type") {
        "" => errs.push(FieldError::required(sp.as_str(), "")),
        "OnDelete" => {
            if let Some(ru) = get(strategy, "rollingUpdate") {
                errs.push(FieldError::invalid(sp.child("rollingUpdate").as_str(), ru.clone(), "only allowed for updateStrategy 'RollingUpdate'"));
            }
        }
        "RollingUpdate" => {
            if let Some(ru) = get(strategy, "rollingUpdate") {
                if let Some(p) = get_i64(Some(ru), "partition") {
                    errs.extend(nonnegative(p, &sp.child("rollingUpdate").child("partition")));
                }
            }
        }
        _ => errs.push(FieldError::invalid(sp.as_str(), strategy.cloned().unwrap_or(Value::Null), "must be 'RollingUpdate' or 'OnDelete'")),
    }
    let policy = get(spec, "persistentVolumeClaimRetentionPolicy");
    let pp = path.child("persistentVolumeClaimRetentionPolicy");
    for key in ["whenDeleted", "whenScaled"] {
        let v = get_str(policy, key);
        if v != "Retain" && v != "Delete" {
            errs.push(FieldError::not_supported(pp.child(key).as_str(), json!(v), &["Retain", "Delete"]).json_rendered());
        }
    }
    errs.extend(nonnegative(get_i64(spec, "replicas").unwrap_or(0), &path.child("replicas")));
    if let Some(start) = get_i64(get(spec, "ordinals"), "start") {
        errs.extend(nonnegative(start, &path.child("ordinals.start")));
    }
    errs.extend(nonnegative(get_i64(spec, "minReadySeconds").unwrap_or(0), &path.child("minReadySeconds")));
    let sel = get(spec, "selector");
    match sel {
        None => errs.push(FieldError::required(path.child("selector").as_str(), "")),
        Some(s) => {
            errs.extend(validate_label_selector(Some(s), &path.child("selector")));
            let n = s.get("matchLabels").and_then(Value::as_object).map_or(0, Map::len) + get_arr(Some(s), "matchExpressions").len();
            if n == 0 {
                errs.push(FieldError::invalid(path.child("selector").as_str(), s.clone(), "empty selector is invalid for statefulset").with_raw_value(label_selector_json(Some(s))));
            }
        }
    }
    let tpl = get(spec, "template");
    let tp = path.child("template");
    match label_selector_as_selector(sel) {
        Err(()) => errs.push(FieldError::invalid(path.child("selector").as_str(), sel.cloned().unwrap_or(Value::Null), "").with_raw_value(label_selector_json(sel))),
        Ok(selector) => {
            // ValidatePodTemplateSpecForStatefulSet
            let labels = get(get(tpl, "metadata"), "labels");
            if !selector.is_empty() && !selector.matches(&labels_of(labels)) {
                errs.push(FieldError::invalid(tp.child("metadata").child("labels").as_str(), map_json(labels), "`selector` does not match template `labels`"));
            }
            // upstream leaves the pod spec unvalidated here (a TODO: its volumes are checked
            // against mounts only once the claim templates are added): labels and annotations
            let md = get(tpl, "metadata");
            errs.extend(validate_labels(get(md, "labels"), &tp.child("labels")));
            errs.extend(validate_annotations(get(md, "annotations"), &tp.child("annotations")));
            errs.extend(validate_pod_specific_annotations(get(md, "annotations"), get(tpl, "spec"), &tp.child("annotations")));
        }
    }
    let pod_spec = get(tpl, "spec");
    let rp = get_str(pod_spec, "restartPolicy");
    if rp != "Always" {
        errs.push(FieldError::not_supported(tp.child("spec").child("restartPolicy").as_str(), json!(rp), &["Always"]).json_rendered());
    }
    if get(pod_spec, "activeDeadlineSeconds").is_some() {
        errs.push(FieldError::forbidden(tp.child("spec").child("activeDeadlineSeconds").as_str(), "activeDeadlineSeconds in StatefulSet is not Supported"));
    }
    errs
}

const ACCESS_MODES: [&str; 4] = ["ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"];

/// `validatePersistentVolumeClaimAccessModes` plus the storage request of
/// `ValidatePersistentVolumeClaimSpec`.
fn validate_pvc_spec(spec: Option<&Value>, path: &Path) -> Errs {
    let mut errs = Vec::new();
    let modes = get_arr(spec, "accessModes");
    if modes.is_empty() {
        errs.push(FieldError::required(path.child("accessModes").as_str(), "at least 1 access mode is required"));
    }
    let mut seen_rwop = false;
    for m in modes {
        let s = m.as_str().unwrap_or("");
        if !ACCESS_MODES.contains(&s) {
            errs.push(FieldError::not_supported(path.child("accessModes").as_str(), json!(s), &ACCESS_MODES).json_rendered());
        }
        seen_rwop |= s == "ReadWriteOncePod";
    }
    if seen_rwop && modes.len() > 1 {
        errs.push(FieldError::forbidden(path.child("accessModes").as_str(), "may not use ReadWriteOncePod with other access modes"));
    }
    let rp = path.child("resources").key("storage");
    match get(get(get(spec, "resources"), "requests"), "storage") {
        None => errs.push(FieldError::required(rp.as_str(), "")),
        Some(v) => {
            if let Some(q) = parse_quantity_at(v, &rp, &mut errs) {
                if q.nanos() <= 0 {
                    errs.push(FieldError::invalid(rp.as_str(), json!(q.to_string()), "must be greater than zero"));
                }
            }
        }
    }
    if let Some(vm) = get(spec, "volumeMode") {
        let s = vm.as_str().unwrap_or("");
        if s != "Block" && s != "Filesystem" {
            errs.push(FieldError::not_supported(path.child("volumeMode").as_str(), json!(s), &["Block", "Filesystem"]).json_rendered());
        }
    }
    errs
}

/// `ValidatePersistentVolumeClaim`.
pub fn validate_pvc(obj: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta(obj, true, name_is_dns_subdomain);
    errs.extend(validate_pvc_spec(obj.get("spec"), &Path::new("spec")));
    errs
}

/// `ValidatePersistentVolumeClaimUpdate`: the spec may change only in `resources.requests`
/// (growing, for a bound claim) and `volumeAttributesClassName`; binding sets `volumeName` once.
pub fn validate_pvc_update(new: &Value, old: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta_update(new, old);
    errs.extend(validate_pvc_spec(new.get("spec"), &Path::new("spec")));
    let strip = |v: &Value, volume_name: bool| {
        let mut s = v.get("spec").cloned().unwrap_or(json!({}));
        if let Some(m) = s.as_object_mut() {
            m.remove("resources");
            m.remove("volumeAttributesClassName");
            if volume_name {
                m.remove("volumeName");
            }
        }
        s
    };
    // the binder may fill in an empty volumeName (and the class, for a claim without one)
    let binding = get_str(old.get("spec"), "volumeName").is_empty();
    if !semantic_eq(Some(&strip(new, binding)), Some(&strip(old, binding))) {
        errs.push(FieldError::forbidden("spec", "spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims"));
    }
    errs
}

/// `ValidatePersistentVolume` (the parts kubesim checks): capacity with storage, access
/// modes, exactly one volume source, the reclaim policy.
pub fn validate_pv(obj: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta(obj, false, name_is_dns_subdomain);
    let spec = obj.get("spec");
    let path = Path::new("spec");
    let modes = get_arr(spec, "accessModes");
    if modes.is_empty() {
        errs.push(FieldError::required(path.child("accessModes").as_str(), ""));
    }
    for m in modes {
        let s = m.as_str().unwrap_or("");
        if !ACCESS_MODES.contains(&s) {
            errs.push(FieldError::not_supported(path.child("accessModes").as_str(), json!(s), &ACCESS_MODES).json_rendered());
        }
    }
    let cap = get(spec, "capacity");
    if cap.and_then(Value::as_object).map_or(true, |m| m.is_empty()) {
        errs.push(FieldError::required(path.child("capacity").as_str(), ""));
    } else if let Some(v) = get(cap, "storage") {
        let cp = path.child("capacity").key("storage");
        if let Some(q) = parse_quantity_at(v, &cp, &mut errs) {
            if q.nanos() <= 0 {
                errs.push(FieldError::invalid(cp.as_str(), json!(q.to_string()), "must be greater than zero"));
            }
        }
    } else {
        errs.push(FieldError::required(path.child("capacity").key("storage").as_str(), ""));
    }
    let policy = get_str(spec, "persistentVolumeReclaimPolicy");
    if !["Delete", "Recycle", "Retain"].contains(&policy) {
        errs.push(FieldError::not_supported(path.child("persistentVolumeReclaimPolicy").as_str(), json!(policy), &["Delete", "Recycle", "Retain"]).json_rendered());
    }
    let sources = ["hostPath", "local", "nfs", "csi"].iter().filter(|k| get(spec, k).is_some()).count();
    if sources == 0 {
        errs.push(FieldError::required("spec", "must specify a volume type"));
    } else if sources > 1 {
        errs.push(FieldError::forbidden("spec", "may not specify more than 1 volume type"));
    }
    errs
}

/// `ValidateStorageClass`: a provisioner, and the reclaim policy and binding mode v1.34 knows.
pub fn validate_storage_class(obj: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta(obj, false, name_is_dns_subdomain);
    let o = Some(obj);
    let provisioner = get_str(o, "provisioner");
    if provisioner.is_empty() {
        errs.push(FieldError::required("provisioner", ""));
    } else if provisioner.len() > 253 {
        errs.push(FieldError::too_long("provisioner", 253));
    }
    let rp = get_str(o, "reclaimPolicy");
    if rp != "Delete" && rp != "Retain" {
        errs.push(FieldError::not_supported("reclaimPolicy", json!(rp), &["Delete", "Retain"]).json_rendered());
    }
    let bm = get_str(o, "volumeBindingMode");
    if bm != "Immediate" && bm != "WaitForFirstConsumer" {
        errs.push(FieldError::not_supported("volumeBindingMode", json!(bm), &["Immediate", "WaitForFirstConsumer"]).json_rendered());
    }
    errs
}

/// `ValidateStorageClassUpdate`: parameters, provisioner, reclaim policy and binding mode are
/// immutable.
pub fn validate_storage_class_update(new: &Value, old: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta_update(new, old);
    if !semantic_eq(new.get("parameters"), old.get("parameters")) {
        errs.push(FieldError::forbidden("parameters", "updates to parameters are forbidden."));
    }
    if new.get("provisioner") != old.get("provisioner") {
        errs.push(FieldError::forbidden("provisioner", "updates to provisioner are forbidden."));
    }
    if new.get("reclaimPolicy") != old.get("reclaimPolicy") {
        errs.push(FieldError::forbidden("reclaimPolicy", "updates to reclaimPolicy are forbidden."));
    }
    if new.get("volumeBindingMode") != old.get("volumeBindingMode") {
        errs.push(FieldError::invalid("volumeBindingMode", new.get("volumeBindingMode").cloned().unwrap_or(Value::Null), FIELD_IMMUTABLE_ERROR_MSG));
    }
    errs
}
