//! Server-side apply: `PATCH` with `Content-Type: application/apply-patch+yaml`
//! (`kubectl apply --server-side`, client libraries' `apply`).
//!
//! Go counterparts: `staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go` (`applyPatcher`,
//! create-on-apply when the object does not exist), `…/handlers/fieldmanager` and
//! sigs.k8s.io/structured-merge-diff (the merge and the field sets), and
//! `staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation` (`ValidatePatchOptions`).
//!
//! What kubesim keeps: `fieldManager` is required (422, as upstream words it); an object that
//! does not exist is created from the applied configuration (201); otherwise the configuration is
//! merged into the live object (maps by key, lists with a patch merge key by that key, other
//! lists replaced, as [`crate::api::patch::strategic_merge_patch`] does), fields this manager
//! applied before and leaves out now are removed, and the manager's `Apply` entry in
//! `metadata.managedFields` records the fields it now owns (FieldsV1: `f:` for fields, `k:` for
//! keyed list items, `.` for the item itself and for maps of strings).
//!
//! What kubesim simplifies: only `Apply` entries are recorded (requests that are not applies add
//! no `Update` entries, so kubesim's etcd JSON stays as the transcripts show it); a conflict is
//! found only between two appliers: a field another manager applied with another value answers
//! 409 unless `force=true`, which moves the field to the new manager. Without a schema, a map is
//! told from a struct by its field name (labels, annotations, matchLabels, data, …).

use crate::api::meta;
use crate::api::patch;
use serde_json::{json, Map, Value};

/// The field name of a list's merge key (`name` for containers, `containerPort` for ports…).
fn merge_key(items: &[Value]) -> Option<&'static str> {
    let first = items.first()?.as_object()?;
    ["name", "containerPort", "port", "mountPath", "devicePath", "ip", "type", "topologyKey"].into_iter().find(|k| first.contains_key(*k) && items.iter().all(|i| i.get(*k).is_some()))
}

/// Fields that are Go maps (labels, annotations, matchLabels, data, resource lists…): a map
/// is itself a member of the set (`.`), as well as each of its keys.
const MAP_FIELDS: &[&str] = &["labels", "annotations", "matchLabels", "nodeSelector", "data", "stringData", "binaryData", "selector", "limits", "requests", "capacity", "hard", "parameters"];

fn is_map(name: &str, m: &Map<String, Value>) -> bool {
    MAP_FIELDS.contains(&name) && !m.is_empty() && m.values().all(|v| v.is_string() || v.is_number())
}

/// The FieldsV1 set of an applied configuration.
pub fn fields_v1(v: &Value) -> Value {
    fn walk(name: &str, v: &Value) -> Value {
        match v {
            Value::Object(m) => {
                let mut out = Map::new();
                if is_map(name, m) {
                    out.insert(".".into(), json!({}));
                }
                for (k, x) in m {
                    out.insert(format!("f:{}", k), walk(k, x));
                }
                Value::Object(out)
            }
            Value::Array(items) => match merge_key(items) {
                Some(key) => {
                    let mut out = Map::new();
                    for it in items {
                        let mut entry = match walk("", it) {
                            Value::Object(m) => m,
                            _ => Map::new(),
                        };
                        entry.insert(".".into(), json!({}));
                        let id = json!({ key: it.get(key).cloned().unwrap_or(Value::Null) });
                        out.insert(format!("k:{}", id), Value::Object(entry));
                    }
                    Value::Object(out)
                }
                None => json!({}),
            },
            _ => json!({}),
        }
    }
    let mut top = v.clone();
    if let Some(m) = top.as_object_mut() {
        m.remove("apiVersion");
        m.remove("kind");
        if let Some(md) = m.get_mut("metadata").and_then(Value::as_object_mut) {
            for f in ["managedFields", "resourceVersion", "uid", "creationTimestamp", "generation", "namespace"] {
                md.remove(f);
            }
        }
    }
    walk("", &top)
}

