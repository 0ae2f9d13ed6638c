//! `configMapGenerator` and `secretGenerator`, with `generatorOptions`.
//!
//! Upstream: kustomize `api/internal/generators/{configmap,secret,utils}.go` and `api/kv/kv.go`
//! (literal sources `k=v` with one pair of quotes removed, file sources `[key=]path`, env files
//! with `#` comments), and `resaccumulator`'s merge of a generator's `behavior` (`create`,
//! `merge`, `replace`) with a ConfigMap or Secret of the same name already accumulated.
//! What kubesim simplifies: text files only (no `binaryData`).

use super::{set_path, string_map, Fs, Resource};
use serde_json::{json, Map, Value};

pub(super) fn run(fs: Fs, dir: &str, k: &Value, acc: &mut Vec<Resource>) -> Result<(), String> {
    let opts = k.get("generatorOptions").cloned().unwrap_or(Value::Null);
    for (field, kind) in [("configMapGenerator", "ConfigMap"), ("secretGenerator", "Secret")] {
        let Some(list) = k.get(field) else { continue };
        let Some(list) = list.as_array() else {
            return Err(format!("invalid Kustomization: json: cannot unmarshal {} into Go struct field Kustomization.{} of type []types.{}Args", crate::api::gojson::json_type_name(list), field, kind));
        };
        for g in list {
            let r = generate(fs, dir, kind, g, &opts)?;
            add(acc, r)?;
        }
    }
    for r in acc.iter_mut() {
        r.behavior = None;
    }
    Ok(())
}

/// A generated resource joins the accumulated ones as its `behavior` says.
fn add(acc: &mut Vec<Resource>, r: Resource) -> Result<(), String> {
    let behavior = r.behavior.clone().unwrap_or_else(|| "create".into());
    let same = acc.iter().position(|a| a.kind() == r.kind() && a.was_named(r.name()) && (r.namespace().is_empty() || a.namespace() == r.namespace()));
    match (behavior.as_str(), same) {
        ("create", None) => acc.push(r),
        ("create", Some(i)) => return Err(format!("merging from generator {}: cannot add resource with an already registered id: {}; use behavior: merge or replace", desc(&r), acc[i].id())),
        ("merge" | "replace", None) => return Err(format!("merging from generator {}: id {} does not exist; cannot merge or replace", desc(&r), r.id())),
        ("merge", Some(i)) => {
            let old = &mut acc[i];
            for key in ["data", "binaryData"] {
                if let Some(Value::Object(new)) = r.obj.get(key) {
                    let mut m = old.obj.get(key).and_then(Value::as_object).cloned().unwrap_or_default();
                    for (k, v) in new {
                        m.insert(k.clone(), v.clone());
                    }
                    set_path(&mut old.obj, &[key], Value::Object(m));
                }
            }
            for key in ["labels", "annotations"] {
                if let Some(Value::Object(new)) = r.obj.pointer(&format!("/metadata/{}", key)) {
                    for (k, v) in new {
                        set_path(&mut old.obj, &["metadata", key, k], v.clone());
                    }
                }
            }
            old.needs_hash = r.needs_hash;
        }
        ("replace", Some(i)) => {
            let prior = acc[i].clone();
            let mut r = r;
            set_path(&mut r.obj, &["metadata", "name"], Value::String(prior.name().to_string()));
            r.prior_names = prior.prior_names;
            acc[i] = r;
        }
        (other, _) => return Err(format!("invalid generator behavior: {} (one of create, merge, replace)", other)),
    }
    Ok(())
}

fn desc(r: &Resource) -> String {
    format!("&Resource{{{}}}", r.name())
}

