//! Patch semantics.
//!
//! Real counterparts: `k8s.io/apimachinery/pkg/util/strategicpatch` and `github.com/evanphx/json-patch`
//! (RFC 7386 merge patch), used by `staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go`.
//!
//! kubesim implements RFC 7386 merge patch exactly, and strategic merge patch in its most visible
//! form: lists of objects that carry a merge key (`name` for containers, `type` for conditions, …)
//! are merged element by element instead of replaced. Directives such as `$patch: delete` and
//! `$setElementOrder` are not simulated.

use serde_json::{Map, Value};

/// RFC 7386: objects merge recursively, `null` deletes, everything else replaces.
pub fn merge_patch(target: &mut Value, patch: &Value) {
    match patch {
        Value::Object(p) => {
            if !target.is_object() {
                *target = Value::Object(Map::new());
            }
            let t = target.as_object_mut().expect("object");
            for (k, v) in p {
                if v.is_null() {
                    t.remove(k);
                } else {
                    merge_patch(t.entry(k.clone()).or_insert(Value::Null), v);
                }
            }
        }
        other => *target = other.clone(),
    }
}

/// Merge keys of the lists kubesim treats strategically (from the `patchMergeKey` struct tags of k8s.io/api).
fn merge_key_for(list_field: &str) -> Option<&'static str> {
    Some(match list_field {
        "containers" | "initContainers" | "ephemeralContainers" | "env" | "volumes" | "volumeMounts" | "containerStatuses"
        | "initContainerStatuses" | "imagePullSecrets" => "name",
        "conditions" => "type",
        "ports" => "containerPort",
        "ownerReferences" => "uid",
        "podIPs" | "hostIPs" => "ip",
        "addresses" => "type",
        _ => return None,
    })
}

/// Strategic merge patch (simplified, see module docs).
pub fn strategic_merge_patch(target: &mut Value, patch: &Value) {
    smp(target, patch, "")
}

fn smp(target: &mut Value, patch: &Value, field: &str) {
    match patch {
        Value::Object(p) => {
            if !target.is_object() {
                *target = Value::Object(Map::new());
            }
            let t = target.as_object_mut().expect("object");
            for (k, v) in p {
                if k.starts_with('$') {
                    continue;
                }
                if v.is_null() {
                    t.remove(k);
                } else {
                    smp(t.entry(k.clone()).or_insert(Value::Null), v, k);
                }
            }
        }
        Value::Array(items) => {
            let key = merge_key_for(field);
            match (key, target.as_array_mut()) {
                (Some(key), Some(existing))
                    if items.iter().all(|i| i.get(key).is_some()) && existing.iter().all(|i| i.get(key).is_some()) =>
                {
                    for item in items {
                        let k = item.get(key).cloned();
                        match existing.iter_mut().find(|e| e.get(key).cloned() == k) {
                            Some(e) => smp(e, item, ""),
                            None => existing.push(item.clone()),
                        }
                    }
                }
                _ => *target = patch.clone(),
            }
        }
        other => *target = other.clone(),
    }
}

/// The smallest merge patch turning `from` into `to` (used by kubectl's apply to compute its PATCH).
/// `deleted` lists fields present in `original` (the last-applied configuration) but absent in `to`.
pub fn three_way_merge_patch(original: &Value, modified: &Value, current: &Value) -> Value {
    let mut patch = Map::new();
    if let (Some(m), Some(c)) = (modified.as_object(), current.as_object()) {
        for (k, mv) in m {
            match c.get(k) {
                Some(cv) if cv == mv => {}
                Some(cv) if cv.is_array() && mv.is_array() && !needs_change(mv, cv) && original.get(k) == Some(mv) => {}
                Some(cv) if cv.is_object() && mv.is_object() => {
                    let o = original.get(k).cloned().unwrap_or(Value::Null);
                    let sub = three_way_merge_patch(&o, mv, cv);
                    if sub.as_object().map(|s| !s.is_empty()).unwrap_or(false) {
                        patch.insert(k.clone(), sub);
                    }
                }
                _ => {
                    patch.insert(k.clone(), mv.clone());
                }
            }
        }
        if let Some(o) = original.as_object() {
            for k in o.keys() {
                if !m.contains_key(k) && c.contains_key(k) {
                    patch.insert(k.clone(), Value::Null);
                }
            }
        }
    } else if modified != current {
        return modified.clone();
    }
    Value::Object(patch)
}

/// Would applying `modified` change `current`, ignoring fields only `current` has (defaults)?
/// This is the "ignore deletions" half of kubectl's three-way diff.
pub fn needs_change(modified: &Value, current: &Value) -> bool {
    match (modified, current) {
        (Value::Object(m), Value::Object(c)) => m.iter().any(|(k, mv)| match c.get(k) {
            Some(cv) => needs_change(mv, cv),
            None => !mv.is_null(),
        }),
        (Value::Array(m), Value::Array(c)) => m.len() != c.len() || m.iter().zip(c.iter()).any(|(a, b)| needs_change(a, b)),
        (m, c) => m != c,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn merge_patch_rfc7386() {
        let mut t = json!({"a": "b", "c": {"d": "e", "f": "g"}});
        merge_patch(&mut t, &json!({"a": "z", "c": {"f": null}}));
        assert_eq!(t, json!({"a": "z", "c": {"d": "e"}}));
    }

    #[test]
    fn strategic_merges_conditions_by_type() {
        let mut t = json!({"status": {"conditions": [{"type": "PodScheduled", "status": "True"}]}});
        strategic_merge_patch(&mut t, &json!({"status": {"conditions": [{"type": "Ready", "status": "False"}]}}));
        assert_eq!(t["status"]["conditions"].as_array().unwrap().len(), 2);
    }

    #[test]
    fn three_way() {
        let original = json!({"spec": {"replicas": 3, "paused": false}});
        let modified = json!({"spec": {"replicas": 5}});
        let current = json!({"spec": {"replicas": 3, "paused": false, "strategy": {}}});
        assert_eq!(three_way_merge_patch(&original, &modified, &current), json!({"spec": {"replicas": 5, "paused": null}}));
        assert_eq!(three_way_merge_patch(&modified, &modified, &json!({"spec": {"replicas": 5, "x": 1}})), json!({}));
    }
}
