//! `kubectl cordon|uncordon` (`staging/src/k8s.io/kubectl/pkg/cmd/drain`).

use super::*;

pub(super) fn node_names(f: &Flags) -> Vec<String> {
    f.positional.iter().map(|p| p.strip_prefix("node/").or_else(|| p.strip_prefix("nodes/")).unwrap_or(p).to_string()).collect()
}

pub(super) fn cordon(cluster: &mut Cluster, f: &Flags, on: bool, out: &mut Output) {
    let names = node_names(f);
    if names.is_empty() {
        return out.err("error: USAGE: cordon NODE [flags]\nSee 'kubectl cordon -h' for help and examples");
    }
    for n in names {
        let path = format!("/api/v1/nodes/{}", n);
        let got = kubectl(cluster, Method::Get, &path, None);
        if !got.ok() {
            out.err(&server_error(&got, None));
            continue;
        }
        let is = meta::get(&got.body, &["spec", "unschedulable"]).and_then(|u| u.as_bool()).unwrap_or(false);
        if is == on {
            out.out(&format!("node/{} already {}", n, if on { "cordoned" } else { "uncordoned" }));
            continue;
        }
        let body = if on { json!({"spec": {"unschedulable": true}}) } else { json!({"spec": {"unschedulable": null}}) };
        let resp = cluster.client_request(&kubectl_identity(), Request { method: Method::Patch, path, body: Some(body), patch_type: PatchType::Strategic });
        if resp.ok() {
            out.out(&format!("node/{} {}", n, if on { "cordoned" } else { "uncordoned" }));
        } else {
            out.err(&server_error(&resp, None));
        }
    }
}
