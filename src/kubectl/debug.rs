//! `kubectl debug`: an ephemeral container in a running Pod, a copy of a Pod with a debug
//! container added, or a Pod on a node in the host's namespaces.
//!
//! Real counterpart: `staging/src/k8s.io/kubectl/pkg/cmd/debug/debug.go` (`visitPod`,
//! `debugByEphemeralContainer`: a strategic merge patch of the `pods/ephemeralcontainers`
//! subresource; `debugByCopy` / `generatePodCopyWithDebugContainer`; `visitNode` /
//! `generateNodeDebugPod`; `computeDebugContainerName`: `debugger-` and five random
//! characters) and `profiles.go` (`debug_profiles.rs`: v1.34's default `legacy`, deprecated —
//! kubectl says so on stderr — and `general`, `baseline`, `restricted`, `netadmin`,
//! `sysadmin`). What kubesim simplifies: the console cannot attach, so `-it` waits for the
//! container to run and says how to reach it with `kubectl exec`; `--custom`, `--set-image`,
//! `--env` and `-f` are not modelled (they say so); the kubelet does not enforce the security
//! settings a profile gives the container.

use super::*;

/// `kubectl debug ARGS`.
pub(super) fn debug(cluster: &mut Cluster, f: &Flags, ns: &str, out: &mut Output) {
    let Some(target) = f.positional.first() else {
        return out.err("error: NAME or filename is required for debug");
    };
    if f.tty && !f.stdin {
        return out.err("error: -i/--stdin is required for containers with -t/--tty=true");
    }
    let profile = f.profile.clone().unwrap_or_else(|| "legacy".into());
    if !debug_profiles::PROFILES.contains(&profile.as_str()) {
        return out.err(&format!("error: unknown profile: {}", profile));
    }
    let image = f.image.clone().unwrap_or_default();
    let copy = f.copy_to.is_some();
    if !copy {
        if f.replace {
            return out.err("error: --replace may only be used with --copy-to.");
        }
        if f.same_node {
            return out.err("error: --same-node may only be used with --copy-to.");
        }
        if image.is_empty() {
            return out.err("error: you must specify --image when not using --copy-to.");
        }
    }
    if copy && f.target.is_some() {
        return out.err("error: --target is incompatible with --copy-to. Use --share-processes instead.");
    }
    if image.is_empty() && f.command.is_empty() {
        return out.err("error: you must specify --image, --set-image or command arguments.");
    }
    // Validate: the target's note, then the legacy profile's deprecation (the default profile)
    if let Some(t) = &f.target {
        out.out(&format!("Targeting container {:?}. If you don't see processes from this container it may be because the container runtime doesn't support this feature.", t));
    }
    if profile == "legacy" {
        out.note("--profile=legacy is deprecated and will be removed in the future. It is recommended to explicitly specify a profile, for example \"--profile=general\".");
    }
    // the resource builder: pods by default, `node/NAME` for a node
    let (kind, name) = match target.split_once('/') {
        Some((k, n)) => (k.to_string(), n.to_string()),
        None => ("pods".to_string(), target.clone()),
    };
    let Some(info) = lookup(cluster, &kind) else {
        return out.err(&unknown_resource(&kind));
    };
    let got = kubectl(cluster, Method::Get, &info.object_path(if info.namespaced { ns } else { "" }, &name), None);
    if !got.ok() {
        return out.err(&server_error(&got, None));
    }
    let result = match info.kind {
        "Node" => debug_node(cluster, f, ns, &got.body, &image, &profile, out),
        "Pod" if copy => debug_by_copy(cluster, f, &got.body, &image, &profile, out),
        "Pod" => debug_by_ephemeral_container(cluster, f, &got.body, &image, &profile, out),
        // the GroupVersionKind as Go prints it: `apps/v1, Kind=Deployment`, `/v1, Kind=Service`
        _ => Err(format!("error: \"{}/{}, Kind={}\" not supported by debug", info.group, info.version, info.kind)),
    };
    match result {
        Ok((pod_ns, pod, container)) if f.stdin => attach(cluster, &pod_ns, &pod, &container, info.kind == "Pod" && !copy, out),
        Ok(_) => {}
        Err(e) => out.err(&e),
    }
}

/// `computeDebugContainerName`: `-c`, or `debugger-` and five random characters not yet taken.
fn container_name(cluster: &mut Cluster, f: &Flags, pod: &Value, out: &mut Output) -> String {
    if let Some(c) = &f.container {
        return c.clone();
    }
    let taken: Vec<String> = ["containers", "initContainers", "ephemeralContainers"].iter().flat_map(|l| meta::get_array(pod, &["spec", l]).iter().map(|c| meta::get_str(c, &["name"]).to_string()).collect::<Vec<_>>()).collect();
    loop {
        let cn = format!("debugger-{}", cluster.kubectl_random_suffix());
        if !taken.contains(&cn) {
            out.out(&format!("Defaulting debug container name to {}.", cn));
            return cn;
        }
    }
}

