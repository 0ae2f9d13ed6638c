//! `pkg/apis/apps/validation/validation.go`: Deployment and ReplicaSet, with the apps/v1 update
//! rules of their registry strategies (the selector is immutable).

use super::*;
// =============================================================================================
// apps/v1 Deployment and ReplicaSet
// =============================================================================================

/// `ValidateDeployment`: object meta (DNS-subdomain name), then the spec.
pub fn validate_deployment(obj: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta(obj, true, name_is_dns_subdomain);
    errs.extend(validate_deployment_spec(obj.get("spec")));
    errs
}

/// `ValidateDeploymentUpdate` plus the registry's selector immutability (apps/v1).
pub fn validate_deployment_update(new: &Value, old: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta_update(new, old);
    errs.extend(validate_deployment_spec(new.get("spec")));
    errs.extend(validate_selector_immutable(new, old));
    errs
}

/// `ValidateImmutableField(newSelector, oldSelector, spec.selector)`.
pub(super) fn validate_selector_immutable(new: &Value, old: &Value) -> Errs {
    let ns = new.get("spec").and_then(|s| s.get("selector"));
    let os = old.get("spec").and_then(|s| s.get("selector"));
    if semantic_eq(ns, os) {
        return Vec::new();
    }
    vec![FieldError::invalid(
        "spec.selector",
        ns.cloned().unwrap_or(Value::Null),
        FIELD_IMMUTABLE_ERROR_MSG,
    )
    .with_raw_value(label_selector_json(ns))]
}

/// `ValidateDeploymentSpec`.
pub(super) fn validate_deployment_spec(spec: Option<&Value>) -> Errs {
    let path = Path::new("spec");
    let mut errs = Vec::new();
    errs.extend(nonnegative(
        get_i64(spec, "replicas").unwrap_or(0),
        &path.child("replicas"),
    ));
    errs.extend(validate_selector_and_template(spec, &path, "deployment"));
    errs.extend(validate_deployment_strategy(
        get(spec, "strategy"),
        &path.child("strategy"),
    ));
    let min_ready = get_i64(spec, "minReadySeconds").unwrap_or(0);
    errs.extend(nonnegative(min_ready, &path.child("minReadySeconds")));
    if let Some(rhl) = get_i64(spec, "revisionHistoryLimit") {
        // Zero is a valid revisionHistoryLimit.
        errs.extend(nonnegative(rhl, &path.child("revisionHistoryLimit")));
    }
    if let Some(pds) = get_i64(spec, "progressDeadlineSeconds") {
        errs.extend(nonnegative(pds, &path.child("progressDeadlineSeconds")));
        if pds <= min_ready {
            errs.push(FieldError::invalid(
                path.child("progressDeadlineSeconds").as_str(),
                json!(pds),
                "must be greater than minReadySeconds",
            ));
        }
    }
    errs
}

/// The selector checks shared by Deployment and ReplicaSet, then the template. (Upstream's
/// ReplicaSet message also says "for deployment"; kubesim keeps that.)
pub(super) fn validate_selector_and_template(spec: Option<&Value>, path: &Path, _kind: &str) -> Errs {
    let mut errs = Vec::new();
    let sel = get(spec, "selector");
    match sel {
        None => errs.push(FieldError::required(path.child("selector").as_str(), "")),
        Some(s) => {
            errs.extend(validate_label_selector(Some(s), &path.child("selector")));
            let ml = s
                .get("matchLabels")
                .and_then(Value::as_object)
                .map_or(0, Map::len);
            let me = get_arr(Some(s), "matchExpressions").len();
            if ml + me == 0 {
                errs.push(
                    FieldError::invalid(
                        path.child("selector").as_str(),
                        s.clone(),
                        "empty selector is invalid for deployment",
                    )
                    .with_raw_value(label_selector_json(Some(s))),
                );
            }
        }
    }
    match label_selector_as_selector(sel) {
        Err(()) => errs.push(
            FieldError::invalid(
                path.child("selector").as_str(),
                sel.cloned().unwrap_or(Value::Null),
                "invalid label selector",
            )
            .with_raw_value(label_selector_json(sel)),
        ),
        Ok(selector) => errs.extend(validate_pod_template_spec_for_replica_set(
            get(spec, "template"),
            &selector,
            &path.child("template"),
        )),
    }
    errs
}

