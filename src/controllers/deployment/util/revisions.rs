//! Revisions and the `deployment.kubernetes.io/*` annotations (`Revision`, `MaxRevision`,
//! `SetNewReplicaSetAnnotations`, `SetReplicasAnnotations`, ...).

use super::*;

// ---------------------------------------------------------------------------
// Revisions and annotations
// ---------------------------------------------------------------------------

/// `Revision(obj)`: the revision annotation as an integer; `Ok(0)` when absent, the
/// `strconv.ParseInt` error text when malformed.
pub fn revision(obj: &Value) -> Result<i64, String> {
    match annotation(obj, REVISION_ANNOTATION) {
        None => match get_path(obj, &["metadata", "annotations", REVISION_ANNOTATION]) {
            // A non-string value is as unparseable as a bad string.
            Some(v) => Err(format!(
                "strconv.ParseInt: parsing {}: invalid syntax",
                go_quote(&v.to_string())
            )),
            None => Ok(0),
        },
        Some(v) => go_parse_int("ParseInt", v, 64),
    }
}

/// `MaxRevision`: the highest parseable revision (0 if none).
pub fn max_revision(all_rss: &[Value]) -> i64 {
    all_rss
        .iter()
        .filter_map(|rs| revision(rs).ok())
        .fold(0, i64::max)
}

/// `LastRevision`: the second highest revision (the one before the current).
pub fn last_revision(all_rss: &[Value]) -> i64 {
    let (mut max, mut sec) = (0i64, 0i64);
    for v in all_rss.iter().filter_map(|rs| revision(rs).ok()) {
        if v >= max {
            sec = max;
            max = v;
        } else if v > sec {
            sec = v;
        }
    }
    sec
}

/// `SetDeploymentRevision`: writes the revision annotation on the Deployment;
/// returns whether it changed.
pub fn set_deployment_revision(d: &mut Value, revision: &str) -> bool {
    let Some(ann) = annotations_mut(d) else {
        return false;
    };
    if ann
        .get(REVISION_ANNOTATION)
        .and_then(Value::as_str)
        .unwrap_or("")
        != revision
    {
        ann.insert(REVISION_ANNOTATION.to_string(), Value::from(revision));
        return true;
    }
    false
}

/// `skipCopyAnnotation`: annotations that belong to the Deployment machinery and
/// are never copied between a Deployment and its ReplicaSets.
pub fn skip_copy_annotation(key: &str) -> bool {
    matches!(
        key,
        LAST_APPLIED_CONFIG_ANNOTATION
            | REVISION_ANNOTATION
            | REVISION_HISTORY_ANNOTATION
            | DESIRED_REPLICAS_ANNOTATION
            | MAX_REPLICAS_ANNOTATION
            | DEPRECATED_ROLLBACK_TO_ANNOTATION
    )
}

/// `copyDeploymentAnnotationsToReplicaSet`. Like upstream, a key missing on the RS
/// reads as `""`, so an empty-valued Deployment annotation is not copied.
pub(super) fn copy_deployment_annotations_to_replica_set(d: &Value, rs: &mut Value) -> bool {
    let source: Vec<(String, String)> = get_path(d, &["metadata", "annotations"])
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .filter_map(|(k, v)| v.as_str().map(|s| (k.clone(), s.to_string())))
                .collect()
        })
        .unwrap_or_default();
    let Some(ann) = annotations_mut(rs) else {
        return false;
    };
    let mut changed = false;
    for (k, v) in source {
        if skip_copy_annotation(&k) || ann.get(&k).and_then(Value::as_str).unwrap_or("") == v {
            continue;
        }
        ann.insert(k, Value::from(v));
        changed = true;
    }
    changed
}

/// `SetNewReplicaSetAnnotations`: copies the Deployment's annotations to the new RS,
/// raises its revision to `new_revision` (only upwards), records the previous
/// revision in `revision-history` when an existing RS is re-used (rollback), trimming
/// the oldest entries to stay within `rev_history_limit_chars`, and — when the RS is
/// about to be created (`!exists`) — sets the desired/max replicas annotations.
/// Returns whether any annotation changed. Unparseable revisions abort with `false`.
pub fn set_new_replica_set_annotations(
    d: &Value,
    rs: &mut Value,
    new_revision: &str,
    exists: bool,
    rev_history_limit_chars: usize,
) -> bool {
    let result =
        set_new_replica_set_annotations_inner(d, rs, new_revision, exists, rev_history_limit_chars);
    prune_empty_annotations(rs);
    result
}

