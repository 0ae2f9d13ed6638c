//! `pkg/apis/core/validation/validation.go`, the Pod: `ValidatePodCreate`, `ValidatePodSpec`,
//! containers, ports, env, volumes, resources, tolerations, and `ValidatePodUpdate`.

use super::*;
// =============================================================================================
// Pod
// =============================================================================================

/// `ValidatePodCreate`.
pub fn validate_pod(obj: &Value) -> Vec<FieldError> {
    let mut errs = validate_pod_metadata_and_spec(obj);
    let spec = get(Some(obj), "spec");
    if !get_arr(spec, "ephemeralContainers").is_empty() {
        errs.push(FieldError::forbidden(
            "spec.ephemeralContainers",
            "cannot be set on create",
        ));
    }
    if !get_str(spec, "nodeName").is_empty() && !get_arr(spec, "schedulingGates").is_empty() {
        errs.push(FieldError::forbidden(
            "spec.nodeName",
            "cannot be set until all schedulingGates have been cleared",
        ));
    }
    errs
}

/// `validatePodMetadataAndSpec`.
pub(super) fn validate_pod_metadata_and_spec(obj: &Value) -> Errs {
    let meta_path = Path::new("metadata");
    let spec_path = Path::new("spec");
    let meta = get(Some(obj), "metadata");
    let spec = get(Some(obj), "spec");
    let mut errs = validate_object_meta(obj, true, name_is_dns_subdomain);
    errs.extend(validate_pod_specific_annotations(
        get(meta, "annotations"),
        spec,
        &meta_path.child("annotations"),
    ));
    errs.extend(validate_pod_spec(spec, meta, &spec_path, true));

    // Pod-only checks (not templates), kept apart upstream for backwards compatibility.
    if get_str(spec, "serviceAccountName").is_empty() {
        for (vi, vol) in get_arr(spec, "volumes").iter().enumerate() {
            for (si, src) in get_arr(get(Some(vol), "projected"), "sources")
                .iter()
                .enumerate()
            {
                if get(Some(src), "serviceAccountToken").is_some() {
                    let p = spec_path
                        .child("volumes")
                        .index(vi)
                        .child("projected")
                        .child("sources")
                        .index(si)
                        .child("serviceAccountToken");
                    errs.push(FieldError::forbidden(
                        p.as_str(),
                        "must not be specified when serviceAccountName is not set",
                    ));
                }
            }
        }
    }
    for key in ["containers", "initContainers"] {
        for (i, c) in get_arr(spec, key).iter().enumerate() {
            let image = get_str(Some(c), "image");
            if image.len() != image.trim().len() {
                errs.push(FieldError::invalid(
                    spec_path.child(key).index(i).child("image").as_str(),
                    json!(image),
                    "must not have leading or trailing whitespace",
                ));
            }
        }
    }
    errs
}

/// `ValidatePodSpecificAnnotations` (mirror pods, pod-deletion-cost, seccomp and AppArmor
/// annotations; the alpha tolerations annotation is not modelled).
pub(super) fn validate_pod_specific_annotations(
    annotations: Option<&Value>,
    spec: Option<&Value>,
    path: &Path,
) -> Errs {
    let mut errs = Vec::new();
    let ann: BTreeMap<String, String> = string_map(annotations).into_iter().collect();
    if let Some(v) = ann.get("kubernetes.io/config.mirror") {
        if get_str(spec, "nodeName").is_empty() {
            errs.push(FieldError::invalid(
                path.key("kubernetes.io/config.mirror").as_str(),
                json!(v),
                "must set spec.nodeName if mirror pod annotation is set",
            ));
        }
    }
    if let Some(v) = ann.get("controller.kubernetes.io/pod-deletion-cost") {
        if !valid_deletion_cost(v) {
            errs.push(FieldError::invalid(
                path.key("controller.kubernetes.io/pod-deletion-cost")
                    .as_str(),
                json!(v),
                "must be a 32bit integer",
            ));
        }
    }
    // ValidateSeccompPodAnnotations.
    if let Some(p) = ann.get("seccomp.security.alpha.kubernetes.io/pod") {
        errs.extend(validate_seccomp_profile_annotation(
            p,
            &path.child("seccomp.security.alpha.kubernetes.io/pod"),
        ));
    }
    for (k, p) in &ann {
        if k.starts_with("container.seccomp.security.alpha.kubernetes.io/") {
            errs.extend(validate_seccomp_profile_annotation(p, &path.child(k)));
        }
    }
    // ValidateAppArmorPodAnnotations.
    for (k, p) in &ann {
        let Some(container) = k.strip_prefix("container.apparmor.security.beta.kubernetes.io/")
        else {
            continue;
        };
        if !pod_spec_has_container(spec, container) {
            errs.push(FieldError::invalid(
                path.key(k).as_str(),
                json!(container),
                "container not found",
            ));
        }
        if !(p.is_empty()
            || p == "runtime/default"
            || p == "unconfined"
            || p.starts_with("localhost/"))
        {
            errs.push(FieldError::invalid(
                path.key(k).as_str(),
                json!(p),
                &format!("invalid AppArmor profile name: {}", go_quote(p)),
            ));
        }
    }
    errs
}

/// `GetDeletionCostFromPodAnnotations`: no `+`, no leading zeros, a 32-bit integer.
pub(super) fn valid_deletion_cost(v: &str) -> bool {
    let first_ok = match v.as_bytes().first() {
        None => false,
        Some(b'-') => true,
        Some(b'0') => v == "0",
        Some(c) => c.is_ascii_digit(),
    };
    first_ok && v.parse::<i32>().is_ok()
}

pub(super) fn validate_seccomp_profile_annotation(p: &str, path: &Path) -> Errs {
    if matches!(p, "runtime/default" | "docker/default" | "unconfined") {
        return Vec::new();
    }
    if let Some(local) = p.strip_prefix("localhost/") {
        return validate_local_descending_path(local, path);
    }
    vec![FieldError::invalid(
        path.as_str(),
        json!(p),
        "must be a valid seccomp profile",
    )]
}

pub(super) fn pod_spec_has_container(spec: Option<&Value>, name: &str) -> bool {
    ["containers", "initContainers", "ephemeralContainers"]
        .iter()
        .any(|k| {
            get_arr(spec, k)
                .iter()
                .any(|c| get_str(Some(c), "name") == name)
        })
}

/// `validateLocalDescendingPath`: relative, without `..` elements.
pub(super) fn validate_local_descending_path(target: &str, path: &Path) -> Errs {
    let mut errs = Vec::new();
    if target.starts_with('/') {
        errs.push(FieldError::invalid(
            path.as_str(),
            json!(target),
            "must be a relative path",
        ));
    }
    errs.extend(validate_path_no_backsteps(target, path));
    errs
}

/// `validatePathNoBacksteps`.
pub(super) fn validate_path_no_backsteps(target: &str, path: &Path) -> Errs {
    if target.split('/').any(|p| p == "..") {
        vec![FieldError::invalid(
            path.as_str(),
            json!(target),
            "must not contain '..'",
        )]
    } else {
        Vec::new()
    }
}

/// `ValidatePodSpec`. `pod_meta` is set for a real Pod (not a template); `resource_is_pod`
/// mirrors `opts.ResourceIsPod`.
pub(super) fn validate_pod_spec(
    spec: Option<&Value>,
    pod_meta: Option<&Value>,
    path: &Path,
    resource_is_pod: bool,
) -> Errs {
    let _ = pod_meta;
    let mut errs = Vec::new();
    let grace = get_i64(spec, "terminationGracePeriodSeconds");
    if grace.is_none() {
        errs.push(FieldError::required(
            path.child("terminationGracePeriodSeconds").as_str(),
            "",
        ));
    }
    let restart_policy = get_str(spec, "restartPolicy");

    let (vols, verrs) = validate_volumes(get_arr(spec, "volumes"), &path.child("volumes"));
    errs.extend(verrs);
    errs.extend(validate_containers(
        get_arr(spec, "containers"),
        &vols,
        grace,
        &path.child("containers"),
        restart_policy,
    ));
    errs.extend(validate_init_containers(
        get_arr(spec, "initContainers"),
        get_arr(spec, "containers"),
        &vols,
        grace,
        &path.child("initContainers"),
        restart_policy,
    ));
    errs.extend(validate_pod_host_network_deps(spec, path, resource_is_pod));
    errs.extend(validate_restart_policy(
        restart_policy,
        &path.child("restartPolicy"),
    ));
    errs.extend(validate_dns_policy(
        get_str(spec, "dnsPolicy"),
        &path.child("dnsPolicy"),
    ));
    errs.extend(validate_labels(
        get(spec, "nodeSelector"),
        &path.child("nodeSelector"),
    ));
    errs.extend(validate_pod_security_context(
        get(spec, "securityContext"),
        &path.child("securityContext"),
    ));
    errs.extend(validate_pod_dns_config(
        get(spec, "dnsConfig"),
        get_str(spec, "dnsPolicy"),
        &path.child("dnsConfig"),
    ));
    for (i, g) in get_arr(spec, "readinessGates").iter().enumerate() {
        errs.extend(validate_qualified_name(
            get_str(Some(g), "conditionType"),
            &path.child("readinessGates").index(i).child("conditionType"),
        ));
    }
    let mut seen_gates = BTreeSet::new();
    for (i, g) in get_arr(spec, "schedulingGates").iter().enumerate() {
        let name = get_str(Some(g), "name");
        errs.extend(validate_qualified_name(
            name,
            &path.child("schedulingGates").index(i),
        ));
        if !seen_gates.insert(name.to_string()) {
            errs.push(FieldError::duplicate(
                path.child("schedulingGates").index(i).as_str(),
                json!(name),
            ));
        }
    }
    let sa = get_str(spec, "serviceAccountName");
    if !sa.is_empty() {
        for m in name_is_dns_subdomain(sa, false) {
            errs.push(FieldError::invalid(
                path.child("serviceAccountName").as_str(),
                json!(sa),
                &m,
            ));
        }
    }
    let node = get_str(spec, "nodeName");
    if !node.is_empty() {
        for m in name_is_dns_subdomain(node, false) {
            errs.push(FieldError::invalid(
                path.child("nodeName").as_str(),
                json!(node),
                &m,
            ));
        }
    }
    if let Some(ads) = get_i64(spec, "activeDeadlineSeconds") {
        if !(1..=MAX_INT32).contains(&ads) {
            errs.push(FieldError::invalid(
                path.child("activeDeadlineSeconds").as_str(),
                json!(ads),
                &inclusive_range_error(1, MAX_INT32),
            ));
        }
    }
    for key in ["hostname", "subdomain"] {
        let v = get_str(spec, key);
        if !v.is_empty() {
            for m in dns1123_label_errors(v) {
                errs.push(FieldError::invalid(path.child(key).as_str(), json!(v), &m));
            }
        }
    }
    if let Some(aff) = get(spec, "affinity").filter(|a| !a.is_null()) {
        errs.extend(validate_affinity(aff, &path.child("affinity")));
    }
    let tolerations = get_arr(spec, "tolerations");
    if !tolerations.is_empty() {
        errs.extend(validate_tolerations(
            tolerations,
            &path.child("tolerations"),
        ));
    }
    let tsc = get_arr(spec, "topologySpreadConstraints");
    if !tsc.is_empty() {
        errs.extend(validate_topology_spread_constraints(tsc, &path.child("topologySpreadConstraints")));
    }
    let pcn = get_str(spec, "priorityClassName");
    if !pcn.is_empty() {
        for m in name_is_dns_subdomain(pcn, false) {
            errs.push(FieldError::invalid(
                path.child("priorityClassName").as_str(),
                json!(pcn),
                &m,
            ));
        }
    }
    if let Some(pp) = get(spec, "preemptionPolicy") {
        let pp = pp.as_str().unwrap_or("");
        match pp {
            "PreemptLowerPriority" | "Never" => {}
            "" => errs.push(FieldError::required(
                path.child("preemptionPolicy").as_str(),
                "",
            )),
            _ => errs.push(
                FieldError::not_supported(
                    path.child("preemptionPolicy").as_str(),
                    json!(pp),
                    &["PreemptLowerPriority", "Never"],
                )
                .json_rendered(),
            ),
        }
    }
    if let Some(os) = get(spec, "os") {
        let name = get_str(Some(os), "name");
        if name.is_empty() {
            errs.push(FieldError::required(
                path.child("os").child("name").as_str(),
                "",
            ));
        } else if name != "linux" && name != "windows" {
            errs.push(
                FieldError::not_supported(
                    path.child("os").child("name").as_str(),
                    json!(name),
                    &["linux", "windows"],
                )
                .json_rendered(),
            );
        }
    }
    errs
}