/// The leaf paths of a FieldsV1 set, each a list of its `f:`/`k:` segments.
pub fn leaf_paths(set: &Value) -> Vec<Vec<String>> {
    fn walk(v: &Value, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
        let m = match v.as_object() {
            Some(m) if m.keys().any(|k| k != ".") => m,
            _ => {
                out.push(path.clone());
                return;
            }
        };
        for (k, x) in m {
            if k == "." {
                continue;
            }
            path.push(k.clone());
            walk(x, path, out);
            path.pop();
        }
    }
    let mut out = Vec::new();
    walk(set, &mut Vec::new(), &mut out);
    out.retain(|p| !p.is_empty());
    out
}

/// Whether a list item has the key fields of a `k:` segment.
fn has_key(item: &Value, id: &Map<String, Value>) -> bool {
    id.iter().all(|(k, v)| item.get(k) == Some(v))
}

/// The value at a FieldsV1 path in an object, if present.
fn value_at<'a>(obj: &'a Value, path: &[String]) -> Option<&'a Value> {
    let mut cur = obj;
    for seg in path {
        cur = if let Some(f) = seg.strip_prefix("f:") {
            cur.get(f)?
        } else if let Some(k) = seg.strip_prefix("k:") {
            let id: Map<String, Value> = serde_json::from_str(k).ok()?;
            cur.as_array()?.iter().find(|it| has_key(it, &id))?
        } else {
            return None;
        };
    }
    Some(cur)
}

/// Removes the field at a FieldsV1 path (a field from its map, an item from its list).
fn remove_at(obj: &mut Value, path: &[String]) {
    let Some((last, parent)) = path.split_last() else { return };
    let mut cur = obj;
    for seg in parent {
        let next = if let Some(f) = seg.strip_prefix("f:") {
            cur.get_mut(f)
        } else if let Some(k) = seg.strip_prefix("k:") {
            let Ok(id) = serde_json::from_str::<Map<String, Value>>(k) else { return };
            cur.as_array_mut().and_then(|a| a.iter_mut().find(|it| has_key(it, &id)))
        } else {
            None
        };
        let Some(n) = next else { return };
        cur = n;
    }
    if let Some(f) = last.strip_prefix("f:") {
        if let Some(m) = cur.as_object_mut() {
            m.remove(f);
        }
    } else if let Some(k) = last.strip_prefix("k:") {
        if let (Ok(id), Some(a)) = (serde_json::from_str::<Map<String, Value>>(k), cur.as_array_mut()) {
            a.retain(|it| !has_key(it, &id));
        }
    }
}

/// Removes a leaf path from a FieldsV1 set (its keys are the `f:`/`k:` segments themselves),
/// and the branches it leaves empty.
fn remove_from_set(set: &mut Value, path: &[String]) {
    let Some((first, rest)) = path.split_first() else { return };
    let Some(m) = set.as_object_mut() else { return };
    if rest.is_empty() {
        m.remove(first);
    } else if let Some(child) = m.get_mut(first) {
        remove_from_set(child, rest);
        if child.as_object().is_some_and(|c| c.keys().all(|k| k == ".")) {
            m.remove(first);
        }
    }
}

/// A path as the conflict message prints it: `.spec.replicas`, `.spec.template.spec.containers[name="nginx"].image`.
pub fn print_path(path: &[String]) -> String {
    let mut s = String::new();
    for seg in path {
        if let Some(f) = seg.strip_prefix("f:") {
            s.push('.');
            s.push_str(f);
        } else if let Some(k) = seg.strip_prefix("k:") {
            let id: Map<String, Value> = serde_json::from_str(k).unwrap_or_default();
            let inner: Vec<String> = id.iter().map(|(kk, vv)| format!("{}={}", kk, vv)).collect();
            s.push_str(&format!("[{}]", inner.join(",")));
        }
    }
    s
}

/// The managed-fields entry of one applier.
fn entry_of<'a>(obj: &'a Value, manager: &str) -> Option<&'a Value> {
    obj.pointer("/metadata/managedFields")?.as_array()?.iter().find(|e| meta::get_str(e, &["manager"]) == manager && meta::get_str(e, &["operation"]) == "Apply")
}