/// `ValidatePodTemplateSpecForReplicaSet`.
pub(super) fn validate_pod_template_spec_for_replica_set(
    tpl: Option<&Value>,
    selector: &Selector,
    path: &Path,
) -> Errs {
    let mut errs = Vec::new();
    let meta = get(tpl, "metadata");
    if !selector.is_empty() && !selector.matches(&labels_of(get(meta, "labels"))) {
        errs.push(FieldError::invalid(
            path.child("metadata").child("labels").as_str(),
            map_json(get(meta, "labels")),
            "`selector` does not match template `labels`",
        ));
    }
    errs.extend(validate_pod_template_spec(tpl, path));
    let spec = get(tpl, "spec");
    let rp = get_str(spec, "restartPolicy");
    if rp != "Always" {
        errs.push(
            FieldError::not_supported(
                path.child("spec").child("restartPolicy").as_str(),
                json!(rp),
                &["Always"],
            )
            .json_rendered(),
        );
    }
    if get(spec, "activeDeadlineSeconds").is_some() {
        errs.push(FieldError::forbidden(
            path.child("spec").child("activeDeadlineSeconds").as_str(),
            "activeDeadlineSeconds in ReplicaSet is not Supported",
        ));
    }
    errs
}

/// `ValidatePodTemplateSpec`. Note the upstream paths: template labels are reported at
/// `<template>.labels` (not `.metadata.labels`).
pub(super) fn validate_pod_template_spec(tpl: Option<&Value>, path: &Path) -> Errs {
    let mut errs = Vec::new();
    let meta = get(tpl, "metadata");
    let spec = get(tpl, "spec");
    errs.extend(validate_labels(get(meta, "labels"), &path.child("labels")));
    errs.extend(validate_annotations(
        get(meta, "annotations"),
        &path.child("annotations"),
    ));
    errs.extend(validate_pod_specific_annotations(
        get(meta, "annotations"),
        spec,
        &path.child("annotations"),
    ));
    errs.extend(validate_pod_spec(spec, None, &path.child("spec"), false));
    if !get_arr(spec, "ephemeralContainers").is_empty() {
        errs.push(FieldError::forbidden(
            path.child("spec").child("ephemeralContainers").as_str(),
            "ephemeral containers not allowed in pod template",
        ));
    }
    errs
}

/// The JSON of an `intstr.IntOrString` as the internal type holds it (a missing v1 pointer
/// converts to the zero value, the integer 0).
pub(super) fn int_or_string(v: Option<&Value>) -> Value {
    match v {
        Some(Value::Number(n)) => Value::Number(n.clone()),
        Some(Value::String(s)) => Value::String(s.clone()),
        _ => json!(0),
    }
}

/// `getIntOrPercentValue`: a valid percent gives its number; any other string goes through
/// `strconv.Atoi` and counts as 0 when that fails.
pub(super) fn int_or_percent_value(v: &Value) -> i64 {
    match v {
        Value::String(s) => {
            if percent_errors(s).is_empty() {
                s[..s.len() - 1].parse::<i64>().unwrap_or(0)
            } else {
                s.parse::<i64>().unwrap_or(0)
            }
        }
        Value::Number(n) => n.as_i64().unwrap_or(0),
        _ => 0,
    }
}

/// `ValidatePositiveIntOrPercent`.
pub(super) fn validate_positive_int_or_percent(v: &Value, path: &Path) -> Errs {
    match v {
        Value::String(s) => percent_errors(s)
            .into_iter()
            .map(|m| FieldError::invalid(path.as_str(), v.clone(), &m))
            .collect(),
        Value::Number(n) => nonnegative(n.as_i64().unwrap_or(0), path),
        _ => Vec::new(),
    }
}

/// `IsNotMoreThan100Percent`.
pub(super) fn not_more_than_100_percent(v: &Value, path: &Path) -> Errs {
    if let Value::String(s) = v {
        if percent_errors(s).is_empty() && s[..s.len() - 1].parse::<i64>().map_or(true, |n| n > 100)
        {
            return vec![FieldError::invalid(
                path.as_str(),
                v.clone(),
                "must not be greater than 100%",
            )];
        }
    }
    Vec::new()
}

/// The internal `apps.DeploymentStrategy` as Go's JSON renders it (no JSON tags).
pub(super) fn deployment_strategy_internal_json(strategy: Option<&Value>) -> String {
    let ru = get(strategy, "rollingUpdate").map(|ru| {
        go_struct(&[
            (
                "MaxUnavailable",
                Some(go_json(&int_or_string(ru.get("maxUnavailable")))),
            ),
            (
                "MaxSurge",
                Some(go_json(&int_or_string(ru.get("maxSurge")))),
            ),
        ])
    });
    go_struct(&[
        ("Type", Some(go_json(&json!(get_str(strategy, "type"))))),
        ("RollingUpdate", Some(ru.unwrap_or_else(|| "null".into()))),
    ])
}