fn generate(fs: Fs, dir: &str, kind: &str, g: &Value, global: &Value) -> Result<Resource, String> {
    let name = g.get("name").and_then(Value::as_str).unwrap_or("");
    if name.is_empty() {
        return Err(format!("a {} generator needs a name", kind));
    }
    let strings = |key: &str| -> Vec<String> { g.get(key).and_then(Value::as_array).map(|a| a.iter().filter_map(|v| v.as_str().map(String::from)).collect()).unwrap_or_default() };
    let mut data: Vec<(String, String)> = Vec::new();
    let put = |data: &mut Vec<(String, String)>, k: String, v: String| -> Result<(), String> {
        if data.iter().any(|(x, _)| *x == k) {
            return Err(format!("cannot add key {}, another key by that name already exists", k));
        }
        data.push((k, v));
        Ok(())
    };
    for env in strings("envs").into_iter().chain(g.get("env").and_then(Value::as_str).map(String::from)) {
        let path = crate::client::workstation::join(dir, &env);
        super::within(dir, &path)?;
        let text = fs.read(&path).ok_or_else(|| format!("env source files: [{}]: evalsymlink failure on '{}' : lstat {}: no such file or directory", env, path, path))?;
        for line in text.lines() {
            let line = line.trim_start();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (k, v) = line.split_once('=').unwrap_or((line, ""));
            if !valid_env_name(k) {
                return Err(format!("\"{}\" is not a valid key name: a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')", k));
            }
            put(&mut data, k.to_string(), v.to_string())?;
        }
    }
    for lit in strings("literals") {
        let (k, v) = match lit.split_once('=') {
            Some((k, v)) if !k.is_empty() => (k.to_string(), remove_quotes(v).to_string()),
            _ => return Err(format!("invalid literal source {}, expected key=value", lit)),
        };
        put(&mut data, k, v)?;
    }
    for src in strings("files") {
        let (key, file) = match src.split_once('=') {
            Some((k, f)) if !k.is_empty() && !f.is_empty() => (k.to_string(), f.to_string()),
            Some(_) => return Err(format!("key names or file paths cannot be empty: {}", src)),
            None => (src.rsplit('/').next().unwrap_or(&src).to_string(), src.clone()),
        };
        let path = crate::client::workstation::join(dir, &file);
        super::within(dir, &path)?;
        let text = fs.read(&path).ok_or_else(|| format!("evalsymlink failure on '{}' : lstat {}: no such file or directory", path, path))?;
        put(&mut data, key, text)?;
    }
    // the data map (serde_json's `Map` keeps its keys sorted, as a Go map prints)
    let mut m = Map::new();
    for (k, v) in data {
        let v = if kind == "Secret" { crate::api::base64::encode(v.as_bytes()) } else { v };
        m.insert(k, Value::String(v));
    }
    let mut obj = json!({"apiVersion": "v1", "kind": kind, "metadata": {"name": name}});
    if let Some(ns) = g.get("namespace").and_then(Value::as_str).filter(|n| !n.is_empty()) {
        set_path(&mut obj, &["metadata", "namespace"], json!(ns));
    }
    if kind == "Secret" {
        let ty = g.get("type").and_then(Value::as_str).filter(|t| !t.is_empty()).unwrap_or("Opaque");
        obj["type"] = json!(ty);
    }
    if !m.is_empty() {
        obj["data"] = Value::Object(m);
    }
    // generatorOptions, then the generator's own options over them
    let local = g.get("options").cloned().unwrap_or(Value::Null);
    let mut hash = true;
    for opts in [global, &local] {
        for (key, field) in [("labels", "GeneratorOptions.labels"), ("annotations", "GeneratorOptions.annotations")] {
            for (k, v) in string_map(opts.get(key), field)? {
                set_path(&mut obj, &["metadata", key, &k], Value::String(v));
            }
        }
        if let Some(d) = opts.get("disableNameSuffixHash").and_then(Value::as_bool) {
            hash = !d;
        }
        if opts.get("immutable").and_then(Value::as_bool) == Some(true) {
            obj["immutable"] = json!(true);
        }
    }
    let mut r = Resource::new(obj);
    r.needs_hash = hash;
    r.behavior = g.get("behavior").and_then(Value::as_str).map(String::from);
    Ok(r)
}

/// `removeQuotes`: one pair of matching quotes around a literal's value.
fn remove_quotes(s: &str) -> &str {
    let b = s.as_bytes();
    if b.len() >= 2 && b[0] == b[b.len() - 1] && (b[0] == b'"' || b[0] == b'\'') {
        &s[1..s.len() - 1]
    } else {
        s
    }
}

fn valid_env_name(k: &str) -> bool {
    let mut chars = k.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '-' || c == '.') && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.')
}