/// A conflict: the path, and the manager that applied another value there.
pub struct Conflict {
    pub manager: String,
    pub api_version: String,
    pub path: String,
}

/// The `Apply failed with …` message of a 409 (structured-merge-diff's `Conflicts.Error`, as
/// the field manager reports it).
pub fn conflict_message(conflicts: &[Conflict]) -> String {
    if let [c] = conflicts {
        return format!("Apply failed with 1 conflict: conflict with \"{}\" using {}: {}", c.manager, c.api_version, c.path);
    }
    let mut s = format!("Apply failed with {} conflicts: ", conflicts.len());
    let mut by_manager: Vec<(String, String, Vec<String>)> = Vec::new();
    for c in conflicts {
        match by_manager.iter_mut().find(|(m, v, _)| *m == c.manager && *v == c.api_version) {
            Some((_, _, paths)) => paths.push(c.path.clone()),
            None => by_manager.push((c.manager.clone(), c.api_version.clone(), vec![c.path.clone()])),
        }
    }
    let parts: Vec<String> = by_manager.iter().map(|(m, v, paths)| format!("conflicts with \"{}\" using {}:\n- {}", m, v, paths.join("\n- "))).collect();
    s.push_str(&parts.join("\n"));
    s
}

/// Server-side apply of `applied` by `manager` onto `live` (None: the object does not exist).
/// Returns the object to store, or the conflicts when `force` is false.
pub fn apply(live: Option<&Value>, applied: &Value, manager: &str, force: bool, now_rfc3339: &str) -> Result<Value, Vec<Conflict>> {
    let api_version = meta::get_str(applied, &["apiVersion"]).to_string();
    let set = fields_v1(applied);
    let paths = leaf_paths(&set);
    let mut target = match live {
        None => applied.clone(),
        Some(live) => {
            let mut target = live.clone();
            // conflicts with the other appliers' fields
            let mut conflicts = Vec::new();
            let mut taken: Vec<(String, Vec<String>)> = Vec::new();
            for e in live.pointer("/metadata/managedFields").and_then(Value::as_array).into_iter().flatten() {
                let other = meta::get_str(e, &["manager"]);
                if other == manager || meta::get_str(e, &["operation"]) != "Apply" {
                    continue;
                }
                let owned = leaf_paths(e.get("fieldsV1").unwrap_or(&Value::Null));
                for p in paths.iter().filter(|p| owned.contains(p)) {
                    // the same value is shared by both managers; another value conflicts
                    if value_at(applied, p) != value_at(live, p) {
                        conflicts.push(Conflict { manager: other.to_string(), api_version: meta::get_str(e, &["apiVersion"]).to_string(), path: print_path(p) });
                        taken.push((other.to_string(), p.clone()));
                    }
                }
            }
            if !conflicts.is_empty() && !force {
                return Err(conflicts);
            }
            // forced: the conflicting fields move to this manager
            if let Some(entries) = target.pointer_mut("/metadata/managedFields").and_then(Value::as_array_mut) {
                for (other, p) in &taken {
                    if let Some(e) = entries.iter_mut().find(|e| meta::get_str(e, &["manager"]) == other) {
                        let mut fields = e.get("fieldsV1").cloned().unwrap_or(json!({}));
                        remove_from_set(&mut fields, p);
                        e["fieldsV1"] = fields;
                    }
                }
            }
            // fields this manager applied before and no longer applies are removed
            if let Some(prev) = entry_of(live, manager) {
                let before = leaf_paths(prev.get("fieldsV1").unwrap_or(&Value::Null));
                for p in before.iter().filter(|p| !paths.iter().any(|q| q.starts_with(p) || p.starts_with(q))) {
                    remove_at(&mut target, p);
                }
            }
            let mut config = applied.clone();
            if let Some(md) = config.get_mut("metadata").and_then(Value::as_object_mut) {
                md.remove("managedFields");
            }
            patch::strategic_merge_patch(&mut target, &config);
            target
        }
    };
    let entry = json!({"manager": manager, "operation": "Apply", "apiVersion": api_version, "time": now_rfc3339, "fieldsType": "FieldsV1", "fieldsV1": set});
    let mut entries: Vec<Value> = target.pointer("/metadata/managedFields").and_then(Value::as_array).cloned().unwrap_or_default();
    entries.retain(|e| !(meta::get_str(e, &["manager"]) == manager && meta::get_str(e, &["operation"]) == "Apply"));
    entries.retain(|e| e.get("fieldsV1").is_some_and(|f| f.as_object().is_some_and(|m| !m.is_empty())));
    entries.push(entry);
    meta::set(&mut target, &["metadata", "managedFields"], Value::Array(entries));
    Ok(target)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deployment(replicas: i64, image: &str) -> Value {
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "labels": {"app": "web"}},
            "spec": {"replicas": replicas, "selector": {"matchLabels": {"app": "web"}},
                "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "nginx", "image": image}]}}}})
    }

    #[test]
    fn field_sets_as_upstream_writes_them() {
        let set = fields_v1(&deployment(2, "nginx:1.27"));
        assert_eq!(set["f:metadata"]["f:labels"], json!({".": {}, "f:app": {}}));
        assert_eq!(set["f:spec"]["f:replicas"], json!({}));
        assert_eq!(set["f:spec"]["f:template"]["f:spec"]["f:containers"]["k:{\"name\":\"nginx\"}"], json!({".": {}, "f:image": {}, "f:name": {}}));
        assert!(set.get("f:apiVersion").is_none() && set.get("f:kind").is_none());
    }

    #[test]
    fn apply_tables() {
        // (name, first applier's config, second manager, second config, force, want replicas or conflict)
        let base = apply(None, &deployment(2, "nginx:1.27"), "kubectl", false, "t").ok().unwrap();
        // the same manager changes the image and drops replicas: replicas leaves the object
        let mut no_replicas = deployment(2, "nginx:1.28");
        no_replicas["spec"].as_object_mut().unwrap().remove("replicas");
        let again = apply(Some(&base), &no_replicas, "kubectl", false, "t").ok().unwrap();
        assert!(again.pointer("/spec/replicas").is_none(), "{}", again);
        assert_eq!(again.pointer("/spec/template/spec/containers/0/image"), Some(&json!("nginx:1.28")));
        assert_eq!(again["metadata"]["managedFields"].as_array().unwrap().len(), 1);
        // another manager applying the same value shares it; another value conflicts
        assert!(apply(Some(&base), &deployment(2, "nginx:1.27"), "ci", false, "t").is_ok());
        let err = apply(Some(&base), &deployment(5, "nginx:1.27"), "ci", false, "t").err().unwrap();
        assert_eq!(conflict_message(&err), "Apply failed with 1 conflict: conflict with \"kubectl\" using apps/v1: .spec.replicas");
        // force takes the field
        let forced = apply(Some(&base), &deployment(5, "nginx:1.27"), "ci", true, "t").ok().unwrap();
        assert_eq!(forced.pointer("/spec/replicas"), Some(&json!(5)));
        let kubectl_entry = forced["metadata"]["managedFields"].as_array().unwrap().iter().find(|e| e["manager"] == "kubectl").unwrap().clone();
        assert!(kubectl_entry["fieldsV1"]["f:spec"].get("f:replicas").is_none(), "{}", kubectl_entry);
        let two = vec![
            Conflict { manager: "a".into(), api_version: "apps/v1".into(), path: ".spec.replicas".into() },
            Conflict { manager: "a".into(), api_version: "apps/v1".into(), path: ".spec.paused".into() },
        ];
        assert_eq!(conflict_message(&two), "Apply failed with 2 conflicts: conflicts with \"a\" using apps/v1:\n- .spec.replicas\n- .spec.paused");
    }
}