/// `ValidateDeploymentStrategy`.
pub(super) fn validate_deployment_strategy(strategy: Option<&Value>, path: &Path) -> Errs {
    let mut errs = Vec::new();
    let ru = get(strategy, "rollingUpdate");
    match get_str(strategy, "type") {
        "Recreate" => {
            if ru.is_some() {
                errs.push(FieldError::forbidden(
                    path.child("rollingUpdate").as_str(),
                    "may not be specified when strategy `type` is 'Recreate'",
                ));
            }
        }
        "RollingUpdate" => match ru {
            None => errs.push(FieldError::required(
                path.child("rollingUpdate").as_str(),
                "this should be defaulted and never be nil",
            )),
            Some(ru) => errs.extend(validate_rolling_update_deployment(
                ru,
                &path.child("rollingUpdate"),
            )),
        },
        t => errs.push(
            FieldError::not_supported(
                path.as_str(),
                json!({"type": t}),
                &["Recreate", "RollingUpdate"],
            )
            .with_raw_value(deployment_strategy_internal_json(strategy)),
        ),
    }
    errs
}

/// `ValidateRollingUpdateDeployment`.
pub(super) fn validate_rolling_update_deployment(ru: &Value, path: &Path) -> Errs {
    let mut errs = Vec::new();
    let mu = int_or_string(ru.get("maxUnavailable"));
    let ms = int_or_string(ru.get("maxSurge"));
    errs.extend(validate_positive_int_or_percent(
        &mu,
        &path.child("maxUnavailable"),
    ));
    errs.extend(validate_positive_int_or_percent(
        &ms,
        &path.child("maxSurge"),
    ));
    if int_or_percent_value(&mu) == 0 && int_or_percent_value(&ms) == 0 {
        // Both MaxSurge and MaxUnavailable cannot be zero.
        errs.push(FieldError::invalid(
            path.child("maxUnavailable").as_str(),
            mu.clone(),
            "may not be 0 when `maxSurge` is 0",
        ));
    }
    errs.extend(not_more_than_100_percent(
        &mu,
        &path.child("maxUnavailable"),
    ));
    errs
}

/// `ValidateReplicaSet`.
pub fn validate_replica_set(obj: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta(obj, true, name_is_dns_subdomain);
    errs.extend(validate_replica_set_spec(obj.get("spec")));
    errs
}

/// `ValidateReplicaSetUpdate` plus the registry's selector immutability (apps/v1).
pub fn validate_replica_set_update(new: &Value, old: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta_update(new, old);
    errs.extend(validate_replica_set_spec(new.get("spec")));
    errs.extend(validate_selector_immutable(new, old));
    errs
}

/// `ValidateReplicaSetSpec`.
pub(super) fn validate_replica_set_spec(spec: Option<&Value>) -> Errs {
    let path = Path::new("spec");
    let mut errs = Vec::new();
    errs.extend(nonnegative(
        get_i64(spec, "replicas").unwrap_or(0),
        &path.child("replicas"),
    ));
    errs.extend(nonnegative(
        get_i64(spec, "minReadySeconds").unwrap_or(0),
        &path.child("minReadySeconds"),
    ));
    errs.extend(validate_selector_and_template(spec, &path, "replicaset"));
    errs
}


/// `ValidateReplicationController` (core/v1): the ReplicaSet's rules over a selector that is a
/// plain label map, which must not be empty (`ValidateNonEmptySelector`).
pub fn validate_replication_controller(obj: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta(obj, true, name_is_dns_subdomain);
    errs.extend(validate_replication_controller_spec(obj.get("spec")));
    errs
}

/// `ValidateReplicationControllerUpdate` (the selector of an RC may change).
pub fn validate_replication_controller_update(new: &Value, old: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta_update(new, old);
    errs.extend(validate_replication_controller_spec(new.get("spec")));
    errs
}

fn validate_replication_controller_spec(spec: Option<&Value>) -> Errs {
    let selector = get(spec, "selector").and_then(Value::as_object).filter(|m| !m.is_empty());
    let Some(selector) = selector else {
        return vec![FieldError::required("spec.selector", "")];
    };
    let mut as_rs = spec.cloned().unwrap_or(Value::Null);
    as_rs["selector"] = serde_json::json!({"matchLabels": selector});
    validate_replica_set_spec(Some(&as_rs))
}

/// `ValidateDaemonSet`.
pub fn validate_daemon_set(obj: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta(obj, true, name_is_dns_subdomain);
    errs.extend(validate_daemon_set_spec(obj.get("spec")));
    errs
}

/// `ValidateDaemonSetUpdate`: the spec again, and an immutable selector.
pub fn validate_daemon_set_update(new: &Value, old: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta_update(new, old);
    errs.extend(validate_daemon_set_spec(new.get("spec")));
    errs.extend(validate_selector_immutable(new, old));
    errs
}

