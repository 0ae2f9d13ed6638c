//! `kubectl drain NODE`: cordon, then evict every Pod on the node through the `eviction`
//! subresource, retrying what a PodDisruptionBudget refuses.
//!
//! Real counterpart: kubectl's `pkg/cmd/drain/drain.go` (`RunDrain`, `deleteOrEvictPodsSimple`,
//! the `error: unable to drain node …, continuing command...` report) and `pkg/drain/`
//! (`drain.go`: `GetPodsForDeletion`, `evictPods` — `evicting pod NS/NAME` before each attempt,
//! `error when evicting pods/"NAME" -n "NS" (will retry after 5s): …` on a 429, `pod/NAME
//! evicted` once the Pod is gone, polled every second; `filters.go`: the DaemonSet, mirror-Pod,
//! local-storage and unreplicated filters with their errors and warnings).
//!
//! What kubesim simplifies: the evictions that kubectl runs in parallel goroutines run in rounds
//! (each round tries every Pod still waiting, then lets 5 s of cluster time pass, polling each
//! second for the evicted Pods); `--timeout` (default: none) is bounded by kubesim at 10 minutes
//! of cluster time (with `--timeout`, kubectl's `global timeout reached` errors); no
//! `--disable-eviction`, `--pod-selector` or `--dry-run`.

use super::*;
use crate::api::time;

/// Go's `time.Duration.String()` for whole seconds and minutes (`30s`, `1m0s`).
fn go_duration(ms: i64) -> String {
    let s = ms / 1000;
    match (s / 3600, s / 60 % 60, s % 60) {
        (0, 0, sec) => format!("{}s", sec),
        (0, m, sec) => format!("{}m{}s", m, sec),
        (h, m, sec) => format!("{}h{}m{}s", h, m, sec),
    }
}

/// kubesim's bound on how long `drain` lets the cluster run (kubectl's default waits forever).
const DRAIN_MAX_WAIT_MS: i64 = 10 * 60 * 1000;

