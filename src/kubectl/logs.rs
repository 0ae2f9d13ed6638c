//! `kubectl logs` (`staging/src/k8s.io/kubectl/pkg/cmd/logs/logs.go`, `polymorphichelpers/
//! logsforobject.go`, `cmd/util/podcmd/podcmd.go`): GET `pods/NAME/log`, which kube-apiserver
//! proxies to the kubelet of the pod's node.
//!
//! kubectl picks the container as upstream does: `-c`, else the
//! `kubectl.kubernetes.io/default-container` annotation, else the first container, saying so on
//! stderr when the pod has more than one. `deployment/NAME` and `rs/NAME` log the first pod.
//!
//! `-f` follows: it prints what the container has printed so far, then lets the cluster run until
//! the container's current run ends (the kubelet closes the stream) and prints what came after.
//! A container that keeps running is followed while the cluster has foreground work (as `sim
//! settle` would run), then kubectl stops with a note that a real `kubectl logs -f` would keep
//! waiting; idle cluster time is not skipped ahead.
//!
//! What kubesim simplifies: the stream's later lines are read with a second request when it ends
//! (the trace shows two GETs where a real stream is one long response); `--since`,
//! `--timestamps` and `--all-containers` are not offered.

use super::*;

const DEFAULT_CONTAINER_ANNOTATION: &str = "kubectl.kubernetes.io/default-container";

pub(super) fn logs(cluster: &mut Cluster, f: &Flags, ns: &str, out: &mut Output) {
    let pod_name = match f.positional.as_slice() {
        [one] => one.clone(),
        [] => return out.err("error: expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command\nSee 'kubectl logs -h' for help and examples"),
        [pod, container] if f.container.is_none() => {
            // `kubectl logs POD CONTAINER` (the old form)
            return logs_of(cluster, f, ns, pod, Some(container.clone()), out);
        }
        _ => return out.err("error: only one of -c or an inline [CONTAINER] arg is allowed"),
    };
    if let Some(t) = &f.tail {
        if t.parse::<i64>().map(|n| n < -1).unwrap_or(true) {
            return out.err(&format!("error: invalid argument \"{}\" for \"--tail\" flag: strconv.ParseInt: parsing \"{}\": invalid syntax", t, t));
        }
    }
    logs_of(cluster, f, ns, &pod_name, f.container.clone(), out)
}

fn logs_of(cluster: &mut Cluster, f: &Flags, ns: &str, target: &str, container: Option<String>, out: &mut Output) {
    let pod = match target.split_once('/') {
        None => target.to_string(),
        Some((kind, name)) => {
            let Some(info) = meta::lookup(kind) else { return out.err(&unknown_resource(kind)) };
            match info.kind {
                "Pod" => name.to_string(),
                "Deployment" | "ReplicaSet" | "DaemonSet" | "StatefulSet" | "Job" => {
                    // logsforobject → AttachablePodForObjectFn: the object's selector, then GetFirstPod
                    let got = kubectl(cluster, Method::Get, &info.object_path(ns, name), None);
                    if !got.ok() {
                        return out.err(&server_error(&got, None));
                    }
                    let (pod, count) = match attachable::attachable_pod(cluster, info, &got.body, ns) {
                        Ok(p) => p,
                        Err(e) => return out.err(&e),
                    };
                    let first = meta::name(&pod).to_string();
                    if count > 1 {
                        out.note(&format!("Found {} pods, using pod/{}", count, first));
                    }
                    first
                }
                _ => return out.err(&format!("error: cannot get the logs from {}", info.kubectl_prefix())),
            }
        }
    };
    let pods = meta::lookup("pods").expect("pods");
    let got = kubectl(cluster, Method::Get, &pods.object_path(ns, &pod), None);
    if !got.ok() {
        return out.err(&server_error(&got, None));
    }
    let names = |field: &str| -> Vec<String> {
        meta::get(&got.body, &["spec", field]).and_then(Value::as_array).map(|a| a.iter().map(|c| meta::get_str(c, &["name"]).to_string()).collect()).unwrap_or_default()
    };
    let (containers, inits, ephemerals) = (names("containers"), names("initContainers"), names("ephemeralContainers"));
    let container = match container {
        Some(c) => c,
        None => default_container(&got.body, out),
    };
    if !containers.contains(&container) && !inits.contains(&container) && !ephemerals.contains(&container) {
        return out.err(&format!("error: container {} is not valid for pod {}", container, pod));
    }
    let mut q = vec![format!("container={}", container)];
    if f.follow {
        q.push("follow=true".into());
    }
    if f.previous {
        q.push("previous=true".into());
    }
    if let Some(t) = f.tail.as_ref().filter(|t| t.as_str() != "-1") {
        q.push(format!("tailLines={}", t));
    }
    let log_path = format!("{}/log?{}", pods.object_path(ns, &pod), q.join("&"));
    let resp = kubectl(cluster, Method::Get, &log_path, None);
    if !resp.ok() {
        return out.err(&server_error(&resp, None));
    }
    let mut text = resp.body.as_str().unwrap_or("").to_string();
    if f.follow && !f.previous {
        text = follow(cluster, ns, &pod, &container, &log_path, text, out);
    }
    let text = match f.tail.as_ref().and_then(|t| t.parse::<usize>().ok()) {
        Some(n) => {
            let lines: Vec<&str> = text.lines().collect();
            lines[lines.len().saturating_sub(n)..].iter().map(|l| format!("{}\n", l)).collect()
        }
        None => text,
    };
    out.out_raw(&text);
}