/// `ValidateDaemonSetSpec`: selector, its match with the template's labels, a non-empty
/// selector, the pod template, `restartPolicy: Always`, no `activeDeadlineSeconds`, the counters
/// and the update strategy.
pub(super) fn validate_daemon_set_spec(spec: Option<&Value>) -> Errs {
    let path = Path::new("spec");
    let mut errs = Vec::new();
    let sel = get(spec, "selector");
    errs.extend(validate_label_selector(sel, &path.child("selector")));
    let tpl = get(spec, "template");
    if let Ok(selector) = label_selector_as_selector(sel) {
        let labels = get(get(tpl, "metadata"), "labels");
        if !selector.matches(&labels_of(labels)) {
            errs.push(FieldError::invalid(path.child("template").child("metadata").child("labels").as_str(), map_json(labels), "`selector` does not match template `labels`"));
        }
    }
    if let Some(s) = sel {
        let n = s.get("matchLabels").and_then(Value::as_object).map_or(0, Map::len) + get_arr(Some(s), "matchExpressions").len();
        if n == 0 {
            errs.push(FieldError::invalid(path.child("selector").as_str(), s.clone(), "empty selector is invalid for daemonset").with_raw_value(label_selector_json(Some(s))));
        }
    } else {
        errs.push(FieldError::required(path.child("selector").as_str(), ""));
    }
    errs.extend(validate_pod_template_spec(tpl, &path.child("template")));
    let pod_spec = get(tpl, "spec");
    let rp = get_str(pod_spec, "restartPolicy");
    if rp != "Always" {
        errs.push(FieldError::not_supported(path.child("template").child("spec").child("restartPolicy").as_str(), json!(rp), &["Always"]).json_rendered());
    }
    if let Some(ads) = get(pod_spec, "activeDeadlineSeconds") {
        errs.push(FieldError::invalid(path.child("template").child("spec").child("activeDeadlineSeconds").as_str(), ads.clone(), "must not be specified"));
    }
    errs.extend(nonnegative(get_i64(spec, "minReadySeconds").unwrap_or(0), &path.child("minReadySeconds")));
    errs.extend(validate_daemon_set_update_strategy(get(spec, "updateStrategy"), &path.child("updateStrategy")));
    if let Some(n) = get_i64(spec, "revisionHistoryLimit") {
        errs.extend(nonnegative(n, &path.child("revisionHistoryLimit")));
    }
    errs
}

/// `ValidateDaemonSetUpdateStrategy`.
fn validate_daemon_set_update_strategy(strategy: Option<&Value>, path: &Path) -> Errs {
    let mut errs = Vec::new();
    match get_str(strategy, "type") {
        "OnDelete" => {}
        "RollingUpdate" => match get(strategy, "rollingUpdate") {
            None => errs.push(FieldError::required(path.child("rollingUpdate").as_str(), "")),
            Some(ru) => errs.extend(validate_rolling_update_daemon_set(ru, &path.child("rollingUpdate"))),
        },
        t => errs.push(FieldError::not_supported(path.as_str(), json!({"type": t}), &["RollingUpdate", "OnDelete"])),
    }
    errs
}

/// `ValidateRollingUpdateDaemonSet`: each of maxUnavailable and maxSurge an int or percent
/// (at most 100%), exactly one of them non-zero.
fn validate_rolling_update_daemon_set(ru: &Value, path: &Path) -> Errs {
    let mut errs = Vec::new();
    let mu = int_or_string(ru.get("maxUnavailable"));
    let ms = int_or_string(ru.get("maxSurge"));
    errs.extend(validate_positive_int_or_percent(&mu, &path.child("maxUnavailable")));
    errs.extend(validate_positive_int_or_percent(&ms, &path.child("maxSurge")));
    errs.extend(not_more_than_100_percent(&mu, &path.child("maxUnavailable")));
    errs.extend(not_more_than_100_percent(&ms, &path.child("maxSurge")));
    let has_unavailable = int_or_percent_value(&mu) != 0;
    let has_surge = int_or_percent_value(&ms) != 0;
    if has_unavailable && has_surge {
        errs.push(FieldError::invalid(path.child("maxSurge").as_str(), ms.clone(), "may not be set when maxUnavailable is non-zero"));
    } else if !has_unavailable && !has_surge {
        errs.push(FieldError::required(path.child("maxUnavailable").as_str(), "cannot be 0 when maxSurge is 0"));
    }
    errs
}

/// `ValidateControllerRevision`: a name and `revision` not negative (`data` is opaque).
pub fn validate_controller_revision(obj: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta(obj, true, name_is_dns_subdomain);
    errs.extend(nonnegative(get_i64(Some(obj), "revision").unwrap_or(0), &Path::new("revision")));
    errs
}

