//! `kubectl set image` (`staging/src/k8s.io/kubectl/pkg/cmd/set/set_image.go`): change container
//! images in a workload's pod template with a strategic merge PATCH (field manager `kubectl-set`).
//! `*` sets every container, init containers included. An unchanged image sends nothing and
//! prints nothing, as upstream. `set env` and `set serviceaccount` are in `set_env.rs`.

use super::*;

pub(super) fn set(cluster: &mut Cluster, f: &Flags, ns: &str, out: &mut Output) {
    match f.positional.first().map(String::as_str) {
        Some("image") => set_image(cluster, f, ns, out),
        Some("env") => super::set_env::set_env(cluster, f, ns, out),
        Some("serviceaccount") | Some("sa") => super::set_env::set_serviceaccount(cluster, f, ns, out),
        Some(other) => out.err(&format!("error: unknown command \"{}\"\nSee 'kubectl set -h' for help and examples", other)),
        None => out.out("Configure application resources.\n\nAvailable Commands:\n  env             Update environment variables on a pod template\n  image           Update the image of a pod template\n  serviceaccount  Update the service account of a resource\n\nUsage:\n  kubectl set SUBCOMMAND [options]"),
    }
}

fn set_image(cluster: &mut Cluster, f: &Flags, ns: &str, out: &mut Output) {
    let args = &f.positional[1..];
    // cmdutil.GetResourcesAndPairs: pairs are the arguments with '='
    let (pairs, resources): (Vec<&String>, Vec<&String>) = args.iter().partition(|a| a.contains('='));
    if resources.is_empty() {
        return out.err("error: one or more resources must be specified as <resource> <name> or <resource>/<name>");
    }
    if pairs.is_empty() {
        return out.err("error: at least one image update is required");
    }
    let mut images: Vec<(String, String)> = Vec::new();
    for p in &pairs {
        let (c, i) = p.split_once('=').unwrap_or((p, ""));
        if c.is_empty() || i.is_empty() {
            return out.err(&format!("error: invalid image format: {}", p));
        }
        images.push((c.to_string(), i.to_string()));
    }
    if images.len() > 1 && images.iter().any(|(c, _)| c == "*") {
        return out.err("error: all containers are already specified by *, but saw more than one container_name=container_image pairs");
    }
    let resources: Vec<String> = resources.into_iter().cloned().collect();
    let mut errors = Vec::new();
    let ts = match templates(cluster, ns, &resources, &mut errors) {
        Ok(t) => t,
        Err(e) => return out.err(&e),
    };
    for t in ts {
        let (info, name, spec) = (t.info, t.name.clone(), &t.spec);
        // the two-way strategic merge patch of the containers whose image changes
        let mut lists = serde_json::Map::new();
        for (c, image) in &images {
            let mut found = false;
            for list in ["initContainers", "containers"] {
                for ctr in spec.get(list).and_then(Value::as_array).into_iter().flatten() {
                    let cname = meta::get_str(ctr, &["name"]);
                    if c == "*" || c == cname {
                        found = true;
                        if meta::get_str(ctr, &["image"]) != image {
                            let entry = lists.entry(list.to_string()).or_insert_with(|| json!([]));
                            if let Some(a) = entry.as_array_mut() {
                                a.retain(|e| meta::get_str(e, &["name"]) != cname);
                                a.push(json!({"image": image, "name": cname}));
                            }
                        }
                    }
                }
            }
            if !found {
                errors.push(format!("error: unable to find container named \"{}\"", c));
            }
        }
        if lists.is_empty() {
            continue; // no changes: no request, no output
        }
        let mut patch = json!({});
        meta::set(&mut patch, t.spec_path, Value::Object(lists));
        if f.record {
            let cause = format!("kubectl set image {} --record=true", args.join(" "));
            meta::set(&mut patch, &["metadata", "annotations", rollout::CHANGE_CAUSE_ANNOTATION], json!(cause));
        }
        let resp = cluster.client_request(
            &kubectl_identity(),
            Request { method: Method::Patch, path: format!("{}?fieldManager=kubectl-set", t.path), body: Some(patch), patch_type: PatchType::Strategic },
        );
        if resp.ok() {
            out.out(&format!("{}/{} image updated", info.kubectl_prefix(), name));
        } else {
            errors.push(format!("failed to patch image update to pod template: {}", server_error(&resp, None)));
        }
    }
    report(&errors, out);
}

/// One Pod template `kubectl set …` changes: the object's path, the path of its Pod spec in the
/// object, and that spec as read.
pub(super) struct Template {
    pub info: &'static meta::ResourceInfo,
    pub name: String,
    pub path: String,
    pub spec_path: &'static [&'static str],
    pub spec: Value,
}

/// The Pod spec's path in a workload, or upstream's error for an object without one.
fn spec_path(info: &meta::ResourceInfo, name: &str) -> Result<&'static [&'static str], String> {
    match info.kind {
        "Pod" => Ok(&["spec"]),
        "Deployment" | "ReplicaSet" | "DaemonSet" | "StatefulSet" | "Job" => Ok(&["spec", "template", "spec"]),
        "CronJob" => Ok(&["spec", "jobTemplate", "spec", "template", "spec"]),
        _ => Err(format!("error: {}/{} the object is not a pod or does not have a pod template: {}", info.kubectl_prefix(), name, info.kind)),
    }
}

/// The `set` commands' resource builder: each named object read, with its Pod template; what
/// cannot be read or has no template goes to `errors`.
pub(super) fn templates(cluster: &mut Cluster, ns: &str, resources: &[String], errors: &mut Vec<String>) -> Result<Vec<Template>, String> {
    let mut out = Vec::new();
    for (info, names) in targets(cluster, resources)? {
        for name in names {
            let path = info.object_path(ns, &name);
            let got = kubectl(cluster, Method::Get, &path, None);
            if !got.ok() {
                errors.push(server_error(&got, None));
                continue;
            }
            match spec_path(info, &name) {
                Ok(sp) => {
                    let spec = meta::get(&got.body, sp).cloned().unwrap_or(json!({}));
                    out.push(Template { info, name, path, spec_path: sp, spec });
                }
                Err(e) => errors.push(e),
            }
        }
    }
    Ok(out)
}

/// A strategic merge PATCH of a template's spec (field manager `kubectl-set`).
pub(super) fn patch_spec(cluster: &mut Cluster, t: &Template, spec_patch: Value) -> Response {
    let mut patch = json!({});
    if !spec_patch.as_object().map(|m| m.is_empty()).unwrap_or(true) {
        meta::set(&mut patch, t.spec_path, spec_patch);
    }
    cluster.client_request(
        &kubectl_identity(),
        Request { method: Method::Patch, path: format!("{}?fieldManager=kubectl-set", t.path), body: Some(patch), patch_type: PatchType::Strategic },
    )
}

/// `utilerrors.NewAggregate`: one error prints alone, several as a bracketed list.
pub(super) fn report(errors: &[String], out: &mut Output) {
    match errors.len() {
        0 => {}
        1 => out.err(&errors[0]),
        _ => out.err(&format!("[{}]", errors.join(", "))),
    }
}
