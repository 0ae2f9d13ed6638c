//! `patches`, `patchesStrategicMerge` and `patchesJson6902`.
//!
//! Upstream: kustomize `api/internal/builtins/PatchTransformer.go` (a patch is a JSON 6902
//! operation list when it parses as a list, a strategic merge patch otherwise; with a `target`
//! it applies to every resource the selector picks — `name` and `namespace` are anchored
//! regular expressions — and without one to the resource its own kind and name say),
//! `PatchStrategicMergeTransformer.go` and `PatchJson6902Transformer.go`. A strategic merge
//! patch `$patch: delete` removes the resource. What kubesim simplifies: the strategic merge is
//! kubesim's own (`api::patch`, merge keys by field name); name patterns are the RE2 subset of
//! `api::regexp`, anchored as `resid.IsSelected` anchors them (`^(?:…)$`).

use super::{Fs, Resource};
use crate::api::regexp::Regexp;
use serde_json::Value;

/// The text of a patch entry: its inline `patch`, or the file at `path`.
fn patch_text(fs: Fs, dir: &str, entry: &Value) -> Result<String, String> {
    if let Some(p) = entry.get("patch").and_then(Value::as_str) {
        return Ok(p.to_string());
    }
    if let Some(p) = entry.get("path").and_then(Value::as_str) {
        let path = crate::client::workstation::join(dir, p);
        super::within(dir, &path)?;
        return fs.read(&path).ok_or_else(|| format!("trouble configuring builtin PatchTransformer with config: `\npath: {}\n`: evalsymlink failure on '{}' : lstat {}: no such file or directory", p, path, path));
    }
    Err("trouble configuring builtin PatchTransformer: must specify one of patch and path in patches".into())
}

/// What a patch is: JSON 6902 operations or strategic merge documents.
enum Patch {
    Json(Value),
    Strategic(Vec<Value>),
}

fn parse(text: &str) -> Result<Patch, String> {
    let trimmed = text.trim_start();
    if trimmed.starts_with('[') || trimmed.starts_with("- ") || trimmed.starts_with("-\n") {
        let v: Value = serde_yaml::from_str(text).map_err(|e| format!("unable to parse SM or JSON patch from [{}]: {}", text.trim_end(), e))?;
        return Ok(Patch::Json(v));
    }
    let docs = crate::api::codec::decode_manifest(text).map_err(|e| format!("unable to parse SM or JSON patch from [{}]: {}", text.trim_end(), e.message))?;
    Ok(Patch::Strategic(docs.into_iter().map(|d| d.object).collect()))
}

/// A parsed label selector: (key, operator, value) requirements.
type Requirements = Vec<(String, String, String)>;

/// A `target` selector.
struct Selector {
    group: Option<String>,
    version: Option<String>,
    kind: Option<String>,
    name: Option<Regexp>,
    namespace: Option<Regexp>,
    labels: Option<Requirements>,
    annotations: Option<Requirements>,
}

impl Selector {
    fn of(v: &Value) -> Result<Selector, String> {
        let s = |k: &str| v.get(k).and_then(Value::as_str).map(String::from);
        let sel = |k: &str| -> Result<Option<Requirements>, String> { s(k).map(|x| crate::api::meta::parse_label_selector(&x)).transpose() };
        // kustomize anchors a name or namespace pattern: `^(?:PATTERN)$`
        let re = |k: &str| -> Result<Option<Regexp>, String> { s(k).map(|p| Regexp::compile(&format!("^(?:{})$", p)).map_err(|e| format!("invalid target {} {:?}: {}", k, p, e))).transpose() };
        Ok(Selector { group: s("group"), version: s("version"), kind: s("kind"), name: re("name")?, namespace: re("namespace")?, labels: sel("labelSelector")?, annotations: sel("annotationSelector")? })
    }