/// `ValidateJob` (`pkg/apis/batch/validation`): the object's metadata, then `ValidateJobSpec`.
pub fn validate_job(obj: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta(obj, true, name_is_dns_subdomain);
    errs.extend(validate_job_spec(obj.get("spec")));
    // the controller names an Indexed Job's Pods' hosts `<job>-<index>`
    let spec = obj.get("spec");
    if get_str(spec, "completionMode") == "Indexed" {
        if let Some(c) = get_i64(spec, "completions").filter(|c| *c > 0) {
            let name = get_str(obj.get("metadata"), "name");
            let hostname = format!("{}-{}", name, c - 1);
            if !is_dns1123_label(&hostname) {
                errs.push(FieldError::invalid("metadata.name", json!(name), &format!("will not able to create pod with invalid DNS label: {}", hostname)));
            }
        }
    }
    errs
}

/// `ValidateJobUpdate`: the spec again; completions, selector and template are immutable.
pub fn validate_job_update(new: &Value, old: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta_update(new, old);
    errs.extend(validate_job_spec(new.get("spec")));
    for key in ["completions", "selector", "template", "completionMode", "podFailurePolicy", "backoffLimitPerIndex", "managedBy", "successPolicy"] {
        let (n, o) = (new.get("spec").and_then(|s| s.get(key)), old.get("spec").and_then(|s| s.get(key)));
        if !semantic_eq(n, o) {
            errs.push(FieldError::invalid(Path::new("spec").child(key).as_str(), n.cloned().unwrap_or(Value::Null), FIELD_IMMUTABLE_ERROR_MSG));
        }
    }
    errs
}

/// `validateJobSpec` and `ValidateJobSpec`'s selector checks.
fn validate_job_spec(spec: Option<&Value>) -> Errs {
    let path = Path::new("spec");
    let mut errs = Vec::new();
    for key in ["parallelism", "completions", "activeDeadlineSeconds", "backoffLimit", "ttlSecondsAfterFinished", "backoffLimitPerIndex", "maxFailedIndexes"] {
        if let Some(n) = get_i64(spec, key) {
            errs.extend(nonnegative(n, &path.child(key)));
        }
    }
    if get(spec, "maxFailedIndexes").is_some() && get(spec, "backoffLimitPerIndex").is_none() {
        errs.push(FieldError::required(path.child("backoffLimitPerIndex").as_str(), "when maxFailedIndexes is specified"));
    }
    let mode = get_str(spec, "completionMode");
    if !mode.is_empty() && mode != "NonIndexed" && mode != "Indexed" {
        errs.push(FieldError::not_supported(path.child("completionMode").as_str(), json!(mode), &["NonIndexed", "Indexed"]));
    }
    if mode == "Indexed" && get(spec, "completions").is_none() {
        errs.push(FieldError::required(path.child("completions").as_str(), "when completion mode is Indexed"));
    }
    if mode == "Indexed" {
        if let Some(p) = get_i64(spec, "parallelism").filter(|p| *p > MAX_PARALLELISM_FOR_INDEXED_JOB) {
            errs.push(FieldError::invalid(path.child("parallelism").as_str(), json!(p), &format!("must be less than or equal to {} when completion mode is Indexed", MAX_PARALLELISM_FOR_INDEXED_JOB)));
        }
    }
    if mode.is_empty() || mode == "NonIndexed" {
        for key in ["backoffLimitPerIndex", "maxFailedIndexes"] {
            if let Some(n) = get_i64(spec, key) {
                errs.push(FieldError::invalid(path.child(key).as_str(), json!(n), "requires indexed completion mode"));
            }
        }
    }
    let tpl = get(spec, "template");
    let pfp = get(spec, "podFailurePolicy");
    if pfp.is_some() {
        errs.extend(validate_pod_failure_policy(spec, &path.child("podFailurePolicy")));
    }
    if let Some(sp) = get(spec, "successPolicy") {
        if mode != "Indexed" {
            errs.push(FieldError::invalid(path.child("successPolicy").as_str(), sp.clone(), "requires indexed completion mode").with_raw_value(go_json(sp)));
        } else {
            errs.extend(validate_success_policy(spec, &path.child("successPolicy")));
        }
    }
    if let Some(rp) = get(spec, "podReplacementPolicy").and_then(Value::as_str) {
        let rp_path = path.child("podReplacementPolicy");
        if pfp.is_some() {
            if rp != "Failed" {
                errs.push(FieldError::not_supported(rp_path.as_str(), json!(rp), &["Failed"]));
            }
        } else if rp != "Failed" && rp != "TerminatingOrFailed" {
            errs.push(FieldError::not_supported(rp_path.as_str(), json!(rp), &["Failed", "TerminatingOrFailed"]));
        }
    }
    errs.extend(validate_pod_template_spec(tpl, &path.child("template")));
    let rp = get_str(get(tpl, "spec"), "restartPolicy");
    let rp_path = path.child("template").child("spec").child("restartPolicy");
    if rp == "Always" || rp.is_empty() {
        errs.push(FieldError::required(rp_path.as_str(), "valid values: \"OnFailure\", \"Never\""));
    } else if rp != "OnFailure" && rp != "Never" {
        errs.push(FieldError::not_supported(rp_path.as_str(), json!(rp), &["OnFailure", "Never"]));
    } else if pfp.is_some() && rp != "Never" {
        errs.push(FieldError::invalid(rp_path.as_str(), json!(rp), "only \"Never\" is supported when podFailurePolicy is specified"));
    }
    let sel = get(spec, "selector");
    match sel {
        None => errs.push(FieldError::required(path.child("selector").as_str(), "")),
        Some(_) => errs.extend(validate_label_selector(sel, &path.child("selector"))),
    }
    if let Ok(selector) = label_selector_as_selector(sel) {
        let labels = get(get(tpl, "metadata"), "labels");
        if !selector.matches(&labels_of(labels)) {
            errs.push(FieldError::invalid(path.child("template").child("metadata").child("labels").as_str(), map_json(labels), "`selector` does not match template `labels`"));
        }
    }
    errs
}

