//! `kubectl taint nodes` (`staging/src/k8s.io/kubectl/pkg/cmd/taint`).

use super::*;

pub(super) fn taint(cluster: &mut Cluster, f: &Flags, out: &mut Output) {
    let pos = &f.positional;
    if pos.len() < 3 || !matches!(pos[0].as_str(), "node" | "nodes" | "no") {
        return out.err("error: at least one taint update is required\nSee 'kubectl taint -h' for help and examples");
    }
    let node = &pos[1];
    let path = format!("/api/v1/nodes/{}", node);
    let got = kubectl(cluster, Method::Get, &path, None);
    if !got.ok() {
        return out.err(&server_error(&got, None));
    }
    let mut taints = meta::get(&got.body, &["spec", "taints"]).and_then(|t| t.as_array()).cloned().unwrap_or_default();
    let mut removed = false;
    let mut added = false;
    for spec in &pos[2..] {
        if let Some(s) = spec.strip_suffix('-') {
            let (key, effect) = match s.split_once(':') {
                Some((k, e)) => (k.split('=').next().unwrap_or(k).to_string(), Some(e.to_string())),
                None => (s.split('=').next().unwrap_or(s).to_string(), None),
            };
            let before = taints.len();
            taints.retain(|t| !(meta::get_str(t, &["key"]) == key && effect.as_deref().map(|e| meta::get_str(t, &["effect"]) == e).unwrap_or(true)));
            if taints.len() == before {
                return out.err(&format!("error: taint \"{}\" not found", s));
            }
            removed = true;
        } else {
            let Some((kv, effect)) = spec.split_once(':') else {
                return out.err(&format!("error: invalid taint spec: {}, unknown taint spec", spec));
            };
            if !["NoSchedule", "PreferNoSchedule", "NoExecute"].contains(&effect) {
                return out.err(&format!(
                    "error: invalid taint spec: {}, invalid taint effect: {}, unsupported taint effect",
                    spec, effect
                ));
            }
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            if taints.iter().any(|t| meta::get_str(t, &["key"]) == k && meta::get_str(t, &["effect"]) == effect) && !f.overwrite {
                return out.err(&format!("error: node {} already has {} taint(s) with same effect(s) and --overwrite is false", node, k));
            }
            taints.retain(|t| !(meta::get_str(t, &["key"]) == k && meta::get_str(t, &["effect"]) == effect));
            let mut t = json!({"key": k, "effect": effect});
            if !v.is_empty() {
                t["value"] = json!(v);
            }
            taints.push(t);
            added = true;
        }
    }
    let body = if taints.is_empty() { json!({"spec": {"taints": null}}) } else { json!({"spec": {"taints": taints}}) };
    let resp = cluster.client_request(&kubectl_identity(), Request { method: Method::Patch, path, body: Some(body), patch_type: PatchType::Merge });
    if resp.ok() {
        let what = if added && removed { "modified" } else if added { "tainted" } else { "untainted" };
        out.out(&format!("node/{} {}", node, what));
    } else {
        out.err(&server_error(&resp, None));
    }
}
