//! Patch semantics.
//!
//! Real counterparts: `k8s.io/apimachinery/pkg/util/strategicpatch` and `github.com/evanphx/json-patch`
//! (RFC 7386 merge patch), used by `staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go`.
//!
//! kubesim implements RFC 7386 merge patch exactly, and strategic merge patch in its most visible
//! form: lists of objects that carry a merge key (`name` for containers, `type` for conditions, …)
//! are merged element by element instead of replaced; an element `{KEY: …, "$patch": "delete"}` removes
//! the element with that key. Other directives (`$setElementOrder`, `$retainKeys`) are not simulated. JSON patch (RFC 6902) is whole: every operation, applied
//! in order, all or nothing.

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

/// RFC 6902 JSON patch: `add`, `remove`, `replace`, `move`, `copy` and `test`, in order. On an
/// error `target` is left unchanged and the message says which operation failed and why.
pub fn json_patch(target: &mut Value, patch: &Value) -> Result<(), String> {
    let ops = patch.as_array().ok_or_else(|| "json patch must be a list of operations".to_string())?;
    let mut doc = target.clone();
    for (i, op) in ops.iter().enumerate() {
        json_patch_op(&mut doc, op).map_err(|e| format!("json patch operation {} ({}): {}", i, op.get("op").and_then(Value::as_str).unwrap_or("?"), e))?;
    }
    *target = doc;
    Ok(())
}

fn json_patch_op(doc: &mut Value, op: &Value) -> Result<(), String> {
    let path = op.get("path").and_then(Value::as_str).ok_or("missing path")?;
    let value = || op.get("value").cloned().ok_or_else(|| "missing value".to_string());
    let from = || op.get("from").and_then(Value::as_str).ok_or_else(|| "missing from".to_string());
    match op.get("op").and_then(Value::as_str).unwrap_or("") {
        "add" => pointer_add(doc, path, value()?),
        "remove" => pointer_remove(doc, path).map(|_| ()),
        "replace" => {
            let slot = doc.pointer_mut(path).ok_or_else(|| format!("replace operation does not apply: doc is missing key: {}", path))?;
            *slot = value()?;
            Ok(())
        }
        "move" => {
            let v = pointer_remove(doc, from()?)?;
            pointer_add(doc, path, v)
        }
        "copy" => {
            let v = doc.pointer(from()?).cloned().ok_or_else(|| format!("copy operation does not apply: doc is missing from path: {}", from().unwrap_or_default()))?;
            pointer_add(doc, path, v)
        }
        "test" => match doc.pointer(path) {
            Some(v) if Some(v) == op.get("value") => Ok(()),
            _ => Err(format!("testing value {} failed", path)),
        },
        other => Err(format!("unexpected kind of operation: {:?}", other)),
    }
}

/// Splits `/a/b~1c` into its parent pointer and the unescaped last token (`b/c`).
fn split_pointer(path: &str) -> Result<(&str, String), String> {
    let cut = path.rfind('/').ok_or_else(|| format!("invalid path: {:?}", path))?;
    Ok((&path[..cut], path[cut + 1..].replace("~1", "/").replace("~0", "~")))
}

fn pointer_add(doc: &mut Value, path: &str, v: Value) -> Result<(), String> {
    if path.is_empty() {
        *doc = v;
        return Ok(());
    }
    let (parent, key) = split_pointer(path)?;
    match doc.pointer_mut(parent) {
        Some(Value::Object(m)) => {
            m.insert(key, v);
            Ok(())
        }
        Some(Value::Array(a)) => {
            let i = if key == "-" { a.len() } else { key.parse::<usize>().map_err(|_| format!("invalid index {:?}", key))? };
            if i > a.len() {
                return Err(format!("add operation index {} out of bounds", i));
            }
            a.insert(i, v);
            Ok(())
        }
        _ => Err(format!("add operation does not apply: doc is missing path: {}", path)),
    }
}