/// The debug container (`Container` or `EphemeralContainerCommon`): what follows `--` is its
/// command (`--arguments-only`: its args).
fn debug_container(f: &Flags, name: &str, image: &str) -> Value {
    let mut c = json!({"name": name, "image": image, "resources": {}, "terminationMessagePolicy": "File"});
    if !f.command.is_empty() {
        c[if f.arguments_only { "args" } else { "command" }] = json!(f.command);
    }
    if f.stdin {
        c["stdin"] = json!(true);
    }
    if f.tty {
        c["tty"] = json!(true);
    }
    c
}

/// `debugByEphemeralContainer`: a strategic merge patch of `pods/NAME/ephemeralcontainers`.
fn debug_by_ephemeral_container(cluster: &mut Cluster, f: &Flags, pod: &Value, image: &str, profile: &str, out: &mut Output) -> Result<(String, String, String), String> {
    let name = container_name(cluster, f, pod, out);
    let mut ec = debug_container(f, &name, image);
    if let Some(t) = &f.target {
        ec["targetContainerName"] = json!(t);
    }
    // the profile applies to the Pod with the container added; the patch carries the container
    let mut with = json!({"metadata": {}, "spec": {"ephemeralContainers": [ec]}});
    debug_profiles::apply(profile, debug_profiles::Style::Ephemeral, &mut with, &name, &keep_flags(f)).map_err(|e| format!("error: {}", e))?;
    let ec = with["spec"]["ephemeralContainers"][0].take();
    // CreateTwoWayMergePatch of the Pod before and after: the ephemeral containers' list,
    // merged by name
    let patch = json!({"spec": {"ephemeralContainers": [ec]}});
    let (pod_ns, pod_name) = (meta::namespace(pod).to_string(), meta::name(pod).to_string());
    let path = format!("/api/v1/namespaces/{}/pods/{}/ephemeralcontainers", pod_ns, pod_name);
    let resp = cluster.client_request(&kubectl_identity(), Request { method: Method::Patch, path, body: Some(patch), patch_type: PatchType::Strategic });
    if resp.code == 404 && meta::get_str(&resp.body, &["details", "name"]).is_empty() {
        return Err(format!("error: ephemeral containers are disabled for this cluster (error from server: {:?})", server_error(&resp, None)));
    }
    if !resp.ok() {
        return Err(server_error(&resp, None));
    }
    Ok((pod_ns, pod_name, name))
}

/// `debugByCopy`: a new Pod named `--copy-to`, the original's spec with the debug container
/// added (or `-c`'s existing container given the image and command), without its labels
/// (legacy profile), on any node unless `--same-node`; `--replace` deletes the original.
fn debug_by_copy(cluster: &mut Cluster, f: &Flags, pod: &Value, image: &str, profile: &str, out: &mut Output) -> Result<(String, String, String), String> {
    let copy_name = f.copy_to.clone().unwrap_or_default();
    let pod_ns = meta::namespace(pod).to_string();
    let mut spec = pod.get("spec").cloned().unwrap_or(json!({}));
    if let Some(o) = spec.as_object_mut() {
        o.remove("ephemeralContainers");
        if !f.same_node {
            o.remove("nodeName");
        }
    }
    if let Some(share) = f.share_processes {
        spec["shareProcessNamespace"] = json!(share);
    }
    // the copy keeps the original's labels and annotations until the profile removes them
    let mut metadata = json!({"name": copy_name, "namespace": pod_ns});
    for key in ["annotations", "labels"] {
        if let Some(a) = pod.pointer(&format!("/metadata/{}", key)).filter(|a| a.as_object().is_some_and(|m| !m.is_empty())) {
            metadata[key] = a.clone();
        }
    }
    let existing = f.container.as_ref().and_then(|c| meta::get_array(&spec, &["containers"]).iter().position(|x| meta::get_str(x, &["name"]) == c));
    let name = match existing {
        Some(i) => {
            let c = &mut spec["containers"][i];
            if !image.is_empty() {
                c["image"] = json!(image);
            }
            if !f.command.is_empty() {
                if f.arguments_only {
                    c["args"] = json!(f.command);
                } else {
                    c["command"] = json!(f.command);
                    if let Some(o) = c.as_object_mut() {
                        o.remove("args");
                    }
                }
            }
            c["stdin"] = json!(f.stdin);
            c["tty"] = json!(f.tty);
            meta::get_str(c, &["name"]).to_string()
        }
        None => {
            if image.is_empty() {
                return Err("error: you must specify image when creating new container".into());
            }
            let name = container_name(cluster, f, pod, out);
            let c = debug_container(f, &name, image);
            match spec.get_mut("containers").and_then(Value::as_array_mut) {
                Some(a) => a.push(c),
                None => spec["containers"] = json!([c]),
            }
            name
        }
    };
    let mut copied = json!({"apiVersion": "v1", "kind": "Pod", "metadata": metadata, "spec": spec});
    debug_profiles::apply(profile, debug_profiles::Style::PodCopy, &mut copied, &name, &keep_flags(f)).map_err(|e| format!("error: {}", e))?;
    let resp = kubectl(cluster, Method::Post, &format!("/api/v1/namespaces/{}/pods", pod_ns), Some(copied));
    if !resp.ok() {
        return Err(server_error(&resp, None));
    }
    if f.replace {
        let del = kubectl(cluster, Method::Delete, &format!("/api/v1/namespaces/{}/pods/{}", pod_ns, meta::name(pod)), Some(json!({"kind": "DeleteOptions", "apiVersion": "v1", "gracePeriodSeconds": 0})));
        if !del.ok() {
            return Err(server_error(&del, None));
        }
    }
    Ok((pod_ns, copy_name, name))
}

