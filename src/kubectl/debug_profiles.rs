//! `kubectl debug --profile`: what each profile does to the Pod it is about to create or patch.
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/cmd/debug/profiles.go` (`NewProfileApplier`, the
//! `legacy`, `general`, `baseline`, `restricted`, `netadmin` and `sysadmin` appliers, `KeepFlags`
//! and their helpers). `legacy` is v1.34's default and is deprecated. The debug container is
//! found by name among every container list, as `podutils.VisitContainers` does.

use serde_json::{json, Value};

/// `getDebugStyle`: how the Pod was made.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Style {
    Ephemeral,
    PodCopy,
    Node,
}

/// `KeepFlags` (`--keep-labels`, `--keep-annotations`, `--keep-liveness`, `--keep-readiness`,
/// `--keep-startup`, `--keep-init-containers`).
pub(super) struct Keep {
    pub labels: bool,
    pub annotations: bool,
    pub liveness: bool,
    pub readiness: bool,
    pub startup: bool,
    pub init_containers: bool,
}

pub(super) const PROFILES: &[&str] = &["legacy", "general", "baseline", "restricted", "netadmin", "sysadmin"];

/// Applies `profile` to `pod` (a whole Pod: metadata and spec), for debug container `name`.
pub(super) fn apply(profile: &str, style: Style, pod: &mut Value, name: &str, keep: &Keep) -> Result<(), String> {
    if !PROFILES.contains(&profile) {
        return Err(format!("unknown profile: {}", profile));
    }
    let copy_cleanup = |pod: &mut Value| {
        remove_labels(pod, keep.labels);
        if !keep.annotations {
            remove_meta(pod, "annotations");
        }
        remove_probes(pod, keep);
        if !keep.init_containers {
            if let Some(s) = pod.get_mut("spec").and_then(Value::as_object_mut) {
                s.remove("initContainers");
            }
        }
    };
    match (profile, style) {
        ("legacy", Style::Node) => {
            mount_root_partition(pod, name);
            use_host_namespaces(pod);
        }
        // legacy removes the labels whatever --keep-labels says
        ("legacy", Style::PodCopy) => remove_labels(pod, false),
        ("general", Style::Node) => {
            mount_root_partition(pod, name);
            with_container(pod, name, |c| remove_key(c, "securityContext"));
            use_host_namespaces(pod);
        }
        ("general", Style::PodCopy) => {
            copy_cleanup(pod);
            with_container(pod, name, |c| add_capability(c, "SYS_PTRACE"));
            share_process_namespace(pod);
        }
        ("general", Style::Ephemeral) => with_container(pod, name, |c| add_capability(c, "SYS_PTRACE")),
        ("baseline", style) => {
            with_container(pod, name, |c| remove_key(c, "securityContext"));
            if style == Style::PodCopy {
                copy_cleanup(pod);
                share_process_namespace(pod);
            }
        }
        ("restricted", style) => {
            with_container(pod, name, |c| {
                remove_key(c, "securityContext");
                c["securityContext"] = json!({"allowPrivilegeEscalation": false, "capabilities": {"drop": ["ALL"]}, "runAsNonRoot": true, "seccompProfile": {"type": "RuntimeDefault"}});
            });
            if style == Style::PodCopy {
                copy_cleanup(pod);
                share_process_namespace(pod);
            }
        }
        ("netadmin", style) => {
            with_container(pod, name, |c| {
                add_capability(c, "NET_ADMIN");
                add_capability(c, "NET_RAW");
            });
            match style {
                Style::Node => use_host_namespaces(pod),
                Style::PodCopy => {
                    copy_cleanup(pod);
                    share_process_namespace(pod);
                }
                Style::Ephemeral => {}
            }
        }
        ("sysadmin", style) => {
            with_container(pod, name, |c| c["securityContext"]["privileged"] = json!(true));
            match style {
                Style::Node => {
                    use_host_namespaces(pod);
                    mount_root_partition(pod, name);
                }
                Style::PodCopy => {
                    copy_cleanup(pod);
                    share_process_namespace(pod);
                }
                Style::Ephemeral => {}
            }
        }
        _ => {}
    }
    Ok(())
}

fn remove_key(v: &mut Value, key: &str) {
    if let Some(o) = v.as_object_mut() {
        o.remove(key);
    }
}

fn remove_meta(pod: &mut Value, key: &str) {
    if let Some(m) = pod.get_mut("metadata") {
        remove_key(m, key);
    }
}

fn remove_labels(pod: &mut Value, keep: bool) {
    if !keep {
        remove_meta(pod, "labels");
    }
}

/// `RemoveProbes`: the regular containers' probes `--keep-*` does not keep.
fn remove_probes(pod: &mut Value, keep: &Keep) {
    for c in pod.pointer_mut("/spec/containers").and_then(Value::as_array_mut).into_iter().flatten() {
        for (k, kept) in [("livenessProbe", keep.liveness), ("readinessProbe", keep.readiness), ("startupProbe", keep.startup)] {
            if !kept {
                remove_key(c, k);
            }
        }
    }
}

/// The debug container, in whichever list it is.
fn with_container(pod: &mut Value, name: &str, f: impl FnOnce(&mut Value)) {
    for list in ["initContainers", "containers", "ephemeralContainers"] {
        if let Some(c) = pod.pointer_mut(&format!("/spec/{}", list)).and_then(Value::as_array_mut).and_then(|a| a.iter_mut().find(|c| c.get("name").and_then(Value::as_str) == Some(name))) {
            f(c);
            return;
        }
    }
}

/// `addCapability`: appended to `securityContext.capabilities.add`.
fn add_capability(c: &mut Value, cap: &str) {
    let sc = &mut c["securityContext"];
    if !sc.is_object() {
        *sc = json!({});
    }
    let caps = &mut sc["capabilities"];
    if !caps.is_object() {
        *caps = json!({});
    }
    match caps.get_mut("add").and_then(Value::as_array_mut) {
        Some(a) => a.push(json!(cap)),
        None => caps["add"] = json!([cap]),
    }
}

/// `mountRootPartition`: the node's `/` at `/host` (volume `host-root`).
fn mount_root_partition(pod: &mut Value, name: &str) {
    let spec = &mut pod["spec"];
    match spec.get_mut("volumes").and_then(Value::as_array_mut) {
        Some(v) => v.push(json!({"name": "host-root", "hostPath": {"path": "/"}})),
        None => spec["volumes"] = json!([{"name": "host-root", "hostPath": {"path": "/"}}]),
    }
    for list in ["initContainers", "containers"] {
        if let Some(c) = pod.pointer_mut(&format!("/spec/{}", list)).and_then(Value::as_array_mut).and_then(|a| a.iter_mut().find(|c| c.get("name").and_then(Value::as_str) == Some(name))) {
            match c.get_mut("volumeMounts").and_then(Value::as_array_mut) {
                Some(m) => m.push(json!({"mountPath": "/host", "name": "host-root"})),
                None => c["volumeMounts"] = json!([{"mountPath": "/host", "name": "host-root"}]),
            }
            return;
        }
    }
}

fn use_host_namespaces(pod: &mut Value) {
    for k in ["hostIPC", "hostNetwork", "hostPID"] {
        pod["spec"][k] = json!(true);
    }
}

/// `shareProcessNamespace`: true unless the spec already says.
fn share_process_namespace(pod: &mut Value) {
    if pod.pointer("/spec/shareProcessNamespace").is_none() {
        pod["spec"]["shareProcessNamespace"] = json!(true);
    }
}