/// `maxParallelismForIndexedJob`.
const MAX_PARALLELISM_FOR_INDEXED_JOB: i64 = 100_000;

/// `field.Invalid` with `field.OmitValueType{}`: the body has no value.
fn invalid_omit_value(path: &Path, detail: &str) -> FieldError {
    FieldError { bad_value: None, ..FieldError::invalid(path.as_str(), Value::Null, detail) }
}

/// `validatePodFailurePolicy`: at most 20 rules, each with a supported action and exactly one
/// of `onExitCodes` (an operator, a container of the template, 1 to 255 ordered distinct values,
/// no 0 for `In`) and `onPodConditions` (at most 20 patterns, a qualified type, a status).
fn validate_pod_failure_policy(spec: Option<&Value>, path: &Path) -> Errs {
    let mut errs = Vec::new();
    let rules_path = path.child("rules");
    let rules = get_arr(get(spec, "podFailurePolicy"), "rules");
    if rules.len() > 20 {
        errs.push(FieldError::too_many(rules_path.as_str(), rules.len() as i64, 20));
    }
    let tpl_spec = get(get(spec, "template"), "spec");
    let names: BTreeSet<&str> = get_arr(tpl_spec, "containers").iter().chain(get_arr(tpl_spec, "initContainers")).map(|c| get_str(Some(c), "name")).collect();
    let actions = ["Count", "FailIndex", "FailJob", "Ignore"];
    for (i, rule) in rules.iter().enumerate() {
        let rule_path = rules_path.index(i);
        let rule = Some(rule);
        let action_path = rule_path.child("action");
        match get_str(rule, "action") {
            "" => errs.push(FieldError::required(action_path.as_str(), "valid values: [\"Count\" \"FailIndex\" \"FailJob\" \"Ignore\"]")),
            "FailIndex" => {
                if get(spec, "backoffLimitPerIndex").is_none() {
                    errs.push(FieldError::invalid(action_path.as_str(), json!("FailIndex"), "requires the backoffLimitPerIndex to be set"));
                }
            }
            a if !actions.contains(&a) => errs.push(FieldError::not_supported(action_path.as_str(), json!(a), &actions)),
            _ => {}
        }
        let on_exit = get(rule, "onExitCodes");
        let on_conds = get_arr(rule, "onPodConditions");
        if let Some(req) = on_exit {
            let req = Some(req);
            let ep = rule_path.child("onExitCodes");
            let op = get_str(req, "operator");
            match op {
                "" => errs.push(FieldError::required(ep.child("operator").as_str(), "valid values: [\"In\" \"NotIn\"]")),
                "In" | "NotIn" => {}
                o => errs.push(FieldError::not_supported(ep.child("operator").as_str(), json!(o), &["In", "NotIn"])),
            }
            if let Some(cn) = get(req, "containerName").and_then(Value::as_str) {
                if !names.contains(cn) {
                    errs.push(FieldError::invalid(ep.child("containerName").as_str(), json!(cn), "must be one of the container or initContainer names in the pod template"));
                }
            }
            let values_path = ep.child("values");
            let values: Vec<i64> = get_arr(req, "values").iter().filter_map(Value::as_i64).collect();
            if values.is_empty() {
                errs.push(FieldError::invalid(values_path.as_str(), json!(values), "at least one value is required").with_raw_value("[]".into()));
            } else if values.len() > 255 {
                errs.push(FieldError::too_many(values_path.as_str(), values.len() as i64, 255));
            }
            let mut seen = BTreeSet::new();
            let mut ordered = true;
            for (j, v) in values.iter().enumerate() {
                let vp = values_path.index(j);
                if op == "In" && *v == 0 {
                    errs.push(FieldError::invalid(vp.as_str(), json!(v), "must not be 0 for the In operator"));
                }
                if !seen.insert(*v) {
                    errs.push(FieldError::duplicate(vp.as_str(), json!(v)));
                }
                if j > 0 && values[j - 1] > *v {
                    ordered = false;
                }
            }
            if !ordered {
                let rendered = format!("[{}]", values.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(","));
                errs.push(FieldError::invalid(values_path.as_str(), json!(values), "must be ordered").with_raw_value(rendered));
            }
        }
        if !on_conds.is_empty() {
            let cp = rule_path.child("onPodConditions");
            if on_conds.len() > 20 {
                errs.push(FieldError::too_many(cp.as_str(), on_conds.len() as i64, 20));
            }
            for (j, pat) in on_conds.iter().enumerate() {
                let pp = cp.index(j);
                errs.extend(validate_qualified_name(get_str(Some(pat), "type"), &pp.child("type")));
                match get_str(Some(pat), "status") {
                    "" => errs.push(FieldError::required(pp.child("status").as_str(), "valid values: [\"False\" \"True\" \"Unknown\"]")),
                    "True" | "False" | "Unknown" => {}
                    s => errs.push(FieldError::not_supported(pp.child("status").as_str(), json!(s), &["False", "True", "Unknown"])),
                }
            }
        }
        if on_exit.is_some() && !on_conds.is_empty() {
            errs.push(invalid_omit_value(&rule_path, "specifying both OnExitCodes and OnPodConditions is not supported"));
        }
        if on_exit.is_none() && on_conds.is_empty() {
            errs.push(invalid_omit_value(&rule_path, "specifying one of OnExitCodes and OnPodConditions is required"));
        }
    }
    errs
}

