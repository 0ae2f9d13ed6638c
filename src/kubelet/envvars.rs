//! A container's environment as the kubelet builds it before `CreateContainer`:
//! `pkg/kubelet/kubelet_pods.go` (`makeEnvironmentVariables`, `podFieldSelectorRuntimeValue`,
//! `containerResourceRuntimeValue`), `third_party/forked/golang/expansion` (`$(VAR)`) and
//! `pkg/kubelet/envvars/envvars.go` (the Service variables).
//!
//! `envFrom` first (ConfigMaps and Secrets, with their `prefix`), then `env` in order (a literal
//! value with `$(VAR)` expanded, or `valueFrom` a ConfigMap or Secret key, a field of the Pod, a
//! resource of the container). A missing object or key fails the container's creation
//! (`CreateContainerConfigError`) unless the reference is `optional`.
//!
//! What kubesim simplifies: the Service variables are those of the `kubernetes` Service only
//! (the kubelet's Service informer is not modelled, so the Pod's own namespace's Services are not
//! added); the variables come out in a fixed order (upstream ranges over a Go map).

use super::manager::Manager;
use crate::api::{base64, meta, quantity};
use serde_json::Value;

/// What the kubelet knows about the Pod when it builds the environment.
pub struct PodEnv<'a> {
    pub pod: &'a Value,
    pub pod_ip: &'a str,
    pub host_ip: &'a str,
    /// The node's allocatable cpu (milli) and memory (bytes): a resource with no limit.
    pub allocatable: (i64, i64),
}

/// `expansion.Expand`: `$(NAME)` replaced by a variable defined before it, `$$` an escaped `$`,
/// anything else left as written.
pub fn expand(input: &str, lookup: &dyn Fn(&str) -> Option<String>) -> String {
    let b = input.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'$' && i + 1 < b.len() {
            if b[i + 1] == b'$' {
                out.push('$');
                i += 2;
                continue;
            }
            if b[i + 1] == b'(' {
                if let Some(end) = input[i + 2..].find(')') {
                    let name = &input[i + 2..i + 2 + end];
                    match lookup(name) {
                        Some(v) => out.push_str(&v),
                        None => out.push_str(&input[i..i + 3 + end]),
                    }
                    i += 3 + end;
                    continue;
                }
            }
        }
        let ch = input[i..].chars().next().unwrap_or('$');
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

/// The `kubernetes` Service's variables (`FromServices` for the master service).
pub fn service_env() -> Vec<(String, String)> {
    let ip = crate::apiserver::KUBERNETES_SERVICE_IP;
    let url = format!("tcp://{}:443", ip);
    vec![
        ("KUBERNETES_SERVICE_HOST".into(), ip.to_string()),
        ("KUBERNETES_SERVICE_PORT".into(), "443".into()),
        ("KUBERNETES_SERVICE_PORT_HTTPS".into(), "443".into()),
        ("KUBERNETES_PORT".into(), url.clone()),
        ("KUBERNETES_PORT_443_TCP".into(), url),
        ("KUBERNETES_PORT_443_TCP_PROTO".into(), "tcp".into()),
        ("KUBERNETES_PORT_443_TCP_PORT".into(), "443".into()),
        ("KUBERNETES_PORT_443_TCP_ADDR".into(), ip.to_string()),
    ]
}

fn data_value(obj: &Value, key: &str, secret: bool) -> Option<String> {
    let v = meta::get(obj, &["data", key]).and_then(Value::as_str)?;
    Some(if secret { base64::decode_lossy(v) } else { v.to_string() })
}

fn data_entries(obj: &Value, secret: bool) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = obj
        .get("data")
        .and_then(Value::as_object)
        .map(|m| m.iter().map(|(k, v)| (k.clone(), if secret { base64::decode_lossy(v.as_str().unwrap_or("")) } else { v.as_str().unwrap_or("").to_string() })).collect())
        .unwrap_or_default();
    out.sort();
    out
}

/// `podFieldSelectorRuntimeValue` (and the labels/annotations of `fieldpath.ExtractFieldPathAsString`).
pub fn pod_field(e: &PodEnv, path: &str) -> Result<String, String> {
    let pod = e.pod;
    let sub = |prefix: &str| path.strip_prefix(prefix).and_then(|r| r.strip_suffix("']"));
    if let Some(k) = sub("metadata.labels['") {
        return Ok(meta::get_str(pod, &["metadata", "labels", k]).to_string());
    }
    if let Some(k) = sub("metadata.annotations['") {
        return Ok(meta::get_str(pod, &["metadata", "annotations", k]).to_string());
    }
    Ok(match path {
        "metadata.name" => meta::name(pod).to_string(),
        "metadata.namespace" => meta::namespace(pod).to_string(),
        "metadata.uid" => meta::uid(pod).to_string(),
        "metadata.labels" => format_map(pod, "labels"),
        "metadata.annotations" => format_map(pod, "annotations"),
        "spec.nodeName" => meta::get_str(pod, &["spec", "nodeName"]).to_string(),
        "spec.serviceAccountName" => meta::get_str(pod, &["spec", "serviceAccountName"]).to_string(),
        "status.hostIP" | "status.hostIPs" => e.host_ip.to_string(),
        "status.podIP" | "status.podIPs" => e.pod_ip.to_string(),
        other => return Err(format!("unsupported fieldPath: {}", other)),
    })
}

/// `fieldpath.FormatMap`: `key="value"` lines, sorted.
fn format_map(pod: &Value, which: &str) -> String {
    let mut kv: Vec<(String, String)> = meta::get(pod, &["metadata", which]).and_then(Value::as_object).map(|m| m.iter().map(|(k, v)| (k.clone(), v.as_str().unwrap_or("").to_string())).collect()).unwrap_or_default();
    kv.sort();
    kv.iter().map(|(k, v)| format!("{}={:?}", k, v)).collect::<Vec<_>>().join("\n")
}