pub(super) fn set_new_replica_set_annotations_inner(
    d: &Value,
    rs: &mut Value,
    new_revision: &str,
    exists: bool,
    limit: usize,
) -> bool {
    let mut changed = copy_deployment_annotations_to_replica_set(d, rs);
    let Some(ann) = annotations_mut(rs) else {
        return changed;
    };
    let existing = ann
        .get(REVISION_ANNOTATION)
        .map(|v| v.as_str().unwrap_or("").to_string());
    let had_revision = existing.is_some();
    let old_revision = existing.unwrap_or_default();
    let old_int = match go_parse_int("ParseInt", &old_revision, 64) {
        Ok(v) => v,
        Err(_) if old_revision.is_empty() => 0,
        Err(_) => return false,
    };
    let Ok(new_int) = go_parse_int("ParseInt", new_revision, 64) else {
        return false;
    };
    if old_int < new_int {
        ann.insert(REVISION_ANNOTATION.to_string(), Value::from(new_revision));
        changed = true;
    }
    if had_revision && old_int < new_int {
        let history = ann
            .get(REVISION_HISTORY_ANNOTATION)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let old_revisions: Vec<&str> = history.split(',').collect();
        if old_revisions.first().is_none_or(|f| f.is_empty()) {
            ann.insert(
                REVISION_HISTORY_ANNOTATION.to_string(),
                Value::from(old_revision.clone()),
            );
        } else {
            let mut total_len = history.len() + old_revision.len() + 1;
            let mut start = 0;
            while total_len > limit && start < old_revisions.len() {
                total_len = total_len.saturating_sub(old_revisions[start].len() + 1);
                start += 1;
            }
            if total_len <= limit {
                let mut kept: Vec<&str> = old_revisions[start..].to_vec();
                kept.push(&old_revision);
                ann.insert(
                    REVISION_HISTORY_ANNOTATION.to_string(),
                    Value::from(kept.join(",")),
                );
            }
            // else: upstream logs "Not appending revision due to length limit" and skips.
        }
    }
    if !exists {
        let replicas = spec_replicas(d);
        if set_replicas_annotations(rs, replicas, replicas.wrapping_add(max_surge(d))) {
            changed = true;
        }
    }
    changed
}

/// `SetReplicasAnnotations`: writes `desired-replicas` and `max-replicas`; returns
/// whether either changed.
pub fn set_replicas_annotations(rs: &mut Value, desired: i32, max: i32) -> bool {
    let Some(ann) = annotations_mut(rs) else {
        return false;
    };
    let mut updated = false;
    for (key, value) in [
        (DESIRED_REPLICAS_ANNOTATION, desired),
        (MAX_REPLICAS_ANNOTATION, max),
    ] {
        let s = value.to_string();
        if ann.get(key).and_then(Value::as_str) != Some(s.as_str()) {
            ann.insert(key.to_string(), Value::from(s));
            updated = true;
        }
    }
    updated
}

/// `ReplicasAnnotationsNeedUpdate`: would [`set_replicas_annotations`] change anything?
pub fn replicas_annotations_need_update(rs: &Value, desired: i32, max: i32) -> bool {
    if !get_path(rs, &["metadata", "annotations"]).is_some_and(Value::is_object) {
        return true;
    }
    annotation(rs, DESIRED_REPLICAS_ANNOTATION) != Some(desired.to_string().as_str())
        || annotation(rs, MAX_REPLICAS_ANNOTATION) != Some(max.to_string().as_str())
}

/// `SetDeploymentAnnotationsTo` (legacy rollback): the Deployment keeps only its
/// skipped annotations and takes every non-skipped annotation of `rollback_to_rs`.
pub fn set_deployment_annotations_to(d: &mut Value, rollback_to_rs: &Value) {
    let from_rs: Vec<(String, Value)> = get_path(rollback_to_rs, &["metadata", "annotations"])
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .filter(|(k, _)| !skip_copy_annotation(k))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()
        })
        .unwrap_or_default();
    let Some(ann) = annotations_mut(d) else {
        return;
    };
    ann.retain(|k, _| skip_copy_annotation(k));
    for (k, v) in from_rs {
        ann.insert(k, v);
    }
}