/// `validateAffinity`: the pod affinity and anti-affinity terms (`validatePodAffinityTerm`:
/// the label and namespace selectors, namespaces, `topologyKey` required and a qualified name;
/// preferred terms' weight 1-100). Node affinity terms are not validated here.
pub(super) fn validate_affinity(aff: &Value, path: &Path) -> Errs {
    let mut errs = Vec::new();
    for kind in ["podAffinity", "podAntiAffinity"] {
        let Some(pa) = aff.get(kind).filter(|v| !v.is_null()) else { continue };
        let kp = path.child(kind);
        let req = kp.child("requiredDuringSchedulingIgnoredDuringExecution");
        for (i, term) in get_arr(Some(pa), "requiredDuringSchedulingIgnoredDuringExecution").iter().enumerate() {
            errs.extend(validate_pod_affinity_term(term, &req.index(i)));
        }
        let pref = kp.child("preferredDuringSchedulingIgnoredDuringExecution");
        for (j, w) in get_arr(Some(pa), "preferredDuringSchedulingIgnoredDuringExecution").iter().enumerate() {
            let weight = get_i64(Some(w), "weight").unwrap_or(0);
            if !(1..=100).contains(&weight) {
                errs.push(FieldError::invalid(pref.index(j).child("weight").as_str(), json!(weight), "must be in the range 1-100"));
            }
            errs.extend(validate_pod_affinity_term(w.get("podAffinityTerm").unwrap_or(&Value::Null), &pref.index(j).child("podAffinityTerm")));
        }
    }
    errs
}

/// `validatePodAffinityTerm`.
fn validate_pod_affinity_term(term: &Value, path: &Path) -> Errs {
    let mut errs = validate_label_selector(term.get("labelSelector"), &path.child("labelSelector"));
    errs.extend(validate_label_selector(term.get("namespaceSelector"), &path.child("namespaceSelector")));
    for ns in get_arr(Some(term), "namespaces").iter().filter_map(Value::as_str) {
        for m in name_is_dns_label(ns, false) {
            errs.push(FieldError::invalid(path.child("namespace").as_str(), json!(ns), &m));
        }
    }
    let key = get_str(Some(term), "topologyKey");
    if key.is_empty() {
        errs.push(FieldError::required(path.child("topologyKey").as_str(), "can not be empty"));
    }
    errs.extend(validate_label_name(key, &path.child("topologyKey")));
    errs
}

/// `validateTopologySpreadConstraints`: maxSkew > 0, topologyKey required, whenUnsatisfiable
/// supported, no two constraints with the same {topologyKey, whenUnsatisfiable}, minDomains
/// positive and only with DoNotSchedule, the inclusion policies, matchLabelKeys not in the
/// selector, and the selector itself.
pub(super) fn validate_topology_spread_constraints(constraints: &[Value], path: &Path) -> Errs {
    let mut errs = Vec::new();
    for (i, c) in constraints.iter().enumerate() {
        let p = path.index(i);
        let c = Some(c);
        let skew = get_i64(c, "maxSkew").unwrap_or(0);
        if skew <= 0 {
            errs.push(FieldError::invalid(p.child("maxSkew").as_str(), json!(skew), "must be greater than zero"));
        }
        let key = get_str(c, "topologyKey");
        if key.is_empty() {
            errs.push(FieldError::required(p.child("topologyKey").as_str(), "can not be empty"));
        }
        let action = get_str(c, "whenUnsatisfiable");
        if action != "DoNotSchedule" && action != "ScheduleAnyway" {
            errs.push(FieldError::not_supported(p.child("whenUnsatisfiable").as_str(), json!(action), &["DoNotSchedule", "ScheduleAnyway"]).json_rendered());
        }
        if constraints[i + 1..].iter().any(|o| get_str(Some(o), "topologyKey") == key && get_str(Some(o), "whenUnsatisfiable") == action) {
            errs.push(FieldError::duplicate(p.child("{topologyKey, whenUnsatisfiable}").as_str(), json!(format!("{{{}, {}}}", key, action))));
        }
        if let Some(md) = get_i64(c, "minDomains") {
            if md <= 0 {
                errs.push(FieldError::invalid(p.child("minDomains").as_str(), json!(md), "must be greater than zero"));
            }
            if action != "DoNotSchedule" {
                errs.push(FieldError::invalid(p.child("minDomains").as_str(), json!(md), &format!("can only use minDomains if whenUnsatisfiable=DoNotSchedule, not {}", action)));
            }
        }
        for policy in ["nodeAffinityPolicy", "nodeTaintsPolicy"] {
            if let Some(v) = get(c, policy).and_then(Value::as_str) {
                if v != "Honor" && v != "Ignore" {
                    errs.push(FieldError::not_supported(p.child(policy).as_str(), json!(v), &["Honor", "Ignore"]).json_rendered());
                }
            }
        }
        let keys = get_arr(c, "matchLabelKeys");
        if !keys.is_empty() {
            let sel = get(c, "labelSelector").filter(|s| !s.is_null());
            let mut in_selector: Vec<&str> = Vec::new();
            match sel {
                Some(s) => {
                    if let Some(ml) = s.get("matchLabels").and_then(Value::as_object) {
                        in_selector.extend(ml.keys().map(String::as_str));
                    }
                    in_selector.extend(get_arr(Some(s), "matchExpressions").iter().map(|e| get_str(Some(e), "key")));
                }
                None => errs.push(FieldError::forbidden(p.child("matchLabelKeys").as_str(), "must not be specified when labelSelector is not set")),
            }
            for (k, key) in keys.iter().enumerate() {
                let key = key.as_str().unwrap_or("");
                errs.extend(validate_label_name(key, &p.child("matchLabelKeys").index(k)));
                if in_selector.contains(&key) {
                    errs.push(FieldError::invalid(p.child("matchLabelKeys").index(k).as_str(), json!(key), "exists in both matchLabelKeys and labelSelector"));
                }
            }
        }
        errs.extend(validate_label_selector(get(c, "labelSelector"), &p.child("labelSelector")));
    }
    errs
}

/// `ValidateVolumes`: returns the names (and sources) of the volumes that validated, which
/// volume mounts may refer to.
pub(super) fn validate_volumes(volumes: &[Value], path: &Path) -> (BTreeMap<String, Value>, Errs) {
    let mut errs = Vec::new();
    let mut vols = BTreeMap::new();
    let mut all_names = BTreeSet::new();
    for (i, vol) in volumes.iter().enumerate() {
        let idx = path.index(i);
        let name = get_str(Some(vol), "name");
        let mut el = validate_volume_source(vol, &idx);
        if name.is_empty() {
            el.push(FieldError::required(idx.child("name").as_str(), ""));
        } else {
            for m in dns1123_label_errors(name) {
                el.push(FieldError::invalid(
                    idx.child("name").as_str(),
                    json!(name),
                    &m,
                ));
            }
        }
        if all_names.contains(name) {
            el.push(FieldError::duplicate(
                idx.child("name").as_str(),
                json!(name),
            ));
        }
        if el.is_empty() {
            all_names.insert(name.to_string());
            vols.insert(name.to_string(), vol.clone());
        } else {
            errs.extend(el);
        }
    }
    (vols, errs)
}

/// The volume source fields, in the order `validateVolumeSource` checks them.
pub(super) const VOLUME_SOURCES: &[&str] = &[
    "emptyDir",
    "hostPath",
    "gitRepo",
    "gcePersistentDisk",
    "awsElasticBlockStore",
    "secret",
    "nfs",
    "iscsi",
    "glusterfs",
    "flocker",
    "persistentVolumeClaim",
    "rbd",
    "cinder",
    "cephfs",
    "quobyte",
    "downwardAPI",
    "fc",
    "flexVolume",
    "configMap",
    "azureFile",
    "vsphereVolume",
    "photonPersistentDisk",
    "portworxVolume",
    "azureDisk",
    "storageos",
    "projected",
    "scaleIO",
    "csi",
    "ephemeral",
    "image",
];