    fn matches(&self, r: &Resource) -> bool {
        let (g, v) = r.group_version();
        let empty = serde_json::Map::new();
        let labels = r.obj.pointer("/metadata/labels").and_then(Value::as_object).unwrap_or(&empty);
        let annotations = r.obj.pointer("/metadata/annotations").and_then(Value::as_object).unwrap_or(&empty);
        self.group.as_deref().is_none_or(|x| x == g)
            && self.version.as_deref().is_none_or(|x| x == v)
            && self.kind.as_deref().is_none_or(|x| x == r.kind())
            && self.name.as_ref().is_none_or(|x| std::iter::once(r.name()).chain(r.prior_names.iter().map(|s| s.as_str())).any(|n| x.is_match(n) == Some(true)))
            && self.namespace.as_ref().is_none_or(|x| x.is_match(r.namespace()) == Some(true))
            && self.labels.as_ref().is_none_or(|s| crate::api::meta::label_selector_matches(s, labels))
            && self.annotations.as_ref().is_none_or(|s| crate::api::meta::label_selector_matches(s, annotations))
    }
}

/// Applies one strategic merge document to `r` (or says the resource is deleted).
fn apply_strategic(r: &mut Resource, doc: &Value) -> bool {
    if doc.get("$patch").and_then(Value::as_str) == Some("delete") {
        return false;
    }
    let mut p = doc.clone();
    // the patch's identity is the target's: kind, apiVersion and name stay
    if let Some(m) = p.as_object_mut() {
        m.remove("apiVersion");
        m.remove("kind");
        if let Some(meta) = m.get_mut("metadata").and_then(Value::as_object_mut) {
            meta.remove("name");
            meta.remove("namespace");
        }
    }
    crate::api::patch::strategic_merge_patch(&mut r.obj, &p);
    true
}

/// The resource a strategic merge patch names by its own kind and name.
fn own_target(acc: &[Resource], doc: &Value) -> Result<usize, String> {
    let kind = doc.get("kind").and_then(Value::as_str).unwrap_or("");
    let name = doc.pointer("/metadata/name").and_then(Value::as_str).unwrap_or("");
    let ns = doc.pointer("/metadata/namespace").and_then(Value::as_str).unwrap_or("");
    let hits: Vec<usize> = acc.iter().enumerate().filter(|(_, r)| r.kind() == kind && r.was_named(name) && (ns.is_empty() || r.namespace() == ns)).map(|(i, _)| i).collect();
    match hits.as_slice() {
        [i] => Ok(*i),
        [] => {
            let av = doc.get("apiVersion").and_then(Value::as_str).unwrap_or("");
            let (g, v) = av.split_once('/').unwrap_or(("", av));
            let id = format!("{}.{}.{}/{}.{}", kind, v, if g.is_empty() { "[noGrp]" } else { g }, name, if ns.is_empty() { "[noNs]" } else { ns });
            Err(format!("no resource matches strategic merge patch \"{}\": no matches for Id {}; failed to find unique target for patch {}", id, id, id))
        }
        _ => Err(format!("multiple matches for strategic merge patch {}/{}", kind, name)),
    }
}

/// Applies a strategic merge document to its own target, removing it on `$patch: delete`.
fn strategic_own(acc: &mut Vec<Resource>, doc: &Value) -> Result<(), String> {
    let i = own_target(acc, doc)?;
    if !apply_strategic(&mut acc[i], doc) {
        acc.remove(i);
    }
    Ok(())
}