/// `parseIndexInterval` / `validateIndexesFormat`: how many indexes `1,3-5` names, or why it is
/// malformed.
fn validate_indexes_format(s: &str, completions: i64) -> Result<i64, String> {
    if s.is_empty() {
        return Ok(0);
    }
    let mut last: Option<i64> = None;
    let mut total = 0;
    for interval in s.split(',') {
        let limits: Vec<&str> = interval.split('-').collect();
        if limits.len() > 2 {
            return Err(format!("the fragment {} violates the requirement that an index interval can have at most two parts separated by '-'", go_quote(interval)));
        }
        let parse = |t: &str| -> Result<i64, String> {
            let x = t.parse::<i64>().map_err(|_| format!("cannot convert string to integer for index: {}", go_quote(t)))?;
            if x >= completions {
                return Err(format!("too large index: {}", go_quote(t)));
            }
            Ok(x)
        };
        let x = parse(limits[0])?;
        let y = match limits.get(1) {
            Some(t) => {
                let y = parse(t)?;
                if x >= y {
                    return Err(format!("non-increasing order, previous: {}, current: {}", x, y));
                }
                y
            }
            None => x,
        };
        if let Some(l) = last.filter(|l| *l >= x) {
            return Err(format!("non-increasing order, previous: {}, current: {}", l, x));
        }
        total += y - x + 1;
        last = Some(y);
    }
    Ok(total)
}

/// `validateSuccessPolicy`: 1 to 20 rules, each with `succeededIndexes` (well formed, at most
/// 64 KiB) or `succeededCount` (not negative, at most completions and the rule's indexes).
fn validate_success_policy(spec: Option<&Value>, path: &Path) -> Errs {
    let mut errs = Vec::new();
    let rules_path = path.child("rules");
    let rules = get_arr(get(spec, "successPolicy"), "rules");
    if rules.is_empty() {
        errs.push(FieldError::required(rules_path.as_str(), "at least one rules must be specified when the successPolicy is specified"));
    }
    if rules.len() > 20 {
        errs.push(FieldError::too_many(rules_path.as_str(), rules.len() as i64, 20));
    }
    let completions = get_i64(spec, "completions").unwrap_or(0);
    for (i, rule) in rules.iter().enumerate() {
        let rp = rules_path.index(i);
        let rule = Some(rule);
        let indexes = get(rule, "succeededIndexes").and_then(Value::as_str);
        let count = get_i64(rule, "succeededCount");
        if indexes.is_none() && count.is_none() {
            errs.push(FieldError::required(rp.as_str(), "at least one of succeededCount or succeededIndexes must be specified"));
        }
        let mut total = 0;
        if let Some(s) = indexes {
            let ip = rp.child("succeededIndexes");
            if s.len() > 64 * 1024 {
                errs.push(FieldError::too_long(ip.as_str(), 64 * 1024));
            }
            match validate_indexes_format(s, completions) {
                Ok(t) => total = t,
                Err(e) => errs.push(FieldError::invalid(ip.as_str(), json!(s), &format!("error parsing succeededIndexes: {}", e))),
            }
        }
        if let Some(c) = count {
            let cp = rp.child("succeededCount");
            errs.extend(nonnegative(c, &cp));
            if c > completions {
                errs.push(FieldError::invalid(cp.as_str(), json!(c), &format!("must be less than or equal to {} (the number of specified completions)", completions)));
            }
            if indexes.is_some() && c > total {
                errs.push(FieldError::invalid(cp.as_str(), json!(c), &format!("must be less than or equal to {} (the number of indexes in the specified succeededIndexes field)", total)));
            }
        }
    }
    errs
}