/// `validateVolumeSource`: exactly one source, with a few per-source checks.
pub(super) fn validate_volume_source(vol: &Value, path: &Path) -> Errs {
    let mut errs = Vec::new();
    let mut num = 0;
    for &src in VOLUME_SOURCES {
        let Some(s) = get(Some(vol), src) else {
            continue;
        };
        if num > 0 {
            errs.push(FieldError::forbidden(
                path.child(src).as_str(),
                "may not specify more than 1 volume type",
            ));
            continue;
        }
        num += 1;
        let p = path.child(src);
        match src {
            "hostPath" => {
                let hp = get_str(Some(s), "path");
                if hp.is_empty() {
                    errs.push(FieldError::required(p.child("path").as_str(), ""));
                } else {
                    errs.extend(validate_path_no_backsteps(hp, &p.child("path")));
                }
            }
            "secret" if get_str(Some(s), "secretName").is_empty() => {
                errs.push(FieldError::required(p.child("secretName").as_str(), ""));
            }
            "configMap" if get_str(Some(s), "name").is_empty() => {
                errs.push(FieldError::required(p.child("name").as_str(), ""));
            }
            "persistentVolumeClaim" if get_str(Some(s), "claimName").is_empty() => {
                errs.push(FieldError::required(p.child("claimName").as_str(), ""));
            }
            "emptyDir" => {
                if let Some(q) = get(Some(s), "sizeLimit") {
                    if quantity::parse(&value_text(q)).is_some_and(|q| q.nanos() < 0) {
                        errs.push(FieldError::forbidden(
                            p.child("sizeLimit").as_str(),
                            "SizeLimit field must be a valid resource quantity",
                        ));
                    }
                }
            }
            "projected" => {
                for (si, source) in get_arr(Some(s), "sources").iter().enumerate() {
                    if let Some(t) = get(Some(source), "serviceAccountToken") {
                        let tp = p.child("sources").index(si).child("serviceAccountToken");
                        let exp = get_i64(Some(t), "expirationSeconds").unwrap_or(3600);
                        if exp < 10 * 60 {
                            errs.push(FieldError::invalid(
                                tp.child("expirationSeconds").as_str(),
                                json!(exp),
                                "may not specify a duration less than 10 minutes",
                            ));
                        }
                        if exp > 1 << 32 {
                            errs.push(FieldError::invalid(
                                tp.child("expirationSeconds").as_str(),
                                json!(exp),
                                "may not specify a duration larger than 2^32 seconds",
                            ));
                        }
                        if get_str(Some(t), "path").is_empty() {
                            errs.push(FieldError::required(tp.child("path").as_str(), ""));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    if num == 0 {
        errs.push(FieldError::required(
            path.as_str(),
            "must specify a volume type",
        ));
    }
    errs
}

/// `validateContainers`.
pub(super) fn validate_containers(
    containers: &[Value],
    vols: &BTreeMap<String, Value>,
    grace: Option<i64>,
    path: &Path,
    restart_policy: &str,
) -> Errs {
    let mut errs = Vec::new();
    if containers.is_empty() {
        return vec![FieldError::required(path.as_str(), "")];
    }
    let mut all_names = BTreeSet::new();
    for (i, c) in containers.iter().enumerate() {
        let p = path.index(i);
        errs.extend(validate_container_common(c, vols, &p, restart_policy));
        let name = get_str(Some(c), "name");
        if !all_names.insert(name.to_string()) {
            errs.push(FieldError::duplicate(p.child("name").as_str(), json!(name)));
        }
        if let Some(lc) = get(Some(c), "lifecycle") {
            errs.extend(validate_lifecycle(lc, grace, &p.child("lifecycle")));
        }
        errs.extend(validate_probe_kind(
            get(Some(c), "livenessProbe"),
            grace,
            &p.child("livenessProbe"),
            ProbeKind::Liveness,
        ));
        errs.extend(validate_probe_kind(
            get(Some(c), "readinessProbe"),
            grace,
            &p.child("readinessProbe"),
            ProbeKind::Readiness,
        ));
        errs.extend(validate_probe_kind(
            get(Some(c), "startupProbe"),
            grace,
            &p.child("startupProbe"),
            ProbeKind::Startup,
        ));
        if get(Some(c), "restartPolicy").is_some() {
            errs.push(FieldError::forbidden(
                p.child("restartPolicy").as_str(),
                "may not be set for non-init containers",
            ));
        }
    }
    // Host port conflicts are checked across all containers.
    errs.extend(check_host_port_conflicts(containers, path));
    errs
}

/// `validateInitContainers`.
pub(super) fn validate_init_containers(
    inits: &[Value],
    regular: &[Value],
    vols: &BTreeMap<String, Value>,
    grace: Option<i64>,
    path: &Path,
    restart_policy: &str,
) -> Errs {
    let mut errs = Vec::new();
    let mut all_names: BTreeSet<String> = regular
        .iter()
        .map(|c| get_str(Some(c), "name").to_string())
        .collect();
    for (i, c) in inits.iter().enumerate() {
        let p = path.index(i);
        errs.extend(validate_container_common(c, vols, &p, restart_policy));
        let mut restart_always = false;
        if let Some(rp) = get(Some(c), "restartPolicy") {
            let rp = rp.as_str().unwrap_or("");
            if rp != "Always" {
                errs.push(
                    FieldError::not_supported(
                        p.child("restartPolicy").as_str(),
                        json!(rp),
                        &["Always"],
                    )
                    .json_rendered(),
                );
            }
            restart_always = rp == "Always";
        }
        let name = get_str(Some(c), "name");
        if all_names.contains(name) {
            errs.push(FieldError::duplicate(p.child("name").as_str(), json!(name)));
        } else if !name.is_empty() {
            all_names.insert(name.to_string());
        }
        // Init containers run one at a time: port conflicts are checked per container.
        errs.extend(check_host_port_conflicts(std::slice::from_ref(c), path));
        if restart_always {
            if let Some(lc) = get(Some(c), "lifecycle") {
                errs.extend(validate_lifecycle(lc, grace, &p.child("lifecycle")));
            }
            errs.extend(validate_probe_kind(
                get(Some(c), "livenessProbe"),
                grace,
                &p.child("livenessProbe"),
                ProbeKind::Liveness,
            ));
            errs.extend(validate_probe_kind(
                get(Some(c), "readinessProbe"),
                grace,
                &p.child("readinessProbe"),
                ProbeKind::Readiness,
            ));
            errs.extend(validate_probe_kind(
                get(Some(c), "startupProbe"),
                grace,
                &p.child("startupProbe"),
                ProbeKind::Startup,
            ));
        } else {
            for key in [
                "lifecycle",
                "livenessProbe",
                "readinessProbe",
                "startupProbe",
            ] {
                if get(Some(c), key).is_some() {
                    errs.push(FieldError::forbidden(
                        p.child(key).as_str(),
                        "may not be set for init containers without restartPolicy=Always",
                    ));
                }
            }
        }
        if !get_arr(Some(c), "resizePolicy").is_empty() {
            errs.push(FieldError::invalid(
                p.child("resizePolicy").as_str(),
                get(Some(c), "resizePolicy").cloned().unwrap_or(Value::Null),
                "must not be set for init containers",
            ));
        }
    }
    errs
}

/// `validateContainerCommon`.
pub(super) fn validate_container_common(
    c: &Value,
    vols: &BTreeMap<String, Value>,
    path: &Path,
    restart_policy: &str,
) -> Errs {
    let mut errs = Vec::new();
    let c = Some(c);
    let name = get_str(c, "name");
    if name.is_empty() {
        errs.push(FieldError::required(path.child("name").as_str(), ""));
    } else {
        for m in dns1123_label_errors(name) {
            errs.push(FieldError::invalid(
                path.child("name").as_str(),
                json!(name),
                &m,
            ));
        }
    }
    if get_str(c, "image").is_empty() {
        errs.push(FieldError::required(path.child("image").as_str(), ""));
    }
    match get_str(c, "terminationMessagePolicy") {
        "File" | "FallbackToLogsOnError" => {}
        "" => errs.push(FieldError::required(
            path.child("terminationMessagePolicy").as_str(),
            "",
        )),
        other => errs.push(
            FieldError::not_supported(
                path.child("terminationMessagePolicy").as_str(),
                json!(other),
                &["File", "FallbackToLogsOnError"],
            )
            .json_rendered(),
        ),
    }
    errs.extend(validate_container_ports(
        get_arr(c, "ports"),
        &path.child("ports"),
    ));
    errs.extend(validate_env(get_arr(c, "env"), &path.child("env")));
    errs.extend(validate_env_from(
        get_arr(c, "envFrom"),
        &path.child("envFrom"),
    ));
    errs.extend(validate_volume_mounts(
        get_arr(c, "volumeMounts"),
        vols,
        &path.child("volumeMounts"),
    ));
    errs.extend(validate_pull_policy(
        get_str(c, "imagePullPolicy"),
        &path.child("imagePullPolicy"),
    ));
    errs.extend(validate_resource_requirements(
        get(c, "resources"),
        &path.child("resources"),
    ));
    errs.extend(validate_resize_policy(
        get_arr(c, "resizePolicy"),
        &path.child("resizePolicy"),
        restart_policy,
    ));
    errs.extend(validate_security_context(
        get(c, "securityContext"),
        &path.child("securityContext"),
    ));
    errs
}

/// `validateContainerPorts`.
pub(super) fn validate_container_ports(ports: &[Value], path: &Path) -> Errs {
    let mut errs = Vec::new();
    let mut names = BTreeSet::new();
    for (i, port) in ports.iter().enumerate() {
        let p = path.index(i);
        let port = Some(port);
        let name = get_str(port, "name");
        if !name.is_empty() {
            let msgs = port_name_errors(name);
            if !msgs.is_empty() {
                for m in msgs {
                    errs.push(FieldError::invalid(
                        p.child("name").as_str(),
                        json!(name),
                        &m,
                    ));
                }
            } else if !names.insert(name.to_string()) {
                errs.push(FieldError::duplicate(p.child("name").as_str(), json!(name)));
            }
        }
        let cp = get_i64(port, "containerPort").unwrap_or(0);
        if cp == 0 {
            errs.push(FieldError::required(p.child("containerPort").as_str(), ""));
        } else {
            for m in port_num_errors(cp) {
                errs.push(FieldError::invalid(
                    p.child("containerPort").as_str(),
                    json!(cp),
                    &m,
                ));
            }
        }
        let hp = get_i64(port, "hostPort").unwrap_or(0);
        if hp != 0 {
            for m in port_num_errors(hp) {
                errs.push(FieldError::invalid(
                    p.child("hostPort").as_str(),
                    json!(hp),
                    &m,
                ));
            }
        }
        match get_str(port, "protocol") {
            "" => errs.push(FieldError::required(p.child("protocol").as_str(), "")),
            "TCP" | "UDP" | "SCTP" => {}
            other => errs.push(
                FieldError::not_supported(
                    p.child("protocol").as_str(),
                    json!(other),
                    &["SCTP", "TCP", "UDP"],
                )
                .json_rendered(),
            ),
        }
    }
    errs
}

/// `checkHostPortConflicts` / `AccumulateUniqueHostPorts`: `protocol/hostIP/hostPort` must be
/// unique.
pub(super) fn check_host_port_conflicts(containers: &[Value], path: &Path) -> Errs {
    let mut errs = Vec::new();
    let mut seen = BTreeSet::new();
    for (ci, c) in containers.iter().enumerate() {
        for (pi, port) in get_arr(Some(c), "ports").iter().enumerate() {
            let hp = get_i64(Some(port), "hostPort").unwrap_or(0);
            if hp == 0 {
                continue;
            }
            let key = format!(
                "{}/{}/{}",
                get_str(Some(port), "protocol"),
                get_str(Some(port), "hostIP"),
                hp
            );
            if !seen.insert(key.clone()) {
                errs.push(FieldError::duplicate(
                    path.index(ci)
                        .child("ports")
                        .index(pi)
                        .child("hostPort")
                        .as_str(),
                    json!(key),
                ));
            }
        }
    }
    errs
}

/// The field paths `valueFrom.fieldRef` may use in env vars.
pub(super) const ENV_FIELD_PATHS: &[&str] = &[
    "metadata.name",
    "metadata.namespace",
    "metadata.uid",
    "spec.nodeName",
    "spec.serviceAccountName",
    "status.hostIP",
    "status.hostIPs",
    "status.podIP",
    "status.podIPs",
];
/// The labels `ConvertDownwardAPIFieldLabel` accepts for v1 pods.
pub(super) const DOWNWARD_API_LABELS: &[&str] = &[
    "metadata.annotations",
    "metadata.labels",
    "metadata.name",
    "metadata.namespace",
    "metadata.uid",
    "spec.nodeName",
    "spec.restartPolicy",
    "spec.serviceAccountName",
    "spec.schedulerName",
    "status.phase",
    "status.hostIP",
    "status.hostIPs",
    "status.podIP",
    "status.podIPs",
];
pub(super) const ENV_RESOURCE_FIELDS: &[&str] = &[
    "limits.cpu",
    "limits.ephemeral-storage",
    "limits.memory",
    "requests.cpu",
    "requests.ephemeral-storage",
    "requests.memory",
];

/// `ValidateEnv` (relaxed names, as in v1.34).
pub(super) fn validate_env(vars: &[Value], path: &Path) -> Errs {
    let mut errs = Vec::new();
    for (i, ev) in vars.iter().enumerate() {
        let p = path.index(i);
        let name = get_str(Some(ev), "name");
        if name.is_empty() {
            errs.push(FieldError::required(p.child("name").as_str(), ""));
        } else {
            for m in relaxed_env_var_name_errors(name) {
                errs.push(FieldError::invalid(
                    p.child("name").as_str(),
                    json!(name),
                    &m,
                ));
            }
        }
        errs.extend(validate_env_var_value_from(ev, &p.child("valueFrom")));
    }
    errs
}

/// `validateEnvVarValueFrom`.
pub(super) fn validate_env_var_value_from(ev: &Value, path: &Path) -> Errs {
    let mut errs = Vec::new();
    let Some(vf) = get(Some(ev), "valueFrom") else {
        return errs;
    };
    let mut num = 0;
    if let Some(fr) = get(Some(vf), "fieldRef") {
        num += 1;
        errs.extend(validate_object_field_selector(fr, &path.child("fieldRef")));
    }
    if let Some(rf) = get(Some(vf), "resourceFieldRef") {
        num += 1;
        let rp = path.child("resourceFieldRef");
        let res = get_str(Some(rf), "resource");
        if res.is_empty() {
            errs.push(FieldError::required(rp.child("resource").as_str(), ""));
        } else if !ENV_RESOURCE_FIELDS.contains(&res)
            && !res.starts_with("requests.hugepages-")
            && !res.starts_with("limits.hugepages-")
        {
            errs.push(FieldError::not_supported(
                rp.child("resource").as_str(),
                json!(res),
                ENV_RESOURCE_FIELDS,
            ));
        }
    }
    for (key, label) in [
        ("configMapKeyRef", "configMapKeyRef"),
        ("secretKeyRef", "secretKeyRef"),
    ] {
        if let Some(r) = get(Some(vf), key) {
            num += 1;
            let rp = path.child(label);
            let name = get_str(Some(r), "name");
            for m in name_is_dns_subdomain(name, false) {
                errs.push(FieldError::invalid(
                    rp.child("name").as_str(),
                    json!(name),
                    &m,
                ));
            }
            let k = get_str(Some(r), "key");
            if k.is_empty() {
                errs.push(FieldError::required(rp.child("key").as_str(), ""));
            } else {
                for m in config_map_key_errors(k) {
                    errs.push(FieldError::invalid(rp.child("key").as_str(), json!(k), &m));
                }
            }
        }
    }
    if num == 0 {
        errs.push(FieldError::invalid(
            path.as_str(),
            json!(""),
            "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`",
        ));
    } else if !get_str(Some(ev), "value").is_empty() {
        errs.push(FieldError::invalid(
            path.as_str(),
            json!(""),
            "may not be specified when `value` is not empty",
        ));
    } else if num > 1 {
        errs.push(FieldError::invalid(
            path.as_str(),
            json!(""),
            "may not have more than one field specified at a time",
        ));
    }
    errs
}

/// `validateObjectFieldSelector` for env vars.
pub(super) fn validate_object_field_selector(fs: &Value, path: &Path) -> Errs {
    let api_version = get_str(Some(fs), "apiVersion");
    let field_path = get_str(Some(fs), "fieldPath");
    if api_version.is_empty() {
        return vec![FieldError::required(path.child("apiVersion").as_str(), "")];
    }
    if field_path.is_empty() {
        return vec![FieldError::required(path.child("fieldPath").as_str(), "")];
    }
    // ConvertDownwardAPIFieldLabel.
    let conversion_error = if api_version != "v1" {
        Some(format!("unsupported pod version: {}", api_version))
    } else if let Some((base, _)) = split_subscripted_path(field_path) {
        if base == "metadata.annotations" || base == "metadata.labels" {
            None
        } else {
            Some(format!("field label not supported: {}", field_path))
        }
    } else if DOWNWARD_API_LABELS.contains(&field_path) {
        None
    } else {
        Some(format!("field label not supported: {}", field_path))
    };
    if let Some(e) = conversion_error {
        return vec![FieldError::invalid(
            path.child("fieldPath").as_str(),
            json!(field_path),
            &format!("error converting fieldPath: {}", e),
        )];
    }
    if let Some((base, sub)) = split_subscripted_path(field_path) {
        return match base {
            "metadata.annotations" => validate_qualified_name(&sub.to_lowercase(), path),
            "metadata.labels" => validate_qualified_name(sub, path),
            _ => vec![FieldError::invalid(
                path.as_str(),
                json!(base),
                "does not support subscript",
            )],
        };
    }
    if !ENV_FIELD_PATHS.contains(&field_path) {
        return vec![FieldError::not_supported(
            path.child("fieldPath").as_str(),
            json!(field_path),
            ENV_FIELD_PATHS,
        )];
    }
    Vec::new()
}

/// `fieldpath.SplitMaybeSubscriptedPath`: `metadata.labels['app']` -> (`metadata.labels`, `app`).
pub(super) fn split_subscripted_path(p: &str) -> Option<(&str, &str)> {
    let rest = p.strip_suffix("']")?;
    let (base, sub) = rest.split_once("['")?;
    Some((base, sub))
}

/// `ValidateEnvFrom`.
pub(super) fn validate_env_from(vars: &[Value], path: &Path) -> Errs {
    let mut errs = Vec::new();
    for (i, ev) in vars.iter().enumerate() {
        let p = path.index(i);
        let prefix = get_str(Some(ev), "prefix");
        if !prefix.is_empty() {
            for m in relaxed_env_var_name_errors(prefix) {
                errs.push(FieldError::invalid(
                    p.child("prefix").as_str(),
                    json!(prefix),
                    &m,
                ));
            }
        }
        let mut num = 0;
        for key in ["configMapRef", "secretRef"] {
            if let Some(r) = get(Some(ev), key) {
                num += 1;
                let name = get_str(Some(r), "name");
                if name.is_empty() {
                    errs.push(FieldError::required(
                        p.child(key).child("name").as_str(),
                        "",
                    ));
                } else {
                    for m in name_is_dns_subdomain(name, true) {
                        errs.push(FieldError::invalid(
                            p.child(key).child("name").as_str(),
                            json!(name),
                            &m,
                        ));
                    }
                }
            }
        }
        if num == 0 {
            errs.push(FieldError::invalid(
                path.as_str(),
                json!(""),
                "must specify one of: `configMapRef` or `secretRef`",
            ));
        } else if num > 1 {
            errs.push(FieldError::invalid(
                path.as_str(),
                json!(""),
                "may not have more than one field specified at a time",
            ));
        }
    }
    errs
}

/// `ValidateVolumeMounts` (mount propagation and recursive read-only are not modelled).
pub(super) fn validate_volume_mounts(mounts: &[Value], vols: &BTreeMap<String, Value>, path: &Path) -> Errs {
    let mut errs = Vec::new();
    let mut mountpoints = BTreeSet::new();
    for (i, m) in mounts.iter().enumerate() {
        let p = path.index(i);
        let name = get_str(Some(m), "name");
        if name.is_empty() {
            errs.push(FieldError::required(p.child("name").as_str(), ""));
        }
        if !vols.contains_key(name) {
            errs.push(FieldError::not_found(p.child("name").as_str(), json!(name)));
        }
        let mp = get_str(Some(m), "mountPath");
        if mp.is_empty() {
            errs.push(FieldError::required(p.child("mountPath").as_str(), ""));
        }
        if !mountpoints.insert(mp.to_string()) {
            errs.push(FieldError::invalid(
                p.child("mountPath").as_str(),
                json!(mp),
                "must be unique",
            ));
        }
        // Upstream reports subPath errors on the list path, without the index.
        let sub_path = get_str(Some(m), "subPath");
        if !sub_path.is_empty() {
            errs.extend(validate_local_descending_path(
                sub_path,
                &path.child("subPath"),
            ));
        }
        let sub_expr = get_str(Some(m), "subPathExpr");
        if !sub_expr.is_empty() {
            if !sub_path.is_empty() {
                errs.push(FieldError::invalid(
                    p.child("subPathExpr").as_str(),
                    json!(sub_expr),
                    "subPathExpr and subPath are mutually exclusive",
                ));
            }
            errs.extend(validate_local_descending_path(
                sub_expr,
                &path.child("subPathExpr"),
            ));
        }
    }
    errs
}

/// `validatePullPolicy`.
pub(super) fn validate_pull_policy(policy: &str, path: &Path) -> Errs {
    match policy {
        "Always" | "IfNotPresent" | "Never" => Vec::new(),
        "" => vec![FieldError::required(path.as_str(), "")],
        other => vec![FieldError::not_supported(
            path.as_str(),
            json!(other),
            &["Always", "IfNotPresent", "Never"],
        )
        .json_rendered()],
    }
}

/// `validateResizePolicy`.
pub(super) fn validate_resize_policy(policies: &[Value], path: &Path, restart_policy: &str) -> Errs {
    let mut errs = Vec::new();
    let mut seen = BTreeSet::new();
    for (i, p) in policies.iter().enumerate() {
        let rn = get_str(Some(p), "resourceName");
        if !seen.insert(rn.to_string()) {
            errs.push(FieldError::duplicate(path.index(i).as_str(), json!(rn)).json_rendered());
        }
        match rn {
            "cpu" | "memory" => {}
            "" => errs.push(FieldError::required(path.as_str(), "")),
            other => errs.push(
                FieldError::not_supported(path.as_str(), json!(other), &["cpu", "memory"])
                    .json_rendered(),
            ),
        }
        let rp = get_str(Some(p), "restartPolicy");
        match rp {
            "NotRequired" | "RestartContainer" => {}
            "" => errs.push(FieldError::required(path.as_str(), "")),
            other => errs.push(
                FieldError::not_supported(
                    path.as_str(),
                    json!(other),
                    &["NotRequired", "RestartContainer"],
                )
                .json_rendered(),
            ),
        }
        if restart_policy == "Never" && rp != "NotRequired" {
            errs.push(
                FieldError::invalid(
                    path.as_str(),
                    json!(rp),
                    "must be 'NotRequired' when `restartPolicy` is 'Never'",
                )
                .json_rendered(),
            );
        }
    }
    errs
}

/// `ValidateSecurityContext` of a container (user/group ranges, seccomp type, the
/// privileged/allowPrivilegeEscalation conflict; privileged pods are allowed).
pub(super) fn validate_security_context(sc: Option<&Value>, path: &Path) -> Errs {
    let mut errs = Vec::new();
    let Some(sc) = sc else { return errs };
    for key in ["runAsUser", "runAsGroup"] {
        if let Some(id) = get_i64(Some(sc), key) {
            if !(0..=4_294_967_295).contains(&id) {
                errs.push(FieldError::invalid(
                    path.child(key).as_str(),
                    json!(id),
                    &inclusive_range_error(0, 4_294_967_295),
                ));
            }
        }
    }
    if let Some(pm) = get(Some(sc), "procMount") {
        let pm = pm.as_str().unwrap_or("");
        if pm != "Default" && pm != "Unmasked" {
            errs.push(
                FieldError::not_supported(
                    path.child("procMount").as_str(),
                    json!(pm),
                    &["Default", "Unmasked"],
                )
                .json_rendered(),
            );
        }
    }
    errs.extend(validate_seccomp_profile_field(
        get(Some(sc), "seccompProfile"),
        &path.child("seccompProfile"),
    ));
    if get(Some(sc), "allowPrivilegeEscalation").and_then(Value::as_bool) == Some(false) {
        if get_bool(Some(sc), "privileged") {
            errs.push(
                FieldError::invalid(
                    path.as_str(),
                    sc.clone(),
                    "cannot set `allowPrivilegeEscalation` to false and `privileged` to true",
                )
                .with_raw_value(security_context_internal_json(sc)),
            );
        }
        let adds = get_arr(get(Some(sc), "capabilities"), "add");
        for cap in adds {
            if cap.as_str() == Some("CAP_SYS_ADMIN") {
                errs.push(
                    FieldError::invalid(
                        path.as_str(),
                        sc.clone(),
                        "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN",
                    )
                    .with_raw_value(security_context_internal_json(sc)),
                );
            }
        }
    }
    errs
}

/// The internal `core.SecurityContext` as Go's JSON renders it (Go field names, all fields).
pub(super) fn security_context_internal_json(sc: &Value) -> String {
    let ptr = |k: &str| {
        Some(
            get(Some(sc), k)
                .map(go_json)
                .unwrap_or_else(|| "null".into()),
        )
    };
    let caps = get(Some(sc), "capabilities").map(|c| {
        let list = |k: &str| {
            Some(
                get(Some(c), k)
                    .map(go_json)
                    .unwrap_or_else(|| "null".into()),
            )
        };
        go_struct(&[("Add", list("add")), ("Drop", list("drop"))])
    });
    let pair = |k: &str| {
        Some(get(Some(sc), k).map_or_else(
            || "null".to_string(),
            |v| {
                go_struct(&[
                    ("Type", Some(go_json(&json!(get_str(Some(v), "type"))))),
                    (
                        "LocalhostProfile",
                        Some(
                            get(Some(v), "localhostProfile")
                                .map(go_json)
                                .unwrap_or_else(|| "null".into()),
                        ),
                    ),
                ])
            },
        ))
    };
    go_struct(&[
        ("Capabilities", Some(caps.unwrap_or_else(|| "null".into()))),
        ("Privileged", ptr("privileged")),
        ("SELinuxOptions", ptr("seLinuxOptions")),
        ("WindowsOptions", ptr("windowsOptions")),
        ("RunAsUser", ptr("runAsUser")),
        ("RunAsGroup", ptr("runAsGroup")),
        ("RunAsNonRoot", ptr("runAsNonRoot")),
        ("ReadOnlyRootFilesystem", ptr("readOnlyRootFilesystem")),
        ("AllowPrivilegeEscalation", ptr("allowPrivilegeEscalation")),
        ("ProcMount", ptr("procMount")),
        ("SeccompProfile", pair("seccompProfile")),
        ("AppArmorProfile", pair("appArmorProfile")),
    ])
}

/// `validateSeccompProfileField`.
pub(super) fn validate_seccomp_profile_field(sp: Option<&Value>, path: &Path) -> Errs {
    let mut errs = Vec::new();
    let Some(sp) = sp else { return errs };
    let t = get_str(Some(sp), "type");
    match t {
        "Localhost" | "RuntimeDefault" | "Unconfined" => {}
        "" => errs.push(FieldError::required(
            path.child("type").as_str(),
            "type is required when seccompProfile is set",
        )),
        other => errs.push(
            FieldError::not_supported(
                path.child("type").as_str(),
                json!(other),
                &["Localhost", "RuntimeDefault", "Unconfined"],
            )
            .json_rendered(),
        ),
    }
    let lp = get(Some(sp), "localhostProfile");
    if t == "Localhost" {
        match lp.and_then(Value::as_str) {
            None => errs.push(FieldError::required(
                path.child("localhostProfile").as_str(),
                "must be set when seccomp type is Localhost",
            )),
            Some(l) => errs.extend(validate_local_descending_path(
                l,
                &path.child("localhostProfile"),
            )),
        }
    }
    errs
}

/// `validatePodSpecSecurityContext` (ranges, shareProcessNamespace with hostPID, seccomp).
pub(super) fn validate_pod_security_context(sc: Option<&Value>, path: &Path) -> Errs {
    let mut errs = Vec::new();
    let Some(sc) = sc else { return errs };
    let range = inclusive_range_error(0, 4_294_967_295);
    for key in ["fsGroup", "runAsUser", "runAsGroup"] {
        if let Some(id) = get_i64(Some(sc), key) {
            if !(0..=4_294_967_295).contains(&id) {
                errs.push(FieldError::invalid(
                    path.child(key).as_str(),
                    json!(id),
                    &range,
                ));
            }
        }
    }
    for (i, g) in get_arr(Some(sc), "supplementalGroups").iter().enumerate() {
        let g = g.as_i64().unwrap_or(0);
        if !(0..=4_294_967_295).contains(&g) {
            errs.push(FieldError::invalid(
                path.child("supplementalGroups").index(i).as_str(),
                json!(g),
                &range,
            ));
        }
    }
    errs.extend(validate_seccomp_profile_field(
        get(Some(sc), "seccompProfile"),
        &path.child("seccompProfile"),
    ));
    errs
}

/// `validatePodHostNetworkDeps`.
pub(super) fn validate_pod_host_network_deps(
    spec: Option<&Value>,
    path: &Path,
    resource_is_pod: bool,
) -> Errs {
    let mut errs = Vec::new();
    if !get_bool(spec, "hostNetwork") {
        return errs;
    }
    for (i, c) in get_arr(spec, "containers").iter().enumerate() {
        for (j, port) in get_arr(Some(c), "ports").iter().enumerate() {
            let hp = get_i64(Some(port), "hostPort").unwrap_or(0);
            let cp = get_i64(Some(port), "containerPort").unwrap_or(0);
            if (resource_is_pod || hp != 0) && hp != cp {
                errs.push(FieldError::invalid(
                    path.child("containers")
                        .index(i)
                        .child("ports")
                        .index(j)
                        .child("hostPort")
                        .as_str(),
                    json!(hp),
                    "must match `containerPort` when `hostNetwork` is true",
                ));
            }
        }
    }
    errs
}

/// `validateRestartPolicy`.
pub(super) fn validate_restart_policy(rp: &str, path: &Path) -> Errs {
    match rp {
        "Always" | "OnFailure" | "Never" => Vec::new(),
        "" => vec![FieldError::required(path.as_str(), "")],
        other => vec![FieldError::not_supported(
            path.as_str(),
            json!(other),
            &["Always", "OnFailure", "Never"],
        )
        .json_rendered()],
    }
}

/// `validateDNSPolicy`.
pub(super) fn validate_dns_policy(p: &str, path: &Path) -> Errs {
    match p {
        "ClusterFirstWithHostNet" | "ClusterFirst" | "Default" | "None" => Vec::new(),
        "" => vec![FieldError::required(path.as_str(), "")],
        other => vec![FieldError::not_supported(
            path.as_str(),
            json!(other),
            &["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"],
        )
        .json_rendered()],
    }
}

/// `validatePodDNSConfig` (nameserver IP syntax is not checked).
pub(super) fn validate_pod_dns_config(cfg: Option<&Value>, dns_policy: &str, path: &Path) -> Errs {
    let mut errs = Vec::new();
    if dns_policy == "None" {
        let Some(c) = cfg else {
            return vec![FieldError::required(
                path.as_str(),
                "must provide `dnsConfig` when `dnsPolicy` is None",
            )];
        };
        if get_arr(Some(c), "nameservers").is_empty() {
            return vec![FieldError::required(
                path.child("nameservers").as_str(),
                "must provide at least one DNS nameserver when `dnsPolicy` is None",
            )];
        }
    }
    let Some(c) = cfg else { return errs };
    let ns = get_arr(Some(c), "nameservers");
    if ns.len() > 3 {
        errs.push(FieldError::invalid(
            path.child("nameservers").as_str(),
            Value::Array(ns.to_vec()),
            "must not have more than 3 nameservers",
        ));
    }
    let searches = get_arr(Some(c), "searches");
    if searches.len() > 32 {
        errs.push(FieldError::invalid(
            path.child("searches").as_str(),
            Value::Array(searches.to_vec()),
            "must not have more than 32 search paths",
        ));
    }
    let joined: Vec<&str> = searches.iter().map(|s| s.as_str().unwrap_or("")).collect();
    if joined.join(" ").len() > 2048 {
        errs.push(FieldError::invalid(
            path.child("searches").as_str(),
            Value::Array(searches.to_vec()),
            "must not have more than 2048 characters (including spaces) in the search list",
        ));
    }
    for (i, s) in joined.iter().enumerate() {
        // AllowRelaxedDNSSearchValidation: "." is accepted, a trailing dot is ignored.
        if *s == "." {
            continue;
        }
        let s = s.strip_suffix('.').unwrap_or(s);
        let ok = !s.is_empty()
            && s.len() <= DNS1123_SUBDOMAIN_MAX_LENGTH
            && s.split('.').all(|l| {
                let l = l.strip_prefix('_').unwrap_or(l);
                let b = l.as_bytes();
                !b.is_empty()
                    && is_lower_alnum(b[0])
                    && is_lower_alnum(b[b.len() - 1])
                    && b.iter()
                        .all(|&c| is_lower_alnum(c) || c == b'-' || c == b'_')
            });
        if !ok {
            let mut msgs = Vec::new();
            if s.len() > DNS1123_SUBDOMAIN_MAX_LENGTH {
                msgs.push(max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH));
            }
            msgs.push(regex_error(
                "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character",
                "_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*",
                &["example.com"],
            ));
            for m in msgs {
                errs.push(FieldError::invalid(
                    path.child("searches").index(i).as_str(),
                    json!(s),
                    &m,
                ));
            }
        }
    }
    for (i, o) in get_arr(Some(c), "options").iter().enumerate() {
        if get_str(Some(o), "name").is_empty() {
            errs.push(FieldError::required(
                path.child("options").index(i).as_str(),
                "must not be empty",
            ));
        }
    }
    errs
}

#[derive(Clone, Copy, PartialEq)]
pub(super) enum ProbeKind {
    Liveness,
    Readiness,
    Startup,
}

/// `validateLivenessProbe` / `validateReadinessProbe` / `validateStartupProbe`.
pub(super) fn validate_probe_kind(
    probe: Option<&Value>,
    grace: Option<i64>,
    path: &Path,
    kind: ProbeKind,
) -> Errs {
    let mut errs = Vec::new();
    let Some(probe) = probe else { return errs };
    errs.extend(validate_handler(probe, grace, path, false));
    for key in [
        "initialDelaySeconds",
        "timeoutSeconds",
        "periodSeconds",
        "successThreshold",
        "failureThreshold",
    ] {
        errs.extend(nonnegative(
            get_i64(Some(probe), key).unwrap_or(0),
            &path.child(key),
        ));
    }
    let tgps = get_i64(Some(probe), "terminationGracePeriodSeconds");
    if let Some(t) = tgps {
        if t <= 0 {
            errs.push(FieldError::invalid(
                path.child("terminationGracePeriodSeconds").as_str(),
                json!(t),
                "must be greater than 0",
            ));
        }
    }
    let st = get_i64(Some(probe), "successThreshold").unwrap_or(0);
    match kind {
        ProbeKind::Liveness | ProbeKind::Startup => {
            if st != 1 {
                errs.push(FieldError::invalid(
                    path.child("successThreshold").as_str(),
                    json!(st),
                    "must be 1",
                ));
            }
        }
        ProbeKind::Readiness => {
            if let Some(t) = tgps {
                errs.push(FieldError::invalid(
                    path.child("terminationGracePeriodSeconds").as_str(),
                    json!(t),
                    "must not be set for readinessProbes",
                ));
            }
        }
    }
    errs
}

/// `validateLifecycle`.
pub(super) fn validate_lifecycle(lc: &Value, grace: Option<i64>, path: &Path) -> Errs {
    let mut errs = Vec::new();
    for hook in ["postStart", "preStop"] {
        if let Some(h) = get(Some(lc), hook) {
            errs.extend(validate_handler(h, grace, &path.child(hook), true));
        }
    }
    errs
}

/// `validateHandler`: exactly one handler type (probes: exec, httpGet, tcpSocket, grpc;
/// lifecycle hooks: exec, httpGet, tcpSocket, sleep).
pub(super) fn validate_handler(h: &Value, grace: Option<i64>, path: &Path, lifecycle: bool) -> Errs {
    let mut errs = Vec::new();
    let mut num = 0;
    let kinds: &[&str] = if lifecycle {
        &["exec", "httpGet", "tcpSocket", "sleep"]
    } else {
        &["exec", "httpGet", "tcpSocket", "grpc"]
    };
    for &k in kinds {
        let Some(a) = get(Some(h), k) else { continue };
        if num > 0 {
            errs.push(FieldError::forbidden(
                path.child(k).as_str(),
                "may not specify more than 1 handler type",
            ));
            continue;
        }
        num += 1;
        let p = path.child(k);
        match k {
            "exec" if get_arr(Some(a), "command").is_empty() => {
                errs.push(FieldError::required(p.child("command").as_str(), ""));
            }
            "httpGet" => {
                if get_str(Some(a), "path").is_empty() {
                    errs.push(FieldError::required(p.child("path").as_str(), ""));
                }
                errs.extend(validate_port_num_or_name(
                    get(Some(a), "port"),
                    &p.child("port"),
                ));
                let scheme = get_str(Some(a), "scheme");
                if scheme != "HTTP" && scheme != "HTTPS" {
                    errs.push(
                        FieldError::not_supported(
                            p.child("scheme").as_str(),
                            json!(scheme),
                            &["HTTP", "HTTPS"],
                        )
                        .json_rendered(),
                    );
                }
                for hd in get_arr(Some(a), "httpHeaders") {
                    let n = get_str(Some(hd), "name");
                    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
                        errs.push(FieldError::invalid(
                            p.child("httpHeaders").as_str(),
                            json!(n),
                            &regex_error("a valid HTTP header must consist of alphanumeric characters or '-'", "[-A-Za-z0-9]+", &["X-Header-Name"]),
                        ));
                    }
                }
            }
            "tcpSocket" => errs.extend(validate_port_num_or_name(
                get(Some(a), "port"),
                &p.child("port"),
            )),
            "grpc" => {
                let port = get_i64(Some(a), "port").unwrap_or(0);
                for m in port_num_errors(port) {
                    errs.push(FieldError::invalid(
                        p.child("port").as_str(),
                        json!(port),
                        &m,
                    ));
                }
            }
            "sleep" => {
                let secs = get_i64(Some(a), "seconds").unwrap_or(0);
                if let Some(g) = grace {
                    // AllowPodLifecycleSleepActionZeroValue is on in v1.34.
                    if secs < 0 || secs > g {
                        errs.push(FieldError::invalid(
                            p.as_str(),
                            json!(secs),
                            &format!("must be non-negative and less than terminationGracePeriodSeconds ({})", g),
                        ));
                    }
                }
            }
            _ => {}
        }
    }
    if num == 0 {
        errs.push(FieldError::required(
            path.as_str(),
            "must specify a handler type",
        ));
    }
    errs
}

/// `ValidatePortNumOrName`.
pub(super) fn validate_port_num_or_name(port: Option<&Value>, path: &Path) -> Errs {
    match port {
        Some(Value::String(s)) => port_name_errors(s)
            .into_iter()
            .map(|m| FieldError::invalid(path.as_str(), json!(s), &m))
            .collect(),
        other => {
            let n = other.and_then(Value::as_i64).unwrap_or(0);
            port_num_errors(n)
                .into_iter()
                .map(|m| FieldError::invalid(path.as_str(), json!(n), &m))
                .collect()
        }
    }
}

/// `ValidateTolerations`.
pub(super) fn validate_tolerations(tolerations: &[Value], path: &Path) -> Errs {
    let mut errs = Vec::new();
    for (i, t) in tolerations.iter().enumerate() {
        let p = path.index(i);
        let t = Some(t);
        let key = get_str(t, "key");
        let op = get_str(t, "operator");
        let effect = get_str(t, "effect");
        if !key.is_empty() {
            errs.extend(validate_label_name(key, &p.child("key")));
        }
        if key.is_empty() && op != "Exists" {
            errs.push(
                FieldError::invalid(
                    p.child("operator").as_str(),
                    json!(op),
                    "operator must be Exists when `key` is empty, which means \"match all values and all keys\"",
                )
                .json_rendered(),
            );
        }
        if get(t, "tolerationSeconds").is_some() && effect != "NoExecute" {
            errs.push(
                FieldError::invalid(
                    p.child("effect").as_str(),
                    json!(effect),
                    "effect must be 'NoExecute' when `tolerationSeconds` is set",
                )
                .json_rendered(),
            );
        }
        let value = get_str(t, "value");
        match op {
            "Equal" | "" => {
                let msgs = label_value_errors(value);
                if !msgs.is_empty() {
                    errs.push(FieldError::invalid(
                        p.child("operator").as_str(),
                        json!(value),
                        &msgs.join(";"),
                    ));
                }
            }
            "Exists" => {
                if !value.is_empty() {
                    errs.push(FieldError::invalid(
                        p.child("operator").as_str(),
                        json!(value),
                        "value must be empty when `operator` is 'Exists'",
                    ));
                }
            }
            other => errs.push(
                FieldError::not_supported(
                    p.child("operator").as_str(),
                    json!(other),
                    &["Equal", "Exists"],
                )
                .json_rendered(),
            ),
        }
        if !effect.is_empty() {
            errs.extend(validate_taint_effect(effect, true, &p.child("effect")));
        }
    }
    errs
}

/// `validateTaintEffect`.
pub(super) fn validate_taint_effect(effect: &str, allow_empty: bool, path: &Path) -> Errs {
    if !allow_empty && effect.is_empty() {
        return vec![FieldError::required(path.as_str(), "")];
    }
    match effect {
        "NoSchedule" | "PreferNoSchedule" | "NoExecute" => Vec::new(),
        other => vec![FieldError::not_supported(
            path.as_str(),
            json!(other),
            &["NoSchedule", "PreferNoSchedule", "NoExecute"],
        )
        .json_rendered()],
    }
}

// ---------------------------------------------------------------------------------------------
// Resources
// ---------------------------------------------------------------------------------------------

/// The text of a quantity value as written (`"500m"`, or a bare number `2`).
pub(super) fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        other => go_json(other),
    }
}

pub(super) const STANDARD_RESOURCES: &[&str] = &[
    "cpu",
    "memory",
    "ephemeral-storage",
    "requests.cpu",
    "requests.memory",
    "requests.ephemeral-storage",
    "limits.cpu",
    "limits.memory",
    "limits.ephemeral-storage",
    "pods",
    "services",
    "replicationcontrollers",
    "resourcequotas",
    "secrets",
    "persistentvolumeclaims",
    "storage",
    "requests.storage",
    "services.nodeports",
    "services.loadbalancers",
    "configmaps",
];
pub(super) const INTEGER_RESOURCES: &[&str] = &[
    "pods",
    "services",
    "replicationcontrollers",
    "resourcequotas",
    "secrets",
    "configmaps",
    "persistentvolumeclaims",
    "services.nodeports",
    "services.loadbalancers",
];

pub(super) fn is_native_resource(name: &str) -> bool {
    !name.contains('/') || name.contains("kubernetes.io/")
}

pub(super) fn is_huge_page_resource(name: &str) -> bool {
    name.starts_with("hugepages-")
}

/// `IsExtendedResourceName`: not native, not `requests.`-prefixed, and `requests.<name>` is a
/// qualified name.
pub(super) fn is_extended_resource(name: &str) -> bool {
    !is_native_resource(name)
        && !name.starts_with("requests.")
        && qualified_name_errors(&format!("requests.{}", name)).is_empty()
}

pub(super) fn is_overcommit_allowed(name: &str) -> bool {
    is_native_resource(name) && !is_huge_page_resource(name)
}

/// `validateContainerResourceName`.
pub(super) fn validate_container_resource_name(name: &str, path: &Path) -> Errs {
    let mut errs: Errs = qualified_name_errors(name)
        .into_iter()
        .map(|m| FieldError::invalid(path.as_str(), json!(name), &m).json_rendered())
        .collect();
    if errs.is_empty()
        && !name.contains('/')
        && !STANDARD_RESOURCES.contains(&name)
        && !is_huge_page_resource(name)
    {
        errs.push(
            FieldError::invalid(
                path.as_str(),
                json!(name),
                "must be a standard resource type or fully qualified",
            )
            .json_rendered(),
        );
    }
    if !name.contains('/') {
        if !matches!(name, "cpu" | "memory" | "ephemeral-storage") && !is_huge_page_resource(name) {
            errs.push(
                FieldError::invalid(
                    path.as_str(),
                    json!(name),
                    "must be a standard resource for containers",
                )
                .json_rendered(),
            );
        }
    } else if !is_native_resource(name) && !is_extended_resource(name) {
        errs.push(
            FieldError::invalid(
                path.as_str(),
                json!(name),
                "doesn't follow extended resource name standard",
            )
            .json_rendered(),
        );
    }
    errs
}

/// `ValidateResourceQuantityValue`.
pub(super) fn validate_resource_quantity_value(name: &str, q: &quantity::Quantity, path: &Path) -> Errs {
    let mut errs = Vec::new();
    if q.nanos() < 0 {
        errs.push(FieldError::invalid(
            path.as_str(),
            json!(q.to_string()),
            IS_NEGATIVE_ERROR_MSG,
        ));
    }
    if (INTEGER_RESOURCES.contains(&name) || is_extended_resource(name))
        && q.nanos() % 1_000_000_000 != 0
    {
        errs.push(FieldError::invalid(
            path.as_str(),
            json!(q.to_string()),
            "must be an integer",
        ));
    }
    errs
}

/// Parse a resource-list entry, reporting the decoder's error when it does not parse.
pub(super) fn parse_quantity_at(v: &Value, path: &Path, errs: &mut Errs) -> Option<quantity::Quantity> {
    let text = value_text(v);
    match quantity::parse(&text) {
        Some(q) => Some(q),
        None => {
            errs.push(FieldError::invalid(
                path.as_str(),
                json!(text),
                "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
            ));
            None
        }
    }
}

/// `hugepages-<size>` values must be a multiple of the page size.
pub(super) fn huge_page_errors(name: &str, q: &quantity::Quantity, path: &Path) -> Errs {
    let Some(size) = name.strip_prefix("hugepages-").and_then(quantity::parse) else {
        return Vec::new();
    };
    if size.nanos() > 0 && q.nanos() % size.nanos() != 0 {
        return vec![FieldError::invalid(
            path.as_str(),
            json!(q.to_string()),
            &format!("{} is not positive integer multiple of {}", q, name),
        )];
    }
    Vec::new()
}

/// `validateResourceRequirements` for a container.
pub(super) fn validate_resource_requirements(res: Option<&Value>, path: &Path) -> Errs {
    let mut errs = Vec::new();
    let lim_path = path.child("limits");
    let req_path = path.child("requests");
    let empty = Map::new();
    let limits = get(res, "limits")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let requests = get(res, "requests")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let (mut lim_cpu_mem, mut req_cpu_mem, mut lim_huge, mut req_huge) =
        (false, false, false, false);
    let mut parsed_limits = BTreeMap::new();
    for (name, v) in limits {
        let p = lim_path.key(name);
        errs.extend(validate_container_resource_name(name, &p));
        if let Some(q) = parse_quantity_at(v, &p, &mut errs) {
            errs.extend(validate_resource_quantity_value(name, &q, &p));
            if is_huge_page_resource(name) {
                lim_huge = true;
                errs.extend(huge_page_errors(name, &q, &p));
            }
            parsed_limits.insert(name.clone(), q);
        }
        if name == "cpu" || name == "memory" {
            lim_cpu_mem = true;
        }
    }
    for (name, v) in requests {
        let p = req_path.key(name);
        errs.extend(validate_container_resource_name(name, &p));
        let Some(q) = parse_quantity_at(v, &p, &mut errs) else {
            continue;
        };
        errs.extend(validate_resource_quantity_value(name, &q, &p));
        if let Some(limit) = parsed_limits.get(name) {
            // Non-overcommitable resources: requests must equal limits.
            if q.nanos() != limit.nanos() && !is_overcommit_allowed(name) {
                errs.push(FieldError::invalid(
                    req_path.as_str(),
                    json!(q.to_string()),
                    &format!("must be equal to {} limit of {}", name, limit),
                ));
            } else if q.nanos() > limit.nanos() {
                errs.push(FieldError::invalid(
                    req_path.as_str(),
                    json!(q.to_string()),
                    &format!("must be less than or equal to {} limit of {}", name, limit),
                ));
            }
        } else if !limits.contains_key(name) && !is_overcommit_allowed(name) {
            errs.push(FieldError::required(
                lim_path.as_str(),
                "Limit must be set for non overcommitable resources",
            ));
        }
        if is_huge_page_resource(name) {
            req_huge = true;
            errs.extend(huge_page_errors(name, &q, &p));
        }
        if name == "cpu" || name == "memory" {
            req_cpu_mem = true;
        }
    }
    if !lim_cpu_mem && !req_cpu_mem && (req_huge || lim_huge) {
        errs.push(FieldError::forbidden(
            path.as_str(),
            "HugePages require cpu or memory",
        ));
    }
    errs
}

/// Resource quantities: the shared parser of [`crate::api::quantity`] (nano-unit values, canonical
/// `String()` for messages), under the names validation uses.
pub(super) mod quantity {
    pub use crate::api::quantity::Quantity;

    /// `ParseQuantity` (`^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$`).
    pub fn parse(s: &str) -> Option<Quantity> {
        crate::api::quantity::parse_quantity_str(s)
    }
}

// ---------------------------------------------------------------------------------------------
// Pod update
// ---------------------------------------------------------------------------------------------

pub(super) const UPDATABLE_POD_SPEC_FIELDS: &str = "`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)";

/// `ValidatePodUpdate`: metadata update rules, the full pod validation of the new object, then
/// the spec is immutable except container images, `activeDeadlineSeconds` (only lowered),
/// tolerations (only additions), scheduling gates (only removals) and a negative grace period
/// set to 1.
pub fn validate_pod_update(new: &Value, old: &Value) -> Vec<FieldError> {
    let spec_path = Path::new("spec");
    let mut errs = validate_object_meta_update(new, old);
    errs.extend(validate_pod_metadata_and_spec(new));
    errs.extend(validate_pod_specific_annotation_updates(new, old));

    let ns = get(Some(new), "spec");
    let os = get(Some(old), "spec");
    for key in ["containers", "initContainers"] {
        let (nc, oc) = (get_arr(ns, key), get_arr(os, key));
        if nc.len() != oc.len() {
            errs.push(FieldError::forbidden(
                spec_path.child(key).as_str(),
                "pod updates may not add or remove containers",
            ));
            return errs;
        }
        for (i, c) in nc.iter().enumerate() {
            let image = get_str(Some(c), "image");
            if image.is_empty() {
                errs.push(FieldError::required(
                    spec_path.child(key).index(i).child("image").as_str(),
                    "",
                ));
            }
            if image.trim().len() != image.len() {
                errs.push(FieldError::invalid(
                    spec_path.child(key).index(i).child("image").as_str(),
                    json!(image),
                    "must not have leading or trailing whitespace",
                ));
            }
        }
    }

    let ads_path = spec_path.child("activeDeadlineSeconds");
    match (
        get_i64(ns, "activeDeadlineSeconds"),
        get_i64(os, "activeDeadlineSeconds"),
    ) {
        (Some(n), old_ads) => {
            if !(0..=MAX_INT32).contains(&n) {
                errs.push(FieldError::invalid(
                    ads_path.as_str(),
                    json!(n),
                    &inclusive_range_error(0, MAX_INT32),
                ));
                return errs;
            }
            if let Some(o) = old_ads {
                if o < n {
                    errs.push(FieldError::invalid(
                        ads_path.as_str(),
                        json!(n),
                        "must be less than or equal to previous value",
                    ));
                    return errs;
                }
            }
        }
        (None, Some(_)) => errs.push(FieldError::invalid(
            ads_path.as_str(),
            Value::Null,
            "must not update from a positive integer to nil value",
        )),
        (None, None) => {}
    }

    // validateOnlyAddedTolerations: every old toleration must still be there (tolerationSeconds
    // may change).
    let new_tols = get_arr(ns, "tolerations");
    for old_t in get_arr(os, "tolerations") {
        let strip = |t: &Value| {
            let mut t = normalize(Some(t));
            if let Some(m) = t.as_object_mut() {
                m.remove("tolerationSeconds");
            }
            t
        };
        let want = strip(old_t);
        if !new_tols.iter().any(|t| strip(t) == want) {
            errs.push(FieldError::forbidden(
                spec_path.child("tolerations").as_str(),
                "existing toleration can not be modified except its tolerationSeconds",
            ));
            return errs;
        }
    }
    errs.extend(validate_tolerations(
        new_tols,
        &spec_path.child("tolerations"),
    ));

    // validateOnlyDeletedSchedulingGates.
    let old_gates: BTreeSet<&str> = get_arr(os, "schedulingGates")
        .iter()
        .map(|g| get_str(Some(g), "name"))
        .collect();
    let mut added: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, g) in get_arr(ns, "schedulingGates").iter().enumerate() {
        let n = get_str(Some(g), "name");
        if !old_gates.contains(n) {
            added.insert(n, i);
        }
    }
    for (gate, i) in added {
        errs.push(FieldError::forbidden(
            spec_path
                .child("schedulingGates")
                .index(i)
                .child("name")
                .as_str(),
            &format!(
                "only deletion is allowed, but found new scheduling gate '{}'",
                gate
            ),
        ));
    }

    if semantic_eq(ns, os) {
        return errs;
    }
    // Munge the updatable fields from the old spec, then compare.
    let mut munged = ns.cloned().unwrap_or(json!({}));
    if let Some(m) = munged.as_object_mut() {
        for key in ["containers", "initContainers"] {
            let old_list = get_arr(os, key);
            if let Some(list) = m.get_mut(key).and_then(Value::as_array_mut) {
                for (i, c) in list.iter_mut().enumerate() {
                    if let (Some(cm), Some(oc)) = (c.as_object_mut(), old_list.get(i)) {
                        match oc.get("image") {
                            Some(img) => cm.insert("image".into(), img.clone()),
                            None => cm.remove("image"),
                        };
                    }
                }
            }
        }
        for key in ["activeDeadlineSeconds", "schedulingGates", "tolerations"] {
            match os.and_then(|o| o.get(key)) {
                Some(v) => m.insert(key.into(), v.clone()),
                None => m.remove(key),
            };
        }
        // A negative grace period may be set to 1.
        let old_grace = get_i64(os, "terminationGracePeriodSeconds");
        let new_grace = m
            .get("terminationGracePeriodSeconds")
            .and_then(Value::as_i64);
        if old_grace.is_some_and(|g| g < 0) && new_grace == Some(1) {
            m.insert("terminationGracePeriodSeconds".into(), json!(old_grace));
        }
    }
    if !semantic_eq(Some(&munged), os) {
        let diff = spec_diff(os, Some(&munged));
        errs.push(FieldError::forbidden(
            spec_path.as_str(),
            &format!(
                "pod updates may not change fields other than {}\n{}",
                UPDATABLE_POD_SPEC_FIELDS, diff
            ),
        ));
    }
    errs
}

/// A simplified stand-in for `cmp.Diff(oldSpec, newSpec)`: one `-`/`+` pair per changed
/// top-level field, values as JSON.
pub(super) fn spec_diff(old: Option<&Value>, new: Option<&Value>) -> String {
    let empty = Map::new();
    let om = old.and_then(Value::as_object).unwrap_or(&empty);
    let nm = new.and_then(Value::as_object).unwrap_or(&empty);
    let keys: BTreeSet<&String> = om.keys().chain(nm.keys()).collect();
    let mut out = String::from("  core.PodSpec{\n");
    for k in keys {
        let (o, n) = (om.get(k), nm.get(k));
        if semantic_eq(o, n) {
            continue;
        }
        let render = |v: Option<&Value>| v.map(go_json).unwrap_or_else(|| "nil".into());
        out.push_str(&format!("- \t{}: {},\n", k, render(o)));
        out.push_str(&format!("+ \t{}: {},\n", k, render(n)));
    }
    out.push_str("  }\n");
    out
}

/// `ValidatePodSpecificAnnotationUpdates`: the mirror-pod and AppArmor annotations may not be
/// added, removed or changed.
pub(super) fn validate_pod_specific_annotation_updates(new: &Value, old: &Value) -> Errs {
    let path = Path::new("metadata").child("annotations");
    let na: BTreeMap<String, String> =
        string_map(new.get("metadata").and_then(|m| m.get("annotations")))
            .into_iter()
            .collect();
    let oa: BTreeMap<String, String> =
        string_map(old.get("metadata").and_then(|m| m.get("annotations")))
            .into_iter()
            .collect();
    let mut errs = Vec::new();
    const APPARMOR: &str = "container.apparmor.security.beta.kubernetes.io/";
    for (k, ov) in &oa {
        if na.get(k) == Some(ov) {
            continue;
        }
        if k.starts_with(APPARMOR) {
            errs.push(FieldError::forbidden(
                path.key(k).as_str(),
                "may not remove or update AppArmor annotations",
            ));
        }
        if k == "kubernetes.io/config.mirror" {
            errs.push(FieldError::forbidden(
                path.key(k).as_str(),
                "may not remove or update mirror pod annotation",
            ));
        }
    }
    for k in na.keys() {
        if oa.contains_key(k) {
            continue;
        }
        if k.starts_with(APPARMOR) {
            errs.push(FieldError::forbidden(
                path.key(k).as_str(),
                "may not add AppArmor annotations",
            ));
        }
        if k == "kubernetes.io/config.mirror" {
            errs.push(FieldError::forbidden(
                path.key(k).as_str(),
                "may not add mirror pod annotation",
            ));
        }
    }
    errs.extend(validate_pod_specific_annotations(
        new.get("metadata").and_then(|m| m.get("annotations")),
        new.get("spec"),
        &path,
    ));
    errs
}


/// `ValidatePodEphemeralContainersUpdate` with `validateEphemeralContainers`: the ephemeral
/// containers after an update of `pods/ephemeralcontainers` (`ecs`, defaulted) against the Pod
/// as stored. Each needs a name (a DNS label, unique among all the Pod's containers) and an
/// image; `targetContainerName` must name one of the Pod's containers; the fields an ephemeral
/// container may not have (ports, resources, resize and restart policy, lifecycle, probes,
/// subPath mounts) are forbidden; existing ephemeral containers may be neither removed nor
/// changed.
pub fn validate_ephemeral_containers_update(old_pod: &Value, ecs: &[Value]) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let spec = old_pod.get("spec");
    let mut others: Vec<String> = Vec::new();
    for list in ["containers", "initContainers"] {
        others.extend(get_arr(spec, list).iter().map(|c| get_str(Some(c), "name").to_string()));
    }
    let mut all = others.clone();
    for (i, ec) in ecs.iter().enumerate() {
        let at = format!("spec.ephemeralContainers[{}]", i);
        let name = get_str(Some(ec), "name");
        if name.is_empty() {
            errs.push(FieldError::required(&format!("{}.name", at), ""));
        } else if !super::is_dns1123_label(name) {
            errs.push(FieldError::invalid(&format!("{}.name", at), json!(name), "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"));
        } else if all.iter().any(|n| n == name) {
            errs.push(FieldError::duplicate(&format!("{}.name", at), json!(name)));
        } else {
            all.push(name.to_string());
        }
        if get_str(Some(ec), "image").is_empty() {
            errs.push(FieldError::required(&format!("{}.image", at), ""));
        }
        let target = get_str(Some(ec), "targetContainerName");
        if !target.is_empty() && !others.iter().any(|n| n == target) {
            errs.push(FieldError::not_found(&format!("{}.targetContainerName", at), json!(target)));
        }
        for f in ["ports", "resources", "resizePolicy", "restartPolicy", "lifecycle", "livenessProbe", "readinessProbe", "startupProbe"] {
            let set = match ec.get(f) {
                None | Some(Value::Null) => false,
                Some(Value::Object(m)) => !m.is_empty(),
                Some(Value::Array(a)) => !a.is_empty(),
                Some(Value::String(s)) => !s.is_empty(),
                Some(_) => true,
            };
            if set {
                errs.push(FieldError::forbidden(&format!("{}.{}", at, f), "cannot be set for an Ephemeral Container"));
            }
        }
        for (k, m) in get_arr(Some(ec), "volumeMounts").iter().enumerate() {
            if !get_str(Some(m), "subPath").is_empty() {
                errs.push(FieldError::forbidden(&format!("{}.volumeMounts[{}].subPath", at, k), "cannot be set for an Ephemeral Container"));
            }
        }
    }
    for old in get_arr(spec, "ephemeralContainers") {
        let name = get_str(Some(old), "name");
        match ecs.iter().find(|e| get_str(Some(e), "name") == name) {
            None => errs.push(FieldError::forbidden("spec.ephemeralContainers", &format!("existing ephemeral containers {:?} may not be removed\n", name))),
            Some(new) if new != old => errs.push(FieldError::forbidden(&format!("spec.ephemeralContainers[{}]", name), &format!("existing ephemeral containers {:?} may not be changed\n", name))),
            Some(_) => {}
        }
    }
    errs
}

