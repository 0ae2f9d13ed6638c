//! `kubectl apply|create|replace -f`: manifests mapped to resources, client-side apply with the
//! last-applied annotation and a three-way merge patch
//! (`staging/src/k8s.io/kubectl/pkg/cmd/apply`, `pkg/cmd/create`, `pkg/cmd/replace`).

use super::*;

pub(super) fn resource_mapping(cluster: &Cluster, obj: &Value, source: &str) -> Result<&'static meta::ResourceInfo, String> {
    let api_version = meta::get_str(obj, &["apiVersion"]);
    let kind = meta::get_str(obj, &["kind"]);
    let mut missing = Vec::new();
    if api_version.is_empty() {
        missing.push("apiVersion not set");
    }
    if kind.is_empty() {
        missing.push("kind not set");
    }
    if !missing.is_empty() {
        let list = if missing.len() == 1 { missing[0].to_string() } else { format!("[{}]", missing.join(", ")) };
        return Err(format!(
            "error: error validating \"{}\": error validating data: {}; if you choose to ignore these errors, turn validation off with --validate=false",
            source, list
        ));
    }
    meta::by_kind(api_version, kind).or_else(|| cluster.view().crds().by_kind(api_version, kind)).ok_or_else(|| {
        format!(
            "error: resource mapping not found for name: \"{}\" namespace: \"{}\" from \"{}\": no matches for kind \"{}\" in version \"{}\"\nensure CRDs are installed first",
            meta::name(obj),
            meta::namespace(obj),
            source,
            kind,
            api_version
        )
    })
}

/// `kubectl apply|create|replace -f`: decode every document, then send each.
/// `apply --server-side`'s field manager and `--force-conflicts`.
pub(super) struct ServerSide<'a> {
    pub manager: &'a str,
    pub force: bool,
}

