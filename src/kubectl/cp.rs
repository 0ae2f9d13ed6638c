//! `kubectl cp [[NAMESPACE/]POD:]SRC [[NAMESPACE/]POD:]DEST [-c CONTAINER]`.
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/cmd/cp/cp.go` (`extractFileSpec`, `Run`,
//! `copyFromPod`: `tar cf - SRC` through `pods/exec` and `untarAll` into the local path;
//! `copyToPod`: `test -d DEST`, then `tar -xmf -` in the container). What kubesim simplifies:
//! the container's files are the view its kubelet keeps (`runtime::exec`: mounted ConfigMap and
//! Secret keys, `/etc/hosts`, …, plus what `kubectl cp` wrote into its writable layer, lost when
//! the container runs again); the local side is the console's files. Text files only.

use super::*;

/// A side of the copy: a Pod's path, or a local one.
struct FileSpec {
    namespace: Option<String>,
    pod: Option<String>,
    file: String,
}

/// `extractFileSpec`: `[[namespace/]pod:]file/path`.
fn extract(arg: &str) -> Result<FileSpec, String> {
    let Some((before, file)) = arg.split_once(':') else {
        return Ok(FileSpec { namespace: None, pod: None, file: arg.to_string() });
    };
    let (ns, pod) = match before.split_once('/') {
        Some((n, p)) => (Some(n.to_string()), p.to_string()),
        None => (None, before.to_string()),
    };
    if pod.is_empty() || pod.contains('/') {
        return Err("filespec must match the canonical format: [[namespace/]pod:]file/path".into());
    }
    Ok(FileSpec { namespace: ns, pod: Some(pod), file: file.to_string() })
}

pub(super) fn cp(cluster: &mut Cluster, f: &Flags, ns: &str, out: &mut Output) {
    if f.positional.len() != 2 {
        return out.err("error: source and destination are required");
    }
    let (src, dest) = match (extract(&f.positional[0]), extract(&f.positional[1])) {
        (Ok(s), Ok(d)) => (s, d),
        (Err(e), _) | (_, Err(e)) => return out.err(&format!("error: {}", e)),
    };
    if src.pod.is_some() && dest.pod.is_some() {
        return out.err("error: one of src or dest must be a local file specification");
    }
    if src.file.is_empty() || dest.file.is_empty() {
        return out.err("error: filepath can not be empty");
    }
    match (&src.pod, &dest.pod) {
        (Some(pod), None) => copy_from_pod(cluster, f, src.namespace.as_deref().unwrap_or(ns), pod, &src.file, &dest.file, out),
        (None, Some(pod)) => copy_to_pod(cluster, f, dest.namespace.as_deref().unwrap_or(ns), pod, &src.file, &dest.file, out),
        _ => out.err("error: one of src or dest must be a remote file specification"),
    }
}

/// The Pod, its node and the container to use; the `pods/exec` upgrade authorized.
fn exec_target(cluster: &mut Cluster, f: &Flags, ns: &str, pod: &str, command: &[&str], out: &mut Output) -> Option<(String, String)> {
    let got = kubectl(cluster, Method::Get, &format!("/api/v1/namespaces/{}/pods/{}", ns, pod), None);
    if !got.ok() {
        out.err(&server_error(&got, None));
        return None;
    }
    let container = match &f.container {
        Some(c) => c.clone(),
        None => logs::default_container(&got.body, out),
    };
    let cmd: String = command.iter().map(|c| format!("&command={}", c)).collect();
    let resp = kubectl(cluster, Method::Post, &format!("/api/v1/namespaces/{}/pods/{}/exec?container={}{}&stderr=true&stdout=true", ns, pod, container, cmd), None);
    if !resp.ok() {
        out.err(&server_error(&resp, None));
        return None;
    }
    Some((meta::get_str(&got.body, &["spec", "nodeName"]).to_string(), container))
}

/// The files under `path` in the container (the path itself when it is a file), relative names.
fn collect(view: &crate::runtime::exec::ContainerView, path: &str, rel: &str, depth: usize, acc: &mut Vec<(String, String)>) {
    if let Some(text) = view.file(path) {
        acc.push((rel.to_string(), text));
        return;
    }
    if depth > 8 {
        return;
    }
    for name in view.dir(path).unwrap_or_default() {
        let child = format!("{}/{}", path.trim_end_matches('/'), name);
        let rel_child = if rel.is_empty() { name.clone() } else { format!("{}/{}", rel, name) };
        collect(view, &child, &rel_child, depth + 1, acc);
    }
}

fn copy_from_pod(cluster: &mut Cluster, f: &Flags, ns: &str, pod: &str, src: &str, dest: &str, out: &mut Output) {
    let Some((node, container)) = exec_target(cluster, f, ns, pod, &["tar", "cf", "-", src], out) else { return };
    let view = match cluster.view().container_view(&node, ns, pod, Some(&container)) {
        Ok(v) => v,
        Err(e) => return out.err(&format!("error: {}", e)),
    };
    let busybox = view.image.contains("busybox") || view.image.contains("alpine");
    // tar's own note on stderr, as the nginx (GNU tar) or busybox image prints it
    if src.starts_with('/') {
        out.note(if busybox { "tar: removing leading '/' from member names" } else { "tar: Removing leading `/' from member names" });
    }
    let abs = if src.starts_with('/') { src.to_string() } else { format!("/{}", src) };
    let mut files = Vec::new();
    collect(&view, &abs, "", 0, &mut files);
    if files.is_empty() && view.dir(&abs).is_none() {
        let msg = if busybox { format!("tar: {}: No such file or directory", abs.trim_start_matches('/')) } else { format!("tar: {}: Cannot stat: No such file or directory\ntar: Exiting with failure status due to previous errors", abs.trim_start_matches('/')) };
        out.note(&msg);
        out.code = 1;
        return;
    }
    let ws = cluster.workstation_mut();
    // a directory's files go under DEST; a file becomes DEST
    let single = files.len() == 1 && files[0].0.is_empty();
    if single && ws.is_dir(dest) {
        return out.err(&format!("error: open {}: is a directory", dest));
    }
    if !single {
        if let Err(e) = ws.mkdir(dest) {
            return out.err(&format!("error: {}", e));
        }
    }
    for (rel, text) in files {
        let path = if rel.is_empty() { dest.to_string() } else { format!("{}/{}", dest.trim_end_matches('/'), rel) };
        if let Some((dir, _)) = path.rsplit_once('/') {
            if !dir.is_empty() && !ws.is_dir(dir) {
                let _ = ws.mkdir(dir);
            }
        }
        if let Err(e) = ws.write(&path, &text) {
            return out.err(&format!("error: {}", e));
        }
    }
}

fn copy_to_pod(cluster: &mut Cluster, f: &Flags, ns: &str, pod: &str, src: &str, dest: &str, out: &mut Output) {
    let Some(text) = cluster.workstation().read(src).map(String::from) else {
        return out.err(&format!("error: {} doesn't exist in local filesystem", src));
    };
    let Some((node, container)) = exec_target(cluster, f, ns, pod, &["tar", "-xmf", "-"], out) else { return };
    // `test -d DEST`: into a directory, the file keeps its name
    let is_dir = cluster.view().container_view(&node, ns, pod, Some(&container)).map(|v| v.dir(dest).is_some()).unwrap_or(false);
    let base = src.rsplit('/').next().unwrap_or(src);
    let target = if is_dir { format!("{}/{}", dest.trim_end_matches('/'), base) } else { dest.to_string() };
    let target = if target.starts_with('/') { target } else { format!("/{}", target) };
    if let Err(e) = cluster.copy_into_container(&node, ns, pod, Some(&container), &target, &text) {
        out.err(&format!("error: {}", e));
    }
}
