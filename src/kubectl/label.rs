//! `kubectl label` (`staging/src/k8s.io/kubectl/pkg/cmd/label`).

use super::*;

pub(super) fn label(cluster: &mut Cluster, f: &Flags, ns: &str, out: &mut Output) {
    let (info, name, rest) = match resource_name_args(cluster, &f.positional) {
        Ok(t) => t,
        Err(e) => return out.err(&e),
    };
    if rest.is_empty() {
        return out.err("error: at least one label update is required");
    }
    let path = info.object_path(ns, &name);
    let got = kubectl(cluster, Method::Get, &path, None);
    if !got.ok() {
        return out.err(&server_error(&got, None));
    }
    let labels = meta::labels(&got.body);
    let mut patch = serde_json::Map::new();
    let mut removing = false;
    for l in rest {
        if let Some(k) = l.strip_suffix('-') {
            patch.insert(k.to_string(), Value::Null);
            removing = true;
        } else if let Some((k, v)) = l.split_once('=') {
            if let Some(old) = labels.get(k) {
                if !f.overwrite && old.as_str() != Some(v) {
                    return out.err(&format!("error: '{}' already has a value ({}), and --overwrite is false", k, old.as_str().unwrap_or("")));
                }
            }
            patch.insert(k.to_string(), json!(v));
        } else {
            return out.err(&format!("error: at least one label update is required"));
        }
    }
    let resp = cluster.client_request(
        &kubectl_identity(),
        Request { method: Method::Patch, path, body: Some(json!({"metadata": {"labels": patch}})), patch_type: PatchType::Merge },
    );
    if resp.ok() {
        let unchanged = meta::labels(&resp.body) == labels;
        let word = if unchanged { "not labeled" } else if removing && patch.values().all(|v| v.is_null()) { "unlabeled" } else { "labeled" };
        out.out(&format!("{}/{} {}", info.kubectl_prefix(), name, word));
    } else {
        out.err(&server_error(&resp, None));
    }
}