/// `ValidateCronJobCreate`: metadata, a name of at most 52 characters (the Job gets an
/// 11-character suffix), then the spec.
pub fn validate_cron_job(obj: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta(obj, true, name_is_dns_subdomain);
    errs.extend(validate_cron_job_spec(obj.get("spec")));
    let n = obj.get("metadata").and_then(|m| m.get("name")).and_then(Value::as_str).unwrap_or("");
    if n.len() > 52 {
        errs.push(FieldError::invalid("metadata.name", json!(n), "must be no more than 52 characters"));
    }
    errs
}

/// `ValidateCronJobUpdate`: the spec again (no name length check).
pub fn validate_cron_job_update(new: &Value, old: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta_update(new, old);
    errs.extend(validate_cron_job_spec(new.get("spec")));
    errs
}

/// `validateCronJobSpec`: the schedule as robfig/cron parses it, the deadline, the concurrency
/// policy, the Job template and the history limits.
fn validate_cron_job_spec(spec: Option<&Value>) -> Errs {
    let path = Path::new("spec");
    let mut errs = Vec::new();
    let schedule = get_str(spec, "schedule");
    if schedule.is_empty() {
        errs.push(FieldError::required(path.child("schedule").as_str(), ""));
    } else if let Err(e) = crate::controllers::cronjob::schedule::parse(schedule) {
        errs.push(FieldError::invalid(path.child("schedule").as_str(), json!(schedule), &e));
    }
    if let Some(n) = get_i64(spec, "startingDeadlineSeconds") {
        errs.extend(nonnegative(n, &path.child("startingDeadlineSeconds")));
    }
    if let Some(tz) = get(spec, "timeZone").and_then(Value::as_str) {
        if !matches!(tz, "UTC" | "Etc/UTC") {
            errs.push(FieldError::invalid(path.child("timeZone").as_str(), json!(tz), "kubesim knows only the UTC time zone"));
        }
    }
    match get_str(spec, "concurrencyPolicy") {
        "Allow" | "Forbid" | "Replace" => {}
        "" => errs.push(FieldError::required(path.child("concurrencyPolicy").as_str(), "")),
        p => errs.push(FieldError::not_supported(path.child("concurrencyPolicy").as_str(), json!(p), &["Allow", "Forbid", "Replace"])),
    }
    // ValidateJobTemplateSpec: the Job spec without its selector checks (the Job gets those)
    let jt = get(spec, "jobTemplate");
    let job_spec = get(jt, "spec");
    let jt_path = path.child("jobTemplate").child("spec");
    for key in ["parallelism", "completions", "activeDeadlineSeconds", "backoffLimit", "ttlSecondsAfterFinished"] {
        if let Some(n) = get_i64(job_spec, key) {
            errs.extend(nonnegative(n, &jt_path.child(key)));
        }
    }
    let tpl = get(job_spec, "template");
    errs.extend(validate_pod_template_spec(tpl, &jt_path.child("template")));
    let rp = get_str(get(tpl, "spec"), "restartPolicy");
    let rp_path = jt_path.child("template").child("spec").child("restartPolicy");
    if rp == "Always" || rp.is_empty() {
        errs.push(FieldError::required(rp_path.as_str(), "valid values: \"OnFailure\", \"Never\""));
    } else if rp != "OnFailure" && rp != "Never" {
        errs.push(FieldError::not_supported(rp_path.as_str(), json!(rp), &["OnFailure", "Never"]));
    }
    for key in ["successfulJobsHistoryLimit", "failedJobsHistoryLimit"] {
        if let Some(n) = get_i64(spec, key) {
            errs.extend(nonnegative(n, &path.child(key)));
        }
    }
    errs
}
