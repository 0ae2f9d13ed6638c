//! `kubectl attach (POD | TYPE/NAME) [-c CONTAINER] [-i] [-t] [-q]`.
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/cmd/attach/attach.go` (`Validate`, `Run`:
//! `AttachablePodForObjectFn`, a completed Pod refused, `podcmd.FindOrDefaultContainerByName`,
//! the TTY check, the recording warning added in v1.34, then the `pods/attach` upgrade). What
//! kubesim simplifies: the console is not a terminal and cannot stay attached to a container's
//! streams, so after the upgrade kubectl's console says how to follow the output (`logs -f`) or
//! run a command (`exec`).

use super::*;

pub(super) fn attach(cluster: &mut Cluster, f: &Flags, ns: &str, out: &mut Output) {
    let args = &f.positional;
    if args.is_empty() {
        return out.err("error: at least 1 argument is required for attach");
    }
    if args.len() > 2 {
        return out.err(&format!("error: expected POD, TYPE/NAME, or TYPE NAME, (at most 2 arguments) saw {}: [{}]", args.len(), args.join(" ")));
    }
    let (kind, name) = match args.as_slice() {
        [one] => one.split_once('/').unwrap_or(("pods", one)),
        [k, n] => (k.as_str(), n.as_str()),
        _ => unreachable!("checked above"),
    };
    let Some(info) = meta::lookup(kind) else { return out.err(&unknown_resource(kind)) };
    let got = kubectl(cluster, Method::Get, &info.object_path(ns, name), None);
    if !got.ok() {
        return out.err(&server_error(&got, None));
    }
    // findAttachablePod
    let pod = match attachable::attachable_pod(cluster, info, &got.body, ns) {
        Ok((pod, _)) => pod,
        Err(e) => return out.err(&e),
    };
    let pod_name = meta::name(&pod).to_string();
    let phase = meta::get_str(&pod, &["status", "phase"]);
    if matches!(phase, "Succeeded" | "Failed") {
        return out.err(&format!("error: cannot attach a container in a completed pod; current phase is {}", phase));
    }
    let container = match &f.container {
        Some(c) => c.clone(),
        None => logs::default_container(&pod, out),
    };
    let spec = ["containers", "initContainers", "ephemeralContainers"].iter().flat_map(|l| meta::get_array(&pod, &["spec", l]).iter()).find(|c| meta::get_str(c, &["name"]) == container).cloned();
    let Some(spec) = spec else {
        return out.err(&format!("error: cannot attach to the container: container {} not found in pod {}", container, pod_name));
    };
    let container_tty = spec.get("tty").and_then(Value::as_bool).unwrap_or(false);
    let tty = f.tty || container_tty;
    if f.tty && !container_tty && !f.quiet {
        out.note(&format!("error: Unable to use a TTY - container {} did not allocate one", container));
    }
    if !f.quiet {
        out.note("All commands and output from this session will be recorded in container logs, including credentials and sensitive information passed through the command prompt.");
        out.note("If you don't see a command prompt, try pressing enter.");
    }
    let path = format!("/api/v1/namespaces/{}/pods/{}/attach?container={}&stderr={}&stdin={}&stdout=true&tty={}", ns, pod_name, container, !tty, f.stdin, tty);
    let resp = kubectl(cluster, Method::Post, &path, None);
    if !resp.ok() {
        return out.err(&server_error(&resp, None));
    }
    out.note(&format!(
        "kubesim: the console cannot stay attached to a container; follow its output with `kubectl logs -f {} -c {}`, or run a command in it with `kubectl exec {} -c {} -- COMMAND`",
        pod_name, container, pod_name, container
    ));
}
