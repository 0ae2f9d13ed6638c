//! `kubectl set env` and `kubectl set serviceaccount`
//! (`staging/src/k8s.io/kubectl/pkg/cmd/set/set_env.go`, `set_serviceaccount.go`): change a pod
//! template's environment (`KEY=VALUE`, `KEY-` to remove, `--from=configmap/NAME|secret/NAME`,
//! `--list`, `-c`) or its ServiceAccount with a strategic merge PATCH (field manager
//! `kubectl-set`). `set env` with an unchanged template sends nothing and prints nothing;
//! `set serviceaccount` always patches and prints, as upstream.

use super::set::{patch_spec, report, templates};
use super::*;

/// `keyToEnvName`: a ConfigMap or Secret key as an environment variable name.
fn key_to_env_name(key: &str) -> String {
    key.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c.to_ascii_uppercase() } else { '_' }).collect()
}

pub(super) fn set_env(cluster: &mut Cluster, f: &Flags, ns: &str, out: &mut Output) {
    let args = &f.positional[1..];
    let (pairs, resources): (Vec<&String>, Vec<&String>) = args.iter().partition(|a| a.contains('=') || (a.ends_with('-') && !a.contains('/')));
    if resources.is_empty() {
        return out.err("error: one or more resources must be specified as <resource> <name> or <resource>/<name>");
    }
    let mut set: Vec<(String, String)> = Vec::new();
    let mut remove: Vec<String> = Vec::new();
    for p in &pairs {
        if let Some((k, v)) = p.split_once('=') {
            if k.is_empty() {
                return out.err(&format!("error: invalid key name \"\": a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*') in {}", p));
            }
            set.push((k.to_string(), v.to_string()));
        } else {
            remove.push(p.trim_end_matches('-').to_string());
        }
    }
    // --from=configmap/NAME|secret/NAME: one variable per key, read from the object
    let mut from_refs: Vec<Value> = Vec::new();
    if let Some(from) = &f.from {
        let Some((kind, name)) = from.split_once('/') else {
            return out.err(&format!("error: invalid resource {}", from));
        };
        let (res, ref_field) = match kind {
            "configmap" | "configmaps" | "cm" => ("configmaps", "configMapKeyRef"),
            "secret" | "secrets" => ("secrets", "secretKeyRef"),
            _ => return out.err(&format!("error: unsupported resource specified in --from: {}", from)),
        };
        let got = kubectl(cluster, Method::Get, &format!("/api/v1/namespaces/{}/{}/{}", ns, res, name), None);
        if !got.ok() {
            return out.err(&server_error(&got, None));
        }
        let mut keys: Vec<String> = got.body.get("data").and_then(Value::as_object).map(|m| m.keys().cloned().collect()).unwrap_or_default();
        keys.sort();
        for k in keys {
            let env_name = key_to_env_name(&k);
            if env_name != k {
                out.note(&format!("Warning: key {} transferred to {}", k, env_name));
            }
            from_refs.push(json!({"name": env_name, "valueFrom": {ref_field: {"name": name, "key": k}}}));
        }
    }
    let resources: Vec<String> = resources.into_iter().cloned().collect();
    let mut errors = Vec::new();
    let ts = match templates(cluster, ns, &resources, &mut errors) {
        Ok(t) => t,
        Err(e) => return out.err(&e),
    };
    for t in ts {
        let (info, name, spec) = (t.info, t.name.clone(), &t.spec);
        let mut changed: Vec<(String, Value)> = Vec::new();
        let mut matched = false;
        // the containers, then the init containers, that --containers (default `*`) selects
        for list in ["containers", "initContainers"] {
            for ctr in meta::get_array(&spec, &[list]) {
                let cname = meta::get_str(ctr, &["name"]);
                if f.container.as_deref().map(|c| c != "*" && c != cname).unwrap_or(false) {
                    continue;
                }
                matched = true;
                let env = meta::get_array(ctr, &["env"]).to_vec();
                if f.list {
                    out.out(&format!("# {} {}, container {}", info.kind, name, cname));
                    for e in &env {
                        match e.get("value") {
                            Some(v) => out.out(&format!("{}={}", meta::get_str(e, &["name"]), v.as_str().unwrap_or(""))),
                            None => out.out(&format!("# {} from {}", meta::get_str(e, &["name"]), describe_value_from(e))),
                        }
                    }
                    for ef in meta::get_array(ctr, &["envFrom"]) {
                        let (k, n) =
                            if let Some(c) = ef.get("configMapRef") { ("configmap", meta::get_str(c, &["name"])) } else { ("secret", meta::get_str(ef, &["secretRef", "name"])) };
                        out.out(&format!("# {} {}", k, n));
                    }
                    continue;
                }
                // updateEnv: set in place or append, then remove
                let mut items: Vec<Value> = Vec::new();
                let mut new_env = env.clone();
                for (k, v) in &set {
                    let want = json!({"name": k, "value": v});
                    match new_env.iter_mut().find(|e| meta::get_str(e, &["name"]) == k) {
                        Some(e) if *e == want => {}
                        Some(e) => {
                            *e = want.clone();
                            items.push(want);
                        }
                        None => {
                            new_env.push(want.clone());
                            items.push(want);
                        }
                    }
                }
                for r in &from_refs {
                    let k = meta::get_str(r, &["name"]);
                    match new_env.iter_mut().find(|e| meta::get_str(e, &["name"]) == k) {
                        Some(e) if e == r => {}
                        Some(e) => {
                            *e = r.clone();
                            items.push(r.clone());
                        }
                        None => {
                            new_env.push(r.clone());
                            items.push(r.clone());
                        }
                    }
                }
                for k in &remove {
                    if new_env.iter().any(|e| meta::get_str(e, &["name"]) == k) {
                        new_env.retain(|e| meta::get_str(e, &["name"]) != k);
                        items.push(json!({"$patch": "delete", "name": k}));
                    }
                }
                if !items.is_empty() {
                    changed.push((list.to_string(), json!({"env": items, "name": cname})));
                }
            }
        }
        if !matched {
            let sel = f.container.clone().unwrap_or_else(|| "*".into());
            out.note(&format!("Warning: {}/{} does not have any containers matching {}", info.kind, name, crate::api::field::go_quote(&sel)));
            continue;
        }
        if f.list || changed.is_empty() {
            continue;
        }
        let mut lists = serde_json::Map::new();
        for (list, c) in changed {
            if let Some(a) = lists.entry(list).or_insert_with(|| json!([])).as_array_mut() {
                a.push(c);
            }
        }
        let resp = patch_spec(cluster, &t, Value::Object(lists));
        if resp.ok() {
            out.out(&format!("{}/{} env updated", info.kubectl_prefix(), name));
        } else {
            errors.push(format!("failed to patch env update to pod template: {}", server_error(&resp, None)));
        }
    }
    report(&errors, out);
}