/// `-f`: run the cluster until the followed run of the container ends, then add what it printed
/// meanwhile to `text`.
fn follow(cluster: &mut Cluster, ns: &str, pod: &str, container: &str, log_path: &str, text: String, out: &mut Output) -> String {
    let pods = meta::lookup("pods").expect("pods");
    // the run being followed: its restart count now
    let run_state = |cluster: &Cluster| -> Option<(i64, bool)> {
        let p = cluster.view().object(pods, ns, pod)?;
        let statuses = ["containerStatuses", "initContainerStatuses"]
            .iter()
            .filter_map(|k| meta::get(&p, &["status", k]).and_then(Value::as_array).cloned())
            .flatten();
        let cs = statuses.into_iter().find(|c| meta::get_str(c, &["name"]) == container)?;
        Some((meta::get_i64(&cs, &["restartCount"]).unwrap_or(0), meta::get(&cs, &["state", "terminated"]).is_some()))
    };
    let Some((run, done)) = run_state(cluster) else { return text };
    if done {
        return text;
    }
    let max_steps = cluster.max_steps_per_settle();
    let mut steps = 0u64;
    let ended = loop {
        match run_state(cluster) {
            None => break true,
            Some((r, d)) if r != run || d => break true,
            _ => {}
        }
        // only while the cluster has foreground work: idle time is not skipped ahead
        if steps >= max_steps || !cluster.has_foreground_work() || !cluster.step() {
            break false;
        }
        steps += 1;
    };
    let resp = kubectl(cluster, Method::Get, log_path, None);
    let later = resp.body.as_str().filter(|_| resp.ok()).unwrap_or("").to_string();
    // the same run, read again: it begins with what was printed (a new run's log does not)
    let text = if later.starts_with(&text) { later } else { text };
    if !ended {
        out.note("kubesim: the container is still running and the cluster has nothing more to do; a real `kubectl logs -f` would keep waiting here until interrupted (Ctrl-C)\n");
    }
    text
}

/// `podcmd.FindOrDefaultContainerByName` without a name: the container the
/// `kubectl.kubernetes.io/default-container` annotation names, else the first, saying which
/// when the Pod has more.
pub(super) fn default_container(pod: &Value, out: &mut Output) -> String {
    let names = |field: &str| -> Vec<String> { meta::get(pod, &["spec", field]).and_then(Value::as_array).map(|a| a.iter().map(|c| meta::get_str(c, &["name"]).to_string()).collect()).unwrap_or_default() };
    let (containers, inits, ephemerals) = (names("containers"), names("initContainers"), names("ephemeralContainers"));
    let chosen = match meta::annotation(pod, DEFAULT_CONTAINER_ANNOTATION) {
        Some(d) if containers.iter().any(|c| c == d) => d.to_string(),
        Some(d) => {
            out.note(&format!("Default container name \"{}\" not found in pod {}", d, meta::name(pod)));
            containers.first().cloned().unwrap_or_default()
        }
        None => containers.first().cloned().unwrap_or_default(),
    };
    if containers.len() + inits.len() + ephemerals.len() > 1 {
        let mut all: Vec<String> = containers.clone();
        all.extend(inits.iter().map(|i| format!("{} (init)", i)));
        all.extend(ephemerals.iter().map(|e| format!("{} (ephem)", e)));
        out.note(&format!("Defaulted container \"{}\" out of: {}", chosen, all.join(", ")));
    }
    chosen
}