pub(super) fn drain(cluster: &mut Cluster, f: &Flags, out: &mut Output) {
    let names = node_names(f);
    let [node] = names.as_slice() else {
        return out.err("error: USAGE: drain NODE [flags]\nSee 'kubectl drain -h' for help and examples");
    };
    let node = node.clone();
    let cordon_flags = Flags { positional: vec![node.clone()], ..Flags::default() };
    cordon(cluster, &cordon_flags, true, out);
    if out.code != 0 {
        return;
    }
    let pods = list_items(cluster, &format!("/api/v1/pods?fieldSelector=spec.nodeName%3D{}", node));
    // GetPodsForDeletion: each filter in turn
    let (mut errors, mut warnings): (Vec<(String, Vec<String>)>, Vec<(String, Vec<String>)>) = (Vec::new(), Vec::new());
    let note = |list: &mut Vec<(String, Vec<String>)>, what: &str, pod: String| match list.iter_mut().find(|(w, _)| w == what) {
        Some((_, v)) => v.push(pod),
        None => list.push((what.to_string(), vec![pod])),
    };
    // (namespace, name, uid): the uid tells a replacement of the same name from the Pod itself
    let mut evict: Vec<(String, String, String)> = Vec::new();
    for p in &pods {
        let id = format!("{}/{}", meta::namespace(p), meta::name(p));
        let controller = meta::controller_of(p).map(|r| meta::get_str(r, &["kind"]).to_string());
        let terminal = matches!(meta::get_str(p, &["status", "phase"]), "Succeeded" | "Failed");
        if controller.as_deref() == Some("DaemonSet") {
            if f.ignore_daemonsets {
                note(&mut warnings, "ignoring DaemonSet-managed Pods", id);
            } else {
                note(&mut errors, "DaemonSet-managed Pods (use --ignore-daemonsets to ignore)", id);
            }
            continue;
        }
        if meta::get(p, &["metadata", "annotations", "kubernetes.io/config.mirror"]).is_some() {
            continue;
        }
        let empty_dir = meta::get_array(p, &["spec", "volumes"]).iter().any(|v| v.get("emptyDir").is_some());
        if empty_dir && !terminal {
            if f.delete_emptydir_data {
                note(&mut warnings, "deleting Pods with local storage", id.clone());
            } else {
                note(&mut errors, "Pods with local storage (use --delete-emptydir-data to override)", id);
                continue;
            }
        }
        if controller.is_none() && !terminal {
            if f.force {
                note(&mut warnings, "deleting Pods that declare no controller", id.clone());
            } else {
                note(&mut errors, "cannot delete Pods that declare no controller (use --force to override)", id);
                continue;
            }
        }
        evict.push((meta::namespace(p).to_string(), meta::name(p).to_string(), meta::uid(p).to_string()));
    }
    let join = |list: &[(String, Vec<String>)], sep: &str| list.iter().map(|(w, v)| format!("{}: {}", w, v.join(", "))).collect::<Vec<_>>().join(sep);
    if !errors.is_empty() {
        // filters.go's errors(): "cannot delete " + the filter's message (the unmanaged filter's
        // own message already starts with "cannot delete", so kubectl prints it twice)
        let msgs: Vec<String> = errors.iter().map(|(w, v)| format!("cannot delete {}: {}", w, v.join(", "))).collect();
        let agg = if msgs.len() == 1 { msgs[0].clone() } else { format!("[{}]", msgs.join(", ")) };
        return out.err(&format!("error: unable to drain node \"{}\" due to error: {}, continuing command...\nThere are pending nodes to be drained:\n {}\n{}", node, agg, node, agg));
    }
    if !warnings.is_empty() {
        out.note(&format!("Warning: {}", join(&warnings, "; ")));
    }
    let body = |ns: &str, name: &str| {
        let mut e = json!({"apiVersion": "policy/v1", "kind": "Eviction", "metadata": {"name": name, "namespace": ns}});
        if let Some(g) = f.grace_period.filter(|g| *g >= 0) {
            e["deleteOptions"] = json!({"gracePeriodSeconds": g});
        }
        e
    };
    // --timeout: kubectl's global timeout (0 or unset: none, which kubesim bounds)
    let timeout = match f.timeout.as_deref().map(|t| (t, time::parse_go_duration(t))) {
        None | Some((_, Some(0))) => None,
        Some((_, Some(ms))) => Some(ms),
        Some((t, None)) => return out.err(&format!("error: invalid argument \"{}\" for \"--timeout\" flag: time: invalid duration \"{}\"", t, t)),
    };
    let deadline = cluster.now() + timeout.unwrap_or(DRAIN_MAX_WAIT_MS);
    let mut pending = evict;
    // evicted, waiting to be gone: (namespace, name, uid)
    let mut going: Vec<(String, String, String)> = Vec::new();
    loop {
        let mut retry = Vec::new();
        for (ns, name, uid) in pending.drain(..) {
            out.out(&format!("evicting pod {}/{}", ns, name));
            let resp = kubectl(cluster, Method::Post, &format!("/api/v1/namespaces/{}/pods/{}/eviction", ns, name), Some(body(&ns, &name)));
            match resp.code {
                200..=299 => going.push((ns, name, uid)),
                404 => {}
                429 => {
                    out.note(&format!("error when evicting pods/\"{}\" -n \"{}\" (will retry after 5s): {}", name, ns, meta::get_str(&resp.body, &["message"])));
                    retry.push((ns, name, uid));
                }
                _ => {
                    return out.err(&format!("error when evicting pods/\"{}\" -n \"{}\": {}", name, ns, meta::get_str(&resp.body, &["message"])));
                }
            }
        }
        pending = retry;
        // waitForDelete: poll each second; the retries wait 5 s
        for _ in 0..5 {
            if going.is_empty() && pending.is_empty() {
                break;
            }
            cluster.advance(1000);
            let mut still = Vec::new();
            for (ns, name, uid) in going.drain(..) {
                // waitForDelete: a GET per Pod; gone, or another Pod of the same name
                let now = kubectl(cluster, Method::Get, &format!("/api/v1/namespaces/{}/pods/{}", ns, name), None);
                if now.ok() && meta::uid(&now.body) == uid {
                    still.push((ns, name, uid));
                } else {
                    out.out(&format!("pod/{} evicted", name));
                }
            }
            going = still;
        }
        if pending.is_empty() && going.is_empty() {
            break;
        }
        if cluster.now() >= deadline {
            // each waiting eviction's goroutine returns the global timeout
            let Some(ms) = timeout else {
                return out.err(&format!(
                    "error: kubesim stopped waiting after {} of cluster time (its limit for drain; pass --timeout to choose); {} Pod(s) still on node {}",
                    printers::human_duration(DRAIN_MAX_WAIT_MS),
                    pending.len() + going.len(),
                    node
                ));
            };
            let errs: Vec<String> = pending.iter().map(|(ns, name, _)| format!("error when evicting pods/\"{}\" -n \"{}\": global timeout reached: {}", name, ns, go_duration(ms))).chain(going.iter().map(|(ns, name, _)| format!("error when waiting for pod \"{}\" in namespace \"{}\" to terminate: global timeout reached: {}", name, ns, go_duration(ms)))).collect();
            let agg = if errs.len() == 1 { errs[0].clone() } else { format!("[{}]", errs.join(", ")) };
            return out.err(&format!("error: unable to drain node \"{}\" due to error: {}, continuing command...\nThere are pending nodes to be drained:\n {}\n{}", node, agg, node, agg));
        }
    }
    out.out(&format!("node/{} drained", node));
}