fn pointer_remove(doc: &mut Value, path: &str) -> Result<Value, String> {
    let (parent, key) = split_pointer(path)?;
    let missing = || format!("remove operation does not apply: doc is missing path: {}", path);
    match doc.pointer_mut(parent) {
        Some(Value::Object(m)) => m.remove(&key).ok_or_else(missing),
        Some(Value::Array(a)) => match key.parse::<usize>() {
            Ok(i) if i < a.len() => Ok(a.remove(i)),
            _ => Err(missing()),
        },
        _ => Err(missing()),
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
                        // `{"name": "X", "$patch": "delete"}`: the element goes
                        if item.get("$patch").and_then(Value::as_str) == Some("delete") {
                            existing.retain(|e| e.get(key).cloned() != k);
                            continue;
                        }
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

    /// RFC 6902's appendix A examples that apply to Kubernetes objects, and the undo patch.
    #[test]
    fn json_patch_rfc6902() {
        struct Case {
            name: &'static str,
            doc: Value,
            patch: Value,
            want: Result<Value, &'static str>,
        }
        let cases = vec![
            Case { name: "A.1 add an object member", doc: json!({"foo": "bar"}), patch: json!([{"op": "add", "path": "/baz", "value": "qux"}]), want: Ok(json!({"baz": "qux", "foo": "bar"})) },
            Case { name: "A.2 add an array element", doc: json!({"foo": ["bar", "baz"]}), patch: json!([{"op": "add", "path": "/foo/1", "value": "qux"}]), want: Ok(json!({"foo": ["bar", "qux", "baz"]})) },
            Case { name: "A.3 remove an object member", doc: json!({"baz": "qux", "foo": "bar"}), patch: json!([{"op": "remove", "path": "/baz"}]), want: Ok(json!({"foo": "bar"})) },
            Case { name: "A.4 remove an array element", doc: json!({"foo": ["bar", "qux", "baz"]}), patch: json!([{"op": "remove", "path": "/foo/1"}]), want: Ok(json!({"foo": ["bar", "baz"]})) },
            Case { name: "A.5 replace a value", doc: json!({"baz": "qux", "foo": "bar"}), patch: json!([{"op": "replace", "path": "/baz", "value": "boo"}]), want: Ok(json!({"baz": "boo", "foo": "bar"})) },
            Case { name: "A.6 move a value", doc: json!({"foo": {"bar": "baz", "waldo": "fred"}, "qux": {"corge": "grault"}}), patch: json!([{"op": "move", "from": "/foo/waldo", "path": "/qux/thud"}]), want: Ok(json!({"foo": {"bar": "baz"}, "qux": {"corge": "grault", "thud": "fred"}})) },
            Case { name: "A.9 test fails, nothing applied", doc: json!({"baz": "qux"}), patch: json!([{"op": "replace", "path": "/baz", "value": "x"}, {"op": "test", "path": "/baz", "value": "bar"}]), want: Err("testing value /baz failed") },
            Case { name: "A.12 add to a missing parent", doc: json!({"foo": "bar"}), patch: json!([{"op": "add", "path": "/baz/bat", "value": "qux"}]), want: Err("doc is missing path: /baz/bat") },
            Case { name: "A.16 add to the end of an array", doc: json!({"foo": ["bar"]}), patch: json!([{"op": "add", "path": "/foo/-", "value": ["abc", "def"]}]), want: Ok(json!({"foo": ["bar", ["abc", "def"]]})) },
            Case { name: "escaped keys (~1 is /)", doc: json!({"metadata": {"annotations": {"a/b": "1"}}}), patch: json!([{"op": "replace", "path": "/metadata/annotations/a~1b", "value": "2"}]), want: Ok(json!({"metadata": {"annotations": {"a/b": "2"}}})) },
            Case {
                name: "rollout undo: replace the template and the annotations",
                doc: json!({"metadata": {"annotations": {"deployment.kubernetes.io/revision": "2"}}, "spec": {"template": {"spec": {"containers": [{"name": "web", "image": "nginx:2"}]}}}}),
                patch: json!([{"op": "replace", "path": "/spec/template", "value": {"spec": {"containers": [{"name": "web", "image": "nginx:1"}]}}}, {"op": "replace", "path": "/metadata/annotations", "value": {"deployment.kubernetes.io/revision": "2"}}]),
                want: Ok(json!({"metadata": {"annotations": {"deployment.kubernetes.io/revision": "2"}}, "spec": {"template": {"spec": {"containers": [{"name": "web", "image": "nginx:1"}]}}}})),
            },
            Case { name: "replace of a missing key", doc: json!({}), patch: json!([{"op": "replace", "path": "/spec", "value": 1}]), want: Err("doc is missing key: /spec") },
        ];
        for c in cases {
            let mut doc = c.doc.clone();
            let got = json_patch(&mut doc, &c.patch);
            match (&c.want, got) {
                (Ok(want), Ok(())) => assert_eq!(&doc, want, "{}", c.name),
                (Err(want), Err(e)) => {
                    assert!(e.contains(want), "{}: {:?} does not contain {:?}", c.name, e, want);
                    assert_eq!(doc, c.doc, "{}: a failed patch changes nothing", c.name);
                }
                (want, got) => panic!("{}: want {:?}, got {:?}", c.name, want, got),
            }
        }
    }

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