/// `GetFirstPod` with `sort.Reverse(podutils.ActivePods(pods))`, sorted by Go's `sort.Sort`
/// ([`super::gosort`]): the most "active" pod (assigned, running, ready longest, fewest
/// restarts, oldest) comes first; ties stay where Go's sort leaves them.
pub(super) fn first_pod(mut pods: Vec<Value>) -> Option<String> {
    gosort::sort(&mut pods, &|a, b| active_pods_less(b, a));
    pods.first().map(|p| meta::name(p).to_string())
}

/// `podutils.ActivePods.Less` (kubectl's copy, `pkg/util/podutils`).
fn active_pods_less(i: &Value, j: &Value) -> bool {
    let node = |p: &Value| meta::get_str(p, &["spec", "nodeName"]).to_string();
    let (ni, nj) = (node(i), node(j));
    if ni != nj && (ni.is_empty() || nj.is_empty()) {
        return ni.is_empty();
    }
    let phase = |p: &Value| match meta::get_str(p, &["status", "phase"]) {
        "Pending" => 0,
        "Unknown" => 1,
        "Running" => 2,
        _ => 0,
    };
    if phase(i) != phase(j) {
        return phase(i) < phase(j);
    }
    let ready_time = |p: &Value| -> Option<String> {
        p.pointer("/status/conditions")?.as_array()?.iter().find(|c| c["type"] == "Ready" && c["status"] == "True").map(|c| meta::get_str(c, &["lastTransitionTime"]).to_string())
    };
    let (ri, rj) = (ready_time(i), ready_time(j));
    if ri.is_some() != rj.is_some() {
        return ri.is_none();
    }
    let deleting = |p: &Value| meta::get_str(p, &["metadata", "deletionTimestamp"]).to_string();
    let (di, dj) = (deleting(i), deleting(j));
    if di.is_empty() != dj.is_empty() {
        return !di.is_empty();
    }
    if !di.is_empty() && di != dj {
        return di < dj;
    }
    // afterOrZero(t1, t2): a zero time counts as after a non-zero one
    let after_or_zero = |t1: &str, t2: &str| if t1.is_empty() || t2.is_empty() { t1.is_empty() } else { t1 > t2 };
    if let (Some(a), Some(b)) = (&ri, &rj) {
        if a != b {
            return after_or_zero(a, b);
        }
    }
    let restarts = |p: &Value, field: &str| -> i64 {
        p.pointer(&format!("/status/{}", field)).and_then(Value::as_array).map(|cs| cs.iter().filter_map(|c| c["restartCount"].as_i64()).max().unwrap_or(0)).unwrap_or(0)
    };
    let sidecar_restarts = |p: &Value| -> i64 {
        let sidecars: Vec<&str> = p.pointer("/spec/initContainers").and_then(Value::as_array).map(|cs| cs.iter().filter(|c| c["restartPolicy"] == "Always").filter_map(|c| c["name"].as_str()).collect()).unwrap_or_default();
        p.pointer("/status/initContainerStatuses").and_then(Value::as_array).map(|cs| cs.iter().filter(|c| c["name"].as_str().is_some_and(|n| sidecars.contains(&n))).filter_map(|c| c["restartCount"].as_i64()).max().unwrap_or(0)).unwrap_or(0)
    };
    let (ci, cj) = (restarts(i, "containerStatuses"), restarts(j, "containerStatuses"));
    if ci != cj {
        return ci > cj;
    }
    let (si, sj) = (sidecar_restarts(i), sidecar_restarts(j));
    if si != sj {
        return si > sj;
    }
    let created = |p: &Value| meta::get_str(p, &["metadata", "creationTimestamp"]).to_string();
    let (ti, tj) = (created(i), created(j));
    if ti != tj {
        return after_or_zero(&ti, &tj);
    }
    false
}