#[allow(clippy::too_many_arguments)]
pub(super) fn apply_manifest(cluster: &mut Cluster, cmd: &str, ssa: Option<&ServerSide>, source: &str, text: &str, default_ns: &str, ns_flag: bool, out: &mut Output) {
    let docs = match codec::decode_manifest(text) {
        Ok(d) => d,
        Err(e) => {
            out.err(&format!("error: error parsing {}: {}", source, e.message));
            return;
        }
    };
    if docs.is_empty() {
        out.err(&format!("error: no objects passed to {}", cmd));
        return;
    }
    // the resource builder maps every document first (a CustomResource after its CRD in the same
    // file is not mapped: the CRD is not served yet), applies what it mapped, and reports the
    // mapping errors with the others at the end
    let mut mapping_errors = Vec::new();
    let mapped: Vec<(Value, &'static meta::ResourceInfo)> = docs
        .into_iter()
        .filter_map(|doc| match resource_mapping(cluster, &doc.object, source) {
            Ok(i) => Some((doc.object, i)),
            Err(e) => {
                mapping_errors.push(e);
                None
            }
        })
        .collect();
    for (obj, info) in mapped {
        let mut obj = obj;
        let obj_ns = meta::namespace(&obj).to_string();
        let ns = if info.namespaced {
            if !obj_ns.is_empty() && ns_flag && obj_ns != default_ns {
                out.err(&format!(
                    "error: the namespace from the provided object \"{}\" does not match the namespace \"{}\". You must pass '--namespace={}' to perform this operation.",
                    obj_ns, default_ns, obj_ns
                ));
                continue;
            }
            if obj_ns.is_empty() { default_ns.to_string() } else { obj_ns }
        } else {
            String::new()
        };
        if info.namespaced && obj.get("metadata").map(|m| m.is_object()).unwrap_or(false) {
            meta::set(&mut obj, &["metadata", "namespace"], json!(ns));
        }
        let name = meta::name(&obj).to_string();
        let prefix = info.kubectl_prefix();
        match cmd {
            "create" => {
                let resp = kubectl(cluster, Method::Post, &format!("{}?fieldManager=kubectl-create&fieldValidation=Strict", info.collection_path(&ns)), Some(obj));
                if resp.ok() {
                    out.out(&format!("{}/{} created", prefix, meta::name(&resp.body)));
                } else {
                    out.err(&server_error(&resp, Some(("creating", source))));
                }
            }
            "replace" => {
                let path = info.object_path(&ns, &name);
                let resp = kubectl(cluster, Method::Put, &format!("{}?fieldManager=kubectl-replace&fieldValidation=Strict", path), Some(obj));
                if resp.ok() {
                    out.out(&format!("{}/{} replaced", prefix, name));
                } else {
                    out.err(&server_error(&resp, Some(("replacing", source))));
                }
            }
            _ => match ssa {
                Some(ssa) => server_side_apply(cluster, info, &ns, obj, ssa, out),
                None => apply_one(cluster, info, &ns, obj, source, out),
            },
        }
    }
    for e in mapping_errors {
        out.err(&e);
    }
}

/// `apply --server-side`: the whole object as an apply patch, field manager `kubectl`
/// (apply.go's `fieldManagerServerSideApply`) unless `--field-manager`, `--force-conflicts` as
/// `force`.
fn server_side_apply(cluster: &mut Cluster, info: &'static meta::ResourceInfo, ns: &str, obj: Value, ssa: &ServerSide, out: &mut Output) {
    let name = meta::name(&obj).to_string();
    let path = format!("{}?fieldManager={}&fieldValidation=Strict{}", info.object_path(ns, &name), ssa.manager, if ssa.force { "&force=true" } else { "" });
    let resp = cluster.client_request(&kubectl_identity(), Request { method: Method::Patch, path, body: Some(obj), patch_type: PatchType::Apply });
    if resp.ok() {
        return out.out(&format!("{}/{} serverside-applied", info.kubectl_prefix(), name));
    }
    if resp.code == 409 {
        // apply.go wraps a conflict with its advice
        return out.err(&format!(
            "error: {}\nPlease review the fields above--they currently have other managers. Here\nare the ways you can resolve this warning:\n* If you intend to manage all of these fields, please re-run the apply\n  command with the `--force-conflicts` flag.\n* If you do not intend to manage all of the fields, please edit your\n  manifest to remove references to the fields that should keep their\n  current managers.\n* You may co-own fields by updating your manifest to match the existing\n  value; in this case, you'll become the manager if the other manager(s)\n  stop managing the field (remove it from their configuration).\nSee https://kubernetes.io/docs/reference/using-api/server-side-apply/#conflicts",
            meta::get_str(&resp.body, &["message"])
        ));
    }
    out.err(&server_error(&resp, None));
}

pub(super) const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// `util.GetModifiedConfiguration(obj, annotate=false)`: the object with its annotations minus
/// the last-applied one — an empty map when it had none (`SetAnnotations` of an empty map), which
/// is why a last-applied configuration reads `"metadata":{"annotations":{},…}`.
pub(super) fn modified_configuration(obj: &Value) -> Value {
    let mut o = obj.clone();
    if o.get("metadata").is_some_and(Value::is_object) {
        let mut annots = meta::get(&o, &["metadata", "annotations"]).and_then(Value::as_object).cloned().unwrap_or_default();
        annots.remove(LAST_APPLIED);
        meta::set(&mut o, &["metadata", "annotations"], Value::Object(annots));
    }
    o
}

pub(super) fn apply_one(cluster: &mut Cluster, info: &'static meta::ResourceInfo, ns: &str, obj: Value, source: &str, out: &mut Output) {
    let name = meta::name(&obj).to_string();
    let prefix = info.kubectl_prefix();
    if name.is_empty() {
        // apply needs a name to GET; generateName only works with create (apply.go)
        out.err(&format!("error: from {}: cannot use generate name with apply", meta::get_str(&obj, &["metadata", "generateName"])));
        return;
    }
    // The annotation holds the manifest as applied (without the annotation itself).
    let applied = modified_configuration(&obj);
    let annotation = serde_json::to_string(&applied).unwrap_or_default() + "\n";
    let mut modified = applied.clone();
    meta::set(&mut modified, &["metadata", "annotations", LAST_APPLIED], json!(annotation));

    let path = info.object_path(ns, &name);
    let got = kubectl(cluster, Method::Get, &path, None);
    if got.code == 404 {
        let resp = kubectl(
            cluster,
            Method::Post,
            &format!("{}?fieldManager=kubectl-client-side-apply&fieldValidation=Strict", info.collection_path(ns)),
            Some(modified),
        );
        if resp.ok() {
            out.out(&format!("{}/{} created", prefix, name));
        } else {
            out.err(&server_error(&resp, Some(("creating", source))));
        }
        return;
    }
    if !got.ok() {
        out.err(&server_error(&got, Some(("retrieving current configuration of:\nResource: ", source))));
        return;
    }
    let current = got.body;
    if meta::annotation(&current, LAST_APPLIED).is_none() {
        out.note(&format!(
            "Warning: resource {}/{} is missing the kubectl.kubernetes.io/last-applied-configuration annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.\n",
            info.resource, name
        ));
    }
    let original: Value = meta::annotation(&current, LAST_APPLIED).and_then(|s| serde_json::from_str(s).ok()).unwrap_or(json!({}));
    let patch = patch::three_way_merge_patch(&original, &modified, &current);
    if patch.as_object().map(|p| p.is_empty()).unwrap_or(true) {
        out.out(&format!("{}/{} unchanged", prefix, name));
        return;
    }
    let resp = cluster.client_request(
        &kubectl_identity(),
        Request {
            method: Method::Patch,
            path: format!("{}?fieldManager=kubectl-client-side-apply&fieldValidation=Strict", path),
            body: Some(patch.clone()),
            patch_type: PatchType::Merge,
        },
    );
    if resp.ok() {
        out.out(&format!("{}/{} configured", prefix, name));
    } else if resp.code == 422 {
        out.err(&server_error(&resp, None));
    } else {
        out.err(&format!(
            "Error from server ({}): error when applying patch:\n{}\nto:\nResource: \"{}, Resource={}\", GroupVersionKind: \"{}, Kind={}\"\nName: \"{}\", Namespace: \"{}\"\nfor: \"{}\": error when patching \"{}\": {}",
            resp.reason(),
            serde_json::to_string(&patch).unwrap_or_default(),
            info.api_version(),
            info.resource,
            info.api_version(),
            info.kind,
            name,
            ns,
            source,
            source,
            resp.message()
        ));
    }
}