/// `visitNode`: a Pod `node-debugger-NODE-xxxxx` bound to the node, in the host's network, PID
/// and IPC namespaces, with the node's `/` at `/host`, tolerating every taint, never restarted.
fn debug_node(cluster: &mut Cluster, f: &Flags, ns: &str, node: &Value, image: &str, profile: &str, out: &mut Output) -> Result<(String, String, String), String> {
    let node_name = meta::name(node).to_string();
    let cn = f.container.clone().unwrap_or_else(|| "debugger".into());
    let pn = format!("node-debugger-{}-{}", node_name, cluster.kubectl_random_suffix());
    out.out(&format!("Creating debugging pod {} with container {} on node {}.", pn, cn, node_name));
    let c = debug_container(f, &cn, image);
    // generateNodeDebugPod; the profile adds the host's namespaces and `/host` (legacy, general)
    let mut pod = json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": pn, "namespace": ns},
        "spec": {
            "containers": [c],
            "nodeName": node_name,
            "restartPolicy": "Never",
            "tolerations": [{"operator": "Exists"}],
        },
    });
    debug_profiles::apply(profile, debug_profiles::Style::Node, &mut pod, &cn, &keep_flags(f)).map_err(|e| format!("error: {}", e))?;
    let resp = kubectl(cluster, Method::Post, &format!("/api/v1/namespaces/{}/pods", ns), Some(pod));
    if !resp.ok() {
        return Err(server_error(&resp, None));
    }
    Ok((ns.to_string(), pn, cn))
}

/// `KeepFlags` from `--keep-*` (`--keep-init-containers` is true unless set false).
fn keep_flags(f: &Flags) -> debug_profiles::Keep {
    debug_profiles::Keep { labels: f.keep_labels, annotations: f.keep_annotations, liveness: f.keep_liveness, readiness: f.keep_readiness, startup: f.keep_startup, init_containers: f.keep_init_containers.unwrap_or(true) }
}

/// `-i`: kubectl waits for the container to run (`waitForContainer`: a watch of the Pod), then
/// attaches. The console has no terminal to attach, so after the wait it says how to run a
/// command in the container.
fn attach(cluster: &mut Cluster, ns: &str, pod: &str, container: &str, ephemeral: bool, out: &mut Output) {
    let info = meta::lookup("pods").expect("pods are served");
    // an ephemeral container reports in ephemeralContainerStatuses, a copy's or a node Pod's in
    // containerStatuses
    let list = if ephemeral { "ephemeralContainerStatuses" } else { "containerStatuses" };
    let running = wait::For::JsonPath { path: format!(".status.{}[?(@.name==\"{}\")].state.running", list, container), value: None };
    if let Err(e) = wait::wait_for(cluster, info, ns, pod, &running, 5 * 60_000) {
        return out.err(&format!("error: {}", e));
    }
    // attach.go's Run (kubectl v1.34 added the first line), then the `pods/attach` upgrade
    out.note("All commands and output from this session will be recorded in container logs, including credentials and sensitive information passed through the command prompt.");
    out.note("If you don't see a command prompt, try pressing enter.");
    let resp = kubectl(cluster, Method::Post, &format!("/api/v1/namespaces/{}/pods/{}/attach?container={}&stdin=true&stdout=true&tty=true", ns, pod, container), None);
    if !resp.ok() {
        out.note(&format!("warning: couldn't attach to pod/{}, falling back to streaming logs: {}", pod, server_error(&resp, None).trim_start_matches("Error from server ")));
        return;
    }
    out.note(&format!("kubesim: the console cannot attach a terminal; run a command in the container with `kubectl exec {} -c {} -- COMMAND`", pod, container));
}
