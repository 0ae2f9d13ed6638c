//! `kubectl create configmap NAME [--from-literal=K=V]… [--from-file=[K=]PATH]…
//! [--from-env-file=PATH]…` (`staging/src/k8s.io/kubectl/pkg/cmd/create/create_configmap.go`),
//! and the key/value sources `create secret` shares with it (`pkg/util/hash`-free: kubesim does
//! not model `--append-hash`).
//!
//! What kubesim simplifies: files come from the shell's `read_file` (the script's directory for
//! `kubesim run`, nothing in the page), so a directory source is not listed; an env file's line
//! without `=` takes an empty value (kubectl reads the variable from its own environment).

use super::*;

/// `parseLiteralSource`: `key=value`, split at the first `=`.
fn parse_literal(source: &str) -> Result<(String, String), String> {
    match source.split_once('=') {
        Some((k, v)) if !k.is_empty() => Ok((k.to_string(), v.to_string())),
        _ => Err(format!("invalid literal source {}, expected key=value", source)),
    }
}

/// `parseFileSource`: `[key=]path`; the key defaults to the file's base name.
fn parse_file_source(source: &str) -> Result<(String, String), String> {
    match source.split_once('=') {
        None => Ok((source.rsplit('/').next().unwrap_or(source).to_string(), source.to_string())),
        Some((k, p)) if !k.is_empty() && !p.is_empty() && !p.contains('=') => Ok((k.to_string(), p.to_string())),
        Some(_) => Err("key names or file paths cannot contain '='".to_string()),
    }
}

/// Reads the `--from-literal`, `--from-file` and `--from-env-file` sources: (key, value) pairs in
/// kubectl's order (files, then literals, then env files).
pub(super) fn read_sources(f: &Flags, read_file: &dyn Fn(&str) -> Option<String>) -> Result<Vec<(String, String)>, String> {
    let mut pairs = Vec::new();
    for s in &f.from_file {
        let (key, path) = parse_file_source(s)?;
        let Some(text) = read_file(&path) else {
            // os.Stat's *PathError, as handleConfigMapFromFileSources words it
            return Err(format!("error reading {}: no such file or directory", path));
        };
        pairs.push((key, text));
    }
    for s in &f.from_literal {
        pairs.push(parse_literal(s)?);
    }
    for path in &f.from_env_file {
        let Some(text) = read_file(path) else {
            return Err(format!("error reading {}: no such file or directory", path));
        };
        for (n, line) in text.lines().enumerate() {
            let line = line.trim_start();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (k, v) = line.split_once('=').unwrap_or((line, ""));
            if k.contains(char::is_whitespace) {
                return Err(format!("env file {} contains invalid key: {} at line {}", path, k, n + 1));
            }
            pairs.push((k.to_string(), v.to_string()));
        }
    }
    Ok(pairs)
}

/// Prints a generated object as `--dry-run=client` does, or creates it. `what` is kubectl's
/// `configmap`/`secret`/`serviceaccount` prefix.
pub(super) fn create_or_print(cluster: &mut Cluster, f: &Flags, ns: &str, obj: Value, out: &mut Output) {
    create_or_print_as(cluster, f, ns, obj, None, out)
}

/// [`create_or_print`]; `wrap` names the object in the `error: failed to create {wrap}: …` that
/// some create commands (rolebinding, clusterrolebinding) print instead of the server's error.
pub(super) fn create_or_print_as(cluster: &mut Cluster, f: &Flags, ns: &str, obj: Value, wrap: Option<&str>, out: &mut Output) {
    let info = meta::by_kind(meta::get_str(&obj, &["apiVersion"]), meta::get_str(&obj, &["kind"])).expect("a served kind");
    let name = meta::name(&obj).to_string();
    if f.dry_run.as_deref() == Some("client") {
        return match f.output.as_str() {
            "yaml" => out.out(printers::to_yaml(&obj).trim_end()),
            "json" => out.out(&printers::to_json(&obj)),
            _ => out.out(&format!("{}/{} created (dry run)", info.kubectl_prefix(), name)),
        };
    }
    let path = format!("{}?fieldManager=kubectl-create&fieldValidation=Strict", info.collection_path(ns));
    let resp = kubectl(cluster, Method::Post, &path, Some(obj));
    if resp.ok() {
        out.out(&format!("{}/{} created", info.kubectl_prefix(), name));
    } else if let Some(what) = wrap {
        out.err(&format!("error: failed to create {}: {}", what, resp.message()));
    } else {
        out.err(&server_error(&resp, None));
    }
}

/// `kubectl create configmap`.
pub(super) fn create_configmap(cluster: &mut Cluster, f: &Flags, ns: &str, read_file: &dyn Fn(&str) -> Option<String>, out: &mut Output) {
    let Some(name) = f.positional.get(1) else {
        return out.err("error: exactly one NAME is required, got 0\nSee 'kubectl create configmap -h' for help and examples");
    };
    if !f.from_env_file.is_empty() && (!f.from_file.is_empty() || !f.from_literal.is_empty()) {
        return out.err("error: from-env-file cannot be combined with from-file or from-literal");
    }
    let sources = match read_sources(f, read_file) {
        Ok(s) => s,
        Err(e) => return out.err(&format!("error: {}", e)),
    };
    let mut data = serde_json::Map::new();
    for (k, v) in sources {
        let errs = crate::api::validation::config_map_key_errors(&k);
        if !errs.is_empty() {
            return out.err(&format!("error: {} is not a valid key name for a ConfigMap: {}", crate::api::field::go_quote(&k), errs.join(",")));
        }
        if data.contains_key(&k) {
            return out.err(&format!("error: cannot add key {}, another key by that name already exists in Data for ConfigMap {}", crate::api::field::go_quote(&k), crate::api::field::go_quote(name)));
        }
        data.insert(k, json!(v));
    }
    let mut cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}});
    if !data.is_empty() {
        cm["data"] = Value::Object(data);
    }
    create_or_print(cluster, f, ns, cm, out)
}

/// `kubectl create serviceaccount NAME` (`create_serviceaccount.go`).
pub(super) fn create_serviceaccount(cluster: &mut Cluster, f: &Flags, ns: &str, out: &mut Output) {
    let Some(name) = f.positional.get(1) else {
        return out.err("error: exactly one NAME is required, got 0\nSee 'kubectl create serviceaccount -h' for help and examples");
    };
    let sa = json!({"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": name}});
    create_or_print(cluster, f, ns, sa, out)
}