#[cfg(test)]
mod ephemeral_tests {
    use super::*;

    /// `TestValidatePodEphemeralContainersUpdate`'s cases, the messages as v1.34 words them.
    #[test]
    fn ephemeral_containers_update() {
        let pod = json!({"spec": {"containers": [{"name": "app", "image": "nginx"}], "ephemeralContainers": [{"name": "debugger", "image": "busybox", "terminationMessagePolicy": "File"}]}});
        let old = pod["spec"]["ephemeralContainers"][0].clone();
        let ec = |v: Value| v;
        let cases: Vec<(&str, Vec<Value>, Vec<&str>)> = vec![
            ("add one", vec![old.clone(), ec(json!({"name": "shell", "image": "busybox", "targetContainerName": "app"}))], vec![]),
            ("no change", vec![old.clone()], vec![]),
            ("remove one", vec![], vec!["spec.ephemeralContainers: Forbidden: existing ephemeral containers \"debugger\" may not be removed\n"]),
            ("change one", vec![json!({"name": "debugger", "image": "alpine"})], vec!["spec.ephemeralContainers[debugger]: Forbidden: existing ephemeral containers \"debugger\" may not be changed\n"]),
            ("duplicate name", vec![old.clone(), json!({"name": "app", "image": "busybox"})], vec!["spec.ephemeralContainers[1].name: Duplicate value: \"app\""]),
            ("no image", vec![old.clone(), json!({"name": "shell"})], vec!["spec.ephemeralContainers[1].image: Required value"]),
            ("unknown target", vec![old.clone(), json!({"name": "shell", "image": "busybox", "targetContainerName": "nope"})], vec!["spec.ephemeralContainers[1].targetContainerName: Not found: \"nope\""]),
            ("ports", vec![old.clone(), json!({"name": "shell", "image": "busybox", "ports": [{"containerPort": 80}]})], vec!["spec.ephemeralContainers[1].ports: Forbidden: cannot be set for an Ephemeral Container"]),
            ("probe", vec![old.clone(), json!({"name": "shell", "image": "busybox", "readinessProbe": {"exec": {"command": ["true"]}}})], vec!["spec.ephemeralContainers[1].readinessProbe: Forbidden: cannot be set for an Ephemeral Container"]),
        ];
        for (name, ecs, want) in cases {
            let got: Vec<String> = validate_ephemeral_containers_update(&pod, &ecs).iter().map(|e| e.to_string()).collect();
            assert_eq!(got, want, "{}", name);
        }
    }
}