/// How `set env --list` names a variable's source.
fn describe_value_from(e: &Value) -> String {
    let vf = e.get("valueFrom").cloned().unwrap_or(json!({}));
    if let Some(r) = vf.get("configMapKeyRef") {
        return format!("configmap {}, key {}", meta::get_str(r, &["name"]), meta::get_str(r, &["key"]));
    }
    if let Some(r) = vf.get("secretKeyRef") {
        return format!("secret {}, key {}", meta::get_str(r, &["name"]), meta::get_str(r, &["key"]));
    }
    if let Some(r) = vf.get("fieldRef") {
        return format!("field path {}", meta::get_str(r, &["fieldPath"]));
    }
    if let Some(r) = vf.get("resourceFieldRef") {
        return format!("resource {}", meta::get_str(r, &["resource"]));
    }
    String::new()
}

/// `kubectl set serviceaccount (-f FILENAME | TYPE NAME) SERVICE_ACCOUNT`.
pub(super) fn set_serviceaccount(cluster: &mut Cluster, f: &Flags, ns: &str, out: &mut Output) {
    let args = &f.positional[1..];
    let Some((sa, resources)) = args.split_last() else {
        return out.err("error: serviceaccount is required\nSee 'kubectl set serviceaccount -h' for help and examples");
    };
    if resources.is_empty() {
        return out.err("error: one or more resources must be specified as <resource> <name> or <resource>/<name>");
    }
    let mut errors = Vec::new();
    let ts = match templates(cluster, ns, resources, &mut errors) {
        Ok(t) => t,
        Err(e) => return out.err(&e),
    };
    for t in ts {
        let (info, name) = (t.info, t.name.clone());
        // upstream patches (and prints) even when nothing changes: the patch is then `{}`
        let spec_patch = if meta::get_str(&t.spec, &["serviceAccountName"]) != sa.as_str() { json!({"serviceAccountName": sa}) } else { json!({}) };
        let resp = patch_spec(cluster, &t, spec_patch);
        if resp.ok() {
            out.out(&format!("{}/{} serviceaccount updated", info.kubectl_prefix(), name));
        } else {
            errors.push(format!("failed to patch ServiceAccountName {}", server_error(&resp, None)));
        }
    }
    report(&errors, out);
}
