//! `kubectl annotate` (`staging/src/k8s.io/kubectl/pkg/cmd/annotate`): a merge PATCH of
//! `metadata.annotations`. `kubernetes.io/change-cause` may always be overwritten, as upstream.

use super::*;

pub(super) fn annotate(cluster: &mut Cluster, f: &Flags, ns: &str, out: &mut Output) {
    let (info, name, rest) = match resource_name_args(cluster, &f.positional) {
        Ok(t) => t,
        Err(e) => return out.err(&e),
    };
    if rest.is_empty() {
        return out.err("error: at least one annotation update is required");
    }
    let mut patch = serde_json::Map::new();
    let mut removed = Vec::new();
    for a in rest {
        if let Some(k) = a.strip_suffix('-') {
            patch.insert(k.to_string(), Value::Null);
            removed.push(k.to_string());
        } else if let Some((k, v)) = a.split_once('=') {
            patch.insert(k.to_string(), json!(v));
        } else {
            return out.err(&format!("error: invalid annotation format: {}", a));
        }
    }
    if let Some(k) = removed.iter().find(|k| patch.get(k.as_str()).map(|v| !v.is_null()).unwrap_or(false)) {
        return out.err(&format!("error: can not both modify and remove the following annotation(s) in the same command: {}", k));
    }
    let path = info.object_path(ns, &name);
    let got = kubectl(cluster, Method::Get, &path, None);
    if !got.ok() {
        return out.err(&server_error(&got, None));
    }
    if !f.overwrite {
        let mut found = Vec::new();
        for (k, v) in &patch {
            if k == rollout::CHANGE_CAUSE_ANNOTATION || v.is_null() {
                continue;
            }
            if let Some(cur) = meta::annotation(&got.body, k) {
                if Some(cur) != v.as_str() {
                    found.push(format!("'{}' already has a value ({})", k, cur));
                }
            }
        }
        if !found.is_empty() {
            return out.err(&format!("error: --overwrite is false but found the following declared annotation(s): {}", found.join("; ")));
        }
    }
    let resp = cluster.client_request(
        &kubectl_identity(),
        Request { method: Method::Patch, path, body: Some(json!({"metadata": {"annotations": patch}})), patch_type: PatchType::Merge },
    );
    if resp.ok() {
        out.out(&format!("{}/{} annotated", info.kubectl_prefix(), name));
    } else {
        out.err(&server_error(&resp, None));
    }
}
