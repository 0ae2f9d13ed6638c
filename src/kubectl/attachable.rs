//! The Pod a command that attaches to one uses for `TYPE/NAME`.
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/polymorphichelpers/attachablepodforobject.go`
//! (`AttachablePodForObjectFn`): a Pod is itself; a Service, Deployment, ReplicaSet,
//! StatefulSet, DaemonSet, Job or ReplicationController gives its selector
//! (`SelectorsForObject`), and `GetFirstPod` lists the Pods it selects and takes the first by
//! `sort.Reverse(podutils.ActivePods)` ([`super::logs::first_pod`]). `logs`, `attach` and
//! `port-forward` use it. What kubesim simplifies: `GetFirstPod` does not wait for a Pod to
//! appear; with none it fails at once with the wait's error.

use super::*;

/// The Pod for `obj` (of kind `info`) and how many Pods its selector chose from.
pub(super) fn attachable_pod(cluster: &mut Cluster, info: &meta::ResourceInfo, obj: &Value, ns: &str) -> Result<(Value, usize), String> {
    let selector = match info.kind {
        "Pod" => return Ok((obj.clone(), 1)),
        "Service" => {
            let sel = obj.pointer("/spec/selector").and_then(Value::as_object).cloned().unwrap_or_default();
            if sel.is_empty() {
                return Err(format!("error: invalid service '{}': Service is defined without a selector", meta::name(obj)));
            }
            sel.iter().map(|(k, v)| format!("{}={}", k, v.as_str().unwrap_or(""))).collect::<Vec<_>>().join(",")
        }
        "Deployment" | "ReplicaSet" | "StatefulSet" | "DaemonSet" | "Job" | "ReplicationController" => meta::selector_string(meta::get(obj, &["spec", "selector"])),
        other => return Err(format!("error: cannot attach to *v1.{}: selector for *v1.{} not implemented", other, other)),
    };
    let pods = list_items(cluster, &get::list_path(meta::lookup("pods").expect("pods"), ns, false, &selector));
    let count = pods.len();
    let first = logs::first_pod(pods.clone()).ok_or("error: timed out waiting for the condition")?;
    let pod = pods.into_iter().find(|p| meta::name(p) == first).expect("the first pod is one of the list");
    Ok((pod, count))
}