pub(super) fn strategic_merge_files(fs: Fs, dir: &str, k: &Value, acc: &mut Vec<Resource>) -> Result<(), String> {
    let Some(list) = k.get("patchesStrategicMerge").and_then(Value::as_array) else { return Ok(()) };
    for entry in list {
        let Some(s) = entry.as_str() else { continue };
        // an entry is a file path, or the patch itself inline
        let text = if s.contains('\n') || s.contains(": ") { s.to_string() } else { fs.read(&crate::client::workstation::join(dir, s)).ok_or_else(|| format!("evalsymlink failure on '{}' : lstat {}: no such file or directory", s, crate::client::workstation::join(dir, s)))? };
        match parse(&text)? {
            Patch::Strategic(docs) => {
                for d in docs {
                    strategic_own(acc, &d)?;
                }
            }
            Patch::Json(_) => return Err(format!("patchesStrategicMerge entry '{}' is a JSON patch; list it under patches with a target", s)),
        }
    }
    Ok(())
}

pub(super) fn patches(fs: Fs, dir: &str, k: &Value, acc: &mut Vec<Resource>) -> Result<(), String> {
    let Some(list) = k.get("patches").and_then(Value::as_array) else { return Ok(()) };
    for entry in list {
        let text = patch_text(fs, dir, entry)?;
        let target = entry.get("target").map(Selector::of).transpose()?;
        match (parse(&text)?, target) {
            (Patch::Json(ops), Some(sel)) => {
                for r in acc.iter_mut().filter(|r| sel.matches(r)) {
                    json_patch(r, &ops)?;
                }
            }
            (Patch::Json(_), None) => return Err("trouble configuring builtin PatchTransformer: must specify a target for JSON patch".into()),
            (Patch::Strategic(docs), None) => {
                for d in docs {
                    strategic_own(acc, &d)?;
                }
            }
            (Patch::Strategic(docs), Some(sel)) => {
                let mut keep = Vec::with_capacity(acc.len());
                for mut r in acc.drain(..) {
                    let mut alive = true;
                    if sel.matches(&r) {
                        for d in &docs {
                            alive &= apply_strategic(&mut r, d);
                        }
                    }
                    if alive {
                        keep.push(r);
                    }
                }
                *acc = keep;
            }
        }
    }
    Ok(())
}

pub(super) fn json6902_files(fs: Fs, dir: &str, k: &Value, acc: &mut [Resource]) -> Result<(), String> {
    let Some(list) = k.get("patchesJson6902").and_then(Value::as_array) else { return Ok(()) };
    for entry in list {
        let text = patch_text(fs, dir, entry)?;
        let sel = Selector::of(entry.get("target").unwrap_or(&Value::Null))?;
        let ops: Value = serde_yaml::from_str(&text).map_err(|e| format!("unable to parse JSON patch: {}", e))?;
        let hits: Vec<&mut Resource> = acc.iter_mut().filter(|r| sel.matches(r)).collect();
        if hits.is_empty() {
            return Err(format!("unable to find patch target {:?}", entry.get("target").map(|t| t.to_string()).unwrap_or_default()));
        }
        for r in hits {
            json_patch(r, &ops)?;
        }
    }
    Ok(())
}

fn json_patch(r: &mut Resource, ops: &Value) -> Result<(), String> {
    let name = r.name().to_string();
    crate::api::patch::json_patch(&mut r.obj, ops).map_err(|e| format!("failed to apply json patch '{}': {}", ops, e))?;
    // a patch that renames the resource is a rename (name references follow it)
    let new = r.name().to_string();
    if new != name {
        crate::kubectl::kustomize::set_path(&mut r.obj, &["metadata", "name"], Value::String(name));
        r.set_name(&new);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{Resource, Selector};
    use serde_json::json;

    #[test]
    fn target_names_are_anchored_patterns() {
        let web = Resource::new(json!({"kind": "Deployment", "metadata": {"name": "web"}}));
        let web2 = Resource::new(json!({"kind": "Deployment", "metadata": {"name": "web-2"}}));
        let sel = |name: &str| Selector::of(&json!({"name": name})).unwrap();
        assert!(sel("web").matches(&web));
        assert!(!sel("web").matches(&web2));
        assert!(sel("web.*").matches(&web2));
        assert!(sel("api|web").matches(&web));
        assert!(sel("w.b").matches(&web));
    }
}
