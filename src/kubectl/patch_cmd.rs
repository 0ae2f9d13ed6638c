//! `kubectl patch TYPE NAME -p PATCH [--type strategic|merge|json]`
//! (`staging/src/k8s.io/kubectl/pkg/cmd/patch/patch.go`): the patch sent as given, with the
//! content type of its `--type` (strategic merge by default, which the custom resource handler
//! refuses with 415), then `TYPE/NAME patched`, or `patched (no change)` when the object came
//! back unchanged.

use super::*;

pub(super) fn patch(cluster: &mut Cluster, f: &Flags, ns: &str, out: &mut Output) {
    let (info, name, rest) = match resource_name_args(cluster, &f.positional) {
        Ok(t) => t,
        Err(e) => return out.err(&e),
    };
    if !rest.is_empty() {
        return out.err(&format!("error: unexpected arguments: [{}]", rest.join(" ")));
    }
    let Some(text) = &f.patch else {
        return out.err("error: must specify --patch or --patch-file containing the contents of the patch");
    };
    let patch_type = match f.svc_type.as_deref().unwrap_or("strategic") {
        "strategic" => PatchType::Strategic,
        "merge" => PatchType::Merge,
        "json" => PatchType::Json,
        other => return out.err(&format!("error: --type must be one of [json merge strategic], not {:?}", other)),
    };
    // the patch is YAML or JSON (yaml.ToJSON)
    let body: Value = match serde_yaml::from_str::<Value>(text) {
        Ok(v) => v,
        Err(e) => return out.err(&format!("error: unable to parse {:?}: {}", text, e)),
    };
    let path = info.object_path(ns, &name);
    let before = kubectl(cluster, Method::Get, &path, None);
    if !before.ok() {
        return out.err(&server_error(&before, None));
    }
    let resp = cluster.client_request(&kubectl_identity(), Request { method: Method::Patch, path: format!("{}?fieldManager=kubectl-patch", path), body: Some(body), patch_type });
    if resp.code == 415 && patch_type == PatchType::Strategic {
        // patch.go: a kind without strategic merge support is named with its GVK
        return out.err(&format!("error: application/strategic-merge-patch+json is not supported by {}, Kind={}: {}", info.api_version(), info.kind, meta::get_str(&resp.body, &["message"])));
    }
    if !resp.ok() {
        return out.err(&server_error(&resp, None));
    }
    let unchanged = meta::resource_version(&resp.body) == meta::resource_version(&before.body);
    out.out(&format!("{}/{} patched{}", info.kubectl_prefix(), name, if unchanged { " (no change)" } else { "" }));
}