/// `containerResourceRuntimeValue` (`resource.ExtractContainerResourceValue`): the limit (or
/// request) in units of the divisor, rounded up; a limit not set is the node's allocatable.
pub fn resource_field(e: &PodEnv, container: &Value, r: &Value) -> Result<String, String> {
    let name = meta::get_str(r, &["containerName"]);
    let c = if name.is_empty() {
        container
    } else {
        ["containers", "initContainers"].iter().flat_map(|f| meta::get_array(e.pod, &["spec", f]).iter()).find(|c| meta::get_str(c, &["name"]) == name).unwrap_or(container)
    };
    let resource = meta::get_str(r, &["resource"]);
    let divisor = meta::get(r, &["divisor"]).and_then(quantity::parse_quantity);
    let (section, res) = resource.split_once('.').unwrap_or(("", resource));
    let q = meta::get(c, &["resources", section, res]).and_then(quantity::parse_quantity);
    let (value_milli, is_cpu) = match res {
        "cpu" => (q.map(|q| q.milli_value()).unwrap_or(e.allocatable.0), true),
        "memory" | "ephemeral-storage" => (q.map(|q| q.value().saturating_mul(1000)).unwrap_or(e.allocatable.1.saturating_mul(1000)), false),
        _ => return Err(format!("unsupported container resource : {}", resource)),
    };
    let div_milli = divisor.map(|d| if is_cpu { d.milli_value() } else { d.value().saturating_mul(1000) }).filter(|d| *d > 0).unwrap_or(1000);
    Ok(((value_milli + div_milli - 1) / div_milli).to_string())
}

/// `makeEnvironmentVariables` for one container: the variables in order, or the error that
/// stops its creation.
pub fn make_environment_variables(e: &PodEnv, container: &Value, configmaps: &Manager, secrets: &Manager) -> Result<Vec<(String, String)>, String> {
    let ns = meta::namespace(e.pod);
    let mut env: Vec<(String, String)> = Vec::new();
    let set = |env: &mut Vec<(String, String)>, k: String, v: String| match env.iter_mut().find(|(n, _)| *n == k) {
        Some(slot) => slot.1 = v,
        None => env.push((k, v)),
    };
    for from in meta::get_array(container, &["envFrom"]) {
        let prefix = meta::get_str(from, &["prefix"]);
        for (field, mgr, secret) in [("configMapRef", configmaps, false), ("secretRef", secrets, true)] {
            let Some(r) = from.get(field) else { continue };
            let optional = r.get("optional").and_then(Value::as_bool).unwrap_or(false);
            match mgr.get(ns, meta::get_str(r, &["name"])) {
                Ok(obj) => {
                    for (k, v) in data_entries(&obj, secret) {
                        set(&mut env, format!("{}{}", prefix, k), v);
                    }
                }
                Err(_) if optional => {}
                Err(err) => return Err(err),
            }
        }
    }
    let services = service_env();
    for var in meta::get_array(container, &["env"]) {
        let name = meta::get_str(var, &["name"]).to_string();
        let Some(from) = var.get("valueFrom") else {
            let lookup = |n: &str| env.iter().chain(services.iter()).find(|(k, _)| k == n).map(|(_, v)| v.clone());
            let v = expand(meta::get_str(var, &["value"]), &lookup);
            set(&mut env, name, v);
            continue;
        };
        let value = if let Some(f) = from.get("fieldRef") {
            pod_field(e, meta::get_str(f, &["fieldPath"]))?
        } else if let Some(r) = from.get("resourceFieldRef") {
            resource_field(e, container, r)?
        } else {
            let (r, mgr, secret, kind) = match (from.get("configMapKeyRef"), from.get("secretKeyRef")) {
                (Some(r), _) => (r, configmaps, false, "ConfigMap"),
                (None, Some(r)) => (r, secrets, true, "Secret"),
                _ => continue,
            };
            let optional = r.get("optional").and_then(Value::as_bool).unwrap_or(false);
            let (obj_name, key) = (meta::get_str(r, &["name"]), meta::get_str(r, &["key"]));
            let obj = match mgr.get(ns, obj_name) {
                Ok(o) => o,
                Err(_) if optional => continue,
                Err(err) => return Err(err),
            };
            match data_value(&obj, key, secret) {
                Some(v) => v,
                None if optional => continue,
                None => return Err(format!("couldn't find key {} in {} {}/{}", key, kind, ns, obj_name)),
            }
        };
        set(&mut env, name, value);
    }
    for (k, v) in services {
        if !env.iter().any(|(n, _)| *n == k) {
            env.push((k, v));
        }
    }
    Ok(env)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cases after `TestMakeEnvironmentVariables`'s expansion rows and expansion_test.go.
    #[test]
    fn expansion_table() {
        let vars = [("VAR_A", "A"), ("VAR_B", "B")];
        let lookup = |n: &str| vars.iter().find(|(k, _)| *k == n).map(|(_, v)| v.to_string());
        for (input, want) in [
            ("$(VAR_A)", "A"),
            ("___$(VAR_B)___", "___B___"),
            ("$(VAR_A)-$(VAR_B)", "A-B"),
            ("$(UNKNOWN)", "$(UNKNOWN)"),
            ("$$(VAR_A)", "$(VAR_A)"),
            ("$(VAR_A", "$(VAR_A"),
            ("plain $ dollar", "plain $ dollar"),
        ] {
            assert_eq!(expand(input, &lookup), want, "{input}");
        }
    }
}
